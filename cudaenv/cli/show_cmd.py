"""``cudaenv show``: what ``use`` would set, for people."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option
from .completion import complete_targets

__all__ = ["show_cmd"]


@click.command("show")
@click.argument("target", required=False, shell_complete=complete_targets)
@json_option
@handles_errors
def show_cmd(target: str | None, as_json: bool) -> None:
    """Show what `use TARGET` would set.

    Without TARGET: the active profile, else the toolkit $CUDA_HOME points at,
    else .cuda-version, else the default toolkit (/usr/local/cuda).
    """
    from ..commands.show import show

    exits(show(target, as_json))
