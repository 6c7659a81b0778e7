"""``--match-torch``: the installed toolkit that fits the environment's torch.

torch's CUDA version is read from ``torch/version.py`` in the Python
environment ``python3`` on PATH belongs to (``host/pyenv.py``; torch is never
imported). The rule, for a torch built with CUDA X.Y:

1. a toolkit of the same X.Y (the newest patch of it): torch's own headers
   and bundled runtime were made with it;
2. else the newest X.Z with Z < Y: an extension built with an older minor
   uses only runtime API that torch's newer bundled ``libcudart`` has;
3. else the oldest X.Z with Z > Y: torch's ``cpp_extension`` accepts it
   (only the major must match) and warns; the extension may need runtime
   symbols newer than torch's ``libcudart``, so it is the last resort;
4. else an error that says which version to install.

A newer 13.x is not a better match for a cu130 torch than 13.0 itself: the
distance from X.Y decides, never "newest". A CPU-only or ROCm torch, or no
torch at all, is a clear error, never a guess.
"""

from __future__ import annotations

from ..errors import CudaenvError
from ..host.pyenv import torch_build
from ..toolkit import version_key
from .model import scan_toolkits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from ..toolkit.types import Toolkit

__all__ = ["TORCH_WORD", "match_torch", "pick"]

#: The target word (and ``.cuda-version`` content) that means "what torch was built with".
TORCH_WORD = "torch"


def pick(want: str, toolkits: list[Toolkit]) -> tuple[Toolkit | None, str]:
    """(the toolkit the rule picks for torch's CUDA ``want``, which step of the rule) — see the module doc."""
    w = version_key(want)[:2]
    if len(w) < 2 or w[0][0] < 0 or w[1][0] < 0:
        return None, "unreadable"
    same_major = [t for t in toolkits if version_key(t["full_version"])[:1] == w[:1]]

    def minor(t: Toolkit) -> tuple[tuple[int, str], ...]:
        return version_key(t["full_version"])[:2]

    def rank(t: Toolkit) -> tuple[tuple[tuple[int, str], ...], bool]:
        # Of equal versions an installed toolkit wins over wheel toolkits, as for a typed version.
        return version_key(t["full_version"]), not t["origin"]

    exact = [t for t in same_major if minor(t) == w]
    if exact:
        return max(exact, key=rank), "same"
    older = [t for t in same_major if minor(t) < w]
    if older:
        return max(older, key=rank), "older"
    newer = [t for t in same_major if minor(t) > w]
    if newer:
        best = min(minor(t) for t in newer)
        return max((t for t in newer if minor(t) == best), key=rank), "newer"
    return None, "none"


def match_torch(ctx: Context, notes: list[str] | None = None) -> Toolkit:
    """The toolkit for the environment's torch (a note says which and why).

    Raises:
        CudaenvError: no torch, a CPU-only or ROCm torch, or no installed toolkit of its major version.
    """
    notes = [] if notes is None else notes
    pyenv = ctx.python.get()
    where = pyenv["prefix"] if pyenv else "the Python on PATH"
    tb = torch_build(pyenv)
    if tb is None:
        raise CudaenvError(f"no torch in {where}: nothing to match", exit_code=2,
                           hint="activate the environment that has torch, or name a toolkit version")
    ver = tb["version"] or "?"
    if tb["hip"]:
        raise CudaenvError(f"torch {ver} in {where} is a ROCm build (HIP {tb['hip']}): no CUDA toolkit matches it",
                           exit_code=2, hint="name a toolkit version, or install a CUDA build of torch")
    cuda = tb["cuda"]
    if not cuda:
        raise CudaenvError(f"torch {ver} in {where} is a CPU-only build: it has no CUDA version to match",
                           exit_code=2, hint="install a CUDA build of torch (e.g. pip install torch --index-url "
                                             "https://download.pytorch.org/whl/cu124), or name a toolkit version")
    toolkits, _ = scan_toolkits(ctx)
    tk, how = pick(cuda, toolkits)
    if tk is None:
        have = ", ".join(sorted({t["full_version"] for t in toolkits})) or "none"
        raise CudaenvError(f"torch {ver} was built with CUDA {cuda}; no installed toolkit has CUDA "
                           f"{cuda.split('.')[0]}.x (installed: {have})", exit_code=2,
                           hint=f"install CUDA {cuda} (cudaenv install {cuda})")
    if how != "same":
        rel = "older" if how == "older" else "newer"
        notes.append(f"torch {ver} was built with CUDA {cuda}, which is not installed; using the nearest "
                     f"{rel} {tk['full_version']} (cudaenv install {cuda} gives the exact one)")
    return tk
