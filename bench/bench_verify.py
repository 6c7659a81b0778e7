#!/usr/bin/env python3
"""Whole-process timings of ``cudaenv verify``, paired against baselines.

Usage: python3 bench/bench_verify.py [--runs N] [--cold-runs N] [--venv DIR] [--target X] [--python PY]

Like bench.py it installs this checkout into a virtual environment (a regular
install), with its own config and cache directories, then measures, A B A B:

1. a cache hit, ``cudaenv verify X --no-torch`` (and with ``--python PY``, the
   same with that interpreter's torch) against ``python -c pass``;
2. a cold verify, ``cudaenv verify X --no-torch --no-cache``, against the same
   three commands typed by hand (nvcc -cudart shared, nvcc -cudart static,
   g++ ... -lcuda) in the profile's environment;
3. ``verify --all --no-torch --no-cache`` (every toolkit found, in parallel)
   against ``--jobs 1`` (one after another).

Toolkits come from discovery plus CUDAENV_ROOTS (the test bed:
CUDAENV_ROOTS=~/.cache/cudaenv-testbed/cuda-11.8:...). Run it on an idle
machine; quote medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, REPO)

from bench import paired  # noqa: E402

from cudaenv.verify import programs  # noqa: E402


def install(venv: str) -> str:
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", REPO], check=True, stderr=subprocess.DEVNULL)
    return py


def run_json(argv: list[str], env: dict) -> dict:
    res = subprocess.run(argv, env=env, capture_output=True, text=True)
    if res.returncode not in (0, 1):
        sys.exit(f"{' '.join(argv)} failed:\n{res.stderr}")
    return json.loads(res.stdout)


def row(name: str, r: dict) -> str:
    return f"{name:62} {r['a_ms']:9.1f} {r['b_ms']:9.1f} {r['ratio']:6.2f}  ({r['ratio_min']:.2f}-{r['ratio_max']:.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30, help="pairs for the cache-hit timings")
    ap.add_argument("--cold-runs", type=int, default=5, help="pairs for the cold and --all timings")
    ap.add_argument("--venv", help="reuse this virtual environment (created if missing)")
    ap.add_argument("--target", default="13.5", help="toolkit for the single-target timings (default 13.5)")
    ap.add_argument("--python", help="also time a cache hit with this interpreter's torch (one cold build first)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="cudaenv-bench-verify-")
    try:
        venv = args.venv or os.path.join(work, "venv")
        py = install(venv)
        cudaenv = os.path.join(venv, "bin", "cudaenv")
        env = dict(os.environ)
        env.update(XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"),
                   TMPDIR=os.path.join(work, "tmp"))
        os.makedirs(env["TMPDIR"])
        for k in ("CUDAENV_ACTIVE", "_CUDAENV_STATE", "CUDA_HOME", "CUDA_PATH", "LIBRARY_PATH",
                  "NVCC_PREPEND_FLAGS", "CC", "CXX"):
            env.pop(k, None)
        found = run_json([cudaenv, "list", "--json"], env)["toolkits"]
        print(f"{len(found)} toolkits: {', '.join(t['full_version'] for t in found)}", file=sys.stderr)
        t = args.target
        rows = []

        # 1. cache hits
        doc = run_json([cudaenv, "verify", t, "--no-torch", "--json"], env)
        assert doc["ok"], doc
        bare = [py, "-c", "pass"]
        rows.append(row(f"verify {t} --no-torch, cache hit vs python -c pass",
                        paired([cudaenv, "verify", t, "--no-torch"], bare, env, args.runs)))
        if args.python:
            print(f"cold torch verify with {args.python} (minutes)...", file=sys.stderr)
            doc = run_json([cudaenv, "verify", t, "--python", args.python, "--json"], env)
            assert doc["ok"], json.dumps(doc, indent=1)
            rows.append(row(f"verify {t} --python PY (torch), cache hit vs python -c pass",
                            paired([cudaenv, "verify", t, "--python", args.python], bare, env, args.runs)))

        # 2. cold, against the same commands by hand in the profile's environment
        use = run_json([cudaenv, "use", t, "--shell", "json"], env)
        penv = dict(env, **use["set"])
        for k in use["unset"]:
            penv.pop(k, None)
        rec = run_json([cudaenv, "verify", t, "--no-torch", "--json"], env)["results"][0]
        steps = {s["id"]: s for s in rec["steps"]}
        arch = rec["arch"]
        hand = os.path.join(work, "hand")
        os.makedirs(hand)
        with open(os.path.join(hand, "rt.cu"), "w") as f:
            f.write(programs.RUNTIME_CU)
        with open(os.path.join(hand, "drv.cpp"), "w") as f:
            f.write(programs.DRIVER_CPP)
        inc = os.path.join(penv["CUDA_HOME"], "include")
        cxx = steps["link-lcuda"]["command"].split()[0]
        script = (f"cd {hand} && nvcc -cudart shared -arch={arch} -o a rt.cu && "
                  f"nvcc -cudart static -arch={arch} -o b rt.cu && {cxx} -I {inc} drv.cpp -lcuda -o d")
        rows.append(row(f"verify {t} --no-torch --no-cache vs the 3 commands by hand",
                        paired([cudaenv, "verify", t, "--no-torch", "--no-cache"], ["sh", "-c", script], penv,
                               args.cold_runs)))

        # 3. --all in parallel vs one after another
        if len(found) > 1:
            rows.append(row(f"verify --all ({len(found)} toolkits) --no-torch --no-cache vs --jobs 1",
                            paired([cudaenv, "verify", "--all", "--no-torch", "--no-cache"],
                                   [cudaenv, "verify", "--all", "--no-torch", "--no-cache", "--jobs", "1"], env,
                                   args.cold_runs)))
        print(f"{os.cpu_count()} cores; medians of paired runs")
        print(f"{'measurement (A vs B)':62} {'A ms':>9} {'B ms':>9} {'A/B':>6}  (min-max)")
        for r in rows:
            print(r)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
