"""Builds tuned to this machine (issue 11): TORCH_CUDA_ARCH_LIST, CUDAARCHS, MAX_JOBS, NVCC_THREADS.

The GPU side uses the fake nvidia-smi replaying real outputs (tests/fake_nvidia_smi, fixtures from
real machines) and a /proc/driver/nvidia tree made from a real driver's version file: this machine
has no GPU. The toolkits are the real test bed's (their own `nvcc --list-gpu-code`).
"""

from __future__ import annotations

import json
import os
import subprocess


from cudaenv.profiles.build import DEFAULT_SM, arch_list, jobs
from helpers import REPO, clean_shell_env, fake_gpu_env, need, run_cudaenv

FIXTURES = os.path.join(REPO, "tests", "fixtures", "nvidia")


def test_arch_list_rules():
    tk = [50, 52, 60, 61, 70, 75, 80, 86, 87, 89, 90]
    assert arch_list([86], tk, []) == ([86], "the GPUs here")
    assert arch_list([86, 80, 86], tk, []) == ([80, 86], "the GPUs here")
    # A GPU newer than the toolkit can build: left out; newer than torch supports: clamped to torch's newest.
    assert arch_list([120], tk, [])[0] == []
    assert arch_list([100], tk + [100], [75, 80, 90])[0] == [90]
    # No GPU: torch's list when known, else the default list, each within the toolkit.
    assert arch_list(None, tk, [50, 60, 70, 75, 80, 86, 90])[0] == [50, 60, 70, 75, 80, 86, 90]
    assert arch_list(None, tk, [])[0] == [s for s in DEFAULT_SM if s in tk]


def test_jobs_from_cores_and_memory():
    """One compiler thread per core in torch's cpp_extension (MAX_JOBS nvcc, no --threads) and in
    flash-attention (MAX_JOBS x NVCC_THREADS=1), bounded by memory at GIB_PER_THREAD per thread."""
    assert jobs(64, 512) == (64, 1)
    assert jobs(64, 96) == (19, 1)
    assert jobs(2, 23) == (2, 1)      # issue 17: 141 s with 2 against 277 s with the old rule's 1
    assert jobs(128, 16) == (3, 1)    # a job limited to 16 GB on a 128-core node
    assert jobs(1, 2) == (1, 1)       # never below one
    # A profile's own nvcc_threads: its builds pass --threads, jobs x threads fit the cores and memory.
    assert jobs(64, 512, 4) == (16, 4)
    assert jobs(64, 96, 4) == (4, 4)  # flash-attention's "MAX_JOBS=4 below 96 GB"
    assert jobs(2, 23, 4) == (1, 4)


def gpu_env(tmp_path, scenario: str, **extra) -> dict:
    """A shell env whose nvidia-smi is the fake replaying ``scenario``, with a driver /proc tree."""
    return fake_gpu_env(clean_shell_env(tmp_path, **extra), tmp_path, os.path.join(FIXTURES, "smi", scenario))


def use_json(env: dict, target: str = "12.4") -> dict:
    res = run_cudaenv(["use", target, "--shell", "json"], env)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)["set"]


def test_use_without_gpu_exports_the_default_within_the_toolkit(testbed, tmp_path):
    got = use_json(clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"]))
    assert got["TORCH_CUDA_ARCH_LIST"] == "7.5;8.0;8.6;8.9;9.0+PTX"
    assert got["CUDAARCHS"] == "75-real;80-real;86-real;89-real;90"
    assert int(got["MAX_JOBS"]) >= 1 and int(got["NVCC_THREADS"]) >= 1
    got = use_json(clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["11.8"]), "11.8")
    assert got["TORCH_CUDA_ARCH_LIST"].endswith("9.0+PTX") and "10.0" not in got["TORCH_CUDA_ARCH_LIST"]


def test_use_with_gpus_builds_for_them(testbed, tmp_path):
    # The fixture is a real 2-GPU machine's --query-gpu: a TITAN V (7.0) and an RTX 5880 Ada (8.9).
    env = gpu_env(tmp_path, "r570-2gpu", CUDAENV_ROOTS=testbed["12.4"])
    got = use_json(env)
    assert got["TORCH_CUDA_ARCH_LIST"] == "7.0;8.9+PTX" and got["CUDAARCHS"] == "70-real;89"
    # Cached: a second use does not run nvidia-smi again.
    log = tmp_path / "smi.log"
    env["FAKE_NVIDIA_SMI_LOG"] = str(log)
    use_json(env)
    assert not log.exists() or log.read_text() == ""


def test_your_values_win_and_off_restores(testbed, tmp_path):
    need("bash")
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"], MAX_JOBS="3")
    script = """
        eval "$(cudaenv use 12.4)"
        printf '%s|%s|%s\\n' "$MAX_JOBS" "${TORCH_CUDA_ARCH_LIST-unset}" "${NVCC_THREADS-unset}"
        eval "$(cudaenv use 12.4)"
        printf '%s|%s\\n' "$MAX_JOBS" "${TORCH_CUDA_ARCH_LIST-unset}"
        eval "$(cudaenv off)"
        printf '%s|%s|%s\\n' "$MAX_JOBS" "${TORCH_CUDA_ARCH_LIST-unset}" "${NVCC_THREADS-unset}"
    """
    res = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=120)
    first, again, after = res.stdout.splitlines()
    assert first.startswith("3|7.5;") and not first.endswith("|unset")
    assert again.startswith("3|7.5;")
    assert after == "3|unset|unset"


def test_profile_build_settings(testbed, tmp_path):
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"])
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    root = testbed["12.4"]
    (prof / "mine.yaml").write_text(f"name: mine\nroot: {root}\nset: {{CUDA_HOME: '{{root}}'}}\n"
                                    "build: {arch_list: '8.0;9.0', max_jobs: 7, nvcc_threads: none}\n")
    got = use_json(env, "mine")
    assert got["TORCH_CUDA_ARCH_LIST"] == "8.0;9.0" and got["MAX_JOBS"] == "7" and "NVCC_THREADS" not in got
    (prof / "mine.yaml").write_text(f"name: mine\nroot: {root}\nbuild: none\n")
    got = use_json(env, "mine")
    assert not {"TORCH_CUDA_ARCH_LIST", "CUDAARCHS", "MAX_JOBS", "NVCC_THREADS"} & set(got)
    for bad in ("build: {max_jobs: 0}", "build: {arch_list: '$(rm -rf /)'}", "build: {jobs: 3}", "build: 4"):
        (prof / "mine.yaml").write_text(f"name: mine\nroot: {root}\n{bad}\n")
        res = run_cudaenv(["use", "mine"], env)
        assert res.returncode == 2 and res.stdout == "" and "build" in res.stderr, (bad, res.stderr)
