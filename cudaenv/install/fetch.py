"""Reading URLs and downloading files: resumable, verified by sha256, cached by sha256, bounded.

A download goes to ``<cache>/partial/<sha256>`` and, once its sha256 matches,
is renamed to ``<cache>/<sha256>``: a later install of any version that needs
the same file reads it from there. A dropped connection resumes where it
stopped (HTTP ``Range``); a server that ignores ``Range`` sends the whole file
again, which is then started over. Local files (a mirror directory, a
``file://`` index) are read in place and checked, never copied.

A source is as good as whoever runs it, so every request is bounded here
(:func:`_open` is the one way out to the network):

- in time: the server must answer, and then deliver at least :data:`MIN_PROGRESS`
  bytes every :data:`TIMEOUT` seconds (a stall and a trickle of a byte every few
  seconds both end); a watchdog thread shuts the socket down, which also ends a
  read blocked in another thread at once when the install is cancelled;
- in size: no more than the published size (a size that lies is found in the
  first answer, or at the latest when the one download ends), :data:`MAX_DOWNLOAD`
  when nothing says it, :data:`MAX_DOCUMENT` for a manifest or an index page;
- in redirects: at most :data:`MAX_REDIRECTS`, to http(s) only, never from https
  down to http;
- in what it says: every malformed answer or URL is one line (a :class:`CudaenvError`).
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import unquote, urljoin, urlsplit

from ..errors import CudaenvError
from ..infra.files import read_limited
from ..infra.private import ensure_dir, own_file
from .credentials import redact
from .net import opener, remember, tls_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any, Callable, Mapping

__all__ = ["Unreachable", "Cancelled", "is_local", "local_path", "join_url", "check_url", "configure", "read_url",
           "fetch_file", "cached_path", "CHUNK", "RETRIES", "MAX_DOCUMENT", "MAX_DOWNLOAD", "MAX_REDIRECTS",
           "TIMEOUT", "MIN_PROGRESS", "RangeRefused", "read_range", "partial_path", "received", "keep_file", "cached", "read_cache_json", "is_sha"]

#: Bytes read per step (also the unit of progress reports).
CHUNK = 1 << 20
#: Attempts per file after a dropped connection (each resumes where the last stopped).
RETRIES = 5
#: Seconds a connection may go without an answer, or with under MIN_PROGRESS bytes ($CUDAENV_INSTALL_TIMEOUT).
TIMEOUT = 30.0
#: Bytes that count as progress within TIMEOUT: a trickle slower than that is a stall (as curl's --speed-limit).
MIN_PROGRESS = 1024
#: The largest document :func:`read_url` reads (NVIDIA's manifests are ~100 KiB, a big simple-index page a few MiB).
MAX_DOCUMENT = 64 << 20
#: The largest download when neither the source nor the server gives a size ($CUDAENV_INSTALL_MAX_DOWNLOAD);
#: NVIDIA's largest redist archives and wheels are under 2 GB.
MAX_DOWNLOAD = 8 << 30
#: Redirects followed per request.
MAX_REDIRECTS = 10


class Unreachable(CudaenvError):
    """A source could not be reached at all (DNS, refused, timed out): try the next one."""


class Cancelled(Exception):
    """Raised inside a worker when the install is being abandoned."""


class _Dropped(CudaenvError):
    """The connection broke in the middle of an answer: worth resuming."""


class RangeRefused(CudaenvError):
    """The server does not answer byte ranges, or not consistently: the caller takes the whole file."""


#: Bytes of answer bodies this process has received over the network (reported by benchmarks and ``--json``).
_RECEIVED = [0]
_received_lock = threading.Lock()


def received() -> int:
    """Bytes of answer bodies this process has received over the network so far."""
    return _RECEIVED[0]


def _count(n: int) -> None:
    with _received_lock:
        _RECEIVED[0] += n


def configure(env: Mapping[str, str]) -> None:
    """Take :data:`TIMEOUT` and :data:`MAX_DOWNLOAD` from ``$CUDAENV_INSTALL_TIMEOUT`` (seconds) and
    ``$CUDAENV_INSTALL_MAX_DOWNLOAD`` (bytes), when set.

    Raises:
        CudaenvError: a value that is not a positive number.
    """
    global TIMEOUT, MAX_DOWNLOAD
    for var, conv in (("CUDAENV_INSTALL_TIMEOUT", float), ("CUDAENV_INSTALL_MAX_DOWNLOAD", int)):
        text = env.get(var, "").strip()
        if not text:
            continue
        try:
            value: float = conv(text)
            if not 0 < value < 1e15:
                raise ValueError
        except ValueError:
            raise CudaenvError(f"{var}={text[:40]!r} is not a positive {'number' if conv is float else 'integer'}",
                               exit_code=2) from None
        if conv is float:
            TIMEOUT = value
        else:
            MAX_DOWNLOAD = int(value)


def is_local(url: str) -> bool:
    """A plain path or a ``file://`` URL."""
    return url.startswith("file://") or "://" not in url


def local_path(url: str) -> str:
    """The filesystem path of a local ``url``."""
    if url.startswith("file://"):
        return unquote(urlsplit(url).path)
    return url


def _show(url: str) -> str:
    """``url`` as a message may show it: without a password or token (``credentials.redact``), cut short."""
    url = redact(url)
    return url if len(url) <= 200 else url[:200] + "…"


def check_url(url: str) -> str:
    """``url`` itself, when it is an http(s) URL cudaenv can fetch.

    Raises:
        CudaenvError: (exit 2) any other scheme, no host, a bad port or IPv6
            address, a space, a control or a non-ASCII character (percent-encode those).
    """
    from urllib.parse import urlsplit

    def bad(why: str) -> CudaenvError:
        return CudaenvError(f"not a usable URL: {_show(url)!r} ({why})", exit_code=2)

    odd = next((ch for ch in url if not " " < ch < "\x7f"), None)
    if odd is not None:
        raise bad("a space" if odd == " " else f"the character {odd!r}; percent-encode it")
    try:
        parts = urlsplit(url)
        host, _port = parts.hostname, parts.port
    except ValueError as exc:
        raise bad(str(exc)) from None
    if parts.scheme not in ("http", "https"):
        raise bad(f"{parts.scheme or 'no'} scheme; http:// or https:// or a local directory")
    if not host:
        raise bad("no host")
    return url


def join_url(base: str, rel: str) -> str:
    """``rel`` relative to the directory ``base`` (a URL or a path).

    Raises:
        CudaenvError: either is not a URL (an unclosed IPv6 bracket).
    """
    if "://" in rel:
        return rel
    if is_local(base) and not base.startswith("file://"):
        return os.path.normpath(os.path.join(base, rel))
    try:
        return urljoin(base if base.endswith("/") else base + "/", rel)
    except ValueError as exc:
        raise CudaenvError(f"not a usable URL: {_show(base)!r} + {rel[:200]!r} ({exc})") from None


def _why(exc: BaseException) -> str:
    reason = getattr(exc, "reason", None)
    if reason is not None and not isinstance(reason, str):
        exc = reason
    why = tls_reason(exc) or getattr(exc, "strerror", None) or str(getattr(exc, "reason", "") or exc) \
        or exc.__class__.__name__
    return redact(why)


def _connection(*handlers: urllib.request.BaseHandler,
                https_connection: type[http.client.HTTPSConnection] | None = None) -> urllib.request.OpenerDirector:
    """The connection set-up, all of it in net.py: the CA certificates (pip's ``cert``,
    ``SSL_CERT_FILE``), pip's ``client-cert`` and ``trusted-host``, the proxy, and
    credentials per host (from the URLs, netrc), never sent to another host.
    ``handlers``: more ``urllib`` handlers for the opener (they replace a default of their class)."""
    return opener(*handlers, https_connection=https_connection)


# --------------------------------------------------------------------------- bounded requests


class _Watch:
    """One request's clock: the watchdog trips it (shutting its socket down) when it makes no
    progress for :data:`TIMEOUT` seconds or ``cancel`` is set."""

    def __init__(self, url: str, cancel: threading.Event | None) -> None:
        self.url = url
        self.cancel = cancel
        self.sock: socket.socket | None = None
        self.why: str | None = None  # "cancelled" or "stalled", once tripped
        self.answered = False  # the status line and headers have arrived
        self.mark = time.monotonic()
        self.count = 0
        self.lock = threading.Lock()

    def attach(self, sock: socket.socket) -> None:
        with self.lock:
            self.sock = sock
            self.mark = time.monotonic()  # each connection (a redirect's too) has TIMEOUT to answer
            tripped = self.why is not None
        if tripped:
            _shut(sock)

    def progress(self, n: int) -> None:
        self.count += n
        if self.count >= MIN_PROGRESS:
            self.count = 0
            self.mark = time.monotonic()

    def trip(self, why: str) -> None:
        with self.lock:
            if self.why is None:
                self.why = why
            sock = self.sock
        if sock is not None:
            _shut(sock)

    def check(self, now: float) -> None:
        if self.cancel is not None and self.cancel.is_set():
            self.trip("cancelled")
        elif now - self.mark > TIMEOUT:
            self.trip("stalled")

    def error(self) -> BaseException | None:
        """What a tripped request raises (None: not tripped)."""
        if self.why == "cancelled":
            return Cancelled()
        if self.why == "stalled" and not self.answered:
            return Unreachable(f"{_show(self.url)}: no answer in {TIMEOUT:g} s")
        if self.why == "stalled":
            return CudaenvError(f"{_show(self.url)}: stalled (under {MIN_PROGRESS} bytes in {TIMEOUT:g} s)",
                                hint="a slow link may need a larger CUDAENV_INSTALL_TIMEOUT (seconds)")
        return None


def _shut(sock: socket.socket) -> None:
    try:  # the plain socket's shutdown, also under TLS: a blocked read in another thread returns at once
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass


_watches: set[_Watch] = set()
_watch_lock = threading.Lock()
_watchdog: list[threading.Thread] = []
_current = threading.local()


def _watch_loop() -> None:
    while True:
        time.sleep(0.1)
        with _watch_lock:
            watches = list(_watches)
        now = time.monotonic()
        for w in watches:
            w.check(now)


def _watch(w: _Watch) -> None:
    with _watch_lock:
        _watches.add(w)
        if not _watchdog:
            t = threading.Thread(target=_watch_loop, name="cudaenv-fetch-watchdog", daemon=True)
            t.start()
            _watchdog.append(t)


def _unwatch(w: _Watch) -> None:
    with _watch_lock:
        _watches.discard(w)


def _opener() -> urllib.request.OpenerDirector:
    """urllib with the bounds above (connections that tell the current watch their socket,
    redirects checked one by one) over net.py's certificates, proxies and credentials."""
    class Conn(http.client.HTTPConnection):
        """A connection that tells the current watch its socket (under TLS too: see TLSConn)."""

        def connect(self) -> None:
            super().connect()
            w = getattr(_current, "watch", None)
            if w is not None:
                w.attach(self.sock)

    class TLSConn(Conn, http.client.HTTPSConnection):
        """Conn.connect first, whose super() is HTTPSConnection.connect: the watch gets the TLS socket."""

    class HTTP(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(Conn, req)

    class Redirects(urllib.request.HTTPRedirectHandler):
        max_redirections = max_repeats = MAX_REDIRECTS

        def http_error_302(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                           headers: http.client.HTTPMessage) -> Any:
            loc = headers.get("location") or headers.get("uri") or ""
            scheme = loc.partition(":")[0].lower() if ":" in loc.partition("/")[0] else ""
            if scheme not in ("", "http", "https"):  # file:, ftp:, data:… (urllib itself would take ftp:)
                fp.close()
                raise CudaenvError(f"{_show(req.full_url)} redirects to {_show(loc)!r}; only http(s) is followed")
            try:
                return super().http_error_302(req, fp, code, msg, headers)
            except ValueError as exc:  # a Location urllib cannot even parse
                raise CudaenvError(f"{_show(req.full_url)} redirects to a malformed URL ({exc})") from None

        http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

        def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                             headers: http.client.HTTPMessage, newurl: str) -> urllib.request.Request | None:
            old = req.full_url
            try:
                check_url(newurl)
            except CudaenvError as exc:
                raise CudaenvError(f"{_show(old)} redirects elsewhere: {exc.message}") from None
            if old.lower().startswith("https:") and not newurl.lower().startswith("https:"):
                raise CudaenvError(f"{_show(old)} redirects from https down to {_show(newurl)}; refused")
            if sum(getattr(req, "redirect_dict", {}).values()) >= MAX_REDIRECTS:
                raise CudaenvError(f"{_show(old)}: more than {MAX_REDIRECTS} redirects (a loop?)")
            fp.close()  # unread: urllib would read a redirect's body whole, however long
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return _connection(HTTP(), Redirects(), https_connection=TLSConn)


def _failure(w: _Watch, exc: BaseException) -> BaseException:
    """The one-line error for ``exc``, raised by urllib or http.client during the request ``w``."""
    tripped = w.error()
    if tripped is not None:
        return tripped
    url = _show(w.url)
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, TimeoutError):
        return CudaenvError(f"{url}: stalled (no data in {TIMEOUT:g} s)") if w.answered else \
            Unreachable(f"{url}: no answer in {TIMEOUT:g} s")
    if isinstance(exc, urllib.error.URLError):  # connecting or sending failed
        return Unreachable(f"{url}: {_clip(_why(exc), 300)}") if isinstance(reason, OSError) else \
            CudaenvError(f"{url}: {_clip(_why(exc), 300)}")
    if isinstance(exc, http.client.RemoteDisconnected):
        return _Dropped(f"{url}: the server closed the connection without an answer")
    if isinstance(exc, (OSError, http.client.IncompleteRead)):
        return _Dropped(f"{url}: {_clip(_why(exc)) if isinstance(exc, OSError) else 'the answer was cut short'}")
    if isinstance(exc, http.client.HTTPException):
        name = exc.__class__.__name__
        what = {"BadStatusLine": "a malformed status line", "LineTooLong": "an over-long line",
                "UnknownProtocol": "an unknown protocol version"}.get(name) or _clip(exc) or name
        return CudaenvError(f"{url}: malformed HTTP answer ({what})")
    if isinstance(exc, ValueError):  # an URL http.client refuses
        return CudaenvError(f"not a usable URL: {url!r} ({_clip(exc)})")
    return CudaenvError(f"{url}: {_clip(_why(exc), 300)}")


class _Answer:
    """An open HTTP answer: ``status``, ``headers``, and :meth:`read` in bounded steps."""

    def __init__(self, resp: http.client.HTTPResponse, watch: _Watch) -> None:
        self.resp = resp
        self.status = getattr(resp, "status", 200)
        self.headers = resp.headers
        self.watch = watch

    def read(self, n: int = CHUNK) -> bytes:
        """Up to ``n`` bytes as they arrive (b"" at the end).

        Raises:
            Cancelled, CudaenvError: cancelled, stalled, dropped (:class:`_Dropped`), malformed.
        """
        try:
            data = self.resp.read1(n)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            raise _failure(self.watch, exc) from None
        if not data:
            tripped = self.watch.error()
            if tripped is not None:
                raise tripped
        self.watch.progress(len(data))
        _count(len(data))
        return data

    def length(self) -> int | None:
        """The body's length as the headers say (None: not said, chunked, or nonsense)."""
        if getattr(self.resp, "chunked", False):
            return None
        text = (self.headers.get("Content-Length") or "").strip()
        return int(text) if text.isdigit() and len(text) < 20 else None


class _open:  # noqa: N801 - used as a function: `with _open(url) as answer`
    """The one way out to the network: a bounded request for ``url``.

    Raises (on entering):
        urllib.error.HTTPError: an HTTP error status (the caller decides: 404, 416).
        Unreachable: no connection (refused, DNS, no answer at all).
        Cancelled: ``cancel`` was set.
        CudaenvError: anything else, in one line.
    """

    def __init__(self, url: str, headers: dict[str, str] | None = None, cancel: threading.Event | None = None) -> None:
        self.url, self.headers, self.watch = url, headers, _Watch(url, cancel)
        self.resp: http.client.HTTPResponse | None = None

    def __enter__(self) -> _Answer:
        check_url(self.url)
        # remember: credentials written in the URL go to the Authorization header, not the request line.
        req = urllib.request.Request(remember(self.url), headers={"User-Agent": "cudaenv", **(self.headers or {})})
        _watch(self.watch)
        _current.watch = self.watch
        try:
            # The socket's own timeout is a backstop behind the watchdog.
            self.resp = _opener().open(req, timeout=TIMEOUT + 5)
            self.watch.answered = True
        except urllib.error.HTTPError as exc:
            exc.close()
            tripped = self.watch.error()
            _unwatch(self.watch)
            if tripped is not None:
                raise tripped from None
            exc.msg = _clip(exc.msg)
            raise
        except (OSError, http.client.HTTPException, ValueError) as exc:
            _unwatch(self.watch)
            raise _failure(self.watch, exc) from None
        except BaseException:
            _unwatch(self.watch)
            raise
        finally:
            _current.watch = None
        return _Answer(self.resp, self.watch)

    def __exit__(self, *exc: object) -> None:
        _unwatch(self.watch)
        try:
            if self.resp is not None:
                self.resp.close()
        except Exception:  # noqa: BLE001 - closing a broken connection may fail in any way; nothing to keep
            pass


def _clip(value: object, n: int = 100) -> str:
    text = str(value)
    return text if len(text) <= n else text[:n] + "…"


def read_url(url: str, accept: str | None = None, missing_ok: bool = False) -> bytes | None:
    """The body of a small document (a manifest, an index page), at most :data:`MAX_DOCUMENT` bytes.

    Returns:
        The bytes, or None when ``missing_ok`` and the server says 404 (or the file is absent).

    Raises:
        Unreachable: the host cannot be reached (the caller tries its next source).
        CudaenvError: any other failure.
    """
    if is_local(url):
        path = local_path(url)
        try:
            # A mirror is anyone's directory: a FIFO there must not hang the install, nor
            # /dev/zero exhaust memory.
            return read_limited(path, MAX_DOCUMENT, whole=True)
        except FileNotFoundError:
            if missing_ok:
                return None
            raise CudaenvError(f"{path}: no such file", exit_code=2) from None
        except OSError as exc:
            raise CudaenvError(f"cannot read {path}: {exc.strerror or exc.__class__.__name__}") from None
    try:
        with _open(url, {"Accept": accept} if accept else None) as resp:
            if (resp.length() or 0) > MAX_DOCUMENT:
                raise CudaenvError(f"{_show(url)}: larger than {MAX_DOCUMENT >> 20} MiB; "
                                   "not a manifest or an index page")
            chunks, got = [], 0
            while True:
                block = resp.read()
                if not block:
                    break
                got += len(block)
                if got > MAX_DOCUMENT:
                    raise CudaenvError(f"{_show(url)}: larger than {MAX_DOCUMENT >> 20} MiB; "
                                       "not a manifest or an index page")
                chunks.append(block)
            length = resp.length()
            if length is not None and got < length:
                raise _Dropped(f"{_show(url)}: the answer was cut short ({got} of {length} bytes)")
            return b"".join(chunks)
    except urllib.error.HTTPError as exc:
        if exc.code == 404 and missing_ok:
            return None
        raise _http_error(_show(url), exc) from None


def _http_error(what: str, exc: urllib.error.HTTPError) -> CudaenvError:
    """An HTTP error status in one line (the server's reason phrase is its own words: masked too)."""
    hint = None
    if exc.code in (401, 403):
        hint = "credentials go in the index URL (https://user:TOKEN@host/simple) or ~/.netrc, as for pip"
    return CudaenvError(redact(f"{what}: HTTP {exc.code} {exc.reason}"), hint=hint)


def cached_path(cache: str, sha256: str) -> str:
    """Where the verified file with ``sha256`` lives in the download cache."""
    return os.path.join(cache, sha256.lower())


def _disk_full(path: str) -> CudaenvError:
    return CudaenvError(f"disk full while writing {path}", hint="free some space or point --prefix / "
                        "CUDAENV_INSTALL_CACHE elsewhere")


def _hash_file(path: str, progress: Callable[[int], None] | None = None) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(CHUNK)
            if not block:
                break
            h.update(block)
            if progress:
                progress(len(block))
    return h.hexdigest()


def fetch_file(url: str, sha256: str, size: int | None, cache: str,
               progress: Callable[[int], None] | None = None, name: str = "",
               cancel: threading.Event | None = None) -> tuple[str, int]:
    """Make the file at ``url`` with ``sha256`` available locally; return (path, bytes downloaded).

    Args:
        url: Where it is (http(s), file:// or a path).
        sha256: Its published sha256 (lower or upper case).
        size: Its published size, if known: the server must agree (its Content-Length,
            or what it sent in all), else the download fails at once.
        cache: The download cache directory.
        progress: Called with the number of new bytes as they arrive (a restart
            after a server ignored ``Range`` reports a negative number first).
        name: How to call the file in messages.
        cancel: When set (from another thread), the download ends within a fraction of a second.

    Raises:
        Cancelled: ``cancel`` was set (what was downloaded stays, to be resumed).
        CudaenvError: checksum or size mismatch, an HTTP error, a stall, a malformed
            answer, a full disk, or the connection kept dropping.
    """
    sha = sha256.lower()
    name = name or url.rsplit("/", 1)[-1]
    _check_size(size, name)
    if is_local(url):
        return _check_local(local_path(url), sha, name, progress), 0
    done = cached_path(cache, sha)
    if own_file(done):  # the user's own file in the user's own cache (infra/private.py)
        _touch(done)
        if progress:
            progress(os.path.getsize(done))
        return done, 0
    part = _partial_path(cache, sha)
    downloaded = _download_resuming(url, part, size, name, progress, cancel)
    _keep_verified(part, done, sha, f"{name} from {_show(url)}")
    return done, downloaded


def _touch(path: str) -> None:
    """Mark a cached file as used now: ``cache prune`` drops the least recently used first."""
    try:
        os.utime(path)
    except OSError:
        pass


def _check_size(size: object, name: str) -> None:
    """Refuse a published size that is not a number of bytes (a source's word is not trusted)."""
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
        raise CudaenvError(f"{name}: the source gives its size as {_clip(size)!r}, not a number of bytes")


def _check_local(path: str, sha: str, name: str, progress: Callable[[int], None] | None) -> str:
    """``path`` itself, once its sha256 is ``sha`` (a local file is read in place, never copied)."""
    if not os.path.isfile(path):
        raise CudaenvError(f"{name}: {path} does not exist")
    got = _hash_file(path, progress)
    if got != sha:
        raise CudaenvError(f"checksum mismatch for {name}: {path} has sha256 {got}, the manifest says {sha}")
    return path


def partial_path(cache: str, name: str) -> str:
    """A private scratch path ``<cache>/partial/<name>`` (for a download, a ranged member being checked)."""
    return _partial_path(cache, name)


def cached(cache: str, sha: str) -> bool:
    """Whether the download cache holds ``sha`` (the user's own file); marks it used."""
    done = cached_path(cache, sha)
    if own_file(done):
        _touch(done)
        return True
    return False


def is_sha(text: object) -> bool:
    """A sha256 as the cache names files: 64 lower-case hex digits."""
    return isinstance(text, str) and len(text) == 64 and all(ch in "0123456789abcdef" for ch in text)


def read_cache_json(path: str) -> object:
    """The JSON document the cache file ``path`` holds; None when there is none to trust or it is not JSON."""
    import json

    from ..infra.private import read_private

    data = read_private(path, MAX_DOCUMENT)
    if data is None:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def keep_file(part: str, cache: str, sha: str) -> str:
    """Move ``part``, already checked to have ``sha256`` ``sha``, to its place in the download cache."""
    done = cached_path(cache, sha)
    try:
        os.replace(part, done)
    except OSError as exc:
        raise CudaenvError(f"cannot write {done}: {exc.strerror}") from None
    return done


def _partial_path(cache: str, sha: str) -> str:
    """Where the download of ``sha`` accumulates: ``<cache>/partial/<sha>``, its directory made 0700."""
    part_dir = os.path.join(cache, "partial")
    try:
        ensure_dir(part_dir)  # 0700 whatever the umask
    except OSError as exc:
        raise CudaenvError(f"cannot create the download cache {part_dir}: {exc.strerror}") from None
    return os.path.join(part_dir, sha)


def _download_resuming(url: str, part: str, size: int | None, name: str,
                       progress: Callable[[int], None] | None, cancel: threading.Event | None) -> int:
    """Complete ``part`` from ``url``, resuming after a dropped connection up to :data:`RETRIES`
    times; return the bytes downloaded.

    Raises:
        Unreachable: the first attempt, with nothing downloaded yet, could not connect.
        CudaenvError: as :func:`_download`, or the connection kept dropping.
    """
    cap = size if size is not None else MAX_DOWNLOAD
    downloaded = 0
    last_error = ""
    for attempt in range(RETRIES + 1):
        if attempt:
            _pause(min(0.5 * attempt, 3), cancel)
        have = _partial_size(part, cap)
        if have and have == size:
            return downloaded
        try:
            got, complete = _download(url, part, have, size, cap, name, progress, cancel)
        except _Dropped as exc:  # what arrived stays: the next attempt resumes after it
            last_error = exc.message
            continue
        except Unreachable as exc:
            if attempt == 0 and not have:
                raise
            last_error = exc.message
            continue
        downloaded += got
        if complete:
            return downloaded
        last_error = "the connection closed early"
    raise CudaenvError(f"downloading {name} failed after {RETRIES + 1} attempts: {last_error}",
                       hint="run the same command again: it resumes where it stopped")


def _partial_size(part: str, cap: int) -> int:
    """The bytes of ``part`` to resume after: 0 when it is not the user's own file (it is removed
    then: never appended to) or larger than ``cap``."""
    if os.path.lexists(part) and not own_file(part):
        os.unlink(part)  # not ours (or a link): never appended to
    have = os.path.getsize(part) if os.path.exists(part) else 0
    if have > cap:
        os.unlink(part)
        have = 0
    return have


def _keep_verified(part: str, done: str, sha: str, what: str) -> None:
    """Move the finished download ``part`` to ``done`` in the cache when its sha256 is ``sha``; else delete it."""
    got = _hash_file(part)
    if got != sha:
        os.unlink(part)
        raise CudaenvError(f"checksum mismatch for {what}: sha256 {got}, expected {sha}",
                           hint="the download was deleted; if it happens again the source is corrupt")
    try:
        os.replace(part, done)
    except OSError as exc:
        raise CudaenvError(f"cannot write {done}: {exc.strerror}") from None


def _pause(seconds: float, cancel: threading.Event | None) -> None:
    if cancel is None:
        time.sleep(seconds)
    elif cancel.wait(seconds):
        raise Cancelled()


def _content_range(text: str | None) -> tuple[int | None, int | None]:
    """(first byte, total size) of ``Content-Range: bytes A-B/T`` or ``bytes */T`` (None where not said)."""
    unit, _, spec = (text or "").strip().partition(" ")
    rng, _, total = spec.partition("/")
    first = rng.partition("-")[0]

    def num(t: str) -> int | None:
        return int(t) if t.isdigit() and len(t) < 20 else None

    return (num(first) if unit == "bytes" else None), (num(total) if unit == "bytes" else None)


def _download(url: str, part: str, have: int, size: int | None, cap: int, name: str,
              progress: Callable[[int], None] | None, cancel: threading.Event | None) -> tuple[int, bool]:
    """One request: append to ``part`` (which holds ``have`` bytes); return (bytes got, complete).

    Raises:
        _Dropped: the connection broke (resume).
        CudaenvError: the answer does not fit ``size`` or ``cap``; an HTTP error; a stall.
    """
    def lies(server: int, how: str) -> CudaenvError:
        if os.path.exists(part):
            os.unlink(part)
        return CudaenvError(f"size mismatch for {name}: the source lists {size} bytes, "
                            f"the server {how} {server} ({_show(url)})")

    try:
        with _open(url, {"Range": f"bytes={have}-"} if have else None, cancel) as resp:
            if resp.status == 206:
                first, total = _content_range(resp.headers.get("Content-Range"))
                if first != have:  # not the range asked for: start over, without Range
                    if os.path.exists(part):
                        os.unlink(part)
                    raise _Dropped(f"{_show(url)}: the server answered another range than asked for")
            else:
                if have and progress:  # the server ignored Range: it sends everything again
                    progress(-have)
                have = 0
                total = resp.length()
            if total is not None:
                if size is not None and total != size:
                    raise lies(total, "says")
                if total > cap:
                    raise CudaenvError(f"{name}: {_show(url)} offers {total} bytes, more than the "
                                       f"{MAX_DOWNLOAD} taken when the source gives no size",
                                       hint="CUDAENV_INSTALL_MAX_DOWNLOAD raises the limit")
            got = 0
            pos = have
            flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_APPEND if have else os.O_TRUNC)
            with os.fdopen(os.open(part, flags, 0o600), "ab" if have else "wb") as out:
                while True:
                    block = resp.read()
                    if not block:
                        break
                    if pos + len(block) > cap:
                        if size is not None:
                            raise lies(pos + len(block), "sent at least")
                        os.unlink(part)
                        raise CudaenvError(f"{name}: {_show(url)} sent more than the {MAX_DOWNLOAD} bytes taken "
                                           "when the source gives no size",
                                           hint="CUDAENV_INSTALL_MAX_DOWNLOAD raises the limit")
                    out.write(block)
                    pos += len(block)
                    got += len(block)
                    if progress:
                        progress(len(block))
            if total is None and size is not None and pos != size:  # the whole answer (its end was clean)
                raise lies(pos, "sent")
            return got, total is None or pos == total
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # asked past the end: what we have may be all there is
            _first, total = _content_range(exc.headers.get("Content-Range") if exc.headers else None)
            if total == have:
                return 0, True
            os.unlink(part)
            raise _Dropped(f"{_show(url)}: HTTP 416 for bytes {have}- of a file of {total} bytes") from None
        raise CudaenvError(f"downloading {name} from {_show(url)}: HTTP {exc.code} {_clip(exc.reason)}") from None
    except OSError as exc:  # writing the partial file
        if exc.errno == errno.ENOSPC:
            raise _disk_full(part) from None
        raise CudaenvError(f"cannot write {part}: {exc.strerror or exc}") from None


# --------------------------------------------------------------------------- byte ranges


def read_range(url: str, start: int, length: int, total: int | None, sink: IO[bytes] | None = None,
               cancel: threading.Event | None = None) -> bytes:
    """Bytes ``start`` .. ``start + length - 1`` of the file at ``url`` (whose size is ``total``).

    The answer must be ``206`` for exactly that range of a file of ``total`` bytes, and carry
    exactly ``length`` bytes; a dropped connection resumes after what arrived (up to
    :data:`RETRIES` times). With ``sink`` the bytes are written there (and b"" returned);
    without, at most :data:`MAX_DOCUMENT` bytes are asked for.

    Raises:
        RangeRefused: the server ignores ``Range`` (``200``), answers another range or
            another file size: take the whole file instead.
        Unreachable, Cancelled, CudaenvError: as for a download.
    """
    if length <= 0:
        return b""
    if sink is None and length > MAX_DOCUMENT:
        raise CudaenvError(f"{_show(url)}: a range of {length} bytes asked for in memory")
    end = start + length  # exclusive
    at = [start]  # the position reached, also when a request breaks off
    chunks: list[bytes] = []
    last = ""
    for attempt in range(RETRIES + 1):
        if attempt:
            _pause(min(0.5 * attempt, 3), cancel)
        try:
            _one_range(url, at, end, total, chunks, sink, cancel)
        except _Dropped as exc:
            last = exc.message
            continue
        except urllib.error.HTTPError as exc:
            if exc.code in (416, 501):  # "not satisfiable", "not implemented": no ranges here
                raise RangeRefused(f"{_show(url)}: HTTP {exc.code} for a byte range") from None
            raise _http_error(_show(url), exc) from None
        if at[0] == end:
            return b"".join(chunks)
        last = "the connection closed early"
    raise CudaenvError(f"reading {_show(url)} failed after {RETRIES + 1} attempts: {last}",
                       hint="run the same command again")


def _one_range(url: str, at: list[int], end: int, total: int | None, chunks: list[bytes], sink: IO[bytes] | None,
               cancel: threading.Event | None) -> None:
    """One request for bytes ``at[0]`` .. ``end - 1``; ``at[0]`` follows what arrived."""
    pos = at[0]
    with _open(url, {"Range": f"bytes={pos}-{end - 1}", "Accept-Encoding": "identity"}, cancel) as resp:
        if resp.status != 206:
            raise RangeRefused(f"{_show(url)}: the server ignores byte ranges (HTTP {resp.status})")
        text = (resp.headers.get("Content-Range") or "").strip()
        first, size = _content_range(text)
        last_text = text.partition("-")[2].partition("/")[0]
        if first != pos or last_text != str(end - 1) or size is None or (total is not None and size != total):
            raise RangeRefused(f"{_show(url)}: asked for bytes {pos}-{end - 1}"
                               f"{f' of {total}' if total is not None else ''}, the server answered "
                               f"{_clip(text or 'no Content-Range', 80)!r}")
        if resp.headers.get("Content-Encoding", "identity").strip().lower() not in ("identity", ""):
            raise RangeRefused(f"{_show(url)}: a byte range answered with a content encoding")
        length = resp.length()
        if length is not None and length != end - pos:
            raise RangeRefused(f"{_show(url)}: a range of {end - pos} bytes answered with {length}")
        while pos < end:
            block = resp.read(min(CHUNK, end - pos))
            if not block:
                raise _Dropped(f"{_show(url)}: the answer was cut short")
            if sink is None:
                chunks.append(block)
            else:
                try:
                    sink.write(block)
                except OSError as exc:
                    if exc.errno == errno.ENOSPC:
                        raise _disk_full(getattr(sink, "name", "the download cache")) from None
                    raise CudaenvError(f"cannot write {getattr(sink, 'name', '')}: {exc.strerror or exc}") from None
            pos += len(block)
            at[0] = pos
        if resp.read(1):
            raise RangeRefused(f"{_show(url)}: the server sent more than the range asked for")
