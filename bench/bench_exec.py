#!/usr/bin/env python3
"""What ``cudaenv exec`` adds to a command, and to a Jupyter kernel's start.

Usage: python3 bench/bench_exec.py [--runs N] [--venv DIR] [--target X] [--jupyter-python PY]

Like bench.py: this checkout is installed into a virtual environment (a
regular install), the cache is warmed, and each command and its baseline run
in turn (A B A B ...); medians and the median of the pairwise ratios.

Rows: ``cudaenv exec T -- true`` against ``python -c pass`` (the floor every
Python CLI pays), against ``cudaenv use T`` (what exec adds to the plan: the
exec itself and applying it), and against the shell way of doing the same,
``bash -c 'eval "$(cudaenv use T)"; exec true'``.

With ``--jupyter-python`` (a python with ipykernel and jupyter_client, e.g.
the test bed's venv-jupyter from tests/jupyter.sh): the time from
``KernelManager.start_kernel()`` to a kernel that answers, for a plain
ipykernel kernelspec and for the one ``cudaenv kernel install`` writes,
paired. Toolkits: whatever is found here (set CUDAENV_ROOTS for the test bed).
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

from bench import install_venv, paired  # bench/bench.py, beside this file

KERNEL_TIMER = r"""
import sys, time
from jupyter_client.manager import KernelManager
name, runs = sys.argv[1], int(sys.argv[2])
out = []
for _ in range(runs):
    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=300)
    out.append(time.perf_counter() - t0)
    kc.stop_channels()
    km.shutdown_kernel(now=True)
print(" ".join(str(x) for x in out))
"""


def kernel_starts(py: str, name: str, env: dict, runs: int) -> list[float]:
    res = subprocess.run([py, "-c", KERNEL_TIMER, name, str(runs)], env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(res.stderr)
    return [float(x) for x in res.stdout.split()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--target", help="the toolkit to exec under (default: the newest found)")
    ap.add_argument("--venv", help="reuse this virtual environment (created if missing)")
    ap.add_argument("--jupyter-python", help="also time kernel starts with this interpreter")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="cudaenv-bench-exec-")
    try:
        py, cudaenv = install_venv(args.venv or os.path.join(work, "venv"))
        env = dict(os.environ)
        env.update(XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"),
                   JUPYTER_DATA_DIR=os.path.join(work, "jupyter"))
        for k in ("CUDAENV_ACTIVE", "_CUDAENV_STATE"):
            env.pop(k, None)
        found = json.loads(subprocess.run([cudaenv, "list", "--json"], env=env, capture_output=True, text=True).stdout)
        if not found["toolkits"]:
            print("no toolkit found; set CUDAENV_ROOTS", file=sys.stderr)
            return 1
        target = args.target or found["toolkits"][-1]["full_version"]
        print(f"{len(found['toolkits'])} toolkits; exec under {target}", file=sys.stderr)
        subprocess.run([cudaenv, "use", target, "--shell", "bash"], env=env, capture_output=True)  # warm the cache
        true = shutil.which("true") or "/bin/true"
        ex = [cudaenv, "exec", target, "--", true]
        rows = [
            ("cudaenv exec T -- true vs python -c pass", paired(ex, [py, "-c", "pass"], env, args.runs)),
            ("cudaenv exec T -- true vs cudaenv use T", paired(ex, [cudaenv, "use", target, "--shell", "bash"], env,
                                                              args.runs)),
            ("cudaenv exec T -- true vs bash: eval use; exec true",
             paired(ex, ["bash", "-c", f'eval "$({cudaenv} use {target} --shell bash)"; exec {true}'], env, args.runs)),
            ("cudaenv exec T -- true vs true", paired(ex, [true], env, args.runs)),
        ]
        print(f"{'measurement':58} {'A ms':>7} {'B ms':>7} {'A/B':>6}  (min-max)")
        for name, r in rows:
            print(f"{name:58} {r['a_ms']:7.1f} {r['b_ms']:7.1f} {r['ratio']:6.2f}  ({r['ratio_min']:.2f}-{r['ratio_max']:.2f})")
        if args.jupyter_python:
            jp = args.jupyter_python
            subprocess.run([jp, "-m", "ipykernel", "install", "--user", "--name", "plain"], env=env, check=True,
                           capture_output=True)
            subprocess.run([cudaenv, "kernel", "install", target, "--python", jp, "--name", "viacudaenv"], env=env,
                           check=True, capture_output=True)
            n = max(3, args.runs // 6)
            a, b = [], []
            for _ in range(n):  # interleaved, one start each
                a += kernel_starts(jp, "viacudaenv", env, 1)
                b += kernel_starts(jp, "plain", env, 1)
            ratios = [x / y for x, y in zip(a, b)]
            print(f"{'kernel start to ready: cudaenv kernelspec vs plain':58} {statistics.median(a) * 1e3:7.1f} "
                  f"{statistics.median(b) * 1e3:7.1f} {statistics.median(ratios):6.2f}  "
                  f"({min(ratios):.2f}-{max(ratios):.2f})")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
