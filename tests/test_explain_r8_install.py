"""Issue 18, round 8, helper "install": a user's day of installing and switching, on a workstation and on a
cluster. Sampled in search order (pip/uv/conda/pixi resolver failures around CUDA builds, environment modules,
Slurm GPU requests, CUDA_VISIBLE_DEVICES, a toolkit elsewhere than the build looks), then the families the
misses belong to. Each excerpt is quoted (trimmed) from the thread above it; the first environment answer and
the first line of its fix are the thread's resolution.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

WHEEL = "python.torch_wheel_not_found"
NODEV = "runtime.no_device"
MOD = "hpc.module_unavailable"
SLURM = "slurm.gpu_request_rejected"
CONDA = "conda.no_cuda_virtual_package"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- pip finds no torch wheel: the Python, not the index, when the log says so ------------------------------
    # https://github.com/pytorch/pytorch/issues/56917 (Python 3.5: "You need at least Python 3.6"; 1.8.1 has
    # cp36-cp39 wheels, so the example Python must be one of those, not 3.10)
    ("C:\\Users\\47013>pip3 install torch==1.8.1+cu102 torchvision==0.9.1+cu102 torchaudio===0.8.1 -f "
     "https://download.pytorch.org/whl/torch_stable.html\n"
     "DEPRECATION: Python 3.5 reached the end of its life on September 13th, 2020. Please upgrade your Python as "
     "Python 3.5 is no longer maintained.\n"
     "Looking in links: https://download.pytorch.org/whl/torch_stable.html\n"
     "ERROR: Could not find a version that satisfies the requirement torch==1.8.1+cu102\n"
     "ERROR: No matching distribution found for torch==1.8.1+cu102",
     WHEEL, "python3.8 -m venv"),
    # https://github.com/zeyad-mansour/lunar/issues/41 ("It is not possible on py versions above 9": only PyPI's
    # 0.1.2 placeholder is listed, no release fits this Python)
    ("Looking in links: https://download.pytorch.org/whl/torch_stable.html\n"
     "ERROR: Could not find a version that satisfies the requirement torch==1.8.1+cu111 (from versions: 0.1.2, "
     "0.1.2.post1, 0.1.2.post2)\n"
     "ERROR: No matching distribution found for torch==1.8.1+cu111",
     WHEEL, "This Python has no torch wheels at all"),
    # https://github.com/pytorch/pytorch/issues/66399 ("Python-3.10 is not supported neither by 1.9.1 nor but 1.10")
    ("ERROR: could not find a version that satisfies the requirement torch==1.9.1+cu111(from versions 0.1.2, "
     "0.1.2post1, 0.1.2post2\nERROR: No matching distribution found for torch==1.9.1+cu111\n\nI use python 3.10 btw",
     WHEEL, "This Python has no torch wheels at all"),
    # https://github.com/xuekt98/BBDM/issues/26 (pip inside a conda env file, no PyTorch index: installing torch
    # separately, from its index, fixed it)
    ("Pip subprocess error:\n"
     "ERROR: Could not find a version that satisfies the requirement torch==1.12.1+cu113 (from versions: 1.7.1, "
     "1.8.0, 1.8.1, 1.9.0, 1.9.1, 1.10.0, 1.10.1, 1.10.2, 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, "
     "2.1.0)\nERROR: No matching distribution found for torch==1.12.1+cu113\n\nfailed\n\nCondaEnvException: Pip failed",
     WHEEL, "--extra-index-url https://download.pytorch.org/whl/cu113"),
    # https://github.com/astral-sh/uv/issues/7372 (the index was under [tool.uv.pip], which `uv sync` ignores:
    # declaring it for the project fixed it)
    ("  × No solution found when resolving dependencies:\n"
     "  ╰─▶ Because there is no version of torch==2.4.0+cu124 and your project depends on torch==2.4.0+cu124, we can "
     "conclude that your project's requirements are unsatisfiable.",
     WHEEL, "[[tool.uv.index]]"),

    # --- conda / mamba / pixi: no __cuda virtual package where the environment is solved -----------------------
    # https://github.com/conda-forge/pytorch-cpu-feedstock/issues/364 (a login node without GPUs; "See
    # CONDA_OVERRIDE_CUDA" solved it)
    ("I am trying to install pytorch with CUDA supports on the login node of our cluster (without any GPUs) using "
     "`micromamba install -c conda-forge pytorch \"libtorch=*=cuda12*\"`, where I encounter a huge trace, but my "
     "hunch for the most important error raised while solving the installation is this tiny line "
     "`__cuda =* *, which is missing on the system;`",
     CONDA, "CONDA_OVERRIDE_CUDA="),
    # https://github.com/prefix-dev/pixi/issues/3949 (pixi's wording; pixi documents [system-requirements] cuda)
    ("Error: × failed to solve the conda requirements of 'default' 'linux-64'\n"
     "╰─▶ Cannot solve the request because of: jaxlib * cuda cannot be installed because there are no viable options:\n"
     "└─ jaxlib xxxxxx would require __cuda *, for which no candidates were found.",
     CONDA, "[system-requirements]"),

    # https://github.com/myshell-ai/OpenVoice/issues/38 (a Mac: "you don't need to install the pytorch-cuda. Simply
    # remove that entry")
    ("`conda install pytorch==1.13.1 torchvision==0.14.1 torchaudio==0.13.1 pytorch-cuda=11.7 -c pytorch -c nvidia`\n\n"
     "Channels:\n - pytorch\n - nvidia\n - defaults\nPlatform: osx-arm64\nCollecting package metadata (repodata.json): "
     "done\nSolving environment: failed\n\nLibMambaUnsatisfiableError: Encountered problems while solving:\n"
     "  - nothing provides cuda 11.7.* needed by pytorch-cuda-11.7-h67b0de4_0\n\nCould not solve for environment specs\n"
     "The following package could not be installed\n└─ pytorch-cuda 11.7**  is not installable because it requires\n"
     "   └─ cuda 11.7.* , which does not exist (perhaps a missing channel).",
     "conda.pytorch_cuda_unsatisfiable", "Drop pytorch-cuda"),
    # https://github.com/guoyww/AnimateDiff/issues/293 (the same from an environment.yaml on an M2 Mac)
    ("conda env create -f environment.yaml\n\nChannels:\n - pytorch\n - nvidia\n - defaults\nPlatform: osx-arm64\n"
     "LibMambaUnsatisfiableError: Encountered problems while solving:\n"
     "  - nothing provides cuda 11.7.* needed by pytorch-cuda-11.7-h67b0de4_0",
     "conda.pytorch_cuda_unsatisfiable", "Drop pytorch-cuda"),
    # https://github.com/DeepGraphLearning/ULTRA/issues/7 (mamba without the nvidia channel)
    ("LibMambaUnsatisfiableError: Encountered problems while solving:\n  - nothing provides requested cudatoolkit 11.8**\n"
     "  - nothing provides cuda 11.8.* needed by pytorch-cuda-11.8-h8dd9ede_2\n\nCould not solve for environment specs\n"
     "The following packages are incompatible\n├─ cudatoolkit 11.8**  does not exist (perhaps a typo or a missing channel);\n"
     "└─ pytorch-cuda 11.8**  is not installable because it requires\n"
     "   └─ cuda 11.8.* , which does not exist (perhaps a missing channel).",
     "conda.pytorch_cuda_unsatisfiable", "-c pytorch -c nvidia"),

    # --- environment modules: the module is not found, or needs its prerequisites -------------------------------
    # https://github.com/kokkos/kokkos-kernels/pull/1508 (sems-cuda loads after sems-gcc: "intended and documented
    # behavior", module spider lists what to load first)
    ("[ndellin@sogpu01 ~]$ module purge\n[ndellin@sogpu01 ~]$ module load sems-cuda/11.1.0\n"
     "Lmod has detected the following error:  These module(s) or extension(s) exist but cannot be loaded as "
     "requested: \"sems-cuda/11.1.0\"\n   Try: \"module spider sems-cuda/11.1.0\" to see how to load the module(s).",
     MOD, "module spider sems-cuda/11.1.0"),
    # https://github.com/TACC/Lmod/issues/823 (an EasyBuild CUDA module below its compiler and MPI)
    ("$ ml release/24.04\n$ ml CuPy/13.6.0-CUDA-12.4.0\n"
     "Lmod has detected the following error:  These module(s) or extension(s) exist but cannot be loaded as "
     "requested: \"CuPy/13.6.0-CUDA-12.4.0\"\n   Try: \"module spider CuPy/13.6.0-CUDA-12.4.0\" to see how to load "
     "the module(s).",
     MOD, "module spider CuPy/13.6.0-CUDA-12.4.0"),
    # https://github.com/kokkos/kokkos-kernels/issues/705 (Environment Modules; the modulefiles were in a project
    # directory: `module use /home/projects/x86-64/modulefiles/local` fixed it)
    ("[bmkelle@kokkos-dev-2 Cuda_OpenMP-release]$ cat reload_modules.sh \n  #   Load modules:\n"
     "        module load sems-env sems-cmake/3.12.2 kokkos-env clang/8.0 cuda/10.0\n\n"
     "[bmkelle@kokkos-dev-2 Cuda_OpenMP-release]$ source reload_modules.sh \n"
     "kokkos-env(20):ERROR:105: Unable to locate a modulefile for 'clang/8.0'\n"
     "kokkos-env(20):ERROR:105: Unable to locate a modulefile for 'cuda/10.0'",
     MOD, "module use /path/to/modulefiles"),
    # https://github.com/kokkos/kokkos-kernels/issues/273 (the machine has no such modules: its admins)
    ("[root@node327 modulefiles]$> module load gcc/4.4.7\n"
     "ModuleCmd_Load.c(200):ERROR:105: Unable to locate a modulefile for 'gcc/4.4.7'\n"
     "[root@node327 modulefiles]$> module load cuda/8.0.61\n"
     "ModuleCmd_Load.c(200):ERROR:105: Unable to locate a modulefile for 'cuda/8.0.61'",
     MOD, "module avail gcc"),
    # https://github.com/rcgsheffield/sheffield_hpc/issues/1892 (Lmod "unknown": `module load git/2.39.2`, the name
    # the system lists, works)
    ("$ module load git/2.39.2-GCCcore-10.3.0-nodocs\n\n"
     "  Lmod has detected the following error:  The following module(s) are unknown: "
     "\"git/2.39.2-GCCcore-10.3.0-nodocs\"\n  \n  Please check the spelling or version number. Also try \"module "
     "spider ...\"\n  It is also possible your cache file is out-of-date; it may help to try:\n"
     "    $ module --ignore_cache load \"git/2.39.2-GCCcore-10.3.0-nodocs\"",
     MOD, "module spider git"),

    # --- Slurm refuses the GPU request ---------------------------------------------------------------------------
    # https://github.com/facebookincubator/submitit/issues/1710 ("Recent ones use --gpus not --gres")
    ("submitit.core.utils.FailedJobError: sbatch: error: Parameter --gres=gpu:1 no longer acceptable, please switch "
     "to --gpus=1",
     SLURM, "Request the GPUs with `--gpus=1` instead of `--gres=gpu:1`"),
    # https://github.com/NVIDIA/exemplar-performance/issues/5 (the generated sbatch file lacked #SBATCH --gres=gpu:N)
    ("sbatch: error: Cannot find GPU specification, you may not submit a job not requesting GPUs in a GPU partition, "
     "partition: ...\nsbatch: error: Batch job submission failed: Unspecified error",
     SLURM, "Request a GPU in the job"),
    # https://github.com/NVIDIA-NeMo/Evaluator/pull/915 (the export step in a GPU partition with no GPU request)
    ("  sbatch: error: Cannot find GPU specification, you may not submit a job\n"
     "  not requesting GPUs in a non-CPU partition, partition: batch",
     SLURM, "CPU partition"),
    # https://github.com/3dem/relion/issues/877 (an empty `#SBATCH --gres=` line from the template)
    ("#SBATCH --gres=XXXextra3XXX\n#SBATCH --no-requeue\n"
     "sbatch: error: Batch job submission failed: Invalid Trackable RESource (TRES) specification",
     SLURM, "remove an empty `--gres=` line"),
    # https://github.com/radical-cybertools/radical.saga/issues/717 (`#SBATCH --gpu=2` is no sbatch option)
    ("#SBATCH --gres=gpu:p100:2\n#SBATCH --gpu=2\n[paraskev@login006 ~]$ sbatch test.sh\n"
     "sbatch: error: Batch job submission failed: Invalid GRES specification (with and without type identification)",
     SLURM, "(`--gpu=`)"),

    # --- the GPU is there, CUDA_VISIBLE_DEVICES hides it -------------------------------------------------------
    # https://github.com/pytorch/examples/issues/115 (one TITAN X, CUDA_VISIBLE_DEVICES=2 from the README)
    ("(py35) ~/pytorch/examples/mnist$ CUDA_VISIBLE_DEVICES=2 python main.py\n"
     "THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=109 error=38 : no CUDA-capable device is detected\n"
     "Files already downloaded\n~/pytorch/examples/mnist$ nvidia-smi\n"
     "| NVIDIA-SMI 375.39                 Driver Version: 375.39                    |\n"
     "|   0  TITAN X (Pascal)    Off  | 0000:01:00.0      On |                  N/A |",
     NODEV, "CUDA_VISIBLE_DEVICES"),
    # https://github.com/KeYang8/WITT/issues/34 (is_available() True, then no GPUs: os.environ["CUDA_VISIBLE_DEVICES"])
    ("RuntimeError: No CUDA GPUs are available torch.cuda.is_available() is Ture Why did this error occur",
     NODEV, "CUDA_VISIBLE_DEVICES"),
    # https://github.com/thuml/Time-Series-Library/issues/10 ("removing export CUDA_VISIBLE_DEVICES=2 from the bash
    # script" fixed it; the log itself shows torch's wording only)
    ("CUDA AVAILABLE:\nFalse\n\nCUDA VERSION:\n11.3\n\nCUDA DEVICE:\nTraceback (most recent call last):\n"
     "  File \"run.py\", line 17, in <module>\n    print(torch.cuda.get_device_name(torch.cuda.current_device()))\n"
     "  File \"C:\\Users\\admin\\anaconda3\\envs\\TN2\\lib\\site-packages\\torch\\cuda\\__init__.py\", line 216, in "
     "_lazy_init\n    torch._C._cuda_init()\nRuntimeError: No CUDA GPUs are available",
     NODEV, "CUDA_VISIBLE_DEVICES hides it"),
    # https://github.com/thuml/Anomaly-Transformer/issues/74 (is_available() True in the shell, the script's
    # CUDA_VISIBLE_DEVICES)
    ("installed: python3.6.13  cuda10.2 pytorch1.8.0\ntorch.cuda.is_available(): True\n\nbut:\n"
     "RuntimeError: No CUDA GPUs are available",
     NODEV, "CUDA_VISIBLE_DEVICES"),

    # --- the build looks in /usr/local/cuda, the toolkit is elsewhere -------------------------------------------
    # https://github.com/Microway/gpu-burn/issues/2 (module cuda/8.0.61 in /opt/common; the Makefile's fixed path;
    # its CUDAPATH variable)
    ("$ module load cuda/8.0.61\n$ module load cudnn/v7.0\n$ make\n"
     "PATH=.:/usr/bin:/opt/common/cuda/cuda-8.0.61/bin:/opt/local/bin:/usr/local/bin:/usr/bin "
     "/usr/local/cuda/bin/nvcc -gencode=arch=compute_20,code=sm_20 -I. -I/usr/local/cuda/include --fatbin "
     "compare.cu -o gpu_burn.cuda_kernel\n"
     "/bin/sh: /usr/local/cuda/bin/nvcc: No such file or directory\nmake: *** [gpu_burn.cuda_kernel] Error 127",
     "torch.nvcc_not_found", "make CUDAPATH="),
    # https://github.com/cBio/cbio-cluster/issues/90 (the cuda/5.5 module, CUDA_HOME=/usr/local/cuda-5.5; nodes
    # without the /usr/local/cuda link fail). [r14 producers] "Error launching CUDA compiler" is OpenMM's: its own toolkit
    # setting is OPENMM_CUDA_COMPILER (knowledge/producers.yaml), now named first; the module's nvcc is on PATH here
    ("Exception: Error launching CUDA compiler: 32512\nsh: /usr/local/cuda/bin/nvcc: No such file or directory\n\n"
     "I'm using an interactive session with tcsh, and with the \"cuda/5.5\" module loaded, $CUDA_HOME set to "
     "/usr/local/cuda-5.5, and /usr/local/cuda-5.5/bin included in $PATH.",
     "torch.nvcc_not_found", 'OPENMM_CUDA_COMPILER="$(which nvcc)"'),
    # https://github.com/tonyyxliu/CUHKSZ-CSC4005/issues/3 (nvcc not on PATH on the cluster: adding the HPC SDK's
    # bin directory to PATH fixed it)
    ("[118010200@node21 CSC4005-resources]$ nvcc --version\nbash: nvcc: command not found...\n"
     "[118010200@node21 CSC4005-resources]$ pgc++ --version\nbash: pgc++: command not found...",
     "shell.nvcc_not_found", "puts the toolkit's bin on PATH"),

    # --- torch and torchvision not a pair ----------------------------------------------------------------------
    # https://github.com/nolanaatama/sd-1click-colab/issues/30 (a Colab session's torch 11.7 beside torchvision 11.8;
    # the notebook's setup installing the pair fixed it)
    ("  File \"/usr/local/lib/python3.9/dist-packages/torchvision/extension.py\", line 80, in _check_cuda_version\n"
     "    raise RuntimeError(\nRuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA "
     "versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA Version=11.8. Please reinstall the torchvision "
     "that matches your PyTorch install.",
     "torchvision.other_cuda", "torchvision --index-url https://download.pytorch.org/whl/cu$(echo 11.7"),
    # https://github.com/cj-mills/pytorch-mask-rcnn-tutorial-code/pull/1 (torchvision 0.16+ says "major versions"; one
    # index for the pair fixed it)
    ("RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch "
     "has CUDA Version=11.8 and torchvision has CUDA Version=12.1. Please reinstall the torchvision that matches your "
     "PyTorch install.",
     "torchvision.other_cuda", "torchvision --index-url https://download.pytorch.org/whl/cu$(echo 11.8"),
    # https://github.com/deforum/deforum-stable-diffusion/issues/346 (the notebook's install, fixed upstream)
    ("DeforumStableDiffusion reports me an error : RuntimeError: Detected that PyTorch and torchvision were compiled "
     "with different CUDA major versions. PyTorch has CUDA Version=12.1 and torchvision has CUDA Version=11.8. Please "
     "reinstall the torchvision that matches your PyTorch install",
     "torchvision.other_cuda", "torchvision --index-url"),

    # https://github.com/deepbeepmeep/Wan2GP/issues/1701 (torch 2.10.0 with torchaudio 2.11; `torchaudio==2.10` fixed it)
    ("`pip install torch==2.10.0 torchvision torchaudio --index-url https://download.pytorch.org/whl/cu130`\n\n"
     "On Ubuntu 24.04, this results in torchaudio 2.11.x being installed, which appears to be incompatible with torch "
     "2.10.0.\n`OSError: ~/miniconda3/envs/wan2gp/lib/python3.11/site-packages/torchaudio/lib/libtorchaudio.abi3.so: "
     "undefined symbol: torch_dtype_float4_e2m1fn_x2`",
     "torch.extension_abi", "pip install \"torchaudio==$(python -c"),
    # https://github.com/XDynames/SAI-app/issues/15 (torchaudio==0.8.1 on a Python newer than it: the project moved to
    # newer pins)
    ("ERROR: Could not find a version that satisfies the requirement torchaudio==0.8.1 (from versions: 0.11.0, "
     "0.11.0+cpu, 0.11.0+cu102, 0.11.0+cu113, 0.12.0, 0.12.0+cu113, 0.12.1, 0.13.0, 0.13.0+cu117, 0.13.1, 2.0.0, "
     "2.0.0+cu118, 2.0.1, 2.0.1+cu118)\nERROR: No matching distribution found for torchaudio==0.8.1",
     WHEEL, "or move to a newer torch release"),

    # https://github.com/davidtvs/pytorch-lr-finder/issues/17 (Colab's torchvision 0.4.2 beside torch 1.2.0: `pip install
    # torch==1.2.0 torchvision==0.4.0` together)
    ("`!pip install https://download.pytorch.org/whl/cu100/torch-1.2.0-cp36-cp36m-manylinux1_x86_64.whl && pip install "
     "https://download.pytorch.org/whl/cu100/torchvision-0.4.0-cp36-cp36m-manylinux1_x86_64.whl`\n\ngives the error\n\n"
     "ERROR: torchvision 0.4.2 has requirement torch==1.3.1, but you'll have torch 1.2.0 which is incompatible..",
     "python.torch_companion_pair_mismatch", 'pip install "torch==1.2.0" torchvision'),
    # https://github.com/castorini/howl/issues/34 (the pair from the previous-versions page: 1.5.1/0.6.1 or 1.5.0/0.6.0)
    ("ERROR: torchvision 0.6.1 has requirement torch==1.5.1, but you'll have torch 1.5.0 which is incompatible.",
     "python.torch_companion_pair_mismatch", 'pip install "torch==1.5.0" torchvision'),
    # https://github.com/Lightning-AI/pytorch-lightning/issues/739 (unpinned requirements: torchvision 0.4.2, torch 1.4.0)
    ("Running pip -r requirements.txt throws the following error \n\n> ERROR: torchvision 0.4.2 has requirement "
     "torch==1.3.1, but you'll have torch 1.4.0 which is incompatible.",
     "python.torch_companion_pair_mismatch", 'pip install "torch==1.4.0" torchvision'),

    # --- conda picked pytorch's CPU build for a CUDA install -----------------------------------------------------
    # https://github.com/conda/conda/issues/11001 (cudatoolkit=10.1 with pytorch 1.10, which has no cuda 10.1 build)
    ("(sp) C:\\Users\\zsp>conda install pytorch torchvision torchaudio cudatoolkit=10.1 -c pytorch\n"
     "## Package Plan ##\n\n  environment location: E:\\Anaconda3\\envs\\sp\n\n  added / updated specs:\n"
     "    - cudatoolkit=10.1\n    - pytorch\n    - torchaudio\n    - torchvision\n\n"
     "The following NEW packages will be INSTALLED:\n\n  cpuonly            pytorch/noarch::cpuonly-2.0-0\n"
     "  pytorch            pytorch/win-64::pytorch-1.10.0-py3.6_cpu_0\n"
     "  pytorch-mutex      pytorch/noarch::pytorch-mutex-1.0-cpu\n"
     "  torchvision        pytorch/win-64::torchvision-0.11.0-py36_cpu",
     "conda.torch_cpu_build_chosen", "=*cuda*"),
    # https://github.com/pytorch/pytorch/issues/92273 (Windows, cudatoolkit=10.2 and pytorch 1.12.1: the CPU build;
    # the download table's form)
    ("  added / updated specs:\n    - cudatoolkit=10.2\n    - pytorch==1.12.1\n\n"
     "    pytorch-1.12.1             |      py3.8_cpu_0       133.8 MB  pytorch\n"
     "    pytorch-mutex-1.0          |              cpu           3 KB  pytorch",
     "conda.torch_cpu_build_chosen", "=*cuda*"),

    # --- the driver is older than the torch installed: who can change what -----------------------------------------
    # https://github.com/IEIT-Yuan/Yuan-2.0/issues/65 (a CUDA 12.1 container on a CUDA 11.0 driver: "建议gpu驱动更新到535",
    # solved)
    ("/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:124: UserWarning: CUDA initialization: The NVIDIA "
     "driver on your system is too old (found version 11000). Please update your GPU driver by downloading and "
     "installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
     "https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver. "
     "(Triggered internally at /opt/pytorch/pytorch/c10/cuda/CUDAFunctions.cpp:108.)",
     "runtime.insufficient_driver", "upgrade the driver to one for that CUDA"),
    # https://github.com/googlecolab/colabtools/issues/1685 (Colab's driver ran CUDA 10.1; `!pip install torch` took a
    # CUDA 10.2 build: the runtime's driver is not the user's to change)
    ("!pip install torch torchvision\nimport torch\ntorch.cuda.ipc_collect()\n```\nthrows the error :\n```\n"
     "RuntimeError: The NVIDIA driver on your system is too old (found version 10010). Please update your GPU driver by "
     "downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, "
     "go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA "
     "driver.\n```\nin colab.",
     "runtime.insufficient_driver", "A hosted runtime's driver cannot be upgraded"),
    # https://github.com/astral-sh/uv/issues/15098 (uv's isolated build of auto_gptq; torch 2.9 is in the .venv)
    ("uv pip install --upgrade auto_gptq\nResolved 66 packages in 1.25s\n  × Failed to build `auto-gptq==0.7.1`\n"
     "  ├─▶ The build backend returned an error\n"
     "  ╰─▶ Call to `setuptools.build_meta:__legacy__.build_wheel` failed (exit status: 1)\n\n      [stdout]\n"
     "      Building cuda extension requires PyTorch (>=1.13.0) being installed, please install PyTorch first: No\n"
     "      module named 'torch'\n\nuv pip show torch\nName: torch\nVersion: 2.9.0.dev20250805+cu129",
     "pip.build_isolation_hides_torch", "--no-build-isolation"),

    # --- a notebook kernel on another Python ---------------------------------------------------------------------
    # https://github.com/jupyter/notebook/issues/4629 ("the location of the executable was from a different conda
    # environment": Kernel > Change kernel)
    ("ModuleNotFoundError                       Traceback (most recent call last)\n"
     "<ipython-input-10-eb42ca6e4af3> in <module>\n----> 1 import torch\nModuleNotFoundError: No module named 'torch'",
     "python.notebook_kernel_other_env", "ipykernel install --user"),
    # https://github.com/jupyterlab/jupyterlab/issues/7450 (ipython still on the base Python 3.6.5)
    ("(pytorch12) isaac@AIServer01:~$ ipython\nPython 3.6.5 |Anaconda, Inc.| (default, Apr 29 2018, 16:14:56) \n"
     "IPython 6.4.0 -- An enhanced Interactive Python. Type '?' for help.\n\nIn [1]: import torch\n"
     "---------------------------------------------------------------------------\n"
     "ModuleNotFoundError                       Traceback (most recent call last)\n"
     "<ipython-input-1-eb42ca6e4af3> in <module>()\n----> 1 import torch\n\n"
     "ModuleNotFoundError: No module named 'torch'",
     "python.notebook_kernel_other_env", "ipykernel install --user"),

    # https://github.com/vllm-project/vllm/issues/5736 (the torchvision that matches torch)
    ("RuntimeError: operator torchvision::nms does not exist",
     "torchvision.ops_without_cuda", "Reinstall torch, torchvision and torchaudio together"),
    # https://github.com/zylo117/Yet-Another-EfficientDet-Pytorch/issues/696 (older torch's wording; "they have
    # strong version binding relationship")
    ("RuntimeError: No such operator torchvision::nms\ntorch 1.4.0+cu92\ntorchvision 0.5.0",
     "torchvision.ops_without_cuda", "Reinstall torch, torchvision and torchaudio together"),
]


test_first_answer = first_answer_tests(CASES)


def test_cuda_visible_devices_zero_or_a_slurm_job_is_not_evidence_of_hiding():
    """CUDA_VISIBLE_DEVICES=0 names the first GPU, and Slurm sets the variable itself: neither shows a hidden GPU."""
    from cudaenv.knowledge.explain import explain

    for text in ("CUDA_VISIBLE_DEVICES=0 python train.py\nRuntimeError: CUDA error: no CUDA-capable device is detected",
                 "srun --gres=gpu:1 python t.py\nCUDA_VISIBLE_DEVICES=1\n"
                 "RuntimeError: CUDA error: no CUDA-capable device is detected"):
        m = explain(text)[0]
        assert m.id == NODEV and "hidden" not in m.title, m.title


def test_torch_release_python_example():
    from cudaenv.knowledge.explain.derive import _torch_python

    assert [_torch_python(v) for v in ((1, 3, 1), (1, 8, 1), (1, 13, 1), (2, 4, 0), (2, 6, 0), ())] == [
        "3.7", "3.8", "3.10", "3.10", "3.12", "3.12"]


def test_a_build_inside_a_notebook_is_build_isolation_not_the_kernel():
    """`!pip install flash-attn` in a notebook: pip's isolated build lacks torch, the kernel's Python is not the cause."""
    from cudaenv.knowledge.explain import explain

    text = ("In [3]: !pip install flash-attn\nCollecting flash-attn\n  Getting requirements to build wheel ... error\n"
            "  error: subprocess-exited-with-error\n  ModuleNotFoundError: No module named 'torch'\n")
    assert [m.id for m in explain(text)] == ["pip.build_isolation_hides_torch"]


def test_companion_release_maps_to_its_torch():
    from cudaenv.knowledge.explain.derive import _torch_release_of

    assert _torch_release_of("torchvision==0.15.2", (0, 15, 2)) == (2, 0)
    assert _torch_release_of("torchvision==0.9.1", (0, 9, 1)) == (1, 8)
    assert _torch_release_of("torchaudio==0.8.1", (0, 8, 1)) == (1, 8)
    assert _torch_release_of("torch==1.8.1", (1, 8, 1)) == (1, 8, 1)
