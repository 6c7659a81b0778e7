"""Install's progress on stderr: a bar per download and a total on a terminal, plain lines otherwise.

Drawn by the one display (:mod:`cudaenv.infra.progress`): every row fits the terminal's width.
"""

from __future__ import annotations

import threading

from ..infra.progress import Display, bar
from ..infra.term import fit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["Progress", "human"]


def human(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def _rows(items: list[tuple[str, int, int, str]], cols: int) -> list[str]:
    """``  name [####----]  42% amount`` rows in ``cols`` cells, aligned: the bar, then the name give way."""
    tails = [f" {(min(1.0, got / size) if size else 0.0) * 100:3.0f}% {amount}" for _n, got, size, amount in items]
    room = cols - 2 - max(len(t) for t in tails)
    barw = max(0, min(26, room - 12))  # the bar shrinks (to nothing) before the name goes below 11 cells
    if barw < 4:
        barw = 0
    name_w = max(1, min(40, room - barw - 1 if barw else room))
    out = []
    for (name, got, size, _a), tail in zip(items, tails):
        frac = min(1.0, got / size) if size else 0.0
        out.append(f"  {fit(name, name_w):{name_w}}" + (f" {bar(frac, barw)}" if barw else "") + tail)
    return out


class Progress:
    """Thread-safe progress of several downloads.

    Args:
        total: Bytes expected in all (0 when unknown).
        tty: Draw bars (default: whether stderr is a terminal).
        quiet: Show nothing (``--quiet``).
    """

    def __init__(self, total: int, tty: bool | None = None, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.total = total
        self.done = 0
        self.files: dict[str, list[int]] = {}  # name -> [got, size]
        self.lock = threading.Lock()
        self.display = Display(self._rows, stream=stream, tty=tty, enabled=not quiet)
        self.tty = self.display.tty

    def _rows(self, cols: int) -> list[str]:
        items = [(name, g, s, human(g)) for name, (g, s) in list(self.files.items())]
        items.append(("total", self.done, self.total, f"{human(self.done)} / {human(self.total)}"))
        return _rows(items, cols)

    def start(self, name: str, size: int | None) -> None:
        with self.lock:
            self.files[name] = [0, size or 0]
            if not self.tty:
                self.display.line(f"cudaenv: fetching {name}" + (f" ({human(size)})" if size else ""))
        self.display.draw(force=True)

    def advance(self, name: str, n: int) -> None:
        with self.lock:
            self.files[name][0] += n
            self.done += n
        self.display.draw()

    def finish(self, name: str, note: str = "") -> None:
        with self.lock:
            self.files.pop(name, None)
        self.display.line(f"cudaenv: {note or 'fetched'} {name}")

    def message(self, text: str) -> None:
        self.display.line(f"cudaenv: {text}")

    def close(self) -> None:
        self.display.close()
