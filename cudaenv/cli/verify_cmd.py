"""``cudaenv verify``: build and run tiny CUDA programs with a profile's environment.

The plain forms never reach click (``commands/verify.py`` parses them by
hand and calls the same driver); this command gives ``--help``, and the
messages for unusual or wrong arguments.
"""

from __future__ import annotations

import click

from ..verify.prep import DEFAULT_TIMEOUT
from .common import exits, handles_errors, json_option

__all__ = ["verify_cmd"]


def _finite(_ctx, _param, value: float) -> float:
    # FloatRange lets nan (and inf) through: every comparison with nan is false, and no limit would hold.
    if not 1 <= value < float("inf"):
        raise click.BadParameter(f"{value} is not a number of seconds of at least 1")
    return value


@click.command("verify")
@click.argument("targets", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Verify every discovered toolkit (in parallel).")
@click.option("--python", "python", metavar="PY",
              help="Interpreter whose torch builds the extension (default: the profile's python3).")
@click.option("--no-torch", is_flag=True, help="Skip the torch extension steps.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Targets verified at once (default: the number of cores).")
@json_option
@click.option("--no-cache", is_flag=True, help="Run every step even if a cached pass matches.")
@click.option("--keep", is_flag=True, help="Keep the private build directory and print its path.")
@click.option("--timeout", type=click.FloatRange(min=1), default=DEFAULT_TIMEOUT, show_default=True,
              metavar="SECONDS", callback=_finite, help="Limit for each command; its whole process group is killed then.")
@handles_errors
def verify_cmd(targets: tuple[str, ...], all_: bool, python: str | None, no_torch: bool, jobs: int | None,
               as_json: bool, no_cache: bool, keep: bool, timeout: float) -> None:
    """Prove PROFILEs build (and, with a GPU, run) CUDA code.

    \b
    With each profile's computed environment (what `cudaenv use` gives a shell),
    in a private directory under $TMPDIR:
      nvcc-shared, nvcc-static   a kernel program, nvcc -cudart shared / static
      link-lcuda                 a driver API program linked with -lcuda by the
                                 host compiler through LIBRARY_PATH (a stub is
                                 generated from cuda.h for toolkits without one)
      torch-build, torch-import  a torch CUDA extension (BuildExtension), when
                                 the interpreter has a CUDA build of torch
      run-*, torch-call          run them and check the values the kernel wrote
                                 (only with a GPU)

    Without PROFILEs: the active profile, else the toolkit $CUDA_HOME points
    at, else .cuda-version, else the default toolkit. Passing results are cached (keyed on the files they depend on); a
    failed verify is recorded, and `cudaenv use --verify` refuses that profile.
    Exit status 0 when no step failed, 1 otherwise, 130 when interrupted.
    """
    from ..commands.verify import run_verify
    from ..verify.prep import Options

    if all_ and targets:
        raise click.UsageError("name profiles or pass --all, not both")
    opts = Options(python=python, torch=not no_torch, timeout=timeout, keep=keep, no_cache=no_cache, jobs=jobs)
    exits(run_verify(targets, all_, opts, as_json, use_cache=False))
