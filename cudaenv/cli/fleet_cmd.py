"""``cudaenv fleet``: what differs between the nodes of an allocation (driver, GPUs, toolkits, libraries)."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["fleet_cmd"]


@click.command("fleet")
@click.option("--nodes", "-w", metavar="LIST", help="Slurm node list (default: $SLURM_JOB_NODELIST, inside an allocation).")
@click.option("--no-here", "no_here", is_flag=True, help="Leave out the host this runs on (the login node).")
@click.option("--timeout", type=click.FloatRange(1, 86400), default=300, show_default=True, metavar="SECONDS",
              help="Bound on the whole srun step.")
@click.option("--facts", is_flag=True, hidden=True, help="Print this node's facts as one JSON line (what each node runs).")
@json_option
@handles_errors
def fleet_cmd(nodes: str | None, no_here: bool, timeout: float, facts: bool, as_json: bool) -> None:
    """Run a compact doctor on every node through one srun step and show what differs.

    \b
    One table: a row per node (and this host, "here"), a column per fact that is not
    the same everywhere: driver, GPU models, libcuda.so.1 found, toolkits with their
    content fingerprints, NCCL and cuDNN found, /dev/shm size, cudaenv version.
    Inside an allocation:  salloc -N4 cudaenv fleet
    Outside one:           cudaenv fleet --nodes 'gpu[01-04]'
    """
    from ..commands.fleet import fleet

    exits(fleet(nodes, as_json, login=not no_here, facts=facts, timeout=timeout))
