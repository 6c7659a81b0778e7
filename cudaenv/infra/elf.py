"""Just enough ELF reading to check what a link produced.

A zero exit status from a compiler is not proof: ``verify`` also checks that a
binary needs the libraries it should (``libcudart.so.N`` for ``-cudart shared``,
``libcuda.so.1`` for ``-lcuda``), that a generated stub carries the soname
``libcuda.so.1``, and that device code was embedded (``.nv_fatbin``). Reading
the section headers is enough for all of that; no ``readelf`` needed.
"""

from __future__ import annotations

import os
import struct

__all__ = ["ElfInfo", "read_elf", "symbol_versions", "dynamic_symbols"]

_SHT_DYNAMIC = 6
_SHT_DYNSYM = 11
_SHT_GNU_VERDEF = 0x6FFFFFFD
_SHT_GNU_VERNEED = 0x6FFFFFFE
_DT_NEEDED = 1
_DT_SONAME = 14


class ElfInfo:
    """What :func:`read_elf` found.

    Attributes:
        sections: Section names in file order.
        needed: ``DT_NEEDED`` entries (shared libraries the file needs).
        soname: ``DT_SONAME``, or None.
    """

    __slots__ = ("sections", "needed", "soname")

    def __init__(self, sections: list[str], needed: list[str], soname: str | None) -> None:
        self.sections = sections
        self.needed = needed
        self.soname = soname


def _cstr(blob: bytes, off: int) -> str:
    end = blob.find(b"\0", off)
    return blob[off:end if end >= 0 else len(blob)].decode("utf-8", "replace")


def read_elf(path: str) -> ElfInfo:
    """Section names, needed libraries and soname of an ELF file (32 or 64 bit).

    Raises:
        ValueError: not an ELF file, or a malformed one.
        OSError: it cannot be read.
    """
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or len(data) < 52:
        raise ValueError(f"{path} is not an ELF file")
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    try:
        if is64:
            shoff, = struct.unpack_from(end + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
            shdr, dyn = end + "IIQQQQIIQQ", end + "qQ"
        else:
            shoff, = struct.unpack_from(end + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2E)
            shdr, dyn = end + "IIIIIIIIII", end + "iI"
        heads = [struct.unpack_from(shdr, data, shoff + i * shentsize) for i in range(shnum)]
        # (name, type, flags, addr, offset, size, link, info, align, entsize)
        strtab = heads[shstrndx] if shstrndx < len(heads) else None
        names = []
        for h in heads:
            names.append(_cstr(data, strtab[4] + h[0]) if strtab is not None else "")
        needed: list[str] = []
        soname = None
        for h in heads:
            if h[1] != _SHT_DYNAMIC:
                continue
            strs = heads[h[6]]
            blob = data[strs[4]:strs[4] + strs[5]]
            step = struct.calcsize(dyn)
            for off in range(h[4], h[4] + h[5], step):
                tag, val = struct.unpack_from(dyn, data, off)
                if tag == 0:
                    break
                if tag == _DT_NEEDED:
                    needed.append(_cstr(blob, val))
                elif tag == _DT_SONAME:
                    soname = _cstr(blob, val)
    except (struct.error, IndexError) as exc:
        raise ValueError(f"{path}: malformed ELF file ({exc})") from None
    return ElfInfo(names, needed, soname)


def _section_headers(f, path: str) -> tuple[bool, str, list[tuple]]:
    """(64-bit, struct byte order, section headers) of the ELF file open as ``f`` (no headers: ``[]``).

    Each header is (name, type, flags, addr, offset, size, link, info, align, entsize).

    Raises:
        ValueError: not an ELF file, or a malformed one.
    """
    head = f.read(64)
    if head[:4] != b"\x7fELF" or len(head) < 52:
        raise ValueError(f"{path} is not an ELF file")
    is64 = head[4] == 2
    end = "<" if head[5] == 1 else ">"
    try:
        if is64:
            shoff, = struct.unpack_from(end + "Q", head, 0x28)
            shentsize, shnum = struct.unpack_from(end + "HH", head, 0x3A)
            shdr = end + "IIQQQQIIQQ"
        else:
            shoff, = struct.unpack_from(end + "I", head, 0x20)
            shentsize, shnum = struct.unpack_from(end + "HH", head, 0x2E)
            shdr = end + "IIIIIIIIII"
        if not shoff or not shnum or shnum > 65535:
            return is64, end, []
        if shoff + shentsize * shnum > os.fstat(f.fileno()).st_size:
            raise ValueError(f"{path}: malformed ELF file (section headers past its end)")
        f.seek(shoff)
        table = f.read(shentsize * shnum)
        return is64, end, [struct.unpack_from(shdr, table, i * shentsize) for i in range(shnum)]
    except struct.error as exc:
        raise ValueError(f"{path}: malformed ELF file ({exc})") from None


def symbol_versions(path: str) -> tuple[dict[str, list[str]], list[str]]:
    """The symbol versions ``path`` needs (per library) and the ones it defines.

    Reads only the ELF header, the section headers and the two GNU version sections
    (``.gnu.version_r``, ``.gnu.version_d``), seeking to each name: cheap on a 1 GB
    ``libtorch_cuda.so``.

    Returns:
        ``({"libstdc++.so.6": ["GLIBCXX_3.4.29", ...], ...}, ["GLIBCXX_3.4", ...])``:
        what it needs from each library it names, and the versions it defines (a
        library such as ``libstdc++.so.6``; a program or plugin defines none).

    Raises:
        ValueError: not an ELF file, or a malformed one.
        OSError: it cannot be read.
    """
    with open(path, "rb") as f:
        _is64, end, heads = _section_headers(f, path)
        try:
            cache: dict[tuple[int, int], str] = {}

            def string(link: int, off: int) -> str:
                key = (link, off)
                if key not in cache:
                    f.seek(heads[link][4] + off)
                    chunk = f.read(256)
                    cache[key] = chunk.split(b"\0", 1)[0].decode("utf-8", "replace")
                return cache[key]

            needs: dict[str, list[str]] = {}
            defs: list[str] = []
            for h in heads:
                if h[1] not in (_SHT_GNU_VERNEED, _SHT_GNU_VERDEF) or h[5] > (16 << 20):
                    continue
                f.seek(h[4])
                blob = f.read(h[5])
                link, count = h[6], h[7]
                off = 0
                for _ in range(count):
                    if h[1] == _SHT_GNU_VERNEED:
                        _v, cnt, file_, aux, nxt = struct.unpack_from(end + "HHIII", blob, off)
                        names = needs.setdefault(string(link, file_), [])
                        a = off + aux
                        for _ in range(cnt):
                            _hash, _flags, _other, name, anext = struct.unpack_from(end + "IHHII", blob, a)
                            names.append(string(link, name))
                            if not anext:
                                break
                            a += anext
                    else:
                        _v, flags, _ndx, cnt, _hash, aux, nxt = struct.unpack_from(end + "HHHHIII", blob, off)
                        if cnt and not flags & 1:  # VER_FLG_BASE names the file itself
                            name, _anext = struct.unpack_from(end + "II", blob, off + aux)
                            defs.append(string(link, name))
                    if not nxt:
                        break
                    off += nxt
        except (struct.error, IndexError) as exc:
            raise ValueError(f"{path}: malformed ELF file ({exc})") from None
    return needs, defs


def dynamic_symbols(path: str, limit: int = 64 << 20) -> tuple[list[str], set[str], set[str]]:
    """The libraries ``path`` needs and the dynamic symbols it defines and leaves undefined.

    Reads only the section headers, ``.dynamic``, ``.dynsym`` and their string tables
    (seeking, like :func:`symbol_versions`): cheap on a large library.

    Returns:
        ``(DT_NEEDED names, global and weak symbols defined, symbols it needs from others)``.

    Raises:
        ValueError: not an ELF file, a malformed one, or tables over ``limit`` bytes.
        OSError: it cannot be read.
    """
    with open(path, "rb") as f:
        is64, end, heads = _section_headers(f, path)
        dyn, sym = (end + "qQ", end + "IBBHQQ") if is64 else (end + "iI", end + "IIIBBH")
        file_size = os.fstat(f.fileno()).st_size

        def read(off: int, size: int) -> bytes:
            if size > limit or size < 0 or not 0 <= off <= file_size - size:
                raise ValueError(f"{path}: malformed or too large ELF file (a {size}-byte section at {off})")
            f.seek(off)
            return f.read(size)

        try:
            needed: list[str] = []
            defined: set[str] = set()
            undefined: set[str] = set()
            for h in heads:
                if h[1] not in (_SHT_DYNAMIC, _SHT_DYNSYM) or not h[5]:
                    continue
                strs = heads[h[6]]
                names = read(strs[4], strs[5])
                blob = read(h[4], h[5])
                if h[1] == _SHT_DYNAMIC:
                    for off in range(0, len(blob) - struct.calcsize(dyn) + 1, struct.calcsize(dyn)):
                        tag, val = struct.unpack_from(dyn, blob, off)
                        if tag == 0:
                            break
                        if tag == _DT_NEEDED:
                            needed.append(_cstr(names, val))
                    continue
                step = struct.calcsize(sym)
                for off in range(step, len(blob) - step + 1, step):  # entry 0 is the null symbol
                    fields = struct.unpack_from(sym, blob, off)
                    name_off, info, shndx = fields[0], fields[1] if is64 else fields[3], fields[3] if is64 else fields[5]
                    if not name_off or (info >> 4) not in (1, 2):  # local symbols are no one else's business
                        continue
                    (undefined if shndx == 0 else defined).add(_cstr(names, name_off))
        except (struct.error, IndexError) as exc:
            raise ValueError(f"{path}: malformed ELF file ({exc})") from None
    return needed, defined, undefined
