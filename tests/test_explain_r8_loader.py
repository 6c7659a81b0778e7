"""Issue 18, round 8, helper "loader": libraries at load time, sampled the way the held-out sets are sampled
(search results in order, resolved threads only) and judged by the thread's own resolution.

Families widened here: TensorRT's libraries not on the loader path (the tar's lib/ directory is on no path
until a start-up file adds it: the first fix puts that copy on the path, "install" only when none exists);
the conda environment's own CUDA libraries mixed with another copy (a symbol-version error without any
LD_LIBRARY_PATH: keep one set). The other excerpts were answered right before this round and guard against
regressions. Each tuple is a short excerpt of a real public thread (its URL above it), verbatim but trimmed:
the first environment answer must be ``want_id`` and the first line of its fix must hold ``want_fix``.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

LIB = "runtime.cuda_library_not_found"
SHADOW = "runtime.cuda_lib_shadowed"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- TensorRT installed (a tar), its lib/ not on the loader path --------------------------------------------
    # https://github.com/jkjung-avt/tensorrt_demos/issues/517 (fresh7 b05: the .bashrc line kept the guide's angle
    # brackets; the right path, then a new shell, solved it)
    ("im using tensorrt 8.2.1.8 ,cuda 11.5 on ubantu 20.04 system \n\n im getting this issue\n"
     " ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory",
     LIB, "Put TensorRT 8.2.1.8's lib directory on the loader path"),
    # the same thread's reply, pasted with the error: the directory is named
    ("ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory\n"
     "> export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:</home/ubuntu/TensorRT-8.2.1.8/lib>",
     LIB, "export LD_LIBRARY_PATH=/home/ubuntu/TensorRT-8.2.1.8/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # https://github.com/open-mmlab/mmdeploy/issues/2594 ("set LD_LIBRARY_PATH to include ... tensorrt dynamic
    # library" after the tar install solved it)
    ("[Bug] ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory",
     LIB, "Find TensorRT's lib directory and put it on the loader path"),
    # https://github.com/pytorch/TensorRT/issues/588 (resolved by putting TensorRT's libraries on the library path)
    ("import torch\nimport trtorch\n```\ngives\n```\n"
     "ImportError: libnvinfer_plugin.so.8: cannot open shared object file: No such file or directory\n```\n"
     "It seems like _something_ is missing from my library path",
     LIB, "find / -name 'libnvinfer_plugin.so.8'"),
    # https://github.com/onnx/onnx-tensorrt/issues/257 (built against TensorRT; "Add the absolute path to the
    # TensorRT lib directory to the environment variable LD_LIBRARY_PATH")
    ("onnx2trt: error while loading shared libraries: libnvinfer.so.6: cannot open shared object file: No such file "
     "or directory\n\nBuild success, can not call `onnx2trt` on Ubuntu 18.04",
     LIB, "Find TensorRT's lib directory and put it on the loader path"),
    # https://github.com/NVIDIA/TensorRT/issues/2218 (TensorRT's own loader; the file is in the tar's lib/)
    ("6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: "
     "libnvinfer_builder_resource.so.8.4.2)\n**TensorRT Version : TensorRT-8.4.2.4\n"
     "- this file cab be found under /usr/local/TensorRT-8.4.2.4/lib",
     LIB, "export LD_LIBRARY_PATH=/usr/local/TensorRT-8.4.2.4/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # https://github.com/AUTOMATIC1111/stable-diffusion-webui-tensorrt/pull/4 (LD_LIBRARY_PATH set for Linux)
    ("Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 due to libnvinfer_plugin.so.8: "
     "cannot open shared object file: No such file or directory",
     LIB, "Find TensorRT's lib directory and put it on the loader path"),
    # https://github.com/NVIDIA/TensorRT/issues/3061 (what is missing is CUDA 11's cuBLAS: "Your CUDA installation
    # is not complete")
    ("Unable to open library: libnvinfer_plugin.so.8 due to libcublas.so.11: cannot open shared object file: "
     "No such file or directory",
     LIB, "nvidia-cublas-cu11"),

    # --- TensorFlow's optional TensorRT (TF-TRT): a warning, reported after the log's causes ---------------------
    # https://github.com/NVIDIA/tensorflow/issues/75 (TF 2.11 wants TensorRT 7: `pip install nvidia-tensorrt==7.2.3.4`
    # from nvidia-pyindex and its directory on LD_LIBRARY_PATH)
    ("i get the following warning when importing tensorflow\n\n"
     "> Could not load dynamic library 'libnvinfer.so.7'\n> Could not load dynamic library 'libnvinfer_plugin.so.7'",
     "loader.tf_trt_libs_missing", "nvidia-tensorrt==7.2.3.4"),
    # https://github.com/tensorflow/tensorflow/issues/58681 (the TF-TRT warning beside the real cause, libdevice)
    ("2023-01-27 14:05:53.348636: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not "
     "load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such file or "
     "directory; LD_LIBRARY_PATH: :/home/wheatley/miniconda3/envs/tf_2-11_gpu/lib/\n"
     "2023-01-27 14:05:53.348691: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Cannot dlopen "
     "some TensorRT libraries. If you would like to use Nvidia GPU with TensorRT, please make sure the missing libraries "
     "mentioned above are installed properly.\n"
     "2023-01-27 14:06:01.101010: W tensorflow/compiler/xla/service/gpu/nvptx_helper.cc:56] Can't find libdevice directory "
     "${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime failures, if the program we try to run uses "
     "routines from libdevice.",
     "xla.libdevice_not_found", ""),

    # --- JAX prints TensorFlow's DSO-loader line: the producer (jaxlib) decides the fix ---------------------------
    # https://github.com/jax-ml/jax/issues/8289 (CUDA 11.0's lib64 has libcusolver.so.10; jaxlib wanted .so.11)
    (">>> q, r = jnp.linalg.qr(A)\n2021-10-19 12:49:58.203647: W external/org_tensorflow/tensorflow/stream_executor/"
     "platform/default/dso_loader.cc:64] Could not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: "
     "cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /pkgs/cuda-11.0/lib64:"
     "/pkgs/cudnn-11.0-v8.0.5.39/lib64:/pkgs/TensorRT-6/lib:/pkgs/cuda-11.0/extras/CUPTI/lib64\n"
     "jax._src.source_info_util.JaxStackTraceBeforeTransformation: RuntimeError: jaxlib/cusolver.cc:51: operation "
     "cusolverDnCreate(&handle) failed: cuSolver internal error",
     LIB, "put a toolkit whose lib64 has libcusolver.so.11 on LD_LIBRARY_PATH"),
    # https://github.com/hollowstrawberry/kohya-colab/issues/133 (JAX unused: "you can ignore it"); the answer is
    # conditional on JAX being wanted on the GPU
    ('I\'ve noticed since yesterday i get a line in the script of the Colab page: "An NVIDIA GPU may be present on this '
     'machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu."',
     "jax.cpu_only", "If JAX should use the GPU"),
    # https://github.com/sashakolpakov/dire-jax/issues/14 (the CUDA-enabled jaxlib: jax[cuda12])
    ("WARNING:2025-05-27 20:22:28,949:jax._src.xla_bridge:791: An NVIDIA GPU may be present on this machine, but a "
     "CUDA-enabled jaxlib is not installed. Falling back to cpu.",
     "jax.cpu_only", 'pip install -U "jax[cuda12]"'),

    # --- two copies of a CUDA library ---------------------------------------------------------------------------
    # https://github.com/AI4Finance-Foundation/FinRL/issues/817 (conda base's cudatoolkit 11.2 libcublasLt under pip
    # torch's nvidia-cublas; a new environment solved it)
    ("OSError: /home/fccc/miniconda3/lib/python3.9/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: "
     "undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11\n\nas i see, this file is in directory :\n\n"
     "`(base) fccc@fccc-System-Product-Name:~$ locate  libcublasLt.so.11\n/home/fccc/miniconda3/lib/libcublasLt.so.11\n"
     "/home/fccc/miniconda3/lib/libcublasLt.so.11.4.1.1043\n"
     "/home/fccc/miniconda3/pkgs/cudatoolkit-11.2.2-he111cf0_8/lib/libcublasLt.so.11",
     SHADOW, "conda remove --force cudatoolkit"),
    # https://github.com/vios-s/DiffAN/issues/7 (`conda remove cudatoolkit=11.3.1`, then torch from pip)
    ("OSError: /data/app/anaconda3/envs/functorch_cud11/lib/python3.10/site-packages/torch/lib/../../../../libcublas.so.11: "
     "undefined symbol: cublasLtBIIMatmulAlgoGetHeuristic, version libcublasLt.so.11",
     SHADOW, "conda remove --force cudatoolkit"),
    # https://github.com/steinst/SentAlign/issues/3 (another cudatoolkit build: `conda install cudatoolkit=11.2`)
    ("OSError $ENV_PATH/torch/lib/../../../../libcublas.so.11: undefined symbol: cublasLt_for_cublas_HSS, version "
     "libcublasLt.so.11 when importing torch",
     SHADOW, "Keep one set of CUDA libraries in this environment"),
    # https://github.com/pytorch/pytorch/issues/51080 (cudatoolkit 11.0.221; conda-forge's 11.0.3 works)
    ("OSError: /home/ka37/anaconda3/envs/fail/lib/python3.8/site-packages/torch/lib/../../../../libcublas.so.11: symbol "
     "free_gemm_select version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference",
     SHADOW, "install one matching cudatoolkit build"),
    # https://github.com/pytorch/pytorch/issues/90673 (the nvidia channel's libcusparse 12.0 pulled in beside
    # pytorch-cuda=11.7: "libcusparse should be pinned at 11.7")
    ("conda install pytorch torchvision torchaudio pytorch-cuda=11.7 -c pytorch -c nvidia\n>>> import torch\n"
     "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
     '  File "/fsx/conda/envs/test_libcusparse/lib/python3.10/site-packages/torch/__init__.py", line 192, in <module>\n'
     "    from torch._C import *  # noqa: F403\nImportError: /fsx/conda/envs/test_libcusparse/lib/python3.10/site-packages/"
     "torch/lib/libtorch_cuda_cu.so: undefined symbol: cusparseSpSM_analysis, version libcusparse.so.11",
     SHADOW, 'conda install -c pytorch -c nvidia "libcusparse<12"'),
    # https://github.com/pytorch/pytorch/issues/103832 (a CUDA image's cuBLAS before torch's nvidia-cublas-cu11)
    (">>> import torch\nTraceback (most recent call last):\n"
     '  File "/root/.cache/pypoetry/virtualenvs/my-env-jEFYeG2G-py3.10/lib/python3.10/site-packages/torch/__init__.py", '
     "line 172, in _load_global_deps\n    ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)\n"
     '  File "/opt/conda/lib/python3.10/ctypes/__init__.py", line 374, in __init__\n'
     "    self._handle = _dlopen(self._name, mode)\nOSError: /root/.cache/pypoetry/virtualenvs/my-env-jEFYeG2G-py3.10/lib/"
     "python3.10/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: undefined symbol: "
     "cublasLtGetStatusString, version libcublasLt.so.11",
     SHADOW, "cudaenv off"),
    # https://github.com/pytorch/pytorch/issues/144244 (CUDA 12.2's lib64 on LD_LIBRARY_PATH; resetting it solved it)
    ('ImportError: /root/.cache/pypoetry/virtualenvs/soccer-eventpred-YF5lB--H-py3.10/lib/python3.10/site-packages/'
     "torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkComplete_12_4, version "
     "libnvJitLink.so.12\n- **PyTorch version**: 2.5.1\n- **CUDA version**: 12.2",
     SHADOW, "cudaenv off"),

    # --- CUDA 10 and older: the named release's runtime is installed and not on the loader path ---------------
    # https://github.com/tensorflow/tensorflow/issues/5343 (`export LD_LIBRARY_PATH=/usr/local/cuda-8.0/lib64`, or
    # `sudo ldconfig /usr/local/cuda/lib64`)
    ("ImportError: libcudart.so.8.0: cannot open shared object file: No such file or directory",
     "runtime.libcudart_not_found", "Put CUDA 8.0's lib64 on the loader path"),
    # https://github.com/leofansq/CPCL/issues/4 ("I found the problem is that I erroneously configed the CUDA path")
    ("ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory",
     "runtime.libcudart_not_found", 'cudaenv use 10.0'),
    # https://github.com/pyg-team/pytorch_geometric/issues/114 (~/.bashrc not sourced after switching to CUDA 10.0)
    ("ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory\n"
     "I have tried to change Cuda from 9.0 to 10.0",
     "runtime.libcudart_not_found", "Put CUDA 10.0's lib64 on the loader path"),
    # https://github.com/pytorch/pytorch/issues/60515 (`export LD_LIBRARY_PATH=/usr/local/cuda-10.0/lib64:...`)
    ("OSError: libcudart.so.10.0: cannot open shared object file: No such file or directory",
     "runtime.libcudart_not_found", "export LD_LIBRARY_PATH=/usr/local/cuda-10.0/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),

    # --- two CuPy builds in one environment -------------------------------------------------------------------------
    # https://github.com/amazon-braket/amazon-braket-examples/pull/903 (one CUDA's build of each package: cu12 pinned)
    ("CuPy may not function correctly because multiple CuPy packages are installed\n  in your environment:\n\n"
     "    cupy-cuda12x, cupy-cuda13x",
     "python.two_cuda_builds_installed", "Uninstall every build, then install the one for your CUDA"),

    # --- numba pointed at a library that is not the driver --------------------------------------------------------
    # https://github.com/numba/numba/issues/3963 (NUMBAPRO_CUDA_DRIVER at the driver's libcuda.so solved it)
    ("CudaDriverError: driver missing function: cuInit.\n"
     "export NUMBAPRO_CUDA_DRIVER=/usr/lib/cuda/lib64/libcudart.so",
     "runtime.libcuda_not_found", "unset NUMBA_CUDA_DRIVER NUMBAPRO_CUDA_DRIVER"),
    # https://github.com/numba/numba/issues/4136 (Windows: the variable named cudart64_91.dll)
    ("CudaDriverError: driver missing function: cuInit.\nRequires CUDA 8.0 or above.\n\nOS: Windows 10\n"
     '$Env:NUMBAPRO_CUDA_DRIVER = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v9.1\\bin\\cudart64_91.dll"',
     "runtime.libcuda_not_found", "nvcuda.dll"),

    # --- a prebuilt extension for another torch; cuDNN 8 missing ------------------------------------------------
    # https://github.com/Zielon/MICA/issues/20 (the pytorch3d wheel for this torch and CUDA solved it)
    ("ImportError: /usr/local/lib/python3.7/dist-packages/pytorch3d/_C.cpython-37m-x86_64-linux-gnu.so: undefined "
     "symbol: _ZNK2at6Tensor7is_cudaEv",
     "torch.extension_abi", "Install the extension's build made for your torch version"),
    # https://github.com/ultrasev/stream-whisper/issues/18 (cuDNN 8 installed: `conda install -c conda-forge cudnn`)
    ("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory",
     LIB, "Install it where the loader looks"),
]


test_first_answer = first_answer_tests(CASES)
