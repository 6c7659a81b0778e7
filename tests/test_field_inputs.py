"""Inputs found in the field (issue: field-proof): each gets one clear line or the right answer.

Small fake toolkit trees (``helpers.make_toolkit``) stand in where an odd tree
is the point; the commands run as separate processes, as users run them.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from cudaenv.env.plan import MAX_VAR_BYTES, Plan
from cudaenv.errors import CudaenvError
from cudaenv.infra.files import NotRegular, TooLarge, read_limited
from helpers import REPO, make_toolkit, run_cudaenv


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


def _kill_marked(marker: str) -> None:
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        os.kill(int(pid), 9)
            except OSError:
                pass


def test_an_nvcc_that_leaves_a_daemon_holding_its_output_does_not_hang_discovery(tmp_path):
    """nvcc (read only when no version file says the version) starts a daemon that keeps stdout open."""
    root = make_toolkit(str(tmp_path / "cuda-12.2"), "12.2.140", version_json=False, cuda_h=False)
    nvcc = os.path.join(root, "bin", "nvcc")
    with open(nvcc) as f:
        body = f.read()
    marker = "297.123"  # a sleep nobody else runs, so the test can find and end it
    with open(nvcc, "w") as f:
        f.write(body.replace("#!/bin/sh\n", f"#!/bin/sh\nsetsid sleep {marker} &\n", 1))
    env = dict(os.environ, CUDAENV_ROOTS=root)
    try:
        res = subprocess.run([sys.executable, "-m", "cudaenv", "list", "--json"], env=env, cwd=REPO,
                             capture_output=True, text=True, timeout=60)
    finally:
        _kill_marked(f"sleep {marker}")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["toolkits"][0]["full_version"] == "12.2.140"


def _one_line_or_ok(res):
    assert "Traceback" not in res.stderr, res.stderr
    for line in res.stderr.splitlines():
        assert line.startswith("cudaenv: "), res.stderr


@pytest.mark.parametrize("content", [
    '{"cuda": {"version": "\uff11\uff12.\uff14.1"}}',  # fullwidth digits: int() takes them
    '{"cuda": {"version": "12.4.\u00b9"}}',  # a superscript: isdigit() says yes, int() says no
    "[" * 200000,  # nested past the JSON parser's depth
    b"\xff\xfe\x00bin\x01",
], ids=["fullwidth", "superscript", "deep", "binary"])
def test_odd_version_json_is_a_skip_reason_not_a_traceback(tmp_path, content):
    root = make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    path = os.path.join(root, "version.json")
    with open(path, "wb") as f:
        f.write(content if isinstance(content, bytes) else content.encode())
    res = run_cudaenv(["list", "--json"], dict(os.environ, CUDAENV_ROOTS=root))
    _one_line_or_ok(res)
    assert res.returncode == 0
    assert root not in [t["root"] for t in json.loads(res.stdout)["toolkits"]]
    assert "unreadable version.json" in res.stderr or "names no valid CUDA version" in res.stderr


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_fifo_or_device_in_place_of_a_file_does_not_hang(tmp_path, kind):
    root = make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    for path in (os.path.join(root, "version.json"), str(prof / "odd.yaml")):
        os.unlink(path) if os.path.exists(path) else None
        if kind == "fifo":
            os.mkfifo(path)
        else:
            os.symlink("/dev/zero", path)
    env = dict(os.environ, CUDAENV_ROOTS=root, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    res = subprocess.run([sys.executable, "-m", "cudaenv", "list", "--json"], env=env, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    _one_line_or_ok(res)
    # The toolkit is skipped with the reason, and the odd profile is only noted: nothing hangs.
    assert f"skipped {root}" in res.stderr and "unreadable version.json (not a regular file)" in res.stderr
    assert root not in [t["root"] for t in json.loads(res.stdout)["toolkits"]]
    res = subprocess.run([sys.executable, "-m", "cudaenv", "profile", "list"], env=env, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    _one_line_or_ok(res)
    assert "cannot read profile" in res.stderr and "odd.yaml: not a regular file" in res.stderr


def _odd_file(path: str, kind: str) -> None:
    """Put a FIFO, a link to /dev/zero or a sparse file over the size caps at ``path``."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.unlink(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "devzero":
        os.symlink("/dev/zero", path)
    else:
        with open(path, "wb") as f:
            f.truncate(4 << 30)  # sparse: larger than any cap (and _run's memory limit), costs no disk


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    # `python -m cudaenv` is the process's own entry, so the fast forms read their preload files too.
    # The timeout is the hang guard (a blocking read fails the test here); the memory limit makes a read
    # without a cap a MemoryError here rather than a machine out of memory.
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=60, preexec_fn=_limit_memory)


@pytest.mark.parametrize("kind", ["fifo", "devzero", "huge"])
def test_a_fifo_device_or_huge_file_in_place_of_a_cache_costs_only_speed(two, kind):
    """The index, the preload files and a verify record are caches: anything odd there reads as "no cache",
    the answer is the same, and the next save replaces it with a regular file."""
    base, env = two
    cache = os.path.join(os.environ["XDG_CACHE_HOME"], "cudaenv")
    tag = sys.implementation.cache_tag
    use, listing = ["use", "12.4", "--shell", "bash"], ["list"]
    want = {}
    for args in (use, use, listing, listing):  # warm: the index and both preload files exist
        res = _run(args, env)
        assert res.returncode == 0, res.stderr
        want[tuple(args)] = res.stdout
    assert os.path.isfile(os.path.join(cache, f"preload-use.{tag}"))
    odd = ["index.marshal", f"preload-use.{tag}", f"preload-list.{tag}", "verify/cuda-12.4.1.marshal"]
    for name in odd:
        _odd_file(os.path.join(cache, name), kind)
    for args in (use, listing, ["show", "12.4"], ["list", "--json"], ["use", "12.4", "--verify", "--shell", "bash"]):
        res = _run(args, env)
        _one_line_or_ok(res)
        assert res.returncode == 0, (args, res.stderr)
        assert res.stdout == want.get(tuple(args), res.stdout), args
        if "--verify" in args:
            assert "has never been verified" in res.stderr  # the odd record is no record
    for args in (use, listing):  # a warm run rewrites the preload file it could not use
        assert _run(args, env).returncode == 0
    code = ("import sys; from cudaenv.verify import cache\n"
            "cache.store(sys.argv[1], 'cuda-12.4.1', ('k',), {'status': 'pass'})\n"
            "print(cache.last_record(sys.argv[1], 'cuda-12.4.1'))\n")
    res = subprocess.run([sys.executable, "-c", code, cache], env=env, cwd=REPO, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0 and res.stdout == "{'status': 'pass'}\n", res.stderr
    for name in odd:
        st = os.lstat(os.path.join(cache, name))
        assert stat.S_ISREG(st.st_mode) and st.st_size < 1 << 20, name


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_odd_files_in_the_python_environment_do_not_hang_use(two, tmp_path, kind):
    """`use` reads the environment's files on every switch (pyvenv.cfg, a wheel's RECORD, torch's
    version.py, pyenv's version files): each one a FIFO or /dev/zero is "not there", never a hang."""
    base, env = two
    venv = tmp_path / "venv"
    site = venv / "lib" / "python3.12" / "site-packages"
    (venv / "bin").mkdir(parents=True)
    os.symlink(sys.executable, venv / "bin" / "python3")
    for rel in ("pyvenv.cfg", "lib/python3.12/site-packages/torch/version.py",
                "lib/python3.12/site-packages/nvidia_cublas_cu12-12.4.5.8.dist-info/RECORD"):
        _odd_file(str(venv / rel), kind)
    pyenv = tmp_path / "pyenv"
    (pyenv / "shims").mkdir(parents=True)
    (pyenv / "versions").mkdir()
    os.symlink(sys.executable, pyenv / "shims" / "python3")
    proj = tmp_path / "proj"
    for path in (pyenv / "version", proj / ".python-version"):
        _odd_file(str(path), kind)
    env = dict(env, PYTHONPATH=os.pathsep.join(filter(None, [REPO, env.get("PYTHONPATH")])))  # cwd is proj
    for extra in ({"PATH": f"{venv}/bin:{env['PATH']}"},
                  {"PATH": f"{pyenv}/shims:{env['PATH']}", "PYENV_ROOT": str(pyenv)}):
        for args in (["use", "12.4", "--shell", "bash"], ["show", "12.4"]):
            res = subprocess.run([sys.executable, "-m", "cudaenv", *args], env=dict(env, **extra), cwd=proj,
                                 capture_output=True, text=True, timeout=60, preexec_fn=_limit_memory)
            _one_line_or_ok(res)
            assert res.returncode == 0, (extra, args, res.stderr)


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_kernel_json_that_is_a_fifo_or_device_is_not_a_kernelspec(kind):
    _odd_file(os.path.join(os.environ["XDG_DATA_HOME"], "jupyter", "kernels", "odd", "kernel.json"), kind)
    res = _run(["kernel", "list", "--json"], dict(os.environ, JUPYTER_PATH=""))
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["kernels"] == []


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_mirror_manifest_that_is_a_fifo_or_device_is_one_line_naming_it(tmp_path, kind):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    manifest = str(mirror / "redistrib_12.4.1.json")
    os.mkfifo(manifest) if kind == "fifo" else os.symlink("/dev/zero", manifest)
    res = _run(["install", "12.4.1", "--source", str(mirror)], dict(os.environ))
    assert res.returncode != 0 and res.stdout == "", res.stderr
    assert res.stderr.splitlines() == [f"cudaenv: cannot read {manifest}: not a regular file"]
    assert not os.path.exists(os.path.join(os.environ["XDG_DATA_HOME"], "cudaenv", "toolkits", "cuda-12.4.1"))


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_an_install_record_that_is_a_fifo_or_device_is_no_record(kind):
    root = os.path.join(os.environ["XDG_DATA_HOME"], "cudaenv", "toolkits", "cuda-12.4.1")
    os.makedirs(root)
    record = os.path.join(root, "cudaenv-install.json")
    os.mkfifo(record) if kind == "fifo" else os.symlink("/dev/zero", record)
    res = _run(["uninstall", "12.4"], dict(os.environ))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("cudaenv: no CUDA 12.4 installed by cudaenv;")
    assert os.path.isdir(root)


def test_read_limited_cuts_or_refuses_what_is_over_the_limit(tmp_path):
    path = str(tmp_path / "f")
    with open(path, "wb") as f:
        f.write(b"x" * 100)
    assert read_limited(path, 100, whole=True) == b"x" * 100
    assert read_limited(path, 40) == b"x" * 40  # a header or a pin: the start is enough
    with pytest.raises(TooLarge, match="larger than 99 bytes"):
        read_limited(path, 99, whole=True)  # a cache or a manifest: cut short it would be wrong
    with open(path, "wb") as f:
        f.truncate(1 << 40)  # refused from its size, not read
    with pytest.raises(TooLarge, match="larger than 64 MiB"):
        read_limited(path, 64 << 20, whole=True)
    with pytest.raises(NotRegular):
        read_limited(str(tmp_path), 10)


def test_a_binary_profile_unrelated_to_the_target_is_a_note(two, tmp_path):
    base, env = two
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    (prof / "junk.yaml").write_bytes(b"\xff\xfe\x00\x01binary")
    env = dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    res, doc = use_json(["12.4"], env)
    _one_line_or_ok(res)
    assert res.returncode == 0 and "not UTF-8 text" in res.stderr


def test_profile_build_into_an_unwritable_config_is_one_line(two):
    base, env = two
    res = run_cudaenv(["profile", "build", "--all"], dict(env, XDG_CONFIG_HOME="/dev/null"))
    _one_line_or_ok(res)
    assert res.returncode != 0 and "cannot write /dev/null/cudaenv/profiles/" in res.stderr


@pytest.mark.parametrize("how", ["closed", "full"])
@pytest.mark.parametrize("args", [["list"], ["use", "12.4", "--shell", "bash"], ["show", "12.4"]])
def test_stdout_closed_or_full_is_one_line(two, how, args):
    base, env = two
    cmd = [sys.executable, "-m", "cudaenv", *args]
    if how == "closed":
        res = subprocess.run(cmd, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             timeout=60, preexec_fn=lambda: os.close(1))
    else:
        with open("/dev/full", "w") as full:
            res = subprocess.run(cmd, env=env, cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    _one_line_or_ok(res)
    assert res.returncode != 0 and "cannot write to stdout" in res.stderr


def _nvcc_that_hangs_on_list_gpu_code(root: str, marker: str) -> None:
    nvcc = os.path.join(root, "bin", "nvcc")
    with open(nvcc) as f:
        body = f.read()
    with open(nvcc, "w") as f:
        f.write(body.replace("#!/bin/sh\n", f'#!/bin/sh\nif [ "$1" = --list-gpu-code ]; then touch "{marker}"; '
                                            'exec sleep 296.5; fi\n', 1))


def test_check_without_a_gpu_never_asks_nvcc_for_architectures(tmp_path):
    root = make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    marker = str(tmp_path / "asked")
    _nvcc_that_hangs_on_list_gpu_code(root, marker)
    env = dict(os.environ, CUDAENV_ROOTS=root, CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"))
    res = run_cudaenv(["check", root, "--no-torch", "--json"], env)
    _one_line_or_ok(res)
    assert not os.path.exists(marker), "nvcc --list-gpu-code ran although no GPU is visible"


def test_a_hanging_list_gpu_code_is_bounded_and_named(tmp_path):
    from cudaenv.checks.rules import arch_rules
    from cudaenv.toolkit.facts import gpu_archs
    from cudaenv.toolkit.probe import probe

    root = make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    _nvcc_that_hangs_on_list_gpu_code(root, str(tmp_path / "asked"))
    tk = probe(os.path.realpath(root))
    try:
        archs = gpu_archs(tk, None, timeout=1)
    finally:
        _kill_marked("sleep 296.5")
    assert "did not finish within 1 s" in archs["slow"] and archs["range"]  # the table's range instead
    found = arch_rules({"tk": tk, "archs": archs, "driver": {"gpus": [{"compute_cap": "8.9"}]}})
    slow = [f for f in found if f.status == "warn"]
    assert slow and os.path.realpath(root) in slow[0].summary


# -- bad inputs of the field pass's catalogue (tests/fieldpass/badinput.py) -----------------------

_ERR = "nvcc fatal : Unsupported gpu architecture 'sm_50'"


def _sh(cmd: str, env: dict, cwd: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """``cmd`` in sh with ``$CUDAENV`` running this checkout (for redirections such as ``>&-``)."""
    e = dict(env, PYTHONPATH=REPO, CUDAENV=f"{sys.executable} -m cudaenv")
    return subprocess.run(["sh", "-c", cmd], env=e, cwd=cwd, capture_output=True, timeout=timeout)


def _one_error_line(res: subprocess.CompletedProcess, code: int | None = None) -> str:
    err = res.stderr.decode() if isinstance(res.stderr, bytes) else res.stderr
    assert res.returncode != 0 and not res.stdout, (res.returncode, res.stdout[:300])
    assert code is None or res.returncode == code, (res.returncode, err)
    assert "Traceback" not in err and err.startswith("cudaenv: ") and err.count("\n") == 1, err
    return err


def test_explain_reads_a_bounded_window_of_a_large_log():
    import io

    from cudaenv.commands.explain import read_log

    lines = [f"line {i}" for i in range(1, 10_001)]
    data = ("\n".join(lines) + "\n").encode()
    log = read_log(io.BytesIO(data), head=1000, tail=3000, stream_max=1 << 20)
    assert len(log.text) < 4000 and log.window and "of the input (" in log.window
    got = log.text.split("\n")
    assert got[0] == "line 1" and got[-1] == ""
    for i, text in enumerate(got[:-1], 1):  # every line kept is whole and keeps its number
        assert text == f"line {log.line(i)}", (i, text)
    # A stream is read no further than stream_max: the tail is what was read last.
    log = read_log(io.BytesIO(data), head=1000, tail=3000, stream_max=20_000)
    assert "reading stopped there" in log.window
    assert all(t == f"line {log.line(i)}" for i, t in enumerate(log.text.split("\n")[:-1], 1))
    small = read_log(io.BytesIO(b"a\nb"), head=1000, tail=3000)
    assert (small.text, small.window) == ("a\nb", None)


def test_explain_finds_an_error_at_the_end_of_a_large_log_with_its_line_number(tmp_path):
    from cudaenv.commands.explain import HEAD, TAIL

    filler = b"[1/2] g++ -O2 -c src/file.cpp -o build/file.o\n"
    n = (HEAD + TAIL) // len(filler) + 1000
    log = tmp_path / "build.log"
    log.write_bytes(filler * n + _ERR.encode() + b"\nninja: build stopped: subcommand failed.\n")
    for how in ("< build.log", "build.log"):  # a regular file (seekable) and a pipe
        cmd = f"$CUDAENV explain --no-host - {how}" if how.startswith("<") else f"cat {how} | $CUDAENV explain --no-host"
        res = _sh(cmd, dict(os.environ), cwd=str(tmp_path))
        assert res.returncode == 0, res.stderr
        assert f"line {n + 1}: {_ERR}" in res.stdout.decode()
        assert res.stderr.decode().count("\n") == 1 and "explained the first 4 MiB and the last 12 MiB" in res.stderr.decode()


@pytest.mark.parametrize("stdin", ["sparse", "/dev/zero"])
def test_explain_of_an_endless_or_huge_input_ends_in_one_line(tmp_path, stdin):
    if stdin == "sparse":
        with open(tmp_path / "big.log", "wb") as f:
            f.truncate(1 << 30)
        stdin = "big.log"
    for args in ("--no-host -", "--json --no-host -", "--no-host"):
        res = _sh(f"ulimit -v {2 << 20}; $CUDAENV explain {args} < {stdin}", dict(os.environ), cwd=str(tmp_path), timeout=30)
        err = _one_error_line(res, 1)
        assert "no known error in the first 4 MiB and the last 12 MiB" in err


@pytest.mark.parametrize("args", ["--no-host -", "--json --no-host -", "--no-host"])
def test_explain_with_stdin_closed_is_one_line(args):
    res = _sh(f"$CUDAENV explain {args} <&-", dict(os.environ))
    err = _one_error_line(res, 2)
    assert "stdin is closed" in err or "stdin: it is closed" in err


@pytest.mark.parametrize("redirect", [">&-", ">/dev/full"])
def test_init_with_a_bad_stdout_is_one_line(redirect):
    res = _sh(f"$CUDAENV init bash {redirect}", dict(os.environ))
    assert "cannot write to stdout" in _one_error_line(res, 1)


def test_init_refuses_an_empty_shell_name_instead_of_detecting_one():
    res = run_cudaenv(["init", ""], dict(os.environ, SHELL="/bin/bash"))
    assert "not ''" in _one_error_line(res, 2)


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
        res = _sh(f"$CUDAENV {args} {'>&-' if stdout == 'closed' else '>/dev/full'}", env)
        why = "stdout is closed" if stdout == "closed" else "No space left on device"
    assert f"cudaenv: cannot write to stdout: {why}" in _one_error_line(res, 1)


def test_clicks_help_still_reaches_a_good_stdout():
    res = run_cudaenv(["use", "--help"], dict(os.environ))
    assert res.returncode == 0 and res.stdout.startswith("Usage: cudaenv use") and res.stderr == ""
    res = run_cudaenv(["--version"], dict(os.environ))
    assert res.returncode == 0 and res.stdout.startswith("cudaenv, version ") and res.stderr == ""


def test_profile_build_that_cannot_write_prints_nothing_on_stdout(tmp_path, system_toolkit):
    """The generated stub's line used to reach stdout before the profile write failed."""
    env = dict(os.environ, XDG_CONFIG_HOME="/dev/null", XDG_CACHE_HOME=str(tmp_path / "cache"),
               CUDAENV_ROOTS=system_toolkit, CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"))
    res = run_cudaenv(["profile", "build", system_toolkit], env)
    assert "cannot write /dev/null/cudaenv/profiles/" in _one_error_line(res, 1)
    ok = run_cudaenv(["profile", "build", system_toolkit], dict(env, XDG_CONFIG_HOME=str(tmp_path / "cfg")))
    assert ok.returncode == 0 and "wrote    " in ok.stdout, ok.stderr


def test_profile_build_names_what_it_wrote_before_a_write_failed(two, tmp_path, monkeypatch, capfd):
    from cudaenv.commands.profile import build
    from cudaenv.infra import atomic

    base, env = two
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


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_install_list_with_no_source_reached_is_one_line(tmp_path, json_flag):
    """The table's header used to reach stdout, then two stderr lines."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{s.getsockname()[1]}/"
    s.close()  # nothing listens there: connection refused
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    res = run_cudaenv(["install", "--list", "--source", dead, *json_flag], env)
    err = _one_error_line(res, 1)
    assert err.startswith(f"cudaenv: no source could be reached: {dead} is unreachable"), err
