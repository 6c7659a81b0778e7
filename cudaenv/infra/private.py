"""The user's own directories and files: caches and state no other user can change.

cudaenv acts on what its caches hold: the preload file is code every fast
command runs, the index names the toolkits ``use`` puts on PATH, the stub and
link directories go on LD_LIBRARY_PATH and LIBRARY_PATH. A cache another user
can write (a shared ``XDG_CACHE_HOME``, a directory made under umask 002) is
therefore that user's code running as this one. The rules, for every cache
and state file cudaenv keeps:

* **made private**: directories are created 0700 whatever the umask (missing
  parents too, as the XDG spec asks), files 0600 (a stub library 0755);
* **trusted only when private**: a directory is used when it is a directory
  owned by the effective user that neither group nor others can write, and
  every directory above it is owned by the user or root and is either not
  writable by group and others or sticky (``/tmp``): otherwise another user
  could rename it away after the check and put their own in its place. A
  symlink on the way is followed when it is the user's or root's in such a
  directory. A file is used when it is a regular file owned by the user that
  neither group nor others can write, checked on the descriptor that is read
  (``fstat``), opened without following a symlink;
* **one note, then uncached**: anything else is not read, executed or put on a
  loader path; one line on stderr says which directory and why (once per
  process), and the command runs as it would without a cache;
* **written safely**: a file is written to a new temporary name in its own
  (checked) directory with ``O_CREAT|O_EXCL|O_NOFOLLOW`` and renamed into
  place, so a planted symlink can never redirect the write.

The checks are ``lstat``/``fstat`` calls on paths being opened anyway,
memoised per process: ``use`` pays a few microseconds. Ownership is compared
with :func:`os.geteuid`.
"""

from __future__ import annotations

import marshal  # built in: free
import os
import stat  # imported by os already: free

__all__ = ["MISSING", "dir_problem", "ensure_dir", "file_problem", "read_private", "write_private", "replace_file",
           "trusted_dir", "own_file", "private_dir", "note_untrusted", "Untrusted", "xdg_dir", "cache_dir"]


def xdg_dir(var: str, fallback: str, env=None) -> str:
    """``$var`` when it is an absolute path, else ``~/fallback`` (``XDG_CACHE_HOME``, ``.cache``): the XDG base-directory
    rule, once for every caller (the command context, the preload file, the explain tables' cache), here because every
    fast command loads this module already. The spec: a variable unset, empty or not absolute is ignored."""
    value = (os.environ if env is None else env).get(var, "")
    if value and os.path.isabs(value):
        return value
    return os.path.join(os.path.expanduser("~"), fallback)


def cache_dir(env=None) -> str:
    """``$XDG_CACHE_HOME/cudaenv`` (default ``~/.cache/cudaenv``), where every cache above lives."""
    return os.path.join(xdg_dir("XDG_CACHE_HOME", ".cache", env), "cudaenv")

#: :func:`dir_problem`'s answer for a directory that does not exist or cannot be one (a file, no
#: permission on the way): nothing to read, and making it fails with the system's reason.
MISSING = "missing"
# path -> None (fine), MISSING or the reason; ancestors and directories alike (one walk per process).
_DIRS: dict = {}
_ANCESTORS: dict = {}
#: Whether this process has printed its one note already.
_NOTED: list = []


class Untrusted(OSError):
    """A cache directory or file another user could have written (``strerror`` says why)."""


def _who(st: os.stat_result) -> str:
    return "owned by uid %d" % st.st_uid


def _ancestor_problem(path: str, euid: int, depth: int = 0) -> str | None:
    """Why the directory ``path``, as a directory *above* a private one, lets another user swap what it holds."""
    got = _ANCESTORS.get(path, 0)
    if got != 0:
        return got
    parent = os.path.dirname(path)
    why = None if parent == path else _ancestor_problem(parent, euid, depth)
    if why is None:
        try:
            st = os.lstat(path)
        except OSError:  # missing, unreadable, a file on the way: unusable, not another user's
            why = MISSING
        else:
            if stat.S_ISLNK(st.st_mode):
                if st.st_uid not in (0, euid):
                    why = f"{path} is a symlink {_who(st)}"
                elif depth > 8:
                    why = f"{path}: too many symlinks"
                else:
                    why = _ancestor_problem(os.path.realpath(path), euid, depth + 1)
            elif not stat.S_ISDIR(st.st_mode):
                why = MISSING
            elif st.st_uid not in (0, euid):
                why = f"{path} is {_who(st)}"
            elif st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
                why = f"{path} is writable by {'others' if st.st_mode & 0o002 else 'its group'}"
    if why != MISSING:
        _ANCESTORS[path] = why
    return why


def _dir_check(path: str, euid: int) -> str | None:
    try:
        st = os.lstat(path)
    except OSError:
        return MISSING
    if stat.S_ISLNK(st.st_mode):
        if st.st_uid not in (0, euid):
            return f"it is a symlink {_who(st)}"
        # The user's (or root's) link in a safe directory: where it leads counts.
        real = os.path.realpath(path)
        why = _ancestor_problem(os.path.dirname(real), euid)
        if why is not None:
            return why
        try:
            st = os.lstat(real)
        except OSError:
            return MISSING
        path = real
    if not stat.S_ISDIR(st.st_mode):
        return MISSING  # a file in its place: unusable (mkdir says why), not another user's
    if st.st_uid != euid:
        return f"it is {_who(st)}, not yours"
    if st.st_mode & 0o022:
        return f"it is writable by {'others' if st.st_mode & 0o002 else 'its group'}"
    return None


def dir_problem(path: str) -> str | None:
    """Why directory ``path`` is not the user's own (None: it is; :data:`MISSING`: it does not exist)."""
    path = os.path.abspath(path)
    if path in _DIRS:
        return _DIRS[path]
    euid = os.geteuid()
    why = _ancestor_problem(os.path.dirname(path), euid) or _dir_check(path, euid)
    if why != MISSING:
        _DIRS[path] = why
    return why


def note_untrusted(path: str, why: str) -> None:
    """The one note of this process about a cache it does not use (later ones are silent)."""
    if _NOTED:
        return
    _NOTED.append(path)
    from .console import note

    note(f"note: not using {path}: {why}, so another user could change what cudaenv runs; going on "
         "without it (fix: remove it, cudaenv makes new ones private, or chmod go-w it)")


def trusted_dir(path: str) -> bool:
    """Whether directory ``path`` exists and is the user's own (one note when it is not)."""
    why = dir_problem(path)
    if why is None:
        return True
    if why != MISSING:
        note_untrusted(path, why)
    return False


def _mkdir_private(path: str) -> None:
    parent = os.path.dirname(path)
    if parent != path and not os.path.isdir(parent):
        _mkdir_private(parent)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        return
    os.chmod(path, 0o700)  # mkdir's mode is masked by the umask (0277 would leave it unwritable)


def ensure_dir(path: str) -> None:
    """Make ``path`` (and missing parents) 0700 if missing, and check it is the user's own.

    Raises:
        Untrusted: it (or a directory above it) is another user's to change; the
            one note has been printed.
        OSError: it cannot be made.
    """
    why = dir_problem(path)
    if why == MISSING:
        _mkdir_private(path)
        why = dir_problem(path)
    if why == MISSING:
        if os.path.lexists(path):
            raise NotADirectoryError(20, "Not a directory", path)
        raise FileNotFoundError(2, "No such file or directory", path)
    if why is not None:
        note_untrusted(path, why)
        raise Untrusted(1, why, path)


def private_dir(path: str) -> bool:
    """:func:`ensure_dir`, answering False (its one note printed) for a directory another user can change.

    Raises:
        OSError: it cannot be made.
    """
    try:
        ensure_dir(path)
    except Untrusted:
        return False
    return True


def file_problem(st: os.stat_result) -> str | None:
    """Why a cache file with status ``st`` is not the user's own (None: it is)."""
    if not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    if st.st_uid != os.geteuid():
        return f"it is {_who(st)}, not yours"
    if st.st_mode & 0o022:
        return "it is writable by group or others"
    return None


def own_file(path: str) -> bool:
    """Whether ``path`` (not followed if a link) is a regular file of the user's own in a directory of theirs.

    One note when it exists and is not (nothing of it may be used).
    """
    if not trusted_dir(os.path.dirname(path)):
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    why = file_problem(st)
    if why is not None:
        note_untrusted(path, why)
    return why is None


def read_private(path: str, limit: int) -> bytes | None:
    """The whole cache file ``path`` (at most ``limit`` bytes), or None when there is none to trust.

    None when its directory is not the user's own (one note), when it is
    missing, a symlink, not a regular file, another user's or writable by
    others (one note), larger than ``limit`` or unreadable. Never blocks (a FIFO).
    """
    d = os.path.dirname(path)
    if not trusted_dir(d):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None  # missing, or a symlink (ELOOP): not ours to follow
    try:
        st = os.fstat(fd)
        why = file_problem(st)
        if why is not None:
            if stat.S_ISREG(st.st_mode):
                note_untrusted(path, why)
            return None
        if st.st_size > limit:
            return None
        chunks = []
        left = limit + 1
        while left > 0:
            b = os.read(fd, min(left, max(1 << 16, st.st_size + 1)))  # one read for the whole file
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        return None if left <= 0 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_private_marshal(path: str, limit: int) -> object:
    """The value marshalled in the cache file ``path`` (read as :func:`read_private` reads), or None
    when there is none to trust or it does not decode. The caller checks the value's shape."""
    raw = read_private(path, limit)
    if raw is None:
        return None
    try:
        return marshal.loads(raw)  # loads(bytes) is ~10x faster than load(f), which reads in small pieces
    except (EOFError, ValueError, TypeError):
        return None


def write_private(path: str, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to ``path`` atomically, in a directory that is the user's own (made 0700 if missing).

    The new content goes to a fresh temporary name created with
    ``O_EXCL|O_NOFOLLOW`` (never a planted file or link), then is renamed over ``path``.

    Raises:
        Untrusted: the directory is another user's to change (the one note is printed).
        OSError: it cannot be written (nothing is left behind).
    """
    ensure_dir(os.path.dirname(path))
    replace_file(path, data, mode)


def replace_file(path: str, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to ``path`` through a fresh ``O_EXCL|O_NOFOLLOW`` temporary file beside it and a rename.

    For a directory the caller has checked or chosen (:func:`write_private` checks a cache's).

    Raises:
        OSError: it cannot be written (nothing is left behind).
    """
    tmp = f"{path}.{os.getpid()}-{os.urandom(6).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if mode != 0o600:
                os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
