"""Round 19 (mlapps): long-tail ML applications' and libraries' own wordings of known causes, read from their source
(tests/data/explain_producers/mlapps.yaml holds the catalogue): the web UIs' torch checks (kohya_ss, SD.Next), LMDeploy's
and Unsloth's environment checks, TransformerEngine's capability, CUDA, nvcc and library checks, text-generation-inference's
attention and Marlin checks, torchao's and DGL's per-torch builds, spconv's and MinkowskiEngine's CPU builds, AutoAWQ's
kernels, dlib's CMake probes, nvdiffrast's numeric error. The texts are the sources' format strings filled in; near-miss
guards keep the neighbouring wordings (another library's "PyTorch reports", a cuBLAS version instead of the GPU, a
warning that is not a mismatch) with their own answers."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # kohya_ss (setup/setup_common.py) and SD.Next (installer.py): the web UI's own torch check
    ("10:46:40-528548 WARNING  Torch reports GPU not available\n", "python.webui_torch_no_gpu", "venv"),
    ("12:31:09-893010 WARNING  Torch reports CUDA not available\n", "python.webui_torch_no_gpu", "venv"),
    # LMDeploy (lmdeploy/pytorch/check_env/cuda.py) and Unsloth (unsloth/device_type.py)
    ("2025-03-11 09:14:02,118 - lmdeploy - ERROR - base.py:53 - <CUDA> check failed!\ncuda is not available.\n",
     "python.torch_cuda_unavailable", ""),
    ("NotImplementedError: Unsloth cannot find any torch accelerator? You need a GPU.\n",
     "python.torch_cuda_unavailable", ""),
    # a library's stated minimum: TransformerEngine, LMDeploy, text-generation-inference
    ("AssertionError: Device compute capability 8.9 or higher required for FP8 execution.\n",
     "gpu.below_library_minimum", "8.9 or newer"),
    ("2025-03-11 09:20:47,503 - lmdeploy - ERROR - base.py:53 - <CUDA> check failed!\nmodel_format=fp8 requires sm>=9.0.\n",
     "gpu.below_library_minimum", "9.0 or newer"),
    ("NotImplementedError: Using quantized Marlin models requires a GPU with CUDA capability 8.0 or later.\n",
     "gpu.below_library_minimum", "8.0 or newer"),
    ("2024-05-14T08:12:44.410393Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: GPU "
     "with CUDA capability 6 1 is not supported\n", "gpu.below_library_minimum", "7.5 or newer"),
    # torchao's three releases' wordings and DGL's per-torch libraries
    ("WARNING:torchao:Skipping import of cpp extensions due to incompatible torch version 2.9.0+cu128 for torchao "
     "version 0.13.0\n", "python.torch_companion_pair_mismatch", "torch 2.9.0+cu128"),
    ("Skipping import of cpp extensions due to incompatible torch version. Please upgrade to torch >= 2.11.0 (found "
     "2.10.0+cu128).\n", "python.torch_companion_pair_mismatch", "torch 2.10.0+cu128"),
    ("FileNotFoundError: Cannot find DGL C++ sparse library at /opt/conda/lib/python3.10/site-packages/dgl/dgl_sparse/"
     "libdgl_sparse_pytorch_2.1.0.so\n", "python.torch_companion_pair_mismatch", "data.dgl.ai/wheels"),
    # CPU builds: spconv's CPU package, MinkowskiEngine's CPU_ONLY build
    ("RuntimeError: /io/build/temp.linux-x86_64-cpython-38/spconv/build/core_cc/src/csrc/hash/core/HashTable/"
     "HashTable_insert.cc(58)\nspconv not compiled with cuda, don't support cuda\n", "ext.cuda_ops_not_built",
     "spconv-cu118"),
    ("UserWarning: The MinkowskiEngine was compiled with CPU_ONLY flag. If you want to compile with CUDA support, make "
     "sure `torch.cuda.is_available()` is True when you install MinkowskiEngine.\n", "ext.cuda_ops_not_built",
     "FORCE_CUDA=1"),
    # Unsloth's libcuda check: the loader cache, Colab's driver directory
    ("UserWarning: Unsloth: CUDA is not linked properly.\nTry running `python -m bitsandbytes` then `python -m "
     "xformers.info`\n", "runtime.libcuda_not_found", "ldconfig /usr/lib64-nvidia"),
    # TransformerEngine: its CUDA floor, nvcc lookup, library search
    ("RuntimeError: Transformer Engine requires CUDA 12.0 or newer\n", "build.project_cuda_version_gate", "12.0"),
    ("FileNotFoundError: Could not find NVCC at /usr/local/cuda/bin/nvcc\n", "torch.nvcc_not_found", ""),
    ("RuntimeError: cudnn shared object not found.\n", "runtime.cuda_library_not_found", "nvidia-cudnn-cu12"),
    # AutoAWQ's kernels package, text-generation-inference outside its image
    ("ModuleNotFoundError: External AWQ kernels are not properly installed.No module named 'awq_ext'\n",
     "python.compiled_ext_missing", ""),
    # dlib's CMake probes
    ("-- Found CUDA: /usr/local/cuda (found suitable version \"10.1\", minimum required is \"7.5\")\n-- Found CUDA, but "
     "CMake was unable to find the cuBLAS libraries that should be part of every basic CUDA install.\n",
     "build.cuda101_cublas_outside_toolkit", "CUDA_CUBLAS_LIBRARIES"),
    ("-- DID NOT FIND CUDNN\n-- Disabling CUDA support for dlib.  DLIB WILL NOT USE CUDA\n", "cmake.cudnn_not_found", ""),
    # nvdiffrast's numeric error 209
    ("RuntimeError: Cuda error: 209[cudaFuncGetAttributes(&attr, (void*)fineRasterKernel);]\n",
     "runtime.no_kernel_image", ""),
]

test_first_answer = first_answer_tests(CASES)

# Near misses: neighbouring wordings keep their own answers (or none) under the widened patterns.
NEAR = [
    # another tool's "PyTorch reports CUDA not available" is not the web UI's check
    ("PyTorch reports CUDA not available - will use CPU.\n", "python.webui_torch_no_gpu"),
    # TransformerEngine on Ada with an old cuBLASLt: the library, not the GPU
    ("RuntimeError: CublasLt version 12.1.3.x or higher required for FP8 execution on Ada.\n",
     "gpu.below_library_minimum"),
    # older TGI's Flash Attention V2 check on a 7.5 GPU falls back to v1: not below TGI's minimum
    ("ImportError: GPU with CUDA capability 7 5 is not supported for Flash Attention V2\n", "gpu.below_library_minimum"),
    # torchao skipped on request, not for a mismatch
    ("Skipping import of cpp extensions due to TORCHAO_FORCE_SKIP_LOADING_SO_FILES=1\n",
     "python.torch_companion_pair_mismatch"),
    # dlib without any CUDA found is not cuDNN's absence; cuBLAS missing beside CUDA 11 is not CUDA 10.1's layout
    ("-- DID NOT FIND CUDA\n-- Disabling CUDA support for dlib.  DLIB WILL NOT USE CUDA\n", "cmake.cudnn_not_found"),
    ("-- Found CUDA: /usr/local/cuda (found suitable version \"11.8\", minimum required is \"7.5\")\n-- Found CUDA, but "
     "CMake was unable to find the cuBLAS libraries that should be part of every basic CUDA install.\n",
     "build.cuda101_cublas_outside_toolkit"),
    # nvdiffrast's other numbers (700: an illegal address, the program's)
    ("RuntimeError: Cuda error: 700[cudaMemcpyAsync(m_crAtomicsHost.getPtr(), m_crAtomics.getPtr(), "
     "sizeof(CRAtomics) * m_numImages, cudaMemcpyDeviceToHost, stream);]\n", "runtime.no_kernel_image"),
]


@pytest.mark.parametrize("text,not_id", NEAR)
def test_near_misses_keep_their_answers(text: str, not_id: str) -> None:
    found = [m.id for m in explain(text) if m.environment]
    assert not_id not in found[:1], found
