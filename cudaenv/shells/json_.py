"""JSON: the changes as data, for tools and CI scripts (``--shell json``, ``--format json``)."""

from __future__ import annotations

from ..infra.jsonout import dumps
from .base import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["Json", "SHELL", "quote"]


def quote(value: str) -> str:
    """Quote ``value`` as a JSON string."""
    return dumps(value)


class Json(Output):
    """``{"set": {NAME: VALUE}, "unset": [NAME], "notes": [...]}``."""

    name = "json"

    def quote(self, value: str) -> str:
        return quote(value)

    def render(self, plan: Plan) -> str:
        doc = {
            "set": {c.name: c.value for c in plan.changes if c.op == "set"},
            "unset": [c.name for c in plan.changes if c.op == "unset"],
            "notes": list(plan.notes),
        }
        return dumps(doc) + "\n"


SHELL = Json()
