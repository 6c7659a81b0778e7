"""Issue 18, round 4, layer [driver-hw]: the NVIDIA driver, its kernel module and the GPU hardware.

Real excerpts of public threads (URL above each), trimmed but verbatim, with the entry that must
answer first and a piece of the first line of its fix (the fix that solved that thread first).
Program bugs: no environment cause may be claimed; where an entry gives the verdict, it is given.
"""

from __future__ import annotations


import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

# (text, want_id, want_fix_substring)
CASES = [
    # --- Secure Boot refuses the module --------------------------------------------------------
    # GNOME's journal on Ubuntu: https://github.com/acidanthera/bugtracker/issues/2237
    ("$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
     "latest NVIDIA driver is installed and running.\n\nmar 06 15:10:43 CS3003NS gdm3[7055]: modprobe: ERROR: could not "
     "insert 'nvidia': Key was rejected by service\nmar 06 15:12:17 CS3003NS nvidia-settings-autostart.desktop[2777]: "
     "ERROR: NVIDIA driver is not loaded", "driver.secure_boot_rejected", "mokutil"),
    # openSUSE's wiki, the kernel's lockdown line with modprobe's older wording:
    # https://en.opensuse.org/SDB:NVIDIA_drivers
    ("Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n"
     "modprobe: ERROR: could not insert 'nvidia': Required key not available", "driver.secure_boot_rejected",
     "Enroll the key"),
    # an Azure VM whose MOK enrollment screen cannot be reached: https://github.com/MicrosoftDocs/azure-docs/issues/111536
    ("when I run \"nvidia-smi\", unfortunately I get the same error as before: `NVIDIA-SMI has failed because it couldn't "
     "communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.`  I did get "
     "the MOK enrollment screen same as before, after I ran \"sudo apt update && sudo apt install -y "
     "ubuntu-drivers-common\".", "driver.not_loaded", "Secure Boot off"),
    # KDE on Fedora 39 after an update; the reporter finds Secure Boot on in dmesg:
    # https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/288
    ("the start screen of KDE Plasma shows \"NVIDIA kernel module not found. Falling back to Nouveau.\" even after several "
     "reboots and re-installation of `akmod-nvidia`.\nHmm, I was about to say \"no\" as this first shows \"Secure boot "
     "disabled\" (twice), but in the end it also shows \"Secure boot is enabled\"!?",
     "driver.not_loaded", "Secure Boot off"),
    # --- nouveau holds the GPU -----------------------------------------------------------------
    # the .run installer inside OpenPAI's driver container: https://github.com/microsoft/pai/issues/2962
    ("ERROR: The Nouveau kernel driver is currently in use by your system", "driver.nouveau_conflict",
     "blacklist nouveau"),
    # the kernel module's side (CentOS, 3 GPUs): https://github.com/mattshma/bigdata/issues/133
    ("[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).\n[188549.977053] NVRM: This can "
     "occur when a driver such as: \nNVRM: nouveau, rivafb, nvidiafb or rivatv \nNVRM: was loaded and obtained ownership "
     "of the NVIDIA device(s).", "driver.nouveau_conflict", "update-initramfs"),
    # --- the module is not built for the running kernel ----------------------------------------
    # DKMS, legacy 390.xx on a newer kernel: https://github.com/NVIDIA/open-gpu-kernel-modules/issues/526
    # ([r8 machine] 390.157 is the branch's last release: the thread's fix was a patch, so the patches come first)
    ("'make' -j8 IGNORE_PREEMPT_RT_PRESENCE=1 NV_EXCLUDE_BUILD_MODULES='__EXCLUDE_MODULES' KERNEL_UNAME=6.4.1-zen1-1-zen "
     "modules.......................(bad exit status: 2)\nError! Bad return status for module build on kernel: "
     "6.4.1-zen1-1-zen (x86_64)\nConsult /var/lib/dkms/nvidia/390.157/build/make.log for more information.",
     "driver.module_build_failed", "patches for this kernel"),
    # DKMS on Fedora 40 (545 against kernel 6.8): https://github.com/NVIDIA/open-gpu-kernel-modules/issues/635
    ("'make' -j12 NV_EXCLUDE_BUILD_MODULES='' KERNEL_UNAME=6.8.10-300.fc40.x86_64 modules\nError! Bad return status "
     "for module build on kernel: 6.8.10-300.fc40.x86_64 (x86_64)\nConsult /var/lib/dkms/nvidia/545.29.02/build/make.log "
     "for more information.\ndkms autoinstall on 6.8.10-300.fc40.x86_64/x86_64 failed for nvidia(10)",
     "driver.module_build_failed", "driver release that supports this kernel"),
    # xbps on Void after a kernel update: https://github.com/voidlinux/void-packages/issues/4651
    ("nvidia-dkms-367.35_1: configuring ...\nDKMS module 'nvidia-367.35' already added, skipping.\nSkipping "
     "kernel-4.0.9_1. kernel-headers package not installed...\nBuilding DKMS module 'nvidia-367.35' for kernel-4.7.2_1... "
     "FAILED!\nDKMS module 'nvidia-367.35' failed to build, please check /var/lib/dkms\nfor errors in the log file.",
     "driver.module_build_failed", "driver release that supports this kernel"),
    # the .run installer without the kernel's sources (bumblebee-nvidia on Fedora 27):
    # https://github.com/Bumblebee-Project/Bumblebee/issues/925
    ("bumblebee-nvidia --debug\nERROR: Unable to find the kernel source tree for the currently running kernel.  Please "
     "make sure you have installed the\n       kernel source files for your kernel and that they are properly "
     "configured; on Red Hat Linux systems, for example, be\n       sure you have the 'kernel-source' or 'kernel-devel' "
     "RPM installed.", "driver.module_build_failed", "Install the headers of the running kernel"),
    # a .run install for the previous kernel, after a kernel update: https://github.com/NVIDIA/nvidia-docker/issues/365
    ("$ nvidia-smi\nmodprobe: FATAL: Module nvidia not found.\nNVIDIA-SMI has failed because it couldn't communicate "
     "with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n$ sudo modprobe nvidia\n"
     "modprobe: FATAL: Module nvidia not found.", "driver.module_build_failed", "dkms autoinstall"),
    # Arch's nvidia package (built for the stock kernel) under a -zen kernel: https://github.com/Witko/nvidia-xrun/issues/144
    ("modprobe: ERROR: could not find module by name 'nvidia'\nmodprobe: FATAL: nvidia_drm not found in directory "
     "/lib/modules/5.5.9-zen1-2-zen", "driver.module_build_failed", "dkms autoinstall"),
    # a legacy DKMS module that no longer builds, then mkinitcpio misses it:
    # https://github.com/korvahannu/arch-nvidia-drivers-installation-guide/issues/37
    ("==> dkms install --no-depmod nvidia/470.256.02 -k 6.14.4-arch1-2\n\nError! Bad return status for module build on "
     "kernel: 6.14.4-arch1-2 (x86_64)\nConsult /var/lib/dkms/nvidia/470.256.02/build/make.log for more information.\n"
     "==> ERROR: module not found: 'nvidia'\n==> ERROR: module not found: 'nvidia_modeset'",
     "driver.module_build_failed", "driver release that supports this kernel"),
    # --- the driver cannot initialise the GPU ---------------------------------------------------
    # a 3090 on 550 (nvidia-smi: No devices were found): https://github.com/NVIDIA/open-gpu-kernel-modules/issues/789
    ("invidia-smi , No devices were found, RmInitAdapter failed!\n[  903.609564] NVRM: RmInitAdapter: Cannot initialize "
     "GSP firmware RM\n[  903.610907] NVRM: GPU 0000:98:00.0: RmInitAdapter failed! (0x62:0x65:1792)\n[  903.611884] "
     "NVRM: GPU 0000:98:00.0: rm_init_adapter failed, device minor number 0", "driver.gpu_init_failed",
     "driver release"),
    # 510 on Debian 11 in VMware; others: "only with 525 drivers, not the 520": https://github.com/NVIDIA/cuda-samples/issues/104
    ("Feb 09 15:47:06 debian kernel: NVRM: GPU 0000:13:00.0: RmInitAdapter failed! (0x26:0x56:1463)\nFeb 09 15:47:06 "
     "debian kernel: NVRM: GPU 0000:13:00.0: rm_init_adapter failed, device minor number 0", "driver.gpu_init_failed",
     "driver release"),
    # a half-applied image update: user space 570.153.02, module 570.144 without its firmware:
    # https://github.com/ublue-os/bazzite/issues/2668
    ("[   12.014918] NVRM: API mismatch: the client has the version 570.153.02, but\n               NVRM: this kernel "
     "module has the version 570.144.  Please\n[   23.991660] nvidia 0000:07:00.0: Direct firmware load for "
     "nvidia/570.144/gsp_ga10x.bin failed with error -2\n[   23.991667] NVRM: RmFetchGspRmImages: No firmware image found\n"
     "[   23.991672] NVRM: GPU 0000:07:00.0: RmInitAdapter failed! (0x61:0x56:1770)", "driver.gpu_init_failed",
     "half-updated"),
    # --- the driver does not support this GPU --------------------------------------------------
    # Pascal on a 595 driver (NixOS): https://github.com/NixOS/nixos-hardware/issues/1828
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running.\n\nApr 13 16:41:14 nixos kernel: NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU "
     "installed in this system>\n                              NVRM:  supported through the NVIDIA 580.xx Legacy "
     "drivers. Please\n                              NVRM:  visit http://www.nvidia.com/object/unix.html for more\n"
     "                              NVRM:  information.  The 595.58.03 NVIDIA driver will ignore\n"
     "                              NVRM:  this GPU.  Continuing probe...\nApr 13 16:41:14 nixos kernel: NVRM: No "
     "NVIDIA GPU found.", "driver.gpu_unsupported", "580.xx legacy driver"),
    # Kepler on a 535 driver (Talos): https://github.com/siderolabs/talos/issues/8764
    ("kern:     err: [2024-05-20T02:46:53.856596762Z]: NVRM: The NVIDIA GeForce GT 710 GPU installed in this system is\n"
     " NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n NVRM:  visit http://www.nvidia.com/object/"
     "unix.html for more\n NVRM:  information.  The 535.129.03 NVIDIA driver will ignore\n NVRM:  this GPU.  Continuing "
     "probe...\n kern: warning: [2024-05-20T02:46:53.859954762Z]: NVRM: No NVIDIA GPU found.",
     "driver.gpu_unsupported", "470.xx legacy driver"),
    # Fermi on a 396 driver (Ansible role for CUDA nodes): https://github.com/fgci-org/ansible-role-cuda/issues/16
    ("[15280.304871] NVRM: The NVIDIA Tesla M2070 GPU installed in this system is\nNVRM:  supported through the NVIDIA "
     "390.xx Legacy drivers. Please\nNVRM:  visit http://www.nvidia.com/object/unix.html for more\nNVRM:  information.  "
     "The 396.26 NVIDIA driver will ignore\nNVRM:  this GPU.  Continuing probe...", "driver.gpu_unsupported",
     "390.xx legacy driver"),
    # open kernel modules on a Pascal GT 1030 (negativo17, 560): https://github.com/negativo17/nvidia-driver/issues/158
    ("kernel: NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01)\n             NVRM: installed in this system is "
     "not supported by open\n             NVRM: nvidia.ko because it does not include the required GPU\n"
     "             NVRM: System Processor (GSP).\nkernel: nvidia 0000:09:00.0: probe with driver nvidia failed with "
     "error -1\nkernel: NVRM: The NVIDIA probe routine failed for 1 device(s).", "driver.gpu_unsupported",
     "proprietary kernel modules"),
    # the first open modules on a GeForce (Arch): https://github.com/NVIDIA/open-gpu-kernel-modules/issues/230
    ("[    3.513141] NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.\n[    3.513144] NVRM: To force use "
     "of Open nvidia.ko on other GPUs, see the\n[    3.513145] NVRM: 'OpenRmEnableUnsupportedGpus' kernel module "
     "parameter described\n[    3.824916] NVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)",
     "driver.gpu_unsupported", "proprietary kernel modules"),
    # a vGPU in a VM with the plain data-center driver (Flatcar): https://github.com/flatcar/Flatcar/issues/1283
    ("insmod: ERROR: could not insert module nvidia.ko: No such device\n[130852.530546] NVRM: The NVIDIA GPU "
     "0000:02:00.0 (PCI ID: 10de:1b38)\n                NVRM: installed in this system is not supported by the\n"
     "                NVRM: NVIDIA 535.104.05 driver release.", "driver.gpu_unsupported", "driver release that lists"),
    # --- the kernel module and the user-space libraries differ ---------------------------------
    # the kernel's own line, after an upgrade without a reboot: https://github.com/NVIDIA/nvidia-docker/issues/182
    ("Aug 26 14:08:07 nyasara-linux kernel: NVRM: API mismatch: the client has the version 367.44, but\n"
     "                                      NVRM: this kernel module has the version 367.35.  Please\n"
     "                                      NVRM: make sure that this kernel module and all NVIDIA driver\n"
     "                                      NVRM: components have the same version.", "driver.version_mismatch",
     "reboot"),
    # the newer wording that names the client: https://github.com/Frogging-Family/nvidia-all/issues/394
    ("[    9.424670] NVRM: API mismatch: the client 'kwin_wayland' (pid 1005)\n               NVRM: has the version "
     "595.84, but this kernel module has\n               NVRM: the version 595.80.  Please make sure that this",
     "driver.version_mismatch", "reboot"),
    # under a Slurm appliance's Ansible run: https://github.com/stackhpc/ansible-slurm-appliance/issues/287
    ("Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, but#012NVRM: this kernel "
     "module has the version 530.30.02.  Please#012NVRM: make sure that this kernel module and all NVIDIA driver#012NVRM: "
     "components have the same version.", "driver.version_mismatch", "reboot"),
    # --- unstable GPU under load (an overclock), not the program --------------------------------
    # nicehash excavator: https://github.com/nicehash/excavator/issues/160
    ("CUDA error 'unspecified launch failure' in func 'cuda_daggerhashimoto::run'\nWith latest Version 1.4.2 alpha "
     "NVIDIA release.\nOverclock: 100% power, +125 MHz core, +600 memory\nDriver: 388.71", "gpu.unstable_under_load",
     "overclock"),
    # ccminer on six GTX 1070 at +600 memory: https://github.com/KlausT/ccminer/issues/123
    ("Cuda error in func 'neoscrypt_cpu_hash_k4_2stream' at line 1476 : unspecified launch failure.\nThe miner runs on "
     "Windows10 with six dedicated Nvidia ASUS Strix GTX 1070 OC graphic cards, driver version 388.71. All cards are "
     "set to 80% power and +600 memory clock (resulting in 4404MHz), using MSI Afterburner.", "gpu.unstable_under_load",
     "overclock"),
    # PhoenixMiner through RainbowMiner: https://github.com/RainbowMiner/RainbowMiner/issues/363
    ("CUDA error in CudaProgram.cu:329 : unspecified launch failure (719)\nGPU5 search error: unspecified launch failure\n"
     "Eth speed: 0.000 MH/s, shares: 6/0/3, time: 0:02", "gpu.unstable_under_load", "overclock"),
    # --- a vGPU without a license -----------------------------------------------------------------
    # the GPU operator's driver container: https://github.com/NVIDIA/gpu-operator/issues/628
    ("➭ k -n gpu-operator exec -c nvidia-driver-ctr nvidia-driver-daemonset-hmcvq -- nvidia-smi -q\n    vGPU Software "
     "Licensed Product\n        Product Name                      : NVIDIA Virtual Compute Server\n        License Status"
     "                    : Unlicensed (Restricted)", "gpu.vgpu_unlicensed", "ClientConfigToken"),
    # GPU memory allocation throttled after a few minutes (OKD on VMware): https://github.com/NVIDIA/gpu-operator/issues/220
    ("    vGPU Software Licensed Product\n        Product Name                      : NVIDIA Virtual Compute Server\n"
     "        License Status                    : Unlicensed", "gpu.vgpu_unlicensed", "ClientConfigToken"),
    # nvidia-gridd's own log: https://github.com/NVIDIA/nvidia-docker/issues/1787
    ("Oct 12 17:22:37 xxxxxxxxxx nvidia-gridd: Failed to register client (2)\nOct 12 17:22:37 xxxxxxxxxx nvidia-gridd: "
     "Failed to acquire license from XXX.XXX.XXX.XXX", "gpu.vgpu_unlicensed", "nvidia-gridd"),
    # torch on Azure NVads A10 v5 (the reporter suspects vGPU licensing): https://github.com/Azure/AKS/issues/4870
    ("# [BUG] Nvidia A10 GPUs running into device errors - potentially vGPU Unlicensed Issue\nRuntimeError: CUDA error: "
     "CUDA-capable device(s) is/are busy or unavailable\nCUDA kernel errors might be asynchronously reported at some "
     "other API call, so the stacktrace below might be incorrect.", "gpu.busy_exclusive", "License the vGPU"),
    # TensorFlow on a Compute Canada VM: https://github.com/DDMAL/Rodan/issues/1332
    ("# GPU CUDA Initialization Issue - vGPU License Problem\ntensorflow.python.framework.errors_impl.InternalError: CUDA "
     "runtime implicit initialization on GPU:0 failed. Status: all CUDA-capable devices are busy or unavailable",
     "gpu.busy_exclusive", "License the vGPU"),
    # --- MIG mode waits for a reset ----------------------------------------------------------
    # nvidia-persistenced holds the GPU (GPU operator): https://github.com/NVIDIA/gpu-operator/issues/118
    ("$ nvidia-smi -mig DISABLED\nWarning: MIG mode is in pending disable state for GPU 00000000:C1:00.0:In use by "
     "another client\n00000000:C1:00.0 is currently being used by one or more other processes (e.g. CUDA application or "
     "a monitoring application such as another instance of nvidia-smi). Please first kill all processes using the device "
     "and retry the command or reboot the system to make MIG mode effective.", "gpu.mig_mode_pending",
     "nvidia-persistenced"),
    # nvidia_drm holds the GPUs (mig-parted): https://github.com/NVIDIA/mig-parted/issues/181
    ("ERRO[0003]\nThe following GPUs could not be reset:\n  GPU 00000000:01:00.0: In use by another client\n  GPU "
     "00000000:47:00.0: In use by another client\n\n4 devices are currently being used by one or more other processes",
     "gpu.mig_mode_pending", "rmmod nvidia_drm"),
    # A100 with a 580 driver (GPU operator's MIG manager): https://github.com/NVIDIA/gpu-operator/issues/1845
    ("\"2025-10-30T07:33:20Z\" level=fatal msg=\"Error applying MIG configuration with hooks: unable to apply MIG config "
     "with MIG mode disabled\"\n[root@nvidia-driver-daemonset-m4wl8 drivers]# nvidia-smi -mig 1 \nWarning: MIG mode is in "
     "pending enable state for GPU 00000001:00:00.0:In use by another client 00000001:00:00.0 is currently being used",
     "gpu.mig_mode_pending", "--gpu-reset"),
    # --- the Xid number decides --------------------------------------------------------------
    # Xid 119, GSP RPC timeouts on a 525 driver: https://github.com/NVIDIA/open-gpu-kernel-modules/issues/446
    ("[Fri Mar  3 04:27:08 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=1346198, name=nvidia-smi, Timeout waiting for RPC "
     "from GSP! Expected function 103 (GSP_RM_ALLOC) (0x80 0x38).\n[Fri Mar  3 04:27:53 2023] NVRM: Xid (PCI:0000:61:00): "
     "119, pid=1346198, name=nvidia-smi, Timeout waiting for RPC from GSP! Expected function 103 (GSP_RM_ALLOC) (0x2080 0x4).",
     "gpu.hardware_fault", "update the driver"),
    # the same node seen through nvidia-docker: https://github.com/NVIDIA/nvidia-docker/issues/1648
    ("[Mon Mar  6 21:37:31 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=905052, name=python, Timeout waiting for RPC from "
     "GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801702 0x4).", "gpu.hardware_fault", "update the driver"),
    # Xid 31 then 62 after a driver update (chia plotter): https://github.com/madMAx43v3r/chia-gigahorse/issues/301
    ("[14328.198504] NVRM: Xid (PCI:0000:0a:00): 31, pid=13332, name=cuda_plot_k32_v, Ch 00000010, intr 00000000. MMU "
     "Fault: ENGINE CE2 HUBCLIENT_CE0 faulted @ 0x7f29_5b8c9000. Fault is of type FAULT_PRIV_VIOLATION ACCESS_TYPE_VIRT_READ\n"
     "[14370.687545] NVRM: Xid (PCI:0000:0a:00): 62, pid='<unknown>', name=<unknown>, 2023b230 20238a3a 2023e8b6 2023eac4",
     "gpu.hardware_fault", "driver that worked"),
    # Xid 13/31 from a program's own kernel: a verdict, not an environment cause.
    # FlashInfer's all-reduce kernel writing out of bounds: https://github.com/flashinfer-ai/flashinfer/issues/3869
    ("19:14:43  NVRM: Xid (PCI:0000:1a:00): 13, Graphics Exception: ESR 0x57e7b0=0x81e0017 0x57e7b4=0x24 0x57e7a8=0x1f81fb60\n"
     "19:15:34  NVRM: Xid (PCI:0000:9a:00): 31, pid=477445, name=python3, channel 0x00000002, intr 00000000.\n"
     "          MMU Fault: ENGINE GRAPHICS GPC0 UNRECOGNIZED_CLIENT faulted @ 0x182400_0030198d.",
     "gpu.xid_application_fault", "compute-sanitizer"),
    # a BLAS test suite's kernels (Rust, CUDA tests fail): https://github.com/autumnai/collenchyma-blas/issues/14
    ("CUDA tests for dot and nrm2 fail.\n[  170.053881] NVRM: Xid (PCI:0000:01:00): 31, Ch 00000013, engmask 00000101, "
     "intr 10000000\n[  170.074502] NVRM: Xid (PCI:0000:01:00): 31, Ch 00000012, engmask 00000101, intr 10000000",
     "gpu.xid_application_fault", "compute-sanitizer"),
    # SM warp exception under a pytorch process (gpud's docs): https://github.com/leptonai/gpud/pull/46
    ("[Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, Graphics SM Warp "
     "Exception on (GPC 7, TPC 7, SM 0): Illegal Instruction Parameter\n[Fri Aug 30 11:43:14 2024] NVRM: Xid "
     "(PCI:0000:cb:00): 109, pid=1797828, name=pt_main_thread, Ch 00000008, errorString CTX SWITCH TIMEOUT, Info 0x58005",
     "gpu.xid_application_fault", "compute-sanitizer"),
]

# Program bugs (or messages with no sign of the environment): no environment cause is claimed.
NOT_ENVIRONMENT = [
    # a plain launch failure with no hardware context stays the [status] layer's (no claim here):
    # https://github.com/OneZeroMiner/onezerominer/issues/4 (the thread's only line)
    "CUDA Error: unspecified launch failure",
    # Secure Boot words about another module are not the NVIDIA driver's:
    # https://github.com/paroj/xpad/issues/312
    "modprobe: ERROR: could not insert 'xpad': Key was rejected by service",
    # Xid 31/43 repeating on one card the reporter calls faulty: no program verdict, and no claim either
    # (https://github.com/pytorch/pytorch/issues/51382, title: "... Likely a faulty device")
    "CUDNN_STATUS_INTERNAL_ERROR and Illegal Memory Access on CUDA11.2 and CUDA10.2. Likely a faulty device\n"
    "[Wed Jan 27 23:04:35 2021] NVRM: Xid (PCI:0000:3d:00): 43, pid=35521, Ch 00000008",
]


test_driverhw_threads_are_answered_by_cause = first_answer_tests(CASES, verdicts=True)


@pytest.mark.parametrize("text", NOT_ENVIRONMENT)
def test_driverhw_claims_nothing_without_evidence(text):
    assert not [m.id for m in explain(text) if m.environment and m.id.startswith(("driver.", "gpu."))]
