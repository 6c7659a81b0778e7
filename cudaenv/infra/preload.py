"""The hot path's modules loaded from one file: what ``use`` pays for being many modules.

``use``, ``off``, ``list`` and the shell hooks run in every pane and every
conda activation, and cost about as much as Python's own start. Half of what
cudaenv adds to that is the import system looking for each of its ~25 modules
(a finder, a spec, stats, a ``.pyc`` opened and checked), not running them.
So, like the interpreter's own frozen start-up modules, the fast forms load
the modules they used last time from one ``marshal`` file of code objects in
the cache (``$XDG_CACHE_HOME/cudaenv/preload-<command>.<cache tag>``), in
dependency order, each as a normal module (spec, loader, ``__file__``).

It is a cache, and never decides anything:

* it is used only when every module's source file still has the size and
  mtime recorded with it (a stat each, as the import system does), for the
  same Python (``sys.implementation.cache_tag`` and ``sys.hexversion``) and
  the same installed package directory; otherwise the import system runs as
  usual and :func:`record` writes it anew at the end of the command;
* a file not owned by the user, writable by group or others, in a directory
  another user can change (``infra/private.py``: one note), corrupt, of
  another shape or unreadable is ignored; an error while loading undoes every
  module it added, and the import system takes over;
* modules a command needs beyond the file (a GPU host needing the facts
  module, a first environment with NVIDIA wheels) are imported as usual and
  added at the next :func:`record`; a run that had to fill a cache (and so
  loaded modules a warm run never needs) records nothing;
* ``CUDAENV_NO_PRELOAD=1`` turns it off; only the console entry uses it
  (``main(argv)`` called in a process never does).

:func:`record` says, at the end of a fast command, whether the file must be
(re)written; ``infra/preload_write.py`` writes it (loaded only then).
"""

from __future__ import annotations

import os
import sys

from .private import cache_dir, read_private_marshal

__all__ = ["preload", "record", "blob_path", "source", "FORMAT", "PKG", "MAX_BYTES"]

FORMAT = 1
#: The largest preload file read (use's is about 200 KiB).
MAX_BYTES = 16 << 20
PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: What :func:`preload` did this process: the command, and the names the file held (None: not used).
_STATE: dict = {"kind": None, "names": None, "before": ()}


def blob_path(kind: str, env=None) -> str:
    """The preload file of command ``kind``, in cudaenv's cache directory (infra/private.py's rule)."""
    return os.path.join(cache_dir(env), f"preload-{kind}.{sys.implementation.cache_tag}")


def source(name: str, pkg: bool) -> str:
    rel = name.split(".")[1:]
    return os.path.join(PKG, *rel, "__init__.py") if pkg else os.path.join(PKG, *rel) + ".py"


def _read(kind: str) -> list | None:
    # read_private: a regular file of the user's own, never followed through a link, in a
    # directory only the user can change (else one note), never more than MAX_BYTES.
    data = read_private_marshal(blob_path(kind), MAX_BYTES)
    if not (type(data) is tuple and len(data) == 5 and data[:4] == (FORMAT, sys.hexversion,
                                                                    sys.implementation.cache_tag, PKG)):
        return None
    mods = data[4]
    # The right format in another shape (written by hand, by a bug) is ignored like a corrupt file.
    if type(mods) is not list or not all(_entry_ok(m) for m in mods):
        return None
    for name, pkg, mtime, size, _code in mods:
        try:
            st = os.stat(source(name, pkg))
        except OSError:
            return None
        if st.st_mtime_ns != mtime or st.st_size != size:
            return None
    return mods


_CODE = type(_read.__code__)


def _entry_ok(m: object) -> bool:
    return (type(m) is tuple and len(m) == 5 and type(m[0]) is str and m[0].startswith("cudaenv.")
            and "\0" not in m[0] and ".." not in m[0].split(".") and type(m[1]) is bool
            and type(m[2]) is int and type(m[3]) is int and type(m[4]) is _CODE)


def preload(kind: str) -> None:
    """Load the modules command ``kind`` used last time from its preload file, if it is valid."""
    if os.environ.get("CUDAENV_NO_PRELOAD"):
        return
    _STATE["kind"] = kind
    # Loaded already (the entry and what it needs to get here): never in the file.
    _STATE["before"] = frozenset(n for n in sys.modules if n == "cudaenv" or n.startswith("cudaenv."))
    mods = _read(kind)
    if mods is None:
        return
    import _frozen_importlib as bootstrap
    import _frozen_importlib_external as external

    added: list[str] = []
    try:
        for name, pkg, _mtime, _size, code in mods:
            if name in sys.modules:
                continue
            path = source(name, pkg)
            loader = external.SourceFileLoader(name, path)
            spec = bootstrap.ModuleSpec(name, loader, origin=path, is_package=pkg)
            spec.has_location = True
            module = type(sys)(name)
            module.__spec__ = spec
            module.__loader__ = loader
            module.__file__ = path
            module.__package__ = name if pkg else name.rpartition(".")[0]
            if pkg:
                module.__path__ = spec.submodule_search_locations = [os.path.dirname(path)]
            sys.modules[name] = module
            added.append(name)
            exec(code, module.__dict__)
            parent, _, child = name.rpartition(".")
            if parent in sys.modules:
                setattr(sys.modules[parent], child, module)
    except BaseException as exc:
        # Undo it all: the import system then loads each module afresh from its file.
        for name in reversed(added):
            sys.modules.pop(name, None)
            parent, _, child = name.rpartition(".")
            if getattr(sys.modules.get(parent), child, None) is not None:
                delattr(sys.modules[parent], child)
        if not isinstance(exc, Exception):
            raise
        return
    _STATE["names"] = {m[0] for m in mods}


def record(kind: str) -> list[str] | None:
    """The modules to write command ``kind``'s preload file with (``infra/preload_write.py``), or None.

    None when the file served this run and holds every module it used, when
    this run filled a cache, or when preloading is off.
    """
    if os.environ.get("CUDAENV_NO_PRELOAD") or _STATE["kind"] != kind:
        return None
    names = [n for n, m in list(sys.modules.items())
             if (n == "cudaenv" or n.startswith("cudaenv.")) and m is not None and getattr(m, "__file__", None)
             and n != "cudaenv.__main__" and n not in _STATE["before"]]
    if _STATE["names"] is not None and set(names) <= _STATE["names"]:
        return None
    index = sys.modules.get("cudaenv.infra.index")
    if index is not None and getattr(index.Index, "wrote", False):
        return None  # a run that filled caches loads modules warm runs never need: record a warm one
    return names
