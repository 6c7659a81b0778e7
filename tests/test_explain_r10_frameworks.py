"""Issue 18, round 10, helper "frameworks": torch/Triton/Python at run time and NCCL, entry by entry.

Each entry's fix block lists the resolutions its cause had in real threads, the most common first and each
other one labelled by the situation it solves (a check the user can run, or a fact the log shows); where the log
shows the deciding fact, a variant puts that situation's fix first. Each excerpt is quoted (trimmed) from the
thread above it; ``want_fix`` is a substring of the fix that solved that thread, found on the first fix line.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

ARCH = "torch.arch_unsupported"
NOKERNEL = "runtime.no_kernel_image"
CPU = "torch.cpu_build"
UNAVAIL = "python.torch_cuda_unavailable"
PTX = "runtime.unsupported_ptx"
TRITON = "triton.ptxas_unknown_arch"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- torch.arch_unsupported: a new GPU in a pip/venv torch: the torch build for its CUDA ----------------------
    # https://github.com/lllyasviel/FramePack/issues/722 (Linux-style install, torch 2.6.0+cu126 on an RTX 5080:
    # "pip install -U torch torchvision torchaudio xformers --index-url https://download.pytorch.org/whl/cu128")
    ("- Torch Version: 2.6.0+cu126\n"
     "UserWarning: NVIDIA GeForce RTX 5080 with CUDA capability sm_120 is not compatible with the current PyTorch "
     "installation.\nRuntimeError: CUDA error: no kernel image is available for execution on the device",
     ARCH, "download.pytorch.org/whl/cu128"),
    # https://github.com/lucasxlu/ComboLoss/issues/3 (a venv; "pip3 install torch==1.9.0+cu111 ...")
    ("NVIDIA GeForce RTX 3080 Laptop GPU with CUDA capability sm_86 is not compatible with the current PyTorch "
     "installation.\nThe current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n"
     "If you want to use the NVIDIA GeForce RTX 3080 Laptop GPU GPU with PyTorch, please check the instructions at "
     "https://pytorch.org/get-started/locally/", ARCH, "+cu111"),
    # https://github.com/andreimargeloiu/WPFS/issues/3 (requirements.txt pinned torch==1.10.1: "torch==1.10.1+cu111")
    ("NVIDIA A100-SXM4-80GB with CUDA capability sm_80 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n"
     "I was wondering whether the current pyTorch version (v1.10.1) from the `requirements.txt` supports sm_80 or not?",
     ARCH, "+cu111"),
    # https://github.com/bismex/MetaBIN/issues/15 ("I have change those version to torch==1.10.1 torchvision==0.11.2")
    ("NVIDIA GeForce RTX 3060 with CUDA capability sm_86 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_61 sm_70 sm_75 compute_37.",
     ARCH, "torch 1.8 or newer"),
    # --- a Windows portable app: its own Python's pip ---------------------------------------------------------------
    # https://github.com/lllyasviel/FramePack/issues/702 (framepack_cu126_torch26 one-click package, RTX 5080; the
    # package's system\python is what needs the cu128 torch: FramePack#61's update_torch.bat runs
    # "%DIR%\python\python.exe -m pip install ... --index-url https://download.pytorch.org/whl/nightly/cu128")
    ("F:\\tmp\\framepack_cu126_torch26\\system\\python\\lib\\site-packages\\torch\\cuda\\__init__.py:235: UserWarning:\n"
     "NVIDIA GeForce RTX 5080 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90.",
     ARCH, "python.exe -m pip install"),
    # https://github.com/lllyasviel/FramePack/issues/45 (a plain pip said "already satisfied"; the package's Python)
    ("pip install --pre torch torchvision torchaudio --index-url https://download.pytorch.org/whl/nightly/cu128\n"
     "tells me that its already satisfied, but then I still cannot use framepack.\n"
     "C:\\Users\\x\\framepack_cu126_torch26\\system\\python\\lib\\site-packages\\torch\\cuda\\__init__.py:235: "
     "UserWarning:\nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
     "installation.", ARCH, "python.exe -m pip install"),
    # --- a Docker image: the image's torch ------------------------------------------------------------------------
    # https://github.com/remsky/Kokoro-FastAPI/issues/306 (docker compose; solved by a cu128 image, PR #466)
    ("I am installing using docker compose and encountered this issue right at the end. It states:\n"
     "\"NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with the current PyTorch installation. "
     "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90\"",
     ARCH, "cu128"),
    # https://github.com/yamada-sexta/rvc-webgui-fork/issues/21 ("Fix: change the base image to
    # nvidia/cuda:12.8.1-devel-ubuntu22.04": the Dockerfile's torch)
    ("RTX 5070 (Blackwell/sm_120) not supported - Dockerfile uses CUDA 12.2\n"
     "PyTorch throws \"NVIDIA GeForce RTX 5070 with CUDA capability sm_120 is not compatible with\n"
     "the current PyTorch installation.\"", ARCH, "Dockerfile"),
    # https://github.com/vllm-project/vllm/issues/21633 (the v0.10.0 image's torch has no sm_120: "v0.9.2 works ...
    # Suggest rebuilding and forcing pytorch to be >=2.7.1"; a compose service's log)
    ("vllm-1  | /usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:287: UserWarning: \n"
     "vllm-1  | NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not compatible with the current PyTorch "
     "installation.\nvllm-1  | The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 "
     "sm_86 sm_90.", ARCH, "The torch inside the image"),
    # https://github.com/PKU-YuanGroup/Open-Sora-Plan/issues/39 (H100; the project pins torch==1.13.1+cu117: a torch
    # built for CUDA 11.8 or newer)
    ("I'm using H100 (80GB) , but the specified pytorch version (torch==1.13.1+cu117) does not support H100 CUDA sm_90.\n"
     "NVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.",
     ARCH, "+cu118"),
    # --- a GPU older than the build's lowest architecture: the CUDA 12.6 build --------------------------------------
    # https://github.com/Kaouthia/ComfyUI-Docker/pull/11 ("torch torchvision torchaudio are installed prior to the pip
    # install requirements in order to apply a specific URL pointing to CUDA 12.6 for 10 series GPU")
    ("/home/appuser/.local/lib/python3.12/site-packages/torch/cuda/__init__.py:283: UserWarning: \n"
     "    Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.\n"
     "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (7.0) - (12.0)\n"
     "NVIDIA GeForce GTX 1080 Ti with CUDA capability sm_61 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.",
     ARCH, "whl/cu126"),
    # https://github.com/Comfy-Org/ComfyUI/issues/10468 (GTX 1070, Windows: "Torch 2.7.1 dropped support for Maxwell
    # and Pascal ... --index-url https://download.pytorch.org/whl/cu126"; the latest torch with cu126 worked)
    ("!!! Exception during processing !!! CUDA error: no kernel image is available for execution on the device\n"
     "    Found GPU0 NVIDIA GeForce GTX 1070 which is of cuda capability 6.1.\n"
     "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (7.0) - (12.0)",
     ARCH, "whl/cu126"),
    # https://github.com/mmartial/ComfyUI-Nvidia-Docker/issues/61 (a 1080 Ti in the ComfyUI container: the
    # container's torch, cu126)
    ("I've installed on unRaid on a machine that has a 1080Ti.\n"
     "/comfy/mnt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:283: UserWarning: \n"
     "    Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.\n"
     "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (7.0) - (12.0)\n"
     "    Please install PyTorch with a following CUDA\n    configurations:  12.6 following instructions at",
     ARCH, "whl/cu126"),
    # --- runtime.no_kernel_image: a Maxwell/Pascal GPU under a torch that starts at sm_70: its CUDA 12.6 build -------
    # https://github.com/Comfy-Org/ComfyUI/issues/7677 (GTX 1080; "0.4.61 works with 1070s and 1080 cards": the
    # older desktop build, whose torch is a CUDA 12.6 one)
    ("I use a 1080 GTX and been using comfy since august with no real issue like this\n"
     "!!! Exception during processing !!! CUDA error: no kernel image is available for execution on the device\n"
     "  File \"C:\\ComfyUI\\comfy\\model_management.py\", line 1093\n    torch.cuda.synchronize()",
     NOKERNEL, "whl/cu126"),
    # https://github.com/Comfy-Org/ComfyUI/issues/10468 (GTX 1070, Windows 11: "the latest torch (2.9.0) with cu 126")
    ("CUDA error: no kernel image is available for execution on the device\n"
     "Device: cuda:0 NVIDIA GeForce GTX 1070 : cudaMallocAsync\npytorch version: 2.9.0+cu128",
     NOKERNEL, "whl/cu126"),
    # a build the log shows for CUDA 12.6 already is not this case: the general answer
    # (https://github.com/ollama/ollama/issues/12316 keeps Ollama's own release first: GTX 1080, "fixed in 0.12.0")
    ("GPU: GTX 1080 (Pascal, Compute Capability 6.1)\nVersion: 0.1.11\nggml_cuda_compute_forward: SCALE failed\n"
     "CUDA error: no kernel image is available for execution on the device\n  current device: 0, in function "
     "ggml_cuda_compute_forward at C:\\a\\ollama\\ollama\\ml\\backend\\ggml\\ggml\\src\\ggml-cuda\\ggml-cuda.cu:2568",
     NOKERNEL, "Update Ollama"),
    # --- python.torch_cuda_unavailable: the driver older than the CUDA torch was built for --------------------------
    # https://github.com/pytorch/pytorch/issues/37320 (collect_env of torch 1.5: "Is CUDA available: No", torch for
    # CUDA 10.2 on driver 410.104, which runs CUDA 10.0 at most)
    ("PyTorch version 1.5.0\nIs debug build: No\nCUDA used to build PyTorch: 10.2\n\nOs: Ubuntu 18.04.3 LTS\n"
     "Python version: 3.6\nIs CUDA available: No\nCUDA runtime version: 10.0.130\nGPU models and configuration:\n"
     "GPU 0： Tesla P100-PCIE-16GB\n\nNvidia driver version: 410.104", UNAVAIL, "Upgrade the NVIDIA driver to 440.33"),
    # https://github.com/pytorch/pytorch/issues/30071 (torch 1.3 for CUDA 10.1, driver 410.48: "torch 1.2 ... can
    # detect my gpu, however, torch 1.3 fails"; the older torch built for the driver's CUDA is the other way out)
    ("PyTorch version: 1.3.1\nIs debug build: No\nCUDA used to build PyTorch: 10.1.243\n\nPython version: 3.6\n"
     "Is CUDA available: No\nCUDA runtime version: 10.0.130\nGPU 0: TITAN Xp\n\nNvidia driver version: 410.48",
     UNAVAIL, "an older torch release built for CUDA 10.0"),
    # https://github.com/pytorch/pytorch/issues/28321 (conda pytorch 1.3.0 with cudatoolkit 10.1 on driver 410.104)
    ("PyTorch version: 1.3.0\nIs debug build: No\nCUDA used to build PyTorch: 10.1.243\n\nIs CUDA available: No\n"
     "GPU models and configuration: GPU 0: Tesla T4\nNvidia driver version: 410.104\n"
     "[conda] pytorch                   1.3.0           py3.7_cuda10.1.243_cudnn7.6.3_0    pytorch",
     UNAVAIL, "Upgrade the NVIDIA driver"),
    # --- torch.cpu_build: a Mac (the device, not the install) --------------------------------------------------------
    # https://github.com/nlpyang/PreSumm/issues/159 ("on mac, you can use `device = \"mps\"` instead of `device=\"cuda\"`")
    ("(OSX) Torch not compiled with CUDA enabled\nReceiving assertion error below.\n"
     "`AssertionError: Torch not compiled with CUDA enabled`", CPU, "mps"),
    # https://github.com/declare-lab/tango/issues/12 ("Did the following: tango = Tango(\"declare-lab/tango\", \"mps\")")
    ("apple m1?\nError message ive got:tango/venv/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 221, "
     "in _lazy_init\n    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
     "AssertionError: Torch not compiled with CUDA enabled", CPU, "mps"),
    # https://github.com/yizhiwang96/deepvecfont-v2/issues/9 (MacBook Pro M1 Pro: "replace all the CUDA calls")
    ("Torch not compiled with CUDA enabled on MacBook Pro M1 Pro\n"
     "`anaconda3/envs/dvf_v2_10/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 239, in _lazy_init\n"
     "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
     "AssertionError: Torch not compiled with CUDA enabled`", CPU, "mps"),
    # https://github.com/karpathy/llama2.c/issues/84 ("only change line 67 to device = \"mps\"", an M1 mac)
    ("Torch not compiled with CUDA enabled\nim running python train.py\nonly change line 67 to device = \"mps\"\n\n"
     "im on a M1 mac", CPU, "mps"),
    # --- no NVIDIA GPU at all: the CPU ---------------------------------------------------------------------------------
    # https://github.com/NVlabs/neuralrgbd/issues/24 ("Since I don't have a GPU I don't need CUDA. So I have a 'cpu
    # only' installation of torch, but still I am getting this error": the code's device)
    ("I recieve this error when running `sh run_demo.sh `: \n\nAssertionError: Torch not compiled with CUDA enabled\n\n"
     "I've tried reinstalling torch in the conda environment as well as on my base installation. Since I don't have a "
     "GPU I don't need CUDA.", CPU, "run the program on the CPU"),
    # --- a CUDA machine: the CUDA build, into the Python that runs ---------------------------------------------------
    # https://github.com/Comfy-Org/ComfyUI/issues/4759 (portable ComfyUI after an update: "You need to reinstall torch")
    ("after update, and get this problem\n.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build\n"
     "AssertionError: Torch not compiled with CUDA enabled", CPU, "python_embeded\\python.exe -m pip"),
    # https://github.com/pytorch/pytorch/issues/30664 ("pip uninstall torch / pip cache purge / pip install torch -f ...")
    ("AssertionError: Torch not compiled with CUDA enabled\n"
     "pip3 install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu118",
     CPU, "pip cache purge"),
    # https://github.com/zhuang2002/Cobra/issues/4 ("install torch with cuda ... then edited requirements.txt and
    # removed torch, torch vision and torch audio from it")
    ("AssertionError: Torch not compiled with CUDA enabled", CPU, "requirements.txt"),
    # --- runtime.unsupported_ptx: the driver older than the CUDA that made the PTX: the driver first ----------------
    # https://github.com/BachiLi/diffvg/issues/84 (built here, torch 1.8.1: "resolved by upgrading nvidia driver")
    ("after installation, I ran:\n`python app/single_cirle.py`\nand encountered:\n\nCUDA Runtime Error: the provided "
     "PTX was compiled with an unsupported toolchain. at diffvg/scene.cpp:35\n\nMy torch version is 1.8.1.",
     PTX, "upgrade the driver"),
    # https://github.com/NVIDIA/gvdb-voxels/issues/120 (Windows, nvcc 11.3: the driver had gone back below 465.89)
    ("GVDB CUDA ERROR:\n  Launch status: the provided PTX was compiled with an unsupported toolchain.\n"
     "  Kernel status: no error\n  Caller: VolumeGVDB::LoadFunction\n  Call:   cuModuleLoad\n"
     "  Args:   cuda_gvdb_module.ptx\nCuda compilation tools, release 11.3, V11.3.109", PTX, "upgrade the driver"),
    # https://github.com/chelsea0x3b/llama-dfdx/issues/6 (Rust, cudarc: "You need to update to cuda driver 530")
    ("thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Driver(DriverError("
     "CUDA_ERROR_UNSUPPORTED_PTX_VERSION, \"the provided PTX was compiled with an unsupported toolchain.\"))'",
     PTX, "upgrade the driver"),
    # https://github.com/NVIDIA/CUDALibrarySamples/issues/47 (built in the HPC SDK 21.9 container: the host's driver)
    ("I compile the samples in the HPC SDK 21.9 container. Make smoothly, but run with Errors.\n ./contraction\n"
     "Total memory: 0.45 GiB\nError: the provided PTX was compiled with an unsupported toolchain.",
     PTX, "inside a container, the host's driver"),
    # https://github.com/mit-han-lab/inter-operator-scheduler/issues/4 ("try with a consistent driver and cuda toolkit")
    ("On CUDA 11.1, python sample.py gives following error:\nCuda failure: 222 the provided PTX was compiled with an "
     "unsupported toolchain.\n/home/ubuntu/ios/src/ios/ios_runtime.cu:1332\nAborting...", PTX, "upgrade the driver"),
    # the log's nvidia-smi names the driver's CUDA: the toolkit to rebuild with, beside the driver upgrade
    # (https://github.com/ComputationalRadiationPhysics/cuda_memtest/issues/31 is the corpus's 310; this is its form
    # with the nvidia-smi header the reporter pasted next)
    ("ERROR: CUDA error: the provided PTX was compiled with an unsupported toolchain., line 148, file "
     "/var/tmp/pamac-build-user/cuda_memtest/src/cuda_memtest/cuda_memtest.cu\n"
     "| NVIDIA-SMI 460.80       Driver Version: 460.80       CUDA Version: 11.2     |", PTX, 'cudaenv use 11.2'),
    # --- triton.ptxas_unknown_arch: a toolkit that knows the GPU (its ptxas), or a newer Triton --------------------------
    # https://github.com/triton-inference-server/server/issues/8632 (Jetson Thor, container 25.10-py3, torch from the
    # cu130 index: Triton's ptxas-blackwell (CUDA 12.9) does not know sm_110a; the CUDA 13 ptxas through
    # TRITON_PTXAS_BLACKWELL_PATH, pytorch/pytorch#170117)
    ("torch._inductor.runtime.triton_heuristics.NoTritonConfigsError: No valid triton configs. PTXASError: PTXAS error: "
     "Internal Triton PTX codegen error\n`ptxas` stderr:\n"
     "ptxas-blackwell fatal   : Value 'sm_110a' is not defined for option 'gpu-name'", TRITON,
     "TRITON_PTXAS_BLACKWELL_PATH=/usr/local/cuda/bin/ptxas"),
    # https://github.com/vllm-project/vllm/pull/31338 (the troubleshooting entry vLLM added for this error: Triton
    # at the system CUDA's ptxas)
    ("triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n`ptxas` stderr:\n"
     "ptxas fatal   : Value 'sm_110a' is not defined for option 'gpu-name'", TRITON,
     "TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas"),
    # --- nccl.network: NCCL 2.19+'s socketPollConnect wording (misc/socket.cc) -------------------------------------------
    # https://github.com/sgl-project/sglang/issues/3820 (two nodes; the thread states no resolution: the test holds the
    # entry and its decision line, the firewall or the interface)
    ("node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned 113(No route "
     "to host) errno 115(Operation now in progress)\nnode5:240:240 [6] NCCL INFO misc/socket.cc:570 -> 2\n"
     "node5:240:240 [6] NCCL INFO bootstrap.cc:285 -> 2", "nccl.network", "open the TCP ports between the nodes"),
    # https://github.com/hiyouga/LlamaFactory/issues/8045 (the worker node cannot reach the master; NCCL 2.23+'s
    # INFO retries; open issue)
    ("zgiot:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying (33/34) after "
     "sleep for 3300 msec\nzgiot:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, "
     "retrying (34/34) after sleep for 3400 msec", "nccl.network", "NCCL_SOCKET_IFNAME"),
    # https://github.com/NVIDIA/nccl/issues/1515 (pods; "Software caused connection abort": the interface and the ports
    # between the pods are what the maintainers asked about first)
    ("socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused connection abort\n"
     "I have check the basic network, it is ok. I could use nc to connect between the two pods and ping-pass.",
     "nccl.network", "NCCL_SOCKET_IFNAME"),
    # --- runtime.no_kernel_image: the torch inside a Docker image, a portable app's own Python --------------------------
    # https://github.com/CoreWorxLab/CAAL/issues/4 (fixed by PR #5: the Kokoro image tag with torch 2.7.1+cu128)
    ("INFO     | model_manager:38 | Initializing Kokoro V1 on cuda\n"
     "RuntimeError: Failed to load Kokoro model: CUDA error: no kernel image is available for execution on the device\n"
     "GPU: NVIDIA GeForce RTX 5080\n\nDriver Version: 570.xx+ (CUDA 12.8)\n\n"
     "Image: ghcr.io/remsky/kokoro-fastapi-gpu:latest\n\nPossible Cause: The base PyTorch installation inside the "
     "container does not include kernels for the Blackwell architecture.", NOKERNEL, "Use an image of the project built"),
    # https://github.com/Comfy-Org/ComfyUI/issues/7380 (RTX 5070; "In case you are using ComfyUI portable, you can open
    # terminal inside python_embeded folder and run ... .\python.exe -m pip install -U --pre torch ... cu128")
    ("GPU RTX 5070 user Unable to resolve this issue\nCUDA error: no kernel image is available for execution on the "
     "device\nIn case you are using ComfyUI portable, you can open terminal inside **python_embeded** folder",
     NOKERNEL, "python.exe -m pip install -U torch"),
    # https://github.com/pytorch/pytorch/issues/180101 (RTX 5080, torch 2.7.0.dev+cu124 nightly: the CUDA 12.8 builds)
    ("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
     "GPU: NVIDIA GeForce RTX 5080\nPython Version: 3.12.9 (64-bit)\nPyTorch Version: 2.7.0.dev20250310+cu124 (Nightly)",
     NOKERNEL, "download.pytorch.org/whl/cu128"),
    # https://github.com/deepbeepmeep/Wan2GP/issues/376 (RTX 5070 Ti with a cu121 nightly: the cu128 build)
    ("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
     "PyTorch: 2.6.0.dev20241112+cu121\nRTX 5070 Ti, CUDA capability sm_120", NOKERNEL, "download.pytorch.org/whl/cu128"),
    # --- a Blackwell GPU where torch is already a CUDA 12.8+ build: the extension, not torch -------------------------
    # https://github.com/warpem/miss-alignment/issues/107 (torch 2.8 + CUDA 12.9 on RTX PRO 5000 Blackwell: fixed by
    # torch-projectors v0.11, "with Blackwell support for cu128 and cu129")
    ("Probably of note is the fact that our system is using the newer RTX PRO 5000 Blackwell cards\n"
     "But I can verify that we're using torch == 2.8.0 and CUDA == 12.9 (consistent with install instructions)\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device",
     NOKERNEL, "install its release built for Blackwell"),
]

test_first_answer = first_answer_tests(CASES)
