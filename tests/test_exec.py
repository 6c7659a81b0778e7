"""``cudaenv exec TARGET -- CMD``: the real test bed toolkit, real bash, real processes and signals.

The environment the command gets is compared byte for byte with what a real
bash has after ``eval "$(cudaenv use TARGET)"``; exit statuses, a signal sent
to the process cudaenv was started as, binary stdin/stdout and a hostile
argument go through with nothing in between.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

import pytest

from helpers import (HOSTILE, REPO, clean_shell_env, default_signals, need, parse_env0, refused_in_one_line,
                     run_cudaenv, setup_missing)

pytestmark = pytest.mark.testbed

#: Variables a shell sets for itself (bash: SHLVL, _, PWD, OLDPWD): not part of what `use` gives.
SHELL_OWNED = {b"SHLVL", b"_", b"PWD", b"OLDPWD"}
#: Generous: a loaded CI machine may be slow; nothing here asserts a duration.
DEADLINE = 120


@pytest.fixture
def env(tmp_path, testbed):
    """A clean environment that finds the real 12.4 test bed toolkit, with values use must keep."""
    e = clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"])
    e.update(LD_LIBRARY_PATH="/opt/user/lib", EMPTY_ONE="", HOSTILE_VALUE=HOSTILE)
    return e


def cudaenv(tmp_path) -> str:
    return os.path.join(str(tmp_path), "bin", "cudaenv")  # written by clean_shell_env


def run(args: list[str], env: dict, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("capture_output", True)
    return subprocess.run(args, env=env, timeout=DEADLINE, **kw)


def test_environment_equals_bash_eval_of_use(tmp_path, env, testbed):
    exe = cudaenv(tmp_path)
    got = run([exe, "exec", "12.4", "--", "env", "-0"], env)
    assert got.returncode == 0, got.stderr
    bash = need("bash")
    want = run([bash, "-c", 'eval "$(cudaenv use 12.4)" || exit 9; exec env -0'], env)
    assert want.returncode == 0, want.stderr
    got_env, want_env = parse_env0(got.stdout), parse_env0(want.stdout)
    for k in SHELL_OWNED:
        got_env.pop(k, None)
        want_env.pop(k, None)
    assert got_env == want_env
    # and it is the switch, on top of what was there
    root = testbed["12.4"].encode()
    assert os.path.realpath(got_env[b"CUDA_HOME"]) == os.path.realpath(root)
    assert got_env[b"PATH"].split(b":")[0].endswith(b"/bin")
    assert b"/opt/user/lib" in got_env[b"LD_LIBRARY_PATH"].split(b":")
    assert got_env[b"HOSTILE_VALUE"] == HOSTILE.encode() and got_env[b"EMPTY_ONE"] == b""
    assert b"_CUDAENV_STATE" in got_env and got_env[b"CUDAENV_ACTIVE"]
    assert all(e for k in (b"PATH", b"LD_LIBRARY_PATH", b"LIBRARY_PATH") if k in got_env
               for e in got_env[k].split(b":")), "an empty path entry"


def test_notes_on_stderr_are_use_s(tmp_path, env):
    exe = cudaenv(tmp_path)
    run([exe, "use", "12.4", "--shell", "bash"], env)  # first use makes the stub link: same state for both
    use = run([exe, "use", "12.4", "--shell", "bash"], env, text=True)
    ex = run([exe, "exec", "12.4", "--", "true"], env, text=True)
    assert use.returncode == ex.returncode == 0
    assert ex.stderr == use.stderr


def test_off_inside_gives_back_the_callers_environment(tmp_path, env):
    exe = cudaenv(tmp_path)
    bash = need("bash")
    before = run([bash, "-c", "exec env -0"], env)
    inside = run([exe, "exec", "12.4", "--", bash, "-c", 'eval "$(cudaenv off)" || exit 9; exec env -0'], env)
    assert inside.returncode == 0, inside.stderr
    a, b = parse_env0(before.stdout), parse_env0(inside.stdout)
    for k in SHELL_OWNED:
        a.pop(k, None)
        b.pop(k, None)
    assert a == b


def test_the_command_is_found_on_the_profiles_path(tmp_path, env, testbed):
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "nvcc", "--version"], env, text=True)
    assert res.returncode == 0, res.stderr
    assert "release 12.4" in res.stdout


def test_exec_nested_switch_equals_two_uses(tmp_path, env, testbed):
    """exec inside an exec (a kernel started from a switched shell): one switch, as use after use."""
    e = dict(env, CUDAENV_ROOTS=f"{testbed['12.4']}:{testbed['11.8']}")
    exe = os.path.join(str(tmp_path), "bin", "cudaenv")
    got = subprocess.run([exe, "exec", "11.8", "--", exe, "exec", "12.4", "--", "env", "-0"], env=e,
                         capture_output=True, timeout=DEADLINE)
    want = subprocess.run([need("bash"), "-c", 'eval "$(cudaenv use 11.8)" && eval "$(cudaenv use 12.4)" && exec env -0'],
                          env=e, capture_output=True, timeout=DEADLINE)
    assert got.returncode == want.returncode == 0, (got.stderr, want.stderr)
    a, b = parse_env0(got.stdout), parse_env0(want.stdout)
    for k in SHELL_OWNED:
        a.pop(k, None)
        b.pop(k, None)
    assert a == b
    assert b"cuda-11.8" not in a[b"PATH"] and b"cuda-11.8" not in a[b"LD_LIBRARY_PATH"]


@pytest.mark.parametrize("code", [0, 1, 42, 255])
def test_exit_status_is_the_commands(tmp_path, env, code):
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "sh", "-c", f"exit {code}"], env)
    assert res.returncode == code
    assert res.stdout == b""


def test_not_found_is_127_and_one_line(tmp_path, env):
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "no-such-command-here", "x"], env, text=True)
    assert res.returncode == 127
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1 and "no-such-command-here: command not found" in res.stderr
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", str(tmp_path / "missing" / "prog")], env, text=True)
    assert res.returncode == 127 and res.stdout == "" and res.stderr.count("\n") == 1


def test_not_executable_is_126(tmp_path, env):
    prog = tmp_path / "noexec"
    prog.write_text("#!/bin/sh\necho ran\n")
    prog.chmod(0o644)
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", str(prog)], env, text=True)
    assert res.returncode == 126 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "cannot execute" in res.stderr
    # the same name through PATH; and a directory
    e = dict(env, PATH=f"{tmp_path}:{env['PATH']}")
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "noexec"], e, text=True)
    assert res.returncode == 126 and res.stdout == ""
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", str(tmp_path)], env, text=True)
    assert res.returncode == 126 and "is a directory" in res.stderr


def test_a_script_without_a_shebang_runs_in_sh_as_execvp_does(tmp_path, env):
    prog = tmp_path / "plain"
    prog.write_text('echo "plain $1"\n')
    prog.chmod(0o755)
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", str(prog), "arg"], env, text=True)
    assert res.returncode == 0 and res.stdout == "plain arg\n"


def _read_until(proc: subprocess.Popen, want: bytes) -> bytes:
    got = b""
    deadline = time.monotonic() + DEADLINE
    while want not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"no {want!r} from the command; got {got!r}"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, f"the command ended before {want!r}; got {got!r}"
            got += chunk
    return got


def test_a_signal_to_cudaenv_reaches_the_commands_trap(tmp_path, env):
    script = 'trap "echo got-term; exit 7" TERM; echo ready; while :; do sleep 0.1; done'
    proc = subprocess.Popen([cudaenv(tmp_path), "exec", "12.4", "--", "sh", "-c", script], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals)
    try:
        _read_until(proc, b"ready\n")
        with open(f"/proc/{proc.pid}/comm") as f:
            assert f.read().strip() == "sh"  # the pid cudaenv was started as is the command now
        os.kill(proc.pid, signal.SIGTERM)
        out, _err = proc.communicate(timeout=DEADLINE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert out == b"got-term\n"
    assert proc.returncode == 7


def test_death_by_signal_is_the_commands_own(tmp_path, env):
    proc = subprocess.Popen([cudaenv(tmp_path), "exec", "12.4", "--", "sh", "-c", "echo ready; exec sleep 1000"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals)
    try:
        _read_until(proc, b"ready\n")
        os.kill(proc.pid, signal.SIGINT)
        proc.communicate(timeout=DEADLINE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGINT  # killed by the signal itself: no wrapper turned it into 130


def _ignored_mask(tmp_path, env, preexec) -> int:
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "cat", "/proc/self/status"], env, text=True,
              preexec_fn=preexec)
    [ign] = [line.split()[1] for line in res.stdout.splitlines() if line.startswith("SigIgn:")]
    return int(ign, 16)


def _nohup() -> None:
    default_signals()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_signals_python_ignores_are_default_again(tmp_path, env):
    """Python ignores SIGPIPE for itself; the command must not inherit that (`| head` must end it)."""
    assert _ignored_mask(tmp_path, env, default_signals) == 0
    # What cudaenv was started with ignoring stays ignored: `nohup cudaenv exec …` keeps its promise.
    assert _ignored_mask(tmp_path, env, _nohup) == 1 << (signal.SIGHUP - 1)
    res = run([need("bash"), "-c", f"{cudaenv(tmp_path)} exec 12.4 -- yes | head -n 2"], env, text=True)
    assert res.returncode == 0 and res.stdout == "y\ny\n" and "Broken pipe" not in res.stderr


def test_binary_stdin_and_stdout_go_through_untouched(tmp_path, env):
    data = bytes(range(256)) * 64 + os.urandom(1 << 20) + b"\r\n\0\xff"
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "cat"], env, input=data)
    assert res.returncode == 0, res.stderr
    assert res.stdout == data


def test_arguments_are_passed_verbatim(tmp_path, env):
    args = [HOSTILE, "", " ", "--", "-x", "--help", "$HOME", "a\nb", "*"]
    res = run([cudaenv(tmp_path), "exec", "12.4", "--", "printf", "%s\\0", *args], env)
    assert res.returncode == 0, res.stderr
    assert res.stdout == b"".join(a.encode() + b"\0" for a in args)
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("args", [["12.4", "true"], ["12.4", "--"], ["12.4", "11.8", "--", "true"],
                                  ["--bogus", "--", "true"], ["99.9", "--", "true"]])
def test_usage_errors_and_unknown_targets(tmp_path, env, args):
    res = run([cudaenv(tmp_path), "exec", *args], env, text=True)
    assert res.returncode == 2
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("cudaenv: ")


def test_help(tmp_path, env):
    res = run([cudaenv(tmp_path), "exec", "--help"], env, text=True)
    assert res.returncode == 0 and "COMMAND" in res.stdout


def test_pin_names_the_target(tmp_path, env, testbed):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".cuda-version").write_text("12.4\n")
    res = run([cudaenv(tmp_path), "exec", "--", "sh", "-c", 'printf %s "$CUDA_HOME"'], env, text=True, cwd=str(proj))
    assert res.returncode == 0, res.stderr
    assert os.path.realpath(res.stdout) == os.path.realpath(testbed["12.4"])


def test_exec_path_imports_nothing_heavy(env):
    """What exec runs before it becomes the command: none of click, yaml, json, re, subprocess."""
    subprocess.run([sys.executable, "-m", "cudaenv", "use", "12.4", "--shell", "bash"],
                   env=dict(env, PYTHONPATH=REPO), capture_output=True, timeout=DEADLINE)  # warm the cache
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules)\n"
        "from cudaenv.commands.exec_ import split_args, exec_env\n"
        "from cudaenv.context import Context\n"
        "import cudaenv.infra.run\n"
        "target, cmd = split_args(['12.4', '--', 'true'])\n"
        "exec_env(Context(), target)\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    res = subprocess.run([sys.executable, "-S", "-c", code, REPO], env=env, capture_output=True, text=True,
                         timeout=DEADLINE)
    assert res.returncode == 0, res.stderr
    loaded = set(res.stdout.split("\n")[-2].split())
    heavy = {"click", "yaml", "distro", "re", "json", "subprocess", "pathlib", "shlex", "argparse", "typing",
             "signal", "enum"}
    assert not (loaded & heavy), loaded & heavy


@pytest.mark.slow
def test_a_python_command_is_judged_by_its_own_environment(tmp_path, venv_cu):
    """loader_path auto protects the wheels of the interpreter exec runs, not of PATH's python3.

    venv-cu's torch ships libnvJitLink.so.13 13.5.37; the shadow bed's 13.0 lib64 holds 13.0.88.
    The venv is not activated: only the command names it.
    """
    shadow = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(venv_cu))), "shadow", "cuda-13.0", "lib64")
    if not os.path.isfile(os.path.join(shadow, "libnvJitLink.so.13")):
        msg = f"{shadow} missing: run bash tests/shadow.sh"
        setup_missing(msg)
    from helpers import make_toolkit

    root = make_toolkit(str(tmp_path / "cuda-13.0"), "13.0.2")
    for n in os.listdir(shadow):
        src = os.path.join(shadow, n)
        os.symlink(os.readlink(src) if os.path.islink(src) else src, os.path.join(root, "lib64", n))
    e = clean_shell_env(tmp_path, CUDAENV_ROOTS=root)
    assert "venv-cu" not in e["PATH"]
    # A wheel library loaded before torch (as CuPy, JAX or a plain ctypes user does), then torch itself.
    code = ("import ctypes, glob, os, sys; "
            "[ctypes.CDLL(p) for p in glob.glob(sys.prefix + '/lib/python3*/site-packages/nvidia/cu13/lib/libcusparse.so.*')]; "
            "import torch; "
            "print(sorted({os.path.realpath(l.split()[-1]) for l in open('/proc/self/maps') if 'libnvJitLink' in l}))")
    res = run([cudaenv(tmp_path), "exec", "13.0.2", "--", venv_cu, "-c", code], e, text=True)
    assert res.returncode == 0, res.stderr
    assert "13.0.88" not in res.stdout and "/nvidia/cu13/lib/libnvJitLink.so.13" in res.stdout, res.stdout
    assert "libnvJitLink.so.13" in res.stderr  # use's note says what it left out
    # the same command through sh: PATH's python3 is not venv-cu's, so nothing protects it
    res = run([cudaenv(tmp_path), "exec", "13.0.2", "--", "sh", "-c", f'exec "$0" -c "{code}"', venv_cu], e, text=True)
    assert res.returncode == 0, res.stderr
    assert "libnvJitLink.so.13.0.88" in res.stdout, res.stdout


def test_exec_refuses_an_empty_command_word(one_toolkit):
    _tmp, env = one_toolkit
    refused_in_one_line(run_cudaenv(["exec", "12.4", "--", "", "x"], env), "empty word")
