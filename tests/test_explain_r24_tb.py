"""Round 24 (helper tb): fresh24's burned misses, fixed as families where a family was found, each with the fresh24 log's
own lines, a second real member of the family from another public thread and a near miss that keeps its answer.

- nccl.net_id_not_found: NCCL's "Could not find NET with id 0" across nodes is NCCL 2.26's NIC-fusion fault (its tree
  search falls back to NET id 0, which fusion removed), fixed in NCCL 2.27: upgrading NCCL comes first, not installing
  it (fresh24 x34, the NeMo 25.04 container; NVIDIA/nccl#1748).

Left as they were:
- x33 ("cannot set while device is active in this process", cudaErrorSetOnActiveProcess): the thread's driver upgrade
  is a one-off; the other public threads of the message are the program's own call order (cudaSetDeviceFlags after
  the context exists: ComputationalRadiationPhysics/picongpu#201, Theano/libgpuarray#129, genn-team/genn#394,
  KlausT/ccminer#68 worked around in the miner's code), so no environment answer fits the family.
- x39 (libcusolver.so.8.0 under "Failed to load the native TensorFlow runtime"): the cause was a Jetson wheel for
  another JetPack, which the two-line log does not show (no Jetson, no CUDA of the machine); the entry already names
  the TensorFlow build for the CUDA there is as its second fix, and TensorFlow 1.x threads went both ways.
- x45 (a program-bug negative): the judges found its claim defensible on the log alone (nvidia-container-cli on the
  Jetson host cannot load libcuda.so.1), so it stays.

Each text is copied from the thread named above it."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, unbounded_beyond_blanks, hostile_line

CASES = [
    # --- nccl.net_id_not_found: NCCL 2.26's NIC fusion
    # https://github.com/NVIDIA-NeMo/Speech/issues/13996 (fresh24 x34: NeMo 25.04 container, two InfiniBand clusters;
    # "I upgraded the container to NCCL 2.27.3 ... it solved the problem")
    ("graph/topo.h:230 NCCL WARN Could not find NET with id 0\n"
     "\n"
     "----------------------------------------------------------------------------------------------------\n"
     "distributed_backend=nccl\n"
     "All distributed processes registered. Starting with 32 processes\n",
     "nccl.net_id_not_found", "Use NCCL 2.27 or later"),
    # https://github.com/NVIDIA/nccl/issues/1748 (its title, and the line the maintainer names as the first sign:
    # "Could not find a path for pattern 1, falling back to simple order"; torch 2.8 with NCCL 2.27 works)
    ("Could not find a path for pattern 1, falling back to simple order\n"
     "Could not find NET with id 0\n",
     "nccl.net_id_not_found", "Use NCCL 2.27 or later"),
    # near miss: another NCCL WARN across nodes, an InfiniBand completion error, keeps its own entry
    # (https://github.com/pytorch/pytorch/issues/81628, its title)
    ("NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129\n",
     "nccl.ib_completion_error", "Right at the start this means the two NICs cannot reach each"),
]

test_first_answer = first_answer_tests(CASES)


def test_the_fresh24_nccl_answer_is_an_upgrade_not_an_install():
    (m, *_) = explain("graph/topo.h:230 NCCL WARN Could not find NET with id 0\n")
    assert m.id == "nccl.net_id_not_found" and m.failure == "too-old"
    assert "libnccl-dev" not in m.fix.splitlines()[0]


def test_cannot_set_on_active_process_gets_no_environment_answer():
    # x33's words (KlausT/ccminer#113): the message's family is mostly program call order, so it stays unclaimed
    text = ("scanhash_sia line 225: cannot set while device is active in this process\n"
            "GPU #0: Cuda error in func 'sia_gpu_hash' at line 292 : cannot set while device is active in this process.\n")
    assert not [m.id for m in explain(text) if m.environment]


# --- the new pattern stays linear on hostile input: its only repeat is bounded, so a 200 000-character line built from
# its own literals costs one pass; checked on the parsed pattern, without timing.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    return list(entries["nccl.net_id_not_found"]["patterns"])


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    pats = _new_patterns()
    assert pats
    for p in pats:
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", ["Could not find NET with id 0", "Could not find NET with id ", "NCCL WARN "])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")
