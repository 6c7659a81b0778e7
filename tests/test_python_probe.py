"""cudaenv.host.python_probe against real interpreters: the system Python, the cached
torch venvs (tests/venvs.sh), throwaway venvs, and the failure cases (missing,
not a Python, hanging, crashing)."""

from __future__ import annotations

import base64
import hashlib
import json
import marshal
import os
import shutil
import stat
import subprocess
import sys
import time
import zipfile

import pytest

from cudaenv.host import python_probe
from cudaenv.toolkit.stubs import driver_present
from cudaenv.host.python_probe import TABLE, default_python, probe_python
from cudaenv.infra.index import Index

PY_MM = "%d.%d" % sys.version_info[:2]


# --------------------------------------------------------------------------- helpers

@pytest.fixture(scope="module")
def base_python() -> str:
    """The real interpreter behind this machine's ``python3`` (not a pyenv shim, nor the venv the
    suite runs in: tests/run.sh puts a fresh one first on PATH)."""
    py = shutil.which("python3")
    assert py, "no python3 on PATH"
    out = subprocess.run([py, "-c", "import sys; print(getattr(sys, '_base_executable', None) or sys.executable)"],
                         capture_output=True, text=True, check=True, timeout=60)
    return out.stdout.strip()


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("home"))


def clean_env(home: str, **extra: str) -> dict:
    """A small explicit environment: no CUDA variables, no nvcc on PATH."""
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LC_ALL": "C.UTF-8"}
    env.update(extra)
    return env


def make_venv(path, base_python: str, *, pip: bool = False, copies: bool = False) -> str:
    args = [base_python, "-m", "venv", str(path)]
    if not pip:
        args.append("--without-pip")
    if copies:
        args.append("--copies")
    subprocess.run(args, check=True, capture_output=True, timeout=300)
    return os.path.join(str(path), "bin", "python")


def site_packages(venv_python: str) -> str:
    return os.path.join(os.path.dirname(os.path.dirname(venv_python)), "lib", f"python{PY_MM}", "site-packages")


class RunSpy:
    """Counts the subprocesses python_probe starts (and lets them run for real)."""

    def __init__(self, monkeypatch) -> None:
        self.calls = 0
        real = python_probe.run

        def spy(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(python_probe, "run", spy)


def forbid_subprocess(monkeypatch) -> None:
    def boom(*args, **kwargs):
        raise AssertionError(f"a cache hit started a subprocess: {args[0]!r}")

    monkeypatch.setattr(python_probe, "run", boom)


def without_call_info(result: dict) -> dict:
    """The result without what differs between calls (timings, cache flag)."""
    out = {k: v for k, v in result.items() if k not in ("cached", "seconds")}
    if "torch" in out:
        out["torch"] = {k: v for k, v in out["torch"].items() if k != "import_seconds"}
    return out


def tiny_wheel(directory) -> str:
    """A minimal pure-Python wheel (no build backend, no network needed)."""
    name, version = "cudaenv_tiny_probe", "1.0"
    dist = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": b"VALUE = 1\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: cudaenv-tiny-probe\nVersion: {version}\n".encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: cudaenv-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    whl = os.path.join(str(directory), f"{name}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(whl, "w") as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return whl


def pip(venv_python: str, *args: str) -> None:
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_ROOT_USER_ACTION="ignore")
    subprocess.run([venv_python, "-m", "pip", *args], check=True, capture_output=True, env=env, timeout=300)


# Probing a torch venv costs 2-5 s (import torch), so each venv is probed once per module.
@pytest.fixture(scope="module")
def cpu_result(venv_cpu, home) -> dict:
    return probe_python(venv_cpu, clean_env(home))


@pytest.fixture(scope="module")
def cu_result(venv_cu, home) -> dict:
    return probe_python(venv_cu, clean_env(home))


def freeze(venv_python: str) -> dict[str, str]:
    """name -> version from the pip freeze tests/venvs.sh recorded (pip's view, not ours)."""
    path = os.path.join(os.path.dirname(os.path.dirname(venv_python)), "cudaenv-freeze.txt")
    out = {}
    with open(path) as f:
        for line in f:
            if "==" in line:
                name, _, ver = line.strip().partition("==")
                out[name.lower().replace("_", "-").replace(".", "-")] = ver
    return out


# --------------------------------------------------------------------------- default_python

def test_default_python_follows_path(tmp_path, venv_cpu, base_python):
    venv_bin = os.path.dirname(venv_cpu)
    assert default_python({"PATH": f"{venv_bin}:/usr/bin:/bin"}) == os.path.join(venv_bin, "python3")
    # Only `python` on PATH: that one is used.
    only = tmp_path / "only-python"
    only.mkdir()
    os.symlink(base_python, only / "python")
    assert default_python({"PATH": str(only)}) == str(only / "python")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert default_python({"PATH": str(empty)}) is None


# --------------------------------------------------------------------------- real interpreters

@pytest.mark.parametrize("which", ["python3", "/usr/bin/python3"])
def test_system_python_has_no_torch(which, base_python, home):
    py = base_python if which == "python3" else which
    if not os.path.exists(py):
        pytest.skip(f"{py} missing")
    r = probe_python(py, clean_env(home))
    assert "error" not in r, r
    assert r["python"] == py and r["wrapper"] is False and r["cached"] is False
    assert r["in_venv"] is False and r["prefix"] == r["base_prefix"]
    ver = subprocess.run([py, "-c", "import platform; print(platform.python_version())"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert r["version"] == ver
    assert r["site_packages"] and all(os.path.isabs(p) for p in r["site_packages"])
    t = r["torch"]
    assert t["installed"] is False and t["version"] is None and t["import_error"] is None
    assert t["cuda"] is None and t["arch_list"] == [] and t["device_capabilities"] == []
    assert r["seconds"] < 10


def test_venv_cpu(cpu_result, venv_cpu):
    r = cpu_result
    assert "error" not in r, r
    venv = os.path.dirname(os.path.dirname(venv_cpu))
    assert r["python"] == venv_cpu and r["executable"] == venv_cpu and r["wrapper"] is False
    assert r["in_venv"] is True and r["prefix"] == venv and r["base_prefix"] != venv
    assert r["site_packages"] == [site_packages(venv_cpu)]
    assert r["user_site"] is None      # venvs do not see the user site
    t = r["torch"]
    assert t["installed"] is True and t["import_error"] is None
    assert t["location"] == os.path.join(site_packages(venv_cpu), "torch")
    assert t["version"] == "2.13.0+cpu" and t["dist_version"] == "2.13.0+cpu"
    assert t["cuda"] is None
    assert t["cuda_available"] is False and t["device_count"] == 0
    assert t["arch_list"] == [] and t["device_capabilities"] == []
    # A CPU build has no CUDA_HOME at all, whatever the environment says.
    assert t["cuda_home"] is None and t["cuda_home_error"] is None
    assert isinstance(t["cxx11_abi"], bool)
    assert r["nvidia_wheels"] == {}
    # numpy is in the venv, so torch has nothing to warn about on import.
    assert not any("NumPy" in w for w in t["warnings"]), t["warnings"]


def test_venv_cu(cu_result, venv_cu, home):
    r = cu_result
    assert "error" not in r, r
    assert r["python"] == venv_cu and r["in_venv"] is True
    t = r["torch"]
    assert t["installed"] is True and t["import_error"] is None, t
    assert t["version"].split("+")[0] == "2.14.1" and t["dist_version"].split("+")[0] == "2.14.1"
    assert t["cuda"] == "13.0"
    if not driver_present(clean_env(home)):
        assert t["cuda_available"] is False and t["device_count"] == 0 and t["device_capabilities"] == []
    # The compiled-in architectures, real even without a GPU (torch >= 2.13 reports them always).
    assert t["arch_list"] and all(a.startswith(("sm_", "compute_")) for a in t["arch_list"]), t["arch_list"]
    assert isinstance(t["cxx11_abi"], bool)
    # No CUDA_HOME/CUDA_PATH and no nvcc on PATH: torch falls back to /usr/local/cuda.
    if os.path.exists("/usr/local/cuda"):
        assert t["cuda_home"] == "/usr/local/cuda"
    # The NVIDIA wheels beside torch, exactly as pip lists them.
    pipview = {n: v for n, v in freeze(venv_cu).items() if n.startswith(("nvidia-", "cuda-"))}
    assert r["nvidia_wheels"] == pipview
    assert r["nvidia_wheels"]["cuda-toolkit"].startswith("13.0.")
    assert r["nvidia_wheels"]["nvidia-cuda-runtime"].startswith("13.0.")
    assert "cuda-bindings" in r["nvidia_wheels"] and "nvidia-cudnn-cu13" in r["nvidia_wheels"]


def test_venv_cu_cuda_home_follows_the_environment(venv_cu, cu_result, home, tmp_path):
    """torch's CUDA_HOME: $CUDA_HOME, else `which nvcc`/../.., else /usr/local/cuda; the cache keeps up."""
    index = Index(str(tmp_path / "index.marshal"))
    tk = "/usr/local/cuda-13.0"
    r1 = probe_python(venv_cu, clean_env(home, CUDA_HOME=tk), index)
    assert r1["torch"]["cuda_home"] == tk and r1["cached"] is False
    assert cu_result["torch"]["cuda_home"] != tk
    if os.path.isfile("/usr/local/bin/nvcc"):
        # This machine's /usr/local/bin/nvcc is a wrapper script: torch then guesses
        # CUDA_HOME=/usr/local, which is not a toolkit. A check can point that out.
        # Same interpreter, other environment: a new probe, not the stale entry.
        r2 = probe_python(venv_cu, clean_env(home, PATH="/usr/local/bin:/usr/bin:/bin"), index)
        assert r2["cached"] is False and r2["torch"]["cuda_home"] == "/usr/local"


def test_results_are_plain_data(cpu_result):
    assert marshal.loads(marshal.dumps(cpu_result)) == cpu_result
    assert json.loads(json.dumps(cpu_result)) == cpu_result


# --------------------------------------------------------------------------- failures

def test_missing_interpreter(tmp_path, home):
    env = clean_env(home)
    r = probe_python(str(tmp_path / "nope" / "python3"), env)
    assert set(r) == {"python", "error", "cached", "seconds"} and "not found" in r["error"]
    r = probe_python("python-does-not-exist", env)
    assert "not found on PATH" in r["error"]
    os.symlink(str(tmp_path / "gone"), tmp_path / "dangling")
    assert "not found" in probe_python(str(tmp_path / "dangling"), env)["error"]
    assert "\n" not in r["error"]


def test_not_a_python(tmp_path, home):
    env = clean_env(home)
    for exe in ("/bin/false", "/bin/echo"):
        r = probe_python(exe, env)
        assert "not a working Python" in r["error"] and "\n" not in r["error"], r
    plain = tmp_path / "python"
    plain.write_text("not a program\n")
    r = probe_python(str(plain), env)
    assert "Permission denied" in r["error"], r


def test_timeout_kills_a_hanging_interpreter(tmp_path, home):
    pidfile = tmp_path / "pid"
    slow = tmp_path / "python"
    slow.write_text(f"#!/bin/sh\necho $$ > '{pidfile}'\nexec sleep 60\n")
    slow.chmod(0o755)
    index = Index(None)
    t0 = time.monotonic()
    r = probe_python(str(slow), clean_env(home), index, timeout=1)
    assert time.monotonic() - t0 < 10
    assert "did not finish within 1 s" in r["error"] and r["cached"] is False
    with pytest.raises(ProcessLookupError):
        os.kill(int(pidfile.read_text()), 0)
    assert index.data.get(TABLE, {}) == {} and not index.dirty      # failures are not cached


def test_crash_while_importing_torch(tmp_path, base_python, home):
    """A torch whose import kills the interpreter (a segfault in a CUDA library, say).

    The machine's torch builds do not crash, so this one is a stand-in that raises SIGSEGV.
    """
    fake = tmp_path / "crashing" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    index = Index(None)
    r = probe_python(base_python, clean_env(home, PYTHONPATH=str(tmp_path / "crashing")), index)
    assert "error" not in r and r["version"]                     # the interpreter facts survive
    assert r["torch"]["installed"] is True
    assert "died while importing torch (signal 11)" in r["torch"]["import_error"]
    assert index.data.get(TABLE, {}) == {}


def test_torch_import_error_is_reported(tmp_path, base_python, venv_cpu, home):
    """The real torch package without its dependencies (like `pip install --no-deps torch`)."""
    py = make_venv(tmp_path / "v", base_python)
    nodeps = tmp_path / "nodeps"
    nodeps.mkdir()
    os.symlink(os.path.join(site_packages(venv_cpu), "torch"), nodeps / "torch")
    r = probe_python(py, clean_env(home, PYTHONPATH=str(nodeps)))
    t = r["torch"]
    assert "error" not in r and t["installed"] is True and t["location"] == str(nodeps / "torch")
    assert t["import_error"].startswith("ModuleNotFoundError: No module named"), t
    assert "\n" not in t["import_error"] and t["version"] is None and t["dist_version"] is None


# --------------------------------------------------------------------------- cache

def test_cache_hit_does_not_run_the_interpreter(tmp_path, base_python, home):
    """Proof without patching: after the first probe the interpreter cannot run at all."""
    py = make_venv(tmp_path / "v", base_python, copies=True)   # a real copy, safe to chmod
    env = clean_env(home)
    index = Index(None)
    first = probe_python(py, env, index)
    assert "error" not in first and first["cached"] is False
    os.chmod(py, 0o644)
    assert "Permission denied" in probe_python(py, env)["error"]     # really not runnable now
    hit = probe_python(py, env, index)
    assert hit["cached"] is True and without_call_info(hit) == without_call_info(first)


def test_cache_hit_starts_no_process(tmp_path, venv_cpu, venv_cu, cpu_result, base_python, home, monkeypatch):
    """Hits come from the index on disk without a subprocess, one entry per venv even though
    every venv's bin/python is a symlink to the same binary (the key is not its realpath)."""
    assert os.path.realpath(venv_cpu) == os.path.realpath(venv_cu) == os.path.realpath(base_python)
    path = str(tmp_path / "cache" / "index.marshal")
    env = clean_env(home)
    index = Index(path)
    first = {py: probe_python(py, env, index) for py in (base_python, venv_cpu, venv_cu)}
    assert not any(r["cached"] for r in first.values())
    assert without_call_info(first[venv_cpu]) == without_call_info(cpu_result)
    index.save()
    forbid_subprocess(monkeypatch)
    again = Index(path)                        # a later command: the cache read from disk
    for py, r in first.items():
        t0 = time.perf_counter()
        hit = probe_python(py, env, again)
        elapsed = time.perf_counter() - t0
        assert hit["cached"] is True and {**hit, "cached": False, "seconds": 0} == {**r, "seconds": 0}
        assert elapsed < 0.05, elapsed
    assert again.data[TABLE].keys() == {base_python, venv_cpu, venv_cu}
    # Callers get a copy: changing it does not change the cache.
    hit = probe_python(venv_cpu, env, again)
    hit["torch"]["version"] = "changed"
    assert probe_python(venv_cpu, env, again)["torch"]["version"] == "2.13.0+cpu"


@pytest.mark.slow
def test_pip_install_and_uninstall_invalidate(tmp_path, base_python, home, monkeypatch):
    py = make_venv(tmp_path / "v", base_python, pip=True)
    whl = tiny_wheel(tmp_path)
    env = clean_env(home)
    index = Index(None)
    spy = RunSpy(monkeypatch)

    def probe() -> dict:
        r = probe_python(py, env, index)
        assert "error" not in r, r
        return r

    before = probe()
    assert probe()["cached"] is True and spy.calls == 1
    pip(py, "install", "--no-index", "--no-deps", whl)
    assert probe()["cached"] is False and spy.calls == 2
    assert probe()["cached"] is True and spy.calls == 2
    pip(py, "uninstall", "-y", "cudaenv-tiny-probe")
    after = probe()
    assert after["cached"] is False and spy.calls == 3
    assert without_call_info(after) == without_call_info(before)


def test_torch_appearing_and_disappearing_invalidates(tmp_path, base_python, venv_cpu, home, monkeypatch):
    """torch made importable (a .pth to venv-cpu's site-packages, as an editable or
    conda-develop install does) and then removed again."""
    py = make_venv(tmp_path / "v", base_python)
    env = clean_env(home)
    index = Index(None)
    spy = RunSpy(monkeypatch)
    assert probe_python(py, env, index)["torch"]["installed"] is False
    pth = os.path.join(site_packages(py), "borrow-torch.pth")
    with open(pth, "w") as f:
        f.write(site_packages(venv_cpu) + "\n")
    r = probe_python(py, env, index)
    assert r["cached"] is False and r["torch"]["version"] == "2.13.0+cpu"
    assert probe_python(py, env, index)["cached"] is True and spy.calls == 2
    os.unlink(pth)
    r = probe_python(py, env, index)
    assert r["cached"] is False and r["torch"]["installed"] is False and spy.calls == 3


def test_wrappers_are_probed_every_time(tmp_path, base_python, home):
    """A script that execs Python (pyenv shims work so) may run another Python tomorrow
    without any file we could stat changing: never cached. Counted by the wrapper itself."""
    count = tmp_path / "count"
    wrapper = tmp_path / "python3"
    wrapper.write_text(f"#!/bin/sh\necho run >> '{count}'\nexec '{base_python}' \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    index = Index(None)
    for _ in range(2):
        r = probe_python(str(wrapper), clean_env(home), index)
        assert "error" not in r and r["wrapper"] is True and r["cached"] is False
        assert r["executable"] == base_python
    assert count.read_text().count("run") == 2
    assert index.data.get(TABLE, {}) == {}


def test_marker_line_survives_noise_on_stdout(tmp_path, base_python, home):
    """Whatever a .pth file or a library prints on stdout does not break the parse."""
    noisy = tmp_path / "noisy"
    noisy.mkdir()
    (noisy / "sitecustomize.py").write_text("import os\nos.write(1, b'noise without newline')\nprint('more noise')\n")
    r = probe_python(base_python, clean_env(home, PYTHONPATH=str(noisy)))
    assert "error" not in r and r["version"], r


def test_entries_of_deleted_interpreters_are_dropped(tmp_path, base_python, home):
    py = make_venv(tmp_path / "gone", base_python)
    index = Index(None)
    probe_python(py, clean_env(home), index)
    assert py in index.data[TABLE]
    shutil.rmtree(tmp_path / "gone")
    probe_python(base_python, clean_env(home), index)
    assert set(index.data[TABLE]) == {base_python}


def test_venvs_script_skips_complete_venvs_fast(venv_cpu, venv_cu):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "venvs.sh")
    t0 = time.monotonic()
    out = subprocess.run(["bash", script], capture_output=True, text=True, timeout=60)
    elapsed = time.monotonic() - t0
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("complete, skipped") == 2 and out.stdout == ""
    assert elapsed < 1, elapsed


def test_cancelled_probe_is_an_error_not_a_fact(base_python, home):
    from cudaenv.infra import run as run_mod

    if not hasattr(run_mod, "stop_all"):
        pytest.skip("cudaenv.run has no stop_all")
    index = Index(None)
    run_mod.stop_all()
    try:
        r = probe_python(base_python, clean_env(home), index)
    finally:
        run_mod.resume_all()
    assert r["error"].endswith("was cancelled") and index.data.get(TABLE, {}) == {}
