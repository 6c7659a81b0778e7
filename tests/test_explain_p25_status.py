"""Round 25 (helper p25-status): CUDA status codes in any wrapper's frame, read by one general reader (generic.py's
_read_status) rather than per program. Beside the frames read before (a status number last on a line after a CUDA word
and an error word; "error N in [call at] file"), it now reads

- a status NAME anywhere on a line, with or without its number ("cudaErrorInsufficientDriver", "CUDA_ERROR_NO_DEVICE");
- a number beside a CUDA API call name ("cuInit(0) = 100", "cuDeviceGet returned 101", "cudaGetDeviceCount -> 35"),
  the call standing for the CUDA word (a driver-API call does not spell "cuda").

Only a status whose knowledge/status.yaml row has an `entry`, and neither a program `verdict` nor an `ambiguous` note,
answers; a number must be tied to a CUDA call on its line (never a bare "error 2", never a count "= 100 events").
The reading runs only when no entry matched, so it changes no log an entry answers (fast25: 0 of 1475 changed).

Each text is copied from the thread or corpus log named above it (the shapes' one-line forms are the lines as the
threads quote them)."""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.generic import _CALL_STATUS, _STATUS_NAME
from explain_answers import first_answer_tests, hostile_line, unbounded_beyond_blanks

CASES = [
    # --- a status name with its number, helper_cuda.h's frame (corpus sampled/247, NVIDIA/cuda-samples#34)
    ('CUDA error at ../../Common/helper_cuda.h:791 code=100(cudaErrorNoDevice) "cudaGetDeviceCount(&device_count)" \n',
     "runtime.no_device", ""),
    # (corpus sampled/298, NVIDIA/nvidia-docker#498: bandwidthTest on a driver older than the runtime)
    ("CUDA error at D:/Bld/rel/gpgpu/toolkit/r8.0/demo_suite/bandwidthTest/bandwidthTest.cu:255 "
     'code=35(cudaErrorInsufficientDriver) "cudaSetDevice(currentDevice)"\n',
     "runtime.insufficient_driver", ""),
    # --- a driver-API name in numba's frame (corpus fresh6/a54, NVIDIA/cuml#5624)
    ("numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in "
     "CUDA_ERROR_NO_DEVICE (100)\n", "runtime.no_device", ""),
    # --- a name alone, no number, no CUDA string (a wrapper printing only the enum's name)
    ("cudaSetDevice() failed with status cudaErrorInsufficientDriver\n", "runtime.insufficient_driver", ""),
    ("status=CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n", "driver.version_mismatch", ""),
    # --- a number beside a driver-API call: "cuInit(0) = 100" as public repositories' notes quote a sandboxed run
    # ("Sandboxed runs can report misleading CUDA failures such as `cuInit(0) = 100` / `cudaErrorNoDevice`")
    ("cuInit(0) = 100\n", "runtime.no_device", ""),
    ("nvenc: cuCtxCreate_v2(&ctx, 0, dev) = 100\n", "runtime.no_device", ""),
    ("GPU init failed: cuDeviceGet returned 101\n", "runtime.no_device", ""),
    ("cudaGetDeviceCount -> 35\n", "runtime.insufficient_driver", ""),
]

test_first_answer = first_answer_tests(CASES)


NEAR_MISSES = [
    "error 2 at line 35\n",  # a bare number: no CUDA call, no CUDA word
    "cudaEventRecord = 100 events\n",  # a count beside a call, not a status
    "cudaMalloc failed: 2\n",  # out of memory: a program verdict, never an environment claim from a number
    "cuMemAlloc returned 2\n",
    "cudaErrorInvalidValue\n",  # ambiguous: a wrong argument almost always
    "CUDA_ERROR_INVALID_VALUE\n",
    "Build step 35 of 100: cuda_kernels.cu compiled\n",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_claim_nothing(text):
    assert not [m.id for m in explain(text) if m.environment], text


def test_program_bug_status_keeps_its_verdict():
    found = explain("cudaErrorIllegalAddress at kernel.cu:35\n")
    assert found and not found[0].environment, [m.id for m in found]
    assert not [m.id for m in found if m.environment], [m.id for m in found]


def test_new_patterns_repeat_only_blanks():
    assert unbounded_beyond_blanks(_CALL_STATUS.pattern) == []
    assert unbounded_beyond_blanks(_STATUS_NAME.pattern) == []


@pytest.mark.parametrize("literal", ["cuInit(", "cuInit(0) = ", "cuda", "cudaErrorNoDevice ", "CUDA_ERROR_",
                                     "cuDeviceGet returned ", "cuX(" + "0" * 50])
def test_hostile_lines_are_read(literal):
    line = hostile_line(literal)
    explain(line)
    explain(line + "\ncuInit(0) = 100\n")
