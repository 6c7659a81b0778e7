"""``install --download-only DIR``: a mirror in NVIDIA's redist format another machine installs from.

The files of one plan (its parts, as ``install`` would choose them) are copied from the download
cache to ``DIR/<key>/linux-x86_64/<file>`` and described by ``DIR/redistrib_<release>.json`` in
NVIDIA's format, which ``--source DIR`` reads like NVIDIA's own site. Wheels (from a wheel
source) are listed the same way; ``redist.parse_manifest`` tells them by their ``.whl`` name.

``DIR`` may already hold anything, a link planted by someone else included: every directory
below it is entered with ``O_NOFOLLOW`` relative to its parent's descriptor (a link or a file
where a directory belongs is replaced by a directory, never followed), every file is written as
a new hidden file and renamed over its name (a link there is replaced, its target untouched),
and each copy is hashed as it is written. The manifest is written last, the same way: a mirror
interrupted midway has no manifest for the release (or the earlier complete one), and the next
run keeps the files that already verify. A manifest already there for the release keeps the
entries this plan does not replace whose files verify, so parts add up as ``install``'s do.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

from ..errors import CudaenvError
from .fetch import fetch_file
from .redist import PLATFORM, manifest_name, parse_manifest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .progress import Progress
    from .types import Component, Plan, PlanComponent

__all__ = ["write_mirror", "relative_path"]

_BLOCK = 1 << 20
#: What this module leaves while it writes (removed again when a later run finds it).
_PART = ".part-"


def relative_path(c: Component) -> str:
    """Where a component lives in the mirror: NVIDIA's ``<key>/linux-x86_64/<file>``."""
    return f"{c['key']}/{PLATFORM}/{c['filename']}"


def _open_dir(parent: int, name: str, where: str) -> int:
    """A descriptor of the real directory ``name`` in ``parent``, made if missing; a link, file or
    other thing of that name is removed first (only the entry itself, never what a link names)."""
    for _ in range(3):
        try:
            return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise CudaenvError(f"cannot open {where}: {exc.strerror}") from None
            try:
                os.unlink(name, dir_fd=parent)  # a link or a file where the mirror needs a directory
            except OSError as err:
                raise CudaenvError(f"cannot replace {where}: {err.strerror}") from None
        try:
            os.mkdir(name, 0o755, dir_fd=parent)
        except FileExistsError:
            continue  # made meanwhile: open it (again with O_NOFOLLOW)
        except OSError as exc:
            raise CudaenvError(f"cannot create {where}: {exc.strerror}") from None
    raise CudaenvError(f"cannot create {where}: it keeps changing")


def _sha_of(dirfd: int, name: str) -> str | None:
    """sha256 of the regular file ``name`` in ``dirfd`` (not through a link), None when there is none.

    Anything else there (a FIFO, a device) is not opened: opening one may block or act.
    """
    try:
        if not stat.S_ISREG(os.lstat(name, dir_fd=dirfd).st_mode):
            return None
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dirfd)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        h = hashlib.sha256()
        for block in iter(lambda: f.read(_BLOCK), b""):
            h.update(block)
    return h.hexdigest()


def _put(dirfd: int, name: str, src: str | None, data: bytes | None, sha: str | None, where: str) -> None:
    """Write ``src``'s bytes (or ``data``) as ``name`` in ``dirfd``: a new hidden file, hashed as
    written (it must be ``sha``), renamed over whatever ``name`` was."""
    tmp = f".{name}{_PART}{os.getpid()}-{threading.get_ident()}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=dirfd)
    except OSError as exc:
        raise CudaenvError(f"cannot write in {os.path.dirname(where)}: {exc.strerror}") from None
    try:
        h = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            if data is not None:
                out.write(data)
                h.update(data)
            else:
                assert src is not None
                with open(src, "rb") as f:
                    for block in iter(lambda: f.read(_BLOCK), b""):
                        out.write(block)
                        h.update(block)
            out.flush()
            os.fsync(out.fileno())
        if sha is not None and h.hexdigest() != sha:
            raise CudaenvError(f"{where}: the copy does not match its sha256 (the cached file changed meanwhile)")
        try:
            os.rename(tmp, name, src_dir_fd=dirfd, dst_dir_fd=dirfd)
        except OSError as exc:
            raise CudaenvError(f"cannot write {where}: {exc.strerror}") from None
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dirfd)
        except OSError:
            pass
        raise


def _leftovers(dirfd: int, names: set[str]) -> None:
    """Remove what an interrupted run left beside ``names`` (this module's own hidden files only)."""
    try:
        entries = os.listdir(dirfd)
    except OSError:
        return
    for n in entries:
        head, sep, _ = n.partition(_PART)
        if sep and head.startswith(".") and head[1:] in names:
            try:
                if stat.S_ISREG(os.lstat(n, dir_fd=dirfd).st_mode):
                    os.unlink(n, dir_fd=dirfd)
            except OSError:
                pass


def _place(top: int, c: Component, src: str, root: str) -> bool:
    """Put component ``c`` (verified at ``src``) at its path under the mirror; False when a file
    with its sha256 was already there."""
    rel = relative_path(c)
    parts = rel.split("/")
    fds = [top]
    try:
        where = root
        for d in parts[:-1]:
            where = os.path.join(where, d)
            fds.append(_open_dir(fds[-1], d, where))
        _leftovers(fds[-1], {parts[-1]})
        if _sha_of(fds[-1], parts[-1]) == c["sha256"]:
            return False
        _put(fds[-1], parts[-1], src, None, c["sha256"], os.path.join(root, rel))
        return True
    finally:
        for fd in fds[1:]:
            os.close(fd)


def _kept(top: int, root: str, version: str, replaced: set[str]) -> dict[str, object]:
    """The entries of the manifest already in the mirror for ``version`` that still hold: not
    replaced by this plan, and their file there verifies. Anything else in it is dropped."""
    name = manifest_name(version)
    try:
        if not stat.S_ISREG(os.lstat(name, dir_fd=top).st_mode):
            return {}
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=top)
    except OSError:
        return {}
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {}
        data = f.read(4 << 20)
    try:
        rel = parse_manifest(data, root, os.path.join(root, name))
    except CudaenvError:
        return {}
    if rel["version"] != version:
        return {}
    out: dict[str, object] = {}
    for key, c in rel["components"].items():
        if key in replaced:  # an entry kept is written at NVIDIA's path: elsewhere, it does not verify there
            continue
        fds = [top]
        try:
            for d in relative_path(c).split("/")[:-1]:
                fds.append(os.open(d, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fds[-1]))
            ok = _sha_of(fds[-1], c["filename"]) == c["sha256"]
        except OSError:
            ok = False
        finally:
            for fd in fds[1:]:
                os.close(fd)
        if ok:
            out[key] = _entry(c)
    return out


def _entry(c: Component) -> dict[str, object]:
    """One manifest entry in NVIDIA's format (``size`` a string of digits, as NVIDIA writes it)."""
    plat: dict[str, str] = {"relative_path": relative_path(c), "sha256": c["sha256"]}
    if c["size"] is not None:
        plat["size"] = str(c["size"])
    return {"name": c["name"], "version": c["version"], PLATFORM: plat}


def write_mirror(plan: Plan, root: str, cache: str, jobs: int, progress: Progress) -> tuple[int, int, int]:
    """Download ``plan`` (into the cache, verified) and write it as a mirror at ``root``.

    Returns:
        (files written now, files already there, bytes downloaded now).

    Raises:
        CudaenvError: a download or a write failed (the mirror's manifest is then not written).
        KeyboardInterrupt: interrupted (the same; downloads stay in the cache, to be resumed).
    """
    try:
        os.makedirs(root, exist_ok=True)
        top = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise CudaenvError(f"cannot write the mirror at {root}: {exc.strerror}") from None
    stop = threading.Event()
    counts = [0, 0, 0]
    lock = threading.Lock()

    def one(c: PlanComponent) -> None:
        label = c["filename"]
        progress.start(label, c["size"])
        path, got = fetch_file(c["url"], c["sha256"], c["size"], cache, lambda n: progress.advance(label, n),
                               name=label, cancel=stop)
        wrote = _place(top, c, path, root)
        with lock:
            counts[0 if wrote else 1] += 1
            counts[2] += got
        progress.finish(label, "written" if wrote else "already in the mirror")

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = [pool.submit(one, c) for c in sorted(plan["components"], key=lambda c: -(c["size"] or 0))]
        done, _ = wait(futures, return_when=FIRST_EXCEPTION)
        failed = [exc for exc in (f.exception() for f in done) if exc is not None]
        if failed:
            stop.set()
            wait(futures)
            raise failed[0]
        replaced = {c["key"] for c in plan["components"]}
        doc: dict[str, object] = {"release_label": plan["version"], "release_product": "cuda"}
        entries = _kept(top, root, plan["version"], replaced)
        entries.update({c["key"]: _entry(c) for c in plan["components"]})
        doc.update(sorted(entries.items()))
        name = manifest_name(plan["version"])
        _leftovers(top, {name})
        _put(top, name, None, (json.dumps(doc, indent=4) + "\n").encode(), None, os.path.join(root, name))
    except BaseException:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        os.close(top)
    pool.shutdown(wait=True)
    return counts[0], counts[1], counts[2]
