"""Tab completion: click's machinery, with the wire formats pinned to cudaenv's shell files.

The shell side of completion ships in ``cudaenv/shell/`` with the rest of the
integration (``cudaenv init`` prints it without importing click). Those
functions call ``cudaenv`` with ``_CUDAENV_COMPLETE=<shell>_complete``; click
resolves the command line and calls each parameter's ``shell_complete``. The
classes here only hand each answer to the shell object's ``completion``
format (``shells/``), so a click upgrade that changes its own scripts'
protocol (fish's did in 8.4) cannot break ours, and add tcsh, which click
does not know. ``<shell>_source`` prints ``cudaenv init <shell>``.

``use`` targets come from the discovered toolkits and profiles through the
same cache ``use`` reads (no YAML parsing, no subprocess when warm). The
common case, ``cudaenv use <TAB>``, is answered in the same formats without
click at all (:func:`cudaenv.commands.complete.fast_complete`); tests hold the two
to the same output.
"""

from __future__ import annotations

import os

from click.shell_completion import (
    BashComplete,
    CompletionItem,
    FishComplete,
    ShellComplete,
    ZshComplete,
    add_completion_class,
    split_arg_string,
)

__all__ = ["complete_targets", "BashCompletion", "ZshCompletion", "FishCompletion", "TcshCompletion"]


def complete_targets(ctx, param, incomplete: str) -> list[CompletionItem]:
    """``use`` targets starting with ``incomplete`` (see :func:`cudaenv.commands.complete.target_candidates`).

    A word that looks like a path completes as a directory.
    """
    if incomplete[:1] in ("/", ".", "~"):
        return [CompletionItem(incomplete, type="dir")]
    from ..commands.complete import target_candidates

    return [CompletionItem(v, help=h) for v, h in target_candidates(incomplete)]


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


class _Cudaenv:
    """Source: ``cudaenv init``; format: the shell object's."""

    def source(self) -> str:  # type: ignore[override]
        from ..commands.init import init_text

        return init_text(self.name)  # type: ignore[attr-defined]

    def format_completion(self, item: CompletionItem) -> str:
        from ..shells import shell

        name = self.name  # type: ignore[attr-defined]
        return shell(name).completion(name, item.type, item.value, _one_line(item.help))


class BashCompletion(_Cudaenv, BashComplete):
    """bash: ``type,value`` per line (cudaenv.bash reads it)."""


class ZshCompletion(_Cudaenv, ZshComplete):
    """zsh: ``type``, ``value``, ``help`` (``_`` for none) on three lines; ``:`` escaped with help."""


class FishCompletion(_Cudaenv, FishComplete):
    """fish: ``type,value`` per line, then a tab and the help when there is one."""


class TcshCompletion(_Cudaenv, ShellComplete):
    """tcsh: ``complete cudaenv 'p/*/`...`/'`` runs us with the line in ``$COMMAND_LINE``.

    The answer is the candidate words, one per line (tcsh filters by prefix).
    """

    name = "tcsh"
    source_template = ""

    def get_completion_args(self) -> tuple[list[str], str]:
        line = os.environ.get("COMMAND_LINE", "")
        try:
            words = split_arg_string(line)
        except ValueError:
            words = line.split()
        if not line or line[-1].isspace():
            return words[1:], ""
        return words[1:-1], words[-1] if words else ""


for _cls, _name in ((BashCompletion, "bash"), (ZshCompletion, "zsh"), (FishCompletion, "fish"),
                    (TcshCompletion, "tcsh")):
    add_completion_class(_cls, _name)
