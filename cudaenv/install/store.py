"""A toolkit store several users share (``install --prefix /shared/cuda-X``): permissions and an NFS-safe lock.

**Permissions.** The store directory says how it is shared: a new tree gets the
store's group (when the installing user is a member), the setgid bit on every
directory when the store has it (so what is added later keeps the group), read
(and search) for each class the store lets read, and group write only where the
store is group-writable *and* the installer's umask lets the group write. Nothing
else is widened: the unpacked modes stay tarfile's ``data`` filter's (no setuid,
no other-write).

**Lock.** ``flock`` is per host on many NFS set-ups, so installs from two nodes
into one store would both proceed. The lock here is a file made the way
``open(2)`` recommends for NFS: write a unique file, ``link(2)`` it to the lock's
name, and trust ``st_nlink == 2`` on the unique file (a ``link`` answer lost on
the wire still shows in the count). The lock holds ``user host pid boot-id``:
a lock of this host whose process is gone (or from an earlier boot) is stale and
broken; one of another host is waited for (its owner is named once), since no
process of this host can tell whether it lives. Nothing of it stays in the
store after the install: the per-user record of an install lives under the
user's data directory (``install/record.py``); the tree's own marker is the one
store-level record, which any member reads.
"""

from __future__ import annotations

import errno
import os
import stat
import time

from ..errors import CudaenvError
from ..infra.private import Untrusted, ensure_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["LOCK_SUFFIX", "share_tree", "StoreLock", "lock_owner", "this_host"]

#: ``.<name>`` + this is the lock of one toolkit's install in its parent directory.
LOCK_SUFFIX = ".lock.owner"
#: What ``link(2)`` answers on a file system without hard links.
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK)


def _umask() -> int:
    # os.umask is the only way to read it; set it straight back (install runs no threads yet here).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def share_tree(tree: str, store: str) -> None:
    """Give ``tree`` (a new toolkit inside ``store``) the group and permissions the store asks for.

    Nothing happens for a private store (no group/other bits, no setgid): a user's own directory.

    Raises:
        CudaenvError: a file of the tree cannot be changed.
    """
    try:
        st = os.stat(store)
    except OSError as exc:
        raise CudaenvError(f"cannot read {store}: {exc.strerror}") from None
    setgid = bool(st.st_mode & stat.S_ISGID)
    if not setgid and not st.st_mode & 0o077:
        return
    gid = st.st_gid if st.st_gid in os.getgroups() or st.st_gid == os.getegid() or os.geteuid() == 0 else -1
    read = 0  # the r bits each class gets: those the store grants
    if st.st_mode & 0o040:
        read |= 0o040
    if st.st_mode & 0o004:
        read |= 0o004
    gwrite = 0o020 if st.st_mode & 0o020 and not _umask() & 0o020 else 0
    try:
        for d, dirs, files in os.walk(tree):
            for path, is_dir in [(d, True)] + [(os.path.join(d, n), False) for n in files]:
                lst = os.lstat(path)
                if stat.S_ISLNK(lst.st_mode):
                    if gid != -1 and lst.st_gid != gid:
                        os.lchown(path, -1, gid)
                    continue
                mode = stat.S_IMODE(lst.st_mode)
                if mode & 0o100:
                    mode |= read >> 2  # search/execute beside read, for the same classes
                mode |= read | (gwrite if is_dir or mode & 0o200 else 0)
                if is_dir and setgid:
                    mode |= stat.S_ISGID
                if gid != -1 and lst.st_gid != gid:
                    os.lchown(path, -1, gid)  # (clears setgid on some systems: chmod after)
                if mode != stat.S_IMODE(lst.st_mode):
                    os.chmod(path, mode)
            for n in dirs:  # links to directories are listed here and not walked: their group only
                p = os.path.join(d, n)
                if os.path.islink(p) and gid != -1 and os.lstat(p).st_gid != gid:
                    os.lchown(p, -1, gid)
    except OSError as exc:
        raise CudaenvError(f"cannot set the store's permissions on {exc.filename}: {exc.strerror}") from None


def this_host() -> str:
    """This host's name as the lock records it."""
    return os.uname().nodename or "localhost"


def _boot_id() -> str:
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip() or "-"
    except OSError:
        return "-"


def lock_owner(path: str) -> dict[str, Any] | None:
    """The lock file's ``{"user", "host", "pid", "boot"}``, or None when it is missing or unreadable."""
    try:
        with open(path, "rb") as f:
            words = f.read(4096).decode("utf-8", "replace").split()
    except OSError:
        return None
    if len(words) < 4 or not words[2].isdigit():
        return {"user": "?", "host": "?", "pid": 0, "boot": "?"}
    return {"user": words[0], "host": words[1], "pid": int(words[2]), "boot": words[3]}


def _stale(owner: dict[str, Any]) -> bool:
    """A lock of this host whose process is gone, or from an earlier boot of it."""
    if owner["host"] != this_host():
        return False
    if owner["boot"] not in ("-", _boot_id()):
        return True
    if owner["pid"] <= 0:
        return True
    try:
        os.kill(owner["pid"], 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's live process
        return False
    return False


class StoreLock:
    """The NFS-safe lock ``DIR/.<name>.lock.owner`` of one toolkit's install (see the module docstring).

    Args:
        parent: The directory the toolkit goes into.
        name: The toolkit directory's name.
        say: Called once with a line when the lock is another's and this one waits.
        poll: Seconds between tries while waiting.
    """

    def __init__(self, parent: str, name: str, say: Callable[[str], None], poll: float = 0.25) -> None:
        self.path = os.path.join(parent, f".{name}{LOCK_SUFFIX}")
        self.say = say
        self.poll = poll
        self.mine = ""

    def acquire(self) -> None:
        """Take the lock, waiting while another live install holds it.

        Raises:
            CudaenvError: the directory cannot be written.
        """
        import pwd

        try:
            user = pwd.getpwuid(os.geteuid()).pw_name
        except KeyError:
            user = str(os.geteuid())
        self.mine = f"{user} {this_host()} {os.getpid()} {_boot_id()} {time.time():.0f}\n"
        tmp = f"{self.path}.{this_host()}.{os.getpid()}.{os.urandom(4).hex()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            raise CudaenvError(f"cannot write in {os.path.dirname(self.path)}: {exc.strerror}") from None
        told = False
        try:
            with os.fdopen(fd, "w") as f:
                f.write(self.mine)
            while True:
                try:
                    os.link(tmp, self.path)
                except FileExistsError:
                    pass
                except OSError as exc:
                    if exc.errno in _NO_LINKS:
                        if self._create():  # a file system without hard links: O_EXCL (NFSv3 and later keep it)
                            return
                    elif exc.errno != errno.EIO:  # EIO: a lost answer on NFS; the count decides
                        raise CudaenvError(f"cannot lock {self.path}: {exc.strerror}") from None
                if os.stat(tmp).st_nlink == 2:
                    return
                owner = lock_owner(self.path)
                if owner is None:
                    continue  # released between the link and the read: try again at once
                if _stale(owner):
                    self._break(owner)
                    continue
                if not told:
                    self.say(f"another install holds {self.path} ({owner['user']} on {owner['host']}, pid "
                             f"{owner['pid']}); waiting for it (if that process is gone, remove the file)")
                    told = True
                time.sleep(self.poll)
        finally:
            try:
                os.unlink(tmp)
            except OSError:
                pass

    def _create(self) -> bool:
        """Take the lock by creating it with ``O_EXCL`` (False: it exists)."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except FileExistsError:
            return False
        except OSError as exc:
            raise CudaenvError(f"cannot lock {self.path}: {exc.strerror}") from None
        with os.fdopen(fd, "w") as f:
            f.write(self.mine)
        return True

    def _break(self, owner: dict[str, Any]) -> None:
        """Remove a stale lock, unless another process replaced it meanwhile."""
        aside = f"{self.path}.stale.{os.getpid()}.{os.urandom(4).hex()}"
        try:
            os.rename(self.path, aside)
        except OSError:
            return
        if lock_owner(aside) != owner:  # a live one taken after our read: put it back
            try:
                os.link(aside, self.path)
            except OSError:
                pass
        try:
            os.unlink(aside)
        except OSError:
            pass

    def release(self) -> None:
        """Remove the lock if it is still this process's."""
        try:
            with open(self.path) as f:
                if f.read(4096) != self.mine:
                    return
            os.unlink(self.path)
        except OSError:
            pass


def private_install_dir(base: str, what: str, more_hint: str = "") -> None:
    """Make cudaenv's own install directory ``base`` (0700) and refuse one another user can change.

    Raises:
        CudaenvError: ``base`` is another user's to change, or cannot be created.
    """
    try:
        ensure_dir(base)
    except Untrusted as exc:
        raise CudaenvError(f"not installing into {base}: {exc.strerror}, so another user could change {what}",
                           hint=f"remove it (cudaenv makes a private one) or chmod go-w it{more_hint}") from None
    except OSError as exc:
        raise CudaenvError(f"cannot create {base}: {exc.strerror}") from None
