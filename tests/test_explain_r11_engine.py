"""Issue 18, round 11, the engine: what every answer may claim, and wrapped lines.

Class B, wrapped lines: browsers, terminals, issue templates and documentation wrap long lines anywhere, so a
message arrives as ``...so: undefined`` / `` symbol: _ZN...``. A literal space between two words of a pattern also
matches a line break and the next line's indentation (``text.wrapping``), and the literal the pattern is found by
stays one that every wrapped match holds.

Excerpts are verbatim from the threads or pages named above them, trimmed.
"""

from __future__ import annotations

import re

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain, required_literal
from cudaenv.knowledge.explain.text import wrapping
from cudaenv.knowledge.kb import load_entries

CASES = [
    # https://github.com/Dao-AILab/flash-attention/issues/950 (fresh11 f04: the flash-attn 2.5.8 wheel, built against a
    # newer torch than the 2.1.2 installed; the message wrapped inside "undefined symbol")
    ("ENV\n- torch                     2.1.2\n- flash-attn                2.5.8 \n- cuda 11.7\n\nERROR\n"
     "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined\n symbol: _ZN3c104impl3cow11cow_deleterEPv",
     "torch.extension_abi", "Install the extension's build made for your torch version"),
    # https://github.com/talmolab/sleap/blob/develop/docs/installation.md (TensorFlow's loader message as the page
    # prints it, wrapped twice; the page's fix puts the conda environment's lib on LD_LIBRARY_PATH)
    ("W tensorflow/stream_executor/platform/default/dso_loader.cc:64 Could not load dynamic\n"
     "library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object\n"
     "file: No such file or directory",
     "runtime.libcudart_not_found", "CUDA 11.x toolkit's libraries on the loader path"),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("pattern,wrapped", [
    ("so: undefined symbol: (?P<s>\\w+)", "so:(?: |\\n[ \\t]*)undefined(?: |\\n[ \\t]*)symbol:(?: |\\n[ \\t]*)(?P<s>\\w+)"),
    ("device \\d+ was", "device(?: |\\n[ \\t]*)\\d+(?: |\\n[ \\t]*)was"),
    ("(?<=-isystem )foo bar", "(?<=-isystem )foo(?: |\\n[ \\t]*)bar"),  # not inside a look-behind
    ("[a-z ] x", None),  # not in a character class, nor after one that is not repeated
    ("a\\ b", None),  # not an escaped space
    ("foo b?ar", None),  # not before a quantified character
    ("no-space", None),
])
def test_wrapping_widens_spaces_between_words_only(pattern, wrapped):
    assert wrapping(pattern) == wrapped
    if wrapped:
        re.compile(wrapped)


def test_every_wrapped_pattern_compiles_and_keeps_a_literal_each_of_its_matches_holds():
    """The widened form of every knowledge-base pattern compiles, matches whatever the pattern matches, and its own
    literal (the scan's needle when the pattern's literal is not in the text whole) is in every wrapped match."""
    for e in load_entries():
        for p in e["patterns"]:
            w = wrapping(p)
            if w is None:
                continue
            rx = re.compile(w, re.MULTILINE)
            needle = required_literal(w)
            for example in e["examples"]:
                m = re.search(p, example)
                if m:
                    assert rx.search(example), (p, example)
                wrapped = re.sub(r"(?<=[A-Za-z0-9]) (?=[A-Za-z0-9])", "\n  ", example, count=1)
                got = rx.search(wrapped)
                if got and needle:
                    assert needle in got.group(0), (w, needle, wrapped)


def test_a_wrapped_message_is_found_where_the_unwrapped_one_is():
    """Each entry's examples, wrapped at their first space between two words, are still answered by the entry (the
    wrap may fall anywhere in the message: inside the literal it is found by, or outside it)."""
    missed = []
    for e in load_entries():
        for example in e["examples"]:
            if "\n" in example or not explain(example) or explain(example)[0].id != e["id"]:
                continue
            for k in (1, 2):
                spots = [m.start() for m in re.finditer(r"(?<=[A-Za-z0-9]) (?=[A-Za-z0-9])", example)]
                if len(spots) < k:
                    continue
                at = spots[-k]
                wrapped = example[:at] + "\n    " + example[at + 1:]
                if e["id"] not in [m.id for m in explain(wrapped)]:
                    missed.append((e["id"], wrapped))
    assert len(missed) <= 0.05 * sum(len(e["examples"]) for e in load_entries()), missed[:20]


def test_a_line_break_between_unrelated_lines_is_not_bridged_beyond_three_lines():
    log = "nvcc fatal : Unsupported gpu\n\n\n\n\narchitecture 'compute_30'"
    assert "nvcc.unsupported_arch" not in [m.id for m in explain(log)]
