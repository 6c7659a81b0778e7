"""This node and this process's share of it: the allocation builds are sized by, and the node's key.

Files only (``/proc``, ``/sys/fs/cgroup``), no process, no heavy import:
``use`` and every new shell's ``init`` read it.

* :func:`allocation`: cores = the CPU affinity (Slurm's task/affinity,
  taskset, a cpuset) bounded by the cgroup's CPU quota (v2 ``cpu.max``, v1
  ``cpu.cfs_quota_us``/``cpu.cfs_period_us``); memory = the physical memory
  bounded by the cgroup's limit (v2 ``memory.max``, v1
  ``memory.limit_in_bytes``) — the lowest along the cgroup and its ancestors.
  (Physical, not MemAvailable: a moment's free memory would make two identical
  shells export different settings; a job's real bound is its cgroup.)
* :func:`node_key`: where a switch is planned (``State.node``), compared by
  every process that inherits one (``commands/node.py``).
"""

from __future__ import annotations

import os

__all__ = ["cgroup_limits", "allocation", "node_key"]

# A v1 memory limit at or above this is "no limit" (the kernel's 'unlimited' is 2**63 rounded down to a page).
_NO_LIMIT = 1 << 60


def _read(path: str, size: int = 4096) -> str:
    # os.open/os.read: a /proc or cgroup file read this way costs a few microseconds, through
    # open() ten times more (use reads a dozen of them).
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        chunks = []
        while size > 0:
            b = os.read(fd, min(size, 65536))
            if not b:
                break
            chunks.append(b)
            size -= len(b)
        return b"".join(chunks).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    finally:
        os.close(fd)


def _unescape(field: str) -> str:
    # mountinfo writes space, tab, newline and backslash as \ooo
    if "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def _cgroup_dirs(root: str) -> dict[str, list[str]]:
    """Controller ("memory", "cpu", or "" for the v2 unified tree) -> this process's cgroup directory and
    its ancestors up to the mount, innermost first."""
    paths: dict[str, str] = {}
    for line in _read(root + "/proc/self/cgroup").splitlines():
        hier, _, rest = line.partition(":")
        ctrls, _, path = rest.partition(":")
        if hier == "0" and not ctrls:
            paths[""] = path
        for c in ctrls.split(","):
            if c in ("memory", "cpu"):
                paths[c] = path
    if not paths:
        return {}
    out: dict[str, list[str]] = {}
    # The usual layout first (v1 controllers under /sys/fs/cgroup/NAME, v2 at /sys/fs/cgroup or, in
    # hybrid mode, /sys/fs/cgroup/unified), checked by the cgroup's own directory being there;
    # mountinfo (a larger file) only when it is not: a mount of a subtree, an odd mount point.
    sysfs = root + "/sys/fs/cgroup"
    for key, path in paths.items():
        tops = [sysfs + "/" + key] if key else [sysfs, sysfs + "/unified"]
        for top in tops:
            marker = "/cgroup.procs" if key else "/cgroup.controllers"
            if os.path.exists(top + marker) and os.path.isdir(top + path.rstrip("/")):
                out[key] = _chain(top, path)
                break
    if len(out) == len(paths):
        return out
    for line in _read(root + "/proc/self/mountinfo", 1 << 20).splitlines():
        f = line.split(" ")
        try:
            sep = f.index("-", 6)
            fstype, opts, mroot, mpoint = f[sep + 1], f[sep + 3].split(","), _unescape(f[3]), _unescape(f[4])
        except (ValueError, IndexError):
            continue
        if fstype == "cgroup2":
            keys = [""]
        elif fstype == "cgroup":
            keys = [c for c in ("memory", "cpu") if c in opts]
        else:
            continue
        for key in keys:
            if key not in paths or key in out:
                continue
            path = paths[key]
            if mroot == "/":
                rel = path
            elif path == mroot or path.startswith(mroot + "/"):
                rel = path[len(mroot):]
            else:
                rel = ""  # a cgroup namespace: the mount is this process's own cgroup
            out[key] = _chain(root + mpoint.rstrip("/"), rel)
    return out


def _chain(top: str, rel: str) -> list[str]:
    """``top`` + ``rel`` and each parent directory up to ``top``, innermost first."""
    d = top + rel.rstrip("/")
    chain = []
    while True:
        chain.append(d)
        if len(d) <= len(top) or "/" not in d:
            return chain
        d = d.rsplit("/", 1)[0]


def cgroup_limits(root: str = "") -> tuple[float | None, int | None]:
    """(CPUs the cgroup's quota allows, its memory limit in bytes) — None where there is no limit.

    The lowest limit along this process's cgroup and its ancestors, cgroup v2
    (``cpu.max``, ``memory.max``) or v1 (``cpu.cfs_quota_us``/``cpu.cfs_period_us``,
    ``memory.limit_in_bytes``). ``root`` prefixes every path (tests).
    """
    cpus: float | None = None
    mem: int | None = None
    for key, chain in _cgroup_dirs(root).items():
        for d in chain:
            if key in ("", "cpu"):
                if key:
                    quota, period = _read(d + "/cpu.cfs_quota_us"), _read(d + "/cpu.cfs_period_us")
                else:
                    quota, _, period = _read(d + "/cpu.max").partition(" ")
                if quota.isdigit() and period.isdigit() and int(period) > 0:
                    n = int(quota) / int(period)
                    cpus = n if cpus is None else min(cpus, n)
            if key in ("", "memory"):
                v = _read(d + ("/memory.limit_in_bytes" if key else "/memory.max"))
                if v.isdigit() and int(v) < _NO_LIMIT:
                    mem = int(v) if mem is None else min(mem, int(v))
    return cpus, mem


_MEMO: dict[str, tuple[int, float]] = {}


def allocation(root: str = "") -> tuple[int, float]:
    """(cores, memory in GiB) this process may use: affinity and physical memory, bounded by its cgroup.

    Read once per process (``use`` sizes builds and keys the node with it).
    """
    if root in _MEMO:
        return _MEMO[root]
    _MEMO[root] = got = _allocation(root)
    return got


def _allocation(root: str) -> tuple[int, float]:
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        mem = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        mem = 0
    qcpus, qmem = cgroup_limits(root)
    if qcpus is not None:
        cores = min(cores, max(1, int(qcpus)))  # a quota is a hard cap: 1.5 CPUs run one job at full speed
    if qmem is not None:
        mem = min(mem, qmem) if mem > 0 else qmem
    return max(1, cores), (mem / (1 << 30) if mem > 0 else 4.0)


def node_key(proc_root: str = "/proc") -> str:
    """Where a switch is planned: host name, boot id, this allocation (cores, memory) and the driver/GPUs seen.

    Two processes with the same key derive the same host-bound values; one
    that finds another key in the state re-plans (a Slurm job inheriting the
    login node's switch, a step bound to other cores or under another cgroup).
    Files only: it is on ``use``'s path.
    """
    cores, mem = allocation()
    boot = _read("/proc/sys/kernel/random/boot_id")[:8] or "-"
    base = os.path.join(proc_root, "driver", "nvidia")
    try:
        with open(os.path.join(base, "version"), "rb") as f:
            drv = f.read(4096)
    except OSError:
        driver = "nodriver"
    else:
        try:
            gpus = sorted(os.listdir(os.path.join(base, "gpus")))
        except OSError:
            gpus = []
        import zlib  # here: a driverless login node never loads it

        crc = zlib.crc32(drv)
        for g in gpus:
            crc = zlib.crc32(g.encode() + _read(os.path.join(base, "gpus", g, "information")).encode(), crc)
        driver = "d%08x" % crc
    return f"{os.uname().nodename}/{boot}/c{cores}/m{int(mem * 1024)}/{driver}"
