"""``cudaenv verify`` without click.

A cache hit should cost about as much as starting Python, and click alone
costs more than that, so ``main.py`` hands ``verify`` here first. The
arguments are parsed by hand; anything unusual (``--help``, an unknown option,
a bad value) returns None and the click command (``cli/verify_cmd.py``), which
has the full parser and its messages, does the job instead. When every
target has a cached pass, it is printed without importing threads or
subprocess machinery; otherwise :func:`cudaenv.verify.runner.run_command` runs
the steps, exactly as the click command does.
"""

from __future__ import annotations

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["select_targets", "parse_args", "fast_verify"]


def select_targets(ctx: Context, names: tuple[str, ...] | list[str], all_: bool) -> list[tuple[dict, dict]]:
    """(profile, toolkit) pairs: the named ones, --all, else the active profile, the pin or the default.

    A profile named twice (``verify 12.4 cuda-12.4.1``) is verified once.
    """
    from ..profiles.pin import find_pin
    from ..profiles.resolve import profile_for
    from ..switch import active_profile, resolve_target

    if all_:
        profiles, _ = ctx.profiles()
        pairs = [(profile_for(tk, profiles), tk) for tk in ctx.scan()[0]]
        if not pairs:
            raise CudaenvError("no CUDA toolkit found; nothing to verify", hint="`cudaenv list` shows what was found")
    elif names:
        pairs = [resolve_target(ctx, t) for t in names]
    else:
        act = active_profile(ctx)
        pin = find_pin(ctx.cwd) if act is None else None
        if act is not None:
            pairs = [resolve_target(ctx, act["name"])]
        elif pin:
            pairs = [resolve_target(ctx, pin[1])]
        else:
            default = [tk for tk in ctx.scan()[0] if tk["default"]]
            if not default:
                raise CudaenvError("nothing to verify: name a profile or version, or pass --all", exit_code=2)
            pairs = [(profile_for(default[0], ctx.profiles()[0]), default[0])]
    seen: set[str] = set()
    out = []
    for p, tk in pairs:
        if p["name"] not in seen:
            seen.add(p["name"])
            out.append((p, tk))
    return out


def _number(text: str, kind: type) -> int | float | None:
    try:
        value = kind(text)
    except ValueError:
        return None
    return value if value >= 1 else None


_FLAGS = {"--all": "all", "--no-torch": "no_torch", "--json": "json", "--no-cache": "no_cache", "--keep": "keep"}
_VALUES = {"--python": "python", "--jobs": "jobs", "-j": "jobs", "--timeout": "timeout"}


def parse_args(argv: list[str]) -> dict | None:
    """``verify``'s arguments parsed by hand, or None for anything unusual (help, errors, unknown options).

    None hands the whole command to click, which has the full parser and its messages.
    """
    opts: dict = {"targets": [], "all": False, "python": None, "no_torch": False, "json": False, "no_cache": False,
                  "keep": False, "jobs": None, "timeout": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        if a in _FLAGS:
            opts[_FLAGS[a]] = True
        elif name in _VALUES and (eq or i + 1 < len(argv)):
            if not eq:
                value = argv[i + 1]
                i += 1
            key = _VALUES[name]
            if key == "python":
                if not value:
                    return None
                opts["python"] = value
            else:
                num = _number(value, float if key == "timeout" else int)
                if num is None:
                    return None  # click reports the bad value
                opts[key] = num
        elif a.startswith("-"):
            return None
        else:
            opts["targets"].append(a)
        i += 1
    if opts["all"] and opts["targets"]:
        return None
    return opts


def fast_verify(argv: list[str]) -> int | None:
    """``cudaenv verify`` without click: cached results printed, or the steps run.

    Returns:
        The exit status, or None when the arguments need click's parser.
    """
    from ..context import Context
    from ..infra.console import report_error, write_out
    from .prep import DEFAULT_TIMEOUT, Options, cached_result, prepare

    args = parse_args(argv)
    if args is None:
        return None
    ctx = Context()
    opts = Options(python=args["python"], torch=not args["no_torch"], timeout=args["timeout"] or DEFAULT_TIMEOUT,
                   keep=args["keep"], no_cache=args["no_cache"], jobs=args["jobs"])
    records = []
    try:
        pairs = select_targets(ctx, args["targets"], args["all"])
        if not opts.no_cache and not opts.keep:
            for profile, tk in pairs:
                rec = cached_result(ctx, prepare(ctx, profile, tk, opts))
                if rec is None:
                    break
                records.append(rec)
    except CudaenvError as exc:
        ctx.save()
        return report_error(exc)
    if len(records) < len(pairs):
        from .runner import run_command

        return run_command(ctx, pairs, opts, args["json"])
    ctx.save()
    from .report import json_document, render_record

    if args["json"]:
        from ..infra.jsonout import dumps

        write_out(dumps(json_document(records)) + "\n")
    else:
        write_out("".join(render_record(r) for r in records))
    return 0
