"""``cudaenv fleet``: the facts of every node of an allocation, and one table of what differs.

Each node runs ``cudaenv fleet --facts`` (a compact doctor: files only, plus the
driver's facts) in one ``srun`` step, one task per node. The step gets no
environment from the login shell but the variables that say where cudaenv's
own configuration is (``--export=`` that list, ``NONE`` when none is set), and
cudaenv is started by its absolute path, so a site's ``--export=NONE`` habit
and a login shell's switch change nothing in what is compared. The host this
runs on is a row too (``login``): a login node without a driver and a GPU node
with one differ there first.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

from .. import __version__
from ..context import Context
from ..env.pathlist import entries, which
from ..errors import CudaenvError
from ..infra.console import note, printable, write_out
from ..infra.files import ld_cache_paths
from ..infra.jsonout import document, dumps, target
from ..infra.run import run
from ..infra.term import fit_table, width
from ..profiles.model import scan_toolkits
from .kernel import runner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["fleet", "node_facts", "FACTS", "differences", "sane", "fingerprint", "cell"]

#: The facts compared, in the table's order: (key, column title).
FACTS = (("driver", "driver"), ("driver_cuda", "driver CUDA"), ("gpus", "GPUs"), ("libcuda", "libcuda.so.1"),
         ("toolkits", "toolkits (version:fingerprint)"), ("nccl", "NCCL"), ("cudnn", "cuDNN"),
         ("shm", "/dev/shm"), ("cudaenv", "cudaenv"))
#: What the step exports: where cudaenv's own settings and toolkits are, nothing of a switch.
EXPORTED = ("HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_CACHE_HOME",
            "XDG_DATA_HOME", "CUDAENV_SITE_CONFIG_DIR", "CUDAENV_ROOTS", "CUDAENV_PROC_ROOT")
_NCCL = ("libnccl.so.2",)
_CUDNN = ("libcudnn.so.9", "libcudnn.so.8")
#: Bytes of each end of a toolkit's key files that its fingerprint reads (their sizes count whole).
_FP_BYTES = 1 << 16
_FP_FILES = ("version.json", "version.txt", "include/cuda.h", "bin/nvcc", "bin/ptxas")


def fingerprint(root: str, libdir: str) -> str:
    """A short hash of what a toolkit's key files hold: version files, cuda.h, nvcc, ptxas, libcudart.

    Each file counts by its size and the first and last 64 KiB, so a toolkit copied to
    another node keeps its fingerprint and a patched or partial copy does not.
    """
    h = hashlib.sha256()
    names = list(_FP_FILES)
    try:
        names += sorted(os.path.join(libdir, n) for n in os.listdir(os.path.join(root, libdir))
                        if n.startswith("libcudart.so"))
    except OSError:
        pass
    for rel in names:
        p = os.path.join(root, rel)
        try:
            with open(p, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                head = f.read(_FP_BYTES)
                if size > 2 * _FP_BYTES:
                    f.seek(size - _FP_BYTES)
                tail = f.read(_FP_BYTES)
        except OSError:
            continue
        h.update(f"{rel}\0{size}\0".encode())
        h.update(head)
        h.update(tail)
    return h.hexdigest()[:12]


def _found(sonames: tuple[str, ...], ld_path: list[str], cache: list[str]) -> str | None:
    for so in sonames:
        for d in ld_path:
            if os.path.exists(os.path.join(d, so)):
                return os.path.join(d, so)
        for p in cache:
            if os.path.basename(p) == so and os.path.exists(p):
                return p
    return None


def node_facts(ctx: Context) -> dict:
    """This node's facts (the keys of :data:`FACTS` plus ``node``, ``host`` and the toolkits' roots)."""
    drv = ctx.driver
    toolkits, _ = scan_toolkits(ctx)
    ld = entries(ctx.env.get("LD_LIBRARY_PATH"))
    cache = ld_cache_paths()
    try:
        vfs = os.statvfs("/dev/shm")
        shm = vfs.f_frsize * vfs.f_blocks
    except OSError:
        shm = None
    host = os.uname().nodename
    return {
        "node": ctx.env.get("SLURMD_NODENAME") or host,
        "host": host,
        "cudaenv": __version__,
        "driver": drv["version"] if drv["present"] else None,
        "driver_cuda": drv["cuda"] if drv["present"] else None,
        "gpus": sorted(g.get("name") or "?" for g in drv.get("gpus") or []),
        "libcuda": _found(("libcuda.so.1",), ld, cache),
        "toolkits": sorted((dict(target(None, tk["root"], tk["full_version"]),
                                 fingerprint=fingerprint(tk["root"], tk["libdir"])) for tk in toolkits),
                           key=lambda t: (t["full_version"], t["root"])),
        "nccl": _found(_NCCL, ld, cache),
        "cudnn": _found(_CUDNN, ld, cache),
        "shm": shm,
    }


def cell(key: str, value: Any) -> str:
    """One fact as a table cell."""
    if value is None or value == []:
        return "none"
    if key == "toolkits":
        return " ".join(f"{t['full_version']}:{t['fingerprint'][:8]}" for t in value)
    if key == "gpus":
        return ", ".join(value)
    if key == "shm":
        n = float(value)
        for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
            if n < 1024 or unit == "TiB":
                return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
            n /= 1024
    return str(value)


def sane(doc: dict[str, Any]) -> dict[str, Any]:
    """A node's facts as this cudaenv reads them: a value of another shape (another cudaenv version
    on that node, a garbled line) becomes None, so the table shows ``none`` instead of failing."""
    out: dict[str, Any] = {"node": doc["node"]}
    for key in ("host", "cudaenv", "driver", "driver_cuda", "libcuda", "nccl", "cudnn"):
        v = doc.get(key)
        out[key] = v if isinstance(v, str) else None
    gpus = doc.get("gpus")
    out["gpus"] = [g for g in gpus if isinstance(g, str)] if isinstance(gpus, list) else []
    tks = doc.get("toolkits")
    out["toolkits"] = [t for t in tks if isinstance(t, dict) and all(
        isinstance(t.get(k), str) for k in ("root", "full_version", "series", "fingerprint"))] \
        if isinstance(tks, list) else []
    shm = doc.get("shm")
    out["shm"] = shm if isinstance(shm, int) and not isinstance(shm, bool) and shm >= 0 else None
    return out


def differences(rows: list[dict[str, Any]]) -> list[str]:
    """The keys of :data:`FACTS` whose cells are not the same on every row."""
    return [k for k, _t in FACTS if len({cell(k, r.get(k)) for r in rows}) > 1]


def _nodes_of(spec: str, env: dict) -> list[str]:
    """Slurm's hostlist ``spec`` (``gpu[01-04],login``) as names, through ``scontrol show hostnames``."""
    scontrol = which("scontrol", env.get("PATH"))
    if scontrol is None:
        raise CudaenvError("scontrol not found: the fleet check needs Slurm's commands on PATH", exit_code=2)
    res = run([scontrol, "show", "hostnames", spec], env=env, timeout=30)
    names = res.stdout.split()
    if res.returncode != 0 or not names:
        why = (res.stderr.strip().splitlines() or ["no node names"])[-1]
        raise CudaenvError(f"not a node list: {spec!r} ({why})", exit_code=2)
    return names


def _gather(spec: str, env: dict, timeout: float) -> list[dict]:
    """Run ``fleet --facts`` once on each node of ``spec`` in one srun step; their facts."""
    srun = which("srun", env.get("PATH"))
    if srun is None:
        raise CudaenvError("srun not found: the fleet check runs one step through Slurm", exit_code=2)
    nodes = _nodes_of(spec, env)
    names = [n for n in EXPORTED if env.get(n)]
    argv = [srun, f"--nodes={len(nodes)}", f"--nodelist={spec}", "--ntasks-per-node=1",
            f"--ntasks={len(nodes)}", "--export=" + (",".join(names) if names else "NONE"),
            *runner(), "fleet", "--facts"]
    res = run(argv, env=env, timeout=timeout)
    if res.timed_out:
        raise CudaenvError(f"the fleet step did not finish in {timeout:g} s (srun on {spec})",
                           hint="is the partition busy? see squeue; --timeout SECONDS", exit_code=1)
    got = []
    for line in res.stdout.splitlines():
        if line.startswith("{"):
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            if isinstance(doc, dict) and isinstance(doc.get("node"), str):
                got.append(sane(doc))
    if res.returncode != 0 or not got:
        why = (res.stderr.strip().splitlines() or [f"exit status {res.returncode}"])[-1]
        raise CudaenvError(f"the fleet step failed on {spec}: {why}", exit_code=1)
    seen = {d["node"] for d in got}
    missing = [n for n in nodes if n not in seen]
    if missing:
        note(f"warning: no facts from {', '.join(missing)}")
    return sorted(got, key=lambda d: d["node"])


def fleet(nodes: str | None, as_json: bool, login: bool = True, facts: bool = False, timeout: float = 300) -> int:
    """``--facts``: print this node's facts (one JSON line). Else gather every node's and print what differs.

    The nodes are ``nodes`` (a Slurm hostlist), else the allocation's (``$SLURM_JOB_NODELIST``).
    """
    ctx = Context()
    if facts:
        doc = node_facts(ctx)
        ctx.save()
        write_out(dumps(doc, indent=0).replace("\n", "") + "\n")
        return 0
    spec = nodes or ctx.env.get("SLURM_JOB_NODELIST")
    if not spec:
        raise CudaenvError("which nodes? give --nodes LIST (e.g. gpu[01-04]) or run inside an allocation",
                           hint="salloc -N2 cudaenv fleet", exit_code=2)
    rows = _gather(spec, ctx.env, timeout)
    if login:
        here = node_facts(ctx)
        here["node"] = f"{here['host']} (here)"
        rows.insert(0, here)
    ctx.save()
    differ = differences(rows)
    if as_json:
        write_out(dumps(document("fleet", True, nodes=rows, differ=differ)) + "\n")
        return 0
    head = ["node"] + [t for k, t in FACTS if k in differ]
    table = [head] + [[r["node"]] + [cell(k, r.get(k)) for k, _t in FACTS if k in differ] for r in rows]
    lines = []
    if differ:
        lines += fit_table([[printable(c) for c in row] for row in table], width(sys.stdout, ctx.env))
    else:
        lines.append(f"all {len(rows)} nodes agree")
    same = [f"{t} {cell(k, rows[0].get(k))}" for k, t in FACTS if k not in differ]
    if same:
        lines.append(printable("same everywhere: " + "; ".join(same)))
    write_out("".join(line + "\n" for line in lines))
    return 0
