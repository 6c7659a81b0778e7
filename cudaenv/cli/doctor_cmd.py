"""``cudaenv doctor``: diagnose the shell you are in."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["doctor_cmd"]


@click.command("doctor")
@click.option("--python", "python", metavar="PY", help="Interpreter whose torch to check (default: python3 on PATH).")
@click.option("--no-torch", is_flag=True, help="Skip the torch probe.")
@click.option("--verbose", "-v", is_flag=True, help="Show detail for every finding.")
@click.option("--nodes", metavar="LIST", help="Instead: what differs between these Slurm nodes (`cudaenv fleet`).")
@json_option
@handles_errors
def doctor_cmd(python: str | None, no_torch: bool, verbose: bool, nodes: str | None, as_json: bool) -> None:
    """Diagnose this shell: CUDA_HOME vs PATH vs the active profile, empty path entries,
    stubs on the loader path, mixed libcudart, CUDA_VISIBLE_DEVICES, stale torch_extensions
    locks, CUDA_HOME without headers, kernel module vs driver libraries, a libstdc++ older
    than the Python environment's modules need (--python), /dev/shm and NCCL_SOCKET_IFNAME;
    then the `check` findings for the active profile.

    Exit status 0 when nothing fails, 1 otherwise.
    """
    if nodes is not None:
        from ..commands.fleet import fleet

        exits(fleet(nodes, as_json))
    from ..commands.doctor import doctor

    exits(doctor(python, not no_torch, verbose, as_json))
