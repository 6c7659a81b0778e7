"""``doctor``: what is wrong with the shell you are in.

Gathering (:func:`gather_shell`) reads the environment, the filesystem and
``/proc``; the rules (:func:`shell_rules`) are pure.
"""

from __future__ import annotations

import os
import time

from ..infra.run import run
from ..profiles.loader import LEFT_OUT, relation_text, shadowing, tool_shadowing
from ..profiles.select import active_profile
from ..shells.posix import quote
from ..toolkit.discover import probed
from ..toolkit.probe import Skip, probe
from ..toolkit.version import NVCC_VERSION_TIMEOUT, parse_nvcc_version
from . import ADVICE, Finding
from .gather import install_hint
from .fit import answer, fit_facts, root_of, short
from ..toolkit import version_key
from ..env.pathlist import entries, which
from ..infra.files import LD_CACHE, ld_cache_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..context import Context

__all__ = ["gather_shell", "shell_rules", "shell_host_compiler", "extension_dirs", "stale_locks", "stub_origins",
           "cudart_providers", "visible_devices_problem", "wheel_shadowing"]

LOCK_AGE = 300  # seconds: a lock older than this that nobody holds is stale


def extension_dirs(env: Mapping[str, str]) -> list[str]:
    """Where torch builds JIT extensions: $TORCH_EXTENSIONS_DIR, else the XDG cache."""
    if env.get("TORCH_EXTENSIONS_DIR"):
        return [env["TORCH_EXTENSIONS_DIR"]]
    xdg = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return [os.path.join(xdg, "torch_extensions")]


def _open_files(proc_root: str) -> set[str]:
    held: set[str] = set()
    try:
        pids = [p for p in os.listdir(proc_root) if p.isdigit()]
    except OSError:
        return held
    for pid in pids:
        fd_dir = os.path.join(proc_root, pid, "fd")
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                held.add(os.readlink(os.path.join(fd_dir, fd)))
            except OSError:
                pass
    return held


def stale_locks(dirs: list[str], proc_root: str = "/proc", now: float | None = None, age: float = LOCK_AGE) -> list[str]:
    """torch_extensions ``lock`` files older than ``age`` that no live process holds open.

    torch's FileBaton keeps the lock open while it builds and deletes it when
    done; one left behind by a killed build makes every later build wait
    forever in ``baton.wait()``.
    """
    now = time.time() if now is None else now
    found = []
    for base in dirs:
        for root, subdirs, files in os.walk(base):
            if root[len(base):].count(os.sep) >= 3:
                subdirs[:] = []
            if "lock" in files:
                path = os.path.join(root, "lock")
                try:
                    if now - os.stat(path).st_mtime >= age:
                        found.append(path)
                except OSError:
                    pass
    if not found:
        return []
    held = _open_files(proc_root)
    return [p for p in found if os.path.realpath(p) not in held]


def cudart_providers(ld_path: list[str], ld_cache: str = LD_CACHE) -> dict[str, list[str]]:
    """soname -> real files providing it, in loader order (LD_LIBRARY_PATH, then the cache)."""
    prov: dict[str, list[str]] = {}
    for d in ld_path:
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for n in names:
            if n.startswith("libcudart.so.") and n.count(".") == 2:
                real = os.path.realpath(os.path.join(d, n))
                if real not in prov.setdefault(n, []):
                    prov[n].append(real)
    for path in ld_cache_paths(ld_cache):
        soname = os.path.basename(path)
        if soname.startswith("libcudart.so.") and soname.count(".") == 2:
            real = os.path.realpath(path)
            if real not in prov.setdefault(soname, []):
                prov[soname].append(real)
    return prov


def visible_devices_problem(value: str, gpu_count: int | None, uuids: list[str] | None = None) -> str | None:
    """Why CUDA_VISIBLE_DEVICES is wrong, or None.

    Args:
        value: Its value.
        gpu_count: How many GPUs the driver lists (None: unknown).
        uuids: Their ``GPU-...`` UUIDs when known: a UUID (CUDA also takes a unique
            prefix) that names none of them hides that device and every later one.
    """
    if value.strip() == "":
        return "it is empty: no GPU is visible to CUDA programs"
    seen = []
    for tok in value.split(","):
        t = tok.strip()
        if t.isdigit():
            if gpu_count is not None and int(t) >= gpu_count:
                return f"index {t} but only {gpu_count} GPU(s) exist; CUDA ignores it and everything after it"
            if t in seen:
                return f"index {t} is listed twice"
            seen.append(t)
        elif t.startswith(("GPU-", "MIG-")) and len(t) > 4:
            if uuids and t.startswith("GPU-") and not any(u.startswith(t) for u in uuids if u):
                return f"{t} is not the UUID of any GPU here ({', '.join(u for u in uuids if u)})"
            seen.append(t)
        elif t.startswith("-") and t[1:].isdigit():
            return f"{t}: a negative index hides this and every later device"
        else:
            return f"{t!r} is neither an index nor a GPU-/MIG- UUID"
    return None


def gather_shell(ctx: Context, driver: dict | None) -> dict:
    """Facts about the current shell's environment."""
    env = ctx.env
    facts: dict = {"env": env, "driver": driver or {}}
    act = active_profile(ctx)
    facts["active"] = {"name": act["name"], "root": os.path.realpath(act["root"])} if act else (
        {"name": env["CUDAENV_ACTIVE"], "root": None} if env.get("CUDAENV_ACTIVE") else None)

    def version_of_root(path: str) -> str | None:
        # Through the index discovery uses: a root probed (or timed out) once is not probed again.
        try:
            data = probed(os.path.realpath(path), ctx.index)[0]
        except (Skip, OSError):
            return None
        return data["full_version"] if data else None

    for var in ("CUDA_HOME", "CUDA_PATH"):
        v = env.get(var)
        facts[var] = None if v is None else {"value": v, "version": version_of_root(v) if v else None}
    nvcc = which("nvcc", env.get("PATH"))
    facts["nvcc"] = None
    if nvcc:
        root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
        in_toolkit = os.path.exists(os.path.join(root, "include", "cuda_runtime.h"))
        ver = version_of_root(root) if in_toolkit else None
        if ver is None and not in_toolkit:  # a wrapper script: ask it (a toolkit's own nvcc was asked by probe)
            res = run([nvcc, "--version"], env=env, timeout=NVCC_VERSION_TIMEOUT)
            parsed = parse_nvcc_version(res.stdout) if res.returncode == 0 else None
            ver = parsed[1] if parsed else None
            root = None
        facts["nvcc"] = {"path": nvcc, "root": root, "version": ver}
    default = ctx.layout.default_link
    facts["default"] = os.path.realpath(default) if os.path.exists(default) else None
    facts["lists"] = {v: env.get(v) for v in ("PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH")}
    ld = entries(env.get("LD_LIBRARY_PATH"))
    facts["stub_dirs"] = [d for d in ld if d.rstrip("/").endswith("/stubs") or (
        os.path.islink(os.path.join(d, "libcuda.so.1"))
        and "/stubs/" in os.path.realpath(os.path.join(d, "libcuda.so.1")))]
    facts["stub_origin"] = stub_origins(env, facts["stub_dirs"])
    facts["cudart"] = cudart_providers(ld)
    facts["shadow"] = wheel_shadowing(ctx, ld, entries(env.get("PATH")))
    proc = ctx.proc_root
    ext = extension_dirs(env)
    facts["locks"] = {"dirs": ext, "stale": stale_locks(ext, proc)}
    facts["visible"] = env.get("CUDA_VISIBLE_DEVICES")
    facts["fit"] = fit_facts(ctx)
    facts["host_cxx"] = shell_host_compiler(ctx, facts["nvcc"], facts["CUDA_HOME"])
    return facts


def _compiler_at(value: str, env: Mapping[str, str], c_driver: bool = False) -> str | None:
    """The binary a ``-ccbin``/CUDAHOSTCXX/CC value names: a path, a directory (nvcc runs its ``gcc``)
    or a name looked up on PATH."""
    if "/" in value:
        if os.path.isdir(value):
            for name in ("gcc", "g++", "clang", "clang++") if c_driver else ("gcc",):
                if os.access(os.path.join(value, name), os.X_OK):
                    return os.path.join(value, name)
            return None
        return value if os.access(value, os.X_OK) else None
    return which(value, env.get("PATH"))


def shell_host_compiler(ctx: Context, nvcc: dict | None, cuda_home: dict | None) -> dict | None:
    """What host compiler THIS shell's builds hand to nvcc, read from the live environment.

    nvcc takes the last ``-ccbin`` it is given (NVCC_PREPEND_FLAGS, then the command line, then
    NVCC_APPEND_FLAGS); without one, NVCC_CCBIN (CUDA 12.5 and later), else ``gcc`` on PATH.
    CMake puts CUDAHOSTCXX on the command line; torch's cpp_extension puts ``-ccbin $CC`` there.

    Returns:
        ``{"tk", "limits", "nvcc", "routes": [{"who", "how", "value", "compiler"}], "allow", "accepted"}``
        or None when no nvcc would run (none on PATH, none under CUDA_HOME).
    """
    from ..host.compilers import accepts, ccbin_of, compiler_info, find_compilers, select
    from ..toolkit.facts import host_limits

    env = ctx.env
    path, root = (nvcc or {}).get("path"), (nvcc or {}).get("root")
    if not path and cuda_home and cuda_home.get("value"):  # torch runs $CUDA_HOME/bin/nvcc
        cand = os.path.join(cuda_home["value"], "bin", "nvcc")
        if os.access(cand, os.X_OK):
            path, root = cand, os.path.realpath(cuda_home["value"])
    if not path or not root:
        return None
    try:
        tk = probed(root, ctx.index)[0]
    except (Skip, OSError):
        tk = None
    if tk is None:
        return None
    limits = host_limits(tk)
    app = ccbin_of({"NVCC_APPEND_FLAGS": env.get("NVCC_APPEND_FLAGS", "")})
    pre = ccbin_of({"NVCC_PREPEND_FLAGS": env.get("NVCC_PREPEND_FLAGS", "")})
    env_ccbin = env.get("NVCC_CCBIN") if version_key(tk["version"]) >= version_key("12.5") else None
    if app:
        plain = (app, "-ccbin in NVCC_APPEND_FLAGS", "NVCC_APPEND_FLAGS")
    elif pre:
        plain = (pre, "-ccbin in NVCC_PREPEND_FLAGS", "NVCC_PREPEND_FLAGS")
    elif env_ccbin:
        plain = (env_ccbin, "NVCC_CCBIN", "NVCC_CCBIN")
    else:
        plain = ("gcc", "gcc on PATH: no -ccbin in NVCC_PREPEND_FLAGS or NVCC_APPEND_FLAGS", None)
    routes = [{"who": "nvcc", "how": plain[1], "value": plain[0], "var": plain[2]}]
    if not app:  # NVCC_APPEND_FLAGS comes last and wins over both
        if env.get("CUDAHOSTCXX"):
            routes.append({"who": "CMake builds", "how": "CUDAHOSTCXX", "value": env["CUDAHOSTCXX"],
                           "var": "CUDAHOSTCXX"})
        if env.get("CC"):
            routes.append({"who": "torch extension builds", "how": "-ccbin $CC", "value": env["CC"], "var": "CC"})
    for r in routes:
        binary = _compiler_at(r["value"], env)
        r["compiler"] = compiler_info(binary, ctx.index) if binary else None
    flags = (env.get("NVCC_PREPEND_FLAGS", "") + " " + env.get("NVCC_APPEND_FLAGS", "")).split()
    out = {"tk": tk, "limits": limits, "nvcc": path, "routes": routes,
           "allow": "-allow-unsupported-compiler" in flags or "--allow-unsupported-compiler" in flags,
           "accepted": None, "install_hint": ""}
    if any(r["compiler"] and accepts(limits, r["compiler"]) is False for r in routes):
        # Only a fix needs the compilers on PATH (listing them costs tens of milliseconds).
        chosen = select(limits, find_compilers(env, ctx.index), routes[0]["compiler"])
        out.update(accepted=chosen["path"] if chosen else None, install_hint=install_hint())
    return out


def stub_origins(env: Mapping[str, str], dirs: list[str]) -> dict[str, dict]:
    """Where each stub directory on LD_LIBRARY_PATH came from, read from the environment itself.

    ``kind``: ``use`` (this cudaenv's node-local runtime stub, recorded in
    ``_CUDAENV_STATE``), ``use-old`` (recorded there, but the shared cache
    directory an older cudaenv used: made on some node without a driver, then
    inherited), ``module`` (a ``.cudaenv-stubs`` directory of modulefiles
    cudaenv wrote; ``module`` names the loaded module when ``_LMFILES_`` tells),
    ``hand`` (nothing of cudaenv's: start-up files, a job script, another tool).
    ``job`` is the Slurm job this process runs in (its environment was copied
    from the submitting shell unless it was submitted with ``--export=NONE``).
    """
    from ..env.state import STATE_VAR, decode
    from ..errors import CudaenvError
    from ..toolkit.stubs import NODE_STUBS

    ours: set[str] = set()
    name = None
    if env.get(STATE_VAR):
        try:
            st = decode(env[STATE_VAR])
        except CudaenvError:
            st = None
        if st is not None:
            name = st.name
            _kind, pre, app = st.lists.get("LD_LIBRARY_PATH", ("u", [], []))
            ours = set(pre) | set(app)
    mods = list(zip(entries(env.get("LOADEDMODULES")), entries(env.get("_LMFILES_"))))
    job = env.get("SLURM_JOB_ID") or None
    out = {}
    for d in dirs:
        rec: dict = {"kind": "hand", "profile": None, "module": None, "job": job}
        if d in ours:
            node_local = os.path.basename(os.path.dirname(d.rstrip("/"))).startswith(NODE_STUBS)
            rec.update(kind="use" if node_local else "use-old", profile=name)
        elif "/.cudaenv-stubs/" in d:
            moddir = d.split("/.cudaenv-stubs/", 1)[0]
            rec.update(kind="module", module=next((m for m, f in mods if f.startswith(moddir + "/")), None))
        out[d] = rec
    return out


def wheel_shadowing(ctx: Context, ld: list[str], path: list[str]) -> dict:
    """What on LD_LIBRARY_PATH (libraries) and PATH (ptxas, nvlink, …) shadows the environment's wheels."""
    pyenv, inventory = ctx.python.wheels()
    libs = [s for s in shadowing(ld, inventory, ctx.index) if s["relation"] != "same"]
    tools = []
    for d in path:
        ptxas = os.path.join(d, "ptxas")
        if os.path.exists(ptxas):  # the first compiler bin on PATH is the one that runs

            try:
                tk = probe(os.path.dirname(os.path.realpath(d)))
            except (Skip, OSError):
                break
            tools = [t for t in tool_shadowing([d], inventory, tk) if t["relation"] == "older"]
            break
    return {"env": pyenv["prefix"] if pyenv else None, "libs": libs, "tools": tools,
            "wheels": len(inventory["libs"])}


def _short(v: str | None) -> str:
    return ".".join(v.split(".")[:2]) if v else "?"


def _use_fix(f: dict, *order: str) -> str:
    """``eval "$(cudaenv use X)"`` for the toolkit that fits: the environment's torch build first, then the
    first of ``order`` that names a discovered toolkit ("active", "CUDA_HOME", "nvcc", "default")."""
    fit = f.get("fit")
    if not fit:
        return 'eval "$(cudaenv use <version>)"'
    roots = {"active": (f.get("active") or {}).get("root"), "CUDA_HOME": (f.get("CUDA_HOME") or {}).get("value"),
             "nvcc": (f.get("nvcc") or {}).get("root"), "default": f.get("default")}
    prefer = next((t for t in (root_of(roots[k], fit["toolkits"]) for k in order) if t), None)
    tb = fit.get("torch") or {}
    return answer(fit, torch_cuda=tb.get("cuda"), prefer=prefer) or 'eval "$(cudaenv use <version>)"'


def _newer_fix(f: dict, version: str) -> str:
    """Switch to a toolkit at least as new as a wheel tool's ``version``."""
    fit = f.get("fit")
    want = short(version)
    cmd = answer(fit, torch_cuda=((fit or {}).get("torch") or {}).get("cuda"), install=want,
                 want=lambda t: version_key(t["version"]) >= version_key(want))
    return "switch to a toolkit at least as new" + (f" ({cmd})" if cmd else "")


def _cuda_home_rule(f: dict) -> list[Finding]:
    """CUDA_HOME itself: set, not empty, a toolkit."""
    out: list[Finding] = []
    ch = f.get("CUDA_HOME")
    if ch is None:
        out.append(Finding("env.cuda_home", "warn", "CUDA_HOME is not set",
                           detail="torch then guesses (CUDA_PATH, the nvcc on PATH, /usr/local/cuda), "
                                  "so builds may use a toolkit you did not mean",
                           fix=_use_fix(f, "nvcc", "default")))
    elif ch["value"] == "":
        out.append(Finding("env.cuda_home", "fail", "CUDA_HOME is set but empty",
                           detail="torch and CMake treat it as unset or as the current directory",
                           fix="unset CUDA_HOME, or " + _use_fix(f, "nvcc", "default")))
    elif ch["version"] is None:
        out.append(Finding("env.cuda_home", "fail", f"CUDA_HOME={ch['value']} is not a CUDA toolkit",
                           fix=_use_fix(f, "nvcc", "default") + "; `cudaenv list` shows what is installed"))
    else:
        out.append(Finding("env.cuda_home", "ok", f"CUDA_HOME={ch['value']} (CUDA {ch['version']})"))
    return out


def _consistency_rule(f: dict) -> list[Finding]:
    """CUDA_HOME, CUDA_PATH, the active profile and the nvcc on PATH name one toolkit."""
    out: list[Finding] = []
    ch = f.get("CUDA_HOME")
    seen = []
    act = f.get("active")
    if act and act.get("root"):
        seen.append(("active profile " + act["name"], act["root"]))
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if f.get(var) and f[var]["value"]:
            seen.append((var, os.path.realpath(f[var]["value"])))
    nv = f.get("nvcc")
    roots = {r for _, r in seen}
    problems = []
    if len(roots) > 1:
        problems.append(", ".join(f"{n}={r}" for n, r in seen))
    if nv and nv.get("version") and ch and ch.get("version") and _short(nv["version"]) != _short(ch["version"]):
        problems.append(f"nvcc on PATH ({nv['path']}) is CUDA {nv['version']} but CUDA_HOME is CUDA {ch['version']}")
    elif nv and nv.get("root") and roots and nv["root"] not in roots and ch and ch.get("version"):
        problems.append(f"nvcc on PATH comes from {nv['root']}, not {sorted(roots)[0]}")
    if problems:
        out.append(Finding("env.consistency", "fail", "the toolkit settings disagree: " + "; ".join(problems),
                           detail="builds mix toolkits: the classic 'nvcc says one version but I set another'",
                           fix=_use_fix(f, "active", "CUDA_HOME", "nvcc") + " sets CUDA_HOME, CUDA_PATH and PATH "
                               "together"))
    elif nv and not seen:
        v = f" (CUDA {nv['version']})" if nv.get("version") else ""
        out.append(Finding("env.consistency", "warn",
                           f"only PATH chooses a toolkit: nvcc{v} from {nv.get('root') or nv['path']}; "
                           "CUDA_HOME and CUDA_PATH are unset",
                           detail="tools that read CUDA_HOME or CUDA_PATH (torch, CMake, cuda-pathfinder) guess "
                                  "on their own and may pick another toolkit",
                           fix=_use_fix(f, "nvcc") + " sets CUDA_HOME, CUDA_PATH and PATH together"))
    elif seen or nv:
        what = nv["version"] if nv and nv.get("version") else (ch or {}).get("version")
        out.append(Finding("env.consistency", "ok", f"CUDA_HOME, CUDA_PATH, nvcc agree (CUDA {what or '?'})"
                           + (f"; /usr/local/cuda is {f['default']}" if f.get("default") else "")))
    return out


def _empty_entries_rule(f: dict) -> list[Finding]:
    """No empty entry (the current directory) in the path lists."""
    out: list[Finding] = []
    bad = []
    for var, val in f["lists"].items():
        if val is None or val == "":
            continue
        parts = val.split(":")
        if "" in parts:
            where = "leading" if parts[0] == "" else "trailing" if parts[-1] == "" else "inner"
            bad.append(f"{var} ({where} ':')")
    if bad:
        out.append(Finding("env.empty_entries", "warn", "empty entries mean the current directory: " + ", ".join(bad),
                           detail="commands and libraries are then looked up in whatever directory you are in",
                           fix="remove the stray ':' (e.g. from `export X=$X:/new` when X was unset); cudaenv never adds one"))
    else:
        out.append(Finding("env.empty_entries", "ok", "no empty entries in PATH, LD_LIBRARY_PATH, LIBRARY_PATH"))
    return out


def _stub_story(d: str, rec: dict) -> tuple[str, str]:
    """(where stub directory ``d`` came from, what removes it) for one :func:`stub_origins` record."""
    job = f"; this is job {rec['job']}, whose environment Slurm copies from the submitting shell (--export=ALL, " \
        "the default)" if rec["job"] else ""
    who = f"`cudaenv use {rec['profile']}`" if rec["profile"] else "`cudaenv use`"
    if rec["kind"] == "use":
        return (f"it is the runtime stub profile {rec['profile']} asks for (stubs: always or driverless), "
                "made on this node",
                f"set `stubs: auto` (link time only) in profile {rec['profile']}, then `eval \"$(cudaenv use "
                f"{rec['profile']})\"` again")
    if rec["kind"] == "use-old":
        return (f"{who} of an older cudaenv put it there on a node without a driver (its stubs: auto did)" + job,
                f"{ADVICE['stub_inherited']}; this cudaenv adds one only where a profile asks (stubs: driverless or always), "
                "in a directory of that node only")
    if rec["kind"] == "module":
        mod = f"module {rec['module']}" if rec["module"] else "a module written by `cudaenv modulefiles`"
        name = rec["module"] or "cuda/<version>"
        return (f"{mod} put it there (loaded on a node without a driver, or its profile says stubs: always)" + job,
                f"`module unload {name}; module load {name}` where the program runs (or submit with --export=NONE "
                "and load it in the job); regenerate the modulefiles with this cudaenv (`cudaenv modulefiles`): "
                "by default they add no runtime stub")
    return ("not cudaenv's: set outside cudaenv (shell start-up files, a job script, another tool or module)" + job,
            f"remove {d} from LD_LIBRARY_PATH where it is set: {ADVICE['stub_link_time']}")


def _stubs_rule(f: dict) -> list[Finding]:
    """No driver stub on the loader path where a real driver is; where one came from, and its fix."""
    out: list[Finding] = []
    drv = f.get("driver") or {}
    origin = f.get("stub_origin") or {}
    for d in f["stub_dirs"][:1]:  # the first one is the one the loader finds
        rec = origin.get(d) or {"kind": "hand", "profile": None, "module": None, "job": None}
        story, fix = _stub_story(d, rec)
        if drv.get("present"):
            out.append(Finding("env.stubs_on_loader_path", "fail",
                               f"driver stub on LD_LIBRARY_PATH with a real driver present: {d}",
                               detail=f"every CUDA call fails with error 34 'CUDA driver is a stub library'; {story}",
                               fix=fix))
        elif rec["kind"] == "use":
            out.append(Finding("env.stubs_on_loader_path", "ok",
                               "driver stub on the loader path, and no driver here (a build host): fine; its "
                               "directory exists on this node only, so other nodes skip it"))
        else:
            out.append(Finding("env.stubs_on_loader_path", "info",
                               f"driver stub on the loader path and no driver here: fine here, but it travels: {d}",
                               detail=f"{story}; a job or shell started from this environment on a GPU node finds "
                                      "it before the driver (CUDA error 34)",
                               fix=fix))
    return out


def _cudart_rule(f: dict) -> list[Finding]:
    """One libcudart per soname reachable."""
    out: list[Finding] = []
    dup = {s: p for s, p in f["cudart"].items() if len(p) > 1}
    if dup:
        s, paths = sorted(dup.items())[0]
        out.append(Finding("env.cudart_versions", "warn",
                           f"{len(paths)} different {s} are reachable; the loader takes {paths[0]}",
                           detail="; ".join(paths),
                           fix="set LD_LIBRARY_PATH to the toolkit you build with ("
                               + _use_fix(f, "active", "CUDA_HOME", "nvcc") + ") or link with an rpath"))
    elif f["cudart"]:
        out.append(Finding("env.cudart_versions", "ok", "one libcudart per soname: " + ", ".join(sorted(f["cudart"]))))
    return out


def _shadowing_rules(f: dict) -> list[Finding]:
    """Nothing on LD_LIBRARY_PATH or PATH shadows the Python environment's NVIDIA wheels."""
    out: list[Finding] = []
    sh = f.get("shadow") or {}
    older = [s for s in sh.get("libs", []) if s["relation"] in LEFT_OUT]
    for s in older:
        lib = f"{s['soname']} {s['version']}" if s["relation"] == "older" else s["soname"]
        newer = "the newer " if s["relation"] == "older" else ""
        out.append(Finding("env.wheel_shadowing", "fail",
                           f"{s['file']} ({lib}) on LD_LIBRARY_PATH shadows {newer}"
                           f"{s['wheel_file']} ({s['dist']} {s['wheel_version']})"
                           + ("" if s["relation"] == "older" else f": {relation_text(s)}"),
                           detail="the loader searches LD_LIBRARY_PATH before the RUNPATH the wheels find each other "
                                  "by, so Python code in " + str(sh.get("env")) + " loads this copy and fails "
                                  "with undefined symbols (e.g. __nvJitLinkComplete_12_4)",
                           fix=f"remove {s['dir']} from LD_LIBRARY_PATH, or switch with "
                               + _use_fix(f, "active", "CUDA_HOME", "nvcc")
                               + " (loader_path: auto leaves the older copy out)"))
    for s in sh.get("tools", []):
        out.append(Finding("env.wheel_shadowing", "warn",
                           f"{s['file']} (CUDA {s['version']}) comes first on PATH, ahead of the newer "
                           f"{s['wheel_file']} ({s['dist']} {s['wheel_version']})",
                           detail="JAX/XLA and Triton look for ptxas on PATH first and then run the older one",
                           fix=_newer_fix(f, s["wheel_version"]) + ", or put the wheel's bin directory first on PATH"))
    others = [s for s in sh.get("libs", []) if s["relation"] not in LEFT_OUT]
    if not older and not sh.get("tools") and sh.get("wheels"):
        extra = "; " + "; ".join(relation_text(s) for s in others[:3]) if others else ""
        out.append(Finding("env.wheel_shadowing", "ok",
                           f"nothing on LD_LIBRARY_PATH shadows the {sh['wheels']} NVIDIA wheel libraries of "
                           f"{sh.get('env')}{extra}"))
    return out


def _visible_devices_rule(f: dict) -> list[Finding]:
    """CUDA_VISIBLE_DEVICES names devices that exist."""
    out: list[Finding] = []
    drv = f.get("driver") or {}
    if f.get("visible") is not None:
        gpus = drv.get("gpus")
        why = visible_devices_problem(f["visible"], len(gpus) if gpus else None,
                                      [g.get("uuid") or "" for g in gpus] if gpus else None)
        if why:
            out.append(Finding("env.cuda_visible_devices", "warn" if f["visible"].strip() == "" else "fail",
                               f"CUDA_VISIBLE_DEVICES={f['visible']!r}: {why}",
                               fix="unset CUDA_VISIBLE_DEVICES, or list valid indices/UUIDs from `nvidia-smi -L`"))
        else:
            out.append(Finding("env.cuda_visible_devices", "ok", f"CUDA_VISIBLE_DEVICES={f['visible']}"))
    return out


def _locks_rule(f: dict) -> list[Finding]:
    """No stale torch_extensions lock."""
    out: list[Finding] = []
    stale = f["locks"]["stale"]
    if stale:
        out.append(Finding("torch.extension_lock", "warn",
                           f"{len(stale)} stale torch_extensions lock(s): builds will hang in baton.wait()",
                           detail="; ".join(stale),
                           fix="rm " + " ".join(quote(p) for p in stale)))
    else:
        out.append(Finding("torch.extension_lock", "ok", "no stale torch_extensions locks in " + ", ".join(f["locks"]["dirs"])))
    return out


def _host_compiler_rule(f: dict) -> list[Finding]:
    """The host compiler this shell's nvcc would run is one its toolkit accepts."""
    h = f.get("host_cxx")
    if not h:
        return []
    tk, lim = h["tk"], h["limits"]
    nv = f"nvcc {tk['version']} ({h['nvcc']})"
    bad, unknown = [], []
    for r in h["routes"]:
        c = r["compiler"]
        if c is None:
            unknown.append(r)
            continue
        limit = lim["clang_max" if c["family"] == "clang" else "gcc_max"]
        r["text"] = f"{c['family']} {c['version']} ({c['path']}, {r['how']})"
        r["limit"] = f"{c['family']} <= {limit}" if limit is not None else None
        if limit is not None and c["major"] > int(limit):
            bad.append(r)
    plain = h["routes"][0]
    if not bad:
        if unknown:
            u = unknown[0]
            who = "" if u is plain else f"{u['who']}: "
            return [Finding("compiler.host", "warn", f"{who}{nv} would run {u['value']!r} ({u['how']}): "
                            "not found on PATH or not a compiler",
                            detail="nvcc then stops before compiling anything ('failed to preprocess host "
                                   "compiler properties' or 'command not found')",
                            fix=f"make {u['var']} name an installed compiler, or unset it" if u["var"] else
                            f"install gcc, a compiler CUDA {tk['version']} accepts")]
        lim_text = f" ({plain['limit']})" if plain.get("limit") else ""
        others = "; ".join(f"{r['who']}: {r['text']}" for r in h["routes"][1:] if r.get("text"))
        return [Finding("compiler.host", "ok", f"{nv} runs {plain['text']}: accepted{lim_text}"
                        + (f"; {others}" if others else ""))]
    first = bad[0]
    who = "" if first is plain else f"{first['who']}: "
    summary = (f"{who}{nv} would run {first['text']}, newer than CUDA {tk['version']} accepts ({first['limit']})")
    detail = ("nvcc stops with '#error -- unsupported GNU version! gcc versions later than "
              f"{lim.get('gcc_max')} are not supported!'")
    if len(bad) > 1:
        detail += "; also " + "; ".join(f"{r['who']}: {r['text']}" for r in bad[1:])
    if h["allow"]:
        detail = "-allow-unsupported-compiler is set: nvcc skips its check, and builds may fail later or miscompile"
    good = h["accepted"]
    fixes = []
    if good:
        cmd = answer(f.get("fit"), want=lambda t: t["root"] == tk["root"], install=False)
        # `use` selects an accepted compiler only where no -ccbin of the user's own decides.
        if cmd and first["var"] in (None, "NVCC_CCBIN"):
            fixes.append(f"{cmd} selects {good} (NVCC_PREPEND_FLAGS='-ccbin {good}' and CUDAHOSTCXX)")
        if first["var"] in ("CUDAHOSTCXX", "CC"):
            fixes.append(f"export {first['var']}={quote(good)}")
        elif first["var"] == "NVCC_APPEND_FLAGS":
            fixes.append(f"export NVCC_APPEND_FLAGS={quote('-ccbin ' + good)} (its -ccbin comes last and wins; "
                         "or remove the -ccbin from it)")
        else:
            fixes.append(f"export NVCC_PREPEND_FLAGS={quote('-ccbin ' + good)}")
    else:
        fixes.append(h["install_hint"].format(gcc=lim.get("gcc_max") or ""))
    return [Finding("compiler.host", "warn" if h["allow"] else "fail", summary, detail=detail,
                    fix=", or ".join(fixes))]


#: The rules over :func:`gather_shell`'s facts, in the order their findings are shown.
_RULES = (_cuda_home_rule, _consistency_rule, _host_compiler_rule, _empty_entries_rule, _stubs_rule, _cudart_rule,
          _shadowing_rules, _visible_devices_rule, _locks_rule)


def shell_rules(f: dict) -> list[Finding]:
    """The findings about the current shell's environment, from :func:`gather_shell`'s facts."""
    return [finding for rule in _RULES for finding in rule(f)]
