"""NVIDIA's PyPI wheels: the ``cuda-toolkit`` meta-wheel pins a consistent set per release.

The meta-wheel's extras (``nvcc``, ``cudart``, ``cccl``, ``crt``, ``nvvm``, ...,
``all``) say which distributions make up each part; its ``Requires-Dist``
lines pin their versions. Every index pip is configured with (``pipconf``)
is asked, and its ``find-links`` directories: the newest wheel for Linux
x86_64 matching the pin wins. CUDA 13 wheels put a whole toolkit under
``nvidia/cu13/``; the 12.x ones (``nvidia/cuda_nvcc/`` ...) carry ptxas but
no nvcc, so a 12.x ``build`` needs NVIDIA's redistributable archives.
"""

from __future__ import annotations

import html
import json
import os
import re
import zipfile

from packaging.markers import InvalidMarker, Marker, UndefinedComparison, UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from ..errors import CudaenvError
from .credentials import host_name, netloc_split
from .fetch import Unreachable, is_local, join_url, local_path, read_url
from .net import settings
from .pipconf import pip_indexes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .types import IndexFile, Indexes, WheelFile

__all__ = ["META", "canonical", "parse_version", "pep440_key", "spec_matches", "parse_filename",
           "platform_ok", "project_files", "parse_requirement", "marker_true", "extras_of"]

#: The meta-distribution whose versions are CUDA releases.
META = "cuda-toolkit"
#: The largest METADATA read from the meta-wheel (the real ones are ~20 KiB).
_MAX_METADATA = 4 << 20
_PLATFORM = {"sys_platform": "linux", "platform_machine": "x86_64", "platform_system": "Linux",
             "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def canonical(name: str) -> str:
    """PEP 503 normalised project name."""
    return str(canonicalize_name(name))


def parse_version(text: str) -> Version | None:
    """The PEP 440 version of ``text`` (``13.5.37``, ``12.4.127.post1``), or None when it is not one."""
    try:
        return Version(text.strip())
    except InvalidVersion:
        return None


def pep440_key(text: str) -> tuple[int] | tuple[int, Version]:
    """A PEP 440 sort key for a distribution's version (``13.0.0rc1`` < ``13.0.0``; unparsable versions first).

    Not :func:`cudaenv.toolkit.version_key`: PyPI orders pre-, post- and dev
    releases by PEP 440, which a dotted-number key does not know.
    """
    v = parse_version(text)
    return (1, v) if v is not None else (0,)


def spec_matches(version: str, spec: str) -> bool:
    """Whether ``version`` satisfies a PEP 440 specifier list (``==13.5.37.*``, ``<14,>=13.5.37``)."""
    v = parse_version(version)
    try:
        return v is not None and SpecifierSet(spec).contains(v, prereleases=True)
    except InvalidSpecifier:
        return False


def parse_filename(filename: str) -> tuple[str, str, list[str]] | None:
    """(canonical project name, version, platform tags) of a wheel file name, or None."""
    try:
        name, version, _build, tags = parse_wheel_filename(filename)
    except (InvalidWheelFilename, ValueError):
        return None
    return str(name), str(version), sorted({t.platform for t in tags})


def platform_ok(tags: list[str]) -> bool:
    """A wheel for Linux x86_64 (or any platform)."""
    return any(t == "any" or (t.endswith("_x86_64") and t.startswith(("manylinux", "linux"))) for t in tags)


def _page_files(page: bytes, page_url: str) -> list[IndexFile]:
    """The files a simple-index page lists (PEP 691 JSON or PEP 503 HTML), each checked: what is
    not well formed is left out."""
    text = page.decode("utf-8", "replace")
    out: list[IndexFile] = []
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            return []
        files = data.get("files", []) if isinstance(data, dict) else []
        for f in files if isinstance(files, list) else []:
            if not isinstance(f, dict) or f.get("yanked") or not isinstance(f.get("filename"), str) or \
                    not isinstance(f.get("url", ""), str):
                continue
            size, hashes = f.get("size"), f.get("hashes")
            if size is not None and not (type(size) is int and 0 <= size < 1 << 60):
                continue  # a size that is not a number of bytes: the entry is not offered
            sha = hashes.get("sha256") if isinstance(hashes, dict) else None
            out.append({"filename": f["filename"], "url": join_url(page_url, f.get("url", "")),
                        "sha256": _sha(sha), "size": size})
        return out

    for m in re.finditer(r"<a\s([^>]*)>([^<]*)</a>", text, re.I):
        attrs = m.group(1)
        href = re.search(r'href\s*=\s*"([^"]*)"', attrs) or re.search(r"href\s*=\s*'([^']*)'", attrs)
        if not href or "data-yanked" in attrs:
            continue
        url = html.unescape(href.group(1))
        url, _, frag = url.partition("#")
        sha = frag[len("sha256="):] if frag.startswith("sha256=") else None
        out.append({"filename": html.unescape(m.group(2)).strip() or url.rsplit("/", 1)[-1],
                    "url": join_url(page_url, url), "sha256": _sha(sha), "size": None})
    return out


def _insecure(location: str) -> str:
    parts = netloc_split(location)
    host = host_name(parts[2]) if parts else location
    return (f"{location} ignored: neither HTTPS nor a trusted host (pip ignores it too; "
            f"trusted-host = {host} in pip.conf allows it)")


def _sha(value: object) -> str | None:
    """A published sha256 (it names the file in the download cache), or None when it is not one."""
    if isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdefABCDEF" for c in value):
        return value.lower()
    return None


def project_files(project: str, indexes: Indexes, notes: list[str]) -> list[WheelFile]:
    """Every Linux x86_64 wheel of ``project`` on the indexes and find-links.

    Each: ``filename, url, sha256 (or None), size (or None), version, origin``.
    An index that cannot be reached is noted and skipped.

    Raises:
        Unreachable: no index or find-links location could be read at all.
    """
    name = canonical(project)
    found: dict[str, tuple[IndexFile, str]] = {}  # file name -> (file, origin)
    reached = 0
    for index in indexes["index"]:
        page_url = f"{index}/{name}/"
        if not is_local(index) and not settings().secure_origin(index):
            notes.append(_insecure(index))
            continue
        try:
            if is_local(index):
                page = read_url(os.path.join(local_path(index), name, "index.html"), missing_ok=True)
                page_url = os.path.join(local_path(index), name) + "/"
            else:
                page = read_url(page_url, accept="application/vnd.pypi.simple.v1+json, text/html;q=0.1",
                                missing_ok=True)
        except Unreachable as exc:
            notes.append(f"index {index} unreachable ({exc.message})")
            continue
        except CudaenvError as exc:
            notes.append(f"index {index}: {exc.message}")
            continue
        reached += 1
        for f in _page_files(page or b"", page_url):
            found.setdefault(f["filename"], (f, index))
    for loc in indexes["find_links"]:
        if is_local(loc):
            d = local_path(loc)
            try:
                names = os.listdir(d)
            except OSError:
                continue
            reached += 1
            for fn in names:
                # Hashed where it lies: a FIFO or a device named like a wheel would hang that or never end.
                if not os.path.isfile(os.path.join(d, fn)):
                    continue
                found.setdefault(fn, ({"filename": fn, "url": os.path.join(d, fn), "sha256": None, "size": None}, d))
        elif not settings().secure_origin(loc):
            notes.append(_insecure(loc))
        else:
            try:
                page = read_url(loc)
            except CudaenvError:
                continue
            reached += 1
            for f in _page_files(page or b"", loc):
                found.setdefault(f["filename"], (f, loc))
    if not reached and (indexes["index"] or indexes["find_links"]):
        raise Unreachable("no package index could be reached: " + "; ".join(notes))
    out: list[WheelFile] = []
    for f, origin in found.values():
        parsed = parse_filename(f["filename"])
        if parsed is None or parsed[0] != name or not platform_ok(parsed[2]) or parse_version(parsed[1]) is None:
            continue
        if f["sha256"] is None and not is_local(f["url"]):
            continue  # a remote file without a published sha256 cannot be checked
        out.append({**f, "version": parsed[1], "origin": origin})
    return out


def marker_true(marker: str, extra: str | None, python: str = "3.11") -> bool:
    """Evaluate a PEP 508 environment marker for Linux x86_64 and one ``extra`` (invalid: False)."""
    env = dict(_PLATFORM, python_version=python, python_full_version=python + ".0", extra=extra or "")
    try:
        return Marker(marker).evaluate(env)
    except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
        return False


def parse_requirement(line: str) -> tuple[str, str, str]:
    """``Requires-Dist`` value -> (canonical name, specifier, marker); ``("", "", "")`` when invalid."""
    try:
        req = Requirement(line)
    except InvalidRequirement:
        return ("", "", "")
    return canonical(req.name), str(req.specifier), str(req.marker) if req.marker else ""


def extras_of(metadata: str) -> dict[str, list[tuple[str, str]]]:
    """The meta-wheel's extras -> [(distribution, specifier)] for Linux x86_64."""
    extras: list[str] = []
    reqs: list[str] = []
    for line in metadata.splitlines():
        if not line.strip():
            break  # the body (description) follows the headers
        key, _, value = line.partition(":")
        if key == "Provides-Extra":
            extras.append(value.strip())
        elif key == "Requires-Dist":
            reqs.append(value.strip())
    # Each requirement and its marker parsed once (not once per extra: the meta-wheel has ~30
    # extras and ~70 requirements, and packaging's parser took 3.5 s over them).
    parsed: list[tuple[str, str, Marker]] = []
    for r in reqs:
        name, spec, marker = parse_requirement(r)
        if not (name and marker and "extra" in marker):
            continue
        try:
            m = Marker(marker)
        except InvalidMarker:
            continue
        if not _evaluate(m, None):
            parsed.append((name, spec, m))
    out: dict[str, list[tuple[str, str]]] = {}
    for extra in extras:
        out[canonical(extra)] = [(name, spec) for name, spec, m in parsed if _evaluate(m, canonical(extra))]
    return out


def _evaluate(marker: Marker, extra: str | None, python: str = "3.11") -> bool:
    env = dict(_PLATFORM, python_version=python, python_full_version=python + ".0", extra=extra or "")
    try:
        return marker.evaluate(env)
    except (UndefinedComparison, UndefinedEnvironmentName):
        return False


def meta_metadata(path: str) -> str:
    """The METADATA text of the downloaded meta-wheel at ``path``."""
    try:
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                if n.count("/") == 1 and n.endswith(".dist-info/METADATA"):
                    # Streamed and bounded: a METADATA that inflates to a gigabyte is not one.
                    with z.open(n) as f:
                        data = f.read(_MAX_METADATA + 1)
                    if len(data) > _MAX_METADATA:
                        raise CudaenvError(f"{path}: METADATA larger than {_MAX_METADATA >> 20} MiB; "
                                           "not a cuda-toolkit wheel")
                    return data.decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, NotImplementedError) as exc:
        raise CudaenvError(f"{path}: not a readable wheel ({exc})") from None
    raise CudaenvError(f"{path}: no METADATA in the wheel")


def wheel_env(env: Mapping[str, str]) -> Indexes:
    """The indexes pip would use in ``env``."""
    return pip_indexes(env)
