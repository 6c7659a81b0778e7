"""Issue 18, round 9, helper "build": fresh8's build misses as families (c01 CMake with CUDA switched on by a bundle
default, c03 flash-attn's summary line with a too-old nvcc, c04 torch's g++ minimum, c08 torch's CUDA vs the only
toolkit, c13 conda's linker and the system's glibc, c14 Bazel's cleared action environment, c64 vllm's ops for another
torch, c72 apt's /usr/bin/nvcc), and the round's principle: where the log does not show the fact that decides the
fix, the first fix line is a short decision keyed on checks the user can run. Each excerpt is quoted (trimmed) from
the thread above it (fresh8's logs are burned and may be quoted); the first environment answer and the first line of
its fix are the thread's resolution, or hold it as the labelled alternative the decision names.
"""

from __future__ import annotations

from explain_answers import assert_first_answer, first_answer_tests

CMAKE = "cmake.no_cuda_compiler"
MAJOR = "torch.cuda_major_mismatch"
ABI = "torch.extension_abi"
NVCC = "torch.nvcc_not_found"
GXX = "build.host_compiler_too_old"
SYSROOT = "link.conda_sysroot_glibc"
BAZEL = "bazel.cleared_action_env"
BUILD = "torch.extension_build_failed"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- CMake finds no nvcc where CUDA is an optional feature ------------------------------------------------
    # https://github.com/ecmwf/atlas/issues/189 (eckit's bundle default turned ENABLE_CUDA on: -DENABLE_CUDA=OFF)
    ("CMake Error at /spice/data/users/darth/opt/mobbs-52/util/spice_gnu/share/cmake-3.26/Modules/"
     "CMakeDetermineCUDACompiler.cmake:180 (message):\n  Failed to find nvcc.\n\n  Compiler requires the CUDA toolkit.  "
     "Please set the CUDAToolkit_ROOT\n  variable.\nCall Stack (most recent call first):\n"
     "  atlas/cmake/features/CUDA.cmake:9 (enable_language)\n  atlas/CMakeLists.txt:70 (include)",
     CMAKE, "-DENABLE_CUDA=OFF"),
    # https://github.com/soedinglab/CCMpred/issues/26 (a container without CUDA: `cmake -DWITH_CUDA=OFF`)
    ("-- Looking for a CUDA compiler\n-- Looking for a CUDA compiler - NOTFOUND\n-- The CUDA compiler identification is "
     "unknown\nCMake Error at CMakeLists.txt:115 (enable_language):\n  No CMAKE_CUDA_COMPILER could be found.\n\n"
     "  Tell CMake where to find the compiler by setting either the environment\n  variable \"CUDACXX\" or the CMake "
     "cache entry CMAKE_CUDA_COMPILER to the full\n  path to the compiler, or to the compiler name if it is in the PATH.",
     CMAKE, "-DWITH_CUDA=OFF"),
    # https://github.com/k2-fsa/icefall/issues/476 (k2 wanted CUDA: the toolkit's nvcc on PATH; the first alternative)
    ("-- The CUDA compiler identification is unknown\nCMake Error at /root/anaconda3/envs/kaldi2/lib/python3.8/"
     "site-packages/torch/share/cmake/Caffe2/public/cuda.cmake:47 (enable_language):\n"
     "  No CMAKE_CUDA_COMPILER could be found.",
     CMAKE, "puts its nvcc on PATH"),

    # --- torch's CUDA vs the toolkit's: the decision names both sides -------------------------------------------
    # https://github.com/vllm-project/vllm/issues/1453 (only CUDA 11.8 here: torch for cu118 fixed it)
    ("RuntimeError:\n      The detected CUDA version (11.8) mismatches the version that was used to compile\n"
     "      PyTorch (12.1). Please make sure to use the same CUDA versions.",
     MAJOR, "https://download.pytorch.org/whl/cu118"),
    # https://github.com/krrish94/chamferdist/issues/26 ("same pytorch version but compile with cuda 11.8")
    ('"""\nThe detected CUDA version (11.8) mismatches the version that was used to compile\n      PyTorch (12.1). '
     'Please make sure to use the same CUDA versions\n"""',
     MAJOR, "if CUDA 11.8 is the only toolkit installed"),
    # https://github.com/PKUHaoWang/EmbodiedOcc2/issues/6 ("fixed by directly install pytorch in detected CUDA version")
    ("` RuntimeError:\n    The detected CUDA version (12.2) mismatches the version that was used to compile\n"
     "    PyTorch (11.3). Please make sure to use the same CUDA versions.`",
     MAJOR, "whl/cu121"),
    # https://github.com/OpenGVLab/InternImage/issues/188 (torch reinstalled for the 12.1 toolkit: whl/cu121)
    ("RuntimeError: The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.7). "
     "Please make sure to use the same CUDA versions.",
     MAJOR, "whl/cu121"),

    # --- vllm's wheel ops for another torch: put back the torch it pins ----------------------------------------
    # https://github.com/vllm-project/vllm/issues/611 ("Was torch issue, reinstalling torch fixed this")
    ("/local_disk0/.ephemeral_nfs/envs/pythonEnv-83e459d1-1266-4d71-a155-ef12c7c6cd22/lib/python3.10/site-packages/vllm/"
     "activation_ops.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c106detail19maybe_wrap_dim_slowEllb",
     ABI, "Put back the torch this vllm was built for"),
    # https://github.com/vllm-project/vllm/issues/3528 (torch downgraded to the 2.1.1 this vllm was built for)
    ("ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN2at4_ops15to_dtype_layout4callERKNS_6TensorEN3c108optionalINS5_10ScalarTypeEEENS6_INS",
     ABI, "Put back the torch this vllm was built for"),
    # https://github.com/OpenGVLab/Ask-Anything/issues/214 ("you reinstalled another version of torch after installing vllm")
    ('ImportError: /opt/conda/lib/python3.10/site-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: '
     '_ZN3c104cuda9SetDeviceEi',
     ABI, "pip show vllm"),
    # https://github.com/vllm-project/vllm/issues/1344 (a source build at /workspace: rebuild against this torch)
    ("ImportError: /workspace/vllm-0.2.0/vllm/activation_ops.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs",
     "torch.cxx11_abi", ""),

    # --- /usr/local/cuda/bin/nvcc missing, the distribution's /usr/bin/nvcc present ---------------------------
    # https://github.com/NVIDIA/cuda-samples/issues/127 (NVIDIA's installer instead of apt's nvidia-cuda-toolkit)
    ("make[1]: /usr/local/cuda/bin/nvcc: Command not found\nmake[1]: *** [Makefile:344: bicubicTexture.o] Error 127\n"
     "make[1]: Leaving directory '/home/sxv1kor/cuda-samples/Samples/5_Domain_Specific/bicubicTexture'\n\n"
     "Whereas the NVCC is installed elsewhere:\n\ncuda-samples$ which nvcc\n/usr/bin/nvcc",
     NVCC, "Install NVIDIA's toolkit"),
    # https://github.com/cbuchner1/CudaMiner/issues/16 (Ubuntu's nvidia-cuda-toolkit: the path changed to /usr/bin/nvcc)
    ("/bin/sh: /usr/local/cuda/bin/nvcc: not found\nThe original path defined in the Makefile for `nvcc` is not where "
     "the Ubuntu nvidia-cuda-toolkit installs it. I renamed the pathname to `/usr/bin/nvcc` and compilation succeeded.",
     NVCC, "point the build at /usr"),

    # --- torch's host-compiler check, the lower side -------------------------------------------------------
    # https://github.com/Dao-AILab/flash-attention/issues/224 (g++ 4.8.5 on CentOS: a supported g++ fixed it)
    ("RuntimeError: The current installed version of g++ (4.8.5) is less than the minimum required version by CUDA 11.6 "
     "(6.0.0). Please make sure to use an adequate version of g++ (>=6.0.0, <12.0).",
     GXX, "devtoolset-9"),
    # https://github.com/aqlaboratory/openfold/issues/296
    ("RuntimeError: The current installed version of g++ (4.8.5) is less than the minimum required version by CUDA 11.2 "
     "(5.0.0). Please make sure to use an adequate version of g++ (>=5.0.0, <=10.0.0).",
     GXX, ">=5.0.0, <=10.0.0"),

    # --- conda's linker with its old sysroot ---------------------------------------------------------------
    # https://github.com/genn-team/genn/issues/360 (removing conda's compilers / unsetting CXX etc. fixed it)
    ("../x86_64-conda_cos6-linux-gnu/bin/ld: MBody1_CODE/librunner.so: undefined reference to `memcpy@GLIBC_2.14'",
     SYSROOT, "link with the system's toolchain"),
    # https://github.com/ContinuumIO/anaconda-issues/issues/12787 (conda's libz; sysroot_linux-64 2.17 in the recipe)
    ("/home/anon/installs/miniconda3/envs/zenv/bin/../lib/gcc/x86_64-conda_cos6-linux-gnu/7.3.0/../../../../"
     "x86_64-conda_cos6-linux-gnu/bin/ld: /home/anon/installs/miniconda3/envs/zenv/lib/libz.so: undefined reference to "
     "`memcpy@GLIBC_2.14'\ncollect2: error: ld returned 1 exit status",
     SYSROOT, "sysroot_linux-64>=2.17"),
    # https://github.com/conda-forge/ctng-compilers-feedstock/issues/161 (conda's openblas on CentOS 7)
    ("/export/home/myname/miniconda3/envs/gfortran-test/bin/../lib/gcc/x86_64-conda-linux-gnu/14.2.0/../../../../"
     "x86_64-conda-linux-gnu/bin/ld: /export/home/myname/miniconda3/envs/gfortran-test/lib/libopenblas.so: undefined "
     "reference to `memcpy@GLIBC_2.14'",
     SYSROOT, "sysroot_linux-64>=2.17"),

    # --- Bazel's cleared environment -------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/28497 (Bazel 0.21 vs 0.19.2; libcudnn.so.7 on LD_LIBRARY_PATH)
    ("ERROR: /apsarapangu/disk2/xinan.jxn/my_git/tensorflow/tensorflow/python/BUILD:1847:1: Executing genrule "
     "//tensorflow/python:sdca_ops_pygenrule failed (Exit 127): bash failed: error executing command\n"
     "  (cd /root/.cache/bazel/_bazel_root/xxxxxx/execroot/org_tensorflow && \\\n  exec env - \\\n"
     "    PATH=/bin:/usr/bin \\\n  /bin/bash bazel-out/host/genfiles/tensorflow/python/sdca_ops_pygenrule.genrule_script.sh)\n"
     "bazel-out/host/bin/tensorflow/python/gen_sdca_ops_py_wrappers_cc: error while loading shared libraries: "
     "libcudnn.so.7: cannot open shared object file: No such file or directory",
     BAZEL, "Bazel 0.19.2"),
    # https://github.com/tensorflow/tensorflow/issues/2499 (libcudart.so.7.5 installed; the genrule's environment)
    ("bazel-out/host/bin/tensorflow/cc/ops/random_ops_gen_cc: error while loading shared libraries: libcudart.so.7.5: "
     "cannot open shared object file: No such file or directory\nTarget //tensorflow/cc:tutorials_example_trainer "
     "failed to build",
     BAZEL, "sudo ldconfig"),

    # --- flash-attn's summary line alone: the checks that decide ------------------------------------------
    # https://github.com/ayulockin/neurips-llm-efficiency-challenge/issues/3 (CUDA 11.5: CUDA 11.8 in the conda env)
    ("RuntimeError: Error compiling objects for extension\n      [end of output]\n\n  note: This error originates from "
     "a subprocess, and is likely not a problem with pip.\n  ERROR: Failed building wheel for flash-attn\n"
     "  Running setup.py clean for flash-attn\nFailed to build flash-attn",
     BUILD, "nvcc --version"),
    # https://github.com/Dao-AILab/flash-attention/issues/2064 (CUDA 13.0: a prebuilt wheel; the checks first)
    ("        File \"/home/gx/.pyenv/versions/3.12.0/envs/nano-vllm/lib/python3.12/site-packages/torch/utils/"
     "cpp_extension.py\", line 2614, in _run_ninja_build\n          raise RuntimeError(message) from e\n"
     "      RuntimeError: Error compiling objects for extension\npip install flash-atten --no-build-isolation failed",
     BUILD, "cudaenv use --match-torch"),
]

test_first_answer = first_answer_tests(CASES)


def test_no_official_torch_for_the_toolkit_keeps_the_toolkit_switch_first():
    """CUDA 12.0 has no official torch build: switching the toolkit is the only first fix."""
    m = assert_first_answer("The detected CUDA version (12.0) mismatches the version that was used to compile\n"
                            "PyTorch (11.8). Please make sure to use the same CUDA versions.", MAJOR, "cudaenv use 11.8")
    assert "If `cudaenv list`" not in m.fix.splitlines()[0]


def test_generic_summary_line_decides_by_checks():
    """No package named, no compiler error: the first line is the checks (the compiler error first)."""
    m = assert_first_answer("RuntimeError: Error compiling objects for extension", BUILD, "If the input shows a compiler error")
    assert "nvcc --version" in m.fix.splitlines()[0]
