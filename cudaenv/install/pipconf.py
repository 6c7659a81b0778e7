"""pip's configuration, read the way ``pip install`` reads it (pip 23-26, ``pip/_internal/configuration.py``).

Files, later overriding earlier (``Configuration.iter_config_files``):

1. *global*: ``<d>/pip/pip.conf`` for every absolute ``d`` in ``$XDG_CONFIG_DIRS``
   (default ``/etc/xdg``), then ``/etc/pip.conf``;
2. *user*: ``~/.pip/pip.conf``, then ``$XDG_CONFIG_HOME/pip/pip.conf`` (default
   ``~/.config``) -- skipped when ``PIP_CONFIG_FILE`` names a file that exists;
3. *site*: ``<prefix>/pip.conf`` of the environment whose ``pip`` runs (the
   ``python3`` on ``PATH``: a venv, a conda env, the system's);
4. the file ``PIP_CONFIG_FILE`` names; ``os.devnull`` there turns every file off.

Then ``PIP_*`` variables. Sections are ranked apart from files
(``ConfigOptionParser._get_ordered_configuration_items``): ``[global]`` of any
file < ``[install]`` of any file < a ``PIP_*`` variable; an empty value is no value.
Empty or relative ``XDG_*`` entries are ignored, as pip's platformdirs does.
"""

from __future__ import annotations

import configparser
import os

from ..host.pyenv import locate
from ..infra.files import read_limited
from .credentials import split_auth

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .types import Credential, Indexes

__all__ = ["DEFAULT_INDEX", "pip_config_files", "pip_options", "pip_indexes", "site_prefix", "truthy"]

DEFAULT_INDEX = "https://pypi.org/simple"
#: The pip command whose section applies after [global] (cudaenv installs).
COMMAND = "install"
_ENV_IGNORED = ("version", "help")


def _abs_dirs(value: str | None) -> list[str]:
    return [p.strip() for p in (value or "").split(":") if p.strip().startswith("/")]


def site_prefix(env: Mapping[str, str]) -> str | None:
    """``sys.prefix`` of the Python whose ``pip`` the user runs: the ``python3`` on ``env``'s PATH."""
    found = locate(env)
    return found["prefix"] if found else None


def pip_config_files(env: Mapping[str, str], prefix: str | None = None) -> list[str]:
    """pip's configuration files for ``env``, lowest precedence first (the site file in ``prefix``)."""
    named = env.get("PIP_CONFIG_FILE")
    if named == os.devnull:
        return []
    files = [os.path.join(d, "pip", "pip.conf") for d in (_abs_dirs(env.get("XDG_CONFIG_DIRS")) or ["/etc/xdg"])]
    files.append("/etc/pip.conf")
    if not (named and os.path.exists(named)):
        home = env.get("HOME") or os.path.expanduser("~")
        xdg = env.get("XDG_CONFIG_HOME", "").strip()
        xdg = xdg if xdg.startswith("/") else os.path.join(home, ".config")
        files += [os.path.join(home, ".pip", "pip.conf"), os.path.join(xdg, "pip", "pip.conf")]
    if prefix:
        files.append(os.path.join(prefix, "pip.conf"))
    if named:
        files.append(named)
    return files


def truthy(value: str) -> bool:
    """pip's ``strtobool`` (an unknown word is false here, an error in pip)."""
    return value.strip().lower() in ("1", "y", "yes", "t", "true", "on")


def pip_options(env: Mapping[str, str], prefix: str | None = None) -> dict[str, str]:
    """Every option ``pip install`` would take from files and ``PIP_*`` variables: name -> value.

    A file that cannot be read or parsed is skipped (pip stops with an error).
    """
    ranked: dict[str, dict[str, str]] = {"global": {}, COMMAND: {}, ":env:": {}}
    for path in pip_config_files(env, prefix):
        parser = configparser.RawConfigParser()
        try:
            # Not parser.read(path): it would block on a FIFO and read a device without end.
            parser.read_string(read_limited(path, 1 << 20).decode("utf-8"), source=path)
        except (configparser.Error, UnicodeDecodeError, OSError):
            continue
        for section in ranked:
            if parser.has_section(section):
                for key, value in parser.items(section):
                    ranked[section][key.lower().replace("_", "-").removeprefix("--")] = value
    for var, value in env.items():
        if var.startswith("PIP_") and var[4:].lower() not in _ENV_IGNORED:
            ranked[":env:"][var[4:].lower().replace("_", "-")] = value
    out: dict[str, str] = {}
    for section in ("global", COMMAND, ":env:"):
        out.update((k, v) for k, v in ranked[section].items() if v)
    return out


def pip_indexes(env: Mapping[str, str], options: Mapping[str, str] | None = None) -> Indexes:
    """``{"index": [urls], "find_links": [paths or urls], "auth": {netloc: (user, password)}}`` as pip would use them.

    ``index`` holds ``index-url`` first and then every ``extra-index-url``
    (empty with ``no-index``). Credentials written in a URL
    (``https://user:TOKEN@host/simple``) are taken out of it into ``auth``:
    the URLs returned never hold a secret, so no message can print one.
    """
    conf = pip_options(env, site_prefix(env)) if options is None else options
    if truthy(conf.get("no-index", "")):
        index: list[str] = []
    else:
        index = [conf.get("index-url", "").strip() or DEFAULT_INDEX] + conf.get("extra-index-url", "").split()
    auth: dict[str, Credential] = {}

    def clean(url: str) -> str:
        if "://" not in url:
            return url
        bare, netloc, cred = split_auth(url)
        if cred is not None:
            auth.setdefault(netloc, cred)
        return bare

    return {"index": [clean(u).rstrip("/") for u in index],
            "find_links": [clean(u) for u in conf.get("find-links", "").split()], "auth": auth}
