"""``use`` and ``off``: resolve, plan, and hand the plan to the output the user asked for.

The plain forms arrive from the fast entry (``main.py``) without click; the
click commands call the same functions for everything else.

:func:`emit_plan` is the end of every command that prints a plan (use/off for
any shell or format, the ``--auto`` hook, the conda hooks, tmux), so they
fail and report alike: one stderr line and a non-zero exit on error, with
nothing on stdout. It lives here, beside ``use``, to keep ``use`` to as few
module loads as possible.
"""

from __future__ import annotations

import os
import sys

from ..env.plan import Plan, plan_off, plan_use
from ..env.state import ACTIVE_VAR
from ..errors import CudaenvError
from ..infra.console import note, report_error, write_out
from ..shells import detect, get

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

    from ..context import Context
    from ..profiles.model import Profile
    from ..shells.base import Output
    from ..toolkit.types import Toolkit

#: Every modulefile cudaenv writes records what it overwrote in variables with this prefix.
MODULE_MARK = "__CUDAENV_MODULE_"

__all__ = ["plan_for_use", "plan_for_off", "emit_plan", "do_use", "do_off", "use_target"]


def use_target(target: str | None, match_torch: bool) -> str | None:
    """The target ``use`` resolves: TARGET, or the word ``torch`` for ``--match-torch``.

    The one rule for the click command and the fast form.

    Raises:
        CudaenvError: both given (exit 2).
    """
    if not match_torch:
        return target
    if target:
        raise CudaenvError(f"give a TARGET ({target}) or --match-torch, not both", exit_code=2)
    from ..profiles.torchmatch import TORCH_WORD

    return TORCH_WORD


def plan_for_use(ctx: Context, target: str | None) -> tuple[Plan, Profile, Toolkit]:
    """Plan ``use`` (making the loader-path stub link the plan names): (plan, profile, toolkit)."""
    # Here, not at the top: `off` needs neither profiles nor discovery.
    from ..host.node import node_key
    from ..profiles.model import use_ops
    from ..profiles.resolve import resolve_target, target_from_pin

    if any(k.startswith(MODULE_MARK) for k in ctx.env):
        # A cudaenv modulefile is loaded: switching over it would leave `module unload` and
        # `cudaenv off` each giving back the other's values (the module refuses the reverse too).
        raise CudaenvError("a cuda module written by `cudaenv modulefiles` is loaded; run `module unload cuda` "
                           "before `cudaenv use`", exit_code=2)
    target, _pin = target_from_pin(ctx, target)
    notes: list[str] = []
    profile, tk = resolve_target(ctx, target, notes)
    ops = use_ops(ctx, profile, tk, notes, links=True)
    # Where it was planned: another node (a Slurm job inheriting this shell) re-plans (commands/node.py).
    plan = plan_use(ctx.env, ops, profile["name"], node_key(ctx.proc_root))
    plan.notes[:0] = notes
    plan.subject = (profile["name"], tk["full_version"], tk["root"])
    if not plan.changes and ctx.env.get(ACTIVE_VAR) == profile["name"]:
        plan.notes.append(f"{profile['name']} is already active")
    return plan, profile, tk


def plan_for_off(ctx: Context | None) -> Plan:
    """Plan ``off``: it reads only the recorded state in the environment (``ctx`` None: the process's)."""
    return plan_off(os.environ if ctx is None else ctx.env)


def emit_plan(ctx: Context | None, plan_fn: Callable[[Output], Plan], name: str | None, words: str) -> int:
    """Find the output ``name`` names, plan with ``plan_fn(output)``, deliver, and report.

    Args:
        ctx: The command's context (saved at the end), or None for a command
            that reads only the process environment (`off`, the conda deactivate hook).
        plan_fn: Returns the Plan for the output (may raise CudaenvError).
        name: A ``--shell`` or format name (None: the detected shell).
        words: The command as typed (``use 12.4``), for the terminal hint.

    Returns:
        The exit status.
    """
    env = os.environ if ctx is None else ctx.env
    try:
        out = get(detect(env) if name is None else name)
        plan = plan_fn(out)
        text, more = out.deliver(plan, env)
    except CudaenvError as exc:
        return report_error(exc)
    finally:
        if ctx is not None:
            ctx.save()
    for n in plan.notes + more:
        note(n)
    hint = out.tty_hint(words) if text else None
    if hint and sys.stdout is not None and sys.stdout.isatty():
        note(hint)
    write_out(text)
    return 0


def do_use(target: str | None, shell: str | None = None, ctx: Context | None = None) -> int:
    """``cudaenv use [TARGET]`` for a ``--shell`` or format name (None: the detected shell)."""
    from ..context import Context

    ctx = ctx or Context()

    def plan_fn(out: Output) -> Plan:
        out.precheck(ctx.env)
        plan, _profile, tk = plan_for_use(ctx, target)
        if sys.stderr is not None and sys.stderr.isatty():
            line = _choice(ctx, target, tk)
            if line:
                plan.notes.append(line)
        return plan

    return emit_plan(ctx, plan_fn, shell, "use" + (f" {target}" if target else ""))


def _choice(ctx: Context, target: str | None, tk: Toolkit) -> str | None:
    """At a terminal only: say what a word that was not literal picked, or that the pick conflicts
    with the environment's torch (torch's facts are the files ``use`` already read; no process)."""
    from ..checks.fit import choice_line, fit_facts
    from ..profiles.resolve import target_from_pin

    try:
        word = target_from_pin(ctx, target)[0]
    except CudaenvError:
        return None
    pyenv = ctx.python.get()
    return choice_line(fit_facts(ctx), word, tk, pyenv["prefix"] if pyenv else None)


def do_off(shell: str | None = None, ctx: Context | None = None) -> int:
    """``cudaenv off`` for a ``--shell`` or format name (None: the detected shell).

    Without ``ctx`` it reads only the process environment: no discovery, no cache.
    """

    def plan_fn(out: Output) -> Plan:
        out.check_off()
        return plan_for_off(ctx)

    return emit_plan(ctx, plan_fn, shell, "off")
