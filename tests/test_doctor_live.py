"""`cudaenv doctor` sees live what `explain` finds in logs: headers, driver libraries, libstdc++, GPUs.

Real parts: the test bed's toolkits and venvs, NVIDIA's wheel tree in venv-cu, a module compiled
here with g++ and Debian 11's real libstdc++ (tests/libstdcxx.sh). Faked (this machine has no
driver), clearly: /proc/driver/nvidia/version copied from a real machine, the fake nvidia-smi
replaying real outputs, and a file *named* like a driver's libnvidia-ml (libnvidia-ml.so.1 ->
libnvidia-ml.so.535.161.07, the version of the real mismatch output in
tests/fixtures/nvidia/smi/mismatch): doctor reads the file name, never loads it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import TESTBED
from helpers import IN_CI, REPO, fake_gpu_env, make_toolkit, run_cudaenv, setup_missing

GCC10 = os.path.join(TESTBED, "libstdcxx", "gcc10", "lib")


def doctor(env: dict, *args: str) -> tuple[int, dict[str, dict], dict]:
    res = run_cudaenv(["doctor", "--no-torch", "--json", *args], env)
    assert res.stdout, res.stderr
    doc = json.loads(res.stdout)
    return res.returncode, {f["id"]: f for f in doc["shell"]}, doc


@pytest.fixture
def env(testbed, tmp_path):
    e = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES")}
    return dict(e, CUDAENV_ROOTS=":".join(testbed.values()), CUDAENV_PROC_ROOT=str(tmp_path / "noproc"),
                PATH="/usr/bin:/bin", HOME=str(tmp_path))


@pytest.fixture
def gpu_env(env, tmp_path):
    """FAKE driver from real outputs: kernel module 580.159.04 in /proc; nvidia-smi of a 2-GPU machine."""
    return fake_gpu_env(env, tmp_path)


def test_cuda_home_without_headers(env, testbed, tmp_path, venv_cu):
    runtime_only = tmp_path / "cuda-runtime"
    shutil.copytree(os.path.join(testbed["12.4"], "lib64"), runtime_only / "lib64", symlinks=True)
    rc, f, _ = doctor(dict(env, CUDA_HOME=str(runtime_only)))
    h = f["env.cuda_home_headers"]
    assert rc == 1 and h["status"] == "fail"
    assert h["summary"] == f"CUDA_HOME ({runtime_only}) has no include/cuda_runtime.h: nothing CUDA compiles against it"
    # The test bed's 12.4 has the runtime's headers, not cuBLAS/cuSPARSE/cuSOLVER's: torch extensions fail.
    rc, f, _ = doctor(dict(env, CUDA_HOME=testbed["12.4"]))
    assert f["env.cuda_home_headers"]["status"] == "warn"
    assert "lacks cublas_v2.h, cusparse.h, cusolverDn.h" in f["env.cuda_home_headers"]["summary"]
    # NVIDIA's CUDA 13 wheels (venv-cu's nvidia/cu13) carry all of them.
    sp = subprocess.run([venv_cu, "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True,
                        text=True, check=True).stdout.strip()
    rc, f, _ = doctor(dict(env, CUDA_HOME=os.path.join(sp, "nvidia", "cu13")))
    assert f["env.cuda_home_headers"]["status"] == "ok"


def test_driver_library_mismatch(gpu_env, tmp_path):
    libs = tmp_path / "driver-libs"
    libs.mkdir()
    (libs / "libnvidia-ml.so.535.161.07").write_bytes(b"")  # FAKE: only the name is read
    os.symlink("libnvidia-ml.so.535.161.07", libs / "libnvidia-ml.so.1")
    rc, f, _ = doctor(dict(gpu_env, LD_LIBRARY_PATH=str(libs)))
    m = f["driver.library_mismatch"]
    assert rc == 1 and m["status"] == "fail"
    assert m["summary"].startswith("kernel module 580.159.04 but libnvidia-ml.so.1 is 535.161.07 (")
    # The same version as the kernel module: nothing to say but ok.
    os.remove(libs / "libnvidia-ml.so.1")
    (libs / "libnvidia-ml.so.580.159.04").write_bytes(b"")
    os.symlink("libnvidia-ml.so.580.159.04", libs / "libnvidia-ml.so.1")
    rc, f, _ = doctor(dict(gpu_env, LD_LIBRARY_PATH=str(libs)))
    assert f["driver.library_mismatch"]["status"] == "ok"
    # nvidia-smi's own report of the mismatch (a real output) is enough too.
    rc, f, _ = doctor(dict(gpu_env, FAKE_NVIDIA_SMI_SCENARIO="mismatch"))
    assert f["driver.library_mismatch"]["status"] == "fail"
    assert "kernel module 580.159.04 but nvidia-smi's NVML library 535.161" in f["driver.library_mismatch"]["summary"]
    # No driver at all: nothing to compare, no finding.
    rc, f, _ = doctor(dict(gpu_env, CUDAENV_PROC_ROOT=str(tmp_path / "none")))
    assert "driver.library_mismatch" not in f


def _gcc10() -> str:
    if not os.path.exists(os.path.join(GCC10, "libstdc++.so.6")):
        msg = f"{GCC10} missing: run bash tests/libstdcxx.sh"
        setup_missing(msg)
    return GCC10


MODULE = """#include <cstddef>
// libstdc++'s allocators call this for an impossible size; gcc 11 added it (GLIBCXX_3.4.29).
namespace std { [[noreturn]] void __throw_bad_array_new_length(); }
extern "C" int checked(std::size_t n) { if (n > 1000) std::__throw_bad_array_new_length(); return 0; }
"""


@pytest.fixture
def env_with_module(tmp_path):
    """A real venv holding a module compiled here with g++ (needs GLIBCXX_3.4.29)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    sp = subprocess.run([str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
                        capture_output=True, text=True, check=True).stdout.strip()
    pkg = os.path.join(sp, "fastthing")
    os.makedirs(pkg)
    src = tmp_path / "m.cpp"
    src.write_text(MODULE)
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", str(src), "-o", os.path.join(pkg, "_core.so")], check=True,
                   timeout=300)
    return str(venv / "bin" / "python"), os.path.join(pkg, "_core.so")


def test_libstdcxx_too_old_for_the_environment(env, env_with_module):
    old = _gcc10()
    py, module = env_with_module
    rc, f, _ = doctor(dict(env, LD_LIBRARY_PATH=old), "--python", py)
    s = f["env.libstdcxx"]
    assert rc == 1 and s["status"] == "fail"
    assert s["summary"] == (f"{module} needs GLIBCXX_3.4.29 (gcc 11 or newer), but the libstdc++ the loader finds, "
                            f"{old}/libstdc++.so.6, stops at GLIBCXX_3.4.28")
    # The system's libstdc++ (gcc 12) has it.
    rc, f, _ = doctor(env, "--python", py)
    assert f["env.libstdcxx"]["status"] == "ok"
    # And what doctor predicts is what happens: the real load fails, explain names the family and doctor.
    res = subprocess.run([py, "-c", f"import ctypes; ctypes.CDLL({module!r})"], capture_output=True, text=True,
                         env=dict(env, LD_LIBRARY_PATH=old), timeout=120)
    assert res.returncode != 0 and "GLIBCXX_3.4.29' not found" in res.stderr
    out = run_cudaenv(["explain", "--json", "-"], dict(env, LD_LIBRARY_PATH=old), input=res.stderr)
    [m] = json.loads(out.stdout)
    assert m["id"] == "cxx.libstdcxx_too_old" and m["check"] == "env.libstdcxx" and m["checked_by"] == "cudaenv doctor"
    assert m["values"]["version"] == "GLIBCXX_3.4.29" and m["values"]["gcc"] == "11"
    assert m["here"] == [f"the libstdc++ the loader finds here, {old}/libstdc++.so.6, lacks GLIBCXX_3.4.29 too: "
                         "install a newer libstdc++ (or gcc) or rebuild the module with this machine's compiler"]
    # Explained in a shell without the old library: the system's has it, so the loaded one is named as the cause.
    out = run_cudaenv(["explain", "--json", "-"], env, input=res.stderr)
    [m] = json.loads(out.stdout)
    assert m["here"][0].endswith(f"has GLIBCXX_3.4.29: the failing process loaded {old}/libstdc++.so.6, an older "
                                 f"one; take its directory off LD_LIBRARY_PATH (or "
                                 f"`LD_PRELOAD={m['here'][0].split(', ')[1]}`)"), m["here"]


def test_visible_devices_against_the_gpus_here(gpu_env):
    rc, f, _ = doctor(dict(gpu_env, CUDA_VISIBLE_DEVICES="GPU-deadbeef"))
    v = f["env.cuda_visible_devices"]
    assert rc == 1 and v["status"] == "fail" and "GPU-deadbeef is not the UUID of any GPU here" in v["summary"]
    rc, f, _ = doctor(dict(gpu_env, CUDA_VISIBLE_DEVICES="GPU-7518f6b0,0"))  # a unique prefix, as CUDA takes
    assert f["env.cuda_visible_devices"]["status"] == "ok"
    rc, f, _ = doctor(dict(gpu_env, CUDA_VISIBLE_DEVICES="2"))
    assert f["env.cuda_visible_devices"]["status"] == "fail" and "only 2 GPU(s)" in f["env.cuda_visible_devices"]["summary"]


def _in_small_shm(args: list[str], env: dict, input: str | None = None) -> subprocess.CompletedProcess:
    """Run cudaenv with a real 64 MB tmpfs on /dev/shm (Docker's default), in a private mount namespace."""
    unshare = shutil.which("unshare")
    if unshare is None:
        if IN_CI:
            pytest.fail("unshare (util-linux) is needed")
        pytest.skip("unshare missing")
    probe = subprocess.run([unshare, "--user", "--map-root-user", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        if IN_CI:
            pytest.fail(f"user and mount namespaces are needed: {probe.stderr!r}")
        pytest.skip("no user/mount namespaces here")
    e = dict(env, PYTHONPATH=REPO)
    script = 'mount -t tmpfs -o size=64m tmpfs /dev/shm && exec "$@"'
    return subprocess.run([unshare, "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh",
                           sys.executable, "-m", "cudaenv", *args], env=e, input=input, capture_output=True,
                          text=True, timeout=300)


def test_nccl_surroundings(env):
    interfaces = sorted(os.listdir("/sys/class/net"))
    rc, f, _ = doctor(dict(env, NCCL_SOCKET_IFNAME="nosuchif"))
    n = f["env.nccl"]
    assert rc == 1 and n["status"] == "fail"
    assert n["summary"] == f"NCCL_SOCKET_IFNAME=nosuchif selects no interface of this machine ({', '.join(interfaces)})"
    rc, f, _ = doctor(dict(env, NCCL_SOCKET_IFNAME=interfaces[0][:2]))  # a prefix, as NCCL takes it
    assert f["env.nccl"]["status"] in ("ok", "warn") and "selects no interface" not in f["env.nccl"]["summary"]
    rc, f, _ = doctor(dict(env, NCCL_SOCKET_IFNAME="^" + ",".join(interfaces)))  # excludes every one
    assert f["env.nccl"]["status"] == "fail"
    # A container's /dev/shm (a real 64 MB tmpfs): doctor warns, and explain says it beside NCCL's error.
    res = _in_small_shm(["doctor", "--no-torch", "--json"], env)
    n = {x["id"]: x for x in json.loads(res.stdout)["shell"]}["env.nccl"]
    assert n["status"] == "warn" and n["summary"].startswith("/dev/shm is 64 MB (64 MB free): too small"), n
    log = ("misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-WU88OE "
           "(size 9637888), error: No space left on device (28)\n")
    res = _in_small_shm(["explain", "--json", "-"], env, input=log)
    [m] = json.loads(res.stdout)
    assert m["id"] == "nccl.shm_exhausted" and m["values"]["size"] == "9637888"
    assert m["here"] == ["/dev/shm here: 64 MB, 64 MB free (too small for NCCL between several GPUs)"]
    assert m["host"]["nccl"]["shm"]["total"] == 64 << 20


def test_nccl_network_answer_names_the_interfaces_here(env):
    log = "misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort\n"
    out = run_cudaenv(["explain", "--json", "-"], dict(env, NCCL_SOCKET_IFNAME="nosuchif"), input=log)
    [m] = json.loads(out.stdout)
    assert m["id"] == "nccl.network"
    assert m["here"][0].startswith("NCCL_SOCKET_IFNAME here is 'nosuchif': it selects no interface of this machine")


def test_doctor_does_not_say_agree_when_only_path_chooses(two_toolkits):
    base, env = two_toolkits
    env = dict(env, PATH=f"{base}/cuda-12.4.1/bin:" + env["PATH"])
    res = run_cudaenv(["doctor", "--no-torch", "--json"], env)
    doc = json.loads(res.stdout)
    cons = [f for f in doc["shell"] if f["id"] == "env.consistency"]
    assert cons and cons[0]["status"] == "warn" and "only PATH chooses" in cons[0]["summary"], cons


@pytest.mark.slow
def test_a_hanging_nvcc_on_path_is_asked_once(one_toolkit):
    """doctor asks PATH's nvcc its version only when the toolkit's own probe did not already (and timed out)."""
    tmp, env = one_toolkit
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
