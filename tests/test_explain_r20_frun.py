"""Round 20, helper "frun": a practice set of forum and blog threads on the run side (drivers, containers), judged before
and after (notes: /tmp/work/notes-r20frun.md). Two known causes answered with the wrong first fix for the place the
log shows, each repaired as a variant from threads of two projects:

- error 804 in a container whose image is newer than the host's driver, on a GeForce GPU: the image (its CUDA, its
  compat libcuda) is the user's to change, the host driver is not; an image the host driver runs natively first.
- NVML "Insufficient Permissions" in a rootless container (podman): the device nodes' group is not mapped into the
  container; `--group-add keep-groups` first, SELinux hosts keep the default order.

The texts are the threads' own lines, each with its URL."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://i.hsfzxjy.site/diving-from-the-cuda-error-804-into-a-bug-of-libnvidia-container/ (RTX 3090, host driver
    # 460.67 / CUDA 11.2, an image FROM nvidia/cuda:11.3.0: a base image of CUDA 11.2 "indeed well solved the problem")
    ('Several users reported to encounter "Error 804: forward compatibility was attempted on non supported HW" during '
     'the usage of some customized PyTorch docker images on our GPU cluster.\n'
     'The host reported as problematic has 8x GeForce RTX 3090 with driver version 460.67 and CUDA 11.2. Here is an image '
     'with torch == 1.12.1 built for CUDA 11.3 and fails on the host:\n'
     'FROM nvidia/cuda:11.3.0-cudnn8-devel-ubuntu20.04\n',
     "runtime.forward_compat_unsupported", "an image whose CUDA the host driver runs natively"),
    # http://baike.linkmax.top/b/XPrH6MzNWC (Gemfield, "PyTorch的CUDA错误:Error 804": nvidia/cuda:11.1.1 and 11.2.2
    # images on an RTX 2080 Ti host with driver 450.102.04)
    ("最近在从源码编译PyTorch,使用的环境是NVIDIA官方的Docker镜像:\n"
     "  • nvidia/cuda:11.2.2-cudnn8-devel-ubuntu20.04\n"
     "  • nvidia/cuda:11.1.1-cudnn8-devel-ubuntu20.04\n"
     "宿主机为Ubuntu20.04 + RTX2080ti,Nvidia driver版本为450.102.04。\n"
     "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non "
     "supported HW\n",
     "runtime.forward_compat_unsupported", "an image whose CUDA the host driver runs natively"),
    # https://blog.gitcode.com/254535bda8375ec9e2a7002334590cf2.html (retelling NVIDIA/nvidia-container-toolkit#210 for
    # Gentoo: `--group-add keep-groups` with crun solved it, the reporter confirmed)
    ('在使用NVIDIA容器工具包(nvidia-container-toolkit)时,用户可能会遇到rootless容器模式下无法访问GPU设备的问题,具体表现为'
     '执行nvidia-smi命令时出现"Failed to initialize NVML: Insufficient Permissions"错误。\n',
     "driver.nvml_no_permission", "--group-add keep-groups"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/268 (= nvidia-docker#1608): rootless podman on openSUSE
    # Tumbleweed, the nodes crw-rw---- root video
    ("$ podman run --rm --security-opt=label=disable      --hooks-dir=/usr/share/containers/oci/hooks.d/      "
     "nvidia/cuda:11.0-base nvidia-smi\n"
     "Failed to initialize NVML: Insufficient Permissions\n",
     "driver.nvml_no_permission", "--group-add keep-groups"),
    # https://github.com/podman-container-tools/podman/issues/23016 (podman 5, a non-root container user in group video)
    ("podman run --gpus=all --rm non-root-test:latest nvidia-smi -L\n"
     "This command exits with `Failed to initialize NVML: Insufficient Permissions`.\n",
     "driver.nvml_no_permission", "--group-add keep-groups"),
]

test_first_answer = first_answer_tests(CASES)

# Near misses: the same messages where the other resolution is the way out keep their answers.
KEEP = [
    # a bare error 804 line (no image named): the default, the driver or the compat directory
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non "
     "supported HW\n",
     "runtime.forward_compat_unsupported", "install a driver that supports the CUDA in use natively"),
    # bare metal (https://github.com/rapidsai/cusignal/issues/398, a reboot solved it): the reboot variant stays first
    ("**cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorCompatNotSupportedOnDevice: forward compatibility "
     "was attempted on non supported HW**\n"
     " - Environment location: Bare-metal\n"
     " - Method of cuSignal install: conda\n",
     "runtime.forward_compat_unsupported", "reboot"),
    # rootless podman on an SELinux host (https://github.com/NVIDIA/nvidia-container-toolkit/issues/580 and #210's
    # later comment): SELinux first, as before
    ("podman run --rm --device nvidia.com/gpu=all -it -u 1000 ubuntu nvidia-smi -L\n"
     "Failed to initialize NVML: Insufficient Permissions\n"
     'for those who are stumbling on this issue, I was able to get it to work on fedora 43 with "sudo setsebool -P '
     'container_use_devices true".\n',
     "driver.nvml_no_permission", "setsebool -P container_use_devices 1"),
    # the same message for a user on the host (no container): the device nodes' mode and group, as before
    ("Failed to initialize NVML: Insufficient Permissions\n",
     "driver.nvml_no_permission", "setsebool -P container_use_devices 1"),
]

test_near_misses_keep_their_first_fix = first_answer_tests(KEEP)


def test_program_bug_stays_a_verdict():
    # https://blog.gitcode.com/b85088e98a70de42638f40d6f7f76a08.html (rasbt/LLMs-from-scratch: the input ids were not
    # moved to the GPU; `.to(device)` solved it)
    text = "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!\n"
    found = explain(text)
    assert found and not found[0].environment, [m.id for m in found]
    assert not [m.id for m in found if m.environment]


@pytest.mark.parametrize("text", [
    # a container image named beside another error than 804 is not this variant's (the FROM line of the hsfzxjy post,
    # the error of https://stackoverflow.com/questions/54374935)
    "FROM nvidia/cuda:11.3.0-cudnn8-devel-ubuntu20.04\nRuntimeError: CUDA error: out of memory\n",
])
def test_image_words_alone_claim_nothing(text: str) -> None:
    ids = [m.id for m in explain(text) if m.environment]
    assert "runtime.forward_compat_unsupported" not in ids, ids
