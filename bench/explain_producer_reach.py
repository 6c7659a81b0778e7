"""How far explain's wordings reach: the producers' catalogue (tests/data/explain_producers/*.yaml, messages read
from the producing tools' source code, each with the cause it reports), counted per file and producer.

Each message is answered in process (``explain(text)``, no host facts) and counted as *right* (the expected first
environment answer, and the fix phrase when one is given; for ``expect: null``, nothing claimed), *wrong* (another
cause first, or a claim where nothing may be claimed) or *silent* (nothing claimed for a message of a cause).

    python3 bench/explain_producer_reach.py                       # counts per file and producer
    python3 bench/explain_producer_reach.py --json now.json       # and keep each message's answer
    python3 bench/explain_producer_reach.py --since before.json   # and list the messages whose answer changed
    python3 bench/explain_producer_reach.py --misses              # and list what is not right

A catalogue grows with the patterns it measures: to measure a change of patterns, run the new catalogue
against the old code (``--repo`` an export of the old commit) and the new one.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import sys

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(REPO, "tests", "data", "explain_producers")


def load(directory: str = CATALOGUE) -> list[dict]:
    """Every message of the catalogue, with ``file`` (the YAML's name) and ``key`` (file and text) added."""
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            for item in (yaml.safe_load(f) or {}).get("messages") or []:
                name = os.path.basename(path)[:-5]
                out.append(dict(item, file=name, key=f"{name}\0{item['text']}"))
    return out


def judge(item: dict, explain) -> dict:
    """``item``'s answer and its class: right, wrong or silent."""
    found = [m for m in explain(item["text"]) if m.environment]
    first = found[0] if found else None
    got = first.id if first else None
    line = next((x for x in first.fix.splitlines() if x.strip()), "") if first else ""
    if item["expect"] is None:
        kind = "right" if first is None else "wrong"
    elif first is None:
        kind = "silent"
    elif got == item["expect"] and (not item.get("fix") or item["fix"] in line):
        kind = "right"
    else:
        kind = "wrong"
    return {"key": item["key"], "file": item["file"], "producer": item["producer"], "expect": item["expect"],
            "got": got, "fix": line, "kind": kind}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=REPO, help="the checkout whose explain answers (default: this one)")
    ap.add_argument("--catalogue", default=CATALOGUE, help="the catalogue directory (default: this checkout's)")
    ap.add_argument("--json", help="write each message's answer here")
    ap.add_argument("--since", help="a --json file of an earlier run: list the answers that changed")
    ap.add_argument("--misses", action="store_true", help="list every message not answered right")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.repo))
    from cudaenv.knowledge.explain import explain

    rows = [judge(item, explain) for item in load(args.catalogue)]
    by_file: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    by_producer: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in rows:
        by_file[r["file"]][r["kind"]] += 1
        by_producer[r["producer"]][r["kind"]] += 1
    total = collections.Counter(r["kind"] for r in rows)

    def line(name: str, c: collections.Counter) -> str:
        n = sum(c.values())
        return f"{name:28} {n:4}  right {c['right']:4} ({100 * c['right'] // max(n, 1):3} %)  wrong {c['wrong']:3}  silent {c['silent']:3}"

    print(line("all", total))
    for name in sorted(by_file):
        print(line(f"  {name}", by_file[name]))
    print("by producer:")
    for name in sorted(by_producer, key=lambda p: (-sum(by_producer[p].values()), p)):
        print(line(f"  {name}", by_producer[name]))
    if args.misses:
        for r in rows:
            if r["kind"] != "right":
                print(f"{r['kind']:6} {r['file']}/{r['producer']}: expected {r['expect']}, got {r['got']}: {r['key'].split(chr(0))[1][:100]!r}")
    if args.since:
        with open(args.since, encoding="utf-8") as f:
            before = {r["key"]: r for r in json.load(f)}
        changed = [(before.get(r["key"]), r) for r in rows if before.get(r["key"]) and
                   (before[r["key"]]["got"], before[r["key"]]["fix"]) != (r["got"], r["fix"])]
        moved = collections.Counter(f"{b['kind']} -> {r['kind']}" for b, r in changed)
        print(f"changed since {os.path.basename(args.since)}: {len(changed)} ({dict(moved)}); "
              f"new messages: {sum(1 for r in rows if r['key'] not in before)}")
        for b, r in changed:
            print(f"  {r['file']}/{r['producer']}: {b['got']} ({b['kind']}) -> {r['got']} ({r['kind']})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
