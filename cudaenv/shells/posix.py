"""bash, zsh, sh/dash, ksh: ``export``/``unset``, single-quoted values, ``hash -r``.

Every command ends with ``;``, so the code means the same under ``eval "$(cudaenv use X)"``
and the unquoted ``eval $(cudaenv use X)`` of many tutorials (as ssh-agent's and direnv's
output do). Unquoted, the shell splits the text into words at blanks and expands each word
as a pattern before ``eval`` joins them with single spaces: a value holding a tab, a newline,
two blanks in a row or a pattern character (``* ? [``, ksh/extglob's ``+( @( !(``) would
come back changed (or name the files in the working directory). Such a value is written as
a ``printf`` format with those characters as octal escapes, which neither splitting nor
pattern matching touches, e.g. ``X=$(printf 'a\\011b_'); export X="${X%_}";`` (the ``_``
keeps a trailing newline from the command substitution).
"""

from __future__ import annotations

from ..env.pathlist import DEFAULT_PATH
from .base import Shell

__all__ = ["Posix", "SHELL", "quote"]

# ASCII characters a printf format may hold as they are; every other ASCII one is escaped
# (a leading '-' too: printf would take it for an option).
_PRINTF_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._:,=@+")


def quote(value: str) -> str:
    """Quote ``value`` for any POSIX shell: single quotes, ``'`` as ``'\\''``."""
    return "'" + value.replace("'", "'\\''") + "'"


def _survives_splitting(value: str) -> bool:
    """Would ``value``, single-quoted, survive word splitting and pattern expansion (default IFS)?"""
    if "\t" in value or "\n" in value or "  " in value or "*" in value or "?" in value or "[" in value:
        return False
    return not ("(" in value and ("+(" in value or "@(" in value or "!(" in value))


def printf_format(value: str) -> str:
    """``value`` as a single-quoted printf format holding no blank, quote or pattern character."""
    return "'" + "".join(c if not c.isascii() or c in _PRINTF_PLAIN else f"\\{ord(c):03o}" for c in value) + "'"


class Posix(Shell):
    """The POSIX family. Its code is safe under ``set -u``: it reads no variable but one it has just set."""

    name = "posix"
    rehash = "hash -r;"

    def quote(self, value: str) -> str:
        return quote(value)

    def set_line(self, name: str, value: str) -> str:
        if _survives_splitting(value):
            return f"export {name}={quote(value)};"
        return f"{name}=$(printf {printf_format(value + '_')}); export {name}=\"${{{name}%_}}\";"

    def unset_line(self, name: str) -> str:
        if name == "PATH":
            # PATH was not in the environment: the shell had one of its own, not exported (bash,
            # dash, zsh set one when they start without it). Without any, no command is found.
            return f"unset PATH; PATH={quote(DEFAULT_PATH)};"
        return f"unset {name};"

    def eval_hint(self, words: str) -> str:
        return f'eval "$(cudaenv {words})"'

    def rc_line(self, shell: str, auto: bool = False) -> str:
        """bash and zsh: the README's line, which also finds a ``pip --user``/pipx install in
        ``~/.local/bin`` before a login start-up puts it on PATH (Debian's ~/.profile reads
        ~/.bashrc first), and says nothing where cudaenv is not installed."""
        if shell not in ("bash", "zsh"):
            return super().rc_line(shell, auto)
        words = f"init {shell}" + (" --auto" if auto else "")
        return (f"add to {self.rc_file(shell)}: "
                f'eval "$(if command -v cudaenv >/dev/null; then cudaenv {words}; '
                f'elif [ -x ~/.local/bin/cudaenv ]; then ~/.local/bin/cudaenv {words}; fi)"')

    def runner_override(self, words: list[str]) -> str:
        return "__cudaenv_cmd() {\n    command " + " ".join(self.word(w) for w in words) + ' "$@"\n}\n'

    def completion(self, shell: str, kind: str, value: str, help: str) -> str:
        if shell == "zsh":
            # Three lines: type, value, help ('_' for none); _describe splits at ':'.
            shown = value.replace(":", "\\:") if help else value
            return f"{kind}\n{shown}\n{help or '_'}"
        return f"{kind},{value}"

    def conda_hook(self, words: list[str], exe: str | None, msg: str) -> str:
        q = self.word
        args = " ".join(q(w) for w in words)
        pick = (f"if [ -x {q(exe)} ]; then _cudaenv_ch_exe={q(exe)}; else _cudaenv_ch_exe=cudaenv; fi\n"
                if exe else "_cudaenv_ch_exe=cudaenv\n")
        return pick + (
            "# `command`: a shell function named cudaenv (cudaenv init) must not run here.\n"
            f'if _cudaenv_ch_out=$(command "$_cudaenv_ch_exe" {args}); then\n'
            '    eval "$_cudaenv_ch_out"\n'
            "else\n"
            f"    echo {q(msg)} >&2\n"
            "fi\n"
            "unset _cudaenv_ch_exe _cudaenv_ch_out\n"
        )


SHELL = Posix()
