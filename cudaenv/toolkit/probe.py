"""Look at one directory and say whether it is a toolkit, and what it holds."""

from __future__ import annotations

import os

from . import wheel_site
from ..infra.index import valid_result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import ProbedToolkit

__all__ = ["Skip", "probe", "signature", "valid_entry", "SYSTEM_DIRS"]

# Directories the system already searches; a profile never puts these in
# front of the user's PATH or loader path (Debian's toolkit lives in /usr).
SYSTEM_DIRS = frozenset(
    {"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/lib", "/lib64", "/usr/lib", "/usr/lib64",
     "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu"}
)


class Skip(Exception):
    """The candidate is not a usable toolkit; ``str(exc)`` says why."""


def _stat(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    # The mode too: probe() asks os.access of the root and of nvcc.
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_mode)


def signature(root: str) -> tuple[object, ...]:
    """Cheap fingerprint of what probing ``root`` reads: stat of the key paths.

    A directory's mtime moves when an entry is added to or removed from it, so
    each path below is the directory that gains the file probe() looks for (a
    path that appears or disappears changes from None to a stat, or back):

    * the root: version.json/version.txt, ``lib64``, ``extras``, ``targets``,
      ``dist-info`` and ``conda-meta`` appearing or going;
    * ``version.json`` (edited or replaced) and ``bin/nvcc`` (its version,
      whether it is executable);
    * the library directory probe() uses, ``lib64`` or else ``lib`` (cudart,
      libcupti listed there), and its ``stubs`` (the libcuda.so stub);
    * ``include``, always: cuda_runtime.h, cuda.h (the version when there is
      no version.json) and the cuDNN headers (cudnn_version.h, cudnn.h);
    * ``extras/CUPTI/lib64``, which appears when CUPTI is added.

    * for a wheel toolkit (``site-packages/nvidia/cuNN``), the site-packages
      directory: its version comes from the ``.dist-info`` names there, and
      installing, upgrading or removing a wheel adds or removes one.

    It runs for every candidate on every ``use``: 7 stats per root (8 with the
    ``lib`` layout, 9 for a wheel toolkit), nothing else.
    """
    site = wheel_site(root)
    vj = _stat(root + "/version.json")
    lib = root + "/lib64"
    libst = _stat(lib)
    if libst is None:
        lib = root + "/lib"
        libst = _stat(lib)
    return (
        _stat(root),
        vj,
        _stat(root + "/bin/nvcc"),
        libst,
        _stat(lib + "/stubs"),
        _stat(root + "/include"),
        _stat(root + "/extras/CUPTI/lib64"),
    ) + ((_stat(site),) if site is not None else ())


def _cudnn_version(root: str) -> str | None:
    from ..infra.files import read_limited
    from .version import include_dirs

    for inc in include_dirs(root):
        for name in ("cudnn_version.h", "cudnn.h"):
            try:
                text = read_limited(os.path.join(inc, name), 200000).decode("utf-8", "replace")
            except OSError:
                continue
            vals = {}
            for line in text.splitlines():
                w = line.split()
                if len(w) >= 3 and w[0] == "#define" and w[1] in ("CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"):
                    vals[w[1]] = w[2]
            if "CUDNN_MAJOR" in vals:
                return ".".join(vals.get(k, "0") for k in ("CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"))
    return None


_STR_KEYS = ("root", "version", "full_version", "version_source", "libdir", "stub_key")


def valid_entry(ent: object) -> bool:
    """Whether a cached ``(record or None, reason)`` has the shape :func:`probe`'s callers rely on."""
    return valid_result(ent, _valid_record)


_COMPONENTS = ("nvcc", "cudart_shared", "cudart_static", "stubs", "cupti")


def _valid_record(tk: object) -> bool:
    """Every key :func:`probe` gives, of its type (``ProbedToolkit``): a record cached otherwise
    (an older cudaenv's) is probed again, so readers take each key as the type declares it."""
    return (isinstance(tk, dict) and all(isinstance(tk.get(k), str) for k in _STR_KEYS)
            and "nvcc_version" in tk and isinstance(tk["nvcc_version"], (str, type(None)))
            and isinstance(tk.get("components"), dict)
            and all(type(tk["components"].get(k)) is bool for k in _COMPONENTS)
            and "cudnn" in tk["components"] and isinstance(tk["components"]["cudnn"], (str, type(None)))
            and isinstance(tk.get("dev_links"), list)
            and all(type(x) is list and len(x) == 2 and all(isinstance(s, str) for s in x) for x in tk["dev_links"])
            and "origin" in tk and (tk["origin"] is None or (
                isinstance(tk["origin"], dict) and all(isinstance(tk["origin"].get(k), str)
                                                       for k in ("kind", "env", "site", "label"))))
            and "cupti_dir" in tk and isinstance(tk["cupti_dir"], (str, type(None))))


def probe(root: str) -> ProbedToolkit:
    """Describe the toolkit at ``root`` (a real path).

    Returns:
        A plain dict (it is cached with marshal): root, version, full_version,
        version_source, nvcc_version, libdir, components, cupti_dir, stub_key,
        origin (None, or where a wheel toolkit's wheels are: ``toolkit/wheels.py``)
        and dev_links (the ``[name, target]`` links a wheel toolkit lacks).

    Raises:
        Skip: ``root`` is not a usable toolkit.
    """
    from .version import VersionError, include_dirs, read_version
    from .wheels import dev_links, origin

    if not os.path.isdir(root):
        raise Skip("not a directory")
    if not os.access(root, os.R_OK | os.X_OK):
        raise Skip("unreadable directory")
    nvcc = os.path.join(root, "bin", "nvcc")
    if not os.path.isfile(nvcc):
        raise Skip("no bin/nvcc")
    if not any(os.path.exists(os.path.join(d, "cuda_runtime.h")) for d in include_dirs(root)):
        raise Skip("no include/cuda_runtime.h")
    try:
        ver = read_version(root)
    except VersionError as exc:
        raise Skip(str(exc)) from None
    libdir = "lib64" if os.path.isdir(os.path.join(root, "lib64")) else "lib"
    lib = os.path.join(root, libdir)
    try:
        libs = os.listdir(lib)
    except OSError:
        libs = []
    cupti_extra = os.path.join(root, "extras", "CUPTI", "lib64")
    cupti_dir = cupti_extra if os.path.isdir(cupti_extra) else None
    stub = os.path.join(lib, "stubs", "libcuda.so")
    import hashlib

    return {
        "root": root,
        "version": ver["short"],
        "full_version": ver["full"],
        "version_source": ver["source"],
        "nvcc_version": ver["nvcc"],
        "libdir": libdir,
        "cupti_dir": cupti_dir,
        "components": {
            "nvcc": os.access(nvcc, os.X_OK),
            "cudart_shared": any(n.startswith("libcudart.so") for n in libs),
            "cudart_static": "libcudart_static.a" in libs,
            "stubs": os.path.isfile(stub),
            "cupti": cupti_dir is not None or any(n.startswith("libcupti.so") for n in libs),
            "cudnn": _cudnn_version(root),
        },
        # Names the per-toolkit cache directory (the loader-path stub shim).
        "stub_key": hashlib.sha1(root.encode("utf-8", "surrogateescape")).hexdigest()[:16],
        "origin": origin(root),
        "dev_links": dev_links(root, libdir, libs),
    }
