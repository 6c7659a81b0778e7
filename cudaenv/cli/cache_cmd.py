"""``cudaenv cache info|prune``: thin click over commands/cache.py."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["cache_group"]


@click.group("cache")
def cache_group() -> None:
    """The download cache of `cudaenv install` ($CUDAENV_INSTALL_CACHE, else <cache>/downloads).

    \b
    Files and wheel members are kept by sha256, with the plans installs made
    (`install --offline` installs one from the cache alone). CI can carry it:
    key it on `cudaenv install X --plan --json`'s cache_key.
    """


@cache_group.command("info")
@json_option
@handles_errors
def info_cmd(as_json: bool) -> None:
    """Where the cache is and what it holds."""
    from ..commands.cache import cache_info

    exits(cache_info(as_json))


@cache_group.command("prune")
@click.option("--max-size", metavar="SIZE", help="Drop the least recently used files until the cache fits (500M, 2G).")
@click.option("--older-than", metavar="AGE", help="Drop files not used for AGE (30d, 12h; a number is days).")
@click.option("--all", "everything", is_flag=True, help="Empty the cache.")
@json_option
@handles_errors
def prune_cmd(max_size: str | None, older_than: str | None, everything: bool, as_json: bool) -> None:
    """Bound the download cache by size or age."""
    from ..commands.cache import cache_prune

    exits(cache_prune(max_size, older_than, everything, as_json))
