"""``use`` and ``off``: resolve, plan, and hand the plan to the output the user asked for.

The plain forms arrive from the fast entry (``main.py``) without click; the
click commands call the same functions for everything else.
"""

from __future__ import annotations

from ..env.plan import Plan, plan_off, plan_use
from ..env.state import ACTIVE_VAR
from ..errors import CudaenvError
from ..profiles.ops import use_ops
from ..profiles.pin import target_from_pin
from ..profiles.resolve import resolve_target
from .emit import emit_plan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from ..profiles.model import Profile
    from ..shells.base import Output
    from ..toolkit.types import Toolkit

__all__ = ["FORMATS", "output_name", "plan_for_use", "plan_for_off", "do_use", "do_off", "require_verified"]

#: ``--format`` values: shell = the --shell (or detected) shell's code.
FORMATS = ("shell", "json", "github", "dotenv")


def output_name(shell: str | None, fmt: str = "shell", tmux: bool = False) -> str | None:
    """The registry name for ``--shell``/``--format``/``--tmux`` (None: detect the shell).

    Raises:
        CudaenvError: options that exclude each other.
    """
    if fmt == "shell":
        return shell
    if fmt == "json":
        if shell not in (None, "json"):
            raise CudaenvError(f"--shell {shell} and --format json exclude each other", exit_code=2)
        return "json"
    if shell is not None:
        raise CudaenvError(f"--shell and --format {fmt} exclude each other", exit_code=2)
    if tmux:
        raise CudaenvError(f"--tmux and --format {fmt} exclude each other", exit_code=2)
    return fmt


def plan_for_use(ctx: Context, target: str | None) -> tuple[Plan, Profile, Toolkit]:
    """Plan ``use`` (making the loader-path stub link the plan names): (plan, profile, toolkit)."""
    target, _pin = target_from_pin(ctx, target)
    notes: list[str] = []
    profile, tk = resolve_target(ctx, target, notes)
    ops = use_ops(ctx, profile, tk, notes, links=True)
    plan = plan_use(ctx.env, ops, profile["name"])
    plan.notes[:0] = notes
    plan.subject = (profile["name"], tk["full_version"], tk["root"])
    if not plan.changes and ctx.env.get(ACTIVE_VAR) == profile["name"]:
        plan.notes.append(f"{profile['name']} is already active")
    return plan, profile, tk


def plan_for_off(ctx: Context) -> Plan:
    """Plan ``off``."""
    return plan_off(ctx.env)


def do_use(target: str | None, shell: str | None = None, ctx: Context | None = None) -> int:
    """``cudaenv use [TARGET]`` for a ``--shell`` or format name (None: the detected shell)."""
    from ..context import Context

    ctx = ctx or Context()

    def plan_fn(out: Output) -> Plan:
        out.precheck(ctx.env)
        return plan_for_use(ctx, target)[0]

    return emit_plan(ctx, plan_fn, shell, "use" + (f" {target}" if target else ""))


def do_off(shell: str | None = None, ctx: Context | None = None) -> int:
    """``cudaenv off`` for a ``--shell`` or format name (None: the detected shell)."""
    from ..context import Context

    ctx = ctx or Context()

    def plan_fn(out: Output) -> Plan:
        out.check_off()
        return plan_for_off(ctx)

    return emit_plan(ctx, plan_fn, shell, "off")


def require_verified(target: str | None) -> None:
    """``use --verify``: raise when the target's last ``cudaenv verify`` failed; a note when it never ran.

    Raises:
        CudaenvError: the last verify failed.
    """
    from ..context import Context
    from ..infra.console import note
    from ..verify.cache import require_verified as gate

    ctx = Context()
    try:
        msg = gate(ctx, target)
    finally:
        ctx.save()
    if msg:
        note(msg)
