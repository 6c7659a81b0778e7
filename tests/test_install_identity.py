"""One identity per toolkit, and installs that know what is there (issue 19).

A release has a label (``13.0.2``, version.json) and its compiler a number (nvcc's ``13.0.88``):
a toolkit without version.json (``/usr/local/cuda-13.0`` here, read from cuda.h and dist-info)
shows only nvcc's. These tests build small toolkits and NVIDIA-format mirrors of their own
(tests/test_install_hostile.py's builders) and run the real command.
"""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import threading

import pytest

from test_install_hostile import _cudaenv, _env, _good, _mirror, _nvcc_archive, _toolkits

NVCC = "#!/bin/sh\necho 'Cuda compilation tools, release {short}, V{nvcc}'\n"


def _toolkit(root: str, *, label: str | None, nvcc: str) -> str:
    """A toolkit tree: bin/nvcc, cuda.h, lib64; version.json when ``label`` is given, else nvcc's dist-info only."""
    short = ".".join(nvcc.split(".")[:2])
    for d in ("bin", "include", "lib64", "dist-info"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    with open(os.path.join(root, "bin", "nvcc"), "w") as f:
        f.write(NVCC.format(short=short, nvcc=nvcc))
    os.chmod(os.path.join(root, "bin", "nvcc"), 0o755)
    major, minor = short.split(".")
    with open(os.path.join(root, "include", "cuda.h"), "w") as f:
        f.write(f"#define CUDA_VERSION {int(major) * 1000 + int(minor) * 10}\n")
    with open(os.path.join(root, "include", "cuda_runtime.h"), "w") as f:
        f.write("/* runtime */\n")
    with open(os.path.join(root, "lib64", "libcudart.so"), "w") as f:
        f.write("")
    if label:
        with open(os.path.join(root, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": label},
                       "cuda_nvcc": {"name": "CUDA NVCC", "version": nvcc}}, f)
    else:
        os.makedirs(os.path.join(root, "dist-info", f"nvidia_cuda_nvcc-{nvcc}.dist-info"))
    return root


def _home(out: str) -> str:
    """CUDA_HOME in a bash ``use`` output."""
    for line in out.splitlines():
        for word in line.replace(";", "\n").splitlines():
            word = word.strip()
            if word.startswith("export CUDA_HOME="):
                return word.split("=", 1)[1].strip("'")
    raise AssertionError(out)


def _use(target: str, env: dict) -> str:
    r = _cudaenv(["use", target, "--shell", "bash"], env)
    assert r.returncode == 0, r.stderr
    return _home(r.stdout)


# ---------------------------------------------------------------- like with like


@pytest.mark.parametrize("mine_label, mine_nvcc, want", [
    ("13.5.2", "13.5.40", "mine"),    # a newer release: its label 13.5.2 is "below" 13.5.37 as numbers
    ("13.5.0", "13.5.37", "mine"),    # the same release: the one whose release is known
    ("13.5.0", "13.5.30", "system"),  # an older release: nvcc's numbers say so
])
def test_use_compares_a_release_with_a_release(tmp_path, mine_label, mine_nvcc, want):
    """`use 13.5` between a toolkit known by nvcc's number and one known by its release label."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label=None, nvcc="13.5.37")
    mine = _toolkit(str(tmp_path / "opt" / "mine-13.5"), label=mine_label, nvcc=mine_nvcc)
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    assert _use("13.5", env) == {"system": system, "mine": mine}[want]
    # Exact versions keep naming exactly what they name.
    assert _use("13.5.37", env) == system
    assert _use(mine_label, env) == mine


# ---------------------------------------------------------------- installs that know what is there


@pytest.mark.parametrize("label", ["13.5.0", None])
def test_install_says_the_release_is_already_here(tmp_path, label):
    """A toolkit cudaenv did not install, of the release asked for: said, its root printed, no second copy."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label=label, nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    src = _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good()})
    r = _cudaenv(["install", "13.5", "--source", src], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{system}\n"
    assert f"CUDA 13.5.0 is already here: {system}" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not os.path.exists(_toolkits(env)) or os.listdir(_toolkits(env)) == []


def test_install_of_an_exact_release_here_asks_no_source(tmp_path):
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.0", nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    r = _cudaenv(["install", "13.5.0", "--source", "http://127.0.0.1:1/"], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{system}\n"


def test_another_release_of_the_series_is_installed(tmp_path):
    """13.5.1 here does not answer for 13.5.0 (like with like: the labels differ)."""
    _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.1", nvcc="13.5.50")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    src = _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good()})
    r = _cudaenv(["install", "13.5.0", "--source", src], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == os.path.join(_toolkits(env), "cuda-13.5.0")


@pytest.mark.parametrize("existing_profile", [False, True])
def test_a_second_copy_never_makes_a_name_ambiguous(tmp_path, existing_profile):
    """`--prefix` installs a second copy of a release: `13.5`, `13.5.0` and `cuda-13.5.0` keep meaning the first."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.0", nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    if existing_profile:
        r = _cudaenv(["profile", "build", system], env)
        assert r.returncode == 0, r.stderr
    src = _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good()})
    copy = str(tmp_path / "copy")
    r = _cudaenv(["install", "13.5", "--source", src, "--prefix", copy], env)
    assert r.returncode == 0, r.stderr
    profiles = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    assert "cuda-13.5.0-2.yaml" in os.listdir(profiles), os.listdir(profiles)
    for name in ("13.5", "13.5.0", "cuda-13.5.0"):
        assert _use(name, env) == system, name
    assert _use("cuda-13.5.0-2", env) == copy


# ---------------------------------------------------------------- parts are additive


def _libs() -> list[tuple]:
    return [("dir", "lib"), ("file", "lib/libcublas.so.13.5.1", b"\x7fELF fake", 0o755),
            ("sym", "lib/libcublas.so.13", "libcublas.so.13.5.1"), ("file", "include/cublas_v2.h", "/* cublas */\n")]


def _parts_mirror(tmp_path) -> str:
    return _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good(), "libcublas": _libs()})


@pytest.mark.parametrize("version", ["13.5", "13.5.0"])
def test_parts_are_additive(tmp_path, version):
    """`--parts runtime` on a `build` install adds the runtime (the record lists both); asked again: nothing to add."""
    env = _env(tmp_path)
    src = _parts_mirror(tmp_path)
    r = _cudaenv(["install", version, "--source", src, "--parts", "build"], env)
    assert r.returncode == 0, r.stderr
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    assert os.path.isfile(f"{root}/include/cublas_v2.h") and not os.path.exists(f"{root}/lib64/libcublas.so.13")
    profiles = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    written = sorted(os.listdir(profiles))
    r = _cudaenv(["install", version, "--source", src, "--parts", "runtime"], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == root
    assert "already installed" not in r.stderr and "adding libcublas" in r.stderr, r.stderr
    assert os.path.islink(f"{root}/lib64/libcublas.so.13") and os.path.isfile(f"{root}/bin/nvcc")
    rec = json.load(open(f"{root}/cudaenv-install.json"))
    assert rec["parts"] == "build,runtime" and rec["components"]["libcublas"]["only"] == "all", rec
    assert sorted(os.listdir(profiles)) == written  # the profile kept, still recorded for uninstall
    r = _cudaenv(["install", version, "--source", src, "--parts", "runtime"], env)
    assert r.returncode == 0 and "already installed" in r.stderr, r.stderr
    r = _cudaenv(["uninstall", "13.5"], env)
    assert r.returncode == 0 and "removed profile" in r.stderr, r.stderr


def test_adding_parts_the_source_cannot_complete_is_one_line(tmp_path):
    """The tree is rebuilt from the union: a source that lacks what is installed refuses, the tree stays."""
    env = _env(tmp_path)
    src = _parts_mirror(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", src, "--parts", "cuda_nvcc,cuda_cudart"], env)
    assert r.returncode == 0, r.stderr
    other = _mirror(str(tmp_path / "other"), {"cuda_cudart": _good(), "libcublas": _libs()})
    r = _cudaenv(["install", "13.5", "--source", other, "--parts", "runtime"], env)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert "not adding libcublas" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert os.path.isfile(os.path.join(_toolkits(env), "cuda-13.5.0", "bin", "nvcc"))


# ---------------------------------------------------------------- a server of the test's own


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files (directory listings too); a file named in ``server.hold`` waits for ``server.gate``."""

    def log_message(self, *args) -> None:
        pass

    def translate_path(self, path: str) -> str:
        return os.path.join(self.server.root, path.split("?", 1)[0].lstrip("/"))

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        rel = self.path.split("?", 1)[0].lstrip("/")
        self.server.log.append(rel)
        if os.path.basename(rel) in self.server.hold:
            self.server.reached.set()
            self.server.gate.wait(60)
        super().do_GET()


@pytest.fixture
def serve():
    started = []

    def start(root: str, hold: tuple[str, ...] = ()) -> http.server.ThreadingHTTPServer:
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        srv.root, srv.log, srv.hold = root, [], set(hold)
        srv.reached, srv.gate = threading.Event(), threading.Event()
        srv.daemon_threads = True
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        srv.url = f"http://127.0.0.1:{srv.server_address[1]}/"
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.gate.set()
        srv.shutdown()
        srv.server_close()


def _machine(tmp_path, name: str) -> dict:
    """The environment of another machine: its own home, data and caches."""
    (tmp_path / name).mkdir()
    return _env(tmp_path / name)


def _archives(log: list[str]) -> list[str]:
    return [p for p in log if p.endswith((".tar.xz", ".whl"))]


# ---------------------------------------------------------------- --dry-run


def test_dry_run_shows_the_download_before_downloading(tmp_path, serve):
    srv = serve(_parts_mirror(tmp_path))
    env = _env(tmp_path, CUDAENV_INSTALL_CACHE=str(tmp_path / "dl"))
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--dry-run"], env)
    assert r.returncode == 0, r.stderr
    sizes = {k: os.path.getsize(os.path.join(srv.root, k, "linux-x86_64", f"{k}-linux-x86_64-13.5.0-archive.tar.xz"))
             for k in ("cuda_nvcc", "cuda_cudart", "libcublas")}
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["COMPONENT", "VERSION", "TAKES", "SIZE"], r.stdout
    assert any(ln.split()[:3] == ["libcublas", "13.5.37", "headers"] for ln in lines), r.stdout
    assert lines[-1].startswith("would download ") and "(0 of 3 files cached or local)" in lines[-1], r.stdout
    assert _archives(srv.log) == [] and not os.path.exists(_toolkits(env)) and not os.listdir(tmp_path / "dl")
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--dry-run", "--json"], env)
    doc = json.loads(r.stdout)
    assert doc["download_bytes"] == doc["total_bytes"] == sum(sizes.values()), doc
    assert {c["key"]: c["size"] for c in doc["components"]} == sizes and doc["version"] == "13.5.0"
    # Installed (build), then runtime asked for: the union. The archives taken whole are in the cache;
    # of cuBLAS, taken for its headers, the cache kept only the headers (install/tarcache.py), so
    # its whole archive is the one download.
    assert _cudaenv(["install", "13.5", "--source", srv.url], env).returncode == 0
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--parts", "runtime", "--dry-run", "--json"], env)
    doc = json.loads(r.stdout)
    comps = {c["key"]: c for c in doc["components"]}
    assert comps["libcublas"]["only"] == "all" and not comps["libcublas"]["cached"], doc
    assert comps["cuda_nvcc"]["cached"] and comps["cuda_cudart"]["cached"], doc
    assert doc["download_bytes"] == sizes["libcublas"], doc
    assert json.load(open(os.path.join(doc["root"], "cudaenv-install.json")))["parts"] == "build"  # untouched


# ---------------------------------------------------------------- --download-only


def _tree(path: str) -> dict:
    out = {}
    for d, dirs, files in os.walk(path):
        for n in dirs + files:
            p = os.path.join(d, n)
            out[os.path.relpath(p, path)] = os.readlink(p) if os.path.islink(p) else (
                open(p, "rb").read() if os.path.isfile(p) else "dir")
    return out


ARCHIVE = "{k}/linux-x86_64/{k}-linux-x86_64-13.5.0-archive.tar.xz"


def test_download_only_writes_a_mirror_over_hostile_contents(tmp_path, serve):
    """DIR already holds links to elsewhere, a truncated archive and a stale partial file: nothing
    outside DIR changes, and another machine installs from DIR without a network."""
    srv = serve(_parts_mirror(tmp_path))
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "keep").write_text("the user's file\n")
    before = _tree(str(victim))
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / "cuda_nvcc")  # a directory the mirror needs is a link out
    (out / "cuda_cudart" / "linux-x86_64").mkdir(parents=True)
    os.symlink(victim / "keep", out / ARCHIVE.format(k="cuda_cudart"))  # an archive's name is a link out
    os.symlink(victim / "keep", out / "redistrib_13.5.0.json")  # so is the manifest's
    (out / "libcublas" / "linux-x86_64").mkdir(parents=True)
    (out / ARCHIVE.format(k="libcublas")).write_bytes(b"\xfd7zXZ\x00 cut short")  # a partly written archive
    stale = out / "libcublas" / "linux-x86_64" / ".libcublas-linux-x86_64-13.5.0-archive.tar.xz.part-999-1"
    stale.write_bytes(b"left by a killed run")
    env = _env(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--download-only", str(out)], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{out}\n"
    assert _tree(str(victim)) == before
    for k in ("cuda_nvcc", "cuda_cudart", "libcublas"):
        p = out / ARCHIVE.format(k=k)
        assert not os.path.islink(p.parent.parent) and p.is_file() and not p.is_symlink(), k
        assert open(p, "rb").read() == open(os.path.join(srv.root, ARCHIVE.format(k=k)), "rb").read()
    assert not stale.exists() and not (out / "redistrib_13.5.0.json").is_symlink()
    doc = json.load(open(out / "redistrib_13.5.0.json"))
    assert doc["release_label"] == "13.5.0" and doc["libcublas"]["linux-x86_64"]["relative_path"] == \
        ARCHIVE.format(k="libcublas")
    # Another machine: its own data and caches, no server.
    srv.shutdown()
    other = _machine(tmp_path, "other")
    r = _cudaenv(["install", "13.5", "--source", str(out)], other)
    assert r.returncode == 0, r.stderr
    root = os.path.join(_toolkits(other), "cuda-13.5.0")
    assert r.stdout.splitlines()[0] == root and os.path.isfile(f"{root}/bin/nvcc")
    assert os.path.isfile(f"{root}/include/cublas_v2.h") and not os.path.exists(f"{root}/lib64/libcublas.so.13")


def test_download_only_parts_add_up(tmp_path, serve):
    """A second --download-only of other parts keeps what the mirror holds (the same parts logic as install)."""
    srv = serve(_parts_mirror(tmp_path))
    out = str(tmp_path / "out")
    env = _env(tmp_path)
    assert _cudaenv(["install", "13.5", "--source", srv.url, "--parts", "cuda_nvcc", "--download-only", out],
                    env).returncode == 0
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--parts", "runtime", "--download-only", out], env)
    assert r.returncode == 0, r.stderr
    doc = json.load(open(os.path.join(out, "redistrib_13.5.0.json")))
    assert sorted(k for k in doc if not k.startswith("release_")) == ["cuda_cudart", "cuda_nvcc", "libcublas"]
    other = _machine(tmp_path, "o")
    r = _cudaenv(["install", "13.5", "--source", out, "--parts", "build"], other)
    assert r.returncode == 0, r.stderr


def test_an_interrupted_mirror_is_never_taken_for_a_complete_one(tmp_path, serve):
    srv = serve(_parts_mirror(tmp_path), hold=("libcublas-linux-x86_64-13.5.0-archive.tar.xz",))
    out = str(tmp_path / "out")
    env = _env(tmp_path)
    p = subprocess.Popen([sys.executable, "-m", "cudaenv", "install", "13.5", "--source", srv.url,
                          "--download-only", out], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=env["HOME"])
    try:
        assert srv.reached.wait(60), "the held archive was never asked for"
        p.send_signal(signal.SIGTERM)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 128 + signal.SIGTERM and stdout == "", stderr
    assert "Traceback" not in stderr and not os.path.exists(os.path.join(out, "redistrib_13.5.0.json"))
    other = _machine(tmp_path, "o")
    r = _cudaenv(["install", "13.5", "--source", out], other)
    assert r.returncode != 0 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    srv.gate.set()
    srv.hold.clear()
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--download-only", out], env)
    assert r.returncode == 0, r.stderr
    r = _cudaenv(["install", "13.5", "--source", out], other)
    assert r.returncode == 0, r.stderr


def test_download_only_of_wheels(tmp_path):
    """A wheel source's mirror: the wheels in the manifest format, installed from elsewhere."""
    from test_install_hostile import _wheelhouse

    house = _wheelhouse(str(tmp_path / "house"))
    out = str(tmp_path / "out")
    env = _env(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", house, "--parts", "cudart", "--download-only", out], env)
    assert r.returncode == 0, r.stderr
    doc = json.load(open(os.path.join(out, "redistrib_13.5.0.json")))
    assert doc["nvidia-cuda-runtime"]["linux-x86_64"]["relative_path"].endswith(".whl"), doc
    other = _machine(tmp_path, "o")
    r = _cudaenv(["install", "13.5", "--source", out, "--parts", "cudart"], other)
    assert r.returncode == 0, r.stderr
    assert os.path.isfile(os.path.join(_toolkits(other), "cuda-13.5.0", "lib", "libcudart.so.13"))


@pytest.mark.parametrize("args", [["--prefix", "x"], ["--verify"], ["--dry-run"]])
def test_download_only_installs_nothing(tmp_path, args):
    r = _cudaenv(["install", "13.5", "--download-only", str(tmp_path / "m"), *args], _env(tmp_path))
    assert r.returncode == 2 and r.stdout == "" and "--download-only installs nothing" in r.stderr, r.stderr


# ---------------------------------------------------------------- what --list offers, what list shows


def test_list_says_which_wheel_releases_are_runtime_only(tmp_path):
    """12.x wheels carry no nvcc: --list says so (text and JSON), as install's refusal does."""
    from test_install_hostile import _wheel

    house = str(tmp_path / "house")
    for v in ("12.4.1", "13.5.0"):
        _wheel(os.path.join(house, f"cuda_toolkit-{v}-py2.py3-none-any.whl"), {}, "cuda-toolkit", v,
               f"Metadata-Version: 2.1\nName: cuda-toolkit\nVersion: {v}\n\n")
    env = _env(tmp_path)
    r = _cudaenv(["install", "--list", "--source", house], env)
    assert r.returncode == 0, r.stderr
    rows = {ln.split()[0]: ln for ln in r.stdout.splitlines() if ln.strip()[:1].isdigit()}
    assert rows["12.4.1"].endswith(f"{house} (runtime only)") and "runtime only" not in rows["13.5.0"], r.stdout
    assert "runtime only here" in r.stdout and "--source nvidia" in r.stdout
    doc = json.loads(_cudaenv(["install", "--list", "--source", house, "--json"], env).stdout)
    assert {v["version"]: v["runtime_only"] for v in doc["versions"]} == {"12.4.1": [house], "13.5.0": []}


def test_a_runtime_only_install_is_listed_as_such(tmp_path):
    """`cudaenv list` shows a runtime-only install as a row (not "skipped … no bin/nvcc" on every list)."""
    env = _env(tmp_path)
    src = _parts_mirror(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", src, "--parts", "runtime"], env)
    assert r.returncode == 0, r.stderr
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    r = _cudaenv(["list", "--wide"], env)
    assert r.returncode == 0 and "skipped" not in r.stderr, r.stderr
    row = next(ln for ln in r.stdout.splitlines() if root in ln)
    assert row.split()[0] == "13.5.0" and "runtime only (runtime)" in row, r.stdout
    doc = json.loads(_cudaenv(["list", "--json"], env).stdout)
    assert [(t["root"], t["full_version"], t["parts"]) for t in doc["runtime"]] == [(root, "13.5.0", "runtime")]
    assert all(s["path"] != root for s in doc["skipped"])
    # Anything else without nvcc is still said.
    (tmp_path / "opt" / "cuda-13.9" / "include").mkdir(parents=True)
    r = _cudaenv(["list"], dict(env, CUDAENV_ROOTS=str(tmp_path / "opt" / "*")))
    assert "skipped" in r.stderr and "cuda-13.9" in r.stderr, r.stderr


def test_dry_run_json_of_what_is_already_here(tmp_path):
    """--dry-run --json stays JSON when the answer is a toolkit already here (nothing to download)."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.0", nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    src = _parts_mirror(tmp_path)
    for v in ("13.5", "13.5.0"):
        r = _cudaenv(["install", v, "--source", src, "--dry-run", "--json"], env)
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        assert (doc["root"], doc["installed"], doc["download_bytes"], doc["components"]) == (system, True, 0, [])


@pytest.mark.parametrize("kind", ["fifo", "hardlink", "directory", "manifest-directory"])
def test_download_only_over_other_things_in_the_way(tmp_path, serve, kind):
    """A FIFO is replaced without being opened, a hard link to a file elsewhere is replaced without
    writing into it; a directory where a file belongs is one line (it may hold the user's files)."""
    srv = serve(_parts_mirror(tmp_path))
    out = tmp_path / "out"
    (out / "cuda_cudart" / "linux-x86_64").mkdir(parents=True)
    where = out / ARCHIVE.format(k="cuda_cudart")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    if kind == "fifo":
        os.mkfifo(where)
    elif kind == "hardlink":
        os.link(victim, where)
    elif kind == "directory":
        where.mkdir()
        (where / "mine").write_text("the user's\n")
    else:
        (out / "redistrib_13.5.0.json").mkdir()
    r = _cudaenv(["install", "13.5", "--source", srv.url, "--download-only", str(out)], _env(tmp_path))
    assert victim.read_text() == "keep\n"
    if kind in ("directory", "manifest-directory"):
        assert r.returncode != 0 and r.stdout == "" and "Traceback" not in r.stderr, r.stderr
        assert [ln for ln in r.stderr.splitlines() if "cannot write" in ln], r.stderr
        assert kind != "directory" or (where / "mine").read_text() == "the user's\n"
        return
    assert r.returncode == 0, r.stderr
    assert where.is_file() and open(where, "rb").read() == open(os.path.join(srv.root, ARCHIVE.format(
        k="cuda_cudart")), "rb").read()


def test_offline_an_install_with_other_parts_answers_and_says_what_it_lacks(tmp_path):
    env = _env(tmp_path)
    assert _cudaenv(["install", "13.5", "--source", _parts_mirror(tmp_path), "--parts", "cuda_cudart"],
                    env).returncode == 0
    r = _cudaenv(["install", "13.5.0", "--parts", "runtime", "--source", "http://127.0.0.1:1/"], env)
    assert r.returncode == 0 and r.stdout == os.path.join(_toolkits(env), "cuda-13.5.0") + "\n", r.stderr
    assert "(with --parts cuda_cudart; runtime not added)" in r.stderr, r.stderr
