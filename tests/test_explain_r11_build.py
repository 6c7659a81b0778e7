"""Issue 18, round 11, helper "build": a tool's own version gate (torch's headers refuse an old compiler), answered
with the version the gate names. Every excerpt is quoted (trimmed) from the thread above it; the first environment
answer and the first line of its fix hold the fix that solved that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

GATE = "build.torch_compiler_gate"
API = "build.library_api_version"
LIBDEVICE = "nvcc.libdevice_path_missing"
TFHEADERS = "build.tf_headers_cuda_path"
TFOP = "loader.tf_custom_op_abi"
JAXLIB = "jax.jaxlib_version_gate"
CMAKEGATE = "cmake.minimum_required_gate"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- build.torch_compiler_gate: torch's c10 headers refuse an old gcc --------------------------------------------
    # https://github.com/pytorch/vision/issues/2509 (torchvision from source with gcc 4.8: GCC 5 or later)
    ("/bigdisk/lax/deeplearn/pytorch/torch/include/c10/util/C++17.h:16:2: error: #error \"You're trying to build "
     "PyTorch with a too old version of GCC. We need GCC 5 or later.\"\n #error \"You're trying to build PyTorch with a "
     "too old version of GCC. We need GCC 5 or later.\"\n  ^\n/bigdisk/lax/deeplearn/pytorch/torch/include/c10/util/"
     "C++17.h:24:2: error: #error You need C++14 to compile PyTorch\n #error You need C++14 to compile PyTorch",
     GATE, "gcc 5 or later"),
    # https://github.com/pyro-ppl/pyro/pull/3349 (CI with gcc 8: "we'll need to bump gcc version")
    ("Error message from CI:\n/opt/hostedtoolcache/Python/3.8.18/x64/lib/python3.8/site-packages/torch/include/c10/util/"
     "C++17.h:16:2: error: #error \"You're trying to build PyTorch with a too old version of GCC. We need GCC 9 or later.\"",
     GATE, "GCC 9 or later"),
    # https://github.com/deepspeedai/DeepSpeed/issues/5429 (NERSC Perlmutter: the system gcc; a newer gcc module)
    ("/global/u2/e/echagnon/.local/perlmutter/python-3.11/lib/python3.11/site-packages/torch/include/c10/util/C++17.h:13:2: "
     "error: #error \"You're trying to build PyTorch with a too old version of GCC. We need GCC 9 or later.\"\n #error \\\n"
     "  ^~~~~\n[2/3] c++ -MMD -MF cpu_adam.o.d -DTORCH_EXTENSION_NAME=cpu_adam -isystem /global/homes/e/echagnon/.local/"
     "perlmutter/python-3.11/lib/python3.11/site-packages/torch/include -fPIC -std=c++17 -O3 "
     "-L/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/cuda/12.4/lib64 -lcudart -lcublas",
     GATE, "module load gcc"),
    # https://github.com/deepspeedai/DeepSpeed/issues/7143 (a DeepSpeed op built in a container: GCC 9 or later)
    ("/dockerdata/lujunda/env/rft/lib/python3.12/site-packages/torch/include/c10/util/C++17.h:13:2: error: #error "
     "\"You're trying to build PyTorch with a too old version of GCC. We need GCC 9 or later.\"",
     GATE, "GCC 9 or later"),
    # https://github.com/jwyang/faster-rcnn.pytorch/issues/819 (torch 1.x TypeIndex.h wording: GCC 5 or later)
    ("/root/anaconda3/envs/py364_zhangshen_sx/lib/python3.6/site-packages/torch/include/c10/util/TypeIndex.h:31:2: "
     "error: #error \"You're running a too old version of GCC. We need GCC 5 or later.\"\nerror: command 'gcc' failed "
     "with exit status 1",
     GATE, "gcc 5 or later"),
    # --- build.library_api_version: C's wordings (gcc on a .c file) of a symbol cuDNN 8 removed ---------------------
    # https://github.com/pjreddie/darknet/issues/2245 (Jetson, cuDNN 8: "I used Fork source code
    # (https://github.com/AlexeyAB/darknet) is build success", the fork ported to cuDNN 8)
    ("./src/convolutional_layer.c:148:5: warning: implicit decalaration of function 'cudnnGetConvolutionForwardAlgorithm'; "
     "didi you mean 'cudnnGetConvolutionForwardAlgorithm_v7' ? [-Wimplicit-function-declaration]\n"
     "./src/convolutional_layer.c:153:13: error: 'CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT' undeclared (first use in "
     "this function); did you mean 'CUDNN_CONVOLUTION_FWD_ALGO_DIRECT'>\ncompilation terminated due to -Wfatal-errors.",
     API, "ported to cuDNN 8"),
    # --- nvcc.libdevice_path_missing: the nvcc that ran is not a toolkit's own bin/nvcc -----------------------------
    # https://github.com/cbuchner1/CudaMiner/issues/53 ("export PATH=/usr/local/cuda-10.1/bin:..." and it was
    # completely resolved)
    ("I had the same error msg:`nvcc fatal : Path to libdevice library not specified`",
     LIBDEVICE, "export PATH=/usr/local/cuda/bin"),
    # https://github.com/NVIDIA/nvvl/issues/17 (CMake took /usr/bin/nvcc; NVIDIA/nvvl#99: removing /usr/bin/nvcc, CMake
    # found /usr/local/cuda-8.0/bin/nvcc and the build went through)
    ("cmake -Bbuild/temp.linux-x86_64-3.6/nvvl-build -H../\n-- The CUDA compiler identification is unknown\n"
     "-- Check for working CUDA compiler: /usr/bin/nvcc\n-- Check for working CUDA compiler: /usr/bin/nvcc -- broken\n"
     "CMake Error at /home/huxiaodong/anaconda3/lib/python3.6/site-packages/cmake/data/share/cmake-3.11/Modules/"
     "CMakeTestCUDACompiler.cmake:46 (message):\n  The CUDA compiler\n\n    \"/usr/bin/nvcc\"\n\n  is not able to compile "
     "a simple test program.\n\n    nvcc fatal   : Path to libdevice library not specified",
     LIBDEVICE, "export PATH=/usr/local/cuda/bin"),
    # https://github.com/cudamat/cudamat/issues/40 (CUDA 5.5 from the .run: "with your PATH correctly set to include
    # /usr/local/cuda/bin"; the build ran under sudo, which resets PATH)
    ("I cannot find the path /usr/local/cuda/nvmm/libdevice after installing cuda5.5 with .run.\nWhen make the examples, "
     "I faced this problem nvcc fatal   : Path to libdevice library not specified.",
     LIBDEVICE, "export PATH=/usr/local/cuda/bin"),
    # https://github.com/facebookarchive/caffe2/issues/410 (nvcc is /usr/local/bin/nvcc, a link into cuda-8.0/bin)
    ("> [ 14%] Building NVCC (Device) object third_party/gloo/gloo/CMakeFiles/gloo_cuda.dir/nccl/"
     "gloo_cuda_generated_nccl.cu.o\n> nvcc fatal   : Path to libdevice library not specified\n"
     "root@01:/usr/local/src/caffe2/caffe2# which nvcc\n/usr/local/bin/nvcc\n"
     "lrwxrwxrwx 1 root root 28 Mar  7 18:05 /usr/local/bin/nvcc -> /usr/local/cuda-8.0/bin/nvcc",
     LIBDEVICE, "export PATH=/usr/local/cuda/bin"),
    # --- build.tf_headers_cuda_path: TF 1.x's pip headers include "cuda/include/cuda.h" ------------------------------
    # https://github.com/tensorflow/tensorflow/issues/15002 (TF 1.4 from pip3, CUDA 8.0; the maintainer: "add `-I/usr` or
    # wherever your cuda installation is to your build command")
    ("/usr/local/lib/python3.5/dist-packages/tensorflow/include\nIn file included from deform_conv.cu.cc:70:0:\n"
     "/usr/local/lib/python3.5/dist-packages/tensorflow/include/tensorflow/core/util/cuda_kernel_helper.h:24:31: fatal "
     "error: cuda/include/cuda.h: No such file or directory\n #include \"cuda/include/cuda.h\"",
     TFHEADERS, "-I/usr/local"),
    # --- loader.tf_custom_op_abi: a TF class's typeinfo missing = the op is not linked with libtensorflow_framework ---
    # https://github.com/tensorflow/tensorflow/issues/25513 (a custom reader op built for TF 1.3, loaded by TF 1.12)
    ("Shared library for the custom op builds successfully, but  loading it with `import tensorFlow as tf; "
     "tf.load_op_library()` fails due to missing symbols:\n`tensorflow.python.framework.errors_impl.NotFoundError: "
     "./libjson_record_reader_op.so: undefined symbol: _ZTIN10tensorflow8OpKernelE`",
     TFOP, "-ltensorflow_framework"),
    # --- jax.jaxlib_version_gate: jax's own check of jaxlib's version ------------------------------------------------
    # https://github.com/Zuricho/ParallelFold/issues/13 (jaxlib 0.1.69+cuda101 kept, `pip install jax==0.2.14` fixed it)
    ("ValueError: jaxlib is version 0.1.69, but this version of jax requires version 0.1.74.\n#conda list |grep jax\n"
     "jax                       0.2.26                   pypi_0    pypi\n"
     "jaxlib                    0.1.69+cuda101           pypi_0    pypi",
     JAXLIB, "pip install jax==0.2.14"),
    # https://github.com/Kaggle/docker-python/pull/771 (the image's jaxlib upgraded)
    ("Fixes error: `ValueError: jaxlib is version 0.1.41, but this version of jax requires version 0.1.43.`",
     JAXLIB, "pip install -U"),
    # https://github.com/octo-models/octo/issues/125 (jaxlib 0.4.31 over jax 0.4.20: `pip install jaxlib==0.4.20`)
    ("jaxlib version 0.4.31 is newer than and incompatible with jax version 0.4.20",
     JAXLIB, 'pip install "jaxlib==0.4.20"'),
    # https://github.com/ayaka14732/TransCan/issues/4 (a jaxlib 0.4.12 built from source beside jax 0.4.11)
    ("    raise RuntimeError(msg)\nRuntimeError: jaxlib version 0.4.12 is newer than and incompatible with jax version "
     "0.4.11.",
     JAXLIB, 'pip install "jaxlib==0.4.11"'),
    # --- cmake.minimum_required_gate: CMake's own cmake_minimum_required gate --------------------------------------
    # https://github.com/kakao/khaiii/issues/6 (CMake 3.5.1; `pip install cmake` installed 3.13 and it built)
    ("`cmake ..\nCMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n  CMake 3.10 or higher is required.  You are "
     "running version 3.5.1`",
     CMAKEGATE, "pip install -U cmake"),
]

test_first_answer = first_answer_tests(CASES)
