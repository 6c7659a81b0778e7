"""``cudaenv exec``: its help and completion (``main.py`` runs every other form without click)."""

from __future__ import annotations

import click

from .common import RawWords, exits, handles_errors, raw_words
from .completion import complete_targets

__all__ = ["exec_cmd"]


@click.command("exec", cls=RawWords,
               context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("target", required=False, shell_complete=complete_targets)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@handles_errors
def exec_cmd(target: str | None, command: tuple[str, ...]) -> None:
    """Run COMMAND with TARGET's environment; this shell stays as it is.

    \b
    cudaenv exec 12.4 -- nvcc --version
    cudaenv exec 11.8 -- python setup.py build_ext
    cudaenv exec -- make          (TARGET from the nearest .cuda-version)

    COMMAND gets exactly what `eval "$(cudaenv use TARGET)"` would give a
    POSIX shell (so `cudaenv off` inside works), found on that PATH.
    cudaenv then becomes COMMAND: its exit status, signals, stdin and
    stdout are its own. `--` is required. Exit status 127: COMMAND not
    found; 126: found but not executable; cudaenv's own errors: 2 (bad
    input) or 1, with one line on stderr.
    """
    from ..commands.exec_ import do_exec, split_args

    # The words as typed, read by the fast form's parser (click's params lost the `--`).
    parsed = split_args(raw_words())
    if parsed is None:  # --help where split_args gives it to click
        click.echo(click.get_current_context().get_help())
        exits(0)
    exits(do_exec(*parsed))
