"""``cudaenv modulefiles``: Lmod or Tcl modulefiles that set what ``use`` sets."""

from __future__ import annotations

import shlex

from ..context import Context
from ..infra.console import note, write_out
from ..outputs.modulefiles import MODULE, write_modulefiles

__all__ = ["modulefiles"]


def modulefiles(targets: tuple[str, ...] | list[str], all_: bool, fmt: str | None, output: str | None) -> int:
    """Write the modulefiles (see ``outputs/modulefiles/``); say where they went and how to use them."""
    ctx = Context()
    try:
        # A site's config may name the directory once for everyone (`modulefiles:`, beside its store).
        done = write_modulefiles(ctx, list(targets), all_, fmt, output or ctx.config().get("modulefiles"))
    finally:
        ctx.save()
    for n in done.notes:
        note(n)
    lines = [f"wrote    {path}  (CUDA {m.full_version} at {m.root}, profile {m.profile})"
             for m, path in zip(done.modules, done.paths)]
    lines.append(f"wrote    {done.rc_path}  (short names)")
    lines += [f"wrote    {path}  (short name)" for path in done.alias_paths]
    write_out("".join(line + "\n" for line in lines))
    first = done.modules[0].name if done.modules else "<version>"
    note(f"to use them: module use {shlex.quote(done.output)}; module load {MODULE}/{first}")
    return 0
