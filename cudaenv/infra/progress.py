"""The one progress display on stderr, for install and verify.

On a terminal a block of rows (one per running download or step, and a total)
is kept at the bottom and redrawn in place: every row is cut to the terminal's
width (less one column, so that no row wraps and moves the cursor), and the rows
drawn last are erased before anything else is written and when the display
closes. Off a terminal (a CI log, a pipe) nothing is redrawn: the callers say
what happens as plain lines (:meth:`Display.line`).

Rows are rebuilt by a caller-supplied function so that they always fit the
width at the moment they are drawn (a terminal resized in between included).
"""

from __future__ import annotations

import sys
import threading
import time

from .term import cells, fit, is_tty, width

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Mapping, TextIO

__all__ = ["Display", "bar"]


def bar(frac: float, n: int) -> str:
    """``[####----]`` of ``n`` cells (at least the brackets)."""
    inner = max(0, n - 2)
    fill = int(max(0.0, min(1.0, frac)) * inner)
    return "[" + "#" * fill + "-" * (inner - fill) + "]"


class Display:
    """Rows redrawn in place on a terminal; plain lines everywhere.

    Thread-safe: every method takes the lock (``rows`` is called with it held).

    Args:
        rows: Called with the usable width (columns); returns the rows to show now.
        stream: Where to write (default: stderr).
        tty: Redraw (default: whether ``stream`` is a terminal).
        env: Where ``COLUMNS`` is read (default: ``os.environ``).
        interval: Least seconds between two redraws that are not forced.
        enabled: False (``--quiet``): nothing is ever written.
    """

    def __init__(self, rows: Callable[[int], list[str]] | None = None, stream: TextIO | None = None,
                 tty: bool | None = None, env: Mapping[str, str] | None = None, interval: float = 0.1,
                 enabled: bool = True) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and (is_tty(self.stream) if tty is None else tty)
        self.env = env
        self.rows = rows or (lambda _w: [])
        self.interval = interval
        self.lock = threading.RLock()
        self._drawn: list[int] = []  # cells of each row on the screen now
        self._last = 0.0

    def columns(self) -> int:
        """The terminal's width now (80 when it cannot be told)."""
        return width(self.stream, self.env) or 80

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stderr: progress is not worth an error
            pass

    def _clear(self) -> None:
        if not self._drawn:
            return
        cols = self.columns()
        # A terminal made narrower since the draw wraps the old rows: count the lines they take now.
        up = sum(max(1, -(-w // cols)) for w in self._drawn)
        self._write(f"\r\x1b[{up}A\x1b[J")
        self._drawn = []

    def clear(self) -> None:
        """Erase the rows drawn (until the next :meth:`draw`)."""
        with self.lock:
            self._clear()

    def draw(self, force: bool = False) -> None:
        """Redraw the rows (on a terminal, at most every ``interval`` seconds unless ``force``)."""
        if not self.tty:
            return
        with self.lock:
            now = time.monotonic()
            if not force and now - self._last < self.interval:
                return
            self._last = now
            cols = self.columns()
            rows = [fit(r, cols - 1, "end") for r in self.rows(cols - 1)]
            self._clear()
            if rows:
                self._write("".join(r + "\x1b[K\n" for r in rows))
            self._drawn = [cells(r) for r in rows]

    def line(self, text: str) -> None:
        """One lasting line above the rows (``text`` without its newline)."""
        if not self.enabled:
            return
        with self.lock:
            self._clear()
            self._write(text + "\n")
            if self.tty:
                self.draw(force=True)

    def aside(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` (which writes elsewhere on the same terminal) with the rows out of the way."""
        with self.lock:
            self._clear()
            fn()
            if self.tty:
                self.draw(force=True)

    def close(self) -> None:
        """Erase the rows; the display draws nothing more unless asked again."""
        with self.lock:
            self._clear()
