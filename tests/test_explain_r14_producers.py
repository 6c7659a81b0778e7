"""Round 14, producers: a tool that finds a CUDA part through its OWN setting is answered with that setting first
(knowledge/producers.yaml: OpenMM's OPENMM_CUDA_COMPILER, onnxruntime's --cudnn_home/--cuda_home, TensorRT's OSS
TRT_LIB_DIR and onnx-tensorrt's TENSORRT_ROOT), and a producer's own version gate (Rust's cudarc: "Unsupported cuda
toolkit version") is answered as "this release does not know that CUDA". Excerpts are verbatim (trimmed) from the
threads named above them; guards keep near-miss wordings on their answers."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- OpenMM runs nvcc at OPENMM_CUDA_COMPILER, default /usr/local/cuda/bin/nvcc; CUDA_HOME is not read --------
    # https://github.com/openmm/openmm/issues/1352 (the burned fresh13 h64: OPENMM_CUDA_COMPILER fixed it)
    ("    this = _openmm.new_Context(*args)\n"
     "Exception: Error launching CUDA compiler: 32512\n"
     "sh: /usr/local/cuda/bin/nvcc: No such file or directory\n",
     "torch.nvcc_not_found", "export OPENMM_CUDA_COMPILER="),
    # https://github.com/openmm/openmm/issues/2851 (Arch's toolkit under /opt; "export OPENMM_CUDA_COMPILER=/opt/cud...")
    ("OpenMM Version: 7.4.2\n"
     "3 CUDA - Error computing forces with CUDA platform\n"
     "CUDA platform error: Error launching CUDA compiler: 32512\n"
     "sh: /usr/local/cuda/bin/nvcc: No such file or directory\n"
     "The problem seems to be that for default OPENMM is looking for\n"
     '"/usr/local/cuda/bin/nvcc".',
     "torch.nvcc_not_found", "OPENMM_CUDA_COMPILER"),
    # https://github.com/openmm/openmm/issues/2954 ("when I defined that variable and then recompiled OpenMM, the CUDA
    # tests worked"); the nvcc the user gave CMake is the one to name
    ("CUDA_NVCC_EXECUTABLE             /software/repo/cuda/cuda-10.1/bin/nvcc\n"
     "$ ./TestCudaLangevinIntegrator \n"
     "exception: Error launching CUDA compiler: 32512\n"
     "sh: 1: /usr/local/cuda/bin/nvcc: not found",
     "torch.nvcc_not_found", "export OPENMM_CUDA_COMPILER=/software/repo/cuda/cuda-10.1/bin/nvcc"),
    # https://github.com/openmm/openmm/issues/2779 (`export OPENMM_CUDA_COMPILER=$(which nvcc)` made the test pass)
    ("$ ./TestCudaAndersenThermostat\n"
     "exception: Error launching CUDA compiler: 32512\n"
     "sh: /usr/local/cuda/bin/nvcc: No such file or directory",
     "torch.nvcc_not_found", 'export OPENMM_CUDA_COMPILER="$(which nvcc)"'),
    # guard: a Makefile's shell with no producer setting keeps the CUDA_HOME answer (NVIDIA/MinkowskiEngine#569)
    ("/bin/sh: /usr/local/cuda-11.2/bin/nvcc: No such file or directory",
     "torch.nvcc_not_found", 'eval "$(cudaenv use 11.2)"'),
    # guard: gtcasl/gpuocelot#80, the toolkit path itself missing, no producer of its own
    ("sh: 1: /usr/local/cuda/bin/nvcc: not found", "torch.nvcc_not_found", "ls -d /usr/local/cuda-*"),

    # -- onnxruntime's build.sh: --cuda_home and --cudnn_home (or CUDA_HOME / CUDNN_HOME) ---------------------------
    # https://github.com/microsoft/onnxruntime/issues/1777 (the burned fresh13 h01)
    ("[15:39:01] jintian:onnxruntime git:(master) $ ./build.sh --use_cuda --cuda_home=/usr/local/cuda\n"
     "2019-09-07 15:39:21,386 Build [ERROR] - cuda_home and cudnn_home paths must be specified and valid.\n"
     "cuda_home='/usr/local/cuda' valid=True. cudnn_home='None' valid=False",
     "build.onnxruntime_cuda_roots", "--cudnn_home"),
    # https://github.com/triton-inference-server/onnxruntime_backend/issues/33 (the backend's build passed --cuda_home only)
    ('Step 17/27 : RUN ./build.sh ${COMMON_BUILD_ARGS} --update --build --use_cuda --cuda_home "/usr/local/cuda" '
     '--use_tensorrt --use_tensorrt_builtin_parser --tensorrt_home "/usr/src/tensorrt" --allow_running_as_root\n'
     "2024-11-11 08:33:16,659 build [ERROR] - cuda_home and cudnn_home paths must be specified and valid.\n"
     "cuda_home='/usr/local/cuda' valid=True. cudnn_home='None' valid=False",
     "build.onnxruntime_cuda_roots", "--cudnn_home"),

    # -- TensorRT's libraries, found through the build's own setting -------------------------------------------------
    # https://github.com/NVIDIA/TensorRT/issues/42 (the burned fresh13 h10; maintainer: TRT_LIB_DIR)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "Please set them or make sure they are set and tested correctly in the CMake files:\n"
     "TENSORRT_LIBRARY_INFER\n"
     '    linked by target "nvonnxparser_static" in directory /media/fagangjin/wd/permanent/software/source_codes/dl/'
     "TensorRT/parsers/onnx\n"
     "TENSORRT_LIBRARY_INFER_PLUGIN",
     "cmake.tensorrt_not_found", "-DTRT_LIB_DIR="),
    # https://github.com/NVIDIA/TensorRT/issues/1978 (cmake without TRT_LIB_DIR; the OSS build's own status line)
    ("cmake .. -DCUDA_VERSION=10.2\n"
     "Building for TensorRT version: 8.2.4, library version: 8\n"
     "-- ========================= Importing and creating target nvinfer ==========================\n"
     "-- Looking for library nvinfer\n"
     "-- Library that was found nvinfer_LIB_PATH-NOTFOUND\n",
     "cmake.tensorrt_not_found", "-DTRT_LIB_DIR="),
    # https://github.com/NVIDIA-AI-IOT/deepstream_tao_apps/issues/30 (the OSS build for DeepStream)
    ("cmake .. -DGPU_ARCHS=61  -DTRT_LIB_DIR=/usr/lib/aarch64-linux-gnu/ -DCMAKE_C_COMPILER=/usr/bin/gcc "
     "-DTRT_BIN_DIR=`pwd`/out -DCUDA_VERSION=10.0\n"
     "Building for TensorRT version: 6.0.1.0, library version: 6.0.1\n"
     "-- Looking for library nvinfer\n"
     "-- Library that was found nvinfer_LIB_PATH-NOTFOUND\n",
     "cmake.tensorrt_not_found", "TRT_LIB_DIR"),
    # https://github.com/onnx/onnx-tensorrt/issues/636 (onnx-tensorrt on its own reads TENSORRT_ROOT; it named the
    # OSS checkout, which has no libraries)
    ("cmake .. -DTENSORRT_ROOT=<path_to_trt> && make -j\n"
     "-- Found TensorRT headers at /workspace/TensorRT/include\n"
     "-- Find TensorRT libs at TENSORRT_LIBRARY_INFER-NOTFOUND;TENSORRT_LIBRARY_INFER_PLUGIN-NOTFOUND;"
     "TENSORRT_LIBRARY_MYELIN-NOTFOUND\n"
     "-- Could NOT find TENSORRT (missing: TENSORRT_LIBRARY) \n"
     "ERRORCannot find TensorRT library.\n"
     "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "Please set them or make sure they are set and tested correctly in the CMake files:\n"
     "TENSORRT_LIBRARY_INFER\n"
     '    linked by target "nvonnxparser_static" in directory /workspace/onnx-tensorrt\n',
     "cmake.tensorrt_not_found", "-DTENSORRT_ROOT="),
    # -- a producer's own version gate: cudarc knows the CUDA versions up to its release ---------------------------
    # https://github.com/huggingface/candle/issues/2210 (the burned fresh13 h05: "cudarc only supporting cuda up to
    # version 12.4 and you're trying to use 12.5"; fixed by candle's cudarc bump)
    ("error: failed to run custom build command for `cudarc v0.11.1`\n"
     "  cargo:rerun-if-env-changed=CUDA_ROOT\n"
     "  thread 'main' panicked at /home/hermes/.cargo/registry/src/index.crates.io-6f17d22bba15001f/cudarc-0.11.1/"
     "build.rs:54:14:\n"
     "  Unsupported cuda toolkit version: `12050`. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "a cudarc release that knows CUDA 12.5"),
    # https://github.com/huggingface/candle/issues/2192 (CUDA 11.4 in nvidia/cuda:11.4.3-cudnn8-devel)
    ("error: failed to run custom build command for `cudarc v0.11.1`\n"
     "  thread 'main' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/cudarc-0.11.1/build.rs:"
     "54:14:\n  Unsupported cuda toolkit version: `11040`. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "CUDA 11.4: `cargo update -p cudarc`"),
    # https://github.com/chelsea0x3b/cudarc/issues/245 (mistral.rs; "just released under cudarc 0.11.5")
    ("error: failed to run custom build command for cudarc v0.11.4\n"
     "thread 'main' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/cudarc-0.11.4/build.rs:73:14:\n"
     "Unsupported cuda toolkit version: 11.5. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "cargo update -p cudarc"),
    # https://github.com/lamco-admin/lamco-rdp-server/issues/56 (cudarc 0.16.6 and CUDA 13.3)
    ("error: failed to run custom build command for `cudarc v0.16.6`\n"
     "  cargo:rerun-if-env-changed=CUDARC_CUDA_VERSION\n"
     "  thread 'main' (78528) panicked at /home/vinvel/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
     "cudarc-0.16.6/build.rs:128:14:\n"
     "  Unsupported cuda toolkit version: `13.3`. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "knows CUDA 13.3"),
    # https://github.com/EricLBuehler/mistral.rs/issues/1766 (13.1, a release that knew 13.0 only)
    ("error: failed to run custom build command for `cudarc v0.17.8`\n"
     "  thread 'main' (6622) panicked at /home/lzuccarelli/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
     "cudarc-0.17.8/build.rs:141:14:\n"
     "  Unsupported cuda toolkit version: `13.1`. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "cargo update -p cudarc"),
    # -- a project's own minimum or exact CUDA against the toolkit its build found: a toolkit in range, and the build's
    # own setting pointed at it ----------------------------------------------------------------------------------------
    # https://github.com/BachiLi/diffvg/issues/79 (fixed by CUDA_TOOLKIT_ROOT_DIR at the newer toolkit)
    ("CMake Error at /usr/local/share/cmake-3.21/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "9.1", but required is at\n  least "10" (found /usr)\n'
     "Call Stack (most recent call first):\n"
     "  /usr/local/share/cmake-3.21/Modules/FindCUDA.cmake:1264 (find_package_handle_standard_args)\n"
     "  CMakeLists.txt:19 (find_package)",
     "build.project_cuda_version_gate", "-DCUDA_TOOLKIT_ROOT_DIR="),
    # https://github.com/OAID/Tengine/issues/969 (OpenCV's config asks for exactly 10.0; "cuda版本换成10.0的", a
    # commenter's, unconfirmed). [r16 knobs] The stack names OpenCV's config: that OpenCV changes first (its resolution
    # table in errors.yaml), CUDA 10.0 is the second line.
    ("CMake Error at /snap/cmake/918/share/cmake-3.21/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     '  Could NOT find CUDA: Found unsuitable version "11.0", but required is exact\n  version "10.0" (found /usr)\n'
     "  /usr/local/lib/cmake/opencv4/OpenCVConfig.cmake:86 (find_package)",
     "build.project_cuda_version_gate", "Change the OpenCV that asks"),
    # https://github.com/NVlabs/tiny-cuda-nn/issues/238 (conda's cudatoolkit, then a new 11.7, did not change the nvcc
    # CMake used)
    ("-- Obtained CUDA architectures automatically from installed GPUs\n"
     "-- Targeting CUDA architectures: 75\n"
     "CMake Error at CMakeLists.txt:212 (message):\n"
     "  CUDA version too low.  tiny-cuda-nn require CUDA 10.2 or higher.\n",
     "build.project_cuda_version_gate", 'CUDACXX="$CUDA_HOME/bin/nvcc"'),
    # https://github.com/nanoporetech/dorado/issues/216 (Koi supports 12.0 11.8 11.7 11.3)
    ("  CMake Error at cmake/Koi.cmake:18 (message):\n"
     "    Unsupported CUDA toolkit version: 10.1.243\n"
     "  Call Stack (most recent call first):\n"
     "    cmake/Koi.cmake:46 (get_best_compatible_koi_version)",
     "build.project_cuda_version_gate", "cmake/Koi.cmake lists"),
]

test_first_answer = first_answer_tests(CASES)


# guard: https://github.com/onnx/onnx-tensorrt/issues/844, a submodule not cloned ("git submodule update --init
# --recursive" fixed it): TensorRT's own status lines ("Find TensorRT libs at ...-NOTFOUND") are not claimed as the cause
SUBMODULE = ("CMake Error at CMakeLists.txt:80 (add_subdirectory):\n  The source directory\n"
             "    /home/civeh/onnx-tensorrt/third_party/onnx\n  does not contain a CMakeLists.txt file.\n\n"
             "-- Find TensorRT libs at TENSORRT_LIBRARY_INFER-NOTFOUND;TENSORRT_LIBRARY_INFER_PLUGIN-NOTFOUND\n"
             "-- Could NOT find TENSORRT (missing: TENSORRT_INCLUDE_DIR TENSORRT_LIBRARY) \n")


def test_submodule_not_claimed_as_tensorrt() -> None:
    assert "cmake.tensorrt_not_found" not in [m.id for m in explain(SUBMODULE)]
