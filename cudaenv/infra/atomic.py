"""Writing files so that readers see the old version or the new one, never a torn one.

Several files that belong together (a set of modulefiles, a conda env's six
hooks) are first all staged as temporary files beside their targets; only
when every one is written are they renamed into place, one atomic rename
each. A failure before that leaves nothing behind.

A temporary file is created by ``mkstemp`` (a random name, ``O_CREAT|O_EXCL|O_NOFOLLOW``,
0600): another user who can write the directory cannot make the write go
through a link of theirs. These write where the user asked (modulefiles, a
conda env's hooks, a kernelspec); cudaenv's own caches and state go through
``infra/private.py``, which also refuses directories another user can change.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

__all__ = ["stage_text", "discard", "commit", "write_atomic"]


def stage_text(path: str, text: str, mode: int | None = None, prefix: str = ".tmp-", suffix: str = ".tmp") -> str:
    """Write ``text`` to a new temporary file beside ``path`` and return its name.

    Args:
        mode: File mode to set (mkstemp creates 0600); None keeps 0600.

    Raises:
        OSError: the file could not be written (nothing is left behind).
    """
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
            f.flush()
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def discard(staged: list[tuple[str, str]]) -> None:
    """Remove staged temporary files that were not renamed into place."""
    for tmp, _path in staged:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def commit(staged: list[tuple[str, str]]) -> None:
    """Rename each staged ``(tmp, path)`` into place, in order.

    Raises:
        CudaenvError: a rename failed (the remaining temporary files are removed).
    """
    while staged:
        tmp, path = staged[0]
        try:
            os.replace(tmp, path)
        except OSError as exc:
            discard(staged)
            raise CudaenvError(f"cannot write {path}: {exc.strerror or exc}") from None
        staged.pop(0)


def write_atomic(path: str, text: str, mode: int | None = None) -> None:
    """Write one file atomically (creating its directory).

    Raises:
        CudaenvError: the directory or the file cannot be written (read-only,
            a file where a directory should be, a full disk); nothing is left behind.
    """
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        staged = [(stage_text(path, text, mode, suffix=os.path.splitext(path)[1] or ".tmp"), path)]
    except OSError as exc:
        raise CudaenvError(f"cannot write {path}: {exc.strerror or exc}") from None
    commit(staged)
