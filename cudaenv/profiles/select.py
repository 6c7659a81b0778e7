"""Which toolkits a command acts on: the one rule for every command that defaults a target.

``check``, ``verify``, ``show``, ``doctor``, ``profile build`` and
``modulefiles`` all call :func:`select_targets`; ``use`` itself takes a name
or the ``.cuda-version`` pin (:func:`~cudaenv.profiles.resolve.target_from_pin`).
"""

from __future__ import annotations

import os

from ..env.state import ACTIVE_VAR
from ..errors import CudaenvError
from .model import default_profile, scan_toolkits
from .resolve import find_pin, profile_for, resolve_target

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence

    from ..context import Context
    from ..toolkit.types import Toolkit
    from .model import Profile

__all__ = ["DEFAULTS", "active_profile", "select_targets"]


def active_profile(ctx: Context) -> Profile | None:
    """The profile named by ``CUDAENV_ACTIVE``, if it still resolves."""
    name = ctx.env.get(ACTIVE_VAR)
    if not name:
        return None
    profiles, _ = ctx.profile_files.load()
    for p in profiles:
        if p["name"] == name:
            return p
    toolkits, _ = scan_toolkits(ctx)
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
    notes = [] if notes is None else notes
    if all_ and names:
        raise CudaenvError("name profiles or versions, or pass --all, not both", exit_code=2)
    if all_:
        profiles, bad = ctx.profile_files.load()
        notes.extend(f"ignoring {err}" for _path, err in bad)
        toolkits, _ = scan_toolkits(ctx)
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
                default = [tk for tk in scan_toolkits(ctx)[0] if tk["default"]]
                if default:
                    pairs = [(profile_for(default[0], ctx.profile_files.load()[0]), default[0])]
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
