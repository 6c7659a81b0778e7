"""Wheel toolkits: the complete compiler CUDA 13+ wheels install into ``site-packages/nvidia/cuNN``.

``pip install "cuda-toolkit[nvcc,cudart,cccl,crt,nvvm]"`` (or the single
``nvidia-cuda-nvcc``, ``nvidia-cuda-runtime``, ``nvidia-cuda-crt``,
``nvidia-nvvm``, ``nvidia-cuda-cccl`` wheels) puts a whole toolkit in
``<site-packages>/nvidia/cu13/``: ``bin/nvcc`` with its own ``nvcc.profile``
(which finds ``include``, ``include/cccl``, ``nvvm`` and ``lib`` by itself),
``include``, ``lib``, ``nvvm``. The 12.x wheels do not (``nvidia/cuda_nvcc``
holds ``ptxas`` only), so a *wheel toolkit* is any ``nvidia/cu<digits>``
directory with ``bin/nvcc``: families, not the string ``cu13``.

Their layout differs from an installed toolkit's, and cudaenv never writes
into the user's environment to paper over it:

* ``lib`` only, no ``lib64`` (the probe's ``libdir`` says so; torch's
  cpp_extension falls back to ``CUDA_HOME/lib`` by itself);
* no unversioned ``libcudart.so`` (nor ``libnvvm.so``, ``libcublas.so`` …: a
  wheel cannot hold symlinks), so ``-lcudart`` and ``nvcc -cudart shared``
  fail: :func:`dev_links` names the links a cache directory provides on
  ``LIBRARY_PATH`` (``toolkit/stubs.py`` makes them);
* no ``lib/stubs/libcuda.so``: ``toolkit/stubgen.py`` generates one, as for
  every toolkit without a stub;
* no ``version.json``: the version comes from the wheels' ``.dist-info``
  names in the site-packages directory (:func:`read_version`).

Finding them is ``discover.py``'s (``wheel_toolkits``: ``nvidia/cu<N>`` with
``bin/nvcc`` in a site-packages directory; ``wheel_roots``: what a configured
root that is an environment names); the string test of a path is
``toolkit.family``/``toolkit.wheel_site``: those run on every ``use``, and this
module is loaded only when a toolkit is probed (a cache miss). Nothing here
runs a process; everything is a few ``stat``/``listdir`` calls, cached with the
toolkit record in the index.
"""

from __future__ import annotations

import os

from . import family, version_key, wheel_site

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable

    from .types import FoundVersion, Origin

__all__ = ["env_prefix", "env_label", "read_version", "origin", "dev_links", "NVCC_DIST"]

#: The distribution that ships ``bin/nvcc`` into ``nvidia/cuNN`` (13.x: no -cuNN suffix).
NVCC_DIST = "nvidia_cuda_nvcc"
_META_DIST = "cuda_toolkit"
# Names of environments too generic to tell one project's from another's: the
# directory above names it instead (/home/me/proj/.venv -> proj).
_GENERIC = frozenset({"venv", "env", "virtualenv", "virtualenvs", "envs", "python", "site-packages"})
# What a profile name may hold (profiles/files.py): letters, digits and ._+-.
_NAME_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-")


def env_prefix(site: str) -> str:
    """The environment a site-packages directory belongs to (``<prefix>/lib/python3.X/site-packages``).

    A directory laid out otherwise (``pip install --target DIR``) is its own environment.
    """
    lib, pyver = os.path.split(os.path.dirname(site))
    if pyver.startswith("python") and os.path.basename(lib) == "lib":
        return os.path.dirname(lib)
    return site


def env_label(prefix: str) -> str:
    """A short name for an environment, usable in a profile name.

    The prefix's last component without leading dots, or, for generic names
    (``.venv``, ``venv``, ``env`` …), the directory holding it:
    ``/home/me/proj/.venv`` -> ``proj``, ``/opt/conda/envs/torch`` -> ``torch``.
    Characters a profile name cannot hold become ``_``.
    """
    parts = [p for p in prefix.split("/") if p]
    label = ""
    while parts:
        label = parts.pop().lstrip(".")
        if label and label.lower() not in _GENERIC:
            break
    label = "".join(c if c in _NAME_OK else "_" for c in label) or "env"
    return label[:40]


def _valid(v: str) -> bool:
    parts = v.split(".")
    return len(parts) >= 2 and all(p.isascii() and p.isdigit() for p in parts)


def _dist_versions(site: str) -> dict[str, list[str]]:
    """``{distribution: [versions]}`` of the ``.dist-info`` directories named in ``site`` (``.postN`` dropped)."""
    out: dict[str, list[str]] = {}
    try:
        names = os.listdir(site)
    except OSError:
        return out
    for n in sorted(names):
        if not n.endswith(".dist-info") or "-" not in n:
            continue
        dist, _, ver = n[: -len(".dist-info")].partition("-")
        dist = dist.lower().replace("-", "_").replace(".", "_")
        ver = ver.split("+", 1)[0]
        if ".post" in ver:
            ver = ver.split(".post", 1)[0]
        if _valid(ver):
            out.setdefault(dist, []).append(ver)
    return out


def _short(v: str) -> str:
    return ".".join(v.split(".")[:2])


def read_version(root: str) -> FoundVersion | None:
    """The wheel toolkit's version from the wheels' ``.dist-info`` names, or None.

    ``nvidia_cuda_nvcc-X.Y.Z`` of the toolkit's family (its major is the ``N``
    of ``cuN``) is the compiler's version. ``cuda_toolkit-X.Y.Z`` (the meta
    package) is the release label, the same number an installed toolkit's
    ``version.json`` gives, and is preferred when it agrees with nvcc on
    major.minor; a meta package of another release (pip lets the two drift)
    is ignored.

    Returns:
        ``{"full", "source", "nvcc"}`` (as :func:`cudaenv.toolkit.version.read_version`
        without ``short``), or None when no nvcc distribution of the family is installed.
    """
    fam = family(root)
    site = wheel_site(root)
    if fam is None or site is None:
        return None
    dists = _dist_versions(site)
    # Normally one of each; a broken install may leave two: the newest counts.
    nvcc = sorted((v for v in dists.get(NVCC_DIST, []) if v.split(".")[0] == fam), key=version_key)
    if not nvcc:
        return None
    meta = sorted((v for v in dists.get(_META_DIST, []) if _short(v) == _short(nvcc[-1])), key=version_key)
    if meta:
        return {"full": meta[-1], "source": "dist-info (cuda-toolkit)", "nvcc": nvcc[-1]}
    return {"full": nvcc[-1], "source": "dist-info (nvidia-cuda-nvcc)", "nvcc": nvcc[-1]}


def origin(root: str) -> Origin | None:
    """Where a wheel toolkit came from: ``{"kind": "wheels", "env", "site", "label"}``; None for other toolkits."""
    site = wheel_site(root)
    if site is None:
        return None
    prefix = env_prefix(site)
    return {"kind": "wheels", "env": prefix, "site": site, "label": env_label(prefix)}


def dev_links(root: str, libdir: str, names: Iterable[str]) -> list[list[str]]:
    """The unversioned development links a wheel toolkit lacks: ``[[link name, target], ...]``.

    For each ``libX.so.N`` in the library directory whose ``libX.so`` does not
    exist (a wheel cannot ship symlinks): ``libX.so`` -> that file, so that
    ``-lX`` links. When several ``libX.so.*`` exist the shortest name (the
    soname) is the target. Empty for toolkits that are not wheel toolkits.

    Args:
        names: The entries of ``root/libdir`` (the probe has listed them already).
    """
    if family(root) is None:
        return []
    names = set(names)
    best: dict[str, str] = {}
    for n in names:
        if not n.startswith("lib") or ".so." not in n:
            continue
        dev = n.split(".so.", 1)[0] + ".so"
        if dev in names:
            continue
        if dev not in best or len(n) < len(best[dev]):
            best[dev] = n
    lib = os.path.join(root, libdir)
    return [[dev, os.path.join(lib, best[dev])] for dev in sorted(best)]
