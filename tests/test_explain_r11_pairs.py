"""Round 11, pairs: an answer decided by a version pair the log shows (or one side of it, with the check for the
other): bfloat16 on a GPU before Ampere as cuBLAS and torch's autocast report it; an NCCL build whose own CUDA
predates the GPU; a CUDA test compile that failed under a toolkit whose gcc limit the distribution's gcc passes.
Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/karpathy/nanoGPT/pull/277 (V100: bfloat16 only when torch.cuda.is_bf16_supported())
    ("Traceback (most recent call last):\n"
     '  File "/home/fedora/workspace/nanoGPT/train.py", line 110, in <module>\n'
     "    ctx = nullcontext() if device_type == 'cpu' else torch.amp.autocast(device_type=device_type, dtype=ptdtype)\n"
     '  File "/usr/local/lib64/python3.10/site-packages/torch/amp/autocast_mode.py", line 234, in __init__\n'
     "    raise RuntimeError('Current CUDA Device does not support bfloat16. Please switch dtype to float16.')\n"
     "RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.",
     "gpu.below_library_minimum", "is_bf16_supported()"),
    # https://github.com/pytorch/pytorch/issues/152077 (an RTX 5090 with torch's cu118 NCCL: a cu128 torch fixed it)
    ("4d1a2ae696c8:50555:50555 [0] NCCL WARN Cuda failure 'named symbol not found'\n"
     "4d1a2ae696c8:50555:50555 [0] NCCL INFO Bootstrap : Using eth0:172.17.0.2<0>\n"
     "4d1a2ae696c8:50555:50555 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n"
     "4d1a2ae696c8:50555:50555 [0] NCCL INFO cudaDriverVersion 12080\n"
     "NCCL version 2.14.3+cuda11.8",
     "nccl.unhandled_cuda_error", "whl/cu128"),
    # https://github.com/davisking/dlib/issues/3008 (apt's CUDA 10.1 under /usr with gcc 9.4: a newer toolkit fixed it)
    ('-- Found CUDA: /usr (found suitable version "10.1", minimum required is "7.5")\n'
     "-- Looking for cuDNN install...\n"
     "-- Found cuDNN: /usr/local/cuda/lib64/libcudnn.so\n"
     "-- Building a CUDA test project to see if your compiler is compatible with CUDA...\n"
     "-- *****************************************************************************************************************\n"
     "-- *** CUDA was found but your compiler failed to compile a simple CUDA program so dlib isn't going to use CUDA. \n"
     "-- *** The output of the failed CUDA test compile is shown below: ",
     "cmake.cuda_compiler_id_failed", "newer toolkit"),
    # https://github.com/jax-ml/jax/issues/26750 (jax and jaxlib 0.4.35 with newer CUDA plugins: jax[cuda12]==0.4.35)
    ("Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n"
     "Traceback (most recent call last):\n"
     '  File "../lib/python3.13/site-packages/jax/_src/xla_bridge.py", line 610, in discover_pjrt_plugins\n'
     "    plugin_module.initialize()\n"
     "    ~~~~~~~~~~~~~~~~~~~~~~~~^^\n"
     '  File "../lib/python3.13/site-packages/jax_plugins/xla_cuda12/__init__.py", line 96, in initialize\n'
     "    xla_client.register_custom_type_id_handler(\n"
     "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
     "jax:    0.4.35\njaxlib: 0.4.35\nnumpy:  2.2.3\npython: 3.13.2",
     "jax.plugin_version_mismatch", 'jax[cuda12]==0.4.35'),
    # https://github.com/kmheckel/spyx/issues/31 (register_custom_call_target(): incompatible function arguments)
    ("Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n"
     "Traceback (most recent call last):\n"
     '  File "/its/home/jk421/virtualenv/spyx/lib/python3.9/site-packages/jax/_src/xla_bridge.py", line 605, in discover_pjrt_plugins\n'
     "    plugin_module.initialize()\n"
     '  File "/its/home/jk421/virtualenv/spyx/lib/python3.9/site-packages/jax_plugins/xla_cuda12/__init__.py", line 83, in initialize\n'
     "    xla_client.register_custom_call_handler(\n"
     '  File "/its/home/jk421/virtualenv/spyx/lib/python3.9/site-packages/jaxlib/xla_client.py", line 658, in register_custom_call_handler\n'
     "    handler(name, fn, xla_platform_name, api_version, traits)\n"
     "TypeError: register_custom_call_target(): incompatible function arguments. The following argument types are supported:",
     "jax.plugin_version_mismatch", 'pip install -U "jax[cuda12]"'),
    # https://github.com/prs-eth/thera/issues/7 (the plugin imports what this jax does not have)
    ("Jax plugin configuration error: Plugin module %s could not be loaded\n"
     "Traceback (most recent call last):\n"
     '  File "/usr/local/lib/python3.11/dist-packages/jax/_src/xla_bridge.py", line 377, in discover_pjrt_plugins\n'
     "    plugin_module = importlib.import_module(plugin_module_name)\n"
     '  File "/usr/local/lib/python3.11/dist-packages/jax_plugins/xla_cuda12/__init__.py", line 21, in <module>\n'
     "    from jax._src.lib import triton\n"
     "ImportError: cannot import name 'triton' from 'jax._src.lib' (/usr/local/lib/python3.11/dist-packages/jax/_src/lib/__init__.py)",
     "jax.plugin_version_mismatch", 'pip install -U "jax[cuda12]"'),
    # https://github.com/ma-gilles/recovar/issues/64 (JAX's own warning: pin the plugin and pjrt to jaxlib's release)
    ("RuntimeWarning: JAX plugin jax_cuda12_plugin version 0.9.2 is installed, \n"
     "but it is not compatible with the installed jaxlib version 0.9.0.1",
     "jax.plugin_version_mismatch", "jax-cuda12-plugin==0.9.0.1"),
    # https://github.com/google-deepmind/mujoco_playground/issues/137 (no LD_LIBRARY_PATH in sight: reinstalling one
    # jax set fixed it)
    ("Traceback (most recent call last):\n"
     '  File "/home/ygr/miniconda3/envs/mujo_rl/lib/python3.11/site-packages/jax/_src/xla_bridge.py", line 442, in discover_pjrt_plugins\n'
     "    plugin_module.initialize()\n"
     '  File "/home/ygr/miniconda3/envs/mujo_rl/lib/python3.11/site-packages/jax_plugins/xla_cuda12/__init__.py", line 230, in initialize\n'
     "    _check_cuda_versions(raise_on_first_error=True)\n"
     "RuntimeError: Unable to load cuSPARSE. Is it installed?",
     "loader.jax_cuda_lib_shadowed", "pip uninstall -y jax jaxlib jax-cuda12-plugin jax-cuda12-pjrt"),
    # https://github.com/torch/cunn/issues/242 (2016: an older CUDA beside 7.5; compute_52 needs CUDA 6.5, and CUDA 13
    # dropped it: with no nvcc version in the log, `nvcc --version` tells the two ends apart)
    ("when install cunn on ubuntu, meet an error \"nvcc fatal   : Unsupported gpu architecture 'compute_52'\"",
     "nvcc.unsupported_arch", "`nvcc --version` tells which end"),
    # https://github.com/jax-ml/jax/issues/11142 (the CPU index instead of the CUDA one; jax[cuda] from
    # jax_cuda_releases.html fixed it)
    ("Looking in links: https://storage.googleapis.com/jax-releases/jax_releases.html\n"
     "Requirement already up-to-date: jax[cuda] in /home/shalev/.local/lib/python3.8/site-packages (0.3.13)\n"
     'ERROR: Could not find a version that satisfies the requirement jaxlib==0.3.10+cuda11.cudnn82; extra == "cuda" '
     "(from jax[cuda]) (from versions: 0.1.32, 0.1.40, 0.1.41, 0.1.42, 0.1.43, 0.1.44, 0.1.46, 0.1.50, 0.1.51, 0.1.52, "
     "0.1.55, 0.1.56, 0.1.57, 0.1.58, 0.1.59, 0.1.60,",
     "jax.cuda_jaxlib_wheel_not_found", 'pip install -U "jax[cuda12]"'),
    # https://github.com/test-time-training/ttt-lm-jax/issues/5 (a Python the pinned release has no wheel for)
    ("ERROR: Ignored the following versions that require a different python version: 1.21.2 Requires-Python "
     ">=3.7,<3.11; 1.21.3 Requires-Python >=3.7,<3.11\n"
     "ERROR: Could not find a version that satisfies the requirement jaxlib==0.4.14+cuda12.cudnn89 (from versions: "
     "0.4.17, 0.4.18, 0.4.19, 0.4.20, 0.4.21, 0.4.22, 0.4.23, 0.4.24, 0.4.25, 0.4.26, 0.4.27, 0.4.28, 0.4.29, 0.4.30, "
     "0.4.31)\nERROR: No matching distribution found for jaxlib==0.4.14+cuda12.cudnn89",
     "jax.cuda_jaxlib_wheel_not_found", "jax[cuda12"),
    # https://github.com/googlecolab/colabtools/issues/5081 (numba on Colab: PTX 8.5 on the T4's 12.4 driver; numba's
    # minor version compatibility through pynvjitlink solved it)
    ("I am using NUMBA on the GPU and as of a couple of days it no longer works in google colab.\n"
     "LinkerError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"
     "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.5; current version is '8.4'",
     "runtime.unsupported_ptx", "pynvjitlink-cu12"),
    # https://github.com/XavierXiao/Dreambooth-Stable-Diffusion/issues/65 (Lightning on Windows: the gloo backend)
    ("Under Windows I get the error message: RuntimeError: Distributed package doesn't have NCCL built in\n"
     "Traceback (most recent call last):\n"
     '  File "main.py", line 830, in <module>\n'
     "    trainer.fit(model, data)\n"
     '  File "C:\\Users\\frank\\anaconda3\\envs\\dreambooth\\lib\\site-packages\\pytorch_lightning\\trainer\\trainer.py", line 740, in fit\n'
     "    self._call_and_handle_interrupt(",
     "nccl.not_built_in", "gloo"),
    # https://github.com/bmaltais/kohya_ss/issues/1347 (torch's own raise line, a Windows venv)
    ("│ ❱ 1013 │   │   │   │   raise RuntimeError(\"Distributed package doesn't have NCCL \" \"built in\")   │\n"
     "RuntimeError: Distributed package doesn't have NCCL built in\n"
     "[05:21:05] ERROR    failed (exitcode: 1) local_rank: 0 (pid: 13852) of binary:                                api.py:672\n"
     "                    C:\\Users\\Oliver\\Documents\\Github\\kohya_ss\\venv\\Scripts\\python.exe",
     "nccl.not_built_in", "gloo"),
    # https://github.com/kennymckormick/pyskl/issues/79 (one GPU on Windows with torch 1.11.0+cu113)
    ("Hello, I am trying to test/train a model and I get the error \"RuntimeError: Distributed package doesn't have "
     "NCCL built in\". I am training on Windows with one GPU using torch1.11.0+cu113.",
     "nccl.not_built_in", "gloo"),
    # https://github.com/vllm-project/vllm/issues/179 (vLLM on native Windows: run it in WSL2)
    ("I got this message when trying out vllm with windows; \n"
     "`No CUDA runtime is found, using CUDA_HOME='C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin'`",
     "torch.no_cuda_runtime", "WSL2"),
    # https://github.com/bmaltais/kohya_ss/issues/449 (the Chinese wording; a larger paging file)
    ('  File "D:\\Anaconda3\\envs\\wssam\\lib\\site-packages\\torch\\__init__.py", line 124, in <module>\n'
     "    raise err\n"
     'OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading "D:\\Anaconda3\\envs\\wssam\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.',
     "windows.paging_file_too_small", "Virtual memory"),
    # https://github.com/cszn/KAIR/issues/127 (DataLoader workers each loading torch: fewer workers)
    ('OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading '
     '"D:\\Anaconda\\envs\\swin-train\\lib\\site-packages\\torch\\lib\\shm.dll" or one of its dependencies.',
     "windows.paging_file_too_small", "paging file"),
    # https://github.com/Dao-AILab/flash-attention/issues/933 (imported from the source checkout: build it there)
    ("Traceback (most recent call last):\n"
     '  File "<stdin>", line 1, in <module>\n'
     '  File "/home/xxx/githubRepo/flash-attention/flash_attn/__init__.py", line 3, in <module>\n'
     "    from flash_attn.flash_attn_interface import (\n"
     '  File "/home/xxx/githubRepo/flash-attention/flash_attn/flash_attn_interface.py", line 10, in <module>\n'
     "    import flash_attn_2_cuda as flash_attn_cuda\n"
     "ModuleNotFoundError: No module named 'flash_attn_2_cuda'",
     "python.compiled_ext_missing", "Build the extension in place"),
    # https://github.com/Dao-AILab/flash-attention/issues/401 (`pip install flash-attn --no-build-isolation`)
    ("import flash_attn_2_cuda as flash_attn_cuda\nModuleNotFoundError: No module named 'flash_attn_2_cuda'",
     "python.compiled_ext_missing", "pip install flash-attn --no-build-isolation"),
    # https://github.com/stanford-futuredata/ColBERT/issues/350 (setuptools 70 -> 69.5.1)
    ('File "/opt/conda/envs/colbert/lib/python3.8/site-packages/torch/utils/cpp_extension.py", line 25, in <module>\n'
     "    from pkg_resources import packaging  # type: ignore[attr-defined]\n"
     "ImportError: cannot import name 'packaging' from 'pkg_resources'",
     "python.setuptools_too_new_for_torch", 'setuptools<70'),
    # https://github.com/flashinfer-ai/flashinfer/pull/319 (a build script: pin setuptools)
    ('   File "/tmp/home/.local/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 28, in <module>\n'
     "      from pkg_resources import packaging  # type: ignore[attr-defined]\n"
     "  ImportError: cannot import name 'packaging' from 'pkg_resources' "
     "(/tmp/home/.local/lib/python3.10/site-packages/pkg_resources/__init__.py)",
     "python.setuptools_too_new_for_torch", 'setuptools<70'),
    # https://github.com/torchpipe/torchpipe/pull/62 (torch 1.13's cpp_extension without setuptools installed)
    ("ModuleNotFoundError: No module named 'pkg_resources'\n\n发生在 `torch/utils/cpp_extension.py:25`。",
     "python.setuptools_too_new_for_torch", "Install setuptools"),
    # https://github.com/turboderp-org/exllamav2/issues/380 (compute_52 from an empty arch list: TORCH_CUDA_ARCH_LIST)
    ("When I tried to run the test_inference.py example, I met this error showing that failed to find all "
     "half-precision CUDA APIs. But my CUDA version is new (12.3) and I am using V100 GPU.\n"
     "error: identifier \"__hfma2\" is undefined",
     "build.arch_below_half_intrinsics", "TORCH_CUDA_ARCH_LIST"),
    # https://github.com/pytorch/ao/issues/2611 (5.0 in a distribution's TORCH_CUDA_ARCH_LIST)
    (" │ │   $SRC_DIR/torchao/csrc/cuda/marlin_qqq/marlin_qqq_kernel.cu(152): error: identifier \"__hfma2\" is undefined\n"
     " │ │       *reinterpret_cast<half2*>(&t1) = __hfma2(\n"
     "1 error detected in the compilation of \"$SRC_DIR/torchao/csrc/cuda/marlin_qqq/marlin_qqq_kernel.cu\".",
     "build.arch_below_half_intrinsics", "TORCH_CUDA_ARCH_LIST"),
    # https://github.com/hacksider/Deep-Live-Cam/issues/412 (onnxruntime built against NumPy 1.x under NumPy 2.1.0)
    ("A module that was compiled using NumPy 1.x cannot be run in\n"
     "NumPy 2.1.0 as it may crash. To support both 1.x and 2.x\n"
     "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
     '  File "C:\\Python310\\lib\\site-packages\\onnxruntime\\capi\\_pybind_state.py", line 33, in <module>\n'
     "    from .onnxruntime_pybind11_state import *  # noqa\n"
     "AttributeError: _ARRAY_API not found\n"
     "ImportError: numpy.core.multiarray failed to import",
     "python.numpy_abi_mismatch", 'numpy<2'),
    # https://github.com/pytorch/pytorch/issues/135013 (torch 2.4.0 beside NumPy 2.1.0)
    ("A module that was compiled using NumPy 1.x cannot be run in\n"
     "NumPy 2.1.0 as it may crash. To support both 1.x and 2.x\n"
     "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
     "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.",
     "python.numpy_abi_mismatch", 'numpy<2'),
    # https://github.com/ToTheBeginning/PuLID/issues/119 (upgrading torch to 2.4.1 got past it)
    ("AttributeError: module 'torch.library' has no attribute 'register_fake'",
     "torch.too_old_for_code", 'torch>=2.4'),
    # https://github.com/QwenLM/Qwen3-VL/issues/795 (transformers' import with an older torch: torch 2.2 or the
    # transformers release that supports this torch)
    ('  File "/root/anaconda3/envs/pytorch_3.9/lib/python3.9/site-packages/transformers-4.49.0.dev0-py3.9.egg/'
     'transformers/utils/generic.py", line 477, in <module>\n'
     "    _torch_pytree.register_pytree_node(\n"
     "AttributeError: module 'torch.utils._pytree' has no attribute 'register_pytree_node'",
     "torch.too_old_for_code", 'torch>=2.2'),
    # https://github.com/ucdavis/macleod-cluster-docs-style thread quoted in the corpus (fresh9 d74): a cluster's login
    # node has no GPU; request a GPU node and run it in the job
    ("$ nvidia-smi\nbash: nvidia-smi: command not found\n\nnvidia-smi gives the above output. How do you check GPU "
     "memory allocation on macleod cluster?",
     "driver.nvidia_smi_not_found", "--gres=gpu:1"),
    # Slurm's refusal of a request no node can meet
    ("srun: error: Unable to allocate resources: Requested node configuration is not available",
     "slurm.gpu_request_rejected", "sinfo -p"),
    # https://github.com/AidenDurrant/abdn-hpc/issues/1 (a cluster's login node has no GPU: request a GPU node and run it
    # in the job)
    ("$ nvidia-smi\nbash: nvidia-smi: command not found\n\nnvidia-smi gives the above output. How do you check GPU "
     "memory allocation on macleod cluster?",
     "driver.nvidia_smi_not_found", "--gres=gpu:1"),
    # Slurm's refusal of a request no node can meet
    ("srun: error: Unable to allocate resources: Requested node configuration is not available",
     "slurm.gpu_request_rejected", "sinfo -p"),
    # https://github.com/pytorch/pytorch/issues/107300 ("It definately is the environ var": CUDA_VISIBLE_DEVICES)
    ('RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "/opt/conda/conda-bld/pytorch_1682343997789/'
     'work/aten/src/ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch.',
     "runtime.no_device", "CUDA_VISIBLE_DEVICES"),
    # NGC images print CUDA's status in their start-up self-check, capitalised ("[[ System not yet initialized (error 802) ]]")
    ("ERROR: The NVIDIA Driver is present, but CUDA failed to initialize.  GPU functionality will not be available.\n"
     "   [[ System not yet initialized (error 802) ]]",
     "driver.fabric_manager", "fabricmanager"),
    ("ERROR: The NVIDIA Driver is present, but CUDA failed to initialize.  GPU functionality will not be available.\n"
     "   [[ Forward compatibility was attempted on non supported HW (error 804) ]]",
     "runtime.forward_compat_unsupported", "compat"),
    # https://github.com/unslothai/unsloth/issues/434 (an RTX 2060 and bf16 kernels compiled at run time: float16)
    ("ptxas /tmp/compile-ptx-src-d2fe88, line 128; error   : Feature 'cvt with .f32.bf16' requires .target sm_80 or higher\n"
     "ptxas /tmp/compile-ptx-src-d2fe88, line 130; error   : Feature '.bf16' requires .target sm_80 or higher",
     "gpu.feature_needs_newer_arch", "float16"),
    # https://github.com/NVIDIA/FasterTransformer/issues/250 (-DSM=61 while the kernels need sm_70)
    ("Building CUDA object src/fastertransformer/kernels/CMakeFiles/custom_ar_kernels.dir/custom_ar_kernels.cu.o\n"
     "ptxas /tmp/tmpxft_000039cf_00000000-6_custom_ar_kernels.ptx, line 603; error   : Feature '.release' requires "
     ".target sm_70 or higher",
     "gpu.feature_needs_newer_arch", "CMAKE_CUDA_ARCHITECTURES"),
    # https://github.com/pytorch/pytorch/issues/136361 (Windows has no official Triton)
    ("RuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old. "
     "More information on installing Triton can be found at https://github.com/openai/triton\n\n"
     "Set TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 for more information",
     "triton.not_installed", "python -m pip show triton"),
    # https://github.com/woct0rdho/triton-windows/issues/34 (a ComfyUI portable install: the embedded Python's pip)
    ("D:\\ComfyUI_windows_portable_nvidia\\python_embeded>pip install triton-3.1.0-cp311-cp311-win_amd64.whl\n"
     "backend='inductor' raised:\nRuntimeError: Cannot find a working triton installation. Either the package is not "
     "installed or it is too old.",
     "triton.not_installed", "triton-windows"),
    # https://github.com/coreweave/ml-containers/issues/64 (pip bumped triton to 2.3.0 under torch: pin 2.2.0)
    ("[rank7]:     from triton.compiler.compiler import triton_key\n"
     "[rank7]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
     "[rank7]: ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' "
     "(/usr/local/lib/python3.10/dist-packages/triton/compiler/compiler.py)",
     "triton.other_release", 'triton=='),
    # https://github.com/Comfy-Org/ComfyUI/issues/10470 (a portable ComfyUI on Windows; woct0rdho/triton-windows#158 found
    # the cause: triton-windows 3.5 with torch 2.8, and going back to 3.4 fixed it)
    ('  File "E:\\AIProjects\\ComfyUI\\python_embeded\\Lib\\site-packages\\torch\\_inductor\\codecache.py", line 205, in get_system\n'
     "    from triton.compiler.compiler import triton_key\n"
     "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
     "ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' "
     "(E:\\AIProjects\\ComfyUI\\python_embeded\\Lib\\site-packages\\triton\\compiler\\compiler.py)",
     "triton.other_release", 'triton-windows<3.5'),
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/693 (bitsandbytes loaded no CUDA library: upgrade it)
    ("AttributeError: 'NoneType' object has no attribute 'cquantize_blockwise_fp16_nf4'",
     "bnb.cudart_not_found", "pip install -U bitsandbytes"),
    # https://github.com/GeekAlexis/FastMOT/issues/127 (delete the .trt files: the engines are rebuilt on the target)
    ("[TensorRT] ERROR: coreReadArchive.cpp (41) - Serialization Error in verifyHeader: 0 (Version tag does not match. "
     "Note: Current Version: 96, Serialized Engine Version: 97)",
     "tensorrt.engine_other_version", "Build the engine again here"),
    # https://github.com/seanavery/yolov5-tensorrt/issues/7 (an engine from TensorRT 6 under 7: recompile it)
    ("[TensorRT] ERROR: coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Version tag does not match)\n"
     "[TensorRT] ERROR: INVALID_STATE: std::exception\n"
     "[TensorRT] ERROR: INVALID_CONFIG: Deserialize the cuda engine failed.",
     "tensorrt.engine_other_version", "Build the engine again here"),
    # https://github.com/NVIDIA/TensorRT/issues/2105 (the engine generated with another version: reconverted)
    ("[06/29/2022-16:20:45] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: Serialization "
     "(Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. Note: "
     "Current Version: 0, Serialized Engine Version: 43)",
     "tensorrt.engine_other_version", "Build the engine again here"),
    # https://github.com/microsoft/onnxruntime/issues/23736 (onnxruntime and onnxruntime-gpu 1.19.0 both installed)
    ("UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: "
     "'AzureExecutionProvider, CPUExecutionProvider'\nonnxruntime              1.19.0\nonnxruntime-gpu          1.19.0",
     "python.onnxruntime_cpu_package", "pip uninstall -y onnxruntime onnxruntime-gpu"),
    # https://github.com/microsoft/onnxruntime/issues/3326 (the CPU package installed before onnxruntime-gpu)
    ("ValueError: ['CUDAExecutionProvider'] does not contain a subset of available providers ['CPUExecutionProvider']",
     "python.onnxruntime_cpu_package", "pip uninstall -y onnxruntime onnxruntime-gpu"),
    # https://github.com/echonoshy/cgft-llm/issues/9 (llama.cpp's CMake finds no nvcc and builds without CUDA)
    ("-- Using llamafile\n-- Could not find nvcc, please set CUDAToolkit_ROOT.\n"
     "CMake Warning at ggml/src/CMakeLists.txt:400 (message):\n  CUDA not found",
     "cmake.no_cuda_compiler", "cudaenv use"),
    # https://github.com/MVIG-SJTU/AlphAction/issues/13 (torch 1.5+: AT_CHECK -> TORCH_CHECK)
    ("this line of code cuased error:\n\nerror: ‘AT_CHECK’ was not declared in this scope\n\nit should update to TORCH_CHECK",
     "torch.at_check_removed", "TORCH_CHECK"),
    # https://github.com/microsoft/PySiamTracking/issues/4 (torch 2.x: THCudaCheck is gone with THC)
    ('src/roi_align_kernel.cu(283): error: identifier "THCudaCheck" is undefined\n\n'
     'src/roi_align_kernel.cu(325): error: identifier "THCudaCheck" is undefined\n\n'
     '2 errors detected in the compilation of "src/roi_align_kernel.cu".',
     "torch.th_headers_removed", "C10_CUDA_CHECK"),
    # https://github.com/aliyun/conditional-lane-detection/issues/35 (THCDeviceUtils.cuh with torch 1.11: torch 1.10)
    ("<THC/THCDeviceUtils.cuh> not found for PyTorch 1.11 with Cuda 11.4 Compilation error after calling "
     "`python setup.py develop`",
     "torch.th_headers_removed", "ported to the ATen API"),
    # https://github.com/open-mmlab/mmdetection/issues/12312 (mmcv 2.2.0 above mmdet 3.x's range: mmcv==2.1.0 works)
    ('File "/mnt/e/EWorkspace/mmdetection/mmdet/__init__.py", line 17, in <module> and mmcv_version < '
     "digit_version(mmcv_maximum_version)), \\\n"
     "AssertionError: MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.2.0.",
     "python.openmmlab_mmcv_range", 'mim install "mmcv>=2.0.0rc4,<2.2.0"'),
    # https://github.com/open-mmlab/mmcv/issues/2236 (version tuples; `mim install -U mmcv-full` fixed it)
    ("AssertionError: MMCV==1.3.9 is used but incompatible. Please install mmcv>=(1, 3, 13, 0, 0, 0), <(1, 7, 0, 0, 0, 0).",
     "python.openmmlab_mmcv_range", 'mim install "mmcv-full>=1.3.13,<1.7.0"'),
    # https://github.com/nicknochnack/TFODCourse/issues/118 (tensorflow-gpu 2.11 does not exist on Windows: 2.10)
    ("ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==2.11 (from versions: 2.8.0rc1, 2.8.0, "
     "2.8.1, 2.8.2, 2.8.3, 2.8.4, 2.9.0rc0, 2.9.0rc1, 2.9.0rc2, 2.9.0, 2.9.1, 2.9.2, 2.9.3, 2.10.0rc0, 2.10.0rc1, "
     "2.10.0rc2, 2.10.0rc3, 2.10.0, 2.10.1) ERROR: No matching distribution found for tensorflow-gpu==2.11",
     "python.tensorflow_wheel_not_found", 'tensorflow<2.11'),
    # https://github.com/tensorflow/tensorflow/issues/79349 (Python 3.13 before TensorFlow supported it)
    ("C:\\Users\\Enes> pip install tensorflow\nERROR: Could not find a version that satisfies the requirement "
     "tensorflow (from versions: none)\nERROR: No matching distribution found for tensorflow",
     "python.tensorflow_wheel_not_found", "python -VV"),
    # https://github.com/NVIDIA/nvidia-docker/issues/62 (the display manager and docker held nvidia-uvm; or leave the
    # driver out of the CUDA installer)
    ("I'm upgrading my driver and hitting this error during install.\n"
     "An NVIDIA kernel module 'nvidia-uvm' appears to already be loaded in your kernel",
     "driver.installer_module_in_use", "--toolkit"),
    # https://github.com/ApolloAuto/apollo/issues/6308 (the driver's own .run over a loaded driver)
    ("sudo ./NVIDIA-Linux-x86_64-410.72.run --no-opengl-files -a -s\n"
     "ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.  This may be because it "
     "is in use (for example, by an X server, a CUDA program, or the NVIDIA Persistence Daemon),",
     "driver.installer_module_in_use", "rmmod"),
    # https://github.com/pop-os/pop/issues/3811 (the 580 module did not build for kernel 6.17.9: the previous kernel)
    ("ERROR (dkms apport): kernel package linux-headers-6.17.9-76061709-generic is not supported\n"
     "Error! Bad return status for module build on kernel: 6.17.9-76061709-generic (x86_64)\n"
     "Consult /var/lib/dkms/nvidia/580.119.02/build/make.log for more information.\n"
     "dpkg: error processing package nvidia-dkms-580-open (--configure):",
     "driver.module_build_failed", "make.log"),
    # https://github.com/NVIDIA/gpu-operator/issues/8 (nouveau blacklisted and the initramfs updated)
    ("Installing NVIDIA driver kernel modules...\n"
     "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module was "
     "built against the wrong or improperly configured kernel sources",
     "driver.not_loaded", "blacklist"),
    # https://github.com/vt-vl-lab/3d-photo-inpainting/issues/120 (a Mac: no CUDA packages for osx-64)
    ("(3DP) macpro:3d-photo-inpainting-master m$ conda install pytorch==1.4.0 torchvision==0.5.0 cudatoolkit==10.1.243 -c pytorch\n"
     "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
     "  - cudatoolkit==10.1.243\n\nCurrent channels:\n\n  - https://conda.anaconda.org/pytorch/osx-64\n"
     "  - https://conda.anaconda.org/pytorch/noarch",
     "conda.packages_not_found", "Leave the CUDA packages out"),
    # https://github.com/pytorch/pytorch/issues/49330 (a 32-bit conda on Windows)
    ("(base) C:\\Users\\sunam>conda install pytorch torchvision torchaudio cudatoolkit=10.2 -c pytorch\n"
     "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
     "  - cudatoolkit=10.2\n  - pytorch\n  - torchaudio\n\nCurrent channels:\n\n"
     "  - https://conda.anaconda.org/pytorch/win-32\n  - https://conda.anaconda.org/pytorch/noarch",
     "conda.packages_not_found", "64-bit Miniconda"),
    # https://github.com/myshell-ai/OpenVoice/issues/83 (cudatoolkit=11.7 not in -c pytorch -c nvidia: pip instead)
    ("(base) C:\\openvoice>conda install pytorch==1.13.1 torchvision==0.14.1 torchaudio==0.13.1 cudatoolkit=11.7 -c pytorch -c nvidia\n"
     "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
     "  - cudatoolkit=11.7\n\nCurrent channels:\n\n  - https://conda.anaconda.org/pytorch/win-64\n",
     "conda.packages_not_found", "pip install torch"),
    # https://github.com/tensorflow/tensorflow/issues/62328 (nvidia-smi works; TF's stub cannot load its CUDA libraries)
    ("python3 -m pip install 'tensorflow[and-cuda]'\n"
     "2023-08-25 11:11:47.521702: I tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda drivers on your machine, "
     "GPU will not be used.",
     "loader.tf_gpu_libs_not_loaded", "LD_LIBRARY_PATH"),
    # https://github.com/zeyad-mansour/lunar/issues/58 (old DLLs in torch's lib: uninstall torch, install again)
    ('  File "C:\\Users\\Admin\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\torch\\__init__.py", '
     "line 124, in <module>\n    raise err\n"
     'OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\\Users\\Admin\\AppData\\Local\\'
     'Programs\\Python\\Python39\\lib\\site-packages\\torch\\lib\\c10_cuda.dll" or one of its dependencies.',
     "loader.torch_windows_procedure_not_found", "pip uninstall -y torch"),
    # https://github.com/nathanweeks/exonerate/issues/31 (allocate more memory to the job with --mem)
    ("_slurmstepd: error: Detected 12 oom-kill event(s) in StepId=16198179.batch. Some of your processes may have been "
     "killed by the cgroup out-of-memory handler.",
     "slurm.host_oom_killed", "--mem"),
    # https://github.com/ArjunaCluster/ArjunaUsers/issues/52 (a GPU training job killed mid-epoch)
    ('StdErr: "/var/spool/slurmd/job00191/slurm_script: line 28:  8156 Killed                  python3 main.py --prop hform\n'
     'slurmstepd: error: Detected 1 oom-kill event(s) in StepId=191.batch cgroup. Some of your processes may have been '
     'killed by the cgroup out-of-memory handler."',
     "slurm.host_oom_killed", "--mem"),
]

test_first_answer = first_answer_tests(CASES)


def test_a_test_compile_with_both_sides_of_the_pair_decides_it():
    """The host gcc CMake identified (dlib#1439's first lines: GNU 7.3.0 on Ubuntu 18.04) above a toolkit whose limit it
    passes (CUDA 9.0 accepts gcc 6 at most, as dlib#1365 found it): the answer names both, and gcc's limit. The
    lines are from two threads, joined here to test the decision only."""
    log = ("-- The C compiler identification is GNU 7.3.0\n-- The CXX compiler identification is GNU 7.3.0\n"
           '-- Found CUDA: /usr/local/cuda-9.0 (found suitable version "9.0", minimum required is "7.5")\n'
           "-- *** CUDA was found but your compiler failed to compile a simple CUDA program so dlib isn't going to use "
           "CUDA.\n")
    m = explain(log)[0]
    assert m.id == "cmake.cuda_compiler_id_failed"
    assert "gcc 7 is newer than CUDA 9.0 accepts (gcc 6 at most)" in m.title
    assert "Build with a toolkit that accepts gcc 7" in m.fix.splitlines()[0]
    # and a gcc the toolkit accepts is not blamed
    fits = log.replace("GNU 7.3.0", "GNU 6.4.0")
    m = explain(fits)[0]
    assert "newer than" not in m.title and "If `gcc --version`" not in m.fix


def test_an_nccl_built_for_a_cuda_that_knows_the_gpu_is_not_blamed_on_its_cuda():
    """NCCL 2.26.2+cuda12.8 has Blackwell kernels: its 'named symbol not found' keeps the build-arch answer."""
    m = explain("NCCL version 2.26.2+cuda12.8\nx:1:2 [0] NCCL WARN Cuda failure 'named symbol not found'\n")[0]
    assert m.id == "nccl.unhandled_cuda_error" and "built for CUDA" not in m.title


def test_torch_mmcv_and_apex_modules_keep_their_own_answers():
    """The compiled-extension family leaves torch._C (torch's own source directory), mmcv._ext and apex's modules to
    the entries written for them, and never answers twice for one line."""
    assert explain("ModuleNotFoundError: No module named 'torch._C'") == [] or \
        explain("ModuleNotFoundError: No module named 'torch._C'")[0].id != "python.compiled_ext_missing"
    for text, want in (("ModuleNotFoundError: No module named 'mmcv._ext'", "python.ext_without_cuda_ops"),
                       ("ModuleNotFoundError: No module named 'amp_C'", "ext.cuda_ops_not_built")):
        assert [m.id for m in explain(text)] == [want]


def test_a_source_checkout_path_with_shell_syntax_is_never_shown():
    """The traceback's path is someone else's text: with shell syntax in it the answer falls back to the neutral
    wording rather than quoting the path."""
    log = ('Traceback (most recent call last):\n  File "/home/x/$(reboot)/flash-attention/flash_attn/__init__.py", line 3, '
           "in <module>\nModuleNotFoundError: No module named 'flash_attn_2_cuda'\n")
    m = explain(log)[0]
    assert m.id == "python.compiled_ext_missing"
    assert "reboot" not in m.title + m.cause + m.fix
