"""Round 15, frameworks: answers from resolution tables for framework causes at install and build time.

A TensorFlow checkout built with a Bazel outside its range (tf.bazel_version_range): TensorFlow's configure.py
("Please upgrade|downgrade your bazel installation to version X"), TF r1.0's WORKSPACE check ("Current Bazel version
is X, expected at least Y"), Bazel's launcher (".bazelversion ... but it wasn't found"), and Bazel itself on a
checkout of another era. The release's tested Bazel comes from knowledge/tensorflow.yaml (tensorflow.org's tested
build configurations). Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss
wordings on their answers and program bugs unclaimed."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import tf_build

CASES = [
    # -- TensorFlow's configure.py: upgrade -------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/24101 (TF 1.12: "It does work with tf 1.12.0 when upgrade bazel
    # to 0.21.0")
    ("root@0d56190c7f6e:/tensorflow# ./configure\n"
     "WARNING: --batch mode is deprecated. Please instead explicitly shut down your Bazel server using the command \"bazel shutdown\".\n"
     "You have bazel 0.15.0 installed.\n"
     "Please upgrade your bazel installation to version 0.19.0 or higher to build TensorFlow!\n",
     "tf.bazel_version_range", "Install Bazel 0.19.0 or newer"),
    # https://github.com/samjabrahams/tensorflow-on-raspberry-pi/issues/126 (a newer Bazel built, then TF built)
    ("I got this message while configuring tensorflow:\n./configure\n\n"
     "You have bazel 0.4.5- (@non-git) installed.\n"
     "Please upgrade your bazel installation to version 0.5.4 or higher to build TensorFlow!\n"
     "Configuration finished\n",
     "tf.bazel_version_range", "Install Bazel 0.5.4 or newer"),
    # https://github.com/zylo117/tensorflow-gpu-macosx/issues/10 (a fork's configure, same check)
    ("$ ./configure\nYou have bazel 0.14.1 installed.\n"
     "Please upgrade your bazel installation to version 0.15.0 or higher to build TensorFlow!\nConfiguration finished\n",
     "tf.bazel_version_range", "Install Bazel 0.15.0 or newer"),
    # with the release named: the tested Bazel of that release is named too (tensorflow/quantum#363 wording, TF 2.1)
    ("git checkout v2.1.0\n./configure\nYou have bazel 0.26.0 installed.\n"
     "Please upgrade your bazel installation to version 0.27.1 or higher to build TensorFlow!\n",
     "tf.bazel_version_range", "the tested one for TensorFlow 2.1 being Bazel 0.27.1"),
    # -- configure.py: downgrade ------------------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/33169 (maintainer: the tested build configuration's Bazel)
    ("You have bazel 0.29.1 installed.\n"
     "Please downgrade your bazel installation to version 0.26.1 or lower to build TensorFlow! To downgrade: download "
     "the installer for the old version (from https://github.com/bazelbuild/bazel/releases) then run the installer.\n",
     "tf.bazel_version_range", "Install Bazel 0.26.1"),
    # https://github.com/tensorflow/tensorflow/pull/24114 (the downgrade message of TF 1.12's configure)
    ("$ ./configure\nYou have bazel 0.20.0 installed.\n"
     "Please downgrade your bazel installation to version 0.19.2 or lower to build TensorFlow!\nConfiguration finished\n",
     "tf.bazel_version_range", "TF_IGNORE_MAX_BAZEL_VERSION"),
    # -- Bazel's launcher and the checkout's .bazelversion ----------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/77176 (TF 2.17 with Bazel 7.3.2 installed)
    ("$bazel build --config=/linux/tensorflow/runtime //tensorflow/tools/lib_package:libtensorflow\n"
     "ERROR: The project you're trying to build requires Bazel 6.5.0 (specified in /linux/tensorflow/.bazelversion), "
     "but it wasn't found in /usr/bin.\n\n"
     "Bazel binaries for all official releases can be downloaded from here:\n  https://github.com/bazelbuild/bazel/releases\n",
     "tf.bazel_version_range", "Install Bazel 6.5.0, the version the checkout's .bazelversion names"),
    # https://github.com/tensorflow/tflite-micro/pull/824 (the sync workflow: Bazel 4.2.2 installed by the script)
    ("ERROR: The project you're trying to build requires Bazel 4.2.2 (specified in /tmp/tensorflow/.bazelversion), "
     "but it wasn't found in /usr/local/lib/bazel/bin.\n",
     "tf.bazel_version_range", "bazel-4.2.2-linux-x86_64"),
    # -- TF r1.0's WORKSPACE check ----------------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/16823 (branch r1.0 with Bazel 0.10)
    ("./configure exited with following error\n"
     "`Current Bazel version is 0.10.0- (@non-git), expected at least 0.4.2\n"
     "ERROR: Error evaluating WORKSPACE file\n",
     "tf.bazel_version_range", "install Bazel 0.4.2"),
    # -- Bazel on a checkout of another era -------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/4944 (a 2016 checkout; an older Bazel builds it)
    ("bazel build -c opt --config=cuda //tensorflow/tools/pip_package:build_pip_package\n"
     "i get :\nThe specified --crosstool_top '//third_party/gpus/crosstool:crosstool' is not a valid cc_toolchain_suite rule\n",
     "tf.bazel_version_range", "This checkout predates your Bazel"),
    # https://github.com/zplizzi/tensorflow-fast-rcnn/issues/15 (a TensorFlow fork of that time)
    ("[tensorflow-fast-rcnn]$ bazel build -c opt --config=cuda //tensorflow/tools/pip_package:build_pip_package\n"
     "WARNING: /home/charan/tensorflow-fast-rcnn/tensorflow/tensorflow.bzl:481:26: Variables HOST_CFG and DATA_CFG are deprecated in favor of strings \"host\" and \"data\" correspondingly.\n"
     "ERROR: The specified --crosstool_top '//third_party/gpus/crosstool:crosstool' is not a valid cc_toolchain_suite rule.\n",
     "tf.bazel_version_range", "Bazel 0.2.2"),
    # -- TensorFlow "device kernel image is invalid" with a driver that runs the build's CUDA -----------------------
    # https://github.com/tensorflow/tensorflow/issues/43701 (RTX 3080, tensorflow-gpu 2.3.1 built with CUDA 10.1, driver
    # 455: TF 2.4 / tf-nightly with CUDA 11)
    ("GeForce RTX 3080 \nNVIDIA driver 455.23.04 + CUDA10.1 + Cudnn7.6.5\nAnaconda3\nenvs: tensorflow-gpu==2.3.1\n"
     "2020-10-01 17:18:08.728126: I tensorflow/stream_executor/platform/default/dso_loader.cc:48] Successfully opened dynamic library libcudart.so.10.1\n"
     "  File \"/home/librazxc/.conda/envs/tf23/lib/python3.7/site-packages/tensorflow/python/client/device_lib.py\", line 43, in list_local_devices\n"
     "RuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid\n",
     "status.kernel_image_invalid", "TensorFlow 2.4 or newer"),
    # https://github.com/tensorflow/tensorflow/issues/47563 (A100, TF 2.3.0; no driver in the log: the check decides)
    ("- TensorFlow version (use command below): 2.3.0\n- CUDA/cuDNN version: 11.2 (also have 10.1 installed)\n"
     "- GPU model and memory: A100-SXM4-40GB\n```\nimport tensorflow as tf\ntf.constant(0)\n```\n"
     "yields the error \"Status: device kernel image is invalid\".\n",
     "status.kernel_image_invalid", "the build has no kernels for this GPU: TensorFlow 2.4 or newer"),
    # https://github.com/datamachines/cuda_tensorflow_opencv/issues/11 (an image with TF 2.3.1 for CUDA 10.2)
    ("When I use this image datamachines/cudnn_tensorflow_opencv:10.2_2.3.1_4.5.0-20201204, tf will have problems.\n"
     '  File "/usr/local/lib/python3.8/dist-packages/tensorflow/python/client/device_lib.py", line 43, in list_local_devices\n'
     "RuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid\n",
     "status.kernel_image_invalid", "Compare the driver with the build"),
    # guard: outside TensorFlow the driver reading stays first (a CUDA binary with no framework)
    ("CU Error CUDA_ERROR_INVALID_IMAGE(200): device kernel image is invalid\n",
     "status.kernel_image_invalid", "upgrade it"),
    # guard: Triton keeps its own answer
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n",
     "status.kernel_image_invalid", "Triton compiles with its own ptxas"),
    # -- TensorFlow's CUDNN_STATUS_NOT_INITIALIZED: the driver it prints against the release's CUDA ------------------
    # https://github.com/localminimum/QANet/issues/5 (TF 1.5 = CUDA 9.0 needs 384.81; "it works after I update driver
    # to 387.34")
    ("2018-03-23 11:55:55.959752: E tensorflow/stream_executor/cuda/cuda_dnn.cc:385] could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2018-03-23 11:55:55.959970: E tensorflow/stream_executor/cuda/cuda_dnn.cc:393] possibly insufficient driver version: 384.69.0\n"
     "tensorflow version: 1.5.0\nCUDA: 9.0\nCudnn: 7.0\nDriver Version: 384.69\n",
     "cudnn.not_initialized", "Upgrade the NVIDIA driver to 384.81 or newer"),
    # https://github.com/tensorflow/tensorflow/issues/34214 (TF 1.14 on CUDA 10.0, RTX 2080: driver 410.48 is CUDA 10.0's
    # minimum, so not the driver; the memory TensorFlow reserved first)
    ("- TensorFlow version: 1.14.0 gpu\n- CUDA/cuDNN version: cuda 10.0 ,cudnn how to know the version ?\nGPU RTX 2080 10989MiB\n"
     "2019-11-13 11:58:28.507273: I tensorflow/stream_executor/platform/default/dso_loader.cc:42] Successfully opened dynamic library libcublas.so.10.0\n"
     "2019-11-13 11:58:28.790550: I tensorflow/stream_executor/platform/default/dso_loader.cc:42] Successfully opened dynamic library libcudnn.so.7\n"
     "2019-11-13 11:58:28.791219: E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2019-11-13 11:58:28.791275: E tensorflow/stream_executor/cuda/cuda_dnn.cc:337] Possibly insufficient driver version: 410.48.0\n",
     "cudnn.not_initialized", "TF_FORCE_GPU_ALLOW_GROWTH=true"),
    # https://github.com/nanoporetech/medaka/issues/236 (medaka on TF 2.2 = CUDA 10.1, driver 418.87 runs it)
    ("I am running the medaka consensus command with tensorflow 2.2.0 (medaka consensus --model r941_min_high_g351 --threads 4)\n"
     "2020-12-23 20:09:14.497776: E tensorflow/stream_executor/cuda/cuda_dnn.cc:328] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2020-12-23 20:09:14.497855: E tensorflow/stream_executor/cuda/cuda_dnn.cc:336] Possibly insufficient driver version: 418.87.0\n"
     "2020-12-23 20:09:14.497879: F tensorflow/core/kernels/cudnn_rnn_ops.cc:1643] Check failed: stream->parent()->GetRnnAlgorithms(&algorithms)\n",
     "cudnn.not_initialized", "TF_FORCE_GPU_ALLOW_GROWTH=true"),
    # guard: no release and no runtime soname in the log: the line alone is no evidence, the checks stay first
    # (https://github.com/stephen-v/tensorflow_alexnet_classify/issues/4)
    ("2019-01-23 21:21:11.073710: E tensorflow/stream_executor/cuda/cuda_dnn.cc:455] could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2019-01-23 21:21:11.073913: E tensorflow/stream_executor/cuda/cuda_dnn.cc:463] possibly insufficient driver version: 384.145.0\n",
     "cudnn.not_initialized", "If `nvidia-smi` shows the GPU's memory (nearly) full"),
    # guard: torch's wording keeps the entry's checks
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n",
     "cudnn.not_initialized", "If `nvidia-smi` shows the GPU's memory (nearly) full"),
    # -- guards -----------------------------------------------------------------------------------------------------
    # a CMake version check is not Bazel's (stays unclaimed by this entry)
    # a program bug beside a TensorFlow build stays a program bug
    ("You have bazel 6.5.0 installed.\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered\n",
     "program.illegal_address", ""),
]

test_first_answer = first_answer_tests(CASES[:-1])
test_program_bug = first_answer_tests(CASES[-1:], verdicts=True)


def test_tf_table_rows():
    """The table is tensorflow.org's: TF 2.3 was built with CUDA 10.1 and Bazel 3.1.0, TF 1.13 with Bazel 0.19.2."""
    assert tf_build("2.3")["cuda"] == "10.1" and tf_build("2.3")["bazel"] == "3.1.0"
    assert tf_build("1.13")["bazel"] == "0.19.2"
    assert tf_build("9.9") is None


def test_cmake_version_is_not_bazel():
    """A CMake minimum-version error names no Bazel: not answered as one."""
    text = "CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n  CMake 3.18 or higher is required.  You are running version 3.16.3\n"
    assert "tf.bazel_version_range" not in [m.id for m in explain(text)]


def test_bazelversion_answer_names_no_tensorflow():
    """Bazel's launcher speaks for any Bazel project (mediapipe, envoy, jaxlib too): the title and cause claim no
    TensorFlow the log does not show (https://github.com/tensorflow/tflite-micro/pull/824's line, path cut)."""
    text = ("ERROR: The project you're trying to build requires Bazel 4.2.2 (specified in /src/.bazelversion), "
            "but it wasn't found in /usr/local/lib/bazel/bin.\n")
    m = next(m for m in explain(text) if m.id == "tf.bazel_version_range")
    assert "TensorFlow" not in m.title
