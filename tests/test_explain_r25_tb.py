"""Round 25 (helper tb): fresh25's burned run-side misses, fixed as families where a family was found, each with the
fresh25 log's own lines, a real member of the family from another public thread and a near miss that keeps its answer.

- gpu.nvenc_unavailable: ffmpeg's "OpenEncodeSessionEx failed: unsupported device (2)" / "No NVENC capable devices
  found": the GPU has no NVENC (a P106-100 mining card, fresh25 y36; a GeForce MX350, HandBrake#2943); without the
  refusal line ffmpeg's "No capable devices found" gives no reason, and the ffmpeg build comes first (Tdarr's own
  ffmpegPath, fresh25 y39; TNTwise/REAL-Video-Enhancer#250 has the same line).
- opencv.cuda_arch_not_built: OpenCV's "(-216:No CUDA support) OpenCV was not built to work with the selected device":
  the build's CUDA_ARCH_BIN lacks the GPU (fresh25 y41, opencv#18382; opencv#20706).
- omniverse.driver_unsupported: Omniverse Kit's "The currently installed NVIDIA graphics driver is unsupported or has
  known issues" (fresh25 y40, isaac-sim/IsaacAutomator#40; isaac-sim/IsaacLab#4244, its multi-line form).
- status.driver_init_failed: deviceQuery's "cudaGetDeviceCount returned 3" (as 30, 35, 38 and 100 were read already;
  NVIDIA/nvidia-docker#844), and on a Jetson in a container, an L4T image of another release than the host's comes
  first (fresh25 y43, dusty-nv/jetson-containers#149; #725 and #169 the same mismatch).
- runtime.libcuda_not_found: MATLAB's "The CUDA driver could not be loaded" (gpuDevice, gpuArray, trainNetwork) on a
  machine without an NVIDIA GPU: the program's own CPU setting first (fresh25 y37, nightrome/matconvnet-calvin#8 and #6;
  mhlabCodingTeam/SegEM#1, chenjoya/Vehicle_Detection_Recognition#4 with nvcuda.dll).

Left as they were:
- y32 (Blender Cycles' "Illegal address in CUDA queue copy_from_device"): the thread's cause, an unstable factory
  overclock, is confirmed there alone; the same illegal-address message is a program bug in most threads, and the log
  has nothing that tells an unstable GPU apart, so no environment answer fits the family.
- y42 (Oceananigans: a segfault in __memcpy_ssse3 under MPICH's MPIDI_CH3_iSendv): a non-CUDA-aware MPI given GPU
  buffers, but the log names no GPU, CUDA or device array at all, and the maintainer says such a segfault "could be
  caused by any number of issues" (CliMA/Oceananigans.jl#3878); mpi.not_cuda_aware keeps requiring a GPU in the log.

Each text is copied from the thread named above it."""

from __future__ import annotations

import os
import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, unbounded_beyond_blanks, hostile_line

CASES = [
    # --- gpu.nvenc_unavailable: the GPU has no NVENC
    # https://github.com/HandBrake/HandBrake/issues/1998 (fresh25 y36: P106-100, "This card doesn't have NVENC enabled")
    ("[h264_nvenc @ 00000198ad95a9c0] OpenEncodeSessionEx failed: unsupported device (2)\n"
     "[h264_nvenc @ 00000198ad95a9c0] No NVENC capable devices found\n"
     "[22:55:32] encavcodecInit: avcodec_open failed\n",
     "gpu.nvenc_unavailable", "This GPU cannot encode with NVENC"),
    # https://github.com/HandBrake/HandBrake/issues/2943 (a GeForce MX350 laptop)
    ("[h264_nvenc @ 000001af5eaca480] OpenEncodeSessionEx failed: unsupported device (2)\n"
     "[h264_nvenc @ 000001af5eaca480] No NVENC capable devices found\n"
     "[20:10:50] encavcodecInit: avcodec_open failed\n"
     "Failure to initialise thread 'FFMPEG encoder (libavcodec)'\n",
     "gpu.nvenc_unavailable", "This GPU cannot encode with NVENC"),
    # --- gpu.nvenc_unavailable without a reason: the ffmpeg build first
    # https://github.com/HaveAGitGat/Tdarr/issues/745 (fresh25 y39: leaving ffmpegPath blank fixed it on a GTX 1650)
    ("[hevc_nvenc @ 000001580c1fb7c0] No capable devices found\n",
     "gpu.nvenc_unavailable", "let it use the ffmpeg it ships"),
    # https://github.com/TNTwise/REAL-Video-Enhancer/issues/250 (the app's ffmpeg, an RTX 4060 Laptop GPU)
    ("BACKEND: FULL FFMPEG LOG:\n"
     "BACKEND: [av1_nvenc @ 0000021627f791c0] No capable devices found\n"
     "BACKEND: [vost#0:0/av1_nvenc @ 000002162a620b40] [enc:av1_nvenc @ 0000021627f60f40] Error while opening encoder - "
     "maybe incorrect parameters such as bit_rate, rate, width or height.\n",
     "gpu.nvenc_unavailable", "-c:v av1_nvenc"),
    # near miss: NVENC's session limit (status 10) keeps its own entry
    ("[h264_nvenc @ 0x5601aa5b40c0] OpenEncodeSessionEx failed: out of memory (10)\n",
     "driver.nvenc_session_limit", "Run fewer NVENC encode sessions"),

    # --- opencv.cuda_arch_not_built
    # https://github.com/opencv/opencv/issues/18382 (fresh25 y41: "NVIDIA GPU arch: 60 61" for an RTX 2060, 7.5)
    ("classes, confidences, boxes = net.detect(image, confThreshold, nmsThreshold)\n"
     "cv2.error: OpenCV(4.4.0) /home/ycc/opencv-4.4.0/modules/dnn/src/dnn.cpp:2353: error: (-216:No CUDA support) OpenCV "
     "was not built to work with the selected device. Please check CUDA_ARCH_PTX or CUDA_ARCH_BIN in your build "
     "configuration. in function 'initCUDABackend'\n",
     "opencv.cuda_arch_not_built", "Rebuild OpenCV with this GPU's compute capability"),
    # https://github.com/opencv/opencv/issues/20706 (a GTX 745, 5.0, built with CUDA_ARCH_BIN=7.5)
    ("OpenCV(4.5.3) C:\\opencv\\opencv4.5.3\\opencv\\modules\\dnn\\src\\dnn.cpp:2385: error: (-216:No CUDA support) "
     "OpenCV was not built to work with the selected device. Please check CUDA_ARCH_PTX or CUDA_ARCH_BIN in your build "
     "configuration. in function 'cv::dnn::dnn4_v20210608::Net::Impl::initCUDABackend'\n",
     "opencv.cuda_arch_not_built", "Rebuild OpenCV with this GPU's compute capability"),
    # near miss: an OpenCV without the CUDA backend at all (a pip wheel) keeps its entry
    # https://github.com/opencv/opencv/issues/18229
    ("[ WARN:0] global /tmp/pip-req-build-sw_3pm_8/opencv/modules/dnn/src/dnn.cpp (1429) setUpNet DNN module was not "
     "built with CUDA backend; switching to CPU\n"
     "net.setPreferableBackend(cv2.dnn.DNN_BACKEND_CUDA)\n",
     "python.opencv_without_cuda", "See which cv2 is loaded"),

    # --- omniverse.driver_unsupported
    # https://github.com/isaac-sim/IsaacAutomator/issues/40 (fresh25 y40: an AWS image still on the 535 driver)
    ("2025-09-13T15:46:36Z [35,494ms] [Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is "
     "unsupported or has known issues. Reason for failure: The minimum Omniverse RTX requirement on Linux Installed "
     "driver: 535.5 The unsupported driver range: [0.0, 535.129) The recommended drivers: 535.161.07 (GameReady, Studio, "
     "RTX/Quadro, Grid/vGPU) The latest driver version may also work but is not fully tested. 2025-09-13T15:46:36Z "
     "[35,494ms] [Error] [carb.scenerenderer-rtx.plugin] rtx driver verification failed.\n",
     "omniverse.driver_unsupported", "Install the driver Omniverse recommends (535.161.07)"),
    # https://github.com/isaac-sim/IsaacLab/issues/4244 (driver 535.18; the lines apart)
    ("2025-12-18T08:52:52Z [8,385ms] [Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is "
     "unsupported or has known issues.\n"
     "\n"
     "Reason for failure: The minimum Omniverse RTX requirement on Linux\n"
     "Installed driver: 535.18\n"
     "The unsupported driver range: [0.0, 535.129)\n"
     "\n"
     "The recommended drivers: 535.161.07 (GameReady, Studio, RTX/Quadro, Grid/vGPU)\n"
     "The latest driver version may also work but is not fully tested.\n"
     "2025-12-18T08:52:52Z [8,385ms] [Error] [carb.scenerenderer-rtx.plugin] rtx driver verification failed.\n",
     "omniverse.driver_unsupported", "Install the driver Omniverse recommends (535.161.07)"),
    # near miss: a container's driver requirement (fresh25 y34, google-deepmind/alphafold3) keeps its entry
    ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to a newer "
     "version, or use an earlier cuda container: unknown.\n",
     "container.driver_too_old", "Install a host driver for CUDA 12.6 or newer"),

    # --- status.driver_init_failed: deviceQuery's status 3, and an L4T image of another release on a Jetson
    # https://github.com/dusty-nv/jetson-containers/issues/149 (fresh25 y43: r34.1.0 image on an r32.6 Xavier NX)
    ("docker run --rm -it --gpus all nvcr.io/nvidia/l4t-ml:r34.1.0-py3 bash\n"
     "cd /usr/local/cuda/samples/1_Utilities/deviceQuery\n"
     "make\n"
     "./deviceQuery\n"
     "./deviceQuery Starting...\n"
     "\n"
     " CUDA Device Query (Runtime API) version (CUDART static linking)\n"
     "\n"
     "cudaGetDeviceCount returned 3\n"
     "-> initialization error\n"
     "Result = FAIL\n",
     "status.driver_init_failed", "Run the image tag of the host's own L4T release"),
    # https://github.com/NVIDIA/nvidia-docker/issues/844 (deviceQuery in an x86/ppc64le container: no Jetson, the
    # entry's own first fix)
    ("Receive `cudaGetDeviceCount returned 3` when running `deviceQuery` in a container.\n",
     "status.driver_init_failed", "`nvidia-smi` must work in the same place"),

    # --- runtime.libcuda_not_found: MATLAB on a machine without an NVIDIA GPU
    # https://github.com/nightrome/matconvnet-calvin/issues/8 (fresh25 y37: "set gpus ... to be empty")
    (">> demo_fcn()\n"
     "Error using gpuDevice (line 26)\n"
     "There is a problem with the CUDA driver or with this GPU device. Be sure that you have a supported GPU and\n"
     "that the latest driver is installed.\n"
     "\n"
     "Error in CalvinNN/init (line 51)\n"
     "    gpuDevice(nnOpts.gpus);\n"
     "\n"
     "Caused by:\n"
     "    The CUDA driver could not be loaded. The library name used was 'libcuda.so.1'. The error was:\n"
     "    libcuda.so.1: cannot open shared object file: No such file or directory\n",
     "runtime.libcuda_not_found", "run the program on the CPU by its own setting"),
    # https://github.com/mhlabCodingTeam/SegEM/issues/1 (Windows, gpuArray, nvcuda.dll)
    ("Error using gpuArray (line 28)\n"
     "The CUDA driver could not be loaded. An NVIDIA GPU with CUDA driver is required. The required CUDA version is: 4 "
     "or greater. The library name used was: nvcuda.dll. The\n"
     "error was: Das angegebene Modul wurde nicht gefunden.\n",
     "runtime.libcuda_not_found", "run the program on the CPU by its own setting"),
    # https://github.com/chenjoya/Vehicle_Detection_Recognition/issues/4 (an AMD GPU, trainNetwork; "it runs on the CPU")
    ("出错 trainNetwork (line 46)\n"
     "nnet.internal.cnngpu.isGPUCompatible(true);\n"
     "\n"
     "原因:\n"
     "    The CUDA driver could not be loaded. The library name used was 'nvcuda.dll'. The error was:\n"
     "    找不到指定的模块。\n",
     "runtime.libcuda_not_found", "'ExecutionEnvironment', 'cpu'"),
    # near miss: libcuda.so.1 missing outside MATLAB keeps the entry's first fix
    # https://github.com/NVIDIA/cudf/issues/14385
    ("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n",
     "runtime.libcuda_not_found", "`nvidia-smi` tells which case"),
]

test_first_answer = first_answer_tests(CASES)

FRESH25 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus", "fresh25")


@pytest.mark.parametrize("name,want_id,want_fix", [
    ("y36-handbrake-p106-no-nvenc.log", "gpu.nvenc_unavailable", "This GPU cannot encode with NVENC"),
    ("y37-matconvnet-calvin-no-libcuda.log", "runtime.libcuda_not_found", "run the program on the CPU"),
    ("y39-tdarr-node-nvenc-no-capable-devices.log", "gpu.nvenc_unavailable", "Tdarr's node `ffmpegPath`"),
    ("y40-isaac-automator-aws-driver-535.log", "omniverse.driver_unsupported", "Isaac Automator 3.10"),
    ("y41-opencv-dnn-cuda-arch-rtx2060.log", "opencv.cuda_arch_not_built", "without `CUDA_GENERATION`"),
    ("y43-jetson-r34-container-on-r32-host.log", "status.driver_init_failed", "`cat /etc/nv_tegra_release`"),
])
def test_the_fresh25_logs_get_their_answers(name, want_id, want_fix):
    with open(os.path.join(FRESH25, name), encoding="utf-8") as f:
        first = next(m for m in explain(f.read()) if m.environment)
    assert first.id == want_id
    assert want_fix in first.fix.splitlines()[0]


def test_nvenc_no_device_after_another_refusal_keeps_that_refusal():
    # ffmpeg's nvenc.c writes "No capable devices found" after any failed session open: the session limit (status 10)
    # is then the cause, not a GPU without NVENC
    text = ("[h264_nvenc @ 0x5601aa5b40c0] OpenEncodeSessionEx failed: out of memory (10)\n"
            "[h264_nvenc @ 0x5601aa5b40c0] No capable devices found\n")
    assert [m.id for m in explain(text) if m.environment] == ["driver.nvenc_session_limit"]


def test_omniverse_names_the_installed_driver_and_its_failure():
    (m, *_) = explain("The currently installed NVIDIA graphics driver is unsupported or has known issues.\n\n"
                      "Reason for failure: The minimum Omniverse RTX requirement on Linux\n"
                      "Installed driver: 535.18\n")
    assert m.id == "omniverse.driver_unsupported" and "(535.18)" in m.title and m.failure == "too-old"
    # the header alone: no number is made up
    (m, *_) = explain("[Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is unsupported "
                      "or has known issues.\n")
    assert m.id == "omniverse.driver_unsupported" and "()" not in m.title and "the driver it recommends" in m.fix


def test_deviceQuery_status_3_on_a_jetson_host_without_a_container_keeps_the_driver_answer():
    # a made-up pairing of deviceQuery's lines with a Jetson host's prompt and release file: no container, so no image
    # to change, and the entry's driver answer stays
    text = ("jetson@nano:~$ cat /etc/nv_tegra_release\n# R32 (release), REVISION: 7.1\n"
            "cudaGetDeviceCount returned 3\n-> initialization error\n")
    (m, *_) = [m for m in explain(text) if m.environment]
    assert m.id == "status.driver_init_failed" and "L4T" not in m.title


# --- the new patterns stay linear on hostile input: their only repeats are bounded (or blanks), so a 200 000-character
# line built from their own literals costs one pass; checked on the parsed patterns, without timing.
NEW_PATTERNS = {
    "gpu.nvenc_unavailable": None,
    "opencv.cuda_arch_not_built": None,
    "omniverse.driver_unsupported": None,
    "status.driver_init_failed": r"cudaGetDeviceCount returned 3\b",
    "runtime.libcuda_not_found": r"The CUDA driver could not be loaded\.",
}


def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    out = []
    for entry_id, only in NEW_PATTERNS.items():
        pats = list(entries[entry_id]["patterns"])
        out += [p for p in pats if only is None or p.startswith(only)]
    return out


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    pats = _new_patterns()
    assert len(pats) >= 8
    for p in pats:
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "OpenEncodeSessionEx failed: unsupported device (2)", "[hevc_nvenc @ 000001580c1fb7c0] No capable devices found",
    "No NVENC capable devices found", "OpenCV was not built to work with the selected device",
    "Installed driver: 535.5 The unsupported driver range: [0.0, 535.129) ",
    "The currently installed NVIDIA graphics driver is unsupported or has known issues",
    "cudaGetDeviceCount returned 3", "The CUDA driver could not be loaded. The library name used was ",
])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")
