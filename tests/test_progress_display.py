"""The one progress display (cudaenv/infra/progress.py) and the terminal rules (infra/term.py).

Install's bars are tested end to end on a pty in test_install.py; here verify's step rows
are drawn by a real child process on pseudo-terminals of 80 and 60 columns and read back
through a terminal emulator.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import REPO

CHILD = r"""
import sys, time, threading
sys.path.insert(0, sys.argv[1])
from cudaenv.verify.runner import Progress
from cudaenv.infra.console import write_out
p = Progress(sys.stderr)
labels = ["cuda-13.5.0+a-very-long-environment-name-that-does-not-fit-" + "x" * 40, "cuda-12.4.1"]
for lab in labels:
    p.start(lab, "torch-build")
# The rows are redrawn twice a second: let a few redraws happen.
time.sleep(1.6)
p.write(lambda: write_out("RESULT cuda-12.4.1 ok\n"))
time.sleep(0.6)
p.end(labels[1])
time.sleep(0.6)
p.end(labels[0])
p.close()
sys.stderr.write("DONE\n")
"""


@pytest.mark.parametrize("cols", [80, 60])
def test_verify_rows_fit_and_leave_nothing_behind(cols):
    from ptyscreen import ESC, Screen, run_on_pty

    code, raw, _ = run_on_pty([sys.executable, "-c", CHILD, REPO], {"PATH": "/usr/bin:/bin"}, cols,
                              lines=40, timeout=60, stdout_too=True)
    text = raw.decode()
    assert code == 0, text
    rows = [ESC.sub("", p) for p in re.split(r"\r|\n|\x1b\[\d*A|\x1b\[J", text) if "cudaenv verify:" in p]
    assert len(rows) >= 3, text  # it did redraw
    assert all(len(r) < cols for r in rows), [r for r in rows if len(r) >= cols]
    assert any("…" in r for r in rows), rows  # the long label was cut, not wrapped
    screen = Screen(cols, 40)
    screen.feed(raw)
    # What is left: the result line and the last line; no progress row.
    assert screen.rows() == ["RESULT cuda-12.4.1 ok", "DONE"], screen.rows()


def test_verify_progress_off_a_terminal_is_plain_lines():
    r = subprocess.run([sys.executable, "-c", CHILD, REPO], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stderr and "\r" not in r.stderr, repr(r.stderr)
    assert "cudaenv verify: cuda-12.4.1: torch-build (" in r.stderr and r.stderr.endswith("DONE\n")
    assert r.stdout == "RESULT cuda-12.4.1 ok\n"


def test_fit_elides_in_cells():
    sys.path.insert(0, REPO)
    from cudaenv.infra.term import cells, fit

    assert fit("/usr/local/cuda-12.4", 40) == "/usr/local/cuda-12.4"
    assert fit("/usr/local/cuda-12.4", 10) == "/usr…-12.4"
    assert fit("abcdef", 4, "end") == "abc…"
    for text in ("/opt/环境/很长的路径/cuda-13.5", "e\u0301" * 30, "x" * 100):
        for n in (0, 1, 2, 5, 9, 20):
            assert cells(fit(text, n)) <= n, (text, n)
    assert cells("环境") == 4


def test_colour_rules():
    sys.path.insert(0, REPO)
    from cudaenv.infra.term import colour

    class Tty:
        def isatty(self):
            return True

    class Pipe:
        def isatty(self):
            return False

    assert colour(Tty(), {}) and not colour(Pipe(), {})
    assert not colour(Tty(), {"NO_COLOR": "1"}) and colour(Tty(), {"NO_COLOR": ""})
    assert not colour(Tty(), {"TERM": "dumb"})
    assert colour(Pipe(), {"FORCE_COLOR": "1"}) and colour(Pipe(), {"CLICOLOR_FORCE": "1"})
    assert not colour(Pipe(), {"FORCE_COLOR": "0"})
    assert not colour(Tty(), {"NO_COLOR": "1", "FORCE_COLOR": "1"})  # NO_COLOR wins


def test_fit_table_drops_then_elides():
    sys.path.insert(0, REPO)
    from cudaenv.infra.term import cells, fit_table

    rows = [("A", "PATH", "NOTE"), ("x", "/very/long/" + "p" * 80 + "/end", "low value note")]
    full = fit_table(rows, None)
    assert full[1].endswith("low value note") and "p" * 80 in full[1]
    for n in (80, 60, 40, 12):
        lines = fit_table(rows, n, elide=[1], drop=[2])
        assert all(cells(line) <= n for line in lines), (n, lines)
    lines = fit_table(rows, 60, elide=[1], drop=[2])
    assert "NOTE" not in lines[0] and lines[1].endswith("/end")
