"""Archives and wheels into one toolkit tree, then NVIDIA's layout around it.

A redist archive holds ``<component>-linux-x86_64-<version>-archive/{bin,include,lib,…}``:
the top directory is stripped. A wheel holds ``nvidia/<pkg>/{bin,include,lib,…}``
(``cu13`` for CUDA 13, ``cuda_nvcc``… for 12.x): ``nvidia/<pkg>/`` is stripped and
its ``*.dist-info`` goes to ``dist-info/``. Nothing may land outside the tree:
absolute names, ``..`` and links that leave the tree are refused.
"""

from __future__ import annotations

import errno
import lzma
import os
import shutil
import stat
import tarfile
import zipfile

from ..errors import CudaenvError
from ..toolkit.stubgen import StubError, generate
from .progress import human

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Callable, Literal, Mapping, TypeVar

    from .types import How, Made, PlanComponent

    T = TypeVar("T")

__all__ = ["unpack", "finish", "unpacked_size", "wheel_rel", "unpack_files"]

_SKIP = ("__init__.py", "__pycache__")

#: Bounds on what one archive or wheel may unpack to, from its (sha256-checked) size: real
#: archives unpack to at most ~10x (measured: NVIDIA's wheels 2.4-9x, cccl's headers ~5x, 0.6
#: files per KiB), so these only stop bombs.
MIN_BYTES = 32 << 20
MAX_RATIO = 64
MIN_FILES = 4096
FILES_PER_KIB = 8
#: The largest pax / GNU long-name header read (they are read whole, into memory).
MAX_HEADER = 1 << 20
#: Memory the xz decoder may take (NVIDIA's archives need ~65 MiB at -9; a crafted header can ask 1.5 GiB).
XZ_MEMLIMIT = 256 << 20
#: Symbolic links followed resolving one path inside the tree (the kernel allows 40).
MAX_HOPS = 40
#: How often a link another archive's thread is replacing (unlink, then symlink) is looked at again before the
#: archive is refused: the other thread makes it again at once.
_VANISHING_TRIES = 8


def limits(size: int) -> tuple[int, int]:
    """(bytes, entries) an archive of ``size`` bytes may unpack to."""
    return MIN_BYTES + MAX_RATIO * size, MIN_FILES + FILES_PER_KIB * (size >> 10)


class _Budget:
    def __init__(self, size: int, what: str) -> None:
        self.size, self.what = size, what
        self.max_bytes, self.max_files = limits(size)
        self.bytes = self.files = 0

    def _bomb(self, more: str) -> CudaenvError:
        return CudaenvError(f"{self.what}: the archive ({human(self.size)}) unpacks to {more}; "
                            "refusing it (a decompression bomb)")

    def entry(self) -> None:
        self.files += 1
        if self.files > self.max_files:
            raise self._bomb(f"more than {self.max_files} entries")

    def take(self, n: int) -> None:
        self.bytes += n
        if self.bytes > self.max_bytes:
            raise self._bomb(f"more than {human(self.max_bytes)}")


class _Tree:
    """Writes into ``root`` resolving every path physically, component by component.

    Nothing is ever written through a link that leads out of the tree: a parent
    directory that is a link is followed only to where it resolves inside;
    a link is made only when its target resolves inside (at that moment,
    and again for every link once everything is unpacked: :meth:`check_links`);
    an existing link at a destination is replaced, never written through.
    """

    def __init__(self, root: str, what: str) -> None:
        self.root = os.path.realpath(root)
        self.what = what

    def refuse(self, rel: str, why: str) -> CudaenvError:
        return CudaenvError(f"{self.what}: refusing {rel!r} ({why})")

    def split(self, rel: str) -> list[str]:
        if "\0" in rel or len(rel) > 4096:
            raise self.refuse(rel[:200], "not a file name")
        if rel.startswith("/"):
            raise self.refuse(rel, "an absolute name")
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if ".." in parts:
            raise self.refuse(rel, "a '..' name")
        if not parts:
            raise self.refuse(rel, "an empty name")
        return parts

    def path(self, phys: list[str]) -> str:
        return os.path.join(self.root, *phys)

    def resolve(self, phys: list[str], comps: list[str], rel: str, create: bool, hops: list[int]) -> list[str]:
        """``comps`` walked from the physical directory ``phys``: the physical components it reaches.

        ``create`` makes missing directories; otherwise a missing name is taken as
        written (a dangling link). Raises when the walk would leave the tree.
        """
        phys = list(phys)
        missing = False
        for i, comp in enumerate(comps):
            if comp in ("", "."):
                continue
            if comp == "..":
                if not phys:
                    raise self.refuse(rel, "it leads outside the toolkit")
                phys.pop()
                continue
            if missing:
                phys.append(comp)
                continue
            p = self.path(phys + [comp])
            looked = self._look(p, create, rel)
            if looked is None:
                missing = True
                phys.append(comp)
                continue
            st, target = looked
            if target is not None:
                hops[0] += 1
                if hops[0] > MAX_HOPS:
                    raise self.refuse(rel, "too many levels of links")
                if target.startswith("/"):
                    raise self.refuse(rel, "it leads outside the toolkit")
                phys = self.resolve(phys, target.split("/"), rel, create, hops)
            elif stat.S_ISDIR(st.st_mode):
                phys.append(comp)
            elif i == len(comps) - 1 and not create:
                phys.append(comp)
            else:
                raise self.refuse(rel, f"{'/'.join(phys + [comp])} is not a directory")
        return phys

    def _look(self, p: str, create: bool, rel: str) -> tuple[os.stat_result, str | None] | None:
        """What is at ``p``: its lstat and, for a link, its target; None when missing and not ``create``.

        Archives unpacked in parallel replace each other's links (unlink, then symlink): a link seen by lstat may be
        gone at readlink; it is looked at again, as are directories another thread makes meanwhile.
        """
        for _attempt in range(_VANISHING_TRIES):
            try:
                try:
                    st = os.lstat(p)
                except FileNotFoundError:
                    if not create:
                        return None
                    try:
                        os.mkdir(p, 0o755)
                    except FileExistsError:  # another archive's thread made it meanwhile
                        pass
                    st = os.lstat(p)
                return st, (os.readlink(p) if stat.S_ISLNK(st.st_mode) else None)
            except FileNotFoundError:
                continue  # replaced under us: look again
            except OSError as exc:  # ENAMETOOLONG, ELOOP, ...: never taken as "not a link"
                raise self.refuse(rel, exc.strerror or "cannot resolve it") from None
        raise self.refuse(rel, "it keeps vanishing while being read")

    def parent(self, parts: list[str], rel: str) -> str:
        """The physical directory of ``parts[:-1]`` (made as needed), inside the tree."""
        return self.path(self.resolve([], parts[:-1], rel, True, [0]))

    def _clear(self, dest: str, rel: str) -> None:
        try:
            st = os.lstat(dest)
        except FileNotFoundError:
            return
        if stat.S_ISDIR(st.st_mode):
            raise self.refuse(rel, "a directory is in the way")
        try:
            os.unlink(dest)
        except FileNotFoundError:
            pass

    def _create(self, dest: str, rel: str, make: Callable[[], T]) -> T:
        """``make()`` at ``dest`` after clearing what is there; archives unpacked in parallel may
        both bring a file (a LICENSE): the last one wins, as with tar."""
        for _attempt in range(7):
            self._clear(dest, rel)
            try:
                return make()
            except FileExistsError:
                pass
        self._clear(dest, rel)
        return make()

    def mkdir(self, rel: str) -> None:
        parts = self.split(rel)
        self.resolve([], parts, rel, True, [0])

    def write(self, rel: str, src: IO[bytes], mode: int, budget: _Budget) -> None:
        parts = self.split(rel)
        dest = os.path.join(self.parent(parts, rel), parts[-1])
        # Never through a link (O_NOFOLLOW), never over a file another thread just made (O_EXCL).
        try:
            fd = self._create(dest, rel, lambda: os.open(
                dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                _file_mode(mode)))
            with os.fdopen(fd, "wb") as out:
                while True:
                    block = src.read(1 << 20)
                    if not block:
                        break
                    budget.take(len(block))
                    out.write(block)
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise CudaenvError(f"disk full while writing {dest}",
                                   hint="free some space or choose another --prefix") from None
            raise

    def symlink(self, rel: str, target: str) -> None:
        parts = self.split(rel)
        if not target or "\0" in target or len(target) > 4096:
            raise self.refuse(rel, "a link to no name")
        if target.startswith("/"):
            raise self.refuse(f"{rel} -> {target}", "an absolute link")
        phys = self.resolve([], parts[:-1], rel, True, [0])
        self.resolve(phys, target.split("/"), f"{rel} -> {target}", False, [0])
        dest = os.path.join(self.path(phys), parts[-1])
        self._create(dest, rel, lambda: os.symlink(target, dest))

    def hardlink(self, rel: str, source: str) -> None:
        parts, sparts = self.split(rel), self.split(source)
        src = os.path.join(self.path(self.resolve([], sparts[:-1], source, False, [0])), sparts[-1])
        try:
            st = os.lstat(src)
        except OSError:
            raise self.refuse(f"{rel} => {source}", "a hard link to nothing unpacked") from None
        if not stat.S_ISREG(st.st_mode) or not src.startswith(self.root + "/"):
            raise self.refuse(f"{rel} => {source}", "a hard link to what is not a file of the toolkit")
        dest = os.path.join(self.parent(parts, rel), parts[-1])
        self._create(dest, rel, lambda: os.link(src, dest, follow_symlinks=False))

    def check_links(self) -> None:
        """Every link in the tree resolves inside it (a later link may have changed where an earlier one leads)."""
        for dirpath, dirs, files in os.walk(self.root):
            phys = os.path.relpath(dirpath, self.root).split("/")
            phys = [] if phys == ["."] else phys
            for n in dirs + files:
                p = os.path.join(dirpath, n)
                if os.path.islink(p):
                    try:
                        target = os.readlink(p)
                    except FileNotFoundError:
                        # Another archive unpacked into the same tree is replacing this link (both bring it); that
                        # unpack checks the link it leaves, after writing it, so the link that stays is checked.
                        continue
                    rel = "/".join(phys + [n]) + " -> " + target
                    if target.startswith("/"):
                        raise self.refuse(rel, "an absolute link")
                    self.resolve(phys, target.split("/"), rel, False, [0])


def _file_mode(mode: int) -> int:
    """tarfile's ``data`` filter rule: no setuid/setgid/sticky, no group/other write, owner rw; x only if owner x."""
    mode &= 0o755
    if not mode & 0o100:
        mode &= ~0o111
    return mode | 0o600


def _keep(rel: str, how: How) -> bool:
    if any(p in _SKIP for p in rel.split("/")):
        return False
    return how == "all" or rel == "include" or rel.startswith("include/")


class _Reader:
    """The decompressed bytes of an archive, bounded (and xz with a memory limit)."""

    def __init__(self, f: IO[bytes], budget: _Budget, xz: bool) -> None:
        self.f, self.budget, self.lzma = f, budget, lzma
        self.dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=XZ_MEMLIMIT) if xz else None
        self.pending = b""
        self.limit = budget.max_bytes + 1024 * budget.max_files  # tar headers and padding beside the files
        self.total = 0
        self.eof = False

    def _more(self, n: int) -> bytes:
        if self.dec is None:
            return self.f.read(n)
        while True:
            if self.dec.eof:  # another xz stream may follow (after zero padding)
                rest = self.dec.unused_data + self.f.read(1 << 16)
                rest = rest.lstrip(b"\0")
                if not rest:
                    return b""
                self.dec = self.lzma.LZMADecompressor(format=self.lzma.FORMAT_XZ, memlimit=XZ_MEMLIMIT)
                data = rest
            elif self.dec.needs_input:
                data = self.f.read(1 << 16)
                if not data:
                    raise EOFError("the xz stream ends early")
            else:
                data = b""
            out = self.dec.decompress(data, max_length=n)
            if out:
                return out

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = 1 << 20
        chunks, have = [], 0
        while have < n and not self.eof:
            block = self._more(min(n - have, 1 << 20))
            if not block:
                self.eof = True
                break
            self.total += len(block)
            if self.total > self.limit:
                raise self.budget._bomb(f"more than {self.limit} bytes")
            chunks.append(block)
            have += len(block)
        return b"".join(chunks)


def _tarinfo_class() -> type[tarfile.TarInfo]:
    class Bounded(tarfile.TarInfo):
        """Refuses a pax or long-name header too large to read into memory, and GNU sparse files."""

        def _proc_member(self, tarfile_: tarfile.TarFile) -> tarfile.TarInfo:
            if self.type == tarfile.GNUTYPE_SPARSE:  # its map of extension blocks is read whole
                raise tarfile.HeaderError("a sparse file")
            if self.type in (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE,
                             tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE) and self.size > MAX_HEADER:
                raise tarfile.HeaderError(f"a {self.size}-byte extended header")
            return super()._proc_member(tarfile_)  # type: ignore[misc, no-any-return]  # tarfile's own step

    return Bounded


def _strip_top(name: str) -> str:
    """``<component>-…-archive/lib/x`` -> ``lib/x`` (absolute and ``..`` names are kept for refusal)."""
    if name.startswith("/") or ".." in name.split("/"):
        return name
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return "/".join(parts[1:])


def _reference_check(check: Callable[[tarfile.TarInfo, str], object], m: tarfile.TarInfo, tree: _Tree,
                     rel: str) -> None:
    """tarfile's ``data`` filter on a link member, as a second opinion on where it leads.

    The filter takes the real path of the member's own name: when another archive unpacked into the same tree
    is replacing that link (both bring ``lib/libfoo.so``), older Pythons' realpath (3.11.7 here) reads the link
    between its ``lstat`` and its ``readlink`` and raises FileNotFoundError; a cold CI run failed so. The link
    comes back at once (the other thread's unlink is followed by its symlink), so the check is asked again.
    """
    for attempt in range(_VANISHING_TRIES):
        try:
            check(m, tree.root)
            return
        except tarfile.FilterError as exc:
            raise tree.refuse(rel, str(exc).split(" (")[0]) from None
        except FileNotFoundError:
            if attempt == _VANISHING_TRIES - 1:
                raise


def _unpack_tar(path: str, root: str, how: How, what: str) -> int:
    check = getattr(tarfile, "data_filter", None)  # the reference rules (3.12+, 3.9-3.11 security releases)
    tree = _Tree(root, what)
    budget = _Budget(os.path.getsize(path), what)
    n = 0
    try:
        with open(path, "rb") as raw:
            xz = raw.read(6) == b"\xfd7zXZ\x00"
            raw.seek(0)
            src = _Reader(raw, budget, xz)
            mode: Literal["r|", "r|*"] = "r|" if xz else "r|*"
            # A stream ("r|") is only read: _Reader has no write, seek or tell, which tarfile's type asks for.
            with tarfile.open(fileobj=src, mode=mode, tarinfo=_tarinfo_class()) as tar:  # type: ignore[call-overload]
                for m in tar:
                    budget.entry()
                    tar.members = []  # streaming: do not keep every member's record
                    rel = _strip_top(m.name)
                    if not rel or not _keep(rel, how):
                        continue
                    if not (m.isdir() or m.issym() or m.islnk() or m.isreg()) or m.issparse():
                        raise tree.refuse(rel, "a device file, FIFO or sparse file")
                    link = _strip_top(m.linkname) if m.islnk() else m.linkname
                    if check is not None and (m.issym() or m.islnk()) and not link.startswith("/"):
                        _reference_check(check, m.replace(name=rel, linkname=link, deep=False), tree, rel)
                    if m.isdir():
                        tree.mkdir(rel)
                        continue
                    if m.issym():
                        tree.symlink(rel, m.linkname)
                    elif m.islnk():
                        tree.hardlink(rel, link)
                    else:
                        if m.size > budget.max_bytes - budget.bytes:
                            budget.take(m.size)
                        data = tar.extractfile(m)
                        if data is None:  # m.isreg(): never
                            raise tree.refuse(rel, "not a file")
                        tree.write(rel, data, m.mode, budget)
                    n += 1
    except (tarfile.TarError, EOFError, OSError, ValueError, lzma.LZMAError) as exc:
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            raise CudaenvError(f"disk full while unpacking {what}", hint="free some space") from None
        if isinstance(exc, MemoryError) or "memory" in str(exc).lower():
            raise CudaenvError(f"{what}: the archive asks for more memory than cudaenv allows ({exc})") from None
        raise CudaenvError(f"{what}: broken archive {path} ({exc})") from None
    return n


def _unpack_wheel(path: str, root: str, how: How, what: str, written: list[str]) -> int:
    tree = _Tree(root, what)
    budget = _Budget(os.path.getsize(path), what)
    n = 0
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            if len(infos) > budget.max_files:
                budget.files = len(infos) - 1
                budget.entry()
            budget.take(sum(i.file_size for i in infos))  # as declared; what is read is counted too
            budget.bytes = 0
            for info in infos:
                rel = wheel_rel(info.filename, how)
                if rel is None:
                    continue
                if info.is_dir():
                    tree.mkdir(rel)
                    continue
                with z.open(info) as src:
                    tree.write(rel, src, (info.external_attr >> 16) or 0o644, budget)
                written.append("/".join(tree.split(rel)))
                n += 1
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            raise CudaenvError(f"disk full while unpacking {what}", hint="free some space") from None
        raise CudaenvError(f"{what}: broken wheel {path} ({exc})") from None
    return n


def wheel_rel(name: str, how: How) -> str | None:
    """Where the wheel member ``name`` goes in the tree for ``how`` (None: not taken).

    ``nvidia/<pkg>/x`` -> ``x``; ``<dist>.dist-info/x`` -> ``dist-info/<dist>.dist-info/x``
    (not its directory entry). The result is a name, not yet a checked path: writing it
    goes through the tree's own checks.
    """
    parts = name.split("/")
    if parts[0].endswith(".dist-info"):
        return None if name.endswith("/") else "dist-info/" + name
    if parts[0] == "nvidia" and len(parts) > 2:
        rel = "/".join(parts[2:])
        return rel if rel and _keep(rel.rstrip("/"), how) else None
    return None


def unpack_files(files: list[tuple[str, str, int]], comp: PlanComponent, root: str,
                 links: list[tuple[str, str]] | tuple[()] = ()) -> int:
    """Write already-verified files into ``root``: ``(rel, path, mode)`` each (``rel`` as
    :func:`wheel_rel` gives it), then the symbolic links ``(rel, target)``; return how many
    entries were written. The same tree rules as an archive: nothing lands outside ``root``."""
    what = f"{comp['key']} {comp['version']}".strip()
    tree = _Tree(root, what)
    budget = _Budget(sum(os.path.getsize(p) for _r, p, _m in files), what)
    written: list[str] = []
    for rel, path, mode in files:
        budget.entry()
        with open(path, "rb") as src:
            tree.write(rel, src, mode or 0o644, budget)
        written.append("/".join(tree.split(rel)))
    for rel, target in links:
        budget.entry()
        tree.symlink(rel, target)
    if comp["kind"] == "wheel":
        _full_sonames(root, written, comp["version"])
    return len(written) + len(links)


def _full_sonames(root: str, files: list[str], version: str) -> None:
    """``lib/libX.so.13`` of a component at 13.5.37 -> the file ``libX.so.13.5.37`` and the link
    ``libX.so.13`` to it: NVIDIA's own chain (the wheels ship only the soname)."""
    major = version.split(".")[0]
    for rel in files:
        d, n = os.path.split(rel)
        if d == "lib" and n.endswith(".so." + major) and n.count(".so.") == 1 and version.count(".") >= 2:
            path = os.path.join(root, rel)
            full = n[: -len(major)] + version
            if not os.path.islink(path) and not os.path.lexists(os.path.join(root, d, full)):
                os.rename(path, os.path.join(root, d, full))
                os.symlink(full, path)


def unpack(path: str, comp: PlanComponent, root: str) -> int:
    """Unpack one component's file into ``root``; return how many files it wrote."""
    what = f"{comp['key']} {comp['version']}".strip()
    if comp["kind"] == "wheel":
        files: list[str] = []
        n = _unpack_wheel(path, root, comp["how"], what, files)
        _full_sonames(root, files, comp["version"])
        return n
    return _unpack_tar(path, root, comp["how"], what)


def unpacked_size(path: str, kind: str) -> int:
    """Bytes ``path`` takes unpacked: exact for a wheel, an estimate (3x) for .tar.xz."""
    if kind == "wheel":
        try:
            with zipfile.ZipFile(path) as z:
                return sum(i.file_size for i in z.infolist())
        except (zipfile.BadZipFile, OSError):
            return 0
    return 3 * os.path.getsize(path)


def _dir(root: str, *parts: str, make: bool = False) -> str | None:
    """``root/parts`` when every component is a real directory (made with ``make``); None when
    one is a link or a file: the layout step never follows a link, not even one inside the tree."""
    p = root
    for c in parts:
        p = os.path.join(p, c)
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            if not make:
                return None
            os.mkdir(p, 0o755)
            continue
        if not stat.S_ISDIR(st.st_mode):
            return None
    return p


def _file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _link(target: str, d: str | None, name: str) -> None:
    if d is not None and not os.path.lexists(os.path.join(d, name)):
        os.symlink(target, os.path.join(d, name))


def finish(root: str, env: Mapping[str, str], work: str) -> Made:
    """Give the unpacked tree NVIDIA's layout; return what was made.

    ``lib64`` (a link to ``lib``, as NVIDIA's packages have it), the
    ``targets/x86_64-linux`` links nvcc.profile reads, ``libX.so`` links for
    ``-lX``, libnvvm where nvcc looks for it, and a link-time
    ``lib64/stubs/libcuda.so`` generated from the tree's own cuda.h when no
    archive brought one (the 13.x wheels have none). Only real directories are
    entered or moved from; every link in the tree is then checked to resolve
    inside it. Without a C compiler there is no stub: ``made["stub_error"]`` says why.
    """
    made: Made = {"stub": None, "stub_error": None}
    cmake = _dir(root, "cccl", "lib", "cmake")
    if cmake is not None:  # the CUDA 13 cccl wheel keeps CMake packages under cccl/
        dest = _dir(root, "lib", "cmake", make=True)
        if dest is not None:
            for n in os.listdir(cmake):
                if not os.path.lexists(os.path.join(dest, n)):
                    os.rename(os.path.join(cmake, n), os.path.join(dest, n))
            shutil.rmtree(os.path.join(root, "cccl"))
    lib = _dir(root, "lib")
    if lib is not None:
        _link("lib", root, "lib64")
        names = sorted(os.listdir(lib))
        for n in names:
            # libcudart.so.13 (a file) -> libcudart.so, for -lcudart
            head, sep, tail = n.partition(".so.")
            if sep and tail.split(".")[0].isdigit() and not os.path.lexists(os.path.join(lib, head + ".so")):
                major = head + ".so." + tail.split(".")[0]
                _link(major if os.path.lexists(os.path.join(lib, major)) else n, lib, head + ".so")
        nvvms = [n for n in os.listdir(lib) if n.startswith("libnvvm.so.")]
        if nvvms and not os.path.lexists(os.path.join(root, "nvvm", "lib64")):
            d = _dir(root, "nvvm", "lib64", make=True)
            for n in nvvms + ["libnvvm.so"]:
                if os.path.lexists(os.path.join(lib, n)):
                    _link(os.path.join("..", "..", "lib", n), d, n)
    include = _dir(root, "include")
    if include is not None or lib is not None:
        tg = _dir(root, "targets", "x86_64-linux", make=True)
        if include is not None:
            _link(os.path.join("..", "..", "include"), tg, "include")
        if lib is not None:
            _link(os.path.join("..", "..", "lib"), tg, "lib")
    stubs = _dir(root, "lib", "stubs")
    if stubs is not None and os.path.lexists(os.path.join(stubs, "libcuda.so")):
        made["stub"] = {"path": "lib64/stubs/libcuda.so", "generated": False}
    elif include is not None and lib is not None and _file(os.path.join(include, "cuda.h")):
        try:
            stubs = _dir(root, "lib", "stubs", make=True)
            if stubs is None:
                raise StubError("lib/stubs is not a directory")
            info = generate(include, os.path.join(stubs, "libcuda.so"), env, work)
        except StubError as exc:
            made["stub_error"] = exc.message
        else:
            made["stub"] = {"path": "lib64/stubs/libcuda.so", "generated": True, "symbols": info["symbols"]}
    _Tree(root, "the installed tree").check_links()
    return made
