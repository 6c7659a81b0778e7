"""cuDNN and NCCL from NVIDIA's wheels, unpacked as add-ons beside the toolkits (``install X --with``).

An add-on is the wheel ``nvidia-cudnn-cu<major>`` / ``nvidia-nccl-cu<major>`` of
the toolkit's CUDA major, found on the indexes pip is configured with (``pypi``)
or in a directory of wheels (``--source DIR``), and unpacked with the
toolkit's own safety (``fetch``: sha256-checked, bounded; ``unpack``: every path
inside the tree, bomb limits; ``finish``: ``libX.so`` links, ``lib64``) into
``$XDG_DATA_HOME/cudaenv/addons/<kind>-<version>-cu<major>``: one copy however
many toolkits of that major list it. Like a toolkit, it is unpacked into a hidden
staging directory under a lock and renamed into place only when complete, so a
half-unpacked add-on is never seen. NVIDIA's redist archives of cuDNN/NCCL are
not read here (yet): a redist source is skipped for add-ons.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil

from ..errors import CudaenvError
from ..toolkit.addons import KINDS, project_of, read_addon
from ..toolkit.discover import installed_dir
from . import wheels
from .fetch import Unreachable, fetch_file, is_local, local_path
from .net import add_credentials
from .sources import match_version
from .store import private_install_dir
from .unpack import finish, unpack

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Mapping

    from .progress import Progress
    from .types import Indexes, PlanComponent

__all__ = ["parse_with", "addons_dir", "addon_root", "resolve_addon", "install_addon", "installed_addon"]

_STAGING = ".staging-"
_MAX_SPECS = 8


def parse_with(text: str) -> list[tuple[str, str]]:
    """``cudnn,nccl=2.30`` -> ``[("cudnn", ""), ("nccl", "2.30")]`` (a version is a prefix: ``9`` is the newest 9.x).

    Raises:
        CudaenvError: an unknown add-on, a version that is not numbers and dots, or one named twice.
    """
    out: list[tuple[str, str]] = []
    items = [s.strip() for s in text.split(",")]
    if not text.strip() or len(items) > _MAX_SPECS:
        raise CudaenvError(f"--with {text!r}: expected add-ons like cudnn,nccl=2.30", exit_code=2)
    for item in items:
        name, sep, version = item.partition("=")
        name, version = name.strip().lower(), version.strip().lstrip("=")
        if name not in KINDS:
            raise CudaenvError(f"--with: unknown add-on {name!r} (known: {', '.join(KINDS)})", exit_code=2)
        if sep and not (version and len(version) <= 40 and all(p.isdigit() and p.isascii() for p in version.split("."))):
            raise CudaenvError(f"--with {item!r}: the version must be numbers and dots, e.g. {name}=9.24",
                               exit_code=2)
        if any(n == name for n, _v in out):
            raise CudaenvError(f"--with names {name} twice", exit_code=2)
        out.append((name, version))
    return out


def addons_dir(env: Mapping[str, str]) -> str:
    """Where add-ons go: ``$XDG_DATA_HOME/cudaenv/addons`` (beside ``toolkits``)."""
    return os.path.join(os.path.dirname(installed_dir(env)), "addons")


def addon_root(env: Mapping[str, str], kind: str, version: str, cuda_major: str) -> str:
    """``<addons>/cudnn-9.24.0.43-cu13``."""
    return os.path.join(addons_dir(env), f"{kind}-{version}-cu{cuda_major}")


def _wheel_indexes(spec: str, env: Mapping[str, str]) -> Indexes | None:
    """The indexes a source gives wheels from: pip's for ``pypi``, a directory of wheels; None otherwise."""
    if spec == "pypi":
        indexes = wheels.wheel_env(env)
        for netloc, cred in indexes["auth"].items():  # taken out of the URLs by pipconf
            add_credentials(netloc, cred)
        return indexes
    if is_local(spec):
        path = os.path.abspath(os.path.expanduser(local_path(spec)))
        try:
            names = os.listdir(path)
        except OSError:
            return None
        if any(n.endswith(".whl") for n in names):
            return {"index": [], "find_links": [path], "auth": {}}
    return None


def _sha256_of(path: str) -> str:
    """A local wheel listed without a sha256 (a directory of wheels) is hashed where it lies."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                return h.hexdigest()
            h.update(block)


def resolve_addon(kind: str, want: str, cuda_major: str, sources: list[str], env: Mapping[str, str],
                  say: Callable[[str], None]) -> PlanComponent:
    """The newest wheel of ``kind`` for CUDA ``cuda_major`` matching ``want`` (a version prefix; "" any).

    Raises:
        CudaenvError: no wheel source among ``sources``, or none offers a match (one line naming each).
    """
    project = project_of(kind, cuda_major)
    tried: list[str] = []
    for spec in sources:
        indexes = _wheel_indexes(spec, env)
        if indexes is None:
            tried.append(f"{spec}: not a source of wheels")
            continue
        notes: list[str] = []
        try:
            files = wheels.project_files(project, indexes, notes)
        except Unreachable as exc:
            tried.append(f"{spec}: unreachable ({exc.message})")
            continue
        for n in notes:
            say(n)
        best = match_version(want, [f["version"] for f in files]) if want else \
            max((f["version"] for f in files), key=wheels.pep440_key, default=None)
        if best is None:
            tried.append(f"{spec}: no {project}{' ' + want if want else ''}")
            continue
        f = max((f for f in files if f["version"] == best), key=lambda f: f["filename"])
        size = f["size"]
        if size is None and is_local(f["url"]):
            try:
                size = os.path.getsize(local_path(f["url"]))
            except OSError:
                size = None
        # Only local files come without a sha256 (wheels.project_files drops remote ones): "" here,
        # hashed where it lies when it is unpacked (install_addon), not when the add-on is already there.
        return {"key": project, "name": project, "version": f["version"], "url": f["url"], "sha256": f["sha256"] or "",
                "size": size, "filename": f["filename"], "kind": "wheel", "how": "all"}
    raise CudaenvError(f"no source offers {project}{' ' + want if want else ''} ({'; '.join(tried) or 'no sources'})",
                       hint=f"{KINDS[kind]['title']} for CUDA {cuda_major} comes from NVIDIA's wheels: "
                            "--source pypi, or a directory holding the wheel", exit_code=2)


def installed_addon(env: Mapping[str, str], kind: str, version: str, cuda_major: str) -> str | None:
    """The root of a complete add-on of ``kind`` ``version`` for ``cuda_major``, or None."""
    root = addon_root(env, kind, version, cuda_major)
    if os.path.islink(root) or read_addon(kind, root)["problem"] is not None:
        return None
    return root


def _lock(path: str) -> int:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise CudaenvError(f"cannot write {path}: {exc.strerror}") from None
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def install_addon(comp: PlanComponent, kind: str, cuda_major: str, cache: str, env: Mapping[str, str],
                  progress: Progress) -> tuple[str, int, bool]:
    """Unpack the wheel ``comp`` as an add-on; return (its root, bytes downloaded, whether it was already there).

    The wheel must be what its name says: the project and CUDA major in its own
    dist-info, the header and the library of ``kind`` in it; anything else is
    refused and nothing stays.

    Raises:
        CudaenvError: a download, checksum, unpack or disk failure, or a wheel that is not ``kind`` for ``cuda_major``.
    """
    base = addons_dir(env)
    private_install_dir(base, "the add-on")
    root = addon_root(env, kind, comp["version"], cuda_major)
    name = os.path.basename(root)
    fd = _lock(os.path.join(base, f".{name}.lock"))
    try:
        if installed_addon(env, kind, comp["version"], cuda_major):
            return root, 0, True
        if os.path.lexists(root):
            raise CudaenvError(f"{root} exists and is not a complete {KINDS[kind]['title']} add-on",
                               hint="remove it and install again", exit_code=2)
        for n in os.listdir(base):  # what a killed install left
            if n.startswith(f".{name}{_STAGING}"):
                shutil.rmtree(os.path.join(base, n), ignore_errors=True)
        sha = comp["sha256"]
        if not sha:
            try:
                sha = _sha256_of(local_path(comp["url"]))
            except OSError as exc:
                raise CudaenvError(f"cannot read {comp['url']}: {exc.strerror}") from None
        progress.start(comp["filename"], comp["size"])
        path, got = fetch_file(comp["url"], sha, comp["size"], cache,
                               lambda n: progress.advance(comp["filename"], n), name=comp["filename"])
        staging = os.path.join(base, f".{name}{_STAGING}{os.getpid()}")
        os.makedirs(staging)
        try:
            unpack(path, comp, staging)
            work = os.path.join(staging, ".work")
            os.makedirs(work)
            try:
                finish(staging, env, work)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            facts = read_addon(kind, staging)
            if facts["problem"] is not None or facts["cuda_major"] != cuda_major or facts["version"] != comp["version"]:
                why = facts["problem"] or (f"its metadata says {facts['project']} {facts['version']}, "
                                           f"not {project_of(kind, cuda_major)} {comp['version']}")
                raise CudaenvError(f"{comp['filename']} is not the {KINDS[kind]['title']} wheel it claims to be: "
                                   f"{why.replace(staging, 'the wheel')}; not installing it")
            os.rename(staging, root)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        progress.finish(comp["filename"], "installed")
        return root, got, False
    finally:
        os.close(fd)
