"""Turn what the user typed into (profile, toolkit).

Order: profile name -> exact version -> version prefix (``12`` = newest 12.x,
``12.4`` = newest 12.4.x) -> a toolkit path. A tie is an error that lists
the candidates.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from .model import default_profile, generated_name
from ..toolkit import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

__all__ = ["resolve", "profile_for"]


def _is_version(text: str) -> bool:
    parts = text.split(".")
    return all(p.isdigit() for p in parts)


def profile_for(tk: dict, profiles: list[dict]) -> dict:
    """The profile that governs ``tk``: its generated one, another naming its root, or the default."""
    mine = [p for p in profiles if os.path.realpath(p["root"]) == tk["root"]]
    for p in mine:
        if p["name"] == generated_name(tk):
            return p
    return mine[0] if mine else default_profile(tk)


def _listing(toolkits: list[dict]) -> str:
    return ", ".join(f"{t['full_version']} ({t['root']})" for t in toolkits) or "none"


def resolve(
    target: str,
    toolkits: list[dict],
    profiles: list[dict],
    probe_path: Callable[[str], dict],
    bad_profiles: list[tuple[str, str]] = (),  # type: ignore[assignment]
) -> tuple[dict, dict]:
    """Resolve ``target``.

    Args:
        target: Profile name, version, version prefix or toolkit path.
        toolkits: Discovered toolkits.
        profiles: Valid profiles.
        probe_path: Probes a path that discovery did not list (raises CudaenvError).
        bad_profiles: Invalid profile files, reported if ``target`` names one.

    Raises:
        CudaenvError: nothing matches, or several toolkits tie.
    """
    if not target:
        raise CudaenvError("empty toolkit name", exit_code=2)
    if "/" in target:
        real = os.path.realpath(target)
        tk = next((t for t in toolkits if t["root"] == real), None) or probe_path(real)
        return profile_for(tk, profiles), tk
    named = [p for p in profiles if p["name"] == target]
    if named:
        prof = named[0]
        real = os.path.realpath(prof["root"])
        tk = next((t for t in toolkits if t["root"] == real), None)
        if tk is None:
            tk = probe_path(real)
        return prof, tk
    # A toolkit's generated profile name works before any file is written.
    by_default = [t for t in toolkits if generated_name(t) == target]
    if len(by_default) == 1:
        return profile_for(by_default[0], profiles), by_default[0]
    for path, err in bad_profiles:
        stem = os.path.basename(path).rsplit(".", 1)[0]
        if stem == target:
            raise CudaenvError(err, exit_code=2)
    if _is_version(target):
        exact = [t for t in toolkits if t["full_version"] == target]
        want = target.split(".")
        matches = exact or [t for t in toolkits if t["full_version"].split(".")[: len(want)] == want]
        if matches:
            best = max(version_key(t["full_version"]) for t in matches)
            top = [t for t in matches if version_key(t["full_version"]) == best]
            if len(top) > 1:
                raise CudaenvError(
                    f"{target!r} is ambiguous: {_listing(top)}",
                    hint="name a toolkit path or a profile instead",
                    exit_code=2,
                )
            return profile_for(top[0], profiles), top[0]
        raise CudaenvError(
            f"no CUDA toolkit matches {target!r}; installed: {_listing(toolkits)}",
            hint="`cudaenv list` shows what was found and what was skipped",
            exit_code=2,
        )
    known = ", ".join(p["name"] for p in profiles) or "none"
    raise CudaenvError(
        f"no profile named {target!r} (profiles: {known})",
        hint="`cudaenv list` shows toolkits; `cudaenv profile list` shows profiles",
        exit_code=2,
    )
