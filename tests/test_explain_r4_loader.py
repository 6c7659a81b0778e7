"""Issue 18, round 4, layer [loader]: libraries at load time, answered from the log's own facts.

A library the log shows installed (a `find`/`locate`/`ldconfig -p`/`ls` listing, "installed at
/dir") but not found at load time is a path problem, not an install; another major version listed
instead is a version problem; each producer's loader (TensorFlow's DSO loader, onnxruntime's CUDA
provider, Paddle's dynamic loader, torch7's cudnn binding, numba, NVML users, NVRTC) gets the fix
that solved its case. Each excerpt is quoted (trimmed) from the public thread above it.
"""

from __future__ import annotations


import pytest

from explain_answers import assert_first_answer, first_environment_answer

# (text, the first environment answer's id, a string the first line of its fix holds)
LOADER_CASES = [
    # --- the log lists the library on disk: put that directory on the loader path -----------------
    # find shows it in the conda environment the traceback runs in:
    # https://github.com/microsoft/onnxruntime-genai/issues/694
    ("  File \"/anaconda/envs/azureml_py38/lib/python3.9/site-packages/onnxruntime_genai/__init__.py\", line 18, in "
     "<module>\n    from onnxruntime_genai.onnxruntime_genai import *\nImportError: libcudnn.so.8: cannot open shared "
     "object file: No such file or directory\n\nIf I run a search for \"libcudnn.so.8\" I can found it, but seems "
     "something is not properly configured at runtime.\n\n(azureml_py38) user@hostname:~/files/code$ sudo find / -name "
     "\"*libcudnn.so*\"\n/anaconda/envs/azureml_py38_PT_TF/lib/python3.9/site-packages/nvidia/cudnn/lib/libcudnn.so.8\n"
     "/anaconda/envs/azureml_py38/lib/libcudnn.so.8\n/anaconda/envs/azureml_py38/lib/libcudnn.so\n"
     "/anaconda/envs/azureml_py38/lib/libcudnn.so.8.0.4\n/anaconda/pkgs/cudnn-8.0.4-cuda10.1_0/lib/libcudnn.so.8\n"
     "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\n/usr/lib/x86_64-linux-gnu/libcudnn.so.9.2.1",
     "runtime.cuda_library_not_found", "LD_LIBRARY_PATH=/anaconda/envs/azureml_py38/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # ORT's provider with cuBLAS 12 listed by locate in a CUDA 13.1 toolkit (another major):
    # https://github.com/pykeio/ort/issues/548
    ("Failed to load library /home/meh/devel/ort-cuda-13-fail/target/debug/libonnxruntime_providers_cuda.so with "
     "error: libcublasLt.so.12: cannot open shared object file: No such file or directory\n\n"
     " meh   master  ~  devel  ort-cuda-13-fail  101  locate libcublasLt.so\n"
     "/usr/local/cuda-13.1/targets/x86_64-linux/lib/libcublasLt.so\n"
     "/usr/local/cuda-13.1/targets/x86_64-linux/lib/libcublasLt.so.13\n"
     "/usr/local/cuda-13.1/targets/x86_64-linux/lib/libcublasLt.so.13.2.0.9\n"
     "/usr/local/cuda-13.1/targets/x86_64-linux/lib/stubs/libcublasLt.so",
     "runtime.cuda_library_not_found", "onnxruntime-gpu[cuda,cudnn]"),
    # locate shows it in the user's site-packages/nvidia/cudnn/lib, which was put on PATH, not the loader path:
    # https://github.com/SYSTRAN/faster-whisper/issues/297
    ("INFO:faster_whisper:Processing audio with duration 00:29.466\nCould not load library libcudnn_ops_infer.so.8. "
     "Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\nPlease make sure "
     "libcudnn_ops_infer.so.8 is in your library path!\n\ni have verified where it is:\n\n$ locate "
     "libcudnn_ops_infer.so.8\n\n/home/silvacarl/.local/lib/python3.8/site-packages/nvidia/cudnn/lib/"
     "libcudnn_ops_infer.so.8\n\n$ type -P libcudnn_ops_infer.so.8\n\n/home/silvacarl/.local/lib/python3.8/"
     "site-packages/nvidia/cudnn/lib/libcudnn_ops_infer.so.8\n\nso it is definitely in my $PATH:",
     "runtime.cuda_library_not_found",
     "LD_LIBRARY_PATH=/home/silvacarl/.local/lib/python3.8/site-packages/nvidia/cudnn/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # find shows it in another project's venv: https://github.com/ufal/whisper_streaming/issues/119
    ("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory\nAborted (core dumped)\n```\n\nRun this to find there is cuDNN installed:\n```\nsudo "
     "find / -type f -name libcudnn_ops_infer.so.8\n```\n\nIn my case this outputs: \n```\n/home/user/GitHub/Python/"
     "test-whisper/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn_ops_infer.so.8",
     "runtime.cuda_library_not_found",
     "LD_LIBRARY_PATH=/home/user/GitHub/Python/test-whisper/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # the wheel is a dependency in the venv (named, not listed by path): https://github.com/ufal/whisper_streaming/issues/17
    ("for some reason, even though the libraries are installed as dependencies in the virtualenv, both "
     "`whisper_online.py` and `whisper_online_server.py` require the path to the `nvidia-cudnn-cu11.so` libraries to be "
     "exported.\n\nIf others experience the error:\n```\nCould not load library libcudnn_ops_infer.so.8. Error: "
     "libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\nPlease make sure "
     "libcudnn_ops_infer.so.8 is in your library path!", "runtime.cuda_library_not_found", "nvidia.cudnn.__path__"),
    # --- torch7's cudnn binding (cudnn/ffi.lua) -------------------------------------------------------
    # R4 binding, cuDNN 5 installed (find): https://github.com/floydhub/dl-docker/issues/33
    ("/root/torch/install/bin/luajit: /root/torch/install/share/lua/5.1/cudnn/ffi.lua:1278: 'libcudnn (R4) not found "
     "in library path.\nPlease install CuDNN from https://developer.nvidia.com/cuDNN\nThen make sure files named as "
     "libcudnn.so.4 or libcudnn.4.dylib are placed in your library load path (for example /usr/local/lib , or manually "
     "add a path to LD_LIBRARY_PATH)\n\nI look for libcudnn4 but instead I find libcudnn5: \n"
     "root@eaf76f30fb69:~/torch# find / -name \"libcudnn*\"\n/var/lib/dpkg/info/libcudnn5-dev.postinst\n"
     "/usr/lib/x86_64-linux-gnu/libcudnn_static_v5.a\n/usr/local/cuda-8.0/targets/x86_64-linux/lib/libcudnn.so.5.1.5\n"
     "/usr/local/cuda-8.0/targets/x86_64-linux/lib/libcudnn.so\n/usr/local/cuda-8.0/targets/x86_64-linux/lib/libcudnn.so.5",
     "runtime.cuda_library_not_found", "cudnn.torch.git -b R5"),
    # R5 binding, nothing listed: https://github.com/jcjohnson/neural-style/issues/331
    ("/home/ubuntu/torch/install/share/lua/5.1/cudnn/ffi.lua:1603: 'libcudnn (R5) not found in library path.\nPlease "
     "install CuDNN from https://developer.nvidia.com/cuDNN\nThen make sure files named as libcudnn.so.5 or "
     "libcudnn.5.dylib are placed in\nyour library load path (for example /usr/local/lib , or manually add a path to "
     "LD_LIBRARY_PATH)\n\nAlternatively, set the path to libcudnn.so.5 or libcudnn.5.dylib\nto the environment variable "
     "CUDNN_PATH and rerun torch.", "runtime.cuda_library_not_found", "CUDNN_PATH"),
    # files in lib64 per LD_LIBRARY_PATH, the binding still misses them: https://github.com/soumith/cudnn.torch/issues/257
    ("84: /home/rayset/torch/install/share/lua/5.1/cudnn/ffi.lua:1597: 'libcudnn (R5) not found in library path.\n"
     "Please install CuDNN from https://developer.nvidia.com/cuDNN\nThen make sure files named as libcudnn.so.5 or "
     "libcudnn.5.dylib are placed in your library load path (for example /usr/local/lib , or manually add a path to "
     "LD_LIBRARY_PATH)", "runtime.cuda_library_not_found", "CUDNN_PATH"),
    # --- Paddle's dynamic loader: unversioned development names --------------------------------------
    # a -runtime image has no short names: https://github.com/PaddlePaddle/Paddle/issues/30841
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (libcusolver.so) that Paddle depends on is "
     "not configured correctly. (error code is libcusolver.so: cannot open shared object file: No such file or "
     "directory)\n  Suggestions:\n  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed "
     "correctly and its version is matched with paddlepaddle you installed.\n  2. Configure third-party dynamic library "
     "environment variables as follows:\n  - Linux: set LD_LIBRARY_PATH by `export LD_LIBRARY_PATH=...`",
     "runtime.cuda_library_not_found", "find / -name 'libcusolver.so*'"),
    # TensorFlow 1.x's loader, LD_LIBRARY_PATH empty: https://github.com/tensorflow/tensorflow/issues/5591
    (">>> import tensorflow\nI tensorflow/stream_executor/dso_loader.cc:111] successfully opened CUDA library "
     "libcublas.so locally\nI tensorflow/stream_executor/dso_loader.cc:105] Couldn't open CUDA library libcudnn.so. "
     "LD_LIBRARY_PATH: \nI tensorflow/stream_executor/cuda/cuda_dnn.cc:3448] Unable to load cuDNN DSO",
     "runtime.cuda_library_not_found", "LD_LIBRARY_PATH=/usr/local/cuda/lib64"),
    # Paddle's older wording: https://github.com/PaddlePaddle/Paddle/issues/11068
    ("F0531 03:56:01.989326  2382 DynamicLoader.cpp:104] Check failed: nullptr != *dso_handle Failed to find dynamic "
     "library: libcudnn.so (libcudnn.so: cannot open shared object file: No such file or directory) \nPlease specify "
     "its path correctly using following ways: \nMethod. set environment variable LD_LIBRARY_PATH on Linux or "
     "DYLD_LIBRARY_PATH on Mac OS.", "runtime.cuda_library_not_found", "LD_LIBRARY_PATH"),
    # --- onnxruntime-gpu: the build's CUDA/cuDNN major -----------------------------------------------
    # a CUDA 11 build on CUDA 12 (nvcc 12.1 in the log): https://github.com/fudan-generative-vision/hallo/issues/203
    ("FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared "
     "object file: No such file or directory.\nHere are the information of my cuda:\nnvcc: NVIDIA (R) Cuda compiler "
     "driver\nBuilt on Tue_Feb__7_19:32:13_PST_2023\nCuda compilation tools, release 12.1, V12.1.66",
     "runtime.cuda_library_not_found", "onnxruntime-gpu[cuda,cudnn]"),
    # the same from PaddleNLP's inference backend: https://github.com/PaddlePaddle/PaddleNLP/issues/8195
    ("2024-03-27 06:33:23.219728338 [E:onnxruntime:Default, provider_bridge_ort.cc:1548 TryGetProviderInfo_CUDA] "
     "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& "
     "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
     "libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or "
     "directory\n\n2024-03-27 06:33:23.219759101 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:861 "
     "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Please reference "
     "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirementsto ensure all "
     "dependencies are met.", "runtime.cuda_library_not_found", "onnxruntime-gpu[cuda,cudnn]"),
    # a CUDA 11 build where CUDA 11.2 is installed (Java on k8s; solved by ldconfig):
    # https://github.com/microsoft/onnxruntime/issues/12540
    ("ai.onnxruntime.OrtException: Error code - ORT_RUNTIME_EXCEPTION - message: /onnxruntime_src/onnxruntime/core/"
     "session/provider_bridge_ort.cc:1029 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() "
     "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
     "libcublas.so.11: cannot open shared object file: No such file or directory\n- ONNX Runtime version: 1.11.0\n"
     "- CUDA  version: 11.2\n- GPU model and memory:   Tesla T4  15G", "runtime.cuda_library_not_found", "ldconfig"),
    # ORT 1.17 (a CUDA 11.8 / cuDNN 8 build) on a CUDA 12.2 machine: https://github.com/microsoft/onnxruntime/issues/19616
    ("[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
     "libcudnn.so.8: cannot open shared object file: No such file or directory\nI have installed GPU with CUDA 12.2 and  "
     "when i run my model with onnxruntime i am getting this issue\n### ONNX Runtime Version or Commit ID\n\n1.17.0",
     "runtime.cuda_library_not_found", "onnxruntime-gpu[cuda,cudnn]"),
    # the CUDA 12 build without cuDNN 9: https://github.com/Gourieff/sd-webui-reactor/issues/503
    ("But when I updated the version of onnxruntime-gpu to 1.18.1, another error occurred, as follows:\n"
     "`FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared "
     "object file: No such file or directory`", "runtime.cuda_library_not_found", "onnxruntime-gpu[cuda,cudnn]"),
    # the provider's summary alone, newer ORT on Windows: https://github.com/microsoft/onnxruntime/issues/21769
    ("2024-08-16 15:41:33.8037106 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
     "onnxruntime::python::CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
     "and CUDA 12.*, and the latest MSVC runtime. Please install all dependencies as mentioned in the GPU requirements "
     "page (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure "
     "they're in the PATH, and that your GPU is supported.", "loader.ort_cuda_provider_failed", "preload_dlls"),
    # --- cuDNN 9 from torch's wheel, opened by ctranslate2 (faster-whisper) ---------------------------
    # torch 2.5.0+cu121 with ctranslate2 4.5.0: https://github.com/MahmoudAshraf97/whisper-diarization/issues/259
    ("Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so} Invalid "
     "handle. Cannot load symbol cudnnCreateTensorDescriptor\n\n**torch version**\n```\ntorch==2.5.0+cu121\n```\n"
     "**ctranslate2 version**\n```\nctranslate2==4.5.0\n```", "runtime.cuda_library_not_found", "nvidia.cudnn.__path__"),
    # the cnn sub-library, no versions named: https://github.com/petermg/Chatterbox-TTS-Extended/issues/28
    ("Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}\n"
     "Invalid handle. Cannot load symbol cudnnCreateConvolutionDescriptor", "runtime.cuda_library_not_found",
     "nvidia-cudnn-cu12"),
    # cuDNN 8 with torch 2.1.1+cu118's wheel in the venv: https://github.com/daswer123/xtts-finetune-webui/issues/31
    ("I have cuDNN 8, I can find it by searching my directorys. its both in torch and in the nvidia cudnn folder, but I "
     "just get this error when I try to create a dataset:\nLoading Whisper Model!\nCould not load library "
     "libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or "
     "directory\nAborted (core dumped)\n\nI have it running in a venv that's using python 3.9 and have installed the "
     "requirements.txt as well as torch==2.1.1+cu118 torchaudio==2.1.1+cu118", "runtime.cuda_library_not_found",
     "nvidia.cudnn.__path__"),
    # --- TensorFlow's DSO loader --------------------------------------------------------------------
    # https://github.com/Kaggle/docker-python/issues/1164
    ("2022-05-22 03:31:41.057907: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
     "dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object file: No such file "
     "or directory; LD_LIBRARY_PATH: /usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/lib/x86_64-linux-gnu:"
     "/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n2022-05-22 03:31:41.087295: W tensorflow/core/common_runtime/"
     "gpu/gpu_device.cc:1850] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above "
     "are installed properly if you would like to use GPU.", "runtime.cuda_library_not_found", "tensorflow[and-cuda]"),
    # the summary alone (TF 2.12): https://github.com/tensorflow/tensorflow/issues/60646
    ("W tensorflow/core/common_runtime/gpu/gpu_device.cc:1956] Cannot dlopen some GPU libraries. Please make sure the "
     "missing libraries mentioned above are installed properly if you would like to use GPU. Follow the guide at "
     "https://www.tensorflow.org/install/gpu for how to download and setup the required libraries for your platform.\n"
     "Skipping registering GPU devices...\n[]", "loader.tf_gpu_libs_not_loaded", "tensorflow[and-cuda]"),
    # A100 with pip tensorflow-gpu: https://github.com/tensorflow/tensorflow/issues/49022
    ("Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly "
     "if you would like to use GPU. Follow the guide at https://www.tensorflow.org/install/gpu for how to download and "
     "setup the required libraries for your platform.\nSkipping registering GPU devices...\n\nIs there any way to "
     "install tensorflow directly when using a100 server?", "loader.tf_gpu_libs_not_loaded", "tensorflow[and-cuda]"),
    # --- NVRTC's builtins: the exact release ---------------------------------------------------------
    # the toolkit on disk is 11.6, torch's NVRTC wants 11.1: https://github.com/WisconsinAIVision/yolact_edge/issues/186
    ("RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.1.\n  Make sure that "
     "libnvrtc-builtins.so.11.1 is installed correctly.\nnvrtc compilation failed: \n\n/usr/local/cuda-11.6/lib64$ ls "
     "libnvrtc\nlibnvrtc-builtins.so          libnvrtc.so\nlibnvrtc-builtins.so.11.6     libnvrtc.so.11.2\n"
     "libnvrtc-builtins.so.11.6.55  libnvrtc.so.11.6.55", "runtime.cuda_library_not_found", "cudaenv use 11.1"),
    # torch.jit with only 11.5's builtins: https://github.com/pytorch/pytorch/issues/68980
    ("[ERROR] [1638178650.943765]: **Error processing request: nvrtc: error: failed to open "
     "libnvrtc-builtins.so.11.1.\n  Make sure that libnvrtc-builtins.so.11.1 is installed correctly.**\nnvrtc "
     "compilation failed: \n\nIn my system, I can only find libnvrtc-builtins.so.11.5 but no "
     "libnvrtc-builtins.so.11.1.", "runtime.cuda_library_not_found", "cudaenv use 11.1"),
    # a conda build: https://github.com/lfranke/TRIPS/issues/13
    ("Anybody experienced a similar error?\n\n```\nnvrtc: error: failed to open libnvrtc-builtins.so.11.6\n```\nIt's "
     "compiling fine following the conda instructions on Ubuntu 22", "runtime.cuda_library_not_found",
     "LD_LIBRARY_PATH=$CONDA_PREFIX/lib"),
    # --- torch's own libraries when an extension loads ------------------------------------------------
    # https://github.com/pablopalafox/npms/pull/8 (import torch first solved it)
    ("The module is imported when calling `compute_partial_sdf_grid.py` It resulted in the following error:\n"
     "`ImportError: libc10.so: cannot open shared object file: No such file or directory`\n\nlibc10.so is made "
     "available on import torch.", "loader.torch_lib_not_loaded", "import torch"),
    # https://github.com/pytorch/extension-cpp/pull/127
    ("`pip install .` and `pip install -e .` would work fine within the `extension_cpp_stable` folder.\nHowever, an "
     "**ImportError: libtorch_cuda.so: cannot open shared object file: No such file or directory** would occur at "
     "runtime.", "loader.torch_lib_not_loaded", "import torch"),
    # torch 2.x cu121 wheels, an extension from an older torch: https://github.com/YuliangXiu/ECON/issues/114
    ("ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory\n"
     "nvidia-cublas-cu12        12.1.3.1                 pypi_0    pypi\n"
     "nvidia-cudnn-cu12         8.9.2.26                 pypi_0    pypi", "loader.torch_lib_not_loaded",
     "--no-build-isolation"),
    # --- NVML, the driver's user-space library --------------------------------------------------------
    # in a container: https://github.com/NVIDIA/nvidia-docker/issues/407 ([r8 machine] nvidia-smi ran in the
    # container, so the runtime mounted it with NVML: the container's links, not --gpus; the reporter's
    # mounted /usr/lib worked)
    ("[root@localhost ~]# nvidia-docker run -it --rm docker.io/nvidia/cuda\nroot@19b523a18622:/# nvidia-smi\n"
     "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver "
     "is properly installed and present in your system.\nPlease also try adding directory that contains "
     "libnvidia-ml.so to your system PATH.", "loader.nvml_library_missing", "ln -sf libnvidia-ml.so."),
    # https://github.com/NVIDIA/nvidia-docker/issues/1163 (ldconfig in the container)
    ("docker run --runtime=nvidia --rm nvidia/cuda:9.0-base nvidia-smi\n\nNVIDIA-SMI couldn't find libnvidia-ml.so "
     "library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in "
     "your system.", "loader.nvml_library_missing", "ldconfig"),
    # the unversioned development name from a Rust NVML binding: https://github.com/WickedLukas/nvidia-tuner/issues/5
    ("thread 'main' panicked at src/main.rs:23:86:\ncalled `Result::unwrap()` on an `Err` value: \"Failed to "
     "initialize NVML: a libloading error occurred: libnvidia-ml.so: cannot open shared object file: No such file or "
     "directory\"", "loader.nvml_library_missing", "ln -s"),
    # the same from T-Rex's loader: https://github.com/PTRFRLL/nv-docker-trex/issues/31
    ("20211025 09:25:39 WARN: Can't load NVML library, dlopen(25): failed to load libnvidia-ml.so, libnvidia-ml.so: "
     "cannot open shared object file: No such file or directory", "loader.nvml_library_missing", "libnvidia-ml-dev"),
    # nvidia-smi itself, the loader's wording (host: reinstall the driver's user-space part)
    # https://github.com/NVIDIA/nvidia-docker/issues/155 (title) and the NVIDIA forums' "nvidia-smi: error while
    # loading shared libraries" threads
    ("$ nvidia-smi\nnvidia-smi: error while loading shared libraries: libnvidia-ml.so.1: cannot open shared object "
     "file: No such file or directory", "loader.nvml_library_missing", "--reinstall"),
    # --- numba's driver library -----------------------------------------------------------------------
    # https://github.com/serrob23/falsecolor/issues/73 (conda's cudatoolkit did not help: the driver must be there)
    ("> CudaSupportError Traceback (most recent call last) in ----> 1 level_virtualHE = fc.rapidFalseColor(nuc_nobg, "
     "cyto_nobg)\n> ~\\anaconda3\\lib\\site-packages\\numba\\cuda\\cudadrv\\devices.py in _require_cuda_context(*args, "
     "**kws)\nCudaSupportError: Error at driver init: CUDA driver library cannot be found",
     "runtime.libcuda_not_found", "nvidia-smi"),
    # numba's DRIVER_NOT_FOUND_MSG (numba/cuda/cudadrv/driver.py, verbatim) on WSL 2, the case of
    # https://github.com/numba/numba/issues/7104, where NUMBA_CUDA_DRIVER=/usr/lib/wsl/lib/libcuda.so.1 solved it
    ("numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: \nCUDA driver library cannot be found.\nIf you "
     "are sure that a CUDA driver is installed,\ntry setting environment variable NUMBA_CUDA_DRIVER\nwith the file path "
     "of the CUDA driver shared library.\n(on WSL2, Ubuntu 20.04, 5.10.16.3-microsoft-standard-WSL2)",
     "runtime.libcuda_not_found", "NUMBA_CUDA_DRIVER=/usr/lib/wsl/lib/libcuda.so.1"),
    # --- CuPy's per-major wheels ------------------------------------------------------------------------
    # https://github.com/cupy/cupy/issues/8226
    ("  File \"/home/zhhuo/rl_llm_py_product/venv/lib64/python3.9/site-packages/cupy/_core/__init__.py\", line 3, in "
     "<module>\n    from cupy._core import core  # NOQA\nImportError: libcudart.so.12: cannot open shared object file: "
     "No such file or directory\n\nThe above exception was the direct cause of the following exception:\n\n"
     "Failed to import CuPy.\n\nIf you installed CuPy via wheels (cupy-cudaXXX or cupy-rocm-X-X), make sure that the "
     "package matches with the version of CUDA or ROCm installed.", "runtime.libcudart_not_found",
     "cupy-cuda12x[ctk]"),
    # an old per-release wheel: https://github.com/cupy/cupy/issues/3199 (conda's cupy worked)
    ("pip install cupy-cuda102\nHowever, the following error occurred.\n\n>>> import cupy\nTraceback (most recent call "
     "last):\n  File\n\"/home/lab/python_envs/nt_env/lib/python3.6/site-packages/cupy/__init__.py\",\nline 21, in "
     "<module>\n    from cupy import core  # NOQA\nImportError: libcudart.so.10.2: cannot open shared object file: No "
     "such\nfile or directory", "runtime.libcudart_not_found", "conda install -c conda-forge cupy"),
    # https://github.com/AInseven/ComfyUI-fastblend/issues/5
    ("Error occurred when executing SmoothVideo:\n\nCuPy failed to load libnvrtc.so.12: OSError: libnvrtc.so.12: cannot "
     "open shared object file: No such file or directory", "runtime.cuda_library_not_found", "cupy-cuda12x[ctk]"),
    # --- NVRTC's CUDA headers -------------------------------------------------------------------------
    # CuPy's bundled fp16 header needs the runtime's: https://github.com/cupy/cupy/issues/8466
    ("got a similar issue (my ComfyUI is pytorch version:2.5.1+cu124)\nComfyUI_windows_portable\\python_embeded\\Lib\\"
     "site-packages\\cupy\\_core\\include\\cupy\\_cuda\\cuda-12.4\\cuda_fp16.h(129): catastrophic error: cannot open "
     "source file \"vector_types.h\"\n#include \"vector_types.h\"\n^\n\n1 catastrophic error detected in the compilation "
     "of \"C:\\Users\\adk_k\\AppData\\Local\\Temp\\tmpsp2xuek6\\713157532594e4427377e735bbfcfd1742b9f933.cubin.cu\".",
     "loader.nvrtc_header_missing", "nvidia-cuda-runtime-cu12"),
    # cubecl through cudarc: https://github.com/tracel-ai/cubecl/issues/1157
    ("Caused by:\n  [Compilation Error]\n    default_program(1): catastrophic error: cannot open source file "
     "\"cuda_runtime.h\"\n      #include <cuda_runtime.h>\n                               ^\n    1 catastrophic error "
     "detected in the compilation of \"default_program\".\n    Compilation terminated.", "loader.nvrtc_header_missing",
     "CUDA_PATH"),
    # --- libcuda.so.1 in a container started without GPU access --------------------------------------
    # https://github.com/pytorch/pytorch/issues/2985 (solved with nvidia-docker)
    ("I have built the Docker image successfully, but when I want to run a script, it crashes on import torch command. "
     "Here is the error:\n`  File \"/opt/conda/envs/pytorch-py3.6/lib/python3.6/site-packages/torch/__init__.py\", line "
     "53, in <module>\n    from torch._C import *`  \n`  ImportError: libcuda.so.1: cannot open shared object file: No "
     "such file or directory", "runtime.libcuda_not_found", "--gpus all"),
    # TensorFlow 1.x's loader with the kernel module loaded: https://github.com/tensorflow/tensorflow/issues/4267
    ("I tensorflow/stream_executor/dso_loader.cc:102] Couldn't open CUDA library libcuda.so.1. LD_LIBRARY_PATH: "
     "/usr/local/cuda-7.5/lib64:\nI tensorflow/stream_executor/cuda/cuda_diagnostics.cc:160] hostname: Y700\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:185] libcuda reported version is: Not found: was unable to "
     "find libcuda.so DSO loaded into this program", "runtime.libcuda_not_found", "install the driver"),
    # Kubernetes: https://github.com/NVIDIA/nvidia-docker/issues/828
    ("I can able to run my cuda image using \n\"docker run --runtime nvidia imgname\"\nBut when I deploy in kubernetes  "
     "I get the following error for tensorflow \n\"ImportError: libcuda.so.1: cannot open shared object file: No such "
     "file or directory\"", "runtime.libcuda_not_found", "nvidia.com/gpu"),
    # --- cuBLAS older than cuDNN expects: a warning ----------------------------------------------------
    # https://github.com/nanoporetech/medaka/issues/472
    ("While running Medaka (UBUNTU 18.04; Conda environment; Python 3.9.18; CUDA 11.2; cuBLAS 11.4), the following "
     "error occurred:\n\n```\nCould not load symbol cublasGetSmCountTarget from libcublas.so.11. Error: "
     "/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.11: undefined symbol: cublasGetSmCountTarget \n```\n\nThe "
     "pipeline runs despite the error, but are there any drawbacks?", "loader.cublas_symbol_older_than_cudnn",
     "LD_LIBRARY_PATH"),
]


@pytest.mark.parametrize("text,want_id,want_fix", LOADER_CASES,
                         ids=[f"{i:02d}-{w}" for i, (_, w, _) in enumerate(LOADER_CASES)])
def test_loader_families_answer_from_the_log(text, want_id, want_fix):
    assert_first_answer(text, want_id, want_fix)


def test_a_listed_library_is_a_path_problem_not_an_install():
    """ls / ldconfig -p / "installed at": the directory is named, and no wheel is offered first."""
    text = ("W0521 dynamic_loader.cc:278] The third-party dynamic library (libcudnn.so.8) that Paddle depends on is "
            "not configured correctly. (error code is libcudnn.so.8: cannot open shared object file: No such file or "
            "directory)\n$ ldconfig -p | grep cudnn\n\tlibcudnn.so.8 (libc6,x86-64) => /opt/cudnn/lib/libcudnn.so.8")
    m = first_environment_answer(text)
    assert m.values.get("present") == "/opt/cudnn/lib", m.values
    assert "LD_LIBRARY_PATH=/opt/cudnn/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" in m.fix.splitlines()[0]
    # an ls of the toolkit's lib64 with only the versioned file: the unversioned link is what is missing
    text = ("(error code is /usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or "
            "directory)\n$ ls /usr/local/cuda/lib64 | grep cudnn\nlibcudnn.so.8\nlibcudnn.so.8.2.1")
    m = first_environment_answer(text)
    assert m.values.get("link_missing") == "yes" and "ln -s libcudnn.so.8 libcudnn.so" in m.fix, m.to_dict()
    # "installed at" a versioned toolkit directory: the cudaenv command for that toolkit too
    m = first_environment_answer("ImportError: libcublas.so.11: cannot open shared object file: No such file or directory\n"
                   "I have cublas installed at /usr/local/cuda-11.8/lib64.")
    assert "LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" in m.fix and 'cudaenv use 11.8' in m.fix, m.fix
    # the line that reports the failure is not evidence of the library being there
    m = first_environment_answer("OSError: /usr/local/cuda/lib64/libcudnn.so.8: cannot open shared object file: No such file or "
                   "directory")
    assert not m.values.get("present"), m.values


def test_another_major_listed_is_named():
    m = first_environment_answer("ImportError: libcublasLt.so.11: cannot open shared object file: No such file or directory\n"
                   "$ ls /usr/local/cuda/lib64/libcublasLt*\n/usr/local/cuda/lib64/libcublasLt.so.12\n"
                   "/usr/local/cuda/lib64/libcublasLt.so.12.4.5.8")
    assert m.values.get("other_file", "").startswith("libcublasLt.so.12"), m.values
    assert "another major version" in m.title, m.title


def test_an_nvrtc_builtins_of_another_minor_does_not_count_as_present():
    m = first_environment_answer("nvrtc: error: failed to open libnvrtc-builtins.so.11.1.\n"
                   "/usr/local/cuda-11.6/lib64/libnvrtc-builtins.so.11.6")
    assert not m.values.get("present") and "cudaenv use 11.1" in m.fix, m.to_dict()


def test_presence_is_found_in_a_long_log():
    """The listing may be far from the error in a long log (timing is bench/bench_explain.py's, not a test's)."""
    line = "2024-01-01 12:00:00 INFO step 12 loss 0.123 lr 1e-4 /usr/lib/x86_64-linux-gnu/libfoo.so.1 ok\n"
    text = ("ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n" + line * 10000
            + "$ ldconfig -p | grep cudnn\n\tlibcudnn.so.8 (libc6,x86-64) => /opt/cudnn-8.9/lib/libcudnn.so.8\n")
    m = first_environment_answer(text)
    assert m.values.get("present") == "/opt/cudnn-8.9/lib", m.values


def test_the_drivers_library_listed_is_a_loader_cache_fix():
    """libcuda.so.1 missing while the log lists the driver's versioned file: ldconfig re-makes the link; the
    unversioned libcuda.so that Triton asks for keeps its own answer (corpus 145)."""
    m = first_environment_answer("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
                   "$ ls /usr/lib/x86_64-linux-gnu/ | grep libcuda\nlibcuda.so.535.104.05")
    assert m.id == "runtime.libcuda_not_found" and "sudo ldconfig" in m.fix.splitlines()[0], m.to_dict()
    # the forward-compatibility libcuda of a toolkit's compat/ is not the driver (jrottenberg/ffmpeg#233: the
    # container had no GPU access): no ldconfig answer from it
    m = first_environment_answer("Cannot load libcuda.so.1\n$ find / -name 'libcuda.so*'\n/usr/local/cuda-10.2/compat/libcuda.so.1\n"
                   "/usr/local/cuda-10.2/compat/libcuda.so.440.33.01")
    assert m.id == "runtime.libcuda_not_found" and "ldconfig" not in m.fix.splitlines()[0], m.to_dict()
    m = first_environment_answer("AssertionError: libcuda.so cannot found!\nPossible files are located at "
                   "['/lib/x86_64-linux-gnu/libcuda.so.1'].Please create a symlink of libcuda.so to any of the file.")
    assert m.title == "the unversioned libcuda.so is not on the loader path", m.title
