"""Issue 18, round 5, slice [hpc]: scientific and HPC codes (GROMACS, LAMMPS/Kokkos, OpenMM, AMReX, CuPy,
numba, CUDA-aware MPI/UCX, Apptainer), sampled from public threads in the order found.

Each tuple is a short excerpt of a real public thread (its URL above it), verbatim but trimmed: the first
environment answer must be ``want_id`` and its fix's first line must hold ``want_fix`` (the fix that solved
that thread's case); an empty ``want_fix`` checks the id only (the thread did not say what solved it).
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

CASES = [
    # --- OpenMM compiles its kernels with nvcc; on Windows nvcc needs cl.exe (Visual Studio) -----------
    # https://github.com/openmm/openmm/issues/2409
    ("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH\n3 CUDA - Error computing forces with CUDA platform\n"
     "CUDA platform error: Error loading CUDA module: CUDA_ERROR_FILE_NOT_FOUND (301)",
     "msvc.cl_not_found", "Native Tools"),
    # --- a driver older than the PTX (OpenMM under AlphaFold): upgrading the driver solved it -------------
    # https://github.com/google-deepmind/alphafold/issues/462
    ("Error loading CUDA module: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)", "runtime.unsupported_ptx", "upgrade the driver"),
    # --- numba: the toolkit's stub libcuda on LD_LIBRARY_PATH, cuInit answers "unknown" ------------------
    # https://github.com/numba/numba/issues/8985 (taking lib64/stubs off LD_LIBRARY_PATH solved it)
    ("numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in UNKNOWN_CUDA_ERROR (-1)\n"
     "python -c \"from ctypes import CDLL; CDLL('libcuda.so')._undef\"\n"
     "AttributeError: /scratch/yhao24/opt/cuda-12.1/lib64/stubs/libcuda.so: undefined symbol: _undef",
     "runtime.stub_library", "stubs"),
    # --- numba: no NVVM, then the driver's JIT older than the toolkit's PTX -------------------------------
    # https://github.com/xinzhuma/monodle/issues/23
    ("numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install cudatoolkit`:\n"
     "Could not find module 'nvvm.dll' (or one of its dependencies). Try using the full path with constructor syntax.",
     "numba.nvvm_not_found", "cudatoolkit"),
    ("numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR ptxas application "
     "ptx input, line 9; fatal : Unsupported .version 7.3; current version is '7.1'",
     # round 6: numba's NVVM comes with the environment, so pinning its CUDA below the driver's comes first
     # (no root); upgrading the driver is the alternative line
     "driver.jit_ptx_too_new", 'conda install "cudatoolkit<11.2"'),
    # --- CUDA-aware MPI: UCX / Open MPI built without CUDA, handed GPU buffers ---------------------------
    # https://github.com/openucx/ucx/issues/7845 (rebuilding UCX --with-cuda solved it)
    ("openmpi-4.1.2 with ucx-1.13.0 got Segmentation fault: invalid permissions for mapped object\n"
     "Seems UCX was built without Cuda support. Can you pls pass \"--with-cuda=\" to ./configure when building UCX?",
     "mpi.not_cuda_aware", "--with-cuda"),
    # https://github.com/mpi4py/mpi4py/issues/36 (CuPy buffers through mpi4py)
    ("Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x2b15b6a00310)\n"
     "1. `openmpi/4.0.1` build with CUDA support\n2. `cuda/10.2.89`\n3. `mpi4py/3.1.0a0`\n4. `cupy-cuda102/8.5.0`",
     "mpi.not_cuda_aware", "--with-cuda"),
    # https://github.com/parthenon-hpc-lab/parthenon/issues/237
    ("Cuda with MPI error\n/projects/opt/ppc64le/openmpi/p9/4.0.0-gcc_6.4.0/bin/mpiexec -n 2 advection-example\n"
     "[cn2020:21729:0:21729] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x2000",
     "mpi.not_cuda_aware", ""),
    # --- Kokkos built for another GPU architecture (Kokkos_ARCH) ------------------------------------------
    # https://github.com/lammps/lammps/issues/2086 (VOLTA72 given for a V100)
    ("-DKokkos_ENABLE_CUDA=yes  -DKokkos_ARCH_VOLTA72=ON\n"
     "Kokkos::Cuda::initialize ERROR: likely mismatch of architecture\n[gpu004:105080] *** Process received signal ***\n"
     "[gpu004:105080] Signal: Aborted (6)", "runtime.no_kernel_image", "Kokkos_ARCH"),
    # https://github.com/kokkos/kokkos/issues/6092 (AthenaPK; Kokkos_ARCH_VOLTA70 solved it)
    ("==> Error: Spec 'cuda@11.4.0' matches no installed packages.\n"
     "Kokkos::Cuda::initialize ERROR: likely mismatch of architecture", "runtime.no_kernel_image", "Kokkos_ARCH"),
    # https://github.com/kokkos/kokkos/issues/1944 (KOKKOS_ARCH=Volta70 on a Maxwell laptop; Maxwell solved it)
    ("Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability 0.0 (< 5.0) on device with compute "
     "capability 5.0 (>=5.0), this would give incorrect results!\nAborted (core dumped)",
     "runtime.no_kernel_image", "Kokkos_ARCH"),
    # https://github.com/CEED/libCEED/pull/961 (PETSc's Kokkos built for sm_61; --with-cuda-arch=75 solved it)
    ("> Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability 6.1 on device with compute "
     "capability 7.5 is not supported by CUDA!", "runtime.no_kernel_image", "Kokkos_ARCH"),
    # --- cudaPointerAttributes: `type` since CUDA 10.0, `memoryType` removed in CUDA 11.0 --------------------
    # https://github.com/pmodels/mpich/issues/6068 (CUDA 7.5; --without-cuda, or CUDA 10 and newer)
    ("src/gpu/mpl_gpu_cuda.c: In function 'MPL_gpu_query_pointer_attr':\nsrc/gpu/mpl_gpu_cuda.c:50:34: error: "
     "'MPL_gpu_device_attr' {aka 'struct cudaPointerAttributes'} has no member named 'type'\n"
     "   50 |         switch (attr->device_attr.type) {", "toolkit.pointer_attributes_api", "CUDA 10.0 or newer"),
    # https://github.com/NVIDIA/NvPipe/issues/29 (building against CUDA 9.2 or earlier)
    ('/lhome/chhoene/github/NvPipe/src/NvPipe.cu(75): error: class "cudaPointerAttributes" has no member "type"',
     "toolkit.pointer_attributes_api", "CUDA 10.0 or newer"),
    # https://github.com/pytorch/pytorch/issues/45573
    ("/CUDAHooks.cpp:97:15: error: \u2018struct cudaPointerAttributes\u2019 has no member named \u2018type\u2019 return "
     "attr.type == cudaMemoryTypeHost;", "toolkit.pointer_attributes_api", ""),
    # https://github.com/ROCm/hip/issues/2162 (CUDA 11.0: the code had to read `type`)
    (" error: \u2018struct cudaPointerAttributes\u2019 has no member named \u2018memoryType\u2019",
     "toolkit.pointer_attributes_api", "written for CUDA 11"),
    # https://github.com/spack/spack/issues/27180
    ('trilinos@13.0.1 +cuda build fails: class "cudaPointerAttributes" has no member "memoryType"',
     "toolkit.pointer_attributes_api", "written for CUDA 11"),
    # --- AMReX (PeleC) with no code for the GPU --------------------------------------------------------------
    # https://github.com/Pele-Suite/PeleC/issues/809
    ("amrex::Abort::4::GPU last error detected in file /nlsasfs/home/fdmod/srkumar/PeleC/Submodules/PelePhysics/Submodules/"
     "amrex/Src/Base/AMReX_GpuLaunchFunctsG.H line 749: invalid device function !!!\nSIGABRT",
     "runtime.no_kernel_image", "CUDA_ARCH"),
    # --- Windows: a CUDA DLL not on the DLL search path -------------------------------------------------------
    # https://github.com/kijai/ComfyUI-GIMM-VFI/issues/17 (CuPy from conda-forge solved it)
    ("RuntimeError: CuPy failed to load nvrtc64_120_0.dll: FileNotFoundError: Could not find module 'nvrtc64_120_0.dll' "
     "(or one of its dependencies). Try using the full path with constructor syntax.",
     "loader.windows_cuda_dll_not_found", "conda-forge cupy"),
    # https://github.com/ILikeAI/AlwaysReddy/issues/40 (the whole cuDNN archive, not one DLL, solved it)
    ("Could not locate cudnn_cnn_infer64_8.dll. Please make sure it is in your library path!\n"
     "I have both cuda 12.1 and 11.8 installed, I downloaded the dll, placed it in both of their folders",
     "loader.windows_cuda_dll_not_found", "complete cuDNN archive"),
    # https://github.com/PaddlePaddle/Paddle/issues/54767 (cuDNN's DLLs into the CUDA bin solved it)
    ("W0619 03:05:28.154407 19728 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 6.1, Driver API "
     "Version: 11.6, Runtime API Version: 11.6\nCould not locate cudnn_ops_infer64_8.dll. Please make sure it is in your "
     "library path!", "loader.windows_cuda_dll_not_found", "cuDNN"),
    # https://github.com/markgoodhead/dictate-wizard/issues/2
    ("Could not load library cudnn_ops_infer64_8.dll. Error code 126\n"
     "Please make sure cudnn_ops_infer64_8.dll is in your library path!", "loader.windows_cuda_dll_not_found", ""),
    # --- an executable (not a Python import) without its CUDA runtime where it runs -------------------------
    # https://github.com/tonyyxliu/CUHKSZ-CSC4005/issues/69 (the HPC SDK's cuda/11.4/lib64 on LD_LIBRARY_PATH)
    ("error while loading shared libraries: libcudart.so.11.0: cannot open shared object file: No such file or directory",
     "runtime.libcudart_not_found", "on the loader path where the program runs"),
    # https://github.com/FXIhub/condor/issues/3 (another CUDA on the compute node than where it was built)
    ("INFO:simulate:Simulation with spsim started. (PROGSTAT)\n/home/www/condor/local/bin/spsim: error while loading "
     "shared libraries: libcudart.so.6.5: cannot open shared object file: No such file or directory",
     "runtime.libcudart_not_found", "cudaenv use 6.5"),
    # https://github.com/CortexFoundation/Cortex_Release/issues/1 (CUDA 9.2 installed; installing 9.0 solved it)
    ("./bin/miner: error while loading shared libraries: libcudart.so.9.0: cannot open shared object file: No such file "
     "or directory\nCuda compilation tools, release 9.2, V9.2.148", "runtime.libcudart_not_found", "cudaenv use 9.0"),
    # --- Apptainer/Singularity --nv without the host's libcuda ------------------------------------------------
    # https://github.com/apptainer/singularity/issues/4783 (binding libcuda.so.1 by hand solved it)
    ("singularity -s exec --nv /cvmfs/cms-ib.cern.ch/docker/cmssw/cc7:amd64 bash\n"
     "./test/slc7_amd64_gcc820/test_detid: error while loading shared libraries: libcuda.so.1: cannot open shared object "
     "file: No such file or directory", "runtime.libcuda_not_found", "--nv"),
    # https://github.com/apptainer/singularity/issues/5337
    ("expected singularity to open a container\n"
     "    from pycuda._driver import *  # noqa\nImportError: libcuda.so.1: cannot open shared object file: No such file or "
     "directory", "runtime.libcuda_not_found", "--nv"),
    # --- GROMACS, several thread-MPI ranks on a GPU in exclusive-process mode ---------------------------------
    # https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/39
    ("Using 10 MPI threads\nMapping of GPU IDs to the 10 PP ranks in this node: 0,0,2,2,3,3,4,4,5,5\n"
     "WARNING: Just caught a previously occurred CUDA error (all CUDA-capable devices are busy or unavailable), will try "
     "to continue.", "gpu.busy_exclusive", ""),
    # --- Spack: nvcc's host compiler check -------------------------------------------------------------------
    # https://github.com/spack/spack/issues/13462
    ("/targets/x86_64-linux/include/crt/host_config.h:138:2: error: #error -- unsupported GNU version! gcc versions later "
     "than 8 are not supported!", "nvcc.gcc_too_new", ""),
]


test_first_answer = first_answer_tests(CASES)


# Program or usage errors that look like CUDA trouble: no environment cause may be claimed.
NEGATIVES = [
    # https://github.com/lammps/lammps/issues/4944 (labelled invalid: `-k on g 1` was missing)
    "ERROR: Kokkos has been compiled with GPU-enabled backend but no GPUs are requested",
    # https://github.com/lammps/lammps/issues/1473 (a memory leak in the program after 14 million steps)
    "terminate called after throwing an instance of 'std::runtime_error'\n  what():  cudaCreateTextureObject( & tex_obj , "
    "& resDesc, & texDesc, NULL ) error( cudaErrorMemoryAllocation): out of memory "
    "/home/david/git/lammps-clean/lib/kokkos/core/src/Cuda/Kokkos_CudaSpace.cpp:290",
    # https://github.com/open-mpi/ompi/issues/11399 (an Open MPI 5 bug with OFI: not the UCX wording)
    "[gpua025:322643] *** Process received signal ***\n[gpua025:322643] Signal: Segmentation fault (11)\n"
    "[gpua025:322643] Signal code: Invalid permissions (2)",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_no_environment_cause_for_program_errors(text):
    assert [m.id for m in explain(text) if m.environment] == []


def test_invalid_permissions_without_mpi_or_gpu_is_not_claimed():
    """The same segfault in a program with no MPI or GPU in sight is not the MPI's CUDA support."""
    text = "Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f00)"
    assert "mpi.not_cuda_aware" not in [m.id for m in explain(text)]
