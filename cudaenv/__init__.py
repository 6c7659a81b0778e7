"""cudaenv: live with several CUDA toolkits on one Linux machine.

The package root imports nothing: `cudaenv use` runs in every tmux pane and
conda activation, so each module pulls in only what it needs (that is also
why modules write ``TYPE_CHECKING = False``: see ``context.py``). The layout
and where each kind of change goes: ARCHITECTURE.md.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
