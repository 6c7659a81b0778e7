"""Round 25, paste damage: a log pasted from a console window that cut its lines at the window's width.

text.unwrapped joined a console's hard wraps only when three distinct lines had the log's longest width, so the
commonest paste of all, one long error line broken once or twice by an 80- or 120-column window (cmd, PowerShell, a
screen capture turned to text), kept its cut mid-word and no pattern read it: bench/explain_paste_forms.py kept 968
of 1,137 recognised corpus logs at console-80 and 1,042 at console-120. When the longest lines are exactly a
console's width, a line that long whose word runs on into the next line is now joined to it, one cut at a time;
a line that long ending a word, or followed by a new message or a line beginning as the log's lines begin, is not.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.text import CONSOLE_WIDTHS, LogText, unwrapped

CORPUS = os.path.join(os.path.dirname(__file__), "data", "explain_corpus")


def _paste_forms():
    """bench/explain_paste_forms.py, whose console cut these tests apply (the same cut the bench measures)."""
    path = os.path.join(os.path.dirname(__file__), "..", "bench", "explain_paste_forms.py")
    spec = importlib.util.spec_from_file_location("explain_paste_forms", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wrapped = _paste_forms().wrapped


def first_id(text: str) -> str | None:
    return next((m.id for m in explain(text) if m.environment), None)


def corpus(name: str) -> str:
    with open(os.path.join(CORPUS, name), encoding="utf-8", errors="replace") as f:
        return f.read()


# Real pastes of the corpus (their threads in manifest.yaml) whose one or two long lines a console cuts.
CUT = [
    ("129-gcc-too-new-old-wording.log", "nvcc.gcc_too_new"),        # endernewton/tf-faster-rcnn#352
    ("037-sm80-a100-pytorch45028.log", "torch.arch_unsupported"),   # pytorch/pytorch#45028
    ("014-no-cuda-runtime-siatune.log", "torch.no_cuda_runtime"),
]


@pytest.mark.parametrize("name,want", CUT)
@pytest.mark.parametrize("width", sorted(CONSOLE_WIDTHS))
def test_a_console_cut_error_line_is_read_whole(name, want, width):
    text = corpus(name)
    assert first_id(text) == want
    assert first_id(wrapped(text, width)) == want


def test_the_gcc_limit_is_read_across_the_cut():
    text = wrapped(corpus("129-gcc-too-new-old-wording.log"), 80)
    line = next(line for line in text.split("\n") if len(line) == 80)
    assert line.endswith("#error --Unsu")   # the cut falls inside 'Unsupported'
    got = next(m for m in explain(text) if m.environment)
    assert got.id == "nvcc.gcc_too_new" and got.values.get("limit") == "6"


def test_only_the_cut_lines_are_joined_and_their_numbers_kept():
    lines = ["make", "x" * 79 + "a", "bc: rest of the message", "done"]
    got = unwrapped(lines)
    assert got == (["make", "x" * 79 + "abc: rest of the message", "done"], [0, 1, 3])
    t = LogText("\n".join(lines))
    assert t.lines[1].endswith("abc: rest of the message") and t.number(2) > t.number(1)


NOT_CUT = [
    # a line of 80 characters that ends its word, the next a new word
    ["make", "y" * 79 + " ", "next: line", "done"],
    # a new message after one (a lower-case letter, then an upper-case one: 'RuntimeError' after a word)
    ["make", "x" * 80, "RuntimeError: CUDA error: out of memory", "done"],
    # a line beginning as the log's lines begin ('step ...' rows of one width)
    ["step 1: " + "a" * 72, "step 2: loss 1.5", "done"],
    # a width no console has unless resized: no cut is assumed there
    ["make", "x" * 79, "yz", "done"],
]


@pytest.mark.parametrize("lines", NOT_CUT)
def test_a_line_of_the_width_that_is_no_cut_is_left_alone(lines):
    assert unwrapped(lines) is None


# The corpus' negatives (a program's own bug, no environment cause) stay unclaimed when cut at a console's width.
NEGATIVES = ["107-not-env-device-assert-nllloss.log", "111-not-env-illegal-address-synchronize.log",
             "113-not-env-oom-new-format.log", "116-not-env-device-mismatch-mm.log"]


@pytest.mark.parametrize("name", NEGATIVES)
@pytest.mark.parametrize("width", sorted(CONSOLE_WIDTHS))
def test_a_cut_negative_stays_unclaimed(name, width):
    text = corpus(name)
    assert first_id(text) is None
    assert first_id(wrapped(text, width)) is None


def test_a_run_of_one_console_wide_line_is_no_cut():
    # one line of 80 characters repeated is no cut (it begins as the log's lines begin), however many there are:
    # only the last runs on into the line after it
    joined = unwrapped(["a" * 80] * 5000 + ["b"])
    assert joined is not None and joined[0][-2:] == ["a" * 80, "a" * 80 + "b"]
    assert first_id("\n".join(["a" * 80] * 5000 + ["b"])) is None
