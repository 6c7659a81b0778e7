"""Round 19 (producers' own wordings, installers): the answers and near-misses of the patterns widened to the
installers' and package managers' wordings of a known cause, and of the causes they showed the knowledge base lacked
(tests/data/explain_producers/installers.yaml holds the messages themselves, read from the producers' source).

- nvidia-installer's whole family of "The kernel module failed to load ... not signed by a key that is trusted"
  (ENOKEY, CONFIG_MODULE_SIG_FORCE, the signed module's prompt), its missing compiler and kernel source path.
- DKMS's and akmods' other wordings of a module build that did not happen, where the log names the NVIDIA module.
- apt's "is not signed" for NVIDIA's repository, and cuda-keyring's Signed-By beside an older entry.
- conda's classic solver, pixi and resolvo on __cuda; uv's and poetry's words for a +cuXXX build with no wheel.
- The new causes: the driver or toolkit packages of two sources (dpkg, apt, dnf 4/5, rpm), the nvidia-driver module
  stream of NVIDIA's RHEL repository, two packages pinning different nvidia-*-cu12 wheels, dpkg-shlibdeps on a CUDA
  installed outside dpkg.

The texts are the producers' messages with realistic values (the source of each is named above it)."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # nvidia-installer kernel.c: ENOKEY (no "Secure boot" in the message, no "nvidia" in the log)
    ("ERROR: The kernel module failed to load, because it was not signed by a key that is trusted by the kernel. "
     "Please try installing the driver again, and set the --module-signing-secret-key and "
     "--module-signing-public-key options on the command line, or run the installer in expert mode to enable the "
     "interactive module signing prompts.\n",
     "driver.secure_boot_rejected", "Run the installer again and let it sign the module"),
    # nvidia-installer misc.c: no compiler on PATH
    ("ERROR: Unable to find the development tool `cc` in your path; please make sure that you have the package 'gcc' "
     "installed.  If gcc is installed on your system, then please check that `cc` is in your PATH.\n",
     "driver.module_build_failed", "build-essential"),
    # nvidia-installer kernel.c: --kernel-source-path to a directory that is not there
    ("ERROR: The kernel source path '/usr/src/linux-headers-6.8.0-45-generic' does not exist.  Please make sure you "
     "have installed the kernel source files for your kernel and that they are properly configured\n",
     "driver.module_build_failed", "linux-headers-$(uname -r)"),
    # dkms_common.postinst.in under the NVIDIA package's frame
    ("Loading new nvidia-535.183.01 DKMS files...\nBuilding for 6.5.0-41-generic\n"
     "Module build for kernel 6.5.0-41-generic was skipped since the\n"
     "kernel headers for this kernel do not seem to be installed.\n",
     "driver.module_build_failed", "linux-headers-$(uname -r)"),
    # akmods
    ("Building and installing nvidia-kmod\nBuilding rpms failed; see "
     "/var/cache/akmods/nvidia/560.35.03-1-for-6.10.6-200.fc40.x86_64.failed.log for details\n",
     "driver.module_build_failed", ""),
    # apt: the key message scrolled away
    ("E: The repository 'https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64  InRelease' is "
     "not signed.\n",
     "container.cuda_repo_key_rotated", "cuda-keyring"),
    # apt: Signed-By twice
    ("E: Conflicting values set for option Signed-By regarding source "
     "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64/ /: "
     "/usr/share/keyrings/cuda-archive-keyring.gpg != \nE: The list of sources could not be read.\n",
     "container.cuda_repo_key_rotated", "Remove the older entry"),
    # conda classic: the driver's __cuda is older
    ("UnsatisfiableError: The following specifications were found to be incompatible with your system:\n\n"
     "  - feature:/linux-64::__cuda==11.2=0\n  - pytorch-cuda=11.8 -> __cuda[version='>=11.8']\n\n"
     "Your installed version is: 11.2\n",
     "conda.no_cuda_virtual_package", "upgrade the NVIDIA driver"),
    # pixi: no __cuda on the machine
    ("Error:   × Failed to validate that machine meets the requirements of the environment\n"
     "  ╰─▶ Virtual package '__cuda >=12' does not match any of the available virtual packages on your machine: "
     "[__unix=0=0, __linux=6.1.0=0, __glibc=2.36=0, __archspec=1=x86_64]\n",
     "conda.no_cuda_virtual_package", "[system-requirements]"),
    # uv: the Python is the problem, not the index
    ("  ╰─▶ Because torch==2.0.1+cu118 has no wheels with a matching Python ABI tag (e.g., `cp312`) and you require "
     "torch==2.0.1+cu118, we can conclude that your requirements are unsatisfiable.\n",
     "python.torch_wheel_not_found", "uv venv --python"),
    # poetry
    ("  RuntimeError\n\n  Unable to find installation candidates for torch (2.2.0+cu118)\n",
     "python.torch_wheel_not_found", "download.pytorch.org/whl/cu118"),
    # the new causes
    (" trying to overwrite '/usr/bin/nvcc', which is also in package nvidia-cuda-toolkit 11.5.1-1ubuntu1\n",
     "pkg.nvidia_sources_conflict", "sudo apt purge nvidia-cuda-toolkit"),
    ("The following packages have unmet dependencies:\n"
     " nvidia-driver-535 : Depends: nvidia-dkms-535 (<= 535.183.01-1) but 535.183.06-0ubuntu0.22.04.1 is to be "
     "installed\nE: Unable to correct problems, you have held broken packages.\n",
     "pkg.nvidia_sources_conflict", "apt policy"),
    ("Transaction check error:\n  file /usr/lib64/libnvidia-ml.so.1 from install of "
     "nvidia-driver-cuda-libs-3:550.90.07-1.el9.x86_64 conflicts with file from package "
     "xorg-x11-drv-nvidia-cuda-libs-3:550.78-1.el9.x86_64\n",
     "pkg.nvidia_sources_conflict", "RPM Fusion"),
    ("Last metadata expiration check: 0:01:12 ago.\n"
     "All matches were filtered out by modular filtering for argument: cuda-drivers\n"
     "Error: Unable to find a match: cuda-drivers\n",
     "dnf.nvidia_module_stream", "dnf module reset nvidia-driver"),
    ("tensorflow 2.15.0 requires nvidia-cudnn-cu12==8.9.4.25; extra == \"and-cuda\", but you have nvidia-cudnn-cu12 "
     "9.1.0.70 which is incompatible.\n",
     "pip.nvidia_wheel_pin_conflict", 'pip install "nvidia-cudnn-cu12==8.9.4.25"'),
    ("dpkg-shlibdeps: error: no dependency information found for /usr/local/cuda-12.2/targets/x86_64-linux/lib/"
     "libcublas.so.12 (used by debian/tool/usr/bin/tool)\n",
     "build.deb_shlibdeps_runfile_cuda", "dh_shlibdeps -l"),
]

test_first_answer = first_answer_tests(CASES)

NEAR = [
    # dpkg overwriting a file of packages that are no part of CUDA or the driver
    (" trying to overwrite '/usr/share/man/man1/foo.1.gz', which is also in package foo-common 1.2-3\n",
     "pkg.nvidia_sources_conflict"),
    # apt's unmet dependency between packages that are no part of CUDA
    (" libreoffice-core : Depends: libicu70 (>= 70.1-1~) but it is not going to be installed\n",
     "pkg.nvidia_sources_conflict"),
    # the cuDNN pair of NVIDIA's repository stays its own cause
    (" libcudnn8-dev : Depends: libcudnn8 (= 8.9.7.29-1+cuda12.2) but 8.9.7.29-1+cuda11.8 is to be installed\n",
     "pkg.nvidia_sources_conflict"),
    # modular filtering of another module's package
    ("All matches were filtered out by modular filtering for argument: nodejs\nError: Unable to find a match: nodejs\n",
     "dnf.nvidia_module_stream"),
    # a pin conflict of packages that are no CUDA library wheels
    ("pandas 2.2.2 requires numpy>=1.26.0, but you have numpy 1.24.4 which is incompatible.\n",
     "pip.nvidia_wheel_pin_conflict"),
    # the torch pin listed in a conflict-free resolver log (no conflict reported)
    ("Collecting torch==2.3.1\n  torch 2.3.1 depends on nvidia-cudnn-cu12==8.9.2.26\n",
     "pip.nvidia_wheel_pin_conflict"),
    # dpkg-shlibdeps on a library that is no part of CUDA
    ("dpkg-shlibdeps: error: no dependency information found for /opt/foo/lib/libfoo.so.1 (used by debian/x/usr/bin/x)\n",
     "build.deb_shlibdeps_runfile_cuda"),
    # a module signed and refused, named by no installer and no NVIDIA: "failed to load" of another kernel module
    ("modprobe: ERROR: could not insert 'vboxdrv': Key was rejected by service\n", "driver.secure_boot_rejected"),
    # DKMS without headers for a module that is not NVIDIA's
    ("Loading new virtualbox-7.0.14 DKMS files...\nModule build for kernel 6.8.0-45-generic was skipped since the\n"
     "kernel headers for this kernel do not seem to be installed.\n",
     "driver.module_build_failed"),
]


@pytest.mark.parametrize("text,not_id", NEAR)
def test_near_misses_keep_off(text: str, not_id: str) -> None:
    ids = [m.id for m in explain(text) if m.environment]
    assert not ids or ids[0] != not_id, ids
