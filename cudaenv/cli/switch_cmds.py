"""``cudaenv use`` and ``cudaenv off`` (the fast entry point handles plain forms)."""

from __future__ import annotations

import click

from ..main import do_off, do_use
from .common import shell_option

__all__ = ["use_cmd", "off_cmd"]


@click.command("use")
@click.argument("target", required=False)
@shell_option
def use_cmd(target: str | None, shell: str | None) -> None:
    """Print shell code that switches to TARGET.

    TARGET is a profile name, a version (12.4.1), a version prefix (12 =
    newest 12.x, 12.4 = newest 12.4.x) or a toolkit path. Without TARGET, the
    nearest .cuda-version file (here or above) names it.

    \b
    bash/zsh/sh:  eval "$(cudaenv use 12.4)"
    fish:         cudaenv use 12.4 | source
    tcsh/csh:     eval "`cudaenv use 12.4`"
    """
    raise click.exceptions.Exit(do_use(target, shell))


@click.command("off")
@shell_option
def off_cmd(shell: str | None) -> None:
    """Print shell code that undoes the active profile exactly.

    Removes only cudaenv's own entries and restores every variable it
    overwrote (unset stays unset, empty stays empty); entries you added
    since are kept.
    """
    raise click.exceptions.Exit(do_off(shell))
