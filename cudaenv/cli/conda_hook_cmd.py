"""``cudaenv conda-hook install|remove``: switch CUDA when a conda environment is activated."""

from __future__ import annotations

import click

from .common import RawWords, exits, handles_errors, raw_words

__all__ = ["conda_hook_group"]

prefix_option = click.option(
    "--prefix", "-p", metavar="P",
    help="The conda environment (a directory holding conda-meta/). Default: $CONDA_PREFIX, the active one.",
)


@click.group("conda-hook")
def conda_hook_group() -> None:
    """Activation hooks for a conda environment (conda, mamba, micromamba, pixi).

    \b
    cudaenv conda-hook install 12.4 -p ~/miniforge3/envs/torch
        conda activate torch      -> as `cudaenv use 12.4`
        conda deactivate          -> CUDA exactly as it was before
    cudaenv conda-hook remove -p ~/miniforge3/envs/torch

    Writes etc/conda/activate.d/~~cudaenv.{sh,csh,fish} and the matching
    deactivate.d files. Deactivating an environment stacked on another
    (conda activate --stack) gives back the outer one's CUDA. A hook never
    exits your shell: if cudaenv is missing or fails it warns on stderr and
    changes nothing. Environments without hooks (and what conda sets
    itself) are left alone; `conda-hook remove` deletes only cudaenv's files.
    """


@conda_hook_group.command("install")
@click.argument("target")
@prefix_option
@handles_errors
def install_cmd(target: str, prefix: str | None) -> None:
    """Write hooks that run `cudaenv use TARGET` on activation and undo it on deactivation.

    TARGET is what `cudaenv use` takes (a profile, version, version prefix or
    toolkit path); it must resolve now and is resolved again at each
    activation, so `12.4` follows the newest 12.4.x installed. The hooks run
    the cudaenv found now (this command's path), and `cudaenv` on PATH if that
    one is gone. Existing cudaenv hooks are replaced; a file cudaenv did not
    write is never overwritten. Each write is atomic.
    """
    from ..commands.conda_hook import install

    exits(install(target, prefix))


@conda_hook_group.command("remove")
@prefix_option
@handles_errors
def remove_cmd(prefix: str | None) -> None:
    """Delete the hooks `conda-hook install` wrote (only files that carry its header)."""
    from ..commands.conda_hook import remove

    exits(remove(prefix))


def _hidden(name: str):
    @conda_hook_group.command(name, cls=RawWords, hidden=True, add_help_option=False,
                              context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def cmd(args: tuple[str, ...]) -> None:
        # What the hook files run; the same function answers without click from cudaenv.main.
        from ..commands.conda_hook import hook_main

        exits(hook_main([name, *raw_words()]))  # as typed: click's args lost the `--`

    return cmd


_hidden("_activate")
_hidden("_deactivate")
