"""Whether a public thread is new to the explain corpus and its knowledge (issue 18's held-out protocol).

A collector runs it on every thread before writing a log for a sealed set: NEW when no corpus manifest, knowledge file,
census, read list, test, bench file or doc of this checkout names the thread, and none of the extra files given with
``--also`` (another collector's staging manifest, a sweep's URL list) does; else DUP with the first file that names it.

A thread is compared without scheme, ``www.``, query, fragment or case, and a GitHub issue or pull request also as
``owner/repo#N`` and ``repo#N``, the ways the knowledge base's comments and the judges' notes cite threads (round 33
found three collected logs whose threads were cited only that way). ``#12`` does not match ``#123``.

    python3 bench/thread_seen.py URL [URL ...] [--also FILE_OR_DIR ...]
"""

from __future__ import annotations

import argparse
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The parts of the checkout searched (text files only).
SEARCHED = ("tests", "cudaenv", "bench", "docs")
_TEXT = (".py", ".yaml", ".yml", ".md", ".txt", ".tsv", ".json", ".log", ".sh", ".toml", ".cfg")


def forms(url: str) -> list[str]:
    """The ways ``url`` may be written in a file, lower-cased: the bare address, and for a GitHub issue or pull
    request ``owner/repo#N`` and ``repo#N``."""
    k = re.sub(r"[#?].*$", "", url.strip().lower())
    k = re.sub(r"^https?://(www\.)?", "", k).rstrip("/")
    out = [k]
    m = re.fullmatch(r"github\.com/([^/]+)/([^/]+)/(?:issues|pull|discussions)/(\d+)", k)
    if m:
        out += [f"{m.group(1)}/{m.group(2)}#{m.group(3)}", f"{m.group(2)}#{m.group(3)}"]
        # [r35] and by word: "OPM/opm-simulators PR 2366" (a knowledge-base comment; fresh38's af69 came back NEW
        # although the knowledge base cited its pull request that way)
        out += [f"{m.group(1)}/{m.group(2)} {word} {hash_}{m.group(3)}" for word in ("pr", "pull", "issue")
                for hash_ in ("", "#")]
    return out


def _files(roots: list[str]):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for dp, dn, fn in os.walk(root):
            dn[:] = [d for d in dn if d not in ("__pycache__", ".git")]
            for n in fn:
                if n.endswith(_TEXT):
                    yield os.path.join(dp, n)


def index(roots: list[str]) -> list[tuple[str, str]]:
    """(path, lower-cased text) of every text file under ``roots``."""
    out = []
    for path in _files(roots):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                out.append((path, f.read().lower()))
        except OSError:
            continue
    return out


def seen(url: str, texts: list[tuple[str, str]]) -> str | None:
    """The first file of ``texts`` that names the thread ``url`` (in any of its :func:`forms`), or None."""
    for form in forms(url):
        rx = re.compile(re.escape(form) + r"(?![0-9])")
        for path, text in texts:
            if form in text and rx.search(text):
                return path
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("urls", nargs="+")
    ap.add_argument("--also", nargs="*", default=[], help="more files or directories to search")
    args = ap.parse_args(argv)
    texts = index([os.path.join(REPO, d) for d in SEARCHED] + args.also)
    for url in args.urls:
        hit = seen(url, texts)
        print(f"DUP  {url}  ({os.path.relpath(hit, REPO)})" if hit else f"NEW  {url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
