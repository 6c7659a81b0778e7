"""Toolkits: what is installed, where, which version, with which parts."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Sequence

    from .types import Identity

__all__ = ["version_key", "family", "wheel_site", "release_label", "same_release", "rank_key"]


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


# ---------------------------------------------------------------- one identity per toolkit
# Here, not in version.py, because `use 12.4` ranks its candidates with them on every call.

#: Sources whose ``full`` is the release label (``13.0.2``), not a component's number (nvcc's ``13.0.88``).
_RELEASE_SOURCES = ("version.json", "dist-info (cuda-toolkit)")


def release_label(full: str, source: str, nvcc: str | None) -> str | None:
    """The release label a toolkit's version is (``12.4.1``), or None when it is a component's number.

    ``version.json`` without a ``cuda`` entry falls back on nvcc's own number, and a toolkit
    known from ``cuda.h`` + metadata or ``nvcc --version`` has only nvcc's (``13.0.88``):
    that number and a release label (``13.0.2``) are not comparable.
    """
    return full if source in _RELEASE_SOURCES and full != nvcc else None


def same_release(a: Identity, b: Identity) -> bool:
    """Whether two toolkits (``full_version``, ``version_source``, ``nvcc_version``) are one release.

    Like with like: two release labels are compared; otherwise nvcc's numbers when both are
    known; otherwise the two versions as given.
    """
    la = release_label(a["full_version"], a["version_source"], a["nvcc_version"])
    lb = release_label(b["full_version"], b["version_source"], b["nvcc_version"])
    if la and lb:
        return la == lb
    if a["nvcc_version"] and b["nvcc_version"]:
        return a["nvcc_version"] == b["nvcc_version"]
    return a["full_version"] == b["full_version"]


def rank_key(peers: Sequence[Identity]) -> Callable[[Identity], tuple[tuple[tuple[int, str], ...], ...]]:
    """The key that orders ``peers`` newest last, comparing like with like.

    Release labels (``13.0.2``) and nvcc's numbers (``13.0.88``) are different scales: when any
    of the peers has no release label, they are ranked by major.minor then nvcc's number (when
    every one has it); release labels alone are compared as they are.
    """
    labels = [release_label(t["full_version"], t["version_source"], t["nvcc_version"]) for t in peers]
    if all(labels) or not all(t["nvcc_version"] for t in peers):
        return lambda t: (version_key(t["full_version"]),)
    return lambda t: (version_key(t["full_version"])[:2], version_key(t["nvcc_version"]))
