#!/usr/bin/env python3
"""What ``cudaenv init --auto`` costs at the prompt, in real interactive shells.

Usage: python3 bench/bench_auto.py [--runs N] [--venv DIR] [--shells bash,zsh,fish,tcsh]

Two measurements per shell:

1. Whole prompt, paired. Two interactive shells run side by side on
   pseudo-terminals, one with ``cudaenv init SHELL --auto`` loaded and one
   without; the harness types a command into each in turn (A B A B ...) and
   times until the next prompt appears. Cases: an empty command in the same
   directory; ``cd`` between two directories with no pin above them (the hook
   walks up to / and stops); ``cd`` between two directories of one pinned
   project (walk-up, same pin: still no process); ``cd`` between two projects
   pinned to different toolkits (one ``cudaenv _auto`` per prompt: the price
   of an actual switch).
2. The hook alone: N calls in a loop inside the shell minus the same loop
   without the call, per call, for the same-directory check and for a
   walk-up from 8 levels deep.

cudaenv is installed into a virtual environment as a regular install (an
editable one adds an import hook that costs what is measured), as in
bench.py. Quote medians; the machine should be idle.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench import install_venv, make_toolkit  # bench/bench.py, beside this file

MARK = "@@cudaenv-bench@@"
# Typed as two quoted halves so that the terminal's echo of the typed line never
# holds the marker itself (all four shells join adjacent quoted words).
_M = "'@@cudaenv-''bench@@'"

SETUP = {  # prompt = MARK, then (optionally) the integration
    "bash": (["bash", "--norc", "--noprofile", "-i"], f"PS1={_M}; PROMPT_COMMAND=", 'eval "$({cudaenv} init bash --auto)"'),
    "zsh": (["zsh", "-f", "-i"], f"PS1={_M}; RPS1=", 'eval "$({cudaenv} init zsh --auto)"'),
    "fish": (["fish", "--no-config", "-i"],
             f"function fish_prompt; echo -n {_M}; end; function fish_right_prompt; end; "
             "set -g fish_greeting; set -g fish_autosuggestion_enabled 0",
             "{cudaenv} init fish --auto | source"),
    "tcsh": (["tcsh", "-f", "-i"], f"set prompt={_M}; unset rprompt", 'eval "`{cudaenv} init tcsh --auto`"'),
}


def _controlling_tty() -> None:
    # A session of its own with the pty as controlling terminal (tcsh insists on one).
    import fcntl
    import termios

    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyShell:
    """An interactive shell on a pseudo-terminal whose prompt is MARK."""

    def __init__(self, argv: list[str], env: dict, cwd: str, setup: list[str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     preexec_fn=_controlling_tty)
        os.close(slave)
        self.buf = b""
        self.n = 0
        time.sleep(0.3)
        for line in setup:
            self.run(line, timeout=60)

    def _read_until(self, token: bytes, timeout: float) -> None:
        """Read until ``token`` has been printed and a prompt after it."""
        end = time.perf_counter() + timeout
        while True:
            at = self.buf.find(token)
            if at >= 0 and self.buf.find(MARK.encode(), at) >= 0:
                return
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no prompt; output so far: {self.buf[-400:]!r}")
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                try:
                    self.buf += os.read(self.master, 65536)
                except OSError:
                    raise RuntimeError(f"shell exited; output: {self.buf[-400:]!r}") from None

    def run(self, line: str, timeout: float = 30) -> float:
        """Type ``line`` (plus an echo of a token); seconds until the prompt after the token.

        The token tells this line's output from a late redraw of the previous
        prompt; it is typed in two quoted halves, like the marker.
        """
        self.n += 1
        typed = (f"{line}; " if line else "") + f"echo '@@t{self.n}''@@'"
        self.buf = b""
        t0 = time.perf_counter()
        os.write(self.master, typed.encode() + b"\r")
        self._read_until(f"@@t{self.n}@@".encode(), timeout)
        return time.perf_counter() - t0

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.master)


def paired_prompts(a: PtyShell, b: PtyShell, lines: list[str], runs: int) -> dict:
    for line in lines[:2]:  # warm-up
        a.run(line)
        b.run(line)
    ta, tb = [], []
    for i in range(runs):
        line = lines[i % len(lines)]
        ta.append(a.run(line))
        tb.append(b.run(line))
    return {"with_ms": statistics.median(ta) * 1e3, "without_ms": statistics.median(tb) * 1e3,
            "delta_ms": statistics.median(x - y for x, y in zip(ta, tb)) * 1e3}


LOOP = {
    "bash": (["bash", "--norc", "--noprofile"], "for ((i = 0; i < {n}; i++)); do {call}; done"),
    "zsh": (["zsh", "-f"], "for ((i = 0; i < {n}; i++)); do {call}; done"),
    "fish": (["fish", "--no-config"], "for i in (seq {n})\n{call}\nend"),
    "tcsh": (["tcsh", "-f"], "set i = 0\nwhile ( $i < {n} )\n{call}\n@ i++\nend"),
}
# What the prompt costs when the directory did not change (bash checks $PWD at
# every prompt; the others are not called at all), and a walk-up to / (the
# directory changed, no pin above it, so still no process).
CALLS = {
    "bash": ("_cudaenv_hook", ":", "_cudaenv_hook_pwd=; _cudaenv_hook", "_cudaenv_hook_pwd=; :"),
    "zsh": (None, None, "_cudaenv_auto", ":"),
    "fish": (None, None, "_cudaenv_auto", "true"),
    "tcsh": (None, None, 'source "$_cudaenv_src:h/cudaenv-hook.tcsh"', ":"),
}


def hook_loop(shell: str, cudaenv: str, env: dict, cwd: str, n: int, call: str, noop: str) -> float:
    """Microseconds per ``call`` (a loop of n calls minus the same loop of ``noop``)."""
    argv, loop = LOOP[shell]
    init = SETUP[shell][2].format(cudaenv=cudaenv)

    def timed(cmd: str) -> float:
        text = init + "\n" + loop.format(n=n, call=cmd) + "\n"
        t0 = time.perf_counter()
        subprocess.run(argv, input=text, env=env, cwd=cwd, text=True, capture_output=True, check=True)
        return time.perf_counter() - t0

    with_ = statistics.median(timed(call) for _ in range(5))
    without = statistics.median(timed(noop) for _ in range(5))
    return max(0.0, (with_ - without) / n * 1e6)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=60, help="prompts per case (the switching case uses a third)")
    ap.add_argument("--venv", help="reuse this virtual environment (created if missing)")
    ap.add_argument("--shells", default="bash,zsh,fish,tcsh")
    ap.add_argument("--loop", type=int, default=2000, help="hook calls per loop for the hook-alone figure")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="cudaenv-bench-auto-")
    shells: list[PtyShell] = []
    try:
        py, cudaenv = install_venv(args.venv or os.path.join(work, "venv"))

        make_toolkit(os.path.join(work, "tk", "cuda-12.4"), "12.4.1")
        make_toolkit(os.path.join(work, "tk", "cuda-11.8"), "11.8.0")
        deep = os.path.join(work, "a", "b", "c", "d", "e", "f", "g")
        plain = [os.path.join(deep, "x"), os.path.join(deep, "y")]
        proj = [os.path.join(work, "proj12", "src", "x"), os.path.join(work, "proj12", "src", "y")]
        other = os.path.join(work, "proj11", "src")
        for d in plain + proj + [other]:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(work, "proj12", ".cuda-version"), "w") as f:
            f.write("12.4\n")
        with open(os.path.join(work, "proj11", ".cuda-version"), "w") as f:
            f.write("11.8\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CUDAENV", "_CUDAENV", "TMUX"))}
        env.update(XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"),
                   CUDAENV_ROOTS=os.path.join(work, "tk", "cuda-*"), TERM="dumb", LC_ALL="C.UTF-8",
                   PATH=os.path.dirname(cudaenv) + os.pathsep + env.get("PATH", ""))
        subprocess.run([cudaenv, "list"], env=env, capture_output=True, check=True)  # warm the cache

        cases = [
            ("`echo`, same directory", [""], args.runs),
            ("cd between 2 unpinned dirs 10 deep", [f"cd {plain[0]}", f"cd {plain[1]}"], args.runs),
            ("cd inside one pinned project", [f"cd {proj[0]}", f"cd {proj[1]}"], args.runs),
            ("cd between projects pinned 12.4 / 11.8", [f"cd {proj[0]}", f"cd {other}"], max(10, args.runs // 3)),
        ]
        print(f"{'shell':5} {'case':40} {'with ms':>8} {'without':>8} {'delta ms':>9}")
        rows = []
        for shell in args.shells.split(","):
            if not shutil.which(shell):
                print(f"{shell}: not installed, skipped", file=sys.stderr)
                continue
            argv, prompt, init = SETUP[shell]
            a = PtyShell(argv, env, work, [prompt, init.format(cudaenv=cudaenv)])
            b = PtyShell(argv, env, work, [prompt])
            shells += [a, b]
            for name, lines, runs in cases:
                r = paired_prompts(a, b, lines, runs)
                rows.append((shell, name, r))
                print(f"{shell:5} {name:40} {r['with_ms']:8.2f} {r['without_ms']:8.2f} {r['delta_ms']:9.2f}",
                      flush=True)
            a.close()
            b.close()
            same_call, same_noop, walk_call, walk_noop = CALLS[shell]
            same = (f"{hook_loop(shell, cudaenv, env, plain[0], args.loop, same_call, same_noop):.1f} us"
                    if same_call else "not called")
            walk = hook_loop(shell, cudaenv, env, plain[0], args.loop, walk_call, walk_noop)
            print(f"{shell:5} hook alone: same directory {same}; walk-up from 10 deep {walk:.1f} us", flush=True)
        return 0
    finally:
        for s in shells:
            try:
                s.close()
            except OSError:
                pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
