"""``cudaenv doctor``: diagnose the shell you are in."""

from __future__ import annotations

import click

from ..checks.gather import driver, gather
from ..checks.report import render_findings, worst
from ..checks.rules import check_toolkit
from ..checks.shell import gather_shell, shell_rules
from ..context import Context
from ..errors import CudaenvError
from ..infra.console import note, write_out
from ..switch import active_profile, resolve_target
from .common import echo_json, handles_errors, json_option

__all__ = ["doctor_cmd"]


@click.command("doctor")
@click.option("--python", "python", metavar="PY", help="Interpreter whose torch to check (default: python3 on PATH).")
@click.option("--no-torch", is_flag=True, help="Skip the torch probe.")
@click.option("--verbose", "-v", is_flag=True, help="Show detail for every finding.")
@json_option
@handles_errors
def doctor_cmd(python: str | None, no_torch: bool, verbose: bool, as_json: bool) -> None:
    """Diagnose this shell: CUDA_HOME vs PATH vs the active profile, empty path entries,
    stubs on the loader path, mixed libcudart, CUDA_VISIBLE_DEVICES, stale torch_extensions
    locks; then the `check` findings for the active profile.

    Exit status 0 when nothing fails, 1 otherwise.
    """
    ctx = Context()
    drv = driver(ctx)
    findings = shell_rules(gather_shell(ctx, drv))
    target = None
    act = active_profile(ctx)
    if act is not None:
        target = act["name"]
    elif ctx.env.get("CUDA_HOME"):
        target = ctx.env["CUDA_HOME"]
    profile_findings = []
    if target:
        try:
            profile, tk = resolve_target(ctx, target)
            profile_findings = check_toolkit(gather(ctx, profile, tk, python=python, torch=not no_torch))
        except CudaenvError as exc:
            note(f"no profile checks: {exc.message}")
    ctx.save()
    allf = findings + profile_findings
    failed = worst(allf) == "fail"
    if as_json:
        echo_json({"schema": 1, "ok": not failed, "shell": [f.to_dict() for f in findings],
                   "profile": target, "checks": [f.to_dict() for f in profile_findings]})
    else:
        write_out("this shell:\n" + render_findings(findings, verbose))
        if profile_findings:
            write_out(f"active toolkit ({target}):\n" + render_findings(profile_findings, verbose))
    raise click.exceptions.Exit(1 if failed else 0)
