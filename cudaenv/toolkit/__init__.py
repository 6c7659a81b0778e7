"""Toolkits: what is installed, where, which version, with which parts."""

from __future__ import annotations

import os

__all__ = ["version_key", "family", "wheel_site"]


def version_key(v: str | None) -> tuple[tuple[int, str], ...]:
    """The one sort and comparison key for dotted versions: ``12.4.127``, ``GLIBCXX_3.4.30``, ``2.5.1+cu124``.

    Each ``.``-separated part is ``(number, rest)`` when it starts with a digit
    (``127`` → ``(127, '')``, ``1+cu124`` → ``(1, '+cu124')``), else ``(-1, part)``:
    numbers compare as numbers (``11.10`` > ``11.9``), a part without a number
    sorts before any number, and a version sorts after its own prefix (``12.4``
    < ``12.4.0``). Nothing is cut off: compare at a precision by slicing
    (``version_key(a)[:2] == version_key(b)[:2]``: the same major.minor).
    ``None`` and ``''`` give ``()``; a run of more than 30 digits is not read as
    a number (hostile input must not cost ``int``'s quadratic time or its limit).
    """
    out = []
    for p in (v or "").split(".") if v else ():
        n = 0
        while n < len(p) and "0" <= p[n] <= "9":
            n += 1
        out.append((int(p[:n]), p[n:]) if 0 < n <= 30 else (-1, p))
    return tuple(out)


def family(root: str) -> str | None:
    """``13`` for a wheel toolkit root ``…/nvidia/cu13`` (``toolkit/wheels.py``); None for any other path.

    A string test only (here, not in ``wheels.py``, because every ``use`` runs
    it for every candidate: see ``probe.signature``).
    """
    parent, name = os.path.split(root.rstrip("/"))
    if name.startswith("cu") and name[2:].isdigit() and name[2:].isascii() and os.path.basename(parent) == "nvidia":
        return name[2:]
    return None


def wheel_site(root: str) -> str | None:
    """The site-packages directory holding the wheel toolkit ``root`` (``…/nvidia/cuNN``), else None."""
    if family(root) is None:
        return None
    return os.path.dirname(os.path.dirname(root.rstrip("/")))
