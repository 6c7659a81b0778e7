"""Which components an install takes: ``build``, ``runtime``, ``full`` or names.

Names differ between releases and sources (``cuda_cccl`` became ``cccl``,
``cuda_crt`` and ``libnvvm`` split out of ``cuda_nvcc`` in 13.0, the wheels
say ``nvidia-cuda-runtime`` for ``cuda_cudart``), so nothing here lists the
components of a version: a part is a set of *roles*, and each role is matched
against the names the source's own manifest gives, after :func:`role`
strips the decorations. A role the release does not split out (``crt`` in
12.x lives inside ``cuda_nvcc``) simply matches nothing.

``build`` was measured (tests/test_install.py, bench/bench_install.py): nvcc,
crt, nvvm, cudart, cccl and culibos compile and link a CUDA program and
``cudaenv verify``'s torch extension (``torch/extension.h`` + ``c10/cuda``);
``ATen/cuda/CUDAContext.h``, which most real extensions include, also needs
``cublas_v2.h``/``cublasLt.h``, ``cusparse.h`` and ``cusolverDn.h`` (not curand
or cufft), so the cublas, cusparse and cusolver components are taken for
their ``include/`` only.
"""

from __future__ import annotations

from ..errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import How

__all__ = ["role", "BUILD", "BUILD_HEADERS", "RUNTIME", "PARTS", "is_driver", "select"]

#: Compile and link: the compiler, its front end and back end, the runtime, C++ core libraries.
BUILD = ("nvcc", "crt", "nvvm", "cudart", "cccl", "culibos")
#: Headers (only ``include/``) that torch's ATen/cuda/CUDAContext.h includes.
BUILD_HEADERS = ("cublas", "cusparse", "cusolver")
#: Shared libraries programs load at run time.
RUNTIME = ("cudart", "nvrtc", "nvjitlink", "cublas", "cufft", "curand", "cusolver", "cusparse", "npp",
           "nvjpeg", "cufile", "nvfatbin", "nvtx", "cupti")
PARTS = ("build", "runtime", "full")


def role(name: str) -> str:
    """The role a component name plays: ``cuda_cccl``/``cccl``/``nvidia-cuda-cccl`` -> ``cccl``."""
    n = name.lower().replace("-", "_")
    for prefix in ("nvidia_", "cuda_", "lib"):
        if n.startswith(prefix) and len(n) > len(prefix):
            n = n[len(prefix):]
    head, _, tail = n.rpartition("_cu")
    if head and tail.isdigit():
        n = head
    return {"runtime": "cudart"}.get(n, n)


def is_driver(name: str) -> bool:
    """Components that belong to the driver or the system, never to a user's toolkit."""
    n = name.lower()
    return n.startswith(("nvidia_driver", "nvidia_fs", "libnvidia", "fabricmanager", "imex", "libnvsdm",
                         "nvlsm", "mft"))


def select(spec: str, available: list[str]) -> dict[str, How]:
    """Component key -> ``"all"`` or ``"include"`` (headers only) for ``--parts SPEC``.

    Args:
        spec: Comma-separated parts and names: ``build``, ``runtime``, ``full``,
            a role (``cufft``) or a component key exactly as the manifest has it.
        available: The release's component keys (for this platform).

    Raises:
        CudaenvError: an unknown name, or a selection that names nothing.
    """
    by_role: dict[str, list[str]] = {}
    for key in available:
        by_role.setdefault(role(key), []).append(key)
    chosen: dict[str, How] = {}

    def take(keys: list[str], how: How) -> None:
        for k in keys:
            if chosen.get(k) != "all":
                chosen[k] = how

    words = [w.strip() for w in spec.split(",") if w.strip()]
    if not words:
        raise CudaenvError("--parts is empty", hint="build, runtime, full or component names", exit_code=2)
    for w in words:
        if w == "full":
            take([k for k in available if not is_driver(k)], "all")
        elif w == "build":
            for r in BUILD:
                take(by_role.get(r, []), "all")
            for r in BUILD_HEADERS:
                take(by_role.get(r, []), "include")
        elif w == "runtime":
            for r in RUNTIME:
                take(by_role.get(r, []), "all")
        elif w in available:
            take([w], "all")
        elif role(w) in by_role:
            take(by_role[role(w)], "all")
        else:
            names = ", ".join(sorted(by_role))
            raise CudaenvError(f"unknown part {w!r}: this release has {names}",
                               hint="or build, runtime, full", exit_code=2)
    if not chosen:
        raise CudaenvError(f"--parts {spec} selects nothing in this release", exit_code=2)
    return chosen
