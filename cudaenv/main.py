"""Console entry point, and the commands that run without click: use, off, list.

``use`` and ``off`` run in every tmux pane and conda activation, so their
plain forms are parsed here by hand and never import click, yaml, json or
re. Anything unusual (help, other options) falls through to the click CLI,
which has the full parser and calls the same functions. ``init`` (every shell
start), the ``--auto`` hook's ``_auto`` and ``use <TAB>`` completion take the
same road through :mod:`cudaenv.shellinit`.

stdout carries only code; notes and errors go to stderr. On error: one
line, non-zero exit, nothing on stdout, so ``eval "$(cudaenv use bogus)"``
changes nothing.
"""


from __future__ import annotations

import sys

from .errors import CudaenvError
from .infra.console import note, report_error, write_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .context import Context

__all__ = ["main", "eval_hint", "emit_plan", "do_use", "do_off"]


def eval_hint(family: str, words: str) -> str:
    """How to apply ``cudaenv <words>`` to the current shell."""
    if family == "fish":
        return f"cudaenv {words} | source"
    if family == "csh":
        return f'eval "`cudaenv {words}`"'
    return f'eval "$(cudaenv {words})"'


def emit_plan(ctx: Context, plan_fn, render, tty_hint: str | None = None) -> int:
    """Plan, render and print: notes to stderr, code to stdout, errors as one line.

    Every command that prints a plan (use/off for any shell or format, the
    --auto hook, tmux) ends here, so they fail and report alike.

    Args:
        plan_fn: Returns the Plan (may raise CudaenvError).
        render: Plan -> text (may raise CudaenvError).
        tty_hint: Said on stderr when there is output and stdout is a terminal.
    """
    try:
        plan = plan_fn()
        text = render(plan)
    except CudaenvError as exc:
        return report_error(exc)
    finally:
        ctx.save()
    for n in plan.notes:
        note(n)
    if tty_hint and text and sys.stdout.isatty():
        note(tty_hint)
    write_out(text)
    return 0


def _finish(ctx: Context, shell: str | None, plan_fn, words: str) -> int:
    """:func:`emit_plan` for the shell named by ``shell`` (default: detected)."""
    from .shells import detect, family_of, renderer

    try:
        name = shell or detect(ctx.env)
        mod = renderer(name)
    except CudaenvError as exc:
        ctx.save()
        return report_error(exc)
    fam = family_of(name)
    hint = None if fam == "json" else f"this prints shell code; to apply it here run: {eval_hint(fam, words)}"
    return emit_plan(ctx, plan_fn, mod.render, hint)


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


def _fast_args(argv: list[str]) -> tuple[str, str | None, str | None] | None:
    """(command, target, shell) for the plain forms of use/off/list, else None."""
    if argv[:1] == ["list"] and argv[1:] in ([], ["--json"]):
        return "list", None, "json" if argv[1:] else None
    if not argv or argv[0] not in ("use", "off"):
        return None
    cmd, target, shell = argv[0], None, None
    rest = argv[1:]
    i = 0
    while i < len(rest):
        a = rest[i]
        if a in ("--shell", "-s"):
            if i + 1 >= len(rest):
                return None
            shell = rest[i + 1]
            i += 2
            continue
        if a.startswith("--shell="):
            shell = a[8:]
        elif a.startswith("-") or target is not None or cmd == "off":
            return None
        else:
            target = a
        i += 1
    return cmd, target, shell


def main(argv: list[str] | None = None) -> int:
    """Run cudaenv with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    fast = _fast_args(args)
    if fast is not None:
        cmd, target, shell = fast
        if cmd == "list":
            from .listing import do_list

            code = do_list(shell == "json")
        else:
            code = do_use(target, shell) if cmd == "use" else do_off(shell)
        if argv is None:
            sys.exit(code)
        return code
    if not args or args[:1] in (["init"], ["_auto"]):
        # Shell startup, the --auto hook and `use <TAB>` (no args, _CUDAENV_COMPLETE
        # set): no click either. None: a form only click handles.
        from .shellinit import fast_main

        code = fast_main(args)
        if code is not None:
            if argv is None:
                sys.exit(code)
            return code
    if args[:1] == ["verify"]:
        # A cache hit is answered without click (which costs more than Python's start).
        from .verify.fast import fast_verify

        code = fast_verify(args[1:])
        if code is not None:
            if argv is None:
                sys.exit(code)
            return code
    if args[:2] in (["conda-hook", "_activate"], ["conda-hook", "_deactivate"]):
        # conda runs this at every activation: no click.
        from .outputs.conda_hooks import hook_main

        code = hook_main(args[1:])
        if argv is None:
            sys.exit(code)
        return code
    from .cli import main as cli_main

    return cli_main(args, standalone=argv is None)
