"""bash, zsh, sh/dash, ksh: ``export``/``unset``, single-quoted values."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["quote", "render"]


def quote(value: str) -> str:
    """Quote ``value`` for any POSIX shell: single quotes, ``'`` as ``'\\''``."""
    return "'" + value.replace("'", "'\\''") + "'"


def render(plan: Plan) -> str:
    """Shell code for ``plan``; safe under ``set -u`` (we never read a variable)."""
    lines = []
    for ch in plan.changes:
        if ch[0] == "set":
            lines.append(f"export {ch[1]}={quote(ch[2])}")
        else:
            lines.append(f"unset {ch[1]}")
    if plan.path_changed:
        lines.append("hash -r")
    return "".join(line + "\n" for line in lines)
