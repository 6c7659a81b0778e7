"""What a later install can use of an archive: its files, unpacked, not the archive.

Two cases. A ``.tar.xz`` taken for its ``include/`` only (below). And a wheel taken whole:
a later install would inflate it again (for 13.x ``build``, ~2 s of CPU for 350 MB); its
files are kept instead, each under its sha256, and written from there (a copy).

NVIDIA's redist archives are one xz stream: no member can be fetched alone, so
``--parts build`` downloads (say) the 500 MB cuBLAS archive for 50 kB of headers,
checked by the archive's published sha256. What a later install of the same
parts can use is those headers, so that is what stays in the download cache:
each file under its own sha256 (as every cached file), and the list of what the
archive's ``include/`` holds (``members/<archive sha256>-include-files.json``: path,
sha256, mode, or a link's target). The archive itself is removed from the
cache once unpacked. A later install finds the list and every file, and writes
them without downloading anything; the trust is the cache's own (private to the
user, as for the whole archive it replaces, which is not hashed again either).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat

from ..infra.private import write_private
from .fetch import cached, cached_path, is_local, is_sha, keep_file, partial_path, read_cache_json
from .unpack import unpack, unpack_files
from .wheels import META

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .types import PlanComponent

__all__ = ["applies", "known", "install_known", "unpack_keeping_files"]


def applies(c: PlanComponent) -> bool:
    """A remote archive taken for its headers only, or a remote wheel fetched whole (not the
    meta-wheel, which planning reads)."""
    if is_local(c["url"]) or "members" in c:
        return False
    if c["kind"] == "tar":
        return c["how"] == "include"
    return c["key"] != META


def _list_path(cache: str, c: PlanComponent) -> str:
    return os.path.join(cache, "members", f"{c['sha256']}-{c['how']}-files.json")


def known(cache: str, c: PlanComponent) -> list[dict[str, Any]] | None:
    """The files an earlier install kept of this very archive or wheel, when all of them are cached."""
    doc = read_cache_json(_list_path(cache, c))
    if not isinstance(doc, list):
        return None
    for e in doc:
        if not isinstance(e, dict) or not isinstance(e.get("rel"), str):
            return None
        if "link" in e:
            if not isinstance(e["link"], str):
                return None
        elif not (is_sha(e.get("sha256")) and type(e.get("mode")) is int and cached(cache, e["sha256"])):
            return None
    return doc


def _write(c: PlanComponent, files: list[tuple[str, str, int]], links: list[tuple[str, str]], root: str) -> int:
    return unpack_files(files, c, root, links)


def install_known(c: PlanComponent, cache: str, root: str) -> int | None:
    """Write the kept files of ``c`` into ``root``: the number of entries, or None when not all are kept."""
    entries = known(cache, c)
    if entries is None:
        return None
    files = [(e["rel"], cached_path(cache, e["sha256"]), e["mode"]) for e in entries if "link" not in e]
    links = [(e["rel"], e["link"]) for e in entries if "link" in e]
    return _write(c, files, links, root)


def unpack_keeping_files(path: str, c: PlanComponent, root: str, cache: str) -> int:
    """Unpack the archive or wheel at ``path`` (verified, in the cache) into ``root``, keep the files it
    contributed (its headers, for an archive taken for them) in the cache and drop it from there;
    return the number of entries written.

    The archive goes through the one unpacker (every rule of docs/install-safety.md) into a
    private directory first, so that what it holds is known apart from the other components
    being unpacked into ``root`` at the same time.
    """
    tmp = os.path.join(root, f".include-{c['sha256'][:16]}")  # inside the staging tree: gone with it
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp, mode=0o700)
    try:
        unpack(path, c, tmp)
        files: list[tuple[str, str, int]] = []
        links: list[tuple[str, str]] = []
        entries: list[dict[str, Any]] = []
        for dirpath, dirs, names in os.walk(tmp):
            for name in sorted(dirs + names):
                p = os.path.join(dirpath, name)
                rel = os.path.relpath(p, tmp)
                st = os.lstat(p)
                if stat.S_ISLNK(st.st_mode):
                    links.append((rel, os.readlink(p)))
                    entries.append({"rel": rel, "link": os.readlink(p)})
                elif stat.S_ISREG(st.st_mode):
                    mode = stat.S_IMODE(st.st_mode)
                    sha = _keep(p, cache)
                    files.append((rel, p, mode))
                    entries.append({"rel": rel, "sha256": sha, "mode": mode})
        written = _write(c, files, links, root)
        try:
            write_private(_list_path(cache, c), json.dumps(entries, sort_keys=True).encode())
        except OSError:
            return written  # the list cannot be kept: keep the archive too
        done = cached_path(cache, c["sha256"])
        if os.path.realpath(path) == os.path.realpath(done):
            os.unlink(done)
        return written
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _keep(path: str, cache: str) -> str:
    """Copy the file at ``path`` into the cache under its sha256; return the sha256."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    sha = h.hexdigest()
    if not cached(cache, sha):
        part = partial_path(cache, f"keep-{sha}-{os.getpid()}")
        try:
            os.link(path, part)  # the unpacked file itself (its directory goes away): no second copy
        except OSError:
            shutil.copyfile(path, part)
        os.chmod(part, 0o600)
        keep_file(part, cache, sha)
    return sha
