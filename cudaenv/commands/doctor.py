"""``cudaenv doctor``: diagnose the shell you are in, then check the toolkit it uses."""

from __future__ import annotations

import sys

from ..checks.gather import driver, gather
from ..checks.live import gather_live, live_rules
from ..checks.report import render_findings, worst
from ..checks.rules import check_toolkit
from ..checks.shell import gather_shell, shell_rules
from ..context import Context
from ..errors import CudaenvError
from ..infra.console import note, printable, write_out
from ..infra.term import colour
from ..infra.jsonout import document, dumps
from ..infra.jsonout import target as target_record
from ..profiles.select import select_targets

__all__ = ["doctor"]


def _inherited(ctx: Context, notes: list[str]) -> None:
    """A note when this shell's switch was planned on another node: what this node gets instead.

    The profile checks below plan for this node already (``profile_env``); the
    shell's own variables are what it inherited, and the note says which of
    them this node would change and how to have them.
    """
    from .node import inherited_node, node_replan

    found = inherited_node(ctx.env, ctx.proc_root)
    if found is None:
        return
    name, where = found
    head = f"this shell's profile {name} was planned on another node ({where})"
    try:
        plan = node_replan(ctx)
    except CudaenvError as exc:
        notes.append(f"{head} and cannot be planned here: {exc.message}")
        return
    shown = [f"{c.name}={c.value}" if c.op == "set" else f"unset {c.name}" for c in (plan.changes if plan else [])
             if not c.name.startswith("_CUDAENV") and c.name != "CUDAENV_ACTIVE"]
    notes.append(f"{head}; this node gives " + ("; ".join(shown) if shown else "the same values")
                 + f" — `eval \"$(cudaenv use {name})\"` applies it here (a site TaskProlog running `cudaenv slurm task-prolog` does it for every job step)")


def doctor(python: str | None, torch: bool, verbose: bool, as_json: bool) -> int:
    """Shell findings, then the ``check`` findings for the toolkit this shell uses.

    That toolkit is the shell's part of the one default order
    (:func:`~cudaenv.profiles.select.select_targets`): the active profile, else
    the toolkit ``$CUDA_HOME`` points at. Exit status 1 when anything fails.
    """
    ctx = Context()
    notes: list[str] = []
    _inherited(ctx, notes)
    findings = shell_rules(gather_shell(ctx, driver(ctx)))
    findings += live_rules(gather_live(ctx, driver(ctx), python))
    target = None
    checked = None
    profile_findings = []
    try:
        pairs = select_targets(ctx, verb="diagnose", defaults=("active", "cuda_home"), notes=notes)
    except CudaenvError as exc:
        pairs = []
        notes.append(f"no profile checks: {exc.message}")
    for profile, tk in pairs:
        target = profile["name"] if ctx.env.get("CUDAENV_ACTIVE") == profile["name"] else ctx.env.get("CUDA_HOME")
        profile_findings = check_toolkit(gather(ctx, profile, tk, python=python, torch=torch))
        if any(f.id == "compiler.host" for f in findings):
            # The shell's own finding judges the compiler this shell's nvcc runs; the profile's
            # would judge what `use` selects, which the shell may no longer have.
            profile_findings = [f for f in profile_findings if f.id != "compiler.host"]
        checked = (profile["name"], tk["root"], tk["full_version"])
    ctx.save()
    for n in notes:
        note(n)
    allf = findings + profile_findings
    failed = worst(allf) == "fail"
    if as_json:
        write_out(dumps(document("doctor", not failed, shell=[f.to_dict() for f in findings], profile=target,
                                 target=target_record(*checked) if checked else None,
                                 checks=[f.to_dict() for f in profile_findings])) + "\n")
    else:
        col = colour(sys.stdout, ctx.env)
        write_out("this shell:\n" + render_findings(findings, verbose, col))
        if profile_findings:
            write_out(printable(f"active toolkit ({target}):") + "\n" + render_findings(profile_findings, verbose, col))
    return 1 if failed else 0
