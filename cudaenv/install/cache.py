"""The download cache: content by sha256, the plans installs made, a key CI can cache on, pruning.

Layout of the cache directory (``$CUDAENV_INSTALL_CACHE`` or ``<cache>/downloads``):

- ``<sha256>``: a verified file or wheel member, named by the sha256 of its bytes (whole
  files and ranged members share the one namespace; the layout of earlier versions, which
  kept only whole files, is read as it is);
- ``partial/``: downloads under way (resumed by the next install);
- ``members/<file sha256>-<how>.json``: the member list (with RECORD hashes) read from a
  wheel's central directory, so a later plan of that very file needs no request for it;
- ``plans/<request>.json``: the last plan resolved for one request (version as typed, parts,
  sources, ``--whole-files``), which ``install --offline`` installs without asking any source.

Every content file is touched when an install uses it, so ``prune`` drops the least recently
used first.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time

from ..errors import CudaenvError
from ..infra.private import own_file, write_private
from .fetch import cached_path, is_local, is_sha, read_cache_json
from . import tarcache
from .progress import human

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .types import Plan

__all__ = ["cache_key", "plan_document", "store_plan", "load_plan", "missing", "info", "prune", "parse_size",
           "parse_age"]

#: Partial downloads younger than this are left to the install that may be writing them.
PARTIAL_GRACE = 3600.0


def _content(plan: Plan) -> list[str]:
    """The sha256 of everything the plan fetches: whole files, or each member."""
    out: list[str] = []
    for c in plan["components"]:
        if "members" in c:
            out.extend(m["sha256"] for m in c["members"])
        else:
            out.append(c["sha256"])
    return sorted(set(out))


def cache_key(plan: Plan) -> str:
    """A key that changes exactly when what the plan fetches changes: ``cudaenv-<version>-<parts>-<hash>``."""
    doc = json.dumps({"format": 1, "version": plan["version"], "parts": plan["parts"], "content": _content(plan)},
                     sort_keys=True)
    parts = "".join(ch if ch.isalnum() or ch in ".-" else "_" for ch in plan["parts"])[:40]
    return f"cudaenv-{plan['version']}-{parts}-{hashlib.sha256(doc.encode()).hexdigest()[:24]}"


def plan_document(plan: Plan, cache: str, whole: bool) -> dict[str, Any]:
    """What ``install --plan --json`` prints: every file or member with its hash, and the cache key."""
    from .core import fetch_size

    files = []
    for c in plan["components"]:
        entry: dict[str, Any] = {"key": c["key"], "version": c["version"], "filename": c["filename"],
                                 "url": c["url"], "sha256": c["sha256"], "size": c["size"], "kind": c["kind"],
                                 "how": c["how"], "fetch": "members" if "members" in c else "whole",
                                 "download": fetch_size(c), "to_download": fetch_size(c, cache)}
        if "members" in c:
            entry["members"] = [{"name": m["name"], "sha256": m["sha256"], "size": m["size"]} for m in c["members"]]
        files.append(entry)
    return {"version": plan["version"], "parts": plan["parts"], "source": plan["source"], "kind": plan["kind"],
            "whole_files": whole, "files": files, "download": sum(f["download"] for f in files),
            "to_download": sum(f["to_download"] for f in files), "cache_key": cache_key(plan)}


def _plan_path(cache: str, request: list[object]) -> str:
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()[:32]
    return os.path.join(cache, "plans", f"{digest}.json")


def store_plan(cache: str, request: list[object], plan: Plan) -> None:
    """Keep ``plan`` for ``request`` (best effort: an unwritable cache only loses ``--offline``)."""
    try:
        write_private(_plan_path(cache, request), json.dumps(plan, sort_keys=True).encode())
    except OSError:
        pass


_COMPONENT = {"key": str, "name": str, "version": str, "url": str, "sha256": str, "filename": str, "kind": str,
              "how": str}
_MEMBER = {"name": str, "sha256": str, "size": int, "mode": int, "offset": int, "end": int, "csize": int,
           "method": int, "crc": int}


def _valid(doc: object) -> bool:
    if not isinstance(doc, dict) or not all(isinstance(doc.get(k), str) for k in ("version", "source", "kind",
                                                                                    "parts")):
        return False
    comps = doc.get("components")
    if not isinstance(comps, list) or not comps:
        return False
    for c in comps:
        if not isinstance(c, dict) or not all(type(c.get(k)) is t for k, t in _COMPONENT.items()):
            return False
        if not is_sha(c["sha256"]) or c["kind"] not in ("tar", "wheel") or c["how"] not in ("all", "include"):
            return False
        if not (c.get("size") is None or type(c.get("size")) is int):
            return False
        members = c.get("members", [])
        if not isinstance(members, list) or not all(
                isinstance(m, dict) and all(type(m.get(k)) is t for k, t in _MEMBER.items()) and is_sha(m["sha256"])
                for m in members):
            return False
    return True


def load_plan(cache: str, request: list[object]) -> Plan | None:
    """The plan stored for ``request`` (None: none, or not one cudaenv wrote)."""
    doc = read_cache_json(_plan_path(cache, request))
    return doc if _valid(doc) else None  # type: ignore[return-value]  # checked by _valid


def missing(plan: Plan, cache: str) -> list[str]:
    """The files and members of ``plan`` the cache lacks (local files are read where they are)."""
    out: list[str] = []
    for c in plan["components"]:
        if "members" in c:
            out.extend(f"{c['filename']}:{m['name']}" for m in c["members"]
                       if not own_file(cached_path(cache, m["sha256"])))
        elif not is_local(c["url"]) and not own_file(cached_path(cache, c["sha256"])):
            if not (tarcache.applies(c) and tarcache.known(cache, c) is not None):
                out.append(c["filename"])
        elif is_local(c["url"]) and not os.path.isfile(c["url"]):
            out.append(c["filename"])
    return out


def _entries(cache: str) -> list[tuple[str, int, float, str]]:
    """(path, bytes, mtime, kind) of everything in the cache; kind: content, partial, plan, members, other."""
    out = []
    for sub, kind in (("", "content"), ("partial", "partial"), ("plans", "plan"), ("members", "members")):
        d = os.path.join(cache, sub) if sub else cache
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for n in names:
            p = os.path.join(d, n)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            out.append((p, st.st_size, st.st_mtime, kind if (sub or is_sha(n)) else "other"))
    return out


def info(cache: str) -> dict[str, Any]:
    """What the cache holds: bytes and counts per kind."""
    kinds: dict[str, dict[str, int]] = {}
    for _p, size, _m, kind in _entries(cache):
        k = kinds.setdefault(kind, {"files": 0, "bytes": 0})
        k["files"] += 1
        k["bytes"] += size
    total = sum(k["bytes"] for k in kinds.values())
    return {"path": cache, "bytes": total, "human": human(total), "kinds": kinds}


def parse_size(text: str) -> int:
    """``500M``, ``2G``, ``1.5GB``, ``0``, a number of bytes -> bytes (powers of 1024).

    Raises:
        CudaenvError: anything else.
    """
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    mult = 1
    if t and t[-1] in "KMGT":
        mult = 1024 ** ("KMGT".index(t[-1]) + 1)
        t = t[:-1]
    try:
        value = float(t)
        if not 0 <= value < 1e6 or value != value:
            raise ValueError
    except ValueError:
        raise CudaenvError(f"not a size: {text!r}", hint="e.g. 500M, 2G or a number of bytes", exit_code=2) from None
    return int(value * mult)


def parse_age(text: str) -> float:
    """``30d``, ``12h``, ``90m``, ``7`` (days) -> seconds.

    Raises:
        CudaenvError: anything else.
    """
    t = text.strip().lower()
    unit = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}.get(t[-1:] or "", None)
    num = t[:-1] if unit else t
    try:
        value = float(num)
        if not 0 <= value < 1e6:
            raise ValueError
    except ValueError:
        raise CudaenvError(f"not an age: {text!r}", hint="e.g. 30d, 12h or a number of days", exit_code=2) from None
    return value * (unit or 86400.0)


def prune(cache: str, max_bytes: int | None, max_age: float | None, everything: bool = False,
          now: float | None = None) -> dict[str, Any]:
    """Remove least recently used content until it fits ``max_bytes``, and what is older than
    ``max_age`` seconds; ``everything``: all of it. Partial downloads younger than
    :data:`PARTIAL_GRACE` (an install may be writing them) and the small plan and member lists
    of content still present are kept.

    Returns:
        ``{"removed": files, "freed": bytes, "kept": bytes}``.
    """
    now = time.time() if now is None else now
    entries = _entries(cache)
    drop: set[str] = set()
    for p, _size, mtime, kind in entries:
        if kind == "other":
            continue
        if kind == "partial":
            if now - mtime > PARTIAL_GRACE and (everything or max_age is not None or max_bytes is not None):
                drop.add(p)
        elif everything or (max_age is not None and now - mtime > max_age):
            drop.add(p)
    if max_bytes is not None:
        content = sorted((e for e in entries if e[3] == "content" and e[0] not in drop), key=lambda e: e[2])
        total = sum(e[1] for e in content)
        for p, size, _m, _k in content:
            if total <= max_bytes:
                break
            drop.add(p)
            total -= size
    freed = removed = 0
    for p, size, _m, _k in entries:
        if p in drop:
            try:
                os.unlink(p)
            except OSError:
                continue
            freed += size
            removed += 1
    kept = sum(e[1] for e in entries if e[0] not in drop)
    return {"removed": removed, "freed": freed, "kept": kept}
