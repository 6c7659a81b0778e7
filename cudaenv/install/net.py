"""Connections the way pip makes them: certificates, trusted hosts, proxies, credentials; and no secret shown.

:func:`configure` takes, from pip's configuration (``pipconf``) and the environment:

* the CA certificates: ``SSL_CERT_FILE``/``SSL_CERT_DIR`` when set (instead of the
  system's), plus one bundle (a PEM file or a directory) added to them, as pip's
  truststore context does: ``REQUESTS_CA_BUNDLE``/``CURL_CA_BUNDLE`` when requests
  would read them, else pip's ``cert`` (``PIP_CERT``);
* pip's ``client-cert`` (one PEM file holding the key and the certificate);
* pip's ``trusted-host`` (``host`` on any port, or ``host:port``): TLS unverified there;
* the proxy: pip's ``proxy`` option for every URL (pip then reads no proxy or CA
  variable, nor ``no_proxy``; so does ``no-proxy-env``), else
  ``https_proxy``/``http_proxy``/``all_proxy`` with ``no_proxy`` hosts direct;
  ``user:password@`` in the proxy URL is sent to the proxy;
* credentials, per ``host:port``: from any URL that carries them
  (``https://user:TOKEN@host/simple``, in an index, ``--source`` or a link), else
  from ``~/.netrc`` (``$NETRC``) by host name, as pip (through requests) does;
  after a 401, from keyring (pip's ``keyring-provider``, asked only when pip
  would: without ``no-input``, or with a provider named), once.
  They are sent only to that host, on every request (as pip does), and never
  follow a redirect to another one.

URLs handed to the rest of cudaenv carry no credentials (:func:`remember`,
:func:`split_auth`); every message that may hold a URL or a server's words
goes through :func:`redact`: ``user:pass@`` becomes ``user:****@`` (a lone
token ``****@``), as pip shows them, and any password or token cudaenv knows
is replaced by ``****`` wherever it appears.
"""

from __future__ import annotations

import base64
import http.client
import ipaddress
import json
import netrc
import os
import ssl
import stat
import threading
import urllib.request
from posixpath import commonpath
from urllib.parse import unquote

from ..env.pathlist import which
from ..errors import CudaenvError
from ..host.pyenv import locate
from ..infra.run import run
from .credentials import add_secret, host_name, netloc_split, redact, split_auth
from .pipconf import pip_indexes, pip_options, site_prefix, truthy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from email.message import Message
    from typing import IO, Any, Mapping

    from .types import Credential

    #: netrc's host -> (login, account, password).
    NetrcHosts = dict[str, tuple[str, str | None, str | None]]

__all__ = ["configure", "settings", "add_credentials", "remember", "opener", "tls_reason"]

#: Seconds a keyring command may take (a backend may talk to a cloud service).
KEYRING_TIMEOUT = 60

_LOCK = threading.RLock()
_STATE: dict[str, Settings | None] = {"settings": None}


class Settings:
    """What every connection of this process uses (see the module's text)."""

    def __init__(self, env: Mapping[str, str], options: Mapping[str, str]) -> None:
        self.cafile = env.get("SSL_CERT_FILE") or None
        self.capath = env.get("SSL_CERT_DIR") or None
        proxy = options.get("proxy", "").strip()
        # pip's `proxy` or `no-proxy-env` turn requests' trust_env off: no proxy, no_proxy or CA bundle
        # variables are read then (pip/_internal/cli/index_command.py, _build_session).
        trust_env = not proxy and not truthy(options.get("no-proxy-env", ""))
        bundle = (env.get("REQUESTS_CA_BUNDLE") or env.get("CURL_CA_BUNDLE")) if trust_env else None
        self.cert = bundle or options.get("cert") or None  # requests' variable beats pip's cert
        self.client_cert = options.get("client-cert") or None
        self.trusted = [t.lower() for t in options.get("trusted-host", "").split()]
        proxies: dict[str, str] = {}
        if proxy:
            proxies = {"http": proxy, "https": proxy}
        elif trust_env:
            every = env.get("all_proxy") or env.get("ALL_PROXY")
            for scheme in ("http", "https"):
                # An upper-case HTTP_PROXY in a CGI request is the client's header (httpoxy): as urllib does.
                upper = "" if scheme == "http" and "REQUEST_METHOD" in env else env.get(scheme.upper() + "_PROXY")
                value = env.get(scheme + "_proxy") or upper or every
                if value:
                    proxies[scheme] = value
        self.proxies = proxies
        for value in proxies.values():
            parts = netloc_split(value if "://" in value else "http://" + value)
            if parts and parts[1] is not None:
                user, colon, password = parts[1].partition(":")
                add_secret(unquote(password) if colon else unquote(user))
        self.no_proxy = (env.get("no_proxy") or env.get("NO_PROXY") or "") if trust_env else ""
        home = env.get("HOME") or os.path.expanduser("~")
        named = env.get("NETRC")
        places = [named] if named is not None else [os.path.join(home, ".netrc"), os.path.join(home, "_netrc")]
        self.netrc = next((p for p in places if p and os.path.exists(p)), None)
        self.creds: dict[str, Credential] = {}
        self._contexts: dict[bool, ssl.SSLContext] = {}
        self._netrc_hosts: NetrcHosts | None = None
        # Keyring, as pip asks it after a 401: when pip may prompt (no `no-input`) or a provider is named.
        provider = options.get("keyring-provider", "auto").strip().lower()
        self.keyring_provider = provider if (not truthy(options.get("no-input", "")) or
                                             provider not in ("auto", "disabled")) else "disabled"
        self.env = dict(env)
        self.indexes: list[str] = []  # index URLs (no credentials): keyring's service names
        self._keyring_cmd: list[str] | None = None

    def trusts(self, netloc: str) -> bool:
        """``netloc`` is a trusted host (``name`` on any port, or ``name:port``): its certificate is not checked."""
        netloc = netloc.lower()
        return netloc in self.trusted or host_name(netloc) in self.trusted

    def secure_origin(self, url: str) -> bool:
        """pip's ``is_secure_origin`` for an index or find-links location: https, file, a loopback
        host (``localhost``, 127.0.0.0/8, ::1) or a trusted host; pip ignores any other."""
        parts = netloc_split(url)
        if parts is None:
            return True  # a path
        scheme = parts[0][:-3].rsplit("+", 1)[-1].lower()
        netloc = parts[2].lower()
        host = host_name(netloc)
        port = netloc.rsplit(":", 1)[1] if ":" in netloc.rsplit("]", 1)[-1] else None
        if scheme in ("https", "file", "ssh") or host == "localhost":
            return True
        try:
            addr = ipaddress.ip_address(host)
        except ValueError:
            addr = None
        if addr is not None and (addr in ipaddress.ip_network("127.0.0.0/8") or addr == ipaddress.ip_address("::1")):
            return True
        for trusted in self.trusted:
            t_host, t_port = host_name(trusted), None
            if ":" in trusted.rsplit("]", 1)[-1]:
                t_port = trusted.rsplit(":", 1)[-1]
            try:
                network = ipaddress.ip_network(t_host) if addr is not None else None
            except ValueError:
                network = None
            same = addr in network if network is not None else t_host == host
            if same and (t_port is None or t_port == port):
                return True
        return False

    def context(self, verify: bool = True) -> ssl.SSLContext:
        """The ``ssl.SSLContext`` for a verified (or a trusted host's) connection.

        Raises:
            CudaenvError: a CA bundle or client certificate that cannot be loaded.
        """
        with _LOCK:
            ctx = self._contexts.get(verify)
        if ctx is not None:
            return ctx
        what = ""
        try:
            if not verify:
                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                ctx.check_hostname = False
                ctx.verify_mode = ssl.CERT_NONE
            elif self.cafile or self.capath:
                what = f"SSL_CERT_FILE/SSL_CERT_DIR ({self.cafile or self.capath})"
                ctx = ssl.create_default_context(cafile=self.cafile, capath=self.capath)
            else:
                ctx = ssl.create_default_context()
            if verify and self.cert:
                what = f"pip's cert {self.cert}"
                if os.path.isdir(self.cert):
                    ctx.load_verify_locations(capath=self.cert)
                else:
                    ctx.load_verify_locations(cafile=self.cert)
            if self.client_cert:
                what = f"pip's client-cert {self.client_cert}"
                # An encrypted key would make OpenSSL ask for its passphrase on the terminal.
                ctx.load_cert_chain(self.client_cert, password=lambda: b"")
        except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
            why = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or str(exc)
            if isinstance(exc, ssl.SSLError):
                why = f"not a usable PEM file ({exc.reason or exc})"
            raise CudaenvError(redact(f"{what}: {why}"),
                               hint="fix pip's configuration (pip config debug shows where it is set)",
                               exit_code=2) from None
        with _LOCK:
            self._contexts[verify] = ctx
        return ctx

    def credentials(self, netloc: str) -> tuple[str, str] | None:
        """(user, password) to send to ``netloc`` (``host[:port]``) first: from a URL, else from netrc."""
        with _LOCK:
            cred = self.creds.get(netloc.lower())
        if cred is not None and cred[1] is not None:
            return cred[0], cred[1]
        # A user name alone (a token) yields to netrc, as in pip's _get_new_credentials.
        found = self._from_netrc(netloc)
        if found is None and cred is not None:
            return cred[0], ""
        return found

    def keyring(self, url: str, user: str | None) -> tuple[str, str] | None:
        """(user, password) keyring holds for ``url``'s index, else for its ``host:port`` (pip's order).

        The keyring of the environment whose pip runs (``python -m keyring``) for pip's
        ``import``/``auto`` providers, else the ``keyring`` command on PATH (``subprocess``,
        ``auto``); nothing with ``disabled``. Each is asked with a timeout.
        """
        cmd = self._keyring_command()
        if not cmd:
            return None
        bare, netloc, _ = split_auth(url)
        services = []
        index = self.index_for(bare)
        if index:
            services.append(index)
        services.append(netloc)
        for service in services:
            found = _keyring_get(cmd, service, user, self.env)
            if found:
                add_secret(found[1])
                return found
        return None

    def index_for(self, url: str) -> str | None:
        """The index ``url`` belongs to, ``/``-terminated (pip's ``_get_index_url``): same host, longest common path."""
        parts = netloc_split(url)
        if parts is None:
            return None
        best, best_len = None, -1
        for index in self.indexes:
            ip = netloc_split(index.rstrip("/") + "/")
            if ip is None or ip[2].lower() != parts[2].lower() or ip[0] != parts[0]:
                continue
            path = parts[3].split("?", 1)[0] or "/"
            n = len(commonpath([path, ip[3] or "/"]))
            if n > best_len:
                best, best_len = index.rstrip("/") + "/", n
        return best

    def _keyring_command(self) -> list[str] | None:
        with _LOCK:
            if self._keyring_cmd is not None:
                return self._keyring_cmd or None
        cmd: list[str] = []
        if self.keyring_provider in ("import", "auto"):
            pyenv = locate(self.env)
            if pyenv and any(os.path.isdir(os.path.join(d, "keyring")) for d in pyenv["site"]):
                cmd = [pyenv["python"], "-m", "keyring"]
        if not cmd and self.keyring_provider in ("subprocess", "auto"):
            found = which("keyring", self.env.get("PATH"))
            cmd = [found] if found else []
        with _LOCK:
            self._keyring_cmd = cmd
        return cmd or None

    def _from_netrc(self, netloc: str) -> tuple[str, str] | None:
        if self.netrc is None:
            return None
        host = host_name(netloc.lower())
        with _LOCK:
            if self._netrc_hosts is None:
                self._netrc_hosts = _read_netrc(self.netrc)
            table = self._netrc_hosts
        entry = table.get(host) or table.get("default")
        if not entry:
            return None
        login, account, password = entry
        return (login or account or ""), password or ""


def _read_netrc(path: str) -> NetrcHosts:
    """host -> (login, account, password) of a netrc file; {} when it cannot be read (as requests does)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block netrc's open
            return {}
        hosts: NetrcHosts = dict(netrc.netrc(path).hosts)
    except (OSError, netrc.NetrcParseError, UnicodeDecodeError):
        return {}
    for _login, account, password in hosts.values():
        add_secret(password)
    return hosts


def _keyring_get(cmd: list[str], service: str, user: str | None, env: Mapping[str, str]) -> tuple[str, str] | None:
    """``keyring --mode=creds --output=json get SERVICE [USER]``, as pip's subprocess provider runs it."""
    res = run([*cmd, "--mode=creds", "--output=json", "get", service, *([user] if user else [])],
              env=dict(env, PYTHONIOENCODING="utf-8"), timeout=KEYRING_TIMEOUT)
    if res.returncode != 0:
        return None
    try:
        data = json.loads(res.stdout)
        user_found, password = data["username"], data["password"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(user_found, str) or not isinstance(password, str):
        return None
    return user_found, password


def configure(env: Mapping[str, str], options: Mapping[str, str] | None = None) -> Settings:
    """Set up this process's connections from ``env`` and pip's configuration (read here when not given)."""
    opts = pip_options(env, site_prefix(env)) if options is None else options
    s = Settings(env, opts)
    indexes = pip_indexes(env, opts)
    s.indexes = [u for u in indexes["index"] if "://" in u]
    for netloc, cred in indexes["auth"].items():
        s.creds.setdefault(netloc, cred)
        add_secret(cred[1] if cred[1] is not None else cred[0])
    with _LOCK:
        _STATE["settings"] = s
    return s


def settings() -> Settings:
    """The settings :func:`configure` made (made from ``os.environ`` the first time when it was not called)."""
    with _LOCK:
        s = _STATE["settings"]
    return s if s is not None else configure(os.environ)


def add_credentials(netloc: str, cred: Credential) -> None:
    """Send ``cred`` (user, password or None) to ``netloc`` (``host[:port]``), unless it has some already."""
    add_secret(cred[1] if cred[1] is not None else cred[0])
    s = settings()
    with _LOCK:
        s.creds.setdefault(netloc.lower(), cred)


def remember(url: str) -> str:
    """``url`` without credentials; those it carried are kept for its host (as pip keeps them)."""
    bare, netloc, cred = split_auth(url)
    if cred is not None:
        add_credentials(netloc, cred)
    return bare


def tls_reason(exc: BaseException) -> str | None:
    """A certificate failure said in words with what to do, or None when ``exc`` is not one."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"certificate verify failed: {exc.verify_message or exc.reason} (a private CA goes in "
                "pip's cert=, PIP_CERT or SSL_CERT_FILE; trusted-host skips the check)")
    return None


def opener(*handlers: urllib.request.BaseHandler,
           https_connection: type[http.client.HTTPSConnection] | None = None) -> urllib.request.OpenerDirector:
    """A ``urllib`` opener with this process's certificates, proxies and credentials (and ``handlers``).

    ``https_connection``: the ``http.client.HTTPSConnection`` (sub)class to connect with
    (fetch's tells its watchdog the socket)."""
    s = settings()

    def origin(req: urllib.request.Request) -> str:
        """The request's own ``host[:port]`` (``req.host`` is the proxy's once a proxy is chosen)."""
        parts = netloc_split(req.full_url)
        return parts[2] if parts else (req.host or "")

    class Retry(urllib.request.Request):
        """A request sent again with keyring's credentials after a 401 (keyring is asked once)."""

    class Auth(urllib.request.BaseHandler):
        def http_request(self, req: urllib.request.Request) -> urllib.request.Request:
            cred = s.credentials(origin(req))
            if cred is not None:
                token = base64.b64encode(f"{cred[0]}:{cred[1]}".encode()).decode("ascii")
                # Unredirected: a redirect to another host gets no copy of it (this handler decides again there).
                req.add_unredirected_header("Authorization", f"Basic {token}")
            return req

        https_request = http_request

        def http_error_401(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                           headers: Message) -> Any:
            """pip's handle_401 without the prompt: ask keyring once, then send the request again."""
            if isinstance(req, Retry):
                return None
            with _LOCK:
                sent = s.creds.get(origin(req).lower())
            found = s.keyring(req.full_url, sent[0] if sent else None)
            if found is None or (sent is not None and (sent[0], sent[1] or "") == found):
                return None
            with _LOCK:
                s.creds[origin(req).lower()] = found
            fp.close()
            again = Retry(req.full_url, headers=dict(req.header_items()), method=req.get_method())
            again.remove_header("Authorization")
            return self.parent.open(again, timeout=req.timeout)

    class HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(https_connection or http.client.HTTPSConnection, req,
                                context=s.context(verify=not s.trusts(origin(req))))

    class Proxy(urllib.request.ProxyHandler):
        """urllib's proxy_open without its own bypass test, which reads os.environ's no_proxy whatever pip says."""

        def proxy_open(self, req: urllib.request.Request, proxy: str, type: str) -> Any:  # noqa: A002 - urllib's name
            # proxy_bypass_environment: urllib's own rule, undocumented (so not in the type stubs)
            bypass = urllib.request.proxy_bypass_environment  # type: ignore[attr-defined]
            if s.no_proxy and bypass(origin(req), {"no": s.no_proxy}):
                return None
            parts = netloc_split(proxy if "://" in proxy else "http://" + proxy)
            if parts is None:
                return None
            scheme, userinfo, hostport, _rest = parts
            if userinfo is not None:
                user, _, password = userinfo.partition(":")
                token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
                # Unredirected: a redirect that goes direct (no_proxy) must not carry it to a server.
                req.add_unredirected_header("Proxy-Authorization", f"Basic {token}")
            orig = req.type
            req.set_proxy(unquote(hostport), scheme[:-3])
            if orig == scheme[:-3] or orig == "https":
                return None  # the next handler opens it, through the proxy (a CONNECT tunnel for https)
            return self.parent.open(req, timeout=req.timeout)

    return urllib.request.build_opener(Proxy(dict(s.proxies)), HTTPS(), Auth(), *handlers)
