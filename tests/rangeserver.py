"""A package index on 127.0.0.1 that answers HTTP byte ranges, as PyPI's file host does.

``http.server`` does not do ``Range`` by itself: :class:`Handler` does (one range per request,
``206`` with ``Content-Range``), and each file can be switched to misbehave: ignore ranges
(``200`` with the whole file), answer another range than asked, or say another total size.
Pages are PEP 691 JSON with each file's sha256 and size (what PyPI serves).

It also builds wheels shaped like NVIDIA's CUDA 13 wheels (``nvidia/cu13/...`` plus a
dist-info with a real RECORD), and the ``cuda-toolkit`` meta-wheel that pins them.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import json
import os
import threading
import zipfile

RT = ("nvidia-cuda-runtime", "13.5.37")
BLAS = ("nvidia-cublas", "13.5.1.2")
TAG = "py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64"

#: cuBLAS's headers in the test wheel (what `--parts build` takes from it).
BLAS_HEADERS = {"nvidia/cu13/include/cublas_v2.h": b"#include \"cublas_api.h\"\n" * 50,
                "nvidia/cu13/include/cublas_api.h": b"/* cublas api */\n" * 400,
                "nvidia/cu13/include/cublasLt.h": b"/* lt */\n"}


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def wheel_bytes(dist: str, version: str, files: dict[str, bytes], metadata: str = "", tag: str = TAG,
                record_edit=None, zip64: bool = False) -> bytes:
    """A wheel (deflated) with a RECORD listing every member's sha256 (``record_edit`` may change it)."""
    info = f"{dist.replace('-', '_')}-{version}.dist-info"
    members = dict(files)
    members[f"{info}/METADATA"] = (metadata or f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n").encode()
    members[f"{info}/WHEEL"] = f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: {tag}\n".encode()
    record = "".join(record_line(n, d) for n, d in members.items()) + f"{info}/RECORD,,\n"
    if record_edit:
        record = record_edit(record)
    members[f"{info}/RECORD"] = record.encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            zi = zipfile.ZipInfo(name, (2026, 11, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = (0o755 if "/bin/" in name else 0o644) << 16
            if zip64:
                with z.open(zi, "w", force_zip64=True) as f:
                    f.write(data)
            else:
                z.writestr(zi, data)
    return buf.getvalue()


def wheel_name(dist: str, version: str, tag: str = TAG) -> str:
    return f"{dist.replace('-', '_')}-{version}-{tag}.whl"


def meta_wheel(version: str = "13.5.0", pins: dict[str, tuple[str, str]] | None = None) -> tuple[str, bytes]:
    """The cuda-toolkit meta-wheel: extra -> (distribution, version) pinned."""
    pins = pins or {"cudart": RT, "cublas": BLAS}
    lines = [f"Metadata-Version: 2.1\nName: cuda-toolkit\nVersion: {version}"]
    for extra in pins:
        lines.append(f"Provides-Extra: {extra}")
    for extra, (dist, v) in pins.items():
        lines.append(f"Requires-Dist: {dist}=={v}.*; extra == '{extra}'")
    meta = "\n".join(lines) + "\n\n"
    tag = "py2.py3-none-any"
    return wheel_name("cuda-toolkit", version, tag), wheel_bytes("cuda-toolkit", version, {}, meta, tag)


def standard_wheels(blas_lib: int = 2 << 20, **blas_kw) -> dict[str, bytes]:
    """File name -> bytes: the meta-wheel, a runtime wheel, a cuBLAS wheel whose library is
    ``blas_lib`` incompressible bytes beside its headers."""
    out = dict([meta_wheel()])
    out[wheel_name(*RT)] = wheel_bytes(*RT, {"nvidia/__init__.py": b"",
                                             "nvidia/cu13/lib/libcudart.so.13": b"\x7fELF runtime\n",
                                             "nvidia/cu13/include/cuda_runtime_api.h": b"#define CUDART_VERSION 13050\n"})
    files = dict(BLAS_HEADERS)
    files["nvidia/cu13/lib/libcublas.so.13"] = os.urandom(blas_lib)
    files["nvidia/cu13/lib/libcublasLt.so.13"] = os.urandom(blas_lib // 2)
    out[wheel_name(*BLAS)] = wheel_bytes(*BLAS, files, **blas_kw)
    return out


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def _send(self, code: int, body: bytes, headers: dict | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        srv = self.server
        parts = self.path.split("?")[0].strip("/").split("/")
        rng = self.headers.get("Range")
        with srv.lock:
            srv.requests.append((self.path, rng))
        if srv.down.is_set():
            self.close_connection = True
            self.connection.close()
            return
        if len(parts) == 2 and parts[0] == "simple":
            files = []
            for fn, data in sorted(srv.files.items()):
                if fn.split("-")[0].replace("_", "-") == parts[1]:
                    files.append({"filename": fn, "url": f"/files/{fn}", "size": len(data),
                                  "hashes": {"sha256": hashlib.sha256(data).hexdigest()}})
            if not files:
                self._send(404, b"not found")
                return
            body = json.dumps({"meta": {"api-version": "1.0"}, "name": parts[1], "files": files}).encode()
            self._send(200, body, {"Content-Type": "application/vnd.pypi.simple.v1+json"})
            return
        if len(parts) == 2 and parts[0] == "files" and parts[1] in srv.files:
            data = srv.files[parts[1]]
            how = srv.behaviour.get(parts[1], "ranges")
            if rng and how != "ignore" and rng.startswith("bytes="):
                a, _, b = rng[6:].partition("-")
                start = int(a)
                end = min(int(b), len(data) - 1) if b else len(data) - 1
                total = len(data)
                if how == "shifted":
                    start, end = start + 1, end + 1
                elif how == "total":
                    total += 1
                body = data[start:end + 1]
                with srv.lock:
                    srv.sent[parts[1]] = srv.sent.get(parts[1], 0) + len(body)
                self._send(206, body, {"Content-Range": f"bytes {start}-{end}/{total}"})
                return
            with srv.lock:
                srv.sent[parts[1]] = srv.sent.get(parts[1], 0) + len(data)
            self._send(200, data, {"Content-Type": "application/octet-stream"})
            return
        self._send(404, b"not found")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def serve(files: dict[str, bytes]) -> Server:
    """Start the index for ``files`` (file name -> bytes) on 127.0.0.1; ``srv.index`` is its simple URL."""
    srv = Server(("127.0.0.1", 0), Handler)
    srv.files = dict(files)
    srv.behaviour = {}  # file name -> "ranges" | "ignore" | "shifted" | "total"
    srv.sent = {}  # file name -> body bytes sent
    srv.requests = []
    srv.lock = threading.Lock()
    srv.down = threading.Event()  # set: every request is dropped unanswered
    srv.index = f"http://127.0.0.1:{srv.server_address[1]}/simple"
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def stop(srv: Server) -> None:
    srv.shutdown()
    srv.server_close()
