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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DEFAULT_PATH", "separator", "split", "join", "entries", "which", "check_entry", "dedupe",
           "is_flag_list", "units", "dangling", "ccbin_unit", "CCBIN_OPTIONS"]

#: Where a shell whose PATH is not in the environment (``env -i bash``, cron, a container's
#: entrypoint) looks for commands: each shell has a compiled-in default of its own, all of them
#: hold these (tcsh's lacks /usr/local/bin), and so does every distribution's login PATH. ``use``
#: starts from it, a host compiler is looked for in it, and ``off`` leaves it to the shell.
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"

# Flag lists that nvcc splits on spaces; every other list variable is a path
# list separated by ':'.
_FLAG_LISTS = frozenset({"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"})


#: nvcc's options whose value is the next word (``--option value``; ``--option=value`` and ``-Ivalue``
#: are one word). Read from ``nvcc --help`` of CUDA 11.8, 12.4 and 13.5: every option shown with a
#: ``<value>`` or a ``{choice}``.
_VALUE_OPTIONS = frozenset("""
    -apply-controls --apply-controls -Xarchive --archive-options -arbin --archiver-binary
    -ccbin --compiler-bindir -Xcompiler --compiler-options -D --define-macro
    -ddp --dependency-drive-prefix -MT --dependency-target-name -diag-error --diag-error
    -diag-suppress --diag-suppress -diag-warn --diag-warn -dopt --dopt -dp --drive-prefix
    -fdevice-sanitize --fdevice-sanitize -fdevice-time-trace --fdevice-time-trace
    -fdevice-time-trace-granularity --fdevice-time-trace-granularity -fmax-errors --fmax-errors
    -frandom-seed --frandom-seed -ftemplate-backtrace-limit --ftemplate-backtrace-limit
    -ftemplate-depth --ftemplate-depth -gencode --generate-code -arch --gpu-architecture
    -code --gpu-code -I --include-path -idp --input-drive-prefix -jtd --jump-table-density
    -keep-dir --keep-dir -ldir --libdevice-directory -l --library -L --library-path
    -Xlinker --linker-options -maxrregcount --maxrregcount -Xnvlink --nvlink-options
    -Xnvprune --nvprune-options -opt-info --optimization-info -O --optimize -optf --options-file
    -odir --output-directory -o --output-file -include --pre-include -Xptxas --ptxas-options
    -run-args --run-args -split-compile --split-compile -split-compile-extended
    --split-compile-extended -isystem --system-include -target-dir --target-directory
    -t --threads -tile-preview --tile-preview -Xtileiras --tileiras-options -time --time
    -U --undefine-macro -brief-diag --brief-diagnostics -cudadevrt --cudadevrt -cudart --cudart
    -default-stream --default-stream -device-entity-has-hidden-visibility
    --device-entity-has-hidden-visibility -device-stack-protector --device-stack-protector
    -fmad --fmad -ftz --ftz -hls --host-linker-script -m --machine -prec-div --prec-div
    -prec-sqrt --prec-sqrt -rdc --relocatable-device-code -static-global-template-stub
    --static-global-template-stub -std --std -stdlib --stdlib -dQ --version-ident -x --x
""".split())

#: The spellings of nvcc's host compiler option; nvcc takes one.
CCBIN_OPTIONS = ("-ccbin", "--compiler-bindir")


def is_flag_list(var: str) -> bool:
    """Whether ``var`` is a flag list (words nvcc splits on spaces), not a path list."""
    return var in _FLAG_LISTS


def units(words: list[str]) -> list[tuple[str, ...]]:
    """A flag list's words grouped as nvcc reads them: an option and its value are one unit.

    ``-ccbin X``, ``--compiler-bindir X``, ``-Xcompiler X`` (any option of nvcc's that takes
    a value, given as the next word) are two-word units; ``-ccbin=X``, ``-Ifoo`` and plain
    flags are one-word units. An option at the end with no value left is a unit alone
    (see :func:`dangling`). ``sum(units(w), ()) == tuple(w)`` for every list.
    """
    out: list[tuple[str, ...]] = []
    i, n = 0, len(words)
    while i < n:
        if words[i] in _VALUE_OPTIONS and i + 1 < n:
            out.append((words[i], words[i + 1]))
            i += 2
        else:
            out.append((words[i],))
            i += 1
    return out


def dangling(words: list[str]) -> str | None:
    """The option at the end of ``words`` that is missing its value, if any."""
    u = units(words)
    return u[-1][0] if u and len(u[-1]) == 1 and u[-1][0] in _VALUE_OPTIONS else None


def ccbin_unit(unit: tuple[str, ...]) -> bool:
    """Whether ``unit`` chooses nvcc's host compiler (``-ccbin X``, ``--compiler-bindir=X``, ...)."""
    w = unit[0]
    return (w in CCBIN_OPTIONS and len(unit) == 2) or w.startswith(("-ccbin=", "--compiler-bindir="))


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


def dedupe(entries: list[Any]) -> list[Any]:
    """Drop repeated entries, keeping the first of each."""
    seen: set[Any] = set()
    out = []
    for e in entries:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out
