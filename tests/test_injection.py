"""Injection attempts through every way text reaches cudaenv's output (tests/fieldpass/inject.py).

Two payloads per channel (toolkit roots, the cache dir, pins, profiles, the state variable,
--auto, conda hooks, modulefiles, CI formats, tmux), one consumer per variant, turning through the
shells and module systems: nothing executed, nothing broken. A cudaenv whose output is re-quoted
with double quotes must show up as executed payloads: the check can fail. The whole pass with
its figures: ``python3 tests/fieldpass/run.py --only inject`` (tests/fieldpass/README.md).
"""

from __future__ import annotations

import os
import sys

import pytest

from helpers import IN_CI, need, quote_badly

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fieldpass"))
import fpcommon  # noqa: E402
import inject  # noqa: E402


pytestmark = pytest.mark.shells

SEED = 20250611


def _missing(missing: dict[str, str]) -> None:
    if missing:
        msg = "not installed: " + "; ".join(f"{k} ({v})" for k, v in sorted(missing.items()))
        if IN_CI:
            pytest.fail(msg)
        pytest.skip(msg)


SHELL_CHANNELS = ("root", "cachedir", "pin", "profile", "state", "auto", "conda")


@pytest.mark.parametrize("channel", inject.CHANNELS)
def test_injection_attempts_run_nothing(channel, tmp_path):
    if channel in SHELL_CHANNELS:
        for shell in fpcommon.SHELLS:
            need(shell)
    elif channel == "tmux":
        need("tmux")
    results, missing = inject.run(quick=True, channels=(channel,), root=str(tmp_path))
    assert inject.failures(results) == []
    assert results or missing, "no attempt ran"
    assert all(a.outcome in ("inert", "refused") for a in results)
    _missing(missing)


def test_the_injection_attempts_catch_a_cudaenv_that_quotes_badly(tmp_path):
    need("bash")
    p = inject.Pass(str(tmp_path), SEED, quick=True)
    quote_badly(p.exe)
    inject.ch_root(p, ["bash"])
    assert any(a.outcome == "EXECUTED" for a in p.results), p.results
