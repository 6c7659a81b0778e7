"""A switch inherited from another node, re-planned for this one; the Slurm task prolog.

``use`` records in its state where it planned (``State.node``: host name, boot
id, the allocation's cores and memory, the driver and GPUs seen;
:func:`cudaenv.host.node.node_key`). Environments travel: Slurm copies the
submitting shell into every job (``--export=ALL``, its default), an interactive
``srun --pty bash`` inherits the login shell, a step may be bound to other
cores or run under a cgroup. A process that finds another node's key plans
the active profile again here (:func:`node_replan`): the libcuda stub, the
architecture list and the job counts become this node's. The user's own
values still win: the re-plan starts from the environment with cudaenv's
record taken back, so a value cudaenv did not set, or one the user changed
after ``use``, is kept.

Who calls it: ``init`` (every new interactive shell), the ``--auto`` hook,
``exec`` (it plans anyway), ``doctor`` (diagnoses what this node gets), and
:func:`do_task_prolog`, the ``cudaenv slurm task-prolog`` a site's
``TaskProlog`` (or a user's ``srun --task-prolog=``) runs before each task:
Slurm applies the ``export NAME=value`` / ``unset NAME`` lines it prints.
"""

from __future__ import annotations

from ..env.plan import Plan
from ..env.state import STATE_VAR, decode
from ..errors import CudaenvError
from ..infra.console import note, write_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..context import Context

__all__ = ["inherited_node", "node_replan", "prolog_text", "do_task_prolog"]


def inherited_node(env: Mapping[str, str], proc_root: str = "/proc") -> tuple[str, str] | None:
    """(active profile, the node it was planned on) when that is not this node; None otherwise.

    None too without a state, with an unreadable one, or one written before
    nodes were recorded (nothing says it came from elsewhere). Cheap (files
    only): ``init`` asks it in every new shell with an active profile.
    """
    text = env.get(STATE_VAR)
    if not text:
        return None
    try:
        state = decode(text)
    except CudaenvError:
        return None
    if state.node is None:
        return None
    from ..host.node import node_key

    return None if state.node == node_key(proc_root) else (state.name, state.node)


def node_replan(ctx: Context) -> Plan | None:
    """The plan that makes an inherited switch this node's, or None when it is already.

    Raises:
        CudaenvError: the active profile cannot be planned here (its toolkit is
            not on this node, say).
    """
    found = inherited_node(ctx.env, ctx.proc_root)
    if found is None:
        return None
    from .switch import plan_for_use

    name, where = found
    plan = plan_for_use(ctx, name)[0]
    plan.notes = [n for n in plan.notes if n != f"{name} is already active"]
    host = where.split("/", 1)[0]
    if plan.changes:
        changed = ", ".join(c.name for c in plan.changes if not c.name.startswith("_CUDAENV"))
        plan.notes.append(f"{name} was planned on {host} ({where}); re-planned for this node"
                          + (f": {changed}" if changed else ""))
    return plan


def prolog_text(plan: Plan) -> str:
    """The lines a Slurm task prolog prints: ``export NAME=value`` or ``unset NAME`` per change.

    Slurm takes the rest of the line after ``=`` verbatim (no shell quoting);
    a value holding a newline cannot be written so, and is refused.

    Raises:
        CudaenvError: a value with a newline or NUL.
    """
    lines = []
    for c in plan.changes:
        if c.op == "set":
            value = c.value or ""
            if "\n" in value or "\r" in value or "\0" in value:
                raise CudaenvError(f"{c.name}'s value holds a line break: a task prolog cannot export it")
            lines.append(f"export {c.name}={value}")
        else:
            lines.append(f"unset {c.name}")
    return "".join(line + "\n" for line in lines)


def do_task_prolog() -> int:
    """``cudaenv slurm task-prolog``: re-plan an inherited switch for this task's node, as prolog lines.

    Prints nothing when no profile is active or it was planned here. A task
    prolog must never stop a job: every failure is one stderr line (slurmd's
    log) and exit status 0, with nothing on stdout, so the task starts with
    the environment it inherited.
    """
    from ..context import Context

    try:
        ctx = Context()
        try:
            plan = node_replan(ctx)
        finally:
            ctx.save()
        text = prolog_text(plan) if plan is not None else ""
    except CudaenvError as exc:
        note(f"task prolog: {exc.message}; the task keeps the environment it inherited")
        return 0
    if plan is not None:
        for n in plan.notes:
            note(n)
    write_out(text)
    return 0
