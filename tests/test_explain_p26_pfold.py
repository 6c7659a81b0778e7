"""Round 26, the practice fold (helper p26-pfold): the logs round 26's three practice helpers collected (p26-pa the
build side, p26-pb the run side, p26-pc a user's day) join tests/data/explain_corpus/practice/ as p055-p086, under the
rules its header states. Here: the fold's own shape, so a later fold cannot renumber or lose it unnoticed.

- p055-p086 come from the three round-26 helpers, in their order (pa, then pb, then pc), each name the helper's file
  name after its two-digit number.
- Every log the helpers saved and the fold left out is named in the header's "Left out" list with its thread, so
  the 37 are accounted for: 32 kept + 5 listed.
- Round 26's environment logs all get an environment answer (the figure at ccf68a1: 26 of 26; each was tuned on by
  its helper), and its six program-bug negatives get none."""

from __future__ import annotations

import os
import re

import yaml

from cudaenv.knowledge.explain import explain

PRACTICE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus", "practice")

with open(os.path.join(PRACTICE, "manifest.yaml"), encoding="utf-8") as _f:
    HEADER = _f.read()
LOGS = yaml.safe_load(HEADER)["logs"]
ROUND26 = [i for i in LOGS if i["from"].startswith("p26-")]

#: How many logs each round-26 helper saved, and which of them the fold left out (two-digit numbers).
SAVED = {"p26-pa": 13, "p26-pb": 11, "p26-pc": 13}
LEFT_OUT = {"p26-pa": {"04", "05", "09"}, "p26-pb": {"10"}, "p26-pc": {"03"}}


def log_text(item: dict) -> str:
    with open(os.path.join(PRACTICE, item["file"]), encoding="utf-8") as f:
        return f.read()


def test_round_26_is_p055_to_p086_in_helper_order() -> None:
    assert [i["file"][:4] for i in ROUND26] == [f"p{n:03d}" for n in range(55, 87)]
    froms = [i["from"] for i in ROUND26]
    assert froms == sorted(froms) and set(froms) == set(SAVED)
    assert all(i["split"] == "practice" for i in ROUND26)


def test_every_saved_log_is_kept_or_listed_as_left_out() -> None:
    listed = re.findall(r"^#   (p26-p[abc])/(\d{2})-[a-z0-9-]+\.log \(([\w.-]+/[\w.-]+/issues/\d+)\): \S",
                        HEADER.split("\nlogs:\n")[0], re.M)
    assert {(h, n) for h, n, _ in listed} == {(h, n) for h, ns in LEFT_OUT.items() for n in ns}
    for helper, saved in SAVED.items():
        kept = [i for i in ROUND26 if i["from"] == helper]
        assert len(kept) + len(LEFT_OUT[helper]) == saved, helper
    left_threads = {t for _, _, t in listed}
    assert not any(i["source"].split("github.com/")[-1] in left_threads for i in LOGS)


def test_round_26_environment_logs_answer_and_negatives_do_not() -> None:
    env = [i for i in ROUND26 if i["layer"] != "negative"]
    negatives = [i for i in ROUND26 if i["layer"] == "negative"]
    assert len(env) == 26 and len(negatives) == 6
    missed = [i["file"] for i in env if not [m for m in explain(log_text(i)) if m.environment]]
    assert not missed, missed
    claimed = [(i["file"], [m.id for m in explain(log_text(i)) if m.environment]) for i in negatives]
    assert not [c for c in claimed if c[1]], claimed
