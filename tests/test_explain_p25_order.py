"""Round 25, the order of answers (helper p25-order): ranking principles for the census class K-order (the right
cause named, but not first).

- One fix that clears every error of the log beats a fix for one of them (errors.yaml `clears`, ordered in one place:
  matcher._clearing_first). tensorflow/tensorflow#1346 (fresh24 x08): gcc 5.3.0 on Arch with CUDA 7.5 broke glibc's
  string.h (__mempcpy_inline's memcpy) and gcc's mwaitxintrin.h (__builtin_ia32_monitorx) in nvcc's host pass. The
  string.h error comes first in the log, and its entry's first fix, -D_FORCE_INLINES, clears only that one; a gcc and
  CUDA pair NVIDIA supports (gcc 4.9 for CUDA 7.5, what the thread did) clears both, so nvcc.host_headers_unsupported
  now leads and its answer names the pair first.
- Near misses keep their order: string.h alone (hasindu2008/f5c#36, fresh19 s12) is still -D_FORCE_INLINES first, the
  MWAITX builtins alone (amazon-archives/amazon-dsstne#28, fresh24 x06) keep their own answer, and an entry whose
  `clears` names nothing found keeps its rank, line and knowledge-base order.

Each log text is copied from the thread named above it."""

from __future__ import annotations

import re

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.matcher import _clearing_first
from cudaenv.knowledge.kb import load_entries
from explain_answers import hostile_line

# https://github.com/tensorflow/tensorflow/issues/1346 (fresh24 x08)
X08 = (
    "/usr/include/string.h: In function 'void* __mempcpy_inline(void*, const void*, size_t)':\n"
    "/usr/include/string.h:652:42: error: 'memcpy' was not declared in this scope\n"
    "     return (char *) memcpy (__dest, __src, __n) + __n;\n"
    "\n"
    "/usr/lib/gcc/x86_64-unknown-linux-gnu/5.3.0/include/mwaitxintrin.h(36): error: identifier "
    "\"__builtin_ia32_monitorx\" is undefined\n"
    "\n"
    "/usr/lib/gcc/x86_64-unknown-linux-gnu/5.3.0/include/mwaitxintrin.h(42): error: identifier "
    "\"__builtin_ia32_mwaitx\" is undefined\n"
    "\n"
    "2 errors detected in the compilation of \"/tmp/tmpxft_00006c12_00000000-7_avgpooling_op_gpu.cu.cpp1.ii\".\n"
)

# https://github.com/hasindu2008/f5c/issues/36 (fresh19 s12): string.h alone
F5C = (
    "/usr/include/string.h: In function \u2018void* __mempcpy_inline(void*, const void*, size_t)\u2019:\n"
    "/usr/include/string.h:652:42: error: \u2018memcpy\u2019 was not declared in this scope\n"
    "   return (char *) memcpy (__dest, __src, __n) + __n;\n"
)

# https://github.com/amazon-archives/amazon-dsstne/issues/28 (fresh24 x06): the MWAITX builtins alone
DSSTNE = (
    "/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier \"__builtin_ia32_monitorx\" "
    "is undefined\n\n"
    "/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(42): error: identifier \"__builtin_ia32_mwaitx\" "
    "is undefined\n"
)


def env(text: str) -> list:
    return [m for m in explain(text) if m.environment]


def test_one_fix_for_both_host_headers_leads():
    ms = env(X08)
    assert [m.id for m in ms] == ["nvcc.host_headers_unsupported", "nvcc.glibc_string_h_force_inlines"]
    first = ms[0]
    assert "fail twice" in first.title and "gcc 5's" in first.title
    lead = first.fix.splitlines()[0]
    assert lead.startswith("Build with a gcc and CUDA pair NVIDIA supports") and "gcc 4.9" in lead
    assert "CUDA 8.0 or newer, made for gcc 5" in lead
    assert "-D_FORCE_INLINES -D_MWAITXINTRIN_H_INCLUDED" in first.fix.splitlines()[1]
    # the line each answer points at is still its own
    assert (first.line, ms[1].line) == (5, 1)


def test_the_order_does_not_depend_on_the_entries_order_in_the_log():
    # the mwaitx lines first, string.h after: the same answer leads, with its own line
    parts = X08.split("\n\n", 1)
    ms = env(parts[1] + "\n" + parts[0] + "\n")
    assert ms[0].id == "nvcc.host_headers_unsupported" and "fail twice" in ms[0].title


def test_near_miss_string_h_alone_keeps_force_inlines_first():
    ms = env(F5C)
    assert [m.id for m in ms] == ["nvcc.glibc_string_h_force_inlines"]
    assert ms[0].fix.startswith("Add `-D_FORCE_INLINES`")


def test_near_miss_mwaitx_alone_keeps_its_own_answer():
    ms = env(DSSTNE)
    assert [m.id for m in ms] == ["nvcc.host_headers_unsupported"]
    assert "fail twice" not in ms[0].title
    assert "-D_FORCE_INLINES" not in ms[0].fix


def test_clearing_first_leaves_other_hits_in_rank_line_and_kb_order():
    a = {"id": "a", "clears": ["x"]}
    b = {"id": "b"}
    c = {"id": "c", "rank": 1}
    hits = [(0, 3, 5, a), (0, 1, 9, b), (1, 0, 2, c)]
    assert [h[3]["id"] for h in sorted(hits, key=_clearing_first(hits))] == ["b", "a", "c"]
    x = {"id": "x"}
    hits.append((0, 2, 1, x))
    assert [h[3]["id"] for h in sorted(hits, key=_clearing_first(hits))] == ["b", "a", "x", "c"]
    # a cleared entry of a lower rank (a consequence) does not pull the clearing cause past another cause
    hits = [(0, 3, 5, a), (0, 1, 9, b), (1, 0, 1, x)]
    assert [h[3]["id"] for h in sorted(hits, key=_clearing_first(hits))] == ["b", "a", "x"]


def test_clears_names_known_entries():
    entries = load_entries()
    ids = {e["id"] for e in entries}
    for e in entries:
        for other in e.get("clears", ()):
            assert other in ids and other != e["id"], (e["id"], other)


def test_the_variant_pattern_holds_on_hostile_input():
    entry = next(e for e in load_entries() if e["id"] == "nvcc.host_headers_unsupported")
    when = next(v["when"] for v in entry["variants"] if "string" in str(v["when"].get("text", "")))
    rx = re.compile(when["text"])
    for literal in ("string.h:1:1: error: ", "string.h: In function void\\*", "memcpy was not declared "):
        assert rx.search(hostile_line(literal)) is None
    assert explain(hostile_line("string.h: In function 'void* __mempcpy_inline(")) is not None
