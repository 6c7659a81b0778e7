"""Round 13, samplerun: a broad sample of resolved run-side threads (drivers, containers, frameworks at run time,
loaders), drawn by many queries from many projects, and the families its misses belong to: a prebuilt program's PTX
on Jetson (JetPack's driver), jaxlib's XlaRuntimeError pasted without its module, and CUDA broken after the machine
was suspended. The sample's threads that were already answered right first stay here as guards. Excerpts are
verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- Jetson: the driver is JetPack's; prebuilt aarch64 builds are for discrete-GPU servers -----------------------
    # https://github.com/ollama/ollama/issues/6921 (maintainer: "The CUDA libraries we link against in our arm builds
    # are for servers with discrete GPUs which unfortunately are incompatible with Jetsons"; build from source)
    ("Error: llama runner process has terminated: CUDA error: the provided PTX was compiled with an unsupported toolchain.\n"
     "  current device: 0, in function ggml_cuda_compute_forward at /ollama/llm/llama.cpp/ggml/src/ggml-cuda.cu:2326\n"
     "  err\n"
     "/ollama/llm/llama.cpp/ggml/src/ggml-cuda.cu:102: CUDA error\n"
     "CUDA version 12.6.68\n"
     "Ollam build error wih CUDA on Jetson Orin (CUDA v12.6)",
     "runtime.unsupported_ptx", "JetPack"),
    # https://github.com/InternLM/lmdeploy/issues/759 (aarch64 with an iGPU: a CUDA 11.8 runtime on JetPack's 11.4)
    ("RuntimeError: [TM][ERROR] CUDA runtime error: the provided PTX was compiled with an unsupported toolchain.  ./lmdeploy/src/turbomind/utils/memory_utils.cu:32\n"
     "Python platform: Linux-5.10.120-tegra-aarch64-with-glibc2.29",
     "runtime.unsupported_ptx", "JetPack"),
    # https://github.com/EricLBuehler/mistral.rs/issues/867 (Orin: driver 12.2, runtime 12.4)
    ("CUDA_ERROR_UNSUPPORTED_PTX_VERSION on Jetson AGX Orin\n"
     'Device 0: "Orin"\n'
     "  CUDA Driver Version / Runtime Version          12.2 / 12.4",
     "runtime.unsupported_ptx", "JetPack"),
    # https://github.com/cupy/cupy/pull/6875 (cupy-cuda11x's PTX from CUDA 11.7 on a Jetson Xavier)
    ("cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorUnsupportedPtxVersion: the provided PTX was compiled with an unsupported toolchain.\n"
     "I noticed `cupy-cuda11x` (v11rc1) failing on Jetson Xavier Dev Kit (CC 7.2 with CUDA 11.4, aarch64, Linux):",
     "runtime.unsupported_ptx", "JetPack"),
    # guard: a desktop driver too old keeps the driver upgrade with the log's CUDA
    # https://github.com/huggingface/text-generation-inference/issues/1026 ("Driver Version: 450.80.02 is very old")
    ("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.\n"
     "| NVIDIA-SMI 450.80.02    Driver Version: 450.80.02    CUDA Version: 11.0     |",
     "runtime.unsupported_ptx", "The driver runs CUDA 11.0 at most"),
    # -- jaxlib's XlaRuntimeError without its module name -------------------------------------------------------------
    # https://github.com/jthlab/phlash/issues/31 (the title alone; a driver upgrade solved it: the answer names the
    # cuDNN/driver pair, the driver on its second line)
    ("XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed",
     "status.framework_took_gpu_memory", "jax[cuda12]"),
    # https://github.com/jax-ml/jax/issues/22626 (jax 0.4.13 beside cuDNN 9: matching versions)
    ("jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed\n"
     "With jax 0.4.13 there is no compatibility to the major version update of cudnn to 9.x",
     "status.framework_took_gpu_memory", "jax[cuda12]"),
    # guard: TensorFlow 1.x's handle error keeps memory growth first (nickliqian/cnn_captcha#107, in the entry)
    ("Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR",
     "status.framework_took_gpu_memory", "TF_FORCE_GPU_ALLOW_GROWTH"),
    # -- CUDA broken after suspend: nvidia_uvm ---------------------------------------------------------------------
    # https://github.com/ultralytics/ultralytics/issues/7716 (rmmod/modprobe nvidia_uvm instead of a reboot)
    ("RuntimeError: CUDA error: unspecified launch failure\n"
     "the error happen if i suspend my device and try to run the script , but if i repoot my device the error solved !",
     "driver.uvm_after_suspend", "modprobe nvidia_uvm"),
    # https://github.com/pop-os/default-settings/pull/64
    ("CUDA fails to initialize after resuming from suspend with `UNKNOWN_ERROR(99)` until we reload the `nvidia_uvm` module.",
     "driver.uvm_after_suspend", "modprobe nvidia_uvm"),
    # https://github.com/mumax/3/issues/167 (panic: CUDA_ERROR_UNKNOWN after wake from suspend)
    ("But once I suspend the Ubuntu 16.04.3 and then wake it from suspend, mumax3 doesn't work. It gives an error below even if I tried running \"sudo nvidia-modprobe -u\".\n"
     "panic: CUDA_ERROR_UNKNOWN",
     "driver.uvm_after_suspend", "modprobe nvidia_uvm"),
    # guard: "unknown error" with no word of a suspend keeps the generic driver answer
    # https://github.com/xingyizhou/CenterNet/issues/933 (rmmod nvidia_uvm solved it)
    ("cuda runtime error (30): unknown error\n"
     "issue raised when GPU runs at 100% and RAM 7580/7980",
     "driver.unknown_error", "rmmod nvidia_uvm"),
    # -- CTranslate2 before 4.5 is built for cuDNN 8: its sub-libraries missing ----------------------------------
    # https://github.com/SYSTRAN/faster-whisper/issues/885 (cuDNN 9.2 installed; maintainer: "back to use cudnn 8")
    ("Is faster-whisper on an old CUDNN Version?\n"
     "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n"
     "Aborted (core dumped)\n"
     "The thing is, I have installed cudnn-9.2 as per Nvidia's official instructions.",
     "runtime.cuda_library_not_found", 'nvidia-cudnn-cu12==8.9.*'),
    # guard: without CTranslate2's words the generic cuDNN 8 answer stays (find, then the loader path)
    ("Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "-not -path '*/stubs/*'"),
    # -- the sample's threads answered right first before this round (guards) -------------------------------------
    # https://github.com/livepeer/ai-runner/issues/29 (installing nvidia-container-toolkit)
    ("docker run --gpus 0 -v ./models:/models livepeer/ai-runner:latest python bench.py --pipeline text-to-image --model_id stabilityai/stabilityai/sd-turbo\n"
     'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]]',
     "container.no_gpu_runtime", "nvidia-container-toolkit"),
    # https://github.com/predibase/lorax/issues/237 (a host with driver 535 ran it)
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid",
     "status.kernel_image_invalid", "upgrade the driver"),
    # https://github.com/apache/mxnet/issues/3486 (the driver of CUDA 8's installer fixed it)
    ("mxnet.base.MXNetError: [10:34:49] src/storage/storage.cc:48: Check failed: e == cudaSuccess || e == cudaErrorCudartUnloading CUDA: CUDA driver version is insufficient for CUDA runtime version\n"
     "with centos 7.0,cuda7.5,Driver Version: 352.99.",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/PaddlePaddle/PaddleOCR/issues/63 (libcudnn.so's directory in /etc/profile: "Solved")
    ("Error: Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion at (/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)\n"
     "GPU:2080ti\ncuda:10.2\ncudnn:7.6.5",
     "runtime.cuda_library_not_found", "LD_LIBRARY_PATH"),
    # https://github.com/Holasyb918/HeyGem-Linux-Python-Hack/issues/5 (an onnxruntime matching the cuDNN)
    ("1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "onnxruntime-gpu[cuda,cudnn]"),
    # https://github.com/jhj0517/Whisper-WebUI/issues/140 (nvidia-cudnn-cu11 and its lib on LD_LIBRARY_PATH)
    ("Use Faster Whisper implementation\n"
     'Device "cuda" is detected\n'
     "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "nvidia-cudnn-cu11==8.*"),
]

test_first_answer = first_answer_tests(CASES)

VERDICTS = [
    # negative: a kernel of the program's own (.cu) with no word of a suspend stays a program bug
    ("CUDA error at kernel.cu:88 code=719(cudaErrorLaunchFailure) \"cudaDeviceSynchronize()\"",
     "program.unspecified_launch_failure", "CUDA_LAUNCH_BLOCKING=1"),
]

test_verdict = first_answer_tests(VERDICTS, verdicts=True)
