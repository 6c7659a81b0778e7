"""The tiny programs ``verify`` builds, and the checks of what they print.

Every program prints marked lines (``cudaenv-verify <what> ...``) and the
checks here read them: a zero exit status alone never counts as a pass. The
kernel writes known values (``out[i] = i * 7 + 3``), the host copies them back
and reports how many were wrong and their sum, and the Python side recomputes
both.
"""

from __future__ import annotations

from ..host import cuda_of_int

__all__ = ["N", "expected_sum", "RUNTIME_CU", "DRIVER_CPP", "EXT_CPP", "EXT_CU", "EXT_NAME",
           "TORCH_BUILD_PY", "TORCH_RUN_PY", "MARK", "parse_marked", "check_runtime_output",
           "check_driver_output", "cuda_version_int", "ADDON_PROGRAMS", "addon_version_code", "check_addon_output"]

#: How many values the kernel writes.
N = 1000
#: Prefix of every line the programs print for us.
MARK = "cudaenv-verify"
#: Module name of the torch extension.
EXT_NAME = "cudaenv_verify_ext"


def expected_sum(n: int = N) -> int:
    """Sum of the values the kernel writes: ``i * 7 + 3`` for ``i < n``."""
    return sum(i * 7 + 3 for i in range(n))


def cuda_version_int(version: str) -> int:
    """``"13.5"`` -> 13050, the form of ``CUDART_VERSION`` and ``cudaRuntimeGetVersion``."""
    major, minor = (version.split(".") + ["0"])[:2]
    return int(major) * 1000 + int(minor) * 10


# Runtime API: built by nvcc with -cudart shared and -cudart static. It prints the
# runtime version it loaded (libcudart from LD_LIBRARY_PATH, or the system's: the
# ld.so.conf pitfall), the device, then the values. Errors carry the runtime's own
# name and text, so `cudaenv explain` recognises them.
RUNTIME_CU = r"""
#include <cstdio>
#include <cuda_runtime.h>

#define N %(n)d

__global__ void fill(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * 7 + 3;
}

static int fail(const char *what, cudaError_t e) {
    std::printf("%(mark)s error %%s %%d %%s: %%s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
    return 2;
}

int main() {
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    std::printf("%(mark)s runtime %%d\n", rt);
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return fail("cudaGetDevice", e);
    cudaDeviceProp prop;
    e = cudaGetDeviceProperties(&prop, dev);
    if (e != cudaSuccess) return fail("cudaGetDeviceProperties", e);
    std::printf("%(mark)s device %%d.%%d %%s\n", prop.major, prop.minor, prop.name);
    int *d = 0;
    e = cudaMalloc(&d, N * sizeof(int));
    if (e != cudaSuccess) return fail("cudaMalloc", e);
    fill<<<(N + 127) / 128, 128>>>(d, N);
    e = cudaGetLastError();
    if (e != cudaSuccess) return fail("kernel launch", e);
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return fail("cudaDeviceSynchronize", e);
    static int h[N];
    e = cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return fail("cudaMemcpy", e);
    cudaFree(d);
    long long sum = 0;
    int bad = 0;
    for (int i = 0; i < N; ++i) {
        sum += h[i];
        if (h[i] != i * 7 + 3) ++bad;
    }
    std::printf("%(mark)s values %%d %%d %%lld\n", N, bad, sum);
    return bad ? 3 : 0;
}
""" % {"n": N, "mark": MARK}

# Driver API: built by the host C++ compiler with -lcuda (found through LIBRARY_PATH only).
DRIVER_CPP = r"""
#include <cstdio>
#include <cuda.h>

static const char *name_of(CUresult r) {
    const char *s = 0;
    if (cuGetErrorName(r, &s) == CUDA_SUCCESS && s) return s;
    return r == 34 ? "CUDA_ERROR_STUB_LIBRARY (CUDA driver is a stub library)" : "?";
}

int main() {
    CUresult r = cuInit(0);
    int v = 0;
    CUresult rv = cuDriverGetVersion(&v);
    std::printf("%(mark)s cuInit %%d %%s\n", (int)r, name_of(r));
    std::printf("%(mark)s driver %%d %%d\n", (int)rv, v);
    if (r != CUDA_SUCCESS) return 2;
    int n = 0;
    r = cuDeviceGetCount(&n);
    std::printf("%(mark)s devices %%d %%d\n", (int)r, n);
    return r == CUDA_SUCCESS && n > 0 ? 0 : 2;
}
""" % {"mark": MARK}

# torch extension: distinct stems (ext.cpp / ext_kernel.cu) -- setup.py builds map both
# x.cpp and x.cu to x.o ("ninja: multiple rules generate x.o").
EXT_CPP = r"""
#include <torch/extension.h>

void cudaenv_verify_launch(int *out, int n);

torch::Tensor fill(int64_t n) {
    auto t = torch::empty({n}, torch::dtype(torch::kInt32).device(torch::kCUDA));
    cudaenv_verify_launch(t.data_ptr<int>(), (int)n);
    return t.cpu();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fill", &fill, "out[i] = i * 7 + 3 on the GPU"); }
"""

# The kernel side includes c10's stream header (torch headers through nvcc, in torch's
# C++ standard) but not ATen/cuda/CUDAContext.h: that one needs cuBLAS/cuSPARSE headers,
# which toolkits assembled from the nvcc/cudart wheels do not have.
EXT_CU = r"""
#include <cuda_runtime.h>
#include <c10/cuda/CUDAStream.h>

__global__ void cudaenv_verify_fill(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * 7 + 3;
}

void cudaenv_verify_launch(int *out, int n) {
    cudaenv_verify_fill<<<(n + 127) / 128, 128, 0, c10::cuda::getCurrentCUDAStream()>>>(out, n);
}
"""

# Runs in the user's interpreter. BuildExtension (not JIT load()) because only it runs
# torch's CUDA version check: a major mismatch must fail here, not at import.
TORCH_BUILD_PY = r"""
import json, sys, time
MARK = "%(mark)s"
t0 = time.time()
import torch
print(MARK + " torch " + json.dumps({"version": torch.__version__, "cuda": torch.version.cuda,
                                     "import_seconds": round(time.time() - t0, 3)}), flush=True)
if not torch.version.cuda:
    sys.exit(4)
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(name="%(name)s", ext_modules=[CUDAExtension("%(name)s", ["ext.cpp", "ext_kernel.cu"])],
      cmdclass={"build_ext": BuildExtension},
      script_args=["build_ext", "--inplace", "--build-temp", "build"])
print(MARK + " built", flush=True)
""" % {"mark": MARK, "name": EXT_NAME}

# Imports the built extension (and, with "call", runs its kernel).
TORCH_RUN_PY = r"""
import json, os, sys
MARK = "%(mark)s"
import torch
import %(name)s as ext
print(MARK + " import " + json.dumps({"file": os.path.abspath(ext.__file__)}), flush=True)
if sys.argv[1:] == ["call"]:
    v = ext.fill(%(n)d).tolist()
    bad = sum(1 for i, x in enumerate(v) if x != i * 7 + 3)
    print(MARK + " values %%d %%d %%d" %% (len(v), bad, sum(v)), flush=True)
""" % {"mark": MARK, "name": EXT_NAME, "n": N}


def parse_marked(text: str) -> dict[str, str]:
    """``{what: rest}`` of every marked line (the last of each kind wins)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith(MARK + " "):
            what, _, rest = line[len(MARK) + 1:].partition(" ")
            out[what] = rest.strip()
    return out


def _check_values(marks: dict[str, str]) -> str | None:
    """None when the values line shows every value right, else what is wrong."""
    vals = marks.get("values")
    if vals is None:
        return "the program printed no values"
    try:
        n, bad, total = (int(x) for x in vals.split())
    except ValueError:
        return f"unreadable values line: {vals!r}"
    if n != N or bad != 0 or total != expected_sum():
        return f"wrong values from the kernel: {bad} of {n} wrong, sum {total} (expected {expected_sum()})"
    return None


def check_runtime_output(stdout: str, returncode: int, toolkit_version: str) -> tuple[bool, str]:
    """Judge a run of the runtime program.

    Returns:
        (passed, one-line summary).
    """
    marks = parse_marked(stdout)
    if "error" in marks:
        return False, f"CUDA error: {marks['error']}"
    want = cuda_version_int(toolkit_version)
    rt = marks.get("runtime")
    if rt is None:
        return False, f"the program printed nothing (exit {returncode})"
    if rt != str(want):
        return False, (f"it loaded the CUDA runtime {rt}, not the toolkit's {want}: another libcudart "
                       "comes first on the loader path")
    bad = _check_values(marks)
    if bad:
        return False, bad
    if returncode != 0:
        return False, f"exit status {returncode}"
    return True, f"kernel wrote {N} correct values on {marks.get('device', 'the GPU')} (runtime {rt})"


def check_driver_output(stdout: str, returncode: int) -> tuple[bool, str]:
    """Judge a run of the driver API program: (passed, one-line summary)."""
    marks = parse_marked(stdout)
    init = marks.get("cuInit")
    if init is None:
        return False, f"the program printed nothing (exit {returncode})"
    if not init.startswith("0 "):
        return False, f"cuInit failed: {init}"
    drv = marks.get("driver", "").split()
    devs = marks.get("devices", "").split()
    if len(devs) != 2 or devs[0] != "0" or devs[1] == "0":
        return False, f"cuDeviceGetCount: {marks.get('devices', 'no answer')}"
    version = "?"
    if len(drv) == 2 and drv[1].isdigit() and int(drv[1]) > 0:
        version = cuda_of_int(int(drv[1]))
    if returncode != 0:
        return False, f"exit status {returncode}"
    return True, f"cuInit ok, driver supports CUDA {version}, {devs[1]} device(s)"


# cuDNN / NCCL add-ons (verify/steps.py step_addon_*): built by nvcc with no -I/-L of the add-on, so
# the header comes from CPATH and -lcudnn/-lnccl from LIBRARY_PATH. Neither call needs a GPU.
#: One program per add-on kind; each prints ``cudaenv-verify <kind> <values>``.
ADDON_PROGRAMS = {
    "cudnn": r"""
#include <cstdio>
#include <cudnn.h>
int main() {
    std::printf("%(mark)s cudnn %%zu %%zu %%d\n", cudnnGetVersion(), cudnnGetCudartVersion(), (int)CUDNN_VERSION);
    return 0;
}
""",
    "nccl": r"""
#include <cstdio>
#include <nccl.h>
int main() {
    int v = 0;
    ncclResult_t r = ncclGetVersion(&v);
    std::printf("%(mark)s nccl %%d %%d %%d\n", (int)r, v, (int)NCCL_VERSION_CODE);
    return 0;
}
""",
}


def addon_version_code(kind: str, version: str) -> int | None:
    """The number the library reports for ``version``: cuDNN 9.24.0.43 -> 92400, NCCL 2.30.7 -> 23007."""
    parts = version.split(".")
    try:
        major, minor, patch = (int(p) for p in (parts + ["0", "0"])[:3])
    except ValueError:
        return None
    # Both encode major*10000 + minor*100 + patch (cuDNN from 9, NCCL from 2.9).
    return major * 10000 + minor * 100 + patch if kind in ("cudnn", "nccl") else None


def check_addon_output(kind: str, stdout: str, returncode: int, version: str | None, cuda_major: str) -> tuple[bool, str]:
    """(passed, summary) for what the ``kind`` program printed."""
    vals = parse_marked(stdout).get(kind, "").split()
    want = addon_version_code(kind, version) if version else None
    if returncode != 0 or len(vals) != 3 or not all(v.lstrip("-").isdigit() for v in vals):
        return False, f"the {kind} program exited {returncode} without its line"
    if kind == "cudnn":
        got, cudart, header = (int(v) for v in vals)
        built = str(cudart // 1000)
        if want is not None and got != want:
            return False, f"libcudnn reports {got}, not {want} (cuDNN {version}): another libcudnn.so.9 was loaded"
        if got != header:
            return False, f"libcudnn reports {got} but cudnn.h says {header}: header and library are different cuDNNs"
        if built != cuda_major:
            return False, f"cuDNN {got} was built with CUDA runtime {cudart} (CUDA {built}), not CUDA {cuda_major}"
        return True, f"cudnnGetVersion {got}, built with CUDA runtime {cudart}"
    result, got, header = (int(v) for v in vals)
    if result != 0:
        return False, f"ncclGetVersion returned error {result}"
    if want is not None and got != want:
        return False, f"libnccl reports {got}, not {want} (NCCL {version}): another libnccl.so.2 was loaded"
    if got != header:
        return False, f"libnccl reports {got} but nccl.h says {header}: header and library are different NCCLs"
    return True, f"ncclGetVersion {got}"
