"""Members of a remote wheel, read with HTTP byte ranges and checked against the wheel's RECORD.

A wheel is a zip: its central directory sits at the end and names every
member's offset and sizes, so a part that needs only some members (the
headers of cuBLAS, cuSPARSE, cuSOLVER for ``--parts build``) can fetch the
tail of the file, then just those members. What is and is not checked
(docs/install-safety.md):

- the index's sha256 covers the whole file, and is *not* checked for a ranged
  fetch: the bytes come over the same TLS connection as the index page, and
  each member is checked against the sha256 and size the wheel's own
  ``RECORD`` gives (RECORD itself is fetched the same way, checked by its
  CRC-32 only). ``install --whole-files`` fetches whole files instead.
- the central directory is someone else's data: an end record that is not
  where it says, a directory that is not where it says, a member that starts
  outside the file or inside another member, a compressed size that runs into
  the next member, two members under one name, zip64 fields that are
  missing or point elsewhere, encryption, a method other than stored or
  deflated — each is one line, and nothing is installed. A member's local
  header must repeat its name; its data must inflate to exactly the declared
  size, with the declared CRC-32, the RECORD's sha256 and size.

A server that ignores ``Range`` (``200``) or answers another range raises
:class:`~cudaenv.install.fetch.RangeRefused`: the caller takes the whole file.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import struct
import threading
import json
import zlib

from ..errors import CudaenvError
from ..infra.private import write_private
from .fetch import (CHUNK, MAX_DOCUMENT, RangeRefused, cached, cached_path, is_local, is_sha, keep_file, partial_path,
                    read_cache_json, read_range)
from .unpack import unpack_files, wheel_rel

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Callable

    from .types import How, Member, Plan, PlanComponent

__all__ = ["directory", "Entry", "select", "record_hashes", "plan_members", "fetch_members", "GAP", "ranged",
           "expand", "install_members"]

#: Bytes read from the end first: the end record, its longest comment, the zip64 locator and record.
_TAIL = 22 + 65535 + 20 + 56
#: The largest central directory read (NVIDIA's largest wheels have ~2 000 members, ~200 KiB).
MAX_DIRECTORY = MAX_DOCUMENT
#: The largest RECORD read.
MAX_RECORD = 16 << 20
#: Members closer than this are fetched in one request (the bytes between are read and dropped).
GAP = 256 << 10
#: One request's span at most, when coalescing (a larger member is still one request).
MAX_SPAN = 64 << 20

_EOCD = b"PK\x05\x06"
_LOC64 = b"PK\x06\x07"
_EOCD64 = b"PK\x06\x06"
_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"
_CENTRAL_FMT = "<4s6H3L5H2L"  # 46 bytes
_U16, _U32 = 0xFFFF, 0xFFFFFFFF


class Entry:
    """One member as the central directory lists it (checked by :func:`directory`)."""

    __slots__ = ("name", "raw", "method", "crc", "csize", "usize", "offset", "end", "mode", "flags")

    def __init__(self, name: str, raw: bytes, method: int, crc: int, csize: int, usize: int, offset: int,
                 mode: int, flags: int) -> None:
        self.name, self.raw, self.method, self.crc = name, raw, method, crc
        self.csize, self.usize, self.offset, self.mode, self.flags = csize, usize, offset, mode, flags
        self.end = 0  # set once every offset is known


def _bad(what: str, why: str) -> CudaenvError:
    return CudaenvError(f"{what}: refusing the wheel ({why})")


def _zip64(extra: bytes, usize: int, csize: int, offset: int, what: str) -> tuple[int, int, int]:
    """The sizes and offset, with those saturated at 0xFFFFFFFF taken from the zip64 extra field."""
    need = [usize == _U32, csize == _U32, offset == _U32]
    if not any(need):
        return usize, csize, offset
    p = 0
    while p + 4 <= len(extra):
        tag, n = struct.unpack_from("<2H", extra, p)
        body = extra[p + 4:p + 4 + n]
        p += 4 + n
        if tag != 1:
            continue
        vals = [usize, csize, offset]
        q = 0
        for i in range(3):
            if need[i]:
                if q + 8 > len(body):
                    raise _bad(what, "a zip64 field is missing")
                vals[i] = struct.unpack_from("<Q", body, q)[0]
                q += 8
        return vals[0], vals[1], vals[2]
    raise _bad(what, "sizes saturated without a zip64 field")


def directory(url: str, size: int, what: str, cancel: threading.Event | None = None) -> list[Entry]:
    """The members of the zip at ``url`` (``size`` bytes), each with the span it may occupy.

    Raises:
        RangeRefused: the server does not answer byte ranges (consistently).
        CudaenvError: not a zip, or a directory that lies (see the module's list).
    """
    n_tail = min(size, _TAIL)
    tail_at = size - n_tail
    tail = read_range(url, tail_at, n_tail, size, cancel=cancel)
    i = len(tail) - 22
    while i >= 0:
        if tail[i:i + 4] == _EOCD and i + 22 + struct.unpack_from("<H", tail, i + 20)[0] == len(tail):
            break
        i -= 1
    if i < 0:
        raise _bad(what, "no end of central directory where a zip has it")
    disk, cd_disk, n_here, n_total, cd_size, cd_off = struct.unpack_from("<4H2L", tail, i + 4)
    dir_end = tail_at + i
    if _U16 in (n_here, n_total) or _U32 in (cd_size, cd_off):
        loc = i - 20
        if loc < 0 or tail[loc:loc + 4] != _LOC64:
            raise _bad(what, "zip64 sizes without a zip64 locator")
        _d, rec_off, _disks = struct.unpack_from("<LQL", tail, loc + 4)
        if not 0 <= rec_off <= tail_at + loc - 56:
            raise _bad(what, "the zip64 end record is not inside the file")
        rec = tail[rec_off - tail_at:rec_off - tail_at + 56] if rec_off >= tail_at else \
            read_range(url, rec_off, 56, size, cancel=cancel)
        if rec[:4] != _EOCD64:
            raise _bad(what, "no zip64 end record where the locator says")
        disk, cd_disk, n_here, n_total, cd_size, cd_off = struct.unpack_from("<2L4Q", rec, 16)
        dir_end = rec_off
    if disk or cd_disk or n_here != n_total:
        raise _bad(what, "a zip split over several disks")
    if cd_off + cd_size != dir_end:
        raise _bad(what, "the central directory is not where the end record says")
    if cd_size > MAX_DIRECTORY or n_total * 46 > cd_size:
        raise _bad(what, f"a central directory of {cd_size} bytes for {n_total} members")
    cd = tail[cd_off - tail_at:dir_end - tail_at] if cd_off >= tail_at else \
        read_range(url, cd_off, cd_size, size, cancel=cancel)
    entries = _parse_central(cd, n_total, what)
    _spans(entries, cd_off, what)
    return entries


def _parse_central(cd: bytes, count: int, what: str) -> list[Entry]:
    out: list[Entry] = []
    names: set[str] = set()
    p = 0
    for _ in range(count):
        if p + 46 > len(cd):
            raise _bad(what, "the central directory ends early")
        (sig, _made, _need, flags, method, _t, _d, crc, csize, usize, nlen, elen, clen, disk, _ia, ea,
         offset) = struct.unpack_from(_CENTRAL_FMT, cd, p)
        if sig != _CENTRAL:
            raise _bad(what, "a broken central directory entry")
        raw = cd[p + 46:p + 46 + nlen]
        extra = cd[p + 46 + nlen:p + 46 + nlen + elen]
        p += 46 + nlen + elen + clen
        if p > len(cd):
            raise _bad(what, "the central directory ends early")
        name = raw.decode("utf-8" if flags & 0x800 else "cp437", "replace")
        if flags & 0x41:
            raise _bad(what, f"{name!r} is encrypted")
        if disk not in (0, _U16):
            raise _bad(what, f"{name!r} is on another disk")
        usize, csize, offset = _zip64(extra, usize, csize, offset, what)
        if name in names:
            raise _bad(what, f"two members named {name!r}")
        names.add(name)
        out.append(Entry(name, raw, method, crc, csize, usize, offset, (ea >> 16) & 0o7777, flags))
    if p != len(cd):
        raise _bad(what, "bytes after the last central directory entry")
    return out


def _spans(entries: list[Entry], cd_off: int, what: str) -> None:
    """Give each entry the span up to the next member or the directory; refuse overlaps and escapes."""
    order = sorted(entries, key=lambda e: e.offset)
    for n, e in enumerate(order):
        nxt = order[n + 1].offset if n + 1 < len(order) else cd_off
        if e.offset >= cd_off:
            raise _bad(what, f"{e.name!r} starts outside the members' part of the file")
        if nxt == e.offset:
            raise _bad(what, f"{e.name!r} and {order[n + 1].name!r} start at the same byte")
        if e.offset + 30 + len(e.raw) + e.csize > nxt:
            raise _bad(what, f"{e.name!r}: its {e.csize} compressed bytes run into "
                             + ("the central directory" if n + 1 == len(order) else repr(order[n + 1].name)))
        e.end = nxt


def select(entries: list[Entry], how: How) -> tuple[list[tuple[Entry, str]], Entry | None]:
    """(entry, where it goes in the tree) for each member ``how`` takes, and the wheel's RECORD entry."""
    chosen: list[tuple[Entry, str]] = []
    record = None
    for e in entries:
        parts = e.name.split("/")
        if len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] == "RECORD":
            record = e
        rel = wheel_rel(e.name, how)
        if rel is not None and not e.name.endswith("/"):
            chosen.append((e, rel))
    return chosen, record


def _inflate(src: IO[bytes], e: Entry, base: int, out: IO[bytes] | None, what: str) -> tuple[str, bytes]:
    """The member ``e`` from ``src`` (positioned anywhere; ``base`` is the file offset of ``src``'s
    byte 0): (sha256 hex, the data when ``out`` is None, else b"" with the data written there)."""
    src.seek(e.offset - base)
    head = src.read(30)
    if len(head) < 30 or head[:4] != _LOCAL:
        raise _bad(what, f"no local header for {e.name!r} where the directory says")
    nlen, elen = struct.unpack_from("<2H", head, 26)
    if src.read(nlen) != e.raw:
        raise _bad(what, f"the local header of {e.name!r} names another member")
    start = e.offset + 30 + nlen + elen
    if start + e.csize > e.end:
        raise _bad(what, f"{e.name!r}: its data runs into the next member")
    src.seek(start - base)
    if e.method not in (0, 8):
        raise _bad(what, f"{e.name!r} is compressed with method {e.method}")
    dec = zlib.decompressobj(-15) if e.method == 8 else None
    h = hashlib.sha256()
    state = [0, 0]  # bytes out, CRC-32
    keep: list[bytes] = []

    def emit(data: bytes) -> None:
        state[0] += len(data)
        if state[0] > e.usize:
            raise _bad(what, f"{e.name!r} unpacks to more than its declared {e.usize} bytes")
        h.update(data)
        state[1] = zlib.crc32(data, state[1])
        if out is None:
            keep.append(data)
        else:
            out.write(data)

    left = e.csize
    while left or (dec is not None and not dec.eof and dec.unconsumed_tail):
        data = src.read(min(CHUNK, left)) if left else b""
        if left and not data:
            raise _bad(what, f"{e.name!r} ends early")
        left -= len(data)
        emit(dec.decompress(dec.unconsumed_tail + data, e.usize - state[0] + 1) if dec is not None else data)
    if dec is not None and not dec.eof:
        emit(dec.flush())
    if dec is not None and (not dec.eof or dec.unused_data):
        raise _bad(what, f"{e.name!r}: its compressed size does not match its data")
    if state[0] != e.usize or state[1] != e.crc:
        raise _bad(what, f"{e.name!r}: size or CRC-32 differs from the central directory")
    return h.hexdigest(), b"".join(keep)


def record_hashes(url: str, size: int, record: Entry, what: str,
                  cancel: threading.Event | None = None) -> dict[str, tuple[str, int]]:
    """The wheel's RECORD, fetched by range: member name -> (sha256 hex, size), for rows with both."""
    if record.usize > MAX_RECORD or record.end - record.offset > MAX_RECORD + (1 << 16):
        raise _bad(what, f"a RECORD of {record.usize} bytes")
    data = read_range(url, record.offset, record.end - record.offset, size, cancel=cancel)
    _sha, text = _inflate(io.BytesIO(data), record, record.offset, None, what)
    out: dict[str, tuple[str, int]] = {}
    for row in csv.reader(io.StringIO(text.decode("utf-8", "replace"))):
        if len(row) < 3 or not row[1].startswith("sha256=") or not row[2].isdigit():
            continue
        try:
            digest = base64.urlsafe_b64decode(row[1][7:] + "=" * (-len(row[1][7:]) % 4))
        except ValueError:
            continue
        if len(digest) == 32:
            out[row[0]] = (digest.hex(), int(row[2]))
    return out


def plan_members(url: str, size: int, how: How, what: str,
                 cancel: threading.Event | None = None) -> list[Member]:
    """The members ``how`` takes from the wheel at ``url``, each with its RECORD sha256.

    Raises:
        RangeRefused: the server does not answer byte ranges: take the whole file.
        CudaenvError: the wheel lies (see the module), has no RECORD, or RECORD does not
            list a member that is taken.
    """
    entries = directory(url, size, what, cancel)
    chosen, record = select(entries, how)
    if record is None:
        raise _bad(what, "no RECORD")
    hashes = record_hashes(url, size, record, what, cancel)
    out: list[Member] = []
    for e, _rel in chosen:
        if e is record:
            continue  # RECORD cannot list its own hash: it was checked by CRC-32 above; not installed
        if e.raw != e.name.encode():
            raise _bad(what, f"{e.name!r} is not named in UTF-8")
        if e.name not in hashes:
            raise _bad(what, f"RECORD gives no sha256 for {e.name!r}")
        sha, n = hashes[e.name]
        if n != e.usize:
            raise _bad(what, f"{e.name!r}: RECORD says {n} bytes, the central directory {e.usize}")
        out.append({"name": e.name, "sha256": sha, "size": n, "mode": e.mode, "offset": e.offset, "end": e.end,
                    "csize": e.csize, "method": e.method, "crc": e.crc})
    return out


def _groups(members: list[Member]) -> list[list[Member]]:
    """Members in file order, those within :data:`GAP` of each other in one request."""
    out: list[list[Member]] = []
    for m in sorted(members, key=lambda m: m["offset"]):
        if out and m["offset"] - out[-1][-1]["end"] <= GAP and m["end"] - out[-1][0]["offset"] <= MAX_SPAN:
            out[-1].append(m)
        else:
            out.append([m])
    return out


def fetch_members(url: str, size: int, members: list[Member], cache: str, what: str,
                  progress: Callable[[int], None] | None = None,
                  cancel: threading.Event | None = None) -> int:
    """Make every member available in the download cache (by its sha256); return bytes downloaded.

    Members already in the cache are not fetched. Each fetched member must inflate to its
    RECORD sha256 and size before it enters the cache.

    Raises:
        RangeRefused: the server stopped answering byte ranges consistently (take the whole file).
        CudaenvError: a member that does not match, or as :func:`~cudaenv.install.fetch.read_range`.
    """
    need = [m for m in members if not cached(cache, m["sha256"])]
    downloaded = 0
    for group in _groups(need):
        start, end = group[0]["offset"], group[-1]["end"]
        tmp = partial_path(cache, f"range-{os.getpid()}-{threading.get_ident()}")
        try:
            with open(tmp, "w+b") as buf:
                read_range(url, start, end - start, size, sink=buf, cancel=cancel)
                downloaded += end - start
                if progress:
                    progress(end - start)
                for m in group:
                    e = Entry(m["name"], m["name"].encode(), m["method"], m["crc"], m["csize"], m["size"],
                              m["offset"], m["mode"], 0)
                    e.end = m["end"]
                    _one_member(buf, e, start, m["sha256"], cache, what)
        finally:
            if os.path.lexists(tmp):
                os.unlink(tmp)
    return downloaded


def _one_member(buf: IO[bytes], e: Entry, base: int, sha: str, cache: str, what: str) -> None:
    part = partial_path(cache, f"member-{sha}-{threading.get_ident()}")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as out:
            got, _ = _inflate(buf, e, base, out, what)
        if got != sha:
            raise CudaenvError(f"{what}: {e.name!r} has sha256 {got}, the wheel's RECORD says {sha}; "
                               "refusing the wheel")
        keep_file(part, cache, sha)
    finally:
        if os.path.lexists(part):
            os.unlink(part)


# --------------------------------------------------------------------------- plans


def ranged(c: PlanComponent) -> bool:
    """Whether only some members of ``c`` are wanted, and its file can be read by range."""
    return c["kind"] == "wheel" and c["how"] != "all" and c["size"] is not None and not is_local(c["url"])


def _members_file(cache: str, c: PlanComponent) -> str:
    return os.path.join(cache, "members", f"{c['sha256']}-{c['how']}.json")


def _known_members(cache: str, c: PlanComponent) -> list[Member] | None:
    """The member list an earlier plan read for this very file (its sha256) and ``how``."""
    doc = read_cache_json(_members_file(cache, c))
    keys = {"name": str, "sha256": str, "size": int, "mode": int, "offset": int, "end": int, "csize": int,
            "method": int, "crc": int}
    if not isinstance(doc, list) or not all(
            isinstance(m, dict) and all(type(m.get(k)) is t for k, t in keys.items()) for m in doc):
        return None
    if not all(is_sha(m["sha256"]) for m in doc):
        return None
    return doc  # checked key by key above


def expand(plan: Plan, cache: str, say: Callable[[str], None], whole: bool = False) -> Plan:
    """``plan`` with ``members`` on each component of which only some members are wanted.

    The member lists of files already planned once (by sha256) are read from the cache; the
    others from the servers, in parallel. ``whole`` (``--whole-files``): no members at all.
    A server that does not answer byte ranges keeps its whole file (said once per host).

    Raises:
        CudaenvError: a wheel whose directory or RECORD lies (one line; nothing is installed).
    """
    if whole:
        return plan
    todo = [c for c in plan["components"] if ranged(c)]
    found: dict[str, list[Member] | None] = {}
    ask = []
    for c in todo:
        known = _known_members(cache, c)
        if known is not None:
            found[c["key"]] = known
        else:
            ask.append(c)

    def one(c: PlanComponent) -> list[Member] | None:
        size = c["size"] or 0
        try:
            return plan_members(c["url"], size, c["how"], f"{c['key']} {c['version']}")
        except RangeRefused as exc:
            say(f"{exc.message}; downloading the whole file")
            return None

    if ask:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=min(4, len(ask))) as pool:
            for c, got in zip(ask, pool.map(one, ask)):
                found[c["key"]] = got
                if got is not None:
                    try:
                        write_private(_members_file(cache, c), json.dumps(got, sort_keys=True).encode())
                    except OSError:
                        pass  # an unwritable cache: planned again next time
    comps: list[PlanComponent] = []
    for c in plan["components"]:
        members = found.get(c["key"]) if ranged(c) else None
        comps.append({**c, "members": members} if members is not None else c)
    return {**plan, "components": comps}


def install_members(c: PlanComponent, cache: str, root: str, progress: Callable[[int], None] | None,
                    cancel: threading.Event | None) -> tuple[int, int] | None:
    """Fetch ``c``'s members (those not cached) and write them into ``root``: (bytes downloaded,
    files written), or None when the server stopped answering ranges (take the whole file then)."""
    what = f"{c['key']} {c['version']}"
    members = c["members"] if "members" in c else []
    try:
        got = fetch_members(c["url"], c["size"] or 0, members, cache, what, progress, cancel)
    except RangeRefused:
        return None
    files = []
    for m in members:
        rel = wheel_rel(m["name"], c["how"])
        if rel is None:
            raise _bad(what, f"{m['name']!r} is not a member this part takes")
        files.append((rel, cached_path(cache, m["sha256"]), m["mode"]))
    return got, unpack_files(files, c, root)
