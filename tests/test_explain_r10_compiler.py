"""Issue 18, round 10, helper "compiler": each entry of the compiler layer answers with the resolutions its cause
has in real threads. Every excerpt is quoted (trimmed) from the thread above it; the first environment answer and
the first line of its fix hold the fix that solved that thread (or the labelled alternative the first line names
for the thread's situation).
"""

from __future__ import annotations

from explain_answers import first_answer_tests

GCC = "nvcc.gcc_too_new"
ARCH = "nvcc.unsupported_arch"
CMAKE = "cmake.no_cuda_compiler"
HEADER = "build.cuda_header_missing"

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
]

test_first_answer = first_answer_tests(CASES)
