"""Round 19 (sciapps): long-tail science, HPC and media codes' own wordings of known causes, read from their source
(tests/data/explain_producers/sciapps.yaml holds the catalogue): HPC libraries (Kokkos, AMReX, PETSc, MAGMA, Ginkgo,
ArrayFire, HOOMD-blue, RELION), GPU languages and JITs (Taichi, Dr.Jit / Mitsuba 3, Halide, TVM, cudarc, candle and
bindgen_cuda, R torch), the BOINC client, OBS Studio's NVENC, AliceVision / Meshroom, nvitop and gpustat.

Three causes the knowledge base lacked, as the sources show them: a candle build without its `cuda` feature
(candle-core/src/error.rs), bindgen_cuda asking nvidia-smi for the compute capability where the build has no GPU
(src/lib.rs compute_cap), R torch's installer refusing a CUDA it has no build for (R/install.R). The texts are the
sources' format strings filled in; near-miss guards keep the same producers' other messages unclaimed."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # ArrayFire names the driver it needs and the CUDA to rebuild with: its own number is not the installed driver's
    ("ArrayFire Exception (Driver not available or incompatible:102):\nIn function void "
     "arrayfire::cuda::checkCudaVsDriverVersion()\nIn file src/backend/cuda/device_manager.cpp:561\nArrayFire was built "
     "with CUDA 12.2 which requires GPU driver version 525.6 or later. Please download and install the latest drivers "
     "from https://www.nvidia.com/drivers for your GPU. Alternatively, you could rebuild ArrayFire with CUDA Toolkit "
     "version 11.4 to use the current drivers.\n", "runtime.insufficient_driver", "525.6 or newer"),
    # OBS's own NVENC (31+, and jim-nvenc before): the driver, with OBS named, not ffmpeg
    ("10:22:33.123: [obs-nvenc] Current driver version does not support this NVENC version, please upgrade your "
     "driver\n", "driver.nvenc_api_too_old", "Upgrade the NVIDIA driver"),
    # PETSc's GPU-aware MPI check: a GPU-aware MPI, or its own switch
    ("[0]PETSC ERROR: PETSc is configured with GPU support, but your MPI is not GPU-aware. For better performance, "
     "please use a GPU-aware MPI.\n[0]PETSC ERROR: If you do not care, add option -use_gpu_aware_mpi 0.\n",
     "mpi.not_cuda_aware", "MPI built with GPU support"),
    # HOOMD-blue: the build's lowest architecture, with the GPU's number to add
    ("RuntimeError: No supported GPUs are present on this system.\nThe device Tesla K80 with compute capability 3.7 "
     "does not support HOOMD-blue.\n", "gpu.below_library_minimum", 'CUDA_ARCH_LIST="37;60;70;80"'),
    # Dr.Jit skips a device below 7.5: the program's minimum, named
    (" - Warning: compute capability of device too low (need >= 7.5), skipping ..\n", "gpu.below_library_minimum",
     "7.5 or newer"),
    # nvitop's two FunctionNotFound forms (cli.py names the function, libnvml.py its repr)
    ("ERROR: Some FunctionNotFound errors occurred while calling:\n    nvmlQuery('nvmlDeviceGetMemoryInfo_v2', *args, "
     "**kwargs)\n", "driver.nvml_function_missing", ""),
    ("ERROR: A FunctionNotFound error occurred while calling nvmlQuery(<function nvmlDeviceGetComputeRunningProcesses "
     "at 0x7f3c2a1b4040>, *args, **kwargs).\n", "driver.nvml_function_missing", ""),
    # ColabFold's CPU fallback is jax's: a jaxlib with CUDA
    ("2024-03-12 10:21:35,456 WARNING: no GPU detected, will be using CPU\n", "jax.cpu_only", ""),
    # the three new causes
    ("Error: the candle crate has not been built with cuda support\n", "candle.built_without_cuda", "--features cuda"),
    ("  `nvidia-smi` failed. Ensure that you have CUDA installed and that `nvidia-smi` is in your PATH.: Os { code: 2, "
     "kind: NotFound, message: \"No such file or directory\" }\n", "build.compute_cap_probe_failed", "CUDA_COMPUTE_CAP="),
    ("Error in `check_supported_version()`:\n✖ Unsupported CUDA version \"11.2\"\nℹ Currently supported versions are: "
     "\"11.8\" and \"12.4\".\n", "rtorch.cuda_version_unsupported", 'Sys.setenv(CUDA = "11.8")'),
]

test_first_answer = first_answer_tests(CASES)

# Near misses: the same producers' other messages keep their answers (or nothing), whatever the widened patterns say.
NEGATIVES = [
    # candle without Metal: not a CUDA build question
    ("Error: the candle crate has not been built with metal support\n", {"candle.built_without_cuda"}),
    # OBS's NVENC version line at start (an info line, not a failure)
    ("10:22:33.123: [obs-nvenc] NVENC version: 12.2 (compiled) / 12.1 (driver), CUDA driver version: 12.4, AV1 "
     "supported: false\n", {"driver.nvenc_api_too_old"}),
    # Dr.Jit's LLVM backend is too old: not the NVIDIA driver
    ("jit_llvm_init(): the located LLVM version (10) is too old. The LLVM backend requires LLVM 11 or newer.\n",
     {"runtime.insufficient_driver"}),
    # Taichi's optional cuSPARSE is not libcuda
    ("[W 11/27/26 10:22:33.123 4121] [cuda_driver.cpp:load_lib@36] libcusparse.so lib not found.\n",
     {"runtime.libcuda_not_found"}),
    # a PETSc argument error whose option table holds -use_gpu_aware_mpi 0: the MPI check was switched off
    ("[0]PETSC ERROR: --------------------- Error Message ------------------\n[0]PETSC ERROR: Argument out of range\n"
     "[0]PETSC ERROR: Column too large: col 10 max 9\n[0]PETSC ERROR: -use_gpu_aware_mpi 0 (source: command line)\n",
     {"mpi.not_cuda_aware"}),
    # a bare "Driver Not Loaded" inside a sentence is not pynvml's message
    ("INFO: GPU Driver Not Loaded yet, waiting for the device plugin\n", {"driver.not_loaded"}),
    # AliceVision found a GPU and refused it: not an empty device list
    ("[2024-03-12 10:21:33.123502] [0x00007f3c2a1b4000] [error]   CUDA-Enabled GPU detected, but the compute "
     "capabilities is not enough.\n - Device 0: 1.3, global memory: 1024MB\n - Requirements: 2.0, global memory: 0MB\n"
     "[2024-03-12 10:21:33.123510] [0x00007f3c2a1b4000] [error]   This program needs a CUDA-Enabled GPU (with at least "
     "compute capability 2.0).\n", {"runtime.no_device"}),
    # ColabFold on a TPU says so: not the CPU fallback
    ("2024-03-12 10:21:35,456 Running on TPU\n", {"jax.cpu_only"}),
    # R torch's architecture check is not the CUDA version
    ("Error in `install_torch()`:\n! Unsupported architecture \"ppc64le\".\n", {"rtorch.cuda_version_unsupported"}),
]


@pytest.mark.parametrize("text,ids", NEGATIVES)
def test_near_misses_stay_unclaimed(text: str, ids: set) -> None:
    found = [m.id for m in explain(text) if m.environment]
    assert not [i for i in found if i in ids], found
