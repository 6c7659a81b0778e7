"""Writing: render every file, stage them and the links beside the real ones, then rename all into place.

Everything is rendered and checked first (:func:`~.plan.plan_modulefiles`, then
:func:`_render_files`); then all files and links are written to hidden temporary names
(:func:`_stage`) and renamed into place, so an error leaves DIR as it was.
"""

from __future__ import annotations

import os

from ...errors import CudaenvError
from ...infra.atomic import commit, discard, stage_text
from ...infra.files import read_limited
from .formats import RENDERERS
from .module import DRIVER_FILE, MODULE, TMP_PREFIX, Module, Written, short_names
from .plan import existing_modules, plan_modulefiles

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...context import Context
    from .base import Renderer

__all__ = ["write_modulefiles"]

#: The largest earlier module file read back (to copy it under a short name); ours are a few KiB.
_MAX_MODULE_BYTES = 1 << 20


def write_modulefiles(
    ctx: Context,
    targets: list[str],
    all_: bool,
    fmt: str | None,
    output: str | None,
    driver_file: str = DRIVER_FILE,
) -> Written:
    """Write the modulefiles, the short-name rc file and the stub links.

    Args:
        ctx: What to read (profiles, discovery).
        targets: Versions, profile names or toolkit paths (as ``use`` takes them).
        all_: Every discovered toolkit, each with its governing profile.
        fmt: ``lmod`` or ``tcl``.
        output: The directory to put on ``MODULEPATH``.
        driver_file: The file whose existence means "a driver is loaded" (tests).

    Raises:
        CudaenvError: as ``plan_modulefiles``, or a write failed (nothing renamed into place).
    """
    modules, final, notes, output = plan_modulefiles(ctx, targets, all_, fmt, output)
    assert fmt is not None
    renderer = RENDERERS[fmt]
    cuda_dir = os.path.join(output, MODULE)
    files = [(os.path.join(cuda_dir, renderer.file_name(m.name)), renderer.render(m, driver_file)) for m in modules]
    rc_path = os.path.join(cuda_dir, renderer.rc_name)
    aliases = short_names(final, notes)
    old_aliases: list[str] = []
    alias_files: list[tuple[str, str]] = []
    if renderer.alias_files:
        existing_modules(cuda_dir, fmt, old_aliases)
        alias_files = _short_name_files(renderer, cuda_dir, aliases, {m.name: text for m, (_p, text) in zip(modules, files)})
    everything = files + [(rc_path, renderer.rc(aliases))] + alias_files
    _stage_and_commit(output, cuda_dir, everything, _links(modules))
    alias_paths = [p for p, _t in alias_files]
    notes += _remove_stale(old_aliases, alias_paths)
    return Written(modules, [p for p, _t in files], rc_path, notes, output, alias_paths)


def _short_name_files(renderer: Renderer, cuda_dir: str, aliases: dict[str, list[str]],
                      written: dict[str, str]) -> list[tuple[str, str]]:
    """(path, text) of the format's files of their own for short names, each a copy of its target.

    The target is one written now (``written``: {name: text}) or one an earlier run wrote.
    """
    out: list[tuple[str, str]] = []
    for target, names in aliases.items():
        text = written.get(target)
        if text is None:  # written by an earlier run: its file is the source
            text = _read_earlier(os.path.join(cuda_dir, renderer.file_name(target)))
        for alias in renderer.short_name_files(names):
            out.append((os.path.join(cuda_dir, renderer.file_name(alias)), renderer.alias(alias, target, text)))
    return out


def _read_earlier(src: str) -> str:
    """The text of a module file an earlier run wrote (ASCII, as ours are)."""
    try:
        return read_limited(src, _MAX_MODULE_BYTES, whole=True).decode("ascii")
    except OSError as exc:
        raise CudaenvError(f"cannot read {src}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise CudaenvError(f"cannot read {src}: {exc}") from None


def _links(modules: list[Module]) -> dict[str, str]:
    """{link: target}: one stub directory (and one wheel-toolkit link directory) per toolkit root,
    however many profiles of it are written."""
    links = {os.path.join(m.stub_dir, "libcuda.so.1"): m.stub_target for m in modules if m.stub_dir}
    links.update((os.path.join(m.dev_dir, n), t) for m in modules if m.dev_dir for n, t in m.dev_links)
    return links


def _stage_and_commit(output: str, cuda_dir: str, files: list[tuple[str, str]], links: dict[str, str]) -> None:
    """Write ``files`` and ``links`` under temporary names, then rename all into place (none on an error)."""
    umask = os.umask(0o022)
    os.umask(umask)
    staged: list[tuple[str, str]] = []
    current = output
    try:
        os.makedirs(cuda_dir, exist_ok=True)
        for path, text in files:
            current = path
            staged.append((stage_text(path, text, 0o666 & ~umask, prefix=TMP_PREFIX, suffix=""), path))
        for link, target in links.items():
            current = link
            tmp = _stage_link(link, target)
            if tmp:
                staged.append((tmp, link))
    except OSError as exc:
        discard(staged)
        raise CudaenvError(f"cannot write {current}: {exc.strerror or exc}") from None
    # Only renames are left: each is atomic, and all follow a successful staging.
    commit(staged)


def _stage_link(link: str, target: str) -> str | None:
    """A temporary symlink to ``target`` beside ``link``, or None when ``link`` already points there."""
    try:
        if os.readlink(link) == target:
            return None
    except OSError:
        pass
    d = os.path.dirname(link)
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f"{TMP_PREFIX}{os.getpid()}-{os.path.basename(link)}")
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(target, tmp)
    return tmp


def _remove_stale(old_aliases: list[str], alias_paths: list[str]) -> list[str]:
    """Remove the short-name files that now go to no module (or are a module's own name); notes on failures."""
    notes = []
    for path in old_aliases:
        if path not in alias_paths:
            try:
                os.unlink(path)
            except OSError as exc:
                notes.append(f"warning: cannot remove the old short-name file {path}: {exc.strerror}")
    return notes
