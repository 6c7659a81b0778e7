"""The console entry point: dispatch only.

``use``, ``off``, ``list``, ``init``, the ``--auto`` hook, ``use <TAB>``, a
cached ``verify``, ``exec``, the conda hooks and the Slurm task prolog run in every tmux pane, shell start or
conda activation, so their plain forms are recognised here
(:func:`cudaenv.infra.console.parse`) and go straight to their drivers in
``commands/`` without importing click, yaml, json or re. Anything else
(help, other options, other commands) goes to the click CLI, which calls
the same drivers.
"""

from __future__ import annotations

import os
import sys

# Nothing else of cudaenv at the top: what the fast forms need is loaded after preload().
from .infra.preload import preload, record

__all__ = ["main", "fast_form"]

_SHELL = {"--shell": "shell", "-s": "shell"}
#: command -> (flags, options with a value, most words): the plain forms the fast path takes.
_FORMS = {
    "use": ({"--match-torch": "match_torch"}, _SHELL, 1),
    "off": ({}, _SHELL, 0),
    "list": ({"--json": "json", "--wide": "wide"}, {}, 0),
    "init": ({"--auto": "auto"}, {}, 1),
}


#: Commands whose fast forms load their modules from a preload file (``infra/preload.py``).
_PRELOADED = frozenset({"use", "off", "list", "init", "_auto", "conda-hook"})


def fast_form(args: list[str]) -> tuple[str, dict, list[str]] | None:
    """(command, options, words) when ``args`` is a plain form of use/off/list/init, else None."""
    form = _FORMS.get(args[0]) if args else None
    if form is None:
        return None
    from .infra.console import parse

    parsed = parse(args[1:], form[0], form[1], max_words=form[2])
    return None if parsed is None else (args[0], *parsed)


def _fast(args: list[str]) -> int | None:
    """Run a plain form without click; None when click must handle ``args``."""
    form = fast_form(args)
    if form is not None:
        cmd, opts, words = form
        word = words[0] if words else None
        if cmd == "list":
            from .commands.listing import do_list

            return do_list(bool(opts.get("json")), bool(opts.get("wide")))
        if cmd == "init":
            from .commands.init import do_init

            return do_init(word, bool(opts.get("auto")))
        from .commands.switch import do_off, do_use, use_target

        if cmd == "use":
            return do_use(use_target(word, bool(opts.get("match_torch"))), opts.get("shell"))
        return do_off(opts.get("shell"))
    cmd, rest = (args[0], args[1:]) if args else ("", [])
    if not args and "_CUDAENV_COMPLETE" in os.environ:
        from .commands.complete import fast_complete

        return fast_complete(os.environ)
    if cmd == "_auto":
        from .commands.auto import do_auto

        if len(rest) > 1:
            from .infra.console import note

            note("usage: cudaenv _auto [PIN_FILE] (the --auto hook's own command)")
            return 2
        return do_auto(rest[0] if rest else "")
    if cmd == "explain":
        # A short message pays Python's start and little else; click and the whole cli package
        # cost about as much again. Plain forms only (--json, --no-host, --python PY, words, `-`
        # for stdin); anything else, such as --help or a word click would read as an option, goes
        # to click.
        from .infra.console import parse

        words = [a for a in rest if a == "-"]
        parsed = parse([a for a in rest if a != "-"], {"--json": "json", "--no-host": "no_host"}, {"--python": "python"})
        if parsed is None:
            return None
        opts, text = parsed
        if words:  # `-` reads stdin and must stand alone, as click would pass it
            if text:
                return None
            text = words
        from .commands.explain import explain_command

        return explain_command(text, bool(opts.get("json")), host=not opts.get("no_host"), python=opts.get("python"))
    if cmd == "exec":
        # Paid on every command it wraps (a kernel start too): every form but --help, without click.
        from .commands.exec_ import fast_exec

        return fast_exec(rest)
    if cmd == "verify":
        # A cache hit is answered without click (which costs more than Python's start).
        from .commands.verify import fast_verify

        return fast_verify(rest)
    if cmd == "slurm" and rest == ["task-prolog"]:
        # Slurm runs it before every task of a job that inherited a switch: no click.
        from .commands.node import do_task_prolog

        return do_task_prolog()
    if cmd == "conda-hook" and rest[:1] in (["_activate"], ["_deactivate"]):
        from .commands.conda_hook import hook_main

        return hook_main(rest)
    return None


def main(argv: list[str] | None = None) -> int:
    """Run cudaenv with ``argv`` (default ``sys.argv[1:]``); return the exit code.

    Called without ``argv`` (the console script), it exits the process instead.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    # The process's own entry (console script, python -m) loads the hot path from one file.
    kind = args[0] if argv is None and args and args[0] in _PRELOADED else None
    if kind:
        preload(kind)
    from .errors import CudaenvError

    try:
        code = _fast(args)
    except CudaenvError as exc:  # raised while printing (stdout closed or full): one line, no traceback
        from .infra.console import report_error

        code = report_error(exc)
    if code is None:
        from .cli import main as cli_main

        code = cli_main(args)
    elif kind:
        names = record(kind)
        if names:
            from .infra.preload_write import write

            write(kind, names)
    if argv is None:
        sys.exit(code)
    return code
