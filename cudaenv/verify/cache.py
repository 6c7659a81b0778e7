"""Verify results on disk: the cache key, the records, and the ``use --verify`` gate.

A result is reused only while nothing it depends on changed, and finding that
out must cost about as much as starting Python: the key is made of file
metadata (paths, mtimes, sizes, inodes) and environment values, never of
running nvcc, the interpreter or nvidia-smi. It covers

* the toolkit: its real path, :func:`cudaenv.toolkit.probe.signature` and the
  stat of ``cuda.h``;
* the computed environment's build variables (PATH, LIBRARY_PATH, CUDA_HOME,
  NVCC_PREPEND_FLAGS, CC, ...): a profile edit, another host compiler or a
  generated stub all show up there;
* the compilers those variables lead to (``-ccbin``, $CC, $CXX, CUDAHOSTCXX,
  gcc, g++, cc, c++, ld on PATH): their real paths and stats;
* the target Python and its torch (version, CUDA build, location), from
  :func:`cudaenv.host.python_probe.probe_python`, which is itself keyed on
  file metadata;
* the GPU side: the kernel driver's version file and the GPUs it lists
  under ``/proc/driver/nvidia`` (the architecture verify picks follows from
  those and the toolkit), and the generated stub's stat.

Records live in ``$XDG_CACHE_HOME/cudaenv/verify/<profile>.marshal``: the
latest few keyed results and the last result whatever its key, which is what
``use --verify`` reads. Failures are recorded but never reused.
"""

from __future__ import annotations

import marshal
import os
import time

from ..env.pathlist import which
from ..errors import CudaenvError
from ..host.compilers import ccbin_of
from ..infra.private import Untrusted, ensure_dir, read_private_marshal, write_private

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..toolkit.types import Toolkit
    from typing import Mapping

    from ..context import Context

__all__ = ["FORMAT", "ENV_VARS", "results_path", "load", "lookup", "store", "last_record", "make_key",
           "host_gpu_sig", "age_text", "require_verified"]

#: Bump when the record layout or the meaning of a step changes: old results are ignored.
FORMAT = 1
#: Keyed results kept per profile (different pythons, --no-torch, older states).
KEEP = 8
#: The largest record file read (KEEP results of a few KiB each; anything bigger is not ours).
MAX_BYTES = 16 << 20

#: Variables of the computed environment that change what a build does.
ENV_VARS = (
    "PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
    "CUDA_HOME", "CUDA_PATH", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", "CUDAHOSTCXX",
    "CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
    "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "VIRTUAL_ENV", "CONDA_PREFIX",
    "CUDA_VISIBLE_DEVICES",
)
_TOOLS = ("gcc", "g++", "cc", "c++", "ld")


def results_path(cache_dir: str, profile_name: str) -> str:
    """The record file of one profile (profile names are safe file names)."""
    return os.path.join(cache_dir, "verify", f"{profile_name}.marshal")


def load(cache_dir: str, profile_name: str) -> dict:
    """The profile's records (``{"format", "entries": [(key, record)], "last"}``); empty when none."""
    # A FIFO or device in its place is "no records" (and replaced by the next store), never a hang;
    # so is a file another user could have written (infra/private.py), and one of another shape.
    data = read_private_marshal(results_path(cache_dir, profile_name), MAX_BYTES)
    if not (isinstance(data, dict) and data.get("format") == FORMAT and type(data.get("entries")) is list
            and all(type(e) is tuple and len(e) == 2 and isinstance(e[1], dict) for e in data["entries"])
            and (data.get("last") is None or isinstance(data["last"], dict))):
        return {"format": FORMAT, "entries": [], "last": None}
    return data


def lookup(cache_dir: str, profile_name: str, key: tuple) -> dict | None:
    """The passing record stored under ``key``, or None (failures are never reused)."""
    for k, rec in load(cache_dir, profile_name)["entries"]:
        if k == key and rec.get("status") == "pass":
            return rec
    return None


def last_record(cache_dir: str, profile_name: str) -> dict | None:
    """The most recent result for the profile, whatever its key (None if never verified)."""
    return load(cache_dir, profile_name)["last"]


def store(cache_dir: str, profile_name: str, key: tuple | None, record: dict) -> None:
    """Record a result: it becomes the profile's last one and replaces any under ``key``
    (None: only the last one, for a result that could not be keyed).

    Read-modify-write under an exclusive lock, then an atomic replace: two
    verify processes cannot lose each other's records or leave a torn file.
    A cache that cannot be written only costs speed (and ``use --verify``
    then sees the previous record).
    """
    import fcntl

    path = results_path(cache_dir, profile_name)
    try:
        ensure_dir(os.path.dirname(path))  # 0700; another user's: its note, and nothing stored
        lock = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except (Untrusted, OSError):
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = load(cache_dir, profile_name)
        if key is not None:
            entries = [(k, r) for k, r in data["entries"] if k != key]
            entries.insert(0, (key, record))
            data["entries"] = entries[:KEEP]
        data["last"] = record
        try:
            write_private(path, marshal.dumps(data))
        except (OSError, ValueError):
            pass
    finally:
        os.close(lock)


def _stat(path: str | None) -> tuple | None:
    if not path:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _tools_sig(env: Mapping[str, str]) -> tuple:
    path = env.get("PATH")
    names = [ccbin_of(env)]
    for var in ("CC", "CXX", "CUDAHOSTCXX"):
        words = env.get(var, "").split()
        names.append(words[0] if words else None)
    out = []
    for n in [n for n in names if n] + list(_TOOLS):
        p = which(n, path)
        real = os.path.realpath(p) if p else None
        out.append((n, p, real, _stat(real)))
    return tuple(out)


def host_gpu_sig(proc_root: str = "/proc") -> tuple:
    """What says which driver and GPUs this host has, from files only.

    The kernel module's version file and the GPUs it lists (one directory per
    PCI address) change when a driver is installed or upgraded or a GPU added;
    ``/dev/dxg`` marks WSL, where neither exists.
    """
    base = os.path.join(proc_root, "driver", "nvidia")
    try:
        with open(os.path.join(base, "version"), "rb") as f:
            version = f.read(4096)
    except OSError:
        version = None
    try:
        gpus = tuple(sorted(os.listdir(os.path.join(base, "gpus"))))
    except OSError:
        gpus = None
    return (version, gpus, os.path.exists("/dev/dxg"))


def _lstat(path: str) -> tuple | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def python_fingerprint(info: dict | None) -> tuple | None:
    """File metadata that vouches for a python probe result, stored with a verify result.

    The interpreter (the path and what it leads to), every ``sys.path`` entry and
    the user site directory (installing or removing a distribution changes one
    of their mtimes), torch's package directory and its ``version.py``. With it
    a later cache hit needs neither the interpreter nor the probe module. None
    for a failed probe or a wrapper (a pyenv shim: what it runs can change while
    its own file does not), which are probed every time.
    """
    if not info or info.get("error") or info.get("wrapper") or not info.get("python"):
        return None
    path = info["python"]
    dirs = [d for d in (info.get("sys_path") or []) if d] + ([info["user_site"]] if info.get("user_site") else [])
    torch = (info.get("torch") or {}).get("location")
    files = [torch, os.path.join(torch, "version.py")] if torch else []
    return (path, _lstat(path), _stat(path), tuple((d, _stat(d)) for d in dirs),
            tuple((f, _stat(f)) for f in files))


def fingerprint_holds(fp: tuple) -> bool:
    """Are the files behind a :func:`python_fingerprint` unchanged?"""
    path, lst, st, dirs, files = fp
    if _lstat(path) != lst or _stat(path) != st:
        return False
    return all(_stat(d) == s for d, s in dirs) and all(_stat(f) == s for f, s in files)


def which_python(env: Mapping[str, str]) -> str | None:
    """What ``python3`` (else ``python``) resolves to on env's PATH, like the probe's default."""
    path = env.get("PATH")
    return which("python3", path) or which("python", path)


def resolve_python(python: str, env: Mapping[str, str]) -> str | None:
    """``python`` as a path: a bare name is looked up on env's PATH (as the probe does)."""
    if "/" not in python:
        return which(python, env.get("PATH"))
    return os.path.abspath(python) if os.path.exists(python) else None


def stored_python_sig(cache_dir: str, profile_name: str, python: str) -> tuple | None:
    """The python part of the key from a stored result whose interpreter files are unchanged."""
    for _k, rec in load(cache_dir, profile_name)["entries"]:
        fp = rec.get("python_fp")
        if fp and fp[0] == python and rec.get("python_sig") is not None and fingerprint_holds(fp):
            return rec["python_sig"]
    return None


def python_sig(info: dict | None) -> tuple | None:
    """The part of a python probe result that decides the torch steps."""
    if info is None:
        return None
    if info.get("error"):
        return ("error", info.get("python"), info["error"])
    t = info.get("torch") or {}
    return (info.get("python"), info.get("executable"), info.get("version"), bool(t.get("installed")),
            t.get("version"), t.get("cuda"), t.get("location"), t.get("import_error"))


def make_key(tk: Toolkit, env: Mapping[str, str], python_info: dict | None, *, torch: bool,
             proc_root: str = "/proc", stub: str | None = None, py_sig: tuple | None = None) -> tuple:
    """The cache key of one verify (see the module docstring for what it covers).

    Args:
        tk: The toolkit record.
        env: The profile's computed environment.
        python_info: :func:`probe_python` result for the target interpreter (None: no torch steps).
        torch: Whether the torch steps were asked for.
        proc_root: Where ``driver/nvidia`` lives.
        stub: The generated libcuda stub in use, if any.
        py_sig: The python part already known (:func:`stored_python_sig`); replaces ``python_info``.
    """
    from ..toolkit.probe import signature

    root = tk["root"]
    return (
        FORMAT,
        root,
        signature(root),
        _stat(os.path.join(root, "include", "cuda.h")),
        tuple((v, env.get(v)) for v in ENV_VARS),
        _tools_sig(env),
        torch,
        (py_sig if py_sig is not None else python_sig(python_info)) if torch else None,
        host_gpu_sig(proc_root),
        _stat(stub),
    )


def age_text(seconds: float) -> str:
    """``42 s``, ``5 min``, ``3 h``, ``2 days``."""
    s = max(0, int(seconds))
    if s < 90:
        return f"{s} s"
    if s < 90 * 60:
        return f"{round(s / 60)} min"
    if s < 36 * 3600:
        return f"{round(s / 3600)} h"
    return f"{round(s / 86400)} days"


def require_verified(ctx: Context, target: str | None) -> str | None:
    """The ``use --verify`` gate: raise if the target profile's last verify failed.

    Returns:
        A note for stderr when the profile was never verified, else None.

    Raises:
        CudaenvError: the last ``cudaenv verify`` of the profile failed.
    """
    from ..profiles.resolve import resolve_target
    from ..profiles.resolve import target_from_pin

    target, _ = target_from_pin(ctx, target)
    profile, _tk = resolve_target(ctx, target)
    name = profile["name"]
    last = last_record(ctx.cache_dir, name)
    if last is None:
        return f"{name} has never been verified (`cudaenv verify {name}` builds and runs test programs)"
    if last.get("status") == "pass":
        return None
    failed = [s for s in last.get("steps", []) if s.get("status") == "fail"]
    what = f"{failed[0]['id']}: {failed[0]['summary']}" if failed else "a step failed"
    age = age_text(time.time() - last.get("time", 0))
    raise CudaenvError(
        f"refusing to switch to {name}: its last verify failed ({age} ago; {what})",
        hint=f"`cudaenv verify {name}` shows why and re-runs it; `cudaenv use {name}` switches anyway",
        exit_code=1,
    )
