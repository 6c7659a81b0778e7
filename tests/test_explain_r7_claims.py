"""Issue 18, round 7, slice "claims": an answer claims only what the log shows, and its first fix fits the
producer that printed the message. A cause that states a fact the log does not hold (torch's C++ ABI, an
older toolkit on LD_LIBRARY_PATH) says it as the condition it is; a fix that belongs to torch extensions
(TORCH_CUDA_ARCH_LIST, "rebuild the extension") is never the first line for llama.cpp, Ollama, CTranslate2
or any other prebuilt binary. Real excerpts (quoted, trimmed) from the thread above each.
"""

from __future__ import annotations

import pytest

from explain_answers import first_answer_tests, first_fix_line
from cudaenv.knowledge.explain import explain

# (text, the first answer's id, a string the first line of its fix holds)
CASES = [
    # --- "no kernel image": Ollama's bundled ggml runners: another Ollama release, nothing to rebuild ---------
    # https://github.com/ollama/ollama/issues/12316 (GTX 1080; "This is fixed in the next release. 0.12.0")
    ('time=2025-09-17T11:28:38.832+02:00 level=INFO source=server.go:1289 msg="llama runner started in 43.46 seconds"\n'
     "ggml_cuda_compute_forward: SCALE failed\nCUDA error: no kernel image is available for execution on the device\n"
     "  current device: 0, in function ggml_cuda_compute_forward at C:\\a\\ollama\\ollama\\ml\\backend\\ggml\\ggml\\src\\"
     "ggml-cuda\\ggml-cuda.cu:2568\n  err",
     "runtime.no_kernel_image", "Update Ollama"),
    # https://github.com/ollama/ollama/issues/12341 (Quadro P2000; fixed by ollama/ollama#12300 in a later release)
    ('"`CUDA error: no kernel image is available for execution on the device`" and some more errors appear in journal '
     "and GPU is not used. This happens only with NVIDIA P2000 an ollama v0.11.x. Other graphic cards (newer, more VRAM) "
     "are not affected and the older version v0.10.1 still `works.",
     "runtime.no_kernel_image", "Update Ollama"),

    # --- llama.cpp's ggml CUDA backend (itself or in a wrapper): a build for this GPU's architecture -----------
    # https://github.com/ggml-org/llama.cpp/issues/4215 (GeForce 940MX, compute capability 5.0, built with cmake)
    ("ggml_init_cublas: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce 940MX, compute capability 5.0\n"
     "CUDA error 209 at /home/user/Documents/devops/llama.cpp/ggml-cuda.cu:6701: no kernel image is available for "
     "execution on the device",
     "runtime.no_kernel_image", "CMAKE_CUDA_ARCHITECTURES"),
    # https://github.com/gpustack/llama-box/issues/44 (Tesla M60, 5.2 not in the release's ARCHS)
    ("0.00.026.212 I   Device 0: Tesla M60, compute capability 5.2, VMM: yes\n"
     "system_info: CUDA : ARCHS = 600,610,700,750,800,860,890,900 | F16 = 1 | USE_GRAPHS = 1 | PEER_MAX_BATCH_SIZE = 128\n"
     'I encountered the error "CUDA error: no kernel image is available for execution on the device" when trying to '
     "offload computations to the GPU.",
     "runtime.no_kernel_image", "Get a llama.cpp build with kernels for this GPU"),
    # https://github.com/boneylizard/llama-cpp-python-cu128-gemma3/issues/6 (a prebuilt llama-cpp-python, Windows)
    ("ggml_cuda_compute_forward: RMS_NORM failed\nCUDA error: no kernel image is available for execution on the device\n"
     "  current device: 0, in function ggml_cuda_compute_forward at C:\\Users\\bpfit\\Downloads\\llama_cpp_python-0.3.9\\"
     "llama_cpp_python-0.3.9\\vendor\\llama.cpp\\ggml\\src\\ggml-cuda\\ggml-cuda.cu:2353",
     "runtime.no_kernel_image", "llama-cpp-python"),

    # --- CTranslate2 (faster-whisper, whisperX): its release decides which GPUs have kernels -------------------
    # https://github.com/jianchang512/stt/issues/51 (GeForce 940M: `pip install ctranslate2==3.24.0` solved it)
    ("安装后程序问题：parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on "
     "the device\n尝试好几个版本都出现这个问题，显卡型号是geforce 940m。\nfaster-whisper 1.0.2 requires ctranslate2<5,>=4.0",
     "runtime.no_kernel_image", 'ctranslate2==3.24.0'),
    # https://github.com/SYSTRAN/faster-whisper/issues/806 (GTX 950, Tesla M40)
    ("[ctranslate2] [thread 10436] [warning] The compute type inferred from the saved model is float16, but the target "
     "device or backend do not support efficient float16 computation.\n"
     '  File "C:\\Users\\Administrator\\.conda\\envs\\faster_whisper\\lib\\site-packages\\faster_whisper\\transcribe.py", '
     "line 762, in encode\n    return self.model.encode(features, to_cpu=to_cpu)\n"
     "RuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on "
     "the device",
     "runtime.no_kernel_image", 'ctranslate2==3.24.0'),
    # https://github.com/Purfview/whisper-standalone-win/issues/314 (GTX 980 Ti, a standalone Faster-Whisper-XXL)
    ("Standalone Faster-Whisper-XXL r192.3.4 running on: CUDA\n"
     '  File "faster_whisper\\transcribe.py", line 1109, in encode\n'
     "RuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on "
     "the device\n[45748] Failed to execute script '__main__' due to unhandled exception!",
     "runtime.no_kernel_image", "compute capability 5.x"),

    # --- no producer named: a build of the program that failed, no torch-only first line -----------------------
    # https://github.com/Keryx-Labs/keryx-miner/pull/18 (a release DLL with sm_52/sm_86 only, on an RTX 5070 Ti)
    ("The official v0.3.7 Windows `keryx-llama.dll` contains CUDA images for `sm_52`\nand `sm_86`, with no PTX fallback. "
     "On an RTX 5070 Ti (`sm_120`), OPoI inference\nfails in `egml_cuda_kernel_can_use_pdl` with:\n\n"
     "CUDA error: no kernel image is available for execution on the device",
     "runtime.no_kernel_image", "Get a build of the program that failed"),
    # torch itself is still answered as torch: https://github.com/NVIDIA/nim-deploy/issues/61 (vLLM in torch's frames)
    ('File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/layers/layernorm.py", line 59, in forward\n'
     "out = torch.empty_like(x)\nRuntimeError: CUDA error: no kernel image is available for execution on the device",
     "runtime.no_kernel_image", "compute capability"),

    # --- a CUDA library missing for a native program: a toolkit of its major version, not a pip wheel ---------
    # https://github.com/technobyl/CryptoDredge/issues/85 (a release binary run from the shell)
    ("./CryptoDredge: error while loading shared libraries: libnvrtc.so.11.2: cannot open shared object file: No such "
     "file or directory\n\nAny help?Thanks",
     "runtime.cuda_library_not_found", 'cudaenv use 11'),
    # https://github.com/AlexeyAB/darknet/issues/8601 (darknet built with CMake)
    ("While training and detecting, I am getting following error even after installing cuda toolkit and cudnn again.\n\n"
     "Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open shared object file: No such "
     "file or directory\n\ndo i need specific version of cuda and cudnn? I build it with cmake on ubuntu20.04.",
     "runtime.cuda_library_not_found", 'cudaenv use 11'),
    # ... while a Python program's log (an ImportError) still gets the wheel: https://github.com/siliconflow/onediff/issues/766
    ("ImportError: libcublas.so.11: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "nvidia-cublas-cu11"),

    # --- bitsandbytes: the log shows a CUDA runtime found; its own library for that CUDA is what is missing -----
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/487
    ("/home/amax/.local/share/virtualenvs/py3env-AC0QPwS-/lib/python3.8/site-packages/bitsandbytes-0.39.0-py3.8.egg/"
     "bitsandbytes/libbitsandbytes_cuda118.so\nFalse\nCUDA SETUP: CUDA runtime path found:\n"
     "/usr/local/cuda-11.8/lib64/libcudart.so.11.0\nCUDA SETUP: Highest compute capability among GPUs detected: 8.0\n"
     "CUDA SETUP: Detected CUDA version 118\nCUDA SETUP: Required library version not found: libbitsandbytes_cuda118.so.\n"
     "Maybe you need to compile it from source?\nCUDA SETUP: Defaulting to libbitsandbytes_cpu.so...\n"
     "RuntimeError: CUDA Setup failed despite GPU being available.",
     "bnb.cudart_not_found", "pip uninstall -y bitsandbytes && pip install -U bitsandbytes"),
    # ... and without a runtime found the answer stays "found no CUDA runtime": https://github.com/bitsandbytes-foundation/bitsandbytes/issues/778
    ("CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
     "The following directories listed in your path were found to be non-existent: {PosixPath('/usr/local/cuda/lib64')}\n"
     "DEBUG: Possible options found for libcudart.so: set()\n"
     "CUDA SETUP: PyTorch settings found: CUDA_VERSION=117, Highest Compute Capability: 7.5.",
     "bnb.cudart_not_found", "Upgrade bitsandbytes"),

    # --- two ranks on one GPU: the launcher the log shows decides how each rank picks its GPU -------------------
    # https://github.com/horovod/horovod/issues/3929 (Open MPI's tagged output: Horovod, not torchrun)
    ("[1,0]<stdout>:smc-gpu-03:29878:30419 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on "
     "CUDA device 1000\n[1,0]<stdout>:smc-gpu-03:29878:30419 [0] NCCL INFO init.cc:867 -> 5",
     "nccl.duplicate_gpu", "hvd.local_rank()"),
    # https://github.com/horovod/horovod/issues/3949 (local_rank() returns 0 on every process of a node)
    ("[1,1]<stdout>:chifflot-7:67918:67950 [0] init.cc:748 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on "
     "CUDA device 3b000",
     "nccl.duplicate_gpu", "hvd.local_rank()"),
    # a torch job keeps torchrun's answer: https://github.com/Intellindust-AI-Lab/DEIM/issues/113
    ("Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000",
     "nccl.duplicate_gpu", "torchrun"),

    # --- an older copy of a CUDA library loaded first: the toolkit path only when the log shows one ------------
    # https://github.com/infiniflow/ragflow/issues/4466 (the log lists /usr/local/cuda-12.1/lib64)
    ("ImportError: /usr/local/lib/python3.10/dist-packages/nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: "
     "__nvJitLinkAddData_12_1, version libnvJitLink.so.12\n"
     "libnvJitLink.so.12 => /usr/local/cuda-12.1/lib64/libnvJitLink.so.12",
     "runtime.cuda_lib_shadowed", "Take the older toolkit's lib64 (/usr/local/cuda-12.1/lib64)"),
    # https://github.com/THU-MIG/yolov10/issues/306 (no LD_LIBRARY_PATH in the log: the condition, not a claim)
    ("ImportError: /root/.local/conda/envs/yolov10/lib/python3.9/site-packages/torch/lib/libtorch_cuda.so: undefined "
     "symbol: ncclCommRegister",
     "runtime.cuda_lib_shadowed", "if LD_LIBRARY_PATH names"),
]


CASES_BY_FIX = {fix: text for text, _, fix in CASES}


test_first_answer = first_answer_tests(CASES)


# The producers above that are not torch: their first fix names no torch-only step.
_NOT_TORCH = [c for c in CASES if c[1] == "runtime.no_kernel_image" and "torch" not in c[0]]


@pytest.mark.parametrize("text,want_id,want_fix", _NOT_TORCH)
def test_other_producers_get_no_torch_only_first_fix(text, want_id, want_fix):
    m = next(m for m in explain(text) if m.environment)
    first = first_fix_line(m.fix)
    # torch's setting may be one option among the projects' own (CMake, nvcc), never the step itself
    assert not first.startswith(("Rebuild the extension", "export TORCH_CUDA_ARCH_LIST", "The GPU's compute")), first
    assert "TORCH_CUDA_ARCH_LIST" not in first or "CMAKE_CUDA_ARCHITECTURES" in first, first
    assert "torch.cuda" not in first, first
    assert "torch" not in m.title.lower(), m.title


def test_abi_side_of_torch_is_a_condition():
    # fresh6 a10 (burned): a torchvision built for another torch, not another ABI; the symbol shows only the
    # extension's ABI. https://github.com/pytorch/vision/issues/2759 style message:
    text = ("ImportError: /opt/conda/lib/python3.7/site-packages/torchvision/_C.so: undefined symbol: "
            "_ZN3c105ErrorC1ENS_14SourceLocationERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE")
    m = next(m for m in explain(text) if m.environment)
    assert m.id == "torch.cxx11_abi"
    assert "either that torch was built with _GLIBCXX_USE_CXX11_ABI=0, or it is another torch version" in m.cause
    assert "the torch it loads with _GLIBCXX_USE_CXX11_ABI" not in m.cause
    assert "another torch or another C++ ABI" in m.title


def test_bitsandbytes_that_found_a_runtime_is_not_told_it_found_none():
    m = next(m for m in explain(CASES_BY_FIX["pip uninstall -y bitsandbytes && pip install -U bitsandbytes"]) if m.environment)
    assert "found no CUDA runtime" not in m.title and "found a CUDA runtime" in m.title


def test_shadowed_without_a_path_claims_no_toolkit():
    m = next(m for m in explain("undefined symbol: ncclCommRegister") if m.environment)
    assert m.id == "runtime.cuda_lib_shadowed"
    assert "does not show which copy" in m.cause and "This log shows" not in m.cause
