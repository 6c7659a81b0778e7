"""Issue 18, round 7, helper "build": link failures and nvcc architecture errors as families, each from
several threads and producers (nvcc, ld via gcc/CMake/make, pgcc/pgacclnk, a Python import). Each excerpt
is quoted (trimmed) from the thread above it; the first environment answer and the first line of its fix
are the thread's resolution.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

ARCH = "nvcc.unsupported_arch"
OLD_RT = "link.cudart_older_than_nvcc"
PIC = "link.cuda_object_not_pic"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- nvcc does not know the architecture: an old nvcc ran, not the toolkit the user installed ----------
    # (fresh6's /usr/bin/nvcc log and its PGI and FindCUDA -fPIC logs are the burned split's: not quoted here)
    # https://github.com/KlausT/ccminer-cryptonight/issues/51 (the cuda9 branch built by nvcc 7.5)
    ("nvcc -g -O2 -I . -D_FORCE_INLINES -I/usr/local/cuda/include -gencode=arch=compute_30,code=sm_30 "
     "-gencode=arch=compute_52,code=sm_52 -gencode=arch=compute_61,code=sm_61 --maxrregcount=128 "
     "-o cryptonight/cryptonight.o -c cryptonight/cryptonight.cu\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_61'\n"
     "make[2]: *** [cryptonight/cryptonight.o] Error 1\n"
     "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2015 NVIDIA Corporation\n"
     "Cuda compilation tools, release 7.5, V7.5.17",
     ARCH, "The nvcc in this log is CUDA 7.5, older than"),
    # https://github.com/AlexeyAB/darknet/issues/471 (CUDA 9.1 installed, an old CUDA < 8.0 still ran)
    ("nvcc fatal   : Unsupported gpu architecture 'compute_61'\n"
     "i use GTX 1060 with nvidia driver 390 and CUDA 9.1",
     ARCH, "compute_61"),
    # https://github.com/CMU-Perceptual-Computing-Lab/caffe_rtpose/issues/10 (cuda 7.5 and compute_60: the
    # architecture flags are the lever when no newer nvcc is used)
    ("NVCC src/caffe/util/im2col.cu\nnvcc fatal   : Unsupported gpu architecture 'compute_60'\n"
     "make: *** [.build_release/cuda/src/caffe/util/im2col.o] Error 1",
     ARCH, "compute_60"),

    # https://github.com/NVlabs/instant-ngp/issues/747 (CMake found /usr/bin/nvcc, CUDA 10.1 from apt, before
    # /usr/local/cuda-11.3 on PATH)
    ('CMake Error at /usr/local/share/cmake-3.24/Modules/CMakeDetermineCompilerId.cmake:739 (message):\n'
     '  Compiling the CUDA compiler identification source file\n  "CMakeCUDACompilerId.cu" failed.\n\n'
     "  Compiler: /usr/bin/nvcc\n\n  #$ _HERE_=/usr/lib/nvidia-cuda-toolkit/bin\n"
     "  PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/local/cuda-11.3/bin:/home/zzc/miniconda3/bin:/usr/local/sbin\n"
     "  #$ cicc --c++14 --gnu_version=90400 --allow_managed -arch compute_30 -m64\n"
     "  ptxas fatal   : Value 'sm_30' is not defined for option 'gpu-name'",
     ARCH, "cudaenv use 11.3"),

    # --- clang compiling CUDA: the architecture and the CUDA installation it found ---------------------------
    # https://github.com/llvm/llvm-project/pull/117415 (Debian's CUDA 11.8 in /usr/lib/cuda, clang's sm_20 test)
    ("clang: error: GPU arch sm_20 is supported by CUDA versions between 7.0 and 8.0 (inclusive), but installation at "
     "/usr/lib/cuda is 11.8; use '--cuda-path' to specify a different CUDA install, pass a different GPU arch with "
     "'--cuda-gpu-arch', or pass '--no-cuda-version-check'",
     "clang.cuda_arch_unsupported", "--cuda-gpu-arch=sm_86"),
    # https://github.com/NVIDIA/cuda-samples/issues/315 (clangd in VS Code: "add a clang configuration file")
    ("GPU arch sm_35 is supported by CUDA versions between 7.0 and 11.8 (inclusive), but installation at "
     "/usr/local/cuda-12.4 is ; use '--cuda-path' to specify a different CUDA install, pass a different GPU arch with "
     "'--cuda-gpu-arch', or pass '--no-cuda-version-check'clang(drv_cuda_version_unsupported)",
     "clang.cuda_arch_unsupported", ".clangd"),
    # https://github.com/minhhn2910/cuda-half2/issues/5 (clang's default sm_20 with CUDA 11.7)
    ("error: cannot find libdevice for sm_20. Provide path to different CUDA installation via --cuda-path, or pass "
     "-nocudalib to build without linking with libdevice.\nerror: GPU arch sm_20 is supported by CUDA versions between "
     "7.0 and 8.0 (inclusive), but installation at /usr/local/cuda-11.7 is 11.0. Use --cuda-path to specify a different "
     "CUDA install, pass a different GPU arch with --cuda-gpu-arch, or pass --no-cuda-version-check.",
     "clang.cuda_arch_unsupported", "--cuda-gpu-arch"),
    # https://github.com/fireice-uk/xmr-stak/issues/692 (an old clang with CUDA 7.5: CUDA 8 and clang 4 solved it)
    ("clang: error: Unsupported CUDA gpu architecture: sm_61", "clang.cuda_arch_unsupported", "newer clang"),

    # --- two toolkits on one link: a library built against another CUDA ------------------------------------
    # https://github.com/BVLC/caffe/issues/4877 (OpenCV built with CUDA 5.5, caffe with 6.0)
    ("LD -o .build_release/lib/libcaffe.so\nCXX tools/test_net.cpp\nCXX/LD -o .build_release/tools/test_net.bin\n"
     "/usr/bin/ld: warning: libcudart.so.5.5, needed by /usr/local/lib/libopencv_core.so, may conflict with libcudart.so.6.0",
     "link.cuda_libs_two_versions", "rebuild /usr/local/lib/libopencv_core.so"),
    # https://github.com/davisking/dlib/issues/752 ("compile dlib against 8.0 rather than 7.5")
    ("g++  train*.o -o train  -L/usr/local/lib -lboost_system -ldlib -lpng -L/usr/local/cuda-8.0/lib64/ -lcublas -lcurand\n"
     "/usr/bin/ld: warning: libcublas.so.7.5, needed by /usr/local/lib/libdlib.so, may conflict with libcublas.so.8.0\n"
     "/usr/bin/ld: warning: libcurand.so.7.5, needed by /usr/local/lib/libdlib.so, may conflict with libcurand.so.8.0",
     "link.cuda_libs_two_versions", "CUDA 8.0"),
    # https://github.com/NVIDIA/nccl/issues/79
    ("/usr/bin/ld: warning: libcudart.so.7.5, needed by /usr/local/lib/libnccl.so, may conflict with libcudart.so.8.0",
     "link.cuda_libs_two_versions", "libnccl.so"),

    # --- a newer nvcc's objects, an older CUDA runtime: the launch sequence (9.2) and fatbin end (10.1) ----
    # https://github.com/pytorch/pytorch/issues/17148 (nvcc 9.2 with conda's cudatoolkit 9.0: make them one version)
    ("[ 81%] Linking CXX executable ../bin/device_test\n"
     "/home/fanyixing/pytorch/build/lib/libcaffe2_gpu.so: undefined reference to `__cudaPushCallConfiguration'\n"
     "/home/pytorch/build/lib/libcaffe2_gpu.so: undefined reference to `__cudaPopCallConfiguration'\n"
     "collect2: error: ld returned 1 exit status\n"
     "# Check the CUDAToolKit version(e.g.)\n~/anaconda3/bin/conda list | grep cuda",
     OLD_RT, "conda install cudatoolkit=X.Y"),
    # https://github.com/ComputationalRadiationPhysics/picongpu/issues/3436 (cuda_memtest, CMake/FindCUDA)
    ("tmpxft_000023d5_00000000-5_tests.cudafe1.cpp:(.text+0x6cce): undefined reference to `__cudaPushCallConfiguration'\n"
     "tmpxft_000023d5_00000000-5_tests.cudafe1.cpp:(.text+0x6d49): undefined reference to `__cudaPopCallConfiguration'\n"
     "CMakeFiles/cuda_memtest.dir/cuda_memtest_generated_tests.cu.o: In function `test7(char*, unsigned int)':",
     OLD_RT, "runtime of the toolkit whose nvcc compiled the objects"),
    # https://github.com/victorprad/InfiniTAM/issues/125
    ("/home/muser/Desktop/InfiniTAM-master/InfiniTAM/ITMLib/Engines/Swapping/CUDA/ITMSwappingEngine_CUDA.tcu:169: "
     "undefined reference to `__cudaPushCallConfiguration'\n"
     "/tmp/tmpxft_00001dbb_00000000-5_CUDAInstantiations.cudafe1.stub.c:16: undefined reference to `__cudaPopCallConfiguration'",
     OLD_RT, "-L/usr/local/cuda/lib64"),
    # https://github.com/flexflow/flexflow-train/issues/2 (nvcc 10.1+ objects, g++ link: __cudaRegisterFatBinaryEnd)
    ("g++ -o alexnet cnn.cc.o conv_2d.cu.o ops.cu.o -lcudnn -lcublas -lcurand -L. -llegion -lrealm -lrt -lpthread "
     "-ldl -rdynamic -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda -Xlinker -rpath=/usr/local/cuda/lib64 -lz\n"
     "conv_2d.cu.o: In function `__sti____cudaRegisterAll()':\n"
     "tmpxft_000029b2_00000000-5_conv_2d.cudafe1.cpp:(.text.startup+0x19): undefined reference to `__cudaRegisterFatBinaryEnd'",
     OLD_RT, "runtime of the toolkit whose nvcc compiled the objects"),
    # https://github.com/leoxiaobin/deep-high-resolution-net.pytorch/issues/272 and
    # https://github.com/Yuliang-Liu/Box_Discretization_Network/issues/38 ("the version between torch and cuda
    # unmatch"): an extension built by a newer nvcc than torch's runtime
    ("import torch\nfrom nms.gpu_nms import gpu_nms\nImportError: HRNet-Human-Pose-Estimation/tools/../lib/nms/"
     "gpu_nms.cpython-36m-x86_64-linux-gnu.so: undefined symbol: __cudaRegisterFatBinaryEnd",
     OLD_RT, "cudaenv use --match-torch"),
    # https://github.com/AndybnACT/GPU-comcot/issues/1 (cudaLaunchKernel beside it: the runtime is not linked at all)
    ("tmpxft_00003c4e_00000000-5_GPUMoment_s.cudafe1.cpp:(.text+0x4ee): undefined reference to `cudaLaunchKernel'\n"
     "/usr/bin/ld: GPUOpen_BD.o: in function `openbd_launch_':\ntmpxft_00003c68_00000000-5_GPUOpen_BD.cudafe1.cpp:(.text+0x5e): "
     "undefined reference to `__cudaPushCallConfiguration'",
     "link.cuda_libs_not_linked", "-lcudart"),

    # https://github.com/vetter/shoc/issues/78 (CUDA 11.0: nvcc's registration calls, the runtime not linked)
    ("/usr/local/cuda-11.0//bin/../targets/x86_64-linux/include/crt/host_runtime.h:259: undefined reference to "
     "`__cudaUnregisterFatBinary'\nusSpeedDownload.o: In function `__sti____cudaRegisterAll()':\n"
     "/tmp/tmpxft_000037c9_00000000-6_BusSpeedDownload.cudafe1.stub.c:13: undefined reference to `__cudaRegisterFatBinary'\n"
     "/tmp/tmpxft_000037c9_00000000-6_BusSpeedDownload.cudafe1.stub.c:13: undefined reference to `__cudaRegisterFatBinaryEnd'\n"
     "collect2: error: ld returned 1 exit status",
     "link.cuda_libs_not_linked", "-lcudart"),
    # https://github.com/headmyshoulder/odeint-v2/issues/65 (-lcudart before the object: link order)
    ("g++ -o check_thrust -L/usr/local/cuda-5.0/lib64 -lcudart -m64 check_thrust.co\n"
     "check_thrust.co: In function `__cudaUnregisterBinaryUtil()':\n"
     "tmpxft_00002810_00000000-3_check_thrust.cudafe1.cpp:(.text+0xd8): undefined reference to`__cudaUnregisterFatBinary'\n"
     "tmpxft_00002810_00000000-3_check_thrust.cudafe1.cpp:(.text.startup+0xa): undefined reference to `__cudaRegisterFatBinary'\n"
     "collect2: ld returned 1 exit status",
     "link.cuda_libs_not_linked", "after the objects"),

    # --- a CUDA object compiled without -fPIC linked into a shared library ----------------------------------
    # https://github.com/NVIDIA/AMGX/issues/174 (openSUSE's ld, a CMake CUDA-language .cu.o)
    ("/usr/lib64/gcc/x86_64-suse-linux/7/../../../../x86_64-suse-linux/bin/ld: CMakeFiles/amgx_libs.dir/base/src/"
     "distributed/distributed_io.cu.o: relocation R_X86_64_32 against `.rodata.str1.8' can not be used when making a "
     "shared object; recompile with -fPIC",
     PIC, "POSITION_INDEPENDENT_CODE"),
    # https://github.com/clab/dynet/issues/74 (the device-link object; fixed by -Xcompiler -fPIC)
    ("> Linking CXX shared library libcnncuda_shared.so\n> /usr/bin/ld: CMakeFiles/cnncuda_shared.dir/./"
     "cnncuda_shared_intermediate_link.o: relocation R_X86_64_32S against `__nv_module_id' can not be used when making a "
     "shared object; recompile with -fPIC\n> CMakeFiles/cnncuda_shared.dir/./cnncuda_shared_intermediate_link.o: error "
     "adding symbols: Bad value",
     PIC, "-Xcompiler -fPIC"),
    # https://github.com/PixarAnimationStudios/OpenSubdiv/issues/20 (a static library's CUDA object)
    ("lib/libosd.a(osd_generated_cudaKernel.cu.o): relocation R_X86_64_32 against `computeFace(float_, int, float_, int, "
     "int_, int_, int, int, int)' can not be used when making a shared object; recompile with -fPIC",
     PIC, "-Xcompiler -fPIC"),
]


test_first_answer = first_answer_tests(CASES)
