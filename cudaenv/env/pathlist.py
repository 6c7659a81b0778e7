"""Path lists (``PATH``-like) and flag lists (``NVCC_PREPEND_FLAGS``-like).

An empty string is a list with no entries. Any other value is split on its
separator exactly, so ``join(split(v)) == v`` for every value, including ones
with empty entries the user put there: we never add an empty entry, and we
never rewrite the user's own.

Searching is another matter: :func:`entries` is the one splitter of a list
read to look things up (an empty entry is skipped, never the current
directory) and :func:`which` the one PATH lookup.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

__all__ = ["DEFAULT_PATH", "separator", "split", "join", "entries", "which", "check_entry", "dedupe"]

#: Where a shell whose PATH is not in the environment (``env -i bash``, cron, a container's
#: entrypoint) looks for commands: each shell has a compiled-in default of its own, all of them
#: hold these (tcsh's lacks /usr/local/bin), and so does every distribution's login PATH. ``use``
#: starts from it, a host compiler is looked for in it, and ``off`` leaves it to the shell.
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"

# Flag lists that nvcc splits on spaces; every other list variable is a path
# list separated by ':'.
_FLAG_LISTS = frozenset({"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"})


def separator(var: str) -> str:
    """Return the separator of list variable ``var``."""
    return " " if var in _FLAG_LISTS else ":"


def split(value: str, sep: str = ":") -> list[str]:
    """Split ``value`` into entries; ``''`` has none."""
    return value.split(sep) if value else []


def entries(value: str | None, sep: str = ":") -> list[str]:
    """The entries of ``value`` to search, in order: empty ones skipped (``None`` and ``''`` have none).

    An empty entry means the current directory to a shell or the loader;
    cudaenv never looks there (``cudaenv check`` warns about such entries).
    """
    return [e for e in value.split(sep) if e] if value else []


def which(name: str, path: str | None = None) -> str | None:
    """The executable ``name`` on the PATH value ``path``, else None: the one PATH lookup.

    The rule: ``path`` is searched in order, empty entries skipped (never the
    current directory); ``None`` (PATH unset) searches :data:`DEFAULT_PATH`, as
    a shell without PATH does, while ``''`` searches nothing. A hit is a regular
    file (symlinks followed) its user may execute. A ``name`` holding ``/`` is
    not searched: it is returned when it is such a file itself.
    """
    if "/" in name:
        return name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    for d in entries(DEFAULT_PATH if path is None else path):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def join(entries: list[str], sep: str = ":") -> str:
    """Join entries back into one value."""
    return sep.join(entries)


def check_entry(var: str, entry: str) -> None:
    """Refuse an entry that cannot be expressed in ``var``'s list.

    Raises:
        CudaenvError: the entry is empty, or holds the separator or a newline.
    """
    sep = separator(var)
    if not entry:
        raise CudaenvError(f"refusing an empty entry for {var} (it would mean the current directory)", exit_code=2)
    if sep in entry or "\n" in entry:
        what = "a space" if sep == " " else "':'"
        raise CudaenvError(
            f"cannot put {entry!r} in {var}: it contains {what} or a newline, which a {var} list cannot express",
            hint="move or symlink the toolkit to a path without such characters",
            exit_code=2,
        )


def dedupe(entries: list[str]) -> list[str]:
    """Drop repeated entries, keeping the first of each."""
    seen: set[str] = set()
    out = []
    for e in entries:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out
