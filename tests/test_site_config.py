"""The site's config layer (/etc/cudaenv/config.yaml, $XDG_CONFIG_DIRS), read before the user's
config.yaml, which wins key by key; `cudaenv config` says where each setting came from; a site file
another user could change is refused in one line (issue 17)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from accounts import BOB, EVE, GROUP, ensure_account, install_copy, need_accounts, run_as, user_env
from helpers import REPO, make_toolkit, one_error_line, run_cudaenv


@pytest.fixture
def site(tmp_path):
    """A site directory (standing in for /etc/cudaenv), a user and two toolkits under a store."""
    store = tmp_path / "store"
    make_toolkit(str(store / "cuda-12.4"), "12.4.1")
    make_toolkit(str(store / "cuda-11.8"), "11.8.0")
    site_dir = tmp_path / "etc-cudaenv"
    site_dir.mkdir()
    env = dict(os.environ, CUDAENV_SITE_CONFIG_DIR=str(site_dir), XDG_CONFIG_DIRS=str(tmp_path / "xdg-dirs"))
    return tmp_path, store, site_dir, env


def write(path, text: str, mode: int = 0o644) -> str:
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return str(path)


def roots_listed(env: dict) -> list[str]:
    import json

    res = run_cudaenv(["list", "--json"], env)
    assert res.returncode == 0, res.stderr
    return [t["root"] for t in json.loads(res.stdout)["toolkits"]]


def test_site_roots_are_seen_and_config_names_their_origin(site):
    tmp, store, site_dir, env = site
    cfg = write(site_dir / "config.yaml", f"roots: [{store}/cuda-*]\nmodulefiles: {tmp}/modules\n")
    assert {str(store / "cuda-12.4"), str(store / "cuda-11.8")} <= set(roots_listed(env))
    res = run_cudaenv(["config"], env)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert f"roots: {store}/cuda-*    (from {cfg})" in res.stdout
    assert f"modulefiles: {tmp}/modules    (from {cfg})" in res.stdout
    assert f"{cfg}: used" in res.stdout and "config.yaml: missing" in res.stdout


def test_user_config_wins_key_by_key(site):
    tmp, store, site_dir, env = site
    site_cfg = write(site_dir / "config.yaml", f"roots: [{store}/cuda-12.4]\nsources: [{tmp}/site-mirror]\n")
    user_cfg = write(os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "config.yaml"),
                     f"sources: [{tmp}/my-mirror]\n", 0o600)
    out = run_cudaenv(["config"], env).stdout
    assert f"roots: {store}/cuda-12.4    (from {site_cfg})" in out
    assert f"sources: {tmp}/my-mirror    (from {user_cfg})" in out
    assert str(store / "cuda-12.4") in roots_listed(env)
    # The user's roots replace the site's (key by key, not merged).
    write(user_cfg, f"roots: [{store}/cuda-11.8]\n", 0o600)
    listed = roots_listed(env)
    assert str(store / "cuda-11.8") in listed and str(store / "cuda-12.4") not in listed


def test_xdg_config_dirs_first_entry_wins_over_later_and_over_etc(site):
    tmp, store, site_dir, env = site
    write(site_dir / "config.yaml", "modulefiles: /from/etc\nroots: [/from/etc]\n")
    first, second = tmp / "xdg1", tmp / "xdg2"
    write(second / "cudaenv" / "config.yaml", "modulefiles: /from/second\nsources: [/from/second]\n")
    f1 = write(first / "cudaenv" / "config.yaml", "modulefiles: /from/first\n")
    env["XDG_CONFIG_DIRS"] = f"{first}:relative/ignored:{second}"
    out = run_cudaenv(["config"], env).stdout
    assert f"modulefiles: /from/first    (from {f1})" in out
    assert "roots: /from/etc" in out and "sources: /from/second" in out
    lines = [ln.split(":")[0].strip() for ln in out.split("lowest first")[1].splitlines()[1:]]
    assert lines[:3] == [str(site_dir / "config.yaml"), str(second / "cudaenv" / "config.yaml"),
                         str(first / "cudaenv" / "config.yaml")], out


@pytest.mark.parametrize("how", ["group-writable", "world-writable", "dir-world-writable", "owned-by-user",
                                 "dir-owned-by-user", "symlink-to-user-file"])
def test_site_config_another_user_can_change_is_refused_in_one_line(site, how):
    tmp, store, site_dir, env = site
    text = f"roots: [{store}/cuda-*]\n"
    cfg = site_dir / "config.yaml"
    if how in ("owned-by-user", "dir-owned-by-user", "symlink-to-user-file"):
        need_accounts()
        eve = ensure_account(EVE, None)
    if how == "group-writable":
        write(cfg, text, 0o664)
    elif how == "world-writable":
        write(cfg, text, 0o646)
    elif how == "dir-world-writable":
        write(cfg, text)
        os.chmod(site_dir, 0o777)
    elif how == "owned-by-user":
        write(cfg, text)
        os.chown(cfg, eve.pw_uid, eve.pw_gid)
    elif how == "dir-owned-by-user":
        write(cfg, text)
        os.chown(site_dir, eve.pw_uid, eve.pw_gid)
    else:
        theirs = tmp / "eve" / "config.yaml"
        write(theirs, text)
        os.chown(tmp / "eve", eve.pw_uid, eve.pw_gid)
        os.symlink(theirs, cfg)
    res = run_cudaenv(["list", "--json"], env)
    assert res.returncode == 0
    assert str(store / "cuda-12.4") not in res.stdout
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("cudaenv: not using site config"), res.stderr
    res = run_cudaenv(["config"], env)
    assert "refused: " in res.stdout and "roots:" not in res.stdout.split("files,")[0]


@pytest.mark.parametrize("text, words", [
    ("roots: [1, 2]\n", "'roots' must be a list"),
    ("colour: red\n", "unknown key 'colour'"),
    ("modulefiles: relative/dir\n", "'modulefiles' must be an absolute directory"),
    ("[unclosed\n", "not valid YAML"),
    ("- a list\n", "expected a mapping"),
    ("profile: {stubs: maybe}\n", "'stubs' must be one of auto, always, never"),
    ("profile: {set: {A: b}}\n", "'profile' must be a mapping of stubs, loader_path, host_compiler, build"),
    ("profile: {build: {max_jobs: -1}}\n", "build.max_jobs must be auto, none or a positive whole number"),
])
def test_invalid_site_config_is_one_line_and_nothing_on_stdout(site, text, words):
    tmp, store, site_dir, env = site
    cfg = write(site_dir / "config.yaml", text)
    for args in (["list"], ["use", "12.4", "--shell", "bash"], ["config"]):
        err = one_error_line(run_cudaenv(args, env), 2)
        assert cfg in err and words in err, err


def test_use_with_a_site_config_reads_no_yaml_on_a_warm_cache(site):
    """The layers are stat'ed on every command, parsed on a cache miss only: `use` imports no yaml."""
    tmp, store, site_dir, env = site
    write(site_dir / "config.yaml", f"roots: [{store}/cuda-*]\n")
    assert run_cudaenv(["use", "12.4", "--shell", "bash"], env).returncode == 0  # warm the index
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from cudaenv.main import main\n"
            "rc = main(['use', '12.4', '--shell', 'bash'])\n"
            "print(rc, 'yaml' in sys.modules, 'cudaenv.profiles.config' in sys.modules, file=sys.stderr)\n")
    res = subprocess.run([sys.executable, "-S", "-c", code, REPO], env=env, capture_output=True, text=True)
    assert res.stderr.split()[-3:] == ["0", "False", "False"], res.stderr
    assert f"{store}/cuda-12.4/bin" in res.stdout


def test_modulefiles_go_to_the_site_directory_by_default(site):
    tmp, store, site_dir, env = site
    write(site_dir / "config.yaml", f"roots: [{store}/cuda-*]\nmodulefiles: {tmp}/modules\n")
    res = run_cudaenv(["modulefiles", "--format", "lmod", "--all"], env)
    assert res.returncode == 0, res.stderr
    assert os.path.isdir(tmp / "modules" / "cuda") and len(os.listdir(tmp / "modules" / "cuda")) >= 2


def test_another_account_reads_the_site_config_root_wrote(site):
    """A real second account sees the site's roots (root's file, 0644) and names its origin."""
    need_accounts()
    ensure_account(BOB, GROUP)
    shared = tempfile.mkdtemp(prefix="cudaenv-siteconf-", dir="/tmp")
    try:
        os.chmod(shared, 0o755)
        bindir = install_copy(os.path.join(shared, "cudaenv"))
        store = os.path.join(shared, "store")
        make_toolkit(os.path.join(store, "cuda-12.4"), "12.4.1")
        for d, _dirs, files in os.walk(store):
            os.chmod(d, 0o755)
        etc = os.path.join(shared, "etc")
        cfg = write(os.path.join(etc, "config.yaml"), f"roots: [{store}/cuda-*]\n")
        os.chmod(etc, 0o755)
        env = user_env(BOB, bindir, CUDAENV_SITE_CONFIG_DIR=etc)
        res = run_as(BOB, ["cudaenv", "config"], env)
        assert res.returncode == 0 and f"(from {cfg})" in res.stdout, res.stdout + res.stderr
        res = run_as(BOB, ["cudaenv", "list"], env)
        assert res.returncode == 0 and f"{store}/cuda-12.4" in res.stdout, res.stdout + res.stderr
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_site_profile_settings_apply_to_every_toolkit_no_file_governs(site):
    """`profile:` in the site config: on this driverless host `stubs: never` keeps the stub off the
    loader path and `build.max_jobs` sizes builds; a user's config `profile:` replaces it, and a
    profile file the user wrote says everything itself."""
    tmp, store, site_dir, env = site
    env = dict(env, CUDAENV_PROC_ROOT=str(tmp / "no-proc"))  # no driver here, whatever the machine has
    write(site_dir / "config.yaml", f"roots: [{store}/cuda-*]\nprofile:\n  stubs: never\n  build: {{max_jobs: 3}}\n")
    res = run_cudaenv(["use", "12.4", "--shell", "bash"], env)
    assert res.returncode == 0, res.stderr
    assert "MAX_JOBS=3" in res.stdout.replace("'", "") and "stubs" not in res.stdout.split("LD_LIBRARY_PATH=")[1].split("\n")[0]
    out = run_cudaenv(["config"], env).stdout
    assert "profile: stubs=never, build.max_jobs=3    (from " in out
    # The user's config replaces the site's `profile:` as a whole (key by key at the top).
    user_cfg = write(os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "config.yaml"), "profile: {stubs: auto}\n", 0o600)
    res = run_cudaenv(["use", "12.4", "--shell", "bash"], env)
    assert "MAX_JOBS=3" not in res.stdout.replace("'", "")
    os.unlink(user_cfg)
    # `profile build` writes the site's settings into the file it makes; a file then governs.
    res = run_cudaenv(["profile", "build", "12.4"], env)
    assert res.returncode == 0, res.stderr
    text = open(os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles", "cuda-12.4.1.yaml")).read()
    assert "stubs: never" in text and "max_jobs: 3" in text, text
