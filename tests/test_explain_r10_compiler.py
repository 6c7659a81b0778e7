"""Issue 18, round 10, helper "compiler": each entry of the compiler layer answers with the resolutions its cause
has in real threads. Every excerpt is quoted (trimmed) from the thread above it; the first environment answer and
the first line of its fix hold the fix that solved that thread (or the labelled alternative the first line names
for the thread's situation). ``ALTERNATIVES`` holds threads solved by a labelled alternative further down the fix block
(a rarer situation the first line does not name), asserted anywhere in the fix.
"""

from __future__ import annotations

import pytest

from explain_answers import first_answer_tests
from cudaenv.knowledge.explain import explain

GCC = "nvcc.gcc_too_new"
ARCH = "nvcc.unsupported_arch"
CMAKE = "cmake.no_cuda_compiler"
HEADER = "build.cuda_header_missing"
HEADERS = "nvcc.host_headers_unsupported"
ARCHLIST = "torch.arch_list_empty"
NINJA = "build.ninja_missing"
OLDCMAKE = "cmake.too_old_for_cuda"
AUTODETECT = "build.gpu_autodetect_failed"
MSVC = "msvc.unsupported_version"
REJECTED = "nvcc.host_compiler_rejected"
PTX = "nvcc.ptx_too_new"
FINDCUDA = "cmake.findcuda_parts_missing"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- nvcc.gcc_too_new: a toolkit older than CUDA 11 (limit gcc 8 or older) -------------------------------
    # https://github.com/fireice-uk/xmr-stak/issues/733 (CUDA 9.1 on Arch, gcc 7: -DCUDA_HOST_COMPILER=/usr/bin/gcc-6)
    ("`Building NVCC (Device) object CMakeFiles/xmrstak_cuda_backend.dir/xmrstak/backend/nvidia/nvcc_code/"
     "xmrstak_cuda_backend_generated_cuda_extra.cu.o`\nwith\n`/opt/cuda/include/crt/host_config.h:121:2: error: #error -- "
     "unsupported GNU version! gcc versions later than 6 are not supported!`",
     GCC, "-DCUDA_HOST_COMPILER=/usr/bin/gcc-6"),
    # https://github.com/cbuchner1/CudaMiner/issues/155 (CUDA 5.5, gcc 5.3: install gcc-4.8 and update-alternatives)
    ("/usr/local/cuda-5.5//bin/..//include/host_config.h:82:2: error: #error -- unsupported GNU version! gcc 4.9 and up "
     "are not supported!\n\n# gcc --version\ngcc (GCC) 5.3.1 20151207 (Red Hat 5.3.1-2)",
     GCC, "update-alternatives --install /usr/bin/gcc gcc /usr/bin/gcc-4.8"),
    # https://github.com/tianzhi0549/FCOS/issues/37 (CUDA 9.0 with gcc 7.3: "I have to downgrade?" - "Yes.")
    ("/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions later "
     "than 6 are not supported! #error -- unsupported GNU version! gcc versions later than 6",
     GCC, "sudo apt-get install gcc-6 g++-6"),
    # https://github.com/cjlin1/simpleNN/issues/10 (already a corpus log, 259: MATLAB's mexcuda, update-alternatives to g++-6)
    ("Building with 'nvcc'.\nIn file included from /usr/local/cuda-9.0/bin/..//include/host_config.h:50:0,\n"
     "/usr/local/cuda-9.0/bin/..//include/crt/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions "
     "later than 6 are not supported!",
     GCC, "update-alternatives --install /usr/bin/gcc gcc /usr/bin/gcc-6"),
    # https://github.com/teddykoker/torchsort/issues/39 (torch built for CUDA 9.2 with g++ 7+: CC/CXX=/usr/bin/gcc-7)
    ("/usr/lib/cuda-9.2/include/crt/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions later "
     "than 7 are not supported!",
     GCC, "torch extensions `CC=gcc-7 CXX=g++-7`"),
    # https://github.com/torch/torch7/issues/931 (CUDA 8 with gcc 6.2: "Install gcc-5 ... export CC=gcc-5, CXX=g++-5")
    ("/usr/local/cuda/include/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions later than 5 "
     "are not supported!",
     GCC, "sudo apt-get install gcc-5 g++-5"),

    # --- nvcc.unsupported_arch -------------------------------------------------------------------------------
    # https://github.com/colmap/colmap/issues/2232 (CMake 3.22 with CMAKE_CUDA_ARCHITECTURES=native: a newer CMake fixed it)
    ("While compiling colmap on ubuntu 22 using CUDA 12.3 I got the error\n\n`Unsupported gpu architecture "
     "'compute_native'\"`\n\n3. cmake .. -GNinja -DCMAKE_CUDA_ARCHITECTURES=native\n\nReplacing\n"
     "`--generate-code=arch=compute_native,code=[compute_native,sm_native]`\n - CMake: 3.22.1\n - NVCC: 12.3",
     ARCH, "CMake 3.24 or newer"),
    # https://github.com/colmap/colmap/issues/2464 (conda's nvcc: the GPU's number, -DCMAKE_CUDA_ARCHITECTURES=89)
    ("[36/211] Building CUDA object src/colmap/mvs/CMakeFiles/colmap_mvs_cuda.dir/gpu_mat_prng.cu.o\n"
     "FAILED: src/colmap/mvs/CMakeFiles/colmap_mvs_cuda.dir/gpu_mat_prng.cu.o\n"
     "/home/mypath/.conda/envs/nerfbusters/bin/nvcc -forward-unknown-to-host-compiler -DBOOST_ALL_NO_LIB -O3 -DNDEBUG "
     "--generate-code=arch=compute_native,code=[compute_native,sm_native] -x cu -c gpu_mat_prng.cu\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_native'",
     ARCH, "-DCMAKE_CUDA_ARCHITECTURES="),
    # https://github.com/CESNET/GPUJPEG/issues/104 (the empty arch of CMake's compiler check: do not pass native)
    ("Compiling the CUDA compiler identification source file \"CMakeCUDACompilerId.cu\" failed.\nCompiler: /usr/bin/nvcc\n"
     "Build flags:\nId flags: --keep;--keep-dir;tmp;-gencode=arch=compute_,code=sm_ -v\n\nThe output was:\n1\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_'",
     ARCH, "instead of native"),
    # https://github.com/star-hengxing/cs149-xmake/issues/7 (CUDA 12 on Windows and compute_35: "just comment it out")
    ("error: nvcc fatal : Unsupported gpu architecture 'compute_35'",
     ARCH, "take it out of the architecture list"),
    # https://github.com/spiriMirror/libuipc/issues/237 (RTX 5090, CUDA 12.9 installed but nvcc 12.4 ran: build with 12.9)
    ("> Building CUDA object src/backends/cuda/CMakeFiles/cuda.dir/affine_body/abd_diag_preconditioner.cu.o\n"
     "> nvcc fatal   : Unsupported gpu architecture 'compute_120'\n"
     "> gmake[2]: *** [src/backends/cuda/CMakeFiles/cuda.dir/build.make:175] Error 1",
     ARCH, "needs CUDA 12.8 or newer"),
    # https://github.com/arrayfire/arrayfire/issues/1535 (already a corpus log, 642: CUDA 7.5 and compute_60, built with 8.0)
    ("[ 17%] Building NVCC (Device) object src/backend/cuda/CMakeFiles/afcuda.dir//./afcuda_generated_all.cu.o\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_60'",
     ARCH, "older than 8.0 (Ubuntu 16.04's /usr/bin/nvcc is 7.5) needs a newer toolkit"),
    # --- cmake.no_cuda_compiler ------------------------------------------------------------------------------
    # https://github.com/Guangxuan-Xiao/torch-int/issues/25 (build_cutlass.sh's CUDACXX=/usr/local/cuda/bin/nvcc did not
    # exist; CUDACXX set to the conda base's bin/nvcc, the nvcc that is there)
    ("-- CMake Version: 3.18.2\n-- The CXX compiler identification is GNU 8.4.1\n"
     "CMake Error at /usr/share/cmake/Modules/CMakeDetermineCUDACompiler.cmake:25 (message):\n"
     "  Could not find compiler set in environment variable CUDACXX:\n\n  /usr/local/cuda/bin/nvcc.\n\n"
     "Call Stack (most recent call first):\n  CUDA.cmake:46 (enable_language)\n  CMakeLists.txt:42 (include)\n\n"
     "CMake Error: CMAKE_CUDA_COMPILER not set, after EnableLanguage",
     CMAKE, 'export CUDACXX="$(which nvcc)"'),
    # https://github.com/NVIDIA/cutlass/issues/1269 (export CUDACXX=$~/miniconda3/envs/int/bin/nvcc: a path never expanded;
    # the maintainer: put the nvcc's bin directory on PATH)
    ("CMake Error at /usr/share/cmake/Modules/CMakeDetermineCUDACompiler.cmake:25 (message):\n"
     "  Could not find compiler set in environment variable CUDACXX:\n\n  $~/miniconda3/envs/int/bin/nvcc.\n\n"
     "Call Stack (most recent call first):\n  CUDA.cmake:46 (enable_language)",
     CMAKE, "Point CUDACXX at the nvcc that exists"),
    # https://github.com/pmh47/dirt/issues/85 (pip install dirt: CUDACXX=`which nvcc` pip install .)
    ("-- The CUDA compiler identification is unknown\nCMake Error at CMakeLists.txt:2 (project):\n"
     "  No CMAKE_CUDA_COMPILER could be found.\n\n  Tell CMake where to find the compiler by setting either the environment\n"
     "  variable \"CUDACXX\" or the CMake cache entry CMAKE_CUDA_COMPILER to the full\n  path to the compiler, or to the "
     "compiler name if it is in the PATH.",
     CMAKE, "sets CUDACXX"),
    # https://github.com/jetsonhacks/buildLibrealsense2TX/issues/13 (Linux: the toolkit's bin on PATH / CMAKE_CUDA_COMPILER)
    ("CMake Error at CMakeLists.txt:5 (project):\n  No CMAKE_CUDA_COMPILER could be found.\n\n"
     "  Tell CMake where to find the compiler by setting either the environment\n  variable \"CUDACXX\" or the CMake cache "
     "entry CMAKE_CUDA_COMPILER to the full\n  path to the compiler, or to the compiler name if it is in the PATH.",
     CMAKE, "puts its nvcc on PATH"),

    # --- build.cuda_header_missing ---------------------------------------------------------------------------
    # https://github.com/NVIDIA/nccl/issues/131 (g++ nccl_temp.cpp: cuda_runtime.h is in /usr/local/cuda-9.0/targets/...;
    # the compile needs the toolkit's include directory)
    ("$ g++ nccl_temp.cpp\nIn file included from nccl_temp.cpp:1:0:\n/usr/local/include/nccl.h:10:26: fatal error: "
     "cuda_runtime.h: No such file or directory\ncompilation terminated.",
     HEADER, "-I/usr/local/cuda/include"),
    # https://github.com/wang-xinyu/tensorrtx/issues/2 (Jetson: include_directories(.../targets/aarch64-linux/include))
    ("project/resnet/resnext50_32x4d.cpp:2:10: fatal error: cuda_runtime_api.h: No such file or directory\n"
     " #include \"cuda_runtime_api.h\"\n          ^~~~~~~~~~~~~~~~~~~~\ncompilation terminated.\n"
     "CMakeFiles/resnext50.dir/build.make:62: recipe for target 'CMakeFiles/resnext50.dir/resnext50_32x4d.cpp.o' failed",
     HEADER, "include_directories("),
    # https://github.com/NVIDIA-developer-blog/code-samples/issues/33 (the Makefile's CUDA path; "PATH and LD_LIBRARY_PATH
    # do not effect include file searches")
    ("In file included from simpleOnnx.cpp:28:0:\ncudaWrapper.h:30:10: fatal error: cuda_runtime.h: No such file or "
     "directory\n #include <cuda_runtime.h>\n          ^~~~~~~~~~~~~~~~\ncompilation terminated.",
     HEADER, "CUDA path variable of the project's Makefile"),
    # https://github.com/NVIDIA/nccl-tests/issues/81 (NCCL_HOME named nccl/src: make MPI=1 NCCL_HOME=/home/dario/nccl/build)
    ("$ make MPI=1 NCCL_HOME=/home/dario/nccl/src\nmake -C src build\nCompiling  all_reduce.cu                       > "
     "../build/all_reduce.o\nIn file included from all_reduce.cu:8:0:\ncommon.h:9:10: fatal error: nccl.h: No such file "
     "or directory\n #include \"nccl.h\"\n          ^~~~~~~~\ncompilation terminated.",
     HEADER, "NCCL_HOME=$PWD/../nccl/build"),
    # https://github.com/NVIDIA/nccl/issues/139 (nccl-tests built without NCCL_HOME: make NCCL_HOME=$PWD/../build)
    ("Compiling  all_reduce.cu                       > ../build/all_reduce.o\nIn file included from all_reduce.cu:8:0:\n"
     "common.h:7:18: fatal error: nccl.h: No such file or directory\ncompilation terminated.\n"
     "Makefile:70: recipe for target '../build/all_reduce.o' failed",
     HEADER, "NCCL_HOME"),
    # https://github.com/NVIDIA/nccl-tests/issues/51 ("setting NCCL_HOME to the path to NCCL on your system")
    ("Compiling  all_reduce.cu                       > ../build/all_reduce.o\nIn file included from all_reduce.cu:8:0:\n"
     "common.h:9:18: fatal error: nccl.h: No such file or directory\n #include \"nccl.h\"\n                  ^\n"
     "compilation terminated.",
     HEADER, "NCCL_HOME"),
    # --- nvcc.host_headers_unsupported -----------------------------------------------------------------------
    # https://github.com/ComputationalRadiationPhysics/picongpu/issues/1745 (gcc 6.2 with CUDA 8: an older gcc)
    ("/sw/global/compilers/gcc/6.2.0/include/c++/6.2.0/tuple:605:4: error: parameter packs not expanded with "
     "\u2018...\u2019:\n                bool>::type=true>\n    ^\n"
     "/sw/global/compilers/gcc/6.2.0/include/c++/6.2.0/tuple:605:4: note:         \u2018_Elements\u2019",
     HEADERS, "Build with gcc 5"),
    # https://github.com/brucefan1983/GPUMD/issues/738 (gcc 11 with CUDA 11.5: "use other combinations")
    ("/usr/include/c++/11/bits/std_function.h:530:146: error: parameter packs not expanded with \u2018...\u2019:",
     HEADERS, "g++-10"),
    # https://github.com/NVlabs/instant-ngp/issues/1240 (Ubuntu 22.04, gcc 11 and CUDA 11.5: gcc 10 or CUDA 11.6+)
    ("/usr/include/c++/11/bits/std_function.h:530:146: error: parameter packs not expanded with \u2018...\u2019:\n"
     "  530 |         operator=(_Functor&& __f)\n/usr/include/c++/11/bits/std_function.h:530:146: note:         "
     "\u2018_ArgTypes\u2019\ngmake[2]: *** [dependencies/tiny-cuda-nn/CMakeFiles/tiny-cuda-nn.dir/build.make:202: "
     "dependencies/tiny-cuda-nn/CMakeFiles/tiny-cuda-nn.dir/src/reduce_sum.cu.o] Error 1",
     HEADERS, "CUDAHOSTCXX=g++-10"),
    # --- torch.arch_list_empty -------------------------------------------------------------------------------
    # https://github.com/ClementPinard/Pytorch-Correlation-extension/issues/104 (a Dockerfile; the maintainer, #95: "GPU is
    # not available during docker build ... set the TORCH_CUDA_ARCH_LIST environment variable")
    ("26.20         File \"/miniconda/lib/python3.11/site-packages/setuptools/_distutils/dist.py\", line 988, in "
     "run_command\n26.20           cmd_obj.run()\n26.20         File \"/miniconda/lib/python3.11/site-packages/torch/utils/"
     "cpp_extension.py\", line 1956, in _get_cuda_arch_flags\n26.20           arch_list[-1] += '+PTX'\n"
     "26.20       IndexError: list index out of range",
     ARCHLIST, "ENV TORCH_CUDA_ARCH_LIST="),
    # https://github.com/mlcommons/training/issues/690 (object_detection's Dockerfile RUN python setup.py build develop)
    ("1.181     cflags + _get_cuda_arch_flags(cflags))\n1.181   File \"/opt/conda/lib/python3.7/site-packages/torch/utils/"
     "cpp_extension.py\", line 1606, in _get_cuda_arch_flags\n1.181     arch_list[-1] += '+PTX'\n1.181 IndexError: list "
     "index out of range\n------\nDockerfile:27\n--------------------\n  26 |     COPY . .\n  27 | >>> RUN cd pytorch \\\n"
     "ERROR: failed to solve: process \"/bin/sh -c cd pytorch  && rm -rf build/  && python setup.py clean build develop "
     "--user\" did not complete successfully: exit code: 1",
     ARCHLIST, "ENV TORCH_CUDA_ARCH_LIST="),
    # --- build.ninja_missing ---------------------------------------------------------------------------------
    # https://github.com/icon-lab/SynDiff/issues/34 ("You need to install ninja package: pip install ninja")
    ("RuntimeError: Ninja is required to load C++ extensions", NINJA, "pip install ninja"),
    # https://github.com/OpenGVLab/Vision-RWKV/issues/23 (BlinkDL: "pip install ninja --upgrade")
    ('Raise RuntimeError("Ninja is required to load C++ extensions") RuntimeError: Ninja is required to load C++ '
     'extensions', NINJA, "pip install ninja"),
    # https://github.com/zhanghang1989/PyTorch-Encoding/issues/89 ("Try pip install ninja"; the title retypes the message)
    ('It\'s in the experiments/segmentation folder. And I tries to run "python test.py", the terminal just shows the '
     'error "Ninja is required to load C++ extentions".', NINJA, "pip install ninja"),
    # https://github.com/sicxu/Deep3DFaceRecon_pytorch/issues/35 ("Install Ninja will help. I solved it.")
    ("RuntimeError: Ninja is required to load C++ extensions", NINJA, "pip install ninja"),
    # --- cmake.too_old_for_cuda ------------------------------------------------------------------------------
    # https://github.com/dglai/minigun/issues/1 (Ubuntu 16.04's CMake 3.5.1: the CUDA language needs CMake 3.8 or newer)
    ("CMake Error: Could not find cmake module file: CMakeDetermineCUDACompiler.cmake\nCMake Error: Error required "
     "internal CMake variable not set, cmake may be not be built correctly.\nMissing variable is:\n"
     "CMAKE_CUDA_COMPILER_ENV_VAR\nCMake Error: Could not find cmake module file: /home/lingfan/minigun/build/CMakeFiles/"
     "3.5.1/CMakeCUDACompiler.cmake\nCMake Error at CMakeLists.txt:59 (project):\n  No CMAKE_CUDA_COMPILER could be found."
     "\n\nCMake Error: Could not find cmake module file: CMakeCUDAInformation.cmake\n"
     "CMake Error: CMAKE_CUDA_COMPILER not set, after EnableLanguage",
     OLDCMAKE, "Use a newer CMake"),
    # https://github.com/ztxz16/fastllm/issues/69 (CMake 3.5.1 with enable_language(CUDA): "upgrade cmake")
    ("-- USE_CUDA: ON\nCMake Error: Could not find cmake module file: CMakeDetermineCUDACompiler.cmake\n"
     "CMake Error: Could not find cmake module file: /opt/module/fastllm-master/build/CMakeFiles/3.5.1/"
     "CMakeCUDACompiler.cmake\nCMake Error at CMakeLists.txt:34 (enable_language):\n  No CMAKE_CUDA_COMPILER could be "
     "found.\n\nCMake Error: Could not find cmake module file: CMakeCUDAInformation.cmake",
     OLDCMAKE, "pip install -U cmake"),
    # --- build.gpu_autodetect_failed -------------------------------------------------------------------------
    # https://github.com/GiantAI/pixtrack/issues/12 (`docker build`: no GPU while configuring; name the architecture)
    ('When running "docker build -t pixtrack .", got following error:\n\nCMake Error in CMakeLists.txt:\n'
     '  CUDA_ARCHITECTURES is set to "native", but no GPU was detected.',
     AUTODETECT, "-DCMAKE_CUDA_ARCHITECTURES="),
    # https://github.com/apache/tvm/pull/16335 (the workaround: set(CMAKE_CUDA_ARCHITECTURES 75) in config.cmake)
    ('CMake Error in CMakeLists.txt:\n  CUDA_ARCHITECTURES is set to "native", but no GPU was detected.',
     AUTODETECT, "-DCMAKE_CUDA_ARCHITECTURES="),
    # https://github.com/ggml-org/llama.cpp/pull/18413 (GGML_NATIVE=ON without a GPU: use CMAKE_CUDA_ARCHITECTURES)
    ("nvcc fatal   : Unsupported gpu architecture 'compute_No CUDA Devices found.'",
     AUTODETECT, "-DCMAKE_CUDA_ARCHITECTURES="),
    # --- msvc.unsupported_version ----------------------------------------------------------------------------
    # https://github.com/fireice-uk/xmr-stak/issues/784 (CUDA 9.1 with a VS 2017 update: "i downgraded Microsoft Visual
    # Studio and after that it worked!")
    ('  c:\\program files\\nvidia gpu computing toolkit\\cuda\\v9.1\\include\\crt/host_config.h(135): fatal error '
     'C1189: #error:  -\n- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are '
     'supported! [C:\\Users\\Agu\nst\u00ed\\Desktop\\xmr-stak-master\\build\\xmrstak_cuda_backend.vcxproj]',
     MSVC, "older MSVC toolset"),
    # https://github.com/davisking/dlib/issues/1560 (CUDA 9.0: VS 2015's cl.exe as CUDA_HOST_COMPILER, or an older VS 2017)
    ("c:\\program files\\nvidia gpu computing toolkit\\cuda\\v9.0\\include\\crt/host_config.h(133): fatal error C1189: "
     "#error: -- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are supported!",
     MSVC, "older MSVC toolset"),
    # https://github.com/facebookresearch/maskrcnn-benchmark/issues/787 (another Visual Studio was picked up: vcvarsall)
    ("`c:\\program files\\nvidia gpu computing toolkit\\cuda\\v9.0\\include\\crt/host_config.h(133): fatal error C1189: "
     "#error:  -- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are supported!\n"
     "error: command 'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v9.0\\\\bin\\\\nvcc.exe' failed with "
     "exit status 2`",
     MSVC, "vcvarsall.bat x64 -vcvars_ver="),
    # --- nvcc.host_compiler_rejected: macOS's Apple clang ----------------------------------------------------
    # https://github.com/fireice-uk/xmr-stak-nvidia/issues/137 (CUDA 9 supports Xcode 8.3.3: install it, xcode-select)
    ("nvcc fatal   : The version ('90000') of the host compiler ('Apple clang') is not supported", REJECTED, "xcode-select -s"),
    # https://github.com/genn-team/genn/issues/58 (XCode 7 with nvcc: "use an older XCode version (I am using 6.4)")
    ("For mac users, I just noticed that nvcc does not work with XCode 7, offering the enigmatic error message:\n"
     "nvcc fatal   : The version ('70000') of the host compiler ('Apple clang') is not supported",
     REJECTED, "Build with the Xcode this CUDA release supports"),
    # https://github.com/apache/mxnet/issues/1212 ("Or you can try downgrading your clang")
    ("/usr/local/cuda/bin/nvcc --use_fast_math -g -O3 -ccbin g++  -Xcompiler \"-DMSHADOW_FORCE_STREAM -Wall -O3\" -M -MT "
     "build/ndarray/ndarray_function_gpu.o src/ndarray/ndarray_function.cu >build/ndarray/ndarray_function_gpu.d\n"
     "nvcc fatal   : The version ('70002') of the host compiler ('Apple clang') is not supported\n"
     "make: *** [build/ndarray/ndarray_function_gpu.o] Error 1",
     REJECTED, "Build with the Xcode this CUDA release supports"),
    # https://github.com/OpenKinect/libfreenect2/issues/952 (Xcode 9.1 unsupported: change clang, then rm -rf build)
    ("[  9%] Building NVCC (Device) object CMakeFiles/cuda_compile_1.dir/src/cuda_compile_1_generated_cuda_kde_depth_packet_"
     "processor.cu.o\nnvcc fatal   : The version ('90000') of the host compiler ('Apple clang') is not supported\n"
     "CMake Error at cuda_compile_1_generated_cuda_kde_depth_packet_processor.cu.o.RelWithDebInfo.cmake:219 (message):",
     REJECTED, "delete the build directory"),
    # --- nvcc.ptx_too_new ------------------------------------------------------------------------------------
    # https://github.com/triton-lang/triton/issues/4576 (already a corpus log, 083: the log names CUDA 12.6, the old
    # ptxas; the toolkit to use is the one PTX 8.6 needs, 12.8, not 12.6)
    ("While using Triton with CUDA 12.6, I receive the following error.\n"
     "E                   RuntimeError: Internal Triton PTX codegen error:\n"
     "E                   ptxas /tmp/tmpqgu1f9dk.ptx, line 5; fatal   : Unsupported .version 8.6; current version is '8.5'\n"
     "E                   ptxas fatal   : Ptx assembly aborted due to errors",
     PTX, 'eval "$(cudaenv use 12.8)"'),
    # https://github.com/jax-ml/jax/issues/6799 (already a corpus log, 541: a cluster's CUDA 8 ptxas first on PATH)
    ("2021-05-20 10:09:06.630330: F external/org_tensorflow/tensorflow/compiler/xla/service/gpu/nvptx_compiler.cc:478] "
     "ptxas returned an error during compilation of ptx to sass: 'Internal: ptxas exited with non-zero error code 65280, "
     "output: ptxas /tmp/tempfile-kinsler-56b28778-3690660-5c2bf4b9c1e23, line 5; fatal   : Unsupported .version 6.0; "
     "current version is '5.0'",
     PTX, "a newer toolkit first on PATH"),
    # --- cmake.findcuda_parts_missing (new) ------------------------------------------------------------------
    # https://github.com/GMMTeam/GMM/issues/3 (Fedora 20, CUDA 6.0 headers in /usr/include/cuda: "I have to set the
    # environmental variable CUDA_TOOLKIT_ROOT_DIR before running cmake")
    ("CMake Error at /usr/share/cmake/Modules/FindPackageHandleStandardArgs.cmake:108 (message):\n"
     "  Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS) (found version \"6.0\")\nCall Stack (most recent call first):\n"
     "  /usr/share/cmake/Modules/FindCUDA.cmake:806 (find_package_handle_standard_args)\n  CMakeLists.txt:46 (FIND_PACKAGE)",
     FINDCUDA, "-DCUDA_TOOLKIT_ROOT_DIR="),
]

test_first_answer = first_answer_tests(CASES)


# (text, id, the labelled alternative of the fix that solved the thread; not on the first line)
ALTERNATIVES = [
    # https://github.com/NVIDIA-AI-IOT/CUDA-PointPillars/issues/112 (CMake 3.22, CUDA 11.1: enable_language(CUDA) before
    # find_package(CUDA REQUIRED))
    ("when I cmake .. it returns:  Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS CUDA_CUDART_LIBRARY) (found   version "
     "\"11.1\")", FINDCUDA, "before `find_package(CUDA)`"),
    # https://github.com/DeadSix27/waifu2x-converter-cpp/issues/203 (CUDA 10.1 with gcc 9: patched the check out)
    ("Currently CUDA doesn't support gcc versions later than 8. /usr/local/cuda/include/crt/host_config.h:138:2: error: "
     "#error -- unsupported GNU version! gcc versions later than 8 are not supported!", GCC, "commenting out the `#error` line"),
    # https://github.com/fireice-uk/xmr-stak/issues/1905 (CUDA 9.1 with VS 2017: "update cuda to version 9.2 or 10")
    ("c:\\program files\\nvidia gpu computing toolkit\\cuda\\v9.1\\include\\crt/host_config.h(135): fatal error C1189: "
     "#error:  -\n- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are supported!",
     MSVC, "install a newer CUDA"),
    # https://github.com/ethereum-mining/ethminer/issues/900 (Apple clang 9: "try upgrading CUDA SDK")
    ("[ 44%] Building NVCC (Device) object libethash-cuda/CMakeFiles/ethash-cuda.dir/ethash-cuda_generated_ethash_cuda_"
     "miner_kernel.cu.o\nnvcc fatal   : The version ('90000') of the host compiler ('Apple clang') is not supported",
     REJECTED, "a CUDA release made for your Xcode"),
]


@pytest.mark.parametrize("text,want_id,want_fix", ALTERNATIVES, ids=[f"{c[1]}-alt{n}" for n, c in enumerate(ALTERNATIVES)])
def test_labelled_alternative(text: str, want_id: str, want_fix: str) -> None:
    """The thread's own resolution is the fix block's labelled alternative for its situation."""
    m = [f for f in explain(text) if f.environment][0]
    assert m.id == want_id, m.id
    assert want_fix in m.fix, m.fix
