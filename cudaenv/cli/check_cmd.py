"""``cudaenv check``: will this profile work here, and if not, why and what to do."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["check_cmd"]


@click.command("check")
@click.argument("targets", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Check every discovered toolkit.")
@click.option("--python", "python", metavar="PY", help="Interpreter whose torch to check (default: the profile's python3).")
@click.option("--no-torch", is_flag=True, help="Skip the torch probe.")
@click.option("--match-torch", "match_torch", is_flag=True,
              help="Check the installed toolkit that fits the torch of the Python on PATH.")
@click.option("--verbose", "-v", is_flag=True, help="Show detail for every finding.")
@json_option
@handles_errors
def check_cmd(targets: tuple[str, ...], all_: bool, python: str | None, no_torch: bool, verbose: bool, as_json: bool,
              match_torch: bool = False) -> None:
    """Check driver, host compiler, torch and GPU against PROFILEs.

    Without PROFILEs: the active profile, else the toolkit $CUDA_HOME points
    at, else .cuda-version, else the default toolkit (/usr/local/cuda).
    Exit status 0 when nothing fails, 1 otherwise.
    """
    from ..commands.check import check
    from ..errors import CudaenvError

    if match_torch:
        if targets or all_:
            raise CudaenvError("--match-torch checks one toolkit: give no PROFILEs and no --all with it", exit_code=2)
        targets = ("torch",)

    exits(check(targets, all_, python, not no_torch, verbose, as_json))
