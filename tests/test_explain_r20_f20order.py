"""Round 20, fresh20's burned misses as families (helper f20order): the log's deciding fact picks the first fix line.

- Bazel's "no such package '@local_config_cuda//cuda'" whose traceback runs through cuda_configure.bzl's
  find_cuda_config into auto_configure_fail (TF 1.15-2.1) or _exec_find_cuda_config (TF 2.2+): find_cuda_config.py
  failed, TF_CUDA_PATHS first, even when the paste cut the script's own "Could not find any" line.
- MSVC refused by nvcc's host_config.h on a CI runner (GitHub Actions' runneradmin, a workflow, windows-20xx): the
  runner image's Visual Studio moved, the workflow's CUDA stays; pin the image or the toolset first.
- nvcc refusing an architecture that the CUDA the log says is installed ("Cuda 8 installed", a bare major) compiles
  for: the nvcc that ran is another; that CUDA's bin on PATH first.
- a CUDA library not found after an install that took the program's newest release ("installs the most recent
  tensorflow-gpu"): pin the program first; after `pip install` of a package whose name carries its CUDA (mxnet-cu112,
  dgl-cu102): the package's build for the CUDA here first."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

_BAZEL_OLD = (
    "ERROR: Skipping ':install_xla_in_source_tree': no such package '@local_config_cuda//cuda': Traceback (most recent call last):\n"
    '\tFile "/home/u/.cache/bazel/_bazel_u/aa40/external/org_tensorflow/third_party/gpus/cuda_configure.bzl", line 1304\n'
    "\t\t_create_local_cuda_repository(<1 more arguments>)\n"
    '\tFile "/home/u/.cache/bazel/_bazel_u/aa40/external/org_tensorflow/third_party/gpus/cuda_configure.bzl", line 1006, in _create_local_cuda_repository\n'
    "\t\t_get_cuda_config(repository_ctx)\n"
    '\tFile "/home/u/.cache/bazel/_bazel_u/aa40/external/org_tensorflow/third_party/gpus/cuda_configure.bzl", line 729, in _get_cuda_config\n'
    "\t\tfind_cuda_config(repository_ctx, <1 more arguments>)\n"
    '\tFile "/home/u/.cache/bazel/_bazel_u/aa40/external/org_tensorflow/third_party/gpus/cuda_configure.bzl", line 709, in find_cuda_config\n'
    "\t\tauto_configure_fail(<1 more arguments>)\n")

CASES = [
    # jax-ml/jax#2083 (fresh20 t01): the searched-path list survives, find_cuda_config's own line was cut
    ("        '/usr/lib64/tcl8.5'\n        '/usr/lib64/vtk'\n\n" + _BAZEL_OLD,
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # tensorflow/tensorflow#9435, #11859 (TF 2.3: the frame goes on to _exec_find_cuda_config, "Repository command failed")
    ("ERROR: Skipping '//tensorflow/tools/pip_package:build_pip_package': no such package '@local_config_cuda//cuda': Traceback (most recent call last):\n"
     '    File "/home/u/tensorflow/third_party/gpus/cuda_configure.bzl", line 657, in _get_cuda_config\n'
     "        find_cuda_config(repository_ctx, <2 more arguments>)\n"
     '    File "/home/u/tensorflow/third_party/gpus/cuda_configure.bzl", line 635, in find_cuda_config\n'
     "        _exec_find_cuda_config(<3 more arguments>)\n"
     '    File "/home/u/tensorflow/third_party/gpus/cuda_configure.bzl", line 629, in _exec_find_cuda_config\n'
     "        execute(repository_ctx, <1 more arguments>)\n"
     "Repository command failed\n",
     "build.bazel_cuda_config_not_found", "TF_CUDA_PATHS"),
    # abetlen/llama-cpp-python#1543 (fresh20 t04): the CUDA wheels workflow on a GitHub-hosted runner
    ("Currently, the workflow that builds CUDA wheels is failing with the following error:\n\n"
     "> C:\\Miniconda3\\envs\\build\\include\\crt/host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft "
     "Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported! The nvcc flag "
     "'-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host "
     "compiler may cause compilation failure or incorrect run time execution. Use at your own risk. "
     "[C:\\Users\\runneradmin\\AppData\\Local\\Temp\\tmpwbsbwtdg\\build\\CMakeFiles\\CMakeScratch\\TryCompile-uh6ciq\\cmTC_cbbed.vcxproj]\n",
     "msvc.unsupported_version", "pin the runner image"),
    # AcademySoftwareFoundation/openfx#243: CUDA 12.4.1 job on windows-latest after the image moved on
    ("The Windows CUDA CI job on windows-latest started failing at CMake configure time:\n"
     "crt/host_config.h(170): fatal error C1189: #error: -- unsupported Microsoft\n"
     "Visual Studio version! Only the versions between 2017 and 2022 (inclusive)\nare supported!\n",
     "msvc.unsupported_version", "pin the runner image"),
    # the Faster R-CNN make.sh thread (fresh20 t06): "Cuda 8 installed", sm_61 refused
    ("`nvcc -c -o roi_pooling_kernel.cu.o roi_pooling_kernel.cu -x cu -Xcompiler -fPIC\n flags = -arch=sm_61`\n"
     "I get the error\n`nvcc fatal   : Value 'sm_61' is not defined for option 'gpu-architecture'`\n\n"
     "I have a GTX 1080ti and Cuda 8 installed. Anyone have any suggestions?\n",
     "nvcc.unsupported_arch", 'cudaenv use 8.0'),
    # torch/cutorch#681: the same with the minor written ("CUDA 8.0 is installed")
    ("nvcc fatal : Unsupported gpu architecture 'compute_61' while CUDA 8.0 is installed\nI have CUDA 8.0 version and GTX1070 gpu\n",
     "nvcc.unsupported_arch", 'cudaenv use 8.0'),
    # the bare major written the other way round
    ("nvcc fatal   : Unsupported gpu architecture 'compute_75'\nI installed CUDA 10 from NVIDIA's runfile, RTX 2080.\n",
     "nvcc.unsupported_arch", 'cudaenv use 10'),

    # PTRRupprecht/Spikefinder-Elephant#3 (fresh20 t69)
    ("Dockerfile installs most recent Tensorflow\n\nThe Dockerfile installs at the moment the most recent tensorflow-gpu "
     "version, which leads to the following error in [ln 5] of Demo.ipy:\n"
     "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n",
     "runtime.cuda_library_not_found", "pin the program"),
    # yshean/abnormal-spatiotemporal-ae#14 (the Dockerfile pinned to tf 1.4 for CUDA 8)
    ("Otherwise install recent version not compatible with cuda 8:\n$ python -c \"import tensorflow\"\n"
     "`ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory`\n",
     "runtime.cuda_library_not_found", "pin the program"),
    # apache/mxnet#20279 (fresh20 t34)
    ("I try to install mxnet using pip:\n```\npip install mxnet-cu112\n```\nin some server using cuda 11.1 11.2 11.3\n"
     "OSError: libnvrtc.so.11.2: cannot open shared object file: No such file or directory (in server with cuda 11.1)\n"
     "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory (in server with cuda 11.2)\n",
     "runtime.cuda_library_not_found", "install the build named for your CUDA"),
    # apache/mxnet#14206 (mxnet-cu92 with CUDA 10)
    ("$ pip install --user mxnet-cu92\n"
     "    self._handle = _dlopen(self._name, mode)\nOSError: libcudart.so.9.2: cannot open shared object file: No such file or directory\n",
     "runtime.libcudart_not_found", "install the build named for the CUDA you have"),
]

test_first_answer = first_answer_tests(CASES)


def _first(text):
    found = [m for m in explain(text) if m.environment]
    return found[0] if found else None


def test_bazel_other_traceback_keeps_off():
    # amutu/tensorflow-offline#4: a Bazel/TF mismatch inside cuda_configure, not find_cuda_config
    text = ("no such package '@local_config_cuda//cuda':Traceback(most recent call last):\n"
            'File "XX/tensorflow/third_party/gpus/cuda_configure.bzl", line 915, in _create_cuda_repository\n'
            "_host_compiler_includes(repository_ctx, cc)\n"
            'File "XX/tensorflow/third_party/gpus/cuda_configure.bzl", line 119, in get_cxx_inc_directories\n'
            "set(includes_cpp)\ndepsets cannot contain mutable items\n")
    assert not [m.id for m in explain(text) if m.id == "build.bazel_cuda_config_not_found"]


def test_msvc_local_build_keeps_newer_cuda_first():
    # kokkos/kokkos#7064: a CMake project on a workstation (no runner) keeps "a newer CUDA" first
    text = ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\\include\\crt/host_config.h(153): fatal error "
            "C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 "
            "(inclusive) are supported!\n")
    m = _first(text)
    assert m.id == "msvc.unsupported_version"
    assert "Install a newer CUDA" in m.fix.splitlines()[0]


@pytest.mark.parametrize("text", [
    # CUDA 8 does not compile sm_70: the installed major is not the one that would compile it
    "nvcc fatal   : Unsupported gpu architecture 'compute_70'\nI have Cuda 8 installed.\n",
    # CUDA 11.0 does not compile sm_86 (11.1 does): a bare 11 does not say which
    "nvcc fatal   : Unsupported gpu architecture 'compute_86'\nI have CUDA 11 installed on a 3090.\n",
])
def test_bare_major_that_cannot_compile_keeps_off(text):
    m = _first(text)
    assert m.id == "nvcc.unsupported_arch"
    assert "this log names compiles" not in m.title


def test_library_without_drift_keeps_its_cuda_first():
    # the same soname with no word of the program's version: CUDA 9.0's libraries on the path stay first
    m = _first("import tensorflow\nImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n")
    assert m.id == "runtime.cuda_library_not_found"
    assert "cudaenv use 9.0" in m.fix.splitlines()[0]


def test_cupy_tagged_wheel_keeps_its_own_answer():
    m = _first("pip install cupy-cuda112\nOSError: libnvrtc.so.11.2: cannot open shared object file: No such file or directory\n")
    assert "install the build named for your CUDA" not in m.fix.splitlines()[0]


def test_latest_cuda_is_not_the_program_drifting():
    # "the latest version of CUDA" is the machine's side, not an unpinned program
    m = _first("I installed the latest version of CUDA toolkit.\n"
               "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n")
    assert m.id == "runtime.cuda_library_not_found"
    assert "pin the program" not in m.fix.splitlines()[0]
