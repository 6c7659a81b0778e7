"""Builds tuned to this machine: TORCH_CUDA_ARCH_LIST, CUDAARCHS, MAX_JOBS, NVCC_THREADS.

A profile's ``build`` section says, per setting, ``auto`` (the default), ``none``
(export nothing) or a value of your own. ``use`` exports what it decides and
``off`` takes it back, like every other variable. **Your own values win**: a
variable already in the environment before cudaenv touched it (or set by the
profile's ``set:``) is never overridden.

``arch_list`` → ``TORCH_CUDA_ARCH_LIST`` (torch's extensions) and ``CUDAARCHS`` (CMake):

* with GPUs (the driver's, all of them): their compute capabilities, each one
  the toolkit can build for (``nvcc --list-gpu-code``, cached per toolkit; without
  a GPU nvcc is never run: the compatibility table's range bounds the list); a
  capability newer than the environment's torch supports is clamped to torch's
  newest, as torch's own ``cpp_extension`` does;
* without a GPU (a build host, CI): the environment's torch build's own list
  when a probe has seen it (``check``/``doctor``/``verify`` cache it), else
  :data:`DEFAULT_SM` — one architecture per GPU family from Turing to Blackwell
  — each ∩ what the toolkit can build;
* ``+PTX`` on the newest (CMake: that one without ``-real``), so newer GPUs
  can still JIT the code.

``max_jobs`` → ``MAX_JOBS`` and ``nvcc_threads`` → ``NVCC_THREADS``, sized by
what each build system really runs at once: torch's ``cpp_extension`` runs
MAX_JOBS ninja jobs of one nvcc each and never passes ``--threads``;
flash-attention runs MAX_JOBS jobs of ``nvcc --threads $NVCC_THREADS`` (4 when
unset). With NVCC_THREADS=1 both run MAX_JOBS compiler threads, so one number
fits both: jobs = the cores of this allocation, but no more than the memory
allows at :data:`GIB_PER_THREAD` per compiler thread (flash-attention's README
asks for MAX_JOBS=4 below 96 GB: a default ninja build runs a machine with
hundreds of GB out of memory). The old rule, jobs = cores ÷ threads with one
thread per architecture, made a 4-file torch extension take 277 s with
MAX_JOBS=1 instead of 141 s with 2 on a 2-core machine (bench/bench_build_jobs.py).
A profile's own ``nvcc_threads: N``, or an NVCC_THREADS you exported yourself,
keeps jobs = cores ÷ N (such builds pass ``--threads``).

The allocation is the one this process may use, not the machine's
(:func:`cudaenv.host.node.allocation`): cores = the CPU affinity (Slurm's task/affinity, taskset,
a cpuset) bounded by a cgroup CPU quota (v2 ``cpu.max``, v1
``cpu.cfs_quota_us``); memory = the physical memory bounded by the cgroup's
limit (v2 ``memory.max``, v1 ``memory.limit_in_bytes``), the lowest along the
cgroup's ancestors. All read from files: it is on ``use``'s path.

These values belong to the node and allocation they were derived from: the
state records them (:func:`cudaenv.host.node.node_key`, ``Ops.bound``) and another node re-plans.

GPU capabilities need the driver (``nvidia-smi``); they are looked up once and
cached against ``/proc/driver/nvidia`` (the driver version and the GPUs' bus
ids), so ``use`` pays a few stats. Without ``/proc/driver/nvidia/version``
there is no driver and nothing runs.
"""

from __future__ import annotations

import os

from ..host.node import allocation
from ..host.pyenv import cached_torch, torch_build

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from typing import Mapping

    from ..env.ops import Ops
    from ..toolkit.types import Toolkit
    from .types import Profile

__all__ = ["SETTINGS", "DEFAULT_SM", "GIB_PER_THREAD", "gpu_caps", "toolkit_sms", "arch_list", "jobs", "build_vars", "apply_build"]

#: Profile ``build`` keys and the variables each one exports.
SETTINGS = {"arch_list": ("TORCH_CUDA_ARCH_LIST", "CUDAARCHS"), "max_jobs": ("MAX_JOBS",),
            "nvcc_threads": ("NVCC_THREADS",)}
#: Without a GPU or a known torch list: Turing, Ampere (A100, RTX 30), Ada, Hopper, Blackwell (B200, RTX 50).
DEFAULT_SM = (75, 80, 86, 89, 90, 100, 120)
#: Memory one nvcc thread may need on heavy template code (flash-attention's kernels).
GIB_PER_THREAD = 5
_TABLE = "gpus"


def gpu_caps(ctx: Context) -> list[int] | None:
    """The GPUs' compute capabilities as ints (86 = 8.6), or None without a driver (cached)."""
    base = os.path.join(ctx.proc_root, "driver", "nvidia")
    try:
        with open(os.path.join(base, "version"), "rb") as f:
            version = f.read(4096)
    except OSError:
        return None
    try:
        buses = tuple(sorted(os.listdir(os.path.join(base, "gpus"))))
    except OSError:
        buses = ()

    def compute() -> list[int]:
        from ..host.driver import driver_facts

        facts = driver_facts(ctx.env, proc_root=ctx.proc_root)
        caps = []
        for g in facts["gpus"]:
            cc = g["compute_cap"] or ""
            major, _, minor = cc.partition(".")
            if major.isdigit() and minor.isdigit():
                caps.append(int(major) * 10 + int(minor))
        return sorted(set(caps))

    ctx.index.data.setdefault(_TABLE, {})
    return ctx.index.cached(_TABLE, base, (version, buses), compute)


def toolkit_sms(ctx: Context, tk: Toolkit, ask_nvcc: bool) -> list[int]:
    """The real architectures ``tk`` builds, cached: its nvcc's own list with a GPU, else the table's range.

    Without a GPU nothing runs nvcc (a slow or hanging nvcc must not cost a switch on a build
    host); the compatibility table's ``sm_min``..``sm_max`` bounds the default list instead.
    """
    if ask_nvcc:
        from ..toolkit.facts import gpu_archs

        got = gpu_archs(tk, ctx.index)
        if got["sm"]:
            return got["sm"]
    ctx.index.data.setdefault("smrange", {})

    def compute() -> list[int]:
        from ..toolkit import compat

        row = compat.toolkit_row(tk["version"])
        lo, hi = (row["sm_min"], row["sm_max"]) if row else (None, None)
        return [sm for sm in DEFAULT_SM if lo <= sm <= hi] if lo and hi else []

    return ctx.index.cached("smrange", tk["version"], tuple(DEFAULT_SM), compute)


def _dotted(sm: int) -> str:
    return f"{sm // 10}.{sm % 10}"


def _torch_sms(arch_list: list[str]) -> list[int]:
    out = []
    for a in arch_list or []:
        digits = "".join(c for c in str(a).split("_", 1)[-1] if c.isdigit())
        if str(a).startswith("sm_") and digits:
            out.append(int(digits))
    return sorted(set(out))


def arch_list(gpus: list[int] | None, toolkit_sms: list[int], torch_sms: list[int]) -> tuple[list[int], str]:
    """(architectures to build, where they came from) — see the module doc. Empty: nothing to export."""
    can = set(toolkit_sms)
    if gpus:
        want = []
        for cc in gpus:
            if torch_sms and cc > max(torch_sms):
                cc = max(torch_sms)
            if not can or cc in can:
                want.append(cc)
        return sorted(set(want)), "the GPUs here"
    if torch_sms:
        pool, why = torch_sms, "the torch build's list (no GPU here)"
    else:
        pool, why = list(DEFAULT_SM), "the default list (no GPU here)"
    return sorted(sm for sm in pool if not can or sm in can), why


def jobs(cores: int, mem_gib: float, threads: int | None = None) -> tuple[int, int]:
    """(MAX_JOBS, NVCC_THREADS) for ``cores`` and ``mem_gib`` — see the module doc.

    Args:
        threads: The profile's own NVCC_THREADS (its builds pass ``--threads``),
            or None: one thread, as torch's cpp_extension runs nvcc.
    """
    t = max(1, threads or 1)
    by_mem = int(mem_gib // (GIB_PER_THREAD * t))
    return max(1, min(cores // t, by_mem)), t


def build_vars(ctx: Context, profile: Profile, tk: Toolkit, notes: list[str] | None = None,
               user_threads: str | None = None) -> dict[str, str]:
    """The variables the profile's ``build`` settings export for ``tk`` (before 'your values win').

    Args:
        user_threads: NVCC_THREADS as the user set it themselves: MAX_JOBS is then sized for
            builds that run that many threads per job.
    """
    settings = profile.get("build") or {}
    out: dict[str, str] = {}
    al = settings.get("arch_list", "auto")
    if al == "auto":
        pyenv = ctx.python.get()
        tb = torch_build(pyenv)
        torch = cached_torch(ctx.index, pyenv["python"], tb["version"]) if tb and pyenv else None
        gpus = gpu_caps(ctx)
        sms, why = arch_list(gpus, toolkit_sms(ctx, tk, bool(gpus)), _torch_sms((torch or {}).get("arch_list") or []))
        if sms:
            newest = _dotted(sms[-1])
            out["TORCH_CUDA_ARCH_LIST"] = ";".join(_dotted(s) for s in sms[:-1]) + (";" if len(sms) > 1 else "") \
                + newest + "+PTX"
            out["CUDAARCHS"] = ";".join([f"{s}-real" for s in sms[:-1]] + [str(sms[-1])])
        elif notes is not None:
            notes.append(f"build: CUDA {tk['version']} can build for none of {why}; TORCH_CUDA_ARCH_LIST left alone")
    elif al not in (None, "none"):
        out["TORCH_CUDA_ARCH_LIST"] = str(al)
    mj, nt = settings.get("max_jobs", "auto"), settings.get("nvcc_threads", "auto")
    if "auto" in (mj, nt):
        cores, mem = allocation()
        if nt == "auto":
            nt = 1
        if mj == "auto":
            t = user_threads if user_threads is not None else str(nt)
            mj = jobs(cores, mem, int(t) if t.isdigit() and int(t) > 0 else None)[0]
    if mj not in (None, "none"):
        out["MAX_JOBS"] = str(mj)
    if nt not in (None, "none"):
        out["NVCC_THREADS"] = str(nt)
    return out


def apply_build(ctx: Context, profile: Profile, tk: Toolkit, ops: Ops, base: Mapping[str, str], notes: list[str]) -> None:
    """Add the build variables to ``ops``, except those the user (``base``) or the profile already set."""
    settings = profile.get("build") or {}
    for var, value in build_vars(ctx, profile, tk, notes, base.get("NVCC_THREADS")).items():
        if var in base or var in ops.set or var in ops.prepend or var in ops.append:
            continue
        ops.set[var] = value
        # Derived from this node (GPUs, cores, memory): recorded, re-derived on another node.
        if any(var in names and settings.get(key, "auto") == "auto" for key, names in SETTINGS.items()):
            ops.bound.append(var)
