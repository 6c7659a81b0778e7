#!/usr/bin/env python3
"""Whole-process timings of cudaenv's hot commands, paired against baselines.

Usage: python3 bench/bench.py [--runs N] [--venv DIR] [--roots N] [--target X]

It installs this checkout into a fresh virtual environment with a current
pip (a regular install: an editable one adds an import hook that costs what
we are measuring), makes N fake toolkit roots (default 50) plus whatever is
installed, warms cudaenv's cache, then runs each command and its baseline in
turn (A B A B ...) and reports medians and the median of the pairwise ratios.
Run it on an idle machine; quote medians, not single runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_toolkit(root: str, version: str) -> None:
    """A minimal toolkit tree: what discovery reads, nothing that runs."""
    for d in ("bin", "include", "lib64/stubs"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    with open(os.path.join(root, "bin", "nvcc"), "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(os.path.join(root, "bin", "nvcc"), 0o755)
    open(os.path.join(root, "include", "cuda_runtime.h"), "w").close()
    open(os.path.join(root, "lib64", "libcudart.so"), "w").close()
    open(os.path.join(root, "lib64", "stubs", "libcuda.so"), "w").close()
    with open(os.path.join(root, "version.json"), "w") as f:
        json.dump({"cuda": {"name": "CUDA SDK", "version": version}}, f)


def make_roots(base: str, n: int) -> None:
    for i in range(n):
        major, minor = 10 + i % 4, i // 4
        make_toolkit(os.path.join(base, f"cuda-{major}.{minor}"), f"{major}.{minor}.0")


def install_venv(venv: str, src: str = REPO) -> tuple[str, str]:
    """(python, cudaenv) of ``venv`` with ``src`` installed (a regular install; the venv is made if missing)."""
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", src], check=True, stderr=subprocess.DEVNULL)
    return py, os.path.join(venv, "bin", "cudaenv")


def timed(argv: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def paired(a: list[str], b: list[str], env: dict, runs: int) -> dict:
    for _ in range(2):  # warm-up
        timed(a, env)
        timed(b, env)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(timed(a, env))
        tb.append(timed(b, env))
    ratios = [x / y for x, y in zip(ta, tb)]
    return {
        "a_ms": statistics.median(ta) * 1e3,
        "b_ms": statistics.median(tb) * 1e3,
        "ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }


def instructions(argv: list[str], env: dict) -> int:
    """Instructions one run of ``argv`` executes (callgrind; repeatable whatever the machine is doing)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    for line in out.splitlines():
        if "refs:" in line:
            return int(line.split("refs:")[1].replace(",", "").strip())
    raise RuntimeError("callgrind printed no instruction count")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--roots", type=int, default=50, help="fake toolkit roots to add (0: only what is installed)")
    ap.add_argument("--target", help="what to `use` (default: the newest toolkit found)")
    ap.add_argument("--venv", help="reuse this virtual environment (created if missing)")
    ap.add_argument("--pyenv", help="run everything with this Python environment active (a venv with torch and "
                                    "NVIDIA wheels: what use then reads)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions (valgrind's callgrind): the same figure on a busy machine")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="cudaenv-bench-")
    try:
        py, cudaenv = install_venv(args.venv or os.path.join(work, "venv"))
        if args.roots:
            make_roots(os.path.join(work, "roots"), args.roots)
        env = dict(os.environ)
        env.update(XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"))
        if args.roots:
            extra = os.path.join(work, "roots", "cuda-*")
            env["CUDAENV_ROOTS"] = extra + (":" + env["CUDAENV_ROOTS"] if env.get("CUDAENV_ROOTS") else "")
        for k in ("CUDAENV_ACTIVE", "_CUDAENV_STATE"):
            env.pop(k, None)
        if args.pyenv:
            env["VIRTUAL_ENV"] = os.path.abspath(args.pyenv)
            env["PATH"] = os.path.join(env["VIRTUAL_ENV"], "bin") + ":" + env.get("PATH", "")
        found = json.loads(subprocess.run([cudaenv, "list", "--json"], env=env, capture_output=True, text=True).stdout)
        if not found["toolkits"]:
            print("no toolkit found; set CUDAENV_ROOTS or use --roots N", file=sys.stderr)
            return 1
        target = args.target or found["toolkits"][-1]["full_version"]
        print(f"{len(found['toolkits'])} toolkits; `use {target}`", file=sys.stderr)
        out = subprocess.run([cudaenv, "use", target, "--shell", "json"], env=env, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            return 1
        active = dict(env, **json.loads(out.stdout)["set"])
        subprocess.run([cudaenv, "list"], env=env, capture_output=True)  # warm the cache

        bare = [py, "-c", "pass"]
        rows = [
            ("cudaenv use (process) vs python -c pass", paired([cudaenv, "use", target, "--shell", "bash"], bare, env, args.runs)),
            ("cudaenv off (process) vs python -c pass", paired([cudaenv, "off", "--shell", "bash"], bare, active, args.runs)),
            (f"cudaenv list ({len(found['toolkits'])} toolkits) vs python -c pass", paired([cudaenv, "list"], bare, env, args.runs)),
            ("bash: eval \"$(cudaenv use)\" vs bash: export line",
             paired(["bash", "-c", f'eval "$({cudaenv} use {target} --shell bash)"'],
                    ["bash", "-c", "export CUDA_HOME=/usr/local/cuda"], env, args.runs)),
        ]
        # doctor has an absolute budget (<= 0.5 s without torch); pair it with the floor too.
        rows.append(("cudaenv doctor --no-torch (active profile) vs python -c pass",
                     paired([cudaenv, "doctor", "--no-torch"], bare, active, max(5, args.runs // 4))))
        lmod = "/usr/share/lmod/lmod/libexec/lmod"
        if os.path.exists(lmod):
            mp = os.path.join(work, "modules", "cuda")
            os.makedirs(mp)
            with open(os.path.join(mp, "12.4.lua"), "w") as f:
                f.write('setenv("CUDA_HOME", "/usr/local/cuda-12.4")\nprepend_path("PATH", "/usr/local/cuda-12.4/bin")\n')
            lenv = dict(env, MODULEPATH=os.path.dirname(mp))
            rows.append(("cudaenv use vs Lmod `module load cuda/12.4` (bash)",
                         paired([cudaenv, "use", target, "--shell", "bash"], [lmod, "bash", "load", "cuda/12.4"], lenv, args.runs)))
        print(f"{'measurement':58} {'A ms':>7} {'B ms':>7} {'A/B':>6}  (min-max)")
        for name, r in rows:
            print(f"{name:58} {r['a_ms']:7.1f} {r['b_ms']:7.1f} {r['ratio']:6.2f}  ({r['ratio_min']:.2f}-{r['ratio_max']:.2f})")
        if args.instructions and shutil.which("valgrind"):
            base = instructions(bare, env)
            print(f"instructions (callgrind), python -c pass = {base / 1e6:.1f} M:")
            for name, argv, e in (("use", [cudaenv, "use", target, "--shell", "bash"], env),
                                  ("off", [cudaenv, "off", "--shell", "bash"], active),
                                  ("list", [cudaenv, "list"], env)):
                n = instructions(argv, e)
                print(f"  {name:5} {n / 1e6:7.1f} M  {n / base:5.3f}x")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
