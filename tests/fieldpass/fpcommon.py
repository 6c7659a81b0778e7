"""What the field pass's parts share: the five shells, their syntax, the test bed, sentinels.

A package-less folder: the scripts put ``tests/`` (for ``helpers``) and this
directory on ``sys.path`` themselves, as ``tests/helpers.py`` is found by the
tests. Values a shell must hold are never written into its script: they live
in files the script reads (``cat``), so the script itself is plain ASCII and
only cudaenv's output carries the hostile bytes.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
for _p in (TESTS, os.path.dirname(TESTS)):  # helpers, then this checkout's cudaenv
    if _p not in sys.path:
        sys.path.insert(0, _p)

import helpers  # noqa: E402

__all__ = ["SHELLS", "FAMILY", "Missing", "require", "shell_argv", "run_script", "Syntax", "SYNTAX",
           "base_env", "new_root", "sentinels", "dump_of", "DROP", "one_line_refusal"]

SHELLS = ("bash", "dash", "zsh", "fish", "tcsh")
FAMILY = {"bash": "posix", "dash": "posix", "zsh": "posix", "fish": "fish", "tcsh": "tcsh"}
_FLAGS = {"bash": ["--norc", "--noprofile"], "dash": [], "zsh": ["-f"], "fish": ["--no-config"], "tcsh": ["-f"]}
#: Variables shells keep for themselves: not part of any comparison.
DROP = frozenset({b"_", b"SHLVL", b"PWD", b"OLDPWD"})
CAT = "/bin/cat"
ENV = "/usr/bin/env"


class Missing(Exception):
    """A shell or tool the pass needs is not installed (under pytest: skipped, or failed under CI)."""


def require(program: str) -> str:
    """Path of ``program`` through ``helpers.need``; outside pytest its skip/fail becomes :class:`Missing`."""
    try:
        return helpers.need(program)
    except BaseException as exc:  # pytest's Skipped/Failed outcomes derive from BaseException
        if type(exc).__module__.startswith(("_pytest", "pytest")):
            raise Missing(f"{program}: {exc}") from None
        raise


def shell_argv(shell: str, script: str) -> list[str]:
    """The command that runs ``script`` (a file) in ``shell`` without start-up files."""
    return [require(shell), *_FLAGS[shell], script]


def run_script(shell: str, text: str, path: str, env: dict, cwd: str, timeout: float) -> subprocess.CompletedProcess:
    """Write ``text`` to ``path`` and run it in ``shell`` (a hang guard only: ``timeout`` is generous)."""
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
    envb = {k.encode() if isinstance(k, str) else k: v.encode() if isinstance(v, str) else v for k, v in env.items()}
    return subprocess.run(shell_argv(shell, path), env=envb, cwd=cwd, capture_output=True, timeout=timeout)


def q(shell: str, word: str) -> str:
    """Quote an ASCII word of the harness (a file path, a fixed argument) for ``shell``."""
    assert word.isascii() and "\n" not in word and "!" not in word, word
    if FAMILY[shell] == "fish":
        return "'" + word.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return shlex.quote(word)


class Syntax:
    """The few statements the pass writes, for one shell.

    Values come from files (``read`` leaves one in the shell variable ``_v``);
    cudaenv runs with stdout, stderr and status captured to files named after
    ``tag``, and its stdout is then evaluated the documented way.
    """

    def __init__(self, shell: str, vals: str, out: str, exe: str) -> None:
        self.shell, self.fam = shell, FAMILY[shell]
        self.vals, self.out, self.exe = vals, out, exe

    def prelude(self, strict: bool = True) -> str:
        return "set -u\n" if self.fam == "posix" and strict else ""

    def read(self, key: str) -> str:
        f = q(self.shell, os.path.join(self.vals, key))
        if self.fam == "posix":
            # The x keeps trailing newlines that $(...) would strip.
            return f"_v=$({CAT} {f}; printf x); _v=${{_v%x}}\n"
        if self.fam == "fish":
            return f"set -g _v ({CAT} {f} | string collect -N)\n"
        return f'set _v = "`{CAT} {f}`"\n'

    def set(self, var: str, key: str) -> str:
        if self.fam == "posix":
            return self.read(key) + f'{var}=$_v; export {var}\n'
        if self.fam == "fish":
            return self.read(key) + f"set -gx {var} $_v\n"
        return self.read(key) + f'setenv {var} "$_v"\n'

    def unset(self, var: str) -> str:
        if self.fam == "posix":
            return f"unset {var}\n"
        if self.fam == "fish":
            return f"set -e -g {var}\n"
        return f"unsetenv {var}\n"

    def extend(self, var: str, key: str, sep: str, front: bool) -> str:
        """Prepend (``front``) or append the value of ``key`` to the list ``var``, with no empty entry."""
        if self.fam == "posix":
            new = f'"$_v${{{var}:+{sep}${var}}}"' if front else f'"${{{var}:+${var}{sep}}}$_v"'
            return self.read(key) + f"{var}={new}; export {var}\n"
        if self.fam == "fish":
            both = f"$_v ${var}" if front else f"${var} $_v"
            return self.read(key) + (f'if set -q {var}; and test -n "${var}"\n  set -gx {var} {both}\n'
                                     f"else\n  set -gx {var} $_v\nend\n")
        both = f'"${{_v}}{sep}${{{var}}}"' if front else f'"${{{var}}}{sep}${{_v}}"'
        return self.read(key) + (f"if ( $?{var} ) then\n  if ( \"${var}\" != \"\" ) then\n    setenv {var} {both}\n"
                                 f'  else\n    setenv {var} "$_v"\n  endif\nelse\n  setenv {var} "$_v"\nendif\n')

    def call(self, args: list[str], tag: str, target_key: str | None = None, evaluate: bool = True) -> str:
        """Run cudaenv ``args`` (plus the value of ``target_key`` as the last word), then evaluate its stdout."""
        o, e, r = (q(self.shell, os.path.join(self.out, f"{tag}.{x}")) for x in "oer")
        exe = q(self.shell, self.exe)
        words = " ".join(q(self.shell, a) for a in args)
        pre = self.read(target_key) if target_key else ""
        if self.fam == "posix":
            tail = ' "$_v"' if target_key else ""
            run = f"{exe} {words}{tail} >{o} 2>{e}; echo $? >{r}\n"
            ev = f'eval "$({CAT} {o})"\n'
        elif self.fam == "fish":
            tail = " $_v" if target_key else ""
            run = f"{exe} {words}{tail} >{o} 2>{e}; echo $status >{r}\n"
            ev = f"source {o}\n"
        else:
            tail = ' "$_v"' if target_key else ""
            run = f"( {exe} {words}{tail} > {o} ) >& {e}\necho $status > {r}\n"
            ev = f'eval "`{CAT} {o}`"\n'
        return pre + run + (ev if evaluate else "")

    def init(self, auto: bool = False) -> str:
        """Load `cudaenv init` the documented way (from the harness's cudaenv, which PATH need not find)."""
        exe = q(self.shell, self.exe)
        flag = " --auto" if auto else ""
        if self.fam == "posix":
            return f'eval "$({exe} init {self.shell}{flag})"\n'
        if self.fam == "fish":
            return f"{exe} init fish{flag} | source\n"
        return f'eval "`{exe} init tcsh{flag}`"\n'

    def call_fn(self, args: list[str], tag: str, target_key: str | None = None) -> str:
        """Type ``cudaenv ARGS [value]`` into the function `init` defined (bash, zsh, fish).

        The function evaluates cudaenv's code itself, so the stdout file is left empty.
        """
        o, e, r = (q(self.shell, os.path.join(self.out, f"{tag}.{x}")) for x in "oer")
        words = " ".join(q(self.shell, a) for a in args)
        pre = self.read(target_key) if target_key else ""
        if self.fam == "posix":
            tail = ' "$_v"' if target_key else ""
            return pre + f"cudaenv {words}{tail} 2>{e}; echo $? >{r}; : >{o}\n"
        if self.fam == "fish":
            tail = " $_v" if target_key else ""
            return pre + f"cudaenv {words}{tail} 2>{e}; echo $status >{r}; true >{o}\n"
        raise ValueError("tcsh's alias is not typed by the round trips")

    def dump(self, tag: str) -> str:
        return f"{ENV} -0 > {q(self.shell, os.path.join(self.out, tag + '.env'))}\n"

    def mark(self, tag: str) -> str:
        """Write an empty file: the script got this far."""
        return f": > {q(self.shell, os.path.join(self.out, tag + '.mark'))}\n" if self.fam != "fish" else \
            f"true > {q(self.shell, os.path.join(self.out, tag + '.mark'))}\n"


SYNTAX = Syntax


def new_root(prefix: str = "cudaenv-fieldpass-", parent: str | None = None) -> str:
    """A private directory for one part of the pass (outside the checkout)."""
    return tempfile.mkdtemp(prefix=prefix, dir=parent)


def base_env(root: str, **extra: str) -> dict:
    """``helpers.clean_shell_env`` plus no driver (a fixed /proc) and this bed's config and caches."""
    env = helpers.clean_shell_env(root)
    noproc = os.path.join(root, "noproc")
    os.makedirs(noproc, exist_ok=True)
    env["CUDAENV_PROC_ROOT"] = noproc  # the same answer ("no driver") on every machine
    env.update(extra)
    return env


def sentinels(root: str, prefix: str = "PWNED") -> list[str]:
    """Files under ``root`` whose name starts with ``prefix``: proof that a payload ran."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in filenames + dirnames:
            if n.startswith(prefix):
                found.append(os.path.join(dirpath, n))
    return sorted(found)


def dump_of(path: str) -> dict[bytes, bytes] | None:
    """An ``env -0`` dump without the shells' own variables; None if the script never wrote it."""
    try:
        with open(path, "rb") as f:
            d = helpers.parse_env0(f.read())
    except FileNotFoundError:
        return None
    return {k: v for k, v in d.items() if k not in DROP}


def one_line_refusal(rc: int, out: bytes, err: bytes) -> bool:
    """cudaenv's rule for errors: non-zero status, nothing on stdout, one line on stderr."""
    return rc != 0 and out == b"" and err.count(b"\n") == 1 and err.endswith(b"\n") and b"Traceback" not in err
