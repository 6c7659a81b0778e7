"""Round 13, samplebuild (a broad sample of build-side threads): three families the sample found unanswered. Bazel's CUDA
configuration (TensorFlow's cuda_configure.bzl / find_cuda_config.py, used by XLA and jaxlib source builds too) that
cannot find a CUDA part under the base paths it was given; gcc's "No such file or directory" for a CUDA header in
the user's locale (glibc translates the system error; full-width colons in pasted logs); CMake's configure stopped
for want of cuDNN (its fatal forms: REQUIRED find_package, a FindCUDNN reading a missing header, OpenCV's and TNN's
own checks). Excerpts are verbatim
(trimmed) from the threads named above them; the guard cases keep the English and sibling answers."""

from explain_answers import first_answer_tests

CASES = [
    # -- Bazel's CUDA configuration cannot find a part -----------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/53621 (TF 2.4, cuDNN 8.3: the base paths given held no cuDNN)
    ("Please specify the comma-separated list of base paths to look for CUDA libraries and headers. [Leave empty to use the default]: /usr/share/cuda/bin,/usr/share/cuda/include,/usr/include,/usr/lib64,/usr/share/cuda\n"
     "\n"
     "Could not find any cudnn.h, cudnn_version.h matching version '8' in any subdirectory:\n"
     "        ''\n"
     "        'include'\n"
     "        'include/cuda'\n"
     "        'include/*-linux-gnu'\n"
     "of:\n"
     "        '/usr/include'\n"
     "        '/usr/lib64'",
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # https://github.com/tensorflow/tensorflow/issues/8264 (NVIDIA's .deb: cudnn.h in /usr/include, the configure looked
    # under the library directory; #6850 the same)
    ("lrwxrwxrwx 1 root  18 Nov  6 23:19 /usr/lib/x86_64-linux-gnu/libcudnn.so.5 -> libcudnn.so.5.1.10\n"
     "Auto-Configuration Error: Cannot find cudnn.h at /usr/lib/x86_64-linux-gnu/include/cudnn.h",
     "build.bazel_cuda_config_not_found", "find / -name 'cudnn*.h'"),
    # https://github.com/tensorflow/tensorflow/issues/44574 (TF 1.x/2.0-2.2 with cuDNN 8: the version is in
    # cudnn_version.h, which that find_cuda_config does not read; the thread's title)
    ("Could not find any cudnn.h matching version '8' in any subdirectory",
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # https://github.com/tensorflow/tensorflow/issues/60178 (the toolkit's own header; the thread's title)
    ("Could not find any cuda.h matching version '' in any subdirectory",
     "build.bazel_cuda_config_not_found", "the toolkit's root"),
    # https://github.com/open-ce/open-ce/issues/1005 (a jaxlib build in a CUDA 11.8 container)
    ("Error in fail: Repository command failed\n"
     "Could not find any cudnn.h, cudnn_version.h matching version '8.9.2' in any subdirectory:\n"
     "        ''\n"
     "        'include'",
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # -- a CUDA header not found, in the user's locale ------------------------------------------------------------
    # https://github.com/apache/mxnet/issues/2936 (zh_CN: cuDNN extracted to a home directory)
    ("/home/sojoyoo/mxnet/mshadow/mshadow/./base.h:152:21: fatal error: cudnn.h: 没有那个文件或目录\n"
     "compilation terminated.\n"
     "Makefile:151: recipe for target 'build/src/resource.o' failed",
     "build.cuda_header_missing", "cuDNN's headers are not in any CUDA toolkit"),
    # https://github.com/Yuliang-Liu/Box_Discretization_Network/issues/41 (zh_CN, a torch extension's setup.py)
    ("/home/rebot/anaconda3/envs/cwt_DeepLearning/lib/python3.7/site-packages/torch/include/c10/cuda/CUDAStream.h:6:10: fatal error: cuda_runtime_api.h: 没有那个文件或目录\n"
     " #include <cuda_runtime_api.h>\n"
     "compilation terminated.\n"
     "error: command 'gcc' failed with exit status 1",
     "build.cuda_header_missing", "cudaenv use"),
    # https://github.com/zhengshoujian/darknet-yolo-segmentation/issues/6 (fr; open, recognised like its English form)
    ("include/darknet.h:14:14: fatal error: cuda_runtime.h: Aucun fichier ou dossier de ce type\n"
     '     #include "cuda_runtime.h"',
     "build.cuda_header_missing", "cudaenv use"),
    # https://github.com/vlfeat/matconvnet/issues/1107 (full-width colons in the pasted log)
    ("Use 'nvcc' to compile.\n"
     "cc1plus: Fatal error： cuda_runtime.h：No such file or directory\n"
     "Compile interrupt.",
     "build.cuda_header_missing", "cudaenv use"),
    # guard: the English message keeps its answer (wang-xinyu/tensorrtx#105: include_directories for x86_64)
    ("[ 50%] Building CXX object CMakeFiles/lenet.dir/main.cpp.o\n"
     "/home/jj/tensorrtx/lenet/main.cpp:2:10: fatal error: cuda_runtime_api.h: No such file or directory\n"
     ' #include "cuda_runtime_api.h"\n'
     "compilation terminated.",
     "build.cuda_header_missing", "-I/usr/local/cuda/include"),
    # guard: `ls` of a missing header in zh_CN is not a compile error (nothing is claimed by the new patterns; the
    # English sibling keeps its answer)
    ("/usr/local/cuda/include/cudnn.h:1: fatal error: cudnn.h: No such file or directory",
     "build.cuda_header_missing", "cuDNN's headers are not in any CUDA toolkit"),
    # -- CMake did not find cuDNN (fatal forms only) ---------------------------------------------------------------
    # https://github.com/opencv/opencv/issues/16380 (apt libcudnn7-dev, then -D CUDNN_INCLUDE_DIR=/usr/include
    # -D CUDNN_LIBRARY=.../libcudnn.so.7)
    ("Could NOT find CUDNN (missing: CUDNN_LIBRARY CUDNN_INCLUDE_DIR)",
     "cmake.cudnn_not_found", "-DCUDNN_INCLUDE_DIR=/usr/include"),
    # https://github.com/Oneflow-Inc/oneflow/issues/10375 (CUDNN_LIBRARY given the lib directory: it is the file)
    ("[Question]: CMake Configure Error: Could NOT find CUDNN (missing: CUDNN_LIBRARY)",
     "cmake.cudnn_not_found", "the library *file*"),
    # https://github.com/Tencent/TNN/issues/1577 (`export CUDNN_ROOT_DIR=/usr/local/cuda/` solved it)
    ("CMake Error at source/tnn/device/cuda/CMakeLists.txt:13 (message): not defined environment variable:CUDNN_ROOT_DIR",
     "cmake.cudnn_not_found", "export CUDNN_ROOT_DIR=/usr/local/cuda"),
    # https://github.com/opencv/opencv/issues/17955 (CUDNN_INCLUDE_DIR named a directory without cudnn.h)
    ("CMake Error at cmake/FindCUDNN.cmake:71 - file failed to open for reading (No such file or directory): /usr/local/cuda/include/cudnn.h",
     "cmake.cudnn_not_found", "CUDNN_INCLUDE_DIR"),
    # OpenCV's own check (modules/dnn/CMakeLists.txt), as pasted in opencv/opencv#16380's neighbours
    ("CMake Error at modules/dnn/CMakeLists.txt:53 (message):\n"
     "  DNN: CUDA backend requires cuDNN.  Please resolve dependency or disable\n"
     "  OPENCV_DNN_CUDA=OFF",
     "cmake.cudnn_not_found", "CUDNN_LIBRARY"),
    # guard: a toolkit library's NOTFOUND keeps its own answer (limbo018/DREAMPlace#116)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "CUDA_curand_LIBRARY (ADVANCED)\n"
     '    linked by target "independent_set_matching_cuda" in directory /home/liangk/Code/DREAMPlace-master/dreamplace/ops/independent_set_matching',
     "cmake.cuda_library_notfound", "CUDA_TOOLKIT_ROOT_DIR"),
]

test_first_answer = first_answer_tests(CASES)


def test_ls_of_a_missing_header_claims_nothing() -> None:
    """`ls` reporting a header missing, in zh_CN, is not a compiler's error: the localized patterns need the header
    right after a colon, not inside quotes."""
    from cudaenv.knowledge.explain import explain
    text = "ls: 无法访问 '/usr/local/cuda/include/cudnn.h': 没有那个文件或目录"
    assert not [m.id for m in explain(text) if m.id == "build.cuda_header_missing"]


def test_an_optional_cudnn_status_line_claims_nothing() -> None:
    """torch's own CMake prints "-- Could NOT find CUDNN" and builds on without cuDNN (traveller59/spconv#110): a
    status line is no cause; only the fatal forms are answered."""
    from cudaenv.knowledge.explain import explain
    text = ("-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH) \n"
            "CMake Warning at /home/kri/anaconda3/envs/pvrcnn/lib/python3.7/site-packages/torch/share/cmake/Caffe2/public/cuda.cmake:109 (message):\n"
            "  Caffe2: Cannot find cuDNN library.  Turning the option off")
    assert "cmake.cudnn_not_found" not in [m.id for m in explain(text)]
