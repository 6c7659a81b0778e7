"""Credentials in URLs, and the one rule for showing text that may hold them: never a secret.

:func:`split_auth` takes ``user:password@`` out of a URL (as pip's
``split_auth_netloc_from_url`` does); :func:`redact` masks, in any text, every
URL's credentials (``user:****@``, a lone token ``****@``, as pip shows them)
and every password or token :func:`add_secret` was told of, wherever it
appears (a server may echo what it was sent).
"""

from __future__ import annotations

import re
import threading
from urllib.parse import quote, unquote

__all__ = ["split_auth", "netloc_split", "redact", "add_secret", "host_name", "MIN_SECRET"]

#: Secrets shorter than this are replaced only inside URLs (a 2-letter password would garble every message).
MIN_SECRET = 6

_LOCK = threading.Lock()
_SECRETS: set[str] = set()


def netloc_split(url: str) -> tuple[str, str | None, str, str] | None:
    """(``scheme://``, userinfo or None, ``host[:port]``, the rest) of ``url``; None without ``scheme://``."""
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme or "/" in scheme:
        return None
    ends = [i for i in (rest.find(c) for c in "/?#") if i >= 0]
    end = min(ends) if ends else len(rest)
    userinfo, at, host = rest[:end].rpartition("@")
    return scheme + sep, userinfo if at else None, host, rest[end:]


def host_name(netloc: str) -> str:
    """``host[:port]`` without the port (``[v6]`` without the brackets)."""
    if netloc.startswith("["):
        return netloc[1:].split("]", 1)[0]
    return netloc.split(":", 1)[0] if netloc.count(":") == 1 else netloc


def split_auth(url: str) -> tuple[str, str, tuple[str, str | None] | None]:
    """(``url`` without credentials, its ``host[:port]`` in lower case, (user, password or None) or None)."""
    parts = netloc_split(url)
    if parts is None:
        return url, "", None
    scheme, userinfo, host, rest = parts
    if userinfo is None:
        return url, host.lower(), None
    user, colon, password = userinfo.partition(":")
    return scheme + host + rest, host.lower(), (unquote(user), unquote(password) if colon else None)


def redact(text: str) -> str:
    """``text`` with every URL's credentials and every secret cudaenv knows masked."""
    text = re.sub(r"([A-Za-z][A-Za-z0-9+.\-]*://)([^\s/?#]*)@",
                  lambda m: m.group(1) + (m.group(2).split(":", 1)[0] + ":****" if ":" in m.group(2) else "****")
                  + "@", text)
    with _LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for s in secrets:
        text = text.replace(s, "****")
    return text


def add_secret(value: str | None) -> None:
    """From now on, :func:`redact` masks ``value`` (and its URL-quoted forms) wherever it appears."""
    if value and len(value) >= MIN_SECRET:
        with _LOCK:
            _SECRETS.update({value, quote(value, safe=""), quote(value)})
