"""Tab completion: click's machinery, with the wire formats pinned to cudaenv's shell files.

The shell side of completion ships in ``cudaenv/shell/`` with the rest of the
integration (``cudaenv init`` prints it without importing click). Those
functions call ``cudaenv`` with ``_CUDAENV_COMPLETE=<shell>_complete``; click
resolves the command line and calls each parameter's ``shell_complete``. The
classes here only fix the answer's format, so a click upgrade that changes
its own scripts' protocol (fish's did in 8.4) cannot break ours, and add
tcsh, which click does not know. ``<shell>_source`` prints ``cudaenv init <shell>``.

``use`` targets come from the discovered toolkits and profiles through the
same cache ``use`` reads (no YAML parsing, no subprocess when warm). The
common case, ``cudaenv use <TAB>``, is answered in the same formats without
click at all (:func:`cudaenv.shellinit.fast_complete`); tests hold the two
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
    """``use`` targets starting with ``incomplete`` (see :func:`cudaenv.shellinit.target_candidates`).

    A word that looks like a path completes as a directory.
    """
    if incomplete[:1] in ("/", ".", "~"):
        return [CompletionItem(incomplete, type="dir")]
    from ..shellinit import target_candidates

    return [CompletionItem(v, help=h) for v, h in target_candidates(incomplete)]


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


class _Source:
    def source(self) -> str:  # type: ignore[override]
        from ..shellinit import init_text

        return init_text(self.name)  # type: ignore[attr-defined]


class BashCompletion(_Source, BashComplete):
    """bash: ``type,value`` per line (cudaenv.bash reads it)."""

    def format_completion(self, item: CompletionItem) -> str:
        return f"{item.type},{item.value}"


class ZshCompletion(_Source, ZshComplete):
    """zsh: ``type``, ``value``, ``help`` (``_`` for none) on three lines; ``:`` escaped with help."""

    def format_completion(self, item: CompletionItem) -> str:
        help_ = _one_line(item.help) or "_"
        value = item.value.replace(":", r"\:") if help_ != "_" else item.value
        return f"{item.type}\n{value}\n{help_}"


class FishCompletion(_Source, FishComplete):
    """fish: ``type,value`` per line, then a tab and the help when there is one."""

    def format_completion(self, item: CompletionItem) -> str:
        help_ = _one_line(item.help)
        return f"{item.type},{item.value}" + (f"\t{help_}" if help_ else "")


class TcshCompletion(_Source, ShellComplete):
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

    def format_completion(self, item: CompletionItem) -> str:
        return item.value if item.type == "plain" else ""


for _cls, _name in ((BashCompletion, "bash"), (ZshCompletion, "zsh"), (FishCompletion, "fish"),
                    (TcshCompletion, "tcsh")):
    add_completion_class(_cls, _name)
