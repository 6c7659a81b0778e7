"""``doctor``'s live detections of what ``explain`` finds in logs, before the log exists.

* ``env.cuda_home_headers``: CUDA_HOME (else the active profile's root) without the headers
  builds include: ``cuda_runtime.h`` for anything CUDA, and the library headers torch's
  ``ATen/cuda`` headers include (``cublas_v2.h``, ``cusparse.h``, ``cusolverDn.h``) for a
  torch extension. A runtime-only install or a tree of pip wheels has libraries but not these.
* ``driver.library_mismatch``: the loaded kernel module (``/proc/driver/nvidia/version``) and
  the user-space driver libraries the loader would find (``libnvidia-ml.so.1``,
  ``libcuda.so.1``: their file names carry the driver version) differ: "Failed to initialize
  NVML: Driver/library version mismatch" until a reboot or module reload. Read from files, no
  library is loaded (and the driver facts' own disagreements are added).
* ``env.nccl``: /dev/shm smaller than NCCL needs between the GPUs of one machine (a container's
  64 MB), and an ``NCCL_SOCKET_IFNAME`` that names no interface of this machine.
* ``env.libstdcxx``: the ``libstdc++.so.6`` the loader would find for the Python environment
  (LD_LIBRARY_PATH first, then the environment's own ``lib`` as conda's RUNPATH has it, then the
  system) lacks a ``GLIBCXX_``/``CXXABI_`` version that a compiled module of that environment
  needs (torch's libraries, extensions): "version `GLIBCXX_3.4.30' not found" at import.

Gathering (:func:`gather_live`) reads files and ELF headers (no process is started);
:func:`live_rules` is pure.
"""

from __future__ import annotations

import glob
import os

from ..env.pathlist import entries
from ..host.driver import file_version, same_version
from ..infra.files import ld_cache_paths
from ..toolkit import version_key
from ..host.python_probe import default_python
from ..infra.elf import symbol_versions
from ..profiles.select import active_profile
from ..toolkit.compat import libstdcxx_gcc
from ..toolkit.version import include_dirs
from . import ADVICE, Finding
from .fit import answer, fit_facts, root_of, short

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["gather_live", "live_rules", "loader_finds", "headers_missing", "env_modules", "BUILD_HEADERS",
           "TORCH_HEADERS", "nccl_facts", "ifname_matches", "SHM_MIN"]

BUILD_HEADERS = ("cuda_runtime.h",)
# What torch's ATen/cuda/CUDAContext.h (included by every CUDA extension through
# torch/extension.h's CUDA path) includes from the toolkit.
TORCH_HEADERS = ("cublas_v2.h", "cusparse.h", "cusolverDn.h")
_SYSTEM_LIB_DIRS = ("/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                    "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib", "/usr/lib")
# Compiled modules looked at in an environment: enough to cover torch and its extensions,
# bounded so a huge environment costs milliseconds, not seconds.
MAX_MODULES = 3000
# Below this, NCCL between a few GPUs of one machine runs out of /dev/shm (segments of ~10 MB
# per pair of ranks and channel); Docker's default is 64 MB.
SHM_MIN = 512 << 20


def ifname_matches(value: str, interfaces: list[str]) -> list[str]:
    """The interfaces NCCL_SOCKET_IFNAME=``value`` selects (NCCL's rules: a comma list of name
    prefixes; ``=`` first: exact names; ``^`` first: every interface but those)."""
    exclude = value.startswith("^")
    v = value[1:] if exclude else value
    exact = v.startswith("=")
    v = v[1:] if exact else v
    names = [n for n in v.split(",") if n]

    def hit(i: str) -> bool:
        return any(i == n if exact else i.startswith(n) for n in names)

    return [i for i in interfaces if hit(i) != exclude]


def nccl_facts(env: dict, shm: str = "/dev/shm", net: str = "/sys/class/net") -> dict:
    """/dev/shm's size and free space, the network interfaces, the NCCL_* variables."""
    out: dict = {"shm": None, "interfaces": None, "vars": {k: v for k, v in env.items() if k.startswith("NCCL_")}}
    try:
        st = os.statvfs(shm)
        out["shm"] = {"path": shm, "total": st.f_blocks * st.f_frsize, "free": st.f_bavail * st.f_frsize}
    except OSError:
        pass
    try:
        out["interfaces"] = sorted(os.listdir(net))
    except OSError:
        pass
    return out


def _mb(n: int) -> str:
    return f"{n / (1 << 30):.1f} GB" if n >= 1 << 30 else f"{n >> 20} MB"


def headers_missing(root: str, names: tuple[str, ...]) -> list[str]:
    """The headers of ``names`` found in none of the toolkit's include directories."""
    dirs = include_dirs(root)
    return [n for n in names if not any(os.path.isfile(os.path.join(d, n)) for d in dirs)]


def loader_finds(soname: str, ld_path: list[str], extra: list[str] = (), cache: list[str] | None = None) -> str | None:
    """Where the dynamic loader would find ``soname``: LD_LIBRARY_PATH, ``extra`` (a RUNPATH), the cache, the defaults."""
    for d in list(ld_path) + list(extra):
        p = os.path.join(d, soname)
        if os.path.exists(p):
            return p
    for p in ld_cache_paths() if cache is None else cache:
        if os.path.basename(p) == soname and os.path.exists(p):
            return p
    for d in _SYSTEM_LIB_DIRS:
        p = os.path.join(d, soname)
        if os.path.exists(p):
            return p
    return None


def env_modules(prefix: str, limit: int = MAX_MODULES) -> list[str]:
    """Compiled modules of the Python environment at ``prefix``: torch's libraries and every
    ``*.so`` up to three levels below each site-packages (Debian's dist-packages too)."""
    out: list[str] = []
    for sp in sorted(glob.glob(os.path.join(prefix, "lib", "python3*", "site-packages"))
                     + glob.glob(os.path.join(prefix, "lib", "python3*", "dist-packages"))):
        base_depth = sp.rstrip(os.sep).count(os.sep)
        for root, dirs, files in os.walk(sp):
            depth = root.count(os.sep) - base_depth
            if depth >= 3 and not root.endswith(os.path.join("torch", "lib")):
                dirs[:] = []
            dirs[:] = [d for d in dirs if not d.endswith((".dist-info", "__pycache__")) and d != "nvidia"]
            for f in files:
                if ".so" in f and not f.endswith((".py", ".pyc")):
                    out.append(os.path.join(root, f))
                    if len(out) >= limit:
                        return out
    return out


def gather_live(ctx: Context, driver: dict | None, python: str | None = None) -> dict:
    """Facts for :func:`live_rules`: headers under CUDA_HOME, driver library versions, libstdc++."""
    env = ctx.env
    ld = entries(env.get("LD_LIBRARY_PATH"))
    facts: dict = {"headers": None, "driver": None, "libstdcxx": None,
                   "nccl": nccl_facts(env)}

    # Headers.
    home, label = env.get("CUDA_HOME"), "CUDA_HOME"
    if not home:
        act = active_profile(ctx)
        home, label = (act["root"], f"the active profile {act['name']}") if act else (None, None)
    if home and os.path.isdir(home):
        facts["headers"] = {"root": home, "label": label, "missing": headers_missing(home, BUILD_HEADERS),
                            "missing_torch": headers_missing(home, TORCH_HEADERS)}
        if facts["headers"]["missing"] or facts["headers"]["missing_torch"]:
            # What the fix can point at: the discovered toolkits that have each set of headers.
            fit = fit_facts(ctx)
            want = BUILD_HEADERS if facts["headers"]["missing"] else BUILD_HEADERS + TORCH_HEADERS
            mine = root_of(home, fit["toolkits"])
            facts["headers"].update(fit=fit, version=mine["full_version"] if mine else None,
                                    complete=[t["root"] for t in fit["toolkits"]
                                              if not headers_missing(t["root"], want)])

    # Driver: kernel module vs the user-space libraries the loader would find.
    drv = driver or {}
    kernel = ((drv.get("sources") or {}).get("proc") or {}).get("version")
    if kernel:
        cache = ld_cache_paths()
        libs = {}
        for soname in ("libnvidia-ml.so.1", "libcuda.so.1"):
            p = loader_finds(soname, ld, cache=cache)
            if p and "/stubs/" not in os.path.realpath(p) and not p.rstrip("/").endswith("/stubs"):
                libs[soname] = {"path": p, "real": os.path.realpath(p), "version": file_version(p)}
        facts["driver"] = {"kernel": kernel, "libraries": libs,
                           "reasons": [r for r in drv.get("reasons") or [] if "mismatch" in r.lower()]}

    # libstdc++ for the Python environment.
    py = python or default_python(env)
    if py:
        prefix = os.path.dirname(os.path.dirname(os.path.abspath(py)))
        own_lib = os.path.join(prefix, "lib")
        stdcxx = loader_finds("libstdc++.so.6", ld, extra=[own_lib] if os.path.exists(
            os.path.join(own_lib, "libstdc++.so.6")) else [])
        provides: list[str] = []
        if stdcxx:
            try:
                provides = symbol_versions(stdcxx)[1]
            except (OSError, ValueError):
                stdcxx = None
        need: dict[str, str] = {}  # version -> first module needing it
        modules = env_modules(prefix)
        for p in modules:
            try:
                needs = symbol_versions(p)[0]
            except (OSError, ValueError):
                continue
            for v in needs.get("libstdc++.so.6", ()):
                need.setdefault(v, p)
        facts["libstdcxx"] = {"python": py, "prefix": prefix, "library": stdcxx, "provides": provides,
                              "modules": len(modules), "missing": {v: p for v, p in need.items() if v not in provides}
                              if stdcxx else {}}
    return facts


def live_rules(f: dict) -> list[Finding]:
    """Findings for the facts :func:`gather_live` collected (pure)."""
    out: list[Finding] = []
    h = f.get("headers")
    if h:
        root, label = h["root"], h["label"]
        if h["missing"]:
            out.append(Finding("env.cuda_home_headers", "fail",
                               f"{label} ({root}) has no include/{h['missing'][0]}: nothing CUDA compiles against it",
                               detail="a runtime-only install, a tree of pip wheels, or a path to the wrong "
                                      "directory; builds fail with 'fatal error: cuda_runtime.h: No such file or "
                                      "directory'",
                               fix=_headers_fix(h, full=False)))
        elif h["missing_torch"]:
            miss = ", ".join(h["missing_torch"])
            out.append(Finding("env.cuda_home_headers", "warn",
                               f"{label} ({root}) lacks {miss}: torch extensions that include "
                               "ATen/cuda/CUDAContext.h will not compile against it",
                               detail="CUDAContext.h (the current stream, cuBLAS/cuSPARSE/cuSOLVER handles; most "
                                      "real extensions include it) includes cublas_v2.h, cusparse.h and "
                                      "cusolverDn.h; plain CUDA programs, `cudaenv verify` and extensions that "
                                      "include only torch/extension.h build without them",
                               fix=_headers_fix(h, full=True)))
        else:
            out.append(Finding("env.cuda_home_headers", "ok", f"{label} ({root}) has the CUDA headers builds include"))
    d = f.get("driver")
    if d:
        bad = [(s, lib) for s, lib in sorted(d["libraries"].items())
               if lib["version"] and not same_version(lib["version"], d["kernel"])]
        if bad or d["reasons"]:
            if bad:
                soname, lib = bad[0]
                summary = (f"kernel module {d['kernel']} but {soname} is {lib['version']} ({lib['real']}): "
                           "Driver/library version mismatch")
            else:
                summary = next((r for r in d["reasons"] if r.startswith("kernel module")), d["reasons"][0])
            out.append(Finding("driver.library_mismatch", "fail", summary,
                               detail="NVML and CUDA fail ('Failed to initialize NVML: Driver/library version "
                                      "mismatch', error 803 or 'CUDA driver version is insufficient') until the "
                                      "kernel module and the libraries are the same version; usually the driver "
                                      "package was upgraded and the old module is still loaded",
                               fix=ADVICE["driver_reload"] + "; if the libraries are a stray "
                                   "copy on LD_LIBRARY_PATH, remove that directory from it"))
        elif d["libraries"]:
            out.append(Finding("driver.library_mismatch", "ok",
                               f"kernel module and driver libraries agree ({d['kernel']})"))
    out.extend(_nccl_rules(f.get("nccl")))
    s = f.get("libstdcxx")
    if s and s.get("library"):
        missing = s["missing"]
        if missing:
            worst = max(missing, key=version_key)
            first = libstdcxx_gcc(worst)
            gcc = f" (gcc {first} or newer)" if first else ""
            newest = max((v for v in s["provides"] if v.startswith("GLIBCXX_3.4")), key=version_key, default="?")
            out.append(Finding("env.libstdcxx", "fail",
                               f"{missing[worst]} needs {worst}{gcc}, but the libstdc++ the loader finds, "
                               f"{s['library']}, stops at {newest}",
                               detail=f"importing it fails with \"version `{worst}' not found\"; also missing: "
                                      + (", ".join(sorted((v for v in missing if v != worst), key=version_key))
                                         or "nothing else"),
                               fix="take the directory holding the older libstdc++ off LD_LIBRARY_PATH, or install "
                                   "a newer one where the loader looks first (conda: `conda install -c conda-forge "
                                   "libstdcxx-ng`); rebuilding the module with the older compiler works too"))
        else:
            out.append(Finding("env.libstdcxx", "ok",
                               f"{s['library']} provides what the {s['modules']} compiled modules of "
                               f"{s['prefix']} need"))
    return out


def _headers_fix(h: dict, full: bool) -> str:
    """Switch to a discovered toolkit that has the headers (torch's CUDA major first), else install one."""
    fit = h.get("fit")
    tb = (fit or {}).get("torch") or {}
    complete = set(h.get("complete") or ())
    ver = h.get("version")
    # torch's major decides; without a CUDA torch, the version CUDA_HOME has.
    want = tb.get("cuda") or (short(ver) if ver else None)
    cmd = answer(fit, torch_cuda=want, want=lambda t: t["root"] in complete, install=False)
    has = "that has them" if full else "with nvcc and headers"
    parts = []
    if cmd:
        parts.append(f"{cmd} (a toolkit {has})")
    if full and want:
        parts.append(f"`cudaenv install {want} --parts build` installs CUDA {want} with them (the build part "
                     "takes the cuBLAS/cuSPARSE/cuSOLVER headers)")
    elif full:
        parts.append("install the toolkit's cuBLAS/cuSPARSE/cuSOLVER development packages")
    elif want:
        parts.append(f"`cudaenv install {want} --parts build`")
    return ", or ".join(parts) or "`cudaenv list` shows which toolkits have nvcc and headers"


def _nccl_rules(n: dict | None) -> list[Finding]:
    if not n:
        return []
    out = []
    ifname = n["vars"].get("NCCL_SOCKET_IFNAME")
    if ifname and n.get("interfaces") is not None and not ifname_matches(ifname, n["interfaces"]):
        out.append(Finding("env.nccl", "fail", f"NCCL_SOCKET_IFNAME={ifname} selects no interface of this machine "
                           f"({', '.join(n['interfaces'])})",
                           detail="NCCL then finds no socket interface, or connects nowhere: 'Bootstrap : no socket "
                                  "interface found', 'socketStartConnect ... failed'",
                           fix="set NCCL_SOCKET_IFNAME to a prefix of the interface that reaches the other nodes "
                               "(`ip -br addr`), or unset it"))
    shm = n.get("shm")
    if shm and shm["total"] < SHM_MIN:
        out.append(Finding("env.nccl", "warn", f"/dev/shm is {_mb(shm['total'])} ({_mb(shm['free'])} free): too small "
                           "for NCCL between several GPUs",
                           detail="NCCL fails with 'Error while creating shared memory segment /dev/shm/nccl-...'; "
                                  "torch DataLoader workers need it too (Docker's default is 64 MB)",
                           fix=ADVICE["container_shm"]))
    if not out:
        what = [f"/dev/shm {_mb(shm['total'])}"] if shm else []
        what += [f"{k}={v}" for k, v in sorted(n["vars"].items())]
        out.append(Finding("env.nccl", "ok", "NCCL: " + (", ".join(what) or "nothing to check")))
    return out
