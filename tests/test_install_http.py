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

from helpers import REPO, default_signals, one_error_line, run_cudaenv

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
    with tarfile.open(fileobj=buf, mode="w:xz", preset=0) as tar:
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

    def __init__(self, tls=None) -> None:
        self.tls = tls  # a server-side ssl.SSLContext: serve https
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}/"
        self.routes: dict = {}
        self.log: list[tuple[str, dict]] = []
        self.stop = threading.Event()
        self._seen: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._conns: list[socket.socket] = []
        self.accepted = 0  # connections, HTTP or not
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
                self.accepted += 1
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(BOUND)
        try:
            if self.tls is not None:
                conn = self.tls.wrap_socket(conn, server_side=True)
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


def endless(head: bytes, chunked: bool = False, piece: bytes | None = None):
    """A body that never ends (``piece`` again and again), as fast as the client reads it."""
    block = b"\0" * 65536

    def fn(srv, conn, req):
        conn.sendall(head)
        if piece is not None:
            while not srv.stop.is_set():
                conn.sendall(piece)
            return
        piece_ = b"%x\r\n%s\r\n" % (len(block), block) if chunked else block
        while not srv.stop.is_set():
            conn.sendall(piece_)

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


def test_plain_release_installs(tmp_path, srv):
    """The baseline the hostile answers are measured against: the release installs from this server."""
    release(srv)
    r = run(tmp_path, srv.url)
    assert r.returncode == 0, r.stderr
    root = r.stdout.splitlines()[0]
    assert os.path.isfile(os.path.join(root, "include", "cuda_runtime.h"))
    assert len(srv.hits(REL)) == 1


def failed(tmp_path, r, *want: str) -> str:
    """Non-zero, nothing on stdout, the failure as stderr's last line (one line), no traceback,
    and nothing half-installed: no toolkit, no staging directory."""
    assert r.returncode not in (0, None), (r.returncode, r.stderr)
    assert r.stdout == "", r.stdout
    assert "Traceback" not in r.stderr and "Error:" not in r.stderr.replace("cudaenv:", ""), r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("cudaenv: "), r.stderr
    for w in want:
        assert w in last, (w, r.stderr)
    assert [n for n in toolkits(tmp_path) if not n.endswith(".lock")] == [], toolkits(tmp_path)
    return last


# --------------------------------------------------------------------------- bounded in time

OK_HEAD = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"


def _stalls(data: bytes) -> dict:
    head = OK_HEAD % len(data)
    return {
        "no answer": stall(),
        "after the status line": stall(b"HTTP/1.1 200 OK\r\n"),
        "after the headers": stall(head),
        "half way through the body": stall(head + data[: len(data) // 2]),
        "body trickled a byte at a time": trickle(head, data, every=0.4),
        "headers trickled a byte at a time": trickle_head(head + data, every=0.4),
        "100 Continue for ever": endless(b"", piece=b"HTTP/1.1 100 Continue\r\n\r\n"),
    }


@pytest.mark.parametrize("how", list(_stalls(b"")))
def test_stalled_or_trickling_archive_times_out(tmp_path, srv, how):
    """Each read may be prompt (a byte every 0.4 s, under the 2 s allowed): what counts is progress."""
    data = archive()
    release(srv, _stalls(data)[how])
    r = run(tmp_path, srv.url)
    last = failed(tmp_path, r)
    assert "stalled" in last or "no answer" in last, r.stderr
    assert r.elapsed < STALL + 10, r.elapsed


@pytest.mark.parametrize("how", ["no answer", "body trickled a byte at a time", "headers trickled a byte at a time"])
def test_stalled_manifest_times_out(tmp_path, srv, how):
    data = archive()
    doc = manifest(data)
    srv.routes[f"redistrib_{VERSION}.json"] = _stalls(doc)[how]
    r = run(tmp_path, srv.url)
    last = failed(tmp_path, r)
    assert r.elapsed < STALL + 10, r.elapsed
    # The only source: its reason is in the one error line, no "trying the next source" before it.
    assert r.stderr.strip().splitlines() == [last] and ("no answer in 2 s" in last or "stalled" in last), r.stderr


def test_slow_but_steady_download_is_not_a_stall(tmp_path, srv):
    """A download slower than the stall timeout in all, but always making progress, completes."""
    data = archive(files={"include/big.bin": os.urandom(64 << 10)})
    chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)]

    def steady(srv_, conn, req):
        conn.sendall(OK_HEAD % len(data))
        for c in chunks:  # 4 KiB every 0.25 s: 2 s and more in all
            if srv_.stop.wait(0.25):
                return
            conn.sendall(c)

    release(srv, steady, data=data)
    r = run(tmp_path, srv.url)
    assert r.returncode == 0, r.stderr
    assert r.elapsed > STALL


# --------------------------------------------------------------------------- bounded in size


def test_endless_body_without_a_published_size_is_capped(tmp_path, srv):
    release(srv, endless(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"), size=None)
    r = run(tmp_path, srv.url, env=env_for(tmp_path, CUDAENV_INSTALL_MAX_DOWNLOAD=str(4 << 20)))
    failed(tmp_path, r, "sent more than the 4194304 bytes")
    assert os.listdir(tmp_path / "dl" / "partial") == []  # nothing kept of it


def test_huge_content_length_without_a_published_size_is_refused_unread(tmp_path, srv):
    release(srv, stall(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999\r\n\r\n"), size=None)
    r = run(tmp_path, srv.url, env=env_for(tmp_path, CUDAENV_INSTALL_MAX_DOWNLOAD=str(4 << 20)))
    failed(tmp_path, r, "offers 99999999999999 bytes")
    assert r.elapsed < STALL + 10


@pytest.mark.parametrize("chunked", [False, True], ids=["close-delimited", "chunked"])
def test_endless_body_past_the_published_size(tmp_path, srv, chunked):
    head = b"HTTP/1.1 200 OK\r\n" + (b"Transfer-Encoding: chunked\r\n" if chunked else b"") + b"\r\n"
    release(srv, endless(head, chunked=chunked))
    r = run(tmp_path, srv.url)
    failed(tmp_path, r, "size mismatch", "the server sent at least")
    assert len(srv.hits(REL)) == 1


@pytest.mark.parametrize("lie", [+100, -100, +1, -1])
@pytest.mark.parametrize("server", ["content-length", "close-delimited", "ignores-range"])
def test_published_size_that_lies_fails_after_one_download(tmp_path, srv, lie, server):
    """The archive is right (its sha256 matches); only the size in the manifest lies."""
    data = archive()
    beh = {"content-length": serve(data), "close-delimited": serve(data, length=None),
           "ignores-range": serve(data, ranges=False)}[server]
    release(srv, beh, size=len(data) + lie, data=data)
    r = run(tmp_path, srv.url)
    failed(tmp_path, r, "size mismatch", f"the source lists {len(data) + lie} bytes", str(len(data)))
    assert len(srv.hits(REL)) == 1, srv.hits(REL)


@pytest.mark.parametrize("size", ["-5", "-1", "1e3", "0x10", "nan", ""])
def test_nonsense_published_size_is_one_line(tmp_path, srv, size):
    release(srv, size=size)
    r = run(tmp_path, srv.url)
    if r.returncode == 0:  # a size that is not there is no size: the sha256 still decides
        assert size in ("", "nan", "1e3", "0x10"), r.stderr
    else:
        failed(tmp_path, r)


@pytest.mark.parametrize("length", ["-5", "abc", "1e3", "288 288"])
def test_nonsense_content_length_is_ignored_or_one_line(tmp_path, srv, length):
    data = archive()
    release(srv, serve(data, length=length))
    r = run(tmp_path, srv.url)
    if r.returncode:
        failed(tmp_path, r)
    assert "Traceback" not in r.stderr


# --------------------------------------------------------------------------- malformed answers

MALFORMED = {
    "status code not a number": b"HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
    "garbage status line": b"\x00\xff\xfe garbage\r\n\r\n",
    "unknown protocol": b"HTTP/9.9 200 OK\r\nContent-Length: 0\r\n\r\n",
    "status line alone": b"HTTP/1.1\r\n\r\n",
    "200 headers": b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H%d: y\r\n" % i for i in range(200)) + b"\r\n",
    "100 KB header": b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 100_000 + b"\r\n\r\n",
    "100 KB status line": b"HTTP/1.1 200 " + b"O" * 100_000 + b"\r\n\r\n",
    "bad chunk size": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n",
    "100 KB chunk line": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1" + b"0" * 100_000 + b"\r\n",
    "error with escapes in its reason": b"HTTP/1.1 500 \x1b[31mred\x1b]0;title\x07 \xff\r\nContent-Length: 0\r\n\r\n",
    "redirect without a Location": b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\n\r\n",
    "closed without an answer": b"",
}


#: Taken as a dropped connection: retried (and resumed) RETRIES times with pauses, about 8 s in all.
RETRIED = ("bad chunk size", "closed without an answer")


@pytest.mark.parametrize("how,target", [
    pytest.param(how, target, marks=[pytest.mark.slow] if how in RETRIED and target == "archive" else [])
    for how in MALFORMED for target in ("archive", "manifest")])
def test_malformed_answer_is_one_line(tmp_path, srv, how, target):
    release(srv)
    if target == "archive":
        srv.routes[REL] = raw(MALFORMED[how])
    else:
        srv.routes[f"redistrib_{VERSION}.json"] = raw(MALFORMED[how])
    r = run(tmp_path, srv.url)
    last = failed(tmp_path, r)
    assert len(last) < 600 and "\x1b" not in last and "\x07" not in last, last


@pytest.mark.parametrize("how", [pytest.param("stall", marks=pytest.mark.slow),
                                 pytest.param("trickle", marks=pytest.mark.slow), "200 headers", "100 KB header", "endless"])
def test_hostile_listing_and_index_are_bounded_and_one_line(tmp_path, srv, how):
    """The same bounds hold for `install --list` (the mirror's directory listing) and for a wheel
    index pip is configured with (PIP_INDEX_URL, the `pypi` source)."""
    beh = {"stall": stall(), "trickle": trickle(b"HTTP/1.1 200 OK\r\n\r\n"),
           "200 headers": raw(MALFORMED["200 headers"]), "100 KB header": raw(MALFORMED["100 KB header"]),
           "endless": endless(b"HTTP/1.1 200 OK\r\n\r\n", piece=b"<a href='x'>redistrib_1.2.3.json</a>\n" * 1000)}[how]
    srv.routes[""] = beh
    srv.routes["simple/nvidia-cuda-runtime/"] = srv.routes["simple/cuda-toolkit/"] = beh
    env = env_for(tmp_path, PIP_INDEX_URL=srv.url + "simple", PIP_EXTRA_INDEX_URL="", PIP_FIND_LINKS="",
                  PIP_CONFIG_FILE=os.devnull)
    for args in (["install", "--list", "--source", srv.url], ["install", "13.5", "--source", "pypi"]):
        t0 = time.monotonic()
        r = subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True,
                           timeout=BOUND + 60)
        failed(tmp_path, r)
        assert time.monotonic() - t0 < STALL + 60, args


# --------------------------------------------------------------------------- redirects


def test_redirects_are_followed_a_few_times(tmp_path, srv):
    data = release(srv)
    srv.routes[REL] = redirect("/hop1")
    srv.routes["hop1"] = redirect(srv.url + "hop2", 301)
    srv.routes["hop2"] = redirect("hop3", 307)
    srv.routes["hop3"] = serve(data)
    r = run(tmp_path, srv.url)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("how", ["loop", "chain"])
def test_redirect_loops_and_long_chains_end(tmp_path, srv, how):
    release(srv)
    if how == "loop":
        srv.routes[REL] = redirect("/" + REL)
    else:
        srv.routes[REL] = redirect("/r0")
        for i in range(100):
            srv.routes[f"r{i}"] = redirect(f"/r{i + 1}")
    r = run(tmp_path, srv.url)
    failed(tmp_path, r, "redirects")
    assert len(srv.log) < 20


@pytest.mark.parametrize("location", ["file:///etc/passwd", "FILE:/etc/passwd", "ftp://127.0.0.1:{port}/x.tar.xz",
                                      "gopher://127.0.0.1:{port}/", "data:,hello", "http://[::1/x",
                                      "http://127.0.0.1:99999/x", "javascript:alert(1)", "ftp://{user}@127.0.0.1:{port}/"])
def test_redirect_elsewhere_than_http_is_refused(tmp_path, srv, location):
    """Refused before any connection: an ftp:// or gopher:// redirect to this very server's port
    would show as one more connection than HTTP requests."""
    release(srv)
    srv.routes[REL] = redirect(location.format(port=srv.port, user="anonymous"))
    r = run(tmp_path, srv.url)
    failed(tmp_path, r, "redirects")
    assert srv.accepted == len(srv.log), (srv.accepted, srv.log)


def test_redirect_body_is_not_read(tmp_path, srv):
    """urllib reads a redirect's body whole before following it: an endless one must not hang us."""
    data = release(srv)
    srv.routes[REL] = endless(b"HTTP/1.1 302 Found\r\nLocation: /real\r\n\r\n")
    srv.routes["real"] = serve(data)
    r = run(tmp_path, srv.url)
    assert r.returncode == 0, r.stderr


@pytest.fixture
def tls_srv(tmp_path):
    """A hostile server speaking https with its own certificate for 127.0.0.1 (trusted through SSL_CERT_FILE)."""
    import ssl

    from helpers import need

    openssl = need("openssl")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    s = Hostile(tls=ctx)
    s.cert = str(cert)
    yield s
    s.close()


def test_https_redirect_stays_https(tmp_path, tls_srv, srv):
    """https -> https is followed (the control: TLS works here); https -> http is refused, unfetched."""
    data = release(tls_srv)
    env = env_for(tmp_path, SSL_CERT_FILE=tls_srv.cert)
    tls_srv.routes[REL] = redirect(tls_srv.url + "real")
    tls_srv.routes["real"] = serve(data)
    r = run(tmp_path, tls_srv.url, env=env)
    assert r.returncode == 0, r.stderr
    down = env_for(tmp_path / "down", SSL_CERT_FILE=tls_srv.cert)
    tls_srv.routes[REL] = redirect(srv.url + "real")
    srv.routes["real"] = serve(data)
    r = run(tmp_path / "down", tls_srv.url, env=down)
    failed(tmp_path / "down", r, "redirects from https down to http://")
    assert srv.log == []


# --------------------------------------------------------------------------- malformed URLs and sources

BAD_SOURCES = ["http://[::1/x", "http://[::1", "http://a b/", "http://héllo.example/", "http://127.0.0.1:99999/",
               "http://127.0.0.1:-1/", "ftp://127.0.0.1/", "gopher://x/", "http://", "https:///path",
               "http://127.0.0.1:1/\nx", "http://127.0.0.1:1/\x1b[31m", "javascript://x"]


@pytest.mark.parametrize("source", BAD_SOURCES)
def test_malformed_source_url_is_one_line(tmp_path, source):
    r = subprocess.run(cmd(source), env=env_for(tmp_path), capture_output=True, text=True, timeout=BOUND)
    failed(tmp_path, r, "not a usable URL")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    r = subprocess.run([sys.executable, "-m", "cudaenv", "install", "--list", "--source", source],
                       env=env_for(tmp_path), capture_output=True, text=True, timeout=BOUND)
    failed(tmp_path, r, "not a usable URL")


@pytest.mark.parametrize("entry", ['"http://[::1/x"', '"http://a\\0b/"', '"ftp://127.0.0.1/"', "5", "[a, b]", "{a: b}",
                                   '""'])
def test_malformed_source_in_config_is_one_line(tmp_path, entry):
    cfg = tmp_path / "xdg-config" / "cudaenv"
    cfg.mkdir(parents=True)
    (cfg / "config.yaml").write_text(f"sources:\n  - {entry}\n")
    for args in (["install", VERSION], ["install", "--list"]):
        r = subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env_for(tmp_path, XDG_CONFIG_HOME=str(
            tmp_path / "xdg-config")), capture_output=True, text=True, timeout=BOUND)
        failed(tmp_path, r)


@pytest.mark.parametrize("rel", ["cuda_cudart/a b.tar.xz", "cuda_cudart/é.tar.xz", "cuda_cudart/x\x7f.tar.xz",
                                 "//[::1/x.tar.xz", "cuda_cudart/%0a.tar.xz"])
def test_malformed_archive_path_in_manifest_is_one_line(tmp_path, srv, rel):
    data = archive()
    srv.routes[f"redistrib_{VERSION}.json"] = serve(manifest(data, rel=rel))
    r = run(tmp_path, srv.url)
    failed(tmp_path, r)


# --------------------------------------------------------------------------- signals

SIGNALS = [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 129, "hung up")]
#: From the signal to the process's exit, clean-up included ("within a second or two", with room for a slow CI).
PROMPT = 5


def snapshot(root: str) -> dict:
    """Every entry under ``root`` (links not followed): what "untouched" is compared with."""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            st = os.lstat(os.path.join(d, n))
            out[os.path.relpath(os.path.join(d, n), root)] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino)
    return out


@pytest.fixture
def previous(tmp_path, srv):
    """CUDA 13.4.0 installed from the same server beforehand: a signal must leave it as it was."""
    data = archive(version="13.4.1")
    rel = f"{KEY}/linux-x86_64/{KEY}-linux-x86_64-13.4.1-archive.tar.xz"
    srv.routes["redistrib_13.4.0.json"] = serve(manifest(data, rel=rel, version="13.4.0"))
    srv.routes[rel] = serve(data)
    r = subprocess.run(cmd(srv.url, "13.4.0"), env=env_for(tmp_path), capture_output=True, text=True, timeout=BOUND)
    assert r.returncode == 0, r.stderr
    root = r.stdout.strip()
    return root, snapshot(root)


@pytest.fixture(scope="module")
def many_files() -> bytes:
    """An archive of 10000 small files: its unpack takes long enough to be interrupted in the middle.

    Their bytes are random, so the archive is about 1.2 MB and its 10000 entries are well within
    what unpack allows an archive of that size (8 per KiB): the bomb limit must not end it first.
    """
    import random

    rnd = random.Random(0)
    return archive(files={f"include/f{i}.h": rnd.randbytes(120) for i in range(10000)})


def _lock(tmp_path):
    import fcntl

    parent = tmp_path / "data" / "cudaenv" / "toolkits"
    parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(parent / f".cuda-{VERSION}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _staged(tmp_path) -> bool:
    parent = tmp_path / "data" / "cudaenv" / "toolkits"
    for n in os.listdir(parent) if parent.is_dir() else []:
        if ".staging-" in n and os.path.isdir(parent / n / "include") and os.listdir(parent / n / "include"):
            return True
    return False


def _wait_for(cond, what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not cond():
        if time.monotonic() > deadline:
            pytest.fail(f"never reached: {what}")
        time.sleep(0.02)


def _signal_when(proc, reached, sig) -> tuple[str, str, float]:
    """Wait for ``reached()`` (a sentinel of the stage), send ``sig``; (stdout, stderr, seconds to exit)."""
    try:
        reached()
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=BOUND)
        return out, err, time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("sig,code,how", SIGNALS, ids=[s[0].name for s in SIGNALS])
@pytest.mark.parametrize("stage", ["manifest", "download", "unpack", "lock"])
def test_signal_ends_install_promptly_and_cleanly(tmp_path, srv, previous, many_files, stage, sig, code, how):
    """At every stage: exit 128+N within seconds, one line, nothing on stdout, no staging directory,
    nothing installed, the earlier install untouched. The stage is proven reached, never slept for."""
    old_root, old_snap = previous
    release(srv, stall(OK_HEAD % len(archive())) if stage == "download" else None,
            data=many_files if stage == "unpack" else None)
    if stage == "manifest":
        srv.routes[f"redistrib_{VERSION}.json"] = stall()
    fd = _lock(tmp_path) if stage == "lock" else None
    env = env_for(tmp_path, CUDAENV_INSTALL_TIMEOUT="120")  # only the signal may end it
    proc = subprocess.Popen(cmd(srv.url), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals)

    def reached() -> None:
        if stage == "manifest":
            assert srv.seen(f"redistrib_{VERSION}.json").wait(BOUND)
        elif stage == "download":
            assert srv.seen(REL).wait(BOUND)
        elif stage == "unpack":
            _wait_for(lambda: _staged(tmp_path), "files unpacked into the staging directory")
        else:
            line = proc.stderr.readline()
            while line and "waiting for it" not in line:
                line = proc.stderr.readline()
            assert "waiting for it" in line

    try:
        out, err, elapsed = _signal_when(proc, reached, sig)
    finally:
        if fd is not None:
            os.close(fd)
    assert proc.returncode == code, (proc.returncode, err)
    assert elapsed < PROMPT, elapsed
    assert out == "" and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == f"cudaenv: {how}: nothing was installed", err
    assert [n for n in toolkits(tmp_path) if not n.endswith(".lock")] == ["cuda-13.4.0"], toolkits(tmp_path)
    assert snapshot(old_root) == old_snap


@pytest.mark.parametrize("ignored", [signal.SIGHUP, signal.SIGINT], ids=["SIGHUP", "SIGINT"])
def test_signal_ignored_at_start_stays_ignored(tmp_path, srv, ignored):
    """Under nohup (SIGHUP ignored) or a shell's `trap '' INT`, that signal does not end the install;
    a SIGTERM sent after it still does (exit 143, not 128 + the ignored one)."""
    release(srv, stall(OK_HEAD % len(archive())))
    env = env_for(tmp_path, CUDAENV_INSTALL_TIMEOUT="120")
    proc = subprocess.Popen(cmd(srv.url), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: (default_signals(), signal.signal(ignored, signal.SIG_IGN)))
    try:
        assert srv.seen(REL).wait(BOUND)
        proc.send_signal(ignored)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143, (proc.returncode, err)
    assert err.strip().splitlines()[-1] == "cudaenv: terminated: nothing was installed", err


def test_failing_download_cancels_a_stalled_one(tmp_path, srv):
    """One archive fails its checksum while another hangs: the install fails at once, not after the hang."""
    good, hung = archive(), archive(key="cuda_nvcc", files={"bin/nvcc": b"#!/bin/sh\n"})
    rel2 = "cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-13.5.40-archive.tar.xz"
    doc = json.loads(manifest(good))
    doc["cuda_nvcc"] = {"name": "CUDA NVCC", "version": "13.5.40", "linux-x86_64": {
        "relative_path": rel2, "sha256": hashlib.sha256(hung).hexdigest(), "size": str(len(hung))}}
    srv.routes[f"redistrib_{VERSION}.json"] = serve(json.dumps(doc).encode())
    srv.routes[rel2] = stall(OK_HEAD % len(hung))
    corrupt = serve(good[:-1] + bytes([good[-1] ^ 1]))  # right size, wrong sha256

    def after_the_hang_began(srv_, conn, req):
        srv_.seen(rel2).wait(BOUND)
        corrupt(srv_, conn, req)

    srv.routes[REL] = after_the_hang_began
    env = env_for(tmp_path, CUDAENV_INSTALL_TIMEOUT="120")
    r = run(tmp_path, srv.url, "--parts", "cudart,nvcc", env=env)
    failed(tmp_path, r, "checksum mismatch")
    assert r.elapsed < PROMPT + 5, r.elapsed


@pytest.mark.parametrize("sig,code,how", SIGNALS, ids=[s[0].name for s in SIGNALS])
def test_signal_during_force_reinstall_keeps_the_old_tree(tmp_path, srv, sig, code, how):
    """`install --force` over the same version, stopped mid-download: the old tree stays exactly."""
    data = release(srv)
    env = env_for(tmp_path, CUDAENV_INSTALL_TIMEOUT="120")
    r = subprocess.run(cmd(srv.url), env=env, capture_output=True, text=True, timeout=BOUND)
    assert r.returncode == 0, r.stderr
    root = r.stdout.strip()
    before = snapshot(root)
    srv.routes[REL] = stall(OK_HEAD % len(data))
    srv.seen(REL).clear()
    import shutil

    shutil.rmtree(tmp_path / "dl")  # not from the cache: the download itself must be under way
    proc = subprocess.Popen(cmd(srv.url, VERSION, "--force"), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
    out, err, elapsed = _signal_when(proc, lambda: srv.seen(REL).wait(BOUND) or pytest.fail("never requested"), sig)
    assert proc.returncode == code and out == "" and elapsed < PROMPT, (proc.returncode, elapsed, err)
    assert err.strip().splitlines()[-1] == f"cudaenv: {how}: nothing was installed", err
    assert snapshot(root) == before
    assert [n for n in toolkits(tmp_path) if not n.endswith(".lock")] == ["cuda-13.5.0"], toolkits(tmp_path)


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_install_list_with_no_source_reached_is_one_line(tmp_path, json_flag):
    """The table's header used to reach stdout, then two stderr lines."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{s.getsockname()[1]}/"
    s.close()  # nothing listens there: connection refused
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    res = run_cudaenv(["install", "--list", "--source", dead, *json_flag], env)
    err = one_error_line(res, 1)
    assert err.startswith(f"cudaenv: no source could be reached: {dead} is unreachable"), err
