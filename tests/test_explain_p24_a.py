"""Practice round 24 (build side, helper p24 a): the misses of a practice set of real build logs, fixed as families,
each with the practice log's own lines, other public threads of the family and a near miss that keeps its answer.

- nvcc.unknown_option: nvcc's "'arch=native': expected a number" is a gcc -m flag (-march=, -mtune=, -mcpu=, -mavx2,
  -mfma, -mf16c) on nvcc's command line: nvcc owns -m (--machine, 32 or 64) and reads the rest as its value, so
  --forward-unknown-to-host-compiler does not forward it; the flag goes to the host compiler through -Xcompiler.
- program.device_function_unresolved: ptxas's "Unresolved extern function 'X'" for any function but pow's integer
  overloads is the program's code or build file (no relocatable device code for a function defined in another file, a
  definition without the __device__ its declaration has, a device-runtime call without -rdc): a verdict, with where to
  look, and no environment claim.
- nvcc.gcc_too_new: torch.utils.cpp_extension's "is greater than the maximum required version by CUDA X" for a gcc that
  CUDA X's own host_config.h accepts (data/compat.yaml gcc_max) is torch's older table, not the toolkit: skip torch's
  check with TORCH_DONT_CHECK_COMPILER_ABI=1 (or a newer torch) before changing compilers (CUDA 11.4.0 excepted).

Left as they were: the practice log of conda-forge/pytorch-cpu-feedstock#507 is torch's compiler-range line cut to its
last words, "(>=6.0.0, <14.0)", with neither the compiler's version nor the CUDA it checked against: nothing is claimed
on it (torch's stale table, the family the nvcc.gcc_too_new variant above answers when the line is whole).

Each text is copied from the thread named above it."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, unbounded_beyond_blanks, hostile_line

CASES = [
    # --- nvcc.unknown_option: a gcc -m flag read as nvcc's own -m
    # https://github.com/mmp/pbrt-v4/issues/87 (the practice log: CMake put -march=native into CUDA_FLAGS beside
    # --forward-unknown-to-host-compiler; removing it from flags.make worked)
    ("After using cmake generates Makefile scripts,  when I comile pbrt v4 code,  nvcc gave a error message:\n"
     "nvcc fatal   : 'arch=native': expected a number\n"
     "CUDA_FLAGS =   -Xcudafe --diag_suppress=partial_override --expt-relaxed-constexpr --extended-lambda "
     "--forward-unknown-to-host-compiler --std=c++17 --use_fast_math -lineinfo -maxrregcount 128 "
     "--gpu-architecture=sm_75 -O3 -DNDEBUG   -D NDEBUG  -march=native\n",
     "nvcc.unknown_option", "-Xcompiler -march=native"),
    # https://github.com/arbor-sim/arbor/issues/575 (cmake -DARB_ARCH=haswell -DARB_WITH_GPU=ON: the march flag passed
    # to nvcc; fixed in arbor's CMake)
    ("nvcc  -DARB_HAVE_GPU -I/users/bcumming/arbor/arbor -O3 -DNDEBUG   "
     "-Xcudafe=--diag_suppress=integer_sign_change -march=haswell -gencode=arch=compute_35,code=sm_35 "
     "-Xcompiler=-pthread -x cu -c /users/bcumming/arbor/arbor/backends/gpu/stimulus.cu "
     "-o CMakeFiles/arbor.dir/backends/gpu/stimulus.cu.o\n"
     "nvcc fatal   : 'arch=haswell': expected a number\n",
     "nvcc.unknown_option", "-Xcompiler -march=haswell"),
    # https://github.com/OAID/Tengine/issues/1053 (building the CUDA backend: -mfma reached nvcc)
    ("nvcc fatal   : 'fma': expected a number\n", "nvcc.unknown_option", "-Xcompiler -mfma"),
    # https://github.com/ggml-org/llama.cpp/issues/1467 (-DLLAMA_CUBLAS=1 with the CPU flags in the CUDA flags)
    ("[User] nvcc fatal : 'f16c': expected a number\n", "nvcc.unknown_option", "-Xcompiler -mf16c"),
    # https://github.com/pytorch/pytorch/issues/78248 (USE_NATIVE_ARCH on a Jetson build)
    ("USE_NATIVE_ARCH flag causes nvcc build failure due to \"'arch=native': expected a number\"\n"
     "nvcc fatal   : 'arch=native': expected a number\n",
     "nvcc.unknown_option", "-Xcompiler -march=native"),
    # near miss: an unknown host flag keeps the entry's own forwarding answer
    ("nvcc fatal   : Unknown option '-Wall'\n", "nvcc.unknown_option", "Pass host-compiler flags through nvcc"),
]

test_first_answer = first_answer_tests(CASES)

VERDICTS = [
    # --- program.device_function_unresolved
    # https://github.com/AMReX-Codes/amrex/issues/1829 (the practice log: a Debug build without -dc; "The `-dc` option
    # resolved the problem")
    ("I build AMReX (via Spack) with the options `amrex +cuda cuda_arch=75 ~fortran +openmp +particles +shared "
     "build_type=Debug`. The resulting library leads to the error message\n"
     "ptxas fatal   : Unresolved extern function '_ZN5amrex12Abort_deviceEPKc'\n"
     "/home/eschnetter/src/CarpetX/Cactus/configs/sim-gpu-debug/config-data/make.config.rules:315: recipe for target "
     "'linsolve.cxx.o' failed\n",
     "program.device_function_unresolved", "compile with relocatable device code"),
    # https://github.com/llnl/axom/issues/795 (declared AXOM_HOST_DEVICE in the .hpp, defined without it in the .cpp)
    ("When building axom with cuda support for serac (with NVCC 11.4 on Ubuntu 20.04), I'm seeing more `unresolved "
     "extern function` errors coming from primal. I get:\n\n"
     "ptxas fatal   : Unresolved extern function '_ZN4axom6primal6detail28intersectOnePermutedTriangleERKNS0_5PointIdLi3E"
     "EES5_S5_S5_S5_S5_dddRNS0_6VectorIdLi3EEEbd'\n",
     "program.device_function_unresolved", "`__device__`"),
    # https://github.com/llnl/Quicksilver/issues/42 (the Makefile's -dc removed)
    ("/swtools/cuda/cuda-9.2/bin/nvcc -x cu  -DHAVE_CUDA -std=c++11 -O2  -g  --gpu-architecture=sm_61 "
     "--compiler-bindir=/swtools/gcc/7.5.0/bin/gcc -c main.cc -o main.o\n"
     "ptxas fatal   : Unresolved extern function '_Z17getGlobalThreadIDv'\n"
     "make: *** [main.o] Error 255\n",
     "program.device_function_unresolved", "-rdc=true"),
    # https://github.com/NVIDIA/cub/pull/533 (cudaGetLastError in __host__ __device__ code built without -rdc)
    (":nvcc main.cu\nptxas fatal   : Unresolved extern function 'cudaGetLastError'\n",
     "program.device_function_unresolved", "-lcudadevrt"),
]

test_verdict = first_answer_tests(VERDICTS, verdicts=True)

STALE = [
    # --- nvcc.gcc_too_new, torch's table older than the toolkit
    # https://github.com/pytorch/pytorch/issues/81039 (CUDA 11.4.4 with GCC 11.2 refused as "(10.0.0)"; CUDA 11.4.1 and
    # later take gcc 11; torch's table was updated in pytorch/pytorch#82860, whose thread names the switch)
    ('"<myenv>/lib/python3.9/site-packages/torch/utils/cpp_extension.py", line 843, in _check_cuda_version\n'
     "    raise RuntimeError(\n"
     "RuntimeError: The current installed version of <myenv>/_build_env/bin/powerpc64le-conda-linux-gnu-c++ (11.2.0) is "
     "greater than the maximum required version by CUDA 11.4 (10.0.0). Please make sure to use an adequate version of "
     "<myenv>/_build_env/bin/powerpc64le-conda-linux-gnu-c++ (>=6.0.0, <=10.0.0).\n",
     "nvcc.gcc_too_new", "TORCH_DONT_CHECK_COMPILER_ABI=1"),
    # https://github.com/pytorch/pytorch/pull/173366 (torch's table refused gcc 14 with CUDA 12.8, whose host_config.h
    # errors only above 14) and conda-forge/pytorch-cpu-feedstock#507 (gcc 14 with CUDA 12.9, "(>=6.0.0, <14.0)"), in
    # torch's own words
    ("RuntimeError: The current installed version of g++ (14.2.0) is greater than the maximum required version by CUDA "
     "12.9. Please make sure to use an adequate version of g++ (>=6.0.0, <14.0).\n",
     "nvcc.gcc_too_new", "TORCH_DONT_CHECK_COMPILER_ABI=1"),
    # near misses: a gcc above the toolkit's own limit keeps the compiler answer (autonomousvision/gaussian-opacity-fields#49)
    ("RuntimeError: The current installed version of g++ (11.4.0) is greater than the maximum required version by "
     "CUDA 11.3 (10.0.0). Please make sure to use an adequate version of g++ (>=5.0.0, <=10.0.0).",
     "nvcc.gcc_too_new", "g++-10"),
    # and CUDA 11.4.0 (nvcc V11.4.48), which took gcc 10 only
    ("Cuda compilation tools, release 11.4, V11.4.48\n"
     "RuntimeError: The current installed version of g++ (11.2.0) is greater than the maximum required version by CUDA "
     "11.4 (10.0.0). Please make sure to use an adequate version of g++ (>=6.0.0, <=10.0.0).\n",
     "nvcc.gcc_too_new", "g++-10"),
]

test_stale_table = first_answer_tests(STALE)


def test_the_stale_table_answer_names_both_limits():
    (m,) = [m for m in explain(STALE[1][0]) if m.environment]
    assert "gcc 14" in m.title and "CUDA 12.9" in m.title and "gcc-13" in m.fix


@pytest.mark.parametrize("literal", [
    "installed version of " + "x" * 300, "installed version of g++ (14.2.0) is greater than the maximum required version by CUDA ",
    "maximum required version by CUDA 12.9 (", "installed version of (((",
])
def test_hostile_lines_of_the_torch_check_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")


def test_pow_with_an_integer_exponent_keeps_its_own_answer():
    # the near miss: ashawkey/torch-ngp#6's '_Z3powdi' stays the device math's missing overload
    found = explain("ptxas fatal   : Unresolved extern function '_Z3powdi'\n")
    assert [m.id for m in found] == ["nvcc.device_pow_int_overload"]


def test_the_m_flag_answer_names_nvccs_own_option():
    (m,) = [m for m in explain("nvcc fatal   : 'arch=native': expected a number\n") if m.environment]
    assert "-march=native" in m.title and "--forward-unknown-to-host-compiler does not help" in m.cause


@pytest.mark.parametrize("text", [
    # https://github.com/microsoft/onnxruntime/issues/19833: a value of nvcc's own --threads that is no number is the
    # build's option (onnxruntime's "--threads ON"), not a gcc -m flag
    "nvcc ... --theads ON\nnvcc fatal   : 'ON': expected a number\n",
    "nvcc fatal   : '4x': expected a number\n",
])
def test_a_value_that_is_no_m_flag_claims_nothing_of_host_flags(text):
    assert "nvcc.unknown_option" not in [m.id for m in explain(text)]


# --- the new pattern stays linear on hostile input: every unbounded repeat in it is a run of blanks, so a 200 000-character
# line built from its own literals costs one pass; checked on the parsed pattern, without timing.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    new = [p for p in entries["nvcc.unknown_option"]["patterns"] if "expected a number" in p]
    assert len(new) == 1
    return new + entries["program.device_function_unresolved"]["patterns"]


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _new_patterns():
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "nvcc fatal   : 'arch=", "nvcc fatal : 'avx", "nvcc fatal: 'sse4.2': expected a number ", "': expected a number",
    "nvcc fatal   : 'arch=native" + "a" * 60,
    "ptxas fatal   : Unresolved extern function '", "ptxas fatal : Unresolved extern function '_Z3powfi",
    "ptxas fatal : Unresolved extern function '_Z17getGlobalThreadIDv' ",
])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")
