"""Round 19, fresh19's burned build-side misses fixed as families (helper f19build).

- K-order: the failing nvcc command names its host compiler itself (`-ccbin` from a Makefile's CXX, a setup.py's
  hard-coded `-ccbin clang`, CMake's CMAKE_CUDA_HOST_COMPILER): NVCC_PREPEND_FLAGS' second -ccbin collides with it, so
  the first line changes the build's own -ccbin (or passes the build's own -allow-unsupported-compiler).
- K-wording: nvcc's front end failing on libstdc++ headers: `identifier "__float128" is undefined` in std_abs.h /
  type_traits, and EDG error #1921 (pack "_UElements" ...) in gcc 10's <tuple> under C++17 with CUDA 11.1.
- N-family: glibc 2.23's string.h `__mempcpy_inline` under CUDA 7.5 (-D_FORCE_INLINES); CMake taking the system
  gcc 4.8 while a newer gcc module is loaded (export CC/CXX, new build directory).

Excerpts are verbatim (trimmed) from the threads named above them."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- nvcc.clang_too_new: the build's own -ccbin --------------------------------------------------------------------
    # https://github.com/madgraph5/madgraph4gpu/issues/504 (fresh19 s04: -ccbin from the Makefile's CXX; a makefile
    # option passing -allow-unsupported-compiler closed it)
    ("ccache /p/software/juwels/stages/2022/software/CUDA/11.5/bin/nvcc  -O3  -lineinfo -I. -I../../src "
     "-gencode arch=compute_80,code=sm_80 -use_fast_math -std=c++17  -ccbin "
     "/p/software/juwels/stages/2022/software/Clang/13.0.1-GCCcore-11.2.0/bin/clang++ -DMGONGPU_FPTYPE_DOUBLE "
     "-Xcompiler -fPIC -c gcheck_sa.cu -o gcheck_sa.o\n"
     "In file included from <built-in>:1:\n"
     "In file included from /p/software/juwels/stages/2022/software/CUDA/11.5/include/cuda_runtime.h:83:\n"
     "/p/software/juwels/stages/2022/software/CUDA/11.5/include/crt/host_config.h:147:2: error: -- unsupported clang "
     "version! clang version must be less than 13 and greater than 3.2 . The nvcc flag '-allow-unsupported-compiler' "
     "can be used to override this version check; however, using an unsupported host compiler may cause compilation "
     "failure or incorrect run time execution. Use at your own risk.\n",
     "nvcc.clang_too_new", "-allow-unsupported-compiler` to the build's own nvcc flags"),
    # https://github.com/NVIDIA/cccl/issues/7 (CMake's try-compile passes -ccbin=/usr/bin/clang++-10)
    ("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -ccbin=/usr/bin/clang++-10    -MD -MT "
     "CMakeFiles/cmTC_cd864.dir/main.cu.o -x cu -c main.cu -o CMakeFiles/cmTC_cd864.dir/main.cu.o\n"
     "In file included from <built-in>:1:\n"
     "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:147:2: error: -- unsupported clang version! "
     "clang version must be less than 10 and greater than 3.2 . The nvcc flag '-allow-unsupported-compiler' can be used "
     "to override this version check\n",
     "nvcc.clang_too_new", "CMAKE_CUDA_HOST_COMPILER=/usr/bin/g++"),
    # guard: no -ccbin on the nvcc line (STEllAR-GROUP/octotiger#384's message alone): NVCC_PREPEND_FLAGS stays first
    ("/global/common/software/nersc/cos1.3/cuda/11.3.0/bin/../targets/x86_64-linux/include/crt/host_config.h:147:2: "
     "error: -- unsupported clang version! clang version must be less than 12 and greater than 3.2\n",
     "nvcc.clang_too_new", 'export NVCC_PREPEND_FLAGS="-ccbin clang++-'),
    # -- nvcc.host_compiler_rejected: a hard-coded -ccbin -------------------------------------------------------------
    # https://github.com/JPaulMora/Pyrit/issues/581 (fresh19 s05: removing "-ccbin clang" from setup.py fixed it)
    ("> Executing '/opt/cuda/bin/nvcc -m64 -ccbin clang -Xcompiler \"-fPIC\" --ptx ./_cpyrit_cudakernel.cu'\n"
     "nvcc fatal   : The version ('7.0') of the host compiler ('clang') is not supported\n"
     "  File \"setup.py\", line 91, in run\n    subprocess.check_call(nvcc_cmd, shell=True)\n",
     "nvcc.host_compiler_rejected", "remove that -ccbin so nvcc uses the default gcc"),
    # https://github.com/clang-omp/clang/issues/76 ("try nvcc to use gcc ... for the host compiler")
    ("/usr/local/cuda/bin/nvcc -ccbin /usr/local/bin/clang-omp test.cu\n"
     "nvcc fatal   : The version ('30500') of the host compiler ('clang') is not supported\n",
     "nvcc.host_compiler_rejected", "remove that -ccbin"),
    # guard: no -ccbin in the log (LBANN/lbann#105, FindCUDA's generated command not shown): not the -ccbin answer;
    # [t32] clang 4.0 is newer than that CUDA 8 (9.1 is the first to take it): a newer CUDA first, gcc second
    ("[ 80%] Building NVCC (Device) object CMakeFiles/lbann.dir/src/utils/lbann_generated_cudnn_wrapper_cuda.cu.o\n"
     "nvcc fatal   : The version ('40000') of the host compiler ('clang') is not supported\n"
     "CMake Error at lbann_generated_cudnn_wrapper_cuda.cu.o.cmake:207 (message):\n",
     "nvcc.host_compiler_rejected", "Build with a newer CUDA, one that takes this clang"),
    # -- nvcc.host_headers_unsupported: libstdc++'s __float128 --------------------------------------------------------
    # https://github.com/JPaulMora/Pyrit/issues/541 (fresh19 s08: patched std_abs.h's guard with !defined(__CUDACC__))
    ("Compiling CUDA module using nvcc 9.0, V9.0.176...\n"
     "Executing '/usr/local/cuda/bin/nvcc -m64 -ccbin clang -Xcompiler \"-fPIC\" --ptx ./_cpyrit_cudakernel.cu'\n"
     "/usr/bin/../lib/gcc/x86_64-linux-gnu/7.2.0/../../../../include/c++/7.2.0/bits/std_abs.h(101): error: identifier "
     "\"__float128\" is undefined\n\n"
     "2 errors detected in the compilation of \"/tmp/tmpxft_0000380c_00000000-6__cpyrit_cudakernel.cpp1.ii\".\n",
     "nvcc.host_headers_unsupported", "&& !defined(__CUDACC__)"),
    # https://github.com/UoB-HPC/BabelStream/issues/16 (gcc 5.4's type_traits; the same guard, or strict -std=c++11)
    ("/opt/gcc/5.4.0/include/c++/5.4.0/type_traits(311): error: identifier \"__float128\" is undefined\n",
     "nvcc.host_headers_unsupported", "-std=c++11"),
    # guard: the builtin form keeps its answer (NVIDIA/cuda-gdb#4's kind: gcc 7 with CUDA 9.0)
    ("/usr/include/c++/7/bits/atomic_base.h(83): error: identifier \"__atomic_thread_fence\" is undefined\n",
     "nvcc.host_headers_unsupported", "NVCC_PREPEND_FLAGS='-ccbin g++-6'"),
    # -- nvcc.host_headers_unsupported: gcc 10's <tuple> in C++17 with CUDA 11.1 --------------------------------------
    # https://github.com/ComputationalRadiationPhysics/picongpu/pull/3962 (fresh19 s66: other modules fixed it)
    ("/software/haswell/GCCcore/10.2.0/include/c++/10.2.0/tuple(566): error #1921: pack \"_UElements\" does not have "
     "the same number of elements as \"_Elements\"\n"
     "          detected during:\n"
     "            instantiation of \"__nv_bool std::tuple<_Elements...>::__nothrow_constructible<_UElements...>() "
     "[with _Elements=<const int &>, _UElements=<>]\"\n"
     "/software/haswell/GCCcore/10.2.0/include/c++/10.2.0/bits/stl_map.h(502): here\n",
     "nvcc.host_headers_unsupported", "Use a newer CUDA with this gcc (11.2 or newer"),
    # https://github.com/madgraph5/madgraph4gpu/issues/292 (CUDA 11.1 with gcc 10.3, -std=c++17)
    ("ccache /usr/local/cuda-11.1/bin/nvcc  -O3  -lineinfo -std=c++17 -I. -arch=compute_70 -use_fast_math -ccbin "
     "/cvmfs/sft.cern.ch/lcg/releases/gcc/10.3.0-f5826/x86_64-centos7/bin/g++ -c gcheck_sa.cu -o gcheck_sa.o\n"
     "/cvmfs/sft.cern.ch/lcg/releases/gcc/10.3.0-f5826/x86_64-centos7/include/c++/10.3.0/tuple(570): error: pack "
     "\"_UElements\" does not have the same number of elements as \"_Elements\"\n",
     "nvcc.host_headers_unsupported", "keep CUDA 11.1 with gcc 9"),
    # guard: gcc 11's std_function.h keeps the entry's own first line (gcc 10 for CUDA 11.1-11.5)
    ("/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded with '...':\n",
     "nvcc.host_headers_unsupported", "gcc 10 for CUDA 11.1-11.5"),
    # -- nvcc.glibc_string_h_force_inlines ----------------------------------------------------------------------------
    # https://github.com/hasindu2008/f5c/issues/36 (fresh19 s12: CUDA_CFLAGS+="-D_FORCE_INLINES")
    ("nvcc -x cu -g  -O2 -std=c++11 -lineinfo  -Xcompiler -Wall  -I./htslib   -DHAVE_CUDA=1 -rdc=true -c src/f5c.cu "
     "-o build/f5c_cuda.o\n"
     "/usr/include/string.h: In function ‘void* __mempcpy_inline(void*, const void*, size_t)’:\n"
     "/usr/include/string.h:652:42: error: ‘memcpy’ was not declared in this scope\n"
     "   return (char *) memcpy (__dest, __src, __n) + __n;\n"
     "Makefile:76: recipe for target 'build/f5c_cuda.o' failed\n",
     "nvcc.glibc_string_h_force_inlines", "-D_FORCE_INLINES"),
    # https://github.com/OpenGP/htrack/issues/19 (set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -D_FORCE_INLINES"))
    ("/usr/include/string.h: In function ‘void* __mempcpy_inline(void*, const void*, size_t)’:\n"
     "/usr/include/string.h:652:42: error: ‘memcpy’ was not declared in this scope\n"
     "   return (char *) memcpy (__dest, __src, __n) + __n;\n"
     "CMake Error at cudax_generated_outer_product.cu.o.cmake:262 (message):\n  Error generating file\n",
     "nvcc.glibc_string_h_force_inlines", "list(APPEND CUDA_NVCC_FLAGS -D_FORCE_INLINES)"),
    # -- cmake.system_gcc_not_module ----------------------------------------------------------------------------------
    # https://github.com/spiral-software/fftx/issues/9 (fresh19 s67: export CC/CXX to the gcc 7.4.0 module, "That worked")
    ("I am running on summit, with\ncmake version 3.18.2\ngcc (GCC) 7.4.0\n"
     "Cuda compilation tools, release 9.2, V9.2.148\n\nmake install\n"
     "/ccs/home/petermc/fftx/include/fftx3.hpp:430:88: error: no matching function for call to "
     "'regex_replace(const char*&, std::regex, const char*&)'\n"
     "In file included from /usr/include/c++/4.8.2/regex:62:0,\n"
     "                 from /ccs/home/petermc/fftx/include/fftx3.hpp:17,\n",
     "cmake.system_gcc_not_module", "export CC=$(which gcc) CXX=$(which g++)"),
    # https://github.com/3dem/relion/issues/1106 (gcc/11.2 module loaded, CMake identifies GNU 4.8.5 at /usr/bin/c++)
    ("Currently Loaded Modules:\n  1) xpdf/4.00.01             3) cuda/12.1.0           5) gcc/11.2 (H)\n"
     "  2) gcc/11.2/openmpi/4.1.3\n\n"
     "cmake -DPYTHON_EXE_PATH=/home/user/miniconda3/envs/relion-5.0/bin/python ..\n"
     "-- The C compiler identification is GNU 4.8.5\n-- The CXX compiler identification is GNU 4.8.5\n"
     "-- Check for working C compiler: /usr/bin/cc\n-- Check for working CXX compiler: /usr/bin/c++ -- works\n",
     "cmake.system_gcc_not_module", "export CC=$(which gcc)"),
]

test_first_answer = first_answer_tests(CASES)

# near misses that must not take the new answers
NOT_THESE = [
    # jakcron/nstool#41: the program's own file lacks <cstring>, not glibc's string.h
    ("source/NroHeader.cpp: In member function ‘virtual void nx::NroHeader::toBytes()’:\n"
     "source/NroHeader.cpp:60:2: error: ‘memcpy’ was not declared in this scope\n"
     "source/NroHeader.cpp:60:2: note: ‘memcpy’ is defined in header ‘<cstring>’; did you forget to "
     "‘#include <cstring>’?\n", "nvcc.glibc_string_h_force_inlines"),
    # a CentOS 7 build with its own gcc 4.8.5 and no newer gcc anywhere in the log
    ("-- The C compiler identification is GNU 4.8.5\n-- The CXX compiler identification is GNU 4.8.5\n"
     "In file included from /usr/include/c++/4.8.5/regex:35:0,\n"
     "/usr/include/c++/4.8.5/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library support "
     "for the ISO C++ 2011 standard.\n", "cmake.system_gcc_not_module"),
    # fresh19 s11's kind: Boost 1.60's suffix.hpp (a Boost bug), not libstdc++'s headers
    ("/usr/local/include/boost/config/suffix.hpp(510): error: identifier \"__float128\" is undefined\n",
     "nvcc.host_headers_unsupported"),
]


@pytest.mark.parametrize("text,not_id", NOT_THESE)
def test_near_misses_keep_their_answer(text: str, not_id: str) -> None:
    assert not_id not in [m.id for m in explain(text)]
