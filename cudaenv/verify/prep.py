"""What a verify result depends on, computed without building anything (the cache-hit path).

Kept apart from ``runner.py`` so that answering from the cache imports no
threads, temporary-file or subprocess machinery.
"""

from __future__ import annotations

import time

from . import cache as vcache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..toolkit.types import Toolkit
    from ..profiles.model import Profile
    from ..context import Context

__all__ = ["DEFAULT_TIMEOUT", "Options", "Prep", "prepare", "probe_target", "cached_result"]

#: Seconds any one command may run (a torch extension build takes 2-3 minutes on 2 cores).
DEFAULT_TIMEOUT = 1200.0


class Options:
    """What the user asked for (the command line, as data)."""

    __slots__ = ("python", "torch", "timeout", "keep", "no_cache", "jobs")

    def __init__(self, python: str | None = None, torch: bool = True, timeout: float = DEFAULT_TIMEOUT,
                 keep: bool = False, no_cache: bool = False, jobs: int | None = None) -> None:
        self.python = python
        self.torch = torch
        self.timeout = timeout
        self.keep = keep
        self.no_cache = no_cache
        self.jobs = jobs


class Prep:
    """A target resolved to everything its result depends on (nothing built yet)."""

    __slots__ = ("profile", "tk", "env", "python", "python_info", "key", "stub", "stub_needed")

    def __init__(self, profile: Profile, tk: Toolkit, env: dict, python: str | None, python_info: dict | None,
                 key: tuple | None, stub: str | None, stub_needed: bool) -> None:
        self.profile = profile
        self.tk = tk
        self.env = env
        self.python = python
        self.python_info = python_info
        self.key = key
        self.stub = stub
        self.stub_needed = stub_needed


def prepare(ctx: Context, profile: Profile, tk: Toolkit, opts: Options, reuse_python: bool = True) -> Prep:
    """Compute the profile's environment, the target Python and the cache key (no builds).

    A toolkit without ``lib64/stubs`` whose generated stub is missing or stale
    cannot have a cached result: ``stub_needed`` is set and the Python probe
    and key are left for after the stub exists (the stub changes the
    environment, and so the key).

    With ``reuse_python``, a stored result whose interpreter files are unchanged
    supplies the Python part of the key (``python_info`` is then None: a caller
    that builds must probe).
    """
    from ..checks.gather import profile_env
    from ..toolkit.stubgen import stub_state

    env = profile_env(ctx, profile, tk, links=True)
    stub = None
    if not tk["components"].get("stubs"):
        state = stub_state(ctx.cache_dir, tk)
        if state is None:
            return Prep(profile, tk, env, None, None, None, None, True)
        stub = state["path"]
    if opts.torch and reuse_python and not opts.no_cache:
        # A result stored with an unchanged interpreter and sys.path answers without
        # the probe (whose module alone costs as much as starting Python).
        py = opts.python or vcache.which_python(env)
        path = vcache.resolve_python(py, env) if py else None
        sig = vcache.stored_python_sig(ctx.cache_dir, profile["name"], path) if path else None
        if sig is not None:
            key = vcache.make_key(tk, env, None, torch=True, proc_root=ctx.proc_root, stub=stub, py_sig=sig)
            if vcache.lookup(ctx.cache_dir, profile["name"], key) is not None:
                return Prep(profile, tk, env, path, None, key, stub, False)
    python, info = probe_target(ctx, env, opts)
    key = vcache.make_key(tk, env, info, torch=opts.torch, proc_root=ctx.proc_root, stub=stub)
    return Prep(profile, tk, env, python, info, key, stub, False)


def probe_target(ctx: Context, env: dict, opts: Options) -> tuple[str | None, dict | None]:
    """(interpreter, probe result) for the torch steps; (None, None) with --no-torch or no python."""
    if not opts.torch:
        return None, None
    from ..host.python_probe import default_python, probe_python

    python = opts.python or default_python(env)
    if not python:
        return None, None
    info = probe_python(python, env, ctx.index)
    return info.get("python") or python, info


def cached_result(ctx: Context, prep: Prep) -> dict | None:
    """The stored passing result for ``prep``'s key, marked as cached with its age; else None."""
    if prep.key is None:
        return None
    rec = vcache.lookup(ctx.cache_dir, prep.profile["name"], prep.key)
    if rec is None:
        return None
    rec = dict(rec)
    rec["cached"] = True
    rec["tmpdir"] = None  # a directory kept back then is not this run's
    rec["age"] = max(0.0, time.time() - rec.get("time", 0))
    return rec
