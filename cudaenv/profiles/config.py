"""Reading one ``config.yaml`` (a site's or the user's): YAML, checked key by key.

Loaded only when a file changed since the index cached it (``context.py`` reads the layers and
their status on every command, this module on a cache miss), so ``use`` imports no YAML.
"""

from __future__ import annotations

import os

import yaml

from ..errors import CudaenvError
from ..infra.files import read_limited
from .files import validate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["KEYS", "LISTS", "PROFILE_KEYS", "parse"]

#: Every key a config may hold (each layer alike): where toolkits are, where ``install`` looks,
#: where ``modulefiles`` writes, and the settings of every profile no file governs (``profile``).
KEYS = ("roots", "sources", "modulefiles", "profile")
#: What ``profile:`` may set: the policies and build settings a profile file says (profiles/files.py).
PROFILE_KEYS = ("stubs", "loader_path", "host_compiler", "build")
#: The keys holding a list of strings (the others hold one string).
LISTS = ("roots", "sources")


def parse(path: str) -> tuple[dict[str, Any] | None, str | None]:
    """``(the keys ``path`` sets, None)`` or ``(None, one line)``."""
    try:
        data = yaml.safe_load(read_limited(path).decode("utf-8")) or {}
    except OSError as exc:
        return (None, f"cannot read {path}: {exc.strerror or exc.__class__.__name__}")
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as exc:
        return (None, f"invalid config {path}: not valid YAML ({exc.__class__.__name__})")
    if not isinstance(data, dict):
        return (None, f"invalid config {path}: expected a mapping")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        return (None, f"invalid config {path}: unknown key {str(unknown[0])!r} (known: {', '.join(KEYS)})")
    out: dict[str, Any] = {}
    for key in LISTS:
        if key not in data:
            continue
        value = data[key]
        if isinstance(value, str):
            value = [value]
        if key == "roots" and (not isinstance(value, list) or not all(isinstance(r, str) for r in value)):
            return (None, f"invalid config {path}: 'roots' must be a list of paths or globs")
        if key == "sources" and (not isinstance(value, list) or not all(isinstance(s, str) and s for s in value)):
            return (None, f"invalid config {path}: 'sources' must be a list of nvidia, pypi, directories or URLs")
        out[key] = value
    if "modulefiles" in data:
        d = data["modulefiles"]
        if not isinstance(d, str) or not os.path.isabs(d) or "\n" in d:
            return (None, f"invalid config {path}: 'modulefiles' must be an absolute directory")
        out["modulefiles"] = d
    if "profile" in data:
        value = data["profile"]
        if not isinstance(value, dict) or not all(k in PROFILE_KEYS for k in value):
            return (None, f"invalid config {path}: 'profile' must be a mapping of {', '.join(PROFILE_KEYS)}")
        try:
            # The rules of a profile file, on a profile holding just these settings.
            checked = validate({"name": "site", "root": "/", **value}, f"settings in {path}")
        except CudaenvError as exc:
            return (None, exc.message.replace("invalid profile settings in", "invalid config"))
        out["profile"] = {k: checked[k] for k in value}  # type: ignore[literal-required]
    return (out, None)


