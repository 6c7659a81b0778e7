"""tcsh/csh: ``setenv``/``unsetenv``, every command ended by ``;``.

``eval "`cudaenv use X`"`` joins our lines with spaces, hence the ``;``.
Inside single quotes csh still expands history (``!``), so ``!`` leaves the
quotes as ``'\\!'``; ``'`` becomes ``'\\''``. A newline cannot be quoted in a
way that survives the backquote, so it is refused.
"""

from __future__ import annotations

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["quote", "render"]


def quote(value: str) -> str:
    """Quote ``value`` for csh/tcsh.

    Raises:
        CudaenvError: the value holds a newline.
    """
    if "\n" in value or "\r" in value:
        raise CudaenvError(f"cannot express {value!r} in csh/tcsh: it contains a newline", exit_code=2)
    return "'" + value.replace("'", "'\\''").replace("!", "'\\!'") + "'"


def render(plan: Plan) -> str:
    """csh code for ``plan``."""
    lines = []
    for ch in plan.changes:
        if ch[0] == "set":
            lines.append(f"setenv {ch[1]} {quote(ch[2])};")
        else:
            lines.append(f"unsetenv {ch[1]};")
    if plan.path_changed:
        lines.append("rehash;")
    return "".join(line + "\n" for line in lines)
