"""``cudaenv show``: what ``use`` would set, for people."""

from __future__ import annotations

import click

from ..context import Context
from ..errors import CudaenvError
from ..profiles.pin import find_pin
from ..switch import active_profile, resolve_target, stub_dir, use_ops
from .common import echo_json, handles_errors, json_option
from .completion import complete_targets

__all__ = ["show_cmd"]


@click.command("show")
@click.argument("target", required=False, shell_complete=complete_targets)
@json_option
@handles_errors
def show_cmd(target: str | None, as_json: bool) -> None:
    """Show what `use TARGET` would set (default: .cuda-version, else the active profile)."""
    ctx = Context()
    if not target:
        pin = find_pin(ctx.cwd)
        if pin:
            target = pin[1]
        else:
            act = active_profile(ctx)
            if act is None:
                raise CudaenvError("name a profile or version (nothing is active and no .cuda-version here)", exit_code=2)
            target = act["name"]
    profile, tk = resolve_target(ctx, target)
    sdir = stub_dir(ctx, profile, tk)
    ops = use_ops(ctx, profile, tk)
    ctx.save()
    if as_json:
        echo_json({
            "profile": profile["name"],
            "file": profile.get("file"),
            "root": tk["root"],
            "version": tk["full_version"],
            "stubs": profile["stubs"],
            "stubs_on_loader_path": sdir is not None,
            **ops.to_dict(),
        })
        return
    src = profile.get("file") or "built-in default (no profile file; `cudaenv profile build` writes one)"
    click.echo(f"profile  {profile['name']}  ({src})")
    click.echo(f"toolkit  CUDA {tk['full_version']} at {tk['root']}  (version from {tk['version_source']})")
    for var, val in ops.set.items():
        click.echo(f"  set      {var}={val}")
    for var, entries in ops.prepend.items():
        for e in entries:
            click.echo(f"  prepend  {var} <- {e}")
    for var, entries in ops.append.items():
        for e in entries:
            click.echo(f"  append   {var} <- {e}")
    if not tk["components"].get("stubs"):
        click.echo("stubs    none: the toolkit has no lib64/stubs/libcuda.so (`-lcuda` cannot link through it)")
        return
    why = {"auto": "no NVIDIA driver found on this host" if sdir else "an NVIDIA driver is present",
           "always": "the profile says always", "never": "the profile says never"}[profile["stubs"]]
    where = "LIBRARY_PATH, and last on LD_LIBRARY_PATH" if sdir else "LIBRARY_PATH only"
    click.echo(f"stubs    {profile['stubs']}: {where} ({why})")
