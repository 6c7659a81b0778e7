"""Round 34's tuning on the burned fresh34 (judged at f0dc8d4: 3/12 right first), widened into families.

Each family is tested in words other than the fresh34 log's where the producers have them, with the counter-case that
keeps its earlier answer; the fresh34 logs themselves are read by tests/test_explain_corpus_data.py's judged files.
- the host C++ compiler absent, as torch's cpp_extension (`which g++`), setuptools, a shell, make and CMake say it (ab05,
  and the conda environment's own compiler first when the build runs in one);
- the NVIDIA HPC SDK's nvc/nvc++ taken as the project's CC/CXX (ab67, "Unknown compiler: NVHPC");
- "out of memory" from a call that allocates nothing: counting the GPUs, starting the driver (ab35, WSL 2 with linked GPUs);
- NVENC asked of a GPU that is not NVIDIA's (ab38, ZLUDA on an AMD card);
- a project's compiled extensions skipped as up to date and linked against an older CUDA (ab31).
fresh34's ab68 (a 101 the log contradicts) has its own file, tests/test_explain_r34_refuted.py.
"""
from explain_answers import first_answer_tests

T34_CASES = [
    # torch's cpp_extension found no c++ (a Docker image without build-essential)
    (("  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/cpp_extension.py\", line 409, in _check_abi\n"
      "    check_compiler_ok_for_platform(compiler)\n"
      "subprocess.CalledProcessError: Command '['which', 'c++']' returned non-zero exit status 1.\n"),
     "nvcc.host_compiler_missing", "Install the C++ compiler"),
    # the same inside a conda environment: the environment's compiler first
    (("  File \"/opt/miniconda3/envs/gs/lib/python3.9/site-packages/torch/utils/cpp_extension.py\", line 409\n"
      "subprocess.CalledProcessError: Command '['which', 'g++']' returned non-zero exit status 1.\n"),
     "nvcc.host_compiler_missing", "Install a C++ compiler into the conda environment"),
    # setuptools spawning an absent compiler
    (("building 'mmcv._ext' extension\n"
      "error: command 'x86_64-linux-gnu-gcc' failed: No such file or directory\n"),
     "nvcc.host_compiler_missing", "Install the C++ compiler"),
    # distutils' older words
    (("unable to execute 'gcc': No such file or directory\n"
      "error: command 'gcc' failed with exit status 1\n"),
     "nvcc.host_compiler_missing", "Install the C++ compiler"),
    # CMake's compiler detection
    (("-- The CXX compiler identification is unknown\n"
      "CMake Error at CMakeLists.txt:2 (project):\n"
      "  No CMAKE_CXX_COMPILER could be found.\n"),
     "nvcc.host_compiler_missing", "Install the C++ compiler"),
    # a shell without g++
    (("g++ -O3 -c gpu_info.cpp -o gpu_info.o\n"
      "sh: 1: g++: not found\n"),
     "nvcc.host_compiler_missing", "Install the C++ compiler"),
    # a missing nvcc keeps its own answer
    (("error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory\n"),
     "torch.nvcc_not_found", ""),
    # fresh34 ab67's own line (nanoporetech/dorado, after `module load` of CUDA exported CXX=nvc++)
    (("Unknown compiler: NVHPC\n"),
     "build.nvhpc_as_host_compiler", "Build with GCC and keep the SDK's CUDA"),
    # the HPC SDK's compiler refused by a project's CMake
    (("-- The CXX compiler identification is NVHPC 24.5.1\n"
      "CMake Error at cmake/Compilers.cmake:30 (message):\n"
      "  Unsupported compiler: NVHPC\n"),
     "build.nvhpc_as_host_compiler", "Build with GCC and keep the SDK's CUDA"),
    # nvc++ refusing a GCC flag
    (("nvc++-Error-Unknown switch: -fno-gnu-unique\n"
      "make[2]: *** [CMakeFiles/core.dir/build.make:76: core.o] Error 1\n"),
     "build.nvhpc_as_host_compiler", "Build with GCC and keep the SDK's CUDA"),
    # fresh34 ab35's lines (the CUDA samples under WSL 2 with four TITAN RTX)
    (('CUDA error at ../../common/inc/helper_cuda.h:777 code=2(cudaErrorMemoryAllocation) "cudaGetDeviceCount(&device_count)"\n'
      "cudaGetDeviceCount returned 2\n-> out of memory\nResult = FAIL\n"),
     "runtime.oom_at_init", "Start with fewer GPUs visible"),
    # the driver could not start: cuInit's own number
    (("cuInit(0) returned 2\n"
      "failed to initialize CUDA\n"),
     "runtime.oom_at_init", "Start with fewer GPUs visible"),
    # NVENC on an AMD card through ZLUDA
    (("$ LD_LIBRARY_PATH=$HOME/zluda ffmpeg -i in.mkv -c:v hevc_nvenc out.mkv\n"
      "[hevc_nvenc @ 0x5581c0a3e2c0] Cannot load libnvidia-encode.so.1\n"
      "[hevc_nvenc @ 0x5581c0a3e2c0] The minimum required Nvidia driver for nvenc is 550.54.14 or newer\n"),
     "driver.video_libs_not_loaded", "Use the GPU's own encoder instead"),
    # on an NVIDIA machine the driver's library answer stays
    (("[hevc_nvenc @ 0x5581c0a3e2c0] Cannot load libnvidia-encode.so.1\n"),
     "driver.video_libs_not_loaded", "See first whether the host has them"),
    # a project's extensions skipped as up to date, built against CUDA 8.0 earlier
    (("running build_ext\n"
      "skipping 'model/roi_align/src/roi_align_cuda.c' extension (up-to-date)\n"
      "Traceback (most recent call last):\n"
      "  File \"demo.py\", line 8, in <module>\n"
      "    from model.roi_align import RoIAlign\n"
      "ImportError: libcudart.so.8.0: cannot open shared object file: No such file or directory\n"),
     "runtime.libcudart_not_found", "Delete the compiled extensions and build them again"),
]

test_first_answer = first_answer_tests(T34_CASES)

# the program's own allocation keeps the program verdict, with no environment cause beside it
T34_VERDICTS = [
    (("RuntimeError: CUDA error: out of memory\n"), "runtime.out_of_memory", "Use less memory"),
    (('CUDA error at kernels.cu:88 code=2(cudaErrorMemoryAllocation) "cudaMalloc(&d_buf, bytes)"\n'),
     "runtime.out_of_memory", "Use less memory"),
]

test_verdicts = first_answer_tests(T34_VERDICTS, verdicts=True)
