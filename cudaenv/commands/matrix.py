"""``cudaenv matrix``: a GitHub Actions matrix of the installed toolkits (``outputs/matrix.py``)."""

from __future__ import annotations

from ..context import Context
from ..infra.console import note, write_out
from ..outputs.matrix import matrix, render

__all__ = ["print_matrix"]


def print_matrix(lo: str | None, hi: str | None, torch: tuple[str, ...], pretty: bool) -> int:
    """Print the matrix document (compact unless ``pretty``); notes on stderr."""
    ctx = Context()
    notes: list[str] = []
    try:
        doc = matrix(ctx, lo, hi, torch, notes)
    finally:
        ctx.save()
    for n in notes:
        note(n)
    write_out(render(doc, pretty))
    return 0
