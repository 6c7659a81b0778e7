"""``cudaenv matrix``: a GitHub Actions matrix of this machine's toolkits.

The document is ``{"include": [entry, ...]}``, ready for
``strategy.matrix: ${{ fromJSON(needs.<job>.outputs.matrix) }}``; nothing else
sits at the top level, since every other key would become a matrix
dimension. One entry per installed toolkit (one job each), oldest first::

    {"cuda": "12.4", "cuda_version": "12.4.1", "cuda_root": "/usr/local/cuda-12.4",
     "cu": "cu124", "cxx": "/usr/bin/g++-12", "cxx_family": "gcc", "cxx_version": "12.2.0",
     "torch": ["2.4", "2.5", "2.6"], "torch_newest": "2.6"}

* ``cxx``: the host compiler a build with this toolkit should use: the
  default one (``$CXX``, else ``g++``/``c++``/``clang++`` on PATH) when the
  toolkit's ``crt/host_config.h`` accepts it, else the newest accepted one
  installed (same family first); reported under its versioned name when it
  has one (``g++-12`` rather than ``g++``). ``null`` (with a note on stderr)
  when none is accepted.
* ``torch``: the torch minors with wheels built for exactly this CUDA minor
  (``data/compat.yaml``), oldest first; ``torch_newest`` the last one or
  ``null``. A list, not one entry per torch: the matrix is one job per
  toolkit, and ``torch_newest`` is what most jobs install. ``--torch T``
  keeps the toolkits T was built for and narrows the list to T.
* ``cu``: the PyTorch wheel index tag (``https://download.pytorch.org/whl/cu124``).
"""

from __future__ import annotations

import json

from ..errors import CudaenvError
from ..host.compilers import accepts, default_compiler, find_compilers, select
from ..infra.jsonout import dumps
from ..profiles.model import scan_toolkits
from ..toolkit import compat, version_key
from ..toolkit.facts import host_limits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from ..toolkit.types import Toolkit

__all__ = ["matrix", "entry", "torch_builds", "choose_compiler", "in_range", "render"]


def _short(v: str) -> str:
    return ".".join(v.split("+")[0].split(".")[:2])


def _check_version(v: str, what: str) -> str:
    parts = v.split(".")
    # ASCII digits only (str.isdigit takes '²' and '１'), and numbers of a sane length.
    if not v or not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
        shown = v if len(v) <= 40 else v[:40] + "…"
        raise CudaenvError(f"{what} {shown!r} is not a version like 12 or 12.4", exit_code=2)
    return v


def in_range(version: str, lo: str | None, hi: str | None) -> bool:
    """Is ``version`` within ``[lo, hi]``, each bound compared as a prefix?

    ``--max 12`` keeps every 12.x and ``--min 12.4`` keeps 12.4.0 and up.
    """
    key = version_key(version)
    if lo is not None and key[: len(version_key(lo))] < version_key(lo):
        return False
    if hi is not None and key[: len(version_key(hi))] > version_key(hi):
        return False
    return True


def torch_builds() -> dict[str, list[str]]:
    """CUDA minor -> torch minors with wheels for it, oldest first (from the table)."""
    out: dict[str, list[str]] = {}
    for tv in sorted(compat.table()["torch"], key=version_key):
        for cv in compat.table()["torch"][tv].get("cuda") or []:
            out.setdefault(cv, []).append(tv)
    return out


def choose_compiler(limits: dict, default: dict | None, compilers: list[dict]) -> dict | None:
    """The default compiler if the toolkit accepts it, else the newest accepted; None if none is."""
    if default is not None and accepts(limits, default) is not False:
        chosen = default
    else:
        chosen = select(limits, compilers, default)
    if chosen is None:
        return None
    # Name it as discovery does (versioned names first): g++-12, not the g++ alias.
    for c in compilers:
        if c.get("real") == chosen.get("real"):
            return c
    return chosen


def entry(tk: Toolkit, compiler: dict | None, torch: list[str]) -> dict:
    """One matrix entry for toolkit ``tk``."""
    short = tk["version"]
    return {
        "cuda": short,
        "cuda_version": tk["full_version"],
        "cuda_root": tk["root"],
        "cu": "cu" + short.replace(".", ""),
        "cxx": compiler["path"] if compiler else None,
        "cxx_family": compiler["family"] if compiler else None,
        "cxx_version": compiler["version"] if compiler else None,
        "torch": list(torch),
        "torch_newest": torch[-1] if torch else None,
    }


def matrix(ctx: Context, lo: str | None = None, hi: str | None = None, torch: tuple[str, ...] = (),
           notes: list[str] | None = None) -> dict:
    """The matrix document for the toolkits installed here.

    Args:
        ctx: Where to look (environment: PATH for compilers, CUDAENV_ROOTS...).
        lo: Keep toolkits at or above this version (prefix compare).
        hi: Keep toolkits at or below this version (prefix compare).
        torch: Keep toolkits built for by any of these torch versions.
        notes: Receives human notes (toolkits without an accepted compiler).

    Raises:
        CudaenvError: a bad bound or unknown torch version, or nothing matches.
    """
    for v, what in ((lo, "--min"), (hi, "--max")):
        if v is not None:
            _check_version(v, what)
    wanted: list[str] = []
    for t in torch:
        short = _short(t)
        _check_version(short, "--torch")
        if not compat.torch_cudas(short):
            known = sorted((k for k, e in compat.table()["torch"].items() if e.get("cuda")), key=version_key)
            raise CudaenvError(f"torch {t}: no CUDA builds known (the table knows {known[0]} to {known[-1]})",
                               exit_code=2)
        if short not in wanted:
            wanted.append(short)
    builds = torch_builds()
    toolkits, _ = scan_toolkits(ctx)
    default = default_compiler(ctx.env, ctx.index)
    compilers = find_compilers(ctx.env, ctx.index)
    out = []
    for tk in sorted(toolkits, key=lambda t: (version_key(t["full_version"]), t["root"])):
        if not in_range(tk["full_version"], lo, hi):
            continue
        tv = builds.get(tk["version"], [])
        if wanted:
            tv = [t for t in tv if t in wanted]
            if not tv:
                continue
        comp = choose_compiler(host_limits(tk), default, compilers)
        if comp is None and notes is not None:
            notes.append(f"CUDA {tk['full_version']} ({tk['root']}): no installed C++ compiler is accepted; cxx is null")
        out.append(entry(tk, comp, tv))
    if not out:
        what = [f"--min {lo}"] * bool(lo) + [f"--max {hi}"] * bool(hi) + [f"--torch {t}" for t in torch]
        raise CudaenvError("no installed toolkit matches" + (f" {' '.join(what)}" if what else ""),
                           hint="`cudaenv list` shows what is installed", exit_code=1)
    return {"include": out}


def render(doc: dict, pretty: bool = False) -> str:
    """Compact one ASCII line (for ``$GITHUB_OUTPUT``), or indented with ``pretty``.

    The compact form escapes everything outside ASCII (``\\uXXXX``), so the
    line is safe in any file or log whatever the toolkit paths hold.
    """
    if pretty:
        return dumps(doc) + "\n"

    return json.dumps(doc, separators=(",", ":"), ensure_ascii=True) + "\n"
