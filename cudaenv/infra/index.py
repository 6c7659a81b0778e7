"""A precompiled cache of probed toolkits, parsed profiles and config.

Like Lmod's spider cache: ``use`` runs in every pane, so it must not parse
YAML or JSON or run nvcc when nothing changed. Entries are keyed by a stat
fingerprint and re-read when it changes. Stored with ``marshal`` (builtin,
no imports); a missing, corrupt or unwritable cache only costs speed, and so
does one that is not a regular file or is too large (a FIFO or ``/dev/zero``
in its place is read as "no cache" and replaced by the next save).
"""

from __future__ import annotations

import marshal
import os

from .files import read_limited

__all__ = ["Index", "MAX_BYTES"]

_FORMAT = 4
#: The largest index read (a big one holds a few hundred toolkits and profiles in well under 1 MiB).
MAX_BYTES = 64 << 20


class Index:
    """The cache file and its in-memory contents.

    Args:
        path: File to read and (atomically) write; None keeps it in memory.
    """

    #: Set once any index was written in this process (infra/preload.py records only warm runs).
    wrote = False

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.dirty = False
        self.data: dict = {}
        if path:
            try:
                # loads(read()) is ~10x faster than load(f), which reads in small pieces.
                data = marshal.loads(read_limited(path, MAX_BYTES, whole=True))
                if isinstance(data, dict) and data.get("format") == _FORMAT:
                    self.data = data
            except (OSError, EOFError, ValueError, TypeError):
                pass
        self.data.setdefault("format", _FORMAT)
        self.data.setdefault("roots", {})
        self.data.setdefault("files", {})

    def cached(self, table: str, key: str, sig: object, compute):
        """Return the cached value for ``key`` if ``sig`` matches, else compute it.

        ``compute()`` returns a marshal-able value; it is stored with ``sig``.
        """
        tab = self.data[table]
        ent = tab.get(key)
        if ent is not None and ent[0] == sig:
            return ent[1]
        value = compute()
        tab[key] = (sig, value)
        self.dirty = True
        return value

    def save(self) -> None:
        """Write the cache if anything changed; failures are ignored."""
        if not self.dirty or not self.path:
            return
        tmp = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(marshal.dumps(self.data))
            os.replace(tmp, self.path)
            self.dirty = False
            Index.wrote = True
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
