"""cudaenv.host.driver: reading the NVIDIA driver without root or a toolkit.

This machine has no NVIDIA driver, GPU or nvidia-smi. Those three (and only
those) are faked here: a FAKE nvidia-smi (tests/fake_nvidia_smi) replays outputs
recorded on real machines (tests/fixtures/nvidia/, sources in SOURCES.md), fake
/proc trees hold recorded /proc/driver/nvidia/version files, and FAKE
libnvidia-ml/libcuda libraries are compiled from the C below. The toolkit stubs
are the real ones of the test bed.
"""

from __future__ import annotations

import json
import marshal
import os
import shutil
import sys
import time

import pytest

from cudaenv.host import driver as drv
from cudaenv.host.driver import (
    driver_cuda_from_int,
    driver_facts,
    parse_proc_version,
    parse_smi_banner,
    parse_smi_failure,
    parse_smi_query,
)
from cudaenv.infra.run import run
from helpers import IN_CI, REPO

FIXTURES = os.path.join(REPO, "tests", "fixtures", "nvidia")
FAKE_SMI = os.path.join(REPO, "tests", "fake_nvidia_smi")


def fixture_text(*parts: str) -> str:
    with open(os.path.join(FIXTURES, *parts), encoding="utf-8") as f:
        return f.read()


def make_proc(tmp_path, name: str | None):
    """A fake /proc holding the recorded driver/nvidia/version ``name`` (None: no module loaded)."""
    root = tmp_path / "proc"
    (root / "driver" / "nvidia").mkdir(parents=True, exist_ok=True)
    if name is not None:
        (root / "driver" / "nvidia" / "version").write_text(fixture_text("proc", name))
    return str(root)


@pytest.fixture
def smi_env(tmp_path):
    """An env whose PATH has the FAKE nvidia-smi (playing ``scenario``) and no real one."""

    def make(scenario: str, **extra: str) -> dict:
        bindir = tmp_path / "fake-bin"
        bindir.mkdir(exist_ok=True)
        link = bindir / "nvidia-smi"
        if not link.exists():
            link.symlink_to(FAKE_SMI)
        env = {"PATH": f"{bindir}:/usr/bin:/bin", "FAKE_NVIDIA_SMI_SCENARIO": scenario,
               "FAKE_NVIDIA_SMI_LOG": str(tmp_path / "smi.log")}
        env.update(extra)
        return env

    return make


def smi_calls(tmp_path) -> list[str]:
    log = tmp_path / "smi.log"
    return log.read_text().splitlines() if log.exists() else []


def no_real_driver() -> bool:
    return not os.path.exists("/proc/driver/nvidia/version") and shutil.which("nvidia-smi") is None


# ----------------------------------------------------------------------------- pure helpers


@pytest.mark.parametrize("value, expected", [
    (12040, "12.4"), (9020, "9.2"), (12080, "12.8"), (13030, "13.3"), (11080, "11.8"), (13000, "13.0"),
    (10010, "10.1"),
])
def test_driver_cuda_from_int(value, expected):
    assert driver_cuda_from_int(value) == expected


@pytest.mark.parametrize("value", [0, -1])
def test_driver_cuda_from_int_rejects_nonsense(value):
    with pytest.raises(ValueError):
        driver_cuda_from_int(value)


@pytest.mark.parametrize("name, version, flavor", [
    ("proprietary-515.76.version", "515.76", "proprietary"),        # two-part version
    ("proprietary-580.159.04.version", "580.159.04", "proprietary"),
    ("open-555.58.02.version", "555.58.02", "open"),                 # "... Module for x86_64  555.58.02"
])
def test_parse_proc_version_recorded(name, version, flavor):
    parsed = parse_proc_version(fixture_text("proc", name))
    assert parsed["version"] == version
    assert parsed["flavor"] == flavor


def test_parse_proc_version_reads_the_gcc_line():
    assert parse_proc_version(fixture_text("proc", "open-555.58.02.version"))["gcc"].startswith("gcc version 14.2.1")


@pytest.mark.parametrize("text", ["", "garbage\n", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64\n"])
def test_parse_proc_version_without_a_version(text):
    assert parse_proc_version(text)["version"] is None


@pytest.mark.parametrize("path, driver, cuda, smi, fmt", [
    (("banner", "legacy-535.104.05.txt"), "535.104.05", "12.2", "535.104.05", "legacy"),
    (("banner", "kmd-umd-610.57.04.txt"), "610.57.04", "13.3", "610.57.04", "kmd-umd"),
    (("smi", "r610-placeholder-uuids", "banner.out"), "610.43.02", "13.3", "610.43.02", "kmd-umd"),
    (("smi", "r570-1gpu", "banner.out"), "570.195.03", "12.8", "570.195.03", "legacy"),
    # R340 printed no CUDA version at all
    (("banner", "legacy-340.108-no-cuda.txt"), "340.108", None, "340.108", "legacy"),
    # the NVIDIA-SMI token is the tool's version, not the driver's
    (("banner", "legacy-smi-450.66-driver-418.67.txt"), "418.67", "10.1", "450.66", "legacy"),
    (("smi", "r470-old-smi", "banner.out"), "580.95.05", "13.0", "470.256.02", "legacy"),
])
def test_parse_smi_banner_recorded(path, driver, cuda, smi, fmt):
    assert parse_smi_banner(fixture_text(*path)) == {"driver": driver, "cuda": cuda, "smi": smi, "format": fmt}


def test_parse_smi_banner_none_for_other_text():
    assert parse_smi_banner(fixture_text("smi", "no-driver", "all.out")) is None
    assert parse_smi_banner("") is None


def test_parse_smi_query_two_gpus():
    gpus = parse_smi_query(fixture_text("smi", "r570-2gpu", "query.out"))
    assert [(g["index"], g["name"], g["driver_version"], g["compute_cap"]) for g in gpus] == [
        (0, "NVIDIA TITAN V", "570.86.15", "7.0"),
        (1, "NVIDIA RTX 5880 Ada Generation", "570.86.15", "8.9"),
    ]
    assert gpus[1]["uuid"] == "GPU-7518f6b0-991f-ce2b-3d37-c779130d3137"


def test_parse_smi_query_na_compute_cap():
    gpus = parse_smi_query(fixture_text("smi", "edited-cc-na", "query.out"))
    assert [g["compute_cap"] for g in gpus] == [None, "8.9"]


def test_parse_smi_query_odd_lines():
    # Synthetic edge cases, not recorded output: a comma in a name, a blank line,
    # an error line on stdout, a compute capability that is not major.minor.
    text = ("0, Foo, Bar GPU, 1.2.3, 8.6, GPU-a\n\n"
            "Unable to determine the device handle for GPU 0000:02:00.0: Unknown Error\n"
            "1, Baz, 1.2.3, [Not Supported], GPU-b\n2, Qux, 1.2.3, 9, [N/A]\n")
    gpus = parse_smi_query(text)
    assert [(g["index"], g["name"], g["compute_cap"], g["uuid"]) for g in gpus] == [
        (0, "Foo, Bar GPU", "8.6", "GPU-a"), (1, "Baz", None, "GPU-b"), (2, "Qux", None, None)]


def test_parse_smi_query_without_compute_cap_field():
    fields = ("index", "name", "driver_version", "uuid")
    gpus = parse_smi_query(fixture_text("smi", "edited-no-cc-field", "query-nocc.out"), fields)
    assert gpus == [{"index": 0, "name": "NVIDIA GeForce RTX 4090", "driver_version": "570.195.03",
                     "uuid": "GPU-0a2e20c4-ef34-7203-7698-86468a4b7309"}]


def test_parse_smi_failure_messages():
    no_driver = parse_smi_failure(fixture_text("smi", "no-driver", "all.out"), 9)
    assert "cannot talk to the NVIDIA kernel driver" in no_driver and "exit 9" in no_driver
    mismatch = parse_smi_failure(fixture_text("smi", "mismatch", "all.out"), 18)
    assert "Driver/library version mismatch" in mismatch and "535.161" in mismatch and "exit 18" in mismatch
    assert parse_smi_failure("something new\nsecond line", 255) == "nvidia-smi failed (exit 255): something new"


# ----------------------------------------------------------------------------- this machine


def test_this_machine_has_no_driver_and_says_why():
    if not no_real_driver():
        pytest.skip("this machine has an NVIDIA driver")
    facts = driver_facts(dict(os.environ))
    marshal.dumps(facts)
    assert facts["present"] is False
    assert facts["version"] is None and facts["cuda"] is None and facts["gpus"] == []
    assert set(facts["sources"]) == {"proc", "nvidia-smi", "nvml", "libcuda"}
    assert all(src["reason"] for src in facts["sources"].values())
    text = "\n".join(facts["reasons"])
    assert "kernel module is not loaded" in text
    assert "nvidia-smi is not on PATH" in text
    assert "libnvidia-ml.so.1" in text
    if not facts["stub_loaded"]:  # a cudaenv stub dir on the caller's LD_LIBRARY_PATH would load
        assert "libcuda.so.1" in text


def test_this_machine_with_an_empty_env():
    # No PATH, no LD_LIBRARY_PATH: nothing crashes, the library probe still runs.
    facts = driver_facts({}, proc_root="/nonexistent-proc")
    marshal.dumps(facts)
    assert facts["sources"]["nvidia-smi"]["reason"] == "nvidia-smi is not on PATH"
    if no_real_driver():
        assert facts["present"] is False


# ----------------------------------------------------------------------------- fake /proc


@pytest.mark.parametrize("name, version, flavor", [
    ("proprietary-580.159.04.version", "580.159.04", "proprietary"),
    ("open-555.58.02.version", "555.58.02", "open"),
])
def test_kernel_module_alone(tmp_path, name, version, flavor):
    facts = driver_facts({"PATH": str(tmp_path)}, proc_root=make_proc(tmp_path, name))
    marshal.dumps(facts)
    if no_real_driver():
        assert facts["present"] is True
        assert facts["version"] == version
        assert facts["cuda"] is None
    assert facts["sources"]["proc"] == {"path": os.path.join(tmp_path, "proc", "driver", "nvidia", "version"),
                                        "version": version, "flavor": flavor, "reason": None}


def test_unreadable_proc_version(tmp_path):
    root = make_proc(tmp_path, None)
    (tmp_path / "proc" / "driver" / "nvidia" / "version").write_text("NVRM version: something else\n")
    src = driver_facts({"PATH": str(tmp_path)}, proc_root=root)["sources"]["proc"]
    assert src["version"] is None and "no version in" in src["reason"]


# ----------------------------------------------------------------------------- FAKE nvidia-smi


@pytest.mark.parametrize("scenario, version, cuda, gpus", [
    ("r570-1gpu", "570.195.03", "12.8",
     [{"index": 0, "name": "NVIDIA GeForce RTX 4090", "compute_cap": "8.9",
       "uuid": "GPU-0a2e20c4-ef34-7203-7698-86468a4b7309"}]),
    ("r570-2gpu", "570.86.15", "12.8",
     [{"index": 0, "name": "NVIDIA TITAN V", "compute_cap": "7.0", "uuid": "GPU-b5169cef-2205-c30e-f2b3-220cfa14bafd"},
      {"index": 1, "name": "NVIDIA RTX 5880 Ada Generation", "compute_cap": "8.9",
       "uuid": "GPU-7518f6b0-991f-ce2b-3d37-c779130d3137"}]),
    ("r610-placeholder-uuids", "610.43.02", "13.3",
     [{"index": 0, "name": "NVIDIA B200", "compute_cap": "10.0", "uuid": "GPU-00000000-0000-0000-0000-000000000000"},
      {"index": 1, "name": "NVIDIA B200", "compute_cap": "10.0", "uuid": "GPU-00000000-0000-0000-0000-000000000001"}]),
    ("edited-cc-na", "570.86.15", "12.8",
     [{"index": 0, "name": "NVIDIA TITAN V", "compute_cap": None, "uuid": "GPU-b5169cef-2205-c30e-f2b3-220cfa14bafd"},
      {"index": 1, "name": "NVIDIA RTX 5880 Ada Generation", "compute_cap": "8.9",
       "uuid": "GPU-7518f6b0-991f-ce2b-3d37-c779130d3137"}]),
])
def test_fake_nvidia_smi_scenarios(tmp_path, smi_env, scenario, version, cuda, gpus):
    facts = driver_facts(smi_env(scenario), proc_root=make_proc(tmp_path, None))
    marshal.dumps(facts)
    assert facts["present"] is True
    assert facts["version"] == version
    assert facts["cuda"] == cuda
    assert facts["gpus"] == gpus
    smi = facts["sources"]["nvidia-smi"]
    assert smi["path"] == str(tmp_path / "fake-bin" / "nvidia-smi")
    assert smi["reason"] is None and "gpus_reason" not in smi
    assert smi_calls(tmp_path) == ["", "--query-gpu=index,name,driver_version,compute_cap,uuid --format=csv,noheader"]
    if no_real_driver():
        # nvidia-smi answers but no libcuda.so.1 is reachable: worth saying (a container
        # given the "utility" but not the "compute" driver capability looks like this).
        assert len(facts["reasons"]) == 1
        assert facts["reasons"][0].startswith("libcuda.so.1: cannot open shared object file")
        assert "CUDA programs cannot run here" in facts["reasons"][0]


def test_fake_nvidia_smi_given_by_path(tmp_path, smi_env):
    env = smi_env("r570-1gpu")
    env["PATH"] = "/usr/bin:/bin"  # not on PATH: passed explicitly
    facts = driver_facts(env, proc_root=make_proc(tmp_path, None), nvidia_smi=FAKE_SMI)
    assert facts["version"] == "570.195.03" and facts["sources"]["nvidia-smi"]["path"] == FAKE_SMI


def test_old_nvidia_smi_without_compute_cap_is_asked_again(tmp_path, smi_env):
    facts = driver_facts(smi_env("edited-no-cc-field"), proc_root=make_proc(tmp_path, None))
    assert smi_calls(tmp_path) == [
        "",
        "--query-gpu=index,name,driver_version,compute_cap,uuid --format=csv,noheader",
        "--query-gpu=index,name,driver_version,uuid --format=csv,noheader",
    ]
    assert facts["gpus"] == [{"index": 0, "name": "NVIDIA GeForce RTX 4090", "compute_cap": None,
                              "uuid": "GPU-0a2e20c4-ef34-7203-7698-86468a4b7309"}]
    assert facts["sources"]["nvidia-smi"]["compute_cap_field"] is False
    assert facts["version"] == "570.195.03" and facts["cuda"] == "12.8"


def test_bundled_old_nvidia_smi(tmp_path, smi_env):
    # A snap's nvidia-smi 470.256.02 on a 580.95.05 driver (recorded): the banner
    # is trusted for the driver, the tool version is noted, the GPU query fails.
    facts = driver_facts(smi_env("r470-old-smi"), proc_root=make_proc(tmp_path, None))
    assert facts["present"] is True
    assert (facts["version"], facts["cuda"]) == ("580.95.05", "13.0")
    smi = facts["sources"]["nvidia-smi"]
    assert smi["smi_version"] == "470.256.02" and smi["compute_cap_field"] is False
    text = "\n".join(facts["reasons"])
    assert "nvidia-smi 470.256.02 but the driver is 580.95.05" in text
    assert "--query-gpu" in text and facts["gpus"] == []


def test_nvidia_smi_without_a_driver(tmp_path, smi_env):
    facts = driver_facts(smi_env("no-driver"), proc_root=make_proc(tmp_path, None))
    marshal.dumps(facts)
    if no_real_driver():
        assert facts["present"] is False
    smi = facts["sources"]["nvidia-smi"]
    assert smi["version"] is None
    assert "cannot talk to the NVIDIA kernel driver (exit 9)" in smi["reason"]
    assert smi["reason"] in facts["reasons"]
    assert smi_calls(tmp_path) == [""]  # no query after a failed banner


def test_nvidia_smi_failing_while_the_module_is_loaded(tmp_path, smi_env):
    facts = driver_facts(smi_env("no-driver"), proc_root=make_proc(tmp_path, "open-555.58.02.version"))
    assert facts["present"] is True and facts["version"] == "555.58.02"
    assert any("cannot talk to the NVIDIA kernel driver" in r for r in facts["reasons"])


def test_driver_library_mismatch(tmp_path, smi_env):
    # Recorded mismatch output (NVML library 535.161); the kernel module file is
    # another recording (580.159.04): the pairing is the test's, the texts are real.
    facts = driver_facts(smi_env("mismatch"), proc_root=make_proc(tmp_path, "proprietary-580.159.04.version"))
    marshal.dumps(facts)
    assert facts["present"] is True
    assert facts["version"] == "580.159.04"
    smi = facts["sources"]["nvidia-smi"]
    assert smi["library_version"] == "535.161"
    text = "\n".join(facts["reasons"])
    assert "Driver/library version mismatch (userspace NVML library 535.161), exit 18" in text
    assert "kernel module 580.159.04 but nvidia-smi's NVML library 535.161" in text


def test_hanging_nvidia_smi_is_killed(tmp_path, smi_env):
    pidfile = tmp_path / "smi.pids"
    env = smi_env("hang", FAKE_NVIDIA_SMI_PIDFILE=str(pidfile))
    start = time.monotonic()
    facts = driver_facts(env, proc_root=make_proc(tmp_path, None), timeout=1.5)
    elapsed = time.monotonic() - start
    marshal.dumps(facts)
    assert elapsed < 5
    smi = facts["sources"]["nvidia-smi"]
    assert "did not answer within" in smi["reason"] and "killed" in smi["reason"]
    # The library probe had no time left: said so, not hung.
    assert "time budget" in facts["sources"]["libcuda"]["reason"]
    assert smi_calls(tmp_path) == [""]
    # The fake and its child (same process group) are gone.
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 2
    for pid in pids:
        for _ in range(100):
            if not alive(pid):
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"process {pid} of the hung fake nvidia-smi is still alive")


def alive(pid: int) -> bool:
    """Running or stopped; a killed orphan waiting for init to reap it (zombie) is not alive."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def test_fake_nvidia_smi_refuses_unknown_arguments(tmp_path, smi_env):
    res = run([FAKE_SMI, "--bogus"], env=smi_env("r570-1gpu"), timeout=10)
    assert res.returncode == 2 and "Invalid combination of input arguments" in res.stdout


# ----------------------------------------------------------------------------- real toolkit stubs


def stub_dir(tmp_path, stub: str) -> str:
    """A directory with ``libcuda.so.1 -> stub`` (cudaenv's driverless-host layout)."""
    d = tmp_path / "stub-link"
    d.mkdir(exist_ok=True)
    (d / "libcuda.so.1").symlink_to(stub)
    return str(d)


def libcuda_mapped_here() -> bool:
    with open("/proc/self/maps") as f:
        return "libcuda.so" in f.read()


@pytest.mark.testbed
@pytest.mark.parametrize("version", ["13.5", "12.4", "11.8"])
def test_real_stub_is_reported_as_a_stub(tmp_path, testbed, version):
    # 13.5: the test bed's generated stub; 12.4 and 11.8: NVIDIA's own (Debian).
    stub = os.path.join(testbed[version], "lib64", "stubs", "libcuda.so")
    env = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": stub_dir(tmp_path, stub)}
    facts = driver_facts(env, proc_root=make_proc(tmp_path, None))
    marshal.dumps(facts)
    src = facts["sources"]["libcuda"]
    assert facts["stub_loaded"] is True and src["stub"] is True
    assert src["path"] == os.path.realpath(stub)
    assert src["init_result"] == drv.CUDA_ERROR_STUB_LIBRARY
    assert src["cuda"] is None
    if no_real_driver():
        assert facts["present"] is False and facts["version"] is None and facts["cuda"] is None
        assert any("is a stub library" in r and "(34)" in r for r in facts["reasons"])
    assert not libcuda_mapped_here(), "the probe must not load libcuda into the caller"


@pytest.mark.testbed
@pytest.mark.parametrize("version", ["13.5", "12.4"])
def test_real_stub_in_a_subprocess_calling_driver_facts(tmp_path, testbed, version):
    stub = os.path.join(testbed[version], "lib64", "stubs", "libcuda.so")
    code = ("import json, os\nfrom cudaenv.host.driver import driver_facts\n"
            "print(json.dumps(driver_facts(os.environ, proc_root=os.environ['FAKE_PROC'])))\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": REPO, "PYTHONDONTWRITEBYTECODE": "1",
           "LD_LIBRARY_PATH": stub_dir(tmp_path, stub), "FAKE_PROC": make_proc(tmp_path, None)}
    res = run([sys.executable, "-c", code], env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    facts = json.loads(res.stdout)
    assert facts["stub_loaded"] is True
    assert facts["sources"]["libcuda"]["path"] == os.path.realpath(stub)
    if no_real_driver():
        assert facts["present"] is False


@pytest.mark.testbed
def test_stub_on_the_loader_path_of_a_machine_with_a_driver(tmp_path, testbed, smi_env):
    stub = os.path.join(testbed["13.5"], "lib64", "stubs", "libcuda.so")
    env = smi_env("r570-1gpu", LD_LIBRARY_PATH=stub_dir(tmp_path, stub))
    facts = driver_facts(env, proc_root=make_proc(tmp_path, "proprietary-580.159.04.version"))
    assert facts["present"] is True and facts["stub_loaded"] is True
    assert any("take the stub directory off LD_LIBRARY_PATH" in r for r in facts["reasons"])


# ----------------------------------------------------------------------------- FAKE driver libraries

# FAKE libnvidia-ml.so.1 and libcuda.so.1 answering with values recorded on a real
# RTX 4090 machine (driver 570.195.03, cuDriverGetVersion 12080 as torch printed
# it, UUID from `nvidia-smi -L`; see SOURCES.md, scenario r570-1gpu). They exist to
# run the ctypes code against something that behaves like the driver.
FAKE_NVML_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef void *nvmlDevice_t;
static int dev0;
static int rc(const char *name) { const char *v = getenv(name); return v ? atoi(v) : 0; }
int nvmlInit_v2(void) { return rc("FAKE_NVML_INIT_RESULT"); }
int nvmlShutdown(void) { return 0; }
int nvmlSystemGetDriverVersion(char *buf, unsigned n) { snprintf(buf, n, "570.195.03"); return 0; }
int nvmlSystemGetNVMLVersion(char *buf, unsigned n) { snprintf(buf, n, "12.570.195.03"); return 0; }
int nvmlSystemGetCudaDriverVersion_v2(int *v) { *v = 12080; return 0; }
int nvmlDeviceGetCount_v2(unsigned *n) { *n = 1; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d) { if (i) return 2; *d = &dev0; return 0; }
int nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned n) { snprintf(buf, n, "NVIDIA GeForce RTX 4090"); return 0; }
int nvmlDeviceGetUUID(nvmlDevice_t d, char *buf, unsigned n) {
    snprintf(buf, n, "GPU-0a2e20c4-ef34-7203-7698-86468a4b7309"); return 0; }
int nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *ma, int *mi) { *ma = 8; *mi = 9; return 0; }
"""

FAKE_CUDA_C = r"""
#include <stdlib.h>
static int rc(const char *name) { const char *v = getenv(name); return v ? atoi(v) : 0; }
int cuDriverGetVersion(int *v) { *v = 12080; return 0; }
int cuInit(unsigned flags) { return rc("FAKE_CUINIT_RESULT"); }
"""


@pytest.fixture
def fake_driver_libs(tmp_path):
    """A directory with FAKE libnvidia-ml.so.1 and libcuda.so.1 (-> libcuda.so.570.195.03)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        if IN_CI:
            pytest.fail("gcc is needed to build the fake driver libraries")
        pytest.skip("no gcc")
    d = tmp_path / "fake-driver-libs"
    d.mkdir()
    for soname, filename, source in (("libnvidia-ml.so.1", "libnvidia-ml.so.1", FAKE_NVML_C),
                                     ("libcuda.so.1", "libcuda.so.570.195.03", FAKE_CUDA_C)):
        src = tmp_path / (filename + ".c")
        src.write_text(source)
        res = run([gcc, "-shared", "-fPIC", f"-Wl,-soname,{soname}", "-o", str(d / filename), str(src)],
                  env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, timeout=120)
        assert res.returncode == 0, res.stderr
    (d / "libcuda.so.1").symlink_to("libcuda.so.570.195.03")
    return str(d)


def test_fake_driver_libraries_through_ctypes(tmp_path, fake_driver_libs):
    env = {"PATH": str(tmp_path), "LD_LIBRARY_PATH": fake_driver_libs}  # no nvidia-smi
    facts = driver_facts(env, proc_root=make_proc(tmp_path, None))
    marshal.dumps(facts)
    assert facts["present"] is True and facts["stub_loaded"] is False
    assert (facts["version"], facts["cuda"]) == ("570.195.03", "12.8")
    assert facts["gpus"] == [{"index": 0, "name": "NVIDIA GeForce RTX 4090", "compute_cap": "8.9",
                              "uuid": "GPU-0a2e20c4-ef34-7203-7698-86468a4b7309"}]
    nvml, cuda = facts["sources"]["nvml"], facts["sources"]["libcuda"]
    assert nvml["path"] == os.path.join(fake_driver_libs, "libnvidia-ml.so.1")
    assert nvml["nvml_version"] == "12.570.195.03" and nvml["reason"] is None
    assert cuda["path"] == os.path.join(fake_driver_libs, "libcuda.so.570.195.03")
    assert (cuda["file_version"], cuda["cuda"], cuda["init_result"], cuda["reason"]) == ("570.195.03", "12.8", 0, None)
    assert facts["reasons"] == []
    assert not libcuda_mapped_here()


def test_kernel_module_and_userspace_disagree(tmp_path, fake_driver_libs):
    env = {"PATH": str(tmp_path), "LD_LIBRARY_PATH": fake_driver_libs}
    facts = driver_facts(env, proc_root=make_proc(tmp_path, "proprietary-580.159.04.version"))
    assert facts["present"] is True
    assert facts["version"] == "570.195.03"  # userspace first
    assert any("kernel module 580.159.04 but libcuda.so.1 570.195.03" in r for r in facts["reasons"])


def test_cuinit_failing_on_a_real_driver(tmp_path, fake_driver_libs):
    env = {"PATH": str(tmp_path), "LD_LIBRARY_PATH": fake_driver_libs, "FAKE_CUINIT_RESULT": "100"}
    facts = driver_facts(env, proc_root=make_proc(tmp_path, None))
    assert facts["present"] is True and facts["cuda"] == "12.8"
    assert facts["sources"]["libcuda"]["reason"] == "cuInit failed: CUDA_ERROR_NO_DEVICE (100)"
    assert "cuInit failed: CUDA_ERROR_NO_DEVICE (100)" in facts["reasons"]


def test_nvml_init_failing(tmp_path, fake_driver_libs):
    env = {"PATH": str(tmp_path), "LD_LIBRARY_PATH": fake_driver_libs, "FAKE_NVML_INIT_RESULT": "18"}
    facts = driver_facts(env, proc_root=make_proc(tmp_path, None))
    assert facts["sources"]["nvml"]["reason"] == "nvmlInit failed: NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)"
    assert facts["present"] is True and facts["version"] == "570.195.03"  # from libcuda's file name
    assert facts["gpus"] == []


def test_nvidia_smi_and_libraries_together(tmp_path, smi_env, fake_driver_libs):
    facts = driver_facts(smi_env("r570-1gpu", LD_LIBRARY_PATH=fake_driver_libs), proc_root=make_proc(tmp_path, None))
    assert facts["version"] == "570.195.03" and facts["cuda"] == "12.8"
    assert facts["reasons"] == []
    assert facts["gpus"][0]["compute_cap"] == "8.9"


def test_sources_disagreeing_on_cuda(tmp_path, smi_env, fake_driver_libs):
    # nvidia-smi recorded on a 570.86.15 machine, libraries faking 570.195.03: both say
    # CUDA 12.8, but the driver versions differ.
    facts = driver_facts(smi_env("r570-2gpu", LD_LIBRARY_PATH=fake_driver_libs), proc_root=make_proc(tmp_path, None))
    assert facts["version"] == "570.86.15"
    assert any("NVML reports driver 570.195.03, other sources 570.86.15" in r for r in facts["reasons"])
