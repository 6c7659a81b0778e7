"""Round 20 (cloud and hosted GPU docs, virtualization passthrough): causes those pages list that the knowledge base
lacked, each answered first from real log lines, and the near-misses that keep off them.

- GPU passthrough on the host (KVM/QEMU, Proxmox, libvirt, KubeVirt): the IOMMU group not all on vfio-pci; the boot
  framebuffer holding the GPU's BAR; no IOMMU active.
- NVIDIA NGC containers' start-up check: the image was built for a newer driver than the host's, forward
  compatibility unavailable.

The texts are copied from the threads and producers named beside them."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/64kramsystem/vga-passthrough/issues/15
    ("qemu-system-x86_64: -device vfio-pci,host=01:00.0,multifunction=on: vfio error: 0000:01:00.0: group 1 is not "
     "viable\nPlease ensure all devices within the iommu_group are bound to their vfio bus driver.\n",
     "vfio.iommu_group_not_viable", "/sys/kernel/iommu_groups"),
    # https://github.com/kubevirt/kubevirt/issues/6718 (KubeVirt's libvirt error, as kubectl describe shows it)
    ("  Warning  SyncFailed        7s    virt-handler, k8s-master   server error. command SyncVMI failed: "
     "\"LibvirtError(Code=1, Domain=10, Message='internal error: qemu unexpectedly closed the monitor: "
     "2021-11-03T08:06:48.563014Z qemu-kvm: -device vfio-pci,host=0000:01:00.0,id=ua-gpu1,bus=pci.5,addr=0x0: vfio "
     "0000:01:00.0: group 1 is not viable\\nPlease ensure all devices within the iommu_group are bound to their vfio "
     "bus driver.')\"\n",
     "vfio.iommu_group_not_viable", "/sys/kernel/iommu_groups"),
    # https://github.com/cosminmocan/vfio-single-amdgpu-passthrough/issues/3
    ("[   44.702115] vfio-pci 0000:05:00.0: BAR 0: can't reserve [mem 0xd0000000-0xdfffffff 64bit pref]\n",
     "vfio.bar_held_by_boot_framebuffer", "initcall_blacklist=sysfb_init"),
    # https://github.com/jiangcuo/Proxmox-Arm64/issues/25 ; pve-manager www/manager6/qemu/PCIEdit.js
    ("I get this message when i try and do a pcie passthrough.\n\nNo IOMMU detected, please activate it.See "
     "Documentation for further information.\n",
     "vfio.iommu_not_enabled", "in the firmware"),
    # https://github.com/NVIDIA/TensorRT-LLM/issues/23
    ("ERROR: This container was built for NVIDIA Driver Release 535.86 or later, but\n"
     "       version 510.85.02 was detected and compatibility mode is UNAVAILABLE.\n",
     "container.ngc_driver_too_old", "535.86 or newer"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1479
    ("ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but\n"
     "       version 440.33.01 was detected and compatibility mode is UNAVAILABLE.\n\n"
     "       [[CUDA Driver UNAVAILABLE (cuInit(0) returned 804)]]\n",
     "container.ngc_driver_too_old", "450.51 or newer"),
    # https://github.com/omarabid59/yolov8-triton/issues/6 (one line, as pasted)
    ("ERROR: This container was built for NVIDIA Driver Release 525.85 or later, but\n"
     "version 470.199.02 was detected and compatibility mode is UNAVAILABLE.\n",
     "container.ngc_driver_too_old", "525.85 or newer"),
    # https://github.com/fastai/course-v3/pull/165
    ("ERROR: (gcloud.compute.instances.create) Could not fetch resource:\n"
     " - Quota 'GPUS_ALL_REGIONS' exceeded. Limit: 0.0 globally.\n",
     "cloud.gpu_quota_exceeded", "Request a quota increase for GPUS_ALL_REGIONS"),
    # https://github.com/skypilot-org/skypilot/issues/464
    ("W 02-27 08:19:10 cloud_vm_ray_backend.py:520]   Exception Details:      (QuotaExceeded) Operation could not be "
     "completed as it results in exceeding approved Standard NCASv3_T4 Family Cores quota. Additional details - "
     "Deployment Model: Resource Manager, Location: southcentralus, Current Limit: 0, Current Usage: 0, Additional "
     "Required: 4, (Minimum) New Limit Required: 4.\n",
     "cloud.gpu_quota_exceeded", "Standard NCASv3_T4 Family"),
    # https://github.com/GoogleCloudPlatform/stable-diffusion-on-gcp/issues/12
    ('    "message": "The following quota metrics exceed quota limits: '
     'aiplatform.googleapis.com/custom_model_training_nvidia_l4_gpus",\n    "status": "RESOURCE_EXHAUSTED"\n',
     "cloud.gpu_quota_exceeded", "custom_model_training_nvidia_l4_gpus"),
    # https://github.com/kata-containers/kata-containers/issues/11708
    ("[586739.359281] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
     "[586739.361003] vfio-pci 0000:01:00.0: resetting\n"
     "[586740.080470] vfio-pci 0000:01:00.0: timed out waiting for pending transaction; performing function level "
     "reset anyway\n",
     "gpu.d3cold_wake_failed", "disable_idle_d3=1"),
    # https://github.com/bryansteiner/gpu-passthrough-tutorial/issues/39 (the D3cold line is the root under RmInitAdapter)
    ("[   87.412701] nvidia 0000:01:00.0: not ready 65535ms after resume; giving up\n"
     "[   87.412759] nvidia 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
     "[   87.473074] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:667)\n"
     "[   87.473112] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n",
     "gpu.d3cold_wake_failed", "power cycle"),
    # https://github.com/mroboff/vm-curator/pull/63 (QEMU's wording)
    ("The reporter hit `vfio: Unable to power on device, stuck in D3` when starting the VM\n",
     "gpu.d3cold_wake_failed", "disable_idle_d3=1"),
    # https://github.com/googlecolab/colabtools/issues/2108
    ("Cannot connect to GPU backend\n\nYou cannot currently connect to a GPU due to usage limits in Colab. Learn more\n",
     "colab.gpu_usage_limit", "Wait"),
    # https://github.com/HenriquesLab/ZeroCostDL4Mic/issues/239
    ('"Unable to connect to GPU backend. You are currently unable to connect to a GPU due to Colab\'s usage limits."\n',
     "colab.gpu_usage_limit", "Wait"),
    # https://github.com/iterative/cml/issues/814
    ("500, RequestID: 87b3947e-25a6-4d7a-8e3d-ab8246ca0e3d, api error InsufficientInstanceCapacity: \n"
     "We currently do not have sufficient g4dn.xlarge capacity in the Availability Zone you requested (eu-west-1b). \n"
     "Our system will be working on provisioning additional capacity. \n",
     "cloud.gpu_capacity_unavailable", "another zone"),
    # https://github.com/aws/amazon-sagemaker-feedback/issues/99
    ("EC2InsufficientCapacityError: Instance type 'ml.g5.48xlarge' is temporarily unavailable in supported "
     "availability zones [euw1-az1]. Try again in a few minutes, or try a different instance type.\n",
     "cloud.gpu_capacity_unavailable", "another zone"),
    # https://github.com/kubernetes/k8s.io/issues/9834
    ("- localizedMessage:\n    locale: en-US\n    message: A n1-standard-4 VM instance with 1 nvidia-tesla-t4 "
     "accelerator(s) is\n      currently unavailable in the us-central1-b zone. Consider trying your request\n",
     "cloud.gpu_capacity_unavailable", "another zone"),
    # https://github.com/NVIDIA/gpu-operator/issues/544
    ("nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver "
     "version 530.41.03. Please update with matching NVIDIA driver package.\n",
     "driver.fabric_manager", "Install the fabric manager of exactly driver 530.41.03"),
    # https://github.com/siderolabs/pkgs/issues/720
    ("`fabric manager NVIDIA GPU driver interface version 525.85.12 don't match with driver version 530.41.03. Please "
     "update with matching NVIDIA driver package`.\n",
     "driver.fabric_manager", "Install the fabric manager of exactly driver 530.41.03"),
    # https://github.com/NVIDIA/nvtrust/issues/55 (a typographic apostrophe)
    ('"fabric manager NVIDIA GPU driver interface version 550.90.07 don\u2019t match with driver version 550.107.02. '
     'Please update with matching NVIDIA driver package"\n',
     "driver.fabric_manager", "Install the fabric manager of exactly driver 550.107.02"),
    # https://github.com/foxlet/macOS-Simple-KVM/issues/579 (QEMU's wording)
    ("qemu-system-x86_64: -device vfio-pci,host=08:00.0,bus=port.1,multifunction=on: vfio 0000:08:00.0: no "
     "iommu_group found: No such file or directory\n",
     "vfio.iommu_not_enabled", "in the firmware"),
]

test_first_answer = first_answer_tests(CASES)


NEAR = [
    # the boot-time BAR listing of a GPU that works is no reservation failure
    ("[    0.645871] pci 0000:01:00.0: BAR 1 [mem 0xf800000000-0xfbffffffff 64bit pref]\n",
     "vfio.bar_held_by_boot_framebuffer"),
    # NVIDIA's own BAR complaint in a guest is the guest driver's cause (BAR2 is 0M), not the host's framebuffer
    ("NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\nNVRM: BAR2 is 0M @ 0x0 (PCI:0000:00:05.0)\n",
     "vfio.bar_held_by_boot_framebuffer"),
    # an NGC banner with no driver version at all: no driver visible in the container, not an old one
    ("fauxpilot-triton-1         | ERROR: This container was built for NVIDIA Driver Release 515.48 or later, but\n"
     "fauxpilot-triton-1         |        version  was detected and compatibility mode is UNAVAILABLE.\n",
     "container.ngc_driver_too_old"),
    # the forward-compatibility banner that worked
    ("NOTE: CUDA Forward Compatibility mode ENABLED.\n"
     "  Using CUDA 12.1 driver version 530.30.02 with kernel driver version 470.182.03.\n",
     "container.ngc_driver_too_old"),
    # a CPU quota is not the GPU quota (GoogleCloudPlatform/ai-on-gke#849's wording, a stock-out behind it)
    ("Code: QUOTA_EXCEEDED\nMessage: Quota 'CPUS_ALL_REGIONS' exceeded.\n", "cloud.gpu_quota_exceeded"),
    # a CPU instance type's stock-out is not a GPU's (skyplane-project/skyplane#299)
    ("An error occurred (InsufficientInstanceCapacity) when calling the RunInstances operation (reached max retries: "
     "4): We currently do not have sufficient m5.8xlarge capacity in the Availability Zone you requested "
     "(us-west-1a).\n", "cloud.gpu_capacity_unavailable"),
]


@pytest.mark.parametrize("text,not_id", NEAR)
def test_near_misses_keep_off(text: str, not_id: str) -> None:
    ids = [m.id for m in explain(text) if m.environment]
    assert not ids or ids[0] != not_id, ids


def test_ngc_banner_yields_to_a_later_error():
    # the banner is not always fatal: a later environment error in the same log answers first (rank 1)
    text = ("ERROR: This container was built for NVIDIA Driver Release 535.86 or later, but\n"
            "       version 510.85.02 was detected and compatibility mode is UNAVAILABLE.\n"
            "RuntimeError: CUDA error: out of memory\n")
    ids = [m.id for m in explain(text)]
    assert ids and ids[0] != "container.ngc_driver_too_old", ids


def test_fabric_manager_802_alone_keeps_its_answer():
    # the bare 802 status has no versions: the entry's own title, not the mismatch variant
    text = ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda "
            "functions before calling NumCudaDevices() that might have already set an error? Error 802: system not "
            "yet initialized\n")
    m = [m for m in explain(text) if m.environment][0]
    assert m.id == "driver.fabric_manager" and "does not match" not in m.title, m.title
