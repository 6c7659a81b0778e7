"""A stdout that is closed, full (/dev/full) or a broken pipe: one line on stderr, non-zero exit.

For cudaenv's own output and for click's (--help, --version).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers import REPO, one_error_line, run_cudaenv, run_in_sh, stderr_is_cudaenv_lines


@pytest.mark.parametrize("how", ["closed", "full"])
@pytest.mark.parametrize("args", [["list"], ["use", "12.4", "--shell", "bash"], ["show", "12.4"]])
def test_stdout_closed_or_full_is_one_line(two_toolkits, how, args):
    base, env = two_toolkits
    cmd = [sys.executable, "-m", "cudaenv", *args]
    if how == "closed":
        res = subprocess.run(cmd, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             timeout=60, preexec_fn=lambda: os.close(1))
    else:
        with open("/dev/full", "w") as full:
            res = subprocess.run(cmd, env=env, cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    stderr_is_cudaenv_lines(res)
    assert res.returncode != 0 and "cannot write to stdout" in res.stderr


@pytest.mark.parametrize("redirect", [">&-", ">/dev/full"])
def test_init_with_a_bad_stdout_is_one_line(redirect):
    res = run_in_sh(f"$CUDAENV init bash {redirect}", dict(os.environ))
    assert "cannot write to stdout" in one_error_line(res, 1)


def _run_with_broken_stdout(args: list[str], env: dict) -> subprocess.CompletedProcess:
    """Run cudaenv with stdout a pipe whose reader has gone (EPIPE on write)."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable, "-m", "cudaenv", *args], stdout=w, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, env=dict(env, PYTHONPATH=REPO), timeout=60)
    finally:
        os.close(w)


@pytest.mark.parametrize("args", ["--help", "--version", "use --help", "profile build --help"])
@pytest.mark.parametrize("stdout", ["closed", "full", "broken"])
def test_clicks_own_output_to_a_bad_stdout_is_one_line(args, stdout):
    env = dict(os.environ)
    if stdout == "broken":
        res = _run_with_broken_stdout(args.split(), env)
        why = "Broken pipe"
    else:
        res = run_in_sh(f"$CUDAENV {args} {'>&-' if stdout == 'closed' else '>/dev/full'}", env)
        why = "stdout is closed" if stdout == "closed" else "No space left on device"
    assert f"cudaenv: cannot write to stdout: {why}" in one_error_line(res, 1)


def test_clicks_help_still_reaches_a_good_stdout():
    res = run_cudaenv(["use", "--help"], dict(os.environ))
    assert res.returncode == 0 and res.stdout.startswith("Usage: cudaenv use") and res.stderr == ""
    res = run_cudaenv(["--version"], dict(os.environ))
    assert res.returncode == 0 and res.stdout.startswith("cudaenv, version ") and res.stderr == ""
