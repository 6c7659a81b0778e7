"""One install: resolve across sources, lock, check space, download + unpack in parallel, rename.

Everything is written into ``.<name>.staging-<pid>`` beside the final root and
renamed into place at the very end, so an interrupted or failed install leaves
no ``cuda-*`` directory (discovery never sees a half-installed toolkit), and
the next install of that version removes what a killed one left. A lock file
``.<name>.lock`` beside it makes a second install of the same version wait,
and then find it installed.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import signal
import stat
import threading
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait

from ..errors import CudaenvError
from . import tarcache
from .fetch import Cancelled, Unreachable, cached_path, fetch_file, is_local
from .parts import role
from .progress import Progress, human
from .record import MARKER, read_marker, register
from .sources import NotOffered, make_source
from .store import StoreLock, share_tree
from .unpack import finish, unpack
from .wheels import META
from .zipranges import install_members

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Mapping

    from .types import Made, Marker, Plan, PlanComponent, Summary

__all__ = ["MARKER", "resolve", "install_tree", "fetch_size", "Cancelled", "version_json", "STAGING", "OLD", "put_back"]

STAGING = ".staging-"
#: A tree being replaced (``--force``) waits here until the new one is in place.
OLD = ".old-"
#: Unpacked size per byte of download, for the free-space check (a .tar.xz's true size is unknown).
_UNPACK_FACTOR = {"tar": 3.0, "wheel": 2.5}


def resolve(version: str, sources: list[str], parts: str, env: Mapping[str, str], cache: str,
            say: Callable[[str], None]) -> Plan:
    """The first source's answer for ``version`` and ``parts``.

    Returns:
        ``{"version", "source", "kind", "components": [component + "how"], "parts"}``.

    Raises:
        CudaenvError: no source offers it (one line naming what each said), or a bad ``parts``.
    """
    tried = []
    for n, spec in enumerate(sources):
        src = make_source(spec, env)
        notes: list[str] = []
        last = n == len(sources) - 1  # its failure is said once, in the error line
        try:
            label, comps = src.offer(version, parts, cache, notes)
        except Unreachable as exc:
            tried.append(f"{src.label}: unreachable" + (f" ({exc.message})" if last else ""))
            if not last:
                say(f"{src.label} is unreachable ({exc.message}); trying the next source")
            continue
        except NotOffered as exc:
            tried.append(exc.message)
            if not last:
                say(f"{exc.message}; trying the next source")
            continue
        return {"version": label, "source": src.label, "kind": src.kind, "components": comps,
                "parts": parts}
    raise CudaenvError(f"no source offers CUDA {version} ({'; '.join(tried) or 'no sources'})",
                       hint="`cudaenv install --list` shows what the sources have", exit_code=2)


def version_json(plan: Plan) -> str:
    """``version.json`` in NVIDIA's format: ``cuda`` (the release) and one entry per component."""
    doc: dict[str, dict[str, str]] = {"cuda": {"name": "CUDA SDK", "version": plan["version"]}}
    for c in plan["components"]:
        key = c["key"]
        if key == META:
            continue
        if c["kind"] == "wheel":  # nvidia-cuda-nvcc -> cuda_nvcc, nvidia-cublas -> libcublas (NVIDIA's keys)
            r = role(key)
            key = f"cuda_{r}" if key.startswith("nvidia-cuda-") else f"lib{r}"
        doc[key] = {"name": c["name"], "version": c["version"]}
    return json.dumps(doc, indent=3, sort_keys=True, separators=(",", " : ")) + "\n"


def fetch_size(c: PlanComponent, cache: str | None = None) -> int:
    """The bytes fetching ``c`` takes: its members' spans (ranged) or its whole size; with ``cache``,
    only what the download cache does not hold yet."""
    if "members" in c:
        return sum(m["end"] - m["offset"] for m in c["members"]
                   if cache is None or not os.path.exists(cached_path(cache, m["sha256"])))
    if cache is not None and (os.path.exists(cached_path(cache, c["sha256"])) or
                              (tarcache.applies(c) and tarcache.known(cache, c) is not None)):
        return 0
    return c["size"] or 0


def _free(path: str) -> int:
    while not os.path.exists(path):
        path = os.path.dirname(path)
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def _dev(path: str) -> int:
    while not os.path.exists(path):
        path = os.path.dirname(path)
    return os.stat(path).st_dev


def check_space(plan: Plan, root: str, cache: str) -> None:
    """Refuse to start when the downloads and the unpacked tree cannot fit."""
    dl = sum(fetch_size(c, cache) for c in plan["components"] if not is_local(c["url"]))
    tree = int(sum((c["size"] or 0) * _UNPACK_FACTOR[c["kind"]] * (0.3 if c["how"] == "include" else 1)
                   for c in plan["components"]))
    parent = os.path.dirname(root)
    need: dict[int, tuple[str, int]] = {}
    for where, n in ((cache, dl), (parent, tree)):
        first, total = need.get(_dev(where), (where, 0))
        need[_dev(where)] = (first, total + n)
    for where, n in need.values():
        free = _free(where)
        if n > free:
            raise CudaenvError(f"not enough free space: about {human(n)} needed under {where}, {human(free)} free",
                               hint="free some space, or use --prefix / CUDAENV_INSTALL_CACHE on another disk")


def _remove(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _write_new(path: str, text: str) -> None:
    """Write ``text`` as a new file at ``path`` (what an archive left there is replaced, never written through)."""
    try:
        if os.path.lexists(path):
            os.unlink(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise CudaenvError(f"cannot write {path}: {exc.strerror}") from None
    with os.fdopen(fd, "w") as f:
        f.write(text)


def _leftovers(parent: str, name: str, root: str) -> None:
    """Under the lock: put back a tree a killed ``--force`` had set aside; remove what killed installs left."""
    olds = sorted(n for n in os.listdir(parent) if n.startswith(f".{name}{OLD}"))
    if not os.path.lexists(root):
        for n in olds:
            if read_marker(os.path.join(parent, n)) is not None:
                os.rename(os.path.join(parent, n), root)
                olds.remove(n)
                break
    for n in os.listdir(parent):
        if n.startswith(f".{name}{STAGING}") or n in olds:
            p = os.path.join(parent, n)
            if stat.S_ISDIR(os.lstat(p).st_mode):
                _remove(p)


def put_back(root: str) -> None:
    """Put back the tree a ``--force`` killed mid-swap set aside at ``root`` (under the install lock)."""
    parent, name = os.path.split(os.path.abspath(root))
    if os.path.lexists(root) or not os.path.isdir(parent) or \
            not any(n.startswith(f".{name}{OLD}") for n in os.listdir(parent)):
        return
    try:
        fd = os.open(os.path.join(parent, f".{name}.lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _leftovers(parent, name, root)
    finally:
        os.close(fd)


def _swap(staging: str, root: str, old: str) -> None:
    """``staging`` becomes ``root``; a tree already there is set aside first and removed only after."""
    blocked = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    try:
        prev = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
    except (AttributeError, ValueError, OSError):
        prev = None
    try:
        had = os.path.lexists(root)
        if had:
            os.rename(root, old)
        try:
            os.rename(staging, root)
        except OSError:
            if had:
                os.rename(old, root)
            raise
    finally:
        if prev is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, prev)
    if had:
        _remove(old)


def install_tree(plan: Plan, root: str, cache: str, env: Mapping[str, str], jobs: int = 4,
                 progress: Progress | None = None, replace: bool = False) -> Summary:
    """Install ``plan`` at ``root``; return a summary.

    ``root`` must not exist, or, with ``replace``, be a tree cudaenv installed:
    it stays in place until the new tree is complete, and is then swapped out.

    Returns:
        ``{"root", "downloaded" (bytes fetched now), "bytes" (all files' sizes), "files", "stub",
        "stub_error", "token", "already"}``. ``already`` is True when another install finished
        ``root`` while this one waited for the lock.

    Raises:
        CudaenvError: a download, checksum, unpack or disk failure (nothing is left behind,
            a replaced tree is still there).
        KeyboardInterrupt: interrupted (the same).
    """
    parent, name = os.path.split(os.path.abspath(root))
    try:
        os.makedirs(parent, exist_ok=True)
        lock_fd = _open_lock(os.path.join(parent, f".{name}.lock"))
    except OSError as exc:
        raise CudaenvError(f"cannot write in {parent}: {exc.strerror}") from None
    prog = progress or Progress(0)
    # flock waits on this host; the link(2) lock (install/store.py) also across the hosts of an NFS store.
    shared = StoreLock(parent, name, prog.message)
    try:
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            prog.message(f"another install of {name} is running; waiting for it")
            fcntl.flock(lock_fd, fcntl.LOCK_EX)
        shared.acquire()
        _leftovers(parent, name, root)
        if os.path.lexists(root) and not replace:
            return {"root": root, "already": True, "downloaded": 0, "bytes": 0, "files": 0, "stub": None,
                    "stub_error": None, "token": ""}
        if os.path.lexists(root) and read_marker(root) is None:
            raise CudaenvError(f"{root} exists and is not a toolkit cudaenv installed", exit_code=2)
        check_space(plan, root, cache)
        staging = os.path.join(parent, f".{name}{STAGING}{os.getpid()}")
        os.makedirs(staging)
        token = secrets.token_hex(16)
        try:
            downloaded, files, made = _fill(plan, staging, cache, env, jobs, prog)
            from ..infra.jsonout import dumps

            _write_new(os.path.join(staging, "version.json"), version_json(plan))
            record: Marker = {"format": 1, "version": plan["version"], "source": plan["source"],
                              "parts": plan["parts"], "token": token,
                              "components": {c["key"]: {"version": c["version"], "sha256": c["sha256"],
                                                        "file": c["filename"], "only": c["how"]}
                                             for c in plan["components"]}}
            _write_new(os.path.join(staging, MARKER), dumps(record) + "\n")
            share_tree(staging, parent)  # a group-shared store's group and modes (nothing for a private one)
            register(env, root, plan["version"], token, [])
            _swap(staging, root, os.path.join(parent, f".{name}{OLD}{os.getpid()}"))
        except BaseException:
            _remove(staging)
            raise
        return {"root": root, "already": False, "downloaded": downloaded, "bytes": prog.total, "files": files,
                "stub": made["stub"], "stub_error": made["stub_error"], "token": token}
    finally:
        shared.release()
        prog.close()
        os.close(lock_fd)


def _open_lock(path: str) -> int:
    """The flock file of one install: made readable and writable as the umask allows (in a group-writable
    store, by the group too); one another member made and the umask kept read-only is opened to read
    (flock needs no write access); one another member's umask kept private: the directory itself
    (this host's installs into it then take turns; the link(2) lock still decides per toolkit)."""
    flags = os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(path, os.O_RDWR | flags, 0o666)
    except PermissionError:
        pass
    try:
        return os.open(path, os.O_RDONLY | flags, 0o666)
    except PermissionError:
        return os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


class _Busy:
    """The worker threads inside a task, so that abandoning the install stops them within moments.

    A download ends when its socket is shut (fetch's watchdog, on ``stop``); a thread busy
    unpacking has no socket, and a thread cannot be killed. CPython can raise an exception in
    another thread at its next bytecode (``PyThreadState_SetAsyncExc``): :meth:`stop` raises
    :class:`Cancelled` once in each worker still inside :meth:`enter`/:meth:`leave`, which
    unwinds the unpack like any error; :meth:`leave` withdraws one not yet delivered, so it
    never reaches the pool's own code.

    Only a thread :meth:`stop` raised in is ever withdrawn from: in CPython (3.11 at least)
    ``PyThreadState_SetAsyncExc`` always sets the interpreter's "async exception pending" flag,
    and only delivering an exception clears it. Withdrawing from a thread that had none left
    the flag set for the rest of the process: every thread then took the slow path at each
    check of the eval loop, and a profiled install never finished starting its next worker.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: set[int] = set()
        self.sent: set[int] = set()
        self.stopped = False

    def enter(self) -> None:
        with self.lock:
            if self.stopped:
                raise Cancelled()
            self.ids.add(threading.get_ident())

    def leave(self) -> None:
        with self.lock:
            tid = threading.get_ident()
            self.ids.discard(tid)
            if tid in self.sent:
                self.sent.discard(tid)
                _raise_in(tid, None)

    def stop(self) -> None:
        with self.lock:
            if not self.stopped:
                self.stopped = True
                for tid in self.ids:
                    self.sent.add(tid)
                    _raise_in(tid, Cancelled)


def _raise_in(tid: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in thread ``tid`` at its next bytecode (None: withdraw a pending one)."""
    try:
        import ctypes

        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(exc) if exc else None)
    except (ImportError, AttributeError):  # not CPython: the unpack then runs to its end
        pass


def _fill(plan: Plan, staging: str, cache: str, env: Mapping[str, str], jobs: int,
          prog: Progress) -> tuple[int, int, Made]:
    """Download and unpack every component into ``staging`` in parallel, then give it NVIDIA's layout.

    Returns:
        (bytes downloaded now, files written, what :func:`~cudaenv.install.unpack.finish` made).
    """
    comps = plan["components"]
    prog.total = sum(fetch_size(c) for c in comps)
    stop = threading.Event()
    downloaded = [0]
    files = [0]
    count_lock = threading.Lock()

    busy = _Busy()

    def one(c: PlanComponent) -> None:
        busy.enter()
        try:
            _one(c)
        finally:
            busy.leave()

    def _one(c: PlanComponent) -> None:
        label = c["filename"]
        prog.start(label, fetch_size(c))

        def tick(n: int) -> None:
            if stop.is_set():
                raise Cancelled()
            prog.advance(label, n)

        done = install_members(c, cache, staging, tick, stop) if "members" in c else None
        kept = tarcache.install_known(c, cache, staging) if tarcache.applies(c) else None
        if done is not None:
            got, n = done
        elif kept is not None:  # the files an earlier install kept of this very archive or wheel
            got, n = 0, kept
        else:
            if "members" in c:
                prog.message(f"{label}: the server stopped answering byte ranges; downloading the whole file")
            path, got = fetch_file(c["url"], c["sha256"], c["size"], cache, tick, name=label, cancel=stop)
            if stop.is_set():
                raise Cancelled()
            n = tarcache.unpack_keeping_files(path, c, staging, cache) if tarcache.applies(c) else \
                unpack(path, c, staging)
        with count_lock:
            downloaded[0] += got
            files[0] += n
        prog.finish(label, "installed" + (" (headers)" if c["how"] == "include" else ""))

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    futures: list[Future[None]] = []
    try:  # submitting too: a signal may arrive while a first worker already downloads
        for c in sorted(comps, key=lambda c: -(c["size"] or 0)):
            futures.append(pool.submit(one, c))
        while True:
            done, pending = wait(futures, timeout=0.2, return_when=FIRST_EXCEPTION)
            failed = [exc for exc in (f.exception() for f in done) if exc is not None]
            if failed or not pending:
                break
        if failed:
            stop.set()
            busy.stop()
            wait(futures)
            raise failed[0]  # the others ended as Cancelled
    except BaseException:
        stop.set()
        busy.stop()
        for f in futures:
            f.cancel()
        pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)
    work = os.path.join(staging, ".work")
    os.makedirs(work)
    try:
        made = finish(staging, env, work)
    finally:
        _remove(work)
    return downloaded[0], files[0], made
