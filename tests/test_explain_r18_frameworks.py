"""Round 18, frameworks: the producers' own wordings (tests/data/explain_producers/frameworks.yaml) that the knowledge
base missed, widened as families, and the near-miss wordings that keep their answers.

Each widened family, with the source its wording was read from:

- torch 1.0-1.4's other capability warning ("Found GPU0 <name> which requires CUDA_VERSION >= 10000 to work properly,
  but your PyTorch was compiled with CUDA_VERSION 9000", torch/cuda/__init__.py incorrect_binary_warn):
  torch.arch_unsupported, the architecture taken from the GPU the log names (derive ``torch_arch_named``).
- torch.utils.cpp_extension's ABI_INCOMPATIBILITY_WARNING with a gcc below 5 ("Your compiler (g++ 4.8.5) may be
  ABI-incompatible with PyTorch!"): build.host_compiler_too_old; the same warning for a compiler torch could not
  version ("(c++)") or for a gcc of 5 or newer is not that cause.
- jax/_src/xla_bridge.py's frame around any CUDA plugin error ("Unable to initialize backend 'cuda': ... (you may need
  to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)"): jax.cuda_backend_failed,
  "No visible GPU devices" answered with the GPU's visibility first.
- jax before 0.4.1x: "No GPU/TPU found, falling back to CPU." (jax/_src/lib/xla_bridge.py): jax.cpu_only.
- CuPy 9-14's "CUDA path could not be detected. Set CUDA_PATH environment variable if CuPy fails to load."
  (cupy/_environment.py): cupy.cuda_root_not_found.
- (no change, a guard) numba's LinkerError over the driver's ptxas line stays runtime.unsupported_ptx, whose numba
  variant round 11 tuned; an older numba that names the code UNKNOWN_CUDA_ERROR is driver.jit_ptx_too_new.
- bitsandbytes 0.44+'s own report (bitsandbytes/cextension.py): "CUDA SETUP ERROR: Missing dependency: libX" and
  "CUDA VERSION MISMATCH": bnb.cudart_not_found, each with its own variant.
- TensorFlow 1.5-1.12's Windows self-check ("Could not find 'cudart64_90.dll'. TensorFlow requires that this DLL be
  installed...", tensorflow/python/platform/self_check.py): loader.windows_cuda_dll_not_found; its msvcp140.dll
  check (the MSVC runtime) is not a CUDA DLL.
- Triton 2.0-2.1's "Internal Triton PTX codegen error:" (triton/compiler.py) over ptxas's unknown gpu-name: Triton's
  own ptxas (triton.ptxas_unknown_arch), not the toolkit's nvcc.
- XLA's "ptxas exited with non-zero error code N, output: ptxas fatal : Value 'sm_89' is not defined for option
  'gpu-name'" (openxla/xla ptx_compiler_helpers.cc): ptxas.too_old_for_gpu (XLA's ptxas), not nvcc.unsupported_arch.
- bitsandbytes 0.38-0.42's "The main issue seems to be that the main CUDA library was not detected or CUDA not
  installed" (cuda_setup/main.py): bnb.cudart_not_found, as its libcudart twin.
- Triton's "Failed to find C compiler. Please specify via CC environment variable." (triton/runtime/build.py):
  nvcc.host_compiler_missing with Triton's own variant (triton-windows on Windows).
- PaddlePaddle 2.x's "The installed Paddle is compiled with CUDA 11.7, but CUDA runtime version in your machine is
  11.2" (paddle/phi/backends/gpu/gpu_resources.cc): paddle.cuda_runtime_older, the CUDA twin of
  loader.paddle_cudnn_older."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    ("/usr/local/lib/python3.6/dist-packages/torch/cuda/__init__.py:116: UserWarning:\n"
     "    Found GPU0 GeForce RTX 2080 Ti which requires CUDA_VERSION >= 10000 to\n"
     "     work properly, but your PyTorch was compiled\n"
     "     with CUDA_VERSION 9000. Please install the correct PyTorch binary\n"
     "     using instructions from https://pytorch.org\n",
     "torch.arch_unsupported", "sm_75 needs code from CUDA 10.0 or newer"),
    ("/home/u/venv/lib/python3.8/site-packages/torch/utils/cpp_extension.py:286: UserWarning:\n\n"
     "                               !! WARNING !!\n\n"
     "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
     "Your compiler (g++ 4.8.5) may be ABI-incompatible with PyTorch!\n"
     "Please use a compiler that is ABI-compatible with GCC 5.0 and above.\n",
     "build.host_compiler_too_old", "devtoolset-9"),
    ("RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices. (you may need to "
     "uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)\n",
     "jax.cuda_backend_failed", "CUDA_VISIBLE_DEVICES"),
    ("RuntimeError: Unable to initialize backend 'cuda': Unable to load cuDNN. Is it installed? (you may need to "
     "uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)\n",
     "jax.cuda_backend_failed", "nvidia-cudnn-cu12"),
    ("WARNING:absl:No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n",
     "jax.cpu_only", 'jax[cuda12]'),
    ("/home/u/venv/lib/python3.10/site-packages/cupy/_environment.py:216: UserWarning: CUDA path could not be "
     "detected. Set CUDA_PATH environment variable if CuPy fails to load.\n  warnings.warn(\n",
     "cupy.cuda_root_not_found", "CUDA_PATH"),
    ("numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\n"
     "ptxas application ptx input, line 9; fatal   : Unsupported .version 7.1; current version is '7.0'\n",
     "driver.jit_ptx_too_new", "cudatoolkit<11.1"),
    ("RuntimeError:\n\U0001f6a8 CUDA SETUP ERROR: Missing dependency: libcusparse.so.12 \U0001f6a8\n\n"
     "CUDA 12.x runtime libraries were not found in the LD_LIBRARY_PATH.\n",
     "bnb.cudart_not_found", "libcusparse.so.12"),
    ("RuntimeError:\n\U0001f6a8 CUDA VERSION MISMATCH \U0001f6a8\nRequested CUDA version:          13.0\n"
     "Detected PyTorch CUDA version:   13.0\nAvailable pre-compiled versions: \n  - 11.8\n  - 12.1\n",
     "bnb.cudart_not_found", "pip install -U bitsandbytes"),
    ("ImportError: Could not find 'cudart64_90.dll'. TensorFlow requires that this DLL be installed in a directory "
     "that is named in your %PATH% environment variable. Download and install CUDA 9.0 from this URL: "
     "https://developer.nvidia.com/cuda-90-download-archive\n",
     "loader.windows_cuda_dll_not_found", "CUDA"),
    ("File \"/home/u/venv/lib/python3.10/site-packages/triton/compiler.py\", line 1007, in _compile\n"
     "RuntimeError: Internal Triton PTX codegen error:\n"
     "ptxas fatal   : Value 'sm_90a' is not defined for option 'gpu-name'\n",
     "triton.ptxas_unknown_arch", "TRITON_PTXAS_PATH"),
    ("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas exited with non-zero error code 65280, output: ptxas fatal"
     "   : Value 'sm_89' is not defined for option 'gpu-name'\n",
     "ptxas.too_old_for_gpu", "sm_89"),
    ("W0101 10:00:00.000200 12345 gpu_resources.cc:201] WARNING: device: 0. The installed Paddle is compiled with CUDA "
     "11.7, but CUDA runtime version in your machine is 11.2, which may cause serious incompatible bug. Please "
     "recompile or reinstall Paddle with compatible CUDA version.\n",
     "paddle.cuda_runtime_older", "paddlepaddle-gpu build made for CUDA 11.2"),
    ("CUDA SETUP: Problem: The main issue seems to be that the main CUDA library was not detected or CUDA not "
     "installed.\nCUDA SETUP: Solution 1): Your paths are probably not up-to-date. You can update them via: sudo "
     "ldconfig.\n",
     "bnb.cudart_not_found", "pip install -U bitsandbytes"),
    ("File \"/home/u/venv/lib/python3.10/site-packages/triton/runtime/build.py\", line 32, in _build\n"
     "RuntimeError: Failed to find C compiler. Please specify via CC environment variable.\n",
     "nvcc.host_compiler_missing", "build-essential"),
    ("File \"C:\\Users\\u\\venv\\Lib\\site-packages\\triton\\runtime\\build.py\", line 32, in _build\n"
     "RuntimeError: Failed to find C compiler. Please specify via CC environment variable.\n",
     "nvcc.host_compiler_missing", "triton-windows"),
    # near misses that keep their answers
    ("WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.3, "
     "which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.\n",
     "loader.paddle_cudnn_older", "cuDNN 7.6"),
    ("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.\n",
     "runtime.unsupported_ptx", "upgrade the driver"),
    ("numba.cuda.cudadrv.driver.CudaAPIError: [222] Call to cuModuleLoadDataEx results in "
     "CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n",
     "runtime.unsupported_ptx", "numba"),
    ("nvcc fatal   : Value 'sm_89' is not defined for option 'gpu-architecture'\n",
     "nvcc.unsupported_arch", "sm_89"),
    ("NVIDIA GeForce RTX 3090 with CUDA capability sm_86 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n",
     "torch.arch_unsupported", "sm_86"),
]

test_first_answer = first_answer_tests(CASES)


def _ids(text: str) -> list[str]:
    return [m.id for m in explain(text) if m.environment]


def test_abi_warning_without_an_old_gcc_is_not_an_old_compiler() -> None:
    """torch prints the same warning for a compiler it could not version ("c++") and, in 2.x, for compilers it does
    not know; neither names a gcc below 5."""
    for text in ("Your compiler (c++) may be ABI-incompatible with PyTorch!\n"
                 "Please use a compiler that is ABI-compatible with GCC 5.0 and above.\n",
                 "Your compiler (g++ 9.4.0) may be ABI-incompatible with PyTorch!\n"
                 "Please use a compiler that is ABI-compatible with GCC 5.0 and above.\n"):
        assert "build.host_compiler_too_old" not in _ids(text)


def test_tensorflow_msvc_runtime_check_is_not_a_cuda_dll() -> None:
    """TF 1.x's self-check of msvcp140.dll (the Visual C++ runtime) is not a CUDA library on the DLL search path."""
    text = ("ImportError: Could not find 'msvcp140.dll'. TensorFlow requires that this DLL be installed in a directory "
            "that is named in your %PATH% environment variable. You may install this DLL by downloading Visual C++ "
            "2015 Redistributable Update 3 from this URL: https://www.microsoft.com/en-us/download/details.aspx?id=53587")
    assert "loader.windows_cuda_dll_not_found" not in _ids(text)


def test_other_jax_backends_are_not_cuda() -> None:
    """The same xla_bridge frame around another platform's plugin is not JAX's CUDA plugin."""
    text = ("RuntimeError: Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so (you may need to "
            "uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)")
    assert "jax.cuda_backend_failed" not in _ids(text)


def test_old_torch_capability_warning_without_a_known_gpu_keeps_the_default() -> None:
    """Without a GPU name the tables know, the architecture stays unnamed rather than guessed."""
    text = ("Found GPU0 Mystery Card 9000 which requires CUDA_VERSION >= 10000 to\n     work properly, but your PyTorch "
            "was compiled\n     with CUDA_VERSION 9000. Please install the correct PyTorch binary\n")
    m = [m for m in explain(text) if m.environment][0]
    assert m.id == "torch.arch_unsupported" and "sm_" not in m.title, m.title
