"""Issue 18, round 4, layer [compiler]: host compilers, headers, CMake and build tools.

Each family is backed by real public threads in different projects (URL above each excerpt),
quoted verbatim (trimmed). The first environment answer must be ``want_id`` and the first line of
its fix must hold ``want_fix``: the fix that solved that thread's case.
"""

from __future__ import annotations


from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

CASES = [
    # --- glibc 2.41's C23 math functions vs CUDA 12.x's crt/math_functions.h -------------------
    # OpenCV with CUDA 12.4/12.8, the thread's fix a header patch: https://github.com/opencv/opencv/issues/27111
    ('/usr/include/bits/mathcalls.h(79): error: exception specification is incompatible with that of previous '
     'function "cospi" (declared at line 5554 of /usr/local/cuda/include/crt/math_functions.h)',
     "nvcc.glibc_c23_math", "cudaenv use 13.0"),
    # koboldcpp with CUDA 12.9.86 (12.9 still fails): https://github.com/LostRuins/koboldcpp/issues/1521
    ("nvcc --forward-unknown-to-host-compiler -use_fast_math -extended-lambda -arch=native -I. -c "
     "ggml/src/ggml-cuda/ggml-cuda.cu -o ggml-cuda.o\n"
     '/usr/include/bits/mathcalls.h(79): error: exception specification is incompatible with that of previous '
     'function "cospi" (declared at line 2601 of /usr/local/cuda/incl',
     "nvcc.glibc_c23_math", "cudaenv use 13.0"),
    # CUDA samples on Ubuntu 25.04, wrapped by CMake: https://github.com/NVIDIA/cuda-samples/issues/378
    ('usr/include/x86_64-linux-gnu/bits/mathcalls.h(79): error: exception\n'
     '  specification is incompatible with that of previous function "cospi"\n'
     '  (declared at line 2601 of\n'
     '  /usr/local/cuda-12.9/bin/../targets/x86_64-linux/include/crt/math_functions.h)',
     "nvcc.glibc_c23_math", "cudaenv use 13.0"),
    # NCCL from source on Ubuntu 25.04: https://github.com/NVIDIA/nccl/issues/1700
    ('/usr/include/x86_64-linux-gnu/bits/mathcalls.h(79): error: exception specification is incompatible with that '
     'of previous function "cospi" (declared at line 2601 of '
     '/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/math_functions.h)\n'
     '   extern double cospi (double __x) noexcept (true); extern double __cospi (double __x) noexcept (true);',
     "nvcc.glibc_c23_math", "cudaenv use 13.0"),
    # rsqrt on Debian trixie: https://github.com/JustVugg/colibri/pull/966 ([t35] rsqrt's declaration is glibc 2.42's:
    # CUDA 13.0's crt/math_functions.h declares it bare, 13.5's with _NV_RSQRT_SPECIFIER from glibc 2.42 on, both read
    # from the test bed; so the header patch, not "CUDA 13.0", comes first)
    ('  mathcalls.h: error: exception specification is incompatible with that\n'
     '  of previous function "rsqrt" (declared at ... crt/math_functions.h)',
     "nvcc.glibc_c23_math", "Patch the toolkit's header"),
    # gcc's wording of the same clash, in CMake's compiler probe: https://github.com/1CatAI/1Cat-vLLM/issues/215
    ("#$ cudafe++ --c++17 --gnu_version=120400 --display_error_number\n"
     "error: declaration of 'void sincospi(double, double*, double*)' has a different exception specifier\n"
     "  /usr/local/cuda-12.8/targets/x86_64-linux/include/crt/math_functions.h:5994",
     "nvcc.glibc_c23_math", "cudaenv use 13.0"),

    # --- the C++ compiler is not installed (cc1plus) or nvcc cannot run its host compiler --------
    # xmrig-cuda, gcc and g++ of different versions: https://github.com/xmrig/xmrig-cuda/issues/112
    ("At the make command for xmrig-cuda, I get this error\n\n"
     "`cc: error trying to exec 'cc1plus': execvp: No such file or directory`",
     "nvcc.host_compiler_missing", "build-essential"),
    # llama.cpp, gcc's newer wording: https://github.com/ggml-org/llama.cpp/issues/6727 (title)
    ("gcc: fatal error: cannot execute \u2018cc1plus\u2019: execvp: No such file or directory",
     "nvcc.host_compiler_missing", "build-essential"),
    # darknet through nvcc: https://github.com/pjreddie/darknet/issues/1168
    ("nvcc  -gencode arch=compute_30,code=sm_30 -DGPU -I/usr/local/cuda-8.0/include/ -DCUDNN --compiler-options "
     "\"-Wall -Wfatal-errors\" -c ./src/convolutional_kernels.cu -o obj/convolutional_kernels.o\n"
     "**gcc: error trying to exec 'cc1plus': execvp: No such file or directory",
     "nvcc.host_compiler_missing", "build-essential"),
    # libfreenect2's CMake FindCUDA build: https://github.com/OpenKinect/libfreenect2/issues/1184
    ("[  7%] Building NVCC (Device) object CMakeFiles/cuda_compile_1.dir/src/"
     "cuda_compile_1_generated_cuda_kde_depth_packet_processor.cu.o\n"
     "`cc: fatal error: cannot execute \u2018cc1plus\u2019: execvp: no such file`",
     "nvcc.host_compiler_missing", "build-essential"),
    # nvcc's own wording, a torch extension with no gcc on PATH: https://github.com/NVlabs/DeepIM-PyTorch/issues/7
    ("/usr/bin/nvcc -I/usr/lib/python3/dist-packages/torch/include -c point_matching_loss_kernel.cu -o "
     "build/temp.linux-x86_64-3.8/point_matching_loss_kernel.o -std=c++14\n"
     "gcc: No such file or directory\nnvcc fatal   : Failed to preprocess host compiler properties.\n"
     "error: command '/usr/bin/nvcc' failed with exit status 1",
     "nvcc.host_compiler_missing", "build-essential"),
    # sccache-dist without the host compiler: https://github.com/mozilla/sccache/issues/1048
    ("gcc: No such file or directory\nnvcc fatal   : Failed to preprocess host compiler properties.",
     "nvcc.host_compiler_missing", "build-essential"),
    # a -ccbin naming a compiler that is not installed (title):
    # https://github.com/nicolasavru/ppf-registration-spatial-hashing/issues/2
    ("/usr/bin/g++-5: No such file or directory nvcc fatal : Failed to preprocess host compiler properties.",
     "nvcc.host_compiler_missing", "-ccbin"),
    # a host compiler that is not a compiler: https://github.com/compiler-explorer/compiler-explorer/issues/8302
    ("t-nakata@robot:~/cuda$ nvcc -o a a.cc\nerror: unknown flag `E'\nnvcc fatal   : Failed to preprocess host "
     "compiler properties.", "nvcc.host_compiler_missing", "-ccbin"),

    # --- Python's C headers ------------------------------------------------------------------------
    # cpyrit-cuda: https://github.com/JPaulMora/Pyrit/issues/384
    ("gcc -pthread -fno-strict-aliasing -DNDEBUG -g -fwrapv -O2 -Wall -Wstrict-prototypes -fPIC "
     "-I/usr/include/python2.6 -c _cpyrit_cuda.c -o build/temp.linux-i686-2.6/_cpyrit_cuda.o\n"
     "_cpyrit_cuda.c:39:20: fatal error: Python.h: No such file or directory\ncompilation terminated.\n"
     "error: command 'gcc' failed with exit status 1", "build.python_headers_missing", "python3-dev"),
    # pycocotools (solved by python3-dev): https://github.com/cocodataset/cocoapi/issues/180
    ("pycocotools/_mask.c:4:20: fatal error: **Python.h**: No such file or directory\ncompilation terminated.\n"
     "error: command 'x86_64-linux-gnu-gcc' failed with exit status 1".replace("**", ""),
     "build.python_headers_missing", "python3-dev"),
    # g2opy through CMake and make: https://github.com/uoip/g2opy/issues/36
    ("fatal error: Python.h: No such file or directory\ncompilation terminated.\n"
     "python/CMakeFiles/g2o.dir/build.make:62: recipe for target 'python/CMakeFiles/g2o.dir/g2o.cpp.o' failed",
     "build.python_headers_missing", "python3-dev"),
    # PSENet's versioned include: https://github.com/whai362/PSENet/issues/104 (title)
    ("fatal error: python2.7/Python.h: No such file or directory", "build.python_headers_missing", "python3-dev"),

    # --- CMake: CUDA architectures empty or invalid ------------------------------------------------
    # colmap: https://github.com/colmap/colmap/issues/1779
    ("CMake Error at /opt/cmake-3.25.1-linux-x86_64/share/cmake-3.25/Modules/CMakeDetermineCUDACompiler.cmake:277 "
     "(message):\n  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.\nCall Stack (most recent call first):\n"
     "  CMakeLists.txt:150 (enable_language)", "cmake.cuda_architectures_empty", "CMAKE_CUDA_ARCHITECTURES="),
    # "must be valid" is the identification failing with the list set (instant-ngp, after pointing CMake at
    # nvcc 11.5): https://github.com/NVlabs/instant-ngp/issues/707
    ("$ cmake . -B build -DCMAKE_CUDA_COMPILER=/usr/local/cuda-11.5/bin/nvcc\n"
     "CMake Error at /usr/local/share/cmake-3.23/Modules/CMakeDetermineCUDACompiler.cmake:311 (message):\n"
     "  CMAKE_CUDA_ARCHITECTURES must be valid if set.", "cmake.cuda_compiler_id_failed", "cudaenv use 11.5"),
    # EXP, a target without architectures: https://github.com/EXP-code/EXP/issues/63
    ('CMake Error in exputil/CMakeLists.txt:\n  CUDA_ARCHITECTURES is empty for target "exputil".\n\n'
     'CMake Error in src/CMakeLists.txt:\n  CUDA_ARCHITECTURES is empty for target "EXPlib".',
     "cmake.cuda_architectures_empty", "CMAKE_CUDA_ARCHITECTURES="),
    # parsec with CMake 3.26 and CUDA 11.8: https://github.com/ICLDisco/parsec/issues/555
    ('CMake Error in build/_deps/parsec-src/tests/dsl/dtd/CMakeLists.txt:\n'
     '  CUDA_ARCHITECTURES is empty for target "dtd_test_new_tile".',
     "cmake.cuda_architectures_empty", "CMAKE_CUDA_ARCHITECTURES="),

    # --- CMake could not compile its CUDA identification test ---------------------------------------
    # a CUDA 12.8 install CMake did not use: https://github.com/NVIDIA/GPUStressTest/issues/11
    ("Cuda compilation tools, release 12.8, V12.8.61\n cmake ..\n-- The CXX compiler identification is GNU 14.2.0\n"
     "-- The CUDA compiler identification is unknown\n"
     "CMake Error at /usr/share/cmake-3.28/Modules/CMakeDetermineCUDACompiler.cmake:270 (message):\n"
     "  Failed to detect a default CUDA architecture.\n\n\n\n  Compiler output:\n\n"
     "Call Stack (most recent call first):\n  CMakeLists.txt:10 (project)",
     "cmake.cuda_compiler_id_failed", "cudaenv use 12.8"),
    # Jetson, CUDA not on PATH: https://github.com/laugh12321/TensorRT-YOLO/issues/47
    ("-- The CUDA compiler identification is unknown\n"
     "CMake Error at /usr/share/cmake-3.26/Modules/CMakeDetermineCUDACompiler.cmake:603 (message):\n"
     "  Failed to detect a default CUDA architecture.", "cmake.cuda_compiler_id_failed", "cudaenv use"),
    # quokka after an update to CUDA 12.6 ("a CUDA 12.6 path issue"): https://github.com/quokka-astro/quokka/issues/706
    ("-- The CUDA compiler identification is unknown\n"
     "CMake Error at /usr/share/cmake/Modules/CMakeDetermineCUDACompiler.cmake:603 (message):\n"
     "  Failed to detect a default CUDA architecture.", "cmake.cuda_compiler_id_failed", "CMakeCache.txt"),
    # the cause nvcc printed under "Compiler output" is answered first (floatn.h with CUDA 9.1):
    # https://github.com/colmap/colmap/issues/2571
    ('  "tmp/CMakeCUDACompilerId.ptx"\n\n'
     '  /usr/include/x86_64-linux-gnu/bits/floatn.h(74): error: invalid argument to\n  attribute "__mode__"\n\n'
     '  /usr/include/x86_64-linux-gnu/bits/floatn.h(86): error: identifier\n  "__float128" is undefined\n\n'
     '  2 errors detected in the compilation of "tmp/CMakeCUDACompilerId.cpp1.ii".\n\n  # --error 0x1 --\n\n'
     'Call Stack (most recent call first):\n'
     '  /usr/share/cmake-3.22/Modules/CMakeDetermineCompilerId.cmake:6 (CMAKE_DETERMINE_COMPILER_ID_BUILD)',
     "nvcc.host_headers_unsupported", "made for this distribution"),

    # --- OpenCV's opencv_dep_cudart -------------------------------------------------------------------
    # CudaSift (solved by CUDA_USE_STATIC_CUDA_RUNTIME OFF): https://github.com/Celebrandil/CudaSift/issues/9
    ("[ 14%] Linking CXX executable cudasift\n/usr/bin/ld: cannot find -lopencv_dep_cudart\n"
     "collect2: error: ld returned 1 exit status", "cmake.opencv_dep_cudart", "CUDA_USE_STATIC_CUDA_RUNTIME=OFF"),
    # caffe2: https://github.com/facebookarchive/caffe2/issues/1430
    ("`/usr/bin/ld: cannot find -lopencv_dep_cudart\ncollect2: error: ld returned 1 exit status\n"
     "make[3]: *** [bin/pattern_net_transform_test] Error 1", "cmake.opencv_dep_cudart",
     "CUDA_USE_STATIC_CUDA_RUNTIME=OFF"),
    # ifm3d, a shared library: https://github.com/ifm/ifm3d/issues/3
    ("[ 50%] Linking CXX shared library libifm3d_image.so\n/usr/bin/ld: cannot find -lopencv_dep_cudart",
     "cmake.opencv_dep_cudart", "CUDA_USE_STATIC_CUDA_RUNTIME=OFF"),
    # bgslibrary, which does not use CUDA itself: https://github.com/andrewssobral/bgslibrary/issues/169
    ("> Linking CXX shared library libbgslibrary_core.so\n> /usr/bin/ld: cannot find -lopencv_dep_cudart",
     "cmake.opencv_dep_cudart", "CUDA_USE_STATIC_CUDA_RUNTIME=OFF"),

    # --- clang as the CUDA compiler without a toolkit ---------------------------------------------------
    # cudamat: https://github.com/cudamat/cudamat/issues/99
    ("clang: error: cannot find libdevice for sm_61. Provide path to different CUDA installation via --cuda-path, "
     "or pass -nocudalib to build without linking with libdevice.", "clang.cuda_path_not_found", "--cuda-path="),
    # hipSYCL: https://github.com/AdaptiveCpp/AdaptiveCpp/issues/105
    ("clang: error: cannot find libdevice for sm_52. Provide path to different CUDA installation via --cuda-path, "
     "or pass -nocudalib to build without linking with libdevice.\n"
     "clang: error: cannot find CUDA installation.  Provide its path via --cuda-path, or pass -nocudainc to build "
     "without CUDA includes.", "clang.cuda_path_not_found", "--cuda-path="),
    # xmr-stak-nvidia on Ubuntu 17.10: https://github.com/fireice-uk/xmr-stak-nvidia/issues/180
    ("clang: error: cannot find CUDA installation.  Provide its path via --cuda-path, or pass -nocudainc to build "
     "without CUDA includes.", "clang.cuda_path_not_found", "--cuda-path="),
    # clang-cl (intel/llvm), solved by --cuda-path: https://github.com/intel/llvm/issues/5028
    ("clang-cl: error: cannot find libdevice for sm_50; provide path to different CUDA installation via "
     "'--cuda-path', or pass '-nocudalib' to build without linking with libdevice",
     "clang.cuda_path_not_found", "--cuda-path="),

    # --- widened: torch's own check of g++ against the CUDA it builds with ------------------------------
    # solved by a newer CUDA: https://github.com/autonomousvision/gaussian-opacity-fields/issues/49
    ("RuntimeError: The current installed version of g++ (11.4.0) is greater than the maximum required version by "
     "CUDA 11.3 (10.0.0). Please make sure to use an adequate version of g++ (>=5.0.0, <=10.0.0).",
     "nvcc.gcc_too_new", "g++-10"),
    # conda's compiler with CUDA 12.8 (a project's notes, quoting torch's message; found by exact string). [p24 a]
    # CUDA 12.8's host_config.h takes gcc 14: only torch's older table refuses it, and torch's switch skips the check
    ("RuntimeError: The current installed version of .../x86_64-conda-linux-gnu-c++\n"
     "(14.3.0) is greater than the maximum required version by CUDA 12.8.",
     "nvcc.gcc_too_new", "TORCH_DONT_CHECK_COMPILER_ABI=1"),
    # torch's exclusive bound ("<11.0"): a project's README quoting the error (found by exact string)
    ("RuntimeError: The current installed version of g++ (13.2.0) is greater than the maximum required version by "
     "CUDA 11.3. Please make sure to use an adequate version of g++ (>=5.0.0, <11.0).",
     "nvcc.gcc_too_new", "g++-10"),
    # torch's exclusive bound inline, conda: a project's notes (found by exact string)
    # [p24 a] the same: gcc 14 is within CUDA 12.8's own limit, so torch's check is skipped first (g++-13 comes next)
    ("**Error**: `The current installed version of c++ (14.3.0) is greater than the maximum required version by "
     "CUDA 12.8 (<14.0)`", "nvcc.gcc_too_new", "TORCH_DONT_CHECK_COMPILER_ABI=1"),

    # --- widened: nvcc cannot parse the host's C headers ------------------------------------------------
    # gcc 13 with CUDA 12.1 (gcc-12 fixed it): https://github.com/nvidia-holoscan/holoscan-sdk/issues/10
    ('  /usr/include/bits/mathcalls.h(71): error: identifier "_Float32" is\n  undefined\n\n'
     '     extern _Float32 coshf32 (_Float32 __x) noexcept (true); extern _Float32 __coshf32 (_Float32 __x) noexcept (true);',
     "nvcc.host_headers_unsupported", "g++-12"),
    # CUDA 12.2 with gcc 13.3 (Nix): https://github.com/NixOS/nixpkgs/pull/336334
    ("/nix/store/nv84272fps7vc62w42c55hw6cyy9qh3h-glibc-2.39-52-dev/include/stdlib.h(141): error: identifier "
     "\"_Float32\" is undefined\n  extern _Float32 strtof32 (const char *__restrict __nptr,",
     "nvcc.host_headers_unsupported", "g++-12"),
    # diff-gaussian-rasterization through pip: https://github.com/ashawkey/diff-gaussian-rasterization/issues/26
    ('      /usr/include/x86_64-linux-gnu/bits/mathcalls.h(59): error: identifier "_Float32" is undefined\n      \n'
     '      /usr/include/x86_64-linux-gnu/bits/mathcalls.h(59): error: identifier "_Float32" is undefined',
     "nvcc.host_headers_unsupported", "g++-12"),
    # Gpufit on Ubuntu 24.04: https://github.com/gpufit/Gpufit/issues/138
    ('/usr/include/stdlib.h(317): error: identifier "_Float32x" is undefined\n\n'
     '/usr/include/stdlib.h(323): error: identifier "_Float64x" is undefined', "nvcc.host_headers_unsupported",
     "g++-12"),
    # gcc's wording, CUDA 11.5 with gcc 13 in CMake's probe: https://github.com/ggml-org/llama.cpp/issues/10629
    ("  /usr/include/x86_64-linux-gnu/bits/mathcalls.h:143:8: error: \u2018_Float32\u2019\n"
     "  does not name a type; did you mean \u2018float3\u2019?", "nvcc.host_headers_unsupported", "g++-12"),
    # glibc 2.26 with CUDA 8 (Fedora 27): https://github.com/Xpra-org/xpra/issues/1600
    ("found CUDA compiler: /usr/local/cuda/bin/nvcc version 8.0.44\n"
     '/usr/include/bits/floatn.h(61): error: invalid argument to attribute "__mode__"\n\n'
     '/usr/include/bits/floatn.h(73): error: identifier "__float128" is undefined',
     "nvcc.host_headers_unsupported", "made for this distribution"),
    # glibc 2.26 with caffe2: https://github.com/facebookarchive/caffe2/issues/1194
    ('[ 59%] Building NVCC (Device) object caffe2/CMakeFiles/Caffe2_GPU.dir/utils/Caffe2_GPU_generated_math_gpu.cu.o\n'
     '/usr/include/bits/floatn.h(61): error: invalid argument to attribute "__mode__"\n\n'
     '/usr/include/bits/floatn.h(73): error: identifier "__float128" is undefined',
     "nvcc.host_headers_unsupported", "made for this distribution"),
    # OpenCV 3.4 on Gentoo with glibc 2.26: https://github.com/opencv/opencv/issues/10664
    ('/usr/include/bits/floatn.h(61): error: invalid argument to attribute "__mode__"\n\n'
     '/usr/include/bits/floatn.h(73): error: identifier "__float128" is undefined\n\n'
     '2 errors detected in the compilation of "/var/tmp/portage/media-libs/opencv-3.4.0/temp/'
     'tmpxft_00007802_00000000-13_gpu_mat.compute_70.cpp1.ii".', "nvcc.host_headers_unsupported",
     "made for this distribution"),
    # --- the compiler killed by the OOM killer (too many parallel jobs) -----------------------------------
    # cudf from source: https://github.com/NVIDIA/cudf/issues/8018
    ("nvcc error   : 'cicc' died due to signal 9 (Kill signal)\n"
     "make[2]: *** [CMakeFiles/cudf_base.dir/src/groupby/sort/group_max.cu.o] Error 9\n"
     "make[2]: *** Waiting for unfinished jobs....", "build.compiler_killed", "MAX_JOBS=2"),
    # onnxruntime's flash-attention kernels: https://github.com/microsoft/onnxruntime/issues/18579
    ("CMakeFiles/onnxruntime_providers_cuda_obj.dir/tmp/onnxruntime/onnxruntime/contrib_ops/cuda/bert/flash_attention/"
     "flash_fwd_split_hdim192_fp16_sm80.cu.o\nnvcc error   : 'cicc' died due to signal 9 (Kill signal)",
     "build.compiler_killed", "MAX_JOBS=2"),
    # cuRobo in a docker build, cudafe++: https://github.com/NVlabs/curobo/issues/109 (title)
    ("'cudafe++' died due to signal 9 (Kill signal) when building x86 docker\n"
     "nvcc error   : 'cudafe++' died due to signal 9 (Kill signal)", "build.compiler_killed", "MAX_JOBS=2"),
    # nvdiffrast, host compiler (MAX_JOBS=1 fixed it): https://github.com/NVlabs/nvdiffrast/issues/183
    ("c++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\n"
     "ninja: build stopped: subcommand failed.", "build.compiler_killed", "MAX_JOBS=2"),
    # a llama.cpp fork's CUDA kernels through CMake: https://github.com/Anbeeld/beellama.cpp/issues/80 (title)
    ("[ 14%] Building CUDA object ggml/src/ggml-cuda/CMakeFiles/ggml-cuda.dir/template-instances/"
     "fattn-tile-instance-dkq256-dv256.cu.o\nc++: fatal error: Killed signal terminated program cc1plus",
     "build.compiler_killed", "MAX_JOBS=2"),

    # --- torch's cpp_extension does not know the architecture ------------------------------------------------
    # 9.0+PTX in TORCH_CUDA_ARCH_LIST with CUDA 11.7 (removing it fixed it): https://github.com/OpenBMB/BMTrain/issues/83
    ("`ValueError: Unknown CUDA arch (9.0+PTX) or GPU not supported`\n\necho $TORCH_CUDA_ARCH_LIST\n"
     "5.2 6.0 6.1 7.0 7.5 8.0 8.6 9.0+PTX", "torch.arch_list_unknown", "TORCH_CUDA_ARCH_LIST"),
    # torch 1.3 on an RTX 3090: https://github.com/XPixelGroup/BasicSR/issues/354
    ("ValueError: Unknown CUDA arch (8.6) or GPU not supported\nHow can I solve this problem\n"
     "env: python3.7, pytorch1.3, RTX 3090, CUDA11.1", "torch.arch_list_unknown", "TORCH_CUDA_ARCH_LIST"),
    # torch 1.6 on an RTX 4090: https://github.com/yfeng95/DECA/issues/190
    ("GPU:RTX4090\nenv cuda toolkit:10.2\ntorch version:1.6.0\n\n"
     "error:ValueError: Unknown CUDA arch (8.9) or GPU not supported", "torch.arch_list_unknown",
     "TORCH_CUDA_ARCH_LIST"),
    # the raise in cpp_extension itself: https://github.com/CityU-AIM-Group/SIGMA/issues/40
    ('File "/home/hc/anaconda3/envs/SIGMA/lib/python3.7/site-packages/torch/utils/cpp_extension.py", line 1027, in '
     '_get_cuda_arch_flags\n    raise ValueError("Unknown CUDA arch ({}) or GPU not supported".format(arch))\n'
     'ValueError: Unknown CUDA arch (8.6) or GPU not supported', "torch.arch_list_unknown", "TORCH_CUDA_ARCH_LIST"),
    # --- torch's headers need a newer C++ standard than the build passes -------------------------------------
    # FoundationPose's own extension with torch 2.x: https://github.com/NVlabs/FoundationPose/issues/374
    ("        /opt/conda/envs/my/lib/python3.8/site-packages/torch/include/ATen/ATen.h:4:2: error: #error C++17 or "
     "later compatible compiler is required to use ATen.\n            4 | #error C++17 or later compatible compiler is "
     "required to use ATen.", "torch.extension_cxx_std", "-std=c++17"),
    # torch-ngp's gridencoder (-std=c++14) in LiveTalking: https://github.com/lipku/LiveTalking/issues/1
    ("                 from /root/AIGC/metahuman-stream/raymarching/src/bindings.cpp:1:\n"
     "/root/miniconda3/envs/py39/lib/python3.9/site-packages/torch/include/ATen/ATen.h:4:2: error: #error C++17 or "
     "later compatible compiler is required to use ATen.", "torch.extension_cxx_std", "-std=c++17"),
    # mmpretrain: https://github.com/open-mmlab/mmpretrain/issues/1840
    ("#error C++17 or later compatible compiler is required to use ATen.", "torch.extension_cxx_std", "-std=c++17"),
    # a C++ application on torch 1.x headers: https://github.com/jiexiong2016/GCNv2_SLAM/issues/47
    ("/home/gleb/pytorch/torch/include/torch/csrc/api/include/torch/all.h:4:2: error: #error C++14 or later "
     "compatible compiler is required to use PyTorch.", "torch.extension_cxx_std", "-std=c++14"),
    # gcc 4.8 (its default standard): https://github.com/KellyYutongHe/satellite-pixel-synthesis-pytorch/issues/4
    ("/export/home/kraj/anaconda3/envs/spsp/lib/python3.8/site-packages/torch/include/ATen/ATen.h:4:2: error: "
     "#error C++14 or later compatible compiler is required to use ATen.\n"
     "In file included from /usr/include/c++/4.8.2/mutex:35:0,", "torch.extension_cxx_std", "newer gcc"),

    # --- nvcc's host compiler targets another platform --------------------------------------------------------
    # cupy on Windows: https://github.com/xxyzz/WordDumb/issues/230
    ("command: ['C:\\\\Program', 'Files\\\\NVIDIA', 'GPU', 'Computing', 'Toolkit\\\\CUDA\\\\v12.1\\\\bin\\\\nvcc.EXE']\n"
     "tmpxft_000075f0_00000000-2.cpp\nnvcc fatal   : Host compiler targets unsupported OS.",
     "nvcc.host_compiler_wrong_target", "x64 Native Tools"),
    # a setup_cuda.py naming VC98 as the compiler: https://github.com/endernewton/tf-faster-rcnn/issues/504
    ('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.0\\bin\\nvcc.exe --compiler-bindir '
     '"D:\\Microsoft Visual Studio\\VC98\\bin" -c\ntmpxft_0000120c_00000000-1.cpp\n'
     'nvcc fatal   : Host compiler targets unsupported OS.', "nvcc.host_compiler_wrong_target", "x64 Native Tools"),
    # CMake's FindCUDA on Windows: https://github.com/zq-chen/ParaPano/issues/6
    ("nvcc fatal   : Host compiler targets unsupported OS.\nCMake Error at ParaPano_generated_cudaMatcher.cu.obj.cmake:220 "
     "(message):\n  Error generating\n  E:/ParaPano/build/CMakeFiles/ParaPano.dir//./ParaPano_generated_cudaMatcher.cu.obj",
     "nvcc.host_compiler_wrong_target", "x64 Native Tools"),
    # Linux with clang++ 3.4 as host (g++ fixed it): https://github.com/dmlc/cxxnet/issues/71
    ("nvcc -c -o layer_gpu.o --use_fast_math -g -O3 -ccbin clang++  --std=c++11 src/layer/layer_impl.cu\n"
     "nvcc fatal   : Host compiler targets unsupported OS.\nmake: *** [layer_gpu.o] Error 1",
     "nvcc.host_compiler_wrong_target", "-ccbin /usr/bin/g++"),
    # --- CMake's find_package(Torch) -------------------------------------------------------------------------------
    # libtorch with a relative prefix (an absolute one fixed it): https://github.com/iamhankai/cpp-pytorch/issues/1
    ('CMake Error at CMakeLists.txt:18 (find_package):\n  By not providing "FindTorch.cmake" in CMAKE_MODULE_PATH this '
     'project has\n  asked CMake to find a package configuration file provided by "Torch", but\n  CMake did not find one.'
     '\n\n  Could not find a package configuration file provided by "Torch" with any of\n  the following names:\n\n'
     '    TorchConfig.cmake\n    torch-config.cmake', "cmake.torch_config_not_found", "CMAKE_PREFIX_PATH"),
    # a conda PyTorch instead of libtorch: https://github.com/pytorch/pytorch/issues/29525
    ('    CMake Error at CMakeLists.txt:6 (find_package):\n      By not providing "FindTorch.cmake" in CMAKE_MODULE_PATH '
     'this project has\n      asked CMake to find a package configuration file provided by "Torch", but\n'
     '      CMake did not find one.', "cmake.torch_config_not_found", "CMAKE_PREFIX_PATH"),
    # the forum's curly quotes: https://github.com/pytorch/pytorch/issues/44362
    ("Could not find a package configuration file provided by \u201cTorch\u201d with any of\nthe following names:",
     "cmake.torch_config_not_found", "CMAKE_PREFIX_PATH"),

    # --- Thrust and a foreign CUB ---------------------------------------------------------------------------------
    # nvbio with CUDA 11.3: https://github.com/NVlabs/nvbio/issues/41
    ("/usr/local/cuda-11.3/include/thrust/system/cuda/config.h:78:2: error: #error The version of CUB in your include "
     "path is not compatible with this release of Thrust. CUB is now included in the CUDA Toolkit, so you no longer "
     "need to use your own checkout of CUB. Define THRUST_IGNORE_CUB_VERSION_CHECK to ignore this.",
     "build.cub_version_mismatch", "THRUST_IGNORE_CUB_VERSION_CHECK"),
    # pytorch3d with CUB_HOME on Windows (MSVC's wording): https://github.com/facebookresearch/pytorch3d/issues/1123
    ("C:/Users/Joseph/.conda/envs/adnerf/Library/include\\thrust/system/cuda/config.h(78): fatal error C1189: #error:  "
     "The version of CUB in your include path is not compatible with this release of Thrust. CUB is now included in "
     "the CUDA Toolkit, so you no longer need to use your own checkout of CUB.", "build.cub_version_mismatch",
     "CUB_HOME"),
    # k2 downloading CUB for CUDA 11.0: https://github.com/k2-fsa/k2/issues/582
    ("/usr/local/cuda-11.0/bin/../targets/x86_64-linux/include/thrust/system/cuda/config.h:78:2: error: #error The "
     "version of CUB in your include path is not compatible with this release of Thrust.", "build.cub_version_mismatch",
     "CUB_HOME"),

    # --- no MSVC for a Windows pip build ----------------------------------------------------------------------------
    # pycuda: https://github.com/GVCLab/PersonaLive/issues/30
    ("      building '_driver' extension\n      error: Microsoft Visual C++ 14.0 or greater is required. Get it with "
     "\"Microsoft C++ Build Tools\": https://visualstudio.microsoft.com/visual-cpp-build-tools/\n      [end of output]",
     "msvc.build_tools_missing", "Desktop development with C++"),
    # the older wording: https://github.com/fizyr/keras-retinanet/issues/606
    ("error: Microsoft Visual C++ 14.0 is required. Get it with \"Microsoft Visual C++ Build Tools\": "
     "http://landinghub.visualstudio.com/visual-cpp-build-tools", "msvc.build_tools_missing",
     "Desktop development with C++"),
    # setuptools' exception name: https://github.com/CITCOM-project/CausalTestingFramework/issues/41
    ("      setuptools._distutils.errors.DistutilsPlatformError: Microsoft Visual C++ 14.0 or greater is required. Get "
     "it with \"Microsoft C++ Build Tools\": https://visualstudio.microsoft.com/visual-cpp-build-tools/",
     "msvc.build_tools_missing", "Desktop development with C++"),
    # --- widened: CMake's "is not able to compile a simple test program" -------------------------------------
    # DeepLM (PATH to nvcc and a fresh cache fixed it): https://github.com/hjwdzh/DeepLM/issues/3
    ("-- The CUDA compiler identification is unknown\n-- Check for working CUDA compiler: /opt/tiger/cuda/bin/nvcc\n"
     "-- Check for working CUDA compiler: /opt/tiger/cuda/bin/nvcc -- broken\n"
     "CMake Error at /usr/share/cmake-3.16/Modules/CMakeTestCUDACompiler.cmake:46 (message):\n  The CUDA compiler\n\n"
     '    "/opt/tiger/cuda/bin/nvcc"\n\n  is not able to compile a simple test program.',
     "cmake.cuda_compiler_id_failed", "CMakeCache.txt"),
    # the distribution's /usr/bin/nvcc: https://github.com/negativo17/cuda/issues/9
    ("-- Check for working CUDA compiler: /usr/bin/nvcc -- broken\n"
     "CMake Error at /usr/share/cmake/Modules/CMakeTestCUDACompiler.cmake:46 (message):\n  The CUDA compiler\n\n"
     '    "/usr/bin/nvcc"\n\n  is not able to compile a simple test program.', "cmake.cuda_compiler_id_failed",
     "cudaenv use"),

    # --- double atomicAdd compiled for an architecture below sm_60 ----------------------------------------------
    # CSR5 with -gencode compute_52: https://github.com/weifengliu-ssslab/Benchmark_SpMV_using_CSR5/issues/9
    ("nvcc -O3  -w -m64 -gencode=arch=compute_52,code=sm_52 -gencode=arch=compute_52,code=compute_52 main.cu -o spmv\n"
     'detail/cuda/csr5_spmv_cuda.h(352): error: no instance of overloaded function "atomicAdd" matches the argument list'
     "\n            argument types are: (double *, double)", "build.arch_below_sm60_atomicadd", "-arch=sm_"),
    # gunrock with SM50 targets: https://github.com/gunrock/gunrock/issues/460
    ('error: no instance of overloaded function "atomicAdd" matches the argument list\n'
     "            argument types are: (double *, double)", "build.arch_below_sm60_atomicadd", "-arch=sm_"),
    # tandem through CMake (const double): https://github.com/tum-vision/tandem/issues/11
    ("[  3%] Building CUDA object libdr/cuda_coarse_tracker/CMakeFiles/cuda_coarse_tracker.dir/src/"
     "cuda_coarse_tracker_private.cu.o\n/tDisk-1/workspace/bigtree/workspace/slam/tandem/tandem/libdr/cuda_coarse_tracker/"
     'src/cuda_coarse_tracker_private.cu(355): error: no instance of overloaded function "atomicAdd" matches the '
     "argument list\n            argument types are: (double *, const double)", "build.arch_below_sm60_atomicadd",
     "-arch=sm_"),
    # DCNv2 for PyTorch 0.4: https://github.com/CharlesShang/DCNv2/issues/5
    ('dcn_v2_im2col_cuda_double.cu(248): error: no instance of overloaded function "atomicAdd" matches the argument list\n'
     "            argument types are: (double *, double)\n\n1 error detected in the compilation of "
     '"/tmp/tmpxft_00002005_00000000-5_dcn_v2_im2col_cuda_double.cpp4.ii".', "build.arch_below_sm60_atomicadd",
     "-arch=sm_"),
    # --- nvcc cannot write its temporary files -------------------------------------------------------------------
    # Windows TEMP holding a list: https://github.com/AlexeyAB/darknet/issues/606
    ("always warn \"nvcc fatal : could not open out put file ' C:\\Users\\info_dell7810\\AppData\\Local\\Temp; "
     "C\\Program Files\\NVIDIA GPU Computing Tookit\\CUDA\\v8.0\\bin;/tmpxft_000025a8_00000000'\"".replace(
         "could not open out put", "Could not open output"), "nvcc.tmpdir_unusable", "set TEMP="),
    # the same through CMake and Visual Studio: https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/1584
    ("1>nvcc fatal   : Could not open output file 'C:\\Users\\Ankush\\AppData\\Local\\Temp;C:\\Program Files\\Java\\"
     "jdk-11.0.1\\bin;/tmpxft_0000266c_00000000'\n1>CMake Error at openpose_generated_renderFace.cu.obj.Debug.cmake:220 "
     "(message):", "nvcc.tmpdir_unusable", "set TEMP="),
    # fatbinary's wording, LAMMPS: https://github.com/lammps/lammps/issues/1887
    ("fatbinary fatal   : Could not write file '/tmp/tmpxft_0001930a_00000000-2_scan_app.fatbin.c'\n"
     "CMake Error at cuda_compile_2_generated_scan_app.cu.o.RelWithDebInfo.cmake:279 (message):",
     "nvcc.tmpdir_unusable", "TMPDIR"),
    # nvcc_wrapper's temporary directory: https://github.com/kokkos/kokkos/pull/4522
    ("    nvcc fatal   : Could not open output file 'x/tmpxft_00012b96_0000000a'\n"
     "    gmake[1]: *** [CMakeFiles/cmTC_f86d4.dir/testCXXCompiler.cxx.o] Error 1", "nvcc.tmpdir_unusable", "TMPDIR"),

    # --- options nvcc does not know -------------------------------------------------------------------------------
    # llama.cpp's CMake passing CXX flags to nvcc: https://github.com/ggml-org/llama.cpp/issues/5542
    ("\tCompiler exited with error code 1: /usr/local/cuda/bin/nvcc -DGGML_USE_CUBLAS -O3 -DNDEBUG -std=c++11 -Wall -Wextra "
     "-use_fast_math --dryrun /tmp/compiler-file17262593416218535232.cu\n\tnvcc fatal   : Unknown option '-Wall'",
     "nvcc.unknown_option", "-Xcompiler"),
    # a sonar plugin's CMake: https://github.com/Field-Robotics-Lab/nps_uw_multibeam_sonar/issues/47
    ("nvcc warning : incompatible redefinition for option 'std', the last value of this option was used\n"
     "nvcc fatal   : Unknown option '-fPIC'", "nvcc.unknown_option", "-Xcompiler"),
    # scons handing -fPIC to nvcc: https://github.com/ahay/src/issues/189
    ("nvcc -o build/api/python/m8r_wrap.os -c -O2 -fPIC -Ibuild/include build/api/python/m8r_wrap.c\n"
     "nvcc fatal   : Unknown option 'fPIC'\nscons: *** [build/api/python/m8r_wrap.os] Error 1",
     "nvcc.unknown_option", "-Xcompiler"),
    # a linker flag from conda's LDFLAGS: https://github.com/NTHU-LSALAB/Gemini/issues/5
    ("-Wl,-O2 -Wl,--sort-common -Wl,--as-needed -o libgemhook.so.1\nnvcc fatal   : Unknown option 'Wl,-O2'\n"
     "Makefile:64: recipe for target 'libgemhook.so.1' failed", "nvcc.unknown_option", "-Xcompiler"),
    # an nvcc older than the build: https://github.com/ggml-org/llama.cpp/issues/1404 (title)
    ("Unable to make LLAMA_CUBLAS=1 Unknown option forward-unknown-to-host-compiler\n"
     "nvcc fatal   : Unknown option '-forward-unknown-to-host-compiler'", "nvcc.unknown_option", "cudaenv use"),
    # torch's ninja build with nvcc 10 (11 works): https://github.com/levihsu/OOTDiffusion/issues/65
    ("\u7f16\u8bd1\u62a5\u9519 nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
     "nvcc.unknown_option", "cudaenv use --match-torch"),
]


test_compiler_families_from_real_threads = first_answer_tests(CASES)


def test_torch_build_with_cuda_12_gets_the_container_fix_first():
    """glibc 2.41 with a torch built for CUDA 12: CUDA 13 alone is no fix (torch needs its major)."""
    text = ("torch 2.7.1+cu128\n" + CASES[0][0])
    m = [m for m in explain(text) if m.environment][0]
    assert m.id == "nvcc.glibc_c23_math"
    assert "container" in m.fix.splitlines()[0]


def test_the_deprecated_architecture_warning_is_not_a_cause():
    """nvcc's warning about deprecated targets is not an error: nothing from this layer claims it."""
    text = ("nvcc warning : The 'compute_35', 'compute_37', 'sm_35', and 'sm_37' architectures are deprecated, "
            "and may be removed in a future release (Use -Wno-deprecated-gpu-targets to suppress warning).")
    assert not [m.id for m in explain(text) if m.environment and m.id.startswith(("cmake.", "clang.", "build.python"))]


def test_fresh3_opencv_dep_cudart_miss_is_answered():
    """The burned fresh3 set's -lopencv_dep_cudart miss (CudaSift), now answered by its family."""
    import os

    from test_explain import CORPUS_DIR, assert_answered_by_cause

    assert_answered_by_cause(os.path.join(CORPUS_DIR, "fresh3", "703-lcudart-static-cudasift-opencv-dep.log"),
                             "cmake.opencv_dep_cudart", "CUDA_USE_STATIC_CUDA_RUNTIME=OFF")
