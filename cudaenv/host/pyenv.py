"""The Python environment a switch lands in, read from files: never by running Python.

``use`` runs in every pane and must stay fast, so nothing here starts a
process or imports anything heavy. Two questions:

* :func:`locate` — *which environment?* The ``python3`` that ``PATH`` finds,
  which is what the user's next ``python`` and ``pip`` run: a virtualenv
  (``pyvenv.cfg`` beside its ``bin``), a conda env (``conda-meta``), or a plain
  interpreter's prefix (the system's, pyenv's). A pyenv shim is resolved the
  way pyenv resolves it (``PYENV_VERSION``, the nearest ``.python-version``,
  ``$PYENV_ROOT/version``), reading those files only. Its site-packages
  directories are those of ``lib/python3.*`` under the prefix (Debian's
  ``dist-packages`` too), plus the user site when the environment sees it.
* :func:`wheel_inventory` — *which NVIDIA libraries do its wheels ship?* Each
  shared library in ``nvidia/<package>/lib*/`` gives a soname and the file;
  the ``nvidia_*`` distribution whose ``RECORD`` lists it gives the
  distribution and its version (the component's own version:
  ``nvidia-nvjitlink-cu12 12.4.127`` ships ``libnvJitLink.so.12`` 12.4.127).
  Same for the compiler tools wheels put in ``bin`` (``ptxas``, ``nvcc``).
  RECORDs are read smallest first, only until every file is placed, within a
  byte budget. The result is cached in the index against the site-packages
  directories' mtimes: installing, removing or upgrading a distribution adds
  or removes a ``.dist-info`` there, which changes it.

Records are plain dicts (marshal-able): an environment is
``{"kind", "prefix", "python", "site", "user_site"}``; an inventory maps
``"libs"``/``"tools"`` to ``{name: [path, distribution, version]}``.
"""

from __future__ import annotations

import os

# Every file read here is the user's (a venv, a pin, a wheel's RECORD): never block on a FIFO
# or read a device without end.
from ..env.pathlist import DEFAULT_PATH, entries, which
from ..infra.files import read_limited

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from ..infra.index import Index
    from .types import PythonEnv, TorchBuild, WheelInventory

__all__ = ["locate", "wheel_inventory", "PythonEnvCache", "torch_build", "cached_torch", "probe_key", "TABLE", "TOOLS",
           "PROBE_TABLE", "RECORD_MAX", "RECORDS_BUDGET"]

#: Index table holding inventories.
TABLE = "pywheels"
#: Programs a wheel's ``bin`` may hold that a Python CUDA stack runs (JAX/XLA, Triton, numba).
TOOLS = ("ptxas", "nvcc", "nvlink", "fatbinary", "nvdisasm", "cuobjdump")
#: Bump when the inventory's layout changes: old cache entries are then ignored.
_VERSION = 2
#: The largest RECORD read (NVIDIA's largest, cccl's, is under 300 KiB).
RECORD_MAX = 4 << 20
#: The most RECORD bytes one inventory reads, all environments' together.
RECORDS_BUDGET = 8 << 20


def _first_python(path: str | None, skip_shims: bool = False) -> str | None:
    if skip_shims:
        path = ":".join(d for d in entries(DEFAULT_PATH if path is None else path) if os.path.basename(d) != "shims")
    return which("python3", path)


def _read_words(path: str) -> list[str] | None:
    """The version names a ``.python-version``/``version`` file lists (None: no such file)."""
    try:
        data = read_limited(path, 4096)
    except OSError:
        return None
    return [w for line in data.decode("utf-8", "replace").splitlines() for w in line.split("#", 1)[0].split()]


def _pyenv_prefix(shim: str, env: Mapping[str, str], cwd: str) -> str | None:
    """The prefix a pyenv shim runs ``python3`` from (None: the system's), as pyenv itself decides.

    The selected versions come from PYENV_VERSION, else the nearest ``.python-version``, else
    ``$PYENV_ROOT/version``; the first of them that has a ``python3`` wins, and none means
    the system's (pyenv then runs the next ``python3`` on PATH).
    """
    root = env.get("PYENV_ROOT") or os.path.dirname(os.path.dirname(shim))
    names = env.get("PYENV_VERSION", "").replace(":", " ").split() or None
    d = cwd
    while names is None:
        names = _read_words(os.path.join(d, ".python-version"))
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    if names is None:
        names = _read_words(os.path.join(root, "version")) or []
    for name in names:
        if name == "system":
            return None
        prefix = os.path.join(root, "versions", name)
        if os.access(os.path.join(prefix, "bin", "python3"), os.X_OK):
            return prefix
    return None


def _site_dirs(prefix: str) -> list[str]:
    lib = os.path.join(prefix, "lib")
    try:
        names = sorted(n for n in os.listdir(lib) if n.startswith("python3"))
    except OSError:
        return []
    out = []
    for n in names:
        for leaf in ("site-packages", "dist-packages"):
            d = os.path.join(lib, n, leaf)
            if os.path.isdir(d):
                out.append(d)
    return out


def _read_cfg(path: str) -> dict[str, str]:
    try:
        lines = read_limited(path, 65536).decode("utf-8", "replace").splitlines()
    except OSError:
        return {}
    out = {}
    for line in lines:
        key, sep, value = line.partition("=")
        if sep:
            out[key.strip().lower()] = value.strip()
    return out


def locate(env: Mapping[str, str], cwd: str | None = None) -> PythonEnv | None:
    """The Python environment ``python3`` on ``env``'s PATH belongs to, or None.

    Returns:
        ``{"kind": "venv"|"conda"|"python", "prefix", "python", "site": [dirs],
        "user_site": dir or None}``. ``site`` lists existing site-packages
        directories, the environment's own first.
    """
    path = env.get("PATH")
    py = _first_python(path)
    if py is None:
        return None
    bindir = os.path.dirname(py)
    prefix = os.path.dirname(bindir)
    if os.path.basename(bindir) == "shims" and os.path.isdir(os.path.join(prefix, "versions")):
        try:
            here = cwd or os.getcwd()
        except OSError:
            here = "/"
        found = _pyenv_prefix(py, env, here)
        if found is None:  # 'system': the next python3 on PATH
            py = _first_python(path, skip_shims=True)
            if py is None:
                return None
            prefix = os.path.dirname(os.path.dirname(py))
        else:
            prefix = found
            py = os.path.join(prefix, "bin", "python3")
    kind = "python"
    cfg = _read_cfg(os.path.join(prefix, "pyvenv.cfg"))
    if cfg:
        kind = "venv"
    elif os.path.isdir(os.path.join(prefix, "conda-meta")):
        kind = "conda"
    site = _site_dirs(prefix)
    if kind == "python" and prefix == "/usr":
        site += [d for d in _site_dirs("/usr/local") if d not in site]
    sees_user = env.get("PYTHONNOUSERSITE", "") == "" and (
        kind != "venv" or cfg.get("include-system-site-packages", "").lower() == "true")
    user_site = None
    if sees_user and site:
        base = env.get("PYTHONUSERBASE") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local")
        ver = os.path.basename(os.path.dirname(site[0]))  # python3.X
        cand = os.path.join(base, "lib", ver, "site-packages")
        if os.path.isdir(cand):
            user_site = cand
    if kind == "venv" and cfg.get("include-system-site-packages", "").lower() == "true" and cfg.get("home"):
        site += [d for d in _site_dirs(os.path.dirname(cfg["home"])) if d not in site]
    return {"kind": kind, "prefix": prefix, "python": py, "site": site, "user_site": user_site}


def _wheel_files(site: str) -> dict[str, str]:
    """``{relative path: "lib"|"tool"}`` of the NVIDIA libraries and tools that are there.

    Listing ``nvidia/<package>/lib*/`` and ``nvidia/<package>/bin/`` (a wheel cannot hold
    symlinks: each library is shipped under its soname): what exists, not what some
    ``RECORD`` says, and a few ``listdir`` calls whatever the RECORDs hold.
    """
    out: dict[str, str] = {}
    top = os.path.join(site, "nvidia")
    try:
        pkgs = os.listdir(top)
    except OSError:
        return out
    for pkg in pkgs:
        try:
            subs = os.listdir(os.path.join(top, pkg))
        except OSError:
            continue
        for sub in subs:
            if not (sub.startswith("lib") or sub == "bin"):
                continue
            try:
                names = os.listdir(os.path.join(top, pkg, sub))
            except OSError:
                continue
            for n in names:
                if sub == "bin":
                    if n in TOOLS:
                        out[f"nvidia/{pkg}/bin/{n}"] = "tool"
                elif ".so." in n:
                    out[f"nvidia/{pkg}/{sub}/{n}"] = "lib"
    return out


def _scan_site(site: str, libs: dict, tools: dict, budget: list) -> None:
    """Add the libraries and tools of ``site``'s ``nvidia_*`` wheels, reading only what that needs.

    The files come from the directories (:func:`_wheel_files`); the ``RECORD``
    files only say which distribution (and so which version) shipped each one.
    They are read smallest first (NVIDIA's are a few KiB, the largest a few
    hundred), and no more once every file is placed, or once ``budget[0]``
    bytes are spent (a few hundred large RECORDs cost a bounded read, not a
    17 s first ``use``). A file no RECORD read names is left out, as one no
    RECORD names at all always was.
    """
    try:
        names = os.listdir(site)
    except OSError:
        return
    dists = [n for n in names if n.startswith("nvidia_") and n.endswith(".dist-info")]
    if not dists:
        return
    wanted = _wheel_files(site)
    if not wanted:
        return
    sized = []
    for n in dists:
        try:
            sized.append((os.stat(os.path.join(site, n, "RECORD")).st_size, n))
        except OSError:
            continue
    owner: dict[str, str] = {}  # relative path -> the dist-info (the first by name, as pip's order had it)
    for size, n in sorted(sized):
        if len(owner) == len(wanted) or size > min(RECORD_MAX, budget[0]):
            break
        try:
            data = read_limited(os.path.join(site, n, "RECORD"), min(RECORD_MAX, budget[0]))
        except OSError:
            continue
        budget[0] -= len(data)
        for line in data.split(b"\n"):
            rel = line.split(b",", 1)[0].decode("utf-8", "replace")
            if rel in wanted and (rel not in owner or n < owner[rel]):
                owner[rel] = n
    for rel in sorted(owner, key=lambda r: (owner[r], r)):
        stem = owner[rel][: -len(".dist-info")]
        dist, _, version = stem.partition("-")
        base = rel.rsplit("/", 1)[-1]
        entry = [os.path.join(site, rel), dist.replace("_", "-"), version]
        (libs if wanted[rel] == "lib" else tools).setdefault(base, entry)


def _valid_inventory(inv: object) -> bool:
    """A cached inventory of the shape :func:`wheel_inventory` returns."""
    return (isinstance(inv, dict) and all(
        isinstance(inv.get(k), dict) and all(type(e) is list and len(e) == 3 and all(isinstance(s, str) for s in e)
                                             for e in inv[k].values()) for k in ("libs", "tools")))


class PythonEnvCache:
    """One command's Python environment and its wheel inventory, each found once.

    Args:
        env, cwd: Where ``python3`` is looked up (:func:`locate`).
        index: The cache the inventory goes through.
        given: The environment to judge instead of ``python3`` on PATH's, when
            the caller knows it (``exec`` of a named interpreter); None is an answer too.
    """

    _UNSET = object()

    def __init__(self, env: Mapping[str, str], cwd: str, index: Index | None, given: object = _UNSET) -> None:
        self.env = env
        self.cwd = cwd
        self.index = index
        self._pyenv = given
        self._wheels: tuple[PythonEnv | None, WheelInventory] | None = None

    def get(self) -> PythonEnv | None:
        """The environment (:func:`locate`'s record), or None."""
        if self._pyenv is PythonEnvCache._UNSET:
            self._pyenv = locate(self.env, self.cwd)
        return self._pyenv  # type: ignore[return-value]

    def wheels(self) -> tuple[PythonEnv | None, WheelInventory]:
        """(the environment, its wheel inventory)."""
        if self._wheels is None:
            pyenv = self.get()
            self._wheels = (pyenv, wheel_inventory(pyenv, self.index))
        return self._wheels


def wheel_inventory(pyenv: PythonEnv | None, index: Index | None = None) -> WheelInventory:
    """The NVIDIA libraries and tools the environment's wheels ship (see the module doc).

    Returns:
        ``{"libs": {soname: [path, dist, version]}, "tools": {name: [path, dist, version]}}``;
        empty maps without an environment or NVIDIA wheels.
    """
    if not pyenv:
        return {"libs": {}, "tools": {}}
    dirs = list(pyenv["site"]) + ([pyenv["user_site"]] if pyenv["user_site"] else [])
    sig: list[int | None] = [_VERSION]
    for d in dirs:
        try:
            sig.append(os.stat(d).st_mtime_ns)
        except OSError:
            sig.append(None)

    def compute() -> WheelInventory:
        libs: dict[str, list[str]] = {}
        tools: dict[str, list[str]] = {}
        budget = [RECORDS_BUDGET]
        for d in dirs:
            _scan_site(d, libs, tools, budget)
        return {"libs": libs, "tools": tools}

    if index is None:
        return compute()
    index.data.setdefault(TABLE, {})
    return index.cached(TABLE, "\0".join(dirs), tuple(sig), compute, _valid_inventory)


def torch_build(pyenv: PythonEnv | None) -> TorchBuild | None:
    """What the environment's torch was built with, from ``torch/version.py`` (torch is never imported).

    Returns:
        ``{"version": "2.14.1+cu130", "cuda": "13.0" or None (a CPU or ROCm build), "hip": ...,
        "path": the torch package dir}``, or None when the environment has no torch.
    """
    if not pyenv:
        return None
    for site in list(pyenv["site"]) + ([pyenv["user_site"]] if pyenv["user_site"] else []):
        path = os.path.join(site, "torch", "version.py")
        try:
            text = read_limited(path, 65536).decode("utf-8", "replace")
        except OSError:
            continue
        out: TorchBuild = {"version": None, "cuda": None, "hip": None, "path": os.path.dirname(path)}
        for line in text.splitlines():
            name, sep, value = line.partition("=")
            key = name.split(":", 1)[0].strip()
            if not sep or key not in ("__version__", "cuda", "hip"):
                continue
            value = value.strip()
            if value[:1] in ("'", '"') and value[-1:] == value[:1]:
                if key == "__version__":
                    out["version"] = value[1:-1]
                elif key == "cuda":
                    out["cuda"] = value[1:-1]
                else:
                    out["hip"] = value[1:-1]
        return out
    return None


#: The index table ``host/python_probe.py`` keeps its probe results in.
PROBE_TABLE = "python"


def probe_key(path: str) -> str:
    """The python probe's cache key: directory symlinks resolved, the file name kept.

    Not ``realpath`` of the whole path: a venv's ``bin/python`` is a symlink to the
    base interpreter, and Python decides it runs in the venv from the unresolved
    location (the ``pyvenv.cfg`` next to it). Resolving it would give every venv
    on a machine the same key.
    """
    d, base = os.path.split(path)
    return os.path.join(os.path.realpath(d), base)


def cached_torch(index: Index, python: str, version: str | None) -> dict[str, Any] | None:
    """What an earlier probe of ``python`` (check, doctor, verify) learned about torch, without a process.

    Only when that probe saw the same torch build (``version`` from ``torch/version.py``): a
    stale entry of another torch is never used. None when there is none.
    """
    ent = index.data.get(PROBE_TABLE, {}).get(probe_key(python))
    if not ent or not version or not isinstance(ent[-1], dict):
        return None
    torch = ent[-1].get("torch") or {}
    if not isinstance(torch, dict):
        return None
    return torch if torch.get("version") == version else None
