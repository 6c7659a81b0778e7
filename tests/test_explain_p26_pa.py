"""Practice round p26 (p26-pa, the build side): an nvcc architecture number no GPU has; a status name quoted in a
compiler's diagnostic about a name in the source.

nvcc refuses an architecture value for two different reasons: the toolkit does not know it (nvcc.unsupported_arch:
another toolkit, or another architecture), or no GPU has it (a number like sm_91, the CUDA version 9.1 given where the
compute capability belongs; a placeholder's brackets, nvcc.arch_placeholder_value's). The second needs the right
value, not another toolkit: the tables' ranges alone used to say "sm_91 needs CUDA 12.8".

gcc's "'X' was not declared in this scope; did you mean 'Y'?" quotes a neighbour name from the library's header, and
repeats it on the fix-it line below: a status name there (CUFFT_INTERNAL_ERROR) is source code, not a failure a run
returned, and must not be read as cuFFT's runtime error."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# src-d/kmcuda#76 (the practice log): `cmake -D CUDA_ARCH=91` for CUDA 9.1; the maintainer: "CUDA_ARCH is the compute
# capability of your device"
KMCUDA_76 = ("[ 16%] Building NVCC (Device) object CMakeFiles/KMCUDA.dir/KMCUDA_generated_transpose.cu.o\n"
             "nvcc fatal   : Value 'sm_91' is not defined for option 'gpu-architecture'\n"
             "CMake Error at KMCUDA_generated_transpose.cu.o.Release.cmake:219 (message):\n"
             "  Error generating\n")
# the same family's other forms keep their answers: a placeholder's brackets (multimodallearning/pytorch-mask-rcnn#38,
# "remove the brackets"; ruotianluo/pytorch-faster-rcnn#114) are nvcc.arch_placeholder_value's
MASK_RCNN_38 = "nvcc fatal   : Value '[sm_61]' is not defined for option 'gpu-architecture'\n"
FASTER_RCNN_114 = "nvcc fatal   : Value '[sm_30]' is not defined for option 'gpu-architecture'\n"


def test_practice_log_a_number_no_gpu_has():
    first = _first(KMCUDA_76)
    assert first["id"] == "nvcc.unsupported_arch"
    assert first["title"].startswith("sm_91 is not a GPU architecture")
    assert first["fix"].splitlines()[0].startswith("Give the build your GPU's compute capability, not the CUDA version")
    assert "12.8" not in first["fix"]


def test_other_forms_of_the_family_keep_their_answers():
    for log in (MASK_RCNN_38, FASTER_RCNN_114):
        assert [m.id for m in explain(log)] == ["nvcc.arch_placeholder_value"], log
    # a word where the number belongs (the build's knob came out empty): the word variant, not this one
    first = _first("nvcc fatal   : Unsupported gpu architecture 'compute_None'\n")
    assert "is not a GPU architecture" not in first["title"]


def test_near_miss_real_architectures_keep_their_toolkit_answers():
    # apache/tvm#4839 (typographic quotes): sm_75 with an old CUDA, a real architecture: CUDA 10.0 or newer
    first = _first("Nvcc fatal : Value \u2018sm_75\u2019 is not defined for option \u2018gpu-architecture\u2019\n")
    assert first["title"] == "this nvcc cannot compile for sm_75"
    assert first["fix"].splitlines()[0].startswith("sm_75 needs CUDA 10.0 or newer")
    # sm_90a, sm_100f and sm_121 are architectures; compute_21 keeps its own answer
    for arch in ("sm_90a", "sm_100f", "sm_121", "sm_88"):
        first = _first(f"nvcc fatal   : Value '{arch}' is not defined for option 'gpu-architecture'\n")
        assert "is not a GPU architecture" not in first["title"], arch
    first = _first("nvcc fatal   : Unsupported gpu architecture 'compute_21'\n")
    assert first["title"].startswith("compute_21 is not an architecture nvcc has")


# AmusementClub/vs-dfttest2#10 (the practice log, a program bug): CUDA 13's cuFFT dropped two enum values the code
# switched on; gcc suggests CUFFT_INTERNAL_ERROR, on the diagnostic and on its fix-it line
DFTTEST2_10 = (
    "/builddir/build/BUILD/vapoursynth-plugin-dfttest2-cuda-7-build/vs-dfttest2-7/cuda_source/source.cpp: In function "
    "\u2018const char* get_error(cufftResult_t)\u2019:\n"
    "/builddir/build/BUILD/vapoursynth-plugin-dfttest2-cuda-7-build/vs-dfttest2-7/cuda_source/source.cpp:97:14: error: "
    "\u2018CUFFT_PARSE_ERROR\u2019 was not declared in this scope; did you mean \u2018CUFFT_INTERNAL_ERROR\u2019?\n"
    "   97 |         case CUFFT_PARSE_ERROR:\n"
    "      |              ^~~~~~~~~~~~~~~~~\n"
    "      |              CUFFT_INTERNAL_ERROR\n"
    "gmake[2]: *** [CMakeFiles/dfttest2_cuda.dir/build.make:82: CMakeFiles/dfttest2_cuda.dir/cuda_source/source.cpp.o]"
    " Error 1\n")
# NVIDIA/FasterTransformer#789: gcc suggesting a cuDNN neighbour name (CUDNN_DATA_FLOAT) for an undeclared one
FASTERTRANSFORMER_789 = ("error: \u2018CUDNN_DATA_BFLOAT16\u2019 was not declared in this scope; did you mean "
                         "\u2018CUDNN_DATA_FLOAT\u2019\n")


def test_practice_log_a_status_name_in_a_compiler_suggestion_is_no_failure():
    assert all(m.id != "status.cufft_internal_error" for m in explain(DFTTEST2_10))
    assert not [m for m in explain(DFTTEST2_10) if m.environment]
    assert not [m for m in explain(FASTERTRANSFORMER_789) if m.environment]


def test_near_miss_the_status_a_run_returned_still_answers():
    # the runtime failure, and the same name beside an unrelated compiler diagnostic further up the log
    for log in ("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\n",
                "foo.cpp:3:1: error: 'bar' was not declared in this scope\n\n\n\n\n"
                "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\n"):
        first = _first(log)
        assert first["id"] == "status.cufft_internal_error", log
        assert first["fix"].splitlines()[0].startswith("Install a build of the framework for CUDA 11.8 or newer")
    # a whole diagnostic an entry reads as its message is not a name quoted in one (nvcc with a too-new gcc)
    first = _first("/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier "
                   "\"__builtin_ia32_monitorx\" is undefined\n")
    assert first["id"] == "nvcc.host_headers_unsupported"


def test_hostile_lines_are_cheap():
    for literal in ("Value 'sm_91' is not defined for option 'gpu-architecture' ",
                    "was not declared in this scope; did you mean 'CUFFT_INTERNAL_ERROR'", "CUFFT_INTERNAL_ERROR ",
                    "' is undefined '"):
        explain(hostile_line(literal))
