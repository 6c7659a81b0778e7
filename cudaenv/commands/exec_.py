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

import os

from ..env.ops import apply_changes
from ..env.pathlist import which
from ..env.state import ACTIVE_VAR
from ..errors import CudaenvError
from ..infra.console import note, report_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from ..host.types import PythonEnv

__all__ = ["USAGE", "split_args", "command_python_env", "exec_env", "do_exec", "fast_exec"]

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
    if not command[0]:
        raise CudaenvError("exec: the command after `--` is an empty word", hint=USAGE, exit_code=2)
    return (before[0] if before else None), command


def command_python_env(ctx: Context, command: list[str]) -> PythonEnv | None:
    """The Python environment ``command`` runs in when it is an interpreter (``~/venvs/t/bin/python``), else None.

    ``use`` judges what the switch lands in (``loader_path: auto``, wheel
    toolkits) by the ``python3`` on PATH, the next one the shell runs. A
    command that names its interpreter says which environment it will run,
    whatever PATH holds: a Jupyter kernel's argv does, and so does
    ``cudaenv exec 12.4 -- ~/venvs/t/bin/python train.py``.
    """
    name = command[0]
    base = os.path.basename(name)
    if not (base in ("python", "python3") or (base.startswith("python3.") and base[8:].isdigit())):
        return None
    if "/" in name:
        path = os.path.join(ctx.cwd, name)
    else:
        path = which(name, ctx.env.get("PATH")) or ""
    bindir = os.path.dirname(os.path.normpath(path))
    if not path or os.path.basename(bindir) == "shims":  # a pyenv shim: PATH's own rule already applies
        return None
    from ..host.pyenv import locate

    found = locate(dict(ctx.env, PATH=bindir), ctx.cwd)
    return found if found and os.path.dirname(found["python"]) == bindir else None


def exec_env(ctx: Context, target: str | None, command: list[str] | None = None) -> dict[str, str]:
    """The environment ``use TARGET`` gives, applied to a copy of ``ctx.env``; notes go to stderr.

    When ``command`` is a Python interpreter, the switch is judged for that
    interpreter's environment (:func:`command_python_env`). Without a TARGET
    and a ``.cuda-version``, the active profile is planned again for this node.

    Raises:
        CudaenvError: what ``use`` would refuse.
    """
    from .switch import plan_for_use

    pyenv = command_python_env(ctx, command) if command else None
    if pyenv is not None:
        ctx = ctx.with_python_env(pyenv)  # the switch is judged for the interpreter the command names
    if target is None and ctx.env.get(ACTIVE_VAR):
        from ..profiles.resolve import find_pin

        if find_pin(ctx.cwd) is None:
            # No TARGET, no pin: the active profile, planned again here, so a switch inherited
            # from another node (a Slurm job after `use` on the login node) gets this node's
            # stub decision, arch list and job counts (commands/node.py).
            target = ctx.env[ACTIVE_VAR]
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
        exec_command(command, exec_env(ctx, target, command))
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
