"""Practice round 24 (p24 b, the run side): the misses of a practice set of public threads, fixed as families, each with
the practice log's own lines, a second real member of the family from another public thread, and a near miss that keeps
its answer.

- runtime.no_device / runtime.libcuda_not_found / driver.unknown_error: TensorFlow's own diagnosis after a failed cuInit,
  "no NVIDIA GPU device is present: /dev/nvidia0 does not exist": the process has no GPU device node, a container started
  without the GPU (no `--gpus`, or `--runtime=nvidia` with an image that does not set NVIDIA_VISIBLE_DEVICES). With the
  driver's library missing too, libcuda_not_found's variant says the same; TensorFlow's "CUDA_ERROR_UNKNOWN" above it is
  no driver in a bad state.
- container.driver_too_old: nvidia-docker's first wording of its CUDA check, "unsupported CUDA version: 7.5 < 6.5"
  (image, driver), read as the later "driver X < image Y".
- cudnn.not_initialized: torch 1.8.0's CUDA 10.2 build (pip's default for that release) could not start cuDNN on Turing
  and newer GPUs; 1.8.1 fixed it.

Each text is copied from the thread named above it."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, unbounded_beyond_blanks, hostile_line

CASES = [
    # --- runtime.no_device: TensorFlow finds no /dev/nvidia0
    # https://github.com/NVIDIA/nvidia-docker/issues/904 (practice 07: `--runtime nvidia` with an s2i-built image)
    ("nvidia is not installed in docker container when I run image with \"--runtime nvidia\" so I am getting the "
     "following error when I import tensorflow \n"
     "2019-01-13 12:15:38.183238: I tensorflow/core/platform/cpu_feature_guard.cc:141] Your CPU supports instructions "
     "that this TensorFlow binary was not compiled to use: AVX2 FMA\n"
     "2019-01-13 12:15:38.188659: E tensorflow/stream_executor/cuda/cuda_driver.cc:300] failed call to cuInit: UNKNOWN "
     "ERROR (-1)\n"
     "2019-01-13 12:15:38.188700: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:157] no NVIDIA GPU device is "
     "present: /dev/nvidia0 does not exist\n"
     "Device mapping:\n/job:localhost/replica:0/task:0/device:XLA_GPU:0 -> device: XLA_GPU device\n",
     "runtime.no_device", "start it with the GPU, `docker run --gpus all"),
    # https://github.com/tensorflow/tensorflow/issues/41785 (tensorflow:latest-gpu-jupyter under `docker run` without
    # --gpus; `docker run --gpus all nvidia/cuda:10.0-base nvidia-smi` worked)
    ("    docker run -it -p 8888:8888 tensorflow/tensorflow:latest-gpu-jupyter jupyter notebook --notebook-dir=/tf\n"
     "    2020-07-27 19:44:03.826149: I tensorflow/stream_executor/platform/default/dso_loader.cc:44] Successfully opened "
     "dynamic library libcuda.so.1\n"
     "    2020-07-27 19:44:03.826179: E tensorflow/stream_executor/cuda/cuda_driver.cc:313] failed call to cuInit: "
     "UNKNOWN ERROR (-1)\n"
     "    2020-07-27 19:44:03.826201: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] no NVIDIA GPU device "
     "is present: /dev/nvidia0 does not exist\n",
     "runtime.no_device", "start it with the GPU, `docker run --gpus all"),
    # near miss: TensorFlow's other diagnosis, no kernel module at all (/proc/driver/nvidia/version missing), keeps its
    # entry (minimaxir/gpt-2-cloud-run#17)
    ("2020-01-16 12:58:56.907168: E tensorflow/stream_executor/cuda/cuda_driver.cc:318] failed call to cuInit: UNKNOWN "
     "ERROR (303)\n"
     "2020-01-16 12:58:56.907187: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not "
     "appear to be running on this host (a88f782966c0): /proc/driver/nvidia/version does not exist\n",
     "driver.not_loaded", ""),
    # near miss: CUDA's "no CUDA-capable device" without TensorFlow's device-node line keeps the entry's answer (the
    # entry's own example)
    ("RuntimeError: CUDA error: no CUDA-capable device is detected\n",
     "runtime.no_device", "`nvidia-smi` must list the GPU"),

    # --- runtime.libcuda_not_found: no libcuda.so.1 and no /dev/nvidia0
    # https://github.com/tensorflow/tensorflow/issues/38685 (practice 04: `ENV NVIDIA_VISIBLE_DEVICES all` and
    # `ENV NVIDIA_DRIVER_CAPABILITIES compute,utility` in the Dockerfile solved it)
    ("2020-04-19 05:56:24.050072: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
     "library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "2020-04-19 05:56:24.050125: E tensorflow/stream_executor/cuda/cuda_driver.cc:351] failed call to cuInit: UNKNOWN "
     "ERROR (303)\n"
     "2020-04-19 05:56:24.050149: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] no NVIDIA GPU device is "
     "present: /dev/nvidia0 does not exist\n",
     "runtime.libcuda_not_found", "In a container: start it with the GPU, `docker run --gpus all"),
    # https://github.com/iterative/cml/issues/508 (the cml GPU image as a GitHub Actions job container)
    ("2021-05-11 08:20:01.502470: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic "
     "library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory; "
     "LD_LIBRARY_PATH: /__w/_tool/Python/3.8.10/x64/lib:/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
     "2021-05-11 08:20:01.502492: W tensorflow/stream_executor/cuda/cuda_driver.cc:326] failed call to cuInit: UNKNOWN "
     "ERROR (303)\n"
     "2021-05-11 08:20:01.502527: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] **no NVIDIA GPU device is "
     "present: /dev/nvidia0 does not exist\nNum GPUs Available:  0**\n",
     "runtime.libcuda_not_found", "In a container: start it with the GPU"),
    # near miss: libcuda.so.1 missing where TensorFlow saw the kernel module and no device-node line keeps the r10 answer
    # (tensorflow/tensorflow#6233)
    ("I tensorflow/stream_executor/dso_loader.cc:105] Couldn't open CUDA library libcuda.so.1. LD_LIBRARY_PATH: "
     "/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] kernel reported version is: 367.57.0\n",
     "runtime.libcuda_not_found", "Find it and put its directory in the loader cache"),

    # --- container.driver_too_old: nvidia-docker's first wording, image first and driver second
    # https://github.com/NVIDIA/nvidia-docker/issues/68 (practice 02: the maintainer, a 7.5 image on a 6.5 driver)
    ("$ nvidia-docker run --rm nvidia/cuda nvidia-smi \n"
     "nvidia-docker | 2016/04/09 00:07:59 Error: unsupported CUDA version: 7.5 < 6.5\n",
     "container.driver_too_old", "CUDA Version 7.5 or newer"),
    # the later wording of the same check, both sides named (NVIDIA/nvidia-docker#207): the same answer
    ("nvidia-docker | 2016/09/23 23:21:01 Error: unsupported CUDA version: driver 7.0 < image 8.0\n",
     "container.driver_too_old", "CUDA Version 8.0 or newer"),

    # --- cudnn.not_initialized: torch 1.8.0's CUDA 10.2 build
    # https://github.com/pytorch/pytorch/issues/53896 (practice 09: RTX 2070 SUPER; 1.8.1 fixed it, #53336)
    ("    self.padding, self.dilation, self.groups)\n"
     "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n"
     "PyTorch version: 1.8.0\nIs debug build: False\nCUDA used to build PyTorch: 10.2\n"
     "GPU models and configuration: \nGPU 0: GeForce RTX 2070 SUPER\n",
     "cudnn.not_initialized", "Install torch 1.8.1 (or newer)"),
    # https://github.com/czq142857/NMC/issues/5 (RTX 2080 Ti; the reporter's collect_env, its first letter cut off;
    # reinstalling fixed it)
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\nWhen run testmode\n"
     "yTorch version: 1.8.0\nIs debug build: False\nCUDA used to build PyTorch: 10.2\nROCM used to build PyTorch: N/A\n"
     "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 2080 Ti\nNvidia driver version: 515.65.01\n"
     "[pip3] torch==1.8.0\n",
     "cudnn.not_initialized", "Install torch 1.8.1 (or newer)"),
    # near miss: torch 1.8.0 in its CUDA 11.1 build keeps the entry's answer (Turoad/CLRNet#24's working build)
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n"
     "pip install torch==1.8.0+cu111 torchvision==0.9.0+cu111 torchaudio==0.8.0 -f "
     "https://download.pytorch.org/whl/torch_stable.html\n",
     "cudnn.not_initialized", "If `nvidia-smi` shows the GPU's memory (nearly) full"),
]

test_first_answer = first_answer_tests(CASES)


def test_a_cuinit_unknown_error_beside_a_missing_device_node_is_no_driver_in_a_bad_state():
    # TensorFlow 0.x in a container started without the GPU (the -gpu images under plain docker, tensorflow/tensorflow#808)
    text = ("E tensorflow/stream_executor/cuda/cuda_driver.cc:491] failed call to cuInit: CUDA_ERROR_UNKNOWN\n"
            "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:147] no NVIDIA GPU device is present: /dev/nvidia0 "
            "does not exist\n")
    ids = [m.id for m in explain(text)]
    assert ids[0] == "runtime.no_device" and "driver.unknown_error" not in ids, ids
    # without the device-node line the unknown error keeps its entry
    assert explain(text.splitlines()[0] + "\n")[0].id == "driver.unknown_error"


def test_the_practice_program_bug_gets_no_environment_claim():
    # https://github.com/gunrock/gunrock/issues/757 (practice 11: an illegal address on any device but 0, fixed in
    # gunrock#756): cuda-gdb's report of the program's own kernel
    text = ("Thread 1 \"test_pr_10.2_x8\" received signal CUDA_EXCEPTION_14, Warp Illegal Address.\n"
            "[Switching focus to CUDA kernel 0, grid 3, block (80,0,0), thread (128,0,0), device 1, sm 0, warp 13, "
            "lane 0]\n"
            "0x000055555faf8250 in gunrock::graph::Coo<unsigned int, unsigned int, double, 1024u, 0u, true>::"
            "GetEdgeSrcDest (this=0x7ffea5fff9d8, \n    e=0x7ffea5fffcc8, src=0x7ffea5fff63c, dest=0x7ffea5fff640) at "
            "/home/mosama/forks/gunrock/examples/pr/../../gunrock/graph/coo.cuh:620\n"
            "620         src = pair.x;\n")
    assert not [m.id for m in explain(text) if m.environment]


# --- the new patterns stay linear on hostile input: every unbounded repeat in them is a run of blanks, so a
# 200 000-character line built from their own literals costs one pass; checked on the parsed pattern, without timing.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    node = "no NVIDIA GPU device is present"
    out = [p for p in entries["runtime.no_device"]["patterns"] if node in p]
    out += [v["when"]["text"] for e in ("runtime.no_device", "runtime.libcuda_not_found")
            for v in entries[e]["variants"] if node in v["when"].get("text", "")]
    out += [p for p in entries["driver.unknown_error"]["unless"] if node in p]
    out += [p for p in entries["container.driver_too_old"]["patterns"] if p.startswith("nvidia-docker")]
    out += [v["when"]["text"] for v in entries["cudnn.not_initialized"]["variants"] if "1\\.8\\.0" in v["when"].get("text", "")]
    assert len(out) == 6, out
    return out


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _new_patterns():
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "no NVIDIA GPU device is present: /dev/nvidia0 does not exist ",
    "no NVIDIA GPU device is present: /dev/nvidia",
    "nvidia-docker | 2016/04/09 00:07:59 Error: unsupported CUDA version: 7.5 < ",
    "PyTorch version: 1.8.0 ", "Torch version: 1.8.0\n", "torch 1.8.0 ", "1.8.0+cu102 CUDNN_STATUS_NOT_INITIALIZED ",
])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")
