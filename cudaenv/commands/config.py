"""``cudaenv config``: the effective settings and the file each came from (site layers, then the user's)."""

from __future__ import annotations

from ..context import Context
from ..infra.console import printable, write_out

__all__ = ["show_config"]


def show_config() -> int:
    """Print each effective setting with its origin, then every file considered and what became of it."""
    ctx = Context()
    layered = ctx.config_layers()
    lines = []
    for key in sorted(layered.values):
        value = layered.values[key]
        if isinstance(value, dict):  # profile: stubs=never, build.max_jobs=8
            shown = ", ".join(f"{k}.{b}={w}" if isinstance(v, dict) else f"{k}={v}"
                              for k, v in value.items() for b, w in (v.items() if isinstance(v, dict) else [(None, v)]))
        else:
            shown = ", ".join(value) if isinstance(value, list) else value
        lines.append(f"{key}: {shown or '(none)'}    (from {layered.origins[key]})")
    if not lines:
        lines.append("no settings: every key has its default")
    lines.append("files, lowest first (a later one wins key by key):")
    lines += [f"  {path}: {state}" for path, state in layered.layers]
    ctx.save()
    write_out("".join(printable(line) + "\n" for line in lines))
    return 0
