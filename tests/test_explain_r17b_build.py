"""Round 17b (census of fresh17's build-side misses): the misses whose cause the knowledge base already had, answered
now (K-wording: the producer's own words; K-order: the log's fact that puts the thread's fix first), and new families
(N-family) found on three or more projects.

- K-wording: darknet's "CUDA Error: invalid device function" (its build's ARCH); libgpuarray's `Could not load
  "nvrtc64_70.dll"` (CUDA's bin on PATH); CMake 3.17's "FindCUDA::cublasLt" (a newer CMake); ldd's "libcudart.so.10.0
  => not found" for a distribution's package after its CUDA moved on (the rebuilt package).
- K-order: gcc 5's mwaitxintrin.h under CUDA 7.5, a pair past 7.5's limit: a newer CUDA first.

Excerpts are verbatim (trimmed) from the threads named above them."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- darknet's check_error: the build's architecture setting --------------------------------------------------------
    # https://github.com/pjreddie/darknet/issues/686 (fresh17 q38: GT 630M, compute_50 -> compute_20 worked)
    ("But when I try to use GPU (NVIDIA GeForce GT 630M, 2GB) I have error:\nCUDA Error: invalid device function\n"
     "CUDA Error: invalid device function: No error\n",
     "runtime.no_kernel_image", "Set the build's architecture to this GPU's compute capability"),
    # https://github.com/digitalbrain79/pyyolo/issues/15 (darknet inside a Python wrapper; darknet's ARCH)
    ("----- test original C using a file\nCUDA Error: invalid device function\n"
     "python: ./darknet/src/cuda.c:36: check_error: Assertion `0' failed.\nAborted (core dumped)\n",
     "runtime.no_kernel_image", "darknet's Makefile"),
    # https://github.com/laugh12321/TensorRT-YOLO/issues/74 (CMAKE_CUDA_ARCHITECTURES 89 on another GPU)
    ("CUDA Error:\n    File:       TensorRT-YOLO/source/deploy/vision/inference.cpp\n    Line:       558\n"
     "    Error code: 98\n    Error text: invalid device function\n[I] Infering data in images\n",
     "runtime.no_kernel_image", "-DCMAKE_CUDA_ARCHITECTURES"),
    # guard: torch's own message keeps torch's answer (no darknet build in the log)
    ("Traceback (most recent call last):\n  File \"train.py\", line 10, in <module>\n    x = torch.zeros(3).cuda()\n"
     "RuntimeError: CUDA error: invalid device function\n",
     "runtime.no_kernel_image", "Get a build of the program that failed"),
    # -- libgpuarray's DLL loader on Windows -----------------------------------------------------------------------------
    # https://github.com/Theano/libgpuarray/issues/562 (fresh17 q68: only CUDA_PATH set; CUDA's bin on PATH fixed it)
    ("  File \"pygpu\\gpuarray.pyx\", line 587, in pygpu.gpuarray.pygpu_init\n"
     "pygpu.gpuarray.GpuArrayException: b'Could not load \"nvrtc64_70.dll\": The specified module could not be "
     "found.\\r\\n'\n",
     "loader.windows_cuda_dll_not_found", "put that bin on PATH"),
    # https://github.com/Theano/libgpuarray/issues/472 (nvrtc64_90.dll asked for, CUDA 8.0's nvrtc64_80.dll installed)
    ("  File \"pygpu\\gpuarray.pyx\", line 1057, in pygpu.gpuarray.GpuContext.__cinit__ (pygpu/gpuarray.c:13429)\n"
     "GpuArrayException: Could not load \"nvrtc64_90.dll\": Le module spécifié est introuvable.\n",
     "loader.windows_cuda_dll_not_found", "if the bin holds another nvrtc64_NN"),
    # -- CMake 3.17's FindCUDAToolkit without CUDA::cublasLt --------------------------------------------------------------
    # https://github.com/ggml-org/llama.cpp/issues/1078 (fresh17 q11: CMake 3.17.5; 3.26.3 configured)
    ("CMake Error at CMakeLists.txt:317 (add_library):\n  Target \"llama\" links to target \"FindCUDA::cublasLt\" but "
     "the target was not\n  found.  Perhaps a find_package() call is missing for an IMPORTED target, or\n"
     "  an ALIAS target is missing?\n",
     "cmake.too_old_for_cuda", "Use a newer CMake"),
    # -- a distribution's package built against the CUDA it had before an update -----------------------------------------
    # https://github.com/arch4edu/arch4edu/issues/24 (fresh17 q72: the packager rebuilt mxnet against CUDA 10.1)
    ("mxnet 1.4.0-1.1, cuda 10.1.105-6. `ldd /usr/lib/python3.7/site-packages/mxnet/libmxnet.so|grep found` gives me:\n"
     "```\n\tlibcudart.so.10.0 => not found\n\tlibcublas.so.10.0 => not found\n```\n"
     "It seems that cuda is updated, and mxnet needs to be rebuilt.\n",
     "runtime.libcudart_not_found", "Update that package to a build made against the CUDA installed now"),
    # https://github.com/arch4edu/arch4edu/issues/220 (python-cupy from the repository asks for CUDA 11's runtime)
    ("  File \"/usr/lib/python3.10/site-packages/cupy/cuda/__init__.py\", line 8, in <module>\n"
     "    from cupy.cuda import compiler  # NOQA\n"
     "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
     "runtime.libcudart_not_found", "Update that package"),
    # guard: a pip-installed package in a venv keeps its own answer
    ("  File \"/home/u/venv/lib/python3.10/site-packages/cupy/__init__.py\", line 18, in <module>\n"
     "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
     "runtime.libcudart_not_found", "pip install \"cupy-cuda11x[ctk]\""),
    # -- gcc 5's mwaitxintrin.h under CUDA 7.5 (gcc 4.9 at most) ----------------------------------------------------------
    # https://github.com/NVIDIA/AMGX/issues/9 (fresh17 q70: the maintainer asked for CUDA 9.0+, 9.1 got past it)
    ("Ubuntu 16.04,\ngcc, g++, 5.4.0\ncuda 7.5\n\nCompilation fails at 4%:\n"
     "[  4%] Building NVCC (Device) object base/CMakeFiles/amgx_base.dir/src/energymin/interpolators/"
     "amgx_base_generated_em_interpolator.cu.o\n/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: "
     "identifier \"__builtin_ia32_monitorx\" is undefined\n",
     "nvcc.host_headers_unsupported", "Use a newer CUDA made for gcc 5"),
    # https://github.com/apache/mxnet/issues/3298 ("CUDA7.5 does not support gcc-5 ... CUDA8.0rc")
    ("`/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(42): error: identifier \"__builtin_ia32_mwaitx\" is "
     "undefined\n/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier "
     "\"__builtin_ia32_monitorx\" is undefined\n`\nmy PC Ubuntu: CUDA7.5 cudnn 5.1.3 gcc5.4 gtx960\n",
     "nvcc.host_headers_unsupported", "Use a newer CUDA made for gcc 5"),
    # no CUDA in the log: [sw27 sw27-build] the header fails only in an nvcc older than the gcc, so a newer CUDA leads
    # here too (simonmeister/UnFlow#21, amazon-archives/amazon-dsstne#28); the flag (Xtra-Computing/thundersvm#34) is
    # the second line, tests/test_explain_sw27_build.py
    ("/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier \"__builtin_ia32_monitorx\" is "
     "undefined\n/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(42): error: identifier \"__builtin_ia32_mwaitx\" "
     "is undefined\n",
     "nvcc.host_headers_unsupported", "Build with a newer CUDA made for this gcc"),
    # -- N-family: libtinfo's development package (LLVM's link flags carry -ltinfo) -----------------------------------------
    # https://github.com/triton-lang/triton/issues/171 (fresh17 q02: `apt install llvm` made the build work)
    ("    [100%] Linking CXX shared library ../../triton/_C/libtriton.so\n    /usr/bin/ld: cannot find -ltinfo\n"
     "    collect2: error: ld returned 1 exit status\n",
     "link.libtinfo_missing", "sudo apt-get install llvm libtinfo-dev"),
    # https://github.com/hughperkins/coriander/issues/57 ("sudo apt-get install libtinfo-dev")
    ("During installation (running install_distro.py) I get the following error:\n/usr/bin/ld: cannot find -ltinfo\n"
     "collect2: error: ld returned 1 exit status\n",
     "link.libtinfo_missing", "libtinfo-dev"),
    # https://github.com/joeroback/atom-clang/issues/27 (Fedora 25: ncurses-devel)
    ("Installing on Fedora 25, after resolving some other installer errors due to required packages you mentioned, I got "
     "this error:\n\n`/usr/bin/ld: cannot find -ltinfo`\n",
     "link.libtinfo_missing", "ncurses-devel"),
    # -- N-family: the NVCUVID headers CUDA 10 stopped shipping ----------------------------------------------------------------
    # https://github.com/opencv/opencv_contrib/issues/1786 (fresh17 q07: the Video Codec SDK's headers)
    ("/home/achal/achal/tools/opencv_contrib/modules/cudacodec/src/precomp.hpp:60:18: fatal error: dynlink_nvcuvid.h: No "
     "such file or directory\n         #include <dynlink_nvcuvid.h>\n                  ^~~~~~~~~~~~~~~~~~~\n"
     "compilation terminated.\n",
     "build.nvcuvid_header_missing", "Install the Video Codec SDK's headers"),
    # https://github.com/opencv/opencv/issues/17559 (OpenCV 3.4.10 with CUDA 10.1: nvcuvid.h)
    ("/home/lph/opencv-3.4.10/modules/cudacodec/src/precomp.hpp:62:18: fatal error: nvcuvid.h: No such file or "
     "directory\n         #include <nvcuvid.h>\n",
     "build.nvcuvid_header_missing", "copy its Interface/nvcuvid.h and cuviddec.h"),
    # https://github.com/opencv/opencv/issues/9544 (Visual Studio's wording)
    ("Error C1083\nCannot open include file: 'dynlink_nvcuvid.h': No such file or directory\nopencv_cudacodec\t"
     "opencv-master\\modules\\cudacodec\\src\\precomp.hpp\t59\n",
     "build.nvcuvid_header_missing", "Video Codec SDK"),
    # -- N-family: a prebuilt library of another CPU architecture ----------------------------------------------------------
    # https://github.com/NVlabs/nvbitfi/issues/2 (fresh17 q06: NVBit's aarch64 release on a Jetson Nano)
    ("Hello, I'm an engineering student trying to run this benchmark on a Jetson Nano.\n"
     "> /usr/bin/ld: skipping incompatible ../../../core/libnvbit.a when searching for -lnvbit\n"
     "> /usr/bin/ld: cannot find -lnvbit\n> collect2: error: ld returned 1 exit status\n",
     "link.library_other_cpu_arch", "built for this machine's CPU"),
    # https://github.com/mdk97/aitrack-linux/issues/8 (onnxruntime-linux-x64 on a Jetson AGX Xavier)
    ("> /usr/bin/ld: skipping incompatible onnxruntime-linux-x64-1.4.0/lib/libonnxruntime.so when searching for "
     "-lonnxruntime\n> /usr/bin/ld: cannot find -lonnxruntime\n> collect2: error: ld returned 1 exit status\n",
     "link.library_other_cpu_arch", "uname -m"),
    # https://github.com/DoosanRobotics/doosan-robot/issues/22 (an x86_64 libDRFL.a on a TX2)
    ("/usr/bin/ld: skipping incompatible /home/nvidia/arm_ws/src/doosan-robot/dsr_control/../common/lib/kinetic/x86_64/"
     "libDRFL.a when searching for -lDRFL\n/usr/bin/ld: cannot find -lDRFL\ncollect2: error: ld returned 1 exit status\n",
     "link.library_other_cpu_arch", "file /home/nvidia"),
    # -- onnxruntime's CUDA provider in a native Windows build ------------------------------------------------------------
    # https://github.com/NVIDIA/ProViz-AI-Samples/issues/5 (fresh17 q33: cuDNN installed and on PATH)
    ("D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1193 onnxruntime::ProviderLibrary::Get "
     "[ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load "
     "\"C:\\Users\\username\\Documents\\ProViz-AI-Samples\\build\\cuda_provider\\Debug\\onnxruntime_providers_cuda.dll\"\n\n"
     "I have CUDA 11.8 toolkit which is compatible with the onnxruntime version that this project uses. I also used Visual "
     "Studio Professional 2022 Release - amd64, and more specifically `MSBuild version 17.8.5` to configure and build the "
     "project.\n",
     "loader.ort_cuda_provider_failed", "or copy their DLLs next to the program's .exe"),
    # guard: a Python program on Windows keeps the wheels first (ComfyUI's embedded Python)
    ("2024-08-26 21:04:38.1970389 [E:onnxruntime:Default, provider_bridge_ort.cc:1992 onnxruntime::TryGetProviderInfo_CUDA] "
     "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1637 onnxruntime::ProviderLibrary::Get "
     "[ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load "
     "\"C:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n",
     "loader.ort_cuda_provider_failed", "onnxruntime-gpu[cuda,cudnn]"),
]

test_first_answer = first_answer_tests(CASES)

# Program bugs near the new patterns stay unclaimed.
NEGATIVES = [
    # a program's own undefined symbol beside a skipped 32-bit libc is not a library of another architecture
    "/usr/bin/ld: skipping incompatible /usr/lib/libc.so when searching for -lc\nmain.o: In function `main':\n"
    "main.c:(.text+0x5): undefined reference to `my_helper'\ncollect2: error: ld returned 1 exit status\n",
    "darknet: ./src/parser.c:1342: load_weights_upto: Assertion `fp' failed.\nCouldn't open file: yolov3.weights\n",
    "CUDA Error: an illegal memory access was encountered\ndarknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_program_bugs_stay_unclaimed(text: str) -> None:
    assert not [m.id for m in explain(text) if m.environment], [m.id for m in explain(text)]
