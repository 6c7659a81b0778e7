"""Round 20 (Linux distributions' NVIDIA/CUDA pages, cause by cause): the causes those pages list that the knowledge
base lacked or answered wrong first, each with its deciding lines from real threads and a near-miss that must keep
its answer.

- driver.kernel_compiler_older: a kernel module (NVIDIA's through DKMS / the .run installer) built by a gcc older than
  the one the running kernel was built with stops on a kernel-only flag (Ubuntu 22.04 HWE kernels built by gcc-12,
  Arch/Proxmox kernels newer than the installed gcc). The Makefile's "compiler differs" warning alone is no cause.
- driver.installer_module_in_use: nvidia-installer's other refusal while the driver is in use, an X server running.
- driver.module_aliased_off: `alias nvidia off` in a modprobe file (prime-select intel, GPU-switching tools,
  passthrough blacklists) makes modprobe insert a module named "off".
- driver.nouveau_conflict: Debian's "Conflicting nouveau kernel module loaded" dialog (its packages blacklist nouveau:
  reboot).
- nixos.nvidia_open_unset: NixOS's assertion that hardware.nvidia.open be set for driver 560+.
- pkg.nvidia_package_not_in_repos: apt/dnf find no NVIDIA or CUDA package because the repository that carries it for
  this release is not configured (NVIDIA's CUDA repository, Debian's contrib/non-free, RPM Fusion, EPEL's dkms, NVIDIA's
  container-toolkit repository) or the name does not exist for this release.

Each text is copied from the thread or file named above it."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/Plippo/asus-wmi-screenpad/issues/41 (Arch 5.19 kernel built by gcc 12.2, gcc 11.3 installed)
    ("make: Entering directory '/usr/lib/modules/5.19.3-arch1-1/build'\n"
     "warning: the compiler differs from the one used to build the kernel\n"
     "  The kernel was built by: gcc (GCC) 12.2.0\n"
     "  You are using:           gcc (GCC) 11.3.0\n"
     "  CC [M]  /var/lib/dkms/asus-wmi/1.0/build/asus-wmi.o\n"
     "  CC [M]  /var/lib/dkms/asus-wmi/1.0/build/asus-nb-wmi.o\n"
     "gcc: error: unrecognized command-line option \u2018-ftrivial-auto-var-init=zero\u2019\n"
     "make[1]: *** [scripts/Makefile.build:249: /var/lib/dkms/asus-wmi/1.0/build/asus-wmi.o] Error 1\n",
     "driver.kernel_compiler_older", "sudo apt install gcc-12"),
    # https://github.com/strongtz/i915-sriov-dkms/issues/85 (Proxmox 6.2 kernel built by Debian's gcc 12, gcc 10 here)
    ("make: Entering directory '/usr/src/linux-headers-6.2.16-3-pve'\n"
     "warning: the compiler differs from the one used to build the kernel\n"
     "  The kernel was built by: gcc (Debian 12.2.0-14) 12.2.0\n"
     "  You are using:           gcc (Debian 10.2.1-6) 10.2.1 20210110\n"
     "  CC [M]  /var/lib/dkms/i915-sriov/dkms/build/drivers/gpu/drm/i915/i915_driver.o\n"
     "gcc: error: unrecognized command-line option \u2018-mharden-sls=all\u2019\n",
     "driver.kernel_compiler_older", "sudo apt install gcc-12"),
    # https://github.com/intel-gpu/intel-gpu-i915-backports/issues/106 (title: Ubuntu 22.04.2, gcc 11.3.0, kernel 5.19)
    ("gcc: error: unrecognized command-line option \u2018-ftrivial-auto-var-init=zero\u2019\n",
     "driver.kernel_compiler_older", "The kernel was built by:"),
    # https://github.com/zen-kernel/zen-kernel/issues/305: Arch's DKMS hook, nvidia-dkms on linux-zen ("Install the
    # kernel headers and the error will go away")
    ("==> dkms install --no-depmod nvidia/525.89.02 -k 6.2.6-zen1-1-zen\n"
     "Error! Bad return status for module build on kernel: 6.2.6-zen1-1-zen (x86_64)\n"
     "Consult /var/lib/dkms/nvidia/525.89.02/build/make.log for more information.\n"
     "==> WARNING: 'dkms install --no-depmod nvidia/525.89.02 -k 6.2.6-zen1-1-zen' exited 10\n"
     "==> ERROR: Missing 6.2.1-zen1-1-zen kernel headers for module nvidia/525.89.02.\n"
     "==> ERROR: Missing 6.2.2-zen2-1-zen kernel headers for module nvidia/525.89.02.\n",
     "driver.module_build_failed", "Install the headers of the running kernel"),
    # https://github.com/pop-os/pop/issues/3117: NVIDIA 535.98's DKMS make.log on a Pop 22.04 HWE kernel built by gcc-12,
    # gcc 11 the default (installing gcc-12 fixed it): the majors on the warning decide, no refusal line pasted
    ("DKMS make.log for nvidia-535.98 for kernel 6.4.6-76060406-generic (x86_64)\n"
     "Do 24 Aug 2023 21:42:52 CEST\n"
     "make[1]: Entering directory '/usr/src/linux-headers-6.4.6-76060406-generic'\n"
     "warning: the compiler differs from the one used to build the kernel\n"
     "  The kernel was built by: x86_64-linux-gnu-gcc-12 (Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0\n"
     "  You are using:           cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0\n"
     "make[2]: *** [scripts/Makefile.build:252: /var/lib/dkms/nvidia/535.98/build/nvidia/nv-i2c.o] Error 1\n"
     "make[1]: *** [Makefile:2038: /var/lib/dkms/nvidia/535.98/build] Error 2\n"
     "make[1]: Leaving directory '/usr/src/linux-headers-6.4.6-76060406-generic'\n"
     "make: *** [Makefile:82: modules] Error 2\n",
     "driver.kernel_compiler_older", "sudo apt install gcc-12"),
    # near miss: NVIDIA's DKMS build failing without the flag's refusal keeps the generic answer
    # (https://github.com/NVIDIA/open-gpu-kernel-modules/issues/635, Fedora 40)
    ("'make' -j12 NV_EXCLUDE_BUILD_MODULES='' KERNEL_UNAME=6.8.10-300.fc40.x86_64 modules\n"
     "Error! Bad return status for module build on kernel: 6.8.10-300.fc40.x86_64 (x86_64)\n"
     "Consult /var/lib/dkms/nvidia/545.29.02/build/make.log for more information.\n"
     "dkms autoinstall on 6.8.10-300.fc40.x86_64/x86_64 failed for nvidia(10)\n",
     "driver.module_build_failed", "The first error in /var/lib/dkms/nvidia/*/build/make.log decides"),
    # nvidia-installer (the .run) under a desktop; the AWS NICE DCV setup notes' "In case you encount below error"
    # (fix there: `sudo systemctl isolate multi-user.target`)
    ("ERROR: You appear to be running an X server; please exit X before installing.  For further details, please see "
     "the section INSTALLING THE NVIDIA\n         DRIVER in the README available on the Linux driver download page at "
     "www.nvidia.com.\nERROR: Installation has failed.  Please see the file '/var/log/nvidia-installer.log' for "
     "details.  You may find suggestions on fixing installation\n",
     "driver.installer_module_in_use", "sudo systemctl isolate multi-user.target"),
    # ubuntuforums.org "How to exit X Server?" (2008-08-11): the older installer's wording (". Please exit X")
    ("ERROR: You appear to be running an X server. Please exit X before installing. For further details, please see "
     "the section INSTALLING THE NVIDIA DRIVER in the README available on the Linux driver download page at "
     "www.nvidia.com\n",
     "driver.installer_module_in_use", "sudo systemctl isolate multi-user.target"),
    # near miss: the module still loaded keeps its own answer (nvidia-installer's other refusal)
    ("ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.  This may be because it "
     "is in use (for example, by an X server, a CUDA program, or the NVIDIA Persistence Daemon), but this may also "
     "happen if your kernel was configured without support for module unloading.\n",
     "driver.installer_module_in_use", "leave the driver out"),
    # pkg.nvidia_package_not_in_repos: no configured repository has the package
    # https://github.com/dennishilk/nvidia-driver/issues/1 (Debian 12: `cuda` is in NVIDIA's repository only)
    ("[3/6] Installing NVIDIA driver + CUDA Toolkit...\nReading package lists... Done\nBuilding dependency tree... Done\n"
     "Reading state information... Done\nE: Unable to locate package cuda\n",
     "pkg.nvidia_package_not_in_repos", "cuda-keyring_1.1-1_all.deb"),
    # https://github.com/Jimver/cuda-toolkit/issues/183 (title; CUDA 11.4 on ubuntu2204's repository)
    ("E: Unable to locate package cuda-11-4\n", "pkg.nvidia_package_not_in_repos", "cuda-keyring"),
    # https://github.com/NVIDIA/nvidia-docker/issues/972 (the list written for ubuntu14.04)
    ("Package nvidia-docker2 is not available, but is referred to by another package.\n"
     "This may mean that the package is missing, has been obsoleted, or\nis only available from another source\n\n"
     "E: Package 'nvidia-docker2' has no installation candidate\n",
     "pkg.nvidia_package_not_in_repos", "nvidia-container-toolkit.list"),
    # https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/160 (title; RPM Fusion on rawhide)
    ("Error: Unable to find a match: xorg-x11-drv-nvidia xorg-x11-drv-nvidia-libs\n",
     "pkg.nvidia_package_not_in_repos", "rpmfusion-nonfree-release"),
    # a Proxmox (Debian) host's transcript ("root@pve"), answered "non-free" there
    ("Package nvidia-smi is not available, but is referred to by another package.\n\n"
     "This may mean that the package is missing, has been obsoleted, or\n\nis only available from another source\n\n"
     "E: Package 'nvidia-driver' has no installation candidate\n\nE: Package 'nvidia-smi' has no installation candidate\n",
     "pkg.nvidia_package_not_in_repos", "contrib non-free non-free-firmware"),
    # ubuntuforums.org "Nvidia Driver Can Not be Found?" (2019-04-02): the branch is nvidia-driver-418, not 418.56
    ("loubar@Lou-desktop-mainframe:~$ sudo apt-get install nvidia-driver-418.56\nReading package lists... Done\n"
     "Building dependency tree       \nReading state information... Done\n"
     "E: Unable to locate package nvidia-driver-418.56\nE: Couldn't find any package by glob 'nvidia-driver-418.56'\n",
     "pkg.nvidia_package_not_in_repos", "ubuntu-drivers devices"),
    # near miss: apt refusing NVIDIA's repository key keeps its own answer
    # (https://github.com/Jimver/cuda-toolkit/issues/27)
    ("W: GPG error: http://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64  InRelease: The following "
     "signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC\n"
     "E: The repository 'http://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64  InRelease' is not "
     "signed.\n",
     "container.cuda_repo_key_rotated", ""),
    # driver.module_aliased_off: https://github.com/Witko/nvidia-xrun/issues/106 (Ubuntu 19.04, creativiii's modprobe);
    # canonical/nvidia-prime#20 ("`alias nvidia off` no longer works in the blacklist" of prime-select intel)
    ("sudo modprobe nvidia\n"
     "modprobe: ERROR: ../libkmod/libkmod-module.c:832 kmod_module_insert_module() could not find module by name='off'\n"
     "modprobe: ERROR: could not insert 'off': Unknown symbol in module, or unknown parameter (see dmesg)\n",
     "driver.module_aliased_off", "sudo prime-select on-demand"),
    # near miss: kmod's same words for the nvidia module itself (tools/modprobe.c; built for other kernel sources)
    ("modprobe: ERROR: could not insert 'nvidia': Unknown symbol in module, or unknown parameter (see dmesg)\n",
     "driver.module_build_failed", ""),
    # driver.nouveau_conflict, Debian's dialog: Kali's docs ("install NVIDIA drivers on Kali Linux", kali@kali transcript);
    # the template is nvidia-graphics-drivers' nvidia-support/warn-nouveau-module-loaded ("The easiest way to fix this is
    # to reboot the machine once the installation has finished")
    ("kali@kali:~$ sudo apt install -y nvidia-driver nvidia-cuda-toolkit\n\n"
     "\u2502 Conflicting nouveau kernel module loaded                                                                  \u2502\n"
     "\u2502 The free nouveau kernel module is currently loaded and conflicts with the non-free nvidia kernel module.  \u2502\n",
     "driver.nouveau_conflict", "Let the installation finish and reboot"),
    # nixos.nvidia_open_unset: nixpkgs nixos/modules/hardware/video/nvidia.nix's assertion, as a NixOS 25.05 evaluation
    # printed it (wrapped) in a write-up, and unwrapped in another machine's eval output beside other assertions
    ("error:\n       Failed assertions:\n       - You must configure `hardware.nvidia.open` on NVIDIA driver\n"
     "       versions >= 560.\n       It is suggested to use the open source kernel modules on Turing\n"
     "       or later GPUs (RTX series, GTX 16xx), and the closed source\n       modules otherwise.\n",
     "nixos.nvidia_open_unset", "hardware.nvidia.open = true;"),
    ("    - At least one radio must be configured with hostapd!\n"
     "    - You must configure `hardware.nvidia.open` on NVIDIA driver versions >= 560.\n"
     "    It is suggested to use the open source kernel modules on Turing or later GPUs (RTX series, GTX 16xx), and the "
     "closed source modules otherwise.\n",
     "nixos.nvidia_open_unset", "hardware.nvidia.open = true;"),
]

test_first_answer = first_answer_tests(CASES)


def test_other_packages_are_not_claimed():
    # https://github.com/Syllo/nvtop/issues/46: the same apt message for a package that is not NVIDIA's
    assert "pkg.nvidia_package_not_in_repos" not in [m.id for m in explain("E: Unable to locate package nvtop\n")]
    assert not [m.id for m in explain("E: Unable to locate package python3-pip\n")]


def test_dnf_module_filter_keeps_its_answer():
    text = "All matches were filtered out by modular filtering for argument: nvidia-driver\nError: Unable to find a match: nvidia-driver\n"
    ids = [m.id for m in explain(text)]
    assert ids[0] == "dnf.nvidia_module_stream" and "pkg.nvidia_package_not_in_repos" not in ids, ids


def test_compiler_differs_warning_alone_is_no_cause():
    # https://github.com/lwfinger/rtw88/issues/109: the warning for a minor-version difference (11.2 vs 11.3), the
    # maintainer: "If it loads and works, then ignore the warning"
    text = ("make[1]: Entering directory '/usr/src/linux-headers-6.0.12-76060006-generic'\n"
            "Warning: the compiler differs from the one used to build the kernel\n"
            "  The kernel was built by: x86_64-linux-gnu-gcc-11 (Ubuntu 11.2.0-19ubuntu1) 11.2.0\n"
            "  You are using:           gcc (Ubuntu 11.3.0-1ubuntu1-22.04) 11.3.0\n"
            "make[1]: Leaving directory '/usr/src/linux-headers-6.0.12-76060006-generic'\n")
    assert "driver.kernel_compiler_older" not in [m.id for m in explain(text)]


def test_same_major_compiler_is_no_cause():
    # https://github.com/pop-os/pop/issues/3631: NVIDIA 550.67's make.log on Pop 24.04, kernel and cc both gcc 13.3
    text = ("DKMS make.log for nvidia-550.67 for kernel 6.16.3-76061603-generic (x86_64)\n"
            "make[1]: Entering directory '/usr/src/linux-headers-6.16.3-76061603-generic'\n"
            "warning: the compiler differs from the one used to build the kernel\n"
            "  The kernel was built by: x86_64-linux-gnu-gcc-13 (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0\n"
            "  You are using:           cc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0\n")
    assert "driver.kernel_compiler_older" not in [m.id for m in explain(text)]


def test_host_gcc_flag_error_outside_a_kernel_build_is_not_this_cause():
    # an ordinary (nvcc host) build's unknown flag is not the kernel's compiler
    text = "gcc: error: unrecognized command-line option '-fopenmp-simd=on'\n"
    assert "driver.kernel_compiler_older" not in [m.id for m in explain(text)]
