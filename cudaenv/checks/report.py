"""Findings as text for people (JSON goes through jsonout)."""

from __future__ import annotations

from ..infra.console import printable
from . import Finding

__all__ = ["render_findings", "worst"]

_LABEL = {"ok": "ok", "info": "info", "warn": "WARN", "fail": "FAIL", "skip": "skip"}
_RANK = {"ok": 0, "skip": 0, "info": 1, "warn": 2, "fail": 3}


def worst(findings: list[Finding]) -> str:
    """The most severe status among ``findings`` (``ok`` if none)."""
    return max((f.status for f in findings), key=lambda s: _RANK[s], default="ok")


def render_findings(findings: list[Finding], verbose: bool = False) -> str:
    """One line per finding; detail and fix under warnings and failures."""
    width = max((len(f.id) for f in findings), default=10)
    lines = []
    for f in findings:
        # A toolkit path or an environment value inside a finding must not drive the terminal.
        lines.append(f"  {_LABEL[f.status]:<4}  {f.id:<{width}}  {printable(f.summary)}")
        if f.status in ("warn", "fail") or verbose:
            if f.detail:
                lines.append(f"        {'':<{width}}  {printable(f.detail)}")
            if f.fix:
                lines.append(f"        {'':<{width}}  fix: {printable(f.fix)}")
    return "\n".join(lines) + "\n"
