"""The modulefile formats by ``--format`` name: one renderer object each (add a format: a module and a line here)."""

from __future__ import annotations

from .lua import LUA
from .module import FORMATS
from .tcl import TCL

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Renderer

__all__ = ["RENDERERS"]

RENDERERS: dict[str, Renderer] = {r.fmt: r for r in (LUA, TCL)}
assert tuple(RENDERERS) == FORMATS
