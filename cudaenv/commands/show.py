"""``cudaenv show``: what ``use`` would set, for people (or as JSON). Writes nothing."""

from __future__ import annotations

from ..context import Context
from ..env.plan import plan_use
from ..infra.console import note, printable, write_out
from ..infra.jsonout import document, dumps
from ..infra.jsonout import target as target_record
from ..profiles.model import loader_stub, use_ops
from ..profiles.select import select_targets

__all__ = ["show"]


def show(target: str | None, as_json: bool) -> int:
    """``cudaenv show [TARGET] [--json]`` (no TARGET: :func:`~cudaenv.profiles.select.select_targets`)."""
    ctx = Context()
    notes: list[str] = []
    # An empty word is a bad name, as for `use`, not "none given".
    (profile, tk), = select_targets(ctx, [] if target is None else [target], verb="show", notes=notes)
    stub = loader_stub(ctx, profile, tk)
    ops = use_ops(ctx, profile, tk)
    # Show only what `use` would do: what it refuses (a root no PATH-like list can hold), show refuses.
    plan_use(ctx.env, ops, profile["name"])
    ctx.save()
    for n in notes:
        note(n)
    if as_json:
        write_out(dumps({
            **document("show", True),
            **target_record(profile["name"], tk["root"], tk["full_version"]),
            "file": profile.get("file"),
            "version": tk["full_version"],
            "origin": tk["origin"],
            "stubs": profile["stubs"],
            "stubs_on_loader_path": stub is not None,
            **ops.to_dict(),
        }) + "\n")
        return 0
    src = profile.get("file") or "built-in default (no profile file; `cudaenv profile build` writes one)"
    lines = [f"profile  {profile['name']}  ({src})",
             f"toolkit  CUDA {tk['full_version']} at {tk['root']}  (version from {tk['version_source']})"]
    if tk["origin"]:
        lines.append(f"origin   pip wheels in {tk['origin']['env']} (a wheel toolkit: links in cudaenv's cache "
                     "stand in for the unversioned libraries wheels cannot ship)")
    lines += [f"  set      {var}={val}" for var, val in ops.set.items()]
    lines += [f"  prepend  {var} <- {e}" for var, entries in ops.prepend.items() for e in entries]
    lines += [f"  append   {var} <- {e}" for var, entries in ops.append.items() for e in entries]
    if not tk["components"]["stubs"]:
        lines.append(f"stubs    none: the toolkit has no {tk['libdir']}/stubs/libcuda.so (`-lcuda` cannot link through it)")
    else:
        why = {"auto": "link time only; `stubs: driverless` or `always` add a runtime stub",
               "driverless": "no NVIDIA driver found on this host" if stub else "an NVIDIA driver is present",
               "always": "the profile says always", "never": "the profile says never"}[profile["stubs"]]
        where = f"LIBRARY_PATH, and last on LD_LIBRARY_PATH through {stub[0]} (this node only)" if stub else "LIBRARY_PATH only"
        lines.append(f"stubs    {profile['stubs']}: {where} ({why})")
    write_out("".join(printable(line) + "\n" for line in lines))
    return 0
