"""JSON: the changes as data, for tools and CI scripts."""

from __future__ import annotations

from ..infra.jsonout import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["quote", "render"]


def quote(value: str) -> str:
    """Quote ``value`` as a JSON string."""
    return dumps(value)


def render(plan: Plan) -> str:
    """``{"set": {NAME: VALUE}, "unset": [NAME], "notes": [...]}``."""
    doc = {
        "set": {c[1]: c[2] for c in plan.changes if c[0] == "set"},
        "unset": [c[1] for c in plan.changes if c[0] == "unset"],
        "notes": list(plan.notes),
    }
    return dumps(doc) + "\n"
