"""Round 13, build (layers compiler and linker): the classes of the burned misses of fresh6..fresh12 that were still
answered wrong or not at all, each written for its producer's message format. A prebuilt library linked against
another CUDA (ld's versioned "undefined reference to `cudaFree@libcudart.so.9.0'"), a static CUDA library linked
without the runtime after it ("undefined reference to symbol 'X@@libcudart.so.11.0'" / "DSO missing from command
line"), -lcudnn (cuDNN is not part of a toolkit), FindCUDA's failures (CUDA_TOOLKIT_ROOT_DIR; CMake 3.27+'s removed
FindCUDA module), and a "nvcc not found" that a later attempt in the same log superseded. Excerpts are verbatim
(trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- a prebuilt library built against another CUDA ----------------------------------------------------------
    # https://github.com/adujardin/zed-openpose/issues/1 (fresh10 e10: the ZED SDK for CUDA 9 on a CUDA 8 machine;
    # the SDK build for the installed CUDA solved it)
    ("/usr/local/zed/lib/libsl_input.so: undefined reference to `tjCompress2@TURBOJPEG_1.2'\n"
     "/usr/local/zed/lib/libsl_core.so: undefined reference to `cudaMemcpyToSymbolAsync@libcudart.so.9.0'\n"
     "/usr/local/zed/lib/libsl_core.so: undefined reference to `png_set_rows@PNG12_0'\n"
     "/usr/local/zed/lib/libsl_core.so: undefined reference to `nppiFilterBoxBorder_8u_C4R@libnppif.so.9.0'",
     "link.prebuilt_for_other_cuda", "install the build of libsl_core.so's package made for the CUDA you have"),
    # https://github.com/BVLC/caffe/issues/6983 (OpenCV built with CUDA 9.1, whose libraries the user deleted)
    ("/usr/local/lib/libopencv_core.so: undefined reference to `cudaGetDeviceCount@libcudart.so.9.1'\n"
     "/usr/local/lib/libopencv_core.so: undefined reference to `cudaStreamCreate@libcudart.so.9.1'",
     "link.prebuilt_for_other_cuda", "ls -d /usr/local/cuda-9.1"),
    # https://github.com/NVIDIA/TensorRT/issues/1168 (TensorRT's libnvinfer for CUDA 10.2: an SDK whose name starts
    # with libnv is not one of CUDA's own libraries)
    ("/pdk_files/tensorrt/lib/libnvinfer.so: undefined reference to `cudaGetDeviceProperties@libcudart.so.10.2'\n"
     "/pdk_files/tensorrt/lib/libnvinfer.so: undefined reference to `nvrtcCompileProgram@libnvrtc.so.10.2'",
     "link.prebuilt_for_other_cuda", "-Wl,-rpath-link,/usr/local/cuda-10.2/lib64"),
    # https://github.com/NVIDIA-ISAAC-ROS/isaac_ros_image_pipeline/issues/18 (VPI built for CUDA 10.2; cufft's soname
    # names a major only)
    ("/opt/nvidia/vpi1/lib64/libnvvpi.so.1.1.15: undefined reference to `cufftExecC2R@libcufft.so.10'\n"
     "/opt/nvidia/vpi1/lib64/libnvvpi.so.1.1.15: undefined reference to `cudaMemcpy2DAsync@libcudart.so.10.2'",
     "link.prebuilt_for_other_cuda", "Install the build of libnvvpi.so.1.1.15's package"),
    # guard: a CUDA library calling another of a toolkit keeps the two-copies answer (AlexeyAB/darknet#8558, fresh9 d10)
    ("/usr/bin/ld: /usr/local/cuda-11.7/lib64/libcublas.so: undefined reference to `cublasLtMatmul@libcublasLt.so.11'\n"
     "/usr/bin/ld: /usr/local/cuda-11.7/lib64/libcublas.so: undefined reference to `cublasLtMatrixLayoutCreate@libcublasLt.so.11'",
     "runtime.cuda_lib_shadowed", "libcublasLt.so.11 in /usr/local/cuda-11.7/lib64"),
    # -- a static CUDA library without the runtime after it -------------------------------------------------------
    # https://github.com/pytorch/pytorch/pull/52509 (fresh12 g06: cudart_static put after cublasLt_static)
    ("/usr/bin/ld: /usr/local/cuda/lib64/libcublasLt_static.a(libcublasLt_static.a.o): undefined reference to symbol 'cudaStreamWaitEvent@@libcudart.so.11.0'\n"
     "/usr/local/cuda/lib64/libcudart.so: error adding symbols: DSO missing from command line",
     "link.cuda_libs_not_linked", "-lcublasLt_static -lculibos -lcudart_static"),
    # https://github.com/CESNET/GPUJPEG/issues/61 (the user's own static library: "-lcudart is missing from your app
    # link command")
    ("/usr/bin/ld:gpujpeg/linux/lib/libgpujpeg.a(gpujpeg_decoder.c.o): undefined reference to symbol 'cudaStreamSynchronize@@libcudart.so.11.0'\n"
     "/usr/bin/ld: /usr/local/cuda-11.2/lib64/libcudart.so: error adding symbols: DSO missing from command line",
     "link.cuda_libs_not_linked", "Add -lcudart to the link"),
    # guard: the unversioned form keeps its answer (BVLC/caffe#1409)
    ("/usr/bin/ld: .build_release/lib/libcaffe.a(syncedmem.o): undefined reference to symbol 'cudaMalloc'\n"
     "//usr/local/cuda-6.5/lib64/libcudart.so.6.5: error adding symbols: DSO missing from command line",
     "link.cuda_libs_not_linked", "Add -lcudart to the link"),
    # -- -lcudnn: cuDNN is not part of a toolkit ----------------------------------------------------------------
    # https://github.com/AlexeyAB/darknet/issues/4445 (fresh10 e09: "Install cuDNN library ... copy cudnn.h, libcudnn.so")
    ("/usr/bin/ld: cannot find -lcudnn\n"
     "collect2: error: ld returned 1 exit status\n"
     "Makefile:143: recipe for target 'darknet' failed",
     "link.cuda_libs_not_found", "install cuDNN for this CUDA"),
    # https://github.com/amazon-archives/amazon-dsstne/issues/133 (fresh12 g05, a screenshot read by OCR: "Get cuDNN and
    # install it in your CUDA directory")
    ("/usr/bin/ Id: cannot find —Icudnn\n"
     "collect2: error: Id returned 1 exit status",
     "link.cuda_libs_not_found", "install cuDNN for this CUDA"),
    # guard: a toolkit library keeps the find-first answer (-lcudart)
    ("/usr/bin/ld: cannot find -lcudart\ncollect2: error: ld returned 1 exit status",
     "link.cuda_libs_not_found", "find / -name 'libcudart.*'"),
    # -- FindCUDA ----------------------------------------------------------------------------------------------
    # https://github.com/flashlight/flashlight/issues/24 (fresh12 g03: "I'd recommend setting CUDA_TOOLKIT_ROOT_DIR")
    ("-- Could NOT find CUDA (missing: CUDA_DIR)\n"
     "-- CUDA not found\n"
     "CMake Error at CMakeLists.txt:114 (message):\n"
     "  CUDA required to build CUDA backend",
     "cmake.no_cuda_compiler", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda"),
    # https://github.com/DeadSix27/waifu2x-converter-cpp/issues/159 ("Try specifying -DCUDA_TOOLKIT_ROOT_DIR=(path)")
    ("CUDA_TOOLKIT_ROOT_DIR not found or specified\n"
     "-- Could NOT find CUDA (missing: CUDA_TOOLKIT_ROOT_DIR CUDA_NVCC_EXECUTABLE CUDA_INCLUDE_DIRS CUDA_CUDART_LIBRARY)\n"
     "-- CUDA not found. disabled.",
     "cmake.no_cuda_compiler", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda"),
    # https://github.com/opencv/opencv/issues/27236 (CMake 4: FindCUDA removed; OpenCVConfig.cmake's find_package(CUDA))
    ("CMake Error at /usr/lib/cmake/opencv4/OpenCVConfig.cmake:86 (find_package):\n"
     "  By not providing \"FindCUDA.cmake\" in CMAKE_MODULE_PATH this project has\n"
     "  asked CMake to find a package configuration file provided by \"CUDA\", but\n"
     "  CMake did not find one.",
     "cmake.no_cuda_compiler", "-DCMAKE_POLICY_DEFAULT_CMP0146=OLD"),
    # guard: the CUDA language's own message keeps the toolkit-on-PATH answer
    ("CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be found.",
     "cmake.no_cuda_compiler", "cudaenv use"),
    # guard: FindCUDA found nvcc but not the rest (its own entry)
    ("  Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS CUDA_CUDART_LIBRARY) (found\n  version \"11.2\")",
     "cmake.findcuda_parts_missing", "CUDA_TOOLKIT_ROOT_DIR"),
    # https://github.com/pytorch/pytorch/issues/125300 (the title: libtorch 2.3.0+cu118 linked with CUDA 11.7; a
    # major-only soname names a symbol the older release of that major lacks)
    ("libtorch_cuda.so: undefined reference to `cudaLaunchKernelExC@libcudart.so.11.0",
     "link.prebuilt_for_other_cuda", "libtorch per CUDA release"),
    # https://github.com/pytorch/pytorch/issues/73829 (libtorch for CUDA 11.3 built against a CUDA 11.2 toolkit)
    ("Run examples: libtorch_cuda_cpp.so: undefined reference to `cudaStreamUpdateCaptureDependencies@libcudart.so.11.0'",
     "link.prebuilt_for_other_cuda", "at least as new as the one it was built with"),
    # -- the driver's libcuda.so.1 needed where no driver is (docker build) ------------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/374 ("you must use the libcuda.so stub from /usr/local/cuda/lib64/stubs")
    ("/usr/bin/ld: warning: libcuda.so.1, needed by /usr/local/lib/libopencv_cudev.so, not found (try using -rpath or -rpath-link)\n"
     "/usr/local/lib/libopencv_cudev.so: undefined reference to `cuGetErrorString'",
     "link.lcuda_not_found", "lib64/stubs/libcuda.so.1"),
    # -- CMake's CUDA discovery, more of its own wordings ----------------------------------------------------------
    # https://github.com/jetsonhacks/buildLibrealsense2TX/issues/13 (CMAKE_CUDA_COMPILER set to nvcc's real path);
    # CMake prints the path between blank lines
    ("CMake Error at CMakeLists.txt:10 (project):\n  The CMAKE_CUDA_COMPILER:\n\n    /usr/local/cuda/bin/nvcc\n\n"
     "  is not a full path to an existing compiler tool.",
     "cmake.no_cuda_compiler", "cudaenv use"),
    # FindCUDAToolkit's own form of headers missing beside the nvcc it found (CUDAToolkit_ROOT)
    ("CMake Error at /usr/share/cmake-3.22/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     "  Could NOT find CUDAToolkit (missing: CUDAToolkit_INCLUDE_DIR CUDAToolkit_LIBRARY_ROOT)",
     "cmake.findcuda_parts_missing", "-DCUDAToolkit_ROOT=/usr/local/cuda"),
    # find_package(CUDAToolkit) under a CMake older than 3.17 (BrownBiomechanics/Autoscoper#89: "require at least CMake 3.17")
    ("CMake Error at CMakeLists.txt:5 (find_package):\n"
     "  By not providing \"FindCUDAToolkit.cmake\" in CMAKE_MODULE_PATH this project has\n"
     "  asked CMake to find a package configuration file provided by \"CUDAToolkit\",",
     "cmake.too_old_for_cuda", "newer CMake"),
    # -- MSVC: nvcc runs vcvars64.bat itself when cl.exe is not on PATH -------------------------------------------
    # https://github.com/k-l-lambda/stylegan-web/issues/10
    ("nvcc fatal   : Could not set up the environment for Microsoft Visual Studio using 'C:/Program Files (x86)/Microsoft Visual Studio/2017/Community/VC/Tools/MSVC/14.16.27023/bin/Hostx64/x64/../../../../../../../VC/Auxiliary/Build/vcvars64.bat'",
     "msvc.cl_not_found", "x64 Native Tools Command Prompt"),
    # https://github.com/philferriere/dlwin/issues/3 (VS 2013 without the 64-bit script)
    ("nvcc fatal   : Microsoft Visual Studio configuration file 'vcvars64.bat' could not be found\n"
     "for installation at 'C:/Program Files (x86)/Microsoft Visual Studio 12.0/VC/bin/../..'",
     "msvc.cl_not_found", "x64 Native Tools Command Prompt"),
    # -- an API cuDNN 8 removed: a project never ported is built against cuDNN 7 ------------------------------------
    # https://github.com/pjreddie/darknet/issues/2257 (fresh10 e08: driver 440 + CUDA 10.2 + cuDNN 7.6.5 solved it)
    ("./src/convolutional_layer.c: In function ‘cudnn_convolutional_setup’:\n"
     "./src/convolutional_layer.c:148:5: warning: implicit declaration of function ‘cudnnGetConvolutionForwardAlgorithm’; did you mean ‘cudnnGetConvolutionForwardAlgorithm_v7’? [-Wimplicit-function-declaration]\n"
     "./src/convolutional_layer.c:153:13: error: ‘CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT’ undeclared (first use in this function)",
     "build.library_api_version", "build this release against cuDNN 7.6.5"),
    # -- a superseded "nvcc not found" ---------------------------------------------------------------------------
    # https://github.com/BVLC/caffe/issues/2728 (fresh12 g01: the nvcc path changed, then the architecture error;
    # maintainer: upgrade CUDA or comment out the CUDA_ARCH lines)
    ("NVCC src/caffe/layers/inner_product_layer.cu\n"
     "make: /usr/local/cuda/bin/nvcc: Command not found\n"
     "make: *** [.build_release/cuda/src/caffe/layers/inner_product_layer.o] Error 127\n\n"
     "I therefore tried to change path of CUDA to /usr, and got this mistake:\n\n"
     "NVCC src/caffe/layers/inner_product_layer.cu\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_50'\n"
     "make: *** [.build_release/cuda/src/caffe/layers/inner_product_layer.o] Error 255",
     "nvcc.unsupported_arch", "compute_50"),
    # guard: the nvcc path alone keeps its answer (gtcasl/gpuocelot#80)
    ("sh: 1: /usr/local/cuda/bin/nvcc: not found",
     "torch.nvcc_not_found", "cudaenv"),
]

test_first_answer = first_answer_tests(CASES)
