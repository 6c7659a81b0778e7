"""``cudaenv verify``: the driver, and its click-free form.

A cache hit should cost about as much as starting Python, and click alone
costs more than that, so ``main.py`` hands ``verify`` here first. The
arguments are parsed by :func:`cudaenv.infra.console.parse`; anything unusual
(``--help``, an unknown option, a bad value) returns None and the click
command (``cli/verify_cmd.py``), which has the full parser and its
messages, calls :func:`run_verify` instead. When every target has a cached
pass, it is printed without importing threads or subprocess machinery;
otherwise :func:`cudaenv.verify.runner.run_command` runs the steps.
"""

from __future__ import annotations

import sys

from ..errors import CudaenvError
from ..infra.term import colour
from ..infra.console import parse
from ..infra.console import report_error, write_out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..verify.prep import Options

__all__ = ["parse_args", "run_verify", "fast_verify", "require_verified"]

_FLAGS = {"--all": "all", "--no-torch": "no_torch", "--json": "json", "--no-cache": "no_cache", "--keep": "keep",
          "--quiet": "quiet", "-q": "quiet"}
_VALUES = {"--python": "python", "--jobs": "jobs", "-j": "jobs", "--timeout": "timeout"}


def _number(text: str, kind: type) -> int | float | None:
    try:
        value = kind(text)
    except ValueError:
        return None
    return value if 1 <= value < float("inf") else None  # nan compares false: click says why


def parse_args(argv: list[str]) -> dict | None:
    """``verify``'s arguments parsed by hand, or None for anything unusual (help, errors, unknown options).

    None hands the whole command to click, which has the full parser and its messages.
    """
    parsed = parse(argv, _FLAGS, _VALUES)
    if parsed is None:
        return None
    given, words = parsed
    opts: dict = {"targets": words, "all": False, "python": None, "no_torch": False, "json": False,
                  "no_cache": False, "keep": False, "jobs": None, "timeout": None, "quiet": False}
    opts.update(given)
    if "python" in given and not given["python"]:
        return None
    for key, kind in (("jobs", int), ("timeout", float)):
        if key in given:
            opts[key] = _number(given[key], kind)
            if opts[key] is None:
                return None  # click reports the bad value
    if opts["all"] and opts["targets"]:
        return None
    return opts


def run_verify(targets: list[str] | tuple[str, ...], all_: bool, opts: Options, as_json: bool,
               use_cache: bool = True, quiet: bool = False) -> int:
    """Verify the targets (:func:`~cudaenv.profiles.select.select_targets`); return the exit status.

    Args:
        use_cache: Answer from cached passes without importing the runner when every target has one.
        quiet: No notes, no progress, no results for people (``--json`` still prints); errors do.
    """
    if quiet:
        from ..infra.console import quiet as be_quiet

        be_quiet()
    from ..context import Context
    from ..profiles.select import select_targets
    from ..verify.prep import cached_result, prepare

    ctx = Context()
    records = []
    try:
        pairs = select_targets(ctx, targets, all_, verb="verify")
        if use_cache and not opts.no_cache and not opts.keep:
            for profile, tk in pairs:
                rec = cached_result(ctx, prepare(ctx, profile, tk, opts))
                if rec is None:
                    break
                records.append(rec)
    except CudaenvError as exc:
        ctx.save()
        return report_error(exc)
    if not use_cache or len(records) < len(pairs):
        from ..verify.runner import run_command

        return run_command(ctx, pairs, opts, as_json, quiet)
    ctx.save()
    from ..verify.report import json_document, render_record

    if as_json:
        from ..infra.jsonout import dumps

        write_out(dumps(json_document(records)) + "\n")
    elif not quiet:
        col = colour(sys.stdout, ctx.env)
        write_out("".join(render_record(r, colour=col) for r in records))
    return 0


def fast_verify(argv: list[str]) -> int | None:
    """``cudaenv verify`` without click: cached results printed, or the steps run.

    Returns:
        The exit status, or None when the arguments need click's parser.
    """
    from ..verify.prep import DEFAULT_TIMEOUT, Options

    args = parse_args(argv)
    if args is None:
        return None
    opts = Options(python=args["python"], torch=not args["no_torch"], timeout=args["timeout"] or DEFAULT_TIMEOUT,
                   keep=args["keep"], no_cache=args["no_cache"], jobs=args["jobs"])
    return run_verify(args["targets"], args["all"], opts, args["json"], quiet=args["quiet"])


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
