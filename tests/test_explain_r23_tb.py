"""Round 23 (helper tb): fresh23's burned misses fixed as families, each with the fresh23 log's own lines, a second real
member of the family from another public thread and a near miss that keeps its answer.

- driver.nvenc_api_too_old: FFmpeg's "The minimum required Nvidia driver for nvenc is X or newer" (also inside OBS,
  HandBrake, PyAV), often the only line pasted: the driver it names, or newer (fresh23 w34).
- runtime.insufficient_driver: the miners' "Unable to query number of CUDA devices! Is an nVidia driver installed?"
  (ccminer and its forks, CudaMiner, T-Rex): no NVIDIA driver, or one older than the CUDA the miner was built with
  (fresh23 w32).
- container.toolkit_detection_failed: nvidia-container-cli's "detection error: driver error: failed to process
  request": a container stack that does not fit the driver, most often a distribution's rebuild (fresh23 w39, Pop!_OS).
- gpu.unstable_under_load: a miner's kernel stopping on "an illegal instruction was encountered" is the unstable
  overclock, as its "unspecified launch failure" already was (fresh23 w37, NiceHash's excavator).
- loader.windows_cuda_dll_not_found: Paddle's loader asking for a CUDA 10 / cuDNN 7 DLL names a CUDA 10 wheel: the
  paddlepaddle-gpu build for the CUDA installed comes first (fresh23 w42).
- python.onnxruntime_capi_not_loaded: onnxruntime's "cannot import name 'get_all_providers'" after its compiled module
  did not load: for onnxruntime-gpu the CUDA and cuDNN of its build (fresh23 w33).

- runtime.no_device: AliceVision's (Meshroom's) "This program needs a CUDA-Enabled GPU": with an NVIDIA GPU, a driver
  older than its CUDA, so the driver update comes first (fresh23 w35).

Left as they were: w43 (a Microsoft Store Python: the one-line log shows nothing of it), w45 (a program-bug negative
whose claim the judges found defensible on the log alone: the log says the build holds only arch 520).

Each text is copied from the thread named above it."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, unbounded_beyond_blanks

CASES = [
    # --- driver.nvenc_api_too_old: FFmpeg's minimum-driver line
    # https://github.com/obsproject/obs-studio/issues/8723 (fresh23 w34: OBS 29.0.2 on Windows 10)
    ("22:45:40.550: error:   The minimum required Nvidia driver for nvenc is 471.41 or newer\n",
     "driver.nvenc_api_too_old", "Upgrade the NVIDIA driver to 471.41 or newer"),
    # https://github.com/nagadomi/nunif/issues/351 (its title; PyAV built with Video Codec SDK 13: driver 570 fixed it)
    ("The minimum required Nvidia driver for nvenc is (unknown) or newer\n",
     "driver.nvenc_api_too_old", "Upgrade the NVIDIA driver"),
    # https://github.com/GyanD/codexffmpeg/issues/181 (beside the API versions the Required line's answer stays)
    ("Driver does not support the required nvenc API version. Required: 13.0 Found: 12.2\n"
     "The minimum required Nvidia driver for nvenc is (unknown) or newer\n",
     "driver.nvenc_api_too_old", "Upgrade the NVIDIA driver to 570 or newer"),

    # --- runtime.insufficient_driver: the miners' own question
    # https://github.com/firoorg/ccminer/issues/41 (fresh23 w32: a newer driver fixed it)
    ("Unable to query number of CUDA devices! Is an nVidia driver installed?\n",
     "runtime.insufficient_driver", "Install the current NVIDIA driver for the GPU"),
    # https://github.com/cbuchner1/ccminer/issues/21 (GT 630 with driver 331.38)
    ("Unable to query CUDA driver version! Is an nVidia driver installed?\n",
     "runtime.insufficient_driver", "Install the current NVIDIA driver for the GPU"),
    # https://github.com/trexminer/T-Rex/issues/64 (its title)
    ("ERROR: Can't start miner, unable to get number of CUDA devices, is nvidia driver installed?\n",
     "runtime.insufficient_driver", "Install the current NVIDIA driver for the GPU"),
    # near miss: the runtime's own error 35 keeps the entry's general answer
    ("Failed to get the number of CUDA devices: CUDA driver version is insufficient for CUDA runtime version\n",
     "runtime.insufficient_driver", "The driver supports an older CUDA than the program was built for"),

    # --- container.toolkit_detection_failed
    # https://github.com/pop-os/pop/issues/888 (fresh23 w39: Pop's nvidia-container-toolkit; NVIDIA's fixed it)
    ("nvidia-container-cli: detection error: driver error: failed to process request\n",
     "container.toolkit_detection_failed", "Install the NVIDIA Container Toolkit from NVIDIA's own repository"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1131 (after a system76-driver-nvidia update)
    ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:346: starting container process "
     "caused \"process_linux.go:449: container init caused \\\"process_linux.go:432: running prestart hook 0 caused "
     "\\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: detection error: driver error: "
     "failed to process request\\\\\\\\n\\\\\\\"\\\"\": unknown.\n",
     "container.toolkit_detection_failed", "Install the NVIDIA Container Toolkit from NVIDIA's own repository"),
    # near miss: the initialisation step failing is the host's driver (NVIDIA/nvidia-container-toolkit#183)
    ("stderr: nvidia-container-cli: initialization error: driver error: failed to process request\n",
     "container.host_driver_missing", "On the host: make `nvidia-smi` work"),

    # --- gpu.unstable_under_load: a miner's illegal instruction
    # https://github.com/nicehash/NiceHashQuickMiner/issues/277 (fresh23 w37: "This happens when overclock is unstable")
    ("CUDA error 'an illegal instruction was encountered' in func 'cuda_daggerhashimoto::run' line 935\n",
     "gpu.unstable_under_load", "Take the overclock off that GPU"),
    # https://github.com/ethereum-mining/ethminer/issues/907 (HiveOS, memory overclocked +930)
    ("CUDA error in func 'dev::eth::CUDAMiner::search' at line 489 : an illegal instruction was encountered.\n"
     "X 20:04:50|cuda-4 Error CUDA mining: an illegal instruction was encountered\n",
     "gpu.unstable_under_load", "Take the overclock off that GPU"),
    # https://github.com/KlausT/ccminer/issues/207 (neoscrypt on GTX 1070s)
    ("[2018-02-17 13:34:31] GPU #7: MSI GTX 1070, 1093.30 kH/s\n"
     "GPU #5: Cuda error in func 'neoscrypt_cpu_hash_k4_2stream' at line 1492 : an illegal instruction was encountered.\n",
     "gpu.unstable_under_load", "Take the overclock off that GPU"),

    # --- loader.windows_cuda_dll_not_found: Paddle's CUDA 10 / cuDNN 7 build
    # https://github.com/PaddlePaddle/PaddleOCR/issues/9913 (fresh23 w42: 2.4.2 on CUDA 11.3 / cuDNN 8.9; .post112)
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not "
     "configured correctly. (error code is 126)\n",
     "loader.windows_cuda_dll_not_found", "install the paddlepaddle-gpu built for that CUDA"),
    # https://github.com/PaddlePaddle/Paddle/issues/33523 (a CUDA 10.2 build on CUDA 11.1)
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cublas64_102.dll;cublas64_10.dll) that Paddle "
     "depends on is not configured correctly. (error code is 126)\n",
     "loader.windows_cuda_dll_not_found", "install the paddlepaddle-gpu built for that CUDA"),
    # near miss: a cuDNN 8 DLL keeps the cuDNN 8 answer (PaddlePaddle/PaddleOCR#11230, CUDA 11.8, 2.5.2)
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not "
     "configured correctly. (error code is 126)\n",
     "loader.windows_cuda_dll_not_found", "Install the complete cuDNN archive"),

    # --- runtime.no_device: AliceVision's words
    # https://github.com/alicevision/Meshroom/issues/182 (fresh23 w35: driver 385.54 on a GTX 1080, 398.82 fixed it)
    ("[error] This program needs a CUDA-Enabled GPU (with at least compute capability 2.0).\n",
     "runtime.no_device", "Update the NVIDIA driver to the current one for the GPU"),
    # https://github.com/alicevision/Meshroom/issues/203 (a Quadro M2000M on Windows 10: "Solved with an update")
    ("[18:38:10.594433][info]\n"
     "[18:38:10.598817][error] This program needs a CUDA-Enabled GPU (with at least compute capablility 2.0).\n",
     "runtime.no_device", "Update the NVIDIA driver to the current one for the GPU"),
    # when AliceVision prints the runtime's reason, that line answers first (alicevision/Meshroom#1231)
    ("[12:29:05.864271][warning] No CUDA-Enabled GPU.\n"
     "[12:29:05.869267][error] cudaGetDeviceCount failed: CUDA driver version is insufficient for CUDA runtime version\n"
     "[12:29:05.869267][info] Can't find CUDA-Enabled GPU.\n"
     "[12:29:05.869267][error] This program needs a CUDA-Enabled GPU (with at least compute capability 2.0).\n",
     "runtime.insufficient_driver", "The driver supports an older CUDA than the program was built for"),
    # near miss: the CUDA runtime's own words keep the entry's first fix
    ("RuntimeError: CUDA error: no CUDA-capable device is detected\n",
     "runtime.no_device", "`nvidia-smi` must list the GPU"),

    # --- python.onnxruntime_capi_not_loaded
    # https://github.com/microsoft/onnxruntime/issues/2861 (fresh23 w33: onnxruntime-gpu 1.0/1.1 on CUDA 9.0)
    ("  File \"C:\\Programs\\Python\\Python37\\lib\\site-packages\\onnxruntime\\__init__.py\", line 12, in <module>\n"
     "    from onnxruntime.capi._pybind_state import get_all_providers, get_available_providers, get_device, RunOptions\n"
     "ImportError: cannot import name 'get_all_providers' from 'onnxruntime.capi._pybind_state' "
     "(C:\\Programs\\Python\\Python37\\lib\\site-packages\\onnxruntime\\capi\\_pybind_state.py)\n",
     "python.onnxruntime_capi_not_loaded", "Install the CUDA and cuDNN of your onnxruntime-gpu release's build"),
    # https://github.com/microsoft/onnxruntime/issues/6591 (1.6.0 with CUDA 10.2: cuDNN 8.0 and CUDA_PATH solved it)
    ("ImportError: cannot import name 'get_all_providers' from 'onnxruntime.capi._pybind_state' "
     "(C:\\Users\\alexandre.ribard\\anaconda3\\envs\\onnx-gpu\\lib\\site-packages\\onnxruntime\\capi\\_pybind_state.py)\n",
     "python.onnxruntime_capi_not_loaded", "Install the CUDA and cuDNN of your onnxruntime-gpu release's build"),
    # https://github.com/rhasspy/larynx/issues/1 (macOS: the warning names libomp)
    ("/Library/Frameworks/Python.framework/Versions/3.7/lib/python3.7/site-packages/onnxruntime/capi/_pybind_state.py:14: "
     "UserWarning: Cannot load onnxruntime.capi. Error: 'dlopen(/Library/Frameworks/Python.framework/Versions/3.7/lib/"
     "python3.7/site-packages/onnxruntime/capi/onnxruntime_pybind11_state.so, 2): Library not loaded: "
     "/usr/local/opt/libomp/lib/libomp.dylib\n"
     "  Referenced from: /Library/Frameworks/Python.framework/Versions/3.7/lib/python3.7/site-packages/onnxruntime/capi/"
     "onnxruntime_pybind11_state.so\n"
     "  Reason: image not found'.\n"
     "  warnings.warn(\"Cannot load onnxruntime.capi. Error: '{0}'.\".format(str(e)))\n"
     "ImportError: cannot import name 'get_all_providers'\n",
     "python.onnxruntime_capi_not_loaded", "brew install libomp"),
    # near miss: the CUDA provider failing at session creation keeps its own entry
    ("[W:onnxruntime:Default, onnxruntime_pybind_state.cc:640 CreateExecutionProviderInstance] Failed to create "
     "CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/"
     "CUDA-ExecutionProvider.html#requirements to ensure all dependencies are met.\n",
     "loader.ort_cuda_provider_failed", "If onnxruntime-gpu is 1.21 or later"),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("text", [
    # a CUDA illegal instruction in a program with no sign of an unstable GPU stays a program bug
    "RuntimeError: CUDA error: an illegal instruction was encountered\n",
    # the CPU's illegal instruction (SIGILL) beside a miner's words is no GPU fault
    "Illegal instruction (core dumped)\nminer exited\n",
])
def test_an_illegal_instruction_without_a_miners_sign_claims_no_unstable_gpu(text):
    assert "gpu.unstable_under_load" not in [m.id for m in explain(text)]


def test_the_fresh23_answers_name_the_fix_the_threads_took():
    # the fixes the manifest records: w34 the driver it names, w42 the .post112 wheel
    (m,) = [m for m in explain("The minimum required Nvidia driver for nvenc is 471.41 or newer\n") if m.environment]
    assert "471.41" in m.title and m.failure == "too-old"
    m = next(m for m in explain("The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not "
                                "configured correctly. (error code is 126)\n") if m.environment)
    assert "post112" in m.fix and m.failure == "built-for-other-version"


# --- the new patterns stay linear on hostile input: every unbounded repeat in them is a run of blanks, so a
# 200 000-character line built from their own literals costs one pass; checked on the parsed pattern, without timing.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    nvenc = [p for p in entries["driver.nvenc_api_too_old"]["patterns"] if "minimum required" in p]
    miners = [p for p in entries["runtime.insufficient_driver"]["patterns"] if "query_failed" in p]
    unstable = [p for p in entries["gpu.unstable_under_load"]["patterns"] if "illegal instruction" in p]
    unstable += entries["gpu.unstable_under_load"]["requires"]
    paddle = [v["when"]["lib"] for v in entries["loader.windows_cuda_dll_not_found"]["variants"]
              if "Paddle" in v["when"].get("text", "")]
    assert len(nvenc) == 1 and len(miners) == 2 and len(unstable) == 3 and len(paddle) == 1
    alicevision = [p for p in entries["runtime.no_device"]["patterns"] if "alicevision" in p]
    assert len(alicevision) == 2
    return (nvenc + miners + unstable + paddle + alicevision + entries["container.toolkit_detection_failed"]["patterns"]
            + entries["python.onnxruntime_capi_not_loaded"]["patterns"])


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _new_patterns():
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "The minimum required Nvidia driver for nvenc is 471.41",
    "Unable to query number of CUDA devices! ", "unable to get number of CUDA devices, ",
    "nvidia-container-cli: detection error: driver error: ",
    "CUDA error 'an illegal instruction was encountered' in func 'cuda_daggerhashimoto::run",
    "Cuda error in func 'x' at line 1 : ",
    "Cannot load onnxruntime.capi. Error: '", "cannot import name 'get_all_providers' ",
    "(cudnn64_7.dll) that Paddle depends on ", "This program needs a CUDA-Enabled GPU (with at least compute capablility ",
])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = (literal * (200_000 // len(literal) + 1))[:200_000]
    explain(line + "\n")
