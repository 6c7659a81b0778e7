"""Round 22 (helper tb): fresh22's burned misses fixed as families, each with the fresh22 log's deciding lines, a
second real member of the family and a near miss that keeps its answer.

- gpu.busy_exclusive: CUDA status 216 (cudaErrorDeviceAlreadyInUse, 54 before CUDA 10.1; the driver's
  CUDA_ERROR_CONTEXT_ALREADY_IN_USE) comes from the exclusive-thread compute mode: the mode set back to DEFAULT or
  EXCLUSIVE_PROCESS first (fresh22 v39, TensorFlow's "(0 vs. 216)"); status.yaml maps the number to the entry.
- driver.unknown_error: cuInit's unknown error inside a Flatpak app: the sandbox cannot run the setuid nvidia-modprobe
  that loads nvidia_uvm and creates /dev/nvidia-uvm, so the host must (fresh22 v38).
- nccl.p2p_blocked_by_iommu_acs: NCCL's own tests stopping right after their table header (no result row, no error):
  the first collective hung, PCIe ACS first (fresh22 v40).
- runtime.cuda_library_not_found: a TensorRT library missing on a Jetson: TensorRT is JetPack's (nvidia-tensorrt), not
  NVIDIA's tar or a wheel; fresh22 v36's log is the one loader line and names no Jetson, so it keeps the general
  TensorRT answer, whose fallback now names JetPack's package.
- zed.no_gpu_compatible: the ZED SDK's "No compatible device found" / NO_GPU_COMPATIBLE / "NO GPU COMPATIBLE": the
  SDK's CUDA build, the GPU and the CUDA libraries loaded must agree (fresh22 v37: another CUDA's libraries left over).

Each text is copied from the thread named above it (or from the producer's source, marked so)."""

from __future__ import annotations

import re

import pytest
import yaml

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, unbounded_beyond_blanks

CASES = [
    # --- gpu.busy_exclusive: the exclusive-thread compute mode (status 216)
    # https://github.com/tensorflow/tensorflow/issues/526 (fresh22 v39: K40m in "E. Thread"; the StreamExecutor owner:
    # "caused in all cases by GPUs with their compute mode set to EXCLUSIVE_THREAD")
    ("Check failed: CUDA_SUCCESS == dynload::cuCtxSetCurrent(context) (0 vs. 216)\n\n++ python cifar10_train.py\n"
     "I tensorflow/core/common_runtime/gpu/gpu_init.cc:102] Found device 0 with properties: \nname: Tesla K40m\n",
     "gpu.busy_exclusive", "--compute-mode=0"),
    # https://github.com/apache/mxnet/issues/2632 (MXNet's check on the nodes whose GPUs were in exclusive-thread mode)
    ("[09:59:36] /home/wenjing/software/mxnet/mshadow/mshadow/./tensor_gpu-inl.h:35: Check failed: e == cudaSuccess "
     "CUDA: exclusive-thread device already in use by a different thread\n",
     "gpu.busy_exclusive", "--compute-mode=0"),
    # the driver API's name, in numba's frame (numba/cuda/cudadrv/driver.py: "Call to %s results in %s")
    ("numba.cuda.cudadrv.driver.CudaAPIError: [216] Call to cuCtxPushCurrent results in "
     "CUDA_ERROR_CONTEXT_ALREADY_IN_USE\n",
     "gpu.busy_exclusive", "--compute-mode=0"),
    # near miss: https://github.com/NVIDIA/DIGITS/issues/2005 (status 46 on a K40m in "E. Process": another process
    # holds it) keeps the entry's own first fix
    ("Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or unavailable\n",
     "gpu.busy_exclusive", "Give each process its own GPU"),

    # --- driver.unknown_error inside a Flatpak
    # https://github.com/mkiol/dsnote/issues/111 (fresh22 v38: no /dev/nvidia-uvm on the host; nvidia-modprobe)
    ("/app/extensions/nvidia/lib/python3.11/site-packages/torch/cuda/__init__.py:141: UserWarning: CUDA initialization: "
     "CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable "
     "CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero. (Triggered internally at "
     "../c10/cuda/CUDAFunctions.cpp:108.)\n"
     "[W] 18:45:34.438195691.438 0x72ab2e18cd00 operator():417 - cuInit error: CUDA_ERROR_UNKNOWN (999)\n",
     "driver.unknown_error", "sudo nvidia-modprobe -u -c=0"),
    # https://github.com/flatpak/flatpak/issues/6047 (OBS's Flatpak; "an issue of lacking the nvidia_uvm kernel module
    # and associated device nodes")
    ("### Flatpak version\n\n1.14.10\n\n### What Linux distribution are you using?\n\nDebian\n\n### Actual Behavior\n\n"
     "`init_cuda_ctx: CUDA call \"cu->cuInit(0)\" failed with CUDA_ERROR_UNKNOWN (999): unknown error`\n",
     "driver.unknown_error", "sudo nvidia-modprobe -u -c=0"),
    # https://github.com/flathub/org.blender.Blender/issues/147 (works after a non-Flatpak Blender ran; not after a
    # reboot; the maintainer's `flatpak run --device=all org.blender.Blender --verbose 5`)
    ("terminal says:\n\nCUDA cuInit: Unknown error\n\n"
     "flatpak run --device=all org.blender.Blender --verbose 5\n",
     "driver.unknown_error", "sudo nvidia-modprobe -u -c=0"),
    # near miss: a Docker image's /app (a WORKDIR, no Flatpak) keeps the container's answer
    ("root@3f2a1b4c5d6e:/app# python main.py\n  File \"/app/main.py\", line 3, in <module>\n"
     "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env "
     "variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.\n",
     "driver.unknown_error", "On the host: `nvidia-smi` and a CUDA program must work there"),

    # --- nccl.p2p_blocked_by_iommu_acs: nccl-tests' header and nothing after it
    # https://github.com/NVIDIA/nccl/issues/104 (fresh22 v40: 8 M40s; ACS off on the PCIe switches fixed it)
    ("Using devices\n   Rank  0 uses device  0 [0x05] Tesla M40 24GB\n   Rank  1 uses device  1 [0x08] Tesla M40 24GB\n"
     "\n                                                 out-of-place                    in-place\n"
     "      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n",
     "nccl.p2p_blocked_by_iommu_acs", "sudo lspci -vvv | grep ACSCtl"),
    # https://github.com/NVIDIA/nccl/issues/85 ("it stalled after outputs the following text"; "First things first, can
    # you check ACS is not enabled on your system ?")
    ("# Using devices\n#   Rank  0 uses device  0 [0x02] Tesla P100-PCIE-16GB\n"
     "#   Rank  1 uses device  1 [0x03] Tesla P100-PCIE-16GB\n\n"
     "#                                                 out-of-place                    in-place\n"
     "#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n",
     "nccl.p2p_blocked_by_iommu_acs", "sudo lspci -vvv | grep ACSCtl"),
    # today's nccl-tests columns and units line (nccl-tests src/common.cu prints them before the first size)
    ("# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
     "validation: 1 graph: 0\n#\n# Using devices\n#  Rank  0 Group  0 Pid  70918 on host device  0 [0x01] NVIDIA RTX A6000\n"
     "#  Rank  1 Group  0 Pid  70918 on host device  1 [0x02] NVIDIA RTX A6000\n#\n"
     "#                                                              out-of-place                       in-place\n"
     "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
     "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n",
     "nccl.p2p_blocked_by_iommu_acs", "sudo lspci -vvv | grep ACSCtl"),

    # --- runtime.cuda_library_not_found: TensorRT on a Jetson
    # https://github.com/triton-inference-server/server/issues/3030 (the thread of fresh22 v36: "I missed install
    # tensorrt in flashing jetpack os ... I reinstall jetpack os. And everything is working well.")
    ("Trying to install triton for jetpack on my NVidia jetson agx xavier. \n"
     "error while loading shared libraries: libnvinfer.so.7: cannot open shared object file: No such file or directory\n"
     "I used Nvidia jetson agx xavier.\nAnd jetpack 4.5.1 is installed in my device.\n",
     "runtime.cuda_library_not_found", "sudo apt-get install nvidia-tensorrt"),
    # https://github.com/dusty-nv/jetson-inference/issues/1371 (JetPack upgraded to 4.6, whose TensorRT is 8)
    ("  File \"/usr/lib/python3.6/dist-packages/jetson/inference/__init__.py\", line 8, in <module>\n"
     "    from jetson_inference_python import *\n"
     "ImportError: libnvinfer.so.7: cannot open shared object file: No such file or directory\n",
     "runtime.cuda_library_not_found", "dpkg -l | grep -E 'nvinfer|tensorrt'"),
    # near miss: the fresh22 v36 log itself (no Jetson named) keeps the general TensorRT answer
    ("error while loading shared libraries: libnvinfer.so.7: cannot open shared object file: No such file or directory\n",
     "runtime.cuda_library_not_found", "Find TensorRT's lib directory and put it on the loader path"),
    # near miss: https://github.com/jkjung-avt/tensorrt_demos/issues/517 (TensorRT 8.2.1.8's tar on an x86 Ubuntu)
    # keeps the answer for a tar whose lib/ is not on the loader path
    (" im using tensorrt 8.2.1.8 ,cuda 11.5 on ubantu 20.04 system \n\n im getting this issue\n ImportError: "
     "libnvinfer.so.8: cannot open shared object file: No such file or directory\n",
     "runtime.cuda_library_not_found", "Put TensorRT 8.2.1.8's lib directory on the loader path"),

    # --- zed.no_gpu_compatible
    # https://github.com/stereolabs/zed-ros-wrapper/issues/4 (fresh22 v37: CUDA 7.5 libraries left over beside the
    # SDK's CUDA 6.5; removing cuda-* and reinstalling 6.5 and the SDK fixed it)
    ("ZED SDK >> (Init) No compatible device found, disparity map unavailable8 - 0\n"
     "[ INFO] [1444375194.755167596]: NO_GPU_COMPATIBLE\n",
     "zed.no_gpu_compatible", "sudo apt-get remove 'cuda-*'"),
    # https://github.com/stereolabs/zed-ros-wrapper/issues/146 (GTX 1050 Ti with ZED SDK 1.1.0 on CUDA 7.5)
    ("ZED SDK >> (Init) Best GPU Found : GeForce GTX 1050 Ti , ID : 0\n"
     "ZED SDK >> (Init) Disparity mode has been set to PERFORMANCE\nZED SDK >> (Init) Creating ZED GPU mem...\n"
     "ZED SDK >> (Init) Starting Self-Calibration in background... \n"
     "ZED SDK >> (Init) No compatible NVIDIA device found, disparity map unavailable.\n",
     "zed.no_gpu_compatible", "a GTX 10xx needs an SDK for CUDA 8 or newer"),
    # https://github.com/stereolabs/zed-sdk/issues/536 (a 940MX with the SDK for CUDA 11; the maintainer: "install CUDA
    # 10.2 and the ZED SDK for this version") and https://github.com/stereolabs/zed-sdk/issues/452 (SDK 3.x's wording)
    ("I run tutorial 1 code on Windows with CUDA 11.7 installed.\nI installed ZED SDK 3.8.2. \n\n"
     "When I run the tutorial, I have the following error.\n`Error NO GPU COMPATIBLE, exit program.`\n",
     "zed.no_gpu_compatible", "Use the ZED SDK build made for a CUDA release that supports this GPU"),
    ('3. Also when I tried to build some sample code and ran it became like this=> "[Sample][Error] Open Camera  | NO '
     'GPU COMPATIBLE : An NVIDIA GPU (Kepler or newer) is required to run this software."\n',
     "zed.no_gpu_compatible", "Use the ZED SDK build made for a CUDA release that supports this GPU"),
    # near miss: https://github.com/stereolabs/zed-ros-wrapper/issues/874 (the SDK's own "NVIDIA DRIVER OUT OF DATE" and
    # status 35 on a Jetson Nano) keeps the driver's answer
    ("[ INFO] [1669890207.268928840]: ZED connection -> NVIDIA DRIVER OUT OF DATE\n"
     "CUDA error at Camera.cpp:121 code=35(cudaErrorInsufficientDriver) \"void sl::Camera::close()\" \n",
     "runtime.insufficient_driver", ""),
]

test_first_answer = first_answer_tests(CASES)


# near misses with no environment answer: nccl-tests that printed their rows (a run that works)
# https://github.com/NVIDIA/nccl/issues/36 (the TitanX node's run, beside the M40 node that hung)
NCCL_RAN = ("# Using devices\n#   Rank  0 uses device  0 [0x04] GeForce GTX TITAN X\n"
            "#   Rank  1 uses device  1 [0x05] GeForce GTX TITAN X\n\n"
            "#                                                 out-of-place                    in-place\n"
            "#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n"
            "         100           100    char     sum    0.038   0.00   0.00    0e+00    0.046   0.00   0.00    0e+00\n"
            "         100           100    char    prod    0.032   0.00   0.00    0e+00    0.046   0.00   0.00    0e+00\n")


def test_tensorrt_missing_without_a_jetson_named_names_jetpack_in_its_fallback():
    # fresh22 v36's log is its one loader line: the general answer's second line says what a Jetson installs
    (m,) = [m for m in explain("error while loading shared libraries: libnvinfer.so.7: cannot open shared object "
                               "file: No such file or directory\n") if m.environment]
    assert "sudo apt-get install nvidia-tensorrt" in m.fix.splitlines()[1]


def test_nccl_tests_that_printed_their_rows_are_no_hang():
    assert not [m.id for m in explain(NCCL_RAN) if m.environment]
    # nor when the rows follow after more than the header's own window (the log's end decides, not the next lines)
    assert not [m.id for m in explain(NCCL_RAN + NCCL_RAN.split("\n", 6)[-1] * 3) if m.environment]


# --- the new patterns stay linear on hostile input: every unbounded repeat in them is a run of blanks or a bounded
# class (no `.*`, no `[^\n]*`), so a 200 000-character line built from their own literals costs one pass; checked on
# the parsed pattern, without timing anything, then run on such lines.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    acs = [p for p in entries["nccl.p2p_blocked_by_iommu_acs"]["patterns"] if "algbw" in p]
    busy = [p for p in entries["gpu.busy_exclusive"]["patterns"] if "216" in p or "AlreadyInUse" in p
            or "ALREADY_IN_USE" in p or "exclusive-thread" in p]
    flat = [v["when"]["text"] for v in entries["driver.unknown_error"]["variants"] if "flatpak" in v["when"].get("text", "")]
    zed = entries["zed.no_gpu_compatible"]["patterns"]
    assert len(acs) == 1 and len(busy) == 4 and len(flat) == 1
    return acs + busy + flat + zed


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _new_patterns():
        assert not unbounded_beyond_blanks(p, blanks=" \t#"), p


@pytest.mark.parametrize("literal", [
    "bytes N type op time algbw busbw res time algbw busbw res ",
    "size count type redop root time algbw busbw #wrong time algbw busbw #wrong   ",
    "cuCtxSetCurrent(x) (0 vs. ", "/app/extensions/", "/app/lib/python3.1", "exclusive-thread device ",
    "No compatible NVIDIA device found, ", "NO_GPU_COMPATIBLE NO GPU COMPATIBLE ",
])
def test_hostile_lines_of_the_new_literals_get_no_answer_from_them(literal):
    line = (literal * (200_000 // len(literal) + 1))[:200_000]
    found = [m.id for m in explain(line + "\n")]
    assert "nccl.p2p_blocked_by_iommu_acs" not in found or "algbw" not in literal
