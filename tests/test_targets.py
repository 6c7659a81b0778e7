"""Which toolkit a command acts on when none is named (one rule), and query commands that write nothing.

Toolkit trees here are the small fake ones from ``helpers.make_toolkit`` under
a fake ``/usr/local`` (so the default symlink is the test's, not this
machine's); the real toolkits are exercised by test_testbed_real.py.
"""

from __future__ import annotations

import json
import os

import pytest

from cudaenv.context import Context
from cudaenv.errors import CudaenvError
from cudaenv.profiles.select import DEFAULTS, select_targets
from cudaenv.toolkit.discover import Layout
from helpers import kept_name, make_toolkit, refused_in_one_line, run_cudaenv, use_as_json


@pytest.fixture
def world(tmp_path):
    """11.8, 12.4 and 12.5 under a fake /usr/local whose cuda -> cuda-12.5; a project dir pinned to 11.8."""
    usr = tmp_path / "usr-local"
    for v in ("11.8.0", "12.4.1", "12.5.0"):
        make_toolkit(str(usr / f"cuda-{v[:4]}"), v)
    os.symlink(str(usr / "cuda-12.5"), str(usr / "cuda"))
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".cuda-version").write_text("11.8\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "CUDAENV_PROC_ROOT": str(tmp_path / "no-proc")}
    layout = Layout(usr_local=str(usr), opt=str(tmp_path / "opt"), debian_nvcc=str(tmp_path / "none"),
                    debian_lib=str(tmp_path / "none"), debian_root=str(tmp_path / "none"))
    return usr, proj, elsewhere, env, layout


def chosen(world, cwd, defaults=DEFAULTS, **env):
    usr, proj, elsewhere, base, layout = world
    ctx = Context(env={**base, **env}, cwd=str(cwd), layout=layout)
    return [tk["full_version"] for _p, tk in select_targets(ctx, defaults=defaults)]


def test_default_order_active_then_cuda_home_then_pin_then_default(world):
    usr, proj, elsewhere, _env, _layout = world
    # Nothing in use, no pin: the default toolkit (/usr/local/cuda).
    assert chosen(world, elsewhere) == ["12.5.0"]
    # A pin wins over the default.
    assert chosen(world, proj) == ["11.8.0"]
    # CUDA_HOME (set by hand or another tool) wins over the pin: it is what this shell uses.
    assert chosen(world, proj, CUDA_HOME=str(usr / "cuda-12.4")) == ["12.4.1"]
    # The active profile wins over everything.
    assert chosen(world, proj, CUDA_HOME=str(usr / "cuda-12.4"), CUDAENV_ACTIVE="cuda-12.5.0") == ["12.5.0"]


def test_a_cuda_home_that_is_no_toolkit_is_noted_and_skipped(world, tmp_path):
    usr, proj, _e, base, layout = world
    notes: list[str] = []
    ctx = Context(env={**base, "CUDA_HOME": str(tmp_path)}, cwd=str(proj), layout=layout)
    pairs = select_targets(ctx, notes=notes)
    assert [tk["full_version"] for _p, tk in pairs] == ["11.8.0"]
    assert any("not using CUDA_HOME=" in n for n in notes), notes


def test_shell_defaults_stop_after_cuda_home(world):
    usr, proj, elsewhere, _env, _layout = world
    # doctor looks at what the shell uses: nothing here (the pin and default are not in use).
    assert chosen(world, proj, defaults=("active", "cuda_home")) == []
    assert chosen(world, proj, defaults=("active", "cuda_home"), CUDA_HOME=str(usr / "cuda-12.4")) == ["12.4.1"]


def test_no_defaults_needs_names_or_all(world):
    with pytest.raises(CudaenvError, match="or pass --all"):
        chosen(world, world[1], defaults=())


def test_names_all_and_repeats(world):
    usr, proj, _e, base, layout = world
    ctx = Context(env=base, cwd=str(proj), layout=layout)
    # --all: every toolkit, the default one first.
    assert [tk["full_version"] for _p, tk in select_targets(ctx, all_=True)] == ["12.5.0", "11.8.0", "12.4.1"]
    # The same profile named twice is acted on once.
    assert [p["name"] for p, _tk in select_targets(ctx, ["12.4", "cuda-12.4.1"])] == ["cuda-12.4.1"]
    with pytest.raises(CudaenvError, match="not both"):
        select_targets(ctx, ["12.4"], all_=True)


def test_nothing_found_is_one_clear_error(tmp_path):
    ctx = Context(env={"PATH": "/nonexistent", "HOME": str(tmp_path)}, cwd=str(tmp_path),
                  layout=Layout(usr_local=str(tmp_path / "u"), opt=str(tmp_path / "o"),
                                debian_nvcc=str(tmp_path / "n"), debian_lib=str(tmp_path / "n"),
                                debian_root=str(tmp_path / "n")))
    with pytest.raises(CudaenvError, match="nothing to check"):
        select_targets(ctx)


def _tree(path: str) -> list[str]:
    out = []
    for dp, dn, fn in os.walk(path):
        out += [os.path.relpath(os.path.join(dp, n), path) for n in dn + fn]
    return sorted(out)


def test_query_commands_write_nothing_but_their_caches(tmp_path):
    """list, show, check, doctor and explain on a driverless host leave no stub link behind.

    Before the restructuring ``show`` and ``check`` created the loader-path
    stub link; only ``use`` (and ``verify``) may. The profile asks for the runtime stub
    (``stubs: always``), which lives in the node-local runtime dir, never in the cache.
    """
    root = make_toolkit(str(tmp_path / "tk" / "cuda-12.4"), "12.4.1")
    env = dict(os.environ, CUDAENV_ROOTS=root, CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"))
    pdir = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    os.makedirs(pdir)
    with open(os.path.join(pdir, "rt.yaml"), "w") as f:
        f.write(f"name: rt\nroot: {root}\nstubs: always\n")
    cache = os.path.join(env["XDG_CACHE_HOME"], "cudaenv")
    run = env["XDG_RUNTIME_DIR"]
    for args in (["list"], ["list", "--json"], ["show", "rt"], ["show", "rt", "--json"],
                 ["check", "rt", "--no-torch"], ["doctor", "--no-torch"], ["explain", "ld: cannot find -lcuda"]):
        res = run_cudaenv(args, env)
        assert res.returncode in (0, 1), (args, res.stderr)
    assert json.loads(run_cudaenv(["show", "rt", "--json"], env).stdout)["stubs_on_loader_path"] is True
    # The caches query commands own: the index, the fast forms' preload file (infra/preload.py) and
    # explain's validated knowledge base (knowledge/kb.py) and its situations table (knowledge/situations.yaml,
    # read for the classes of every answer since round 15).
    assert [kept_name(n) for n in _tree(cache) if not n.startswith("preload-")] == \
        ["compat.marshal", "explain-kb.marshal", "index.marshal", "situations.marshal", "translations.marshal"], _tree(cache)
    assert _tree(env["XDG_CONFIG_HOME"]) == ["cudaenv", "cudaenv/profiles", "cudaenv/profiles/rt.yaml"]
    assert _tree(run) == []
    # use does make the link it names.
    doc = json.loads(run_cudaenv(["use", "rt", "--shell", "json"], env).stdout)
    stub = [d for d in doc["set"]["LD_LIBRARY_PATH"].split(":") if d.startswith(run)]
    assert stub and os.path.islink(os.path.join(stub[0], "libcuda.so.1"))


@pytest.mark.parametrize("text", ["11.8 trailing words\n", "11.8\u00a0\n", "\ufeff11.8\n", "  # pinned\n11.8\t# old\n"])
def test_pin_takes_the_first_word(two_toolkits, tmp_path, text):
    base, env = two_toolkits
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".cuda-version").write_text(text, encoding="utf-8")
    res, doc = use_as_json([], env, cwd=str(proj))
    assert res.returncode == 0, res.stderr
    assert doc["set"]["CUDAENV_ACTIVE"] == "cuda-11.8.0"


def test_pin_that_is_not_utf8_is_one_clear_line(two_toolkits, tmp_path):
    base, env = two_toolkits
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".cuda-version").write_bytes(b"11.8\xff\xfe\n")
    res, _ = use_as_json([], env, cwd=str(proj))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "is not UTF-8 text" in res.stderr


@pytest.mark.parametrize("name", ["cuda:12.6", "cuda\n12.6"], ids=["colon", "newline"])
def test_show_refuses_what_use_refuses(one_toolkit, name):
    """show describes `use`: a root no PATH-like list can hold is refused by both, with the same line."""
    tmp, env = one_toolkit
    root = make_toolkit(str(tmp / "odd" / name), "12.6.0")
    shown, used = (run_cudaenv([cmd, root, *extra], env) for cmd, extra in (("show", []), ("use", ["--shell", "bash"])))
    refused_in_one_line(shown, "cannot")
    refused_in_one_line(used)
    assert shown.stderr == used.stderr


def test_show_refuses_a_profile_entry_use_refuses(one_toolkit):
    tmp, env = one_toolkit
    prof = tmp / "config" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    root = tmp / "tk" / "cuda-12.4.1"
    (prof / "colon.yaml").write_text(f'name: colon\nroot: "{root}"\nprepend:\n  PATH: ["/a:/b"]\n', encoding="utf-8")
    refused_in_one_line(run_cudaenv(["show", "colon"], env), "'/a:/b'")


@pytest.mark.parametrize("cmd", ["show", "use"])
def test_an_empty_target_is_a_bad_name_not_none_given(one_toolkit, cmd):
    _tmp, env = one_toolkit
    refused_in_one_line(run_cudaenv([cmd, "", "--shell", "bash"] if cmd == "use" else [cmd, ""], env), "empty")


@pytest.fixture
def three_toolkits(tmp_path):
    """Fake toolkits 11.8.0, 12.4.1 and 13.5.0, as in the test bed."""
    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1", "13.5.0"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    # hermetic: none of the caller's cudaenv or CUDA settings, profiles, site configuration or home reach the run
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CUDAENV_", "CUDA_", "XDG_")) and k not in ("HOME", "LD_LIBRARY_PATH", "LIBRARY_PATH")}
    env.update(CUDAENV_ROOTS=f"{base}/cuda-*", CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"), HOME=str(tmp_path / "home"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    return env


@pytest.mark.parametrize("typed, meant", [
    ("cu124", "12.4"), ("cu118", "11.8"), ("CU124", "12.4"), ("cuda-12.4", "12.4"), ("cuda12.4", "12.4"),
    ("CUDA12.4", "12.4"), ("CUDA_12.4", "12.4"), ("v12.4", "12.4"), ("V13.5", "13.5"), ("12.4.0", "12.4"),
    ("12,4", "12.4"), ("12_4", "12.4"), ("cuda-11.8", "11.8"), ("cuda_12_4_1", "12.4.1"),
])
def test_common_spellings_get_did_you_mean_not_a_silent_pick(three_toolkits, typed, meant):
    """Issue 18: `use cu124` etc. stay an error but say what to paste; 12.4.0 is not silently 12.4.1."""
    res = run_cudaenv(["use", typed, "--shell", "bash"], three_toolkits)
    refused_in_one_line(res, f"did you mean {meant}?", f'eval "$(cudaenv use {meant})"')
    assert res.returncode == 2


@pytest.mark.parametrize("typed, near", [("cu121", "12.4.1"), ("cuda-12.6", "12.4.1"), ("cu126", "12.4.1"),
                                         ("v9.2", "11.8.0, 12.4.1")])
def test_a_spelled_version_not_installed_names_the_nearest(three_toolkits, typed, near):
    res = run_cudaenv(["use", typed, "--shell", "bash"], three_toolkits)
    refused_in_one_line(res, f"installed: {near}")
    assert "did you mean" not in res.stderr and res.returncode == 2


@pytest.mark.parametrize("typed, hint", [
    ("cu126", "no CUDA 12.6 is installed (installed: 12.4.1); `cudaenv install 12.6` installs it"),
    ("v9.2", "CUDA 9.2 predates the archives `cudaenv install` reads: NVIDIA's CUDA Toolkit Archive has its runfile"),
    # a version asked for as such: the message lists the toolkits, the hint does not again
    ("12.6", "no CUDA 12.6 is installed; `cudaenv install 12.6` installs it"),
])
def test_a_version_not_installed_says_how_to_get_it(three_toolkits, typed, hint):
    res = run_cudaenv(["use", typed, "--shell", "bash"], three_toolkits)
    refused_in_one_line(res, hint)
    assert res.stderr.count("installed:") == 1 and res.returncode == 2


@pytest.mark.parametrize("typed", ["cu" + "1" * 5000, "cuda\x1b[31m12.4", "12.4\r\x07", "cu\u202e124", "foo"])
def test_hostile_names_are_not_echoed_raw_or_guessed(three_toolkits, typed):
    res = run_cudaenv(["use", typed, "--shell", "bash"], three_toolkits)
    refused_in_one_line(res)
    assert len(res.stderr) < 1000 and "did you mean" not in res.stderr
    assert not any(c in res.stderr for c in "\x1b\r\x07\u202e")
