"""Read a toolkit's version without running it where possible.

Sources, in order: ``version.json`` (the release label, e.g. 12.4.1),
``version.txt`` (old toolkits), for a wheel toolkit (``site-packages/nvidia/cuNN``)
the wheels' ``.dist-info`` names (``toolkit/wheels.py``), ``CUDA_VERSION`` in ``cuda.h`` (major.minor)
refined by wheel ``dist-info`` or conda metadata, and ``nvcc --version``
only as the last resort (callers cache the result).
"""

from __future__ import annotations

import os

from ..host import cuda_of_int
from ..infra.files import read_limited
from . import rank_key, release_label, same_release, version_key, wheel_site
from .wheels import read_version as wheel_version

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import FoundVersion, VersionInfo

__all__ = ["VersionError", "read_version", "short", "version_key", "parse_nvcc_version", "include_dirs",
           "release_label", "same_release", "rank_key"]


class VersionError(Exception):
    """A version file exists but cannot be read or makes no sense."""


def short(full: str) -> str:
    """``12.4.1`` -> ``12.4``."""
    return ".".join(full.split(".")[:2])


def _valid(v: object) -> bool:
    if not isinstance(v, str):
        return False
    parts = v.split(".")
    # ASCII digits only: int() also takes "１２" (fullwidth) and str.isdigit() "²".
    return len(parts) >= 2 and all(p.isascii() and p.isdigit() for p in parts)


def _from_version_json(path: str) -> FoundVersion:
    import json

    try:
        data = json.loads(read_limited(path).decode("utf-8"))
    except OSError as exc:
        raise VersionError(f"unreadable version.json ({exc.strerror or exc})") from None
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, or nested past the parser's depth
        raise VersionError(f"unreadable version.json ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise VersionError("version.json is not an object")

    def comp(key: str) -> str | None:
        ent = data.get(key)
        v = ent.get("version") if isinstance(ent, dict) else None
        return v if _valid(v) else None

    nvcc = comp("cuda_nvcc")
    # Some installs lack the top-level "cuda" entry: fall back to components.
    full = comp("cuda") or nvcc or comp("cuda_cudart")
    if full is None:
        raise VersionError("version.json names no valid CUDA version")
    return {"full": full, "source": "version.json", "nvcc": nvcc}


def _from_version_txt(path: str) -> FoundVersion:
    try:
        text = read_limited(path, 4096).decode("utf-8", "replace")
    except OSError as exc:
        raise VersionError(f"unreadable version.txt ({exc.strerror})") from None
    words = text.split()
    # "CUDA Version 10.0.130"
    if len(words) >= 3 and words[0] == "CUDA" and words[1] == "Version" and _valid(words[2]):
        return {"full": words[2], "source": "version.txt", "nvcc": None}
    raise VersionError("version.txt does not say 'CUDA Version X.Y.Z'")


def _header_version(root: str) -> str | None:
    for inc in include_dirs(root):
        path = os.path.join(inc, "cuda.h")
        try:
            data = read_limited(path, 4 << 20)
        except OSError:
            continue
        i = data.find(b"#define CUDA_VERSION ")
        if i < 0:
            continue
        num = data[i + 21 : i + 40].split()[0]
        if num.isdigit():
            return cuda_of_int(int(num))
    return None


def include_dirs(root: str) -> list[str]:
    """The toolkit's header directories: ``include`` and each ``targets/*/include`` (wheel and Debian layouts)."""
    dirs = [os.path.join(root, "include")]
    tdir = os.path.join(root, "targets")
    try:
        for t in sorted(os.listdir(tdir)):
            dirs.append(os.path.join(tdir, t, "include"))
    except OSError:
        pass
    return dirs


def _metadata_nvcc(root: str) -> str | None:
    """nvcc component version from wheel dist-info or conda-meta names."""
    for sub, prefixes, sep in (
        ("dist-info", ("nvidia_cuda_nvcc-", "nvidia_cuda_nvcc_cu11-", "nvidia_cuda_nvcc_cu12-"), ".dist-info"),
        ("conda-meta", ("cuda-nvcc-",), ".json"),
    ):
        try:
            names = os.listdir(os.path.join(root, sub))
        except OSError:
            continue
        for name in sorted(names):
            for p in prefixes:
                if name.startswith(p) and name.endswith(sep):
                    v = name[len(p) : -len(sep)].split("-")[0]
                    if _valid(v):
                        return v
    return None


def parse_nvcc_version(text: str) -> tuple[str, str] | None:
    """Parse ``nvcc --version`` output into (release X.Y, component X.Y.Z)."""
    for line in text.splitlines():
        if "release " in line and ", V" in line:
            rel = line.split("release ", 1)[1].split(",", 1)[0].strip()
            comp = line.split(", V", 1)[1].split()[0].strip()
            if _valid(rel) and _valid(comp):
                return rel, comp
    return None


#: How long ``nvcc --version`` may take (tens of milliseconds when healthy, seconds on a cold network file system).
NVCC_VERSION_TIMEOUT = 15


def _from_nvcc(root: str) -> FoundVersion | None:
    from ..infra.run import run

    res = run([os.path.join(root, "bin", "nvcc"), "--version"], timeout=NVCC_VERSION_TIMEOUT)
    if res.timed_out:
        raise VersionError(f"no version file, and bin/nvcc --version did not finish within {NVCC_VERSION_TIMEOUT} s")
    parsed = parse_nvcc_version(res.stdout) if res.returncode == 0 else None
    if parsed is None:
        return None
    return {"full": parsed[1], "source": "nvcc --version", "nvcc": parsed[1]}


def read_version(root: str) -> VersionInfo:
    """Return ``{"full", "short", "source", "nvcc"}`` for the toolkit at ``root``.

    Raises:
        VersionError: a version file is garbage, or no source gives a version.
    """
    vj = os.path.join(root, "version.json")
    info: FoundVersion
    if os.path.exists(vj):
        info = _from_version_json(vj)
    elif os.path.exists(os.path.join(root, "version.txt")):
        info = _from_version_txt(os.path.join(root, "version.txt"))
    elif wheel_site(root) is not None and (wheel := wheel_version(root)) is not None:
        info = wheel  # site-packages/nvidia/cuNN: the wheels' dist-info names
    else:
        header = _header_version(root)
        meta = _metadata_nvcc(root)
        if header and meta and short(meta) == header:
            info = {"full": meta, "source": "cuda.h+metadata", "nvcc": meta}
        elif header:
            info = {"full": header, "source": "cuda.h", "nvcc": meta}
        else:
            got = _from_nvcc(root)
            if got is None:
                raise VersionError("no version.json, version.txt or cuda.h, and nvcc --version gave nothing")
            info = got
    return {"full": info["full"], "source": info["source"], "nvcc": info["nvcc"], "short": short(info["full"])}

