"""Issue 18, round 8, helper "build": a sample of build threads (nvcc, gcc, MSVC, CMake, linker) taken in the
order the search returned them, judged as the held-out judges do, and the families behind its misses and the
burned fresh7 misses (b07 CUB on Windows, b10 x86 intrinsics with a gcc too new). Each excerpt is quoted
(trimmed) from the thread above it; the first environment answer and the first line of its fix are the
thread's resolution. fresh7's own logs are the burned split's: not quoted here.
"""

from __future__ import annotations

from explain_answers import assert_first_answer, first_answer_tests

HDR = "nvcc.host_headers_unsupported"
STD = "build.cxx_std_too_old"
ARCH = "nvcc.unsupported_arch"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- the sample (right before round 8: guards) -----------------------------------------------------------
    # https://github.com/ankurhanda/gvnn/issues/29 (-arch=sm_20 changed to sm_30 in CMakeLists.txt)
    ("Building NVCC (Device) object CMakeFiles/cugvnn.dir/cugvnn_generated_init.cu.o\n"
     "nvcc fatal   : Value 'sm_20' is not defined for option 'gpu-architecture'\n"
     "CMake Error at cugvnn_generated_init.cu.o.cmake:207 (message):\n  Error generating\n"
     "  /path/gvnn/build/CMakeFiles/cugvnn.dir//./cugvnn_generated_init.cu.o",
     ARCH, "take it out of the architecture"),
    # https://github.com/pmh47/dirt/issues/86 (the -arch in CMakeLists.txt replaced by the GPU's sm_XX)
    ("Error during make: nvcc fatal : Value 'sm_20' is not defined for option 'gpu-architecture'",
     ARCH, "take it out of the architecture"),
    # https://github.com/NVIDIA/cccl/issues/5276 (a CTK after 12.9: 60 and 70 removed from CMAKE_CUDA_ARCHITECTURES)
    ("CMake Error at /usr/share/cmake-3.31/Modules/CMakeTestCUDACompiler.cmake:59 (message):\n  The CUDA compiler\n\n"
     '    "/usr/local/cuda/bin/nvcc"\n\n  is not able to compile a simple test program.\n'
     "    nvcc fatal   : Unsupported gpu architecture 'compute_60'\n    ninja: build stopped: subcommand failed.",
     ARCH, "take it out"),
    # https://github.com/EXP-code/EXP/issues/63 (CUDA_ARCHITECTURES set for the targets)
    ('CMake Error in exputil/CMakeLists.txt:\n  CUDA_ARCHITECTURES is empty for target "exputil".\n\n'
     'CMake Error in src/CMakeLists.txt:\n  CUDA_ARCHITECTURES is empty for target "EXPlib".',
     "cmake.cuda_architectures_empty", "CMAKE_CUDA_ARCHITECTURES"),
    # https://github.com/CharlesShang/DCNv2/issues/19 (the extension built with torch's _GLIBCXX_USE_CXX11_ABI)
    ("ImportError: /home/admin/PassengerRec/DCNv2/_ext.cpython-36m-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c105ErrorC1ENS_14SourceLocationERKSs",
     "torch.cxx11_abi", "Rebuild the extension"),
    # https://github.com/NVIDIA/apex/issues/1310 (CUDA 10.2 has no bfloat16: CUDA 11.3 built it)
    ("Compiling cuda extensions with\nnvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 10.2, V10.2.89\n"
     "from /usr/local/cuda/bin\n/tmp/pip-req-build-x8qe1ygy/csrc/megatron/fused_weight_gradient_dense_16bit_prec_cuda.cu(33): "
     'error: identifier "CUDA_R_16BF" is undefined',
     "build.library_api_version", "Build with a newer toolkit"),

    # --- C++ standard: the code needs C++17 (or 14) and the compile runs an older one ------------------------
    # https://github.com/xmake-io/xmake/issues/1624 (xmake did not pass -std=c++17 to nvcc)
    ("/usr/bin/ccache /usr/local/cuda/bin/nvcc -c -Xcompiler -fPIE -O3 -I /usr/local/cuda/include --extended-lambda -m64 "
     "-o build/.objs/prog05/linux/x86_64/release/prog05/main.cu.o prog05/main.cu\n"
     "/home/xq114/.xmake/packages/t/taskflow/v3.2.0/141b4057e59b4b7994004386609dd4bf/include/taskflow/core/../utility/"
     'traits.hpp(100): error: namespace "std" has no member "variant"',
     STD, "-std=c++17"),
    # https://github.com/guoqingbao/attention.rs/pull/1 (gcc 10's default is C++14: -std=c++17 made explicit)
    ('src/sort.cu(10): error: namespace "std" has no member "is_floating_point_v"\n'
     "        static const bool value = std::is_floating_point_v<T>;",
     STD, "-std=c++17"),
    # https://github.com/NVIDIA/cudf/pull/7935 (std::clamp: the JNI build's CXX_STANDARD raised to 17)
    ('error: namespace "std" has no member "clamp"', STD, "CMAKE_CUDA_STANDARD"),

    # --- gcc 14's libstdc++ under nvcc -std=c++11 ---------------------------------------------------------------
    # https://github.com/PyPO-dev/PyPO/issues/207 (CUDA 12.9 and gcc 14.3: the C++ standard raised)
    ('/usr/lib/gcc/x86_64-pc-linux-gnu/14.3.1/include/c++/type_traits(1610): error: "__is_nothrow_new_constructible" is '
     "not a function or static data member\n      constexpr bool __is_nothrow_new_constructible\n\n"
     '/usr/lib/gcc/x86_64-pc-linux-gnu/14.3.1/include/c++/bits/stl_pair.h(1190): error: "__is_pair" is not a function or '
     "static data member\n      inline constexpr bool __is_pair = false;",
     "nvcc.gcc_headers_need_cxx14", "-std=c++17"),
    # https://github.com/signalkinetics/MITO_Codebase/issues/3 (nvcc -ccbin g++-14 --std=c++11; closed, the same family as PyPO#207)
    ("$ nvcc -ccbin g++-14 --cubin -arch sm_86 --std=c++11 imaging_gpu.cu \n"
     '/usr/lib/gcc/x86_64-pc-linux-gnu/14.3.1/include/c++/type_traits(1610): error: "__is_nothrow_new_constructible" is '
     "not a function or static data member",
     "nvcc.gcc_headers_need_cxx14", "instead of -std=c++11"),

    # --- Visual Studio newer than the CUDA's check, the message wrapped by MSBuild --------------------------------
    # https://github.com/kokkos/kokkos/pull/7064 (VS 2022 17.10 with CUDA 12.1 in CI: updated to CUDA 12.4.1)
    ("> C:\\Program Files\\NVIDIA GPU Computing\n  Toolkit\\CUDA\\v12.1\\include\\crt/host_config.h(153): fatal error C1189:\n"
     "  #error: -- unsupported Microsoft Visual Studio version! Only the versions\n"
     "  between 2017 and 2022 (inclusive) are supported! The nvcc flag\n"
     "  '-allow-unsupported-compiler' can be used to override this version check;\n"
     "  [D:\\a\\kokkos\\kokkos\\build\\CMakeFiles\\3.29.3\\CompilerIdCUDA\\CompilerIdCUDA.vcxproj]",
     "msvc.unsupported_version", "newer CUDA"),

    # --- CUB of CUDA 11.7/11.8 on native Windows (fresh7 b07's family) -------------------------------------------
    # https://github.com/facebookresearch/pytorch3d/issues/1603 (CUDA 11.7: a newer CUB copied in solved this error)
    ("C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.7/include\\cub/device/dispatch/dispatch_segmented_sort.cuh(338): "
     "error: invalid combination of type specifiers\n\n"
     "C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.7/include\\cub/device/dispatch/dispatch_segmented_sort.cuh(338): "
     "error: expected an identifier",
     "build.cub_windows_header_clash", "newer CUB"),

    # --- x86 intrinsics nvcc does not know: the gcc of the header path decides (fresh7 b10's family) -------------
    # https://github.com/flexflow/flexflow-train/issues/70 (gcc 7's headers, the CUDA not named; the thread's resolution is not
    # in what was read: this guards the rule of Tencent/TurboTransformers#109, fresh7 b10, "gcc/g++ too new")
    ('/usr/lib/gcc/x86_64-linux-gnu/7/include/avx512fintrin.h(1761): error: identifier "__builtin_ia32_sqrtsd_round" '
     "is undefined\n\n"
     '/usr/lib/gcc/x86_64-linux-gnu/7/include/avx512dqintrin.h(1163): error: identifier "__builtin_ia32_reducesd" is undefined',
     HDR, "Build with a gcc this CUDA supports"),
    # https://github.com/gunrock/gunrock/issues/787 (gcc 5 with CUDA 10.1: within its range, so the include comes first as in
    # tromp/cuckoo#68, fixed in the code; gunrock's own resolution is not in what was read)
    ('"/usr/local/cuda-10.1/bin/nvcc" -gencode=arch=compute_61,code=\\"sm_61,compute_61\\"  -o bin/test_bfs_10.1_x86_64 '
     "test_bfs.cu -D_MWAITXINTRIN_H_INCLUDED  -D_FORCE_INLINES\n"
     '/usr/lib/gcc/x86_64-linux-gnu/5/include/avx512fintrin.h(1740): error: identifier "__builtin_ia32_sqrtsd_round" is undefined',
     HDR, "__CUDACC__"),
]


test_first_answer = first_answer_tests(CASES)


def test_cxx_std_is_silent_when_the_compile_runs_cxx17():
    """A compile that already runs -std=c++17 misses an #include (a program bug): no environment answer."""
    from cudaenv.knowledge.explain import explain

    text = ("nvcc -std=c++17 -c main.cu -o main.o\n"
            'main.cu(12): error: namespace "std" has no member "optional"')
    assert not [m.id for m in explain(text) if m.environment]


def test_x86_intrinsics_with_a_gcc_too_new_for_the_cuda_named():
    """gcc 7's headers with CUDA 9.0 (gcc 6 at most): the older gcc comes first, with the version."""
    m = assert_first_answer('"/usr/local/cuda-9.0/bin/nvcc" x.cu\n/usr/lib/gcc/x86_64-linux-gnu/7/include/avx512fintrin.h(1761): '
                            'error: identifier "__builtin_ia32_sqrtsd_round" is undefined', HDR, "g++-6")
    assert "CUDA 9.0" in m.title
