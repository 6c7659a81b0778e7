"""Options and error handling shared by the click commands (defined once)."""

from __future__ import annotations

import functools

import click

from ..errors import CudaenvError
from ..infra.console import report_error

__all__ = ["json_option", "shell_option", "handles_errors", "exits", "RawWords", "raw_words"]

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


class RawWords(click.Command):
    """A click command whose callback can also read its words as typed (:func:`raw_words`).

    click's parser drops the first ``--`` and stops at the first word when
    interspersed arguments are off, so its parameters are not what a fast
    form's parser sees. ``exec`` and the conda hooks parse the typed words
    with the fast form's own function instead: both entries take the same
    words with the same rule. The declared parameters still give ``--help``
    and completion.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["cudaenv.raw_words"] = list(args)
        return super().parse_args(ctx, args)


def raw_words() -> list[str]:
    """The words after the current command's name, exactly as typed (``--`` included)."""
    return list(click.get_current_context().meta["cudaenv.raw_words"])
