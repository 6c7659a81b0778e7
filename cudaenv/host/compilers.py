"""Host C++ compilers on PATH, their versions, and picking one a toolkit accepts."""

from __future__ import annotations

import os

from ..env.pathlist import DEFAULT_PATH, entries, which

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..infra.index import Index
    from ..toolkit.types import HostLimits
    from .types import Compiler, CompilerVersion, DefaultCompiler

__all__ = ["find_compilers", "default_compiler", "accepts", "select", "compiler_info", "ccbin_of"]

# C++ drivers only: nvcc's -ccbin, CUDAHOSTCXX and torch all want the C++ driver.
_PREFIXES = ("g++", "clang++", "c++")


def _is_candidate(name: str) -> bool:
    for p in _PREFIXES:
        if name == p:
            return True
        if name.startswith(p + "-") and name[len(p) + 1 :].replace(".", "").isdigit():
            return True
    return False


def _parse_version(text: str) -> tuple[str, str] | None:
    """(family, version) from ``--version`` output."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    family = "clang" if "clang" in first.lower() else "gcc"
    for word in first.replace("(", " ").replace(")", " ").split():
        parts = word.split(".")
        if len(parts) >= 2 and all(p.isdigit() for p in parts[:2]):
            return family, word.split("-")[0]
    return None


def compiler_info(path: str, index: Index | None = None) -> Compiler | None:
    """``{"path", "family", "version", "major"}`` for one compiler (cached by its stat)."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return None

    def compute() -> CompilerVersion | None:
        from ..infra.run import run

        res = run([real, "--version"], timeout=20, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
        parsed = _parse_version(res.stdout) if res.returncode == 0 else None
        if parsed is None:
            return None
        family, version = parsed
        return {"family": family, "version": version, "major": int(version.split(".")[0])}

    if index is None:
        info = compute()
    else:
        index.data.setdefault("compilers", {})
        info = index.cached("compilers", real, (st.st_mtime_ns, st.st_size, st.st_ino), compute)
    if info is None:
        return None
    return {**info, "path": path, "real": real}


def find_compilers(env: Mapping[str, str], index: Index | None = None) -> list[Compiler]:
    """Every distinct C++ compiler on ``env``'s PATH (first occurrence of each real binary).

    Without PATH in ``env`` (``env -i sh``, cron), where that shell looks: :data:`DEFAULT_PATH`.
    """
    seen: set[str] = set()
    out: list[Compiler] = []
    for d in entries(env.get("PATH", DEFAULT_PATH)):
        try:
            # Versioned names first, so g++-12 is reported rather than its alias c++.
            names = sorted(os.listdir(d), key=lambda n: (not n[-1].isdigit(), n.startswith("c++"), n))
        except OSError:
            continue
        for n in names:
            if not _is_candidate(n):
                continue
            p = os.path.join(d, n)
            if not os.access(p, os.X_OK):
                continue
            real = os.path.realpath(p)
            if real in seen:
                continue
            info = compiler_info(p, index)
            if info:
                seen.add(real)
                out.append(info)
    return out


def default_compiler(env: Mapping[str, str], index: Index | None = None) -> DefaultCompiler | None:
    """The compiler a build would use: ``$CXX`` if set, else ``g++``, else ``c++`` on PATH."""
    cxx = env.get("CXX", "").split()
    for name in ([cxx[0]] if cxx else []) + ["g++", "c++", "clang++"]:
        path = which(name, env.get("PATH"))
        if path:
            info = compiler_info(path, index)
            if info:
                return {**info, "why": "$CXX" if cxx and name == cxx[0] else f"{name} on PATH"}
    return None


def accepts(limits: HostLimits, comp: Compiler) -> bool | None:
    """Does a toolkit with ``limits`` accept ``comp``? None when the limit is unknown."""
    limit = limits["clang_max"] if comp["family"] == "clang" else limits["gcc_max"]
    if limit is None:
        return None
    return comp["major"] <= int(limit)


def select(limits: HostLimits, compilers: list[Compiler], default: Compiler | None) -> Compiler | None:
    """The newest accepted compiler, preferring the default's family; None if none is."""
    ok = [c for c in compilers if accepts(limits, c)]
    if not ok:
        return None
    fam = default["family"] if default else "gcc"
    ok.sort(key=lambda c: (c["family"] == fam, c["major"], c["version"]), reverse=True)
    return ok[0]


def ccbin_of(env: Mapping[str, str]) -> str | None:
    """The ``-ccbin`` NVCC_PREPEND_FLAGS / NVCC_APPEND_FLAGS give nvcc, if any."""
    for var in ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"):
        words = env.get(var, "").split()
        for i, w in enumerate(words):
            if w in ("-ccbin", "--compiler-bindir") and i + 1 < len(words):
                return words[i + 1]
            for p in ("-ccbin=", "--compiler-bindir="):
                if w.startswith(p):
                    return w[len(p):]
    return None
