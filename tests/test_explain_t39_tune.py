"""Round 36's tuning on the burned fresh39 (judged at 3c3e8eb: 15/45 right first), widened into families.

Each family is tested in the fresh39 log's own words (marked) and in others, with the counter-case that keeps its
earlier answer:
- a CUDA status read where its number is quoted, follows the API's name or stands before the place ("CUDA error
  DRIVER: '300' in func"), or is confirmed by its own string on a line after the call ("failed with error code 999
  (unknown error)");
- gcc's own headers in an older nvcc's host pass: gcc 12's <locale> (locale_facets_nonio.tcc), CUDA 10.1.105's
  basic_string defect with gcc 7, glibc's _FloatN typedefs under a gcc 13 host, gcc 11's std_function.h under the
  distribution's /usr/bin/nvcc (Ubuntu 22.04's CUDA 11.5);
- CUDA code compiled by the host compiler (a .cpp file with __forceinline__/__global__);
- a cuDNN function called with more arguments than the installed cudnn.h declares;
- a Cython package built against another cuda-python release;
- a TensorRT release that does not know the GPU's SM;
- the Video Codec SDK's stub libnvcuvid loaded at run time (two logs of the set);
- a driver entry point a CUDA 13 driver no longer has (Warp 1.7 on driver 13.0);
- libtorch for another CPU ("File in wrong format" on a Jetson), libnppi gone since CUDA 9.0, cuDNN 9's Windows
  include\\12.x layout, an older cuDNN 7 release loaded first, a Jetson container without the NVIDIA runtime, a glog check
  on the device count;
- MATLAB's bundled libcudart of another release in a mex link; OptiX's denoiser without the driver's nvoptix.bin;
- two claimed negatives made accurate: nvidia-smi missing inside a Singularity container started with --nv, clang's
  --cuda-path inside a Bazel repository.
(ag04, ag10, ag35, ag36, ag37, ag43, ag45, ag50 and ag69 stay: the log alone cannot tell their fix, or the cause
is the project's own.)
"""
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

T39_CASES = [
    # fresh39 ag69's line (nicehash/excavator on an RTX 2080 Ti: a build without Turing kernels)
    ("CUDA error DRIVER: '300' in func 'kernel_launcher::kernel_launcher' line 332\n", "status.kernel_image_invalid",
     ""),
    # fresh39 ag68's lines (diku-dk/futhark: a kernel module older than the upgraded user-space driver)
    ("_/collatz2: collatz2.c:3592: CUDA call\n  cuInit(0)\nfailed with error code 999 (unknown error)_\n",
     "driver.unknown_error", ""),
    ("cudaMalloc(&buf, n)\nfailed with error code 100 (no CUDA-capable device is detected)\n", "runtime.no_device", ""),
    # fresh39 ag67's line (parthenon-hpc-lab/athenapk: Kokkos/nvcc with gcc 12.2.1's headers)
    (("/usr/include/c++/12.2.1/bits/locale_facets_nonio.tcc: In member function '_InIter std::__cxx11::time_get<_CharT,"
      " _InIter>::get(iter_type, iter_type, std::ios_base&, std::ios_base::iostate&, tm*, const char_type*, const "
      "char_type*) const':\n/usr/include/c++/12.2.1/bits/locale_facets_nonio.tcc:1477:77: error: invalid type argument "
      "of unary '*' (have 'int')\n"),
     "nvcc.host_headers_unsupported", "g++-11"),
    ("/usr/include/c++/12/bits/locale_facets_nonio.tcc:1477:77: error: invalid type argument of unary ‘*’ (have ‘int’)\n",
     "nvcc.host_headers_unsupported", "g++-11"),
    # fresh39 ag02's lines (NVIDIAGameWorks/kaolin: CUDA 10.1.105 with gcc 7)
    (("/usr/include/c++/7/bits/basic_string.tcc:1067:16: error: cannot call member function ‘void std::basic_string<"
      "_CharT, _Traits, _Alloc>::_Rep::_M_set_sharable() [with _CharT = char32_t; _Traits = std::char_traits<char32_t>;"
      " _Alloc = std::allocator<char32_t>]’ without object\nerror: command '/usr/local/cuda-10.1/bin/nvcc' failed with "
      "exit status 1\n"),
     "nvcc.host_headers_unsupported", "10.1.168"),
    # fresh39 ag14's lines (rigaya/NVEnc on Arch: CUDA 12.3 with gcc 13)
    (("/usr/include/bits/floatn.h(86): error: invalid combination of type specifiers\n  typedef __float128 _Float128;\n"
      "                     ^\n\n/usr/include/bits/floatn-common.h(214): error: invalid combination of type specifiers\n"
      "  typedef float _Float32;\n                ^\n"),
     "nvcc.host_headers_unsupported", "gcc 12"),
    # glibc 2.26's era keeps its answer (no _Float32 typedef rejected)
    (('/usr/include/x86_64-linux-gnu/bits/floatn.h(61): error: invalid argument to attribute "__mode__"\n'),
     "nvcc.host_headers_unsupported", "CUDA release made for this distribution"),
    # fresh39 ag01's lines (turboderp/exllama: /usr/bin/nvcc 11.5 with gcc 11)
    (("/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded with ‘...’:\n"
      "[2/5] /usr/bin/nvcc  -DTORCH_EXTENSION_NAME=exllama_ext -c cuda_func/q4_matmul.cu -o q4_matmul.cuda.o\n"),
     "nvcc.host_headers_unsupported", "CUDA 11.8 or newer"),
    # an NVIDIA toolkit's nvcc keeps the older-gcc answer first
    (("/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded with ‘...’:\n"
      "/usr/local/cuda-11.3/bin/nvcc -c kernel.cu\n"),
     "nvcc.host_headers_unsupported", "g++-10"),
    # fresh39 ag13's line (NVIDIA/cutlass: a .cpp file including CUTLASS)
    ("error: ‘__forceinline__’ does not name a type  \n  #define CUTLASS_HOST_DEVICE __forceinline__ __device__ __host__\n",
     "build.cuda_code_in_host_compile", ".cu suffix"),
    ("kernels.cpp:12:1: error: ‘__global__’ does not name a type\n", "build.cuda_code_in_host_compile", ".cu suffix"),
    ("src/add.cc:8:13: error: ‘threadIdx’ was not declared in this scope\n", "build.cuda_code_in_host_compile",
     ".cu suffix"),
    ("main.cpp:5:1: error: unknown type name '__device__'\n", "build.cuda_code_in_host_compile", ".cu suffix"),
    # fresh39 ag15's line (apache/mxnet with cuDNN 3 headers)
    (("src/operator/./cudnn_convolution-inl.h:400:56: error: too many arguments to function 'cudnnStatus_t "
      "cudnnSetConvolutionNdDescriptor(cudnnConvolutionDescriptor_t, int, const int*, const int*, const int*, "
      "cudnnConvolutionMode_t)'\n"),
     "build.cudnn_api_signature", "newer cuDNN"),
    (("conv.cpp:88:40: error: too few arguments to function ‘cudnnStatus_t cudnnSetRNNDescriptor(cudnnHandle_t, "
      "cudnnRNNDescriptor_t, int, int, cudnnDropoutDescriptor_t, cudnnRNNInputMode_t)’\n"),
     "build.cudnn_api_signature", "the cuDNN release the project was written for"),
    # fresh39 ag41's line (rapidsai/rmm with cuda-python 11.7.1)
    (("C function cuda.ccudart.cudaStreamSynchronize has wrong signature (expected __pyx_t_4cuda_7ccudart_cudaError_t "
      "(__pyx_t_4cuda_7ccudart_cudaStream_t), got cudaError_t (cudaStream_t))\n"),
     "python.cuda_python_abi_mismatch", "cuda-python"),
    ("ImportError: C function cuda.bindings.cydriver.cuStreamSynchronize has wrong signature (expected a, got b)\n",
     "python.cuda_python_abi_mismatch", "cuda-python"),
    # fresh39 ag42's line (DDTRobot/tita_rl_sim2sim2real: TensorRT 10.7 on an RTX 5070 Ti)
    (("[07/19/2025-23:34:55] [E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU "
      "SM 120 is not supported by this TensorRT release.)\n"),
     "tensorrt.gpu_arch_unsupported", "TensorRT 10.8"),
    # fresh39 ag63's lines (NVIDIA/VideoProcessingFramework: the SDK's stubs on LD_LIBRARY_PATH)
    (("    nvDec = nvc.PyNvDecoder(encFile, gpuID)\nRuntimeError: /home/luban/VideoProcessingFramework/PyNvCodec/TC/src/"
      "NvDecoder.cpp:580\nCUDA error with code70470496No error string available\n"),
     "driver.video_stub_library", "stubs directory"),
    # fresh39 ag66's line (NVIDIA/nvvl in docker)
    ("CUDA error 302 at line 32 in file /tmp/nvvl/src/detail/CUVideoParser.h: shared object symbol not found\n",
     "driver.video_stub_library", "stubs directory"),
    # fresh39 ag31's lines (escontra/gauss_gym: Warp 1.7.1 on driver 13.0)
    (("Warp CUDA error: Failed to get driver entry point 'cuDeviceGetUuid' (CUDA error 1)\nWarp CUDA error: Function "
      "cuDeviceGetUuid_f: a suitable driver entry point was not found\nWarp 1.7.1 initialized:\n   CUDA Toolkit 12.8, "
      "Driver 13.0\n"),
     "driver.entry_point_missing", "warp-lang"),
    # with an older driver the driver is the side to upgrade
    (("Warp CUDA error: Failed to get driver entry point 'cuMemcpyBatchAsync' (CUDA error 1)\nWarp 1.9.0 initialized:\n"
      "   CUDA Toolkit 12.8, Driver 12.2\n"),
     "driver.entry_point_missing", "Upgrade the NVIDIA driver"),
    # fresh39 ag06's line (acids-ircam/nn_tilde: x86_64 libtorch on a Jetson Nano)
    ("/home/hxrcms/Downloads/libtorch/lib/libtorch.so: error adding symbols: File in wrong format\n"
     "collect2: error: ld returned 1 exit status\n",
     "link.cuda_libs_not_found", "NVIDIA's PyTorch wheel"),
    # a CUDA library in the older ld's capitalised words keeps the CUDA answer
    ("/usr/local/cuda/lib/libcudart.so: error adding symbols: File in wrong format\n", "link.cuda_libs_not_found",
     "lib64"),
    # fresh39 ag62's lines (CUDA 10.0 found by CMake, -lnppi)
    (('-- Found CUDA: /usr/local/cuda-10.0 (found version "10.0") \n[ 87%] Linking CXX executable LBPGPU\n'
      "/usr/bin/ld: cannot find -lnppi\ncollect2: error: ld returned 1 exit status\n"),
     "link.cuda_libs_not_found", "-lnppial"),
    # CUDA 8 still had libnppi: the path answer stays
    (('-- Found CUDA: /usr/local/cuda-8.0 (found version "8.0") \n/usr/bin/ld: cannot find -lnppi\n'),
     "link.cuda_libs_not_found", ""),
    # fresh39 ag08's line (chelsea0x3b/cudarc with cuDNN 9.2's Windows installer)
    (('Unable to find `include/cudnn.h` under any of: ["C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\'
      'v12.4", "C:\\\\Program Files\\\\NVIDIA\\\\CUDNN\\\\v9.2\\\\include\\\\12.5", "/usr"]. Set the `CUDNN_LIB` '
      "environment variable to `$CUDNN_LIB/include/cudnn.h` to override path.\n"),
     "build.cuda_header_missing", "include\\12.x"),
    # fresh39 ag44's line (google/jax with cuDNN 7.4.2 first on LD_LIBRARY_PATH)
    (("ImportError: .../jaxlib/xla_extension.so: symbol cudnnSetCTCLossDescriptorEx version libcudnn.so.7 not defined "
      "in file libcudnn.so.7 with link time reference\n"),
     "runtime.cuda_lib_shadowed", "7.6.5"),
    # fresh39 ag48's lines (dusty-nv/jetson-containers under docker compose)
    (("error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory\n"
      "ImportError: libnvdla_compiler.so: cannot open shared object file: No such file or directory\n"),
     "runtime.libcuda_not_found", "default-runtime"),
    # fresh39 ag40's lines (colmap/colmap on Ubuntu 16.04)
    (("F0909 17:59:05.800850   743 extraction.cc:132] Check failed: num_cuda_devices > 0 (0 vs. 0) \n"
      "*** Check failure stack trace: ***\n"),
     "runtime.no_device", ""),
    # fresh39 ag32's lines (a negative: Singularity 3.0.0's --nv bind of a symlinked nvidia-smi)
    (("$ singularity shell --nv docker://centos:7\n$ nvidia-smi\nbash: nvidia-smi: command not found\n"),
     "driver.nvidia_smi_not_found", "Update Singularity"),
    # fresh39 ag05's lines (a negative: rules_cuda's CUDA 13 repositories)
    (("/usr/lib/llvm-22/bin/clang -x cu '--cuda-gpu-arch=sm_89' '--cuda-path=external/rules_cuda++toolchain+cuda_nvcc_"
      "v13.0.48/nvcc' -c kernel.cu\nclang: error: cannot find libdevice for sm_89; provide path to different CUDA "
      "installation via '--cuda-path', or pass '-nocudalib' to build without linking with libdevice\n"),
     "clang.cuda_path_not_found", "rules_cuda"),
    # fresh39 ag18's line (vlfeat/matconvnet: R2014b's mex build with CUDA 6.5)
    ("g++: error: /usr/local/MATLAB/R2014b/bin/glnxa64/libcudart.so.6.5: No such file or directory\n",
     "matlab.mexcuda_toolkit_not_found", "cudaMethod"),
    # fresh39 ag71's lines (mani-skill/ManiSkill: SAPIEN's denoiser in a self-built image)
    (("[svulkan2] [error]  OptiX Error: OPTIX_ERROR_INVALID_VALUE\n[svulkan2] [error] Failed to denoise OptiX Error: "
      "OPTIX_ERROR_INVALID_VALUE\n"),
     "driver.optix_library_missing", "nvoptix.bin"),
]

test_first_answer = first_answer_tests(T39_CASES)


def test_a_number_with_another_string_is_not_a_cuda_status():
    """The string in parentheses must be the status's own: a shell's exit code after a CUDA line is not read."""
    log = "Building CUDA kernels\nmake: *** [all] Error 127 (command not found)\n"
    assert not [m for m in explain(log) if m.id == "driver.unknown_error"]
    log = "CUDA call cudaMalloc\nfailed with error code 999 (out of memory)\n"
    assert not [m for m in explain(log) if m.id == "driver.unknown_error"]


def test_cccl_headers_in_host_mode_are_not_a_file_compiled_by_the_wrong_compiler():
    """fresh39 ag12 (NVIDIA/cccl, a negative): libcu++'s headers are made to compile in host mode, so __host__ failing
    inside them is CCCL's defect (fixed in CCCL), not a .cu file given to g++."""
    log = ("In file included from libcudacxx/include/cuda/__cccl_config:19,\n                 from test.cpp:1:\n"
           "libcudacxx/include/cuda/std/__utility/declval.h:29:1: error: ‘__host__’ does not name a type\n")
    assert not [m.id for m in explain(log) if m.id == "build.cuda_code_in_host_compile"]
