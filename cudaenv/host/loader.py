"""Is a real NVIDIA driver library reachable? (Decides where stubs may go.)"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

__all__ = ["driver_present"]


def driver_present(
    env: Mapping[str, str],
    proc_root: str = "/proc",
    ld_cache: str = "/etc/ld.so.cache",
    ignore_dirs: tuple[str, ...] = (),
) -> bool:
    """True when the kernel driver is loaded or ``libcuda.so.1`` is known to the loader.

    Args:
        env: The environment whose ``LD_LIBRARY_PATH`` the loader would use.
        proc_root: Where ``driver/nvidia/version`` lives (tests use a fake tree).
        ld_cache: The loader's cache file (``ldconfig`` output).
        ignore_dirs: Directories whose ``libcuda.so.1`` is a stub of ours.
    """
    if os.path.exists(os.path.join(proc_root, "driver", "nvidia", "version")):
        return True
    try:
        with open(ld_cache, "rb") as f:
            if b"libcuda.so.1\0" in f.read():
                return True
    except OSError:
        pass
    for d in env.get("LD_LIBRARY_PATH", "").split(":"):
        if d and d not in ignore_dirs and "/stubs" not in d and os.path.exists(os.path.join(d, "libcuda.so.1")):
            return True
    return False
