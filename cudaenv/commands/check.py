"""``cudaenv check``: will these profiles work here, and if not, why and what to do."""

from __future__ import annotations

import sys

from ..checks.gather import gather
from ..checks.report import render_findings, worst
from ..checks.rules import check_toolkit
from ..context import Context
from ..infra.console import note, printable, write_out
from ..infra.console import quiet as be_quiet
from ..infra.term import colour
from ..infra.jsonout import document, dumps, target
from ..profiles.select import select_targets

__all__ = ["check"]


def check(targets: tuple[str, ...] | list[str], all_: bool, python: str | None, torch: bool, verbose: bool,
          as_json: bool, quiet: bool = False) -> int:
    """Check each target; exit status 1 when any check fails (``quiet``: only that, and errors)."""
    if quiet:
        be_quiet()
    ctx = Context()
    notes: list[str] = []
    results = []
    for profile, tk in select_targets(ctx, targets, all_, verb="check", notes=notes):
        findings = check_toolkit(gather(ctx, profile, tk, python=python, torch=torch))
        results.append((profile, tk, findings))
    ctx.save()
    for n in notes:
        note(n)
    failed = any(worst(f) == "fail" for _, _, f in results)
    col = colour(sys.stdout, ctx.env)
    if as_json:
        write_out(dumps(document("check", not failed, results=[
            {**target(p["name"], tk["root"], tk["full_version"]), "version": tk["full_version"],
             "status": worst(f), "findings": [x.to_dict() for x in f]} for p, tk, f in results])) + "\n")
    elif not quiet:
        for p, tk, f in results:
            write_out(printable(f"{p['name']}: CUDA {tk['full_version']} at {tk['root']}") + "\n")
            write_out(render_findings(f, verbose, col))
    return 1 if failed else 0
