"""conda activation hooks (``cudaenv conda-hook``): the planner, the files, and real shells.

Conda cannot be installed here. Activation runs through a real conda-style
activator, py-rattler (pixi's engine): its scripts source ``activate.d`` and,
on a switch, the old environment's ``deactivate.d``. Rattler has no csh, no
stacking and no deactivate; for those the test activator ``condact`` prints
what conda's ``activate.py`` prints (its templates, and its order: on
deactivate, PATH first, then the deactivate scripts in reverse order, then
the variables, then the outer environment's activate scripts again). Every
hook runs in real bash, zsh, dash, fish and tcsh, with a toolkit root named
HOSTILE and prefixes whose paths hold spaces.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cudaenv.env.ops import apply_changes
from cudaenv.env.plan import plan_use, undo
from cudaenv.env.state import ACTIVE_VAR, STATE_VAR, decode
from cudaenv.errors import CudaenvError
from cudaenv.outputs.conda_hooks import (
    HOOK_NAME, MARK, NONE_TOKEN, hook_paths, is_ours, plan_activate, plan_deactivate, prefix_key, reapply,
    render_hook, saved_var,
)
from helpers import HOSTILE, IN_CI, make_toolkit, need, parse_env0, run_cudaenv, write_wrapper
from test_env_model import environments, profiles

OUTER_V = "12.3.7"  # the fake toolkit under the HOSTILE root
INNER_V = "11.8.0"
OTHER_V = "12.6.2"  # a profile switched to by hand


# ---------------------------------------------------------------- the planner (pure)


def _use(env, ops, name):
    return apply_changes(env, plan_use(env, ops, name).changes)


def _activate(env, key, ops, name):
    return apply_changes(env, plan_activate(env, key, lambda: plan_use(env, ops, name)).changes)


def _deactivate(env, key):
    return apply_changes(env, plan_deactivate(env, key).changes)


@settings(max_examples=200)
@given(environments(), profiles(), profiles(), st.none() | profiles(), st.booleans())
def test_stacked_activation_and_deactivation_give_back_each_level_exactly(env, outer, inner, manual, rerun):
    """conda: E [-> use W by hand] -> activate A -> --stack B -> deactivate B -> deactivate A."""
    e0 = dict(env, CONDA_SHLVL="0")
    if manual is not None:
        e0 = _use(e0, manual[0], "w")
    a = _activate(dict(e0, CONDA_SHLVL="1"), "a_1", outer[0], "x")
    assert a[ACTIVE_VAR] == "x" and a["CUDA_HOME"] == outer[1]
    b = _activate(dict(a, CONDA_SHLVL="2"), "b_2", inner[0], "y")
    assert b[ACTIVE_VAR] == "y" and b["CUDA_HOME"] == inner[1]
    back = dict(_deactivate(b, "b_2"), CONDA_SHLVL="1")
    assert back == a
    if rerun:  # conda sources the outer activate scripts again here: no change
        assert plan_activate(back, "a_1", lambda: pytest.fail("must not plan a switch")).changes == []
    assert dict(_deactivate(back, "a_1"), CONDA_SHLVL="0") == e0


@given(environments(), profiles())
def test_reapplying_a_record_onto_its_off_gives_back_the_environment(env, prof):
    used = _use(env, prof[0], "p")
    state = decode(used[STATE_VAR])
    assert reapply(undo(used, state), state) == used


def test_deactivate_without_a_saved_record_changes_nothing():
    env = {"PATH": "/x/bin:/usr/bin", STATE_VAR: "c1;n,p", ACTIVE_VAR: "p", "CONDA_SHLVL": "1"}
    assert plan_deactivate(env, "k_1").changes == []


def test_switching_by_hand_inside_the_environment_is_undone_by_deactivate():
    from cudaenv.env.ops import Ops

    x = Ops(set={"CUDA_HOME": "/x"}, prepend={"PATH": ["/x/bin"]})
    w = Ops(set={"CUDA_HOME": "/w"}, prepend={"PATH": ["/w/bin"]})
    e0 = {"PATH": "/usr/bin", "CONDA_SHLVL": "1"}
    a = _activate(e0, "k", x, "x")
    assert a[saved_var("k", a)] == NONE_TOKEN
    by_hand = _use(dict(a, PATH="/mine:" + a["PATH"]), w, "w")
    assert _deactivate(by_hand, "k") == {"PATH": "/mine:/usr/bin", "CONDA_SHLVL": "1"}


def test_unreadable_state_is_not_saved_and_a_bad_saved_record_is_noted():
    from cudaenv.env.ops import Ops

    x = Ops(set={"CUDA_HOME": "/x"})
    env = {STATE_VAR: "garbage", ACTIVE_VAR: "old", "CONDA_SHLVL": "1"}
    a = _activate(env, "k", x, "x")
    assert a[saved_var("k", a)] == NONE_TOKEN
    bad = dict(a, **{saved_var("k", a): "c9;nonsense"})
    plan = plan_deactivate(bad, "k")
    assert any("cannot restore" in n for n in plan.notes)
    assert apply_changes(bad, plan.changes) == {"CONDA_SHLVL": "1"}


def test_saved_variable_names():
    key = prefix_key("/opt/conda/envs/my env-1")
    assert key.startswith("my_env_1_") and len(key) == len("my_env_1_") + 8
    assert prefix_key("/opt/conda/envs/my env-1/") == key
    assert prefix_key("/x/" + HOSTILE).isascii()
    assert saved_var(key, {"CONDA_SHLVL": "3"}) == f"_CUDAENV_CONDA_{key}_3"
    assert saved_var(key, {}) == saved_var(key, {"CONDA_SHLVL": "x"}) == f"_CUDAENV_CONDA_{key}_0"


# ---------------------------------------------------------------- the files


def test_render_quotes_for_each_shell_and_starts_with_the_mark():
    for kind, ext, _p in hook_paths("/p"):
        text = render_hook(kind, ext, "/p", "p_1", "/bin dir/cudaenv", "/t/" + HOSTILE if kind == "activate" else None)
        assert text.startswith(MARK + " ")
        body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
        assert "exit" not in body and "return" not in body and "set -e" not in body
        if kind == "activate":
            assert "`touch PWNED2`" in body  # the target is there, quoted
    with pytest.raises(CudaenvError, match="newline"):
        render_hook("activate", "sh", "/p", "p_1", None, "/a\nb")


@pytest.fixture
def world(tmp_path):
    """A cudaenv command on PATH, three fake toolkits (one HOSTILE) and two prefixes with spaces."""
    outer_root = make_toolkit(str(tmp_path / HOSTILE), OUTER_V)
    inner_root = make_toolkit(str(tmp_path / "tk" / "cuda-11.8"), INNER_V)
    other_root = make_toolkit(str(tmp_path / "tk" / "cuda-12.6"), OTHER_V)
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    _write_activator(bindir)
    prefixes = {}
    for name in ("outer env", "inner env"):
        p = tmp_path / "conda" / "envs" / name
        (p / "conda-meta").mkdir(parents=True)
        (p / "bin").mkdir()
        prefixes[name] = str(p)
    out = tmp_path / "out"
    out.mkdir()
    env = {
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:/usr/bin:/bin",  # no other cudaenv (pip may put one in /usr/local/bin)
        "LC_ALL": "C.UTF-8",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "CUDAENV_ROOTS": ":".join((outer_root, inner_root, other_root)),
        "OUT": str(out),
        "A": prefixes["outer env"],
        "B": prefixes["inner env"],
        "CONDA_SHLVL": "0",  # as in a shell where `conda init` ran
        # Prior values to give back: a scalar with a value, an empty list, an unset list.
        "CUDA_HOME": "/prior/value with 'quotes'",
        "LIBRARY_PATH": "",
    }
    return {"tmp": tmp_path, "env": env, "out": out, "bin": bindir, "A": prefixes["outer env"],
            "B": prefixes["inner env"], "outer": outer_root, "inner": inner_root, "other": other_root}


def _install(world, target, prefix, env=None):
    return run_cudaenv(["conda-hook", "install", target, "--prefix", prefix], env or world["env"])


def test_install_writes_six_files_and_remove_deletes_them(world):
    res = _install(world, world["outer"], world["A"])
    assert res.returncode == 0, res.stderr
    paths = [p for _k, _e, p in hook_paths(world["A"])]
    assert all(is_ours(p) for p in paths)
    wrote = [line for line in res.stdout.splitlines() if line.startswith("wrote")]
    assert len(wrote) == 6 and all("/deactivate.d/" in line for line in wrote[:3])  # deactivate hooks first
    assert f"switches to cuda-{OUTER_V}" in res.stdout and str(world["bin"] / "cudaenv") in res.stdout
    text = open(os.path.join(world["A"], "etc", "conda", "activate.d", HOOK_NAME + ".sh")).read()
    assert str(world["bin"] / "cudaenv") in text and prefix_key(world["A"]) in text
    for d in ("activate.d", "deactivate.d"):
        left = [n for n in os.listdir(os.path.join(world["A"], "etc", "conda", d)) if not n.startswith(HOOK_NAME)]
        assert left == [], "a temporary file was left behind"
        assert oct(os.stat(os.path.join(world["A"], "etc", "conda", d, HOOK_NAME + ".sh")).st_mode & 0o777) == "0o644"
    again = _install(world, INNER_V, world["A"])  # replaces ours
    assert again.returncode == 0, again.stderr
    assert f"_activate --shell sh -- {prefix_key(world['A'])} 11.8.0)" in open(paths[0]).read()
    rm = run_cudaenv(["conda-hook", "remove", "--prefix", world["A"]], world["env"])
    deleted = [line for line in rm.stdout.splitlines() if line.startswith("deleted")]
    assert len(deleted) == 6 and all("/activate.d/" in line for line in deleted[:3])  # activate hooks first
    assert not any(os.path.exists(p) for p in paths)
    rm2 = run_cudaenv(["conda-hook", "remove", "--prefix", world["A"]], world["env"])
    assert rm2.returncode == 0 and "no cudaenv hooks" in rm2.stderr


def test_foreign_files_are_never_overwritten_or_deleted(world):
    foreign = os.path.join(world["A"], "etc", "conda", "deactivate.d", HOOK_NAME + ".fish")
    os.makedirs(os.path.dirname(foreign))
    with open(foreign, "w") as f:
        f.write("# somebody else's\n")
    res = _install(world, OUTER_V, world["A"])
    assert res.returncode == 1 and res.stdout == ""
    assert "was not written by cudaenv" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert sorted(os.listdir(os.path.dirname(foreign))) == [HOOK_NAME + ".fish"]
    assert not os.path.exists(os.path.join(world["A"], "etc", "conda", "activate.d"))
    os.unlink(foreign)
    assert _install(world, OUTER_V, world["A"]).returncode == 0
    with open(foreign, "w") as f:
        f.write("# somebody else's\n")
    rm = run_cudaenv(["conda-hook", "remove", "--prefix", world["A"]], world["env"])
    assert rm.returncode == 1 and rm.stdout == "" and "not deleting it" in rm.stderr
    assert all(os.path.exists(p) for _k, _e, p in hook_paths(world["A"]))


def test_prefix_defaults_to_conda_prefix_and_errors_are_one_line(world):
    env = dict(world["env"])
    res = run_cudaenv(["conda-hook", "install", OUTER_V], env)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("cudaenv: no conda environment named and none is active")
    assert len(res.stderr.strip().splitlines()) == 1
    env["CONDA_PREFIX"] = world["A"]
    res = run_cudaenv(["conda-hook", "install", OUTER_V], env)
    assert res.returncode == 0, res.stderr
    assert "take effect at its next activation" in res.stderr
    assert is_ours(os.path.join(world["A"], "etc", "conda", "activate.d", HOOK_NAME + ".csh"))
    not_env = str(world["tmp"] / "plain")
    os.mkdir(not_env)
    res = _install(world, OUTER_V, not_env)
    assert res.returncode == 2 and "not a conda environment" in res.stderr and res.stdout == ""
    res = _install(world, "99.9", world["B"])
    assert res.returncode != 0 and res.stdout == "" and "99.9" in res.stderr
    assert not os.path.exists(os.path.join(world["B"], "etc"))


def test_install_refuses_a_cudaenv_that_cannot_run_the_hooks(world):
    old = world["tmp"] / "old-bin"
    old.mkdir()
    (old / "cudaenv").write_text("#!/bin/sh\necho \"Error: No such command 'conda-hook'.\" >&2\nexit 2\n")
    (old / "cudaenv").chmod(0o755)
    env = dict(world["env"], PATH=f"{old}:{world['env']['PATH']}")
    res = _install(world, OUTER_V, world["A"], env)
    assert res.returncode == 1 and res.stdout == ""
    assert f"{old}/cudaenv cannot run the conda hooks: Error: No such command 'conda-hook'." in res.stderr
    assert not os.path.exists(os.path.join(world["A"], "etc"))


def test_hidden_commands_refuse_bad_arguments(world):
    for args in (["_activate"], ["_activate", "--shell", "sh", "--", "k"], ["_deactivate", "--shell", "sh", "--", "bad key"],
                 ["_deactivate", "--shell", "nosh", "--", "k"], ["_deactivate", "--bogus"]):
        res = run_cudaenv(["conda-hook", *args], world["env"])
        assert res.returncode == 2 and res.stdout == "", args


# ---------------------------------------------------------------- real shells, real activator


ACTIVATOR = r'''
"""condact SHELL activate|stack|deactivate [VAR]: the code a conda-style activator prints.

VAR names the environment variable holding the prefix. `activate` in bash, zsh,
dash and fish is py-rattler's real activator (a switch when CONDA_PREFIX is set);
dash gets its bash script. tcsh (rattler has no csh), `stack` and `deactivate`
(rattler has neither) follow conda's activate.py: its templates and its order.
"""
import os
import sys
from glob import escape, glob

shell, cmd = sys.argv[1], sys.argv[2]
prefix = os.environ[sys.argv[3]] if len(sys.argv) > 3 else None
env = os.environ
if cmd == "activate" and shell != "tcsh":
    from pathlib import Path

    from rattler.shell import ActivationVariables, PathModificationBehavior, Shell, activate

    cur = env.get("CONDA_PREFIX")
    av = ActivationVariables(Path(cur) if cur else None, env["PATH"].split(":"), PathModificationBehavior.Replace)
    kind = {"bash": Shell.bash, "dash": Shell.bash, "zsh": Shell.zsh, "fish": Shell.fish}[shell]
    sys.stdout.write(activate(Path(prefix), av, kind).script)
    sys.exit(0)

ext = {"bash": "sh", "dash": "sh", "zsh": "sh", "fish": "fish", "tcsh": "csh"}[shell]
# conda's templates put values in quotes without escaping them (export %s='%s'): a PATH entry
# holding a quote would break conda's own code. Here values are quoted properly, since the
# PATH it re-exports holds the toolkit directory named HOSTILE.
quote = {
    "sh": lambda v: "'" + v.replace("'", "'\\''") + "'",
    "fish": lambda v: "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'",
    "csh": lambda v: "'" + v.replace("'", "'\\''").replace("!", "'\\!'") + "'",
}[ext]
export = {"sh": "export %s=%s", "fish": "set -gx %s %s", "csh": "setenv %s %s"}[ext]
unset = {"sh": "unset %s", "fish": "set -e %s", "csh": "unsetenv %s"}[ext]
run = {"sh": ". %s", "fish": "source %s", "csh": "source %s"}[ext]
join = "\n" if ext == "sh" else ";\n"


def pathjoin(entries):
    return " ".join(quote(e) for e in entries) if ext == "fish" else quote(":".join(entries))


def scripts(p, kind):
    return sorted(glob(os.path.join(escape(p), "etc", "conda", kind + ".d", "*." + ext)),
                  reverse=kind == "deactivate")


path = env["PATH"].split(":")
lvl = int(env.get("CONDA_SHLVL") or 0)
old = env.get("CONDA_PREFIX")
out = []
if cmd in ("activate", "stack"):  # build_activate at level 0 (csh), build_stack
    assert cmd == "stack" or lvl == 0
    new = lvl + 1
    out += [export % ("PATH", pathjoin([prefix + "/bin"] + path)), export % ("CONDA_PREFIX", quote(prefix)),
            export % ("CONDA_SHLVL", new)]
    if cmd == "stack" and lvl:
        out += [export % ("CONDA_PREFIX_%d" % lvl, quote(old)), export % ("CONDA_STACKED_%d" % new, "true")]
    out += [run % quote(s) for s in scripts(prefix, "activate")]
elif cmd == "deactivate":  # build_deactivate: PATH, deactivate scripts, variables, outer activate scripts
    if old + "/bin" in path:
        path.remove(old + "/bin")
    out.append(export % ("PATH", pathjoin(path)))
    out += [run % quote(s) for s in scripts(old, "deactivate")]
    if lvl == 1:
        out += [unset % "CONDA_PREFIX", export % ("CONDA_SHLVL", 0)]
    else:
        assert "CONDA_STACKED_%d" % lvl in env, "only stacked environments here"
        outer = env["CONDA_PREFIX_%d" % (lvl - 1)]
        out += [unset % ("CONDA_PREFIX_%d" % (lvl - 1)), unset % ("CONDA_STACKED_%d" % lvl),
                export % ("CONDA_PREFIX", quote(outer)), export % ("CONDA_SHLVL", lvl - 1)]
        out += [run % quote(s) for s in scripts(outer, "activate")]
sys.stdout.write(join.join(out + [""]))
'''


def _write_activator(bindir) -> None:
    path = os.path.join(bindir, "condact")
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\n" + ACTIVATOR)
    os.chmod(path, 0o755)


def need_rattler() -> None:
    try:
        import rattler.shell  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("py-rattler is required under CI (pip install '.[test]')")
        pytest.skip("py-rattler not installed")


# The commands, per shell: activate (rattler, or conda's csh), stack, deactivate, dump.
CMDS = {
    "posix": {"act": 'eval "$(condact {sh} activate {v})"', "stack": 'eval "$(condact {sh} stack {v})"',
              "deact": 'eval "$(condact {sh} deactivate)"', "dump": 'env -0 > "$OUT/{n}"',
              "use": 'eval "$(cudaenv use {t})"', "echo": "echo {w}"},
    "fish": {"act": "condact fish activate {v} | source", "stack": "condact fish stack {v} | source",
             "deact": "condact fish deactivate | source", "dump": "env -0 > $OUT/{n}",
             "use": "cudaenv use {t} | source", "echo": "echo {w}"},
    # conda's csh: eval "`conda shell.csh activate ...`", lines joined by ";".
    "tcsh": {"act": 'eval "`condact tcsh activate {v}`"', "stack": 'eval "`condact tcsh stack {v}`"',
             "deact": 'eval "`condact tcsh deactivate`"', "dump": 'env -0 > "$OUT/{n}"',
             "use": 'eval "`cudaenv use {t}`"', "echo": "echo {w}"},
}
SHELLS = ["bash", "zsh", "dash", "fish", "tcsh"]


def script(shell: str, steps: list[tuple]) -> str:
    fam = "posix" if shell in ("bash", "zsh", "dash") else shell
    lines = ["set -eu"] if fam == "posix" else []
    for step in steps:
        op, arg = step[0], (step[1] if len(step) > 1 else "")
        tmpl = CMDS[fam][op]
        lines.append(tmpl.format(sh=shell, v=arg, n=arg, t=arg, w=arg))
    return "\n".join(lines) + "\n"


def run_shell(shell: str, text: str, env: dict, cwd, flags: tuple = ()) -> subprocess.CompletedProcess:
    exe = need(shell)
    args = {"bash": [exe, "--norc", "--noprofile"], "zsh": [exe, "-f"], "fish": [exe, "--no-config"],
            "tcsh": [exe, "-f"], "dash": [exe]}[shell]
    return subprocess.run(args + list(flags), input=text, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=180)


def dump(out, name) -> dict:
    d = parse_env0((out / name).read_bytes())
    d.pop(b"_", None)
    d.pop(b"SHLVL", None)
    return d


def _path(d) -> list[bytes]:
    return d[b"PATH"].split(b":")


@pytest.mark.shells
@pytest.mark.parametrize("shell", SHELLS)
def test_activate_stack_deactivate_in_real_shells(shell, world):
    need_rattler()
    assert _install(world, world["outer"], world["A"]).returncode == 0
    assert _install(world, "11.8", world["B"]).returncode == 0
    steps = [("dump", "before"), ("act", "A"), ("dump", "a"), ("stack", "B"), ("dump", "b"),
             ("deact",), ("dump", "a2"), ("deact",), ("dump", "after"), ("echo", "ALIVE")]
    res = run_shell(shell, script(shell, steps), world["env"], world["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    assert res.stderr == "", res.stderr
    out = world["out"]
    before, a, b, a2, after = (dump(out, n) for n in ("before", "a", "b", "a2", "after"))
    outer, inner = world["outer"].encode(), world["inner"].encode()
    A, B = world["A"].encode(), world["B"].encode()
    ka, kb = prefix_key(world["A"]), prefix_key(world["B"])
    # The outer environment: its own bin from the activator, the toolkit in front (the hook ran last).
    assert a[b"CUDA_HOME"] == a[b"CUDA_PATH"] == outer and a[b"CUDAENV_ACTIVE"] == f"cuda-{OUTER_V}".encode()
    assert _path(a)[:2] == [outer + b"/bin", A + b"/bin"]
    assert a[f"_CUDAENV_CONDA_{ka}_1".encode()] == NONE_TOKEN.encode()
    # Stacked: a switch to the inner toolkit; the outer record is saved for the inner deactivation.
    assert b[b"CUDA_HOME"] == inner and b[b"CUDAENV_ACTIVE"] == f"cuda-{INNER_V}".encode()
    assert _path(b)[:3] == [inner + b"/bin", B + b"/bin", A + b"/bin"] and outer + b"/bin" not in _path(b)
    assert b[f"_CUDAENV_CONDA_{kb}_2".encode()] == a[b"_CUDAENV_STATE"]
    # Deactivating the inner one gives back the outer one exactly (conda then re-ran A's activate hook).
    assert a2 == a
    assert after == before
    assert not list(world["tmp"].glob("PWNED*")), "part of the toolkit name was executed"


@pytest.mark.shells
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_rattler_switch_runs_the_old_deactivate_then_the_new_activate(shell, world):
    """`activate B` while A is active (no --stack) is a switch, in rattler as in conda."""
    need_rattler()
    # Not the HOSTILE root here: rattler re-exports the current PATH in double quotes without
    # escaping it (py-rattler 0.28), so a `$(...)` in a PATH entry would run. Documented.
    assert _install(world, world["other"], world["A"]).returncode == 0
    assert _install(world, "11.8", world["B"]).returncode == 0
    res = run_shell(shell, script(shell, [("act", "A"), ("dump", "a"), ("act", "B"), ("dump", "b")]),
                    world["env"], world["tmp"])
    assert res.returncode == 0 and res.stderr == "", res.stderr
    a, b = dump(world["out"], "a"), dump(world["out"], "b")
    inner, outer = world["inner"].encode(), world["other"].encode()
    assert a[b"CUDA_HOME"] == outer
    assert b[b"CUDA_HOME"] == inner and b[b"CUDA_PATH"] == inner and b[b"CUDAENV_ACTIVE"] == f"cuda-{INNER_V}".encode()
    assert b[b"LIBRARY_PATH"] == inner + b"/lib64:" + inner + b"/lib64/stubs"
    assert not any(outer in e for e in b[b"LD_LIBRARY_PATH"].split(b":"))
    # Saved: nothing was active before B (A's deactivate hook had switched off first).
    assert b[f"_CUDAENV_CONDA_{prefix_key(world['B'])}_1".encode()] == NONE_TOKEN.encode()
    assert f"_CUDAENV_CONDA_{prefix_key(world['A'])}_1".encode() not in b
    assert _path(b)[0] == inner + b"/bin"
    # The activator computed B's PATH before A's deactivate hook ran and exports it after
    # (conda does the same on a switch): the outer toolkit's bin comes back as a plain entry,
    # behind B's. Documented in docs/conda.md; --stack, or deactivate first, avoids it.
    assert outer + b"/bin" in _path(b)[1:]
    assert decode(b[b"_CUDAENV_STATE"].decode()).lists["PATH"][1] == [world["inner"] + "/bin"]


@pytest.mark.shells
def test_bash_gives_back_a_profile_switched_by_hand_before_and_after_a_hand_switch_inside(world):
    need_rattler()
    assert _install(world, world["outer"], world["A"]).returncode == 0
    steps = [("use", OTHER_V), ("dump", "before"), ("act", "A"), ("dump", "a"), ("use", INNER_V), ("deact",),
             ("dump", "after")]
    res = run_shell("bash", script("bash", steps), world["env"], world["tmp"])
    assert res.returncode == 0, res.stderr
    before, a, after = (dump(world["out"], n) for n in ("before", "a", "after"))
    assert before[b"CUDAENV_ACTIVE"] == f"cuda-{OTHER_V}".encode()
    assert a[b"CUDAENV_ACTIVE"] == f"cuda-{OUTER_V}".encode()
    assert a[f"_CUDAENV_CONDA_{prefix_key(world['A'])}_1".encode()] == before[b"_CUDAENV_STATE"]
    assert after == before


# What each shell runs to show that it is still alive and that nothing changed.
FAIL_TAIL = [("dump", "after"), ("echo", "ALIVE")]


def _breakers(world, how: str):
    """Make the hooks fail: the recorded toolkit deleted, or cudaenv itself gone."""
    if how == "toolkit gone":
        shutil.rmtree(world["outer"])
    else:
        os.unlink(world["bin"] / "cudaenv")


@pytest.mark.shells
@pytest.mark.parametrize("how", ["toolkit gone", "cudaenv gone"])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_failing_activate_hook_warns_changes_nothing_and_the_shell_goes_on(shell, how, world):
    need_rattler()
    assert _install(world, OUTER_V, world["A"]).returncode == 0  # a version, then uninstalled
    _breakers(world, how)
    assert how == "toolkit gone" or shutil.which("cudaenv", path=world["env"]["PATH"]) is None
    steps = [("act", "A"), ("dump", "before_deact"), ("deact",)] + FAIL_TAIL
    pre = script(shell, [("dump", "before")])
    if shell == "tcsh":
        res = run_shell(shell, pre + script(shell, steps), world["env"], world["tmp"], flags=("-e",))
    else:
        res = run_shell(shell, pre + script(shell, steps), world["env"], world["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    assert "conda activate hook of this environment failed; CUDA environment left as it was" in res.stderr
    if how == "toolkit gone":
        assert f"cudaenv: no CUDA toolkit matches '{OUTER_V}'" in res.stderr
    before, mid, after = (dump(world["out"], n) for n in ("before", "before_deact", "after"))
    A = world["A"].encode()
    assert {k: v for k, v in mid.items() if not k.startswith(b"CONDA_") and k != b"PATH"} == \
        {k: v for k, v in before.items() if not k.startswith(b"CONDA_") and k != b"PATH"}
    assert _path(mid) == [A + b"/bin"] + _path(before)
    assert after == before
    if how == "toolkit gone":  # nothing was saved at activation: the deactivate hook had nothing to do
        assert "deactivate hook" not in res.stderr
    else:
        assert "conda deactivate hook of this environment failed" in res.stderr


@pytest.mark.shells
@pytest.mark.parametrize("shell", SHELLS)
def test_a_failing_deactivate_hook_keeps_the_switch_and_the_shell(shell, world):
    need_rattler()
    assert _install(world, world["outer"], world["A"]).returncode == 0
    steps = [("act", "A"), ("dump", "a")]
    rm = {"posix": 'rm "$CUDAENV_BIN/cudaenv"', "fish": "rm $CUDAENV_BIN/cudaenv", "tcsh": 'rm "$CUDAENV_BIN/cudaenv"'}
    fam = "posix" if shell in ("bash", "zsh", "dash") else shell
    text = script(shell, steps) + rm[fam] + "\n" + script(shell, [("deact",)] + FAIL_TAIL).replace("set -eu\n", "")
    env = dict(world["env"], CUDAENV_BIN=str(world["bin"]))
    res = run_shell(shell, text, env, world["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    assert "conda deactivate hook of this environment failed; CUDA environment left as it was" in res.stderr
    a, after = dump(world["out"], "a"), dump(world["out"], "after")
    assert after[b"CUDA_HOME"] == a[b"CUDA_HOME"] == world["outer"].encode()
    assert after[b"_CUDAENV_STATE"] == a[b"_CUDAENV_STATE"]


@pytest.mark.shells
def test_the_recorded_cudaenv_gone_falls_back_to_the_one_on_path(world):
    need_rattler()
    other_bin = world["tmp"] / "other-bin"
    write_wrapper(str(other_bin))
    assert _install(world, world["outer"], world["A"]).returncode == 0
    os.unlink(world["bin"] / "cudaenv")
    env = dict(world["env"], PATH=f"{world['bin']}:{other_bin}:/usr/bin:/bin")
    res = run_shell("dash", script("dash", [("act", "A"), ("dump", "a")]), env, world["tmp"])
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert dump(world["out"], "a")[b"CUDA_HOME"] == world["outer"].encode()


@pytest.mark.shells
@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_a_shell_function_named_cudaenv_is_not_called_by_the_hook(shell, world):
    """`cudaenv init` defines a cudaenv function; the PATH fallback must run the program."""
    need_rattler()
    other_bin = world["tmp"] / "other-bin"
    write_wrapper(str(other_bin))
    assert _install(world, world["outer"], world["A"]).returncode == 0
    os.unlink(world["bin"] / "cudaenv")
    env = dict(world["env"], PATH=f"{world['bin']}:{other_bin}:/usr/bin:/bin")
    pre = "cudaenv() { echo CALLED >&2; return 1; }\n"
    res = run_shell(shell, pre + script(shell, [("act", "A"), ("dump", "a")]), env, world["tmp"])
    assert res.returncode == 0 and "CALLED" not in res.stderr, res.stderr
    assert dump(world["out"], "a")[b"CUDA_HOME"] == world["outer"].encode()


@pytest.mark.shells
@pytest.mark.testbed
@pytest.mark.parametrize("shell", ["bash", "fish", "tcsh"])
def test_real_toolkits_follow_activation_and_stacking(shell, world, testbed):
    need_rattler()
    env = dict(world["env"], CUDAENV_ROOTS=":".join(testbed.values()))
    assert _install(world, "12.4", world["A"], env).returncode == 0
    assert _install(world, "11.8", world["B"], env).returncode == 0
    fam = "posix" if shell in ("bash", "zsh", "dash") else shell
    nv = {"posix": "nvcc --version | grep release", "fish": "nvcc --version | grep release",
          "tcsh": "nvcc --version | grep release"}[fam]
    text = script(shell, [("act", "A")]) + nv + "\n" + script(shell, [("stack", "B")]).replace("set -eu\n", "") + nv + \
        "\n" + script(shell, [("deact",)]).replace("set -eu\n", "") + nv + "\n" + \
        script(shell, [("deact",), ("echo", "ALIVE")]).replace("set -eu\n", "")
    res = run_shell(shell, text, env, world["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    releases = [line.split("release ")[1].split(",")[0] for line in res.stdout.splitlines() if "release" in line]
    assert releases == ["12.4", "11.8", "12.4"]
