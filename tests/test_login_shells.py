"""The README's init line in a login bash on Debian's default ~/.profile (issue 17, login shells).

/etc/skel/.profile sources ~/.bashrc first and puts ~/.local/bin on PATH after it, so a
`pip --user`/pipx install is not on PATH when the init line runs.
"""

import os
import re
import shutil
import subprocess

import pytest

from helpers import REPO, write_wrapper, need

SKEL = "/etc/skel/.profile"


def readme_line(shell: str) -> str:
    text = open(os.path.join(REPO, "README.md")).read()
    m = re.search(r"^\| %s \| [^|]+ \| `(.+)` \|$" % shell, text, re.M)
    assert m, f"README has no init line for {shell}"
    return m.group(1)


def login_home(tmp_path, line: str, install: bool = True) -> dict:
    if not os.path.isfile(SKEL):
        pytest.skip("no /etc/skel/.profile")
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(SKEL, home / ".profile")
    (home / ".bashrc").write_text(line + "\n")
    if install:
        write_wrapper(str(home / ".local" / "bin"))
    return {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
            "XDG_CONFIG_HOME": str(home / "cfg"), "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_DATA_HOME": str(home / "data"), "TERM": "dumb"}


def bash(env, *args):
    return subprocess.run([need("bash"), *args], env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def test_login_bash_gets_the_function_from_local_bin(tmp_path):
    env = login_home(tmp_path, readme_line("bash"))
    res = bash(env, "-l", "-i", "-c", "type -t cudaenv; cudaenv off; echo rc=$?")
    assert "command not found" not in res.stderr, res.stderr
    assert res.stdout.splitlines()[0] == "function", res.stdout + res.stderr
    assert "rc=0" in res.stdout, res.stdout + res.stderr


def test_login_bash_non_interactive_prints_nothing(tmp_path):
    env = login_home(tmp_path, readme_line("bash"))
    res = bash(env, "-l", "-c", "true")
    assert res.stdout == "" and res.returncode == 0


def test_line_is_silent_where_cudaenv_is_not_installed(tmp_path):
    env = login_home(tmp_path, readme_line("bash"), install=False)
    res = bash(env, "-l", "-i", "-c", "echo ok")
    assert res.stdout == "ok\n"
    assert "cudaenv" not in res.stderr, res.stderr


def test_zsh_line_finds_local_bin(tmp_path):
    env = login_home(tmp_path, "")
    (tmp_path / "home" / ".zshrc").write_text(readme_line("zsh") + "\n")
    res = subprocess.run([need("zsh"), "-l", "-i", "-c", "whence -w cudaenv"], env=env, capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert "cudaenv: function" in res.stdout, res.stdout + res.stderr


def test_a_pane_with_an_active_profile_gets_it_back_and_local_bin_once(tmp_path):
    """A login shell started from one with an active profile (a new tmux pane): /etc/profile-like
    start-up resets PATH, init puts the profile's entries back, and the line adds nothing of its
    own to PATH (~/.profile then adds ~/.local/bin exactly once)."""
    from helpers import make_toolkit

    env = login_home(tmp_path, readme_line("bash"))
    root = make_toolkit(str(tmp_path / "tk" / "cuda-12.4"), "12.4.1")
    env["CUDAENV_ROOTS"] = str(tmp_path / "tk" / "cuda-*")
    local = os.path.join(env["HOME"], ".local", "bin")
    script = (f'eval "$({local}/cudaenv use 12.4)" || exit 9; export PATH=/usr/local/bin:/usr/bin:/bin; '
              'exec bash -l -i -c \'printf "%s\\n" "$PATH"; type -t cudaenv\'')
    res = bash(env, "-c", script)
    lines = res.stdout.splitlines()
    assert lines[-1:] == ["function"], res.stdout + res.stderr
    path = lines[-2].split(":")
    assert path.count(local) == 1, path
    assert os.path.join(root, "bin") in path, path


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_init_note_and_shipped_file_show_the_readme_line(shell):
    """What `cudaenv init` tells a user to add (at a terminal), and the shipped file's header,
    are the README's line, not the short one that fails in a login shell with ~/.local/bin."""
    from cudaenv.shells import shell as shell_of

    line = readme_line(shell)
    assert shell_of(shell).rc_line(shell).endswith(line)
    assert shell_of(shell).rc_line(shell, auto=True).endswith(line.replace(f"init {shell}", f"init {shell} --auto"))
    with open(os.path.join(REPO, "cudaenv", "shell", f"cudaenv.{shell}")) as f:
        assert line in f.read()
