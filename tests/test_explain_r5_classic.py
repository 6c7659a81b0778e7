"""Issue 18, round 5, slice "classic": frameworks other than torch and their GPU setups (TensorFlow,
JAX, MXNet, Paddle, ONNX Runtime, TensorRT, XGBoost, LightGBM, RAPIDS, ...), sampled from public
threads in the order a search found them. Each excerpt is quoted (trimmed) from the thread above it;
the first environment answer and the first line of its fix are the thread's resolution.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- TensorFlow's dso_loader prints LD_LIBRARY_PATH: a path list there is not CUDA_HOME -------
    # https://github.com/tensorflow/tensorflow/issues/42309 (TF 2.3 wants cuDNN 7; cuDNN 8 installed)
    ("Could not load dynamic library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: "
     "No such file or directory; LD_LIBRARY_PATH: /usr/lib/cuda/include:/usr/lib/cuda/lib64:/usr/lib/cuda/include:"
     "/usr/lib/cuda/lib64:",
     "runtime.cuda_library_not_found", "Install cuDNN 7"),
    # https://github.com/tensorflow/tensorflow/issues/58681 (conda env lib on LD_LIBRARY_PATH, TensorRT 7 absent: TF-TRT's
    # optional library, a warning since round 8)
    ("2023-01-27 14:04:05.855462: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could "
     "not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such "
     "file or directory; LD_LIBRARY_PATH: :/home/wheatley/miniconda3/envs/tf_2-11_gpu/lib/",
     "loader.tf_trt_libs_missing", "TF-TRT needs the TensorRT this TensorFlow was built for"),

    # --- onnxruntime on Windows: the provider DLL is there, a CUDA/cuDNN DLL it imports is not ---
    # https://github.com/microsoft/onnxruntime/issues/20589 (.NET, NuGet Microsoft.ML.OnnxRuntime.Gpu 1.16, CUDA 12.2)
    ("Microsoft.ML.OnnxRuntime.OnnxRuntimeException:\u201c[ErrorCode:RuntimeException] D:\\a_work\\1\\s\\onnxruntime\\core\\"
     "session\\provider_bridge_ort.cc:1193 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary "
     "failed with error 126 \"\" when trying to load \"D:\\Projects\\Yolov8.Net\\Yolo.Net.FromTest\\bin\\Debug\\"
     "net6.0-windows\\runtimes\\win-x64\\native\\onnxruntime_providers_cuda.dll",
     "loader.ort_cuda_provider_failed", "put their bin directories on PATH"),
    # https://github.com/saddam213/OnnxStack/issues/140 (C#)
    ("Unhandled exception. Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:RuntimeException] D:\\a\\_work\\1\\s\\"
     "onnxruntime\\core\\session\\provider_bridge_ort.cc:1209 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : "
     "FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"...\\bin\\Debug\\net8.0\\"
     "onnxruntime_providers_cuda.dll\"\n\n   at Microsoft.ML.OnnxRuntime.SessionOptions.AppendExecutionProvider_CUDA(Int32 deviceId)",
     "loader.ort_cuda_provider_failed", "put their bin directories on PATH"),
    # https://github.com/microsoft/onnxruntime/issues/14837 (C++ API)
    ("    OrtCUDAProviderOptionsV2 *cuda_options = nullptr;\n    g_ort->CreateCUDAProviderOptions(&cuda_options);\n"
     "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when "
     "trying to load \"E:\\x\\build\\examples\\Release\\onnxruntime_providers_cuda.dll\"",
     "loader.ort_cuda_provider_failed", "put their bin directories on PATH"),
    # https://github.com/ORB-HD/deface/issues/26 (pip onnxruntime-gpu, Python)
    ("PS Z:\\> deface VID_20220608_185133.mp4 --thresh 0.02\n2022-06-09 00:23:37.7344718 [E:onnxruntime:Default, "
     "provider_bridge_ort.cc:1022 onnxruntime::ProviderLibrary::Get] LoadLibrary failed with error 126 \"\" when trying "
     "to load \"d:\\program files\\python\\python39\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"",
     "loader.ort_cuda_provider_failed", "onnxruntime-gpu[cuda,cudnn]"),

    # --- Paddle's dynload: "Cannot load cudnn shared library" ---------------------------------------
    # https://github.com/PaddlePaddle/PaddleOCR/issues/300 (conda env, no docker: put cuDNN's lib on LD_LIBRARY_PATH)
    ("----------------------\nError Message Summary:\n----------------------\nError: Cannot load cudnn shared library. "
     "Cannot invoke method cudnnGetVersion at (/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)",
     "runtime.cuda_library_not_found", "LD_LIBRARY_PATH"),
    # https://github.com/PaddlePaddle/Paddle/issues/36238 (cuDNN lib not on the path)
    ("RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.\n"
     "  [Hint: cudnn_dso_handle should not be null.] (at /paddle/paddle/fluid/platform/dynload/cudnn.cc:76)",
     "runtime.cuda_library_not_found", "paddle.version.cudnn()"),
    # https://github.com/yeyupiaoling/PP-YOLOE/issues/5 (no cuDNN installed)
    ("Error: Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion at "
     "(/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)",
     "runtime.cuda_library_not_found", "Install the cuDNN"),

    # --- XGBoost / LightGBM builds without GPU support ------------------------------------------------
    # https://github.com/dmlc/xgboost/issues/3030 (reinstalling one build fixed it)
    ("But when i test the benchmark.py,there is the error:\nXGBoost version not compile with GPU support.\n"
     "xgboost.core.XGBoostError: [10:21:14] src/common/common.h:41: XGBoost version not compiled with GPU support.",
     "ext.cuda_ops_not_built", "pip uninstall -y xgboost"),
    # https://github.com/dmlc/xgboost/issues/7765 (conda CPU package and pip mixed on Windows)
    ("When I use XGBOOST with Scikit on Windows10 the algorithm runs at first but gives me this error message\n"
     "Error: XGBoost version not compiled with GPU support",
     "ext.cuda_ops_not_built", "Keep one xgboost"),
    # https://github.com/lightgbm-org/LightGBM/issues/3696
    ("[LightGBM] [Fatal] GPU Tree Learner was not enabled in this build.\nPlease recompile with CMake option -DUSE_GPU=1\n"
     "Traceback (most recent call last):\n  File \"/data/logs/xulm1/myconda/lib/python3.7/site-packages/lightgbm/basic.py\", "
     "line 55, in _safe_call\n    raise LightGBMError(decode_string(_LIB.LGBM_GetLastError()))\n"
     "lightgbm.basic.LightGBMError: GPU Tree Learner was not enabled in this build.\nPlease recompi",
     "ext.cuda_ops_not_built", "lightgbm"),
    # https://github.com/Azure/fast_retraining/issues/69
    ("LightGBMError: b'GPU Tree Learner was not enabled in this build. Recompile with CMake option -DUSE_GPU=1'",
     "ext.cuda_ops_not_built", "lightgbm"),
    # https://github.com/vaaaaanquish/lightgbm-rs/issues/33
    ('Error { desc: "GPU Tree Learner was not enabled in this build.\\nPlease recompile with CMake option -DUSE_GPU=1" }',
     "ext.cuda_ops_not_built", "lightgbm"),

    # --- a prebuilt non-torch GPU library without the GPU's architecture ----------------------------
    # https://github.com/dmlc/xgboost/issues/8493 (XGBoost 1.6.2 on a Tesla K80)
    ("org.apache.spark.api.python.PythonException: 'xgboost.core.XGBoostError: [12:47:39] ../src/c_api/../data/../common/"
     "device_helpers.cuh:428: Memory allocation error on worker 7: [12:47:39] ../src/c_api/../data/../common/common.h:46: "
     "../src/common/device_helpers.cuh: 447: cudaErrorNoKernelImageForDevice: no kernel image is available for execution "
     "on the device\nStack trace:\n  [bt] (0) /databricks/python/lib/python3.9/site-packages/xgboost/lib/libxgboost.so"
     "(+0x3a5799) [0x7f54506e7799]",
     "runtime.no_kernel_image", "install an older release"),
    # https://github.com/rapidsai/cugraph/issues/1130 (K80; cuGraph needs Pascal or newer)
    ("I did read the notes that cuGraph needs Pascal or above. A quick test on a K80 reveals the below error:\n\n"
     "cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device",
     "runtime.no_kernel_image", "install an older release"),
    # --- DGL's CPU build asked for the GPU ------------------------------------------------------------
    # https://github.com/dmlc/dgl/issues/5427 (dgl==1.0.1 has no GPU support: install dgl+cu116)
    ("dgl._ffi.base.DGLError: [14:00:04] /opt/dgl/src/runtime/c_runtime_api.cc:82: Check failed: allow_missing: "
     "Device API cuda is not enabled. Please install the cuda version of dgl.",
     "ext.cuda_ops_not_built", "install DGL's CUDA build"),
    # https://github.com/THUDM/GraphMAE/issues/9
    ("dgl._ffi.base.DGLError: [21:48:49] /opt/dgl/src/runtime/c_runtime_api.cc:88: Check failed: allow_missing: "
     "Device API gpu is not enabled. Please install the cuda version of dgl.",
     "ext.cuda_ops_not_built", "install DGL's CUDA build"),
    # https://github.com/dmlc/dgl/issues/3932 (dgl and dgl-cu111 both installed)
    ("it would report an error that is \"Device API GPU is not enabled. Please install the Cuda version of dgl.\" But I "
     "had already installed dgl-cu111.\nDGLError: Check failed: allow_missing: Device API gpu is not enabled. Please "
     "install the cuda version of dgl.",
     "ext.cuda_ops_not_built", "Uninstall every DGL"),

    # --- Theano's CUDA backend: nvcc not on PATH --------------------------------------------------------
    # https://github.com/alexjc/neural-doodle/issues/49 (reinstalling CUDA fixed it)
    ("  File \"/home/sebastiankatz/neural-doodle-master/pyvenv/lib/python3.4/site-packages/theano/sandbox/cuda/__init__.py\", "
     "line 489, in use\n    \"\" % device)\nOSError: You forced the use of gpu device 'gpu0', but nvcc was not found. "
     "Set it in your PATH environment variable or set the Theano flags 'cuda.root' to its directory",
     "shell.nvcc_not_found", "cudaenv use"),
    # https://github.com/dnouri/kfkd-tutorial/issues/6 (export PATH=/usr/local/cuda/bin:$PATH)
    ("ERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH. Check your nvcc installation and try again.",
     "shell.nvcc_not_found", "cudaenv use"),
    # --- MXNet's CPU build asked for mx.gpu() ----------------------------------------------------------
    # https://github.com/chinakook/hr101_mxnet/issues/9 (prebuilt Windows CPU package; the GPU build fixed it)
    ("[20:12:48] C:\\projects\\mxnet-distro-win\\mxnet-build\\dmlc-core\\include\\dmlc/logging.h:308: [20:12:48] "
     "C:\\projects\\mxnet-distro-win\\mxnet-build\\src\\storage\\storage.cc:118: Compile with USE_CUDA=1 to enable GPU usage\n"
     "mxnet.base.MXNetError: [20:12:48] C:\\projects\\mxnet-distro-win\\mxnet-build\\src\\storage\\storage.cc:118: Compile "
     "with USE_CUDA=1 to enable GPU usage",
     "ext.cuda_ops_not_built", "mxnet-cu"),
    # https://github.com/cma2015/DeepGS/issues/17 (R package)
    ("Error in mx.nd.internal.empty.array(shape, ctx) : \n  [05:09:27] src/storage/storage.cc:123: Compile with "
     "USE_CUDA=1 to enable GPU usage",
     "ext.cuda_ops_not_built", "GPU build"),

    # --- TF 1.x "could not create cudnn handle" (lower case) is TensorFlow's memory, and the
    # BAD_PARAM of the handle's clean-up below it is no program bug ----------------------------------
    # https://github.com/nickliqian/cnn_captcha/issues/107 (allow_growth fixed it)
    ("2018-05-28 23:08:09.915921: E tensorflow/stream_executor/cuda/cuda_dnn.cc:385] could not create cudnn handle: "
     "CUDNN_STATUS_INTERNAL_ERROR\n2018-05-28 23:08:09.915959: E tensorflow/stream_executor/cuda/cuda_dnn.cc:352] could "
     "not destroy cudnn handle: CUDNN_STATUS_BAD_PARAM\n2018-05-28 23:08:09.915981: F tensorflow/core/kernels/"
     "conv_ops.cc:667] Check failed: stream->parent()->GetConvolveAlgorithms( conv_parameters.ShouldIncludeWinograd"
     "NonfusedAlgo<T>(), &algorithms)\nAborted (core dumped)",
     "status.framework_took_gpu_memory", "TF_FORCE_GPU_ALLOW_GROWTH"),
    # --- MXNet linked against a CUDA runtime the loader does not find ---------------------------------
    # https://github.com/apache/mxnet/issues/7608 (library present; ld.so.conf entry fixed it)
    ("  File \"/usr/local/lib/python2.7/dist-packages/mxnet-0.9.5-py2.7.egg/mxnet/base.py\", line 38, in _load_lib\n"
     "    lib = ctypes.CDLL(lib_path[0], ctypes.RTLD_GLOBAL)\n  File \"/usr/lib/python2.7/ctypes/__init__.py\", line 362, "
     "in __init__\n    self._handle = _dlopen(self._name, mode)\nOSError: libcudart.so.8.0: cannot open shared object "
     "file: No such file or directory",
     "runtime.libcudart_not_found", "cudaenv use 8.0"),
    # https://github.com/panzheyi/ST-MetaNet/issues/16 (mxnet_cu90 wheel, CUDA 9.0 runtime needed)
    ("  File \"/home/cll/anaconda3/envs/MetaNet/lib/python3.5/site-packages/mxnet/base.py\", line 204, in _load_lib\n"
     "    lib = ctypes.CDLL(lib_path[0], ctypes.RTLD_LOCAL)\nOSError: libcudart.so.9.0: cannot open shared object file: "
     "No such file or directory",
     "runtime.libcudart_not_found", "cudaenv use 9.0"),
]


test_classic_frameworks_answer_from_the_log = first_answer_tests(CASES, verdicts=True)
