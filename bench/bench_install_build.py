#!/usr/bin/env python3
"""``cudaenv install --parts build`` for CI: bytes fetched, cold time, cache-hit time, cache size.

Usage: python3 bench/bench_install_build.py [--version 13] [--source pypi] [--runs 3]

1. Bytes, from ``install --plan --json`` (nothing is installed): ``build`` (cuBLAS, cuSPARSE
   and cuSOLVER contribute only their headers, fetched as wheel members by byte range),
   ``build --whole-files`` (what was fetched before), and ``full``; the ratio build/full.
2. Cold install: an empty download cache and toolkit directory each run; wall time of
   ``cudaenv install VERSION --parts build`` (planning, downloads, unpacking, layout, stub,
   profile), and the bytes it received over the network (its closing note).
3. Cache hit: the same install again into a new prefix with ``--offline`` and every proxy
   variable pointing at a closed port, so any attempt to reach the network would fail.
4. The download cache's size on disk after the build install (``du``), and what it holds.

Real network (PyPI). Run on an idle machine; quote medians.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def human(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1000
    return f"{n:.1f} GB"


def env_for(work: str, **extra: str) -> dict:
    env = dict(os.environ, PYTHONPATH=REPO, CUDAENV_INSTALL_CACHE=os.path.join(work, "dl"),
               XDG_CONFIG_HOME=os.path.join(work, "cfg"), XDG_CACHE_HOME=os.path.join(work, "cache"),
               XDG_DATA_HOME=os.path.join(work, "data"))
    env.update(extra)
    return env


CPU: list[float] = []  # CPU seconds (user + system, children included) of the last cudaenv run


def cudaenv(args: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True)
    took = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[:] = [r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime]
    if res.returncode:
        sys.exit(f"cudaenv {' '.join(args)} failed:\n{res.stderr[-2000:]}")
    return took, res


def plan(version: str, parts: str, source: str, work: str, *more: str) -> dict:
    _t, res = cudaenv(["install", version, "--parts", parts, "--source", source, "--plan", "--json", *more],
                      env_for(work))
    return json.loads(res.stdout)


def received(stderr: str) -> str:
    m = re.search(r"files, ([0-9.]+ [kMG]?B) downloaded", stderr)
    return m.group(1) if m else "?"


def du(path: str) -> int:
    return int(subprocess.run(["du", "-sb", path], capture_output=True, text=True).stdout.split()[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", default="13")
    ap.add_argument("--source", default="pypi")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    meta = tempfile.mkdtemp(prefix="cudaenv-bench-plan-")
    try:
        build = plan(args.version, "build", args.source, meta)
        whole = plan(args.version, "build", args.source, meta, "--whole-files")
        full = plan(args.version, "full", args.source, meta)
    finally:
        shutil.rmtree(meta, ignore_errors=True)
    print(f"# CUDA {build['version']} from {args.source}: bytes to fetch")
    print(f"build (members by range)   {human(build['download']):>10}")
    print(f"build --whole-files        {human(whole['download']):>10}")
    print(f"full                       {human(full['download']):>10}")
    print(f"build / full               {build['download'] / full['download']:.1%}")
    ranged = [f for f in build["files"] if f["fetch"] == "members"]
    for f in ranged:
        print(f"  {f['key']}: {len(f['members'])} members, {human(f['download'])} of a {human(f['size'])} wheel")
    print(f"cache key                  {build['cache_key']}")

    cold, hit, got, sizes, cold_cpu, hit_cpu = [], [], [], [], [], []
    for _ in range(args.runs):
        work = tempfile.mkdtemp(prefix="cudaenv-bench-build-")
        try:
            env = env_for(work)
            t, res = cudaenv(["install", args.version, "--parts", "build", "--source", args.source,
                              "--prefix", os.path.join(work, "cold")], env)
            cold.append(t)
            cold_cpu.append(CPU[0])
            got.append(received(res.stderr))
            sizes.append(du(os.path.join(work, "dl")))
            dead = "http://127.0.0.1:9"
            off = env_for(work, https_proxy=dead, http_proxy=dead, all_proxy=dead, HTTPS_PROXY=dead,
                          HTTP_PROXY=dead, ALL_PROXY=dead, PIP_INDEX_URL=dead + "/simple")
            t, _res = cudaenv(["install", args.version, "--parts", "build", "--source", args.source, "--offline",
                               "--prefix", os.path.join(work, "hit")], off)
            hit.append(t)
            hit_cpu.append(CPU[0])
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n# install --parts build, {args.runs} runs (median, then each)")
    print(f"cold (empty cache)         {statistics.median(cold):6.2f} s   {' '.join(f'{t:.2f}' for t in cold)}"
          f"   received: {', '.join(got)}")
    print(f"cache hit (--offline)      {statistics.median(hit):6.2f} s   {' '.join(f'{t:.2f}' for t in hit)}")
    print(f"CPU (user+sys, children)   cold {statistics.median(cold_cpu):.2f} s, hit {statistics.median(hit_cpu):.2f} s"
          f"   load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"download cache on disk     {human(statistics.median(sizes)):>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
