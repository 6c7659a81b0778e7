"""What every output of a plan is (:class:`Output`), and what every shell family is (:class:`Shell`).

An :class:`Output` turns a plan into what one consumer reads: shell code, a
JSON document, GitHub Actions' env files, a dotenv file. A :class:`Shell` is
an output that a shell evaluates, and also knows everything else cudaenv
says to that shell: how to quote, the ``eval`` line to suggest, the rc-file
line and the init code (with its ``--auto`` hook), the completion answer
format, and the conda activation hook template.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..env.plan import Plan

__all__ = ["SHELL_DIR", "Output", "Shell"]

#: The shipped shell-side code (package data: ``init`` works from a pip or pipx install).
SHELL_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "shell")


class Output:
    """A consumer of plans: renders one, and says how to use what it printed.

    Attributes:
        name: The registry name (``posix``, ``fish``, ``csh``, ``json``, ``github``, ``dotenv``).
    """

    name = ""

    def render(self, plan: Plan) -> str:
        """The text for ``plan`` (pure).

        Raises:
            CudaenvError: the plan holds something this output cannot express.
        """
        raise NotImplementedError

    def precheck(self, env: Mapping[str, str]) -> None:
        """Fail before any work when this output cannot be used here (default: it always can)."""

    def check_off(self) -> None:
        """Fail when this output cannot express ``off`` (default: it can)."""

    def deliver(self, plan: Plan, env: Mapping[str, str]) -> tuple[str, list[str]]:
        """(text for stdout, notes for stderr) for ``plan``; an output that writes files writes them here."""
        return self.render(plan), []

    def tty_hint(self, words: str) -> str | None:
        """What to tell someone who ran ``cudaenv <words>`` at a terminal, or None."""
        return None


def _plain(word: str) -> bool:
    # Words cudaenv writes itself need no quotes in any shell.
    return bool(word) and all(c.isascii() and (c.isalnum() or c in "_-./") for c in word)


class Shell(Output):
    """A shell family. Subclasses set the class attributes and the methods that differ.

    Which shell names belong to a family, and which of them ``cudaenv init``
    supports, is data in the registry (``shells/__init__.py``).

    Attributes:
        rehash: The command that makes the shell forget hashed commands after PATH changes.
    """

    rehash: str | None = None

    # -- values and plans ------------------------------------------------------------------
    def quote(self, value: str) -> str:
        """``value`` as one word of this shell.

        Raises:
            CudaenvError: the value cannot be expressed.
        """
        raise NotImplementedError

    def word(self, value: str) -> str:
        """``value`` quoted only when it needs to be (for code people read, such as hooks)."""
        return value if _plain(value) else self.quote(value)

    def set_line(self, name: str, value: str) -> str:
        """The command that exports ``name=value``."""
        raise NotImplementedError

    def unset_line(self, name: str) -> str:
        """The command that removes ``name`` from the environment."""
        raise NotImplementedError

    def render(self, plan: Plan) -> str:
        """Code that applies ``plan``: one command a line, then a rehash if PATH changed."""
        lines = [self.set_line(ch.name, ch.value) if ch.op == "set" else self.unset_line(ch.name)
                 for ch in plan.changes]
        if plan.path_changed and self.rehash:
            lines.append(self.rehash)
        return "".join(line + "\n" for line in lines)

    # -- what cudaenv tells people ---------------------------------------------------------
    def eval_hint(self, words: str) -> str:
        """How to apply ``cudaenv <words>`` to this shell."""
        raise NotImplementedError

    def tty_hint(self, words: str) -> str | None:
        return f"this prints shell code; to apply it here run: {self.eval_hint(words)}"

    def rc_file(self, shell: str) -> str:
        """The start-up file ``cudaenv init`` belongs in."""
        return f"~/.{shell}rc"

    def rc_line(self, shell: str, auto: bool = False) -> str:
        """``add to FILE: LINE`` for ``cudaenv init SHELL [--auto]``."""
        return f"add to {self.rc_file(shell)}: {self.eval_hint(f'init {shell}' + (' --auto' if auto else ''))}"

    # -- init and its --auto hook ----------------------------------------------------------
    def init_file(self, shell: str) -> str:
        """The shipped integration file for ``shell``."""
        return os.path.join(SHELL_DIR, f"cudaenv.{shell}")

    def init_text(self, shell: str, auto: bool = False, runner: list[str] | None = None) -> str:
        """The code ``cudaenv init SHELL [--auto]`` prints: the shipped file, then the hook's switch.

        Args:
            runner: The command words that run this cudaenv, when the functions
                must not call the ``cudaenv`` on PATH (see ``commands/init.py``).

        Raises:
            CudaenvError: the shipped file is missing.
        """
        path = self.init_file(shell)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as exc:
            raise CudaenvError(f"cannot read {path}: {exc.strerror}; reinstall cudaenv") from None
        if runner:
            text += self.runner_override(runner)
        return text + ("_cudaenv_enable_auto\n" if auto else "")

    def runner_override(self, words: list[str]) -> str:
        """Code that makes the shipped functions run ``words`` instead of ``cudaenv`` from PATH."""
        raise NotImplementedError

    # -- completion ------------------------------------------------------------------------
    def completion(self, shell: str, kind: str, value: str, help: str) -> str:
        """One candidate in the format the shipped completion function reads.

        Args:
            kind: click's item type (``plain``, ``dir``, ``file``).
            help: One line (may be empty).
        """
        raise NotImplementedError

    # -- conda activation hooks ------------------------------------------------------------
    def conda_hook(self, words: list[str], exe: str | None, msg: str) -> str:
        """The body of a conda hook: run ``cudaenv WORDS`` (``exe`` first), apply its output.

        On failure the hook prints ``msg`` on stderr and changes nothing; it
        never exits, returns or fails the user's shell.
        """
        raise NotImplementedError

