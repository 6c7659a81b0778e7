"""Round 15, helper "compiler": answers that follow the build's situation, each first line written from the resolution
table of its cause (docs/explain.md "Which fix comes first", principles 8 and 9).

- glibc 2.34's two-argument malloc attribute under gcc 11 and an nvcc older than CUDA 11.6
  (``nvcc.glibc_malloc_attribute``, new): a newer toolkit first, gcc 10 as nvcc's host compiler second; the CUDA the log
  names (a toolkit path, a module tree, nvcc's -D__CUDACC_VER_* macros) is named.
- conda's cudatoolkit package (or a conda environment) named as the toolkit has no nvcc (``torch.nvcc_not_found``
  variants): a package with nvcc in that environment, or a system toolkit.
- find_package(NVHPC) finding no NVHPCConfig.cmake (``cmake.nvhpc_config_not_found``, new): the SDK's cmake directory
  on CMAKE_PREFIX_PATH (or NVHPC_DIR), told apart from an SDK that is not installed by ``find``.
- Triton's -lcuda link naming a 32-bit directory beside the 64-bit one (``link.lcuda_not_found``): not the 32-bit
  cause; the plain libcuda.so symlink of the entry's first line.
- a toolkit older than CUDA 11 refusing a newer gcc (``nvcc.gcc_too_new``): the first line names both resolutions the
  threads used, an older gcc when this toolkit is the only one, the newer toolkit when ``cudaenv list`` shows one.

Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss wordings on their answers.
"""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

MALLOC = "nvcc.glibc_malloc_attribute"
NVCC = "torch.nvcc_not_found"
GCC = "nvcc.gcc_too_new"

CASES = [
    # -- glibc 2.34+ headers, gcc 11, nvcc before CUDA 11.6 ------------------------------------------------------------
    # https://github.com/mashephe/AmpTools/issues/133 (the burned fresh14 m12: the cuda 11.8.0 and 12.2.2 modules "both work")
    ("module use /cvmfs/oasis.opensciencegrid.org/jlab/scicomp/sw/el9/modulefiles\n"
     "module load cuda\n"
     "export CUDA_INSTALL_PATH=/cvmfs/oasis.opensciencegrid.org/jlab/scicomp/sw/el9/cuda/11.4.2/\n"
     "make gpu\n...\n-> Compiling GPUAmpProductKernel.cu\n"
     '/usr/include/stdio.h(183): error: attribute "__malloc__" does not take arguments\n\n'
     '/usr/include/stdio.h(195): error: attribute "__malloc__" does not take arguments\n',
     MALLOC, "instead of 11.4"),
    # https://github.com/Xpra-org/xpra/issues/3293 (/opt/cuda-11.4 on Fedora 35; labelled upstream)
    ("Error: failed to compile CUDA kernel BGRA_to_YUV444\n"
     " using command: ['/opt/cuda-11.4/bin/nvcc', '-fatbin', '-c', 'fs/share/xpra/cuda/ARGB_to_NV12.cu', '-o', "
     "'fs/share/xpra/cuda/ARGB_to_NV12.fatbin', '-std=c++03', '-gencode=arch=compute_52,code=sm_52']\n"
     '/usr/include/stdio.h(183): error: attribute "__malloc__" does not take arguments\n'
     '/usr/include/stdio.h(195): error: attribute "__malloc__" does not take arguments\n',
     MALLOC, "CUDA 11.6 or newer"),
    # https://github.com/I2PC/xmipp3/issues/722 (CUDA 11.4 with -ccbin g++-11; gcc's spelling "malloc")
    ("Checking CUDA configuration ...\n"
     " /usr/local/cuda-11.4/bin/nvcc -c -w --x cu -D_FORCE_INLINES -Xcompiler -fPIC -ccbin /usr/bin/g++-11 -std=c++14 "
     "--expt-extended-lambda -gencode=arch=compute_60,code=compute_60 xmipp_cuda_test.cpp -o xmipp_cuda_test.o\n"
     '/usr/include/stdio.h(189): error: attribute "malloc" does not take arguments\n\n'
     '/usr/include/stdio.h(201): error: attribute "malloc" does not take arguments\n',
     MALLOC, "cudaenv use 11.8"),
    # https://github.com/TuSimple/centerformer/issues/34 (a torch extension's nvcc 11.5)
    ("/usr/local/cuda-11.5/bin/nvcc -I/root/anaconda3/envs/centerformer/lib/python3.9/site-packages/torch/include "
     "-I/usr/local/cuda-11.5/include -c src/iou3d_nms_kernel.cu -o build/temp.linux-x86_64-cpython-39/src/"
     "iou3d_nms_kernel.o --expt-relaxed-constexpr --compiler-options '-fPIC' -O2 -gencode=arch=compute_86,code=sm_86 "
     "-std=c++14\n"
     '/usr/include/stdio.h(189): error: attribute "__malloc__" does not take arguments\n\n'
     '/usr/include/stdio.h(201): error: attribute "__malloc__" does not take arguments\n',
     MALLOC, "instead of 11.5"),
    # https://github.com/facebookresearch/faiss/pull/3325 (conda's nvcc 11.4 in CMake's compiler check: nvcc's own
    # -D__CUDACC_VER_* macros name the CUDA; the lines wrapped by the CI log)
    ('  -D__CUDACC_VER_MAJOR__=11 -D__CUDACC_VER_MINOR__=4\n'
     '  -D__CUDACC_VER_BUILD__=152 -D__CUDA_API_VER_MAJOR__=11\n'
     '  #$ cicc --c++17 --gnu_version=110400 --orig_src_file_name\n'
     '  /usr/include/stdio.h(189): error: attribute "__malloc__" does not take\n'
     '  arguments\n',
     MALLOC, "instead of 11.4"),
    # https://github.com/alibaba/MNN/issues/2329 (Ubuntu 22.04; no CUDA version in the excerpt: the toolkit check)
    ('/usr/include/stdio.h(223): error: attribute "__malloc__" does not take arguments\n\n'
     '/usr/include/stdlib.h(566): error: attribute "__malloc__" does not take arguments\n',
     MALLOC, "if `cudaenv list` shows one"),

    # -- conda's cudatoolkit named as the toolkit: no nvcc there -------------------------------------------------------
    # https://github.com/ddshan/hand_object_detector/issues/16 (the burned fresh14 m67: solved by a package with nvcc in
    # the environment, the Stack Overflow answer "nvcc missing when installing cudatoolkit")
    ("The CUDA_PATH is None and when I define the CUDA_PATH by using the path under conda environment. However, since "
     "NVCC is not there, I get the following error.\n\n"
     "`/home/user_name/miniconda3/pkgs/cudatoolkit-11.0.221-h6bb024c_0/bin/nvcc: not found`\n",
     NVCC, "cudatoolkit-dev=11.0"),
    # guard: a Makefile's shell with /usr/local/cuda missing keeps its answer (gtcasl/gpuocelot#80)
    ("sh: 1: /usr/local/cuda/bin/nvcc: not found", NVCC, "ls -d /usr/local/cuda-*"),
    # guard: a toolkit path that is not conda's keeps the CUDA_HOME answer (NVIDIA/MinkowskiEngine#569)
    ("/bin/sh: /usr/local/cuda-11.2/bin/nvcc: No such file or directory", NVCC, 'eval "$(cudaenv use 11.2)"'),

    # -- gcc newer than an old toolkit: the first line names an older gcc and the newer toolkit, told by `cudaenv list` --
    # https://github.com/colmap/colmap/issues/1765 (the burned fresh9 d09: CUDA 11.4 was installed beside 10.2)
    ("In file included from /usr/local/cuda/include/cuda_runtime.h:83,\n                 from <command-line>:\n"
     "/usr/local/cuda/include/crt/host_config.h:138:2: error: #error -- unsupported GNU version! gcc versions later "
     "than 8 are not supported!\n",
     GCC, "if it shows a newer toolkit that accepts your gcc"),
    # https://github.com/merzlab/QUICK/issues/311 (the distribution's CUDA 10.1 with gcc 9.4; the maintainer: "GNU 9.x
    # compilers are supported since CUDA 11")
    ("[ 32%] Building NVCC (Device) object src/libxc/maple2c_device/CMakeFiles/xc_cuda.dir/__/__/cuda/"
     "xc_cuda_generated_gpu_getxc.cu.o\nIn file included from /usr/include/cuda_runtime.h:83,\n"
     "                 from <command-line>:\n"
     "/usr/include/crt/host_config.h:138:2: error: #error -- unsupported GNU version! gcc versions later than 8 are "
     "not supported!\n",
     GCC, "build with that one instead"),
    # https://github.com/lightvector/KataGo/issues/114 (CUDA 10.0 with gcc 9: `CUDAHOSTCXX=g++-7 cmake ...`)
    ("      129 | #error -- unsupported GNU version! gcc versions later than 7 are not supported!\n", GCC, "g++-7"),
    # guard: CUDA 11 and newer keep the profile's -ccbin answer (vectorch-ai/ScaleLLM#185: gcc 11 for CUDA 11.8)
    ("/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
     "version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used "
     "to override this version check",
     GCC, "g++-11"),

    # -- find_package(NVHPC): the HPC SDK's own cmake directory ------------------------------------------------------
    # https://github.com/DifferentiableUniverseInitiative/jaxDecomp/issues/3 (the burned fresh14 m11: CMAKE_PREFIX_PATH
    # with the SDK's cmake folder, "$NVCOMPILERS/$NVARCH/22.9/cmake")
    ("CMake Error at CMakeLists.txt:5 (find_package):\n"
     'By not providing "FindNVHPC.cmake" in CMAKE_MODULE_PATH this project has\n'
     'asked CMake to find a package configuration file provided by "NVHPC", but\nCMake did not find one.\n\n'
     'Could not find a package configuration file provided by "NVHPC" with any of\nthe following names:\n\n'
     "NVHPCConfig.cmake\nnvhpc-config.cmake\n",
     "cmake.nvhpc_config_not_found", "export CMAKE_PREFIX_PATH="),
    # https://github.com/NVIDIA/cuDecomp/issues/8 (CMake's own indentation)
    ("CMake Error at CMakeLists.txt:5 (find_package):\n"
     '  By not providing "FindNVHPC.cmake" in CMAKE_MODULE_PATH this project has\n'
     '  asked CMake to find a package configuration file provided by "NVHPC", but\n  CMake did not find one.\n',
     "cmake.nvhpc_config_not_found", "NVHPCConfig.cmake"),

    # -- Triton's launcher link: an -L for each directory ldconfig lists a libcuda in, the 32-bit one beside the 64-bit
    # https://github.com/JIA-Lab-research/Seg-Zero/issues/63 (the burned fresh13 h71: the 64-bit directory is on the link
    # line too, so the skipped 32-bit file is not the cause; the plain libcuda.so is what is missing)
    ("/usr/bin/ld: cannot find -lcuda\ncollect2: error: ld returned 1 exit status\n\n"
     "subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpe7nu9b0l/main.c', '-O3', '-shared', '-fPIC', "
     "'-Wno-psabi', '-o', '/tmp/tmpe7nu9b0l/cuda_utils.cpython-312-x86_64-linux-gnu.so', '-lcuda', "
     "'-L/home/sim/anaconda3/envs/visionreasoner/lib/python3.12/site-packages/triton/backends/nvidia/lib', "
     "'-L/lib/x86_64-linux-gnu', '-L/lib/i386-linux-gnu', '-I/tmp/tmpe7nu9b0l']' returned non-zero exit status 1.\n",
     "link.lcuda_not_found", "libcuda.so.1 but no plain libcuda.so"),
]

# (the guard of the NVHPC entry) another package's config file is not answered as the HPC SDK: torch's TorchConfig.cmake
NOT_NVHPC = ('  Could not find a package configuration file provided by "Torch" with any of\n'
             "  the following names:\n\n    TorchConfig.cmake\n    torch-config.cmake\n")

test_first_answer = first_answer_tests(CASES)


def test_other_package_config_is_not_nvhpc():
    """CMake's config-file message for another package is not answered as the HPC SDK."""
    assert "cmake.nvhpc_config_not_found" not in [m.id for m in explain(NOT_NVHPC)]


def test_clang_malloc_attribute_is_not_nvcc():
    """clang's own wording of the attribute (mono/CppSharp#1703: a C# binding generator parsing glibc's headers) is
    not nvcc's front end and is not answered as a CUDA toolkit."""
    text = ("/usr/include/stdio.h(285,24): error : '__malloc__' attribute takes no arguments "
            "[/lhome/ax/src/CppSharp/tests/StandardLib/StandardLib.Gen.csproj]\n")
    assert "nvcc.glibc_malloc_attribute" not in [m.id for m in explain(text)]


def test_program_bug_stays_unclaimed():
    """A device-side assert beside a build line is a program bug: no environment cause is claimed."""
    text = ("/usr/local/cuda-11.4/bin/nvcc -c kernel.cu\n"
            "RuntimeError: CUDA error: device-side assert triggered\n"
            "Assertion `t >= 0 && t < n_classes` failed.\n")
    assert not [m.id for m in explain(text) if m.environment]
