"""``cudaenv conda-hook install|remove``, and the hidden commands the hooks run.

``_activate``/``_deactivate`` run at every conda activation, so they run
without click (``main.py`` sends them here first) and print the code the
hook evaluates; what that code is, is decided in ``outputs/conda_hooks.py``.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..infra.console import parse
from ..infra.console import note
from ..outputs.conda_hooks import install_hooks, plan_activate, plan_deactivate, remove_hooks, valid_key
from .switch import emit_plan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["hook_main", "install", "remove"]

_USAGE = "usage: cudaenv conda-hook _activate|_deactivate --shell SHELL -- KEY [TARGET]"


def _parse_hook_args(args: list[str]) -> tuple[str, str, list[str]]:
    """(shell, key, rest) from ``--shell S -- KEY [TARGET]`` (click hands them on without the ``--``).

    Raises:
        CudaenvError: anything else.
    """
    parsed = parse(args, values={"--shell": "shell", "-s": "shell"}, dashdash=True)
    if parsed is None or not parsed[0].get("shell") or not parsed[1] or not valid_key(parsed[1][0]):
        raise CudaenvError(_USAGE, exit_code=2)
    opts, words = parsed
    return opts["shell"], words[0], words[1:]


def hook_main(args: list[str]) -> int:
    """``cudaenv conda-hook _activate|_deactivate ...``: the code a hook evaluates.

    Notes and errors go to stderr; on error nothing is printed on stdout and
    the exit status is non-zero, and the hook changes nothing.
    """
    from ..infra.console import report_error

    try:
        if not args or args[0] not in ("_activate", "_deactivate"):
            raise CudaenvError(_USAGE, exit_code=2)
        shell, key, rest = _parse_hook_args(args[1:])
        if args[0] == "_activate" and len(rest) != 1:
            raise CudaenvError("_activate takes KEY and TARGET", exit_code=2)
        if args[0] == "_deactivate" and rest:
            raise CudaenvError("_deactivate takes only KEY", exit_code=2)
    except CudaenvError as exc:
        return report_error(exc)
    if args[0] == "_deactivate":
        # Reads only the process environment: no context, no cache.
        return emit_plan(None, lambda out: plan_deactivate(os.environ, key), shell, "conda-hook _deactivate")
    from ..context import Context
    from .switch import plan_for_use

    ctx = Context()
    env = ctx.env

    def plan_use_fn(fixed: dict) -> Plan:
        # PATH repaired (outputs/conda_hooks.replay_path_fix): plan from there
        return plan_for_use(ctx.with_env(fixed), rest[0])[0]

    return emit_plan(ctx, lambda out: plan_activate(env, key, plan_use_fn), shell, "conda-hook _activate")


def install(target: str, prefix: str | None) -> int:
    """``cudaenv conda-hook install TARGET [--prefix P]``."""
    from ..context import Context
    from ..infra.console import write_out

    ctx = Context()
    try:
        done = install_hooks(ctx, target, prefix)
    finally:
        ctx.save()
    for n in done.notes:
        note(n)
    write_out("".join(f"wrote    {path}\n" for path in done.paths))
    write_out(f"activating {done.prefix} now switches to {done.profile} ({done.root})"
              + (f"; hooks run {done.exe}" if done.exe else "") + "\n")
    return 0


def remove(prefix: str | None) -> int:
    """``cudaenv conda-hook remove [--prefix P]``."""
    from ..context import Context
    from ..infra.console import write_out

    done = remove_hooks(Context(), prefix)
    for n in done.notes:
        note(n)
    write_out("".join(f"deleted  {path}\n" for path in done.paths))
    return 0
