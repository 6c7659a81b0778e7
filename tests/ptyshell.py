"""A real interactive shell on a pseudo-terminal, driven one command line at a time.

The shell reads its rc file, prints its prompt and runs its prompt hooks as at
a terminal (bash's PROMPT_COMMAND, zsh's precmd/chpwd). The rc file must set
the prompt to :data:`PROMPT`: after each line typed, :meth:`PtyShell.run`
waits until the next prompt has been printed, which is after every hook of
that prompt has run (an event, not a sleep).
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time

PROMPT = "<@cudaenv-test-prompt@>"


class PtyShell:
    """``argv`` (an interactive shell) on a pty; ``run(line)`` types a line and waits for the next prompt.

    Args:
        argv: The shell command line.
        env: Its environment.
        cwd: Its starting directory.
        timeout: Seconds one line (or the start) may take before TimeoutError.
    """

    def __init__(self, argv: list[str], env: dict, cwd: str, timeout: float = 120) -> None:
        self.master, slave = pty.openpty()
        # Wide, so that no line editor redraws (and so repeats) the prompt for a long line.
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 1000, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.timeout = timeout
        self.output = b""
        self._seen = 0
        self._wait_prompt()

    def _wait_prompt(self) -> None:
        mark = PROMPT.encode()
        deadline = time.monotonic() + self.timeout
        while self.output.count(mark) <= self._seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no prompt within {self.timeout}s; last output:\n{self.text()[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the shell has gone
                data = b""
            if not data:
                raise EOFError(f"the shell ended; last output:\n{self.text()[-3000:]}")
            self.output += data
        self._seen = self.output.count(mark)

    def run(self, line: str) -> None:
        """Type ``line`` and Enter; return once the shell shows its next prompt."""
        os.write(self.master, line.encode() + b"\r")
        self._wait_prompt()

    def text(self) -> str:
        """Everything the terminal showed so far."""
        return self.output.decode("utf-8", "replace")

    def close(self) -> None:
        """End the shell (``exit``; killed if it does not go within 10 s)."""
        try:
            os.write(self.master, b"exit\r")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            os.close(self.master)
