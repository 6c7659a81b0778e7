"""Everything a command reads from the outside world, gathered in one object.

Commands build one ``Context`` from the process (environment, working
directory) and pass it down; tests build one from a dict. It holds facts and
settings (environment, cwd, layout, directories, ``config.yaml``, the cache
index) and one cache object per layer that computes something, each defined
and filled by its layer: ``discovery`` (``toolkit/discover.Discovery``),
``profile_files`` (``profiles/model.ProfileFiles``), ``python``
(``host/pyenv.PythonEnvCache``). The layers below receive it and never call back
into it, and nothing writes into it after it is built: a command that judges
another Python environment (``exec`` of a named interpreter) builds one with
:meth:`Context.with_python_env`.
"""

from __future__ import annotations

import os
import stat  # imported by os already: free

from .errors import CudaenvError
from .infra.index import Index, valid_result
from .infra.private import cache_dir, file_problem, note_untrusted, trusted_dir, xdg_dir
from .host.pyenv import PythonEnvCache
from .profiles.model import ProfileFiles
from .toolkit.discover import Discovery, Layout

# The idiom every module uses: importing ``typing`` costs what ``use`` (run in every
# shell, pane and conda activation) must not pay, so TYPE_CHECKING is a plain False
# when the program runs and the block is read by type checkers only; with ``from
# __future__ import annotations`` no annotation is evaluated, so its names need not exist.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .host.types import PythonEnv

# cache_dir: infra/private.py's (``$XDG_CACHE_HOME/cudaenv``), the one rule every cache uses
__all__ = ["Context", "config_dir", "cache_dir", "profiles_dir", "config_file", "site_config_files", "Layered"]




def config_dir(env: dict | None = None) -> str:
    """Return ``$XDG_CONFIG_HOME/cudaenv`` (default ``~/.config/cudaenv``)."""
    return os.path.join(xdg_dir("XDG_CONFIG_HOME", ".config", env), "cudaenv")


def profiles_dir(env: dict | None = None) -> str:
    """Return the directory holding the user's profile YAML files."""
    return os.path.join(config_dir(env), "profiles")


def config_file(env: dict | None = None) -> str:
    """Return the path of the optional ``config.yaml``."""
    return os.path.join(config_dir(env), "config.yaml")


#: The site's config directory (``$CUDAENV_SITE_CONFIG_DIR`` replaces it).
SITE_CONFIG_DIR = "/etc/cudaenv"
# The keys a cached config layer may hold, and which of them are lists (profiles/config.py KEYS, LISTS:
# that module reads YAML and loads on a cache miss only).
_CONFIG_LISTS = ("roots", "sources")
_CONFIG_STRINGS = ("modulefiles",)


def site_config_files(env: Mapping[str, str]) -> list[str]:
    """The site's ``config.yaml`` files, lowest first; the user's is read after them and wins key by key.

    ``/etc/cudaenv/config.yaml`` (``$CUDAENV_SITE_CONFIG_DIR/config.yaml`` instead when set),
    then ``DIR/cudaenv/config.yaml`` for each ``DIR`` of ``$XDG_CONFIG_DIRS`` (default
    ``/etc/xdg``) from its last entry to its first: the XDG spec lists them most important first.
    """
    first = env.get("CUDAENV_SITE_CONFIG_DIR", "")
    out = [os.path.join(first if first and os.path.isabs(first) else SITE_CONFIG_DIR, "config.yaml")]
    dirs = [d for d in (env.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":") if d and os.path.isabs(d)]
    for d in reversed(dirs):
        p = os.path.join(d, "cudaenv", "config.yaml")
        if p not in out:
            out.append(p)
    return out


def _site_problem(path: str, st: os.stat_result) -> str | None:
    """Why a site config (status ``st``) may hold another user's words (None: only root's or the user's).

    The file and every directory above it: owned by root or the user, writable by no one
    else (a sticky directory aside), else another user could edit or swap it.
    """
    euid = os.geteuid()
    if not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    if st.st_uid not in (0, euid):
        return f"it is owned by uid {st.st_uid}"
    if st.st_mode & 0o022:
        return f"it is writable by {'others' if st.st_mode & 0o002 else 'its group'}"
    # Where it is named and, through links, where it really is: each directory on both ways.
    for d in {os.path.dirname(path), os.path.dirname(os.path.realpath(path))}:
        while True:
            try:
                dst = os.stat(d)
            except OSError:
                return f"{d} cannot be read"
            if dst.st_uid not in (0, euid):
                return f"{d} is owned by uid {dst.st_uid}"
            if dst.st_mode & 0o022 and not dst.st_mode & stat.S_ISVTX:
                return f"{d} is writable by {'others' if dst.st_mode & 0o002 else 'its group'}"
            up = os.path.dirname(d)
            if up == d:
                break
            d = up
    return None


_REFUSED: set = set()


def _refuse(path: str, why: str) -> None:
    """The one line per refused site file and process."""
    if path in _REFUSED:
        return
    _REFUSED.add(path)
    from .infra.console import note

    note(f"not using site config {path}: {why}, so another user could choose what cudaenv runs; going on "
         "without it (fix: chown root and chmod go-w it and its directories)")


def _valid_layer(ent: object) -> bool:
    """A cached ``(keys or None, error)`` of the shape ``profiles/config.parse`` returns."""
    return valid_result(ent, lambda data: isinstance(data, dict) and all(
        (type(v) is list and all(isinstance(s, str) for s in v)) if k in _CONFIG_LISTS
        else (k in _CONFIG_STRINGS and isinstance(v, str)) or (k == "profile" and type(v) is dict)
        for k, v in data.items()))


def _parse_config(path: str) -> tuple:
    from .profiles.config import parse  # YAML: on a cache miss only

    return parse(path)


class Layered:
    """The effective config: ``values`` (key → value), ``origins`` (key → the file that set it) and
    ``layers``, every file considered lowest first as ``(path, state)``: ``used``, ``missing``
    or ``refused: why``."""

    def __init__(self) -> None:
        self.values: dict = {}
        self.origins: dict = {}
        self.layers: list = []


def _config_layer(path: str, index: Index, site: bool) -> tuple:
    """``(keys or None, state)`` of one config file."""
    try:
        st = os.stat(path)
    except OSError:
        return (None, "missing")
    if site:
        why = _site_problem(path, st)
        if why is not None:
            _refuse(path, why)
            return (None, f"refused: {why}")
    else:
        # The user's own: its roots go on PATH, so never one another user can change (infra/private.py).
        if not trusted_dir(os.path.dirname(path)):
            return (None, "refused: its directory is another user's to change")
        why = file_problem(st)
        if why is not None:
            note_untrusted(path, why)
            return (None, f"refused: {why}")
    data, err = index.cached("files", path, (st.st_mtime_ns, st.st_size, st.st_ino), lambda: _parse_config(path),
                             _valid_layer)
    if err:
        raise CudaenvError(err, exit_code=2)
    return (data, "used")


class Context:
    """Environment, cwd, layout and caches for one command.

    Args:
        env: The environment to read (default: a copy of ``os.environ``).
        cwd: Working directory (default: the process's).
        layout: Standard locations (tests substitute fake trees).
    """

    def __init__(self, env: Mapping[str, str] | None = None, cwd: str | None = None, layout: Layout | None = None,
                 index: Index | None = None) -> None:
        self.env = dict(os.environ) if env is None else dict(env)
        if cwd is None:
            try:
                cwd = os.getcwd()
            except OSError:
                cwd = "/"
        self.cwd = cwd
        self.layout = layout or Layout()
        self.cache_dir = cache_dir(self.env)
        self.profiles_dir = profiles_dir(self.env)
        self.index = index or Index(os.path.join(self.cache_dir, "index.marshal"))
        # Where the kernel driver's files are (tests point it at a tree made from real outputs).
        self.proc_root = self.env.get("CUDAENV_PROC_ROOT", "/proc")
        # The layers' caches for this command (each class is its layer's).
        self.discovery = Discovery(self.env, self.layout, self.index)
        self.profile_files = ProfileFiles(self.profiles_dir, self.index)
        self.python = PythonEnvCache(self.env, self.cwd, self.index)
        self._driver: dict | None = None
        self._config: Layered | None = None

    def with_env(self, env: Mapping[str, str]) -> Context:
        """The same context reading ``env`` instead (a repaired PATH, direnv's lists reconciled).

        It shares the cache index (one save covers both); every other cache is its own.
        """
        return Context(env, self.cwd, self.layout, self.index)

    def with_python_env(self, pyenv: PythonEnv | None) -> Context:
        """The same context judging ``pyenv`` as the Python environment (not ``python3`` on PATH's).

        It shares the cache index (one save covers both) and the profile files;
        discovery depends on the Python environment, so it is its own.
        """
        other = Context(self.env, self.cwd, self.layout, self.index)
        other.profile_files = self.profile_files
        other.python = PythonEnvCache(self.env, self.cwd, self.index, given=pyenv)
        return other

    @property
    def driver(self) -> dict:
        """The NVIDIA driver's facts (``host/driver.driver_facts``), read once per command."""
        if self._driver is None:
            from .host.driver import driver_facts  # here: only check, doctor, explain read the driver

            self._driver = driver_facts(self.env, proc_root=self.proc_root)
        return self._driver

    def config(self) -> dict:
        """The effective ``config.yaml`` settings: the site's layers, then the user's, key by key
        (``profiles/config.py``; ``{}`` when there is none).

        Raises:
            CudaenvError: a file in use is invalid.
        """
        return self.config_layers().values

    def config_layers(self) -> Layered:
        """Every config layer read, with where each effective setting came from (read once per command)."""
        if self._config is None:
            out = Layered()
            layers = [(p, True) for p in site_config_files(self.env)] + [(config_file(self.env), False)]
            for path, site in layers:
                data, state = _config_layer(path, self.index, site)
                out.layers.append((path, state))
                for k, v in (data or {}).items():
                    out.values[k] = v
                    out.origins[k] = path
            self._config = out
        return self._config

    def save(self) -> None:
        """Persist the cache if it changed."""
        self.index.save()
