"""Round 18 (producers' own wordings, build side): the answers and near-misses of the patterns widened to every
release's and every producer's wording of a known cause (tests/data/explain_producers/build.yaml holds the
messages themselves, read from the producers' source).

- CMake's FindCUDAToolkit given a CUDAToolkit_ROOT without bin/nvcc: the root is the setting to correct.
- CMake's own check of CUDAHOSTCXX / CMAKE_CUDA_HOST_COMPILER: the compiler the setting names.
- CMake 3.18-3.23's per-architecture test ("do not all work with this compiler.  Try: X instead.").
- The other linkers' words for a missing or unlinked CUDA library (mold, Apple's ld64, MSVC link.exe, lld): every
  library the log names, and Windows' answer for link.exe.

The texts are the producers' messages with realistic values (the source of each is named above it)."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # Modules/FindCUDAToolkit.cmake (3.17-4.1): the variable names a directory without bin/nvcc
    ("CMake Error at /usr/share/cmake-3.22/Modules/FindCUDAToolkit.cmake:580 (message):\n"
     "  Could not find nvcc executable in path specified by CUDAToolkit_ROOT=/opt/cuda/12.1/lib64\n"
     "Call Stack (most recent call first):\n  CMakeLists.txt:9 (find_package)\n",
     "cmake.no_cuda_compiler", "Point CUDAToolkit_ROOT at the directory that holds bin/nvcc"),
    # Modules/FindCUDAToolkit.cmake (4.2+): the same with backticks, searched paths (no root given)
    ("CMake Error at /usr/local/share/cmake-4.2/Modules/FindCUDAToolkit.cmake:1020 (message):\n"
     "  Could not find `nvcc` executable in any searched paths, please set\n  CUDAToolkit_ROOT\n",
     "cmake.no_cuda_compiler", "puts its nvcc on PATH"),
    # Modules/CMakeDetermineCUDACompiler.cmake (4.3+)
    ("CMake Error at /usr/local/share/cmake-4.3/Modules/CMakeDetermineCUDACompiler.cmake:51 (message):\n"
     "  Could not find the compiler specified in the environment variable\n  CUDAHOSTCXX:\n\n  /usr/bin/g++-11.\n",
     "nvcc.host_compiler_missing", "/usr/bin/g++-11, which does not exist here"),
    # Modules/CMakeDetermineCUDACompiler.cmake (3.20): some architectures of the list work
    ("CMake Error at /usr/share/cmake-3.20/Modules/CMakeDetermineCUDACompiler.cmake:590 (message):\n"
     "  The CMAKE_CUDA_ARCHITECTURES:\n\n    35;86\n\n  do not all work with this compiler.  Try:\n\n    86\n\n"
     "  instead.\n",
     "cmake.cuda_compiler_id_failed", '-DCMAKE_CUDA_ARCHITECTURES="86"'),
    # Modules/Internal/CMakeCUDAArchitecturesValidate.cmake (3.24+): a dotted capability
    ("CMake Error at /usr/share/cmake-3.28/Modules/Internal/CMakeCUDAArchitecturesValidate.cmake:14 (message):\n"
     "  CMAKE_CUDA_ARCHITECTURES:\n\n    8.6\n\n  is not one of the following:\n\n"
     "    * a semicolon-separated list of integers, each optionally\n      followed by '-real' or '-virtual'\n"
     "    * a special value: all, all-major, native\n",
     "cmake.cuda_architectures_empty", "numbers without a dot"),
    # FindPackageHandleStandardArgs 3.19+: a version range
    ("CMake Error at /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     '  Could NOT find CUDAToolkit: Found unsuitable version "11.5.119", required\n  range is "12.0...12.9" '
     "(found /usr/include)\n",
     "build.project_cuda_version_gate", "toolkit in that range"),
    # crt/host_config.h: Intel's compilers are refused whatever their version
    ("/opt/cuda/targets/x86_64-linux/include/crt/host_config.h(88): error: #error directive: -- unsupported Intel ICX "
     "compiler! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check\n",
     "nvcc.host_compiler_rejected", "-ccbin /usr/bin/g++"),
    # mold, ld64, link.exe: the library is named in the answer
    ("mold: fatal: library not found: cublas\ncollect2: error: ld returned 1 exit status\n",
     "link.cuda_libs_not_found", "libcublas"),
    ("ld: library not found for -lcudart\nclang: error: linker command failed with exit code 1\n",
     "link.cuda_libs_not_found", "libcudart"),
    ("LINK : fatal error LNK1181: cannot open input file 'cublas.lib'\n",
     "link.cuda_libs_not_found", "%CUDA_PATH%\\lib\\x64"),
    # lld: every undefined CUDA symbol's library on one line
    ("ld.lld: error: undefined symbol: cudaMalloc\n>>> referenced by main.cpp\n"
     "ld.lld: error: undefined symbol: cublasCreate_v2\n>>> referenced by gemm.cpp\n",
     "link.cuda_libs_not_linked", "-lcudart -lcublas"),
    # distutils' own words on Windows without MSVC (setuptools/_distutils/_msvccompiler.py)
    ("running build_ext\nbuilding 'nms_cuda' extension\nerror: Unable to find vcvarsall.bat\n",
     "msvc.build_tools_missing", "Desktop development with C++"),
    # TensorFlow 1.x-2.0 configure.py: no runtime of the version asked under the root given
    ("Invalid path to CUDA 10.0 toolkit. /usr/local/cuda-10.1/lib64/libcudart.so.10.0 cannot be found\n",
     "build.bazel_cuda_config_not_found", "version and root of one installed toolkit"),
    # TensorFlow 1.x cuda_configure.bzl: the root itself
    ("ERROR: no such package '@local_config_cuda//crosstool': Traceback (most recent call last):\n\n"
     "Cuda Configuration Error: Cannot find cuda toolkit path.\n",
     "build.bazel_cuda_config_not_found", "CUDA_TOOLKIT_PATH"),
]

test_first_answer = first_answer_tests(CASES)


def test_windows_link_answer_prints_no_cudaenv_command():
    found = [m for m in explain("LINK : fatal error LNK1181: cannot open input file 'cudart.lib'\n") if m.environment]
    assert found[0].id == "link.cuda_libs_not_found" and "cudaenv" not in found[0].fix


# Near-misses: the same words from another producer or about another thing stay off these causes.
NEAR = [
    # CMake's HIP language runs the same architecture check (cmake_cuda_architectures_validate(HIP))
    ("CMake Error at /usr/share/cmake-3.28/Modules/Internal/CMakeCUDAArchitecturesValidate.cmake:14 (message):\n"
     "  CMAKE_HIP_ARCHITECTURES:\n\n    gfx90a;8.6\n\n  is not one of the following:\n\n"
     "    * a semicolon-separated list of integers, each optionally\n      followed by '-real' or '-virtual'\n"
     "    * a special value: all, all-major, native\n", "cmake.cuda_architectures_empty"),
    # a loader's "undefined symbol" (no linker before it) is a library loaded at run time, not a link line
    ("ImportError: /home/u/venv/lib/python3.10/site-packages/mmcv/_ext.cpython-310-x86_64-linux-gnu.so: "
     "undefined symbol: cudaMalloc\n", "link.cuda_libs_not_linked"),
    # mold and ld64 missing a library that is not CUDA's
    ("mold: fatal: library not found: z\n", "link.cuda_libs_not_found"),
    ("ld: library not found for -lssl\n", "link.cuda_libs_not_found"),
]


@pytest.mark.parametrize("text,not_id", NEAR)
def test_near_misses_keep_off(text: str, not_id: str) -> None:
    ids = [m.id for m in explain(text) if m.environment]
    assert not ids or ids[0] != not_id, ids
