#!/usr/bin/env python3
"""The first ``use`` in a Python environment holding a few hundred large wheel ``RECORD`` files.

Usage: python3 bench/bench_records.py [--dists 300] [--record-kib 4096] [--runs 5] [--rev REV]

``use`` asks the active environment which NVIDIA libraries its wheels ship (``host/pyenv.py``
``wheel_inventory``, for ``loader_path: auto``), cached by the site-packages directory's mtime:
the first ``use`` in an environment pays for it. This makes a virtual environment whose
site-packages holds ``--dists`` ``nvidia_*`` distributions, each with a ``RECORD`` of
``--record-kib`` KiB (header lines, as a big wheel's are, and one library each, which exists), plus
three of NVIDIA's real size, and times a cold-cache ``use`` (a new ``XDG_CACHE_HOME`` every run)
with it active: wall time (median of ``--runs``) and the bytes the process read (``rchar`` of
``/proc/self/io``, which counts every ``read``, cached or not). ``--rev`` measures a git revision
too (``git archive`` of it, run from its tree).
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
#: Runs cudaenv from the tree in argv[1] with argv[2:] and reports the bytes it read on stderr.
WRAPPER = """\
import atexit, sys
def _report():
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                sys.stderr.write("RCHAR " + line.split()[1] + "\\n")
atexit.register(_report)
sys.path.insert(0, sys.argv[1])
sys.argv = ["cudaenv"] + sys.argv[2:]
from cudaenv.main import main
main()
"""


def make_env(base: str, dists: int, record_kib: int) -> tuple[str, str]:
    """(venv, toolkit root): the environment described in the module doc and a small fake toolkit."""
    venv = os.path.join(base, "venv")
    ver = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site = os.path.join(venv, "lib", ver, "site-packages")
    os.makedirs(os.path.join(venv, "bin"))
    os.symlink(sys.executable, os.path.join(venv, "bin", "python3"))
    with open(os.path.join(venv, "pyvenv.cfg"), "w") as f:
        f.write(f"home = {os.path.dirname(sys.executable)}\ninclude-system-site-packages = false\n")
    sha = "sha256=" + "A" * 43

    def dist(name: str, version: str, pkg: str, lib: str, size: int) -> None:
        d = os.path.join(site, f"{name}-{version}.dist-info")
        os.makedirs(d)
        libdir = os.path.join(site, "nvidia", pkg, "lib")
        os.makedirs(libdir, exist_ok=True)
        open(os.path.join(libdir, lib), "w").close()
        lines = [f"nvidia/{pkg}/__init__.py,{sha},0"]
        i = 0
        total = sum(len(x) + 1 for x in lines)
        while total < size:
            line = f"nvidia/{pkg}/include/detail/header_{i:06d}_with_a_long_name.h,{sha},{1000 + i}"
            lines.append(line)
            total += len(line) + 1
            i += 1
        lines.append(f"nvidia/{pkg}/lib/{lib},{sha},123456")
        lines.append(f"{name}-{version}.dist-info/RECORD,,")
        with open(os.path.join(d, "RECORD"), "w") as f:
            f.write("\n".join(lines) + "\n")

    # NVIDIA's own sizes (a few KiB) ...
    dist("nvidia_nvjitlink_cu12", "12.4.127", "nvjitlink", "libnvJitLink.so.12", 4 << 10)
    dist("nvidia_cublas_cu12", "12.4.5.8", "cublas", "libcublas.so.12", 6 << 10)
    dist("nvidia_cuda_runtime_cu12", "12.4.127", "cuda_runtime", "libcudart.so.12", 10 << 10)
    # ... and a few hundred large ones.
    for i in range(dists):
        dist(f"nvidia_bulk{i:04d}_cu12", f"12.4.{i}", f"bulk{i:04d}", f"libbulk{i:04d}.so.12", record_kib << 10)
    tk = os.path.join(base, "cuda-12.4.1")
    for d in ("bin", "include", "lib64/stubs"):
        os.makedirs(os.path.join(tk, d))
    with open(os.path.join(tk, "version.json"), "w") as f:
        json.dump({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}, f)
    open(os.path.join(tk, "include", "cuda_runtime.h"), "w").close()
    with open(os.path.join(tk, "include", "cuda.h"), "w") as f:
        f.write("#define CUDA_VERSION 12040\n")
    nvcc = os.path.join(tk, "bin", "nvcc")
    with open(nvcc, "w") as f:
        f.write("#!/bin/sh\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n")
    os.chmod(nvcc, 0o755)
    for n in ("libcudart.so.12", "libnvJitLink.so.12", "stubs/libcuda.so"):
        open(os.path.join(tk, "lib64", n), "w").close()
    return venv, tk


def first_use(tree: str, venv: str, tk: str, runs: int) -> tuple[float, int]:
    """(median seconds, median bytes read) of a cold-cache ``use 12.4`` with ``venv`` active."""
    secs, reads = [], []
    # Warm-up without the environment: the tree's own .pyc files are written, not timed.
    subprocess.run([sys.executable, "-c", WRAPPER, tree, "use", "12.4", "--shell", "bash"], capture_output=True,
                   env=dict(os.environ, CUDAENV_ROOTS=tk, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="cudaenv-bench-w-")))
    for _ in range(runs):
        cache = tempfile.mkdtemp(prefix="cudaenv-bench-cache-")
        env = dict(os.environ, PATH=f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", VIRTUAL_ENV=venv,
                   CUDAENV_ROOTS=tk, XDG_CACHE_HOME=cache, XDG_CONFIG_HOME=os.path.join(cache, "config"))
        env.pop("PYTHONPATH", None)
        t0 = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", WRAPPER, tree, "use", "12.4", "--shell", "bash"], env=env,
                             capture_output=True, text=True, timeout=600)
        secs.append(time.perf_counter() - t0)
        shutil.rmtree(cache, ignore_errors=True)
        if res.returncode != 0:
            raise SystemExit(f"use failed: {res.stderr}")
        reads.append(int(next(ln.split()[1] for ln in res.stderr.splitlines() if ln.startswith("RCHAR "))))
    return statistics.median(secs), int(statistics.median(reads))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dists", type=int, default=300)
    ap.add_argument("--record-kib", type=int, default=4096)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rev", help="a git revision to measure too")
    args = ap.parse_args()
    base = tempfile.mkdtemp(prefix="cudaenv-bench-records-")
    try:
        venv, tk = make_env(base, args.dists, args.record_kib)
        trees = [("this checkout", REPO)]
        if args.rev:
            old = os.path.join(base, "rev")
            os.makedirs(old)
            archive = subprocess.run(["git", "-C", REPO, "archive", args.rev, "cudaenv"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
            trees.insert(0, (args.rev, old))
        print(f"{args.dists} RECORDs of {args.record_kib} KiB (+3 small), first `use`, median of {args.runs}:")
        for label, tree in trees:
            s, n = first_use(tree, venv, tk, args.runs)
            print(f"  {label:16} {s * 1e3:9.0f} ms  {n / (1 << 20):9.1f} MiB read")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
