"""The output layer: tables that fit the terminal, colour rules, --quiet.

Tables and colours are read from a real pseudo-terminal (tests/ptyscreen.py) of 80 and 60
columns; the same commands on a pipe print every column in full and no escape sequence.
"""

from __future__ import annotations

import os
import re
import sys

import pytest

from helpers import REPO, make_toolkit, run_cudaenv


def wide_env(tmp_path) -> dict:
    """Two toolkits under a long root, and a wheel toolkit in an environment deep in the tree:
    `list` is about 190 columns wide on a pipe."""
    deep = tmp_path / "projects" / "a-rather-long-project-name" / "environments" / "training-env-2026"
    site = deep / "lib" / "python3.12" / "site-packages"
    root = site / "nvidia" / "cu13"
    for d in ("bin", "include", "lib"):
        (root / d).mkdir(parents=True)
    (root / "bin" / "nvcc").write_text("#!/bin/sh\nexit 1\n")
    os.chmod(root / "bin" / "nvcc", 0o755)
    (root / "include" / "cuda_runtime.h").write_text("")
    (root / "include" / "cuda.h").write_text("#define CUDA_VERSION 13050\n")
    (root / "lib" / "libcudart.so.13").write_text("")
    (site / "nvidia_cuda_nvcc-13.5.37.dist-info").mkdir()
    base = tmp_path / "opt" / "vendor-toolkits-shared-by-the-whole-group"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    return dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*:{deep}", PYTHONPATH=REPO)


@pytest.mark.parametrize("cols", [80, 60])
def test_list_fits_the_terminal(tmp_path, cols):
    from ptyscreen import ESC, Screen, run_on_pty

    env = wide_env(tmp_path)
    piped = run_cudaenv(["list"], env)
    assert piped.returncode == 0, piped.stderr
    assert max(len(line) for line in piped.stdout.splitlines()) > 150, piped.stdout  # the problem
    assert "pip wheels in" in piped.stdout and "FOUND BY" in piped.stdout
    code, raw, _ = run_on_pty([sys.executable, "-m", "cudaenv", "list"], env, cols, stdout_too=True, timeout=120)
    assert code == 0, raw
    lines = [ESC.sub("", line) for line in raw.decode().replace("\r", "").splitlines()]
    table = [line for line in lines if not line.startswith("cudaenv:")]
    assert len(table) == len(piped.stdout.splitlines()), lines  # a header, a row per toolkit, the legend
    assert all(len(line) <= cols for line in table), [line for line in table if len(line) > cols]
    screen = Screen(cols, 40)
    screen.feed(raw)
    shown = screen.rows()
    assert len(shown) == len(lines), shown  # no row wrapped onto a second line
    for v in ("11.8.0", "12.4.1", "13.5"):  # every toolkit still told apart by its version
        assert sum(v in r for r in shown) == 1, shown
    assert "…" in "".join(shown)
    # --wide: the whole table, as on a pipe.
    code, raw, _ = run_on_pty([sys.executable, "-m", "cudaenv", "list", "--wide"], env, cols, stdout_too=True,
                              timeout=120)
    wide = [ESC.sub("", line) for line in raw.decode().replace("\r", "").splitlines()]
    assert [line.rstrip() for line in wide] == [line.rstrip() for line in piped.stdout.splitlines()], wide


@pytest.mark.parametrize("command", [["check", "--all", "--no-torch"], ["doctor", "--no-torch"],
                                     ["verify", "11.8", "--no-torch"]])
def test_colour_only_on_a_terminal_and_never_with_no_color(tmp_path, command):
    from ptyscreen import Screen, run_on_pty

    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    env = dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*", PYTHONPATH=REPO)
    for var in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"):
        env.pop(var, None)
    env["TERM"] = "xterm"
    sgr = ("\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[2m")
    argv = [sys.executable, "-m", "cudaenv", *command]
    _, raw_coloured, _ = run_on_pty(argv, env, 200, stdout_too=True, timeout=300)
    coloured = raw_coloured.decode()
    assert any(s in coloured for s in sgr), coloured
    _, raw, _ = run_on_pty(argv, dict(env, NO_COLOR="1"), 200, stdout_too=True, timeout=300)
    plain = raw.decode()
    assert not re.search(r"\x1b\[[0-9;]*m", plain), repr(plain)  # no colour (progress rows may move the cursor)
    # What a person sees at the end, not the byte stream: a progress row drawn while a step runs (only
    # on a machine slow enough for a redraw) is erased before the results, so it is not compared.
    shown = []
    for data in (raw_coloured, raw):
        screen = Screen(200, 1000)
        screen.feed(data)
        shown.append(screen.rows()[0])
    assert shown[0] == shown[1], shown
    piped = run_cudaenv(command, env)
    assert "\x1b" not in piped.stdout + piped.stderr
    forced = run_cudaenv(command, dict(env, FORCE_COLOR="1"))
    assert any(s in forced.stdout for s in sgr), forced.stdout
    assert "\x1b" not in run_cudaenv(command, dict(env, FORCE_COLOR="1", NO_COLOR="1")).stdout


@pytest.mark.parametrize("command", [["check", "--all", "--no-torch"], ["verify", "--all", "--no-torch"]])
def test_quiet_prints_nothing_and_the_exit_status_says(tmp_path, command):
    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    env = dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*")
    loud = run_cudaenv(command, env)
    assert loud.stdout, loud.stderr
    for flag in ("-q", "--quiet"):
        for extra in ([], ["--no-cache"])[:1 + (command[0] == "verify")]:  # verify: also past its cache
            quiet = run_cudaenv([*command, flag, *extra], env)
            assert (quiet.returncode, quiet.stdout, quiet.stderr) == (loud.returncode, "", ""), quiet
    # --json is asked for explicitly: it still prints.
    assert run_cudaenv([*command, "-q", "--json"], env).stdout.startswith("{")
    # Errors are never quiet: one line, non-zero.
    bad = run_cudaenv([command[0], "no-such-toolkit", "-q"], env)
    assert bad.returncode != 0 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1, bad
