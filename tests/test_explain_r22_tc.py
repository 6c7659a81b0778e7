"""Round 22 (helper tc): fresh22's burned misses answered as families, each with the fresh22 log's own lines, lines of
another public thread of the same cause, and a near miss of another cause that must keep its answer.

- nvidia-docker 1.0's per-driver volume ("no such volume: nvidia_driver_381.22") named by a container made before a
  driver change: container.nvidia_docker_driver_volume; a new `nvidia-docker run` gets the plugin restart first
  (fresh22 v62).
- GNU ld's "cannot find DIR: file format not recognized", which it prints for a directory given as an input file (a
  library setting naming lib64, an -L that lost its flag): link.directory_as_input (fresh22 v68).
- OpenMM's "There is no registered Platform called "CUDA"": its plugin was looked for elsewhere (OPENMM_PLUGIN_DIR of
  another environment) or did not load; getPluginLoadFailures() first: openmm.platform_not_registered (fresh22 v69).
- JCuda's "Could not create ptx file" (its nvcc run from the JVM's PATH failed): shell.nvcc_not_found, with a variant
  for the JVM's PATH and JetPack's /usr/local/cuda/bin (fresh22 v72).

Each text is copied from the thread named above it, unless said otherwise."""

from pathlib import Path

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

FRESH22 = Path(__file__).parent / "data" / "explain_corpus" / "fresh22"

CASES = [
    # https://github.com/NVIDIA/nvidia-docker/issues/493 (fresh22 v62: `docker start` after the upgrade to 384.90)
    ("Error response from daemon: get nvidia_driver_381.22: no such volume: nvidia_driver_381.22\n",
     "container.nvidia_docker_driver_volume", "create a new one from its image"),
    # https://github.com/NVIDIA/nvidia-docker/issues/416 (`docker start` of a container made under 352.63, 367.57 now)
    ("Error response from daemon:error while mounting  volume'/var/lib/nvidia-docker/volumes/nvidia_driver/352.63'；"
     "no such volume:nvidia_driver_352.63.\n",
     "container.nvidia_docker_driver_volume", "create a new one from its image"),
    # https://github.com/NVIDIA/nvidia-docker/issues/80 (a new `nvidia-docker run` after a driver reinstall: the plugin)
    ("nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
     "docker: Error response from daemon: no such volume: nvidia_driver_352.79.\n",
     "container.nvidia_docker_driver_volume", "sudo systemctl restart nvidia-docker"),
    # https://github.com/mlcommons/mlperf-automations/issues/571 (fresh22 v68: pycuda's link given a CUDA lib64)
    ("      /usr/bin/ld: cannot find /root/MLC/repos/local/cache/install-cuda-prebuilt_b949f23d/install/lib64: file "
     "format not recognized\n      collect2: error: ld returned 1 exit status\n"
     "      error: command '/usr/bin/x86_64-linux-gnu-g++' failed with exit code 1\n",
     "link.directory_as_input", "Find which setting holds /root/MLC/repos/local/cache/install-cuda-prebuilt_b949f23d"),
    # https://github.com/tianweiy/CenterPoint/issues/337 (spconv's CMake build, the cuDNN library found as its directory)
    ("-- Found cuDNN: v8.2.1  (include: /usr/local/cudnn/include, library: /usr/local/cudnn/lib64)\n"
     "[ 23%] Linking CXX shared library ../../../lib.linux-x86_64-3.6/spconv/libspconv.so\n"
     "/usr/bin/ld: cannot find /usr/local/cudnn/lib64: file format not recognized\n"
     "collect2: error: ld returned 1 exit status\n",
     "link.directory_as_input", "CUDNN_LIBRARY=/usr/local/cudnn/lib64/libcudnn.so"),
    # https://github.com/openmm/openmm/issues/3656 (fresh22 v69: OPENMM_PLUGIN_DIR named the base environment's plugins)
    ('openmm.OpenMMException: There is no registered Platform called "CUDA"\n\n'
     "platforms = [ Platform.getPlatform(index).getName() for index in range(Platform.getNumPlatforms()) ]\n"
     "print (platforms)\n\n['Reference']\n\nconda install -c conda-forge openmm cudatoolkit==11.0\n\n"
     "PackagesNotFoundError: The following packages are not available from current channels:\n  - cudatoolkit==11.0\n",
     "openmm.platform_not_registered", "getPluginLoadFailures"),
    # https://github.com/openmm/openmm/issues/4370 (OPENMM_PLUGIN_DIR to the environment's lib/plugins)
    ('  File "/home/compu/anaconda3/envs/pythonProjects/lib/python3.10/site-packages/openmm/openmm.py", line 18453, '
     "in getPlatformByName\n    return _openmm.Platform_getPlatformByName(name)\n"
     'openmm.OpenMMException: There is no registered Platform called "CUDA"\n',
     "openmm.platform_not_registered", "OPENMM_PLUGIN_DIR=$CONDA_PREFIX/lib/plugins"),
    # https://github.com/openmm/openmm/issues/4256 (the OpenCL plugin; the maintainer: getPluginLoadFailures())
    ('openmm.OpenMMException: There is no registered Platform called "OpenCL"\n',
     "openmm.platform_not_registered", "getPluginLoadFailures"),
    # https://github.com/jcuda/jcuda/issues/15 (fresh22 v72: a Jetson TX1, "a improper PATH to nvcc")
    ("jcuda.CudaException: Could not create ptx file\n", "shell.nvcc_not_found", "export PATH=/usr/local/cuda/bin:$PATH"),
    # https://github.com/jcuda/jcuda-main/issues/33 (mvn clean install: JCudaTestUtils.invokeNvcc's Runtime.exec)
    ("        at jcuda.test.JCudaTestUtils.invokeNvcc(JCudaTestUtils.java:110)\n"
     "        at jcuda.test.JCudaTestUtils.preparePtxFile(JCudaTestUtils.java:39)\n"
     "Tests in error: \n  JCudaDriverTextureTest.testTextures:114 » Cuda Could not create ptx file\n",
     "shell.nvcc_not_found", "export PATH=/usr/local/cuda/bin:$PATH"),
    # https://github.com/deeplearning4j/nd4j/issues/346 (JCublas' kernel loader, the same nvcc run)
    ("java.io.IOException: Could not create .ptx file: \n"
     "\tat org.nd4j.linalg.jcublas.kernel.KernelFunctionLoader.compileAndLoad(KernelFunctionLoader.java:282)\n",
     "shell.nvcc_not_found", "export PATH=/usr/local/cuda/bin:$PATH"),
    # near misses, another cause each, answered as before:
    # https://github.com/lm-sys/FastChat/issues/2207 (a library ld cannot find is not a directory given as a file)
    ("/usr/bin/ld: skipping incompatible /usr/lib32/libcuda.so when searching for -lcuda\n"
     "/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status\n",
     "link.lcuda_not_found", "ldconfig -p | grep libcuda"),
    # OpenMM's own CudaContext when no device takes a context (an empty device list, not a plugin)
    ("Exception: No compatible CUDA device is available\n", "runtime.no_device", "nvidia-smi"),
    # https://github.com/IBMSparkGPU/GPUEnabler/issues/33 (a JCuda error about the GPU's binary, not the PTX build)
    ("jcuda.CudaException: CUDA_ERROR_NO_BINARY_FOR_GPU\n"
     "         at jcuda.driver.JCudaDriver.checkResult(JCudaDriver.java:312)\n",
     "runtime.no_kernel_image", "compute capability"),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("name,want", [
    ("v62-docker-old-driver-volume.log", "container.nvidia_docker_driver_volume"),
    ("v68-pycuda-ld-cuda-lib64-path.log", "link.directory_as_input"),
    ("v69-openmm-plugin-dir-other-env.log", "openmm.platform_not_registered"),
    ("v72-jcuda-jetson-ptx-nvcc-path.log", "shell.nvcc_not_found"),
])
def test_the_fresh22_logs_are_answered_by_their_family(name, want):
    found = [m for m in explain((FRESH22 / name).read_text()) if m.environment]
    assert found and found[0].id == want, [m.id for m in found]


@pytest.mark.parametrize("text", [
    # nvidia-docker#290, #735: the plugin failed to make the new driver's volume (its own log says why), not a volume gone
    "docker: Error response from daemon: create nvidia_driver_375.26: VolumeDriver.Create: internal error, check logs "
    "for details.\n",
    # CVCUDA/CV-CUDA#36: a file ld reads as a linker script (a Git LFS pointer), not a directory
    "/usr/bin/ld:/home/zyw/Downloads/CV-CUDA/src/util/stubs/libdl-2.17_stub.so: file format not recognized; treating "
    "as linker script\n/usr/bin/ld:/home/zyw/Downloads/CV-CUDA/src/util/stubs/libdl-2.17_stub.so:1: syntax error\n",
])
def test_what_the_new_entries_leave_alone(text):
    ids = {m.id for m in explain(text)}
    assert not ids & {"container.nvidia_docker_driver_volume", "link.directory_as_input"}, ids


@pytest.mark.parametrize("literal", [
    "cannot find ", "/usr/bin/ld: cannot find /x: file format not recognized ", "no such volume: nvidia_driver_1.",
    'There is no registered Platform called "', "Could not create ptx file ", "Could not create .",
])
def test_a_line_of_the_new_literals_is_searched_in_windows(literal):
    # A 200 000-character line built from a new pattern's own literals is longer than text.LONG, so the patterns are
    # searched only within text.MAX_LINE of each place their literal occurs (test_explain.py
    # test_a_long_line_is_searched_around_its_literal_not_whole); none of them has two quantifiers over the same
    # characters, so each window costs one pass. Both facts are held here without timing anything.
    from cudaenv.knowledge.explain.text import LONG, MAX_LINE
    from cudaenv.knowledge.kb import load_entries

    line = (literal * (200_000 // len(literal) + 1))[:200_000]
    assert len(line) > LONG > MAX_LINE
    explain(line)  # answers (or not) without error
    ours = {"container.nvidia_docker_driver_volume", "link.directory_as_input", "openmm.platform_not_registered"}
    for e in load_entries():
        if e["id"] in ours:
            for p in e["patterns"]:
                assert ".*" not in p and ".+" not in p and "\\S+" not in p, p  # no run that can swallow its own end
