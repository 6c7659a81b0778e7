"""`cudaenv install` against a hostile HTTP server: stalls, trickles, endless bodies, malformed
answers, redirects, sizes that lie, and signals mid-download.

The server is a raw socket server on 127.0.0.1 in a thread (http.server would refuse to send
most of these answers). Each path has a behaviour; the release it serves is a real NVIDIA-format
``redistrib_13.5.0.json`` with small real ``.tar.xz`` archives built here, so these tests need no
test bed. What the client may take is bounded by ``CUDAENV_INSTALL_TIMEOUT`` (seconds a
connection may go without progress), set low here so that a stall is found in seconds.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time

import pytest

from helpers import REPO

VERSION = "13.5.0"
KEY = "cuda_cudart"
REL = f"{KEY}/linux-x86_64/{KEY}-linux-x86_64-13.5.40-archive.tar.xz"
#: The client's stall timeout in these tests (seconds without progress).
STALL = 2
#: How long a bounded failure may take in all, start-up included (generous for a slow CI).
BOUND = 30


def archive(key: str = KEY, version: str = "13.5.40", files: dict | None = None) -> bytes:
    """A real redist archive: ``<key>-linux-x86_64-<version>-archive/{include,lib}/…`` as .tar.xz."""
    top = f"{key}-linux-x86_64-{version}-archive"
    files = files or {"include/cuda_runtime.h": b"/* runtime */\n", "lib/libcudart.so.13": b"\x7fELF not really\n"}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        for d in sorted({os.path.dirname(n) for n in files}):
            ti = tarfile.TarInfo(f"{top}/{d}")
            ti.type, ti.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(ti)
        for name, data in files.items():
            ti = tarfile.TarInfo(f"{top}/{name}")
            ti.size, ti.mode = len(data), 0o644
            tar.addfile(ti, io.BytesIO(data))
    return buf.getvalue()


def manifest(data: bytes, rel: str = REL, size: int | str | None = "auto", version: str = VERSION) -> bytes:
    """NVIDIA's format for one component whose archive is ``data`` (``size`` may lie or be left out)."""
    plat = {"relative_path": rel, "sha256": hashlib.sha256(data).hexdigest(), "md5": hashlib.md5(data).hexdigest()}
    if size == "auto":
        plat["size"] = str(len(data))
    elif size is not None:
        plat["size"] = str(size)
    doc = {"release_date": "2026-11-04", "release_label": version, "release_product": "cuda",
           KEY: {"name": "CUDA Runtime (cudart)", "license": "CUDA Toolkit", "version": "13.5.40",
                 "linux-x86_64": plat}}
    return json.dumps(doc, indent=4).encode()


# --------------------------------------------------------------------------- the server


class Hostile:
    """A raw HTTP/1.x server on 127.0.0.1: ``routes[path] = behaviour(server, conn, request)``.

    ``seen(path)`` is an Event set when a request for ``path`` has been read (the sentinel
    the signal tests wait on). Every behaviour that waits, waits on ``self.stop``, so the
    server ends at once at tear-down.
    """

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.routes: dict = {}
        self.log: list[tuple[str, dict]] = []
        self.stop = threading.Event()
        self._seen: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def seen(self, path: str) -> threading.Event:
        with self._lock:
            return self._seen.setdefault(path, threading.Event())

    def hits(self, path: str) -> list[dict]:
        return [h for p, h in self.log if p == path]

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self._conns.append(conn)
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(BOUND)
        try:
            while not self.stop.is_set():  # keep-alive: urllib sends one request per connection anyway
                head = b""
                while b"\r\n\r\n" not in head:
                    got = conn.recv(65536)
                    if not got:
                        return
                    head += got
                    if len(head) > 1 << 20:
                        return
                lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
                method, target = lines[0].split(" ")[:2]
                headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
                path = target.split("?", 1)[0].lstrip("/")
                self.log.append((path, headers))
                self.seen(path).set()
                fn = self.routes.get(path)
                if fn is None:
                    conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    return
                if fn(self, conn, {"method": method, "path": path, "headers": headers}) is not True:
                    return  # the behaviour closed the exchange
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def close(self) -> None:
        self.stop.set()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close alone does not)
        except OSError:
            pass
        self.sock.close()
        with self._lock:
            for c in self._conns:
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self.thread.join(5)


# Behaviours: each returns a function (server, conn, request) -> None.


def serve(data: bytes, *, length: int | None | str = "auto", ranges: bool = True, extra: str = "",
          status: str = "200 OK"):
    """``data`` with a Content-Length (true by default; ``length`` may lie or be None), Range answered."""

    def fn(srv, conn, req):
        start = 0
        rng = req["headers"].get("range", "")
        head = f"HTTP/1.1 {status}\r\n"
        if ranges and rng.startswith("bytes=") and rng.endswith("-"):
            start = int(rng[6:-1])
            if start >= len(data):
                conn.sendall(f"HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len(data)}\r\n"
                             "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
                return
            head = "HTTP/1.1 206 Partial Content\r\n" + f"Content-Range: bytes {start}-{len(data) - 1}/{len(data)}\r\n"
        n = len(data) - start if length == "auto" else length
        if n is not None:
            head += f"Content-Length: {n}\r\n"
        conn.sendall((head + extra + "Connection: close\r\n\r\n").encode("latin-1") + data[start:])

    return fn


def stall(after: bytes = b""):
    """Send ``after`` (nothing, a status line, whole headers) and then nothing, until the end."""

    def fn(srv, conn, req):
        if after:
            conn.sendall(after)
        srv.stop.wait()

    return fn


def trickle(head: bytes, body: bytes = b"x" * 10_000_000, every: float = 0.4):
    """``head`` whole, then ``body`` one byte every ``every`` seconds: each read is prompt, the whole never ends."""

    def fn(srv, conn, req):
        conn.sendall(head)
        for i in range(len(body)):
            if srv.stop.wait(every):
                return
            conn.sendall(body[i:i + 1])

    return fn


def trickle_head(head: bytes, every: float = 0.4):
    """The status line and headers themselves one byte at a time."""

    def fn(srv, conn, req):
        for i in range(len(head)):
            if srv.stop.wait(every):
                return
            conn.sendall(head[i:i + 1])
        srv.stop.wait()

    return fn


def endless(head: bytes, chunked: bool = False):
    """A body that never ends, as fast as the client reads it."""
    block = b"\0" * 65536

    def fn(srv, conn, req):
        conn.sendall(head)
        piece = b"%x\r\n%s\r\n" % (len(block), block) if chunked else block
        while not srv.stop.is_set():
            conn.sendall(piece)

    return fn


def raw(data: bytes):
    """Exactly these bytes, then close."""

    def fn(srv, conn, req):
        conn.sendall(data)

    return fn


def redirect(location: str, code: int = 302):
    def fn(srv, conn, req):
        conn.sendall(f"HTTP/1.1 {code} Moved\r\nLocation: {location}\r\nContent-Length: 0\r\n"
                     "Connection: close\r\n\r\n".encode("latin-1"))

    return fn


@pytest.fixture
def srv():
    s = Hostile()
    yield s
    s.close()


def release(srv: Hostile, behaviour=None, size: int | str | None = "auto", data: bytes | None = None) -> bytes:
    """Serve a 13.5.0 manifest and its archive (``behaviour`` instead of the archive's plain answer)."""
    data = data or archive()
    srv.routes[f"redistrib_{VERSION}.json"] = serve(manifest(data, size=size))
    srv.routes[REL] = behaviour or serve(data)
    return data


def env_for(tmp_path, **extra) -> dict:
    env = dict(os.environ, PYTHONPATH=REPO, XDG_DATA_HOME=str(tmp_path / "data"),
               CUDAENV_INSTALL_CACHE=str(tmp_path / "dl"), CUDAENV_INSTALL_TIMEOUT=str(STALL))
    env.pop("CUDAENV_ROOTS", None)
    env.update(extra)
    return env


def cmd(url: str, version: str = VERSION, *more: str) -> list[str]:
    return [sys.executable, "-m", "cudaenv", "install", version, "--source", url, "--parts", "cudart", *more]


def run(tmp_path, url: str, *more: str, env: dict | None = None, timeout: float = BOUND):
    t0 = time.monotonic()
    r = subprocess.run(cmd(url, VERSION, *more), env=env or env_for(tmp_path), capture_output=True, text=True,
                       timeout=timeout)
    r.elapsed = time.monotonic() - t0
    return r


def toolkits(tmp_path) -> list[str]:
    d = tmp_path / "data" / "cudaenv" / "toolkits"
    return sorted(os.listdir(d)) if d.exists() else []


def one_line_failure(r, *want: str) -> str:
    """Non-zero, nothing on stdout, the failure on stderr's last line (one line), no traceback."""
    assert r.returncode not in (0, None), (r.returncode, r.stderr)
    assert r.stdout == "", r.stdout
    assert "Traceback" not in r.stderr, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("cudaenv: "), r.stderr
    for w in want:
        assert w in last, (w, r.stderr)
    # Nothing half-installed: no toolkit, no staging directory.
    assert [n for n in toolkits(r.tmp) if not n.endswith(".lock")] == [] if hasattr(r, "tmp") else True
    return last


def test_plain_release_installs(tmp_path, srv):
    """The baseline the hostile answers are measured against: the release installs from this server."""
    release(srv)
    r = run(tmp_path, srv.url)
    assert r.returncode == 0, r.stderr
    root = r.stdout.splitlines()[0]
    assert os.path.isfile(os.path.join(root, "include", "cuda_runtime.h"))
