"""``cudaenv kernel install|remove|list``: Jupyter kernels under a profile."""

from __future__ import annotations

import click

from .common import exits, handles_errors, json_option
from .completion import complete_targets

__all__ = ["kernel_group"]


@click.group("kernel")
def kernel_group() -> None:
    """Jupyter kernels that start with a profile's environment.

    A notebook kernel does not inherit a shell's switch. The kernelspec
    runs PYTHON's ipykernel through `cudaenv exec TARGET`, so every kernel
    start gets exactly what `cudaenv use TARGET` gives.
    """


@kernel_group.command("install")
@click.argument("target", shell_complete=complete_targets)
@click.option("--python", "python", metavar="PY",
              help="The kernel's interpreter (needs ipykernel). Default: the active virtualenv or conda "
                   "env's, else python3 on PATH.")
@click.option("--name", metavar="N", help="Kernelspec name (default: cudaenv-<profile>).")
@click.option("--display-name", "display", metavar="TEXT",
              help='Name shown in Jupyter (default: "Python 3 (CUDA 12.4)").')
@click.option("--user", "where", flag_value="user", default=True,
              help="Into your Jupyter data dir ($JUPYTER_DATA_DIR, else ~/.local/share/jupyter) [default].")
@click.option("--sys-prefix", "where", flag_value="sys-prefix",
              help="Into the kernel python's environment (PREFIX/share/jupyter/kernels).")
@click.option("--prefix", metavar="DIR", help="Into DIR/share/jupyter/kernels.")
@handles_errors
def kernel_install_cmd(target: str, python: str | None, name: str | None, display: str | None, where: str,
                       prefix: str | None) -> None:
    """Write a kernelspec that runs a Python kernel under TARGET.

    \b
    cudaenv kernel install 12.4
    cudaenv kernel install 11.8 --python ~/venvs/tf/bin/python --name tf-cuda118
    """
    from ..commands.kernel import kernel_install
    from ..errors import CudaenvError

    if prefix is not None:
        if where == "sys-prefix":
            raise CudaenvError("--prefix and --sys-prefix exclude each other", exit_code=2)
        where = "prefix"
    exits(kernel_install(target, python, name, display, where, prefix))


@kernel_group.command("remove")
@click.argument("names", nargs=-1, required=True, metavar="NAME|TARGET...")
@click.option("--prefix", metavar="DIR", help="Also look in DIR/share/jupyter/kernels.")
@handles_errors
def kernel_remove_cmd(names: tuple[str, ...], prefix: str | None) -> None:
    """Remove kernelspecs cudaenv wrote: by name, or every one for a profile or version.

    Kernelspecs cudaenv did not write are never removed.
    """
    from ..commands.kernel import kernel_remove

    exits(kernel_remove(list(names), prefix))


@kernel_group.command("list")
@json_option
@handles_errors
def kernel_list_cmd(as_json: bool) -> None:
    """List the kernelspecs cudaenv wrote that Jupyter sees, and any that no longer work."""
    from ..commands.kernel import kernel_list

    exits(kernel_list(as_json))
