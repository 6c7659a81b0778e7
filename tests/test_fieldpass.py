"""The field pass (tests/fieldpass/), a seeded subset: round trips and injection attempts.

Round trips: a fixed-seed handful per shell (start -> use A -> edits -> use B ->
edits -> off in real bash, dash, zsh, fish and tcsh): no diff, no empty entry,
refusals one line. Injection: two payloads per channel, one consumer per
variant, turning through the shells and module systems: nothing executed,
nothing broken. Two checks that the pass itself can fail: a cudaenv whose
output is re-quoted with double quotes must show up as executed payloads and
diffs (or a shell that stops). What the pass found is kept as a regression
test. The whole pass with its figures: ``python3 tests/fieldpass/run.py``
(tests/fieldpass/README.md).
"""

from __future__ import annotations

import os
import stat
import sys

import pytest

from helpers import IN_CI, make_toolkit, need, run_cudaenv, write_wrapper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fieldpass"))
import fpcommon  # noqa: E402
import inject  # noqa: E402
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


MUTANT = """#!/bin/sh
# A cudaenv that double-quotes what the real one single-quotes: $( ) and backquotes then run.
out=$({real} "$@"); rc=$?
[ -n "$out" ] && printf '%s\\n' "$out" | sed "s/'/\\"/g"
exit $rc
"""


def _mutate(exe: str) -> None:
    os.replace(exe, exe + ".real")
    with open(exe, "w") as f:
        f.write(MUTANT.format(real=exe + ".real"))
    os.chmod(exe, stat.S_IRWXU)


def test_the_round_trips_catch_a_cudaenv_that_quotes_badly(tmp_path):
    need("bash")
    mbed = roundtrip.make_bed(str(tmp_path))
    _mutate(mbed.exe)
    results = roundtrip.run_shell(mbed, "bash", SEED, 4)
    assert any(r.status in ("diff", "broken") for r in results) and roundtrip.failures(results)


def test_the_injection_attempts_catch_a_cudaenv_that_quotes_badly(tmp_path):
    need("bash")
    p = inject.Pass(str(tmp_path), SEED, quick=True)
    _mutate(p.exe)
    inject.ch_root(p, ["bash"])
    assert any(a.outcome == "EXECUTED" for a in p.results), p.results


def test_conda_hook_install_refuses_a_root_use_refuses(tmp_path):
    """Found by the field pass: install wrote hooks for a root with ':' that every activation then refused."""
    root = make_toolkit(str(tmp_path / "tk" / "cuda:12.3"), "12.3.7")
    prefix = tmp_path / "env"
    (prefix / "conda-meta").mkdir(parents=True)
    write_wrapper(str(tmp_path / "bin"))  # the cudaenv the hooks run, found as install checks it
    env = dict(os.environ, PATH=f"{tmp_path / 'bin'}:/usr/bin:/bin")
    assert run_cudaenv(["use", root, "--shell", "bash"], env).returncode == 2  # use refuses it up front
    res = run_cudaenv(["conda-hook", "install", root, "--prefix", str(prefix)], env)
    assert res.returncode != 0 and res.stdout == "" and "cannot put" in res.stderr, res.stdout + res.stderr
    assert not (prefix / "etc").exists()
