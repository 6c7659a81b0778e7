"""Reading files cudaenv does not control: regular files only, bounded, never blocking.

A toolkit's ``version.json``, a header or a profile may be anything a user or
an installer left there: a FIFO (opening it for reading blocks until a writer
comes), ``/dev/zero`` (reading never ends), a huge file. :func:`read_limited`
opens without blocking, refuses what is not a regular file and reads at most
a given size, so discovery and profile loading can neither hang nor exhaust
memory.
"""

from __future__ import annotations

import os
import stat

__all__ = ["read_limited", "NotRegular"]


class NotRegular(OSError):
    """The path exists but is not a regular file (a FIFO, a device, a directory)."""


def read_limited(path: str, limit: int = 1 << 20) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path``.

    Raises:
        OSError: it cannot be opened or read (:class:`NotRegular` when it is
            not a regular file; ``strerror`` says so).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(0, "not a regular file", path)
        chunks = []
        left = limit
        while left > 0:
            data = os.read(fd, min(left, 1 << 16))
            if not data:
                break
            chunks.append(data)
            left -= len(data)
        return b"".join(chunks)
    finally:
        os.close(fd)
