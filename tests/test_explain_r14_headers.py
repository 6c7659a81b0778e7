"""Round 14, headers: a missing header or find-module answered by which component ships it (components.yaml
`headers`), whatever tool said so. TensorRT's headers (gcc in English, Chinese and Spanish, nvcc's -I of an unpacked
TensorRT), the other components the table knows (CUTLASS as a git submodule, by gcc and MSVC's C1083; the CUDA
samples' helpers; NVML's toolkit -dev part; cuSPARSELt, no toolkit part), CMake's ways of not finding TensorRT (the
NOTFOUND table, FindPackageHandleStandardArgs, TensorRT OSS's own lines, an imported target), and a toolkit header the
log shows is nowhere on the machine (its -dev package of the log's CUDA). Excerpts are verbatim (trimmed) from the
threads named above them; the guard cases keep the toolkit headers' answers and leave program bugs unclaimed."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- TensorRT's headers, no toolkit ships them -------------------------------------------------------------------
    # https://github.com/wang-xinyu/tensorrtx/issues/14 ("NvInfer.h is in package libnvinfer-dev")
    ('fatal error: NvInfer.h: No such file or directory\n'
     ' #include "NvInfer.h"\n'
     '          ^~~~~~~~~~~\n'
     'compilation terminated.\n'
     'CMake Error at myplugins_generated_mish.cu.o.Debug.cmake:219 (message):\n'
     '  Error generating',
     "build.tensorrt_header_missing", "libnvinfer-dev"),
    # https://github.com/dusty-nv/jetson-inference/issues/281 ("TensorRT has not been installed successfully")
    ("In file included from /home/jacob/jetson-inference/segNet.h:27:0,\n"
     "                 from /home/jacob/jetson-inference/segNet.cpp:23:\n"
     "/home/jacob/jetson-inference/tensorNet.h:27:21: fatal error: NvInfer.h: No such file or directory\n"
     ' #include "NvInfer.h"',
     "build.tensorrt_header_missing", "find / -name NvInfer.h"),
    # https://github.com/sair-lab/AirSLAM/issues/47 (gcc in Chinese, NvInferRuntime.h)
    ("/home/kkk/workspace/llll/Thirdparty/TensorRTBuffer/include/logging.h:20:10: fatal error: NvInferRuntime.h: 没有那个文件或目录\n"
     "   20 | #include <NvInferRuntime.h>\n"
     "compilation terminated.",
     "build.tensorrt_header_missing", "install TensorRT's development files"),
    # https://github.com/chenzhi1992/TensorRT-SSD/issues/21 (Spanish, no "fatal error" prefix kept in the paste)
    ("When I execute: g++ common.cpp -o exit\n"
     " NvInfer.h:No existe el archivo o el directorio compilation terminated.",
     "build.tensorrt_header_missing", "libnvinfer-dev"),
    # https://github.com/GeekAlexis/FastMOT/issues/146 (the build names an unpacked TensorRT: point it there)
    ('nvcc -ccbin g++ -I"/usr/local/cuda/include" -I"/usr/local/TensorRT-7.1.3.4/include" -I"/usr/local/include" -I"plugin"  -Xcompiler -fPIC -c -o yolo_layer.o yolo_layer.cu\n'
     "yolo_layer.h:4:10: fatal error: NvInfer.h: No such file or directory",
     "build.tensorrt_header_missing", "/usr/local/TensorRT-7.1.3.4/include"),
    # -- the other components of the header table ---------------------------------------------------------------------
    # https://github.com/NVlabs/instant-ngp/issues/442 (MSVC C1083, the line wrapped inside "include";
    # "You need to do a recursive fetch on the submodules")
    ("\\\\instant-ngp\\dependencies\\tiny-cuda-nn\\include\\tiny-cuda-nn/cutlass_matmul.h(40): fatal error C1083: Cannot open incl\n"
     "ude file: 'cutlass/cutlass.h': No such file or directory [E:\\instant-ngp\\build\\dependencies\\tiny-cuda-nn\\src\\tiny-cuda-\n"
     "nn.vcxproj]",
     "build.component_header_missing", "git submodule update --init --recursive"),
    # https://github.com/NVlabs/instant-ngp/issues/504 (MSVC's Chinese message in English words, curly quotes)
    ("tiny-cuda-nn/cutlass_matmul.h(40): fatal error C1083: Unable to open include file: “cutlass/cutlass.h”: No such file or directory",
     "build.component_header_missing", "git submodule update --init --recursive"),
    # https://github.com/NVlabs/tiny-cuda-nn/issues/132 (nvcc's -I names the empty submodule; "git clone --recursive")
    ("[1/7] /usr/local/cuda/bin/nvcc  -I/home/xxx/TopOne/dependencies/tiny-cuda-nn/include -I/home/xxx/TopOne/dependencies/tiny-cuda-nn/dependencies -I/home/xxx/TopOne/dependencies/tiny-cuda-nn/dependencies/cutlass/include -I/home/xxx/TopOne/dependencies/tiny-cuda-nn/dependencies/cutlass/tools/util/include -c /home/xxx/TopOne/dependencies/tiny-cuda-nn/src/fully_fused_mlp.cu -o fully_fused_mlp.o\n"
     "/home/xxx/TopOne/dependencies/tiny-cuda-nn/include/tiny-cuda-nn/cutlass_matmul.h:40:10: fatal error: cutlass/cutlass.h: No such file or directory",
     "build.component_header_missing", "git submodule update --init --recursive"),
    # https://github.com/NVIDIA/FasterTransformer/issues/496 (3rdparty/cutlass, #381: missing from the release)
    ("/workspace/FasterTransformer-main/src/fastertransformer/cutlass_extensions/include/cutlass_extensions/gemm/kernel/mixed_gemm_B_layout.h:12:10: fatal error: cutlass/layout/matrix.h: No such file or directory\n"
     '   12 | #include "cutlass/layout/matrix.h"',
     "build.component_header_missing", "git submodule update --init --recursive"),
    # https://github.com/cgtuebingen/Flex-Convolution/issues/7 (the samples' helper; CUDA_SAMPLE_INC empty)
    ("-- CUDA_SAMPLE_INC: /samples/common/inc\n"
     "HOME/Flex-Convolution/user_ops/kernels/knn_bruteforce_kernel_gpu.cu.cc:25:25: fatal error: helper_cuda.h: No such file or directory\n"
     "compilation terminated.",
     "build.component_header_missing", "cuda-samples"),
    # https://github.com/shixun404/Fault-Tolerant-SGEMM-on-NVIDIA-GPUs/issues/1 ("the missing file comes from cuda-sample")
    ("/usr/local/cuda/bin/nvcc -arch=sm_75 -O3 -std=c++11  -L/usr/local/cuda/lib64 -lcudart -lcublas -I/usr/local/cuda/include -I/usr/local/cuda/samples/common/inc -I.   kernel/ft_sgemm/sgemm.cu utils/utils.cu   -o ft_sgemm\n"
     "In file included from kernel/ft_sgemm/sgemm.cu:3:\n"
     "./utils/utils.cuh:5:10: fatal error: helper_functions.h: No such file or directory",
     "build.component_header_missing", "-I/path/to/cuda-samples/Common"),
    # https://github.com/CFSworks/nvml_fix/issues/16 (nvml.h: the toolkit's NVML -dev part, "nvidia-cuda-dev")
    ('gcc  -Wl,--no-as-needed -shared -fPIC -s -o libnvidia-ml.so.1 -DNVML_PATCH_390 -DNVML_VERSION=\\"390.87\\" libnvidia-ml.so.390.87 nvml_fix.c\n'
     "nvml_fix.c:6:18: fatal error: nvml.h: No such file or directory",
     "build.component_header_missing", "cuda-nvml-dev-"),
    # https://github.com/tkestack/gpu-manager/issues/125 (cgo)
    ("/root/go/pkg/mod/github.com/tkestack/go-nvml@v0.0.0-20191217064248-7363e630a33e/nvml_dl.h:24:18: fatal error: nvml.h: No such file or directory\n"
     ' #include "nvml.h"',
     "build.component_header_missing", "ls /usr/local/cuda*/include/nvml.h"),
    # https://github.com/NVIDIA/nvbench/issues/197
    ("third-party/nvbench/nvbench/internal/nvml.cuh:27:10: fatal error: nvml.h: No such file or directory\n"
     "   27 | #include <nvml.h>",
     "build.component_header_missing", "nvml"),
    # -- CMake did not find TensorRT -----------------------------------------------------------------------------------
    # https://github.com/NVIDIA/TensorRT/issues/66 (the OSS build: "This repository is part of whole TensorRT")
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "Please set them or make sure they are set and tested correctly in the CMake files:\n"
     "TENSORRT_LIBRARY_INFER\n"
     '    linked by target "nvonnxparser" in directory /home/x/TensorRT/parsers/onnx\n'
     '    linked by target "nvonnxparser_plugin" in directory /home/x/TensorRT/parsers/onnx',
     "cmake.tensorrt_not_found", "-DTRT_LIB_DIR="),
    # https://github.com/NVIDIA/TensorRT/issues/85 (TensorRT OSS's own line)
    ("Building for TensorRT version: 5.1.5.0, library version: 5.1.5\n"
     "-- ========================= Importing and creating target nvinfer ==========================\n"
     "-- Looking for library nvinfer\n"
     "-- Library that was found nvinfer_LIB_PATH-NOTFOUND",
     "cmake.tensorrt_not_found", "-DTRT_LIB_DIR="),
    # https://github.com/ceccocats/tkDNN/issues/62 (a project's FindTensorRT variable; a tar: give CMake its path)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "Please set them or make sure they are set and tested correctly in the CMake files:\n"
     "CUDA_nvinfer_LIBRARY\n"
     '    linked by target "tkDNN" in directory /home/zengxiaojia/CLionProjects/tkDNN',
     "cmake.tensorrt_not_found", "find / -name 'libnvinfer.so*'"),
    # https://github.com/cyrusbehr/YOLOv8-TensorRT-CPP/issues/16 (FindPackageHandleStandardArgs)
    ('  Could NOT find TensorRT (missing: TensorRT_LIBRARY) (found version "..")\n'
     "Call Stack (most recent call first):\n"
     "  /home/safebot/.local/lib/python3.8/site-packages/cmake/data/share/cmake-3.27/Modules/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)\n"
     "  cmake/FindTensorRT.cmake:73 (FIND_PACKAGE_HANDLE_STANDARD_ARGS)",
     "cmake.tensorrt_not_found", "-DTensorRT_ROOT="),
    # https://github.com/galliot-us/PifPaf-TensorRT-Pose-Estimation/issues/10 (onnx-tensorrt in a Dockerfile)
    ("Could NOT find TENSORRT (missing: TENSORRT_LIBRARY) \n"
     "ERRORCannot find TensorRT library.\n"
     "-- Configuring done\n"
     "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "TENSORRT_LIBRARY_MYELIN\n"
     '    linked by target "nvonnxparser_static" in directory /onnx-tensorrt',
     "cmake.tensorrt_not_found", "TENSORRT_ROOT"),
    # https://github.com/CVCUDA/CV-CUDA/issues/40 (an imported target no find_package made)
    ("CMake Error at samples/common/CMakeLists.txt:23 (add_library):\n"
     '  Target "nvcv_samples_common" links to target "TensorRT::nvinfer" but the\n'
     "  target was not found.  Perhaps a find_package() call is missing for an\n"
     "  IMPORTED target, or an ALIAS target is missing?",
     "cmake.tensorrt_not_found", "libnvinfer-dev"),
    # -- CMake did not find NCCL (a REQUIRED find_package) -----------------------------------------------------------
    # https://github.com/NVIDIA/FasterTransformer/issues/676 (its FindNCCL.cmake; NCCL_INCLUDE_DIR / NCCL_LIB_DIR)
    ("CMake Error at /opt/conda/envs/fastertransformer/lib/python3.8/site-packages/cmake/data/share/cmake-3.26/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     "  Could NOT find NCCL (missing: NCCL_INCLUDE_DIRS NCCL_LIBRARIES)\n"
     "Call Stack (most recent call first):\n"
     "  cmake/Modules/FindNCCL.cmake:126 (find_package_handle_standard_args)\n"
     "  CMakeLists.txt:84 (find_package)",
     "cmake.nccl_not_found", "-DNCCL_ROOT_DIR="),
    # https://github.com/apache/mxnet/pull/17297 (-DUSE_NCCL=ON; NCCL in /usr/local/cuda the module did not search)
    ("Could NOT find NCCL (missing: NCCL_INCLUDE_DIRS NCCL_LIBRARIES)\n"
     "CMake Warning at CMakeLists.txt:636 (message):\n"
     "  Could not find NCCL libraries",
     "cmake.nccl_not_found", "find / \\( -name nccl.h"),
    # -- a toolkit part's header the log shows is not on the machine: its -dev package of the log's CUDA --------------
    # https://github.com/pytorch/pytorch/issues/19666 (libnvrtc9.1 from apt beside CUDA 10.0: cuda-nvrtc-dev-10-0)
    ("- Ubuntu 18\n- CUDA 10.0\n- pytorch 1.1.0 (directly clone the latest version from GitHub)\n\n"
     "In file included from ../torch/csrc/jit/fuser/cuda/thnvrtc.cpp:1:0:\n"
     "../torch/csrc/jit/fuser/cuda/thnvrtc.h:4:10: fatal error: nvrtc.h: No such file or directory\n"
     " #include <nvrtc.h>\n\n"
     "But I have installed libnvrtc9.1 by apt. The strange thing is that there is not nvrtc.h in my system.",
     "build.cuda_header_missing", "cuda-nvrtc-dev-10-0"),
    # -- guards: today's answers kept -----------------------------------------------------------------------------------
    # the toolkit's own header stays with the complete-toolkit answer (maskrcnn-benchmark#685's line)
    ("/usr/local/lib/python3.6/dist-packages/torch/include/ATen/cuda/CUDAContext.h:6:22: fatal error: cusparse.h: No such file or directory",
     "build.cuda_header_missing", "cudaenv use"),
    # apache/tvm#379: nvrtc.h with no sign it is absent from the machine (CUDA_PATH fixed it): the toolkit answer stays
    ("src/codegen/build_cuda.cc:12:19: fatal error: nvrtc.h: No such file or directory",
     "build.cuda_header_missing", "cudaenv use"),
    # cuDNN's header keeps its variant
    ("fatal error: cudnn.h: No such file or directory", "build.cuda_header_missing", "cuDNN's headers are not in any CUDA toolkit"),
    # cuSPARSELt is no toolkit part (it matched the cuSPARSE alternation before): its own package
    ("/opt/pytorch/aten/src/ATen/native/sparse/cuda/cuSPARSELtOps.h:8:10: fatal error: cusparseLt.h: No such file or directory",
     "build.component_header_missing", "libcusparselt-dev"),
]

test_first_answer = first_answer_tests(CASES)


def test_source_spelling_and_program_bugs_unclaimed() -> None:
    """enazoe/yolo-tensorrt#140: "Nvinfer.h" is TensorRT 7's spelling in the source (TensorRT 8's is NvInfer.h), a
    code change, not a missing install; NVIDIA/cutlass#1240: a CUTLASS header that fails to compile is no missing file."""
    for text in ('/home/user/yolo-tensorrt/modules/plugin_factory.h:35:10: fatal error: Nvinfer.h: No such file or directory\n'
                 ' #include "Nvinfer.h"',
                 "include/cutlass/epilogue/fusion/operations.hpp:127:30: error: use of undeclared identifier 'sizeof_bits_v'\n"
                 "  127 |   int AlignmentBias_ = 128 / sizeof_bits_v<ElementBias_>,"):
        assert not [m.id for m in explain(text) if m.environment], text


def test_optional_nccl_status_line_unclaimed() -> None:
    """easybuilders/easybuild-easyconfigs#9321: torch's gloo reports an optional NCCL as a status line and builds on."""
    text = ("-- CUDA detected: 10.1\n"
            "-- Could NOT find NCCL (missing: NCCL_INCLUDE_DIR) \n"
            "CMake Warning at third_party/gloo/cmake/Dependencies.cmake:96 (message):\n"
            "  Not compiling with NCCL support.")
    assert "cmake.nccl_not_found" not in [m.id for m in explain(text)]
