"""Profile files: reading one that is not text, and `profile build` when it cannot write."""

from __future__ import annotations

import os

import pytest

from cudaenv.errors import CudaenvError
from helpers import one_error_line, run_cudaenv, stderr_is_cudaenv_lines, use_as_json


def test_a_binary_profile_unrelated_to_the_target_is_a_note(two_toolkits, tmp_path):
    base, env = two_toolkits
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    (prof / "junk.yaml").write_bytes(b"\xff\xfe\x00\x01binary")
    env = dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    res, doc = use_as_json(["12.4"], env)
    stderr_is_cudaenv_lines(res)
    assert res.returncode == 0 and "not UTF-8 text" in res.stderr


def test_profile_build_into_an_unwritable_config_is_one_line(two_toolkits):
    base, env = two_toolkits
    res = run_cudaenv(["profile", "build", "--all"], dict(env, XDG_CONFIG_HOME="/dev/null"))
    stderr_is_cudaenv_lines(res)
    assert res.returncode != 0 and "cannot write /dev/null/cudaenv/profiles/" in res.stderr


def test_profile_build_that_cannot_write_prints_nothing_on_stdout(tmp_path, system_toolkit):
    """The generated stub's line used to reach stdout before the profile write failed."""
    env = dict(os.environ, XDG_CONFIG_HOME="/dev/null", XDG_CACHE_HOME=str(tmp_path / "cache"),
               CUDAENV_ROOTS=system_toolkit, CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"))
    res = run_cudaenv(["profile", "build", system_toolkit], env)
    assert "cannot write /dev/null/cudaenv/profiles/" in one_error_line(res, 1)
    ok = run_cudaenv(["profile", "build", system_toolkit], dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg")))
    assert ok.returncode == 0 and "wrote    " in ok.stdout, ok.stderr


def test_profile_build_names_what_it_wrote_before_a_write_failed(two_toolkits, tmp_path, monkeypatch, capfd):
    from cudaenv.commands.profile import build
    from cudaenv.infra import atomic

    base, env = two_toolkits
    for k, v in dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_CACHE_HOME=str(tmp_path / "cache")).items():
        monkeypatch.setenv(k, v)
    real, calls = atomic.write_atomic, []

    def second_fails(path, text, mode=None):
        calls.append(path)
        if len(calls) == 2:
            raise CudaenvError(f"cannot write {path}: No space left on device")
        real(path, text, mode)

    monkeypatch.setattr(atomic, "write_atomic", second_fails)
    with pytest.raises(CudaenvError) as exc:
        build([str(base / "cuda-11.8.0"), str(base / "cuda-12.4.1")], False, False)
    assert exc.value.message == f"cannot write {calls[1]}: No space left on device (written before it: {calls[0]})"
    assert os.path.isfile(calls[0]) and capfd.readouterr().out == ""
