"""Which toolkit a command means: what the user typed, or the one default when nothing was.

:func:`resolve` turns a word into (profile, toolkit). Order: profile name ->
exact version -> version prefix (``12`` = newest 12.x, ``12.4`` = newest
12.4.x) -> a toolkit path. A tie is an error that lists the candidates.

:func:`resolve_target` adds the one rule for invalid profile files: a file
that would have governed the result (it is named after the target, or after
the profile the target resolves to) is an error; any other is noted and
ignored.

:func:`select_targets` is the one rule for commands that act on toolkits
when none is named (``check``, ``verify``, ``show``, ``doctor``,
``profile build``, ``modulefiles``), documented there.
"""

from __future__ import annotations

import os

from ..env.state import ACTIVE_VAR
from ..errors import CudaenvError
from ..toolkit import version_key
from .model import default_profile, generated_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Sequence

    from ..context import Context
    from ..toolkit.types import Toolkit
    from .model import Profile

__all__ = ["resolve", "profile_for", "resolve_target", "active_profile", "select_targets", "DEFAULTS"]


def _is_version(text: str) -> bool:
    parts = text.split(".")
    return all(p.isdigit() for p in parts)


def profile_for(tk: Toolkit, profiles: list[Profile]) -> Profile:
    """The profile that governs ``tk``: its generated one, another naming its root, or the default."""
    mine = [p for p in profiles if os.path.realpath(p["root"]) == tk["root"]]
    for p in mine:
        if p["name"] == generated_name(tk):
            return p
    return mine[0] if mine else default_profile(tk)


def _listing(toolkits: list[Toolkit]) -> str:
    return ", ".join(f"{t['full_version']} ({t['root']})" for t in toolkits) or "none"


def resolve(
    target: str,
    toolkits: list[Toolkit],
    profiles: list[Profile],
    probe_path: Callable[[str], Toolkit],
) -> tuple[Profile, Toolkit]:
    """Resolve ``target``.

    Args:
        target: Profile name, version, version prefix or toolkit path.
        toolkits: Discovered toolkits.
        profiles: Valid profiles.
        probe_path: Probes a path that discovery did not list (raises CudaenvError).

    Raises:
        CudaenvError: nothing matches, or several toolkits tie.
    """
    if not target:
        raise CudaenvError("empty toolkit name", exit_code=2)
    if "/" in target:
        real = os.path.realpath(target)
        tk = next((t for t in toolkits if t["root"] == real), None) or probe_path(real)
        return profile_for(tk, profiles), tk
    named = [p for p in profiles if p["name"] == target]
    if named:
        prof = named[0]
        real = os.path.realpath(prof["root"])
        tk = next((t for t in toolkits if t["root"] == real), None)
        if tk is None:
            tk = probe_path(real)
        return prof, tk
    # A toolkit's generated profile name works before any file is written.
    by_default = [t for t in toolkits if generated_name(t) == target]
    if len(by_default) == 1:
        return profile_for(by_default[0], profiles), by_default[0]
    if _is_version(target):
        exact = [t for t in toolkits if t["full_version"] == target]
        want = target.split(".")
        matches = exact or [t for t in toolkits if t["full_version"].split(".")[: len(want)] == want]
        if matches:
            best = max(version_key(t["full_version"]) for t in matches)
            top = [t for t in matches if version_key(t["full_version"]) == best]
            if len(top) > 1:
                raise CudaenvError(
                    f"{target!r} is ambiguous: {_listing(top)}",
                    hint="name a toolkit path or a profile instead",
                    exit_code=2,
                )
            return profile_for(top[0], profiles), top[0]
        raise CudaenvError(
            f"no CUDA toolkit matches {target!r}; installed: {_listing(toolkits)}",
            hint="`cudaenv list` shows what was found and what was skipped",
            exit_code=2,
        )
    known = ", ".join(p["name"] for p in profiles) or "none"
    raise CudaenvError(
        f"no profile named {target!r} (profiles: {known})",
        hint="`cudaenv list` shows toolkits; `cudaenv profile list` shows profiles",
        exit_code=2,
    )


def _bad_file(bad: list[tuple[str, str]], name: str) -> str | None:
    """The error of the invalid profile file named after ``name``, if there is one."""
    for path, err in bad:
        if os.path.basename(path).rsplit(".", 1)[0] == name:
            return err
    return None


def resolve_target(ctx: Context, target: str, notes: list[str] | None = None) -> tuple[Profile, Toolkit]:
    """(profile, toolkit) for ``target``, with the one rule for invalid profile files.

    An invalid profile file is an error when it would have governed the
    result: its file is named after the target, or after the profile the
    target resolves to (and that profile came from elsewhere). Any other
    invalid file is mentioned in ``notes`` and ignored.

    Raises:
        CudaenvError: nothing matches, a tie, or a governing file is invalid.
    """
    profiles, bad = ctx.profiles()
    toolkits, _ = ctx.scan()
    valid_named = any(p["name"] == target for p in profiles)
    err = None if valid_named else _bad_file(bad, target)
    if err is None:
        profile, tk = resolve(target, toolkits, profiles, ctx.probe_path)
        err = _bad_file([(p, e) for p, e in bad if p != profile.get("file")], profile["name"])
    if err is not None:
        raise CudaenvError(err, hint="fix the file or delete it", exit_code=2)
    if notes is not None:
        notes.extend(f"ignoring {e}" for _p, e in bad)
    return profile, tk


def active_profile(ctx: Context) -> Profile | None:
    """The profile named by ``CUDAENV_ACTIVE``, if it still resolves."""
    name = ctx.env.get(ACTIVE_VAR)
    if not name:
        return None
    profiles, _ = ctx.profiles()
    for p in profiles:
        if p["name"] == name:
            return p
    toolkits, _ = ctx.scan()
    for tk in toolkits:
        d = default_profile(tk)
        if d["name"] == name:
            return d
    return None


#: The default targets, in order, for a command given neither names nor --all.
DEFAULTS = ("active", "cuda_home", "pin", "default")


def select_targets(ctx: Context, names: Sequence[str] = (), all_: bool = False, *, verb: str = "check",
                   defaults: Sequence[str] = DEFAULTS, notes: list[str] | None = None) -> list[tuple[Profile, Toolkit]]:
    """The (profile, toolkit) pairs a command acts on: the one rule every command follows.

    1. ``names`` given: each resolved as ``use`` resolves it (:func:`resolve_target`);
    2. ``all_``: every discovered toolkit with its governing profile, the
       default toolkit (``/usr/local/cuda``) first;
    3. neither: the first of these that exists, in this order:

       * ``active``: the profile ``cudaenv use`` made active in this shell;
       * ``cuda_home``: the toolkit ``$CUDA_HOME`` points at (set by hand or by
         another tool; one that is not a toolkit is noted and skipped);
       * ``pin``: the nearest ``.cuda-version`` (here or above);
       * ``default``: the default toolkit, ``/usr/local/cuda``.

       A command may stop early by passing fewer ``defaults`` (``doctor``
       looks at the shell only: active, cuda_home; ``modulefiles`` needs
       names or --all: none). Nothing found is an error, except that with
       only shell defaults an empty list means "nothing in use".

    The same profile named twice is acted on once.

    Args:
        verb: What the command does, for messages ("check", "verify", ...).
        notes: Collects messages for stderr (ignored invalid profile files, a CUDA_HOME skipped).

    Raises:
        CudaenvError: a name does not resolve, both names and --all, or nothing to act on.
    """
    from .pin import find_pin

    notes = [] if notes is None else notes
    if all_ and names:
        raise CudaenvError("name profiles or versions, or pass --all, not both", exit_code=2)
    if all_:
        profiles, bad = ctx.profiles()
        notes.extend(f"ignoring {err}" for _path, err in bad)
        toolkits, _ = ctx.scan()
        if not toolkits:
            raise CudaenvError(f"no CUDA toolkit found; nothing to {verb}", hint="`cudaenv list` shows what was skipped")
        pairs = [(profile_for(tk, profiles), tk) for tk in sorted(toolkits, key=lambda t: not t["default"])]
    elif names:
        pairs = [resolve_target(ctx, t, notes) for t in names]
    else:
        pairs = []
        for how in defaults:
            if how == "active":
                act = active_profile(ctx)
                if act is not None:
                    pairs = [resolve_target(ctx, act["name"], notes)]
            elif how == "cuda_home":
                home = ctx.env.get("CUDA_HOME", "")
                if home and os.path.isabs(home):
                    try:
                        pairs = [resolve_target(ctx, home, notes)]
                    except CudaenvError as exc:
                        notes.append(f"not using CUDA_HOME={home}: {exc.message}")
            elif how == "pin":
                pin = find_pin(ctx.cwd)
                if pin:
                    pairs = [resolve_target(ctx, pin[1], notes)]
            elif how == "default":
                default = [tk for tk in ctx.scan()[0] if tk["default"]]
                if default:
                    pairs = [(profile_for(default[0], ctx.profiles()[0]), default[0])]
            if pairs:
                break
        if not pairs and "default" in defaults:
            raise CudaenvError(
                f"nothing to {verb}: name a profile or version, or pass --all",
                hint="without a name: the active profile, $CUDA_HOME, .cuda-version, then /usr/local/cuda",
                exit_code=2)
        if not pairs and not defaults:
            raise CudaenvError(f"nothing to {verb}: name profiles, versions or toolkit paths, or pass --all",
                               exit_code=2)
    seen: set[tuple[str, str]] = set()
    out = []
    for p, tk in pairs:
        if (p["name"], tk["root"]) not in seen:
            seen.add((p["name"], tk["root"]))
            out.append((p, tk))
    return out
