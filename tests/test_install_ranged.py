"""`cudaenv install` fetching wheel members by HTTP byte range, checked against the wheel's RECORD.

A real HTTP server on 127.0.0.1 (tests/rangeserver.py: a package index whose file host answers
``Range`` as PyPI's does, or misbehaves on demand) serves the ``cuda-toolkit`` meta-wheel, a
runtime wheel and a cuBLAS wheel whose library is megabytes of incompressible bytes: ``--parts
build`` needs only cuBLAS's headers. Hostile wheels are real zips with their central directory,
local headers or RECORD edited byte by byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys

import jsonschema
import pytest

import rangeserver as rs
from helpers import REPO
from test_json_shape import documented_schema

BLAS_FILE = rs.wheel_name(*rs.BLAS)


def _env(tmp_path, srv, **extra) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"),
               XDG_CONFIG_HOME=str(home / "config"), PYTHONPATH=REPO, PIP_CONFIG_FILE=os.devnull,
               PIP_INDEX_URL=srv.index, CUDAENV_INSTALL_TIMEOUT="10")
    for var in ("CUDAENV_ROOTS", "CUDAENV_INSTALL_CACHE", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX",
                "CC", "https_proxy", "http_proxy", "all_proxy", "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"):
        env.pop(var, None)
    env.update(extra)
    return env


def _cudaenv(args: list[str], env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


def _toolkits(env: dict) -> str:
    return os.path.join(env["XDG_DATA_HOME"], "cudaenv", "toolkits")


def _cache(env: dict) -> str:
    return os.path.join(env["XDG_CACHE_HOME"], "cudaenv", "downloads")


def _one_line(r: subprocess.CompletedProcess) -> str:
    assert r.returncode != 0 and not r.stdout, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stderr.startswith("cudaenv: "), r.stderr
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith(("cudaenv: installing", "cudaenv: fetching",
                                                                        "cudaenv: installed "))]
    assert len(lines) <= 2, r.stderr  # the error, and its hint
    return lines[0]


def _nothing_installed(env: dict) -> None:
    d = _toolkits(env)
    left = [n for n in os.listdir(d) if not n.endswith(".lock")] if os.path.isdir(d) else []
    assert left == [], left


@pytest.fixture
def wheels():
    return rs.standard_wheels()


@pytest.fixture
def srv(wheels):
    s = rs.serve(wheels)
    yield s
    rs.stop(s)


def _install(env: dict, *more: str) -> subprocess.CompletedProcess:
    return _cudaenv(["install", "13.5", "--source", "pypi", *more], env)


def _blas_ranges(srv) -> list[str | None]:
    return [rng for path, rng in srv.requests if path.endswith(BLAS_FILE)]


# --------------------------------------------------------------------------- members, not archives


def test_build_takes_headers_by_range_and_checks_them(tmp_path, srv, wheels):
    env = _env(tmp_path, srv)
    r = _install(env)
    assert r.returncode == 0, r.stderr
    root = r.stdout.strip()
    for name, data in rs.BLAS_HEADERS.items():
        assert open(os.path.join(root, "include", os.path.basename(name)), "rb").read() == data
    assert not os.path.exists(os.path.join(root, "lib", "libcublas.so.13"))
    assert os.path.isfile(os.path.join(root, "lib", "libcudart.so.13.5.37"))  # the runtime wheel, whole
    size = len(wheels[BLAS_FILE])
    assert srv.sent[BLAS_FILE] < size / 10, (srv.sent, size)
    assert all(rng and rng.startswith("bytes=") for rng in _blas_ranges(srv))
    # Each member is in the cache under its own sha256.
    for data in rs.BLAS_HEADERS.values():
        assert os.path.isfile(os.path.join(_cache(env), hashlib.sha256(data).hexdigest()))
    assert not os.path.exists(os.path.join(_cache(env), hashlib.sha256(wheels[BLAS_FILE]).hexdigest()))
    # A wheel fetched whole is kept as its files (a later install copies them, inflates nothing).
    rt = wheels[rs.wheel_name(*rs.RT)]
    assert not os.path.exists(os.path.join(_cache(env), hashlib.sha256(rt).hexdigest()))
    assert os.path.isfile(os.path.join(_cache(env), hashlib.sha256(b"\x7fELF runtime\n").hexdigest()))


def test_whole_files_fetches_and_checks_the_whole_wheel(tmp_path, srv, wheels):
    env = _env(tmp_path, srv)
    r = _install(env, "--whole-files")
    assert r.returncode == 0, r.stderr
    assert srv.sent[BLAS_FILE] == len(wheels[BLAS_FILE])
    assert _blas_ranges(srv) == [None]
    _only_headers_kept(env, wheels)


def _only_headers_kept(env: dict, wheels: dict) -> None:
    """The wheel fetched whole for its headers left those in the cache, not itself."""
    cache = _cache(env)
    assert not os.path.exists(os.path.join(cache, hashlib.sha256(wheels[BLAS_FILE]).hexdigest()))
    for data in rs.BLAS_HEADERS.values():
        assert os.path.isfile(os.path.join(cache, hashlib.sha256(data).hexdigest()))


@pytest.mark.parametrize("how", ["ignore", "shifted", "total"])
def test_a_server_without_consistent_ranges_gets_whole_files(tmp_path, srv, wheels, how):
    """200 for a range, another range than asked, another file size: the whole file, sha256-checked."""
    srv.behaviour[BLAS_FILE] = how
    env = _env(tmp_path, srv)
    r = _install(env)
    assert r.returncode == 0, r.stderr
    assert "whole file" in r.stderr
    root = r.stdout.strip()
    assert os.path.isfile(os.path.join(root, "include", "cublas_v2.h"))
    assert not os.path.exists(os.path.join(root, "lib", "libcublas.so.13"))
    _only_headers_kept(env, wheels)


def test_ranges_refused_only_at_install_time_fall_back_too(tmp_path, srv, wheels):
    """The plan read the directory by range; then the server stops answering ranges: whole file."""
    env = _env(tmp_path, srv)
    assert _cudaenv(["install", "13.5", "--source", "pypi", "--plan"], env).returncode == 0
    srv.behaviour[BLAS_FILE] = "ignore"
    r = _install(env)  # the member list is cached now: only the members are asked for, by range
    assert r.returncode == 0, r.stderr
    assert "stopped answering byte ranges" in r.stderr
    assert os.path.isfile(os.path.join(r.stdout.strip(), "include", "cublas_api.h"))


# --------------------------------------------------------------------------- hostile zips


def _eocd(data: bytes) -> int:
    return data.rindex(b"PK\x05\x06")


def _central(data: bytes) -> dict[str, int]:
    """member name -> offset of its central directory entry."""
    at = struct.unpack_from("<L", data, _eocd(data) + 16)[0]
    out = {}
    while data[at:at + 4] == b"PK\x01\x02":
        nlen, elen, clen = struct.unpack_from("<3H", data, at + 28)
        out[data[at + 46:at + 46 + nlen].decode()] = at
        at += 46 + nlen + elen + clen
    return out


def _set(data: bytes, name: str, field: str, value=None, add: int = 0) -> bytes:
    """Change one central directory field of ``name``: offset, csize, usize."""
    pos = _central(data)[name] + {"csize": 20, "usize": 24, "offset": 42}[field]
    b = bytearray(data)
    old = struct.unpack_from("<L", b, pos)[0]
    struct.pack_into("<L", b, pos, (value if value is not None else old) + add)
    return bytes(b)


def _local(data: bytes, name: str) -> int:
    return struct.unpack_from("<L", data, _central(data)[name] + 42)[0]


def _to_zip64_end(data: bytes, locator_to: int | None = None) -> bytes:
    """The same zip with a zip64 end record and locator, the classic end record saturated."""
    e = _eocd(data)
    _d, _cd, n_here, n_total, cd_size, cd_off = struct.unpack_from("<4H2L", data, e + 4)
    rec = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, n_here, n_total, cd_size, cd_off)
    loc = struct.pack("<4sLQL", b"PK\x06\x07", 0, e if locator_to is None else locator_to, 1)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return data[:e] + rec + loc + end


H = "nvidia/cu13/include/cublas_v2.h"
H2 = "nvidia/cu13/include/cublas_api.h"


def _blas(**kw) -> bytes:
    files = dict(rs.BLAS_HEADERS)
    files["nvidia/cu13/lib/libcublas.so.13"] = os.urandom(1 << 20)
    files.update(kw.pop("extra", {}))
    return rs.wheel_bytes(*rs.BLAS, files, **kw)


def _wrong_hash(record: str) -> str:
    bad = rs.record_line(H, b"something else\n").split(",")[1]
    return "".join(f"{H},{bad},{ln.split(',')[2]}" if ln.startswith(H + ",") else ln
                   for ln in record.splitlines(keepends=True))


def _hostile_cases():
    good = _blas()
    size = len(good)
    return {
        "member offset outside the file": (_set(good, H, "offset", size + 100), "outside"),
        "member offset inside the directory": (_set(good, H, "offset", _central(good)[H]), "outside"),
        "two members at one offset": (_set(good, H2, "offset", _local(good, H)), "same byte"),
        "compressed size runs into the next member": (_set(good, H, "csize", add=1 << 20), "run into"),
        "compressed size too small": (_set(good, H, "csize", add=-3), "compressed size"),
        "declared size bigger than RECORD's": (_set(good, H, "usize", add=7), "RECORD says"),
        "RECORD hash mismatch": (_blas(record_edit=_wrong_hash), "RECORD says"),
        "RECORD lacks a member": (_blas(record_edit=lambda r: "".join(
            ln for ln in r.splitlines(keepends=True) if not ln.startswith(H + ","))), "no sha256"),
        "member path escaping the prefix": (_blas(extra={"nvidia/cu13/include/../../../../escape.h": b"x"}), "'..'"),
        "local header names another member": (
            good[:_local(good, H) + 30] + good[_local(good, H) + 30:_local(good, H) + 30 + len(H)].replace(
                b"cublas_v2", b"cublas_v3") + good[_local(good, H) + 30 + len(H):], "another member"),
        "directory not where the end record says": (
            good[:_eocd(good) + 16] + struct.pack("<L", _central(good)[H] + 1) + good[_eocd(good) + 20:],
            "not where"),
        "zip64 locator pointing elsewhere": (_to_zip64_end(good, locator_to=100), "zip64 end record"),
        "no end record": (good[:-22] + b"\0" * 22, "no end of central directory"),
    }


HOSTILE = _hostile_cases()


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_wheel_is_one_line_and_installs_nothing(tmp_path, wheels, case):
    data, why = HOSTILE[case]
    s = rs.serve(dict(wheels, **{BLAS_FILE: data}))
    try:
        env = _env(tmp_path, s)
        r = _install(env)
        line = _one_line(r)
        assert why in line, line
        assert "nvidia-cublas" in line
        _nothing_installed(env)
        assert not os.path.exists(os.path.join(env["HOME"], "escape.h"))
        # Nothing unchecked entered the cache: every file there has the sha256 it is named by.
        cache = _cache(env)
        for n in os.listdir(cache) if os.path.isdir(cache) else []:
            p = os.path.join(cache, n)
            if os.path.isfile(p) and len(n) == 64:
                assert hashlib.sha256(open(p, "rb").read()).hexdigest() == n
    finally:
        rs.stop(s)


@pytest.mark.parametrize("members", [False, True])
def test_zip64_wheels_install(tmp_path, wheels, members):
    """zip64 end records (and zip64 sizes in every member header) are read, not refused."""
    data = _to_zip64_end(_blas(zip64=members))
    s = rs.serve(dict(wheels, **{BLAS_FILE: data}))
    try:
        env = _env(tmp_path, s)
        r = _install(env)
        assert r.returncode == 0, r.stderr
        assert open(os.path.join(r.stdout.strip(), "include", "cublas_api.h"), "rb").read() == \
            rs.BLAS_HEADERS[H2]
        assert s.sent[BLAS_FILE] < len(data) / 4
    finally:
        rs.stop(s)


# --------------------------------------------------------------------------- plan, key, cache


def _plan(env: dict, *more: str) -> dict:
    r = _cudaenv(["install", "13.5", "--source", "pypi", "--plan", "--json", *more], env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_plan_lists_every_file_and_member_with_a_stable_content_key(tmp_path, srv, wheels):
    env = _env(tmp_path, srv)
    doc = _plan(env)
    jsonschema.validate(doc, documented_schema(), cls=jsonschema.Draft202012Validator)
    assert doc["command"] == "install --plan" and doc["version"] == "13.5.0" and doc["parts"] == "build"
    blas = next(f for f in doc["files"] if f["filename"] == BLAS_FILE)
    assert blas["fetch"] == "members" and blas["how"] == "include"
    assert {m["name"]: m["sha256"] for m in blas["members"] if "/include/" in m["name"]} == \
        {n: hashlib.sha256(d).hexdigest() for n, d in rs.BLAS_HEADERS.items()}
    assert doc["download"] < len(wheels[BLAS_FILE]) / 5
    assert not os.path.exists(_toolkits(env)) or not os.listdir(_toolkits(env))  # --plan installs nothing
    ranges = len(_blas_ranges(srv))
    again = _plan(env)
    assert again["cache_key"] == doc["cache_key"]
    assert len(_blas_ranges(srv)) == ranges  # the member list of that very file comes from the cache
    assert _plan(env, "--whole-files")["cache_key"] != doc["cache_key"]
    # Other headers in the same release: another key. A URL that moves: the same key.
    other = dict(wheels, **{BLAS_FILE: rs.wheel_bytes(*rs.BLAS, {H: b"/* changed */\n"})})
    s2 = rs.serve(other)
    try:
        assert _plan(_env(tmp_path, s2))["cache_key"] != doc["cache_key"]
    finally:
        rs.stop(s2)
    s3 = rs.serve(wheels)
    try:
        (tmp_path / "elsewhere").mkdir()
        assert _plan(_env(tmp_path / "elsewhere", s3))["cache_key"] == doc["cache_key"]
    finally:
        rs.stop(s3)


def test_offline_install_from_the_cache_alone(tmp_path, srv):
    env = _env(tmp_path, srv)
    r = _install(env)
    assert r.returncode == 0, r.stderr
    first = r.stdout.strip()
    srv.down.set()  # from now on every request is dropped: any network use fails
    asked = len(srv.requests)
    r = _install(env, "--offline", "--prefix", str(tmp_path / "again"))
    assert r.returncode == 0, r.stderr
    assert len(srv.requests) == asked
    for n in ("include/cublas_v2.h", "include/cuda_runtime_api.h", "lib/libcudart.so.13"):
        assert open(os.path.join(first, n), "rb").read() == open(tmp_path / "again" / n, "rb").read()
    # A request never planned, and a cache that lost a member: one line each, nothing installed.
    r = _cudaenv(["install", "13.4", "--source", "pypi", "--offline"], env)
    assert "no plan" in _one_line(r)
    for n in os.listdir(_cache(env)):
        if n == hashlib.sha256(rs.BLAS_HEADERS[H]).hexdigest():
            os.unlink(os.path.join(_cache(env), n))
    r = _install(env, "--offline", "--prefix", str(tmp_path / "third"))
    assert "lacks 1" in _one_line(r) and not os.path.exists(tmp_path / "third")


def test_cache_info_and_prune(tmp_path, srv):
    env = _env(tmp_path, srv)
    assert _install(env).returncode == 0
    r = _cudaenv(["cache", "info", "--json"], env)
    doc = json.loads(r.stdout)
    jsonschema.validate(doc, documented_schema(), cls=jsonschema.Draft202012Validator)
    assert doc["path"] == _cache(env) and doc["kinds"]["content"]["files"] >= 5 and doc["bytes"] > 0
    before = doc["kinds"]["content"]["bytes"]
    # Make one file the oldest: it goes first.
    content = sorted(n for n in os.listdir(_cache(env)) if len(n) == 64)
    old = os.path.join(_cache(env), content[0])
    os.utime(old, (1, 1))
    r = _cudaenv(["cache", "prune", "--max-size", str(before - 1), "--json"], env)
    assert r.returncode == 0, r.stderr
    jsonschema.validate(json.loads(r.stdout), documented_schema(), cls=jsonschema.Draft202012Validator)
    assert json.loads(r.stdout)["removed"] == 1 and not os.path.exists(old)
    r = _cudaenv(["cache", "prune", "--older-than", "30d"], env)
    assert r.returncode == 0 and "removed 0 files" in r.stderr
    r = _cudaenv(["cache", "prune", "--all"], env)
    assert r.returncode == 0
    assert not [n for n in os.listdir(_cache(env)) if len(n) == 64]
    for bad in (["--max-size", "lots"], ["--older-than", "-3d"], []):
        _one_line(_cudaenv(["cache", "prune", *bad], env))


# --------------------------------------------------------------------------- NVIDIA's .tar.xz archives


def _tar_xz(top: str, files: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz", preset=0) as tar:
        for name, data in files.items():
            ti = tarfile.TarInfo(f"{top}/{name}")
            ti.size, ti.mode = len(data), 0o644
            tar.addfile(ti, io.BytesIO(data))
        for name, target in (links or {}).items():
            ti = tarfile.TarInfo(f"{top}/{name}")
            ti.type, ti.linkname = tarfile.SYMTYPE, target
            tar.addfile(ti)
    return buf.getvalue()


@pytest.fixture
def redist(tmp_path):
    """A redist mirror on 127.0.0.1: cudart (taken whole) and cuBLAS (taken for its headers)."""
    import functools
    import http.server
    import threading

    d = tmp_path / "mirror"
    d.mkdir()
    comps = {"cuda_cudart": ("13.5.40", {"include/cuda_runtime.h": b"/* rt */\n", "lib/libcudart.so.13": b"\x7fELF"}),
             "libcublas": ("13.5.1.2", {"include/cublas_v2.h": rs.BLAS_HEADERS[H],
                                        "include/cublas_api.h": rs.BLAS_HEADERS[H2],
                                        "lib/libcublas.so.13": os.urandom(1 << 20)})}
    doc = {"release_date": "2026-11-04", "release_label": "13.5.0", "release_product": "cuda"}
    shas = {}
    for key, (ver, files) in comps.items():
        top = f"{key}-linux-x86_64-{ver}-archive"
        data = _tar_xz(top, files, {"include/cublas.h": "cublas_v2.h"} if key == "libcublas" else None)
        rel = f"{key}/linux-x86_64/{top}.tar.xz"
        (d / rel).parent.mkdir(parents=True)
        (d / rel).write_bytes(data)
        shas[key] = hashlib.sha256(data).hexdigest()
        doc[key] = {"name": key, "version": ver,
                    "linux-x86_64": {"relative_path": rel, "sha256": shas[key], "size": str(len(data))}}
    (d / "redistrib_13.5.0.json").write_text(json.dumps(doc))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):  # noqa: N802
            self.server.log.append(self.path)
            if self.server.down:
                self.close_connection = True
                return
            super().do_GET()

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(d)))
    srv.log, srv.down, srv.shas = [], False, shas
    srv.url = f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.index = srv.url + "simple"  # not used: the mirror is named by --source
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_archive_taken_for_headers_leaves_only_its_headers_in_the_cache(tmp_path, redist):
    env = _env(tmp_path, redist)
    r = _cudaenv(["install", "13.5", "--source", redist.url], env)
    assert r.returncode == 0, r.stderr
    root = r.stdout.splitlines()[0]
    assert open(os.path.join(root, "include", "cublas_v2.h"), "rb").read() == rs.BLAS_HEADERS[H]
    assert os.readlink(os.path.join(root, "include", "cublas.h")) == "cublas_v2.h"
    assert not os.path.exists(os.path.join(root, "lib", "libcublas.so.13"))
    cache = _cache(env)
    assert not os.path.exists(os.path.join(cache, redist.shas["libcublas"]))  # the 1 MB archive is gone
    assert os.path.exists(os.path.join(cache, redist.shas["cuda_cudart"]))  # taken whole: kept whole
    assert os.path.exists(os.path.join(cache, hashlib.sha256(rs.BLAS_HEADERS[H]).hexdigest()))
    assert not [n for n in os.listdir(root) if n.startswith(".include")]
    # A later install uses the kept headers: offline, and online without fetching the archive.
    redist.down = True
    r = _cudaenv(["install", "13.5", "--source", redist.url, "--offline", "--prefix", str(tmp_path / "off")], env)
    assert r.returncode == 0, r.stderr
    assert os.readlink(tmp_path / "off" / "include" / "cublas.h") == "cublas_v2.h"
    assert open(tmp_path / "off" / "include" / "cublas_api.h", "rb").read() == rs.BLAS_HEADERS[H2]
    redist.down = False
    asked = len(redist.log)
    r = _cudaenv(["install", "13.5", "--source", redist.url, "--prefix", str(tmp_path / "on")], env)
    assert r.returncode == 0, r.stderr
    assert redist.log[asked:] and not [p for p in redist.log[asked:] if ".tar.xz" in p], redist.log[asked:]
    assert open(tmp_path / "on" / "include" / "cublas_v2.h", "rb").read() == rs.BLAS_HEADERS[H]
