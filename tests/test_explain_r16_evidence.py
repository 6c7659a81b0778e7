"""Round 16, helper "evidence": the log's evidence decides which alternative comes first.

Real excerpts (verbatim, trimmed), each with its thread. An entry whose fix is written as "`nvidia-smi` tells which case:
if it fails ...; if it works ..." answers with the decided alternative first when the log shows nvidia-smi working
(extract.py ``smi``); a toolkit the log shows (nvcc's release, torch's collect_env "CUDA runtime version", CMake's compiler
identification) decides Triton's ptxas before the driver; nvidia-smi's "CUDA Version" is the driver's, never the toolkit
``cuda_seen`` names. Guards: the same messages without the evidence keep their answers; program bugs beside nvidia-smi's
table stay verdicts.
"""

from __future__ import annotations

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.extract import facts
from cudaenv.knowledge.explain.text import LogText

from explain_answers import first_answer_tests

_LIBNVML = (
    "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: "
    "unable to start container process: error during container init: error running hook #0: error running hook: exit "
    "status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
    "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object "
    "file: no such file or directory: unknown.\n")

CASES = [
    # -- container.host_driver_missing: nvidia-smi works on the host, so the daemon docker reached is the cause
    # https://github.com/canonical/docker-snap/issues/148 (docker from snap on classic Ubuntu)
    ("I have install nvidia driver. In my host, `nvida-smi` is normal.\n\ninstall cmd: \n```shell\nsnap install docker\n"
     "docker pull nvidia/cuda:11.7.1-runtime-ubuntu22.04\ndocker run -it --gpus all d916bd2c64a8\n```\n"
     "The errors are below\n```shell\n" + _LIBNVML + "ERRO[0000] error waiting for container: context canceled \n```\n",
     "container.host_driver_missing", "The driver works (this log's nvidia-smi)"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/1092 (fresh Ubuntu 24.04, the table)
    ("Working from a fresh Ubuntu 24.04 install, I can't get nvidia-container-toolkit working.\n\n"
     "I've tried a bunch of times, no matter what I follow I get:\n```\nError response from daemon: failed to create task "
     "for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container "
     "process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: "
     "Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: "
     "cannot open shared object file: no such file or directory: unknown\n```\n\n"
     "nvidia-smi shows everything is fine with the driver.\n\n```\nSat May 17 19:28:26 2025\n"
     "+-----------------------------------------------------------------------------------------+\n"
     "| NVIDIA-SMI 550.163.01             Driver Version: 550.163.01     CUDA Version: 12.4     |\n"
     "|-----------------------------------------+------------------------+----------------------+\n```\n",
     "container.host_driver_missing", "`snap list docker` lists a snap docker"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1711 (the reporter had installed Docker Desktop; nvidia-smi's table)
    ("`sudo apt-get install -y nvidia-docker2`\n\nsuccessfully\nnvidia-docker2 is already the newest version (2.11.0-1).\n\n"
     "Mon Dec  5 18:59:03 2022       \n"
     "+-----------------------------------------------------------------------------+\n"
     "| NVIDIA-SMI 525.60.11    Driver Version: 525.60.11    CUDA Version: 12.0     |\n"
     "|-------------------------------+----------------------+----------------------+\n"
     "$ docker run --rm --gpus all nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi\n" + _LIBNVML,
     "container.host_driver_missing", "`docker context ls` marks Docker Desktop"),
    # guard: no evidence of nvidia-smi: the check decides, as before (fresh8 c31, OpenTalker/SadTalker#49)
    ("docker run -it --gpus all nvidia/cuda:11.4.0-base-ubuntu20.04 nvidia-smi\n" + _LIBNVML,
     "container.host_driver_missing", "If `nvidia-smi` fails on the host"),

    # -- runtime.stub_library: nvidia-smi works, so the stub hides a driver that is there
    # https://github.com/NVIDIA/cutlass/issues/1636 (H800, the table beside the build's GPU probe)
    ("build error on H800 machine. Seems that it didn't recoginize GPU device. Envioronment listed below:\n\nnvidia-smi\n"
     "NVIDIA-SMI 535.129.03             Driver Version: 535.129.03   CUDA Version: 12.2\n\nnvcc --version\n"
     "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.4, V12.4.99\n\n"
     "[ 94%] Building CUDA object test/unit/gemm/device/CMakeFiles/cutlass_test_unit_gemm_device_blas3.dir/"
     "symm_f64_f64_tensor_op_f64_sm90.cu.o\n"
     "*** Error: Could not detect active GPU device ID [CUDA driver is a stub library]\n",
     "runtime.stub_library", "A driver is installed (this log's nvidia-smi works)"),
    # https://github.com/NixOS/nixpkgs/issues/320145 (local-ai's ggml; "nvidia-smi output looks ok")
    ("11:51PM INF LocalAI API is listening! Please connect to the endpoint for API documentation. "
     "endpoint=http://0.0.0.0:11111\n....\nggml_cuda_init: failed to initialize CUDA: CUDA driver is a stub library\n```\n\n"
     "nvidia-smi output looks ok:\n```\n+---------------------------------------------\n",
     "runtime.stub_library", "A driver is installed (this log's nvidia-smi works)"),
    # guard: no nvidia-smi in the log: the check decides first (rigelminer/rigel#153, in docker)
    ("root@7f6ad01bfd99:/home# ./rigel -a pyrinhash --no-tui\n[2024-03-15 10:30:10] Rigel v1.15.0 - [Linux]\n"
     "[2024-03-15 10:30:10] CUDA error: CUDA driver is a stub library\n",
     "runtime.stub_library", "nvidia-smi"),

    # -- status.kernel_image_invalid under Triton: a CUDA 11 toolkit in the log gives TRITON_PTXAS_PATH first
    # https://github.com/pytorch/pytorch/issues/119054 (fresh14 m08: collect_env's "CUDA runtime version: 11.8.89", R470)
    ("BackendCompilerFailed: backend='inductor' raised: RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n"
     "PyTorch version: 2.2.0+cu118\nIs debug build: False\nCUDA used to build PyTorch: 11.8\n"
     "GCC version: (Ubuntu 9.4.0-1ubuntu1~20.04.1) 9.4.0\nIs CUDA available: True\nCUDA runtime version: 11.8.89\n"
     "GPU models and configuration: \nGPU 0: NVIDIA A100-SXM4-80GB\n\nNvidia driver version: 470.182.03\n",
     "status.kernel_image_invalid", 'export TRITON_PTXAS_PATH="$CUDA_HOME/bin/ptxas"'),
    # https://github.com/triton-lang/triton/issues/4172 (mmcv-style environment report: "NVCC: Cuda compilation tools,
    # release 11.8", torch 2.2.2+cu118 on A100s)
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n\n## env\n\n```\nsys.platform: linux\n"
     "GPU 0,1: NVIDIA A100-SXM4-80GB\nCUDA_HOME: /usr/local/cuda\nNVCC: Cuda compilation tools, release 11.8, V11.8.89\n"
     "GCC: gcc (GCC) 10.2.1 20210130 (Red Hat 10.2.1-11)\nPyTorch: 2.2.2+cu118\n```\n",
     "status.kernel_image_invalid", "Give Triton the ptxas of the CUDA 11.8 toolkit this log shows"),
    # https://github.com/vllm-project/vllm/issues/5713 (cu118 on an old cluster driver; the local ptxas over Triton's)
    ('File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/layers/fused_moe/fused_moe.py", line 246, in '
     'invoke_fused_moe_kernel\n    fused_moe_kernel[grid](\n  File "/usr/local/lib/python3.10/dist-packages/triton/'
     'runtime/jit.py", line 167, in <lambda>\nRuntimeError: Triton Error [CUDA]: device kernel image is invalid\n'
     "Nvidia driver version: 515.65.01\nCUDA runtime version: 11.8.89\n",
     "status.kernel_image_invalid", "TRITON_PTXAS_PATH"),
    # -- runtime.libcudart_not_found: torch's own CUDA in the log is another release than the missing runtime's
    # https://github.com/rusty1s/pytorch_scatter/issues/86 (fresh14 m61: rebuilt with CUDA_HOME at 10.0)
    ("ImportError: libcudart.so.8.0: cannot open shared object file: No such file or directory\n\n"
     "`torch_scatter`: 1.2.0\n`torch.version.cuda`: 10.0.130\n`CUDA_HOME`:/usr/local/cuda-10.0\n"
     "Similar issue as [this](https://github.com/rusty1s/pytorch_geometric/issues/114#issuecomment-477403628). The "
     "`/usr/local/cuda` on the server points to the `/usr/local/cuda-8.0`, but I do not have the `root` privilege to "
     "change the symbol link.\n",
     "runtime.libcudart_not_found", "Build or install the extension for torch's CUDA 10.0"),
    # -- the toolkit the reporter names decides "`nvcc --version` decides: ..." (components.yaml toolkit_features)
    # https://github.com/ingowald/cudaKDTree/issues/11 (CUB under CUDA 10.1; "updated my cuda version to 11.4 and it
    # compiles fine")
    ("Thanks for such a great job, but when I compile the project, an error occurs\u201cspatial-kdtree.h:20:10: fatal "
     "error: cub/cub.cuh: No such file or directory\n #include <cub/cub.cuh>\n\u201d\nmy cuda version is 10.1\n",
     "build.cuda_header_missing", "Build with CUDA 11.0 or newer"),
    # guard: no version named: the check decides (dmlc/xgboost#7762, fresh15 n01)
    ("CC=/usr/bin/gcc-8 CXX=/usr/bin/g++-8 cmake .. -DUSE_CUDA=ON -DBUILD_WITH_CUDA_CUB=ON\n\n...\n"
     "fatal error: cub/cub.cuh: No such file or directory\n #include <cub/cub.cuh>\n          ^~~~~~~~~~~~~\n",
     "build.cuda_header_missing", "`nvcc --version` decides"),
    # guard: no toolkit in the log: both fixes labelled, the driver's first (triton-lang/triton#2971: R470 in docker)
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid.\n\n"
     "NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: 11.4\n",
     "status.kernel_image_invalid", "Triton compiles with its own ptxas from CUDA 12.x"),
]

test_first_answer = first_answer_tests(CASES)


def test_failing_smi_keeps_the_driver_first() -> None:
    """Guard: nvidia-smi fails where the log ran it: the daemon variant does not fire, the driver stays first in the
    container runtime's answer (docker/for-win#13835: "my drivers simply were not installed")."""
    text = ("$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
            "latest NVIDIA driver is installed and running.\n\n$ docker run --rm --gpus all ubuntu nvidia-smi\n" + _LIBNVML)
    got = {m.id: m for m in explain(text)}
    fix = got["container.host_driver_missing"].fix
    assert fix.startswith("If `nvidia-smi` fails on the host"), fix


def test_torch_itself_is_not_an_extension_of_another_cuda() -> None:
    """Guard: torch's own _C needing another runtime (pytorch/pytorch#10910: conda's cudatoolkit moved from 9.0 to 9.2
    under a torch built for 9.0) is not an extension built for another CUDA than torch's."""
    text = ("ImportError: libcudart.so.9.0: cannot open shared object file: No such file or directory\n"
            "  File \"/home/paperspace/anaconda3/lib/python3.6/site-packages/torch/__init__.py\", line 80, in <module>\n"
            "    from torch._C import *\nCUDA used to build PyTorch: 9.2\n")
    got = [m for m in explain(text) if m.id == "runtime.libcudart_not_found"]
    assert got and not got[0].values.get("torch_cuda_other"), [(m.id, m.title) for m in got]


def test_cuda_seen_is_not_the_drivers() -> None:
    """nvidia-smi's "CUDA Version" is the driver's newest CUDA (driver_seen_cuda), not a toolkit: cuda_seen skips it for
    the toolkit the log names after it (NVIDIA/cutlass#1636: "CUDA Version: 12.2" above nvcc's "release 12.4")."""
    text = CASES[4][0]
    got = facts(LogText(text))
    assert got["cuda_seen"] == "12.4", got
    assert got["driver_seen_cuda"] == "12.2", got
    only_smi = "| NVIDIA-SMI 450.119.03   Driver Version: 450.119.03   CUDA Version: 11.0     |\n"
    got = facts(LogText(only_smi))
    assert got["cuda_seen"] == "" and got["driver_seen_cuda"] == "11.0", got


def test_toolkit_seen_from_tools_that_found_it() -> None:
    """torch's collect_env, CMake's compiler identification and FindCUDA name the toolkit they found."""
    for text, want in (("CUDA runtime version: 11.8.89\n", "11.8"),
                       ("-- The CUDA compiler identification is NVIDIA 12.4.131\n", "12.4"),
                       ('-- Found CUDA: /usr/local/cuda (found version "10.0") \n', "10.0"),
                       ('-- Found CUDA: /usr/local/cuda-9.0 (found suitable version "9.0", minimum required is "7.0")\n',
                        "9.0"),
                       ("CUDA runtime version: Could not collect\n", "")):
        assert facts(LogText(text))["cuda_seen"] == want, text


def test_cuda_said_decides_but_is_not_pasted() -> None:
    """The reporter's "my cuda version is X.Y" is ``cuda_said``: it decides a toolkit feature's side, but is no toolkit
    to paste (fresh7 b51: "the cuda version is 12.1" under a 525 driver, whose answer names a toolkit the driver runs)."""
    got = facts(LogText("my cuda version is 10.1\n"))
    assert got["cuda_said"] == "10.1" and got["cuda_seen"] == "", got


def test_smi_fact() -> None:
    """``smi``: "works" from the table, `nvidia-smi -L` or the user's words; "fails" from its failures; "" for both or
    for advice that only names the check."""
    def smi(text: str) -> str:
        return facts(LogText(text))["smi"]

    assert smi("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n") == "works"
    assert smi("GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-5f1c0f7e-1a2b-3c4d-5e6f-0123456789ab)\n") == "works"
    assert smi("In my host, nvidia-smi works fine.\n") == "works"
    assert smi("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n") == "fails"
    assert smi("bash: nvidia-smi: command not found\n") == "fails"
    # the host's table and a container's failure (tkestack/gpu-manager#101): where it ran is unknown, nothing decided
    assert smi("NVIDIA-SMI couldn't find libnvidia-ml.so library in your system.\n"
               "| NVIDIA-SMI 450.66       Driver Version: 450.66       CUDA Version: 11.0     |\n") == ""
    assert smi("Please make sure nvidia-smi works before you start.\n") == ""


def test_program_bug_beside_the_table_stays_a_verdict() -> None:
    """A program bug printed beside nvidia-smi's table claims no environment cause (the table is evidence for fixes, not
    a cause)."""
    text = ("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
            "RuntimeError: CUDA error: device-side assert triggered\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
            "be incorrect.\n")
    found = explain(text)
    assert found and not found[0].environment, [m.id for m in found]
    assert not [m.id for m in found if m.environment], [m.id for m in found]
