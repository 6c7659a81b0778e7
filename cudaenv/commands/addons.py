"""``cudaenv install X --with cudnn[=9.x],nccl[=2.y]``: the toolkit, then its cuDNN / NCCL add-ons in its profile.

The toolkit is installed as ``install`` does (nothing new when it is already
installed); then each add-on is resolved for the toolkit's CUDA major, unpacked
once under ``$XDG_DATA_HOME/cudaenv/addons`` (``install/addons.py``) and listed in
the profile ``use X`` takes (written first if the toolkit has none). stdout gets
the toolkit's root, as for ``install``; each add-on is named on stderr.
"""

from __future__ import annotations

from ..context import Context
from ..errors import CudaenvError
from ..infra import atomic
from ..infra.console import note, report_error
from ..install import net
from ..install.addons import install_addon, installed_addon, parse_with, resolve_addon
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
    """``install version`` (without its verify), then the add-ons ``with_`` names; return the exit status."""
    from ..verify.prep import Options
    from .install import download_cache, install
    from .verify import run_verify

    try:
        specs = parse_with(with_)
    except CudaenvError as exc:
        return report_error(exc)
    rc = install(version, parts, prefix, sources, False, jobs, force, quiet)
    if rc != 0:
        return rc
    ctx = Context()
    try:
        prof, tk = _target(prefix or version)
        major = tk["version"].split(".")[0]
        configure(ctx.env)
        net.configure(ctx.env)
        specs_src = list(sources) if sources else default_sources(ctx.config().get("sources"))
        cache = download_cache(ctx)
        refs: list[AddonRef] = []
        for kind, want in specs:
            comp = resolve_addon(kind, want, major, specs_src, ctx.env, _say)
            title = f"{KINDS[kind]['title']} {comp['version']}"
            root = installed_addon(ctx.env, kind, comp["version"], major)
            if root is not None:
                if not quiet:
                    _say(f"{title} for CUDA {major} is already installed at {root}")
            else:
                if not quiet:
                    _say(f"installing {title} for CUDA {major} ({human(comp['size'] or 0)}) from {comp['url']}")
                root, got, _already = install_addon(comp, kind, major, cache, ctx.env,
                                                    Progress(comp["size"] or 0, quiet=quiet))
                if not quiet:
                    _say(f"installed {title} at {root} ({human(got)} downloaded)")
            refs.append({"name": kind, "version": comp["version"], "cuda": major, "root": root})
        path = prof.get("file") or ""
        add_to_profile(path, refs)
        if not quiet:
            _say(f"profile {prof['name']} ({path}) lists {', '.join(KINDS[r['name']]['title'] for r in refs)}: "
                 "`use` exposes their headers and libraries")
    except CudaenvError as exc:
        exc.message = redact(exc.message)
        return report_error(exc)
    if verify:
        return run_verify([tk["root"]], False, Options(), False, use_cache=False, quiet=quiet)
    return 0
