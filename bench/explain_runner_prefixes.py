"""How many corpus answers survive a runner's prefix on every line (round 18).

Logs reach people through runners that write something in front of every line of a program's output: BuildKit's
step and seconds, GitHub Actions' time stamps, docker compose's service, kubectl logs --prefix, journald, srun
--label, a logger's date. For every log of the corpus (the old, the sampled and every sealed set already read) that
explain recognises as it is, each runner's prefix is put on every line and the first answer's id compared.

    python3 bench/explain_runner_prefixes.py                  # kept / recognised, per runner
    python3 bench/explain_runner_prefixes.py --lost           # and the logs whose answer changed
    python3 bench/explain_runner_prefixes.py --unread fresh18 # while a sealed set is not yet scored
"""

from __future__ import annotations

import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: Each runner's prefix for the line at index i (the shapes real runners print).
RUNNERS = {
    "buildkit": lambda i: f"#12 {3.2 + i * 0.013:.3f} ",
    "github-actions": lambda i: f"2024-05-01T10:22:{i % 60:02d}.{i * 7919 % 10**7:07d}Z ",
    "compose": lambda i: "trainer-1  | ",
    "kubectl": lambda i: "[pod/train-0/trainer] ",
    "journald": lambda i: f"Nov 27 10:22:{i % 60:02d} gpu01 python3[4121]: ",
    "srun-label": lambda i: "0: ",
    "logger-date": lambda i: f"2024-05-01 10:22:{i % 60:02d},123 ",
}


def prefixed(text: str, runner: str) -> str:
    """``text`` with ``runner``'s prefix on every line."""
    at = RUNNERS[runner]
    return "\n".join(at(i) + line for i, line in enumerate(text.split("\n")))


def first_id(text: str) -> str | None:
    from cudaenv.knowledge.explain import explain

    return next((m.id for m in explain(text) if m.environment), None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=REPO, help="the checkout whose explain answers (default: this one)")
    ap.add_argument("--lost", action="store_true", help="list the logs whose first answer changed")
    ap.add_argument("--unread", nargs="*", default=[], help="sealed sets not to read (one not yet scored)")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.repo))
    sys.path.insert(0, os.path.join(REPO, "bench"))
    import explain_corpus_score as ecs

    logs = ecs.load_corpus()
    for name in ecs.SEALED:
        if name not in args.unread:
            logs += [log for log in ecs.load_corpus(sealed=name) if log["split"] == name]
    base = {}
    for log in logs:
        with open(log["path"], "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        got = first_id(text)
        if got:
            base[log["path"]] = (text, got)
    for runner in RUNNERS:
        lost = [(path, want, first_id(prefixed(text, runner))) for path, (text, want) in base.items()]
        lost = [x for x in lost if x[1] != x[2]]
        print(f"{runner:16} kept {len(base) - len(lost)}/{len(base)}")
        if args.lost:
            for path, want, got in lost:
                print(f"    {os.path.relpath(path, ecs.CORPUS)}: {want} -> {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
