"""``cudaenv explain``: what CUDA error messages mean and how to fix them."""

from __future__ import annotations

import sys

from ..errors import CudaenvError
from ..infra.console import note, write_out

__all__ = ["explain_command"]


def _read_stdin() -> str:
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    # A build log may hold bytes that are not UTF-8 (paths, compiler output in
    # another locale); they must not stop the errors around them being found.
    return data.decode("utf-8", "replace")


def explain_command(text: tuple[str, ...] | list[str], as_json: bool, host: bool = True,
                    python: str | None = None) -> int:
    """Explain the words given (one message), or stdin (``-``, or a pipe); exit 1 when nothing is known.

    Args:
        text: The message's words, or ``("-",)`` for stdin.
        as_json: Print the matches as JSON.
        host: Also name what this machine has that answers each message (installed
            toolkits, the active profile, the driver, the user's torch); False answers
            from the text alone, the same on every machine.
        python: The interpreter whose torch the answers look at (default ``python3`` on PATH).

    Raises:
        CudaenvError: nothing to read.
    """
    from ..knowledge.explain import explain, render_text

    text = tuple(text)
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
        return 1
    matches = explain(source)
    if not matches:
        n = source.count("\n") + (0 if source.endswith("\n") else 1) if source else 0
        lines = f" ({n} lines)" if n > 1 else ""
        note(f"no known error in {what}{lines}; `cudaenv check` looks at this machine instead")
        return 1
    if host:
        _tie_to_host(matches, python)
    if as_json:
        from ..infra.jsonout import dumps

        write_out(dumps([m.to_dict() for m in matches]) + "\n")
        return 0
    multi = "\n" in source.strip("\n")
    write_out(render_text(matches, numbered_lines=multi))
    return 0


def _tie_to_host(matches: list, python: str | None) -> None:
    """Add the answers that name this machine's facts (see :mod:`cudaenv.knowledge.here`)."""
    from ..context import Context
    from ..knowledge.here import answer_here, gather_host, host_needs

    needs = host_needs(matches)
    if not needs:
        return
    ctx = Context()
    notes: list[str] = []
    facts = gather_host(ctx, needs, python=python, notes=notes)
    ctx.save()
    for n in notes:
        note(n)
    answer_here(matches, facts)
