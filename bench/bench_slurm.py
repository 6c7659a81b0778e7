#!/usr/bin/env python3
"""What ``cudaenv`` costs in a Slurm job step: ``srun -n1 cudaenv list`` against ``srun -n1 true``.

Usage: python3 bench/bench_slurm.py [--runs N] [--venv DIR] [--cudaenv PATH]

The cluster is the test bed's real one-node Slurm (tests/slurm.sh: slurmctld, munge, and slurmd
in a mount namespace showing the test's stand-in driver); it is started here when it is not
running, and then stopped at the end. cudaenv is this checkout installed into a virtual
environment (a regular install, as bench.py does), or ``--cudaenv``. Toolkits: the test bed's
(CUDAENV_ROOTS), else whatever is found. Each command and its baseline run in turn
(A B A B ...) after a warm-up; medians and the median of the pairwise ratios.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from bench import install_venv, paired  # bench/bench.py, beside this file

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTBED = os.environ.get("CUDAENV_TESTBED") or os.path.expanduser("~/.cache/cudaenv-testbed")
SLURM_SH = os.path.join(REPO, "tests", "slurm.sh")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--venv", help="reuse this virtual environment (created if missing)")
    ap.add_argument("--cudaenv", help="the cudaenv command to run (default: this checkout in a venv)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="cudaenv-bench-slurm-")
    cudaenv = args.cudaenv or install_venv(args.venv or os.path.join(work, "venv"))[1]
    env = dict(os.environ, SLURM_CONF=os.path.join(TESTBED, "slurm", "slurm.conf"),
               XDG_CONFIG_HOME=os.path.join(work, "cfg"), XDG_CACHE_HOME=os.path.join(work, "cache"))
    roots = [os.path.join(TESTBED, f"cuda-{v}") for v in ("11.8", "12.4", "13.5")]
    roots = [r for r in roots if os.path.isdir(r)]
    if roots:
        env["CUDAENV_ROOTS"] = os.pathsep.join(roots)
    for var in ("CUDAENV_ACTIVE", "_CUDAENV_STATE"):
        env.pop(var, None)

    was_up = subprocess.run(["bash", SLURM_SH, "status"], env=env, capture_output=True).returncode == 0
    if not was_up:
        res = subprocess.run(["bash", SLURM_SH, "start"], env=env, capture_output=True, text=True)
        if res.returncode != 0:
            subprocess.run(["bash", SLURM_SH, "stop"], env=env, capture_output=True)
            sys.exit(f"bench_slurm: the Slurm test bed does not start: {res.stderr.strip()}")
    try:
        check = subprocess.run(["srun", "-n1", cudaenv, "list"], env=env, capture_output=True, text=True)
        if check.returncode != 0:
            sys.exit(f"bench_slurm: srun -n1 cudaenv list failed: {check.stderr.strip()}")
        toolkits = len([ln for ln in check.stdout.splitlines() if ln.strip()])
        r = paired(["srun", "-n1", cudaenv, "list"], ["srun", "-n1", "true"], env, args.runs)
    finally:
        if not was_up:
            subprocess.run(["bash", SLURM_SH, "stop"], env=env, capture_output=True)
    print(f"{args.runs} paired runs; `cudaenv list` printed {toolkits} lines in the job")
    print("| measurement | A ms | B ms | A/B | A-B ms |")
    print("| --- | --- | --- | --- | --- |")
    print(f"| `srun -n1 cudaenv list` vs `srun -n1 true` | {r['a_ms']:.1f} | {r['b_ms']:.1f} | "
          f"{r['ratio']:.2f} (min {r['ratio_min']:.2f}, max {r['ratio_max']:.2f}) | {r['a_ms'] - r['b_ms']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
