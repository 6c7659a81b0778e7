"""The compatibility tables (``data/compat.yaml``), loaded once, lazily.

Here, in the lowest folder that reads them (``toolkit/facts``), so that
``profiles``, ``checks``, ``outputs`` and ``knowledge`` all read them downward.

Answers questions about toolkits that are not, or cannot be, read from the
toolkit itself: minimum drivers, the newest CUDA a driver branch supports,
torch builds. Unknown versions give None so callers can say "unknown,
assuming ..." instead of failing.
"""

from __future__ import annotations

import os

from . import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import CompatAddon, CompatTable, CompatToolkit, PtxCuda

__all__ = ["table", "toolkit_row", "min_driver", "minor_compat_min_driver", "driver_max_cuda",
           "torch_cudas", "torch_cxx_std", "nvcc_max_cxx_std", "nvcc_first_cxx_std", "libstdcxx_gcc", "ptx_isa_cuda", "addon_builds",
           "builds_for_arch"]

_TABLE: CompatTable | None = None


def table() -> CompatTable:
    """The whole table (parsed on first use)."""
    global _TABLE
    if _TABLE is None:
        from ..infra.kept import load_yaml

        # parsed once and kept in the user's cache directory (marshal): it is read on every `explain` of a driver or
        # architecture message, and parsing it (with the YAML import) was a third of a short one
        _TABLE = load_yaml(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "compat.yaml"), "compat")
    return _TABLE


def _short(v: str) -> str:
    return ".".join(v.split(".")[:2])


def toolkit_row(version: str) -> CompatToolkit | None:
    """The row for a toolkit release (``12.4`` or ``12.4.1``), or None if unknown."""
    return table()["toolkits"].get(_short(version))


def builds_for_arch(version: str, sm: int) -> bool:
    """Whether the nvcc of toolkit ``version`` compiles for ``sm_<sm>``: within the row's sm_min..sm_max and not an
    architecture the table's ``sm_gaps`` says came later (sm_103 in 12.9, not 12.8) or went earlier (sm_101 until
    12.9)."""
    row = toolkit_row(version)
    lo, hi = (row["sm_min"], row["sm_max"]) if row else (None, None)
    if lo is None or hi is None or not lo <= sm <= hi:
        return False
    from . import version_key

    gaps = table().get("sm_gaps") or {}
    first, last = (gaps.get("first") or {}).get(sm), (gaps.get("last") or {}).get(sm)
    v = version_key(_short(version))
    return (first is None or v >= version_key(first)) and (last is None or v <= version_key(last))


def sm_known() -> frozenset[int]:
    """Every architecture number (sm_NN) some nvcc release compiles for: a number outside it is no GPU's."""
    return frozenset(table()["sm_history"]["known"])


def sm_first_before_rows() -> dict[int, str]:
    """The first release that compiles for an architecture older than the toolkit rows (sm -> "major.minor")."""
    return table()["sm_history"]["first_before_rows"]


def clang_cuda_newest(major: int) -> str | None:
    """The newest CUDA release clang ``major`` compiles CUDA with ("major.minor"), for the clangs that refuse a newer
    one (before 11); None for a clang that only warns, or one older than the table."""
    return table()["clang_cuda_newest"]["known"].get(major)


def min_driver(version: str) -> str | None:
    """Minimum driver for full native support of ``version`` (an update row wins)."""
    row = toolkit_row(version)
    if row is None:
        return None
    upd = row["updates"].get(version)
    if upd and upd["min_driver"]:
        return upd["min_driver"]
    return row["min_driver"]


def minor_compat_min_driver(version: str) -> str | None:
    """The minor-version-compatibility floor (limited features), or None."""
    row = toolkit_row(version)
    return row["minor_compat_min_driver"] if row else None


def driver_max_cuda(driver: str) -> str | None:
    """Newest CUDA the driver branch supports natively, e.g. ``550.54.15`` -> ``12.4``."""
    branch = driver.split(".")[0]
    ent = table()["driver_max_cuda"].get(branch)
    if ent:
        return ent["cuda"]
    known = sorted(table()["driver_max_cuda"], key=int)
    lower = [b for b in known if int(b) <= int(branch)] if branch.isdigit() else []
    if lower and lower[-1] != known[-1]:
        return table()["driver_max_cuda"][lower[-1]]["cuda"]
    return None


def torch_cudas(torch_version: str) -> list[str] | None:
    """CUDA versions torch ``X.Y`` publishes wheels for, or None."""
    ent = table()["torch"].get(_short(torch_version.split("+")[0]))
    return ent["cuda"] if ent else None


def torch_cxx_std(torch_version: str) -> str | None:
    """The -std= torch's extension builds use, when known."""
    ent = table()["torch_cxx_std"].get(_short(torch_version.split("+")[0]))
    return ent["std"] if ent else None


def nvcc_max_cxx_std(cuda_version: str) -> str | None:
    """The newest -std= that nvcc of ``cuda_version`` accepts."""
    best = None
    for v, ent in table()["nvcc_max_cxx_std"].items():
        if version_key(v) <= version_key(_short(cuda_version)):
            best = ent["std"]
    return best


def nvcc_first_cxx_std(std: str) -> str | None:
    """The first CUDA whose nvcc accepts ``-std=std`` (``c++17`` -> ``11.0``), or None for a value the table does
    not list (``c++03``, ``gnu++17``)."""
    return next((v for v, ent in sorted(table()["nvcc_max_cxx_std"].items(), key=lambda r: version_key(r[0]))
                 if ent["std"] == std), None)


def libstdcxx_gcc(symbol_version: str) -> str | None:
    """The gcc release whose libstdc++ first has ``symbol_version`` (``GLIBCXX_3.4.30`` -> ``12``), or None."""
    ent = table()["libstdcxx_gcc"].get(symbol_version)
    return ent["gcc"] if ent else None


def ptx_isa_cuda(isa: str) -> PtxCuda | None:
    """``{"cuda": ..., "ptxas_cuda": ...}`` for PTX ISA ``isa`` (``8.4``), or None if unknown.

    ``cuda`` is the release whose nvcc first writes that ISA; ``ptxas_cuda`` the
    releases whose ptxas reports it as its newest (``cuda`` unless stated).
    """
    ent = table()["ptx_isa_cuda"].get(isa)
    if not ent:
        return None
    return {"cuda": ent["cuda"], "ptxas_cuda": ent.get("ptxas_cuda") or ent["cuda"]}


def addon_builds(kind: str, version: str) -> tuple[str, CompatAddon] | None:
    """(the row's release, the row) that covers ``kind`` (``cudnn``, ``nccl``) ``version``: the newest
    row at or below it; None when it is older than every row (or ``kind`` has no table)."""
    rows = table().get(kind)
    if not isinstance(rows, dict):
        return None
    key = version_key(version)
    below = [v for v in rows if version_key(v) <= key]
    if not below:
        return None
    best = max(below, key=version_key)
    return best, rows[best]
