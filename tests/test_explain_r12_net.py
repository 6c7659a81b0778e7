"""Round 12, net (layers nccl and loader): the classes of the burned misses of fresh6..fresh12 that were still
answered wrong, each answered from the log's own facts. Multi-node runs whose network path is the cause (containers on
Docker's bridge, an NCCL_SOCKET_IFNAME one host does not have: NCCL's "internal error"), the RoCE GID index a log's own
GID table names, an NCCL build that cannot be captured in a CUDA graph, and NVRTC's builtins not loaded. Excerpts are
verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- multi-node: the interface NCCL_SOCKET_IFNAME names is not on every host ----------------------------------
    # https://github.com/pytorch/pytorch/issues/29482 (NCCL_SOCKET_IFNAME=eth0 in a --network=host container whose
    # host names its interface otherwise)
    ("- NCCL_SOCKET_IFNAME=eth0\n"
     "- MASTER_ADDR is set as host server address\n"
     "gpu617:22841:22841 [0] bootstrap.cc:37 NCCL WARN Bootstrap : no socket interface found\n"
     "gpu617:22841:22841 [0] NCCL INFO init.cc:128 -> 3\n"
     "gpu617:22841:22841 [0] NCCL INFO bootstrap.cc:76 -> 3",
     "nccl.network", "NCCL_SOCKET_IFNAME"),
    # https://github.com/NVIDIA/nccl-tests/issues/219 (the burned fresh12 g36's thread: enp6s0 on one host, enp4s0 on
    # the other; "NCCL_SOCKET_IFNAME=enp6s0,enp4s0" fixed it)
    ("mpirun -np 2 -pernode --allow-run-as-root -hostfile host.txt -mca btl_tcp_if_include 192.168.0.0/24 -x NCCL_SOCKET_IFNAME=enp6s0 ./nccl-tests/build/all_reduce_perf -b 8 -e 128M -f 2 -g 2 -c 0\n"
     "#  Rank  2 Group  0 Pid 3164639 on    fengyun device  0 [0x01] NVIDIA RTX A6000\n"
     "fengyun: Test NCCL failure common.cu:959 'internal error - please report this issue to the NCCL developers / '",
     "nccl.ifname_internal_error", "NCCL_SOCKET_IFNAME=enp6s0,"),
    # https://github.com/codefuse-ai/MFTCoder/issues/31 (internal error with the WARN line: the interface)
    ("torch.distributed.DistBackendError: NCCL error in: /opt/conda/conda-bld/pytorch_1682343995622/work/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1207, internal error, NCCL version 2.14.3\n"
     "ncclInternalError: Internal check failed.\n"
     "Last error:\n"
     "Bootstrap : no socket interface found",
     "nccl.network", "ip -br addr"),
    # https://github.com/NVIDIA/nccl/issues/286 (two computers, eno1 and eth0: "NCCL_SOCKET_IFNAME=eno1,eth0")
    ("I have two computer, when i do ifconfig, then one gives\n"
     "‘eno1\nlo’\n2nd computer gives\n‘eth0\nlo’\n"
     "What do I specify in nccl_socket_ifname on both nodes, do I specify lo on both?\n"
     "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, NCCL version 2.4.8",
     "nccl.system_error", "eno1,eth0"),
    # -- multi-node: containers on Docker's bridge network ---------------------------------------------------------
    # https://github.com/pytorch/pytorch/issues/23363 (two docker containers on two nodes; maintainer: `--network=host`)
    ("fail to new train...e= NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:272, unhanled system error\n"
     "I run in two docker container, the program report error.\n"
     "# node 0: 10.30.112.212\n"
     "init_method=\"tcp://10.30.112.212:10087\"\n"
     "# node 1: 10.30.112.224",
     "nccl.system_error", "--network host"),
    # https://github.com/HRNet/DEKR/issues/18 (one machine in docker: `--ipc=host` solved it; the generic answer's first
    # situation)
    ("> RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8\n"
     "ncclSystemError: System call (socket, malloc, munmap, etc) failed.",
     "nccl.system_error", "--ipc=host"),
    # -- RoCE: the GID index the log's own table names ----------------------------------------------------------
    # https://github.com/NVIDIA/nccl/issues/426 (status 12 on RoCE; `-x NCCL_IB_GID_INDEX=3` solved it; show_gids)
    ("-worker-1:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129\n"
     "`show_gids` information:\n"
     "DEV     PORT    INDEX   GID                                     IPv4            VER     DEV",
     "nccl.ib_completion_error", "NCCL_IB_GID_INDEX=3"),
    # https://github.com/NVIDIA/nccl-tests/issues/185 (RoCE on DGX H100, modify_qp "Network is unreachable")
    ("dgxh100-3:225140:225355 [0] misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed with error Network is unreachable\n"
     "dgxh100-3:225140:225355 [0] NCCL INFO transport/net_ib.cc:579 -> 2",
     "nccl.ib_qp_connect", "NCCL_IB_GID_INDEX"),
    # https://github.com/NVIDIA/nccl/issues/2013 (InfiniBand, 2.2x's message with its GID index: NCCL_CROSS_NIC=0 fixed
    # it; the RoCE GID answers must not take this one)
    ("ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_1:1, curr state INIT, next state RTR, local GID index 3",
     "nccl.ib_qp_connect", "NCCL_CROSS_NIC=0"),
    # -- an NCCL build that cannot be captured in a CUDA graph ------------------------------------------------------
    # https://github.com/InternLM/lmdeploy/pull/2433 (nvidia-nccl-cu11 is built on CUDA 11.0: an NCCL for 11.8)
    ('  File "/opt/py3/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2219, in all_reduce\n'
     "    work = group.allreduce([tensor], opts)\n"
     "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2395, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\n"
     "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
     "Last error:\n"
     "NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.",
     "nccl.graph_capture_unsupported", "NCCL_DEBUG=INFO"),
    # https://github.com/vllm-project/vllm/issues/6201 (vLLM 0.5.1, tensor parallel 2, the WARN during graph capture)
    ("hostname:116024:116024 [0] misc/strongstream.cc:53 NCCL WARN NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.\n"
     "hostname:116024:116024 [0] NCCL INFO enqueue.cc:1935 -> 5\n"
     "(VllmWorkerProcess pid=116058) ERROR 07-08 13:05:36 multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while processing method initialize_cache: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details), Traceback (most recent call last):",
     "nccl.graph_capture_unsupported", "nvidia-nccl-cu12"),
    # https://github.com/vllm-project/vllm/issues/3069 (the build printed: 2.19.3+cuda11.0, replaced by 2.18.6+cuda11.8)
    ("NCCL：NCCL version 2.19.3+cuda11.0\n"
     "CUDA：11.6\n"
     "NCCL WARN NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.",
     "nccl.graph_capture_unsupported", "2.19.3+cuda11.0"),
    # -- torch's own library not found by an extension -------------------------------------------------------------
    # https://github.com/MVIG-SJTU/AlphaPose/issues/832 (its own nms extension: "rm -r build; python setup.py develop")
    ('  File "/home/duyaoo/xp/AlphaPose/detector/nms/__init__.py", line 1, in <module>\n'
     "    from .nms_wrapper import nms, soft_nms\n"
     '  File "/home/duyaoo/xp/AlphaPose/detector/nms/nms_wrapper.py", line 4, in <module>\n'
     "    from . import nms_cpu, nms_cuda\n"
     "ImportError: libtorch.so: cannot open shared object file: No such file or directory",
     "loader.torch_lib_not_loaded", "rm -rf build/"),
    # https://github.com/pytorch/extension-cpp/pull/127 (a package's _C imported before torch: `import torch` first)
    ("However, an **ImportError: libtorch_cuda.so: cannot open shared object file: No such file or directory** would occur at runtime.",
     "loader.torch_lib_not_loaded", "Import torch before"),
    # -- NVRTC's builtins not loaded ---------------------------------------------------------------------------------
    # https://github.com/Theano/Theano/issues/6010 (LD_LIBRARY_PATH=/usr/local/cuda/lib:/usr/local/cuda/lib64 fixed it)
    ("NVRTC compile log::\n"
     "nvrtc: error: failed to load builtins",
     "loader.nvrtc_builtins_not_loaded", "LD_LIBRARY_PATH"),
    # https://github.com/aim-uofa/AdelaiDet/issues/345 (torch's JIT fuser)
    ("`RuntimeError: nvrtc: error: failed to load builtins for compute_75.\n"
     "nvrtc compilation failed:",
     "loader.nvrtc_builtins_not_loaded", "cudaenv use"),
    # https://github.com/Bigwode/rebar-detection-competition/issues/5 (cupy-cuda100 with CUDA 10, in anaconda)
    ('  File "/home/baiyang/anaconda3/lib/python3.5/site-packages/cupy/cuda/compiler.py", line 241, in compile\n'
     "    nvrtc.compileProgram(self.ptr, options)\n"
     "cupy.cuda.nvrtc.NVRTCError: NVRTC_ERROR unknown (7)\n"
     "cupy.cuda.compiler.CompileException: nvrtc: error: failed to load builtins for compute_70",
     "loader.nvrtc_builtins_not_loaded", "LD_LIBRARY_PATH"),
    # https://github.com/dmlc/nnvm/issues/408 (TVM on a Jetson TX1)
    ('TVMError: [12:49:51] src/codegen/build_cuda.cc:38: Check failed: compile_res == NVRTC_SUCCESS (7 vs. 0) nvrtc: error: failed to load builtins',
     "loader.nvrtc_builtins_not_loaded", "LD_LIBRARY_PATH"),
    # https://github.com/mivertowski/DotCompute/issues/182 (Windows, CUDA 12.2 installed: the builtins DLL)
    ("---> DotCompute.Backends.CUDA.Types.KernelCompilationException: NVRTC CUBIN compilation failed for kernel 'Kernels.TransposeNaive': NVRTC_ERROR_BUILTIN_OPERATION_FAILURE\n"
     "Compilation Log:\n"
     "nvrtc: error: failed to open nvrtc-builtins64_122.dll.\n"
     "  Make sure that nvrtc-builtins64_122.dll is installed correctly.",
     "loader.nvrtc_builtins_not_loaded", "PATH"),
]

test_first_answer = first_answer_tests(CASES)

# https://github.com/NVIDIA/nccl/issues/1538 (show_gids; "NCCL_IB_GID_INDEX=7 could work well": its v2 IPv4 row)
SHOW_GIDS_1538 = (
    "mlx5_0\t1\t4\tfe80:0000:0000:0000:c025:a1ff:fe31:2e81\t\t\tv1\tnet1\n"
    "mlx5_0\t1\t5\tfe80:0000:0000:0000:c025:a1ff:fe31:2e81\t\t\tv2\tnet1\n"
    "mlx5_0\t1\t6\t0000:0000:0000:0000:0000:ffff:0a9c:8184\t10.156.129.132  \tv1\tnet1\n"
    "mlx5_0\t1\t7\t0000:0000:0000:0000:0000:ffff:0a9c:8184\t10.156.129.132  \tv2\tnet1\n")


def test_roce_gid_table_names_the_routed_v2_entry() -> None:
    """The RoCE v2 entry with an IPv4 address of the GID table a log shows is the index an answer names, in
    show_gids' and ibv_devinfo's forms; a link-local index the log used is said as such."""
    from cudaenv.knowledge.explain.derive import DERIVE
    from cudaenv.knowledge.explain.text import LogText

    got = DERIVE["roce_gid"]({}, LogText(SHOW_GIDS_1538 + "NCCL_IB_GID_INDEX=5"), None)
    assert got["gid_v2"] == "7" and "link-local" in got["gid_used_part"], got
    assert DERIVE["roce_gid"]({}, LogText("NCCL WARN Call to ibv_modify_qp failed"), None)["gid_v2"] == ""
    # ibv_devinfo -v's form, as NVIDIA/nccl#769 (the burned fresh12 g43's thread) prints it
    devinfo = ("\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:0ac0:ebff:feda:1cfb, RoCE v1\n"
               "\t\t\tGID[  3]:\t\t::ffff:200.0.209.6, RoCE v2\n")
    assert DERIVE["roce_gid"]({}, LogText(devinfo), None)["gid_v2"] == "3"

