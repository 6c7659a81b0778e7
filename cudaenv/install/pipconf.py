"""The package indexes pip is configured with: the same ones ``pip install`` would use.

pip reads, later overriding earlier: the site files (``$XDG_CONFIG_DIRS/pip/pip.conf``,
``/etc/pip.conf``), the user's (``~/.pip/pip.conf``, ``~/.config/pip/pip.conf``),
the file ``PIP_CONFIG_FILE`` names (``os.devnull`` turns every file off), and
then ``PIP_*`` variables. In a file, ``[install]`` overrides ``[global]``.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

__all__ = ["DEFAULT_INDEX", "pip_config_files", "pip_indexes"]

DEFAULT_INDEX = "https://pypi.org/simple"


def pip_config_files(env: Mapping[str, str]) -> list[str]:
    """pip's configuration files for ``env``, in the order pip reads them."""
    named = env.get("PIP_CONFIG_FILE", "")
    if named == os.devnull:
        return []
    dirs = [d for d in (env.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":") if d]
    files = [os.path.join(d, "pip", "pip.conf") for d in reversed(dirs)] + ["/etc/pip.conf"]
    home = env.get("HOME") or os.path.expanduser("~")
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files += [os.path.join(home, ".pip", "pip.conf"), os.path.join(xdg, "pip", "pip.conf")]
    if named:
        files.append(named)
    return files


def _truthy(value: str) -> bool:
    return value.strip().lower() in ("1", "yes", "true", "on")


def pip_indexes(env: Mapping[str, str]) -> dict:
    """``{"index": [urls], "find_links": [paths or urls]}`` as pip would use them.

    ``index`` holds ``index-url`` first and then every ``extra-index-url``
    (empty with ``no-index``).
    """
    import configparser

    from ..infra.files import read_limited

    conf: dict[str, str] = {}
    for path in pip_config_files(env):
        parser = configparser.RawConfigParser()
        try:
            # Not parser.read(path): it would block on a FIFO and read a device without end.
            parser.read_string(read_limited(path, 1 << 20).decode("utf-8"), source=path)
        except (configparser.Error, UnicodeDecodeError, OSError):
            continue
        for section in ("global", "download", "install"):
            if parser.has_section(section):
                for key, value in parser.items(section):
                    conf[key.replace("_", "-")] = value
    for key, var in (("index-url", "PIP_INDEX_URL"), ("extra-index-url", "PIP_EXTRA_INDEX_URL"),
                     ("find-links", "PIP_FIND_LINKS"), ("no-index", "PIP_NO_INDEX")):
        if var in env:
            conf[key] = env[var]
    if _truthy(conf.get("no-index", "")):
        index: list[str] = []
    else:
        index = (conf.get("index-url", "").split() or [DEFAULT_INDEX]) + conf.get("extra-index-url", "").split()
    return {"index": [u.rstrip("/") for u in index], "find_links": conf.get("find-links", "").split()}
