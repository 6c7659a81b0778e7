"""Round 20, helper f20family: fresh20's N-family misses answered as families (each: the fresh20 log's deciding
lines, a second real member from another project, and a near-miss guard that keeps its answer)."""

from __future__ import annotations

from cudaenv.knowledge.explain import explain
from tests.explain_answers import first_answer_tests

CASES = [
    # nvcc.cicc_missing: OE4T/meta-tegra#18 (fresh20 t05, Yocto recipe without nvvm)
    ("I compiled core-image-sato-sdk system, it boots and everything works except that when I try to compile in the "
     "Jetson board using nvcc it throws an error:\n\nsh: cicc: command not found\n",
     "nvcc.cicc_missing", "Install the toolkit's nvvm part"),
    # second member: NVIDIA/nvidia-docker#1308 (l4t image without nvvm, CMake's compiler check)
    ("-- Check for working CUDA compiler: /usr/local/cuda/bin/nvcc -- broken\n"
     "    Building CUDA object CMakeFiles/cmTC_c3f14.dir/main.cu.o\n"
     "    /usr/local/cuda/bin/nvcc     -x cu -c /tmp/x/CMakeFiles/CMakeTmp/main.cu -o CMakeFiles/cmTC_c3f14.dir/main.cu.o\n"
     "    sh: 1: cicc: not found\n",
     "nvcc.cicc_missing", "Install the toolkit's nvvm part"),
    # container.cuda_repo_key_rotated, operator variant: canonical/microk8s-core-addons#34 (fresh20 t37)
    ("Installation of the GPU addon fails because the NVIDIA GPU Driver containers cannot install the required driver "
     "packages with apt due to outdated/missing GPG keys:\n"
     "`W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64  InRelease: The following "
     "signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC`\n"
     "1. microk8s enable gpu\n2. check output of nvidia-driver-ctr of the nvidia-driver-daemonset for GPG Errors\n",
     "container.cuda_repo_key_rotated", "Run a driver image that has the new key"),
    # second member: NVIDIA/gpu-operator#355 (the daemonset's own log lines)
    ("nvidia-driver-daemonset-2cjwf nvidia-driver-ctr Starting installation of NVIDIA driver version 510.47.03 for Linux kernel version 5.4.0-113-generic\n"
     "nvidia-driver-daemonset-2cjwf nvidia-driver-ctr Updating the package cache...\n"
     "nvidia-driver-daemonset-2cjwf nvidia-driver-ctr W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64  InRelease: "
     "The following signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC\n",
     "container.cuda_repo_key_rotated", "Run a driver image that has the new key"),
    # near miss: the same key error in a Dockerfile build keeps the Dockerfile answer
    ("Step 5/12 : RUN apt-get update\nW: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu1804/x86_64  InRelease: "
     "The following signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC\n",
     "container.cuda_repo_key_rotated", "In the Dockerfile"),
    # near miss: on a host, the host's keyring fix
    ("$ sudo apt-get update\nW: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64  InRelease: "
     "The following signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC\n",
     "container.cuda_repo_key_rotated", "Trust the new key"),
    # container.vendor_repo_pinned_over_nvidia: pop-os/pop#1708 (fresh20 t66, apt policy's version table)
    ("apt policy nvidia-container-runtime\nnvidia-container-runtime:\n  Installed: (none)\n"
     "  Candidate: 3.4.0-1pop1~1601325114~20.04~2880fc6\n  Version table:\n     3.5.0-1 500\n"
     "        500 https://nvidia.github.io/nvidia-container-runtime/stable/ubuntu18.04/amd64  Packages\n"
     "     3.4.0-1pop1~1601325114~20.04~2880fc6 1001\n       1001 http://ppa.launchpad.net/system76/pop/ubuntu focal/main amd64\n",
     "container.vendor_repo_pinned_over_nvidia", "Pin NVIDIA's container repository above the vendor's"),
    # second member: NVIDIA/nvidia-docker#1388 (apt's unmet dependency under the system76 PPA)
    ("The following packages have unmet dependencies:\n nvidia-docker2 : Depends: nvidia-container-runtime (>= 3.4.0) but "
     "3.4.0-1pop1~1601325114~20.04~2880fc6 is to be installed\nE: Unable to correct problems, you have held broken packages.\n",
     "container.vendor_repo_pinned_over_nvidia", "Pin NVIDIA's container repository above the vendor's"),
]

test_first_answer = first_answer_tests(CASES)


def test_nvidia_repo_candidate_is_no_vendor_pin() -> None:
    """Near miss: apt policy where NVIDIA's own repository gives the candidate (500, or the CUDA repo's pin 600)."""
    text = ("nvidia-container-toolkit:\n  Installed: (none)\n  Candidate: 1.14.3-1\n  Version table:\n     1.14.3-1 500\n"
            "        500 https://nvidia.github.io/libnvidia-container/stable/deb/amd64  Packages\n"
            "     12.2.0-1 600\n        600 https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64  Packages\n")
    assert "container.vendor_repo_pinned_over_nvidia" not in [m.id for m in explain(text)]


def test_cicc_libnvvm_is_not_missing_cicc() -> None:
    """Near miss: cicc exists but cannot load libnvvm (SeanNaren/warp-ctc#152's line) is not the missing-nvvm answer."""
    text = "cicc: error while loading shared libraries: libnvvm.so.3: cannot open shared object file: No such file or directory\n"
    assert "nvcc.cicc_missing" not in [m.id for m in explain(text)]
