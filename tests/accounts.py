"""Real second (and third) user accounts that run this checkout's cudaenv (tests/test_shared_store.py,
tests/test_site_config.py).

The project's Python may live in root's 0700 home, so another account runs cudaenv with Debian's
``/usr/bin/python3`` (python3-yaml, -click, -packaging, -distro: tests/run.sh) from a copy of the
``cudaenv`` package in a directory every account can read.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess

import pytest

from helpers import REPO, setup_missing

SYSTEM_PYTHON = "/usr/bin/python3"
GROUP = "cudaenv-site"
ALICE = "cudaenv-site-a"  # installs into the shared store
BOB = "cudaenv-site-b"    # lists, uses, verifies
EVE = "cudaenv-site-e"    # not in the group


def need_accounts() -> None:
    """Skip (fail under CI) where accounts cannot be made or cannot run cudaenv."""
    if os.geteuid() != 0:
        pytest.skip("needs root to create and act as other users")
    for tool in ("runuser", "useradd", "groupadd"):
        if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
            setup_missing(f"{tool} missing")
    res = subprocess.run([SYSTEM_PYTHON, "-c", "import yaml, click, packaging, distro"], capture_output=True)
    if res.returncode != 0:
        setup_missing("Debian's python3 lacks yaml/click/packaging/distro: run the apt-get line of tests/run.sh")


def ensure_account(name: str, group: str | None) -> pwd.struct_passwd:
    """The account ``name`` (made when missing; another xdist worker may be making it: whoever loses finds it)."""
    if group:
        try:
            grp.getgrnam(group)
        except KeyError:
            subprocess.run(["groupadd", group], capture_output=True)
    try:
        return pwd.getpwnam(name)
    except KeyError:
        res = subprocess.run(["useradd", "-m", *(["-G", group] if group else []), name], capture_output=True, text=True)
        try:
            return pwd.getpwnam(name)
        except KeyError:
            pytest.fail(f"useradd {name} failed: {res.stderr.strip()}")


def install_copy(dest: str) -> str:
    """Copy this checkout's package to ``dest/lib`` (readable by all) and put a ``cudaenv`` command in
    ``dest/bin`` run by Debian's python3; return that bin directory."""
    lib = os.path.join(dest, "lib")
    shutil.copytree(os.path.join(REPO, "cudaenv"), os.path.join(lib, "cudaenv"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    bindir = os.path.join(dest, "bin")
    os.makedirs(bindir)
    exe = os.path.join(bindir, "cudaenv")
    with open(exe, "w") as f:
        f.write(f"#!{SYSTEM_PYTHON}\nimport sys\nsys.path.insert(0, {lib!r})\n"
                "from cudaenv.main import main\nsys.exit(main())\n")
    for d, dirs, files in os.walk(dest):
        os.chmod(d, 0o755)
        for n in files:
            os.chmod(os.path.join(d, n), 0o755 if n == "cudaenv" and d == bindir else 0o644)
    return bindir


def user_env(name: str, bindir: str, **extra: str) -> dict:
    """A login-like environment for ``name``: its home, its XDG directories, cudaenv first on PATH."""
    home = pwd.getpwnam(name).pw_dir
    env = {"HOME": home, "USER": name, "LOGNAME": name, "LC_ALL": "C.UTF-8",
           "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_DIRS": "/nonexistent-xdg"}
    env.update(extra)
    return env


def run_as(name: str, argv: list[str], env: dict, umask: int = 0o022, cwd: str = "/",
           timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``argv`` as ``name`` (its groups included) with ``umask`` and exactly ``env``."""
    script = f"umask {umask:03o}; exec \"$@\""
    return subprocess.run(["runuser", "-u", name, "--", "/usr/bin/env", "-i", *[f"{k}={v}" for k, v in env.items()],
                           "/bin/sh", "-c", script, "sh", *argv], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd)


def reset_home(name: str) -> None:
    """Remove what earlier tests left in the account's config, cache and data directories."""
    home = pwd.getpwnam(name).pw_dir
    for sub in (".config/cudaenv", ".cache/cudaenv", ".local/share/cudaenv"):
        shutil.rmtree(os.path.join(home, sub), ignore_errors=True)
