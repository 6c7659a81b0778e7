"""Shells and the other outputs of a plan, found through one registry.

Each shell family is one object (:class:`~cudaenv.shells.base.Shell`) in one
module, holding all cudaenv knows about it: quoting, rendering a plan, the
``eval`` hint, the rc-file line and ``init`` code with its ``--auto`` hook,
the completion answer format and the conda hook template. bash, zsh, sh,
dash, ksh -> ``posix``; tcsh, csh -> ``csh``; ``fish``. The formats that are
not shells (``json``; ``github`` and ``dotenv`` in ``outputs/``) are
:class:`~cudaenv.shells.base.Output` objects in the same registry.

To add a shell: write ``shells/<family>.py`` with a ``Shell`` subclass and
``SHELL = <it>()`` (copy the closest family), add its line to
:data:`REGISTRY` below, ship ``cudaenv/shell/cudaenv.<name>`` if ``cudaenv
init`` should support it, and add a row to the real-shell table in
``tests/test_shells_real.py``.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .base import Output, Shell

__all__ = ["FAMILIES", "SHELLS", "FORMATS", "INIT_SHELLS", "family_of", "get", "shell", "detect"]

#: family -> (module, relative import level, its --shell names, the shells `cudaenv init` writes for).
#: One line per family: adding a shell adds a line here. Kept as data so that naming or
#: detecting a shell imports none of the modules; :func:`get` imports the one it needs.
REGISTRY = {
    "posix": ("posix", 1, ("bash", "zsh", "sh", "dash", "ksh", "mksh", "ash", "yash", "busybox", "posix"),
              ("bash", "zsh")),
    "fish": ("fish", 1, ("fish",), ("fish",)),
    "csh": ("csh", 1, ("tcsh", "csh"), ("tcsh",)),
    "json": ("json_", 1, ("json",), ()),
    "github": ("outputs.github", 2, (), ()),
    "dotenv": ("outputs.dotenv", 2, (), ()),
}
#: What --shell accepts: name -> family (json included: it is the shell-less shell).
FAMILIES = {n: fam for fam, (_m, _l, names, _i) in REGISTRY.items() for n in names}
#: Shell names proper.
SHELLS = {n: fam for n, fam in FAMILIES.items() if fam != "json"}
#: Outputs that are not shells (``--format``).
FORMATS = ("json", "github", "dotenv")
#: The shells `cudaenv init` writes for.
INIT_SHELLS = tuple(n for (_m, _l, _n, init) in REGISTRY.values() for n in init)


def _module(family: str):
    mod, level, _names, _init = REGISTRY[family]
    return __import__(mod, globals(), None, ["SHELL"], level)


def family_of(name: str) -> str:
    """Map a ``--shell`` name to its family.

    Raises:
        CudaenvError: the shell is not one cudaenv can write code for.
    """
    fam = FAMILIES.get(name)
    if fam is None:
        known = ", ".join(sorted(k for k in FAMILIES if k != "posix"))
        raise CudaenvError(f"unknown shell {name!r}; known: {known}", exit_code=2)
    return fam


def get(name: str) -> Output:
    """The output for a ``--shell`` name, a family, or a format (``json``, ``github``, ``dotenv``).

    Raises:
        CudaenvError: an unknown name.
    """
    fam = name if name in FORMATS else family_of(name)
    return _module(fam).SHELL


def shell(name: str) -> Shell:
    """The :class:`Shell` for a shell name (not a format).

    Raises:
        CudaenvError: not a shell.
    """
    fam = SHELLS.get(name)
    if fam is None:
        raise CudaenvError(f"{name!r} is not a shell", exit_code=2)
    return _module(fam).SHELL


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return ""


def detect(env: Mapping[str, str], ppid: int | None = None) -> str:
    """Guess the shell that will evaluate our output.

    Order: ``CUDAENV_SHELL`` (set by ``cudaenv init`` functions), the parent
    process, then ``$SHELL``, then ``sh``.
    """
    forced = env.get("CUDAENV_SHELL", "")
    if forced in FAMILIES:
        return forced
    name = _comm(os.getppid() if ppid is None else ppid).lstrip("-")
    if name in FAMILIES:
        return name
    name = os.path.basename(env.get("SHELL", ""))
    return name if name in FAMILIES else "sh"
