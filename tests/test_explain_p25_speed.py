"""Round 25 (speed): what kb.py now stores with the knowledge base, so a short ``explain`` does not work it out again,
and the prefilter that keeps a long log from being searched whole by a pattern without a literal.

- Each pattern's form widened over wrapped lines (``text.wrap_form``) and its literal's longest inner word
  (``text.inner_word``) are stored with the entries: the matcher seeds its tables from them and answers as it does
  when it works them out itself (entries given by hand, an older store).
- A pattern searched without a literal (a top-level alternation) keeps the literals one of which its every match holds
  (``text.any_literals``, which variants' text patterns already use); a long log holding none of them is not searched
  by it, and answers the same.
- The store's key holds text.py's and kb.py's own size and time, so a changed rule stores the forms again."""

from __future__ import annotations

import os

import pytest

from cudaenv.knowledge import kb
from cudaenv.knowledge.explain import matcher, text
from cudaenv.knowledge.explain.matcher import _Compiled, explain
from cudaenv.knowledge.explain.text import any_literals, inner_word, literal_clauses, required_literal, wrap_form

_STORED = ("_literals", "_wraps", "_longest", "_any", "_fold", "_all")


def _bare(entries: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in _STORED} for e in entries]


def _logs() -> list[str]:
    build = [f"[{i}/400] /usr/local/cuda-12.4/bin/nvcc -I/usr/include -O3 -gencode=arch=compute_80,code=sm_80 "
             f"-c /src/kernels/x{i}.cu -o x{i}.cuda.o" for i in range(400)]
    missing = build[:200] + ["/opt/torch/include/ATen/cuda/CUDAContext.h:6:10: fatal error: cusparse.h: No such file "
                             "or directory"] + build[200:] + ["ninja: build stopped: subcommand failed."]
    undefined = build[:300] + ["/usr/bin/ld: x.o: undefined reference to `_ZN3c104cuda20getCurrentCUDAStreamEa'",
                               "collect2: error: ld returned 1 exit status"]
    wrapped = build[:300] + ["ImportError: /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so:",
                             "undefined symbol: _ZN3c104cuda9SetDeviceEi"]
    return ["\n".join(missing), "\n".join(undefined), "\n".join(wrapped),
            "/usr/bin/ld: cannot find -lcudart", "RuntimeError: CUDA error: out of memory",
            "ImportError: libcudnn.so.8: cannot open shared\nobject file: No such file or directory"]


def _answers(matches: list) -> list[tuple]:
    return [(m.id, m.title, m.cause, m.fix) for m in matches]


def test_the_stored_forms_are_the_matchers_own():
    entries = kb.load_entries()
    stored, bare = _Compiled(entries), _Compiled(_bare(entries))
    assert stored._wraps and stored._longest and stored.alternatives
    for e in entries:
        assert len(e["_wraps"]) == len(e["_longest"]) == len(e["_any"]) == len(e["patterns"]), e["id"]
        for p, n in zip(e["patterns"], e["_literals"]):
            assert n == required_literal(p)
            assert stored._wraps[p] == bare.wrapped(p) == wrap_form(p, n), p
            if n:
                assert stored._longest[p] == bare.longest_inner(p, n) == inner_word(n), p


def test_the_alternatives_are_those_of_the_form_searched_without_a_literal():
    for e in kb.load_entries():
        for p, n, w, alts in zip(e["patterns"], e["_literals"], e["_wraps"], e["_any"]):
            if n is not None and (w is None or w[1] is not None):
                assert alts is None, p  # always searched with a literal: nothing to keep
            else:
                assert alts == any_literals(w[0] if w else p, 8), p  # re.MULTILINE, as the matcher compiles it


def test_the_folded_literals_are_those_of_a_case_blind_form_searched_without_a_literal():
    folded = 0
    for e in kb.load_entries():
        assert len(e["_fold"]) == len(e["patterns"]), e["id"]
        for p, w, alts, fold in zip(e["patterns"], e["_wraps"], e["_any"], e["_fold"]):
            if alts is not None or fold is None:
                continue
            folded += 1
            assert fold == literal_clauses(w[0] if w else p, 8, fold=True), p
    assert folded >= 3  # the case-blind patterns searched whole are there: the check is not vacuous


def test_stored_and_worked_out_forms_answer_the_same():
    entries = kb.load_entries()
    bare = _bare(entries)
    for log in _logs():
        assert _answers(explain(log)) == _answers(explain(log, bare)), log[-120:]


@pytest.fixture
def searched(monkeypatch) -> list[str]:
    """The patterns the matcher searches (each scan's pattern, in order), recorded from here on."""
    got: list[str] = []
    real = matcher.scan

    def scan(rx, needle, t):
        got.append(rx.pattern)
        return real(rx, needle, t)

    monkeypatch.setattr(matcher, "scan", scan)
    return got


def test_a_long_log_without_the_alternatives_is_not_searched_by_their_pattern(searched):
    kb_ = matcher._knowledge(None)
    log = _logs()[0]
    explain(log)
    t = text.LogText(log)
    skipped = [p for p, alts in kb_.alternatives.items() if not any(a in log for a in alts)]
    assert skipped
    for p in skipped:
        w = kb_.wrapped(p)
        assert (w[0] if w else p) not in searched, p
    # and one whose literal the log holds is searched
    p = skipped[0]
    searched.clear()
    explain(log + "\nsee " + kb_.alternatives[p][0])
    w = kb_.wrapped(p)
    assert (w[0] if w else p) in searched, p
    assert not t.has(kb_.alternatives[p][0])


def test_the_store_key_holds_the_code_that_made_the_forms():
    key, _ = kb._stored(kb.KB_PATH)
    assert key is not None
    code = tuple((s.st_size, s.st_mtime_ns) for s in map(os.stat, (text.__file__, kb.__file__)))
    assert key[-1] == code


def test_derives_patterns_compile_when_used_and_all_are_valid():
    """derive.py's module-level patterns (lazyre) are compiled on first use; each still compiles, with its flags, to
    what re.compile gives (a bad one would otherwise fail only in the log that reaches it)."""
    import re

    from cudaenv.knowledge.explain import derive, lazyre

    lazy = {name: v for name, v in vars(derive).items() if isinstance(v, lazyre._Lazy)}
    assert len(lazy) > 50
    for name, rx in lazy.items():
        pattern, flags = rx._args
        assert (rx.pattern, rx.flags) == (re.compile(pattern, flags).pattern, re.compile(pattern, flags).flags), name
    assert lazyre.compile(r"a(b)").search("xab").group(1) == "b"


def test_a_case_blind_pattern_is_not_searched_in_a_long_ascii_log_without_its_words(searched):
    """[r32] A case-blind pattern searched whole (no literal of its own) is ruled out by its literals lower-cased
    (kb.py's ``_fold``); a log holding them in any case is searched and answered; a log that is not all ASCII is
    always searched (case-blind matching there is wider than lower-casing)."""
    kb_ = matcher._knowledge(None)
    log = _logs()[0]
    p = next(p for p, sets in kb_.folded.items() if ("resources",) in sets and ("launch",) in sets)
    w = kb_.wrapped(p)
    form = w[0] if w else p
    explain(log)
    assert form not in searched
    searched.clear()
    loud = log + "\nCUDA ERROR: TOO MANY RESOURCES REQUESTED FOR LAUNCH"
    got = explain(loud)
    assert form in searched
    assert any(m.line == len(loud.splitlines()) for m in got)  # the upper-case line is still answered
    searched.clear()
    explain(log + "\nnote: ünïcode ｔｅｘｔ")
    assert form in searched


def test_every_literal_a_pattern_needs_is_stored_as_its_words():
    """[r33] kb.py's ``_all``: for every pattern, the sets of literals its every match holds one of each
    (``literal_clauses``), each literal as its words."""
    stored = 0
    for e in kb.load_entries():
        assert len(e["_all"]) == len(e["patterns"]), e["id"]
        for p, needed in zip(e["patterns"], e["_all"]):
            assert needed == kb._word_clauses(literal_clauses(p, 8)), p
            stored += needed is not None
    assert stored > 1000  # most patterns have them: the check is not vacuous


def test_a_candidate_whose_other_literals_are_absent_is_not_searched(searched):
    """[r33] A pattern whose literal a long log holds, and some other literal every match needs it does not, is
    neither compiled nor searched; with that literal's words added (on a wrapped line, too) it is searched and
    answered."""
    kb_ = matcher._knowledge(None)
    log = _logs()[0]
    t = text.LogText(log)
    explain(log)
    candidates = [p for p, n in kb_.needles.items() if n and t.has(n) and p in kb_.needed
                  and not all(any(all(map(t.has, words)) for words in c) for c in kb_.needed[p])]
    assert candidates
    for p in candidates:
        w = kb_.wrapped(p)
        assert (w[0] if w else p) not in searched and p not in searched, p
    # TensorRT's header: "No such file or directory" is in the build (cusparse.h), NvInfer.h is not
    p = next(p for p in candidates if "NvInfer" in p)
    searched.clear()
    got = explain(log + "\n/src/trt.cpp:3:10: fatal error: NvInfer.h: No such file or directory")
    assert ((kb_.wrapped(p) or [p])[0] in searched or p in searched) and "build.tensorrt_header_missing" in [m.id for m in got]
