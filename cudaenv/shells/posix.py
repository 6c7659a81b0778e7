"""bash, zsh, sh/dash, ksh: ``export``/``unset``, single-quoted values, ``hash -r``."""

from __future__ import annotations

from .base import Shell

__all__ = ["Posix", "SHELL", "quote"]


def quote(value: str) -> str:
    """Quote ``value`` for any POSIX shell: single quotes, ``'`` as ``'\\''``."""
    return "'" + value.replace("'", "'\\''") + "'"


class Posix(Shell):
    """The POSIX family. Its code is safe under ``set -u``: it never reads a variable."""

    name = "posix"
    rehash = "hash -r"

    def quote(self, value: str) -> str:
        return quote(value)

    def set_line(self, name: str, value: str) -> str:
        return f"export {name}={quote(value)}"

    def unset_line(self, name: str) -> str:
        return f"unset {name}"

    def eval_hint(self, words: str) -> str:
        return f'eval "$(cudaenv {words})"'

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
