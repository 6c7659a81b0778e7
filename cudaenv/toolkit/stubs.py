"""Where the driver stubs of a switch live, and the one function that makes the loader link.

Two kinds of stub, both of ``libcuda``, the driver library:

* the **link-time stub** ``ld -lcuda`` finds through LIBRARY_PATH: the
  toolkit's own ``lib64/stubs/libcuda.so``, or, for a toolkit that ships none
  (one assembled from wheels), the one ``toolkit/stubgen.py`` generates into
  the cache from the toolkit's ``cuda.h``. Harmless on every host, so every
  switch has it (``stubs: auto``, the default, means this only);
* the **loader link** (the runtime stub), only where a profile asks for it
  (``stubs: always``, or ``driverless``: on a host without a driver): a
  directory holding ``libcuda.so.1`` -> that stub, put last on LD_LIBRARY_PATH
  so programs that NEED ``libcuda.so.1`` load on a driverless build host.
  Never with a real driver: a stub on the loader path makes every CUDA call
  fail with error 34. And environments travel (Slurm's ``--export=ALL``, ssh,
  tmux, dotenv files) to hosts that have one, so the directory is **node-local**
  (:func:`node_stub_dir`): under ``$XDG_RUNTIME_DIR`` or ``/tmp/cudaenv-<uid>``,
  named with this boot's ``/proc/sys/kernel/random/boot_id``. On any other node
  (or after a reboot) no such directory exists and the loader skips the entry.
  :func:`driver_present` tells whether this host has a driver; the profile's
  ``stubs`` policy decides (:func:`cudaenv.profiles.model.loader_stub`); only
  ``use`` (and ``verify``, ``exec``) make the link.

And one more kind of link, for wheel toolkits (``toolkit/wheels.py``): a
wheel cannot ship symlinks, so ``site-packages/nvidia/cu13/lib`` has
``libcudart.so.13`` but no ``libcudart.so``, and ``-lcudart`` (``nvcc -cudart
shared``, torch's cpp_extension) fails. :func:`dev_link_dir` is a cache
directory holding ``libcudart.so`` -> that file (and the same for every other
versioned-only library), put on ``LIBRARY_PATH`` after the toolkit's own
``lib``; nothing is ever written into the user's environment.

Everything here but :func:`make_loader_link` and :func:`make_dev_links` only
computes paths and stats files. These directories go on loader and linker
paths, so they live only in directories of the user's own (``infra/private.py``):
made 0700, and one another user owns or can change is never used (one note, no link).
"""

from __future__ import annotations

import os

from ..env.pathlist import entries
from ..errors import CudaenvError
from ..infra.files import LD_CACHE, ld_cache_paths
from ..infra.private import dir_problem, own_file, private_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .types import Toolkit

__all__ = ["driver_present", "generated_stub_dir", "link_stub_dir", "stub_target", "node_stub_dir",
           "boot_id", "BOOT_ID", "NODE_STUBS", "make_loader_link", "dev_link_dir", "make_dev_links"]

#: The kernel's id of this boot: differs on every node and after every reboot.
BOOT_ID = "/proc/sys/kernel/random/boot_id"
#: The name of the node-local stub directories' parent (``<NODE_STUBS><boot id>``), beside no other file of ours.
NODE_STUBS = "stubs-"


def generated_stub_dir(cache_dir: str, tk: Toolkit) -> str:
    """Where ``profile build`` and ``verify`` put the ``libcuda.so`` they generate for ``tk``."""
    return os.path.join(cache_dir, "libcuda-stub", tk["stub_key"])


def link_stub_dir(cache_dir: str, tk: Toolkit) -> str | None:
    """The generated stub directory for LIBRARY_PATH, or None.

    Only for a toolkit without its own stub, and only once it has been
    generated: ``use`` stays fast by doing a few stats here, never generating.
    A stub in a cache directory another user can change is never used (``infra/private.py``).
    """
    if tk["components"]["stubs"]:
        return None
    d = generated_stub_dir(cache_dir, tk)
    return d if own_file(os.path.join(d, "libcuda.so")) else None


def stub_target(cache_dir: str, tk: Toolkit) -> str | None:
    """The ``libcuda.so`` a loader link of ``tk`` points at (its own, else the generated one), or None."""
    if tk["components"]["stubs"]:
        return os.path.join(tk["root"], tk["libdir"], "stubs", "libcuda.so")
    gen = link_stub_dir(cache_dir, tk)
    return None if gen is None else os.path.join(gen, "libcuda.so")


def boot_id(path: str = BOOT_ID) -> str | None:
    """This boot's id (``xxxxxxxx-xxxx-…``, lower-case hex and dashes), or None when unreadable or odd."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        text = os.read(fd, 64).decode("ascii", "replace").strip()
    except OSError:
        return None
    finally:
        os.close(fd)
    if not 8 <= len(text) <= 40 or text.strip("0123456789abcdef-"):
        return None
    return text


def _runtime_base(env: Mapping[str, str]) -> str:
    """``$XDG_RUNTIME_DIR/cudaenv`` when that directory exists here and is the user's own, else ``/tmp/cudaenv-<uid>``.

    An inherited ``XDG_RUNTIME_DIR`` (a job step on a node without the user's
    login session) may not exist: it is never created, the ``/tmp`` one is.
    One another user owns or can write, or whose name no path list can hold, is passed over too.
    """
    run = env.get("XDG_RUNTIME_DIR") or ""
    # A ':' or newline could not go on LD_LIBRARY_PATH (the planner would refuse the whole switch).
    if os.path.isabs(run) and ":" not in run and "\n" not in run and dir_problem(run) is None:
        return os.path.join(run, "cudaenv")
    return f"/tmp/cudaenv-{os.geteuid()}"


def node_stub_dir(env: Mapping[str, str], tk: Toolkit, boot: str | None = None) -> str | None:
    """The node-local directory holding ``tk``'s ``libcuda.so.1`` link, or None when this node has no boot id.

    ``<$XDG_RUNTIME_DIR/cudaenv | /tmp/cudaenv-<uid>>/stubs-<boot id>/<stub key>``:
    a path no other node has (nor this one after a reboot), so the entry an
    environment carries elsewhere names nothing there. Computing only (a few stats).
    """
    boot = boot_id() if boot is None else boot
    if boot is None:
        return None
    return os.path.join(_runtime_base(env), NODE_STUBS + boot, tk["stub_key"])


def _private(directory: str, what: str) -> bool:
    """Make ``directory`` (0700) and check it is the user's own; False (one note printed) when it is not."""
    try:
        return private_dir(directory)
    except OSError as exc:
        raise CudaenvError(f"cannot create the {what} link in {directory}: {exc.strerror}") from None


def _is_link(path: str, target: str) -> bool:
    """Whether ``path`` is the user's own link to ``target``."""
    try:
        return os.lstat(path).st_uid == os.geteuid() and os.readlink(path) == target
    except OSError:
        return False


def _link(directory: str, name: str, target: str, what: str) -> None:
    """Make ``directory/name`` point at ``target`` (atomically; nothing if it already does)."""
    link = os.path.join(directory, name)
    if _is_link(link, target):
        return
    try:
        tmp = f"{link}.{os.getpid()}"
        os.symlink(target, tmp)
        os.replace(tmp, link)
    except OSError as exc:
        raise CudaenvError(f"cannot create the {what} link in {directory}: {exc.strerror}") from None


def make_loader_link(directory: str, target: str) -> bool:
    """Make ``directory/libcuda.so.1`` point at ``target`` (atomically; nothing if it already does).

    The directory goes on LD_LIBRARY_PATH, so it must be the user's alone and hold
    nothing else the user did not make (anything another user's is removed).

    Returns:
        False when the cache is another user's to change (one note printed): no link.

    Raises:
        CudaenvError: the link cannot be created.
    """
    if not _private(directory, "stub"):
        return False
    _link(directory, "libcuda.so.1", target, "stub")
    _drop_foreign(directory)
    return True


def _drop_foreign(directory: str) -> None:
    """Remove entries of ``directory`` the user does not own (left from a time it was not private)."""
    me = os.geteuid()
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for n in names:
        p = os.path.join(directory, n)
        try:
            if os.lstat(p).st_uid != me:
                os.unlink(p)
        except OSError:
            pass


def dev_link_dir(cache_dir: str, tk: Toolkit) -> str | None:
    """The directory of ``tk``'s development links for LIBRARY_PATH, or None when it needs none.

    Computing only: :func:`make_dev_links` makes them (``use``, ``verify``).
    """
    if not tk["dev_links"]:
        return None
    return os.path.join(cache_dir, "devlinks", tk["stub_key"])


def make_dev_links(directory: str, links: list[list[str]]) -> bool:
    """Make ``directory`` hold exactly ``links`` (``[name, target]``), e.g. ``libcudart.so`` -> ``…/libcudart.so.13``.

    Costs one ``lstat`` and ``readlink`` per link when they are already right (every ``use``).
    Links the toolkit no longer needs (a library removed) are removed, and so
    is anything another user left there.

    Returns:
        False when the cache is another user's to change (one note printed): no links.

    Raises:
        CudaenvError: a link cannot be created.
    """
    if not _private(directory, "library"):
        return False
    stale = False
    for name, target in links:
        if _is_link(os.path.join(directory, name), target):
            continue
        stale = True
        _link(directory, name, target, "library")
    if not stale:
        return True
    _drop_foreign(directory)
    want = {name for name, _t in links}
    try:
        # Only finished links (``libX.so``): another process's ``libX.so.<pid>`` is in flight.
        extra = [n for n in os.listdir(directory) if n.endswith(".so") and n not in want]
    except OSError:
        return True
    for n in extra:
        try:
            os.unlink(os.path.join(directory, n))
        except OSError:
            pass
    return True


def driver_present(
    env: Mapping[str, str],
    proc_root: str = "/proc",
    ld_cache: str = LD_CACHE,
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
    if any(os.path.basename(p) == "libcuda.so.1" for p in ld_cache_paths(ld_cache)):
        return True
    for d in entries(env.get("LD_LIBRARY_PATH")):
        if d not in ignore_dirs and "/stubs" not in d and os.path.exists(os.path.join(d, "libcuda.so.1")):
            return True
    return False
