"""What the terminal is: its width, whether to colour, and text cut to fit it.

The one place that asks. Rules (the common ones, as ``ls``, git and pip follow them):

- **Width**: ``COLUMNS`` when it is a positive number (a user's override, as
  :func:`shutil.get_terminal_size` reads it), else the terminal's own size
  (``TIOCGWINSZ`` on the stream), else 80. Not a terminal: no limit (None).
- **Colour**: never when ``NO_COLOR`` is set to anything but the empty string
  (https://no-color.org); else always when ``FORCE_COLOR`` or ``CLICOLOR_FORCE``
  is set and not ``0``; else only when the stream is a terminal and ``TERM`` is
  not ``dumb``.
- **Cutting**: a row that is too wide loses text in its middle (``/usr/lo…/cu13``),
  where the least telling part of a path is; widths are counted in terminal cells
  (East Asian wide characters take two).

Light on purpose (no re, no json): ``list`` uses it on the fast path.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping, Sequence

__all__ = ["is_tty", "width", "colour", "paint", "cells", "fit", "fit_table", "ELLIPSIS"]

ELLIPSIS = "…"

_SGR = {"green": "32", "red": "31", "yellow": "33", "dim": "2", "bold": "1"}


def is_tty(stream) -> bool:
    """Whether ``stream`` is a terminal (False for a closed or odd stream)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def width(stream, env: Mapping[str, str] | None = None, wide: bool = False) -> int | None:
    """Columns a row written to ``stream`` may use; None (no limit) off a terminal or with ``wide``."""
    if wide or not is_tty(stream):
        return None
    env = os.environ if env is None else env
    cols = env.get("COLUMNS", "")
    if cols.isdigit() and int(cols) > 0:
        return int(cols)
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (AttributeError, OSError, ValueError):
        return 80


def colour(stream, env: Mapping[str, str] | None = None) -> bool:
    """Whether to colour what goes to ``stream`` (see the module's rules)."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR"):
        return False
    for var in ("FORCE_COLOR", "CLICOLOR_FORCE"):
        if env.get(var, "") not in ("", "0"):
            return True
    return is_tty(stream) and env.get("TERM") != "dumb"


def paint(text: str, style: str, on: bool) -> str:
    """``text`` in ``style`` (green, red, yellow, dim, bold) when ``on``, else as it is."""
    return f"\x1b[{_SGR[style]}m{text}\x1b[0m" if on and text else text


def _cell(ch: str) -> int:
    if ch < "\u1100":  # everything before Hangul Jamo is one cell (combining marks aside)
        return 1
    import unicodedata

    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """Terminal cells ``text`` takes (printable text: control characters are escaped before)."""
    if text.isascii():
        return len(text)
    return sum(_cell(c) for c in text)


def _take(text: str, n: int, from_end: bool = False) -> str:
    """The longest start (or end) of ``text`` that fits in ``n`` cells."""
    if text.isascii():
        return (text[len(text) - n:] if n else "") if from_end else text[:n]
    out, used = [], 0
    for ch in (reversed(text) if from_end else text):
        w = _cell(ch)
        if used + w > n:
            break
        out.append(ch)
        used += w
    return "".join(reversed(out)) if from_end else "".join(out)


def fit(text: str, n: int | None, where: str = "middle") -> str:
    """``text`` in at most ``n`` cells: elided in the middle (paths) or at the ``end``; None: as it is."""
    if n is None or cells(text) <= n:
        return text
    if n <= 1:
        return _take(text, max(n, 0))
    if where == "end":
        return _take(text, n - 1) + ELLIPSIS
    head = (n - 1) // 2
    return _take(text, head) + ELLIPSIS + _take(text, n - 1 - head, from_end=True)


def fit_table(rows: Sequence[Sequence[str]], n: int | None, elide: Sequence[int] = (), drop: Sequence[int] = (),
              gap: int = 2, min_width: int = 8) -> list[str]:
    """Rows (the first is the header) as aligned lines of at most ``n`` cells (None: full width).

    Too wide, the table first drops the columns in ``drop`` (lowest value first), then
    elides the columns in ``elide`` in the middle, evening out the widest, down to
    ``min_width`` each; whatever is still too wide is cut at the end. The last
    column is not padded.
    """
    cols = list(range(len(rows[0]))) if rows else []

    def widths(keep: list[int]) -> dict[int, int]:
        return {i: max(cells(r[i]) for r in rows) for i in keep}

    w = widths(cols)

    def total(keep: list[int], ws: dict[int, int]) -> int:
        return sum(ws[i] for i in keep) + gap * (len(keep) - 1)

    if n is not None:
        for i in drop:
            if total(cols, w) <= n:
                break
            if i in cols:
                cols.remove(i)
        over = total(cols, w) - n
        while over > 0:
            cand = [i for i in elide if i in cols and w[i] > min_width]
            if not cand:
                break
            i = max(cand, key=lambda c: w[c])  # one cell off the widest: the columns even out
            w[i] -= 1
            over -= 1
    lines = []
    for r in rows:
        parts = []
        for k, i in enumerate(cols):
            cell = fit(r[i], w[i]) if n is not None else r[i]
            parts.append(cell if k == len(cols) - 1 else cell + " " * (w[i] - cells(cell)))
        line = (" " * gap).join(parts).rstrip()
        lines.append(fit(line, n, "end") if n is not None else line)
    return lines
