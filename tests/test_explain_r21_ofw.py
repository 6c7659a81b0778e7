"""Round 21 (helper ofw: a practice set of resolved threads of frameworks beyond torch, ordering first): facts read
once from the log that decide which fix comes first.

- `installed_for` (derive.py, through runtime.libcudart_not_found's tagged values): the CUDA an install line says its
  package was taken for, from the package's name (dgl-cu100), a wheel index or find-links page (OpenMMLab's
  .../mmcv/dist/cu111/torch1.9.0/index.html) or a release wheel's URL (.../v0.2.90-cu124/...whl). Another CUDA than
  the soname asks for: that upload is mis-built, another release from the same index (open-mmlab/mmcv#1224). The same
  CUDA (CUDA 11+ sonames name the major alone: cu124 needs libcudart.so.12): the build is right, the runtime is
  missing where it runs (abetlen/llama-cpp-python#1822).
- `conda_install` (extract.py): the packages conda installed (its command or its solver's plan); jax.cpu_only then
  asks conda for jaxlib's CUDA build (jax-ml/jax#14606, conda-forge/jaxlib-feedstock#285) and torch.cpu_build for
  pytorch's (pytorch/pytorch#67069, #30664) instead of pip over conda's package.
- PaddlePaddle's Windows wording of a DLL it cannot load (loader.windows_cuda_dll_not_found).

Each text is copied from the thread named above it."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain, extract
from cudaenv.knowledge.explain.derive import installed_for
from cudaenv.knowledge.explain.text import LogText

MMCV_1224 = (
    "I installed mmcv via\n"
    "python3 -m pip install mmcv-full \\\n"
    "    -f https://download.openmmlab.com/mmcv/dist/cu111/torch1.9.0/index.html\n"
    "and pip automatically installed version 1.3.10 for me.\n")
MMCV_1224_ERR = (
    "  File \"/opt/conda/lib/python3.7/site-packages/mmcv/utils/ext_loader.py\", line 12, in load_ext\n"
    "    ext = importlib.import_module('mmcv.' + name)\n"
    "  File \"/opt/conda/lib/python3.7/importlib/__init__.py\", line 127, in import_module\n"
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "ImportError: libcudart.so.10.2: cannot open shared object file: No such file or directory\n")

TORCH_67069 = (
    "2. run this with python\n>>> import torch\n>>> tensor = torch.tensor((), device='cuda')\n"
    "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
    "  File \"C:\\Users\\Etienne\\miniconda3\\lib\\site-packages\\torch\\cuda\\__init__.py\", line 208, in _lazy_init\n"
    "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
    "AssertionError: Torch not compiled with CUDA enabled\n")

CASES = [
    # https://github.com/open-mmlab/mmcv/issues/1224 (mmcv-full 1.3.10 from the cu111/torch1.9.0 index asks for CUDA
    # 10.2's runtime; "The 1.3.9 wheel does not have this issue")
    (MMCV_1224 + MMCV_1224_ERR, "runtime.libcudart_not_found", "from the same index"),
    # https://github.com/abetlen/llama-cpp-python/issues/1822 (the cu124 release wheel in a conda env on WSL 2: the
    # system's CUDA libraries on LD_LIBRARY_PATH solved it)
    ("   pip install https://github.com/abetlen/llama-cpp-python/releases/download/v0.2.90-cu124/llama_cpp_python-0.2.90-cp312-cp312-linux_x86_64.whl\n"
     "   RuntimeError: Failed to load shared library '.../libllama.so': libcudart.so.12: cannot open shared object file: No such file or directory\n",
     "runtime.libcudart_not_found", "Put a CUDA 12 runtime on the loader path"),
    # https://github.com/conda-forge/jaxlib-feedstock/issues/285 (conda's jaxlib CUDA build without the CUDA plugin;
    # fixed by the feedstock's PR #288)
    ("$ conda create -n jaxtest jax jaxlib                                                                conda:jaxtest\n"
     "$ python -c \"import jax; jax.print_environment_info()\"                                              conda:jaxtest\n"
     "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n"
     "jax:    0.4.32\njaxlib: 0.4.32\n",
     "jax.cpu_only", 'conda install -c conda-forge "jaxlib=*=*cuda*"'),
    # https://github.com/jax-ml/jax/issues/14606 (conda's solver took the CPU build; `conda install jaxlib=*=*cuda* jax
    # cuda-nvcc -c conda-forge -c nvidia` fixed it, the README changed to it)
    ("$ conda install jax cuda-nvcc -c conda-forge -c nvidia\n\nThe following NEW packages will be INSTALLED:\n\n"
     "  jax                conda-forge/noarch::jax-0.4.4-pyhd8ed1ab_0\n"
     "  jaxlib             conda-forge/linux-64::jaxlib-0.4.4-cpu_py311h7146453_1\n",
     "jax.cpu_only", 'conda install -c conda-forge "jaxlib=*=*cuda*"'),
    # https://github.com/jax-ml/jax/issues/24604 (the README's conda command already asks for the CUDA build; pip's
    # jax[cuda12_pip] in a new environment found the GPU): conda's selector is not first again
    ("`conda install jaxlib=*=*cuda* jax cuda-nvcc -c conda-forge -c nvidia`\n"
     "When I then try to import JAX and check my available devices using:\n"
     "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n"
     "[CpuDevice(id=0)]\n",
     "jax.cpu_only", "conda update -c conda-forge jax jaxlib"),
    # https://github.com/pytorch/pytorch/issues/67069 (conda's pytorch=1.10 with cudatoolkit=11.3 was a CPU build on
    # Windows; asking conda for another CUDA build, cudatoolkit=10.2, gave a CUDA one)
    ("1. `conda install -y pytorch=1.10 torchvision torchaudio cudatoolkit=11.3 -c pytorch`\n" + TORCH_67069,
     "torch.cpu_build", "ask conda for the CUDA build"),
    # https://github.com/pytorch/pytorch/issues/30664 (fabrizioschiano: conda-forge's solver took the cpu_ builds)
    ("`conda install -c conda-forge -c pytorch python=3.7 pytorch torchvision cudatoolkit=10.1 opencv numpy pillow`\n"
     "Now I noticed that I installed the following packages (among others)\n"
     "  pytorch            conda-forge/linux-64::pytorch-1.10.0-cpu_py37hf3cc979_0\n"
     "  pytorch-cpu        conda-forge/linux-64::pytorch-cpu-1.10.0-cpu_py37h718b53a_0\n",
     "torch.cpu_build", "ask conda for the CUDA build"),
    # https://github.com/PaddlePaddle/Paddle/issues/29428 (cuDNN's bin on PATH solved it for the commenters)
    ("The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not configured correctly.\n"
     "python 3.8.3\npaddle 2.0.0rc0\n",
     "loader.windows_cuda_dll_not_found", "cudnn64_7.dll"),
    # https://github.com/PaddlePaddle/Paddle/issues/33523 (a PyInstaller build of Paddle on a CUDA 11.1 machine)
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cublas64_102.dll;cublas64_10.dll) that Paddle "
     "depends on is not configured correctly. (error code is 126)\n",
     "loader.windows_cuda_dll_not_found", "cublas64_102.dll"),
    # https://github.com/PaddlePaddle/Paddle/issues/53009
    ("    PreconditionNotMetError: The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not "
     "configured correctly. (error code is 126)\n",
     "loader.windows_cuda_dll_not_found", "cudnn64_8.dll"),
]

test_first_answer = first_answer_tests(CASES)


def _first(text):
    return [m for m in explain(text) if m.environment][0]


def test_mmcv_without_its_install_line_keeps_the_prebuilt_answer():
    # the same error without the line naming the index: no fact says which CUDA the wheel was taken for
    m = _first(MMCV_1224_ERR)
    assert m.id == "runtime.libcudart_not_found"
    assert "from the same index" not in m.fix
    assert m.fix.splitlines()[0].startswith("mmcv here is a prebuilt binary made for CUDA 10.2")


def test_dgl_package_name_keeps_its_answer():
    # dmlc/dgl#919 (test_explain_r11_copies): the CUDA named by the package's name, another than the soname's
    text = ("conda install -c dglteam dgl-cuda10.0\n\nThen in the python shell:\nimport dgl\n\nError message:\n"
            "OSError: libcudart.so.9.2: cannot open shared object file: No such file or directory\n")
    m = _first(text)
    assert "pip install dgl-cu100" in m.fix.splitlines()[0]


@pytest.mark.parametrize("text,want", [
    ("pip install dgl-cu100", ("pip", "dgl", "10.0", "dgl-cu100", "")),
    ("conda install -c dglteam dgl-cuda10.0", ("conda", "dgl", "10.0", "dgl-cuda10.0", "")),
    (MMCV_1224, ("pip", "mmcv-full", "11.1", "mmcv-full",
                 "https://download.openmmlab.com/mmcv/dist/cu111/torch1.9.0/index.html")),
    # a torch build's own local tag is torch's, not an extension's (cudanames: "+cu111" is no mention)
    ("pip install torch==1.10.0+cu111 -f https://download.pytorch.org/whl/torch_stable.html", ("", "", "", "", "")),
    ("pip install jax jaxlib", ("", "", "", "", "")),
])
def test_installed_for(text, want):
    assert installed_for(text) == want


@pytest.mark.parametrize("text,want", [
    ("$ conda create -n jaxtest jax jaxlib\n", "jax jaxlib"),
    ("  jaxlib             conda-forge/linux-64::jaxlib-0.4.4-cpu_py311h7146453_1\n", "jaxlib"),
    ("1. `conda install -y pytorch=1.10 torchvision torchaudio cudatoolkit=11.3 -c pytorch`\n",
     "pytorch torchvision torchaudio cudatoolkit"),
    # a conda Python with packages from pip (conda-forge/jaxlib-feedstock#285's banner alone)
    ("python: 3.12.7 | packaged by conda-forge | (main, Oct  4 2024, 16:05:46) [GCC 13.3.0]\n", ""),
    ("pip install --upgrade \"jax[cuda12_pip]\" -f https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n", ""),
])
def test_conda_install_fact(text, want):
    assert extract.facts(LogText(text))["conda_install"] == want


def test_jax_from_pip_keeps_the_pip_line():
    # conda-forge/jaxlib-feedstock#285's own lines without the conda command: nothing says conda installed jax
    m = _first("An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n"
               "python: 3.12.7 | packaged by conda-forge | (main, Oct  4 2024, 16:05:46) [GCC 13.3.0]\n")
    assert m.id == "jax.cpu_only"
    assert m.fix.splitlines()[0].startswith('If JAX should use the GPU: `pip install -U "jax[cuda12]"`')


def test_windows_torch_without_a_conda_install_keeps_the_pip_line():
    # pytorch/pytorch#67069's traceback without the conda command: nothing says conda installed torch
    m = _first(TORCH_67069)
    assert m.id == "torch.cpu_build"
    assert m.fix.splitlines()[0].startswith("Replace it with a CUDA build (PyPI's Windows wheel is CPU-only)")


def test_conda_cudatoolkit_beside_pip_torch_is_not_conda_torch():
    # a conda-installed cudatoolkit names no pytorch: torch.cpu_build's conda line does not come
    m = _first("conda install -c conda-forge cudatoolkit=11.3\n" + TORCH_67069)
    assert m.id == "torch.cpu_build"
    assert "ask conda for the CUDA build" not in m.fix.splitlines()[0]
