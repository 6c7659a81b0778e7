"""The one error type library code raises; the CLI turns it into a stderr line."""

from __future__ import annotations

__all__ = ["CudaenvError"]


class CudaenvError(Exception):
    """A user-facing failure: one line of message, an optional hint, an exit code.

    Library code never calls ``sys.exit``; it raises this and the thin CLI
    prints ``cudaenv: <message>`` (plus the hint) on stderr and exits.

    Args:
        message: One line saying what went wrong.
        hint: Optional second line saying what to do about it.
        exit_code: Process exit status (2 for bad input, 1 for other failures).
    """

    def __init__(self, message: str, hint: str | None = None, exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message
