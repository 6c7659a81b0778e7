"""Round 26, the practice corpus (helper p26-pcorpus): the logs the practice helpers of rounds 24 and 25 collected
to tune on are a set of the repo, tests/data/explain_corpus/practice/ (its schema and its place among the other sets
are checked in tests/test_explain_corpus_data.py). Here: what explain does with it.

- The forbidden mistake stays absent: each practice negative (a program bug, fixed in the program) that explain does
  not claim today gets no environment cause. Four practice negatives are claimed today (build bugs of the program's
  own CMake or binary whose symptom is the environment's: p002, p014, p038, p040); they are listed, so a claim on a
  new one fails here and the four are not forgotten.
- Recognised does not fall: at least 62 of the 65 environment logs get an environment answer (the figure at ccf68a1,
  written in the manifest's header as "Answers at ccf68a1"; 36 of 39 for rounds 24-25 at 89e09ec, round 26's 26 added).
- The header's answers list names every log of the set once, so it cannot drift from the manifest unnoticed."""

from __future__ import annotations

import os
import re

import pytest
import yaml

from cudaenv.knowledge.explain import explain

PRACTICE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus", "practice")

with open(os.path.join(PRACTICE, "manifest.yaml"), encoding="utf-8") as _f:
    HEADER = _f.read()
LOGS = yaml.safe_load(HEADER)["logs"]

#: Practice negatives explain claims an environment cause for at 89e09ec, and still at ccf68a1 with round 26's six
#: negatives added (the program's own build or binary is at fault, but the user-side fix the entry names also clears
#: the error). Not to grow, except by a practice log claimed on arrival: round 27's p090-p092 (a Makefile's flags that
#: brought in nvcc's gcc check, a crate's build.rs calling nvcc wrongly, a library's CMake that did not device-link),
#: whose lines are the environment causes' own.
CLAIMED_NEGATIVES = {"p002", "p014", "p038", "p040", "p090", "p091", "p092"}


def log_text(item: dict) -> str:
    with open(os.path.join(PRACTICE, item["file"]), encoding="utf-8") as f:
        return f.read()


NEGATIVES = [i for i in LOGS if i["layer"] == "negative" and i["file"][:4] not in CLAIMED_NEGATIVES]


@pytest.mark.parametrize("item", NEGATIVES, ids=[i["file"][:-4] for i in NEGATIVES])
def test_practice_negatives_get_no_environment_claim(item: dict) -> None:
    found = explain(log_text(item))
    assert not [m.id for m in found if m.environment], (item["file"], item["source"], [m.id for m in found])


def test_the_claimed_negatives_are_negatives_of_the_set() -> None:
    negatives = {i["file"][:4] for i in LOGS if i["layer"] == "negative"}
    assert CLAIMED_NEGATIVES <= negatives and len(negatives) >= 21


def test_practice_environment_logs_stay_recognised() -> None:
    env = [i for i in LOGS if i["layer"] != "negative"]
    missed = [i["file"] for i in env if not [m for m in explain(log_text(i)) if m.environment]]
    assert len(env) - len(missed) >= 62, missed


def test_the_header_lists_each_logs_answer_once() -> None:
    assert re.search(r"^# Answers at [0-9a-f]{7,40} ", HEADER, re.M)
    listed = re.findall(r"(?<=[#\s])(p\d{3}) (?=\S)", HEADER.split("\nlogs:\n")[0])
    assert listed == [i["file"][:4] for i in LOGS]
