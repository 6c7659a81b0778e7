"""NVIDIA's redistributable manifests: ``redistrib_<version>.json`` beside the archives.

The format (as NVIDIA publishes it under .../compute/cuda/redist/)::

    {"release_date": "2024-04-09", "release_label": "12.4.1", "release_product": "cuda",
     "cuda_nvcc": {"name": "CUDA NVCC", "license": "CUDA Toolkit",
                   "license_path": "cuda_nvcc/LICENSE.txt", "version": "12.4.131",
                   "linux-x86_64": {"relative_path": "cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.4.131-archive.tar.xz",
                                    "sha256": "…", "md5": "…", "size": "…"},   # size: a string
                   "linux-sbsa": {…}, "windows-x86_64": {…}}, …}

cuDNN's manifests add ``"cuda_variant": ["11", "12"]`` and nest the platform
entry one level deeper (``"linux-x86_64": {"cuda12": {…}}``). Each archive holds
``bin/ include/ lib/ …`` under one top directory named like the file.
"""

from __future__ import annotations

import json
import os
import re

from ..errors import CudaenvError
from ..toolkit import version_key
from .fetch import is_local, join_url, local_path, read_url
from .record import valid_release

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import Component, Release

__all__ = ["NVIDIA_URL", "PLATFORM", "manifest_name", "list_versions", "parse_manifest"]

NVIDIA_URL = "https://developer.download.nvidia.com/compute/cuda/redist/"
PLATFORM = "linux-x86_64"
# What the fields that become names, paths and URLs may hold (NVIDIA's own are all like these).
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}")
_REL = re.compile(r"[A-Za-z0-9_.+~-]+(?:/[A-Za-z0-9_.+~-]+)*")
_SHA = re.compile(r"[0-9a-fA-F]{64}")


def manifest_name(version: str) -> str:
    return f"redistrib_{version}.json"


def list_versions(base: str) -> list[str]:
    """Release labels with a manifest at ``base`` (a directory listing or a local directory).

    Raises:
        Unreachable: the host cannot be reached.
    """

    if is_local(base):
        try:
            names = os.listdir(local_path(base))
        except OSError:
            return []
    else:
        names = re.findall(r"redistrib_[0-9][0-9.]*\.json", (read_url(base) or b"").decode("utf-8", "replace"))
    out = set()
    for n in names:
        m = re.fullmatch(r"redistrib_([0-9]+(?:\.[0-9]+)+)\.json", n)
        if m and valid_release(m.group(1)):
            out.add(m.group(1))
    return sorted(out, key=version_key)


def parse_manifest(data: bytes, base: str, where: str, platform: str = PLATFORM,
                   cuda_major: str | None = None) -> Release:
    """``{"version", "date", "components": {key: component}}`` of one manifest.

    A component: ``key, name, version, url, sha256, size, filename, kind="tar"``.
    Components without an archive for ``platform`` are left out. A component
    with ``cuda_variant`` (cuDNN's manifests) gives its ``cuda<cuda_major>``
    archive (default: the release's own major).

    Raises:
        CudaenvError: not a manifest in NVIDIA's format.
    """
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CudaenvError(f"{where}: not a redistrib manifest ({exc.__class__.__name__})") from None
    if not isinstance(doc, dict) or "release_label" not in doc:
        raise CudaenvError(f"{where}: not a redistrib manifest (no release_label)")
    label = doc["release_label"]
    if not valid_release(label):
        raise CudaenvError(f"{where}: release_label {_show(label)} is not a CUDA version")
    comps: dict[str, Component] = {}
    for key, ent in doc.items():
        if not isinstance(ent, dict):
            continue  # release_date, release_label, release_product
        plat = ent.get(platform)
        if isinstance(plat, dict) and "relative_path" not in plat and isinstance(ent.get("cuda_variant"), list):
            plat = plat.get(f"cuda{cuda_major or label.split('.')[0]}")
        if plat is None:
            continue
        if not _NAME.fullmatch(key):
            raise CudaenvError(f"{where}: component name {_show(key)} is not a name")
        if not isinstance(plat, dict):
            raise CudaenvError(f"{where}: component {key}: {platform} is not an object")
        rel, sha, size = plat.get("relative_path"), plat.get("sha256"), plat.get("size")
        if not isinstance(rel, str) or not _REL.fullmatch(rel) or len(rel) > 1024 or \
                any(p in (".", "..") for p in rel.split("/")):
            raise CudaenvError(f"{where}: component {key}: relative_path {_show(rel)} is not a path under the source")
        if not isinstance(sha, str) or not _SHA.fullmatch(sha):
            raise CudaenvError(f"{where}: component {key}: sha256 {_show(sha)} is not a sha256")
        if size is not None:
            if isinstance(size, str) and size.isdigit() and size.isascii() and len(size) <= 18:
                size = int(size)
            elif not (type(size) is int and 0 <= size < 1 << 60):
                raise CudaenvError(f"{where}: component {key}: size {_show(size)} is not a number of bytes")
        texts = {}
        for field in ("name", "version"):
            v = ent.get(field)
            if v is not None and (not isinstance(v, str) or len(v) > 200 or not v.isprintable()):
                raise CudaenvError(f"{where}: component {key}: {field} {_show(v)} is not text")
            texts[field] = v
        comps[key] = {"key": key, "name": texts["name"] or key, "version": texts["version"] or "",
                      "url": join_url(base, rel), "sha256": sha.lower(), "size": size,
                      # a .whl: a --download-only mirror of a wheel source lists its wheels
                      "filename": rel.rsplit("/", 1)[-1], "kind": "wheel" if rel.endswith(".whl") else "tar"}
    date = doc.get("release_date")
    return {"version": label, "date": date if isinstance(date, str) and date.isprintable() else None,
            "components": comps}


def _show(value: object) -> str:
    """A field's value in a one-line message (shortened)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
