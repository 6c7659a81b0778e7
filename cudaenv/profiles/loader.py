"""``loader_path``: a switch never puts an older library in front of the Python environment's wheels.

The loader searches LD_LIBRARY_PATH before the RUNPATH that pip wheels use to
find each other (``nvidia/cusparse/lib`` reaches ``nvidia/nvjitlink/lib``
through ``$ORIGIN``). So a toolkit's ``lib64`` on LD_LIBRARY_PATH that holds an
*older* copy of a soname the environment's ``nvidia-*`` wheels also ship wins,
and the wheels break: ``libcusparse.so.12: undefined symbol:
__nvJitLinkComplete_12_4, version libnvJitLink.so.12``.

What the profile's ``loader_path`` does with each library directory it adds
to LD_LIBRARY_PATH (the toolkit's ``lib64``, CUPTI's, any the user listed):

``always``
    Adds it as written (cudaenv before 0.x did only this).
``never``
    Adds none of them (Spack's default): programs find the toolkit's shared
    libraries through their own RPATH or ``ldconfig``; nvcc links ``cudart``
    statically by default, so most builds run anyway. The driver stub
    (``stubs``) is a separate setting and still applies.
``auto`` (the default)
    For every soname the directory holds that the environment's wheels also
    ship (the Python environment of ``python3`` on PATH, see
    ``host/pyenv.py``):

    * the toolkit's copy is **older** (versions from the real file name,
      ``libnvJitLink.so.12.1.105``, and the wheel's distribution,
      ``nvidia-nvjitlink-cu12 12.4.127``): it is left out. The directory is
      replaced by a mirror in cudaenv's cache that links every other file of
      it, so the rest of the toolkit's libraries stay reachable; a one-line
      note says what was left out and why;
    * a version that cannot be read (a ``libX.so.12`` that is no link to a
      fully versioned file): judged by its symbols. It is **incompatible**, and
      left out the same way, when it lacks a dynamic symbol (or a symbol version)
      that the wheel's own copy defines: that is what the wheels, and programs
      built against them, may call (``libcusparse.so.12`` needs
      ``__nvJitLinkComplete_12_4``, which a 12.1 ``libnvJitLink.so.12`` lacks), and
      also when it cannot be read as ELF at all; it is **compatible** when it
      defines all of them;
    * **same** version, **newer**, or compatible: kept (NVIDIA libraries are
      backward compatible within a soname); ``check`` lists it;
    * no environment, no NVIDIA wheels, or no common soname: the directory
      goes on as written, at the cost of a few stats (the inventory and the
      directory listings are cached by mtime).

PATH is different: switching ``nvcc`` is the point of ``use``, and nvcc runs
the ``ptxas`` beside itself, not the one PATH finds, so ``bin`` is never
filtered. When the environment's wheels ship a newer ``ptxas``/``nvlink``
(JAX/XLA and Triton look on PATH first), ``use`` says so in a note and
``check`` reports it with both versions.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..toolkit import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context
    from ..env.ops import Ops
    from ..host.types import WheelInventory
    from ..infra.index import Index
    from ..toolkit.types import Toolkit
    from .types import ShadowRow, SymbolJudgement, ToolShadowRow

__all__ = ["POLICIES", "LEFT_OUT", "dir_libraries", "shadowing", "relation_text", "tool_shadowing", "mirror_dir",
           "make_mirror", "apply_loader_path"]

POLICIES = ("auto", "always", "never")
#: Relations (the directory's copy vs the wheel's) under which ``auto`` leaves a library out.
LEFT_OUT = ("older", "incompatible")
_TABLE = "libdirs"
_SYMS_TABLE = "libsyms"


def _version_of(directory: str, name: str) -> str | None:
    """'12.1.105' for libnvJitLink.so.12 -> libnvJitLink.so.12.1.105 (None when the name says no more)."""
    stem = name.split(".so.", 1)[0] + ".so."
    path = os.path.join(directory, name)
    for _ in range(16):  # the first link in the chain that names the full version
        base = os.path.basename(path)
        if base.startswith(stem) and base[len(stem):].count(".") >= 2:
            return base[len(stem):]
        try:
            path = os.path.join(os.path.dirname(path), os.readlink(path))
        except OSError:
            return None
    return None


def dir_libraries(directory: str, index: Index | None = None) -> dict[str, str | None]:
    """{soname-like name: version or None} for the versioned libraries in ``directory`` (cached by mtime)."""
    try:
        st = os.stat(directory)
    except OSError:
        return {}

    def compute() -> dict[str, str | None]:
        try:
            names = os.listdir(directory)
        except OSError:
            return {}
        return {n: _version_of(directory, n) for n in names if ".so." in n}

    if index is None:
        return compute()
    index.data.setdefault(_TABLE, {})
    return index.cached(_TABLE, directory, (st.st_mtime_ns, st.st_ino), compute,
                        lambda v: isinstance(v, dict) and all(isinstance(x, (str, type(None))) for x in v.values()))


def _relation(mine: str | None, theirs: str | None) -> str:
    a, b = version_key(mine), version_key(theirs)
    if not a or not b or a[0][0] < 0 or b[0][0] < 0:
        return "unknown"
    n = min(len(a), len(b), 3)
    return "older" if a[:n] < b[:n] else "newer" if a[:n] > b[:n] else "same"


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _judge_by_symbols(mine: str, soname: str, inventory: WheelInventory, index: Index | None = None) -> SymbolJudgement:
    """What a copy of ``soname`` whose version is unknown lacks of the wheel's copy (cached by stat).

    Returns:
        ``{"relation": "compatible"|"incompatible", "missing": [symbols or "version V"],
        "needed_by": [wheel libraries that need a missing symbol], "error": str|None}``.
    """
    from ..infra.elf import dynamic_symbols, symbol_versions  # only for this rare case: not on use's hot path

    libs = inventory["libs"]
    theirs = libs[soname][0]
    others = sorted(v[0] for k, v in libs.items() if k != soname)

    def compute() -> SymbolJudgement:
        try:
            _n, want, _u = dynamic_symbols(theirs)
            _n, have, _u = dynamic_symbols(mine)
            lacking = want - have
            lacking |= {f"version {v}" for v in symbol_versions(theirs)[1] if v not in symbol_versions(mine)[1]}
            needed_by: list[str] = []
            used: set[str] = set()
            if lacking:
                for other in others:
                    needs, _d, undefined = dynamic_symbols(other)
                    if soname not in needs:
                        continue
                    hit = (undefined & lacking) | {f"version {v}" for v in symbol_versions(other)[0].get(soname, [])
                                                  if f"version {v}" in lacking}
                    if hit:
                        needed_by.append(os.path.basename(other))
                        used |= hit
        except (OSError, ValueError) as exc:
            err = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return {"relation": "incompatible", "missing": [], "used": 0, "needed_by": [], "error": err}
        # What the wheels' own libraries need first: the names a user will meet in an error.
        missing = sorted(used) + sorted(lacking - used)
        return {"relation": "incompatible" if missing else "compatible", "missing": missing, "used": len(used),
                "needed_by": needed_by, "error": None}

    if index is None:
        return compute()
    index.data.setdefault(_SYMS_TABLE, {})
    stamp = (_stamp(mine), _stamp(theirs), tuple((o, _stamp(o)) for o in others))
    return index.cached(_SYMS_TABLE, f"{mine}\0{soname}\0{theirs}", stamp, compute)


def relation_text(s: ShadowRow) -> str:
    """One :func:`shadowing` record in words: 'libX.so.12 12.1.105 is older than the wheel's 12.4.127'."""
    mine, theirs = f"{s['soname']} {s['version'] or '(version unknown)'}", f"the wheel's {s['wheel_version']}"
    rel = s["relation"]
    if rel in ("older", "newer"):
        return f"{mine} is {rel} than {theirs}"
    if rel == "same":
        return f"{mine} is the same version as {theirs}"
    if rel == "compatible":
        return f"{mine} defines every symbol of {theirs}"
    if rel == "incompatible" and s.get("error"):
        return f"{mine} cannot be read ({s['error']}), so it may lack what {theirs} defines"
    if rel == "incompatible":
        miss = s["missing"]
        shown = ", ".join(miss[:2]) + (", …" if len(miss) > 2 else "")
        text = f"{mine} lacks {len(miss)} symbol{'s' if len(miss) > 1 else ''} of {theirs} ({shown})"
        users = s.get("needed_by") or []
        if users:
            who = ", ".join(users[:3]) + (" and others" if len(users) > 3 else "")
            text += f"; {who} need{'s' if len(users) == 1 else ''} {s['used']} of them"
        return text
    return f"{mine} vs {theirs}"


def shadowing(dirs: list[str], inventory: WheelInventory, index: Index | None = None) -> list[ShadowRow]:
    """Sonames that ``dirs`` hold and the environment's wheels ship too, with both files and versions.

    Returns:
        ``[{"dir", "soname", "file", "version", "wheel_file", "dist", "wheel_version",
        "relation": older|newer|same|compatible|incompatible}]`` (relation: the directory's copy vs
        the wheel's; a copy whose version cannot be compared is judged by its symbols, and then
        also has ``missing``, ``needed_by`` and ``error``, see :func:`_judge_by_symbols`).
    """
    libs = inventory["libs"]
    if not libs:
        return []
    out: list[ShadowRow] = []
    for d in dirs:
        for name, version in sorted(dir_libraries(d, index).items()):
            hit = libs.get(name)
            if hit is None:
                continue
            rec: ShadowRow = {"dir": d, "soname": name, "file": os.path.realpath(os.path.join(d, name)),
                              "version": version, "wheel_file": hit[0], "dist": hit[1], "wheel_version": hit[2],
                              "relation": _relation(version, hit[2])}
            if rec["relation"] == "unknown":  # no evidence either way: unknown is never taken as "no conflict"
                j = _judge_by_symbols(rec["file"], name, inventory, index)
                rec["relation"], rec["missing"], rec["used"] = j["relation"], j["missing"], j["used"]
                rec["needed_by"], rec["error"] = j["needed_by"], j["error"]
            out.append(rec)
    return out


def tool_shadowing(bindirs: list[str], inventory: WheelInventory, tk: Toolkit) -> list[ToolShadowRow]:
    """Compiler tools (ptxas, nvlink, …) in ``bindirs`` that the environment's wheels ship newer or older."""
    tools = inventory["tools"]
    out: list[ToolShadowRow] = []
    for d in bindirs:
        for name, (path, dist, version) in sorted(tools.items()):
            mine = os.path.join(d, name)
            if os.path.realpath(mine) == os.path.realpath(path) or not os.path.exists(mine):
                continue
            out.append({"dir": d, "tool": name, "file": mine, "version": tk["full_version"], "wheel_file": path,
                        "dist": dist, "wheel_version": version,
                        "relation": _relation(".".join(tk["full_version"].split(".")[:2]),
                                              ".".join(version.split(".")[:2]))})
    return out


def _fnv(text: str) -> str:
    h = 0xcbf29ce484222325
    for b in text.encode("utf-8", "surrogateescape"):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def _left_out(name: str, excluded: list[str]) -> bool:
    return any(name.startswith(s.split(".so.", 1)[0] + ".so") for s in excluded)


def mirror_dir(cache_dir: str, directory: str, excluded: list[str]) -> str:
    """The cache directory that links every file of ``directory`` but the ``excluded`` sonames' files."""
    try:
        stamp = os.stat(directory).st_mtime_ns
    except OSError:
        stamp = 0
    key = _fnv("\0".join([directory, str(stamp)] + sorted(excluded)))
    return os.path.join(cache_dir, "loader", f"{os.path.basename(directory.rstrip('/')) or 'lib'}-{key}")


def make_mirror(mirror: str, directory: str, excluded: list[str]) -> bool:
    """Build ``mirror`` (atomically; nothing when it exists and is the user's own).

    It goes on LD_LIBRARY_PATH, so it is used only in a cache directory of the
    user's own and when every entry is theirs (``infra/private.py``); one that
    is not is removed and made anew.

    Returns:
        False when the cache is another user's to change (one note printed): no mirror.

    Raises:
        CudaenvError: it cannot be made.
    """
    from ..infra.private import MISSING, dir_problem, private_dir

    try:
        if not private_dir(os.path.dirname(mirror)):
            return False
    except OSError as exc:
        raise CudaenvError(f"cannot create the loader-path mirror {mirror}: {exc.strerror}") from None
    why = dir_problem(mirror)
    if why is None and _all_mine(mirror):
        return True
    if why != MISSING:
        import shutil

        # Left from a time the cache was not private (or half made): not ours to trust.
        shutil.rmtree(mirror, ignore_errors=True)
        if os.path.lexists(mirror):
            try:
                os.unlink(mirror)
            except OSError:
                pass
    tmp = f"{mirror}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    try:
        os.mkdir(tmp, 0o700)
        for name in os.listdir(directory):
            if not _left_out(name, excluded):
                os.symlink(os.path.join(directory, name), os.path.join(tmp, name))
        try:
            os.rename(tmp, mirror)
        except OSError:
            if dir_problem(mirror) is not None:  # not a lost race with another `use`
                raise
    except OSError as exc:
        raise CudaenvError(f"cannot create the loader-path mirror {mirror}: {exc.strerror}") from None
    finally:
        if os.path.isdir(tmp):
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    return True


def _all_mine(directory: str) -> bool:
    me = os.geteuid()
    try:
        return all(os.lstat(os.path.join(directory, n)).st_uid == me for n in os.listdir(directory))
    except OSError:
        return False


def _added_dirs(ops: Ops) -> list[str]:
    return list(ops.prepend.get("LD_LIBRARY_PATH", [])) + list(ops.append.get("LD_LIBRARY_PATH", []))


def _replace(ops: Ops, old: str, new: str | None) -> None:
    for part in (ops.prepend, ops.append):
        entries = part.get("LD_LIBRARY_PATH")
        if entries is None:
            continue
        entries = [e for e in entries if e != old] if new is None else [new if e == old else e for e in entries]
        if entries:
            part["LD_LIBRARY_PATH"] = entries
        else:
            del part["LD_LIBRARY_PATH"]


def apply_loader_path(ctx: Context, policy: str, tk: Toolkit, ops: Ops, notes: list[str], links: bool,
                      keep: tuple[str, ...] = ()) -> None:
    """Apply the profile's ``loader_path`` to the LD_LIBRARY_PATH entries ``ops`` adds (see the module doc).

    Args:
        keep: Entries that are not the toolkit's (the driver-stub directory).
    """
    dirs = [d for d in _added_dirs(ops) if d not in keep]
    if not dirs or policy == "always":
        return
    if policy == "never":
        for d in dirs:
            _replace(ops, d, None)
        return
    _pyenv, inventory = ctx.python.wheels()
    if not inventory["libs"] and not inventory["tools"]:
        return
    where = f"{_pyenv['prefix']}" if _pyenv else "the Python environment"
    for d in dirs:
        found = [s for s in shadowing([d], inventory, ctx.index) if s["relation"] in LEFT_OUT]
        if not found:
            continue
        excluded = [s["soname"] for s in found]
        mirror = mirror_dir(ctx.cache_dir, d, excluded)
        older = [s for s in found if s["relation"] == "older"]
        what = ", ".join(f"{s['soname']} {s['version']}" for s in older)
        why = ", ".join(f"{s['dist']} {s['wheel_version']}" for s in older)
        odd = "; ".join(relation_text(s) for s in found if s["relation"] != "older")
        if links:
            try:
                made = make_mirror(mirror, d, excluded)
            except CudaenvError as exc:
                held = "; ".join(x for x in (f"{what}, older than {where}'s {why}" if older else "", odd) if x)
                notes.append(f"loader_path auto: {exc.message}; leaving {d} off LD_LIBRARY_PATH: it holds {held}")
                _replace(ops, d, None)
                continue
            if not made:  # no private cache to hold the mirror (its note says why)
                notes.append(f"loader_path auto: leaving {d} off LD_LIBRARY_PATH: it holds {what}, older than "
                             f"{where}'s {why}")
                _replace(ops, d, None)
                continue
        _replace(ops, d, mirror)
        if older:
            notes.append(f"loader_path auto: left {what} of {d} off LD_LIBRARY_PATH: {where} has the newer {why} "
                         "(the rest stays reachable; loader_path: always keeps it)")
        if odd:
            what = ", ".join(s["soname"] for s in found if s["relation"] != "older")
            notes.append(f"loader_path auto: left {what} of {d} off LD_LIBRARY_PATH, for {where}'s wheels: {odd} "
                         "(the rest stays reachable; loader_path: always keeps it)")
    bins = list(ops.prepend.get("PATH", []))
    for s in tool_shadowing(bins, inventory, tk):
        if s["relation"] == "older":
            notes.append(f"note: {s['file']} (CUDA {tk['version']}) now comes first on PATH, ahead of {where}'s newer "
                         f"{s['tool']} from {s['dist']} {s['wheel_version']}; tools that look on PATH first (JAX/XLA) "
                         "will run the older one")
