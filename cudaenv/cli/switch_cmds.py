"""``cudaenv use`` and ``cudaenv off`` (the fast entry point handles plain forms)."""

from __future__ import annotations

import click

from ..main import do_off, do_use
from ..infra.console import note
from .common import shell_option
from .completion import complete_targets

__all__ = ["use_cmd", "off_cmd"]

FORMATS = ("shell", "json", "github", "dotenv")
format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="shell", show_default=True,
    help="shell: code for --shell/the detected shell; json: same as --shell json; github: append to "
         "$GITHUB_ENV/$GITHUB_PATH for the following Actions steps; dotenv: NAME=value lines "
         "(docker --env-file, GitLab dotenv). See docs/ci.md.",
)


def _formatted(fmt: str, shell: str | None, shell_fn, github_fn, dotenv_fn) -> int:
    """Run the command for ``fmt``; --shell goes only with the shell formats."""
    if fmt == "shell":
        return shell_fn(shell)
    if fmt == "json":
        if shell not in (None, "json"):
            note(f"--shell {shell} and --format json exclude each other")
            return 2
        return shell_fn("json")
    if shell is not None:
        note(f"--shell and --format {fmt} exclude each other")
        return 2
    return github_fn() if fmt == "github" else dotenv_fn()


tmux_option = click.option(
    "--tmux", is_flag=True,
    help="Also set the tmux session environment, so new windows and panes start this way "
         "(off --tmux gives it back exactly as it was).",
)


def _tmux_only_shell(fmt: str) -> int:
    note(f"--tmux and --format {fmt} exclude each other")
    return 2


@click.command("use")
@click.argument("target", required=False, shell_complete=complete_targets)
@shell_option
@format_option
@tmux_option
@click.option("--verify", "verify", is_flag=True,
              help="Refuse (exit 1, nothing on stdout) if the profile's last `cudaenv verify` failed.")
def use_cmd(target: str | None, shell: str | None, fmt: str, tmux: bool, verify: bool = False) -> None:
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
    """
    from ..outputs import dotenv, github

    if verify:
        _require_verified(target)
    if tmux:
        from ..tmux import do_use_tmux

        raise click.exceptions.Exit(_formatted(
            fmt, shell, lambda sh: do_use_tmux(target, sh), lambda: _tmux_only_shell(fmt), lambda: _tmux_only_shell(fmt)))
    raise click.exceptions.Exit(_formatted(
        fmt, shell, lambda sh: do_use(target, sh), lambda: github.do_use(target), lambda: dotenv.do_use(target)))


def _require_verified(target: str | None) -> None:
    """``use --verify``: stop here, with one stderr line, when the last verify failed."""
    from ..context import Context
    from ..errors import CudaenvError
    from ..infra.console import report_error
    from ..verify.cache import require_verified

    ctx = Context()
    try:
        msg = require_verified(ctx, target)
    except CudaenvError as exc:
        raise click.exceptions.Exit(report_error(exc)) from None
    finally:
        ctx.save()
    if msg:
        note(msg)


@click.command("off")
@shell_option
@format_option
@tmux_option
def off_cmd(shell: str | None, fmt: str, tmux: bool) -> None:
    """Print shell code that undoes the active profile exactly.

    Removes only cudaenv's own entries and restores every variable it
    overwrote (unset stays unset, empty stays empty); entries you added
    since are kept. --format github is refused: the runner cannot unset a
    variable or take a directory off PATH. --tmux also gives the tmux session
    environment back as it was before `use --tmux`.
    """
    from ..outputs import dotenv, github

    if tmux:
        from ..tmux import do_off_tmux

        raise click.exceptions.Exit(_formatted(
            fmt, shell, do_off_tmux, lambda: _tmux_only_shell(fmt), lambda: _tmux_only_shell(fmt)))
    raise click.exceptions.Exit(_formatted(
        fmt, shell, do_off, lambda: github.do_off(), lambda: dotenv.do_off()))
