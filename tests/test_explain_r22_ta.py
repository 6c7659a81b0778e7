"""Round 22 (helper ta): fresh22's misses, each answered as its family.

- build.cargo_nvcc_failed: cargo's cc crate reports only 'with args nvcc did not execute successfully'; on Linux the
  threads' cause was the host gcc past the CUDA's limit, chosen through CC/CXX (nvcc's own error, when pasted, keeps
  nvcc.gcc_too_new first).
- nvcc.host_headers_unsupported, a pattern and variants: nvcc's front end stops in gcc's <type_traits> ("type name is
  not allowed", 'identifier "__is_X" is undefined'): the host gcc is newer than the CUDA supports.
- build.cuda_headers_older_than_code: the CUDA graph types (CUDA 10.0) undeclared: older CUDA headers read first.
- build.found_other_cuda: a build's own CUDA detection names one release ("got cuda version 7.5", "CUDA detected: 9.0",
  FindCUDA's 'Found CUDA: ... (found version "X")') and nvcc's "release" in the same log another: two toolkits.
- build.cuda_header_missing, variants: a plain gcc/g++ compile that already passes the build's CUDA root (-I.../cuda/
  include) and the header is not there (the toolkit is under another root: the Makefile's own variable); and one that
  passes none (the project's Makefile variable, with an include/library pair as example).

Each text is copied from the thread named above it (a fresh22 log's deciding lines, another project's thread), or is a
near miss that must keep its answer."""

import re

try:  # Python 3.11 on: the parser's own modules (the sre_* names are deprecated aliases)
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants
    import sre_parse

import pytest
from explain_answers import first_answer_tests, first_fix_line

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries

HVM = ('error occurred: Command "nvcc" "-ccbin=c++" "-Xcompiler" "-O3" "-Xcompiler" "-ffunction-sections" "-Xcompiler" '
       '"-fdata-sections" "-Xcompiler" "-fPIC" "-m64" "-Xcompiler" "-Wall" "-Xcompiler" "-Wextra" "-o" '
       '"/tmp/cargo-installLGALqh/release/build/hvm-d9bb437251039338/out/2e40c9e35e9506f4-hvm.o" "-c" "src/hvm.cu" with '
       'args nvcc did not execute successfully (status code exit status: 2).\n\n'
       'warning: build failed, waiting for other jobs to finish...\n'
       'error: failed to compile `hvm v2.0.8`, intermediate artifacts can be found at `/tmp/cargo-installLGALqh`.\n')

CASES = [
    # fresh22 v01, https://github.com/HigherOrderCO/HVM1/issues/291 (`CC=cc-13 CXX=g++-13`: "This worked!")
    (HVM, "build.cargo_nvcc_failed", "CXX=g++-13 cargo install"),
    # https://github.com/risc0/risc0/issues/2575 (gcc 14.2.1 on Arch; risc0#2737: `CC=gcc-14 CXX=g++-14 cargo build`)
    ('  --- stderr\n\n\n  error occurred: Command LC_ALL="C" "nvcc" "-ccbin=c++" "-Xcompiler" "-O0" "-Xcompiler" '
     '"-ffunction-sections" "-m64" "-DFEATURE_BABY_BEAR" "-arch=native" "-diag-suppress=177" "-o" '
     '"/home/starkbamse/GitHub/sparkle/target/debug/build/risc0-sys-b135acaf3de15a89/out/01ed5306a404dc2c-ntt.o" "-c" '
     '"--device-c" "kernels/zkp/cuda/supra/ntt.cu" with args nvcc did not execute successfully (status code exit status: '
     '2).\n\n\nwarning: build failed, waiting for other jobs to finish...\n',
     "build.cargo_nvcc_failed", "CC=gcc-13 CXX=g++-13"),
    # near miss, https://github.com/HigherOrderCO/HVM1/issues/381: nvcc's own error is pasted above the summary, so the
    # entry of that error (its cargo variant) answers first
    ("warning: hvm@2.0.19: In file included from /usr/include/cuda_runtime.h:83,\n"
     "warning: hvm@2.0.19:                  from <command-line>:\n"
     "warning: hvm@2.0.19: /usr/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions "
     "later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version "
     "check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. "
     "Use at your own risk.\n" + HVM,
     "nvcc.gcc_too_new", "CXX=g++-12 cargo install"),

    # fresh22 v08, https://github.com/ggml-org/llama.cpp/issues/22714 ("CUDA toolkit does not support GCC 16";
    # downgrading the gcc packages fixed it)
    ("  /usr/include/c++/16.1.1/type_traits(3427): error: type name is not allowed\n\n"
     "     __type_identity<_ArgTypes>{}) && ...),\n                     ^\n\n  Error limit reached.\n\n"
     '  100 errors detected in the compilation of "CMakeCUDACompilerId.cu".\n\n  Compilation terminated.\n',
     "nvcc.host_headers_unsupported", "Build with an older gcc this CUDA supports"),
    # https://github.com/ggml-org/llama.cpp/issues/10849 (gcc 14.2.1's type_traits on Arch)
    ("  /usr/include/c++/14.2.1/type_traits(695): error: type name is not allowed\n\n"
     "        : public __bool_constant<__is_reference(_Tp)>\n                                                ^\n\n"
     "  /usr/include/c++/14.2.1/type_traits(695): error: identifier\n  \"__is_reference\" is undefined\n",
     "nvcc.host_headers_unsupported", "-DCMAKE_CUDA_HOST_COMPILER="),
    # https://github.com/Xpra-org/xpra/issues/1800 (gcc 8 with CUDA 9.1, which supports gcc 6 at most)
    ("found gcc version: 8.0.1\nfound CUDA compiler: /usr/local/cuda/bin/nvcc version 9.1.85\n"
     "Error: failed to compile CUDA kernel ARGB_to_NV12\n"
     "/usr/include/c++/8/type_traits(1061): error: type name is not allowed\n"
     "/usr/include/c++/8/type_traits(1061): error: identifier \"__is_assignable\" is undefined\n\n"
     '3 errors detected in the compilation of "/tmp/tmpxft_00001aee_00000000-14_ARGB_to_NV12.compute_70.cpp1.ii".\n',
     "nvcc.host_headers_unsupported", "Build with an older gcc this CUDA supports"),
    # the same line of llama.cpp#22714 beside nvcc's own release line (the form `nvcc --version` prints): the CUDA's
    # own limit is named
    ("Cuda compilation tools, release 12.4, V12.4.131\n"
     "  /usr/include/c++/16.1.1/type_traits(3427): error: type name is not allowed\n",
     "nvcc.host_headers_unsupported", "Build with gcc 13 as nvcc's host compiler"),
    # near miss, https://github.com/PyPO-dev/PyPO/issues/207: gcc 14's variable templates under -std=c++11 keep their entry
    ('/usr/lib/gcc/x86_64-pc-linux-gnu/14.3.1/include/c++/type_traits(1610): error: "__is_nothrow_new_constructible" is '
     "not a function or static data member\n",
     "nvcc.gcc_headers_need_cxx14", "-std=c++17"),

    # fresh22 v11, https://github.com/NVIDIA/TensorRT/issues/217 (reinstalling CUDA fixed the mixed headers)
    ("‘cudaGraph_t’ was not declared in this scope\n", "build.cuda_headers_older_than_code", "CUDART_VERSION"),
    # https://github.com/leggedrobotics/darknet_ros/issues/322 (a CUDA 10.1 toolkit's own header fails)
    ("/usr/local/cuda-10.1/include/cuda_runtime_api.h:8757:90: error: ‘cudaGraph_t’ was not declared in this scope\n"
     " rror_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t "
     "*pDependencies, size_t numDependencies);\n",
     "build.cuda_headers_older_than_code", "remove the older one from the compile"),
    # https://github.com/NVIDIA/nccl/issues/500 (the project's own header, CUDA 10.1 installed)
    ("In file included from transport/shm.cc:7:0:\ninclude/comm.h:160:3: error: ‘cudaGraphNode_t’ does not name a type\n"
     "   cudaGraphNode_t lastSetupNode;\n   ^\n",
     "build.cuda_headers_older_than_code", "find / -name cuda_runtime_api.h"),

    # near miss, https://github.com/LianaWang/TextRay/issues/2: another name "not declared" keeps its own cause (torch's
    # removed AT_CHECK)
    ("src/iou_cuda.cpp:4:23: error: ‘AT_CHECK’ was not declared in this scope\n"
     ' #define CHECK_CUDA(x) AT_CHECK(x.type().is_cuda(), #x, " must be a CUDAtensor ")\n',
     "torch.at_check_removed", "TORCH_CHECK"),

    # fresh22 v04, https://github.com/wilicc/gpu-burn/issues/35 (`CUDAPATH=/opt/cuda/ make`)
    ("[gpu-burn]$ make\ng++ -O3 -Wno-unused-result -I/usr/local/cuda/include -c gpu_burn-drv.cpp\n"
     "gpu_burn-drv.cpp:50:10: fatal error: cuda.h: No such file or directory                 \n"
     "   50 | #include <cuda.h>\n      |          ^~~~~~~~\ncompilation terminated.\n"
     "make: *** [Makefile:32: gpu_burn-drv.o] Error 1\n",
     "build.cuda_header_missing", "make CUDAPATH=/opt/cuda"),
    # https://github.com/wilicc/gpu-burn/issues/91 ("on Arch it's `make CUDAPATH=/opt/cuda`")
    ("g++  -O3 -Wno-unused-result -I/usr/local/cuda/include -std=c++11 -c gpu_burn-drv.cpp\n"
     "gpu_burn-drv.cpp:62:10: fatal error: cublas_v2.h: No such file or directory\n"
     '   62 | #include "cublas_v2.h"\n      |          ^~~~~~~~~~~~~\ncompilation terminated.\n'
     "make: *** [Makefile:39: gpu_burn-drv.o] Error 1\n",
     "build.cuda_header_missing", "make CUDAPATH=/opt/cuda"),
    # fresh22 v03, https://github.com/ccsb-scripps/AutoDock-GPU/issues/149 (GPU_INCLUDE_PATH and GPU_LIBRARY_PATH)
    ("In file included from ./host/src/main.cpp:37:0:\n"
     "./host/inc/performdocking.h:32:10: fatal error: cuda.h: No such file or directory\n #include <cuda.h>\n"
     "          ^~~~~~~~\n",
     "build.cuda_header_missing", "GPU_INCLUDE_PATH=/usr/local/cuda/include"),
    # https://github.com/genn-team/genn/issues/411 ("you haven't set the CUDA_PATH environment variable")
    ("In file included from backend.cc:1:0:\n"
     "/home/lz/procedural_paper/genn/include/genn/backends/cuda/backend.h:13:10: fatal error: cuda.h: No such file or "
     "directory\n #include <cuda.h>\n          ^~~~~~~~\ncompilation terminated.\n"
     "Makefile:49: recipe for target '/home/lz/procedural_paper/genn/obj_dynamic/genn/backends/cuda/backend.o' failed\n",
     "build.cuda_header_missing", "the CUDA path variable of the project's Makefile"),
    # fresh22 v12, https://github.com/pytorch/pytorch/issues/2651 ("i installed cuda 7.5 alongside with 8.0")
    ("-- Found gcc >=5 and CUDA <= 7.5, adding workaround C++ flags\n-- MAGMA not found. Compiling without MAGMA support\n"
     "-- Autodetected CUDA architecture(s): 6.1\n-- got cuda version 7.5\n"
     "-- Found CUDA with FP16 support, compiling with torch.CudaHalfTensor\n\n"
     "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2016 NVIDIA Corporation\n"
     "Built on Tue_Jan_10_13:22:03_CST_2017\nCuda compilation tools, release 8.0, V8.0.61\n",
     "build.found_other_cuda", 'eval "$(cudaenv use 8.0)"'),
    # https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/756 (Caffe's "CUDA detected: 9.0" beside nvcc 8.0)
    ("root@033d8e742bb8:/usr/local/cuda-8.0# nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\n"
     "Cuda compilation tools, release 8.0, V8.0.61\n\n"
     "root@033d8e742bb8:/data/openpose/build# cmake -DBUILD_PYTHON=ON ..\n-- GCC detected, adding compile flags\n"
     "-- Building with CUDA.\n-- CUDA detected: 9.0\n-- Added CUDA NVCC flags for: sm_61\n"
     "CMake Error at /usr/share/OpenCV/OpenCVConfig.cmake:108 (message):\n"
     "  OpenCV static library was compiled with CUDA 8.0 support.  Please, use the\n",
     "build.found_other_cuda", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda-8.0"),
    # near miss, fresh22 v05, https://github.com/inducer/pycuda/issues/201: a Python package's build finds the root
    # through nvcc on PATH, which the entry's own answer sets (the toolkit's bin on PATH fixed it)
    ("In file included from src/cpp/cuda.cpp:1:0:\n    src/cpp/cuda.hpp:14:10: fatal error: cuda.h: No such file or "
     "directory\n     #include <cuda.h>\n              ^~~~~~~~\n    compilation terminated.\n"
     "    error: command 'x86_64-linux-gnu-gcc' failed with exit status 1\n",
     "build.cuda_header_missing", 'eval "$(cudaenv use'),
]

test_first_answer = first_answer_tests(CASES)


def test_cargo_on_windows_does_not_name_gcc():
    # https://github.com/HigherOrderCO/HVM1/issues/292 (cl.exe as cc's host compiler on Windows 11)
    log = ('  error occurred: Command "nvcc" "-ccbin=C:\\\\Program Files\\\\Microsoft Visual Studio\\\\2022\\\\Community'
           '\\\\VC\\\\Tools\\\\MSVC\\\\14.39.33519\\\\bin\\\\HostX64\\\\x64\\\\cl.exe" "-Xcompiler" "-nologo" "-o" '
           '"C:\\\\Users\\\\Anon\\\\AppData\\\\Local\\\\Temp\\\\cargo-installFM9MXi\\\\release\\\\build\\\\hvm-dc525ed22444a051'
           '\\\\out\\\\2e40c9e35e9506f4-hvm.o" "-c" "src/hvm.cu" with args nvcc did not execute successfully (status code '
           'exit code: 2).\n'
           "PS C:\\Users\\Anon> cargo --version\n")
    first = [m for m in explain(log) if m.environment][0]
    assert first.id == "build.cargo_nvcc_failed"
    assert "gcc" not in first_fix_line(first.fix) and "warning:" in first_fix_line(first.fix)


def test_a_cuda_stream_type_is_not_the_graph_family():
    # the graph types only: an older header set lacks them; a type every CUDA has says nothing about versions
    ids = [m.id for m in explain("src/a.cpp:3:1: error: ‘cudaStream_t’ does not name a type\n")]
    assert "build.cuda_headers_older_than_code" not in ids


def test_one_release_found_and_shown_is_no_claim():
    # https://github.com/h2oai/h2o4gpu/issues/593: FindCUDA's version with no nvcc release in the log, and the same
    # release twice, say nothing about a second toolkit
    for log in ('-- Found CUDA: /usr/local/cuda (found suitable version "8.0", minimum required is "8.0")\n',
                "-- got cuda version 8.0\nCuda compilation tools, release 8.0, V8.0.61\n"):
        assert "build.found_other_cuda" not in [m.id for m in explain(log)]


NEW_PATTERNS = [
    ("build.found_other_cuda", "(?P<found>"),
    ("build.cargo_nvcc_failed", 'with args "?nvcc'),
    ("build.cuda_headers_older_than_code", "cudaGraph"),
    ("nvcc.host_headers_unsupported", "trait_edg"),
]


def _unbounded(pattern: str) -> bool:
    """Whether the pattern repeats anything without an upper bound (``*``, ``+``, ``{n,}``)."""
    def walk(items) -> bool:
        for op, av in items:
            if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
                if av[1] == sre_constants.MAXREPEAT or walk(av[2]):
                    return True
            elif op in (sre_constants.SUBPATTERN,):
                if walk(av[-1]):
                    return True
            elif op == sre_constants.BRANCH:
                if any(walk(b) for b in av[1]):
                    return True
            elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
                if walk(av[1]):
                    return True
        return False
    return walk(sre_parse.parse(pattern))


@pytest.mark.parametrize("entry_id,marker", NEW_PATTERNS)
def test_new_patterns_repeat_nothing_without_bound(entry_id, marker):
    # a pattern runs over the whole pasted text: each repeat bounded, a hostile 200 000-character line built from the
    # pattern's own literals costs at most its length times the bounds, never its square (no timing: the structure)
    entry = next(e for e in load_entries() if e["id"] == entry_id)
    mine = [p for p in entry["patterns"] if marker in p]
    assert mine
    for p in mine:
        assert not _unbounded(p), p
        literals = "".join(re.findall(r"[A-Za-z_ \"'‘’]+", p))[:80] or "x"
        hostile = (literals * (200_000 // len(literals) + 1))[:200_000]
        re.compile(p).search(hostile)  # finishes: bounded repeats


def test_new_variant_texts_are_anchored_and_bounded_after_the_anchor():
    # the cuda_header_missing variants' whole-text conditions start at \A (one start position) and every repeat that
    # follows a compiler name on a line is bounded
    entry = next(e for e in load_entries() if e["id"] == "build.cuda_header_missing")
    texts = [v["when"]["text"] for v in entry["variants"] if "text" in v["when"] and "setup\\.py" in v["when"]["text"]]
    assert len(texts) == 3  # [r25 ta] the .c sibling of the C++ reading
    for t in texts:
        assert t.startswith("\\A")
        tail = t.split("[\\s\\S]*?", 2)[-1]  # after the anchored scans
        assert not _unbounded(tail), tail
