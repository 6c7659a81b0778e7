"""Answers tied to this machine: what ``explain`` adds when it may look at the host.

:func:`cudaenv.knowledge.explain.explain` answers from the log alone (the same bytes on
every machine). This module adds, per match, lines that name what is here: the
installed toolkits that would satisfy the message, the active profile and CUDA_HOME,
the driver, the user's torch and its NVIDIA wheels, the directories on
LD_LIBRARY_PATH. ``cudaenv explain --no-host`` skips it.

Two halves:

* :func:`host_needs` and :func:`gather_host` decide and collect the facts (I/O, all
  cheap or cached). Toolkits come from discovery (the index: a few stats), the driver
  from :func:`cudaenv.host.driver.driver_facts` (a child interpreter, only when a
  match is about the driver), torch from
  :func:`cudaenv.host.python_probe.probe_python` (only when a match is about torch:
  a cache hit costs stats, a cold probe 1-3 s, said on stderr, then cached).
* :func:`answer_here` is pure: matches and facts in, ``here`` lines and the facts each
  used set on every match.

Suggesting ``cudaenv install X.Y`` (issue 12) is advice only: nothing here installs.
"""

from __future__ import annotations

import os
import re

from .explain import ANY_TOOLKIT


def _load() -> None:
    """Import what gathering and answering use, on first use: ``explain --no-host`` (and an
    answer that needs no host) does not pay for the driver probe's ctypes and json, the
    profiles and the ELF reader (a tenth of a short ``explain``)."""
    if "version_key" in globals():
        return
    from ..checks.live import SHM_MIN, ifname_matches, loader_finds, nccl_facts
    from ..env.pathlist import entries, which
    from ..host.python_probe import default_python, probe_python
    from ..infra.elf import symbol_versions
    from ..profiles.model import scan_toolkits
    from ..profiles.select import active_profile
    from ..toolkit import version_key
    from .explain import toolkits_for_arch

    globals().update(SHM_MIN=SHM_MIN, ifname_matches=ifname_matches, loader_finds=loader_finds,
                     nccl_facts=nccl_facts, entries=entries, which=which, default_python=default_python,
                     probe_python=probe_python, symbol_versions=symbol_versions, scan_toolkits=scan_toolkits,
                     active_profile=active_profile, version_key=version_key, toolkits_for_arch=toolkits_for_arch)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypedDict

    # The names _load() puts in globals(), for the type checker.
    from ..checks.live import SHM_MIN, ifname_matches, loader_finds, nccl_facts
    from ..env.pathlist import entries, which
    from ..host.python_probe import default_python, probe_python
    from ..infra.elf import symbol_versions
    from ..profiles.model import scan_toolkits
    from ..profiles.select import active_profile
    from ..toolkit import version_key
    from .explain import toolkits_for_arch

    from ..context import Context
    from .explain import Match

    class HostFacts(TypedDict):
        """What :func:`gather_host` collects (a fact not gathered is None); ``commands/explain`` passes it on."""

        toolkits: list[dict[str, Any]] | None
        active: dict[str, str] | None
        cuda_home: str | None
        ld_library_path: list[str]
        path: str
        torch: dict[str, Any] | None
        driver: dict[str, Any] | None
        nccl: dict[str, Any] | None
        cuda_visible_devices: str | None

__all__ = ["KINDS", "Answer", "ANSWERS", "NEEDS", "host_needs", "gather_host", "answer_here", "lib_dirs_holding"]

# The kinds of host facts an answer reads ("toolkits" also brings the active profile,
# CUDA_HOME and LD_LIBRARY_PATH: all free).
_T, _P, _D = "toolkits", "torch", "driver"
KINDS = (_T, _P, _D, "nccl")


class Answer:
    """How one family's answer looks at this machine: one record per knowledge-base id in :data:`ANSWERS`.

    Attributes:
        needs: The kinds of host facts it reads (:data:`KINDS`): :func:`gather_host`
            collects them, and they are what the match's ``host`` shows.
        lines: ``(match, host facts) -> [here lines]`` (pure).
        also: Further host facts (keys of :func:`gather_host`'s dict) the match's ``host`` shows.
    """

    __slots__ = ("needs", "lines", "also")

    def __init__(self, needs: tuple[str, ...], lines: Callable[[Match, HostFacts], list[str]],
                 also: tuple[str, ...] = ()) -> None:
        self.needs = needs
        self.lines = lines
        self.also = also


def host_needs(matches: list[Match]) -> set[str]:
    """The kinds of host facts the answers to ``matches`` read."""
    out: set[str] = set()
    for m in matches:
        if m.environment:
            ans = ANSWERS.get(m.id)
            out.update(ans.needs if ans else ())
            if _ANY_USE in m.fix:  # a fix that names no version: this machine's toolkits name one
                out.add(_T)
    return out


# What a fix says when the log names no CUDA version (explain/matcher.py ANY_TOOLKIT).
_ANY_USE = f"cudaenv use {ANY_TOOLKIT})"


def _any_toolkit_here(fix: str, host: HostFacts) -> str:
    """``fix`` with the version-less ``cudaenv use`` made the newest toolkit installed here."""
    tks = _installed(host)
    if _ANY_USE not in fix or not tks:
        return fix
    return fix.replace(_ANY_USE, f"cudaenv use {tks[-1]['version']})")


# --- gathering (I/O) ----------------------------------------------------------------------

def gather_host(ctx: Context, needs: set[str], python: str | None = None, notes: list[str] | None = None) -> HostFacts:
    """The host facts ``needs`` names, as one plain dict.

    Args:
        ctx: The command's context (environment, index).
        needs: From :func:`host_needs`.
        python: The interpreter whose torch to look at (default: ``python3`` on PATH).
        notes: Receives a line when a slow probe ran (the caller prints it on stderr).

    Returns:
        ``{"toolkits": [...], "active": ..., "cuda_home": ..., "ld_library_path": [...],
        "torch": ... | None, "driver": ... | None}``; a fact not gathered is None.
    """
    _load()
    env = ctx.env
    facts: HostFacts = {"toolkits": None, "active": None, "cuda_home": env.get("CUDA_HOME"),
                   "ld_library_path": entries(env.get("LD_LIBRARY_PATH")),
                   "path": env.get("PATH") or "", "torch": None, "driver": None, "nccl": None,
                   "cuda_visible_devices": env.get("CUDA_VISIBLE_DEVICES")}
    if "nccl" in needs:
        facts["nccl"] = nccl_facts(env)
    if _T in needs:
        toolkits, _ = scan_toolkits(ctx)
        facts["toolkits"] = [{"version": tk["version"], "full_version": tk["full_version"], "root": tk["root"],
                              "libdir": tk["libdir"], "stubs": bool(tk["components"].get("stubs")),
                              "nvcc": bool(tk["components"].get("nvcc"))} for tk in toolkits]
        act = active_profile(ctx)
        if act:
            facts["active"] = {"name": act["name"], "root": os.path.realpath(act["root"])}
    if _P in needs:
        facts["torch"] = _torch_facts(ctx, python, notes)
    if _D in needs:
        d = ctx.driver
        facts["driver"] = {"present": d.get("present"), "version": d.get("version"), "cuda": d.get("cuda"),
                           "gpus": [{"index": g.get("index"), "name": g.get("name"), "compute_cap": g.get("compute_cap")}
                                    for g in d.get("gpus") or []],
                           "stub_loaded": d.get("stub_loaded"), "reasons": list(d.get("reasons") or [])}
    return facts


def _torch_facts(ctx: Context, python: str | None, notes: list[str] | None) -> dict | None:
    py = python or default_python(ctx.env)
    if not py:
        return None
    res = probe_python(py, ctx.env, ctx.index)
    if res.get("error"):
        return {"python": res.get("python") or py, "error": res["error"]}
    if not res.get("cached") and notes is not None:
        notes.append(f"looked at the torch of {res.get('python')} ({res.get('seconds', 0):.1f} s; cached for next time)")
    t = res.get("torch") or {}
    return {"python": res.get("python"), "prefix": res.get("prefix"), "site_packages": res.get("site_packages") or [],
            "installed": bool(t.get("installed")), "version": t.get("version") or t.get("dist_version"),
            "cuda": t.get("cuda"), "cxx11_abi": t.get("cxx11_abi"), "arch_list": t.get("arch_list") or [],
            "location": t.get("location"), "import_error": t.get("import_error"),
            "nvidia_wheels": dict(res.get("nvidia_wheels") or {})}


# --- answers (pure, except for stats of files under the toolkits and site-packages) --------

def _use(version: str) -> str:
    return f'`eval "$(cudaenv use {version})"`'


def _mm(v: str) -> str:
    return ".".join(v.split(".")[:2])


def _installed(h: HostFacts) -> list[dict]:
    return sorted(h.get("toolkits") or [], key=lambda t: version_key(t["full_version"]))


def _listing(tks: list[dict]) -> str:
    return ", ".join(t["version"] for t in tks) if tks else "none"


def _pick(tks: list[dict], cuda: str) -> dict | None:
    """The installed toolkit that best matches CUDA ``cuda``: same major.minor, else the newest same major."""
    same = [t for t in tks if _mm(t["version"]) == _mm(cuda)]
    if same:
        return same[-1]
    major = [t for t in tks if t["version"].split(".")[0] == cuda.split(".")[0]]
    return major[-1] if major else None


def _torch_cuda(h: HostFacts, values: dict) -> tuple[str, str]:
    """(CUDA version of the user's torch, how we know): the host's torch first, else the log's."""
    t = h.get("torch") or {}
    if t.get("cuda"):
        return t["cuda"], f"your torch ({t.get('python')}) is {t.get('version')}, built with CUDA {t['cuda']}"
    tv = values.get("torch_version", "")
    mm = re.search(r"\+cu(\d+)(\d)$", tv)
    if mm:
        return f"{mm.group(1)}.{mm.group(2)}", f"the torch in the log is {tv}"
    return "", ""


def _cpu_torch(h: HostFacts) -> str:
    t = h.get("torch") or {}
    if t.get("installed") and t.get("version") and not t.get("cuda") and not t.get("import_error"):
        return (f"your torch ({t.get('python')}) is {t['version']}, a CPU build: it cannot build or run CUDA code "
                "with any toolkit; install a CUDA build of torch first")
    return ""


def _toolkit_for_torch(h: HostFacts, values: dict, need: str = "") -> list[str]:
    """Lines naming the installed toolkit a torch build wants (``need``: a file it must hold)."""
    cpu = _cpu_torch(h)
    if cpu:
        return [cpu]
    tks = _installed(h)
    if need:
        tks = [t for t in tks if os.path.exists(os.path.join(t["root"], need))]
    cuda, how = _torch_cuda(h, values)
    what = f" with {need}" if need else ""
    if not tks:
        want = f"`cudaenv install {_mm(cuda)}`" if cuda else "`cudaenv install --list` shows the versions to install"
        return [f"no CUDA toolkit{what} is installed here (`cudaenv list`); install one: {want}"
                + (f" ({how})" if how else "")]
    if cuda:
        best = _pick(tks, cuda)
        if best:
            return [f"{how}: CUDA {best['version']} is installed here ({best['root']}): {_use(best['version'])}"]
        return [f"{how}, but no CUDA {cuda.split('.')[0]}.x toolkit{what} is installed here (installed: "
                f"{_listing(tks)}); install one: `cudaenv install {_mm(cuda)}`, or install a torch build for an "
                f"installed toolkit"]
    return [f"installed here{what}: {_listing(tks)}; {_use(tks[-1]['version'])} sets CUDA_HOME, CUDA_PATH and PATH "
            "to one of them"]


def _current(h: HostFacts) -> list[str]:
    out = []
    act = h.get("active")
    if act:
        out.append(f"active profile here: {act['name']} ({act['root']})")
    if h.get("cuda_home") is not None:
        out.append(f"CUDA_HOME here is {h['cuda_home']!r}")
    return out


def lib_dirs_holding(dirs: list[str], soname: str) -> list[str]:
    """The directories of ``dirs`` that hold a file named ``soname``."""
    return [d for d in dirs if os.path.exists(os.path.join(d, soname))]


def _wheel_copies(h: HostFacts, soname: str) -> list[str]:
    """Paths of ``soname`` inside the user's torch environment's NVIDIA wheels."""
    t = h.get("torch") or {}
    out = []
    for sp in t.get("site_packages") or []:
        base = os.path.join(sp, "nvidia")
        try:
            subs = sorted(os.listdir(base))
        except OSError:
            continue
        for s in subs:
            for lib in ("lib", "lib64"):
                p = os.path.join(base, s, lib, soname)
                if os.path.exists(p):
                    out.append(p)
    return out


# soname stem -> the word in the NVIDIA wheel's distribution name
_WHEEL_WORD = {"libnvjitlink": "nvjitlink", "libcusparse": "cusparse", "libcublas": "cublas", "libcublaslt": "cublas",
               "libcudart": "cuda-runtime", "libnvrtc": "cuda-nvrtc", "libcufft": "cufft", "libcurand": "curand",
               "libcusolver": "cusolver", "libnccl": "nccl", "libcudnn": "cudnn", "libcupti": "cuda-cupti",
               "libnvtoolsext": "nvtx"}


def _wheel_version(h: HostFacts, soname: str) -> tuple[str, str] | None:
    stem = soname.split(".so")[0].lower()
    stem = re.sub(r"_\w+$", "", stem) if stem.startswith("libcudnn") else stem
    word = _WHEEL_WORD.get(stem)
    if not word:
        return None
    for name, ver in sorted(((h.get("torch") or {}).get("nvidia_wheels") or {}).items()):
        parts = name.split("-")
        if name.startswith("nvidia-") and "-".join(parts[1:]).startswith(word):
            return name, ver
    return None


def _h_mismatch(m: Match, h: HostFacts) -> list[str]:
    tv = m.values.get("torch", "")
    if not tv:
        return []
    tks = _installed(h)
    best = _pick(tks, tv)
    if best:
        return [f"CUDA {best['version']} is installed here ({best['root']}), the toolkit for a torch built with "
                f"CUDA {tv}: {_use(best['version'])}, then rebuild"]
    return [f"no CUDA {tv.split('.')[0]}.x toolkit is installed here (installed: {_listing(tks)}); install one: "
            f"`cudaenv install {_mm(tv)}`, or a torch build for an installed toolkit"]


def _h_cuda_home(m: Match, h: HostFacts) -> list[str]:
    return _current(h) + _toolkit_for_torch(h, m.values)


def _h_header(m: Match, h: HostFacts) -> list[str]:
    header = m.values.get("header", "")
    out = []
    for label, root in (("CUDA_HOME", h.get("cuda_home")), ("the active profile", (h.get("active") or {}).get("root"))):
        if root and header and not os.path.exists(os.path.join(root, "include", header)):
            out.append(f"{label} here ({root}) has no include/{header}")
    return out + _toolkit_for_torch(h, m.values, need=os.path.join("include", header) if header else "")


def _h_cpu(m: Match, h: HostFacts) -> list[str]:
    t = h.get("torch") or {}
    if not t:
        return []
    if t.get("error"):
        return [f"could not look at torch here: {t['error']}"]
    if not t.get("installed"):
        return [f"there is no torch in {t.get('python')}"]
    if t.get("cuda"):
        return [f"your torch ({t.get('python')}) is {t.get('version')}, a CUDA {t['cuda']} build: the failing "
                "program ran another interpreter or environment"]
    return [_cpu_torch(h)] if _cpu_torch(h) else []


def _h_abi(m: Match, h: HostFacts) -> list[str]:
    t = h.get("torch") or {}
    if not t.get("version"):
        return []
    abi = t.get("cxx11_abi")
    flag = "" if abi is None else f", built with _GLIBCXX_USE_CXX11_ABI={int(bool(abi))}"
    return [f"your torch ({t.get('python')}) is {t['version']}{flag}: rebuild the extension against it "
            "(pip install --no-build-isolation --no-cache-dir ...)"]


def _h_ninja(m: Match, h: HostFacts) -> list[str]:
    t = h.get("torch") or {}
    py = t.get("python")
    envbin = os.path.dirname(py) if py else None
    found = which("ninja", ":".join(d for d in (envbin, h.get("path")) if d))
    if found:
        return [f"ninja is at {found} here: put its directory on PATH in the shell that builds"]
    if py:
        return [f"no ninja on PATH here nor beside {py}: `{py} -m pip install ninja`"]
    return ["no ninja on PATH here: `python3 -m pip install ninja`"]


def _h_libcudart(m: Match, h: HostFacts) -> list[str]:
    ver = m.values.get("version", "")
    soname = f"libcudart.so.{ver}" if ver else ""
    return _h_soname(h, soname) if soname else []


def _h_library(m: Match, h: HostFacts) -> list[str]:
    lib = m.values.get("lib", "")
    return _h_soname(h, lib) if lib and ".so" in lib else []


def _h_soname(h: HostFacts, soname: str) -> list[str]:
    out = []
    tks = [t for t in _installed(h) if os.path.exists(os.path.join(t["root"], t["libdir"], soname))]
    for d in h.get("ld_library_path") or []:
        if os.path.exists(os.path.join(d, soname)):
            out.append(f"{soname} is in {d}, on LD_LIBRARY_PATH here: the failing process had another environment")
            break
    if tks:
        t = tks[-1]
        out.append(f"{soname} is in {os.path.join(t['root'], t['libdir'])} (CUDA {t['version']}, installed here): "
                   f"{_use(t['version'])} puts it on the loader path")
    wheels = _wheel_copies(h, soname)
    if wheels:
        out.append(f"your torch environment has {wheels[0]} (an NVIDIA wheel): torch finds it through its RUNPATH")
    if not out:
        out.append(f"no installed toolkit here has {soname} (installed: {_listing(_installed(h))})")
    return out


def _h_shadowed(m: Match, h: HostFacts) -> list[str]:
    lib = m.values.get("lib", "")
    if not lib:
        return []
    out = []
    t = h.get("torch") or {}
    shadow = [d for d in lib_dirs_holding(h.get("ld_library_path") or [], lib)
              if "site-packages" not in d and "dist-packages" not in d]
    off = " on LD_LIBRARY_PATH shadows it: take it off (`eval \"$(cudaenv off)\"`, or start the program with " \
          "`env -u LD_LIBRARY_PATH`)"
    if _wheel_copies(h, lib):
        wv = _wheel_version(h, lib)
        bundled = f"{_mm(wv[1])} ({wv[0]} {wv[1]})" if wv else "a wheel copy"
        who = (f"your torch ({t.get('python')}) is {t['version']}: its bundled" if t.get("version")
               else f"your Python environment ({t.get('python')}) has NVIDIA's wheels: its")
        out.append(f"{who} {lib.split('.so')[0]} is {bundled}" + (f"; {shadow[0]}{off}" if shadow else ""))
    elif shadow:
        out.append(f"{shadow[0]} on LD_LIBRARY_PATH here holds {lib}: the loader takes it before the copy the "
                   "failing library was built with (its RUNPATH)")
    elif t.get("version"):
        out.append(f"your torch ({t.get('python')}, {t['version']}) has no {lib}: the failing program ran in "
                   "another environment")
    return out


def _h_arch(m: Match, h: HostFacts) -> list[str]:
    arch = m.values.get("arch", "")
    sm = re.search(r"(\d+)", arch)
    if not sm:
        return []
    ok = set(toolkits_for_arch(int(sm.group(1))))
    tks = _installed(h)
    have = [t for t in tks if _mm(t["version"]) in ok]
    if have:
        return [f"installed here that compile {arch}: {_listing(have)}: {_use(have[-1]['version'])}"]
    return [f"no toolkit installed here compiles {arch} (installed: {_listing(tks)})"
            + (f"; `cudaenv install {sorted(ok, key=version_key)[-1]}` would" if ok else "")]


def _h_stubs(m: Match, h: HostFacts) -> list[str]:
    tks = _installed(h)
    with_stub = [t for t in tks if t.get("stubs")]
    act = (h.get("active") or {}).get("root")
    out = []
    if act:
        cur = [t for t in tks if t["root"] == act]
        if cur and not cur[0].get("stubs"):
            out.append(f"the active toolkit ({act}) has no lib64/stubs/libcuda.so; `cudaenv use` generates a link "
                       "stub for it")
    if with_stub:
        out.append(f"installed here with a driver stub: {_listing(with_stub)}: {_use(with_stub[-1]['version'])} puts "
                   "its stubs on LIBRARY_PATH")
    return out


def _h_ptx(m: Match, h: HostFacts) -> list[str]:
    need = m.values.get("ptx_cuda", "")
    if not need:
        return []
    tks = _installed(h)
    have = [t for t in tks if version_key(t["version"]) >= version_key(need)]
    if have:
        return [f"installed here with a ptxas for PTX {m.values.get('ptx')}: {_listing(have)}: "
                f"{_use(have[0]['version'])} for the whole build"]
    return [f"no toolkit installed here reads PTX {m.values.get('ptx')} (installed: {_listing(tks)}); "
            f"`cudaenv install {need}`"]


def _h_gcc(m: Match, h: HostFacts) -> list[str]:
    tks = _installed(h)
    if not tks:
        return []
    return [f"installed here: {_listing(tks)}; `cudaenv use` selects, for each, the newest installed g++ it accepts "
            "(`cudaenv check` shows which)"]


def _driver_line(h: HostFacts) -> list[str]:
    d = h.get("driver")
    if d is None:
        return []
    if not d.get("present"):
        reasons = d.get("reasons") or []
        why = reasons[0].split(": ", 1)[-1] if reasons else ""
        return ["no NVIDIA driver answers on this machine" + (f" ({why})" if why else "")
                + ": CUDA programs can be built here but not run"]
    gpus = d.get("gpus") or []
    names = ", ".join(f"{g.get('name')} (sm {g.get('compute_cap')})" for g in gpus) or "no GPU listed"
    return [f"driver here: {d.get('version')}, supports CUDA {d.get('cuda') or '?'}; GPUs: {names}"]


def _h_driver(m: Match, h: HostFacts) -> list[str]:
    out = _driver_line(h)
    d = h.get("driver") or {}
    dc = d.get("cuda")
    if d.get("present") and dc and h.get("toolkits") is not None:
        tks = _installed(h)
        ok = [t for t in tks if version_key(t["version"]) <= version_key(dc)]
        if ok:
            out.append(f"toolkits installed here that this driver runs: {_listing(ok)}: {_use(ok[-1]['version'])}")
        else:
            out.append(f"no toolkit installed here is old enough for this driver (installed: {_listing(tks)})")
    return out


def _h_driver_only(m: Match, h: HostFacts) -> list[str]:
    out = _driver_line(h)
    for r in (h.get("driver") or {}).get("reasons") or []:
        if "mismatch" in r.lower() and (h.get("driver") or {}).get("present"):
            out.append(r)
    return out


def _h_stub(m: Match, h: HostFacts) -> list[str]:
    out = _driver_line(h)
    stubs = [d for d in h.get("ld_library_path") or [] if d.rstrip("/").endswith("/stubs")
             or "/stubs/" in os.path.realpath(os.path.join(d, "libcuda.so.1"))]
    if stubs:
        out.append(f"LD_LIBRARY_PATH here holds a stub directory: {stubs[0]}")
    return out


def _h_torch_arch(m: Match, h: HostFacts) -> list[str]:
    out = _driver_line(h)
    t = h.get("torch") or {}
    if t.get("arch_list"):
        out.append(f"your torch ({t.get('python')}) is {t.get('version')}, compiled for {' '.join(t['arch_list'])}")
    return out


def _h_cuda_home_list(m: Match, h: HostFacts) -> list[str]:
    ch = h.get("cuda_home")
    if ch and ":" in ch:
        return [f"CUDA_HOME here is still a list: {ch!r}"] + _toolkit_for_torch(h, m.values)
    return _current(h) + _toolkit_for_torch(h, m.values)


def _h_libstdcxx(m: Match, h: HostFacts) -> list[str]:
    want = m.values.get("version", "")
    if not want:
        return []
    here = loader_finds("libstdc++.so.6", h.get("ld_library_path") or [])
    if not here:
        return []
    try:
        has = want in symbol_versions(here)[1]
    except (OSError, ValueError):
        return []
    loaded = m.values.get("loaded", "")
    if has:
        other = (f": the failing process loaded {loaded}, an older one; take its directory off LD_LIBRARY_PATH "
                 f"(or `LD_PRELOAD={here}`)" if loaded and os.path.realpath(loaded) != os.path.realpath(here) else
                 ": the failing process had another LD_LIBRARY_PATH or environment")
        return [f"the libstdc++ the loader finds here, {here}, has {want}{other}"]
    return [f"the libstdc++ the loader finds here, {here}, lacks {want} too: install a newer libstdc++ (or gcc) or "
            "rebuild the module with this machine's compiler"]


def _h_nccl(m: Match, h: HostFacts) -> list[str]:
    n = h.get("nccl") or {}
    out = []
    shm = n.get("shm")
    if shm and m.id in ("nccl.shm_exhausted", "nccl.system_error"):
        size, free = shm["total"] >> 20, shm["free"] >> 20
        small = " (too small for NCCL between several GPUs)" if shm["total"] < SHM_MIN else ""
        out.append(f"/dev/shm here: {size} MB, {free} MB free{small}")
    ifname = (n.get("vars") or {}).get("NCCL_SOCKET_IFNAME")
    ifs = n.get("interfaces")
    if m.id in ("nccl.network", "nccl.system_error") and ifs is not None:
        if ifname:
            picked = ifname_matches(ifname, ifs)
            out.append(f"NCCL_SOCKET_IFNAME here is {ifname!r}: it selects "
                       + (", ".join(picked) if picked else f"no interface of this machine ({', '.join(ifs)})"))
        else:
            auto = [i for i in ifs if not i.startswith(("lo", "docker"))]
            out.append(f"NCCL_SOCKET_IFNAME is not set here: NCCL takes the first of {', '.join(auto) or 'none'}")
    if m.id == "nccl.p2p_unsupported":
        p2p = (n.get("vars") or {}).get("NCCL_P2P_DISABLE")
        out.append(f"NCCL_P2P_DISABLE={p2p} in this shell" if p2p else
                   "NCCL_P2P_DISABLE is not set in this shell: `export NCCL_P2P_DISABLE=1`")
        gpus = ((h.get("driver") or {}).get("gpus")) or []
        geforce = [g["name"] for g in gpus if g.get("name") and ("GeForce" in g["name"] or " RTX 40" in g["name"]
                                                                  or " RTX 50" in g["name"])]
        if geforce:
            out.append(f"GeForce GPUs here ({', '.join(geforce)}): they have no peer-to-peer access")
    return out


def _h_duplicate(m: Match, h: HostFacts) -> list[str]:
    cvd = h.get("cuda_visible_devices")
    out = _driver_line(h)
    out.append(f"CUDA_VISIBLE_DEVICES here is {cvd!r}: every process started from this shell sees only that"
               if cvd is not None else "CUDA_VISIBLE_DEVICES is not set here")
    return out


#: One record per family with an answer tied to this machine: the facts it reads, the lines it writes.
ANSWERS: dict[str, Answer] = {
    "torch.cuda_major_mismatch": Answer((_T,), _h_mismatch),
    "torch.cuda_minor_mismatch": Answer((_T,), _h_mismatch),
    "torch.cuda_home_not_set": Answer((_T, _P), _h_cuda_home),
    "torch.nvcc_not_found": Answer((_T, _P), _h_cuda_home),
    "torch.no_cuda_runtime": Answer((_T, _P), _h_cuda_home),
    "build.cuda_header_missing": Answer((_T, _P), _h_header),
    "shell.nvcc_not_found": Answer((_T, _P), _h_cuda_home),
    "env.cuda_home_list": Answer((_T, _P), _h_cuda_home_list),
    "torch.cpu_build": Answer((_P,), _h_cpu),
    "torch.cxx11_abi": Answer((_P,), _h_abi),
    "torch.extension_abi": Answer((_P,), _h_abi),
    "build.ninja_missing": Answer((_P,), _h_ninja),
    "torch.arch_unsupported": Answer((_P, _D), _h_torch_arch),
    "torch.arch_list_empty": Answer((_D,), _h_driver_only),
    "runtime.libcudart_not_found": Answer((_T, _P), _h_libcudart),
    "runtime.cuda_library_not_found": Answer((_T, _P), _h_library),
    "runtime.cuda_lib_shadowed": Answer((_T, _P), _h_shadowed),
    "nvcc.unsupported_arch": Answer((_T,), _h_arch),
    "link.lcuda_not_found": Answer((_T,), _h_stubs),
    "nvcc.ptx_too_new": Answer((_T,), _h_ptx),
    "nvcc.gcc_too_new": Answer((_T,), _h_gcc),
    "runtime.insufficient_driver": Answer((_T, _D), _h_driver),
    "runtime.unsupported_ptx": Answer((_T, _D), _h_driver),
    "driver.not_loaded": Answer((_D,), _h_driver_only),
    "torch.no_driver": Answer((_D,), _h_driver_only),
    "runtime.libcuda_not_found": Answer((_D,), _h_driver_only),
    "runtime.stub_library": Answer((_T, _D), _h_stub),
    "driver.version_mismatch": Answer((_D,), _h_driver_only),
    "runtime.no_device": Answer((_D,), _h_driver_only),
    "runtime.no_kernel_image": Answer((_P, _D), _h_torch_arch),
    "cxx.libstdcxx_too_old": Answer((_T,), _h_libstdcxx),
    "nccl.shm_exhausted": Answer(("nccl",), _h_nccl),
    "nccl.network": Answer(("nccl",), _h_nccl),
    "nccl.p2p_unsupported": Answer(("nccl", _D), _h_nccl),
    "nccl.system_error": Answer(("nccl",), _h_nccl),
    "nccl.duplicate_gpu": Answer((_D,), _h_duplicate, also=("cuda_visible_devices",)),
}
#: Which host facts each family's answer reads (a view of :data:`ANSWERS`).
NEEDS: dict[str, tuple[str, ...]] = {k: a.needs for k, a in ANSWERS.items()}


def _used(ans: Answer, h: HostFacts) -> dict:
    keys = ans.needs
    out: dict[str, Any] = {}
    if _T in keys:
        out.update(toolkits=h.get("toolkits"), active=h.get("active"), cuda_home=h.get("cuda_home"),
                   ld_library_path=h.get("ld_library_path"))
    if _P in keys:
        out["torch"] = h.get("torch")
    if _D in keys:
        out["driver"] = h.get("driver")
    if "nccl" in keys:
        out["nccl"] = h.get("nccl")
    for key in ans.also:
        out[key] = h.get(key)
    return out


def answer_here(matches: list[Match], host: HostFacts) -> None:
    """Set ``here`` (lines naming this machine's facts) and ``host`` (the facts used) on each match.

    A program bug, or a family without a host answer, gets no lines.
    """
    _load()
    for m in matches:
        if m.environment and not m.commands and m.platform in ("windows", "mac"):
            continue  # the facts for another system: this Linux machine's toolkits and driver are not that system's
        if m.environment and host.get("toolkits"):
            m.fix = _any_toolkit_here(m.fix, host)
        ans = ANSWERS.get(m.id) if m.environment else None
        if ans is None:
            continue
        m.here = [line for line in ans.lines(m, host) if line]
        m.host = _used(ans, host)
