"""What a toolkit says about itself: accepted host compilers, GPU architectures.

The toolkit's own files win over the tables: ``crt/host_config.h`` states the
newest gcc/clang it accepts, and ``nvcc --list-gpu-code`` the architectures
it can build for (cached per toolkit, keyed by its fingerprint).
"""

from __future__ import annotations

import os

from .probe import signature

# The readers and tables below load only when a fact is computed: a cached answer
# (``use`` asks for the architectures at every switch) costs no module loads.

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import GpuArchs, HostLimits, Toolkit
    from ..infra.index import Index

__all__ = ["host_limits", "parse_host_config", "gpu_archs", "parse_arch_list"]


def parse_host_config(text: str) -> dict[str, int | None]:
    """Read the gcc/clang limits out of ``crt/host_config.h``.

    The header says ``#if __GNUC__ > N`` -> "gcc versions later than N are not
    supported", and ``#if (__clang_major__ >= M) ...`` -> clang must be < M.

    Returns:
        ``{"gcc_max": N or None, "clang_max": M - 1 or None}``.
    """
    gcc = clang = None
    in_clang_block = False
    fallback: list[int] = []
    for line in text.splitlines():
        s = line.strip()
        if gcc is None and s.startswith("#if __GNUC__ >"):
            num = s[len("#if __GNUC__ >") :].split()[0]
            if num.isdigit():
                gcc = int(num)
        # The generic clang check sits under `#if defined(__clang__) && ...`;
        # other blocks (Grace clang, HOS clang) state their own limits.
        if s.startswith("#if defined(__clang__)"):
            in_clang_block = True
        if s.startswith("#if") and "(__clang_major__ >=" in s and "__GRCO" not in s:
            num = s.split("(__clang_major__ >=", 1)[1].split(")")[0].strip()
            if num.isdigit():
                if in_clang_block and clang is None:
                    clang = int(num) - 1
                fallback.append(int(num) - 1)
    if clang is None and fallback:
        clang = max(fallback)
    return {"gcc_max": gcc, "clang_max": clang}


def host_limits(tk: Toolkit) -> HostLimits:
    """Newest gcc and clang majors ``tk`` accepts, and where that came from.

    Returns:
        ``{"gcc_max", "clang_max", "source"}``; limits may be None when
        neither the header nor the table knows.
    """
    from ..infra.files import read_limited
    from . import compat
    from .version import include_dirs

    for inc in include_dirs(tk["root"]):
        try:
            got = parse_host_config(read_limited(os.path.join(inc, "crt", "host_config.h"), 4 << 20)
                                    .decode("utf-8", "replace"))
        except OSError:
            continue
        if got["gcc_max"] is not None or got["clang_max"] is not None:
            return {"gcc_max": got["gcc_max"], "clang_max": got["clang_max"], "source": "crt/host_config.h"}
    row = compat.toolkit_row(tk["version"])
    if row:
        clang = row["clang_max"]
        return {"gcc_max": row["gcc_max"], "clang_max": int(str(clang).split(".")[0]) if clang is not None else None,
                "source": "compat table"}
    return {"gcc_max": None, "clang_max": None, "source": "unknown"}


def parse_arch_list(text: str, prefix: str) -> list[int]:
    """``sm_75 sm_80 ...`` -> ``[75, 80, ...]`` (variants like 90a are folded)."""
    out: list[int] = []
    for word in text.split():
        if word.startswith(prefix):
            digits = "".join(c for c in word[len(prefix) :] if c.isdigit())
            if digits and int(digits) not in out:
                out.append(int(digits))
    return sorted(out)


#: How long ``nvcc --list-gpu-code`` may take (it answers in well under a second when healthy).
ARCH_TIMEOUT = 15.0


def gpu_archs(tk: Toolkit, index: Index | None = None, timeout: float = ARCH_TIMEOUT) -> GpuArchs:
    """Real architectures (``sm_XX`` as ints) the toolkit can build for.

    Asks ``nvcc --list-gpu-code`` (cached in ``index``); falls back to the
    table's range. An nvcc that does not answer within ``timeout`` is
    recorded as ``slow`` (and cached like any answer, so one hanging
    toolkit costs that time once, not at every command).

    Returns:
        ``{"sm": [..], "source": ..., "slow": why (only when it timed out)}``;
        ``sm`` is empty when unknown.
    """
    root = tk["root"]

    def compute() -> GpuArchs:
        from ..infra.run import run
        from . import compat

        nvcc = os.path.join(root, "bin", "nvcc")
        res = run([nvcc, "--list-gpu-code"], timeout=timeout)
        sms = parse_arch_list(res.stdout, "sm_") if res.returncode == 0 else []
        if sms:
            return {"sm": sms, "source": "nvcc --list-gpu-code"}
        out: GpuArchs = {"sm": [], "source": "unknown"}
        if res.timed_out:
            out["slow"] = f"{nvcc} --list-gpu-code did not finish within {timeout:g} s"
        row = compat.toolkit_row(tk["version"])
        if row and row["sm_min"] and row["sm_max"]:
            out["range"] = [row["sm_min"], row["sm_max"]]
            out["source"] = "compat table"
        return out

    if index is None:
        return compute()
    index.data.setdefault("archs", {})
    return index.cached("archs", root, signature(root), compute)
