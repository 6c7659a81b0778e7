"""``cudaenv verify``: unit tests of its parts, then the real thing on the test bed.

The real tests build with the real toolkits (11.8, 12.4, 13.5 from the test bed and the
system's /usr/local/cuda-13.0, which has no libcuda stub) and, marked slow, two real torch
extension builds (13.0 and 13.5 against torch 2.14.1+cu130). This machine has no GPU, so
the run steps are checked for skipping cleanly here and, through fake programs, for
judging what a program printed.
"""

from __future__ import annotations

import json
import marshal
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types

import pytest

from helpers import REPO, default_signals, make_toolkit, run_cudaenv

from cudaenv.errors import CudaenvError
from cudaenv.verify import cache as vcache
from cudaenv.verify import programs
from cudaenv.infra.elf import read_elf
from cudaenv.commands.verify import parse_args
from cudaenv.verify.report import render_record
from cudaenv.verify.runner import choose_arch, sweep_stale
from cudaenv.verify.steps import Step, step_run_program
from cudaenv.toolkit.stubgen import entry_points

SYSTEM_TOOLKIT = "/usr/local/cuda-13.0"
COMPILE_STEPS = ("nvcc-shared", "nvcc-static", "link-lcuda")


# --------------------------------------------------------------------------- helpers

def world_env(base: str, roots: list[str]) -> dict:
    """An environment with its own config, cache and TMPDIR, and no CUDA or compiler settings."""
    env = dict(os.environ)
    for var in ("CUDAENV_ACTIVE", "_CUDAENV_STATE", "CUDA_HOME", "CUDA_PATH", "CONDA_PREFIX", "CC", "CXX",
                "CUDAHOSTCXX", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "LIBRARY_PATH", "TORCH_CUDA_ARCH_LIST",
                "CUDAENV_SHELL"):
        env.pop(var, None)
    env.update(XDG_CONFIG_HOME=os.path.join(base, "cfg"), XDG_CACHE_HOME=os.path.join(base, "cache"),
               TMPDIR=os.path.join(base, "tmp"), CUDAENV_ROOTS=":".join(roots),
               PYTHONPATH=REPO + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""))
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return env


def cudaenv(args: list[str], env: dict, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


def verify_json(env: dict, *args: str, timeout: float = 600) -> tuple[subprocess.CompletedProcess, dict]:
    res = cudaenv(["verify", *args, "--json"], env, timeout)
    try:
        doc = json.loads(res.stdout)  # stdout carries the document and nothing else
    except ValueError:
        pytest.fail(f"verify --json stdout is not JSON (rc {res.returncode}):\n{res.stdout}\n{res.stderr}")
    return res, doc


def steps_of(result: dict) -> dict[str, dict]:
    return {s["id"]: s for s in result["steps"]}


def write_profile(env: dict, name: str, text: str) -> None:
    d = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"{name}.yaml"), "w") as f:
        f.write(text)


def procs_mentioning(text: str) -> list[str]:
    """Command lines of live processes that mention ``text``."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmd and state != "Z":
            out.append(cmd)
    return out


def need_system_toolkit() -> None:
    if not os.path.isfile(os.path.join(SYSTEM_TOOLKIT, "bin", "nvcc")):
        from helpers import IN_CI

        if IN_CI:
            pytest.fail(f"{SYSTEM_TOOLKIT} is part of this machine kind but is missing")
        pytest.skip(f"{SYSTEM_TOOLKIT} missing")


# --------------------------------------------------------------------------- parts (no toolkit needed)

def test_runtime_output_is_judged_by_values_and_runtime_version():
    good = (f"cudaenv-verify runtime 13050\ncudaenv-verify device 8.0 NVIDIA A100\n"
            f"cudaenv-verify values {programs.N} 0 {programs.expected_sum()}\n")
    ok, summary = programs.check_runtime_output(good, 0, "13.5")
    assert ok and "A100" in summary
    # The system's 13.0 libcudart loaded instead of the toolkit's (the ld.so.conf pitfall).
    ok, summary = programs.check_runtime_output(good.replace("13050", "13000"), 0, "13.5")
    assert not ok and "13000" in summary and "loader path" in summary
    # Exit 0 but wrong values, or no values at all: never a pass.
    ok, summary = programs.check_runtime_output(good.replace(" 0 ", " 3 ", 1), 0, "13.5")
    assert not ok and "wrong values" in summary
    ok, _ = programs.check_runtime_output("cudaenv-verify runtime 13050\n", 0, "13.5")
    assert not ok
    err = ("cudaenv-verify runtime 13050\ncudaenv-verify error cudaGetDevice 35 cudaErrorInsufficientDriver: "
           "CUDA driver version is insufficient for CUDA runtime version\n")
    ok, summary = programs.check_runtime_output(err, 2, "13.5")
    assert not ok and "insufficient" in summary


def test_driver_output_is_judged():
    ok, summary = programs.check_driver_output(
        "cudaenv-verify cuInit 0 CUDA_SUCCESS\ncudaenv-verify driver 0 13000\ncudaenv-verify devices 0 2\n", 0)
    assert ok and "CUDA 13.0" in summary and "2 device" in summary
    ok, summary = programs.check_driver_output(
        "cudaenv-verify cuInit 34 CUDA_ERROR_STUB_LIBRARY (CUDA driver is a stub library)\n"
        "cudaenv-verify driver 34 0\n", 2)
    assert not ok and "STUB_LIBRARY" in summary


def fake_job(tmp_path, version: str = "13.5") -> types.SimpleNamespace:
    progress = types.SimpleNamespace(start=lambda *a: None, end=lambda *a: None)
    return types.SimpleNamespace(label="fake", progress=progress, env={"PATH": "/usr/bin:/bin"}, work=str(tmp_path),
                                 timeout=30, tk={"version": version, "root": "/nonexistent"}, driverless=False,
                                 cancelled=lambda: False)


def fake_program(path, output: str, rc: int = 0) -> None:
    path.write_text(f"#!/bin/sh\nprintf '%s' '{output}'\nexit {rc}\n")
    path.chmod(0o755)


def test_run_steps_check_what_the_program_printed(tmp_path):
    """The run steps (a GPU host only) through stand-in programs: values and runtime version decide."""
    job = fake_job(tmp_path)
    good = f"cudaenv-verify runtime 13050\ncudaenv-verify values {programs.N} 0 {programs.expected_sum()}\n"
    fake_program(tmp_path / "rt_shared", good)
    assert step_run_program(job, "shared").status == "pass"
    fake_program(tmp_path / "rt_static", good.replace("13050", "12040"))
    st = step_run_program(job, "static")
    assert st.status == "fail" and "12040" in st.summary
    fake_program(tmp_path / "drv", "cudaenv-verify cuInit 34 CUDA_ERROR_STUB_LIBRARY (CUDA driver is a stub "
                                   "library)\ncudaenv-verify driver 34 0\n", 2)
    st = step_run_program(job, "driver")
    assert st.status == "fail"
    assert [m["id"] for m in st.explain] == ["runtime.stub_library"]


def test_choose_arch():
    tk = {"root": "/x", "version": "12.4"}
    index = types.SimpleNamespace(data={"archs": {}})
    sms = {"sm": [50, 60, 70, 75, 80, 86, 89, 90], "source": "nvcc --list-gpu-code"}
    from cudaenv.toolkit import facts

    orig = facts.gpu_archs
    facts.gpu_archs = lambda tk, index=None: sms
    try:
        a = choose_arch(tk, index, [])
        assert a["nvcc"] == ["-arch=sm_80"] and a["torch"] == "8.0" and "no GPU" in a["why"]
        a = choose_arch(tk, index, [{"name": "RTX 4090", "compute_cap": "8.9"}])
        assert a["nvcc"] == ["-arch=sm_89"] and a["torch"] == "8.9" and "RTX 4090" in a["why"]
        # A GPU newer than the toolkit knows: PTX for the newest arch it has, JIT-compiled by the driver.
        a = choose_arch(tk, index, [{"name": "B200", "compute_cap": "10.0"}])
        assert a["nvcc"] == ["-gencode", "arch=compute_90,code=compute_90"] and a["torch"] == "9.0+PTX"
        # Older than the toolkit supports: built for it anyway, so nvcc's refusal is the result.
        a = choose_arch(tk, index, [{"name": "K80", "compute_cap": "3.7"}])
        assert a["nvcc"] == ["-arch=sm_37"]
    finally:
        facts.gpu_archs = orig


def test_fast_path_arguments():
    base = {"targets": [], "all": False, "python": None, "no_torch": False, "json": False, "no_cache": False,
            "keep": False, "jobs": None, "timeout": None, "quiet": False}
    assert parse_args(["12.4", "--no-torch", "--json"]) == dict(base, targets=["12.4"], no_torch=True, json=True)
    assert parse_args(["--all", "--python", "/p/python", "-j", "3", "--keep", "--no-cache"]) == dict(
        base, all=True, python="/p/python", jobs=3, keep=True, no_cache=True)
    assert parse_args(["--python=/p/python", "--jobs=2", "--timeout", "30", "12.4"]) == dict(
        base, targets=["12.4"], python="/p/python", jobs=2, timeout=30.0)
    assert parse_args(["-q", "12.4"]) == parse_args(["12.4", "--quiet"]) == dict(base, targets=["12.4"], quiet=True)
    # Anything unusual goes to click, which has the messages.
    for argv in (["-h"], ["--help"], ["--bogus"], ["--python"], ["--python="], ["--all", "12.4"],
                 ["--jobs", "x"], ["-j", "0"], ["--timeout=-1"]):
        assert parse_args(argv) is None, argv


def test_cli_errors_help_and_bad_values(tmp_path):
    make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    env = world_env(str(tmp_path), [str(tmp_path / "cuda-12.4")])
    res = cudaenv(["verify", "99.9"], env)
    assert res.returncode == 2 and res.stdout == "" and len(res.stderr.splitlines()) == 1
    assert "no CUDA toolkit matches '99.9'" in res.stderr
    res = cudaenv(["verify", "--jobs", "0", "12.4"], env)
    assert res.returncode == 2 and res.stdout == "" and "--jobs" in res.stderr
    res = cudaenv(["verify", "--help"], env)
    assert res.returncode == 0 and "Prove PROFILEs build" in res.stdout and "--no-cache" in res.stdout


def test_entry_points_from_preprocessed_headers():
    text = ("CUresult cuInit(unsigned int Flags);\nCUresult  cuMemAlloc_v2 (CUdeviceptr *p, size_t n);\n"
            "typedef CUresult (*PFN_x)(void);\nint cuNotAnEntryPoint(void);\n")
    prof = "typedef CUresult (CUDAAPI *PFN_cuProfilerStart_v4000)(void);"
    assert entry_points([text, "CUresult cuInit(unsigned int);"], prof) == [
        "cuInit", "cuMemAlloc_v2", "cuProfilerStart"]


def test_cache_key_follows_metadata_and_environment(tmp_path):
    root = make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    tk = {"root": root}
    env = {"PATH": "/usr/bin:/bin", "LIBRARY_PATH": f"{root}/lib64:{root}/lib64/stubs"}
    key = vcache.make_key(tk, env, None, torch=False, proc_root=str(tmp_path / "proc"))
    assert vcache.make_key(tk, dict(env), None, torch=False, proc_root=str(tmp_path / "proc")) == key
    marshal.dumps(key)  # it is stored with marshal
    # Another host compiler, another LIBRARY_PATH, another torch, a toolkit file rewritten,
    # a driver appearing: each is a different key.
    assert vcache.make_key(tk, dict(env, NVCC_PREPEND_FLAGS="-ccbin g++-11"), None, torch=False,
                           proc_root=str(tmp_path / "proc")) != key
    assert vcache.make_key(tk, dict(env, LIBRARY_PATH=f"{root}/lib64"), None, torch=False,
                           proc_root=str(tmp_path / "proc")) != key
    assert vcache.make_key(tk, env, None, torch=True, proc_root=str(tmp_path / "proc")) != key
    py = {"python": "/v/bin/python", "executable": "/v/bin/python", "version": "3.11.7",
          "torch": {"installed": True, "version": "2.14.1+cu130", "cuda": "13.0", "location": "/v/torch"}}
    k1 = vcache.make_key(tk, env, py, torch=True, proc_root=str(tmp_path / "proc"))
    py2 = json.loads(json.dumps(py))
    py2["torch"]["version"] = "2.14.2+cu130"
    assert vcache.make_key(tk, env, py2, torch=True, proc_root=str(tmp_path / "proc")) != k1
    time.sleep(0.01)
    with open(os.path.join(root, "version.json"), "a") as f:
        f.write(" ")
    assert vcache.make_key(tk, env, None, torch=False, proc_root=str(tmp_path / "proc")) != key
    key = vcache.make_key(tk, env, None, torch=False, proc_root=str(tmp_path / "proc"))
    os.makedirs(tmp_path / "proc" / "driver" / "nvidia" / "gpus" / "0000:01:00.0")
    (tmp_path / "proc" / "driver" / "nvidia" / "version").write_text("NVRM version: 580.95.05\n")
    assert vcache.make_key(tk, env, None, torch=False, proc_root=str(tmp_path / "proc")) != key


def record(status: str, steps: list[Step], name: str = "p") -> dict:
    return {"format": vcache.FORMAT, "profile": name, "root": "/r", "version": "12.4.1", "status": status,
            "time": time.time() - 120, "seconds": 1.0, "arch": "sm_80", "arch_why": "no GPU", "host_compiler": "g++",
            "python": None, "torch": None, "steps": [s.to_dict() for s in steps], "tmpdir": None, "cached": False,
            "age": 0.0}


def test_records_failures_are_kept_but_never_reused(tmp_path):
    cache = str(tmp_path)
    ok = record("pass", [Step("nvcc-shared", "pass", "built")])
    bad = record("fail", [Step("nvcc-shared", "fail", "nvcc exited with status 1")])
    vcache.store(cache, "p", ("k1",), ok)
    assert vcache.lookup(cache, "p", ("k1",))["status"] == "pass"
    assert vcache.lookup(cache, "p", ("k2",)) is None
    vcache.store(cache, "p", ("k2",), bad)
    assert vcache.lookup(cache, "p", ("k2",)) is None  # recorded, not reused
    assert vcache.last_record(cache, "p")["status"] == "fail"
    assert vcache.lookup(cache, "p", ("k1",)) is not None  # the other key's pass survives
    vcache.store(cache, "p", None, ok)  # an unkeyed result only becomes "last"
    assert vcache.last_record(cache, "p")["status"] == "pass"
    assert [k for k, _ in vcache.load(cache, "p")["entries"]] == [("k2",), ("k1",)]


def test_render_failure_with_explain_once_and_cached_age():
    explained = {"id": "nvcc.gcc_too_new", "title": "the host gcc is newer", "cause": "c", "fix": "one\ntwo",
                 "check": "compiler.host", "matched": "x"}
    steps = [Step("nvcc-shared", "fail", "nvcc exited with status 1", 0.4, "nvcc -o x x.cu", ["error: #error"],
                  [explained]),
             Step("nvcc-static", "fail", "nvcc exited with status 1", 0.4, "nvcc", ["error"], [explained]),
             Step("run-shared", "skip", "no NVIDIA driver")]
    text = render_record(record("fail", steps))
    assert text.count("explain: the host gcc is newer  [nvcc.gcc_too_new]") == 2
    assert text.count("(see above)") == 1 and text.count("fix:   one") == 1
    assert "| error: #error" in text and "FAIL: 0 passed, 2 failed, 1 skipped" in text
    rec = record("pass", [Step("nvcc-shared", "pass", "built", 1.0)])
    rec.update(cached=True, age=300)
    assert "(cached result from 5 min ago; --no-cache re-runs it)" in render_record(rec)


def test_use_verify_gate(tmp_path):
    from cudaenv.context import Context

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "CUDAENV_ROOTS": str(tmp_path / "cuda-12.4")}
    make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    ctx = Context(env=env)
    assert "never been verified" in vcache.require_verified(ctx, "12.4")
    vcache.store(ctx.cache_dir, "cuda-12.4.1", ("k",),
                 record("fail", [Step("link-lcuda", "fail", "g++ exited with status 1")], "cuda-12.4.1"))
    with pytest.raises(CudaenvError) as exc:
        vcache.require_verified(ctx, "12.4")
    assert "last verify failed" in exc.value.message and "link-lcuda" in exc.value.message
    assert "cudaenv verify cuda-12.4.1" in exc.value.hint
    vcache.store(ctx.cache_dir, "cuda-12.4.1", ("k",), record("pass", [], "cuda-12.4.1"))
    assert vcache.require_verified(ctx, "12.4") is None


def test_stop_all_kills_process_groups_of_other_threads(tmp_path):
    """Ctrl-C lands in the main thread; commands other threads run must die with their children."""
    from cudaenv.infra import run as runmod

    marker = f"sleep-{os.getpid()}-{time.time()}"
    results = []
    script = f"sleep 300 & sleep 300; : {marker}"
    th = threading.Thread(target=lambda: results.append(runmod.run(["sh", "-c", script], timeout=600)))
    th.start()
    try:
        deadline = time.time() + 10
        while not procs_mentioning(marker) and time.time() < deadline:
            time.sleep(0.05)
        # The command may be running before its thread has registered it (Popen has not
        # returned yet): stop_all then counts 0 and the thread kills it itself on registering.
        assert runmod.stop_all() in (0, 1)
        th.join(10)
        assert not th.is_alive() and results[0].cancelled
        # Refused while stopping, allowed again after resume_all.
        assert runmod.run(["true"]).cancelled
    finally:
        runmod.resume_all()
    assert runmod.run(["true"]).returncode == 0
    deadline = time.time() + 5
    while procs_mentioning(marker) and time.time() < deadline:
        time.sleep(0.05)
    assert procs_mentioning(marker) == []


def test_timeout_kills_the_whole_group():
    from cudaenv.infra.run import run

    marker = f"tmo-{os.getpid()}-{time.time()}"
    t0 = time.monotonic()
    res = run(["sh", "-c", f"sleep 300 & sleep 300; : {marker}"], timeout=1)
    assert res.timed_out and time.monotonic() - t0 < 10
    time.sleep(0.2)
    assert procs_mentioning(marker) == []
    # A child that moved to a process group of its own (as ninja's jobs do) goes too.
    own_group = (f"import os, subprocess, time; subprocess.Popen(['sh', '-c', 'sleep 300; : {marker}'], "
                 "preexec_fn=os.setpgrp); time.sleep(300)")
    t0 = time.monotonic()
    res = run([sys.executable, "-c", own_group], timeout=2)
    assert res.timed_out and time.monotonic() - t0 < 10  # not waiting for the orphan's pipe to close
    time.sleep(0.2)
    assert procs_mentioning(marker) == []


def test_stale_private_dirs_of_dead_processes_are_swept(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"cudaenv-verify-{dead.pid}-abc"
    kept = tmp_path / f"cudaenv-verify-{dead.pid}-keep"
    alive = tmp_path / f"cudaenv-verify-{os.getppid()}-xyz"
    for d in (stale, kept, alive):
        (d / "sub").mkdir(parents=True)
    (kept / ".cudaenv-keep").write_text("")
    assert sweep_stale({"TMPDIR": str(tmp_path)}) == 1
    assert not stale.exists() and kept.exists() and alive.exists()


# --------------------------------------------------------------------------- the test bed

@pytest.fixture(scope="module")
def bed(tmp_path_factory, testbed):
    """One world where 11.8, 12.4, 13.5 and the system 13.0 were verified once (no torch), in parallel."""
    need_system_toolkit()
    base = str(tmp_path_factory.mktemp("verify-bed"))
    env = world_env(base, list(testbed.values()))
    t0 = time.monotonic()
    res, doc = verify_json(env, "11.8", "12.4", "13.5", SYSTEM_TOOLKIT, "--no-torch")
    return types.SimpleNamespace(env=env, res=res, doc=doc, seconds=time.monotonic() - t0, base=base)


@pytest.mark.testbed
def test_every_toolkit_compiles_and_links(bed):
    res, doc = bed.res, bed.doc
    assert res.returncode == 0 and doc["ok"], res.stdout + res.stderr
    got = [r["version"] for r in doc["results"]]
    assert got == ["11.8.0", "12.4.1", "13.5.0", "13.0.88"]  # the order asked, though run in parallel
    for r in doc["results"]:
        st = steps_of(r)
        for sid in COMPILE_STEPS:
            assert st[sid]["status"] == "pass", (r["version"], st[sid])
        assert (st["torch-build"]["status"], st["torch-build"]["summary"]) == ("skip", "--no-torch")
        for sid in ("run-shared", "run-static", "run-driver", "torch-call"):
            assert st[sid]["status"] == "skip" and "no NVIDIA driver" in st[sid]["summary"]
        assert r["cached"] is False and r["tmpdir"] is None
    # No private directory left behind, and nothing else the tools wrote.
    assert os.listdir(bed.env["TMPDIR"]) == []


@pytest.mark.testbed
def test_11_8_passes_through_host_compiler_selection(bed):
    r = next(r for r in bed.doc["results"] if r["version"] == "11.8.0")
    assert "g++-11" in r["host_compiler"]
    assert "-ccbin g++-11" in steps_of(r)["nvcc-shared"]["summary"]
    assert "g++-11" in steps_of(r)["link-lcuda"]["summary"]


@pytest.mark.testbed
def test_system_13_0_links_lcuda_through_the_generated_stub(bed):
    r = next(r for r in bed.doc["results"] if r["root"] == SYSTEM_TOOLKIT)
    st = steps_of(r)
    assert st["libcuda-stub"]["status"] == "pass"
    assert "generated: 672 driver entry points" in st["libcuda-stub"]["summary"]
    stub_dir = os.path.join(bed.env["XDG_CACHE_HOME"], "cudaenv", "libcuda-stub")
    (key,) = os.listdir(stub_dir)
    stub = os.path.join(stub_dir, key, "libcuda.so")
    assert st["link-lcuda"]["summary"].endswith(f"found {stub} (LIBRARY_PATH)")
    assert read_elf(stub).soname == "libcuda.so.1"
    # `use` now puts it on LIBRARY_PATH (a stat, no generation), and a plain g++ -lcuda links.
    res = cudaenv(["use", "13.0", "--shell", "json"], bed.env)
    assert res.returncode == 0, res.stderr
    values = json.loads(res.stdout)["set"]
    assert os.path.dirname(stub) in values["LIBRARY_PATH"].split(":")
    # stubs: auto is link time only, with or without a driver (issue 17): no loader-path shim.
    assert not [d for d in values.get("LD_LIBRARY_PATH", "").split(":") if os.path.lexists(os.path.join(d, "libcuda.so.1"))]
    tmp = tempfile.mkdtemp(dir=bed.env["TMPDIR"])
    try:
        src = os.path.join(tmp, "drv.cpp")
        with open(src, "w") as f:
            f.write(programs.DRIVER_CPP)
        link_env = dict(bed.env, **values)
        out = subprocess.run(["g++", "-I", f"{SYSTEM_TOOLKIT}/include", src, "-lcuda", "-o", os.path.join(tmp, "d")],
                             env=link_env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        no_stub = dict(link_env, LIBRARY_PATH=f"{SYSTEM_TOOLKIT}/lib64")
        out = subprocess.run(["g++", "-I", f"{SYSTEM_TOOLKIT}/include", src, "-lcuda", "-o", os.path.join(tmp, "d")],
                             env=no_stub, capture_output=True, text=True, timeout=120)
        assert out.returncode != 0 and "cannot find -lcuda" in out.stderr
    finally:
        shutil.rmtree(tmp)


@pytest.mark.testbed
def test_cache_hit_is_reported_with_its_age_and_skips_click(bed):
    res, doc = verify_json(bed.env, "11.8", "12.4", "13.5", SYSTEM_TOOLKIT, "--no-torch")
    assert res.returncode == 0
    assert all(r["cached"] and r["age_seconds"] >= 0 for r in doc["results"])
    # The same through the text renderer, and without importing click (the fast path).
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "cudaenv", "verify", "12.4", "--no-torch"],
                         env=bed.env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "(cached result from" in res.stdout
    imported = {line.split("|")[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")}
    assert "click" not in imported and "cudaenv.verify.runner" not in imported
    # --no-cache runs the steps again.
    res, doc = verify_json(bed.env, "12.4", "--no-torch", "--no-cache")
    assert res.returncode == 0 and doc["results"][0]["cached"] is False


@pytest.mark.testbed
def test_keep_leaves_the_private_directory(bed):
    res = cudaenv(["verify", "13.5", "--no-torch", "--no-cache", "--keep"], bed.env)
    assert res.returncode == 0, res.stderr
    line = next(ln for ln in res.stderr.splitlines() if "files kept in" in ln)
    kept = line.split("files kept in ", 1)[1].strip()
    try:
        assert kept.startswith(bed.env["TMPDIR"] + "/cudaenv-verify-")
        assert {"rt.cu", "rt_shared", "rt_static", "drv.cpp", "drv"} <= set(os.listdir(kept))
        assert f"files kept in {kept}" in res.stdout
    finally:
        shutil.rmtree(kept, ignore_errors=True)


@pytest.fixture(scope="module")
def broken(tmp_path_factory, testbed):
    """Profiles that must fail: 11.8 with host-compiler selection off, 12.4 without the stubs on LIBRARY_PATH."""
    base = str(tmp_path_factory.mktemp("verify-broken"))
    env = world_env(base, list(testbed.values()))
    write_profile(env, "t118", f"name: t118\nroot: {testbed['11.8']}\nhost_compiler: none\n"
                  "set: {CUDA_HOME: '{root}'}\nprepend:\n  PATH: ['{root}/bin']\n"
                  "  LIBRARY_PATH: ['{root}/lib64', '{root}/lib64/stubs']\n")
    write_profile(env, "t124", f"name: t124\nroot: {testbed['12.4']}\n"
                  "set: {CUDA_HOME: '{root}'}\nprepend:\n  PATH: ['{root}/bin']\n"
                  "  LD_LIBRARY_PATH: ['{root}/lib64']\n  LIBRARY_PATH: ['{root}/lib64']\n")
    res, doc = verify_json(env, "t118", "t124", "--no-torch")
    return types.SimpleNamespace(env=env, res=res, doc=doc)


@pytest.mark.testbed
def test_11_8_fails_without_host_compiler_selection(broken):
    assert broken.res.returncode == 1 and broken.doc["ok"] is False
    r = broken.doc["results"][0]
    assert r["profile"] == "t118" and r["status"] == "fail"
    st = steps_of(r)
    for sid in ("nvcc-shared", "nvcc-static"):
        assert st[sid]["status"] == "fail"
        assert any("unsupported GNU version! gcc versions later than 11" in ln for ln in st[sid]["output"])
        assert [m["id"] for m in st[sid]["explain"]] == ["nvcc.gcc_too_new"]
        assert "newest allowed is gcc 11" in st[sid]["explain"][0]["title"]
    assert st["link-lcuda"]["status"] == "pass"  # the host compiler itself links fine
    text = cudaenv(["verify", "t118", "--no-torch"], broken.env).stdout
    assert "explain: the host gcc is newer than this nvcc accepts (newest allowed is gcc 11)" in text


@pytest.mark.testbed
def test_lcuda_needs_the_profiles_library_path(broken):
    r = broken.doc["results"][1]
    st = steps_of(r)
    assert st["nvcc-shared"]["status"] == "pass" and st["nvcc-static"]["status"] == "pass"
    link = st["link-lcuda"]
    assert link["status"] == "fail"
    assert any("cannot find -lcuda" in ln for ln in link["output"])
    assert [m["id"] for m in link["explain"]] == ["link.lcuda_not_found"]
    assert " -L" not in link["command"] and "-lcuda" in link["command"]


@pytest.mark.testbed
def test_failures_are_rerun_and_gate_use_verify(broken):
    res, doc = verify_json(broken.env, "t118", "--no-torch")
    assert res.returncode == 1 and doc["results"][0]["cached"] is False
    res = cudaenv(["use", "--verify", "t118", "--shell", "bash"], broken.env)
    assert res.returncode == 1 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and "refusing to switch to t118: its last verify failed" in lines[0]
    res = cudaenv(["use", "t118", "--shell", "bash"], broken.env)  # without --verify it switches
    assert res.returncode == 0 and "export CUDA_HOME=" in res.stdout


@pytest.mark.testbed
def test_profile_edit_invalidates_the_cached_result(tmp_path, testbed):
    env = world_env(str(tmp_path), list(testbed.values()))
    res, doc = verify_json(env, "12.4", "--no-torch")
    assert res.returncode == 0 and doc["results"][0]["cached"] is False
    res, doc = verify_json(env, "12.4", "--no-torch")
    assert doc["results"][0]["cached"] is True
    res = cudaenv(["use", "--verify", "12.4", "--shell", "bash"], env)
    assert res.returncode == 0 and res.stdout.startswith("export ")
    # Pinning another host compiler changes NVCC_PREPEND_FLAGS: the result is not reused.
    res = cudaenv(["profile", "build", "12.4"], env)
    assert res.returncode == 0, res.stderr
    path = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles", "cuda-12.4.1.yaml")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("host_compiler: auto", "host_compiler: /usr/bin/g++-11")
                .replace("host_compiler: null", "host_compiler: /usr/bin/g++-11"))
    res, doc = verify_json(env, "12.4", "--no-torch")
    r = doc["results"][0]
    assert res.returncode == 0 and r["cached"] is False and "g++-11" in r["host_compiler"]


@pytest.mark.slow
@pytest.mark.testbed
def test_timeout_fails_the_step_and_kills_the_compiler(tmp_path, testbed):
    env = world_env(str(tmp_path), list(testbed.values()))
    # A host compiler that is slow by construction (the real g++, after a long sleep), so the
    # 1 s limit is hit on any machine: a real nvcc alone may compile the tiny program in time.
    slow = tmp_path / "slowbin" / "g++"
    slow.parent.mkdir()
    slow.write_text(f"#!/bin/sh\nsleep 300\nexec {shutil.which('g++')} \"$@\"\n")
    slow.chmod(0o755)
    env["NVCC_PREPEND_FLAGS"] = f"-ccbin {slow}"
    t0 = time.monotonic()
    res, doc = verify_json(env, "12.4", "--no-torch", "--timeout", "1")
    assert time.monotonic() - t0 < 60
    st = steps_of(doc["results"][0])
    assert res.returncode == 1
    assert st["nvcc-shared"]["status"] == "fail"
    assert "did not finish within 1 s" in st["nvcc-shared"]["summary"]
    assert procs_mentioning(str(tmp_path)) == []
    assert os.listdir(env["TMPDIR"]) == []


def interrupt_when(env: dict, args: list[str], ready: str, sig: int, within: float = 120):
    """Start verify, wait until a process whose command line holds ``ready`` and TMPDIR runs, send ``sig``."""
    proc = subprocess.Popen([sys.executable, "-m", "cudaenv", "verify", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
    try:
        deadline = time.time() + within
        while time.time() < deadline and proc.poll() is None:
            if any(ready in cmd for cmd in procs_mentioning(env["TMPDIR"])):
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"no {ready!r} process appeared: {proc.communicate(timeout=60)}")
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        return proc.returncode, out, err, time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.testbed
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_during_nvcc_stops_cleanly(tmp_path, testbed, sig):
    """SIGTERM, and SIGHUP (the terminal closed): no orphan compiler, no temporary directory."""
    env = world_env(str(tmp_path), list(testbed.values()))
    rc, out, err, took = interrupt_when(env, ["13.5", "--no-torch", "--no-cache"], "cicc", sig)
    assert rc == 130 and "verify interrupted" in err and took < 20
    assert out == ""
    time.sleep(0.3)
    assert procs_mentioning(env["TMPDIR"]) == []
    assert os.listdir(env["TMPDIR"]) == []
    # Nothing was recorded for the interrupted run.
    assert not os.path.exists(os.path.join(env["XDG_CACHE_HOME"], "cudaenv", "verify", "cuda-13.5.0.marshal"))


@pytest.mark.slow
@pytest.mark.testbed
def test_ctrl_c_during_torch_build_leaves_no_temp_dir(tmp_path, testbed, venv_cu):
    """The deepest tree: cudaenv -> python setup -> ninja -> nvcc/c++ -> cicc/cc1plus; all of it goes."""
    env = world_env(str(tmp_path), list(testbed.values()))
    rc, out, err, took = interrupt_when(env, ["13.5", "--python", venv_cu, "--no-cache"], "/torch/ext.cpp", signal.SIGINT,
                                        within=240)
    assert rc == 130 and "verify interrupted" in err and took < 20
    time.sleep(0.3)
    assert procs_mentioning(env["TMPDIR"]) == []
    assert os.listdir(env["TMPDIR"]) == []


@pytest.mark.testbed
def test_cpu_torch_is_skipped_with_the_reason(tmp_path, testbed, venv_cpu):
    env = world_env(str(tmp_path), list(testbed.values()))
    res, doc = verify_json(env, "13.5", "--python", venv_cpu)
    st = steps_of(doc["results"][0])
    assert res.returncode == 0
    assert st["torch-build"]["status"] == "skip"
    assert "2.13.0+cpu" in st["torch-build"]["summary"] and "CPU build" in st["torch-build"]["summary"]
    assert st["torch-import"]["status"] == "skip"
    # The hit is answered from the interpreter's file metadata: no probe, not even its module.
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "cudaenv", "verify", "13.5", "--python", venv_cpu],
                         env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "(cached result from" in res.stdout
    imported = {line.split("|")[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")}
    assert "cudaenv.host.python_probe" not in imported and "click" not in imported


def test_python_fingerprint_follows_the_interpreter_files(tmp_path):
    site = tmp_path / "site-packages"
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "version.py").write_text("__version__ = '2.14.1'\n")
    py = tmp_path / "python"
    py.write_text("")
    info = {"python": str(py), "executable": str(py), "wrapper": False, "sys_path": [str(site), ""],
            "user_site": str(tmp_path / "user-site"), "torch": {"location": str(site / "torch")}}
    fp = vcache.python_fingerprint(info)
    assert vcache.fingerprint_holds(fp)
    (site / "newpkg").mkdir()  # pip install changes the directory
    assert not vcache.fingerprint_holds(fp)
    fp = vcache.python_fingerprint(info)
    time.sleep(0.01)
    (site / "torch" / "version.py").write_text("__version__ = '2.14.2'\n")
    assert not vcache.fingerprint_holds(fp)
    fp = vcache.python_fingerprint(info)
    (tmp_path / "user-site").mkdir()  # a user site appearing shadows the venv's packages
    assert not vcache.fingerprint_holds(fp)
    assert vcache.python_fingerprint(dict(info, wrapper=True)) is None
    assert vcache.python_fingerprint({"python": str(py), "error": "x"}) is None


@pytest.mark.slow
@pytest.mark.testbed
def test_torch_extension_against_each_toolkit(tmp_path, testbed, venv_cu):
    """Two real builds (13.0, 13.5); 12.4 and 11.8 stop at torch's own version check within seconds."""
    need_system_toolkit()
    env = world_env(str(tmp_path), list(testbed.values()))
    res, doc = verify_json(env, "12.4", "11.8", SYSTEM_TOOLKIT, "13.5", "--python", venv_cu, "--jobs", "2",
                           timeout=1800)
    assert res.returncode == 1, res.stderr
    by = {r["version"][:4]: r for r in doc["results"]}
    for v in ("13.0", "13.5"):
        st = steps_of(by[v])
        assert st["torch-build"]["status"] == "pass", st["torch-build"]
        assert st["torch-import"]["status"] == "pass", st["torch-import"]
        assert "TORCH_CUDA_ARCH_LIST=8.0" in st["torch-build"]["summary"]
        assert by[v]["status"] == "pass"
    assert any("minor version mismatch" in w for w in steps_of(by["13.5"])["torch-build"]["warnings"])
    assert not any("minor version mismatch" in w for w in steps_of(by["13.0"])["torch-build"]["warnings"])
    for v, short in (("12.4", "12.4"), ("11.8", "11.8")):
        st = steps_of(by[v])["torch-build"]
        assert st["status"] == "fail" and st["seconds"] < 90
        assert any("mismatches the version that was used to compile" in ln for ln in st["output"])
        ids = [m["id"] for m in st["explain"]]
        assert ids == ["torch.cuda_major_mismatch"], ids
        assert f"({short}) and torch's CUDA (13.0)" in st["explain"][0]["title"]
        assert all(steps_of(by[v])[s]["status"] == "pass" for s in COMPILE_STEPS)
    # Passing results come from the cache; the failures run again (and fail again, fast).
    t0 = time.monotonic()
    res, doc = verify_json(env, "12.4", "11.8", SYSTEM_TOOLKIT, "13.5", "--python", venv_cu, timeout=600)
    assert time.monotonic() - t0 < 120
    cached = {r["version"][:4]: r["cached"] for r in doc["results"]}
    assert cached == {"12.4": False, "11.8": False, "13.0": True, "13.5": True}


def test_verify_as_a_non_root_user(tmp_path):
    """Everything verify writes (stub, records, private dirs) lands where an ordinary user may write."""
    need_system_toolkit()
    if os.getuid() != 0:
        pytest.skip("needs root to become another user")
    base = tempfile.mkdtemp(prefix="cudaenv-nonroot-")
    try:
        os.chmod(base, 0o755)
        os.chown(base, 65534, 65534)
        child = r'''
import json, os, sys
sys.path.insert(0, sys.argv[1])
base = sys.argv[2]
# Imported while still root: this interpreter lives under /root, which the other user cannot read.
import concurrent.futures, concurrent.futures.thread, fcntl, hashlib, marshal, re, shlex, shutil, struct
import tempfile, textwrap, threading
from cudaenv.context import Context
from cudaenv.knowledge.explain import explain
from cudaenv.verify import programs, report, runner, steps
from cudaenv.infra import elf
from cudaenv.toolkit import stubgen
from cudaenv.profiles.select import select_targets
from cudaenv.verify.prep import Options
import cudaenv.checks.gather, cudaenv.host.compilers, cudaenv.toolkit.stubs, cudaenv.toolkit.facts
import cudaenv.profiles.files, cudaenv.knowledge.kb, yaml
import subprocess, signal  # the stdlib (under /root here) is unreadable once the child is nobody
explain("warm up the knowledge base")
env = {"PATH": "/usr/bin:/bin", "HOME": base, "XDG_CONFIG_HOME": base + "/cfg", "XDG_CACHE_HOME": base + "/cache",
       "TMPDIR": base + "/tmp", "LC_ALL": "C.UTF-8"}
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
os.makedirs(env["TMPDIR"])
ctx = Context(env=env)
pairs = select_targets(ctx, ["/usr/local/cuda-13.0"], False)
recs = runner.verify_targets(ctx, pairs, Options(torch=False), runner.Progress(enabled=False), lambda r: None)
ctx.save()
print(json.dumps(recs))
'''
        res = subprocess.run([sys.executable, "-c", child, REPO, base], capture_output=True, text=True, timeout=300,
                             cwd="/")
        assert res.returncode == 0, res.stderr
        (rec,) = json.loads(res.stdout)
        st = steps_of(rec)
        assert rec["status"] == "pass", rec
        assert st["libcuda-stub"]["status"] == "pass" and st["link-lcuda"]["status"] == "pass"
        owners = {os.lstat(os.path.join(d, n)).st_uid for d, dirs, files in os.walk(base) for n in dirs + files}
        assert owners == {65534}
        assert os.listdir(os.path.join(base, "tmp")) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("value", ["nan", "inf", "NaN"])
def test_verify_timeout_must_be_a_finite_number(one_toolkit, value):
    """nan passed click's range check (every comparison with nan is false), and then no limit held."""
    _tmp, env = one_toolkit
    res = run_cudaenv(["verify", "12.4", "--no-torch", "--timeout", value], env)
    assert res.returncode == 2 and res.stdout == "" and "is not a number of seconds" in res.stderr, res.stderr
