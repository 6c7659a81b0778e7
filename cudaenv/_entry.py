"""Console entry point: ``use``/``off``/``list`` without click; the rest via click.

``use`` and ``off`` run in every tmux pane and conda activation, so their
common forms are parsed here by hand and never import click, yaml or re.
Anything unusual (help, other options) falls through to the click CLI, which
has the full parser and calls the same code.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def _fast_args(argv: list[str]) -> tuple[str, str | None, str | None] | None:
    """(command, target, shell) for the plain forms of use/off/list, else None."""
    if argv[:1] == ["list"] and argv[1:] in ([], ["--json"]):
        return "list", None, "json" if argv[1:] else None
    if not argv or argv[0] not in ("use", "off"):
        return None
    cmd, target, shell = argv[0], None, None
    rest = argv[1:]
    i = 0
    while i < len(rest):
        a = rest[i]
        if a in ("--shell", "-s"):
            if i + 1 >= len(rest):
                return None
            shell = rest[i + 1]
            i += 2
            continue
        if a.startswith("--shell="):
            shell = a[8:]
        elif a.startswith("-") or target is not None or cmd == "off":
            return None
        else:
            target = a
        i += 1
    return cmd, target, shell


def main(argv: list[str] | None = None) -> int:
    """Run cudaenv with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    fast = _fast_args(args)
    if fast is not None:
        from . import emit

        cmd, target, shell = fast
        if cmd == "list":
            from .listing import do_list

            code = do_list(shell == "json")
        else:
            code = emit.do_use(target, shell) if cmd == "use" else emit.do_off(shell)
        if argv is None:
            sys.exit(code)
        return code
    from .cli import main as cli_main

    return cli_main(args, standalone=argv is None)
