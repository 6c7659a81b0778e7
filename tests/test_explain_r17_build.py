"""Round 17 (census of the burned build-side misses): the kinds that were misses because the log's own fact was not
read (B) and the kinds that recur across projects (D), each answered from its resolution table.

- B: a Rust (cargo) build's nvcc gets `-ccbin=$CXX` from the cc crate, so a gcc too new is chosen through CC/CXX
  (NVCC_PREPEND_FLAGS' second -ccbin breaks it); a Nix build's CUDA 12 headers against glibc 2.42 are patched in
  nixpkgs' cuda_nvcc, not replaced by a CUDA 13 installed outside Nix.
- D: gcc older than the C++ dialect the build passes ("unrecognized command line option '-std=c++14'"): a newer gcc,
  or the prebuilt wheel of a package that publishes them (mmcv-full, PyG); Visual Studio's missing
  "BuildCustomizations\\CUDA X.Y.props": that CUDA, or its Visual Studio integration; Sunshine's check_language(CUDA)
  "CUDA not found": CMAKE_CUDA_COMPILER (and a host compiler the toolkit accepts).

Excerpts are verbatim (trimmed) from the threads named above them."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- a cargo build: CC/CXX choose nvcc's host compiler ------------------------------------------------------------
    # https://github.com/HigherOrderCO/HVM1/issues/381 (fresh16 p02; maintainer: `CXX=g++-12 cargo install hvm`)
    ("cargo install hvm\n    Updating crates.io index\n  Installing hvm v2.0.19\n   Compiling cc v1.0.99\n"
     "The following warnings were emitted during compilation:\n\n"
     "warning: hvm@2.0.19: In file included from /usr/include/cuda_runtime.h:83,\n"
     "warning: hvm@2.0.19: /usr/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions "
     "later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version "
     "check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. "
     "Use at your own risk.\n",
     "nvcc.gcc_too_new", "CXX=g++-12 cargo"),
    # https://github.com/Ledarium/rusty_pickaxe/issues/6 (a cargo build with the distribution's nvcc, gcc past 10)
    ("cargo run --features cuda --release config.json\n"
     " Compiling rusty_pickaxe v0.0.4 (/home/dnubuntu/downloads/git/denaro/rusty_pickaxe)\n"
     "The following warnings were emitted during compilation:\n\n"
     "warning: In file included from /usr/include/cuda_runtime.h:83,\n"
     "warning: /usr/include/crt/host_config.h:139:2: error: #error -- unsupported GNU version! gcc versions later than 10 "
     "are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check\n\n"
     "error: failed to run custom build command for `rusty_pickaxe v0.0.4`\n",
     "nvcc.gcc_too_new", "CXX=g++-10"),
    # guard: the same message in a CMake build keeps the profile's -ccbin (no cargo in the log)
    ("/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later "
     "than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check\n"
     "make[2]: *** [CMakeFiles/kernels.dir/build.make:76: CMakeFiles/kernels.dir/kernels.cu.o] Error 1\n",
     "nvcc.gcc_too_new", "g++-11"),
    # -- a Nix build: nixpkgs' cuda_nvcc is patched for glibc 2.42 ---------------------------------------------------
    # https://github.com/nixified-ai/flake/issues/172 (fresh15 n09: the flake's PR 173 patched math_functions.h)
    ("error: Cannot build '/nix/store/5fvmx81wpr9n3lcyvaw8q48529s5hljf-python3.13-sageattention-unstable-2025-07-21.drv'.\n"
     "       Reason: builder failed with exit code 1.\n"
     "       > /nix/store/rwalsamz4246k8f1zzxa54qx7w3fbzdg-glibc-2.42-47-dev/include/bits/mathcalls.h(85): error: exception "
     "specification is incompatible with that of previous function \"sinpi\" (declared at line 2556 of "
     "/nix/store/i3lmj6lk10wzhnfwds45p6cnbprv0rgc-cuda-redist/include/crt/math_functions.h)\n",
     "nvcc.glibc_c23_math", "nixpkgs whose cudaPackages.cuda_nvcc patches math_functions.h"),
    # https://github.com/NixOS/nixpkgs/pull/483507 (bitsandbytes' CUDA build after glibc 2.42 reached nixpkgs)
    ("  Compiler:\n  /nix/store/k3dps7npc4mb3k1dd2ksfkhfpdmg5i1k-cuda12.8-cuda_nvcc-12.8.93/bin/nvcc\n\n"
     "  /nix/store/rwalsamz4246k8f1zzxa54qx7w3fbzdg-glibc-2.42-47-dev/include/bits/mathcalls.h(83):\n"
     "  error: exception specification is incompatible with that of previous\n"
     "  function \"cospi\" (declared at line 2601 of\n"
     "  /nix/store/w2657dnk2y6970ph0fqkyr0x7j34m7kf-cuda-native-redist-12.8/include/crt/math_functions.h)\n",
     "nvcc.glibc_c23_math", "nix flake update"),
    # guard: outside Nix the answer stays CUDA 13 first (NVIDIA/cuda-samples#378, Ubuntu 25.04 with CUDA 12.9)
    ("usr/include/x86_64-linux-gnu/bits/mathcalls.h(79): error: exception\n"
     "  specification is incompatible with that of previous function \"cospi\"\n"
     "  (declared at line 2601 of\n"
     "  /usr/local/cuda-12.9/bin/../targets/x86_64-linux/include/crt/math_functions.h)\n",
     "nvcc.glibc_c23_math", "Use CUDA 13.0 or newer"),
    # -- gcc older than the C++ dialect ------------------------------------------------------------------------------
    # https://github.com/amazon-science/video-contrastive-learning/issues/6 (fresh16 p10: OpenMMLab's prebuilt wheel)
    ("when I run pip install mmcv-full==1.2.7 and I found that I got the error gcc: error: unrecognized command line "
     "option ‘-std=c++14’\n    error: command 'gcc' failed with exit status 1, is that because the gcc version I used is "
     "not right? My gcc version is 4.8.5\n",
     "build.host_compiler_no_std", "download.openmmlab.com/mmcv/dist"),
    # https://github.com/jshun/ligra/issues/35 (maintainer: "tested on gcc >= 5.3.0")
    ("g++ -std=c++14 -O3   -DBYTERLE   -o encoder encoder.C\n"
     "g++: error: unrecognized command line option ‘-std=c++14’\nmake: *** [encoder] Error 1\n",
     "build.host_compiler_no_std", "gcc 5 or newer"),
    # https://github.com/3dem/relion/issues/1112 (gcc 4.8.5 on RHEL 7 under nvcc 10.2)
    ("[ 71%] Building NVCC (Device) object src/apps/CMakeFiles/relion_jaz_gpu_util.dir/__/jaz/cuda/./"
     "relion_jaz_gpu_util_generated_test00.cu.o\n"
     "nvcc warning : The -std=c++14 flag is not supported with the configured host compiler. Flag will be ignored.\n"
     "cc: error: unrecognized command line option ‘-std=c++14’\n"
     "CMake Error at relion_jaz_gpu_util_generated_test00.cu.o.cmake:206 (message):\n",
     "build.host_compiler_no_std", "devtoolset-9"),
    # https://github.com/mmcdermott/structure_inducing_pre-training/issues/2 (torch-scatter's build: PyG's wheels)
    ("Note that none of the 'pip install torch-scatter,sparce,cluster,etc'  commands work.\n"
     "    gcc -pthread -B /home/covelld/anaconda3/compiler_compat -c csrc/segment_csr.cpp -o "
     "build/temp.linux-x86_64-3.8/csrc/segment_csr.o -O3 -DTORCH_EXTENSION_NAME=_segment_csr_cpu "
     "-D_GLIBCXX_USE_CXX11_ABI=0 -std=c++14\n    gcc: error: unrecognized command line option '-std=c++14'\n",
     "build.host_compiler_no_std", "data.pyg.org"),
    # https://github.com/Creepsky/creepMiner/issues/284 (CMake's GNU 4.8.5)
    ("-- The CXX compiler identification is GNU 4.8.5\n"
     "[  2%] Building CXX object CMakeFiles/creepMiner.dir/src/gpu/impl/gpu_cuda_impl.cpp.o\n"
     "c++: error: unrecognized command line option ‘-std=c++14’\n",
     "build.host_compiler_no_std", "gcc 5 or newer"),
    # -- Visual Studio's CUDA build customization --------------------------------------------------------------------
    # https://github.com/DarioSamo/sm64rt-legacy-renderer/issues/15 (fresh16 p70: install CUDA 11.3)
    ("When opening the project file both the sample and  rt64Lib fail to load due to this error:\n"
     "`The imported project \"C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\Community\\MSBuild\\Microsoft\\VC\\"
     "v160\\BuildCustomizations\\CUDA 11.3.props\" was not found. Confirm that the expression in the Import declaration "
     "\"C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\Community\\MSBuild\\Microsoft\\VC\\v160\\\\"
     "BuildCustomizations\\CUDA 11.3.props\" is correct, and that the file exists on disk.  "
     "C:\\Github\\RT64\\src\\rt64lib\\rt64lib.vcxproj`\n",
     "msvc.cuda_build_customization_missing", "install CUDA 11.3"),
    # https://github.com/brichard19/BitCrack/issues/234 (copy MSBuildExtensions into BuildCustomizations)
    ("Error\tMSB4019\tThe imported project \"C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\Community\\MSBuild\\"
     "Microsoft\\VC\\v160\\BuildCustomizations\\CUDA 10.1.props\" was not found. \n"
     "Confirm that the expression in the Import declaration \"C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\"
     "Community\\MSBuild\\Microsoft\\VC\\v160\\\\BuildCustomizations\\CUDA 10.1.props\" is correct, and that the file "
     "exists on disk.\tcuKeyFinder\tC:\\BitCrack-master\\CudaKeySearchDevice\\CudaKeySearchDevice.vcxproj\t59\t\n",
     "msvc.cuda_build_customization_missing", "visual_studio_integration"),
    # https://github.com/moderngpu/moderngpu/issues/1 (CUDA 5.5 installed, the project asks for 5.0)
    ("C:\\Alenka\\moderngpu\\demo\\demo.vcxproj(32,5): The imported project \"C:\\Program Files (x86)\\MSBuild\\"
     "Microsoft.Cpp\\v4.0\\V110\\BuildCustomizations\\CUDA 5.0.props\" was not found. Confirm that the path in the "
     "<Import> declaration is correct, and that the file exists on disk.\n",
     "msvc.cuda_build_customization_missing", "retargeting the project"),
    # https://github.com/dlunion/tensorRTIntegrate/issues/15 (Chinese Visual Studio: CUDA 10.0 not installed)
    ("错误\tMSB4019\t未找到导入的项目“C:\\Program Files (x86)\\Microsoft Visual Studio\\2017\\Community\\Common7\\IDE\\VC\\"
     "VCTargets\\BuildCustomizations\\CUDA 10.0.props”。请确认 <Import> 声明中的路径正确，且磁盘上存在该文件。\tTensorRT\t"
     "D:\\github_prj\\tensorRTIntegrate-master\\TensorRT.vcxproj\t128\t\n",
     "msvc.cuda_build_customization_missing", "CUDA 10.0"),
    # -- Sunshine's check_language(CUDA) ------------------------------------------------------------------------------
    # https://github.com/MrOz59/Apollo-Linux/issues/28 (fresh15 n73: -DCMAKE_CUDA_COMPILER=/opt/cuda/bin/nvcc)
    ("CMake Error at cmake/compile_definitions/linux.cmake:64 (message):\n  CUDA not found.\n\n"
     "                  If this is intentional, set '-DSUNSHINE_ENABLE_CUDA=OFF' or '-DCUDA_FAIL_ON_MISSING=OFF'\n"
     "Call Stack (most recent call first):\n  cmake/compile_definitions/common.cmake:47 (include)\n",
     "cmake.no_cuda_compiler", "-DCMAKE_CUDA_COMPILER=/opt/cuda/bin/nvcc"),
    # https://github.com/LizardByte/Sunshine/issues/5152 (the host g++ too new for Arch's CUDA: CMAKE_CUDA_HOST_COMPILER)
    ("-- Looking for a CUDA compiler\n-- Looking for a CUDA compiler - NOTFOUND\n"
     "CMake Error at cmake/compile_definitions/linux.cmake:62 (message):\nCUDA not found.\n\n"
     "If this is intentional, set '-DSUNSHINE_ENABLE_CUDA=OFF' or '-DCUDA_FAIL_ON_MISSING=OFF'\n",
     "cmake.no_cuda_compiler", "-DCMAKE_CUDA_HOST_COMPILER="),
    # guard: CMake's plain "No CMAKE_CUDA_COMPILER" keeps its answer
    ("CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be found.\n\n"
     "  Tell CMake where to find the compiler by setting either the environment\n"
     "  variable \"CUDACXX\" or the CMake cache entry CMAKE_CUDA_COMPILER\n",
     "cmake.no_cuda_compiler", "cudaenv use"),
    # -- a CUDA link through nvcc's older host compiler, C++ from a newer gcc ----------------------------------------
    # https://github.com/ginkgo-project/ginkgo/issues/598 (fresh15 n03: `CC=gcc-8 CXX=g++-8 cmake ..`)
    ("[ 28%] Linking CUDA executable exception_helpers\n"
     "/usr/bin/ld: ../../../third_party/gtest/build/googlemock/gtest/./libgtest.a(gtest-all.cc.o): in function "
     "`testing::internal::JsonUnitTestResultPrinter::PrintJsonTestCase(std::ostream*, testing::TestCase const&)':\n"
     "gtest-all.cc:(.text+0x2008c): undefined reference to `std::__cxx11::basic_stringstream<char, "
     "std::char_traits<char>, std::allocator<char> >::basic_stringstream()'\n",
     "link.cuda_host_compiler_mismatch", "CC=gcc-8 CXX=g++-8 CUDAHOSTCXX=g++-8 cmake"),
    # https://github.com/lattice/quda/issues/668 (a CUDA executable's link, libstdc++ symbols of another gcc)
    ("[ 75%] Linking CUDA executable gauge_force_test\n"
     "../lib/libquda.a(coarse_op.cu.o): In function `void\nstd::__cxx11::basic_string<char, std::char_traits<char>,\n"
     "std::allocator<char> >::_M_construct<char const*>(char const*, char\nconst*, std::forward_iterator_tag) "
     "[clone .isra.89]':\ntmpxft_0001622a_00000000-4_coarse_op.cudafe1.cpp:(.text+0xc8): undefined\nreference to "
     "`std::__cxx11::basic_string<char, std::char_traits<char>,\nstd::allocator<char> >::_M_create(unsigned long&, "
     "unsigned long)'\n",
     "link.cuda_host_compiler_mismatch", "one gcc the toolkit accepts"),
]

test_first_answer = first_answer_tests(CASES)

# Program bugs near the new patterns stay unclaimed: the project's own C++ under a dialect the compiler knows, a
# kernel's own undefined identifier.
NEGATIVES = [
    # https://github.com/lightvector/KataGo/issues/178: a C++ link (no CUDA link line) is not claimed by the new entry
    "[ 100%] Linking CXX executable katago\n/home/gus/Arch/KataGo/cpp/program/play.cpp:659: undefined reference to "
    "`std::__cxx11::basic_ostringstream<char, std::char_traits<char>, std::allocator<char> >::basic_ostringstream()'\n",
    "g++ -std=c++14 -O3 -c main.cpp\nmain.cpp:12:5: error: 'make_unique' is not a member of 'std'\n",
    "src/kernel.cu(42): error: identifier \"blockDim_x\" is undefined\n1 error detected in the compilation of "
    "\"src/kernel.cu\".\n",
    "cc1plus: warning: command line option '-std=c++14' is valid for C++/ObjC++ but not for C\n"
    "main.c:3:10: error: expected ';' before 'return'\n",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_program_bugs_stay_unclaimed(text: str) -> None:
    assert not [m.id for m in explain(text) if m.environment], [m.id for m in explain(text)]
