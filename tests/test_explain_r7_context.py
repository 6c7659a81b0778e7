"""Issue 18, round 7, helper [context]: the answer follows WHERE the program ran.

"No device", "unknown error", "driver not loaded" and "driver too old" have one fix on a plain Linux host
and another under WSL 2 (the Windows driver through /usr/lib/wsl/lib, no Linux driver inside WSL), in an
Apptainer/Singularity container (`--nv`), in a Slurm job (a GPU request), in a container whose driver is the
host's. The log shows the environment even when it never names it: WSL's paths, kernel and dxg lines, WSL's
nvidia-smi (Linux version beside a Windows driver version), Apptainer's prompt, srun's error prefix.
``extract.facts`` reads them (``platform``, ``container_kind``, ``scheduler``); the entries' variants put
that environment's fix first. Each tuple is a trimmed verbatim excerpt of the thread above it: the first
environment answer must be ``want_id`` and its first fix line must hold ``want_fix``.
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain.extract import facts
from cudaenv.knowledge.explain.text import LogText
from explain_answers import assert_first_answer, first_answer_tests

CASES = [
    # --- WSL 2: no device because the libcuda loaded is not WSL's ------------------------------------------
    # https://github.com/numba/numba/issues/9032 (numba on WSL 2, torch works: WSL's libcuda not the one numba loads;
    # the fix the RAPIDS and numba threads converge on is LD_LIBRARY_PATH=/usr/lib/wsl/lib, NUMBA_CUDA_DRIVER)
    ("Numba+Cuda doesn't work for me on WSL 2 (but PyTorch+Cuda works fine)\n"
     "  File \"/home/jorlow/mambaforge/envs/course22p2/lib/python3.10/site-packages/numba/cuda/cudadrv/driver.py\", "
     "line 258, in ensure_initialized\n    self.cuInit(0)\n"
     "numba.cuda.cudadrv.driver.CudaAPIError: [100] Call to cuInit results in CUDA_ERROR_NO_DEVICE",
     "runtime.no_device", "NUMBA_CUDA_DRIVER=/usr/lib/wsl/lib/libcuda.so.1"),
    # https://github.com/huggingface/candle/issues/2282 (Rust cudarc on WSL2; the reporter had reinstalled per
    # NVIDIA's WSL guide; the family's fix: no Linux driver in WSL, WSL's libcuda first)
    ("I am running on *Ubuntu 20.04 on WSL2* (Windows 11 host) and having trouble with candle on cuda.\n"
     "Error: DriverError(CUDA_ERROR_NO_DEVICE, \"no CUDA-capable device is detected\")",
     "runtime.no_device", "/usr/lib/wsl/lib"),
    # https://github.com/NVIDIA/cuml/issues/6218 (a venv under /mnt/c: "incorrect driver installed in the WSL2
    # environment", worked around by putting /usr/lib/wsl/lib first)
    ("  File \"/mnt/c/Users/Hongb/Documents/Git/hongbomiao.com/machine-learning/hm-cuml/.venv/lib/python3.12/site-packages/"
     "numba_cuda/numba/cuda/cudadrv/driver.py\", line 258, in ensure_initialized\n"
     "    raise CudaSupportError(f\"Error at driver init: {description}\")\n"
     "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in CUDA_ERROR_NO_DEVICE (100)",
     "runtime.no_device", "LD_LIBRARY_PATH=/usr/lib/wsl/lib"),
    # https://github.com/oobabooga/textgen/issues/458 ("I'm using wsl 1 on windows 10": WSL 1 has no GPU)
    ("I'm trying to install the webui on wsl but no luck. I get the error \"RuntimeError: Found no NVIDIA driver on your "
     "system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\""
     " \nI tried reinstalling multiple times and I always get cuda errors. I'm using wsl 1 on windows 10.",
     "torch.no_driver", "wsl --set-version DISTRO 2"),
    # https://github.com/CompVis/stable-diffusion/issues/161 ("SOLVED: I was running WSL 1, updated to WSL2", though
    # the report said WSL2: the first line checks the version first)
    ("Running stable diffusion locally with Ubuntu1804/WSL2 on windows 10 21H2 (19044.1288). Have a RTX3090 with latest "
     "drives installed.\nIt then stops with RuntimeError: Found no NVIDIA driver on your system.",
     "torch.no_driver", "wsl -l -v"),
    # https://github.com/NVIDIA/cudf/issues/13388 (RAPIDS' WSL2 install; the prompt under /mnt/d shows WSL)
    ("LAPTOP-DNCQ5AAC:/mnt/d/cuda/rapids/ML_on_clamp$ python\n>>> import cudf\n"
     "numba.cuda.cudadrv.driver.CudaAPIError: [100] Call to cuInit results in CUDA_ERROR_NO_DEVICE",
     "runtime.no_device", "/usr/lib/wsl/lib"),
    # https://github.com/microsoft/WSL/issues/9272 (WSL's nvidia-smi: Linux 525.60.13 beside the Windows 522.25)
    ("root@LAPTOP-UDGOEVA7:~# nvidia-smi\n"
     "| NVIDIA-SMI 525.60.13    Driver Version: 522.25       CUDA Version: 11.8     |\n"
     "E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:267] failed call to cuInit: CUDA_ERROR_NO_DEVICE: "
     "no CUDA-capable device is detected",
     "runtime.no_device", "/usr/lib/wsl/lib"),
    # https://github.com/microsoft/WSL/issues/6772 (nvidia-smi failed under WSL: a Windows build's regression,
    # WSL's "known issue for this build", fixed by updating Windows)
    ("Linux version 5.4.91-microsoft-standard-WSL2 (oe-user@oe-host) (gcc version 9.3.0 (GCC)) #1 SMP\n"
     "MyId@DESKTOP-930EG0A:~$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
     "Make sure that the latest NVIDIA driver is installed and running.\n"
     "cudaGetDeviceCount returned 100\n-> no CUDA-capable device is detected",
     "driver.not_loaded", "update the NVIDIA driver on Windows"),

    # --- Apptainer/Singularity: the driver comes in only with --nv ------------------------------------------
    # https://github.com/rickstaa/panda-autograsp/issues/150 ("you most likely forgot to call the container using
    # the --nv flag"; error 35 is also what the runtime says with no driver at all)
    ("CUDA driver version is insufficient for CUDA runtime version\n"
     "If you get this error while working in the singularity container",
     "runtime.insufficient_driver", "apptainer exec --nv"),
    # https://github.com/NVIDIA/nvidia-docker/issues/24 (docker run with --device /dev/nvidia* only: "You need to use
    # our nvidia-docker wrapper ... we need to mount the driver libraries from the host inside the container")
    ("    ./deviceQuery Starting...\n    CUDA Device Query (Runtime API) version (CUDART static linking)\n"
     "    cudaGetDeviceCount returned 35\n    -> CUDA driver version is insufficient for CUDA runtime version\n"
     "    Result = FAIL\n\n    docker run --device /dev/nvidia-uvm:/dev/nvidia/uvm --device /dev/nvidia0:/dev/nvidia0 "
     "--device  \\\n    /dev/nvidiactl:/dev/nvidiactl -it nvidia/cuda:7.0-cudnn3-devel bash",
     "runtime.insufficient_driver", "docker run --gpus all"),
    # https://github.com/tmonjo/DeepSpaCE/issues/7 (open: torch's "Found no NVIDIA driver" in the project's image run
    # with apptainer on a GPU machine; the reporter's script is not shown, the family's first check is --nv)
    ("I am trying to run the deepspace using apptainer using the container image provided, but it says no NVIDIA "
     "driver found.\nAssertionError:\nFound no NVIDIA driver on your system. Please check that you\nhave an NVIDIA GPU "
     "and installed a driver from\nhttp://www.nvidia.com/Download/index.aspx",
     "torch.no_driver", "apptainer exec --nv"),
    # https://github.com/nanoporetech/dorado/issues/319 (torch's "CUDA unknown error" inside Apptainer in a Slurm job;
    # closed without a stated fix): inside a container the driver is the host's, so the first fix is on the host
    ("[W CUDAFunctions.cpp:109] Warning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly "
     "set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available "
     "devices to be zero. (function operator())\n[2023-08-02 14:54:10.006] [error] CUDA device requested but no "
     "devices found.\nApptainer> echo $CUDA_VERSION \n11.8.0\nApptainer> echo $CUDA_VISIBLE_DEVICES \n0",
     "driver.unknown_error", "On the host"),

    # --- Hosted notebooks: a GPU runtime, and CUDA_VISIBLE_DEVICES set by the notebook -----------------------
    # https://github.com/AliaksandrSiarohin/first-order-model/issues/285 ("In colab?" "Yes in colab" -- "You should
    # change device to gpu in settings"; the free tier's usage limits then refused a GPU)
    ("RuntimeError: cuda runtime error (100) : no CUDA-capable device is detected at "
     "/pytorch/aten/src/THC/THCGeneral.cpp:47\nYes in colab, can it run without gpu?",
     "runtime.no_device", "Change runtime type"),
    # https://github.com/lucidrains/DALLE-pytorch/issues/111 (GPU runtime selected; "Please remove the line
    # os.environ["CUDA_VISIBLE_DEVICES"] = "1" from the beginning of the notebook")
    ("/usr/local/lib/python3.7/dist-packages/torch/cuda/__init__.py in _lazy_init()\n--> 170         "
     "torch._C._cuda_init()\n\nRuntimeError: No CUDA GPUs are available\n\nThis happened after running the line:\n"
     "images = torch.from_numpy(images).to(torch.float32).permute(0, 3, 1, 2).cuda()\n\nin rainbow_dalle.ipynb colab.",
     "runtime.no_device", 'os.environ["CUDA_VISIBLE_DEVICES"]'),

    # --- Kubernetes: a pod sees a GPU only when its spec requests nvidia.com/gpu ------------------------------
    # https://github.com/vllm-project/vllm/issues/3019 (a pod on the GPU node, no GPU limit shown)
    ("I am trying to run this on Kubernetes which has GPU available\n\nThe image I am using:\n\n"
     "        image: nvidia/cuda:12.3.1-devel-ubi8\n\nRuntimeError: No CUDA GPUs are available",
     "runtime.no_device", "nvidia.com/gpu: 1"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/165 (the pod asks for nvidia.com/gpu: the limit is there,
    # so the answer must not say it is missing)
    ("      resources:\n        limits:\n          nvidia.com/gpu: 1 # requesting 2 GPu\n"
     "Name:         gpu-pod\nNamespace:    default\n"
     "RuntimeError: No CUDA GPUs are available",
     "runtime.no_device", "`nvidia-smi` must list the GPU"),

    # --- Slurm: a job sees only the GPUs it requested ---------------------------------------------------------
    # https://github.com/PlasmaControl/DESC/issues/1325 ("NERSC Slurm script": JAX in an srun step, nvidia-smi exit 6)
    ("E external/xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no "
     "CUDA-capable device is detected\nCUDA backend failed to initialize: FAILED_PRECONDITION: No visible GPU devices.\n"
     "subprocess.CalledProcessError: Command '['nvidia-smi']' returned non-zero exit status 6.\n"
     "srun: error: nid003677: task 0: Exited with exit code 1",
     "runtime.no_device", "#SBATCH --gres=gpu:1"),
    # https://github.com/phlippe/uvadlc_notebooks/issues/104 ("#SBATCH --gres=gpu:1 only works for interactive nodes
    # on Snellius. In a normal job script, one should instead use #SBATCH --gpus=1. Otherwise, CUDA will throw a
    # RuntimeError saying that no GPUs are available.") -- the request the log shows is in the form that cluster
    # ignores, so only the generic answer may be given, never "no GPU requested"
    ("#SBATCH --partition=gpu_shared_course\n#SBATCH --gres=gpu:1\nRuntimeError: No CUDA GPUs are available",
     "runtime.no_device", "`nvidia-smi` must list the GPU"),
    # https://github.com/aws/aws-parallelcluster/issues/1768 (nvidia-smi and torch fail right after `salloc`, whose
    # shell stays on the head node; the allocation asked for no GPU either)
    ("(base) ubuntu@ip-10-0-0-102:~$ salloc\n(base) ubuntu@ip-10-0-0-102:~$ nvidia-smi\n"
     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
     "Make sure that the latest NVIDIA driver is installed and running.",
     "driver.not_loaded", "start the program with `srun`"),
]


test_first_answer_follows_the_environment = first_answer_tests(CASES)


# Which environment the log shows, from its own traces (each from the thread named; trimmed verbatim)
FACTS = [
    # microsoft/WSL#11589: WSL's nvidia-smi, Linux 545.46 beside the Windows driver 546.80
    ("| NVIDIA-SMI 545.46                 Driver Version: 546.80       CUDA Version: ERR!     |", "platform", "wsl"),
    # modular/modular#5107: "on WSL2 the driver version reported by nvidia-smi does not include the patch-level version"
    ("| NVIDIA-SMI 550.163.01             Driver Version: 555.85         CUDA Version: 12.5     |", "platform", "wsl"),
    # microsoft/WSL#40680: the dxg kernel lines
    ("[    1.906866] misc dxg: dxgk: dxgkio_query_adapter_info: Ioctl failed: -22", "platform", "wsl"),
    # a Linux host's nvidia-smi (ai4d-iasc/trixie#6): the same number twice, not WSL
    ("| NVIDIA-SMI 418.67       Driver Version: 418.67       CUDA Version: 10.1     |", "platform", ""),
    ("| NVIDIA-SMI 525.85.12    Driver Version: 525.85.12    CUDA Version: 12.0     |", "platform", ""),
    # nanoporetech/dorado#319, google/deepvariant#923 (Singularity prompt inside a Slurm job)
    ("Apptainer> echo $CUDA_VISIBLE_DEVICES\n0", "container_kind", "apptainer"),
    ("'PROMPT_COMMAND': 'PS1=\"Singularity> \"; unset PROMPT_COMMAND', 'SLURM_TOPOLOGY_ADDR': 'iscf031'",
     "scheduler", "slurm"),
    ("srun: error: nid003677: task 0: Exited with exit code 1", "scheduler", "slurm"),
    # NVIDIA/pyxis#47
    ("SLURM + pyxis-enroot, \"no CUDA-capable device is detected\"", "container_kind", "enroot"),
    # docker's CDI device name is not Kubernetes
    ("podman run --device nvidia.com/gpu=all ubuntu nvidia-smi", "container_kind", "podman"),
]


@pytest.mark.parametrize("text,name,want", FACTS)
def test_environment_facts(text, name, want):
    assert facts(LogText(text))[name] == want


def test_no_environment_claimed_without_its_evidence():
    """fresh6 a54's log alone: numba's cuInit error and nothing about WSL: the generic answer, whose first line
    still names WSL's fix as a labelled alternative (and claims no WSL)."""
    text = ("numba.cuda.cudadrv.driver.CudaAPIError: [100] Call to cuInit results in CUDA_ERROR_NO_DEVICE\n"
            "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in "
            "CUDA_ERROR_NO_DEVICE (100)")
    m = assert_first_answer(text, "runtime.no_device", "under WSL 2")
    assert "WSL" not in m.title
