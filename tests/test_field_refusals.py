"""Bad inputs the bad-input field pass (tests/fieldpass/badinput.py) found: each is now one line or right.

Every command runs as a separate process, as users run it; fake toolkit trees
(``helpers.make_toolkit``) stand in where an odd tree is the point.
"""

from __future__ import annotations

import os

import pytest

from helpers import make_toolkit, run_cudaenv


@pytest.fixture
def world(tmp_path):
    base = tmp_path / "tk"
    make_toolkit(str(base / "cuda-12.4.1"), "12.4.1")
    env = dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*", CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    return tmp_path, env


def one_line(res, *words: str) -> None:
    """Refused: non-zero exit, nothing on stdout, one `cudaenv:` line holding ``words``."""
    assert res.returncode != 0 and res.stdout == "", res.stdout + res.stderr
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("cudaenv: "), res.stderr
    for w in words:
        assert w in res.stderr, res.stderr


def test_exec_refuses_an_empty_command_word(world):
    _tmp, env = world
    one_line(run_cudaenv(["exec", "12.4", "--", "", "x"], env), "empty word")


@pytest.mark.parametrize("bound", ["9" * 5000, "12.\u00b9", "\uff11\uff12", "12.-1", "1" * 10])
def test_matrix_bounds_are_ascii_numbers_of_sane_length(world, bound):
    _tmp, env = world
    res = run_cudaenv(["matrix", "--min", bound], env)
    one_line(res, "is not a version like 12 or 12.4")
    assert len(res.stderr) < 200, "the message quotes a clipped value"


@pytest.mark.parametrize("value", ["nan", "inf", "NaN"])
def test_verify_timeout_must_be_a_finite_number(world, value):
    """nan passed click's range check (every comparison with nan is false), and then no limit held."""
    _tmp, env = world
    res = run_cudaenv(["verify", "12.4", "--no-torch", "--timeout", value], env)
    assert res.returncode == 2 and res.stdout == "" and "is not a number of seconds" in res.stderr, res.stderr


@pytest.mark.parametrize("how", ["path", "profile"])
def test_check_and_doctor_print_terminal_escapes_in_a_path_escaped(world, how):
    tmp, env = world
    root = make_toolkit(str(tmp / "odd" / "cuda-\x1b[31mred"), "12.6.0")
    target = root
    if how == "profile":
        prof = tmp / "config" / "cudaenv" / "profiles"
        prof.mkdir(parents=True)
        (prof / "odd.yaml").write_text(f"name: odd\nroot: {root!r}\n".replace("'", '"'), encoding="utf-8")
        target = "odd"
    res = run_cudaenv(["check", target, "--no-torch"], env)
    assert res.returncode in (0, 1) and "\x1b" not in res.stdout + res.stderr, res.stdout
    assert "cuda-\\x1b[31mred" in res.stdout
    res = run_cudaenv(["doctor", "--no-torch"], dict(env, CUDA_HOME=root, PATH=f"{root}/bin:/usr/bin:/bin"))
    assert "\x1b" not in res.stdout + res.stderr, res.stdout


@pytest.mark.parametrize("name", ["cuda:12.6", "cuda\n12.6"], ids=["colon", "newline"])
def test_show_refuses_what_use_refuses(world, name):
    """show describes `use`: a root no PATH-like list can hold is refused by both, with the same line."""
    tmp, env = world
    root = make_toolkit(str(tmp / "odd" / name), "12.6.0")
    shown, used = (run_cudaenv([cmd, root, *extra], env) for cmd, extra in (("show", []), ("use", ["--shell", "bash"])))
    one_line(shown, "cannot")
    one_line(used)
    assert shown.stderr == used.stderr


def test_show_refuses_a_profile_entry_use_refuses(world):
    tmp, env = world
    prof = tmp / "config" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    root = tmp / "tk" / "cuda-12.4.1"
    (prof / "colon.yaml").write_text(f'name: colon\nroot: "{root}"\nprepend:\n  PATH: ["/a:/b"]\n', encoding="utf-8")
    one_line(run_cudaenv(["show", "colon"], env), "'/a:/b'")


@pytest.mark.parametrize("cmd", ["show", "use"])
def test_an_empty_target_is_a_bad_name_not_none_given(world, cmd):
    _tmp, env = world
    one_line(run_cudaenv([cmd, "", "--shell", "bash"] if cmd == "use" else [cmd, ""], env), "empty")


def test_a_hanging_nvcc_on_path_is_asked_once(world):
    """doctor asks PATH's nvcc its version only when the toolkit's own probe did not already (and timed out)."""
    tmp, env = world
    root = make_toolkit(str(tmp / "slow" / "cuda-12.2"), "12.2.140", version_json=False, cuda_h=False)
    count = tmp / "asked"
    with open(os.path.join(root, "bin", "nvcc"), "w") as f:
        f.write(f'#!/bin/sh\necho asked >> "{count}"\nexec sleep 291.5\n')
    # (cudaenv kills the whole process group of a command that times out: no sleep is left behind)
    res = run_cudaenv(["doctor", "--no-torch"], dict(env, PATH=f"{root}/bin:/usr/bin:/bin"))
    assert "Traceback" not in res.stderr and "only PATH chooses a toolkit" in res.stdout, res.stdout + res.stderr
    assert count.read_text().count("asked") == 1
    res = run_cudaenv(["list"], dict(env, CUDAENV_ROOTS=root))
    assert "did not finish within" in res.stderr and "cuda-12.2" in res.stderr, res.stderr
