"""``cudaenv modulefiles``: Lmod or Tcl modulefiles setting what ``use`` sets."""

from __future__ import annotations

import click

from .common import exits, handles_errors

__all__ = ["modulefiles_cmd"]


@click.command("modulefiles")
@click.argument("targets", nargs=-1)
@click.option("--format", "fmt", metavar="lmod|tcl",
              help="lmod: Lua files for Lmod. tcl: for Environment Modules (Lmod reads them only for plain ASCII paths).")
@click.option("--all", "all_", is_flag=True, help="One module per discovered toolkit, with its governing profile.")
@click.option("--output", "-o", metavar="DIR", help="The directory to put on MODULEPATH (files go to DIR/cuda/; default: `modulefiles:` in config.yaml).")
@handles_errors
def modulefiles_cmd(targets: tuple[str, ...], fmt: str | None, all_: bool, output: str | None) -> None:
    """Write modulefiles for TARGETS (versions, profiles, paths) or --all toolkits.

    Each module sets what `cudaenv use TARGET` sets, from the same profile.
    Then: module use DIR; module load cuda/12.4 (or cuda/12.4.1).

    \b
    Names     cuda/<full version>; another profile of the same toolkit is
              cuda/<version>-<profile>; a name held by another toolkit in DIR
              gets -2, -3 (re-runs keep each toolkit's name). cuda/12.4 and
              cuda/12 are the newest 12.4.x / 12.x, default the newest. Lmod:
              cuda/12.4 is a file of its own (unload/swap by the name typed).
    Switching Lmod swaps cuda/12.4 for cuda/11.8 on load (family "cuda");
              Environment Modules refuses (conflict cuda): module switch.
              A module refuses to load while a cudaenv profile is active.
    Flags     NVCC_PREPEND_FLAGS is computed at load as `use` does: split on
              single spaces, ours in front, yours word for word; -ccbin (and
              CUDAHOSTCXX) only when your flags name no -ccbin.
    Stubs     stubs: auto puts DIR/.cudaenv-stubs/<key> (libcuda.so.1) last on
              LD_LIBRARY_PATH only on a node without /proc/driver/nvidia/version,
              checked when the module is loaded; always/never as in the profile.
    Unload    takes the entries out; each variable gets back exactly what it
              held before load (unset, empty or a value; Lmod reading Tcl files
              gives an empty one back unset); one you changed since stays.
    """
    from ..commands.modulefiles import modulefiles

    exits(modulefiles(targets, all_, fmt, output))
