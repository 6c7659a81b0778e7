"""Round 17b, machine layers (container, driver, hardware): fresh17's misses of these layers, read after the
measurement, built as families (docs/explain.md "Which fix comes first", principles 8-9).

Real excerpts (verbatim, trimmed), each with its thread. ``CASES``: the first environment answer's id and a phrase of
its first fix line. ``GUARDS``: near-miss wordings that keep their answers; ``NEGATIVES``: program bugs stay verdicts.

- K-wording: the daemon's JSON-escaped "custom device \\"/dev/nvidia0\\"" (and a pod: create the node's device nodes);
  dockerd's lower-case "unknown runtime specified nvidia" (and daemon.json already edited: restart the daemon); the
  wrappers' strings for CUDNN/CUBLAS_STATUS_ARCH_MISMATCH; the driver JIT's "ptxas application ptx input" (the driver,
  not a toolkit's ptxas); "build ... in docker container" as a `docker build`.
- N-family: NVIDIA's paired apt packages at two versions (apt.nvidia_pair_version_mismatch); a Jetson container's user
  without group video (cudnn.not_initialized).
"""

from __future__ import annotations

from explain_answers import first_answer_tests, program_bug_tests

CASES = [
    # ---- a pod's node lacks the device node: create it there (nothing to recreate)
    # https://github.com/k8sp/sextant/issues/397 (fresh17 q42: load nvidia-uvm, mknod the nodes / run nvidia-smi)
    ("""3. 启动pod失败，通过 kubectl describe pod {POD_NAME}命令，可看到如下log
{kubelet 0c-c4-7a-82-c5-bc}	spec.containers{worker}	Warning		Failed		Failed to start container with docker id aa5a0319488f with error: Error response from daemon: {"message":"linux runtime spec devices: **error gathering device information while adding custom device \\"/dev/nvidia0\\": lstat /dev/nvidia0: no such file or directory"**}
""", "container.device_node_gone", "nvidia-modprobe -u -c=0"),
    # ---- dockerd's lower-case wording; the runtime already in daemon.json: restart the daemon
    # https://github.com/D34DC3N73R/netdata-glibc/issues/2 (fresh17 q69: "try restarting docker after saving the daemon.json edits")
    ("""Neither **docker run**/**nvidia-docker run** with `--runtime` option or **docker-compose** worked for me.
I am getting unknow runtime specified nvidia.

I have also added the configuration in daemon.json
""", "container.no_gpu_runtime", "systemctl restart docker"),
    # https://github.com/NVIDIA/nvidia-docker/issues/542 (reload the daemon: `sudo pkill -SIGHUP dockerd`; then the path)
    ("""I merge ` /etc/docker/daemon.json`  after nvidia-docker installed:
    "runtimes": {
        "nvidia": {
            "path": "/usr/bin/nvidia-container-runtime",
            "runtimeArgs": []
        }
    }
But still get error `docker: Error response from daemon: Unknown runtime specified nvidia.`
""", "container.no_gpu_runtime", "pkill -SIGHUP dockerd"),
    # ---- the ARCH_MISMATCH status in the wrappers' own words: a GPU too old for the library
    # https://github.com/pluskid/Mocha.jl/issues/57 (fresh17 q41: cuDNN needs compute capability 3.0+)
    ("""julia>init(backend)
16-Mar 23:11:13:INFO:root:Initializing CuDNN backend...
ERROR: Arch mismatch
 in create at /home/b/.julia/v0.3/Mocha/src/cuda/cudnn.jl:43
""", "status.lib_arch_mismatch", "newer generation"),
    # https://github.com/andersbll/cudarray/issues/37 (GTX 560: "the GPU might be too old for cuDNN")
    ("""terminate called after throwing an instance of 'std::runtime_error'
  what():  ./include/cudarray/nnet/cudnn.hpp:107: The function requires a feature absent from the GPU
Aborted (core dumped)
""", "status.lib_arch_mismatch", "newer generation"),
    # ---- the driver JIT's "ptxas application ptx input" with no numba/conda in the log: the driver
    # https://github.com/open-mmlab/OpenPCDet/issues/934 (fresh17 q65: solved by changing the driver)
    ("""ptxas application ptx input, line 9; fatal : Unsupported .version 7.3; current version is '7.2'

hello,I was testing test.py and then there are some bug ,I can't deal with them ,I want to be helped.
""", "driver.jit_ptx_too_new", "Upgrade the NVIDIA driver"),
    # ---- a Jetson container that works outside it: the container's user and group video
    # https://github.com/ceccocats/tkDNN/issues/282 (fresh17 q35: "not running it as root")
    ("""New NETWORK (tkDNN v0.5, CUDNN v8)
CUDNN failure: CUDNN_STATUS_NOT_INITIALIZED
/gfr_ws/src/see_camera_processing/libs/tkDNN/src/Network.cpp:56
Aborting...
```
running on Jetson AGX Xavier in Docker image. Unsure what the issue is, it works fine outside the docker.
""", "cudnn.not_initialized", "group video"),
    # ---- NVIDIA's paired apt packages at two versions: one version, the image's CUDA's, for the whole set
    # https://github.com/NVIDIA/nvidia-docker/issues/298 (fresh17 q63: libcudnn5=5.1.3-1+cuda7.5 libcudnn5-dev=5.1.3-1+cuda7.5)
    ("""Building Ubuntu14.04 cuda 7.5 cudnn5 devel image fails

The following packages have unmet dependencies:
 libcudnn5-dev : Depends: libcudnn5 (= 5.1.3-1+cuda7.5) but 5.1.10-1+cuda8.0 is to be installed
E: Unable to correct problems, you have held broken packages.
""", "apt.nvidia_pair_version_mismatch", "libcudnn5=5.1.3-1+cuda7.5"),
    # https://github.com/NVIDIA/TensorRT/issues/1741 (cuda:11.8.0 image: every package at 8.6.0.12-1+cuda11.8)
    ("""I was trying to install `tensorrt libs=8.6.0.12-1+cuda11.8` on the `nvcr.io/nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04` image
root@732029c2cefe:/# apt-get install libnvinfer-bin=8.6.0.12-1+cuda11.8
The following packages have unmet dependencies:
 libnvinfer-bin : Depends: libnvinfer8 (= 8.6.0.12-1+cuda11.8) but 8.6.1.6-1+cuda12.0 is to be installed
                  Depends: libnvinfer-lean8 (= 8.6.0.12-1+cuda11.8) but 8.6.1.6-1+cuda12.0 is to be installed
""", "apt.nvidia_pair_version_mismatch", "libnvinfer8=8.6.0.12-1+cuda11.8"),
    # https://github.com/bghira/SimpleTuner/issues/47 (the pytorch cuda11.7 image holds libnccl2 2.13.4-1+cuda11.7)
    ("""Docker image: pytorch/pytorch:2.0.1-cuda11.7-cudnn8-devel
# apt -y install nvidia-cuda-dev nvidia-cuda-toolkit cuda-cupti-11-7 libnccl-dev
The following packages have unmet dependencies:
 libnccl-dev : Depends: libnccl2 (= 2.18.3-1+cuda12.2) but 2.13.4-1+cuda11.7 is to be installed
E: Unable to correct problems, you have held broken packages.
""", "apt.nvidia_pair_version_mismatch", "libnccl2=2.13.4-1+cuda11.7"),
    # ---- a build in a GPU-less container said in the user's words: name the architectures
    # https://github.com/pytorch/vision/issues/1566 (fresh17 q03: TORCH_CUDA_ARCH_LIST)
    ("""We were able to build torchvision 0.3.0 w/cuda in docker container, which doesn't have access to NVidia GPU. However when building 0.4.1 we get the following error:
```
AssertionError:
Found no NVIDIA driver on your system. Please check that you
have an NVIDIA GPU and installed a driver from
http://www.nvidia.com/Download/index.aspx
```
export FORCE_CUDA=1
python setup.py install --prefix=/install/torchvision
""", "torch.no_driver", "TORCH_CUDA_ARCH_LIST"),
    # ---- PTX newer than the driver in a container whose image CUDA the driver runs: the environment's own CUDA
    # https://github.com/openmm/openmm/issues/3585 (fresh17 q67: `conda install -c conda-forge cudatoolkit=11.6`)
    ("""CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)

Getting same error use this docker image `FROM nvidia/cuda:11.6.2-devel-ubuntu20.04`

`nvidia-smi` shows:
```
$ nvidia-smi
Sun Nov 20 08:01:27 2022
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 510.47.03    Driver Version: 510.47.03    CUDA Version: 11.6     |
+-------------------------------+----------------------+----------------------+
```
""", "runtime.unsupported_ptx", "cudatoolkit=11.6"),
]

test_first_answer = first_answer_tests(CASES)

GUARDS = [
    # a container restarted after a driver change (no pod): recreate it
    # https://github.com/kersny/airsim_nvidia_docker/issues/4
    ("""docker: Error response from daemon: linux runtime spec devices: error gathering device information while adding custom device "/dev/nvidia0": lstat /dev/nvidia0: no such file or directory.
""", "container.device_node_gone", "Recreate the container"),
    # the toolkit not installed, no daemon.json: install and register it
    # https://github.com/NVIDIA/nvidia-docker/issues/501
    ("""$ sudo docker run --runtime=nvidia --rm nvidia/cuda nvidia-smi
docker: Error response from daemon: Unknown runtime specified nvidia.
See 'docker run --help'.
""", "container.no_gpu_runtime", "Install the NVIDIA Container Toolkit"),
    # numba's LinkerError without its name: the conda pin stays first (numba/numba#3794: cudatoolkit=9.0)
    ("""LinkerError: [218] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR
ptxas application ptx input, line 9; fatal   : Unsupported .version 6.3; current version is '6.1'
ptxas fatal   : Ptx assembly aborted due to errors
""", "driver.jit_ptx_too_new", "Make the PTX no newer than the driver"),
    # a toolkit's ptxas run on a file stays the toolkit's (Triton)
    ("""ptxas /tmp/x.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '8.2'
""", "nvcc.ptx_too_new", "ptxas"),
    # cuDNN not initialised on a bare host: the entry's checks
    # https://github.com/yukkyo/PyTorch-FilterResponseNormalizationLayer/issues/4 (the status line alone)
    ("""RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED
""", "cudnn.not_initialized", "nvidia-smi"),
    # an image newer than the driver's CUDA keeps the container answer (the host's driver or an older image)
    ("""CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)
Getting same error use this docker image `FROM nvidia/cuda:12.2.0-devel-ubuntu22.04`
| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |
""", "runtime.unsupported_ptx", "container's CUDA is newer"),
    # the plain status name keeps its answer
    ("""[FT][ERROR] CUDA runtime error: CUBLAS_STATUS_ARCH_MISMATCH /workspace/fastertransformer/cuda/open_attention.h:171
""", "status.lib_arch_mismatch", "newer generation"),
]


test_guard = first_answer_tests(GUARDS)


NEGATIVES = [
    # a program bug inside a Jetson container stays a verdict
    """running on Jetson AGX Xavier in Docker image
RuntimeError: CUDA error: device-side assert triggered
""",
    # a build in a docker container, then a program's own bug when it runs
    """We build it in docker container and run the test:
RuntimeError: CUDA error: an illegal memory access was encountered
""",
]


test_program_bugs_stay_verdicts = program_bug_tests(NEGATIVES)
