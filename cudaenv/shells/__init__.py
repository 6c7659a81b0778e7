"""Shells: one small module per family, found through this registry.

Each module offers ``quote(value) -> str`` and ``render(plan) -> str``.
bash, zsh, sh, dash, ksh -> posix; tcsh, csh -> csh; fish; json.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Mapping

__all__ = ["FAMILIES", "family_of", "renderer", "detect"]

FAMILIES = {
    "bash": "posix", "zsh": "posix", "sh": "posix", "dash": "posix", "ksh": "posix",
    "mksh": "posix", "ash": "posix", "yash": "posix", "busybox": "posix", "posix": "posix",
    "fish": "fish",
    "tcsh": "csh", "csh": "csh",
    "json": "json",
}


def family_of(shell: str) -> str:
    """Map a shell name to its family.

    Raises:
        CudaenvError: the shell is not one cudaenv can write code for.
    """
    fam = FAMILIES.get(shell)
    if fam is None:
        known = ", ".join(sorted(k for k in FAMILIES if k != "posix"))
        raise CudaenvError(f"unknown shell {shell!r}; known: {known}", exit_code=2)
    return fam


def renderer(shell: str) -> ModuleType:
    """Return the renderer module for ``shell``."""
    fam = family_of(shell)
    if fam == "posix":
        from . import posix as mod
    elif fam == "fish":
        from . import fish as mod
    elif fam == "csh":
        from . import csh as mod
    else:
        from . import json_ as mod
    return mod


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
