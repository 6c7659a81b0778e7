"""``cudaenv profile``: build, list and show the editable profiles."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["profile_group"]


@click.group("profile")
def profile_group() -> None:
    """Editable per-toolkit profiles (YAML in $XDG_CONFIG_HOME/cudaenv/profiles)."""


@profile_group.command("build")
@click.argument("targets", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="One profile per discovered toolkit.")
@click.option("--force", is_flag=True, help="Overwrite existing profile files.")
@handles_errors
def build_cmd(targets: tuple[str, ...], all_: bool, force: bool) -> None:
    """Write profiles for TARGETS (versions or paths), --all toolkits, or the one in use.

    Without TARGETS: the active profile's toolkit, else the one $CUDA_HOME
    points at, else .cuda-version's, else the default toolkit (/usr/local/cuda).
    """
    from ..commands.profile import build

    exits(build(targets, all_, force))


@profile_group.command("list")
@json_option
@handles_errors
def list_profiles(as_json: bool) -> None:
    """List profile files (invalid ones are reported on stderr)."""
    from ..commands.profile import list_profiles

    exits(list_profiles(as_json))


@profile_group.command("show")
@click.argument("target")
@handles_errors
def show_profile(target: str) -> None:
    """Print the profile YAML that governs TARGET (the built-in default if none is written)."""
    from ..commands.profile import show_profile

    exits(show_profile(target))


@profile_group.command("path")
def path_cmd() -> None:
    """Print the directory holding profile files."""
    from ..commands.profile import profiles_path

    exits(profiles_path())
