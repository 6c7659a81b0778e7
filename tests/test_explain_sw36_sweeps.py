"""Round 34's second sweeps, made while fresh36 was collected (Python GPU packages at install and import time; HPC
clusters), widened into families:

- pip's nearest release never a development placeholder when a real one is listed (nvidia-cudnn-cu12's 0.0.1.dev5);
- a +cuXXX torch asked of PyPI, retyped in lower case without pip's list;
- macOS's dyld without the CUDA library a Mac build of a package was linked against;
- spconv/cumm: pybind11's words for two builds in one environment;
- clusters: sbatch's GRES refusal without its prefix, MVAPICH2 and LAMMPS-Kokkos on an MPI that is not CUDA-aware, the
  MPI's GPU transport refusing a pool buffer (UCX's GDRCopy, UCC; Open MPI's smcuda block of text left
  unanswered: a practice negative printed it too), enroot's NVIDIA hook and the daemons' sockets.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
from explain_answers import first_answer_tests

SW36_CASES = [
    # JHLew/MoMo#4
    (("pip install nvidia-cudnn-cu12==8.9.2.26\n"
      "ERROR: Could not find a version that satisfies the requirement nvidia-cudnn-cu12==8.9.2.26 (from versions: "
      "0.0.1.dev5, 8.9.4.25, 8.9.5.29, 8.9.6.50, 8.9.7.29, 9.0.0.312, 9.1.0.70, 9.1.1.17)\n"
      "ERROR: No matching distribution found for nvidia-cudnn-cu12==8.9.2.26\n"),
     "python.package_wheel_not_found", "8.9.4.25 is the nearest listed to 8.9.2.26"),
    # modernmt/modernmt#601
    (("could not find a version that satisfies the requirement torch==1.7.1+cu110\n"),
     "python.torch_wheel_not_found", "Install it from the PyTorch index of that CUDA"),
    # tensorflow/tensorflow#6370
    (("ImportError: dlopen(/Library/Frameworks/Python.framework/Versions/3.5/lib/python3.5/site-packages/tensorflow/"
      "python/_pywrap_tensorflow.so, 10): Library not loaded: @rpath/libcudart.8.0.dylib\n"
      "  Referenced from: /Library/Frameworks/Python.framework/Versions/3.5/lib/python3.5/site-packages/tensorflow/"
      "python/_pywrap_tensorflow.so\n  Reason: image not found\n"),
     "loader.macos_cuda_dylib_not_loaded", "Install the package's CPU (or Metal) build instead"),
    # traveller59/spconv#337
    (("    from spconv.core_cc.cumm.gemm.main import GemmAlgoDesp, GemmMainUnitTest, GemmParams\n"
      "ImportError: arg(): could not convert default argument 'indice_pair_mask: tv::Tensor' in function "
      "'generate_subm_conv_inds' into a Python object (type not registered yet?)\n"),
     "python.spconv_cumm_mismatch", "Uninstall every spconv and cumm package"),
    # the import-name form keeps its answer (the entry's own example)
    (("ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'\n"),
     "python.spconv_cumm_mismatch", "Bring cumm to the release of this spconv"),
]

test_first_answer = first_answer_tests(SW36_CASES)
SW36B_CASES = [
    # awslabs/awsome-distributed-ai#196
    ('sbatch: error: Invalid generic resource (gres) specification\n',
     'slurm.gpu_request_rejected', ''),
    # LBANN/lbann#803
    ('GPU CUDA support is not configured. Please reconfigure MVAPICH2 library with --enable-cuda option.\n',
     'mpi.not_cuda_aware', 'Run with a CUDA-enabled MVAPICH2'),
    # lammps/lammps#4027
    ("Kokkos with GPU-enabled backend assumes GPU-aware MPI is available, but cannot determine if this is the case\n         try '-pk kokkos gpu/aware off' if getting segmentation faults\n",
     'mpi.not_cuda_aware', 'If the MPI is not GPU-aware'),
    # JuliaParallel/MPI.jl#537
    ('[1642930332.032032] [gcn19:4087661:0] gdr_copy_md.c:122 UCX ERROR gdr_pin_buffer failed. length :65536 ret:22\n',
     'mpi.gpu_buffer_not_shareable', 'If the buffers come from a memory pool'),
    # openucx/ucc#1041
    ('[1730117228.178968] [dgx1v-loki-23:3000 :0]   tl_cuda_cache.c:231  UCC  ERROR ipc-cache: failed to open ipc mem handle. addr:0x7f65a8000000 len:16777216 err:201\n',
     'mpi.gpu_buffer_not_shareable', 'If the buffers come from a memory pool'),
    # NVIDIA/libnvidia-container#187
    ('nvidia-container-cli: mount error: file creation failed: /raid/enroot-data/user-9011/pyxis_59.0/run/nvidia-persistenced/socket: no such device or address\n[ERROR] /raid/enroot//hooks.d/98-nvidia.sh exited with return code 1\n',
     'container.host_run_mounted', 'Upgrade libnvidia-container'),
    # NVIDIA/enroot#231
    ('nvidia-container-cli: detection error: path error: ///var/run/nvidia-fabricmanager/socket: permission denied\n[ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1\n',
     'container.host_run_mounted', 'Upgrade libnvidia-container'),
]

test_first_answer_clusters = first_answer_tests(SW36B_CASES)


def test_open_mpis_ipc_block_is_left_unanswered():
    # parthenon-hpc-lab/athenapk#114 (an environment setting) and the practice set's p072 (JuliaGPU/CUDA.jl#1398, a
    # regression in the package) printed the same block: nothing is claimed
    from cudaenv.knowledge.explain import explain
    said = ("The call to cuIpcGetMemHandle failed. This means the GPU RDMA protocol\ncannot be used.\n"
            "  cuIpcGetMemHandle return value:   1\n")
    assert not [m.id for m in explain(said) if m.environment]
