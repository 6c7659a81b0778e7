"""``cudaenv init``: the shell function (the plain forms run without click, see main.py)."""

from __future__ import annotations

import click

from ..shells import INIT_SHELLS
from ..commands.init import do_init

__all__ = ["init_cmd"]


def _complete_shells(_ctx, _param, incomplete: str) -> list:
    from click.shell_completion import CompletionItem

    return [CompletionItem(s) for s in INIT_SHELLS if s.startswith(incomplete)]


@click.command("init")
# Any word: do_init refuses the others with one line, as the fast form does (not a click.Choice).
@click.argument("shell", required=False, metavar="[SHELL]", shell_complete=_complete_shells)
@click.option("--auto", is_flag=True,
              help="Also follow .cuda-version: switch on entering a pinned directory, back on leaving.")
def init_cmd(shell: str | None, auto: bool) -> None:
    """Print the shell integration: `cudaenv use/off` then change the shell itself.

    Defines a `cudaenv` function (tcsh: an alias) that evaluates `use` and
    `off` and runs every other subcommand as usual, plus tab completion of
    commands, options and `use` targets. SHELL (bash, zsh, fish, tcsh) defaults to the one detected.

    \b
    bash  ~/.bashrc:                   eval "$(cudaenv init bash)"
    zsh   ~/.zshrc (after compinit):   eval "$(cudaenv init zsh)"
    fish  ~/.config/fish/config.fish:  cudaenv init fish | source
    tcsh  ~/.tcshrc:                   eval "`cudaenv init tcsh`"

    With --auto, entering a directory with a .cuda-version (or below one)
    switches to it, moving to another pinned project switches again, and
    leaving goes back to what was active before. The hook runs no process
    unless the nearest .cuda-version changed.
    """
    raise click.exceptions.Exit(do_init(shell, auto))
