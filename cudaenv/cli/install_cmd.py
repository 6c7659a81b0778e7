"""``cudaenv install`` and ``cudaenv uninstall``: thin click over commands/install.py."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option

__all__ = ["install_cmd", "uninstall_cmd"]


@click.command("install")
@click.argument("version", required=False)
@click.option("--parts", default="build", show_default=True, metavar="build|runtime|full|NAME,…",
              help="What to install: build (compile and link, torch extensions), runtime (shared "
                   "libraries), full (everything but the driver), or component names, comma-separated.")
@click.option("--prefix", metavar="DIR", help="Install here (default: $XDG_DATA_HOME/cudaenv/toolkits/cuda-X.Y.Z).")
@click.option("--source", "sources", multiple=True, metavar="nvidia|pypi|DIR|URL",
              help="Where to get it (repeatable, tried in order). Default: config's `sources:`, "
                   "else NVIDIA's redist site, then the package indexes pip uses.")
@click.option("--list", "list_", is_flag=True, help="List the versions the sources offer and which are installed.")
@click.option("--dry-run", is_flag=True,
              help="Show what would be downloaded (each file, its size, whether it is cached); install nothing.")
@click.option("--download-only", metavar="DIR",
              help="Download into DIR as a mirror in NVIDIA's redist format (another machine installs from it "
                   "with --source DIR); install nothing.")
@click.option("--verify", is_flag=True, help="Run `cudaenv verify` on the installed toolkit.")
@click.option("--force", is_flag=True, help="Reinstall over a toolkit cudaenv installed before.")
@click.option("--quiet", "-q", is_flag=True, help="No progress and no notes: only the toolkit's root (stdout) and errors.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=4, show_default=True, metavar="N",
              help="Parallel downloads.")
@click.option("--with", "with_", metavar="cudnn[=9.x],nccl[=2.y]",
              help="Add-ons for the toolkit's CUDA major, from NVIDIA's wheels (listed in its profile; an "
                   "installed toolkit gets just the add-ons).")
@click.option("--plan", "plan_only", is_flag=True,
              help="Print what would be fetched (every file or member and its sha256) and the cache key; "
                   "install nothing. With --json: the document CI keys its cache on.")
@click.option("--whole-files", is_flag=True,
              help="Fetch whole files only, each checked against the index's sha256 (no byte ranges).")
@click.option("--offline", is_flag=True,
              help="Ask no source: install the plan this request left in the download cache, from the cache.")
@json_option
@handles_errors
def install_cmd(version: str | None, parts: str, prefix: str | None, sources: tuple[str, ...], list_: bool,
                dry_run: bool, download_only: str | None, verify: bool, force: bool, jobs: int, with_: str | None,
                plan_only: bool, whole_files: bool, offline: bool, as_json: bool, quiet: bool) -> None:
    """Install CUDA VERSION (13.5, 13.5.0, 12) without root, only the parts you need.

    \b
    Every file is checked against its published sha256 and kept in a download
    cache (resumed after an interruption). The toolkit is assembled in a hidden
    staging directory and renamed into place at the end: an interrupted install
    leaves nothing. `cudaenv list` and `use` find it; a profile is written.
    """
    from ..commands.install import install, list_available

    if list_:
        if version:
            raise click.UsageError("--list takes no VERSION")
        exits(list_available(sources, as_json))
    if not version:
        raise click.UsageError("missing VERSION (or --list)")
    if with_ is not None and (dry_run or plan_only or offline or download_only is not None):
        raise click.UsageError("--with does not combine with --dry-run, --plan, --offline or --download-only yet")
    if download_only is not None:
        from ..commands.install import download_only as mirror

        if prefix or verify or dry_run or plan_only or offline:
            raise click.UsageError("--download-only installs nothing: no --prefix, --verify, --dry-run, --plan or --offline")
        exits(mirror(version, download_only, parts, sources, jobs, quiet))
    if with_ is not None:
        from ..commands.addons import install_with

        exits(install_with(version, with_, parts, prefix, sources, verify, jobs, force, quiet))
    exits(install(version, parts, prefix, sources, verify, jobs, force, quiet, dry_run=dry_run, plan_only=plan_only,
                  as_json=as_json, whole_files=whole_files, offline=offline))


@click.command("uninstall")
@click.argument("target")
@handles_errors
def uninstall_cmd(target: str) -> None:
    """Remove a toolkit `cudaenv install` installed (VERSION or PATH)."""
    from ..commands.install import uninstall

    exits(uninstall(target))
