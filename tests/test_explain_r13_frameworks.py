"""Round 13, frameworks (layers python-framework and jax-tf): the classes of the burned misses of fresh6..fresh12 still
answered wrong or not at all, each answered from the producer's own message and the log's facts: torch's "driver too
old (found version N)" answered with the wheel index of the driver's own CUDA, cpm_kernels' prebuilt kernels on a GPU
they do not cover, onnxruntime's provider lists without CUDA, jaxlib's cuSOLVER handle and the CUDA wheels it pairs
with, numba's empty NVVM architecture list. Excerpts are verbatim (trimmed) from the threads named above them."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- torch: the driver is older than torch's CUDA; the wheel index of the driver's own CUDA first -------------
    # https://github.com/andimarafioti/faster-qwen3-tts/pull/113 (the burned fresh12 g41: the cu124 index solved it)
    (".../torch/cuda/__init__.py:187: UserWarning: CUDA initialization: The NVIDIA driver on your\n"
     "system is too old (found version 12040). ...\n"
     "AssertionError: CUDA not available",
     "runtime.insufficient_driver", "download.pytorch.org/whl/cu124"),
    # https://github.com/shiyu-coder/Kronos/issues/71 (a driver that cannot be updated; Python 3.11: torch for CUDA 11)
    ("/opt/python11Venv/lib/python3.11/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The "
     "NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and "
     "installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
     "https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.\n"
     "没办法更新机器GPU驱动。",
     "runtime.insufficient_driver", "install the torch build this driver runs, `pip install torch torchvision "
     "torchaudio --index-url https://download.pytorch.org/whl/cu118`"),
    # guard: https://github.com/NVIDIA-BioNeMo/nvMolKit/issues/209 (12070, a CUDA 13 torch: torch's CUDA 12 build)
    ('`torch.cuda.is_available()` \u2192 `False`; `torch._C._cuda_init()` raises *"NVIDIA driver too old (found '
     '12070)"*; all nvMolKit calls fail.', "runtime.insufficient_driver", "whl/cu126"),
    # -- cpm_kernels' own prebuilt kernels (sm_61..sm_86, no PTX) --------------------------------------------------
    # https://github.com/OpenBMB/BMInf/issues/29 (the burned fresh12 g35: a P100; maintainer: a GPU with cc >= 6.1)
    ("**Failed to run with P100 GPU which works fine with other pytorch cuda code, GPU info:**\n"
     'GPU Device 0: "Pascal" with compute capability 6.0\n'
     "/opt/conda/lib/python3.8/site-packages/cpm_kernels/library/cuda.py in checkCUStatus(error)\n"
     "    214 def checkCUStatus(error : int) -> None:\n"
     "    215     if error != CUDA_SUCCESS:\n"
     '--> 216         raise RuntimeError("CUDA Error: %s" % cuGetErrorString(error))\n'
     "RuntimeError: CUDA Error: no kernel image is available for execution on the device",
     "runtime.no_kernel_image", "compute capability 6.1 to 8.9"),
    # https://github.com/OpenBMB/cpm_kernels/issues/6 ("torch can use CUDA normally")
    ("module = CUmodule()\n"
     "checkCUStatus(cuda.cuModuleLoadData(ctypes.byref(module), data))\n"
     "get error message\n"
     "      CUDA Error: no kernel image is available for execution on the device\n"
     "My system installed CUDA 11.4 and torch 2.0.1, torch can use CUDA normally.",
     "runtime.no_kernel_image", "compute capability 6.1 to 8.9"),
    # guard: a Pascal GPU under torch itself keeps torch's cu126 answer (https://github.com/Comfy-Org/ComfyUI/issues/10468)
    ("CUDA error: no kernel image is available for execution on the device\n"
     "Device: cuda:0 NVIDIA GeForce GTX 1070 : cudaMallocAsync\npytorch version: 2.9.0+cu128",
     "runtime.no_kernel_image", "whl/cu126"),
    # -- onnxruntime: the provider list has no CUDA provider (the CPU package is the one imported) ---------------
    # https://github.com/TaterTotterson/microWakeWord-Trainer-Nvidia-Docker/issues/1 (the burned fresh12 g65: both
    # packages in the image; uninstall both, install onnxruntime-gpu alone)
    ("\U0001f527 Torch CUDA Available: True\n"
     "  \u2022 Device name: NVIDIA GeForce RTX 4060 Ti\n\n"
     "\U0001f527 ONNX Runtime Providers:\n"
     "  \u2022 ['AzureExecutionProvider', 'CPUExecutionProvider']\n"
     "\u26a0\ufe0f  CUDAExecutionProvider not available \u2014 ONNX will fall back to CPU.",
     "python.onnxruntime_cpu_package", "pip uninstall -y onnxruntime onnxruntime-gpu"),
    # https://github.com/nazdridoy/kokoro-tts/issues/59
    ("import onnxruntime as ort\nprint(\"Available providers:\", ort.get_available_providers())\n"
     "Only the following providers are shown: Available providers: ['AzureExecutionProvider', 'CPUExecutionProvider']",
     "python.onnxruntime_cpu_package", "pip install onnxruntime-gpu"),
    # https://github.com/breezedeus/Pix2Text/issues/65 (Optimum's own check)
    ("ValueError: Asked to use CUDAExecutionProvider as an ONNX Runtime execution provider, but the available "
     "execution providers are ['AzureExecutionProvider', 'CPUExecutionProvider'].",
     "python.onnxruntime_cpu_package", "pip uninstall -y onnxruntime onnxruntime-gpu"),
    # -- jaxlib: cuSOLVER's handle and the CUDA wheels ---------------------------------------------------------------
    # https://github.com/jax-ml/jax/issues/21950 (the burned fresh12 g73: 12.5 wheels on a 12.4 driver;
    # `pip install "jax[cuda12]" "nvidia-cuda-nvcc-cu12<12.5"` solved it)
    ("  File \"/home/s.ono/.conda/envs/jax_cuda12/lib/python3.11/site-packages/jax/_src/numpy/linalg.py\", line 455, in "
     "_slogdet_lu\n    lu, pivot, _ = lax_linalg.lu(a)\n"
     "jax._src.source_info_util.JaxStackTraceBeforeTransformation: RuntimeError: jaxlib/gpu/solver_kernels.cc:45: "
     "operation gpusolverDnCreate(&handle) failed: cuSolver internal error",
     "jax.cusolver_handle_failed", '"nvidia-cuda-nvcc-cu12<12.5"'),
    # https://github.com/jax-ml/jax/issues/29475 (`pip install -U nvidia-cublas-cu12` fully resolved it) in the
    # newer handle-pool wording (jax-ml/jax#30188's line)
    ("jaxlib._jax.XlaRuntimeError: INTERNAL: jaxlib/gpu/solver_handle_pool.cc:37: operation gpusolverDnCreate(&handle) "
     "failed: cuSolver internal error",
     "jax.cusolver_handle_failed", "nvidia-cublas-cu12"),
    # the log's nvidia-smi names the driver's CUDA: the pin is computed
    ("| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |\n"
     "RuntimeError: jaxlib/gpu/solver_kernels.cc:45: operation gpusolverDnCreate(&handle) failed: cuSolver internal error",
     "jax.cusolver_handle_failed", '"nvidia-cuda-nvcc-cu12<12.5"'),
    # -- numba: NVVM offers no architecture ---------------------------------------------------------------------------
    # https://github.com/numba/numba/issues/6226 (the burned fresh10 e73: cudatoolkit=11.0 on a CUDA 10.2 machine)
    ("I accidentally installed `cudatoolkit=11.0` when I only had CUDA 10.2. This resulted in the following error "
     "message when running a kernel.\n"
     "~/miniconda3/envs/techexeter/lib/python3.8/site-packages/numba/cuda/cudadrv/nvvm.py in get_arch_option(major, "
     "minor)\n"
     "--> 345     return 'compute_%d%d' % arch\n"
     "TypeError: not enough arguments for format string",
     "numba.no_supported_cc", "conda install cudatoolkit=10.2"),
    # numba 0.52 and later say it (numba/cuda/cudadrv/nvvm.py find_closest_arch)
    ("  File \"/home/u/.venv/lib/python3.11/site-packages/numba/cuda/cudadrv/nvvm.py\", line 388, in find_closest_arch\n"
     "    raise NvvmSupportError(msg)\n"
     "numba.cuda.cudadrv.error.NvvmSupportError: No supported GPU compute capabilities found. Please check your "
     "cudatoolkit version matches your CUDA version.",
     "numba.no_supported_cc", "cudatoolkit"),
    # -- TensorFlow's and XLA's cudart stub: the CUDA runtime of the build could not be loaded ----------------------
    # https://github.com/jax-ml/jax/issues/11828 (the burned fresh11 f11: a jaxlib built from source against CUDA 11.6,
    # run with another CUDA on PATH)
    ("I have built jaxlib from source with cuda and cudnn included (cuda 11.6.2 and cudnn 8.4.0.27) using a linux "
     "centos7 haswell device on gcc 8.3.0\n"
     "`jax._src.traceback_util.UnfilteredStackTrace: jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CustomCall failed: "
     "jaxlib/cuda/cuda_prng_kernels.cc:32: operation cudaGetLastError() failed: cudaGetErrorString symbol not found.",
     "tf.cudart_stub_not_loaded", 'cudaenv use 11.6'),
    # https://github.com/tensorflow/tensorflow/issues/32381 (TF 2.0 with CUDA 10.1 on Windows: TF 2.0 opens CUDA 10.0's
    # cudart64_100.dll)
    ("  File \"C:\\Users\\fredd\\AppData\\Local\\Packages\\PythonSoftwareFoundation.Python.3.7_qbz5n2kfra8p0\\LocalCache"
     "\\local-packages\\Python37\\site-packages\\tensorflow_core\\python\\client\\device_lib.py\", line 41, in "
     "list_local_devices\n"
     "tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. Status: cudaGetErrorString symbol "
     "not found.",
     "tf.cudart_stub_not_loaded", "cudart64_100.dll"),
    # https://github.com/tensorflow/tensorflow/issues/40603 (tensorflow-gpu 2.0.0 from pip, the message alone)
    ("InternalError: cudaGetDevice() failed. Status: cudaGetErrorString symbol not found.",
     "tf.cudart_stub_not_loaded", "TF 1.13-2.0 CUDA 10.0"),
    # -- GCC 10.3 as nvcc's host compiler crashes on <chrono> (gcc bug 100102) -------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/48890 (the burned fresh12 g12: gcc-9 in ./configure)
    ("/usr/include/c++/10/chrono:428:27: internal compiler error: Segmentation fault\n"
     "  428 |  _S_gcd(intmax_t __m, intmax_t __n) noexcept\n"
     "      |                           ^~~~~~\n"
     "Please submit a full bug report,\n"
     "Target //tensorflow/tools/pip_package:build_pip_package failed to build",
     "host.gcc103_chrono_ice", "gcc-9"),
    # https://github.com/opencv/opencv/issues/20944 (OpenCV 4.5.4, Ubuntu 21.04, gcc 10.3, CUDA 11.3)
    ("[  1%] Building NVCC (Device) object \n"
     "/usr/include/c++/10/chrono:473:154:   required from here\n"
     "/usr/include/c++/10/chrono:428:27: internal compiler error: Segmentation fault\n"
     "  428 |  _S_gcd(intmax_t __m, intmax_t __n) noexcept",
     "host.gcc103_chrono_ice", "-DCMAKE_CUDA_HOST_COMPILER=g++-9"),
    # https://github.com/NVIDIA/nccl-tests/issues/87 (a GCC 10.3.0 built into /gpfs: its own include path)
    ("Compiling  all_reduce.cu                       > ../build/all_reduce.o\n"
     "/gpfs/fs1/SHARE/Utils/GCC/10.3.0/GCC-BASE-7.5.0_GMP-6.2.1_ISL-0.24_MPFR-4.1.0_MPC-1.2.1_CUDA-11.3.1.0_465.19.01/"
     "include/c++/10.3.0/chrono:428:27: internal compiler error: Segmentation fault",
     "host.gcc103_chrono_ice", "gcc 9, 10.2, 10.4 or 11"),
    # -- a Bazel build's own nvcc (XLA, jaxlib, TensorFlow) ----------------------------------------------------------------
    # https://github.com/NVIDIA/JAX-Toolbox/pull/1264 (the burned fresh12 g13: XLA configured with --cuda_compiler clang)
    ("ERROR: /opt/xla/xla/service/gpu/kernels/BUILD:170:19: Compiling xla/service/gpu/kernels/topk_kernel_float.cu.cc "
     "failed: (Exit 1): crosstool_wrapper_driver_is_not_gcc failed: error executing command (from target "
     "//xla/service/gpu/kernels:topk_kernel_gpu_cuda) external/local_config_cuda/crosstool/clang\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_100'\n"
     "Target //xla/tools/multihost_hlo_runner:hlo_runner_main failed to build",
     "nvcc.unsupported_arch", "--cuda_compiler clang"),
    # guard: the same message from a CMake build keeps the toolkit switch
    ("[ 50%] Building CUDA object CMakeFiles/k.dir/k.cu.o\nnvcc fatal   : Unsupported gpu architecture 'compute_100'",
     "nvcc.unsupported_arch", "cudaenv use 12.8"),
    # -- PyG's wheel page names one torch build ------------------------------------------------------------------------
    # https://github.com/rusty1s/pytorch_scatter/issues/211 (the burned fresh9 d11: a torch-1.8.0+cu111 page under a
    # +cu102 torch; the cu102 wheels solved it)
    ("Ok, tried to install it using the command.\n"
     "`pip install torch-scatter -f https://pytorch-geometric.com/whl/torch-1.8.0+cu111.html`\n"
     "but now throws an error \n"
     "`Exception has occurred: OSError\n"
     "libtorch_cuda_cu.so: cannot open shared object file: No such file or directory`",
     "loader.torch_lib_not_loaded", "pip install --force-reinstall --no-cache-dir torch-scatter -f"),
    # guard: without the page, the split-CUDA answer stays (https://github.com/YuliangXiu/ECON/issues/114's line)
    ("OSError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory",
     "loader.torch_lib_not_loaded", "Make the extension's build and the torch it runs with agree"),
    # -- conda: cpuonly pulled in by a package of the request ------------------------------------------------------------
    # https://github.com/meta-pytorch/data/issues/315 (the burned fresh9 d68: torchdata 0.3.0's conda build)
    ("channels:\n  - pytorch\ndependencies:\n  - python=3.8\n  - pip\n  - pytorch\n  - torchvision\n  - torchaudio\n"
     "  - cudatoolkit=11.3\n  - torchdata\n"
     "\u276f conda list | grep pytorch\n"
     "cpuonly                   2.0                           0    pytorch\n"
     "pytorch                   1.11.0              py3.8_cpu_0    pytorch\n"
     "pytorch-mutex             1.0                         cpu    pytorch\n"
     "torchdata                 0.3.0                      py38    pytorch",
     "conda.torch_cpu_build_chosen", "leave it out of the conda solve"),
    # https://github.com/pytorch/text/issues/1539 (a nightly's CPU build string with .dev: the CPU build chosen)
    ("Running `conda install pytorch torchtext cudatoolkit=11.3 -c pytorch-nightly` will try to install "
     "`pytorch==pytorch-nightly/linux-64::pytorch-1.11.0.dev20220126-py3.9_cpu_0`.",
     "conda.torch_cpu_build_chosen", "Ask for a CUDA build explicitly"),
    # guard: cpuonly asked for by the user is no surprise (pytorch/pytorch#69009's environment.yaml)
    ("dependencies:\n  - pytorch::pytorch=1.10.0\n  - pytorch::cpuonly\n"
     "  + cpuonly                        2.0  0                  pytorch/noarch\n"
     "  - cudatoolkit\n"
     "  cudatoolkit        pkgs/main/linux-64::cudatoolkit-10.1.243-h6bb024c_0\n"
     "  pytorch            pytorch/linux-64::pytorch-1.10.0-py3.8_cpu_0",
     "conda.torch_cpu_build_chosen", "Ask for a CUDA build explicitly"),
    # -- CuPy: the package imported is incomplete ---------------------------------------------------------------------
    # https://github.com/cupy/cupy/issues/7907 (the burned fresh9 d61: a corrupted conda environment, recreated)
    ("Was able to import `cupy`, but unable to import `cupy.cuda`\n"
     "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
     "ModuleNotFoundError: No module named 'cupy.cuda'\n"
     ">>> cupy.show_config()\n"
     "AttributeError: module 'cupy' has no attribute 'show_config'",
     "python.cupy_broken_install", "recreate the environment"),
    # https://github.com/cupy/cupy/issues/7021 (maintainer: uninstall all CuPy packages, reinstall the proper one)
    ("AttributeError: module 'cupy' has no attribute 'cuda'",
     "python.cupy_broken_install", "Remove every CuPy package and install one"),
    # -- bitsandbytes: no CUDA library of its own ---------------------------------------------------------------------
    # https://github.com/bitsandbytes-foundation/bitsandbytes/pull/1039 (the burned fresh12 g09: a source build configured
    # without the CUDA backend; `cmake -DCOMPUTE_BACKEND=cuda` and a rebuild)
    ("Failed to import transformers.integrations.bitsandbytes because of the following error (look up to see its "
     "traceback):\n\n        CUDA Setup failed despite GPU being available. Please run the following command to get "
     "more information:\n\n        python -m bitsandbytes",
     "bnb.cudart_not_found", "cmake -DCOMPUTE_BACKEND=cuda"),
    # guard: bitsandbytes' own "libcudart.so not found" keeps its upgrade first and its title
    ("CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...",
     "bnb.cudart_not_found", "Upgrade bitsandbytes"),
    # https://github.com/kscalelabs/ksim-gym/issues/46 (XLA's wording without jaxlib's path, after a JAX upgrade)
    ("jaxlib._jax.XlaRuntimeError: INTERNAL: cuSolver internal error\n"
     "I'm using CUDA 12.1 and Python 3.12 on a cloud server with an RTX 4090 GPU.",
     "jax.cusolver_handle_failed", "nvidia-cublas-cu12"),
]


# near-miss wordings that must not be answered by the causes above
NOT_CLAIMED = [
    # CuPy 10 renamed cupy.core to cupy._core: code written for an older CuPy (cupy/cupy#5761), not a broken install
    "ModuleNotFoundError: No module named 'cupy.core'",
    # a program linked against cudart that the loader cannot resolve is the loader's answer, not the stub's
    # (https://github.com/gty111/PTX-EMU/issues/2)
    "./bin/RAY: symbol lookup error: ./bin/RAY: undefined symbol: cudaGetErrorString, version libcudart.so.11.0",
    # the program's own choice of the CPU provider
    "sess = ort.InferenceSession('model.onnx', providers=['CPUExecutionProvider'])\nRuntimeError: CUDA error: out of memory",
    # Python's own format error elsewhere
    "  File \"report.py\", line 12, in <module>\n    print('%s %s' % name)\nTypeError: not enough arguments for format string",
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("text", NOT_CLAIMED)
def test_not_claimed(text):
    found = [m.id for m in explain(text)]
    assert not {"python.onnxruntime_cpu_package", "numba.no_supported_cc", "tf.cudart_stub_not_loaded",
                 "python.cupy_broken_install"} & set(found), \
        (text[:80], found)
