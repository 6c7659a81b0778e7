"""The real shells: eval `use`, print, `off`, print, with a hostile toolkit name.

bash, dash, zsh (under ``set -u``), fish and tcsh each run the documented
incantation. Nothing in the name may be executed, and ``off`` must give back
the environment byte for byte. A missing shell is skipped locally and fails
under CI=true.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from helpers import HOSTILE, clean_shell_env, make_toolkit, need, parse_env0

pytestmark = pytest.mark.shells

VERSION = "12.3.7"

POSIX = """set -u
env -0 > "$OUT/before"
eval "$(cudaenv use {target})" || exit 9
env -0 > "$OUT/during"
eval "$(cudaenv use {target})" || exit 9
env -0 > "$OUT/again"
eval "$(cudaenv off)" || exit 9
env -0 > "$OUT/after"
"""

FISH = """env -0 > $OUT/before
cudaenv use {target} | source; or exit 9
env -0 > $OUT/during
eval (cudaenv use {target}); or exit 9
env -0 > $OUT/again
eval (cudaenv off); or exit 9
env -0 > $OUT/after
"""

TCSH = """env -0 > "$OUT/before"
eval "`cudaenv use {target}`"
env -0 > "$OUT/during"
eval "`cudaenv use {target}`"
env -0 > "$OUT/again"
eval "`cudaenv off`"
env -0 > "$OUT/after"
"""

SCRIPTS = {"bash": POSIX, "dash": POSIX, "zsh": POSIX, "fish": FISH, "tcsh": TCSH}


@pytest.fixture
def bed(tmp_path):
    root = make_toolkit(str(tmp_path / HOSTILE), VERSION)
    # Prior states to restore: a scalar with a value, an empty list, an unset list.
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=root, CUDA_HOME="/prior/value with 'quotes'", LIBRARY_PATH="")
    out = tmp_path / "out"
    return root, env, out, tmp_path


def run_shell(shell: str, script: str, env: dict, cwd) -> subprocess.CompletedProcess:
    exe = need(shell)
    args = {"bash": [exe, "--norc", "--noprofile"], "zsh": [exe, "-f"], "fish": [exe, "--no-config"],
            "tcsh": [exe, "-f"], "dash": [exe]}[shell]
    return subprocess.run(args, input=script, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def dump(out, name) -> dict:
    d = parse_env0((out / name).read_bytes())
    d.pop(b"_", None)
    return d


def stubs_policy(env: dict, policy: str) -> None:
    """Give the bed's toolkit a profile saying ``stubs: policy`` (``profile build``, then one line edited)."""
    res = subprocess.run(["cudaenv", "profile", "build", VERSION], env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    path = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles", f"cuda-{VERSION}.yaml")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    assert "stubs: auto\n" in lines
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(f"stubs: {policy}\n" if ln == "stubs: auto\n" else ln for ln in lines))


@pytest.mark.parametrize("stubs", ["auto", "always"])
@pytest.mark.parametrize("shell", list(SCRIPTS))
def test_use_off_round_trip_with_hostile_root(shell, bed, stubs):
    """``stubs: always`` adds the node-local runtime stub, in a runtime dir with the hostile name too;
    ``off`` must take it back exactly like everything else."""
    root, env, out, cwd = bed
    if stubs == "always":
        run = cwd / ("run " + HOSTILE)
        run.mkdir(mode=0o700)
        env = dict(env, XDG_RUNTIME_DIR=str(run))
        stubs_policy(env, "always")
    res = run_shell(shell, SCRIPTS[shell].format(target=VERSION), env, cwd)
    assert res.returncode == 0, res.stderr
    before, during, again, after = (dump(out, n) for n in ("before", "during", "again", "after"))
    r = root.encode()
    assert during[b"CUDA_HOME"] == r and during[b"CUDA_PATH"] == r
    assert during[b"PATH"].split(b":")[0] == r + b"/bin"
    ld = during[b"LD_LIBRARY_PATH"].split(b":")
    if stubs == "auto":  # link time only, even on this driverless host
        assert ld == [r + b"/lib64"]
    else:  # lib64, then the node-local stub link dir
        assert ld[0] == r + b"/lib64" and len(ld) == 2 and ld[1].startswith(env["XDG_RUNTIME_DIR"].encode() + b"/")
        assert os.path.realpath(os.path.join(ld[-1].decode(), "libcuda.so.1")) == root + "/lib64/stubs/libcuda.so"
    assert during[b"LIBRARY_PATH"] == r + b"/lib64:" + r + b"/lib64/stubs"
    for var in (b"PATH", b"LD_LIBRARY_PATH", b"LIBRARY_PATH"):
        assert b"" not in during[var].split(b":")
    assert during[b"CUDAENV_ACTIVE"] == f"cuda-{VERSION}".encode()
    assert again == during, "use twice must change nothing"
    assert after == before
    assert b"LD_LIBRARY_PATH" not in after and after[b"LIBRARY_PATH"] == b""
    assert not list(cwd.glob("PWNED*")), "part of the toolkit name was executed"


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh"])
def test_path_argument_with_hostile_name(shell, bed):
    root, env, out, cwd = bed
    env = dict(env, ROOT=root)
    res = run_shell(shell, POSIX.format(target='"$ROOT"'), env, cwd)
    assert res.returncode == 0, res.stderr
    assert dump(out, "during")[b"CUDA_HOME"] == root.encode()
    assert dump(out, "after") == dump(out, "before")
    assert not list(cwd.glob("PWNED*"))


ERR = {
    "posix": 'env -0 > "$OUT/before"\neval "$(cudaenv use 99.9)"\necho "rc=$?"\nenv -0 > "$OUT/after"\n',
    "fish": "env -0 > $OUT/before\ncudaenv use 99.9 | source\nenv -0 > $OUT/after\n",
    "tcsh": 'env -0 > "$OUT/before"\neval "`cudaenv use 99.9`"\nenv -0 > "$OUT/after"\n',
}


@pytest.mark.parametrize("shell", list(SCRIPTS))
def test_failed_use_changes_nothing(shell, bed):
    root, env, out, cwd = bed
    script = ERR.get(shell, ERR["posix"])
    res = run_shell(shell, script, env, cwd)
    assert dump(out, "after") == dump(out, "before")
    assert "no CUDA toolkit matches '99.9'" in res.stderr
    if shell in ("bash", "dash", "zsh"):
        assert "rc=0" in res.stdout  # eval of empty output succeeds; cudaenv's own status is non-zero


OFF = {
    "posix": 'env -0 > "$OUT/before"\neval "$(cudaenv off)"\nenv -0 > "$OUT/after"\n',
    "fish": "env -0 > $OUT/before\ncudaenv off | source\nenv -0 > $OUT/after\n",
    "tcsh": 'env -0 > "$OUT/before"\neval "`cudaenv off`"\nenv -0 > "$OUT/after"\n',
}
# A crafted state naming variables with shell syntax: before the fix, `off` printed
# `unset A$(touch PWNED)` and the shell ran it.
CRAFTED = [
    "c1;n,x;s,A$(touch PWNED1),-,v",
    "c1;n,x;l,B`touch PWNED2`,u,/x,",
    "c1;n,x;s,HOME PATH,-,v",  # `unset HOME PATH` would take two of the user's variables
]


@pytest.mark.parametrize("state", CRAFTED)
@pytest.mark.parametrize("shell", list(SCRIPTS))
def test_a_crafted_state_cannot_run_code(shell, state, bed):
    root, env, out, cwd = bed
    env = dict(env, _CUDAENV_STATE=state, CUDAENV_ACTIVE="x")
    script = OFF["fish" if shell == "fish" else "tcsh" if shell == "tcsh" else "posix"]
    res = run_shell(shell, script, env, cwd)
    assert not list(cwd.glob("PWNED*")), "a name from _CUDAENV_STATE was executed"
    assert dump(out, "after") == dump(out, "before")
    assert "_CUDAENV_STATE is unreadable (invalid variable name" in res.stderr, res.stderr
    assert res.stderr.count("\n") == 1


def test_use_with_path_unset_keeps_the_default_search_path_in_bash(bed):
    """A shell with PATH unset: use starts from the default search path; off leaves the shell that one, unexported."""
    root, env, out, cwd = bed
    exe = os.path.join(str(cwd), "bin", "cudaenv")
    script = f"""unset PATH
eval "$('{exe}' use {VERSION})"
ls / >/dev/null && echo "ls=ok"
echo "during=$PATH"
eval "$('{exe}' off)"
echo "after=${{PATH-unset}}"
ls / >/dev/null && echo "ls-after=ok"
/usr/bin/env | grep -c '^PATH=' | sed 's/^/exported=/'
"""
    res = run_shell("bash", script, env, cwd)
    assert res.returncode == 0, res.stderr
    lines = dict(line.split("=", 1) for line in res.stdout.splitlines())
    assert lines["ls"] == "ok"
    assert lines["during"] == f"{root}/bin:/usr/local/bin:/usr/bin:/bin"
    assert (lines["after"], lines["ls-after"], lines["exported"]) == ("/usr/local/bin:/usr/bin:/bin", "ok", "0")


def test_non_utf8_bytes_in_the_environment_come_back_exactly(bed):
    root, env, out, cwd = bed
    script = "PATH=\"$(printf '/tmp/\\377dir'):$PATH\"; export PATH\n" + POSIX.format(target=VERSION)
    res = run_shell("bash", script, env, cwd)
    assert res.returncode == 0, res.stderr
    before, after = dump(out, "before"), dump(out, "after")
    assert b"/tmp/\xffdir" in before[b"PATH"]
    assert after == before


def test_user_entries_added_after_use_survive_off_in_bash(bed):
    root, env, out, cwd = bed
    script = """set -u
eval "$(cudaenv use 12.3.7)"
export PATH="/mine/bin:$PATH"
export CUDA_HOME=/changed
eval "$(cudaenv off)"
env -0 > "$OUT/after"
"""
    res = run_shell("bash", script, env, cwd)
    assert res.returncode == 0, res.stderr
    after = dump(out, "after")
    assert after[b"PATH"] == b"/mine/bin:" + env["PATH"].encode()
    assert after[b"CUDA_HOME"] == b"/changed"
    assert "CUDA_HOME was changed after `cudaenv use`" in res.stderr
