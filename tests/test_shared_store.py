"""A group-shared toolkit store used by two real user accounts (issue 17).

Alice installs CUDA 13.5 from a local mirror (the test bed's redist mirror, linked into a
directory every account reads) with `install --prefix STORE/cuda-13.5`; Bob, in the same group,
finds it through the site config, lists it, switches to it, verifies it (its own nvcc compiles and
links) and loads the modulefile written beside the store with Lmod, never running cudaenv for
that. Neither can corrupt the other's state: Bob cannot write a tree whose store is not
group-writable for him, cannot uninstall what Alice installed, and the store holds no per-user
state. The lock is the NFS-safe link(2) lock of install/store.py.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
import time

import pytest

import redist_mirror
from accounts import (ALICE, BOB, EVE, GROUP, ensure_account, install_copy, need_accounts, reset_home, run_as,
                      user_env)
from helpers import REPO, cudaenv_env, one_error_line, setup_missing

pytestmark = pytest.mark.testbed

MIRROR = redist_mirror.MIRROR
LMOD_INIT = "/usr/share/lmod/lmod/init/bash"


def _link_tree(src: str, dst: str) -> None:
    """A copy of ``src`` every account can read, hard-linked where the file system allows."""
    for d, _dirs, files in os.walk(src):
        out = os.path.join(dst, os.path.relpath(d, src))
        os.makedirs(out, exist_ok=True)
        os.chmod(out, 0o755)
        for n in files:
            try:
                os.link(os.path.join(d, n), os.path.join(out, n))
            except OSError:
                shutil.copy2(os.path.join(d, n), os.path.join(out, n))
            os.chmod(os.path.join(out, n), 0o644)


@pytest.fixture(scope="module")
def world():
    """Accounts, a shared directory with cudaenv, the mirror, a store (root:GROUP 2775) and the site config."""
    need_accounts()
    redist_mirror.ensure()
    for name in (ALICE, BOB):
        ensure_account(name, GROUP)
        reset_home(name)
    ensure_account(EVE, None)
    reset_home(EVE)
    shared = tempfile.mkdtemp(prefix="cudaenv-store-", dir="/tmp")
    os.chmod(shared, 0o755)
    bindir = install_copy(os.path.join(shared, "cudaenv"))
    mirror = os.path.join(shared, "mirror")
    _link_tree(MIRROR, mirror)
    store = os.path.join(shared, "store")
    os.mkdir(store)
    os.chown(store, 0, grp.getgrnam(GROUP).gr_gid)
    os.chmod(store, 0o2775)
    etc = os.path.join(shared, "etc")
    os.mkdir(etc, 0o755)
    with open(os.path.join(etc, "config.yaml"), "w") as f:
        f.write(f"roots: [{store}/cuda-*]\nsources: [{mirror}]\nmodulefiles: {store}/modulefiles\n")
    os.chmod(os.path.join(etc, "config.yaml"), 0o644)
    yield {"shared": shared, "bin": bindir, "store": store, "etc": etc, "mirror": mirror}
    shutil.rmtree(shared, ignore_errors=True)
    for name in (ALICE, BOB, EVE):
        reset_home(name)


def env_of(world: dict, name: str, **extra: str) -> dict:
    return user_env(name, world["bin"], CUDAENV_SITE_CONFIG_DIR=world["etc"], **extra)


def ok(res: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert res.returncode == 0, f"rc {res.returncode}\nstdout: {res.stdout[-2000:]}\nstderr: {res.stderr[-2000:]}"
    assert "Traceback" not in res.stderr, res.stderr
    return res


@pytest.fixture(scope="module")
def installed(world):
    """Alice installs 13.5 (build parts) into the store with a private umask (077): the store still makes
    the tree the group's (and, as the store lets others read, everyone's) to read."""
    root = os.path.join(world["store"], "cuda-13.5")
    res = ok(run_as(ALICE, ["cudaenv", "install", "13.5", "--prefix", root], env_of(world, ALICE), umask=0o077,
                    timeout=900))
    assert res.stdout.splitlines()[0] == root
    return root


@pytest.mark.slow
def test_store_tree_is_the_groups_to_read_and_holds_no_user_state(world, installed):
    gid = grp.getgrnam(GROUP).gr_gid
    alice = pwd.getpwnam(ALICE)
    # Nothing but the toolkit in the store: no lock left, no registry, no staging.
    assert sorted(os.listdir(world["store"])) == ["cuda-13.5"] or sorted(
        n for n in os.listdir(world["store"]) if not n.endswith(".lock")) == ["cuda-13.5"], os.listdir(world["store"])
    for d, dirs, files in os.walk(installed):
        st = os.lstat(d)
        assert st.st_gid == gid and st.st_mode & stat.S_ISGID and st.st_mode & 0o050 == 0o050, (d, oct(st.st_mode))
        assert not st.st_mode & 0o022, (d, oct(st.st_mode))  # umask 077: not group-writable
        for n in files:
            st = os.lstat(os.path.join(d, n))
            assert st.st_uid == alice.pw_uid and st.st_gid == gid, n
            if not stat.S_ISLNK(st.st_mode):
                assert st.st_mode & 0o044 == 0o044 and not st.st_mode & 0o6022, (n, oct(st.st_mode))
    # Alice's record of the install is hers, under her data directory, and the only one (the world reset her home;
    # round 15 had loosened this to "among her others" when the xdist groups were lost and two worlds ran at once).
    reg = os.path.join(alice.pw_dir, ".local", "share", "cudaenv", "installs")
    recs = [json.load(open(os.path.join(reg, n))) for n in sorted(os.listdir(reg))]
    assert [r["root"] for r in recs] == [os.path.realpath(installed)], recs
    for n in os.listdir(reg):
        st = os.stat(os.path.join(reg, n))
        assert st.st_uid == alice.pw_uid and not st.st_mode & 0o022, (n, oct(st.st_mode))


@pytest.mark.slow
def test_the_other_member_lists_uses_and_verifies_it(world, installed):
    env = env_of(world, BOB)
    out = ok(run_as(BOB, ["cudaenv", "list"], env)).stdout
    assert installed in out
    use = ok(run_as(BOB, ["cudaenv", "use", "13.5", "--shell", "bash"], env)).stdout
    assert f"{installed}/bin" in use
    # verify compiles and links with the store's nvcc (and its generated stub), as Bob.
    res = ok(run_as(BOB, ["cudaenv", "verify", "13.5"], env, timeout=600))
    for step in ("nvcc-shared", "nvcc-static", "link-lcuda"):
        assert any(line.split()[:2] == ["pass", step] for line in res.stdout.splitlines()), (step, res.stdout)
    # Bob's caches are his own, private; nothing of his lands in the store.
    home = pwd.getpwnam(BOB).pw_dir
    assert stat.S_IMODE(os.stat(os.path.join(home, ".cache", "cudaenv")).st_mode) == 0o700
    assert not [n for n in os.listdir(world["store"]) if n not in ("cuda-13.5",) and not n.endswith(".lock")]


@pytest.mark.slow
def test_modulefiles_beside_the_store_for_lmod_users_who_never_run_cudaenv(world, installed):
    if not os.path.isfile(LMOD_INIT):
        setup_missing("Lmod missing: apt-get install lmod (tests/run.sh)")
    ok(run_as(ALICE, ["cudaenv", "modulefiles", "--format", "lmod", "--all"], env_of(world, ALICE), umask=0o022))
    mods = os.path.join(world["store"], "modulefiles")
    assert os.path.isdir(os.path.join(mods, "cuda"))
    # Eve is not in the group and has no cudaenv: the store (2775, other r-x) still lets her read it.
    for name in (BOB, EVE):
        env = {"HOME": pwd.getpwnam(name).pw_dir, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
        script = (f"source {LMOD_INIT}; module use {mods}; module load cuda/13.5 || exit 11; "
                  "command -v cudaenv && exit 12; nvcc --version | tail -1; echo CUDA_HOME=$CUDA_HOME")
        res = ok(run_as(name, ["bash", "-c", script], env))
        assert "Build cuda_13.5" in res.stdout or "V13.5" in res.stdout, res.stdout
        assert f"CUDA_HOME={installed}" in res.stdout


@pytest.mark.slow
def test_neither_can_corrupt_the_others_state(world, installed):
    env = env_of(world, BOB)
    # Not group-writable (Alice's umask 077): Bob cannot add to or change the tree...
    res = run_as(BOB, ["sh", "-c", f"touch {installed}/bin/planted || echo refused"], env)
    assert "refused" in res.stdout and not os.path.exists(f"{installed}/bin/planted")
    # ...and cudaenv refuses to uninstall what it did not install for him (the tree stays whole).
    err = one_error_line(run_as(BOB, ["cudaenv", "uninstall", installed], env), 2)
    assert "not a toolkit cudaenv installed" in err
    assert os.path.isfile(f"{installed}/bin/nvcc")
    # Asking for it again answers that it is there (a shared store's install is idempotent for all)...
    res = ok(run_as(BOB, ["cudaenv", "install", "13.5", "--prefix", installed], env))
    assert res.stdout == f"{installed}\n" and "already installed" in res.stderr, res.stderr
    # ...but replacing it is Alice's alone: refused in one line, her tree untouched.
    err = one_error_line(run_as(BOB, ["cudaenv", "install", "13.5", "--prefix", installed, "--force"], env), 2)
    assert installed in err and "only they can replace it" in err and os.path.isfile(f"{installed}/bin/nvcc")
    # Eve (not in the group) cannot write the store at all: one line, nothing left behind.
    before = sorted(os.listdir(world["store"]))
    res = run_as(EVE, ["cudaenv", "install", "13.5", "--parts", "runtime", "--prefix",
                       f"{world['store']}/cuda-13.5-eve"], env_of(world, EVE))
    assert res.returncode != 0 and res.stdout == "" and "Traceback" not in res.stderr, res.stderr
    assert res.stderr.splitlines()[-1] == f"cudaenv: cannot write in {world['store']}: Permission denied", res.stderr
    assert sorted(os.listdir(world["store"])) == before
    # Bob cannot make Alice's cache run his code: her cache and data are hers alone.
    alice = pwd.getpwnam(ALICE).pw_dir
    for sub in (".cache/cudaenv", ".local/share/cudaenv"):
        res = run_as(BOB, ["sh", "-c", f"touch {alice}/{sub}/planted 2>/dev/null || echo refused"], env)
        assert "refused" in res.stdout, sub


@pytest.mark.slow
def test_group_writable_where_the_umask_lets_the_group_write(world):
    """Bob (umask 002) installs runtime parts: the tree is group-writable, so Alice may replace it;
    cudaenv still refuses her uninstall (she did not install it) and the lock left nothing."""
    root = os.path.join(world["store"], "cuda-13.5-rt")
    # A flock file an earlier install of Alice's left with her private umask: Bob can neither write nor read it.
    flock_file = os.path.join(world["store"], ".cuda-13.5-rt.lock")
    open(flock_file, "w").close()
    alice = pwd.getpwnam(ALICE)
    os.chown(flock_file, alice.pw_uid, alice.pw_gid)
    os.chmod(flock_file, 0o600)
    ok(run_as(BOB, ["cudaenv", "install", "13.5", "--parts", "runtime", "--prefix", root], env_of(world, BOB),
              umask=0o002))
    for d, _dirs, files in os.walk(root):
        st = os.stat(d)
        assert st.st_mode & (stat.S_ISGID | 0o070) == stat.S_ISGID | 0o070, (d, oct(st.st_mode))
    err = one_error_line(run_as(ALICE, ["cudaenv", "uninstall", root], env_of(world, ALICE)), 2)
    assert "not a toolkit cudaenv installed" in err
    ok(run_as(BOB, ["cudaenv", "uninstall", root], env_of(world, BOB)))
    assert not os.path.exists(root)
    assert not [n for n in os.listdir(world["store"]) if ".lock.owner" in n]


def _root_install(tmp_path, prefix: str, **popen) -> subprocess.Popen:
    redist_mirror.ensure()
    env = cudaenv_env(PYTHONPATH=REPO, XDG_DATA_HOME=str(tmp_path / "data"), CUDAENV_INSTALL_CACHE=str(tmp_path / "dl"),
                      CUDAENV_SITE_CONFIG_DIR=str(tmp_path / "no-site"))
    import sys

    return subprocess.Popen([sys.executable, "-m", "cudaenv", "install", "13.5", "--parts", "runtime", "--source",
                             MIRROR, "--prefix", prefix], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **popen)


def _lock_line(host: str, pid: int, boot: str | None = None) -> str:
    if boot is None:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    return f"someone {host} {pid} {boot} 0\n"


def _dead_pid() -> int:
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid  # reaped: no process has it (until the pid space wraps, far beyond a test)


@pytest.mark.parametrize("why", ["dead-pid", "earlier-boot"])
def test_a_stale_lock_of_this_host_is_broken(tmp_path, why):
    store = tmp_path / "store"
    store.mkdir()
    lock = store / ".cuda-13.5.lock.owner"
    host = os.uname().nodename
    lock.write_text(_lock_line(host, _dead_pid()) if why == "dead-pid" else _lock_line(host, 1, "an-old-boot"))
    p = _root_install(tmp_path, str(store / "cuda-13.5"))
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert "waiting" not in err and not lock.exists() and os.path.isdir(store / "cuda-13.5")
    assert not [n for n in os.listdir(store) if ".lock.owner" in n]


def test_a_lock_of_another_host_is_waited_for_and_named(tmp_path):
    """Another node's install (its pid cannot be checked from here) holds the store: wait, say who, go on
    when it is released."""
    store = tmp_path / "store"
    store.mkdir()
    lock = store / ".cuda-13.5.lock.owner"
    lock.write_text(_lock_line("gpu-node-7", 4242))
    p = _root_install(tmp_path, str(store / "cuda-13.5"))
    try:
        seen = []
        deadline = time.monotonic() + 120
        for line in p.stderr:  # the sentinel: the one line saying whose lock it waits for
            seen.append(line)
            if "another install holds" in line:
                break
            assert time.monotonic() < deadline, seen
        assert "someone on gpu-node-7, pid 4242" in line, seen
        assert not os.path.exists(store / "cuda-13.5")
        lock.unlink()  # the other node's install finished
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, "".join(seen) + err
    assert os.path.isdir(store / "cuda-13.5") and not lock.exists()


def test_two_racing_lockers_never_both_hold_it(tmp_path):
    """The link(2) lock itself: many processes take and release it; never two inside at once."""
    import sys

    d = tmp_path / "d"
    d.mkdir()
    code = (
        "import os, sys, time; sys.path.insert(0, sys.argv[1])\n"
        "from cudaenv.install.store import StoreLock\n"
        "for i in range(30):\n"
        "    l = StoreLock(sys.argv[2], 'cuda-x', lambda m: None, poll=0.001); l.acquire()\n"
        "    fd = os.open(os.path.join(sys.argv[2], 'inside'), os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n"
        "    os.close(fd); os.unlink(os.path.join(sys.argv[2], 'inside')); l.release()\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, REPO, str(d)], stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err  # FileExistsError on 'inside' means two held the lock at once
    assert os.listdir(d) == []
