"""``cudaenv profile build|list|show|path``: the editable per-toolkit profiles."""

from __future__ import annotations

import os

from ..context import Context, profiles_dir
from ..errors import CudaenvError
from ..infra import atomic
from ..infra.console import note, write_out
from ..infra.jsonout import dumps
from ..infra.private import MISSING, Untrusted, dir_problem, ensure_dir
from ..profiles.files import dump
from ..profiles.model import default_profile, generated_name, host_compiler, scan_toolkits, with_site_defaults
from ..profiles.resolve import resolve_target
from ..profiles.select import select_targets
from ..toolkit.stubgen import StubError, ensure_stub

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..profiles.model import Profile
    from ..toolkit.types import Toolkit

__all__ = ["build", "list_profiles", "show_profile", "profiles_path"]


def _generate_stub(ctx: Context, tk: Toolkit, out: list[str], warnings: list[str]) -> None:
    """A toolkit without lib64/stubs gets a generated libcuda.so, which `use` puts on LIBRARY_PATH.

    Its line goes to ``out`` (or a warning to ``warnings``): printed once every profile is written.
    """
    try:
        info = ensure_stub(ctx.cache_dir, tk, ctx.env)
    except StubError as exc:
        warnings.append(f"warning: CUDA {tk['full_version']} has no libcuda stub and generating one failed: "
                        f"{exc.message}")
        return
    if info["generated"]:
        out.append(f"stub     {info['path']} (for -lcuda: {info['symbols']} driver entry points from "
                   f"{tk['root']}'s cuda.h)\n")


def _number(name: str, base: str) -> int | None:
    """1 for ``base``, N for ``base-N`` (N >= 2, no leading zero), else None."""
    if name == base:
        return 1
    head, _, tail = name.rpartition("-")
    if head == base and tail.isdigit() and tail == str(int(tail)) and int(tail) >= 2:
        return int(tail)
    return None


def _existing_names(directory: str) -> set[str]:
    """The names of the profile files in ``directory``, valid or not (``x.yaml`` and ``x.yml`` are ``x``)."""
    try:
        files = os.listdir(directory)
    except OSError:
        return set()
    return {f.rsplit(".", 1)[0] for f in files if f.endswith((".yaml", ".yml")) and not f.startswith(".")}


def _refuse_shared(directory: str) -> None:
    """Raise when the profiles directory is another user's to change (a profile there sets PATH).

    Raises:
        CudaenvError: it is.
    """
    why = dir_problem(directory)
    if why not in (None, MISSING):
        raise CudaenvError(f"not writing profiles into {directory}: {why}, so another user could change them",
                           hint="chmod go-w it (and the directories above it)")


def _private_profiles(path: str) -> None:
    """Make the directory of profile file ``path`` 0700 (whatever the umask); refuse one another user can change.

    Raises:
        CudaenvError: it is another user's to change (a profile there sets PATH), or cannot be made.
    """
    directory = os.path.dirname(path)
    try:
        ensure_dir(directory)
    except Untrusted:
        _refuse_shared(directory)
        raise
    except OSError as exc:
        raise CudaenvError(f"cannot write {path}: {exc.strerror or exc}") from None


def build(targets: tuple[str, ...] | list[str], all_: bool, force: bool) -> int:
    """Write a profile file per toolkit chosen by :func:`~cudaenv.profiles.select.select_targets`.

    Each gets the toolkit's default profile, with the host compiler ``use``
    would choose recorded. Idempotent: a toolkit that already has a generated
    profile (its root, named ``cuda-<version>`` or ``cuda-<version>-<N>``)
    keeps that name and file (kept unless ``force``, rewritten with it);
    any other gets ``cuda-<version>`` if no profile file has that name and no
    toolkit took it earlier in this run, else the lowest free ``-2``, ``-3``...

    What it did is printed once every file is written: a profile that cannot be
    written is one error line with nothing on stdout (naming the profiles
    written before it, if any).

    Raises:
        CudaenvError: a profile file cannot be written.
    """
    ctx = Context()
    _refuse_shared(ctx.profiles_dir)  # before anything reads it (and notes it)
    profiles, _ = ctx.profile_files.load()
    # Names no new profile may take: every profile's name and every file's, even invalid ones.
    taken = {p["name"] for p in profiles} | _existing_names(ctx.profiles_dir)
    out: list[str] = []  # stdout lines, printed at the end
    warnings: list[str] = []
    written: list[str] = []
    chosen = _distinct_toolkits(ctx, targets, all_)
    taken |= _answered_by_others(ctx, chosen, profiles)
    for tk in chosen:
        prof = with_site_defaults(default_profile(tk), ctx.config().get("profile"))
        prof["name"], path = _name_and_file(tk, profiles, taken, ctx.profiles_dir)
        taken.add(prof["name"])
        if not tk["components"]["stubs"]:
            _generate_stub(ctx, tk, out, warnings)
        if os.path.exists(path) and not force:
            out.append(f"kept     {path} (exists; --force overwrites)\n")
            continue
        cxx, why = _write_profile(ctx, prof, tk, path, written)
        out.append(f"wrote    {path}" + (f"  (host compiler {cxx}: {why})" if cxx else "") + "\n")
        if why and not cxx:
            warnings.append(f"warning: {why}")
    ctx.save()
    for w in warnings:
        note(w)
    write_out("".join(out))
    return 0


def _answered_by_others(ctx: Context, chosen: list[Toolkit], profiles: list[Profile]) -> set[str]:
    """The generated names other toolkits answer to without a profile file (``cuda-13.5.0`` of a
    system toolkit): a second copy of that release must not take one, or the name (and every pin,
    hook and kernel that says it) would change meaning or become ambiguous."""
    mine = {os.path.realpath(t["root"]) for t in chosen}
    filed = {os.path.realpath(p["root"]) for p in profiles}
    return {generated_name(t) for t in scan_toolkits(ctx)[0]
            if os.path.realpath(t["root"]) not in mine and os.path.realpath(t["root"]) not in filed}


def _distinct_toolkits(ctx: Context, targets: tuple[str, ...] | list[str], all_: bool) -> list[Toolkit]:
    """The toolkits :func:`select_targets` chooses, each root once (the first of its aliases)."""
    seen: set[str] = set()
    out = []
    for _p, tk in select_targets(ctx, targets, all_, verb="build", notes=[]):
        root = os.path.realpath(tk["root"])
        if root not in seen:
            seen.add(root)
            out.append(tk)
    return out


def _name_and_file(tk: Toolkit, profiles: list[Profile], taken: set[str], directory: str) -> tuple[str, str]:
    """(name, file) of ``tk``'s generated profile: the one an earlier run wrote for its root (the
    lowest number wins), else ``cuda-<version>`` or the lowest ``-N`` not in ``taken``."""
    root = os.path.realpath(tk["root"])
    base = generated_name(tk)
    own = sorted(
        (_number(p["name"], base), p["name"], p["file"]) for p in profiles
        if _number(p["name"], base) is not None and os.path.realpath(p["root"]) == root
    )
    if own:
        return own[0][1], own[0][2]
    name, n = base, 2
    while name in taken:
        name = f"{base}-{n}"
        n += 1
    return name, os.path.join(directory, f"{name}.yaml")


def _write_profile(ctx: Context, prof: Profile, tk: Toolkit, path: str, written: list[str]) -> tuple:
    """Record the host compiler ``use`` would choose in ``prof`` and write it to ``path`` (added to
    ``written``); returns the compiler choice (path or None, why).

    Raises:
        CudaenvError: the file cannot be written (the message names the files ``written`` before it).
    """
    cxx, why = host_compiler(ctx, prof, tk)
    if cxx:
        # Record the choice so the user sees it and can change it.
        prof["host_compiler"] = cxx
    try:
        _private_profiles(path)
        atomic.write_atomic(path, dump(prof))
    except CudaenvError as exc:
        if written:  # still one line, but the user learns what did change
            exc.message += f" (written before it: {', '.join(written)})"
        raise
    written.append(path)
    return cxx, why


def list_profiles(as_json: bool) -> int:
    """``profile list``: the profile files (invalid ones reported on stderr)."""
    ctx = Context()
    profiles, bad = ctx.profile_files.load()
    ctx.save()
    for _path, err in bad:
        note(err)
    if as_json:
        write_out(dumps({
            "profiles": [{k: p.get(k) for k in ("name", "root", "version", "stubs", "file")} for p in profiles],
            "invalid": [{"file": f, "error": e} for f, e in bad],
        }) + "\n")
        return 0
    if not profiles:
        note(f"no profiles in {ctx.profiles_dir} (`cudaenv profile build --all` writes them)")
    write_out("".join(f"{p['name']}  {p['root']}  ({p['file']})\n" for p in profiles))
    return 0


def show_profile(target: str) -> int:
    """``profile show TARGET``: the YAML of the profile that governs it (the built-in default if none is written)."""
    ctx = Context()
    profile, _tk = resolve_target(ctx, target)
    ctx.save()
    write_out(dump(profile))
    return 0


def profiles_path() -> int:
    """``profile path``: the directory holding profile files."""
    write_out(profiles_dir() + "\n")
    return 0
