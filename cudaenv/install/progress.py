"""Progress on stderr: a bar per download and an overall one on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import threading
import time

__all__ = ["Progress", "human"]


def human(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


class Progress:
    """Thread-safe progress of several downloads.

    Args:
        total: Bytes expected in all (0 when unknown).
        tty: Draw bars (default: whether stderr is a terminal).
    """

    def __init__(self, total: int, tty: bool | None = None, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.total = total
        self.done = 0
        self.files: dict[str, list] = {}  # name -> [got, size]
        self.lock = threading.Lock()
        self.lines = 0
        self.last = 0.0

    def start(self, name: str, size: int | None) -> None:
        with self.lock:
            self.files[name] = [0, size or 0]
            if not self.tty:
                self._line(f"cudaenv: fetching {name}" + (f" ({human(size)})" if size else ""))
            self._draw(force=True)

    def advance(self, name: str, n: int) -> None:
        with self.lock:
            self.files[name][0] += n
            self.done += n
            self._draw()

    def finish(self, name: str, note: str = "") -> None:
        with self.lock:
            got, size = self.files.pop(name, [0, 0])
            if not self.tty:
                self._line(f"cudaenv: {note or 'fetched'} {name}")
            else:
                self._clear()
                self._line(f"cudaenv: {note or 'fetched'} {name}")
                self._draw(force=True)

    def message(self, text: str) -> None:
        with self.lock:
            self._clear()
            self._line(f"cudaenv: {text}")
            self._draw(force=True)

    def close(self) -> None:
        with self.lock:
            self._clear()

    # -- drawing (lock held)
    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def _clear(self) -> None:
        if self.tty and self.lines:
            self.stream.write(f"\x1b[{self.lines}A\x1b[J")
            self.lines = 0

    @staticmethod
    def _bar(got: int, size: int, width: int = 24) -> str:
        frac = min(1.0, got / size) if size else 0.0
        fill = int(frac * width)
        return "[" + "#" * fill + "-" * (width - fill) + f"] {frac * 100:3.0f}%"

    def _draw(self, force: bool = False) -> None:
        if not self.tty:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        self._clear()
        rows = [f"  {name[:40]:40} {self._bar(g, s)} {human(g)}" for name, (g, s) in self.files.items()]
        rows.append(f"  {'total':40} {self._bar(self.done, self.total)} {human(self.done)} / {human(self.total)}")
        self.stream.write("\n".join(rows) + "\n")
        self.stream.flush()
        self.lines = len(rows)
