"""``use``, ``off`` and ``show``: resolve, plan, and hand the plan to a renderer.

Shared by the fast entry point and the click commands so both behave alike.
"""

from __future__ import annotations

import os

from .env.plan import Plan, plan_off, plan_use
from .env.state import ACTIVE_VAR
from .errors import CudaenvError
from .host.loader import driver_present
from .profiles.pin import find_pin
from .profiles.model import profile_ops
from .profiles.resolve import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .env.ops import Ops
    from .context import Context

__all__ = ["target_from_pin", "resolve_target", "stub_dir", "generated_stub_dir", "link_stub_dir", "host_compiler",
           "user_ccbin", "use_ops", "plan_for_use", "plan_for_off", "active_profile"]


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


def generated_stub_dir(cache_dir: str, tk: dict) -> str:
    """Where ``cudaenv verify`` (and ``profile build``) put the ``libcuda.so`` they
    generate for a toolkit that ships no ``lib64/stubs`` (see ``verify/stubgen.py``)."""
    return os.path.join(cache_dir, "libcuda-stub", tk["stub_key"])


def link_stub_dir(ctx: Context, tk: dict) -> str | None:
    """The generated stub directory for LIBRARY_PATH, or None.

    Only for a toolkit without its own stub, and only once it has been
    generated: ``use`` stays fast by doing one stat here, never generating.
    """
    if tk["components"].get("stubs"):
        return None
    d = generated_stub_dir(ctx.cache_dir, tk)
    return d if os.path.isfile(os.path.join(d, "libcuda.so")) else None


def stub_dir(ctx: Context, profile: dict, tk: dict) -> str | None:
    """The loader-path stub directory for this switch, or None.

    Only a driverless host (or a profile saying ``stubs: always``) gets one:
    with a real driver, a stub on LD_LIBRARY_PATH breaks every CUDA program
    (error 34). The directory holds ``libcuda.so.1`` -> the toolkit's stub
    (or the one cudaenv generated for a toolkit that has none), the name
    programs are linked against.
    """
    if profile["stubs"] == "never":
        return None
    if tk["components"].get("stubs"):
        want = os.path.join(tk["root"], tk["libdir"], "stubs", "libcuda.so")
    else:
        gen = link_stub_dir(ctx, tk)
        if gen is None:
            return None
        want = os.path.join(gen, "libcuda.so")
    base = os.path.join(ctx.cache_dir, "stubs")
    if profile["stubs"] == "auto" and driver_present(ctx.env, proc_root=ctx.env.get("CUDAENV_PROC_ROOT", "/proc")):
        return None
    d = os.path.join(base, tk["stub_key"])
    link = os.path.join(d, "libcuda.so.1")
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


def _select_host_compiler(ctx: Context, tk: dict) -> tuple:
    """(path or None, reason): the compiler to force for ``tk``, None when the default is fine."""
    from .host.compilers import accepts, default_compiler, find_compilers, select
    from .toolkit.facts import host_limits

    limits = host_limits(tk)
    default = default_compiler(ctx.env, ctx.index)
    if default is None:
        return (None, "no C++ compiler found on PATH")
    if accepts(limits, default) is not False:
        return (None, None)
    chosen = select(limits, find_compilers(ctx.env, ctx.index), default)
    if chosen is None:
        return (None, f"{default['family']} {default['version']} is newer than CUDA {tk['version']} accepts and no accepted compiler is installed")
    return (chosen["path"], f"{default['family']} {default['version']} ({default['why']}) is newer than CUDA {tk['version']} accepts")


def host_compiler(ctx: Context, profile: dict, tk: dict) -> tuple:
    """(compiler path or None, reason) for a switch to ``profile``.

    ``host_compiler`` in the profile: a path pins one, ``none`` turns
    selection off, ``auto`` (or null) selects the newest installed compiler
    the toolkit accepts when the default one is too new. Auto selection is
    cached against the toolkit's and PATH's fingerprints, so ``use`` only pays
    a few stats unless compilers or the toolkit changed.
    """
    hc = profile.get("host_compiler")
    if hc == "none":
        return (None, None)
    if hc and hc != "auto":
        return (hc, "pinned by the profile")
    from .host.compilers import path_fingerprint
    from .toolkit.probe import signature

    ctx.index.data.setdefault("hostcxx", {})
    sig = (signature(tk["root"]), path_fingerprint(ctx.env))
    return tuple(ctx.index.cached("hostcxx", tk["root"], sig, lambda: _select_host_compiler(ctx, tk)))


def user_ccbin(env: dict) -> str | None:
    """The ``-ccbin`` the user's own NVCC_PREPEND/APPEND_FLAGS name (ours excluded), if any."""
    from .env.plan import undo
    from .env.state import STATE_VAR, decode

    base = env
    if env.get(STATE_VAR):
        try:
            base = undo(env, decode(env[STATE_VAR]))
        except CudaenvError:
            pass
    from .host.compilers import ccbin_of

    return ccbin_of(base)


def use_ops(ctx: Context, profile: dict, tk: dict, notes: list[str] | None = None) -> Ops:
    """Everything ``use`` applies for ``profile``: its ops, the stub directories and the host compiler.

    ``use``, ``show`` and the checks all go through here, so what they
    describe is what ``use`` does.
    """
    notes = [] if notes is None else notes
    cxx, why = host_compiler(ctx, profile, tk)
    if cxx:
        mine = user_ccbin(ctx.env)
        if mine:
            notes.append(f"your NVCC flags already choose the host compiler (-ccbin {mine}); keeping it instead of {cxx}")
            cxx = None
        elif ctx.env.get("CC") and os.path.basename(ctx.env["CC"].split()[0]) != os.path.basename(cxx):
            notes.append(f"CC={ctx.env['CC']}: torch extension builds add -ccbin $CC, which overrides {cxx}")
    elif why and profile.get("host_compiler") in (None, "auto"):
        notes.append(f"warning: {why}; `cudaenv check` says what to install")
    return profile_ops(profile, stub_dir(ctx, profile, tk), cxx, link_stub_dir(ctx, tk))


def plan_for_use(ctx: Context, target: str | None) -> tuple[Plan, dict, dict]:
    """Plan ``use``: (plan, profile, toolkit)."""
    target, _pin = target_from_pin(ctx, target)
    notes: list[str] = []
    profile, tk = resolve_target(ctx, target, notes)
    ops = use_ops(ctx, profile, tk, notes)
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
    from .profiles.model import default_profile

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
