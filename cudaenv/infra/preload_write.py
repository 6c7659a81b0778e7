"""Writing the hot path's preload file (``infra/preload.py`` says what it is); loaded only to write it."""

from __future__ import annotations

import marshal
import os
import sys

from .preload import FORMAT, PKG, blob_path, source
from .private import write_private

__all__ = ["write"]


def _deps(module, names: set) -> set:
    """The bundle modules ``module``'s top level bound names from (what must run before it)."""
    out = set()
    for value in list(vars(module).values()):
        dep = value.__name__ if type(value) is type(sys) else getattr(value, "__module__", None)
        if isinstance(dep, str) and dep in names and dep != module.__name__:
            out.add(dep)
    parent = module.__name__.rpartition(".")[0]
    if parent in names:
        out.add(parent)
    return out


def _code(name: str, pkg: bool, st: os.stat_result):
    """The module's code: its ``.pyc`` when that matches the source, else compiled from the source."""
    import importlib.util

    path = source(name, pkg)
    try:
        with open(importlib.util.cache_from_source(path), "rb") as f:
            data = f.read()
        if (data[:4] == importlib.util.MAGIC_NUMBER and int.from_bytes(data[4:8], "little") == 0
                and int.from_bytes(data[8:12], "little") == (int(st.st_mtime) & 0xFFFFFFFF)
                and int.from_bytes(data[12:16], "little") == (st.st_size & 0xFFFFFFFF)):
            return marshal.loads(data[16:])
    except (OSError, ValueError, EOFError):
        pass
    with open(path, "rb") as f:
        return compile(f.read(), path, "exec", dont_inherit=True)


def write(kind: str, names: list[str]) -> None:
    """Write command ``kind``'s preload file with ``names`` (in dependency order); failures only cost speed."""
    try:
        wanted = set(names)
        order: list[str] = []
        seen: set = set()

        def visit(n: str) -> None:
            if n in seen:
                return
            seen.add(n)
            for d in sorted(_deps(sys.modules[n], wanted)):
                visit(d)
            order.append(n)

        for n in names:
            visit(n)
        mods = []
        for n in order:
            module = sys.modules[n]
            pkg = hasattr(module, "__path__")
            path = source(n, pkg)
            if os.path.abspath(module.__file__) != path:
                return  # not this installation's module (a second copy on sys.path): never mix them
            st = os.stat(path)
            mods.append((n, pkg, st.st_mtime_ns, st.st_size, _code(n, pkg, st)))
        data = marshal.dumps((FORMAT, sys.hexversion, sys.implementation.cache_tag, PKG, mods))
        # A private directory, a fresh O_EXCL|O_NOFOLLOW temporary name, then a rename.
        write_private(blob_path(kind), data)
    except (OSError, ValueError, SyntaxError):  # Untrusted too: its one note is printed
        pass
