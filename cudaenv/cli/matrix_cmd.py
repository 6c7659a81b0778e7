"""``cudaenv matrix``: a GitHub Actions matrix of the installed toolkits."""

from __future__ import annotations

import click

from .common import exits, handles_errors

__all__ = ["matrix_cmd"]


@click.command("matrix")
@click.option("--json", "pretty", is_flag=True, help="Indented JSON instead of the compact one-liner.")
@click.option("--min", "lo", metavar="V", help="Only toolkits at or above V (12 = any 12.x).")
@click.option("--max", "hi", metavar="V", help="Only toolkits at or below V (12 = any 12.x).")
@click.option("--torch", "torch", metavar="T", multiple=True,
              help="Only toolkits torch T has CUDA wheels for; the torch list is narrowed to T. Repeatable.")
@handles_errors
def matrix_cmd(pretty: bool, lo: str | None, hi: str | None, torch: tuple[str, ...]) -> None:
    """Print a GitHub Actions matrix of the toolkits installed here.

    One entry per toolkit: cuda, cuda_version, cuda_root, cu (PyTorch wheel
    tag), cxx/cxx_family/cxx_version (the default C++ compiler if the toolkit
    accepts it, else the newest accepted one), torch (torch versions with
    wheels for that CUDA) and torch_newest.

    \b
    - id: m
      run: |
        matrix=$(cudaenv matrix --min 12)
        echo "matrix=$matrix" >> "$GITHUB_OUTPUT"
    # later: strategy: {matrix: ${{ fromJSON(needs.<job>.outputs.matrix) }}}
    """
    from ..commands.matrix import print_matrix

    exits(print_matrix(lo, hi, torch, pretty))
