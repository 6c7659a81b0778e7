"""How many corpus answers survive what runners, pages and consoles do to a log on its way to a paste (round 18).

Runners write something in front of every line of a program's output (BuildKit's step and seconds, GitHub Actions'
time stamps, docker compose's service, kubectl logs --prefix, journald, srun --label, a logger's date); a web page, a
chat or a word processor turns spaces into no-break spaces, quotes into typographic ones, and a page's source escapes
<, > and quotes; a console breaks lines at its width, mid-word. For every log of the corpus (the old, the sampled and
every sealed set already read) that explain recognises as it is, each form is applied and the first answer's id
compared.

Round 28 added damages to the one line the first answer was read from, as pastes and other producers' versions of a
message show them: the message's error word capitalised or upper-cased by another producer's frame ("CUDA Error:",
"ERROR:"), the line's first characters lost in the paste ("PUassert: ..."), its last quarter cut off. They measure how
much an answer depends on a sentence's exact case and full length, the kinds of wording gap the held-out censuses
count most often.

    python3 bench/explain_paste_forms.py                  # kept / recognised, per form
    python3 bench/explain_paste_forms.py --lost           # and the logs whose answer changed
    python3 bench/explain_paste_forms.py --unread fresh18 # while a sealed set is not yet scored
"""

from __future__ import annotations

import argparse
import html
import os
import re
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


def wrapped(text: str, width: int) -> str:
    """``text`` as a console ``width`` columns wide shows it: every longer line cut into pieces of ``width``."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


#: What a page, a chat or a console makes of a log (each form a function of the text).
PAGES = {
    "typographic-quotes": lambda t: re.sub(r"'", "\u2019", re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", t)),
    "html-escaped": lambda t: html.escape(t, quote=True),
    "no-break-spaces": lambda t: t.replace(" ", "\u00a0"),
    "console-80": lambda t: wrapped(t, 80),
    "console-120": lambda t: wrapped(t, 120),
}


_WORD = re.compile(r"\b(error|warning|fatal|failed|failure)\b")

#: What may happen to the line the answer was read from (each a function of that line).
DAMAGES = {
    "word-capitalised": lambda line: _WORD.sub(lambda m: m.group(1).capitalize(), line, count=1),
    "word-upper": lambda line: _WORD.sub(lambda m: m.group(1).upper(), line, count=1),
    "cut-start-3": lambda line: line[3:],
    "cut-end-quarter": lambda line: line[:max(10, len(line) * 3 // 4)],
}


def form(text: str, name: str, line: int = 0) -> str:
    """``text`` in the form ``name`` (a runner of RUNNERS, a page of PAGES, or a damage of DAMAGES to its ``line``,
    counted from 1)."""
    if name in DAMAGES:
        lines = text.split("\n")
        if 0 < line <= len(lines):
            lines[line - 1] = DAMAGES[name](lines[line - 1])
        return "\n".join(lines)
    return prefixed(text, name) if name in RUNNERS else PAGES[name](text)


def first_id(text: str) -> str | None:
    return first(text)[0]


def first(text: str) -> tuple[str | None, int]:
    """The first environment answer's id and the line it was read from (0: none)."""
    from cudaenv.knowledge.explain import explain

    m = next((m for m in explain(text) if m.environment), None)
    return (m.id, m.line or 0) if m else (None, 0)


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
        got, line = first(text)
        if got:
            base[log["path"]] = (text, got, line)
    for name in [*RUNNERS, *PAGES, *DAMAGES]:
        lost = [(path, want, first_id(form(text, name, line))) for path, (text, want, line) in base.items()]
        lost = [x for x in lost if x[1] != x[2]]
        print(f"{name:20} kept {len(base) - len(lost)}/{len(base)}", flush=True)
        if args.lost:
            for path, want, got in lost:
                print(f"    {os.path.relpath(path, ecs.CORPUS)}: {want} -> {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
