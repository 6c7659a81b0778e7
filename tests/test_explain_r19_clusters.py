"""Round 19 (producers' own wordings, clusters and container platforms): the answers the widened patterns, the new
variants and the two new Slurm causes give, and the near-misses that keep off them
(tests/data/explain_producers/clusters.yaml holds the messages, read from each producer's source).

- NVML's "Driver Not Loaded" as a node's daemon prints it (slurmd, Nomad's device plugin, HTCondor's code 9): the
  module on that node, then the daemon restarted; nvidia-container-cli's lower-case "driver not loaded" stays the
  container runtime's.
- nvidia-container-cli missing under LXC/LXD, Charliecloud and containerd's ctr: each tool's own way out.
- The GPU Operator's driver container (a driver already loaded on the node; no headers package for its kernel) and
  GKE's device plugin (the driver installer has not run).
- Slurm built without NVML for AutoDetect=nvml, and slurmctld taking a node out for a low gres/gpu count.

The texts are the producers' messages with realistic values."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # slurmd src/plugins/gpu/nvml/gpu_nvml.c (19.05 - 25.x)
    ("[2024-05-01T10:22:33.123] error: Failed to initialize NVML: Driver Not Loaded\n"
     "[2024-05-01T10:22:33.123] fatal: Failed to initialize NVML\n",
     "driver.not_loaded", "restart the daemon"),
    # nomad-device-nvidia fingerprint.go (hclog)
    ('2024-05-01T10:22:34.456Z [ERROR] client.device_mgr.nvidia-gpu: exiting fingerprinting due to problems with NVML '
     'loading: error="failed to initialize: Driver Not Loaded"\n',
     "driver.not_loaded", "sudo modprobe nvidia"),
    # HTCondor condor_gpu_discovery (NVML_ERROR_LIB_RM_VERSION_MISMATCH)
    ("Warning: nvmlInit() failed with error 18; will not discover dynamic properties or MIG instances.\n",
     "driver.version_mismatch", "reboot"),
    # GKE's device plugin, go-nvml (container-engine-accelerators cmd/nvidia_gpu/nvidia_gpu.go)
    ("F0501 10:22:33.124012       1 nvidia_gpu.go:157] failed to initialize nvml: ERROR_LIBRARY_NOT_FOUND\n",
     "container.k8s_nvml_unavailable", "gpu-driver-version=default"),
    # the GPU Operator's driver container (gpu-driver-container ubuntu22.04/nvidia-driver)
    ("Unloading NVIDIA driver kernel modules...\nnvidia_uvm           1527808  2\n"
     "Could not unload NVIDIA driver kernel modules, driver is in use\n",
     "driver.installer_module_in_use", "driver.enabled=false"),
    ("Checking NVIDIA driver packages...\nUpdating the package cache...\nResolving Linux kernel version...\n"
     "Could not resolve Linux kernel version\n",
     "driver.module_build_failed", "driver.usePrecompiled=true"),
    # LXD's nvidia.runtime (lxd/instance/drivers/driver_lxc.go, 3.0 - 5.21)
    ("Error: The NVIDIA container tools couldn't be found\nTry `lxc info --show-log gpu1` for more info\n",
     "container.enroot_no_container_cli", "lxc restart CONTAINER"),
    # containerd's ctr run --gpus (contrib/nvidia/nvidia.go)
    ('ctr: exec: "nvidia-container-cli": executable file not found in $PATH\n',
     "container.enroot_no_container_cli", "ctr run --gpus 0"),
    # Charliecloud's ch-fromhost --nvidia
    ("ch-fromhost: line 264: nvidia-container-cli: command not found\n"
     "error: nvidia-container-cli failed; does this host have GPUs?\n",
     "container.enroot_no_container_cli", "ch-fromhost -p"),
    # enroot's own hook keeps its answer (its variant)
    ("[ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container\n"
     "[ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1\n",
     "container.enroot_no_container_cli", "Then submit the job again"),
    # Slurm src/interfaces/gpu.c
    ("slurmd: info: We were configured to autodetect nvml functionality, but we weren't able to find that lib when "
     "Slurm was configured.\n",
     "slurm.built_without_nvml", "--with-nvml"),
    # slurmctld (src/interfaces/gres.c, node_mgr.c)
    ("[2024-05-01T10:22:35.004] error: Setting node gpu-node-07 state to INVAL with reason:gres/gpu count reported "
     "lower than configured (0 < 4)\n",
     "slurm.node_gpu_count_low", "`nvidia-smi -L` must list 4 GPUs"),
    ("error: Setting node gpu02 state to DRAIN with reason:gpu:a100 count too low (3 < 4)\n",
     "slurm.node_gpu_count_low", "must list 4 GPUs"),
    # Shifter's GPU support script on a node without the driver: the cluster's answer
    ("[ GPU SUPPORT ] =ERROR= Cannot find nvidia-smi on the host. Make sure that your PATH environment variable is "
     "correctly set.\n",
     "driver.nvidia_smi_not_found", "requests a GPU"),
]

test_first_answer = first_answer_tests(CASES)

# Near-misses: the same words from another producer or about another thing stay off these causes.
NEAR = [
    # nvidia-container-cli's own lower-case words: the container runtime's cause, not NVML's "Driver Not Loaded"
    ("nvidia-container-cli: initialization error: nvml error: driver not loaded\n", "driver.not_loaded"),
    # the hook's nvidia_uvm warning beside the driver not answering at all: the driver first
    ("[WARN] Kernel module nvidia_uvm is not loaded. Make sure the NVIDIA device driver is installed and loaded.\n"
     "nvidia-container-cli: initialization error: nvml error: driver not loaded\n", "driver.uvm_device_missing"),
    # the GPU Operator's validator when the driver is the operator's own: an info line, no missing driver
    ('time="2024-05-01T10:22:33Z" level=info msg="No pre-installed driver detected on the host: failed to find an '
     "executable 'nvidia-smi' on the host\"\n", "driver.nvidia_smi_not_found"),
    # other cuInit codes and NVML codes are not these causes
    ("Error: cuInit returned 100\n", "driver.unknown_error"),
    ("Warning: nvmlInit() failed with error 181; will not discover dynamic properties or MIG instances.\n",
     "driver.version_mismatch"),
    # Slurm built with NVML whose library is missing on the node: the library, not the build
    ("slurmd: fatal: We were configured with nvml functionality, but that lib wasn't found on the system.\n",
     "slurm.built_without_nvml"),
    # another GRES than GPUs
    ("error: Setting node gpu02 state to INVAL with reason:gres/mps count reported lower than configured (0 < 400)\n",
     "slurm.node_gpu_count_low"),
]


@pytest.mark.parametrize("text,not_id", NEAR)
def test_near_misses_keep_off(text: str, not_id: str) -> None:
    ids = [m.id for m in explain(text) if m.environment]
    assert not ids or ids[0] != not_id, ids


def test_slurm_nvml_library_missing_is_the_library():
    text = "slurmd: fatal: We were configured with nvml functionality, but that lib wasn't found on the system.\n"
    ids = [m.id for m in explain(text) if m.environment]
    assert ids and ids[0] == "loader.nvml_library_missing", ids
