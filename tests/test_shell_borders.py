"""The shell borders, in the real shells (bash dash zsh fish tcsh).

* The unquoted ``eval $(cudaenv use X)`` of many tutorials (and fish's ``eval (...)``, tcsh's
  ``eval `...```) must do exactly what the quoted form does, whatever the values hold: runs of
  blanks, tabs, newlines, pattern characters with files in the working directory they would
  match, braces, ``~`` and ``=`` at a word's start, and tests/helpers.py's HOSTILE name.
* A shell whose PATH is not exported (``env -i bash``, cron, a container's entrypoint) can run
  commands after ``use`` and after ``off``, and ``use`` looks for a host compiler where that shell
  would look.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from helpers import HOSTILE, clean_shell_env, make_toolkit, need, parse_env0

pytestmark = pytest.mark.shells

VERSION = "12.3.7"
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"  # cudaenv.env.pathlist.DEFAULT_PATH, as the user sees it
ENV = shutil.which("env") or "/usr/bin/env"

# Everything word splitting, pattern expansion (bash's extglob too), csh's braces, tilde and
# dir-stack words could change; and HOSTILE's quotes, $(...), backquotes and '!'.
AWKWARD = "  *?[a]{1,2}, ~x =1\t@(y)+(z)!(w) a  b %s \\ -n"
# Files a pattern word would expand to in the working directory.
BAIT = ["a", "b", "x", "1", "2", "*", "'", "[a]", "a  b", "y", "z", "w", "-n"]

SHELLS = ["bash", "dash", "zsh", "fish", "tcsh"]

# {q} is '"' (the documented form) or '' (the unquoted form).
POSIX = """{prelude}
env -0 > "$OUT/before"
eval {q}$(cudaenv use {target}){q} || exit 9
env -0 > "$OUT/during"
eval {q}$(cudaenv use {target}){q} || exit 9
env -0 > "$OUT/again"
eval {q}$(cudaenv off){q} || exit 9
env -0 > "$OUT/after"
"""
PRELUDE = {"bash": "set -u; shopt -s extglob failglob", "dash": "set -u", "zsh": "set -u"}

FISH = {True: "cudaenv {words} | source; or exit 9", False: "eval (cudaenv {words}); or exit 9"}
TCSH = {True: 'eval "`cudaenv {words}`"', False: "eval `cudaenv {words}`"}


def script(shell: str, quoted: bool, target: str = VERSION) -> str:
    if shell in PRELUDE:
        return POSIX.format(prelude=PRELUDE[shell], q='"' if quoted else "", target=target)
    step = (FISH if shell == "fish" else TCSH)[quoted]
    dump = "env -0 > $OUT/{0}" if shell == "fish" else 'env -0 > "$OUT/{0}"'
    lines = [dump.format("before")]
    for words, name in ((f"use {target}", "during"), (f"use {target}", "again"), ("off", "after")):
        lines += [step.format(words=words), dump.format(name)]
    return "\n".join(lines) + "\n"


def run_shell(shell: str, text: str, env: dict, cwd) -> subprocess.CompletedProcess:
    exe = need(shell)
    args = {"bash": [exe, "--norc", "--noprofile"], "zsh": [exe, "-f"], "fish": [exe, "--no-config"],
            "tcsh": [exe, "-f"], "dash": [exe]}[shell]
    return subprocess.run(args, input=text, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def dumps(out, names=("before", "during", "again", "after")) -> dict:
    got = {}
    for name in names:
        d = parse_env0((out / name).read_bytes())
        d.pop(b"_", None)
        d.pop(b"OUT", None)
        got[name] = d
    return got


@pytest.fixture
def awkward(tmp_path):
    """A toolkit whose root, and prior values of what ``use`` changes, hold every awkward character."""
    root = make_toolkit(str(tmp_path / "tk" / (HOSTILE + AWKWARD)), VERSION)
    work = tmp_path / "work"
    work.mkdir()
    for name in BAIT:
        (work / name).write_text("")
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=root, LIBRARY_PATH="",
                          CUDA_HOME="/prior/" + AWKWARD + " $HOME `touch PWNED3` !h 'q'",
                          LD_LIBRARY_PATH="/opt/user  lib*:/b?[c]{d,e}")
    return root, env, work, tmp_path


def both_forms(shell, env, work, tmp_path, target=VERSION):
    """Run the quoted and the unquoted form; return their dumps and results."""
    got = {}
    for quoted in (True, False):
        out = tmp_path / ("out-q" if quoted else "out-u")
        out.mkdir()
        res = run_shell(shell, script(shell, quoted, target), dict(env, OUT=str(out)), work)
        assert res.returncode == 0, (quoted, res.stderr)
        got[quoted] = (dumps(out), res)
    return got


@pytest.mark.parametrize("shell", SHELLS)
def test_unquoted_eval_means_what_the_quoted_form_means(shell, awkward):
    root, env, work, tmp_path = awkward
    got = both_forms(shell, env, work, tmp_path)
    (q, qres), (u, ures) = got[True], got[False]
    assert q["during"][b"CUDA_HOME"] == root.encode()
    assert q["during"][b"PATH"].split(b":")[0] == root.encode() + b"/bin"
    assert q["again"] == q["during"] and q["after"] == q["before"]
    for name in q:
        assert u[name] == q[name], name
    assert ures.stderr == qres.stderr
    assert sorted(os.listdir(work)) == sorted(BAIT), "part of a value was executed"


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh", "fish"])
def test_a_prior_value_with_newlines_comes_back_in_both_forms(shell, awkward):
    root, env, work, tmp_path = awkward
    env = dict(env, CUDA_PATH="\nline  one\n\tline*two\n\n", CUDA_HOME="-n\t-e  %s")
    got = both_forms(shell, env, work, tmp_path)
    (q, _), (u, _) = got[True], got[False]
    assert q["before"][b"CUDA_PATH"] == b"\nline  one\n\tline*two\n\n"
    assert q["after"] == q["before"] and u == q


@pytest.mark.parametrize("shell", SHELLS)
def test_bytes_that_are_not_utf8_come_back_in_both_forms(shell, awkward):
    root, env, work, tmp_path = awkward
    env = dict(env, CUDA_PATH=b"/\xff\xfe  *\t\xe8?[x]", CUDA_HOME=b"/opt/\xc3(  g++")
    got = both_forms(shell, env, work, tmp_path)
    (q, _), (u, _) = got[True], got[False]
    assert q["before"][b"CUDA_PATH"] == b"/\xff\xfe  *\t\xe8?[x]"
    assert q["after"] == q["before"] and u == q


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh"])
def test_unquoted_path_argument(shell, awkward):
    """The user's own word, quoted in their eval line: the output must still survive the unquoted eval."""
    root, env, work, tmp_path = awkward
    got = both_forms(shell, dict(env, ROOT=root), work, tmp_path, target='"$ROOT"')
    assert got[True][0]["during"][b"CUDA_HOME"] == root.encode()
    assert got[False][0] == got[True][0]


# -- a PATH that is not in the environment ------------------------------------------------------

NOPATH = {
    "posix": """{env} -0 > "$OUT/before"
eval {q}$('{exe}' use {v}){q}
{env} -0 > "$OUT/during"
only-in-the-toolkit && echo during-tool
eval {q}$('{exe}' off){q}
{env} -0 > "$OUT/after"
ls / >/dev/null && echo after-ls
only-in-the-toolkit 2>/dev/null || echo after-no-tool
""",
    "fish": """{env} -0 > $OUT/before
{use}
{env} -0 > $OUT/during
only-in-the-toolkit; and echo during-tool
{off}
{env} -0 > $OUT/after
ls / >/dev/null; and echo after-ls
only-in-the-toolkit 2>/dev/null; or echo after-no-tool
""",
    "tcsh": """{env} -0 > "$OUT/before"
{use}
{env} -0 > "$OUT/during"
only-in-the-toolkit && echo during-tool
{off}
{env} -0 > "$OUT/after"
ls / >/dev/null && echo after-ls
(only-in-the-toolkit >& /dev/null) || echo after-no-tool
""",
}


@pytest.mark.parametrize("quoted", [True, False], ids=["quoted", "unquoted"])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_shell_without_an_exported_path_can_run_commands_after_off(shell, quoted, tmp_path):
    root = make_toolkit(str(tmp_path / "tk"), VERSION)
    tool = os.path.join(root, "bin", "only-in-the-toolkit")
    with open(tool, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(tool, 0o755)
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=root)
    exe = os.path.join(env.pop("PATH").split(":")[0], "cudaenv")  # the shell starts with no PATH
    work = tmp_path / "work"
    work.mkdir()
    if shell in PRELUDE:
        text = NOPATH["posix"].format(env=ENV, exe=exe, v=VERSION, q='"' if quoted else "")
    else:
        step = (FISH if shell == "fish" else TCSH)[quoted].replace("cudaenv ", f"'{exe}' ")
        text = NOPATH[shell].format(env=ENV, use=step.format(words=f"use {VERSION}"), off=step.format(words="off"))
    res = run_shell(shell, text, env, work)
    assert res.stdout.split() == ["during-tool", "after-ls", "after-no-tool"], res.stderr
    d = dumps(tmp_path / "out", ("before", "during", "after"))
    assert d["during"][b"PATH"] == f"{root}/bin:".encode() + (
        d["before"][b"PATH"] if shell == "fish" else DEFAULT_PATH.encode())
    before, after = d["before"], d["after"]
    if shell == "fish":
        assert after == before  # fish always exports a PATH of its own
        return
    assert b"PATH" not in before
    extra = {k: v for k, v in after.items() if before.get(k) != v}
    assert set(before) <= set(after)
    # bash keeps PATH unexported as it was; dash, zsh and tcsh export the PATH they are given
    assert extra == ({} if shell == "bash" else {b"PATH": DEFAULT_PATH.encode()})


@pytest.mark.testbed
@pytest.mark.slow
def test_use_without_path_finds_a_host_compiler_nvcc_accepts(tmp_path, testbed):
    """``env -i sh -c``: nvcc 11.8 must get a g++ it accepts, found where the shell looks for commands."""
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["11.8"])
    exe = os.path.join(env.pop("PATH").split(":")[0], "cudaenv")
    (tmp_path / "k.cu").write_text("__global__ void k(int *p) { *p = 1; }\nint main() { return 0; }\n")
    text = f"""eval "$('{exe}' use 11.8)"
echo "cxx=${{CUDAHOSTCXX-none}}"
nvcc -c k.cu -o k.o && echo compiled
"""
    res = subprocess.run(["/bin/sh"], input=text, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert "compiled" in res.stdout.splitlines(), res.stdout + res.stderr
    assert "no C++ compiler found" not in res.stderr
