"""What every modulefile format is (:class:`Renderer`): one object per format, as ``shells/`` has one per family.

A renderer knows its module system's language: how to quote, its file names, the
helpers (Lua functions, Tcl procs) that apply ``use``'s rules at load, one line per
step of :func:`~.module.actions`, the short-name rc file, and any files of its own
for the short names. :meth:`Renderer.render` puts one modulefile together in the same
order for every format; the subclasses fill in the pieces.
"""

from __future__ import annotations

from .module import DRIVER_FILE, actions, helpers_needed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .module import Module

__all__ = ["Renderer"]


class Renderer:
    """One modulefile format.

    Attributes:
        fmt: The ``--format`` name (``lmod``, ``tcl``), also the marker's ``format``.
        label: Its name in messages.
        rc_name: The short-name file in ``DIR/cuda``.
        suffix: Appended to a module's name to make its file name.
        helpers: The helper blocks: (always, for flag lists, for path lists, for the host compiler).
        alias_files: Short names get files of their own (:meth:`short_name_files`, :meth:`alias`).
    """

    fmt = ""
    label = ""
    rc_name = ""
    suffix = ""
    helpers: tuple[str, str, str, str] = ("", "", "", "")
    alias_files = False

    def quote(self, value: str) -> str:
        """A string literal of this language for ``value``."""
        raise NotImplementedError

    def file_name(self, name: str) -> str:
        """The file of module ``name`` in ``DIR/cuda``."""
        return name + self.suffix

    def module_name_of(self, entry: str) -> str:
        """The module name of the file ``entry`` in ``DIR/cuda`` (the inverse of :meth:`file_name`)."""
        return entry[:-len(self.suffix)] if self.suffix and entry.endswith(self.suffix) else entry

    # -- one modulefile, in the same order for every format

    def render(self, m: Module, driver_file: str = DRIVER_FILE) -> str:
        """The modulefile for ``m``: header, help, the active-profile guard, helpers, stub, then one step per action."""
        acts = actions(m)
        lines = self.head(m)
        for block, need in zip(self.helpers, (True, *helpers_needed(m, acts))):
            if need:
                lines += block.rstrip("\n").split("\n")
        if m.stub_dir:
            lines.append("")
            lines += self.stub(m, driver_file)
        lines.append("")
        stub_left = bool(m.stub_dir)
        for act in acts:
            kind, var = act[0], act[1]
            if kind == "set":
                lines += self.set_step(var, act[2], act[3])
            elif kind == "flags":
                lines += self.flags_step(var, act[2], act[3])
            else:
                with_stub = stub_left and var == "LD_LIBRARY_PATH"
                stub_left = stub_left and not with_stub
                lines += self.path_step(var, act[2], act[3], with_stub)
        if stub_left:
            lines += self.path_step("LD_LIBRARY_PATH", [], [], True)
        return "\n".join(lines) + "\n"

    def head(self, m: Module) -> list[str]:
        """Everything before the helpers: header and marker, help, whatis, and the active-profile guard."""
        raise NotImplementedError

    def stub(self, m: Module, driver_file: str) -> list[str]:
        """Decide the loader-path stub (``stubs: always``, or at load time for ``driverless``)."""
        raise NotImplementedError

    def set_step(self, var: str, value: str, ccbin: bool) -> list[str]:
        """Set ``var`` (``ccbin``: only when the host compiler goes in)."""
        raise NotImplementedError

    def flags_step(self, var: str, with_cxx: tuple[list[str], list[str]],
                   without: tuple[list[str], list[str]] | None) -> list[str]:
        """An nvcc flag list: (prepends, appends) with the host compiler, and without (None: the same)."""
        raise NotImplementedError

    def path_step(self, var: str, pre: list[str], app: list[str], with_stub: bool) -> list[str]:
        """A ``:`` list (``with_stub``: the loader-path stub goes last)."""
        raise NotImplementedError

    # -- the files beside the modules

    def rc(self, aliases: dict[str, list[str]]) -> str:
        """The rc file giving the short names ({target module: [aliases]})."""
        raise NotImplementedError

    def short_name_files(self, names: list[str]) -> list[str]:
        """Which of one module's short names get a file of their own (``cuda/<alias>``, a copy of the target's)."""
        return []

    def alias(self, alias: str, target: str, target_text: str) -> str:
        """The text of such a file."""
        raise NotImplementedError

    def plan_notes(self, m: Module) -> list[str]:
        """Notes to give when writing ``m`` in this format (default: none)."""
        return []
