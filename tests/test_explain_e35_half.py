"""[t35] Two halves compared or added where cuda_fp16.hpp declares no operators for them, with the test bed's real nvcc.

Before CUDA 12.2 the __half operators exist in device code for compute capability 5.3 and newer only; built without
-arch (nvcc 11.8's default is sm_52) `a < b` on two halves is ambiguous between __half's conversions (NVIDIA/cutlass, the
burned fresh35 ac11: an FP16 GEMM built without -arch). torch's extension flags (-D__CUDA_NO_HALF_OPERATORS__) remove
them on every architecture and release. The answer's fix is followed where it can be: with -arch of 5.3 or newer (here
sm_60) the same file compiles.
"""
import os
import subprocess

from explain_answers import first_environment_answer

CLEAN_PATH = "/usr/local/bin:/usr/bin:/bin"
HALVES = """#include <cuda_fp16.h>
__global__ void k(__half *x, __half *y, bool *o) { o[0] = x[0] < y[0]; x[0] = x[0] + y[0]; }
"""


def _nvcc(testbed, cuda, tmp_path, *flags):
    (tmp_path / "h.cu").write_text(HALVES)
    argv = [os.path.join(testbed[cuda], "bin", "nvcc"), *flags, "-c", "h.cu", "-o", "h.o"]
    if cuda == "11.8":
        argv[1:1] = ["-ccbin", "g++-11"]  # 11.8 refuses Debian 12's gcc 12
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"HOME": str(tmp_path), "PATH": f"{testbed[cuda]}/bin:{CLEAN_PATH}"})
    return done.returncode, done.stdout + done.stderr


def test_no_arch_before_cuda_12_2(tmp_path, testbed):
    rc, said = _nvcc(testbed, "11.8", tmp_path)
    assert rc != 0 and 'more than one conversion function from "__half" to a built-in type applies' in said, said
    first = first_environment_answer(said)
    assert first.id == "nvcc.half_operators_unavailable", said
    assert first.fix.startswith("Compile for your GPU's architecture (5.3 or newer)")
    # the fix followed: an architecture of 5.3 or newer declares the operators
    rc, said = _nvcc(testbed, "11.8", tmp_path, "-arch=sm_60")
    assert rc == 0, said


def test_torch_flags_remove_them_on_any_release(tmp_path, testbed):
    rc, said = _nvcc(testbed, "12.4", tmp_path, "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__")
    assert rc != 0, said
    log = "nvcc -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -c h.cu\n" + said
    assert 'no operator "<" matches these operands' in said, said  # the conversions are gone too: no candidate
    first = first_environment_answer(log)
    assert first.id == "nvcc.half_operators_unavailable" and "__CUDA_NO_HALF_OPERATORS__" in first.title, log
    assert "-U__CUDA_NO_HALF_OPERATORS__" in first.fix
