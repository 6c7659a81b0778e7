"""Tcl modulefiles (``cuda/<name>``): Environment Modules 4 and 5, and Lmod through its Tcl bridge."""

from __future__ import annotations

import json

from ...errors import CudaenvError
from .base import Renderer
from .module import MARK, MODULE, active_message, header, help_text, lists, whatis

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .module import Module

__all__ = ["TCL", "Tcl", "tcl_quote", "lmod_unsafe"]


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
    paths = [m.root] + [e for _var, pre, app in lists(m.ops) for e in pre + app]
    if m.stub_dir:
        paths.append(m.stub_dir)
    values = list(m.ops.set.values())
    return (any('"' in t or "\\" in t for t in paths) or "]" in m.root
            or any(v != v.rstrip(" ") for v in values)
            or not all(t.isascii() for t in paths + values))


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


class Tcl(Renderer):
    """Tcl (Environment Modules; Lmod too, where its Tcl bridge can read the values)."""

    fmt = "tcl"
    label = "Tcl"
    rc_name = ".modulerc"
    suffix = ""
    helpers = (_TCL_HELPERS, _TCL_FLAGS, _TCL_PATH, _TCL_CCBIN)

    def quote(self, value: str) -> str:
        return tcl_quote(value)

    def head(self, m: Module) -> list[str]:
        q = tcl_quote
        lines = ["#%Module1.0"] + header(m, self.fmt, "#")
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
        lines += ["proc ModulesHelp {} {", f"    puts stderr {q(help_text(m))}", "}"]
        lines += [f"module-whatis {q(w)}" for w in whatis(m)]
        lines.append(f"conflict {MODULE}")
        lines += [
            "",
            "# One switch at a time: a module loaded over `cudaenv use` (or under it) would give back the wrong values.",
            'if {[module-info mode] eq "load" && [info exists env(_CUDAENV_STATE)]} {',
            '    if {[info exists ModuleTool] && $ModuleTool eq "Lmod"} {',
            f"        error {q(active_message(m))}",
            "    }",
            f"    puts stderr {q(active_message(m))}",
            "    break",
            "}",
        ]
        return lines

    def stub(self, m: Module, driver_file: str) -> list[str]:
        q = tcl_quote
        if m.stubs == "always":
            return ["# The driver stub, last on the loader path (profile: stubs: always).",
                    f"set cudaenv_stub [list {q(m.stub_dir)}]"]
        return [
            "# The driver stub goes last on the loader path only where no NVIDIA driver is loaded",
            "# (decided on the node loading this module; with a driver it would break every CUDA call).",
            f"set cudaenv_stub [expr {{$cudaenv_unloading || ![file exists {q(driver_file)}] ? [list {q(m.stub_dir)}] : {{}}}}]",
        ]

    def set_step(self, var: str, value: str, ccbin: bool) -> list[str]:
        call = f"cudaenv_set {var} {tcl_quote(value)}"  # valid_name() guarantees the names need no quoting
        return [f"if {{$cudaenv_own_ccbin}} {{\n    {call}\n}}" if ccbin else call]

    def flags_step(self, var, with_cxx, without):
        pre, app = with_cxx
        call = f"cudaenv_flags {var} {_tcl_list(pre)} {_tcl_list(app)}"
        if without is None:
            return [call]
        if without == ([], []):
            return [f"if {{$cudaenv_own_ccbin}} {{\n    {call}\n}}"]
        return [f"if {{$cudaenv_own_ccbin}} {{\n    {call}\n}} else {{\n"
                f"    cudaenv_flags {var} {_tcl_list(without[0])} {_tcl_list(without[1])}\n}}"]

    def path_step(self, var: str, pre: list[str], app: list[str], with_stub: bool) -> list[str]:
        if with_stub and not pre and not app:
            return [f"cudaenv_path {var} [list] $cudaenv_stub"]
        tail = f"[concat {_tcl_list(app)} $cudaenv_stub]" if with_stub else _tcl_list(app)
        return [f"cudaenv_path {var} {_tcl_list(pre)} {tail}"]

    def rc(self, aliases: dict[str, list[str]]) -> str:
        """``.modulerc``: ``cuda/12.4``, ``cuda/12`` and ``default`` as ``module-version`` names."""
        head = "written by `cudaenv modulefiles`: cuda/12.4 and cuda/12 name the newest 12.4.x and 12.x."
        mark = json.dumps({"format": self.fmt, "rc": True}, sort_keys=True)
        lines = ["#%Module1.0", f"# {head}", f"# {MARK}{mark}"]
        for target, names in aliases.items():
            lines.append(" ".join(["module-version", tcl_quote(f"{MODULE}/{target}")] + [tcl_quote(a) for a in names]))
        return "\n".join(lines) + "\n"

    def plan_notes(self, m: Module) -> list[str]:
        if not lmod_unsafe(m):
            return []
        return [f"{MODULE}/{m.name}: Lmod cannot read this Tcl file safely (a quote, backslash, bracket or "
                "non-ASCII character in its values) and refuses to load it; for Lmod write --format lmod"]


TCL = Tcl()
