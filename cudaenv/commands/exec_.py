"""``cudaenv exec [TARGET] -- COMMAND [ARG...]``: run one command under a profile.

The calling shell is not touched (``conda run``, ``mise exec``): the command
gets exactly the environment ``eval "$(cudaenv use TARGET)"`` gives a POSIX
shell — the same plan (:func:`~cudaenv.commands.switch.plan_for_use`), so
the same state record (``cudaenv off`` inside works), the same stub link and
the same notes on stderr — applied to a copy of this process's environment.
Then cudaenv *becomes* the command (:func:`~cudaenv.infra.run.exec_command`):
no shell in between and no parent left waiting, so its exit status, the
signals sent to it and its stdin/stdout are the command's own.

It runs without click (``main.py`` sends every form but ``--help`` here):
its cost is paid on every command it wraps, a kernel start included.
"""

from __future__ import annotations

from ..env.ops import apply_changes
from ..errors import CudaenvError
from ..infra.console import note, report_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["USAGE", "split_args", "exec_env", "do_exec", "fast_exec"]

USAGE = "usage: cudaenv exec [TARGET] -- COMMAND [ARG...]"


def split_args(args: list[str]) -> tuple[str | None, list[str]] | None:
    """(target or None, command) from the words after ``exec``; None when click must answer (``--help``).

    Raises:
        CudaenvError: not that form (exit 2): no ``--``, no command after it,
            an option, or more than one target.
    """
    if "--" not in args:
        if any(a in ("-h", "--help") for a in args):
            return None
        raise CudaenvError("exec needs `--` before the command", hint=USAGE, exit_code=2)
    i = args.index("--")
    before, command = args[:i], args[i + 1:]
    if any(a in ("-h", "--help") for a in before):
        return None
    opts = [a for a in before if a.startswith("-")]
    if opts:
        raise CudaenvError(f"exec: unknown option {opts[0]!r}", hint=USAGE, exit_code=2)
    if len(before) > 1:
        raise CudaenvError(f"exec takes one TARGET before `--`, not {len(before)}", hint=USAGE, exit_code=2)
    if not command:
        raise CudaenvError("exec: no command after `--`", hint=USAGE, exit_code=2)
    return (before[0] if before else None), command


def exec_env(ctx: Context, target: str | None) -> dict[str, str]:
    """The environment ``use TARGET`` gives, applied to a copy of ``ctx.env``; notes go to stderr.

    Raises:
        CudaenvError: what ``use`` would refuse.
    """
    from .switch import plan_for_use

    try:
        plan = plan_for_use(ctx, target)[0]
    finally:
        ctx.save()
    for n in plan.notes:
        note(n)
    return apply_changes(ctx.env, plan.changes)


def do_exec(target: str | None, command: list[str], ctx: Context | None = None) -> int:
    """Become ``command`` in the profile's environment; returns only on failure (its exit status)."""
    from ..context import Context
    from ..infra.run import exec_command

    try:
        ctx = ctx or Context()
        exec_command(command, exec_env(ctx, target))
    except CudaenvError as exc:
        return report_error(exc)


def fast_exec(args: list[str]) -> int | None:
    """``cudaenv exec …`` from the fast entry; None when click must answer (``--help``)."""
    try:
        parsed = split_args(args)
    except CudaenvError as exc:
        return report_error(exc)
    if parsed is None:
        return None
    return do_exec(*parsed)
