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

from explain_answers import first_answer_tests

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
    ("FAILED_PRECONDITION: DNN library initialization failed.\n"
     "If you run `pip show jaxlib` you should get an output specifying \"Version: 0.4.13+cuda11.cudnn86\". "
     "I was installing cudnn incorrectly.",
     "status.framework_took_gpu_memory", "Install cuDNN 8.6"),
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
    # https://github.com/jax-ml/jax/issues/19768 (driver 470.182 printed under a jaxlib of 2024-02; CUDA 12 needs 525+;
    # jthlab/phlash#31, same message family: "I solved this issue by upgrading the NVIDIA Drivers")
    ("bash-4.2$ python3 -c \"import jax; jax.numpy.zeros(0)\"\n"
     "2024-02-12 20:36:44.949913: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:474] Could not create cudnn "
     "handle: CUDNN_STATUS_NOT_INITIALIZED\n2024-02-12 20:36:44.950054: E external/xla/xla/stream_executor/cuda/"
     "cuda_dnn.cc:478] Memory usage: 42069065728 bytes free, 42505273344 bytes total.\n2024-02-12 20:36:44.950107: "
     "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:488] Possibly insufficient driver version: 470.182.3",
     "cudnn.not_initialized", "525 or newer"),
    # --- NCCL: ncclRemoteError, with the launcher's NCCL_SOCKET_IFNAME in the log: the interface ---------
    # https://github.com/NVIDIA/nccl/issues/1141 (its reporter's fix: "I can't use 'eno1' interface, which is
    # strange. So i use the 'br0' finally", on both nodes)
    ("my hostfile:\n192.168.3.100 slots=2\n192.168.3.101 slots=2\n"
     "export NCCL_IB_DISABLE=1\nexport NCCL_SOCKET_IFNAME=eno1\nexport NCCL_P2P_DISABLE=1\nexport NCCL_DEBUG=INFO\n\n"
     "[2024-01-08 16:13:56,462] [INFO] [multinode_runner.py:80:get_cmd] Running on the following workers: "
     "192.168.3.100,192.168.3.101\ntorch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
     "ProcessGroupNCCL.cpp:1333, remote process exited or there was a network error, NCCL version 2.18.6",
     "nccl.remote_error", "ip -br addr"),
    # --- without it: the peer the "Last error" names (its node, its rank) -----------------------------------
    # https://github.com/NVIDIA/nccl/issues/2076 ("Some of the nodes had IB (infiniband) issues. It's been sorted.")
    ("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, "
     "remote process exited or there was a network error, NCCL version 2.21.5\nncclRemoteError: A call failed "
     "possibly due to a network error or a remote process exiting prematurely.\nLast error:\nsocketProgressOpt: "
     "Call to recv from 172....<33759> failed : Connection reset by peer",
     "nccl.remote_error", "Find the rank or node that failed first"),
    # https://github.com/NVIDIA/nccl/issues/795 (two AWS nodes; "We see a seg fault before this error log. So the
    # NCCL error could be indeed caused by a remote rank crashing.")
    ("a100-st-p4d24xlarge-22:183006:183220 [1] misc/socket.cc:518 NCCL WARN Net : Call to recv from "
     "10.200.84.247<58355> failed : Broken pipe\na100-st-p4d24xlarge-22:183006:183220 [1] NCCL INFO misc/socket.cc:535 -> 6\n"
     "a100-st-p4d24xlarge-22:183006:183220 [1] proxy.cc:1119 NCCL WARN [Proxy Service 9] Failed to execute operation "
     "Connect from rank 9, retcode 6",
     "nccl.remote_error", "Find the rank or node that failed first"),
]


test_first_answer_follows_the_evidence = first_answer_tests(CASES)
