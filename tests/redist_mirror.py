"""The test bed's CUDA 13.5 redist mirror: NVIDIA's redist layout and manifest, repacked from the
real 13.5 wheels of the test bed's wheelhouse (tests/testbed/build.sh).

Several test files install from it (install, add-ons, shared store); whichever runs first builds
it, under a lock, so a cold test bed under pytest-xdist never depends on the order of files."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import zipfile

from conftest import TESTBED
from helpers import setup_missing

WHEELS = os.path.join(TESTBED, "cache", "wheels", "13.5")
MIRROR = os.path.join(TESTBED, "cache", "redist-mirror-13.5")
MIRROR_REV = "1"
# Wheel distribution -> the component key NVIDIA's 13.x redist manifests use.
KEYS = {"nvidia_cuda_nvcc": ("cuda_nvcc", "CUDA NVCC"), "nvidia_cuda_crt": ("cuda_crt", "CUDA CRT"),
        "nvidia_nvvm": ("libnvvm", "CUDA NVVM"), "nvidia_cuda_runtime": ("cuda_cudart", "CUDA Runtime (cudart)"),
        "nvidia_cuda_cccl": ("cccl", "CXX Core Compute Libraries"), "nvidia_cuda_culibos": ("cuda_culibos", "CUDA culibos")}


def _need(path: str, what: str) -> None:
    if not os.path.exists(path):
        msg = f"{what} missing ({path}): run bash tests/testbed/build.sh"
        setup_missing(msg)


def _repack(whl: str, key: str, version: str, out: str) -> None:
    """One wheel's nvidia/cu13/ tree as NVIDIA's <key>-linux-x86_64-<ver>-archive.tar.xz."""
    import io
    import tarfile

    top = f"{key}-linux-x86_64-{version}-archive"
    with zipfile.ZipFile(whl) as z, tarfile.open(out, "w:xz", preset=0) as tar:
        dirs = set()
        for info in z.infolist():
            parts = info.filename.split("/")
            if info.is_dir() or parts[0] != "nvidia" or len(parts) < 3 or parts[-1] == "__init__.py":
                continue
            rel = "/".join(parts[2:])
            for i in range(1, rel.count("/") + 1):
                d = top + "/" + "/".join(rel.split("/")[:i])
                if d not in dirs:
                    dirs.add(d)
                    ti = tarfile.TarInfo(d)
                    ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(ti)
            data = z.read(info)
            ti = tarfile.TarInfo(f"{top}/{rel}")
            ti.size, ti.mode = len(data), ((info.external_attr >> 16) & 0o777) or 0o644
            tar.addfile(ti, io.BytesIO(data))
        lic = next((n for n in z.namelist() if n.endswith(".dist-info/License.txt") or n.endswith("/LICENSE")), None)
        if lic:
            data = z.read(lic)
            ti = tarfile.TarInfo(f"{top}/LICENSE")
            ti.size = len(data)
            tar.addfile(ti, io.BytesIO(data))


def ensure() -> str:
    """A directory in NVIDIA's redist layout for CUDA 13.5.0 (cached; built from the wheelhouse).

    Under pytest-xdist each worker asks for it: a lock beside it lets the first build it while the
    others wait, so none removes a mirror another worker is serving."""
    _need(WHEELS, "the 13.5 wheelhouse")
    os.makedirs(os.path.dirname(MIRROR), exist_ok=True)
    with open(f"{MIRROR}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _mirror_locked()


def _mirror_locked() -> str:
    marker = os.path.join(MIRROR, ".complete")
    if os.path.isfile(marker) and open(marker).read() == MIRROR_REV:
        return MIRROR
    import shutil

    tmp = f"{MIRROR}.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    doc: dict = {"release_date": "2026-11-04", "release_label": "13.5.0", "release_product": "cuda"}
    for fn in sorted(os.listdir(WHEELS)):
        if not fn.endswith(".whl"):
            continue
        dist, ver = fn.split("-")[:2]
        if dist not in KEYS:
            continue
        key, name = KEYS[dist]
        rel = f"{key}/linux-x86_64/{key}-linux-x86_64-{ver}-archive.tar.xz"
        out = os.path.join(tmp, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        _repack(os.path.join(WHEELS, fn), key, ver, out)
        data = open(out, "rb").read()
        doc[key] = {"name": name, "license": "CUDA Toolkit", "license_path": f"{key}/LICENSE.txt", "version": ver,
                    "linux-x86_64": {"relative_path": rel, "sha256": hashlib.sha256(data).hexdigest(),
                                     "md5": hashlib.md5(data).hexdigest(), "size": str(len(data))}}
    assert len(doc) == 3 + len(KEYS), sorted(doc)
    with open(os.path.join(tmp, "redistrib_13.5.0.json"), "w") as f:
        json.dump(doc, f, indent=4)
    with open(os.path.join(tmp, ".complete"), "w") as f:
        f.write(MIRROR_REV)
    shutil.rmtree(MIRROR, ignore_errors=True)
    os.rename(tmp, MIRROR)
    return MIRROR
