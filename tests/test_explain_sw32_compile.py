"""Round 32's sweep of compile-side messages in the words of producers other than torch's cpp_extension and CMake's
FindCUDA (19 messages from 19 producers, 11 answered right before the round): the misses, widened into families.

- an option of nvcc's own that the nvcc which ran is too old for (components.yaml ``nvcc-opt-*``, each with the release
  that added it), told apart from a host-compiler flag handed to nvcc;
- a host link flag (libtorch's ``-Wl,--no-as-needed,<lib>.so``, ``-pthread``) at CMake's device-link step: CMake before
  3.13, with or without its version in the log;
- Visual Studio's CUDA build rules whose toolkit was uninstalled (CudaToolkitDir empty);
- Kokkos' sources compiled by plain g++ with CUDA on;
- thrust/ missing where the log names no CUDA (CUDA 13's include/cccl, or a tree without Thrust);
- CUDA 8.0/9.0's nvcc reading Visual Studio 2017's compiler as "a foreign target".

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import assert_first_answer, first_environment_answer


SW32_COMPILE_CASES = [
    # tensorflow/tensorflow#5799 (CUDA 7.0; TF PR 5833 took the option out "for cuda 7.0 compatibility")
    ("nvcc fatal : Unknown option '-expt-relaxed-constexpr' while bazel build\n",
     'nvcc.unknown_option', 'Build with CUDA 7.5 or newer: `which -a nvcc`'),
    # mozilla-ai/llamafile#43 (/usr/bin/nvcc, Ubuntu's, older than the option)
    ("building ggml-cuda with nvcc -arch=compute_61...\nnvcc fatal   : Unknown option '-forward-unknown-to-host-compiler'\n"
     "/usr/bin/nvcc: returned nonzero exit status\n",
     'nvcc.unknown_option', 'Build with CUDA 10.2 or newer: `which -a nvcc`'),
    # pytorch/vision#2076 (libtorch with CMake 3.12.1: "Upgrading CMake to 3.13.2 works")
    ("nvcc fatal : Unknown option 'Wl,--no-as-needed,/app/install/libtorch/lib/libtorch.so'\n",
     'nvcc.unknown_option', 'Configure with CMake 3.13 or newer'),
    # NVIDIA-Omniverse/PhysX#443 (CUDA 13.0's rules left in VS 2022 after uninstalling it)
    ('"E:\\VULKAN\\PhysX\\physx\\compiler\\vc17win64\\CMakeFiles\\4.1.0\\CompilerIdCUDA\\CompilerIdCUDA.vcxproj"\n'
     "  (default target) (1) ->\n\n  (ValidateCudaBuild target) ->\n\n"
     "    C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\MSBuild\\Microsoft\\VC\\v170\\BuildCustomizations\\CUDA 13.0.targets(609,9): "
     "error : The CUDA Toolkit directory '' does not exist.  Please verify the CUDA Toolkit is installed properly or define the "
     "CudaToolkitDir property to resolve this error. [E:\\VULKAN\\PhysX\\physx\\compiler\\vc17win64\\CMakeFiles\\4.1.0\\CompilerIdCUDA\\CompilerIdCUDA.vcxproj]\n",
     'msbuild.cuda_toolkit_dir_missing', 'Install the CUDA release whose rules Visual Studio uses'),
    # kokkos/kokkos#1450 (g++ given Kokkos' sources; --compiler=nvcc_wrapper fixed it)
    ("/home/dog/kokkos/core/src/impl/Kokkos_Spinwait.cpp:157:2: error: expected '}' at end of input\n }} // namespace Kokkos::Impl\n  ^\n"
     "/home/dog/kokkos/core/src/impl/Kokkos_Spinwait.cpp:157:2: error: expected '}' at end of input\n"
     "make[1]: *** [Kokkos_Spinwait.o] Error 1\nmake: *** [kokkoslib] Error 2\n",
     'build.kokkos_compiler', 'Configure with the wrapper as the C++ compiler'),
    # Cytnx-dev/Cytnx#754 (CUDA 13; Cytnx PR 757 added include/cccl)
    ("Cytnx/src/backend/algo_internal_gpu/cuSort_internal.cuh:5:10: fatal error: thrust/sort.h: No such file or directory\n",
     'build.cuda_header_missing', 'If `ls $CUDA_HOME/include/cccl/thrust/sort.h` finds it'),
]


@pytest.mark.parametrize("text, want, fix", SW32_COMPILE_CASES)
def test_compile_side_messages_of_other_producers(text, want, fix):
    assert_first_answer(text, want, fix, where=text[:80])


def test_a_host_flag_handed_to_nvcc_is_still_a_flag_to_forward():
    """The options table holds nvcc's own options only: -Wall, -fPIC and an unknown word keep the forwarding answer,
    and -std keeps its own answer (the first release of the option from compat.yaml's dialect table)."""
    for opt in ("-Wall", "-fPIC", "-Wl,-rpath,/opt/lib", "--frobnicate"):
        first = first_environment_answer(f"nvcc fatal   : Unknown option '{opt}'\n")
        assert first.id == "nvcc.unknown_option" and first.fix.startswith("Pass host-compiler flags through nvcc"), opt
    std = first_environment_answer("nvcc fatal   : Unknown option 'std'\n")
    assert "-std option" in std.title


def test_an_option_newer_than_the_cuda_the_log_shows_names_both_releases():
    first = first_environment_answer("Cuda compilation tools, release 10.1, V10.1.243\n"
                                     "nvcc fatal   : Unknown option '--display-error-number'\n")
    assert first.title == "CUDA 10.1's nvcc has no --display-error-number option (nvcc has it from CUDA 11.2)"
    assert "-Xcudafe --display_error_number" in first.fix


def test_the_device_link_step_names_an_old_cmake_without_its_version():
    """CMake 3.13 hands a target's link flags to the host compiler: -pthread refused at "Linking CUDA device code" is an
    older CMake even when the log does not print its version (llnl/blt#270's form); the same flag refused while
    compiling is the project's own flags (UCI-CARL/CARLsim6#36's Makefile), answered as a flag to forward."""
    linked = first_environment_answer("[ 94%] Linking CUDA device code CMakeFiles/app.dir/cmake_device_link.o\n"
                                      "nvcc fatal   : Unknown option 'pthread'\n")
    assert linked.title.startswith("CMake older than 3.13")
    compiled = first_environment_answer("nvcc -O3 -c kernel.cu -pthread\nnvcc fatal   : Unknown option 'pthread'\n")
    assert not compiled.title.startswith("CMake older than 3.13")


def test_kokkos_reads_its_own_sources_only():
    """The same g++ words in a project's own file are no Kokkos answer."""
    got = explain("/home/u/app/src/solver.cpp:157:2: error: expected '}' at end of input\n")
    assert "build.kokkos_compiler" not in [m.id for m in got]


def test_thrust_with_cuda_13_named_keeps_its_versioned_answer_and_cub_its_release():
    thirteen = first_environment_answer("-- Found CUDAToolkit: /usr/local/cuda-13.0/include (found version \"13.0.48\")\n"
                                        "src/sort.cpp:3:10: fatal error: thrust/sort.h: No such file or directory\n")
    assert thirteen.title.startswith("CUDA 13.0 keeps thrust/sort.h under include/cccl")
    cub = first_environment_answer("src/scan.cpp:3:10: fatal error: cub/cub.cuh: No such file or directory\n")
    assert "CUDA 13 keeps it under include/cccl" not in cub.title


def test_visual_studio_2017_under_cuda_8_is_a_compiler_newer_than_the_toolkit():
    """microsoft/vcpkg#2791: CUDA 8.0 and VS 2017's v141 ("CUDA 8.0 doesn't support default compiler VC141"); without
    either version in the log the 32-bit reading stays first."""
    log = ('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v8.0\\bin\\nvcc.exe -ccbin "C:\\Program Files (x86)\\'
           'Microsoft Visual Studio\\2017\\Community\\VC\\Tools\\MSVC\\14.12.25827\\bin\\HostX64\\x64"\n'
           "nvcc fatal   : Host compiler targets unsupported OS.\n")
    first = first_environment_answer(log)
    assert first.id == "nvcc.host_compiler_wrong_target" and "Visual Studio 2017" in first.title
    assert first.fix.startswith("Build with a Visual C++ this CUDA supports")
    bare = first_environment_answer("nvcc fatal   : Host compiler targets unsupported OS.\n")
    assert "32-bit" in bare.title
