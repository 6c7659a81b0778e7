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
from ..env.pathlist import entries, which
from ..env.state import STATE_VAR
from ..shells import INIT_SHELLS, detect, shell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["RUN_FROM", "runner_words", "init_text", "do_init"]


def _check_shell(name: str) -> str:
    if name not in INIT_SHELLS:
        raise CudaenvError(
            f"`cudaenv init` supports {', '.join(INIT_SHELLS)}, not {name!r}",
            hint='in other POSIX shells use eval "$(cudaenv use X)" directly',
            exit_code=2,
        )
    return name


#: ``python -c`` code running the cudaenv package found in the directory given as its first argument.
RUN_FROM = "import sys; sys.path.insert(0, sys.argv.pop(1)); from cudaenv.main import main; main()"


def runner_words(argv0: str | None = None) -> list[str] | None:
    """How the shell functions must run this cudaenv: None for ``cudaenv`` from PATH, else the words.

    Started as the ``cudaenv`` that PATH finds: None (the functions look it up
    at each call, so an upgrade or a venv switch is followed). Started by
    another path to a ``cudaenv`` script: that path. Started as ``python -m
    cudaenv``: that interpreter; when the package was found only through
    PYTHONPATH or the current directory, through ``-c`` with the package's
    directory put first on ``sys.path`` (PYTHONPATH itself is left alone: it
    is the user's, and cudaenv passes it on to the interpreters it probes).
    """
    argv0 = (sys.argv[0] if sys.argv else "") if argv0 is None else argv0
    if os.path.basename(argv0) == "cudaenv" and os.path.isfile(argv0):
        exe = os.path.abspath(argv0)
        found = which("cudaenv", os.environ.get("PATH"))
        return None if found and os.path.realpath(found) == os.path.realpath(exe) else [exe]
    parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # holds cudaenv/
    extra = [os.path.abspath(p) for p in entries(os.environ.get("PYTHONPATH"))]
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    if parent in extra or parent == cwd:
        return [sys.executable, "-c", RUN_FROM, parent]
    return [sys.executable, "-m", "cudaenv"]


def init_text(name: str, auto: bool = False, runner: list[str] | None = None) -> str:
    """The code ``cudaenv init SHELL [--auto]`` prints.

    Args:
        runner: See :func:`runner_words` (None: ``cudaenv`` from PATH).

    Raises:
        CudaenvError: an unsupported shell, or the shipped file is missing.
    """
    return shell(_check_shell(name)).init_text(name, auto, runner)


def _replan() -> Plan:
    """The node re-plan for a new shell; a failure is a note (the shell starts as it inherited)."""
    from ..context import Context
    from ..env.plan import Plan
    from .node import node_replan

    ctx = Context()
    try:
        return node_replan(ctx) or Plan([], [])
    except CudaenvError as exc:
        return Plan([], [f"the active profile was planned on another node and cannot be planned here: {exc.message}"])
    finally:
        ctx.save()


def do_init(name: str | None, auto: bool) -> int:
    """``cudaenv init [SHELL] [--auto]``: print the integration code."""
    try:
        if name is None:  # an empty name is a bad name (refused below), not "none given"
            name = detect(os.environ)
            if name not in INIT_SHELLS:
                raise CudaenvError(
                    f"cannot tell which shell to write for (detected {name!r})",
                    hint="name it: cudaenv init bash|zsh|fish|tcsh",
                    exit_code=2,
                )
        text = init_text(name, auto, runner_words())
        notes: list[str] = []
        if STATE_VAR in os.environ:
            from .node import inherited_node

            if inherited_node(os.environ, os.environ.get("CUDAENV_PROC_ROOT", "/proc")):
                # A shell inheriting a switch planned on another node (`srun --pty bash` after `use`
                # on the login node): plan it for this one (stub, arch list, job counts).
                repair = _replan()
            else:
                # A new shell with an active profile whose entries its start-up took off (a login
                # shell's /etc/profile resets PATH, e.g. every new tmux pane): put them back.
                from ..env.plan import plan_repair

                repair = plan_repair(os.environ)
            if repair.changes:
                text += shell(name).render(repair)
            notes = repair.notes
    except CudaenvError as exc:
        return report_error(exc)
    for n in notes:
        note(n)
    if sys.stdout is not None and sys.stdout.isatty():  # None: started with stdout closed
        note(f"this prints shell code; {shell(name).rc_line(name, auto)}")
    try:
        write_out(text)
    except CudaenvError as exc:
        return report_error(exc)
    return 0
