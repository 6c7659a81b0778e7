"""``use --tmux`` / ``off --tmux`` against a real tmux server on its own socket.

The session environment starts with one entry of each kind — a value (ending
in ``;``, which tmux would take for a command separator), a hidden value, a
variable marked for removal (``-r``) — and PATH absent (the global value
applies). In a pane running the ``cudaenv init bash`` function, ``use
--tmux`` must give new windows the toolkit (and a state ``off`` can undo
there), and ``off --tmux`` must leave ``tmux show-environment`` exactly as it
was. The server is killed in teardown.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time
import uuid

import pytest

from cudaenv.errors import CudaenvError
from cudaenv.outputs.tmux import SAVED_VAR, decode_saved, encode_saved, parse_show_environment, tmux_arg
from helpers import HOSTILE, make_toolkit, need, parse_env0, run_cudaenv, write_wrapper

NEW = "12.3.7"
OLD = "11.8.0"


# ---------------------------------------------------------------- pure parts


def test_parse_show_environment_is_exact():
    text = ('A="x\ny\\"\\$\\`\\\\q"; export A;\nB=""; export B;\nunset C;\n'
            'D="semi;"; export D;\n')
    assert parse_show_environment(text) == {"A": 'x\ny"$`\\q', "B": "", "C": None, "D": "semi;"}
    assert parse_show_environment("") == {}


def test_tmux_arg_escapes_a_final_semicolon_only():
    assert tmux_arg("a;b") == "a;b"
    assert tmux_arg("ab;") == "ab\\;"
    assert tmux_arg("ab\\;") == "ab\\\\;"  # tmux turns the final "\;" into ";" and keeps the rest


def test_saved_record_round_trips():
    saved = {"CUDA_HOME": ("v", f"/x/{HOSTILE};|,"), "PATH": ("u",), "LD_LIBRARY_PATH": ("r",),
             "CUDA_PATH": ("h", "")}
    text = encode_saved(saved)
    assert text.isascii() and not text.endswith(";") and " " not in text
    assert decode_saved(text) == saved


@pytest.mark.parametrize("text", ["t1|A$(touch x),u", "t1|HOME PATH,r", "t1|,u"])
def test_saved_record_with_an_invalid_name_is_refused(text):
    with pytest.raises(CudaenvError, match="invalid variable"):
        decode_saved(text)


def test_tmux_flag_outside_tmux_is_one_clear_error(tmp_path):
    make_toolkit(str(tmp_path / "cuda-12.3"), NEW)
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE")}
    env["CUDAENV_ROOTS"] = str(tmp_path / "cuda-12.3")
    for args in (["use", NEW, "--tmux"], ["off", "--tmux"]):
        res = run_cudaenv(args, env)
        assert res.returncode == 2 and res.stdout == ""
        assert res.stderr == "cudaenv: --tmux works only inside tmux ($TMUX is not set)\n"


def test_tmux_flag_goes_with_shell_output_only(tmp_path):
    make_toolkit(str(tmp_path / "cuda-12.3"), NEW)
    env = dict(os.environ, CUDAENV_ROOTS=str(tmp_path / "cuda-12.3"), TMUX="/nonexistent,1,0")
    res = run_cudaenv(["use", NEW, "--tmux", "--format", "github"], env)
    assert res.returncode == 2 and res.stdout == ""
    assert "--tmux and --format github exclude each other" in res.stderr


# ---------------------------------------------------------------- a real server


class Tmux:
    def __init__(self, exe: str, env: dict, out) -> None:
        self.base = [exe, "-L", f"cudaenv-test-{os.getpid()}-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]
        self.env = env
        self.out = out
        self.n = 0

    def __call__(self, *args: str, check: bool = True, env: dict | None = None) -> str:
        res = subprocess.run([*self.base, *args], env=env or self.env, capture_output=True, text=True, timeout=60)
        if check:
            assert res.returncode == 0, f"tmux {args}: {res.stderr}"
        return res.stdout

    def show(self) -> tuple[str, str]:
        """The session environment as tmux prints it (visible, hidden)."""
        return self("show-environment", "-t", "main"), self("show-environment", "-t", "main", "-h")

    def wait(self, path, timeout: float = 90) -> None:
        end = time.time() + timeout
        while not os.path.exists(path):
            if time.time() > end:
                pane = self("capture-pane", "-p", "-t", "main:work", check=False)
                raise AssertionError(f"timed out waiting for {path}; pane:\n{pane}")
            time.sleep(0.05)

    def type(self, line: str) -> None:
        """Type ``line`` in the work pane; wait until it has run."""
        self.n += 1
        done = self.out / f"typed{self.n}"
        part = shlex.quote(f"{done}.part")
        # Written aside and renamed: the file must not be seen before it holds the status.
        self("send-keys", "-t", "main:work", "-l", f"{line}; echo $? > {part} && mv {part} {shlex.quote(str(done))}")
        self("send-keys", "-t", "main:work", "Enter")
        self.wait(done)
        return done.read_text().strip()

    def new_window_env(self, name: str, command: str = "") -> dict:
        """The environment a new window's process gets (after ``command``, if any)."""
        path = self.out / name
        tmp = f"{path}.part"
        cmd = f"{command} env -0 > {shlex.quote(tmp)} && mv {shlex.quote(tmp)} {shlex.quote(str(path))}"
        # Without PATH: a client that has one gives it to the new window (tmux's rule, so that
        # `tmux new-window prog` finds prog); a window opened with the prefix key gets the session's.
        self("new-window", "-d", "-t", "main", cmd, env={k: v for k, v in self.env.items() if k != "PATH"})
        self.wait(path)
        d = parse_env0(path.read_bytes())
        for k in (b"_", b"TMUX_PANE", b"SHLVL", b"PWD", b"OLDPWD"):
            d.pop(k, None)
        return d


@pytest.fixture
def tmux(tmp_path):
    exe = need("tmux")
    need("bash")
    root = make_toolkit(str(tmp_path / "tk" / HOSTILE), NEW)
    old = make_toolkit(str(tmp_path / "tk" / "cuda-11.8"), OLD)
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    out = tmp_path / "out"
    out.mkdir()
    env = {
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
        "LC_ALL": "C.UTF-8",
        "TERM": "xterm-256color",
        "SHELL": "/bin/bash",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "CUDAENV_ROOTS": f"{root}:{old}",
        "CUDA_HOME": "/global/cuda home",
        "LD_LIBRARY_PATH": "/global/lib",
    }
    t = Tmux(exe, env, out)
    t("new-session", "-d", "-s", "main", "-x", "200", "-y", "50", "-n", "idle", "sleep 100000")
    try:
        # New windows run a plain interactive bash (a login shell would reset PATH from /etc/profile).
        t("set-option", "-g", "default-command", "exec bash --norc --noprofile")
        t("set-option", "-g", "remain-on-exit", "off")
        # One session entry of each kind, plus PATH absent so the global value applies.
        t("set-environment", "-t", "main", "CUDA_HOME", tmux_arg("/session/value;"))
        t("set-environment", "-t", "main", "-r", "LD_LIBRARY_PATH")
        t("set-environment", "-t", "main", "-h", "CUDA_PATH", "/hidden/one")
        t("new-window", "-t", "main", "-n", "work")
        assert t.type('eval "$(cudaenv init bash)"') == "0"
        yield t, root, out
    finally:
        subprocess.run([*t.base, "kill-server"], env=env, capture_output=True, timeout=30)


def test_use_tmux_reaches_new_windows_and_off_tmux_restores_the_session(tmux):
    t, root, out = tmux
    before_show = t.show()
    assert "CUDA_HOME=/session/value;" in before_show[0] and "-LD_LIBRARY_PATH" in before_show[0]
    win0 = t.new_window_env("win0")
    assert win0[b"CUDA_HOME"] == b"/session/value;" and b"LD_LIBRARY_PATH" not in win0

    assert t.type(f"cudaenv use {NEW} --tmux") == "0"
    r = root.encode()
    assert t.show()[1].startswith(f"{SAVED_VAR}=")  # the record is hidden
    win1 = t.new_window_env("win1")
    assert win1[b"CUDA_HOME"] == r and win1[b"CUDA_PATH"] == r
    assert win1[b"PATH"].split(b":")[0] == r + b"/bin"
    assert win1[b"CUDAENV_ACTIVE"] == f"cuda-{NEW}".encode() and b"_CUDAENV_STATE" in win1
    assert SAVED_VAR.encode() not in win1, "the record is not passed to new processes"
    # The pane itself switched too (the function evaluated the code).
    pane = t.out / "pane1"
    assert t.type(f"env -0 > {shlex.quote(str(pane))}") == "0"
    assert parse_env0(pane.read_bytes())[b"CUDA_HOME"] == r
    # `off` works in a new window: the state came along.
    winoff = t.new_window_env("winoff", 'eval "$(cudaenv off)" &&')
    assert winoff == win0

    assert t.type("cudaenv off --tmux") == "0"
    assert t.show() == before_show, "the session environment is exactly as before"
    assert t.new_window_env("win2") == win0
    assert t.type("cudaenv off --tmux") == "0"  # nothing recorded: a note, no change
    assert t.show() == before_show
    assert not [p for p in out.parent.rglob("PWNED*")]


def test_switching_twice_then_off_restores_what_was_there_first(tmux):
    t, root, out = tmux
    before_show = t.show()
    win0 = t.new_window_env("win0")
    assert t.type(f"cudaenv use {OLD} --tmux") == "0"
    assert t.new_window_env("a")[b"CUDAENV_ACTIVE"] == f"cuda-{OLD}".encode()
    assert t.type(f"cudaenv use {NEW} --tmux") == "0"
    b = t.new_window_env("b")
    assert b[b"CUDAENV_ACTIVE"] == f"cuda-{NEW}".encode() and b[b"CUDA_HOME"] == root.encode()
    assert t.type("cudaenv off --tmux") == "0"
    assert t.show() == before_show
    assert t.new_window_env("c") == win0


def test_failed_use_tmux_touches_neither_pane_nor_session(tmux):
    t, root, out = tmux
    before_show = t.show()
    p0 = t.out / "p0"
    t.type(f"env -0 > {shlex.quote(str(p0))}")
    assert t.type("cudaenv use 99.9 --tmux") == "2"
    p1 = t.out / "p1"
    t.type(f"env -0 > {shlex.quote(str(p1))}")
    strip = (b"_",)
    assert {k: v for k, v in parse_env0(p1.read_bytes()).items() if k not in strip} == \
        {k: v for k, v in parse_env0(p0.read_bytes()).items() if k not in strip}
    assert t.show() == before_show


def test_auto_hook_in_an_interactive_pane(tmux):
    """The real thing: bash on a tmux pty, PROMPT_COMMAND between the lines typed."""
    t, root, out = tmux
    proj = out.parent / "work" / HOSTILE / "deep"
    proj.mkdir(parents=True)
    (proj.parent / ".cuda-version").write_text(f"{NEW}\n")
    envfile = t.out / "inpane"
    assert t.type('eval "$(cudaenv init bash --auto)"') == "0"
    assert t.type(f"cd {shlex.quote(str(proj))}") == "0"
    assert t.type(f"env -0 > {shlex.quote(str(envfile))}") == "0"
    assert parse_env0(envfile.read_bytes())[b"CUDA_HOME"] == root.encode()
    t("send-keys", "-t", "main:work", "-l", "false")  # its own line: the prompt hook runs after it
    t("send-keys", "-t", "main:work", "Enter")
    assert t.type("(exit $?)") == "1", "the prompt hook kept $?"
    assert t.type("cd /") == "0"
    assert t.type(f"env -0 > {shlex.quote(str(envfile))}") == "0"
    after = parse_env0(envfile.read_bytes())
    assert after[b"CUDA_HOME"] == b"/session/value;" and b"CUDAENV_ACTIVE" not in after
    assert not [p for p in out.parent.rglob("PWNED*")]


def test_a_login_shell_pane_gets_the_toolkit_back_on_path(tmux, tmp_path):
    """tmux's default: new panes are login shells, and Debian's /etc/profile resets PATH.

    After `use --tmux`, such a pane inherits CUDA_HOME and the state but not the
    toolkit's bin; `cudaenv init` in the login profile puts it back.
    """
    t, root, out = tmux
    (tmp_path / ".bash_profile").write_text(f'eval "$({tmp_path / "bin" / "cudaenv"} init bash)"\n')
    assert t.type(f"cudaenv use {NEW} --tmux") == "0"
    dump = out / "login"
    part = f"{dump}.part"
    inner = f"env -0 > {shlex.quote(part)} && mv {shlex.quote(part)} {shlex.quote(str(dump))}"
    t("new-window", "-d", "-t", "main", f"exec bash --login -c {shlex.quote(inner)}",
      env={k: v for k, v in t.env.items() if k != "PATH"})
    t.wait(dump)
    env = parse_env0(dump.read_bytes())
    r = root.encode()
    assert env[b"CUDA_HOME"] == r
    path = env[b"PATH"].split(b":")
    assert path[0] == r + b"/bin", path
    assert b"/usr/local/sbin" in path, "the login profile's PATH is kept behind it"
    assert t.type("cudaenv off --tmux") == "0"
