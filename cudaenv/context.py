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

from .errors import CudaenvError
from .infra.index import Index, valid_result
from .host.pyenv import PythonEnvCache
from .infra.private import file_problem, note_untrusted, trusted_dir
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

__all__ = ["Context", "config_dir", "cache_dir", "profiles_dir", "config_file"]


def _xdg(var: str, fallback: str, env: dict | None = None) -> str:
    env = os.environ if env is None else env
    value = env.get(var, "")
    # The spec says relative values are invalid and must be ignored.
    if value and os.path.isabs(value):
        return value
    return os.path.join(os.path.expanduser("~"), fallback)


def config_dir(env: dict | None = None) -> str:
    """Return ``$XDG_CONFIG_HOME/cudaenv`` (default ``~/.config/cudaenv``)."""
    return os.path.join(_xdg("XDG_CONFIG_HOME", ".config", env), "cudaenv")


def cache_dir(env: dict | None = None) -> str:
    """Return ``$XDG_CACHE_HOME/cudaenv`` (default ``~/.cache/cudaenv``)."""
    return os.path.join(_xdg("XDG_CACHE_HOME", ".cache", env), "cudaenv")


def profiles_dir(env: dict | None = None) -> str:
    """Return the directory holding the user's profile YAML files."""
    return os.path.join(config_dir(env), "profiles")


def config_file(env: dict | None = None) -> str:
    """Return the path of the optional ``config.yaml``."""
    return os.path.join(config_dir(env), "config.yaml")


def _valid_config(ent: object) -> bool:
    """A cached ``(config or None, error)`` of the shape :meth:`Context.config` returns."""
    return valid_result(ent, lambda data: isinstance(data, dict) and all(
        type(data.get(k)) is list and all(isinstance(s, str) for s in data[k]) for k in ("roots", "sources")))


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
        """The parsed ``config.yaml`` (``{}`` when absent).

        Raises:
            CudaenvError: it exists but is invalid.
        """
        path = config_file(self.env)
        try:
            st = os.stat(path)
        except OSError:
            return {}
        # Its roots go on PATH: never one another user can change (infra/private.py: one note).
        if not trusted_dir(os.path.dirname(path)):
            return {}
        why = file_problem(st)
        if why is not None:
            note_untrusted(path, why)
            return {}

        def compute() -> tuple:
            import yaml

            from .infra.files import read_limited

            try:
                data = yaml.safe_load(read_limited(path).decode("utf-8")) or {}
            except OSError as exc:
                return (None, f"cannot read {path}: {exc.strerror or exc.__class__.__name__}")
            except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as exc:
                return (None, f"invalid config {path}: not valid YAML ({exc.__class__.__name__})")
            if not isinstance(data, dict):
                return (None, f"invalid config {path}: expected a mapping")
            roots = data.get("roots", [])
            if isinstance(roots, str):
                roots = [roots]
            if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
                return (None, f"invalid config {path}: 'roots' must be a list of paths or globs")
            sources = data.get("sources", [])  # where `cudaenv install` looks, in order
            if isinstance(sources, str):
                sources = [sources]
            if not isinstance(sources, list) or not all(isinstance(s, str) and s for s in sources):
                return (None, f"invalid config {path}: 'sources' must be a list of nvidia, pypi, directories or URLs")
            unknown = [k for k in data if k not in ("roots", "sources")]
            if unknown:
                return (None, f"invalid config {path}: unknown key {unknown[0]!r} (known: roots, sources)")
            return ({"roots": roots, "sources": sources}, None)

        data, err = self.index.cached("files", path, (st.st_mtime_ns, st.st_size, st.st_ino), compute, _valid_config)
        if err:
            raise CudaenvError(err, exit_code=2)
        return data

    def save(self) -> None:
        """Persist the cache if it changed."""
        self.index.save()
