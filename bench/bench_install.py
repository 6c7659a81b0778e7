#!/usr/bin/env python3
"""``cudaenv install`` figures: bytes per part, and install time against doing it by hand.

Usage: python3 bench/bench_install.py [--version 13.5] [--parts build] [--runs N] [--source pypi]

1. Bytes: the archive sizes the source publishes for ``--parts build``,
   the build core alone (without the cuBLAS/cuSPARSE/cuSOLVER headers),
   ``runtime`` and ``full`` (nothing is downloaded for this).
2. Time, A B A B with a cold download cache each run (every byte is fetched):
   ``cudaenv install VERSION --parts PARTS --prefix TMP`` (downloads in
   parallel, sha256 checks, unpacking as files arrive, layout, stub,
   version.json, profile) against the same files fetched one after another
   with ``curl`` and unpacked with ``unzip``/``tar`` (headers-only parts: only
   their ``include/``), i.e. what a person would type. The goal is <= 1.2x.

Run on an idle machine; quote medians.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from cudaenv.install.core import resolve  # noqa: E402
from cudaenv.install.parts import BUILD  # noqa: E402
from cudaenv.install.progress import human  # noqa: E402


def plan_for(version: str, parts: str, source: str, cache: str) -> dict:
    return resolve(version, [source], parts, os.environ, cache, lambda _m: None)


def by_hand(plan: dict, work: str) -> float:
    t0 = time.monotonic()
    dl = os.path.join(work, "dl")
    root = os.path.join(work, "root")
    os.makedirs(dl)
    os.makedirs(root)
    for c in plan["components"]:
        path = os.path.join(dl, c["filename"])
        subprocess.run(["curl", "-sSfL", "-o", path, c["url"]], check=True)
        if c["kind"] == "wheel":
            pattern = ["nvidia/*/include/*"] if c["how"] == "include" else []
            subprocess.run(["unzip", "-qo", path, *pattern, "-d", root], check=True)
        else:
            subprocess.run(["tar", "-xf", path, "-C", root, "--strip-components=1"], check=True)
    return time.monotonic() - t0


def with_cudaenv(version: str, parts: str, source: str, work: str) -> float:
    env = dict(os.environ, PYTHONPATH=REPO, CUDAENV_INSTALL_CACHE=os.path.join(work, "dl"),
               XDG_CONFIG_HOME=os.path.join(work, "cfg"), XDG_CACHE_HOME=os.path.join(work, "cache"),
               XDG_DATA_HOME=os.path.join(work, "data"))
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "cudaenv", "install", version, "--parts", parts, "--source", source,
                    "--prefix", os.path.join(work, "cuda")], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", default="13.5")
    ap.add_argument("--parts", default="build")
    ap.add_argument("--source", default="pypi")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    meta_cache = tempfile.mkdtemp(prefix="cudaenv-bench-meta-")
    try:
        print(f"# bytes to download, CUDA {args.version} from {args.source}")
        sizes = {}
        for parts in ("build", ",".join(BUILD), "runtime", "full"):
            try:
                plan = plan_for(args.version, parts, args.source, meta_cache)
            except Exception as exc:  # noqa: BLE001 - a figure the source cannot give is reported, not fatal
                print(f"  {parts:40} -  ({exc})")
                continue
            sizes[parts] = sum(c["size"] or 0 for c in plan["components"])
            print(f"  {('build core (' + parts + ')') if parts.startswith('nvcc') else parts:40} "
                  f"{human(sizes[parts]):>10}  {len(plan['components'])} files")
        if "build" in sizes and "full" in sizes:
            print(f"  build / full = {sizes['build'] / sizes['full']:.2f}")
        plan = plan_for(args.version, args.parts, args.source, meta_cache)
        print(f"\n# wall time, --parts {args.parts}: cudaenv install vs curl + unzip by hand "
              f"({human(sum(c['size'] or 0 for c in plan['components']))}), cold cache, {args.runs} runs A B A B")
        ours, hand = [], []
        for i in range(args.runs):
            for label, fn, out in (("cudaenv", lambda w: with_cudaenv(args.version, args.parts, args.source, w), ours),
                                   ("by hand", lambda w: by_hand(plan, w), hand)):
                work = tempfile.mkdtemp(prefix="cudaenv-bench-")
                try:
                    out.append(fn(work))
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                print(f"  run {i + 1} {label:8} {out[-1]:6.2f} s", flush=True)
        mo, mh = statistics.median(ours), statistics.median(hand)
        print(f"\nmedian: cudaenv install {mo:.2f} s, by hand {mh:.2f} s, ratio {mo / mh:.2f}x (goal <= 1.2x)")
    finally:
        shutil.rmtree(meta_cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
