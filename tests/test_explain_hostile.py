"""A pasted log is someone else's text: nothing in it may become shell syntax in an answer.

explain fills titles, causes and fix lines with values read from the log (a library's path, a conda
environment, CUDA_HOME). A path such as ``/envs/x$(reboot)/lib/libstdc++.so.6`` once came out inside a fix
command (``ln -sf … /envs/x$(reboot)/lib/libstdc++.so.6``): pasting the fix would have run ``reboot``.
Values that carry shell syntax are withheld (:func:`cudaenv.knowledge.explain.matcher.inert`); the
``matched`` line still quotes the log as it is.
"""

from __future__ import annotations

import glob
import os
import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.matcher import WITHHELD, inert

CORPUS = os.path.join(os.path.dirname(__file__), "data", "explain_corpus")

# Shell syntax a hostile path could carry, each around a word that is in no log ("rbt").
HOSTILE = ["$(rbt)", "`rbt`", ";rbt;", "|rbt", "&rbt&", "${rbt}", ">rbt", "<rbt"]
# The first component of every absolute path in a log (/home, /usr, /opt/conda, …).
PATH_START = re.compile(r"(?<![\w.])(/[A-Za-z][\w.+-]*)(?=/)")


def test_a_conda_path_with_a_command_in_it_stays_out_of_the_fix():
    log = ("ImportError: /home/u/miniconda3/envs/x$(reboot)/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' "
           "not found (required by /home/u/a.so)")
    (m,) = explain(log)
    assert m.id == "cxx.libstdcxx_too_old"
    assert "reboot" not in m.fix + m.cause + m.title
    assert "$(reboot)" in m.matched  # the log itself is still quoted
    clean = explain(log.replace("$(reboot)", ""))[0]
    assert "/home/u/miniconda3/envs/x/lib/libstdc++.so.6" in clean.fix  # an ordinary path is still named


W = WITHHELD


@pytest.mark.parametrize("value, shown", [
    ("/usr/local/cuda-12.4/lib64", None),
    ("/home/u/My Project (x86)/lib", None),              # blanks and parentheses: text, not syntax
    ("127.0.0.1<45069>", None),                           # NCCL's host<port>: no path, so no redirection
    (">=6.0.0, <12.0", None),
    ("/opt/x$(id)/lib", f"/opt/{W}/lib"), ("/opt/`id`/lib", f"/opt/{W}/lib"), ("/opt/x;id/lib", f"/opt/{W}/lib"),
    ("/opt/x|id", f"/opt/{W}"), ("/opt/${IFS}x/lib", f"/opt/{W}/lib"), ("/opt/x>y/lib", f"/opt/{W}/lib"),
    ("/opt/x\nid/lib", f"/opt/{W}/lib"), ("/opt/a\x1b[31mb/lib", f"/opt/{W}/lib"),
    ("/opt/$(rm -rf ~)/lib", f"/opt/{W} -rf ~)/lib"),     # what is left cannot run: no "$(" remains
    ("C:\\Temp;C:\\Program Files\\Java", f"C:\\{W}\\Program Files\\Java"),
])
def test_inert_withholds_the_segments_that_hold_shell_syntax(value, shown):
    assert inert(value) == (value if shown is None else shown)


def _logs() -> list[str]:
    paths = sorted(glob.glob(os.path.join(CORPUS, "**", "*.log"), recursive=True))
    assert len(paths) > 700
    return paths


def test_no_corpus_answer_repeats_shell_syntax_planted_in_the_logs_paths():
    """Every absolute path of every corpus log gets each piece of shell syntax planted in its first directory
    name; no title, cause or fix may then hold it. The same logs unplanted name those paths in answers, and
    with the guard off this finds leaks (the libstdc++, CUDA_HOME, glibc, numba, TensorRT and nvcc entries)."""
    leaks, planted = set(), 0
    for path in _logs():
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if not PATH_START.search(text):
            continue
        for mark in HOSTILE:
            for m in explain(PATH_START.sub(lambda p: p.group(1) + mark, text)):
                planted += mark in m.matched
                for field in (m.title, m.cause, m.fix):
                    if mark in field:
                        leaks.add((m.id, os.path.basename(path), mark))
    assert planted > 100   # the planted paths reach the answers' matched lines: the sweep is not empty
    assert not leaks, sorted(leaks)[:10]
