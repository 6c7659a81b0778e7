"""Round 27 tuning (t27-build, the compiler and linker rows of fresh27's misses).

A toolkit older than the code: CUDA 10.1's stream-capture modes (cudaStreamCaptureModeGlobal, the two-argument
cudaStreamBeginCapture) named undefined by a CUDA 10.0 build are build.library_api_version's cuda101_added family.

A host compiler outside a list: crt/host_config.h of CUDA 8-10.2 names the ICC releases it accepts as a list ("Only
ICC 15.0, ICC 16.0, ... and ICC 19.0 on Linux x86_64 are supported!"); an ICC outside it (usually newer than the
toolkit) wants a listed ICC or a newer CUDA, not only "use gcc"."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# fresh27 k03: AlexeyAB/darknet#7452 (nvcc 10.0; the maintainer: upgrade the toolkit)
DARKNET_7452 = ('./src/network_kernels.cu(706): error: identifier "cudaStreamCaptureModeGlobal" is undefined\n\n'
                './src/network_kernels.cu(706): error: too many arguments in function call\n\n'
                'Cuda compilation tools, release 10.0, V10.0.130\n')
# NVIDIA/nccl-tests#90 (a CUDA 10 image), triton-inference-server/server#635 (gcc's wording, CUDA 10.0.130)
NCCL_TESTS_90 = 'common.cu(542): error: identifier "cudaStreamCaptureModeThreadLocal" is undefined\n'
TRITON_635 = ("plan_backend.cc:591:43: error: \u2018cudaStreamCaptureModeGlobal\u2019 was not declared in this "
              "scope\n")


def test_stream_capture_modes_need_cuda_10_1():
    for log in (DARKNET_7452, NCCL_TESTS_90, TRITON_635):
        first = _first(log)
        assert first["id"] == "build.library_api_version", log
        assert "needs CUDA 10.1 or newer" in first["title"], log
        assert first["fix"].splitlines()[0].startswith("Build with a newer toolkit"), log


def test_near_miss_other_added_apis_keep_their_versions():
    first = _first('foo.cu(3): error: identifier "cudaMallocAsync" is undefined\n')
    assert "needs CUDA 11.2 or newer" in first["title"]
    # a similar name that is no CUDA API is not claimed by this entry
    assert "build.library_api_version" not in [m.id for m in explain(
        'foo.cu(3): error: identifier "cudaStreamCaptureModeFoo" is undefined\n')]


# fresh27 k01: GOMC-WSU/GOMC#170 (ICC 19.1.1 with CUDA 10.2); QMCPACK/qmcpack#2319 has the same line with ICC 19.1
GOMC_170 = ("/usr/local/cuda-10.2/include/crt/host_config.h(110): error: #error directive: -- unsupported ICC "
            "configuration! Only ICC 15.0, ICC 16.0, ICC 17.0, ICC 18.0 and ICC 19.0 on Linux x86_64 are supported!\n")
# GOMC-WSU/GOMC#124: CUDA 8's two-release list after an Intel compiler update (intel/torch#7: the same with ICC 17)
GOMC_124 = ("/usr/local/cuda/include/host_config.h(79): error: #error directive: -- unsupported ICC configuration! "
            "Only ICC 15.0 and ICC 16.0 on Linux x86_64 are supported!\n")


def test_icc_outside_the_toolkits_list():
    first = _first(GOMC_170)
    assert first["id"] == "nvcc.host_compiler_rejected"
    assert "this CUDA takes ICC 15.0, ICC 16.0, ICC 17.0, ICC 18.0 and ICC 19.0 only" in first["title"]
    assert first["fix"].splitlines()[0].startswith("Give nvcc an ICC release in that list")
    first = _first(GOMC_124)
    assert "this CUDA takes ICC 15.0 and ICC 16.0 only" in first["title"]


def test_near_miss_icc_refused_as_a_family_keeps_its_answer():
    # Intel's ICX (deepmodeling/abacus-develop#2906) and "ICC is not supported" name no list: use gcc
    for log in ("error: -- unsupported Intel ICX compiler! The nvcc flag '-allow-unsupported-compiler' can be used\n",
                "#error -- ICC is not supported as a host compiler!\n"):
        first = _first(log)
        assert first["title"].startswith("nvcc does not accept this kind of host compiler"), log


def test_hostile_lines_are_cheap():
    for literal in ("-- unsupported ICC configuration! Only ICC 15.0, ICC 16.0",
                    "Only ICC 15.0 and ICC 16.0 and ", ", ICC 1", ' "cudaStreamCaptureMode',
                    "identifier \"cudaStreamCaptureModeGlobal", "clang-6.0: error: cannot find libdevice for sm_",
                    "clang version 6.0 clang-6.0:"):
        explain(hostile_line(literal))


# fresh27 k66: opencv/opencv#12786 (CUDA 10.0 installed, Ubuntu's nvcc 7.5 first on PATH, OpenCV's list with 20)
OPENCV_12786 = ("$ nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\n"
                "Cuda compilation tools, release 7.5, V7.5.17\n\n"
                "--     NVIDIA GPU arch:             20 30 35 37 50 52 60 61\n\n"
                "nvcc fatal   : Unsupported gpu architecture 'compute_20'\n")


def test_fermi_refused_while_the_log_shows_a_cuda_that_compiles_it():
    first = _first(OPENCV_12786)
    assert first["id"] == "nvcc.unsupported_arch"
    assert "the nvcc that refused it is a second, newer toolkit" in first["title"]
    assert first["fix"].splitlines()[0].startswith("Keep one toolkit for the build")
    # sm_20 with the CUDA 7.5 path of the nvcc named: the same
    first = _first("/usr/local/cuda-7.5/bin/nvcc -arch=sm_20 -c a.cu\n"
                   "nvcc fatal   : Value 'sm_20' is not defined for option 'gpu-architecture'\n")
    assert "second, newer toolkit" in first["title"]


def test_near_miss_fermi_refused_by_a_cuda_9_nvcc_keeps_its_answer():
    # fresh18 r07's form: the CUDA 9.0 nvcc the log names refused sm_20: take it out of the list
    first = _first("/usr/local/cuda-9.0/bin/nvcc -c src/cuFFT.cu -arch=sm_20\n"
                   "nvcc fatal   : Value 'sm_20' is not defined for option 'gpu-architecture'\n")
    assert "second, newer toolkit" not in first["title"]
    assert first["title"] == "this nvcc cannot compile for sm_20"


# fresh27 k06: kokkos/kokkos#1518 (clang 6 with CUDA 9.1); fireice-uk/xmr-stak#623 is the same family with CUDA 9
KOKKOS_1518 = ("clang-6.0: error: cannot find libdevice for sm_52. Provide path to different CUDA installation via "
               "--cuda-path, or pass -nocudalib to build without linking with libdevice.\n")


def test_old_clang_names_the_newest_cuda_it_takes():
    first = _first(KOKKOS_1518)
    assert first["id"] == "clang.cuda_path_not_found"
    assert "it compiles with CUDA 9.0 and older only" in first["title"]
    assert first["fix"].splitlines()[0].startswith("Check the toolkit's release")
    first = _first("clang version 7.0.1 (tags/RELEASE_701/final)\n" + KOKKOS_1518.replace("clang-6.0", "clang"))
    assert "CUDA 9.2 and older only" in first["title"]


def test_near_miss_clang_without_an_old_version_keeps_the_path_answer():
    # cudamat/cudamat#99 (no clang version in the log) and a clang 15 keep "tell clang the toolkit root"
    for log in (KOKKOS_1518.replace("clang-6.0", "clang"), KOKKOS_1518.replace("clang-6.0", "clang-15")):
        first = _first(log)
        assert first["title"].startswith("clang finds no usable CUDA installation"), log
        assert first["fix"].splitlines()[0].startswith("Tell clang the toolkit root"), log


# fresh27 k04: torch/torch7#1170 (CMake 3.12.2, CUDA 10); torch/torch7#1180 and alan-turing-institute/data-safe-haven#240
# print the same lines after "-- got cuda version 10.0"
TORCH7_1170 = ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
               "Please set them or make sure they are set and tested correctly in the CMake files:\n"
               "CUDA_cublas_device_LIBRARY (ADVANCED)\n"
               '    linked by target "THC" in directory /home/u/torch/extra/cutorch/lib/THC\n')


def test_torch7_cutorch_wants_an_older_cuda_not_a_newer_cmake():
    for log in (TORCH7_1170, "-- got cuda version 10.0\n" + TORCH7_1170.replace("/home/u/", "/opt/")):
        first = _first(log)
        assert first["id"] == "cmake.too_old_for_cuda", log
        assert first["title"].startswith("Torch7's cutorch asks for cublas_device"), log
        assert first["fix"].splitlines()[0].startswith("Build Torch7 against CUDA 9.1 or older"), log


def test_near_miss_cublas_device_elsewhere_keeps_the_cmake_answer():
    first = _first("/usr/bin/ld: cannot find -lCUDA_cublas_device_LIBRARY-NOTFOUND\n")
    assert first["title"].startswith("this CMake is too old for what the project asks of CUDA")
    assert first["fix"].splitlines()[0].startswith("Use a newer CMake")


# fresh27 k09: zhangliliang/RPN_BF#35; ShaoqingRen/faster_rcnn#66 prints the same nvmex lines
RPN_BF_35 = ("Compiling nms_gpu_mex\n"
             '/usr/local/cuda/bin/nvcc --compile   -o nms_gpu_mex.o  --compiler-options -fPIC  "functions/nms/nms_gpu_mex.cu"\n'
             "/bin/bash: /usr/local/cuda/bin/nvcc: No such file or directory\n"
             "mex -outdir bin nms_gpu_mex.o -L/usr/local/cuda/lib64 -lcudart\n"
             "Error using mex\ngcc: error: nms_gpu_mex.o: No such file or directory\n\n"
             "Error in nvmex (line 48)\neval(mexCommandLine);\n")


def test_matlab_nvmex_hard_codes_usr_local_cuda():
    first = _first(RPN_BF_35)
    assert first["id"] == "torch.nvcc_not_found"
    assert first["title"].startswith("MATLAB's nvmex runs /usr/local/cuda/bin/nvcc by its fixed path")
    assert first["fix"].splitlines()[0].startswith("Edit the paths in the project's nvmex.m")


def test_near_miss_a_missing_usr_local_cuda_elsewhere_keeps_cuda_home():
    first = _first("error: unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory\n")
    assert "MATLAB" not in first["title"]
    assert first["fix"].splitlines()[0].startswith("Nothing with nvcc is at /usr/local/cuda")


# fresh27 k62: xmrig/xmrig-cuda#142 (RTX 3060; the plugin built with CUDA 11.1.1 fixed it)
XMRIG_CUDA_142 = 'thread #0 failed with error <CryptonightR_build_program>:204 "NVRTC_ERROR_INVALID_OPTION"\n'


def test_xmrig_nvrtc_invalid_option_is_an_nvrtc_older_than_the_gpu():
    first = _first(XMRIG_CUDA_142)
    assert first["id"] == "nvrtc.unsupported_arch"
    assert first["title"].startswith("xmrig's CUDA plugin cannot compile its kernels for this GPU")
    assert first["fix"].splitlines()[0].startswith("Use an xmrig-cuda plugin built with a CUDA that knows this GPU")


def test_near_miss_other_nvrtc_invalid_options_are_not_claimed_by_the_xmrig_line():
    # a bare status without xmrig's call name or an architecture is no claim of this entry
    assert "nvrtc.unsupported_arch" not in [m.id for m in explain('nvrtcCompileProgram(): NVRTC_ERROR_INVALID_OPTION\n')]


def test_hostile_lines_of_the_new_patterns_are_cheap():
    for literal in ('<CryptonightR_build_program>:204 "NVRTC_ERROR_INVALID_OPTION', "<a_build_program>:",
                    "Error in nvmex (line 48) Error using mex ", "/bin/bash: /usr/local/cuda/bin/nvcc: ",
                    "/compiler_compat/ld: a: undefined reference to `dlsym@GLIBC_", "/compiler_compat/ld"):
        explain(hostile_line(literal))


# fresh27 k10: abetlen/llama-cpp-python#1639 (conda's compiler_compat/ld, the system's CUDA 11.7 libcudart)
LLAMA_CPP_PYTHON_1639 = ("/home/u/.conda/envs/py310/compiler_compat/ld: /usr/local/cuda-11.7/lib64/libcudart.so.11.0: "
                         "undefined reference to `dlsym@GLIBC_2.2.5'\n"
                         "/home/u/.conda/envs/py310/compiler_compat/ld: vendor/llama.cpp/ggml/src/libggml.so: "
                         "undefined reference to `GOMP_barrier@GOMP_1.0'\n")


def test_conda_pythons_compiler_compat_ld_and_system_glibc_symbols():
    first = _first(LLAMA_CPP_PYTHON_1639)
    assert first["id"] == "link.conda_sysroot_glibc"
    assert first["title"].startswith("conda Python's own linker (compiler_compat/ld) cannot link")
    assert first["fix"].splitlines()[0].startswith("Skip the llava executables")
    # another project: move conda's ld aside
    first = _first("/opt/conda/compiler_compat/ld: /usr/local/cuda/lib64/libcudart.so: undefined reference to "
                   "`dlopen@GLIBC_2.2.5'\n")
    assert first["fix"].splitlines()[0].startswith("Let the build use the system's linker")


def test_near_miss_conda_toolchain_ld_keeps_its_answer():
    # genn-team/genn#360: conda's cos6 toolchain ld, the entry's original form
    first = _first("../x86_64-conda_cos6-linux-gnu/bin/ld: MBody1_CODE/librunner.so: undefined reference to "
                   "`memcpy@GLIBC_2.14'\n")
    assert first["title"].startswith("conda's linker cannot link MBody1_CODE/librunner.so")
