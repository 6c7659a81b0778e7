"""``cudaenv explain``: what a CUDA error message means and how to fix it."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["explain_cmd"]


# ignore_unknown_options + UNPROCESSED: a pasted message such as
# `/usr/bin/ld: cannot find -lcuda` reaches us whole instead of `-lcuda` being
# taken for an option.
@click.command("explain", context_settings={"ignore_unknown_options": True})
@click.argument("text", nargs=-1, type=click.UNPROCESSED)
@click.option("--no-host", is_flag=True,
              help="Answer from the text alone: do not name this machine's toolkits, driver or torch.")
@click.option("--python", "python", metavar="PY",
              help="Interpreter whose torch the answers look at (default: python3 on PATH).")
@json_option
@handles_errors
def explain_cmd(text: tuple[str, ...], no_host: bool, python: str | None, as_json: bool) -> None:
    """Explain CUDA build and runtime errors: cause, fix, and the check that catches it.

    \b
    One message:   cudaenv explain "nvcc fatal : Unsupported gpu architecture 'sm_50'"
    A whole log:   cudaenv explain build.log          (or: make 2>&1 | cudaenv explain)

    Every known error in the input is explained once, root causes first. Where
    this machine has what answers it, a "here:" line names it: the installed
    toolkit to use, the driver, your torch (looked at in a child process, cached;
    the first look takes a few seconds). --no-host answers from the text alone.
    Exit status 1, with nothing on stdout, when nothing is recognised. A log
    over 16 MiB is explained by its first 4 MiB and last 12 MiB (a note says
    so); a stream is read no further than 256 MiB.
    """
    from ..commands.explain import explain_command

    exits(explain_command(text, as_json, host=not no_host, python=python))
