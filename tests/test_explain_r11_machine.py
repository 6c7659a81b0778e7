"""Issue 18, round 11, helper [machine]: the container's GPU plumbing, not the driver.

When a GPU container fails, the thread's fix was in the container stack far more often than in the host
driver: a CDI specification left behind by a driver upgrade (regenerate it), a CDI hook program older than
the specification or missing (upgrade the toolkit), the runtime's ldconfig step, a compose service that asks
for `gpu` but not the compute capability, an enroot/pyxis image without the NVIDIA_* variables (docker
export), Apptainer's /.singularity.d/libs dropped from LD_LIBRARY_PATH. The answers name that layer first and
blame the driver only where the log shows the host driver failing.

Each tuple is a trimmed verbatim excerpt of the thread above it: the first environment answer must be
``want_id`` and its first fix line must hold ``want_fix``, a substring of the fix that solved that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # ======== container.cdi_spec_stale: the CDI spec names driver files of the version before an upgrade
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/450 (Fedora 39 driver update; "podman and CDI
    # needs `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml` after driver updates")
    ("After the update on Fedora 39 to the latest version of nvidia drivers i'm unable to use the container-toolkit "
     "because it requires the version 550.54.14 of libEGL:\n"
     "Error: crun: cannot stat `/lib64/libEGL_nvidia.so.550.54.14`: No such file or directory: OCI runtime attempted "
     "to invoke a command that was not found",
     "container.cdi_spec_stale", "nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"),
    # https://github.com/Igalia/webkit-container-sdk/issues/23 (the file was listed in /etc/cdi/nvidia.yaml; removing
    # the spec and regenerating it pointed to the newer library)
    ("After upgrading the nvidia driver on the host system, the container failed to restart. When starting manually "
     "with `podman start wkdev`, `podman` failed with the following message:\n"
     "> Error: unable to start container \"ecdb2132becbc09015d0bb7d14299693a75a462be160a2a4fc7610d60e0d3f2a\": crun: "
     "error stat'ing file /lib/x86_64-linux-gnu/libEGL_nvidia.so.535.161.07: No such file or directory: OCI runtime "
     "attempted to invoke a command that was not found",
     "container.cdi_spec_stale", "nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/692 (podman --gpus all after an Arch update;
    # "Need to run `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml` after nvidia driver upgrades")
    ("Error: crun: cannot stat `/usr/lib/libnvidia-egl-wayland.so.1.1.13`: No such file or directory: OCI runtime "
     "attempted to invoke a command that was not found",
     "container.cdi_spec_stale", "nvidia-ctk cdi generate"),

    # ======== container.cdi_hook_failed: the CDI hook program is older than the spec, or missing
    # https://github.com/Igalia/webkit-container-sdk/issues/72 (an old nvidia-ctk 1.13.5; upgrading
    # nvidia-container-toolkit-base fixed it)
    ("podman start wkdev\nError: OCI runtime error: unable to start container \"346dbfb347b3\": crun: "
     "{\"msg\":\"error executing hook `/usr/bin/nvidia-ctk` (exit code: 1)\",\"level\":\"error\",\"time\":\"2024-11-05T09:37:14.582274Z\"}",
     "container.cdi_hook_failed", "nvidia-container-toolkit"),
    # https://github.com/ublue-os/bluefin/issues/3454 (nvidia-cdi-hook exit 1 after an image update; the reporter's known fix
    # was regenerating the spec with the installed toolkit; the thread's final resolution was not read)
    ("Error: OCI runtime error: unable to start container \"<container id>\":crun: {\"msg\":\"error executing hook "
     "`/usr/bin/nvidia-cdi-hook` (exit code: 1)\",\"level\":\"error\",\"time\":\"2025-10-22T10:00:06.194712Z\"}",
     "container.cdi_hook_failed", "nvidia-ctk cdi generate"),
    # https://github.com/void-linux/void-packages/issues/55062 (the package lacked nvidia-cdi-hook; a toolkit build
    # with it fixed podman)
    ("Error: runc: runc create failed: unable to start container process: error during container init: error running "
     "hook #0: fork/exec /usr/bin/nvidia-cdi-hook: no such file or directory: OCI runtime attempted to invoke a "
     "command that was not found",
     "container.cdi_hook_failed", "nvidia-container-toolkit"),

    # ======== container.enroot_hook_toolkit_regression: libnvidia-container 1.17.7 under enroot/pyxis
    # https://github.com/NVIDIA/libnvidia-container/issues/313 (1.17.7-1 installed; NVIDIA/nvidia-container-toolkit#1093:
    # "Downgrading to a previous toolkit version (1.17.6-1) resolves the issue")
    ("libnvidia-container-tools/unknown,now 1.17.7-1 arm64 [installed]\n"
     "error: pyxis:     nvidia-container-cli: mount error: failed to add device rules: open "
     "/sys/fs/cgroup/devices/slurm/uid_28788/job_85/step_0/task_0/devices.allow: permission denied\n"
     "error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1",
     "container.enroot_hook_toolkit_regression", "1.17.6"),
    # https://github.com/NVIDIA/pyxis/issues/166 (same as enroot#232: the 1.17.7 update)
    ("slurmstepd: error: pyxis: container start failed with error code: 1\n"
     "slurmstepd: error: pyxis:   nvidia-container-cli: container error: file lookup failed: "
     "/proc/421042/root/fsx/enroot/data/user-1111/pyxis_nemo_2502_$USER/etc/debian_version: permission denied\n"
     "slurmstepd: error: pyxis:   [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1",
     "container.enroot_hook_toolkit_regression", "1.17.6"),

    # ======== torch.no_driver under docker compose: the service asks for `gpu` without compute
    # https://github.com/weaviate/weaviate/issues/1736 (burned fresh11 f71: "adding `utility` and `compute` alongside
    # `gpu` to the device capabilities")
    ("qna-transformers_1  |   File \"/usr/local/lib/python3.9/site-packages/torch/cuda/__init__.py\", line 170, in _lazy_init\n"
     "qna-transformers_1  |     torch._C._cuda_init()\n"
     "qna-transformers_1  | RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
     "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
     "torch.no_driver", "capabilities: [gpu, compute, utility]"),
    # https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/348 (compose; NVIDIA_DRIVER_CAPABILITIES=compute,utility)
    ("Failed to start docker compose --profile auto up --build get error \" Found no NVIDIA driver on your system.\"",
     "torch.no_driver", "capabilities: [gpu, compute, utility]"),

    # ======== loader.nvml_library_missing in an enroot/pyxis or Apptainer container
    # https://github.com/apptainer/apptainer/issues/846 (putting /.singularity.d/libs first on LD_LIBRARY_PATH fixed nvidia-smi)
    ("singularity shell --nv mirror.sif\n"
     "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver "
     "is properly installed and present in your system.\n"
     "Please also try adding directory that contains libnvidia-ml.so to your system PATH.",
     "loader.nvml_library_missing", "/.singularity.d/libs"),
]

CASES += [
    # ======== container.nvidia_cli_ldcache: the runtime's ldconfig setting
    # https://github.com/NVIDIA/nvidia-docker/issues/587 (Debian 8: "change `ldconfig = "@/sbin/ldconfig"` to
    # `ldconfig = "@/sbin/ldconfig.real"`" ... "Seems it helped")
    ("Failed to run nvidia/cuda:8.0 via nvidia-docker2. nvidia-container-cli: ldcache error: process /sbin/ldconfig "
     "failed with error code: 127",
     "container.nvidia_cli_ldcache", "ldconfig = \"@/sbin/ldconfig.real\""),
    # https://github.com/NVIDIA/nvidia-docker/issues/659 (CentOS 7.2, the hook's --ldconfig=@/sbin/ldconfig; no resolution read:
    # the case checks the config.toml line leads)
    ("stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig "
     "--device=all --compute --utility --require=cuda>=8.0 --pid=24908 /data1/yard/docker/aufs/mnt/21e97522ec1a]\\\\n"
     "nvidia-container-cli: ldcache error: process /sbin/ldconfig failed with error code: 1\\\\n\\\"\\\"\".",
     "container.nvidia_cli_ldcache", "config.toml"),
    # https://github.com/NVIDIA/enroot/issues/128 (open, no resolution; enroot's hook; NVIDIA_DEBUG_LOG=1 showed "could not start
    # /usr/sbin/ldconfig: mount operation failed: /dev: operation not permitted")
    ("> nvidia-container-cli: ldcache error: process /usr/sbin/ldconfig failed with error code: 1\n"
     "> [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1",
     "container.nvidia_cli_ldcache", "NVIDIA_DEBUG_LOG=1"),

    # ======== container.device_node_gone: recreate the container with the host's current nodes
    # https://github.com/webanck/docker-wine-steam/issues/15 (the old container relaunched; /dev/nvidia-uvm absent; closed
    # without a resolution)
    ("Trying to run a new data container.\nThe container already exists, relaunching the old one.\n"
     "Error response from daemon: linux runtime spec devices: error gathering device information while adding "
     "custom device \"/dev/nvidia-uvm\": lstat /dev/nvidia-uvm: no such file or directory",
     "container.device_node_gone", "nvidia-modprobe -u -c=0"),
    # https://github.com/kersny/airsim_nvidia_docker/issues/4 ("requires the nvidia binary driver")
    ("docker: Error response from daemon: linux runtime spec devices: error gathering device information while "
     "adding custom device \"/dev/nvidia0\": lstat /dev/nvidia0: no such file or directory.",
     "container.device_node_gone", "`nvidia-smi` must work"),
    # ======== nccl.graph_file_mismatch: a graph XML injected by the VM image
    # https://github.com/NVIDIA/nccl/issues/1240 ("Your `NCCL_GRAPH_FILE` parameter ... should never be set in
    # production. You should unset it." ... "it is solved with your fix")
    ("Spotllm:73025:73112 [0] NCCL INFO NCCL_TOPO_FILE set by environment to /opt/microsoft/ncv4/topo.xml\n"
     "Spotllm:73025:73112 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/ncv4/graph.xml\n\n"
     "Spotllm:73025:73112 [0] graph/search.cc:719 NCCL WARN XML Import Channel : dev 1 not found.\n"
     "Spotllm:73025:73112 [0] NCCL INFO graph/search.cc:749 -> 2",
     "nccl.graph_file_mismatch", "unset NCCL_GRAPH_FILE"),

    # ======== driver.nvidia_smi_not_found: where it ran decides the fix
    # https://github.com/AidenDurrant/abdn-hpc/issues/1 (burned fresh9 d74: "The login node does not contain any GPUs")
    ("$ nvidia-smi\nbash: nvidia-smi: command not found\n\nnvidia-smi gives the above output. How do you check GPU "
     "memory allocation on macleod cluster?",
     "driver.nvidia_smi_not_found", "--gres=gpu:1"),
]

CASES += [
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/885 (the spec named /dev/dri/renderD129, a node the host
    # lacks; the thread's own step is `nvidia-ctk cdi generate`; its final resolution was not read: a weaker case)
    ("Rootless Podman Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device "
     "\"/dev/dri/renderD129\": no such file or directory",
     "container.cdi_spec_stale", "nvidia-ctk cdi generate"),
    # ======== gpu.busy_exclusive under WSL: the Windows build's WSL GPU support
    # https://github.com/microsoft/WSL/issues/6057 (build 20226, the same Insider build as WSL#6014, fixinbound there;
    # WSL#6098: "the issue is fixed in the very latest Windows release 20236")
    ("Windows build number: 2004 (20226.1000)\n"
     "Whether the issue is on WSL 2 and/or WSL 1: WSL 2, kernel\n"
     "an error occurs: \u00b4CUDA error at bodysystemcuda_impl.h:159 code=46(cudaErrorDevicesUnavailable) "
     "\"cudaEventCreate(&m_deviceData[0].event)\"`",
     "gpu.busy_exclusive", "Move Windows to a build with working WSL GPU support"),
    # https://github.com/microsoft/WSL/issues/6014 ("WSL2 & CUDA does not work [v20226]", labelled fixinbound)
    ("WSL2 & CUDA does not work [v20226]\n"
     "RuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: all CUDA-capable devices are busy or unavailable",
     "gpu.busy_exclusive", "Move Windows to a build with working WSL GPU support"),
]

test_first_answer = first_answer_tests(CASES)
