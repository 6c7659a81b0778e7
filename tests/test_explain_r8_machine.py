"""Issue 18, round 8, helper [machine]: driver, kernel module, container runtime, HPC nodes, hardware.

Sampled like the held-out sets (resolved threads in search order) plus fresh7's burned misses of this area.
The families the answers follow: nvidia-smi's own message inside a container means the runtime mounted
NVML with it (the container's links or the runtime's ldconfig step, not --gpus; a Debian host's ldconfig
path first); modpost's "GPL-only symbol" for the NVIDIA module is a driver release older than the kernel;
RmInitAdapter's (initStatus:rmStatus:line) triple and the GPU decide between the platform (Blackwell desktop
GPUs: Resizable BAR / Above 4G decoding) and a driver release (0x62, GSP init); enroot/pyxis on Slurm nodes.
Each tuple is a trimmed verbatim excerpt of the thread above it: the first environment answer must be
``want_id`` and its first fix line must hold ``want_fix``.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/862 (burned fresh7 b57: RTX 5090, RmInitAdapter 0x22:0x56; fixed by Resizable BAR and Above 4G decoding in the BIOS)
    ("# nvidia-smi\n"
     "No devices were found\n"
     "\n"
     "# meanwhile, output in /var/log/syslog\n"
     "Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n"
     "Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:884)\n"
     "Jul 01 22:55:07 gpu kernel: NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2b85)",
     "driver.gpu_init_failed", "Resizable BAR"),
    # https://github.com/warmshao/FasterLivePortrait/issues/8 (burned fresh7 b58: the project's image, nvidia-smi runs in it; fixed by remaking the .so.1 links)
    ("When I run `nvidia-smi` in the docker you provided, I get the error: \n"
     "\n"
     "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.\n"
     "Please also try adding directory that contains libnvidia-ml.so to your system PATH.\n"
     "\n"
     "How can I fix this error? Thanks!\n"
     "\n"
     "Yes I installed nvidia driver, I can run `nvidia-smi` outside docker container. My system is ubuntu 18.04, GPU is V100.",
     "loader.nvml_library_missing", "ln -sf libnvidia-ml.so."),
    # https://github.com/mesosphere/konvoy-image-builder/pull/1200 (burned fresh7 b61: 470.199.02 on 5.15.0-1070-aws, modpost GPL-only symbol; fixed by the latest 470)
    ("-> Error.\n"
     "ERROR: An error occurred while performing the step: \"Checking to see whether the nvidia kernel module was successfully built\". See /var/log/nvidia-installer.log for details.\n"
     "-> The command `cd ./kernel; /usr/bin/make -k -j8 NV_KERNEL_MODULES=\"nvidia\" NV_EXCLUDE_KERNEL_MODULES=\"\" SYSSRC=\"/lib/modules/5.15.0-1070-aws/build\" SYSOUT=\"/lib/modules/5.15.0-1070-aws/build\"` failed with the following output:\n"
     "\n"
     "make[1]: Entering directory '/usr/src/linux-headers-5.15.0-1070-aws'\n"
     "warning: the compiler differs from the one used to build the kernel\n"
     "The kernel was built by: gcc (Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0\n"
     "You are using: cc (Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0\n"
     "MODPOST /opt/dkp/nvidia/NVIDIA-Linux-x86_64-470.199.02/kernel/Module.symvers\n"
     "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol 'rcu_read_unlock_strict'\n"
     "make[2]: *** [scripts/Makefile.modpost:133: /opt/dkp/nvidia/NVIDIA-Linux-x86_64-470.199.02/kernel/Module.symvers] Error 1\n"
     "make[2]: *** Deleting file '/opt/dkp/nvidia/",
     "driver.module_build_failed", "newest release of the same branch"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1671 (sample s01: NVML Unknown Error after hours; NVIDIA's workaround 1 is nvidia-ctk create-dev-char-symlinks)
    ("After a random amount of time (it could be hours or days) the GPUs become unavailable inside all the running containers and `nvidia-smi` returns \"Failed to initialize NVML: Unknown Error\".\n"
     "A restart of all the containers fixes the issue and the GPUs return available.\n"
     "Outside the containers the GPUs are still working correctly.\n"
     "All the containers are run with `docker run --gpus all -it tensorflow/tensorflow:latest-gpu /bin/bash`",
     "container.nvml_lost", "create-dev-char-symlinks"),
    # https://github.com/NVIDIA/nvidia-docker/issues/854 (sample s02: Debian testing host, --runtime=nvidia; fixed by config.toml's ldconfig path)
    ("$ sudo docker run --runtime=nvidia --rm nvidia/cuda:10.0-base nvidia-smi\n"
     "Unable to find image 'nvidia/cuda:10.0-base' locally\n"
     "Status: Downloaded newer image for nvidia/cuda:10.0-base\n"
     "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.\n"
     "Please also try adding directory that contains libnvidia-ml.so to your system PATH.\n"
     "~$ uname -a\n"
     "Linux bonsai 5.2.0-3-amd64 #1 SMP Debian 5.2.17-1 (2019-09-26) x86_64 GNU/Linux",
     "loader.nvml_library_missing", "ldconfig = \"@/sbin/ldconfig\""),
    # https://github.com/NVIDIA/libnvidia-container/issues/67 (sample s03: Debian 10 host; ldconfig in the container fixed it (the runtime's ldconfig step failed))
    ("OS : Debian 10\n"
     "libnvidia-container 1 1.0.4-1\n"
     "nvidia-container-runtime 3.1.2-1\n"
     "Nvidia 430.40\n"
     "Docker 19.03.1\n"
     "\n"
     "When a launch docker container with nvidia-runtime-container, nvidia-smi command inside the container says :\n"
     "\n"
     "    NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.\n"
     "    Please also try adding directory that contains libnvidia-ml.so to your system PATH.",
     "loader.nvml_library_missing", "ldconfig"),
    # https://github.com/warmshao/FasterLivePortrait/issues/114 (sample s04: the project's image (镜像); fixed by remaking the links of #9)
    ("您好，我下载了您的镜像后，gpu不可用。输入nvidia-smi命令，提示NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.\n"
     "Please also try adding directory that contains libnvidia-ml.so to your system PATH。修改环境变量等方法都尝试过了还是不行。",
     "loader.nvml_library_missing", "ln -sf libnvidia-ml.so."),
    # https://github.com/zabbly/linux/issues/15 (sample s05: 6.7.3 and __rcu_read_lock; a newer driver)
    ("6.7.3 kernel + nvidia incompatibility: ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_lock'",
     "driver.module_build_failed", "newer release of the driver"),
    # https://github.com/xanmod/linux/issues/411 (sample s06: xanmod 6.6.15, DKMS 545.29.06; a newer driver)
    ("# MODPOST /var/lib/dkms/nvidia/545.29.06/build/Module.symvers\n"
     "   scripts/mod/modpost -M -m -a      -o /var/lib/dkms/nvidia/545.29.06/build/Module.symvers -T /var/lib/dkms/nvidia/545.29.06/build/modules.order -i Module.symvers -e\n"
     "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_lock'\n"
     "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_unlock'\n"
     "make[3]: *** [scripts/Makefile.modpost:145: /var/lib/dkms/nvidia/545.29.06/build/Module.symvers] Error 1\n"
     "make[2]: *** [/usr/src/linux-headers-6.6.15-x64v3-xanmod1/Makefile:2020: modpost] Error 2\n"
     "make[1]: *** [Makefile:234: __sub-make] Error 2\n"
     "make[1]: Leaving directory '/usr/src/linux-headers-6.6.15-x64v3-xanmod1'\n"
     "make: *** [Makefile:82: modules] Error 2",
     "driver.module_build_failed", "newer release of the driver"),
    # https://github.com/chaotic-cx/nyx/issues/1069 (sample s07: 6.15 and __vma_start_write, 570.153.02 under Nix; a newer driver)
    ("       > WARNING: modpost: missing MODULE_DESCRIPTION() in nvidia.o\n"
     "       > ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__vma_start_write'\n"
     "       > ERROR: modpost: GPL-incompatible module nvidia-drm.ko uses GPL-only symbol '__vma_start_write'\n"
     "       > make[4]: *** [/nix/store/6lcz8r0ygva68y2iy6b1idqypc5lv0hq-linux-6.15.0-dev/lib/modules/6.15.0-cachyos/source/scripts/Makefile.modpost:147: Module.symvers] Error 1\n"
     "       > make[2]: Leaving directory '/build/NVIDIA-Linux-x86_64-570.153.02/kernel'",
     "driver.module_build_failed", "newer release of the driver"),
    # https://github.com/NVIDIA/pyxis/issues/47 (sample s08: Slurm + pyxis; fixed by ConstrainDevices=yes in cgroup.conf)
    ("SLURM + pyxis-enroot, \"no CUDA-capable device is detected\"",
     "runtime.no_device", "ConstrainDevices=yes"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/23 (sample s09: the device plugin loads no NVML; nvidia as the default runtime fixed it)
    ("I install nvidia-docker2, and deploment device plugin in kubernetes 1.8, but kubectl describe pods, I get the error.\n"
     "\n"
     "loading NVML\n"
     "Failed to start nvml with error:  could not load NVML library",
     "container.k8s_nvml_unavailable", "default runtime"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/507 (sample s10: Xid 79 while gaming; the maintainer: heat, power, seating, SBIOS)
    ("GPU has fallen off of the bus\n"
     "Hardware: GPU 0: NVIDIA GeForce RTX 3070 Ti\n"
     "gpu randomly falls off the bus when playing games on the nvidia gpu",
     "gpu.hardware_fault", "power"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/876 (sample s11: RTX 5070 laptop, 0x62 (GSP init): a driver release (570.169 / 570.172.08), not the BIOS)
    ("RTX 5070 TI Mobile not being detected on latest open driver\n"
     "**The fix landed in 570.169 and 575.64, then broke by 570.190.** I bisected it on a GB206M (RTX 5070 Laptop, `10de:2d58`):\n"
     "- **`RmInitAdapter failed! (0x62:0x1f:*)`** — the regression above. Try 570.169 or 570.172.08.",
     "driver.gpu_init_failed", "driver release"),
    # https://github.com/NVIDIA/pyxis/issues/110 (sample s14: pyxis/enroot hook without nvidia-container-cli on the node)
    ("pyxis: importing docker image ...\n"
     "slurmstepd: error: pyxis: container start failed with error code: 1\n"
     "slurmstepd: error: pyxis: printing contents of log file ...\n"
     "slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container\n"
     "slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1\n"
     "slurmstepd: error: pyxis: couldn't start container\n"
     "slurmstepd: error: pyxis: if the image has an unusual entrypoint, try using --no-container-entrypoint\n"
     "slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1\n"
     "slurmstepd: error: Failed to invoke spank plugin stack",
     "container.enroot_no_container_cli", "libnvidia-container-tools"),
    # https://github.com/junxnone/tio/issues/206 (sample u01: Ubuntu updated the kernel after a .run install; reinstalling the driver fixed it)
    ("# Error log\n"
     "```\n"
     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"
     "```\n"
     "> 初步怀疑Ubuntu会自动更新内核，但是nvidia driver 安装时只是编译安装了当前内核版本的driver，所以更换了内核导致driver启动不了，",
     "driver.not_loaded", "Build the NVIDIA module for the kernel that runs now"),
    # https://github.com/CachyOS/linux-cachyos/issues/118 (guard (thread in the fresh corpus): nvidia-dkms for the custom cachyos kernel; `linux` works)
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"
     "I\\`ve already installed `nvidia-dkms` and using kernel `linux-cachyos`.\n"
     "It can work while I am running the `linux` kernel.",
     "driver.not_loaded", "linux-cachyos-headers"),
    # https://github.com/lyulyul/shine-cluster/issues/50 (guard (fresh corpus 554): unattended-upgrade changed the driver packages; purge and reinstall one driver)
    ("$ nvidia-smi\n"
     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"
     "```\n"
     "\n"
     "Not sure it's related to #30 .\n"
     "\n"
     "/var/log/apt/history.log.1.gz has\n"
     "\n"
     "```\n"
     "Start-Date: 2021-06-04  06:41:09\n"
     "Commandline: /usr/bin/unattended-upgrade\n"
     "Upgrade: libnvidia-common-460:amd64 (460.73.01-0ubuntu0.20.04.1, 460.80-0ubuntu0.20.04.2)\n"
     "End-Date: 2021-06-04  06:41:09\n"
     "```",
     "driver.not_loaded", "--reinstall"),
    # https://github.com/OpenBMB/XAgent/issues/273 (guard (sampled corpus): docker without the NVIDIA runtime; installing nvidia-container-toolkit fixed it)
    ("1. docker pull xagentteam/xagentgen:latest\n"
     "2. 运行docker命令\n"
     "## Error Screenshots or Logs / 错误截图或日志\n"
     "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n"
     "ERRO[0000] error waiting for container:",
     "container.no_gpu_runtime", "nvidia-container-toolkit"),
    # https://github.com/NVIDIA/nvidia-docker/issues/825 (sample v01: nvidia-smi in the image; the hook's --require=cuda>=8.0 is no driver claim (3XX0: remove it from the image))
    ("OCI runtime create failed: container_linux.go:348: starting container process caused \"process_linux.go:402: container init caused \\\"process_linux.go\n"
     ":385: running prestart hook 1 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig.real --device=all --com\n"
     "pute --compat32 --graphics --utility --video --display --require=cuda>=8.0 --pid=32239 /var/lib/docker/overlay2/bd4f3570d4eb99d9df1117bd3751a00c8c0eb63429e65eba2a196c6c543cc52f/merged]\\\\\\\\nnvidia-container-cli: m\n"
     "ount error: file creation failed: /var/lib/docker/overlay2/bd4f3570d4eb99d9df1117bd3751a00c8c0eb63429e65eba2a196c6c543cc52f/merged/usr/bin/nvidia-smi: file exists\\\\\\\\n\\\\\\\"\\\"\": unknown",
     "container.driver_libs_in_image", "rm -f /usr/bin/nvidia-smi"),
    # https://github.com/NVIDIA/nvidia-docker/issues/957 (sample v03: a GPU name read as a path; libnvidia-container 1.0.2 fixed it)
    ("nvidia-container-cli: mount error: stat failed: /GeForce: no such file or directory",
     "container.libnvidia_container_old_paths", "--only-upgrade libnvidia-container1"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1316 (a 32-bit PCI domain cut to 16 bits (Azure); a newer libnvidia-container)
    ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process caused \"process_linux.go:449: container init caused \\\"process_linux.go:432: running prestart hook 0 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: mount error: stat failed: /proc/driver/nvidia/gpus/cfdd:00:00.0: no such file or directory\\\\\\\\n\\\\\\\"\\\"\": unknown.",
     "container.libnvidia_container_old_paths", "--only-upgrade libnvidia-container1"),
    # https://github.com/warmshao/FasterLivePortrait/issues/37 (sample w01: the project's image, libcuda.so.1 empty; the maintainer pointed to #9 (ln -sf))
    ("(base) root@a2d7b9b1e3ab:~/FasterLivePortrait# python app.py --mode onnx\n"
     "Traceback (most recent call last):\n"
     "  File \"/root/FasterLivePortrait/src/models/predictor.py\", line 23, in <module>\n"
     "    import pycuda.driver as cuda\n"
     "  File \"/root/miniconda3/lib/python3.10/site-packages/pycuda/driver.py\", line 66, in <module>\n"
     "    from pycuda._driver import *  # noqa\n"
     "ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short",
     "container.driver_lib_placeholder", "ln -sf libcuda.so.$(cat /sys/module/nvidia/version) libcuda.so.1"),
    # https://github.com/warmshao/FasterLivePortrait/issues/9 (sample w02: ls shows the 0-byte libcuda.so.1 beside the mounted libcuda.so.550.54.14; ln -sf fixed it)
    ("ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short\n"
     "(base) root@043b4f260e97:~/FasterLivePortrait# ls -l /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
     "-r-xr-xr-x 1 root root 0 Jul 17 08:41 /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
     "(base) root@6fddf8ba7f43:~/FasterLivePortrait# ls -lh /usr/lib/x86_64-linux-gnu/libcuda.so*\n"
     "lrwxrwxrwx 1 root root  12 Jul 17 08:41 /usr/lib/x86_64-linux-gnu/libcuda.so -> libcuda.so.1\n"
     "-r-xr-xr-x 1 root root   0 Jul 17 08:41 /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
     "-rw-r--r-- 1 root root 21M Feb 27  2023 /usr/lib/x86_64-linux-gnu/libcuda.so.515.105.01\n"
     "-rw-r--r-- 1 root root 28M Feb 28 20:43 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14",
     "container.driver_lib_placeholder", "ln -sf libcuda.so."),
    # https://github.com/Thinklab-SJTU/R3Det_Tensorflow/issues/78 (sample w03: plain `docker run`; the maintainer: use nvidia-docker)
    (">>> import tensorflow\n"
     "Traceback (most recent call last):\n"
     "  File \"/usr/local/lib/python3.5/dist-packages/tensorflow/python/pywrap_tensorflow.py\", line 58, in <module>\n"
     "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
     "ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short\n"
     "\n"
     "During handling of the above exception, another exception occurred:\n"
     "\n"
     "是不是启动容器时候需要一些特殊参数啊？\n"
     "我的docker 容器启动方式：\n"
     "docker run -it f2808fb1dfe9 bash",
     "container.driver_lib_placeholder", "--gpus all"),
    # https://github.com/NVIDIA/gdrcopy/issues/254 (sample s12: GPL-only symbol in gdrdrv on Rocky 9.1; fixed in gdrcopy's master branch)
    ("When trying to compile `gdrcopy` on Rocky Linux release 9.1, kernel version 5.14.0-162.23.1.el9_1.x86_64 I get this error\n"
     "make[1]: Entering directory '/usr/src/kernels/5.14.0-162.23.1.el9_1.x86_64'\n"
     "  MODPOST /usr/src/gdrdrv-2.3/Module.symvers\n"
     "ERROR: modpost: GPL-incompatible module gdrdrv.ko uses GPL-only symbol 'cc_mkdec'\n"
     "make[2]: *** [scripts/Makefile.modpost:134: /usr/src/gdrdrv-2.3/Module.symvers] Error 1",
     "driver.gdrdrv_build_failed", "newer GDRCopy"),
    # https://github.com/NVIDIA/gdrcopy/issues/335 (open thread, same family: gdrdrv.c does not compile on 6.17)
    (" DKMS (dkms-3.3.0) make.log for gdrdrv/2.5 for kernel 6.17.0-1004-nvidia-64k (arm64)\n"
     "   CC [M]  gdrdrv.o\n"
     " gdrdrv.c:157:20: error: redefinition of ‘vm_flags_set’\n"
     "   157 | static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)\n"
     "       |                    ^~~~~~~~~~~~",
     "driver.gdrdrv_build_failed", "master branch"),
    # https://github.com/NVIDIA/gdrcopy/issues/331 (open thread, the maintainer: the kernel's headers, or the kmod vs dkms package)
    ("rpm -Uvh gdrcopy-kmod-2.5-1dkms.el9.noarch.rpm\n"
     "Building and installing to all available kernels.\n"
     "This process may take a few minutes ...\n"
     "modprobe: FATAL: Module gdrdrv not found in directory /lib/modules/6.9/\n"
     "Job for gdrcopy.service failed because the control process exited with error code.",
     "driver.gdrdrv_build_failed", "headers"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/558 (sample k01: 390.157, the 390 branch's last release, on 6.5 after an update; a community patch and dkms install fixed it)
    ("Error! Bad return status for module build on kernel: 6.5.2-arch1-1 (x86_64)\n"
     "make[1]: Leaving directory '/usr/lib/modules/6.5.2-arch1-1/build'\n"
     "make: *** [Makefile:81: modules] Error 2\n"
     "### More Info\n"
     "The error happens after OS update\n"
     "$ cd /var/lib/dkms/nvidia/390.157/source",
     "driver.module_build_failed", "patches for this kernel"),
    # https://github.com/Frogging-Family/nvidia-all/issues/34 (guard, resolution not in the thread's text: 465.19.01 on a 5.12 release candidate, "Needs a patch"; a non-legacy release keeps the newer-release answer)
    ("==> dkms install --no-depmod -m nvidia -v 465.19.01 -k 5.12.0-rc5-144-tkg-cfs\n"
     "Error! Bad return status for module build on kernel: 5.12.0-rc5-144-tkg-cfs (x86_64)\n"
     "Consult /var/lib/dkms/nvidia/465.19.01/build/make.log for more information.\n"
     "/var/lib/dkms/nvidia/465.19.01/build/nvidia/nv-caps.c:598:5: error: implicit declaration of function ‘sys_close’ [-Werror=implicit-function-declaration]\n"
     "  598 |     sys_close(fd);\n"
     "      |     ^~~~~~~~~",
     "driver.module_build_failed", "driver release that supports this kernel"),
]


test_machine_first_answer = first_answer_tests(CASES)
