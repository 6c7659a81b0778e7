"""The shell-code commands (``use``/``off``) end to end, without click.

stdout carries only code; notes and errors go to stderr. On error: one line,
non-zero exit, nothing on stdout, so ``eval "$(cudaenv use bogus)"`` changes
nothing.
"""

from __future__ import annotations

import sys

from .errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .context import Context

__all__ = ["write_out", "note", "report_error", "eval_hint", "do_use", "do_off"]


def write_out(text: str) -> None:
    """Write to stdout as bytes: values from the environment may not be UTF-8."""
    out = sys.stdout
    data = text.encode("utf-8", "surrogateescape")
    buf = getattr(out, "buffer", None)
    if buf is not None:
        out.flush()
        buf.write(data)
        buf.flush()
    else:
        out.write(text)
        out.flush()


def note(message: str) -> None:
    """One line on stderr."""
    sys.stderr.write(f"cudaenv: {message}\n")
    sys.stderr.flush()


def report_error(exc: CudaenvError) -> int:
    """Print ``exc`` as one stderr line and return its exit code."""
    note(f"{exc.message}; hint: {exc.hint}" if exc.hint else exc.message)
    return exc.exit_code


def eval_hint(family: str, words: str) -> str:
    """How to apply ``cudaenv <words>`` to the current shell."""
    if family == "fish":
        return f"cudaenv {words} | source"
    if family == "csh":
        return f'eval "`cudaenv {words}`"'
    return f'eval "$(cudaenv {words})"'


def _finish(ctx: Context, shell: str | None, plan_fn, words: str) -> int:
    from .shells import detect, family_of, renderer

    try:
        name = shell or detect(ctx.env)
        mod = renderer(name)
        plan = plan_fn()
        text = mod.render(plan)
    except CudaenvError as exc:
        return report_error(exc)
    finally:
        ctx.save()
    for n in plan.notes:
        note(n)
    fam = family_of(name)
    if fam != "json" and sys.stdout.isatty():
        note(f"this prints shell code; to apply it here run: {eval_hint(fam, words)}")
    write_out(text)
    return 0


def do_use(target: str | None, shell: str | None, ctx: Context | None = None) -> int:
    """``cudaenv use [TARGET]``."""
    from .context import Context
    from .switch import plan_for_use

    ctx = ctx or Context()
    words = "use" + (f" {target}" if target else "")
    return _finish(ctx, shell, lambda: plan_for_use(ctx, target)[0], words)


def do_off(shell: str | None, ctx: Context | None = None) -> int:
    """``cudaenv off``."""
    from .context import Context
    from .switch import plan_for_off

    ctx = ctx or Context()
    return _finish(ctx, shell, lambda: plan_for_off(ctx), "off")
