"""Round trips in the real shells (tests/fieldpass/roundtrip.py), a seeded subset.

A fixed-seed handful per shell (start -> use A -> edits -> use B -> edits -> off in real bash,
dash, zsh, fish and tcsh): no diff, no empty entry, refusals one line. A cudaenv whose output is
re-quoted with double quotes must show up as diffs (or a shell that stops): the check can fail.
The whole pass with its figures: ``python3 tests/fieldpass/run.py`` (tests/fieldpass/README.md).
"""

from __future__ import annotations

import os
import sys

import pytest

from helpers import need, quote_badly

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fieldpass"))
import fpcommon  # noqa: E402
import roundtrip  # noqa: E402


pytestmark = pytest.mark.shells

SEED = 20250611
TRIPS = 8  # per shell: one chunk, so one shell process each


@pytest.fixture(scope="module")
def bed(tmp_path_factory):
    return roundtrip.make_bed(str(tmp_path_factory.mktemp("fieldpass-rt")))


@pytest.mark.parametrize("shell", fpcommon.SHELLS)
def test_round_trips_give_the_start_back(shell, bed):
    need(shell)
    results = roundtrip.run_shell(bed, shell, SEED, TRIPS)
    assert len([r for r in results if r.index >= 0]) == TRIPS
    assert roundtrip.failures(results) == []
    assert all(r.status in ("exact", "refused") and r.empty == 0 for r in results)


def test_the_round_trips_catch_a_cudaenv_that_quotes_badly(tmp_path):
    need("bash")
    mbed = roundtrip.make_bed(str(tmp_path))
    quote_badly(mbed.exe)
    results = roundtrip.run_shell(mbed, "bash", SEED, 4)
    assert any(r.status in ("diff", "broken") for r in results) and roundtrip.failures(results)
