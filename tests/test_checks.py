"""Compatibility rules over facts (pure), then check/doctor end to end."""

from __future__ import annotations

import os

import pytest

from cudaenv.checks import CHECKS, Finding
from cudaenv.checks.rules import arch_rules, compiler_rules, driver_rules, stub_rules, torch_rules
from cudaenv.checks.shell import cudart_providers, shell_rules, stale_locks, visible_devices_problem
from helpers import kill_marked, make_toolkit, run_cudaenv, stderr_is_cudaenv_lines


def tk(version="12.4.1", stubs=True):
    short = ".".join(version.split(".")[:2])
    return {"root": f"/opt/cuda-{short}", "version": short, "full_version": version, "components": {"stubs": stubs}}


def drv(version="550.54.15", cuda="12.4", gpus=None):
    return {"present": True, "version": version, "cuda": cuda, "gpus": gpus or [], "reasons": []}


def status(findings, check_id):
    return [f.status for f in findings if f.id == check_id]


@pytest.mark.parametrize("toolkit,driver,expect", [
    ("12.4.1", drv(), "ok"),
    ("12.2.0", drv(), "ok"),
    ("12.6.3", drv(), "warn"),           # newer minor: minor-version compatibility only
    ("13.0.2", drv(), "fail"),           # newer major: insufficient driver
    ("11.8.0", drv("520.61.05", "11.8"), "ok"),
    ("12.0.0", drv("470.82.01", "11.4"), "fail"),
    ("13.9.0", drv("580.95.05", "13.0"), "warn"),  # unknown future toolkit: same major -> warn
])
def test_driver_rules(toolkit, driver, expect):
    assert status(driver_rules({"tk": tk(toolkit), "driver": driver}), "driver.version") == [expect]


def test_no_driver_skips_and_says_why():
    f = driver_rules({"tk": tk(), "driver": {"present": False, "reasons": ["no /proc/driver/nvidia/version"]}})
    assert [(x.id, x.status) for x in f] == [("driver.present", "skip")]
    assert "no /proc/driver/nvidia/version" in f[0].detail


def test_driver_version_from_the_table_when_cuda_is_unknown():
    f = driver_rules({"tk": tk("12.4.1"), "driver": drv("550.54.15", None)})
    assert status(f, "driver.version") == ["ok"]
    f = driver_rules({"tk": tk("12.8.1"), "driver": drv("550.54.15", None)})
    assert status(f, "driver.version") == ["warn"]


def test_forward_compat_on_a_consumer_gpu():
    gpus = [{"index": 0, "name": "NVIDIA GeForce RTX 4090", "compute_cap": "8.9"}]
    f = driver_rules({"tk": tk(), "driver": drv(gpus=gpus), "ld_library_path": ["/usr/local/cuda-12.8/compat"]})
    assert status(f, "driver.forward_compat") == ["warn"]
    gpus = [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_cap": "9.0"}]
    f = driver_rules({"tk": tk(), "driver": drv(gpus=gpus), "ld_library_path": ["/usr/local/cuda-12.8/compat"]})
    assert status(f, "driver.forward_compat") == []


G12 = {"family": "gcc", "version": "12.2.0", "major": 12, "path": "/usr/bin/g++", "why": "g++ on PATH"}


@pytest.mark.parametrize("limits,selected,pin,expect", [
    ({"gcc_max": 13, "clang_max": 17}, (None, None), "auto", "ok"),
    ({"gcc_max": 11, "clang_max": 14}, ("/usr/bin/g++-11", "too new"), "auto", "ok"),
    ({"gcc_max": 11, "clang_max": 14}, (None, "none installed"), "auto", "fail"),
    ({"gcc_max": 11, "clang_max": 14}, (None, None), "none", "fail"),
    ({"gcc_max": None, "clang_max": None, "source": "unknown"}, (None, None), "auto", "warn"),
])
def test_compiler_rules(limits, selected, pin, expect):
    facts = {"tk": tk("11.8.0"), "limits": limits, "default_cxx": G12, "selected_cxx": selected,
             "profile": {"host_compiler": pin}, "install_hint": "sudo apt-get install g++-{gcc}"}
    f = compiler_rules(facts)
    assert status(f, "compiler.host") == [expect]
    if expect == "fail":
        assert "sudo apt-get install g++-11" in f[0].fix


def probe(version, cuda, arch=None):
    return {"python": "/venv/bin/python", "torch": {"installed": True, "version": version, "cuda": cuda,
                                                    "arch_list": arch or []}}


@pytest.mark.parametrize("toolkit,torch_cuda,expect", [
    ("13.0.2", "13.0", "ok"), ("13.5.0", "13.0", "warn"), ("12.4.1", "13.0", "fail"), ("11.8.0", "13.0", "fail")])
def test_torch_versions(toolkit, torch_cuda, expect):
    f = torch_rules({"tk": tk(toolkit), "python": probe("2.14.1+cu130", torch_cuda)})
    assert status(f, "torch.cuda_version") == [expect]


def test_cpu_torch_is_info_and_old_nvcc_cannot_do_cxx20():
    f = torch_rules({"tk": tk("13.0.2"), "python": probe("2.13.0+cpu", None)})
    assert [(x.id, x.status) for x in f] == [("torch.cuda_build", "info")]
    f = torch_rules({"tk": tk("11.8.0"), "python": probe("2.14.1+cu130", "13.0")})
    assert status(f, "toolkit.cxx_std") == ["fail"]
    assert status(torch_rules({"tk": tk("12.4.1"), "python": probe("2.14.1+cu130", "13.0")}), "toolkit.cxx_std") == []
    assert status(torch_rules({"tk": tk(), "python": {"error": "timed out", "python": "p"}}), "torch.cuda_build") == ["skip"]
    assert torch_rules({"tk": tk(), "python": None}) == []
    broken = {"python": "p", "torch": {"installed": True, "import_error": "ImportError: libc10.so: cannot open"}}
    assert status(torch_rules({"tk": tk(), "python": broken}), "torch.cuda_build") == ["fail"]


SM_124 = [50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90]
SM_135 = [75, 80, 86, 87, 88, 89, 90, 100, 103, 107, 110, 120, 121]


@pytest.mark.parametrize("sms,cap,expect", [(SM_124, "8.6", "ok"), (SM_124, "12.0", "fail"), (SM_135, "7.0", "fail"),
                                            (SM_135, "8.9", "ok"), (SM_124, "8.6", "ok")])
def test_gpu_arch(sms, cap, expect):
    gpus = [{"index": 0, "name": "GPU", "compute_cap": cap}]
    f = arch_rules({"tk": tk(), "archs": {"sm": sms}, "driver": drv(gpus=gpus)})
    assert status(f, "gpu.arch") == [expect]


def test_torch_arch_list_and_no_gpu():
    gpus = [{"index": 0, "name": "GPU", "compute_cap": "12.0"}]
    facts = {"tk": tk("13.0.2"), "archs": {"sm": SM_135}, "driver": drv(gpus=gpus),
             "python": probe("2.14.1", "13.0", ["sm_80", "sm_90", "sm_100"])}
    assert status(arch_rules(facts), "torch.arch") == ["fail"]
    facts["python"]["torch"]["arch_list"].append("sm_120")
    assert status(arch_rules(facts), "torch.arch") == ["ok"]
    assert status(arch_rules({"tk": tk(), "archs": {"sm": SM_124}, "driver": {"present": False}}), "gpu.arch") == ["skip"]


def test_stub_rules():
    assert status(stub_rules({"tk": tk(stubs=True)}), "toolkit.stubs") == ["ok"]
    assert status(stub_rules({"tk": tk(stubs=False)}), "toolkit.stubs") == ["warn"]


def test_findings_validate_ids_and_statuses():
    with pytest.raises(ValueError):
        Finding("no.such.check", "ok", "x")
    with pytest.raises(ValueError):
        Finding("env.cuda_home", "great", "x")
    assert all(isinstance(v, str) and v for v in CHECKS.values())


def shell_facts(**kw):
    base = {"env": {}, "driver": {}, "active": None, "CUDA_HOME": {"value": "/c", "version": "12.4.1"},
            "CUDA_PATH": {"value": "/c", "version": "12.4.1"}, "nvcc": {"path": "/c/bin/nvcc", "root": "/c", "version": "12.4.131"},
            "default": "/usr/local/cuda-13.0", "lists": {"PATH": "/c/bin:/usr/bin", "LD_LIBRARY_PATH": None, "LIBRARY_PATH": ""},
            "stub_dirs": [], "cudart": {}, "locks": {"dirs": ["/x"], "stale": []}, "visible": None}
    base.update(kw)
    return base


def test_shell_rules_consistency():
    assert status(shell_rules(shell_facts()), "env.consistency") == ["ok"]
    f = shell_rules(shell_facts(nvcc={"path": "/d/bin/nvcc", "root": "/d", "version": "11.7.99"}))
    assert status(f, "env.consistency") == ["fail"]
    assert "nvcc on PATH (/d/bin/nvcc) is CUDA 11.7.99 but CUDA_HOME is CUDA 12.4.1" in f[1].summary
    f = shell_rules(shell_facts(CUDA_PATH={"value": "/e", "version": "12.4.1"}))
    assert status(f, "env.consistency") == ["fail"]


def test_shell_rules_cuda_home_states():
    assert status(shell_rules(shell_facts(CUDA_HOME=None)), "env.cuda_home") == ["warn"]
    assert status(shell_rules(shell_facts(CUDA_HOME={"value": "", "version": None})), "env.cuda_home") == ["fail"]
    assert status(shell_rules(shell_facts(CUDA_HOME={"value": "/tmp", "version": None})), "env.cuda_home") == ["fail"]


@pytest.mark.parametrize("value,where", [(":/c/lib", "leading"), ("/c/lib:", "trailing"), ("/a::/b", "inner")])
def test_shell_rules_empty_entries(value, where):
    f = shell_rules(shell_facts(lists={"PATH": "/usr/bin", "LD_LIBRARY_PATH": value, "LIBRARY_PATH": None}))
    bad = [x for x in f if x.id == "env.empty_entries"][0]
    assert bad.status == "warn" and f"LD_LIBRARY_PATH ({where} ':')" in bad.summary


def test_shell_rules_stubs_and_cudart():
    f = shell_rules(shell_facts(stub_dirs=["/c/lib64/stubs"], driver={"present": True}))
    assert status(f, "env.stubs_on_loader_path") == ["fail"]
    f = shell_rules(shell_facts(stub_dirs=["/c/lib64/stubs"], driver={"present": False}))
    assert status(f, "env.stubs_on_loader_path") == ["info"]  # fine here, but it travels (issue 17)
    f = shell_rules(shell_facts(cudart={"libcudart.so.12": ["/a/libcudart.so.12.4.127", "/b/libcudart.so.12.8.90"]}))
    assert status(f, "env.cudart_versions") == ["warn"]


def _stub_finding(d, env, driver):
    from cudaenv.checks.shell import stub_origins

    f = shell_rules(shell_facts(stub_dirs=[d], stub_origin=stub_origins(env, [d]), driver={"present": driver}))
    (found,) = [x for x in f if x.id == "env.stubs_on_loader_path"]
    return found


def test_stub_on_loader_path_says_where_it_came_from():
    """Issue 17: a job that inherited a stub gets told which of four sources put it there, and the fix for that
    source, not "cudaenv profiles with stubs: auto do this for you" (it was cudaenv that put it there)."""
    from cudaenv.env.state import State, encode

    old = "/home/u/.cache/cudaenv/stubs/0123456789abcdef"  # where cudaenv kept it before issue 17
    local = "/run/user/1000/cudaenv/stubs-6f1e2d3c-0000-4000-8000-000000000000/0123456789abcdef"
    mod = "/shared/modules/.cudaenv-stubs/0123456789abcdef"

    def state(entry):
        return encode(State("cuda-12.4.1", {}, {"LD_LIBRARY_PATH": ("u", ["/c/lib64"], [entry])}))

    job = {"SLURM_JOB_ID": "42"}
    x = _stub_finding(old, dict(job, _CUDAENV_STATE=state(old)), True)
    assert x.status == "fail"
    assert "`cudaenv use cuda-12.4.1` of an older cudaenv" in x.detail and "this is job 42, whose" in x.detail
    assert 'eval "$(cudaenv use <version>)"' in x.fix and "--export=NONE" in x.fix and "stubs: auto do" not in x.fix
    x = _stub_finding(local, {"_CUDAENV_STATE": state(local)}, True)
    assert x.status == "fail" and "profile cuda-12.4.1 asks for (stubs: always" in x.detail
    assert "set `stubs: auto`" in x.fix
    assert _stub_finding(local, {"_CUDAENV_STATE": state(local)}, False).status == "ok"
    lm = {"LOADEDMODULES": "gcc/12:cuda/12.4.1", "_LMFILES_": "/m/gcc/12.lua:/shared/modules/cuda/12.4.1.lua"}
    x = _stub_finding(mod, dict(lm, **job), True)
    assert x.status == "fail" and x.detail.endswith("; this is job 42, whose environment Slurm copies from the "
                                                     "submitting shell (--export=ALL, the default)")
    assert "module cuda/12.4.1 put it there" in x.detail
    assert "`module unload cuda/12.4.1; module load cuda/12.4.1`" in x.fix and "cudaenv modulefiles" in x.fix
    x = _stub_finding("/c/lib64/stubs", {}, True)
    assert x.status == "fail" and "not cudaenv's" in x.detail and "Slurm" not in x.detail
    assert x.fix.startswith("remove /c/lib64/stubs from LD_LIBRARY_PATH") and "LIBRARY_PATH only" in x.fix
    # No driver here (a login node): fine here, but a stub that is not node-local travels.
    for d, env in ((old, {"_CUDAENV_STATE": state(old)}), (mod, lm), ("/c/lib64/stubs", {})):
        x = _stub_finding(d, env, False)
        assert x.status == "info" and "it travels" in x.summary and "error 34" in x.detail
    # An unreadable state is no origin: by hand.
    assert "not cudaenv's" in _stub_finding(old, {"_CUDAENV_STATE": "x;y"}, True).detail


@pytest.mark.parametrize("value,count,bad", [("0,1", 2, False), ("", None, True), ("0,2", 2, True), ("0,0", None, True),
                                             ("GPU-8a3b", None, False), ("abc", None, True), ("-1", None, True)])
def test_visible_devices(value, count, bad):
    assert (visible_devices_problem(value, count) is not None) == bad


def test_ld_cache_cudart_providers(tmp_path):
    lib = tmp_path / "cuda-13.0" / "lib"
    lib.mkdir(parents=True)
    (lib / "libcudart.so.13.0.48").touch()
    (lib / "libcudart.so.13").symlink_to("libcudart.so.13.0.48")
    cache = tmp_path / "ld.so.cache"
    cache.write_bytes(b"glibc-ld.so.cache1.1\0libcudart.so.13\0" + str(lib / "libcudart.so.13").encode()
                      + b"\0libc.so.6\0/lib/libc.so.6\0")
    assert cudart_providers([], str(cache)) == {"libcudart.so.13": [str(lib / "libcudart.so.13.0.48")]}


def test_stale_lock_detection_with_a_live_holder(tmp_path):
    import subprocess
    import sys
    import time

    ext = tmp_path / "torch_extensions" / "py311_cu130" / "myext"
    ext.mkdir(parents=True)
    lock = ext / "lock"
    lock.touch()
    old = time.time() - 3600
    os.utime(lock, (old, old))
    fresh = tmp_path / "torch_extensions" / "py311_cu130" / "other"
    fresh.mkdir()
    (fresh / "lock").touch()
    assert stale_locks([str(tmp_path / "torch_extensions")]) == [str(lock)]
    # A live build holds its lock open (torch's FileBaton): then it is not stale.
    holder = subprocess.Popen([sys.executable, "-c", "import os,sys,time; fd=os.open(sys.argv[1], os.O_RDONLY); "
                               "print('held', flush=True); time.sleep(60)", str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert stale_locks([str(tmp_path / "torch_extensions")]) == []
    finally:
        holder.kill()
        holder.wait()


# --- compatibility facts come from data/compat.yaml only -----------------------------------

def test_doctor_and_explain_name_the_gcc_of_the_compat_table_for_every_libstdcxx_version():
    """One table (data/compat.yaml libstdcxx_gcc): doctor's env.libstdcxx and explain's
    cxx.libstdcxx_too_old name the same gcc for every symbol version in it (they kept two
    copies once, and doctor's stopped at GLIBCXX_3.4.29)."""
    from cudaenv.checks.live import live_rules
    from cudaenv.knowledge.explain import explain
    from cudaenv.toolkit import compat

    rows = compat.table()["libstdcxx_gcc"]
    glibcxx = [v for v in rows if v.startswith("GLIBCXX_")]
    assert len(glibcxx) >= 10 and any(v.startswith("CXXABI_") for v in rows)
    for ver, ent in rows.items():
        assert ent["src"] and compat.libstdcxx_gcc(ver) == ent["gcc"]
        found = explain(f"/lib/x86_64-linux-gnu/libstdc++.so.6: version `{ver}' not found (required by ./prog)")
        assert found and found[0].id == "cxx.libstdcxx_too_old", (ver, found)
        assert f"gcc {ent['gcc']} on" in found[0].title, (ver, found[0].title)
    for ver in glibcxx:
        facts = {"libstdcxx": {"library": "/usr/lib/libstdc++.so.6", "missing": {ver: "torch/lib/libtorch.so"},
                               "provides": ["GLIBCXX_3.4", "GLIBCXX_3.4.18"], "modules": 3, "prefix": "/venv"}}
        (f,) = live_rules(facts)
        assert f.id == "env.libstdcxx" and f.status == "fail"
        assert f"{ver} (gcc {rows[ver]['gcc']} or newer)" in f.summary, f.summary
    # rows as the libstdc++ manual (abi.versioning.history) lists them
    assert [compat.libstdcxx_gcc(v) for v in ("GLIBCXX_3.4.30", "GLIBCXX_3.4.32", "GLIBCXX_3.4.33",
                                               "CXXABI_1.3.13", "CXXABI_1.3.14", "CXXABI_1.3.15")] == \
        ["12", "13.2", "14", "11", "13", "14"]
    assert compat.libstdcxx_gcc("GLIBCXX_3.4.999") is None
    assert compat.libstdcxx_gcc("") is None


def test_ptx_isa_versions_come_from_the_compat_table():
    from cudaenv.toolkit import compat

    assert compat.ptx_isa_cuda("8.4") == {"cuda": "12.4", "ptxas_cuda": "12.4"}
    assert compat.ptx_isa_cuda("8.5") == {"cuda": "12.5", "ptxas_cuda": "12.5 or 12.6"}
    assert compat.ptx_isa_cuda("99.9") is None and compat.ptx_isa_cuda("") is None
    assert all(ent["src"] for ent in compat.table()["ptx_isa_cuda"].values())


# --- advice a finding and an explain answer share is written once -----------------------------

def test_shared_advice_is_written_once_and_reaches_both_doctor_and_explain():
    import copy

    from cudaenv.checks import ADVICE
    from cudaenv.checks.live import live_rules
    from cudaenv.knowledge.explain import explain
    from cudaenv.knowledge.kb import KB_PATH, read_document, validate

    pkg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cudaenv")
    sources = {}
    for dp, _dn, fn in os.walk(pkg):
        for f in fn:
            if f.endswith((".py", ".yaml")):
                with open(os.path.join(dp, f), encoding="utf-8") as fh:
                    sources[os.path.relpath(os.path.join(dp, f), pkg)] = fh.read()
    for name, text in ADVICE.items():
        # the literal text (its first words are enough to catch a copy) lives in checks/__init__.py only
        head = text[:40]
        assert [p for p, s in sources.items() if head in s] == [os.path.join("checks", "__init__.py")], name
    # doctor's findings and explain's answers give it
    shm = live_rules({"nccl": {"vars": {}, "interfaces": None, "shm": {"total": 64 << 20, "free": 60 << 20}}})
    assert [f.fix for f in shm if f.id == "env.nccl"] == [ADVICE["container_shm"]]
    for line, entry in [("include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device",
                         "nccl.shm_exhausted"),
                        ("RuntimeError: NCCL Error 2: unhandled system error", "nccl.system_error")]:
        found = explain(line)
        assert found[0].id == entry and ADVICE["container_shm"] in found[0].fix, found[0].fix
    found = explain("Failed to initialize NVML: Driver/library version mismatch")
    assert ADVICE["driver_reload"] in found[0].fix and "{" not in found[0].fix
    mismatch = live_rules({"driver": {"kernel": "550.1", "libraries": {}, "reasons": ["kernel module 550.1 is loaded"]}})
    assert any(f.fix.startswith(ADVICE["driver_reload"]) for f in mismatch), [f.to_dict() for f in mismatch]
    # an unknown advice name is a knowledge-base error
    doc = copy.deepcopy(read_document(KB_PATH))
    doc["entries"][0]["fix"] += " {advice.no_such_advice}"
    assert any("advice.no_such_advice" in p for p in validate(doc))


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
    stderr_is_cudaenv_lines(res)
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
        kill_marked("sleep 296.5")
    assert "did not finish within 1 s" in archs["slow"] and archs["range"]  # the table's range instead
    found = arch_rules({"tk": tk, "archs": archs, "driver": {"gpus": [{"compute_cap": "8.9"}]}})
    slow = [f for f in found if f.status == "warn"]
    assert slow and os.path.realpath(root) in slow[0].summary
