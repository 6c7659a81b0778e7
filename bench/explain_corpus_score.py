"""Score ``cudaenv explain`` on the real-log corpus, per split and per layer (issue 18's protocol).

The corpus is tests/data/explain_corpus: the old logs (manifest.yaml, split "old", layers in
old.yaml: read while the current patterns were written) and the sampled logs
(sampled/manifest.yaml: each with its source, layer, expected cause and fix, split "tune" or
"heldout" by a hash of the source URL, fixed before any pattern was written for them) and the fresh
logs (fresh/manifest.yaml, split "fresh": collected after "heldout" was read) and the fresh2 logs
(fresh2/manifest.yaml, split "fresh2": a second sealed set, collected the same way later). A sealed
split is loaded and scored only when asked for by name (``--split fresh``, ``--split fresh2``),
never as part of "all". The practice logs (practice/manifest.yaml, split "practice": logs the practice
helpers collected to tune on) are tuning data, loaded likewise only by name (``--split practice``),
never held-out evidence.

Every log goes through the real command, ``cudaenv explain --json --no-host -`` of this
checkout (one process per log, so the score does not depend on how explain is built inside,
nor on this machine's toolkits). Counted:

* recognised: an environment cause is claimed (an answer with environment: true);
* claimed negatives: a program bug (layer "negative") for which an environment cause is
  claimed -- the one mistake the issue forbids;
* negative verdicts: an explicit "not an environment problem" answer on a negative.

"Right first" needs reading: ``--sample N`` prints, for N logs drawn at random (``--seed``),
the expected cause and fix beside explain's first answer. Judgements are kept in a YAML file
(``--judged FILE``), one per log: ``right`` (the first answer names the cause and puts a
fix that solves this case first), ``wrong`` (claimed, but the wrong cause or a wrong first
fix), with the explain id that was judged, and (from round 22) ``cause``: whether the first answer names the
thread's cause at all, counted as "cause first" when every judgement of the split says; a judgement whose id no longer matches explain's
current first answer is reported as stale, so a changed answer is read again.

A round is measured before and after on a sealed set: ``--json`` at the commit before keeps every
first answer; after the round, ``--since`` that file counts the first answers that changed (id,
title, cause or fix: whatever a judge reads), and with ``--template --judged`` the earlier
judgements prints a file where the unchanged logs keep their rows and only the changed ones are
left to judge.

    python3 bench/explain_corpus_score.py                      # counts for all splits
    python3 bench/explain_corpus_score.py --split heldout --sample 10 --seed 1
    python3 bench/explain_corpus_score.py --split heldout --judged tests/data/explain_corpus/sampled/judged-26d5894.yaml
    python3 bench/explain_corpus_score.py --split heldout --template > /tmp/judge.yaml   # a file to fill in
    python3 bench/explain_corpus_score.py --split fresh        # a sealed set: once, by the lead
    python3 bench/explain_corpus_score.py --split fresh2       # the second sealed set: likewise
    python3 bench/explain_corpus_score.py --split fresh3       # the third
    python3 bench/explain_corpus_score.py --split fresh4       # the fourth
    python3 bench/explain_corpus_score.py --split fresh5       # the fifth
    python3 bench/explain_corpus_score.py --split fresh6       # the sixth
    python3 bench/explain_corpus_score.py --split fresh7       # the seventh
    python3 bench/explain_corpus_score.py --split fresh8       # the eighth
    python3 bench/explain_corpus_score.py --split fresh9       # the ninth
    python3 bench/explain_corpus_score.py --split fresh10      # the tenth
    python3 bench/explain_corpus_score.py --split fresh11      # the eleventh
    python3 bench/explain_corpus_score.py --split fresh12      # the twelfth
    python3 bench/explain_corpus_score.py --split fresh13      # the thirteenth
    python3 bench/explain_corpus_score.py --split fresh14      # the fourteenth
    python3 bench/explain_corpus_score.py --split fresh15      # the fifteenth
    python3 bench/explain_corpus_score.py --split fresh16      # the sixteenth
    python3 bench/explain_corpus_score.py --split fresh17      # the seventeenth
    python3 bench/explain_corpus_score.py --split fresh18      # the eighteenth
    python3 bench/explain_corpus_score.py --split fresh19      # the nineteenth
    python3 bench/explain_corpus_score.py --split fresh20      # the twentieth
    python3 bench/explain_corpus_score.py --split fresh21      # the twenty-first
    python3 bench/explain_corpus_score.py --split fresh22      # the twenty-second
    python3 bench/explain_corpus_score.py --split fresh23      # the twenty-third
    python3 bench/explain_corpus_score.py --split fresh24      # the twenty-fourth
    python3 bench/explain_corpus_score.py --split practice     # the practice set: tuning data, read freely
    python3 bench/explain_corpus_score.py --json                # one record per log
    python3 bench/explain_corpus_score.py --split fresh9 --since before.json --judged J.yaml --template
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import random
import subprocess
import sys

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "tests", "data", "explain_corpus")
SAMPLED = os.path.join(CORPUS, "sampled")
LAYERS = ["compiler", "linker", "loader", "driver", "container", "python-framework", "jax-tf", "nccl",
          "hardware", "negative"]
SPLITS = ["old", "tune", "heldout"]
#: The sealed sets, in the order they were made: fresh/, fresh2/ .. fresh29/.
SEALED = {name: os.path.join(CORPUS, name) for name in ["fresh"] + [f"fresh{n}" for n in range(2, 42)]}  # each scored only on request (--split NAME), never in "all"
#: Tuning sets: real logs collected to tune on and read freely (practice/: the practice helpers' logs of rounds 24-25).
#: Scored only on request (--split practice), never in "all" and never a held-out figure.
TUNING = {"practice": os.path.join(CORPUS, "practice")}


def load_corpus(fresh: bool = False, sealed: str | None = None, tuning: str | None = None) -> list[dict]:
    """Every log of the corpus as {file, path, split, layer, ...}, the old ones first.

    A sealed split's logs come last and only if asked for: ``sealed="fresh"`` or ``sealed="fresh2"``
    (``fresh=True`` is ``sealed="fresh"``); never more than one sealed split at a time. A tuning set
    (``tuning="practice"``) likewise comes only when asked for, after the others.
    """
    if fresh:
        if sealed not in (None, "fresh"):
            raise ValueError(f"fresh=True and sealed={sealed!r}: ask for one sealed split")
        sealed = "fresh"
    if sealed is not None and sealed not in SEALED:
        raise ValueError(f"not a sealed split: {sealed!r}")
    if tuning is not None and tuning not in TUNING:
        raise ValueError(f"not a tuning set: {tuning!r}")
    with open(os.path.join(CORPUS, "old.yaml"), encoding="utf-8") as f:
        old = {i["file"]: i for i in yaml.safe_load(f)["logs"]}
    with open(os.path.join(CORPUS, "manifest.yaml"), encoding="utf-8") as f:
        manifest = yaml.safe_load(f)["logs"]
    logs = []
    for item in manifest:
        logs.append({"file": item["file"], "path": os.path.join(CORPUS, item["file"]), "split": "old",
                     "layer": old[item["file"]]["layer"], "source": item["source"],
                     "cause": item["expect"] or "not an environment problem", "fix": ""})
    for directory in [SAMPLED] + ([SEALED[sealed]] if sealed else []) + ([TUNING[tuning]] if tuning else []):
        with open(os.path.join(directory, "manifest.yaml"), encoding="utf-8") as f:
            sampled = yaml.safe_load(f)["logs"]
        for item in sampled:
            cause = item["cause"]
            logs.append({"file": item["file"], "path": os.path.join(directory, item["file"]), "split": item["split"],
                         "layer": item["layer"], "source": item["source"],
                         "cause": f"{cause['component']} x {cause['failure']}", "fix": item["fix"]})
    return logs


def run_explain(path: str) -> list[dict]:
    """explain's answers for one log, as its --json output (an empty list when nothing is recognised)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    with open(path, "rb") as f:
        res = subprocess.run([sys.executable, "-m", "cudaenv", "explain", "--json", "--no-host", "-"], stdin=f,
                             env=env, capture_output=True, timeout=120)
    if res.returncode == 1 and not res.stdout.strip():
        return []
    if res.returncode != 0:
        raise SystemExit(f"explain failed on {path}: {res.stderr.decode(errors='replace').strip()}")
    return json.loads(res.stdout)


def score(logs: list[dict], jobs: int) -> None:
    """Adds to each log: claimed (environment answers), first (the first of them), verdict (a negative one)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for log, answers in zip(logs, pool.map(run_explain, [log["path"] for log in logs])):
            claimed = [a for a in answers if a.get("environment")]
            log["claimed"] = [a["id"] for a in claimed]
            log["first"] = claimed[0] if claimed else None
            log["verdict"] = next((a["id"] for a in answers if a.get("environment") is False), None)


def first_fix_line(answer: dict) -> str:
    return next((line for line in answer.get("fix", "").splitlines() if line.strip()), "")


def load_judged(path: str | None) -> dict:
    if not path:
        return {}
    with open(path, encoding="utf-8") as f:
        return (yaml.safe_load(f) or {}).get("judged") or {}


def tally(logs: list[dict], judged: dict) -> dict:
    """Counts per (split, layer) and per split: logs, recognised, right, wrong, stale, claimed negatives."""
    table: dict = collections.defaultdict(collections.Counter)
    for log in logs:
        for key in ((log["split"], log["layer"]), (log["split"], "*")):
            row = table[key]
            row["logs"] += 1
            if log["layer"] == "negative":
                row["claimed_negative"] += bool(log["first"])
                row["verdict"] += bool(log["verdict"])
                continue
            row["recognised"] += bool(log["first"])
            j = judged.get(log["file"])
            if not log["first"] or not j:
                continue
            if j.get("explain_id") != log["first"]["id"]:
                row["stale"] += 1
            else:
                row[j["verdict"]] += 1
                # round 22 on: the judge also says whether the first answer names the thread's cause at all, whatever
                # its fix order (the gap between the two is what explain orders wrongly, not what it does not know)
                if "cause" in j:
                    row["cause_judged"] += 1
                    row["cause_right"] += j["cause"] == "right"
    return table


def print_table(table: dict, splits: list[str], judged: bool) -> None:
    """One row per split and layer; "right first" only for splits that have judgements."""
    read = {split for (split, _), row in table.items() if row["right"] + row["wrong"] + row["stale"]}
    # "cause first" only where every current judgement says whether the cause was named
    causes = {split for split in read if table[(split, "*")]["cause_judged"] == table[(split, "*")]["right"] + table[(split, "*")]["wrong"]}
    head = f"{'split':8} {'layer':17} {'logs':>5} {'recognised':>11}"
    head += f" {'right first':>12} {'wrong':>6} {'stale':>6} {'unread':>6}" if judged else ""
    head += f" {'cause first':>12}" if causes else ""
    head += f" {'negatives claimed':>18} {'verdicts':>9}"
    print(head)
    for split in splits:
        for layer in ["*"] + LAYERS:
            row = table.get((split, layer))
            if not row:
                continue
            env = row["logs"] if layer != "negative" else 0
            if layer == "*":
                env = row["logs"] - table.get((split, "negative"), collections.Counter())["logs"]
            cells = f"{split:8} {('all' if layer == '*' else layer):17} {row['logs']:>5}"
            cells += f" {row['recognised']:>4}/{env:<4} {pct(row['recognised'], env):>3}" if env else f" {'-':>11}"
            if judged:
                unread = row["recognised"] - row["right"] - row["wrong"] - row["stale"]
                cells += (f" {row['right']:>4}/{env:<4}{pct(row['right'], env):>3}"
                          f" {row['wrong']:>6} {row['stale']:>6} {unread:>6}") if env and split in read else f" {'-':>12} {'':>6} {'':>6} {'':>6}"
            if causes:
                cells += f" {row['cause_right']:>4}/{env:<4}{pct(row['cause_right'], env):>3}" if env and split in causes \
                    else f" {'-':>12}"
            neg = table.get((split, "negative")) if layer == "*" else (row if layer == "negative" else None)
            if neg:
                cells += f" {neg['claimed_negative']:>9}/{neg['logs']:<8} {neg['verdict']:>9}"
            print(cells)


def pct(a: int, b: int) -> str:
    return f"{round(100 * a / b)}%" if b else "-"


def print_sample(logs: list[dict], n: int, seed: int) -> None:
    rng = random.Random(seed)
    for log in rng.sample(logs, min(n, len(logs))):
        print(f"--- {log['file']}  [{log['split']}, {log['layer']}]  {log['source']}")
        print(f"    expected: {log['cause']}" + (f"; fix: {log['fix']}" if log["fix"] else ""))
        if log["first"]:
            a = log["first"]
            print(f"    explain:  {a['id']}: {a['title']}")
            print(f"              first fix: {first_fix_line(a)}")
        elif log["verdict"]:
            print(f"    explain:  {log['verdict']} (not an environment problem)")
        else:
            print("    explain:  nothing recognised")


def answer_key(log: dict) -> tuple:
    """What a judge reads of the first answer: the id, title, cause and fix (the same key means the same verdict)."""
    first = log.get("first") or {}
    return tuple(first.get(k) for k in ("id", "title", "cause", "fix"))


def changed_since(logs: list[dict], path: str) -> set[str]:
    """The files whose first answer differs from the one recorded in ``path`` (an earlier ``--json`` output),
    or that it does not have."""
    with open(path, encoding="utf-8") as f:
        before = {r["file"]: r for r in json.load(f)}
    return {log["file"] for log in logs if log["file"] not in before or answer_key(before[log["file"]]) != answer_key(log)}


def print_template(logs: list[dict], judged: dict | None = None, changed: set[str] | None = None) -> None:
    """A judgement file to fill in: one entry per recognised environment log. With ``changed`` (the files whose
    first answer changed since an earlier run), the other logs carry their row from ``judged`` unchanged, so only
    the changed answers are judged again."""
    out = {}
    for log in logs:
        if log["layer"] == "negative" or not log["first"]:
            continue
        if changed is not None and log["file"] not in changed and log["file"] in (judged or {}):
            out[log["file"]] = judged[log["file"]]
            continue
        out[log["file"]] = {"explain_id": log["first"]["id"], "verdict": "right or wrong", "cause": "right or wrong",
                            "note": f"expected {log['cause']}; got {log['first']['title']}"}
    yaml.safe_dump({"judged": out}, sys.stdout, sort_keys=False, allow_unicode=True, width=200)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=SPLITS + list(SEALED) + list(TUNING) + ["all"], default="all")
    ap.add_argument("--sample", type=int, default=0, help="print N logs at random: expected cause beside explain's")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--judged", help="YAML of right/wrong judgements (see the module doc)")
    ap.add_argument("--template", action="store_true", help="print a judgement file to fill in and stop")
    ap.add_argument("--json", action="store_true", help="one record per log on stdout")
    ap.add_argument("--since", help="an earlier --json output: count the first answers that changed since; with "
                                    "--template and --judged, carry the unchanged logs' rows and leave the changed to judge")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)

    logs = load_corpus(sealed=args.split if args.split in SEALED else None,
                       tuning=args.split if args.split in TUNING else None)
    splits = SPLITS if args.split == "all" else [args.split]
    logs = [log for log in logs if log["split"] in splits]
    score(logs, args.jobs)
    changed = changed_since(logs, args.since) if args.since else None
    if args.template:
        print_template(logs, load_judged(args.judged), changed)
        return 0
    if args.json:
        json.dump([{k: v for k, v in log.items() if k != "path"} for log in logs], sys.stdout, indent=1)
        print()
        return 0
    judged = load_judged(args.judged)
    print_table(tally(logs, judged), splits, bool(judged))
    if changed is not None:
        print(f"first answers changed since {os.path.basename(args.since)}: {len(changed)} of {len(logs)} logs")
    if args.sample:
        print()
        print_sample(logs, args.sample, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
