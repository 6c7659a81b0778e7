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
* **Stubs.** ``LIBRARY_PATH`` gets the toolkit's stubs directory (link time,
  harmless anywhere). The runtime stub, per the profile's ``stubs``: ``auto``
  (the default) and ``never`` (or a toolkit without ``lib64/stubs/libcuda.so``)
  add nothing to ``LD_LIBRARY_PATH``, so a module loaded on a driverless login
  node carries no stub into jobs on GPU nodes (issue 17); ``always`` appends the
  stub directory last to ``LD_LIBRARY_PATH``; ``driverless`` decides at *load*
  time, on the node loading the module: only when ``/proc/driver/nvidia/version``
  does not exist. The directory (``libcuda.so.1`` -> the toolkit's stub) is
  ``DIR/.cudaenv-stubs/<key>``, beside the modulefiles rather than in the
  user's cache, so other nodes and users see it. Unlike ``use``'s node-local
  directory it exists on every node that mounts DIR: a module cannot make a
  link when it loads, so these two policies are for build hosts only (the help
  text says so).
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

The rooms: ``module`` (the :class:`Module` record, names, what a module does
variable by variable), ``base`` (:class:`~.base.Renderer`, one object per format,
as ``shells/`` has one per family), ``lua`` and ``tcl`` (the two formats),
``formats`` (the renderers by ``--format`` name), ``plan`` (resolving, naming,
reading DIR) and ``write`` (staging and renaming).
"""

from __future__ import annotations

from .formats import RENDERERS
from .lua import LUA, lua_quote
from .module import DRIVER_FILE, FORMATS, MODULE, STUBS_DIR, Module, Written, module_name, short_names
from .plan import plan_modulefiles
from .tcl import TCL, lmod_unsafe, tcl_quote
from .write import write_modulefiles

__all__ = [
    "FORMATS", "MODULE", "DRIVER_FILE", "STUBS_DIR", "RENDERERS", "Module", "Written", "lua_quote", "tcl_quote",
    "module_name", "short_names", "lmod_unsafe", "render_lua", "render_tcl", "render_rc", "render_alias",
    "plan_modulefiles", "write_modulefiles",
]


def render_lua(m: Module, driver_file: str = DRIVER_FILE) -> str:
    """The Lmod modulefile for ``m``."""
    return LUA.render(m, driver_file)


def render_tcl(m: Module, driver_file: str = DRIVER_FILE) -> str:
    """The Tcl modulefile for ``m`` (Environment Modules 4 and 5, and Lmod)."""
    return TCL.render(m, driver_file)


def render_rc(fmt: str, aliases: dict[str, list[str]]) -> str:
    """The ``.modulerc.lua``/``.modulerc`` giving the short names (Lmod: ``default`` only, see ``render_alias``)."""
    return RENDERERS[fmt].rc(aliases)


def render_alias(alias: str, target: str, target_text: str) -> str:
    """The Lmod file ``cuda/<alias>``: ``cuda/<target>``'s own text under its short name."""
    return LUA.alias(alias, target, target_text)
