"""Round 17b, frameworks: fresh17's misses of the python-framework and jax-tf layers, built as families.

- CuPy finds no CUDA root to compile its kernels with (cupy.cuda_root_not_found): "Failed to auto-detect CUDA root
  directory. Please specify `CUDA_PATH`"; conda's cudatoolkit puts CUDA_PATH at the conda installation first, a
  container's /usr/local/cuda by default, native Windows the CUDA installer.
- The TensorRT root a CMake build reads NvInferVersion.h from has no headers (build.trt_root_without_headers): pip's
  tensorrt wheel (the full TensorRT installed there first), an empty root (pass the directory).
- PaddlePaddle 0.x's "[cudnn init] libcudnn vN with header vM unmatched" (loader.paddle_v2_cudnn_header_lib_differ):
  the cuDNN the wheel was built with, found first.
- TensorFlow 0.x-1.x's "Unable to load cuDNN DSO" without the dso_loader line that names the file
  (tf.cudnn_dso_not_loaded): the cuDNN major of the release; CUDA 7.0 in the log: cuDNN v2, not v3.

Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss wordings on their answers."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- CuPy: no CUDA root ---------------------------------------------------------------------------------------------
    # https://github.com/fbpic/fbpic/issues/371 (fresh17 q62; maintainer: `export CUDA_PATH=$HOME/anaconda3/lib`, the
    # conda installation; reporter: "That seems to solve the auto-detection issue")
    ("Following the install instructions, when running `fbpic`, I get\n\n```\nRuntimeError: Failed to auto-detect CUDA "
     "root directory. Please specify `CUDA_PATH` environment variable if you are using CUDA v9.0, v9.1 or versions not "
     "yet supported by CuPy.\n```\nI installed `cudatoolkit=9.0` via `conda` and then `pip install cupy-cuda90`",
     "cupy.cuda_root_not_found", "export CUDA_PATH=$CONDA_PREFIX"),
    # https://github.com/cupy/cupy/issues/9755 (= NVIDIA/cuda-python#1707; a Holoscan container, CUDA in /usr/local/cuda,
    # CUDA_PATH unset; "Workaround: Set CUDA_PATH=/usr/local/cuda before running Python.")
    ("[CUPY_DEBUG_LIBRARY_LOAD] CUDA headers not found via cuda-pathfinder\nRuntimeError: Failed to auto-detect CUDA "
     "root directory. Please specify `CUDA_PATH` environment variable if you are using CUDA versions not yet supported "
     "by CuPy.",
     "cupy.cuda_root_not_found", "export CUDA_PATH=/usr/local/cuda"),
    # native Windows (a ComfyUI node): https://github.com/Fannovel16/ComfyUI-Frame-Interpolation/issues/106's traceback;
    # the way out from https://github.com/john-mnz/ComfyUI-Inspyrenet-Rembg/issues/36 ("you need to install the CUDA
    # toolkit from NVIDIA then restart your pc")
    ("  File \"E:\\comfui\\ComfyUI\\custom_nodes\\comfyui-frame-interpolation\\vfi_utils.py\", line 222, in "
     "generic_frame_loop\n    return _generic_frame_loop(\nFailed to auto-detect CUDA root directory. Please specify "
     "`CUDA_PATH` environment variable if you are using CUDA versions not yet supported by CuPy.",
     "cupy.cuda_root_not_found", "Install the CUDA Toolkit for Windows"),
    # -- TensorRT root without headers ------------------------------------------------------------------------------------
    # https://github.com/NVIDIA/TensorRT-LLM/issues/69 (fresh17 q09; maintainer: install TensorRT to the --trt_root
    # directory with docker/common/install_tensorrt.sh, or build in docker)
    ("CMake Error at CMakeLists.txt:288 (file): file STRINGS file \"/usr/local/tensorrt/include/NvInferVersion.h\" "
     "cannot be read.\nI have installed TensorRT using `pip3`. It appears that TensorRT was installed in the directory  "
     "\".local/lib/python3.9/site-packages\", and the file \"/include/NvInferVersion.h\" is missing.\n\n```\n"
     "tensorrt==9.1.0.post12.dev4\ntensorrt-bindings==9.1.0.post12.dev4\ntensorrt-libs==9.1.0.post12.dev4\n```",
     "build.trt_root_without_headers", "install the full TensorRT into /usr/local/tensorrt"),
    # https://github.com/NVIDIA/TensorRT-LLM/issues/1716 (CMake wraps the line; built in the release's container)
    ("-- TORCH_CXX_FLAGS: -D_GLIBCXX_USE_CXX11_ABI=0\nCMake Error at CMakeLists.txt:479 (file):\n  file STRINGS file "
     "\"/usr/local/tensorrt/include/NvInferVersion.h\" cannot be\n  read.\n \n \nCMake Error at CMakeLists.txt:482 "
     "(string):\n  string sub-command REGEX, mode MATCH needs at least 5 arguments total to\n  command.",
     "build.trt_root_without_headers", "install the full TensorRT (headers and libraries) there"),
    # https://github.com/triton-inference-server/tensorrtllm_backend/issues/30 (TRT_ROOT empty outside the Dockerfile)
    ("Which failed at `cd tensorrt_llm && python3 scripts/build_wheel.py --trt_root=\\\"${TRT_ROOT}\\\" -i -c && cd ..`"
     "\n\nRerunning this line runs into `file STRINGS file \"/include/NvInferVersion.h\" cannot be read.`",
     "build.trt_root_without_headers", "--trt_root /usr/local/tensorrt"),
    # -- PaddlePaddle 0.x: libcudnn vN with header vM ---------------------------------------------------------------------
    # https://github.com/PaddlePaddle/Paddle/issues/10238 (fresh17 q39; developer: the wheel was built with cuDNN 5, the
    # machine has 7: lower the machine's cuDNN to 5, or build Paddle)
    ("F0426 19:12:07.087769 28996 hl_cuda_cudnn.cc:171] Check failed: (cudnn_cuh_major < 4 && cudnn_dso_major < 4) || "
     "(cudnn_cuh_major == cudnn_dso_major) [cudnn init] libcudnn v7 with header v5 unmatched!\nPaddlePaddle "
     "Requirement: (header v[2-3] with libcudnn v[2-3]) Or (header v4 with libcudnn v4) Or (header v5 with libcudnn v5) "
     "Or(header v6 with libcudnn v6).\n```\n\n我本机环境为`ubuntu16.04`,`cuda8.0`+`cudnn5.1`",
     "loader.paddle_v2_cudnn_header_lib_differ", "Give Paddle the cuDNN 5 it was built with"),
    # https://github.com/PaddlePaddle/Paddle/issues/11195 (the other direction: a cuDNN 7 build on a cuDNN 5.1 machine)
    ("cuda 版本为8.0，cudnn版本为5.1.10，报了以下的错\n\npaddle.init(use_gpu=True, trainer_count=1)\nF0605 "
     "01:44:46.962916 26917 hl_cuda_cudnn.cc:171] Check failed: (cudnn_cuh_major < 4 && cudnn_dso_major < 4) || "
     "(cudnn_cuh_major == cudnn_dso_major) [cudnn init] libcudnn v5 with header v7 unmatched!",
     "loader.paddle_v2_cudnn_header_lib_differ", "Give Paddle the cuDNN 7 it was built with"),
    # -- TensorFlow 0.x: Unable to load cuDNN DSO --------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/62 (fresh17 q34; "install cudnnv2, not cudnnv3")
    ("I'm getting the following error when I try to run the gpu version.\n\nI tensorflow/stream_executor/dso_loader.cc:77]"
     " LD_LIBRARY_PATH: :/usr/local/cuda-7.0/lib:/usr/local/cuda-7.0/lib64:/usr/local/cuda-7.0/lib64:/usr/local/lib\n"
     "I tensorflow/stream_executor/cuda/cuda_dnn.cc:1062] Unable to load cuDNN DSO.",
     "tf.cudnn_dso_not_loaded", "install cuDNN v2, not v3 or newer"),
    # https://github.com/tensorflow/tensorflow/issues/7975 (the lower-case wording, TF 1.0 with CUDA in /usr/local/cuda;
    # the thread is not resolved in it: the answer's form only)
    ("when i do \"import tensorflow as tf\"\nshow   I tensorflow/stream_executor/dso_loader.cc:77] LD_LIBRARY_PATH: "
     ":/usr/local/cuda/lib64\n           I tensorflow/stream_executor/cuda/cuda_dnn.cc:1062]unable to load cuDNN DSO.",
     "tf.cudnn_dso_not_loaded", "Install the cuDNN major this TensorFlow release was built for"),
    # -- cuBLAS failing on an Ampere GPU, the build's CUDA not in the log ------------------------------------------------
    # https://github.com/Kai-46/PhySG/issues/7 (fresh17 q40; the reporter's way out: CUDA 11 builds of torch and the
    # dependencies in place of the .yml's cudatoolkit 10.2; AI-secure/InfoBERT#5 and yenchenlin/nerf-pytorch#89 the same)
    ("Appreciate for your great work! \nI am trying to run the repo on 2080Ti/3090/A30 and meet an error  "
     "\"CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm...\". In case that someone else meet the same problem, "
     "here is the record of my solution.",
     "status.gpu_newer_than_build_cuda_unseen", "prints CUDA 10.2 or older"),
    # the log names both the GPU and the old CUDA: the entry that knows the GPU's first CUDA keeps it
    ("My environment: Geforce RTX 3080,cudatoolkit 10.0,pytorch 1.3.1with conda.\nRuntimeError: CUDA error: "
     "CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, "
     "&beta, c, ldc)`",
     "status.gpu_newer_than_build", ""),
    # -- guards --------------------------------------------------------------------------------------------------------
    # with the dso_loader line naming the file, the loader entry keeps it
    # https://github.com/RealScout/deep-learning-images/issues/7
    ("I tensorflow/stream_executor/dso_loader.cc:111] successfully opened CUDA library libcublas.so.8.0 locally\n"
     "I tensorflow/stream_executor/dso_loader.cc:105] Couldn't open CUDA library libcudnn.so.5. LD_LIBRARY_PATH: \n"
     "I tensorflow/stream_executor/cuda/cuda_dnn.cc:3448] Unable to load cuDNN DSO\n",
     "runtime.cuda_library_not_found", ""),
    # Paddle 1.x's wording stays on its entry (its example line)
    ("WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.3, "
     "which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.",
     "loader.paddle_cudnn_older", ""),
    # a compiler's missing TensorRT header stays on build.tensorrt_header_missing
    # https://github.com/mit-han-lab/inter-operator-scheduler/issues/3
    ("When rebuild IOS runtime and TRT runtime, I run \"make -j4\" but it gets the error `fatal error: NvInfer.h: No such "
     "file or directory`.",
     "build.tensorrt_header_missing", ""),
]

test_first_answer = first_answer_tests(CASES)


def _ids(text: str) -> list[str]:
    return [m.id for m in explain(text)]


def test_rocm_root_is_not_the_cuda_root() -> None:
    """CuPy's ROCm message (cupy/_core/core.pyx: "Failed to auto-detect ROCm root directory. Please specify
    `ROCM_HOME`") is not the CUDA_PATH cause."""
    assert "cupy.cuda_root_not_found" not in _ids(
        "RuntimeError: Failed to auto-detect ROCm root directory. Please specify `ROCM_HOME` environment variable.")


def test_other_cmake_file_strings_failures_are_not_tensorrt() -> None:
    """A CMake file(STRINGS) of another header is not the TensorRT root."""
    assert "build.trt_root_without_headers" not in _ids(
        'CMake Error at CMakeLists.txt:40 (file): file STRINGS file "/opt/foo/include/version.h" cannot be read.')


def test_cublas_failure_with_a_cuda_11_build_is_not_the_gpu_generation() -> None:
    """torch 1.8+ with CUDA 11.1 on an A100 failing in cuBLAS (https://github.com/pytorch/pytorch/issues/54975: a torch
    regression) is not answered as a build too old for the GPU."""
    text = ("GPU 0: A100-SXM4-40GB\nPyTorch version: 1.9.0.dev20210330+cu111\nCUDA used to build PyTorch: 11.1\n"
            "E RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemmStridedBatched( handle, "
            "opa, opb, m, n, k, &alpha, a, lda, stridea, b, ldb, strideb, &beta, c, ldc, stridec, num_batches)`\n")
    assert "status.gpu_newer_than_build_cuda_unseen" not in _ids(text)


def test_a_line_number_is_not_a_gpu() -> None:
    """"line 3090" in a traceback names no RTX 3090."""
    text = ("  File \"model.py\", line 3090, in forward\nRuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when "
            "calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`\n")
    assert "status.gpu_newer_than_build_cuda_unseen" not in _ids(text)


def test_program_bug_beside_cupy_stays_unclaimed() -> None:
    """A user's own CuPy shape error claims no environment cause."""
    text = ("Traceback (most recent call last):\n  File \"run.py\", line 9, in <module>\n    c = a @ b\n"
            "ValueError: Axis dimension mismatch\n")
    assert not [m.id for m in explain(text) if m.environment]
