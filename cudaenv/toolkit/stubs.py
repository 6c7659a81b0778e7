"""Where the driver stubs of a switch live, and the one function that makes the loader link.

Two kinds of stub, both of ``libcuda``, the driver library:

* the **link-time stub** ``ld -lcuda`` finds through LIBRARY_PATH: the
  toolkit's own ``lib64/stubs/libcuda.so``, or, for a toolkit that ships none
  (one assembled from wheels), the one ``toolkit/stubgen.py`` generates into
  the cache from the toolkit's ``cuda.h``;
* the **loader link** for driverless build hosts: a cache directory holding
  ``libcuda.so.1`` -> that stub, put last on LD_LIBRARY_PATH so programs that
  NEED ``libcuda.so.1`` load. Never with a real driver: a stub on the loader
  path makes every CUDA call fail with error 34. :func:`driver_present` tells;
  the profile's ``stubs`` policy decides (:func:`cudaenv.profiles.model.loader_stub`);
  only ``use`` (and ``verify``, which runs what it builds) make the link.

And one more kind of link, for wheel toolkits (``toolkit/wheels.py``): a
wheel cannot ship symlinks, so ``site-packages/nvidia/cu13/lib`` has
``libcudart.so.13`` but no ``libcudart.so``, and ``-lcudart`` (``nvcc -cudart
shared``, torch's cpp_extension) fails. :func:`dev_link_dir` is a cache
directory holding ``libcudart.so`` -> that file (and the same for every other
versioned-only library), put on ``LIBRARY_PATH`` after the toolkit's own
``lib``; nothing is ever written into the user's environment.

Everything here but :func:`make_loader_link` and :func:`make_dev_links` only
computes paths and stats files.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .types import Toolkit

__all__ = ["driver_present", "generated_stub_dir", "link_stub_dir", "stub_target", "loader_link_dir", "make_loader_link",
           "dev_link_dir", "make_dev_links"]


def generated_stub_dir(cache_dir: str, tk: Toolkit) -> str:
    """Where ``profile build`` and ``verify`` put the ``libcuda.so`` they generate for ``tk``."""
    return os.path.join(cache_dir, "libcuda-stub", tk["stub_key"])


def link_stub_dir(cache_dir: str, tk: Toolkit) -> str | None:
    """The generated stub directory for LIBRARY_PATH, or None.

    Only for a toolkit without its own stub, and only once it has been
    generated: ``use`` stays fast by doing one stat here, never generating.
    """
    if tk["components"].get("stubs"):
        return None
    d = generated_stub_dir(cache_dir, tk)
    return d if os.path.isfile(os.path.join(d, "libcuda.so")) else None


def stub_target(cache_dir: str, tk: Toolkit) -> str | None:
    """The ``libcuda.so`` a loader link of ``tk`` points at (its own, else the generated one), or None."""
    if tk["components"].get("stubs"):
        return os.path.join(tk["root"], tk["libdir"], "stubs", "libcuda.so")
    gen = link_stub_dir(cache_dir, tk)
    return None if gen is None else os.path.join(gen, "libcuda.so")


def loader_link_dir(cache_dir: str, tk: Toolkit) -> str:
    """The directory holding ``libcuda.so.1`` for ``tk`` (made by :func:`make_loader_link`)."""
    return os.path.join(cache_dir, "stubs", tk["stub_key"])


def _link(directory: str, name: str, target: str, what: str) -> None:
    """Make ``directory/name`` point at ``target`` (atomically; nothing if it already does)."""
    link = os.path.join(directory, name)
    try:
        if os.readlink(link) == target:
            return
    except OSError:
        pass
    try:
        os.makedirs(directory, exist_ok=True)
        tmp = f"{link}.{os.getpid()}"
        os.symlink(target, tmp)
        os.replace(tmp, link)
    except OSError as exc:
        raise CudaenvError(f"cannot create the {what} link in {directory}: {exc.strerror}") from None


def make_loader_link(directory: str, target: str) -> None:
    """Make ``directory/libcuda.so.1`` point at ``target`` (atomically; nothing if it already does).

    Raises:
        CudaenvError: the link cannot be created.
    """
    _link(directory, "libcuda.so.1", target, "stub")


def dev_link_dir(cache_dir: str, tk: Toolkit) -> str | None:
    """The directory of ``tk``'s development links for LIBRARY_PATH, or None when it needs none.

    Computing only: :func:`make_dev_links` makes them (``use``, ``verify``).
    """
    if not tk.get("dev_links"):
        return None
    return os.path.join(cache_dir, "devlinks", tk["stub_key"])


def make_dev_links(directory: str, links: list[list[str]]) -> None:
    """Make ``directory`` hold exactly ``links`` (``[name, target]``), e.g. ``libcudart.so`` -> ``…/libcudart.so.13``.

    Costs one ``readlink`` per link when they are already right (every ``use``).
    Links the toolkit no longer needs (a library removed) are removed.

    Raises:
        CudaenvError: a link cannot be created.
    """
    stale = False
    for name, target in links:
        try:
            if os.readlink(os.path.join(directory, name)) == target:
                continue
        except OSError:
            pass
        stale = True
        _link(directory, name, target, "library")
    if not stale:
        return
    want = {name for name, _t in links}
    try:
        # Only finished links (``libX.so``): another process's ``libX.so.<pid>`` is in flight.
        extra = [n for n in os.listdir(directory) if n.endswith(".so") and n not in want]
    except OSError:
        return
    for n in extra:
        try:
            os.unlink(os.path.join(directory, n))
        except OSError:
            pass


def driver_present(
    env: Mapping[str, str],
    proc_root: str = "/proc",
    ld_cache: str = "/etc/ld.so.cache",
    ignore_dirs: tuple[str, ...] = (),
) -> bool:
    """True when the kernel driver is loaded or a real ``libcuda.so.1`` is known to the loader.

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
