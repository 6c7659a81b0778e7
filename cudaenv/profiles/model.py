"""Profiles: what a toolkit needs of the environment, as editable YAML.

A profile is plain data. ``{root}`` in any value stands for the profile's
``root``, so moving a toolkit means editing one line. Generated profiles go
to ``$XDG_CONFIG_HOME/cudaenv/profiles/<name>.yaml``; users edit them or add
their own. Parsing happens only when a file changes (see ``index.py``); the
YAML side lives in ``profile_file.py`` so ``use`` never loads it.
"""

from __future__ import annotations

import os

from ..env.ops import Ops
from ..errors import CudaenvError
from ..toolkit.probe import SYSTEM_DIRS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..infra.index import Index

__all__ = ["load_all", "default_profile", "profile_ops", "generated_name"]

def generated_name(tk: dict) -> str:
    """The name ``profile build`` gives a toolkit's profile: ``cuda-<full version>``."""
    return f"cuda-{tk['full_version']}"


def load_all(directory: str, index: Index) -> tuple[list[dict], list[tuple[str, str]]]:
    """Load every ``*.yaml``/``*.yml`` in ``directory`` through the cache.

    Returns:
        (profiles sorted by name, [(file, error message)] for invalid files).
    """
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return [], []
    profiles: list[dict] = []
    errors: list[tuple[str, str]] = []
    for n in names:
        if not (n.endswith(".yaml") or n.endswith(".yml")) or n.startswith("."):
            continue
        path = os.path.join(directory, n)
        try:
            st = os.stat(path)
        except OSError:
            continue
        sig = (st.st_mtime_ns, st.st_size, st.st_ino)

        def compute(path: str = path) -> tuple:
            from .files import load_file

            try:
                return (load_file(path), None)
            except CudaenvError as exc:
                return (None, exc.message)

        prof, err = index.cached("files", path, sig, compute)
        if prof is None:
            errors.append((path, err))
        else:
            profiles.append(prof)
    profiles.sort(key=lambda p: p["name"])
    return profiles, errors


def _sub(value: str, root: str) -> str:
    return value.replace("{root}", root)


def default_profile(tk: dict) -> dict:
    """The profile a toolkit gets when the user has written none."""
    root = tk["root"]
    lib = "{root}/" + tk["libdir"]
    ld = [lib]
    if tk.get("cupti_dir"):
        ld.append("{root}/extras/CUPTI/lib64")
    link = [lib]
    if tk["components"].get("stubs"):
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
        "host_compiler": "auto",
        "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}"},
        "prepend": prepend,
        "append": {},
        "file": None,
    }


def profile_ops(profile: dict, stub_dir: str | None = None, host_cxx: str | None = None,
                link_stub_dir: str | None = None) -> Ops:
    """Concrete environment operations for ``profile``.

    Args:
        profile: A validated profile.
        stub_dir: When given, the directory holding ``libcuda.so.1`` -> the
            toolkit's stub, appended last to ``LD_LIBRARY_PATH`` (driverless
            build hosts only; the caller decides).
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
