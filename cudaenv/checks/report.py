"""Findings as text for people (JSON goes through jsonout)."""

from __future__ import annotations

from ..infra.console import printable
from ..infra.term import paint
from . import Finding

__all__ = ["render_findings", "worst"]

_LABEL = {"ok": "ok", "info": "info", "warn": "WARN", "fail": "FAIL", "skip": "skip"}
_STYLE = {"ok": "green", "info": "dim", "warn": "yellow", "fail": "red", "skip": "dim"}
_RANK = {"ok": 0, "skip": 0, "info": 1, "warn": 2, "fail": 3}


def worst(findings: list[Finding]) -> str:
    """The most severe status among ``findings`` (``ok`` if none)."""
    return max((f.status for f in findings), key=lambda s: _RANK[s], default="ok")


def render_findings(findings: list[Finding], verbose: bool = False, colour: bool = False) -> str:
    """One line per finding; detail and fix under warnings and failures; ``colour``: status words coloured."""
    width = max((len(f.id) for f in findings), default=10)
    lines = []
    for f in findings:
        # A toolkit path or an environment value inside a finding must not drive the terminal.
        label = paint(f"{_LABEL[f.status]:<4}", _STYLE[f.status], colour)
        lines.append(f"  {label}  {f.id:<{width}}  {printable(f.summary)}")
        if f.status in ("warn", "fail") or verbose:
            if f.detail:
                lines.append(f"        {'':<{width}}  {printable(f.detail)}")
            if f.fix:
                lines.append(f"        {'':<{width}}  fix: {printable(f.fix)}")
    return "\n".join(lines) + "\n"
