"""Issue 18, round 6, helper "build": compiler and linker families, each from several threads and
producers (nvcc/EDG, gcc, clang, MSVC, ld, CMake). Each excerpt is quoted (trimmed) from the thread
above it; the first environment answer and the first line of its fix are the thread's resolution.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

API = "build.library_api_version"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- an API a library version removed: the code is older than the library ------------------
    # https://github.com/junluan/shadow/issues/2 (cuDNN 8 with CUDA 11.0; nvcc wording)
    ('/home/zz/work/shadow/shadow/operators/kernels/conv.cu(178): error: identifier '
     '"CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT" is undefined\n\n/home/zz/work/shadow/shadow/operators/kernels/'
     'conv.cu(178): error: identifier "cudnnGetConvolutionForwardAlgorithm" is undefined',
     API, "ported to cuDNN 8"),
    # https://github.com/haanjack/mnist-cudnn/issues/6 (cuDNN 8.7)
    ('convolution.cu(82): error: identifier "CUDNN_CONVOLUTION_FWD_PREFER_FASTEST" is undefined\n\n'
     'convolution.cu(82): error: identifier "cudnnGetConvolutionForwardAlgorithm" is undefined\n\n'
     'convolution.cu(87): error: identifier "cudnnGetConvolutionBackwardFilterAlgorithm" is undefined',
     API, "ported to cuDNN 8"),
    # https://github.com/BVLC/caffe/issues/6970 (gcc wording, cuDNN 8.0.3)
    ("error: \u2018CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT\u2019 was not declared in this scope\n"
     "error: \u2018CUDNN_CONVOLUTION_BWD_FILTER_SPECIFY_WORKSPACE_LIMIT\u2019 was not declared in this scope",
     API, "ported to cuDNN 8"),
    # https://github.com/opencv/opencv/issues/18352 (OpenCV's dnn module against cuDNN 8)
    ("error: \u2018CUDNN_CONVOLUTION_FWD_PREFER_FASTEST\u2019 was not declared in this scope "
     "CUDNN_CONVOLUTION_FWD_PREFER_FASTEST,",
     API, "ported to cuDNN 8"),
    # https://github.com/microsoft/onnxruntime/issues/19454 (cuDNN 9.0 removed the RNN v6 API; ported in #19419)
    ("#16 73.36 /workspace/onnxruntime/onnxruntime/core/providers/cuda/rnn/cudnn_rnn_base.cc:255:49: error: "
     "\u2018cudnnGetRNNWorkspaceSize\u2019 was not declared in this scope; did you mean \u2018cudnnGetRNNWeightSpaceSize\u2019?",
     API, "ported to the cuDNN 8 RNN API"),
    # https://github.com/NVIDIA/MinkowskiEngine/issues/177 (CUDA 11 removed the legacy cuSPARSE routines)
    ('    src/math_functions.cu(76): error: identifier "cusparseScsrmv" is undefined\n'
     '    src/math_functions.cu(99): error: identifier "cusparseScsrmm2" is undefined\n'
     '    4 errors detected in the compilation of "src/math_functions.cu".',
     API, "ported to CUDA 11"),
    # https://github.com/hgyhungry/ge-spmm/issues/8
    ('spmm_test.cu(660): error: identifier "cusparseScsrmm2" is undefined', API, "ported to CUDA 11"),
    # https://github.com/ROCm/HIPIFY/issues/131 (clang wording on Windows)
    ("C:\\Users\\TT\\AppData\\Local\\Temp\\cuSPARSE_01.cu-7f0f1d.hip(276,13): error G30564CF7: use of undeclared "
     "identifier 'cusparseDcsrmv'; did you mean 'cusparseDcsr2bsr'?",
     API, "written for CUDA 11.0 or newer"),
    # https://github.com/jcuda/jcuda-main/issues/56 (MSVC IntelliSense, CUDA 12 removed csrsv2)
    ('Error (active)\tE0020\tidentifier "csrsv2Info_t" is undefined\tJCusparse\tC:\\jcuda\\jcusparse\\JCusparseJNI\\'
     'src\\JCusparse.cpp\t4990\t\nError (active)\tE0020\tidentifier "cusparseCcsrsv2_bufferSize" is undefined',
     API, "written for CUDA 12.0 or newer"),
    # https://github.com/utcs-scea/altis/issues/24 and https://github.com/ahay/src/issues/294 (texture references)
    ("/usr/local/cuda/bin/nvcc -o build/user/cuda/gpuktmig.o -c --x=cu -DNO_BLAS build/user/cuda/gpuktmig.c\n"
     "build/user/cuda/ktmig.cu(56): error: texture is not a template\n  texture<float2, 1, cudaReadModeElementType> t_sxy;",
     API, "texture objects"),
    # https://github.com/nakatamaho/mplapack/issues/73
    ('Rgemm_tesla.cu(120): error: identifier "cudaBindTexture" is undefined\n'
     '      rc = cudaBindTexture(0, tex_x_double_A, Adev, channelDesc);',
     API, "texture objects"),
    # https://github.com/RTKConsortium/RTK/issues/549 (the linker's wording: objects built with old headers)
    ("/usr/bin/ld: undefined reference to `__cudaRegisterTexture'\n/usr/bin/ld: undefined reference to `cudaUnbindTexture'",
     API, "texture objects"),
    # https://github.com/scopetools/cudadecon/issues/28 (conda-forge build against CUDA 12)
    ("/home/conda/feedstock_root/build_artifacts/cudadecon_1685986977889/work/src/geometryTransform.cu(274): error: "
     'identifier "cudaBindTextureToArray" is undefined',
     API, "texture objects"),
    # https://github.com/NVIDIA/cuda-samples/issues/382 (gcc wording, CUDA 13)
    ("/home/rubenruiz/cuda-samples/Samples/1_Utilities/deviceQuery/deviceQuery.cpp:134:27: error: \u2018struct "
     "cudaDeviceProp\u2019 has no member named \u2018clockRate\u2019",
     API, "ported to CUDA 13"),
    # https://github.com/microsoft/superbenchmark/issues/768 (nvcc wording)
    ('gpu_stream.cu(121): error: class "cudaDeviceProp" has no member "memoryClockRate"', API, "ported to CUDA 13"),
    # https://github.com/LeelaChessZero/lc0/issues/2255 (MSVC wording)
    ("VS 2022 error C2039: 'clockRate': is not a member of 'cudaDeviceProp' in routine showDeviceInfo (network_cuda.cc).",
     API, "ported to CUDA 13"),

    # --- the library found is older than the code: an old copy comes first ----------------------
    # https://github.com/andersbll/cudarray/issues/59 (a cuDNN v2 header left in /usr/local)
    ("src/nnet/cudnn.cpp:222:5: error: \u2018cudnnGetConvolutionBackwardFilterWorkspaceSize\u2019 was not declared in "
     "this scope\n     ));\n     ^\nmake: *** [src/nnet/cudnn.o] Error 1",
     API, "Find every cuDNN copy"),
    ("src/nnet/cudnn.cpp:199:5: error: \u2018cudnnConvolutionBwdFilterAlgoPerf_t\u2019 was not declared in this scope\n"
     "     cudnnConvolutionBwdFilterAlgoPerf_t bwd_filters_algo_perf[n_requestedAlgo];",
     API, "Find every cuDNN copy"),
    # https://github.com/vlfeat/matconvnet/issues/584 (an older cuDNN in the CUDA 7.5 lib directory linked first)
    ("Error using mex\n~/matconvnet-1.0-beta20/matlab/mex/.build/bits/impl/nnbilinearsampler_cudnn.o: In function\n"
     "tmpxft_000057e6_00000000-4_nnbilinearsampler_cudnn.cudafe1.cpp:(.text._ZN2vl4impl23nnbilinearsampler_cudnnILNS_4Type"
     "E1EE7forwardERNS_7ContextENS_6TensorES6_S6_]+0x3ce):\nundefined reference to `cudnnCreateSpatialTransformerDescriptor'",
     API, "Find every cuDNN copy"),
    # https://github.com/mfem/mfem/issues/2336 (CUDA 11.2.0 on Summit: the new enum names came in 11.2 Update 1)
    ("Cuda compilation tools, release 11.2, V11.2.67\nlinalg/sparsemat.cpp(694): error: identifier "
     '"CUSPARSE_SPMV_CSR_ALG1" is undefined',
     API, "cudaenv use"),
    # https://github.com/kokkos/kokkos-kernels/pull/1828 (CUDA 11.1)
    ("/home/ndellin/kokkos-kernels/sparse/tpls/KokkosSparse_spmv_tpl_spec_decl.hpp(98): error: identifier "
     '"CUSPARSE_SPMV_ALG_DEFAULT" is undefined',
     API, "cudaenv use"),
    # --- CMake: a CUDA library variable is NOTFOUND -----------------------------------------------
    # https://github.com/floydhub/dl-docker/issues/50 (docker build without a driver: the stub)
    ('See also "/root/opencv/build/CMakeFiles/CMakeError.log".\nCMake Error: The following variables are used in this '
     "project, but they are set to NOTFOUND.\nPlease set them or make sure they are set and tested correctly in the CMake "
     'files:\nCUDA_CUDA_LIBRARY (ADVANCED)\n    linked by target "example_gpu_alpha_comp" in directory /root/opencv/samples/gpu',
     "cmake.cuda_library_notfound", "-DCMAKE_LIBRARY_PATH=/usr/local/cuda/lib64/stubs"),
    # https://github.com/opencv/opencv/issues/6577 (toolkit installed, no driver, in Docker)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\nPlease set them or "
     "make sure they are set and tested correctly in the CMake files:\nCUDA_CUDA_LIBRARY (ADVANCED)\n    linked by target "
     '"example_gpu_alpha_comp" in directory /opencv/samples/gpu',
     "cmake.cuda_library_notfound", "lib64/stubs"),
    # https://github.com/cdcseacave/openMVS/issues/240 (building in the NVIDIA CUDA docker image)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\nPlease set them or "
     'make sure they are set and tested correctly in the CMake files:\nCUDA_CUDA_LIBRARY (ADVANCED)\n    linked by target "MVS" '
     "in directory /src/openmvs/libs/MVS",
     "cmake.cuda_library_notfound", "-DCUDA_CUDA_LIBRARY="),

    # --- libcudart_static.a needs -lpthread -ldl -lrt -------------------------------------------
    # https://github.com/TJU-Aerial-Robotics/YOPO/issues/100 (catkin: link Threads into the target)
    ("/usr/bin/ld: /usr/local/cuda-12.2/lib64/libcudart_static.a(cudart_static.o): undefined reference to symbol "
     "'pthread_rwlockattr_init@@GLIBC_2.2.5'\n/usr/bin/ld: /usr/lib/gcc/x86_64-linux-gnu/9/../../../x86_64-linux-gnu/"
     "libpthread.so: error adding symbols: DSO missing from command line\ncollect2: error: ld returned 1 exit status",
     "link.cudart_static_system_libs", "Threads::Threads"),
    # https://github.com/microsoft/onnxruntime/issues/3024 (g++ links -lcudart_static without -ldl)
    ('/usr/bin/g++ /home/nvidia/hello1.cu.o -o hello1 -lcudadevrt -lcudart_static -L"/usr/local/cuda-10.0/targets/'
     'aarch64-linux/lib/stubs"\n/usr/local/cuda-10.0/targets/aarch64-linux/lib/libcudart_static.a(libcudart_static.a.o): '
     "In function `cudart::globalState::initializeDriverEntrypoints()':\n:(.text+0x23488): undefined reference to `dlsym'",
     "link.cudart_static_system_libs", "-ldl"),
    # https://github.com/mitsuba-renderer/mitsuba2/issues/52 (clang, CUDA 10.1)
    ("    /usr/local/cuda-10.1/targets/x86_64-linux/lib/libcudart_static.a(libcudart_static.a.o): In function "
     "`cudart::cuosHasThreadExited(cudart::CUOSthread_st*)':\n    (.text+0x50bfb): undefined reference to `pthread_kill'",
     "link.cudart_static_system_libs", "-lpthread"),

    # --- nvToolsExt: NVTX 3 is header-only; CUDA 12 (Windows) and 12.9 (Linux) ship no library ---
    # https://github.com/pytorch/pytorch/issues/133293 (torch's CMake on CUDA 12.6, Windows: torch 2.5 uses nvtx3)
    ('-- Found CUDAToolkit: C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6/include (found version "12.6.20")\n'
     "CMake Error at cmake/public/cuda.cmake:70 (message):\n  Failed to find nvToolsExt\nCall Stack (most recent call first):",
     "build.nvtoolsext_removed", "torch 2.5 or newer"),
    # https://github.com/pytorch/vision/issues/6734 (torchvision's Windows CMake CI finding torch)
    ("CMake Error at C:/tools/miniconda3/Lib/site-packages/torch/share/cmake/Caffe2/public/cuda.cmake:69 (message):\n"
     "  Failed to find nvToolsExt\nCall Stack (most recent call first):\n"
     "  C:/tools/miniconda3/Lib/site-packages/torch/share/cmake/Caffe2/Caffe2Config.cmake:96 (include)",
     "build.nvtoolsext_removed", "torch 2.5 or newer"),
    # https://github.com/NVIDIA/NVTX/issues/70 (a project's own FindNvToolExt: include <nvtx3/nvToolsExt.h>)
    ("CMake Error at C:/Program Files/CMake/share/cmake-3.23/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     "  Could NOT find NvToolExt (missing: NvToolExt_LIBRARIES)",
     "build.nvtoolsext_removed", "nvtx3/nvToolsExt.h"),
    # https://github.com/cbuchner1/ccminer/issues/5 (shuffle needs sm_30; the build also targets compute_20)
    ('/opt/cuda/bin/nvcc -g -O2 -I . -gencode=arch=compute_20,code=\\"sm_20,compute_20\\" -gencode=arch=compute_30,'
     'code=\\"sm_30,compute_30\\" -o JHA/cuda_jha_compactionTest.o -c JHA/cuda_jha_compactionTest.cu\n'
     'JHA/cuda_jha_compactionTest.cu(117): error: identifier "__shfl_up" is undefined',
     API, "Drop the compute_1x/compute_2x"),
    # https://github.com/cbuchner1/CudaMiner/issues/181 (nvcc 12: texture references gone)
    ('nvcc -g -O2 -arch=compute_60 --maxrregcount=64  -o fermi_kernel.o -c fermi_kernel.cu\n'
     'fermi_kernel.cu(56): error: texture is not a template\nfermi_kernel.cu(69): error: identifier "cudaBindTexture" is undefined',
     API, "texture objects"),
    # https://github.com/RavenCommunity/kawpowminer/issues/109 (WSL: libcuda is in /usr/lib/wsl/lib)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\nCUDA_cuda_LIBRARY\n"
     '    linked by target "ethash-cuda" in directory /mnt/d/Dev/kawpowminer/libethash-cuda\n'
     "libcuda: /usr/lib/x86_64-linux-gnu/libcuda.so /usr/lib/wsl/lib/libcuda.so",
     "cmake.cuda_library_notfound", "-DCUDA_cuda_LIBRARY=/usr/lib/wsl/lib/libcuda.so"),
    # --- CCCL 3.0 (CUDA 13) removed CUB's functors --------------------------------------------------
    # https://github.com/JeffreyXiang/CuMesh/pull/12 (torch 2.9.1+cu130 build)
    ('While building from source using `pip install . --no-build-isolation` I got this error:\n'
     'atlas.cu(329): error: namespace "cub" has no member "Sum"',
     API, "ported to CCCL 3"),
    # https://github.com/paboyle/Grid/issues/487 (CUDA 13.0 module on JURECA)
    ("/p/project1/paj2522/software/Grid-develop-2026-01-23/Grid/Grid/lattice/Lattice_slicesum_core.h(61): error: namespace "
     '"cub" has no member "Sum"', API, "ported to CCCL 3"),
    # https://github.com/microsoft/onnxruntime/issues/24774
    ('/workspace/onnxruntime/onnxruntime/contrib_ops/cuda/bert/attention_softmax.cu(98): error: namespace "cub" has no '
     'member "Max"\n    const auto max = BlockReduce(tmp_storage).Reduce(thread_data_max, cub::Max());',
     API, "ported to CCCL 3"),

    # --- --expt-relaxed-constexpr missing from the build's nvcc flags --------------------------------
    # https://github.com/NVIDIA/cudf-spark-jni/issues/4393 (CCCL 3.3 upgrade; the flag was added)
    ('/src/main/cpp/src/ftos_converter.cuh(1296): error: calling a constexpr __host__ function("fmin") from a __device__ '
     "function(\"to_formatted_chars\") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to "
     "allow this.", "nvcc.relaxed_constexpr_missing", "--expt-relaxed-constexpr"),
    # https://github.com/NVIDIA/cutlass/issues/2198 (a custom build: CUTLASS's CMake passes the flag)
    ('error: calling a constexpr __host__ function("forward") from a __device__ function("ConsumerStoreCallbacks") is not '
     "allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.",
     "nvcc.relaxed_constexpr_missing", "project's own CMake"),
    # https://github.com/NVIDIA/cccl/issues/5850 (Windows, CUDA 13.0, the numbered diagnostic)
    ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\include\\vector_types.h(582): error #20013-D: calling "
     "a constexpr __host__ function(\"std::basic_string<char, std::char_traits<char>, std::allocator<char> >::~basic_string()\") "
     "from a __host__ __device__ function(\"specialization::~specialization\") is not allowed. The experimental flag "
     "'--expt-relaxed-constexpr' can be used to allow this.",
     "nvcc.relaxed_constexpr_missing", "--expt-relaxed-constexpr"),
    # --- the toolkit is older than the code: types and enums that came with CUDA 11.0 / 11.8 ---------
    # https://github.com/NVIDIA/apex/issues/1310 (nvcc 10.2: solved with CUDA 11.3)
    ("Compiling cuda extensions with\nnvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 10.2, V10.2.89\n"
     "from /usr/local/cuda/bin\n/tmp/pip-req-build-x8qe1ygy/csrc/megatron/fused_weight_gradient_dense_16bit_prec_cuda.cu(33): "
     'error: identifier "CUDA_R_16BF" is undefined',
     API, "Build with a newer toolkit"),
    # --- CMake finds no CUDA compiler: FindCUDA's and Visual Studio's wordings ---------------------
    # https://github.com/ethereum-mining/ethminer/issues/769 ("/usr/local/cuda is not linked to your version")
    ("CMake Error at /usr/share/cmake-3.5/Modules/FindCUDA.cmake:617 (message):\n  Specify CUDA_TOOLKIT_ROOT_DIR\n"
     "Call Stack (most recent call first):\n  libhwmon/CMakeLists.txt:19 (find_package)",
     "cmake.no_cuda_compiler", "cudaenv use"),
    # https://github.com/ollama/ollama/pull/2040 (the CUDA toolkit could not find Visual Studio's tools)
    ('-- Found CUDAToolkit: C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.3/include (found version "11.3.109")\n'
     "CMake Error at C:/Program Files/CMake/share/cmake-3.27/Modules/CMakeDetermineCompilerId.cmake:503 (message):\n"
     "  No CUDA toolset found.",
     "cmake.no_cuda_compiler", "Visual Studio Integration"),
    # --- only collect2's summary: the linker's message is missing from the log -----------------------
    # https://github.com/CaoWGG/TensorRT-CenterNet/issues/35 (solved by making libcudart.so visible to ld)
    ("[ 87%] Building CXX object src/CMakeFiles/ctdet.dir/utils.cpp.o\n[ 89%] Linking CXX shared library ../../lib/libctdet.so\n"
     "collect2: error: ld returned 1 exit status\nsrc/CMakeFiles/ctdet.dir/build.make:238: recipe for target '../lib/libctdet.so' "
     "failed\nmake[2]: *** [../lib/libctdet.so] Error 1",
     "link.message_missing", "LIBRARY_PATH"),
    # --- torch's headers need C++17: the build passes an older -std -----------------------------------
    # https://github.com/NVlabs/FoundationPose/issues/35 (setup.py's -std=c++14)
    ("--expt-relaxed-constexpr --compiler-options ''\"'\"'-fPIC'\"'\"'' -Xcompiler -O3 -std=c++14 -DTORCH_EXTENSION_NAME=common\n"
     'Error in building build_all_conda.sh. "#error You need C++17 to compile PyTorch"',
     "torch.extension_cxx_std", "-std=c++17"),
    # https://github.com/pytorch/pytorch/issues/102082 (torch 2.1 nightly moved to C++17; DeepSpeed's flags fixed)
    ("/opt/conda/lib/python3.10/site-packages/torch/include/torch/csrc/api/include/torch/all.h:4:2: error: #error C++17 or "
     "later compatible compiler is required to use PyTorch.",
     "torch.extension_cxx_std", "-std=c++17"),
    # https://github.com/NVlabs/tiny-cuda-nn/issues/316 (MSVC: C1189)
    ('"C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\VC\\Tools\\MSVC\\14.36.32532\\bin\\HostX86\\x64\\cl.exe" /c '
     "/nologo /O2 /W3 /GL /DNDEBUG /MD\nfatal error C1189: #error: You need C++17 to compile PyTorch",
     "torch.extension_cxx_std", "/std:c++17"),
    # https://github.com/gnina/gnina/issues/20 (CUDA 8: "we moved to CUDA 9. Upgrading will resolve this")
    ("Cuda compilation tools, release 8.0, V8.0.44\n/media/cresset/scratch2/rfscore/gnina/gnina/./gninasrc/lib/gpu_math.h(58): "
     'error: identifier "__shfl_down_sync" is undefined',
     API, "Build with a newer toolkit"),
    # https://github.com/uzh-rpg/vilib/issues/17 (CUDA 8 or older: update it)
    ('src/feature_tracker/feature_tracker_cuda_tools.cu(146): error: identifier "__shfl_xor_sync" is undefined\n'
     'src/feature_tracker/feature_tracker_cuda_tools.cu(677): error: identifier "__syncwarp" is undefined',
     API, "Build with a newer toolkit"),
    # https://github.com/PaddlePaddle/Paddle/issues/18985 (__shfl_down with CUDA 10: the warp-ctc third party's newer code)
    ("\u7f16\u8bd1\u5b89\u88c5\u51fa\u73b0error: identifier \"__shfl_down\" is undefined", API, "ported to CUDA 9"),
    # https://github.com/eyalroz/cuda-api-wrappers/issues/12 (an older libcudart_static found first; -L/usr/local/cuda/lib64)
    ("/home/eyalroz/src/mine/cuda-api-wrappers/src/cuda/api/device.hpp:38: undefined reference to `cudaDeviceGetP2PAttribute'\n"
     "collect2: error: ld returned 1 exit status",
     API, "cudaenv use /usr/local/cuda"),
    # https://github.com/AndybnACT/GPU-comcot/issues/1 (the runtime is not linked at all: not an API-version answer)
    ("tmpxft_00003c4e_00000000-5_GPUMoment_s.cudafe1.cpp:(.text+0x4ee): undefined reference to `cudaLaunchKernel'\n"
     "/usr/bin/ld: GPUOpen_BD.o: in function `openbd_launch_':\ntmpxft_00003c68_00000000-5_GPUOpen_BD.cudafe1.cpp:(.text+0x5e): "
     "undefined reference to `__cudaPushCallConfiguration'",
     "link.cuda_libs_not_linked", "-lcudart"),

    # --- a shared library's own dependency: ld does not find libcudart for it ----------------------------
    # https://github.com/jolibrain/deepdetect/issues/24 (solved by LD_LIBRARY_PATH=...:/usr/local/cuda/lib64)
    ("deepdetect/build/caffe_dd/src/caffe_dd/build/lib/libcaffe.so: undefined reference to `cudaEventRecord'\n"
     "collect2: error: ld returned 1 exit status\nmake[2]: *** [main/dede] Error 1",
     "link.cuda_libs_not_linked", "LD_LIBRARY_PATH=/usr/local/cuda/lib64"),
    # --- gcc builtins nvcc does not know, in gcc's own headers -------------------------------------------
    # https://github.com/razorx89/nmfgpu/issues/1 (gcc 5's mwaitxintrin.h; [sw27 sw27-build] a newer CUDA first, the
    # -D_MWAITXINTRIN_H_INCLUDED flag second)
    ("[  1%] Building NVCC (Device) object source/CMakeFiles/nmfgpu_static.dir/init/nmfgpu_static_generated_EInNMF.cu.o\n"
     '/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier "__builtin_ia32_monitorx" is undefined',
     "nvcc.host_headers_unsupported", "Build with a newer CUDA made for this gcc"),
    # https://github.com/tromp/cuckoo/issues/68 (avx512fintrin.h, CUDA 10.0, gcc 6)
    ("/usr/local/cuda-10.0/bin/nvcc -o cuda29 -DEDGEBITS=29 -arch sm_35 mean.cu ../crypto/blake2b-ref.c\n"
     '/usr/lib/gcc/x86_64-linux-gnu/6/include/avx512fintrin.h(12943): error: identifier "__builtin_ia32_kmov16" is undefined',
     "nvcc.host_headers_unsupported", "__CUDACC__"),
    # https://github.com/NVIDIA/cuda-gdb/issues/4 (gcc 7's libstdc++ with the CUDA 9.0 samples)
    ('/usr/include/c++/7/bits/move.h(48): error: identifier "__builtin_addressof" is undefined',
     "nvcc.host_headers_unsupported", "-ccbin"),
    # --- CMake: the CUDA17/CUDA20 dialect and an older nvcc ----------------------------------------------
    # https://github.com/ggml-org/llama.cpp/issues/11725 (CUDA 12.8 installed, CMake found an older nvcc)
    ("-- CUDA host compiler is GNU 8.4.0\n\n-- Including CUDA backend\n\n-- Configuring done (0.4s)\nCMake Error in "
     'ggml/src/ggml-cuda/CMakeLists.txt:\n  Target "ggml-cuda" requires the language dialect "CUDA17" (with compiler\n'
     '  extensions).  But the current compiler "NVIDIA" does not support this, or CMake does not know the flags to enable it.',
     "nvcc.cxx_std_unsupported", "cudaenv use /usr/local/cuda"),
    # https://github.com/sirius-db/sirius/issues/148 (CUDA20: resolved by upgrading CUDA to 12.0)
    ('CMake Error in {path to sirius}/CMakeLists.txt: Target "sirius_extension" requires the language dialect "CUDA20". '
     'The current compiler "NVIDIA" does not support this, or CMake does not know the flags to enable it.',
     "nvcc.cxx_std_unsupported", "12.0+ for 20"),
    # https://github.com/NVIDIA/AMGX/issues/276 (AMGX 2.4.0 with CUDA 11.0: cudaMallocAsync came with 11.2)
    ("-- The CUDA compiler identification is NVIDIA 11.0.221\nsrc/tests/dense_lu.cu(114): error: identifier "
     '"cudaMallocAsync" is undefined',
     API, "Build with a newer toolkit"),
]


test_first_answer = first_answer_tests(CASES)
