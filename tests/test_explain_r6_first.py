"""Issue 18, round 6, slice "first": the FIRST fix follows the log. The cause was right on these and the
first fix was not what solved the case; each principle of docs/explain.md "Which fix comes first" is
checked here on real excerpts (quoted, trimmed, from the thread above each) where it decides the first fix.
"""

from __future__ import annotations

import pytest

from explain_answers import first_answer_tests

# (text, the first answer's id, a string the first line of its fix holds)
CASES = [
    # --- A tool's own override before another release of the tool: Triton's TRITON_PTXAS_PATH -----------
    # https://github.com/triton-lang/triton/issues/9181 (fresh5 902: GB10, CUDA 13.0 installed, torch nightly)
    ("ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\nInternal Triton PTX codegen error\n\n"
     "Triton error context:\ntriton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n\n"
     "Environment:\nGPU: NVIDIA GB10 (Blackwell)\nCompute Capability: 12.1\nOS: Linux\nCUDA: 13.0\n"
     "PyTorch: 2.11.0a0+gite33eb77",
     "triton.ptxas_unknown_arch", "export TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas"),
    # https://github.com/triton-lang/triton/issues/8539 (DGX Spark, torch +cu130: "export
    # TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas ... fixed it for me")
    ("riton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n`ptxas` stderr:\n"
     "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n\nRepro command: /home/xxxx/miniforge3/"
     "envs/pt10/lib/python3.10/site-packages/triton/backends/nvidia/bin/ptxas -lineinfo -v --gpu-name=sm_121a "
     "/tmp/tmpkw7ug6t8.ptx -o /tmp/tmpkw7ug6t8.ptx.o\n\npip list|grep -ie triton -e torch\n"
     "pytorch-triton         3.5.0+git7416ffcb\ntorch                  2.10.0.dev20251024+cu130",
     "triton.ptxas_unknown_arch", "export TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas"),
    # Without a CUDA in the log that knows the GPU, a newer Triton stays first:
    # https://github.com/pytorch/pytorch/issues/170117 (Thor: Triton 3.6's ptxas-blackwell is CUDA 12.9; fixed in Triton)
    ("With the Triton Wheel from release/3.6.x, e.g.  pytorch_triton-3.6.0+git8fedd49b-cp312-cp312-linux_aarch64.whl\n"
     "ptxas-blackwell fatal   : Value 'sm_110a' is not defined for option 'gpu-name'",
     "triton.ptxas_unknown_arch", "Install a Triton release"),

    # --- A user-level fix before a root one: numba's NVVM comes from the environment -------------------------
    # https://github.com/uw-ipd/tmol/pull/108 (fresh5 904: "Pin cudatoolkit to version 9.0")
    ("except CudaAPIError as e:\n  | >           raise LinkerError(\"%s\\n%s\" % (e, self.error_log))\n"
     "  | E           numba.cuda.cudadrv.driver.LinkerError: [218] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\n"
     "  | E           ptxas application ptx input, line 9; fatal   : Unsupported .version 6.2; current version is '6.1'\n"
     "  | E           ptxas fatal   : Ptx assembly aborted due to errors",
     "driver.jit_ptx_too_new", 'conda install "cudatoolkit<9.2"'),
    # https://github.com/numba/numba/issues/3794 ("I resolved my problem ... by downgrading to cudatoolkit=9.0")
    ("LinkerError: [218] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\nptxas application ptx input, line 9; "
     "fatal   : Unsupported .version 6.3; current version is '6.1'\nptxas fatal   : Ptx assembly aborted due to errors",
     "driver.jit_ptx_too_new", 'conda install "cudatoolkit<9.2"'),
    # ... but a system toolkit upgraded past the driver: the driver upgrade solved it
    # https://github.com/numba/numba/issues/8961 (driver 525 -> 530)
    ("Cuda scripts were working fine with cuda-toolkit-11.5. After upgrade to cuda-toolkit-12.1, I'm getting this "
     "error:\nnumba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\n"
     "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.1; current version is '8.0'",
     "driver.jit_ptx_too_new", "upgrade the driver"),
    # --- Native Windows: the first fix names no Linux path and no cudaenv command -------------------------
    # https://github.com/Dao-AILab/flash-attention/issues/948
    ("PS C:\\Users\\lin> pip install flash-attn --no-build-isolation\n"
     "      C:\\Users\\lin\\AppData\\Local\\Temp\\pip-install-osxr8hp3\\flash-attn_cb862e77446e473bbca69f712312cd0b\\setup.py:78: "
     "UserWarning: flash_attn was requested, but nvcc was not found.  Are you sure your environment has nvcc available?",
     "torch.cuda_home_not_set", "set CUDA_HOME=%CUDA_PATH%"),
    # https://github.com/triton-lang/triton/issues/5929 (triton-windows ran CUDA v12.6's ptxas.exe on PTX 8.6)
    ("ptxas C:\\Users\\JJ\\AppData\\Local\\Temp\\tmpafhfmeeh.ptx, line 5; fatal   : Unsupported .version 8.6; current "
     "version is '8.5'\nptxas fatal   : Ptx assembly aborted due to errors\nsubprocess.CalledProcessError: Command "
     "'['C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v12.6\\\\bin\\\\ptxas.exe', '-lineinfo', '-v', "
     "'--gpu-name=sm_89']' returned non-zero exit status 4294967295.",
     "nvcc.ptx_too_new", "set TRITON_PTXAS_PATH=%CUDA_PATH%"),
    # https://github.com/woct0rdho/triton-windows/issues/93 (RTX 5090 with an old triton-windows: a newer release)
    ("'sm_120' is not a recognized processor for this target (ignoring processor)\nTraceback (most recent call last):\n"
     "  File \"E:\\ComfyUI_windows_portable_nightly_pytorch\\python_embeded\\Lib\\site-packages\\triton\\backends\\nvidia\\"
     "compiler.py\", line 376, in make_cubin",
     "triton.ptxas_unknown_arch", "pip install -U triton-windows"),
    # https://github.com/C0untFloyd/roop-unleashed/issues/465 (onnxruntime on Windows, CUDA failure 35)
    ("D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:121 onnxruntime::CudaCall CUDA failure 35: "
     "CUDA driver version is insufficient for CUDA runtime version ; GPU=-2011338632 ; hostname=DESKTOP-F9GHF2T",
     "runtime.insufficient_driver", "driver for Windows"),
    # --- Evidence decides: "invalid device ordinal" means the driver counted the GPUs; the index is wrong ----
    # https://github.com/wdrink/PyDeepFakeDet/issues/1 ("specifying the wrong GPU number ... only one GPU")
    ("RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some "
     "other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
     "runtime.no_device", "device index"),
    # https://github.com/LuyaooChen/uninformed-students-pytorch/issues/3 (cuda:1 on a one-GPU machine: use cuda:0)
    ("    return t.to(device, dtype if t.is_floating_point() else None, non_blocking)\n"
     "RuntimeError: CUDA error: invalid device ordinal",
     "runtime.no_device", "cuda:0"),
    # https://github.com/maudzung/RTM3D/issues/11 (solved by CUDA_VISIBLE_DEVICES=5 and gpu_idx 0)
    ("THCudaCheck FAIL file=/pytorch/torch/csrc/cuda/Module.cpp line=59 error=101 : invalid device ordinal\n"
     "Traceback (most recent call last):\n    torch._C._cuda_setDevice(device)\n"
     "RuntimeError: cuda runtime error (101) : invalid device ordinal at /pytorch/torch/csrc/cuda/Module.cpp:59",
     "runtime.no_device", "CUDA_VISIBLE_DEVICES"),
    # https://github.com/wenwenyu/PICK-pytorch/issues/14 (--nproc_per_node=4 with two GPUs visible: 2 solved it)
    ("CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch --nnode=1 --node_rank=0 --nproc_per_node=4 \\\n"
     "--master_addr=127.0.0.1 --master_port=5555 \\\ntrain.py -c config.json --local_world_size 2\n"
     "RuntimeError: cuda runtime error (101) : invalid device ordinal at /pytorch/torch/csrc/cuda/Module.cpp:59",
     "runtime.no_device", "one process per visible GPU"),
    # https://github.com/KimMeen/Time-LLM/issues/10 ("only 1 gpu ... set num_process=1 and dropped --multi_gpu")
    ("RuntimeError: CUDA error: invalid device ordinal\nIn the shell scripts I set **num_process=1** and dropped the "
     "following: **--multi_gpu --mixed_precision bf16**",
     "runtime.no_device", "one process per visible GPU"),
    # --- The version the log names: torch's "found version NNNNN" is the driver's CUDA ---------------------
    # https://github.com/zai-org/ChatGLM3/issues/100 (solved by a newer driver; without root, cu118: an 11.6 driver runs
    # every CUDA 11 build through minor-version compatibility, and that index has wheels for today's Pythons)
    ("RuntimeError: The NVIDIA driver on your system is too old (found version 11060). Please update your GPU driver "
     "by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx "
     "Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version "
     "of the CUDA driver.",
     "runtime.insufficient_driver", "download.pytorch.org/whl/cu118"),
    # https://github.com/IEIT-Yuan/Yuan-2.0/issues/65 (the image's CUDA 12.1: driver 535 solved it)
    ("/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:124: UserWarning: CUDA initialization: The NVIDIA "
     "driver on your system is too old (found version 11000). Please update your GPU driver by downloading and "
     "installing a new version from the URL: http://www.nvidia.com/Download/index.aspx",
     "runtime.insufficient_driver", "upgrade the driver to one for that CUDA"),
    # --- Evidence of a build here: rebuild for the GPU first ----------------------------------------------------
    # https://github.com/open-mmlab/mmcv/issues/2201 (built on an A100, run on a V100: TORCH_CUDA_ARCH_LIST=7.0,8.0)
    ("When I use A100 compile mmcv through the source code, used MMCV_WITH_OPS = 1 python install -e . on Linux, then "
     "I save mmcv to directory. I repeated the above operation under this directory, but use V100, then I encountered "
     "this error.\nException has occurred: RuntimeError\nCUDA error: no kernel image is available for execution on the "
     "device\n  File \"/root/mmcv/mmcv/ops/focal_loss.py\", line 60, in forward",
     "runtime.no_kernel_image", "Rebuild it for this GPU"),
    # --- A CPU torch at run time: the CUDA wheel for the driver, not a toolkit --------------------------------
    # https://github.com/X-PLUG/MobileAgent/issues/60 ("install the GPU build of torch for your CUDA")
    ("当前环境：NVIDIA-SMI 475.14       Driver Version: 475.14       CUDA Version: 11.4\nPython版本：3.10.11\n"
     "AssertionError: Torch not compiled with CUDA enabled",
     "torch.cpu_build", "--index-url https://download.pytorch.org/whl/cu118"),
    # the driver the log's nvidia-smi shows is older than any CUDA build on torch's index: the conda build for it
    # https://github.com/astooke/rlpyt/issues/146 (fresh6 a60, burned: recreating the env with cudatoolkit=10.0 solved it)
    ("> # nvidia-smi\n> NVIDIA-SMI 410.72       Driver Version: 410.72       CUDA Version: 10.0\n\n"
     "but I got \"AssertionError: Torch not compiled with CUDA enabled\" error.\n\nBy the way, here is how my "
     "Anaconda rlpyt env installed:\n\n> conda env create -f linux_cuda10.yml",
     "torch.cpu_build", 'conda install pytorch "cudatoolkit=10.0" -c pytorch'),
    # https://github.com/zhuang2002/Cobra/issues/4 (uninstall torch, install the CUDA build, drop torch from requirements.txt)
    ("AssertionError: Torch not compiled with CUDA enabled\nI solved that by, uninstall torch, torch audio and "
     "torchvision, install torch with cuda",
     "torch.cpu_build", "pip uninstall -y torch torchvision torchaudio"),
    # --- The package that owns the library decides: torch's own nvidia-* wheels are reinstalled with torch -------
    # https://github.com/pytorch/vision/issues/7032 (CI: torch's cuBLAS wheel missing; resolved by the wheels' fix)
    ("OSError: libcublas.so.11: cannot open shared object file: No such file or directory\n\nDuring handling of the "
     "above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"/home/circleci/"
     "project/env/lib/python3.8/site-packages/torch/__init__.py\", line 218, in <module>\n    _load_global_deps()\n"
     "  File \"/home/circleci/project/env/lib/python3.8/site-packages/torch/__init__.py\", line 179, in "
     "_load_global_deps\n    _preload_cuda_deps()",
     "runtime.cuda_library_not_found", "pip install --force-reinstall"),
    # https://github.com/zai-org/ChatGLM3/issues/317 (requirements installed with --no-deps)
    ("pip install -r requirements.txt --no-deps\nValueError: libcublas.so.*[0-9] not found in the system path "
     "['main.py', '', '/home/hfwy/miniconda/envs/chatglm3/bin', '/home/hfwy/miniconda/envs/chatglm3/lib/python310.zip', "
     "'/home/hfwy/miniconda/envs/chatglm3/lib/python3.10/site-packages']",
     "runtime.cuda_library_not_found", "never with `--no-deps`"),
]


test_first_fix_follows_the_log = first_answer_tests(CASES, verdicts=True)


@pytest.mark.parametrize("driver,tag", [("10.0", ""), ("10.2", "cu102"), ("11.0", "cu102"), ("11.4", "cu118"),
                                        ("11.8", "cu118")])
def test_the_torch_index_for_a_driver_is_the_newest_of_its_major_from_cuda_11_1(driver, tag):
    """From CUDA 11.1 on minor-version compatibility runs any build of the driver's major (an old index such as
    cu113 stops at torch 1.12, which has no wheels for Python 3.11); before, only a build at or below it."""
    from cudaenv.knowledge.explain.derive import _torch_tag_for_driver

    assert _torch_tag_for_driver(driver) == tag
    # [r13 frameworks] within CUDA 12 the driver's own minor (or the newest below it) comes first where that index has
    # torch 2.x: a 12.4 driver gets cu124, not cu129 (andimarafioti/faster-qwen3-tts#113 was solved by cu124)
    assert _torch_tag_for_driver("12.2") == "cu121"
    assert _torch_tag_for_driver("12.4") == "cu124"
