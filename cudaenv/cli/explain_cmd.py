"""``cudaenv explain``: what a CUDA error message means and how to fix it."""

from __future__ import annotations

import sys

import click

from ..errors import CudaenvError
from .common import echo_json, handles_errors, json_option

__all__ = ["explain_cmd"]


def _read_stdin() -> str:
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    # A build log may hold bytes that are not UTF-8 (paths, compiler output in
    # another locale); they must not stop the errors around them being found.
    return data.decode("utf-8", "replace")


# ignore_unknown_options + UNPROCESSED: a pasted message such as
# `/usr/bin/ld: cannot find -lcuda` reaches us whole instead of `-lcuda` being
# taken for an option.
@click.command("explain", context_settings={"ignore_unknown_options": True})
@click.argument("text", nargs=-1, type=click.UNPROCESSED)
@json_option
@handles_errors
def explain_cmd(text: tuple[str, ...], as_json: bool) -> None:
    """Explain CUDA build and runtime errors: cause, fix, and the check that catches it.

    \b
    One message:   cudaenv explain "nvcc fatal : Unsupported gpu architecture 'sm_50'"
    A whole log:   cudaenv explain - < build.log      (or: make 2>&1 | cudaenv explain)

    Every known error in the input is explained once, in order of first
    appearance. Exit status 1, with nothing on stdout, when nothing is recognised.
    """
    from ..knowledge.explain import explain, render_text
    from ..infra.console import note, write_out

    if text == ("-",) or (not text and not sys.stdin.isatty()):
        source = _read_stdin()
        what = "the input"
    elif text:
        source = " ".join(text)
        what = "the message"
    else:
        raise CudaenvError(
            "nothing to explain",
            hint='paste a message (cudaenv explain "…") or pipe a log (cudaenv explain - < build.log)',
            exit_code=2,
        )
    if not source.strip():
        note("nothing to explain: the input is empty")
        raise click.exceptions.Exit(1)
    matches = explain(source)
    if not matches:
        n = source.count("\n") + (0 if source.endswith("\n") else 1) if source else 0
        lines = f" ({n} lines)" if n > 1 else ""
        note(f"no known error in {what}{lines}; `cudaenv check` looks at this machine instead")
        raise click.exceptions.Exit(1)
    if as_json:
        echo_json([m.to_dict() for m in matches])
        return
    multi = "\n" in source.strip("\n")
    write_out(render_text(matches, numbered_lines=multi))
