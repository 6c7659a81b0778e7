"""``cudaenv use`` and ``cudaenv off`` (the fast entry point handles plain forms)."""

from __future__ import annotations

import click

from ..errors import CudaenvError
from .common import exits, handles_errors, shell_option
from .completion import complete_targets

__all__ = ["use_cmd", "off_cmd"]

#: ``--format`` values: shell = the --shell (or detected) shell's code.
FORMATS = ("shell", "json", "github", "dotenv")

format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="shell", show_default=True,
    help="shell: code for --shell/the detected shell; json: same as --shell json; github: append to "
         "$GITHUB_ENV/$GITHUB_PATH for the following Actions steps; dotenv: NAME=value lines "
         "(docker --env-file, GitLab dotenv). The runner cannot unset or take a PATH entry off, so "
         "off --format github is refused.",
)
tmux_option = click.option(
    "--tmux", is_flag=True,
    help="Also set the tmux session environment, so new windows and panes start this way "
         "(off --tmux gives it back exactly as it was).",
)


def output_name(shell: str | None, fmt: str = "shell", tmux: bool = False) -> str | None:
    """The registry name for ``--shell``/``--format``/``--tmux`` (None: detect the shell).

    Raises:
        CudaenvError: options that exclude each other.
    """
    if fmt == "shell":
        return shell
    if fmt == "json":
        if shell not in (None, "json"):
            raise CudaenvError(f"--shell {shell} and --format json exclude each other", exit_code=2)
        return "json"
    if shell is not None:
        raise CudaenvError(f"--shell and --format {fmt} exclude each other", exit_code=2)
    if tmux:
        raise CudaenvError(f"--tmux and --format {fmt} exclude each other", exit_code=2)
    return fmt


@click.command("use")
@click.argument("target", required=False, shell_complete=complete_targets)
@shell_option
@format_option
@tmux_option
@click.option("--verify", "verify", is_flag=True,
              help="Refuse (exit 1, nothing on stdout) if the profile's last `cudaenv verify` failed.")
@click.option("--match-torch", "match_torch", is_flag=True,
              help="Switch to the installed toolkit that fits the torch of the Python on PATH.")
@handles_errors
def use_cmd(target: str | None, shell: str | None, fmt: str, tmux: bool, verify: bool = False,
            match_torch: bool = False) -> None:
    """Print shell code that switches to TARGET.

    TARGET is a profile name, a version (12.4.1), a version prefix (12 =
    newest 12.x, 12.4 = newest 12.4.x) or a toolkit path. Without TARGET, the
    nearest .cuda-version file (here or above) names it.

    \b
    bash/zsh/sh:  eval "$(cudaenv use 12.4)"
    fish:         cudaenv use 12.4 | source
    tcsh/csh:     eval "`cudaenv use 12.4`"
    GitHub:       cudaenv use 12.4 --format github   (following steps)
    tmux:         cudaenv use 12.4 --tmux   (new panes too; after cudaenv init)
    torch:        eval "$(cudaenv use --match-torch)"   (also: `torch` in .cuda-version)
    """
    from ..commands.switch import do_use, use_target
    from ..commands.verify import require_verified

    target = use_target(target, match_torch)
    if verify:
        require_verified(target)
    name = output_name(shell, fmt, tmux)
    if tmux:
        from ..commands.tmux import do_use_tmux

        exits(do_use_tmux(target, name))
    exits(do_use(target, name))


@click.command("off")
@shell_option
@format_option
@tmux_option
@handles_errors
def off_cmd(shell: str | None, fmt: str, tmux: bool) -> None:
    """Print shell code that undoes the active profile exactly.

    Removes only cudaenv's own entries and restores every variable it
    overwrote (unset stays unset, empty stays empty); entries you added
    since are kept. --format github is refused: the runner cannot unset a
    variable or take a directory off PATH. --tmux also gives the tmux session
    environment back as it was before `use --tmux`.
    """
    from ..commands.switch import do_off

    name = output_name(shell, fmt, tmux)
    if tmux:
        from ..commands.tmux import do_off_tmux

        exits(do_off_tmux(name))
    exits(do_off(name))
