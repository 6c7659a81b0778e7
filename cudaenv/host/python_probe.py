"""What the user's Python sees: torch, its CUDA build and the NVIDIA wheels beside it.

torch is never imported in the cudaenv process (that costs 2-4 s and hundreds of
MB, and cudaenv may not even run on the user's interpreter). Instead
:func:`probe_python` runs the user's interpreter with a small self-contained
script (:data:`CHILD`, passed with ``-c``; it needs nothing from cudaenv) that
prints its findings as JSON on a marked line of stdout.

Results are cached in the :class:`~cudaenv.index.Index` (table ``"python"``),
keyed by the interpreter path, so a cache hit starts no process. The entry is
valid while all of these are unchanged:

* the interpreter path itself (``lstat``: a venv's ``bin/python`` symlink) and the
  binary it leads to (``stat``: an upgraded or replaced Python);
* the directories on the child's ``sys.path`` (site-packages, PYTHONPATH entries,
  ``.pth``-added paths) and the user site directory even when it does not exist
  yet. Installing or removing a distribution adds or removes entries in one of
  them, which changes its mtime. The child stats them *before* importing
  anything, so a change made while the probe runs is seen next time;
* the environment variables that change what the child imports or what torch
  reports (PYTHONPATH, CUDA_HOME, LD_LIBRARY_PATH, ...), the ``nvcc`` that
  ``PATH`` resolves and whether ``/usr/local/cuda`` exists (torch's CUDA_HOME
  guesses).

Not noticed: edits inside an already-installed package (an editable install's
source tree) that add no top-level entry. Interpreters that are wrappers (a pyenv
shim, a shell script that execs Python: ``sys.executable`` is not the path that
was run) are probed every time, since what they run may change without any of
the files above changing. Failed probes (missing interpreter, timeout, garbage
output, a crash) are never cached.
"""

from __future__ import annotations

import os
import time

from ..env.pathlist import which
from ..infra.run import run
from .pyenv import PROBE_TABLE, probe_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..infra.index import Index

__all__ = ["probe_python", "default_python", "CHILD", "MARKER", "TABLE", "DEFAULT_TIMEOUT"]

#: Index table holding probe results.
TABLE = PROBE_TABLE
#: Prefix of the child's result line on stdout.
MARKER = "@@cudaenv-python-probe@@"
#: Seconds allowed for one probe; a cold ``import torch`` of a CUDA build can take 10 s+.
DEFAULT_TIMEOUT = 120.0
#: Bump when CHILD or the result layout changes: old cache entries are then ignored.
PROBE_VERSION = 1

# Environment variables that change what the child imports or what torch reports.
_ENV_KEYS = (
    "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "PYTHONSAFEPATH",
    "PYTHONPLATLIBDIR", "HOME",
    "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "LD_PRELOAD",
    "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
)

# The script the user's interpreter runs. Self-contained, Python >= 3.6 syntax (no
# f-strings or walrus), stdlib only. It prints one marked JSON line on stdout as
# soon as the cheap facts are known and another once torch has been looked at, so
# a crash inside `import torch` (a segfault in a CUDA library) still leaves the
# interpreter facts. Anything torch or a .pth file prints goes to stderr.
CHILD = r'''
import sys
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]          # never import torch from the working directory
import os, json, site, time, warnings
MARKER = "@@cudaenv-python-probe@@"
real_stdout = sys.stdout
sys.stdout = sys.stderr

def stat_sig(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_ino, st.st_dev]

def one_line(exc):
    text = "%s: %s" % (type(exc).__name__, exc)
    return " ".join(text.split())[:500]

def emit(stage):
    res["stage"] = stage
    real_stdout.write("\n" + MARKER + " " + json.dumps(res, sort_keys=True) + "\n")
    real_stdout.flush()

# Stat the import locations first: a change after this point invalidates the cache.
sig_dirs = []
for p in sys.path:
    if p and p not in sig_dirs:
        sig_dirs.append(p)
user_site = None
if site.ENABLE_USER_SITE:
    try:
        user_site = site.getusersitepackages()
    except Exception:
        user_site = None
    if user_site and user_site not in sig_dirs:
        sig_dirs.append(user_site)
res = {"sig_dirs": [[p, stat_sig(p)] for p in sig_dirs]}

try:
    site_packages = list(site.getsitepackages())
except Exception:
    site_packages = [p for p in sys.path if os.path.basename(p) in ("site-packages", "dist-packages")]
if user_site and os.path.isdir(user_site) and user_site in sys.path:
    site_packages.append(user_site)
res.update(
    executable=sys.executable,
    version="%d.%d.%d" % sys.version_info[:3],
    implementation=sys.implementation.name,
    prefix=sys.prefix,
    base_prefix=getattr(sys, "base_prefix", sys.prefix),
    in_venv=getattr(sys, "base_prefix", sys.prefix) != sys.prefix,
    site_packages=site_packages,
    user_site=user_site,
    sys_path=list(sys.path),
)

def canon(name):
    out, dash = [], False
    for ch in name.lower():
        if ch in "-_.":
            dash = True
        else:
            if dash and out:
                out.append("-")
            dash = False
            out.append(ch)
    return "".join(out)

def wanted(name):
    return name.startswith("nvidia-") or name.startswith("cuda-")

# Distributions from metadata only (nothing imported). First on sys.path wins, as for import.
dists, torch_dist, torch_dist_error = {}, None, None
try:
    import importlib.metadata as md
    for d in md.distributions():
        try:
            name = canon(d.metadata["Name"] or "")
        except Exception:
            continue
        if name == "torch" and torch_dist is None:
            torch_dist = d.version
        if wanted(name) and name not in dists:
            dists[name] = d.version
except ImportError:      # Python < 3.8: read the dist-info directory names
    for p in sys.path:
        try:
            entries = sorted(os.listdir(p))
        except OSError:
            continue
        for e in entries:
            if e.endswith(".dist-info") and "-" in e:
                name, _, ver = e[: -len(".dist-info")].rpartition("-")
                name = canon(name)
                if name == "torch" and torch_dist is None:
                    torch_dist = ver
                if wanted(name) and name not in dists:
                    dists[name] = ver
except Exception as exc:
    torch_dist_error = one_line(exc)
res["nvidia_wheels"] = dists
if torch_dist_error:
    res["metadata_error"] = torch_dist_error

t = {
    "installed": False, "location": None, "dist_version": torch_dist, "version": None,
    "cuda": None, "cuda_available": None, "device_count": None, "arch_list": [],
    "device_capabilities": [], "cuda_home": None, "cuda_home_error": None,
    "cxx11_abi": None, "import_error": None, "import_seconds": None, "warnings": [],
}
res["torch"] = t
try:
    import importlib.util
    spec = importlib.util.find_spec("torch")
except Exception as exc:
    spec, t["import_error"] = None, one_line(exc)
if spec is not None:
    t["installed"] = True
    locs = list(spec.submodule_search_locations or [])
    t["location"] = locs[0] if locs else spec.origin
emit("base")

if spec is not None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0 = time.time()
        try:
            import torch
        except BaseException as exc:   # includes SystemExit from a broken package
            torch = None
            t["import_error"] = one_line(exc)
        t["import_seconds"] = round(time.time() - t0, 3)
        if torch is not None:
            def get(fn, key):
                try:
                    t[key] = fn()
                except Exception as exc:
                    t.setdefault("errors", {})[key] = one_line(exc)
            get(lambda: str(torch.__version__), "version")
            get(lambda: torch.version.cuda, "cuda")
            get(lambda: bool(torch.cuda.is_available()), "cuda_available")
            get(lambda: list(torch.cuda.get_arch_list()), "arch_list")
            if t["cuda_available"]:
                get(lambda: int(torch.cuda.device_count()), "device_count")
                get(lambda: ["%d.%d" % tuple(torch.cuda.get_device_capability(i))
                             for i in range(torch.cuda.device_count())], "device_capabilities")
            else:
                t["device_count"] = 0
            abi = getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", None)
            t["cxx11_abi"] = None if abi is None else bool(abi)
            try:
                import torch.utils.cpp_extension as cx
                t["cuda_home"] = cx.CUDA_HOME
            except BaseException as exc:
                t["cuda_home_error"] = one_line(exc)
    seen = []
    for w in caught:
        msg = " ".join(str(w.message).split())[:300]
        if msg not in seen:
            seen.append(msg)
    t["warnings"] = seen[:20]
emit("complete")
'''


def default_python(env: Mapping[str, str]) -> str | None:
    """The interpreter a shell with ``env`` runs for ``python3`` (else ``python``).

    Args:
        env: The environment whose ``PATH`` is searched (by :func:`~cudaenv.env.pathlist.which`).

    Returns:
        The path found, or None when neither name resolves.
    """
    path = env.get("PATH")
    return which("python3", path) or which("python", path)


def _stat(path: str, follow: bool = True) -> list | None:
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_ino, st.st_dev]


def _resolve(python: str, env: Mapping[str, str]) -> str | None:
    """Absolute path of ``python`` (a bare name is looked up on env's PATH)."""
    if os.sep not in python:
        return which(python, env.get("PATH"))
    return os.path.abspath(python) if os.path.exists(python) else None


def _static_sig(path: str, env: Mapping[str, str]) -> tuple:
    """Fingerprint that needs no probe result: the binary and the relevant env."""
    return (
        PROBE_VERSION,
        tuple(_stat(path, follow=False) or ()),
        tuple(_stat(path) or ()),
        tuple((k, env.get(k)) for k in _ENV_KEYS),
        # torch's CUDA_HOME guesses after the env vars: `which nvcc`, then /usr/local/cuda.
        which("nvcc", env.get("PATH")),
        os.path.exists("/usr/local/cuda"),
    )


def _dirs_unchanged(sig_dirs: list) -> bool:
    for path, sig in sig_dirs:
        if _stat(path) != sig:
            return False
    return True


def _copy(value: dict) -> dict:
    """A deep copy, so callers cannot change what is cached."""
    import marshal

    return marshal.loads(marshal.dumps(value))


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


def _parse(stdout: str) -> dict | None:
    """The last marked JSON line of the child's stdout, or None."""
    import json

    for line in reversed(stdout.splitlines()):
        if line.startswith(MARKER):
            try:
                data = json.loads(line[len(MARKER):])
            except ValueError:
                return None
            return data if isinstance(data, dict) else None
    return None


def probe_python(
    python: str,
    env: Mapping[str, str],
    index: Index | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> dict:
    """Report what ``python`` sees of torch and the NVIDIA wheels, without importing torch here.

    Args:
        python: Interpreter to probe: a path, or a bare name looked up on ``env['PATH']``.
        env: The complete environment the interpreter runs with (nothing is inherited).
        index: Cache; None probes every time.
        timeout: Seconds before the interpreter (and its children) are killed.

    Returns:
        A plain, marshal-able dict. On success: ``python`` (the path probed),
        ``executable``, ``version``, ``implementation``, ``prefix``, ``base_prefix``,
        ``in_venv``, ``site_packages``, ``user_site``, ``sys_path``, ``nvidia_wheels``
        (canonical distribution name -> version, for ``nvidia-*`` and ``cuda-*``),
        ``torch`` (``installed``, ``location``, ``dist_version``, ``version``,
        ``cuda``, ``cuda_available``, ``device_count``, ``arch_list``,
        ``device_capabilities``, ``cuda_home``, ``cuda_home_error``, ``cxx11_abi``,
        ``import_error``, ``import_seconds``, ``warnings``), ``wrapper`` (True when
        ``sys.executable`` is not the path run), ``cached`` and ``seconds``
        (this call). On failure: ``{"python": ..., "error": "<one line>",
        "cached": False, "seconds": ...}``; never raises for a bad interpreter.
    """
    t0 = time.monotonic()

    def done(result: dict, cached: bool) -> dict:
        result["cached"] = cached
        result["seconds"] = round(time.monotonic() - t0, 3)
        return result

    path = _resolve(python, env)
    if path is None:
        where = "on PATH" if os.sep not in python else "(no such file)"
        return done({"python": python, "error": f"python interpreter {python!r} not found {where}"}, False)
    key = probe_key(path)
    static = _static_sig(path, env)

    table = index.data.setdefault(TABLE, {}) if index is not None else None
    hit = _cached(table, key, static)
    if hit is not None:
        return done(hit, True)
    data, sig_dirs, complete = _run_probe(path, env, timeout)
    if complete and table is not None and index is not None and not data["wrapper"]:
        # Drop entries of interpreters that are gone (deleted venvs), so the index stays small.
        for k in [k for k in table if k != key and not os.path.lexists(k)]:
            del table[k]
        table[key] = (static, sig_dirs, _copy(data))
        index.dirty = True
    return done(data, False)


def _cached(table: dict | None, key: str, static: tuple) -> dict | None:
    """A copy of the cached probe of ``key`` when its signature and directories are unchanged, else None."""
    ent = table.get(key) if table is not None else None
    if (ent is not None and len(ent) == 3 and ent[0] == static and isinstance(ent[2], dict)
            and type(ent[1]) is list and all(type(d) in (list, tuple) and len(d) == 2 for d in ent[1])
            and _dirs_unchanged(ent[1])):
        return _copy(ent[2])
    return None


def _run_probe(path: str, env: Mapping[str, str], timeout: float) -> tuple[dict, list, bool]:
    """(the result, the directories it depends on, whether it is complete and may be cached) of one probe run."""
    child_env = dict(env)
    # The probe must not write __pycache__ into the user's site-packages (that would
    # also change the directory mtimes the cache is keyed on).
    child_env["PYTHONDONTWRITEBYTECODE"] = "1"
    res = run([path, "-c", CHILD], env=child_env, cwd="/", timeout=timeout)
    if getattr(res, "cancelled", False):  # stop_all (Ctrl-C) ended it: not a fact about the interpreter
        return {"python": path, "error": f"probing {path} was cancelled"}, [], False
    if res.timed_out:
        return {"python": path, "error": f"{path} did not finish within {timeout:g} s (killed)"}, [], False
    data = _parse(res.stdout)
    if data is None:
        if res.returncode == 127 and not res.stdout and res.stderr.startswith(path):
            msg = _last_line(res.stderr)  # could not be started: "<path>: Permission denied"
        else:
            tail = _last_line(res.stderr) or _last_line(res.stdout) or "no output"
            msg = f"{path}: not a working Python (exit {res.returncode}, no probe result); last output: {tail}"
        return {"python": path, "error": msg}, [], False

    sig_dirs = data.pop("sig_dirs", [])
    stage = data.pop("stage", None)
    data["python"] = path
    exe = data.get("executable") or ""
    data["wrapper"] = not exe or os.path.realpath(exe) != os.path.realpath(path)
    if stage != "complete":
        # The interpreter died inside `import torch` (e.g. a crash in a CUDA library).
        how = f"signal {-res.returncode}" if res.returncode < 0 else f"exit {res.returncode}"
        torch = data.setdefault("torch", {})
        tail = _last_line(res.stderr)
        torch["import_error"] = f"interpreter died while importing torch ({how})" + (f": {tail}" if tail else "")
        return data, sig_dirs, False
    return data, sig_dirs, True
