"""The :mod:`re` module, except that :func:`compile` compiles on first use.

derive.py holds about ninety module-level patterns, each read only by the derive function of a few entries; compiling
them all when it is imported was a sixth of a short ``explain``'s own time, for the one or two a log needs. derive.py
imports this module as ``re``, and so do the other modules of explain with patterns of their own (matcher, generic,
text, extract, cudanames, translated, symbols: their 33 module-level patterns were 17 ms of every ``explain``'s start,
round 35); everything else is :mod:`re`'s own. A pattern compiled here is used through its
attributes (``rx.search(...)``, ``rx.pattern``), never handed to a function of :mod:`re` as a pattern."""

from __future__ import annotations

import re as _re
from re import (ASCII, DOTALL, UNICODE, VERBOSE, A, I, IGNORECASE, M, MULTILINE, S, U, X, Match, Pattern, error, escape,
                findall, finditer, fullmatch, match, search, split, sub, subn)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: explain's start does without it
    from typing import Any

__all__ = ["ASCII", "DOTALL", "UNICODE", "VERBOSE", "A", "I", "IGNORECASE", "M", "MULTILINE", "S", "U", "X", "Match",
           "Pattern", "compile", "error", "escape", "findall", "finditer", "fullmatch", "match", "search", "split", "sub",
           "subn"]


class _Lazy:
    """A pattern compiled when one of its attributes is first read (then every attribute is the compiled one's).

    Each attribute read is kept in the instance's own dictionary, so the next read of it (``rx.sub`` once per line of
    a 10 000-line log) is an ordinary attribute look-up, not a call of :meth:`__getattr__`: going through it every time
    cost a long log a fifth of its time."""

    __slots__ = ("_args", "_rx", "__dict__")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._rx: Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        rx = self._rx
        if rx is None:
            rx = self._rx = _re.compile(*self._args)
        value = self.__dict__[name] = getattr(rx, name)  # a compiled pattern's attributes never change
        return value

    def __repr__(self) -> str:
        return f"lazyre.compile({self._args[0]!r}, {self._args[1]})"


def compile(pattern: str, flags: int = 0) -> Pattern[str]:  # noqa: A001 (re's own name)
    """``re.compile(pattern, flags)``, compiled when first used."""
    return _Lazy(pattern, flags)  # type: ignore[return-value]  # it stands for the compiled pattern
