"""``cudaenv check``: will this profile work here, and if not, why and what to do."""

from __future__ import annotations

import click

from ..checks.gather import gather
from ..checks.report import render_findings, worst
from ..checks.rules import check_toolkit
from ..context import Context
from ..errors import CudaenvError
from ..infra.console import write_out
from ..profiles.pin import find_pin
from ..profiles.resolve import profile_for
from ..switch import active_profile, resolve_target
from .common import echo_json, handles_errors, json_option

__all__ = ["check_cmd", "targets_for"]


def targets_for(ctx: Context, targets: tuple[str, ...], all_: bool) -> list[tuple[dict, dict]]:
    """(profile, toolkit) pairs: the named ones, --all, else active, pin or default."""
    if all_:
        profiles, _ = ctx.profiles()
        return [(profile_for(tk, profiles), tk) for tk in ctx.scan()[0]]
    if targets:
        return [resolve_target(ctx, t) for t in targets]
    act = active_profile(ctx)
    if act is not None:
        return [resolve_target(ctx, act["name"])]
    pin = find_pin(ctx.cwd)
    if pin:
        return [resolve_target(ctx, pin[1])]
    default = [tk for tk in ctx.scan()[0] if tk["default"]]
    if default:
        return [(profile_for(default[0], ctx.profiles()[0]), default[0])]
    raise CudaenvError("nothing to check: name a profile or version, or pass --all", exit_code=2)


@click.command("check")
@click.argument("targets", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Check every discovered toolkit.")
@click.option("--python", "python", metavar="PY", help="Interpreter whose torch to check (default: the profile's python3).")
@click.option("--no-torch", is_flag=True, help="Skip the torch probe.")
@click.option("--verbose", "-v", is_flag=True, help="Show detail for every finding.")
@json_option
@handles_errors
def check_cmd(targets: tuple[str, ...], all_: bool, python: str | None, no_torch: bool, verbose: bool, as_json: bool) -> None:
    """Check driver, host compiler, torch and GPU against PROFILEs.

    Exit status 0 when nothing fails, 1 otherwise.
    """
    ctx = Context()
    results = []
    for profile, tk in targets_for(ctx, targets, all_):
        findings = check_toolkit(gather(ctx, profile, tk, python=python, torch=not no_torch))
        results.append((profile, tk, findings))
    ctx.save()
    failed = any(worst(f) == "fail" for _, _, f in results)
    if as_json:
        echo_json({
            "schema": 1,
            "ok": not failed,
            "results": [{"profile": p["name"], "root": tk["root"], "version": tk["full_version"],
                         "status": worst(f), "findings": [x.to_dict() for x in f]} for p, tk, f in results],
        })
    else:
        for p, tk, f in results:
            write_out(f"{p['name']}: CUDA {tk['full_version']} at {tk['root']}\n")
            write_out(render_findings(f, verbose))
    raise click.exceptions.Exit(1 if failed else 0)
