"""No knowledge or data file repeats a key in one mapping.

YAML keeps the last of two equal keys without a word: round 15's merge gave two explain entries two ``derive`` keys
each (one from each helper), and one of each pair was silently dropped. Every YAML file the package ships is read
here as a node tree, before any loader flattens it, and each mapping's keys are compared.
"""

from __future__ import annotations

import glob
import os

import pytest
import yaml

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cudaenv")
FILES = sorted(glob.glob(os.path.join(PACKAGE, "**", "*.yaml"), recursive=True))


def repeated_keys(text: str) -> list[tuple[int, str]]:
    """(line, key) for every key a mapping holds twice (YAML merge keys ``<<`` aside)."""
    out, stack = [], [yaml.compose(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                    if key.value in seen:
                        out.append((key.start_mark.line + 1, key.value))
                    seen.add(key.value)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return out


def test_the_package_ships_its_tables():
    names = {os.path.relpath(f, PACKAGE) for f in FILES}
    assert {"knowledge/errors.yaml", "knowledge/components.yaml", "data/compat.yaml"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, PACKAGE))
def test_no_mapping_repeats_a_key(path):
    with open(path, encoding="utf-8") as f:
        assert repeated_keys(f.read()) == []


def test_the_check_sees_a_repeated_key():
    text = "entries:\n  - id: a\n    derive: one\n    patterns: [x]\n    derive: two\n"
    assert repeated_keys(text) == [(5, "derive")]
    assert repeated_keys("a: &x {b: 1}\nc:\n  <<: *x\n  d: 2\n") == []


#: (entry, capture) pairs whose `when` on a capture that one of the entry's patterns never makes matches the empty
#: string, checked by hand: runtime.cuda_library_not_found's onnxruntime variants also need `major`, which its one
#: pattern without `name` never yields.
EMPTY_WHEN_ALLOWED = {("runtime.cuda_library_not_found", "name")}


def test_no_variant_takes_a_missing_capture_for_a_match():
    """[r36] A variant's `when` on a capture only some of the entry's patterns make must not match "": a log matched by
    another pattern would get the variant, its placeholder unfilled (round 36's first DKMS-tree variant, `dkms_drv:
    '^(?!390...)'`, answered fresh26 z65 with "{dkms_drv}" in its title)."""
    import re

    from cudaenv.knowledge.kb import load_entries

    found = set()
    for e in load_entries():
        pats = [re.compile(p) for p in e.get("patterns", [])]
        defaults = set(e.get("defaults") or {})
        for v in e.get("variants") or []:
            for key, rx in (v.get("when") or {}).items():
                having = [p for p in pats if key in p.groupindex]
                if (isinstance(rx, str) and key not in defaults and having and len(having) < len(pats)
                        and re.search(rx, "")):
                    found.add((e["id"], key))
    assert found <= EMPTY_WHEN_ALLOWED, sorted(found - EMPTY_WHEN_ALLOWED)
