"""Values worked out once and kept for the next run in the user's cache directory (marshal), each under a key made
of what it came from (file sizes and times, the Python version, the rules that shaped it).

Parsing a data table (``compat.yaml``, ``components.yaml``) or the translations of toolchain messages costs more than
the rest of a short ``explain`` together; a kept copy is read in a millisecond and needs no YAML import. A kept value
is read only from a private file (:func:`cudaenv.infra.private.read_private_marshal`: the user's own, never a link,
a FIFO or another user's file), and a value that does not fit its key or its type is worked out again.
"""

from __future__ import annotations

import os

from .private import cache_dir

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: explain's start does without it
    from typing import Any, Callable

__all__ = ["cache_dir", "kept_path", "kept", "keep", "file_key", "load_yaml", "worked_out"]

#: The largest cache file read back (the knowledge base's is about 0.2 MB).
MAX_KEPT = 16 << 20




def kept_path(name: str) -> str:
    """Where the value ``name`` (``explain-kb``, ``compat``) of this installed cudaenv is kept: the file name holds a
    tag of the package's directory, so two installs (a conda base and a project's venv) that take turns on one
    machine keep a copy each instead of replacing each other's on every run."""
    import zlib

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(cache_dir(), f"{name}.{zlib.crc32(package.encode('utf-8', 'surrogateescape')):08x}.marshal")


def kept(dest: str, key: tuple, kind: type) -> Any:
    """The value kept at ``dest`` under ``key`` (of type ``kind``), or None."""
    from .private import read_private_marshal

    data = read_private_marshal(dest, MAX_KEPT)
    if isinstance(data, tuple) and len(data) == 2 and data[0] == key and isinstance(data[1], kind):
        return data[1]
    return None


def keep(dest: str, key: tuple, value: Any) -> None:
    """Write ``value`` under ``key`` to the private cache file ``dest`` (best effort: a cache that cannot be written,
    or a value marshal cannot hold, is skipped)."""
    import marshal

    from .private import write_private

    try:
        write_private(dest, marshal.dumps((key, value)))
    except (OSError, ValueError):
        return
    _drop_untagged(dest)


def file_key(*paths: str) -> tuple | None:
    """What the files ``paths`` are now (absolute path, size, modification time), and the Python version the value is
    marshalled by; None when one cannot be read (nothing is kept then)."""
    import sys

    out = []
    for p in paths:
        try:
            st = os.stat(p)
        except (OSError, TypeError):
            return None
        out.append((os.path.abspath(p), st.st_size, st.st_mtime_ns))
    return (tuple(out), tuple(sys.version_info[:2]))


def worked_out(name: str, key: tuple | None, kind: type, work: Callable[[], Any]) -> Any:
    """The value kept as ``name`` (:func:`kept_path`) under ``key``; else ``work()``, kept for the next run (a None
    key: worked out and not kept)."""
    if key is None:
        return work()
    dest = kept_path(name)
    value = kept(dest, key, kind)
    if value is None:
        value = work()
        keep(dest, key, value)
    return value


def _drop_untagged(dest: str) -> None:
    """Remove the copy that cudaenv before its per-install tags (:func:`kept_path`) kept beside ``dest`` under the plain
    name (``explain-kb.marshal``, about 0.2 MB, read by no release since): only a regular file of this user's own,
    never through a link (:func:`cudaenv.infra.private.own_file`, the caches' own rule); best effort."""
    from .private import own_file

    name, _, rest = os.path.basename(dest).partition(".")
    if rest.count(".") != 1:  # not NAME.TAG.marshal
        return
    old = os.path.join(os.path.dirname(dest), f"{name}.marshal")
    if os.path.lexists(old) and own_file(old):
        try:
            os.unlink(old)
        except OSError:
            pass


def load_yaml(path: str, name: str) -> Any:
    """The YAML mapping at ``path`` (a data table), parsed once and kept as ``name`` (:func:`kept_path`), so that a
    command that needs the table does not import YAML. The same safe loading (libyaml's where PyYAML has it).

    Raises:
        OSError: the file cannot be read.
    """

    def parse() -> Any:
        import yaml

        with open(path, encoding="utf-8") as f:
            return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))

    return worked_out(name, file_key(path), dict, parse)
