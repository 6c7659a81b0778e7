"""[r34] A status the log itself contradicts claims nothing.

fresh34's ab68 (linux-rdma/perftest#354, a negative: perftest's own cuCtxCreate change for CUDA 13, reverted in the
project) printed the device it picked, by number and name, and then "cuCtxCreate() error=101". 101 is
CUDA_ERROR_INVALID_DEVICE / cudaErrorInvalidDevice ("invalid device ordinal"), which the generic status reader answered
as "the process sees no usable GPU": the log shows the GPU was usable and the ordinal valid, so the bad handle came from
the program's arguments. status.yaml marks that row ``refuted_by: selected_device_named``; a machine-wide listing
(nvidia-smi, ``-L``'s UUID lines, collect_env's "GPU 0:") is not the process's choice and leaves the reading standing.
"""
from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import knowledge_table

# the fresh34 ab68 log's failing part, as pasted (linux-rdma/perftest#354)
PERFTEST = """\
initializing CUDA
Listing all CUDA devices in system:
CUDA device 0: PCIe address is 01:00
CUDA device 1: PCIe address is 01:00

Picking device No. 0
[pid = 211751, dev = 0] device name = [NVIDIA GB200]
creating CUDA Ctx
cuCtxCreate() error=101
Couldn't init GPU context: 1
Failed to init memory
"""

# the same program's words with the selection said in other ways (each names the device it picked and the GPU)
REFUTED = [
    PERFTEST,
    "Using device 0: NVIDIA A100-SXM4-80GB\ncuDevicePrimaryCtxRetain returned 101\n",
    "Selected GPU 1 (Tesla V100-SXM2-16GB)\nCUDA error: cuCtxCreate returned 101\n",
    "Picking device No. 2\nDevice 2: \"NVIDIA GeForce RTX 3090\"\ncuCtxCreate() error=101\n",
]

# a listing of the machine (not the process's choice), or no device named: the reading stands
STANDING = [
    "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-5b1b5e9e-0000-0000-0000-000000000000)\ncuDeviceGet returned 101\n",
    "| 0  NVIDIA GeForce RTX 3090   Off | 00000000:01:00.0 Off |  N/A |\ncuCtxCreate() error=101\n",
    "Picking device No. 3\ncuCtxCreate() error=101\n",
    "initializing CUDA\ncuCtxCreate() error=101\n",
]


def test_the_row_is_marked():
    rows = [r for r in knowledge_table("status.yaml")["runtime"] if r["number"] == 101]
    assert rows and rows[0].get("refuted_by") == "selected_device_named"


@pytest.mark.parametrize("text", REFUTED)
def test_a_device_the_program_picked_and_named_refutes_no_usable_gpu(text):
    found = explain(text)
    assert not [m.id for m in found if m.environment], [m.id for m in found]


@pytest.mark.parametrize("text", STANDING)
def test_without_the_programs_own_choice_the_reading_stands(text):
    found = explain(text)
    assert found and found[0].id == "runtime.no_device", [m.id for m in found]


def test_an_entrys_own_pattern_is_not_refuted():
    # "invalid device ordinal" from torch with the device picked is an index past the visible GPUs: the entry's own
    # words answer it, not the generic status reader, and the refutation does not reach them
    text = ("Using device 1: NVIDIA GeForce RTX 3090\n"
            "RuntimeError: CUDA error: invalid device ordinal\n")
    found = explain(text)
    assert found and found[0].environment, [m.id for m in found]
