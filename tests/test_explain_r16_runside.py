"""Round 16, run side: causes explain did not recognise at run time (docs/explain.md "Which fix comes first").

Real excerpts (verbatim, trimmed), each with its thread. ``CASES``: the first environment answer's id and a phrase of its
first fix line. ``GUARDS``: near-miss wordings that keep their answers, and program bugs that stay verdicts.

- ``container.gpu_command_not_found``: the container's command (nvidia-smi, or a GPU option written after the image
  name) is not inside it; runc, crun and Singularity's action scripts word it. The first fix follows the log: no GPU
  request -> `--gpus all`; a request and still missing -> the host side; the option after the image -> move it;
  Singularity without/with --nv; podman -> CDI; snap's docker.
- ``driver.module_build_failed``: NVIDIA's .run installer reports its kernel-module build failure in its own words;
  its log is /var/log/nvidia-installer.log, a killed compiler is memory.
- ``tf.cudnn_older_than_built``: TensorFlow's message wrapped after the loaded version.
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

CASES = [
    # ---- the GPU runtime never ran: docker without a GPU request
    # https://github.com/google-deepmind/alphafold/issues/374 (only -e NVIDIA_VISIBLE_DEVICES, no runtime)
    ("""#docker run --rm -e NVIDIA_VISIBLE_DEVICES=all nvidia/cuda:11.5.1-base-centos8 nvidia-smi
docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: exec: "nvidia-smi": executable file not found in $PATH: unknown.
""", "container.gpu_command_not_found", "docker run --gpus all"),
    # https://github.com/allenai/beaker-cli/issues/326 (`--gpus all` made it work)
    ("""$ docker run --rm -it my-experiment nvidia-smi
docker: Error response from daemon: OCI runtime create failed:
container_linux.go:380: starting container process caused: exec:
"nvidia-smi": executable file not found in $PATH: unknown.
""", "container.gpu_command_not_found", "docker run --gpus all"),
    # https://github.com/NVIDIA/nvidia-docker/issues/865 (nvidia-docker v1: the container got no driver volume)
    ("""$ nvidia-docker run --rm nvidia/cuda nvidia-smi
docker: Error response from daemon: OCI runtime create failed: container_linux.go:348: starting container process caused "exec: \\"nvidia-smi\\": executable file not found in $PATH": unknown.
""", "container.gpu_command_not_found", "nvidia-container-cli"),
    # ---- a GPU request, and the runtime still mounted no nvidia-smi: the host side
    # https://github.com/NVIDIA/nvidia-docker/issues/1668 (nvidia-container-cli: "missing binary nvidia-smi")
    ("""I followed all the installation steps but when I run `sudo docker run --rm --gpus all nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi`  it throws the following error:
`docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nvidia-smi": executable file not found in $PATH: unknown.`
""", "container.gpu_command_not_found", "missing binary nvidia-smi"),
    # https://github.com/canonical/docker-snap/issues/184 (snap's docker)
    ("""$ docker run --env PATH="${PATH}:/var/lib/snapd/hostfs/usr/bin" --rm --runtime=nvidia ubuntu nvidia-smi
docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nvidia-smi": executable file not found in $PATH: unknown.
""", "container.gpu_command_not_found", "docker-ce"),
    # ---- podman: the variable alone does nothing; CDI
    # https://github.com/NVIDIA/nvidia-docker/issues/1249 (also NVIDIA/nvidia-container-toolkit#182)
    ("""Running `podman run --rm -e NVIDIA_VISIBLE_DEVICES=all nvidia/cuda:10.0-base nvidia-smi` returns the error `Error: container_linux.go:349: starting container process caused "exec: \\"nvidia-smi\\": executable file not found in $PATH": OCI runtime command not found error`
""", "container.gpu_command_not_found", "nvidia-ctk cdi generate"),
    # ---- the GPU option after the image name: run as the container's command
    # https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/82 (fresh13 h34: the site wrapper put --nv last)
    ("""#SBATCH --gres=gpu:1
module load singularity
singbatch /jmain01/home/JAD009/txk08/yxw50-txk08/1.9.0-GPU-Ubuntu16.04-Anaconda3.4.2.0-CUDA9-cudNN7.simg ./script.sh

The error
Singularity-2.4 loaded
/.singularity.d/actions/exec: 9: exec: --nv: not found
""", "container.gpu_command_not_found", "before the image name"),
    # ---- Singularity with --nv, the host's utilities outside the default places
    # https://github.com/apptainer/singularity/issues/1829 (driver binaries under /cm/local/apps: nvliblist.conf)
    ("""$ singularity exec --nv test.img nvidia-smi
/.singularity.d/actions/exec: line 9: exec: nvidia-smi: not found
""", "container.gpu_command_not_found", "nvliblist.conf"),
    # ---- NVIDIA's .run installer could not build the kernel module
    # https://github.com/microsoft/pai/issues/2040 (fresh13 h68: a newer driver and more swap)
    ("""make[1]: Leaving directory '/usr/src/linux-headers-4.4.0-62-generic'
Makefile:81: recipe for target 'modules' failed
make: *** [modules] Error 2
ERROR: The nvidia-uvm kernel module was not created.
ERROR: The nvidia-uvm kernel module failed to build. This kernel module is required for the proper operation of CUDA. If you do not need to use CUDA, you can try to install this driver package again with the '--no-unified-memory' option.
ERROR: Installation has failed.  Please see the file '/var/log/nvidia-installer.log' for details.
""", "driver.module_build_failed", "nvidia-installer.log"),
    # https://github.com/ProTechEx/vgpu-proxmox/issues/1
    ("""ERROR: An error occurred while performing the step: "Building kernel modules". See /var/log/nvidia-installer.log for details.
ERROR: An error occurred while performing the step: "Checking to see whether the nvidia kernel module was successfully built". See
         /var/log/nvidia-installer.log for details.
ERROR: Installation has failed.  Please see the file '/var/log/nvidia-installer.log' for details.  You may find suggestions on fixing
         installation problems in the README available on the Linux driver download page at www.nvidia.com.
""", "driver.module_build_failed", "newer release"),
    # https://github.com/microsoft/pai/issues/2040 (the same thread's earlier output: cc1 killed)
    ("""   84.111/kernel/nvidia/nvlink_linux.o
   cc: internal compiler error: Killed (program cc1)
   Please submit a full bug report,
   with preprocessed source if appropriate.
ERROR: The nvidia-uvm kernel module failed to build. This kernel module is required for the proper operation of CUDA.
""", "driver.module_build_failed", "swap"),
    # https://github.com/GoogleCloudPlatform/compute-gpu-installation/issues/33 (525 on a 6.1 cloud kernel: the GPL
    # variant, a newer release, keeps its place before the installer's)
    ("""[2024-03-11 17:34:40] Executing: sh NVIDIA-Linux-x86_64-525.125.06.run -s --dkms  --no-cc-version-check
ERROR: An error occurred while performing the step: "Building kernel modules". See /var/log/nvidia-installer.log for details.
   ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_lock'
   ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_unlock'
""", "driver.module_build_failed", "driver release that supports this kernel"),
    # ---- a Jetson container's placeholder libraries: the NVIDIA runtime mounts the device's copies over them
    # https://github.com/dusty-nv/jetson-inference/issues/1061 (fresh15 n64: default-runtime nvidia)
    ("""./segnet-console: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libnvinfer.so.7: file too short
```

docker image that I use: `dustynv/jetson-inference:r32.4.4`
 - NVIDIA Jetson Xavier NX (Developer Kit Version)
   * Jetpack 4.4.1 [L4T 32.4.4]
""", "container.jetson_lib_not_mounted", "--runtime nvidia"),
    # https://github.com/dusty-nv/jetson-containers/issues/253 (libnvsocsys.so: `--runtime nvidia` needed)
    ("""I have issue while using `dustynv/ros:humble-ros-base-l4t-r35.2.1`  and building isaac ros packages.
root@d62ba023993b:/# ldd /opt/nvidia/vpi2/lib/aarch64-linux-gnu/libnvvpi.so.2
/opt/nvidia/vpi2/lib/aarch64-linux-gnu/libnvvpi.so.2: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/tegra/libnvsocsys.so: file too short
""", "container.jetson_lib_not_mounted", "--runtime nvidia"),
    # https://github.com/NVIDIA-AI-IOT/jetnet/issues/13 (--gpus refused in csv mode, then run without any GPU runtime)
    ("""I am using jetson xavier nx with jetpack 5.0.2.
when i removed the --gpus flag
its worked and i entered at docker command prompt.
ImportError: /lib/aarch64-linux-gnu/libgstreamer-1.0.so.0: file too short
""", "container.jetson_lib_not_mounted", "--runtime nvidia"),
    # https://github.com/dusty-nv/jetson-inference/issues/1733 (run.sh gives --runtime nvidia; the device lacked
    # JetPack's CUDA/cuDNN/TensorRT)
    ("""After ran bash docker/run.sh, then
'cd build/aarch64/bin ; ./imagenet images/jellyfish.jpg images/test/jellyfish.jpg'
./imagenet: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libnvinfer.so.7.1.3: file too short
I tested the dustynv/jetson-inference:r32.4.4, r32.7.1 and also the l4t-pytorch:r32.4.4, and found that the libnvinf.so file size is all 0.
$ sudo docker run --runtime nvidia -it --rm --network host dustynv/jetson-inference:r32.7.1
""", "container.jetson_lib_not_mounted", "nvidia-jetpack"),
    # ---- NCCL 2.2-2.3's bootstrap over sockets (include/socket.h): the interface, NCCL_SOCKET_IFNAME
    # https://github.com/horovod/horovod/issues/666 (fresh13 h36: NCCL_SOCKET_IFNAME=^docker0,lo or the routable one)
    ("""seyun:17283:17549 [3] include/socket.h:371 WARN Connection closed by remote peer
seyun:17283:17549 [3] INFO transport/net_socket.cu:166 -> 2
seyun:17281:17552 [1] INFO transport/net_socket.cu:166 -> 2
seyun:17281:17552 [1] INFO bootstrap.cu:45 -> 2 [Net]
seyun:17281:17552 [1] INFO bootstrap.cu:259 -> 2
vclab-server-08:27377:27554 [1] NCCL INFO NET : Using interface eno2:115.145.173.234<0>
""", "nccl.network", "NCCL_SOCKET_IFNAME"),
    # https://github.com/horovod/horovod/issues/584 (NCCL used lo beside eth0 on each node)
    ("""paigcr-b-gpu-1012:4152:4206 [0] NCCL INFO NET : Using interface lo:127.0.0.1<0>
paigcr-b-gpu-1012:4152:4206 [0] NCCL INFO NET : Using interface eth0:10.151.40.240<0>
paigcr-b-gpu-1012:4153:4209 [1] include/socket.h:361 NCCL WARN Call to connect timeout : Connection refused
paigcr-b-gpu-1012:4153:4209 [1] NCCL INFO transport/net_socket.cu:139 -> 2
paigcr-b-gpu-1012:4153:4209 [1] NCCL INFO bootstrap.cu:19 -> 2
""", "nccl.network", "NCCL_SOCKET_IFNAME"),
    # ---- TensorFlow's cuDNN check, wrapped after the loaded version
    # https://github.com/smallcorgi/Faster-RCNN_TF/issues/12 (fresh15 n63: cuDNN 5.1 installed)
    ("""E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 5006 
(compatibility version 5000) but source was compiled with 5103 (compatibility version 5100).  
If using a binary install, upgrade your CuDNN library to match. 
F tensorflow/core/kernels/conv_ops.cc:532] Check failed: stream->parent()->GetConvolveAlgorithms(&algorithms) 
""", "tf.cudnn_older_than_built", "cuDNN 5.1.3"),
]

test_first_answer = first_answer_tests(CASES)

GUARDS = [
    # an image without the program asked for is no GPU runtime problem (NVIDIA/nvidia-docker#600's "sh")
    ("""docker run --runtime=nvidia --rm nvidia/cuda:8.0 sh
docker: Error response from daemon: OCI runtime create failed: container_linux.go:296: starting container process caused "exec: \\"sh\\": executable file not found in $PATH": unknown.
""", None),
    # the runtime's own program missing stays container.no_gpu_runtime (NVIDIA/nvidia-docker#958)
    ("""docker run --runtime=nvidia --rm nvidia/cuda nvidia-smi
docker: Error response from daemon: OCI runtime create failed: exec: "nvidia-container-runtime-hook": executable file not found in $PATH: unknown.
""", "container.no_gpu_runtime"),
    # nvidia-smi missing inside a running container keeps the entry that has its own threads
    ("""root@00921839c781:/anomalib# nvidia-smi
bash: nvidia-smi: command not found
>>> torch.cuda.is_available()
False
""", "container.started_without_gpus"),
    # a program's own plugin on a Jetson is not a runtime placeholder (wang-xinyu/tensorrtx#1229)
    ("""OSError: /models/libmyplugins.so: file too short
- GPU, Jetson Nano
""", None),
    # an x86 container's empty libcuda.so.1 keeps its entry
    ("""docker run -it myimage python -c "import torch"
ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short
""", "container.driver_lib_placeholder"),
    # NCCL 2.12+'s "Connection closed by remote peer" mid-run stays the remote error (a rank went away: NVIDIA/nccl#914)
    ("""host:22337:22400 [6] misc/socket.cc:521 NCCL WARN Net : Connection closed by remote peer 10.104.148.191<37877>
host:22337:22400 [6] NCCL INFO misc/socket.cc:529 -> 6
host:22337:22400 [6] NCCL INFO proxy.cc:859 -> 6
""", "nccl.remote_error"),
    # DKMS's own report keeps its first line (make.log)
    ("""Error! Bad return status for module build on kernel: 6.4.1-zen1-1-zen (x86_64)
Consult /var/lib/dkms/nvidia/535.86.05/build/make.log for more information.
""", "driver.module_build_failed"),
]


@pytest.mark.parametrize("text,want", GUARDS, ids=[str(g[1]) + f"-{n}" for n, g in enumerate(GUARDS)])
def test_guard(text: str, want: str | None) -> None:
    found = [m for m in explain(text) if m.environment]
    ids = [m.id for m in found]
    if want is None:
        assert not ids or ids[0] not in ("container.gpu_command_not_found", "container.jetson_lib_not_mounted"), ids
    else:
        assert ids and ids[0] == want, ids


def test_dkms_first_line_unchanged() -> None:
    m = next(m for m in explain(GUARDS[-1][0]) if m.environment)
    assert "make.log" in m.fix.splitlines()[0], m.fix


# program bugs inside containers with a GPU request stay verdicts: nothing environmental claimed
NEGATIVES = [
    """$ docker run --gpus all -it myimage python train.py
RuntimeError: CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
""",
    """$ singularity exec --nv img.sif python train.py
RuntimeError: CUDA error: device-side assert triggered
""",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_program_bugs_stay_verdicts(text: str) -> None:
    found = explain(text)
    assert found and not found[0].environment, [m.id for m in found]
    assert not [m.id for m in found if m.environment], [m.id for m in found]
