"""Round 19, fresh19's burned container misses fixed as families (helper "f19container").

- NVML's "GPU access blocked by the operating system" (NVML_ERROR_OPERATING_SYSTEM, "blocked by the operating
  system/cgroups") inside a container under WSL 2, while WSL's own nvidia-smi works: no-cgroups = true in
  /etc/nvidia-container-runtime/config.toml, set to false (`container.wsl_no_cgroups_blocks_gpu`). WSL's own
  nvidia-smi failing too stays WSL's GPU (`wsl.gpu_access_blocked`).
- A log shows WSL 2 without saying it: a bash prompt on Windows' default computer name (`root@DESKTOP-5A67SBM:/x#`,
  WSL's Linux hostname is the Windows name), so nvidia-container-cli's driver error gets the WSL 2 answer (the Windows
  build and driver), and the claims sweep reads that prompt as WSL.
- NCCL_GRAPH_FILE from a VM image's /etc/nccl.conf when NCCL's "XML Import Channel : dev N not found" is cut off: the
  image's topology load (Azure's /opt/microsoft/ncv4/) or NCCL's print of the variable, beside a failed run on fewer
  GPUs than the graph's four (`nccl.graph_file_mismatch`).
- podman 5.5 reads CDI specifications from /etc/cdi only (podman#26569, a regression): a log that names podman 5.5.x
  gets "the release that worked, or --cdi-spec-dir" first (`container.cdi_spec_missing`).

Excerpts are verbatim (trimmed) from the threads named above them; each family has the burned log's deciding lines,
a second real member from another project, and a near-miss that keeps its answer."""

import pytest

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain.claims import unshown

_BLOCKED = ("Failed to initialize NVML: GPU access blocked by the operating system\n"
            "Failed to properly shut down NVML: GPU access blocked by the operating system\n")
_HOOK = ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container "
         "process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit "
         "status 1, stdout: , stderr: nvidia-container-cli: initialization error: driver error: failed to process "
         "request: unknown.\n")

_S34 = ("Hi, I have 4 GPUs and when I run NCCL test with all 4 GPUs (-g 4), it works fine. However when I set -g2 or "
        "-g3 it fails with an error:  Test NCCL failure common.cu:953 'unhandled system error.\n\n"
        "**NCCL version:** 2.18.5+cuda12.2\n\n```\n$ NCCL_TOPOLOGY=IGNORE NCCL_DEBUG_SUBSYS=GRAPH NCCL_DEBUG=INFO "
        "./build/all_reduce_perf -b 8 -e 256M -f 2 -g {g}\n\n"
        "# nThread 1 nGpus {g} minBytes 8 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
        "validation: 1 graph: 0\nNCCL version 2.18.5+cuda12.2\n"
        "a100-4x-machines-23fsd-2-dev:648288:648307 [1] NCCL INFO Loading topology file /opt/microsoft/ncv4/topo.xml\n"
        "a100-4x-machines-23fsd-2-dev:648288:648306 [0] NCCL INFO Loading topology file /opt/microsoft/ncv4/topo.xml\n"
        "a100-4x-machines-23fsd-2-dev:648288:648307 [1] NCCL INFO Loading unnamed topology\n")

CASES = [
    # -- the container's NVML blocked under WSL 2: no-cgroups = true -------------------------------------------------
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/85 (fresh19 s38: WSL2 Ubuntu; "no-cgroups = true ...
    # Changing the value to false resolved the issue")
    ("sudo docker run --rm --runtime=nvidia --gpus all ubuntu nvidia-smi\n\n" + _BLOCKED,
     "container.wsl_no_cgroups_blocks_gpu", "nvidia-container-cli.no-cgroups=false"),
    # https://github.com/microsoft/WSL/issues/9962 (WSL's own nvidia-smi works, the docker container's does not; the
    # fix quoted in microsoft/WSL#9938: "change no-cgroups from true to false")
    ("### Repro Steps\n\nnvidia-smi works well in wsl2, but it doesn't work properly in the docker container started "
     "in wsl2, with error \"Failed to initialize NVML: GPU access blocked by the operating system\".\n"
     "I use the official image provided by Pytorch and am confident that Docker-ce and nvidia_container_toolkit has "
     "been installed correctly.\n",
     "container.wsl_no_cgroups_blocks_gpu", "WSL's own nvidia-smi works"),
    # near-miss: WSL's own nvidia-smi is blocked (a data-center GPU under Windows Server, which then also breaks docker
    # images; https://github.com/microsoft/WSL/issues/14339): WSL's GPU itself, TCC first
    ("Windows Server 2025, installed Nvidia drivers (latest version): 32.0.15.9159 in Data Center mode: WSL doesn't "
     "see Nvidia L40S card.\n```\n$ nvidia-smi\n" + _BLOCKED + "```\nWhen trying to start any docker image containing "
     "AI workload it reports: CUDA not available\n",
     "wsl.gpu_access_blocked", "WDDM driver model"),
    # near-miss: no container at all (https://github.com/microsoft/WSL/issues/9938, nvidia-smi inside Ubuntu 22.04)
    ("this is what happens when I launch nvidia-smi inside ubuntu 22.04 :\n```\nnvidia-smi\n\n" + _BLOCKED + "```\n",
     "wsl.gpu_access_blocked", "Use only the Windows driver"),
    # -- WSL 2 shown by the prompt alone: nvidia-container-cli's driver error is the Windows build --------------------
    # https://github.com/docker/for-win/issues/10379 (fresh19 s37: the newer Insiders build and the 460 driver fixed it)
    ("root@DESKTOP-5A67SBM:/home/anurag# docker run --rm -it --gpus=all nvcr.io/nvidia/k8s/cuda-sample:nbody nbody "
     "-gpu -benchmark\n" + _HOOK + "root@DESKTOP-5A67SBM:/home/anurag#\n",
     "container.host_driver_missing", "Update Windows to Windows 10 21H2 or later"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1316 (the same error "from WSL2" on Windows build 21390)
    ("docker run --gpus all nvcr.io/nvidia/k8s/cuda-sample:nbody nbody -gpu -benchmark\n\nI am getting the below on "
     "running the above command from WSL2:\n\n" + _HOOK + "\nWindows version: 10.0.21390 N/A Build 21390\n",
     "container.host_driver_missing", "Update Windows to Windows 10 21H2 or later"),
    # near-miss: a Linux host's prompt (not a Windows computer name): the driver's answer, persistence first
    ("root@gpu-node-3:/home/anurag# docker run --rm --gpus all nvidia/cuda:11.0-base nvidia-smi\n" + _HOOK,
     "container.host_driver_missing", "make `nvidia-smi` work"),
    # near-miss: Git Bash / MSYS2 on Windows prints `user@DESKTOP-X MINGW64 ~` (no colon): not a WSL prompt
    ("user@DESKTOP-5A67SBM MINGW64 ~\n$ docker run --rm --gpus all nvidia/cuda:11.0-base nvidia-smi\n" + _HOOK,
     "container.host_driver_missing", "make `nvidia-smi` work"),
    # -- NCCL_GRAPH_FILE from the VM image's /etc/nccl.conf, its WARN cut off -----------------------------------------
    # https://github.com/NVIDIA/nccl/issues/1008 (fresh19 s34: removing NCCL_TOPO_FILE and NCCL_GRAPH_FILE from
    # /etc/nccl.conf fixed the -g 2 / -g 3 runs)
    (_S34.format(g=2), "nccl.graph_file_mismatch", "Unset NCCL_GRAPH_FILE"),
    # https://github.com/NVIDIA/nccl/issues/1240 (NCCL's own print of the variable beside ncclSystemError; "it is
    # solved with your fix": unset it)
    ("ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
     "Spotllm:73025:73112 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/ncv4/graph.xml\n",
     "nccl.graph_file_mismatch", "Unset NCCL_GRAPH_FILE"),
    # near-miss: the run on all four GPUs of the same VM (the graph fits it): the system error's own answer stays
    (_S34.format(g=4).replace("all 4 GPUs (-g 4), it works fine. However when I set -g2 or -g3 it fails",
                              "all 4 GPUs it fails"),
     "nccl.system_error", "--ipc=host"),
    # -- podman 5.5 reads CDI specifications from /etc/cdi only: the release the log names decides ----------------------
    # https://github.com/NixOS/nixpkgs/issues/417312 (fresh19 s62: "Falling back to 5.4.1 solves the error")
    ("It looks like with the update to 5.5.1 at least nvidia devices can not be used anymore. So e.g.\n\n```sh\n"
     "podman run --rm --device nvidia.com/gpu=all --security-opt=label=disable ubuntu nvidia-smi -L\n"
     "# Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n```\n",
     "container.cdi_spec_missing", "Go back to the podman release that worked (5.4.x)"),
    # https://github.com/podman-container-tools/podman/issues/26569 (Rocky Linux 9, a spec in /run/cdi; the regression
    # label; 5.4.0 read it)
    ("Podman 5.5.1 doesn't read from /run/cdi/ as before.\nI can confirm that Podman 5.4.0 was reading from /run/cdi/ "
     "(or maybe from /var/run/cdi/ which is a symlink since long ago).\n\n```bash\nnvidia-ctk cdi generate "
     "--output=/run/cdi/nvidia.yaml\npodman run --rm --device nvidia.com/gpu=all --security-opt=label=disable \\\n"
     "    nvcr.io/nvidia/cuda:12.8.1-runtime-rockylinux9 nvidia-smi\n```\n\nError: setting up CDI devices: "
     "unresolvable CDI devices nvidia.com/gpu=all\n",
     "container.cdi_spec_missing", "--cdi-spec-dir=/var/run/cdi"),
    # near-miss: podman 4.4.1 (https://github.com/NVIDIA/nvidia-container-toolkit/issues/146): no 5.5, the
    # specification's own answer stays
    ("I am continually getting the error Error: error setting up CDI devices: unresolvable CDI devices "
     "nvidia.com/gpu=all.\nEnvironment:\n\nUnbuntu 22.04\nPodman version 4.4.1\nNVIDIA Driver Driver Version: "
     "535.129.03 CUDA Version: 12.2\nNVIDIA Container Toolkit CLI version 1.14.3\n",
     "container.cdi_spec_missing", "Generate the NVIDIA CDI specification"),
]

test_first_answer = first_answer_tests(CASES)


def test_a_windows_computer_name_prompt_shows_wsl():
    """The claims sweep reads a bash prompt on Windows' default computer name as WSL (and Windows): fresh19 s37's
    DESKTOP- name and https://github.com/Leon-Sander/Local-Multimodal-AI-Chat/issues/31 (fresh4 855, a WSL log whose
    only trace is `paramubuntu@LAPTOP-AF3LO3NQ:~$`); a Linux host name or Git Bash's prompt is not."""
    assert unshown("WSL 2 on Windows", "", "root@DESKTOP-5A67SBM:/home/anurag# docker run") == []
    assert unshown("WSL 2 on Windows", "", "paramubuntu@LAPTOP-AF3LO3NQ:~$ docker info") == []
    assert unshown("WSL 2", "", "root@gpu-node-3:/home/anurag# docker run") == ["wsl"]
    assert unshown("WSL 2", "", "user@DESKTOP-5A67SBM MINGW64 ~") == ["wsl"]


@pytest.mark.parametrize("prompt, platform", [
    ("root@DESKTOP-5A67SBM:/home/x# nvidia-smi\n", "wsl"),  # docker/for-win#10379: WSL's hostname is Windows' name
    ("user@LAPTOP-AB12CD34:~$ python train.py\n", "wsl"),
    ("user@DESKTOP-5A67SBM MINGW64 ~\n", ""),  # Git Bash / MSYS2: no colon after the name, not WSL
    ("root@desktop-server:/home/x# nvidia-smi\n", ""),  # a Linux host someone named desktop-server
])
def test_platform_reads_the_windows_default_hostname_prompt(prompt, platform):
    """The `platform` fact and the claims sweep read one rule: WSL's Linux hostname is the Windows computer name."""
    from cudaenv.knowledge.explain.extract import facts
    from cudaenv.knowledge.explain.text import LogText

    assert facts(LogText(prompt))["platform"] == platform
