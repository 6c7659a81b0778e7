"""Issue 18, round 9, helper [machine]: driver, container runtime, WSL, vGPU, NCCL, hardware.

fresh8's burned misses of this area, each fixed as a family with threads from other projects, and the
round's principle: where the log does not show the fact that decides the fix, the first fix line is a
short decision keyed on checks the user can run (`nvidia-smi` on the host or inside the container,
`ldconfig -p`, `lsmod`), most common situation first; where it does show it, that situation's fix alone.
Each tuple is a trimmed verbatim excerpt of the thread above it: the first environment answer must be
``want_id`` and its first fix line must hold ``want_fix``.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

NO_SUDO = ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create "
           "failed: unable to start container process: error during container init: error running hook #0: error "
           "running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
           "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared "
           "object file: no such file or directory: unknown.")

CASES = [
    # ---- container.host_driver_missing: the first line decides by `nvidia-smi` on the host
    # https://github.com/OpenTalker/SadTalker/issues/49 (burned fresh8 c31: fixed by running docker with sudo)
    ("docker run -it --gpus all nvidia/cuda:11.4.0-base-ubuntu20.04 nvidia-smi\n" + NO_SUDO,
     "container.host_driver_missing", "sudo docker run --gpus all"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1647 (Docker Desktop on Ubuntu set the context; `docker context use default` fixed it)
    ("I was seeing the same behavior (could run `nvidia-smi` in containers with `sudo` but not without, with the same "
     "`load library failed: libnvidia-ml.so.1` error)\nImportantly, I had installed Docker Desktop (on Ubuntu 22.04), "
     "which set the docker CLI's current context to use `unix:///home/$USER/.docker/desktop/docker.sock`\n" + NO_SUDO,
     "container.host_driver_missing", "docker context use default"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1711 (Arch, Docker Desktop; "The only workaround I've found so far is to run docker using sudo")
    ("Trying to build containers on Arch here, installed Docker through docker-desktop originally\n"
     "The only workaround I've found so far is to run docker using sudo.\n" + NO_SUDO,
     "container.host_driver_missing", "docker context use default"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/229 (Docker Desktop on Arch and Ubuntu)
    ("On fresh Arch (EndeavourOS) and Ubuntu (20.04 and 22.04) installations, attempts to utilize nvidia runtime "
     "through any image via Docker Desktop fail with this error:\n"
     "$ docker run --rm --gpus all nvidia/cuda:12.0.0-devel-ubuntu22.04 nvidia-smi\n" + NO_SUDO,
     "container.host_driver_missing", "docker context use default"),
    # https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/129 (burned fresh8 c74: Windows 10 20H2, needs 21H2+)
    ("Getting the following error when `docker compose --profile hlky up --build`\n" + NO_SUDO +
     "\n\nI'm using WSL2 (latest Docker Desktop).\nGPU is RTX3090.",
     "container.host_driver_missing", "Windows 10 21H2"),

    # https://github.com/NVIDIA/nvidia-docker/issues/1629 (corpus fresh 516, a guard: nvidia-container-cli's debug line names
    # WSL only to say it is not WSL; the host driver was not loaded)
    ("docker: Error response from daemon: failed to create shim: OCI runtime create failed: container_linux.go:380: "
     "starting container process caused: process_linux.go:545: container init caused: Running hook #0:: error running "
     "hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded: "
     "unknown.`\n\n"
     "I0418 18:12:58.648300 217303 nvc.c:393] attempting to load dxcore to see if we are running under Windows "
     "Subsystem for Linux (WSL)\n"
     "I0418 18:12:58.648518 217303 nvc.c:395] dxcore initialization failed, continuing assuming a non-WSL environment",
     "container.host_driver_missing", "install the driver"),

    # ---- python.torch_cuda_unavailable in a container where nvidia-smi works: the compute capability
    # https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/348 (burned fresh8 c32)
    ("I have good nvidia-smi in the docker container. But get this error.\n>>> import torch\n\n"
     ">>> torch.cuda.is_available()\nFalse\n\nDid the cuda lib in the docker?   Is there any env should be set?\n"
     " => CACHED [stage-2 15/15] WORKDIR /stable-diffusion-webui\n => exporting to image",
     "python.torch_cuda_unavailable", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"),
    # https://github.com/containerd/nerdctl/issues/1023 (--gpus capabilities=utility; compute,utility fixed it)
    ("nerdctl run -it --rm --gpus capabilities=utility,device=GPU-3a23c669-1f69-c64e-cf85-44e9b07e7a2a "
     "nvidia/cuda:9.0-base nvidia-smi\nwhen i use python pytorch,torch.cuda.is_available(),return false.",
     "python.torch_cuda_unavailable", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"),

    # ---- runtime.stub_library: the first line decides by LD_LIBRARY_PATH or the loader cache
    # https://github.com/fboulnois/stable-diffusion-docker/issues/22 (burned fresh8 c37; PR 23 removed the stubs)
    ("$ python -c \"import torch; print(torch.cuda.is_available())\"\n"
     "/usr/local/lib/python3.8/dist-packages/torch/cuda/__init__.py:83: UserWarning: CUDA initialization: Unexpected "
     "error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might "
     "have already set an error? Error 34: CUDA driver is a stub library (Triggered internally at  "
     "../c10/cuda/CUDAFunctions.cpp:109.)\n  return torch._C._cuda_getDeviceCount() > 0\nFalse",
     "runtime.stub_library", "ldconfig -p | grep libcuda"),

    # ---- driver.not_loaded: the first line decides by what `sudo modprobe nvidia` answers
    # https://github.com/shelmangroup/coreos-gpu-installer/issues/11 (burned fresh8 c43: insmod /opt/nvidia/drivers/*.ko at boot)
    ("Indeed, the command nvidia-smi does not work anymore:\n"
     "`NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running.`\n\nIt seems like some kernel modules are not loaded anymore:\n"
     "`$ lsmod | grep nvidia` returns an empty output.",
     "driver.not_loaded", "/etc/modules-load.d"),
    # https://github.com/PeterSuh-Q3/syno_nvidia_driver/issues/12 (the module installed under /volume1/@appstore, not loaded on boot)
    ("[Bug] nvidia.ko installed via .spk to /volume1/@appstore/... but not loaded on boot (RR 26.9.0, DSM 7.4.1, SA6400)\n"
     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running.",
     "driver.not_loaded", "/etc/modules-load.d"),
    # https://github.com/NVIDIA/nvidia-docker/issues/365 (a .run driver, then a new kernel: modprobe finds no module)
    ("$ nvidia-smi\nmodprobe: FATAL: Module nvidia not found.\nNVIDIA-SMI has failed because it couldn't communicate "
     "with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n"
     "$ sudo modprobe nvidia\nmodprobe: FATAL: Module nvidia not found.",
     "driver.module_build_failed", "dkms autoinstall"),

    # ---- driver.version_mismatch inside a container: compare the host driver's CUDA with the image's
    # https://github.com/iot-salzburg/gpu-jupyter/issues/106 (burned fresh8 c70: host 510 / CUDA 11.6, image CUDA 12.1; driver 530 fixed it)
    ("This image does not work\n`docker run --gpus all -d -it -p 8848:8888 -v $(pwd)/data:/home/jovyan/work -e "
     "GRANT_SUDO=yes -e JUPYTER_ENABLE_LAB=yes --user root cschranz/gpu-jupyter:v1.5_cuda-11.6_ubuntu-20.04_python-only`\n"
     ">Failed to initialize NVML: Driver/library version mismatch\n> nvcc --version\n"
     "> Cuda compilation tools, release 12.1, V12.1.66\n"
     "> | NVIDIA-SMI 510.108.03   Driver Version: 510.108.03   CUDA Version: 11.6     |",
     "driver.version_mismatch", "upgrade the host driver"),
    # https://github.com/k4yt3x/video2x/issues/1226 (the image's NVML 565.57 on a 535 host)
    ("I can't get the docker image to run anything nvidia because it complains: \n"
     "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 565.57\n"
     "when I run things like nvidia-smi on a Linux Mint host, where the nvidia driver is 535.",
     "driver.version_mismatch", "upgrade the host driver"),

    # ---- status.operation_not_supported at NCCL's init: unified memory / memory pools off (vGPU VM first)
    # https://github.com/NVIDIA/nccl/issues/2101 (burned fresh8 c41: VMware vGPU without UVM; enable_uvm fixed it)
    ("[2026-04-13 19:52:24] pais-modelendpoint-c3dea45f-4e72-4a34-8888-7c855e768973-8579zt8:508:508 [0] init.cc:426 "
     "NCCL WARN Cuda failure 'operation not supported'\n"
     "pais-modelendpoint-c3dea45f-4e72-4a34-8888-7c855e768973-8579zt8:508:508 [0] NCCL INFO init.cc:1437 -> 1\n"
     "(Worker pid=509) ERROR 04-13 19:52:24 [multiproc_executor.py:800] WorkerProc failed to start.",
     "status.operation_not_supported", "enable_uvm"),
    # https://github.com/meta-pytorch/torchtune/issues/2556 (init.cc:416 is cudaMemPoolCreate)
    ("2025-04-04T16:57:57.7153695Z [2025-04-04 16:57:39] ip-10-0-9-191:95209:95228 [0] init.cc:416 NCCL WARN Cuda "
     "failure 'operation not supported'\n"
     "2025-04-04T16:57:57.7153889Z ip-10-0-9-191:95209:95228 [0] NCCL INFO init.cc:1397 -> 1",
     "status.operation_not_supported", "enable_uvm"),

    # ---- container.wsl_cuda_symbol_not_found: error 500 at CUDA's init under Docker Desktop / WSL 2
    # https://github.com/YanWenKun/ComfyUI-Docker/issues/74 (burned fresh8 c38: "更新docker 解决")
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 500: named symbol not found",
     "container.wsl_cuda_symbol_not_found", "update Docker Desktop"),
    # https://github.com/jhj0517/Whisper-WebUI/issues/279 (Windows, docker; updating Docker Desktop solved it)
    ("**Which OS are you using?**\n - OS: Windows\n \n Error when building docker\n\n"
     "Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() "
     "that might have already set an error? Error 500: named symbol not found",
     "container.wsl_cuda_symbol_not_found", "update Docker Desktop"),
    # https://github.com/ollama/ollama/issues/6961 (WSL2 + Docker; the maintainer: the container runtime cannot talk to the driver)
    ("I am using WSL2 with Docker to run a stream lit app of chat application\n"
     "`cuda driver library init failure: 500` indicates the container runtime isn't able to talk to the driver correctly.",
     "container.wsl_cuda_symbol_not_found", "update Docker Desktop"),
    # https://github.com/xorbitsai/inference/issues/1704 (docker; llama.cpp's wording of the same failure)
    ("/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py:118: UserWarning: CUDA initialization: Unexpected "
     "error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have "
     "already set an error? Error 500: named symbol not found (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n"
     "ggml_cuda_init: failed to initialize CUDA: named symbol not found",
     "container.wsl_cuda_symbol_not_found", "update Docker Desktop"),

    # ---- container.no_gpu_runtime: the first line decides by what is installed and which daemon docker reached
    # https://github.com/OpenBMB/XAgent/issues/273 (Ubuntu 22.04; installing nvidia-container-toolkit fixed it)
    ("docker run -it -p 13520:13520  -v /huggingface/models/XAgentLLaMa-34B-preview/:/model:rw --gpus all --ipc=host "
     "xagentteam/xagentgen:latest python app.py --model-path /model --port 13520\n"
     "- Operating System / 操作系统：Ubuntu22.04\n"
     "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
     "container.no_gpu_runtime", "nvidia-container-toolkit"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1352 (docker on Windows 10: GPUs only through Docker Desktop's WSL 2 backend)
    ("I get the following issue when running: docker run --gpus 2 nvidia/cuda:10.2-base nvidia-smi\n"
     "**docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].**\n\n"
     "I am running Docker on my Windows 10 machine and I have a Titan-V GPU",
     "container.no_gpu_runtime", "WSL 2 backend"),
]

test_first_answer = first_answer_tests(CASES)
