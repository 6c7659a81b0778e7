"""fish: ``set -gx``/``set -e -g``; every ``*PATH`` variable is a list.

Values are single-quoted with ``\\`` and ``'`` escaped: fish 3.4+ expands
``$(...)`` inside double quotes. Each command ends with ``;`` so that
``eval (cudaenv use X)``, which joins lines with spaces, works as well as
``cudaenv use X | source``; for the same reason a newline in a value is
written outside the quotes as ``\\n``.
"""

from __future__ import annotations

from ..env.pathlist import split
from .base import Shell

__all__ = ["Fish", "SHELL", "quote"]


def quote(value: str) -> str:
    """Quote ``value`` for fish; a newline leaves the quotes as ``\\n`` (``eval (...)`` splits at newlines)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "'\\n'") + "'"


class Fish(Shell):
    """fish."""

    name = "fish"

    def quote(self, value: str) -> str:
        return quote(value)

    def set_line(self, name: str, value: str) -> str:
        if name.endswith("PATH") and value:
            # fish keeps *PATH variables as lists and joins them with ':' on export.
            return f"set -gx {name} " + " ".join(quote(e) for e in split(value)) + ";"
        return f"set -gx {name} {quote(value)};"

    def unset_line(self, name: str) -> str:
        return f"set -e -g {name};"

    def eval_hint(self, words: str) -> str:
        return f"cudaenv {words} | source"

    def rc_file(self, shell: str) -> str:
        return "~/.config/fish/config.fish"

    def runner_override(self, words: list[str]) -> str:
        return "function __cudaenv_cmd\n    command " + " ".join(self.word(w) for w in words) + " $argv\nend\n"

    def completion(self, shell: str, kind: str, value: str, help: str) -> str:
        return f"{kind},{value}" + (f"\t{help}" if help else "")

    def conda_hook(self, words: list[str], exe: str | None, msg: str) -> str:
        q = self.word
        args = " ".join(q(w) for w in words)
        pick = f"    if test -x {q(exe)}\n        set _cudaenv_ch_exe {q(exe)}\n    end\n" if exe else ""
        return (
            "begin  # a block: the set -l variables end with it\n"
            "    set -l _cudaenv_ch_exe cudaenv\n"
            + pick +
            f"    set -l _cudaenv_ch_out (command $_cudaenv_ch_exe {args})\n"
            "    if test $status -eq 0\n"
            "        printf '%s\\n' $_cudaenv_ch_out | source\n"
            "    else\n"
            f"        echo {q(msg)} >&2\n"
            "    end\n"
            "end\n"
        )


SHELL = Fish()
