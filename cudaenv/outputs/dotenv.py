"""``--format dotenv``: ``NAME=value`` lines for ``docker run --env-file`` and GitLab dotenv reports.

Neither consumer is a shell and neither has quoting, so a value is written
exactly as it is, and a value that one of them would read differently is
refused with an error rather than written:

* ``docker --env-file`` (docker/cli ``pkg/kvfile``): the line's leading
  whitespace is dropped, lines starting with ``#`` are comments, the key ends
  at the first ``=`` and the rest of the line is the value, kept as is
  (whitespace too). Docker 28.2 keeps quotes as part of the value; newer
  docker/cli sources strip one pair of matching quotes around it. The file
  must be UTF-8.
* GitLab ``artifacts:reports:dotenv`` (``Ci::ParseDotenvArtifactService``):
  every line must match ``^(.*?)=(.*)$`` (so no comments and no blank lines:
  either fails the upload), and key and value are stripped of whitespace at
  both ends.

So: no comments or blank lines are written; a value holding a newline,
carriage return or NUL (no line format can hold it), with whitespace at
either end (GitLab strips it), wrapped in a matching pair of quotes (docker
versions disagree) or with bytes that are not UTF-8 is refused. Since
neither format can unset a variable, a plan that unsets one (switching away
from an active profile, or ``off``) is refused too.

Values are the final values computed against the environment cudaenv runs
in (PATH included), like every renderer: run it where the file will be used
(the same image or job), or from a clean environment.
"""

from __future__ import annotations

from ..errors import CudaenvError
from ..shells.base import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.plan import Plan

__all__ = ["check_value", "render", "Dotenv", "SHELL"]

# Ruby's String#strip set (GitLab), less the line breaks refused separately.
_EDGE_SPACE = " \t\v\f"


def check_value(name: str, value: str) -> None:
    """Refuse a value that docker --env-file or GitLab would not read back exactly.

    Raises:
        CudaenvError: the value cannot be expressed as one ``NAME=value`` line.
    """
    why = None
    if "\n" in value or "\r" in value:
        why = "it holds a line break, and every dotenv line is one variable"
    elif "\0" in value:
        why = "it holds a NUL byte"
    elif value and (value[0] in _EDGE_SPACE or value[-1] in _EDGE_SPACE):
        why = "it has whitespace at one end, which GitLab strips (docker keeps it)"
    elif len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        why = "it is wrapped in quotes, which newer docker strips and older docker keeps"
    else:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            why = "it holds bytes that are not UTF-8 (docker rejects the file)"
    if why:
        raise CudaenvError(f"cannot write {name} as a dotenv line: {why}",
                           hint="use --format json, or a toolkit path without such characters", exit_code=2)


def render(plan: Plan) -> str:
    """``NAME=value`` lines for ``plan``, nothing else.

    Raises:
        CudaenvError: the plan unsets a variable, or a value cannot be expressed.
    """
    lines = []
    for ch in plan.changes:
        if ch.op != "set":
            raise CudaenvError(
                f"a dotenv file cannot unset {ch.name}",
                hint="run `eval \"$(cudaenv off)\"` first so that `use` only sets variables", exit_code=2)
        check_value(ch.name, ch.value)
        lines.append(f"{ch.name}={ch.value}\n")
    return "".join(lines)


class Dotenv(Output):
    """``--format dotenv``."""

    name = "dotenv"

    def render(self, plan: Plan) -> str:
        return render(plan)

    def tty_hint(self, words: str) -> str | None:
        return f"this prints a dotenv file; save it with: cudaenv {words} --format dotenv > cuda.env"


SHELL = Dotenv()
