"""Issue 18, round 6, layer [loader]: loader and Python-packaging families, collected from public threads
before the patterns were written.

Families: a CUDA library's version node missing from the file loaded under its soname ("version
`libcublas.so.12' not found (required by X)": X built for another CUDA release); numba's libdevice; JAX's
pip cuSPARSE/cuSOLVER shadowed by an older library on LD_LIBRARY_PATH / LD_PRELOAD; TensorFlow's DSO
loader on native Windows ("Could not load dynamic library 'cudart64_110.dll'"); torch's DLLs on Windows
whose imports (the Visual C++ runtime) are missing; XLA/TensorFlow libdevice in a conda environment.

Each tuple is a short excerpt of a real public thread (its URL above it), verbatim but trimmed: the first
environment answer must be ``want_id`` and its fix's first line must hold ``want_fix`` (the fix that solved
that thread's case).
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import assert_first_answer, first_answer_tests

CASES = [
    # --- version node of a CUDA soname missing: the binary was built for another CUDA release ------------
    # https://github.com/cyrusbehr/tensorrt-cpp-api/issues/46 (TensorRT 8.6 for CUDA 12 on CUDA 11.8 with
    # .so.11 linked as .so.12; the TensorRT download for CUDA 11.x solved it)
    ("ldd run_inference_benchmark  | grep found\n"
     "./run_inference_benchmark: /lib/x86_64-linux-gnu/libcublas.so.12: version `libcublas.so.12' not found "
     "(required by /lib/x86_64-linux-gnu/libnvinfer_plugin.so.8)\n"
     "./run_inference_benchmark: /lib/x86_64-linux-gnu/libcublasLt.so.12: version `libcublasLt.so.12' not found "
     "(required by /lib/x86_64-linux-gnu/libnvinfer_plugin.so.8)",
     "loader.soname_version_missing", "TensorRT package built for the CUDA you have"),
    # a public project's notes on a KTransformers wheel built for CUDA 11 in a CUDA 12.4 container (found by
    # exact-string search; building it from source against the container's CUDA solved it)
    ("ImportError: /usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.11.0: version `libcudart.so.11.0' not found "
     "(required by /opt/conda/lib/python3.11/site-packages/cpuinfer_ext.cpython-311-x86_64-linux-gnu.so)",
     "loader.soname_version_missing", "made for the CUDA you have"),
    # a public project's Jetson notes: libcudnn.so.8 was a link to a cuDNN 7 file (found by exact-string search)
    ("ImportError: /usr/local/lib/libcudnn.so.8: version `libcudnn.so.8' not found",
     "loader.soname_version_missing", "made for the CUDA you have"),
    # --- numba: libdevice missing from a conda environment ---------------------------------------------------
    # https://github.com/NVIDIA/numba-cuda/issues/430 (cuda-nvcc-impl brings it; conda-forge's numba-cuda now depends on it)
    ('  File "/opt/conda/envs/test/lib/python3.13/site-packages/numba_cuda/numba/cuda/cudadrv/libs.py", line 44, in open_libdevice\n'
     '    with open(get_libdevice(), "rb") as bcfile:\n'
     "FileNotFoundError: [Errno 2] No such file or directory: '/opt/conda/envs/test/nvvm/libdevice/libdevice.10.bc'",
     "loader.numba_libdevice_missing", "cuda-nvcc-impl"),
    # https://github.com/scikit-hep/awkward/pull/3673 (a micromamba environment with numba and CUDA 13)
    ("FileNotFoundError: [Errno 2] No such file or directory: '/home/ar1092/micromamba/envs/test-env/nvvm/libdevice/libdevice.10.bc'",
     "loader.numba_libdevice_missing", "cuda-nvcc-impl"),
    # numba's own wording, old (CUDA 8's per-architecture files): https://github.com/traveller59/second.pytorch/issues/348
    # (and https://github.com/skyhehe123/SA-SSD/issues/87; both unanswered: the fix is checked against numba's source)
    ("  File \"/home/pengzhao/anaconda3/lib/python3.6/site-packages/numba/cuda/decorators.py\", line 96, in kernel_jit\n"
     "    kernel.bind()\n"
     "RuntimeError: Missing libdevice file for compute_50.\nPlease ensure you have package cudatoolkit 7.5.\n"
     "Install package by:\n\n    conda install cudatoolkit=7.5",
     "loader.numba_libdevice_missing", "Upgrade numba"),
    # --- JAX's pip cuSPARSE behind an older library on LD_LIBRARY_PATH / LD_PRELOAD -------------------------
    # https://github.com/michael-0brien/cryojax/issues/559 (unset LD_PRELOAD and CUDA_HOME, the env's nvidia libs first)
    ("ERROR:2026-01-27 04:47:14,082:jax._src.xla_bridge:475: Jax plugin configuration error: Exception when calling "
     "jax_plugins.xla_cuda12.initialize()\n"
     "RuntimeError: jaxlib/cuda/versions_helpers.cc:81: operation cusparseGetProperty(MAJOR_VERSION, &major) failed: "
     "The cuSPARSE library was not found.",
     "loader.jax_cuda_lib_shadowed", "unset LD_PRELOAD LD_LIBRARY_PATH"),
    # https://github.com/jax-ml/jax/issues/30050 (the HPC SDK's cuda/12.4 lib64 on LD_LIBRARY_PATH gave an older nvJitLink)
    ("  File \"/home/wassim/micromamba/envs/jax/lib/python3.10/site-packages/jax_plugins/xla_cuda12/__init__.py\", line 197, in _version_check\n"
     "    version = get_version()\n"
     "RuntimeError: jaxlib/cuda/versions_helpers.cc:81: operation cusparseGetProperty(MAJOR_VERSION, &major) failed: "
     "The cuSPARSE library was not found.",
     "loader.jax_cuda_lib_shadowed", "unset LD_PRELOAD LD_LIBRARY_PATH"),
    # https://github.com/jax-ml/jax/issues/29843 ("unset LD_LIBRARY_PATH" solved it)
    ("RuntimeError: Unable to load cuSPARSE. Is it installed?", "loader.jax_cuda_lib_shadowed", "unset LD_PRELOAD LD_LIBRARY_PATH"),
    # https://github.com/jax-ml/jax/issues/28929 (the same cause behind JAX's fallback line)
    ("CUDA backend failed to initialize: Unable to load cuSPARSE. Is it installed? (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
     "jax.cuda_backend_failed", "unset LD_PRELOAD LD_LIBRARY_PATH"),
    # --- an older libnvJitLink loaded: Jitify's own check ----------------------------------------------------------
    # https://github.com/NVIDIA/cudf/pull/20873 (a floor on the nvJitLink package fixed it: which copy was loaded
    # is not in the message, so the id only)
    ("RuntimeError: Jitify fatal error: Dynamically loaded libnvJitLink.so.12 is too old; it is version 12.2, need at least version 12.9",
     "runtime.cuda_lib_shadowed", ""),
    # --- torch's own cuDNN 9 wheel, seen from a pip freeze line, for ctranslate2 ---------------------------------
    # https://github.com/OpenNMT/CTranslate2/issues/1826 (the wheel's lib directory on LD_LIBRARY_PATH solved it)
    ("Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}\n"
     "Invalid handle. Cannot load symbol cudnnCreateConvolutionDescriptor\n"
     "ctranslate2==4.5.0\ntorch==2.5.1\nfaster-whisper==1.1.0",
     "runtime.cuda_library_not_found", "Put the wheel's directory on the loader path"),
    # --- GLIBCXX without its quotes (a retyped log) ------------------------------------------------------------------
    # https://github.com/NVIDIA/apex/issues/932 (the system's gcc 4.8 libstdc++ in /lib64; conda's is newer)
    ("amp_C fused kernels unavailable, disabling TestMultiTensorApply.  ImportError was  /lib64/libstdc++.so.6: version "
     "GLIBCXX_3.4.20 not found (required by /home/hongqiay/.conda/envs/tprf2/lib/python3.7/site-packages/amp_C.cpython-37m-x86_64-linux-gnu.so)",
     "cxx.libstdcxx_too_old", "CONDA_PREFIX/lib"),
    # --- sudo drops LD_LIBRARY_PATH ------------------------------------------------------------------------------
    # https://github.com/chainer/chainer/issues/4813 ("sudo removes all the environment variables, so your export
    # LD_LIBRARY_PATH is ignored"; running without sudo solved it)
    ("$ sudo python item.py --gpu 0\nnvrtc: error: failed to open libnvrtc-builtins.so",
     "runtime.cuda_library_not_found", "without sudo"),
    # https://github.com/wang-xinyu/tensorrtx/issues/1028 (the same under `sudo ./yolov5`)
    ("- what is your command? \nsudo ./yolov5 -s yolov5s.wts yolov5s.engine s\n- what's your output?\n"
     "./yolov5: error while loading shared libraries: libcudnn.so.8: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "without sudo"),
    # --- TensorFlow's DSO loader on native Windows ------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/57103 (TF 2.9.1: CUDA 11.2 and cuDNN 8.1 per tensorflow.org)
    ("C:\\Users\\tamir\\PycharmProjects\\pythonProject\\venv\\Scripts\\python.exe C:/Users/tamir/PycharmProjects/pythonProject/module_one.py\n"
     "2022-08-11 14:21:29.345331: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
     "library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n"
     "2022-08-11 14:21:29.345439: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if "
     "you do not have a GPU set up on your machine.",
     "loader.windows_cuda_dll_not_found", "2.5-2.10: CUDA 11.2 and cuDNN 8.1"),
    # https://github.com/tensorflow/tensorflow/issues/38822 (CUDA 10.1's DLLs where the loader looks)
    ("2020-04-22 21:10:43.537143: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
     "library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n"
     "2020-04-22 21:10:46.290302: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
     "library 'cublas64_10.dll'; dlerror: cublas64_10.dll not found",
     "loader.windows_cuda_dll_not_found", "2.1-2.3: CUDA 10.1 and cuDNN 7.6"),
    # https://github.com/tensorflow/tensorflow/issues/48868 (CUDA 11.2's bin added with os.add_dll_directory solved it)
    ("\"Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\"",
     "loader.windows_cuda_dll_not_found", "os.add_dll_directory"),
    # --- cuDNN 8's sub-library DLLs on Windows: the whole archive, and zlibwapi.dll ---------------------------
    # https://github.com/Softcatala/whisper-ctranslate2/issues/41 (the DLL's directory was on PATH; installing zlib solved it)
    ("Could not load library cudnn_cnn_infer64_8.dll. Error code 126\n"
     "Please make sure cudnn_cnn_infer64_8.dll is in your library path!",
     "loader.windows_cuda_dll_not_found", "zlibwapi.dll"),
    # https://github.com/ILikeAI/AlwaysReddy/issues/40 (only the one DLL was copied; the entire cuDNN archive solved it)
    ("Could not locate cudnn_cnn_infer64_8.dll. Please make sure it is in your library path!",
     "loader.windows_cuda_dll_not_found", "complete cuDNN archive"),
    # --- torch's DLLs on Windows: a DLL they import (the Visual C++ runtime) is missing ------------------------
    # https://github.com/Acly/krita-ai-diffusion/issues/1017 (the latest VC redistributable fixed it)
    ('Error during server startup: OSError: [WinError 126] The specified module could not be found. Error loading '
     '"C:\\Users\\Beep\\AppData\\Roaming\\krita\\ai_diffusion\\server\\python\\lib\\site-packages\\torch\\lib\\c10.dll" '
     'or one of its dependencies. [1]',
     "loader.torch_windows_dll_dependency", "vc_redist.x64.exe"),
    # https://github.com/santinic/audiblez/issues/127 (torch's own hint names the redistributable)
    ("    Microsoft Visual C++ Redistributable is not installed, this may lead to the DLL load failure.\n"
     '    OSError: [WinError 126] The specified module could not be found. Error loading '
     '"C:\\files\\programs\\runpod\\audiblez\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
     "loader.torch_windows_dll_dependency", "vc_redist.x64.exe"),
    # https://github.com/nagadomi/nunif/issues/701 (WinError 1114: the latest redistributable)
    ('[WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "...\\torch\\lib\\c10.dll" '
     "or one of its dependencies.",
     "loader.torch_windows_dll_dependency", "vc_redist.x64.exe"),
    # --- "DLL load failed" on Windows: a compiled module's DLL imports ------------------------------------------
    # https://github.com/pytorch/pytorch/issues/26800 (a CUDA extension: `import torch` before it solved it)
    ("When I import my module from python, I get this error message:\n"
     "`ImportError: DLL load failed: The specified module could not be found.`",
     "loader.windows_extension_dll_load_failed", "import torch"),
    # https://github.com/uiuc-graphics/psdr-cuda/issues/17 (the CUDA directories on the search path solved it)
    ("I copied the `.pyd` module from the Release folder.\n"
     "`ImportError: DLL load failed: The specified module could not be found.`",
     "loader.windows_extension_dll_load_failed", "os.add_dll_directory"),
    # https://github.com/pytorch/pytorch/issues/7323 (torch itself; pytorch/pytorch#4518: the VC++ runtime)
    ('  File "C:\\Users\\conner\\Anaconda3\\lib\\site-packages\\torch\\__init__.py", line 76, in <module>\n'
     "    from torch._C import *\n"
     "ImportError: DLL load failed: The specified module could not be found.",
     "loader.windows_extension_dll_load_failed", "vc_redist.x64.exe"),
    # --- XLA/TensorFlow libdevice -------------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/58681 (tensorflow.org's conda steps: cuda-nvcc, XLA_FLAGS)
    ("(tf) user@host:~$ python train.py\n"
     "/home/u/miniconda3/envs/tf/lib/python3.9/site-packages/tensorflow/python/framework/ops.py\n"
     "Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice.\n"
     "InternalError: libdevice not found at ./libdevice.10.bc [Op:__some_op]",
     "xla.libdevice_not_found", "cuda-nvcc"),
    # https://github.com/talmolab/sleap/pull/1485 (Windows: "downgrading to tensorflow<2.9" made inference work);
    # the libdevice line is the one talmolab/sleap#919 quotes
    ('    File "C:\\Miniconda3\\envs\\sleap_develop\\lib\\site-packages\\keras\\engine\\base_layer.py", line 1097, in __call__\n'
     "error: Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice\n"
     "2022-08-09 14:54:40.390320: W tensorflow/core/framework/op_kernel.cc:1733] UNKNOWN: JIT compilation failed.",
     "xla.libdevice_not_found", 'tensorflow<2.9'),
]


test_first_answer = first_answer_tests(CASES)


def test_older_nvjitlink_wheel_itself_upgrades_the_wheel():
    """The loaded libnvJitLink is the environment's own pip wheel (pip list shows it, no toolkit path): pip kept an
    older nvidia-nvjitlink than nvidia-cusparse needs (NVIDIA/cuvs#1794, NVIDIA/raft#2948: "undefined symbol:
    _nvJitLinkGetErrorLogSize_12_9"); the message is the loader's, the pip list lines are what such a log shows."""
    text = ("ImportError: /venv/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: "
            "__nvJitLinkGetErrorLogSize_12_9, version libnvJitLink.so.12\n"
            "nvidia-cusparse-cu12      12.5.10.65\nnvidia-nvjitlink-cu12     12.4.127")
    assert_first_answer(text, "runtime.cuda_lib_shadowed", "pip install -U nvidia-nvjitlink-cu12")


NEGATIVES = [
    # a program opening its own data file under a directory named libdevice is not numba's libdevice
    "FileNotFoundError: [Errno 2] No such file or directory: '/data/run1/config.yaml'",
    # glibc's own symbol versions stay the glibc entry's, not this family's
    "ImportError: /lib64/libm.so.6: version `GLIBC_2.27' not found (required by /x/_k2.so)",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_not_claimed_by_the_loader_families(text):
    ids = [m.id for m in explain(text)]
    assert not {"loader.numba_libdevice_missing", "loader.soname_version_missing"} & set(ids), ids
