"""``cudaenv explain``: what CUDA error messages mean and how to fix them."""

from __future__ import annotations

import os
import stat
import sys

from ..errors import CudaenvError
from ..infra.console import note, write_out
from ..infra.jsonout import dumps
from ..knowledge.explain import explain, render_text

__all__ = ["explain_command", "read_log", "Log", "HEAD", "TAIL", "STREAM_MAX"]

#: How much of a large log is explained: its first HEAD and its last TAIL bytes. A real
#: build log is at most tens of MB and its errors are usually near the end (ninja stops
#: at the first failure, pip prints the failed build's output last); matching costs
#: about 0.2 s per MB, so 16 MiB answers in a few seconds where 1 GB took minutes.
HEAD = 4 << 20
TAIL = 12 << 20
#: A log is read no further than this (``explain - </dev/zero`` ends); a regular file
#: larger than that is not read through: its end is read after a seek.
STREAM_MAX = 256 << 20
_CHUNK = 1 << 20


def _size(n: int) -> str:
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << k:
            v = n / (1 << k)
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


class Log:
    """What was read of a log: the text to explain and how it maps to the input's lines.

    Attributes:
        text: The input, or its first :data:`HEAD` and last :data:`TAIL` bytes joined
            at whole lines when it is larger.
        head_lines: Lines of ``text`` that are the input's own first lines (all of
            them when nothing was left out).
        shift: What to add to the number of a later line of ``text`` to get its line
            in the input (None: unknown, the middle was not read).
        window: What was explained, when not the whole input: "the first 4 MiB and the
            last 12 MiB of the input (20.5 MiB)" (None: the whole input).
    """

    __slots__ = ("text", "head_lines", "shift", "window")

    def __init__(self, text: str, head_lines: int, shift: int | None, window: str | None) -> None:
        self.text, self.head_lines, self.shift, self.window = text, head_lines, shift, window

    def line(self, n: int) -> int:
        """The input's line number for line ``n`` of :attr:`text`."""
        if n <= self.head_lines:
            return n
        # Unknown shift: the note says later lines count from where the tail starts.
        return n + self.shift if self.shift is not None else n - self.head_lines


def _read_upto(f, n: int) -> bytes:
    """Up to ``n`` bytes (fewer only at the end of the input)."""
    parts, got = [], 0
    while got < n:
        b = f.read(min(_CHUNK, n - got))
        if not b:
            break
        parts.append(b)
        got += len(b)
    return b"".join(parts)


def read_log(f, head: int = HEAD, tail: int = TAIL, stream_max: int = STREAM_MAX) -> Log:
    """Read a log from the binary file ``f``, bounded in time and memory.

    Up to ``head + tail`` bytes are read whole. Beyond that the first ``head`` and
    the last ``tail`` bytes are kept, cut at line ends, and the lines in between are
    counted so that line numbers stay the input's. Reading stops after ``stream_max``
    bytes: a pipe or a device (``/dev/zero``) is left there, a regular file larger
    than that has its end read after a seek (its middle is then not counted).

    Raises:
        OSError: reading failed.
    """
    regular, pos, size = False, 0, 0
    try:
        st = os.fstat(f.fileno())
        if stat.S_ISREG(st.st_mode):
            regular, size, pos = True, st.st_size, f.tell()
    except (OSError, ValueError, AttributeError):  # no fd (a test's BytesIO), or not seekable
        pass
    first = _read_upto(f, head)
    kept: list[bytes] = []  # the last chunks read, at most `tail` bytes past the first
    kept_len = 0
    skipped = skipped_nl = 0  # bytes and line ends left out between head and tail
    total = len(first)
    stopped = seeked = False
    if len(first) == head:
        if regular and size - pos - head > stream_max:
            # Not worth reading through: its end, after a seek (line numbers there unknown).
            f.seek(max(pos + head, size - tail))
            kept = [_read_upto(f, tail)]
            kept_len = len(kept[0])
            seeked = True
        while not seeked:
            b = f.read(_CHUNK)
            if not b:
                break
            total += len(b)
            kept.append(b)
            kept_len += len(b)
            while kept_len - len(kept[0]) >= tail:
                drop = kept.pop(0)
                kept_len -= len(drop)
                skipped += len(drop)
                skipped_nl += drop.count(b"\n")
            if total >= stream_max:
                stopped = True
                break
    last = b"".join(kept)
    if len(last) > tail:
        drop, last = last[:-tail], last[-tail:]
        skipped += len(drop)
        skipped_nl += drop.count(b"\n")
    if not (skipped or seeked):
        data = first + last
        return Log(_decode(data), data.count(b"\n") + 1, 0, None)
    # Cut both parts at line ends: a partial line would be a message cut in two.
    k = first.rfind(b"\n")
    if k >= 0:
        first = first[:k]  # the line end itself joins the parts below
    j = last.find(b"\n")
    if 0 <= j < len(last) - 1:
        skipped_nl += last[:j].count(b"\n") + 1
        last = last[j + 1:]
    head_lines = first.count(b"\n") + 1
    # The tail's first line in the input: after the head's line ends and the skipped ones.
    shift = None if seeked else (first.count(b"\n") + (1 if k >= 0 else 0) + skipped_nl + 1) - (head_lines + 1)
    text = _decode(first) + "\n" + _decode(last)
    h, t = _size(head), _size(tail)
    if stopped:
        window = f"the first {h} and the last {t} of the input's first {_size(stream_max)} (reading stopped there)"
    elif seeked:
        window = (f"the first {h} and the last {t} of the input ({_size(size - pos)}; "
                  f"lines after line {head_lines} are numbered from 1 where the last {t} start)")
    else:
        window = f"the first {h} and the last {t} of the input ({_size(total)})"
    return Log(text, head_lines, shift, window)


def _decode(data: bytes) -> str:
    # A build log may hold bytes that are not UTF-8 (paths, compiler output in
    # another locale); they must not stop the errors around them being found.
    return data.decode("utf-8", "replace")


def _read_stdin() -> Log:
    stdin = sys.stdin
    if stdin is None:  # started with fd 0 closed
        raise CudaenvError("cannot read stdin: it is closed",
                           hint="pipe a log (cudaenv explain - < build.log) or paste a message", exit_code=2)
    try:
        buf = getattr(stdin, "buffer", None)
        if buf is not None:
            return read_log(buf)
        log = read_log(_TextAsBytes(stdin))
        return log
    except (OSError, ValueError) as exc:  # ValueError: the file object was closed
        why = getattr(exc, "strerror", None) or str(exc)
        raise CudaenvError(f"cannot read stdin: {why}") from None


def _read_file(path: str) -> Log:
    """The log in the regular file ``path`` (``cudaenv explain build.log``), read like stdin.

    Opened without blocking and checked on the open descriptor, so a name swapped for a FIFO or a
    device after the caller's look is refused rather than waited on or read forever.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CudaenvError(f"cannot read {path}: {exc.strerror}", exit_code=2) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CudaenvError(f"cannot read {path}: not a regular file", exit_code=2)
        try:
            return read_log(f)
        except OSError as exc:
            raise CudaenvError(f"cannot read {path}: {exc.strerror or exc}", exit_code=2) from None


def _names_a_file(text: tuple[str, ...]) -> bool:
    """One argument that names an existing regular file: a log to read, not a message."""
    return len(text) == 1 and text[0] != "-" and "\n" not in text[0] and os.path.isfile(text[0])


class _TextAsBytes:
    """A text stream (a replaced sys.stdin without ``buffer``) read as bytes."""

    def __init__(self, f) -> None:
        self.f = f

    def fileno(self) -> int:
        raise OSError("no file descriptor")

    def read(self, n: int) -> bytes:
        return self.f.read(n).encode("utf-8", "surrogateescape")


def _is_tty(f) -> bool:
    try:
        return f.isatty()
    except (OSError, ValueError):
        return False


def explain_command(text: tuple[str, ...] | list[str], as_json: bool, host: bool = True,
                    python: str | None = None) -> int:
    """Explain the words given (one message), a log file, or stdin (``-``, a pipe); exit 1 when nothing is known.

    A large input is explained by its first and last megabytes (see :func:`read_log`),
    which one note on stderr says.

    Args:
        text: The message's words, ``("-",)`` for stdin, or one existing file's name: the log in it.
        as_json: Print the matches as JSON.
        host: Also name what this machine has that answers each message (installed
            toolkits, the active profile, the driver, the user's torch); False answers
            from the text alone, the same on every machine.
        python: The interpreter whose torch the answers look at (default ``python3`` on PATH).

    Raises:
        CudaenvError: nothing to read, or stdin or the file cannot be read.
    """
    text = tuple(text)
    log = None
    if text == ("-",) or (not text and sys.stdin is not None and not _is_tty(sys.stdin)):
        log = _read_stdin()
        source = log.text
        what = "the input"
    elif _names_a_file(text):
        log = _read_file(text[0])
        source = log.text
        what = text[0]
    elif text:
        source = " ".join(text)
        what = "the message"
    else:
        closed = " (stdin is closed)" if sys.stdin is None else ""
        raise CudaenvError(
            f"nothing to explain{closed}",
            hint='paste a message (cudaenv explain "…") or pipe a log (cudaenv explain - < build.log)',
            exit_code=2,
        )
    if not source.strip():
        note("nothing to explain: the input is empty")
        return 1
    matches = explain(source)
    window = log.window if log is not None else None
    if not matches:
        if window:  # one line: what was read is part of the verdict
            note(f"no known error in {window}; `cudaenv check` looks at this machine instead")
            return 1
        n = source.count("\n") + (0 if source.endswith("\n") else 1) if source else 0
        lines = f" ({n} lines)" if n > 1 else ""
        note(f"no known error in {what}{lines}; `cudaenv check` looks at this machine instead")
        return 1
    if log is not None and log.window:
        for m in matches:
            m.line = log.line(m.line)
            if m.first_error is not None:
                m.first_error = (log.line(m.first_error[0]), m.first_error[1])
    if host:
        _tie_to_host(matches, python)
    if window:
        note(f"explained {window}: a log's errors are usually near its end")
    if as_json:
        write_out(dumps([m.to_dict() for m in matches]) + "\n")
        return 0
    multi = "\n" in source.strip("\n")
    write_out(render_text(matches, numbered_lines=multi))
    return 0


def _tie_to_host(matches: list, python: str | None) -> None:
    """Add the answers that name this machine's facts (see :mod:`cudaenv.knowledge.here`). The machine's modules are
    imported here: `explain --no-host`, and a log no host answer serves, start without them."""
    from ..context import Context
    from ..knowledge.here import answer_here, gather_host, host_needs

    needs = host_needs(matches)
    if not needs:
        return
    ctx = Context()
    notes: list[str] = []
    facts = gather_host(ctx, needs, python=python, notes=notes)
    ctx.save()
    for n in notes:
        note(n)
    answer_here(matches, facts)
