"""tcsh/csh: ``setenv``/``unsetenv``, every command ended by ``;``.

``eval "`cudaenv use X`"`` joins our lines with spaces, hence the ``;``.
Inside single quotes csh still expands history (``!``), so ``!`` leaves the
quotes as ``'\\!'``; ``'`` becomes ``'\\''``. A newline cannot be quoted in a
way that survives the backquote, so it is refused.

The unquoted ``eval `cudaenv use X``` splits the text at blanks and tabs and
expands every word (``* ? [`` and ``{a,b}``, ``~`` and ``=`` at a word's start),
quotes or not, before ``eval`` joins the words with single spaces. So no value
``use`` and ``off`` print (:func:`eval_word`; the files csh sources keep plain quotes)
holds a blank or a pattern character inside its quotes: a blank and ``* ? [``
leave them backslashed (``'a'\\ 'b'``; a word then always starts with ``'``), a
tab and ``{`` come from ``printf`` in a nested backquote (``"`printf '\\011'`"``).

tcsh has no functions and its aliases cannot branch, so ``init tcsh`` prints
one line that sources the shipped tcsh file; that file defines an alias
which sources it again with the words typed (and, with ``--auto``, a
``cwdcmd`` alias that sources the short ``cudaenv-hook.tcsh``: tcsh pays for
every line it sources).
"""

from __future__ import annotations

import os

from ..env.pathlist import DEFAULT_PATH
from ..env.state import STATE_VAR, decode
from ..errors import CudaenvError
from .base import SHELL_DIR, Shell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["Csh", "SHELL", "quote", "eval_word", "TCSH_HOOK"]

#: tcsh's --auto hook (cwdcmd), a file of its own.
TCSH_HOOK = os.path.join(SHELL_DIR, "cudaenv-hook.tcsh")


def quote(value: str) -> str:
    """Quote ``value`` for csh/tcsh.

    Raises:
        CudaenvError: the value holds a newline.
    """
    if "\n" in value or "\r" in value:
        raise CudaenvError(f"cannot express {value!r} in csh/tcsh: it contains a newline", exit_code=2)
    return "'" + value.replace("'", "'\\''").replace("!", "'\\!'") + "'"


# Characters that leave the single quotes of a value for `eval` (see the module's text).
_OUTSIDE = {"'": "'\\''", "!": "'\\!'", " ": "'\\ '", "*": "'\\*'", "?": "'\\?'", "[": "'\\['",
            "\t": "'\"`printf '\\011'`\"'", "{": "'\"`printf '\\173'`\"'"}


def eval_word(value: str) -> str:
    """``value`` as one word that ``eval`` gives back exactly, its backquotes quoted or not.

    Raises:
        CudaenvError: the value holds a newline.
    """
    quote(value)  # the newline check
    return "'" + "".join(_OUTSIDE.get(c, c) for c in value) + "'"


class Csh(Shell):
    """csh and tcsh."""

    name = "csh"
    rehash = "rehash;"

    def quote(self, value: str) -> str:
        return quote(value)

    def render(self, plan: Plan) -> str:
        """csh code for ``plan``; refuses a switch whose ``off`` could not be written for csh.

        A variable ``use`` overwrites (CUDA_HOME, CUDA_PATH, CUDAHOSTCXX) that
        held a newline cannot be set back by csh, so the switch is refused up
        front rather than leaving a profile that ``off`` cannot undo.
        """
        for ch in plan.changes:
            if ch.op == "set" and ch.name == STATE_VAR:
                for var, (prior, _ours) in decode(ch.value).scalars.items():
                    if prior is not None and ("\n" in prior or "\r" in prior):
                        raise CudaenvError(
                            f"{var} holds a newline, which csh/tcsh cannot set back when you switch off; "
                            "not switching", hint=f"unsetenv {var} (or give it a one-line value) first",
                            exit_code=2)
        return super().render(plan)

    def set_line(self, name: str, value: str) -> str:
        return f"setenv {name} {eval_word(value)};"

    def unset_line(self, name: str) -> str:
        if name == "PATH":
            # PATH was not in the environment; tcsh keeps searching its `path` (the toolkit's bin
            # with it) after `unsetenv PATH`: set both to the default search path instead.
            return f"setenv PATH {quote(DEFAULT_PATH)};"
        return f"unsetenv {name};"

    def eval_hint(self, words: str) -> str:
        return f'eval "`cudaenv {words}`"'

    def init_text(self, shell: str, auto: bool = False, runner: list[str] | None = None) -> str:
        path = self.init_file(shell)
        for p in (path, TCSH_HOOK):
            if not os.path.isfile(p):
                raise CudaenvError(f"{p} is missing: reinstall cudaenv")
        q = quote(path)
        text = self.runner_override(runner) if runner else ""
        text += f"source {q} _cudaenv_init {q}{' auto' if auto else ''};\n"
        if auto:  # the hook once, for the directory the shell starts in
            text += f"source {quote(TCSH_HOOK)};\n"
        return text

    def runner_override(self, words: list[str]) -> str:
        # Read by the shipped file's init section (it keeps a value that is already set).
        return "set _cudaenv_cmd = ( " + " ".join(quote(w) for w in words) + " );\n"

    def completion(self, shell: str, kind: str, value: str, help: str) -> str:
        # tcsh's `complete ... 'p/*/`...`/'` takes the words, one a line, and filters them itself.
        return value if kind == "plain" else ""

    def conda_hook(self, words: list[str], exe: str | None, msg: str) -> str:
        q = self.word
        args = " ".join(q(w) for w in words)
        pick = f"if ( -x {q(exe)} ) set _cudaenv_ch_exe = {q(exe)}\n" if exe else ""
        return (
            "# csh has no functions and `$status` is fragile; sh runs cudaenv and always succeeds\n"
            "# (so tcsh -e survives a failure), leaving the code in a file: backquotes would\n"
            "# expand the captured text again.\n"
            "set _cudaenv_ch_exe = cudaenv\n"
            + pick +
            'set _cudaenv_ch_tmp = "`mktemp`"\n'
            'if ( "$_cudaenv_ch_tmp" != "" ) then\n'
            f"    sh -c 'if \"$@\" >\"$0\"; then :; else : >\"$0\"; echo \"{msg}\" >&2; fi' "
            f'"$_cudaenv_ch_tmp" "$_cudaenv_ch_exe" {args}\n'
            '    source "$_cudaenv_ch_tmp"\n'
            '    rm -f "$_cudaenv_ch_tmp"\n'
            "else\n"
            f"    echo {q(msg)} > /dev/stderr\n"
            "endif\n"
            "unset _cudaenv_ch_exe _cudaenv_ch_tmp\n"
        )


SHELL = Csh()
