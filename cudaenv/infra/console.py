"""What cudaenv writes to the terminal: code on stdout, one-line messages on stderr.

stdout carries only what the caller asked for (shell code, JSON, a table);
everything for people goes to stderr as ``cudaenv: <message>``, so
``eval "$(cudaenv use X)"`` never evaluates a message.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..errors import CudaenvError

__all__ = ["write_out", "note", "report_error"]


def write_out(text: str) -> None:
    """Write to stdout as bytes: values from the environment may not be UTF-8."""
    out = sys.stdout
    data = text.encode("utf-8", "surrogateescape")
    buf = getattr(out, "buffer", None)
    if buf is not None:
        out.flush()
        buf.write(data)
        buf.flush()
    else:
        out.write(text)
        out.flush()


def note(message: str) -> None:
    """One line on stderr."""
    sys.stderr.write(f"cudaenv: {message}\n")
    sys.stderr.flush()


def report_error(exc: CudaenvError) -> int:
    """Print ``exc`` as one stderr line and return its exit code."""
    note(f"{exc.message}; hint: {exc.hint}" if exc.hint else exc.message)
    return exc.exit_code
