"""Round 34's tuning on the burned fresh35 (judged at b630404: 15/44 right first), widened into families.

Each family is tested in the fresh35 log's own words (marked) and in others where the producers have them, with the
counter-case that keeps its earlier answer; the fresh35 logs themselves are read by tests/test_explain_corpus_data.py's
judged files.
- NCCL 2.27's sentence for a failed NVLS bind (the fabric manager first); NVML's mismatch wrapped after its colon;
- TensorFlow's "failed call to cuDevicePrimaryCtxRetain: CUDA_ERROR_OUT_OF_MEMORY" (memory held before the program);
- OpenCV: its DNN module's cuDNN/CUDA version check, and its CUDA architecture probe coming back empty;
- a Makefile with an empty nvcc running a .cu file as a shell script; nvlink and glibc 2.34's empty libdl.a/librt.a;
- atomicAdd's type deciding the architecture; a header the toolkit shipped only up to a release (CUB's
  tex_ref_input_iterator.cuh); the driver's NVML/libcuda opened by their plain names (strace);
- texture references and xmr-stak's words for a build without this GPU's code; a container started by docker compose
  with an image newer than the driver (error 804);
- a package manager's build that does not see the shell's PATH (MacPorts); an old nccl.h found first;
- a system library's development package missing at the link; CMake giving OpenMP's host flag to nvcc;
- a header followed by its line number is a place, not a missing file.
"""
from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

T35_CASES = [
    # fresh35 ac42's line (pytorch/ci-infra: nvidia-fabricmanager not running on H100/B200 nodes)
    (("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152:\n"
      "CUDA error 401 'the operation cannot be performed in the present state'.\n"
      "This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches.\n"),
     "nccl.nvls_multicast_failed", "Check that the fabric manager runs"),
    # the older NCCL's WARN line keeps the same answer
    (("node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'\n"),
     "nccl.nvls_multicast_failed", "Reset the GPUs together with the fabric manager"),
    # NVML's mismatch broken after its colon (another wrapper's chain)
    (("Error: failed to start container: nvidia-container-cli: initialization error: nvml error: failed to initialize NVML:\n"
      "Driver/library version mismatch\n"),
     "driver.version_mismatch", ""),
    # fresh35 ac32's line (TensorFlow 1.x on a shared GPU)
    (("2019-07-11 12:42:11.226602: W tensorflow/compiler/xla/service/platform_util.cc:240] unable to create StreamExecutor "
      "for CUDA:0: failed initializing StreamExecutor for CUDA device ordinal 0: Internal: failed call to "
      "cuDevicePrimaryCtxRetain: CUDA_ERROR_OUT_OF_MEMORY: out of memory; total memory reported: 11721506816\n"),
     "runtime.oom_at_init", "`nvidia-smi` lists the processes holding each GPU's memory"),
    # a failing count keeps the several-GPUs answer
    (("cuInit(0) returned 2\n"),
     "runtime.oom_at_init", "Start with fewer GPUs visible"),
    # fresh35 ac48's line (jetson-inference's OpenCV built with cuDNN 8.0 on L4T R32.7.1)
    (("[ WARN:0] global /opt/opencv/modules/dnn/src/cuda4dnn/init.hpp (34) checkVersions cuDNN reports version 8201 "
      "which does not match with the version 8000 with which OpenCV was built\n"),
     "opencv.dnn_cuda_version_differs", "Build OpenCV again against the cuDNN installed here"),
    # fresh35 ac11's line (NVIDIA/cutlass: an FP16 GEMM built without -arch; tests/test_explain_e35_half.py runs nvcc)
    (('Error: more than one conversion function from "half" to a built-in type applies:\n'
      '            function "__half::operator float() const"\n'),
     "nvcc.half_operators_unavailable", "Compile for your GPU's architecture"),
    # fresh35 ac64's lines (OpenCV under CUDA 13.2 with gcc 16)
    (("-- CUDA detected: 13.2\n"
      "CMake Warning at cmake/OpenCVDetectCUDAUtils.cmake:188 (message):\n"
      "  CUDA: Autodetection arch list is empty.  Please enable\n"
      "  OPENCV_CMAKE_CUDA_DEBUG=1 and check/specify\n"
      "  OPENCV_CUDA_DETECTION_NVCC_FLAGS variable\n"),
     "cmake.opencv_arch_probe_empty", "Give OpenCV's nvcc a host compiler this CUDA accepts"),
    # its error alone, as an issue title quotes it
    (("CMake Error at cmake/OpenCVDetectCUDAUtils.cmake:303 (list):\n  list GET given empty list\n"),
     "cmake.opencv_arch_probe_empty", "Give OpenCV's nvcc a host compiler this CUDA accepts"),
    # fresh35 ac04's lines (ccv's config.mk with an empty NVCC)
    (("cuda/cwc_convnet.cu: line 1: extern: command not found\n"
      "cuda/cwc_convnet.cu: line 9: syntax error near unexpected token `}'\n"),
     "shell.nvcc_not_found", "Put the toolkit's bin on PATH and configure again"),
    # fresh35 ac05's lines (ccminer built by MacPorts)
    ((":info:build /bin/sh: nvcc: command not found\n:info:build make[2]: *** [cuda_groestlcoin.o] Error 127\n"),
     "shell.nvcc_not_found", "Tell the build where CUDA is instead of relying on PATH"),
    # fresh35 ac09's line (NCCL built from source with an old nccl.h in CUDA 8.0's include directory)
    (('init.cu(165): error: identifier "NCCL_VERSION_CODE" is undefined\n'),
     "nccl.old_header_first", "Find every copy"),
    # gcc's words for the same in a project that includes nccl.h
    (("src/comm.cpp:41:9: error: 'NCCL_MAJOR' was not declared in this scope\n"),
     "nccl.old_header_first", "Find every copy"),
    # a shell script's own "command not found" is not a .cu file
    (("./build.sh: line 3: nvcc: command not found\n"),
     "shell.nvcc_not_found", ""),
    # fresh35 ac06's line (Kokkos with CUDA 11.6 on glibc 2.34+)
    (("nvlink fatal   : Could not open input file '/usr/lib/libdl.a'\n"),
     "link.nvlink_empty_glibc_archive", "Keep the archive off the device link"),
    # the same with librt
    (("nvlink fatal   : Could not open input file '/usr/lib/x86_64-linux-gnu/librt.a'\n"),
     "link.nvlink_empty_glibc_archive", "Keep the archive off the device link"),
    # atomicAdd on bfloat16: Ampere
    (('gemm.cu(88): error: no instance of overloaded function "atomicAdd" matches the argument list\n'
      "            argument types are: (__nv_bfloat16 *, __nv_bfloat16)\n"),
     "build.arch_below_sm60_atomicadd", "Check the GPU"),
    # double keeps the sm_60 answer
    (('csr5_spmv_cuda.h(352): error: no instance of overloaded function "atomicAdd" matches the argument list\n'
      "            argument types are: (double *, double)\n"),
     "build.arch_below_sm60_atomicadd", "Compile for the GPU you run on"),
    # CUB's removed iterator under a CUDA 12.8 path
    (("/usr/local/cuda-12.8/bin/nvcc -c sort.cu\n"
      "third_party/hipcub/config.hpp:88:14: fatal error: cub/iterator/tex_ref_input_iterator.cuh: No such file or directory\n"),
     "build.cuda_header_missing", "Give the build code that does not include it"),
    # the video decoder opened by its plain name
    (("Failed to load NVDEC\n"
      'openat(AT_FDCWD, "/usr/lib64/libnvcuvid.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n'),
     "link.driver_library_unversioned", "Make the plain name next to the .so.1"),
    # the link-time form keeps its answer
    (("/usr/bin/ld: cannot find -lnvidia-ml\ncollect2: error: ld returned 1 exit status\n"),
     "link.driver_library_unversioned", "Link against a stub or the .so.1 itself"),
    # ElasticFusion's words for the same missing architecture
    (("ElasticFusion/Core/src/Cuda/cudafuncs.cu(103) : cudaSafeCall() Runtime API error : invalid texture reference.\n"),
     "runtime.no_kernel_image", "Get a build of the program that failed"),
    # fresh35 ac78's line
    (("WARNING: NVIDIA GPU 0: miner not compiled for the gpu architecture 30.\n"),
     "runtime.no_kernel_image", "Get a build of the program that failed"),
    # fresh35 ac75's lines (gputools for R: R's link line on Ubuntu 16.04)
    (("/usr/bin/ld: cannot find -lpcre\n/usr/bin/ld: cannot find -llzma\n/usr/bin/ld: cannot find -lbz2\n"
      "/usr/bin/ld: cannot find -lz\ncollect2: error: ld returned 1 exit status\n"),
     "link.system_dev_library_missing", "Install the development package of each library"),
    # a CUDA library of the same link comes first
    (("/usr/bin/ld: cannot find -lcudart\n/usr/bin/ld: cannot find -lssl\n"),
     "link.cuda_libs_not_found", ""),
    # fresh35 ac16's lines (CCMpred with Ubuntu's CMake 3.10)
    (("[ 35%] Building CUDA object CMakeFiles/ccmpred.dir/src/evaluate_cuda_kernels.cu.o\n"
      "nvcc fatal   : Unknown option 'fopenmp'\n"),
     "nvcc.unknown_option", "Configure with a newer CMake"),
    # a Makefile's own flag keeps the forwarding answer
    (("nvcc -O3 -fopenmp -c kernel.cu\nnvcc fatal   : Unknown option 'fopenmp'\n"),
     "nvcc.unknown_option", "Pass host-compiler flags through nvcc"),
    # a container started by docker run with an image newer than the host driver
    (("$ docker run --gpus all -it ghcr.io/acme/llm-server:cu130\n"
      "ggml_cuda_init: failed to initialize CUDA: forward compatibility was attempted on non supported HW\n"),
     "runtime.forward_compat_unsupported", "Build or run an image whose CUDA the host driver runs natively"),
]

test_first_answer = first_answer_tests(T35_CASES)


def test_a_header_with_its_line_number_is_a_place_not_a_missing_file():
    # fresh35 ac77's line (risc0/risc0: the prover's kernels built without sm_120): nothing is claimed missing
    said = ('called `Result::unwrap()` on an `Err` value: cudaLaunchKernelEx(&config, kernel, '
            'std::forward<ActTypes>(args)...)@kernels/zkp/cuda/cuda.h:92 failed: "named symbol not found"\n')
    assert not [m.id for m in explain(said) if m.environment]
    # the header that is missing still is
    found = explain("src/k.cu:3:10: fatal error: cuda_runtime.h: No such file or directory\n")
    assert found and found[0].environment and "cuda_runtime.h" in found[0].title
