"""The ``--auto`` hook: follow ``.cuda-version`` as the shell changes directory.

The shell side (``cudaenv/shell/``) does the cheap part — compare the
directory with the last one, walk up looking for ``.cuda-version`` — and runs
``cudaenv _auto PIN`` only when the nearest pin file is not the one it last
acted on. :func:`plan_auto` decides what that means from the environment
alone: switch to the pin, switch back to what was active before, or nothing.
Like ``use``, this runs without click.
"""

from __future__ import annotations

import os

from ..env.direnv import reconcile
from ..env.ops import Change, apply_changes
from ..env.plan import Plan, diff, plan_off
from ..env.state import ACTIVE_VAR
from ..errors import CudaenvError
from ..profiles.resolve import find_pin
from .node import inherited_node, node_replan
from .switch import emit_plan, plan_for_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["PIN_VAR", "AUTO_VAR", "plan_auto", "do_auto"]

# The pin file the hook last acted on; the shell compares it with what it finds.
PIN_VAR = "_CUDAENV_AUTO_PIN"
# "ACTIVE,PREV": the profile the hook switched to, and the one to go back to on
# leaving ('' = none). Profile names cannot hold a comma.
AUTO_VAR = "_CUDAENV_AUTO"


def _split_auto(value: str) -> tuple[str, str]:
    active, _, prev = value.partition(",")
    return active, prev


def _pin_target(pin: str) -> tuple[str, str] | None:
    """(pin file, target) for the pin file the shell found, or None if it is gone."""
    return find_pin(os.path.dirname(pin) or "/")


def plan_auto(ctx: Context, pin: str) -> Plan:
    """What the ``--auto`` hook does now that the nearest pin file is ``pin``.

    First, when direnv has loaded, left or reloaded an ``.envrc`` since the
    last call, the lists it set back are made to agree with the active
    profile again (:func:`cudaenv.env.direnv.reconcile`); then the pin decides.
    """
    env0 = ctx.env
    env1 = reconcile(env0)
    names: list[str] = []
    notes: list[str] = []
    if inherited_node(env1, ctx.proc_root):
        # The switch was planned on another node (a job shell inheriting the login's, a step on
        # other cores): plan it for this one first; the pin then decides as usual.
        try:
            node = node_replan(ctx.with_env(env1))
        except CudaenvError as exc:
            node = None
            notes.append(f"the active profile was planned on another node and cannot be planned here: {exc.message}")
        if node is not None:
            env1 = apply_changes(env1, node.changes)
            names, notes = [c.name for c in node.changes], node.notes
    if env1 is env0:
        plan = _plan_pin(ctx, pin)
        return Plan(plan.changes, notes + plan.notes)
    plan = _plan_pin(ctx.with_env(env1), pin)
    final = apply_changes(env1, plan.changes)
    return Plan(diff(env0, final, names + [c.name for c in plan.changes if c.name not in names]), notes + plan.notes)


def _plan_pin(ctx: Context, pin: str) -> Plan:
    """What following the pin file ``pin`` means.

    Entering a pinned directory (or moving to another pin) switches to the
    pin; leaving every pinned directory switches back to what was active
    before the hook first switched (``off`` if nothing was). If the user has
    switched by hand since, leaving keeps their choice. A pin that does not
    resolve is reported and recorded, so it is not retried at every ``cd``.
    The plan always updates ``_CUDAENV_AUTO_PIN``/``_CUDAENV_AUTO``.
    """
    env = ctx.env
    old_pin = env.get(PIN_VAR, "")
    by_hook, prev = _split_auto(env.get(AUTO_VAR, ""))
    cur = env.get(ACTIVE_VAR, "")
    if not old_pin or cur != by_hook:
        prev = cur  # a new episode: go back to whatever is active now
    notes: list[str] = []
    extra: list[Change] = []
    plan = Plan([], [])
    try:
        found = _pin_target(pin) if pin else None
    except CudaenvError as exc:  # unreadable or empty: report once, like a bad version
        found = None
        notes.append(exc.message)
    if pin and (found or notes):
        now = cur
        if found:
            try:
                plan, profile, _tk = plan_for_use(ctx, found[1])
            except CudaenvError as exc:
                notes.append(f"{found[0]}: {exc.message}")
            else:
                now = profile["name"]
                plan.notes = [n for n in plan.notes if n != f"{now} is already active"]
                if now != cur:
                    notes.append(f"{now} (from {found[0]})")
        extra = [Change("set", PIN_VAR, pin), Change("set", AUTO_VAR, f"{now},{prev}")]
    else:  # no pin above (or the file vanished): leave
        if old_pin and cur == by_hook and cur != prev:
            left = os.path.dirname(old_pin) or "/"
            if prev:
                try:
                    plan = plan_for_use(ctx, prev)[0]
                    notes.append(f"back to {prev} (left {left})")
                except CudaenvError as exc:
                    plan = plan_off(env)
                    notes.append(f"cannot go back to {prev} ({exc.message}); off (left {left})")
            else:
                plan = plan_off(env)
                notes.append(f"off (left {left})")
        extra = [Change("unset", v) for v in (PIN_VAR, AUTO_VAR) if v in env]
    return Plan(plan.changes + extra, plan.notes + notes)


def do_auto(pin: str) -> int:
    """``cudaenv _auto PIN``: the code the ``--auto`` hook evaluates (notes on stderr)."""
    from ..context import Context

    ctx = Context()
    return emit_plan(ctx, lambda out: plan_auto(ctx, pin), None, "_auto")
