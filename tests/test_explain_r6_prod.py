"""`cudaenv explain`, round 6 "prod": one cause, many producers.

For the causes explain knows best, how OTHER producers word them: Go (ollama's GPU discovery),
C++ (CTranslate2 / faster-whisper, OpenCV's CUDA modules, ggml), TensorFlow's device filter,
NVIDIA's container images, ffmpeg / NVENC SDK users, Rust (candle, cudarc), Julia, uv.

Each tuple is a short verbatim (trimmed) excerpt of a public thread (URL above it), the entry
explain's FIRST environment answer must be, and a substring of the first line of its fix: the fix
that solved that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # --- ollama's discovery prints the CUDA status number only: 802 = system not ready --------
    # https://github.com/ollama/ollama/issues/12173 (8x H100 Hyperplane)
    ('Unable to load cudart library /usr/lib/x86_64-linux-gnu/libcuda.so.570.169: cuda driver library init failure: 802',
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # https://github.com/ollama/ollama/issues/5567 (A100)
    ('msg="unable to load cuda driver library" library=/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01 '
     'error="cuda driver library init failure: 802"',
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # https://github.com/ollama/ollama/issues/9031 (H200; the raw cuInit code of the debug log)
    ('calling cuInit\ncuInit err: 802\ntime=2025-02-19T04:44:23.228Z level=INFO source=gpu.go:612 '
     'msg="Unable to load cudart library /usr/lib/x86_64-linux-gnu/libcuda.so.570.86.15: cuda driver library init failure: 802"',
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # https://github.com/ollama/ollama/issues/12136 (ggml's own wording; fixed by the fabric manager)
    ("ggml_cuda_init: failed to initialize CUDA: system not yet initialized",
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # --- ollama: cudart init failure 35 = cudaErrorInsufficientDriver ------------------------------
    # https://github.com/ollama/ollama/issues/3417
    ('time=2024-03-30T15:05:41.304Z level=INFO source=gpu.go:340 msg="Unable to load cudart CUDA management library '
     '/tmp/ollama4102197452/runners/cuda_v11/libcudart.so.11.0: cudart init failure: 35"',
     "runtime.insufficient_driver", "driver"),
    # https://github.com/ollama/ollama/issues/8151
    ('level=INFO source=gpu.go:340 msg="Unable to load cudart CUDA management library '
     '/usr/local/cuda/lib64/libcudart.so.12.4.99: cudart init failure: 35"',
     "runtime.insufficient_driver", "driver"),

    # --- CTranslate2 (faster-whisper, whisperX) words a missing CUDA library its own way ----------
    # https://github.com/SYSTRAN/faster-whisper/issues/717 (faster-whisper 1.0 needs CUDA 12 libraries)
    ("upgrade faster-whisper version 0.10.0 -> 1.0.0\n"
     "and meet the error: Library libcublas.so.12 is not found or cannot be loaded",
     "runtime.cuda_library_not_found", "nvidia-cublas-cu12"),
    # https://github.com/ultrasev/stream-whisper/issues/13
    ('  File "/root/miniconda3/envs/py310/lib/python3.10/site-packages/faster_whisper/transcribe.py", line 629, in encode\n'
     "    return self.model.encode(features, to_cpu=to_cpu)\n"
     "RuntimeError: Library libcublas.so.12 is not found or cannot be loaded",
     "runtime.cuda_library_not_found", "nvidia-cublas-cu12"),
    # https://github.com/Softcatala/whisper-ctranslate2/issues/74 (CTranslate2 3.x: the CUDA 11 cuBLAS)
    ('  File "/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py", line 629, in encode\n'
     "    return self.model.encode(features, to_cpu=to_cpu)\n"
     "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded",
     "runtime.cuda_library_not_found", "nvidia-cublas-cu11"),
    # https://github.com/jhj0517/Whisper-WebUI/issues/102 (Windows: the CUDA 12 cuBLAS DLL)
    ('Error: Library cublas64_12.dll is not found or cannot be loaded\nwin 11 rtx 3090',
     "loader.windows_cuda_dll_not_found", "cublas64_12.dll"),
    # https://github.com/Purfview/whisper-standalone-win/issues/169
    ('  File "faster_whisper\\transcribe.py", line 814, in encode\n'
     "RuntimeError: Library cublas64_11.dll is not found or cannot be loaded",
     "loader.windows_cuda_dll_not_found", "cublas64_11.dll"),

    # --- OpenCV's CUDA modules: "Gpu API call (invalid device function)" = no kernel for this GPU --
    # https://github.com/opencv/opencv/issues/7254 (maintainer: CUDA_ARCH_BIN must hold the GPU's CC)
    ("OpenCV Error: Gpu API call (invalid device function ) in cv::cudev::grid_transform_detail::TransformDispatcher<false, Policy>::call, "
     "file c:\\lib\\opencv\\sources\\opencv\\modules\\cudev\\include\\opencv2\\cudev\\grid\\detail/transform.hpp, line 270",
     "runtime.no_kernel_image", "CUDA_ARCH_BIN"),
    # https://github.com/anuranbaka/OpenDTAM/issues/53 (fixed by the right -gencode)
    ("OpenCV Error: Gpu API call (invalid device function) in globalWeightedBoundsCostCaller, file "
     "/media/Workspace2/pengwang/3DRepresent/extern/OpenDTAM/Cpp/CostVolume/CostVolume.cu, line 25\n"
     "terminate called after throwing an instance of 'cv::Exception'\n"
     "  what():  /media/Workspace2/pengwang/3DRepresent/extern/OpenDTAM/Cpp/CostVolume/CostVolume.cu:25: error: (-217) "
     "invalid device function in function globalWeightedBoundsCostCaller",
     "runtime.no_kernel_image", "CUDA_ARCH_BIN"),
    # https://github.com/opencv/opencv/issues/6580
    ("OpenCV Error: Gpu API call (invalid device function) in call_resize_linear_glob, file "
     "/usr/local/tools/tempfiles/opencv-2.4.11/modules/gpu/src/cuda/resize.cu, line 233",
     "runtime.no_kernel_image", "CUDA_ARCH_BIN"),
    # https://github.com/PacktPublishing/Hands-On-GPU-Accelerated-Computer-Vision-with-OpenCV-and-CUDA/issues/9
    ("OpenCV Error: Gpu API call (no kernel image is available for execution on the device) in call, file "
     "/home/idriver/data/opencv-3.2.0/modules/cudev/include/opencv2/cudev/grid/detail/transform.hpp, line 340",
     "runtime.no_kernel_image", "CUDA_ARCH_BIN"),

    # --- TensorFlow's device filter: the GPU is below the build's minimum capability -------------
    # https://github.com/tensorflow/tensorflow/issues/46653
    ("Ignoring visible gpu device (device: 0, name: GeForce GTX 780M compute capability: 3.0) with Cuda compute "
     "capability 3.0. The minimum required Cuda capability is 3.5.",
     "gpu.below_library_minimum", "TF_CUDA_COMPUTE_CAPABILITIES"),
    # https://github.com/tensorflow/tfjs/issues/1819 (tfjs-node's bundled TF)
    ("Ignoring visible gpu device (device: 0, name: Tesla M60, pci bus id: 0000:00:1e.0, compute capability: 5.2) "
     "with Cuda compute capability 5.2. The minimum required Cuda capability is 6.0.",
     "gpu.below_library_minimum", "TF_CUDA_COMPUTE_CAPABILITIES"),
    # https://github.com/tensorflow/tensorflow/issues/112 (older wording: "Ignoring gpu device")
    ("tensorflow/core/common_runtime/gpu/gpu_device.cc:611\n"
     "Ignoring gpu device (device: 0, name: GRID K520, pci bus id: 0000:00:03.0)\n"
     "with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.",
     "gpu.below_library_minimum", "TF_CUDA_COMPUTE_CAPABILITIES"),

    # --- NVIDIA's container images say the container was started without the GPU ----------------
    # https://github.com/NVIDIA/nvidia-docker/issues/1071 (fixed by --gpus all)
    ("WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
     "   Use 'nvidia-docker run' to start this container; see\n"
     "   https://github.com/NVIDIA/nvidia-docker/wiki/nvidia-docker",
     "container.started_without_gpus", "--gpus all"),
    # https://github.com/prs-eth/PanopticSegForLargeScalePointCloud/issues/20 (fixed by --gpus all)
    ("$ docker run <image_name>\n\n==========\n== CUDA ==\n==========\n\nCUDA Version 11.1.1\n\n"
     "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
     "   Use the NVIDIA Container Toolkit to start this container with GPU support; see\n"
     "   https://docs.nvidia.com/datacenter/cloud-native/ .",
     "container.started_without_gpus", "--gpus all"),

    # --- NVENC: "out of memory" from OpenEncodeSession is the GeForce session limit ---------------
    # https://github.com/joinhive-ai/transcoder/issues/11
    ("[h264_nvenc @ 0000023a79212040] OpenEncodeSessionEx failed: out of memory (10): (no details)\n"
     "ERROR: encoder.c:199] Error opening video encoder : Cannot allocate memory",
     "driver.nvenc_session_limit", "sessions"),
    # https://github.com/valkjsaaa/auto-bilibili-recorder/issues/9 (fixed by fewer concurrent encodes)
    ("[h264_nvenc @ 0x5601aa5b40c0] OpenEncodeSessionEx failed: out of memory (10)\n"
     "[h264_nvenc @ 0x5601aa5b40c0] No NVENC capable devices found",
     "driver.nvenc_session_limit", "sessions"),
    # https://github.com/NVIDIA/VideoProcessingFramework/issues/501 (the fourth encoder on a GeForce)
    ("RuntimeError: NvEncoder : m_nvenc.nvEncOpenEncodeSessionEx(&encodeSessionExParams, &hEncoder) returned error 10\n"
     "Description: EncodeAPI Internal Error.",
     "driver.nvenc_session_limit", "sessions"),
    # https://github.com/rigaya/NVEnc/issues/439 (NVEncC prints the limit itself)
    ("nvenc : Error on nvEncOpenEncodeSessionEx: 10 (NVENC indicates that the API call failed because it was unable "
     "to allocate enough memory to perform the requested operation.)\n"
     "nvenc : This error might occur when shortage of memory, or when trying to encode more than 3 streams by NVEnc.",
     "driver.nvenc_session_limit", "sessions"),

    # --- TensorRT's builder wraps the CUDA status of its initialisation: 35 = driver too old ----
    # https://github.com/lewes6369/TensorRT-Yolov3/issues/61 (driver 384.130 under CUDA 9.2)
    ("ERROR: Cuda initialization failure with error 35. Please check cuda installation:  "
     "http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html.\nSegmentation fault (core dumped)",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/linghu8812/tensorrt_inference/issues/173 ("cuda not compatible with tensorrt")
    ("[11/05/2023-16:18:50] [W] [TRT] CUDA initialization failure with error: 35. Please check your CUDA installation:  "
     "http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html\n"
     "tensorrt_inference: /datadisk2/lixinhao/tensorrt_inference/code/src/model.cpp:32: void Model::OnnxToTRTModel(): "
     "Assertion `builder != nullptr' failed.",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/onnx/onnx-tensorrt/issues/91
    ("[2018-12-17 05:50:18   ERROR] Cuda initialization failure with error 35.              Please check cuda installation:"
     "             http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html.\n"
     "terminate called after throwing an instance of 'std::runtime_error'",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/NVIDIA/TensorRT/issues/149 (a comment: error 100, no device)
    ("[E] [TRT] Cuda initialization failure with error 100. Please check cuda installation: "
     "http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html.",
     "runtime.no_device", "nvidia-smi"),

    # --- TensorFlow's cuda_diagnostics: the kernel module and libcuda are different versions ------
    # https://github.com/tensorflow/tensorflow/issues/22525
    ("E tensorflow/stream_executor/cuda/cuda_driver.cc:406] failed call to cuInit: CUDA_ERROR_NO_DEVICE\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] libcuda reported version is: 375.66.0\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:193] kernel reported version is: 384.130.0\n"
     "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:303] kernel version 384.130.0 does not match DSO version "
     "375.66.0 -- cannot find working devices in this configuration",
     "driver.version_mismatch", "kernel module"),
    # https://github.com/tensorflow/tensorflow/issues/4768
    ("E tensorflow/stream_executor/cuda/cuda_driver.cc:491] failed call to cuInit: CUDA_ERROR_INVALID_VALUE\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:185] libcuda reported version is: 361.93.2\n"
     "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:296] kernel version 352.63.0 does not match DSO version "
     "361.93.2 -- cannot find working devices in this configuration",
     "driver.version_mismatch", "kernel module"),
    # https://github.com/tensorflow/tensorflow/issues/1158 (after an Ubuntu upgrade)
    ("E tensorflow/stream_executor/cuda/cuda_driver.cc:406] failed call to cuInit: CUDA_ERROR_NO_DEVICE\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:193] kernel reported version is: 384.90.0\n"
     "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:303] kernel version 384.90.0 does not match DSO version "
     "384.111.0 -- cannot find working devices in this configuration",
     "driver.version_mismatch", "kernel module"),

    # --- candle's build.rs: the nvcc on PATH is too old for the GPU's compute capability ------------
    # https://github.com/huggingface/candle/issues/720 (nvcc 11.7, an 8.9 GPU)
    ("  cargo:rustc-env=CUDA_INCLUDE_DIR=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.7\\include\n"
     "  thread 'main' panicked at 'nvcc cannot target gpu arch 89. Available nvcc targets are "
     "[35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87].', "
     "C:\\Users\\jremb\\.cargo\\git\\checkouts\\candle-0c2b4fa9e5801351\\84d003f\\candle-kernels\\build.rs:145:17",
     "nvcc.unsupported_arch", "CUDA 11.8 or newer"),

    # --- a framework's CPU-only build asked for the GPU, in MXNet's and CTranslate2's words ---------
    # https://github.com/apache/mxnet/issues/260 (the CUDA build's Python package reinstalled)
    ('  File "/usr/local/lib/python2.7/dist-packages/mxnet-0.5.0-py2.7.egg/mxnet/base.py", line 72, in check_call\n'
     "    raise MXNetError(py_str(_LIB.MXGetLastError()))\n"
     "mxnet.base.MXNetError: [16:53:11] src/storage/storage.cc:43: Please compile with CUDA enabled",
     "ext.cuda_ops_not_built", "USE_CUDA = 1"),
    # https://github.com/chinakook/hr101_mxnet/issues/9 (the pip package on Windows)
    ('  File "C:\\Users\\user1\\Downloads\\WinPython-64bit-3.6.2.0Qt5\\python-3.6.2.amd64\\lib\\site-packages\\mxnet\\base.py", '
     "line 146, in check_call\n"
     "mxnet.base.MXNetError: [20:12:48] C:\\projects\\mxnet-distro-win\\mxnet-build\\src\\storage\\storage.cc:118: "
     "Compile with USE_CUDA=1 to enable GPU usage",
     "ext.cuda_ops_not_built", "mxnet-cu112"),
    # https://github.com/Ifan24/GPT_subtitles/issues/6 (macOS)
    ('  File "/Users/huang/Library/Python/3.9/lib/python/site-packages/faster_whisper/transcribe.py", line 130, in __init__\n'
     "    self.model = ctranslate2.models.Whisper(\n"
     "ValueError: This CTranslate2 package was not compiled with CUDA support",
     "ext.cuda_ops_not_built", 'device="cpu"'),
    # https://github.com/m-bain/whisperX/issues/575 (a MacBook Pro M1: use "cpu")
    ("I get this error when I run the python code on a macbook pro M1 Silicone, do you know how could I solve this?\n"
     "ValueError: This CTranslate2 package was not compiled with CUDA support",
     "ext.cuda_ops_not_built", 'device="cpu"'),
    # https://github.com/OpenNMT/CTranslate2/issues/1306 (maintainer: build from source on AArch64)
    ("when i use ctranlate2 on AArch64, it throws an error: This CTranslate2 package was not compiled with CUDA support",
     "ext.cuda_ops_not_built", "-DWITH_CUDA=ON"),

    # --- MATLAB's Parallel Computing Toolbox words the old driver its own way ---------------------------
    # https://github.com/MouseLand/Kilosort/issues/241 (maintainer: upgrade the driver)
    ("There is a problem with the CUDA driver or with this GPU device. Be sure that you have a supported GPU and that "
     "the latest driver is installed.\n\nError in ksFilter (line 15)\n    dataRAW = gpuArray(buff);\n\nCaused by:\n"
     "    The CUDA driver was found, but it is too old. The CUDA driver on your system supports CUDA version 5.5. "
     "The required CUDA version\n    is 7.5 or greater.",
     "runtime.insufficient_driver", "upgrade the driver"),

    # --- Julia: CUDA.jl older than the driver's CUDA major -----------------------------------------------
    # https://github.com/JuliaGPU/CUDA.jl/issues/2831 (driver 580; closed by CUDA.jl's CUDA 13 support)
    (" Error: This version of CUDA.jl only supports NVIDIA drivers for CUDA 11.x or 12.x (yours is for CUDA 13.0.0)\n"
     "└ @ CUDA C:\\Users\\ChunxiZhang\\.julia\\packages\\CUDA\\ja0IX\\src\\initialization.jl:70",
     "julia.cudajl_driver_too_new", 'Pkg.update("CUDA")'),

    # --- ollama's and ggml's words for the driver's state ---------------------------------------------
    # https://github.com/ollama/ollama/issues/5493 (kernel module 418.74: too old for this ollama)
    ('time=2024-07-04T17:13:20.135+08:00 level=DEBUG source=gpu.go:385 msg="Unable to load nvcuda" '
     'library=/usr/lib64/libcuda.so.418.74 error="symbol lookup for cuCtxCreate_v3 failed: /usr/lib64/libcuda.so.418.74: '
     'undefined symbol: cuCtxCreate_v3"',
     "runtime.driver_symbol_missing", "Upgrade the NVIDIA driver"),
    # https://github.com/ollama/ollama/issues/6604 (Windows; "Reinstalling the driver and CUDA is sufficient now")
    ('time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg="unable to load cuda driver library" '
     'library=C:\\WINDOWS\\system32\\nvcuda.dll error="symbol lookup for cuCtxCreate_v3 failed"\n'
     'time=2024-09-03T16:36:00.853+08:00 level=DEBUG source=gpu.go:537 msg="Unable to load cudart" '
     'library=C:\\Users\\asus\\AppData\\Local\\Programs\\Ollama\\lib\\ollama\\cudart64_12.dll '
     'error="your nvidia driver is too old or missing.  If you have a CUDA GPU please upgrade to run ollama"',
     "runtime.driver_symbol_missing", "Upgrade the NVIDIA driver"),
    # https://github.com/ggml-org/llama.cpp/issues/7218 (a comment: `sudo modprobe nvidia_uvm`)
    ("cmd: make server LLAMA_CUDA=1 CUDA_DOCKER_ARCH=all\n"
     "error:  ggml_cuda_init: failed to initialize CUDA: unknown error",
     "driver.unknown_error", "modprobe nvidia_uvm"),
    # https://github.com/abysssol/ollama-flake/issues/4 ("RM detects a driver/library version mismatch")
    ("nvmlInit_v2 err: 18\n"
     'time=2024-02-14T22:41:55.630Z level=INFO source=gpu.go:300 msg="Unable to load CUDA management library '
     '/nix/store/z6557r7pgvmxr9x16a4ffazly8dflh65-nvidia-x11-545.29.06-6.1.77/lib/libnvidia-ml.so.545.29.06: '
     'nvml vram init failure: 18"',
     "driver.version_mismatch", "kernel module"),

    # --- Rust build scripts and ffmpeg's configure: nvcc is not on PATH --------------------------------
    # https://github.com/chelsea0x3b/dfdx/issues/781 ("I had not set the path to nvcc")
    ("ubuntu@instance-20230508-1136:~/repos/dfdx$ nvcc\n-bash: nvcc: command not found\n"
     "ubuntu@instance-20230508-1136:~/repos/dfdx$ cargo build -F cuda\n"
     "    Updating git repository `https://github.com/coreylowman/cudarc`",
     "shell.nvcc_not_found", "cudaenv use"),
    # https://github.com/EricLBuehler/mistral.rs/issues/893 (cudarc's build.rs in a Docker build without nvcc)
    ("19.99 error: failed to run custom build command for `cudarc v0.12.1`\n"
     "19.99   thread 'main' panicked at /usr/local/cargo/registry/src/index.crates.io-6f17d22bba15001f/cudarc-0.12.1/build.rs:57:10:\n"
     "19.99   Failed to execute `nvcc`: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }",
     "shell.nvcc_not_found", "cudaenv use"),
    # https://github.com/NVIDIA/cuda-samples/issues/46 (ffmpeg's configure; "export PATH=$PATH:/usr/local/cuda/bin
    # solved the problem")
    ("ERROR: failed checking for nvcc.",
     "shell.nvcc_not_found", "PATH"),

    # --- PaddlePaddle checks its wheel's architectures itself ---------------------------------------------
    # https://github.com/PaddlePaddle/PaddleDetection/issues/8873 (maintainer: the paddle build for your CUDA)
    (" The GPU architecture in your current machine is Pascal, which is not compatible with Paddle installation with "
     "arch: 70 75 80 86 , it is recommended to install the corresponding wheel package according to the installation "
     "information on the official Paddle website.\n训练时报错，无法训练",
     "runtime.no_kernel_image", "paddlepaddle-gpu wheel"),
    # https://github.com/PaddlePaddle/Paddle/issues/56908 (an RTX 2050 under the CUDA 10.2 wheel; maintainer: the
    # right wheel from the install page)
    ("The GPU architecture in your current machine is Ampere, which is not compatible with Paddle installation with "
     "arch: 52 60 61 70 75",
     "runtime.no_kernel_image", "paddlepaddle-gpu wheel"),
]


test_other_producers_answered_by_cause = first_answer_tests(CASES)


# Program bugs in other producers' words: the verdict, and no environment cause beside it.
VERDICTS = [
    # https://github.com/ggml-org/llama.cpp/issues/16725 (ggml: the model and context do not fit)
    ("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 14136.04 MiB on device 0: cudaMalloc failed: out of memory\n"
     "graph_reserve: failed to allocate compute buffers\n"
     "common_init_from_params: failed to create context with model 'models/large/Apertus-70B-Instruct-2509-IQ4_XS.gguf', "
     "try reducing --n-gpu-layers if you're running out of VRAM",
     "runtime.out_of_memory", "--n-gpu-layers"),
    # https://github.com/ggml-org/llama.cpp/issues/20431
    ("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: cudaMalloc failed: out of memory\n"
     "alloc_tensor_range: failed to allocate CUDA0 buffer of size 151851674624\n"
     "llama_model_load: error loading model: unable to allocate CUDA0 buffer",
     "runtime.out_of_memory", "--n-gpu-layers"),
]


test_other_producers_program_bugs_get_the_verdict = first_answer_tests(VERDICTS, verdicts=True)
