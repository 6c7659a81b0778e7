"""Issue 18, round 11, helper "copies": two copies of one library (the wrong copy loaded first), stale builds of the
user's own code, packages built for another CUDA than their name says.

Each tuple is a short excerpt of a real public thread (its URL above it), verbatim but trimmed: the first environment
answer must be ``want_id`` and the first line of its fix must hold ``want_fix``, a part of the fix that solved that
thread. The mechanism: derive.py reads every copy of the library the log shows (`_copies`: nvidia-* wheels of two CUDA
majors, a package that imports torch after loading its own copy, the failing library's own directory through "..",
a toolkit that is the caller's side) and extract.py's ``own_build`` fact (the failing module is built in the user's
tree); the entries answer by the copy to remove or the build to redo.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

SHADOW = "runtime.cuda_lib_shadowed"
CUDART = "runtime.libcudart_not_found"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- class A: two copies, one of them named by the log ---------------------------------------------------------
    # https://github.com/pytorch/pytorch/issues/186591 (ptrblck: "You are mixing various libraries including: [pip3]
    # nvidia-nccl-cu12==2.29.3 [pip3] nvidia-nccl-cu13==2.29.7. Uninstall the nviida-nccl-cu12 package")
    ("Importing Pytorch results in undefined symbol ncclCommResume\n"
     "[pip3] nvidia-nccl-cu12==2.29.3\n[pip3] nvidia-nccl-cu13==2.29.7",
     SHADOW, "pip uninstall -y nvidia-nccl-cu12"),
    # https://github.com/rwth-i6/returnn/issues/1802 (the thread's collect_env lines; the stale cu11 wheels removed)
    ("ImportError: /home/runner/.local/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
     "ncclMemFree\n\nAfter adding PyTorch collect_env to CI in case of failure, I noticed this:\n"
     "[pip3] nvidia-nccl-cu11==2.14.3\n[pip3] nvidia-nccl-cu12==2.27.3\nSo two NCCL versions are installed.",
     SHADOW, "pip uninstall -y nvidia-nccl-cu11"),
    # https://github.com/rapidsai/cugraph/issues/4465 (cugraph's import_optional imports torch after CuPy loaded the
    # container's libnccl 2.16.2; CuPy's lazy NCCL loading, cupy/cupy#8360, or `import torch` first solved it)
    ('    torch = import_optional("torch")\n'
     "/pyenv/versions/3.9.19/lib/python3.9/site-packages/cugraph/utilities/utils.py:455: in import_optional\n"
     "    return importlib.import_module(mod)\n"
     "/pyenv/versions/3.9.19/lib/python3.9/site-packages/torch/__init__.py:237: in <module>\n"
     "    from torch._C import *  # noqa: F403\n"
     "E   ImportError: /pyenv/versions/3.9.19/lib/python3.9/site-packages/torch/lib/libtorch_cuda.so: undefined "
     "symbol: ncclCommRegister",
     SHADOW, "`import torch` before `import cugraph`"),
    # https://github.com/MPI-Dortmund/tomotwin-cryoet/issues/42 (cuml's path to the environment's libcublas.so.11;
    # "removing libcublas* under the torch/lib directory helped")
    ("ImportError: /data/miniconda3/envs/tomotwin/lib/python3.10/site-packages/cuml/internals/../../../.././"
     "libcublas.so.11: symbol cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11 not defined in file "
     "libcublasLt.so.11 with link time reference",
     SHADOW, "if torch/lib holds its own"),
    # https://github.com/int-brain-lab/ibl-sorter/issues/41 (the toolkit's libcusolver needs a newer cuBLAS than the
    # venv's nvidia-cublas-cu12 12.8.4.1: "Solved by `uv pip install -U nvidia-cublas-cu12>=12.9.0.13`")
    ('  File "/home/olivier/PycharmProjects/ibl-sorter/.venv/lib/python3.13/site-packages/cupy/linalg/'
     '_decomposition.py", line 499, in svd\n    from cupy_backends.cuda.libs import cusolver\n'
     "ImportError: /usr/local/cuda/targets/x86_64-linux/lib/libcusolver.so.11: undefined symbol: "
     "cublasSetEnvironmentMode, version libcublas.so.12",
     SHADOW, "pip install -U nvidia-cublas-cu12"),
    # --- cuBLAS refuses a GEMM: bf16 on a GPU without it, else a second cuBLAS ---------------------------------------
    # https://github.com/clovaai/donut/issues/214 (fresh11 f39: "I solved it by simply `pip uninstall nvidia-cublas-cu11`")
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedExFix( handle, opa, "
     "opb, m, n, k, (void*)(&falpha), a, CUDA_R_16F, lda, stridea, b, CUDA_R_16F, ldb, strideb, (void*)(&fbeta), c, "
     "CUDA_R_16F, ldc, stridec, num_batches, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
     "loader.cublas_not_supported", "pip uninstall -y nvidia-cublas-cu11"),
    # https://github.com/graphdeco-inria/gaussian-splatting/issues/184 (the environment.yml's cudatoolkit 11.6 changed to
    # 11.3 worked; "I just use pip to install torch and torchvision, and that works")
    ("Follow the instructions to load the default conda env, namely\n\nconda env create --file environment.yml \n"
     "conda activate gaussian_splatting\n\nThen attempt to train, resulting in error:\n"
     "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasSgemmStridedBatched( handle, opa, opb, "
     "m, n, k, &alpha, a, lda, stridea, b, ldb, strideb, &beta, c, ldc, stridec, num_batches)`",
     "loader.cublas_not_supported", "install the cudatoolkit of torch's CUDA"),
    # https://github.com/numz/ComfyUI-SeedVR2_VideoUpscaler/issues/543 (Titan X: "does not support the BF16 ... Try
    # adding the --force-fp16 parameter")
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasGemmStridedBatchedEx(handle, opa, opb, "
     "(int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, "
     "(void*)&fbeta, c, std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16BF, (int)ldc, stridec, "
     "(int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)",
     "loader.cublas_not_supported", "Run in float16 or float32"),
    # https://github.com/opendatalab/MinerU/issues/1508 (fresh11 f44: an M40; bf16 forced off, PR #1512)
    ("因为我使用的显卡是M40，比较久，不支持bf16功能\nRuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling "
     "`cublasGemmStridedBatchedEx(handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, "
     "stridea, b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, "
     "compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
     "loader.cublas_not_supported", "make its bf16 check return False"),
    # --- Paddle's own check: the cuDNN loaded is older than the one it was built with ---------------------------------
    # https://github.com/PaddlePaddle/Paddle/issues/26954 (fresh10 e33: "可能存在多个版本的cudnn ... 删除7.3版本的cudnn", several
    # cuDNN copies: delete the 7.3 one)
    ("WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.3, "
     "which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.\n\n"
     "ExternalError: Cudnn error, CUDNN_STATUS_BAD_PARAM at (/paddle/paddle/fluid/operators/batch_norm_op.cu:319)",
     "loader.paddle_cudnn_older", "the 7.3 copy is found first: delete that copy"),
    # https://github.com/PaddlePaddle/Paddle/issues/37349 (cuDNN 8.1.1 installed as the docs said: "我尝试安装了8.2的cudnn后，
    # 警告消失了" -- installing cuDNN 8.2 removed it)
    ("paddle检查时，出现警告：\nThe installed Paddle is compiled with CUDNN 8.2, but CUDNN version in your machine is 8.1\n\n"
     "我是参照官方推荐的安装方式：\npython -m pip install paddlepaddle-gpu==2.2.0.post112 -f "
     "https://www.paddlepaddle.org.cn/whl/windows/mkl/avx/stable.html",
     "loader.paddle_cudnn_older", "install cuDNN 8.2"),
    # https://github.com/PaddlePaddle/Paddle/issues/42566 (the maintainer: "建议根据报错信息安装对应版本", install the version the
    # message names)
    ("W0507 15:06:34.751360 39714 device_context.h:397] WARNING: device: 0. The installed Paddle is compiled with "
     "CUDNN 7.6, but CUDNN version in your machine is 7.5, which may cause serious incompatible bug. Please recompile "
     "or reinstall Paddle with compatible CUDNN version.",
     "loader.paddle_cudnn_older", "install cuDNN 7.6"),
    # --- a stale build of torch itself (torch's own library misses a TH/THNN symbol) -----------------------------------
    # https://github.com/pytorch/pytorch/issues/2172 (fresh11 f02: "removing the build and torch/lib/build folders and
    # rebuilding fixed it")
    ("from torch._C import *\nImportError: /usr/local/lib/python2.7/dist-packages/torch/lib/libATen.so.1: undefined "
     "symbol: THNN_CudaDoubleSpatialClassNLLCriterion_updateGradInput",
     "loader.torch_stale_source_build", "rm -rf build torch/lib/build"),
    # https://github.com/pytorch/pytorch/issues/2952 ("Work around is to `rm -rf torch/lib/build`")
    ("4. Do an incremental build with `python setup.py build develop`\n5. Do `python -c \"import torch\"`\n"
     "ImportError: /data/users/ezyang/onnx-pytorch/pytorch/torch/lib/libATen.so.1: undefined symbol: "
     "THNN_CudaDoubleVolumetricAdaptiveMaxPooling_updateGradInput",
     "loader.torch_stale_source_build", "rm -rf build torch/lib/build"),
    # https://github.com/pytorch/pytorch/issues/3527 (a libTH.so.1 left from an old build: "libTH.so.1 is no longer
    # built, so you must be on some old version"; a clean build of one checkout worked)
    (">>> import torch\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
     "  File \"/home/j/anaconda2/lib/python2.7/site-packages/torch/__init__.py\", line 53, in <module>\n"
     "    from torch._C import *\nImportError: /home/j/anaconda2/lib/python2.7/site-packages/torch/lib/libTH.so.1: "
     "undefined symbol: convolve_5x5_sse",
     "loader.torch_stale_source_build", "If torch was built from source here: clean the build"),
    # --- a link-time copy: ld resolves the versioned library a toolkit's libcublas needs to another copy -------------
    # https://github.com/AlexeyAB/darknet/issues/8558 (fresh9 d10: `sudo ln -s` the toolkit's libcublasLt.so.11)
    ("/usr/bin/ld: /usr/local/cuda-11.7/lib64/libcublas.so: undefined reference to "
     "`cublasLtGetStatusString@libcublasLt.so.11'\ncollect2: error: ld returned 1 exit status",
     SHADOW, "sudo ln -sf"),
    # --- ld skips a 32-bit copy the build's own -L names --------------------------------------------------------------
    # https://github.com/cudpp/cudpp/issues/54 (fresh11 f07: the LIB line changed to -L$(CUDA_INSTALL_PATH)/lib64)
    ("$ make\n/usr/bin/ld: skipping incompatible /usr/local/cuda/lib/libcudart.so when\nsearching for -lcudart\n"
     "/usr/bin/ld: cannot find -lcudart\ncollect2: ld returned 1 exit status",
     "link.cuda_libs_not_found", "-L.../cuda/lib64"),
    # https://github.com/libocca/occa/issues/53 (fresh11 f08: the toolkit's lib64/stubs instead of /usr/lib/i386-linux-gnu)
    ("g++ -O3 -fPIC scripts/occaInfo.cpp -I/usr/local/cuda-8.0/include -lm -lrt -ldl -L/usr/local/cuda-8.0/lib64 "
     "-lOpenCL -L/usr/lib/i386-linux-gnu/ -lcuda -locca\n"
     "/usr/bin/ld: 当搜索用于 /usr/lib/i386-linux-gnu//libcuda.so 时跳过不兼容的 -lcuda",
     "link.lcuda_not_found", "-L/usr/local/cuda/lib64/stubs"),
    # --- a profiler's libraries off the loader path -------------------------------------------------------------------
    # https://github.com/ComputeCanada/software-stack/issues/66 (fresh9 d64: `export LD_LIBRARY_PATH=$EBROOTCUDA/lib64`)
    ("module load StdEnv/2020  cuda/11.0\nnvcc test_cuda.cu\nnvprof ./a.out \n======== Warning: The path to CUPTI and "
     "CUDA Injection libraries might not be set in LD_LIBRARY_PATH. By default, CUPTI library is installed in "
     "/usr/local/<cuda-toolkit>/extras/CUPTI/lib64 or /usr/local/<cuda-toolkit>/targets/<arch>/lib\n"
     "======== Warning: No profile data collected.",
     "loader.profiler_cupti_path", "$EBROOTCUDA/lib64"),
    # https://github.com/NixOS/nixpkgs/issues/342553 ("the only workaround I found was to add
    # ${cuda_packages.cuda_nvprof.lib}/lib to LD_LIBRARY_PATH")
    ("2. nvprof will fail with the following:\n======== Warning: unable to locate profiling library, GPU profiling "
     "skipped\n======== Error: unable to locate OpenACC profiling library libaccinj64.so.12.2.",
     "loader.profiler_cupti_path", "export LD_LIBRARY_PATH="),
    # --- class B: the module that fails is the user's own build, or a package built for another CUDA ----------------
    # https://github.com/Tramac/awesome-semantic-segmentation-pytorch/issues/99 (the project's C extension had been
    # built for CUDA 9.0; cleaning the build and `python setup.py build develop` solved it)
    ("from core.nn import_C\nImportError:libcudart.so.9.0: cannot open shared object file :No such file or directory.",
     CUDART, "Clean the old build and rebuild it"),
    # https://github.com/ClementPinard/Pytorch-Correlation-extension/issues/73 (CUDA updated from 9.2 to 10.1 after the
    # build: "rebuild from scratch ... `python setup.py clean` and `python setup.py install`")
    ("thanks for your sharing. I can use torch-cuda_101.1 normally.\n"
     "But when I import the spatial_correlation_sampler, ImportError: libcudart.so.9.2: cannot open shared object "
     "file: No such file or directory.\nPs: I updated the cuda from 9.2 to 10.1.",
     CUDART, "Rebuild the module from scratch"),
    # https://github.com/lxxue/FRNN/issues/18 (a build folder made for another torch and CUDA: "Check if their is a
    # build folder in FRNN ... and remove it because the installation ... doesn't recompile the binary")
    ("line 7, in <module>\n    from frnn import _C\n    ImportError: libtorch_cuda_cu.so: cannot open shared object "
     "file: No such file or directory\nI am using torch 2.2.0 with cuda 11.8",
     "loader.torch_lib_not_loaded", "rm -rf build"),
    # https://github.com/dmlc/dgl/issues/919 (conda's dgl-cuda10.0 asked for libcudart.so.9.2; `pip install dgl-cu100`)
    ("conda install -c dglteam dgl-cuda10.0\n\nThen in the python shell:\nimport dgl\n\nError message:\n"
     "libcudart.so.9.2: cannot open shared object file: No such file or directory",
     CUDART, "pip install dgl-cu100"),
]

test_first_answer = first_answer_tests(CASES)
