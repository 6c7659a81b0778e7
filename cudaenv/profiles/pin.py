"""The ``.cuda-version`` pin: the nearest one, walking up from a directory."""

from __future__ import annotations

import os

from ..errors import CudaenvError

__all__ = ["find_pin"]


def find_pin(cwd: str) -> tuple[str, str] | None:
    """Find the nearest ``.cuda-version`` walking up from ``cwd``.

    Returns:
        (file path, the first non-comment word in it), or None.

    Raises:
        CudaenvError: the nearest file is unreadable or empty.
    """
    d = os.path.abspath(cwd)
    while True:
        path = os.path.join(d, ".cuda-version")
        if os.path.isfile(path):
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        word = line.split("#", 1)[0].strip()
                        if word:
                            return path, word
            except OSError as exc:
                raise CudaenvError(f"cannot read {path}: {exc.strerror}") from None
            raise CudaenvError(f"{path} names no version or profile", exit_code=2)
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
