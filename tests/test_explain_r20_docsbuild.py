"""Round 20, causes the build side's own documentation and release notes list (CUDA 13.0's release notes and CCCL 3.0,
nvcc's options, CMake's release notes and modules, the profilers' guides), each checked against real threads.

- CCCL 3 (the Thrust, CUB and libcu++ of CUDA 13) stops below C++17 (`build.cccl3_cpp17_required`): the build's
  standard to 17 first, a CUDA 12 toolkit second.
- CUDA 13 moved the CCCL headers to include/cccl, which only nvcc adds by itself (`build.cuda_header_missing`, a
  variant keyed on a CUDA 13 the log names): that directory on the host compiler's include path.
- nvcc given the host compiler twice, "redefinition of argument 'compiler-bindir'" (`nvcc.host_compiler_given_twice`):
  one of the two -ccbin goes, often the environment's (conda's cuda-nvcc activation, NVCC_PREPEND_FLAGS).
- CUDA 13 changed cudaMemPrefetchAsync/cudaMemAdvise to take a cudaMemLocation (`build.cuda13_memlocation_api`): the
  project's CUDA 13 release, or a CUDA 12 toolkit.
- CMake 4.0 refuses projects asking for a CMake older than 3.5 (`cmake.policy_minimum_removed`):
  CMAKE_POLICY_VERSION_MINIMUM=3.5 first.
- CMake's "Compiler Clang requires the CUDA toolkit" (clang as the CUDA compiler, no toolkit found): CUDAToolkit_ROOT,
  not nvcc through CUDACXX (`cmake.no_cuda_compiler`).
- nvcc given a README's `-arch=[arch]` placeholder (`nvcc.arch_placeholder_value`): the GPU's sm_XX.
- TensorFlow's find_cuda_config.py "Inconsistent CUDA toolkit path: /usr vs /usr/lib" (Ubuntu's nvidia-cuda-toolkit
  layout; `build.bazel_cuda_config_not_found`): one NVIDIA toolkit root through TF_CUDA_PATHS.
- CUDA 13's deprecated double4/long4/... under warnings-as-errors (`build.cuda13_vector_types_deprecated`):
  __NV_NO_VECTOR_DEPRECATION_DIAG first.
- NVTX 2's <nvToolsExt.h> before CUDA 12.6's CUB, which brings NVTX 3 (`build.nvtx2_before_nvtx3`): nvtx3 includes.
- nvprof on a GPU of compute capability 7.5/8.0 or newer (`profiler.nvprof_unsupported_gpu`): Nsight Systems/Compute.
- ERR_NVGPUCTRPERM / CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (`driver.profiling_counters_restricted`): the driver's
  NVreg_RestrictProfilingToAdminUsers, root, SYS_ADMIN in a container.

Excerpts are verbatim (trimmed) from the threads named above them; each family has a near-miss that keeps its answer."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- CCCL 3 needs C++17 ------------------------------------------------------------------------------------------
    # https://github.com/3dem/relion/issues/1292 (RELION's FindCUDA build with CUDA 13.0)
    ("[  2%] Building NVCC (Device) object src/apps/CMakeFiles/relion_gpu_util.dir/__/acc/cuda/relion_gpu_util_generated_"
     "cuda_projector_plan.cu.o\n"
     "In file included from /usr/local/cuda-13.0/targets/x86_64-linux/include/cccl/cub/util_arch.cuh:46,\n"
     "                 from /usr/local/cuda-13.0/targets/x86_64-linux/include/cccl/cub/config.cuh:46,\n"
     "                 from /usr/local/cuda-13.0/targets/x86_64-linux/include/cccl/cub/cub.cuh:37,\n"
     "                 from /home/mbelouso/src/relion/src/acc/cuda/cuda_utils_cub.cuh:18,\n"
     "                 from /home/mbelouso/src/relion/src/acc/cuda/cuda_projector_plan.cu:10:\n"
     "/usr/local/cuda-13.0/targets/x86_64-linux/include/cccl/cub/util_cpp_dialect.cuh:88:8: error: #error CUB requires at "
     "least C++17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.\n"
     "   88 | #      error CUB requires at least C++17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this "
     "message.\n      |        ^~~~~\n",
     "build.cccl3_cpp17_required", "-DCMAKE_CUDA_STANDARD=17"),
    # https://github.com/ornladios/ADIOS2/issues/4620 (Arch's CUDA 13 in /opt/cuda; the AUR package builds with
    # -DCMAKE_CXX_STANDARD=17)
    ("/opt/cuda/targets/x86_64-linux/include/cccl/thrust/detail/config/cpp_dialect.h:78:6: error: #error Thrust requires "
     "at least C++17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.\n"
     "   78 | #    error Thrust requires at least C++17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.\n"
     "      |      ^~~~~\n"
     "In file included from /opt/cuda/targets/x86_64-linux/include/cccl/cuda/std/detail/libcxx/include/__config:24,\n"
     "/opt/cuda/targets/x86_64-linux/include/cccl/cuda/std/__internal/cpp_dialect.h:40:6: error: #error libcu++ requires "
     "at least C++ 17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.\n",
     "build.cccl3_cpp17_required", "-DCMAKE_CUDA_STANDARD=17"),
    # https://github.com/galaxyproject/KegAlign/pull/39 (the errors quoted without their file names; CUDA_STANDARD 14
    # raised to 17)
    ("The CUDA 13.0 build fails in the CCCL headers the toolkit bundles:\n\n    Thrust requires at least C++17\n"
     "    libcu++ requires at least C++ 17\n    CUB requires at least C++17\n"
     "    make[2]: *** [CMakeFiles/kegalign.dir/common/seed_pos_table.cu.o] Error 1\n",
     "build.cccl3_cpp17_required", "-DCMAKE_CUDA_STANDARD=17"),
    # -- CUDA 13's CCCL headers under include/cccl -------------------------------------------------------------------
    # https://github.com/deepmodeling/abacus-develop/pull/7155 (the cccl include path added for CUDA >= 13.0, merged);
    # the move is in CUDA 13.0's release notes
    ("From CUDA 13.0, Thrust headers were moved from include/thrust to include/cccl/thrust. This causes compilation "
     "errors when building with CUDA 13.0+:\n```\nfatal error: thrust/complex.h: No such file or directory\n```\n",
     "build.cuda_header_missing", "include/cccl"),
    # -- nvcc given -ccbin twice ------------------------------------------------------------------------------------
    # https://github.com/conda-forge/nvcc-feedstock/issues/34 (conda's nvcc wrapper adds -ccbin; a project's own
    # CMAKE_CUDA_HOST_COMPILER made the second; CUDAHOSTCXX instead)
    ("If the project build system explicitly tries to customize compiler path by passing `-ccbin` option, then this "
     "package ends up with the following error:\n`nvcc fatal   : redefinition of argument 'compiler-bindir'`\n"
     "This seems to happen because the nvcc wrapper script explicitly tries to pass `-ccbin` itself.\n",
     "nvcc.host_compiler_given_twice", "NVCC_PREPEND_FLAGS"),
    # https://github.com/MILVLG/bottom-up-attention.pytorch/issues/73 (setup.py's own -ccbin beside the one the build
    # passed; deleting setup.py's fixed it; cudatoolkit from conda)
    ("Hi, I was installing using setup.py but encounter the following error\n```\nnvcc fatal: redefinition of argument "
     "'compiler-bindir'\n```\nSo I checked the nvcc compiling command, and found there are two \"-ccbin\" parameter input. "
     "After I delete the code that assigns value to this field:\n",
     "nvcc.host_compiler_given_twice", "Find the two"),
    # https://github.com/vertcoin-project/vertminer-nvidia/issues/13 (a -ccbin added to Makefile.am's nvcc_FLAGS)
    ("`nvcc_FLAGS += -ccbin clang-3.8 --compiler-options '-fPIC'`\n\nbut ./build.sh fish with\n\n"
     "`nvcc fatal   : redefinition of argument 'compiler-bindir'`\n",
     "nvcc.host_compiler_given_twice", "Find the two"),
    # -- CMake 4.0: policy versions below 3.5 removed ---------------------------------------------------------------
    # https://github.com/artem-ogre/CDT/issues/197 (-DCMAKE_POLICY_VERSION_MINIMUM=3.10 worked; then fixed upstream)
    ("CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n"
     "  Compatibility with CMake < 3.5 has been removed from CMake.\n\n"
     "  Update the VERSION argument <min> value.  Or, use the <min>...<max> syntax\n"
     "  to tell CMake that the project requires at least <min> but has been updated\n"
     "  to work with policies introduced by <max> or earlier.\n\n"
     "  Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.\n",
     "cmake.policy_minimum_removed", "CMAKE_POLICY_VERSION_MINIMUM=3.5"),
    # https://github.com/wkjarosz/hdrview/issues/138 (a fetched dependency's CMakeLists.txt)
    ("[7/7] Completed 'portable-file-dialogs-populate'\n"
     "CMake Error at /var/cache/makepkg/sources/portable-file-dialogs-src/CMakeLists.txt:1 (cmake_minimum_required):\n"
     "  Compatibility with CMake < 3.5 has been removed from CMake.\n",
     "cmake.policy_minimum_removed", "CMAKE_POLICY_VERSION_MINIMUM=3.5"),
    # https://github.com/open-source-parsers/jsoncpp/issues/1671 (an installed package's Config.cmake)
    ("CMake Error at .../jsoncppConfig.cmake:2 (cmake_policy):\n  Compatibility with CMake < 3.5 has been removed from CMake.\n",
     "cmake.policy_minimum_removed", "CMAKE_POLICY_VERSION_MINIMUM=3.5"),
    # -- clang as the CUDA compiler, no toolkit found ---------------------------------------------------------------
    # https://github.com/compiler-explorer/compiler-explorer/pull/9023 (CUDAToolkit_ROOT passed for clang); the message
    # is CMake's Modules/Internal/CMakeCUDAFindToolkit.cmake
    ("| `cuclang1910` | `project(CUDA)` | `Compiler Clang requires the CUDA toolkit. Please set the CUDAToolkit_ROOT` |\n"
     "CMake Error at /usr/share/cmake-3.27/Modules/Internal/CMakeCUDAFindToolkit.cmake:104 (message):\n"
     "  Failed to find nvcc.\n\n  Compiler Clang requires the CUDA toolkit.  Please set the CUDAToolkit_ROOT\n  variable.\n",
     "cmake.no_cuda_compiler", "-DCUDAToolkit_ROOT="),
    # -- CUDA 13's cudaMemPrefetchAsync / cudaMemAdvise signatures ----------------------------------------------------
    # https://github.com/heterodb/pg-strom/issues/931 (gcc on the driver API's cuMemAdvise)
    ("gpu_service.c: In function \u2018__setupGpuJoinPinnedInnerBufferPartitioned\u2019:\n"
     "gpu_service.c:1851:97: error: incompatible type for argument 4 of \u2018cuMemAdvise_v2\u2019\n"
     " 1851 |                                                                  CU_MEM_ADVISE_SET_READ_MOSTLY, -1);\n"
     "/usr/local/cuda/include/cuda.h:14555:99: note: expected \u2018CUmemLocation\u2019 {aka \u2018struct CUmemLocation_st\u2019} "
     "but argument is of type \u2018int\u2019\n",
     "build.cuda13_memlocation_api", "cudaenv use 12.9"),
    # https://github.com/NVIDIA/stdexec/issues/1619 (NVC++ with CUDA 13.0; the project's PR 1623 ported the call)
    ("Building CXX object examples/nvexec/CMakeFiles/example.nvexec.reduce.dir/reduce.cpp.o\n"
     "\"/proj/cuda/stdexec/main/include/nvexec/stream/schedule_from.cuh\", line 97: error: no suitable constructor exists "
     "to convert from \"int\" to \"cudaMemLocation\"\n",
     "build.cuda13_memlocation_api", "release that supports CUDA 13"),
    # -- a README's -arch placeholder pasted as it was -------------------------------------------------------------
    # https://github.com/multimodallearning/pytorch-mask-rcnn/issues/54
    ("When I run 'nvcc -c -o nms_kernel.cu.o nms_kernel.cu -x cu -Xcompiler -fPIC -arch=[arch]', it show info as follows:\n"
     "nvcc fatal   : Value '[arch]' is not defined for option 'gpu-architecture'\n",
     "nvcc.arch_placeholder_value", "-arch=sm_86"),
    # https://github.com/multimodallearning/pytorch-mask-rcnn/issues/38 ("remove the brackets, and it will work")
    ("when I input the following command \"nvcc -c -o nms_kernel.cu.o nms_kernel.cu -x cu -Xcompiler -fPIC -arch=[sm_61]\" "
     ", it reported the \"nvcc fatal   : Value '[sm_61]' is not defined for option 'gpu-architecture'\" error.\n",
     "nvcc.arch_placeholder_value", "without brackets"),
    # https://github.com/jytime/Mask_RCNN_Pytorch/issues/15 (the reporter's retyped "value")
    ("I run this code \n\nnvcc -c -o nms_kernel.cu.o nms_kernel.cu -x cu -Xcompiler -fPIC -arch=arch\n\n"
     "but I got this error \n\nnvcc fatal : value 'arch' is not defined for option 'gpu-architecture' \n",
     "nvcc.arch_placeholder_value", "-arch=sm_86"),
    # near-miss: a real architecture this nvcc dropped keeps its answer (HazyResearch/butterfly#23: sm_30 under CUDA 11.2)
    ("\u201cnvcc fatal   : Value 'sm_30' is not defined for option 'gpu-architecture'\nerror: command "
     "'/usr/local/cuda/bin/nvcc' failed with exit status 1\n\u201d\nWhich CUDA version are you using?\nI use:\npython 3.7\n"
     "pytorch 1.8\nCUDA  11.2\n",
     "nvcc.unsupported_arch", "sm_30"),
    # -- TensorFlow's find_cuda_config: nvcc and libdevice in two roots -------------------------------------------
    # https://github.com/FloopCZ/tensorflow_cc/issues/295 (also tensorflow/tensorflow#56895: Ubuntu 20.04, CUDA 11.7)
    ("The problem is that after doing `cd tensorflow_cc && mkdir build && cd build && cmake .. && make` the `make` fails "
     "with this error:\n\n```\nInconsistent CUDA toolkit path: /usr vs /usr/lib\nAsking for detailed CUDA configuration..."
     "\n```\n",
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # https://github.com/alibaba/BladeDISC/issues/401 (TensorFlow's cuda_configure inside BladeDISC's Bazel build)
    ("# Inconsistent CUDA toolkit path: /usr vs /usr/lib\n"
     "ERROR: An error occurred during the fetch of repository 'local_config_cuda':\n   Traceback (most recent call last):\n"
     "\tFile \"/home/metcon/.cache/bazel/_bazel_metcon/7e3d553b63a714857697b0fdb9a4243d/external/org_tensorflow/third_party/"
     "gpus/cuda_configure.bzl\", line 1442, column 38, in _cuda_autoconf_impl\n"
     "\t\t_create_local_cuda_repository(repository_ctx)\n",
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # -- CUDA 13's deprecated vector types under warnings-as-errors -------------------------------------------------
    # https://github.com/kokkos/kokkos-kernels/issues/2757 (nvcc's -Werror all-warnings; the project's PR 2718 ported it)
    ("/opt/Trilinos/gcc-Cuda/include/KokkosBatched_Vector_SIMD_Arith.hpp(108): error #1444-D: type \"double4\" was "
     "declared deprecated (\"use double4_16a or double4_32a\")\n    double4 r_val;\n            ^\n"
     "/usr/local/cuda/bin/../targets/x86_64-linux/include/vector_types.h(559): note #3287-D: because of a \"deprecated\" "
     "attribute\n",
     "build.cuda13_vector_types_deprecated", "__NV_NO_VECTOR_DEPRECATION_DIAG"),
    # https://github.com/genn-team/genn/issues/723 (MSVC's C4996 from the toolkit's curand_poisson.h; Windows: no cudaenv)
    ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\include\\curand_poisson.h(649,55): error C4996: "
     "'double4::x': use double4_16a or double4_32a [C:\\Users\\seyij\\Documents\\genn-master\\src\\genn\\backends\\cuda\\"
     "cuda_backend.vcxproj]\n",
     "build.cuda13_vector_types_deprecated", "__NV_NO_VECTOR_DEPRECATION_DIAG"),
    # -- NVTX 2 included before CUDA 12.6's CUB brings NVTX 3 ------------------------------------------------------
    # https://github.com/NVIDIA/cccl/issues/2300 (the thread quotes NVTX 3's #error beside the reproducer's CUB chain)
    ("As of CUDA 12.6, CUB includes NVTX version 3 headers.  If a source file includes an earlier version of NVTX and then "
     "includes a CUB header, then the NVTX version 3 header will `#error` out with \"Trying to #include NVTX version 3 in "
     "a source file where an older NVTX version has already been included.\"\n"
     "$ /proj/cuda/12.6/Linux_x86_64/bin/nvcc nvtx.cu\n"
     "In file included from /proj/cuda/12.6.0.560/Linux_x86_64/targets/x86_64-linux/include/cub/detail/nvtx3.hpp:635,\n",
     "build.nvtx2_before_nvtx3", "nvtx3/nvToolsExt.h"),
    # the producer's own words (NVIDIA/NVTX c/include/nvtx3/nvToolsExt.h's #error), as gcc prints them
    ("#error \"Trying to #include NVTX version 3 in a source file where an older NVTX version has already been included.  "
     "If you are not directly using NVTX (the NVIDIA Tools Extension library), you are getting this error because "
     "libraries you are using have included different versions of NVTX.  Suggested solutions are: (1) reorder #includes "
     "so the newest NVTX version is included first, (2) avoid using the conflicting libraries in the same .c/.cpp file, "
     "or (3) update the library using the older NVTX version to use the newer version instead.\"\n",
     "build.nvtx2_before_nvtx3", "nvtx3/nvToolsExt.h"),
    # -- nvprof on Turing/Ampere and newer -------------------------------------------------------------------------
    # https://github.com/brucefan1983/CUDA-Programming/issues/37 (RTX 3070 laptop: solved with nsys)
    ("E:\\Code_Exe\\CUDA_Notes\\CUDA_Code\\chapter5>nvprof .\\add3memory.exe\n"
     "======== Warning: nvprof is not supported on devices with compute capability 8.0 and higher.\n"
     "                  Use NVIDIA Nsight Systems for GPU tracing and CPU sampling and NVIDIA Nsight Compute for GPU "
     "profiling.\n                  Refer https://developer.nvidia.com/tools-overview for more details.\n",
     "profiler.nvprof_unsupported_gpu", "nsys profile"),
    # https://github.com/undertherain/benchmarker/issues/168 (RTX 3070, nvprof's 7.5 wording for events and metrics)
    ("Warning: Skipping profiling on device 0 since profiling is not supported on devices with compute capability 7.5 "
     "and higher.\n                  Use NVIDIA Nsight Compute for GPU profiling and NVIDIA Nsight Systems for GPU tracing "
     "and CPU sampling.\n",
     "profiler.nvprof_unsupported_gpu", "nsys profile"),
    # https://github.com/puttsk/cuda-tutorial/issues/11 (`nsys nvprof` instead)
    ("======== Warning: This version of nvprof doesn't support the underlying device, GPU profiling skipped\n"
     "======== Warning: nvprof is not supported on devices with compute capability 8.0 and higher.\n",
     "profiler.nvprof_unsupported_gpu", "nsys profile"),
    # -- performance counters restricted to administrators ---------------------------------------------------------
    # https://github.com/illinois-scicomp/machine-shop-maintenance/issues/11 (nvprof --metrics; the admins set the
    # module option)
    ("(py3env) kgk2@dunkel:~$ nvprof --metrics all python doublify.py\n"
     "==708142== Warning: ERR_NVGPUCTRPERM - The user does not have permission to profile on the target device. See the "
     "following link for instructions to enable permissions and get more information: https://developer.nvidia.com/"
     "ERR_NVGPUCTRPERM\n",
     "driver.profiling_counters_restricted", "NVreg_RestrictProfilingToAdminUsers=0"),
    # https://github.com/deepseek-ai/DeepGEMM/issues/46 (ncu on a JIT-compiled kernel)
    ("i use command ncu --set full -o deepgemm python tests/test_core.py\nbut report error:\n"
     "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the "
     "target device 0. For instructions on enabling permissions and to get more information see "
     "https://developer.nvidia.com/ERR_NVGPUCTRPERM\n",
     "driver.profiling_counters_restricted", "NVreg_RestrictProfilingToAdminUsers=0"),
    # https://github.com/openxla/xprof/issues/63 (TensorFlow's profiler in Docker: --privileged / SYS_ADMIN)
    ("The Docker container is created by\n"
     "`docker run -it --gpus=all --rm --user \"$(id -u):$(id -g)\" dom/tensorflow:2.2.0-gpu`\n"
     "(plus some volume binds etc). Unfortunately, this setup leads to `CUPTI_ERROR_INSUFFICIENT_PRIVILEGES`.\n",
     "driver.profiling_counters_restricted", "--cap-add=SYS_ADMIN"),
]

test_first_answer = first_answer_tests(CASES)


NOT_THESE = [
    # CCCL 2.x (CUDA 12.x) only warns about C++14 (NVIDIA/cccl v2.8.0 cub/cub/util_cpp_dialect.cuh, the soft message
    # CUB_COMPILER_DEPRECATION_SOFT(C++ 17, C++ 14) prints): no C++17 cause
    ("CUB requires at least C++ 17. C++ 14 is deprecated but still supported. C++ 14 support will be removed in a "
     "future release. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.\n",
     "build.cccl3_cpp17_required"),
    # nvcc's other "redefinition of argument": a project passing -std twice (dmlc/decord#65: CMAKE_CUDA_FLAGS' own
    # -std=c++11 beside CMake's) is not the host compiler given twice
    ("[ 97%] Building CUDA object CMakeFiles/decord.dir/src/improc/improc.cu.o\nnvcc fatal   : redefinition of argument "
     "'std'\nCMakeFiles/decord.dir/build.make:508: recipe for target 'CMakeFiles/decord.dir/src/improc/improc.cu.o' "
     "failed\n", "nvcc.host_compiler_given_twice"),
    # CMake's "< 3.10 will be removed" is a deprecation warning (Source/cmPolicies.cxx), no failure
    ("Compatibility with CMake < 3.10 will be removed from a future version of CMake.\n",
     "cmake.policy_minimum_removed"),
    # a deprecation that stays a warning (vllm-project/vllm#41373, gcc without -Werror) is no cause
    ("/e/project1/reformo/enrico/uv-cache/sdists-v9/pypi/vllm/0.20.0/oLpuqT_zljwshTFDVht4y/src/.deps/vllm-flash-attn-src/"
     "csrc/cutlass/include/cutlass/platform/platform.h:599:33: warning:\n      \u2018long4\u2019 is deprecated: use long4_16a or "
     "long4_32a [-Wdeprecated-declarations]\n", "build.cuda13_vector_types_deprecated"),
    # nvprof's ERR_NVGPUCTRPERM is the counters' permission, not the GPU generation
    ("==708142== Warning: ERR_NVGPUCTRPERM - The user does not have permission to profile on the target device.\n",
     "profiler.nvprof_unsupported_gpu"),
]


@pytest.mark.parametrize("text,not_id", NOT_THESE)
def test_near_misses_keep_their_answer(text: str, not_id: str) -> None:
    assert not_id not in [m.id for m in explain(text)]


def test_torch_cpp17_stays_torch() -> None:
    # torch's own C++17 gate (ATen.h) keeps its entry: the build's standard for torch, not CCCL's
    found = [m.id for m in explain("/opt/conda/envs/my/lib/python3.8/site-packages/torch/include/ATen/ATen.h:4:2: error: "
                                   "#error C++17 or later compatible compiler is required to use ATen.\n")]
    assert found and found[0] != "build.cccl3_cpp17_required", found
