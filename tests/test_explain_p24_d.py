"""Practice round 24 (helper d: scientific and HPC codes on clusters and workstations): the misses of a practice set of
public threads (LAMMPS and Kokkos, Open MPI, R torch, MATLAB's mexcuda, TIGRE, Slurm jobs), fixed for their families,
each with the practice thread's own lines, another public thread of the family and a near miss that keeps its answer.

- msvc.unsupported_version: nvcc's own "nvcc cannot find a supported version of Microsoft Visual Studio. Only the
  versions ... are supported" (before any compile; MATLAB's mexcuda and setup scripts run it): the Visual Studio there
  may be older as well as newer, so a Visual Studio of the versions nvcc names comes first, not an older toolset.
- mpi.not_cuda_aware: Open MPI's "The user requested CUDA support ... but the library was not compiled with any
  support": the Open MPI build has no CUDA support, so a build that has it (conda-forge's, a cluster's CUDA-aware module).
- runtime.libcudart_not_found: R torch's lantern ("liblantern.so - libcudart.so.N: ..."), read in any wording of the
  loader's message, answers for the R process: torch's own hashed copies linked under the soname, or the toolkit's
  lib64 visible to R itself (~/.Renviron), not a wheel or a torch extension.
- matlab.mexcuda_toolkit_not_found (new): MATLAB's "No CUDA toolkit installation could be found" / "Version X.Y of the
  CUDA toolkit could not be found. If installed, set MW_NVCC_PATH": the CUDA release that MATLAB needs, and MW_NVCC_PATH.
- runtime.no_kernel_image: AutoDock-GPU's "SetKernelsGpuData copy to cData failed invalid device symbol" is its build
  without this GPU's architecture: a rebuild with the GPU's compute capability in its Makefile's TARGETS.

Left as they were: the practice set's Kokkos sm_35 (LAMMPS#3584), Kokkos architecture mismatch (ACEsuit/mace#496) and
Slurm "busy or unavailable" (jade-hpc-gpu#59) logs, already answered right; its program bug (NVIDIA/CoMD-CUDA#6, an
illegal address fixed in the code) stays a verdict.

Each text is copied from the thread named above it."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, program_bug_tests, unbounded_beyond_blanks, hostile_line

CASES = [
    # --- msvc.unsupported_version: nvcc's own search for a Visual Studio it accepts
    # https://github.com/CERN/TIGRE/issues/414 (MATLAB 2022a, CUDA 11.8, only VS 2015 installed; VS 2017-2019 fixed it)
    ("Error using mex\n"
     "nvcc warning : The 'compute_35', 'compute_37', 'sm_35', and 'sm_37' architectures are deprecated, and may be "
     "removed in a future release (Use\n-Wno-deprecated-gpu-targets to suppress warning).\n"
     "nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions between 2017 "
     "and 2019 (inclusive) are supported! The nvcc flag\n'-allow-unsupported-compiler' can be used to override this "
     "version check; however, using an unsupported host compiler may cause compilation failure or incorrect run\n"
     "time execution. Use at your own risk.\n\nError in Compile (line 65)\n",
     "msvc.unsupported_version", "Install a Visual Studio (or its Build Tools) of the versions nvcc names"),
    # https://github.com/vlfeat/matconvnet/issues/507 (MATLAB R2015a, CUDA 7.5 with Visual Studio 2015)
    ("nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions 2010, 2012, "
     "and 2013 are supported \nError using vl_compilenn>nvcc_compile (line 371)\n",
     "msvc.unsupported_version", "of the versions nvcc names, 2010, 2012, and 2013"),
    # https://github.com/CERN/TIGRE/issues/86 (CUDA 6.0 under MATLAB R2015b)
    ("nvcc : fatal error : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions 2008, "
     "2010, and 2012 are supported\n",
     "msvc.unsupported_version", "of the versions nvcc names, 2008, 2010, and 2012"),
    # near miss: host_config.h's #error under a newer Visual Studio keeps the older-toolset answer
    # https://github.com/gprMax/gprMax/issues/312
    ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\include\\crt/host_config.h(160): fatal error "
     "C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2019 "
     "(inclusive) are supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version "
     "check; however, using an unsupported host compiler may cause compilation failure or incorrect run time "
     "execution. Use at your own risk.\n",
     "msvc.unsupported_version", "Build with a toolset this CUDA accepts"),

    # --- mpi.not_cuda_aware: Open MPI built without CUDA support, asked for it
    # https://github.com/conda-forge/openmpi-feedstock/issues/83 (mpi4py's cupy demo; a rebuilt package fixed it)
    ("$ OMPI_MCA_opal_cuda_support=true  mpirun -n 2 python demo/cuda-aware-mpi/use_cupy.py \n"
     "--------------------------------------------------------------------------\n"
     "The user requested CUDA support with the --mca mpi_cuda_support 1 flag\n"
     "but the library was not compiled with any support.\n"
     "--------------------------------------------------------------------------\n"
     "[WCS-164320:29458] *** Process received signal ***\n"
     "[WCS-164320:29458] Signal: Segmentation fault (11)\n"
     "[WCS-164320:29458] Signal code: Address not mapped (1)\n",
     "mpi.not_cuda_aware", "Install an Open MPI built with CUDA"),
    # https://github.com/conda-forge/openmpi-feedstock/issues/203 (openmpi 5.0.8 _103; the _100 build works)
    ("The newest OpenMPI build seems to have been built without CUDA support, as it raises the following error:\n\n"
     "```\nThe user requested CUDA support with the --mca mpi_cuda_support 1 flag\n"
     "but the library was not compiled with any support.\n```\n",
     "mpi.not_cuda_aware", "pin the build before it"),
    # near miss: UCX faulting on a device pointer keeps the UCX answer
    ("[node1:1234:0:1234] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address "
     "0x7f89a8000000) ucx cuda\n",
     "mpi.not_cuda_aware", "Use an MPI whose UCX was built with CUDA"),

    # --- runtime.libcudart_not_found: R torch's lantern, in the R process
    # https://github.com/mlverse/torch/issues/1463 (R CMD check; symlinks to torch/lib's hashed copies fixed it)
    ("Warning message:\n"
     "ℹ torch failed to start, restart your R session to try again.\n"
     "ℹ You might need to reinstall torch using `install_torch()`\n"
     "✖ /home/ralmond/R/x86_64-pc-linux-gnu-library/4.5/torch/lib/liblantern.so -\n"
     "  libcudart.so.12: cannot open shared object file: No such file or directory\n"
     "Error : Lantern is not loaded. Please use `install_torch()` to install additional dependencies.\n"
     "$ ls libcudart*\nlibcudart-256e6409.so.12  libcudart-c3a75b33.so.12\n",
     "runtime.libcudart_not_found", "link it there under the name the loader asks for"),
    # https://github.com/mlverse/torch/issues/1066 (RStudio Server, CUDA 11.6; LD_LIBRARY_PATH; a re-worded dlerror)
    ("library(torch)\nWarning message:\n"
     "ℹ torch failed to start, restart your R session to try again.\n"
     "✖ /home/server/R/x86_64-pc-linux-gnu-library/4.1/torch/lib/liblantern.so\n"
     "  - libcudart.so.11.0: Unable to open shared object file: there is no file or directory available\n"
     "Caused by error in `cpp_lantern_init()`:\n"
     "! /home/server/R/x86_64-pc-linux-gnu-library/4.1/torch/lib/liblantern.so - libcudart.so.11.0: Unable to open "
     "shared object file: there is no file or directory available\n",
     "runtime.libcudart_not_found", "link it there under the name the loader asks for"),
    # near miss: the same library missing under Python keeps the entry's own answer
    ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n",
     "runtime.libcudart_not_found", "A prebuilt package"),

    # --- matlab.mexcuda_toolkit_not_found
    # https://github.com/MouseLand/Kilosort/issues/245 (MATLAB R2017b, gpuDevice ToolkitVersion 8)
    (">>mexGPUall\nWarning: No CUDA toolkit installation could be found. If installed, set MW_NVCC_PATH environment "
     "variable to location of nvcc compiler.\n \nIn mexcuda (line 157)\nIn mexGPUall (line 7) \nError using mex\n"
     "No supported compiler or SDK was found. For options, visit https://www.mathworks.com/support/compilers.\n",
     "matlab.mexcuda_toolkit_not_found", "Install the CUDA toolkit release this MATLAB needs"),
    # https://github.com/cortex-lab/KiloSort/issues/52 (MATLAB R2015b; the maintainer: install the CUDA it names)
    (">> mexGPUall\nWarning: Version 7.0 of the CUDA toolkit could not be found. If installed, set MW_NVCC_PATH "
     "environment variable to location of nvcc\ncompiler.\n \n> In mexGPUall (line 12) \nError using mex\n"
     "No supported compiler or SDK was found. For options, visit  "
     "http://www.mathworks.com/support/compilers/R2015b/glnxa64.html.\n",
     "matlab.mexcuda_toolkit_not_found", "CUDA 7.0 as it says"),
    # https://github.com/cortex-lab/KiloSort/issues/179 (CUDA 10 installed, MATLAB wants 9.0)
    ("Warning: Version 9.0 of the CUDA toolkit could not be found. If installed, set MW_NVCC_PATH environment "
     "variable to location of nvcc compiler.\n",
     "matlab.mexcuda_toolkit_not_found", "/usr/local/cuda-9.0/bin"),

    # --- runtime.no_kernel_image: AutoDock-GPU built without this GPU's architecture (its Makefile's TARGETS)
    # https://github.com/ccsb-scripps/AutoDock-GPU/issues/146 (A100; TARGETS="80" fixed it)
    ("Cuda device:                              **_A100-PCIE-40GB_** (#1 / 4)\n"
     "Available memory on device:               40120 MB (total: 40536 MB)\n\nCUDA Setup time 2.503058s\n\n"
     "Running Job #1\n    Using heuristics: (capped) number of evaluations set to 1132076\n"
     "    Local-search chosen method is: ADADELTA (ad)\n"
     "SetKernelsGpuData copy to cData failed invalid device symbol\n"
     "autodock_gpu_64wi: ./cuda/kernels.cu:130: void SetKernelsGpuData(GpuData*): Assertion `0' failed.\nAborted\n",
     "runtime.no_kernel_image", "Rebuild AutoDock-GPU with this GPU's compute capability in TARGETS"),
    # https://github.com/ccsb-scripps/AutoDock-GPU/issues/249 (RTX 4090; TARGETS="89")
    ("Cuda device:                              NVIDIA GeForce RTX 4090\n"
     "Running Job #1\n    Local-search chosen method is: ADADELTA (ad)\n"
     "SetKernelsGpuData copy to cData failed invalid device symbol\n"
     "autodock_gpu_128wi: ./cuda/kernels.cu:130: void SetKernelsGpuData(GpuData*): Assertion `0' failed.\n"
     "Aborted (core dumped)\n",
     "runtime.no_kernel_image", "TARGETS="),
    # https://github.com/tubiana/screening_protocol/issues/1 (RTX 4070 Ti: the same copy, in CUDA's other words)
    ("SetKernelsGpuData copy to cData failed no kernel image is available for execution on the device\n"
     "autodock_gpu_128wi: ./cuda/kernels.cu:130: void SetKernelsGpuData(GpuData*): Assertion `0' failed.\n",
     "runtime.no_kernel_image", "Rebuild AutoDock-GPU"),
]

test_first_answer = first_answer_tests(CASES)


def test_an_invalid_device_symbol_elsewhere_claims_no_architecture():
    # CUDA's "invalid device symbol" alone is as often a program's own symbol mistake: only AutoDock-GPU's copy says
    assert "runtime.no_kernel_image" not in [m.id for m in explain("RuntimeError: CUDA error: invalid device symbol\n")]

# https://github.com/NVIDIA/CoMD-CUDA/issues/6 (fixed in the code by PR 7): the practice set's program bug
test_program_bugs_stay_verdicts = program_bug_tests([
    "mpirun -n 2 ./bin/CoMD-cuda-mpi -e -x 98 -y 49 -z 49 -i 2 -m thread_atom_nl -N 1000\n\n"
    "Error in file gpu_utility.c at line 604\nCUDA error 77: an illegal memory access was encountered\n",
])


def test_a_host_compiler_matlab_does_not_support_is_no_missing_toolkit():
    # https://github.com/MouseLand/Kilosort/issues/213 (Visual Studio 2013 under MATLAB 2019b): another cause
    text = ("Warning: The selected C++ compiler is not supported for CUDA compilation. Searching for a supported "
            "compiler. \n> In mexcuda (line 94)\n  In mexGPUall (line 5) \nError using mex\n"
            "No supported compiler was found. For options, visit https://www.mathworks.com/support/compilers.\n")
    assert "matlab.mexcuda_toolkit_not_found" not in [m.id for m in explain(text)]


def test_the_open_mpi_notice_of_a_missing_driver_keeps_its_answer():
    # Open MPI with CUDA support on a machine without libcuda is not a build without CUDA support
    text = ("The library attempted to open the following supporting CUDA libraries,\n"
            "but each of them failed.  CUDA-aware support is disabled.\nmpirun -np 2 ./a.out\n")
    assert "mpi.not_cuda_aware" not in [m.id for m in explain(text)]


# --- the new patterns stay linear on hostile input: every unbounded repeat in them is a run of blanks, so a
# 200 000-character line built from their own literals costs one pass; checked on the parsed pattern, without timing.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    msvc = [p for p in entries["msvc.unsupported_version"]["patterns"] if "cannot find a supported" in p]
    mpi = [p for p in entries["mpi.not_cuda_aware"]["patterns"] if "not compiled with any support" in p]
    lantern = [p for p in entries["runtime.libcudart_not_found"]["patterns"] if "liblantern" in p]
    whens = [v["when"]["text"] for e in ("mpi.not_cuda_aware", "runtime.libcudart_not_found")
             for v in entries[e]["variants"] if "lantern" in v["when"].get("text", "")
             or "any support" in v["when"].get("text", "")]
    autodock = [p for p in entries["runtime.no_kernel_image"]["patterns"] if "SetKernelsGpuData" in p]
    whens += [v["when"]["text"] for v in entries["runtime.no_kernel_image"]["variants"]
              if "SetKernelsGpuData" in v["when"].get("text", "")]
    assert len(msvc) == 1 and len(mpi) == 1 and len(lantern) == 1 and len(autodock) == 1 and len(whens) == 3
    return msvc + mpi + lantern + autodock + whens + entries["matlab.mexcuda_toolkit_not_found"]["patterns"]


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _new_patterns():
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions ",
    "The user requested CUDA support with the --mca mpi_cuda_support 1 flag ",
    "torch/lib/liblantern.so - libcudart.so.12",
    "No CUDA toolkit installation could be found. If installed, set MW_NVCC_PATH ",
    "Version 9.0 of the CUDA toolkit could not be found. ",
    "SetKernelsGpuData copy to cData failed invalid device symbol", "autodock_gpu_128wi",
])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")
