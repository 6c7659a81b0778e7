"""Round 20 (pday): a practice set of a user's day and the long tail (HPC codes, COLMAP, OpenCV, NVENC, HPC SDK,
GROMACS, Kokkos, .NET), sampled from resolved threads, and the causes its misses showed (notes-r20pday.md).

Repaired: nvcc's message retyped with GPU in capitals; the loader's message ended by a sentence's full stop; a
project's "CUDA error at FILE LINE: initialization error" macro; Kokkos' nvcc_wrapper default architecture that a
newer CUDA dropped (a variant of nvcc.unsupported_arch). New: COLMAP's own CMAKE_CUDA_ARCHITECTURES check, the HPC
SDK's compiler choosing a CUDA it does not bundle, GROMACS' OpenMP thread count without thread-MPI ranks, an
nvidia/cuda image tag NVIDIA removed. Real log
lines only, each with its source."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # pjreddie/darknet#2360 (RTX 3090, the Makefile's compute_30; compute_86 built): GPU in capitals as retyped
    ("I want to build for RTX 3090.. . Getting this error.\nnvcc fatal : Unsupported GPU architecture 'compute_30'\n",
     "nvcc.unsupported_arch", "take it out"),
    # LuxCoreRender/LuxCore#357 (the standalone build wants CUDA 10.1's NVRTC; installing 10.1 beside 10.2 ran it)
    ("when I try to run it it gives an error: error while loading shared libraries: libnvrtc.so.10.1.\n"
     "I have cuda-10.2.\n", "runtime.cuda_library_not_found", "cudaenv use 10.1"),
    # owensgroup/GpuBTree#19 (CUDA 11.3 against the installed driver; reinstalling CUDA with its driver solved it)
    ("'CUDA error at /home/zhengzg/GpuBTree/src/allocator/pool_allocator.cuh 36: initialization error'\n",
     "status.driver_init_failed", "nvidia-smi"),
    # the same status through the common macro form, printf("CUDA error at %s:%d: %s", ...) filled in
    ("CUDA error at main.cu:17: initialization error\n", "status.driver_init_failed", "nvidia-smi"),
    # Kokkos' nvcc_wrapper default_arch under a CUDA that dropped it: spack/spack#35378 (kokkos@3.7.01 with CUDA 12.0,
    # fixed in Kokkos' develop and 3.7.02), kokkos/kokkos#5868 (Kokkos 3.7.1 with CUDA 12.0.1: default_arch edited)
    ("kokkos@3.7.01 +cuda ^cuda@12.0.0: nvcc fatal: Value 'sm_35' is not defined for option 'gpu-architecture'\n",
     "nvcc.unsupported_arch", "Kokkos"),
    ("-- The project name is: Kokkos\nnvcc fatal   : Value 'sm_35' is not defined for option 'gpu-architecture'\n"
     "CMake Error at cmake/kokkos_compiler_id.cmake:12 (STRING):\n  STRING sub-command REPLACE requires at least four "
     "arguments.\n", "nvcc.unsupported_arch", "Kokkos"),
    # COLMAP's configure check: colmap/colmap#1940 (the GPU's 86 from nvidia-smi's compute_cap built); the message as
    # COLMAP's cmake/FindDependencies.cmake words it (FATAL_ERROR, wrapped by CMake)
    ("(oneposeplus) mona@ard-gpu-01:~/OnePose_Plus_Plus/submodules/colmap/build$ cmake .. -GNinja\nCMake Error at "
     "CMakeLists.txt:255 (message): You must set CMAKE_CUDA_ARCHITECTURES to e.g. 'native', 'all-major', '70', etc. "
     "More information at\n", "cmake.project_requires_cuda_architectures", "-DCMAKE_CUDA_ARCHITECTURES="),
    ("CMake Error at cmake/FindDependencies.cmake:125 (message):\n  You must set CMAKE_CUDA_ARCHITECTURES to e.g.  "
     "'native', 'all-major', '70',\n  etc.  More information at\n  "
     "https://cmake.org/cmake/help/latest/prop_tgt/CUDA_ARCHITECTURES.html\nCall Stack (most recent call first):\n"
     "  CMakeLists.txt:85 (include)\n", "cmake.project_requires_cuda_architectures", "-DCMAKE_CUDA_ARCHITECTURES="),
    # the HPC SDK's compilers: tonyyxliu/CUHKSZ-CSC4005#13 (PATH at the SDK's cuda/11.4/bin solved it); an NVHPC 24.11
    # verification log on a build node without a driver (NVHPC_CUDA_HOME at a CUDA 12.6 built)
    ("nvcc-Error-CUDA version 10.2 was not installed with this HPC SDK: "
     "/opt/nvidia/hpc_sdk/Linux_x86_64/21.7/cuda/10.2/bin\n", "nvhpc.cuda_version_not_bundled", "instead of the SDK's wrapper"),
    ("nvc++-Error-A CUDA toolkit matching the current driver version (0) or a supported older version (11.8) was not "
     "installed with this HPC SDK.\nnvc++ rc=1\n", "nvhpc.cuda_version_not_bundled", "NVHPC_CUDA_HOME"),
    # GROMACS mdrun: easybuilders/easybuild-easyconfigs#20073 (GROMACS 2023.3's tests: `env -u OMP_NUM_THREADS`
    # fixed them; the 2023 wording, wrapped); the later wording as GROMACS' builds hold it
    ("Fatal error:\nWhen using GPUs, setting the number of OpenMP threads without specifying the\nnumber of "
     "thread-MPI ranks can lead to conflicting demands. Please specify the number of\nthread-MPI ranks as well "
     "(option -ntmpi).\n", "gromacs.omp_threads_without_ntmpi", "OMP_NUM_THREADS"),
    ("When using GPUs, setting the number of OpenMP threads without specifying the number of ranks can lead to "
     "conflicting demands. Please specify the number of thread-MPI ranks as well (option -ntmpi).\n",
     "gromacs.omp_threads_without_ntmpi", "OMP_NUM_THREADS"),
    # nvidia/cuda tags NVIDIA removed: NVIDIA/nvidia-docker#1454 (`latest`, "no longer available"), #1735 (11.0-base gone,
    # 11.6.2 ran), NVlabs/instant-ngp#1406 (10.2-devel, a newer base image), NVIDIA/nvidia-docker#1768 (podman's wording)
    ("u@u-mbp-2 ~ % docker pull nvidia/cuda\nUsing default tag: latest\nError response from daemon: manifest for "
     "nvidia/cuda:latest not found: manifest unknown: manifest unknown\n", "container.cuda_image_tag_removed",
     "Name an explicit tag"),
    ("docker: Error response from daemon: manifest for nvidia/cuda:11.0-base-ubuntu20.04 not found: manifest unknown: "
     "manifest unknown.\nSee 'docker run --help'.\n", "container.cuda_image_tag_removed", "Use a tag that exists"),
    ("`docker pull nvidia/cuda:10.2-devel-ubuntu18.04`\n>> Error response from daemon: manifest for "
     "nvidia/cuda:10.2-devel-ubuntu18.04 not found: manifest unknown: manifest unknown\n",
     "container.cuda_image_tag_removed", "Use a tag that exists"),
    ("STEP 1/26: FROM docker.io/nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04\nTrying to pull "
     "docker.io/nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04...\nError: error creating build container: initializing "
     "source docker://nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04: reading manifest 10.2-cudnn7-devel-ubuntu18.04 in "
     "docker.io/nvidia/cuda: manifest unknown: manifest unknown\n", "container.cuda_image_tag_removed",
     "Use a tag that exists"),
]

test_first_answer = first_answer_tests(CASES)

# Near misses: neighbouring causes and program bugs with similar words keep their answers (or nothing).
NEGATIVES = [
    # lammps/lammps#4595 (merged): an ambiguous log2 overload in LAMMPS' Kokkos code, a program bug; not nvcc_wrapper
    ("[...]/work/src/KOKKOS/pair_kokkos.h(964): error: more than one instance of overloaded function \"log2\" "
     "matches the argument list:\n            function \"log2(double) throw()\" (declared at line 642 of "
     "[...]/targets/x86_64-linux/include/crt/math_functions.h)\n",
     {"nvcc.unsupported_arch", "gromacs.omp_threads_without_ntmpi"}),
    # GROMACS-like OpenMP notices that name OMP_NUM_THREADS (rinikerlab/PyGromosTools#179, gromosXX's md) are no refusal
    ("OpenMP code enabled\n        using 8 threads.\n        This can be adjusted by setting the\n"
     "        OMP_NUM_THREADS environment variable.\n", {"gromacs.omp_threads_without_ntmpi"}),
    # CMake's own check of an empty value is cmake's entry, not the project's demand
    ("CMake Error in CMakeLists.txt:\n  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.\n",
     {"cmake.project_requires_cuda_architectures"}),
    # the HPC SDK's nvc++ refused by nvcc as a host compiler is not the SDK's CUDA choice (mit-han-lab/llm-awq#220)
    ("nvcc fatal   : Unsupported NVHPC compiler found. nvc++ is the only NVHPC compiler that is supported.\n",
     {"nvhpc.cuda_version_not_bundled"}),
    # the common CUDA_CHECK macro ("CUDA error at %s:%d: %s" with cudaGetErrorString) on another status
    ("CUDA error at kernel.cu:42: out of memory\n", {"status.driver_init_failed"}),
    # another image's missing tag is the registry's generic case (Kaixhin/dockerfiles#39, whitelok/watermark-remover#18)
    ("Unable to find image 'kaixhin/cuda-torch:latest' locally\ndocker: Error response from daemon: manifest for "
     "kaixhin/cuda-torch:latest not found.\n", {"container.cuda_image_tag_removed"}),
    ("Using default tag: latest\nError response from daemon: manifest for whitelok/watermark-remover:latest not found: "
     "manifest unknown: manifest unknown\n", {"container.cuda_image_tag_removed"}),
]


@pytest.mark.parametrize("text,ids", NEGATIVES)
def test_near_misses_stay_unclaimed(text: str, ids: set) -> None:
    found = [m.id for m in explain(text) if m.environment]
    assert not [i for i in found if i in ids], found


def test_sm_without_kokkos_keeps_the_list_answer() -> None:
    # the same nvcc line without Kokkos in the log keeps the architecture-list answer
    m = [a for a in explain("nvcc fatal : Value 'sm_35' is not defined for option 'gpu-architecture'\n")
         if a.environment][0]
    assert m.id == "nvcc.unsupported_arch" and "Kokkos" not in m.fix
