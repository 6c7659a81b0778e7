"""conda activation hooks (``cudaenv conda-hook``): the planner, the files, and real shells.

Activation runs through the real conda (26.7.1, built by tests/conda.sh into
the test bed): its shell functions in real bash, zsh, dash, fish and tcsh,
for activate, deactivate, ``--stack``, a non-stacked switch, reactivation
(``conda update --all``, ``conda activate`` of the active environment,
``conda shell.<sh> reactivate``) and ``conda env config vars``. Each scenario
also runs without the hooks: with them, the environment is conda's alone plus
the toolkit, and after the last deactivation conda's alone, byte for byte.
py-rattler (pixi's engine) is a second activator, with a HOSTILE toolkit name.
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
from cudaenv.env.plan import plan_use, reapply, undo
from cudaenv.env.state import ACTIVE_VAR, STATE_VAR, decode
from cudaenv.errors import CudaenvError
from cudaenv.outputs.conda_hooks import (
    HOOK_NAME, MARK, NONE_TOKEN, hook_paths, is_ours, plan_activate, plan_deactivate, prefix_key,
    render_hook, saved_var,
)
from helpers import HOSTILE, IN_CI, make_toolkit, need, parse_env0, run_cudaenv, setup_missing, write_wrapper
from test_env_model import environments, profiles

OUTER_V = "12.3.7"  # the fake toolkit under the HOSTILE root
INNER_V = "11.8.0"
OTHER_V = "12.6.2"  # a profile switched to by hand


# ---------------------------------------------------------------- the planner (pure)


def _use(env, ops, name):
    return apply_changes(env, plan_use(env, ops, name).changes)


def _activate(env, key, ops, name):
    return apply_changes(env, plan_activate(env, key, lambda e: plan_use(e, ops, name)).changes)


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
        assert plan_activate(back, "a_1", lambda e: pytest.fail("must not plan a switch")).changes == []
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


def _conda_act(env, prefix, level, stack):
    """What conda exports before the activate scripts: the prefix's bin in front (or in place of the
    active one's, not stacked), CONDA_PREFIX and its level."""
    entries = env["PATH"].split(":")
    old = env.get("CONDA_PREFIX")
    if old and not stack and old + "/bin" in entries:
        entries[entries.index(old + "/bin")] = prefix + "/bin"
    else:
        entries.insert(0, prefix + "/bin")
    out = dict(env, PATH=":".join(entries), CONDA_PREFIX=prefix, CONDA_SHLVL=str(level))
    if old:
        out[f"CONDA_PREFIX_{level - 1}"] = old
    return out


@pytest.mark.parametrize("by_hand", [False, True])
def test_the_toolkit_bin_sits_behind_the_environments_own_and_comes_back_there(by_hand):
    """The hook puts the toolkit's bin right behind $CONDA_PREFIX/bin; a stacked deactivation puts the
    outer record back where it sat (behind A's bin, or in front for a switch made by hand inside A)."""
    from cudaenv.env.ops import Ops

    x = Ops(set={"CUDA_HOME": "/x"}, prepend={"PATH": ["/x/bin"]})
    y = Ops(set={"CUDA_HOME": "/y"}, prepend={"PATH": ["/y/bin"]})
    w = Ops(set={"CUDA_HOME": "/w"}, prepend={"PATH": ["/w/bin"]})
    e0 = {"PATH": "/usr/bin:/bin", "CONDA_SHLVL": "0"}
    a = _activate(_conda_act(e0, "/A", 1, False), "a", x, "x")
    assert a["PATH"] == "/A/bin:/x/bin:/usr/bin:/bin"
    if by_hand:
        a = _use(a, w, "w")
        assert a["PATH"] == "/w/bin:/A/bin:/usr/bin:/bin"
    b = _activate(_conda_act(a, "/B", 2, True), "b", y, "y")
    assert b["PATH"] == "/B/bin:/y/bin:/A/bin:/usr/bin:/bin"
    assert b[saved_var("b", b)].startswith("c1;" if by_hand else "@/A/bin c1;")
    # conda's deactivation exports PATH without B's bin first, CONDA_PREFIX after the hook.
    back = _deactivate(dict(b, PATH=b["PATH"].replace("/B/bin:", "", 1)), "b")
    back = {k: v for k, v in back.items() if k != "CONDA_PREFIX_1"}
    assert dict(back, CONDA_PREFIX="/A", CONDA_SHLVL="1") == a


def test_a_switch_to_an_environment_without_hooks_leaves_the_toolkit_behind_its_bin():
    from cudaenv.env.ops import Ops
    from cudaenv.outputs.conda_hooks import PATH_FIX_VAR

    x = Ops(set={"CUDA_HOME": "/x"}, prepend={"PATH": ["/x/bin"]})
    e0 = {"PATH": "/usr/bin", "CONDA_SHLVL": "0", "CUDA_HOME": "/mine"}
    a = _activate(_conda_act(e0, "/A", 1, False), "a", x, "x")
    # A's deactivate hook runs, then conda exports the PATH it computed before it (B's bin in A's place).
    after_hook = _deactivate(a, "a")
    assert after_hook["CUDA_HOME"] == "/mine" and PATH_FIX_VAR in after_hook
    b = dict(after_hook, **{k: v for k, v in _conda_act(a, "/B", 1, False).items() if k in ("PATH", "CONDA_PREFIX")})
    assert b["PATH"] == "/B/bin:/x/bin:/usr/bin", "B's own commands first"


def test_unreadable_state_is_not_saved_and_a_bad_saved_record_is_noted():
    from cudaenv.env.ops import Ops

    x = Ops(set={"CUDA_HOME": "/x"})
    env = {STATE_VAR: "garbage", ACTIVE_VAR: "old", "CONDA_SHLVL": "1"}
    a = _activate(env, "k", x, "x")
    assert a[saved_var("k", a)] == NONE_TOKEN
    for token in ("c9;nonsense", "@/A/bin", "@ c1;n,w", "@/a%3Ab c1;n,w", "@/a%0Ab c1;n,w", "@/A/bin c9;x", "@"):
        bad = dict(a, **{saved_var("k", a): token})
        plan = plan_deactivate(bad, "k")
        assert any("cannot restore" in n for n in plan.notes), token
        assert apply_changes(bad, plan.changes) == {"CONDA_SHLVL": "1"}, token


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


def test_install_says_when_the_environment_has_its_own_nvcc(world):
    """The toolkit's bin goes behind the environment's: an nvcc of its own would win, so say so."""
    res = _install(world, world["outer"], world["A"])
    assert res.returncode == 0 and "own" not in res.stderr
    nvcc = os.path.join(world["A"], "bin", "nvcc")
    with open(nvcc, "w") as f:
        f.write("#!/bin/sh\necho env nvcc\n")
    os.chmod(nvcc, 0o755)
    res = _install(world, world["outer"], world["A"])
    assert res.returncode == 0, res.stderr
    assert f"{nvcc} comes before" in res.stderr and "remove the environment's nvcc" in res.stderr


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


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_fifo_or_device_in_a_hooks_place_is_foreign_and_not_read(world, kind):
    """"Is this hook ours?" reads its first line: a FIFO blocked that open, /dev/zero has no line end."""
    foreign = os.path.join(world["A"], "etc", "conda", "deactivate.d", HOOK_NAME + ".sh")
    os.makedirs(os.path.dirname(foreign))
    os.mkfifo(foreign) if kind == "fifo" else os.symlink("/dev/zero", foreign)
    res = _install(world, OUTER_V, world["A"])  # run_cudaenv's timeout is the hang guard
    assert res.returncode == 1 and res.stdout == ""
    assert "was not written by cudaenv" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert os.listdir(os.path.dirname(foreign)) == [HOOK_NAME + ".sh"]
    assert not os.path.exists(os.path.join(world["A"], "etc", "conda", "activate.d"))


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


# ---------------------------------------------------------------- real shells, real conda

# conda's templates quote values without escaping them, and refuse prefixes holding spaces: the
# toolkit roots here hold a space and non-ASCII letters, not quotes or `$` (rattler's tests below
# take HOSTILE).
TK_OUTER = "tk/cuda 12.3 èр♞"
TK_INNER = "tk/cuda 11.8 中片"
SHELLS = ["bash", "zsh", "dash", "fish", "tcsh"]
CONDA_SHELLS = SHELLS


@pytest.fixture(scope="session")
def conda_exe() -> str:
    """The real conda that tests/conda.sh builds into the test bed (conda's base prefix is a venv)."""
    from conftest import TESTBED

    exe = os.path.join(TESTBED, "conda", "bin", "conda")
    if not (os.path.isfile(os.path.join(TESTBED, "conda", ".cudaenv-complete")) and os.access(exe, os.X_OK)):
        msg = f"real conda missing at {exe}: run bash tests/conda.sh"
        setup_missing(msg)
    return exe


def _condarc(home) -> None:
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, ".condarc"), "w") as f:
        f.write("solver: classic\noffline: true\nnotify_outdated_conda: false\nauto_activate: false\n")


@pytest.fixture(scope="session")
def conda_envs(conda_exe, tmp_path_factory) -> str:
    """Two empty environments made by `conda create -y -p`, once; tests copy them."""
    root = tmp_path_factory.mktemp("conda-envs")
    home = str(root / "home")
    _condarc(home)
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    for name in ("outer", "inner"):
        res = subprocess.run([conda_exe, "create", "-q", "-y", "-p", str(root / "envs" / name)], env=env,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stdout + res.stderr
    return str(root / "envs")


@pytest.fixture
def cworld(world, conda_exe, conda_envs):
    """``world`` with real conda environments A and B, an isolated HOME with a .condarc, toolkits
    whose roots hold a space and Unicode, and conda's shell functions not yet loaded."""
    tmp = world["tmp"]
    _condarc(str(tmp))
    for name, key in (("outer", "A"), ("inner", "B")):
        dest = tmp / "conda" / "envs" / name
        shutil.copytree(os.path.join(conda_envs, name), str(dest))
        world[key] = str(dest)
    world["outer"] = make_toolkit(str(tmp / TK_OUTER), OUTER_V)
    world["inner"] = make_toolkit(str(tmp / TK_INNER), INNER_V)
    # conda's templates do not escape quotes: the prior CUDA_HOME conda saves must hold none.
    env = dict(world["env"], A=world["A"], B=world["B"], TCONDA=conda_exe, CUDA_HOME="/prior/value with spaces",
               CUDAENV_ROOTS=":".join((world["outer"], world["inner"], world["other"])))
    env.pop("CONDA_SHLVL")  # conda's shell hook sets it (and puts condabin on PATH)
    world["env"] = env
    world["conda"] = conda_exe
    return world


# The commands, per shell family. `update` is `conda update --all` in the active environment:
# conda's own shell function then runs `conda shell.<sh> reactivate` (as after `conda install`).
CMDS = {
    "posix": {"hook": 'eval "$("$TCONDA" shell.{sh} hook)"', "act": 'conda activate "${v}"',
              "stack": 'conda activate --stack "${v}"', "deact": "conda deactivate",
              "update": "conda update -q -y --all >/dev/null", "react": 'eval "$(conda shell.{sh} reactivate)"',
              "dump": 'env -0 > "$OUT/{v}"', "use": 'eval "$(cudaenv use {v})"', "echo": "echo {v}",
              "nvcc": "nvcc --version | grep release"},
    "fish": {"hook": "$TCONDA shell.fish hook | source", "act": "conda activate ${v}",
             "stack": "conda activate --stack ${v}", "deact": "conda deactivate",
             "update": "conda update -q -y --all >/dev/null", "react": "conda shell.fish reactivate | source",
             "dump": "env -0 > $OUT/{v}", "use": "cudaenv use {v} | source", "echo": "echo {v}",
             "nvcc": "nvcc --version | grep release"},
    # conda's csh: `conda` is an alias sourcing conda.csh, which evals what `conda shell.csh` prints.
    "tcsh": {"hook": 'source "`dirname $TCONDA`/../etc/profile.d/conda.csh"', "act": 'conda activate "${v}"',
             "stack": 'conda activate --stack "${v}"', "deact": "conda deactivate",
             "update": "conda update -q -y --all", "react": 'eval "`conda shell.csh reactivate`"',
             "dump": 'env -0 > "$OUT/{v}"', "use": 'eval "`cudaenv use {v}`"', "echo": "echo {v}",
             "nvcc": "nvcc --version | grep release"},
}
HOOK_SH = {"bash": "bash", "zsh": "zsh", "dash": "posix"}


def _fam(shell: str) -> str:
    return "posix" if shell in ("bash", "zsh", "dash") else shell


def script(shell: str, steps: list[tuple], strict: bool = True) -> str:
    """Shell code for ``steps`` (``(op, arg)``), after loading conda's shell functions."""
    fam = _fam(shell)
    lines = ["set -eu"] if fam == "posix" and strict else []
    lines.append(CMDS[fam]["hook"].format(sh=HOOK_SH.get(shell, shell)))
    for step in steps:
        op, arg = step[0], (step[1] if len(step) > 1 else "")
        lines.append(CMDS[fam][op].format(sh=HOOK_SH.get(shell, shell), v=arg))
    return "\n".join(lines) + "\n"


def run_shell(shell: str, text: str, env: dict, cwd, flags: tuple = ()) -> subprocess.CompletedProcess:
    exe = need(shell)
    args = {"bash": [exe, "--norc", "--noprofile"], "zsh": [exe, "-f"], "fish": [exe, "--no-config"],
            "tcsh": [exe, "-f"], "dash": [exe]}[shell]
    return subprocess.run(args + list(flags), input=text, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def dump(out, name) -> dict:
    d = parse_env0((out / name).read_bytes())
    d.pop(b"_", None)
    d.pop(b"SHLVL", None)
    return d


def _path(d) -> list[bytes]:
    return d[b"PATH"].split(b":")


def _theirs(d: dict, tk_bin: bytes | None = None) -> dict:
    """``d`` with what the active cudaenv record says it did taken back (``undo``), no saved records.

    With ``tk_bin``: that toolkit's bin must be on PATH exactly once (no stale copy).
    """
    if tk_bin is not None:
        assert _path(d).count(tk_bin) == 1, _path(d)
    text = {k.decode("utf-8", "surrogateescape"): v.decode("utf-8", "surrogateescape") for k, v in d.items()}
    if STATE_VAR in text:
        text = undo(text, decode(text[STATE_VAR]))
    # conda saves the values its environment variables overwrite (__CONDA_SHLVL_n_NAME): cudaenv's too.
    return {k.encode("utf-8", "surrogateescape"): v.encode("utf-8", "surrogateescape") for k, v in text.items()
            if not k.startswith(("_CUDAENV_CONDA_", "__CONDA_SHLVL_"))}


def _not_condas(d: dict) -> dict:
    return {k: v for k, v in d.items() if not k.startswith((b"CONDA_", b"_CE_", b"__CONDA_"))}


# shell x scenario: conda commands, with each dump's active toolkit ("A", "B" or None).
SCENARIOS = {
    "activate": [("act", "A", "a", "A"), ("deact", "", "after", None)],
    "reactivate": [("act", "A", "a", "A"), ("update", "", "r1", "A"), ("act", "A", "r2", "A"),
                   ("react", "", "r3", "A"), ("deact", "", "after", None)],
    "stack": [("act", "A", "a", "A"), ("stack", "B", "b", "B"), ("update", "", "b2", "B"),
              ("deact", "", "a2", "A"), ("update", "", "a3", "A"), ("deact", "", "after", None)],
    "switch": [("act", "A", "a", "A"), ("act", "B", "b", "B"), ("update", "", "b2", "B"),
               ("deact", "", "a2", "A"), ("deact", "", "after", None)],
    "env config vars": [("act", "A", "a", "A"), ("update", "", "r1", "A"), ("stack", "B", "b", "B"),
                        ("deact", "", "a2", "A"), ("deact", "", "after", None)],
}
# Dumps that must equal an earlier one exactly, but for conda's own variables (conda leaves
# CONDA_PREFIX_1='' behind in POSIX shells, for instance).
SAME = {"r1": "a", "r2": "a", "r3": "a", "b2": "b", "a2": "a", "a3": "a"}


def _run_scenario(shell, w, name, hooks: bool, scenario: list | None = None, after: dict | None = None):
    """Run a scenario's steps with a dump after each; ``after``: more steps after a named one's dump.

    Returns the dumps by name (and the shell's stdout when ``after`` is given).
    """
    scenario = SCENARIOS[name] if scenario is None else scenario
    steps = [("dump", "before")]
    for op, arg, dname, _tk in scenario:
        steps += [(op, arg), ("dump", dname)] + list((after or {}).get(dname, []))
    steps.append(("echo", "ALIVE"))
    res = run_shell(shell, script(shell, steps), w["env"], w["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stdout + res.stderr
    assert "cudaenv" not in res.stderr, res.stderr
    names = ["before"] + [s[2] for s in scenario]
    dumps = {n: dump(w["out"], n) for n in names}
    return dumps if after is None else (dumps, res.stdout)


@pytest.mark.shells
@pytest.mark.parametrize("name", list(SCENARIOS))
@pytest.mark.parametrize("shell", CONDA_SHELLS)
def test_real_conda_gives_back_exactly_what_was_there(shell, name, cworld):
    """Each scenario runs twice in the same environments: without hooks (conda alone), then with.

    Every dump with hooks is conda's alone plus the active toolkit (its bin once on PATH, right
    behind the environment's own); every return to an earlier state is byte for byte that state; after the last
    deactivation the environment is byte for byte what conda alone leaves.
    """
    w = cworld
    if name == "env config vars":
        for prefix, pairs in ((w["A"], ["MY_VAR=conda own value", "CUDA_HOME=/from/conda env vars"]),
                              (w["B"], ["LD_LIBRARY_PATH=/from/conda/inner"])):
            res = subprocess.run([w["conda"], "env", "config", "vars", "set", "-p", prefix, *pairs],
                                 env=w["env"], capture_output=True, text=True, timeout=120)
            assert res.returncode == 0, res.stderr
    alone = _run_scenario(shell, w, name, hooks=False)
    assert _install(w, w["outer"], w["A"]).returncode == 0
    assert _install(w, "11.8", w["B"]).returncode == 0
    hooked = _run_scenario(shell, w, name, hooks=True)
    tk = {"A": (w["outer"] + "/bin").encode(), "B": (w["inner"] + "/bin").encode()}
    home = {"A": w["outer"].encode(), "B": w["inner"].encode()}
    envbin = {"A": (w["A"] + "/bin").encode(), "B": (w["B"] + "/bin").encode()}
    assert hooked["before"] == alone["before"]
    if name == "env config vars":
        # Deactivating B, conda "unsets" B's LD_LIBRARY_PATH (POSIX: `export LD_LIBRARY_PATH=''`)
        # when it was unset before B; with hooks it was set (A's toolkit) and conda restores that.
        for dname, d in alone.items():
            if d.get(b"LD_LIBRARY_PATH") == b"" and dname not in ("before", "b"):
                del d[b"LD_LIBRARY_PATH"]
    for _op, _arg, dname, active in SCENARIOS[name]:
        d = hooked[dname]
        if active is None:
            if name == "env config vars":  # conda keeps what B's LD_LIBRARY_PATH overwrote (A's) for good
                d = {k: v for k, v in d.items() if not k.startswith(b"__CONDA_SHLVL_1_LD_LIBRARY_PATH")}
            assert d == alone[dname], dname
            continue
        assert d[b"CUDA_HOME"] == d[b"CUDA_PATH"] == home[active], dname
        assert _path(d)[:2] == [envbin[active], tk[active]], (dname, "right behind the environment's own bin")
        other = tk["B" if active == "A" else "A"]
        assert other not in _path(d), (dname, "a stale toolkit bin")
        assert _theirs(d, tk[active]) == _theirs(alone[dname]), dname
        if dname in SAME:
            assert _not_condas(d) == _not_condas(hooked[SAME[dname]]), dname
    # conda alone leaves condabin on PATH in tcsh (its csh hook does not put it there first), and in
    # POSIX shells an environment's own variables set to '' (its `unset` is `export NAME=''`).
    left = {k: v for k, v in alone["after"].items() if v == b"" and k not in alone["before"]}
    assert _not_condas(hooked["after"]) == _not_condas({**hooked["before"], b"PATH": alone["after"][b"PATH"], **left})
    if name == "env config vars":
        a = hooked["a"]
        assert a[b"MY_VAR"] == b"conda own value" and a[b"CUDA_HOME"] == home["A"]
        assert b"CUDA_HOME" not in alone["after"] or alone["after"][b"CUDA_HOME"] == hooked["before"][b"CUDA_HOME"]


# A non-stacked switch from A (cudaenv hooks) to B (none, its own nvcc in bin), and back.
NO_HOOK_SWITCH = [("act", "A", "a", "A"), ("act", "B", "b", None), ("deact", "", "a2", "A"),
                  ("deact", "", "after", None)]


@pytest.mark.shells
@pytest.mark.parametrize("shell", CONDA_SHELLS)
def test_real_conda_switch_to_an_environment_without_hooks_runs_its_own_nvcc(shell, cworld):
    """conda exports after A's deactivate hook a PATH it computed before it: A's toolkit bin may stay
    there until the next cudaenv hook, but behind B's bin, so `nvcc` is B's own while CUDA_HOME is unset."""
    w = cworld
    nvcc = os.path.join(w["B"], "bin", "nvcc")
    os.makedirs(os.path.dirname(nvcc), exist_ok=True)
    with open(nvcc, "w") as f:
        f.write("#!/bin/sh\necho 'Cuda compilation tools, release 99.9, V99.9.0 (conda env B)'\n")
    os.chmod(nvcc, 0o755)
    more = {"b": [("echo", "NVCC-IN-B"), ("nvcc",)]}
    alone, out_alone = _run_scenario(shell, w, "", False, NO_HOOK_SWITCH, more)
    assert _install(w, w["outer"], w["A"]).returncode == 0
    hooked, out = _run_scenario(shell, w, "", True, NO_HOOK_SWITCH, more)
    assert "release 99.9, V99.9.0 (conda env B)" in out.split("NVCC-IN-B", 1)[1], out
    tk = (w["outer"] + "/bin").encode()
    a, b, a2 = hooked["a"], hooked["b"], hooked["a2"]
    bbin, abin = (w["B"] + "/bin").encode(), (w["A"] + "/bin").encode()
    assert _path(a)[:2] == [abin, tk], "the toolkit's bin right behind the environment's own"
    assert b.get(b"CUDA_HOME") == alone["b"].get(b"CUDA_HOME") and b"CUDAENV_ACTIVE" not in b
    assert _path(b).index(bbin) < _path(b).index(tk) if tk in _path(b) else True, _path(b)
    assert [e for e in _path(b) if e != tk] == _path(alone["b"])
    assert _not_condas(a2) == _not_condas(a) and _theirs(a2, tk) == _theirs(alone["a2"])
    left = {k: v for k, v in alone["after"].items() if v == b"" and k not in alone["before"]}
    assert _not_condas(hooked["after"]) == _not_condas({**hooked["before"], b"PATH": alone["after"][b"PATH"], **left})


@pytest.mark.shells
@pytest.mark.parametrize("shell", ["bash", "fish", "tcsh"])
def test_real_conda_gives_back_a_profile_switched_by_hand_across_a_reactivation(shell, cworld):
    w = cworld
    assert _install(w, w["outer"], w["A"]).returncode == 0
    steps = [("use", OTHER_V), ("dump", "before"), ("act", "A"), ("dump", "a"), ("update",), ("dump", "r"),
             ("use", INNER_V), ("deact",), ("dump", "after"), ("echo", "ALIVE")]
    res = run_shell(shell, script(shell, steps), w["env"], w["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    before, a, r, after = (dump(w["out"], n) for n in ("before", "a", "r", "after"))
    assert before[b"CUDAENV_ACTIVE"] == f"cuda-{OTHER_V}".encode()
    assert a[b"CUDAENV_ACTIVE"] == f"cuda-{OUTER_V}".encode() and r == a
    assert a[f"_CUDAENV_CONDA_{prefix_key(w['A'])}_1".encode()] == before[b"_CUDAENV_STATE"]
    assert _not_condas(after) == _not_condas({**before, b"PATH": after[b"PATH"]})
    assert [e for e in _path(after) if not e.endswith(b"/condabin")] == \
        [e for e in _path(before) if not e.endswith(b"/condabin")]


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
@pytest.mark.parametrize("shell", CONDA_SHELLS)
def test_a_failing_activate_hook_warns_changes_nothing_and_the_shell_goes_on(shell, how, cworld):
    w = cworld
    assert _install(w, OUTER_V, w["A"]).returncode == 0  # a version, then uninstalled
    _breakers(w, how)
    assert how == "toolkit gone" or shutil.which("cudaenv", path=w["env"]["PATH"]) is None
    steps = [("dump", "before"), ("act", "A"), ("dump", "before_deact"), ("update",), ("deact",)] + FAIL_TAIL
    res = run_shell(shell, script(shell, steps), w["env"], w["tmp"], flags=("-e",) if shell == "tcsh" else ())
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    assert "conda activate hook of outer failed; CUDA environment left as it was" in res.stderr
    if how == "toolkit gone":
        assert f"cudaenv: no CUDA toolkit matches '{OUTER_V}'" in res.stderr
    before, mid, after = (dump(w["out"], n) for n in ("before", "before_deact", "after"))
    A = w["A"].encode()
    assert _not_condas(mid) == _not_condas({**before, b"PATH": mid[b"PATH"]})
    assert [e for e in _path(mid) if e != A + b"/bin" and not e.endswith(b"/condabin")] == \
        [e for e in _path(before) if not e.endswith(b"/condabin")]
    assert _not_condas(after) == _not_condas({**before, b"PATH": after[b"PATH"]})
    assert [e for e in _path(after) if not e.endswith(b"/condabin")] == \
        [e for e in _path(before) if not e.endswith(b"/condabin")]
    if how == "toolkit gone":  # nothing was saved at activation: the deactivate hook had nothing to do
        assert "deactivate hook" not in res.stderr
    else:
        assert "conda deactivate hook of outer failed" in res.stderr


@pytest.mark.shells
@pytest.mark.parametrize("shell", CONDA_SHELLS)
def test_a_failing_deactivate_hook_keeps_the_switch_and_the_shell(shell, cworld):
    w = cworld
    assert _install(w, w["outer"], w["A"]).returncode == 0
    rm = {"posix": 'rm "$CUDAENV_BIN/cudaenv"', "fish": "rm $CUDAENV_BIN/cudaenv", "tcsh": 'rm "$CUDAENV_BIN/cudaenv"'}
    text = script(shell, [("act", "A"), ("dump", "a")]) + rm[_fam(shell)] + "\n" + \
        "\n".join(CMDS[_fam(shell)][op].format(sh=HOOK_SH.get(shell, shell), v=arg)
                  for op, arg in [("deact", "")] + FAIL_TAIL) + "\n"
    env = dict(w["env"], CUDAENV_BIN=str(w["bin"]))
    res = run_shell(shell, text, env, w["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    assert "conda deactivate hook of outer failed; CUDA environment left as it was" in res.stderr
    a, after = dump(w["out"], "a"), dump(w["out"], "after")
    assert after[b"CUDA_HOME"] == a[b"CUDA_HOME"] == w["outer"].encode()
    assert after[b"_CUDAENV_STATE"] == a[b"_CUDAENV_STATE"]


@pytest.mark.shells
def test_the_recorded_cudaenv_gone_falls_back_to_the_one_on_path(cworld):
    w = cworld
    other_bin = w["tmp"] / "other-bin"
    write_wrapper(str(other_bin))
    assert _install(w, w["outer"], w["A"]).returncode == 0
    os.unlink(w["bin"] / "cudaenv")
    env = dict(w["env"], PATH=f"{w['bin']}:{other_bin}:/usr/bin:/bin")
    res = run_shell("dash", script("dash", [("act", "A"), ("dump", "a")]), env, w["tmp"])
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert dump(w["out"], "a")[b"CUDA_HOME"] == w["outer"].encode()


@pytest.mark.shells
@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_a_shell_function_named_cudaenv_is_not_called_by_the_hook(shell, cworld):
    """`cudaenv init` defines a cudaenv function; the PATH fallback must run the program."""
    w = cworld
    other_bin = w["tmp"] / "other-bin"
    write_wrapper(str(other_bin))
    assert _install(w, w["outer"], w["A"]).returncode == 0
    os.unlink(w["bin"] / "cudaenv")
    env = dict(w["env"], PATH=f"{w['bin']}:{other_bin}:/usr/bin:/bin")
    pre = "cudaenv() { echo CALLED >&2; return 1; }\n"
    res = run_shell(shell, pre + script(shell, [("act", "A"), ("dump", "a")]), env, w["tmp"])
    assert res.returncode == 0 and "CALLED" not in res.stderr, res.stderr
    assert dump(w["out"], "a")[b"CUDA_HOME"] == w["outer"].encode()


@pytest.mark.shells
@pytest.mark.testbed
@pytest.mark.parametrize("shell", ["bash", "fish", "tcsh"])
def test_real_toolkits_follow_activation_stacking_switching_and_reactivation(shell, cworld, testbed):
    w = cworld
    env = dict(w["env"], CUDAENV_ROOTS=":".join(testbed.values()))
    assert _install(w, "12.4", w["A"], env).returncode == 0
    assert _install(w, "11.8", w["B"], env).returncode == 0
    # The switch comes before the stack: in POSIX shells conda "unsets" CONDA_STACKED_2 as '' when the
    # stacked B goes, then takes a later non-stacked B at level 2 for a stacked one (docs/conda.md).
    steps = [("act", "A"), ("nvcc",), ("act", "B"), ("nvcc",), ("deact",), ("nvcc",), ("update",), ("nvcc",),
             ("stack", "B"), ("nvcc",), ("update",), ("nvcc",), ("deact",), ("nvcc",), ("deact",),
             ("echo", "which:"), ("dump", "after"), ("echo", "ALIVE")]
    res = run_shell(shell, script(shell, steps, strict=False), env, w["tmp"])
    assert res.returncode == 0 and "ALIVE" in res.stdout, res.stderr
    releases = [line.split("release ")[1].split(",")[0] for line in res.stdout.splitlines() if "release" in line]
    assert releases == ["12.4", "11.8", "12.4", "12.4", "11.8", "11.8", "12.4"]
    after = dump(w["out"], "after")
    assert not any(r.encode() in e for r in testbed.values() for e in _path(after))
    assert b"CUDA_HOME" in after and after[b"CUDA_HOME"] == w["env"]["CUDA_HOME"].encode()


# ---------------------------------------------------------------- a second activator: py-rattler

RATTLER = r'''
"""rattler-act SHELL VAR: py-rattler's activation code (pixi's engine) for the prefix in $VAR.

A switch when CONDA_PREFIX is set: rattler sources the old environment's deactivate scripts,
exports the PATH it computed before them, then sources the new one's activate scripts.
"""
import os
import sys
from pathlib import Path

from rattler.shell import ActivationVariables, PathModificationBehavior, Shell, activate

shell, prefix = sys.argv[1], os.environ[sys.argv[2]]
cur = os.environ.get("CONDA_PREFIX")
av = ActivationVariables(Path(cur) if cur else None, os.environ["PATH"].split(":"), PathModificationBehavior.Replace)
kind = {"bash": Shell.bash, "dash": Shell.bash, "zsh": Shell.zsh, "fish": Shell.fish}[shell]
sys.stdout.write(activate(Path(prefix), av, kind).script)
'''


def need_rattler() -> None:
    try:
        import rattler.shell  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("py-rattler is required under CI (pip install '.[test]')")
        pytest.skip("py-rattler not installed")


def _rattler_script(shell: str, steps: list[tuple]) -> str:
    act = {"posix": 'eval "$(rattler-act {sh} {v})"', "fish": "rattler-act fish {v} | source"}
    dmp = {"posix": 'env -0 > "$OUT/{v}"', "fish": "env -0 > $OUT/{v}"}
    fam = _fam(shell)
    lines = ["set -eu"] if fam == "posix" else []
    for op, arg in steps:
        lines.append((act if op == "act" else dmp)[fam].format(sh=shell, v=arg))
    return "\n".join(lines) + "\n"


@pytest.mark.shells
@pytest.mark.parametrize("shell", ["bash", "zsh", "dash", "fish"])
def test_rattler_activation_and_switch_with_a_hostile_toolkit_name(shell, world):
    """rattler's activation, then `activate B` while A is active (a switch, as in conda)."""
    need_rattler()
    path = os.path.join(world["bin"], "rattler-act")
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\n" + RATTLER)
    os.chmod(path, 0o755)
    # rattler re-exports the current PATH in double quotes without escaping it (py-rattler
    # 0.28): the HOSTILE root can be the target of the first activation, not of a switch.
    assert _install(world, world["outer"], world["A"]).returncode == 0
    assert _install(world, "11.8", world["B"]).returncode == 0
    res = run_shell(shell, _rattler_script(shell, [("dump", "before"), ("act", "A"), ("dump", "a")]),
                    world["env"], world["tmp"])
    assert res.returncode == 0 and res.stderr == "", res.stderr
    before, a = dump(world["out"], "before"), dump(world["out"], "a")
    outer, A = world["outer"].encode(), world["A"].encode()
    assert a[b"CUDA_HOME"] == a[b"CUDA_PATH"] == outer and a[b"CUDAENV_ACTIVE"] == f"cuda-{OUTER_V}".encode()
    assert _path(a)[:2] == [A + b"/bin", outer + b"/bin"]  # the toolkit's bin right behind the environment's
    assert _not_condas(_theirs(a, outer + b"/bin")) == _not_condas({**before, b"PATH": b":".join([A + b"/bin"] + _path(before))})
    assert not list(world["tmp"].glob("PWNED*")), "part of the toolkit name was executed"

    assert _install(world, world["other"], world["A"]).returncode == 0
    res = run_shell(shell, _rattler_script(shell, [("act", "A"), ("dump", "a"), ("act", "B"), ("dump", "b")]),
                    world["env"], world["tmp"])
    assert res.returncode == 0 and res.stderr == "", res.stderr
    a, b = dump(world["out"], "a"), dump(world["out"], "b")
    inner, other, B = world["inner"].encode(), world["other"].encode(), world["B"].encode()
    assert b[b"CUDA_HOME"] == b[b"CUDA_PATH"] == inner and b[b"CUDAENV_ACTIVE"] == f"cuda-{INNER_V}".encode()
    assert b[b"LIBRARY_PATH"] == inner + b"/lib64:" + inner + b"/lib64/stubs"
    assert b[f"_CUDAENV_CONDA_{prefix_key(world['B'])}_1".encode()] == NONE_TOKEN.encode()
    # rattler computed B's PATH before A's deactivate hook ran and exported it after: A's
    # deactivate hook left what it did to PATH for B's activate hook, which did it again.
    assert _path(b) == [B + b"/bin", inner + b"/bin"] + _path(before)
    assert not any(other in e for k in (b"PATH", b"LD_LIBRARY_PATH") for e in b.get(k, b"").split(b":"))
    assert not any(k.startswith(b"_CUDAENV_CONDA_PATH") for k in b)


@pytest.mark.parametrize("record", ["p1;,,a||b,", "p1;,,/x:/y,", "p1;,,%0A,", "p1;bogus", "x9;,,/a,",
                                    "p1;,,/a,,/x|/y", "p1;,,/a,,%0A", "p1;,,/a,,/x,", "p1;,,/a,,|"])
def test_a_corrupt_path_fix_record_is_ignored_and_never_puts_an_empty_entry_on_path(record):
    from cudaenv.outputs.conda_hooks import PATH_FIX_VAR, replay_path_fix

    notes: list[str] = []
    out = replay_path_fix({"PATH": "/usr/bin:/bin", PATH_FIX_VAR: record}, notes)
    assert out == {"PATH": "/usr/bin:/bin"}
    assert notes and PATH_FIX_VAR in notes[0]


def test_conda_hook_install_refuses_a_root_use_refuses(tmp_path):
    """Found by the field pass: install wrote hooks for a root with ':' that every activation then refused."""
    root = make_toolkit(str(tmp_path / "tk" / "cuda:12.3"), "12.3.7")
    prefix = tmp_path / "env"
    (prefix / "conda-meta").mkdir(parents=True)
    write_wrapper(str(tmp_path / "bin"))  # the cudaenv the hooks run, found as install checks it
    env = dict(os.environ, PATH=f"{tmp_path / 'bin'}:/usr/bin:/bin")
    assert run_cudaenv(["use", root, "--shell", "bash"], env).returncode == 2  # use refuses it up front
    res = run_cudaenv(["conda-hook", "install", root, "--prefix", str(prefix)], env)
    assert res.returncode != 0 and res.stdout == "" and "cannot put" in res.stderr, res.stdout + res.stderr
    assert not (prefix / "etc").exists()
