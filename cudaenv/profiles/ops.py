"""Everything ``use`` applies for a profile: its ops, the stub directories, the host compiler.

``use``, ``show``, the checks, ``verify`` and the modulefiles all go through
:func:`use_ops`, so what they describe is what ``use`` does. Computing never
writes: only ``use`` and ``verify`` pass ``links=True`` and get the
loader-path stub link made (``show`` and ``check`` describe it).
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..toolkit.stubs import link_stub_dir, loader_link_dir, make_loader_link, stub_target
from .model import profile_ops

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from ..env.ops import Ops
    from ..toolkit.types import Toolkit
    from .model import Profile

__all__ = ["loader_stub", "host_compiler", "user_ccbin", "use_ops"]


def loader_stub(ctx: Context, profile: Profile, tk: Toolkit) -> tuple[str, str] | None:
    """(directory, the stub its ``libcuda.so.1`` points at) for LD_LIBRARY_PATH, or None.

    Only a driverless host (or a profile saying ``stubs: always``) gets one:
    with a real driver, a stub on LD_LIBRARY_PATH breaks every CUDA program
    (error 34). The stub is the toolkit's own, else the one cudaenv generated
    for a toolkit that has none (none generated yet: no link).
    """
    if profile["stubs"] == "never":
        return None
    want = stub_target(ctx.cache_dir, tk)
    if want is None:
        return None
    if profile["stubs"] == "auto":
        from ..host.loader import driver_present

        if driver_present(ctx.env, proc_root=ctx.proc_root):
            return None
    return loader_link_dir(ctx.cache_dir, tk), want


def _select_host_compiler(ctx: Context, tk: Toolkit) -> tuple:
    """(path or None, reason): the compiler to force for ``tk``, None when the default is fine."""
    from ..host.compilers import accepts, default_compiler, find_compilers, select
    from ..toolkit.facts import host_limits

    limits = host_limits(tk)
    default = default_compiler(ctx.env, ctx.index)
    if default is None:
        return (None, "no C++ compiler found on PATH")
    if accepts(limits, default) is not False:
        return (None, None)
    chosen = select(limits, find_compilers(ctx.env, ctx.index), default)
    if chosen is None:
        return (None, f"{default['family']} {default['version']} is newer than CUDA {tk['version']} accepts "
                      "and no accepted compiler is installed")
    return (chosen["path"], f"{default['family']} {default['version']} ({default['why']}) is newer than "
                            f"CUDA {tk['version']} accepts")


def host_compiler(ctx: Context, profile: Profile, tk: Toolkit) -> tuple:
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
    from ..host.compilers import path_fingerprint
    from ..toolkit.probe import signature

    ctx.index.data.setdefault("hostcxx", {})
    sig = (signature(tk["root"]), path_fingerprint(ctx.env))
    return tuple(ctx.index.cached("hostcxx", tk["root"], sig, lambda: _select_host_compiler(ctx, tk)))


def user_ccbin(env: dict) -> str | None:
    """The ``-ccbin`` the user's own NVCC_PREPEND/APPEND_FLAGS name (ours excluded), if any."""
    from ..env.plan import undo
    from ..env.state import STATE_VAR, decode
    from ..host.compilers import ccbin_of

    base = env
    if env.get(STATE_VAR):
        try:
            base = undo(env, decode(env[STATE_VAR]))
        except CudaenvError:
            pass
    return ccbin_of(base)


def use_ops(ctx: Context, profile: Profile, tk: Toolkit, notes: list[str] | None = None,
            links: bool = False) -> Ops:
    """What ``use`` applies for ``profile``: its ops, the stub directories and the host compiler.

    Args:
        notes: Collects messages for stderr (the host compiler's story).
        links: Make the loader-path stub link if the switch has one (``use``
            and ``verify``; a query only describes it).

    Raises:
        CudaenvError: the link cannot be made.
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
    stub = loader_stub(ctx, profile, tk)
    if stub is not None and links:
        make_loader_link(*stub)
    return profile_ops(profile, stub[0] if stub else None, cxx, link_stub_dir(ctx.cache_dir, tk))
