"""``use``, ``off`` and ``show``: resolve, plan, and hand the plan to a renderer.

Shared by the fast entry point and the click commands so both behave alike.
"""

from __future__ import annotations

import os

from .env.plan import Plan, plan_off, plan_use
from .env.state import ACTIVE_VAR
from .errors import CudaenvError
from .host.loader import driver_present
from .profile import find_pin, profile_ops
from .resolve import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .context import Context

__all__ = ["target_from_pin", "resolve_target", "stub_dir", "plan_for_use", "plan_for_off", "active_profile"]


def target_from_pin(ctx: Context, target: str | None) -> tuple[str, str | None]:
    """The target to use: the argument, else the nearest ``.cuda-version``.

    Returns:
        (target, pin file or None).
    """
    if target:
        return target, None
    pin = find_pin(ctx.cwd)
    if pin is None:
        raise CudaenvError(
            "name a profile, version or toolkit path (no .cuda-version found here or above)",
            hint="`cudaenv list` shows what is installed",
            exit_code=2,
        )
    return pin[1], pin[0]


def resolve_target(ctx: Context, target: str, notes: list[str] | None = None) -> tuple[dict, dict]:
    """(profile, toolkit) for ``target``.

    An invalid profile file is an error when it would have governed the
    result (its file is named after the target or the resolved profile);
    otherwise it is mentioned in ``notes`` and ignored.
    """
    profiles, bad = ctx.profiles()
    toolkits, _ = ctx.scan()
    profile, tk = resolve(target, toolkits, profiles, ctx.probe_path, bad)
    for path, err in bad:
        stem = os.path.basename(path).rsplit(".", 1)[0]
        if stem == profile["name"] and profile.get("file") != path:
            raise CudaenvError(err, hint="fix the file or delete it", exit_code=2)
        if notes is not None:
            notes.append(f"ignoring {err}")
    return profile, tk


def stub_dir(ctx: Context, profile: dict, tk: dict) -> str | None:
    """The loader-path stub directory for this switch, or None.

    Only a driverless host (or a profile saying ``stubs: always``) gets one:
    with a real driver, a stub on LD_LIBRARY_PATH breaks every CUDA program
    (error 34). The directory holds ``libcuda.so.1`` -> the toolkit's stub,
    the name programs are linked against.
    """
    if not tk["components"].get("stubs") or profile["stubs"] == "never":
        return None
    base = os.path.join(ctx.cache_dir, "stubs")
    if profile["stubs"] == "auto" and driver_present(ctx.env):
        return None
    d = os.path.join(base, tk["stub_key"])
    link = os.path.join(d, "libcuda.so.1")
    want = os.path.join(tk["root"], tk["libdir"], "stubs", "libcuda.so")
    try:
        if os.readlink(link) == want:
            return d
    except OSError:
        pass
    try:
        os.makedirs(d, exist_ok=True)
        tmp = f"{link}.{os.getpid()}"
        os.symlink(want, tmp)
        os.replace(tmp, link)
    except OSError as exc:
        raise CudaenvError(f"cannot create the stub link in {d}: {exc.strerror}") from None
    return d


def plan_for_use(ctx: Context, target: str | None) -> tuple[Plan, dict, dict]:
    """Plan ``use``: (plan, profile, toolkit)."""
    target, _pin = target_from_pin(ctx, target)
    notes: list[str] = []
    profile, tk = resolve_target(ctx, target, notes)
    ops = profile_ops(profile, stub_dir(ctx, profile, tk))
    plan = plan_use(ctx.env, ops, profile["name"])
    plan.notes[:0] = notes
    if not plan.changes and ctx.env.get(ACTIVE_VAR) == profile["name"]:
        plan.notes.append(f"{profile['name']} is already active")
    return plan, profile, tk


def plan_for_off(ctx: Context) -> Plan:
    """Plan ``off``."""
    return plan_off(ctx.env)


def active_profile(ctx: Context) -> dict | None:
    """The profile named by ``CUDAENV_ACTIVE``, if it still resolves."""
    from .profile import default_profile

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
