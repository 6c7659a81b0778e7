"""Round 28 (e28-kw): a known cause in a wording never read, as kinds rather than one entry at a time.

Every held-out census of rounds 17-27 (bench/census/round*-fresh*.tsv) counts K-wording first among its misses: a known
cause whose log says it in a wording no pattern reads. Classified by the GAP (95 unique logs): 30 a true new sentence,
13 the cause line absent from the paste, 12 a companion line `requires` wants, 10 a status in another spelling, 9
another producer's frame, 4 a sentence cut or broken, 3 (5 with secondaries) the capitalisation of a message word,
2 translations, 1 a list. Each miss was fixed in its entry after its round; the next round brought the same kinds.

This file keeps the mechanical kinds measured over every entry's own `examples` (errors.yaml): each example is
damaged the way real producers and pastes damage it, and the number that still gets its own entry first is held to a
floor, so a new entry, or an edit, that is brittle to the kind makes the count drop and the test fail:

- the frame word after a library's name capitalised or upper-cased, as other programs print it: darknet's check_error
  "CUDA Error: %s" (pjreddie/darknet, the burned fresh17 q38 and fresh27 k61), miners' "CUDA ERROR", MPICH yaksa's
  "CUDA Error (...)"; CUDA itself prints "CUDA error";
- a wrapper in front of the line: "ERROR: ", "RuntimeError: ", a glog/TF timestamp;
- the first three characters lost (a paste cut at its start, the fresh27 k86 "PUassert").
"""
import re
from pathlib import Path

import pytest
import yaml

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.text import required_literal

from explain_answers import hostile_line

ERRORS = Path(__file__).resolve().parent.parent / "cudaenv" / "knowledge" / "errors.yaml"
ENTRIES = yaml.safe_load(ERRORS.read_text())["entries"]
EXAMPLES = [(e["id"], x) for e in ENTRIES for x in e.get("examples", ())]

# the frame word right after a CUDA library's name: "CUDA error:", "NCCL error in:", "cuDNN error", "CUDA API error"
FRAME_WORD = re.compile(
    r"\b((?:CUDA|Cuda|cuda|NCCL|nccl|NVML|nvml|cuDNN|CUDNN|cudnn|cuBLAS|CUBLAS|cublas|nvrtc|NVRTC|cuFFT|CUFFT|cufft"
    r"|driver|Driver|runtime|Runtime)(?: API)? )error\b")


def _first(text: str) -> str | None:
    found = explain(text)
    return found[0].id if found else None


def _survive(transform) -> tuple[int, int, list[tuple[str, str]]]:
    kept, tried, lost = 0, 0, []
    for entry_id, example in EXAMPLES:
        damaged = transform(example)
        if damaged is None or damaged == example:
            continue
        tried += 1
        if _first(damaged) == entry_id:
            kept += 1
        else:
            lost.append((entry_id, damaged))
    return kept, tried, lost


def _frame_word(case: str):
    def transform(s: str) -> str | None:
        return FRAME_WORD.sub(lambda m: m.group(1) + case, s, count=1) if FRAME_WORD.search(s) else None
    return transform


# Measured at e28-kw (before: 28 of 33 with either case). Raise a floor when a remedy lifts it; never lower it to
# let an edit through: read the lost list instead. The ones still lost are deliberate: runtime.out_of_memory read
# in darknet's "CUDA Error: out of memory" would tell the burned fresh24 x68 (GPU state a reboot cleared) "not an
# environment problem"; "unhandled cuda error" and nvidia-container-cli's "nvml error" are a producer's fixed text.
FLOORS = {
    "frame word Error": (_frame_word("Error"), 29, 33),
    "frame word ERROR": (_frame_word("ERROR"), 29, 33),
    "prefix ERROR:": (lambda s: "ERROR: " + s, 582, 587),
    "prefix RuntimeError:": (lambda s: "RuntimeError: " + s, 582, 587),
    "prefix timestamp": (lambda s: "2024-03-01 12:00:01.123456: E " + s, 582, 587),
    "start cut by 3": (lambda s: s[3:] if len(s) > 20 else None, 453, 586),
}


@pytest.mark.parametrize("kind", sorted(FLOORS))
def test_examples_survive_each_kind_of_damage(kind):
    transform, floor, measured_of = FLOORS[kind]
    kept, tried, lost = _survive(transform)
    assert tried >= measured_of, (kind, tried)  # the kind still applies to as many examples as it did
    assert kept >= floor, (kind, f"{kept} of {tried} survive, floor {floor}", lost[:20])


# Lines as their producers print them, the frame word in the producer's own case.
PRODUCER_LINES = [
    ("CUDA Error: unknown error", "driver.unknown_error"),  # darknet check_error (fresh27 k61)
    ("CUDA ERROR 999", "driver.unknown_error"),
    ("Cuda Error(999), unknown error", "driver.unknown_error"),
    ("CUDA Error: invalid device function", "runtime.no_kernel_image"),  # darknet (fresh17 q38)
    ("Cuda Error: 209[cudaFuncGetAttributes(&attr, kernel);]", "runtime.no_kernel_image"),
    ("CUDA Error: error code 34", "runtime.stub_library"),
    ("CUDA Error: initialization error", "status.driver_init_failed"),
    ("Cuda Error(3), initialization error", "status.driver_init_failed"),
    ("cuda-0   Error CUDA mining: CUDA Error in func init at line 126 out of memory", "gpu.memory_below_dag"),
    ("cuda-0   Error CUDA mining: CUDA ERROR in func initEpoch at line 126 out of memory", "gpu.memory_below_dag"),
]


@pytest.mark.parametrize("line,entry_id", PRODUCER_LINES)
def test_the_frame_word_in_any_case(line, entry_id):
    assert [m.id for m in explain(line + "\n") if m.environment][:1] == [entry_id], line


def test_counter_cases():
    # the word alone, or a program's own failure in the same frame, claims nothing new
    assert not [m for m in explain("CUDA Error: out of memory\n") if m.environment]
    assert not [m for m in explain("ERROR: CUDA Error: an illegal memory access was encountered\n") if m.environment]
    assert not [m for m in explain("printf(\"CUDA Error: %s\\n\", cudaGetErrorString(e));\n") if m.environment]


def test_the_widened_patterns_keep_a_literal_and_do_not_backtrack():
    widened = [p for e in ENTRIES for p in e["patterns"] if "(?:error|Error|ERROR)" in p]
    assert len(widened) >= 8
    for p in widened:
        needle = required_literal(p)
        assert needle is not None and len(needle) >= 4, p
        rx = re.compile(p, re.MULTILINE)
        for literal in (needle, "CUDA Error ", "Cuda ERROR: "):
            assert rx.search(hostile_line(literal)[:20_000]) is None, p
    assert explain(hostile_line("CUDA Error: ")) is not None
