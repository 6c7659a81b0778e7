"""Reading files cudaenv does not control: regular files only, bounded, never blocking.

A toolkit's ``version.json``, a header or a profile may be anything a user or
an installer left there: a FIFO (opening it for reading blocks until a writer
comes), ``/dev/zero`` (reading never ends), a huge file. :func:`read_limited`
opens without blocking, refuses what is not a regular file and reads at most
a given size, so discovery and profile loading can neither hang nor exhaust
memory. Caches (the index, verify records), manifests and the files another
tool may have put where cudaenv writes are read the same way, with
``whole=True``: a file over the limit is refused, never cut short.
"""

from __future__ import annotations

import os
import stat

__all__ = ["read_limited", "NotRegular", "TooLarge", "LD_CACHE", "LD_CACHE_MAX", "ld_cache_paths"]


class NotRegular(OSError):
    """The path exists but is not a regular file (a FIFO, a device, a directory)."""


class TooLarge(OSError):
    """The file holds more than the caller's limit (``read_limited(..., whole=True)``)."""


#: The dynamic loader's cache (``ldconfig`` writes it).
LD_CACHE = "/etc/ld.so.cache"
#: The most of it read: real caches hold some hundred kB; a larger file is read this far.
LD_CACHE_MAX = 16 << 20


def ld_cache_paths(path: str = LD_CACHE, limit: int = LD_CACHE_MAX) -> list[str]:
    """The library paths the loader's cache names, in its order; ``[]`` when it cannot be read.

    The file is not parsed as a structure (its format changed across glibc
    releases): its string table holds each library's soname and absolute path,
    NUL-terminated, and every string starting with ``/`` and holding ``.so`` is
    taken. Garbage yields no paths or paths that do not exist, which the callers
    check; a FIFO, a device or a huge file costs nothing (:func:`read_limited`).
    """
    try:
        data = read_limited(path, limit)
    except OSError:
        return []
    return [os.fsdecode(c) for c in data.split(b"\0") if c.startswith(b"/") and b".so" in c and len(c) < 4096]


def _size_text(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n & ((1 << 20) - 1) else f"{n} bytes"


def read_limited(path: str, limit: int = 1 << 20, *, whole: bool = False) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path``.

    Args:
        path: The file (symlinks are followed).
        limit: The most bytes read.
        whole: The caller needs all of it (a cache, a manifest): a file with
            more than ``limit`` bytes raises :class:`TooLarge` instead of
            being returned cut short.

    Raises:
        OSError: it cannot be opened or read (:class:`NotRegular` when it is
            not a regular file, :class:`TooLarge` as above; ``strerror`` says
            which).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(0, "not a regular file", path)
        if whole and st.st_size > limit:  # refused unread (a sparse file of any size costs nothing)
            raise TooLarge(0, f"larger than {_size_text(limit)}", path)
        chunks = []
        # One more byte than allowed tells "exactly limit" from "more" (the file may grow meanwhile).
        left = limit + 1 if whole else limit
        while left > 0:
            # Big enough for the whole file in one read (a cache is read on every `use`).
            data = os.read(fd, min(left, max(1 << 16, st.st_size + 1)))
            if not data:
                break
            chunks.append(data)
            left -= len(data)
        out = b"".join(chunks)
        if len(out) > limit:
            raise TooLarge(0, f"larger than {_size_text(limit)}", path)
        return out
    finally:
        os.close(fd)
