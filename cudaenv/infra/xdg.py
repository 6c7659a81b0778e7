"""The XDG base-directory rule, once: where cudaenv's configuration and caches live.

A leaf (it imports nothing of cudaenv), so the start-up path of ``use`` (infra/preload.py), the explain tables' cache
(infra/kept.py) and the command context (context.py) share one rule instead of each writing its own. The XDG spec:
a variable that is unset, empty or not an absolute path is ignored, and the default under the home directory is used.
"""
from __future__ import annotations

import os

# the project's idiom (context.py): typing is for the type checker only, never imported on the start-up path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping, Optional

__all__ = ["xdg_dir", "cache_dir"]


def xdg_dir(var: str, fallback: str, env: Optional[Mapping[str, str]] = None) -> str:
    """``$var`` when it is an absolute path, else ``~/fallback`` (``XDG_CACHE_HOME``, ``.cache``)."""
    value = (os.environ if env is None else env).get(var, "")
    if value and os.path.isabs(value):
        return value
    return os.path.join(os.path.expanduser("~"), fallback)


def cache_dir(env: Optional[Mapping[str, str]] = None) -> str:
    """``$XDG_CACHE_HOME/cudaenv`` (default ``~/.cache/cudaenv``)."""
    return os.path.join(xdg_dir("XDG_CACHE_HOME", ".cache", env), "cudaenv")
