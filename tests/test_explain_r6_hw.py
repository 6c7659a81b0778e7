"""Issue 18, round 6, helper [hw]: driver, hardware and multi-GPU causes whose evidence is indirect.

The log's top error is often generic (a hang, "unhandled system error", "NVIDIA-SMI has failed"); the
cause shows in what else the log holds: NCCL_P2P_DISABLE=1 making a hang go away, an nccl-tests binary
that hangs, lspci's ACS control, the kernel's IOMMU and PCIe AER lines, nouveau's (or nova's) own lines,
the verbs call that failed. Each tuple is a short excerpt of a real public thread (its URL above it),
verbatim but trimmed: the first environment answer must be ``want_id`` and its fix's first line must hold
``want_fix`` (the fix that solved that thread's case); an empty ``want_fix`` checks the id only (the
thread did not say what solved it). Program bugs: the verdict id, and nothing environmental claimed.
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import assert_first_answer, first_answer_tests

CASES = [
    # --- NCCL hangs between PCIe GPUs: the IOMMU or PCIe ACS blocks peer-to-peer ----------------------------
    # https://github.com/NVIDIA/nccl/issues/257 (booting with intel_iommu=off solved it; fresh4 856, burned)
    ("Using the `master` version of nccl. I launch `all_reduce_perf` and it hangs with 100% volatile GPU usage "
     "reported.\n#   Rank  0 Pid  15833 on jupyter-vmarkovtsev device  0 [0x02] GeForce GTX 1080 Ti\n"
     "NCCL version 2.4.8+cuda10.0", "nccl.p2p_blocked_by_iommu_acs", "intel_iommu=off"),
    # https://github.com/NVIDIA/nccl/issues/2079 (ACS off on the AMD root ports; fresh5 957, burned)
    ("`ncclAllReduce` enters an infinite spin-wait deadlock on two NVIDIA RTX 5880 Ada Generation GPUs connected via "
     "PCIe Host Bridge (PHB) topology with no NVLink.\n\nSetting `NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1` (forcing socket "
     "transport) resolves the deadlock completely.", "nccl.p2p_blocked_by_iommu_acs", "PCIe ACS"),
    # https://github.com/NVIDIA/nccl/issues/667 (VT-d off and a cold reboot; fresh5 958, burned)
    ("all_reduce_perf works fine only with those linked through SYS. The rest will result in hanging.\n\n"
     "Setting NCCL_P2P_DISABLE=1 did workaround but got really low speed.\n\nNCCL version 2.10.X",
     "nccl.p2p_blocked_by_iommu_acs", "VT-d"),
    # https://github.com/NVIDIA/nccl/issues/631 (maintainer: ACS / VT-d / iommu=pt)
    ("I do not know the exact reason, but the model \"freeze\"(stuck) when using 4 or more GPUs. So, while trying various "
     "things, I confirmed that the model works by setting the variable NCCL_P2P_DISABLE =1 .",
     "nccl.p2p_blocked_by_iommu_acs", "iommu=pt"),
    # https://github.com/NVIDIA/nccl/issues/120 (iommu=soft on an AMD Ryzen solved it)
    ("single/all_gather_test is always stuck\nMy cpu is one AMD Ryzen 7 1700X. The motherboard is AUSU ROG C6H.",
     "nccl.p2p_blocked_by_iommu_acs", "IOMMU"),
    # https://github.com/NVIDIA/nccl/issues/606 (nccl-tests hang; lspci shows ACS enabled on the bridges)
    ("NCCL test hangs between GPU2 and GPU3 all the time\n$ sudo lspci -vvv | grep ACSCtl\n"
     "                ACSCtl: SrcValid+ TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-\n"
     "                ACSCtl: SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-",
     "nccl.p2p_blocked_by_iommu_acs", "setpci"),
    # https://github.com/Lightning-AI/pytorch-lightning/issues/18221 (nccl-tests stuck with -g 8; P2P off helped)
    ("when I try nccl_test , the test will be stuck with -g 8,and will test well with -g 1\n"
     "You can also try to run with `NCCL_P2P_DISABLE=1` to see if peer to peer communication is an issue on your system.",
     "nccl.p2p_blocked_by_iommu_acs", "IOMMU"),
    # https://github.com/vllm-project/vllm/issues/33041, as its shadow issue quotes it
    # (https://github.com/local-inference-lab/vllm/issues/262): amd_iommu=off and ACS off in the BIOS
    ("vLLM hangs after NCCL init with TP=2 on Blackwell (RTX PRO 6000). `NCCL_P2P_DISABLE=1` + "
     "`--disable-custom-all-reduce` works as workaround. The reporter's GPU topology showed `NODE` connections between "
     "GPUs (PCIe-only, no NVLink)", "nccl.p2p_blocked_by_iommu_acs", "amd_iommu=off"),
    # the IOMMU's own record, no hang: a tensor copied to the other GPU arrives as zeros
    # https://github.com/tinygrad/open-gpu-kernel-modules/issues/18 ("Disabling IOMMU fixed this behavior")
    ("I found out that P2P can be enabled with IOMMU on, but it may not work as intended. \nWhen moving data between GPUs "
     "via P2P, I was getting IO_PAGE_FAULT and the copied tensor would be allocated but zeroed out.",
     "nccl.p2p_blocked_by_iommu_acs", "IOMMU"),
    # https://github.com/NVIDIA/cuda-samples/issues/48 (the P2P samples crash the GPUs; AMD-Vi faults in dmesg)
    ("p2p samples crash GPUs\nSep 21 09:59:59 runtime kernel: nvidia 0000:07:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT "
     "domain=0x0003 address=0x80000040 flags=0x0020]", "nccl.p2p_blocked_by_iommu_acs", ""),
    # https://github.com/src-d/kmcuda/issues/100 (two GPUs never finish; AMD-Vi IO_PAGE_FAULT; amd_iommu=off advised)
    ("Trying to use 2 GPUs results in neverending process that can't be killed without restart\n"
     "The dmesg log is actually very insightful. `IO_PAGE_FAULT` signals about nasty system bus errors, and I also see "
     "`AMD-Vi`.", "nccl.p2p_blocked_by_iommu_acs", ""),
    # GeForce RTX 4090s have no P2P; the driver of the time claimed it: https://github.com/NVIDIA/nccl-tests/issues/117
    ("NCCL all_reduce_perf test hangs with multiple RTX 4090 GPUs, works fine when I swap in 2080tis\n"
     "It works with NCCL_P2P_DISABLE=1, but ideally would like to figure out why normal P2P is not working.",
     "nccl.p2p_blocked_by_iommu_acs", "NCCL_P2P_DISABLE=1"),
    # --- verbs calls refused for the locked-memory limit ---------------------------------------------------
    # https://github.com/NVIDIA/nccl/issues/562 (Slurm + pyxis: `srun ulimit -l` gave 64; fresh5 959, burned)
    ("hai-a100-3:3778851:3779455 [6] NCCL INFO Using network IBext\nNCCL version 2.8.3+cudaCUDA_MAJOR.CUDA_MINOR\n\n"
     "hai-a100-3:3778851:3779883 [4] ibvwrap.c:130 NCCL WARN Call to ibv_create_qp failed\n"
     "hai-a100-3:3778851:3779883 [4] NCCL INFO ib_plugin.c:196 -> 2", "nccl.memlock_limit", "ulimit -l"),
    # the same thread with its launcher named: the Slurm answer
    ("srun --container-image=tensorflow python train.py\n"
     "hai-a100-3:3778851:3779883 [4] ibvwrap.c:130 NCCL WARN Call to ibv_create_qp failed",
     "nccl.memlock_limit", "LimitMEMLOCK=infinity"),
    # https://github.com/horovod/horovod/issues/98 (maintainer: `ulimit -l`; a reporter's memlock was too small)
    ("machine [0] misc/ibvwrap.cu:269 WARN Call to ibv_create_qp failed\n"
     "Failed, NCCL error test_nccl.c:99 'unhandled system error'", "nccl.memlock_limit", "ulimit -l"),
    # https://github.com/openucx/ucx/issues/8229 (max locked memory 64 KB; raise it)
    ("ibv_create_cq(cqe=4096) failed: Cannot allocate memory\nmax locked memory       (kbytes, -l) 64",
     "nccl.memlock_limit", "ulimit -l"),
    # https://github.com/openucx/ucx/issues/8746 (UCX 1.14 names the limit itself)
    ("[1668693503.473099] [ampere:1188443:0]          ib_log.c:246  UCX  ERROR mlx5_0: ibv_create_cq() failed: Cannot "
     "allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)",
     "nccl.memlock_limit", ""),
    # https://github.com/NVIDIA/cudf-spark/pull/7632 (RDMA in a container: `--ulimit memlock=-1`)
    ("In RDMA test, the client side could fail intermittently,\nERROR mlx5_0: ibv_create_cq() failed: Cannot allocate "
     "memory.\nset memlock to unlimited for container should resolve this issue", "nccl.memlock_limit",
     "--ulimit memlock=-1"),
    # https://github.com/NVIDIA/nccl/issues/1129 (docker, NCCL 2.7.8; unresolved)
    ("I ran torch based multi-machine multi-card model training in docker container, nccl 2.7.8,cuda 11.1.\n"
     "”misc/ibvwrap.cc:280 NCCL WARN Call to ibv_create_qp failed“", "nccl.memlock_limit", "--ulimit memlock"),
    # --- PCIe AER: the GPU's link failing ------------------------------------------------------------------
    # https://github.com/rwth-i6/returnn/issues/1500 (a hang; "just a hardware issue"; fresh5 961, burned)
    ("[  +0.000844] nvidia 0000:03:00.0: AER: can't recover (no error_detected callback)\n"
     "[  +0.000001] pcieport 0000:00:03.0: AER: Multiple Uncorrected (Fatal) error received: 0000:00:03.0\n"
     "[  +0.000004] pcieport 0000:00:03.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, "
     "(Requester ID)\n[  +0.000894] pcieport 0000:00:03.0:    [14] CmpltTO                (First)",
     "gpu.pcie_link_failed", "out of use"),
    # https://github.com/wilicc/gpu-burn/issues/1 (Surprise Down, then Xid 79; the card or its cooling)
    ("[74889.542044] pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, "
     "id=0010(Receiver ID)\n[74889.542184] pcieport 0000:00:02.0:    [ 5] Surprise Down Error    (First)\n"
     "[74889.542239] nvidia 0000:02:00.0: device has no AER-aware driver\n"
     "[74889.644138] NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the bus.", "gpu.pcie_link_failed", ""),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1229 (a Thunderbolt eGPU link: completion timeout)
    ("pcieport 0000:00:01.2: AER: Uncorrectable (Non-Fatal) error received from 0000:63:00.0\n"
     "nvidia 0000:63:00.0: AER: can't recover (no error_detected callback)\npcieport 0000:62:00.0: AER: device recovery "
     "failed\nNVRM: Xid (PCI:0000:63:00): 31, name=plasmashell, MMU Fault: ENGINE GR_HOST0 HUBCLIENT_ESC0",
     "gpu.pcie_link_failed", ""),
    # https://github.com/DualCoder/vgpu_unlock/issues/114 (a 2080 Ti passed to a VM, under Furmark)
    ("when I use a stressful graphics program (such as Furmark) in the virtual machine, the host freezes and keeps "
     "showing\nPCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n"
     "My GPU is RTX2080Ti 1e04 with TU102-300 chip.", "gpu.pcie_link_failed", ""),
    # https://github.com/pop-os/pop/issues/3363 (Xid 79 with these errors; a new power supply fixed it;
    # fresh5 962, burned)
    ("Sep 19 16:18:02 bubz kernel: [68183.615790] pcieport 0000:00:03.1: AER: Correctable error message received from "
     "0000:00:00.0\nSep 19 16:18:02 bubz kernel: [68183.615810] pcieport 0000:00:03.1: PCIe Bus Error: "
     "severity=Correctable, type=Data Link Layer, (Transmitter ID)\n"
     "Sep 19 16:18:02 bubz kernel: [68183.637907] pcieport 0000:00:03.1:    [ 6] BadTLP", "gpu.pcie_link_errors",
     "power"),
    # the same thread's Xid 79 with them: the hardware fault, power first
    ("NVRM: Xid (PCI:0000:2d:00): 79, pid=1811, GPU has fallen off the bus.\n"
     "pcieport 0000:00:03.1: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Transmitter ID)",
     "gpu.hardware_fault", "power"),
    # --- a Hyper-V GPU-PV guest, not WSL: the host's driver files and dxgkrnl ---------------------------------
    # https://github.com/brokeDude2901/dxgkrnl_ubuntu/issues/1 (booting the dxgkrnl kernel fixed it)
    ("- Host OS: Win10 H2\n- Guest OS (VM OS): Ubuntu 20.04 \n- GPU driver: 516.40\n"
     "Failed to initialize NVML: GPU access blocked by the operating system \n"
     "Failed to properly shut down NVML: GPU access blocked by the operating system", "wsl.gpu_access_blocked", "dxgkrnl"),
    # https://github.com/staralt/dxgkrnl-dkms/issues/9 (the dkms module in a Hyper-V guest)
    ("I have `/dev/dxg` device. Seems like dxgkernel is loaded via dmesg as well. I have wsl installed and cuda/nvidia gpu "
     "is working perfectly there. I just need it to work in hyperv environment.\n"
     "Failed to initialize NVML: GPU access blocked by the operating system", "wsl.gpu_access_blocked", "driver set"),
    # --- the host's CUDA finds no GPU for the container runtime -------------------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/1180 (taking the NVLink bridge off fixed it; fresh4 862, burned)
    ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:346: starting container process "
     "caused \"process_linux.go:449: container init caused \"process_linux.go:432: running prestart hook 1 caused "
     "\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: cuda error: no "
     "cuda-capable device is detected\\n\"\"\": unknown.", "container.host_driver_missing", "NVLink bridge"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1235 (an Optimus laptop, GTX 1050 Mobile)
    ("stderr: nvidia-container-cli: initialization error: cuda error: no cuda-capable device is detected\n"
     "I do have nvidia-driver-435 installed. My version of docker is 19.03. If I run `prime-select query`, I get `nvidia`.",
     "container.host_driver_missing", ""),
    # --- nvidia-smi "No devices were found" ---------------------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/32 (nvidia-smi on the host once made it work)
    ("# ctr run -t --rm --gpus 0 nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda10.2 sample nvidia-smi\nNo devices were found",
     "driver.no_devices_found", "on the host"),
    # https://github.com/clayfreeman/gpu-passthrough/issues/4 (a T4 passed to a KVM guest: hide the hypervisor)
    ("I make gpu-passthroug with  GPU Tesla T4 on  kvm。host device is redhat,but virtual machine is centos.\n"
     "when comand line \"nvidia-smi“ in linux terminal，no devices were found,as follow;", "driver.no_devices_found",
     "hide the hypervisor"),
    # https://github.com/JackHack96/dell-xps-9570-ubuntu-respin/issues/125 (unresolved)
    ("After rebooting, I input \"nvidia-smi\" command in terminal and got \"No devices were found\". Any suggestions?",
     "driver.no_devices_found", ""),
    # --- the GPU's BARs got no address space ----------------------------------------------------------------------
    # https://github.com/Dunedan/mbp-2016-linux/issues/60 (a Thunderbolt 3 eGPU)
    ("[   85.546912] NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n"
     "               NVRM: BAR1 is 0M @ 0x0 (PCI:0000:0a:00.0)\n[   85.546913] NVRM: The system BIOS may have misconfigured "
     "your GPU.\n[   85.546916] nvidia: probe of 0000:0a:00.0 failed with error -1\ntb3 Nvidia eGPU",
     "driver.gpu_bar_unassigned", "pci=realloc"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/344 (VFIO passthrough under cloud-hypervisor)
    ("Launch cloud-hypervisor, which can be found at https://github.com/cloud-hypervisor/cloud-hypervisor with VFIO "
     "passthrough of a nvidia device. The driver will display:\n[    1.121034] NVRM: This PCI I/O region assigned to your "
     "NVIDIA device is invalid:\n               NVRM: BAR2 is 0M @ 0x0 (PCI:0000:00:05.0)", "driver.gpu_bar_unassigned",
     "MMIO"),
    # --- a GPU that falls off the bus, in the user's words; one desktop card: its seating and power first ------------
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/507 (NVIDIA: temperatures, power connectors, PSU, SBIOS)
    ("GPU 0: NVIDIA GeForce RTX 3070 Ti\n### Describe the bug\ngpu randomly falls off the bus when playing games on the "
     "nvidia gpu", "gpu.hardware_fault", "reseat the card"),
    # https://github.com/NVIDIA/open-gpu-kernel-modules/issues/387 ("Fixed by reseating GPU")
    ("GPU 0: NVIDIA GeForce RTX 2080 Ti (UUID: GPU-67a571b1)\nSometime when using the GPU, the GPU 1 falls out of the bus, "
     "and the command nvidia-smi outputs the folllowing error: Unable to determine the device handle for GPU "
     "0000:0B:00.0: Unknown Error.", "gpu.hardware_fault", "reseat the card"),
    # the kernel's Xid 79 under a generic CUDA error is the cause, reported first:
    # https://github.com/wilicc/gpu-burn/issues/1 (the Tesla card faulty or overheating)
    ("Failure during compute: Error in \"Read faultyelemdata\": CUDA_ERROR_UNKNOWN\n"
     "[74889.644132] NVRM: GPU Board Serial Number: 0322716036227\n"
     "[74889.644138] NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the bus.", "gpu.hardware_fault", ""),
    # the GSP timeout without its Xid number: https://github.com/NVIDIA/open-gpu-kernel-modules/issues/446
    # (driver 525.105.17 fixed the GSP RPC timeouts)
    ("Timeout waiting for RPC from GSP!\ncat /proc/driver/nvidia/params | grep EnableGpuFirmware\nEnableGpuFirmware: 0",
     "gpu.hardware_fault", "update the driver"),
    # --- the NIC reports its port going down (a flapping link) ----------------------------------------------------
    # https://github.com/NVIDIA/nccl/issues/905 (maintainer: "You seem to have a flapping link"; cables, IB counters)
    ("when I run multi-node training (multiple nodes, multiple GPUs per node, using PyTorch 2.0 and PyTorch lightning), "
     "the training hangs at some point with an error 12 message\nNCCL WARN NET/IB : Got async event : port error",
     "nccl.ib_completion_error", "cable"),
    # --- nouveau (or nova) holds the GPU -------------------------------------------------------------------
    # https://github.com/negativo17/nvidia-driver/issues/73 (nouveau still bound after installing the driver)
    ("01:00.0 VGA compatible controller: NVIDIA Corporation GM204 [GeForce GTX 970] (rev a1) (prog-if 00 [VGA controller])\n"
     "\tKernel driver in use: nouveau\n\tKernel modules: nouveau, nvidia_drm, nvidia", "driver.nouveau_conflict",
     "Blacklist nouveau"),
    # https://github.com/beclab/Olares/pull/3963 (Ubuntu 26.04's nova_core; blacklisting nova fixed it)
    ("ERROR: Unable to load the kernel module 'nvidia.ko'.\n-> Kernel module load error: No such device\n"
     "[  201.910514] NVRM: GPU 0000:01:00.0 is already bound to NovaCore.\n[  201.913648] NVRM: No NVIDIA devices probed.",
     "driver.nouveau_conflict", "nova_core"),
    # https://github.com/mattshma/bigdata/issues/133 (the probe routine, nouveau named by the driver)
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
     "[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).\n"
     "NVRM: nouveau, rivafb, nvidiafb or rivatv \nNVRM: was loaded and obtained ownership of the NVIDIA device(s).",
     "driver.nouveau_conflict", "Blacklist nouveau"),
]


test_first_answer = first_answer_tests(CASES)


# Program bugs of distributed jobs: the verdict (not an environment problem), and nothing environmental.
VERDICT_CASES = [
    # https://github.com/xljh0520/JOTR/issues/4 (a collate_fn dropped samples: 41 vs 40 rows; fresh4 867, burned)
    ("RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running inconsistent collective: "
     "CollectiveFingerPrint(OpType=ALLGATHER, TensorShape\n=[41, 256, 8, 8, 8], TensorDtypes=Float",
     "program.collective_timeout", "same collectives"),
    # https://github.com/speechbrain/speechbrain/issues/2401 (ranks disagree while checkpointing)
    ("RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
     "CollectiveFingerPrint(SequenceNumber=485, OpType=ALLREDUCE, TensorShape=[25], TensorDtypes=Float, ...), but Rank 0 "
     "is running collective: CollectiveFingerPrint(SequenceNumber=485, OpType=BROADCAST, TensorShape=[1]",
     "program.collective_timeout", "same collectives"),
    # https://github.com/aurekaresearch/OpenDDE/issues/23 (per-rank shapes 1435 vs 1436)
    ("RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
     "CollectiveFingerPrint(SequenceNumber=0, OpType=_ALLGATHER_BASE, TensorShape=[359, 1, 1435, 16], "
     "TensorDtypes=BFloat16", "program.collective_timeout", "same collectives"),
    # https://github.com/lightseekorg/TorchSpec/issues/126 (a rank skipped a sample; fresh4 866, burned)
    ("[Rank N] Watchdog caught collective operation timeout:\n  WorkNCCL(SeqNum=…, OpType=_ALLGATHER_BASE, "
     "NumelIn=176556032, NumelOut=706224128,\n           Timeout(ms)=600000) ran for 600000+ ms before timing out.",
     "program.collective_timeout", "TORCH_DISTRIBUTED_DEBUG"),
]


@pytest.mark.parametrize("text,want_id,want_fix", VERDICT_CASES,
                         ids=[c[1] + "-" + str(i) for i, c in enumerate(VERDICT_CASES)])
def test_program_bug_verdicts(text, want_id, want_fix):
    assert_first_answer(text, want_id, want_fix, verdicts=True)


# No environment cause for these: hangs and timeouts with nothing that points at the platform.
NEGATIVES = [
    # a late watchdog timeout with NCCL's P2P transport in the log: still the ranks (pytorch/pytorch#118369 shape)
    "NCCL INFO Channel 00 : 0[1000] -> 1[2000] via P2P/IPC\n[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=96120, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25624887 "
    "milliseconds before timing out.",
    # P2P transport lines and a hang late in the run, at the end of an epoch: the ranks, not the platform
    "NCCL INFO Channel 00 : 0[1000] -> 1[2000] via P2P/IPC\ntraining hangs at the end of the first epoch, only rank 0 "
    "runs the evaluation",
    # P2P off that did NOT help is no evidence for P2P
    "training hangs at the first step; NCCL_P2P_DISABLE=1 doesn't help either",
    # several NCCL ranks on one GPU (NVIDIA/nccl#1241, fresh5 964, burned): invalid usage
    "NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1287, invalid usage, NCCL "
    "version 2.17.1 ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_no_environment_cause_without_platform_evidence(text):
    assert [m.id for m in explain(text) if m.environment] == []


def test_a_verbs_error_of_another_kind_is_not_the_memlock_limit():
    """ibv_create_qp refused with EINVAL is a device or GID setting, not the locked-memory limit."""
    ids = [m.id for m in explain("NCCL WARN Call to ibv_create_qp failed with error Invalid argument")]
    assert "nccl.memlock_limit" not in ids


def test_the_pcie_fatal_error_goes_before_what_it_caused():
    """An uncorrectable AER error under "NVIDIA-SMI has failed" is the root cause reported first."""
    text = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
            "pcieport 0000:00:03.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)")
    ids = [m.id for m in explain(text) if m.environment]
    assert ids[0] == "gpu.pcie_link_failed", ids
    assert "0000:00:03.0" in explain(text)[0].title


def test_an_illegal_address_beside_a_hardware_xid_is_not_a_program_verdict():
    """Xid 79 (the GPU fell off the bus) under "illegal memory access": the hardware, not the program."""
    text = ("RuntimeError: CUDA error: an illegal memory access was encountered\n"
            "[ 123.4] NVRM: Xid (PCI:0000:01:00): 79, pid=99, GPU has fallen off the bus.")
    found = explain(text)
    assert found[0].id == "gpu.hardware_fault" and "program.illegal_address" not in [m.id for m in found]
    # a program's own fault (Xid 31) keeps the verdict
    text31 = ("RuntimeError: CUDA error: an illegal memory access was encountered\n"
              "NVRM: Xid (PCI:0000:01:00): 31, pid=99, name=python, Ch 00000008, intr 10000000. MMU Fault")
    assert [m.id for m in explain(text31) if m.environment] == []
