"""Round 16b, helper "nvml": a tool calls an NVML function the installed driver's libnvidia-ml does not have
(``driver.nvml_function_missing``, new). nvml.h adds `_v2`/`_v3` names and new queries per driver branch; a tool built
for the newer header fails on an older driver with the dynamic loader's "undefined symbol: nvml...", NVML's
NVML_ERROR_FUNCTION_NOT_FOUND (pynvml's NVMLError_FunctionNotFound), or libnvidia-container's "nvml error: function not
found". The first fix line names both levers (docs/explain.md principle 9): the driver branch that has the function
(knowledge/nvml.yaml `functions`) and the tool's last release for this driver (`tools`); a GPU whose last driver is the
legacy 340/390 branch (`legacy`) puts the older release first.

Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss wordings on their answers.
"""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

NVML = "driver.nvml_function_missing"

CASES = [
    # https://github.com/NVIDIA/k8s-device-plugin/issues/66 (the burned fresh16 p31: "it works well with
    # k8s-device-plugin:1.10")
    ("> nvidia-device-plugin: symbol lookup error: nvidia-device-plugin: undefined symbol: nvmlDeviceGetPciInfo_v3\n\n"
     "when I run with following command\n\n> docker run --security-opt=no-new-privileges --cap-drop=ALL --network=none "
     "-it -v /var/lib/kubelet/device-plugins:/var/lib/kubelet/device-plugins nvidia/k8s-device-plugin:1.11\n",
     NVML, "nvidia/k8s-device-plugin:1.10"),
    ("> nvidia-device-plugin: symbol lookup error: nvidia-device-plugin: undefined symbol: nvmlDeviceGetPciInfo_v3\n",
     NVML, "384.81"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/108 ("Using 384.81 works")
    ('Using drivers version 375.* , the pod crashes with : "undefined symbol: nvmlDeviceGetPciInfo_v3"\n',
     NVML, "Upgrade the NVIDIA driver to the 384 branch (384.81)"),
    # https://github.com/Syllo/nvtop/issues/32 (the burned fresh16 p38: driver 340 on a Kepler Quadro; "After installing
    # the 384 Driver it works")
    ("I just installed new Nvidia driver 340 on my machine and downloaded _nvtop_ from the repo.\n"
     "`nvtop: symbol lookup error: nvtop: undefined symbol: nvmlDeviceGetPcieThroughput` \n"
     "Specs:\nOS: Ubuntu 16.04 LTS\nGPU: Quadro K1000M/PCIe/SSE2\n",
     NVML, "Upgrade the NVIDIA driver to the 384 branch"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1380 (the burned fresh16 p39: 340.108; the downgraded container
    # stack worked)
    ('`sudo docker run --rm --gpus all nvidia/cuda:11.0-base nvidia-smi`\n\n'
     '`docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process '
     'caused "process_linux.go:449: container init caused \\"process_linux.go:432: running prestart hook 0 caused '
     '\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: detection error: nvml error: '
     'function not found\\\\\\\\n\\\\\\"\\"": unknown.`\n\n'
     "| NVIDIA-SMI 340.108    Driver Version: 340.108        |\n",
     NVML, "libnvidia-container-tools 1.0.7"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1295 (340.107 on a GeForce 9300M GS: a 340-only GPU)
    ("sudo docker run --gpus all nvidia/cuda:10.0-base\n"
     'docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process '
     'caused "process_linux.go:449: container init caused \\"process_linux.go:432: running prestart hook 0 caused '
     '\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: detection error: nvml error: '
     'function not found\\\\\\\\n\\\\\\"\\"": unknown.\n'
     "| NVIDIA-SMI 340.107    Driver Version: 340.107        |                       \n"
     "|   0  GeForce 9300M GS    Off  | 0000:01:00.0     N/A |                  N/A |\n",
     NVML, "nvidia-docker2 2.2.2"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/293 (367.134 on a GRID K2, a Kepler board: the
    # maintainer names the supported minimum driver; libnvidia-container's _v2 call came with 410.72, nvidia-docker#1280)
    ("docker run --gpus all --rm debian:10-slim nvidia-smi\n"
     "docker: Error response from daemon: OCI runtime create failed: container_linux.go:367: starting containvidia-"
     "container-cli: detection error: nvml error: function not found: unknown.\n\n"
     "| NVIDIA-SMI 367.134                Driver Version: 367.134                   |\n"
     "|   0  GRID K2             Off  | 0000:1A:00.0     Off |                  Off |\n",
     NVML, "Upgrade the NVIDIA driver to the 410 branch (410.72)"),
    # https://github.com/gpuopenanalytics/pynvml/issues/43 (driver 430; the _v2 process query came with 450.66,
    # wookayin/gpustat#107; nvidia-ml-py 11.450.51 is the release before it, wookayin/gpustat#102)
    ('  File "/mnt/data0/home/dengjinhong/miniconda3/envs/python3/lib/python3.6/site-packages/pynvml.py", line 782, in '
     "_nvmlGetFunctionPointer\n    _nvmlGetFunctionPointer_cache[name] = getattr(nvmlLib, name)\n"
     "AttributeError: /usr/lib/nvidia-430/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetComputeRunningProcesses_v2\n",
     NVML, "nvidia-ml-py==11.450.51"),
    # https://github.com/wookayin/gpustat/issues/105 (the graphics-process query; NVMLError_FunctionNotFound below it)
    ("AttributeError: /lib64/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetGraphicsRunningProcesses_v2\n\n"
     "During handling of the above exception, another exception occurred:\n\n"
     "NVMLError_FunctionNotFound                Traceback (most recent call last)\n",
     NVML, "the 450 branch (450.66)"),
    # https://github.com/rapidsai/dask-cuda/issues/909 (a RAPIDS image's pynvml on an older host driver)
    ('  File "/opt/conda/envs/rapids/lib/python3.8/site-packages/pynvml/nvml.py", line 782, in _nvmlGetFunctionPointer\n'
     "    _nvmlGetFunctionPointer_cache[name] = getattr(nvmlLib, name)\n"
     "AttributeError: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: undefined symbol: "
     "nvmlDeviceGetComputeRunningProcesses_v2\n",
     NVML, "450.66"),
    # https://github.com/HackTestes/NVML-GPU-Control/issues/19 (driver 550; "Updating to the driver to the version 580
    # solved the issue")
    ("* Driver version: 550\n* GPU: 1080 Ti\n"
     '"AttributeError: /lib/x86_64-linux-gnu/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetTemperatureV"\n',
     NVML, "the 580 branch or newer"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/77 (nvidia-ctk 1.13.3 on 440.33.01: MIG queries came
    # with R450)
    ("NVIDIA-SMI 440.33.01    Driver Version: 440.33.01    CUDA Version: 10.2\n"
     "nvidia-ctk: symbol lookup error: nvidia-ctk: undefined symbol: nvmlDeviceGetMaxMigDeviceCount\n",
     NVML, "the 450 branch or newer"),
    # https://github.com/4paradigm/k8s-vgpu-scheduler/issues/4 (HAMi-core's NVML hook on 440.33.01, a Tesla M40)
    ("can't find function nvmlDeviceGetComputeRunningProcesses_v2 in libnvidia-ml.so.1\n"
     "Tue Aug  3 08:36:12 2021       \n"
     "| NVIDIA-SMI 440.33.01    Driver Version: 440.33.01    CUDA Version: 10.2     |\n"
     "|   0  Tesla M40           Off  | 00000000:00:08.0 Off |                  Off |\n",
     NVML, "the 450 branch (450.66)"),
    # an Arch legacy package (Syllo/nvtop#100: nvidia-390xx-dkms): the 390 branch has the 384-era function, so the
    # driver upgrade within reach comes first
    ("[tjm@ArchPad ~]$ pacman -Qi nvidia-390xx-dkms\n"
     "nvtop: symbol lookup error: nvtop: undefined symbol: nvmlDeviceGetPcieThroughput\n",
     NVML, "Upgrade the NVIDIA driver to the 384 branch"),
    # -- guards: near-miss wordings keep their answers ----------------------------------------------------------------
    ("Failed to initialize NVML: Driver/library version mismatch\n", "driver.version_mismatch", ""),
    ("Failed to initialize NVML: Unknown Error\n", "container.nvml_lost", ""),
    ("ImportError: /usr/lib/python3/dist-packages/cupy/cuda/device.so: undefined symbol: cuDevicePrimaryCtxRelease_v2\n",
     "runtime.driver_symbol_missing", ""),
]

test_first_answer = first_answer_tests(CASES)


def test_nvml_other_errors_stay_unclaimed():
    """libnvidia-container's other NVML statuses and pynvml's "Not Supported" are not a missing function."""
    for text in ("nvidia-container-cli: detection error: nvml error: unknown error: unknown.\n",
                 "pynvml.NVMLError_NotSupported: Not Supported\n",
                 # https://github.com/CFSworks/nvml_fix/issues/2 (a rebuilt libnvidia-ml of another version)
                 "Mismatch in versions between nvidia-smi and NVML.\n"
                 "Are you sure you are using nvidia-smi provided with the driver?\n"
                 "Failed to properly shut down NVML: Function Not Found\n"):
        assert NVML not in [m.id for m in explain(text)], text


def test_program_bug_stays_unclaimed():
    text = ("RuntimeError: CUDA error: device-side assert triggered\n"
            "CUDA kernel errors might be asynchronously reported at some other API call\n")
    assert not [m.id for m in explain(text) if m.environment]
