"""fish: ``set -gx``/``set -e -g``; every ``*PATH`` variable is a list.

Values are single-quoted with ``\\`` and ``'`` escaped: fish 3.4+ expands
``$(...)`` inside double quotes. Each command ends with ``;`` so that
``eval (cudaenv use X)``, which joins lines with spaces, works as well as
``cudaenv use X | source``.
"""

from __future__ import annotations

from ..env.pathlist import split

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["quote", "render"]


def quote(value: str) -> str:
    """Quote ``value`` for fish."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def render(plan: Plan) -> str:
    """Fish code for ``plan``."""
    lines = []
    for ch in plan.changes:
        if ch[0] == "unset":
            lines.append(f"set -e -g {ch[1]};")
        elif ch[1].endswith("PATH") and ch[2]:
            # fish keeps *PATH variables as lists and joins them with ':' on export.
            lines.append(f"set -gx {ch[1]} " + " ".join(quote(e) for e in split(ch[2])) + ";")
        else:
            lines.append(f"set -gx {ch[1]} {quote(ch[2])};")
    return "".join(line + "\n" for line in lines)
