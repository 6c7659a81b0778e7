"""The click command-line interface (everything but the fast use/off path).

Building the group imports every ``*_cmd`` module, so each imports its driver in
``commands/`` inside the command function: any click command (``--help`` too)
then loads the ~45 modules click needs, not every command's (~110).
"""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import CudaenvError
from ..infra.console import GuardedStdout, report_error
from .cache_cmd import cache_group
from .check_cmd import check_cmd
from .conda_hook_cmd import conda_hook_group
from .config_cmd import config_cmd
from .doctor_cmd import doctor_cmd
from .exec_cmd import exec_cmd
from .explain_cmd import explain_cmd
from .fleet_cmd import fleet_cmd
from .init_cmd import init_cmd
from .kernel_cmd import kernel_group
from .install_cmd import install_cmd, uninstall_cmd
from .list_cmd import list_cmd
from .matrix_cmd import matrix_cmd
from .modulefiles_cmd import modulefiles_cmd
from .profile_cmd import profile_group
from .show_cmd import show_cmd
from .slurm_cmd import slurm_group
from .switch_cmds import off_cmd, use_cmd
from .verify_cmd import verify_cmd

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cudaenv")
def cli() -> None:
    """Live with several CUDA toolkits on one machine.

    \b
    Switch this shell:   eval "$(cudaenv use 12.4)"     (fish: cudaenv use 12.4 | source)
    Undo exactly:        eval "$(cudaenv off)"
    See what is here:    cudaenv list
    Shell integration:   eval "$(cudaenv init bash)"    (then: cudaenv use 12.4; TAB completes)
    """


cli.add_command(list_cmd)
cli.add_command(show_cmd)
cli.add_command(use_cmd)
cli.add_command(off_cmd)
cli.add_command(exec_cmd)
cli.add_command(kernel_group)
cli.add_command(profile_group)
cli.add_command(check_cmd)
cli.add_command(doctor_cmd)
cli.add_command(config_cmd)
cli.add_command(fleet_cmd)
cli.add_command(explain_cmd)
cli.add_command(init_cmd)
cli.add_command(verify_cmd)
cli.add_command(matrix_cmd)
cli.add_command(modulefiles_cmd)
cli.add_command(conda_hook_group)
cli.add_command(install_cmd)
cli.add_command(uninstall_cmd)
cli.add_command(slurm_group)
cli.add_command(cache_group)


def main(args: list[str]) -> int:
    """Run the click CLI; return its exit code (the caller exits)."""
    real = sys.stdout
    sys.stdout = GuardedStdout(real)  # click's own output (help, version) checked like ours
    try:
        rv = cli.main(args=args, prog_name="cudaenv", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except CudaenvError as exc:  # from a command without its own handler, or while printing
        return report_error(exc)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted!", err=True)
        return 1
    finally:
        if sys.stdout.__class__ is GuardedStdout:
            sys.stdout = real
    return rv if isinstance(rv, int) else 0
