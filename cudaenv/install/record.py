"""What cudaenv installed, recorded under its own data directory (``uninstall`` trusts nothing else).

Every install writes two records that must agree: ``cudaenv-install.json``
inside the toolkit (with a random ``token``) and
``$XDG_DATA_HOME/cudaenv/installs/<hash of the root>.json`` naming the root,
the token and the profile files the install wrote. A directory that merely
holds a file called ``cudaenv-install.json`` (a clone, a copy, a tree another
tool made) is not cudaenv's: ``uninstall`` refuses it. Toolkits installed
before the registry existed are recognised only directly in cudaenv's own
toolkits directory (``cuda-*`` there).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat

from ..errors import CudaenvError
from ..infra.atomic import write_atomic
from ..infra.files import read_limited
from ..infra.jsonout import dumps
from ..toolkit.discover import installed_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .types import How, Installed, InstalledParts, MarkerRead, Registration, RegistryEntry

__all__ = ["MARKER", "registry_dir", "read_marker", "read_parts", "covers", "register", "lookup", "unregister",
           "registered", "valid_release"]

#: What cudaenv writes into every toolkit it installs.
MARKER = "cudaenv-install.json"
_MAX = 1 << 20


def valid_release(label: object) -> bool:
    """A CUDA release label usable as a directory name: ``13.5.0`` (2 to 4 numbers)."""
    if not isinstance(label, str) or not 3 <= len(label) <= 40:
        return False
    parts = label.split(".")
    return 2 <= len(parts) <= 4 and all(p.isdigit() and p.isascii() and len(p) <= 8 for p in parts)


def registry_dir(env: Mapping[str, str]) -> str:
    return os.path.join(os.path.dirname(installed_dir(env)), "installs")


def _key(root: str) -> str:
    return hashlib.sha256(os.path.realpath(root).encode("utf-8", "surrogateescape")).hexdigest()[:24]


def _read_json(path: str) -> dict[str, object] | None:
    """The JSON object in the regular file at ``path`` (anyone may have written it: every field is to be checked)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # a link named like a record is not one
            return None
        doc = json.loads(read_limited(path, _MAX, whole=True).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def _read_entry(path: str) -> RegistryEntry | None:
    """The registry record at ``path``, each field checked (None where it is not what cudaenv writes);
    None when there is no JSON object there."""
    rec = _read_json(path)
    if rec is None:
        return None
    root, version, token, profiles = rec.get("root"), rec.get("version"), rec.get("token"), rec.get("profiles")
    return {"root": root if isinstance(root, str) else None, "version": version if isinstance(version, str) else None,
            "token": token if isinstance(token, str) else None,
            "profiles": [p for p in profiles if isinstance(p, str)] if isinstance(profiles, list) else []}


def read_marker(root: str) -> MarkerRead | None:
    """The record inside ``root`` when ``root`` is a real directory (not a link) holding a valid one."""
    try:
        if not stat.S_ISDIR(os.lstat(root).st_mode):
            return None
    except OSError:
        return None
    rec = _read_json(os.path.join(root, MARKER))
    if rec is None:
        return None
    version, token = rec.get("version"), rec.get("token")
    if not isinstance(version, str) or not valid_release(version):
        return None
    return {"version": version, "token": token if isinstance(token, str) else None}


def read_parts(root: str) -> InstalledParts | None:
    """What the install at ``root`` holds, from its own record: ``--parts`` as given (a later
    additive install joins them with ``,``) and each component's key with what it contributes
    (``all``, or ``include``: its headers only). None when ``root`` holds no valid record."""
    if read_marker(root) is None:
        return None
    rec = _read_json(os.path.join(root, MARKER)) or {}
    parts, comps = rec.get("parts"), rec.get("components")
    out: dict[str, How] = {}
    if isinstance(comps, dict):
        for key, ent in comps.items():
            only = ent.get("only") if isinstance(ent, dict) else None
            if isinstance(key, str) and only in ("all", "include"):
                out[key] = "all" if only == "all" else "include"
    return {"parts": parts if isinstance(parts, str) and parts.isprintable() else "", "components": out}


def covers(have: str, want: str) -> bool:
    """Whether an install of ``--parts have`` holds everything ``--parts want`` asks for, by the words
    alone (``full`` holds every part; ``build,runtime`` holds ``runtime``). False when unsure: the
    source's component list then decides."""
    had = {w.strip() for w in have.split(",") if w.strip()}
    asked = {w.strip() for w in want.split(",") if w.strip()}
    return bool(asked) and ("full" in had or asked <= had)


def register(env: Mapping[str, str], root: str, version: str, token: str, profiles: list[str]) -> None:
    """Record that cudaenv installed ``root``.

    Raises:
        CudaenvError: the record cannot be written.
    """
    doc: Registration = {"format": 1, "root": os.path.realpath(root), "version": version, "token": token,
                         "profiles": profiles}
    write_atomic(os.path.join(registry_dir(env), _key(root) + ".json"), dumps(doc) + "\n")


def lookup(env: Mapping[str, str], root: str) -> Installed | None:
    """The registry's record of ``root`` when it agrees with the toolkit's own record, else None."""
    mark = read_marker(root)
    if mark is None:
        return None
    real = os.path.realpath(root)
    rec = _read_entry(os.path.join(registry_dir(env), _key(root) + ".json"))
    if rec is not None and rec["root"] == real and mark["token"] is not None and rec["token"] == mark["token"] \
            and rec["version"] == mark["version"]:
        return {"root": real, "version": mark["version"], "profiles": rec["profiles"]}
    # Installed before the registry (or its record lost): only directly in cudaenv's own toolkits directory.
    base = os.path.realpath(installed_dir(env))
    if rec is None and os.path.dirname(real) == base and os.path.basename(real).startswith("cuda-"):
        return {"root": real, "version": mark["version"], "profiles": []}
    return None


def unregister(env: Mapping[str, str], root: str) -> None:
    try:
        os.unlink(os.path.join(registry_dir(env), _key(root) + ".json"))
    except OSError:
        pass


def registered(env: Mapping[str, str]) -> list[str]:
    """The roots the registry names (each still to be checked with :func:`lookup`)."""
    d = registry_dir(env)
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    out = []
    for n in names:
        rec = _read_entry(os.path.join(d, n)) if n.endswith(".json") else None
        if rec is not None and rec["root"] is not None and os.path.isabs(rec["root"]):
            out.append(rec["root"])
    return out


def check_root(root: str) -> None:
    """Refuse a root that is a link (uninstall acts on the tree itself, never through a link)."""
    if os.path.islink(root):
        raise CudaenvError(f"{root} is a symbolic link; give the toolkit's own path "
                           f"({os.path.realpath(root)})", exit_code=2)
