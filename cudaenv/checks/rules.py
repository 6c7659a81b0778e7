"""Compatibility rules: facts in, findings out. Pure: no I/O, no subprocesses.

``facts`` is a dict gathered by :mod:`cudaenv.checks.gather`:

- ``tk``: the toolkit (discovery record); ``limits``: accepted gcc/clang majors;
  ``archs``: ``{"sm": [..]}`` the toolkit can build for;
- ``driver``: :func:`cudaenv.host.driver.driver_facts` output (``present``,
  ``version``, ``cuda``, ``gpus``, ``reasons``);
- ``default_cxx``, ``selected_cxx`` (path, reason), ``compilers``;
- ``install_hint``: the distro's command to install a compiler (``{gcc}``
  stands for the major wanted);
- ``python``: the torch probe of the target interpreter (or None);
- ``ld_library_path``: the loader path the profile produces.
"""

from __future__ import annotations

from ..profiles.loader import LEFT_OUT, relation_text
from ..toolkit import compat, version_key
from . import Finding
from .fit import answer, short

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..toolkit.types import Toolkit
    from .gather import CheckFacts

__all__ = ["check_toolkit", "driver_rules", "compiler_rules", "torch_rules", "arch_rules", "stub_rules", "wheel_rules",
           "addon_rules"]


def _major(v: str) -> str:
    return v.split(".")[0]


def _older_toolkit(facts: dict, dcuda: str) -> str:
    """The alternative to a driver update: a toolkit this driver runs, if the environment's torch allows one."""
    tc = _torch_cuda(facts)
    if tc and version_key(_major(tc)) > version_key(_major(dcuda)):
        return (f" (the environment's torch, built for CUDA {tc}, needs the newer driver too: its extensions "
                f"cannot be built with CUDA {_major(dcuda)}.x)")
    cmd = answer(facts.get("fit"), torch_cuda=tc, install=short(dcuda),
                 want=lambda t: version_key(t["version"]) <= version_key(dcuda))
    return f", or switch to a toolkit <= {dcuda}" + _in_parens(cmd)


def _in_parens(cmd: str | None) -> str:
    return f" ({cmd})" if cmd else ""


def _torch_cuda(facts: dict) -> str | None:
    """The CUDA version the environment's torch was built with: the probe's, else torch/version.py's."""
    t = (facts.get("python") or {}).get("torch") or {}
    if t.get("cuda"):
        return str(t["cuda"])
    tb = (facts.get("fit") or {}).get("torch") or {}
    return tb.get("cuda")


def driver_rules(facts: dict) -> list[Finding]:
    tk, drv = facts["tk"], facts.get("driver") or {}
    if not drv.get("present"):
        why = "; ".join(drv.get("reasons") or []) or "no NVIDIA driver found"
        return [Finding("driver.present", "skip", "no NVIDIA driver on this host: build checks only",
                        detail=why, fix="nothing to do on a build host; on a GPU machine install the NVIDIA driver")]
    out = [Finding("driver.present", "ok", f"NVIDIA driver {drv.get('version') or '?'}"
                   + (f" (supports CUDA {drv['cuda']})" if drv.get("cuda") else ""))]
    ver = drv.get("version")
    dcuda = drv.get("cuda") or (compat.driver_max_cuda(ver) if ver else None)
    need = compat.min_driver(tk["full_version"])
    floor = compat.minor_compat_min_driver(tk["full_version"])
    tkv = tk["version"]
    if dcuda and version_key(dcuda) >= version_key(tkv):
        out.append(Finding("driver.version", "ok", f"driver supports CUDA {dcuda} >= toolkit {tkv}"))
    elif ver and need and version_key(ver) >= version_key(need):
        out.append(Finding("driver.version", "ok", f"driver {ver} >= {need}, the minimum for CUDA {tk['full_version']}"))
    elif dcuda and _major(dcuda) == _major(tkv) and (floor is None or not ver or version_key(ver) >= version_key(floor)):
        out.append(Finding(
            "driver.version", "warn",
            f"driver supports CUDA {dcuda}, older than the toolkit's {tkv}: minor-version compatibility only",
            detail=("programs built with this toolkit run with a limited feature set; PTX built by it cannot be "
                    "JIT-compiled by this driver ('PTX was compiled with an unsupported toolchain')"
                    + (f"; full support needs driver >= {need}" if need else "")),
            fix=f"update the driver{f' to >= {need}' if need else ''}, or build SASS for your GPU (not only PTX)",
        ))
    elif dcuda or ver:
        out.append(Finding(
            "driver.version", "fail",
            f"driver {ver or '?'} (CUDA {dcuda or '?'}) is too old for CUDA {tkv}",
            detail="programs fail with 'CUDA driver version is insufficient for CUDA runtime version' (error 35)",
            fix=(f"install driver >= {need}" if need else "update the NVIDIA driver")
            + (_older_toolkit(facts, dcuda) if dcuda else ""),
        ))
    else:
        out.append(Finding("driver.version", "skip", "driver version unknown", detail=str(drv.get("sources", ""))))
    compat_dirs = [d for d in facts.get("ld_library_path", []) if "/compat" in d]
    if compat_dirs:
        gpus = drv.get("gpus") or []
        datacenter = all(_datacenter(g.get("name", "")) for g in gpus) if gpus else None
        if datacenter is not True:
            out.append(Finding(
                "driver.forward_compat", "warn",
                f"forward-compatibility libraries on the loader path: {compat_dirs[0]}",
                detail="they work only on data-center GPUs; elsewhere every CUDA call fails with error 804 "
                       "('forward compatibility was attempted on non supported HW')",
                fix="remove the compat directory from LD_LIBRARY_PATH, or update the driver instead",
            ))
    return out


def _datacenter(name: str) -> bool:
    n = name.upper()
    return any(k in n for k in ("TESLA", "A100", "A30", "A40", "A10", "A16", "A2 ", "H100", "H200", "H20", "L40",
                                "L4", "B100", "B200", "GB200", "GH200", "V100", "T4", "P100", "DGX"))


def compiler_rules(facts: dict) -> list[Finding]:
    tk, lim = facts["tk"], facts["limits"]
    d = facts.get("default_cxx")
    sel, why = facts.get("selected_cxx") or (None, None)
    pinned = facts.get("profile", {}).get("host_compiler")
    if d is None:
        return [Finding("compiler.host", "fail", "no C++ compiler on PATH",
                        fix=facts.get("install_hint", "install g++").format(gcc=lim.get("gcc_max") or ""))]
    limit = lim.get("clang_max" if d["family"] == "clang" else "gcc_max")
    desc = f"{d['family']} {d['version']} ({d.get('why', d['path'])})"
    if limit is None:
        return [Finding("compiler.host", "warn", f"unknown {d['family']} limit for CUDA {tk['version']}; assuming {desc} works",
                        detail=f"limits source: {lim.get('source')}")]
    if pinned and pinned not in ("auto", "none"):
        return [Finding("compiler.host", "ok", f"profile pins the host compiler {pinned}")]
    if d["major"] <= int(limit):
        return [Finding("compiler.host", "ok", f"{desc} is accepted by CUDA {tk['version']} ({d['family']} <= {limit})",
                        detail=f"from {lim.get('source')}")]
    if sel and pinned != "none":
        return [Finding("compiler.host", "ok", f"{desc} is too new for CUDA {tk['version']}; the profile uses {sel}",
                        detail=f"{why}; exported as NVCC_PREPEND_FLAGS='-ccbin {sel}' and CUDAHOSTCXX")]
    fix = facts.get("install_hint", "install g++-{gcc}").format(gcc=lim.get("gcc_max"))
    if pinned == "none":
        fix = f"set host_compiler: auto in the profile, or {fix}"
    return [Finding(
        "compiler.host", "fail",
        f"{desc} is newer than CUDA {tk['version']} accepts ({d['family']} <= {limit}) and no accepted compiler is selected",
        detail="nvcc stops with '#error -- unsupported GNU version! gcc versions later than "
               f"{lim.get('gcc_max')} are not supported!'",
        fix=f"{fix}; then `cudaenv profile build --force {tk['full_version']}` (or just use it: selection is automatic)",
    )]


def torch_rules(facts: dict) -> list[Finding]:
    tk, py = facts["tk"], facts.get("python")
    if py is None:
        return []
    if py.get("error"):
        return [Finding("torch.cuda_build", "skip", f"could not probe {py.get('python', 'python')}: {py['error']}")]
    t = py.get("torch") or {}
    if not t.get("installed"):
        return [Finding("torch.cuda_build", "skip", f"no torch in {py.get('python')}")]
    if t.get("import_error"):
        return [Finding("torch.cuda_build", "fail", f"torch in {py.get('python')} does not import: {t['import_error']}",
                        fix="reinstall torch in that environment")]
    tv, tc = t.get("version", "?"), t.get("cuda")
    if not tc:
        return [Finding("torch.cuda_build", "info", f"torch {tv} is a CPU-only build",
                        detail="it cannot build or run CUDA extensions ('CUDA_HOME environment variable is not set' "
                               "even when it is)",
                        fix="install a CUDA build of torch matching the toolkit if you need CUDA")]
    out = [Finding("torch.cuda_build", "ok", f"torch {tv} is built for CUDA {tc}")]
    if _major(tc) != _major(tk["version"]):
        out.append(Finding(
            "torch.cuda_version", "fail",
            f"torch {tv} was built for CUDA {tc}, the toolkit is {tk['version']} (major versions differ)",
            detail="BuildExtension refuses ('The detected CUDA version ... mismatches'); JIT load() builds, "
                   f"then fails at import (libcudart.so.{_major(tk['version'])} for the wrong runtime)",
            fix=f"{answer(facts.get('fit'), torch_cuda=tc)} (a CUDA {_major(tc)}.x toolkit), "
                f"or install a torch built for CUDA {_major(tk['version'])}",
        ))
    elif version_key(tc) != version_key(tk["version"]):
        exact = answer(facts.get("fit"), torch_cuda=tc, want=lambda t: short(t["full_version"]) == short(tc))
        out.append(Finding("torch.cuda_version", "warn",
                           f"torch built for CUDA {tc}, toolkit {tk['version']}: minor versions differ",
                           detail="BuildExtension warns and builds; usually fine",
                           fix=f"{exact} to match exactly" if exact else ""))
    else:
        out.append(Finding("torch.cuda_version", "ok", f"torch and toolkit agree on CUDA {tc}"))
    std = compat.torch_cxx_std(tv)
    nv = compat.nvcc_max_cxx_std(tk["version"])
    if std and nv and int(std[3:]) > int(nv[3:]):
        out.append(Finding(
            "toolkit.cxx_std", "fail",
            f"torch {tv} builds extensions with -std={std}; nvcc {tk['version']} supports up to -std={nv}",
            detail=f"nvcc fatal : Value '{std}' is not defined for option 'std'",
            fix=_std_fix(facts.get("fit"), std, tc),
        ))
    return out


def _arch_fix(facts: dict, sm: int) -> str:
    """A toolkit whose architecture range (the compatibility table's) holds ``sm``."""
    def builds(t: Toolkit) -> bool:
        return compat.builds_for_arch(t["version"], sm)

    cmd = answer(facts.get("fit"), torch_cuda=_torch_cuda(facts), want=builds, install=False)
    rule = "sm_100/101/120 need >= 12.8, sm_103/121 >= 12.9, sm_110/88 >= 13.0; sm_50..72 need <= 12.x; sm_35/37 need <= 11.x"
    return f"{cmd}: it builds for sm_{sm}" if cmd else f"install a toolkit that supports it: {rule}"


def _std_fix(fit: dict | None, std: str, torch_cuda: str) -> str:
    """A toolkit of torch's CUDA major whose nvcc takes ``-std=std`` (the one that fits torch best)."""
    def takes(t: Toolkit) -> bool:
        nv = compat.nvcc_max_cxx_std(t["version"])
        return bool(nv) and int(nv[3:]) >= int(std[3:])

    cmd = answer(fit, torch_cuda=torch_cuda, want=takes)
    return (f"{cmd}: a CUDA {_major(torch_cuda)}.x toolkit, as torch needs, whose nvcc takes -std={std}"
            if cmd else f"install CUDA {torch_cuda}, the version torch was built with")


def arch_rules(facts: dict) -> list[Finding]:
    tk = facts["tk"]
    gpus = (facts.get("driver") or {}).get("gpus") or []
    caps = sorted({g["compute_cap"] for g in gpus if g.get("compute_cap")})
    if not caps:
        return [Finding("gpu.arch", "skip", "no GPU visible: architecture checks skipped")]
    sms = (facts.get("archs") or {}).get("sm") or []
    rng = (facts.get("archs") or {}).get("range")
    out = []
    slow = (facts.get("archs") or {}).get("slow")
    if slow:
        out.append(Finding("gpu.arch", "warn", f"CUDA {tk['version']} at {tk['root']}: {slow}",
                           detail="the architectures come from the compatibility table instead",
                           fix=f"check that {tk['root']}/bin/nvcc runs (`nvcc --list-gpu-code`)"))
    for cap in caps:
        sm = int(cap.replace(".", ""))
        if sms:
            ok = sm in sms or any(s // 10 == sm // 10 and s <= sm for s in sms)
        elif rng:
            ok = rng[0] <= sm <= rng[1]
        else:
            out.append(Finding("gpu.arch", "warn", f"unknown architectures for CUDA {tk['version']}; assuming sm_{sm} works"))
            continue
        if ok:
            out.append(Finding("gpu.arch", "ok", f"CUDA {tk['version']} builds for sm_{sm}"))
        else:
            lo, hi = (min(sms), max(sms)) if sms else tuple(rng)
            why = "too old for" if sm < lo else "too new for"
            out.append(Finding(
                "gpu.arch", "fail", f"the GPU (sm_{sm}) is {why} CUDA {tk['version']} (sm_{lo}..sm_{hi})",
                detail=f"nvcc fatal : Unsupported gpu architecture 'compute_{sm}'",
                fix=_arch_fix(facts, sm),
            ))
    py = facts.get("python") or {}
    t = py.get("torch") or {}
    arch_list = t.get("arch_list") or []
    if t.get("cuda") and arch_list:
        have = {int("".join(c for c in a.split("_")[1] if c.isdigit())) for a in arch_list if a.startswith("sm_")}
        for cap in caps:
            sm = int(cap.replace(".", ""))
            if sm in have or any(h // 10 == sm // 10 and h <= sm for h in have):
                out.append(Finding("torch.arch", "ok", f"torch {t.get('version')} has kernels for sm_{sm}"))
            else:
                out.append(Finding("torch.arch", "fail", f"torch {t.get('version')} has no kernels for sm_{sm}",
                                   detail="'no kernel image is available for execution on the device'",
                                   fix="install a torch build whose arch list includes your GPU"))
    return out


def stub_rules(facts: dict) -> list[Finding]:
    tk = facts["tk"]
    if tk["components"]["stubs"]:
        return [Finding("toolkit.stubs", "ok", "lib64/stubs/libcuda.so present: -lcuda links through LIBRARY_PATH")]
    if facts.get("link_stub"):
        return [Finding("toolkit.stubs", "ok", "no stub in the toolkit; cudaenv's stub generated from its cuda.h "
                        "is on LIBRARY_PATH", detail=facts["link_stub"])]
    # The profile's name, not the version: an installed toolkit of the same version would win that word.
    name = (facts.get("profile") or {}).get("name") or tk["full_version"]
    return [Finding(
        "toolkit.stubs", "warn", f"CUDA {tk['full_version']} at {tk['root']} has no {tk.get('libdir', 'lib64')}/stubs/libcuda.so",
        detail="`-lcuda` links only on a host whose loader knows the real libcuda.so (a driver install); "
               "toolkits assembled from pip wheels ship no stub",
        fix=f"`cudaenv verify {name}` (or `cudaenv profile build`) generates a link-time stub "
            "from the toolkit's cuda.h, which `use` then puts on LIBRARY_PATH",
    )]


def wheel_rules(facts: dict) -> list[Finding]:
    """The profile's library directories and compiler tools against the Python environment's wheels."""
    sh = facts.get("shadow") or {}
    out: list[Finding] = []
    where = sh.get("env") or "the Python environment"
    for s in sh.get("libs", []):
        both = (f"{s['file']} ({relation_text(s)}) vs the wheel's {s['wheel_file']} "
                f"({s['dist']} {s['wheel_version']})")
        if s["relation"] not in LEFT_OUT:
            continue
        older = s["relation"] == "older"
        if sh.get("policy") == "auto":
            lib = f"{s['soname']} {s['version']}" if s["version"] else s["soname"]
            why = "ship a newer one" if older else f"may need what it lacks ({relation_text(s)})"
            out.append(Finding("env.wheel_shadowing", "info", f"use leaves {lib} off LD_LIBRARY_PATH: "
                               f"{where}'s wheels {why}",
                               detail=both + "; the rest of " + s["dir"] + " stays reachable through a cache mirror"))
        elif sh.get("policy") == "always":
            shadows = (f"{s['soname']} {s['version']} of this toolkit shadows {where}'s newer" if older else
                       f"{s['soname']} of this toolkit (version unknown) shadows {where}'s")
            out.append(Finding("env.wheel_shadowing", "fail", f"{shadows} {s['dist']} {s['wheel_version']} "
                               "(loader_path: always)",
                               detail=both + "; the loader searches LD_LIBRARY_PATH before the wheels' RUNPATH, so "
                                      "Python code that loads the wheels fails with undefined symbols",
                               fix="loader_path: auto in the profile (the default) leaves that copy out"))
    for t in sh.get("tools", []):
        if t["relation"] == "older":
            out.append(Finding("env.wheel_shadowing", "warn", f"{t['file']} (CUDA {t['version']}) comes first on PATH, "
                               f"ahead of {where}'s newer {t['tool']} ({t['dist']} {t['wheel_version']})",
                               detail="JAX/XLA and Triton look on PATH first, then run the older one",
                               fix=_newer_fix(facts, t["wheel_version"]) + ", or put the wheel's bin directory "
                                   "first"))
    if not out and (sh.get("libs") or sh.get("tools")):
        out.append(Finding("env.wheel_shadowing", "ok", f"nothing of this toolkit shadows a newer library of {where}'s "
                           "NVIDIA wheels"))
    return out


def _newer_fix(facts: dict, version: str) -> str:
    """Switch to a toolkit at least as new as a wheel's ``version`` (major.minor compared)."""
    cmd = answer(facts.get("fit"), torch_cuda=_torch_cuda(facts), install=short(version),
                 want=lambda t: version_key(t["version"]) >= version_key(short(version)))
    return "switch to a toolkit at least as new" + _in_parens(cmd)
def addon_rules(facts: dict) -> list[Finding]:
    """The profile's cuDNN / NCCL add-ons against the toolkit: the CUDA major each is built for (the wheel's
    own word, ``nvidia-cudnn-cu13``), then NVIDIA's support matrix for the minor (``data/compat.yaml``)."""
    from ..toolkit.addons import KINDS

    tk = facts["tk"]
    major = _major(tk["version"])
    name = (facts.get("profile") or {}).get("name") or tk["full_version"]
    out: list[Finding] = []
    for a in facts.get("addons") or []:
        kind, listed = a["kind"], a["listed"]
        title = f"{KINDS[kind]['title']} {a['version'] or listed['version']}"
        if a["problem"] is not None:
            out.append(Finding("addon.cuda", "fail", f"{KINDS[kind]['title']} of profile {name}: {a['problem']}",
                               fix=f"`cudaenv install {tk['full_version']} --with {kind}` installs it again"))
            continue
        built = a["cuda_major"]
        said = "" if listed["cuda"] == built else f" (the profile says CUDA {listed['cuda']}; the wheel's own name wins)"
        if built != major:
            out.append(Finding(
                "addon.cuda", "fail", f"{title} at {a['root']} is built for CUDA {built} ({a['project']}), "
                f"not for CUDA {tk['version']}'s major {major}{said}",
                detail=f"a {KINDS[kind]['title']} build links the CUDA {built} runtime: with a CUDA {major} toolkit, "
                       "builds link but fail to load or run (libcudart of the wrong major)",
                fix=f"`cudaenv install {tk['full_version']} --with {kind}` installs the CUDA {major} build and lists it "
                    "in the profile instead"))
            continue
        row = compat.addon_builds(kind, a["version"] or "")
        where = f"{title} is built for CUDA {built} ({a['project']}){said}"
        if row is None:
            out.append(Finding("addon.cuda", "ok", where + f"; no support matrix row covers {title}"))
            continue
        rel, ent = row
        span = ent["builds"].get(built)
        srcs = ", ".join(ent["src"])
        if span is None:
            out.append(Finding("addon.cuda", "warn", where + f", but NVIDIA lists no CUDA {built} build of "
                               f"{KINDS[kind]['title']} {rel}", detail=f"compat table row {kind} {rel} ({srcs})"))
            continue
        lo, hi = (span + [None, None])[:2]
        minor = ".".join(tk["version"].split(".")[:2])
        if (lo and version_key(minor) < version_key(lo)) or (hi and version_key(minor) > version_key(hi)):
            listed_span = f"{lo or '?'}-{hi or 'newer'}"
            out.append(Finding("addon.cuda", "warn", where + f"; NVIDIA lists CUDA {listed_span} for it, not {minor}",
                               detail=f"support matrix of {KINDS[kind]['title']} {rel} ({srcs}); within one major "
                                      "newer minors usually work (minor-version compatibility)",
                               fix=f"a newer {KINDS[kind]['title']}: `cudaenv install {tk['full_version']} --with {kind}`"))
            continue
        out.append(Finding("addon.cuda", "ok", where + f", as is CUDA {tk['version']} "
                           f"(NVIDIA lists CUDA {lo or '?'}-{hi or 'newer'} for {KINDS[kind]['title']} {rel}+)",
                           detail=f"compat table row {kind} {rel} ({srcs})"))
    return out


def check_toolkit(facts: CheckFacts) -> list[Finding]:
    """Every rule for one profile's facts, in a stable order."""
    out: list[Finding] = []
    for rule in (driver_rules, compiler_rules, stub_rules, torch_rules, arch_rules, wheel_rules, addon_rules):
        out.extend(rule(facts))
    return out
