"""Which toolkit a command means: what the user typed, the pin, or the one default.

:func:`find_pin` finds the nearest ``.cuda-version`` (first word that is not
a ``#`` comment); :func:`target_from_pin` is what ``use`` does without a name.

:func:`resolve` turns a word into (profile, toolkit). Order: profile name ->
exact version -> version prefix (``12`` = newest 12.x, ``12.4`` = newest
12.4.x) -> a toolkit path (or a Python environment / site-packages path: its
wheel toolkit). Equal versions prefer an installed toolkit to wheel toolkits,
then the active environment's wheel toolkit to other environments'; any
other tie is an error that lists the candidates.

:func:`resolve_target` adds the one rule for invalid profile files: a file
that would have governed the result (it is named after the target, or after
the profile the target resolves to) is an error; any other is noted and
ignored.

Which toolkit a command acts on when none is named is ``select.py``'s rule.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..toolkit import rank_key, release_label, version_key
from ..toolkit.discover import ACTIVE_FOUND_BY, wheel_roots
from .model import default_profile, generated_name, scan_toolkits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

    from ..context import Context
    from ..toolkit.types import Toolkit
    from .model import Profile

__all__ = ["find_pin", "target_from_pin", "resolve", "profile_for", "resolve_target"]


def find_pin(cwd: str) -> tuple[str, str] | None:
    """Find the nearest ``.cuda-version`` walking up from ``cwd``.

    Returns:
        (file path, the first word in it that is not in a ``#`` comment), or None.
        Words end at any whitespace, a non-breaking space included: ``11.8
        trailing words`` names ``11.8``.

    Raises:
        CudaenvError: the nearest file is unreadable, not UTF-8 text, or names nothing.
    """
    d = os.path.abspath(cwd)
    while True:
        path = os.path.join(d, ".cuda-version")
        if os.path.isfile(path):
            try:
                with open(path, "rb") as f:
                    data = f.read(65536)  # a pin is one line; a huge file (or a device) is not read whole
            except OSError as exc:
                raise CudaenvError(f"cannot read {path}: {exc.strerror}") from None
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise CudaenvError(f"{path} is not UTF-8 text", hint="write the version in it, e.g. 12.4",
                                   exit_code=2) from None
            for line in text.splitlines():
                words = line.split("#", 1)[0].split()
                if words:
                    return path, words[0]
            raise CudaenvError(f"{path} names no version or profile", exit_code=2)
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def target_from_pin(ctx: Context, target: str | None) -> tuple[str, str | None]:
    """What ``use`` switches to: the argument, else the word in the nearest ``.cuda-version``.

    Returns:
        (target, pin file or None).

    Raises:
        CudaenvError: no argument and no pin file here or above.
    """
    if target is not None:  # an empty word is a bad name (resolve says so), not "none given"
        return target, None
    pin = find_pin(ctx.cwd)
    if pin is None:
        raise CudaenvError(
            "name a profile, version or toolkit path (no .cuda-version found here or above)",
            hint="`cudaenv list` shows what is installed",
            exit_code=2,
        )
    return pin[1], pin[0]


def _is_version(text: str) -> bool:
    parts = text.split(".")
    return all(p.isdigit() for p in parts)


def profile_for(tk: Toolkit, profiles: list[Profile]) -> Profile:
    """The profile that governs ``tk``: its generated one, another naming its root, or the default."""
    mine = [p for p in profiles if os.path.realpath(p["root"]) == tk["root"]]
    for p in mine:
        if p["name"] == generated_name(tk):
            return p
    return mine[0] if mine else default_profile(tk)


def _prefer(top: list[Toolkit]) -> list[Toolkit]:
    """Break a tie of equal versions: installed toolkits, then the active environment's wheel toolkits.

    A version means the same with or without a virtualenv active, so an
    installed toolkit wins over wheel toolkits of the same version (name a
    wheel toolkit by its profile name, its environment's path or its own).
    Among wheel toolkits only, the active environment's wins. What is left
    tied is an error for the caller.
    """
    if len(top) < 2:
        return top
    installed = [t for t in top if not t["origin"]]
    if installed:
        return installed
    active = [t for t in top if ACTIVE_FOUND_BY.intersection(t["found_by"])]
    return active or top


def _numbered(tk: Toolkit, profiles: list[Profile]) -> bool:
    """Whether ``tk``'s profile is a numbered copy of its generated name (``cuda-13.5.0-2``): a second
    toolkit of a release that another one already answered for when its profile was written."""
    base = generated_name(tk)
    name = profile_for(tk, profiles)["name"]
    head, _, n = name.rpartition("-")
    return head == base and n.isdigit()


def _same_release(top: list[Toolkit], profiles: list[Profile]) -> list[Toolkit]:
    """Break a tie between toolkits of one release so that an existing name keeps its meaning.

    After :func:`_prefer`: a toolkit whose profile is a numbered copy (``cuda-13.5.0-2``, written
    for a second copy of a release) leaves a version to the one that had it first; then a
    toolkit whose release label is known (``version.json``) wins over one known only by
    nvcc's number.
    """
    top = _prefer(top)
    if len(top) > 1:
        top = [t for t in top if not _numbered(t, profiles)] or top
    if len(top) > 1:
        top = [t for t in top if release_label(t["full_version"], t["version_source"], t["nvcc_version"])] or top
    return top


def _listing(toolkits: list[Toolkit]) -> str:
    return ", ".join(f"{t['full_version']} ({t['root']})" for t in toolkits) or "none"


def resolve(
    target: str,
    toolkits: list[Toolkit],
    profiles: list[Profile],
    probe_path: Callable[[str], Toolkit],
) -> tuple[Profile, Toolkit]:
    """Resolve ``target``.

    Args:
        target: Profile name, version, version prefix or toolkit path.
        toolkits: Discovered toolkits.
        profiles: Valid profiles.
        probe_path: Probes a path that discovery did not list (raises CudaenvError).

    Raises:
        CudaenvError: nothing matches, or several toolkits tie.
    """
    if not target:
        raise CudaenvError("empty toolkit name", exit_code=2)
    if "/" in target:
        real = os.path.realpath(target)
        # A Python environment or site-packages directory names its wheel toolkit.
        inside = wheel_roots(real)
        if inside and len(inside) > 1:
            raise CudaenvError(f"{target!r} holds several wheel toolkits: {', '.join(inside)}",
                               hint="name one of them", exit_code=2)
        if inside:
            real = os.path.realpath(inside[0])
        elif not os.path.exists(os.path.join(real, "bin", "nvcc")) and any(
                os.path.exists(os.path.join(real, m)) for m in ("pyvenv.cfg", "conda-meta", "nvidia")):
            raise CudaenvError(
                f"{target} is a Python environment without a wheel toolkit (no site-packages/nvidia/cu*/bin/nvcc)",
                hint='pip install "cuda-toolkit[nvcc,cudart,cccl,crt,nvvm]" there gives it one (CUDA 13 and later)',
                exit_code=2)
        tk = next((t for t in toolkits if t["root"] == real), None) or probe_path(real)
        return profile_for(tk, profiles), tk
    named = [p for p in profiles if p["name"] == target]
    if named:
        prof = named[0]
        real = os.path.realpath(prof["root"])
        tk = next((t for t in toolkits if t["root"] == real), None) or probe_path(real)
        return prof, tk
    # A toolkit's generated profile name works before any file is written.
    by_default = [t for t in toolkits if generated_name(t) == target]
    if len(by_default) > 1:  # a second copy whose profile took a numbered name leaves the name to the first
        by_default = [t for t in by_default if not _numbered(t, profiles)] or by_default
    if len(by_default) == 1:
        return profile_for(by_default[0], profiles), by_default[0]
    if len(by_default) > 1:  # two environments with the same label and toolkit version
        raise CudaenvError(f"{target!r} is ambiguous: {_listing(by_default)}",
                           hint="name a toolkit path or a profile instead", exit_code=2)
    if _is_version(target):
        exact = [t for t in toolkits if t["full_version"] == target]
        want = target.split(".")
        matches = exact or [t for t in toolkits if t["full_version"].split(".")[: len(want)] == want]
        if matches:
            key = rank_key(matches)  # like with like: release labels vs nvcc's numbers
            best = max(key(t) for t in matches)
            top = _same_release([t for t in matches if key(t) == best], profiles)
            if len(top) > 1:
                raise CudaenvError(
                    f"{target!r} is ambiguous: {_listing(top)}",
                    hint="name a toolkit path or a profile instead",
                    exit_code=2,
                )
            return profile_for(top[0], profiles), top[0]
        raise CudaenvError(
            f"no CUDA toolkit matches {_shown(target)}; installed: {_listing(toolkits)}",
            hint=_did_you_mean(target, toolkits, listed=True)
            or "`cudaenv list` shows what was found and what was skipped",
            exit_code=2,
        )
    known = ", ".join(p["name"] for p in profiles) or "none"
    raise CudaenvError(
        f"no profile named {_shown(target)} (profiles: {known})",
        hint=_did_you_mean(target, toolkits) or "`cudaenv list` shows toolkits; `cudaenv profile list` shows profiles",
        exit_code=2,
    )


def _shown(target: str) -> str:
    """``target`` quoted for an error line: control characters escaped, long input cut."""
    return repr(target) if len(target) <= 80 else repr(target[:77]) + "..."


def as_version(text: str) -> str | None:
    """The CUDA version a common spelling means (cu124, cuda-12.4, v12.4, CUDA_12.4, 12,4, 12_4), or None.

    Only ever used to suggest, never to pick: the cold error branch calls it.
    """
    t = text.strip().lower()
    for prefix in ("cuda", "cu", "v"):
        if t.startswith(prefix):
            t = t[len(prefix):]
            break
    t = t.lstrip("-_ ").replace("_", ".").replace(",", ".").replace("-", ".")
    if t.isdigit() and len(t) == 3:  # a torch tag: cu124 -> 12.4, cu118 -> 11.8, cu130 -> 13.0
        t = f"{t[:2]}.{t[2]}"
    if not t or len(t) > 20 or not _is_version(t):
        return None
    return t


def _did_you_mean(target: str, toolkits: list[Toolkit], listed: bool = False) -> str | None:
    """A hint naming the installed version ``target`` probably means, or the command that installs it (with the
    nearest installed ones, unless the message ``listed`` them already)."""
    want = as_version(target)
    if want is None:
        return None
    installed = sorted({t["full_version"] for t in toolkits}, key=version_key)

    def fits(v: str) -> bool:
        return any(f == v or f.startswith(v + ".") for f in installed)

    # 12.4.0 when only 12.4.1 exists: a patch level is a precise request, so suggest 12.4, never pick it.
    cands = [w for w in (want, want[:-2] if want.endswith(".0") and want.count(".") >= 2 else None)
             if w and w != target and fits(w)]
    if cands:
        return f'did you mean {cands[0]}? eval "$(cudaenv use {cands[0]})"'
    # NVIDIA's redistributable manifests (what `cudaenv install` reads) begin with CUDA 11.4.1 (redistrib_11.4.1.json)
    older = version_key(want) < version_key("11.4")
    get = (f"CUDA {want} predates the archives `cudaenv install` reads: NVIDIA's CUDA Toolkit Archive has its runfile"
           if older else f"`cudaenv install {want}` installs it")
    if not installed or listed:
        return f"no CUDA {want} is installed; {get}"
    major = want.split(".")[0]
    near = [v for v in installed if v.split(".")[0] == major] or installed
    return f"no CUDA {want} is installed (installed: {', '.join(near)}); {get}"


def _bad_file(bad: list[tuple[str, str]], name: str) -> str | None:
    """The error of the invalid profile file named after ``name``, if there is one."""
    for path, err in bad:
        if os.path.basename(path).rsplit(".", 1)[0] == name:
            return err
    return None


def resolve_target(ctx: Context, target: str, notes: list[str] | None = None) -> tuple[Profile, Toolkit]:
    """(profile, toolkit) for ``target``, with the one rule for invalid profile files.

    An invalid profile file is an error when it would have governed the
    result: its file is named after the target, or after the profile the
    target resolves to (and that profile came from elsewhere). Any other
    invalid file is mentioned in ``notes`` and ignored.

    Raises:
        CudaenvError: nothing matches, a tie, or a governing file is invalid.
    """
    profiles, bad = ctx.profile_files.load()
    toolkits, _ = scan_toolkits(ctx)
    valid_named = any(p["name"] == target for p in profiles)
    if target == "torch" and not valid_named:  # `use --match-torch`, a `.cuda-version` saying torch
        from .torchmatch import match_torch

        tk = match_torch(ctx, notes)
        return profile_for(tk, ctx.profile_files.load()[0]), tk
    err = None if valid_named else _bad_file(bad, target)
    if err is None:
        profile, tk = resolve(target, toolkits, profiles, ctx.discovery.probe_path)
        err = _bad_file([(p, e) for p, e in bad if p != profile.get("file")], profile["name"])
    if err is not None:
        raise CudaenvError(err, hint="fix the file or delete it", exit_code=2)
    if notes is not None:
        notes.extend(f"ignoring {e}" for _p, e in bad)
    return profile, tk
