"""Every message of the producers' catalogue (tests/data/explain_producers/*.yaml: messages read from the producing
tools' source code, each with the cause it reports) gets that cause first, or nothing claimed where ``expect`` is
null. A message marked ``miss`` is a known miss: the test then expects the answer to be wrong, so a miss that
starts being answered is noticed and the mark taken away."""

from __future__ import annotations

import glob
import os
import re

import pytest
import yaml

from cudaenv.knowledge import kb
from cudaenv.knowledge.explain import explain
from explain_answers import first_fix_line

HERE = os.path.join(os.path.dirname(__file__), "data", "explain_producers")
FILES = sorted(glob.glob(os.path.join(HERE, "*.yaml")))
KEYS = {"producer", "source", "releases", "template", "text", "expect", "fix", "miss"}


def _messages():
    for path in FILES:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        for n, item in enumerate(data.get("messages") or []):
            yield pytest.param(item, id=f"{os.path.basename(path)[:-5]}-{n}-{item.get('producer')}")


MESSAGES = list(_messages())
IDS = {e["id"] for e in kb.load_entries()}


def answered(item) -> tuple[bool, str]:
    """Whether explain answers ``item`` as the catalogue says, and what it answered."""
    found = [m for m in explain(item["text"]) if m.environment]
    first = found[0] if found else None
    if item["expect"] is None:
        return first is None, first.id if first else "nothing"
    if first is None or first.id != item["expect"]:
        return False, first.id if first else "nothing"
    if item.get("fix") and item["fix"] not in first_fix_line(first.fix):
        return False, f"{first.id}: {first_fix_line(first.fix)}"
    return True, first.id


def test_catalogue_files_exist():
    assert FILES, HERE


@pytest.mark.parametrize("item", MESSAGES)
def test_message_is_well_formed(item):
    assert set(item) <= KEYS, set(item) - KEYS
    assert re.fullmatch(r"[a-z0-9][a-z0-9+._-]*", item["producer"]), item["producer"]
    # a page of the producer's source, or a program or message catalogue read on a real machine (toolchain.yaml: the
    # strings of a CUDA toolkit's binaries, binutils' and glibc's gettext catalogues)
    assert re.match(r"https://|strings of \S|(?:binutils|glibc) \S+\.mo msgid", item["source"]), item["source"]
    assert item["template"].strip() and item["text"].strip()
    if item["expect"] is not None:
        assert item["expect"] in IDS, item["expect"]


@pytest.mark.parametrize("item", MESSAGES)
def test_message_gets_its_cause(item):
    ok, got = answered(item)
    if item.get("miss"):
        assert not ok, f"marked as a miss ({item['miss']}) but answered right: take the mark away"
        return
    assert ok, (item["producer"], item["expect"], got, item["text"][:120])
