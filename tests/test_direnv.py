"""cudaenv's ``--auto`` hook beside direnv's, in real interactive bash and zsh.

Each shell runs on a pseudo-terminal with an rc file that loads both hooks, in
both orders, so the prompt hooks fire as at a terminal (tests/ptyshell.py);
the toolkits are the real test bed's 11.8 and 12.4, the ``.envrc`` files are
allowed with ``direnv allow``. Every scenario compares ``env -0`` dumps:
leaving a project gives back exactly what was there before entering it (or,
after a ``use`` typed by hand inside, exactly what that ``use`` gives outside).
docs/direnv.md tells the story.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from cudaenv.env.direnv import DIRENV_VAR, rebase_lists, reconcile, snapshot
from cudaenv.env.plan import apply, undo
from cudaenv.env.ops import Ops
from cudaenv.env.state import STATE_VAR, decode
from helpers import need, parse_env0, write_wrapper
from ptyshell import PROMPT, PtyShell

ORDERS = ("direnv-first", "cudaenv-first")
# Names a shell or direnv might trip on: spaces and quotes.
PINNED = "pinned proj's"
PLAIN = "plain proj"  # (direnv itself cannot load a directory whose name holds a double quote)
PLAIN2 = "plain two"


@pytest.fixture
def bed(tmp_path, testbed):
    need("direnv")
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    out = tmp_path / "out"
    out.mkdir()
    work = tmp_path / "work"
    for name in (PINNED, PLAIN, PLAIN2):
        (work / name / "pbin").mkdir(parents=True)
        (work / name / ".envrc").write_text(f"PATH_add pbin\nexport FOO={name.split()[0]}\n")
    (work / PINNED / ".cuda-version").write_text("12.4\n")
    env = {
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "CUDAENV_ROOTS": f"{testbed['11.8']}:{testbed['12.4']}",
        "DIRENV_LOG_FORMAT": "",
        "OUT": str(out),
        "PINNED": str(work / PINNED),
        "PLAIN": str(work / PLAIN),
        "PLAIN2": str(work / PLAIN2),
        "WORK": str(work),
    }
    for name in (PINNED, PLAIN, PLAIN2):
        subprocess.run(["direnv", "allow", str(work / name)], env=env, check=True, capture_output=True, timeout=60)
    return env, tmp_path, testbed


def start(shell: str, order: str, env: dict, tmp) -> PtyShell:
    """An interactive ``shell`` whose rc file loads direnv's and cudaenv's hooks in ``order``."""
    exe = need(shell)
    hooks = [f'eval "$(direnv hook {shell})"', f'eval "$(cudaenv init {shell} --auto)"']
    if order == "cudaenv-first":
        hooks.reverse()
    env = dict(env)
    if shell == "bash":
        rc = tmp / "bashrc"
        rc.write_text("\n".join(hooks) + f"\nPS1='{PROMPT}'\n")
        argv = [exe, "--noprofile", "--rcfile", str(rc), "-i"]
    else:
        zdot = tmp / "zdot"
        zdot.mkdir(exist_ok=True)
        (zdot / ".zshrc").write_text("\n".join(hooks) + f"\nunsetopt prompt_sp\nPS1='{PROMPT}'\n")
        env["ZDOTDIR"] = str(zdot)
        argv = [exe, "-d", "-i"]  # -d: no /etc/zsh files, only this rc
    return PtyShell(argv, env, str(tmp / "work"))


class Session:
    """A shell plus named dumps of its environment."""

    def __init__(self, shell: str, order: str, bed) -> None:
        self.env, self.tmp, self.testbed = bed
        self.last: dict = {}  # the latest dump, for assertion messages
        self.sh = start(shell, order, self.env, self.tmp)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc) -> None:
        self.sh.close()

    def run(self, *lines: str) -> None:
        for line in lines:
            self.sh.run(line)

    def dump(self, name: str) -> dict[bytes, bytes]:
        self.sh.run(f'env -0 > "$OUT/{name}"')
        d = parse_env0((self.tmp / "out" / name).read_bytes())
        for k in (b"_", b"PWD", b"OLDPWD", b"SHLVL"):
            d.pop(k, None)
        self.last = d
        return d

    def refs(self) -> tuple[dict, dict, dict]:
        """(clean, what `use 11.8` gives, what `use 12.4` gives), all made here, outside any project."""
        clean = self.dump("clean")
        self.run("cudaenv use 11.8")
        u118 = self.dump("u118")
        self.run("cudaenv use 12.4")
        u124 = self.dump("u124")
        self.run("cudaenv off")
        assert self.dump("clean-again") == clean, self.sh.text()[-2000:]
        return clean, u118, u124


def each_shell_and_order(fn):
    """Run the test in bash and zsh, with direnv's hook loaded first and with cudaenv's first (slow)."""
    fn = pytest.mark.parametrize("order", ORDERS)(fn)
    fn = pytest.mark.parametrize("shell", ["bash", "zsh"])(fn)
    return pytest.mark.slow(fn)


def path_of(d: dict) -> list[str]:
    return d[b"PATH"].decode().split(":")


def changed(a: dict, b: dict) -> dict:
    """What differs between two dumps, readable in a failed assertion."""
    return {k.decode(): (a.get(k, b"<unset>")[:200], b.get(k, b"<unset>")[:200])
            for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


@each_shell_and_order
def test_leaving_a_pinned_envrc_project_gives_back_exactly(shell, order, bed):
    """The issue's first case: .envrc (PATH) + .cuda-version; bash with direnv's hook loaded first kept the bin."""
    with Session(shell, order, bed) as s:
        clean = s.dump("clean")
        s.run('cd "$PINNED"')
        inside = s.dump("in")
        s.run("cd ..")
        assert s.dump("out") == clean, changed(clean, s.last)
        # Twice in a row, and through a subdirectory: the records do not drift.
        s.run('cd "$PINNED/pbin"', 'cd "$PLAIN"', 'cd "$PINNED"')
        assert s.dump("in2") == inside, changed(inside, s.last)
        s.run('cd "$WORK"')
        assert s.dump("out2") == clean, changed(clean, s.last)
    tk = s.testbed["12.4"]
    assert inside[b"CUDA_HOME"] == tk.encode() and inside[b"FOO"] == b"pinned"
    assert f"{tk}/bin" in path_of(inside) and f"{s.env['PINNED']}/pbin" in path_of(inside)


@each_shell_and_order
def test_a_use_typed_inside_an_envrc_project_survives_leaving_whole(shell, order, bed):
    """`use 11.8` by hand inside: leaving keeps that choice whole (bin, CUDAHOSTCXX, -ccbin), `off` takes all back."""
    with Session(shell, order, bed) as s:
        clean, u118, _u124 = s.refs()
        assert b"CUDAHOSTCXX" in u118 and b"-ccbin" in u118[b"NVCC_PREPEND_FLAGS"]  # 11.8 wants g++ <= 11 here
        for project in ("PLAIN", "PINNED"):  # without and with a .cuda-version
            s.run(f'cd "${project}"', "cudaenv use 11.8")
            assert s.dump(f"in-{project}")[b"FOO"]
            s.run('cd "$WORK"')
            left = s.dump(f"left-{project}")
            assert left == u118, (project, changed(u118, left))
            s.run("cudaenv off")
            off = s.dump(f"off-{project}")
            assert off == clean, (project, changed(clean, off))


@each_shell_and_order
def test_switching_inside_an_envrc_project_from_an_active_toolkit(shell, order, bed):
    """11.8 active when direnv takes its snapshot: `off` or `use 12.4` inside must not get 11.8's bin back on leaving."""
    with Session(shell, order, bed) as s:
        clean, u118, u124 = s.refs()
        s.run("cudaenv use 11.8", 'cd "$PLAIN"', "cudaenv off", 'cd "$WORK"')
        assert s.dump("left-off") == clean, changed(clean, s.last)
        s.run("cudaenv use 11.8", 'cd "$PLAIN"', "cudaenv use 12.4", 'cd "$WORK"')
        assert s.dump("left-124") == u124, changed(u124, s.last)
        # From one .envrc project straight into another (direnv unloads and loads at one prompt).
        s.run("cudaenv use 11.8", 'cd "$PLAIN"', "cudaenv off", 'cd "$PLAIN2"')
        in2 = s.dump("in-plain2")
        assert b"CUDA_HOME" not in in2 and not [e for e in path_of(in2) if "cuda-11.8" in e], changed(clean, in2)
        s.run('cd "$WORK"')
        assert s.dump("left-2") == clean, changed(clean, s.last)


@each_shell_and_order
def test_an_envrc_reload_keeps_a_hand_choice_whole(shell, order, bed):
    """direnv reloads a changed .envrc at the next prompt from its saved PATH: the toolkit's bin stays."""
    with Session(shell, order, bed) as s:
        clean, u118, _ = s.refs()
        s.run('cd "$PLAIN"', "cudaenv use 11.8")
        before = s.dump("before-reload")
        # direnv reloads when a watched file's mtime changes (new content would need a new `direnv allow`).
        envrc = os.path.join(s.env["PLAIN"], ".envrc")
        st = os.stat(envrc)
        os.utime(envrc, (st.st_atime, st.st_mtime + 5))
        s.run("true")
        after = s.dump("after-reload")
        assert after[b"DIRENV_WATCHES"] != before[b"DIRENV_WATCHES"], "direnv reloaded"
        assert path_of(after) == path_of(before), changed(before, after)
        s.run('cd "$WORK"')
        assert s.dump("left") == u118, changed(u118, s.last)


@each_shell_and_order
def test_an_envrc_that_switches_itself_is_given_back_by_direnv(shell, order, bed):
    """An .envrc running `cudaenv use` puts cudaenv's record in direnv's care; the user's own copy of the bin stays."""
    env, tmp, testbed = bed
    tk = testbed["11.8"]
    env = dict(env, PATH=f"{env['PATH']}:{tk}/bin")  # the user's own copy, at the end
    with open(os.path.join(env["PLAIN"], ".envrc"), "w") as f:
        f.write('eval "$(cudaenv use 11.8 --shell bash)"\nPATH_add pbin\n')
    subprocess.run(["direnv", "allow", env["PLAIN"]], env=env, check=True, capture_output=True, timeout=60)
    with Session(shell, order, (env, tmp, testbed)) as s:
        clean = s.dump("clean")
        s.run('cd "$PLAIN"')
        inside = s.dump("in")
        assert inside[b"CUDA_HOME"] == tk.encode() and path_of(inside)[:2] == [f"{env['PLAIN']}/pbin", f"{tk}/bin"]
        s.run('cd "$WORK"')
        assert s.dump("out") == clean, changed(clean, s.last)
        s.run('cd "$PLAIN"', "cudaenv off", 'cd "$WORK"')
        assert s.dump("out-off") == clean, changed(clean, s.last)


# ---------------------------------------------------------------- the pieces, without shells


def gzenv(text: str) -> str:
    """direnv's encoding of DIRENV_DIFF: zlib, then URL-safe base64 without padding."""
    import base64
    import zlib

    return base64.urlsafe_b64encode(zlib.compress(text.encode())).decode().rstrip("=")


def test_direnv_diff_reader_reads_what_unload_sets_back():
    text = ('{"n":{"PATH":"a:b","X\\"Y":"}{","NEW":"1"},'
            '"p":{"LD_LIBRARY_PATH":"\\u003c\\\\","PATH":"q,r:{s}\\\\\\"x"}}')
    assert snapshot(gzenv(text)) == ({"LD_LIBRARY_PATH": "\\u003c\\\\", "PATH": 'q,r:{s}\\\\\\"x'},
                                     {'X\\"Y', "NEW"})
    assert snapshot(gzenv('{"p":{}}')) == ({}, set())
    for bad in ('{"p":{"A":"b"}', '{"p":{"A":"b"}}}', '{"p":{"A":"b', '{"p":[1]}', "null", '{"p":{"a":{"b":"c"}}}',
                '{"p":"x"}'):
        with pytest.raises(ValueError):
            snapshot(gzenv(bad))
    for bad in ("", "!!!", gzenv("x")[:-3], "eJzL"):
        with pytest.raises(ValueError):
            snapshot(bad)


def test_reconcile_without_direnv_is_the_same_mapping():
    env = {"PATH": "/usr/bin"}
    assert reconcile(env) is env


@pytest.mark.parametrize("diff", ["not base64 at all!", "eJwLSS0u0S0BAA", "", "eJyrVipQsqpWKkgsyVCyqlYqSUzOTlWyqlZSSi0uyczPU6qtBQA"])
def test_reconcile_survives_a_damaged_diff_or_record(diff):
    state_env = apply({"PATH": "/usr/bin"}, Ops(prepend={"PATH": ["/tk/bin"]}, set={"CUDA_HOME": "/tk"}), "tk")
    for rec in (None, "", "x", "1 PATH c1;garbage", "deadbeef PATH,LD_LIBRARY_PATH -", "0 - " + "%"):
        env = dict(state_env, DIRENV_DIFF=diff)
        if rec is not None:
            env[DIRENV_VAR] = rec
        out = reconcile(env)
        assert "/tk/bin" in out["PATH"].split(":") and out["CUDA_HOME"] == "/tk"
        assert out[STATE_VAR] == env[STATE_VAR]


def test_rebase_lists_takes_the_snapshot_entries_out_and_keeps_the_users_copy():
    base = {"PATH": "/mine:/tk118/bin:/usr/bin", "FOO": "x"}  # the user has 11.8's bin too
    e118 = apply(base, Ops(prepend={"PATH": ["/tk118/bin"]}), "a")
    snap = decode(e118[STATE_VAR])
    e124 = apply(undo(e118, snap), Ops(prepend={"PATH": ["/tk124/bin"]}, set={"CUDA_HOME": "/tk124"}), "b")
    cur = decode(e124[STATE_VAR])
    restored = dict(e124, PATH=e118["PATH"])  # what direnv's unload does to PATH
    out = rebase_lists(restored, snap, ["PATH"], cur)
    assert out == e124
    # Not restored (not in the names): nothing of the user's is taken.
    assert rebase_lists(e124, snap, [], cur) == e124
    # `off` inside: no state; the snapshot's entry goes, the user's own copy stays.
    assert rebase_lists(dict(base, PATH=e118["PATH"]), snap, ["PATH"], None) == base


@pytest.mark.parametrize("before, after", [
    ("", "_cudaenv_hook"),
    ("_direnv_hook", "_direnv_hook;_cudaenv_hook"),
    ("_direnv_hook;history -a", "_direnv_hook;_cudaenv_hook;history -a"),
    ("x;_direnv_hook;", "x;_direnv_hook;_cudaenv_hook;"),
    ("my_direnv_hook_x", "_cudaenv_hook;my_direnv_hook_x"),
    ("my_direnv_hook_x;_direnv_hook", "my_direnv_hook_x;_direnv_hook;_cudaenv_hook"),
    ("_direnv_hook;_cudaenv_hook", "_direnv_hook;_cudaenv_hook"),
])
def test_bash_hook_goes_right_after_direnvs(before, after):
    """Loaded after direnv's, cudaenv's hook must run after it at the same prompt (direnv's keeps $?)."""
    bash = need("bash")
    init = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cudaenv", "shell", "cudaenv.bash")
    res = subprocess.run([bash, "--norc", "--noprofile", "-c",
                          f'source "$1"; PROMPT_COMMAND="$2"; _cudaenv_enable_auto; _cudaenv_enable_auto; '
                          f'printf "%s" "$PROMPT_COMMAND"', "bash", init, before],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout == after, res


def test_rebase_lists_moves_nothing_the_active_record_shares_with_the_snapshot():
    """The same profile in the snapshot and now (an .envrc that added entries in front since): no reordering."""
    e = apply({"PATH": "/usr/bin"}, Ops(prepend={"PATH": ["/tk/bin", "/tk/nvvm"]}), "a")
    state = decode(e[STATE_VAR])
    restored = dict(e, PATH="/mine:" + e["PATH"])
    assert rebase_lists(restored, state, ["PATH"], state) == restored
    # Another profile sharing one entry: the entry it lacks goes; one is missing, so its entries go
    # in front as `use` puts them.
    other = apply({"PATH": "/usr/bin"}, Ops(prepend={"PATH": ["/tk/bin", "/tk2/x"]}), "b")
    out = rebase_lists(restored, state, ["PATH"], decode(other[STATE_VAR]))
    assert out["PATH"] == "/tk/bin:/tk2/x:/mine:/usr/bin"
