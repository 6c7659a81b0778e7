"""Toolkits: what is installed, where, which version, with which parts."""

from __future__ import annotations

import os

__all__ = ["version_key", "family", "wheel_site"]


def version_key(v: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key for dotted numeric versions (non-numeric parts sort first)."""
    out = []
    for p in v.split("."):
        out.append((1, int(p), "") if p.isdigit() else (0, 0, p))
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
