"""Profiles: what a toolkit needs of the environment, and what ``use`` applies for one.

A profile is plain data. ``{root}`` in any value stands for the profile's
``root``, so moving a toolkit means editing one line. Generated profiles go
to ``$XDG_CONFIG_HOME/cudaenv/profiles/<name>.yaml``; users edit them or add
their own. Parsing happens only when a file changes (see ``infra/index.py``);
the YAML side lives in ``files.py`` so ``use`` never loads it.

:func:`profile_ops` turns a profile into ``Ops``; :func:`use_ops` adds what
the host decides: the loader-path stub (only where the profile asks for one,
in a node-local directory) and the host compiler selected for the toolkit.
``use``, ``show``, the checks, ``verify`` and the modulefiles all go through
:func:`use_ops`, so what they describe is
what ``use`` does. Computing never writes: only ``use`` and ``verify`` pass
``links=True`` and get the loader-path stub link made.
"""

from __future__ import annotations

import os
import stat

from ..env.ops import Ops
from ..env.pathlist import DEFAULT_PATH, entries
from ..errors import CudaenvError
from ..infra.index import valid_result
from ..infra.private import file_problem, note_untrusted, trusted_dir
from ..toolkit.probe import SYSTEM_DIRS
from ..toolkit.stubs import (dev_link_dir, driver_present, link_stub_dir, make_dev_links, make_loader_link,
                             node_stub_dir, stub_target)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from ..context import Context
    from ..infra.index import Index
    from ..toolkit.types import Toolkit
    from .types import Profile

__all__ = ["Profile", "ProfileFiles", "scan_toolkits", "load_all", "default_profile", "with_site_defaults", "profile_ops", "generated_name", "loader_stub", "path_fingerprint",
           "host_compiler", "user_ccbin", "user_env", "use_ops"]

def generated_name(tk: Toolkit) -> str:
    """The name ``profile build`` gives a toolkit's profile: ``cuda-<full version>``.

    A wheel toolkit (``site-packages/nvidia/cuNN``) adds its environment's
    label, so it never takes the name of an installed toolkit of the same
    version: ``cuda-13.0.2+proj`` for ``/home/me/proj/.venv`` (``toolkit/wheels.py``).
    """
    origin = tk["origin"]
    if origin:
        return f"cuda-{tk['full_version']}+{origin['label']}"
    return f"cuda-{tk['full_version']}"


def _valid_profile(ent: object) -> bool:
    """A cached ``(profile or None, error)`` of the shape ``profiles/files.validate`` returns."""
    return valid_result(ent, _valid_profile_dict)


def _valid_profile_dict(p: object) -> bool:
    """Every key ``files.load_file`` gives, of its type: a profile cached otherwise (an older
    cudaenv's) is read again, so readers take each key as :class:`Profile` declares it."""
    opt = (str, type(None))
    return (isinstance(p, dict) and all(isinstance(p.get(k), str) for k in ("name", "root", "stubs", "loader_path"))
            and all(k in p and isinstance(p[k], opt) for k in ("description", "version", "host_compiler", "file"))
            and isinstance(p.get("build"), dict) and isinstance(p.get("set"), dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in p["set"].items())
            and all(isinstance(p.get(s), dict) and all(isinstance(k, str) and type(v) is list
                                                       and all(isinstance(e, str) for e in v)
                                                       for k, v in p[s].items()) for s in ("prepend", "append")))


def load_all(directory: str, index: Index) -> tuple[list[Profile], list[tuple[str, str]]]:
    """Load every ``*.yaml``/``*.yml`` in ``directory`` through the cache.

    Returns:
        (profiles sorted by name, [(file, error message)] for invalid files).
    """
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return [], []
    profiles: list[Profile] = []
    errors: list[tuple[str, str]] = []
    for n in names:
        if not (n.endswith(".yaml") or n.endswith(".yml")) or n.startswith("."):
            continue
        path = os.path.join(directory, n)
        try:
            st = os.stat(path)
        except OSError:
            continue
        problem = file_problem(st)
        if problem is not None and stat.S_ISREG(st.st_mode):
            note_untrusted(path, problem)  # another user's (or writable by others): it sets PATH
            continue
        sig = (st.st_mtime_ns, st.st_size, st.st_ino)

        def compute(path: str = path) -> tuple[Profile, None] | tuple[None, str]:
            from .files import load_file

            try:
                return (load_file(path), None)
            except CudaenvError as exc:
                return (None, exc.message)

        ent = index.cached("files", path, sig, compute, _valid_profile)
        if ent[0] is None:
            errors.append((path, ent[1]))
        else:
            profiles.append(ent[0])
    profiles.sort(key=lambda p: p["name"])
    return profiles, errors


class ProfileFiles:
    """One command's profile files: the directory read once (:func:`load_all`), if it is trusted.

    A profile sets PATH and LD_LIBRARY_PATH: never one from a directory another
    user can change (infra/private.py: one note, and the toolkits' default
    profiles instead).
    """

    def __init__(self, directory: str, index: Index) -> None:
        self.directory = directory
        self.index = index
        self._loaded: tuple[list[Profile], list[tuple[str, str]]] | None = None

    def load(self) -> tuple[list[Profile], list[tuple[str, str]]]:
        """(valid profiles, [(file, error)])."""
        if self._loaded is None:
            ok = trusted_dir(self.directory)
            self._loaded = load_all(self.directory, self.index) if ok else ([], [])
        return self._loaded


def scan_toolkits(ctx: Context) -> tuple[list[Toolkit], list[tuple[str, str, str]]]:
    """(toolkits, skipped candidates) this command sees: the layout and environment, the config's
    roots, the profiles' roots and the Python environment's wheel toolkits (each scan once per command)."""
    profs, _ = ctx.profile_files.load()
    return ctx.discovery.scan(ctx.config().get("roots", []), [p["root"] for p in profs], ctx.python.get())


def _sub(value: str, root: str) -> str:
    return value.replace("{root}", root)


def default_profile(tk: Toolkit) -> Profile:
    """The profile a toolkit gets when the user has written none."""
    root = tk["root"]
    lib = "{root}/" + tk["libdir"]
    ld = [lib]
    if tk["cupti_dir"]:
        ld.append("{root}/extras/CUPTI/lib64")
    link = [lib]
    if tk["components"]["stubs"]:
        link.append(lib + "/stubs")
    prepend = {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ld, "LIBRARY_PATH": link}
    # Debian's toolkit lives in /usr: never put system directories in front
    # of the user's own entries.
    for var in list(prepend):
        prepend[var] = [e for e in prepend[var] if _sub(e, root) not in SYSTEM_DIRS]
        if not prepend[var]:
            del prepend[var]
    return {
        "name": generated_name(tk),
        "description": None,
        "root": root,
        "version": tk["full_version"],
        "stubs": "auto",
        "loader_path": "auto",
        "host_compiler": "auto",
        "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}"},
        "prepend": prepend,
        "append": {},
        "file": None,
    }


def with_site_defaults(profile: Profile, defaults: dict[str, Any] | None) -> Profile:
    """``profile`` with the config's ``profile:`` settings when no file governs it (a toolkit's default).

    A profile file says everything itself; a default profile takes the site's (or the user's
    config's) ``stubs``, ``loader_path``, ``host_compiler`` and ``build`` settings.
    """
    if not defaults or profile["file"] is not None:
        return profile
    out = dict(profile)
    for k, v in defaults.items():
        out[k] = dict(profile.get("build") or {}, **v) if k == "build" else v
    return out  # type: ignore[return-value]


def profile_ops(profile: Profile, stub_dir: str | None = None, host_cxx: str | None = None,
                link_stub_dir: str | None = None) -> Ops:
    """Concrete environment operations for ``profile``.

    Args:
        profile: A validated profile.
        stub_dir: When given, the directory holding ``libcuda.so.1`` -> the
            toolkit's stub, appended last to ``LD_LIBRARY_PATH`` (only where the
            profile's ``stubs`` asks for it; the caller decides).
        host_cxx: When given, the host compiler nvcc, CMake and torch builds
            must use: ``-ccbin`` in front of ``NVCC_PREPEND_FLAGS`` (honoured
            from CUDA 11; ``NVCC_CCBIN`` is ignored before 12.5) and
            ``CUDAHOSTCXX`` (CMake).
        link_stub_dir: When given, a directory holding a generated link-time
            ``libcuda.so`` for a toolkit that ships none; it goes on
            ``LIBRARY_PATH`` after the profile's own entries, where ``ld``
            looks for ``-lcuda``.
    """
    root = profile["root"]
    ops = Ops(
        set={k: _sub(v, root) for k, v in profile["set"].items()},
        prepend={k: [_sub(e, root) for e in v] for k, v in profile["prepend"].items()},
        append={k: [_sub(e, root) for e in v] for k, v in profile["append"].items()},
    )
    if stub_dir:
        ops.append.setdefault("LD_LIBRARY_PATH", []).append(stub_dir)
    if link_stub_dir and "LIBRARY_PATH" not in ops.set:
        link = ops.prepend.setdefault("LIBRARY_PATH", [])
        if link_stub_dir not in link:
            link.append(link_stub_dir)
    if host_cxx:
        if "CUDAHOSTCXX" not in ops.prepend and "CUDAHOSTCXX" not in ops.append:
            ops.set.setdefault("CUDAHOSTCXX", host_cxx)
        if "NVCC_PREPEND_FLAGS" not in ops.set:
            ops.prepend["NVCC_PREPEND_FLAGS"] = ["-ccbin", host_cxx] + ops.prepend.get("NVCC_PREPEND_FLAGS", [])
    return ops


def loader_stub(ctx: Context, profile: Profile, tk: Toolkit) -> tuple[str, str] | None:
    """(directory, the stub its ``libcuda.so.1`` points at) for LD_LIBRARY_PATH, or None.

    The runtime stub is a node-bound decision, made only where a profile asks
    for it: ``stubs: always``, or ``driverless`` on a host without a driver.
    ``auto`` (the default) and ``never`` leave the loader path alone: with a
    real driver a stub there breaks every CUDA program (error 34), and the
    environment of a driverless login node travels into jobs on GPU nodes.
    The directory is node-local (``toolkit/stubs.node_stub_dir``), so an entry
    carried to another node names nothing there. The stub is the toolkit's
    own, else the one cudaenv generated for a toolkit that has none (none
    generated yet, or no boot id to name the directory by: no link).
    """
    policy = profile["stubs"]
    if policy not in ("always", "driverless"):
        return None
    want = stub_target(ctx.cache_dir, tk)
    if want is None:
        return None
    if policy == "driverless" and driver_present(ctx.env, proc_root=ctx.proc_root):
        return None
    where = node_stub_dir(ctx.env, tk)
    return None if where is None else (where, want)


def _select_host_compiler(ctx: Context, tk: Toolkit) -> tuple[str | None, str | None]:
    """(path or None, reason): the compiler to force for ``tk``, None when the default is fine."""
    from ..host.compilers import accepts, default_compiler, find_compilers, select
    from ..toolkit.facts import host_limits

    limits = host_limits(tk)
    default = default_compiler(ctx.env, ctx.index)
    if default is None:
        return (None, "no C++ compiler found on PATH")
    if accepts(limits, default) is not False:
        return (None, None)
    chosen = select(limits, find_compilers(ctx.env, ctx.index), default)
    if chosen is None:
        return (None, f"{default['family']} {default['version']} is newer than CUDA {tk['version']} accepts "
                      "and no accepted compiler is installed")
    return (chosen["path"], f"{default['family']} {default['version']} ({default['why']}) is newer than "
                            f"CUDA {tk['version']} accepts")


def path_fingerprint(env: Mapping[str, str]) -> tuple[str, str, tuple[int | None, ...]]:
    """What compiler discovery depends on: PATH, CXX and each PATH directory's mtime.

    Installing or removing a compiler changes its directory's mtime, so a
    cached selection is redone; otherwise ``use`` only pays these stats (and
    does not load ``host/compilers.py``).
    """
    path = env.get("PATH", DEFAULT_PATH)  # where host/compilers.py looks
    mt: list[int | None] = []
    for d in entries(path):
        try:
            mt.append(os.stat(d).st_mtime_ns)
        except OSError:
            mt.append(None)
    return (path, env.get("CXX", ""), tuple(mt))


def host_compiler(ctx: Context, profile: Profile, tk: Toolkit) -> tuple[str | None, str | None]:
    """(compiler path or None, reason) for a switch to ``profile``.

    ``host_compiler`` in the profile: a path pins one, ``none`` turns
    selection off, ``auto`` (or null) selects the newest installed compiler
    the toolkit accepts when the default one is too new. Auto selection is
    cached against the toolkit's and PATH's fingerprints, so ``use`` only pays
    a few stats unless compilers or the toolkit changed.
    """
    hc = profile["host_compiler"]
    if hc == "none":
        return (None, None)
    if hc and hc != "auto":
        return (hc, "pinned by the profile")
    from ..toolkit.probe import signature

    ctx.index.data.setdefault("hostcxx", {})
    sig = (signature(tk["root"]), path_fingerprint(ctx.env))
    return ctx.index.cached("hostcxx", tk["root"], sig, lambda: _select_host_compiler(ctx, tk),
                            lambda v: type(v) is tuple and len(v) == 2 and all(isinstance(x, (str, type(None))) for x in v))


def user_env(env: Mapping[str, str]) -> Mapping[str, str]:
    """The environment as the user had it before cudaenv switched it (the recorded state undone)."""
    from ..env.plan import undo
    from ..env.state import STATE_VAR, decode

    if env.get(STATE_VAR):
        try:
            return undo(env, decode(env[STATE_VAR]))
        except CudaenvError:
            pass
    return env


def user_ccbin(env: Mapping[str, str]) -> str | None:
    """The ``-ccbin`` the user's own NVCC_PREPEND/APPEND_FLAGS name (ours excluded), if any."""
    from ..host.compilers import ccbin_of

    return ccbin_of(user_env(env))


def _wheels_here(ctx: Context) -> bool:
    """Whether the Python environment has NVIDIA wheels (loader_path auto has nothing to do otherwise)."""
    inv = ctx.python.wheels()[1]
    return bool(inv["libs"] or inv["tools"])


def use_ops(ctx: Context, profile: Profile, tk: Toolkit, notes: list[str] | None = None,
            links: bool = False) -> Ops:
    """What ``use`` applies for ``profile``: its ops, the stub directories, the host compiler, ``loader_path``.

    Args:
        notes: Collects messages for stderr (the host compiler's story).
        links: Make the loader-path stub link if the switch has one, and a
            wheel toolkit's development links (``use`` and ``verify``; a query
            only describes them). A link that cannot be made (an unwritable
            cache) leaves it off, with a note.
    """
    notes = [] if notes is None else notes
    profile = with_site_defaults(profile, ctx.config().get("profile"))
    cxx, why = host_compiler(ctx, profile, tk)
    if cxx:
        mine = user_ccbin(ctx.env)
        if mine:
            notes.append(f"your NVCC flags already choose the host compiler (-ccbin {mine}); keeping it instead of {cxx}")
            cxx = None
        elif ctx.env.get("CC") and os.path.basename(ctx.env["CC"].split()[0]) != os.path.basename(cxx):
            notes.append(f"CC={ctx.env['CC']}: torch extension builds add -ccbin $CC, which overrides {cxx}")
    elif why and profile["host_compiler"] in (None, "auto"):
        notes.append(f"warning: {why}; `cudaenv check` says what to install")
    stub = loader_stub(ctx, profile, tk)
    if stub is not None and links:
        try:
            if not make_loader_link(*stub):
                stub = None  # the cache is another user's to change: its note is printed
        except CudaenvError as exc:
            # The link lives in the cache, and a cache may only cost speed, never the switch.
            notes.append(f"warning: {exc.message}; switching without the driver stub on the loader path")
            stub = None
    ops = profile_ops(profile, stub[0] if stub else None, cxx, link_stub_dir(ctx.cache_dir, tk))
    # A wheel toolkit's lib has libcudart.so.13 but no libcudart.so: links in the cache make -lcudart
    # work (ld reads LIBRARY_PATH; CMake's find_library, and so FindCUDAToolkit, CMAKE_LIBRARY_PATH).
    dev = dev_link_dir(ctx.cache_dir, tk)
    if dev is not None and links:
        try:
            if not make_dev_links(dev, tk["dev_links"]):
                dev = None
        except CudaenvError as exc:
            notes.append(f"warning: {exc.message}; -l of this toolkit's libraries may not link")
            dev = None
    for var in ("LIBRARY_PATH", "CMAKE_LIBRARY_PATH"):
        if dev is not None and var not in ops.set and dev not in ops.prepend.get(var, []):
            ops.prepend.setdefault(var, []).append(dev)
    if profile.get("addons"):  # cuDNN / NCCL: before loader_path, which judges their lib/ like the toolkit's
        from .addons import apply_addons

        apply_addons(profile, ops)
    policy = profile["loader_path"]
    if policy == "never" or (policy == "auto" and _wheels_here(ctx)):
        from .loader import apply_loader_path

        apply_loader_path(ctx, policy, tk, ops, notes, links, keep=(stub[0],) if stub else ())
    if any(v != "none" for v in (profile.get("build") or {"": "auto"}).values()):
        from .build import apply_build

        apply_build(ctx, profile, tk, ops, user_env(ctx.env), notes)
    return ops
