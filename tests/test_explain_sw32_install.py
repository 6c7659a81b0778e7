"""Round 32's third sweep: a user's day of installing and switching CUDA (20 messages from 16 producers: installers,
apt, dnf, pacman, pip, mamba, GitHub Actions, docker, DKMS, Slurm; 17 unanswered before), widened into families.

- NVIDIA's .run installer out of disk space while copying a component (boost::filesystem's exception);
- an image for another CPU architecture (exec format error: an x86_64 image on a Jetson);
- a batch job's shell without the module system's `module`/`ml` functions;
- a CUDA local-repository .deb whose own keyring was not copied yet (not the network repository's rotated key);
- a CUDA wheel that does not match its hash (a download cut short);
- the Jimver/cuda-toolkit GitHub Action pinned at a release that cannot install the CUDA asked for;
- dnf's transaction test between two sources' driver packages, and apt asked for Ubuntu's nvidia-cuda-toolkit beside
  NVIDIA's packages;
- libmamba refusing another cuda-version while the environment holds the legacy cudatoolkit.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import assert_first_answer, first_environment_answer

SW32_INSTALL_CASES = [
    # Jimver/cuda-toolkit#213 (a GitHub-hosted runner's disk; fewer components fixed it)
    ("terminate called after throwing an instance of 'boost::filesystem::filesystem_error'\n"
     '  what():  boost::filesystem::copy_file: No space left on device: "./builds/nsight_systems/host-linux-x64/python/bin/'
     'python", "/usr/local/cuda-11.8/nsight-systems-2022.4.2/host-linux-x64/python/bin/python"\nAborted (core dumped)\n',
     'toolkit.runfile_disk_full', 'Free space where it installs'),
    # NVIDIA/nvidia-docker#1116 (nvidia/cuda on a Jetson: the L4T images)
    ('$ sudo docker run --rm --runtime=nvidia -ti nvidia/cuda\n'
     'standard_init_linux.go:211: exec user process caused "exec format error"\n',
     'container.image_wrong_arch', 'Use an image built for this machine'),
    # t0mer/deepstack-trainer#3 (runc's newer wording)
    ('deepstack_trainer    | standard_init_linux.go:219: exec user process caused: exec format error\n',
     'container.image_wrong_arch', 'Use an image built for this machine'),
    # envmodules/modules#339
    ("/var/spool/slurmd/job00156/slurm_script: line 4: ml: command not found\n"
     "[root@cm-wsb-c4m8d200-3 slurm_test]# srun ml ava\nslurmstepd: error: execve(): ml: No such file or directory\n",
     'hpc.module_command_missing', 'Start the batch script with `#!/bin/bash -l`'),
    # NVIDIA/TensorRT PR 2334 (the cross-aarch64 local repository)
    ("Setting up cuda-repo-cross-aarch64-ubuntu2004-11-4-local (11.4.14-1) ...\n\nThe public CUDA GPG key does not appear "
     "to be installed.\nTo install the key, run this command:\nsudo cp /var/cuda-repo-cross-aarch64-ubuntu2004-11-4-local/"
     "cuda-045251B2-keyring.gpg /usr/share/keyrings/\n",
     'apt.cuda_local_repo_key_not_installed',
     'Run the command the installer printed, `sudo cp /var/cuda-repo-cross-aarch64-ubuntu2004-11-4-local/cuda-045251B2-keyring.gpg'),
    # rapidsai/dask-cuda PR 1443 (a 605 MB wheel cut at 350 MB)
    ("  ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, "
     "please update the hashes. Otherwise, examine the package contents carefully; someone may have tampered with them.\n"
     "      nvidia-cublas-cu12 from https://pypi.nvidia.com/nvidia-cublas-cu12/nvidia_cublas_cu12-12.8.3.14-py3-none-"
     "manylinux_2_27_aarch64.whl#sha256=93a4e0e3 (from libraft-cu12==25.2.*,>=0.0.0a0):\n",
     'python.pip_wheel_hash_mismatch', 'Install again without the cache'),
    # Jimver/cuda-toolkit#315 (v0.2.14's cache bug)
    ("Run Jimver/cuda-toolkit@v0.2.14\n  with:\n    cuda: 12.3.2\nCache saved successfully\n"
     "Error: Error: Got no files in tool cache\n", 'ci.cuda_toolkit_action', 'Pin a release of the action'),
    # negativo17/nvidia-driver (NVIDIA's CUDA repository and negativo17's both ship the driver)
    ("$ sudo dnf module install nvidia-driver:open-dkms\nError: Transaction test error:\n  file /etc/X11/xorg.conf.d/10-nvidia"
     ".conf conflicts between attempted installs of xorg-x11-nvidia-3:560.35.03-2.el9.x86_64 and nvidia-driver-3:560.35.03-1"
     ".el9.x86_64\n", 'pkg.nvidia_sources_conflict', 'Keep one driver'),
    # matthieu637/ddrl#9 (Ubuntu's toolkit beside NVIDIA's packages: purging it fixed it)
    ("The following packages have unmet dependencies:\n nvidia-cuda-toolkit: Depends: nvidia-cuda-dev (= 7.5.18-0ubuntu1) "
     "but it is not going to be installed\n", 'pkg.nvidia_sources_conflict', 'Keep one toolkit'),
    # torchmd/torchmd-net#249 (a new environment worked)
    ("mamba install cuda-version=12.2 -y\nCould not solve for environment specs\nThe following packages are incompatible\n"
     "├─ cuda-version 12.2**  is installable and it requires\n│  └─ cudatoolkit 12.2|12.2.* , which can be installed;\n"
     "└─ cudatoolkit is not installable because it conflicts with any installable versions previously reported.\n",
     'conda.cuda_version_vs_cudatoolkit', 'Switch in a new environment'),
    # mmp/pbrt-v4 PR 480 (a tag not cut yet)
    ("Error: Unable to resolve action `jimver/cuda-toolkit@v0.2.20`, unable to find version `v0.2.20`\n",
     'ci.cuda_toolkit_action', 'Pin a release of the action'),
]


@pytest.mark.parametrize("text, want, fix", SW32_INSTALL_CASES)
def test_install_and_switch_messages(text, want, fix):
    assert_first_answer(text, want, fix, where=text[:80])


def test_what_the_families_leave_alone():
    """Another program's full disk, another action that cannot be resolved and the network repository's rotated key
    keep their own answers (or none)."""
    other_action = explain("Error: Unable to resolve action `actions/checkout@v9`, unable to find version `v9`\n")
    assert "ci.cuda_toolkit_action" not in [m.id for m in other_action]
    rotated = first_environment_answer("W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/"
                                       "x86_64  InRelease: The following signatures couldn't be verified because the "
                                       "public key is not available: NO_PUBKEY A4B469963BF863CC\n")
    assert rotated.id == "container.cuda_repo_key_rotated"
    pip_full = first_environment_answer("ERROR: Could not install packages due to an OSError: [Errno 28] No space left "
                                        "on device\n")
    assert pip_full.id == "python.pip_install_no_space"
    other_hash = explain("ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n"
                         "    requests from https://files.pythonhosted.org/packages/requests-2.31.0.whl:\n")
    assert "python.pip_wheel_hash_mismatch" not in [m.id for m in other_hash]


def test_the_module_answer_offers_cudaenv_in_the_job():
    first = first_environment_answer("/var/spool/slurmd/job00042/slurm_script: line 7: module: command not found\n")
    assert "`module`" in first.title and 'eval "$(cudaenv use' in first.fix
