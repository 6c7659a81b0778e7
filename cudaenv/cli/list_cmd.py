"""``cudaenv list`` (the fast entry point handles the plain forms)."""

from __future__ import annotations

import click

from ..commands.listing import do_list
from .common import json_option

__all__ = ["list_cmd"]


@click.command("list")
@json_option
@click.option("--wide", is_flag=True, help="Every column in full, however wide the terminal (a pipe always gets them).")
def list_cmd(as_json: bool, wide: bool) -> None:
    """List installed CUDA toolkits (skipped candidates go to stderr)."""
    raise click.exceptions.Exit(do_list(as_json, wide))
