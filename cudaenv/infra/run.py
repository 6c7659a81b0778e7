"""The one place that starts subprocesses: explicit env, timeout, captured output.

Every command runs in its own session (and process group), so a timeout,
Ctrl-C or :func:`stop_all` ends it together with everything it started
(nvcc's cicc/ptxas, and ninja's compilers, which ninja puts in process groups
of their own: the whole session is killed). A terminal's Ctrl-C does not reach those
groups by itself: whoever catches it (the main thread) calls :func:`stop_all`,
which also covers commands other threads are running.

:func:`exec_command` is the other way cudaenv runs a program: it becomes it
(``cudaenv exec``), so it needs none of the above: ``subprocess`` and
``signal`` (which imports ``enum``) are imported only by the functions that
start or kill children, and ``exec`` pays for neither.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import Mapping, NoReturn, Sequence

__all__ = ["Result", "run", "stop_all", "resume_all", "exec_command"]

# Commands running right now (any thread). set.add/discard and list(set) are atomic
# under the GIL, which is all the sharing needed here.
_LIVE: set = set()
# While true (between stop_all and resume_all), no new command starts.
_STOP = [False]


class Result:
    """What a finished (or failed-to-start) command gave back.

    ``timed_out``: killed at the timeout; ``cancelled``: killed (or never
    started) by :func:`stop_all`.
    """

    __slots__ = ("args", "returncode", "stdout", "stderr", "timed_out", "cancelled")

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str, timed_out: bool = False,
                 cancelled: bool = False) -> None:
        self.args = args
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.cancelled = cancelled


def _session_members(sid: int, proc_root: str = "/proc") -> list[int]:
    """Processes of session ``sid`` (Linux ``/proc``; empty elsewhere)."""
    out = []
    try:
        names = os.listdir(proc_root)
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"{proc_root}/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # after the command name: state, ppid, pgrp, session
        if len(fields) > 3 and fields[3] == str(sid).encode() and fields[0] != b"Z":
            out.append(int(name))
    return out


def _killpg(proc: subprocess.Popen) -> None:
    """Kill the command's process group, then whatever else is left in its session.

    Its own session is what start_new_session gave it; some tools move their
    children into process groups of their own inside it (ninja runs every job
    in a new group), and a group kill alone would leave those compilers running.
    """
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for _ in range(5):
        left = _session_members(proc.pid)
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def stop_all() -> int:
    """Kill the process group of every running command, in every thread; refuse new ones.

    Returns:
        How many commands were killed. :func:`resume_all` lets commands start again.
    """
    _STOP[0] = True
    live = list(_LIVE)
    for proc in live:
        _killpg(proc)
    return len(live)


def resume_all() -> None:
    """Undo :func:`stop_all`: commands may start again."""
    _STOP[0] = False


def run(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 60,
    merge_stderr: bool = False,
) -> Result:
    """Run ``args`` in its own process group; kill the whole group on timeout.

    A command that cannot be started gives returncode 127 and the reason in
    ``stderr`` instead of raising. Any exception while waiting (Ctrl-C's
    KeyboardInterrupt included) kills the group before it propagates.

    Args:
        merge_stderr: Send stderr into stdout (one interleaved log, as in a
            terminal); ``stderr`` is then empty.
    """
    import subprocess

    argv = list(args)
    if _STOP[0]:
        return Result(argv, -9, "", "cancelled", cancelled=True)
    try:
        proc = subprocess.Popen(
            argv,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return Result(argv, 127, "", f"{argv[0]}: {exc.strerror}")
    _LIVE.add(proc)
    try:
        if _STOP[0]:  # stop_all ran between the check above and the registration
            _killpg(proc)
        out, err, timed_out = _collect(proc, time.monotonic() + timeout)
    except BaseException:
        _killpg(proc)
        proc.wait()
        raise
    finally:
        _LIVE.discard(proc)
    return Result(argv, -9 if timed_out else proc.returncode, out.decode("utf-8", "replace"),
                  err.decode("utf-8", "replace"), timed_out,
                  cancelled=not timed_out and _STOP[0] and proc.returncode < 0)


#: How long the pipes may stay open once the command itself has exited: a process it left
#: behind (a daemon, in a session of its own) may hold them for ever.
PIPE_GRACE = 1.0
_SLICE = 0.25


def _collect(proc: subprocess.Popen, deadline: float) -> tuple[bytes, bytes, bool]:
    """(stdout, stderr, timed out): read until EOF, the deadline, or the grace after the command exits.

    Waiting in slices lets a command that exited be told from one that runs:
    past the deadline the group is killed; once the command has exited, its
    pipes get :data:`PIPE_GRACE` seconds to close and are then abandoned with
    what they delivered, so a left-behind process cannot hang cudaenv.
    """
    import subprocess

    exited_at = None
    timed_out = False
    while True:
        now = time.monotonic()
        if not timed_out and now >= deadline:
            _killpg(proc)
            timed_out = True
            exited_at = now  # after the kill, the same grace
        wait = max(0.0, deadline - now) if not timed_out else PIPE_GRACE
        try:
            out, err = proc.communicate(timeout=min(wait, _SLICE) if wait else 0.01)
            return out or b"", err or b"", timed_out
        except subprocess.TimeoutExpired as exc:
            if proc.poll() is None:
                continue
            exited_at = exited_at if exited_at is not None else time.monotonic()
            if time.monotonic() - exited_at < PIPE_GRACE:
                continue
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
            return exc.output or b"", exc.stderr or b"", timed_out


#: Signals Python ignores for itself at start-up; an ignored signal stays ignored across exec,
#: so a command started by `cudaenv exec` would not die of SIGPIPE at `| head` the way it does
#: when a shell starts it.
_PY_IGNORED = ("SIGPIPE", "SIGXFSZ")


def _search(name: str, env: Mapping[str, str]) -> list[str]:
    """Where execvp would look for ``name``, in order: PATH of ``env`` (unset: the system default)."""
    if "/" in name:
        return [name]
    path = env.get("PATH")
    dirs = (os.defpath if path is None else path).split(":")
    return [os.path.join(d or ".", name) for d in dirs]  # an empty entry is the current directory


def exec_command(argv: Sequence[str], env: Mapping[str, str]) -> NoReturn:
    """Replace this process with ``argv`` run with exactly ``env``; return never.

    The command is looked up on ``env``'s PATH as a shell would (a file
    without a ``#!`` line is run by ``/bin/sh``, as execvp does); signals that
    Python ignores are given back their default action first. Whatever the
    command does with its exit status, signals, stdin and stdout is then its
    own: cudaenv is no longer there.

    Raises:
        CudaenvError: the command cannot be run: exit code 127 when it is not
            found, 126 when it is found but cannot be executed (a shell's codes).
    """
    import errno

    # The C module: `signal` itself imports enum, a millisecond exec would pay on every command.
    import _signal

    from ..errors import CudaenvError

    name = argv[0]
    args = list(argv)
    for sig in _PY_IGNORED:
        _signal.signal(getattr(_signal, sig), _signal.SIG_DFL)
    denied: tuple[str, OSError] | None = None
    for cand in _search(name, env):
        try:
            try:
                os.execve(cand, args, env)
            except OSError as exc:
                if exc.errno != errno.ENOEXEC:
                    raise
                os.execve("/bin/sh", ["sh", cand, *args[1:]], env)  # no #! line: as execvp and shells do
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ENOTDIR):
                continue
            if exc.errno == errno.EACCES:  # execvp goes on looking; this is the answer if nothing else runs
                denied = denied or (cand, exc)
                continue
            raise CudaenvError(f"{cand}: cannot execute: {exc.strerror}", exit_code=126) from None
    if denied is not None:
        cand, exc = denied
        why = "is a directory" if os.path.isdir(cand) else exc.strerror
        raise CudaenvError(f"{cand}: cannot execute: {why}", exit_code=126)
    if "/" in name:
        raise CudaenvError(f"{name}: no such file", exit_code=127)
    raise CudaenvError(f"{name}: command not found on the profile's PATH", exit_code=127)
