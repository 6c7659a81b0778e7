"""check and doctor end to end, on the real toolkits, with the driver faked from real outputs.

This machine has no NVIDIA driver: a fake /proc root (CUDAENV_PROC_ROOT) holding a
real /proc/driver/nvidia/version and the fake nvidia-smi replaying a real 2-GPU
machine (TITAN V sm_70, RTX 5880 Ada sm_89, driver 570.86.15, CUDA 12.8) stand in.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from helpers import fake_gpu_env, make_toolkit, run_cudaenv, write_wrapper


@pytest.fixture
def env(tmp_path, testbed):
    return dict(os.environ, CUDAENV_ROOTS=":".join(testbed.values()))


@pytest.fixture
def gpu_env(env, tmp_path):
    return fake_gpu_env(env, tmp_path)


def check(args, env):
    res = run_cudaenv(["check", "--json", "--no-torch", *args], env)
    doc = json.loads(res.stdout)
    found = {r["version"]: {(f["id"], f["status"]) for f in r["findings"]} for r in doc["results"]}
    return res.returncode, doc, found


def test_check_all_without_a_driver(env):
    rc, doc, found = check(["--all"], env)
    assert rc == 0 and doc["ok"] is True
    assert ("driver.present", "skip") in found["12.4.1"]
    assert ("compiler.host", "ok") in found["11.8.0"]  # thanks to g++-11 selection
    assert ("toolkit.stubs", "warn") in found["13.0.88"]  # wheel-built: no stub


def test_check_with_a_driver_and_two_gpus(gpu_env):
    rc, doc, found = check(["12.4", "13.5"], gpu_env)
    assert rc == 1 and doc["ok"] is False
    assert ("driver.present", "ok") in found["12.4.1"]
    assert ("driver.version", "ok") in found["12.4.1"]
    assert ("gpu.arch", "ok") in found["12.4.1"]
    assert ("driver.version", "fail") in found["13.5.0"]  # CUDA 12.8 driver, 13.5 toolkit
    assert ("gpu.arch", "fail") in found["13.5.0"]  # TITAN V (sm_70) dropped in 13.0
    human = run_cudaenv(["check", "13.5", "--no-torch"], gpu_env)
    assert human.returncode == 1
    assert "FAIL  driver.version" in human.stdout and "fix:" in human.stdout


def test_check_without_a_compiler_the_toolkit_accepts(env, tmp_path):
    only = tmp_path / "only"
    only.mkdir()
    os.symlink("/usr/bin/g++-12", only / "g++")
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    e = dict(env, PATH=f"{bindir}:{only}")
    rc, doc, found = check(["11.8"], e)
    assert rc == 1 and ("compiler.host", "fail") in found["11.8.0"]
    fix = [f for f in doc["results"][0]["findings"] if f["id"] == "compiler.host"][0]["fix"]
    assert "apt-get install g++-11" in fix


@pytest.mark.slow
def test_torch_findings_with_real_torch(env, venv_cu, venv_cpu):
    res = run_cudaenv(["check", "--json", "--python", venv_cu, "12.4", "13.5", "/usr/local/cuda-13.0"], env)
    doc = json.loads(res.stdout)
    found = {r["version"]: {(f["id"], f["status"]) for f in r["findings"]} for r in doc["results"]}
    assert ("torch.cuda_version", "fail") in found["12.4.1"]
    assert ("torch.cuda_version", "warn") in found["13.5.0"]
    assert ("torch.cuda_version", "ok") in found["13.0.88"]
    res = run_cudaenv(["check", "--json", "--python", venv_cpu, "13.0"], env)
    found = {(f["id"], f["status"]) for f in json.loads(res.stdout)["results"][0]["findings"]}
    assert ("torch.cuda_build", "info") in found


def bash(script, env, cwd):
    return subprocess.run(["bash", "--norc", "-c", script], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def shell_env(env, tmp_path):
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    return dict(env, PATH=f"{bindir}:/usr/bin:/bin", HOME=str(tmp_path)), tmp_path


def doctor_json(script, env, cwd):
    res = bash(script + "\ncudaenv doctor --no-torch --json", env, cwd)
    doc = json.loads(res.stdout)
    return res.returncode, {(f["id"], f["status"]) for f in doc["shell"]}, doc


def test_doctor_after_use_is_clean(shell_env):
    env, cwd = shell_env
    rc, found, doc = doctor_json('eval "$(cudaenv use 12.4)"', env, cwd)
    assert rc == 0, doc
    assert ("env.consistency", "ok") in found and ("env.cuda_home", "ok") in found
    # stubs: auto is link time only: no stub on the loader path even here, where no driver is.
    assert not [f for f in doc["shell"] if f["id"] == "env.stubs_on_loader_path"], doc["shell"]
    assert doc["profile"] == "cuda-12.4.1" and doc["checks"]


def test_doctor_after_use_with_a_runtime_stub(shell_env):
    """stubs: always on this driverless host: the node-local stub is fine here (it names nothing elsewhere)."""
    env, cwd = shell_env
    env = dict(env, XDG_RUNTIME_DIR=str(cwd / "xdg-run"))
    pdir = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    os.makedirs(pdir, exist_ok=True)
    with open(os.path.join(pdir, "rt.yaml"), "w") as f:
        f.write(f"name: rt\nroot: {env['CUDAENV_ROOTS'].split(':')[0]}\nstubs: always\n")
    rc, found, doc = doctor_json('eval "$(cudaenv use rt)"', env, cwd)
    assert ("env.stubs_on_loader_path", "ok") in found, doc["shell"]


def test_doctor_catches_the_classic_mismatch(shell_env, testbed):
    env, cwd = shell_env
    rc, found, doc = doctor_json(f'eval "$(cudaenv use 12.4)"; export CUDA_HOME={testbed["11.8"]}', env, cwd)
    assert rc == 1 and ("env.consistency", "fail") in found
    rc, found, _ = doctor_json('export CUDA_HOME=""', env, cwd)
    assert ("env.cuda_home", "fail") in found
    rc, found, _ = doctor_json('export LD_LIBRARY_PATH=":/opt/x"', env, cwd)
    assert ("env.empty_entries", "warn") in found


def test_doctor_stub_on_loader_path_with_a_driver(shell_env, gpu_env):
    env, cwd = shell_env
    e = dict(env, CUDAENV_PROC_ROOT=gpu_env["CUDAENV_PROC_ROOT"], FAKE_NVIDIA_SMI_SCENARIO="r570-2gpu",
             PATH=gpu_env["PATH"].split(":")[0] + ":" + env["PATH"])
    # With a driver, `use` keeps the stub off the loader path ...
    res = bash('eval "$(cudaenv use 12.4)"; echo "LD=$LD_LIBRARY_PATH"', e, cwd)
    assert "stubs" not in res.stdout.split("LD=")[1]
    # ... and doctor flags one put there by hand.
    rc, found, _ = doctor_json(f'eval "$(cudaenv use 12.4)"; export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$CUDA_HOME/lib64/stubs"', e, cwd)
    assert rc == 1 and ("env.stubs_on_loader_path", "fail") in found
    rc, found, _ = doctor_json("export CUDA_VISIBLE_DEVICES=0,5", e, cwd)
    assert ("env.cuda_visible_devices", "fail") in found


def test_doctor_stale_lock_and_its_fix(shell_env):
    env, cwd = shell_env
    lock = cwd / "ext" / "py311_cu130" / "myext" / "lock"
    lock.parent.mkdir(parents=True)
    lock.touch()
    os.utime(lock, (1_000_000_000, 1_000_000_000))
    e = dict(env, TORCH_EXTENSIONS_DIR=str(cwd / "ext"))
    res = bash("cudaenv doctor --no-torch --json", e, cwd)
    f = [x for x in json.loads(res.stdout)["shell"] if x["id"] == "torch.extension_lock"][0]
    assert f["status"] == "warn" and f["fix"] == f"rm '{lock}'"
    bash(f["fix"], e, cwd)
    assert not lock.exists()


@pytest.mark.parametrize("how", ["path", "profile"])
def test_check_and_doctor_print_terminal_escapes_in_a_path_escaped(one_toolkit, how):
    tmp, env = one_toolkit
    root = make_toolkit(str(tmp / "odd" / "cuda-\x1b[31mred"), "12.6.0")
    target = root
    if how == "profile":
        prof = tmp / "config" / "cudaenv" / "profiles"
        prof.mkdir(parents=True)
        (prof / "odd.yaml").write_text(f"name: odd\nroot: {root!r}\n".replace("'", '"'), encoding="utf-8")
        target = "odd"
    res = run_cudaenv(["check", target, "--no-torch"], env)
    assert res.returncode in (0, 1) and "\x1b" not in res.stdout + res.stderr, res.stdout
    assert "cuda-\\x1b[31mred" in res.stdout
    res = run_cudaenv(["doctor", "--no-torch"], dict(env, CUDA_HOME=root, PATH=f"{root}/bin:/usr/bin:/bin"))
    assert "\x1b" not in res.stdout + res.stderr, res.stdout
