"""Round 14, machine: the driver-vs-CUDA pair read from any producer's wording and answered from data/compat.yaml
(nvidia-docker 1.0's "driver X < image Y", nvidia-container-cli's `cuda>=X` beside the host's nvidia-smi, NVML's
version mismatch inside an image whose CUDA is newer than the host driver), and the status strings of error 802
(NVSwitch fabric manager) and 702 (TDR) as every producer prints them. Excerpts are verbatim (trimmed) from the
threads named above them."""

from explain_answers import first_answer_tests

SMI_375 = ("+-----------------------------------------------------------------------------+\n"
           "| NVIDIA-SMI 375.66                 Driver Version: 375.66                    |\n"
           "|-------------------------------+----------------------+----------------------+\n")

CASES = [
    # -- the driver-vs-CUDA pair: nvidia-docker 1.0 -----------------------------------------------------------------
    # https://github.com/h2oai/h2o4gpu/issues/298 (the burned fresh13 h39: "you need the latest drivers that come with cuda9")
    ("jon@pseudotensor:~/h2o4gpu$ nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
     "Status: Downloaded newer image for nvidia/cuda:latest\n"
     "nvidia-docker | 2017/11/21 00:48:39 Error: unsupported CUDA version: driver 8.0 < image 9.0.176\n",
     "container.driver_too_old", "Upgrade the host driver to 384.81 or newer"),
    # https://github.com/NVIDIA/nvidia-docker/issues/497 (nvidia-smi 375.66; fixed by the 8.0 image or a newer driver,
    # yrahal/ec2-setup#1)
    ("`nvidia-docker run --rm nvidia/cuda nvidia-smi`\n producing this error message -\n"
     " `nvidia-docker | 2017/10/13 08:33:01 Error: unsupported CUDA version: driver 8.0 < image 9.0.176`\n\n"
     " `nvidia-smi` output is following\n\n```\n" + SMI_375,
     "container.driver_too_old", "driver 375.66 runs CUDA 8.0 at most"),
    # https://github.com/NVIDIA/nvidia-docker/issues/177 (352.39, CUDA 7.5 against the 8.0 image; floydhub/dl-docker#34:
    # "use image nvidia/cuda:7.5 instead, or update your driver")
    (" nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
     "nvidia-docker | 2016/08/22 12:54:02 Error: unsupported CUDA version: driver 7.5 < image 8.0\n"
     "| NVIDIA-SMI 352.39     Driver Version: 352.39         |\n",
     "container.driver_too_old", "use an image built for CUDA 7.5 or older"),
    # https://github.com/NVIDIA/nvidia-docker/issues/190 ("driver 0.0": nvidia-docker read no driver at all)
    ("And yet the output from `nvidia-docker run --rm nvidia/cuda nvidia-smi` is\n"
     "nvidia-docker | 2016/09/04 14:43:17 Error: unsupported CUDA version: driver 0.0 < image 8.0\n",
     "container.driver_too_old", "If `nvidia-smi` fails on the host"),
    # -- the pair: nvidia-container-cli beside the host's nvidia-smi ------------------------------------------------
    # https://github.com/theroyallab/tabbyAPI/issues/324 (Ubuntu 24.04, 550.144.03 / CUDA 12.4 under cuda>=12.8)
    ("stderr: Auto-detected mode as 'legacy'\n"
     "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container: unknown\n"
     "> nvidia-smi\n```\n"
     "| NVIDIA-SMI 550.144.03             Driver Version: 550.144.03     CUDA Version: 12.4     |\n",
     "container.driver_too_old", "Upgrade the host driver to 570.26 or newer (driver 550.144.03 runs CUDA 12.4 at most"),
    # https://github.com/SyneRBI/PETRIC2/issues/27 ("I am running cuda 12.4 - is that too old?")
    ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container\n"
     "(base) (base) PS C:\\projects\\PETRIC2> nvidia-smi.exe\n"
     "| NVIDIA-SMI 551.78                 Driver Version: 551.78         CUDA Version: 12.4     |\n",
     "container.driver_too_old", "driver 551.78 runs CUDA 12.4 at most"),
    # guard: the requirement alone (no driver in the log) keeps the general answer with NVIDIA's minimum
    # (Xilinx/Vitis-AI#103: "You need to install NVIDIA driver >=410.78")
    ("stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=10.0\\\\n\\\"\"\": unknown.",
     "container.driver_too_old", "Install a host driver for CUDA 10.0 or newer"),
    # -- the pair: NVML's version mismatch inside an image whose CUDA is newer than the host driver ------------------
    # https://github.com/iot-salzburg/gpu-jupyter/issues/106 (the burned fresh8 c70: host 510 / CUDA 11.6, the v1.5 image
    # carries CUDA 12.1; fixed by driver 530, a reboot did not help)
    ("`docker run --gpus all -d -it -p 8848:8888 cschranz/gpu-jupyter:v1.5_cuda-11.6_ubuntu-20.04_python-only`\n"
     ">Failed to initialize NVML: Driver/library version mismatch\n"
     "> Cuda compilation tools, release 12.1, V12.1.66\n"
     "This works\n`docker run --gpus all nvidia/cuda:11.6.2-cudnn8-runtime-ubuntu20.04 nvidia-smi`\n"
     "This is the output from the VM, not the containers.\n"
     "> | NVIDIA-SMI 510.108.03   Driver Version: 510.108.03   CUDA Version: 11.6     |\n",
     "driver.version_mismatch", "upgrade the host driver to 530.30.02 or newer"),
    # guard: NVML's mismatch on a bare machine keeps the reload/reboot answer (no container, no image CUDA)
    ("$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.183",
     "driver.version_mismatch", "The kernel module still loaded"),
    # -- error 802 as each producer prints its string -----------------------------------------------------------------
    # https://github.com/NVIDIA/nccl-tests/issues/264 (the burned fresh13 h35: 8x H100, fixed by the fabric manager)
    ("# Using devices\ntest: Test CUDA failure common.cu:941 'system not yet initialized'\n .. test pid 54340: Test failure common.cu:891\n",
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # https://github.com/wilicc/gpu-burn/issues/92 (H100 80GB HBM3 fails, the H100 PCIe without NVSwitch works)
    ("GPU 6: NVIDIA H100 80GB HBM3 ...\nterminate called after throwing an instance of 'std::runtime_error'\n"
     "  what():  Error (gpu_burn-drv.cpp:298): system not yet initialized\n",
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # https://github.com/pytorch/pytorch/issues/35710 (the CUDA samples' wording)
    ("cudaGetDeviceProperties returned 802\n-> system not yet initialized\n",
     "driver.fabric_manager", "nvidia-fabricmanager"),
    # -- error 702 cut at a line end -----------------------------------------------------------------------------------
    # https://github.com/Purfview/whisper-standalone-win/issues/411 (the burned fresh13 h44: A40-1Q vGPU on Windows; TDR)
    ('I launched this command: `C:\\Whisper\\faster-whisper-xxl.exe "C:\\Whisper\\Input\\MySpeech.mp3" --language English`\n'
     'File "pyannote\\audio\\pipelines\\speaker_verification.py", line 707, in __call__\n'
     "RuntimeError: CUDA error: the launch timed out and was\n",
     "status.launch_timeout", "TdrDelay"),
    # -- the nvidia runtime not the node's default: a Kubernetes pod without libcuda ------------------------------------
    # https://github.com/NVIDIA/k8s-device-plugin/issues/5 (the burned fresh13 h69: "After change default runtime to
    # nvidia, it works now")
    ("Hi, I'm trying to deploy `TensorFlow` (with GPU support) on kubernetes with this device plugin.\n"
     "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "Failed to load the native TensorFlow runtime.\n",
     "runtime.libcuda_not_found", "make nvidia the default runtime on the GPU node"),
    # https://github.com/NVIDIA/nvidia-docker/issues/828 (`docker run --runtime nvidia` works, the pod does not)
    ('I can able to run my cuda image using \n"docker run --runtime nvidia imgname"\n'
     "But when I deploy in kubernetes  I get the following error for tensorflow \n"
     '"ImportError: libcuda.so.1: cannot open shared object file: No such file or directory"\n'
     'How to access "--runtime nvidia" in kubernetes.',
     "runtime.libcuda_not_found", "make nvidia the default runtime on the GPU node"),
    # guard: a plain docker container without libcuda keeps the start-with-GPUs answer
    ("$ docker run -it myimage python -c 'import tensorflow'\n"
     "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n",
     "runtime.libcuda_not_found", "Start the container with GPU access"),
    # -- device nodes missing after boot under an unprivileged hook -------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-container-runtime/issues/142 (the burned fresh13 h43: nvidia-smi and the device-node
    # script at each boot)
    ("For each system boot/reboot rootless podman does not work with the nvidia plugin.\n"
     "I must run **nvidia-smi**, otherwise i get the error:\n"
     "```Error: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1): OCI runtime error```\n",
     "container.hook_cgroup_denied", "Create the device nodes at boot, as root"),
    # guard: the hook refused by the cgroup without a boot in the log keeps no-cgroups first
    ("Error: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1): OCI runtime error\n$ podman run --rm --gpus all ubuntu nvidia-smi",
     "container.hook_cgroup_denied", "no-cgroups = true"),
]

# guards that must stay unclaimed: a program's own "timed out" is not error 702
UNCLAIMED = [
    "ERROR: the launch timed out waiting for the server to respond",
]

test_first_answer = first_answer_tests(CASES)


def test_not_claimed() -> None:
    from cudaenv.knowledge.explain import explain

    for text in UNCLAIMED:
        assert not [m.id for m in explain(text) if m.environment], text
