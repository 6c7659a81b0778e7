"""Lmod (Lua) and Tcl modulefiles that set what ``cudaenv use`` sets.

``cudaenv modulefiles --format lmod|tcl [--all | TARGET...] --output DIR``
writes ``DIR/cuda/<name>.lua`` (Lmod) or ``DIR/cuda/<name>`` (Tcl: Environment
Modules, and Lmod too). Each file is rendered from the same data as ``use``:
the toolkit's governing profile (or the profile TARGET names) turned into
``Ops`` by ``profile_ops``, with the host compiler ``use`` would choose.

* **Exactly ``use``, exactly back.** Small helpers at the top of each file
  (Lua functions, Tcl procs) apply ``use``'s rules at load: a set variable's
  prior value (unset, empty or not) is recorded in ``__CUDAENV_MODULE_<VAR>``
  and given back on unload unless changed since (Lmod: the value waits on its
  own pushenv stack, emptied on unload; Environment Modules: ``unsetenv VAR
  VALUE`` sets on unload); nvcc flag lists are computed word for word (split
  on single spaces, ours in front or last) and treated as set variables,
  because the module systems' space-delimited path functions de-duplicate
  words; ``-ccbin``/``CUDAHOSTCXX`` go in only when the user's own flags name
  no ``-ccbin``. ``:`` lists use the tool's prepend/append (in reverse, so the
  result has the profile's order), and an empty list comes back empty. A
  module refuses to load while a cudaenv profile is active.

Decisions (also in ``cudaenv modulefiles --help``):

* **Names.** ``cuda/<full version>`` for a toolkit's generated profile
  (``cuda-12.4.1`` -> ``cuda/12.4.1``; ``profile build``'s ``cuda-12.4.1-2`` ->
  ``cuda/12.4.1-2``); any other profile gets ``cuda/<full version>-<profile>``.
  A file belongs to one (toolkit root, profile) pair, recorded in a marker
  comment: a name held by another pair (in DIR already, or earlier in the
  same run) gets ``-2``, ``-3``..., and a re-run gives each pair the name it
  already has. So two toolkits never overwrite each other's file.
* **Short names.** A ``.modulerc.lua`` (Lmod) or ``.modulerc`` (Tcl) makes
  ``cuda/12.4`` and ``cuda/12`` the newest 12.4.x / 12.x and ``default`` the
  newest of all, as ``use 12.4`` resolves a prefix; a module whose name *is*
  ``12.4`` wins, as an exact version does for ``use``. Where two toolkits tie,
  the un-suffixed name wins and a note says so (``use`` would refuse). Lmod
  resolves rc names only when loading (not to unload or swap), so for Lmod
  ``cuda/12.4.lua`` is a copy of the target's file (marker ``alias_of``),
  rewritten or removed on every run; the rc file keeps ``default``.
* **Ownership.** ``DIR/cuda`` is cudaenv's: a file there that cudaenv did not
  write, or one in the other format, is an error, never overwritten.
* **Stubs.** Per the profile's ``stubs``: ``never`` (or a toolkit without
  ``lib64/stubs/libcuda.so``) adds nothing; ``always`` appends the stub
  directory last to ``LD_LIBRARY_PATH``; ``auto`` decides at *load* time, on
  the node loading the module: only when ``/proc/driver/nvidia/version`` does
  not exist. The directory (``libcuda.so.1`` -> the toolkit's stub) is
  ``DIR/.cudaenv-stubs/<key>``, beside the modulefiles rather than in the
  user's cache, so other nodes and users see it.
* **Wheel toolkits** (``site-packages/nvidia/cu13``) lack ``libcudart.so`` and
  the other unversioned names: as ``use`` does with its cache, the links go to
  ``DIR/.cudaenv-devlinks/<key>`` (beside the modulefiles, for the same
  reason), on ``LIBRARY_PATH`` and ``CMAKE_LIBRARY_PATH``.
* **Quoting.** Lua values are double-quoted with every byte outside printable
  ASCII (and ``"``, ``\\``) as a ``\\ddd`` escape; Tcl values are double-quoted
  with ``\\ " $ [ ] { }`` backslash-escaped (escaped braces keep the brace
  count of an enclosing ``if {...}`` body balanced). Values holding a control
  character or bytes that are not UTF-8 are refused, as are path entries
  holding ``:`` (no path list can express them).
* **Writes.** Everything is rendered and checked first; then all files are
  written to hidden temporary files and renamed into place, so an error
  leaves DIR as it was.
"""

from __future__ import annotations

import json
import os

from ..env.ops import Ops
from ..env.pathlist import dedupe, separator
from ..env.plan import apply
from ..errors import CudaenvError
from ..infra.atomic import commit, discard, stage_text
from ..infra.files import NotRegular, read_limited
from ..profiles.model import host_compiler, profile_ops
from ..profiles.select import select_targets
from ..toolkit import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator

    from ..context import Context
    from ..profiles.model import Profile
    from ..toolkit.types import Toolkit

__all__ = [
    "FORMATS", "MODULE", "DRIVER_FILE", "STUBS_DIR", "Module", "Written", "lua_quote", "tcl_quote",
    "module_name", "lmod_unsafe", "render_lua", "render_tcl", "render_rc", "render_alias", "plan_modulefiles",
    "write_modulefiles",
]

FORMATS = ("lmod", "tcl")
MODULE = "cuda"
# Checked when the module is loaded, on the node loading it: present only with a
# loaded NVIDIA kernel driver (a stub on the loader path there breaks every CUDA call).
DRIVER_FILE = "/proc/driver/nvidia/version"
STUBS_DIR = ".cudaenv-stubs"
DEVLINKS_DIR = ".cudaenv-devlinks"
_MARK = "cudaenv-modulefile "
_TMP_PREFIX = ".tmp-cudaenv-"
#: The largest earlier module file read back (to copy it under a short name); ours are a few KiB.
_MAX_MODULE_BYTES = 1 << 20
_RC = {"lmod": ".modulerc.lua", "tcl": ".modulerc"}
_LABEL = {"lmod": "Lmod (Lua)", "tcl": "Tcl"}
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
        stubs: The profile's policy: ``auto`` (decided at load time) or ``always``.
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


# ---------------------------------------------------------------- quoting


def lua_quote(value: str) -> str:
    """A Lua string literal for ``value``: printable ASCII as is, every other byte ``\\ddd``.

    Three-digit decimal escapes are valid in every Lua version and never
    swallow a following digit; the file stays ASCII whatever the value holds.
    """
    out = ['"']
    for b in value.encode("utf-8", "surrogateescape"):
        if 0x20 <= b < 0x7F and b not in (0x22, 0x5C):
            out.append(chr(b))
        else:
            out.append("\\%03d" % b)
    out.append('"')
    return "".join(out)


_TCL_ESCAPE = frozenset('\\"$[]{}')


def tcl_quote(value: str) -> str:
    """A Tcl double-quoted word for ``value``.

    ``\\ " $ [ ]`` are escaped so nothing is substituted; ``{ }`` too, so the
    word can sit inside a braced ``if`` body without unbalancing it. Control
    characters become ``\\ooo``; other characters (UTF-8 in the file) pass as is.

    Raises:
        CudaenvError: ``value`` holds bytes that are not UTF-8 (Tcl decodes the file).
    """
    out = ['"']
    for ch in value:
        o = ord(ch)
        if 0xD800 <= o <= 0xDFFF:
            raise CudaenvError(f"cannot write {value!r} to a Tcl modulefile: it is not valid UTF-8", exit_code=2)
        if ch in _TCL_ESCAPE:
            out.append("\\" + ch)
        elif o < 0x20 or o == 0x7F:
            out.append("\\%03o" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _check_text(what: str, value: str) -> None:
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


# ---------------------------------------------------------------- names


def module_name(profile: str, full_version: str) -> str:
    """The module version a (profile, toolkit version) pair asks for, before de-duplication."""
    gen = f"cuda-{full_version}"
    if profile == gen or profile.startswith(gen + "-") or profile.startswith(gen + "+"):
        # The generated profile, one `profile build` numbered (cuda-12.4.1-2), or a wheel
        # toolkit's (cuda-13.5.0+proj: toolkit/wheels.py).
        return profile[len("cuda-"):]
    return f"{full_version}-{profile}"


def _valid_module_name(name: str) -> bool:
    return bool(name) and name[0] not in ".-" and name != "default" and all(c in _NAME_CHARS for c in name)


def _aliases(mods: dict[str, tuple[str, str]], notes: list[str]) -> dict[str, list[str]]:
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


# ---------------------------------------------------------------- rendering


def _lists(ops: Ops) -> Iterator[tuple[str, list[str], list[str]]]:
    """(variable, prepends, appends) exactly as the planner applies them (deduplicated)."""
    for var in ops.names():
        if var in ops.set:
            continue
        pre = dedupe(ops.prepend.get(var, []))
        app = [e for e in dedupe(ops.append.get(var, [])) if e not in pre]
        if pre or app:
            yield var, pre, app


def _help(m: Module) -> str:
    text = (f"NVIDIA CUDA {m.full_version} at {m.root}\n"
            f"Written by cudaenv from profile {m.profile}; sets what `cudaenv use {m.profile}` sets:\n"
            f"{', '.join(m.ops.names())}.")
    if m.stub_dir:
        where = "On a node without an NVIDIA driver, t" if m.stubs == "auto" else "T"
        text += f"\n{where}he driver stub (libcuda.so.1) goes last on LD_LIBRARY_PATH."
    return text


def _whatis(m: Module) -> list[str]:
    return [f"Name: {MODULE}", f"Version: {m.full_version}",
            f"Description: NVIDIA CUDA toolkit {m.full_version} at {m.root} (cudaenv profile {m.profile})"]


def _header(m: Module, fmt: str, comment: str) -> list[str]:
    # No toolkit path in a comment: the marker carries it JSON-escaped.
    return [
        f"{comment} {MODULE}/{m.name}: written by `cudaenv modulefiles --format {fmt}`; regenerate rather than edit.",
        f"{comment} {_MARK}{json.dumps(m.marker(fmt), ensure_ascii=True, sort_keys=True)}",
        "",
    ]


def lmod_unsafe(m: Module) -> bool:
    """True when Lmod's Tcl bridge would garble ``m``'s Tcl modulefile.

    Lmod (8.6) reads a Tcl modulefile through tcl2lua, which writes path
    entries into Lua strings without escaping ``"`` or ``\\``, the whatis
    text inside ``[===[ ]===]``, strips trailing spaces from set values, and
    (its default in-process Tcl) decodes the file as Latin-1 but hands the
    text on as UTF-8, so every non-ASCII character comes out double-encoded.
    Environment Modules has none of these problems; Lmod reads the Lua
    format safely.
    """
    paths = [m.root] + [e for _var, pre, app in _lists(m.ops) for e in pre + app]
    if m.stub_dir:
        paths.append(m.stub_dir)
    values = list(m.ops.set.values())
    return (any('"' in t or "\\" in t for t in paths) or "]" in m.root
            or any(v != v.rstrip(" ") for v in values)
            or not all(t.isascii() for t in paths + values))


def _actions(m: Module) -> list[tuple]:
    """What the module does, variable by variable, as ``use`` applies it.

    Each item is one of:
    ``("set", VAR, value, ccbin)``: a set variable (``ccbin``: only when the
    host compiler goes in); ``("flags", VAR, (pre, app), (pre, app) | None)``:
    an nvcc flag list with, and without, the host compiler (None: the same
    both ways; ``((), ())``: nothing to add); ``("path", VAR, pre, app)``: a
    ``:`` list (the loader-path stub is added by the renderers).
    """
    out: list[tuple] = []
    own = {var: (pre, app) for var, pre, app in _lists(m.base)}
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


_LUA_HELPERS = r'''
-- How this module keeps `cudaenv use`'s rules (`cudaenv modulefiles --help`):
-- * set_var: unload gives back exactly the value from before load (unset, empty or
--   not), or leaves a value changed since. The prior value waits on Lmod's own stack
--   (pushenv), which is emptied on unload; __CUDAENV_MODULE_<VAR> says what it was.
-- * flags: nvcc's flag lists are words split on single spaces, ours in front (or at
--   the end), the user's kept as they were, repeats included; then as set_var.
-- * path: Lmod's own prepend_path/append_path; a list that was empty (not unset)
--   before load is empty again after unload.
local REC = "__CUDAENV_MODULE_"
local unloading = (mode() == "unload")

-- A module loaded next by the same command (a swap) must see a variable emptied here as empty,
-- not unset: module globals last for one Lmod command, and cudaenv_emptied names those.
cudaenv_emptied = cudaenv_emptied or {}
local function getenv(var)
    local v = os.getenv(var)
    if v == nil and cudaenv_emptied[var] then return "" end
    return v
end

-- No Lmod function sets a variable while unloading but pushenv (pop): the shell is told directly,
-- after Lmod's own changes, and only if the variable is still unset then (a module loaded by the
-- same command, as in a swap, may have set it).
local function set_empty_on_unload(var)
    cudaenv_emptied[var] = true
    local cmd = ({sh = '[ -n "${%s+x}" ] || export %s=', csh = "if (! $?%s) setenv %s ''",
                  fish = "set -q %s; or set -gx %s ''"})[myShellType()]
    if cmd then execute{cmd = cmd:format(var, var), modeA = {"unload"}} end
end

local function set_var(var, value)  -- value: a string, or function(prior value or nil) -> string
    local function ours(prior) return type(value) == "function" and value(prior) or value end
    if not unloading then
        local prior = getenv(var)
        cudaenv_emptied[var] = nil
        setenv(REC .. var, prior and ("=" .. prior) or "-")
        unsetenv(var)  -- drops any __LMOD_STACK_<VAR> too: the stack holds only what we push
        if prior and prior ~= "" then pushenv(var, prior) end
        pushenv(var, ours(prior))
        return
    end
    local rec = os.getenv(REC .. var)
    if rec == nil then pushenv(var, "-") return end  -- loaded by an older file: pop
    local prior = rec:sub(1, 1) == "=" and rec:sub(2) or nil
    if os.getenv(var) ~= ours(prior) then
        LmodMessage(var .. " was changed after the cuda module was loaded; leaving it as it is")
    elseif prior and prior ~= "" then
        pushenv(var, "-")  -- unloading: pops back to the prior value
    else
        setenv(var, "-")   -- unloading: unsets
        if prior then set_empty_on_unload(var) end
    end
    setenv("__LMOD_STACK_" .. var, "-")  -- unloading: unsets, nothing left behind
    setenv(REC .. var, "-")
end
'''

_LUA_FLAGS = r'''
local function words(s)  -- split on each single space, as `cudaenv use` does ("" has none)
    local w, i = {}, 1
    if s == nil or s == "" then return w end
    while true do
        local j = s:find(" ", i, true)
        if not j then w[#w + 1] = s:sub(i) return w end
        w[#w + 1] = s:sub(i, j - 1)
        i = j + 1
    end
end

local function flags(var, pre, app)
    set_var(var, function(prior)
        local w = {}
        for _, list in ipairs({pre, words(prior), app}) do
            for _, x in ipairs(list) do w[#w + 1] = x end
        end
        return table.concat(w, " ")
    end)
end
'''

_LUA_PATH = r'''
local function path(var, pre, app)
    if not unloading and getenv(var) == "" then setenv(REC .. var, "empty") end
    if not unloading then cudaenv_emptied[var] = nil end
    for i = #pre, 1, -1 do prepend_path(var, pre[i]) end  -- each goes in front: reverse order
    for _, e in ipairs(app) do append_path(var, e) end
    if unloading and os.getenv(REC .. var) then
        if (os.getenv(var) or "") == "" then set_empty_on_unload(var) end
        setenv(REC .. var, "-")
    end
end
'''

_LUA_CCBIN = r'''
-- The host compiler goes in only when the user's own nvcc flags name none (-ccbin), as
-- with `cudaenv use`; decided at load, remembered for unload.
local function user_ccbin()
    for _, var in ipairs({"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"}) do
        local w = {}
        for x in (os.getenv(var) or ""):gmatch("%S+") do w[#w + 1] = x end
        for i, x in ipairs(w) do
            if ((x == "-ccbin" or x == "--compiler-bindir") and w[i + 1])
                    or x:find("^%-ccbin=") or x:find("^%-%-compiler%-bindir=") then
                return true
            end
        end
    end
    return false
end
local own_ccbin
if unloading then own_ccbin = os.getenv(REC .. "CCBIN") == "1" else own_ccbin = not user_ccbin() end
setenv(REC .. "CCBIN", own_ccbin and "1" or "0")  -- unloading: unsets
'''


def _lua_list(entries) -> str:
    return "{" + ", ".join(lua_quote(e) for e in entries) + "}"


def _active_message(m: Module) -> str:
    return (f"{MODULE}/{m.name}: a cudaenv profile is active; run `cudaenv off` before `module load` "
            "(the module and cudaenv would each give back the other's values)")


def _helpers_needed(m: Module, acts: list) -> tuple[bool, bool, bool]:
    """Which helper blocks a modulefile needs besides the common ones: (flag lists, path lists, -ccbin)."""
    return (
        any(a[0] == "flags" for a in acts),
        bool(m.stub_dir) or any(a[0] == "path" for a in acts),
        bool(m.cxx) and any((a[0] == "set" and a[3]) or (a[0] == "flags" and a[3] is not None) for a in acts),
    )


def render_lua(m: Module, driver_file: str = DRIVER_FILE) -> str:
    """The Lmod modulefile for ``m``."""
    q = lua_quote
    acts = _actions(m)
    lines = _header(m, "lmod", "--")
    lines.append(f"help({q(_help(m))})")
    lines += [f"whatis({q(w)})" for w in _whatis(m)]
    lines.append(f"family({q(MODULE)})")
    lines += [
        "",
        "-- One switch at a time: a module loaded over `cudaenv use` (or under it) would give back the wrong values.",
        'if mode() == "load" and os.getenv("_CUDAENV_STATE") then',
        f"    LmodError({q(_active_message(m))})",
        "end",
    ]
    for block in (_LUA_HELPERS, *(h for h, need in zip((_LUA_FLAGS, _LUA_PATH, _LUA_CCBIN),
                                                        _helpers_needed(m, acts)) if need)):
        lines += block.rstrip("\n").split("\n")
    has_stub = bool(m.stub_dir)
    if has_stub:
        lines.append("")
        if m.stubs == "always":
            lines += ["-- The driver stub, last on the loader path (profile: stubs: always).",
                      f"local stub = {q(m.stub_dir)}"]
        else:
            lines += [
                "-- The driver stub goes last on the loader path only where no NVIDIA driver is loaded",
                "-- (decided on the node loading this module; with a driver it would break every CUDA call).",
                f"local stub = (unloading or not isFile({q(driver_file)})) and {q(m.stub_dir)} or nil",
            ]
    lines.append("")
    for act in acts:
        kind, var = act[0], act[1]
        if kind == "set":
            call = f"set_var({q(var)}, {q(act[2])})"
            lines.append(f"if own_ccbin then {call} end" if act[3] else call)
        elif kind == "flags":
            (pre, app), other = act[2], act[3]
            call = f"flags({q(var)}, {_lua_list(pre)}, {_lua_list(app)})"
            if other is None:
                lines.append(call)
            elif other == ([], []):
                lines.append(f"if own_ccbin then {call} end")
            else:
                lines += [f"if own_ccbin then {call}",
                          f"else flags({q(var)}, {_lua_list(other[0])}, {_lua_list(other[1])}) end"]
        else:
            app = _lua_list(act[3])
            if has_stub and var == "LD_LIBRARY_PATH":
                app = app[:-1] + (", stub}" if act[3] else "stub}")
                has_stub = False
            lines.append(f"path({q(var)}, {_lua_list(act[2])}, {app})")
    if has_stub:
        lines.append('path("LD_LIBRARY_PATH", {}, {stub})')
    return "\n".join(lines) + "\n"


_TCL_HELPERS = r'''
# How this module keeps `cudaenv use`'s rules (`cudaenv modulefiles --help`):
# * cudaenv_set: unload gives back exactly the value from before load (unset, empty or
#   not), or leaves a value changed since; __CUDAENV_MODULE_<VAR> holds the prior value.
#   (Lmod reading this file: the prior value waits on Lmod's stack, pushenv, emptied on
#   unload; an empty prior value comes back unset there.)
# * cudaenv_flags: nvcc's flag lists are words split on single spaces, ours in front (or
#   at the end), the user's kept as they were, repeats included; then as cudaenv_set.
# * cudaenv_path: the module system's own prepend-path/append-path; a list that was
#   empty (not unset) before load is empty again after unload (Environment Modules).
set cudaenv_unloading [expr {[module-info mode] in {unload remove}}]
set cudaenv_lmod [expr {[info exists ModuleTool] && $ModuleTool eq "Lmod"}]

# {1 value} for a set variable, {0 ""} for an unset one. Environment Modules keeps a variable
# unset earlier in the same command (a switch) in env() as "": its getenv tells them apart.
proc cudaenv_get {var} {
    global env cudaenv_lmod
    if {$cudaenv_lmod} {
        return [expr {[info exists env($var)] ? [list 1 $env($var)] : [list 0 ""]}]
    }
    set v [getenv $var \001]
    return [expr {$v eq "\001" ? [list 0 ""] : [list 1 $v]}]
}

proc cudaenv_const {value prior} {
    return $value
}

proc cudaenv_set {var value {compute cudaenv_const}} {
    global env cudaenv_unloading cudaenv_lmod
    set rec __CUDAENV_MODULE_$var
    if {!$cudaenv_unloading} {
        lassign [cudaenv_get $var] had prior
        setenv $rec [expr {$had ? "=$prior" : "-"}]
        set ours [$compute $value $prior]
        if {$cudaenv_lmod} {
            unsetenv $var
            if {$prior ne ""} {
                pushenv $var $prior
            }
            pushenv $var $ours
        } else {
            setenv $var $ours
        }
        return
    }
    lassign [cudaenv_get $rec] loaded rec
    if {!$loaded} {
        return
    }
    set had [string match =* $rec]
    set prior [string range $rec 1 end]
    lassign [cudaenv_get $var] set cur
    if {!$set || $cur ne [$compute $value $prior]} {
        puts stderr "$var was changed after the cuda module was loaded; leaving it as it is"
    } elseif {$cudaenv_lmod} {
        # Unloading: pushenv pops back to the prior value, setenv unsets.
        if {$prior ne ""} {
            pushenv $var ""
        } else {
            setenv $var ""
        }
    } elseif {$had} {
        # Unloading: unsetenv with a value sets that value, setenv unsets.
        unsetenv $var $prior
    } else {
        setenv $var ""
    }
    if {$cudaenv_lmod} {
        setenv __LMOD_STACK_$var ""
    }
    setenv __CUDAENV_MODULE_$var ""
}
'''

_TCL_FLAGS = r'''
proc cudaenv_words {lists prior} {
    lassign $lists pre app
    # split on each single space, as `cudaenv use` does ("" has none)
    set words [expr {$prior eq "" ? {} : [split $prior " "]}]
    return [join [concat $pre $words $app] " "]
}

proc cudaenv_flags {var pre app} {
    cudaenv_set $var [list $pre $app] cudaenv_words
}
'''

_TCL_PATH = r'''
proc cudaenv_path {var pre app} {
    global cudaenv_unloading
    set rec __CUDAENV_MODULE_$var
    if {!$cudaenv_unloading && [cudaenv_get $var] eq [list 1 ""]} {
        setenv $rec empty
    }
    foreach e [lreverse $pre] {
        prepend-path $var $e
    }
    foreach e $app {
        append-path $var $e
    }
    if {$cudaenv_unloading && [lindex [cudaenv_get $rec] 0]} {
        if {[lindex [cudaenv_get $var] 1] eq ""} {
            # Unloading: unsetenv with a value sets that value (Environment Modules).
            unsetenv $var ""
        }
        setenv $rec ""
    }
}
'''

_TCL_CCBIN = r'''
# The host compiler goes in only when the user's own nvcc flags name none (-ccbin), as
# with `cudaenv use`; decided at load, remembered for unload.
proc cudaenv_user_ccbin {} {
    foreach var {NVCC_PREPEND_FLAGS NVCC_APPEND_FLAGS} {
        set w [regexp -all -inline {\S+} [lindex [cudaenv_get $var] 1]]
        for {set i 0} {$i < [llength $w]} {incr i} {
            set x [lindex $w $i]
            if {($x in {-ccbin --compiler-bindir} && $i + 1 < [llength $w])
                    || [string match -ccbin=* $x] || [string match --compiler-bindir=* $x]} {
                return 1
            }
        }
    }
    return 0
}
if {$cudaenv_unloading} {
    set cudaenv_own_ccbin [expr {[cudaenv_get __CUDAENV_MODULE_CCBIN] eq [list 1 1]}]
    setenv __CUDAENV_MODULE_CCBIN ""
} else {
    set cudaenv_own_ccbin [expr {![cudaenv_user_ccbin]}]
    setenv __CUDAENV_MODULE_CCBIN $cudaenv_own_ccbin
}
'''


def _tcl_list(entries) -> str:
    return "[list" + "".join(" " + tcl_quote(e) for e in entries) + "]"


def render_tcl(m: Module, driver_file: str = DRIVER_FILE) -> str:
    """The Tcl modulefile for ``m`` (Environment Modules 4 and 5, and Lmod)."""
    q = tcl_quote
    acts = _actions(m)
    lines = ["#%Module1.0"] + _header(m, "tcl", "#")
    if lmod_unsafe(m):
        why = (f"{MODULE}/{m.name}: Lmod cannot read this Tcl modulefile safely (its values hold a quote, "
               "backslash, bracket or non-ASCII character); for Lmod: cudaenv modulefiles --format lmod")
        lines += [
            "# Lmod's Tcl bridge (tcl2lua) would garble this toolkit's values: refuse clearly there.",
            'if {[info exists ModuleTool] && $ModuleTool eq "Lmod"} {',
            f"    error {q(why)}",
            "}",
            "",
        ]
    lines += ["proc ModulesHelp {} {", f"    puts stderr {q(_help(m))}", "}"]
    lines += [f"module-whatis {q(w)}" for w in _whatis(m)]
    lines.append(f"conflict {MODULE}")
    lines += [
        "",
        "# One switch at a time: a module loaded over `cudaenv use` (or under it) would give back the wrong values.",
        'if {[module-info mode] eq "load" && [info exists env(_CUDAENV_STATE)]} {',
        '    if {[info exists ModuleTool] && $ModuleTool eq "Lmod"} {',
        f"        error {q(_active_message(m))}",
        "    }",
        f"    puts stderr {q(_active_message(m))}",
        "    break",
        "}",
    ]
    for block in (_TCL_HELPERS, *(h for h, need in zip((_TCL_FLAGS, _TCL_PATH, _TCL_CCBIN),
                                                        _helpers_needed(m, acts)) if need)):
        lines += block.rstrip("\n").split("\n")
    has_stub = bool(m.stub_dir)
    if has_stub:
        lines.append("")
        if m.stubs == "always":
            lines += ["# The driver stub, last on the loader path (profile: stubs: always).",
                      f"set cudaenv_stub [list {q(m.stub_dir)}]"]
        else:
            lines += [
                "# The driver stub goes last on the loader path only where no NVIDIA driver is loaded",
                "# (decided on the node loading this module; with a driver it would break every CUDA call).",
                f"set cudaenv_stub [expr {{$cudaenv_unloading || ![file exists {q(driver_file)}] ? [list {q(m.stub_dir)}] : {{}}}}]",
            ]
    lines.append("")
    for act in acts:
        kind, var = act[0], act[1]
        if kind == "set":
            call = f"cudaenv_set {var} {q(act[2])}"  # valid_name() guarantees the names need no quoting
            lines.append(f"if {{$cudaenv_own_ccbin}} {{\n    {call}\n}}" if act[3] else call)
        elif kind == "flags":
            (pre, app), other = act[2], act[3]
            call = f"cudaenv_flags {var} {_tcl_list(pre)} {_tcl_list(app)}"
            if other is None:
                lines.append(call)
            elif other == ([], []):
                lines.append(f"if {{$cudaenv_own_ccbin}} {{\n    {call}\n}}")
            else:
                lines.append(f"if {{$cudaenv_own_ccbin}} {{\n    {call}\n}} else {{\n"
                             f"    cudaenv_flags {var} {_tcl_list(other[0])} {_tcl_list(other[1])}\n}}")
        else:
            app = _tcl_list(act[3])
            if has_stub and var == "LD_LIBRARY_PATH":
                app = f"[concat {app} $cudaenv_stub]"
                has_stub = False
            lines.append(f"cudaenv_path {var} {_tcl_list(act[2])} {app}")
    if has_stub:
        lines.append("cudaenv_path LD_LIBRARY_PATH [list] $cudaenv_stub")
    return "\n".join("\n".join(x.split("\n")) for x in lines) + "\n"


def render_rc(fmt: str, aliases: dict[str, list[str]]) -> str:
    """The ``.modulerc.lua``/``.modulerc`` giving the short names (Lmod: ``default`` only, see ``render_alias``)."""
    if fmt == "lmod":
        aliases = {t: [a for a in names if a == "default"] for t, names in aliases.items()}
        aliases = {t: names for t, names in aliases.items() if names}
        head = "written by `cudaenv modulefiles`: `module load cuda` loads the newest (cuda/12.4 and cuda/12 are files)."
    else:
        head = "written by `cudaenv modulefiles`: cuda/12.4 and cuda/12 name the newest 12.4.x and 12.x."
    mark = json.dumps({"format": fmt, "rc": True}, sort_keys=True)
    if fmt == "lmod":
        lines = [f"-- {head}", f"-- {_MARK}{mark}"]
        for target, names in aliases.items():
            args = ", ".join(lua_quote(a) for a in [f"{MODULE}/{target}"] + names)
            lines.append(f"module_version({args})")
    else:
        lines = ["#%Module1.0", f"# {head}", f"# {_MARK}{mark}"]
        for target, names in aliases.items():
            lines.append(" ".join(["module-version", tcl_quote(f"{MODULE}/{target}")] + [tcl_quote(a) for a in names]))
    return "\n".join(lines) + "\n"


def render_alias(alias: str, target: str, target_text: str) -> str:
    """The Lmod file ``cuda/<alias>``: ``cuda/<target>``'s own text under its short name.

    Lmod (8.6) resolves a ``module_version`` short name when loading but not when
    unloading or swapping (``module unload cuda/12.4`` matched nothing and exited 0):
    a module is found by the name it was loaded under. A file of its own under the
    short name is loaded, listed, unloaded and swapped under that name.
    """
    mark = json.dumps({"alias_of": target, "format": "lmod"}, sort_keys=True)
    body = target_text.split("\n", 2)[2]  # the target's two header lines go
    return (f"-- {MODULE}/{alias}: the newest here of its versions, a copy of {MODULE}/{target} under the name "
            f"people type (Lmod unloads and swaps a module by the name it was loaded under); "
            f"written by `cudaenv modulefiles --format lmod`.\n-- {_MARK}{mark}\n" + body)


# ---------------------------------------------------------------- planning


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
            if line.startswith(lead + _MARK):
                try:
                    data = json.loads(line[len(lead) + len(_MARK):])
                except ValueError:
                    return None
                return data if isinstance(data, dict) and data.get("format") in FORMATS else None
    return None


def _existing(cuda_dir: str, fmt: str, alias_files: list[str] | None = None) -> dict[str, dict]:
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
        if entry.startswith(_TMP_PREFIX):
            continue  # left by an interrupted run; never a module name
        path = os.path.join(cuda_dir, entry)
        is_rc = entry in _RC.values()
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
                f"{cuda_dir} holds {_LABEL[info['format']]} modulefiles from cudaenv; not mixing in {_LABEL[fmt]} ones",
                hint=f"use another --output directory, or --format {info['format']}",
                exit_code=2,
            )
        if is_rc:
            continue
        if "alias_of" in info:
            if alias_files is not None:
                alias_files.append(path)
            continue
        name = entry[:-4] if fmt == "lmod" and entry.endswith(".lua") else entry
        if all(isinstance(info.get(k), str) for k in ("root", "profile", "version")):
            found[name] = info
    return found


def _module_for(ctx: Context, prof: Profile, tk: Toolkit, name: str, output: str, notes: list[str]) -> Module:
    # The host compiler `use` would pick, chosen here (like `profile build` records it).
    cxx, why = host_compiler(ctx, prof, tk)
    if not cxx and why and prof.get("host_compiler") in (None, "auto"):
        notes.append(f"warning: {MODULE}/{name}: {why}")
    stub_dir = stub_target = None
    if tk["components"].get("stubs") and prof["stubs"] != "never":
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
    _check_text("toolkit path", tk["root"])
    for var, val in ops.set.items():
        _check_text(f"the value of {var}", val)
    for var, pre, app in _lists(ops):
        for e in pre + app:
            _check_text(f"the {var} entry", e)
    if stub_dir:
        _check_text("stub directory", stub_dir)
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
        raise CudaenvError("--output DIR is required (the directory to put on MODULEPATH)", exit_code=2)
    output = os.path.abspath(output)
    if os.path.exists(output) and not os.path.isdir(output):
        raise CudaenvError(f"--output {output} is not a directory", exit_code=2)
    notes: list[str] = []
    pairs = select_targets(ctx, list(targets), all_, verb="write", defaults=(), notes=notes)
    existing = _existing(os.path.join(output, MODULE), fmt)
    holder = {(v["root"], v["profile"]): n for n, v in existing.items()}
    final = {n: (v["version"], v["root"]) for n, v in existing.items()}
    taken = set(existing)
    modules: list[Module] = []
    for prof, tk in pairs:
        name = holder.get((tk["root"], prof["name"]))
        if name is None:
            base = module_name(prof["name"], tk["full_version"])
            if not _valid_module_name(base):
                raise CudaenvError(f"cannot name a module after {base!r}: use letters, digits and ._+-", exit_code=2)
            name, n = base, 2
            while name in taken:
                name, n = f"{base}-{n}", n + 1
        taken.add(name)
        mod = _module_for(ctx, prof, tk, name, output, notes)
        if fmt == "tcl" and lmod_unsafe(mod):
            notes.append(f"{MODULE}/{name}: Lmod cannot read this Tcl file safely (a quote, backslash, bracket or "
                         "non-ASCII character in its values) and refuses to load it; for Lmod write --format lmod")
        modules.append(mod)
        final[name] = (tk["full_version"], tk["root"])
    return modules, final, notes, output


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
    cuda_dir = os.path.join(output, MODULE)
    render = render_lua if fmt == "lmod" else render_tcl
    files = [(os.path.join(cuda_dir, m.name + (".lua" if fmt == "lmod" else "")), render(m, driver_file))
             for m in modules]
    rc_path = os.path.join(cuda_dir, _RC[fmt])
    aliases = _aliases(final, notes)
    files.append((rc_path, render_rc(fmt, aliases)))
    old_aliases: list[str] = []
    alias_paths: list[str] = []
    if fmt == "lmod":
        _existing(cuda_dir, fmt, old_aliases)
        texts = {os.path.basename(p)[:-4]: t for p, t in files[:-1]}
        for target, names in aliases.items():
            text = texts.get(target)
            if text is None:  # written by an earlier run: its file is the source
                src = os.path.join(cuda_dir, target + ".lua")
                try:
                    text = read_limited(src, _MAX_MODULE_BYTES, whole=True).decode("ascii")
                except OSError as exc:
                    raise CudaenvError(f"cannot read {src}: {exc.strerror or exc}") from None
                except ValueError as exc:
                    raise CudaenvError(f"cannot read {src}: {exc}") from None
            for alias in names:
                if alias != "default":
                    alias_paths.append(os.path.join(cuda_dir, alias + ".lua"))
                    files.append((alias_paths[-1], render_alias(alias, target, text)))
    umask = os.umask(0o022)
    os.umask(umask)
    staged: list[tuple[str, str]] = []
    current = output
    try:
        os.makedirs(cuda_dir, exist_ok=True)
        for path, text in files:
            current = path
            staged.append((stage_text(path, text, 0o666 & ~umask, prefix=_TMP_PREFIX, suffix=""), path))
        # One stub directory (and one wheel-toolkit link directory) per toolkit root, however many
        # profiles of it are written.
        links = {os.path.join(m.stub_dir, "libcuda.so.1"): m.stub_target for m in modules if m.stub_dir}
        links.update((os.path.join(m.dev_dir, n), t) for m in modules if m.dev_dir for n, t in m.dev_links)
        for link, target in links.items():
            d = os.path.dirname(link)
            current = link
            try:
                if os.readlink(link) == target:
                    continue
            except OSError:
                pass
            os.makedirs(d, exist_ok=True)
            tmp = os.path.join(d, f"{_TMP_PREFIX}{os.getpid()}-{os.path.basename(link)}")
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(target, tmp)
            staged.append((tmp, link))
    except OSError as exc:
        discard(staged)
        raise CudaenvError(f"cannot write {current}: {exc.strerror or exc}") from None
    # Only renames are left: each is atomic, and all follow a successful staging.
    commit(staged)
    for path in old_aliases:  # a short name that now goes to no module (or is a module's own name)
        if path not in alias_paths:
            try:
                os.unlink(path)
            except OSError as exc:
                notes.append(f"warning: cannot remove the old short-name file {path}: {exc.strerror}")
    return Written(modules, [p for p, _t in files[:len(modules)]], rc_path, notes, output, alias_paths)
