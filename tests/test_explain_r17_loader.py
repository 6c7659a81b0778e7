"""Round 17, helper "loader" (layers loader and nccl): the burned misses that recur as families or whose log holds the
fact that orders the fixes (census: bench/census/round17-burned.tsv).

* ``nvrtc.unsupported_arch``: the option named before NVRTC_ERROR_INVALID_OPTION (an issue title, jitify's "Compiler
  options" line), and the GPU the log names decides the direction: a GPU newer than the NVRTC loaded needs the NVRTC of
  the first CUDA that knows it (the program loading an older libnvrtc beside a newer toolkit), a GPU no current CUDA
  compiles for the last CUDA that did.
* ``mpi.gpu_init_without_gpu`` (new): a CUDA-enabled MPICH initialises CUDA in MPI_Init on a node without a GPU:
  MPIR_CVAR_ENABLE_GPU=0 first.
* ``rdma.gdr_local_protection`` (new): UCX's and perftest's "local protection error" on GPU memory: PCIe ACS (or the
  IOMMU) first, as NCCL's "error 4" already was.
* ``runtime.cuda_library_not_found`` / ``runtime.libcudart_not_found``: a native program on onnxruntime's C/C++ API
  (no wheel to swap) gets CUDA 11's libraries first; the loader's message cut after the library's name is recognised;
  a log that says the directory was already added to LD_LIBRARY_PATH gets "the setting does not reach the program"
  (IDE run configuration, sudo, a new shell) before "put it on LD_LIBRARY_PATH" again.
* ``nccl.ib_qp_connect``: an Intel irdma NIC with no GID index set: NCCL_IB_DISABLE=1 and the NIC's RoCE setup first.

Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss wordings on their answers.
"""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

NVRTC = "nvrtc.unsupported_arch"
MPI = "mpi.gpu_init_without_gpu"
GDR = "rdma.gdr_local_protection"
LIB = "runtime.cuda_library_not_found"
QP = "nccl.ib_qp_connect"

CASES = [
    # https://github.com/eyalroz/cuda-api-wrappers/issues/509 (the burned fresh16 p36: NVRTC 11.2 loaded on an L40)
    ("kernel compilation option --gpu-architecture can cause NVRTC_ERROR_INVALID_OPTION\n\n"
     "on NVIDIA L40 GPUs, when adding the following option:\n"
     "`m_compOpts.add_target(m_device.compute_capability());`\n\n"
     "it results with:\n`--gpu-architecture=sm_89`\n"
     "and causes `NVRTC_ERROR_INVALID_OPTION` kernel compilation error.\n\n"
     "Seen on:\n` NVIDIA-SMI 525.85.05    Driver Version: 525.85.05    CUDA Version: 12.0`\n",
     NVRTC, "Make the program load the NVRTC of CUDA 11.8 or newer"),
    # https://github.com/xmrig/xmrig-nvidia/issues/341 (a miner built with CUDA 10.0 on an RTX 3060)
    (" * LIBS         libuv/1.31.0 CUDA/10.0 OpenSSL/1.1.1c microhttpd/0.9.63\n"
     " * GPU #0       PCI:0000:01:00 NVIDIA GeForce RTX 3060 @ 1777/7501 MHz 64x84 6x25 arch:86 SMX:28 MEM:11275/12287 MiB\n"
     "[2022-05-02 10:35:14] nvrtcCompileProgram failed: NVRTC_ERROR_INVALID_OPTION\n"
     "[2022-05-02 10:35:14] Program compile log: nvrtc: error: invalid value for --gpu-architecture (-arch)\n",
     NVRTC, "NVRTC of CUDA 11.1 or newer"),
    # https://github.com/NVIDIA/jitify/issues/75 (compute_30 under CUDA 11.0, which dropped it)
    ("Compiler options: -std=c++14 -arch=compute_30\n"
     "due to unexpected exception with message:\n"
     "  NVRTC error: NVRTC_ERROR_INVALID_OPTION\n",
     NVRTC, "Use a CUDA whose NVRTC knows this GPU"),
    # https://github.com/pmodels/mpich/issues/6686 (the burned fresh15 n36: "That fixed that error")
    ("I am getting this error when I try to run on the CPU only nodes on perlmutter (the error occurs when calling "
     "mpi_init):\n\nCUDA Error (yaksuri_cuda_init_hook:src/backend/cuda/hooks/yaksuri_cuda_init_hooks.c,173): no "
     "CUDA-capable device is detected\n",
     MPI, "MPIR_CVAR_ENABLE_GPU=0"),
    # https://github.com/pmodels/mpich/issues/5423 (MPICH 3.4.2 on non-GPU nodes)
    ("then it fails to initialize with the following message on non-GPU nodes:\n```\n"
     "CUDA Error (yaksuri_cuda_init_hook:../../../modules/yaksa/src/backend/cuda/hooks/yaksuri_cuda_init_hooks.c,114): "
     "no CUDA-capable device is detected\n```\n",
     MPI, "MPIR_CVAR_ENABLE_GPU=0"),
    # https://github.com/pmodels/mpich/issues/6749 (PETSc's tests with CUDA_VISIBLE_DEVICES= empty)
    ("#       YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)\n"
     "#       CUDA Error (yaksuri_cuda_init_hook:src/backend/cuda/hooks/yaksuri_cuda_init_hooks.c,173): no CUDA-capable "
     "device is detected\n",
     MPI, "MPIR_CVAR_ENABLE_GPU=0"),
    # https://github.com/openucx/ucx/issues/3564 (the burned fresh16 p40: ACS enabled in the BIOS)
    ("$ mpirun -mca pml ucx -x CUDA_VISIBLE_DEVICES=0 -x CUDA_DEVICE_ORDER=PCI_BUS_ID -x UCX_NET_DEVICES=mlx5_0:1  -n 2 "
     "./osu_bw D D\n[...]\n# OSU MPI-CUDA Bandwidth Test v5.6.1\n"
     "mlx5:  got completion with error:\n00000000 00000000 00000000 00000000\n"
     "rc_verbs_iface.c:67   send completion with error: local protection error\n",
     GDR, "Disable PCIe ACS"),
    # https://github.com/linux-rdma/perftest/issues/289 (perftest's wording on GPU memory)
    ("./ib_write_bw -d mlx5_0 --use_cuda=0 -a 10.10.10.10\n Completion with error at client\n"
     " Failed status 4: wr_id 0 syndrom 0x51\nscnt=128, ccnt=0\n",
     GDR, "Disable PCIe ACS"),
    # https://github.com/microsoft/onnxruntime/issues/13932 (the burned fresh14 m65: ffmpeg on the C API, 1.13.1)
    ("[dnn_onnxruntime @ 0x3f7ccc0] SessionOptionsAppendExecutionProvider_CUDA(): /onnxruntime_src/onnxruntime/core/"
     "session/provider_bridge_ort.cc:1069 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : "
     "1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open "
     "shared object file: No such file or directory\n\n### ONNX Runtime Installation\n\nReleased Package\n\n"
     "### ONNX Runtime Version or Commit ID\n\n1.13.1\n\n### ONNX Runtime API\n\nC\n",
     LIB, "Give it CUDA 11's libraries"),
    # https://github.com/FloopCZ/tensorflow_cc/issues/119 (the burned fresh14 m72: run from Qt Creator)
    ("error while loading shared libraries: libcusolver.so.9.2\n\nHi,\n\nI get the error mentioned in the title when I "
     "try to run my C++ code. I have CUDA 9.2 and cuDNN 7.1 on Ubuntu 18.04 and the path /usr/local/cuda/lib64/ (which "
     "contains the required library libcusolver.so.9.2) has been added to LD_LIBRARY_PATH.\n",
     LIB, "run configuration's environment"),
    # https://github.com/jax-ml/jax/issues/22740 (the burned fresh13 h42: works with NCCL_IB_DISABLE=1)
    ("Failure in ` jax.distributed.initialize` call\n\n"
     "misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument errno 22\n"
     "host1:20632:21039 [3] NCCL INFO NET/IB : Using [0]irdma0:1/RoCE [RO]; \n",
     QP, "NCCL_IB_DISABLE=1"),
    # -- guards: near-miss wordings keep their answers ----------------------------------------------------------------
    # https://github.com/microsoft/onnxruntime/issues/20944 (Python's onnxruntime-gpu: the wheel for CUDA 12 stays first)
    ("2024-06-06 00:43:08.912631565 [E:onnxruntime:Default, provider_bridge_ort.cc:1744 TryGetProviderInfo_CUDA] "
     "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1426 onnxruntime::Provider& "
     "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
     "libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or "
     "directory\n\n2024-06-06 00:43:08.912662588 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:870 "
     "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider.\n",
     LIB, 'pip install -U "onnxruntime-gpu[cuda,cudnn]"'),
    # a modify_qp failure on a Mellanox NIC keeps the GID index first
    ("misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument\n", QP, "GID index"),
]

test_first_answer = first_answer_tests(CASES)


def test_local_protection_on_host_memory_stays_unclaimed():
    """A local protection error with no GPU memory in the log is a program's memory registration, not ACS."""
    # https://github.com/openucx/ucx/issues/7863 (ucx_perftest on host memory)
    text = ("[node2:42970:0:42970] ib_mlx5_log.c:168  Local protection on mlx5_1:1/IB (synd 0x4 vend 0x51 hw_synd 0/2)\n"
            "[node2:42970:0:42970] ib_mlx5_log.c:168  RC QP 0x351 wqe[0]: SEND s-- [inl len 26] [va 0x7f8db3a00000 "
            "len 8230 lkey 0x42332]\n")
    assert GDR not in [m.id for m in explain(text)]


def test_truncated_loader_line_without_prose_keeps_the_path_fix():
    """Without the "already added" prose the cut loader line gets the entry's own first line."""
    m = [a for a in explain("error while loading shared libraries: libcusolver.so.9.2\n") if a.environment][0]
    assert m.id == LIB and "not reach" not in m.title


def test_program_bug_stays_unclaimed():
    text = ("RuntimeError: CUDA error: device-side assert triggered\n"
            "CUDA kernel errors might be asynchronously reported at some other API call\n")
    assert not [m.id for m in explain(text) if m.environment]
