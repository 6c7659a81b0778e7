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

from ..errors import CudaenvError
from .fetch import is_local, join_url, local_path, read_url

__all__ = ["NVIDIA_URL", "PLATFORM", "manifest_name", "list_versions", "parse_manifest"]

NVIDIA_URL = "https://developer.download.nvidia.com/compute/cuda/redist/"
PLATFORM = "linux-x86_64"


def manifest_name(version: str) -> str:
    return f"redistrib_{version}.json"


def list_versions(base: str) -> list[str]:
    """Release labels with a manifest at ``base`` (a directory listing or a local directory).

    Raises:
        Unreachable: the host cannot be reached.
    """
    import re

    if is_local(base):
        import os

        try:
            names = os.listdir(local_path(base))
        except OSError:
            return []
    else:
        names = re.findall(r"redistrib_[0-9][0-9.]*\.json", (read_url(base) or b"").decode("utf-8", "replace"))
    out = set()
    for n in names:
        m = re.fullmatch(r"redistrib_([0-9]+(?:\.[0-9]+)+)\.json", n)
        if m:
            out.add(m.group(1))
    return sorted(out, key=lambda v: tuple(int(x) for x in v.split(".")))


def parse_manifest(data: bytes, base: str, where: str, platform: str = PLATFORM, cuda_major: str | None = None) -> dict:
    """``{"version", "date", "components": {key: component}}`` of one manifest.

    A component: ``key, name, version, url, sha256, size, filename, kind="tar"``.
    Components without an archive for ``platform`` are left out. A component
    with ``cuda_variant`` (cuDNN's manifests) gives its ``cuda<cuda_major>``
    archive (default: the release's own major).

    Raises:
        CudaenvError: not a manifest in NVIDIA's format.
    """
    import json

    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CudaenvError(f"{where}: not a redistrib manifest ({exc.__class__.__name__})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("release_label"), str):
        raise CudaenvError(f"{where}: not a redistrib manifest (no release_label)")
    label = doc["release_label"]
    comps = {}
    for key, ent in doc.items():
        if not isinstance(ent, dict):
            continue  # release_date, release_label, release_product
        plat = ent.get(platform)
        if isinstance(plat, dict) and "relative_path" not in plat and isinstance(ent.get("cuda_variant"), list):
            plat = plat.get(f"cuda{cuda_major or label.split('.')[0]}")
        if not isinstance(plat, dict) or not isinstance(plat.get("relative_path"), str):
            continue
        sha = plat.get("sha256")
        rel = plat["relative_path"]
        if not isinstance(sha, str) or len(sha) != 64 or rel.startswith("/") or ".." in rel.split("/"):
            raise CudaenvError(f"{where}: component {key} has no valid sha256 or relative_path")
        try:
            size = int(plat.get("size")) if plat.get("size") is not None else None
        except (TypeError, ValueError):
            size = None
        comps[key] = {"key": key, "name": str(ent.get("name") or key), "version": str(ent.get("version") or ""),
                      "url": join_url(base, rel), "sha256": sha.lower(), "size": size,
                      "filename": rel.rsplit("/", 1)[-1], "kind": "tar"}
    return {"version": label, "date": doc.get("release_date"), "components": comps}
