"""`cudaenv install` against private indexes the way pip users configure them: real servers, real TLS.

A PEP 503 index on 127.0.0.1 (started here, in a thread) that requires basic
auth serves small wheels shaped like NVIDIA's (the ``cuda-toolkit`` meta-wheel
whose extras pin ``nvidia-cuda-runtime``, which carries ``nvidia/cu13/lib``),
over HTTP or over TLS with a CA made here by the ``openssl`` command. pip's
configuration comes from real ``pip.conf`` files and ``PIP_*`` variables; its
precedence is compared with what pip itself (its own option parser, in the
environment whose ``pip.conf`` it reads) makes of the same files.

Whatever fails (a wrong password, a host that is down, a certificate nobody
trusts, a 404, a server that echoes the token back), the token must appear on
no output: stdout, stderr, ``--json``, nor the installed tree's record.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import urllib.request
import zipfile

import pytest

from helpers import REPO

TOKEN = "tok-9f2Kq7ZsW1xYv3"  # what must never be printed
USER = "ci-bot"
RUNTIME = "nvidia_cuda_runtime"
RT_VERSION = "13.5.37"


# --- wheels shaped like NVIDIA's -------------------------------------------------------------

def _wheel(directory: str, dist: str, version: str, tag: str, files: dict[str, bytes], meta: str = "") -> str:
    fn = f"{dist}-{version}-{tag}.whl"
    di = f"{dist}-{version}.dist-info"
    with zipfile.ZipFile(os.path.join(directory, fn), "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
        z.writestr(f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\n"
                                     f"Version: {version}\n{meta}\nA description.\n")
        z.writestr(f"{di}/WHEEL", f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: {tag}\n")
        z.writestr(f"{di}/RECORD", "")
    return fn


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory) -> str:
    """``cuda_toolkit`` 13.5.0 (extra ``cudart``) and the ``nvidia_cuda_runtime`` wheel it pins."""
    d = str(tmp_path_factory.mktemp("wheels"))
    marker = ("(sys_platform == 'linux' and platform_machine == 'x86_64' or sys_platform == 'win32' "
              "and platform_machine == 'AMD64') and extra == 'cudart'")
    _wheel(d, "cuda_toolkit", "13.5.0", "py3-none-any", {},
           f"Provides-Extra: cudart\nRequires-Dist: nvidia-cuda-runtime=={RT_VERSION}.*; {marker}")
    _wheel(d, RUNTIME, RT_VERSION, "py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64",
           {"nvidia/__init__.py": b"", "nvidia/cu13/lib/libcudart.so.13": b"\x7fELF not really\n",
            "nvidia/cu13/include/cuda_runtime_api.h": b"#define CUDART_VERSION 13050\n"})
    return d


# --- the index server ----------------------------------------------------------------------

class Index(http.server.BaseHTTPRequestHandler):
    """``/simple/<project>/`` pages and ``/files/<wheel>``; every path wants ``USER:TOKEN``."""

    protocol_version = "HTTP/1.0"

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(self, code: int, body: bytes, ctype: str = "text/html", reason: str | None = None,
              headers: dict | None = None) -> None:
        self.send_response(code, reason)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        srv = self.server
        srv.log.append((self.path, self.headers.get("Authorization"), self.headers.get("Host")))
        srv.proxy_auth_seen.append(self.headers.get("Proxy-Authorization"))
        want = "Basic " + base64.b64encode(f"{USER}:{TOKEN}".encode()).decode()
        if srv.auth and self.headers.get("Authorization") != want:
            got = self.headers.get("Authorization") or ""
            # A hostile server may say back what it was sent: the client must still not print it.
            reason = f"Unauthorized {base64.b64decode(got[6:]).decode(errors='replace')}" \
                if srv.echo and got.startswith("Basic ") else "Unauthorized"
            self._send(401, b"no", reason=reason, headers={"WWW-Authenticate": 'Basic realm="idx"'})
            return
        if srv.redirect_files and self.path.startswith("/files/"):
            self._send(302, b"", headers={"Location": srv.redirect_files + self.path})
            return
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 2 and parts[0] == "simple":
            links = []
            for fn in sorted(os.listdir(srv.wheels)):
                name = fn.split("-")[0].replace("_", "-")
                if name == parts[1]:
                    sha = hashlib.sha256(open(os.path.join(srv.wheels, fn), "rb").read()).hexdigest()
                    links.append(f'<a href="{srv.files_base}/files/{fn}#sha256={sha}">{fn}</a>')
            if not links:
                self._send(404, b"not found")
                return
            self._send(200, ("<html><body>" + "\n".join(links) + "</body></html>").encode())
            return
        if len(parts) == 2 and parts[0] == "files" and os.path.isfile(os.path.join(srv.wheels, parts[1])):
            self._send(200, open(os.path.join(srv.wheels, parts[1]), "rb").read(), "application/octet-stream")
            return
        self._send(404, b"not found")


class Server(http.server.ThreadingHTTPServer):
    """TLS (when ``tls`` is set) handshakes in the request's own thread: a client that gives up cannot stall it."""

    daemon_threads = True
    tls: ssl.SSLContext | None = None

    def finish_request(self, request, client_address) -> None:
        if self.tls is not None:
            try:
                request = self.tls.wrap_socket(request, server_side=True)
            except (OSError, ValueError):
                return
        super().finish_request(request, client_address)


def _serve(wheels: str, tls: ssl.SSLContext | None = None, auth: bool = True, host: str = "127.0.0.1"):
    srv = Server((host, 0), Index)
    srv.wheels, srv.log, srv.auth, srv.echo, srv.redirect_files = wheels, [], auth, False, ""
    srv.proxy_auth_seen = []
    srv.tls = tls
    port = srv.server_address[1]
    srv.hostport = f"{host}:{port}"
    srv.base = f"{'https' if tls else 'http'}://{host}:{port}"
    srv.files_base = ""  # links relative to the host: /files/...
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    return srv


@pytest.fixture
def index(wheelhouse):
    srv = _serve(wheelhouse)
    yield srv
    srv.shutdown()
    srv.server_close()


# --- certificates --------------------------------------------------------------------------

def _openssl(*args: str, cwd: str) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    """A CA of its own, a server certificate for 127.0.0.1/localhost, a client certificate (key + cert in one PEM)."""
    if not shutil.which("openssl"):
        pytest.fail("the openssl command is part of this machine kind (apt-get install openssl)")
    d = str(tmp_path_factory.mktemp("pki"))
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
             "-days", "2", "-subj", "/CN=cudaenv test CA", cwd=d)
    with open(os.path.join(d, "san.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n")
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
             "-subj", "/CN=localhost", cwd=d)
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.pem", "-days", "2", "-extfile", "san.cnf", cwd=d)
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client.key", "-out", "client.csr",
             "-subj", "/CN=cudaenv client", cwd=d)
    _openssl("x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "client.crt", "-days", "2", cwd=d)
    with open(os.path.join(d, "client.pem"), "w") as f:
        f.write(open(os.path.join(d, "client.key")).read() + open(os.path.join(d, "client.crt")).read())
    return {k: os.path.join(d, v) for k, v in
            (("dir", ""), ("ca", "ca.pem"), ("cert", "server.pem"), ("key", "server.key"), ("client", "client.pem"))}


def _tls(pki: dict, client_ca: bool = False) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki["cert"], pki["key"])
    if client_ca:
        ctx.verify_mode = ssl.CERT_REQUIRED
        ctx.load_verify_locations(pki["ca"])
    return ctx


@pytest.fixture
def tls_index(wheelhouse, pki):
    srv = _serve(wheelhouse, _tls(pki))
    yield srv
    srv.shutdown()
    srv.server_close()


# --- running cudaenv -----------------------------------------------------------------------

def _env(tmp_path, conf: str | None = None, **extra: str) -> dict:
    """An environment with its own HOME, no inherited pip settings, and ``conf`` as PIP_CONFIG_FILE."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PIP_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
           and k not in ("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NETRC",
                         "VIRTUAL_ENV")}
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), XDG_CONFIG_DIRS=str(tmp_path / "no-xdg"), XDG_DATA_HOME=str(tmp_path / "data"),
               CUDAENV_INSTALL_CACHE=str(tmp_path / "dl"), PYTHONPATH=REPO)
    env.pop("CUDAENV_ROOTS", None)
    if conf is not None:
        path = tmp_path / "pip.conf"
        path.write_text(conf)
        env["PIP_CONFIG_FILE"] = str(path)
    env.update(extra)
    return env


def _cudaenv(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def _no_secret(res: subprocess.CompletedProcess, *more: str) -> None:
    for text in (res.stdout, res.stderr, *more):
        assert TOKEN not in text, text
        assert base64.b64encode(f"{USER}:{TOKEN}".encode()).decode() not in text, text


def _one_line_failure(res: subprocess.CompletedProcess) -> None:
    assert res.returncode != 0, res.stderr
    assert res.stdout == ""
    assert len(res.stderr.splitlines()) == 1, res.stderr
    assert "Traceback" not in res.stderr


def _list(env: dict, *more: str) -> subprocess.CompletedProcess:
    return _cudaenv(["install", "--list", "--source", "pypi", *more], env)


def _tree_text(root) -> str:
    out = []
    for dp, _dn, fns in os.walk(root):
        for fn in fns:
            p = os.path.join(dp, fn)
            if os.path.isfile(p) and not os.path.islink(p):
                out.append(open(p, "rb").read().decode("utf-8", "replace"))
    return "\n".join(out)


# --- credentials in the index URL ------------------------------------------------------------

def test_token_in_the_index_url_is_sent_and_never_shown(tmp_path, index):
    """`https://user:TOKEN@host/simple`, as pip users write it: today "unreachable" with the token on stderr."""
    env = _env(tmp_path, f"[global]\nindex-url = http://{USER}:{TOKEN}@{index.hostport}/simple\n")
    res = _list(env)
    assert res.returncode == 0, res.stderr
    assert "13.5.0" in res.stdout and "PyPI" in res.stdout
    _no_secret(res)
    js = _list(env, "--json")
    assert js.returncode == 0 and json.loads(js.stdout)["versions"][0]["version"] == "13.5.0"
    _no_secret(js)
    # The token travelled in the Authorization header, never in a request line.
    assert index.log and all(auth and path.startswith(("/simple/", "/files/")) for path, auth, _h in index.log)
    assert not any(TOKEN in path for path, _a, _h in index.log)

    prefix = tmp_path / "cuda"
    res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix", str(prefix)], env)
    assert res.returncode == 0, res.stderr
    assert (prefix / "lib" / "libcudart.so.13").exists()
    _no_secret(res, _tree_text(prefix), _tree_text(tmp_path / "dl"))


def test_a_lone_token_as_user_name_and_percent_encoded_passwords(tmp_path, index, wheelhouse):
    """`https://TOKEN@host/` (GitLab, Artifactory) is user TOKEN, empty password; `p%40ss` is `p@ss`."""
    index.auth = False
    env = _env(tmp_path, f"[global]\nindex-url = http://{TOKEN}@{index.hostport}/simple\n")
    res = _list(env)
    assert res.returncode == 0, res.stderr
    _no_secret(res)
    assert index.log[0][1] == "Basic " + base64.b64encode(f"{TOKEN}:".encode()).decode()
    index.log.clear()
    res = _list(_env(tmp_path, f"[global]\nindex-url = http://u%3Ax:p%40ss%2Fw0rd!@{index.hostport}/simple\n"))
    assert res.returncode == 0, res.stderr
    assert index.log[0][1] == "Basic " + base64.b64encode(b"u:x:p@ss/w0rd!").decode()
    assert "p%40ss" not in res.stderr + res.stdout and "p@ss" not in res.stderr + res.stdout


@pytest.mark.parametrize("mode", ["wrong-password", "unreachable", "404", "echoed-back", "tls-untrusted"])
def test_no_failure_prints_the_token(tmp_path, index, tls_index, mode):
    """Each way it fails is one line on stderr, nothing on stdout, and the token nowhere."""
    host, scheme, path = index.hostport, "http", "simple"
    password = TOKEN
    if mode == "wrong-password":
        password = TOKEN + "-wrong"
    elif mode == "unreachable":
        with socket.socket() as s:  # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            host = f"127.0.0.1:{s.getsockname()[1]}"
    elif mode == "404":
        path = "nothing/here/simple"
    elif mode == "echoed-back":
        index.echo = True
        password = TOKEN + "-wrong"
    else:
        host, scheme = tls_index.hostport, "https"
    url = f"{scheme}://{USER}:{password}@{host}/{path}"
    env = _env(tmp_path, f"[global]\nindex-url = {url}\n")
    for args in (["install", "--list", "--source", "pypi"], ["install", "--list", "--json", "--source", "pypi"],
                 ["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix", str(tmp_path / "c")]):
        res = _cudaenv(args, env)
        _no_secret(res)
        if mode == "404" and "--list" in args:  # an index without the project offers nothing, as for pip
            assert res.returncode == 0 and "13.5" not in res.stdout, res.stderr
            continue
        _one_line_failure(res)
        assert password not in res.stderr
        if mode == "wrong-password":
            assert "HTTP 401" in res.stderr
        if mode == "tls-untrusted":
            assert "certificate verify failed" in res.stderr
        assert host in res.stderr or mode == "404", res.stderr  # which index failed
    assert not (tmp_path / "c").exists()


def test_a_url_source_with_credentials(tmp_path, index):
    """`--source https://user:TOKEN@mirror/`: the credentials are used, the label shows none."""
    env = _env(tmp_path)
    res = _cudaenv(["install", "--list", "--source", f"http://{USER}:{TOKEN}@{index.hostport}/nothing/"], env)
    _one_line_failure(res)
    _no_secret(res)
    assert f"http://{USER}:****@{index.hostport}/nothing" in res.stderr or \
        f"http://{index.hostport}/nothing" in res.stderr, res.stderr
    assert index.log and index.log[0][1] is not None  # it was sent


def test_credentials_go_to_their_host_only_not_to_files_elsewhere_nor_through_redirects(tmp_path, index, wheelhouse):
    """pip keys credentials by host:port: wheels on another host (or a redirect there) get no Authorization."""
    files = _serve(wheelhouse, auth=False, host="localhost")
    try:
        index.files_base = files.base  # links to files on another host:port
        env = _env(tmp_path, f"[global]\nindex-url = http://{USER}:{TOKEN}@{index.hostport}/simple\n")
        prefix = tmp_path / "cuda"
        res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix", str(prefix)], env)
        assert res.returncode == 0, res.stderr
        assert files.log and all(auth is None for _p, auth, _h in files.log), files.log
        # Now the index host answers /files/ with a redirect to the other host.
        index.files_base, index.redirect_files = "", files.base
        files.log.clear()
        res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--force", "--prefix",
                        str(prefix)], dict(env, CUDAENV_INSTALL_CACHE=str(tmp_path / "dl2")))
        assert res.returncode == 0, res.stderr
        assert files.log and all(auth is None for _p, auth, _h in files.log), files.log
        _no_secret(res)
    finally:
        files.shutdown()
        files.server_close()


# --- netrc -------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["home", "NETRC"])
def test_netrc_credentials(tmp_path, index, where):
    """No credentials in the URL: ~/.netrc (or the file $NETRC names) gives them by host name, as requests does."""
    env = _env(tmp_path, f"[global]\nindex-url = http://{index.hostport}/simple\n")
    text = f"machine 127.0.0.1\n  login {USER}\n  password {TOKEN}\n"
    if where == "home":
        path = tmp_path / "home" / ".netrc"
    else:
        path = tmp_path / "elsewhere.netrc"
        env["NETRC"] = str(path)
    res = _list(env)
    _one_line_failure(res)  # without it: 401, one line
    assert "HTTP 401" in res.stderr
    path.write_text(text)
    path.chmod(0o600)
    res = _list(env)
    assert res.returncode == 0, res.stderr
    assert "13.5.0" in res.stdout
    _no_secret(res)


def test_a_netrc_that_is_a_fifo_does_not_hang(tmp_path, index):
    env = _env(tmp_path, f"[global]\nindex-url = http://{index.hostport}/simple\n")
    os.mkfifo(tmp_path / "home" / ".netrc")
    res = _list(env)
    _one_line_failure(res)
    assert "HTTP 401" in res.stderr


# --- TLS with a CA of one's own ------------------------------------------------------------------

@pytest.mark.parametrize("how", ["cert-in-pip-conf", "PIP_CERT", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
                                 "trusted-host"])
def test_tls_index_with_its_own_ca(tmp_path, tls_index, pki, how):
    """Without the CA: one line saying why; with it (any of pip's ways, or OpenSSL's variables): it works."""
    conf = f"[global]\nindex-url = https://{USER}:{TOKEN}@{tls_index.hostport}/simple\n"
    res = _list(_env(tmp_path, conf))
    _one_line_failure(res)
    assert "certificate verify failed" in res.stderr
    _no_secret(res)
    extra: dict = {}
    if how == "cert-in-pip-conf":
        conf += f"cert = {pki['ca']}\n"
    elif how == "PIP_CERT":
        extra["PIP_CERT"] = pki["ca"]
    elif how in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
        extra[how] = pki["ca"]
    elif how == "SSL_CERT_DIR":
        d = tmp_path / "certs"
        d.mkdir()
        subject_hash = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", pki["ca"]], capture_output=True,
                                      text=True, check=True).stdout.strip()
        shutil.copy(pki["ca"], d / f"{subject_hash}.0")
        extra["SSL_CERT_DIR"] = str(d)
    else:
        conf += "trusted-host = 127.0.0.1\n"
    env = _env(tmp_path, conf, **extra)
    res = _list(env)
    assert res.returncode == 0, res.stderr
    assert "13.5.0" in res.stdout
    _no_secret(res)
    prefix = tmp_path / "cuda"
    res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix", str(prefix)], env)
    assert res.returncode == 0, res.stderr
    _no_secret(res)


def test_trusted_host_with_a_port_trusts_only_that_port(tmp_path, tls_index):
    port = int(tls_index.hostport.rsplit(":", 1)[1])
    base = f"[global]\nindex-url = https://{tls_index.hostport}/simple\n"
    tls_index.auth = False
    assert _list(_env(tmp_path, base + f"trusted-host = 127.0.0.1:{port}\n")).returncode == 0
    res = _list(_env(tmp_path, base + f"trusted-host = 127.0.0.1:{port + 1}\n"))
    _one_line_failure(res)
    assert "certificate verify failed" in res.stderr


def test_client_certificate(tmp_path, wheelhouse, pki):
    """An index that wants a client certificate: pip's client-cert (key + certificate in one PEM)."""
    srv = _serve(wheelhouse, _tls(pki, client_ca=True), auth=False)
    try:
        conf = f"[global]\nindex-url = https://{srv.hostport}/simple\ncert = {pki['ca']}\n"
        res = _list(_env(tmp_path, conf))
        _one_line_failure(res)
        res = _list(_env(tmp_path, conf + f"client-cert = {pki['client']}\n"))
        assert res.returncode == 0, res.stderr
        assert "13.5.0" in res.stdout
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("bad", ["missing", "not-pem", "directory-of-nothing"])
def test_a_bad_cert_setting_is_one_line(tmp_path, tls_index, bad):
    target = {"missing": str(tmp_path / "nope.pem"), "not-pem": str(tmp_path / "junk.pem"),
              "directory-of-nothing": str(tmp_path / "emptydir")}[bad]
    (tmp_path / "junk.pem").write_text("-----BEGIN CERTIFICATE-----\nnot base64 at all\n")
    (tmp_path / "emptydir").mkdir()
    env = _env(tmp_path, f"[global]\nindex-url = https://{USER}:{TOKEN}@{tls_index.hostport}/simple\n",
               PIP_CERT=target)
    res = _list(env)
    _one_line_failure(res)
    _no_secret(res)


# --- proxies ------------------------------------------------------------------------------------

class Proxy(http.server.BaseHTTPRequestHandler):
    """A forward proxy for plain HTTP (absolute-form request lines), wanting its own credentials."""

    protocol_version = "HTTP/1.0"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        srv = self.server
        srv.log.append((self.path, self.headers.get("Proxy-Authorization"), self.headers.get("Authorization")))
        want = "Basic " + base64.b64encode(b"px:" + srv.password.encode()).decode()
        if self.headers.get("Proxy-Authorization") != want:
            self.send_response(407)
            self.send_header("Proxy-Authenticate", 'Basic realm="p"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        import http.client
        from urllib.parse import urlsplit

        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-authorization", "connection")}
        u = urlsplit(self.path)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)  # answers passed on as they are
        conn.request("GET", u.path + (f"?{u.query}" if u.query else ""), headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() not in ("content-length", "connection", "transfer-encoding", "server", "date"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        conn.close()


    def do_CONNECT(self) -> None:  # noqa: N802 - a tunnel for https: bytes both ways, unread
        srv = self.server
        srv.log.append(("CONNECT " + self.path, self.headers.get("Proxy-Authorization"), None))
        want = "Basic " + base64.b64encode(b"px:" + srv.password.encode()).decode()
        if self.headers.get("Proxy-Authorization") != want:
            self.send_response(407)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        host, port = self.path.rsplit(":", 1)
        upstream = socket.create_connection((host, int(port)), timeout=30)
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()

        def pump(src, dst) -> None:
            try:
                while data := src.recv(65536):
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                for sock in (src, dst):
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        back = threading.Thread(target=pump, args=(upstream, self.connection), daemon=True)
        back.start()
        pump(self.connection, upstream)
        back.join(30)
        upstream.close()


@pytest.fixture
def proxy():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    srv.daemon_threads = True
    srv.log, srv.password = [], "proxy-pw-" + TOKEN[-6:] + "x"
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    srv.url = f"http://px:{srv.password}@127.0.0.1:{srv.server_address[1]}"
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("how", ["pip-proxy-option", "http_proxy"])
def test_proxy_is_used_and_no_proxy_goes_direct(tmp_path, index, proxy, how):
    conf = f"[global]\nindex-url = http://{USER}:{TOKEN}@{index.hostport}/simple\n"
    extra = {}
    if how == "pip-proxy-option":
        conf += f"proxy = {proxy.url}\n"
    else:
        extra["http_proxy"] = proxy.url
    res = _list(_env(tmp_path, conf, **extra))
    assert res.returncode == 0, res.stderr
    assert proxy.log and proxy.log[0][0].startswith(f"http://{index.hostport}/simple/")
    assert proxy.password not in res.stderr + res.stdout
    _no_secret(res)
    proxy.log.clear()
    res = _list(_env(tmp_path, conf, no_proxy="127.0.0.1", **extra))
    assert res.returncode == 0, res.stderr
    # pip's own proxy option turns requests' trust_env off: no_proxy is not read then.
    assert bool(proxy.log) == (how == "pip-proxy-option")
    proxy.password = "changed-" + proxy.password  # the proxy now refuses: 407, one line, no password shown
    res = _list(_env(tmp_path, conf, **extra))
    _one_line_failure(res)
    assert "407" in res.stderr and "px:****@" not in res.stdout
    assert proxy.password[len("changed-"):] not in res.stderr


# --- which pip.conf counts: the same as pip ---------------------------------------------------------

PIP_PROBE = """
import json, sys
from pip._internal.commands import create_command
opts, _ = create_command("install").parse_args([])
print(json.dumps({"index-url": opts.index_url, "extra-index-url": opts.extra_index_urls,
                  "find-links": opts.find_links, "cert": opts.cert, "trusted-host": opts.trusted_hosts,
                  "proxy": opts.proxy, "prefix": sys.prefix}))
"""

# (file, text) sets: each key says where a value came from, so the winner is visible.
LAYOUTS = {
    "global-user-site": {"xdg/pip/pip.conf": "[global]\nindex-url = https://global/simple\ncert = /g.pem\n",
                         "home/.pip/pip.conf": "[global]\nindex-url = https://legacy-user/simple\n",
                         "home/.config/pip/pip.conf": "[global]\nindex-url = https://user/simple\nproxy = user:3128\n",
                         "venv/pip.conf": "[global]\nindex-url = https://site/simple\n"},
    "install-section-beats-global-of-a-later-file": {
        "xdg/pip/pip.conf": "[install]\nindex-url = https://global-install/simple\n",
        "home/.config/pip/pip.conf": "[global]\nindex-url = https://user-global/simple\n"
                                     "extra-index-url = https://x1/simple\n  https://x2/simple\n",
        "venv/pip.conf": "[global]\ntrusted-host = a.example\n  b.example:8443\n"},
    "PIP_CONFIG_FILE-drops-user-keeps-site": {
        "home/.config/pip/pip.conf": "[global]\nindex-url = https://user/simple\nfind-links = /user/wheels\n",
        "venv/pip.conf": "[global]\nindex-url = https://site/simple\ncert = /site.pem\n",
        "named.conf": "[global]\nindex-url = https://named/simple\n", "@PIP_CONFIG_FILE": "named.conf"},
    "PIP_CONFIG_FILE-missing-keeps-user": {
        "home/.config/pip/pip.conf": "[global]\nfind-links = /user/wheels\n",
        "@PIP_CONFIG_FILE": "no-such.conf"},
    "devnull-turns-files-off": {
        "venv/pip.conf": "[global]\nindex-url = https://site/simple\n",
        "home/.config/pip/pip.conf": "[global]\nindex-url = https://user/simple\n",
        "@PIP_CONFIG_FILE": os.devnull, "@PIP_TRUSTED_HOST": "env.example"},
    "env-vars-beat-install-sections": {
        "venv/pip.conf": "[install]\nindex-url = https://site-install/simple\nno-index = false\n",
        "@PIP_INDEX_URL": "https://env/simple", "@PIP_EXTRA_INDEX_URL": "https://e1/simple https://e2/simple",
        "@PIP_CERT": "/env.pem"},
    "empty-values-are-no-values": {
        "home/.config/pip/pip.conf": "[global]\nindex-url = https://user/simple\ncert = /user.pem\n",
        "venv/pip.conf": "[global]\nindex-url =\n", "@PIP_CERT": ""},
}


@pytest.fixture(scope="module")
def probe_venv(tmp_path_factory) -> str:
    """A venv without its own pip that sees this Python's pip: pip runs with sys.prefix = the venv."""
    d = tmp_path_factory.mktemp("pv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(d)], check=True,
                   timeout=120)
    res = subprocess.run([str(d / "bin" / "python3"), "-c", "import pip"], capture_output=True)
    if res.returncode:
        pytest.fail(f"pip is needed to compare with ({sys.executable} has none)")
    return str(d)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_pip_configuration_precedence_is_pips_own(tmp_path, probe_venv, layout):
    """What pipconf reads equals what pip's own option parser makes of the same files and variables."""
    from cudaenv.install import pipconf

    venv = tmp_path / "venv"
    shutil.copytree(probe_venv, venv, symlinks=True)
    env = {"PATH": f"{venv}/bin:/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "XDG_CONFIG_DIRS": str(tmp_path / "xdg"), "XDG_CONFIG_HOME": "", "LANG": "C.UTF-8"}
    (tmp_path / "home").mkdir()
    for rel, text in LAYOUTS[layout].items():
        if rel.startswith("@"):
            env[rel[1:]] = text if rel != "@PIP_CONFIG_FILE" or text == os.devnull else str(tmp_path / text)
            continue
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    res = subprocess.run([str(venv / "bin" / "python3"), "-c", PIP_PROBE], env=env, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    pip = json.loads(res.stdout)
    assert pip["prefix"] == str(venv)
    assert pipconf.site_prefix(env) == str(venv)
    opts = pipconf.pip_options(env, pipconf.site_prefix(env))
    idx = pipconf.pip_indexes(env)
    assert idx["index"][0] == (pip["index-url"] or pipconf.DEFAULT_INDEX).rstrip("/")
    assert idx["index"][1:] == pip["extra-index-url"]
    assert idx["find_links"] == pip["find-links"]
    assert opts.get("cert") == pip["cert"]
    assert opts.get("trusted-host", "").split() == pip["trusted-host"]
    assert (opts.get("proxy") or "") == (pip["proxy"] or "")


def test_https_index_through_a_connect_proxy(tmp_path, tls_index, pki, proxy):
    """https through a proxy is a CONNECT tunnel: the proxy sees host:port, not the credentials inside."""
    conf = f"[global]\nindex-url = https://{USER}:{TOKEN}@{tls_index.hostport}/simple\ncert = {pki['ca']}\n"
    res = _list(_env(tmp_path, conf, https_proxy=proxy.url))
    assert res.returncode == 0, res.stderr
    assert "13.5.0" in res.stdout
    assert proxy.log and all(p == f"CONNECT {tls_index.hostport}" and auth for p, auth, _a in proxy.log), proxy.log
    assert tls_index.log and all(auth for _p, auth, _h in tls_index.log)
    _no_secret(res)


def test_a_download_refused_on_another_host_is_one_line_without_the_token(tmp_path, index, wheelhouse):
    """Pages on the index host, wheels on a host that also wants credentials (never sent there): 401, one line."""
    files = _serve(wheelhouse, auth=True, host="localhost")
    files.echo = True
    try:
        index.files_base = files.base
        env = _env(tmp_path, f"[global]\nindex-url = http://{USER}:{TOKEN}@{index.hostport}/simple\n")
        res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix",
                        str(tmp_path / "c")], env)
        _one_line_failure(res)
        assert "HTTP 401" in res.stderr and files.hostport in res.stderr
        _no_secret(res)
        assert files.log and all(auth is None for _p, auth, _h in files.log)
        assert not (tmp_path / "c").exists()
    finally:
        files.shutdown()
        files.server_close()


@pytest.mark.parametrize("text, shown", [
    ("https://u:pw@h/simple", "https://u:****@h/simple"),
    ("https://tok@h:8443/x", "https://****@h:8443/x"),
    ("http://u:p@ss@h/", "http://u:****@h/"),  # an unencoded @ in the password: the last @ ends it
    ("at http://a:b@h1/ and https://c@h2/?q=d@e#f@g", "at http://a:****@h1/ and https://****@h2/?q=d@e#f@g"),
    ("git+https://u:p@[::1]:9/p", "git+https://u:****@[::1]:9/p"),
    ("no scheme user:pw@host", "no scheme user:pw@host"),
    ("https://h/path@v1", "https://h/path@v1"),
])
def test_redact_masks_credentials_in_any_text(text, shown):
    from cudaenv.install.credentials import redact

    assert redact(text) == shown


def test_split_auth_and_known_secrets():
    from cudaenv.install.credentials import add_secret, redact, split_auth

    assert split_auth("https://u%3Ax:p%40ss@Host.Example:8443/simple") == \
        ("https://Host.Example:8443/simple", "host.example:8443", ("u:x", "p@ss"))
    assert split_auth("https://tok@h/") == ("https://h/", "h", ("tok", None))
    assert split_auth("/local/dir") == ("/local/dir", "", None)
    add_secret("s3cr3t/+value")
    # A secret cudaenv knows is masked wherever it appears, raw or percent-encoded.
    assert redact("HTTP 401 Unauthorized s3cr3t/+value") == "HTTP 401 Unauthorized ****"
    assert redact("x=s3cr3t%2F%2Bvalue") == "x=****"
    add_secret("abc")  # too short to mask outside URLs: it would garble every message
    assert redact("abc") == "abc"


# --- keyring (the real keyring CLI from PyPI, tests/keyring.sh; a file backend written here) ----------

KEYRING_BACKEND = '''
import json, os
from keyring.backend import KeyringBackend
from keyring.credentials import SimpleCredential


class FileKeyring(KeyringBackend):
    """Passwords in the JSON file $TEST_KEYRING_FILE: {service: {user: password}}; each lookup logged."""

    priority = 1

    def _table(self):
        with open(os.environ["TEST_KEYRING_FILE"]) as f:
            return json.load(f)

    def _log(self, service, username):
        with open(os.environ["TEST_KEYRING_FILE"] + ".log", "a") as f:
            f.write(json.dumps([service, username]) + "\\n")

    def get_password(self, service, username):
        self._log(service, username)
        return self._table().get(service, {}).get(username)

    def get_credential(self, service, username):
        self._log(service, username)
        users = self._table().get(service, {})
        if username is None and users:
            username = sorted(users)[0]
        return SimpleCredential(username, users[username]) if username in users else None

    def set_password(self, service, username, password):
        raise NotImplementedError

    def delete_password(self, service, username):
        raise NotImplementedError
'''


@pytest.fixture
def keyring_env(tmp_path):
    from conftest import TESTBED
    from helpers import setup_missing

    venv = os.path.join(TESTBED, "venv-keyring")
    if not os.path.isfile(os.path.join(venv, ".cudaenv-complete")):
        setup_missing(f"{venv} missing: run bash tests/keyring.sh")
    d = tmp_path / "kr"
    d.mkdir()
    (d / "filekr.py").write_text(KEYRING_BACKEND)
    table = d / "keyring.json"
    table.write_text("{}")

    def make(conf: str, entries: dict, **extra: str) -> dict:
        table.write_text(json.dumps(entries))
        env = _env(tmp_path, conf, **extra)
        env.update(PATH=f"{venv}/bin:{env['PATH']}", PYTHON_KEYRING_BACKEND="filekr.FileKeyring",
                   PYTHONPATH=f"{REPO}:{d}", TEST_KEYRING_FILE=str(table))
        return env

    make.log = lambda: [json.loads(x) for x in open(str(table) + ".log")] if os.path.exists(str(table) + ".log") \
        else []
    return make


@pytest.mark.parametrize("service", ["index", "netloc"])
def test_keyring_after_a_401_as_pip_asks_it(tmp_path, index, keyring_env, service):
    """No credentials anywhere else: after the 401, keyring for the index URL, then for host:port (pip's order)."""
    name = f"http://{index.hostport}/simple/" if service == "index" else index.hostport
    conf = f"[global]\nindex-url = http://{index.hostport}/simple\n"
    env = keyring_env(conf, {name: {USER: TOKEN}})
    res = _list(env)
    assert res.returncode == 0, res.stderr
    assert "13.5.0" in res.stdout
    _no_secret(res)
    asked = [s for s, _u in keyring_env.log()]
    assert asked[0] == f"http://{index.hostport}/simple/"
    assert (index.log[0][1], index.log[1][1]) == (None, "Basic " + base64.b64encode(f"{USER}:{TOKEN}".encode())
                                                  .decode())
    # The credentials found are kept for the host: one 401 in all, one keyring lookup per service tried.
    assert sum(1 for _p, auth, _h in index.log if auth is None) == 1
    prefix = tmp_path / "cuda"
    res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix", str(prefix)], env)
    assert res.returncode == 0, res.stderr
    _no_secret(res)


@pytest.mark.parametrize("setting, asked", [
    ({}, True),                                                          # pip may prompt: keyring (auto)
    ({"PIP_NO_INPUT": "1"}, False),                                      # --no-input: not with auto
    ({"PIP_NO_INPUT": "1", "PIP_KEYRING_PROVIDER": "subprocess"}, True),  # a provider named: asked
    ({"PIP_KEYRING_PROVIDER": "disabled"}, False),
])
def test_keyring_is_asked_only_when_pip_would(tmp_path, index, keyring_env, setting, asked):
    conf = f"[global]\nindex-url = http://{index.hostport}/simple\n"
    env = keyring_env(conf, {index.hostport: {USER: TOKEN}}, **setting)
    res = _list(env)
    _no_secret(res)
    assert bool(keyring_env.log()) == asked
    if asked:
        assert res.returncode == 0, res.stderr
    else:
        _one_line_failure(res)
        assert "HTTP 401" in res.stderr


def test_a_wrong_keyring_password_is_tried_once_and_not_shown(tmp_path, index, keyring_env):
    conf = f"[global]\nindex-url = http://{index.hostport}/simple\n"
    wrong = TOKEN + "-old"
    env = keyring_env(conf, {index.hostport: {USER: wrong}})
    res = _list(env)
    _one_line_failure(res)
    assert "HTTP 401" in res.stderr and wrong not in res.stderr
    assert len([1 for _p, auth, _h in index.log if auth]) == 1  # retried once with keyring's, no loop


def _outward_address() -> str | None:
    """This machine's own non-loopback IPv4 address (no packet is sent), or None."""
    for probe in ("10.255.255.255", "8.8.8.8"):  # a UDP connect only picks the route
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))
                addr = s.getsockname()[0]
            except OSError:
                continue
        if not addr.startswith("127.") and addr != "0.0.0.0":
            return addr
    return None


def test_plain_http_index_on_another_host_is_ignored_as_pip_does_unless_trusted(tmp_path, wheelhouse):
    """pip ignores an http:// index that is neither loopback nor a trusted host: the token never crosses the wire."""
    addr = _outward_address()
    if addr is None:
        pytest.skip("no non-loopback address on this machine")
    srv = _serve(wheelhouse, host=addr)
    try:
        conf = f"[global]\nindex-url = http://{USER}:{TOKEN}@{srv.hostport}/simple\n"
        res = _list(_env(tmp_path, conf))
        _one_line_failure(res)
        assert "neither HTTPS nor a trusted host" in res.stderr and f"trusted-host = {addr}" in res.stderr
        _no_secret(res)
        assert srv.log == []  # nothing was sent
        res = _list(_env(tmp_path, conf + f"trusted-host = {addr}\n"))
        assert res.returncode == 0, res.stderr
        assert "13.5.0" in res.stdout
        _no_secret(res)
    finally:
        srv.shutdown()
        srv.server_close()


def test_proxy_credentials_do_not_follow_a_redirect_that_goes_direct(tmp_path, index, wheelhouse, proxy):
    """The index (through the proxy) redirects the wheels to a no_proxy host: no Proxy-Authorization reaches it."""
    files = _serve(wheelhouse, auth=False, host="localhost")
    try:
        index.redirect_files = files.base
        conf = f"[global]\nindex-url = http://{USER}:{TOKEN}@{index.hostport}/simple\n"
        env = _env(tmp_path, conf, http_proxy=proxy.url, no_proxy="localhost")
        res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix",
                        str(tmp_path / "c")], env)
        assert res.returncode == 0, res.stderr
        assert any(p.startswith(f"http://{index.hostport}/files/") for p, _a, _b in proxy.log)
        assert files.log and files.proxy_auth_seen == [None] * len(files.log)
        assert all(auth is None for _p, auth, _h in files.log)
        _no_secret(res)
    finally:
        files.shutdown()
        files.server_close()


def test_find_links_pages_with_credentials_and_no_index(tmp_path, index):
    """find-links URLs carry credentials the same way; with no-index they are all there is."""
    base = f"http://{USER}:{TOKEN}@{index.hostport}/simple"
    env = _env(tmp_path, f"[global]\nno-index = true\nfind-links = {base}/cuda-toolkit/\n"
                         f"  {base}/nvidia-cuda-runtime/\n")
    res = _list(env)
    assert res.returncode == 0, res.stderr
    assert "13.5.0" in res.stdout
    prefix = tmp_path / "cuda"
    res = _cudaenv(["install", "13.5", "--parts", "runtime", "--source", "pypi", "--prefix", str(prefix)], env)
    assert res.returncode == 0, res.stderr
    _no_secret(res, _tree_text(prefix))
    assert all(auth for _p, auth, _h in index.log)
