"""The ``.cuda-version`` pin: the nearest one, walking up from a directory."""

from __future__ import annotations

import os

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["find_pin", "target_from_pin"]


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


def target_from_pin(ctx: Context, target: str | None) -> tuple[str, str | None]:
    """What ``use`` switches to: the argument, else the word in the nearest ``.cuda-version``.

    Returns:
        (target, pin file or None).

    Raises:
        CudaenvError: no argument and no pin file here or above.
    """
    if target:
        return target, None
    pin = find_pin(ctx.cwd)
    if pin is None:
        raise CudaenvError(
            "name a profile, version or toolkit path (no .cuda-version found here or above)",
            hint="`cudaenv list` shows what is installed",
            exit_code=2,
        )
    return pin[1], pin[0]
