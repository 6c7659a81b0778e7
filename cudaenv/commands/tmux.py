"""``use --tmux`` / ``off --tmux``: switch the pane, and the tmux session for panes opened later."""

from __future__ import annotations

from ..context import Context
from ..env.ops import apply_changes
from ..infra.console import note
from ..outputs.tmux import require_tmux, session_off, session_use
from .switch import emit_plan, plan_for_off, plan_for_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan
    from ..shells.base import Output

__all__ = ["do_use_tmux", "do_off_tmux"]


def do_use_tmux(target: str | None, shell: str | None) -> int:
    """``cudaenv use [TARGET] --tmux``: switch the pane, and the session for new panes."""
    ctx = Context()
    done: list[str] = []

    def plan_fn(out: Output) -> Plan:
        require_tmux(ctx.env)
        plan, profile, _tk = plan_for_use(ctx, target)
        out.render(plan)  # fail before touching tmux
        session_use(ctx, apply_changes(ctx.env, plan.changes))
        done.append(profile["name"])
        return plan

    code = emit_plan(ctx, plan_fn, shell, "use" + (f" {target}" if target else "") + " --tmux")
    if done:
        note(f"tmux: new windows and panes of this session start with {done[0]}")
    return code


def do_off_tmux(shell: str | None) -> int:
    """``cudaenv off --tmux``: undo in the pane, and give the session environment back."""
    ctx = Context()
    restored: list[bool] = []

    def plan_fn(out: Output) -> Plan:
        require_tmux(ctx.env)
        plan = plan_for_off(ctx)
        out.render(plan)
        restored.append(session_off(ctx))
        return plan

    code = emit_plan(ctx, plan_fn, shell, "off --tmux")
    if restored and not restored[0]:
        note("the tmux session environment holds nothing from `use --tmux`; left as it is")
    return code
