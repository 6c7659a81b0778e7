"""``cudaenv exec``: its help and completion (``main.py`` runs every other form without click)."""

from __future__ import annotations

import click

from .common import exits, handles_errors
from .completion import complete_targets

__all__ = ["exec_cmd"]


@click.command("exec", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
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
    from ..commands.exec_ import USAGE, do_exec
    from ..errors import CudaenvError

    # Reached only when the fast entry could not take the words (click has consumed the `--`).
    if not command:
        raise CudaenvError("exec: no command after `--`", hint=USAGE, exit_code=2)
    exits(do_exec(target, list(command)))
