"""Round 33's install-and-switch sweep (20 messages from 19 producers: DKMS, akmods, dnf, pacman, apt, Ansible, NVIDIA's
installers, GitHub Actions, conda, JetPack; 18 missed), widened into families:

- the kernel module built by another gcc than the kernel's, as the two checks that refuse it say (gcc plugins; NVIDIA's
  own compiler check before about 450);
- a build tool the module's build needs (akmods' rpmbuild dependencies; nvidia-modeset's C++ sources without g++);
- the repository's driver packages out of step with the kernel or with each other (NVIDIA's precompiled kmod streams,
  kmod-nvidia's kernel-uname-r, an Arch-family repository half-way through an update), and Ansible's words for a
  package no repository has;
- JetPack's apt metapackage on another Ubuntu or L4T release;
- NVIDIA's Windows installer refusing the component list the GitHub Action passed; conda's nvcc_linux-64 wrapper
  finding a toolkit of another version; the driver installer's own log replacing a driver already installed.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
import pytest

from explain_answers import first_answer_tests

SW33_INSTALL_CASES = [
    # Arc-Compute/LibVF.IO#20 (the driver installer over a driver already installed)
    (("nvidia-installer log file '/var/log/nvidia-installer.log'\n"
     'creation time: Fri Dec  3 13:54:42 2021\n'
     'installer version: 460.73.01\n'
     '\n'
     '-> Detected 6 CPUs online; setting concurrency level to 6.\n'
     "ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.  This may be because it is in use (for example, by an X server, a CUDA program, or the NVIDIA Persistence Daemon), but this may also happen if your >\n"),
     'driver.installer_module_in_use', 'Stop what holds the driver and unload its modules'),
    # negativo17/nvidia-driver#192 (akmods without gcc-c++)
    (("2026/02/11 18:46:29 akmods: Building RPM using the command '/usr/sbin/akmodsbuild --kernels 6.18.8-200.fc43.x86_64 /usr/src/akmods/nvidia-kmod.latest'\n"
     'Building target platforms: x86_64\n'
     'Building for target x86_64\n'
     'Installing /usr/src/akmods/nvidia-kmod.latest\n'
     'setting SOURCE_DATE_EPOCH=1766016000\n'
     'error: Failed build dependencies:\n'
     '\tgcc-c++ is needed by nvidia-kmod-3:590.48.01-1.fc43.x86_64\n'
     '2026/02/11 18:46:29 akmodsbuild: * Rebuilding /usr/src/akmods/nvidia-kmod.latest for kernel(s) 6.18.8-200.fc43.x86_64: Building target platforms: x86_64\n'
     '2026/02/11 18:46:29 akmodsbuild: error: Failed build dependencies:\n'
     '2026/02/11 18:46:29 akmodsbuild: \tgcc-c++ is needed by nvidia-kmod-3:590.48.01-1.fc43.x86_64\n'
     '2026/02/11 18:46:34 akmods: Building rpms failed; see /var/cache/akmods/nvidia/590.48.01-1-for-6.18.8-200.fc43.x86_64.failed.log for details\n'),
     'driver.module_build_failed', 'Install the C++ compiler of the same gcc release'),
    # NVIDIA/open-gpu-kernel-modules#805 (nvidia-modeset's C++ sources, no g++)
    ((' [ nvidia-modeset    ]  CXX          ../common/displayport/src/dp_auxretry.cpp\n'
     '/bin/sh: line 1: g++: command not found\n'
     'make[1]: *** [Makefile:219: _out/Linux_x86_64/dp_auxretry.o] Error 127\n'
     'make[1]: *** Waiting for unfinished jobs....\n'),
     'driver.module_build_failed', 'Install the C++ compiler of the same gcc release'),
    # pythops/jetson-image#36 (JetPack 4.5.1 in an Ubuntu 20.04 root file system)
    (('$ sudo apt-get install nvidia-jetpack\n'
     'Some packages could not be installed. This may mean that you have\n'
     'requested an impossible situation or if you are using the unstable\n'
     'distribution that some required packages have not yet been created\n'
     'or been moved out of Incoming.\n'
     'The following information may help to resolve the situation:\n'
     '\n'
     'The following packages have unmet dependencies:\n'
     ' nvidia-jetpack : Depends: nvidia-opencv (= 4.5.1-b17) but it is not going to be installed\n'
     '                  Depends: nvidia-tensorrt (= 4.5.1-b17) but it is not going to be installed\n'
     'E: Unable to correct problems, you have held broken packages.\n'),
     'jetson.jetpack_release_mismatch', 'Check the two agree'),
    # Frogging-Family/nvidia-all#42 (a kernel built with gcc plugins, another gcc)
    (('DKMS make.log for nvidia-465.31 for kernel 5.11.11-144-tkg-upds (x86_64)\n'
     'mié 16 jun 2021 21:06:41 CEST\n'
     "make[1]: se entra en el directorio '/usr/lib/modules/5.11.11-144-tkg-upds/build'\n"
     "scripts/Makefile.lib:8: 'always' is deprecated. Please use 'always-y' instead\n"
     '  SYMLINK /var/lib/dkms/nvidia/465.31/build/nvidia/nv-kernel.o\n'
     '  SYMLINK /var/lib/dkms/nvidia/465.31/build/nvidia-modeset/nv-modeset-kernel.o\n'
     '  CC [M]  /var/lib/dkms/nvidia/465.31/build/nvidia-peermem/nvidia-ib-peermem-stub.o\n'
     'cc1: error: incompatible gcc/plugin versions\n'
     'cc1: error: failed to initialize plugin ./scripts/gcc-plugins/structleak_plugin.so\n'
     'make[2]: *** [scripts/Makefile.build:279: /var/lib/dkms/nvidia/465.31/build/nvidia-peermem/nvidia-ib-peermem-stub.o] Error 1\n'
     'make[1]: *** [Makefile:1809: /var/lib/dkms/nvidia/465.31/build] Error 2\n'
     'make: *** [Makefile:80: modules] Error 2\n'),
     'driver.kernel_compiler_differs', 'Build the module with the gcc the kernel was built with'),
    # clearlinux/distribution#1970 (NVIDIA's compiler check: gcc 10 after a kernel built by gcc 9)
    (('cat /var/lib/dkms/nvidia/440.82/build/make.log\n'
     'DKMS make.log for nvidia-440.82 for kernel 5.4.40-38.lts2019 (x86_64)\n'
     'Fri May 15 12:01:13 CDT 2020\n'
     "make[1]: Entering directory '/usr/lib/modules/5.4.40-38.lts2019/build'\n"
     '  SYMLINK /var/lib/dkms/nvidia/440.82/build/nvidia/nv-kernel.o\n'
     '\n'
     'Compiler version check failed:\n'
     '\n'
     'The major and minor number of the compiler used to\n'
     'compile the kernel:\n'
     '\n'
     'gcc version 9.3.1 20200507 releases/gcc-9.3.0-217-g7790399265 (Clear Linux OS for Intel Architecture)\n'
     '\n'
     'does not match the compiler used here:\n'
     '\n'
     'cc (Clear Linux OS for Intel Architecture) 10.1.1 20200513 releases/gcc-10.1.0-36-gf2b77b928a\n'),
     'driver.kernel_compiler_differs', 'Build the module with gcc 9'),
    # NVIDIA/ansible-role-nvidia-driver#60 (Ansible's apt module)
    (('TASK [nvidia.nvidia_driver : install driver packages] ****************************************************\n'
     'fatal: [nodename]: FAILED! => {"changed": false, "msg": "No package matching \'cuda-drivers-510\' is available"}\n'),
     'pkg.nvidia_package_not_in_repos', 'Add the repository that carries it'),
    # Jimver/cuda-toolkit#388 (Linux package names given to the Windows installer)
    (('D:\\a\\ocaml-cudajit\\ocaml-cudajit\\cuda_installer-windows-10.0.17763-x64-12.8.1\\cuda_installer-windows-10.0.17763-x64_12.8.1.exe -s cudart_12.8 cudart-dev_12.8 runtime_12.8 nvrtc_12.8 nvrtc-dev_12.8\n'
     'Received 13837287 of 13837287 (100.0%), 6.5 MBs/sec\n'
     "Warning: Error during installation: Error: The process 'D:\\a\\ocaml-cudajit\\ocaml-cudajit\\cuda_installer-windows-10.0.17763-x64-12.8.1\\cuda_installer-windows-10.0.17763-x64_12.8.1.exe' failed with exit code 3772776473\n"
     "Error: Error: The process 'D:\\a\\ocaml-cudajit\\ocaml-cudajit\\cuda_installer-windows-10.0.17763-x64-12.8.1\\cuda_installer-windows-10.0.17763-x64_12.8.1.exe' failed with exit code 3772776473\n"),
     'ci.cuda_toolkit_action', 'Remove `sub-packages` for the Windows job'),
    # trxcllnt/rapids-compose PR 74 (nvcc_linux-64 pinned to the cudatoolkit version)
    (('$ conda activate tf_gpu\n'
     "Version of installed CUDA didn't match package\n"),
     'conda.nvcc_wrapper_version_mismatch', 'Make the three agree'),
    # NVIDIA/yum-packaging-precompiled-kmod#35 (the precompiled kmod published later)
    (('  - cannot install the best update candidate for package kernel-modules-4.18.0-372.9.1.el8.x86_64\n'
     '  - package kernel-core-4.18.0-372.16.1.el8_6.0.1.x86_64 is filtered out by exclude filtering\n'
     ' Problem 3: package kernel-modules-4.18.0-372.16.1.el8_6.0.1.x86_64 requires kernel-uname-r = 4.18.0-372.16.1.el8_6.0.1.x86_64, but none of the providers can be installed\n'
     '  - cannot install the best update candidate for package kernel-modules-4.18.0-372.13.1.el8_6.x86_64\n'
     '  - package kernel-core-4.18.0-372.16.1.el8_6.0.1.x86_64 is filtered out by exclude filtering\n'
     "(try to add '--skip-broken' to skip uninstallable packages or '--nobest' to use not only best candidate packages)\n"
     '[root@localhost ~]#  dnf module info nvidia-driver:515\n'
     'Last metadata expiration check: 0:09:27 ago on Mon 25 Jul 2022 01:06:37 PM CDT.\n'
     'NOTE: Skipping kernel installation since no kernel module package kmod-nvidia-515.48.07-4.18.0-372.16.1.el8_6.0 for kernel version 4.18.0-372.16.1.el8_6.0.1 and NVIDIA driver 515.48.07 could be found\n'),
     'pkg.driver_repo_out_of_step', 'Keep the current kernel and driver'),
    # Frogging-Family/linux-tkg PR 840 (a custom kernel's package without kernel-uname-r)
    (('Error: \n'
     ' Problem: conflicting requests\n'
     '  - nothing provides kernel-uname-r = 6.6.1_tkg_bore needed by kmod-nvidia-6.6.1_tkg_bore-3:535.129.03-1.fc39.x86_64 from @commandline\n'
     "(try to add '--skip-broken' to skip uninstallable packages)\n"),
     'pkg.driver_repo_out_of_step', 'A custom kernel: make its package provide'),
    # CachyOS/distribution#45 (the repository half-way through an update)
    (("installing nvidia-utils (560.35.03-1) breaks dependency 'nvidia-utils=560.31.02' required by nvidia\n"),
     'pkg.driver_repo_out_of_step', 'Wait for the repository to catch up'),
]

SW33_INSTALL_OTHER_WORDS = [
    # an older kernel's wording of the plugin failure
    (('DKMS make.log for nvidia-470.82.00 for kernel 5.15.6-zen1-1-zen (x86_64)\n'
     '  CC [M]  /var/lib/dkms/nvidia/470.82.00/build/nvidia/nv.o\n'
     'cc1: error: incompatible gcc/plugin versions\n'
     'cc1: error: fail to initialize plugin ./scripts/gcc-plugins/latent_entropy_plugin.so\n'),
     'driver.kernel_compiler_differs', 'Build the module with the gcc the kernel was built with'),
    # akmods asking for another build dependency
    (('error: Failed build dependencies:\n'
     '\telfutils-libelf-devel is needed by akmod-nvidia-3:550.54.14-1.fc39.x86_64\n'),
     'driver.module_build_failed', "Install the compiler, make and the running kernel's headers"),
    # Ansible's dnf module for a toolkit package
    (('fatal: [gpu01]: FAILED! => {"changed": false, "failures": [], "msg": "No package matching \'cuda-toolkit-12-4\' is available"}\n'),
     'pkg.nvidia_package_not_in_repos', 'Add the repository that carries it'),
    # JetPack 5's runtime metapackage
    (('The following packages have unmet dependencies:\n'
     ' nvidia-jetpack : Depends: nvidia-jetpack-runtime (= 5.1.2-b104) but it is not going to be installed\n'),
     'jetson.jetpack_release_mismatch', 'Check the two agree'),
    # a prebuilt module package of a kernel flavour
    ((":: installing nvidia-utils (570.86.16-1) breaks dependency 'nvidia-utils=565.77' required by linux-cachyos-nvidia\n"),
     'pkg.driver_repo_out_of_step', 'Wait for the repository to catch up'),
]


test_sweep33_install_first_answers = first_answer_tests(SW33_INSTALL_CASES + SW33_INSTALL_OTHER_WORDS)


@pytest.mark.parametrize("text", [
    # another DKMS module's build (a Realtek driver) with the same plugin failure: not the NVIDIA module's
    "DKMS make.log for r8125-9.011.00 for kernel 6.1.0-13-amd64 (x86_64)\ncc1: error: incompatible gcc/plugin versions\n"
    "cc1: error: failed to initialize plugin ./scripts/gcc-plugins/structleak_plugin.so\n",
    # g++ missing in an ordinary build, not the kernel module's
    "-- Check for working CXX compiler: /usr/bin/g++\n/bin/sh: 1: g++: not found\n"
    "make[2]: *** [CMakeFiles/kernels.dir/build.make:76: kernels.o] Error 127\n",
])
def test_other_builds_are_not_the_nvidia_module(text):
    from cudaenv.knowledge.explain import explain

    assert not [m.id for m in explain(text) if m.id in ("driver.kernel_compiler_differs", "driver.module_build_failed")]
