"""``cudaenv init [SHELL] [--auto]``: print the shell integration (a function, completion, the hook).

Runs without click: it runs at every shell start. What the code is, per
shell, is the shell object's business (``shells/``); the shell-side files
ship in ``cudaenv/shell/``.
"""

from __future__ import annotations

import os
import sys

from ..errors import CudaenvError
from ..infra.console import note, report_error, write_out
from ..shells import INIT_SHELLS, detect, shell

__all__ = ["init_text", "do_init"]


def _check_shell(name: str) -> str:
    if name not in INIT_SHELLS:
        raise CudaenvError(
            f"`cudaenv init` supports {', '.join(INIT_SHELLS)}, not {name!r}",
            hint='in other POSIX shells use eval "$(cudaenv use X)" directly',
            exit_code=2,
        )
    return name


def init_text(name: str, auto: bool = False) -> str:
    """The code ``cudaenv init SHELL [--auto]`` prints.

    Raises:
        CudaenvError: an unsupported shell, or the shipped file is missing.
    """
    return shell(_check_shell(name)).init_text(name, auto)


def do_init(name: str | None, auto: bool) -> int:
    """``cudaenv init [SHELL] [--auto]``: print the integration code."""
    try:
        if not name:
            name = detect(os.environ)
            if name not in INIT_SHELLS:
                raise CudaenvError(
                    f"cannot tell which shell to write for (detected {name!r})",
                    hint="name it: cudaenv init bash|zsh|fish|tcsh",
                    exit_code=2,
                )
        text = init_text(name, auto)
    except CudaenvError as exc:
        return report_error(exc)
    if sys.stdout.isatty():
        note(f"this prints shell code; {shell(name).rc_line(name, auto)}")
    write_out(text)
    return 0
