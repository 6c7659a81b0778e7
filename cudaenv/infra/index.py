"""A precompiled cache of probed toolkits, parsed profiles and config.

Like Lmod's spider cache: ``use`` runs in every pane, so it must not parse
YAML or JSON or run nvcc when nothing changed. Entries are keyed by a stat
fingerprint and re-read when it changes. Stored with ``marshal`` (builtin,
no imports); a missing, corrupt or unwritable cache only costs speed, and so
does one that is not a regular file or is too large (a FIFO or ``/dev/zero``
in its place is read as "no cache" and replaced by the next save). It is read
and written only in a directory that is the user's own (``infra/private.py``:
another user's index would choose the toolkits put on PATH), and a file of the
right format but another shape is ignored like a corrupt one: tables must be
maps of 2-tuples, and callers pass ``valid`` for the values they rely on.
"""

from __future__ import annotations

import marshal

from .private import read_private_marshal, write_private

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    from typing_extensions import TypeGuard

    T = TypeVar("T")

__all__ = ["Index", "MAX_BYTES", "valid_result"]

_FORMAT = 4
#: The largest index read (a big one holds a few hundred toolkits and profiles in well under 1 MiB).
MAX_BYTES = 64 << 20


def _well_formed(data: object) -> TypeGuard[dict[str, Any]]:
    """An index of this format: a dict of tables, each a dict of ``key: (sig, value, ...)``."""
    if not (isinstance(data, dict) and data.get("format") == _FORMAT):
        return False
    for name, table in data.items():
        if name == "format":
            continue
        if not (isinstance(name, str) and isinstance(table, dict)):
            return False
        for ent in table.values():
            if type(ent) is not tuple or len(ent) < 2:
                return False
    return True


def valid_result(ent: object, valid_value: Callable[[Any], bool]) -> bool:
    """A cached ``(value or None, message)``: None with a message string, or a value ``valid_value`` accepts."""
    if type(ent) is not tuple or len(ent) != 2:
        return False
    return isinstance(ent[1], str) if ent[0] is None else bool(valid_value(ent[0]))


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
        self.data: dict[str, Any] = {}
        if path:
            data = read_private_marshal(path, MAX_BYTES)
            if _well_formed(data):
                self.data = data
        self.data.setdefault("format", _FORMAT)
        self.data.setdefault("roots", {})
        self.data.setdefault("files", {})

    def cached(self, table: str, key: str, sig: object, compute: Callable[[], T],
               valid: Callable[[Any], bool] | None = None) -> T:
        """Return the cached value for ``key`` if ``sig`` matches, else compute it.

        ``compute()`` returns a marshal-able value; it is stored with ``sig``.
        ``valid(value)`` says whether a stored value has the shape the caller
        relies on (a file of this format written otherwise is recomputed, never a traceback).
        """
        tab = self.data[table]
        ent = tab.get(key)
        if ent is not None and ent[0] == sig and (valid is None or valid(ent[1])):
            return ent[1]
        value = compute()
        tab[key] = (sig, value)
        self.dirty = True
        return value

    def save(self) -> None:
        """Write the cache if anything changed; failures are ignored."""
        if not self.dirty or not self.path:
            return
        try:
            write_private(self.path, marshal.dumps(self.data))
        except (OSError, ValueError):  # Untrusted too: its one note is printed
            return
        self.dirty = False
        Index.wrote = True
