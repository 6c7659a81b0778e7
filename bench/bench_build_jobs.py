#!/usr/bin/env python3
"""A real torch CUDA extension built at several MAX_JOBS: what the build-jobs rule must get right.

Usage: python3 bench/bench_build_jobs.py [--jobs 1,2,4] [--runs 1] [--files 4] [--arch 8.0]
                                         [--python PY] [--cuda-home DIR]

torch's ``cpp_extension`` (``load``, the JIT path; ``BuildExtension`` runs the same ninja file)
runs MAX_JOBS ninja jobs, each ONE nvcc or c++ without ``--threads``: the rule that sized
MAX_JOBS = cores ÷ NVCC_THREADS gave this kind of build one job on two cores (issue 17). Each
build here starts from an empty build directory; the extension is FILES ``.cu`` files, each a
small kernel over ATen tensors (the headers are what a compile of a real extension spends its
time and memory on), plus one binding ``.cpp``. Per MAX_JOBS: the median wall time over RUNS,
and the peak resident memory of the build's processes (``ru_maxrss`` of the children: the
largest single compiler process). Jobs run in turn (1, 2, 4, 1, 2, 4, ...) so a load change on
a shared machine spreads over all of them.

Defaults: the test bed's torch (``venv-cu``) and CUDA 13.5 toolkit. The figures depend on the
machine and on what else runs on it: report the cores, and that the machine was shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TESTBED = os.environ.get("CUDAENV_TESTBED") or os.path.expanduser("~/.cache/cudaenv-testbed")

KERNEL = r"""
#include <ATen/ATen.h>
#include <cuda_runtime.h>

__global__ void scale_%(i)d_kernel(const float *x, float *y, float a, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + %(i)d;
}

at::Tensor scale_%(i)d(const at::Tensor &x, double a) {
    auto y = at::empty_like(x);
    int64_t n = x.numel();
    scale_%(i)d_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), (float)a, n);
    return y;
}
"""

BINDING_HEAD = "#include <torch/extension.h>\n"

BUILD = r"""
import os, sys, time
from torch.utils.cpp_extension import load
d = sys.argv[1]
srcs = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith((".cu", ".cpp")))
t = time.perf_counter()
load("benchjobs", srcs, build_directory=os.path.join(d, "build"), verbose=False)
print(time.perf_counter() - t)
"""


def write_sources(d: str, files: int) -> None:
    for i in range(files):
        with open(os.path.join(d, f"k{i}.cu"), "w") as f:
            f.write(KERNEL % {"i": i})
    decls = "".join(f"at::Tensor scale_{i}(const at::Tensor &x, double a);\n" for i in range(files))
    defs = "".join(f'    m.def("scale_{i}", &scale_{i});\n' for i in range(files))
    with open(os.path.join(d, "binding.cpp"), "w") as f:
        f.write(BINDING_HEAD + decls + "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n" + defs + "}\n")


def build_once(python: str, env: dict, src: str) -> tuple[float, float]:
    """(wall seconds, peak RSS in GiB of the largest child) for one clean build."""
    shutil.rmtree(os.path.join(src, "build"), ignore_errors=True)
    os.makedirs(os.path.join(src, "build"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    res = subprocess.run([python, "-c", BUILD, src], env=env, capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - t
    if res.returncode != 0:
        sys.exit(f"build failed (MAX_JOBS={env['MAX_JOBS']}):\n{res.stderr[-3000:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / (1 << 20)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", default="1,2,4", help="MAX_JOBS values, comma-separated")
    ap.add_argument("--runs", type=int, default=1, help="clean builds per MAX_JOBS")
    ap.add_argument("--files", type=int, default=4, help=".cu files in the extension")
    ap.add_argument("--arch", default="8.0", help="TORCH_CUDA_ARCH_LIST (one architecture keeps it short)")
    ap.add_argument("--python", default=os.path.join(TESTBED, "venv-cu", "bin", "python"))
    ap.add_argument("--cuda-home", default=os.path.join(TESTBED, "cuda-13.5"))
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    if not os.path.isfile(args.python) or not os.path.isfile(os.path.join(args.cuda_home, "bin", "nvcc")):
        sys.exit(f"needs a torch venv ({args.python}) and a toolkit ({args.cuda_home}): tests/venvs.sh builds them")
    work = tempfile.mkdtemp(prefix="cudaenv-bench-jobs-")
    src = os.path.join(work, "ext")
    os.makedirs(src)
    write_sources(src, args.files)
    venv_bin = os.path.dirname(args.python)
    base = dict(os.environ, CUDA_HOME=args.cuda_home, CUDA_PATH=args.cuda_home, TORCH_CUDA_ARCH_LIST=args.arch,
                PATH=os.pathsep.join([os.path.join(args.cuda_home, "bin"), venv_bin, os.environ.get("PATH", "")]),
                TORCH_EXTENSIONS_DIR=os.path.join(work, "ext-cache"))
    base.pop("NVCC_THREADS", None)
    times: dict[int, list[float]] = {j: [] for j in jobs}
    peaks: dict[int, float] = {}
    try:
        for r in range(args.runs):
            for j in jobs:
                wall, peak = build_once(args.python, dict(base, MAX_JOBS=str(j)), src)
                times[j].append(wall)
                peaks[j] = max(peaks.get(j, 0.0), peak)
                print(f"run {r + 1}: MAX_JOBS={j}: {wall:.1f} s", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cores = len(os.sched_getaffinity(0))
    print(f"torch cpp_extension, {args.files} .cu + 1 .cpp, arch {args.arch}, {cores} cores "
          f"(machine shared with other work), {args.runs} clean build(s) each:")
    for j in jobs:
        print(f"  MAX_JOBS={j}: median {statistics.median(times[j]):.1f} s  "
              f"(runs: {', '.join(f'{t:.1f}' for t in times[j])})")
    print(f"  largest compiler process: {max(peaks.values()):.2f} GiB resident")
    return 0


if __name__ == "__main__":
    sys.exit(main())
