#!/usr/bin/env python3
"""What finding wheel toolkits costs ``use`` and ``list``, with real virtual environments active.

Usage: python3 bench/bench_wheels.py [--runs N] [--before REV] [--testbed DIR]

Discovery now also looks at the active Python environment (``host/pyenv.locate``: the python3
on PATH, its ``pyvenv.cfg``, its ``lib/python3.*``) and lists ``site-packages/nvidia`` for
``cuNN/bin/nvcc``. This times, against ``python -c pass`` (paired, A B A B ..., medians):

* ``use 13.5`` with no Python environment of note active;
* ``use 13.5`` with the test bed's large torch venv active (venv-cu: torch 2.14.1 + NVIDIA's
  cu13 wheels, 5.5 GiB, ``nvidia/cu13`` without a compiler);
* ``use <nvidia/cu13>`` of the wheel-toolkit venv (venv-cu13tk) with that venv active, and
  (this tree only) the same by its profile name;
* ``list`` with venv-cu13tk active.

With ``--before REV`` the same rows are measured for that git revision too (installed from
``git archive`` into its own venv, with its own cache). Whole-process ratios on a shared machine
move by more than what discovery adds, so the added work itself is also timed in process
(``timeit``, this checkout): ``locate``, ``candidates`` with and without the environment, and a
warm ``scan`` (every root's signature checked against the index).
Needs the test bed: ``bash tests/testbed/build.sh; bash tests/venvs.sh; bash tests/wheeltk.sh``.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

from bench import paired  # bench/bench.py, beside this file

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def install(src: str, venv: str) -> str:
    """A regular (not editable) install of ``src`` into a new venv; returns its ``cudaenv``."""
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True,
                   stderr=subprocess.DEVNULL)
    subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q", src], check=True,
                   stderr=subprocess.DEVNULL)
    return os.path.join(venv, "bin", "cudaenv")


def activated(env: dict, venv: str) -> dict:
    return dict(env, VIRTUAL_ENV=venv, PATH=f"{venv}/bin:{env['PATH']}")


def in_process(tb: str, venvs: list[str], n: int = 2000) -> None:
    """Microseconds of the discovery work a Python environment adds (this checkout, in process)."""
    import timeit

    sys.path.insert(0, REPO)
    from cudaenv.host.pyenv import locate
    from cudaenv.infra.index import Index
    from cudaenv.toolkit.discover import candidates, scan

    print(f"{'in process, per call (this checkout)':44} {'locate':>7} {'cands':>7} {'+env':>7} {'scan':>7}  us")
    for venv in venvs:
        env = {"PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": venv,
               "CUDAENV_ROOTS": os.path.join(tb, "cuda-13.5")}
        pe = locate(env)
        idx = Index(None)
        scan(candidates(env, python_env=pe), idx)

        def us(fn) -> float:
            return min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e6

        print(f"{os.path.basename(venv) + ' active':44} {us(lambda: locate(env)):7.0f} {us(lambda: candidates(env)):7.0f} "
              f"{us(lambda: candidates(env, python_env=pe)):7.0f} "
              f"{us(lambda: scan(candidates(env, python_env=pe), idx)):7.0f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--before", help="also measure this git revision (e.g. the commit before wheel toolkits)")
    ap.add_argument("--testbed", default=os.environ.get("CUDAENV_TESTBED") or os.path.expanduser("~/.cache/cudaenv-testbed"))
    args = ap.parse_args()
    tb = args.testbed
    venv_cu, venv_tk = os.path.join(tb, "venv-cu"), os.path.join(tb, "venv-cu13tk")
    roots = glob.glob(os.path.join(venv_tk, "lib", "python3*", "site-packages", "nvidia", "cu13"))
    if not (os.path.isdir(os.path.join(tb, "cuda-13.5")) and os.path.isdir(venv_cu) and len(roots) == 1):
        print(f"test bed incomplete under {tb}: run tests/testbed/build.sh, tests/venvs.sh, tests/wheeltk.sh",
              file=sys.stderr)
        return 1
    wheel_root = roots[0]
    work = tempfile.mkdtemp(prefix="cudaenv-bench-wheels-")
    try:
        trees = {"this tree": REPO}
        if args.before:
            src = os.path.join(work, "before-src")
            os.makedirs(src)
            archive = subprocess.run(["git", "-C", REPO, "archive", args.before], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
            trees[f"before ({args.before})"] = src
        tools = {}
        for label, src in trees.items():
            d = os.path.join(work, f"t{len(tools)}")
            exe = install(src, os.path.join(d, "venv"))
            env = {k: v for k, v in os.environ.items()
                   if k not in ("CUDAENV_ACTIVE", "_CUDAENV_STATE", "VIRTUAL_ENV", "CONDA_PREFIX", "CUDA_HOME",
                                "CUDA_PATH")}
            env.update(XDG_CONFIG_HOME=os.path.join(d, "config"), XDG_CACHE_HOME=os.path.join(d, "cache"),
                       CUDAENV_ROOTS=os.path.join(tb, "cuda-13.5"), PATH="/usr/local/bin:/usr/bin:/bin")
            tools[label] = (exe, env, os.path.join(d, "venv", "bin", "python"))
        print(f"{'measurement':64} {'A ms':>7} {'B ms':>7} {'A/B':>6}  (min-max)")
        for label, (exe, env, py) in tools.items():
            bare = [py, "-c", "pass"]
            rows = [
                ("use 13.5, no venv active", [exe, "use", "13.5", "--shell", "bash"], env),
                ("use 13.5, venv-cu (torch + cu13 wheels) active", [exe, "use", "13.5", "--shell", "bash"],
                 activated(env, venv_cu)),
                ("use <nvidia/cu13 path>, venv-cu13tk active", [exe, "use", wheel_root, "--shell", "bash"],
                 activated(env, venv_tk)),
                ("list, venv-cu13tk active", [exe, "list"], activated(env, venv_tk)),
            ]
            doc = json.loads(subprocess.run([exe, "list", "--json"], env=activated(env, venv_tk), capture_output=True,
                                            text=True).stdout)
            names = [t["profile"] for t in doc["toolkits"] if t.get("origin")]
            if names:
                rows.insert(3, (f"use {names[0]}, venv-cu13tk active", [exe, "use", names[0], "--shell", "bash"],
                                activated(env, venv_tk)))
            print(f"-- {label}")
            for name, argv, e in rows:
                if subprocess.run(argv, env=e, capture_output=True).returncode != 0:
                    print(f"{name:64} failed", file=sys.stderr)
                    continue
                r = paired(argv, bare, e, args.runs)
                print(f"{name:64} {r['a_ms']:7.1f} {r['b_ms']:7.1f} {r['ratio']:6.2f}  "
                      f"({r['ratio_min']:.2f}-{r['ratio_max']:.2f})")
        in_process(tb, [venv_cu, venv_tk])
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
