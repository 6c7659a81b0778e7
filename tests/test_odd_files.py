"""A FIFO, a device or a huge file where cudaenv reads a file: a bounded read, never a hang.

version.json, profiles, the caches (index, preload, verify records), the Python environment's
files, kernel.json, a mirror's manifest, an install record; and ``infra.files.read_limited``,
which they all go through. Commands run as separate processes, as users run them.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from cudaenv.infra.files import NotRegular, TooLarge, read_limited
from helpers import REPO, make_toolkit, stderr_is_cudaenv_lines


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
    stderr_is_cudaenv_lines(res)
    # The toolkit is skipped with the reason, and the odd profile is only noted: nothing hangs.
    assert f"skipped {root}" in res.stderr and "unreadable version.json (not a regular file)" in res.stderr
    assert root not in [t["root"] for t in json.loads(res.stdout)["toolkits"]]
    res = subprocess.run([sys.executable, "-m", "cudaenv", "profile", "list"], env=env, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    stderr_is_cudaenv_lines(res)
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
def test_a_fifo_device_or_huge_file_in_place_of_a_cache_costs_only_speed(two_toolkits, kind):
    """The index, the preload files and a verify record are caches: anything odd there reads as "no cache",
    the answer is the same, and the next save replaces it with a regular file."""
    base, env = two_toolkits
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
        stderr_is_cudaenv_lines(res)
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
def test_odd_files_in_the_python_environment_do_not_hang_use(two_toolkits, tmp_path, kind):
    """`use` reads the environment's files on every switch (pyvenv.cfg, a wheel's RECORD, torch's
    version.py, pyenv's version files): each one a FIFO or /dev/zero is "not there", never a hang."""
    base, env = two_toolkits
    venv = tmp_path / "venv"
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
            stderr_is_cudaenv_lines(res)
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
