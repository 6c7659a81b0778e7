"""Discovery against the real system toolkit, the real test bed and fake trees for odd cases."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cudaenv.context import Context
from cudaenv.infra.index import Index
from cudaenv.profiles.model import scan_toolkits
from cudaenv.toolkit.discover import Layout, candidates, scan
from cudaenv.toolkit.probe import Skip, probe
from cudaenv.toolkit.version import parse_nvcc_version, read_version
from helpers import REPO, kill_marked, make_toolkit, run_cudaenv, stderr_is_cudaenv_lines


@pytest.fixture
def layout(tmp_path):
    """Empty standard locations, so a test sees only the trees it makes."""
    for d in ("usr-local", "opt"):
        (tmp_path / d).mkdir()
    return Layout(
        usr_local=str(tmp_path / "usr-local"), opt=str(tmp_path / "opt"),
        debian_nvcc=str(tmp_path / "usr/bin/nvcc"), debian_lib=str(tmp_path / "usr/lib/nvidia-cuda-toolkit"),
        debian_root=str(tmp_path / "usr"),
    )


def discover(env, layout, tmp_path, **kw):
    return scan(candidates(env, layout, **kw), Index(None), layout)


def test_system_toolkit_without_version_json(system_toolkit):
    assert not os.path.exists(os.path.join(system_toolkit, "version.json"))
    tk = probe(system_toolkit)
    assert (tk["version"], tk["full_version"]) == ("13.0", "13.0.88")
    assert tk["version_source"] == "cuda.h+metadata"
    assert tk["components"]["nvcc"] and tk["components"]["cudart_shared"] and tk["components"]["cudart_static"]
    assert tk["components"]["stubs"] is False  # wheel-built: no driver stub
    assert tk["components"]["cupti"] is True


def test_system_default_symlink_and_wrapper_nvcc(system_toolkit):
    # On this machine /usr/local/bin/nvcc is a wrapper script: /usr/local is not a toolkit.
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin"}
    toolkits, skipped = scan(candidates(env), Index(None))
    roots = [t["root"] for t in toolkits]
    assert system_toolkit in roots and "/usr/local" not in roots
    tk = next(t for t in toolkits if t["root"] == system_toolkit)
    assert tk["default"] is True
    assert "/usr/local/cuda" in tk["aliases"]
    assert not any(s[0] == "/usr/local" for s in skipped)


def test_testbed_versions(testbed):
    want = {"11.8": ("11.8.0", "11.8.89"), "12.4": ("12.4.1", "12.4.131"), "13.5": ("13.5.0", "13.5.37")}
    for short, root in testbed.items():
        tk = probe(os.path.realpath(root))
        assert (tk["version"], tk["full_version"], tk["nvcc_version"]) == (short, *want[short])
        assert tk["version_source"] == "version.json"
        assert tk["components"]["stubs"], f"{root} lacks lib64/stubs/libcuda.so"


def test_testbed_nvcc_agrees_with_version_files(testbed):
    from cudaenv.infra.run import run

    for short, root in testbed.items():
        res = run([os.path.join(root, "bin", "nvcc"), "--version"], timeout=60)
        rel, comp = parse_nvcc_version(res.stdout)
        tk = probe(os.path.realpath(root))
        assert rel == tk["version"] and comp == tk["nvcc_version"]


def test_same_toolkit_by_several_paths_is_listed_once(tmp_path, layout):
    root = make_toolkit(str(tmp_path / "opt" / "cuda-12.4"), "12.4.1")
    os.symlink(root, os.path.join(layout.usr_local, "cuda-12.4"))
    os.symlink(root, layout.default_link)
    env = {"CUDA_HOME": root, "CUDA_PATH": os.path.join(layout.usr_local, "cuda-12.4"),
           "PATH": f"{root}/bin:/usr/bin", "CUDAENV_ROOTS": root}
    toolkits, skipped = discover(env, layout, tmp_path)
    assert len(toolkits) == 1 and not skipped
    tk = toolkits[0]
    assert tk["default"]
    assert set(tk["found_by"]) >= {"default symlink", f"{layout.usr_local}/cuda-*", f"{layout.opt}/cuda*",
                                   "CUDA_HOME", "CUDA_PATH", "nvcc on PATH", "CUDAENV_ROOTS"}
    assert set(tk["aliases"]) == {os.path.join(layout.usr_local, "cuda-12.4"), layout.default_link}


def test_broken_candidates_are_skipped_with_reasons(tmp_path, layout):
    ul = layout.usr_local
    make_toolkit(os.path.join(ul, "cuda-12.4"), "12.4.1")
    os.symlink("/nonexistent/cuda", os.path.join(ul, "cuda-11.0"))
    make_toolkit(os.path.join(ul, "cuda-12.0"), "12.0.0", nvcc=False)
    garbage = make_toolkit(os.path.join(ul, "cuda-12.1"), "12.1.0")
    with open(os.path.join(garbage, "version.json"), "w") as f:
        f.write("{not json")
    unreadable = make_toolkit(os.path.join(ul, "cuda-12.2"), "12.2.0")
    os.chmod(unreadable, 0)
    try:
        toolkits, skipped = discover({}, layout, tmp_path)
    finally:
        os.chmod(unreadable, 0o755)
    # root can read a mode-000 directory, so there it is a toolkit like any other.
    assert [t["full_version"] for t in toolkits] == (["12.2.0"] if os.geteuid() == 0 else []) + ["12.4.1"]
    reasons = {os.path.basename(p): why for p, how, why in skipped}
    assert reasons["cuda-11.0"] == "dangling symlink"
    assert reasons["cuda-12.0"] == "no bin/nvcc"
    assert "version.json" in reasons["cuda-12.1"]
    if os.geteuid() != 0:  # root reads anything
        assert reasons["cuda-12.2"] == "unreadable directory"


def test_version_sources_in_order(tmp_path):
    a = make_toolkit(str(tmp_path / "a"), "10.2.89", version_json=False, version_txt=True)
    assert read_version(a)["source"] == "version.txt" and read_version(a)["full"] == "10.2.89"
    b = make_toolkit(str(tmp_path / "b"), "12.6.0", version_json=False, nvcc_dist_info="12.6.85")
    assert (read_version(b)["full"], read_version(b)["source"]) == ("12.6.85", "cuda.h+metadata")
    c = make_toolkit(str(tmp_path / "c"), "12.6.0", version_json=False)
    assert (read_version(c)["full"], read_version(c)["source"]) == ("12.6", "cuda.h")
    d = make_toolkit(str(tmp_path / "d"), "12.2.140", version_json=False, cuda_h=False)
    assert (read_version(d)["full"], read_version(d)["source"]) == ("12.2.140", "nvcc --version")
    e = make_toolkit(str(tmp_path / "e"), "12.4.1")
    with open(os.path.join(e, "version.json"), "w") as f:
        json.dump({"cuda_nvcc": {"version": "12.4.131"}}, f)  # no top-level "cuda" entry
    assert read_version(e)["full"] == "12.4.131"


def test_no_version_source_at_all_is_skipped(tmp_path):
    root = make_toolkit(str(tmp_path / "x"), "12.4.1", version_json=False, cuda_h=False)
    with open(os.path.join(root, "bin", "nvcc"), "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    with pytest.raises(Skip, match="no version.json"):
        probe(root)


def test_site_packages_nvidia_tree_is_not_a_toolkit(tmp_path, layout):
    # A CUDA wheel's nvidia/cu13 has include/ and lib/ but no bin/nvcc.
    fake = tmp_path / "venv/lib/python3.11/site-packages/nvidia/cu13"
    (fake / "include").mkdir(parents=True)
    (fake / "include" / "cuda_runtime.h").touch()
    (fake / "lib").mkdir()
    toolkits, skipped = discover({"CUDAENV_ROOTS": str(fake)}, layout, tmp_path)
    assert toolkits == [] and skipped[0][2] == "no bin/nvcc"


def test_roots_globs_and_literal_paths(tmp_path, layout):
    make_toolkit(str(tmp_path / "tk" / "cuda-12.4"), "12.4.1")
    make_toolkit(str(tmp_path / "tk" / "cuda-12.5"), "12.5.0")
    odd = make_toolkit(str(tmp_path / "tk" / "cuda-[odd]"), "11.8.0")
    env = {"CUDAENV_ROOTS": f"{tmp_path}/tk/cuda-12.*::{odd}"}
    toolkits, skipped = discover(env, layout, tmp_path)
    # The literal path with glob characters is taken as it is, not as a pattern.
    assert [t["full_version"] for t in toolkits] == ["11.8.0", "12.4.1", "12.5.0"]


def test_config_file_roots(tmp_path, monkeypatch):
    make_toolkit(str(tmp_path / "site" / "cuda-12.4"), "12.4.1")
    cfg = tmp_path / "xdg-config" / "cudaenv"
    cfg.mkdir(parents=True)
    (cfg / "config.yaml").write_text(f"roots:\n  - {tmp_path}/site/cuda-*\n")
    toolkits, _ = scan_toolkits(Context())
    assert f"{tmp_path}/site/cuda-12.4" in [t["root"] for t in toolkits]
    (cfg / "config.yaml").write_text("roots: 3\n")
    res = run_cudaenv(["list"], dict(os.environ))
    assert res.returncode == 2 and res.stdout == ""
    assert "invalid config" in res.stderr and "'roots'" in res.stderr


def test_conda_prefix_and_debian_layout(tmp_path, layout):
    conda = make_toolkit(str(tmp_path / "conda-env"), "12.4.131", version_json=False)
    os.makedirs(os.path.join(conda, "conda-meta"))
    # Debian: /usr/bin/nvcc plus /usr/lib/nvidia-cuda-toolkit, headers in /usr/include.
    usr = tmp_path / "usr"
    make_toolkit(str(usr), "12.4.131", version_json=False, libdir="lib")
    (usr / "lib" / "nvidia-cuda-toolkit").mkdir()
    toolkits, _ = discover({"CONDA_PREFIX": conda}, layout, tmp_path)
    by = {t["root"]: t for t in toolkits}
    assert by[conda]["found_by"] == ["CONDA_PREFIX"]
    assert by[str(usr)]["found_by"] == ["Debian package"]


def test_debian_profile_never_puts_system_dirs_in_front():
    from cudaenv.profiles.model import default_profile

    tk = {"root": "/usr", "full_version": "12.4.131", "libdir": "lib", "cupti_dir": None,
          "components": {"stubs": False}, "origin": None}
    prof = default_profile(tk)
    assert "PATH" not in prof["prepend"] and prof["set"]["CUDA_HOME"] == "{root}"


def test_probe_results_are_cached_and_refreshed_on_change(tmp_path, layout):
    root = make_toolkit(os.path.join(layout.usr_local, "cuda-12.4"), "12.4.1")
    idx = Index(str(tmp_path / "index"))
    scan(candidates({}, layout), idx, layout)
    idx.save()
    idx2 = Index(str(tmp_path / "index"))
    (t,), _ = scan(candidates({}, layout), idx2, layout)
    assert not idx2.dirty and t["full_version"] == "12.4.1"
    with open(os.path.join(root, "version.json.new"), "w") as f:
        json.dump({"cuda": {"version": "12.4.2"}}, f)
    os.replace(os.path.join(root, "version.json.new"), os.path.join(root, "version.json"))
    (t,), _ = scan(candidates({}, layout), idx2, layout)
    assert idx2.dirty and t["full_version"] == "12.4.2"


def test_list_cli_human_and_json(tmp_path, layout):
    make_toolkit(str(tmp_path / "r" / "cuda-12.4"), "12.4.1", cupti_extras=True)
    os.symlink("/nowhere", str(tmp_path / "r" / "cuda-broken"))
    env = dict(os.environ, CUDAENV_ROOTS=f"{tmp_path}/r/cuda-*")
    res = run_cudaenv(["list", "--json"], env)
    assert res.returncode == 0
    doc = json.loads(res.stdout)
    assert doc["schema"] == 1
    tk = next(t for t in doc["toolkits"] if t["root"] == f"{tmp_path}/r/cuda-12.4")
    assert set(tk) == {"version", "full_version", "version_source", "nvcc_version", "root", "aliases", "found_by",
                       "default", "active", "profile", "libdir", "components", "origin", "series"}  # series: docs/json.md
    assert tk["origin"] is None  # an installed toolkit (wheel toolkits: tests/test_wheel_toolkits.py)
    assert tk["components"]["cupti"] and tk["profile"] == "cuda-12.4.1"
    assert f"skipped {tmp_path}/r/cuda-broken (CUDAENV_ROOTS): dangling symlink" in res.stderr
    human = run_cudaenv(["list"], env)
    assert "12.4.1" in human.stdout and f"{tmp_path}/r/cuda-12.4" in human.stdout
    assert "cudart(shared,static) stubs cupti" in human.stdout


@pytest.mark.parametrize("pat", ["cuda-*", "c*1*.*", "*a*a*", "cuda", "cuda-1?.*", "cuda-[1]*", "cuda-[!x]*.[0-9]", "*", "c*a-*4", "[a-c]uda-12.*"])
def test_glob_matcher_agrees_with_fnmatch(pat):
    import fnmatch

    from cudaenv.toolkit.discover import _match

    names = ["cuda-12.4", "cuda-11.8", "cuda", "cudax", "cuda-12.a", "xcuda-1", "cuda-[1]", "c"]
    assert [n for n in names if _match(n, pat)] == [n for n in names if fnmatch.fnmatchcase(n, pat)]


def test_cudnn_version_from_its_header(tmp_path):
    root = make_toolkit(str(tmp_path / "c"), "12.4.1")
    with open(os.path.join(root, "include", "cudnn_version.h"), "w") as f:
        f.write("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n")
    assert probe(root)["components"]["cudnn"] == "9.1.0"


def _cached_scan(layout, root):
    """One discovery through the on-disk cache, as `list` and `use` run it; root's record and the context."""
    ctx = Context(env=dict(os.environ, CUDAENV_ROOTS=root), layout=layout)
    toolkits, _ = scan_toolkits(ctx)
    ctx.save()
    return next(t for t in toolkits if t["root"] == root), ctx


def _bump_mtime(path, before):
    """Move ``path``'s mtime past ``before``: a coarse clock may not have moved when an entry was added."""
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))


@pytest.mark.parametrize("stubs_dir_before", [False, True], ids=["new-stubs-dir", "empty-stubs-dir"])
def test_cache_sees_a_stub_added_to_a_lib_layout_toolkit(tmp_path, layout, stubs_dir_before):
    root = make_toolkit(os.path.realpath(tmp_path / "tk" / "cuda-12.4"), "12.4.1", libdir="lib", stubs=False)
    stubs = os.path.join(root, "lib", "stubs")
    if stubs_dir_before:
        os.mkdir(stubs)
    tk, _ = _cached_scan(layout, root)
    assert tk["libdir"] == "lib" and tk["components"]["stubs"] is False
    tk, ctx = _cached_scan(layout, root)
    assert not ctx.index.dirty  # unchanged tree: answered from the cache
    before = os.stat(stubs) if stubs_dir_before else None
    os.makedirs(stubs, exist_ok=True)
    open(os.path.join(stubs, "libcuda.so"), "w").close()
    if before is not None:
        _bump_mtime(stubs, before)
    tk, _ = _cached_scan(layout, root)
    assert tk["components"]["stubs"] is True


def test_cache_sees_cudnn_headers_copied_into_include(tmp_path, layout):
    root = make_toolkit(os.path.realpath(tmp_path / "tk" / "cuda-12.4"), "12.4.1")
    assert os.path.isfile(os.path.join(root, "version.json"))  # the version does not come from include/
    tk, _ = _cached_scan(layout, root)
    assert tk["components"]["cudnn"] is None
    inc = os.path.join(root, "include")
    before = os.stat(inc)
    with open(os.path.join(inc, "cudnn_version.h"), "w") as f:
        f.write("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n")
    _bump_mtime(inc, before)
    tk, _ = _cached_scan(layout, root)
    assert tk["components"]["cudnn"] == "9.1.0"


def test_cache_sees_cupti_added_under_extras(tmp_path, layout):
    root = make_toolkit(os.path.realpath(tmp_path / "tk" / "cuda-12.4"), "12.4.1")
    # extras/ already there (as in real toolkits): adding CUPTI leaves the root's mtime alone.
    os.makedirs(os.path.join(root, "extras", "compute-sanitizer"))
    tk, _ = _cached_scan(layout, root)
    assert tk["cupti_dir"] is None and tk["components"]["cupti"] is False
    cupti = os.path.join(root, "extras", "CUPTI", "lib64")
    os.makedirs(cupti)
    tk, _ = _cached_scan(layout, root)
    assert tk["cupti_dir"] == cupti and tk["components"]["cupti"] is True


def test_an_nvcc_that_leaves_a_daemon_holding_its_output_does_not_hang_discovery(tmp_path):
    """nvcc (read only when no version file says the version) starts a daemon that keeps stdout open."""
    root = make_toolkit(str(tmp_path / "cuda-12.2"), "12.2.140", version_json=False, cuda_h=False)
    nvcc = os.path.join(root, "bin", "nvcc")
    with open(nvcc) as f:
        body = f.read()
    marker = "297.123"  # a sleep nobody else runs, so the test can find and end it
    with open(nvcc, "w") as f:
        f.write(body.replace("#!/bin/sh\n", f"#!/bin/sh\nsetsid sleep {marker} &\n", 1))
    env = dict(os.environ, CUDAENV_ROOTS=root)
    try:
        res = subprocess.run([sys.executable, "-m", "cudaenv", "list", "--json"], env=env, cwd=REPO,
                             capture_output=True, text=True, timeout=60)
    finally:
        kill_marked(f"sleep {marker}")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["toolkits"][0]["full_version"] == "12.2.140"


@pytest.mark.parametrize("content", [
    '{"cuda": {"version": "\uff11\uff12.\uff14.1"}}',  # fullwidth digits: int() takes them
    '{"cuda": {"version": "12.4.\u00b9"}}',  # a superscript: isdigit() says yes, int() says no
    "[" * 200000,  # nested past the JSON parser's depth
    b"\xff\xfe\x00bin\x01",
], ids=["fullwidth", "superscript", "deep", "binary"])
def test_odd_version_json_is_a_skip_reason_not_a_traceback(tmp_path, content):
    root = make_toolkit(str(tmp_path / "cuda-12.4"), "12.4.1")
    path = os.path.join(root, "version.json")
    with open(path, "wb") as f:
        f.write(content if isinstance(content, bytes) else content.encode())
    res = run_cudaenv(["list", "--json"], dict(os.environ, CUDAENV_ROOTS=root))
    stderr_is_cudaenv_lines(res)
    assert res.returncode == 0
    assert root not in [t["root"] for t in json.loads(res.stdout)["toolkits"]]
    assert "unreadable version.json" in res.stderr or "names no valid CUDA version" in res.stderr
