"""Reading URLs and downloading files: resumable, verified by sha256, cached by sha256.

A download goes to ``<cache>/partial/<sha256>`` and, once its sha256 matches,
is renamed to ``<cache>/<sha256>``: a later install of any version that needs
the same file reads it from there. A dropped connection resumes where it
stopped (HTTP ``Range``); a server that ignores ``Range`` sends the whole file
again, which is then started over. Local files (a mirror directory, a
``file://`` index) are read in place and checked, never copied.
"""

from __future__ import annotations

import errno
import hashlib
import os
import time

from ..errors import CudaenvError
from ..infra.files import read_limited

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

__all__ = ["Unreachable", "is_local", "local_path", "join_url", "read_url", "fetch_file", "cached_path",
           "CHUNK", "RETRIES", "MAX_DOCUMENT"]

#: Bytes read per step (also the unit of progress reports).
CHUNK = 1 << 20
#: Attempts per file after a dropped connection (each resumes where the last stopped).
RETRIES = 5
#: Seconds a connection may stay silent before it counts as dropped.
TIMEOUT = 60
#: The largest document :func:`read_url` reads (NVIDIA's manifests are ~100 KiB, a big simple-index page a few MiB).
MAX_DOCUMENT = 64 << 20


class Unreachable(CudaenvError):
    """A source could not be reached at all (DNS, refused, timed out): try the next one."""


def is_local(url: str) -> bool:
    """A plain path or a ``file://`` URL."""
    return url.startswith("file://") or "://" not in url


def local_path(url: str) -> str:
    """The filesystem path of a local ``url``."""
    if url.startswith("file://"):
        from urllib.parse import unquote, urlsplit

        return unquote(urlsplit(url).path)
    return url


def join_url(base: str, rel: str) -> str:
    """``rel`` relative to the directory ``base`` (a URL or a path)."""
    if "://" in rel:
        return rel
    if is_local(base) and not base.startswith("file://"):
        return os.path.normpath(os.path.join(base, rel))
    from urllib.parse import urljoin

    return urljoin(base if base.endswith("/") else base + "/", rel)


def _why(exc: BaseException) -> str:
    from .credentials import redact
    from .net import tls_reason

    reason = getattr(exc, "reason", None)
    if reason is not None and not isinstance(reason, str):
        exc = reason
    why = tls_reason(exc) or getattr(exc, "strerror", None) or str(getattr(exc, "reason", "") or exc) \
        or exc.__class__.__name__
    return redact(why)


def _connection(*handlers):
    """The connection set-up, all of it in net.py: the CA certificates (pip's ``cert``,
    ``SSL_CERT_FILE``), pip's ``client-cert`` and ``trusted-host``, the proxy, and
    credentials per host (from the URLs, netrc), never sent to another host.
    ``handlers``: more ``urllib`` handlers for the opener (they replace a default of their class)."""
    from .net import opener

    return opener(*handlers)


def _open(url: str, headers: dict | None = None, timeout: float = TIMEOUT):
    import urllib.request

    from .net import remember

    # remember: credentials written in the URL go to the Authorization header, not the request line.
    req = urllib.request.Request(remember(url), headers={"User-Agent": "cudaenv", **(headers or {})})
    return _connection().open(req, timeout=timeout)


def _shown(url: str) -> str:
    """``url`` as a message may show it: without a password or token."""
    from .credentials import redact

    return redact(url)


def read_url(url: str, accept: str | None = None, timeout: float = 10, missing_ok: bool = False) -> bytes | None:
    """The body of a small document (a manifest, an index page).

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
    import urllib.error

    try:
        with _open(url, {"Accept": accept} if accept else None, timeout) as resp:
            data = resp.read(MAX_DOCUMENT + 1)
            if len(data) > MAX_DOCUMENT:
                raise CudaenvError(f"{_shown(url)}: larger than {MAX_DOCUMENT >> 20} MiB; "
                                   "not a manifest or an index page")
            return data
    except urllib.error.HTTPError as exc:
        if exc.code == 404 and missing_ok:
            return None
        raise _http_error(_shown(url), exc) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise Unreachable(f"{_shown(url)}: {_why(exc)}") from None


def _http_error(what: str, exc) -> CudaenvError:
    """An HTTP error status in one line (the server's reason phrase is its own words: masked too)."""
    from .credentials import redact

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
               progress: Callable[[int], None] | None = None, name: str = "") -> tuple[str, int]:
    """Make the file at ``url`` with ``sha256`` available locally; return (path, bytes downloaded).

    Args:
        url: Where it is (http(s), file:// or a path).
        sha256: Its published sha256 (lower or upper case).
        size: Its published size, if known (a file larger than that is refused early).
        cache: The download cache directory.
        progress: Called with the number of new bytes as they arrive (a restart
            after a server ignored ``Range`` reports a negative number first).
        name: How to call the file in messages.

    Raises:
        CudaenvError: checksum mismatch, an HTTP error, a full disk, or the
            connection kept dropping.
    """
    sha = sha256.lower()
    name = name or url.rsplit("/", 1)[-1]
    if is_local(url):
        path = local_path(url)
        if not os.path.isfile(path):
            raise CudaenvError(f"{name}: {path} does not exist")
        got = _hash_file(path, progress)
        if got != sha:
            raise CudaenvError(f"checksum mismatch for {name}: {path} has sha256 {got}, the manifest says {sha}")
        return path, 0
    done = cached_path(cache, sha)
    if os.path.isfile(done):
        if progress:
            progress(os.path.getsize(done))
        return done, 0
    part_dir = os.path.join(cache, "partial")
    try:
        os.makedirs(part_dir, exist_ok=True)
    except OSError as exc:
        raise CudaenvError(f"cannot create the download cache {part_dir}: {exc.strerror}") from None
    part = os.path.join(part_dir, sha)
    import urllib.error

    downloaded = 0
    last_error = ""
    for attempt in range(RETRIES + 1):
        if attempt:
            time.sleep(min(0.5 * attempt, 3))
        have = os.path.getsize(part) if os.path.exists(part) else 0
        if size is not None and have > size:
            os.unlink(part)
            have = 0
        if have and size is not None and have == size:
            break
        headers = {"Range": f"bytes={have}-"} if have else {}
        try:
            with _open(url, headers) as resp:
                status = getattr(resp, "status", 200)
                if have and status != 206:
                    # The server ignored Range: it sends everything again.
                    if progress:
                        progress(-have)
                    have = 0
                with open(part, "ab" if have else "wb") as out:
                    while True:
                        block = resp.read(CHUNK)
                        if not block:
                            break
                        out.write(block)
                        downloaded += len(block)
                        if progress:
                            progress(len(block))
                        if size is not None and out.tell() > size:
                            break
            if size is None or os.path.getsize(part) >= size:
                break
            last_error = "connection closed early"
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and have:  # asked past the end: what we have may be complete
                break
            raise _http_error(f"downloading {name} from {_shown(url)}", exc) from None
        except OSError as exc:
            if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                raise _disk_full(part) from None
            last_error = _why(exc)
            if isinstance(exc, urllib.error.URLError) and attempt == 0 and not have:
                raise Unreachable(f"{_shown(url)}: {last_error}") from None
    else:
        raise CudaenvError(f"downloading {name} from {_shown(url)} failed after {RETRIES + 1} attempts: {last_error}",
                           hint="run the same command again: it resumes where it stopped")
    got = _hash_file(part)
    if got != sha:
        os.unlink(part)
        raise CudaenvError(f"checksum mismatch for {name} from {_shown(url)}: sha256 {got}, expected {sha}",
                           hint="the download was deleted; if it happens again the source is corrupt")
    try:
        os.replace(part, done)
    except OSError as exc:
        raise CudaenvError(f"cannot write {done}: {exc.strerror}") from None
    return done, downloaded
