"""The one place that starts subprocesses: explicit env, timeout, captured output."""

from __future__ import annotations

import os
import signal
import subprocess

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping, Sequence

__all__ = ["Result", "run"]


class Result:
    """What a finished (or failed-to-start) command gave back."""

    __slots__ = ("args", "returncode", "stdout", "stderr", "timed_out")

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str, timed_out: bool = False) -> None:
        self.args = args
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out


def run(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 60,
) -> Result:
    """Run ``args`` in its own process group; kill the whole group on timeout.

    A command that cannot be started gives returncode 127 and the reason in
    ``stderr`` instead of raising.
    """
    argv = list(args)
    try:
        proc = subprocess.Popen(
            argv,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return Result(argv, 127, "", f"{argv[0]}: {exc.strerror}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        return Result(argv, -9, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), True)
    except BaseException:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        raise
    return Result(argv, proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
