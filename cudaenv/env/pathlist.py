"""Path lists (``PATH``-like) and flag lists (``NVCC_PREPEND_FLAGS``-like).

An empty string is a list with no entries. Any other value is split on its
separator exactly, so ``join(split(v)) == v`` for every value, including ones
with empty entries the user put there: we never add an empty entry, and we
never rewrite the user's own.
"""

from __future__ import annotations

from ..errors import CudaenvError

__all__ = ["DEFAULT_PATH", "separator", "split", "join", "check_entry", "dedupe"]

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
