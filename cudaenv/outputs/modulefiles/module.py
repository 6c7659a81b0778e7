"""What both formats render: one module's record, its names, and what it does variable by variable.

A :class:`Module` is one modulefile for one (toolkit, profile); :func:`actions` turns
its ``Ops`` into the steps both renderers write (``set``, ``flags``, ``path``), in the
order ``use`` applies them. The texts every format shows (help, whatis, the header
with its marker) and the checks on values are here too, written once.
"""

from __future__ import annotations

import json

from ...env.pathlist import dedupe, separator
from ...errors import CudaenvError
from ...toolkit import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator

    from ...env.ops import Ops

__all__ = [
    "FORMATS", "MODULE", "DRIVER_FILE", "STUBS_DIR", "DEVLINKS_DIR", "MARK", "TMP_PREFIX", "Module", "Written",
    "check_text", "module_name", "valid_module_name", "short_names", "lists", "actions", "help_text", "whatis",
    "header", "active_message", "helpers_needed",
]

FORMATS = ("lmod", "tcl")
MODULE = "cuda"
# Checked when the module is loaded, on the node loading it: present only with a
# loaded NVIDIA kernel driver (a stub on the loader path there breaks every CUDA call).
DRIVER_FILE = "/proc/driver/nvidia/version"
STUBS_DIR = ".cudaenv-stubs"
DEVLINKS_DIR = ".cudaenv-devlinks"
MARK = "cudaenv-modulefile "
TMP_PREFIX = ".tmp-cudaenv-"
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-")


class Module:
    """One modulefile to write: ``cuda/<name>`` for one (toolkit, profile).

    Attributes:
        name: The module version (file name without ``.lua``).
        full_version: The toolkit's full version.
        root: The toolkit root (real path).
        profile: The profile's name.
        ops: What ``use`` would do, without the loader-path stub.
        base: The same without the host compiler (``use`` when the user's own
            nvcc flags already name one with ``-ccbin``).
        cxx: The host compiler ``use`` would force (None: the default is fine).
        stub_dir: Directory holding ``libcuda.so.1`` (None: no stub on the loader path).
        stub_target: The toolkit's ``lib64/stubs/libcuda.so``.
        stubs: The profile's policy: ``driverless`` (decided at load time) or ``always``.
        dev_dir: A wheel toolkit's link directory (``libcudart.so`` -> ...; None: none needed).
        dev_links: Its ``[name, target]`` links.
    """

    __slots__ = ("name", "full_version", "root", "profile", "ops", "base", "cxx", "stub_dir", "stub_target", "stubs",
                 "dev_dir", "dev_links")

    def __init__(self, name: str, full_version: str, root: str, profile: str, ops: Ops,
                 stub_dir: str | None = None, stub_target: str | None = None, stubs: str = "auto",
                 base: Ops | None = None, cxx: str | None = None, dev_dir: str | None = None,
                 dev_links: list | None = None) -> None:
        self.name = name
        self.full_version = full_version
        self.root = root
        self.profile = profile
        self.ops = ops
        self.base = ops if base is None else base
        self.cxx = cxx if base is not None else None
        self.stub_dir = stub_dir
        self.stub_target = stub_target
        self.stubs = stubs
        self.dev_dir = dev_dir
        self.dev_links = dev_links or []

    def marker(self, fmt: str) -> dict:
        return {"format": fmt, "root": self.root, "profile": self.profile, "version": self.full_version}


class Written:
    """What ``write_modulefiles`` did: files written and notes for stderr."""

    __slots__ = ("modules", "paths", "rc_path", "notes", "output", "alias_paths")

    def __init__(self, modules: list[Module], paths: list[str], rc_path: str, notes: list[str], output: str,
                 alias_paths: list[str] | None = None) -> None:
        self.modules = modules
        self.paths = paths
        self.rc_path = rc_path
        self.notes = notes
        self.output = output
        self.alias_paths = alias_paths or []



def check_text(what: str, value: str) -> None:
    """Refuse a value a module system could not pass on intact.

    The quoting above could express control characters, but the module
    systems' own shell output and Lmod's Tcl bridge do not quote them all.
    """
    for ch in value:
        o = ord(ch)
        if o < 0x20 or o == 0x7F or 0xD800 <= o <= 0xDFFF:
            raise CudaenvError(
                f"cannot write {what} {value!r} to a modulefile: "
                "it holds a control character or bytes that are not UTF-8",
                hint="move or symlink the toolkit to a plainer path",
                exit_code=2,
            )



def module_name(profile: str, full_version: str) -> str:
    """The module version a (profile, toolkit version) pair asks for, before de-duplication."""
    gen = f"cuda-{full_version}"
    if profile == gen or profile.startswith(gen + "-") or profile.startswith(gen + "+"):
        # The generated profile, one `profile build` numbered (cuda-12.4.1-2), or a wheel
        # toolkit's (cuda-13.5.0+proj: toolkit/wheels.py).
        return profile[len("cuda-"):]
    return f"{full_version}-{profile}"


def valid_module_name(name: str) -> bool:
    return bool(name) and name[0] not in ".-" and name != "default" and all(c in _NAME_CHARS for c in name)


def short_names(mods: dict[str, tuple[str, str]], notes: list[str]) -> dict[str, list[str]]:
    """Short names: {module name: [aliases]} over ``mods`` = {name: (full version, root)}.

    ``12.4``/``12`` go to the newest 12.4.x/12.x and ``default`` to the newest
    overall; among equal versions the un-suffixed name wins. A module named
    exactly like an alias keeps its name (an exact version wins for ``use`` too).
    """
    groups: dict[str, list[str]] = {}
    for name, (full, _root) in sorted(mods.items()):
        parts = full.split(".")
        for i in range(len(parts) - 1, 0, -1):
            groups.setdefault(".".join(parts[:i]), []).append(name)
        groups.setdefault("default", []).append(name)
    out: dict[str, list[str]] = {}
    for alias in sorted(groups, key=lambda a: (a == "default", version_key(a))):
        names = groups[alias]
        if alias in mods:
            continue
        best = max(version_key(mods[n][0]) for n in names)
        top = sorted((n for n in names if version_key(mods[n][0]) == best), key=lambda n: (n != mods[n][0], n))
        out.setdefault(top[0], []).append(alias)
        others = [n for n in top[1:] if mods[n][1] != mods[top[0]][1]]
        if others and alias != "default":
            notes.append(
                f"{MODULE}/{alias} loads {MODULE}/{top[0]}; {', '.join(MODULE + '/' + n for n in others)} "
                f"has the same version (`cudaenv use {alias}` would call this ambiguous)"
            )
    return out



def lists(ops: Ops) -> Iterator[tuple[str, list[str], list[str]]]:
    """(variable, prepends, appends) exactly as the planner applies them (deduplicated)."""
    for var in ops.names():
        if var in ops.set:
            continue
        pre = dedupe(ops.prepend.get(var, []))
        app = [e for e in dedupe(ops.append.get(var, [])) if e not in pre]
        if pre or app:
            yield var, pre, app


def help_text(m: Module) -> str:
    text = (f"NVIDIA CUDA {m.full_version} at {m.root}\n"
            f"Written by cudaenv from profile {m.profile}; sets what `cudaenv use {m.profile}` sets:\n"
            f"{', '.join(m.ops.names())}.")
    if m.stub_dir:
        where = "On a node without an NVIDIA driver, t" if m.stubs == "driverless" else "T"
        text += (f"\n{where}he driver stub (libcuda.so.1) goes last on LD_LIBRARY_PATH; it travels with the"
                 "\nenvironment (Slurm --export=ALL): load this module inside GPU jobs, not before submitting.")
    return text


def whatis(m: Module) -> list[str]:
    return [f"Name: {MODULE}", f"Version: {m.full_version}",
            f"Description: NVIDIA CUDA toolkit {m.full_version} at {m.root} (cudaenv profile {m.profile})"]


def header(m: Module, fmt: str, comment: str) -> list[str]:
    # No toolkit path in a comment: the marker carries it JSON-escaped.
    return [
        f"{comment} {MODULE}/{m.name}: written by `cudaenv modulefiles --format {fmt}`; regenerate rather than edit.",
        f"{comment} {MARK}{json.dumps(m.marker(fmt), ensure_ascii=True, sort_keys=True)}",
        "",
    ]



def actions(m: Module) -> list[tuple]:
    """What the module does, variable by variable, as ``use`` applies it.

    Each item is one of:
    ``("set", VAR, value, ccbin)``: a set variable (``ccbin``: only when the
    host compiler goes in); ``("flags", VAR, (pre, app), (pre, app) | None)``:
    an nvcc flag list with, and without, the host compiler (None: the same
    both ways; ``((), ())``: nothing to add); ``("path", VAR, pre, app)``: a
    ``:`` list (the loader-path stub is added by the renderers).
    """
    out: list[tuple] = []
    own = {var: (pre, app) for var, pre, app in lists(m.base)}
    for var in m.ops.names():
        if var in m.ops.set:
            out.append(("set", var, m.ops.set[var], var not in m.base.set))
            continue
        pre = dedupe(m.ops.prepend.get(var, []))
        app = [e for e in dedupe(m.ops.append.get(var, [])) if e not in pre]
        if not pre and not app:
            continue
        if separator(var) == ":":
            out.append(("path", var, pre, app))
        else:
            without = own.get(var, ([], []))
            out.append(("flags", var, (pre, app), None if without == (pre, app) else without))
    return out


def active_message(m: Module) -> str:
    return (f"{MODULE}/{m.name}: a cudaenv profile is active; run `cudaenv off` before `module load` "
            "(the module and cudaenv would each give back the other's values)")


def helpers_needed(m: Module, acts: list) -> tuple[bool, bool, bool]:
    """Which helper blocks a modulefile needs besides the common ones: (flag lists, path lists, -ccbin)."""
    return (
        any(a[0] == "flags" for a in acts),
        bool(m.stub_dir) or any(a[0] == "path" for a in acts),
        bool(m.cxx) and any((a[0] == "set" and a[3]) or (a[0] == "flags" and a[3] is not None) for a in acts),
    )
