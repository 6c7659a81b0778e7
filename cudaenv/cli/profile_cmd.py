"""``cudaenv profile``: build, list and show the editable profiles."""

from __future__ import annotations

import os

import click

from ..context import Context
from ..infra.console import note
from ..errors import CudaenvError
from ..profiles.model import default_profile, generated_name
from ..profiles.files import dump, write_atomic
from ..switch import host_compiler, resolve_target
from .common import echo_json, handles_errors, json_option

__all__ = ["profile_group"]


@click.group("profile")
def profile_group() -> None:
    """Editable per-toolkit profiles (YAML in $XDG_CONFIG_HOME/cudaenv/profiles)."""


@profile_group.command("build")
@click.argument("targets", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="One profile per discovered toolkit.")
@click.option("--force", is_flag=True, help="Overwrite existing profile files.")
@handles_errors
def build_cmd(targets: tuple[str, ...], all_: bool, force: bool) -> None:
    """Write profiles for TARGETS (versions or paths), --all toolkits, or the default one."""
    ctx = Context()
    toolkits, _ = ctx.scan()
    if all_:
        chosen = list(toolkits)
    elif targets:
        chosen = [resolve_target(ctx, t)[1] for t in targets]
    else:
        chosen = [t for t in toolkits if t["default"]]
        if not chosen:
            raise CudaenvError("no default toolkit (/usr/local/cuda); name one or pass --all", exit_code=2)
    if not chosen:
        raise CudaenvError("no CUDA toolkit found; nothing to build", exit_code=1)
    profiles, _ = ctx.profiles()
    taken = {p["name"] for p in profiles}
    for tk in chosen:
        prof = default_profile(tk)
        name = generated_name(tk)
        path = os.path.join(ctx.profiles_dir, f"{name}.yaml")
        owner = next((p for p in profiles if p["name"] == name), None)
        if owner is not None and os.path.realpath(owner["root"]) != tk["root"]:
            # Same version at another root: keep both, numbered.
            n = 2
            while f"{name}-{n}" in taken:
                n += 1
            name = f"{name}-{n}"
            prof["name"] = name
            path = os.path.join(ctx.profiles_dir, f"{name}.yaml")
        taken.add(name)
        if not tk["components"].get("stubs"):
            _generate_stub(ctx, tk)
        if os.path.exists(path) and not force:
            click.echo(f"kept     {path} (exists; --force overwrites)")
            continue
        cxx, why = host_compiler(ctx, prof, tk)
        if cxx:
            # Record the choice so the user sees it and can change it.
            prof["host_compiler"] = cxx
        write_atomic(path, dump(prof))
        click.echo(f"wrote    {path}" + (f"  (host compiler {cxx}: {why})" if cxx else ""))
        if why and not cxx:
            note(f"warning: {why}")
    ctx.save()


def _generate_stub(ctx: Context, tk: dict) -> None:
    """A toolkit without lib64/stubs gets a generated libcuda.so, which `use` puts on LIBRARY_PATH."""
    from ..toolkit.stubgen import StubError, ensure_stub

    try:
        info = ensure_stub(ctx.cache_dir, tk, ctx.env)
    except StubError as exc:
        note(f"warning: CUDA {tk['full_version']} has no libcuda stub and generating one failed: {exc.message}")
        return
    if info["generated"]:
        click.echo(f"stub     {info['path']} (for -lcuda: {info['symbols']} driver entry points from "
                   f"{tk['root']}'s cuda.h)")


@profile_group.command("list")
@json_option
@handles_errors
def list_profiles(as_json: bool) -> None:
    """List profile files (invalid ones are reported on stderr)."""
    ctx = Context()
    profiles, bad = ctx.profiles()
    ctx.save()
    for path, err in bad:
        note(err)
    if as_json:
        echo_json({
            "profiles": [{k: p.get(k) for k in ("name", "root", "version", "stubs", "file")} for p in profiles],
            "invalid": [{"file": f, "error": e} for f, e in bad],
        })
        return
    if not profiles:
        note(f"no profiles in {ctx.profiles_dir} (`cudaenv profile build --all` writes them)")
    for p in profiles:
        click.echo(f"{p['name']}  {p['root']}  ({p['file']})")


@profile_group.command("show")
@click.argument("target")
@handles_errors
def show_profile(target: str) -> None:
    """Print the profile YAML that governs TARGET (the built-in default if none is written)."""
    ctx = Context()
    profile, tk = resolve_target(ctx, target)
    ctx.save()
    click.echo(dump(profile), nl=False)


@profile_group.command("path")
def path_cmd() -> None:
    """Print the directory holding profile files."""
    click.echo(Context().profiles_dir)


