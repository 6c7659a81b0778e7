"""A second real user attacking the victim's caches (infra/private.py).

The victim is root running this checkout's cudaenv with HOME and the XDG
directories in a shared directory; the attacker is the real account
``cudaenv-mallory`` (made here if missing, as tests/run.sh does), acting through
``runuser``. A cache another user can write must never be read, executed or
put on a loader path; temporary files are never written through a planted
link; cudaenv still works, uncached, with one note.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile

import pytest

from helpers import REPO, make_toolkit, run_cudaenv

MALLORY = "cudaenv-mallory"
NOTE = "so another user could change what cudaenv runs"


def _need_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to create and act as a second user")
    for tool in ("runuser", "useradd"):
        if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
            pytest.skip(f"{tool} missing")


@pytest.fixture(scope="module")
def mallory() -> pwd.struct_passwd:
    """The attacker's real account (created when missing)."""
    _need_root()
    try:
        return pwd.getpwnam(MALLORY)
    except KeyError:
        # Another pytest-xdist worker may be adding the same account: whoever loses finds it made.
        res = subprocess.run(["useradd", "-m", MALLORY], capture_output=True, text=True)
        try:
            return pwd.getpwnam(MALLORY)
        except KeyError:
            pytest.fail(f"useradd {MALLORY} failed: {res.stderr.strip()}")


def as_mallory(script: str, *args: str) -> None:
    """Run ``sh -c script`` as the attacker (failing the test if it fails)."""
    res = subprocess.run(["runuser", "-u", MALLORY, "--", "sh", "-euc", script, "sh", *args],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr


@pytest.fixture
def shared(mallory, tmp_path):
    """A directory both users reach (/tmp/pytest-of-root is root's only); removed after."""
    d = tempfile.mkdtemp(prefix="cudaenv-shared-", dir="/tmp")
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def victim_env(shared: str, tk_glob: str, cache: str) -> dict:
    home = os.path.join(shared, "home")
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=cache, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_DATA_HOME=os.path.join(home, ".local", "share"), CUDAENV_ROOTS=tk_glob)
    env.pop("CUDAENV_NO_PRELOAD", None)
    return env


@pytest.fixture
def toolkits(shared):
    base = os.path.join(shared, "tk")
    for v in ("12.4.1", "12.5.0"):
        make_toolkit(os.path.join(base, f"cuda-{v}"), v)
    return base


def group_writable_cache(shared: str, mallory) -> str:
    """The victim's cache as umask 002 and a shared group make it: root's, 0775, group = mallory's."""
    xdg = os.path.join(shared, "xdg")
    os.makedirs(os.path.join(xdg, "cudaenv"))
    os.chmod(xdg, 0o755)
    os.chown(os.path.join(xdg, "cudaenv"), 0, mallory.pw_gid)
    os.chmod(os.path.join(xdg, "cudaenv"), 0o775)
    return xdg


def stderr_notes(res) -> list[str]:
    return [ln for ln in res.stderr.splitlines() if NOTE in ln]


def use_json(env, target="12.5"):
    res = run_cudaenv(["use", target, "--shell", "json"], env)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    return json.loads(res.stdout), res


def _preload_with_sentinel(env: dict, sentinel: str) -> bytes:
    """A valid preload file for `use` whose first module also creates ``sentinel`` (the attack)."""
    private = tempfile.mkdtemp(prefix="cudaenv-preload-src-")
    try:
        e = dict(env, XDG_CACHE_HOME=private)
        for _ in range(2):  # a warm run records the file
            run_cudaenv(["use", "12.5", "--shell", "json"], e)
        path = os.path.join(private, "cudaenv", f"preload-use.{sys.implementation.cache_tag}")
        with open(path, "rb") as f:
            data = list(marshal.loads(f.read()))
    finally:
        shutil.rmtree(private, ignore_errors=True)
    mods = data[4]
    name, pkg, mtime, size, code = mods[0]
    evil = compile(f"open({sentinel!r}, 'w').close()\n", "<planted>", "exec")
    mods[0] = (name, pkg, mtime, size, evil)
    return marshal.dumps(tuple(data))


def test_group_writable_cache_is_not_used_one_note(shared, toolkits, mallory):
    """umask 002 + a shared group: the attacker plants a preload, an index, a stub link dir and temp links."""
    xdg = group_writable_cache(shared, mallory)
    cache = os.path.join(xdg, "cudaenv")
    env = victim_env(shared, f"{toolkits}/cuda-*", xdg)
    sentinel = os.path.join(shared, "PWNED")
    # The attacker's material, staged world-readable.
    stage = os.path.join(shared, "stage")
    os.makedirs(stage)
    with open(os.path.join(stage, "preload"), "wb") as f:
        f.write(_preload_with_sentinel(env, sentinel))
    evil = os.path.join(shared, "evil")
    make_toolkit(evil, "12.5.0")
    key = hashlib.sha1(os.path.join(toolkits, "cuda-12.5.0").encode()).hexdigest()[:16]
    tag = sys.implementation.cache_tag
    as_mallory(
        'cd "$1"; cp "$2/preload" "preload-use.$3"; chmod 644 "preload-use.$3"\n'
        'mkdir -p "stubs/$4"; ln -s /nonexistent/evil.so "stubs/$4/libcuda.so.1"; '
        'ln -s "$5" "stubs/$4/libcudart.so.12"',
        cache, stage, tag, key, evil)
    doc, res = use_json(env)
    ld = doc["set"].get("LD_LIBRARY_PATH", "")
    assert not os.path.exists(sentinel), "the planted preload ran"
    assert cache not in ld and cache not in doc["set"].get("LIBRARY_PATH", ""), ld
    assert doc["set"]["CUDA_HOME"] == os.path.join(toolkits, "cuda-12.5.0")
    assert len(stderr_notes(res)) == 1, res.stderr
    assert cache in stderr_notes(res)[0] and "writable by its group" in stderr_notes(res)[0]
    # Nothing of the victim's landed there either.
    assert not any(os.stat(os.path.join(cache, n), follow_symlinks=False).st_uid == 0 for n in os.listdir(cache))
    # Still works for every fast command, with the same one note.
    for args in (["list"], ["off", "--shell", "bash"]):
        r = run_cudaenv(args, env)
        assert r.returncode == 0 and "Traceback" not in r.stderr and len(stderr_notes(r)) == 1, r.stderr


@pytest.mark.parametrize("private", [False, True])
def test_planted_temp_links_never_written_through(shared, toolkits, mallory, private):
    """The attacker links every temporary name the victim's writers would use to the victim's ~/.bashrc.

    The victim's pid is known before it runs (``sh`` waits, then execs cudaenv): the
    links are exactly the names a pid-named temporary file would have. ``private``:
    the cache became the victim's 0700 afterwards, so cudaenv writes there again.
    """
    xdg = group_writable_cache(shared, mallory)
    cache = os.path.join(xdg, "cudaenv")
    env = victim_env(shared, f"{toolkits}/cuda-*", xdg)
    bashrc = os.path.join(env["HOME"], ".bashrc")
    with open(bashrc, "w") as f:
        f.write("# the victim's own\n")
    proc = subprocess.Popen(["sh", "-c", 'read _; exec "$@"', "sh", sys.executable, "-m", "cudaenv", "use", "12.5",
                             "--shell", "bash"], env=dict(env, PYTHONPATH=REPO), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        tag = sys.implementation.cache_tag
        as_mallory('cd "$1"; for n in index.marshal "preload-use.$3" verify/x.marshal; do '
                   'mkdir -p "$(dirname "$n")"; ln -s "$2" "$n.$4.tmp"; done; '
                   'mkdir -p -m 777 stubs', cache, bashrc, tag, str(proc.pid))
        if private:
            os.chmod(cache, 0o700)
        out, err = proc.communicate("\n", timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert open(bashrc).read() == "# the victim's own\n"
    # One note for the cache (0775). Once it is private nothing of the attacker's is looked at:
    # the runtime stub no longer lives in the cache (node-local, and only for stubs: always).
    assert len([ln for ln in err.splitlines() if NOTE in ln]) == (0 if private else 1), err
    if private:  # it was written, privately, under fresh names
        assert os.stat(os.path.join(cache, "index.marshal")).st_mode & 0o777 == 0o600


def test_planted_index_in_attacker_cache_names_nothing(shared, toolkits, mallory):
    """An index the attacker wrote (a toolkit record pointing at their bin) is never read."""
    xdg = os.path.join(shared, "xdg")
    os.makedirs(xdg)
    os.chmod(xdg, 0o777)  # a shared XDG_CACHE_HOME, no sticky bit
    env = victim_env(shared, f"{toolkits}/cuda-*", xdg)
    # The victim's real index, as a private run writes it, turned against them.
    private = tempfile.mkdtemp(prefix="cudaenv-index-src-")
    try:
        run_cudaenv(["list"], dict(env, XDG_CACHE_HOME=private))
        with open(os.path.join(private, "cudaenv", "index.marshal"), "rb") as f:
            index = marshal.loads(f.read())
    finally:
        shutil.rmtree(private, ignore_errors=True)
    evil = os.path.join(shared, "evil")
    make_toolkit(evil, "12.5.0")
    real = os.path.join(toolkits, "cuda-12.5.0")
    sig, (rec, why) = index["roots"][real]
    index["roots"][real] = (sig, (dict(rec, root=evil), why))
    stage = os.path.join(shared, "index.marshal")
    with open(stage, "wb") as f:
        f.write(marshal.dumps(index))
    os.chmod(stage, 0o644)
    as_mallory('mkdir -m 777 "$1/cudaenv"; cp "$2" "$1/cudaenv/index.marshal"', xdg, stage)
    doc, res = use_json(env)
    assert evil not in doc["set"]["PATH"], doc["set"]["PATH"]
    assert doc["set"]["CUDA_HOME"] == real
    assert len(stderr_notes(res)) == 1, res.stderr


def test_sticky_less_shared_parent_refuses_even_a_private_cache(shared, toolkits, mallory):
    """A 0700 cache of the victim's own inside a 0777 directory: the attacker could rename it away later."""
    xdg = os.path.join(shared, "xdg")
    os.makedirs(os.path.join(xdg, "cudaenv"))
    os.chmod(xdg, 0o777)
    os.chmod(os.path.join(xdg, "cudaenv"), 0o700)
    env = victim_env(shared, f"{toolkits}/cuda-*", xdg)
    doc, res = use_json(env)
    assert xdg not in doc["set"].get("LD_LIBRARY_PATH", "")
    notes = stderr_notes(res)
    assert len(notes) == 1 and f"{xdg} is writable by others" in notes[0], res.stderr
    assert os.listdir(os.path.join(xdg, "cudaenv")) == []  # nothing written, nothing read
    # The attacker swaps it for their own: still nothing used.
    as_mallory('mv "$1/cudaenv" "$1/old"; mkdir -m 777 "$1/cudaenv"', xdg)
    doc, res = use_json(env)
    assert len(stderr_notes(res)) == 1 and xdg not in doc["set"].get("LD_LIBRARY_PATH", "")


def test_attacker_leftovers_in_a_cache_made_private_later(shared, toolkits, mallory):
    """The cache was 0775 once; the attacker planted a stub dir and links; then it became 0700.

    Subdirectories and files of another user are still refused: the loader link dir
    the attacker owns never reaches LD_LIBRARY_PATH, and their link is never written through
    (the cache's stubs directory, where cudaenv kept the loader link before issue 17, is not
    even looked at now: the runtime stub is node-local and only for stubs: always).
    """
    xdg = group_writable_cache(shared, mallory)
    cache = os.path.join(xdg, "cudaenv")
    env = victim_env(shared, f"{toolkits}/cuda-*", xdg)
    key = hashlib.sha1(os.path.join(toolkits, "cuda-12.5.0").encode()).hexdigest()[:16]
    evil = os.path.join(shared, "evil")
    os.makedirs(evil)
    as_mallory('mkdir -p -m 777 "$1/stubs/$2"; ln -s "$3" "$1/stubs/$2/libcuda.so.1"; '
               'mkdir -m 777 "$1/verify" "$1/loader" "$1/devlinks"', cache, key, evil)
    os.chmod(cache, 0o700)  # the user follows the note: chmod go-w
    doc, res = use_json(env)
    ld = doc["set"].get("LD_LIBRARY_PATH", "")
    assert f"stubs/{key}" not in ld and cache not in ld, ld
    assert not stderr_notes(res), res.stderr
    assert os.readlink(os.path.join(cache, "stubs", key, "libcuda.so.1")) == evil  # untouched, unused
    # The cache itself is used again: the index is the victim's own, 0600.
    st = os.stat(os.path.join(cache, "index.marshal"))
    assert st.st_uid == 0 and st.st_mode & 0o777 == 0o600


def test_cache_made_private_whatever_the_umask(tmp_path, toolkits):
    """umask 002 (and 000) still gives 0700 directories and 0600 files; no runtime stub by default."""
    cache = tmp_path / "c"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), CUDAENV_ROOTS=f"{toolkits}/cuda-*")
    for umask in ("002", "000"):
        shutil.rmtree(cache, ignore_errors=True)
        res = subprocess.run(["sh", "-c", f'umask {umask}; exec "$@"', "sh", sys.executable, "-m", "cudaenv",
                              "use", "12.5", "--shell", "json"],
                             env=dict(env, PYTHONPATH=REPO), capture_output=True, text=True, timeout=120)
        assert res.returncode == 0 and not res.stderr, res.stderr
        for dp, dn, fn in os.walk(cache):
            assert os.stat(dp).st_mode & 0o777 == 0o700, dp
            for n in fn:
                st = os.lstat(os.path.join(dp, n))
                assert stat.S_ISLNK(st.st_mode) or st.st_mode & 0o077 == 0, n
        ld = json.loads(res.stdout)["set"]["LD_LIBRARY_PATH"].split(":")
        assert not any(d.startswith(str(cache)) for d in ld), ld  # stubs: auto is link time only


@pytest.mark.parametrize("blob", [
    {"format": 4, "roots": 5, "files": {}},
    {"format": 4, "roots": {"/x": 1}, "files": {}},
    {"format": 4, "roots": {}, "files": {"/x": (1, 2, 3)}, "hostcxx": []},
    "ROOTS",  # a real key with a record of another shape (filled in below)
])
def test_index_of_another_shape_is_ignored(tmp_path, toolkits, blob):
    cache = tmp_path / "c"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), CUDAENV_ROOTS=f"{toolkits}/cuda-*")
    run_cudaenv(["list"], env)
    path = cache / "cudaenv" / "index.marshal"
    if blob == "ROOTS":
        blob = marshal.loads(path.read_bytes())
        for k, (sig, _v) in list(blob["roots"].items()):
            blob["roots"][k] = (sig, ({"root": 5, "components": []}, None))
        for k, (sig, _v) in list(blob["files"].items()):
            blob["files"][k] = (sig, ("x", None))
    path.write_bytes(marshal.dumps(blob))
    os.chmod(path, 0o600)
    for args in (["list"], ["use", "12.5", "--shell", "bash"], ["show", "12.5"], ["check", "12.5"]):
        res = run_cudaenv(args, env)
        assert "Traceback" not in res.stderr, (args, res.stderr)
        assert res.returncode in (0, 1), (args, res.stderr)
    assert "12.5.0" in run_cudaenv(["list"], env).stdout


@pytest.mark.parametrize("shape", ["not-a-list", "bad-entry", "bad-name", "not-code"])
def test_preload_of_another_shape_is_ignored(tmp_path, toolkits, shape):
    cache = tmp_path / "c"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), CUDAENV_ROOTS=f"{toolkits}/cuda-*")
    for _ in range(2):
        run_cudaenv(["use", "12.5", "--shell", "bash"], env)
    path = cache / "cudaenv" / f"preload-use.{sys.implementation.cache_tag}"
    data = list(marshal.loads(path.read_bytes()))
    first = data[4][0]
    data[4] = {"not-a-list": "x",
               "bad-entry": [first[:3]] + data[4][1:],
               "bad-name": [(5,) + first[1:]] + data[4][1:],
               "not-code": [first[:4] + ("print(1)",)] + data[4][1:]}[shape]
    path.write_bytes(marshal.dumps(tuple(data)))
    res = run_cudaenv(["use", "12.5", "--shell", "bash"], env)
    assert res.returncode == 0 and "Traceback" not in res.stderr and "CUDA_HOME" in res.stdout, res.stderr


def test_profiles_and_config_another_user_can_change_are_not_read(shared, toolkits, mallory):
    """A group-writable profiles directory: the attacker's profile prepends their bin; a planted config adds a root."""
    env = victim_env(shared, f"{toolkits}/cuda-*", os.path.join(shared, "cache"))
    conf = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv")
    os.makedirs(os.path.join(conf, "profiles"))
    os.chmod(conf, 0o755)
    os.chown(os.path.join(conf, "profiles"), 0, mallory.pw_gid)
    os.chmod(os.path.join(conf, "profiles"), 0o775)
    evil = os.path.join(shared, "evil")
    make_toolkit(os.path.join(evil, "cuda-12.9.0"), "12.9.0")
    as_mallory('printf "name: cuda-12.5.0\\nroot: %s\\nprepend:\\n  PATH: [%s/bin]\\n" "$2" "$3" > "$1/cuda-12.5.0.yaml"',
               os.path.join(conf, "profiles"), os.path.join(toolkits, "cuda-12.5.0"), evil)
    doc, res = use_json(env)
    assert evil not in doc["set"]["PATH"] and len(stderr_notes(res)) == 1, res.stderr
    # The directory made private later: the attacker's file left in it is still theirs, and not read.
    os.chmod(os.path.join(conf, "profiles"), 0o700)
    doc, res = use_json(env)
    assert evil not in doc["set"]["PATH"] and len(stderr_notes(res)) == 1, res.stderr
    assert "cuda-12.5.0.yaml" in stderr_notes(res)[0]
    # config.yaml the attacker can write (group-writable file in the victim's own directory).
    cfg = os.path.join(conf, "config.yaml")
    with open(cfg, "w") as f:
        f.write(f"roots: [{evil}/cuda-*]\n")
    os.chown(cfg, 0, mallory.pw_gid)
    os.chmod(cfg, 0o664)
    res = run_cudaenv(["list"], env)
    assert res.returncode == 0 and "12.9.0" not in res.stdout and len(stderr_notes(res)) == 1, res.stderr
    os.chmod(cfg, 0o644)  # the victim's own again: used
    assert "12.9.0" in run_cudaenv(["list"], env).stdout


def test_installed_toolkits_another_user_can_change_are_not_listed(shared, toolkits, mallory):
    """``$XDG_DATA_HOME/cudaenv/toolkits`` group-writable: a toolkit the attacker put there never reaches PATH."""
    env = victim_env(shared, f"{toolkits}/cuda-*", os.path.join(shared, "cache"))
    inst = os.path.join(env["XDG_DATA_HOME"], "cudaenv", "toolkits")
    os.makedirs(inst)
    os.chown(inst, 0, mallory.pw_gid)
    os.chmod(inst, 0o775)
    stage = os.path.join(shared, "evil")
    make_toolkit(os.path.join(stage, "cuda-12.9.0"), "12.9.0")
    as_mallory('cp -r "$1/cuda-12.9.0" "$2/"', stage, inst)
    res = run_cudaenv(["list"], env)
    assert res.returncode == 0 and "12.9.0" not in res.stdout, res.stdout
    assert len(stderr_notes(res)) == 1 and inst in stderr_notes(res)[0], res.stderr
    res = run_cudaenv(["use", "12.9", "--shell", "bash"], env)
    assert res.returncode != 0 and not res.stdout


def test_download_cache_file_of_another_user_is_not_reused(shared, mallory, tmp_path):
    """A file named by the right sha256 that the attacker left in the download cache is fetched anew, not trusted."""
    import http.server
    import threading

    from cudaenv.install.fetch import fetch_file

    good = b"the real archive\n" * 100
    sha = hashlib.sha256(good).hexdigest()
    cache = os.path.join(shared, "downloads")
    os.makedirs(cache)
    os.chown(cache, 0, mallory.pw_gid)
    os.chmod(cache, 0o775)
    as_mallory('printf evil > "$1/$2"', cache, sha)
    os.chmod(cache, 0o700)  # made private after the attacker's visit
    served = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the stdlib's name
            served.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", str(len(good)))
            self.end_headers()
            self.wfile.write(good)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        path, n = fetch_file(f"http://127.0.0.1:{server.server_address[1]}/a.tar.xz", sha, len(good), cache)
    finally:
        server.shutdown()
    assert served and n == len(good) and open(path, "rb").read() == good
    assert os.stat(path).st_uid == 0 and os.stat(path).st_mode & 0o077 == 0


def test_profile_build_makes_a_private_directory_and_refuses_a_shared_one(tmp_path, toolkits):
    conf = tmp_path / "conf"
    env = dict(os.environ, XDG_CONFIG_HOME=str(conf), XDG_CACHE_HOME=str(tmp_path / "c"),
               CUDAENV_ROOTS=f"{toolkits}/cuda-*", PYTHONPATH=REPO)
    res = subprocess.run(["sh", "-c", 'umask 002; exec "$@"', "sh", sys.executable, "-m", "cudaenv", "profile",
                          "build", "12.5"], env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert os.stat(conf / "cudaenv" / "profiles").st_mode & 0o777 == 0o700
    assert os.stat(conf / "cudaenv").st_mode & 0o777 == 0o700
    os.chmod(conf / "cudaenv" / "profiles", 0o775)
    res = run_cudaenv(["profile", "build", "12.4", "--force"], env)
    assert res.returncode == 1 and not res.stdout and "Traceback" not in res.stderr, res.stderr
    assert res.stderr.count("\n") == 1 and "not writing profiles into" in res.stderr, res.stderr
