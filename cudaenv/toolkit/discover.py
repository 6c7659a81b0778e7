"""Find toolkits: standard prefixes, the environment, conda, Debian, extra roots, wheel toolkits.

The same toolkit reached by several paths is listed once, under its real
path, with every alias and every way it was found.
"""

from __future__ import annotations

import os
from stat import S_ISLNK

from ..env.pathlist import entries, which
from ..errors import CudaenvError
from ..infra.private import trusted_dir
from .probe import Skip, probe, signature, valid_entry
from . import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Mapping

    from ..host.types import PythonEnv
    from ..infra.index import Index
    from .types import ProbedToolkit, Toolkit

__all__ = ["Layout", "candidates", "scan", "expand_roots", "installed_dir", "ACTIVE_FOUND_BY", "wheel_toolkits",
           "env_site_dirs", "wheel_roots", "probed", "probe_path", "Discovery"]


class Layout:
    """Where the standard locations are (tests point these at fake trees)."""

    def __init__(
        self,
        usr_local: str = "/usr/local",
        opt: str = "/opt",
        debian_nvcc: str = "/usr/bin/nvcc",
        debian_lib: str = "/usr/lib/nvidia-cuda-toolkit",
        debian_root: str = "/usr",
    ) -> None:
        self.usr_local = usr_local
        self.opt = opt
        self.debian_nvcc = debian_nvcc
        self.debian_lib = debian_lib
        self.debian_root = debian_root

    @property
    def default_link(self) -> str:
        return os.path.join(self.usr_local, "cuda")


def installed_dir(env: Mapping[str, str]) -> str:
    """Where ``cudaenv install`` puts toolkits: ``$XDG_DATA_HOME/cudaenv/toolkits``.

    (default ``~/.local/share/cudaenv/toolkits``; a relative XDG value is ignored, as the spec says).
    """
    base = env.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "cudaenv", "toolkits")


# How a wheel toolkit of the active Python environment was found, by the environment's kind.
_ACTIVE = {"venv": "active venv", "conda": "active conda env", "python": "python3 on PATH"}
#: The ``found_by`` words of a wheel toolkit in the active Python environment.
ACTIVE_FOUND_BY = frozenset(_ACTIVE.values())


def _listdir(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def wheel_toolkits(site: str) -> list[str]:
    """The wheel toolkits in one site-packages directory: ``nvidia/cu<N>`` holding ``bin/nvcc`` (``toolkit/wheels.py``)."""
    base = os.path.join(site, "nvidia")
    out = []
    for n in _listdir(base):
        if n.startswith("cu") and n[2:].isdigit() and n[2:].isascii():
            root = os.path.join(base, n)
            if os.path.isfile(os.path.join(root, "bin", "nvcc")):
                out.append(root)
    return out


def env_site_dirs(prefix: str) -> list[str]:
    """The ``lib/python3.*/{site,dist}-packages`` directories of an environment prefix."""
    lib = os.path.join(prefix, "lib")
    out = []
    for n in _listdir(lib):
        if n.startswith("python3"):
            for leaf in ("site-packages", "dist-packages"):
                d = os.path.join(lib, n, leaf)
                if os.path.isdir(d):
                    out.append(d)
    return out


def wheel_roots(path: str) -> list[str] | None:
    """The wheel toolkits a configured root names, or None when it is not a Python environment.

    ``path`` may be the ``nvidia/cuNN`` directory itself (a toolkit root like any
    other: None), a site-packages directory (it has ``nvidia/``), or an
    environment prefix (a venv, a conda env, a Python installation: its
    ``lib/python3.*/site-packages``). None also when nothing is found there, so
    the path stays a candidate and ``list`` says why it was skipped.
    """
    if os.path.exists(os.path.join(path, "bin", "nvcc")):
        return None
    if os.path.isdir(os.path.join(path, "nvidia")):
        found = wheel_toolkits(path)
    else:
        found = [r for site in env_site_dirs(path) for r in wheel_toolkits(site)]
    return found or None


def _match(name: str, pat: str) -> bool:
    """Shell-style match of one path component: ``*``, ``?``, ``[...]``, ``[!...]``.

    Written out because fnmatch/glob import ``re``, which ``use`` cannot afford.
    """
    if "?" not in pat and "[" not in pat:
        # Only '*': the fixed pieces must appear in order (the common case).
        pieces = pat.split("*")
        if len(pieces) == 1:
            return name == pat
        head, tail = pieces[0], pieces[-1]
        if len(name) < len(head) + len(tail) or not name.startswith(head) or not name.endswith(tail):
            return False
        pos, stop = len(head), len(name) - len(tail)
        for piece in pieces[1:-1]:
            pos = name.find(piece, pos, stop)
            if pos < 0:
                return False
            pos += len(piece)
        return True
    if pat.startswith("*"):
        rest = pat.lstrip("*")
        return any(_match(name[i:], rest) for i in range(len(name) + 1))
    if not pat:
        return not name
    if not name:
        return False
    c = pat[0]
    if c == "?":
        return _match(name[1:], pat[1:])
    if c == "[":
        end = pat.find("]", 2)
        if end > 0:
            body, neg = pat[1:end], False
            if body[0] in "!^":
                body, neg = body[1:], True
            hit, i = False, 0
            while i < len(body):
                if i + 2 < len(body) and body[i + 1] == "-":
                    hit = hit or body[i] <= name[0] <= body[i + 2]
                    i += 3
                else:
                    hit = hit or body[i] == name[0]
                    i += 1
            return hit != neg and _match(name[1:], pat[end + 1 :])
    return c == name[0] and _match(name[1:], pat[1:])


def _glob(pattern: str) -> list[str]:
    """Expand ``pattern`` component by component (hidden names need an explicit dot)."""
    parts = pattern.split("/")
    paths = ["/" if pattern.startswith("/") else "."]
    for part in parts:
        if not part:
            continue
        nxt = []
        for base in paths:
            if any(c in part for c in "*?["):
                for name in _listdir(base):
                    if (part.startswith(".") or not name.startswith(".")) and _match(name, part):
                        nxt.append(os.path.join(base, name))
            elif os.path.lexists(os.path.join(base, part)):
                nxt.append(os.path.join(base, part))
        paths = nxt
    if not pattern.startswith("/"):
        paths = [p[2:] if p.startswith("./") else p for p in paths]
    return sorted(paths)


def expand_roots(entries: Iterable[str]) -> list[str]:
    """Expand extra roots: a path that exists is taken literally, else as a glob."""
    out: list[str] = []
    for e in entries:
        if not e:
            continue
        e = os.path.expanduser(e)
        if os.path.lexists(e) or not any(c in e for c in "*?["):
            out.append(e)
        else:
            out.extend(_glob(e))
    return out


def candidates(
    env: Mapping[str, str],
    layout: Layout | None = None,
    extra_roots: Iterable[str] = (),
    profile_roots: Iterable[str] = (),
    python_env: PythonEnv | None = None,
) -> list[tuple[str, str]]:
    """Every place a toolkit may be, as (path, how it was found), in priority order.

    Args:
        python_env: The active Python environment (``host/pyenv.locate``'s
            record): its ``site-packages/nvidia/cuNN`` wheel toolkits are candidates.
    """
    lay = layout or Layout()
    out: list[tuple[str, str]] = []
    if os.path.lexists(lay.default_link):
        out.append((lay.default_link, "default symlink"))
    for name in _listdir(lay.usr_local):
        if name.startswith("cuda-"):
            out.append((os.path.join(lay.usr_local, name), f"{lay.usr_local}/cuda-*"))
    for name in _listdir(lay.opt):
        if name.startswith("cuda"):
            out.append((os.path.join(lay.opt, name), f"{lay.opt}/cuda*"))
    # Toolkits `cudaenv install` wrote (its staging directories are hidden: ".cuda-*").
    inst = installed_dir(env)
    # Never another user's: what is there goes on PATH (infra/private.py; one note).
    for name in _listdir(inst) if trusted_dir(inst) else ():
        if name.startswith("cuda-"):
            out.append((os.path.join(inst, name), "cudaenv install"))
    # A configured root may also be a Python environment, a site-packages
    # directory or nvidia/cuNN itself: its wheel toolkits (toolkit/wheels.py).
    for p in expand_roots(entries(env.get("CUDAENV_ROOTS"))):
        out.extend((r, "CUDAENV_ROOTS") for r in wheel_roots(p) or [p])
    for p in expand_roots(extra_roots):
        out.extend((r, "config") for r in wheel_roots(p) or [p])
    for p in profile_roots:
        out.append((p, "profile"))
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if env.get(var):
            out.append((env[var], var))
    nvcc = which("nvcc", env.get("PATH"))
    if nvcc:
        # Only a real toolkit root counts: /usr/local/bin/nvcc may be a
        # wrapper script, and /usr/local is not a toolkit.
        root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
        if os.path.exists(os.path.join(root, "include", "cuda_runtime.h")):
            out.append((root, "nvcc on PATH"))
    conda = env.get("CONDA_PREFIX", "")
    if conda and os.path.isfile(os.path.join(conda, "bin", "nvcc")):
        out.append((conda, "CONDA_PREFIX"))
    if os.path.isfile(lay.debian_nvcc) and os.path.isdir(lay.debian_lib):
        out.append((lay.debian_root, "Debian package"))
    if python_env:
        # The wheel toolkits of the environment python3 on PATH belongs to (host/pyenv.locate).
        how = _ACTIVE.get(python_env["kind"], "python3 on PATH")
        sites = list(python_env["site"])
        if python_env["user_site"]:
            sites.append(python_env["user_site"])
        for site in sites:
            out.extend((r, how) for r in wheel_toolkits(site))
    return out


def _why_missing(path: str) -> str:
    if os.path.islink(path):
        return "dangling symlink"
    return "does not exist"


def _realpath(path: str, parents: dict[str, str]) -> str | None:
    """``os.path.realpath`` for an existing ``path``, or None if it does not exist.

    Candidates are mostly plain directories in a few parents: resolving each
    parent once and lstat-ing the entry saves most of realpath's work.
    """
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if S_ISLNK(st.st_mode):
        return os.path.realpath(path) if os.path.exists(path) else None
    if not path.startswith("/"):
        path = os.path.abspath(path)
    parent, name = os.path.split(path)
    rp = parents.get(parent)
    if rp is None:
        rp = parents[parent] = os.path.realpath(parent)
    return os.path.join(rp, name) if name else rp


def scan(
    cands: list[tuple[str, str]],
    index: Index,
    layout: Layout | None = None,
) -> tuple[list[Toolkit], list[tuple[str, str, str]]]:
    """Probe every candidate (through the cache).

    Returns:
        (toolkits sorted by version, skipped as (path, how found, reason)).
        Each toolkit dict gains ``aliases``, ``found_by`` and ``default``.
    """
    lay = layout or Layout()
    by_root: dict[str, Toolkit] = {}
    skipped: list[tuple[str, str, str]] = []
    seen_skips: set[str] = set()
    default_real = os.path.realpath(lay.default_link) if os.path.lexists(lay.default_link) else None
    parents: dict[str, str] = {}
    for path, how in cands:
        real = _realpath(path, parents)
        if real is None:
            if path not in seen_skips:
                seen_skips.add(path)
                skipped.append((path, how, _why_missing(path)))
            continue
        tk = by_root.get(real)
        if tk is None:
            if real in seen_skips:
                continue
            data, reason = probed(real, index)
            if data is None:
                seen_skips.add(real)
                skipped.append((path, how, reason or ""))
                continue
            tk = {**data, "aliases": [], "found_by": [], "default": real == default_real}
            by_root[real] = tk
        if path != real and path not in tk["aliases"]:
            tk["aliases"].append(path)
        if how not in tk["found_by"]:
            tk["found_by"].append(how)
    toolkits = sorted(by_root.values(), key=lambda t: (version_key(t["full_version"]), t["root"]))
    return toolkits, skipped


def probed(real: str, index: Index) -> tuple[ProbedToolkit, None] | tuple[None, str]:
    """(the toolkit record, None) or (None, why it is not one) for the real path ``real``, through the cache."""

    def compute() -> tuple[ProbedToolkit, None] | tuple[None, str]:
        try:
            return (probe(real), None)
        except Skip as exc:
            return (None, str(exc))

    return index.cached("roots", real, signature(real), compute, valid_entry)


def probe_path(path: str, index: Index) -> Toolkit:
    """Probe a toolkit path given by the user (through the cache).

    Raises:
        CudaenvError: the path is not a usable toolkit.
    """
    real = os.path.realpath(path)
    if not os.path.exists(real):
        raise CudaenvError(f"{path}: no such directory", exit_code=2)
    data, reason = probed(real, index)
    if data is None:
        raise CudaenvError(f"{path} is not a usable CUDA toolkit: {reason}", exit_code=2)
    tk: Toolkit = {**data, "aliases": [] if path == real else [path], "found_by": ["argument"], "default": False}
    return tk


class Discovery:
    """One command's discovery: :func:`candidates` then :func:`scan`, each set of sources scanned once.

    The caller says where to look beyond the environment and the layout (the
    config's roots, the profiles' roots, the Python environment); the answer
    for the same sources is kept for the life of the object (one command).
    """

    def __init__(self, env: Mapping[str, str], layout: Layout, index: Index) -> None:
        self.env = env
        self.layout = layout
        self.index = index
        self._scans: dict[tuple[object, ...], tuple[list[Toolkit], list[tuple[str, str, str]]]] = {}

    def scan(self, extra_roots: Iterable[str], profile_roots: Iterable[str],
             python_env: PythonEnv | None) -> tuple[list[Toolkit], list[tuple[str, str, str]]]:
        """(toolkits sorted by version, skipped candidates) for these sources."""
        extra, roots = tuple(extra_roots), tuple(profile_roots)
        py = (python_env.get("kind"), python_env.get("prefix"), tuple(python_env.get("site") or ()),
              python_env.get("user_site")) if python_env else None
        key = (extra, roots, py)
        got = self._scans.get(key)
        if got is None:
            cands = candidates(self.env, self.layout, extra_roots=extra, profile_roots=roots, python_env=python_env)
            got = self._scans[key] = scan(cands, self.index, self.layout)
        return got

    def probe_path(self, path: str) -> Toolkit:
        """:func:`probe_path` through this command's index."""
        return probe_path(path, self.index)
