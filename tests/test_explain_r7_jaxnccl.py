"""Issue 18, round 7, helper "jaxnccl": the first answer follows the log's evidence for two families.

* JAX/TF "Could not create cudnn handle" / "DNN library initialization failed": memory versus the cuDNN
  library is decided by the "Memory usage: F bytes free, T bytes total" line the stream executor prints
  under it (< 10% free: memory), by the framework (JAX leaves a quarter of the memory for cuDNN;
  TensorFlow takes nearly all), by TensorFlow imported beside JAX, and by the cuDNN a jaxlib's local tag
  names (`+cuda11.cudnn86`).
* NCCL at init: "remote process exited or there was a network error" (ncclRemoteError) with the
  launcher's NCCL_SOCKET_IFNAME and node addresses in the log.

Excerpts are quoted (trimmed) from the thread above each.
"""

from __future__ import annotations

import pytest

from explain_answers import assert_first_answer

CASES = [
    # --- JAX: cuDNN handle with a quarter of the memory free: the library, not preallocation ---------------
    # https://github.com/jax-ml/jax/issues/15774 (GTX 1650: "I didn't install cuDNN 8.9 after CUDA toolkit 12.1")
    ("import jax.numpy as np\n\nt = np.ones(5)\n"
     "2023-04-27 18:06:04.839079: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:429] Could not create cudnn "
     "handle: CUDNN_STATUS_INTERNAL_ERROR\nXlaRuntimeError                           Traceback (most recent call last)\n"
     "File ~/anaconda3/lib/python3.9/site-packages/jax/_src/numpy/lax_numpy.py:2092",
     "status.framework_took_gpu_memory", 'pip install -U "jax[cuda12]"'),
    # https://github.com/jax-ml/jax/issues/22533 (21% free; the reporter installed the cuDNN 8.6 their jaxlib
    # was built for, as told in escontra/viper_rl#8)
    ("2024-07-19 15:49:01.341533: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Could not create cudnn "
     "handle: CUDNN_STATUS_INTERNAL_ERROR\n2024-07-19 15:49:01.341571: E external/xla/xla/stream_executor/cuda/"
     "cuda_dnn.cc:443] Memory usage: 2624061440 bytes free, 12524191744 bytes total.\nTraceback (most recent call "
     "last):\n  File \"scripts/train_vqgan.py\", line 32, in main\n    rng = jax.random.PRNGKey(config.seed)\n"
     "  File \"/home/nonsans/miniforge3/envs/viper/lib/python3.8/site-packages/jax/_src/random.py\", line 160, in PRNGKey",
     "status.framework_took_gpu_memory", 'pip install -U "jax[cuda12]"'),
    # https://github.com/escontra/viper_rl/issues/8 ("Version: 0.4.13+cuda11.cudnn86" ... "Download cuDNN 8.6.0")
    ("jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.\n"
     "If you run `pip show jaxlib` you should get an output specifying \"Version: 0.4.13+cuda11.cudnn86\". "
     "I was installing cudnn incorrectly.",
     "status.framework_took_gpu_memory", "Install cuDNN 8.6"),
    # https://github.com/jax-ml/jax/issues/15742 (jaxlib 0.4.7+cuda11.cudnn86: AlphaFold-Multimer)
    ("jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the "
     "errors above for more details.\n\n### What jax/jaxlib version are you using?\n\njax version 0.4.8\n"
     "jaxlib version: 0.4.7+cuda11.cudnn86",
     "status.framework_took_gpu_memory", "Install cuDNN 8.6"),
    # https://github.com/jax-ml/jax/issues/23145 (98% free; the newer absl log format of jax-ml/jax#28752 alike)
    ("2024-08-20 16:26:58.037892: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] \n\nCould not create "
     "cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n2024-08-20 16:26:58.037952: E external/xla/xla/stream_executor/"
     "cuda/cuda_dnn.cc:443] Memory usage: 46637514752 bytes free, 47587131392 bytes total.\n  File \"/a/home/cc/"
     "chemist/mikabell/anaconda3/envs/jax-env/lib/python3.8/site-packages/jax/_src/numpy/lax_numpy.py\", line 2035",
     "status.framework_took_gpu_memory", 'pip install -U "jax[cuda12]"'),
    # https://github.com/jax-ml/jax/issues/28752 (absl log lines, no path: the traceback names jax)
    ("E0514 15:42:22.522887 3766360 cuda_dnn.cc:532] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n"
     "E0514 15:42:22.536489 3766360 cuda_dnn.cc:536] Memory usage: 16601251840 bytes free, 16928342016 bytes total.\n"
     "jax.errors.SimplifiedTraceback: For simplicity, JAX has removed its internal frames from the traceback of the "
     "following exception. Set JAX_TRACEBACK_FILTERING=off to include these.",
     "status.framework_took_gpu_memory", 'pip install -U "jax[cuda12]"'),
    # --- JAX with TensorFlow in the same process: TensorFlow's memory ------------------------------------
    # https://github.com/jax-ml/jax/issues/8302 (tensorflow_datasets before a JAX convolution)
    ("import jax.numpy as jnp\nimport jax\n\nimport tensorflow_datasets as tfds\ntfds.load(\"mnist\", split='train')\n"
     "2021-10-20 09:43:47.411003: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_dnn.cc:373] Could "
     "not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n2021-10-20 09:43:47.413757: E external/org_tensorflow/"
     "tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED",
     "status.framework_took_gpu_memory", 'tf.config.set_visible_devices([], "GPU")'),
    # https://github.com/jax-ml/jax/issues/9454 ("DNN library is not found." when tensorflow is loaded before JAX)
    ("import jax.numpy as jnp\nimport tensorflow_datasets as tfds\nfrom flax import linen as nn\n"
     "train_ds = tfds.load(\"cifar10\", split=\"train\", as_supervised=True)\n"
     "RuntimeError: UNKNOWN: Failed to determine best cudnn convolution algorithm for:\n"
     "\"DNN library is not found.\" error when tensorflow is loaded before JAX",
     "status.framework_took_gpu_memory", 'tf.config.set_visible_devices([], "GPU")'),
    # --- NOT_INITIALIZED with the driver XLA printed: older than CUDA 12 needs -----------------------------
    # https://github.com/jax-ml/jax/issues/19768 (driver 470.182 under a CUDA 12 jaxlib)
    ("bash-4.2$ python3 -c \"import jax; jax.numpy.zeros(0)\"\n"
     "2024-02-12 20:36:44.949913: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:474] Could not create cudnn "
     "handle: CUDNN_STATUS_NOT_INITIALIZED\n2024-02-12 20:36:44.950054: E external/xla/xla/stream_executor/cuda/"
     "cuda_dnn.cc:478] Memory usage: 42069065728 bytes free, 42505273344 bytes total.\n2024-02-12 20:36:44.950107: "
     "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:488] Possibly insufficient driver version: 470.182.3",
     "cudnn.not_initialized", "525 or newer"),
]


@pytest.mark.parametrize("text,want_id,want_fix", CASES, ids=[f"case{n}" for n in range(len(CASES))])
def test_first_answer_follows_the_evidence(text, want_id, want_fix):
    assert_first_answer(text, want_id, want_fix)
