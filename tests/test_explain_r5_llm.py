"""`cudaenv explain`, round 5, sampled from LLM training and serving stacks (vLLM, SGLang, TGI,
llama.cpp / llama-cpp-python, ollama, DeepSpeed, flash-attn, bitsandbytes, AutoGPTQ, xformers,
TensorRT-LLM, unsloth).

Each tuple is a short verbatim (trimmed) excerpt of a public thread (URL above it), the entry
explain's FIRST environment answer must be, and a substring of the first line of its fix: the fix
that solved that thread. Threads were taken in the order a search found them; the families
explain missed were widened after finding more threads of the same cause.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # --- ollama's GPU discovery: cuInit answers 999 (nvidia_uvm broken after suspend/resume) -----
    # https://github.com/ollama/ollama/issues/5453
    ('cuInit err: 999\n'
     'time=2024-07-03T13:26:05.135+08:00 level=DEBUG source=gpu.go:517 msg="Unable to load nvcuda" '
     'library=/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01 error="nvcuda init failure: 999"',
     "driver.unknown_error", "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"),
    # https://github.com/ollama/ollama/issues/6647 (after sleep; cudart path of the discovery)
    ('cudaSetDevice err: 999\n'
     'time=2024-09-05T09:20:35.624+08:00 level=DEBUG source=gpu.go:533 msg="Unable to load cudart" '
     'library=/tmp/ollama786265597/runners/cuda_v11/libcudart.so.11.0 error="cudart init failure: 999"',
     "driver.unknown_error", "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"),
    # https://github.com/ollama/ollama/issues/8638 (fixed by reloading nvidia_uvm)
    ('level=WARN source=gpu.go:562 msg="unknown error initializing cuda driver library" '
     'library=/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03 error="cuda driver library init failure: 999"\n'
     'level=INFO source=gpu.go:347 msg="no compatible GPUs were discovered"',
     "driver.unknown_error", "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"),
    # https://github.com/ollama/ollama/issues/1895
    ("2024/01/10 12:36:57 gpu.go:84: CUDA Compute Capability detected: 7.5\n"
     "CUDA error 999: unknown error",
     "driver.unknown_error", "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"),

    # --- nvcc older than 11.6 refuses -arch=native (llama.cpp / whisper.cpp / llamafile) --------
    # https://github.com/mozilla-ai/llamafile/issues/56
    ("building ggml-cuda with nvcc -arch=native...\n"
     "nvcc fatal   : Value 'native' is not defined for option 'gpu-architecture'\n"
     "/usr/bin/nvcc: returned nonzero exit status\n"
     "building ggml-cuda with nvcc -arch=compute_86...\n"
     "nvcc fatal   : Value 'compute_86' is not defined for option 'gpu-architecture'",
     "nvcc.unsupported_arch", "nvcc from CUDA 11.6 or newer"),
    # https://github.com/ggml-org/whisper.cpp/issues/876 (nvcc 11.5 from the distribution)
    ("nvcc fatal   : Value 'native' is not defined for option 'gpu-architecture'\n"
     "make: *** [Makefile:171: ggml-cuda.o] Error 1\n"
     "Cuda compilation tools, release 11.5, V11.5.119",
     "nvcc.unsupported_arch", "nvcc from CUDA 11.6 or newer"),
    # https://github.com/ggml-org/llama.cpp/issues/1803 (maintainer: update the CUDA toolkit)
    ("nvcc fatal   : Value 'native' is not defined for option 'gpu-architecture'",
     "nvcc.unsupported_arch", "nvcc from CUDA 11.6 or newer"),

    # --- a prebuilt wheel for another torch: the C++ ABI differs (cxx11 vs Ss symbols) ----------
    # https://github.com/Dao-AILab/flash-attention/issues/1832 (the right wheel from the finder)
    ("import flash_attn_2_cuda as flash_attn_cuda\n"
     "ImportError: /opt/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
     "torch.cxx11_abi", "prebuilt wheel made for another torch"),
    # https://github.com/sgl-project/sglang/issues/5100 (torch and sgl-kernel versions that go together)
    ("ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: "
     "undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
     "torch.cxx11_abi", "prebuilt wheel made for another torch"),
    # https://github.com/NVIDIA/TensorRT-LLM/issues/4275 (torch 2.7 where 2.6 is required)
    ("    from tensorrt_llm.bindings import DataType, GptJsonConfig\n"
     "ImportError: /home/freeuser/fp8/lib/python3.12/site-packages/tensorrt_llm/bindings.cpython-312-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs",
     "torch.cxx11_abi", "prebuilt wheel made for another torch"),

    # --- NVIDIA apex installed without --cpp_ext/--cuda_ext ------------------------------------
    # https://github.com/NVIDIA/apex/issues/156 (rebuilt with --cpp_ext --cuda_ext)
    ("    fused_layer_norm_cuda = importlib.import_module(\"fused_layer_norm_cuda\")\n"
     "ModuleNotFoundError: No module named 'fused_layer_norm_cuda'",
     "ext.cuda_ops_not_built", "Reinstall apex with its extensions"),
    # https://github.com/NVIDIA/apex/issues/499 (pip install with --cpp_ext and --cuda_ext worked)
    ("  File \"/usr/local/lib/python3.7/site-packages/apex/normalization/fused_layer_norm.py\", line 133, in __init__\n"
     "    fused_layer_norm_cuda = importlib.import_module(\"fused_layer_norm_cuda\")\n"
     "ModuleNotFoundError: No module named 'fused_layer_norm_cuda'",
     "ext.cuda_ops_not_built", "Reinstall apex with its extensions"),
    # https://github.com/NVIDIA/apex/issues/578 (pip install -V --no-cache-dir ./, without the options)
    ("ModuleNotFoundError: No module named 'fused_layer_norm_cuda'",
     "ext.cuda_ops_not_built", "Reinstall apex with its extensions"),

    # --- CMake cannot work back from the nvcc it was handed to the toolkit root -----------------
    # https://github.com/abetlen/llama-cpp-python/issues/459 (/usr/bin/nvcc first on PATH, the toolkit in /usr/local/cuda)
    ("  CMake Error at /tmp/pip-build-env-x/overlay/local/lib/python3.10/dist-packages/cmake/data/share/cmake-3.26/"
     "Modules/CMakeDetermineCUDACompiler.cmake:227 (message):\n"
     "    Couldn't find CUDA library root.\n"
     "  Call Stack (most recent call first):\n"
     "    vendor/llama.cpp/CMakeLists.txt:250 (enable_language)",
     "cmake.cuda_compiler_id_failed", "Hand CMake the toolkit's real nvcc"),
    # https://github.com/NVlabs/instant-ngp/issues/104 (CUDA on PATH, CMake 3.22, still not found)
    ("CMake Error at /usr/local/share/cmake-3.22/Modules/CMakeDetermineCUDACompiler.cmake:179 (message):\n"
     "  Couldn't find CUDA library root.\n"
     "Call Stack (most recent call first):\n"
     "  CMakeLists.txt:11 (project)",
     "cmake.cuda_compiler_id_failed", "Hand CMake the toolkit's real nvcc"),
    # https://github.com/negativo17/cuda/issues/36 (a distribution's CUDA packages, CMake 3.30+ wording)
    ("CMake Error at /usr/share/cmake/Modules/Internal/CMakeCUDAFindToolkit.cmake:148 (message):\n"
     "  Couldn't find CUDA library root.\n"
     "Call Stack (most recent call first):\n"
     "  /usr/share/cmake/Modules/CMakeDetermineCUDACompiler.cmake:85 (cmake_cuda_find_toolkit)",
     "cmake.cuda_compiler_id_failed", "Hand CMake the toolkit's real nvcc"),

    # --- sampled threads explain already answered right (kept so they stay right) ---------------
    # https://github.com/Dao-AILab/flash-attention/issues/723 (reinstall flash-attn for this torch)
    ("ImportError: /usr/local/lib/python3.8/dist-packages/flash_attn_2_cuda.cpython-38-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c104cuda9SetDeviceEi",
     "torch.extension_abi", "build made for your torch version"),
    # https://github.com/deepspeedai/DeepSpeed/issues/2772 and CCmahua/ChatTTS-Enhanced#3
    ('    raise MissingCUDAException("CUDA_HOME does not exist, unable to compile CUDA op(s)")\n'
     "op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA op(s)",
     "torch.cuda_home_not_set", "cudaenv use"),
    # https://github.com/open-mmlab/PIA/issues/30 (a CPU-only torch; install a CUDA build)
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)\n"
     "    Python  3.10.8 (you have 3.10.8)",
     "xformers.other_torch", "Install a CUDA build of torch"),
    # https://github.com/huggingface/text-generation-inference/issues/1391
    ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.1, please update your driver "
     "to a newer version, or use an earlier cuda container: unknown",
     "container.driver_too_old", "host driver"),
    # https://github.com/abetlen/llama-cpp-python/issues/763
    ("web  | CUDA error 35 at /tmp/pip-install-iu4nd6_y/llama-cpp-python_ea6f/vendor/llama.cpp/ggml-cuda.cu:5522: "
     "CUDA driver version is insufficient for CUDA runtime version",
     "runtime.insufficient_driver", "upgrade the driver"),
]


test_sampled_llm_threads_answered_by_cause = first_answer_tests(CASES)
