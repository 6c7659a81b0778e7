"""Options and error handling shared by the click commands (defined once)."""

from __future__ import annotations

import functools

import click

from ..errors import CudaenvError
from ..infra.console import report_error

__all__ = ["json_option", "shell_option", "handles_errors", "exits"]

json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output (stable schema).")
shell_option = click.option(
    "--shell", "-s", metavar="SHELL",
    help="bash, zsh, sh, dash, ksh, fish, tcsh, csh or json (default: detected).",
)


def handles_errors(fn):
    """Turn a CudaenvError into one stderr line and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CudaenvError as exc:
            raise click.exceptions.Exit(report_error(exc)) from None

    return wrapper


def exits(code: int) -> None:
    """End the click command with a driver's exit status."""
    raise click.exceptions.Exit(code)
