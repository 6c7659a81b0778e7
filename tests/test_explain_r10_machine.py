"""Issue 18, round 10, helper [machine]: each entry of the driver / container / GPU area answers with the
resolutions its cause has in real threads, in order, each labelled by the situation (a check the user can run,
or a fact the log shows) it solves.

Each tuple is a trimmed verbatim excerpt of the thread above it (threads not in the corpus): the first
environment answer must be ``want_id`` and its first fix line must hold ``want_fix``, a substring of the fix
that solved that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # ======== driver.version_mismatch: reboot (or reload the module) first; a half-upgrade repaired; in a
    # container, the host driver against the image; error 803 outside a container: the driver reinstalled
    # https://github.com/xxmyjk/xxmyjk.github.io/issues/5 (after a driver update on the server: unload the modules, rmmod)
    ("服务器更新 nvidia driver 后遇到以下问题: Failed to initialize NVML: Driver/library version mismatch",
     "driver.version_mismatch", "unload and reload the nvidia modules"),
    # https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4 (a minor update behind the loaded module; rebooting fixes it)
    ("At some point, something triggers a minor update to the nvidia drivers, and I see (e.g. with nvidia-smi):\n"
     "`Failed to initialize NVML: Driver/library version mismatch`\n"
     "For instance, right now I've updated to `nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1`, but "
     "/proc/driver/nvidia/version reports `NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024`.",
     "driver.version_mismatch", "reboot"),
    # https://github.com/pando85/homelab/pull/4110 (unattended-upgrades moved the host libraries; a node reboot realigned them)
    ("When the host library gets upgraded but the kernel modules are still from the old version (or vice versa), "
     "the device plugin crashes with:\n```\nDriver/library version mismatch — failed to initialize NVML\n```\n"
     "This caused 269 restarts of the `nvidia-device-plugin` on `prusik` before a node reboot realigned the versions.",
     "driver.version_mismatch", "reboot"),
    # https://github.com/easydiffusion/easydiffusion/issues/134 (Pop!_OS, error 803: "fix this by installing the latest nvidia driver")
    ("Error: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 803: system has unsupported display driver / "
     "cuda driver combination\nGPU: NVIDIA GP102 GeForce GTX 1080 Ti\nOS: Pop!_OS 22.04 LTS",
     "driver.version_mismatch", "install the current NVIDIA driver for this GPU"),
    # https://github.com/intel/llvm/issues/17614 (CI containers: libnvidia-ml 550.144 in the image against the host
    # driver; fixed by the driver update on the hosts, intel/llvm#21625)
    ("UR CUDA CI machines have \"Driver/library version mismatch\" problem\n"
     "Problem is visible on any UR CUDA run\n**********CUDA Version**********\n"
     "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.144",
     "driver.version_mismatch", "upgrade the host driver"),

    # ======== runtime.no_device: CUDA_VISIBLE_DEVICES first when the GPU is there; a reboot after an update
    # https://github.com/xianlin7/SAMUS/issues/39 (the script sets os.environ["CUDA_VISIBLE_DEVICES"] = '3'; one GPU needs 0)
    ("RuntimeError: No CUDA GPUs are available", "runtime.no_device", "CUDA_VISIBLE_DEVICES"),
    # https://github.com/LiYingwei/ShapeTextureDebiasedTraining/issues/12 (is_available() true; the gpu id had to be "0")
    ("When I run `torch.cuda.is_available()` it shows `true`. And Cuda is always work fine in all projects that need GPU. "
     "However, in this project when I run `python imagenet.py -a resnet50 --data %DATA% --mixbn --evaluate --load %CKPT%` , "
     "it returns `RuntimeError: No CUDA GPUs are available`",
     "runtime.no_device", "CUDA_VISIBLE_DEVICES=0"),
    # https://github.com/ziplab/PTQD/issues/13 (remove the script's CUDA_VISIBLE_DEVICES = '7')
    ("It is strongly recommended to remove the setting of cuda device ID in the code：\n"
     "`import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '7'\n`\nas the error message No CUDA GPUs are available keeps running",
     "runtime.no_device", "CUDA_VISIBLE_DEVICES"),
    # https://github.com/endernewton/tf-faster-rcnn/issues/38 (`CUDA_VISIBLE_DEVICES=$0` in the command; "CUDA_VISIBLE_DEVICES=0")
    ("When executing the command\n`CUDA_VISIBLE_DEVICES=$0 ./tools/demo.py `\n"
     "I get greeted with \"no CUDA-capable device is detected\" - however I have a TITAN X on Ubuntu 16.04 with CUDA "
     "installed, running nvidia-smi gives me the Device-ID of 0, so what could be the problem here?",
     "runtime.no_device", "CUDA_VISIBLE_DEVICES=0"),
    # https://github.com/Kent0n-Li/FGDM/issues/7 (single GPU: add os.environ["CUDA_VISIBLE_DEVICES"] = "0")
    ("during running the code, i faced this error : RuntimeError: No CUDA GPUs are available.",
     "runtime.no_device", "CUDA_VISIBLE_DEVICES"),
    # https://github.com/BVLC/caffe/issues/4225 (AWS g2.2xlarge after installing the driver: "A simple restart fixed the issue")
    ("I compiled Caffe with CUDA and cuDNN, when I run `make runtest`:\n"
     "F0527 08:43:32.401912 27274 syncedmem.hpp:18] Check failed: error == cudaSuccess (38 vs. 0)  no CUDA-capable device is detected\n"
     "I am running on AWS g2.2xlarge instance, Ubuntu 14.04, CUDA 7.5, cuDNN v5.",
     "runtime.no_device", "reboot"),

    # ======== runtime.insufficient_driver: the driver older than the program's CUDA first; no driver at all
    # (nvidia-smi fails, a container started without GPUs) second
    # https://github.com/nagadomi/nunif/issues/702 ("please install the latest NVIDIA driver. CUDA 13 requires a newer driver")
    ("RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/NVIDIA/nvidia-docker/issues/400 (serg06: "fix this issue by running the container with `--gpus all`")
    ("CUDA driver version is insufficient for CUDA runtime version",
     "runtime.insufficient_driver", "--gpus all"),
    # https://github.com/phvu/cuda-smi/issues/10 (macOS CUDA 9.2 with CUDA driver 396.148: update the CUDA driver for the Mac)
    ("I got an error saying, `Error: CUDA driver version is insufficient for CUDA runtime version in cudaGetDeviceCount "
     "at ./cuda-smi.cpp:23`.\nI use CUDA 9.2 with driver 396.148 under macOS 10.13.6.",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/Xtra-Computing/thundersvm/issues/47 (Manjaro, CUDA 9.1 from pacman without a fitting driver: install the driver)
    ("Getting this while executing the sample set. Thundersvm was built successfully.\nCuda version: cuda-9.1.85.2-1\n"
     "Manjaro Linux, GeForce 840M\nCUDA driver version is insufficient for CUDA runtime version",
     "runtime.insufficient_driver", "upgrade the driver"),

    # ======== container.no_gpu_runtime: the toolkit installed, registered, docker restarted; snap docker replaced
    # https://github.com/NVIDIA/nvidia-docker/issues/1034 (install nvidia-docker2 / the toolkit, `sudo systemctl restart docker`)
    ('docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
     "container.no_gpu_runtime", "systemctl restart docker"),
    # https://github.com/NVIDIA/dcgm-exporter/issues/33 ("fixed it by installing the nvidia-container-toolkit")
    ("I am getting:\n`docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].`",
     "container.no_gpu_runtime", "nvidia-container-toolkit"),
    # https://github.com/SortAnon/ControllableTalkNet/issues/31 (Arch: `yay nvidia-container-toolkit`, `sudo systemctl restart docker`)
    ("docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n\ndid I set docker up wrong?",
     "container.no_gpu_runtime", "nvidia-container-toolkit"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1591 (docker from snap: `sudo snap services docker`; #1642: snap docker cannot use the toolkit)
    ("Running \n`bash docker/launch.sh --tag tensorrt-ubuntu18.04-cuda11.5 --gpus all`\nI get the error \n"
     "`docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].`\n"
     "Docker seems to be running.\n`sudo snap services docker'\n'docker.dockerd enabled active -`",
     "container.no_gpu_runtime", "sudo snap remove docker"),
    # ======== driver.unknown_error: reload nvidia_uvm (or all nvidia modules) or reboot; a clean reinstall when a reboot fails
    # https://github.com/NVIDIA/DIGITS/issues/1621 (after a wake up from suspension; "after reboot, everything works fine")
    ("F0504 12:30:02.978602 2662 common.cpp:163] Check failed: error == cudaSuccess (30 vs. 0) unknown error\n"
     "*** Check failure stack trace: ***\ncudaRuntimeGetVersion() failed with error #30\n"
     "If I try ./deviceQuery,it gives:\ncudaGetDeviceCount returned 30\n-> unknown error",
     "driver.unknown_error", "reboot"),
    # ======== driver.not_loaded: `sudo modprobe nvidia` decides (module not built for the kernel, Secure Boot, not
    # loaded at boot); nouveau holding the GPU; a container started without GPU access
    # https://github.com/mattshma/bigdata/issues/108 (plain `docker run` with the host's binaries mounted; `nvidia-docker` fixed it)
    ("使用：\n`sudo docker run -v /usr/bin:/usr/local/nvidia/bin -v /usr/lib64/nvidia:/usr/local/nvidia/lib -p 8888:8888 "
     "MY_DOCKER_IMAGE` 启动 jupyter 镜像后，登录 jupyter terminel，执行命令报错如下：\n$ nvidia-smi\n"
     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running.",
     "driver.not_loaded", "nvidia-docker run"),
    # https://github.com/shenuiuin/LXD_GPU_SERVER/issues/16 (host driver, the GPU added to the container's config, the host's driver version inside)
    ("在容器内安装完驱动后显示“NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
     "that the latest NVIDIA driver is installed and running.”",
     "driver.not_loaded", "lxc config device add CONTAINER gpu gpu"),
    # ======== gpu.hardware_fault: a shared node drained; one's own machine: power, seating, cooling; an external or
    # riser link at a lower PCIe generation
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1151 (RTX 5090/5080 Xid 79; "stable after moving to a dedicated 20A circuit")
    ("NVRM: GPU at PCI:0000:06:00: GPU-0b6b7808-c002-f593-ac86-cd8e57757b94\nNVRM: GPU Board Serial Number: 0\n"
     "NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.\nNVRM: GPU 0000:06:00.0: GPU has fallen off the bus.",
     "gpu.hardware_fault", "a wall circuit"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/974 (RTX 5060 Ti in a TB3/4 dock: "limiting the PCIe to Gen2 makes the CUDA computation workloads pretty stable ... no xid79 events")
    ("For anyone struggling with RTX 5060Ti + WKG-L1970C TB3/4 dock\n"
     "NVRM: Xid (PCI:0000:05:00): 79, GPU has fallen off the bus.",
     "gpu.hardware_fault", "lower PCIe generation"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1247 (RTX 5070 Ti over OCuLink; the link errors, then Xid 79)
    ("RTX 5070 Ti (GB203) external via **OCuLink** into an **AOOSTAR AG02** (own 800 W PSU)\n"
     "pcieport 0000:00:1b.0: PCIe Bus Error: severity=Correctable,\n  type=Physical Layer, (Receiver ID)  [ 0] RxErr (First)\n"
     "NVRM: Xid (PCI:0000:03:00): 79, GPU has fallen off the bus.\n"
     "NVRM: Xid: 154, GPU recovery action changed to 0x2 (Node Reboot Required)",
     "gpu.hardware_fault", "lower PCIe generation"),
    # ======== gpu.busy_exclusive: one process per GPU; another GPU, or the mode set back to Default
    # https://github.com/cositools/cosipy/issues/631 (devices = ["cuda:1", "cuda:2", "cuda:3"] without cuda:0 fixed it on several machines)
    ("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
     "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
     "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
     "gpu.busy_exclusive", "leave it out of the program's device list"),
]

test_first_answer = first_answer_tests(CASES)
