"""GitHub Actions: ``cudaenv use X --format github`` for the following steps of a job.

A step cannot change the environment of the steps after it; the runner reads
two files instead, after the step ends:

* ``$GITHUB_ENV``: ``NAME=value`` lines or heredoc entries. The runner reads
  ``NAME<<DELIM``, then every line up to a line equal to ``DELIM``; the value
  is those lines joined with ``\\n``, without the newline before ``DELIM``.
  We always write the heredoc form, with a random delimiter that occurs
  nowhere in the value, so any value (``=``, ``<<``, newlines, quotes) round-trips.
* ``$GITHUB_PATH``: one directory per line. The runner keeps a job-wide list;
  each line is removed from it and appended again, and every later step
  starts with ``PATH = reversed(list) + ':' + PATH``, so a later line ends up
  *in front of* an earlier one. To put ``[a, b]`` in front (``a`` first), we
  write ``b`` then ``a``.

Decisions (also in docs/ci.md):

* **PATH goes through $GITHUB_PATH only**, never ``$GITHUB_ENV``: a ``PATH``
  there would freeze the runner's base PATH at this step's value (the
  runner's own prepends still go in front of it) and would fight every other
  action that adds to PATH. The directories ``use`` puts in front of PATH come
  from the plan's recorded state (``_CUDAENV_STATE``), which says exactly what
  was inserted.
* **What the runner cannot do is said, not faked.** It cannot take a directory
  off PATH (switching 11.8 -> 12.4 in one job leaves ``…/11.8/bin`` *behind*
  ``…/12.4/bin``, so 12.4's nvcc wins), cannot append to PATH (a profile's
  PATH appends are left out) and cannot unset a variable (``use`` writes an
  empty value instead). Each case is a note on stderr.
* **off is refused**: ``cudaenv off --format github`` exits 2 with one line
  and writes nothing. Undoing needs unset and PATH removal, neither of which
  the runner offers; a zero exit would let a workflow believe it had undone
  the switch.
* Nothing goes to stdout. Errors are one stderr line, non-zero exit and
  nothing written (both files are opened before either is written, and a
  write that fails is taken back; see :func:`write`).
"""

from __future__ import annotations

import os
import secrets
import stat

from ..env.pathlist import split
from ..env.state import STATE_VAR, decode
from ..errors import CudaenvError
from ..shells.base import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Mapping

    from ..env.plan import Plan

__all__ = ["ENV_FILE", "PATH_FILE", "Entries", "delimiter", "env_entry", "path_lines", "render", "files", "write",
           "Github", "SHELL"]

ENV_FILE = "GITHUB_ENV"
PATH_FILE = "GITHUB_PATH"
_DELIM_PREFIX = "CUDAENV_EOF_"


class Entries:
    """What one ``use`` appends to the runner's files.

    Attributes:
        env_text: Entries for ``$GITHUB_ENV`` (heredoc form).
        path_text: Lines for ``$GITHUB_PATH``, in the order the runner needs.
        variables: Names written to ``$GITHUB_ENV``, in order.
        directories: Directories that end up in front of PATH, first first.
        notes: What the runner cannot express (stderr).
    """

    __slots__ = ("env_text", "path_text", "variables", "directories", "notes")

    def __init__(self, env_text: str, path_text: str, variables: list[str], directories: list[str],
                 notes: list[str]) -> None:
        self.env_text = env_text
        self.path_text = path_text
        self.variables = variables
        self.directories = directories
        self.notes = notes


def _random_hex() -> str:
    return secrets.token_hex(16)


def delimiter(value: str, rand: Callable[[], str] = _random_hex) -> str:
    """A heredoc delimiter that does not occur anywhere in ``value``."""
    while True:
        delim = _DELIM_PREFIX + rand()
        if delim not in value:
            return delim


def _utf8(name: str, value: str, where: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise CudaenvError(
            f"cannot write {name} to {where}: its value holds bytes that are not UTF-8, which the runner "
            "would replace", exit_code=2) from None


def env_entry(name: str, value: str, rand: Callable[[], str] = _random_hex) -> str:
    """One ``$GITHUB_ENV`` entry: ``NAME<<DELIM``, the value, ``DELIM``.

    The value is followed by one newline, which the runner drops, so a value
    that itself ends in a newline keeps it.
    """
    _utf8(name, value, f"${ENV_FILE}")
    delim = delimiter(value, rand)
    return f"{name}<<{delim}\n{value}\n{delim}\n"


def _recorded_state(plan: Plan):
    for ch in plan.changes:
        if ch.op == "set" and ch.name == STATE_VAR:
            return decode(ch.value)
    return None


def path_lines(plan: Plan, env: Mapping[str, str]) -> tuple[list[str], list[str], list[str]]:
    """What ``use``'s PATH change becomes on a runner.

    Args:
        plan: The planned switch.
        env: The environment it was planned against (this step's).

    Returns:
        (lines for ``$GITHUB_PATH`` in file order, the directories they put in
        front of PATH in PATH order, notes about what the runner cannot do).

    Raises:
        CudaenvError: the profile sets PATH outright, or a directory holds a
        carriage return (the runner splits lines on it too).
    """
    new = None
    changed = False
    for ch in plan.changes:
        if ch.name == "PATH":
            changed = True
            new = ch.value
    if not changed:
        return [], [], []
    state = _recorded_state(plan)
    if state is not None and "PATH" in state.scalars:
        raise CudaenvError(
            f"profile {state.name} sets PATH outright; on GitHub Actions PATH can only be prepended to "
            f"through ${PATH_FILE}", hint="prepend the directories in the profile instead", exit_code=2)
    pre: list[str] = []
    app: list[str] = []
    if state is not None and "PATH" in state.lists:
        _, pre, app = state.lists["PATH"]
    for e in pre:
        _utf8("PATH", e, f"${PATH_FILE}")
        if "\r" in e or "\n" in e:
            raise CudaenvError(f"cannot write {e!r} to ${PATH_FILE}: it holds a line break", exit_code=2)
    notes: list[str] = []
    cur = split(env.get("PATH", ""))
    want = split(new or "")
    left = [e for e in dict.fromkeys(cur) if e not in want]
    if left:
        where = f"behind {pre[0]}" if pre else "on PATH"
        notes.append(f"the runner cannot take directories off PATH: {':'.join(left)} stays {where}")
    if app:
        notes.append(f"${PATH_FILE} can only prepend: not adding {':'.join(app)} to the end of PATH")
    return list(reversed(pre)), list(pre), notes


def render(plan: Plan, env: Mapping[str, str], rand: Callable[[], str] = _random_hex) -> Entries:
    """Turn ``plan`` into the runner's file entries (pure but for the random delimiters).

    Args:
        plan: The planned switch (from ``plan_for_use``).
        env: The environment the plan was made against.
        rand: Source of delimiter randomness (tests pin it).
    """
    lines, dirs, notes = path_lines(plan, env)
    entries: list[str] = []
    names: list[str] = []
    for ch in plan.changes:
        name = ch.name
        if name == "PATH":
            continue
        if ch.op == "set":
            value = ch.value
        else:
            value = ""
            notes.append(f"the runner cannot unset {name}; setting it to an empty value for the following steps")
        entries.append(env_entry(name, value, rand))
        names.append(name)
    path_text = "".join(line + "\n" for line in lines)
    return Entries("".join(entries), path_text, names, dirs, notes)


def files(env: Mapping[str, str], need_path: bool) -> tuple[str, str | None]:
    """The runner's file paths from ``env``.

    Raises:
        CudaenvError: ``GITHUB_ENV`` (or, when needed, ``GITHUB_PATH``) is not set.
    """
    env_file = env.get(ENV_FILE, "")
    if not env_file:
        raise CudaenvError(
            f"--format github needs ${ENV_FILE}, which is not set (it is set only inside a GitHub Actions step)",
            hint="outside Actions use eval \"$(cudaenv use X)\" or --format json/dotenv", exit_code=2)
    path_file = env.get(PATH_FILE, "")
    if need_path and not path_file:
        raise CudaenvError(f"--format github needs ${PATH_FILE} to change PATH, and it is not set", exit_code=2)
    return env_file, path_file or None


def write(out: Entries, env_file: str, path_file: str | None) -> None:
    """Append ``out`` to the runner's files; either both are written or neither.

    Both files are opened before either is written, ``$GITHUB_ENV`` is written
    first and ``$GITHUB_PATH`` only when that succeeded. A write that fails (a
    full disk, ``/dev/full``) is taken back by cutting the file to its length
    before: the runner then sees neither file changed, where it would otherwise
    read a heredoc without its closing delimiter (and fail the next step's
    setup) or a PATH change without the variables that go with it.

    Raises:
        CudaenvError: a file cannot be opened or written (nothing is left written
            then, or the message says what could not be taken back).
    """
    todo = [(env_file, out.env_text)]
    if out.path_text:
        if path_file is None:
            raise CudaenvError(f"${PATH_FILE} is not set", exit_code=2)
        todo.append((path_file, out.path_text))

    fds: list[tuple[int, str, int | None]] = []  # (fd, path, length before; None: not a regular file)
    try:
        for path, _ in todo:
            try:
                # O_NONBLOCK: a FIFO nobody reads would block the open for ever (ENXIO instead).
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK, 0o666)
                os.set_blocking(fd, True)  # the writes below wait for a reader that is there
            except OSError as exc:
                raise CudaenvError(f"cannot open {path} for appending: {exc.strerror}") from None
            st = os.fstat(fd)
            fds.append((fd, path, st.st_size if stat.S_ISREG(st.st_mode) else None))
        done: list[tuple[int, str, int | None, bool]] = []
        for (fd, path, before), (_, text) in zip(fds, todo):
            data = memoryview(text.encode("utf-8"))
            n = len(data)
            try:
                while data:
                    data = data[os.write(fd, data):]
            except OSError as exc:
                left = _take_back([*done, (fd, path, before, len(data) < n)])
                why = f"cannot write {path}: {exc.strerror}"
                raise CudaenvError(f"{why}; nothing was applied for the following steps" if not left else
                                   f"{why}; could not take back what was appended to {', '.join(left)}: "
                                   "the runner may fail reading it") from None
            done.append((fd, path, before, n > 0))
    finally:
        for fd, _, _ in fds:
            os.close(fd)


def _take_back(written: list[tuple[int, str, int | None, bool]]) -> list[str]:
    """Cut each file back to its length before; return the paths where what was appended stays."""
    left = []
    for fd, path, before, wrote in written:
        if not wrote:
            continue
        try:
            if before is None:  # a pipe or a device: what went out cannot be taken back
                raise OSError("not a regular file")
            os.ftruncate(fd, before)
        except OSError:
            left.append(path)
    return left


class Github(Output):
    """``--format github``: appends to the runner's files; stdout stays empty."""

    name = "github"

    def precheck(self, env: Mapping[str, str]) -> None:
        # Before any work: the common mistake is running it outside Actions.
        files(env, need_path=False)

    def check_off(self) -> None:
        raise CudaenvError(
            "GitHub Actions cannot unset variables or take directories off PATH for the following steps, "
            "so `off --format github` cannot undo `use`",
            hint="switch with `cudaenv use OTHER --format github`, or keep a toolkit to one step with "
                 "eval \"$(cudaenv use X)\"",
            exit_code=2)

    def render(self, plan: Plan) -> str:
        raise CudaenvError("--format github writes the runner's files; it has no text form", exit_code=2)

    def deliver(self, plan: Plan, env: Mapping[str, str]) -> tuple[str, list[str]]:
        out = render(plan, env)
        env_file, path_file = files(env, need_path=bool(out.path_text))
        write(out, env_file, path_file)
        notes = list(out.notes)
        name, version, root = plan.subject or ("the profile", "?", "?")
        if not out.variables and not out.directories:
            notes.append(f"{name}: nothing to write, the environment already matches")
            return "", notes
        nd = len(out.directories)
        dirs = f", {nd} {'directory' if nd == 1 else 'directories'} in front of PATH (${PATH_FILE})" if nd else ""
        nv = len(out.variables)
        notes.append(f"{name} (CUDA {version}, {root}) for the following steps: "
                     f"{nv} {'variable' if nv == 1 else 'variables'} (${ENV_FILE}){dirs}")
        return "", notes


SHELL = Github()
