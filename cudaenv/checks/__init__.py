"""Checks: rules over facts that produce findings.

A finding has a stable ``id`` (listed in :data:`CHECKS`; ``explain`` entries
and CI scripts refer to them), a status, a one-line summary, detail and a
fix. Rules never run anything themselves: they read facts gathered by
``cudaenv.host`` and ``cudaenv.toolkit``.
"""

from __future__ import annotations

__all__ = ["Finding", "STATUSES", "CHECKS", "ADVICE"]

STATUSES = ("ok", "info", "warn", "fail", "skip")

# Every check id, with what it looks at. Ids are stable: add, never rename.
CHECKS = {
    "driver.present": "an NVIDIA driver is installed and loaded",
    "driver.version": "the driver is new enough for the toolkit (natively or by minor-version compatibility)",
    "driver.forward_compat": "forward-compatibility libraries (cuda-compat) on the loader path of a GPU that does not support them",
    "toolkit.stubs": "the toolkit can link -lcuda (a driver stub in lib64/stubs)",
    "toolkit.cxx_std": "the toolkit's nvcc supports the C++ standard the build asks for",
    "compiler.host": "the host compiler is one the toolkit accepts (or a supported one is selected)",
    "torch.cuda_version": "torch's CUDA version matches the toolkit (major must match)",
    "torch.cuda_build": "torch is a CUDA build (a CPU build cannot build or run CUDA extensions)",
    "torch.arch": "torch's architecture list covers the GPU",
    "gpu.arch": "the toolkit can compile for the GPU's architecture",
    "env.consistency": "CUDA_HOME, CUDA_PATH, the nvcc on PATH and the active profile agree",
    "env.cuda_home": "CUDA_HOME is set and points at a toolkit",
    "env.empty_entries": "no empty entries (the current directory) in PATH, LD_LIBRARY_PATH, LIBRARY_PATH",
    "env.stubs_on_loader_path": "no driver stub on the loader path while a real driver is present",
    "env.cudart_versions": "a single libcudart version is reachable on the loader path",
    "env.wheel_shadowing": "no library directory on LD_LIBRARY_PATH shadows a newer copy the Python environment's nvidia wheels ship",
    "env.cuda_visible_devices": "CUDA_VISIBLE_DEVICES is valid",
    "torch.extension_lock": "no stale torch_extensions build lock (the baton.wait() hang)",
    "env.cuda_home_headers": "CUDA_HOME holds the headers builds include (cuda_runtime.h; cuBLAS/cuSPARSE/cuSOLVER for torch extensions)",
    "driver.library_mismatch": "the loaded kernel module and the driver libraries the loader finds are one version",
    "env.libstdcxx": "the libstdc++ the loader finds provides what the Python environment's compiled modules need",
    "env.nccl": "NCCL's surroundings: /dev/shm large enough, NCCL_SOCKET_IFNAME naming an interface of this machine",
    "runtime.out_of_memory": "not an environment problem: the GPU ran out of memory",
    "addon.cuda": "each cuDNN / NCCL add-on of the profile is built for the toolkit's CUDA major (NVIDIA's support matrices)",
}

# Advice that a finding and an `explain` answer both give, written once: a finding's fix
# uses it as is, errors.yaml as `{advice.NAME}` (filled when the knowledge base loads).
ADVICE = {
    "container_shm": "start the container with `--ipc=host` or `--shm-size=16g` (Kubernetes: an emptyDir "
                     "with `medium: Memory` on /dev/shm)",
    "driver_reload": "reboot (or unload and reload the nvidia modules with no GPU process running)",
    "stub_link_time": "keep a toolkit's lib64/stubs on LIBRARY_PATH only (where `ld -lcuda` looks), never on "
                      "LD_LIBRARY_PATH where CUDA programs run",
    "stub_inherited": "switch again where the program runs: `eval \"$(cudaenv use <version>)\"` in the job script "
                      "(or `cudaenv exec <version> -- CMD`) re-plans the switch for that node and drops an inherited "
                      "stub; or `eval \"$(cudaenv off)\"` before sbatch/srun/salloc, or submit with --export=NONE",
}


class Finding:
    """One result of one check.

    Args:
        id: A key of :data:`CHECKS`.
        status: One of :data:`STATUSES`.
        summary: One line.
        detail: More text (may be empty).
        fix: What to do (may be empty).
    """

    __slots__ = ("id", "status", "summary", "detail", "fix")

    def __init__(self, id: str, status: str, summary: str, detail: str = "", fix: str = "") -> None:
        if id not in CHECKS:
            raise ValueError(f"unknown check id {id!r}")
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        self.id = id
        self.status = status
        self.summary = summary
        self.detail = detail
        self.fix = fix

    def to_dict(self) -> dict:
        return {"id": self.id, "status": self.status, "summary": self.summary, "detail": self.detail, "fix": self.fix}

    def __repr__(self) -> str:
        return f"Finding({self.id!r}, {self.status!r}, {self.summary!r})"
