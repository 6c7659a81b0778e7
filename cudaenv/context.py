"""Everything a command reads from the outside world, gathered in one object.

Commands build one ``Context`` from the process (environment, working
directory) and pass it down; tests build one from a dict. It owns the cache
index and memoises discovery for the life of one command.
"""

from __future__ import annotations

import os

from .errors import CudaenvError
from .infra.index import Index, valid_result
from .infra.private import file_problem, note_untrusted, trusted_dir
from .profiles.model import load_all
from .toolkit.discover import Layout, candidates, scan
from .toolkit.probe import Skip, probe, signature, valid_entry

# The idiom every module uses: importing ``typing`` costs what ``use`` (run in every
# shell, pane and conda activation) must not pay, so TYPE_CHECKING is a plain False
# when the program runs and the block is read by type checkers only; with ``from
# __future__ import annotations`` no annotation is evaluated, so its names need not exist.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .host.types import PythonEnv
    from .profiles.model import Profile
    from .toolkit.types import Toolkit
    from typing import Mapping

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

    def __init__(self, env: Mapping[str, str] | None = None, cwd: str | None = None, layout: Layout | None = None) -> None:
        self.env = dict(os.environ) if env is None else dict(env)
        self._cwd = cwd
        self.layout = layout or Layout()
        self.cache_dir = cache_dir(self.env)
        self.profiles_dir = profiles_dir(self.env)
        self.index = Index(os.path.join(self.cache_dir, "index.marshal"))
        # Where the kernel driver's files are (tests point it at a tree made from real outputs).
        self.proc_root = self.env.get("CUDAENV_PROC_ROOT", "/proc")
        # Facts gathered once per command (the driver), keyed by what they are.
        self.memo: dict[str, object] = {}
        self._profiles: tuple[list[Profile], list[tuple[str, str]]] | None = None
        self._scan: tuple[list[Toolkit], list[tuple[str, str, str]]] | None = None

    @property
    def cwd(self) -> str:
        if self._cwd is None:
            try:
                self._cwd = os.getcwd()
            except OSError:
                self._cwd = "/"
        return self._cwd

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

    def profiles(self) -> tuple[list[Profile], list[tuple[str, str]]]:
        """(valid profiles, [(file, error)])."""
        if self._profiles is None:
            # A profile sets PATH and LD_LIBRARY_PATH: never one from a directory another user can
            # change (infra/private.py: one note, and the toolkits' default profiles instead).
            ok = trusted_dir(self.profiles_dir)
            self._profiles = load_all(self.profiles_dir, self.index) if ok else ([], [])
        return self._profiles

    def python_env(self) -> PythonEnv | None:
        """The Python environment ``python3`` on PATH belongs to (``host/pyenv.locate``), once per command."""
        if "python_env" not in self.memo:
            from .host.pyenv import locate

            self.memo["python_env"] = locate(self.env, self.cwd)
        return self.memo["python_env"]  # type: ignore[return-value]

    def scan(self) -> tuple[list[Toolkit], list[tuple[str, str, str]]]:
        """(toolkits, skipped candidates)."""
        if self._scan is None:
            profs, _ = self.profiles()
            cands = candidates(
                self.env,
                self.layout,
                extra_roots=self.config().get("roots", []),
                profile_roots=[p["root"] for p in profs],
                python_env=self.python_env(),
            )
            self._scan = scan(cands, self.index, self.layout)
        return self._scan

    def probe_path(self, path: str) -> Toolkit:
        """Probe a toolkit path given by the user (through the cache).

        Raises:
            CudaenvError: the path is not a usable toolkit.
        """
        real = os.path.realpath(path)
        if not os.path.exists(real):
            raise CudaenvError(f"{path}: no such directory", exit_code=2)

        def compute() -> tuple:
            try:
                return (probe(real), None)
            except Skip as exc:
                return (None, str(exc))

        data, reason = self.index.cached("roots", real, signature(real), compute, valid_entry)
        if data is None:
            raise CudaenvError(f"{path} is not a usable CUDA toolkit: {reason}", exit_code=2)
        tk = dict(data)
        tk.update(aliases=[] if path == real else [path], found_by=["argument"], default=False)
        return tk

    def save(self) -> None:
        """Persist the cache if it changed."""
        self.index.save()
