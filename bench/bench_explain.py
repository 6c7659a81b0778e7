"""How long ``cudaenv explain`` takes on a large build log (the issue's figure: a 10 000-line log under 0.5 s).

Times the matcher in-process (after a warm-up, so the knowledge base is
loaded and compiled once, as in a long log's single run), on three logs:

* a realistic 10 000-line ninja/nvcc build with one missing header and ninja's
  closing line, the shape people paste;
* the same size of plain compiler chatter with one out-of-memory line, and of a build with no known error at all
  (its words "gpu", "device", "arch" on every line: every generic reading runs on it);
* one loader error repeated 10 000 times (a training loop or a retry printing it every step);
* a driver error repeated 10 000 times under a changing timestamp, an nvidia-smi table at the end (every line
  holds "NVIDIA", a word the extraction stage reads the driver and the GPU from);
* 300 lines that each end a 6 800-character path in an error (patterns that start with a path class);
* the whole real-log corpus of tests/data/explain_corpus, one log after another;
* the answers tied to this machine (``explain`` without ``--no-host``) for a torch message:
  discovery through the warm index, the cached torch probe of ``--python`` (default: python3
  on PATH), the "here" lines. The first probe of an interpreter is not timed here (1-3 s,
  once; ``explain`` says so on stderr when it runs one).

    python3 bench/bench_explain.py [--runs N]
    python3 bench/bench_explain.py --command [--against OTHER_CHECKOUT] [--runs N]

``--command`` times the whole ``cudaenv explain --no-host`` command instead (process start,
imports and the knowledge base's load included) on the 10 000-line build log, the two repeated
errors, the build with no known error and one short message, as CPU time (user + system of the child: the figure that holds on a loaded machine)
and wall time; ``--against`` runs another checkout's command right after each run of this
one, interleaved, and prints the ratio of the medians.

Prints the median and the worst of N runs for each; the process start and
YAML load are left out (``explain`` pays them once per command).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from cudaenv.knowledge.explain import explain  # noqa: E402


def build_log(n: int = 10_000) -> str:
    lines = [f"[{i}/{n}] /usr/local/cuda-12.4/bin/nvcc -I/usr/include -isystem /opt/torch/include -O3 "
             f"-gencode=arch=compute_80,code=sm_80 -std=c++17 -c /src/kernels/x{i}.cu -o x{i}.cuda.o" for i in range(n)]
    lines[n // 2] = ("/usr/local/lib/python3.10/dist-packages/torch/include/ATen/cuda/CUDAContext.h:6:10: "
                     "fatal error: cusparse.h: No such file or directory")
    lines[-1] = "ninja: build stopped: subcommand failed."
    return "\n".join(lines)


def chatter_log(n: int = 10_000) -> str:
    lines = [f"[{i}/{n}] g++ -O2 -fPIC -c src/file{i}.cpp -o build/file{i}.o" for i in range(n)]
    lines[n * 3 // 4] = "RuntimeError: CUDA error: out of memory"
    return "\n".join(lines)


def unknown_log(n: int = 10_000) -> str:
    """[r35] A long build log with no known error: every generic reading (cue lines, status codes, concepts) runs on
    it, which the logs above, each with an error an entry reads, never reach."""
    lines = [f"[{i}/{n}] g++ -O2 -fPIC -c src/gpu_device{i}.cpp -o build/arch{i}.o" for i in range(n)]
    lines[-1] = "make: *** [all] Error 2"
    return "\n".join(lines)


def repeated_log(n: int = 10_000) -> str:
    return "\n".join(["ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory"] * n)


def driver_retry_log(n: int = 10_000) -> str:
    lines = [f"[2024-05-01 10:{i // 60 % 60:02d}:{i % 60:02d}] RuntimeError: The NVIDIA driver on your system is too old"
             " (found version 11040). Please update your GPU driver" for i in range(n)]
    return "\n".join(lines + ["| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |",
                               "|   0  NVIDIA GeForce RTX 3090    Off  | 00000000:01:00.0 Off |                  N/A |"])


def wide_paths_log(n: int = 300) -> str:
    tails = [": No such file or directory", ": undefined symbol: _ZN3c10x", ": version `GLIBCXX_3.4.30' not found",
             ": cannot open shared object file", ": file too short"]
    return "\n".join("/a" * 3400 + tails[i % len(tails)] for i in range(n))


def corpus() -> list[str]:
    d = os.path.join(REPO, "tests", "data", "explain_corpus")
    out = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".log"):
            with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                out.append(f.read())
    return out


def host_answers(python: str | None):
    """gather_host + answer_here for a CUDA_HOME message, as `explain` runs them (after one warm-up)."""
    from cudaenv.context import Context
    from cudaenv.knowledge.here import answer_here, gather_host, host_needs

    msg = "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root."

    def once() -> None:
        ctx = Context()
        matches = explain(msg)
        answer_here(matches, gather_host(ctx, host_needs(matches), python=python))
        ctx.save()

    once()
    return once


def timed(fn, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), max(times)


def command_times(repo: str, args: list[str], stdin: str | None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``cudaenv explain`` of checkout ``repo``."""
    import resource
    import subprocess

    import hashlib
    import tempfile

    # Each checkout its own cache directory: the knowledge base's store holds one version, so two
    # checkouts run in turn would each find the other's and parse the YAML again every run.
    cache = os.path.join(tempfile.gettempdir(), "cudaenv-bench-explain-" + hashlib.sha256(repo.encode()).hexdigest()[:12])
    env = dict(os.environ, PYTHONPATH=repo, XDG_CACHE_HOME=cache)
    # .pyc written by the warm-up and read after, as an installed package has them: with PYTHONDONTWRITEBYTECODE set
    # (a container's default) every run would compile all of cudaenv's source again, a tenth of a second no user pays.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    # cwd=repo: `python -m` puts the current directory first on sys.path, before PYTHONPATH, so
    # run from elsewhere every checkout would time the one it was started in.
    subprocess.run([sys.executable, "-m", "cudaenv", "explain", "--no-host", *args], input=stdin, env=env, cwd=repo,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def command_main(runs: int, against: str | None) -> int:
    cases = [("whole command, 10 000-line build log", ["-"], build_log()),
             ("whole command, one error repeated 10 000 times", ["-"], repeated_log()),
             ("whole command, a timestamped driver retry", ["-"], driver_retry_log()),
             ("whole command, a build with no known error", ["-"], unknown_log()),
             ("whole command, one short message", ["/usr/bin/ld: cannot find -lcudart"], None)]
    repos = [("this", REPO)] + ([("other", os.path.abspath(against))] if against else [])
    print(f"{'case':40} {'checkout':8} {'CPU med':>8} {'CPU max':>8} {'wall med':>9}")
    for name, args, stdin in cases:
        got: dict[str, list[tuple[float, float]]] = {k: [] for k, _ in repos}
        for k, r in repos:  # warm-up: caches, the page cache
            command_times(r, args, stdin)
        for _ in range(runs):
            for k, r in repos:
                got[k].append(command_times(r, args, stdin))
        for k, _ in repos:
            cpu = [c for c, _ in got[k]]
            print(f"{name:40} {k:8} {statistics.median(cpu):8.3f} {max(cpu):8.3f} "
                  f"{statistics.median(w for _, w in got[k]):9.3f}")
        if against:
            ratio = statistics.median(c for c, _ in got["this"]) / statistics.median(c for c, _ in got["other"])
            print(f"{'':40} {'ratio':8} {ratio:8.2f}  (this / other, CPU medians)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--python", help="interpreter whose torch the host answers look at (default: python3 on PATH)")
    ap.add_argument("--command", action="store_true", help="time the whole `cudaenv explain --no-host` command")
    ap.add_argument("--against", metavar="CHECKOUT", help="with --command: another checkout, run interleaved")
    args = ap.parse_args()
    if args.command:
        return command_main(args.runs, args.against)
    explain("warm up")
    logs = corpus()
    rows = [
        ("10 000-line ninja/nvcc build log, one missing header", lambda t=build_log(): explain(t)),
        ("10 000 lines of compiler chatter, one OOM line", lambda t=chatter_log(): explain(t)),
        ("10 000 lines of a build with no known error", lambda t=unknown_log(): explain(t)),
        ("one loader error repeated 10 000 times", lambda t=repeated_log(): explain(t)),
        ("a driver error repeated 10 000 times, timestamped", lambda t=driver_retry_log(): explain(t)),
        ("300 lines ending 6 800-character paths in errors", lambda t=wide_paths_log(): explain(t)),
        (f"the real-log corpus ({len(logs)} logs, one after another)", lambda: [explain(t) for t in logs]),
        ("host answers for a torch message (warm index, cached probe)", host_answers(args.python)),
    ]
    print(f"{'log':60} {'median s':>9} {'worst s':>8}")
    for name, fn in rows:
        med, worst = timed(fn, args.runs)
        print(f"{name:60} {med:9.3f} {worst:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
