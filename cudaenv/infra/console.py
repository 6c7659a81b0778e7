"""The command line, in and out: code on stdout, one-line messages on stderr, and argv.

stdout carries only what the caller asked for (shell code, JSON, a table);
everything for people goes to stderr as ``cudaenv: <message>``, so
``eval "$(cudaenv use X)"`` never evaluates a message.

:func:`parse` is the one hand-written argument parser, for the commands that
run without click: ``use``, ``off``, ``list``, ``init``, ``verify`` and the
conda hooks' hidden commands run where click's import would cost more than
Python's start (every tmux pane, every conda activation, every shell start).
They accept only their plain forms here; anything else (``--help``, an
unknown option, a missing value, a repeated option) gives None and the click
CLI, which has the full parser and its messages, handles the whole command.
"""

from __future__ import annotations

import io
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..errors import CudaenvError

__all__ = ["write_out", "printable", "note", "quiet", "report_error", "parse", "GuardedStdout"]

_QUIET = [False]


def write_out(text: str) -> None:
    """Write to stdout as bytes: values from the environment may not be UTF-8.

    Raises:
        CudaenvError: stdout is closed or cannot take the text (a full disk,
            a closed pipe); stdout is then pointed at /dev/null so that
            Python's exit does not print a traceback while flushing it.
    """
    _write(sys.stdout, text)


def _write(out, text: str) -> None:
    try:
        if out is None:  # started with fd 1 closed
            raise OSError(9, "stdout is closed")
        data = text.encode("utf-8", "surrogateescape")
        buf = getattr(out, "buffer", None)
        if buf is not None:
            out.flush()
            buf.write(data)
            buf.flush()
        else:
            out.write(text)
            out.flush()
    except (OSError, ValueError) as exc:  # ValueError: the file object was closed
        from ..errors import CudaenvError

        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
        except OSError:
            pass
        why = getattr(exc, "strerror", None) or str(exc)
        raise CudaenvError(f"cannot write to stdout: {why}") from None


class GuardedStdout(io.TextIOBase):
    """``sys.stdout`` while click runs: what click prints itself (``--help``, ``--version``)
    goes through :func:`write_out`'s path, so a closed, full or broken stdout is one
    ``cannot write to stdout`` line, as for every command's own output.

    Without it click writes a closed stdout's help nowhere and exits 0, lets a full
    disk's ENOSPC out as a traceback, and exits 1 without a word on a closed pipe.
    The error it raises is a :class:`CudaenvError`, which click passes on untouched.
    No ``buffer``: click then writes here instead of going around it; it writes
    text, or (click 8.5's completion) bytes, which are taken as UTF-8.

    Args:
        real: The stdout to write to (None: it was closed at start).
    """

    encoding = "utf-8"
    errors = "surrogateescape"

    def __init__(self, real) -> None:
        super().__init__()
        self.real = real

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        # click 8.5 writes bytes here (completion answers) when it finds no binary
        # stream; earlier clicks probe with b"" and fall back to text: take both.
        if isinstance(text, (bytes, bytearray)):
            data = bytes(text)
            if data:
                _write(self.real, data.decode("utf-8", "surrogateescape"))
            return len(data)
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str or bytes, not {type(text).__name__}")
        if text:
            _write(self.real, text)
        return len(text)

    def flush(self) -> None:  # every write is flushed already
        pass

    def isatty(self) -> bool:
        try:
            return self.real is not None and self.real.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self.real is None:
            raise io.UnsupportedOperation("stdout is closed")
        return self.real.fileno()


def printable(text: str) -> str:
    """``text`` for a terminal: control characters (ESC, newline, ...) written as escapes.

    A toolkit path or a value from the environment must not move the cursor,
    recolour the terminal or split a one-line message.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _line(message: str) -> None:
    sys.stderr.write(f"cudaenv: {printable(message)}\n")
    sys.stderr.flush()


def note(message: str) -> None:
    """One line on stderr (control characters escaped); nothing after :func:`quiet`."""
    if not _QUIET[0]:
        _line(message)


def quiet(on: bool = True) -> None:
    """``--quiet``: :func:`note` prints nothing from now on in this process; errors still do."""
    _QUIET[0] = on


def report_error(exc: CudaenvError) -> int:
    """Print ``exc`` as one stderr line (also when :func:`quiet`) and return its exit code."""
    _line(f"{exc.message}; hint: {exc.hint}" if exc.hint else exc.message)
    return exc.exit_code


def parse(argv: list[str], flags: Mapping[str, str] = {}, values: Mapping[str, str] = {},  # noqa: B006 - read only
          max_words: int | None = None, dashdash: bool = False) -> tuple[dict, list[str]] | None:
    """Split ``argv`` into options and words.

    Args:
        argv: The arguments after the command name.
        flags: Option -> key of a flag (``{"--json": "json"}``); a flag's value is True.
        values: Option -> key of an option taking a value, as ``--opt V`` or ``--opt=V`` (``-o V`` for a
            short one: click reads ``-o=V`` as the value ``=V``, so that is not a plain form).
        max_words: At most this many words (None: any number).
        dashdash: ``--`` ends the options (every later argument is a word).

    Returns:
        (options given, by key; words), or None when anything is not a plain form.
    """
    opts: dict = {}
    words: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--" and dashdash:
            words.extend(argv[i:])
            break
        if a.startswith("-"):
            name, eq, value = a.partition("=")
            if a in flags:
                key, value = flags[a], True
            elif name in values and (not eq or name.startswith("--")):
                if not eq:
                    if i >= len(argv):
                        return None
                    value = argv[i]
                    i += 1
                key = values[name]
            else:
                return None
            if key in opts:
                return None
            opts[key] = value
            continue
        words.append(a)
    if max_words is not None and len(words) > max_words:
        return None
    return opts, words
