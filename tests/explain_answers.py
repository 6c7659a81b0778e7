"""One assertion for "explain answers this text by its cause", shared by the explain tests."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.text import LONG, MAX_LINE


def first_fix_line(fix: str) -> str:
    """The first line of a fix that holds anything."""
    return next(line for line in fix.splitlines() if line.strip())


def first_environment_answer(text: str):
    """``explain(text)``'s first environment answer (the test fails when there is none)."""
    found = [m for m in explain(text) if m.environment]
    assert found, ("no environment answer", text[:200])
    return found[0]


def assert_first_answer(text: str, want_id: str, want_fix: str, where: str = "", verdicts: bool = False):
    """``explain(text)``'s first environment answer (``verdicts``: its first answer, which may be a
    program-bug verdict, and then nothing in the environment is claimed beside it) is ``want_id``, the
    first line of its fix holds ``want_fix``, no placeholder is left unfilled and the fix pastes (no
    ``<…>``). ``where`` names the input in failure messages. Returns the answer."""
    found = explain(text)
    answers = found if verdicts else [m for m in found if m.environment]
    assert answers and answers[0].id == want_id, (where, [m.id for m in found])
    m = answers[0]
    assert want_fix in first_fix_line(m.fix), (where, first_fix_line(m.fix))
    assert "{" not in m.title + m.cause + m.fix.replace("${", "").replace('{"', ""), m.to_dict()
    assert not re.search(r"<[^<>\s]*>", m.fix), m.fix  # fixes paste
    if not m.environment:
        assert not [f.id for f in found if f.environment], [f.id for f in found]
    return m


def first_answer_tests(cases: list[tuple[str, str | None, str]], verdicts: bool = False):
    """The test of a file of real excerpts: ``cases`` are ``(text, want_id, want_fix)``, one test each (named by
    its id and place), asserting :func:`assert_first_answer`. A module says ``test_first_answer =
    first_answer_tests(CASES)``."""
    @pytest.mark.parametrize("text,want_id,want_fix", cases, ids=[f"{c[1]}-{n}" for n, c in enumerate(cases)])
    def test(text: str, want_id: str, want_fix: str) -> None:
        assert_first_answer(text, want_id, want_fix, where=text[:80], verdicts=verdicts)
    return test


def program_bug_tests(texts: list[str]):
    """The test that each of ``texts`` (a program bug, often beside a place or a tool explain also reads) gets a
    program-bug verdict first and no environment cause beside it. A module says ``test_program_bugs_stay_verdicts =
    program_bug_tests(NEGATIVES)``."""
    @pytest.mark.parametrize("text", texts)
    def test(text: str) -> None:
        found = explain(text)
        assert found and not found[0].environment, [m.id for m in found]
        assert not [m.id for m in found if m.environment], [m.id for m in found]
    return test


def unbounded_repeats(pattern: str) -> list[list]:
    """Each repeat of ``pattern`` with no upper bound (``*``, ``+``, ``{n,}``), as the parsed items it repeats,
    lookarounds included (Python 3.11+: ``re._parser``)."""
    import re._parser as sre_parse
    from re._constants import ASSERT, ASSERT_NOT, BRANCH, MAX_REPEAT, MAXREPEAT, MIN_REPEAT, SUBPATTERN

    def walk(tree) -> list[list]:
        out = []
        for op, av in tree:
            if op in (MAX_REPEAT, MIN_REPEAT):
                _lo, hi, sub = av
                if hi == MAXREPEAT:
                    out.append(list(sub))
                out += walk(sub)
            elif op == SUBPATTERN:
                out += walk(av[-1])
            elif op == BRANCH:
                for b in av[1]:
                    out += walk(b)
            elif op in (ASSERT, ASSERT_NOT):
                out += walk(av[1])
        return out

    return walk(sre_parse.parse(pattern))


def unbounded_beyond_blanks(pattern: str, blanks: str = " \t") -> list[list]:
    """The unbounded repeats of ``pattern`` that repeat anything but blanks (``\\s``, or a class of ``\\s`` and the
    characters ``blanks``): a pattern the hostile-input tests keep cheap on long lines repeats only those."""
    from re._constants import CATEGORY, CATEGORY_SPACE, IN, LITERAL

    def blank_run(sub: list) -> bool:
        if len(sub) != 1:
            return False
        op, av = sub[0]
        if op == IN:
            return all((o == CATEGORY and a == CATEGORY_SPACE) or (o == LITERAL and chr(a) in blanks) for o, a in av)
        return op == CATEGORY and av == CATEGORY_SPACE

    return [sub for sub in unbounded_repeats(pattern) if not blank_run(sub)]


def hostile_line(literal: str, length: int = 200_000) -> str:
    """One line of ``length`` characters made of ``literal`` over and over: longer than text.LONG, so explain searches
    it only within text.MAX_LINE of each place a pattern's literal occurs (a new pattern's worst case, held without
    timing anything)."""
    line = (literal * (length // len(literal) + 1))[:length]
    assert len(line) > LONG > MAX_LINE
    return line
