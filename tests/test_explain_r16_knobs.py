"""Round 16 (after fresh15), the build's own knob: the first fix names the setting or the file the log itself shows,
rather than a generic toolkit switch.

- An exact CUDA version asked for by ANOTHER package's CMake config (FindCUDA's "Found unsuitable version "8.0", but
  required is exact version "7.5""): the Call Stack names the *Config.cmake that asks (OpenCV's OpenCVConfig.cmake runs
  find_host_package(CUDA <the CUDA OpenCV was built with> EXACT)); that package is rebuilt, replaced or left out, the
  toolkit stays (derive.py `gate_demander`). Without a Call Stack the first line says how to find the package that
  asks; a Call Stack from FindCUDA straight to the project's CMakeLists.txt is the project's own demand.
- A host compiler nvcc is told to run by path or version (-ccbin, --compiler-bindir, nvcc.profile, NVCC_CCBIN,
  CUDAHOSTCXX) that does not exist: the setting is pointed at an existing compiler, not build-essential installed.
- An architecture with no number ('compute_', 'compute_N' from "None"): the build's own architecture knob came out
  empty because what computes it saw no GPU; it is set to the GPU's number, not another toolkit.

Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

_STACK = ("Call Stack (most recent call first):\n"
          "  /usr/share/cmake-3.5/Modules/FindPackageHandleStandardArgs.cmake:386 (_FPHSA_FAILURE_MESSAGE)\n"
          "  /usr/share/cmake-3.5/Modules/FindCUDA.cmake:949 (find_package_handle_standard_args)\n")

CASES = [
    # -- an exact CUDA from another package's CMake config: that package changes -------------------------------------
    # https://github.com/facebookarchive/caffe2/issues/562 (fresh15 n12: "sudo rm -rf /usr/local/share/OpenCV";
    # maintainer: "caused by a custom OpenCV version")
    ("i have cuda-8.0 installed on my machine but it says found unsuitable cuda-8.0 but required 7.5.\n\n"
     "CMake Error at /usr/share/cmake-3.5/Modules/FindPackageHandleStandardArgs.cmake:148 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "8.0", but required is exact\n'
     '  version "7.5" (found /usr/local/cuda-8.0)\n' + _STACK +
     "  /usr/local/share/OpenCV/OpenCVConfig.cmake:86 (find_package)\n"
     "  /usr/local/share/OpenCV/OpenCVConfig.cmake:105 (find_host_package)\n"
     "  cmake/Dependencies.cmake:164 (find_package)\n  CMakeLists.txt:82 (include)\n\n"
     "-- Configuring incomplete, errors occurred!\n",
     "build.project_cuda_version_gate", "delete /usr/local/share/OpenCV"),
    # https://github.com/lhk/darknet_wrapper/issues/1 (maintainer: "In the CMakeLists.txt, cuda is required, but there
    # is no restriction on the version")
    ("CMake Error at /usr/share/cmake-3.5/Modules/FindPackageHandleStandardArgs.cmake:148 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "8.0", but required is exact\n'
     '  version "7.5" (found /usr/local/cuda-8.0)\n' + _STACK +
     "  /usr/local/share/OpenCV/OpenCVConfig.cmake:48 (find_package)\n"
     "  /usr/local/share/OpenCV/OpenCVConfig.cmake:291 (find_host_package)\n"
     "  CMakeLists.txt:8 (find_package)\n",
     "build.project_cuda_version_gate", "Change the OpenCV that asks, not the toolkit"),
    # https://github.com/NVIDIA/nvvl/issues/3 (maintainer: "OpenCV's installed cmake files that are looking for the
    # specific CUDA 9.1 version ... an option to disable even looking for it"; pip's cmake module path)
    ("CMake Error at /home/daniel_d_kang/.virtualenvs/fd/lib/python3.5/site-packages/cmake/data/share/cmake-3.10/Modules/"
     "FindPackageHandleStandardArgs.cmake:137 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "9.0", but required is exact\n'
     '  version "9.1" (found /usr/local/cuda)\nCall Stack (most recent call first):\n'
     "  /home/daniel_d_kang/.virtualenvs/fd/lib/python3.5/site-packages/cmake/data/share/cmake-3.10/Modules/"
     "FindPackageHandleStandardArgs.cmake:376 (_FPHSA_FAILURE_MESSAGE)\n"
     "  /home/daniel_d_kang/.virtualenvs/fd/lib/python3.5/site-packages/cmake/data/share/cmake-3.10/Modules/"
     "FindCUDA.cmake:1080 (find_package_handle_standard_args)\n"
     "  /usr/local/share/OpenCV/OpenCVConfig.cmake:86 (find_package)\n"
     "  /usr/local/share/OpenCV/OpenCVConfig.cmake:105 (find_host_package)\n"
     "  doc/examples/CMakeLists.txt:7 (find_package)\n",
     "build.project_cuda_version_gate", "configure it with its option for OpenCV off"),
    # https://github.com/opencv/opencv/issues/15245 (the OpenCV build recorded 10.1 while 10.0 is installed: rebuilt
    # with -D CUDA_VERSION=10.0)
    ("CMake Error at /usr/local/share/cmake-3.15/Modules/FindPackageHandleStandardArgs.cmake:137 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "10.0", but required is exact\n'
     '  version "10.1" (found /usr/local/cuda)\nCall Stack (most recent call first):\n'
     "  /usr/local/share/cmake-3.15/Modules/FindPackageHandleStandardArgs.cmake:376 (_FPHSA_FAILURE_MESSAGE)\n"
     "  /usr/local/share/cmake-3.15/Modules/FindCUDA.cmake:1092 (find_package_handle_standard_args)\n"
     "  /usr/local/lib/cmake/opencv4/OpenCVConfig.cmake:86 (find_package)\n"
     "  /usr/local/lib/cmake/opencv4/OpenCVConfig.cmake:108 (find_host_package)\n"
     "  lib/zense/capture/CMakeLists.txt:7 (find_package)\n",
     "build.project_cuda_version_gate", "rebuild (or reinstall) OpenCV with CUDA 10.0"),
    # https://github.com/luigifreda/plvs/issues/28 (the project's own Thirdparty OpenCV: "I have tried switching cuda
    # versions and still get the same error")
    ("CMake Error at /home/cyl/opt/cmake-3.23.2/share/cmake-3.23/Modules/FindPackageHandleStandardArgs.cmake:230 "
     "(message):\n"
     '  Could NOT find CUDA: Found unsuitable version "12.0", but required is exact\n'
     '  version "11.0" (found /usr/local/cuda)\nCall Stack (most recent call first):\n'
     "  /home/cyl/opt/cmake-3.23.2/share/cmake-3.23/Modules/FindPackageHandleStandardArgs.cmake:592 "
     "(_FPHSA_FAILURE_MESSAGE)\n"
     "  /home/cyl/opt/cmake-3.23.2/share/cmake-3.23/Modules/FindCUDA.cmake:1264 (find_package_handle_standard_args)\n"
     "  /home/cyl/plvs-master/Thirdparty/opencv/install/lib/cmake/opencv4/OpenCVConfig.cmake:86 (find_package)\n"
     "  /home/cyl/plvs-master/Thirdparty/opencv/install/lib/cmake/opencv4/OpenCVConfig.cmake:108 (find_host_package)\n"
     "  CMakeLists.txt:40 (find_package)\n",
     "build.project_cuda_version_gate", "/home/cyl/plvs-master/Thirdparty/opencv/install/lib/cmake/opencv4"),
    # https://github.com/Tencent/ncnn/issues/3126 (the stack runs through glslang's CMakeLists.txt, OpenCV's config
    # below it)
    ("CMake Error at /usr/share/cmake-3.10/Modules/FindPackageHandleStandardArgs.cmake:137 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "11.0", but required is exact\n'
     '  version "10.0" (found /usr)\nCall Stack (most recent call first):\n'
     "  /usr/share/cmake-3.10/Modules/FindPackageHandleStandardArgs.cmake:376 (_FPHSA_FAILURE_MESSAGE)\n"
     "  /usr/share/cmake-3.10/Modules/FindCUDA.cmake:1080 (find_package_handle_standard_args)\n"
     "  glslang/CMakeLists.txt:233 (find_package)\n"
     "  /usr/local/lib/cmake/opencv4/OpenCVConfig.cmake:108 (find_host_package)\n"
     "  examples/CMakeLists.txt:10 (find_package)\n",
     "build.project_cuda_version_gate", "Change the OpenCV that asks"),
    # -- no Call Stack in the log: the first line says how to find the package that asks --------------------------------
    # https://github.com/fzi-forschungszentrum-informatik/gpu-voxels/issues/36 (fresh15 n07: "a problem with some other
    # FindScript (perhaps OpenCV) ... -DICMAKER_USE_PERCEPTION_PACKAGES=false"; "It works like a charm")
    ("I followed the documentation to compile the project. However, after trying to \"cmake ..\", an error occured.\n\n"
     "`CMake Error at /usr/share/cmake-2.8/Modules/FindPackageHandleStandardArgs.cmake:108 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "7.5", but required is exact\n'
     '  version "5.5" (found /usr/local/cuda)`\n',
     "build.project_cuda_version_gate", "with the project's option for it off"),
    # https://github.com/AlexeyAB/darknet/pull/7914 (a comment: "a dependency (opencv) which was built with cuda 11.3";
    # "After reinstalling OpenCV properly, Darknet was built")
    ('CMake said after configuration: "Could NOT find CUDA: Found unsuitable version "11.4", but required is exact\n'
     '  version "11.3" (found /usr/local/cuda-11.4). What to do, if I want to stay with cuda 11.4 ?\n',
     "build.project_cuda_version_gate", "rebuild (or reinstall) that package with CUDA 11.4"),
    # -- guards --------------------------------------------------------------------------------------------------------
    # the project's own find_package(CUDA 10.0 EXACT): the stack goes from FindCUDA to its CMakeLists.txt
    # (https://github.com/mosheliv/tensortrt-yolo-python-api/issues/8)
    ("CMake Error at /usr/share/cmake-3.16/Modules/FindPackageHandleStandardArgs.cmake:146 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "10.2", but required is exact\n'
     '  version "10.0" (found /usr/local/cuda)\nCall Stack (most recent call first):\n'
     "  /usr/share/cmake-3.16/Modules/FindPackageHandleStandardArgs.cmake:391 (_FPHSA_FAILURE_MESSAGE)\n"
     "  /usr/share/cmake-3.16/Modules/FindCUDA.cmake:1104 (find_package_handle_standard_args)\n"
     "  CMakeLists.txt:36 (find_package)\n\n-- Configuring incomplete, errors occurred!\n",
     "build.project_cuda_version_gate", "Use exactly CUDA 10.0, the version the project asks for"),
    # a vendor SDK's config (prebuilt for one CUDA) asking for a NEWER CUDA than the stale one found in /usr: the toolkit
    # side changes (https://github.com/stereolabs/zed-ros-wrapper/issues/229, fresh15 n08: delete the build folders)
    ("`CMake Error at /usr/share/cmake-3.5/Modules/FindPackageHandleStandardArgs.cmake:148 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "7.5", but required is exact\n'
     '  version "9.1" (found /usr)\n' + _STACK +
     "  /usr/local/zed/zed-config.cmake:42 (find_package)\n  zed_wrapper/CMakeLists.txt:22 (find_package)\n`\n\n"
     "However, I have installed CUDA 9.1 and don't know why it's saying I'm using 7.5...\n",
     "build.project_cuda_version_gate", "Use exactly CUDA 9.1"),
    # no Call Stack and a NEWER CUDA asked for than found: the toolkit found is the stale side (keeps its answer)
    ('Could NOT find CUDA: Found unsuitable version "7.5", but required is exact\n  version "9.1" (found /usr)\n',
     "build.project_cuda_version_gate", "Use exactly CUDA 9.1"),
    # a minimum ("at least") keeps its answer: https://github.com/stereolabs/zed-ros-wrapper/issues/801
    ('Could NOT find CUDA: Found unsuitable version "10.1", but required is at  least "11" (found /usr)\n',
     "build.project_cuda_version_gate", "-DCUDA_TOOLKIT_ROOT_DIR="),

    # -- an architecture with no number: the build's own knob came out empty, set it to the GPU's -----------------------
    # https://github.com/jkjung-avt/tensorrt_demos/issues/554 (maintainer: "gpu_cc.py fails to identify the model of GPU";
    # the Makefile spelled "None" letter by letter)
    ('"computes: N o n e\nNVCCFLAGS: -gencode arch=compute_N,code=[sm_N,compute_N] -gencode arch=compute_o,'
     'code=[sm_o,compute_o] -gencode arch=compute_n,code=[sm_n,compute_n] -gencode arch=compute_e,code=[sm_e,compute_e]\n'
     'nvcc -ccbin g++ -I"C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.1/include" -I"G:/test/TensorRT-8.2.4.2/'
     'include" -I"/usr/local/include" -I"plugin" -gencode arch=compute_N,code=[sm_N,compute_N] -Xcompiler -fPIC -c -o '
     "yolo_layer.o yolo_layer.cu\nnvcc fatal   : Unsupported gpu architecture 'compute_N'\n"
     "Makefile:43: recipe for target 'yolo_layer.o' failed\nmingw32-make: *** [yolo_layer.o] Error 1 \"\n"
     "My gpu is  RTX 3060. How to solve this problem?\n",
     "nvcc.unsupported_arch", "Set the build's architecture knob to the GPU's own number"),
    # https://github.com/ggml-org/llama.cpp/issues/18430 (a `docker build`: CMake's native detection printed "No CUDA
    # devices found." into the architecture; the lower-case wording of llama.cpp#18413's)
    ("21.79 [  5%] Built target llama-qwen2vl-cli\n22.85 [  5%] Built target xxhash\n"
     "29.49 [  5%] Building CXX object ggml/src/CMakeFiles/ggml-cpu.dir/ggml-cpu/ggml-cpu.cpp.o\n"
     "30.12 nvcc fatal   : Unsupported gpu architecture 'compute_No CUDA devices found.'\n",
     "build.gpu_autodetect_failed", "Name the architecture of the GPU you will run on"),
    # guard: CMake's own empty list keeps its answer (https://github.com/colmap/colmap/issues/1822: "if I change
    # CUDA_ARCHITECTURES=86, it works fine")
    ("CMake Error at /usr/share/cmake-3.22/Modules/CMakeDetermineCompilerId.cmake:726 (message):\n"
     '  Compiling the CUDA compiler identification source file\n  "CMakeCUDACompilerId.cu" failed.\n\n'
     "  Compiler: /usr/local/cuda/bin/nvcc\n\n  Build flags:\n\n"
     "  Id flags: --keep;--keep-dir;tmp;-gencode=arch=compute_,code=sm_ -v\n\n  The output was:\n\n  1\n\n"
     "  nvcc fatal : Unsupported gpu architecture 'compute_'\n",
     "nvcc.unsupported_arch", "Configure with the GPU's number instead of native"),
    # guard: a numbered architecture keeps the toolkit answer (CHONSPQX/modulated-deform-conv#12 style: CUDA 11.0, 3090)
    ("nvcc fatal   : Unsupported gpu architecture 'compute_86'\n"
     "error: command '/usr/local/cuda-11.0/bin/nvcc' failed with exit status 1\n",
     "nvcc.unsupported_arch", "compute_86 needs CUDA 11.1 or newer"),

    # -- a configured host compiler that does not exist: the setting, not build-essential -----------------------------
    # https://github.com/compiler-explorer/compiler-explorer/issues/8042 (fresh15 n04: -ccbin at an existing gcc, then
    # the site's nvcc configuration corrected)
    ("The host compiler for nvcc does not seem to exist anymore (`/opt/compiler-explorer/gcc-10.2.0/`), resulting in an "
     "error:\n\n```\nnvcc warning : Support for offline compilation for architectures prior to '<compute/sm/lto>_75' "
     "will be removed in a future release (Use -Wno-deprecated-gpu-targets to suppress warning).\n"
     "/opt/compiler-explorer/gcc-10.2.0/bin: No such file or directory\n"
     "nvcc fatal   : Failed to preprocess host compiler properties.\nCompiler returned: 1\n```\n",
     "nvcc.host_compiler_missing", "nvcc is told to use /opt/compiler-explorer/gcc-10.2.0/bin"),
    # https://github.com/ChristophReich1996/Cell-DETR/issues/13 ("solved by removing -ccbin=gcc-6.3.0")
    ("gcc-6.3.0: No such file or directory\nnvcc fatal   : Failed to preprocess host compiler properties.\n"
     "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1\n",
     "nvcc.host_compiler_missing", "drop the setting"),
    # https://github.com/nicolasavru/ppf-registration-spatial-hashing/issues/2 (the project's -ccbin names g++-5)
    ("/usr/bin/g++-5: No such file or directory\nnvcc fatal   : Failed to preprocess host compiler properties.\n",
     "nvcc.host_compiler_missing", "find the setting that names it"),
    # guard: the plain name nvcc looks up on PATH is a missing compiler (NVlabs/DeepIM-PyTorch#7)
    ("-gencode=arch=compute_86,code=compute_86 -gencode=arch=compute_86,code=sm_86 -std=c++14\n"
     "gcc: No such file or directory\nnvcc fatal   : Failed to preprocess host compiler properties.\n"
     "error: command '/usr/bin/nvcc' failed with exit status 1\n",
     "nvcc.host_compiler_missing", "Install the C++ compiler"),
]

test_first_answer = first_answer_tests(CASES)


def test_program_bug_stays_unclaimed() -> None:
    """A device-side assert beside a CMake configure line is still no environment cause."""
    text = ("-- Configuring done\n"
            "/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
            "thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
            "RuntimeError: CUDA error: device-side assert triggered\n")
    assert not [m.id for m in explain(text) if m.environment]
