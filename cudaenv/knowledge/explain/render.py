"""The human report of ``cudaenv explain``: per match its title, the line, cause, fix and check."""

from __future__ import annotations

import re

from .matcher import checked_by

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .matcher import Match

__all__ = ["render_text"]

_WIDTH = 100
_SHOWN_LINE = 240


def _wrap(text: str, first: str, rest: str) -> list[str]:
    """Wrap ``text`` without breaking inside `backticks` (commands stay on one line)."""
    import textwrap

    nbsp = "\u00a0"
    protected = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", nbsp), text)
    out = textwrap.wrap(protected, width=_WIDTH, initial_indent=first, subsequent_indent=rest,
                        break_long_words=False, break_on_hyphens=False)
    return [line.replace(nbsp, " ") for line in out] or [first.rstrip()]


def render_text(matches: list[Match], numbered_lines: bool = True) -> str:
    """The human report: per match its title, the line, cause, fix and check id.

    Args:
        matches: What :func:`explain` returned.
        numbered_lines: Say which line matched (pointless for a one-line message).
    """
    out: list[str] = []
    for n, m in enumerate(matches, 1):
        if out:
            out.append("")
        out.append(f"{n}. {m.title}  [{m.id}]")
        shown = m.matched if len(m.matched) <= _SHOWN_LINE else m.matched[:_SHOWN_LINE] + "…"
        where = f"line {m.line}" if numbered_lines else "matched"
        if numbered_lines and m.count > 1:
            where += f", and {m.count - 1} more"
        out.append(f"   {where}: {shown}")
        if m.first_error is not None:
            fl, ft = m.first_error
            ft = ft if len(ft) <= _SHOWN_LINE else ft[:_SHOWN_LINE] + "…"
            out.append(f"   first compiler error (line {fl}): {ft}")
        out.extend(_wrap(m.cause, "   cause: ", "          "))
        for k, line in enumerate(m.here):
            out.extend(_wrap(line, "   here:  " if k == 0 else "          ", "            "))
        for k, step in enumerate(s for s in m.fix.splitlines() if s.strip()):
            out.extend(_wrap(step.strip(), "   fix:   " if k == 0 else "          ", "            "))
        cmd = checked_by(m.check) if m.environment else None
        if m.environment and not m.commands and m.platform == "windows":
            out.append("   checked by: nothing (cudaenv runs on Linux; these are the facts for Windows)")
        elif cmd is None:
            out.append(f"   checked by: nothing, it is not an environment problem ({m.check or m.id})")
        else:
            out.append(f"   checked by: {cmd} ({m.check})")
    return "\n".join(out) + "\n" if out else ""
