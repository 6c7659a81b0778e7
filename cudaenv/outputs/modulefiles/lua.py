"""Lmod's format: Lua modulefiles (``cuda/<name>.lua``), and a file of its own per short name.

Lmod (8.6) resolves a ``module_version`` short name when loading but not when unloading
or swapping, so ``cuda/12.4.lua`` is a copy of its target (:meth:`Lua.alias`) and the rc
file keeps only ``default``.
"""

from __future__ import annotations

import json

from .base import Renderer
from .module import MARK, MODULE, active_message, header, help_text, whatis

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .module import Module

__all__ = ["LUA", "Lua", "lua_quote"]


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


class Lua(Renderer):
    """Lmod (Lua)."""

    fmt = "lmod"
    label = "Lmod (Lua)"
    rc_name = ".modulerc.lua"
    suffix = ".lua"
    helpers = (_LUA_HELPERS, _LUA_FLAGS, _LUA_PATH, _LUA_CCBIN)
    alias_files = True

    def quote(self, value: str) -> str:
        return lua_quote(value)

    def head(self, m: Module) -> list[str]:
        q = lua_quote
        lines = header(m, self.fmt, "--")
        lines.append(f"help({q(help_text(m))})")
        lines += [f"whatis({q(w)})" for w in whatis(m)]
        lines.append(f"family({q(MODULE)})")
        lines += [
            "",
            "-- One switch at a time: a module loaded over `cudaenv use` (or under it) would give back the wrong values.",
            'if mode() == "load" and os.getenv("_CUDAENV_STATE") then',
            f"    LmodError({q(active_message(m))})",
            "end",
        ]
        return lines

    def stub(self, m: Module, driver_file: str) -> list[str]:
        q = lua_quote
        if m.stubs == "always":
            return ["-- The driver stub, last on the loader path (profile: stubs: always).",
                    f"local stub = {q(m.stub_dir)}"]
        return [
            "-- The driver stub goes last on the loader path only where no NVIDIA driver is loaded",
            "-- (decided on the node loading this module; with a driver it would break every CUDA call).",
            f"local stub = (unloading or not isFile({q(driver_file)})) and {q(m.stub_dir)} or nil",
        ]

    def set_step(self, var: str, value: str, ccbin: bool) -> list[str]:
        call = f"set_var({lua_quote(var)}, {lua_quote(value)})"
        return [f"if own_ccbin then {call} end" if ccbin else call]

    def flags_step(self, var, with_cxx, without):
        (pre, app), q = with_cxx, lua_quote
        call = f"flags({q(var)}, {_lua_list(pre)}, {_lua_list(app)})"
        if without is None:
            return [call]
        if without == ([], []):
            return [f"if own_ccbin then {call} end"]
        return [f"if own_ccbin then {call}",
                f"else flags({q(var)}, {_lua_list(without[0])}, {_lua_list(without[1])}) end"]

    def path_step(self, var: str, pre: list[str], app: list[str], with_stub: bool) -> list[str]:
        tail = _lua_list(app)
        if with_stub:
            tail = tail[:-1] + (", stub}" if app else "stub}")
        return [f"path({lua_quote(var)}, {_lua_list(pre)}, {tail})"]

    def rc(self, aliases: dict[str, list[str]]) -> str:
        """``.modulerc.lua``: ``default`` only (``cuda/12.4`` and ``cuda/12`` are files, see :meth:`alias`)."""
        aliases = {t: [a for a in names if a == "default"] for t, names in aliases.items()}
        aliases = {t: names for t, names in aliases.items() if names}
        head = "written by `cudaenv modulefiles`: `module load cuda` loads the newest (cuda/12.4 and cuda/12 are files)."
        mark = json.dumps({"format": self.fmt, "rc": True}, sort_keys=True)
        lines = [f"-- {head}", f"-- {MARK}{mark}"]
        for target, names in aliases.items():
            args = ", ".join(lua_quote(a) for a in [f"{MODULE}/{target}"] + names)
            lines.append(f"module_version({args})")
        return "\n".join(lines) + "\n"

    def short_name_files(self, names: list[str]) -> list[str]:
        return [a for a in names if a != "default"]

    def alias(self, alias: str, target: str, target_text: str) -> str:
        """The Lmod file ``cuda/<alias>``: ``cuda/<target>``'s own text under its short name.

        Lmod (8.6) resolves a ``module_version`` short name when loading but not when
        unloading or swapping (``module unload cuda/12.4`` matched nothing and exited 0):
        a module is found by the name it was loaded under. A file of its own under the
        short name is loaded, listed, unloaded and swapped under that name.
        """
        mark = json.dumps({"alias_of": target, "format": self.fmt}, sort_keys=True)
        body = target_text.split("\n", 2)[2]  # the target's two header lines go
        return (f"-- {MODULE}/{alias}: the newest here of its versions, a copy of {MODULE}/{target} under the name "
                f"people type (Lmod unloads and swaps a module by the name it was loaded under); "
                f"written by `cudaenv modulefiles --format lmod`.\n-- {MARK}{mark}\n" + body)


LUA = Lua()
