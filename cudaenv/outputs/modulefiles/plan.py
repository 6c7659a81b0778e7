"""Planning: resolve the targets, name each module, read what ``DIR/cuda`` holds, check every value; write nothing."""

from __future__ import annotations

import json
import os

from ...errors import CudaenvError
from ...infra.files import NotRegular, read_limited
from ...profiles.select import select_targets
from .formats import RENDERERS
from .module import (DEVLINKS_DIR, FORMATS, MARK, MODULE, STUBS_DIR, TMP_PREFIX, Module, check_text, lists,
                     module_name, valid_module_name)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...context import Context
    from ...profiles.model import Profile
    from ...toolkit.types import Toolkit

__all__ = ["plan_modulefiles", "existing_modules"]


def _read_marker(path: str) -> dict | None:
    """The marker of a file cudaenv wrote, or None (not ours).

    Raises:
        CudaenvError: it cannot be read, or is not a regular file (a FIFO would
            block the read, a device never end it; neither is overwritten).
    """
    try:
        head = read_limited(path, 8192).decode("utf-8", "replace")
    except NotRegular:
        if os.path.isdir(path):
            return None  # a directory: "not written by cudaenv", as any other foreign entry
        raise CudaenvError(f"{path} is not a regular file; not overwriting it",
                           hint="move it away, or use another --output directory", exit_code=2) from None
    except OSError as exc:
        raise CudaenvError(f"cannot read {path}: {exc.strerror}") from None
    for line in head.splitlines()[:5]:
        for lead in ("-- ", "# "):
            if line.startswith(lead + MARK):
                try:
                    data = json.loads(line[len(lead) + len(MARK):])
                except ValueError:
                    return None
                return data if isinstance(data, dict) and data.get("format") in FORMATS else None
    return None


def existing_modules(cuda_dir: str, fmt: str, alias_files: list[str] | None = None) -> dict[str, dict]:
    """{module name: marker} of the modulefiles cudaenv wrote in ``cuda_dir`` before.

    Short-name files (Lmod) are not modules: their paths go to ``alias_files``.

    Raises:
        CudaenvError: a file there is not cudaenv's, or is in the other format.
    """
    try:
        entries = sorted(os.listdir(cuda_dir))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise CudaenvError(f"cannot read {cuda_dir}: {exc.strerror}") from None
    found: dict[str, dict] = {}
    for entry in entries:
        if entry.startswith(TMP_PREFIX):
            continue  # left by an interrupted run; never a module name
        path = os.path.join(cuda_dir, entry)
        is_rc = entry in {r.rc_name for r in RENDERERS.values()}
        if entry.startswith(".") and not is_rc and entry != ".version":
            continue
        info = _read_marker(path)
        if info is None:
            raise CudaenvError(
                f"{path} was not written by cudaenv; refusing to write modulefiles beside it",
                hint="use another --output directory, or move that file",
                exit_code=2,
            )
        if info["format"] != fmt:
            raise CudaenvError(
                f"{cuda_dir} holds {RENDERERS[info['format']].label} modulefiles from cudaenv; "
                f"not mixing in {RENDERERS[fmt].label} ones",
                hint=f"use another --output directory, or --format {info['format']}",
                exit_code=2,
            )
        if is_rc:
            continue
        if "alias_of" in info:
            if alias_files is not None:
                alias_files.append(path)
            continue
        name = RENDERERS[fmt].module_name_of(entry)
        if all(isinstance(info.get(k), str) for k in ("root", "profile", "version")):
            found[name] = info
    return found


def _module_for(ctx: Context, prof: Profile, tk: Toolkit, name: str, output: str, notes: list[str]) -> Module:
    from ...env.plan import apply
    from ...profiles.model import host_compiler, profile_ops

    # The host compiler `use` would pick, chosen here (like `profile build` records it).
    cxx, why = host_compiler(ctx, prof, tk)
    if not cxx and why and prof.get("host_compiler") in (None, "auto"):
        notes.append(f"warning: {MODULE}/{name}: {why}")
    stub_dir = stub_target = None
    # The runtime stub only where the profile asks (issue 17): a module loaded on a driverless
    # login node must not carry one into jobs on GPU nodes (Slurm's --export=ALL).
    if tk["components"].get("stubs") and prof["stubs"] in ("always", "driverless"):
        stub_dir = os.path.join(output, STUBS_DIR, tk["stub_key"])
        stub_target = os.path.join(tk["root"], tk["libdir"], "stubs", "libcuda.so")
    # The planner's own checks (reserved names, set-and-extend, ':' or newline
    # in an entry, empty entries) on exactly what `use` would apply here.
    apply({}, profile_ops(prof, stub_dir, cxx), prof["name"])
    ops = profile_ops(prof, None, cxx)
    base = profile_ops(prof, None, None)
    dev_dir = os.path.join(output, DEVLINKS_DIR, tk["stub_key"]) if tk.get("dev_links") else None
    for o in (ops, base) if dev_dir else ():
        for var in ("LIBRARY_PATH", "CMAKE_LIBRARY_PATH"):
            if var not in o.set and dev_dir not in o.prepend.get(var, []):
                o.prepend.setdefault(var, []).append(dev_dir)
    check_text("toolkit path", tk["root"])
    for var, val in ops.set.items():
        check_text(f"the value of {var}", val)
    for var, pre, app in lists(ops):
        for e in pre + app:
            check_text(f"the {var} entry", e)
    if stub_dir:
        check_text("stub directory", stub_dir)
    return Module(name, tk["full_version"], tk["root"], prof["name"], ops, stub_dir, stub_target, prof["stubs"],
                  base, cxx, dev_dir, tk.get("dev_links"))


def plan_modulefiles(
    ctx: Context, targets: list[str], all_: bool, fmt: str | None, output: str | None
) -> tuple[list[Module], dict[str, tuple[str, str]], list[str], str]:
    """Resolve, name and check everything; write nothing.

    Returns:
        (modules to write, every module in DIR afterwards as {name: (full
        version, root)}, notes, absolute output directory).

    Raises:
        CudaenvError: bad arguments, a target that does not resolve, a value
            that cannot be written, or a DIR/cuda that is not cudaenv's.
    """
    if fmt not in FORMATS:
        raise CudaenvError(f"--format must be lmod or tcl (got {fmt!r})" if fmt else "--format lmod|tcl is required",
                           exit_code=2)
    if not output:
        raise CudaenvError("--output DIR is required (the directory to put on MODULEPATH), or modulefiles: DIR in config.yaml", exit_code=2)
    output = os.path.abspath(output)
    if os.path.exists(output) and not os.path.isdir(output):
        raise CudaenvError(f"--output {output} is not a directory", exit_code=2)
    notes: list[str] = []
    pairs = select_targets(ctx, list(targets), all_, verb="write", defaults=(), notes=notes)
    existing = existing_modules(os.path.join(output, MODULE), fmt)
    holder = {(v["root"], v["profile"]): n for n, v in existing.items()}
    final = {n: (v["version"], v["root"]) for n, v in existing.items()}
    taken = set(existing)
    modules: list[Module] = []
    for prof, tk in pairs:
        name = holder.get((tk["root"], prof["name"]))
        if name is None:
            base = module_name(prof["name"], tk["full_version"])
            if not valid_module_name(base):
                raise CudaenvError(f"cannot name a module after {base!r}: use letters, digits and ._+-", exit_code=2)
            name, n = base, 2
            while name in taken:
                name, n = f"{base}-{n}", n + 1
        taken.add(name)
        mod = _module_for(ctx, prof, tk, name, output, notes)
        notes += RENDERERS[fmt].plan_notes(mod)
        modules.append(mod)
        final[name] = (tk["full_version"], tk["root"])
    return modules, final, notes, output

