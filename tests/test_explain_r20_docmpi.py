"""Round 20 (docmpi: causes the CUDA-aware MPI, GPUDirect RDMA and interconnect documentation lists): the answers the
new entries and variants give on real log lines, and the neighbouring causes that keep theirs.

- Cray MPICH with MPICH_GPU_SUPPORT_ENABLED=1 and a program not linked with its GTL library (mpi.cray_gtl_not_linked).
- nvidia-peermem / nv_peer_mem refused by the kernel: built against another InfiniBand stack or another driver
  (driver.peermem_ib_symbols_missing).
- Open MPI built with CUDA on a machine without libcuda.so.1: a notice, not the failure (a variant of
  runtime.libcuda_not_found).
- Horovod without its framework's op library (python.horovod_extension_not_built).
- CUDA IPC between ranks that each see only their own GPU (mpi.cuda_ipc_gpu_binding); NVSHMEM without the
  peer-memory module (a variant of nccl.gdr_unavailable).
- GDRCopy without its gdrdrv device (driver.gdrdrv_not_loaded); GPUDirect Storage without nvidia-fs or a GDS-capable
  storage driver (gds.nvidia_fs_unavailable).

Each text is copied from the thread or the producer's source named above it."""

from explain_answers import first_answer_tests

CASES = [
    # https://github.com/sstsimulator/sst-core/issues/895 (rebuilt with MPICC=cc MPICXX=CC)
    ("pratsriv@perlmutter:login31:~> sst --version\n"
     "MPICH ERROR [Rank 0] [job id ] [Thu Dec 29 08:08:13 2022] [login31] - Abort(-1) (rank 0 in comm 0): "
     "MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked\n (Other MPI error)\n\n"
     "aborting job:\nMPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked\n",
     "mpi.cray_gtl_not_linked", "craype-accel-nvidia80"),
    # https://github.com/APPFL/APPFL/issues/258 (conda's mpi4py on Polaris)
    ("MPICH ERROR [Rank 0] [job id ] [Thu Jan 30 22:35:30 2025] [x3006c0s19b1n0] - Abort(-1) (rank 0 in comm 0): "
     "MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked\n (Other MPI error)\n",
     "mpi.cray_gtl_not_linked", "CRAY_ACCEL_TARGET=nvidia80"),
    # https://github.com/BLAST-WarpX/warpx/pull/2736
    ("MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked\n",
     "mpi.cray_gtl_not_linked", "MPICC=cc MPICXX=CC"),
    # https://github.com/NVIDIA/gpu-operator/issues/2868
    ("DRIVER_ARCH is aarch64\nmodprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\n"
     "failed to load nvidia-peermem module\n"
     "[Tue Sep  8 17:16:02 2026] nvidia_peermem: disagrees about version of symbol ib_register_peer_memory_client\n"
     "[Tue Sep  8 17:16:02 2026] nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -22)\n",
     "driver.peermem_ib_symbols_missing", "Install MLNX_OFED first"),
    # https://github.com/Mellanox/nv_peer_memory/issues/84 (maintainer: reinstall nv_peer_mem after OFED)
    ("[root@n120 ~]# modprobe -v nv_peer_mem\ninsmod /lib/modules/3.10.0-1127.19.1.el7.x86_64/extra/nv_peer_mem.ko\n"
     "modprobe: ERROR: could not insert 'nv_peer_mem': Unknown symbol in module, or unknown parameter (see dmesg)\n\n"
     "From dmesg:\n...\n"
     "[Fri Feb 12 11:47:20 2021] nv_peer_mem: Unknown symbol ib_register_peer_memory_client (err 0)\n"
     "[Fri Feb 12 11:47:20 2021] nv_peer_mem: Unknown symbol ib_unregister_peer_memory_client (err 0)\n",
     "driver.peermem_ib_symbols_missing", "nvidia-peer-memory-dkms"),
    # https://github.com/Mellanox/nv_peer_memory/issues/116 (the dkms package's post-install modprobe)
    ("depmod...\nmodprobe: ERROR: could not insert 'nv_peer_mem': Invalid argument\n"
     "dpkg: error processing package nvidia-peer-memory-dkms (--install):\n"
     " installed nvidia-peer-memory-dkms package post-installation script subprocess returned error exit status 1\n",
     "driver.peermem_ib_symbols_missing", "Install MLNX_OFED first"),
    # https://github.com/Mellanox/nv_peer_memory/issues/8 (the NVIDIA driver changed under nv_peer_mem)
    ("[  366.264584] nv_peer_mem: disagrees about version of symbol nvidia_p2p_get_pages\n"
     "[  366.264587] nv_peer_mem: Unknown symbol nvidia_p2p_get_pages (err -22)\n"
     "[  366.264590] nv_peer_mem: disagrees about version of symbol nvidia_p2p_put_pages\n"
     "[  366.264591] nv_peer_mem: Unknown symbol nvidia_p2p_put_pages (err -22)\n",
     "driver.peermem_ib_symbols_missing", "Rebuild nv_peer_mem against the loaded driver"),
    # https://github.com/open-mpi/ompi/issues/4405 (Open MPI 3.0 with CUDA on CPU-only nodes)
    ("The library attempted to open the following supporting CUDA libraries,\n"
     "but each of them failed.  CUDA-aware support is disabled.\n"
     "libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "libcuda.dylib: cannot open shared object file: No such file or directory\n"
     "/usr/lib64/libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "/usr/lib64/libcuda.dylib: cannot open shared object file: No such file or directory\n"
     "If you are not interested in CUDA-aware support, then run with\n"
     "--mca mpi_cuda_support 0 to suppress this message.  If you are interested\n"
     "in CUDA-aware support, then try setting LD_LIBRARY_PATH to the location\n"
     "of libcuda.so.1 to get passed this issue.\n",
     "runtime.libcuda_not_found", "OMPI_MCA_opal_warn_on_missing_libcuda=0"),
    # https://github.com/easybuilders/easybuild-easyconfigs/pull/15589 (4.1's wording)
    ("The library attempted to open the following supporting CUDA libraries,\n"
     "but each of them failed.  CUDA-aware support is disabled.\n"
     "libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "If you are not interested in CUDA-aware support, then run with\n"
     "--mca opal_warn_on_missing_libcuda 0 to suppress this message.  If you are interested\n",
     "runtime.libcuda_not_found", "OMPI_MCA_opal_warn_on_missing_libcuda=0"),
    # https://github.com/open-mpi/ompi/issues/12279 (Open MPI 5 on a non-GPU node)
    ("[non-gpu-node:2426494] mca_base_component_repository_open: unable to open mca_accelerator_cuda: libcuda.so.1: "
     "cannot open shared object file: No such file or directory (ignored)\n"
     "[non-gpu-node:2426494] mca_base_component_repository_open: unable to open mca_btl_smcuda: libcuda.so.1: "
     "cannot open shared object file: No such file or directory (ignored)\n",
     "runtime.libcuda_not_found", "OMPI_MCA_opal_warn_on_missing_libcuda=0"),
    # https://github.com/tlkh/ai-lab/issues/27
    ("Traceback (most recent call last):\n"
     "  File \"/opt/conda/lib/python3.6/site-packages/horovod/torch/__init__.py\", line 27, in <module>\n"
     "    __file__, 'mpi_lib_v2')\n"
     "  File \"/opt/conda/lib/python3.6/site-packages/horovod/common/util.py\", line 50, in check_extension\n"
     "    'Horovod with %s=1 to debug the build error.' % (ext_name, ext_env_var))\n"
     "ImportError: Extension horovod.torch has not been built.  If this is not expected, reinstall Horovod with "
     "HOROVOD_WITH_PYTORCH=1 to debug the build error.\n",
     "python.horovod_extension_not_built", "HOROVOD_WITH_PYTORCH=1 pip install --no-cache-dir horovod"),
    # https://github.com/horovod/horovod/issues/3986 (0.20+'s wording, with the path)
    ("ImportError: Extension horovod.torch has not been built: /dockerdata/anaconda3/lib/python3.7/site-packages/"
     "horovod/torch/mpi_lib_v2.cpython-37m-x86_64-linux-gnu.so not found\n"
     "If this is not expected, reinstall Horovod with HOROVOD_WITH_PYTORCH=1 to debug the build error.\n",
     "python.horovod_extension_not_built", "HOROVOD_WITH_PYTORCH=1 pip install"),
    # horovod/common/util.py check_extension, the TensorFlow extension
    ("ImportError: Extension horovod.tensorflow has not been built.  If this is not expected, reinstall Horovod with "
     "HOROVOD_WITH_TENSORFLOW=1 to debug the build error.\n",
     "python.horovod_extension_not_built", "HOROVOD_WITH_TENSORFLOW=1 pip install"),
    # https://github.com/BLAST-WarpX/warpx/issues/6382 (Perlmutter: avoid gpu-bind/gpus-per-task)
    ("(GTL DEBUG: 1) cuIpcOpenMemHandle: invalid argument, CUDA_ERROR_INVALID_VALUE, line no 360\n"
     "(GTL DEBUG: 2) cuIpcOpenMemHandle: invalid argument, CUDA_ERROR_INVALID_VALUE, line no 360\n"
     "MPICH ERROR [Rank 1] [job id 45070892.1] [Mon Nov 10 17:03:48 2025] [nid008237] - Abort(4864002) (rank 1 in "
     "comm 0): Fatal error in PMPI_Waitall: Invalid count, error stack:\n"
     "PMPI_Waitall(378).........................: MPI_Waitall(count=1, req_array=0x2accbaa0, "
     "status_array=0x2acc9160) failed\n"
     "MPIDI_CRAY_Common_lmt_import_mem(218).....:\n(unknown)(): Invalid count\n",
     "mpi.cuda_ipc_gpu_binding", "--gpu-bind=none"),
    # https://github.com/shankar1729/jdftx/issues/252 (maintainer: gpu_bind=none)
    ("(GTL DEBUG: 1) cuIpcOpenMemHandle: invalid argument, CUDA_ERROR_INVALID_VALUE, line no 272\n"
     "(GTL DEBUG: 2) cuIpcOpenMemHandle: invalid argument, CUDA_ERROR_INVALID_VALUE, line no 272\n"
     "MPICH ERROR [Rank 1] [job id 3246040.0] [Fri Sep 23 17:26:26 2022] [nid001616] - Abort(475555330) (rank 1 in "
     "comm 0): Fatal error in MPIR_CRAY_Bcast_Tree: Invalid count, error stack:\n"
     "MPIR_CRAY_Bcast_Tree(183).................: message sizes do not match across processes in the collective "
     "routine: Received -32766 but expected 20992\n",
     "mpi.cuda_ipc_gpu_binding", "--gpu-bind=none"),
    # https://github.com/open-mpi/ompi/issues/11949 (srun -n 2 --gpus-per-task=1, Open MPI's smcuda)
    ("--------------------------------------------------------------------------\n"
     "The call to cuIpcOpenMemHandle failed. This is an unrecoverable error\n"
     "and will cause the program to abort.\n"
     "  Hostname:                         clima\n"
     "  cuIpcOpenMemHandle return value:  1\n"
     "  address:                          0x7fd865200000\n"
     "Check the cuda.h file for what the return value means. A possible cause\n"
     "for this is not enough free device memory.  Try to reduce the device\n"
     "memory footprint of your application.\n"
     "--------------------------------------------------------------------------\n"
     "[clima.gps.caltech.edu:1868819] Failed to register remote memory, rc=-1\n",
     "mpi.cuda_ipc_gpu_binding", "--gpus-per-node=4"),
    # https://github.com/CliMA/slurm-buildkite/issues/54 (--gpus-per-task=1; --gpus=4 made all GPUs visible)
    ("clima.gps.caltech.edu:3667226] Failed to register remote memory, rc=-1\n",
     "mpi.cuda_ipc_gpu_binding", "--gpu-bind=none"),
    # https://github.com/deepseek-ai/DeepEP/issues/55 (NVSHMEM's shmem_put_bw) and NVSHMEM's
    # src/modules/transport/ibrc/ibrc.cpp
    ("mype: 0 mype_node: 0 device name: NVIDIA H20 bus id: 8 \n"
     "/home/nvshmem_src/src/modules/transport/ibrc/ibrc.cpp:nvshmemt_init:1851: neither nv_peer_mem, or "
     "nvidia_peermem detected. Skipping transport.\n",
     "nccl.gdr_unavailable", "sudo modprobe nvidia-peermem"),
    # https://github.com/NVIDIA/gdrcopy/issues/72 (MVAPICH2-GDR's wording)
    ('GDRCOPY library "libgdrapi.so" unable to open GDR driver, is gdrdrv.ko loaded?\n',
     "driver.gdrdrv_not_loaded", "sudo systemctl start gdrcopy"),
    # https://github.com/NVIDIA/gdrcopy/issues/251 and GDRCopy's tests/common.hpp gdr_open_safe
    ("gdr_open error: Is gdrdrv driver installed and loaded?\n",
     "driver.gdrdrv_not_loaded", "ls -l /dev/gdrdrv"),
    # GDRCopy's src/gdrapi.c gdr_open_gdrdrv_internal (GDRCOPY_ENABLE_LOGGING=1)
    ("ERR:  error opening driver (errno=2/No such file or directory)\n",
     "driver.gdrdrv_not_loaded", "insmod.sh"),
    # https://github.com/NVIDIA/gds-nvidia-fs/issues/31 (cufile.log on Rocky 8.6)
    (" 06-11-2023 18:40:43:90 [pid=59193 tid=59193] NOTICE  cufio-drv:720 running in compatible mode\n"
     " 06-11-2023 20:12:02:865 [pid=157254 tid=157254] ERROR  cufio-drv:716 nvidia-fs.ko driver not loaded\n"
     " 07-11-2023 16:58:54:420 [pid=45874 tid=45874] ERROR  cufio-fs:199 NVMe Driver not registered with nvidia-fs!!!\n",
     "gds.nvidia_fs_unavailable", "gdscheck -p"),
    # https://github.com/NVIDIA/gds-nvidia-fs/issues/19
    (" 27-06-2023 16:20:53:48 [pid=41337 tid=41337] ERROR  cufio-fs:204 NVMe Driver not registered with nvidia-fs!!!\n",
     "gds.nvidia_fs_unavailable", "gdscheck -p"),
    # https://github.com/NVIDIA/DALI/issues/4771 (its title)
    ("Is DaliGenericIterator compatible with PyTorch 2.0? [cuFile error (5033): NVFS driver initialization error]\n",
     "gds.nvidia_fs_unavailable", "nvidia-fs"),
    # near-misses: neighbouring causes keep their answers
    # GDRCopy's module that does not build stays the build entry (driver.gdrdrv_build_failed's example)
    ("ERROR: modpost: GPL-incompatible module gdrdrv.ko uses GPL-only symbol 'cc_mkdec'\n",
     "driver.gdrdrv_build_failed", "Build a newer GDRCopy"),
    # NCCL's own IPC failure between hosts taken for one machine (nccl.ipc_across_hosts's example)
    ("node1:22671:22795 [1] transport/p2p.cu:431 WARN failed to open CUDA IPC handle : 30 unknown error\n",
     "nccl.ipc_across_hosts", ""),
    # MPICH built --with-cuda on a node without a GPU (pmodels/mpich#5423's wording, the entry's example)
    ("CUDA Error (yaksuri_cuda_init_hook:src/backend/cuda/hooks/yaksuri_cuda_init_hooks.c,173): "
     "no CUDA-capable device is detected\n",
     "mpi.gpu_init_without_gpu", "MPIR_CVAR_ENABLE_GPU=0"),
    # the peer-memory module not loaded at all (nccl.gdr_unavailable's example)
    ("misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Bad address\n",
     "nccl.gdr_unavailable", "sudo modprobe nvidia-peermem"),
    # a program without Open MPI that cannot load libcuda keeps the general answer
    ("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n",
     "runtime.libcuda_not_found", "`nvidia-smi` tells which case"),
    # candle's own "has not been built" stays candle's
    ("Error: the candle crate has not been built with cuda support\n",
     "candle.built_without_cuda", "--features cuda"),
]

test_first_answer = first_answer_tests(CASES)
