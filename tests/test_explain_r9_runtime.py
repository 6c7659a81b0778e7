"""Issue 18, round 9, helper "runtime": the loader, Python frameworks at run time, JAX and TensorFlow.
fresh8's misses of this area (c05, c09, c34, c62, c63, c65, c71; burned, so quoted here) and the threads of
other projects behind each family; and the round's principle, "decide by a check": where the log does not show
the fact that decides the fix, the first fix line is a short decision keyed on checks the user can run, and
where it does show it, that situation's fix stands first and alone. Each excerpt is quoted (trimmed) from the
thread above it; the first environment answer and the first line of its fix are the thread's resolution.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

LIB = "runtime.cuda_library_not_found"
TFGPU = "loader.tf_gpu_libs_not_loaded"
PTXAS = "xla.ptxas_not_found"
MKL = "loader.mkl_ijit_notify_event"
TFABI = "loader.tf_custom_op_abi"
TFINC = "build.tf_headers_cuda_path"
PADDLE = "loader.paddle_cublas_not_initialized"
CUDNN = "cudnn.not_initialized"

TF_WARN = ("W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU libraries. Please make sure "
           "the missing libraries mentioned above are installed properly if you would like to use GPU. Follow the guide "
           "at https://www.tensorflow.org/install/gpu for how to download and setup the required libraries for your "
           "platform.\nSkipping registering GPU devices...")

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- libcusolver.so.10 is CUDA 10.1/10.2's AND CUDA 11.0's (fresh8 c62) ------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/43947 (fresh8 c62: tf-nightly, CUDA 11.1; installed CUDA 11.0)
    ("- TensorFlow installed from (source or binary): pip install tf-nightly\n"
     "- TensorFlow version: 2.4.0-dev20201011\n- CUDA/cuDNN version: 11.1 / 8.0.4.30\n"
     "Could not load dynamic library 'libcusolver.so.10'; dlerror: libcusolver.so.10: cannot open shared object file: "
     "No such file or directory", LIB, "cudaenv use 11.0"),
    # https://github.com/Visual-Behavior/detr-tensorflow/issues/8 ("This is a bug with CUDA 11.2 and tensorflow.
    # I installed CUDA 11.0 and problem fixed")
    ("Could not load dynamic library 'libcusolver.so.10'; dlerror: libcusolver.so.10\n"
     "Getting this error although the file is there and LD_LIBRARY_PATH is correctly set\n"
     "This is a bug with CUDA 11.2 and tensorflow", LIB, "cudaenv use 11.0"),
    # https://github.com/kundajelab/chrombpnet/issues/49 (TF 2.4 with CUDA 11.1+: TF 2.5.3, or a link to .so.11)
    ("When starting using TensorFlow 2.4 there is a dependency on `libcusolver.so.10` which is not present in CUDA 11.1+.\n"
     "“Could not load dynamic library ‘libcusolver.so.10’;\n"
     "dlerror: libcusolver.so.10: cannot open shared object file: No such file or directory”",
     LIB, "tensorflow>=2.5"),
    # https://github.com/tensorflow/tensorflow/issues/49167 (TF 2.4, CUDA 11.2 on LD_LIBRARY_PATH)
    ("TF2.4\nCUDA 11.2\n2021-03-18 10:56:30.451771: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] "
     "Successfully opened dynamic library libcudart.so.11.0\n"
     "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library "
     "'libcusolver.so.10'; dlerror: libcusolver.so.10: cannot open shared object file: No such file or directory; "
     "LD_LIBRARY_PATH: /usr/local/cuda-11.2/lib64:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64",
     LIB, "cudaenv use 11.0"),
    # nothing says which CUDA: a decision by the program's build (tensorflow/tensorflow#48498: "You can either
    # install CUDA 10 or build tensorflow from source with CUDA 11")
    ("ImportError: libcusolver.so.10: cannot open shared object file: No such file or directory",
     LIB, "get_build_info"),

    # --- tensorflow[and-cuda] installed, its libraries not on the loader path (fresh8 c63) -------------------------
    # https://github.com/tensorflow/tensorflow/issues/85311 (fresh8 c63: LD_LIBRARY_PATH from the venv's nvidia dirs)
    ('rm -rf .venv\nmkdir .venv\npoetry add "tensorflow[and-cuda]"\n\n# check\npoetry run python mytest.py\n\n'
     "W0000 00:00:1737317404.258825   10111 gpu_device.cc:2344] Cannot dlopen some GPU libraries. Please make sure the "
     "missing libraries mentioned above are installed properly if you would like to use GPU. Follow the guide at "
     "https://www.tensorflow.org/install/gpu for how to download and setup the required libraries for your platform.",
     TFGPU, "LD_LIBRARY_PATH"),
    # https://github.com/tensorflow/tensorflow/issues/63362 (TF 2.16.1 with [and-cuda] in a venv: LD_LIBRARY_PATH
    # with the nvidia wheels' lib directories made it work); TF's warning as 2.16 prints it
    ("I created another python venv, installed TF 2.16.1, only this time with the instructions:\n\n"
     " python3 -m pip install tensorflow[and-cuda]\n\nWhen I run that version, import tensorflow as tf, and  issue\n\n"
     " tf.config.list_physical_devices('GPU')\n\nI also get an empty list.\n" + TF_WARN, TFGPU, "LD_LIBRARY_PATH"),
    # https://github.com/keras-team/keras/issues/19276 (the same, pointed at tensorflow#63362)
    ("python -m pip install tensorflow[and-cuda]\n\nthat failed too, same error messages.\n" + TF_WARN,
     TFGPU, "LD_LIBRARY_PATH"),
    # nothing shown about the install: the decision names both (tensorflow/tensorflow#60646, TF 2.12, no path set)
    ("W tensorflow/core/common_runtime/gpu/gpu_device.cc:1956] Cannot dlopen some GPU libraries. Please make sure the "
     "missing libraries mentioned above are installed properly if you would like to use GPU. Follow the guide at "
     "https://www.tensorflow.org/install/gpu for how to download and setup the required libraries for your platform.\n"
     "Skipping registering GPU devices...\n[]", TFGPU, 'pip install "tensorflow[and-cuda]"'),

    # --- XLA in an nvidia/cuda -base or -runtime image: no ptxas in it (fresh8 c71) --------------------------------
    # https://github.com/YoshitakaMo/localcolabfold/issues/70 (fresh8 c71: FROM nvidia/cuda:11.2.0-devel fixed it)
    ("2022-03-11 15:15:48.010379: W external/org_tensorflow/tensorflow/stream_executor/gpu/asm_compiler.cc:80] "
     "Couldn't get ptxas version string: INTERNAL: Couldn't invoke ptxas --version\n"
     "2022-03-11 15:15:48.010891: F external/org_tensorflow/tensorflow/compiler/xla/service/gpu/nvptx_compiler.cc:435] "
     "ptxas returned an error during compilation of ptx to sass: 'INTERNAL: Failed to launch ptxas'  If the error "
     "message indicates that a file could not be written, please verify that sufficient filesystem space is provided.\n"
     "I'm on Debian 11 (bullseye) and am building from nvidia/cuda:11.2.0-base.", PTXAS, "-devel"),
    # https://github.com/tensorflow/tensorflow/issues/60737 (the runtime image; "devel images dont have this problem")
    ("Failed to launch ptxas error when using nvidia/cuda runtime Docker image\n"
     "ptxas returned an error during compilation of ptx to sass: 'INTERNAL: Failed to launch ptxas'",
     PTXAS, "-devel"),
    # no image shown: the decision starts from `which ptxas` (tests/test_explain.py keeps its other wordings)
    ("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas returned an error during compilation of ptx to sass: "
     "'INTERNAL: Failed to launch ptxas'", PTXAS, "which ptxas"),

    # --- MKL 2024.1 removed iJIT_NotifyEvent (fresh8 c65) -------------------------------------------------------------
    # https://github.com/vinisalazar/metaphor/issues/75 (fresh8 c65: conda, mkl==2024.0 fixed it)
    ("ImportError: /home/fricci/rp24/fra/software/miniconda3/envs/metaphor/lib/python3.11/site-packages/metaphor/config/"
     "conda/62c4f57b116324c01c3221a9b5c2a0ef/lib/python3.7/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: "
     "iJIT_NotifyEvent", MKL, 'conda install "mkl==2024.0"'),
    # https://github.com/open-mmlab/mmpretrain/issues/1900 ("This error can be addressed by: conda install mkl==2024.0")
    ('  File "/home/liut61/miniforge3/envs/open-mmlab/lib/python3.8/site-packages/torch/__init__.py", line 197, in '
     "<module>\n    from torch._C import *  # noqa: F403\nImportError: /home/liut61/miniforge3/envs/open-mmlab/lib/"
     "python3.8/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent",
     MKL, 'conda install "mkl==2024.0"'),
    # https://github.com/yoraish/mmd/issues/3 ("resolved it in a conda environment by pinning MKL to 2024.0")
    ("ImportError: /home/ltl/anaconda3/envs/mmd/lib/python3.8/site-packages/torch/lib/libtorch_cpu.so: undefined "
     "symbol: iJIT_NotifyEvent", MKL, "mkl==2024.0"),
    # https://github.com/intel/ipex-llm/issues/12141 (oneAPI 2024.2 sourced: install oneAPI 2024.0)
    ("Traceback (most recent call last):\n  File \"/home/wxf/ipex-llm/minicpm/xin-minicpm-v2-6.py\", line 2, in "
     "<module>\n    import torch\nImportError: /home/wxf/miniforge3/envs/ipex-llm/lib/python3.11/site-packages/torch/"
     "lib/libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent\n"
     "It looks like you are using oneapi 2024.2, oneapi 2024.2 is not supported now", MKL, "oneAPI 2024.0"),
    # --- a TensorFlow custom op built with the other C++ ABI (fresh8 c09) ----------------------------------------------
    # https://github.com/isl-org/Open3D-PointNet2-Semantic3D/issues/59 (fresh8 c09: -D_GLIBCXX_USE_CXX11_ABI=0 removed)
    ('  File "/home/user/.conda/envs/my_env/lib/python3.6/site-packages/tensorflow/python/framework/load_library.py", '
     "line 61, in load_op_library\n    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
     "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/Open3D-PointNet2-Semantic3D/tf_ops/build/"
     "libtf_grouping.so: undefined symbol: _ZN10tensorflow12OpDefBuilder4AttrESs", TFABI, "remove -D_GLIBCXX_USE_CXX11_ABI=0"),
    # https://github.com/xingyul/flownet3d/issues/14 ("I had to set -D_GLIBCXX_USE_CXX11_ABI=1")
    ("tensorflow.python.framework.errors_impl.NotFoundError: /disk2/wjn/flownet3d/tf_ops/sampling/tf_sampling_so.so: "
     "undefined symbol:_ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv", TFABI, "-D_GLIBCXX_USE_CXX11_ABI=1"),
    # https://github.com/sampepose/flownet2-tf/issues/87 ("Try adding -D_GLIBCXX_USE_CXX11_ABI=0 to CFLAGS ... it worked")
    ("undefined symbol: _ZN10tensorflow12OpDefBuilder4AttrENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
     TFABI, "add -D_GLIBCXX_USE_CXX11_ABI=0"),
    # https://github.com/tensorflow/tensorflow/issues/9137 (the adding_an_op example, TF 1.0.1 pip: ABI 0)
    ("tensorflow.python.framework.errors_impl.NotFoundError: /home/me/tf_compile/tensorflow/tensorflow/examples/"
     "adding_an_op/zero_out_op_kernel_1.so: undefined symbol: _ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringB5cxx11Ev",
     TFABI, "add -D_GLIBCXX_USE_CXX11_ABI=0"),

    # --- TensorFlow's pip headers include CUDA by a Bazel path (fresh8 c05) ------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/31349 (fresh8 c05: the include changed to "cuda_fp16.h")
    ("python2.7/site-packages/tensorflow/include/tensorflow/core/util/gpu_kernel_helper.h:22:10: fatal error: "
     'third_party/gpus/cuda/include/cuda_fp16.h: No such file or directory\n #include '
     '"third_party/gpus/cuda/include/cuda_fp16.h"', TFINC, "third_party/gpus/cuda/include/"),
    # https://github.com/tensorflow/tensorflow/issues/31912 (TF 1.14, the GPU custom op example)
    ("In file included from cuda_op_kernel.cu.cc:19:0:\n/home/alex/.local/lib/python3.5/site-packages/tensorflow/include/"
     "tensorflow/core/util/gpu_kernel_helper.h:22:53: fatal error: third_party/gpus/cuda/include/cuda_fp16.h: No such "
     "file or directory\ncompilation terminated.", TFINC, "sed -i"),

    # --- PaddlePaddle's cuBLAS handle: its CUDA build against the machine's (fresh8 c34) -----------------------------
    # https://github.com/PaddlePaddle/Paddle/issues/41458 (fresh8 c34: the CUDA 11.2 stack and build worked)
    ("[Hint: 'CUBLAS_STATUS_NOT_INITIALIZED'.  The cuBLAS library was not initialized. This is usually caused by the "
     "lack of a prior cublasCreate() call, an error in the CUDA Runtime API called by the cuBLAS routine, or an error in "
     "the hardware setup.  To correct: call cublasCreate() prior to the function call; and check that the hardware, an "
     "appropriate version of the driver, and the cuBLAS library are correctly installed.  ] (at /paddle/paddle/fluid/"
     "platform/cuda_helper.h:98)", PADDLE, "paddle.version.cuda()"),
    # https://github.com/yeyupiaoling/PaddlePaddle-DeepSpeech/issues/63 (the maintainer: the versions do not match)
    ("OSError: (External)  Cublas error, `CUBLAS_STATUS_NOT_INITIALIZED`. The cuBLAS library was not initialized.",
     PADDLE, "CUDA 11.2 or newer"),
    # https://github.com/PaddlePaddle/PaddleDetection/issues/2967 (CUDA 10.1 with paddlepaddle-gpu==2.0.1.post101)
    ("OSError: (External)  Cublas error, `CUBLAS_STATUS_NOT_INITIALIZED`. The cuBLAS library was not initialized.  "
     "(at /paddle/paddle/fluid/platform/cuda_helper.h:84)", PADDLE, "paddle.version.cuda()"),
    # --- the principle on older entries: CUDNN_STATUS_NOT_INITIALIZED decides by nvidia-smi and LD_LIBRARY_PATH ------
    # https://github.com/yukkyo/PyTorch-FilterResponseNormalizationLayer/issues/4 ("try and reduce the batch size")
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\nSetting `torch.backends.cudnn.enabled=False` fixes "
     "this issue. Unfortunately it also increases memory consumption.", CUDNN, "lower the batch size"),
    # https://github.com/haotian-liu/LLaVA/issues/458 ("the cuda package mismatches with the PyTorch cuda version")
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED[Usage]\nGetting above error  right after i fill the "
     "user prompt", CUDNN, "torch.version.cuda"),
    # https://github.com/xincoder/GRIP/issues/23 (a conda environment; "I update my pytorch version and fix the problem")
    ('  File "/home/xxx/anaconda3/envs/DRL/lib/python3.7/site-packages/torch/nn/modules/rnn.py", line 176, in '
     "flatten_parameters\n    self.batch_first, bool(self.bidirectional))  # type: ignore\n"
     "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED", CUDNN, "install the framework's build"),
    # the library-path miss with nothing else shown keeps its check first (stream-whisper#18 is in r8_loader)
    ("OSError: libcublasLt.so.11: cannot open shared object file: No such file or directory", LIB, "find / -name"),
    # --- TensorFlow's "DNN library is not found" alone: cuDNN did not load, not memory ------------------------------
    # https://github.com/apapiu/guided-diffusion-keras/issues/8 ("Tensorflow was pointing to a different version of cudnn")
    ("Node: 'residual_unet/conv2d/Conv2D'\nDNN library is not found.\n\t [[{{node residual_unet/conv2d/Conv2D}}]] "
     "[Op:__inference_predict_function_9480]\npython version 3.8\ntensorflow: 2.8.0\ncuDNN: 8.1.1\ncuda: 11.2",
     "status.framework_took_gpu_memory", "the cuDNN it was built for"),
    # https://github.com/tensorflow/tensorflow/issues/55468 (TF 2.8, Conv1D; cuDNN set up for the release)
    ("UnimplementedError DNN library is not found when running a Conv1D layer\nDetected at node "
     "'sequential/conv1d/Conv1D' defined at (most recent call last):", "status.framework_took_gpu_memory",
     "the cuDNN it was built for"),
]

test_first_answer = first_answer_tests(CASES)
