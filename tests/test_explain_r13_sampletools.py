"""Round 13, sampletools: a broad sample of threads on libraries beyond torch (TensorRT, JavaCV's OpenCV, Paddle's
NCCL build, onnxruntime, CTranslate2, numba, MXNet, nvcc architecture lists), each first answer checked against the fix
the thread names. New or changed here: TensorRT 5-7's engine-size assertion is the engine-from-another-release failure
it is; JavaCV/JavaCPP's OpenCV without CUDA gets the opencv-platform-gpu dependency (not pip and cmake); a project's
build missing nccl.h with no NCCL location in the log gets NCCL's packages first. Excerpts are verbatim (trimmed) from
the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- TensorRT: an engine serialized by another TensorRT (5-7: the size assertion comes before the version tag) --
    # https://github.com/NVIDIA-AI-IOT/torch2trt/issues/371 ("caused by incompatibility between tensorrt versions")
    ("loadtrt: engine.cpp:868: bool nvinfer1::rt::Engine::deserialize(const void*, std::size_t, nvinfer1::IGpuAllocator&, nvinfer1::IPluginFactory*): Assertion size >= bsize && \"Mismatch between allocated memory size and expected size of serialized engine.\"' failed.",
     "tensorrt.engine_other_version", "Build the engine again here"),
    # https://github.com/Tianxiaomo/pytorch-YOLOv4/issues/290 (a newer TensorRT container fixed it)
    ("Reading engine from file ./yolo_tensorrt.engine\n"
     "python3: engine.cpp:1104: bool nvinfer1::rt::Engine::deserialize(const void*, std::size_t, nvinfer1::IGpuAllocator&, nvinfer1::IPluginFactory*): Assertion `size >= bsize && \"Mismatch between allocated memory size and expected size of serialized engine.\"' failed.\n"
     "Aborted (core dumped)\n"
     "TensorRT 5.1.5\nCUDA 10.1",
     "tensorrt.engine_other_version", "install the TensorRT release that built it"),
    # https://github.com/NVIDIA-AI-IOT/tf_to_trt_image_classification/issues/16 (JetPack 3.2's cudnnEngine.cpp wording)
    ("test_trt: cudnnEngine.cpp:640: bool nvinfer1::cudnn::Engine::deserialize(const void*, std::size_t, nvinfer1::IPluginFactory*): Assertion 'size >= bsize && \"Mismatch between allocated memory size and expected size of serialized engine.\"' failed.",
     "tensorrt.engine_other_version", "Build the engine again here"),
    # guard: TensorRT 8's version tag keeps its answer
    # https://github.com/NVIDIA/TensorRT/issues/2041
    ("[06/08/2022-15:28:47] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization (Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 213, Serialized Engine Version: 205)",
     "tensorrt.engine_other_version", "Build the engine again here"),

    # -- JavaCV / JavaCPP presets: OpenCV's CPU-only artifact loaded instead of opencv-platform-gpu ----------------
    # https://github.com/bytedeco/javacv/issues/1512 (the presets' dependencies; duplicate of javacpp-presets#923)
    ("Hi, previously I was running into errors with the codes due to missing presets. However after installing all of them and adding into the constructor:\n"
     "net.setPreferableBackend(DNN_BACKEND_CUDA)\n"
     "net.setPreferableTarget(DNN_TARGET_CUDA)\n"
     "I received a warning \"setUpNet DNN module was not built with CUDA backend; switching to CPU\"",
     "python.opencv_without_cuda", "opencv-platform-gpu"),
    # https://github.com/bytedeco/javacpp-presets/issues/923 (both opencv-platform and opencv-platform-gpu: remove the
    # first, add cuda-platform-redist)
    ("You have dependencies on both opencv-platform and opencv-platform-gpu, right?\n"
     "[ WARN:0] global C:\\projects\\javacpp-presets\\opencv\\cppbuild\\windows-x86_64-gpu\\opencv-4.4.0\\modules\\dnn\\src\\dnn.cpp (1429) cv::dnn::dnn4_v20200609::Net::Impl::setUpNet DNN module was not built with CUDA backend; switching to CPU",
     "python.opencv_without_cuda", "remove `org.bytedeco:opencv-platform`"),
    # guard: Python's cv2 keeps the pip-wheel answer
    # https://github.com/opencv/opencv/issues/18229
    ("[ WARN:0] global /tmp/pip-req-build-sw_3pm_8/opencv/modules/dnn/src/dnn.cpp (1429) setUpNet DNN module was not built with CUDA backend; switching to CPU\n"
     "net = cv2.dnn.readNet(\"yolov4.cfg\", \"yolov4.weights\")\n"
     "net.setPreferableBackend(cv2.dnn.DNN_BACKEND_CUDA)",
     "python.opencv_without_cuda", "See which cv2 is loaded"),

    # -- nccl.h missing in a project's own build: install NCCL (no NCCL location in the log) -------------------
    # https://github.com/PaddlePaddle/Paddle/issues/8950 (maintainer: nccl2 must be installed before compiling)
    ("In file included from /mnt/Paddle/paddle/fluid/platform/enforce.h:40:0,\n"
     "                 from /mnt/Paddle/paddle/fluid/platform/enforce.cc:15:\n"
     "/mnt/Paddle/paddle/fluid/platform/dynload/nccl.h:18:18: fatal error: nccl.h: No such file or directory\n"
     "compilation terminated.\n"
     "make[2]: *** [paddle/fluid/platform/CMakeFiles/enforce.dir/enforce.cc.o] Error 1",
     "build.cuda_header_missing", "apt-get install libnccl2 libnccl-dev"),
    # https://github.com/PaddlePaddle/Paddle/issues/5035 ("Administrators should install NCCL library on the server")
    ("/home/zhaochengduo/program/temp_master_paddle/Paddle/paddle/platform/dynload/nccl.h:18:18: fatal error: nccl.h: No such file or directory\n"
     " #include <nccl.h>\n"
     "                  ^\n"
     "compilation terminated.\n"
     "make64[2]: *** [paddle/platform/CMakeFiles/gpu_info.dir/gpu_info.cc.o] Error 1",
     "build.cuda_header_missing", "apt-get install libnccl2 libnccl-dev"),
    # guards: nccl-tests keeps the NCCL_HOME answer (the r10 variant), with or without NCCL_HOME in the log
    # https://github.com/NVIDIA/nccl/issues/139 (make NCCL_HOME=$PWD/../build)
    ("Compiling  all_reduce.cu                       > ../build/all_reduce.o\nIn file included from all_reduce.cu:8:0:\n"
     "common.h:7:18: fatal error: nccl.h: No such file or directory\ncompilation terminated.\n"
     "Makefile:70: recipe for target '../build/all_reduce.o' failed",
     "build.cuda_header_missing", "NCCL_HOME"),
    # https://github.com/NVIDIA/nccl-tests/issues/81 (NCCL_HOME named nccl/src: make MPI=1 NCCL_HOME=/home/dario/nccl/build)
    ("$ make MPI=1 NCCL_HOME=/home/dario/nccl/src\nmake -C src build\nCompiling  all_reduce.cu                       > "
     "../build/all_reduce.o\nIn file included from all_reduce.cu:8:0:\ncommon.h:9:10: fatal error: nccl.h: No such file "
     "or directory\n #include \"nccl.h\"\n          ^~~~~~~~\ncompilation terminated.",
     "build.cuda_header_missing", "NCCL_HOME=$PWD/../nccl/build"),

    # -- PaddlePaddle's wordings of CUDA status 30/999 (unknown error) and 3 (initialization error) ----------------
    # https://github.com/PaddlePaddle/PARL/issues/179 ("it can be solved after I reboot the computer")
    ("Error Message Summary:\n----------------------\n"
     "PaddleCheckError: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCountImpl, error code : 30, Please see detail in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html#group__CUDART__TYPES_1g3f51e3575c2178246db0a94a430e0038: unknown error at [/paddle/paddle/fluid/platform/gpu_info.cc:67]",
     "driver.unknown_error", "or reboot"),
    # https://github.com/PaddlePaddle/PaddleOCR/issues/10531 (fails after a few runs, fine after a reboot)
    ("    output = output_tensor.copy_to_cpu()\n"
     "OSError: (External) CUDA error(999), unknown error.\n"
     "  [Hint: Please search for the error code(999) on website (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html#group__CUDART__TYPES_1g3f51e3575c2178246db0a94a430e0038) to get Nvidia's official solution and advice about CUDA Error.] (at ..\\paddle\\phi\\backends\\gpu\\cuda\\cuda_info.cc:252)",
     "driver.unknown_error", "or reboot"),
    # https://github.com/PaddlePaddle/PaddleOCR/issues/2509 (2.0's "Cuda error" spelling)
    ("    stats = {k: v.numpy().mean() for k, v in loss.items()}\n"
     "OSError: (External)  Cuda error(999), unknown error.",
     "driver.unknown_error", "nvidia_uvm"),
    # https://github.com/PaddlePaddle/Paddle/issues/22467 (status 3 in the same enforce wording; another GPU device
    # of the cloud job was the difference)
    ("PaddleCheckError: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCountImpl, error code : 3, Please see detail in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html#group__CUDART__TYPES_1g3f51e3575c2178246db0a94a430e0038: initialization error at [/paddle/paddle/fluid/platform/gpu_info.cc:67]",
     "status.driver_init_failed", "nvidia-smi"),
    # guard: the 1.x wording with another status keeps its answer
    # https://github.com/PaddlePaddle/models/issues/1356 (CUDA_VISIBLE_DEVICES="1" on a one-GPU machine)
    ("paddle.fluid.core.EnforceNotMet: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCount: no CUDA-capable device is detected at [/paddle/paddle/fluid/platform/gpu_info.cc:33]",
     "runtime.no_device", "nvidia-smi"),

    # -- the rest of the sample, already answered right first (kept so they stay so) ----------------------------
    # https://github.com/qdrant/fastembed/issues/238 (onnxruntime wanted libcublasLt.so.11, only .12 present)
    ("[E:onnxruntime:Default, provider_bridge_ort.cc:1546 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "onnxruntime-gpu"),
    # https://github.com/Naozumi520/g2pW-Cantonese/issues/1 (onnxruntime -> onnxruntime-gpu)
    ("UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'",
     "python.onnxruntime_cpu_package", "pip install onnxruntime-gpu"),
    # https://github.com/GOMC-WSU/GOMC/issues/522 (compute_35 out of the list for CUDA 12.2)
    ("nvcc fatal   : Unsupported gpu architecture 'compute_35'\n"
     "make[3]: *** [CMakeFiles/GPU_NVT.dir/build.make:76: CMakeFiles/GPU_NVT.dir/src/GPU/CalculateEnergyCUDAKernel.cu.o] Error 1\n"
     "GOMC does not build properly in GPU with CUDA 12.2.",
     "nvcc.unsupported_arch", "take it out"),
    # https://github.com/gnina/libmolgrid/issues/4 (compute_75 needs CUDA 10; the container had 9.0)
    ("When I try to compile `libmolgrid` (on a Singularity container bootstrapped from  `nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04`) I get the following error:\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_75'",
     "nvcc.unsupported_arch", "CUDA 10.0 or newer"),
    # https://github.com/lammps/lammps/issues/2235 (CUDA 11 dropped sm_30)
    ("CUDA 11.0, Nvidia driver 450\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_30'",
     "nvcc.unsupported_arch", "take it out"),
    # https://github.com/NVIDIA/numba-cuda/issues/120 (Colab's driver: link through nvJitLink)
    ("ERROR:numba.cuda.cudadrv.driver:Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"
     "Apparantly google colab got updated from CUDA 12.1 to CUDA 12.4",
     "runtime.unsupported_ptx", "nvJitLink"),
    # https://github.com/OpenNMT/CTranslate2/issues/862 (install CUDA 11's libraries)
    ("results = translator.translate_batch(input_data)\n"
     "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded",
     "runtime.cuda_library_not_found", "nvidia-cublas-cu11"),
    # https://github.com/dmMaze/BallonsTranslator/issues/404 (ctranslate2 4 needs CUDA 12's DLLs)
    ("    tokenized_translated = self.translator.translate_batch(tokenized_text)\n"
     "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded",
     "loader.windows_cuda_dll_not_found", "cublas64_12.dll"),
]

test_first_answer = first_answer_tests(CASES)
