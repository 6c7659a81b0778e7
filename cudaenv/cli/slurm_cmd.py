"""``cudaenv slurm …``: what a Slurm site runs for cudaenv (docs/clusters.md)."""

from __future__ import annotations

import click

from .common import exits

__all__ = ["slurm_group"]


@click.group("slurm")
def slurm_group() -> None:
    """Slurm integration: re-plan a switch inherited from another node (a site installs
    `cudaenv slurm task-prolog` as Slurm's TaskProlog)."""


@slurm_group.command("task-prolog")
def task_prolog_cmd() -> None:
    """Print `export NAME=value` / `unset NAME` lines that make an inherited switch this node's.

    For Slurm's TaskProlog (slurm.conf) or `srun --task-prolog=`: a job that
    inherited `cudaenv use` from the login node (--export=ALL) gets the
    libcuda stub, arch list and job counts of the node and allocation it
    runs on. Prints nothing when no profile is active or it was planned on
    this node; never fails a task (exit status 0, a note on stderr).
    """
    from ..commands.node import do_task_prolog

    exits(do_task_prolog())
