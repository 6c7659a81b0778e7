"""Run a command with its stderr (or all output) on a pseudo-terminal of a given size, and read the screen.

The screen is a real terminal emulator's (pyte, a VT100/xterm emulator, from the test extra):
it wraps a line wider than the terminal onto the next row and moves the cursor as a terminal
does, so what the tests read is what a person sees.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time

import pyte

__all__ = ["run_on_pty", "Screen", "ESC"]

ESC = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


class Screen:
    """A terminal of ``cols`` × ``lines`` fed with what a program wrote."""

    def __init__(self, cols: int, lines: int) -> None:
        self.screen = pyte.Screen(cols, lines)
        self.stream = pyte.ByteStream(self.screen)

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)

    def rows(self) -> list[str]:
        """The non-empty rows shown now (trailing blanks removed)."""
        return [r.rstrip() for r in self.screen.display if r.strip()]


def run_on_pty(argv: list[str], env: dict, cols: int, lines: int = 100, timeout: float = 300,
               stdout_too: bool = False, on_chunk=None) -> tuple[int, bytes, str]:
    """Run ``argv`` with stderr (and stdout with ``stdout_too``) on a ``cols``-wide pty.

    ``on_chunk(data)`` is called with every piece read from the terminal, in order.

    Returns:
        (exit status, everything the terminal received, stdout when it was a pipe).
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, cols, 0, 0))
    env = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave if stdout_too else subprocess.PIPE,
                            stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    out = proc.stdout
    chunks, piped = [], []
    deadline = time.monotonic() + timeout
    fds = [master] + ([out] if out is not None else [])
    while fds:
        left = deadline - time.monotonic()
        if left <= 0:
            proc.kill()
            raise TimeoutError(f"{argv} did not end within {timeout} s")
        ready, _, _ = select.select(fds, [], [], left)
        for fd in ready:
            if fd is master:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: every writer closed the terminal
                    data = b""
                if not data:
                    fds.remove(master)
                    continue
                chunks.append(data)
                if on_chunk:
                    on_chunk(data)
            else:
                data = os.read(out.fileno(), 65536)
                if not data:
                    fds.remove(out)
                    continue
                piped.append(data)
    proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    os.close(master)
    return proc.returncode, b"".join(chunks), b"".join(piped).decode("utf-8", "replace")
