"""``cudaenv install X --with cudnn[=9.x],nccl[=2.y]``: the toolkit, then its cuDNN / NCCL add-ons in its profile.

The toolkit is installed as ``install`` does (nothing new when it is already
installed); then each add-on is resolved for the toolkit's CUDA major, unpacked
once under ``$XDG_DATA_HOME/cudaenv/addons`` (``install/addons.py``) and listed in
the profile ``use X`` takes (written first if the toolkit has none). stdout gets
the toolkit's root, as for ``install``; each add-on is named on stderr.
"""

from __future__ import annotations

import os

from ..context import Context
from ..errors import CudaenvError
from ..infra import atomic
from ..infra.console import note, report_error
from ..install import net
from ..install.addons import addons_dir, install_addon, installed_addon, parse_with, resolve_addon
from ..install.credentials import redact
from ..install.fetch import configure
from ..install.progress import Progress, human
from ..install.sources import default_sources
from ..profiles.files import dump, load_file
from ..profiles.resolve import resolve_target
from ..toolkit.addons import KINDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..profiles.types import AddonRef, Profile
    from ..toolkit.types import Toolkit

__all__ = ["install_with", "add_to_profile"]


def _say(message: str) -> None:
    note(redact(message))


def add_to_profile(path: str, refs: list[AddonRef]) -> Profile:
    """List ``refs`` in the profile file at ``path`` (an add-on of the same name is replaced); return it.

    Raises:
        CudaenvError: the file is no longer a valid profile, or cannot be written.
    """
    prof = load_file(path)
    have = [a for a in prof.get("addons") or [] if all(a["name"] != r["name"] for r in refs)]
    prof["addons"] = have + refs
    atomic.write_atomic(path, dump(prof))
    return prof


def _target(target: str) -> tuple[Profile, Toolkit]:
    """The profile ``use target`` takes, written first when the toolkit has only its built-in default."""
    from .profile import build

    prof, tk = resolve_target(Context(), target)
    if prof.get("file") is None:
        if build([tk["root"]], False, force=False) != 0:
            raise CudaenvError(f"could not write a profile for {tk['root']} to list the add-ons in")
        prof, tk = resolve_target(Context(), target)
        if prof.get("file") is None:
            raise CudaenvError(f"no profile file governs {target}; `cudaenv profile build {tk['root']}` writes one")
    return prof, tk


def install_with(version: str, with_: str, parts: str, prefix: str | None, sources: tuple[str, ...], verify: bool,
                 jobs: int, force: bool, quiet: bool) -> int:
    """``install version`` (without its verify), then the add-ons ``with_`` names; return the exit status.

    The add-ons are resolved first, for the CUDA major ``version`` names, so one no source offers
    fails before anything is installed. stdout gets what ``install`` prints only once every add-on is
    in the profile: on a failure it stays empty (the toolkit, if it was installed, stays, and the
    error line says where).
    """
    import contextlib
    import io

    from ..infra.console import write_out
    from ..verify.prep import Options
    from .install import download_cache, install
    from .verify import run_verify

    ctx = Context()
    try:
        specs = parse_with(with_)
        where = addons_dir(ctx.env)
        if any(c in where for c in ":\n\r"):  # the profile could not hold it, nor a path list
            raise CudaenvError(f"{where}: an add-on path cannot contain ':' or a newline",
                               hint="set XDG_DATA_HOME to a path without them", exit_code=2)
        want_major = version.strip().split(".")[0]
        configure(ctx.env)
        net.configure(ctx.env)
        srcs = list(sources) if sources else default_sources(ctx.config().get("sources"))
        comps = [(kind, resolve_addon(kind, want, want_major, srcs, ctx.env, _say)) for kind, want in specs] \
            if want_major.isdigit() and want_major.isascii() else []
    except CudaenvError as exc:
        exc.message = redact(exc.message)
        return report_error(exc)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = install(version, parts, prefix, sources, False, jobs, force, quiet)
    if rc != 0:
        write_out(out.getvalue())  # nothing, as a failed install prints nothing there
        return rc
    # The toolkit install answered with (its first stdout line): the add-ons go into that one's profile.
    first = out.getvalue().splitlines()[0] if out.getvalue() else ""
    root = first if first.startswith("/") and os.path.isdir(first) else (prefix or version)
    try:
        with contextlib.redirect_stdout(out):
            prof, tk = _target(root)
        root = tk["root"]
        major = tk["version"].split(".")[0]
        if major != want_major or not comps:
            raise CudaenvError(f"{version!r} resolved to CUDA {tk['version']} at {root}, not a CUDA {want_major} toolkit")
        cache = download_cache(ctx)
        refs: list[AddonRef] = []
        for kind, comp in comps:
            title = f"{KINDS[kind]['title']} {comp['version']}"
            there = installed_addon(ctx.env, kind, comp["version"], major)
            if there is not None:
                if not quiet:
                    _say(f"{title} for CUDA {major} is already installed at {there}")
            else:
                if not quiet:
                    _say(f"installing {title} for CUDA {major} ({human(comp['size'] or 0)}) from {comp['url']}")
                prog = Progress(comp["size"] or 0, quiet=quiet)
                try:
                    there, got, _already = install_addon(comp, kind, major, cache, ctx.env, prog)
                finally:
                    prog.close()
                if not quiet:
                    _say(f"installed {title} at {there} ({human(got)} downloaded)")
            refs.append({"name": kind, "version": comp["version"], "cuda": major, "root": there})
        path = prof.get("file") or ""
        add_to_profile(path, refs)
        if not quiet:
            _say(f"profile {prof['name']} ({path}) lists {', '.join(KINDS[r['name']]['title'] for r in refs)}: "
                 "`use` exposes their headers and libraries")
    except CudaenvError as exc:
        exc.message = redact(f"{exc.message} (the toolkit is installed at {root}; no add-on was listed in its profile)")
        return report_error(exc)
    except KeyboardInterrupt as exc:  # install's handlers: SIGINT, SIGTERM, SIGHUP alike (the staging is removed)
        note(f"interrupted: the toolkit is installed at {root}; no add-on was listed in its profile")
        return 128 + int(getattr(exc, "signum", 2))
    write_out(out.getvalue())
    if verify:
        return run_verify([tk["root"]], False, Options(), False, use_cache=False, quiet=quiet)
    return 0
