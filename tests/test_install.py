"""`cudaenv install`: real installs from NVIDIA's PyPI wheels and from NVIDIA-format redist mirrors.

The redist path runs against a real HTTP server started here (with Range
support), serving ``redistrib_13.5.0.json`` in NVIDIA's exact format and
``.tar.xz`` archives in NVIDIA's layout
(``<component>-linux-x86_64-<version>-archive/{bin,include,lib,...}``), repacked
from the test bed's cached PyPI wheels (NVIDIA's real files). The mirror is
built once and cached beside the test bed (marker written last).
"""

from __future__ import annotations

import http.server
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import redist_mirror
from conftest import TESTBED
from helpers import REPO, cudaenv_env, default_signals, run_cudaenv

MIRROR = redist_mirror.MIRROR
DOWNLOADS = os.path.join(TESTBED, "cache", "install-downloads")
pytestmark = pytest.mark.testbed


@pytest.fixture(scope="session")
def mirror() -> str:
    return redist_mirror.ensure()


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with ``Range: bytes=N-`` (206), plus faults the tests ask for."""

    def log_message(self, *args) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        srv = self.server
        rel = self.path.split("?", 1)[0].lstrip("/")
        path = os.path.join(srv.root, rel)
        srv.log.append((rel, self.headers.get("Range")))
        if rel.endswith("/") or not rel:
            names = sorted(os.listdir(os.path.join(srv.root, rel)))
            body = "".join(f'<a href="{n}">{n}</a>\n' for n in names).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        if rel in srv.corrupt:
            data = data[:100] + bytes([data[100] ^ 0xFF]) + data[101:]
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and rng.endswith("-"):
            start = int(rng[6:-1])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        body = data[start:]
        drop = srv.drop.pop(rel, None)
        if drop is not None:  # send part of it, then drop the connection
            self.wfile.write(body[:drop])
            self.wfile.flush()
            self.close_connection = True
            import socket

            self.connection.shutdown(socket.SHUT_RDWR)
            return
        step = srv.slow.get(rel)
        try:
            for i in range(0, len(body), step or len(body) or 1):
                if step:
                    srv.gate.wait(0.05)
                self.wfile.write(body[i:i + (step or len(body))])
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (an interrupted or cancelled download)


@pytest.fixture
def server(mirror):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.root, srv.log, srv.drop, srv.corrupt, srv.slow = mirror, [], {}, set(), {}
    srv.gate = threading.Event()
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    srv.url = f"http://127.0.0.1:{srv.server_address[1]}/"
    yield srv
    srv.gate.set()
    srv.shutdown()
    srv.server_close()


def _env(tmp_path, **extra) -> dict:
    extra.setdefault("CUDAENV_INSTALL_CACHE", str(tmp_path / "dl"))
    env = cudaenv_env(XDG_DATA_HOME=str(tmp_path / "data"), **extra)
    env.pop("CUDAENV_ROOTS", None)
    return env


def _installed(tmp_path) -> list[str]:
    d = tmp_path / "data" / "cudaenv" / "toolkits"
    return sorted(os.listdir(d)) if d.exists() else []


def _cudaenv(args, env, timeout=600):
    e = dict(env, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=e, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.slow
def test_redist_install_from_http_mirror(tmp_path, server):
    """The redist path end to end: NVIDIA's format over HTTP, top dir stripped, lib64, stub, version.json, list."""
    env = _env(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", server.url, "--parts", "build"], env)
    assert r.returncode == 0, r.stderr
    root = str(tmp_path / "data" / "cudaenv" / "toolkits" / "cuda-13.5.0")
    assert r.stdout.splitlines()[0] == root
    assert os.path.islink(f"{root}/lib64") and os.readlink(f"{root}/lib64") == "lib"
    for p in ("bin/nvcc", "include/cuda_runtime.h", "include/crt/host_config.h", "lib64/libcudart.so",
              "lib64/stubs/libcuda.so", "nvvm/bin/cicc", "targets/x86_64-linux/include/cuda.h"):
        assert os.path.exists(f"{root}/{p}"), p
    vj = json.load(open(f"{root}/version.json"))
    assert vj["cuda"]["version"] == "13.5.0" and vj["cuda_nvcc"]["version"] == "13.5.37" and "cccl" in vj
    assert not [n for n in os.listdir(root) if n.endswith("-archive")]  # top directories stripped
    # Discovered without set-up, and use points at it.
    lst = run_cudaenv(["list", "--json"], env)
    assert root in lst.stdout
    use = run_cudaenv(["use", "13.5.0", "--shell", "bash"], env)
    assert use.returncode == 0, use.stderr
    assert f"CUDA_HOME={root}" in use.stdout or f"CUDA_HOME='{root}'" in use.stdout, use.stdout
    # a profile was built for it
    prof = tmp_path / "xdg-config" / "cudaenv" / "profiles" / "cuda-13.5.0.yaml"
    assert f"root: {root}" in prof.read_text()
    nvcc = subprocess.run([f"{root}/bin/nvcc", "--version"], capture_output=True, text=True)
    assert "release 13.5" in nvcc.stdout


@pytest.mark.slow
def test_resume_after_dropped_connection(tmp_path, server):
    rel = next(k["linux-x86_64"]["relative_path"] for k in
               json.load(open(os.path.join(server.root, "redistrib_13.5.0.json"))).values()
               if isinstance(k, dict) and k.get("name") == "CUDA NVCC")
    size = os.path.getsize(os.path.join(server.root, rel))
    server.drop[rel] = size // 3
    r = _cudaenv(["install", "13.5.0", "--source", server.url, "--parts", "nvcc,cudart,crt,nvvm,cccl"], _env(tmp_path))
    assert r.returncode == 0, r.stderr
    ranges = [rg for p, rg in server.log if p == rel]
    assert ranges[0] is None and ranges[1] == f"bytes={size // 3}-", ranges


def test_corrupted_archive_refused(tmp_path, server):
    doc = json.load(open(os.path.join(server.root, "redistrib_13.5.0.json")))
    rel = doc["cuda_cudart"]["linux-x86_64"]["relative_path"]
    server.corrupt.add(rel)
    env = _env(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", server.url], env)
    assert r.returncode != 0 and r.stdout == ""
    # progress lines, then the error: one line (with its hint)
    assert r.stderr.strip().splitlines()[-1].startswith("cudaenv: checksum mismatch for cuda_cudart-"), r.stderr
    assert _installed(tmp_path) == [] or all(n.startswith(".") for n in _installed(tmp_path))
    bad = doc["cuda_cudart"]["linux-x86_64"]["sha256"]
    assert bad not in os.listdir(tmp_path / "dl" / "partial") and not (tmp_path / "dl" / bad).exists()
    assert "13.5" not in run_cudaenv(["list"], env).stdout


@pytest.mark.slow
def test_interrupted_install_leaves_nothing(tmp_path, server):
    doc = json.load(open(os.path.join(server.root, "redistrib_13.5.0.json")))
    for ent in doc.values():
        if isinstance(ent, dict):
            server.slow[ent["linux-x86_64"]["relative_path"]] = 1 << 16  # 64 KiB per 50 ms
    env = _env(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "cudaenv", "install", "13.5", "--source", server.url],
                            env=dict(env, PYTHONPATH=REPO), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals)
    parent = tmp_path / "data" / "cudaenv" / "toolkits"
    deadline = time.monotonic() + 120
    part = tmp_path / "dl" / "partial"
    while time.monotonic() < deadline:  # wait until the install is under way: a staging dir, bytes arrived
        if parent.exists() and any(".staging-" in n for n in os.listdir(parent)) and \
                part.is_dir() and any(f.stat().st_size for f in part.iterdir()):
            break
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("the install never started downloading")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "nothing was installed" in err and out == ""
    assert [n for n in os.listdir(parent) if not n.endswith(".lock")] == []
    assert "13.5" not in run_cudaenv(["list"], env).stdout
    # A later install resumes the partial downloads and succeeds.
    server.slow.clear()
    server.gate.set()
    r = _cudaenv(["install", "13.5", "--source", server.url], env)
    assert r.returncode == 0, r.stderr
    assert any(rg for _p, rg in server.log if rg), "no Range request: the partial downloads were not resumed"


@pytest.mark.slow
def test_two_installs_in_parallel(tmp_path, server):
    env = dict(_env(tmp_path), PYTHONPATH=REPO)
    cmd = [sys.executable, "-m", "cudaenv", "install", "13.5", "--source", server.url]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate(timeout=600) + (p.returncode,) for p in procs]
    assert [rc for _o, _e, rc in results] == [0, 0], results
    root = str(tmp_path / "data" / "cudaenv" / "toolkits" / "cuda-13.5.0")
    assert all(o.splitlines()[0] == root for o, _e, _rc in results)
    assert _installed(tmp_path) == [".cuda-13.5.0.lock", "cuda-13.5.0"]
    assert os.path.isfile(f"{root}/bin/nvcc")


def test_version_no_source_has(tmp_path, server):
    r = _cudaenv(["install", "99.1", "--source", server.url], _env(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines()[-1].startswith("cudaenv: no source offers CUDA 99.1"), r.stderr


def test_unreachable_source_fails_over(tmp_path, server):
    """A source that cannot be reached is named in one line and the next one is used."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{s.getsockname()[1]}/"
    s.close()  # nothing listens there: connection refused
    r = _cudaenv(["install", "13.5", "--source", dead, "--source", server.url, "--parts", "cudart"], _env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert f"{dead}" in r.stderr and "unreachable" in r.stderr


def test_list_and_uninstall(tmp_path, server):
    env = _env(tmp_path)
    assert _cudaenv(["install", "13.5", "--source", server.url, "--parts", "cudart"], env).returncode == 0
    r = _cudaenv(["install", "--list", "--source", server.url, "--json"], env)
    assert r.returncode == 0, r.stderr
    v = {x["version"]: x for x in json.loads(r.stdout)["versions"]}
    assert v["13.5.0"]["installed"] and server.url in v["13.5.0"]["sources"]
    # refuses what it did not install
    other = tmp_path / "mine"
    other.mkdir()
    r = _cudaenv(["uninstall", str(other)], env)
    assert r.returncode == 2 and other.exists()
    # an exact version that is installed (with the parts asked for: parts add up) is answered without asking any source
    r = _cudaenv(["install", "13.5.0", "--parts", "cudart", "--source", "http://127.0.0.1:1/"], env)
    assert r.returncode == 0 and "already installed" in r.stderr and "unreachable" not in r.stderr, r.stderr
    r = _cudaenv(["uninstall", "13.5"], env)
    assert r.returncode == 0, r.stderr
    assert [n for n in _installed(tmp_path) if not n.startswith(".")] == []


def test_bad_parts_is_one_line(tmp_path, server):
    r = _cudaenv(["install", "13.5", "--source", server.url, "--parts", "nosuch"], _env(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "unknown part 'nosuch'" in r.stderr


# --------------------------------------------------------------------------- real PyPI wheels


@pytest.mark.slow
def test_pypi_build_parts_compile_link_and_torch_extension(tmp_path, venv_cu):
    """13.x `build` from the registry's wheels (NVIDIA's site is unreachable here: the fail-over is
    part of the test), then `use` + `verify`: nvcc compiles, -lcuda links, the torch extension builds.
    Also what `build` was measured for: ATen/cuda/CUDAContext.h's CUDA headers all resolve."""
    env = _env(tmp_path, CUDAENV_INSTALL_CACHE=DOWNLOADS)
    r = _cudaenv(["install", "13.5", "--parts", "build"], env, timeout=1800)
    assert r.returncode == 0, r.stderr
    root = r.stdout.splitlines()[0]
    assert root.endswith("/cuda-13.5.0")
    for h in ("cublas_v2.h", "cublasLt.h", "cusparse.h", "cusolverDn.h"):
        assert os.path.isfile(f"{root}/include/{h}"), h
    assert not any(n.startswith("libcublas") for n in os.listdir(f"{root}/lib"))  # headers only
    v = _cudaenv(["verify", "cuda-13.5.0", "--python", venv_cu, "--no-cache"], env, timeout=1800)
    assert v.returncode == 0, v.stdout + v.stderr
    for step in ("nvcc-shared", "nvcc-static", "link-lcuda", "torch-build", "torch-import"):
        assert any(line.split()[:2] == ["pass", step] for line in v.stdout.splitlines()), (step, v.stdout)
    # torch's CUDAContext.h through nvcc: every header it includes is in the build parts.
    inc = subprocess.run([venv_cu, "-c", "import torch.utils.cpp_extension as c; print('\\n'.join(c.include_paths()))"],
                         capture_output=True, text=True, check=True).stdout.split()
    src = tmp_path / "ctx.cu"
    src.write_text("#include <ATen/cuda/CUDAContext.h>\nint main() { return 0; }\n")
    pp = subprocess.run([f"{root}/bin/nvcc", "-std=c++17", "-E", *[f"-I{i}" for i in inc], str(src), "-o", os.devnull],
                        capture_output=True, text=True)
    assert pp.returncode == 0, pp.stderr[-2000:]


def test_full_disk_refused_before_starting(tmp_path, server):
    """A prefix on a small filesystem (a real 30 MB tmpfs, in a private mount namespace)."""
    import shutil

    if not shutil.which("unshare") or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("no mount namespaces here")
    env = dict(_env(tmp_path), PYTHONPATH=REPO)
    small = tmp_path / "small"
    small.mkdir()
    script = ('mount -t tmpfs -o size=30m tmpfs "$1" && shift && "$@"; rc=$?; '
              'ls -A "$SMALL/cudaenv/toolkits" 2>/dev/null | grep -v "\\.lock$"; exit $rc')
    r = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(small), sys.executable, "-m", "cudaenv",
                        "install", "13.5", "--source", server.url, "--prefix", str(small / "cudaenv" / "toolkits" /
                                                                                  "cuda-13.5.0")],
                       env=dict(env, SMALL=str(small)), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""  # no toolkit printed, and nothing left in the prefix's directory
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("cudaenv: not enough free space: about ") and str(small) in last, r.stderr
    # Past the estimate (cccl's headers are ~10x its .tar.xz): the disk fills while unpacking.
    r = subprocess.run(["unshare", "-m", "sh", "-c", script.replace("30m", "8m"), "sh", str(small), sys.executable,
                        "-m", "cudaenv", "install", "13.5", "--source", server.url, "--parts", "cccl", "--prefix",
                        str(small / "cudaenv" / "toolkits" / "cuda-13.5.0")],
                       env=dict(env, SMALL=str(small)), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr.strip().splitlines()[-1].startswith("cudaenv: disk full while writing "), r.stderr


@pytest.mark.slow
def test_config_sources_cache_reuse_and_verify(tmp_path, server):
    """`sources:` in config.yaml is the order tried; a second install reads the sha256-keyed cache;
    --verify runs cudaenv verify on the new toolkit (nvcc and -lcuda with the generated stub)."""
    env = _env(tmp_path)
    cfg = tmp_path / "xdg-config" / "cudaenv"
    cfg.mkdir(parents=True)
    (cfg / "config.yaml").write_text(f"sources:\n  - http://127.0.0.1:1/\n  - {server.url}\n")
    r = _cudaenv(["install", "13.5", "--verify"], env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "http://127.0.0.1:1/ is unreachable" in r.stderr
    for step in ("nvcc-shared", "nvcc-static", "link-lcuda"):
        assert any(line.split()[:2] == ["pass", step] for line in r.stdout.splitlines()), (step, r.stdout)
    other = tmp_path / "other" / "cuda"
    seen = len(server.log)
    r = _cudaenv(["install", "13.5", "--prefix", str(other)], env)
    assert r.returncode == 0, r.stderr
    assert os.path.isfile(other / "bin" / "nvcc")
    # Only the index and the manifest are asked for again (and counted: everything received is); no archive.
    assert [rel for rel, _range in server.log[seen:] if not rel.endswith(".json")] == [""], server.log[seen:]
    assert re.search(r"installed CUDA 13\.5\.0: \d+ files, [\d.]+ k?B downloaded", r.stderr), r.stderr


@pytest.mark.parametrize("cols", [80, 60])
def test_progress_bars_on_a_terminal(tmp_path, server, cols):
    """On a terminal of 80 or 60 columns: bars and a total, no row wider than the terminal, never two
    progress blocks on the screen at once (no stale rows after a redraw), none left at the end."""
    from ptyscreen import ESC, Screen, run_on_pty

    # Every archive arrives in ten pieces: several redraws per download.
    for dirpath, _dirs, files in os.walk(server.root):
        for fn in files:
            if fn.endswith(".tar.xz"):
                rel = os.path.relpath(os.path.join(dirpath, fn), server.root)
                server.slow[rel] = max(1, os.path.getsize(os.path.join(dirpath, fn)) // 10)
    code, raw, out = run_on_pty([sys.executable, "-m", "cudaenv", "install", "13.5", "--source", server.url,
                                 "--parts", "cudart,cccl"], dict(_env(tmp_path), PYTHONPATH=REPO), cols)
    text = raw.decode()
    assert code == 0, text
    assert "total" in text and "\x1b[" in text and "100%" in text, text
    assert "cudaenv: fetching" not in text  # the plain lines are for logs, not terminals
    # Every progress row as written (cursor moves taken out) fits the terminal, less the last
    # column; lasting messages (a long path) may wrap: they are never redrawn.
    rows = [ESC.sub("", p) for p in re.split(r"\r|\n|\x1b\[\d*A|\x1b\[J", text) if re.search(r"\d%", p)]
    assert rows and all(len(r) < cols for r in rows), [r for r in rows if len(r) >= cols]
    screen = Screen(cols, 100)
    totals = []
    for i in range(0, len(raw), 256):  # the screen after every piece, as it arrives
        screen.feed(raw[i:i + 256])
        totals.append(sum(1 for r in screen.rows() if r.split()[:1] == ["total"]))
    assert max(totals) == 1, max(totals)
    final = screen.rows()
    assert not any("%" in r or r.split()[:1] == ["total"] for r in final), final
    assert any(r.startswith("cudaenv: installed CUDA 13.5") for r in final), final
    assert out.splitlines()[0].endswith("cuda-13.5.0")


def test_quiet_install_prints_only_the_root(tmp_path, server):
    """install -q: no progress, no notes; the root on stdout (what a script reads); errors still one line."""
    env = _env(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", server.url, "--parts", "cccl", "-q"], env)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "" and r.stdout == os.path.join(str(tmp_path), "data", "cudaenv", "toolkits", "cuda-13.5.0") + "\n"
    r = _cudaenv(["install", "99.1", "--source", server.url, "--quiet"], env)
    assert r.returncode != 0 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r.stderr


def test_an_install_leaves_the_interpreter_as_it_found_it(tmp_path, mirror):
    """Installing withdraws no asynchronous exception it never raised: CPython keeps an "async
    exception pending" flag that only a delivered one clears, and a stray withdrawal left every
    thread on the eval loop's slow path (twice the CPU of a cache-hit install; under a profiler,
    the install never started its next worker). Run in a process with a profile function set, as
    a profiler does, with the cache warm (the CPU-bound case), it finishes."""
    env = _env(tmp_path)
    code = ("import sys; sys.setprofile(lambda *a: None); from cudaenv.main import main; "
            "sys.argv[0] = 'cudaenv'; sys.exit(main())")
    for prefix in ("a", "b"):  # the second from the download cache the first filled
        args = ["install", "13.5", "--parts", "runtime", "--source", mirror, "--prefix", str(tmp_path / prefix)]
        try:
            res = subprocess.run([sys.executable, "-c", code, *args], env=dict(env, PYTHONPATH=REPO),
                                 capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:  # it takes ~2 s here
            pytest.fail(f"install {prefix} under a profile function did not finish in 120 s")
        assert res.returncode == 0, res.stderr
