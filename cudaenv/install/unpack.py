"""Archives and wheels into one toolkit tree, then NVIDIA's layout around it.

A redist archive holds ``<component>-linux-x86_64-<version>-archive/{bin,include,lib,…}``:
the top directory is stripped. A wheel holds ``nvidia/<pkg>/{bin,include,lib,…}``
(``cu13`` for CUDA 13, ``cuda_nvcc``… for 12.x): ``nvidia/<pkg>/`` is stripped and
its ``*.dist-info`` goes to ``dist-info/``. Nothing may land outside the tree:
absolute names, ``..`` and links that leave the tree are refused.
"""

from __future__ import annotations

import errno
import os

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

__all__ = ["unpack", "finish", "unpacked_size"]

_SKIP = ("__init__.py", "__pycache__")


def _safe(root: str, rel: str, what: str) -> str:
    if not rel or rel.startswith("/") or ".." in rel.split("/"):
        raise CudaenvError(f"{what}: refusing the entry {rel!r} (outside the toolkit)")
    return os.path.join(root, rel)


def _write(path: str, src, mode: int) -> None:
    try:
        if os.path.lexists(path):
            os.unlink(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode & 0o777 or 0o644)
        with os.fdopen(fd, "wb") as out:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                out.write(block)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise CudaenvError(f"disk full while writing {path}", hint="free some space or choose another --prefix") \
                from None
        raise CudaenvError(f"cannot write {path}: {exc.strerror}") from None


def _keep(rel: str, how: str) -> bool:
    if any(p in _SKIP for p in rel.split("/")):
        return False
    return how == "all" or rel == "include" or rel.startswith("include/")


def _unpack_tar(path: str, root: str, how: str, what: str) -> int:
    import tarfile

    n = 0
    try:
        with tarfile.open(path, "r|*") as tar:
            for m in tar:
                rel = m.name.lstrip("./").split("/", 1)[1] if "/" in m.name.lstrip("./") else ""
                rel = rel.rstrip("/")
                if not rel or not _keep(rel, how):
                    continue
                dest = _safe(root, rel, what)
                if m.isdir():
                    os.makedirs(dest, exist_ok=True)
                    continue
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                if m.issym():
                    target = os.path.normpath(os.path.join(os.path.dirname(rel), m.linkname))
                    if m.linkname.startswith("/") or target.startswith(".."):
                        raise CudaenvError(f"{what}: refusing the link {rel} -> {m.linkname} (outside the toolkit)")
                    if os.path.lexists(dest):
                        os.unlink(dest)
                    os.symlink(m.linkname, dest)
                elif m.islnk():
                    lrel = m.linkname.lstrip("./").split("/", 1)[-1]
                    src = _safe(root, lrel, what)
                    if os.path.lexists(dest):
                        os.unlink(dest)
                    os.link(src, dest)
                elif m.isfile():
                    f = tar.extractfile(m)
                    _write(dest, f, m.mode)
                n += 1
    except (tarfile.TarError, EOFError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            raise CudaenvError(f"disk full while unpacking {what}", hint="free some space") from None
        raise CudaenvError(f"{what}: broken archive {path} ({exc})") from None
    return n


def _unpack_wheel(path: str, root: str, how: str, what: str, written: list[str]) -> int:
    import zipfile

    n = 0
    try:
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                name = info.filename
                parts = name.split("/")
                if parts[0].endswith(".dist-info"):
                    rel = "dist-info/" + name
                    if info.is_dir():
                        continue
                elif parts[0] == "nvidia" and len(parts) > 2:
                    rel = "/".join(parts[2:])
                    if not rel or not _keep(rel.rstrip("/"), how):
                        continue
                else:
                    continue
                dest = _safe(root, rel.rstrip("/"), what)
                if info.is_dir():
                    os.makedirs(dest, exist_ok=True)
                    continue
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                mode = (info.external_attr >> 16) & 0o777
                with z.open(info) as src:
                    _write(dest, src, mode or 0o644)
                written.append(rel)
                n += 1
    except (zipfile.BadZipFile, OSError) as exc:
        raise CudaenvError(f"{what}: broken wheel {path} ({exc})") from None
    return n


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


def unpack(path: str, comp: dict, root: str) -> int:
    """Unpack one component's file into ``root``; return how many files it wrote."""
    what = f"{comp['key']} {comp.get('version', '')}".strip()
    if comp["kind"] == "wheel":
        files: list[str] = []
        n = _unpack_wheel(path, root, comp.get("how", "all"), what, files)
        _full_sonames(root, files, comp.get("version", ""))
        return n
    return _unpack_tar(path, root, comp.get("how", "all"), what)


def unpacked_size(path: str, kind: str) -> int:
    """Bytes ``path`` takes unpacked: exact for a wheel, an estimate (3x) for .tar.xz."""
    if kind == "wheel":
        import zipfile

        try:
            with zipfile.ZipFile(path) as z:
                return sum(i.file_size for i in z.infolist())
        except (zipfile.BadZipFile, OSError):
            return 0
    return 3 * os.path.getsize(path)


def _link(target: str, path: str) -> None:
    if not os.path.lexists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(target, path)


def finish(root: str, env: Mapping[str, str], work: str) -> dict:
    """Give the unpacked tree NVIDIA's layout; return what was made.

    ``lib64`` (a link to ``lib``, as NVIDIA's packages have it), the
    ``targets/x86_64-linux`` links nvcc.profile reads, ``libX.so`` links for
    ``-lX``, libnvvm where nvcc looks for it, and a link-time
    ``lib64/stubs/libcuda.so`` generated from the tree's own cuda.h when no
    archive brought one (the 13.x wheels have none).
    """
    made: dict = {}
    lib = os.path.join(root, "lib")
    cmake = os.path.join(root, "cccl", "lib", "cmake")
    if os.path.isdir(cmake):  # the CUDA 13 cccl wheel keeps CMake packages under cccl/
        os.makedirs(os.path.join(lib, "cmake"), exist_ok=True)
        for n in os.listdir(cmake):
            if not os.path.lexists(os.path.join(lib, "cmake", n)):
                os.rename(os.path.join(cmake, n), os.path.join(lib, "cmake", n))
        import shutil

        shutil.rmtree(os.path.join(root, "cccl"))
    if os.path.isdir(lib):
        _link("lib", os.path.join(root, "lib64"))
        for n in sorted(os.listdir(lib)):
            # libcudart.so.13 (a file) -> libcudart.so, for -lcudart
            head, sep, tail = n.partition(".so.")
            if sep and tail.split(".")[0].isdigit() and not os.path.lexists(os.path.join(lib, head + ".so")):
                major = head + ".so." + tail.split(".")[0]
                _link(major if os.path.lexists(os.path.join(lib, major)) else n, os.path.join(lib, head + ".so"))
        nvvms = [n for n in os.listdir(lib) if n.startswith("libnvvm.so.")]
        if nvvms and not os.path.isdir(os.path.join(root, "nvvm", "lib64")):
            for n in nvvms + ["libnvvm.so"]:
                if os.path.lexists(os.path.join(lib, n)):
                    _link(os.path.join("..", "..", "lib", n), os.path.join(root, "nvvm", "lib64", n))
    if os.path.isdir(os.path.join(root, "include")) or os.path.isdir(lib):
        tg = os.path.join(root, "targets", "x86_64-linux")
        if os.path.isdir(os.path.join(root, "include")):
            _link(os.path.join("..", "..", "include"), os.path.join(tg, "include"))
        if os.path.isdir(lib):
            _link(os.path.join("..", "..", "lib"), os.path.join(tg, "lib"))
    stub = os.path.join(lib, "stubs", "libcuda.so")
    if os.path.isfile(os.path.join(root, "include", "cuda.h")) and not os.path.exists(stub) \
            and os.path.isdir(lib):
        from ..toolkit.stubgen import generate

        info = generate(os.path.join(root, "include"), stub, env, work)
        made["stub"] = {"path": "lib64/stubs/libcuda.so", "generated": True, "symbols": info["symbols"]}
    elif os.path.exists(stub):
        made["stub"] = {"path": "lib64/stubs/libcuda.so", "generated": False}
    return made
