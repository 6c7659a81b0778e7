"""``cudaenv config``: where each setting comes from."""

from __future__ import annotations

import click

from .common import exits, handles_errors

__all__ = ["config_cmd"]


@click.command("config")
@handles_errors
def config_cmd() -> None:
    """Show the effective config.yaml settings and the file each came from.

    The site's files are read first (/etc/cudaenv/config.yaml, then
    $XDG_CONFIG_DIRS/cudaenv/config.yaml), the user's last; a later file wins
    key by key (roots, sources, modulefiles).
    """
    from ..commands.config import show_config

    exits(show_config())
