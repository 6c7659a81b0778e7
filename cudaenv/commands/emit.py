"""The end of every command that prints a plan: plan, deliver, notes to stderr, code to stdout.

use/off for any shell or format, the ``--auto`` hook, the conda hooks and
tmux all end here, so they fail and report alike: one stderr line and a
non-zero exit on error, with nothing on stdout.
"""

from __future__ import annotations

import os
import sys

from ..errors import CudaenvError
from ..infra.console import note, report_error, write_out
from ..shells import detect, get

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

    from ..context import Context
    from ..env.plan import Plan
    from ..shells.base import Output

__all__ = ["emit_plan"]


def emit_plan(ctx: Context | None, plan_fn: Callable[[Output], Plan], name: str | None, words: str) -> int:
    """Find the output ``name`` names, plan with ``plan_fn(output)``, deliver, and report.

    Args:
        ctx: The command's context (saved at the end), or None for a command
            that reads only the process environment (the conda deactivate hook).
        plan_fn: Returns the Plan for the output (may raise CudaenvError).
        name: A ``--shell`` or format name (None: the detected shell).
        words: The command as typed (``use 12.4``), for the terminal hint.

    Returns:
        The exit status.
    """
    env = os.environ if ctx is None else ctx.env
    try:
        out = get(name or detect(env))
        plan = plan_fn(out)
        text, more = out.deliver(plan, env)
    except CudaenvError as exc:
        return report_error(exc)
    finally:
        if ctx is not None:
            ctx.save()
    for n in plan.notes + more:
        note(n)
    hint = out.tty_hint(words) if text else None
    if hint and sys.stdout.isatty():
        note(hint)
    write_out(text)
    return 0
