"""Issue 18, round 8, helper "multi": NCCL, multi-GPU / multi-node, and program bugs that look like them.

Families (each from several threads; the first fix follows what the log shows):

* NVLink SHARP (NVLS) set-up failing on NVSwitch systems ("transport/nvls.cc ... Cuda failure"): the fabric
  manager restarted without a GPU reset -> reset/reboot first, `NCCL_NVLS_ENABLE=0` meanwhile.
* "unhandled cuda error" with NCCL 1.x in the log -> NCCL 2 (not a 1.x build for the CUDA in use); NCCL's own
  "named symbol not found" WARN -> the libnccl holds no kernels for this GPU (rebuild with its arch).
* "unhandled system error": the platform decides -> containers on several nodes: `--network host`; a
  container: `--ipc=host`; several nodes: NCCL_SOCKET_IFNAME; nothing shown: the container fix as a condition.
* Gloo's connectFullMesh failing between nodes -> GLOO_SOCKET_IFNAME.
* Program bugs near NCCL: DDP's unused parameters / "ready only once", a CPU tensor handed to an NCCL
  collective, a device-side assert reported by the NCCL watchdog: the program verdict, never an environment.

Excerpts are quoted (trimmed) from the thread above each.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # --- NVLS multicast on NVSwitch systems: the fabric manager's state ------------------------------------
    # https://github.com/NVIDIA/nccl/issues/1488 (fresh7 b63; "reset the GPU in-between if the FM is stopped and restarted")
    ("node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'\n"
     "node23:12098:12141 [2] NCCL INFO transport/nvls.cc:394 -> 1\nnode23:12098:12141 [2] NCCL INFO init.cc:1196 -> 1\n"
     "node23:12098:12141 [2] NCCL INFO group.cc:75 -> 1 [Async thread]",
     "nccl.nvls_multicast_failed", "Reset the GPUs together with the fabric manager"),
    # https://github.com/NVIDIA/nccl/issues/976 (sjeaugey: "nv-fabricmanager having been manually restarted ...
    # Rebooting the node is usually the easiest solution"; the old wording without the code)
    ("NCCL version 2.18.5+cuda12.2\n...\ntransport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'\n"
     "NCCL INFO transport/nvls.cc:324 -> 1\nNCCL INFO init.cc:1093 -> 1\nNCCL INFO init.cc:1358 -> 1",
     "nccl.nvls_multicast_failed", "reboot"),
    # https://github.com/NVIDIA/nccl-tests/issues/276 (H200; "We finally got around to reset GM/GPU")
    ("gpu47:4962:5097 [1] transport/nvls.cc:223 NCCL WARN Cuda failure 999 'unknown error",
     "nccl.nvls_multicast_failed", "fabric manager"),
    # https://github.com/NVIDIA/nccl/issues/1338 (H800, nccl-tests on one machine; maintainer: the fabric manager
    # not restarted correctly)
    ("NCCL_DEBUG=INFO ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 8\n"
     "node2:242431:242479 [5] transport/nvls.cc:158 NCCL WARN Cuda failure 1 'invalid argument'\n"
     "node2:242431:242475 [1] NCCL INFO transport/nvls.cc:330 -> 1\nnode2:242431:242475 [1] NCCL INFO init.cc:1277 -> 1",
     "nccl.nvls_multicast_failed", "nvidia-fabricmanager"),
    # https://github.com/NVIDIA/nccl/issues/1788 (8x H100 under vLLM; NCCL_NVLS_ENABLE=0 ran)
    ("[2025-07-21 19:05:29] node004:27907:27907 [1] transport/nvls.cc:254 NCCL WARN Cuda failure 401 'the operation "
     "cannot be performed in the present state'\nnode004:27907:27907 [1] NCCL INFO transport/nvls.cc:409 -> 1",
     "nccl.nvls_multicast_failed", "Reset the GPUs"),

    # https://github.com/pytorch/pytorch/issues/150852 (NCCL 2.26.2 on the 12.2-driver nodes only; "fixed now with the
    # latest nightlies with NCCL 2.26.5")
    ("[2025-04-08 08:39:46] devgpu263:589012:591652 [0] transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'\n"
     "devgpu263:589012:591652 [0] NCCL INFO transport/nvls.cc:409 -> 1\n[rank0]: Traceback (most recent call last):\n"
     "[rank0]:   File \"/home/kw2501/local/driver_12.2/repro.py\", line 12, in <module>\n[rank0]:     dist.all_reduce(x)\n"
     "[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, "
     "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2",
     "nccl.nvls_multicast_failed", "nvidia-nccl-cu12>=2.26.5"),

    # --- "unhandled cuda error": NCCL 1.x is too old; a libnccl without this GPU's kernels -------------------
    # https://github.com/NVIDIA/nccl-tests/issues/5 (fresh7 b62; "The issue is settled by updating nccl1.0 to nccl")
    ("OS Platform: ubuntu 16.04\nCuda: 8.0\nNCCL: 1.0\nDriver Version: 384.66\n"
     "root@node03:~/nvidia/nccl/nccl-tests/src# make CUDA_HOME=/usr/local/cuda-8.0 NCCL_HOME=/root/nvidia/nccl/nccl-1.3.4-1/build\n"
     "root@node03:~/nvidia/nccl/nccl-tests# ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 8\n"
     "# NCCL Tests compiled with NCCL 1.0\n#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB\n"
     "NCCL failure all_reduce.cu:95 'unhandled cuda error'",
     "nccl.unhandled_cuda_error", "Install NCCL 2 built for CUDA 8.0"),
    # https://github.com/NVIDIA/nccl-tests/issues/13 (NCCL 1.3 shipped under cuda-9.2/3rdparty/nccl1)
    ("I use nccl 1.3 and cuda 9.2\n$ make MPI=1 MPI_HOME=/usr/local/mvapich2     CUDA_HOME=/usr/local/cuda     "
     "NCCL_HOME=/usr/local/cuda/3rdparty/nccl1 -j64\n"
     "$ export LD_LIBRARY_PATH=/usr/local/mvapich2/lib:/usr/local/cuda-9.2/lib64:/usr/local/cuda-9.2/3rdparty/nccl1/lib\n"
     "$ NCCL_DEBUG=WARN ./build/all_reduce_perf -b 8 -e 128M -f2 -g4\nNCCL failure all_reduce.cu:95 'unhandled cuda error'",
     "nccl.unhandled_cuda_error", "Install NCCL 2 built for CUDA 9.2"),
    # https://github.com/NVIDIA/nccl/issues/1372 (NCCL built with NVCC_GENCODE sm_80 only, run on H100; rebuilt with sm_90)
    ("gcn75:2336636:2336906 [0] enqueue.cc:58 NCCL WARN Cuda failure 'named symbol not found'\n"
     "gcn75:2336636:2336906 [0] enqueue.cc:47 NCCL WARN Cuda failure 'named symbol not found'",
     "nccl.unhandled_cuda_error", "Rebuild NCCL with this GPU's architecture in NVCC_GENCODE"),

    # --- NCCL older than a Blackwell RTX 50xx / RTX PRO 6000 needs -------------------------------------------
    # https://github.com/NVIDIA/nccl/issues/1637 (two RTX 5090, NCCL 2.25.1; kiskra-nvidia: "Without it, there's no chance
    # to get things to work with 2.25.1 ... NCCL 2.26 will be released today"; NVIDIA/nccl-tests#291: 2.26.2 "work fine now")
    ("NCCL P2P issue using two RTX 5090\nNCCL version 2.25.1+cuda12.8\n"
     "node:12225:12255 [0] enqueue.cc:146 NCCL WARN ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856",
     "nccl.too_old_for_gpu", "libnccl2"),
    # https://github.com/Lightning-AI/pytorch-lightning/issues/20757 (two 5090s, NCCL 2.26.2; the same enqueue.cc:1556 fault
    # was "solve[d] by python -m pip install -U nvidia-nccl-cu12" in vllm-project/vllm#19890, and NVIDIA/nccl#2418 found
    # 2.26.2 faulting on RTX PRO 6000s where 2.31.2 does not)
    ("When I use DDP to train the model on two 5090 GPUS, this error will occur.\n\n"
     "enqueue.cc:1556 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n\n"
     "user-MH53-G40-001:10225:10225 [0] NCCL INFO cudaDriverVersion 12080\n"
     "user-MH53-G40-001:10225:10225 [0] NCCL INFO NCCL version 2.26.2+cuda12.2",
     "nccl.too_old_for_gpu", "pip install -U nvidia-nccl-cu12"),

    # --- "unhandled system error": the platform decides the first fix ----------------------------------------
    # https://github.com/pytorch/pytorch/issues/23363 (two docker containers on two nodes; maintainer: `--network=host`)
    ("fail to new train...e= NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:272, unhanled system error\n\n"
     "I run in two docker container, the program report error.\n# node 0: 10.30.112.212\n"
     "init_method=\"tcp://10.30.112.212:10087\"\nrank=0\nworld_size=2\nbackend=\"nccl\"\n# node 1: 10.30.112.224\n"
     "init_method=\"tcp://10.30.112.212:10087\"\nrank=1",
     "nccl.system_error", "docker run --network host"),
    # https://github.com/HRNet/DEKR/issues/18 ("I solved the ncclSystemError issue by adding `--ipc=host` flag in the
    # docker command"; the log itself shows no container: the container fix as a condition)
    ("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL "
     "version 2.7.8\n\nncclSystemError: System call (socket, malloc, munmap, etc) failed.",
     "nccl.system_error", "If it runs in a container on one machine (Docker, Kubernetes), start the container with `--ipc=host`"),

    # --- Gloo's full mesh between nodes ---------------------------------------------------------------------
    # https://github.com/sgl-project/sglang/issues/3226 ("Set Env GLOO_SOCKET_IFNAME works for me", IB nodes)
    ("RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
     "dist.gloo_connect_failed", "GLOO_SOCKET_IFNAME"),
    # https://github.com/aws-samples/aws-do-eks/pull/69 (every rank advertising loopback: the loopback entry, not this one)
    ("RuntimeError: Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:152]\n"
     "  timed out connecting: SO_ERROR: Connection refused, remote=[127.0.0.1]:14215\n  (rank=8, size=16, local=[127.0.0.1])",
     "dist.gloo_loopback", "GLOO_SOCKET_IFNAME"),
]

# Program bugs near NCCL and torch.distributed: the verdict first, and no environment cause beside it.
PROGRAM = [
    # https://github.com/microsoft/Cream/issues/4 ("passing the keyword argument `find_unused_parameters=True` ... soved this problem")
    ("RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error "
     "indicates that your module has parameters that were not used in producing loss. You can enable unused parameter "
     "detection by (1) passing the keyword argument `find_unused_parameters=True` to "
     "`torch.nn.parallel.DistributedDataParallel`;",
     "program.ddp_unused_parameters", "find_unused_parameters=True"),
    # https://github.com/pytorch/pytorch/issues/43259 (after find_unused_parameters=True / a dummy loss)
    ("[rank5]: **RuntimeError: Expected to mark a variable ready only once**. This error is caused by one of the "
     "following reasons: 1) Use of a module parameter outside the `forward` function.",
     "program.ddp_unused_parameters", "use_reentrant=False"),
    # https://github.com/huggingface/trl/issues/949 (PPO stats all-reduced from the CPU under accelerate)
    ("    dist.all_reduce(v, dist.ReduceOp.SUM)\n  File \"/home/hxxzhang/miniconda3/lib/python3.11/site-packages/torch/"
     "distributed/distributed_c10d.py\", line 1451, in wrapper\nRuntimeError: Tensors must be CUDA and dense",
     "program.collective_cpu_tensor", "Move the tensor to this rank's GPU"),
    # https://github.com/modelscope/ms-swift/issues/6211 (an index out of range in a GRPO run, reported by NCCL's watchdog)
    ("block: [70,0,0], thread: [30,0,0] Assertion `index out of bounds: 0 <= tmp16 < 32768` failed.\n"
     "Exception raised from c10_cuda_check_implementation at /pytorch/c10/cuda/CUDAException.cpp:43 (most recent call first):\n"
     "frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56 (0x7fca9d5bb4c6 in "
     "/usr/local/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)\nframe #5: c10d::ProcessGroupNCCL::watchdogHandler() "
     "+ 0x782 (0x7fca9d5cd2f2 in /usr/local/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)",
     "program.device_assert", "CUDA_LAUNCH_BLOCKING=1"),
    # https://github.com/vllm-project/vllm/issues/21731
    ("[Bug]: Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.\n"
     "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
     "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
     "frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56 (0x7f05d988b456 in "
     "/usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so)",
     "program.device_assert", "CUDA_LAUNCH_BLOCKING=1"),
    # ncclInvalidUsage without NCCL_DEBUG: several ranks on one GPU (a launch/program error; fresh5 964 is NVIDIA/nccl#1241) -----------------------------------------
    # https://github.com/pytorch/pytorch/issues/64800 (the rank function never calls torch.cuda.set_device; see
    # pytorch/pytorch#47885: "different processes being assigned to the same GPU")
    ("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, invalid usage, NCCL version 2.7.8\n"
     "ncclInvalidUsage: This usually reflects invalid usage of NCCL library (such as too many async ops, too many "
     "collectives at once, mixing streams in a group, etc).",
     "program.nccl_invalid_usage", "Give each rank its own GPU"),
    # https://github.com/espnet/espnet/issues/4726 ("You are right. I didn't set CUDA_VISIBLE_DEVICES correctly.")
    ("RuntimeError: NCCL error, invalid usage, NCCL version 2.7.8 when Multi-processing with 2-HOST jobs with 1-GPU for each host\n"
     "  File \"/home/yfy62/espnet/tools/anaconda/envs/espnet/lib/python3.8/site-packages/torch/nn/parallel/distributed.py\", "
     "line 446, in __init__\n    self._sync_params_and_buffers(authoritative_rank=0)\n"
     "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, invalid usage, NCCL version 2.7.8",
     "program.nccl_invalid_usage", "CUDA_VISIBLE_DEVICES"),
]


test_nccl_threads_are_answered_by_cause = first_answer_tests(CASES)


test_program_bugs_near_nccl_get_the_verdict = first_answer_tests(PROGRAM, verdicts=True)


def test_nvls_initialization_error_is_not_the_fabric_manager():
    # vllm-project/vllm#9369: 'initialization error' in nvls.cc is CUDA's own state, not the fabric's
    from cudaenv.knowledge.explain import explain
    text = "kmaker-54:44712:44746 [2] transport/nvls.cc:246 NCCL WARN Cuda failure 3 'initialization error'"
    assert "nccl.nvls_multicast_failed" not in [m.id for m in explain(text)]


def test_a_version_2_nccl_is_not_called_1x():
    from cudaenv.knowledge.explain import explain
    text = ("NCCL version 2.18.3+cuda12.2\nnvidia-nccl-cu12==2.18.1\n"
            "Test NCCL failure common.cu:954 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'")
    m = next(m for m in explain(text) if m.environment)
    assert m.id == "nccl.unhandled_cuda_error" and "1.x" not in m.title


def test_an_illegal_address_without_an_old_nccl_on_blackwell_stays_a_program_verdict():
    from cudaenv.knowledge.explain import explain
    text = ("NVIDIA GeForce RTX 5090\nNCCL version 2.27.3+cuda12.9\n[rank0]:[E ProcessGroupNCCL.cpp:1414] Process group "
            "watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered")
    found = explain(text)
    assert found and found[0].id == "program.illegal_address"
    assert not [m.id for m in found if m.environment]
