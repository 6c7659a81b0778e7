"""Round 15, situations: the same cause in another place gets that place's first fix (knowledge/situations.yaml,
explain/situations.py, docs/explain.md "Situations decide the first fix").

Real excerpts (verbatim, trimmed), each with its thread. ``SITUATED``: an entry of a cause class answering a log from a
place the table has a line for, with no variant of its own for that place: the situation's line comes first.
``ENTRY_WINS``: the entry's chosen variant was written for that place (or chosen by the log's evidence): its own
first line stays. ``GUARDS``: near misses and program bugs that keep their answers.
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.situations import classes_of, decide
from explain_answers import first_answer_tests, first_fix_line

SITUATED = [
    # ---- Docker: gpu-not-visible -> the container's GPU setup, never "install the driver" first
    # https://github.com/replicate/cog/issues/280 (cog starts a Docker image; the fix: the container started with GPUs)
    ("""$ sudo cog predict r8.im/allenhung1025/looptest@sha256:f5cd715e99046e0513fe2b4034e8f7d8c102525b02f49efb52b05f46fcb9ea83
Starting Docker image r8.im/allenhung1025/looptest@sha256:f5cd715e99046e0513fe2b4034e8f7d8c102525b02f49efb52b05f46fcb9ea83 and running setup()...
No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'
Traceback (most recent call last):
...
AssertionError:
Found no NVIDIA driver on your system. Please check that you
have an NVIDIA GPU and installed a driver from
http://www.nvidia.com/Download/index.aspx
ⅹ Failed to get container status: exit status 1
""", "torch.no_driver", "docker run --gpus all"),
    # https://github.com/junhyung-SPALab/D-Align/issues/1 (fresh14 m66: nvidia-docker and the GPU option)
    ("""No CUDA runtime is found in docker.
inside the container while configuring the environment?
No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'
Traceback (most recent call last):
  File "setup.py", line 69, in <module>
    ext_modules=get_extensions(),
  File "setup.py", line 47, in get_extensions
    raise NotImplementedError('Cuda is not availabel')
NotImplementedError: Cuda is not availabel
""", "torch.no_cuda_runtime", "docker run --gpus all"),
    # ---- Docker: CUDA error 304 at start-up -> the container's seccomp profile
    # https://github.com/abetlen/llama-cpp-python/issues/645 (--security-opt seccomp=unconfined)
    ("""docker run --gpus=all -ti -p 8080:8080 \\
  -v $PWD/model.bin:/content/saved-model/model.bin --cap-add SYS_RESOURCE -e USE_MLOCK=0 -e MODEL=/content/saved-model/model.bin llama-cpp-python bash

python3 -m llama_cpp.server
CUDA error 304 at /tmp/pip-install-jyfgheyj/llama-cpp-python_1b0933bab9d24ed297e7d077c7ec53f5/vendor/llama.cpp/ggml-cuda.cu:5065: OS call failed or operation not supported on this OS
""", "status.operation_not_supported", "seccomp=unconfined"),
    # https://github.com/NVIDIA/OpenShell/issues/1696 (the sandbox's seccomp profile blocks memfd_create)
    ("""- **Docker driver**, GPU via CDI (`nvidia.com/gpu=all`)
- Ubuntu 24.04, **kernel 6.8**, NVIDIA driver **570.169**, GPU **RTX 5080**
[Error] [omni.rtx] CUDA error 304: cudaErrorOperatingSystem - OS call failed or operation not supported on this OS
[Error] [omni.rtx] Failed to query CUDA device count.
[Error] [ovrtx] createDevices failed -> Failed to setup graphics!
""", "status.operation_not_supported", "seccomp"),
    # ---- a `docker build`: the toolkit the image sees while it is built
    # https://github.com/dusty-nv/jetson-containers/issues/78 (fresh14 m68: default runtime nvidia, then reboot)
    ("""I have error build docker image from file Dockerfile.opencv.
CMake OpenCV dont found path to libraries CUDA
CMake Error: The following variables are used in this project, but they are set to NOTFOUND.
Please set them or make sure they are set and tested correctly in the CMake files:
CUDA_cublas_LIBRARY (ADVANCED)
    linked by target "opencv_cudev" in directory /opt/opencv_contrib/modules/cudev
""", "cmake.cuda_library_notfound", "default-runtime"),
    # ---- Kubernetes
    # https://github.com/grgalex/nvshare/issues/6 (GKE: the driver is mounted only into pods that request nvidia.com/gpu)
    ("""GKE: Pods cannot access/detect GPU device + drive on GPU nodes
File "/opt/conda/lib/python3.7/site-packages/torch/cuda/__init__.py", line 214, in _lazy_init torch._C._cuda_init() RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx
GKE k8s version:  1.25.10-gke.2700
""", "torch.no_driver", "nvidia.com/gpu: 1"),
    # https://github.com/kubeflow/notebooks/issues/68 (a notebook pod without the GPU: nvidia-smi not in the pod)
    ("""Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx
no nvidia-smi in container (`kubectl -n kubeflow-user-example-com exec -it test-gpu-0 -- bash`)
~$ nvidia-smi
bash: nvidia-smi: command not found
""", "torch.no_driver", "nvidia.com/gpu: 1"),
    # https://github.com/scverse/scvi-tools/pull/3799 (GKE, nvidia.com/gpu: 1 requested; an image not FROM nvidia/cuda)
    ("""On Kubernetes (GKE, EKS, AKS), the NVIDIA device plugin allocates GPUs via CDI and does not set NVIDIA_VISIBLE_DEVICES.
Run scvi-tools on GKE with nvidia.com/gpu: 1 — model.to_device(0)
raises RuntimeError: Found no NVIDIA driver on your system.
""", "torch.no_driver", "runtimeClassName: nvidia"),
    # ---- WSL: "driver version is insufficient" where Windows does not pass the GPU through
    # https://github.com/NVIDIA/nvidia-docker/issues/1437 (Windows build 18363: no GPU in WSL 2 before the builds that have it)
    ("""I'm running the program on **Ubuntu 18.04** (On windows with wsl2) 
CUDA error at ../../common/inc/helper_cuda.h:777 code=35(cudaErrorInsufficientDriver) "cudaGetDeviceCount(&device_count)"
Windows 10 Version 1909 **build 18363**
""", "runtime.insufficient_driver", "winver"),
    # https://github.com/microsoft/WSL/issues/8174 (Windows 10 19043, WSL 2)
    ("""1. Microsoft Windows [Version 10.0.19043.1586]
2. WSL version 2
3. Kernel version: Linux version 5.10.16.3-microsoft-standard-WSL2 
cudaGetDeviceCount returned 35
-> CUDA driver version is insufficient for CUDA runtime version
Result = FAIL
""", "runtime.insufficient_driver", "winver"),
    # https://github.com/microsoft/WSL/issues/6122 (a WSL 1 kernel: 4.4.0-20236-Microsoft)
    ("""Whether the issue is on WSL 2 and/or WSL 1: Linux version 4.4.0-20236-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #1000-Microsoft Thu Oct 09 16:31:00 PST 2020
CUDA throw cudaErrorInsufficientDriver error
""", "runtime.insufficient_driver", "wsl -l -v"),
    # https://github.com/microsoft/WSL/issues/9254 (WSL 2: the runtime reads driver version 0, torch sees no GPU)
    ("""I tried setting up Pytorch with CUDA in WSL but it just doesn't pick up my GPU. `torch.cuda.is_available()` returns `False`.
Driver Version: 0
Runtime Version: 0
PyTorch version: 1.10.0+cu111
Python platform: Linux-5.10.102.1-microsoft-standard-WSL2-x86_64-with-glibc2.17
Is CUDA available: False
""", "python.torch_cuda_unavailable", "/usr/lib/wsl/lib"),
    # ---- enroot / pyxis
    # https://github.com/NVIDIA/enroot/issues/205 (a non-NVIDIA base image: set NVIDIA_VISIBLE_DEVICES)
    ("""Enroot vs. NCTK/Docker for non-nvidia images
srun \\
  --nodes=1 --gpus=2 \\
  --container-workdir=$(pwd) \\
  --container-mount-home \\
  --container-image="myimage" \\
  --pty bash -i
RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx
""", "torch.no_driver", "NVIDIA_VISIBLE_DEVICES=all"),
]

ENTRY_WINS = [
    # ---- the entry's own variant was written for the place (or chosen by the log's evidence): it stays first
    # https://github.com/apptainer/singularity/issues/5966 (--nv given; the host driver purged and reinstalled)
    (""">>> import torch
>>> torch.cuda.is_available()
/opt/conda/lib/python3.8/site-packages/torch/cuda/__init__.py:52: UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero. (Triggered internally at  /opt/conda/conda-bld/pytorch_1607370172916/work/c10/cuda/CUDAFunctions.cpp:100.)
  return torch._C._cuda_getDeviceCount() > 0
False
singularity exec --nv cpilab_latest.sif python collect_env.py
""", "driver.unknown_error", "purge the driver"),
    # https://github.com/apptainer/singularity/issues/4783 (--nv given; binding libcuda.so.1 by hand solved it)
    ("""singularity -s exec --nv /cvmfs/cms-ib.cern.ch/docker/cmssw/cc7:amd64 bash
cmsenv
./test/slc7_amd64_gcc820/test_detid: error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory
""", "runtime.libcuda_not_found", "--nv"),
    # https://github.com/apptainer/singularity/issues/5337 (no --nv: "use the --nv option")
    ("""Not sure why python 3.6 is there? Does the container require it or is this a singularity issue?
  File "/usr/local/lib/python3.6/dist-packages/pycuda-2019.1.2-py3.6-linux-x86_64.egg/pycuda/driver.py", line 62, in <module>
    from pycuda._driver import *  # noqa
ImportError: libcuda.so.1: cannot open shared object file: No such file or directory
""", "runtime.libcuda_not_found", "--nv"),
    # https://github.com/rickstaa/panda-autograsp/issues/150 ("you most likely forgot to call the container using the --nv flag")
    ("""CUDA driver version is insufficient for CUDA runtime version
If you get this error while working in the singularity container you most likely forgot to call the container using the
""", "runtime.insufficient_driver", "--nv"),
    # https://github.com/vllm-project/vllm/issues/3019 (a pod without the GPU)
    ("""I am trying to run this on Kubernetes which has GPU available
        image: nvidia/cuda:12.3.1-devel-ubi8
RuntimeError: No CUDA GPUs are available
""", "runtime.no_device", "nvidia.com/gpu: 1"),
    # https://github.com/NVIDIA/nvidia-docker/issues/828 (Kubernetes: the device plugin and the node's runtime)
    ("""When I deploy in kubernetes  I get the following error for tensorflow 
"ImportError: libcuda.so.1: cannot open shared object file: No such file or directory"
""", "runtime.libcuda_not_found", "default runtime"),
    # https://github.com/NVIDIA/pyxis/issues/96 (docker export dropped the NVIDIA variables)
    ("""srun --ntasks=1 --container-image=./out.squashfs --container-name=language_model --container-writable --container-workdir=/workspace/bert --container-mounts=./nvidia-smi:/usr/bin/nvidia-smi nvidia-smi
NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system. Please also try adding directory that contains libnvidia-ml.so to your system PATH.
""", "loader.nvml_library_missing", "NVIDIA_VISIBLE_DEVICES=all"),
    # https://github.com/leejet/stable-diffusion.cpp/issues/1352 ("I just needed to add `--gpus all`")
    ("""$ docker run -it --rm ghcr.io/leejet/stable-diffusion.cpp:master-cuda
/sd-cli: error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory
""", "runtime.libcuda_not_found", "docker run --gpus all"),
    # https://github.com/cdcseacave/openMVS/issues/240 (a build in a Docker container: libcuda, the driver's library,
    # named by the log: the entry's stub/driver-path variant, chosen by that evidence)
    ("""CMake Error: The following variables are used in this project, but they are set to NOTFOUND.
Please set them or make sure they are set and tested correctly in the CMake files:
CUDA_CUDA_LIBRARY (ADVANCED)
    linked by target "MVS" in directory /src/openmvs/libs/MVS
I am building OpenMVS in a Docker container based on the [NVIDIA CUDA Docker image](https://hub.docker.com/r/nvidia/cuda/).
""", "cmake.cuda_library_notfound", "stubs"),
    # https://github.com/oobabooga/textgen/issues/458 (WSL 1: no GPU)
    ("""python server.py
Loading llama-7b-hf...
RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx
I'm using wsl 1 on windows 10.
""", "torch.no_driver", "VERSION 2"),
    # https://github.com/NVIDIA/cuml/issues/6218 (WSL 2: a Linux driver's libcuda found before WSL's)
    ("""  File "/mnt/c/Users/Hongb/Documents/Git/hongbomiao.com/machine-learning/hm-cuml/.venv/lib/python3.12/site-packages/numba_cuda/numba/cuda/cudadrv/driver.py", line 258, in ensure_initialized
    raise CudaSupportError(f"Error at driver init: {description}")
numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in CUDA_ERROR_NO_DEVICE (100)
""", "runtime.no_device", "/usr/lib/wsl/lib"),
]

GUARDS = [
    # ---- no situation in the log: the entry's own first line
    # https://github.com/pytorch/pytorch/issues/3989 (bare Ubuntu host; another install of torch solved it)
    ("""I'm trying to set up pyTorch on Ubuntu 16.04. I installed pyTorch with the "get started" instructions for Linux, pip, Python 2.7, CUDA 8.0. I updated my NVIDIA drivers to version 384.98, but I'm still getting this error.
"Found no NVIDIA driver on your system."
""", "torch.no_driver", "`nvidia-smi` must work first"),
    # ---- a Docker container answered by a container entry (no class): untouched
    # https://github.com/floydhub/dockerfiles/issues/3 ("You need to use nvidia-docker to run the GPU version")
    ("""$ sudo docker run  -t -i floydhub/pytorch:latest-gpu-py3 ipython
In [1]: import torch

In [2]: torch.cuda.is_available()
Out[2]: False
""", "container.started_without_gpus", "docker run --gpus all"),
]

# https://github.com/ggml-org/llama.cpp/issues/10739 (fresh9 d75: an illegal address in the Docker image: a program bug)
PROGRAM_BUGS = ["""When I run llamacpp server (using the docker image server-cuda) I get this error after the first token is emitted
/app/ggml/src/ggml-cuda/ggml-cuda.cu:70: CUDA error
jade1        | CUDA error: an illegal memory access was encountered
jade1        |   current device: 0, in function ggml_backend_cuda_synchronize at /app/ggml/src/ggml-cuda/ggml-cuda.cu:2273
jade1        |   cudaStreamSynchronize(cuda_ctx->stream())
"""]

test_situated = first_answer_tests(SITUATED)
test_entry_wins = first_answer_tests(ENTRY_WINS)
test_guards = first_answer_tests(GUARDS)


@pytest.mark.parametrize("text", ENTRY_WINS + GUARDS, ids=[f"{c[1]}-{n}" for n, c in enumerate(ENTRY_WINS + GUARDS)])
def test_entry_keeps_its_first_line(text) -> None:
    """Where the entry's variant was written for the place, or no place is shown, no situation decides."""
    m = next(m for m in explain(text[0]) if m.environment)
    assert not m.values.get("situation"), (m.id, m.values)
    assert "Where it ran decides" not in m.cause


@pytest.mark.parametrize("text", PROGRAM_BUGS)
def test_program_bug_in_a_container_stays_a_verdict(text: str) -> None:
    found = explain(text)
    assert found and not found[0].environment, [m.id for m in found]
    assert not [m.id for m in found if m.environment]


_FACTS = {"platform": "", "container": "", "container_kind": "", "scheduler": ""}


@pytest.mark.parametrize("cls,situation,facts,text", [
    ("gpu-not-visible", "docker", {"container": "yes", "container_kind": "docker"}, "docker run img"),
    ("gpu-not-visible", "kubernetes", {"container": "yes", "container_kind": "kubernetes"}, "kubectl logs pod"),
    ("gpu-not-visible", "apptainer", {"container": "yes", "container_kind": "apptainer"}, "singularity exec img"),
    ("gpu-not-visible", "enroot", {"container": "yes", "container_kind": "enroot"}, "srun --container-image=x"),
    ("gpu-not-visible", "podman", {"container": "yes", "container_kind": "podman"}, "podman run img"),
    ("gpu-not-visible", "wsl", {"platform": "wsl"}, "/usr/lib/wsl/lib"),
])
def test_every_entry_of_the_class(cls: str, situation: str, facts: dict, text: str) -> None:
    """The situation's line is given to every entry of the class (none has a variant that held here)."""
    from cudaenv.knowledge.explain.situations import _table

    entries = [e for e, cs in _table()[1].items() if any(n == cls for n, _ in cs)]
    assert len(entries) >= 5
    for eid in entries:
        got = decide(eid, None, lambda: {**_FACTS, **facts}, text)
        assert got is not None and got.name == situation and got.cls == cls, (eid, got and got.name)


def test_not_when_the_variant_keys_on_the_situation() -> None:
    facts = {**_FACTS, "container": "yes", "container_kind": "apptainer"}
    # an Apptainer variant of the entry: the entry wins
    assert decide("runtime.libcuda_not_found", {"container": "yes", "text": "(?i:singularity|apptainer)"},
                  lambda: facts, "singularity exec img") is None
    # a variant chosen by evidence (a CPU build of torch): the entry wins
    assert decide("python.torch_cuda_unavailable", {"torch_build": r"\+cpu$"}, lambda: facts, "singularity") is None
    # a generic container variant (written for Docker) yields to a more specific place
    got = decide("python.torch_cuda_unavailable", {"container": "yes"}, lambda: facts, "singularity exec img")
    assert got is not None and got.name == "apptainer"
    # ... but not to Docker itself
    docker = {**_FACTS, "container": "yes", "container_kind": "docker"}
    assert decide("python.torch_cuda_unavailable", {"container": "yes"}, lambda: docker, "docker run img") is None
    # an entry of no class is never touched
    assert not classes_of("nvcc.gcc_too_new")
    assert decide("nvcc.gcc_too_new", None, lambda: docker, "docker run img") is None


@pytest.mark.parametrize("text,want_id,want_fix", SITUATED, ids=[f"{c[1]}-{n}" for n, c in enumerate(SITUATED)])
def test_situation_is_said(text: str, want_id: str, want_fix: str) -> None:
    """The answer says which situation decided its first line, and keeps the entry's own fix below it."""
    m = next(m for m in explain(text) if m.environment)
    assert m.values.get("situation"), m.values
    assert "Where it ran decides the first fix" in m.cause
    assert len([s for s in m.fix.splitlines() if s.strip()]) >= 2, m.fix
