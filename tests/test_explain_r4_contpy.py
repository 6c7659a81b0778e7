"""`cudaenv explain`, round 4, layer [containers-python]: containers, clusters and Python packaging.

Each tuple is a short verbatim (trimmed) excerpt of a public thread (URL above it), the entry
explain's FIRST environment answer must be, and a substring of the first line of its fix: the fix
that solved that thread. Collected first, patterns written after (several threads and producers
per family).
"""

from __future__ import annotations


import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

CASES = [
    # ---- container.driver_libs_in_image: the image holds the host driver's libraries
    # https://github.com/NVIDIA/nvidia-docker/issues/1551 (WSL2)
    ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container "
     "process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status 1, "
     "stdout: , stderr: nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/706b1d1b6de68"
     "1b6daf1cab979336a9d465d9b333962cc17db663f2e334d5776/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file "
     "exists: unknown.", "container.driver_libs_in_image", "rm -f /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"),
    # https://github.com/knaw-huc/loghi/issues/3 (Debian on WSL2)
    ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: "
     "unable to start container process: error during container init: error running hook #0: error running hook: exit "
     "status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: mount error: file creation "
     "failed: /var/lib/docker/overlay2/4f7924ec6b328915cd622e25d220121ae3018c9da36cb4a7ef2109ae719a1f19/merged/usr/lib/"
     "x86_64-linux-gnu/libnvidia-ml.so.1: file exists: unknown.", "container.driver_libs_in_image", "RUN rm -f"),
    # https://github.com/BIOP/BIOP-desktop/issues/2 (a driver package installed by the Dockerfile)
    ("docker run -it --rm -p 8888:8888 --gpus device=0  --mount src=D:/,target=/home/biop/local,type=bind "
     "biop-desktop:0.0.8-temp\ndocker: Error response from daemon: failed to create task for container: failed to "
     "create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during "
     "container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode "
     "as 'legacy'        \nnvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/36b6fcd35"
     "cb3d156b325203e5766197a4c32259e1efd25567305af74aa3f5e80/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file "
     "exists: unknown.", "container.driver_libs_in_image", "drop the driver package"),
    # https://github.com/lambdal/lambda-stack-dockerfiles/issues/15
    ("> nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/40c7fccee0aa8659243a8180389b33"
     "3c9a6b85fac895a95207bfddca46df4fc6/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file exists: unknown.",
     "container.driver_libs_in_image", "Remove the driver's files from the image"),

    # ---- container.cdi_spec_missing: no CDI specification names the device
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/146 (podman 4.4.1, Ubuntu 22.04)
    ("I am continually getting the error Error: error setting up CDI devices: unresolvable CDI devices "
     "nvidia.com/gpu=all.\nEnvironment:\n\nUnbuntu 22.04\nPodman version 4.4.1", "container.cdi_spec_missing",
     "nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"),
    # https://github.com/warmshao/FasterLivePortrait/issues/116 (docker's CLI emulated by podman)
    ("docker run -it --gpus=all --name faster_liveportrait_3 -v ../docker_faster_live_portrait:/root/FasterLivePortrait "
     "--restart=always -p 9870:9870 shaoguo/faster_liveportrait:v3 /bin/bash\nEmulate Docker CLI using podman. Create "
     "/etc/containers/nodocker to quiet msg.\nError: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
     "container.cdi_spec_missing", "nvidia-ctk cdi generate"),
    # https://github.com/NixOS/nixpkgs/issues/420638 (title; the spec is in /run/cdi on NixOS)
    ("nvidia-container-toolkit: podman fails with unresolvable CDI devices nvidia.com/gpu=all\n"
     "hardware.nvidia-container-toolkit.enable = true; on NixOS", "container.cdi_spec_missing", "--cdi-spec-dir=/run/cdi"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/63 (podman 3.0.1, before CDI support)
    ("`sudo podman run -ti --rm --device=nvidia.com/gpu=0 ubuntu:18.04 nvidia-smi -L` says:\n"
     "`Error: stat nvidia.com/gpu=0: no such file or directory`\nMy Podman version is 3.0.1.",
     "container.cdi_spec_missing", "podman to 4.1"),

    # ---- container.apptainer_no_driver_files: --nv on a host where it finds no driver
    # https://github.com/apptainer/singularity/issues/6356 (a cluster's login node)
    ("singularity exec --nv alpine_latest.sif bash -c 'echo \"hey\"'\n\nINFO:    Could not find any nv files on this "
     "host!\nWARNING: passwd file doesn't exist in container, not updating\nWARNING: group file doesn't exist in "
     "container, not updating", "container.apptainer_no_driver_files", "srun --gres=gpu:1"),
    # https://github.com/sylabs/singularity/issues/2805 (a Jetson AGX)
    ("$ ./scripts/start_singularity.sh --nv\n\n=========== STARTING SINGULARITY CONTAINER ============\n\nINFO: Singularity "
     "is already installed.\nINFO: Starting Singularity container from image robotour_arm64.simg.\nINFO: Could not find "
     "any nv files on this host!", "container.apptainer_no_driver_files", "nvidia-smi"),

    # ---- container.k8s_insufficient_gpu: no node advertises a free nvidia.com/gpu
    # https://github.com/NVIDIA/k8s-device-plugin/issues/36
    ("[map[type:PodScheduled lastProbeTime:<nil> lastTransitionTime:2018-02-26T21:58:32Z message:0/2 nodes are "
     "available: 1 PodToleratesNodeTaints, 2 Insufficient nvidia.com/gpu. reason:Unschedulable status:False]]",
     "container.k8s_insufficient_gpu", "kubectl describe nodes"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/165 (lower case, newer kube-scheduler)
    ("0/3 nodes are available: 3 insufficient nvidia.com/gpu.", "container.k8s_insufficient_gpu", "nvidia-device-plugin"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/348 (title)
    ("Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
     "container.k8s_insufficient_gpu", "kubectl describe nodes"),

    # ---- container.nvml_lost, Kubernetes: the kubelet's static CPU manager
    # https://github.com/NVIDIA/k8s-device-plugin/issues/145
    ("Kubelet configured with a static CPU policy (e.g. --cpu-manager-policy=static --kube-reserved cpu=0.1) will cause "
     "nvidia-smi to fail after short delay.\n$ kubectl logs -f pod/jh-gputest\nFailed to initialize NVML: Unknown Error",
     "container.nvml_lost", "--pass-device-specs"),
    # https://github.com/kubernetes/kubernetes/issues/77073
    ("1. After setting the cpu-manager-policy=static of kubenets, the pod with gpu running nvidia-smi will report an "
     "error\n\n   ```\n   Failed to initialize NVML: Unknown Error\n   ```", "container.nvml_lost", "cpu-manager-policy=none"),
    # https://github.com/mattshma/bigdata/issues/150
    ("# nvidia-smi\nFailed to initialize NVML: Unknown Error\n查看 kubernetes 配置，`--cpu-manager-policy=static`，"
     "`--feature-gates=CPUManager=true,SupportPodPidsLimit=true`。", "container.nvml_lost", "PASS_DEVICE_SPECS=true"),

    # ---- python.torch_wheel_not_found: pip / uv / poetry find no wheel
    # https://github.com/Nerogar/OneTrainer/issues/138 (the release is on PyPI, its +cu118 build is not)
    ("ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118 (from versions: 1.11.0, 1.12.0, "
     "1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2)\nERROR: No matching distribution found for "
     "torch==2.1.2+cu118", "python.torch_wheel_not_found", "--extra-index-url https://download.pytorch.org/whl/cu118"),
    # https://github.com/zeyad-mansour/lunar/issues/226 (reinstalling Python 3.9 fixed it)
    ("ERROR: Could not find a version that satisfies the requirement torch==1.11.0+cu113 (from versions: none) ERROR: "
     "No matching distribution found for torch==1.11.0+cu113", "python.torch_wheel_not_found", "64-bit environment"),
    # https://github.com/n00mkrad/flowframes/issues/193 (the PyTorch links given; 1.8.1 has no wheel for that Python)
    ("Looking in links: https://download.pytorch.org/whl/torch_stable.html\nERROR: Could not find a version that "
     "satisfies the requirement torch==1.8.1+cu111 (from versions: 1.11.0, 1.11.0+cpu, 1.11.0+cu113, 1.11.0+cu115, "
     "1.12.0, 1.12.0+cpu, 1.12.0+cu113, 1.12.0+cu116, 1.12.1, 1.12.1+cpu, 1.12.1+cu113, 1.12.1+cu116, 1.13.0, "
     "1.13.0+cpu, 1.13.0+cu116, 1.13.0+cu117, 1.13.1, 1.13.1+cpu, 1.13.1+cu116, 1.13.1+cu117)\nERROR: No matching "
     "distribution found for torch==1.8.1+cu111", "python.torch_wheel_not_found", "Use a Python that release"),
    # https://github.com/kojima-takeshi188/zero_shot_cot/issues/6 (Python 3.11)
    ("\"ERROR: Could not find a version that satisfies the requirement torch==1.8.2+cu111 (from versions: 2.0.0, 2.0.1, "
     "2.1.0) ERROR: No matching distribution found for torch==1.8.2+cu111.\"\n\nI am currently using Python version "
     "3.11 and Pip version 23.2.1.", "python.torch_wheel_not_found", "Use a Python that release"),
    # https://github.com/Nerogar/OneTrainer/issues/169 (an Apple M2: no CUDA builds for macOS)
    ("ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118 (from versions: 1.11.0, 1.12.0, "
     "1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2, 2.2.0, 2.2.1)\nERROR: No matching distribution found "
     "for torch==2.1.2+cu118\n\n------------------\n\nPython 3.10.13\nApple M2", "python.torch_wheel_not_found",
     "plain release on a Mac"),

    # ---- python.ext_nvcc_too_old: flash-attn / mamba_ssm check the nvcc under CUDA_HOME
    # https://github.com/zai-org/GLM-4/issues/235 (torch 2.3.1+cu121, an older nvcc)
    ("     raise RuntimeError(\n      RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make "
     "sure nvcc has a supported version by running nvcc -V.\n\n      torch.__version__  = 2.3.1+cu121\n\n      [end of "
     "output]", "python.ext_nvcc_too_old", 'eval "$(cudaenv use 12.1)"'),
    # https://github.com/lm-sys/FastChat/issues/1070 (the older wording)
    ("while I tried to install flash_attn, It mentioned \" RuntimeError: FlashAttention is only supported on CUDA 11 and "
     "above\". I test this in A10 and the CUDA Version is 12.1 .\n(fastchat) ubuntu@justingpu1:~/ChatGPT/FastChat$ "
     "torchrun  fastchat/train/train_mem.py", "python.ext_nvcc_too_old", "cudaenv use"),
    # https://github.com/DQiaole/MemFlow/issues/14 (11.7 in flash-attn 2.7)
    ("[SOLVED] RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.\nInstalling the latest version of "
     "FlashAttention 2.7.0 requires CUDAa 11.7 or higher.", "python.ext_nvcc_too_old", "cudaenv use"),
    # https://github.com/huggingface/alignment-handbook/issues/130 (macOS)
    ("Downloading latest CUDA version (11.6 or above) for MacOS to use FlashAttention\nIt seems that FlashAttention is "
     "only supported on CUDA 11.6 and above.", "python.ext_nvcc_too_old", "sdpa"),

    # ---- bnb.cudart_not_found, its other wordings
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/492 (maintainer: upgrade)
    ("RuntimeError: \n        CUDA Setup failed despite GPU being available. Please run the following \ncommand to get "
     "more information:\n\n        python -m bitsandbytes", "bnb.cudart_not_found", "pip install -U bitsandbytes"),
    # https://github.com/bmaltais/kohya_ss/issues/1523
    ("│ /home/veydlin/kohya_ss/venv/lib/python3.10/site-packages/bitsandbytes/cextension.py:20 in        │\n"
     "RuntimeError:\n        CUDA Setup failed despite GPU being available. Please run the following command to get "
     "more information:", "bnb.cudart_not_found", "pip install -U bitsandbytes"),
    # https://github.com/cocktailpeanut/fluxgym/issues/411 (Windows; upgrading fixed it)
    ("(env) C:\\Fluxgym-LORA\\fluxgym>python app.py\n2025-08-03 16:25:57 WARNING  The installed version of bitsandbytes "
     "was compiled without GPU support.   cextension.py:282", "bnb.cudart_not_found", "bitsandbytes>=0.43"),

    # ---- xformers.other_torch: follow the side the log says is stale
    # https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/11395 (xformers for a newer torch)
    ("Launching Web UI with arguments: --xformers --opt-channelslast\nWARNING[XFORMERS]: xFormers can't load C++/CUDA "
     "extensions. xFormers was built for:\nPyTorch 2.0.0+cu118 with CUDA 1108 (you have 1.13.1+cu117)\nPython  3.10.10 "
     "(you have 3.10.6)", "xformers.other_torch", 'pip install "torch==$(echo 2.0.0+cu118'),
    # https://github.com/Engineer-of-Stuff/stable-diffusion-paperspace/issues/85 (a comment)
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "PyTorch 2.0.0+cu118 with CUDA 1108 (you have 1.13.1+cu117)", "xformers.other_torch", "Move torch up"),
    # https://github.com/lllyasviel/Fooocus/pull/2517 (xformers for an older torch: 0.0.20 -> 0.0.23 fixed it)
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.0.1+cu118 "
     "with CUDA 1108 (you have 2.1.0+cu121)\n    Python  3.10.11 (you have 3.10.9)", "xformers.other_torch",
     "Install the xformers release built for your torch 2.1.0+cu121"),
    # ---- container.cgroup_devices_missing: cgroup v2 and an old libnvidia-container, or rootless
    # https://github.com/NVIDIA/nvidia-docker/issues/1447 (Debian testing)
    ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process "
     "caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , "
     "stderr: nvidia-container-cli: container error: cgroup subsystem devices not found: unknown.",
     "container.cgroup_devices_missing", "libnvidia-container 1.8"),
    # https://github.com/saharmor/dalle-playground/issues/105 (docker-compose)
    ("ERROR: for dalle-backend  Cannot start service dalle-backend: failed to create shim: OCI runtime create failed: runc\n"
     "create failed: unable to start container process: error during container init: error running hook #0: error "
     "running hook: exit\nstatus 1, stdout: , stderr: nvidia-container-cli: container error: cgroup subsystem devices "
     "not found: unknown", "container.cgroup_devices_missing", "nvidia-container-toolkit"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/324 (containerd, the .real binary)
    ("Failure: nvidia-container-cli.real: container error: cgroup subsystem devices not found",
     "container.cgroup_devices_missing", "Upgrade the NVIDIA Container Toolkit"),

    # ---- container.wsl_no_gpu_adapter: WSL exposes no GPU
    # https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/117 (WSL 1)
    ("I'm using Windows with WSL1\n\nError response from daemon: failed to create shim task: OCI runtime create failed: "
     "runc create failed: unable to start container process: error during container init: error running hook #0: error "
     "running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: "
     "initialization error: WSL environment detected but no adapters were found: unknown",
     "container.wsl_no_gpu_adapter", "wsl --set-version"),
    # https://github.com/OpenBMB/UltraRAG/issues/12 (Docker Desktop; nvidia-smi, wsl --update, the driver)
    ("Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create "
     "failed: runc create failed: unable to start container process: error during container init: error running hook "
     "#0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: "
     "initialization error: WSL environment detected but no adapters were found: unknown\n另外我是在window环境装的docker "
     "desktop", "container.wsl_no_gpu_adapter", "wsl --update"),
    # https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/506 (no NVIDIA GPU)
    ("`nividia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown`\n"
     "I also can't enable CUDA on my Laptop since it doesn't have an NVIDIA graphics card",
     "container.wsl_no_gpu_adapter", "without GPUs"),
    # https://github.com/xencon/aixcl/issues/142 (no dedicated GPU)
    ("Running on Windows 11 (not using WSL) and without a dedicated GPU.\nError response from daemon: "
     "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found",
     "container.wsl_no_gpu_adapter", "without GPUs"),

    # ---- container.k8s_nvidia_runtime_missing: RuntimeClass nvidia, containerd without it
    # https://github.com/NVIDIA/gpu-operator/issues/413 (title)
    ("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "
     "\"nvidia\" is configured", "container.k8s_nvidia_runtime_missing", "nvidia-ctk runtime configure --runtime=containerd"),
    # NVIDIA's GPU Operator documentation, troubleshooting ("the nouveau module is loaded"):
    # https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/troubleshooting.html
    ("Running kubectl describe pod -n gpu-operator -l app=nvidia-operator-validator includes the following event:\n"
     "Warning  FailedCreatePodSandBox  8s (x21 over 9m2s)  kubelet  Failed to create pod sandbox: rpc error: code = "
     "Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured\n"
     "$ lsmod | grep -i nouveau", "container.k8s_nvidia_runtime_missing", "blacklist nouveau"),

    # ---- python.wheel_tag_mismatch: a wheel for another Python or platform
    # https://github.com/McGill-NLP/nano-aha-moment/issues/3 (Python 3.12, a cp310 wheel)
    ("ERROR: flash_attn-2.7.2.post1+cu12torch2.5cxx11abiFALSE-cp310-cp310-linux_x86_64.whl is not a supported wheel on "
     "this platform.", "python.wheel_tag_mismatch", "cpXY"),
    # https://github.com/sunsetcoder/flash-attention-windows/issues/2 (Windows)
    ("(myenv) C:\\Users\\TARGET STORE\\Desktop\\1\\flash-attention>pip install flash_attn-2.7.0.post2-cp310-cp310-win_amd64.whl\n"
     "ERROR: flash_attn-2.7.0.post2-cp310-cp310-win_amd64.whl is not a supported wheel on this platform.",
     "python.wheel_tag_mismatch", "sys.version_info"),

    # ---- python.torch_wheel_not_found: a release never built for that CUDA
    # https://github.com/cnut1648/Model-Fingerprint/issues/7
    ("root@iZ0xiahgkb141q9201ucjwZ:/usr/local/cuda-11.3/bin# pip install torch==2.0.0+cu113 torchvision==0.15.0+cu113 "
     "torchaudio==2.0.0 -f https://download.pytorch.org/whl/cu113/torch_stable.html\nLooking in indexes: "
     "http://mirrors.cloud.aliyuncs.com/pypi/simple/\nLooking in links: https://download.pytorch.org/whl/cu113/torch_stable.html\n"
     "ERROR: Could not find a version that satisfies the requirement torch==2.0.0+cu113 (from versions: 1.7.1, 1.8.0, 1.8.1, "
     "1.9.0, 1.9.1, 1.10.0, 1.10.0+cu113, 1.10.1, 1.10.1+cu113, 1.10.2, 1.10.2+cu113, 1.11.0, 1.11.0+cu113, 1.12.0, "
     "1.12.0+cu113, 1.12.1, 1.12.1+cu113, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0)\nERROR: No matching distribution found for "
     "torch==2.0.0+cu113", "python.torch_wheel_not_found", "Pick a pair that exists"),

    # ---- python.torch_cuda_unavailable: is_available() False and nothing else in the log
    # https://github.com/pytorch/pytorch/issues/49325 (collect_env of a +cpu build)
    ("Why does this error happen?\nreturn torch._C._cuda_getDeviceCount() > 0 CUDA is not available\nPyTorch version: "
     "1.7.1+cpu\nIs debug build: False\nCUDA used to build PyTorch: Could not collect\nOS: Microsoft Windows 10 Home "
     "Single Language\nIs CUDA available: False", "python.torch_cuda_unavailable", "--index-url https://download.pytorch.org/whl/cu126"),
    # https://github.com/pytorch/pytorch/issues/122924 (conda on Windows, a CPU build)
    ("Cuda is not available. Thought might be pytorch version problem.\nPyTorch version: 2.2.2\nIs debug build: False\n"
     "CUDA used to build PyTorch: Could not collect\nOS: Microsoft Windows 11 Education\nIs CUDA available: False\n"
     "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4080 Laptop GPU\n[conda] cudatoolkit               11.8.0",
     "python.torch_cuda_unavailable", "cpuonly"),
    # https://github.com/THU-MIG/yolov10/issues/218 (Windows, pip's default torch)
    ("后来我本地win10机器，本来就有cuda12.2，同样方法安装好后，torch.cuda.is_available() 就是False，不知道怎么办了。\n"
     "linux和windows的pip install torch是不一样的。linux上torch默认就是gpu版的，但是windows上的默认是cpu版 C:\\Users",
     "python.torch_cuda_unavailable", "CPU-only"),
    # ---- build.ggml_cuda_option_renamed: LLAMA_CUBLAS / WHISPER_CUBLAS refused, GGML_CUDA wanted
    # https://github.com/instructlab/instructlab/pull/3014 (llama-cpp-python's vendored llama.cpp)
    ("The build fails with:\n\nCMake Error at vendor/llama.cpp/CMakeLists.txt:102 (message):\nLLAMA_CUBLAS is deprecated "
     "and will be removed in the future.\n\nUse GGML_CUDA instead", "build.ggml_cuda_option_renamed",
     'CMAKE_ARGS="-DGGML_CUDA=on" pip install'),
    # https://github.com/XHMY/AutoDefense/issues/4
    ("$ CMAKE_ARGS=\"-DLLAMA_CUBLAS=on\" FORCE_CMAKE=1 pip install 'llama-cpp-python[server]'\n      *** scikit-build-core "
     "0.11.6 using CMake 4.1.2 (wheel)\n      CMake Error at vendor/llama.cpp/CMakeLists.txt:108 (message):\n        "
     "LLAMA_CUBLAS is deprecated and will be removed in the future.\n\n        Use GGML_CUDA instead",
     "build.ggml_cuda_option_renamed", "llama-cpp-python"),
    # https://github.com/ggml-org/whisper.cpp/issues/2789 (stale CMake cache; removing build/ fixed it)
    ("cmake -DWHISPER_SDL2=ON -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=86 -B build -S .\n\nCMake Error at "
     "CMakeLists.txt:103 (message):\n  WHISPER_CUBLAS is deprecated and will be removed in the future.\n\n  Use GGML_CUDA "
     "instead\n\nCall Stack (most recent call first):\n  CMakeLists.txt:108 (whisper_option_depr)",
     "build.ggml_cuda_option_renamed", "rm -rf build"),
    # ---- bnb.cudart_not_found, bitsandbytes 0.43+: no binary for the CUDA it looks for
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1180 (BNB_CUDA_VERSION=123 set)
    ("WARNING: BNB_CUDA_VERSION=123 environment variable detected; loading libbitsandbytes_cuda121_nocublaslt123.so.\n"
     "This can be used to load a bitsandbytes version that is different from the PyTorch CUDA version.\n"
     "Could not find the bitsandbytes CUDA binary at PosixPath('/home/llm/ProgramFiles/bitsandbytes/bitsandbytes/"
     "libbitsandbytes_cuda121_nocublaslt123.so')", "bnb.cudart_not_found", "unset BNB_CUDA_VERSION"),
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1559
    ("WARNING: BNB_CUDA_VERSION=124 environment variable detected; loading libbitsandbytes_cuda124.so.\n"
     "Could not find the bitsandbytes CUDA binary at PosixPath('/notebooks/bitsandbytes/bitsandbytes/"
     "libbitsandbytes_cuda124.so')", "bnb.cudart_not_found", "unset BNB_CUDA_VERSION"),
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1190 (a 0.43.2.dev0 source build)
    ("root@1c1b2c566ff1:/workspace/ilya_png# python -m bitsandbytes\nCould not find the bitsandbytes CUDA binary at "
     "PosixPath('/usr/local/lib/python3.10/dist-packages/bitsandbytes-0.43.2.dev0-py3.10-linux-x86_64.egg/bitsandbytes/"
     "libbitsandbytes_cuda121.so')", "bnb.cudart_not_found", "pip install -U bitsandbytes"),

    # ---- python.paddle_cpu_build
    # https://github.com/PaddlePaddle/Paddle/issues/24581 (Windows, paddlehub)
    ("  File \"E:\\software\\program\\Python37\\lib\\site-packages\\paddle\\fluid\\framework.py\", line 314, in "
     "cuda_places\n    \"Not compiled with CUDA\"\nAssertionError: Not compiled with CUDA", "python.paddle_cpu_build",
     "paddlepaddle-gpu"),
    # https://github.com/PaddlePaddle/Paddle/issues/25866
    ("paddlepaddle-1.8.1\npaddlehub-1.7.1\nCUDA Version 9.2.148\n在使用module = hub.Module(name=\"bert_multi_cased_L-12_H-768_A-12\")"
     "时，出现\n    \"Not compiled with CUDA\"\nAssertionError: Not compiled with CUDA", "python.paddle_cpu_build",
     "uninstall -y paddlepaddle"),
    # https://github.com/PaddlePaddle/PaddleDetection/issues/4551
    ("通过 pip install paddlepaddle-gpu==2.1.3.post112安装 ... 命令出现the device should not be 'gpu' paddlepaddle is not "
     "compiled with cuda 错误", "python.paddle_cpu_build", "paddle.utils.run_check()"),
    # ---- torch.no_driver on a notebook's CPU runtime
    # https://github.com/Isi-dev/Google-Colab_Notebooks/issues/11 (the user's own Radeon is beside the point)
    ("i can not access any Github-Google collab, like - DeFooocus, wan 2 etc...\n(RuntimeError: Found no NVIDIA driver on "
     "your system. Please check that you have an NVIDIA GPU and installed a driver from "
     "http://www.nvidia.com/Download/index.aspx ) - This error message will shown everytime.\n\ni have installed gpu "
     "GIGABYTE Radeon RX 6600 Eagle 8G Graphics Card", "torch.no_driver", "Runtime > Change runtime type"),
    # https://github.com/googlecolab/colabtools/issues/5136 (Fooocus under /content)
    ("File \"/content/Fooocus/entry_with_update.py\", line 46, in <module>\n    from launch import *\n  File "
     "\"/content/Fooocus/ldm_patched/modules/model_management.py\", line 90, in get_torch_device\n    return "
     "torch.device(torch.cuda.current_device())\nRuntimeError: Found no NVIDIA driver on your system. Please check that "
     "you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
     "torch.no_driver", "GPU runtime"),
    # https://github.com/camenduru/Fooocus-colab/issues/25
    ("I am receiving this error now with colab.  I was working fine for me on the 22nd and 23rd of August.  Now on the "
     "24th, I get this RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
     "installed a driver from http://www.nvidia.com/Download/index.aspx", "torch.no_driver", "GPU runtime"),
    # ---- container.no_gpu_runtime: docker configured for the NVIDIA runtime, its program gone
    # https://github.com/NVIDIA/nvidia-docker/issues/1337 (docker 19.03, the EOL hook package)
    ("docker run --name gpu_container --gpus all nvidia/cuda\ndocker: Error response from daemon: exec: "
     "\"nvidia-container-runtime-hook\": executable file not found in $PATH.\nERRO[0000] error waiting for container: "
     "context canceled", "container.no_gpu_runtime", "nvidia-container-toolkit"),
    # https://github.com/NVIDIA/nvidia-docker/issues/958
    ("docker run --runtime=nvidia --rm nvidia/cuda nvidia-smi\ndocker: Error response from daemon: OCI runtime create "
     "failed: exec: \"nvidia-container-runtime-hook\": executable file not found in $PATH: unknown.",
     "container.no_gpu_runtime", "nvidia-ctk runtime configure --runtime=docker"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1190 (title)
    ("Docker: Error response from daemon: OCI runtime create failed: unable to retrieve OCI runtime error exec: "
     "\"nvidia-container-runtime\": executable file not found in $PATH: : unknown.", "container.no_gpu_runtime",
     "Install the NVIDIA Container Toolkit"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1017 (the runtime's log)
    ("2019/07/23 14:19:45 Running nvidia-container-runtime\n2019/07/23 14:19:45 ERROR: inject NVIDIA hook: stat "
     "/usr/bin/nvidia-container-runtime-hook: no such file or directory", "container.no_gpu_runtime",
     "Install the NVIDIA Container Toolkit"),
    # ---- ext.cuda_ops_not_built, AutoGPTQ's kernels
    # https://github.com/PromtEngineer/localGPT/issues/402
    ("`2023-08-23 13:49:27,776 - WARNING - qlinear_old.py:16 - CUDA extension not installed.`",
     "ext.cuda_ops_not_built", "BUILD_CUDA_EXT=1"),
    # https://github.com/AutoGPTQ/AutoGPTQ/issues/203
    ("Now I can run models if I use `use_triton=True`, but it's worth turning it off as \"CUDA extension not installed\" "
     "or \"name autogptq_cuda_256 not defined\" errors pop up.", "ext.cuda_ops_not_built", "cudaenv use --match-torch"),
    # https://github.com/AutoGPTQ/AutoGPTQ/issues/751 (title)
    ("auto_gptq.nn_modules.qlinear.qlinear_cuda:CUDA extension not installed. (Windows 10, cp311, pytorch 2.5.1, CUDA 12.4)",
     "ext.cuda_ops_not_built", "pip uninstall -y auto-gptq"),
    # ---- python.torch_wheel_not_found from uv, and pip for an old CUDA build
    # https://github.com/ByteDance-Seed/Bagel/issues/48 (a comment: `uv add` without the PyTorch index)
    ("❯ uv add torch==2.7.0+cu126\n  × No solution found when resolving dependencies for split ((python_full_version >= "
     "'3.12' and\n  │ platform_machine != 'aarch64') or (python_full_version >= '3.12' and sys_platform != 'linux')):\n"
     "  ╰─▶ Because there is no version of torch==2.7.0+cu126 and your project depends on\n      torch==2.7.0+cu126, we "
     "can conclude that your project's requirements are unsatisfiable.", "python.torch_wheel_not_found",
     "--index-url https://download.pytorch.org/whl/cu126"),
    # https://github.com/ArtLabss/tennis-tracking/issues/16 (Python 3.8, the release on PyPI, its +cu102 build not)
    ("Make new conda env with Python=3.8, run pip install -r requirements.txt and get\nERROR: Could not find a version that "
     "satisfies the requirement torch==1.9.0+cu102 (from versions: 1.4.0, 1.5.0, 1.5.1, 1.6.0, 1.7.0, 1.7.1, 1.8.0, "
     "1.8.1, 1.9.0, 1.9.1, 1.10.0, 1.10.1, 1.10.2, 1.11.0)\nERROR: No matching distribution found for torch==1.9.0+cu102",
     "python.torch_wheel_not_found", "torch_stable.html"),
    # ---- wsl.gpu_access_blocked: NVML refused inside WSL 2
    # https://github.com/microsoft/WSL/issues/9166 (nvidia-utils-510 installed inside WSL)
    ("at this point I did :\n\n`apt install nvidia-utils-510`\n\nbecause without installing this package,it won't find "
     "the utility nvidia-smi. But this is the error that I've got next :\n\n# nvidia-smi\n\nFailed to initialize NVML: GPU "
     "access blocked by the operating system\nFailed to properly shut down NVML: GPU access blocked by the operating "
     "system", "wsl.gpu_access_blocked", "remove any Linux NVIDIA driver packages"),
    # https://github.com/microsoft/WSL/issues/10289
    ("I tried to check my nvidia driver version within ubuntu 22.04 installed on the WSL2 subsystem installed on Windows "
     "11,however, i got the error \"Failed to initialize NVML: GPU access blocked by the operating system\".",
     "wsl.gpu_access_blocked", "/usr/lib/wsl/lib/nvidia-smi"),
    # https://github.com/microsoft/WSL/issues/14339 (an L40S on Windows Server 2025)
    ("Windows Server 2025, installed Nvidia drivers (latest version): 32.0.15.9159 in Data Center mode: WSL doesn't see "
     "Nvidia L40S card.\n$ nvidia-smi\nFailed to initialize NVML: GPU access blocked by the operating system\nFailed to "
     "properly shut down NVML: GPU access blocked by the operating system", "wsl.gpu_access_blocked", "nvidia-smi -g 0 -dm 0"),
]


test_containers_python_families = first_answer_tests(CASES)


# Program bugs and unrelated lines that mention these tools stay unclaimed.
UNCLAIMED = [
    # pip resolving a non-torch package (not this family)
    "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==1.15 (from versions: none)",
    # a flash-attn GPU requirement at run time, not the build's nvcc
    "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
    # detectron2's own wording belongs to ext.cuda_ops_not_built, not to paddle
    "RuntimeError: Not compiled with GPU support (ROIAlign_forward at detectron2/layers/csrc/ROIAlign/ROIAlign.h:73)",
    # the warning form: the old name still switched CUDA on; nvcc missing is the cause
    # (https://github.com/echonoshy/cgft-llm/issues/9)
    "CMake Warning at CMakeLists.txt:95 (message):\n  LLAMA_CUDA is deprecated and will be removed in the future.\n\n"
    "  Use GGML_CUDA instead\n\n-- Could not find nvcc, please set CUDAToolkit_ROOT.",
]


@pytest.mark.parametrize("text", UNCLAIMED)
def test_not_claimed_by_this_layer(text):
    mine = {"container.driver_libs_in_image", "container.cdi_spec_missing", "container.apptainer_no_driver_files",
            "container.k8s_insufficient_gpu", "python.torch_wheel_not_found", "python.ext_nvcc_too_old",
            "container.cgroup_devices_missing", "container.wsl_no_gpu_adapter", "container.k8s_nvidia_runtime_missing",
            "python.wheel_tag_mismatch", "python.torch_cuda_unavailable", "build.ggml_cuda_option_renamed",
            "python.paddle_cpu_build", "wsl.gpu_access_blocked"}
    assert not [m.id for m in explain(text) if m.id in mine]
