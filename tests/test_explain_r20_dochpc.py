"""Round 20, helper "dochpc": causes HPC centres' GPU user documentation lists (module systems, clusters), checked
against real threads and the producers' sources.

- hpc.module_conflict: the module command refuses a module because a conflicting one (another cuda, another
  compiler) is loaded, so the shell keeps the old toolkit: Lmod's e_Conflict / e_Family_Conflict, Environment
  Modules 4-5's "Module cannot be loaded due to a conflict" and 3.2's "ERROR:150".
- loader.shared_object_noexec: glibc's "failed to map segment from shared object": a library on a noexec mount
  (a cluster's /tmp where torch.compile, Triton and torch extensions build; a drive under /media), or an
  address-space limit (ulimit -v) for the big CUDA libraries.
- gpu.visible_devices_uuid_unparsed: a scheduler's CUDA_VISIBLE_DEVICES of GPU UUIDs (OpenPBS, HTCondor, Slurm
  25.11, device plugins) or Slurm's "NoDevFiles", read as integers by the program.
- python.pip_install_no_space: pip's Errno 28 / Errno 122 installing the multi-GB CUDA wheels (a small /tmp, a
  cluster's home quota).
- runtime.no_device, repaired: "invalid device ordinal" under Slurm's --gpus-per-task (or a --gpu-bind binding), where
  each task sees only cuda:0 and the program asks for its local rank's GPU.
- container.apptainer_tmpdir_full: Apptainer/Singularity pulls of big images stop with "no space left on device" in
  their temporary directory (a small /tmp): APPTAINER_TMPDIR / APPTAINER_CACHEDIR on scratch.
- toolkit.runfile_tmp_full: the CUDA .run installer's "Extraction failed ... enough space in /tmp" (makeself) and its
  log's "No space left on device" under /tmp/cuda: --tmpdir on a disk with room, or a truncated download.
"""

from explain_answers import first_answer_tests

import pytest

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/ComputationalRadiationPhysics/picongpu/issues/1153 (Environment Modules 3.2, a CUDA
    # project's profile loading gcc/4.6.2 over the login's gcc/4.8.2)
    ("\tThis module will set up environment variables for gcc/4.6.2.\n"
     "gcc/4.6.2(114):ERROR:150: Module 'gcc/4.6.2' conflicts with the currently loaded module(s) 'gcc/4.8.2'\n"
     "gcc/4.6.2(114):ERROR:102: Tcl command execution failed: conflict gcc\n",
     "hpc.module_conflict", "module swap gcc/4.8.2 gcc/4.6.2"),
    # https://github.com/easybuilders/easybuild-easyconfigs/issues/4994 (a custom module loading an older HDF5)
    ("HDF5/1.8.17-foss-2016a(13):ERROR:150: Module 'HDF5/1.8.17-foss-2016a' conflicts with the currently loaded "
     "module(s) 'HDF5/1.8.16-foss-2016a'\n"
     "HDF5/1.8.17-foss-2016a(13):ERROR:102: Tcl command execution failed: conflict HDF5\n",
     "hpc.module_conflict", "module swap HDF5/1.8.16-foss-2016a HDF5/1.8.17-foss-2016a"),
    # Environment Modules 4.x/5.x (modulecmd.tcl; ABCI's user guide shows it for cuda/12.5 -> cuda/12.6)
    ("[username@login1 ~]$ module load cuda/12.5/12.5.1\n"
     "[username@login1 ~]$ module load cuda/12.6/12.6.1\n"
     "Loading cuda/12.6/12.6.1\n"
     "  ERROR: Module cannot be loaded due to a conflict.\n"
     "    HINT: Might try \"module unload cuda\" first.\n",
     "hpc.module_conflict", "module swap cuda cuda/12.6/12.6.1"),
    # Environment Modules 4.0-4.2 wording (https://github.com/envmodules/modules/issues/262)
    ("Loading mc\n  ERROR: mc cannot be loaded due to a conflict.\n    HINT: Might try \"module unload md\" first.\n",
     "hpc.module_conflict", "module swap md mc"),
    # Lmod messageT.lua e_Conflict (the LUMI course notes quote it for amd vs rocm)
    ("Lmod has detected the following error:  Cannot load module \"amd/5.0.2\" because these module(s) are loaded:\n"
     "   rocm\n",
     "hpc.module_conflict", "module swap rocm amd/5.0.2"),
    # Lmod e_Family_Conflict
    ("Lmod has detected the following error:  You can only have one compiler module loaded at a time.\n"
     "You already have intel loaded.\n"
     "To correct the situation, please execute the following command:\n\n"
     "  $ module swap intel gcc/9.2.0\n",
     "hpc.module_conflict", "module swap intel ..."),
]

CASES += [
    # a project's run notes (code index id 63175394192): "/tmp is tmpfs + noexec, Triton JIT builds its .so there"
    # (the cause of https://github.com/pytorch/pytorch/issues/91005 and #123054)
    ("ImportError: .../__triton_launcher...so: failed to map segment from shared object\n",
     "loader.shared_object_noexec", "export TMPDIR=$HOME/tmp TRITON_CACHE_DIR"),
    # https://github.com/brannondorsey/PassGAN/issues/26 (no cause given: both checks first)
    ("_ImportError: /home/USER/.local/lib/python3.10/site-packages/tensorflow/python/platform/"
     "_pywrap_cpu_feature_guard.so: failed to map segment from shared object_\n",
     "loader.shared_object_noexec", "findmnt -T"),
    # https://github.com/JIA-Lab-research/DeepUPE/issues/47 (a custom TF op built on a drive under /media)
    ("tensorflow.python.framework.errors_impl.NotFoundError: /media/4A76601876600753/DeepUPE/main/lib/hdrnet_ops.so: "
     "failed to map segment from shared object\n",
     "loader.shared_object_noexec", "Move the project"),
    # https://github.com/pytorch/pytorch/issues/16558 (RLIMIT_AS; also breezedeus/CnOCR#277): noexec or the limit
    ("Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
     "  File \"/usr/local/lib/python3.6/dist-packages/torch/__init__.py\", line 197, in <module>\n"
     "    from torch._C import *  # noqa: F403\n"
     "ImportError: libtorch_cuda.so: failed to map segment from shared object\n",
     "loader.shared_object_noexec", "ulimit -v"),
]

CASES += [
    # https://github.com/deepspeedai/DeepSpeed/issues/5278 (OpenPBS sets UUIDs)
    ('File "/XXX/deepspeed/launcher/runner.py", line 295, in <listcomp>\n'
     "    slots = [int(x) for x in slots.split(SLOT_SEP)]\n"
     "ValueError: invalid literal for int() with base 10: 'GPU-8932f937'\n",
     "gpu.visible_devices_uuid_unparsed", "nvidia-smi -L"),
    # https://github.com/vllm-project/vllm/issues/13815
    ('  File "/home/users/ntu/hong0259/vllm/vllm/platforms/cuda.py", line 53, in device_id_to_physical_device_id\n'
     "    return int(physical_device_id)\n"
     "           ^^^^^^^^^^^^^^^^^^^^^^^\n"
     "ValueError: invalid literal for int() with base 10: 'GPU-52a3a85d-3c55-ca3a-a955-82c69ed360fc'\n",
     "gpu.visible_devices_uuid_unparsed", "CUDA_VISIBLE_DEVICES=0"),
    # https://github.com/ray-project/ray/issues/6978 (Slurm job without a GPU request)
    ('  File "/home/hliu46/.conda/envs/NP_DL/lib/python3.7/site-packages/ray/utils.py", line 274, in <listcomp>\n'
     '    return [int(i) for i in gpu_ids_str.split(",")]\n'
     "ValueError: invalid literal for int() with base 10: 'NoDevFiles'\n",
     "gpu.visible_devices_uuid_unparsed", "--gres=gpu:1"),
]

CASES += [
    # https://github.com/hao-ai-lab/FastVideo/issues/1490 (disk not full: the quota)
    ("Installing collected packages: nvidia-cusparselt-cu13, mpmath, cuda-toolkit, typing-extensions, triton, sympy, "
     "setuptools, pathspec, packaging, nvidia-nvtx, nvidia-nvshmem-cu13, nvidia-nvjitlink, nvidia-nccl-cu13, "
     "nvidia-curand, nvidia-cufile, nvidia-cuda-runtime, nvidia-cuda-nvrtc, nvidia-cuda-cupti, networkx, MarkupSafe, "
     "fsspec, filelock, cuda-pathfinder, wheel, scikit-build-core, nvidia-cusparse, nvidia-cufft, nvidia-cublas, "
     "jinja2, cuda-bindings, nvidia-cusolver, nvidia-cudnn-cu13, torch\n\n"
     "ERROR: Could not install packages due to an OSError: [Errno 122] Disk quota exceeded\n",
     "python.pip_install_no_space", "quota -s"),
    # https://github.com/steamship-core/steamship-langchain/issues/57
    ("Collecting torch\n  Downloading torch-2.0.1-cp38-cp38-manylinux1_x86_64.whl (619.9 MB)\n"
     "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device\n",
     "python.pip_install_no_space", "df -h /tmp"),
    # https://github.com/mikeizbicki/cmc-csci046/issues/129 (old pip's traceback)
    ("$ pip3 install -r requirements.txt\nException:\nTraceback (most recent call last):\n"
     '  File "/usr/lib/python3/dist-packages/pip/basecommand.py", line 215, in main\n'
     "    status = self.run(options, args)\n"
     '  File "/usr/lib/python3/dist-packages/pip/utils/__init__.py", line 519, in unzip_file\n'
     "    fp.write(data)\nOSError: [Errno 122] Disk quota exceeded\n",
     "python.pip_install_no_space", "quota -s"),
]

CASES += [
    # https://github.com/ACEsuit/mace/issues/435 (--gpus-per-node instead of --gpus-per-task fixed it)
    ("#SBATCH --ntasks-per-node=8\n#SBATCH --ntasks=8\n#SBATCH --mem=100G\n#SBATCH --cpus-per-task=8\n"
     "#SBATCH --time=48:00:00\n#SBATCH --gpus-per-task=1\n#SBATCH --job-name=mace_distr\n"
     "srun mace_run_train --distributed \\ #other parameters\n"
     "        torch.cuda.set_device(local_rank)\n"
     "RuntimeError: CUDA error: invalid device ordinal\n",
     "runtime.no_device", "local_rank % torch.cuda.device_count()"),
    # https://github.com/wenwenyu/PICK-pytorch/issues/14: more processes than GPUs, no Slurm binding: the rank fix
    ("CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch --nnode=1 --node_rank=0 --nproc_per_node=4 \\\n"
     "--master_addr=127.0.0.1 --master_port=5555 \\\n"
     "train.py -c config.json --local_world_size 2\n"
     "RuntimeError: cuda runtime error (101) : invalid device ordinal at /pytorch/torch/csrc/cuda/Module.cpp:59\n",
     "runtime.no_device", "More processes than visible GPUs"),
]

CASES += [
    # https://github.com/KosinskiLab/AlphaPulldown/issues/488 (HPC: --tmpdir on scratch)
    ("FATAL:   While making image from oci registry: error fetching image to cache: while building SIF from layers: "
     "packer failed to pack: while unpacking tmpfs: error unpacking rootfs: unpack layer: unpack entry: "
     "opt/conda/lib/libmkl_mc3.so.1: unpack to regular file: short write: write "
     "/tmp/build-temp-4184616778/rootfs/opt/conda/lib/libmkl_mc3.so.1: no space left on device\n",
     "container.apptainer_tmpdir_full", "APPTAINER_TMPDIR"),
    # https://github.com/StaPH-B/docker-builds/issues/1482 ("29TB" free: /tmp was full)
    ("FATAL:   While making image from oci registry: error fetching image to cache: while building SIF from layers: "
     "packer failed to pack: while unpacking tmpfs: error unpacking rootfs: unpack layer: unpack entry: "
     "VIBRANT/databases/KEGG_profiles_prokaryotes.HMM.h3p: unpack to regular file: short write: write "
     "/tmp/build-temp-1262251748/rootfs/VIBRANT/databases/KEGG_profiles_prokaryotes.HMM.h3p: no space left on "
     "device\n",
     "container.apptainer_tmpdir_full", "APPTAINER_TMPDIR"),
    # https://github.com/apptainer/singularity/issues/3939 (Singularity 3.2 extracting a SIF to a sandbox)
    ("FATAL   [U=51132,P=5640]   execStarter()                 while extracting my_singularity_image.simg: root "
     "filesystem extraction failed: failed to copy content in staging file: write /tmp/archive-101709114: no space "
     "left on device\n",
     "container.apptainer_tmpdir_full", "APPTAINER_TMPDIR"),
]

CASES += [
    # https://github.com/spack/spack/issues/22083 (2 GB free in /tmp)
    ("==> cuda: Executing phase: 'install'\nExtraction failed.\n"
     "Ensure there is enough space in /tmp and that the installation package is not corrupt\n"
     "==> Error: ProcessError: Command exited with status 15:\n",
     "toolkit.runfile_tmp_full", "--tmpdir=$HOME/cuda-tmp"),
    # https://github.com/compiler-explorer/infra/pull/286 (the installer's log)
    ("An error occurred during extraction. See log at /var/log/cuda-installer.log for details.\n"
     "[ERROR]: boost::filesystem::create_directory: No space left on device: \"/tmp/cuda/cuda-toolkit/"
     "nsight-compute-2019.4.0/host/linux-desktop-glibc_2_11_3-x64/resources\"\n",
     "toolkit.runfile_tmp_full", "--tmpdir=$HOME/cuda-tmp"),
]

test_first_answer = first_answer_tests(CASES)

NEAR = [
    # Lmod's prerequisite message is the hierarchy (hpc.module_unavailable), not a conflict
    ("Lmod has detected the following error:  Cannot load module \"cuda/11.1.0\" without these module(s) loaded:\n"
     "   sems-gcc\n", "hpc.module_conflict"),
    # https://github.com/kokkos/kokkos-kernels/pull/1508: the hierarchy, loading sems-gcc first fixed it
    ("Lmod has detected the following error:  These module(s) or extension(s) exist but cannot be loaded as "
     "requested: \"sems-cuda/11.1.0\"\n   Try: \"module spider sems-cuda/11.1.0\" to see how to load the module(s).\n",
     "hpc.module_conflict"),
    # a library that is absent is the loader path, not a mapping refused
    ("ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
     "loader.shared_object_noexec"),
    # a list of indices where one was expected is the program's parsing, not UUIDs
    # (https://github.com/Sygil-Dev/sygil-webui/issues/273)
    ("ValueError: invalid literal for int() with base 10: '0,1,2'\n", "gpu.visible_devices_uuid_unparsed"),
    # https://github.com/beta-team/beta-recsys/issues/343 (a device string cut to nothing)
    ("ValueError: invalid literal for int() with base 10: ''\n", "gpu.visible_devices_uuid_unparsed"),
]


@pytest.mark.parametrize("text,not_id", NEAR)
def test_near_misses_keep_off(text: str, not_id: str) -> None:
    ids = [m.id for m in explain(text) if m.environment]
    assert not ids or ids[0] != not_id, ids


def test_lmod_autoswap_is_no_conflict():
    # Lmod swaps same-family modules itself and says so: nothing failed
    # (https://github.com/ComputationalRadiationPhysics/picongpu/pull/3492)
    text = 'Lmod is automatically replacing "xl/16.1.1-5" with "gcc/8.1.1".\n'
    assert "hpc.module_conflict" not in [m.id for m in explain(text)]


def test_a_full_disk_outside_pip_is_not_pip():
    # a training script saving a checkpoint on a full disk: no pip in the log (an illustration, not a thread)
    text = ('  File "train.py", line 80, in save_checkpoint\n    torch.save(state, path)\n'
            "OSError: [Errno 28] No space left on device\n")
    assert "python.pip_install_no_space" not in [m.id for m in explain(text)]


def test_apptainer_errors_without_space_are_not_tmpdir():
    # https://github.com/JaneliaSciComp/multifish/issues/6 (its title; an Apptainer bug fixed by upgrading)
    text = ("FATAL: While making image from oci registry: error fetching image to cache: while building SIF from "
            "layers: conveyor failed to get: no descriptor found for reference\n")
    assert "container.apptainer_tmpdir_full" not in [m.id for m in explain(text)]
