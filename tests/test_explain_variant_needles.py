"""A variant's ``text`` pattern is searched in the whole log; its literals (text.any_literals) let a long log's words
answer first. They must be sound: a pattern that matches a log has one of its literals in that log."""

from __future__ import annotations

import glob
import os

import pytest

from cudaenv.knowledge.explain import matcher
from cudaenv.knowledge.explain.text import any_literals, literal_clauses

CORPUS = os.path.join(os.path.dirname(__file__), "data", "explain_corpus")


@pytest.mark.parametrize("pattern, want", [
    # an alternation: one literal per branch (round 23's slowest variant on the 10 000-line log)
    (r"/(?:envs/[^/\s]+|(?:mini|ana)conda\d?|miniforge\d?|mambaforge)/bin/nvcc\b|\bcuda-nvcc\b",
     ("/bin/nvcc", "cuda-nvcc")),
    (r"^(?![\s\S]*?nccl-tests)[\s\S]*?foo bar", ("foo bar",)),  # a negative lookahead gives nothing
    (r"(?=[\s\S]*hello)x", ("hello",)),  # a lookahead's text is in the log too
    (r"(?:abc)+def", ("abc",)), (r"(?:abc)*d", ("d",)), (r"x?yz", ("yz",)),
    (r"(?P<lib>libcuda)\.so", ("libcuda",)),
    (r"ab|c.d", ("ab", "c")),
    (r"(?i)abc", None), (r"ab|[cd]+", None),  # case-blind; a branch without a literal
    (r"a(?i:bcd)e", ("a",)),  # the case-blind group gives nothing, the rest does
    (r"(unclosed", None),
    # a literal holding another of its branch's adds nothing; a separator most lines hold is chosen last
    (r"(?:x:|:)/(?:bin/nvcc|include)", (":",)), (r"['‘]IPlugin(?:V2|V3) (?:a|b)", ("IPluginV",)),
    (r"['‘](?:IPluginV2|PluginFormat)[’'] ", ("IPluginV2", "PluginFormat")),
])
def test_the_literals_of_a_pattern(pattern, want):
    assert any_literals(pattern) == want


@pytest.mark.parametrize("pattern, want", [
    # every set must be met: the first branch's words and the nvcc path, or the second branch's literal
    (r"/(?:envs/x|mambaforge)/bin/nvcc\b|\bcuda-nvcc\b",
     [("/", "cuda-nvcc"), ("envs/x", "mambaforge", "cuda-nvcc"), ("/bin/nvcc", "cuda-nvcc")]),
    (r"abc(?:de|fg)h", [("abc",), ("de", "fg"), ("h",)]),
    (r"(?i)abc", None), (r"ab|[cd]+", None), (r"(unclosed", None),
])
def test_the_sets_of_literals_of_a_pattern(pattern, want):
    assert literal_clauses(pattern) == want


@pytest.mark.parametrize("pattern, want", [
    (r"(?i:too many resources)", [("too many resources",)]),
    # the parser takes the branches' first letter out: "o", then either of the rest
    (r"(?i)Out of Memory|OOM\b", [("o",), ("ut of memory", "om")]),
    (r"a(?i:BCD)e", [("a",), ("bcd",), ("e",)]), (r"[a-z]+", None),
])
def test_case_blind_patterns_give_their_literals_lower_cased_when_folded(pattern, want):
    assert literal_clauses(pattern, fold=True) == want


def test_every_variant_text_pattern_that_matches_a_corpus_log_has_one_of_its_literals_there():
    kb = matcher._knowledge(None)
    patterns = [when["text"] for entry, _ in kb.entries for when, _var in kb.variants(entry["id"]) if "text" in when]
    with_literals = [(rx, kb.text_needles(rx)) for rx in patterns if kb.text_needles(rx)]
    assert len(with_literals) > len(patterns) // 2  # most have some: the check is not vacuous
    texts = [open(p, encoding="utf-8", errors="replace").read()
             for p in sorted(glob.glob(os.path.join(CORPUS, "**", "*.log"), recursive=True))]
    matched = 0
    for rx, needles in with_literals:
        for text in texts:
            if rx.search(text):
                matched += 1
                assert all(any(n in text for n in clause) for clause in needles), (rx.pattern, needles)
    assert matched > 100
