"""Round 29 tuning (t29-build, the compiler and linker rows of fresh29's misses).

A cuDNN call whose argument list grew (gcc's "too few arguments to function cudnnSetConvolution2dDescriptor", the
pooling and filter descriptors under cuDNN 5) is code written for an older cuDNN: build.library_api_version's
cudnn5_signature and cudnn6_signature families.

CMake's "Found unsuitable version "9.0", but required is exact version "8" (found /usr/local/cuda-9.0)" pasted
without its "Could NOT find CUDA:" head is still build.project_cuda_version_gate, where the found directory is a CUDA
one.

make's "No rule to make target '/path/libcuX.so', needed by ..." is a CUDA library whose path CMake recorded and which
is gone: build.recorded_cuda_library_missing."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


def _ids(log):
    return [m.id for m in explain(log)]


# fresh29 l08: MhLiao/TextBoxes#83 (built with cuDNN v4)
TEXTBOXES_83 = ("/cudnn.hpp:112:3: error: too few arguments to function \u2018cudnnStatus_t cudnnSetConvolution2dDescriptor"
                "(cudnnConvolutionDescriptor_t, int, int, int, int, int, int, cudnnConvolutionMode_t, cudnnDataType_t)\n")
# CEA-LIST/N2D2#1 ("now mandatory in cuDNN 6.0")
N2D2_1 = ("/home/fred/dev/n2d2/N2D2/src/Cell/DeconvCell_Frame_CUDA.cpp:78:64: error: too few arguments to function "
          "\u2018cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t, int, int, int, int, int, "
          "int, cudnnConvolutionMode_t, cudnnDataType_t)\u2019\n")
# a C caller (darknet forks): gcc names the function alone (hjimce/darknet_mobilenet#12's line shape)
DARKNET_C = ("./src/convolutional_layer.c:133:5: error: too few arguments to function "
             "\u2018cudnnSetConvolution2dDescriptor\u2019\n")
# rbgirshick/py-faster-rcnn#308, tianzhi0549/CTPN#75: the pooling descriptor under cuDNN 5
FASTER_RCNN_308 = ("./include/caffe/util/cudnn.hpp:127:41: error: too few arguments to function \u2018cudnnStatus_t "
                   "cudnnSetPooling2dDescriptor(cudnnPoolingDescriptor_t, cudnnPoolingMode_t, cudnnNanPropagation_t, "
                   "int, int, int, int, int, int)\u2019\n")


def test_cudnn_calls_with_the_older_argument_list():
    for log, version in ((TEXTBOXES_83, "v6"), (N2D2_1, "v6"), (DARKNET_C, "v6"), (FASTER_RCNN_308, "v5")):
        first = _first(log)
        assert first["id"] == "build.library_api_version", log
        assert f"takes more arguments since cuDNN {version}" in first["title"], log
        assert first["fix"].splitlines()[0].startswith(f"Build against a cuDNN older than {version}"), log


def test_near_miss_other_argument_errors_are_not_this_family():
    # too MANY arguments (code newer than the cuDNN) and a call whose list did not grow are not claimed by it
    for log in ("x.cpp:1:1: error: too many arguments to function \u2018cudnnStatus_t cudnnSetConvolution2dDescriptor("
                "cudnnConvolutionDescriptor_t, int, int, int, int, int, int, cudnnConvolutionMode_t)\u2019\n",
                "x.cpp:1:1: error: too few arguments to function \u2018cudnnStatus_t cudnnSetTensor4dDescriptor("
                "cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int, int, int, int)\u2019\n",
                "x.cpp:1:1: error: too few arguments to function \u2018int my_cudnnSetConvolution2dDescriptorX(int)\u2019\n"):
        assert "build.library_api_version" not in _ids(log), log


# fresh29 l87: stereolabs/zed-ros-wrapper#195 (the ZED SDK for CUDA 8 after a reflash to CUDA 9.0)
ZED_WRAPPER_195 = 'Found unsuitable version "9.0", but required is exact version "8" (found /usr/local/cuda-9.0)\n'
# stereolabs/zed-ros-wrapper#182's line with its head, wrapped as CMake prints it
ZED_WRAPPER_182 = ('CMake Error at /usr/share/cmake-3.5/Modules/FindPackageHandleStandardArgs.cmake:148 (message):\n'
                   '  Could NOT find CUDA: Found unsuitable version "7.5", but required is exact\n'
                   '  version "9.1" (found /usr)\n')


def test_cut_unsuitable_version_line_is_the_cuda_gate():
    first = _first(ZED_WRAPPER_195)
    assert first["id"] == "build.project_cuda_version_gate"
    assert first["title"] == "the build asks for exactly CUDA 8, and found CUDA 9.0"
    assert "rebuild (or reinstall) that package with CUDA 9.0" in first["fix"].splitlines()[0]
    # the whole message keeps its answer
    assert _first(ZED_WRAPPER_182)["title"].endswith("exactly CUDA 9.1, and found CUDA 7.5")


def test_near_miss_cut_line_of_another_package_is_not_read():
    for log in ('Found unsuitable version "1.2", but required is at least "1.5" (found /usr/lib/libfoo.so)\n',
                'Found unsuitable version "3.0", but required is exact version "2" (found /usr)\n'):
        assert "build.project_cuda_version_gate" not in _ids(log), log


# fresh29 l85: stereolabs/zed-sdk#19 (the ZED SDK reinstalled)
ZED_SDK_19 = ("[ 66%] Building CXX object CMakeFiles/ZED_Depth_Sensing.dir/src/GLViewer.o\n"
              "make[2]: *** No rule to make target '/usr/local/zed/lib/libcudpp.so', needed by 'ZED_Depth_Sensing'.  "
              "Stop.\n")
# rpng/open_vins#265 (CUDA 10.2 not installed)
OPEN_VINS_265 = ("make[2]: *** No rule to make target '/usr/local/cuda-10.2/lib64/libcudart_static.a', needed by "
                 "'/home/manthan/workspace/catkin_ws_ov/devel/.private/ov_init/lib/libov_init_lib.so'.  Stop.\n")
# facebookresearch/TensorComprehensions#613 (a conda environment's libnvrtc.so)
TC_613 = ("make[2]: *** No rule to make target '/home/shuai/anaconda3/envs/tc_build/lib/libnvrtc.so', needed by "
          "'test/cuda/test_basic_gpu'.  Stop.\n")
# ingowald/optix7course#19 (the driver's libcuda.so under the toolkit)
OPTIX7_19 = "make[2]: *** No rule to make target '/usr/local/cuda/lib64/libcuda.so', needed by 'ex01_helloOptix'.  Stop.\n"


def test_recorded_cuda_library_missing():
    first = _first(ZED_SDK_19)
    assert first["id"] == "build.recorded_cuda_library_missing"
    assert "/usr/local/zed/lib/libcudpp.so" in first["title"]
    assert "reinstall that package" in first["fix"].splitlines()[0]
    first = _first(TC_613)
    assert first["id"] == "build.recorded_cuda_library_missing"
    assert "reinstall that package" in first["fix"].splitlines()[0]
    first = _first(OPEN_VINS_265)
    assert first["id"] == "build.recorded_cuda_library_missing"
    assert first["fix"].startswith("`ls -d /usr/local/cuda*` shows the toolkits installed now")
    first = _first(OPTIX7_19)
    assert "link-time stub in lib64/stubs" in first["fix"].splitlines()[0]


def test_near_miss_other_missing_targets_are_not_read():
    # the burned negative fresh24 x15 (takuya-takeuchi/DlibDotNet#56: a Windows .lib path on Linux, a CMake bug),
    # a system library (ggml-org/llama.cpp#11376's librt.a) and a project's own object
    for log in ("make[2]: *** No rule to make target '/usr/local/cuda-10.0/targets/x86_64-linux/lib/x64/cudart_static.lib',"
                " needed by 'libDlibDotNet.Native.so'.  Stop.\n",
                "make[2]: *** No rule to make target '/usr/lib/librt.a', needed by 'ggml/src/ggml-cuda/libggml-cuda.so'.  "
                "Stop.\n",
                "make: *** No rule to make target 'obj/cuda.o', needed by 'darknet'.  Stop.\n"):
        assert "build.recorded_cuda_library_missing" not in _ids(log), log


def test_hostile_lines_are_cheap():
    for literal in ("too few arguments to function \u2018cudnnStatus_t ", "too few arguments to function 'cudnnSet",
                    'Found unsuitable version "9.0", but required is exact version "8" (found /cuda',
                    "\nFound unsuitable version ", "(found /usr/local/cuda/cuda/cuda",
                    "No rule to make target '/usr/local/cuda/lib64/libcu", "No rule to make target '/a/b/c/d/e/f",
                    "/libcuda.so"):
        explain(hostile_line(literal))


# fresh29 l07: kaldi-asr/kaldi#4152 (CUDA 11.0 not supported yet); kaldi-asr/kaldi#3016 (10_0, fixed by a newer Kaldi)
KALDI_4152 = ("Unsupported CUDA_VERSION (CUDA_VERSION=11_0), please report it to Kaldi mailing list, together with "
              "'nvcc -h' or 'ptxas -h' which lists allowed -gencode values...\n")
KALDI_3016 = ("Using library /usr/lib/x86_64-linux-gnu/liblapack.so as ATLAS's CLAPACK library.\n"
              "Unsupported CUDA_VERSION (CUDA_VERSION=10_0), please report it to Kaldi mailing list, together with "
              "'nvcc -h' or 'ptxas -h' which lists allowed -gencode values...\n")


def test_kaldi_configure_does_not_know_the_cuda():
    for log, version in ((KALDI_4152, "11.0"), (KALDI_3016, "10.0")):
        first = _first(log)
        assert first["id"] == "build.project_cuda_version_gate", log
        assert first["title"] == f"Kaldi's configure does not know CUDA {version} (a toolkit newer than this Kaldi)"
        assert first["fix"].startswith("Configure against a CUDA this Kaldi's configure lists"), log
        assert "git pull" in first["fix"].splitlines()[0]


def test_near_miss_kaldi_gcc_refusal_keeps_its_answer():
    # Kaldi's configure refusing the g++ for a CUDA it knows is the host compiler's answer, not this one
    log = ("configure failed: CUDA 10_1 does not support /usr/bin/g++ (g++-9.3.0).  You need g++ < 9.0.\n")
    assert _first(log)["title"].startswith("Kaldi's configure refuses the g++")


def test_kaldi_hostile_line():
    explain(hostile_line("Unsupported CUDA_VERSION (CUDA_VERSION=11_0), please report it to Kaldi"))
    explain(hostile_line("Unsupported CUDA_VERSION (CUDA_VERSION=1"))
