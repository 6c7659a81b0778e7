"""Round 18 (helper "nccl"): the producers' own wordings of the NCCL, multi-GPU and GPU-hardware causes, read from their
source (tests/data/explain_producers/nccl.yaml holds the messages); here the near misses each widening must keep.

- torch 2.8+'s "which is of compute capability (CC) X.Y" warning is read for a GPU below the build's lowest CC only:
  a Jetson Orin (8.7, whose build runs its sm_80 code) is not claimed, an RTX 50xx keeps the newer-build answer.
- c10d's own TCPStore client failing with "No route to host" is the rendezvous; gloo's "No route to host" stays NCCL's
  network answer (its interface settings).
- An "NCCL INFO" line is a status line: the network plugin NCCL looked for and did without (libnccl-net.so) is no
  missing library, while a real error beside it keeps its answer.
- vLLM's quantization minimum gets another checkpoint, not an attention backend.
- TensorFlow's multiprocessor minimum (a new cause, tf.gpu_below_multiprocessor_minimum): its own setting.
- nvidia-smi -q's memory repair awaiting a reset ("Remapped Rows ... Pending : Yes") is the GPU's memory fault; "No"
  claims nothing.

Excerpts are the producers' messages (sources in the catalogue)."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

_CC = ("The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n")

CASES = [
    # torch 2.8+ (torch/cuda/__init__.py _warn_unsupported_code): a GPU below the build's lowest CC
    ("UserWarning: Found GPU0 Tesla V100-PCIE-32GB which is of compute capability (CC) 7.0.\n" + _CC +
     "- 7.5 which supports hardware CC >=7.5,<8.0\n- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n"
     "Please follow the instructions at https://pytorch.org/get-started/locally/ to install a PyTorch release that "
     "supports one of these CUDA versions: 12.6\n",
     "torch.arch_unsupported", "download.pytorch.org/whl/cu126"),
    # guard: a GPU above the build's list keeps the newer build (the "is not compatible" line that follows)
    ("UserWarning: Found GPU0 NVIDIA GeForce RTX 5090 Laptop GPU which is of compute capability (CC) 12.0.\n" + _CC +
     "- 5.0 which supports hardware CC >=5.0,<6.0 except {5.3}\n- 9.0 which supports hardware CC >=9.0,<10.0\n"
     "Please follow the instructions at https://pytorch.org/get-started/locally/ to install a PyTorch release that "
     "supports one of these CUDA versions: 12.8, 13.0\n"
     "UserWarning:\nNVIDIA GeForce RTX 5090 Laptop GPU with CUDA capability sm_120 is not compatible with the current "
     "PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 "
     "sm_86 sm_90.\n",
     "torch.arch_unsupported", "whl/cu128"),
    # c10d's TCPStore client (torch/csrc/distributed/c10d/socket.cpp) beside NCCL's own socket WARN: the rendezvous first
    ("[W socket.cpp:601] [c10d] The client socket has failed to connect to [node01]:29500 (errno: 113 - No route to "
     "host).\n",
     "dist.rendezvous_unreachable", "--master_port 29500"),
    # guard: gloo's own "No route to host" stays the interface answer
    ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.0.0.2]:45877: No route to host\n",
     "nccl.network", "NCCL_SOCKET_IFNAME"),
    # guard: an NCCL INFO plugin line beside NCCL's real WARN
    ("node1:2817:2817 [0] NCCL INFO NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object "
     "file: No such file or directory.\n"
     "node1:2817:2890 [0] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-7Ni2IA "
     "(size 9637888)\n",
     "nccl.shm_exhausted", "--shm-size"),
    # guard: an NCCL INFO line does not hide another library's failure
    ("node1:2817:2817 [0] NCCL INFO NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object "
     "file: No such file or directory.\n"
     "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n",
     "runtime.cuda_library_not_found", "libcudnn.so.8"),
    # vLLM's quantization minimum (another method's kernels)
    ("ValueError: The quantization method awq_marlin is not supported for the current GPU. Minimum capability: 80. "
     "Current capability: 75.\n",
     "gpu.below_library_minimum", "Load a checkpoint quantized with a method this GPU supports"),
    # TensorFlow's multiprocessor minimum (gpu_device.cc, 2.2+ "core count"; 1.5-2.1 "Cuda multiprocessor count")
    ("2020-05-21 15:44:36.450426: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1688] Ignoring visible gpu device "
     "(device: 1, name: GeForce GT 1030, pci bus id: 0000:04:00.0, compute capability: 6.1) with core count: 3. The "
     "minimum required count is 8. You can adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.\n",
     "tf.gpu_below_multiprocessor_minimum", "TF_MIN_GPU_MULTIPROCESSOR_COUNT=3"),
    ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1469] Ignoring visible gpu device (device: 1, name: Quadro "
     "K4000, pci bus id: 0000:08:00.0, compute capability: 3.0) with Cuda multiprocessor count: 4. The minimum required "
     "count is 8. You can adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.\n",
     "tf.gpu_below_multiprocessor_minimum", "TF_MIN_GPU_MULTIPROCESSOR_COUNT=4"),
    # NCCL 2.27+'s non-fatal async event wording (net_ib/init.cc)
    ("dgx1:5112:5203 [0] transport/net_ib/init.cc:179 NCCL WARN NET/IB : mlx5_3:1 Got non-fatal async event: port "
     "error(10)\n",
     "nccl.ib_completion_error", "ibstat"),
]

test_first_answer = first_answer_tests(CASES)


def test_jetson_orin_cc_warning_is_not_claimed() -> None:
    # torch 2.13 on a Jetson Orin: the build's sm_80 code runs on 8.7 (the warning's "except {8.7}" notwithstanding)
    text = ("UserWarning: Found GPU0 Orin which is of compute capability (CC) 8.7.\n" + _CC +
            "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n- 9.0 which supports hardware CC >=9.0,<10.0\n"
            "No published PyTorch CUDA builds for release 2.13.0+cu130 support this GPU.\n")
    assert [m.id for m in explain(text) if m.environment][:1] != ["torch.arch_unsupported"]


def test_nccl_info_plugin_lines_claim_nothing() -> None:
    for text in (
        "node1:2817:2817 [0] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file "
        "or directory No plugin found (libnccl-net.so), using internal implementation\n",
        "node1:2817:2817 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal net plugin.\n",
    ):
        assert not [m.id for m in explain(text) if m.environment]


_XGB = ("xgboost.core.XGBoostError: [10:21:44] /workspace/src/collective/nccl_stub.cc:79: Failed to load NCCL from path: "
        "`libnccl.so.2`. Error:\n  libnccl.so.2: cannot open shared object file: No such file or directory\n\n"
        "If XGBoost is installed from PyPI with pip, the error can fixed by:\n\n"
        "- Run `pip install nvidia-nccl-cu12` (Or with any CUDA version that's compatible with 12).\n")


def test_a_wheel_named_in_a_programs_advice_is_not_listed_installed() -> None:
    # XGBoost's nccl_stub.cc quotes `pip install nvidia-nccl-cu12` as its advice: not a `pip list` line
    first = [m for m in explain(_XGB) if m.environment][0]
    assert first.id == "runtime.cuda_library_not_found" and "wheel this environment has" not in first.title
    # guard: a pip list that shows the wheel keeps the listed-wheel answer
    listed = [m for m in explain("$ pip list | grep nccl\nnvidia-nccl-cu12          2.18.1\n" + _XGB) if m.environment][0]
    assert "wheel this environment has" in listed.title, listed.title


def test_nvidia_smi_q_without_pending_repair_claims_nothing() -> None:
    # nvidia-smi -q on a healthy GPU prints the same blocks with "Pending : No"
    text = ("    Retired Pages\n        Single Bit ECC                    : 0\n        Double Bit ECC                    : 0\n"
            "        Pending Page Blacklist            : No\n    Remapped Rows\n        Correctable Error                 : 0\n"
            "        Uncorrectable Error               : 0\n        Pending                           : No\n"
            "        Remapping Failure Occurred        : No\n")
    assert not [m.id for m in explain(text) if m.environment]
