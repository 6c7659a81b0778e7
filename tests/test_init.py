"""``cudaenv init``: the shell function, completion and the --auto hook, in real shells.

bash, zsh, fish and tcsh each load the documented incantation and then type
``cudaenv use`` / ``off`` / ``list`` with a toolkit root named HOSTILE. bash
runs interactively (``-i``, commands on stdin) so PROMPT_COMMAND fires as at
a terminal; zsh's chpwd hook, fish's PWD event and tcsh's cwdcmd fire on
``cd`` in scripts too. A missing shell skips locally and fails under CI=true.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cudaenv.context import Context
from cudaenv.env.ops import apply_changes
from cudaenv.env.state import ACTIVE_VAR, STATE_VAR
from cudaenv.commands.auto import AUTO_VAR, PIN_VAR, plan_auto
from cudaenv.shells import INIT_SHELLS
from cudaenv.commands.init import RUN_FROM, init_text
from cudaenv.shells import shell as _shell


def shell_file(name: str) -> str:
    return _shell(name).init_file(name)
from helpers import HOSTILE, REPO, make_toolkit, need, one_error_line, parse_env0, run_cudaenv, write_wrapper

NEW = "12.3.7"  # under the HOSTILE root
OLD = "11.8.0"


# ---------------------------------------------------------------- init output


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_init_prints_the_shipped_file(shell):
    with open(shell_file(shell), encoding="utf-8") as f:
        text = f.read()
    assert init_text(shell) == text
    assert init_text(shell, auto=True) == text + "_cudaenv_enable_auto\n"
    # Started as `python -m cudaenv` with this checkout on PYTHONPATH: the functions run that, not PATH's.
    override = _shell(shell).runner_override([sys.executable, "-c", RUN_FROM, REPO])
    res = run_cudaenv(["init", shell], dict(os.environ))
    assert res.returncode == 0 and res.stdout == text + override and res.stderr == ""
    assert run_cudaenv(["init", "--auto", shell], dict(os.environ)).stdout == text + override + "_cudaenv_enable_auto\n"


def test_init_tcsh_sources_the_shipped_file():
    path = shell_file("tcsh")
    hook = os.path.join(os.path.dirname(path), "cudaenv-hook.tcsh")
    assert os.path.isfile(path) and os.path.isfile(hook)
    assert init_text("tcsh") == f"source '{path}' _cudaenv_init '{path}';\n"
    assert init_text("tcsh", auto=True) == f"source '{path}' _cudaenv_init '{path}' auto;\nsource '{hook}';\n"


def test_init_detects_the_shell_and_refuses_others():
    env = dict(os.environ, CUDAENV_SHELL="fish")
    assert run_cudaenv(["init"], env).stdout == init_text("fish", runner=[sys.executable, "-c", RUN_FROM, REPO])
    res = run_cudaenv(["init", "dash"], dict(os.environ))
    assert res.returncode == 2 and res.stdout == ""
    assert "supports bash, zsh, fish, tcsh, not 'dash'" in res.stderr
    assert "--auto" in run_cudaenv(["init", "--help"], dict(os.environ)).stdout  # click's help


def test_top_level_shell_dir_holds_the_packaged_files():
    names = sorted(os.listdir(os.path.dirname(shell_file("bash"))))
    assert names == ["cudaenv-hook.tcsh", "cudaenv.bash", "cudaenv.fish", "cudaenv.tcsh", "cudaenv.zsh"]
    for name in names:
        top = os.path.join(REPO, "shell", name)
        assert os.path.realpath(top) == os.path.realpath(os.path.join(os.path.dirname(shell_file("bash")), name))



def test_wheel_ships_the_shell_files_slow(tmp_path):
    """A pip/pipx install gets cudaenv/shell/ (package data): build the wheel and look."""
    import shutil
    import zipfile

    src = tmp_path / "src"
    shutil.copytree(REPO, src, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", ".hypothesis",
                                                  ".pytest_cache", "__pycache__", ".benchmarks"))
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "w"),
                          str(src)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    (wheel,) = (tmp_path / "w").glob("cudaenv-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("cudaenv.bash", "cudaenv.zsh", "cudaenv.fish", "cudaenv.tcsh", "cudaenv-hook.tcsh"):
        assert f"cudaenv/shell/{f}" in names

def test_init_auto_and_completion_import_nothing_heavy(tmp_path):
    """Every shell start runs init; every cd into a project runs _auto; TAB runs completion."""
    make_toolkit(str(tmp_path / "tk" / "cuda-12.4"), "12.4.1")
    pin = tmp_path / "proj" / ".cuda-version"
    pin.parent.mkdir()
    pin.write_text("12.4\n")
    env = dict(os.environ, CUDAENV_ROOTS=str(tmp_path / "tk" / "cuda-12.4"), CUDAENV_SHELL="bash")
    run_cudaenv(["use", "12.4"], env)  # warm the cache
    code = (
        "import io, os, sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules)\n"
        "from cudaenv.main import main\n"
        "sys.stdout = io.TextIOWrapper(io.BytesIO())\n"
        "main(['init', 'bash']); main(['init', 'tcsh', '--auto']); main(['_auto', sys.argv[2]])\n"
        "os.environ.update(_CUDAENV_COMPLETE='bash_complete', COMP_WORDS='cudaenv use 1', COMP_CWORD='2')\n"
        "main([])\n"
        "heavy = {'click', 'yaml', 'distro', 're', 'json', 'subprocess', 'shlex'} & (set(sys.modules) - before)\n"
        "print(sorted(heavy), file=sys.__stdout__)\n"
    )
    res = subprocess.run([sys.executable, "-c", code, REPO, str(pin)], env=env, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


# ---------------------------------------------------------------- the --auto planner


@pytest.fixture
def two(tmp_path):
    base = tmp_path / "tk"
    make_toolkit(str(base / "cuda-11.8"), OLD)
    make_toolkit(str(base / "cuda-12.3"), NEW)
    p1 = tmp_path / "p1"
    p2 = tmp_path / "p2"
    for p, v in ((p1, "11.8"), (p2, "12.3")):
        p.mkdir()
        (p / ".cuda-version").write_text(f"# pinned\n{v}\n")
    env = {"CUDAENV_ROOTS": f"{base}/cuda-*", "PATH": "/usr/bin:/bin",
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "CUDAENV_PROC_ROOT": str(tmp_path / "noproc")}
    return env, str(p1 / ".cuda-version"), str(p2 / ".cuda-version")


def auto(env: dict, pin: str) -> tuple[dict, list[str]]:
    plan = plan_auto(Context(env=env), pin)
    return apply_changes(env, plan.changes), plan.notes


def use(env: dict, target: str) -> dict:
    from cudaenv.commands.switch import plan_for_use

    return apply_changes(env, plan_for_use(Context(env=env), target)[0].changes)


def test_auto_enter_switch_leave(two):
    env0, pin1, pin2 = two
    e1, notes = auto(env0, pin1)
    assert e1[ACTIVE_VAR] == f"cuda-{OLD}" and e1[PIN_VAR] == pin1 and e1[AUTO_VAR] == f"cuda-{OLD},"
    assert notes == [f"cuda-{OLD} (from {pin1})"]
    e2, _ = auto(e1, pin2)
    assert e2[ACTIVE_VAR] == f"cuda-{NEW}" and e2[PIN_VAR] == pin2 and e2[AUTO_VAR] == f"cuda-{NEW},"
    e3, notes = auto(e2, "")
    assert e3 == env0, "leaving gives back the environment exactly"
    assert notes == [f"off (left {os.path.dirname(pin2)})"]


def test_auto_leaving_goes_back_to_the_profile_active_before(two):
    env0, pin1, pin2 = two
    manual = use(env0, NEW)
    e1, _ = auto(manual, pin1)
    assert e1[ACTIVE_VAR] == f"cuda-{OLD}" and e1[AUTO_VAR] == f"cuda-{OLD},cuda-{NEW}"
    e2, notes = auto(e1, "")
    assert {k: v for k, v in e2.items()} == manual
    assert notes == [f"back to cuda-{NEW} (left {os.path.dirname(pin1)})"]


def test_auto_keeps_a_choice_made_by_hand_inside_the_project(two):
    env0, pin1, pin2 = two
    e1, _ = auto(env0, pin1)
    mine = use(e1, NEW)  # the user switched by hand inside the project
    e2, notes = auto(mine, "")
    assert e2[ACTIVE_VAR] == f"cuda-{NEW}" and PIN_VAR not in e2 and AUTO_VAR not in e2
    assert notes == []
    # ... and entering another project, then leaving it, comes back to that choice.
    e3, _ = auto(mine, pin1)
    e4, _ = auto(e3, "")
    assert e4[ACTIVE_VAR] == f"cuda-{NEW}" and e4[STATE_VAR] == mine[STATE_VAR]


def test_auto_bad_pin_is_reported_once_and_changes_nothing(two, tmp_path):
    env0, pin1, _ = two
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / ".cuda-version").write_text("99.9\n")
    e1, notes = auto(env0, str(bad / ".cuda-version"))
    assert ACTIVE_VAR not in e1 and e1[PIN_VAR] == str(bad / ".cuda-version")
    assert len(notes) == 1 and "no CUDA toolkit matches '99.9'" in notes[0]
    e2, notes = auto(e1, "")
    assert e2 == env0 and notes == []


def test_auto_same_profile_in_two_projects_is_quiet(two, tmp_path):
    env0, pin1, _ = two
    other = tmp_path / "other"
    other.mkdir()
    (other / ".cuda-version").write_text("11.8.0\n")
    e1, _ = auto(env0, pin1)
    plan = plan_auto(Context(env=e1), str(other / ".cuda-version"))
    assert plan.notes == [] and [c[1] for c in plan.changes] == [PIN_VAR, AUTO_VAR]


def test_auto_empty_pin_file_is_reported_once(two, tmp_path):
    env0, pin1, _ = two
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".cuda-version").write_text("# nothing\n")
    e1, notes = auto(env0, str(empty / ".cuda-version"))
    assert e1[PIN_VAR] == str(empty / ".cuda-version") and ACTIVE_VAR not in e1
    assert notes == [f"{empty / '.cuda-version'} names no version or profile"]


# ---------------------------------------------------------------- real shells


@pytest.fixture
def bed(tmp_path):
    root = make_toolkit(str(tmp_path / "tk" / HOSTILE), NEW)
    old = make_toolkit(str(tmp_path / "tk" / "cuda-11.8"), OLD)
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    out = tmp_path / "out"
    out.mkdir()
    p1 = tmp_path / "work" / HOSTILE
    p2 = tmp_path / "work" / "p2"
    (p1 / "src" / "deep").mkdir(parents=True)
    p2.mkdir()
    (p1 / ".cuda-version").write_text(f"{NEW}\n")
    (p2 / ".cuda-version").write_text("11.8\n")
    env = {
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
        "LC_ALL": "C.UTF-8",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "CUDAENV_ROOTS": f"{root}:{old}",
        "OUT": str(out),
        "P1": str(p1),
        "P1SUB": str(p1 / "src" / "deep"),
        "P2": str(p2),
        "NOPIN": str(tmp_path / "work"),
        "CUDA_HOME": "/prior/value with 'quotes'",
        "LIBRARY_PATH": "",
        "TERM": "dumb",
    }
    return root, env, out, tmp_path


INIT = {
    "bash": 'eval "$(cudaenv init bash{auto})"',
    "zsh": 'eval "$(cudaenv init zsh{auto})"',
    "fish": "cudaenv init fish{auto} | source",
    "tcsh": 'eval "`cudaenv init tcsh{auto}`"',
}
STATUS = {"bash": "$?", "zsh": "$?", "fish": "$status", "tcsh": "$status"}


def script(shell: str, lines: list[str], auto: bool = False) -> str:
    """``lines`` in ``shell``'s syntax: DUMP name / STATUS tag / CD VAR / anything else verbatim."""
    out = [INIT[shell].format(auto=" --auto" if auto else "")]
    if shell in ("bash", "zsh"):
        out.insert(0, "set -u")
    for line in lines:
        word, _, arg = line.partition(" ")
        if word == "DUMP":
            out.append(f'env -0 > "$OUT/{arg}"' if shell != "fish" else f"env -0 > $OUT/{arg}")
        elif word == "STATUS":
            out.append(f'echo "{arg}={STATUS[shell]}"')
        elif word == "CD":
            out.append(f'cd "${arg}"' if shell != "fish" else f"cd ${arg}")
        else:
            out.append(line)
    out.append('echo "END"')
    return "\n".join(out) + "\n"


def run_shell(shell: str, text: str, env: dict, cwd) -> subprocess.CompletedProcess:
    exe = need(shell)
    args = {"bash": [exe, "--norc", "--noprofile", "-i"], "zsh": [exe, "-f"], "fish": [exe, "--no-config"],
            "tcsh": [exe, "-f"]}[shell]
    return subprocess.run(args, input=text, env=env, cwd=cwd, capture_output=True, text=True, timeout=180)


def dump(out, name) -> dict:
    d = parse_env0((out / name).read_bytes())
    for k in (b"_", b"PWD", b"OLDPWD", b"SHLVL"):
        d.pop(k, None)
    return d


def statuses(res) -> dict[str, str]:
    return dict(line.split("=", 1) for line in res.stdout.splitlines() if line.startswith("st_"))


def no_pwned(tmp_path):
    assert not [p for p in tmp_path.rglob("PWNED*")], "part of a hostile name was executed"


@pytest.mark.parametrize("shell", INIT_SHELLS)
def test_function_use_list_off_round_trip(shell, bed):
    root, env, out, tmp = bed
    res = run_shell(shell, script(shell, [
        "DUMP before",
        f"cudaenv use {NEW}", "STATUS st_use",
        "DUMP during",
        f"cudaenv use {NEW}", "STATUS st_again",
        "DUMP again",
        "cudaenv list", "STATUS st_list",
        "cudaenv off", "STATUS st_off",
        "DUMP after",
    ]), env, tmp)
    assert res.stdout.rstrip().endswith("END"), res.stderr
    st = statuses(res)
    assert st == {"st_use": "0", "st_again": "0", "st_list": "0", "st_off": "0"}, res.stderr
    before, during, again, after = (dump(out, n) for n in ("before", "during", "again", "after"))
    r = root.encode()
    assert during[b"CUDA_HOME"] == r and during[b"CUDA_PATH"] == r
    assert during[b"PATH"].split(b":")[0] == r + b"/bin"
    assert during[b"CUDAENV_ACTIVE"] == f"cuda-{NEW}".encode()
    assert again == during
    assert after == before
    assert b"CUDAENV_SHELL" not in during, "CUDAENV_SHELL is for one call, not for child shells"
    assert f"cuda-{NEW}" in res.stdout and "VERSION" in res.stdout  # list passed through to the terminal
    no_pwned(tmp)


@pytest.mark.parametrize("shell", INIT_SHELLS)
def test_function_with_a_hostile_path_argument(shell, bed):
    root, env, out, tmp = bed
    env = dict(env, ROOT=root)
    res = run_shell(shell, script(shell, [
        "DUMP before",
        "cudaenv use $ROOT" if shell == "fish" else 'cudaenv use "$ROOT"', "STATUS st_use",
        "DUMP during",
        "cudaenv off", "DUMP after",
    ]), env, tmp)
    assert statuses(res)["st_use"] == "0", res.stderr
    assert dump(out, "during")[b"CUDA_HOME"] == root.encode()
    assert dump(out, "after") == dump(out, "before")
    no_pwned(tmp)


@pytest.mark.parametrize("shell", INIT_SHELLS)
def test_function_failures_change_nothing_and_keep_the_shell(shell, bed):
    root, env, out, tmp = bed
    res = run_shell(shell, script(shell, [
        f"cudaenv use {NEW}",
        "DUMP before",
        "cudaenv use 99.9", "STATUS st_bad",
        "DUMP bad",
        "cudaenv use --shell json 11.8", "STATUS st_json",
        "cudaenv use --format=json 11.8", "STATUS st_fmt",
        "cudaenv use --help", "STATUS st_help",
        "DUMP printed",
        # cudaenv gone from PATH: the function's command is not found.
        "setenv PATH /usr/bin:/bin" if shell == "tcsh" else
        ("set -gx PATH /usr/bin /bin" if shell == "fish" else "PATH=/usr/bin:/bin"),
        "cudaenv off", "STATUS st_missing",
        "DUMP missing",
    ]), env, tmp)
    assert res.stdout.rstrip().endswith("END"), res.stderr
    st = statuses(res)
    assert st["st_bad"] == "2" and st["st_json"] == st["st_fmt"] == st["st_help"] == "0"
    assert st["st_missing"] != "0"
    assert "no CUDA toolkit matches '99.9'" in res.stderr
    assert res.stdout.count('"CUDAENV_ACTIVE": "cuda-11.8.0"') == 2  # printed, not applied
    assert "Print shell code that switches to TARGET" in res.stdout
    before = dump(out, "before")
    assert dump(out, "bad") == before and dump(out, "printed") == before
    missing = dump(out, "missing")
    assert missing[b"CUDA_HOME"] == root.encode() and missing[b"PATH"] == b"/usr/bin:/bin"
    assert {k: v for k, v in missing.items() if k != b"PATH"} == {k: v for k, v in before.items() if k != b"PATH"}
    no_pwned(tmp)


def test_bash_function_leaves_status_and_prompt_hook_alone(bed):
    root, env, out, tmp = bed
    res = run_shell("bash", script("bash", [
        'PROMPT_COMMAND="mine=\\$?"',
        "_cudaenv_enable_auto",
        "false", "STATUS st_false",
        "(exit 7)", 'echo "st_mine=$mine"',
        "CD P1", "(exit 3)", "STATUS st_cd",
        'echo "st_pc=$PROMPT_COMMAND"',
        "_cudaenv_enable_auto", 'echo "st_pc2=$PROMPT_COMMAND"',
    ], auto=False), env, tmp)
    st = statuses(res)
    assert st["st_false"] == "1" and st["st_cd"] == "3"
    assert st["st_mine"] == "7", "a PROMPT_COMMAND after ours still sees the user's $?"
    assert st["st_pc"] == st["st_pc2"] == "_cudaenv_hook;mine=$?"


@pytest.mark.parametrize("shell", INIT_SHELLS)
def test_auto_follows_cuda_version(shell, bed):
    root, env, out, tmp = bed
    res = run_shell(shell, script(shell, [
        "DUMP start",
        "CD P1SUB", "DUMP in1",
        "CD P1", "DUMP in1top",
        "CD P2", "DUMP in2",
        "false", "STATUS st_kept",
        "CD NOPIN", "DUMP out",
        f"cudaenv use {OLD}", "DUMP manual",
        "CD P1", "DUMP in1b",
        "CD NOPIN", "DUMP outb",
    ], auto=True), env, tmp)
    assert res.stdout.rstrip().endswith("END"), res.stderr
    start = dump(out, "start")
    in1, in1top, in2 = dump(out, "in1"), dump(out, "in1top"), dump(out, "in2")
    assert in1[b"CUDA_HOME"] == root.encode() and in1[b"CUDAENV_ACTIVE"] == f"cuda-{NEW}".encode()
    assert in1top == in1, "moving inside a project changes nothing"
    assert in2[b"CUDAENV_ACTIVE"] == f"cuda-{OLD}".encode() and in2[b"CUDA_HOME"].endswith(b"/cuda-11.8")
    assert dump(out, "out") == start, "leaving undoes exactly"
    assert statuses(res)["st_kept"] == "1"
    manual, in1b = dump(out, "manual"), dump(out, "in1b")
    assert in1b[b"CUDAENV_ACTIVE"] == f"cuda-{NEW}".encode()
    assert dump(out, "outb") == manual, "leaving goes back to the profile chosen before"
    # One call per change of pin, each announced once.
    assert res.stderr.count(f"cudaenv: cuda-{NEW} (from ") == 2
    assert res.stderr.count(f"cudaenv: cuda-{OLD} (from ") == 1
    no_pwned(tmp)


@pytest.mark.parametrize("shell", INIT_SHELLS)
def test_auto_starts_in_a_pinned_directory_and_survives_a_bad_pin(shell, bed):
    root, env, out, tmp = bed
    bad = tmp / "work" / "bad"
    bad.mkdir()
    (bad / ".cuda-version").write_text("99.9\n")
    env = dict(env, BAD=str(bad))
    res = run_shell(shell, script(shell, [
        "DUMP first",
        "CD BAD", "DUMP bad", "STATUS st_bad",
        "CD NOPIN", "DUMP out",
    ], auto=True), env, tmp / "work" / HOSTILE / "src")
    assert res.stdout.rstrip().endswith("END"), res.stderr
    first, bad_, out_ = dump(out, "first"), dump(out, "bad"), dump(out, "out")
    assert first[b"CUDAENV_ACTIVE"] == f"cuda-{NEW}".encode(), "the starting directory counts"
    # A pin that does not resolve changes nothing but the hook's own record.
    mine = (PIN_VAR.encode(), AUTO_VAR.encode())
    assert {k: v for k, v in bad_.items() if k not in mine} == {k: v for k, v in first.items() if k not in mine}
    assert bad_[PIN_VAR.encode()] == str(bad / ".cuda-version").encode()
    assert res.stderr.count("no CUDA toolkit matches '99.9'") == 1
    assert b"CUDAENV_ACTIVE" not in out_ and out_[b"CUDA_HOME"] == env["CUDA_HOME"].encode()
    assert PIN_VAR.encode() not in out_ and AUTO_VAR.encode() not in out_


def test_auto_hook_runs_no_process_when_nothing_changed(bed):
    """With cudaenv gone from PATH, only a change of pin can reveal a call."""
    root, env, out, tmp = bed
    res = run_shell("bash", script("bash", [
        "CD P1",
        "PATH=/usr/bin:/bin",
        "true", "true", "CD P1SUB", "CD P1",
        'echo "st_ok=1"',
        "CD P2",
    ], auto=True), env, tmp)
    assert statuses(res)["st_ok"] == "1"
    assert res.stderr.count("cudaenv: command not found") == 1, res.stderr


# ---------------------------------------------------------------- completion


@pytest.fixture
def profiles_built(bed):
    root, env, out, tmp = bed
    res = run_cudaenv(["profile", "build", "--all"], env)
    assert res.returncode == 0, res.stderr
    return bed


def complete(env: dict, shell: str, words: str, cword: int | None = None, via_click: bool = False) -> str:
    e = dict(env, _CUDAENV_COMPLETE=f"{shell}_complete", PYTHONPATH=REPO)
    if shell == "tcsh":
        e["COMMAND_LINE"] = words
    elif shell == "fish":
        e.update(COMP_WORDS=words, COMP_CWORD="" if words.endswith(" ") else words.split()[-1])
    else:
        e.update(COMP_WORDS=words, COMP_CWORD=str(cword))
    code = ("import sys; from cudaenv.cli import cli; cli.main([], prog_name='cudaenv')" if via_click
            else "from cudaenv.main import main; main()")
    res = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_completion_offers_commands_options_and_targets(profiles_built):
    root, env, out, tmp = profiles_built
    cmds = complete(env, "bash", "cudaenv ", 1).split()
    for c in ("plain,use", "plain,off", "plain,list", "plain,init", "plain,show"):
        assert c in cmds
    targets = complete(env, "bash", "cudaenv use ", 2).split()
    ours = [t for t in targets if "13." not in t]  # this machine's own /usr/local/cuda-13.0 may show too
    assert ours == ["plain,12.3", "plain,12.3.7", "plain,11.8", "plain,11.8.0", f"plain,cuda-{OLD}",
                    f"plain,cuda-{NEW}"]
    assert [t for t in complete(env, "bash", "cudaenv use cuda-1", 2).split() if "13." not in t] == \
        [f"plain,cuda-{OLD}", f"plain,cuda-{NEW}"]
    assert complete(env, "bash", "cudaenv use 11", 2).split() == ["plain,11.8", "plain,11.8.0"]
    opts = complete(env, "bash", "cudaenv use --", 2).split()
    assert "plain,--tmux" in opts and "plain,--shell" in opts
    assert complete(env, "bash", "cudaenv init ", 2).split() == [f"plain,{s}" for s in INIT_SHELLS]
    assert complete(env, "bash", "cudaenv use /us", 2).split() == ["dir,/us"]


@pytest.mark.parametrize("shell,words,cword", [
    ("bash", "cudaenv use ", 2), ("bash", "cudaenv use 1", 2), ("zsh", "cudaenv use ", 2),
    ("zsh", "cudaenv use cuda", 2), ("fish", "cudaenv use ", None), ("fish", "cudaenv use 11", None),
    ("tcsh", "cudaenv use ", None), ("tcsh", "cudaenv use 1", None),
])
def test_fast_use_completion_matches_click(profiles_built, shell, words, cword):
    root, env, out, tmp = profiles_built
    fast = complete(env, shell, words, cword)
    assert fast.strip(), "no candidates"
    assert fast == complete(env, shell, words, cword, via_click=True)


def test_real_bash_completion(profiles_built):
    root, env, out, tmp = profiles_built
    res = run_shell("bash", script("bash", [
        "COMP_WORDS=(cudaenv use 11); COMP_CWORD=2; COMPREPLY=()",
        "_cudaenv_completion", 'echo "st_use=${COMPREPLY[*]}"',
        "COMP_WORDS=(cudaenv o); COMP_CWORD=1; COMPREPLY=()",
        "_cudaenv_completion", 'echo "st_cmd=${COMPREPLY[*]}"',
        "complete -p cudaenv | sed 's/^/st_reg=/'",
    ]), env, tmp)
    st = statuses(res)
    assert st["st_use"] == "11.8 11.8.0"
    assert st["st_cmd"] == "off"
    assert "-F _cudaenv_completion cudaenv" in st["st_reg"]


def test_real_fish_completion(profiles_built):
    root, env, out, tmp = profiles_built
    res = run_shell("fish", script("fish", [
        "complete -C 'cudaenv use 11' | sed 's/^/st_/'",
        "complete -C 'cudaenv mo' | sed 's/^/st_/'",
    ]), env, tmp)
    lines = [line for line in res.stdout.splitlines() if line.startswith("st_")]
    assert "st_11.8\tnewest CUDA 11.8" in lines, res.stdout + res.stderr
    assert any(line.startswith("st_11.8.0\t") and line.endswith("cuda-11.8") for line in lines)
    assert any(line.startswith("st_modulefiles") for line in lines)


def test_real_zsh_completion_function_is_registered_after_compinit(profiles_built):
    root, env, out, tmp = profiles_built
    res = run_shell("zsh", "autoload -Uz compinit && compinit -u -D\n" + script("zsh", [
        'echo "st_reg=${_comps[cudaenv]}"',
    ]), env, tmp)
    assert statuses(res)["st_reg"] == "_cudaenv_completion", res.stderr


def test_tcsh_completion_is_registered(profiles_built):
    root, env, out, tmp = profiles_built
    res = run_shell("tcsh", script("tcsh", ["complete cudaenv"]), env, tmp)
    assert "_CUDAENV_COMPLETE=tcsh_complete" in res.stdout, res.stderr


def test_completion_sources_are_the_init_scripts(bed):
    root, env, out, tmp = bed
    for shell in INIT_SHELLS:
        e = dict(env, _CUDAENV_COMPLETE=f"{shell}_source")
        # Exactly `cudaenv init SHELL`, whatever click's version (8.5 dropped the newline 8.4 added).
        assert run_cudaenv([], e).stdout == init_text(shell)


# `init` run as `python -m cudaenv` (no cudaenv command anywhere), or as a cudaenv that PATH does not
# find: the function must call that, not `command cudaenv` (exit 127).
MODULE_INIT = {
    "bash": 'eval "$(PYTHONPATH="$REPO" "$PY" -m cudaenv init bash)"',
    "zsh": 'eval "$(PYTHONPATH="$REPO" "$PY" -m cudaenv init zsh)"',
    "fish": "env PYTHONPATH=$REPO $PY -m cudaenv init fish | source",
    "tcsh": 'eval "`env PYTHONPATH=$REPO:q $PY:q -m cudaenv init tcsh`"',
}


@pytest.mark.parametrize("how", ["module", "path"])
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish", "tcsh"])
def test_init_calls_what_it_was_started_as(shell, how, bed):
    root, env, out, tmp = bed
    env = dict(env, PATH="/usr/local/bin:/usr/bin:/bin", REPO=REPO, PY=sys.executable)  # no cudaenv on PATH
    if how == "module":
        init = MODULE_INIT[shell]
    else:
        exe = str(tmp / "bin" / "cudaenv")  # written by the fixture; not on PATH now
        init = INIT[shell].format(auto="").replace("cudaenv init", f"{exe} init", 1)
    lines = [f"cudaenv use {NEW}", "STATUS st_use", "DUMP during", "cudaenv off", "STATUS st_off", "DUMP after"]
    text = script(shell, lines).split("\n", 2 if shell in ("bash", "zsh") else 1)
    body = text[-1]
    res = run_shell(shell, ("set -u\n" if shell in ("bash", "zsh") else "") + init + "\n" + body, env, tmp)
    assert res.stdout.rstrip().endswith("END"), res.stderr
    st = statuses(res)
    assert st["st_use"] == "0" and st["st_off"] == "0", res.stderr
    assert dump(out, "during")[b"CUDA_HOME"] == root.encode()
    assert dump(out, "after")[b"CUDA_HOME"] == b"/prior/value with 'quotes'"


def test_tcsh_alias_works_with_a_broken_path(bed):
    """The tcsh side needs env, mktemp and rm: found by absolute path at init, not on PATH at each call."""
    root, env, out, tmp = bed
    exe = str(tmp / "bin" / "cudaenv")
    text = (f'eval "`{exe} init tcsh`"\nsetenv PATH /nonexistent\n'
            f"cudaenv use {NEW}\necho \"st_use=$status\"\n/usr/bin/env -0 > \"$OUT/during\"\n"
            "cudaenv off\necho \"st_off=$status\"\necho END\n")
    res = run_shell("tcsh", text, dict(env, PATH="/usr/local/bin:/usr/bin:/bin"), tmp)
    assert res.stdout.rstrip().endswith("END"), res.stderr
    st = statuses(res)
    assert st["st_use"] == "0" and st["st_off"] == "0", res.stderr
    assert dump(out, "during")[b"CUDA_HOME"] == root.encode()


def test_init_refuses_an_empty_shell_name_instead_of_detecting_one():
    res = run_cudaenv(["init", ""], dict(os.environ, SHELL="/bin/bash"))
    assert "not ''" in one_error_line(res, 2)
