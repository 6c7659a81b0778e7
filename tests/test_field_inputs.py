"""Inputs found in the field (issue: field-proof): each gets one clear line or the right answer.

Small fake toolkit trees (``helpers.make_toolkit``) stand in where an odd tree
is the point; the commands run as separate processes, as users run them.
"""

from __future__ import annotations

import json
import os

import pytest

from cudaenv.env.plan import MAX_VAR_BYTES, Plan
from cudaenv.errors import CudaenvError
from helpers import make_toolkit, run_cudaenv


@pytest.fixture
def two(tmp_path):
    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    env = dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*", CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"))
    return base, env


def use_json(args, env, cwd=None):
    res = run_cudaenv(["use", *args, "--shell", "json"], env, cwd=cwd)
    return res, (json.loads(res.stdout) if res.returncode == 0 else None)


@pytest.mark.parametrize("text", ["11.8 trailing words\n", "11.8\u00a0\n", "\ufeff11.8\n", "  # pinned\n11.8\t# old\n"])
def test_pin_takes_the_first_word(two, tmp_path, text):
    base, env = two
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".cuda-version").write_text(text, encoding="utf-8")
    res, doc = use_json([], env, cwd=str(proj))
    assert res.returncode == 0, res.stderr
    assert doc["set"]["CUDAENV_ACTIVE"] == "cuda-11.8.0"


def test_pin_that_is_not_utf8_is_one_clear_line(two, tmp_path):
    base, env = two
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".cuda-version").write_bytes(b"11.8\xff\xfe\n")
    res, _ = use_json([], env, cwd=str(proj))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "is not UTF-8 text" in res.stderr


@pytest.mark.parametrize("args", [["use", "12.4", "--shell", ""], ["use", "12.4", "--shell="], ["off", "--shell="]])
def test_an_empty_shell_name_is_refused_not_detected(two, args):
    base, env = two
    res = run_cudaenv(args, env)
    assert res.returncode == 2 and res.stdout == "" and "unknown shell ''" in res.stderr


def test_a_value_over_the_kernels_per_variable_limit_is_refused(two):
    base, env = two
    with pytest.raises(CudaenvError, match="limit for one variable"):
        Plan([("set", "X", "a" * MAX_VAR_BYTES)], [])
    Plan([("set", "X", "a" * (MAX_VAR_BYTES - 3))], [])  # "X=" + value + NUL fits exactly
    # A PATH already near the limit: prepending the toolkit's bin would push it over.
    env = dict(env, PATH="/usr/bin:/bin:" + "/x" * ((MAX_VAR_BYTES - 40) // 2))
    res, _ = use_json(["12.4"], env)
    assert res.returncode == 2 and res.stdout == "" and "Argument list too long" in res.stderr


def test_an_unwritable_cache_costs_the_stub_link_not_the_switch(two, tmp_path):
    base, env = two
    env = dict(env, XDG_CACHE_HOME="/dev/null")  # a file: nothing can be created below it
    res, doc = use_json(["12.4"], env)
    assert res.returncode == 0, res.stderr
    assert "switching without the driver stub" in res.stderr
    assert doc["set"]["CUDA_HOME"].endswith("cuda-12.4.1")
    assert doc["set"]["LD_LIBRARY_PATH"] == f"{base}/cuda-12.4.1/lib64"


def test_csh_refuses_a_switch_it_could_not_undo(two):
    base, env = two
    env = dict(env, CUDA_HOME="/opt/a\nb")
    res = run_cudaenv(["use", "12.4", "--shell", "tcsh"], env)
    assert res.returncode == 2 and res.stdout == "" and "CUDA_HOME holds a newline" in res.stderr
    # Other shells can restore it, so they switch.
    assert run_cudaenv(["use", "12.4", "--shell", "bash"], env).returncode == 0


def test_terminal_escapes_in_a_toolkit_path_are_printed_escaped(tmp_path):
    root = make_toolkit(str(tmp_path / "cuda-\x1b[31mred"), "12.4.1")
    env = dict(os.environ, CUDAENV_ROOTS=root)
    for args in (["list"], ["show", "12.4"]):
        res = run_cudaenv(args, env)
        assert res.returncode == 0, res.stderr
        assert "\x1b" not in res.stdout and "\\x1b[31mred" in res.stdout
    # Machine output keeps the real path.
    assert json.loads(run_cudaenv(["list", "--json"], env).stdout)["toolkits"][0]["root"] == root


def test_doctor_does_not_say_agree_when_only_path_chooses(two):
    base, env = two
    env = dict(env, PATH=f"{base}/cuda-12.4.1/bin:" + env["PATH"])
    res = run_cudaenv(["doctor", "--no-torch", "--json"], env)
    doc = json.loads(res.stdout)
    cons = [f for f in doc["shell"] if f["id"] == "env.consistency"]
    assert cons and cons[0]["status"] == "warn" and "only PATH chooses" in cons[0]["summary"], cons
