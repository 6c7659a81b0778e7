"""Facts derived from what a message captured: one function per ``derive`` name in ``errors.yaml``.

Each function takes the captured values, the whole text (:class:`~.text.LogText`) and
the match, and returns the names its entry declares in ``derived``: strings, never
None. :data:`DERIVE` maps the names to the functions; they read the compatibility
table (``data/compat.yaml``) for architectures, torch builds, PTX ISA and GLIBCXX.
"""

from __future__ import annotations

from ...env.pathlist import entries
from ...host import cuda_of_int as _cuda_of_int
from ...toolkit import version_key
from ...toolkit.compat import (builds_for_arch, clang_cuda_newest, driver_max_cuda, libstdcxx_gcc, min_driver, nvcc_first_cxx_std,
                                ptx_isa_cuda, sm_first_before_rows, sm_known, table)
from .cudanames import installed_majors, mentions, named, torch_build_cuda, torch_builds_named
from .extract import decode_version, gpus_named
from .symbols import demangle
from . import lazyre as re  # re, its module-level patterns compiled when first used

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .text import LogText

__all__ = ["DERIVE", "toolkits_for_arch"]



def _toolkit_rows() -> list[tuple[str, dict]]:
    rows = [(v, r) for v, r in table()["toolkits"].items() if r]
    return sorted(rows, key=lambda vr: version_key(vr[0]))


def _span(versions: list[str]) -> str:
    """``9.0-10.2``, ``11.8 or newer`` (up to the newest known), or one version."""
    if not versions:
        return ""
    newest = _toolkit_rows()[-1][0]
    if versions[-1] == newest:
        return f"{versions[0]} or newer"
    return versions[0] if len(versions) == 1 else f"{versions[0]}-{versions[-1]}"


def _arch_number(arch: str) -> int | None:
    m = re.search(r"(\d+)", arch)
    return int(m.group(1)) if m else None


def toolkits_for_arch(sm: int | None) -> list[str]:
    """The toolkit versions (``major.minor``, oldest first) whose nvcc compiles for ``sm_<sm>``."""
    if sm is None:
        return []
    return [v for v, r in _toolkit_rows() if builds_for_arch(v, sm)]



def _nvcc_seen(t: LogText) -> str:
    m = re.search(r"Cuda compilation tools, release (\d+\.\d+)|[/\\]cuda-?(\d+\.\d+)[/\\]bin[/\\]nvcc|"
                  r"CUDA[/\\\s]v?(\d+\.\d+)[/\\.]", t.text)
    return next((g for g in m.groups() if g), "") if m else ""


#: [r23 ta] An nvcc older than the architecture: the list is often the project's default, not the GPU's, and a GPU older
#: than that architecture builds with the nvcc at hand once the architecture is left out (a newer toolkit may no longer
#: build for such a GPU at all: Fermi left with CUDA 9.0). xmrig/xmrig-nvidia#4 (the burned fresh23 w13: CUDA 7.5, a GT
#: 540M, fixed with -DCUDA_ARCH=21), CMU-Perceptual-Computing-Lab/caffe_rtpose#10 (CUDA 7.5 and compute_60: the Makefile's
#: older architecture lines), zh217/torch-asg#2 (CUDA 9 and compute_75 on a GTX 1080 Ti: "your card does not support
#: compute_75 anyway, ... comment out"), gnina/libmolgrid#4 (CUDA 9: compute_75 taken out of CMAKE_CUDA_FLAGS)
_OLDER_GPU = ("your GPU is older than {arch} (`nvidia-smi --query-gpu=name,compute_cap --format=csv`): then leave {arch} "
              "out of the architecture list (the project's option for it, e.g. CUDA_ARCH, CMAKE_CUDA_ARCHITECTURES, "
              "-gencode) and build for your GPU's own with this nvcc.")


def _d_arch(v: dict, t: LogText, m: re.Match) -> dict:
    arch = v.get("arch", "")
    sm = _arch_number(arch)
    # only a plain sm_NN / compute_NN (an optional a/f suffix) is judged: a bare number is candle's capability
    unreal = "yes" if (re.fullmatch(r"(?:sm|compute)_\d+[af]?", arch) and sm is not None and sm not in sm_known()) else ""
    have = toolkits_for_arch(sm)
    seen = _nvcc_seen(t)
    newest = _toolkit_rows()[-1][0]
    note = f" The nvcc in this log is CUDA {seen}." if seen else ""
    if not have:
        advice = (f"No CUDA toolkit in cudaenv's tables compiles for {arch}: take it out of the architecture list "
                  f"(-gencode/-arch, CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST); a script that computed it "
                  f"may have failed to see the GPU.")
        toolkits = "none"
    elif have[-1] != newest and not seen and sm is not None and 60 <= sm <= 62:
        # [r10 compiler] Pascal came with CUDA 8.0 and left with 13.0: with no version in the log, either end is
        # possible (arrayfire/arrayfire#1535: nvcc 7.5; NVIDIA/cccl#5276: a CUDA 13 nvcc), so `nvcc --version` decides
        advice = (f"{arch} compiles with CUDA 8.0-{have[-1]} only; `nvcc --version` tells which end this nvcc is past: "
                  f"13.0 or newer dropped it, so take it out of the architecture list (-gencode/-arch, "
                  f"CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST; a newer release of the project often has) or "
                  f"build with `eval \"$(cudaenv use {have[-1]})\"`; an nvcc older than 8.0 (Ubuntu 16.04's /usr/bin/nvcc "
                  f"is 7.5) needs a newer toolkit, `eval \"$(cudaenv use {have[-1]})\"` or any from 8.0 on, unless "
                  f"{_OLDER_GPU.format(arch=arch)}")
        toolkits = f"{sm_first_before_rows()[sm]}-{have[-1]}"  # the tables start at 9.0; Pascal came with 8.0, as the fix says
    elif have[-1] != newest and not seen and sm in sm_first_before_rows():
        # [r11 pairs] the same for every architecture with both ends: with no nvcc version in the log, an nvcc older
        # than the architecture is as possible as one that dropped it (fresh9 d14: PaddlePaddle's "Unsupported gpu
        # architecture 'compute_50'" from an nvcc older than CUDA 7, fixed by pointing CMake at CUDA 7.5)
        first = sm_first_before_rows()[sm]
        advice = (f"{arch} compiles with CUDA {first}-{have[-1]} only; `nvcc --version` tells which end this nvcc is "
                  f"past: older than {first}, build with a newer toolkit (`eval \"$(cudaenv use {have[-1]})\"`, or point "
                  f"the build at it: CMake `-DCUDA_TOOLKIT_ROOT_DIR=` / `-DCMAKE_CUDA_COMPILER=`) unless "
                  f"{_OLDER_GPU.format(arch=arch).rstrip('.')}; newer than "
                  f"{have[-1]} dropped it, so take it out of the architecture list "
                  f"(-gencode/-arch, CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST; a newer release of the project "
                  f"often has) or build with `eval \"$(cudaenv use {have[-1]})\"`.")
        toolkits = f"{first}-{have[-1]}"
    elif have[-1] != newest:
        advice = (f"{arch} was dropped after CUDA {have[-1]} (it compiles with CUDA {_span(have)} only): take it out "
                  f"of the architecture list (-gencode/-arch, CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST; a newer "
                  f"release of the project often has), or build with one of those toolkits: "
                  f"`eval \"$(cudaenv use {have[-1]})\"`.")
        toolkits = _span(have)
    else:
        advice = (f"{arch} needs CUDA {have[0]} or newer: `eval \"$(cudaenv use {have[0]})\"` or any later "
                  f"toolkit (`cudaenv list` shows what is installed); or take {arch} out of the architecture list.")
        toolkits = _span(have)
    old = ""
    if seen and have and have[-1] != newest and version_key(seen)[:2] < version_key(have[0])[:2]:
        # the log shows the nvcc that ran, and it is older than the first toolkit that knows the arch
        # (KlausT/ccminer-cryptonight#51: nvcc 7.5 and compute_61): it needs a newer nvcc, whatever
        # else the tables say of the architecture's end
        old = seen
        advice = (f"The nvcc in this log is CUDA {seen}, older than the toolkits that compile for {arch} "
                  f"(CUDA {_span(have)}): build with a newer toolkit, `eval \"$(cudaenv use {have[0]})\"` or a later one up to {have[-1]} (`cudaenv list` shows what is installed; "
                  f"`which nvcc; nvcc --version` must show it), or take {arch} out of the architecture list.")
    # the distribution's nvcc (apt's nvidia-cuda-toolkit: /usr/bin/nvcc, /usr/lib/nvidia-cuda-toolkit) ran, and a
    # toolkit under /usr/local the log shows beside it (NVlabs/instant-ngp#747)
    distro = re.search(r"/(?<![\w.-]/)usr/(?:bin|lib/nvidia-cuda-toolkit/bin)/nvcc\b|_HERE_=/usr/lib/nvidia-cuda-toolkit", t.text)
    local = re.search(r"/usr/local/cuda-(\d+\.\d+)", t.text) if distro else None
    return {"toolkits": toolkits, "advice": advice, "nvcc_note": note, "old_nvcc": old,
            "distro_nvcc": "/usr/bin/nvcc" if distro else "", "local_cuda": local.group(1) if local else "",
            "arch_unreal": unreal}


def _torch_wheels_from(cuda: str) -> str:
    """The first torch release with a wheel for CUDA ``cuda`` or newer (``1.8 (+cu111)``)."""
    for tv, ent in sorted(table()["torch"].items(), key=lambda kv: version_key(kv[0])):
        cudas = [c for c in (ent.get("cuda") or []) if version_key(c)[:2] >= version_key(cuda)[:2]]
        if cudas:
            return f"torch {tv} or newer, in a build for CUDA {cudas[0]} or newer (+cu{cudas[0].replace('.', '')})"
    return ""


def _d_torch_arch(v: dict, t: LogText, m: re.Match) -> dict:
    arch = v.get("arch") or ""
    if v.get("capability"):
        arch = "sm_" + v["capability"].replace(".", "")
    sm = _arch_number(arch)
    have = toolkits_for_arch(sm)
    newest = _toolkit_rows()[-1][0]
    below = _torch_build_starts_above(v, sm)
    if below:
        # [r10 frameworks] a GPU older than the lowest architecture this build carries, though still one torch's
        # CUDA 12.6 builds have (torch's own table, torch/cuda/__init__.py _check_capability, torch 2.8:
        # CUDA_ARCHES_SUPPORTED 12.6: 50-90, 12.8: 70-120, 12.9: 70-120; the warning says so too, "Please install
        # PyTorch with a following CUDA configurations: 12.6"): mmartial/ComfyUI-Nvidia-Docker#61,
        # Kaouthia/ComfyUI-Docker#11, Comfy-Org/ComfyUI#10468 (GTX 1080 Ti / 1070 with a cu128 torch)
        cu = "126"
        advice = (f"This torch build starts at {below}, above this GPU's {arch}: install the same torch's build for CUDA "
                  f"12.6, which still carries sm_50-sm_90: `pip install --force-reinstall torch torchvision torchaudio "
                  f"--index-url https://download.pytorch.org/whl/cu{cu}` (torch's CUDA 12.8/12.9 builds start at sm_70, "
                  f"its CUDA 13 builds at sm_75); `python -c \"import torch; print(torch.cuda.get_arch_list())\"` must "
                  f"list {arch}.")
        return {"arch": arch, "advice": advice, "index": f"cu{cu}"}
    if v.get("capability"):  # "too old"
        if have:
            advice = (f"Official torch builds no longer carry code for {arch}. Use an older torch release whose "
                      f"builds still include it, or build torch (and extensions) from source with "
                      f"TORCH_CUDA_ARCH_LIST={sm // 10}.{sm % 10} under a toolkit that still compiles for it "
                      f"(CUDA {_span(have)}: `eval \"$(cudaenv use {have[-1]})\"`).")
        else:
            advice = (f"No CUDA toolkit in cudaenv's tables compiles for {arch} any more: this GPU cannot run a "
                      f"current torch; run on the CPU or another GPU.")
    elif have and have[-1] == newest:
        wheels = _torch_wheels_from(have[0])
        # [r10 frameworks] a GPU that only CUDA 12.8 and newer compile for (RTX 50xx, sm_120): the install
        # command the threads were solved by (FramePack#267, FramePack#722, LeggedLab#26)
        cmd = (f": `pip install -U torch torchvision torchaudio --index-url https://download.pytorch.org/whl/"
               f"cu{have[0].replace('.', '')}` in the Python that runs the program"
               if version_key(have[0])[:2] >= version_key("12.8")[:2] else "")
        advice = (f"{arch} needs code from CUDA {have[0]} or newer: install {wheels or 'a torch build for it'}{cmd}; "
                  f"`python -c \"import torch; print(torch.cuda.get_arch_list())\"` must list {arch}.")
    else:
        advice = (f"Install a torch build whose `torch.cuda.get_arch_list()` includes {arch} "
                  f"(toolkits that compile for it: CUDA {_span(have) or 'none known'}).")
    index = f"cu{have[0].replace('.', '')}" if have and have[-1] == newest and not v.get("capability") else "cu128"
    return {"arch": arch, "advice": advice, "index": index}


def _torch_build_starts_above(v: dict, sm: int | None) -> str:
    """The lowest architecture the torch build carries (``sm_70``) when this GPU (``sm``) is below it but is one
    torch's CUDA 12.6 builds still carry (sm_50-sm_72: a CUDA 13 build starts at sm_75; "" otherwise): from the
    warning's supported list or its "Minimum and Maximum cuda capability supported by this version of PyTorch is
    (7.0) - (12.0)"."""
    if sm is None or not 50 <= sm < 75:
        return ""
    low = None
    if v.get("supported"):
        nums = [n for n in (_arch_number(a) for a in v["supported"].split()) if n]
        low = min(nums) if nums else None
    elif v.get("minimum"):
        major, _, minor = v["minimum"].partition(".")
        low = int(major) * 10 + int(minor or 0) if major.isdigit() and (minor or "0").isdigit() else None
    return f"sm_{low}" if low is not None and low >= 70 and sm < low else ""


def _d_cuda_pair(v: dict, t: LogText, m: re.Match) -> dict:
    d, tv = v.get("detected", ""), v.get("torch", "")
    a, b = version_key(d)[:2], version_key(tv)[:2]
    builds = index = ""
    if len(a) == 2 and len(b) == 2 and all(n >= 0 for n, _ in a + b):
        tags = [k for k, e in sorted(table()["torch"].items(), key=lambda kv: version_key(kv[0]))
                if d in (e.get("cuda") or [])]
        if tags:
            index = f"cu{d.replace('.', '')}"
            builds = (f" Official torch builds for CUDA {d}: torch {', '.join(tags)} "
                      f"(`pip install torch --index-url https://download.pytorch.org/whl/cu{d.replace('.', '')}`).")
        else:
            builds = f" No official torch build uses CUDA {d}."
            # the newest official build of the same major below it: a minor difference only warns (torch 2.x)
            near = sorted({c for e in table()["torch"].values() for c in (e.get("cuda") or [])
                           if version_key(c)[:1] == a[:1] and version_key(c)[:2] < a}, key=version_key)
            if near and a[0][0] >= 12:
                index = f"cu{near[-1].replace('.', '')}"
                builds += (f" The newest official one of CUDA {a[0][0]} below it is CUDA {near[-1]} (`{index}`): "
                           f"same major version, which torch 2.x accepts with a warning.")
        if a[0] != b[0]:
            return {"difference": "major", "differ": "differ in major version", "builds": builds, "index": index,
                    "why": "torch's BuildExtension (setup.py, pip builds) refuses a toolkit whose major version "
                           "differs from the one torch was built with: the extension would need a second CUDA "
                           "runtime."}
        return {"difference": "minor", "differ": "differ in minor version only", "builds": builds, "index": index,
                "why": "They differ only in the minor version. Recent torch only warns about that; this torch "
                       "refuses any difference (older releases did), so the build stops although the two would "
                       "work together."}
    return {"difference": "", "differ": "differ", "builds": builds, "index": index,
            "why": "torch's BuildExtension (setup.py, pip builds) compares the nvcc under CUDA_HOME with the CUDA "
                   "torch was built with and refuses the difference."}


def _d_ptx(v: dict, t: LogText, m: re.Match) -> dict:
    need = (ptx_isa_cuda(v.get("ptx", "")) or {}).get("cuda", "")
    have = (ptx_isa_cuda(v.get("ptxas", "")) or {}).get("ptxas_cuda", "")
    return {"ptx_cuda": need, "ptxas_cuda": have,
            "need": f"CUDA {need} or newer" if need else "a newer toolkit",
            "have": f"CUDA {have}" if have else "an older toolkit"}


def _d_libstdcxx(v: dict, t: LogText, m: re.Match) -> dict:
    ver = v.get("version", "")
    gcc = libstdcxx_gcc(ver) or ""
    need = f"{ver}, which libstdc++ has from gcc {gcc} on" if gcc else (ver or "a newer libstdc++")
    if v.get("symbol"):
        sym = demangle(v["symbol"]) or v["symbol"]
        need = f"the C++ library symbol {sym}"
    loaded = v.get("loaded", "")
    if loaded:
        import posixpath

        loaded = posixpath.normpath(loaded)
        if posixpath.dirname(loaded) in ("", "/"):  # a path the user shortened ("…/libstdc++.so.6"): unknown
            loaded = ""
    want = f">={gcc}" if gcc else ""
    if loaded and re.search(r"/(?:envs/[^/]+|(?:mini|ana|micro)?conda\d?|miniforge\d?|mambaforge)/lib/", loaded):
        # [r10 loader] the threads mostly used the system's newer copy (cvg/pixel-perfect-sfm#11, cvg/limap#2,
        # ztxz16/fastllm#301, isl-org/Open3D#5531): when it has the version, link it; else update the environment's
        first = (f"The old libstdc++ is the conda environment's own ({loaded}): if the system's has {ver or 'the version'} "
                 f"(`strings /usr/lib/x86_64-linux-gnu/libstdc++.so.6 | grep {ver or 'GLIBCXX'}`; /usr/lib64 on RHEL), use it: "
                 f"`ln -sf /usr/lib/x86_64-linux-gnu/libstdc++.so.6 {loaded}`; else update the environment's, "
                 f"`conda install -c conda-forge 'libstdcxx-ng{want}'` (newer environments: `libstdcxx{want}`).")
    elif loaded and loaded.startswith(("/usr/", "/lib")):
        first = (f"The system's libstdc++ ({loaded}) is the old one: load a newer one first, e.g. the conda "
                 f"environment's (`export LD_LIBRARY_PATH=$CONDA_PREFIX/lib${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}` after "
                 f"`conda install -c conda-forge 'libstdcxx-ng{want}'`), or build the program with the system's compiler.")
    else:
        first = (f"Make {'a libstdc++ from gcc ' + gcc + ' or newer' if gcc else 'a newer libstdc++'} the one loaded: in conda "
                 f"`conda install -c conda-forge 'libstdcxx-ng{want}'`; or rebuild the program with the compiler "
                 f"whose libstdc++ is loaded.")
    return {"gcc": gcc, "need": need, "first": first, "loaded_note": f" The one loaded was {loaded}." if loaded else ""}


def _d_symbol(v: dict, t: LogText, m: re.Match) -> dict:
    sym = v.get("symbol", "")
    readable = demangle(sym) or sym
    abi = "1" if "cxx11" in sym else ("0" if re.search(r"Ss|basic_string", sym) else "")
    side = ""
    # [r7 claims] The symbol shows the ABI the extension was compiled with; the log does not show torch's:
    # the torch loaded either has the other ABI or is another version without this function (a10 of fresh6:
    # a torchvision built for another torch), so that side is said as the condition it is.
    if abi == "1":
        side = ("The missing symbol uses std::__cxx11 strings, so the extension was compiled with "
                "_GLIBCXX_USE_CXX11_ABI=1; the torch it loads does not export it: either that torch was built with "
                "_GLIBCXX_USE_CXX11_ABI=0, or it is another torch version, where this function has another signature.")
    elif abi == "0":
        side = ("The missing symbol uses pre-C++11 std::string, so the extension was compiled with "
                "_GLIBCXX_USE_CXX11_ABI=0; the torch it loads does not export it: either that torch was built with "
                "_GLIBCXX_USE_CXX11_ABI=1, or it is another torch version, where this function has another signature.")
    return {"demangled": readable, "abi": abi, "abi_note": side}


# -- [r10 loader] the CUDA release the log shows installed or in use, when it is not the one a missing
# library's soname needs: the program is a build for another CUDA than this machine's, and the threads'
# resolution is most often the program's build for the CUDA there is (apache/mxnet#20279: mxnet-cu110 for
# CUDA 11.2; PaddlePaddle/Paddle#52869: the cu118 paddlepaddle-gpu for CUDA 11.8; PaddlePaddle/PaddleOCR#41:
# the CUDA 10 image for a CUDA 10 machine; apache/mxnet#3829: rebuilt against CUDA 8.0). A toolkit named by
# nvcc, a cuda-X.Y path, "Runtime API Version", "CUDA X.Y"; never nvidia-smi's "CUDA Version" (the driver's).
# [p24 c] not a package version's build tag ("8.8.0.121-1+cuda12.0", "1.2.1-1+cuda7.5"): it names the CUDA a package
# (cuDNN, NCCL) was built for, which is what may not match the toolkit, not a toolkit installed (jax-ml/jax#14931)
_TOOLKIT_SEEN = re.compile(r"Cuda compilation tools, release (\d+\.\d+)|Runtime API Version: (\d+\.\d+)"
                           r"|/cuda-(\d+\.\d+)(?![\w.])"
                           r"|(?<!\+)(?i:\bcuda)[ _-]?(?i:toolkit)?(?:\s*[Vv]ersion)?[\s*:=]*(\d+\.\d+)(?![\w.])")
_NAMES_CUDA = re.compile(r"(?i)cuda|runtime api")
_LIB_CUDA_MAJOR = ("cublas", "cublasLt", "nvrtc", "cupti", "nvJitLink")  # sonames whose major is CUDA's


def _toolkit_other(t: LogText, need: str) -> str:
    """The first CUDA release the log names as a toolkit, when none it names satisfies ``need`` (a major,
    "12", or a CUDA 10-and-older major.minor, "10.1"); "" when one does or none is named. Read on the first
    and the last 150 lines that name CUDA or a runtime API (the environment a log starts with, the error it
    ends with), so a long log costs one pass over its lines."""
    if not need:
        return ""
    named = [line for line in t.lines if _NAMES_CUDA.search(line)]
    seen: list[str] = []
    for line in named[:150] + named[max(150, len(named) - 150):]:
        for m in _TOOLKIT_SEEN.finditer(line):
            if m.group(4) and ("Driver Version" in line or "Driver API" in line or "nvidia-smi" in line.lower()):
                continue
            ver = next(g for g in m.groups() if g)
            if ver == need or ver.split(".")[0] == need:
                return ""
            seen.append(ver)
    return seen[0] if seen else ""


def _need_of_library(v: dict) -> str:
    name, major = v.get("name", ""), v.get("major", "")
    sov = re.search(r"\.so\.(\d+\.\d+)", v.get("lib", ""))
    if sov and int(sov.group(1).split(".")[0]) <= 10 and not name.startswith(("cudnn", "nvinfer", "nccl", "nvrtc-")):
        return sov.group(1)
    if name in _LIB_CUDA_MAJOR and major.isdigit() and int(major) >= 11:
        return major
    return ""


def _need_of_libcudart(v: dict) -> str:
    ver = v.get("version", "")
    major = ver.split(".")[0]
    if not major.isdigit():
        return ""
    return major if int(major) >= 11 else ver


# paddlepaddle-gpu's builds carry their CUDA in the version (1.7.2.post97: CUDA 9, 2.3.2.post110: CUDA 11.0,
# post112: 11.2, post120: 12.0): an unversioned libcublas.so it opens is of that CUDA (PaddlePaddle/PaddleOCR#41:
# a post97 paddle on a CUDA 10.0 image; the CUDA 10 image solved it)
_PADDLE_POST = re.compile(r"(?i:paddle)[\w-]*(?:==|\(|\s+)v?\d+\.\d+(?:\.\d+)?\.post(\d{2,3})\b")


def _need_of_paddle(v: dict, t: LogText) -> str:
    if not re.fullmatch(r"lib\w+\.so|\w+", v.get("lib", "")) or "post" not in t.text:
        return ""
    m = _PADDLE_POST.search(t.text)
    if not m:
        return ""
    tag = m.group(1)
    return tag[:2] if len(tag) == 3 and tag.startswith("1") else tag[0]


def _with_toolkit_other(need_of):
    """A derive function (``library``, ``libcudart``) that also says which other CUDA the log shows installed
    when the library's soname needs another (``toolkit_other``, ``need_cuda``, ``other_tag``)."""
    def wrap(derive):
        def d(v: dict, t: LogText, m: re.Match) -> dict:
            out = derive(v, t, m)
            need = need_of(v) or _need_of_paddle(v, t)
            other = _toolkit_other(t, need)
            out.update({"toolkit_other": other, "need_cuda": need if other else "",
                        "other_tag": other.replace(".", "") if other else ""})
            return out
        return d
    return wrap


# [r11 copies] The log installs a package built per CUDA release (its name carries the CUDA: dgl-cuda10.0, mxnet-cu101,
# dgl-cu100) and what fails asks for another CUDA's runtime: the package's binary, not a path. dmlc/dgl#919 (fresh10
# e67: conda's dgl-cuda10.0 asked for libcudart.so.9.2; `pip install dgl-cu100` solved it)
_TAGGED_INSTALL = re.compile(r"\b(conda|pip3?|mamba)\s+install\b[^\n]*?(?<![\w.-])([A-Za-z][\w.]*?)-cu(?:da)?(\d+(?:\.\d+)?)\b")


def _tagged_package(derive):
    def d(v: dict, t: LogText, m: re.Match) -> dict:
        out = derive(v, t, m)
        # [r21 ofw] the CUDA an install line names, read once (installed_for: the package name, a wheel index or a
        # wheel URL); a soname of CUDA 11+ names only the major, so a cu124 build asking for libcudart.so.12 is not
        # another CUDA's (abetlen/llama-cpp-python#1822)
        by, pkg, cuda, full, index = installed_for(t.text)
        same = bool(cuda) and _same_cuda(cuda, v.get("version", ""))
        hit = bool(pkg and cuda and not same)
        out["tagged_same"] = f"{pkg} build for CUDA {cuda}" if pkg and cuda and same else ""
        out.update({"tagged_pkg": pkg if hit else "", "tagged_cuda": cuda if hit else "", "tagged_by": by if hit else "",
                    "tagged_pip": (f"{pkg}-cu{cuda.replace('.', '')}" if hit else ""),
                    "tagged_full": full if hit else "", "tagged_index": index if hit else ""})
        return out
    return d


@_tagged_package
@_with_toolkit_other(_need_of_libcudart)
def _d_libcudart(v: dict, t: LogText, m: re.Match) -> dict:
    ver = v.get("version", "")
    major = ver.split(".")[0]
    use = ver if major.isdigit() and int(major) <= 10 else major
    pkg = ""
    for mm in re.finditer(r"(?:site|dist)-packages[/\\]([A-Za-z_][\w-]*)[/\\]", t.text[:m.end()]):
        if mm.group(1) not in ("torch", "importlib", "nvidia"):
            pkg = mm.group(1)
    if pkg:
        wheel = (f"{pkg} here is a prebuilt binary made for CUDA {ver}: install the {pkg} build made for your "
                 f"torch and its CUDA (torch.version.cuda), or build {pkg} from source in this environment; "
                 f"a CUDA {ver} runtime on the loader path only hides the mismatch.")
    else:
        wheel = (f"A prebuilt package (mmcv-full and the like) made for CUDA {ver}: install its build for your "
                 f"torch and CUDA instead, or build it from source here.")
    # the log says CUDA was changed "from X to Y" and the runtime asked for is X's: a build made before the change
    # (Pytorch-Correlation-extension#73); Y's runtime missing after the change is a path (pytorch_geometric#114)
    ch = _CUDA_CHANGED.search(t.text) if "from" in t.text else None
    stale = "yes" if ch and ver and ch.group(1) == ver else ""
    return {"major": major, "use": use, "package": pkg, "wheel": wheel, "stale_build": stale, **_d_present(v, t),
            **_openmmlab(t)}


_CUDA_CHANGED = re.compile(r"(?i:(?:updat|upgrad|chang|switch|mov)\w*\s+(?:my\s+|the\s+)?cuda(?:\s+version)?\s+"
                           r"from\s+(\d+(?:\.\d+)?)\s+to\s+\d)")


# [r8 loader] OpenMMLab projects ship prebuilt ops (mmcv-full) made for one CUDA: there a missing libcudart of
# another release is the package's, not a path (found by str.find: a regex over a long log costs 0.2 s)
_OPENMMLAB = ("mmcv", "mmdet", "mmseg", "mmocr", "mmpose", "mmrotate", "mmaction", "mmengine", "openmmlab",
              "dist_train.sh", "dist_test.sh", "configs/")


def _openmmlab(t: LogText) -> dict:
    low = t.text.lower()
    return {"openmmlab": "yes" if any(w in low for w in _OPENMMLAB) else ""}


_LIBRARIES = {"cublas": ("cuBLAS", "nvidia-cublas-cu{major}"), "cublasLt": ("cuBLASLt", "nvidia-cublas-cu{major}"),
              "cufft": ("cuFFT", "nvidia-cufft-cu{cuda}"), "curand": ("cuRAND", "nvidia-curand-cu{cuda}"),
              "cusparse": ("cuSPARSE", "nvidia-cusparse-cu{cuda}"), "cusolver": ("cuSOLVER", "nvidia-cusolver-cu{cuda}"),
              "nvrtc": ("NVRTC", "nvidia-cuda-nvrtc-cu{major}"), "nvJitLink": ("nvJitLink", "nvidia-nvjitlink-cu{major}"),
              "nccl": ("NCCL", "nvidia-nccl-cu12"), "cupti": ("CUPTI", "nvidia-cuda-cupti-cu{major}"),
              "nvToolsExt": ("NVTX", "nvidia-nvtx-cu{cuda}"), "cudnn": ("cuDNN", "nvidia-cudnn-cu{cudnn}"),
              "nvinfer": ("TensorRT", "tensorrt")}


@_with_toolkit_other(_need_of_library)
def _d_library(v: dict, t: LogText, m: re.Match) -> dict:
    name = v.get("name", "")
    # a producer that names the library in capitals, without its file (GMiner's "Failed to initialize NVRTC
    # library"): the file name's own spelling, without a version it does not say, so that `find -name` finds the file
    upper = name.isupper()
    if upper:
        name = name.lower()
    base = ("cudnn" if name.startswith("cudnn") else
            "nvinfer" if name.startswith(("nvinfer", "nvonnxparser", "nvparsers")) else name.split("-")[0])
    label, wheel = _LIBRARIES.get(base, (name, ""))
    major = v.get("major", "")
    if base == "cudnn":
        cudnn = "11" if major == "8" else "12"
        what = f"cuDNN {major}" if major else "cuDNN"
        extra = (" cuDNN 9 renamed its libraries (libcudnn_ops.so.9 ...): a program built for cuDNN 8 needs "
                 "cuDNN 8 itself." if major == "8" and name != "cudnn" else "")
        wheel = wheel.format(cudnn=cudnn) + ("==8.*" if major == "8" else "")
    elif base in ("cublas", "cublasLt", "nvrtc", "cupti", "nvJitLink"):
        what = f"{label} from CUDA {major}" if major else label
        extra = ""
        wheel = wheel.format(major=major or "12")
    else:
        what = label
        extra = ""
        wheel = wheel.format(major=major or "12", cuda="12" if not major or int(major) >= 11 else major, cudnn=major)
    # components.yaml knows which release ships each soname, and which wheel (if any) has exactly it:
    # libcudnn.so.7 or libcublas.so.10 is in no pip wheel, libcufft.so.11 is in the cu12 one.
    shipped = ((libraries().get(base) or {}).get("sonames") or {}).get(major) if major else None
    release = ""
    if shipped:
        wheel, release = shipped.get("wheel", ""), shipped.get("cuda", "")
    sov = re.search(r"\.so\.(\d+\.\d+)", v.get("lib", ""))
    return {**({"lib": f"lib{name}", "name": name} if upper else {}),
            "library": label, "what": what, "extra": extra, "wheel": wheel, "release": release,
            "soname_version": sov.group(1) if sov else "", **_d_present(v, t), **_wheel_listed(t, base, wheel, major),
            **(_tensorrt_seen(t, major) if base == "nvinfer" else {"trt_dir": "", "trt_version": "", "trt_other": ""})}


# [r8 loader] TensorRT comes as NVIDIA's tar/zip more often than as a package: its lib/ directory is on no
# loader path until a shell start-up file adds it (jkjung-avt/tensorrt_demos#517, open-mmlab/mmdeploy#2594,
# onnx/onnx-tensorrt#257, NVIDIA/TensorRT#2218). The directory (TensorRT-8.4.2.4) or the release the log
# names, when its major is the soname's: a TensorRT of another major does not stand in.
_TRT_DIR = re.compile(r"(/[\w./+-]*?/TensorRT-(\d+)(?:\.\d+)+)(?![\w.])")
_TRT_VERSION = re.compile(r"(?i:tensorrt)(?:[ \t:=-]*(?i:version)?[ \t:=]*(?:\*\*)?[ \t]*(?i:tensorrt-)?|-)(\d+)((?:\.\d+){1,3})\b")


def _tensorrt_seen(t: LogText, major: str) -> dict:
    """``trt_dir``: a TensorRT-X.Y directory the log names (its root), ``trt_version``: a TensorRT release
    the log names, each only when its major version is the missing soname's (or the soname has none)."""
    if not re.search(r"(?i:tensorrt)", t.text):
        return {"trt_dir": "", "trt_version": "", "trt_other": ""}
    d = next((m.group(1) for m in _TRT_DIR.finditer(t.text) if not major or m.group(2) == major), "")
    versions = [(m.group(1), m.group(1) + m.group(2)) for m in _TRT_VERSION.finditer(t.text)]
    versions += [(m.group(2), m.group(1).rsplit("TensorRT-", 1)[1]) for m in _TRT_DIR.finditer(t.text)]
    ver = next((v for mj, v in versions if not major or mj == major), "")
    # only another major named (TensorRT 8 installed, the program wants libnvinfer.so.7): it does not stand in
    other = next((v for mj, v in versions if major and mj != major), "") if not (d or ver) else ""
    return {"trt_dir": d, "trt_version": ver, "trt_other": other}


# The Python module of each nvidia-* wheel (site-packages/nvidia/<module>/lib holds its libraries).
_WHEEL_MODULE = {"cudnn": "cudnn", "cublas": "cublas", "cublasLt": "cublas", "nvrtc": "cuda_nvrtc", "cufft": "cufft",
                 "curand": "curand", "cusparse": "cusparse", "cusolver": "cusolver", "nccl": "nccl",
                 "nvJitLink": "nvjitlink", "cupti": "cuda_cupti", "nvToolsExt": "nvtx"}


def _wheel_listed(t: LogText, base: str, wheel: str, major: str) -> dict:
    """Whether the log lists the nvidia-* wheel that ships the missing soname (`pip list`, `pip show`,
    `pip freeze`, a requirements line), and the command that prints that wheel's lib directory."""
    module = _WHEEL_MODULE.get(base, "")
    name = wheel.split("=")[0].strip()
    if not module or not name.startswith("nvidia-") or not major:
        return {"wheel_listed": "", "wheel_dir": ""}
    low = t.text.lower()
    listed = ""
    names = [f"nvidia-cudnn-cu{c}" for c in (11, 12, 13)] if base == "cudnn" else [name]
    for cand in [n for x in names for n in (x, x.replace("-", "_"))]:
        k = low.find(cand)
        while k >= 0 and not listed:
            after = low[k + len(cand):k + len(cand) + 40]
            ver = re.match(r"(?:\s+|==|-|\s*\(|:\s*)(\d+)\.", after)
            # (round 18) a command quoted in a program's own advice names the wheel, it does not list it installed:
            # XGBoost's nccl_stub.cc "- Run `pip install nvidia-nccl-cu12` (Or with any CUDA version ...)"
            advice = re.search(r"`(?:pip3?|uv pip|python -m pip) install (?:-U )?$", low[max(0, k - 30):k])
            if not advice and not re.match(r"[\w.-]*[a-z]", after[:1] or " ") and (
                    base != "cudnn" or ver is None or ver.group(1) == major):
                listed = cand.replace("_", "-")
            k = low.find(cand, k + 1)
    cmd = (f'`export LD_LIBRARY_PATH="$(python -c \'import os, nvidia.{module}; '
           f'print(os.path.join(nvidia.{module}.__path__[0], "lib"))\')${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"`')
    return {"wheel_listed": listed, "wheel_dir": cmd}


# Where a log shows a library on disk: `find`/`locate`/`ldconfig -p` output (an absolute path that
# ends in the soname), an `ls` of a directory listing it, or "installed at /dir". Lines that report a
# failure to open it are not evidence (Paddle's "error code is /usr/local/cuda/lib64/libcudnn.so: cannot
# open ..." names where it looked, not where it is).
_NOT_EVIDENCE = re.compile(r"cannot open|No such file|not found|[Cc]ould not|[Ff]ailed|Unable to|[Ee]rror|"
                           r"undefined symbol|LD_LIBRARY_PATH|\bexport\b|\bnvcc\b|-I/|-L/|"
                           r"\b(?:ln|cp|mv|rm|chmod|sudo)\s|\btried\b")  # commands the user ran (a link made by hand)
_LS_CMD = re.compile(r"(?:^|[$#>]\s*|\bsudo\s+)ls\b[^\n|]*?\s(/[\w./+-]+)")
_INSTALLED_AT = re.compile(r"\b(?:installed|located|placed|is|are|exists?|have it|found it)\s+(?:at|in|under)\s+"
                           r"[`'\"]?(/[\w./+-]+?)/?[`'\"]?(?=[\s,;)]|\.(?:\s|$)|$)", re.I)


def _lib_on_disk(text: str, name: str, major: str) -> tuple[str, str]:
    """(directory, file) where ``text`` shows ``lib<name>.so[.major...]`` on disk, and the best other
    major version's file it shows instead (directory, file) when none of ``major`` is there.

    Returns ``("", "")`` for neither, ``("", file)`` when only another major version is shown.
    """
    if not name:
        return "", ""
    lib = re.escape("lib" + name)
    rx = re.compile(r"(?:(?P<dir>/[\w./+-]*?)/|(?<![\w./-]))(?P<file>" + lib + r"\.so(?:\.(?P<maj>\d+(?:\.\d+)*))?)(?![\w.])")
    needle = "lib" + name
    hits: list[tuple[int, str, str, str]] = []  # (score, dir, file, major)
    k = text.find(needle)
    while k >= 0:  # only the lines that name the library (a long log pays a few finds, not a regex per line)
        a = text.rfind("\n", 0, k) + 1
        b = text.find("\n", k)
        b = len(text) if b < 0 else b
        line = text[a:b]
        k = text.find(needle, b)
        if _NOT_EVIDENCE.search(line) or _LS_CMD.search(line):
            continue
        for m in rx.finditer(line):
            d = m.group("dir") or ""
            if not d:
                # a bare name: an `ls` listing (plain or -l) of the directory the last ls named
                before = text[max(0, a - 4000):a].split("\n")
                cmd = next((c for c in map(_LS_CMD.search, reversed(before[-40:])) if c), None)
                if cmd is None:
                    continue
                d = re.sub(r"/[^/]*\*[^/]*$|/lib[\w.+-]+\.so[\w.]*$", "", cmd.group(1))
            # stubs, docs, package caches, headers; and a toolkit's compat/ directory (the forward-
            # compatibility libcuda, which is not this machine's driver: jrottenberg/ffmpeg#233)
            # (in /tmp only pip's build and install directories and tempfile's: a program that unpacks its own libraries
            # there, ollama's runners, is listed by the log's own `ls`: the burned fresh30 o35)
            if re.search(r"/stubs?/|/compat/|/doc/|/man\d?/|/pkgs/|/tmp/(?:pip-|tmp)|/include/|\.(?:so|py)/", d + "/"):
                continue
            score = 0
            env = re.match(r"(/[\w./+-]*?/envs/[\w.+-]+|/[\w./+-]*?/(?:venv|\.venv|env)[\w.+-]*)/", d + "/")
            if env and text.count(env.group(1)) > 1:
                score += 1  # the environment this log runs in (its traceback names it too)
            hits.append((score, d, m.group("file"), m.group("maj") or ""))
    stem = name.split("_")[0].lower()
    low = text.lower()
    k = low.find(stem)
    while k >= 0:  # "I have cudnn installed at /usr/local/cuda/lib64"
        a = low.rfind("\n", 0, k) + 1
        b = low.find("\n", k)
        b = len(low) if b < 0 else b
        k = low.find(stem, b)
        line = text[a:b]
        m = _INSTALLED_AT.search(line)
        if m and not _NOT_EVIDENCE.search(line):
            d = re.sub(r"/lib[\w.+-]+\.so[\w.]*$", "", m.group(1))
            if re.search(r"/cuda(?:-\d+(?:\.\d+)?)?$", d):  # "installed in /usr/local/cuda": its libraries are in lib64
                d += "/lib64"
            if not re.search(r"/include\b|/bin\b", d):
                hits.append((0, d, "", "any"))
    def fits(have: str) -> bool:  # 8.9.7 fits 8; 11.6 does not fit 11.1
        return have == major or have.startswith(major + ".")

    if major:
        same = [h for h in hits if h[3] == "any" or fits(h[3])]
    else:  # the unversioned name (Paddle, dlopen("libcudnn.so")): only that file, or a directory said to hold it
        same = [h for h in hits if h[3] == "any" or h[2] == "lib" + name + ".so"]
        if not same and hits:  # only versioned files: the development link lib<name>.so is what is missing
            best = max(hits, key=lambda h: h[0])
            return best[1], best[2]
    if same:
        best = max(same, key=lambda h: h[0])  # the first of the best score
        return best[1], best[2]
    other = [h for h in hits if h[3] and h[3] != "any" and not fits(h[3])]
    if other:
        best = max(other, key=lambda h: (h[0], int(h[3].split(".")[0])))
        return "", best[2]
    return "", ""


def _d_present(v: dict, t: LogText, lib_key: str = "lib", m: re.Match | None = None) -> dict:
    """What the log shows of the missing library on disk: ``present`` (its directory, when the log
    lists it there), ``present_file``, and ``other_file`` (another major version it lists instead)."""
    lib = v.get(lib_key, "")
    m = re.match(r"lib([\w+-]+?)(?:\.so(?:\.(\d+(?:\.\d+)?))?|$)", lib)
    if not m:
        return {"present": "", "present_file": "", "other_file": "", "other_major": "", "present_use": "",
                "link_missing": "", "soname_missing": ""}
    name, major = m.group(1), m.group(2) or ("" if ".so" in lib else v.get("major", ""))
    # the soname names major.minor only for NVRTC's builtins, cudart 11.0, nvrtc 11.2 and CUDA 10 and older
    first = major.split(".")[0]
    if "." in major and not (name in ("nvrtc-builtins", "cudart", "nvrtc") or int(first) <= 10 and "cudnn" not in name):
        major = first
    d, f = _lib_on_disk(t.text, name, major)
    if d:
        d = re.sub(r"/+$", "", d)
        use = re.search(r"/cuda-(\d+\.\d+)/(?:lib64|lib|targets/[\w-]+/lib)$", d)
        return {"present": d, "present_file": f or lib, "other_file": "", "other_major": "",
                "link_missing": "yes" if not major and f and f != lib else "",
                # only a longer name of the soname is there (libcudart.so.12.0 for libcudart.so.12): its soname link
                "soname_missing": "yes" if major and f and f != lib and f.startswith(lib + ".") else "",
                "present_use": (f' (or `eval "$(cudaenv use {use.group(1)})"`, which puts that toolkit\'s lib64 there)'
                                if use else "")}
    other = re.search(r"\.so\.(\d+)", f)
    return {"present": "", "present_file": "", "other_file": f, "other_major": other.group(1) if other else "",
            "present_use": "", "link_missing": "", "soname_missing": ""}


# NCCL entry points newer torch builds call, and the NCCL release that added them (NCCL's nccl.h).
_NCCL_SINCE = {"ncclCommRegister": "2.19", "ncclCommDeregister": "2.19", "ncclCommSplit": "2.18",
               "ncclCommInitRankConfig": "2.14", "ncclCommFinalize": "2.14", "ncclMemAlloc": "2.19",
               "ncclCommWindowRegister": "2.27", "ncclCommShrink": "2.27"}


# [r11 copies] Two copies of one library: what the log shows of both decides which to remove. pip wheels of two
# CUDA majors (nvidia-nccl-cu11 beside nvidia-nccl-cu12: rwth-i6/returnn#1802, VichyTong/CodeJudge#2,
# pytorch/pytorch#186591 "Uninstall the nvidia-nccl-cu12 package"), another package that loads its own copy before
# torch does (rapidsai/cugraph#4465: CuPy before 13.2 preloaded the system libnccl, cupy/cupy#8360 made it lazy), and
# the library that fails being another package's or the conda environment's own copy (a path through "..":
# MPI-Dortmund/tomotwin-cryoet#42, cuml's libcublas.so.11 in the environment's lib, fixed by removing torch/lib's
# libcublas*; microsoft/onnxruntime#8594 "find out how many libcublasLt.so.11 you have").
_WHEEL_STEM = {"nccl": "nccl", "nvJitLink": "nvjitlink", "cublas": "cublas", "cublasLt": "cublas",
               "cusparse": "cusparse", "cusparseLt": "cusparselt", "cudnn": "cudnn", "cufft": "cufft",
               "curand": "curand", "cusolver": "cusolver", "nvrtc": "cuda-nvrtc", "cudart": "cuda-runtime",
               "cupti": "cuda-cupti", "nvToolsExt": "nvtx"}
_NV_WHEEL = re.compile(r"(?<![\w-])nvidia[-_]([a-z]+(?:[-_][a-z]+)*?)[-_]cu(\d{2})(?![\w])")
_TORCH_CU = re.compile(r"\btorch(?:==|\s+|-)\d+\.\d+[\w.]*\+cu(\d\d)\d\b|\+cu(\d\d)\d\b")
_FRAME_PKG = re.compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_]\w*)[/\\]")
_LIB_PATH = re.compile(r"(/[\w./+-]*?/)(lib[\w+-]+\.so[\d.]*)(?=:)")


def _stray_wheels(t: LogText, stem: str) -> tuple[str, str, str]:
    """(the nvidia-* wheels to uninstall, the pair the log lists, the wheels to keep) when the log lists one library's wheel for two CUDA
    majors: the majors that are not torch's (its +cuXYZ build) or, without one, not the newest."""
    low = t.text.lower()
    if "nvidia" not in low:
        return "", "", ""
    majors: dict[str, set[str]] = {}
    for mm in _NV_WHEEL.finditer(low):
        majors.setdefault(mm.group(1).replace("_", "-"), set()).add(mm.group(2))
    twice = {name: sorted(ms) for name, ms in majors.items() if len(ms) > 1}
    if not twice:
        return "", "", ""
    tc = _TORCH_CU.search(t.text)
    torch_major = next((g for g in tc.groups() if g), "") if tc else ""
    order = sorted(twice, key=lambda name: name != stem)  # the library of the message first
    stray, kept = [], []
    for name in order:
        keep = torch_major if torch_major in twice[name] else twice[name][-1]
        stray += [f"nvidia-{name}-cu{mj}" for mj in twice[name] if mj != keep]
        kept.append(f"nvidia-{name}-cu{keep}")
    name = order[0]
    pair = " beside ".join(f"nvidia-{name}-cu{mj}" for mj in twice[name])
    return " ".join(stray), pair, " ".join(kept)


_PRELOADERS = {"cupy", "cupyx", "cupy_backends", "cugraph", "cudf", "cuml", "cuspatial", "rmm", "dask_cuda", "raft_dask",
               "pylibraft", "cuvs", "tensorflow", "keras", "jax", "jaxlib", "paddle", "mxnet", "onnxruntime",
               "tensorrt", "dgl", "cv2", "numba"}
_NOT_PRELOADERS = {"torch", "importlib", "nvidia", "_pytest", "pytest", "IPython", "ipykernel"}


def _preloader(t: LogText) -> str:
    """The installed package whose frame imports torch in the traceback (torch/__init__.py's frame follows one of
    its files): it ran before torch, and what it loaded (its own copy of a CUDA library) was there first."""
    text = t.text
    k = text.find("torch/__init__.py")
    while k >= 0:
        a = text.rfind("\n", 0, k)
        before = text[max(0, a - 600):a].split("\n")[-4:]
        for line in reversed(before):
            if "torch/" in line and "site-packages/torch" in line:
                break
            mm = _FRAME_PKG.search(line)
            if mm:
                # only a package that loads CUDA libraries of its own at import (RAPIDS through CuPy, TensorFlow, JAX,
                # Paddle, MXNet, ONNX Runtime, CuPy itself), or any package where the log shows CuPy
                if mm.group(1) in _PRELOADERS or (mm.group(1) not in _NOT_PRELOADERS and "cupy" in text):
                    return mm.group(1)
                break
        k = text.find("torch/__init__.py", k + 1)
    return ""


def _failing_copy(t: LogText, m: re.Match) -> tuple[str, str]:
    """(the directory of the library that fails, resolved through "..", and the installed package whose path
    reaches it) when the message names that library by its path and the path runs through another package."""
    a = t.text.rfind("\n", 0, m.start()) + 1
    mm = _LIB_PATH.search(t.text, a, m.end())
    if mm is None or "/../" not in mm.group(1):
        return "", ""
    import posixpath
    d = posixpath.normpath(mm.group(1))
    if re.search(r"(?:site|dist)-packages/(?:nvidia/|torch/lib$)", d):  # a wheel's own directory: torch's usual layout
        return "", ""
    pkg = _FRAME_PKG.search(mm.group(1))
    owner = pkg.group(1) if pkg and pkg.group(1) not in ("torch", "nvidia") else ""
    return d, owner


def _copies(derive):
    """``shadowed`` plus what the log shows of the two copies: ``stray_wheels`` and ``wheel_pair`` (one library's
    nvidia-* wheel for two CUDA majors; ``kept_wheels``, the ones to keep), ``lib_stem`` (libcublasLt -> libcublas),
    ``preloader`` (a package that imported
    torch after loading its own copy), ``copy_dir`` and ``copy_owner`` (the failing library's own directory and the
    package whose path leads there)."""
    def d(v: dict, t: LogText, m: re.Match) -> dict:
        out = derive(v, t, m)
        lib = out.get("lib", "")
        base = re.match(r"lib([A-Za-z]+?)(?:Lt)?\.so", lib)
        stem = _WHEEL_STEM.get(base.group(1), "") if base else ""
        stray, pair, kept = _stray_wheels(t, stem)
        copy_dir, owner = _failing_copy(t, m)
        # the toolkit directory the log shows is the caller's own (its libcusolver needs a newer libcublas than the one
        # loaded): the toolkit is the newer side, and the older copy is elsewhere (int-brain-lab/ibl-sorter#41)
        a = t.text.rfind("\n", 0, m.start()) + 1
        caller = _LIB_PATH.search(t.text, a, m.end())
        caller_dir = caller.group(1).rstrip("/") if caller else ""
        newer_dir = ""
        if out.get("path") and caller_dir and caller_dir.startswith(out["path"]) and "/../" not in caller_dir:
            newer_dir = caller_dir
            out.update({"path": "", "where": ""})
        major = re.search(r"\.so\.(\d+)$", lib)
        lib_wheel = (f"nvidia-{stem}-cu{major.group(1)}" if major and stem in ("cublas", "nvjitlink", "cuda-nvrtc", "cuda-cupti")
                     else "")
        out.update({"newer_dir": newer_dir, "lib_wheel": lib_wheel or "the nvidia-* wheel of that library"})
        out.update({"stray_wheels": stray, "wheel_pair": pair, "kept_wheels": kept,
                    "lib_stem": re.sub(r"Lt$", "", lib.split(".so")[0]) if lib.startswith("lib") else "lib",
                    "preloader": _preloader(t) if not stray else "", "copy_dir": copy_dir, "copy_owner": owner,
                    "copy_owner_part": f" (where {owner}'s path leads)" if owner else ""})
        return out
    return d


@_copies
def _d_shadowed(v: dict, t: LogText, m: re.Match) -> dict:
    sym = v.get("symbol", "")
    mm = re.search(r"_(\d+)_(\d+)$", sym)
    needed = f"{mm.group(1)}.{mm.group(2)}" if mm else ""
    lib = v.get("lib", "")
    if not lib or lib.startswith("copy of"):  # the entry's default: name the library from the symbol
        lib = ("libnvJitLink.so.12" if sym.startswith("__nvJitLink") else
               "libnccl.so.2" if sym.startswith("nccl") else lib)
    if not needed and sym in _NCCL_SINCE:
        needed = _NCCL_SINCE[sym]
    found = re.search(r"(/[\w./+-]*?cuda[\w.+-]*/(?:lib64|lib|targets/[\w-]+/lib))\b", t.text)
    path = found.group(1) if found else ""
    where = (f" This log shows {path} (an older toolkit's libraries) on the loader path." if path else "")
    need = f"; it needs {lib.split('.so')[0]} {needed} or newer" if needed else ""
    # [r8 loader] the nvidia channel's conda package of that library and the next major (a pin below it)
    soname = re.match(r"(lib[A-Za-z]+)\.so\.(\d+)$", lib)
    conda_pin = f'"{soname.group(1)}<{int(soname.group(2)) + 1}"' if soname else ""
    return {"needed": needed, "lib": lib, "path": path, "where": where, "need": need, "conda_pin": conda_pin}


_HEADERS = {"cusparse": "cuSPARSE", "cublas": "cuBLAS", "cusolver": "cuSOLVER", "cufft": "cuFFT",
            "curand": "cuRAND", "cudnn": "cuDNN", "nccl": "NCCL", "nvrtc": "NVRTC", "nvToolsExt": "NVTX",
            "cuda_runtime": "the CUDA runtime (cudart)", "cuda_fp16": "the CUDA runtime (cudart)",
            "cuda_bf16": "the CUDA runtime (cudart)", "cuda": "the CUDA driver API"}


def _d_header(v: dict, t: LogText, m: re.Match) -> dict:
    h = v.get("header", "")
    stem = re.split(r"[._/]", h)[0] if not h.startswith("cuda_") else "_".join(h.split("_")[:2]).split(".")[0]
    part = _HEADERS.get(stem, _HEADERS.get(h.split(".")[0], "a CUDA library"))
    return {"part": part}


def _d_stub(v: dict, t: LogText, m: re.Match) -> dict:
    found = re.search(r"[\w./+-]*/stubs(?:/libcuda\.so[\w.]*)?", t.text)
    stub = found.group(0) if found else ""
    return {"code": v.get("code", "34"), "stub": stub,
            "seen": f" This log shows the stub being used: {stub}." if stub else ""}


def _captured_or_in_log(v: dict, name: str, pattern: str, t: LogText) -> str:
    """What the message captured as ``name``, else the first group of ``pattern`` anywhere in the log,
    else "": a fact is named only when the log has it (never a default the log does not say)."""
    if v.get(name):
        return v[name]
    found = re.search(pattern, t.text)
    return found.group(1) if found else ""


def _d_xid(v: dict, t: LogText, m: re.Match) -> dict:
    """Name an Xid only when the log has one."""
    xid = _captured_or_in_log(v, "xid", r"\bXid\b[^\n]{0,80}?\)\s*:\s*(\d+)\b", t)
    return {"xid": xid, "xid_part": f", Xid {xid}" if xid else ""}


def _d_nvml(v: dict, t: LogText, m: re.Match) -> dict:
    found = re.search(r"NVML library version:\s*([\d.]+)", t.text)
    lib = found.group(1) if found else ""
    return {"library_version": lib,
            "seen": f" The user-space libraries here are driver {lib}." if lib else ""}


def _d_cuda_home(v: dict, t: LogText, m: re.Match) -> dict:
    home = v.get("cuda_home", "")
    note = ""
    if home.endswith(("/nvcc", "/bin", "/bin/")):
        note = f" CUDA_HOME is {home}: it must name the toolkit's root (the directory holding bin/nvcc), not nvcc."
    elif home in ("/usr", "/usr/"):
        note = " CUDA_HOME=/usr is a guess torch made from an nvcc in /usr/bin (a distribution package)."
    return {"note": note}


def _d_cuda_home_list(v: dict, t: LogText, m: re.Match) -> dict:
    parts = entries(v.get("cuda_home", ""))
    first = parts[-1] if parts else "/usr/local/cuda"
    return {"one": first}


def _d_torch_in_log(v: dict, t: LogText, m: re.Match) -> dict:
    found = re.search(r"torch\.__version__\s*=\s*(\S+)", t.text)
    tv = found.group(1) if found else ""
    note = ""
    if "+cpu" in tv:
        note = f" The torch in this log, {tv}, is a CPU build."
    elif "rocm" in tv:
        note = f" The torch in this log, {tv}, is a ROCm build: it builds with hipcc, not nvcc."
    elif "+cu" in tv:
        cu = tv.split("+cu")[1]
        note = f" The torch in this log, {tv}, was built with CUDA {cu[:-1]}.{cu[-1:]}: use a {cu[:-1]}.x toolkit."
    return {"torch_version": tv, "torch_note": note}


_TABLES: dict[str, dict] = {}


def knowledge_table(file: str) -> dict:
    """A data table of ``knowledge/`` (components.yaml, producers.yaml), parsed once per process; infra.kept.load_yaml keeps
    it on disk beside the knowledge base so that explain does not import YAML for it."""
    doc = _TABLES.get(file)
    if doc is None:
        import os

        from ...infra.kept import load_yaml

        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), file)
        doc = _TABLES[file] = load_yaml(path, file.removesuffix(".yaml"))
    return doc



def kb_pattern(entry_id: str, literal: str) -> re.Pattern:
    """The knowledge base's own pattern of ``entry_id`` that contains ``literal``, compiled once: a derive that looks
    for the entry's message elsewhere in the log (its match came from another of the entry's lines) reads the pattern
    from the entry, so the message is written once, in errors.yaml."""
    rx = _KB_PATTERNS.get((entry_id, literal))
    if rx is None:
        from ..kb import load_index

        entry = next(e for e in load_index() if e["id"] == entry_id)
        rx = _KB_PATTERNS[entry_id, literal] = re.compile(next(p for p in entry["patterns"] if literal in p))
    return rx


_KB_PATTERNS: dict[tuple[str, str], re.Pattern] = {}

def libraries() -> dict:
    """The soname table (``knowledge/components.yaml``): stem -> component, label, wheel, conda package."""
    doc = knowledge_table("components.yaml")
    if not _SYMBOLS:
        _SYMBOLS.update(doc.get("symbols") or {})
    return doc["libraries"]


_SYMBOLS: dict[str, str] = {}


def library_of_symbol(symbol: str) -> str | None:
    """The library (a key of :func:`libraries`) that defines the C symbol ``symbol``, by its prefix."""
    libraries()
    for prefix in sorted(_SYMBOLS, key=len, reverse=True):
        if symbol.startswith(prefix):
            if prefix == "cu" and not symbol[2:3].isupper():
                continue
            return _SYMBOLS[prefix]
    return None


def _stem(name: str) -> str:
    """The table's key for a library name: cudnn_cnn_infer -> cudnn, nppig -> npp, nvinfer_plugin -> nvinfer."""
    libs = libraries()
    if name in libs:
        return name
    for key in sorted(libs, key=len, reverse=True):
        if name.startswith(key):
            return key
    return name


# [r21 f21prod] "找不到": ld's zh_CN "cannot find" (wang-xinyu/tensorrtx#87)
_LINK_MISS = re.compile(r"(?:cannot find|找不到) (?:-l|[—–-]I)(?P<name>[\w.+-]+)|unable to find library -l(?P<name2>[\w.+-]+)|"
                        r"(?P<soname>lib(?P<name3>\w+?)\.so\.(?P<ver>\d+(?:\.\d+)?))[\w.]*, needed by \S+, not found|"
                        # [r18 build] mold ("library not found: X"), Apple's ld64 ("library not found for -lX"), MSVC's
                        # link.exe ("LNK1181: cannot open input file 'X.lib'")
                        r"library not found(?: for -l|: )(?P<name4>[\w.+-]+)|"
                        r"LNK1181: cannot open input file ['\"](?:[^'\"\n]*[\\/])?(?P<name5>[\w.+-]+?)\.lib['\"]")


def _d_link_libs(v: dict, t: LogText, m: re.Match) -> dict:
    """Every library the linker missed in the log (not only the first), with what ships each."""
    names: list[str] = []
    versions: list[str] = []
    for mm in _LINK_MISS.finditer(t.text):
        name = mm.group("name") or mm.group("name2") or mm.group("name3") or mm.group("name4") or mm.group("name5")
        if name and name not in names:
            names.append(name)
        if mm.group("ver"):
            versions.append(mm.group("ver"))
    if "-NOTFOUND" in t.text and "cublas_device" in t.text:
        names = ["cublas_device"] + [n for n in names if "cublas_device" not in n]
    libs = libraries()
    cuda = [n for n in names if _stem(n) in libs and libs[_stem(n)]["toolkit"]]
    labels = [libs[_stem(n)]["label"] for n in names if _stem(n) in libs]
    seen = v.get("cuda_seen") or (versions[0] if versions else "")
    exact = next((x for x in versions if "." in x and int(x.split(".")[0]) <= 10), "")
    listed = ", ".join(f"-l{n}" for n in names) or "the CUDA libraries"
    use = exact or seen
    if use:
        cmd = f'`eval "$(cudaenv use {use})"` puts CUDA {use}\'s lib64 on LIBRARY_PATH (where `ld` looks) and LD_LIBRARY_PATH; rebuild in that shell (`cudaenv install {use}` if it is not installed)'
    else:
        cmd = ('`eval "$(cudaenv use <the CUDA you build for>)"` (`cudaenv list` shows what is installed) puts its lib64 '
               'on LIBRARY_PATH (where `ld` looks) and LD_LIBRARY_PATH; rebuild in that shell')
    conda = " ".join(sorted({libs[_stem(n)]["conda"] for n in cuda if libs[_stem(n)]["conda"]}))
    return {"libs": listed, "count": str(len(names)), "labels": ", ".join(dict.fromkeys(labels)) or listed,
            "use_cmd": cmd, "conda_pkgs": conda or "cuda-cudart-dev", "exact": exact,
            "exact_note": (f" The sonames name CUDA {exact} exactly (CUDA 10 and older put major.minor in the "
                           f"soname): only that release's libraries satisfy them." if exact else "")}


# Symbols a link left undefined: ld ("undefined reference to symbol 'x'", "undefined reference to
# `x'") and MSVC (LNK2001/LNK2019, in any language: the symbol is the line's last word).
_UNDEFINED = re.compile(r"undefined reference to (?:symbol )?[`'\"](?P<a>\w+)(?:@@lib[\w.]+)?['\"]|"
                        r"\bLNK20(?:01|19)\b[^\n]*?\b_*(?:imp_)?(?P<b>(?:cu|nv|npp|nccl)\w+)|"
                        # [r18 build] lld's and mold's "undefined symbol: X" after the linker's name
                        r"(?:ld\.lld|ld64\.lld|lld-link|rust-lld|mold): error: undefined symbol: (?P<c>\w+)")


def _d_symbol_libs(v: dict, t: LogText, m: re.Match) -> dict:
    """Every CUDA library whose symbols the link left undefined, and how to add each to the link."""
    libs = libraries()
    names: list[str] = []
    symbols: list[str] = []
    for mm in _UNDEFINED.finditer(t.text):
        sym = mm.group("a") or mm.group("b") or mm.group("c")
        lib = library_of_symbol(sym) if "RegisterLinkedBinary" not in sym else None  # a device-link step, not a library
        if lib is None:
            continue
        if sym not in symbols:
            symbols.append(sym)
        if lib not in names:
            names.append(lib)
    if not names:
        names = [library_of_symbol(v.get("symbol", "")) or "cudart"]
    labels = ", ".join(dict.fromkeys(libs[n]["label"] for n in names if n in libs))
    shown = ", ".join(symbols[:4]) + (f" and {len(symbols) - 4} more" if len(symbols) > 4 else "")
    cmake = " ".join(f"CUDA::{n}" for n in names)
    return {"libs": " ".join(f"-l{n}" for n in names), "labels": labels or ", ".join(names), "symbols": shown or v.get("symbol", ""),
            "pylist": ", ".join(repr(n) for n in names), "cmake_targets": cmake,
            "winlibs": " ".join(f"{n}.lib" for n in names)}


def _d_cc_arch(v: dict, t: LogText, m: re.Match) -> dict:
    """A compute capability (``8.9``) as the arch name (``sm_89``), then what :func:`_d_arch` says of it."""
    cc = v.get("cc", "")
    arch = "sm_" + cc.replace(".", "") if cc else v.get("arch", "")
    return {"arch": arch, **_d_arch({**v, "arch": arch}, t, m)}


def _d_container_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    cuda = v.get("cuda", "")
    need = min_driver(cuda) if cuda else None
    return {"driver_min": f"{need} or newer" if need else "one whose `nvidia-smi` shows CUDA Version " + (cuda or "X") + " or newer"}


def _d_libver(v: dict, t: LogText, m: re.Match) -> dict:
    """Library version integers (8907, 11401) as versions; which library, from the line before."""
    lib = v.get("lib") or ""
    if not lib:
        before = t.text[max(0, m.start() - 300):m.start()]
        found = re.findall(r"\b(cuDNN|CuDNN|CUDNN|cuSOLVER|cuBLAS|cuFFT|cuSPARSE|NCCL|CUDA|PTXAS|ptxas)\b", before)
        lib = found[-1] if found else "cuDNN"
    cuda = lib.upper() == "CUDA"  # CUDA's own integer is major*1000 + minor*10: 12010 -> 12.1
    out = {k + "_v": (cuda_of_int(v[k]) if cuda else decode_version(v[k]))
           for k in ("built", "installed", "need", "have") if v.get(k)}
    pair = (out.get("have_v") or out.get("installed_v"), out.get("need_v") or out.get("built_v"))
    if all(pair):
        out["direction"] = "newer" if version_key(pair[0]) > version_key(pair[1]) else "older"
    label = {"cudnn": "cuDNN", "cusolver": "cuSOLVER", "cublas": "cuBLAS", "cufft": "cuFFT", "cusparse": "cuSPARSE",
             "nccl": "NCCL", "cuda": "CUDA", "ptxas": "ptxas"}.get(lib.lower(), lib)
    producers = v.get("producers", "").split()
    who = "jaxlib" if "jax" in producers else "TensorFlow" if "tensorflow" in producers else "the program"
    return {**out, "who": who, "libname": label, "libname_pkg": {"cuDNN": "cudnn", "NCCL": "nccl"}.get(label, "lib" + label.lower()),
            "wheel": f"nvidia-{label.lower()}-cu12" if label != "CUDA" else "nvidia-cuda-runtime-cu12"}


def cuda_of_int(n: str) -> str:
    """CUDA_VERSION's integer as people say it (12050 -> 12.5: major * 1000 + minor * 10, not a library's encoding);
    anything else as it is (a dotted version)."""
    return _cuda_of_int(int(n)) if n.isdigit() and len(n) >= 4 else n


def _d_cudnn_pair(v: dict, t: LogText, m: re.Match) -> dict:
    def ver(prefix: str) -> str:
        if v.get(prefix + "_t"):
            return ".".join(x.strip() for x in v[prefix + "_t"].split(","))
        return decode_version(v.get(prefix, ""))
    built, found = ver("built"), ver("found")
    older = version_key(found) < version_key(built)
    return {"built_v": built, "found_v": found, "direction": "older" if older else "newer"}


def _d_glibc_by(v: dict, t: LogText, m: re.Match) -> dict:
    by = v.get("by", "")
    short = by.replace("\\", "/").rsplit("/", 1)[-1] or "the binary"
    pkg = re.search(r"(?:site|dist)-packages/([A-Za-z_][\w-]*)", by)
    note = (f" {pkg.group(1)} here is a prebuilt package (a wheel or conda package built elsewhere)." if pkg else "")
    return {"by_short": pkg.group(1) if pkg else short, "prebuilt_note": note}


def _d_nvcc_release(v: dict, t: LogText, m: re.Match) -> dict:
    found = re.search(r"Cuda compilation tools, release (\d+\.\d+)|bare_metal_version\D+(\d+\.\d+)", t.text)
    return {"detected": next((g for g in found.groups() if g), "") if found else ""}


DERIVE = {"link_libs": _d_link_libs, "symbol_libs": _d_symbol_libs, "cc_arch": _d_cc_arch, "container_cuda": _d_container_cuda, "libver": _d_libver,
          "cudnn_pair": _d_cudnn_pair, "glibc_by": _d_glibc_by, "nvcc_release": _d_nvcc_release,
          "torch_in_log": _d_torch_in_log, "arch": _d_arch, "torch_arch": _d_torch_arch, "cuda_pair": _d_cuda_pair, "ptx": _d_ptx,
          "libstdcxx": _d_libstdcxx, "symbol": _d_symbol, "libcudart": _d_libcudart, "library": _d_library,
          "shadowed": _d_shadowed, "header": _d_header, "stub": _d_stub, "nvml": _d_nvml,
          "cuda_home": _d_cuda_home, "cuda_home_list": _d_cuda_home_list, "xid": _d_xid,
          "present": lambda v, t, m: _d_present(v, t)}


# -- [containers-python] layer (round 4): added at the end so parallel edits above do not collide.

def _release(v: str) -> tuple[int, ...]:
    """A torch release as numbers, without its local tag: ``2.1.0+cu121`` -> (2, 1, 0); () for none."""
    m = re.match(r"\s*(\d+(?:\.\d+)*)", v or "")
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def _d_torch_pair_order(v: dict, t: LogText, m: re.Match) -> dict:
    """Which side of a "built for X (you have Y)" pair is the newer torch release: ``built``, ``have`` or ""."""
    built, have = _release(v.get("built", "")), _release(v.get("have", ""))
    if not built or not have or built[:2] == have[:2]:
        return {"newer": ""}
    return {"newer": "built" if built > have else "have"}


# A CPython every torch release of the range has wheels for (pytorch/pytorch RELEASE.md, "Release Compatibility
# Matrix": 1.12-1.13 3.7-3.10, 2.0-2.4 3.8-3.11/3.12, 2.5-2.8 3.9-3.12/3.13, 2.9 3.10-3.14; 1.4-1.10 had
# cp36-cp38 wheels at least, 1.0-1.3 cp35-cp37): the example a fix gives for "a Python that release supports".
_TORCH_PYTHON = (((1, 4), "3.7"), ((1, 11), "3.8"), ((2, 5), "3.10"), ((99,), "3.12"))


def _torch_release_of(req: str, want: tuple[int, ...]) -> tuple[int, ...]:
    """The torch release a torchvision/torchaudio release belongs to: torchvision 0.N is torch 1.(N-1) up to 0.14
    and 2.(N-15) from 0.15; torchaudio 0.N is torch 1.N, torchaudio 2.x torch 2.x; torch itself as given."""
    name = req.split("=")[0].strip().lower()
    if len(want) < 2 or want[0] != 0:
        return want
    if name.startswith("torchvision"):
        return (1, max(want[1] - 1, 0)) if want[1] < 15 else (2, want[1] - 15)
    if name.startswith("torchaudio"):
        return (1, want[1])
    return want


def _torch_python(want: tuple[int, ...]) -> str:
    if not want:
        return "3.12"
    return next(py for below, py in _TORCH_PYTHON if want[:2] < below)


def _d_torch_wheels(v: dict, t: LogText, m: re.Match) -> dict:
    """What an installer's "(from versions: ...)" says of the wanted torch: ``tagged`` "yes" when other
    releases with the same +tag are listed (the wanted release has no such build); ``listed`` "yes" when the
    release itself is there without the +tag (only the local build is missing: an index
    question); ``python`` "too-new" / "too-old" when every listed release is newer / older than
    the wanted one (the interpreter has wheels of other releases only)."""
    want = _release(v.get("want", ""))
    names = [x for x in re.split(r"[,\s]+", v.get("versions") or "") if _release(x)]
    listed = [_release(x) for x in names]
    tag = v.get("tag") or ""
    out = {"listed": "", "python": "", "tagged": "", "pyver": _torch_python(_torch_release_of(v.get("req", ""), want))}
    if not want or not listed:
        return out
    # Other releases of this very build (+cu113) are there, the wanted one is not: that release
    # was never built for that CUDA.
    if tag and any(x.endswith("+" + tag) for x in names):
        out["tagged"] = "yes"
    if want in listed or want + (0,) in listed:
        out["listed"] = "yes"
    elif all(x[:len(want)] > want for x in listed):
        out["python"] = "too-new"
    elif all(x[:len(want)] < want for x in listed):
        out["python"] = "too-old"
    return out


DERIVE.update({"torch_pair_order": _d_torch_pair_order, "torch_wheels": _d_torch_wheels})


def _d_gcc_limit(v: dict, t: LogText, m: re.Match) -> dict:
    """The newest gcc major a toolkit accepts: what host_config.h said (``limit``), else the
    table's ``gcc_max`` for the CUDA a message names (torch's cpp_extension check: ``by CUDA 11.3``)."""
    if v.get("limit"):
        return {"limit": v["limit"]}
    if (v.get("below") or "").isdigit():  # torch's exclusive bound: "(<14.0)" -> gcc 13
        return {"limit": str(int(v["below"]) - 1)}
    up = (v.get("upfrom") or "").split(".")
    if len(up) == 2 and all(x.isdigit() for x in up) and int(up[1]) > 0:  # "gcc 4.9 and up" -> gcc 4.8
        return {"limit": f"{up[0]}.{int(up[1]) - 1}"}
    row = table()["toolkits"].get(v.get("cuda", "")) or {}
    return {"limit": str(row["gcc_max"]) if row.get("gcc_max") else ""}


DERIVE["gcc_limit"] = _d_gcc_limit


def _d_pci_part(v: dict, t: LogText, m: re.Match) -> dict:
    """The GPU's PCI ID in a title, only when the log names it."""
    pci = _captured_or_in_log(v, "pci_id", r"\(PCI ID: (10de:[\da-fA-F]{4})\)", t)
    return {"pci_id": pci, "pci_part": f" (PCI ID {pci})" if pci else ""}


DERIVE["pci_part"] = _d_pci_part


def _d_code_part(v: dict, t: LogText, m: re.Match) -> dict:
    """RmInitAdapter's error triple in a title, only when the log names it."""
    code = v.get("code") or ""
    return {"code": code, "code_part": f", {code}" if code else ""}


DERIVE["code_part"] = _d_code_part


def _d_port_part(v: dict, t: LogText, m: re.Match) -> dict:
    """The PCI address an AER line names, as a title part (" at 0000:00:03.0"), or nothing."""
    port = v.get("port") or ""
    return {"port": port, "port_part": f" at {port}" if port else ""}


DERIVE["port_part"] = _d_port_part


def _d_omniverse_driver(v: dict, t: LogText, m: re.Match) -> dict:
    """[r25 tb] Omniverse Kit's driver check: the installed driver, the low end of the refused range and the driver it
    recommends, from the message or from its lines anywhere in the log (the multi-line form puts them apart)."""
    installed = _captured_or_in_log(v, "installed", r"Installed driver: (\d{1,4}(?:\.\d{1,3}){1,2})\b", t)
    low = _captured_or_in_log(v, "low", r"unsupported driver range: \[(\d{1,4}(?:\.\d{1,3}){0,2}),", t)
    recommended = _captured_or_in_log(v, "recommended", r"The recommended drivers?: (\d{1,4}(?:\.\d{1,3}){1,2})\b", t)
    return {"installed": installed, "low": low, "recommended": recommended or "the driver it recommends",
            "installed_part": f" ({installed})" if installed else ""}


DERIVE["omniverse_installed"] = _d_omniverse_driver


# -- [first] round 6: which fix comes first follows the log (docs/explain.md "Which fix comes first").

def cuda_of_torch_build(build: str) -> str:
    """The CUDA of a torch build's local tag: ``2.10.0.dev20251024+cu130`` -> ``13.0``, ``2.1.0+cu118`` -> ``11.8``;
    "" for none. The matcher's ``cudaenv use`` version for a torch build comes from here too."""
    m = re.search(r"\+cu(\d+)(\d)\b", build or "")
    return f"{m.group(1)}.{m.group(2)}" if m else ""


def _d_triton_arch(v: dict, t: LogText, m: re.Match) -> dict:
    """What :func:`_d_arch` says of the architecture Triton's ptxas refused, and what the log says of a
    ptxas that knows it: ``first``, the oldest toolkit whose ptxas compiles it; ``seen_ok``, a CUDA the log
    names (a toolkit, or torch's ``+cuXYZ``) that is one of those toolkits (Triton's own override,
    TRITON_PTXAS_PATH, can then point at it)."""
    out = _d_arch(v, t, m)
    have = toolkits_for_arch(_arch_number(v.get("arch", "")))
    out["first"] = have[0] if have else ""
    out["seen_ok"] = ""
    if have:
        lo, hi = version_key(have[0])[:2], version_key(have[-1])[:2]
        for cuda in (v.get("cuda_seen", ""), cuda_of_torch_build(v.get("torch_build", ""))):
            if cuda and lo <= version_key(cuda)[:2] <= hi:
                out["seen_ok"] = cuda
                break
    return out


def _d_ptx_pin(v: dict, t: LogText, m: re.Match) -> dict:
    """What :func:`_d_ptx` says, and the pin that makes a JIT's NVVM write PTX the driver reads: ``below``,
    the first CUDA whose PTX ISA is newer than the driver's (``current version is '6.1'`` -> 9.2), and
    ``conda_pin``, the conda command that keeps the environment's CUDA under it (``cudatoolkit`` up to
    CUDA 11, conda-forge's ``cuda-version`` from CUDA 12 on)."""
    out = _d_ptx(v, t, m)
    rows = table()["ptx_isa_cuda"]
    have = version_key(v.get("ptxas", ""))
    newer = sorted((isa for isa in rows if version_key(isa) > have), key=version_key)
    below = rows[newer[0]]["cuda"] if newer and have else ""
    out["below"] = below
    if below:
        pkg = "cudatoolkit" if version_key(below)[:2] <= version_key("12.0")[:2] else "cuda-version"
        chan = "" if pkg == "cudatoolkit" else "-c conda-forge "
        out["conda_pin"] = f'conda install {chan}"{pkg}<{below}"'
    else:
        out["conda_pin"] = 'conda install "cudatoolkit=$(nvidia-smi | grep -o "CUDA Version: [0-9.]*" | cut -d" " -f3)"'
    # pip has CUDA compiler wheels from CUDA 11 on, one name per major (nvidia-cuda-nvcc-cu11, -cu12, -cu13)
    driver_cuda = (rows.get(v.get("ptxas", "")) or {}).get("cuda", "")
    major = driver_cuda.split(".")[0]
    out["pip_alt"] = (f" (pip: the `nvidia-cuda-nvcc-cu{major}` of the driver's CUDA {major}.x)"
                      if major.isdigit() and int(major) >= 11 else "")
    return out


DERIVE.update({"triton_arch": _d_triton_arch, "ptx_pin": _d_ptx_pin})


def _d_driver_found(v: dict, t: LogText, m: re.Match) -> dict:
    """torch's "driver ... too old (found version 11040)": the newest CUDA that driver runs (``driver_cuda``,
    11.4) and the torch wheel index a user can install without touching the driver (``torch_tag``, cu118 for it:
    see :func:`_torch_tag_for_driver`); "" when no torch build in the table runs on it."""
    found = v.get("found", "")
    if not found.isdigit() or len(found) < 4:
        return {"driver_cuda": "", "torch_tag": ""}
    cuda = cuda_of_int(found)
    return {"driver_cuda": cuda, "torch_tag": _torch_tag_for_driver(cuda)}


def _torch_tag_for_driver(cuda: str) -> str:
    """The torch wheel index (cu118, cu126...) whose builds a driver running CUDA ``cuda`` at most can run, from
    the torch table of ``data/compat.yaml``; "" when none is that old.

    From CUDA 11.1 on, minor-version compatibility runs any runtime of the driver's major version (11.x from
    driver 450.80.02, 12.x from 525.60.13, 13.x from 580), so the newest build of that major is the one to
    take: it also has wheels for the newest Pythons (an older index such as cu113 stops at torch 1.12, which has
    none for Python 3.11). Before that, a build at or below the driver's CUDA. [round 13] The build of the driver's
    own CUDA, or the newest below it, comes first where that index has torch 2.x (today's Pythons): cu124 for a 12.4
    driver, cu121 for 12.2; it runs without leaning on minor-version compatibility, and a newer index (cu129 for a
    12.4 driver) reads as a contradiction of "this driver runs CUDA 12.4 at most" (andimarafioti/faster-qwen3-tts#113,
    fixed with cu124; nvMolKit#209 on a 12.7 driver with cu126). 11.4 or 11.6 still get cu118 (no torch 2.x index
    at or below them)."""
    tags = {c for ent in table()["torch"].values() for c in (ent.get("cuda") or [])}
    key = version_key(cuda)[:2]
    if key >= version_key("11.1")[:2]:
        two = version_key("2")[0]
        torch2 = {c for r, ent in table()["torch"].items() if version_key(r)[0] >= two for c in (ent.get("cuda") or [])}
        fit = [c for c in torch2 if version_key(c)[0] == key[0] and version_key(c)[:2] <= key]
        if fit:
            return "cu" + max(fit, key=version_key).replace(".", "")
        ok = [c for c in tags if version_key(c)[0] == key[0]]
    else:
        ok = [c for c in tags if version_key(c)[:2] <= key]
    best = max(ok, key=version_key) if ok else ""
    return "cu" + best.replace(".", "") if best else ""


DERIVE["driver_found"] = _d_driver_found


_SMI_CUDA = re.compile(r"CUDA Version:\s*(\d+\.\d+)")


def _d_smi_torch(v: dict, t: LogText, m: re.Match) -> dict:
    """The newest CUDA the driver runs, as the log's own nvidia-smi header says it (``smi_cuda``, "" when the
    log has none), and the torch wheel index whose builds that driver runs (``smi_tag``, see
    :func:`_torch_tag_for_driver`; "" when the driver is older than every build there)."""
    found = _SMI_CUDA.search(t.text) if "CUDA Version" in t.text else None
    if not found:
        return {"smi_cuda": "", "smi_tag": "", "smi_old": ""}
    cuda = found.group(1)
    tag = _torch_tag_for_driver(cuda)
    return {"smi_cuda": cuda, "smi_tag": tag, "smi_old": "" if tag else "yes"}


DERIVE["smi_torch"] = _d_smi_torch


# [r10 frameworks] torch.cuda.is_available() is False and the log shows both the CUDA torch was built for and
# the driver (collect_env's "CUDA used to build PyTorch: 10.2" / a "+cu121" version, and "Nvidia driver version:
# 410.104" / nvidia-smi's "Driver Version:" or "CUDA Version:"): a driver older than torch's CUDA (before CUDA 11
# every minor counts; from 11 on, minor-version compatibility makes only the major count). pytorch/pytorch#37320,
# #30071, #28321 (driver 410, CUDA 10.0 at most, torch for 10.1/10.2), #140947 (driver 550 with a newer toolkit:
# the driver upgrade made it work)
_TORCH_BUILT_CUDA = re.compile(r"CUDA used to build PyTorch: (\d+\.\d+)|\b\d+\.\d+\.\d+\+cu(\d{2,3})\b")
_DRIVER_VERSION = re.compile(r"(?:Nvidia driver version|Driver Version): (\d{3}\.\d+(?:\.\d+)?)")


def _d_torch_driver_gap(v: dict, t: LogText, m: re.Match) -> dict:
    none = {"driver_old": "", "torch_cuda": "", "driver_cuda": "", "driver_alt": "", "need_driver": "", "need_cuda": ""}
    text = t.text
    if "+cu" not in text and "CUDA used to build PyTorch" not in text:
        return none
    tm = _TORCH_BUILT_CUDA.search(text)
    if tm is None:
        return none
    torch_cuda = tm.group(1) or (tm.group(2)[:-1] + "." + tm.group(2)[-1])
    dm = _DRIVER_VERSION.search(text)
    driver_cuda = driver_max_cuda(dm.group(1)) if dm else ""
    if not driver_cuda:
        sm = _SMI_CUDA.search(text)
        driver_cuda = sm.group(1) if sm else ""
    if not driver_cuda:
        return none
    tk, dk = version_key(torch_cuda)[:2], version_key(driver_cuda)[:2]
    old = tk[0] > dk[0] or (tk[0] == dk[0] and tk[0][0] < 11 and tk > dk)
    if not old:
        return none
    need = min_driver(torch_cuda if tk[0][0] < 11 else f"{tk[0][0]}.0") or ""
    tag = _torch_tag_for_driver(driver_cuda)
    alt = (f"`pip install --force-reinstall torch torchvision torchaudio --index-url https://download.pytorch.org/whl/{tag}`"
           if tag else f"an older torch release built for CUDA {driver_cuda} (conda: `conda install pytorch "
                       f"cudatoolkit={driver_cuda} -c pytorch`)")
    return {"driver_old": "yes", "torch_cuda": torch_cuda, "driver_cuda": driver_cuda, "driver_alt": alt,
            "need_cuda": torch_cuda if tk[0][0] < 11 else f"{tk[0][0]}.0",
            "need_driver": f"{need} or newer" if need else f"one that runs CUDA {torch_cuda}"}


DERIVE["torch_driver_gap"] = _d_torch_driver_gap


# -- [compiler] layer (round 6): APIs that a library version removed or added. The symbol a compile
# or link error names decides which library version the code and the build disagree on.
# Sources: cuDNN 8.0 API changes (the non-_v7 cudnnGetConvolution*Algorithm and their preference
# enums removed; opencv/opencv#17496, BVLC/caffe#6970, junluan/shadow#2), cuDNN 9.0 (the legacy
# RNN API removed), CUDA 11.0 cuSPARSE release notes (csrmv/csrmm/csr2csc/hyb legacy API removed;
# NVIDIA/MinkowskiEngine#177), CUDA 12.0 (texture and surface references removed: utcs-scea/altis#24,
# ahay/src#294; cuSPARSE csrsv2/csrsm2 and the CUSPARSE_MV/CSRMV/MM enums removed), CUDA 13.0
# (cudaDeviceProp.clockRate, memoryClockRate, deviceOverlap, kernelExecTimeoutEnabled... removed:
# NVIDIA/cuda-samples#382, icl-utk-edu/magma#61; the whole list is the difference of struct cudaDeviceProp
# in driver_types.h between the CUDA 12.4 and 13.0 toolkits), CUDA 9.0 (warp intrinsics without _sync not
# available for compute_70 and newer). Added: cuDNN v3 (backward-filter algorithms, workspace
# sizes), v5 (spatial transformer, activation/dropout/RNN descriptors), v7 (_v7 queries, math
# type, group count), 8 (backend API); cuSPARSE CUSPARSE_SPMV_* enums (CUDA 11.2 Update 1).
_API_CHANGES = [
    # (family, library, version, symbols)
    ("cudnn8_removed", "cuDNN", "8.0",
     r"cudnnGetConvolution(?:Forward|BackwardData|BackwardFilter)Algorithm|"
     r"CUDNN_CONVOLUTION_(?:FWD|BWD_DATA|BWD_FILTER)_(?:PREFER_FASTEST|SPECIFY_WORKSPACE_LIMIT|NO_WORKSPACE)|"
     r"cudnnConvolution(?:Fwd|BwdData|BwdFilter)Preference_t"),
    ("cudnn9_removed", "cuDNN", "9.0",
     r"cudnnRNNForward(?:Inference|Training)|cudnnRNNBackward(?:Data|Weights)|cudnnSetRNNDescriptor_v6|"
     r"cudnnGetRNN(?:WorkspaceSize|TrainingReserveSize|ParamsSize|LinLayerMatrixParams|LinLayerBiasParams)"),
    ("cusparse11_removed", "cuSPARSE", "CUDA 11.0",
     r"cusparse[SDCZ](?:csrmv|csrmv_mp|csrmm2?|csr2csc|hybmv|csrgemm|csrgeam|dense2hyb|hyb2dense|csr2hyb|hyb2csr|"
     r"csrsv_analysis|csrsv_solve|doti|dotci)|cusparseX(?:csrgemm|csrgeam)Nnz|cusparseCsrmvEx(?:_bufferSize)?|"
     r"cusparse(?:Create|Destroy)HybMat|cusparseHybMat_t|cusparse(?:Create|Destroy)SolveAnalysisInfo|"
     r"cusparseSolveAnalysisInfo_t"),
    ("cusparse12_removed", "cuSPARSE", "CUDA 12.0",
     r"csr(?:sv|sm)2Info_t|cusparse[SDCZ]csr(?:sv|sm)2_\w+|cusparse(?:Create|Destroy)Csr(?:sv|sm)2Info|"
     r"cusparse[SDCZ](?:gemmi|axpyi|gthrz?|sctr|roti)|"
     r"CUSPARSE_(?:MV_ALG_DEFAULT|CSRMV_ALG[12]|COOMV_ALG|MM_ALG_DEFAULT|CSRMM_ALG1|COOMM_ALG[123])"),
    ("texref12_removed", "CUDA runtime", "CUDA 12.0",
     r"texture|surface|cudaBindTexture(?:2D|ToArray|ToMipmappedArray)?|cudaUnbindTexture|cudaGetTextureReference|"
     r"cudaGetTextureAlignmentOffset|cudaBindSurfaceToArray|cudaGetSurfaceReference|__cudaRegister(?:Texture|Surface)|"
     r"textureReference|surfaceReference"),
    ("devprop13_removed", "CUDA runtime", "CUDA 13.0",
     r"clockRate|memoryClockRate|deviceOverlap|kernelExecTimeoutEnabled|computeMode|maxTexture1DLinear|"
     r"cooperativeMultiDeviceLaunch|singleToDoublePrecisionPerfRatio"),
    # CCCL 3.0 (CUDA 13.0) removed the CUB functors deprecated in CCCL 2.x and thrust's
    # unary_function/binary_function (nvidia.github.io/cccl 3.0 migration guide; microsoft/onnxruntime#24774,
    # paboyle/Grid#487, JeffreyXiang/CuMesh#12, facebookincubator/velox#18965).
    ("cccl3_removed", "CCCL (CUB/Thrust)", "CUDA 13.0 (CCCL 3.0)",
     r"Sum|Max|Min|Equality|Inequality|Difference|Division|LaneId|unary_function|binary_function"),
    ("warp9_removed", "CUDA", "CUDA 9.0",
     r"__shfl(?:_up|_down|_xor)?|__any|__all|__ballot"),
    # [t29 build] cuDNN calls whose argument list grew, read from gcc's "too few arguments to function" (code written
    # for an older cuDNN): v5 gave the pooling descriptors a NaN-propagation argument and the filter descriptors a
    # tensor format; v6 gave cudnnSetConvolution2dDescriptor its compute type (the cuDNN 5.0 and 6.0 release notes;
    # old Caffe forks' include/caffe/util/cudnn.hpp: MhLiao/TextBoxes#83, the burned fresh29 l08, built with cuDNN v4;
    # CEA-LIST/N2D2#1 "now mandatory in cuDNN 6.0"; tbennun/cudnn-training#22; rbgirshick/py-faster-rcnn#308 and
    # tianzhi0549/CTPN#75 for the pooling call under cuDNN 5)
    ("cudnn5_signature", "cuDNN", "v5", r"cudnnSetPooling(?:2d|Nd)Descriptor|cudnnSetFilter(?:4d|Nd)Descriptor"),
    ("cudnn6_signature", "cuDNN", "v6", r"cudnnSetConvolution2dDescriptor"),
    ("cudnn3_added", "cuDNN", "v3",
     r"cudnnGetConvolutionBackward(?:Filter|Data)WorkspaceSize|cudnnFindConvolutionBackward(?:Filter|Data)Algorithm|"
     r"cudnnConvolutionBwd(?:Filter|Data)Algo(?:Perf)?_t"),
    ("cudnn5_added", "cuDNN", "v5",
     r"cudnn(?:Create|Destroy)SpatialTransformerDescriptor|cudnnSetSpatialTransformerNdDescriptor|cudnnSpatialTf\w+|"
     r"cudnnSpatialTransformerDescriptor_t|cudnn(?:Create|Set|Destroy)ActivationDescriptor|cudnnActivationDescriptor_t|"
     r"cudnn(?:Create|Set|Destroy)DropoutDescriptor|cudnnDropoutDescriptor_t|cudnnCreateRNNDescriptor|cudnnRNNDescriptor_t"),
    # [l29] cuDNN 6.0 added deterministic max pooling and the tensor reductions (cuDNN 6.0 release notes; Microsoft/CNTK's
    # CuDnnConvolutionEngine.cu with cuDNN 5.1: "identifier CUDNN_POOLING_MAX_DETERMINISTIC is undefined", the burned
    # fresh28 i24, solved by cuDNN 6; tensorflow/tensorflow#9426 for CUDNN_POOLING_MAX_DETERMINISTIC as well)
    ("cudnn6_added", "cuDNN", "v6",
     r"CUDNN_POOLING_MAX_DETERMINISTIC|cudnnReduceTensor|cudnn(?:Create|Set|Get|Destroy)ReduceTensorDescriptor|"
     r"cudnnReduceTensorDescriptor_t|cudnnGetReduction(?:Workspace|Indices)Size|CUDNN_REDUCE_TENSOR_\w+"),
    ("cudnn7_added", "cuDNN", "7",
     r"cudnnGetConvolution(?:Forward|BackwardData|BackwardFilter)Algorithm(?:_v7|MaxCount)|cudnnSetConvolutionMathType|"
     r"cudnnSetConvolutionGroupCount|CUDNN_TENSOR_OP_MATH|cudnnMathType_t|cudnnCTCLoss\w*|cudnnCreateCTCLossDescriptor"),
    ("cudnn8_added", "cuDNN", "8",
     r"cudnnBackend\w+|CUDNN_BACKEND_\w+|cudnnSetRNNDescriptor_v8|cudnnGetRNNTempSpaceSizes|cudnnGetRNNWeightSpaceSize|"
     r"cudnnGetRNNWeightParams|cudnnRNNBackward(?:Data|Weights)_v8"),
    # The toolkit is older than the code: bfloat16 types and CUDA_R_16BF / cublasComputeType_t came with
    # CUDA 11.0 (NVIDIA/apex#1310, solved with CUDA 11.3), FP8 types with CUDA 11.8. Types and enums only:
    # bf16 arithmetic intrinsics (__hfma2, __high2bfloat16) are also missing for GPUs before sm_80 under
    # CUDA 11 (NX-AI/xlstm#50, pytorch/ao#632), another cause.
    # The *_sync warp functions came with CUDA 9.0 (gnina/gnina#20 and uzh-rpg/vilib#17: CUDA 8, solved
    # by upgrading; PaddlePaddle/Paddle#10323).
    # CUDA 8.0 runtime APIs (eyalroz/cuda-api-wrappers#12: an older system libcudart_static found first,
    # solved by -L/usr/local/cuda/lib64); CUDA 10.1's launch sequence (nvcc 10.1+ objects call
    # __cudaPushCallConfiguration (9.2, below), which older libcudart lacks; the reverse of cudart.setup_argument_removed).
    ("cuda80_added", "CUDA", "8.0",
     r"cudaDeviceGetP2PAttribute|cudaMemPrefetchAsync|cudaMemAdvise|cudaMemRangeGetAttributes?"),
    # [r7 build] the launch sequence came with 9.2, not 10.1: clang/lib/Basic/Cuda.cpp (CUDA_USES_NEW_LAUNCH for
    # CUDA >= 9.2; __cudaRegisterFatBinaryEnd for >= 10.1), pytorch/pytorch#17148 (nvcc 9.2, cudatoolkit 9.0).
    ("cuda92_added", "CUDA", "9.2", r"__cudaPushCallConfiguration|__cudaPopCallConfiguration"),
    ("cuda90_added", "CUDA", "9.0",
     r"__shfl(?:_up|_down|_xor)?_sync|__ballot_sync|__any_sync|__all_sync|__syncwarp|__activemask|__match_(?:any|all)_sync"),
    # [r27 t27-build] CUDA graphs' stream-capture modes came with CUDA 10.1 (cudaStreamBeginCapture gained its mode
    # argument): AlexeyAB/darknet#7452 (fresh27 k03, nvcc 10.0: upgrade the toolkit), triton-inference-server/server#635
    # ("That CUDA API was added in 10.1", CUDA 10.0.130), NVIDIA/cuda-samples#14, NVIDIA/nccl-tests#90 (CUDA 10 image).
    ("cuda101_added", "CUDA", "10.1",
     r"cudaStreamCaptureMode(?:Global|ThreadLocal|Relaxed)?|cudaThreadExchangeStreamCaptureMode"),
    ("cuda110_added", "CUDA", "11.0",
     r"CUDA_R_16BF|CUDA_C_16BF|__nv_bfloat162?|"
     r"cublasComputeType_t|CUBLAS_COMPUTE_(?:16F|32F|32F_FAST_16BF|32F_FAST_TF32|64F)"),
    # Stream-ordered allocation came with CUDA 11.2 (NVIDIA/AMGX#276 with CUDA 11.0; NVIDIA/cuda-python#23).
    ("cuda112_added", "CUDA", "11.2",
     r"cudaMallocAsync|cudaFreeAsync|cudaMemPool_t|cudaMallocFromPoolAsync|cudaDeviceGetDefaultMemPool|"
     r"cudaMemPoolSetAttribute|cudaMemPoolTrimTo|cudaMemPoolAttr\w+"),
    # [r36 t40] cudaHostRegisterReadOnly came with CUDA 11.1, cudaStreamGetCaptureInfo_v2 with 11.3 (their release
    # notes): ggml-org/llama.cpp with an older toolkit picked first (the burned fresh40 ah18; llama.cpp checks 11.1)
    ("cuda111_added", "CUDA", "11.1", r"cudaHostRegisterReadOnly"),
    ("cuda113_added", "CUDA", "11.3", r"cudaStreamGetCaptureInfo_v2"),
    ("cuda118_added", "CUDA", "11.8",
     r"__nv_fp8(?:x[24])?_e[45]m[23]|__nv_fp8_storage_t|__nv_fp8_interpretation_t|CUDA_R_8F_E4M3|CUDA_R_8F_E5M2"),
    ("cusparse112_added", "cuSPARSE", "CUDA 11.2 Update 1",
     r"CUSPARSE_SPMV_(?:ALG_DEFAULT|CSR_ALG[12]|COO_ALG[12])"),
]
_API_RX = [(fam, lib, ver, re.compile(rx)) for fam, lib, ver, rx in _API_CHANGES]


def _d_api_change(v: dict, t: LogText, m: re.Match) -> dict:
    """Which library version removed (``*_removed``) or added (``*_added``) the symbol the error names."""
    sym = v.get("symbol", "")
    for fam, lib, ver, rx in _API_RX:
        if rx.fullmatch(sym):
            return {"family": fam, "lib": lib, "changed_in": ver}
    return {"family": "", "lib": "", "changed_in": ""}


DERIVE["api_change"] = _d_api_change


def _d_cmake_lib(v: dict, t: LogText, m: re.Match) -> dict:
    """What a CMake CUDA_<lib>_LIBRARY variable names, in words."""
    lib = v.get("lib") or "cuda"
    return {"what": "libcuda (the driver's library)" if lib == "cuda" else f"the toolkit's lib{lib}"}


DERIVE["cmake_lib"] = _d_cmake_lib


def _d_cudart_static_lib(v: dict, t: LogText, m: re.Match) -> dict:
    """The C library part that defines a symbol libcudart_static.a calls."""
    sym = v.get("symbol", "")
    lib = ("libdl (-ldl)" if sym.startswith("dl") else "librt (-lrt)" if sym.startswith(("shm_", "clock_")) else
           "libpthread (-lpthread)")
    return {"syslib": lib}


DERIVE["cudart_static_lib"] = _d_cudart_static_lib


# [jaxnccl r7] What the stream executor printed beside "Could not create cudnn handle" (XLA/TF
# cuda_dnn.cc: "Memory usage: F bytes free, T bytes total." right after the error, since TF 2.x/XLA
# 2023): the share of GPU memory still free says whether memory or the cuDNN library is the cause.
# TensorFlow's allocator takes nearly all memory at start (a few % stays free); JAX's takes 75% and
# leaves about a quarter (16-25% free in jax-ml/jax#16078, #22533, #17624) for cuDNN and cuBLAS, so
# a failure with >= 10% free is not memory (jax-ml/jax#16078: XLA_PYTHON_CLIENT_PREALLOCATE=false
# did not help, installing cuDNN did; #23145 and #28752 failed with 98% free).
_DNN_MEMORY = re.compile(r"Memory usage: (\d+) bytes free, (\d+) bytes total")
_JAXLIB_CUDNN = re.compile(r"\+cuda(\d+)\.cudnn(\d)(\d+)\b")  # jaxlib's local tag: 0.4.7+cuda11.cudnn86


def _d_dnn_memory(v: dict, t: LogText, m: re.Match) -> dict:
    found = _DNN_MEMORY.search(t.text, m.start()) or _DNN_MEMORY.search(t.text)
    state = free_part = ""
    if found:
        free, total = int(found.group(1)), int(found.group(2))
        if total:
            state = "low" if free < 0.10 * total else "free"
            free_part = (f" The log shows {free / 2**20:.0f} MiB of {total / 2**20:.0f} MiB free when it failed"
                         f" ({100 * free / total:.0f}%).")
    tag = _JAXLIB_CUDNN.search(t.text)
    cudnn = f"{tag.group(2)}.{tag.group(3)}" if tag else ""
    return {"mem_state": state, "mem_part": free_part, "jaxlib_cudnn": cudnn}


DERIVE["dnn_memory"] = _d_dnn_memory


# [jaxnccl r7] The interface NCCL_SOCKET_IFNAME names in a log (an export, a launcher's environment, NCCL's
# "NCCL_SOCKET_IFNAME set by environment to X") and the node addresses the launcher lists (DeepSpeed's
# "Running on the following workers: A,B", MASTER_ADDR): what an interface answer can name.
_IFNAME = re.compile(r"NCCL_SOCKET_IFNAME\s*(?:=|set by environment to|set to)\s*['\"]?([\w.^,:-]+)")
_NODES = re.compile(r"(?:[Ww]orkers?|[Nn]odes?|[Hh]osts?|[Hh]ostfile|master_addr|MASTER_ADDR)\b[^\n]{0,40}?"
                    r"((?:\d{1,3}\.){3}\d{1,3}(?:\s*,\s*(?:\d{1,3}\.){3}\d{1,3})*)")


def _d_nccl_ifname(v: dict, t: LogText, m: re.Match) -> dict:
    found = _IFNAME.search(t.text) if "NCCL_SOCKET_IFNAME" in t.text else None
    nodes = _NODES.search(t.text) if found else None
    listed = ", ".join(dict.fromkeys(x.strip() for x in nodes.group(1).split(","))) if nodes else ""
    return {"ifname": found.group(1) if found else "",
            "nodes_part": f" (the nodes here: {listed})" if listed else ""}


DERIVE["nccl_ifname"] = _d_nccl_ifname


# -- [r8 build] whether the host gcc a log shows is one its CUDA's nvcc supports. data/compat.yaml starts at CUDA 9.0;
# the older limits are the toolkits' own include/host_config.h ([r17b build], NVIDIA/AMGX#9): CUDA 7.0 and 7.5 stop at
# gcc 4.9 ("gcc versions later than 4.9 are not supported!"), CUDA 8.0 at gcc 5.
_OLD_GCC_MAX = {"7.0": "4.9", "7.5": "4.9", "8.0": "5"}

def _d_host_gcc_fit(v: dict, t: LogText, m: re.Match) -> dict:
    """The gcc major of the header path an error names (``/usr/lib/gcc/x86_64-linux-gnu/7/include/...``,
    ``/c++/11/...``) against the newest gcc the CUDA the log names accepts (``data/compat.yaml`` gcc_max):
    ``gcc_fit`` is "yes" (within the toolkit's range), "no" (newer) or "" (either is unknown); ``gcc_max``
    is that newest gcc when the CUDA is known."""
    gcc = v.get("igcc") or v.get("gccv") or ""
    cuda = v.get("cuda_seen") or _nvcc_seen(t)
    row = table()["toolkits"].get(cuda) or {}
    top = str(row["gcc_max"]) if row.get("gcc_max") else _OLD_GCC_MAX.get(cuda, "")
    fit = ""
    if gcc.isdigit() and top:
        fit = "yes" if version_key(gcc) <= version_key(top) else "no"
    return {"gcc_fit": fit, "gcc_max": top, "cuda_of_gcc": cuda if top else ""}


DERIVE["host_gcc_fit"] = _d_host_gcc_fit


# -- [containers-python] round 8 (install): added at the end so parallel edits above do not collide.

def _d_module_name(v: dict, t: LogText, m: re.Match) -> dict:
    """The name of a module without its version, what `module spider`/`module avail` search for:
    ``cuda/11.2`` -> ``cuda``, ``sems-cuda/11.1.0`` -> ``sems-cuda``, a path's last directory name."""
    name = (v.get("module") or "").strip().strip("/")
    parts = [p for p in name.split("/") if p]
    if not parts:
        return {"stem": "cuda"}
    if len(parts) > 2:  # a modulefile path: /opt/intel/impi/2019.8.254/intel64/modulefiles/mpi
        return {"stem": parts[-1]}
    return {"stem": parts[0]}


DERIVE.update({"module_name": _d_module_name})


# -- [r11 pairs] the CUDA a prebuilt library was compiled for bounds the GPUs it has code for. NCCL prints its own
# build ("NCCL version 2.14.3+cuda11.8"); a build for a CUDA whose nvcc stops below Blackwell (sm_max < 100 in
# data/compat.yaml: every CUDA before 12.8) has no kernels for an RTX 50xx or a B200, whatever the driver.
# NCCL's "named symbol not found" on such a GPU: pytorch/pytorch#152077 (fresh11 f40: torch 2.x+cu118's NCCL 2.14.3
# on an RTX 5090, fixed by a cu128 torch).
_NCCL_BUILD = re.compile(r"NCCL version (\d+\.\d+\.\d+)\+cuda(\d+\.\d+)")


def _d_nccl_build(v: dict, t: LogText, m: re.Match) -> dict:
    none = {"nccl_version": "", "nccl_cuda": "", "nccl_sm_max": "", "nccl_before_blackwell": ""}
    if "+cuda" not in t.text:
        return none
    b = _NCCL_BUILD.search(t.text)
    if b is None:
        return none
    row = table()["toolkits"].get(b.group(2)) or {}
    sm_max = row.get("sm_max")
    return {"nccl_version": b.group(1), "nccl_cuda": b.group(2), "nccl_sm_max": f"sm_{sm_max}" if sm_max else "",
            "nccl_before_blackwell": "yes" if sm_max is not None and sm_max < 100 else ""}


DERIVE["nccl_build"] = _d_nccl_build


# -- [r11 pairs] a CUDA test compile that failed (CMake's compiler identification, dlib's "failed to compile a
# simple CUDA program"): the toolkit the log found and the host gcc it shows, checked against the toolkit's
# newest gcc (data/compat.yaml gcc_max, from each toolkit's crt/host_config.h). One side known is enough to
# name the usual cause and the check; both sides known decide it. fresh10 e72 (dlib, apt's CUDA 10.1 with gcc
# 9.4: a newer toolkit fixed it), NVlabs/instant-ngp#707 (nvcc rejected gcc 12 under the same CMake message).
_FOUND_TOOLKIT = re.compile(r'Found CUDA(?:Toolkit)?: [^\n]*?\(found (?:suitable )?version "(\d+\.\d+)|'
                            r"The CUDA compiler identification is NVIDIA (\d+\.\d+)|"
                            r"Cuda compilation tools, release (\d+\.\d+)")
_FOUND_GCC = re.compile(r"The (?:CXX|C) compiler identification is GNU (\d+)\.\d|"
                        r"\bgcc version (\d+)\.\d+(?:\.\d+)? \(|"
                        r"^(?:gcc|g\+\+|c\+\+|cc)(?:-\d+)? \([^\n]*\) (\d+)\.\d+", re.MULTILINE)


def _d_test_compile_pair(v: dict, t: LogText, m: re.Match) -> dict:
    none = {"found_cuda": "", "found_gcc_max": "", "found_gcc": "", "gcc_too_new": "", "gcc_maybe_too_new": ""}
    text = t.text
    if "CUDA" not in text and "Cuda" not in text:
        return none
    f = _FOUND_TOOLKIT.search(text)
    if f is None:
        return none
    cuda = next(g for g in f.groups() if g)
    gcc_max = (table()["toolkits"].get(cuda) or {}).get("gcc_max")
    if gcc_max is None:
        return none
    g = _FOUND_GCC.search(text) if ("GNU" in text or "gcc" in text or "g++" in text) else None
    gcc = next((x for x in g.groups() if x), "") if g else ""
    out = {**none, "found_cuda": cuda, "found_gcc_max": str(gcc_max), "found_gcc": gcc}
    if gcc:
        out["gcc_too_new"] = "yes" if int(gcc) > gcc_max else ""
    elif gcc_max < 11:  # a toolkit older than CUDA 11.5: every distribution's gcc of the last years is newer
        out["gcc_maybe_too_new"] = "yes"
    return out


DERIVE["test_compile_pair"] = _d_test_compile_pair


# -- [r11 pairs] the jaxlib release a log shows (jax.print_environment_info's "jaxlib: 0.4.35", pip's "jaxlib==0.4.35",
# `pip list`'s "jaxlib  0.4.35"): the release JAX's CUDA plugin must match.
_JAXLIB_SEEN = re.compile(r"^\s*jaxlib(?::\s+|==|\s+)(\d+\.\d+\.\d+(?:\.\d+)?)\b", re.MULTILINE)


def _d_jax_set(v: dict, t: LogText, m: re.Match) -> dict:
    if v.get("jaxlib") or "jaxlib" not in t.text:
        return {}
    j = _JAXLIB_SEEN.search(t.text)
    return {"jaxlib_seen": j.group(1)} if j else {}


DERIVE["jax_set"] = _d_jax_set


# -- [r11 pairs] where the code that imported a missing compiled extension lives: a source checkout (the traceback's
# frame is outside site-packages/dist-packages: the checkout shadows the installed package, and its compiled module
# was never built in place) or an installed package (it was installed without compiling its CUDA extension).
# Dao-AILab/flash-attention#933 (a frame in ~/githubRepo/flash-attention), #614 (site-packages).
_IMPORT_FRAME = re.compile(r'File "(?P<path>[^"\n]+?)[/\\](?P<pkg>\w+)[/\\][\w/\\.]*\.py", line \d+')


def _d_ext_where(v: dict, t: LogText, m: re.Match) -> dict:
    before = t.text[:m.start()]
    frames = list(_IMPORT_FRAME.finditer(before[-4000:])) if 'File "' in before else []
    if not frames:
        return {"ext_source_tree": "", "ext_installed": ""}
    f = frames[-1]
    path = f.group("path")
    if re.search(r"[`;&|$<>\x00-\x1f]", path):  # a path is someone else's text: nothing that could run reaches an answer
        return {"ext_source_tree": "", "ext_installed": ""}
    if re.search(r"[/\\](?:site|dist)-packages$|[/\\](?:site|dist)-packages[/\\]", path + "/"):
        return {"ext_source_tree": "", "ext_installed": "yes"}
    return {"ext_source_tree": f"{path}/{f.group('pkg')}", "ext_installed": ""}


DERIVE["ext_where"] = _d_ext_where


# -- [r11 pairs] code written for a newer torch than the one installed: the torch release that added the attribute
# the code looked up (PyTorch release notes: torch.compile and F.scaled_dot_product_attention 2.0; torch.compiler and
# the float8 dtypes 2.1; torch.utils._pytree.register_pytree_node public in 2.2; torch.uint16/32/64 and
# torch.get_default_device 2.3; torch.library.custom_op and register_fake 2.4).
_TORCH_ADDED = {"compile": "2.0", "scaled_dot_product_attention": "2.0", "compiler": "2.1", "float8_e4m3fn": "2.1",
                "float8_e5m2": "2.1", "register_pytree_node": "2.2", "uint16": "2.3", "uint32": "2.3", "uint64": "2.3",
                "get_default_device": "2.3", "custom_op": "2.4", "register_fake": "2.4"}


def _d_torch_added(v: dict, t: LogText, m: re.Match) -> dict:
    return {"torch_needed": _TORCH_ADDED.get(v.get("attr", ""), "")}


DERIVE["torch_added"] = _d_torch_added


# -- [r11 pairs] OpenMMLab's "Please install mmcv>=A, <B." as a pip requirement: version tuples ("(1, 3, 13, 0, 0, 0)",
# open-mmlab/mmcv#2236) written as versions, blanks dropped.
_VERSION_TUPLE = re.compile(r"\((\d+), (\d+), (\d+)(?:, \d+)*\)")


def _d_mmcv_need(v: dict, t: LogText, m: re.Match) -> dict:
    need = _VERSION_TUPLE.sub(lambda x: ".".join(x.groups()), v.get("need", ""))
    return {"need_spec": re.sub(r"\s+", "", need)}


DERIVE["mmcv_need"] = _d_mmcv_need


# -- [r11 pairs] the platform a conda solve ran for, from its "Current channels:" list (…/osx-64, …/win-32,
# …/linux-aarch64): CUDA packages exist for some platforms only.
_CONDA_SUBDIR = re.compile(r"https?://(?:conda\.anaconda\.org|repo\.anaconda\.com)/[\w./-]+?/((?:linux|osx|win)-\w+)\b")


def _d_conda_subdir(v: dict, t: LogText, m: re.Match) -> dict:
    s = _CONDA_SUBDIR.search(t.text, m.end()) if "anaconda" in t.text else None
    return {"subdir": s.group(1) if s else ""}


DERIVE["conda_subdir"] = _d_conda_subdir


# -- [l29] JCuda's native libraries carry their version in the file name ("JCublas2-0.8.0-windows-x86_64",
# "JCudaDriver-12.0.0-linux-x86_64", "JCudaRuntime-0.9.0d-..."), and each JCuda release is built for one CUDA release:
# JCuda X.Y.Z for CUDA X.Y from 10.0 on, 0.M.N(letter) for CUDA M.N before (the maintainer's rule, jcuda/jcuda#34:
# "When you have CUDA X.Y.(Z), then you should use JCuda X.Y.Z").
_JCUDA_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)[a-z]?")


def _d_jcuda_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    j = _JCUDA_VERSION.fullmatch(v.get("jver") or "")
    if not j:
        return {"jcuda_cuda": ""}
    major, minor, patch = (int(x) for x in j.groups())
    return {"jcuda_cuda": f"{minor}.{patch}" if major == 0 else f"{major}.{minor}"}


DERIVE["jcuda_cuda"] = _d_jcuda_cuda


# -- [build] round 11: added at the end so parallel edits above do not collide.

_NVCC_PATH_RX = re.compile(r"(?<![\w./+-])(/[\w./+-]*/nvcc)(?![\w./+-])")


def _d_libdevice_nvcc(v: dict, t: LogText, m: re.Match) -> dict:
    """The nvcc a build ran, when the log names it by path (``command '/usr/bin/nvcc' failed``, CMake's
    ``Check for working CUDA compiler: /usr/bin/nvcc``) and it is not a toolkit's own bin/nvcc; else the words the
    entry's defaults give."""
    for found in _NVCC_PATH_RX.finditer(t.text):
        if not re.search(r"/cuda[\w.-]*/bin/nvcc$", found.group(1)):  # a toolkit's own nvcc is not the stray one
            return {"nvcc": found.group(1)}
    return {}


DERIVE["libdevice_nvcc"] = _d_libdevice_nvcc


# -- [r12 net] A RoCE GID table a log shows (ibv_devinfo -v's "GID[  3]: ::ffff:10.0.0.1, RoCE v2", show_gids' rows
# "mlx5_0 1 3 0000:...:ffff:0a00:0001 10.0.0.1 v2 eth0") decides NCCL_IB_GID_INDEX: the RoCE v2 entry that carries the
# node's IPv4 address (IPv4-mapped, ::ffff:a.b.c.d) is routed; a link-local one (fe80::) is not. NVIDIA/nccl#769
# (fresh12 g43: index 1 = fe80 link-local timed out, 3 worked; maintainer: "the link-local address ... isn't properly
# routed"), NVIDIA/nccl#426 and NVIDIA/nccl-tests#24 (3), NVIDIA/nccl#1538 (7: its v2 IPv4 row).
_GID_DEVINFO = re.compile(r"GID\[\s*(\d+)\]:\s*([0-9A-Fa-f:.]+),\s*RoCE v([12])")
_GID_SHOW = re.compile(r"(?m)^\s*\w+\s+\d+\s+(\d+)\s+([0-9a-f]{4}(?::[0-9a-f]{4}){7})\s+(?:\d{1,3}(?:\.\d{1,3}){3}\s+)?v([12])\b")
_GID_USED = re.compile(r"(?i:NCCL_IB_GID_INDEX\s*(?:=|set by environment to)\s*|GID index (?:to |= ?)?)(\d+)\b")


def _gid_ipv4(gid: str) -> bool:
    g = gid.lower()
    return g.startswith("::ffff:") or g.startswith("0000:0000:0000:0000:0000:ffff:")


def _d_roce_gid(v: dict, t: LogText, m: re.Match) -> dict:
    none = {"gid_v2": "", "gid_used": "", "gid_used_part": ""}
    if "GID[" not in t.text and "ffff" not in t.text:
        return none
    rows = [(int(i), g, ver) for i, g, ver in _GID_DEVINFO.findall(t.text)]
    rows += [(int(i), g, ver) for i, g, ver in _GID_SHOW.findall(t.text)]
    v2 = sorted(i for i, g, ver in rows if ver == "2" and _gid_ipv4(g))
    if not v2:
        return none
    used = _GID_USED.search(t.text)
    part = ""
    if used and int(used.group(1)) != v2[0]:
        kind = {i: g for i, g, _ in rows}.get(int(used.group(1)), "")
        what = " (a link-local fe80:: address, which is not routed)" if kind.lower().startswith("fe80") else ""
        part = f" instead of {used.group(1)}{what}"
    return {"gid_v2": str(v2[0]), "gid_used": used.group(1) if used else "", "gid_used_part": part}


DERIVE["roce_gid"] = _d_roce_gid


# -- [r13 build] a prebuilt library linked against another CUDA: ld's "libX.so: undefined reference to
# `cudaFree@libcudart.so.9.0'" names the soname it was built with. Up to CUDA 10 a soname's major.minor is the CUDA
# release (libcudart.so.9.0 = CUDA 9.0); from CUDA 11 a soname names a major only (components.yaml `sonames`).
_VERSIONED_UNDEF = re.compile(r"(?<![\w.+-])((?!lib(?:cudart|cublas\w*|cufft\w*|curand|cusparse\w*|cusolver\w*|cudnn\w*|cupti|nvrtc\w*|nvJitLink|nvToolsExt|nvjpeg|npp\w*|nccl)\.so)[\w+-]+\.so[\d.]*): undefined reference to `\w+@(lib(\w+?)\.so\.(\d+(?:\.\d+)?))(?!\w)")


def _d_prebuilt_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    """The CUDA release a prebuilt library was linked against, from the versioned sonames its undefined symbols name."""
    libs = libraries()
    users: list[str] = []
    sonames: list[str] = []
    for mm in _VERSIONED_UNDEF.finditer(t.text):
        if mm.group(1) not in users:
            users.append(mm.group(1))
        if mm.group(2) not in sonames:
            sonames.append(mm.group(2))
    stem = _stem(v.get("lib", "cudart"))
    ver = v.get("ver", "")
    row = libs.get(stem) or {}
    major = ver.split(".")[0]
    exact = ""
    if "." in ver and major.isdigit() and int(major) <= int(row.get("versioned_until") or 0):
        exact = ver
        built = f"CUDA {ver}"
    else:
        built = ((row.get("sonames") or {}).get(major) or {}).get("cuda") or f"{row.get('label', stem)} {ver}"
    other = ""
    seen = v.get("cuda_seen", "")
    if seen and exact and seen != exact:
        other = f" The log shows CUDA {seen} here."
    shown = users[:3] or [v.get("user", "the library")]
    user = v.get("user", "")
    # the directory only when it is plain path characters: a log's path with shell syntax never reaches an answer
    where = re.search(r"(?<!\S)([\w./+-]*/)" + re.escape(user) + ": undefined reference", t.text) if user else None
    return {"user_path": (where.group(1) + user) if where else user,
            "built_cuda": built, "sonames": ", ".join(sonames[:4]) or v.get("soname", ""), "exact_ver": exact,
            "users": ", ".join(shown), "s_users": "" if len(shown) > 1 else "s", "other_part": other}


DERIVE["prebuilt_cuda"] = _d_prebuilt_cuda


# -- [r13 machine]

_UVM_VERSIONED = re.compile(r"nvidia[-_](\d{3})((?:[-_]updates)?)[-_]uvm\b")


# [p24 c] kmod's "could not insert 'M': Unknown symbol in module" is init_module refusing a module modprobe did find:
# the name resolved, and M was built for another kernel or against another build of the nvidia module
# (tensorflow/tensorflow#5473: nvidia_367_uvm refused after an update, "it worked fine yesterday"; reinstalling the
# driver fixed it). The name alias of Ubuntu's versioned packages answers a module modprobe cannot find or place
# (Bumblebee-Project/Bumblebee#623 "No such device", NVlabs/nvbio-gpl#7 "Function not implemented"), not this.
_UVM_REFUSED = re.compile(r"could not insert '(nvidia[-_]\d{3}(?:[-_]updates)?[-_]uvm)': Unknown symbol in module")


def _d_uvm_versioned(v: dict, t: LogText, m: re.Match) -> dict:
    """Ubuntu's versioned driver packages name the unified-memory module after the package (nvidia-331-updates-uvm,
    module nvidia_331_updates_uvm): the module and package name the log shows, "" when it shows none; and the
    driver's package and the module, when the log shows the kernel refusing to load it (``uvm_refused``)."""
    found = _UVM_VERSIONED.search(t.text) if "uvm" in t.text else None
    if not found:
        return {"uvm_module": "", "uvm_pkg": ""}
    branch, upd = found.group(1), "-updates" if found.group(2) else ""
    out = {"uvm_module": f"nvidia_{branch}{upd.replace('-', '_')}_uvm", "uvm_pkg": f"nvidia-{branch}{upd}-uvm"}
    refused = _UVM_REFUSED.search(t.text) if "Unknown symbol in module" in t.text else None
    if refused:
        out.update({"uvm_refused": refused.group(1), "uvm_driver_pkg": f"nvidia-{branch}{upd}"})
    return out


DERIVE["uvm_versioned"] = _d_uvm_versioned


_HOOK_MODE = re.compile(r"Auto-detected mode as '(\w+)'")


def _d_hook_mode(v: dict, t: LogText, m: re.Match) -> dict:
    """The NVIDIA runtime mode the log shows ("Auto-detected mode as 'csv'"); the entry's default words otherwise."""
    found = _HOOK_MODE.search(t.text) if "Auto-detected mode" in t.text else None
    return {"mode": found.group(1)} if found else {}


DERIVE["hook_mode"] = _d_hook_mode

# -- [r13 frameworks] JAX's CUDA libraries come as nvidia-* pip wheels of one CUDA 12 minor; a driver older than that
# minor fails in cuSOLVER's handle creation (jax-ml/jax#21950: 12.5 wheels on a 12.4 driver, solved by
# "nvidia-cuda-nvcc-cu12<12.5"). The driver's CUDA as the log's nvidia-smi shows it, and the pin below its next minor.
def _d_jax_wheel_pin(v: dict, t: LogText, m: re.Match) -> dict:
    found = _SMI_CUDA.search(t.text) if "CUDA Version" in t.text else None
    if not found or not found.group(1).startswith("12."):
        return {"smi_cuda": "", "wheel_below": ""}
    minor = int(found.group(1).split(".")[1])
    return {"smi_cuda": found.group(1), "wheel_below": f"12.{minor + 1}"}


DERIVE["jax_wheel_pin"] = _d_jax_wheel_pin


# -- [r13 frameworks] numba's NVVM offers no architecture when the CUDA runtime it loads gives no usable version: a
# conda cudatoolkit newer than the driver (numba/numba#6226: cudatoolkit=11.0 on a CUDA 10.2 driver), no cudart at
# all. The log's cudatoolkit pin and the CUDA it names otherwise (the driver's, nvidia-smi's).
_CTK_PIN = re.compile(r"\bcudatoolkit\s*(?:=|==|\s)\s*(\d+\.\d+)")


def _d_numba_ctk(v: dict, t: LogText, m: re.Match) -> dict:
    none = {"ctk": "", "ctk_other": ""}
    if "cudatoolkit" not in t.text:
        return none
    pin = _CTK_PIN.search(t.text)
    if not pin:
        return none
    ctk = pin.group(1)
    smi = _SMI_CUDA.search(t.text)
    other = smi.group(1) if smi else ""
    if not other:
        for cm in re.finditer(r"\bCUDA\s+(\d+\.\d+)\b", t.text):
            if cm.group(1) != ctk:
                other = cm.group(1)
                break
    if other and version_key(other)[:2] < version_key(ctk)[:2]:
        return {"ctk": ctk, "ctk_other": other}
    return {"ctk": ctk, "ctk_other": ""}


DERIVE["numba_ctk"] = _d_numba_ctk


# -- [r13 frameworks] TensorFlow's and XLA's CUDA stubs (tsl cudart_stub.cc) open the CUDA runtime the build was made
# for by its versioned name and answer every call with "<symbol> symbol not found" when that fails: the CUDA a build
# from source was made with, as the log names it ("built jaxlib from source with cuda 11.6.2": jax-ml/jax#11828).
_BUILT_FROM_SOURCE = re.compile(r"(?i)\b(?:built|build|building|compiled)\b[^\n]{0,80}?\bfrom source\b")
_NAMED_CUDA = re.compile(r"(?i)\bcuda[ -]?(?:toolkit[ -])?v?(\d{1,2}\.\d)(?:\.\d+)?\b")


def _d_stub_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    if "source" not in t.text or not _BUILT_FROM_SOURCE.search(t.text):
        return {"built_cuda": ""}
    found = _NAMED_CUDA.search(t.text)
    return {"built_cuda": found.group(1) if found else ""}


DERIVE["stub_cuda"] = _d_stub_cuda


# -- [r13 frameworks] PyG's wheels (torch-scatter, torch-sparse, torch-cluster, pyg-lib) come from one page per torch
# release and CUDA build (pytorch-geometric.com/whl/torch-1.8.0+cu111.html, data.pyg.org/whl/...): the page the log
# installed from, and the package (rusty1s/pytorch_scatter#211: a +cu111 page under a +cu102 torch).
_PYG_PAGE = re.compile(r"(?:pytorch-geometric\.com|data\.pyg\.org)/whl/torch-(\d+\.\d+\.\d+)\+(cu\d+|cpu)\.html")
_PYG_PKG = re.compile(r"\bpip3? install\b[^\n]*?\b(torch[-_](?:scatter|sparse|cluster|spline[-_]conv)|pyg[-_]lib)\b")


def _d_pyg_page(v: dict, t: LogText, m: re.Match) -> dict:
    if "/whl/torch-" not in t.text:
        return {"pyg_torch": "", "pyg_cuda": "", "pyg_pkg": ""}
    page = _PYG_PAGE.search(t.text)
    if not page:
        return {"pyg_torch": "", "pyg_cuda": "", "pyg_pkg": ""}
    pkg = _PYG_PKG.search(t.text)
    return {"pyg_torch": page.group(1), "pyg_cuda": page.group(2), "pyg_pkg": pkg.group(1) if pkg else "torch-scatter"}


DERIVE["pyg_page"] = _d_pyg_page


# -- [r13 frameworks] conda took pytorch's CPU build although the release has a build for the cudatoolkit the request
# names (pytorch 1.11 and cudatoolkit=11.3: meta-pytorch/data#315): then the CUDA pair is not what failed, something in
# the request forced pytorch-mutex to cpu; when the pair does not exist (1.10 with 10.1: conda/conda#11001), it is.
def _d_conda_pair(v: dict, t: LogText, m: re.Match) -> dict:
    ver = v.get("ver") or ""
    req = _CTK_PIN.search(t.text) if "cudatoolkit" in t.text else None
    if not ver or not req:
        return {"pair_ok": ""}
    minor = ".".join(ver.split(".")[:2])
    ent = table()["torch"].get(minor) or {}
    return {"pair_ok": "yes" if req.group(1) in (ent.get("cuda") or []) else ""}


DERIVE["conda_pair"] = _d_conda_pair


# -- [r14 boundaries]
#: A CUDA toolkit version the log names as the user's (not the driver's): a toolkit path (`/usr/local/cuda-11.8`), the
#: prose "CUDA 11.1" / "CUDA Toolkit 12.4", CMake's "CUDA detected: 11.0", nvcc's "release 9.1". nvidia-smi's "CUDA
#: Version: 12.2" (the driver's newest) and a torch build's +cu118 are not read: neither is a toolkit on this machine.
_NAMED_CUDA = re.compile(r"(?<![\w.+-])(?:cuda-|CUDA[ _]?(?:[Tt]oolkit )?v?|[Cc]uda (?:[Tt]oolkit )?v?|CUDA detected: |"
                         r"[Cc]ompilation (?:tools, )?release (?:is )?)(\d{1,2}\.\d)(?![\d])(?!\.\d+\.\d)")


_FERMI_ARCHS = ("sm_20", "sm_21", "compute_20")


def _d_arch_named(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_arch`, and ``named_cuda``: the newest toolkit version the log names that compiles for the architecture
    nvcc refused (so the nvcc that ran is another, older copy found first), with ``ran_cuda``, a named version that
    does not (the copy that ran, when the log shows it). liruiw/OMG-Planner#9 ("CUDA 11.1", compute_86: CUDA_HOME at
    the 11.1 toolkit fixed it), AlexeyAB/darknet#471 ("CUDA 9.1", compute_61: an older CUDA < 8 was still first),
    NVIDIA/cuda-samples#367 (12.9 installed, compute_100 refused by a 12.0 nvcc)."""
    out = _d_arch(v, t, m)
    out["named_cuda"] = out["ran_cuda"] = out["fermi_named"] = ""
    have = toolkits_for_arch(_arch_number(v.get("arch", "")))
    if not have and not out["distro_nvcc"] and v.get("arch", "") in _FERMI_ARCHS:
        # [r27 t27-build] Fermi is older than the tables (CUDA 3.0-8.0; 9.0 dropped it): a CUDA up to 8.0 the log names
        # compiles for it, so the nvcc that refused it is a second, newer toolkit (opencv/opencv#12786, fresh27 k66:
        # `nvcc --version` 7.5 from Ubuntu's package, CUDA 10.0 installed, compute_20 refused)
        lo, hi = version_key("3.0")[:2], version_key("8.0")[:2]
        fermi = sorted((x for x in set(_NAMED_CUDA.findall(t.text)) if lo <= version_key(x)[:2] <= hi), key=version_key)
        out["fermi_named"] = fermi[-1] if fermi else ""
        return out
    if not have or out["distro_nvcc"]:
        return out
    sm = _arch_number(v.get("arch", ""))
    # the tables start at CUDA 9.0: the first release of an older architecture (Pascal came with 8.0)
    first = sm_first_before_rows().get(sm or 0, have[0])
    lo, hi = version_key(first)[:2], version_key(have[-1])[:2]
    named = {x for x in _NAMED_CUDA.findall(t.text)}
    ok = sorted((x for x in named if lo <= version_key(x)[:2] <= hi), key=version_key)
    older = sorted((x for x in named if version_key(x)[:2] < lo), key=version_key)
    if ok:
        out["named_cuda"] = ok[-1]
        out["ran_cuda"] = older[-1] if older else ""
    return out


DERIVE["arch_named"] = _d_arch_named


# -- [r27 t27-build] clang before 11 stops at a CUDA newer than it knows (data/compat.yaml clang_cuda_newest, from
# clang's own Cuda.h; [r28 lead] read from the reviews that added each release, which showed clang 10 stops at 10.1 like
# clang 9: AdaptiveCpp/AdaptiveCpp#344, clang-10 reading CUDA 11.1 as 7.0). Its refusal reads like a missing toolkit
# ("cannot find libdevice for sm_52"): kokkos/kokkos#1518 (fresh27 k06: clang 6 with CUDA 9.1, "CUDA 9.0 with Clang 6
# or a newer Clang"), fireice-uk/xmr-stak#623 (clang with CUDA 9: "your clang version is not supporting cuda9 ... roll
# back cuda to 8.0").
_CLANG_MAJOR = re.compile(r"(?<![\w.-])clang(?:\+\+)?-(\d{1,2})(?:\.0)?:|(?<![\w.-])clang version (\d{1,2})\.\d")


def _d_clang_cuda_max(v: dict, t: LogText, m: re.Match) -> dict:
    """``clang_major`` and ``clang_cuda``, the newest CUDA it compiles with, when the log names a clang that refuses a
    newer CUDA (before 11) by its binary (``clang-6.0:``) or ``clang version N``; else ""."""
    hit = _CLANG_MAJOR.search(t.text) if "clang" in t.text else None
    major = int(hit.group(1) or hit.group(2)) if hit else 0
    top = clang_cuda_newest(major) or ""
    return {"clang_major": str(major) if top else "", "clang_cuda": top}


DERIVE["clang_cuda_max"] = _d_clang_cuda_max


# -- [r14 producers] the producer in the log decides which of ITS settings a "not found" answer names first
# (knowledge/producers.yaml: producer -> the literals that show it -> the setting it reads for nvcc, the toolkit, cuDNN,
# TensorRT, ptxas, libdevice). OpenMM reads OPENMM_CUDA_COMPILER and never CUDA_HOME (openmm/openmm#1352, #2851,
# #2954, #2779); onnxruntime's build.sh reads --cuda_home/--cudnn_home (microsoft/onnxruntime#1777,
# triton-inference-server/onnxruntime_backend#33); TensorRT's OSS build reads TRT_LIB_DIR (NVIDIA/TensorRT#42, #85).
def producers() -> dict:
    """The producer table (``knowledge/producers.yaml``): name -> label, detect literals, settings per part."""
    return knowledge_table("producers.yaml")["producers"]


def producer_for(t: LogText, part: str) -> tuple[str, dict] | None:
    """The first producer of the table that the log shows and that has its own setting for ``part`` (with the line
    to paste, ``set``)."""
    low = t.text.lower()
    for name, row in producers().items():
        if (row.get(part) or {}).get("set") and any(d in low for d in row["detect"]):
            return name, row
    return None


def _other_nvcc(t: LogText, missing: str) -> str:
    """An nvcc path the log shows elsewhere than the missing one (a toolkit's own ``.../bin/nvcc``)."""
    missing = missing.rstrip("/")
    for found in _NVCC_PATH_RX.finditer(t.text):
        p = found.group(1)
        if p.endswith("/bin/nvcc") and not p.startswith(missing) and not missing.startswith(p.rsplit("/", 1)[0]):
            return p
    return ""


def _d_producer_nvcc(v: dict, t: LogText, m: re.Match) -> dict:
    hit = producer_for(t, "nvcc")
    if not hit or hit[0] == "cmake":  # CMake's CUDACXX has its own entry (cmake.no_cuda_compiler)
        return {"setting_name": "", "setting_producer": "", "setting_fix": ""}
    _, row = hit
    nvcc = _other_nvcc(t, v.get("path") or "") or '"$(which nvcc)"'
    return {"setting_name": row["nvcc"]["name"], "setting_producer": row["label"],
            "setting_fix": row["nvcc"]["set"].replace("{nvcc}", nvcc)}


DERIVE["producer_nvcc"] = _d_producer_nvcc


def _d_producer_tensorrt(v: dict, t: LogText, m: re.Match) -> dict:
    hit = producer_for(t, "tensorrt")
    if not hit:
        return {"setting_name": "", "setting_producer": "", "setting_fix": ""}
    row = hit[1]
    return {"setting_name": row["tensorrt"]["name"], "setting_producer": row["label"],
            "setting_fix": row["tensorrt"]["set"]}


DERIVE["producer_tensorrt"] = _d_producer_tensorrt


def _d_trt_dir_producer(v: dict, t: LogText, m: re.Match) -> dict:
    """cmake.tensorrt_not_found: the TensorRT directory the log shows and the setting its producer reads."""
    out = DERIVE["trt_dir"](v, t, m)
    out.update(_d_producer_tensorrt(v, t, m))
    return out


# onnxruntime's build.py prints which of its two roots is invalid: "cuda_home='/usr/local/cuda' valid=True.
# cudnn_home='None' valid=False"; the one that is False decides the flag the answer names first.
def _d_ort_home(v: dict, t: LogText, m: re.Match) -> dict:
    if not v.get("cuda_ok"):
        return {"ort_bad": "cudnn"}  # the message alone: cuDNN's root is the one people leave out
    cuda_ok = (v.get("cuda_ok") or "").lower() == "true"
    cudnn_ok = (v.get("cudnn_ok") or "").lower() == "true"
    if cuda_ok and not cudnn_ok:
        return {"ort_bad": "cudnn"}
    return {"ort_bad": "cuda" if cudnn_ok else "both"}


DERIVE["ort_home"] = _d_ort_home


# cudarc's build script names the toolkit version it does not know as CUDA_VERSION's integer (`12050`) or major.minor
# (`12.6`): the version, as people say it (chelsea0x3b/cudarc#236, #245, #306; huggingface/candle#2192, #2210).
def _d_gate_version(v: dict, t: LogText, m: re.Match) -> dict:
    raw = v.get("found") or ""
    ver = cuda_of_int(raw) if re.fullmatch(r"\d{4,5}", raw) else ".".join(raw.split(".")[:2])
    crate = re.search(r"cudarc[- ]v?(\d+\.\d+\.\d+)", t.text)
    if not re.fullmatch(r"\d+\.\d+", ver or ""):
        return {"found_cuda": "", "older_cuda": "", "crate_version": crate.group(1) if crate else ""}
    major, minor = (int(x) for x in ver.split("."))
    older = f"{major}.{minor - 1}" if minor > 0 else ""
    return {"found_cuda": ver, "older_cuda": older, "crate_version": crate.group(1) if crate else ""}


DERIVE["gate_version"] = _d_gate_version


# A project's minimum said as a bare major ("at least \"10\""): `cudaenv use 10` takes the newest 10.x installed, an
# install needs a release (BachiLi/diffvg#79).
def _d_gate_need(v: dict, t: LogText, m: re.Match) -> dict:
    need = v.get("need") or ""
    if not re.fullmatch(r"\d+(?:\.\d+)*", need):
        return {"need_release": ""}
    return {"need_release": need if "." in need else need + ".0"}


DERIVE["gate_need"] = _d_gate_need



# -- [r14 headers] which component ships a header the compiler could not open (components.yaml `headers`), and
# the facts of the log that decide how to get it: a CUDA version for a toolkit part's -dev package, an unpacked
# TensorRT directory, a vendored copy's directory in the build's -I flags.

def header_owners() -> dict:
    """The header table (``knowledge/components.yaml`` ``headers``): name or path prefix -> what ships it."""
    return knowledge_table("components.yaml").get("headers") or {}


def header_owner(header: str) -> dict | None:
    """The row of :func:`header_owners` for ``header`` (``NvInferRuntime.h``, ``cutlass/gemm/gemm.h``): the
    longest listed name or prefix it starts with, compared without case for the file name; None when no row."""
    table = header_owners()
    h = header.replace("\\", "/").lstrip("./")
    for key in sorted(table, key=len, reverse=True):
        if h.startswith(key) or h.lower().startswith(key.lower()):
            return table[key]
    return None


def _path_ending(text: str, tail: str) -> str:
    """The absolute path in ``text`` whose end matches ``tail`` (a regex with a literal), read back from the match to
    the start of the path; "" when none. Found by the tail, not by a path pattern tried at every slash (a megabyte
    log of long paths)."""
    for m in re.finditer(tail, text):
        start = m.start()
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._/+-"):
            start -= 1
        path = text[start:m.end()]
        path = path[path.rfind("-I/") + 2:] if "-I/" in path else path  # a compiler flag glued to the path
        if path.startswith("/"):
            return path
    return ""


def _trt_dir(text: str) -> str:
    """An unpacked TensorRT (its tar's TensorRT-X.Y.Z directory) the log names as an absolute path, else ""."""
    return _path_ending(text, r"TensorRT-\d+(?:\.\d+)+(?=[/\s'\")]|$)") if "TensorRT-" in text else ""


def _cuda_dash(version: str) -> str:
    """A CUDA version as NVIDIA's package names write it (12.4 -> 12-4); "" when ``version`` is none."""
    mm = re.match(r"(\d+)\.(\d+)", version)
    return f"{mm.group(1)}-{mm.group(2)}" if mm else ""


def _d_header_owner(v: dict, t: LogText, m: re.Match) -> dict:
    row = header_owner(v.get("header", "")) or {}
    ver = _cuda_dash(v.get("cuda_seen", "") or _nvcc_seen(t)) or "12-4"
    # an unpacked TensorRT (its tar: TensorRT-8.6.1.6/) the log names: the build is pointed at it, not reinstalled
    trt = _trt_dir(t.text)
    # a vendored copy the build's -I flags name (third_party/cutlass/include): the submodule is empty
    vend = _path_ending(t.text, r"/(?:third_party|3rdparty|dependencies|deps|external|csrc|submodules)/cutlass(?=/include)")
    return {"owner": row.get("label", "a library"), "hkind": row.get("kind", ""),
            "apt": (row.get("apt") or "").replace("{ver}", ver), "conda": row.get("conda") or "",
            "pip": row.get("pip") or "", "setting": row.get("setting") or "",
            "cuda_dash": ver, "trt_dir": trt, "vendored": vend}


DERIVE["header_owner"] = _d_header_owner


def _d_trt_dir(v: dict, t: LogText, m: re.Match) -> dict:
    """An unpacked TensorRT (its tar's TensorRT-X.Y.Z directory) the log names, else ""."""
    # what the title names: the capture, else the variable CMake reported (the match's first word)
    shown = v.get("what") or m.group(0).split()[0].replace("-NOTFOUND", "")
    return {"trt_dir": _trt_dir(t.text), "shown": shown}


DERIVE["trt_dir"] = _d_trt_dir


# The development package of NVIDIA's CUDA repository that holds a toolkit part's header, by the part's header stem
# ({v} = 10-0, 12-4). Sources: the repository's package lists (cuda-nvrtc-dev-X-Y since CUDA 9.0; the math libraries
# moved from cuda-<lib>-dev-X-Y to lib<lib>-dev-X-Y with CUDA 11.0, cuBLAS with 10.1; cuda-cudart-dev-X-Y;
# cuda-nvtx-X-Y; CUB and Thrust in cuda-cccl-X-Y since 11.0), and pytorch/pytorch#19666 (cuda-nvrtc-dev-10-0 holds
# nvrtc.h, libnvrtc's runtime package none), mudler/LocalAI#10257 (cuda-nvrtc-dev-13-0 for nvrtc.h).
_DEV_PACKAGE = {"nvrtc": "cuda-nvrtc-dev-{v}", "cuda_runtime": "cuda-cudart-dev-{v}", "cuda": "cuda-cudart-dev-{v}",
                "nvToolsExt": "cuda-nvtx-{v}", "nvtx3": "cuda-nvtx-{v}", "cub": "cuda-cccl-{v}", "thrust": "cuda-cccl-{v}",
                "cublas": "lib{lib}-dev-{v}", "cusparse": "lib{lib}-dev-{v}", "cufft": "lib{lib}-dev-{v}",
                "curand": "lib{lib}-dev-{v}", "cusolver": "lib{lib}-dev-{v}"}


def _d_header_dev(v: dict, t: LogText, m: re.Match) -> dict:
    """``header``'s facts, and the -dev package of the CUDA the log names that ships the header ("" when unknown)."""
    out = _d_header(v, t, m)
    h = v.get("header", "")
    stem = "cuda_runtime" if h.startswith("cuda_runtime") else re.split(r"[._/]", h)[0]
    dash = _cuda_dash(v.get("cuda_seen", ""))
    dev = ""
    if dash and stem in _DEV_PACKAGE:
        major, minor = (int(x) for x in dash.split("-"))
        form = _DEV_PACKAGE[stem]
        if form.startswith("lib") and (major < 11 and not (stem == "cublas" and (major, minor) >= (10, 1))):
            form = "cuda-{lib}-dev-{v}"
        dev = form.format(lib=stem, v=dash)
    out["devpkg"] = dev
    # the log shows the header is on no toolkit here: the user says so, `ls` cannot access it, or only a distribution's
    # runtime package of the library is installed (literals first: this runs on megabyte logs)
    text = t.text
    absent = ""
    if dev and ("here is no" in text or "cannot access" in text or "installed lib" in text):
        absent = "1" if re.search(r"[Tt]here is (?:not|no) (?:any )?[\w/]+\.h\b[^\n]{0,25}\b(?:system|machine|anywhere)|"
                                  r"cannot access '?[^'\n]*include/[\w/]+\.h|"
                                  r"installed lib(?:nvrtc|cusparse|cublas|cufft|curand|cusolver)\d", text) else ""
    out["absent"] = absent
    return out


DERIVE["header_dev"] = _d_header_dev


DERIVE["trt_dir_producer"] = _d_trt_dir_producer  # [r14 merge] defined beside producer_tensorrt, registered after trt_dir



# -- [r14 machine] the driver-vs-CUDA pair from any producer's wording. The CUDA a process needs: the value the
# entry captured (nvidia-container-cli's `cuda>=X`, nvidia-docker 1.0's `driver 8.0 < image 9.0.176`), else the
# newest the log names for the image or runtime (an `nvidia/cuda:X` tag, CUDA_VERSION, nvcc's `release X` inside
# the container). The driver the machine has: nvidia-smi's `Driver Version: N` (or /proc/driver/nvidia/version's
# `Kernel Module  N`), and the newest CUDA it runs: nvidia-smi's `CUDA Version: X`, the producer's own number, or
# data/compat.yaml's driver_max_cuda for the driver branch. Its minimum driver for the needed CUDA comes from the
# same table (min_driver). Threads: NVIDIA/nvidia-docker#497, #177, #207, h2oai/h2o4gpu#298 (nvidia-docker 1.0),
# theroyallab/tabbyAPI#324, SyneRBI/PETRIC2#27 (nvidia-container-cli beside nvidia-smi), iot-salzburg/gpu-jupyter#106
# (NVML mismatch in a CUDA 12.1 image on a 510 host).
#: /proc/driver/nvidia/version's module version ("Kernel Module  550.54.14", the open modules' "Open Kernel Module for
#: x86_64  580.95.05"), as host/driver.py reads it on this machine
_KERNEL_MODULE_RX = r"Kernel Module\s+(?:for \S+\s+)?(\d{3}\.\d+(?:\.\d+)?)"
_PAIR_DRIVER = re.compile(r"Driver Version:\s*(\d{3}\.\d+(?:\.\d+)?)|" + _KERNEL_MODULE_RX)
_PAIR_NEED = re.compile(r"nvidia/cuda:(\d+\.\d+)|\bCUDA_VERSION[= ](\d+\.\d+)|\bcuda>=\s*(\d+\.\d+)|release (\d+\.\d+), V\d")


def _d_driver_pair(v: dict, t: LogText, m: re.Match) -> dict:
    """``pair_driver`` (the machine's driver, "" when the log has none), ``pair_cuda`` (the newest CUDA that driver
    runs), ``pair_need`` (the CUDA the process needs), ``pair_min`` (NVIDIA's minimum driver for it) and ``pair``
    ("yes" when the log shows the driver's CUDA below the needed one); plus the container entry's ``driver_min``."""
    text = t.text
    drv = _PAIR_DRIVER.search(text) if ("Driver Version" in text or "Kernel Module" in text) else None
    driver = (drv.group(1) or drv.group(2)) if drv else ""
    have = v.get("have", "") if v.get("have", "") not in ("", "0.0") else ""
    smi = _SMI_CUDA.search(text) if "CUDA Version" in text else None
    if not have and smi:
        have = smi.group(1)
    if not have and driver:
        have = driver_max_cuda(driver) or ""
    need = ".".join((v.get("cuda") or "").split(".")[:2])
    if not need:
        seen = [next(g for g in f.groups() if g) for f in _PAIR_NEED.finditer(text)]
        need = max(seen, key=version_key) if seen else ""
    need_min = min_driver(need) if need else None
    out = {"pair_driver": driver, "pair_cuda": have, "pair_need": need, "pair_min": need_min or "",
           "pair": "yes" if have and need and version_key(have)[:2] < version_key(need)[:2] else "",
           "driver_min": f"{need_min} or newer" if need_min else "one whose `nvidia-smi` shows CUDA Version " + (need or "X") + " or newer"}
    return out


def _d_nvml_pair(v: dict, t: LogText, m: re.Match) -> dict:
    return {**DERIVE["nvml"](v, t, m), **_d_driver_pair(v, t, m)}


DERIVE.update({"driver_pair": _d_driver_pair, "nvml_pair": _d_nvml_pair})


# -- [r15 facts] facts the log shows that rule a first fix out.
#
# (1) The driver already new enough. The CUDA runtime reports error 35 ("driver version is insufficient") for a driver
# older than itself, but also when the process never reaches the driver it should: a container started without the
# NVIDIA runtime or with a mis-set GPU variable, a libcuda (a toolkit's `stubs`, an old driver's, a copy inside the
# image) first on the loader path. When the log prints the machine's driver (extract.py `driver_seen`) and it runs the
# CUDA the program needs (data/compat.yaml: natively up to `driver_seen_cuda`, and every minor release of that major
# through minor-version compatibility from CUDA 11 on, the toolkit rows' minor_compat_min_driver), "upgrade the
# driver" is not the first fix. Threads: imagegenius/docker-immich#349 (fresh14 m33: 550.78, a container variable
# with a stray space), NVIDIA/nvidia-docker#400 (`--gpus all` fixed it), w111liang222/lidar-slam-detection#64 (a
# libcuda.so inside the image removed), fboulnois/stable-diffusion-docker#23 (the image's CUDA stubs removed),
# numba/numba#8985 (a stubs directory on LD_LIBRARY_PATH). Torch's own "found version N" is the driver's truth and
# keeps the driver answer.


def _driver_runs(driver: str, have: str, need: str) -> bool:
    """Whether a driver (``driver``, newest native CUDA ``have``) runs a program built for CUDA ``need``."""
    if version_key(have)[:2] >= version_key(need)[:2]:
        return True
    from ...toolkit.compat import minor_compat_min_driver

    floor = minor_compat_min_driver(need) if _major(need) >= 11 else None
    return bool(floor and _major(need) == _major(have) and version_key(driver) >= version_key(floor))


def _major(v: str) -> int:
    head = (v or "").split(".")[0]
    return int(head) if head.isdigit() and len(head) < 4 else -1


def _d_driver_facts(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_driver_found`, plus ``driver_ok`` ("yes": the driver the log prints runs the CUDA the log shows the
    program needs; "major": no such CUDA in the log, and the driver runs every release of its CUDA major), the
    ``driver_note`` that says so, and ``driver_next`` (the next CUDA major, the only one it cannot run)."""
    out = _d_driver_found(v, t, m)
    driver, have = v.get("driver_seen", ""), v.get("driver_seen_cuda", "")
    out.update({"driver_ok": "", "driver_note": "", "driver_next": ""})
    if v.get("found") or not driver or not have:
        return out
    seen = [next(g for g in f.groups() if g) for f in _PAIR_NEED.finditer(t.text)]
    seen = [s for s in seen + [cuda_of_torch_build(v.get("torch_build", ""))] if s]
    major = _major(have)
    if seen:
        need = max(seen, key=version_key)
        if not _driver_runs(driver, have, need):
            return out
        out["driver_ok"] = "yes"
        out["driver_note"] = (f"The driver this log shows, {driver}, runs CUDA {have} natively"
                              + (f" and CUDA {need} through minor-version compatibility" if version_key(need)[:2] > version_key(have)[:2] else "")
                              + f", and the log shows the program needs CUDA {need}: the driver is new enough")
    elif major >= 11 and major >= _major(_toolkit_rows()[-1][0]) - 1:
        # no CUDA in the log: only a driver of the newest two CUDA majors is taken as new enough for an unknown
        # program (chenhunghan/ialacol#45: a 470 driver, CUDA 11.7, under a ctransformers built with CUDA 12)
        out["driver_ok"] = "major"
        out["driver_next"] = f"{major + 1}"
        out["driver_note"] = (f"The driver this log shows, {driver}, runs CUDA {have} natively and every CUDA {major}.x "
                              f"program through minor-version compatibility: unless the program was built for CUDA "
                              f"{major + 1} or newer, it is new enough")
    return out


DERIVE["driver_facts"] = _d_driver_facts


# (2) The GPU the log names (extract.py `gpu_name`, `gpu_cc`, from knowledge/gpus.yaml or the capability the log
# states): a GPU whose architecture no current CUDA major compiles for (Kepler sm_35/sm_37: CUDA 12 dropped them,
# data/compat.yaml's sm_min per toolkit, compat.builds_for_arch) gets "a build made with CUDA <= 11.8 that names it"
# first, not a generic "a build for this GPU". Threads: NVIDIA/nccl-tests#79 (8x Tesla K80), LostRuins/koboldcpp#1409
# (K80: a build with K80 added back), googlecolab/colabtools#2377 (K80: nvcc -arch=sm_37), filecoin-project/
# rust-gpu-tools#79 (fresh14 m37, K80: the fatbin starts at compute_52; a newer GPU), spacemeshos/gpu-post#15 (K80).
def _d_gpu_facts(v: dict, t: LogText, m: re.Match) -> dict:
    """``gpu_sm`` (37), ``gpu_cc_said`` ("3.7"), ``gpu_last_cuda`` (the newest toolkit that compiles for it),
    ``gpu_first_cuda`` (the first), ``gpu_old`` ("yes" when the newest toolkit for it is two CUDA majors or more
    behind the newest known: no current toolkit, framework or library build has code for it), ``gpu_label``."""
    out = {"gpu_sm": "", "gpu_cc_said": "", "gpu_last_cuda": "", "gpu_first_cuda": "", "gpu_old": "", "gpu_label": "",
           "gpu_driver_ok": ""}
    cc = v.get("gpu_cc", "")
    if not re.fullmatch(r"\d{1,2}\.\d", cc or ""):
        return out
    sm = int(cc.replace(".", ""))
    tks = toolkits_for_arch(sm)
    if not tks:
        return out
    newest = _toolkit_rows()[-1][0]
    name = v.get("gpu_name", "")
    out.update({"gpu_sm": str(sm), "gpu_cc_said": cc, "gpu_last_cuda": tks[-1], "gpu_first_cuda": tks[0],
                "gpu_label": f"{name}, compute capability {cc}" if name else f"compute capability {cc}"})
    if _major(tks[-1]) <= _major(newest) - 2:
        out["gpu_old"] = "yes"
    # the driver the log prints already runs the first CUDA that knows this GPU (a GPU newer than CUDA 11.0's
    # first architectures: Ampere and later), so a kernel the driver refuses was built by an older CUDA
    have = v.get("driver_seen_cuda", "")
    out["gpu_driver_ok"] = ("yes" if have and _major(tks[0]) >= 11
                            and version_key(have)[:2] >= version_key(tks[0])[:2] else "")
    return out


DERIVE["gpu_facts"] = _d_gpu_facts


# The CUDA a framework build the log names was made with: "CUDA 9.0", "cuda:9.0", "CUDA版本： 9.2.148", "cudatoolkit
# 10.0", a wheel tag cu92 / cu102 / cu118, a conda build string, an image's cuda11.8, and torch itself (cudanames.py;
# not nvidia-smi's header, which is the driver's).
_BUILD_FORMS = frozenset({"word", "glued", "path", "wheel", "conda"})


def build_cudas_named(t: LogText) -> list[str]:
    """The CUDA major.minor of each framework build the log names (cudanames.py's forms), oldest first."""
    out = set(named(t.text, _BUILD_FORMS, lowest=7))
    out.update(c for c in (torch_build_cuda(m.version) for m in mentions(t.text) if m.form == "torch") if c)
    return sorted(out, key=version_key)


def _d_gpu_vs_build(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_gpu_facts`, and ``gpu_newer``: "yes" when the GPU the log names is known to CUDA only from a release
    newer than a framework build the log names (status.gpu_newer_than_build: RTX 3080 beside cudatoolkit 10.0, an RTX
    2080 Ti beside CUDA 9.0, an RTX 5090 beside cu124); "unseen" when the log names no build CUDA and the GPU needs CUDA
    11 or newer; "" otherwise. ``build_cuda_named``: the oldest build CUDA named."""
    # of every GPU the log names, the one CUDA knew last (an RTX 2070 beside the GTX 1050 Ti that works: darknet#2836)
    said = [(v.get("gpu_name", ""), v["gpu_cc"])] if re.fullmatch(r"\d{1,2}\.\d", v.get("gpu_cc") or "") else []
    known = [(first, name, cc) for name, cc in said + gpus_named(t.text)
             for first in toolkits_for_arch(int(cc.replace(".", "")))[:1]]
    if known:
        _, name, cc = max(known, key=lambda g: version_key(g[0]))
        v = dict(v, gpu_name=name, gpu_cc=cc)
    out = _d_gpu_facts(v, t, m)
    out.update({"gpu_newer": "", "build_cuda_named": ""})
    first = out.get("gpu_first_cuda", "")
    if not first:
        return out
    builds = build_cudas_named(t)
    if not builds:
        out["gpu_newer"] = "unseen" if _major(first) >= 11 else ""
        return out
    out["build_cuda_named"] = builds[0]
    if version_key(builds[0])[:2] < version_key(first)[:2]:
        out["gpu_newer"] = "yes"
    return out


DERIVE["gpu_vs_build"] = _d_gpu_vs_build


# (3) The other side: the driver the log prints is below NVIDIA's minimum for the CUDA the log names (data/compat.yaml
# min_driver), where the entry's first line would not say so. TensorFlow prints the kernel driver under cuDNN's
# NOT_INITIALIZED ("possibly insufficient driver version: 384.69.0"), but that line alone is no evidence (tensorflow/
# tensorflow#30254: 387 was enough for CUDA 9.0); beside the CUDA the log names it decides: localminimum/QANet#5 (384.69
# under CUDA 9.0, whose minimum is 384.81: "it works after I update driver to 387.34"), tensorflow#30254's 384.183
# under CUDA 9.1 (390.46). The nvidia-smi header's own "CUDA Version" is the driver's, not the program's: not read.
_SAID_FORMS = frozenset({"word", "glued"})


def _d_driver_below(v: dict, t: LogText, m: re.Match) -> dict:
    """``driver_below`` ("yes" when the driver the log prints is older than data/compat.yaml's minimum for the newest
    CUDA the log names in words or glued to the name: cudanames.py), ``below_need`` (that CUDA), ``below_min`` (its
    minimum driver)."""
    out = {"driver_below": "", "below_need": "", "below_min": ""}
    driver = v.get("driver_seen", "")
    if not driver:
        return out
    seen = named(t.text, _SAID_FORMS)
    seen = [s for s in seen if min_driver(s)]
    if not seen:
        return out
    need = max(seen, key=version_key)
    floor = min_driver(need) or ""
    if floor and version_key(driver) < version_key(floor):
        out.update({"driver_below": "yes", "below_need": need, "below_min": floor})
    return out


DERIVE["driver_below"] = _d_driver_below


# -- [r15 frameworks] the Bazel a TensorFlow checkout builds with. TensorFlow's configure.py checks the installed
# Bazel against the checkout's range (_TF_MIN_BAZEL_VERSION / _TF_MAX_BAZEL_VERSION, since TF 2.x read from
# .bazelversion) and prints "Please upgrade|downgrade your bazel installation to version X"; Bazel's own launcher
# says "requires Bazel X (specified in .../.bazelversion)"; older checkouts fail inside Bazel (a repository_rule
# keyword the old Bazel lacks, a crosstool key format the newer Bazel changed). The release's tested Bazel comes from
# knowledge/tensorflow.yaml (tensorflow.org's tested build configurations).
_TF_RELEASE = re.compile(r"(?i:git checkout (?:origin/)?|TensorFlow version:?\s*|tensorflow(?:_gpu)?-)[rv]?(\d+\.\d+)(?:\.\d+)?\b")
_BAZEL_HAVE = re.compile(r"You have bazel (\d+\.\d+\.\d+)|Current Bazel version is (\d+\.\d+\.\d+)|Build label: (\d+\.\d+\.\d+)|"
                         r"[Bb]azel version:?\s*(?:bazel )?(\d+\.\d+\.\d+)")


def tf_builds() -> list[dict]:
    """TensorFlow's tested Linux GPU build configurations (``knowledge/tensorflow.yaml``), newest first."""
    return knowledge_table("tensorflow.yaml")["tensorflow"]


def tf_build(release: str) -> dict | None:
    """The tested configuration of TensorFlow ``release`` (major.minor), or None when the table has no such row."""
    want = version_key(release)[:2]
    return next((row for row in tf_builds() if version_key(row["release"])[:2] == want), None)


def _d_tf_bazel(v: dict, t: LogText, m: re.Match) -> dict:
    """``tf`` (the TensorFlow release the log names: a `git checkout r2.3`, `TensorFlow version: 2.3.0`, a
    `tensorflow-2.3.0` directory), ``tf_bazel`` (the Bazel tensorflow.org tested that release with), ``bazel_have``
    (the Bazel the log shows installed) and ``bazel_need`` (the version the message asks for, else the tested one)."""
    text = t.text
    tf = ""
    for f in _TF_RELEASE.finditer(text):
        if tf_build(f.group(1)):
            tf = f.group(1)
            break
    row = tf_build(tf) if tf else None
    have = next((next(g for g in h.groups() if g) for h in _BAZEL_HAVE.finditer(text)), "")
    need = v.get("need") or ""
    return {"tf": tf, "tf_bazel": row["bazel"] if row else "", "bazel_have": have,
            "bazel_need": need or (row["bazel"] if row else "")}


DERIVE["tf_bazel"] = _d_tf_bazel


# -- [r15 frameworks] a TensorFlow build whose CUDA the driver runs, refused with "device kernel image is invalid": the
# build has no kernels for this GPU (TF 2.1-2.3 were built with CUDA 10.1, without Ampere's sm_80/86; TF 2.3's pip
# package also dropped compute capability 5.0 and below 3.5), not a driver too old. The release's CUDA comes from
# knowledge/tensorflow.yaml; the driver's from nvidia-smi's header.
_TF_CUDART = re.compile(r"libcudart\.so\.(\d+\.\d+)")
_TF_USED = re.compile(r"(?i:tensorflow(?:[-_]gpu)?(?:\s*==\s*|\s+version:?\s*|\s+)|\bTF\s?)v?(\d+\.\d+)(?:\.\d+)?\b")


def _tf_named(text: str) -> str:
    """The TensorFlow release the log names (a checkout, ``tensorflow-gpu==2.3.1``, "TF 2.3") that the tested-build
    table (knowledge/tensorflow.yaml) lists, or ""."""
    for f in list(_TF_RELEASE.finditer(text)) + list(_TF_USED.finditer(text)):
        if tf_build(f.group(1)):
            return f.group(1)
    return ""


def _d_tf_kernel(v: dict, t: LogText, m: re.Match) -> dict:
    """``tf`` and ``tf_cuda`` (the TensorFlow release the log names and the CUDA it was built with), ``smi_cuda``
    (the newest CUDA the driver the log shows runs: extract.py ``driver_seen_cuda``) and ``tf_driver_ok`` ("yes" when
    that driver runs the release's CUDA, or CUDA 11.0 when no release is named: every build before TF 2.4 then runs)."""
    text = t.text
    tf = _tf_named(text) if "ensorflow" in text or "TF" in text else ""
    row = tf_build(tf) if tf else None
    smi_cuda = v.get("driver_seen_cuda", "")
    tf_cuda = row["cuda"] if row else ""
    # no release named: the CUDA runtime the log shows TensorFlow open (libcudart.so.11.0), at least CUDA 11.0
    seen = [f.group(1) for f in _TF_CUDART.finditer(text)] if "libcudart.so." in text else []
    floor = tf_cuda or max(seen + ["11.0"], key=version_key)
    ok = bool(smi_cuda) and version_key(smi_cuda)[:2] >= version_key(floor)[:2]
    return {"tf": tf, "tf_cuda": tf_cuda, "smi_cuda": smi_cuda, "tf_driver_ok": "yes" if ok else ""}


DERIVE["tf_kernel"] = _d_tf_kernel


# -- [r15 frameworks] TensorFlow's cuda_dnn.cc prints "Possibly insufficient driver version: N" under EVERY
# CUDNN_STATUS_NOT_INITIALIZED, whatever the driver: the line is no evidence by itself. The release's CUDA
# (knowledge/tensorflow.yaml, or the libcudart/libcublas soname it opened) and NVIDIA's minimum driver for it
# (data/compat.yaml; from CUDA 11 the major's first release, minor-version compatibility) decide which side it is.
_TF_OPENED = re.compile(r"libcu(?:dart|blas)\.so\.(\d+\.\d+)")


def _d_tf_dnn(v: dict, t: LogText, m: re.Match) -> dict:
    """``tf`` and ``tf_cuda`` (the release the log names and its CUDA, else the CUDA of the runtime it opened),
    ``drv`` (the driver the log prints: extract.py ``driver_seen``, as major.minor), ``drv_min`` (NVIDIA's minimum for
    that CUDA) and ``drv_below`` / ``drv_ok`` ("yes" on the side of the minimum the driver falls)."""
    text = t.text
    tf = _tf_named(text)
    row = tf_build(tf) if tf else None
    cuda = row["cuda"] if row else ""
    if not cuda and ".so." in text:
        opened = [f.group(1) for f in _TF_OPENED.finditer(text)]
        cuda = max(opened, key=version_key) if opened else ""
    if cuda and "." not in cuda:
        cuda += ".0"
    drv = ".".join((v.get("driver_seen") or "").split(".")[:2])
    out = {"tf": tf, "tf_cuda": cuda, "drv": drv, "drv_min": "", "drv_below": "", "drv_ok": ""}
    if not (cuda and drv):
        return out
    major = int(cuda.split(".")[0])
    need = min_driver(f"{major}.0" if major >= 11 else cuda)
    if need:
        out["drv_min"] = need
        low = version_key(drv)[:2] < version_key(need)[:2]
        out["drv_below" if low else "drv_ok"] = "yes"
    return out


DERIVE["tf_dnn"] = _d_tf_dnn


# -- [r15 merge] cuDNN's NOT_INITIALIZED reads both: the generic driver-below-minimum check (facts) and TensorFlow's
# own release table (frameworks); an entry names one derive function.
def _d_dnn_init(v: dict, t: LogText, m: re.Match) -> dict:
    return {**_d_driver_below(v, t, m), **_d_tf_dnn(v, t, m)}


DERIVE["dnn_init"] = _d_dnn_init


# -- [r15 merge] "device kernel image is invalid" reads the GPU the log names (facts) and TensorFlow's release (frameworks).
def _d_kernel_invalid(v: dict, t: LogText, m: re.Match) -> dict:
    out = {**_d_gpu_facts(v, t, m), **_d_tf_kernel(v, t, m)}
    # a driver that runs the first CUDA the GPU needs runs every older CUDA, the TensorFlow build's included: the
    # facts helper reads driver wordings ("Nvidia Drivers 455.38") TensorFlow's table reader does not
    if out.get("gpu_driver_ok") == "yes" and not out.get("tf_driver_ok"):
        out["tf_driver_ok"] = "yes"
    return out


DERIVE["kernel_invalid"] = _d_kernel_invalid


# -- [r15 compiler] the CUDA whose nvcc read the host's glibc headers, from any place a build log names it: a toolkit
# path (cuda-11.4, a module tree's cuda/11.4.2/, Jittor's jtcuda/cuda11.2_...), nvcc's own macros in a verbose compile
# (-D__CUDACC_VER_MAJOR__=11 -D__CUDACC_VER_MINOR__=4), "release 11.4". The entry decides from it whether the toolkit
# is below the first one whose front end takes glibc 2.34's two-argument malloc attribute (11.6, nixpkgs PR 169484).
_TOOLKIT_FORMS = frozenset({"glued", "path", "release", "macro"})


def _newest_cuda_named(t: LogText, lowest: int = 7) -> str:
    """The newest CUDA major.minor (``lowest``.x to 13.x) the log names for a toolkit (a path, a name glued to its
    version, nvcc's release or macros: cudanames.py), or ""."""
    seen = named(t.text, _TOOLKIT_FORMS, lowest=lowest)
    return max(seen, key=version_key) if seen else ""


def _d_build_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    """``build_cuda``: the CUDA major.minor the log names for the nvcc that ran (the newest named), "" when none;
    ``build_cuda_old``: "yes" when it is below CUDA 11.6."""
    cuda = _newest_cuda_named(t)
    return {"build_cuda": cuda, "build_cuda_old": "yes" if cuda and version_key(cuda) < version_key("11.6") else ""}


DERIVE["build_cuda"] = _d_build_cuda


# -- [r15 versions] a toolkit too old (or too new) for what the build asks, decided by the CUDA version the log shows.
# components.yaml `toolkit_features` says from (first) or until (last) which CUDA a toolkit has nvcc's -std option and
# its dialects, CUB, libnppicom; the entry's capture names the feature, the log's "release X.Y" / cuda-X.Y path / "CUDA
# X.Y" names the toolkit, and the answer says which side of the boundary it is on. fresh15 n01 (dmlc/xgboost#7762: cub
# under CUDA 10), n06 (NervanaSystems/neon#150: CUDA 6.5's nvcc has no -std), n13 (gunrock/gunrock#204: CUDA 7.5 asked
# for compute_61 on an sm_35 GPU), n69 (stereolabs/zed-ros2-wrapper#25: FindCUDA asks CUDA 11.1 for libnppicom).
def toolkit_features() -> dict:
    """The feature table (``components.yaml`` ``toolkit_features``): key -> label, first, last, instead."""
    return knowledge_table("components.yaml").get("toolkit_features") or {}


def _cuda_shown(v: dict, t: LogText) -> str:
    """The CUDA major.minor the log names for the toolkit that ran: the extraction stage's ``cuda_seen``, else nvcc's
    release or a toolkit path; "" when none."""
    seen = v.get("cuda_seen", "") or _nvcc_seen(t) or v.get("cuda_said", "")  # [r16 evidence] the reporter's words last
    if not seen and "cuda" in t.text.lower():
        # a version glued to the name or a toolkit directory ("CUDA10.2", cuda/11.4.2/): the newest named
        seen = _newest_cuda_named(t, lowest=4)
    mm = re.match(r"(\d{1,2})\.(\d)", seen or "")
    return f"{mm.group(1)}.{mm.group(2)}" if mm and 1 <= int(mm.group(1)) <= 13 else ""


def _feature_row(key: str) -> dict:
    """The ``toolkit_features`` row of ``key``; nvcc's -std values (``std-c++17``) and the option itself (``nvcc-std``,
    which came with its first value) take their first release from data/compat.yaml's ``nvcc_max_cxx_std``."""
    if key.startswith("std-"):
        first = nvcc_first_cxx_std(key[4:])
        return {"label": f"-std={key[4:]} in nvcc", "first": first, "last": "", "instead": ""} if first else {}
    row = dict(toolkit_features().get(key) or {})
    if key == "nvcc-std":
        row["first"] = nvcc_first_cxx_std("c++11") or ""
    return row


def toolkit_feature(key: str, shown: str) -> dict:
    """``feat_*`` values for the table row ``key`` and the CUDA ``shown``: ``feat_side`` is "below" (older than the
    first release that has it), "above" (newer than the last), "in" (a release that has it), "unknown" (no version
    shown) or "" (no row)."""
    row = _feature_row(key)
    out = {"feat_label": row.get("label", ""), "feat_first": row.get("first", ""), "feat_last": row.get("last", ""),
           "feat_instead": row.get("instead", ""), "feat_cuda": shown, "feat_side": ""}
    if not row:
        return out
    k = version_key(shown)[:2] if shown else None
    if k is None:
        out["feat_side"] = "unknown"
    elif row.get("first") and k < version_key(row["first"])[:2]:
        out["feat_side"] = "below"
    elif row.get("last") and k > version_key(row["last"])[:2]:
        out["feat_side"] = "above"
    else:
        out["feat_side"] = "in"
    return out


def _d_std_feature(v: dict, t: LogText, m: re.Match) -> dict:
    """nvcc's -std option (``opt`` = std: nvcc.unknown_option) or one of its values (``std``: nvcc.cxx_std_unsupported),
    or another option of nvcc's own that came with a known release (``nvcc-opt-*`` rows), against the CUDA the log
    shows."""
    opt = (v.get("opt") or "").lstrip("-")
    std = (v.get("std") or "").strip().lower()
    key = "nvcc-std" if re.fullmatch(r"std(?:=\S*)?", opt) else (f"std-{std}" if std else "")
    if not key and opt:  # [r32 sweep] another option of nvcc's own, from the release that added it
        named = "nvcc-opt-" + re.split(r"[=,\s]", opt, maxsplit=1)[0]
        key = named if named in toolkit_features() else ""
    return toolkit_feature(key, _cuda_shown(v, t))


DERIVE["std_feature"] = _d_std_feature


def _d_header_feature(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_header_dev`, and the header's ``toolkit_features`` row (cub/ from CUDA 11.0) against the CUDA shown."""
    out = _d_header_dev(v, t, m)
    h = (v.get("header") or "").replace("\\", "/")
    # a row naming this very header (components.yaml's `header`: one the toolkit shipped only up to a release) before
    # the CUB row for any cub/ header
    key = next((k for k, row in toolkit_features().items() if row.get("header") == h), "")
    key = key or ("header-cub" if h.startswith("cub/") else "")
    out.update(toolkit_feature(key, _cuda_shown(v, t)))
    return out


DERIVE["header_feature"] = _d_header_feature


def _d_cmake_lib_feature(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_cmake_lib`, and the library's ``toolkit_features`` row (libnppicom until CUDA 10.2) against the CUDA
    shown."""
    out = _d_cmake_lib(v, t, m)
    lib = v.get("lib") or ""
    out.update(toolkit_feature(f"lib-{lib}" if lib else "", _cuda_shown(v, t)))
    return out


DERIVE["cmake_lib_feature"] = _d_cmake_lib_feature


def _d_arch_versions(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_arch_named`, and ``arch_old_cuda``: the CUDA the log shows when it is older than the first release that
    compiles for the refused architecture (``arch_first``); ``gpu_needs`` says whether the GPU the log names
    (extract.py ``gpu_cc``) needs that architecture: "no" for a GPU of a lower compute capability (gunrock/gunrock#204:
    a GTX TITAN Black, sm_35, under CUDA 7.5 refusing compute_61: the project's list, not the toolkit), "yes" for one
    at or above it, "" when the log names no GPU."""
    out = _d_arch_named(v, t, m)
    out.update({"arch_old_cuda": "", "arch_first": "", "gpu_needs": "", "gpu_said": "", "gpu_why": ""})
    sm = _arch_number(v.get("arch", ""))
    have = toolkits_for_arch(sm)
    if not sm or not have or out.get("named_cuda"):
        return out
    if sm not in sm_first_before_rows() and version_key(have[0])[:2] <= version_key(_toolkit_rows()[0][0])[:2]:
        return out  # the tables start there: the architecture's first release is older and unknown (compute_30)
    first = sm_first_before_rows().get(sm, have[0])
    shown = _cuda_shown(v, t)
    if shown and version_key(shown)[:2] < version_key(first)[:2]:
        out.update({"arch_old_cuda": shown, "arch_first": first})
    cc = v.get("gpu_cc", "")
    if re.fullmatch(r"\d{1,2}\.\d", cc or ""):
        gsm = int(cc.replace(".", ""))
        # a newer GPU does not need an older architecture the list also asks for when the CUDA shown compiles for
        # the GPU's own: NVIDIA/cuda-samples#388 (fresh17 q05: CUDA 12.9 refused compute_110, Thor's, from the samples'
        # list "75 80 86 87 89 90 100 110 120", on an RTX 5070, sm_120, which 12.9 compiles for). Capabilities are
        # not a line (sm_110 came after sm_120), so "at or above" alone does not say the GPU needs it.
        own = sm_first_before_rows().get(gsm) or next(iter(toolkits_for_arch(gsm)), "")
        own_ok = gsm > sm and bool(shown and own) and version_key(shown)[:2] >= version_key(own)[:2]
        out["gpu_needs"] = "yes" if gsm >= sm and not own_ok else "no"
        name = v.get("gpu_name", "")
        out["gpu_said"] = f"{name} (compute capability {cc})" if name else f"compute capability {cc}"
        if out["gpu_needs"] == "no":  # what the "does not need" variant says of the GPU
            out["gpu_why"] = (f"is of sm_{gsm}, which CUDA {shown} compiles for; compute_{sm} is another architecture "
                              f"that only the list asks for" if own_ok else
                              f"is of an older architecture and does not run {v.get('arch', '')} code")
    return out


DERIVE["arch_versions"] = _d_arch_versions


# -- [r16 frameworks] pip finds no wheel for a pinned TensorFlow release in this Python: the release's Python range from
# knowledge/tensorflow.yaml (tensorflow.org's tested build configurations, which name the Pythons each release was built
# for), so the first line names the Python to create the environment with (TF 1.15: 3.7, TF 2.4: 3.8) instead of a
# generic one. Only for an exact pin (`==`) whose release the table has and that pip's "from versions" list does not
# offer (a listed release failing is another cause).
_TF_PY_RANGE = re.compile(r"(\d+)\.(\d+)(?:-(\d+)\.(\d+))?")


def _d_tf_python(v: dict, t: LogText, m: re.Match) -> dict:
    """``tf_release`` (major.minor of the pinned release), ``tf_python`` (its Python range as the table words it) and
    ``tf_py`` (the newest Python 3 of that range), or all empty."""
    req, want, listed = v.get("req") or "", v.get("want") or "", v.get("versions") or ""
    empty = {"tf_release": "", "tf_python": "", "tf_py": ""}
    if "==" not in req or not re.match(r"\d+\.\d+", want):
        return empty
    mm = tuple(int(n) for n in re.match(r"(\d+)\.(\d+)", want).groups())
    if v.get("pkg") == "tensorflow-gpu" and mm >= (2, 11):
        return empty  # tensorflow-gpu ends with 2.10 (2.11 and 2.12 are stubs): the package name is the cause
    row = tf_build(want)
    if not row:
        return empty
    offered = [x.strip() for x in listed.split(",") if x.strip()]
    if any(x == want or x.startswith(want.rstrip("*").rstrip(".") + ".") for x in offered):
        return empty
    newest = ""
    for a, b, c, d in _TF_PY_RANGE.findall(row["python"]):
        hi = (int(c), int(d)) if c else (int(a), int(b))
        if hi[0] == 3 and (not newest or hi > tuple(int(n) for n in newest.split("."))):
            newest = f"{hi[0]}.{hi[1]}"
    if not newest:
        return empty
    rel = ".".join(row["release"].split(".")[:2])
    return {"tf_release": rel, "tf_python": row["python"], "tf_py": newest}


DERIVE["tf_python"] = _d_tf_python


# -- [r16 buildside] a root variable that names a library file (or nvcc): which variable, and the directory it should be
def _d_location_kind(v: dict, t: LogText, m: re.Match) -> dict:
    """``var``: the variable a build appends include/ and lib64/ to (CUDNN_PATH for a cuDNN file: torch's extension
    builder reads CUDNN_HOME or CUDNN_PATH; CUDA_HOME for nvcc and the toolkit's libraries), named as the log shows it
    when it does; ``root``: the directory above the file's lib64/, lib/ (or lib/x86_64-linux-gnu, targets/.../lib) or
    bin/; ``libname``: the file's name."""
    path = v.get("file") or v.get("dir") or ""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    low = t.text
    if "libcudnn" in name:
        var = "CUDNN_HOME" if "CUDNN_HOME" in low and "CUDNN_PATH" not in low else "CUDNN_PATH"
    else:
        var = "CUDA_HOME"
    root = re.sub(r"/(?:targets/[^/]+/)?(?:lib64|lib|bin)(?:/x86_64-linux-gnu|/aarch64-linux-gnu)?/[^/]+$", "", path)
    if root == path:
        root = path.rsplit("/", 1)[0]
    return {"var": var, "root": root or "/usr", "libname": name}


DERIVE["location_kind"] = _d_location_kind


# -- [r16 knobs] the package whose CMake config asks for an exact CUDA. FindCUDA's "Found unsuitable version "8.0", but
# required is exact version "7.5"" is rarely the project's own demand: OpenCV's installed OpenCVConfig.cmake calls
# find_host_package(CUDA ${OpenCV_CUDA_VERSION} EXACT REQUIRED), the CUDA OpenCV itself was built with, and the Call
# Stack under the error names that file (facebookarchive/caffe2#562 and #1829, lhk/darknet_wrapper#1, NVIDIA/nvvl#3,
# OAID/Tengine#969, opencv/opencv#15245, luigifreda/plvs#28). The file's package and directory are what the first fix
# changes (that OpenCV rebuilt, replaced or left out), not the toolkit.
_CONFIG_CALL = re.compile(r"(?<![^\s])(?P<path>(?:[A-Za-z]:)?/[\w./+-]*/(?P<pkg>[A-Za-z][\w.+-]*?)(?:Config|-config)\.cmake)"
                          r":\d+ \(find_(?:host_)?package\)")
_OWN_CALL = re.compile(r"FindCUDA\.cmake:\d+ \(find_package_handle_standard_args\)\s+(?:\S*/)?CMakeLists\.txt:\d+ \(find_package\)",
                       re.I)


def _d_gate_demander(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_gate_need`, and for an exact demand the package whose CMake config made it: ``demander`` (the
    config file's path), ``demander_pkg`` (its package, "OpenCV"), ``demander_dir`` (the directory to name as
    ``<pkg>_DIR``); ``own_demand`` "yes" when the Call Stack goes from FindCUDA straight to the project's own
    CMakeLists.txt (the project asks for it itself); ``need_older`` "yes" when the CUDA asked for is older than the
    one found (what asks predates a CUDA upgrade; the other way, as stereolabs/zed-ros-wrapper#229's ZED SDK for 9.1
    beside a distribution's 7.5 in /usr, the toolkit found is the stale side)."""
    out = _d_gate_need(v, t, m)
    out.update({"demander": "", "demander_pkg": "", "demander_dir": "", "own_demand": "", "need_older": ""})
    if "exact" not in (v.get("how") or ""):
        return out
    need, found = v.get("need") or "", v.get("found") or ""
    if re.fullmatch(r"\d+(?:\.\d+)*", need) and re.fullmatch(r"\d+(?:\.\d+)*", found) \
            and version_key(need) < version_key(found):
        out["need_older"] = "yes"  # what asks was built for an older CUDA than the one installed since
    text = m.string if isinstance(m.string, str) else t.text  # the match's own text: its offsets are in it
    if "onfig.cmake:" in text:
        for line in text[m.end():m.end() + 4000].splitlines():
            if "onfig.cmake:" not in line:
                continue
            c = _CONFIG_CALL.search(line)
            if c and c.group("pkg").lower() not in ("cuda", "cudatoolkit"):
                path = c.group("path")
                out.update({"demander": path, "demander_pkg": c.group("pkg"), "demander_dir": path.rsplit("/", 1)[0]})
                return out
    if "CMakeLists.txt:" in text and _OWN_CALL.search(text[m.end():m.end() + 2000]):
        out["own_demand"] = "yes"
    return out


DERIVE["gate_demander"] = _d_gate_demander


# -- [r16 evidence] the log's evidence decides which alternative comes first.
#
# A runtime of CUDA 10 or older (libcudart.so.X.Y names its minor version) missing from a torch extension, in a log that
# shows torch's own CUDA (torch.version.cuda, collect_env's "CUDA used to build PyTorch", a +cuXYZ build) as another
# release: the extension was built or downloaded for CUDA X.Y, and torch runs Y. Putting X.Y's runtime on the loader path
# loads two runtimes into one process; what solved the threads is the extension built for torch's CUDA.
# rusty1s/pytorch_scatter#86 (fresh14 m61: torch.version.cuda 10.0.130, libcudart.so.8.0 from a build made under
# /usr/local/cuda = 8.0: reinstalled/rebuilt with CUDA_HOME at 10.0), rusty1s/pytorch_scatter#211 (torch 1.8.1+cu102 with
# wheels for another CUDA: the binaries built for 10.2), facebookresearch/detectron2#2064 (libcudart.so.10.1: reinstalled
# torch, torchvision and detectron2 to match), ClementPinard/Pytorch-Correlation-extension#73 (rebuild from scratch).
# Not when torch itself is what fails to load (its _C, pytorch/pytorch#10910: conda's cudatoolkit of another release).
_TORCH_CUDA_SAID = re.compile(r"torch\.version\.cuda`?\s*[:=]?\s*`?'?(\d{1,2}\.\d)|"
                              r"CUDA used to build PyTorch:\s*(\d{1,2}\.\d)")
_TORCH_ITSELF = re.compile(r"torch[/\\]_C\b|torch[/\\]__init__\.py|torch[/\\]lib[/\\]libtorch")


def _d_libcudart_torch(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_libcudart`, and ``torch_cuda_other``: torch's CUDA as the log shows it, when the missing runtime is of
    CUDA 10 or older and of another release, and torch itself is not what failed to load ("" otherwise)."""
    out = DERIVE["libcudart"](v, t, m)
    out["torch_cuda_other"] = ""
    ver = v.get("version", "")
    if not re.fullmatch(r"(?:[1-9]|10)\.\d", ver) or "torch" not in t.text:
        return out
    said = _TORCH_CUDA_SAID.search(t.text)
    cuda = next((g for g in said.groups() if g), "") if said else cuda_of_torch_build(v.get("torch_build", ""))
    if cuda and cuda != ver and not _TORCH_ITSELF.search(t.text):
        out["torch_cuda_other"] = cuda
    return out


DERIVE["libcudart_torch"] = _d_libcudart_torch


# -- [r16 cudnnmix] a cuDNN of another version than the program's, found first.
#
# cudnn_pair_major: cudnn_pair and the major of the build's cuDNN (the soname the loader must find: libcudnn.so.N).
def _d_cudnn_pair_major(v: dict, t: LogText, m: re.Match) -> dict:
    out = _d_cudnn_pair(v, t, m)
    return {**out, "built_major": out["built_v"].split(".")[0] or "N"}


DERIVE["cudnn_pair_major"] = _d_cudnn_pair_major


# ort_cudnn: the cuDNN major the onnxruntime release the log names was built for (knowledge/onnxruntime.yaml, the
# CUDA EP requirements table), and a cuDNN major the log says is installed when it is another one. A cuDNN 8 build
# does not load cuDNN 9 and the other way round: microsoft/onnxruntime#20223 (fresh16 p32: the cuda12 1.17.1 archive
# with cuDNN 9, LoadLibrary error 126), microsoft/onnxruntime#22198 (1.19.2 with cuDNN 8.9: "1.18.0"),
# Steffenhir/GraXpert#205 (its bundled onnxruntime needs libcudnn.so.8, the system has cuDNN 9.6),
# jw3126/ONNXRunTime.jl#37 (cuDNN_jll 9 beside a provider that needs libcudnn.so.8: cuDNN capped at 8).
_ORT_RELEASE = (
    re.compile(r"ONNX Runtime Version or Commit ID\s*\n\s*\n?\s*(?:onnxruntime[\w.-]*?-)?v?(1\.\d{1,2}(?:\.\d+)?)\b"),
    re.compile(r"(?i:onnxruntime)-(?:win|linux|osx)-[\w-]*?-(1\.\d{1,2}\.\d+)\b"),
    re.compile(r"(?i:onnxruntime)(?:[-_]gpu)?(?:\s*==\s*|\s+|\s*version:?\s*)v?(1\.\d{1,2}(?:\.\d+)?)\b"),
)
_ORT_CUDA12 = re.compile(r"(?i:onnxruntime[\w-]*?cuda[-_]?12|onnxruntime-cuda-12|cuda12-1\.\d)")
_ORT_CUDA11 = re.compile(r"(?i:onnxruntime[\w-]*?cuda[-_]?11|cu11\d?\b)")
_CUDNN_HAVE = re.compile(r"(?<![\w/\\])(?i:cudnn)[\s_-]?(?:v|version\s*)?([789])(?:\.\d+)*(?![\w.*])|"
                         r"nvidia-cudnn-cu1[12]\s*==\s*([89])\.|cudnn64_([789])\.dll|libcudnn\.so\.([789])\s*=>\s*/")


def ort_releases() -> list[dict]:
    """ONNX Runtime's GPU builds (``knowledge/onnxruntime.yaml``): first, last, cuda, cudnn, default."""
    return knowledge_table("onnxruntime.yaml")["onnxruntime"]


def _d_ort_cudnn(v: dict, t: LogText, m: re.Match) -> dict:
    out = {"ort_v": "", "ort_cuda": "", "ort_cudnn": "", "cudnn_have": "", "ort_other": "", "ort_for_have": ""}
    text = t.text
    if "nnx" not in text.lower():
        return out
    rel = ""
    for rx in _ORT_RELEASE:  # the last release a pattern finds: "used 1.18.1 before ... after upgrading to 1.19.0"
        found = None
        for found in rx.finditer(text):
            pass
        if found:
            rel = found.group(1)
            break
    if not rel:
        return out
    key = version_key(rel if rel.count(".") == 2 else rel + ".0")
    if _ORT_CUDA12.search(text):
        cuda = "12"
    elif _ORT_CUDA11.search(text):
        cuda = "11"
    else:
        cuda = "12" if key >= version_key("1.19.0") else ""
    rows = [r for r in ort_releases() if version_key(r["first"]) <= key and (not r["last"] or key <= version_key(r["last"]))]
    rows = [r for r in rows if not cuda or r["cuda"] == cuda] or rows
    if not rows:
        return out
    row = rows[0] if cuda else rows[-1]
    if not cuda and key >= version_key("1.17.0"):
        row = next((r for r in rows if r["cuda"] == "11"), row)
    out.update(ort_v=rel, ort_cuda=row["cuda"], ort_cudnn=row["cudnn"])
    said = {next(g for g in f.groups() if g) for f in _CUDNN_HAVE.finditer(text)
            if not re.search(r"(?i:require)\s*$", text[max(0, f.start() - 12):f.start()])}
    other = sorted(x for x in said if x != row["cudnn"])
    if other and row["cudnn"] not in said:
        have = other[-1]
        out.update(cudnn_have=have, ort_other=have, ort_for_have={
            "9": "onnxruntime 1.18.1 or later built for CUDA 12 (`pip install -U onnxruntime-gpu`: 1.19 and later on PyPI are)",
            "8": "onnxruntime 1.18.0 or earlier for CUDA 12 (`pip install onnxruntime-gpu==1.18.0` from the CUDA 12 feed), or the CUDA 11.8 builds up to 1.20",
            "7": "onnxruntime 1.4 or earlier (CUDA 10.1, cuDNN 7.6)"}[have])
    return out


DERIVE["ort_cudnn"] = _d_ort_cudnn


# -- [r16 nvml] a tool calls an NVML function the installed driver does not have. nvml.h adds `_v2`/`_v3` names beside
# the old ones; a binary (or Python binding) built for the newer header calls them, and an older driver's libnvidia-ml
# lacks them: the dynamic loader's "undefined symbol: nvml...", NVML's own NVML_ERROR_FUNCTION_NOT_FOUND ("Function Not
# Found", pynvml's NVMLError_FunctionNotFound), libnvidia-container's "nvml error: function not found". Two levers: a
# driver of the branch that has the function (knowledge/nvml.yaml `functions`), or the tool's last release for this
# driver (`tools`); a GPU whose last driver is a legacy branch (`legacy`: 340, 390) cannot take the first.
# Threads: NVIDIA/k8s-device-plugin#66, #108, Syllo/nvtop#32, NVIDIA/nvidia-docker#1380, #1295, gpuopenanalytics/pynvml#43,
# wookayin/gpustat#105/#107, NVIDIA/nvidia-container-toolkit#77, HackTestes/NVML-GPU-Control#19.
_NVML_DRIVER = re.compile(r"(?i)(?:Driver Version:\s*|NVIDIA-SMI\s+|\bdriver\s+(?:version\s+)?(?:is\s+)?v?|"
                          r"[/\\]nvidia-|nvidia-driver-|libnvidia-ml\.so\.)(\d{3})(?:\.\d+){0,2}(?:xx)?\b")


def _d_nvml_missing(v: dict, t: LogText, m: re.Match) -> dict:
    """``nvml_symbol`` (the function, or "an NVML function"), ``nvml_need`` (the driver branch that has it, or "a newer
    driver"), ``nvml_driver`` (the driver the log shows, or ""), ``nvml_older`` (the tool's last release for this
    driver, or a general phrase), ``nvml_tool`` ("yes" when the table knows the tool), ``nvml_legacy`` (the legacy
    branch the GPU cannot leave: "340"/"390", or "")."""
    doc = knowledge_table("nvml.yaml")
    text = t.text if len(t.text) < 400_000 else t.text[:400_000]
    sym = v.get("symbol") or ""
    need = (doc.get("functions") or {}).get(sym, "") if sym else ""
    drv = v.get("driver_seen", "")
    if not drv:
        d = _NVML_DRIVER.search(text)
        drv = d.group(1) if d else ""
    older, tool = "", ""
    for row in doc.get("tools") or ():
        s = re.search(row["shows"], text, re.I)
        if not s:
            continue
        ver = s.groupdict().get("ver")
        if ver and row.get("from") and version_key(ver) < version_key(row["from"]):
            continue
        if "older_v3" in row:
            if not sym.endswith("_v3") and "older_v2" not in row:
                continue  # a row for the _v3 calls only
            older = row["older_v3"] if sym.endswith("_v3") else row["older_v2"]
        else:
            older = row["older"]
        tool = "yes"
        if not sym and row.get("calls"):  # the message names no function: the one the tool is known to call
            sym = row["calls"]
            need = (doc.get("functions") or {}).get(sym, "")
        break
    # the legacy branch the GPU cannot leave: Arch/AUR's legacy driver package (Syllo/nvtop#100: 390xx, Fermi), else the
    # GPU's capability (gpus.yaml) against nvml.yaml's last branch per capability major
    pkg = re.search(r"(?i)nvidia-(340|390)xx", text)
    cc = v.get("gpu_cc") or ""
    legacy = pkg.group(1) if pkg else str((doc.get("legacy_branch") or {}).get(cc.split(".")[0], "")) if cc else ""
    if legacy and need and version_key(need) <= version_key(legacy):
        legacy = ""  # the legacy branch itself has the function: upgrading to it is the way
    if not legacy and drv.split(".")[0] == "340" and not cc:
        legacy = "340"  # the 340 branch is the legacy one: what runs it is, most often, a GPU no later driver supports
    return {
        "nvml_symbol": sym or "an NVML function",
        "nvml_need": (f"the {need.split('.')[0]} branch ({need}) or newer" if "." in need else
                      f"the {need} branch or newer" if need else "a newer branch"),
        "nvml_driver": drv,
        "nvml_older": older or "the tool's last release from before it called that function",
        "nvml_tool": tool,
        "nvml_legacy": legacy,
    }


DERIVE["nvml_missing"] = _d_nvml_missing


# -- [r17 lead] pip finds no wheel of a CUDA package (other than torch, jaxlib and TensorFlow, which have their own
# entries) for this interpreter: what "(from versions: ...)", pip's "Requires-Python" lines and the Python the log shows
# say. Threads: solarorb93/BetaSuite#58 (onnxruntime-gpu, "from versions: none" under Python 3.11: "Install Python 10
# Maximum"), hon9kon9ize/yuesub-api#5 (onnxruntime-gpu, Python 3.8), hacksider/Deep-Live-Cam#947 (onnxruntime-gpu==1.16.3
# not listed for this Python: "use python 3.10 or 3.11"), deepbeepmeep/Wan2GP#534 (Requires-Python <3.11 lines above
# "from versions: none"), PaddlePaddle/Paddle#26685 (paddlepaddle-gpu under Python 3.8: "python降级成3.6后可以成功安装"),
# PaddlePaddle/Paddle#65320 (a 32-bit Python), PaddlePaddle/Paddle#32828 (aarch64, a Jetson), devmaxxing/
# videocr-PaddleOCR#9 (macOS), cupy/cupy#4663 and #1721 (cupy-cudaXX for a Python it has no wheel for).
#: The Python a log shows: "Python 3.11.4", "python3.10/site-packages", "Python version: 3.11", cp311 wheel tags
#: (:func:`python_shown`; pkg_wheels and tf_windows read it).
_PY_SEEN = re.compile(r"(?i)(?:\bpython|/lib/python|\\python)(?:[ -]|(?:[ _]version\??)?[\s:=]{0,8}v?)?(3\.\d{1,2})(?:\.\d+)?\b"
                      r"|\bcp3(\d{1,2})\b")


def python_shown(text: str) -> str:
    """The first Python version (3.N) ``text`` shows, or ""."""
    seen = _PY_SEEN.search(text)
    return (seen.group(1) or f"3.{seen.group(2)}") if seen else ""
_REQUIRES_PY = re.compile(r"Requires-Python\s*[^;\n]*?<\s*(3\.\d{1,2})")


def _d_pkg_wheels(v: dict, t: LogText, m: re.Match) -> dict:
    """``listed_none`` ("yes": pip found no release at all for this interpreter), ``nearest`` (the listed release
    nearest the wanted one), ``py_seen`` (the Python the log shows), ``py_bound`` (the lowest "Requires-Python <3.N" pip
    printed), ``py_use`` (a Python below it), ``py_too_new`` ("yes" when the Python shown is at or above that bound, or
    ``release_older`` ("yes" when every listed release is newer than the wanted one: the wanted release predates this
    Python), ``arch`` ("aarch64" when the log shows an ARM machine)."""
    text = t.text if len(t.text) < 400_000 else t.text[-400_000:]
    names = [x for x in re.split(r"[,\s]+", v.get("versions") or "") if _release(x)]
    want = _release(v.get("want", ""))
    out = {"listed_none": "" if names else "yes", "nearest": "", "py_seen": "", "py_bound": "", "py_use": "",
           "py_too_new": "", "release_older": "", "arch": ""}
    if want and names:
        # [r34 sweep] among the releases of the wanted one's major first, and never a development placeholder when a
        # real release is listed: nvidia-cudnn-cu12==8.9.2.26 against "0.0.1.dev5, 8.9.4.25, ..." is 8.9.4.25, not the
        # placeholder below it (JHLew/MoMo#4)
        real = [x for x in names if not re.search(r"(?i)\.dev|a\d|b\d|rc\d", x)] or names
        pool = [x for x in real if _release(x)[:1] == want[:1]] or real
        below = [x for x in pool if _release(x)[:len(want)] < want]
        out["nearest"] = max(below, key=_release) if below else min(pool, key=_release)
    out["py_seen"] = python_shown(text)
    bounds = [b.group(1) for b in _REQUIRES_PY.finditer(text)]
    if bounds:
        bound = max(bounds, key=version_key)  # the newest release's range: below it, some release has a wheel
        out["py_bound"] = bound
        major, minor = bound.split(".")
        out["py_use"] = f"{major}.{int(minor) - 1}"
        if not out["py_seen"] or version_key(out["py_seen"]) >= version_key(bound):
            out["py_too_new"] = "yes"
    # every release listed is newer than the one wanted: this Python came after that release (its wheels stop below it)
    if want and names and all(_release(x)[:len(want)] > want for x in names):
        out["release_older"] = "yes"
    if re.search(r"(?i)\baarch64\b|\barm64\b|-tegra\b|\bjetson\b", text):
        out["arch"] = "aarch64"
    return out


DERIVE["pkg_wheels"] = _d_pkg_wheels


# -- [r17 build] a host compiler that does not know the C++ dialect the build asks for (gcc's "unrecognized command line
# option '-std=c++14'"): the gcc to build with. gcc 4.9 knows -std=c++14 and torch 1.5+ headers ask for gcc 5
# (open-mmlab/mmdetection#2663); C++17 is complete from gcc 7 (gcc.gnu.org/projects/cxx-status.html), C++20's core
# from gcc 10. A distribution's default below those: RHEL/CentOS 7's gcc 4.8.5.
_STD_GCC = {"14": "5", "1y": "5", "17": "7", "1z": "7", "20": "10", "2a": "10", "23": "11", "2b": "11"}


def _d_std_gcc(v: dict, t: LogText, m: re.Match) -> dict:
    """``std_gcc``: the gcc version to install for the dialect captured as ``std`` (``c++14``, ``gnu++17``)."""
    std = (v.get("std") or "").lower()
    tail = std.rsplit("++", 1)[-1] if "++" in std else ""
    return {"std_gcc": _STD_GCC.get(tail, "9")}


DERIVE["std_gcc"] = _d_std_gcc


# -- [r17 frameworks]
# TensorFlow on native Windows (tf.windows_native_no_gpu): the release 2.11 or newer the log names ("Tensorflow
# Version ... 2.12.0", "tensorflow==2.13.0", "tf 2.16") and the Python it names ("Python version 3.11.4"): TF 2.10,
# the last with GPU support there, has wheels for Python 3.7-3.10 only (pypi.org/project/tensorflow/2.10.0).
_TF_WIN_REL = re.compile(r"(?i:tensor ?flow[\w-]*(?:[ _]version\??)?[\s:=]{0,8}(?:tf ?)?v?(2\.(?:1[1-9]|[2-9]\d))\b)")


def _d_tf_windows(v: dict, t: LogText, m: re.Match) -> dict:
    """``tf`` (the TensorFlow release, 2.11 or newer, the log names) and ``py`` (the Python it names)."""
    tf = _TF_WIN_REL.search(t.text)
    return {"tf": tf.group(1) if tf else "", "py": python_shown(t.text)}


DERIVE["tf_windows"] = _d_tf_windows

# Bazel's "The following rc files are no longer being read, please transfer their contents or import their path into
# one of the standard rc files:" names the files on the next line (bazel.legacy_rc_not_read).
# Only a plain path is named in the answer (letters, digits, / . ~ - _): anything else in it is left out.
_LEGACY_RC = re.compile(r"no longer being read, please transfer[^\n]*:\s*([\w./~-]*bazel\.rc)\b")


def _d_legacy_rc(v: dict, t: LogText, m: re.Match) -> dict:
    """``rcfile``: the rc file Bazel's warning says it no longer reads."""
    f = _LEGACY_RC.search(t.text) if "no longer being read" in t.text else None
    return {"rcfile": f.group(1) if f else ""}


DERIVE["legacy_rc"] = _d_legacy_rc

# torch.cuda_major_mismatch when the log names the torch release the project installed ("pytorch version 2.0.0 +
# cu118", "torch==1.13.1") and that release has no build for the toolkit's CUDA major (torch 2.0: CUDA 11.7 and 11.8;
# CUDA 12 builds start with torch 2.1; data/compat.yaml's torch table): "the torch build for your toolkit" would be
# another torch release, so the toolkit is what changes (facebookresearch/xformers#748: "you'll need to use nvcc 11.8").
_TORCH_REL = re.compile(r"(?i:\b(?:py)?torch)(?:==|\s+version\s*:?\s*|\s+v?|-)(\d+\.\d+)(?:\.\d+)?\b")


def _d_cuda_pair_rel(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``cuda_pair`` derives, and ``torch_rel`` / ``rel_cudas`` / ``rel_none`` ("yes" when the torch release the
    log names was built for torch's CUDA but for no CUDA of the toolkit's major)."""
    out = _d_cuda_pair(v, t, m)
    d, tv = v.get("detected", ""), v.get("torch", "")
    if out.get("difference") != "major" or "orch" not in t.text:
        return out
    builds = table()["torch"]
    rel = next((f.group(1) for f in _TORCH_REL.finditer(t.text) if f.group(1) in builds), "")
    cudas = (builds.get(rel) or {}).get("cuda") or []
    major = d.split(".")[0]
    if rel and cudas and tv in cudas and not any(c.split(".")[0] == major for c in cudas):
        out.update({"torch_rel": rel, "rel_cudas": ", ".join(cudas), "rel_none": "yes"})
    return out


DERIVE["cuda_pair_rel"] = _d_cuda_pair_rel


# -- [r17b machine]
# apt's "pkg : Depends: lib (= V+cudaA) but V2+cudaB is to be installed" for NVIDIA's paired packages (cuDNN, NCCL,
# TensorRT: the -dev, -bin or plugin package must have the library's exact version). Which of the two versions to name
# is the one built for the CUDA the log says it uses (an image tag "cuda11.7", "cuda:11.8.0-...", "cuda 7.5"), never the
# "+cudaX" inside a package version. NVIDIA/nvidia-docker#298 (cuda 7.5 image: the +cuda7.5 pair), bghira/SimpleTuner#47
# (pytorch:...-cuda11.7 image: its held +cuda11.7 libnccl2), NVIDIA/TensorRT#1741 (cuda:11.8.0 image: the +cuda11.8 set).
_APT_FORMS = frozenset({"word", "glued", "path"})


def _d_apt_pair(v: dict, t: LogText, m: re.Match) -> dict:
    """``keep`` / ``keep_cuda``: the version of the pair built for the CUDA the log names (else ""); ``other`` its
    counterpart."""
    want, got = v.get("want", ""), v.get("got", "")
    wc, gc = v.get("want_cuda", ""), v.get("got_cuda", "")
    said = set(named(t.text, _APT_FORMS))
    if wc != gc and wc in said and gc not in said:
        return {"keep": want, "keep_cuda": wc, "other": got}
    if wc != gc and gc in said and wc not in said:
        return {"keep": got, "keep_cuda": gc, "other": want}
    return {"keep": "", "keep_cuda": "", "other": ""}


DERIVE["apt_pair"] = _d_apt_pair


# -- [r17b build] the host gcc's headers failing under nvcc, decided by the CUDA the log shows in any form: the
# reporter's own list ("gcc, g++, 5.4.0 / cuda 7.5", NVIDIA/AMGX#9 = fresh17 q70) names the toolkit as often as nvcc's
# release line does, and the gcc of the header path past that CUDA's gcc_max is the cause either way (principle 7).


def _d_host_gcc_fit_shown(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``host_gcc_fit`` derives, with the CUDA taken from ``_cuda_shown`` or the reporter's "cuda 7.5" when no
    tool printed it."""
    cuda = v.get("cuda_seen") or _nvcc_seen(t) or _cuda_shown(v, t)
    if not cuda:
        cuda = next(iter(named(t.text, {"word"})), "")
    return _d_host_gcc_fit(dict(v, cuda_seen=cuda) if cuda else v, t, m)


DERIVE["host_gcc_fit_shown"] = _d_host_gcc_fit_shown


# -- [r18 frameworks] torch 1.0-1.4's "Found GPU0 <name> which requires CUDA_VERSION >= 10000 to work properly, but
# your PyTorch was compiled with CUDA_VERSION 9000" (torch/cuda/__init__.py incorrect_binary_warn) names the GPU, not
# its architecture: the GPU the log names (extract.py `gpu_cc`, knowledge/gpus.yaml) gives it, then `torch_arch` says
# what it always says of an architecture the build lacks.
def _d_torch_arch_named(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_torch_arch`, the architecture taken from the GPU the log names when the message gives only CUDA
    versions (torch 1.0-1.4's "requires CUDA_VERSION >= 10000")."""
    if v.get("need_cuda") and not v.get("capability") and not re.match(r"sm_\d", v.get("arch") or ""):
        cc = v.get("gpu_cc", "")
        if re.fullmatch(r"\d+\.\d+", cc or ""):
            v = dict(v, arch="sm_" + cc.replace(".", ""))
    return _d_torch_arch(v, t, m)


DERIVE["torch_arch_named"] = _d_torch_arch_named


# -- [r19 leftovers]
# (1) A library of an nvidia-* pip wheel calls a versioned symbol of a library that the SAME wheel ships beside it
# (nvidia-cublas: libcublas and libcublasLt; nvidia-cudnn: libcudnn and its sub-libraries; nvidia-cufft: libcufft and
# libcufftw; nvidia-cusolver: libcusolver and libcusolverMg): the sibling it needs is in its own directory, and another
# copy of that soname won (a toolkit's lib64 on LD_LIBRARY_PATH, one a package loaded first). The fix is that sibling
# first, whatever framework loads it: deepmodeling/deepmd-kit#2241 (fresh18 r71, a TensorFlow env: libcublasLt.so.11
# of the wheel preloaded before libcublas.so.11), lipzh5/ResearchProgress#16 (the wheel's nvidia/cublas/lib prepended
# to LD_LIBRARY_PATH), hpcaitech/ColossalAI#4059, hcnoh/gail-pytorch#5 (torch's _preload_cuda_deps, the same line).
_WHEEL_SIBLINGS = {"cublas": ("libcublas", "libcublasLt", "libnvblas"), "cufft": ("libcufft", "libcufftw"),
                   "cusolver": ("libcusolver", "libcusolverMg"), "cudnn": ("libcudnn",)}
_WHEEL_LIB_DIR = re.compile(r"(/[\w./+-]*?(?:site|dist)-packages/(?:[\w.-]+/lib/\.\./\.\./)?nvidia/(\w+)/lib)/(lib\w+)\.so")


def _d_shadowed_sibling(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``shadowed`` derives, plus ``wheel_dir`` (the nvidia-* wheel directory of the library that fails, when the
    library it needs, ``lib``, is one that same wheel ships) and ``wheel_pkg`` (that wheel's name, e.g. nvidia-cublas-cu11)."""
    out = DERIVE["shadowed"](v, t, m)
    out.update({"wheel_dir": "", "wheel_pkg": ""})
    a = t.text.rfind("\n", 0, m.start()) + 1
    b = t.text.find("\n", m.end())
    caller = _WHEEL_LIB_DIR.search(t.text, a, len(t.text) if b < 0 else b)
    lib = out.get("lib", "")
    if not caller or caller.start() > m.end() or not lib.startswith("lib"):
        return out
    stem = re.sub(r"_\w+$", "", lib.split(".so")[0])
    sibs = _WHEEL_SIBLINGS.get(caller.group(2), ())
    major = re.search(r"\.so\.(\d+)$", lib)
    if stem in sibs and caller.group(3) != lib.split(".so")[0]:
        out["wheel_dir"] = caller.group(1)
        out["wheel_pkg"] = f"nvidia-{caller.group(2)}-cu{major.group(1)}" if major else f"nvidia-{caller.group(2)}"
    return out


DERIVE["shadowed_sibling"] = _d_shadowed_sibling


# (2) A hosted notebook (Colab, Kaggle, Baidu AI Studio, SageMaker...) whose driver the user cannot change: the build of
# the framework made for the driver's CUDA comes first. PaddlePaddle 2.0-2.5 name that build in the version
# (`paddlepaddle-gpu==2.0.0.post101` from https://paddlepaddle.org.cn/whl/mkl/stable.html; the plain version is the
# CUDA 10.2 build: PaddlePaddle's install guide, PaddlePaddle/PASSL docs/INSTALL.md). PaddlePaddle/Paddle#30933
# (fresh18 r38: 2.0.0 on AI Studio; 2.0.0.post101 ran), PaddlePaddle/PaddleX#1211 (AI Studio's "PaddlePaddle 2.1.2"
# on a 418 driver, CUDA 10.1).
_PADDLE_PIN = re.compile(r"(?i:paddlepaddle-gpu\s*==|PaddlePaddle[ :：]+v?)\s*(\d+\.\d+\.\d+)(?!\.post|\.\d)")


def _d_driver_facts_hosted(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``driver_facts`` derives, plus ``paddle_ver`` (the paddlepaddle-gpu release the log pins without a
    ``.postNNN`` CUDA tag, i.e. its default CUDA build)."""
    out = DERIVE["driver_facts"](v, t, m)
    f = _PADDLE_PIN.search(t.text) if "addle" in t.text else None
    out["paddle_ver"] = f.group(1) if f else ""
    return out


DERIVE["driver_facts_hosted"] = _d_driver_facts_hosted


# (3) A program that carries only PTX for an architecture below the GPU's (a hard-coded CMAKE_CUDA_ARCHITECTURES, a
# project's own *_CUDA_ARCHITECTURES, -arch=sm_XY / arch=compute_XY, TORCH_CUDA_ARCH_LIST) has the driver JIT that PTX;
# when the nvcc that made it is newer than the driver, the JIT fails. Machine code for the GPU's own architecture needs
# no JIT, which no driver change can beat on a machine whose driver is not the user's (a CI runner). dartsim/dart#3475
# (fresh18 r64: DART_CUDA_ARCHITECTURES "75" on an sm_89 runner, pixi's nvcc 13.3 over a CUDA 13.2 driver; "89" fixed
# it), AlexeyAB/darknet#7637 (CMake's default CMAKE_CUDA_ARCHITECTURES 52 on a newer GPU; its own value fixed it).
_BUILD_ARCH = re.compile(r"\b(\w*CUDA_ARCHITECTURES|CUDAARCHS)\b[`'\"]?\s*(?:[:=]|\bis\b)?\s*[`'\"]?(\d{2,3})(?:-(?:real|virtual))?\b|"
                         r"(?:-arch[= ]|code=|arch=)(?:sm|compute)_(\d{2,3})\b|\bcompute_(\d{2,3})\b|"
                         r"\b(TORCH_CUDA_ARCH_LIST)=[\"']?(\d+\.\d)\b")
_NVCC_MADE = re.compile(r"(?i:\bnvcc\b)[*`\s]*(?:version\s*|v)?(\d{1,2}\.\d)\b|release (\d{1,2}\.\d), V\d|\bcuda-nvcc[=\s-]+(\d{1,2}\.\d)\b")


def _d_smi_torch_arch(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``smi_torch`` derives, plus ``ptx_arch`` (the highest architecture the log's build setting names, e.g. 75)
    and ``gpu_arch`` (the GPU's, from the ``gpu_cc`` fact) when the first is below the second (the program runs from
    PTX JIT), ``arch_var`` (the build's own variable, else CMAKE_CUDA_ARCHITECTURES) and ``nvcc_made`` (the nvcc
    version the log names, the CUDA that made the PTX)."""
    out = DERIVE["smi_torch"](v, t, m)
    out.update({"ptx_arch": "", "gpu_arch": "", "arch_var": "", "nvcc_made": ""})
    cc = v.get("gpu_cc", "")
    text = t.text
    if not re.fullmatch(r"\d+\.\d", cc or "") or not any(k in text for k in ("ARCH", "arch", "compute_")):
        return out
    archs, var = [], ""
    for f in _BUILD_ARCH.finditer(text):
        if f.group(2):
            archs.append(int(f.group(2)))
            var = var or (f.group(1) if f.group(1) != "CUDAARCHS" else "")
        elif f.group(3) or f.group(4):
            archs.append(int(f.group(3) or f.group(4)))
        elif f.group(6):
            archs.append(int(f.group(6).replace(".", "")))
            var = var or f.group(5)
    gpu = int(cc.replace(".", ""))
    if archs and max(archs) < gpu:
        out.update({"ptx_arch": str(max(archs)), "gpu_arch": str(gpu), "arch_var": var or "CMAKE_CUDA_ARCHITECTURES"})
        made = _NVCC_MADE.search(text)
        out["nvcc_made"] = next((g for g in made.groups() if g), "") if made else ""
    return out


DERIVE["smi_torch_arch"] = _d_smi_torch_arch


# (5) apt.cuda_drivers_distro_archive: name the dependency apt could not meet, when the log shows it.
def _d_apt_cuda_drivers(v: dict, t: LogText, m: re.Match) -> dict:
    """``dep_part``: " (nvidia-driver-440 ...)" when apt's line names the dependency, else ""."""
    dep = v.get("dep", "")
    if not dep:
        f = re.search(r"cuda-drivers(?:-\d+)? : Depends: ([\w.+-]+)", t.text) if "Depends:" in t.text else None
        dep = f.group(1) if f else ""
    return {"dep_part": f" ({dep} cannot be installed)" if dep else ""}


DERIVE["apt_cuda_drivers"] = _d_apt_cuda_drivers


# (6) runtime.ptx_target_above_gpu: the driver's JIT fails ("a PTX JIT compilation failed", CUDA_ERROR_INVALID_PTX) on a
# GPU below Maxwell: the PTX names a newer .target than the GPU (nvcc since CUDA 11/12 and NVRTC default to compute_52
# or higher; LuxCoreRender/LuxCore#492). The architectures each toolkit still compiles for: sm_30 until CUDA 10.2,
# sm_35/sm_37 until 11.8, sm_20/21 until 8.0 (data/compat.yaml's sm_min rows; the nvcc.unsupported_arch cause).
# wilicc/gpu-burn#101 (fresh18 r34: GT 730, COMPUTE ?= 50 -> 35), taichi-dev/taichi#2761 (Quadro K2000M).
_COMPUTE_VAR = re.compile(r"\b(COMPUTE|SM|GPU_ARCH|CUDA_ARCH)\s*\??[:=]\s*(\d{2,3})\b")


def _d_ptx_old_gpu(v: dict, t: LogText, m: re.Match) -> dict:
    """``ptx_old_gpu`` ("yes" when the GPU the log names is below compute capability 5.0), ``gpu_sm`` (its number,
    e.g. 35), ``gpu_last_cuda`` (the last CUDA that compiles for it), ``ptx_built`` (" (the build names sm_50)" when
    the log shows an architecture above the GPU's)."""
    out = {"ptx_old_gpu": "", "gpu_sm": "", "gpu_last_cuda": "", "ptx_built": ""}
    cc = v.get("gpu_cc", "")
    if not re.fullmatch(r"\d+\.\d", cc or "") or int(cc.split(".")[0]) >= 5:
        return out
    gpu = int(cc.replace(".", ""))
    last = "8.0" if gpu < 30 else ("10.2" if gpu < 35 else "11.8")
    archs = [int(f.group(2) or f.group(3) or f.group(4)) for f in _BUILD_ARCH.finditer(t.text)
             if f.group(2) or f.group(3) or f.group(4)]
    archs += [int(f.group(2)) for f in _COMPUTE_VAR.finditer(t.text)]
    above = [a for a in archs if a > gpu]
    out.update({"ptx_old_gpu": "yes", "gpu_sm": str(gpu), "gpu_last_cuda": last,
                "ptx_built": f" (the build in this log names sm_{max(above)})" if above else ""})
    return out


DERIVE["ptx_old_gpu"] = _d_ptx_old_gpu


# -- [r19 wrongfirst2] FlashInfer's JIT gate ("SM 12.x requires CUDA >= 12.9") reads the CUDA of CUDA_HOME's nvcc, else
# torch.version.cuda (flashinfer/compilation_context.py, get_cuda_version). When the log names a torch build whose CUDA
# already meets the gate (torch 2.11.0+cu130), the CUDA read was CUDA_HOME's, an older toolkit: CUDA_HOME goes to a
# toolkit of torch's CUDA (vllm-project/vllm#44305, fresh18 r69; flashinfer-ai/flashinfer#3633's comment: torch+cu132
# with CUDA_HOME switched to a 12.8 toolkit fails, 12.9 builds). A CUDA toolkit that pip installed into the environment
# (CUDA 13's site-packages/nvidia/cu13, with bin/nvcc) is the one to name when the log shows it.
_PIP_TOOLKIT_DIR = re.compile(r"(?<![\w.-])(/[\w./+-]*?[/\\](?:site|dist)-packages/nvidia/cu(\d{2}))\b")


def _d_jit_gate_torch_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    """``torch_cuda``: the CUDA of the torch build the log names when it is at least the ``need`` of the gate (so the
    toolkit that failed it is CUDA_HOME's), else ""; ``home_cuda``: the CUDA the log prints for CUDA_HOME's toolkit
    (FlashInfer's ``CUDA_VERSION: 12.8``), else ""; ``pip_toolkit``: a pip-installed CUDA toolkit directory of torch's
    major the log shows (``.../site-packages/nvidia/cu13``), else ""."""
    out = {"torch_cuda": "", "home_cuda": "", "pip_toolkit": ""}
    need = v.get("need", "")
    cuda = cuda_of_torch_build(v.get("torch_build", "")) or next(iter(torch_builds_named(t.text)), "")
    if not need or not cuda or version_key(cuda)[:2] < version_key(need)[:2]:
        return out
    out["torch_cuda"] = cuda
    hm = re.search(r"(?m)^(?:FLASHINFER_)?CUDA_VERSION: (\d+\.\d+)\b", t.text)
    if hm and version_key(hm.group(1))[:2] < version_key(need)[:2]:
        out["home_cuda"] = hm.group(1)
    for pm in _PIP_TOOLKIT_DIR.finditer(t.text):
        if pm.group(2) == cuda.split(".")[0]:
            out["pip_toolkit"] = pm.group(1)
            break
    return out


DERIVE["jit_gate_torch_cuda"] = _d_jit_gate_torch_cuda


# -- [r19 f19container]
_GRAPH_DEV = re.compile(r"XML Import Channel : dev (\d+) not found")


def _d_graph_dev(v: dict, t: LogText, m: re.Match) -> dict:
    """``dev``: the GPU NCCL's "XML Import Channel : dev N not found" names, read from the log when the line answered is
    an earlier one of the same configuration (NCCL's print of NCCL_GRAPH_FILE or the image's topology file, which
    NVIDIA/nccl#1240's log holds above the WARN), else ""."""
    if v.get("dev") not in (None, "", "N"):
        return {}
    gm = _GRAPH_DEV.search(t.text)
    return {"dev": gm.group(1)} if gm else {}


DERIVE["graph_dev"] = _d_graph_dev


# -- [r19 f19python]
# pip's build isolation: a project that lists torch in pyproject.toml's build requirements is built in a fresh
# environment (/tmp/pip-build-env-*/overlay) with PyPI's newest torch, so torch's CUDA check compares the toolkit with a
# torch that is not the installed one. The evidence in a log: it says the torch installed is built for the toolkit's
# CUDA (a torch "+cuNNN" build of the detected CUDA, or "pytorch with 11.8") while the message names another. princeton-vl/lietorch#45 (fresh19 s70), facebookresearch/fairscale#305,
# pytorch/vision#6426, Dao-AILab/flash-attention#833.
_PIP_TARGET = re.compile(r"\bpip3? install\s+(?:-{1,2}[\w-]+(?:=\S+)?\s+)*(git\+[\w:/.@#=+-]+|\.(?=\s|$)|[A-Za-z][\w.\[\]=~,-]*)")  # no shell syntax taken


def _torch_said_for(text: str, cuda: str) -> bool:
    """The log says the installed torch is built for ``cuda`` ("torch 2.1.0+cu118", "installed pytorch with 11.8")."""
    if not cuda or not re.fullmatch(r"\d+\.\d+", cuda):
        return False
    if cuda in torch_builds_named(text):
        return True
    return bool(re.search(r"(?i)\binstall(?:ed|ing|s)?\b[^\n]{0,30}?\b(?:py)?torch\b[^\n]{0,20}?\b(?:with|for)\s+(?:cuda\s*)?"
                          + re.escape(cuda) + r"\b", text))


def _d_cuda_pair_iso(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``cuda_pair_rel`` derives, and ``isolated`` ("yes" when the torch the message names is the one of pip's
    isolated build environment) with ``pip_target`` (what the log pip-installed, else ".")."""
    out = _d_cuda_pair_rel(v, t, m)
    d, tv = v.get("detected", ""), v.get("torch", "")
    iso = ""
    # the pip-build-env directory alone does not decide: the installed torch may be the isolated one's CUDA too
    # (vllm-project/vllm#1060: /tmp/pip-build-env-*/overlay, fixed by an nvcc of torch's CUDA); a build already run
    # with --no-build-isolation (xiaobiaodu/Mobile-GS#8) is not isolated
    if d and tv and d != tv and _torch_said_for(t.text, d) and "--no-build-isolation" not in t.text:
        iso = "yes"
    pm = _PIP_TARGET.search(t.text)
    out.update({"isolated": iso, "pip_target": pm.group(1).rstrip(".,;)`'\"") if pm else "."})
    return out


DERIVE["cuda_pair_iso"] = _d_cuda_pair_iso


# -- [r20 docsrun]

def _d_fm_versions(v: dict, t: LogText, m: re.Match) -> dict:
    """The fabric manager's and the driver's versions from the fabric manager's own refusal anywhere in the log
    (``fm_version``, ``fm_driver``, ``fm_branch``), when the entry matched first on CUDA's error 802 above it
    (dstackai/dstack#2348: torch's 802 warning, then the service's journal)."""
    if v.get("fm_version") or "fabric manager NVIDIA GPU" not in t.text:
        return {}
    fm = kb_pattern("driver.fabric_manager", "fabric manager NVIDIA GPU driver interface version").search(t.text)
    return {k: fm.group(k) for k in ("fm_version", "fm_driver", "fm_branch")} if fm else {}


DERIVE["fm_versions"] = _d_fm_versions


# -- [r20 prun]
# The mirror of status.gpu_newer_than_build_cuda_unseen: cuDNN's or cuBLAS's EXECUTION_FAILED beside a framework build
# the log names as CUDA 9.x or older, and no GPU the GPU table reads. A Turing GPU (RTX 20xx, GTX 16xx, T4: CUDA 10.0)
# or a newer one under such a build is the common case: ChenRocks/fast_abs_rl#36 (pytorch 0.4.0, cuda 9.0: CUDA 10 and
# pytorch 1.0 solved it), traveller59/second.pytorch#43 ("CUDA 9.0 has problem recognizing the graphic card of RTX
# 20xx": a newer CUDA), tensorboy/pytorch_Realtime_Multi-Person_Pose_Estimation#90 (CUDA 9.0 + torch 1.0.1, pointed to
# the RTX 2080 Ti thread). The GPU decides, so the answer asks for it first.
def _d_gpu_unseen_old_build(v: dict, t: LogText, m: re.Match) -> dict:
    """``old_build``: the oldest framework build CUDA the log names when it is older than 10.0 (the first CUDA that knows
    Turing) and the log names no GPU the GPU table knows (extract's ``gpu_cc``, ``gpus_named``), else ""."""
    if re.fullmatch(r"\d{1,2}\.\d", v.get("gpu_cc") or "") or gpus_named(t.text):
        return {"old_build": ""}
    builds = build_cudas_named(t)
    return {"old_build": builds[0] if builds and 0 <= _major(builds[0]) < 10 else ""}


DERIVE["gpu_unseen_old_build"] = _d_gpu_unseen_old_build

# -- [r20 docdistro]
# The kernel Makefile's warning when a module is built with another compiler than the kernel's names both:
#   "The kernel was built by: x86_64-linux-gnu-gcc-12 (Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0"
#   "You are using:           cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0"
# A minor-version difference is harmless (lwfinger/rtw88#109); an older major than the kernel's fails on the flags only
# the newer gcc knows (pop-os/pop#3117: a 22.04 HWE kernel built by gcc-12, gcc 11 the default; installing gcc-12 fixed
# it), which gcc's refusal of a kernel-only flag says outright.
_KERNEL_YOU_USE = re.compile(r"You are using:[ \t]+\S*?\b(?:gcc|cc)(?:-\d+)? \([^\n]*?\) (\d+)\.\d+")

def _d_kernel_gcc(v: dict, t: LogText, m: re.Match) -> dict:
    """``kgcc``: the gcc major the running kernel was built with, when the log names it; ``kgcc_newer``: "yes" when gcc
    refused a kernel-only flag, or the gcc used is of an older major than the kernel's, else ""."""
    out = {}
    km = kb_pattern("driver.kernel_compiler_older", "The kernel was built by").search(t.text)
    um = _KERNEL_YOU_USE.search(t.text)
    if km:
        out["kgcc"] = km.group("kgcc")
    refused = kb_pattern("driver.kernel_compiler_older", "unrecognized command-line option").search(t.text)
    newer = bool(refused) or bool(km and um and int(km.group("kgcc")) > int(um.group(1)))
    out["kgcc_newer"] = "yes" if newer else ""
    return out


DERIVE["kernel_gcc"] = _d_kernel_gcc

# -- [r20 dochpc]

def _d_module_conflict(v: dict, t: LogText, m: re.Match) -> dict:
    """A module conflict: the requested module's stem (as :func:`_d_module_name`) and the loaded module the message
    names (``loaded_name``), or the requested one's stem when the message names none (the usual conflict of a module
    with its own other versions) or the family (Lmod's "one compiler module at a time")."""
    if v.get("named") and (v.get("module") or "the module") == "the module":
        v = {**v, "module": v["named"]}
    out = _d_module_name(v, t, m)
    if v.get("module"):
        out["module"] = v["module"]
    loaded = (v.get("loaded") or "").strip()
    if loaded:
        out["loaded_name"] = loaded
    elif v.get("module") and v.get("module") != "the module":
        out["loaded_name"] = f"another {out['stem']} module"
    if v.get("family") and v.get("module") == "the module":
        out["stem"] = v["family"]
    return out


DERIVE.update({"module_conflict": _d_module_conflict})



def _d_pip_no_space_what(v: dict, t: LogText, m: re.Match) -> dict:
    """What pip ran out of: its quota (Errno 122) or the disk's space (Errno 28)."""
    return {"what": "disk quota" if v.get("quota") else "disk space"}


DERIVE.update({"pip_no_space_what": _d_pip_no_space_what})


# -- [r20 f20order]
def _d_arch_versions_bare(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_arch_versions`, and a bare major the log says is installed (fresh20 t06, the Faster R-CNN thread:
    "I have a GTX 1080ti and Cuda 8 installed", sm_61 refused, which CUDA 8.0 compiles: CUDA 8's nvcc on PATH fixed it;
    torch/cutorch#681 says the same with "CUDA 8.0 is installed") as ``named_cuda``."""
    out = _d_arch_versions(v, t, m)
    if out.get("named_cuda") or out.get("distro_nvcc"):
        return out
    sm = _arch_number(v.get("arch", ""))
    have = toolkits_for_arch(sm)
    if not sm or not have:
        return out
    first = sm_first_before_rows().get(sm, have[0])
    lo, hi = version_key(first)[:2], version_key(have[-1])[:2]
    ok = [x for x in installed_majors(t.text) if lo <= version_key(f"{x}.0")[:2] <= hi]
    if ok:
        x = ok[-1]
        out.update({"named_cuda": f"{x}.0" if x <= 8 else str(x), "ran_cuda": "", "arch_old_cuda": "", "arch_first": "",
                    "gpu_needs": "", "gpu_said": "", "gpu_why": ""})
    return out


DERIVE["arch_versions_bare"] = _d_arch_versions_bare


# -- [r21 obuild]
# What the log says is installed decides the first fix of a compiler that is too new for nvcc: a gcc the toolkit
# accepts that the log already names (a gcc-7 binary, "gcc 7.5.0" in the user's list beside "g++ 9.3", gcc --version
# output, an AUR "gcc13", `ls /usr/bin/gcc-*` listing gcc-4.8) is selected for nvcc rather than another one installed.
# Jittor/jittor#182 (Ubuntu 20.04, CUDA 10.1: "g++ 9.30 / gcc 7.5.0"; update-alternatives made gcc and g++ both 7),
# facebookarchive/caffe2#442 (CUDA 8: `ls /usr/bin/gcc-*` found gcc-4.8, update-alternatives to it fixed the build).
# Not evidence: the limit's own words ("gcc versions later than 8", "gcc 4.9 and up"), Python's build banner
# ("[GCC 7.3.0] :: Anaconda"), conda's libgcc-ng rows.
_GCC_NAMED = re.compile(
    r"(?<![\w\[/.-])(?:gcc|g\+\+)-(\d{1,2}(?:\.\d)?)(?![\w.])"  # a binary: gcc-7, g++-12, gcc-4.8
    r"|(?<=/)(?:gcc|g\+\+)-(\d{1,2}(?:\.\d)?)(?![\w.])"  # by path: /usr/bin/gcc-6
    r"|(?<![\w\[/.-])gcc(\d{1,2})(?![\w.])"  # a distribution's package: gcc13 (AUR), gcc11
    r"|(?<![\w\[/.-])(?i:gcc|g\+\+)(?: version)?:? (?:\([^()\n]{1,40}\) )?v?(\d{1,2})\.(\d{1,2})(?:\.\d+)?(?![\w.])(?! and up)")


_GCC_LIMIT_WORDS = re.compile(r"(?i)later than|and up are not|\[GCC|[<>]=|adequate version|required version")


def gcc_named(text: str) -> list[str]:
    """The gcc versions a log names as present (majors; "4.8" for the 4.x series), in the order they appear."""
    out: list[str] = []
    refused: dict[int, int] = {}  # a line's start -> where its first limit's word ends (once per line, not per match)
    a = seen = 0
    for m in _GCC_NAMED.finditer(text):
        if m.group(4):
            major, minor = m.group(4), m.group(5)
            v = f"{major}.{minor}" if major == "4" else major
        else:
            v = next(g for g in m.groups()[:3] if g)
            if v.startswith("4.") is False and "." in v:
                v = v.split(".")[0]
        nl = text.rfind("\n", seen, m.start())  # the line's start, looked for only since the last match
        a = nl + 1 if nl >= 0 else a
        seen = m.start()
        if a not in refused:
            b = text.find("\n", a)
            w = _GCC_LIMIT_WORDS.search(text, a, len(text) if b < 0 else b + 8)
            refused[a] = w.end() if w else len(text) + 9
        if refused[a] <= m.end() + 8:
            continue
        if v not in out:
            out.append(v)
    return out


# [p24 a] torch.utils.cpp_extension's refusal names the compiler's version and the CUDA it checked against; when that
# CUDA's own host_config.h (data/compat.yaml gcc_max) accepts this gcc, torch's table is older than the toolkit and
# nothing but torch's check stops the build (TORCH_DONT_CHECK_COMPILER_ABI=1 skips it on Linux, torch's own switch).
# pytorch/pytorch#173366 (CUDA 12.8 is compatible with gcc 14: its host_config.h errors only above 14),
# conda-forge/pytorch-cpu-feedstock#507 (gcc 14 with CUDA 12.9 refused as "(>=6.0.0, <14.0)"; the variable as the
# work-around), pytorch/pytorch#82860 (g++ 12 working with CUDA 11.7 for pytorch3d; "export
# TORCH_DONT_CHECK_COMPILER_ABI=1 to remove the check").
_TORCH_GCC_REFUSED = re.compile(r"installed version of [^()\n]{1,300}\s{0,4}\((\d{1,2})(?:\.\d{1,4}){1,2}\)\s{0,4}"
                                r"is greater than the maximum required version by CUDA (\d{1,2}\.\d{1,2})")


def _torch_table_stale(t: LogText) -> dict:
    """``torch_gcc`` and ``toolkit_gcc``: the gcc major torch's check refused and the newest one the CUDA it names
    accepts, when the toolkit accepts it (torch's table is older); "" otherwise (``torch_ok``, the newest gcc torch
    takes, is set by the caller)."""
    hit = _TORCH_GCC_REFUSED.search(t.text) if "maximum required version by CUDA" in t.text else None
    row = (table()["toolkits"].get(hit.group(2)) or {}) if hit else {}
    top = row.get("gcc_max")
    # CUDA 11.4.0 (nvcc V11.4.48) took gcc 10 only; the table's row is 11.4.1 and later (torch special-cases it too)
    if hit and hit.group(2) == "11.4" and re.search(r"(?<![\d.])11\.4\.(?:0|48)(?![\d.])", t.text):
        top = None
    if hit and top and int(hit.group(1)) <= int(top):
        return {"torch_gcc": hit.group(1), "toolkit_gcc": str(top)}
    return {"torch_gcc": "", "toolkit_gcc": ""}


def _d_gcc_limit_at_hand(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_gcc_limit`, ``gcc_at_hand``: the newest gcc the log names that the toolkit accepts (not above
    ``limit``; "" when it names none), and :func:`_torch_table_stale`'s values."""
    out = {**_d_gcc_limit(v, t, m), **_torch_table_stale(t)}
    limit = out.get("limit") or ""
    # the newest gcc torch's table takes: below the one it refused, and within its bound when the message names one
    out["torch_ok"] = (str(min(int(limit), int(out["torch_gcc"]) - 1)) if limit.isdigit() else
                       str(int(out["torch_gcc"]) - 1)) if out["torch_gcc"] else ""
    if not limit:
        return {**out, "gcc_at_hand": ""}
    lim = version_key(limit)[:2]
    ok = [g for g in gcc_named(t.text) if version_key(g)[:2] <= lim]
    ok.sort(key=lambda g: version_key(g))
    return {**out, "gcc_at_hand": ok[-1] if ok else ""}


DERIVE["gcc_limit_at_hand"] = _d_gcc_limit_at_hand

# -- [r21 orun]
#: Which side of a version pair can move first, read once for several entries: the CUDA and cuDNN line of the
#: CTranslate2 (faster-whisper) release the log names, the cuDNN line the torch it names brings
#: (knowledge/release_lines.yaml, each row with its source), and, for error 35, whether the driver the log shows runs
#: CTranslate2's CUDA 11 line (so the package, not the driver, is the lever). faster-whisper#734 and m-bain/whisperX#720
#: (CTranslate2 4 on 510 and 450 drivers: ctranslate2==3.24.0), m-bain/whisperX#954 (ctranslate2 4.4 beside torch
#: 2.5.1: the cuDNN 9 line), SYSTRAN/faster-whisper#1080 (ctranslate2 4.5 beside torch 2.3: torch 2.4 or newer).
_REL_VER = r"\s*(?:==|>=|<=|~=|<|-|:|\s)\s*v?(\d+\.\d+(?:\.\d+)?)(?![\w.])"
_CT2_VER = re.compile(r"(?i)(?<![\w-])ctranslate2(?:[_ ]version)?" + _REL_VER)
_FW_VER = re.compile(r"(?i)(?<![\w-])faster[-_ ]?whisper(?:[_ ]version)?" + _REL_VER)
_TORCH_VER = re.compile(r"(?i)(?<![\w-])(?:py)?torch(?:[_ ]version)?" + _REL_VER)
_CT2_WORDS = re.compile(r"(?i)faster[_-]?whisper|ctranslate2|whisperx")


def _release_row(table: str, version: str) -> dict:
    """The row of ``knowledge/release_lines.yaml`` ``table`` whose releases hold ``version`` ({} when none)."""
    if not version:
        return {}
    key = version_key(version)[:3]
    for row in knowledge_table("release_lines.yaml").get(table, ()):
        if key >= version_key(row["first"])[:3] and (not row["last"] or key <= version_key(row["last"])[:3]):
            return row
    return {}


def _named_release(rx: re.Pattern, text: str, needle: str) -> str:
    """The first release ``rx`` reads in ``text`` (through the literal ``needle``), "" when none: a log names what
    runs before what a fix moves to ("happens with torch <= 2.3.1, fixed by upgrading to torch >= 2.4.0")."""
    if needle not in text.lower():
        return ""
    f = rx.search(text)
    return f.group(1) if f else ""


def release_lines(v: dict, t: LogText) -> dict:
    """``ct2_cuda``/``ct2_cudnn`` (the line of the CTranslate2 the log names, directly or through faster-whisper's
    pin), ``torch_cudnn`` (the cuDNN major the torch the log names brings), ``torch_named`` (that torch), and
    ``ct2_older`` ("3.24.0" when the log shows CTranslate2, a driver that runs CUDA 11 and not 12, and no CTranslate2
    of the CUDA 11 line: that release is the build the driver runs) with ``rel_driver``/``rel_driver_cuda``."""
    text = t.text
    out = {"ct2_cuda": "", "ct2_cudnn": "", "torch_cudnn": "", "torch_named": "", "ct2_older": "", "rel_driver": "",
           "rel_driver_cuda": ""}
    if not ("hisper" in text or "ranslate2" in text or "HISPER" in text) or not _CT2_WORDS.search(text):
        return out
    row = _release_row("ctranslate2", _named_release(_CT2_VER, text, "ctranslate2"))
    if not row:
        row = _release_row("faster_whisper", _named_release(_FW_VER, text, "whisper"))
    out["ct2_cuda"], out["ct2_cudnn"] = row.get("cuda", ""), row.get("cudnn", "")
    torch = _named_release(_TORCH_VER, text, "torch") or (v.get("torch_build", "").split("+")[0])
    trow = _release_row("torch", torch)
    out["torch_named"], out["torch_cudnn"] = (torch, trow.get("cudnn", "")) if trow else ("", "")
    driver, have = v.get("driver_seen", ""), v.get("driver_seen_cuda", "")
    if driver and _major(have) == 11 and out["ct2_cuda"] in ("", "12"):
        from ...toolkit.compat import minor_compat_min_driver

        floor = minor_compat_min_driver("11.8") or ""
        if floor and version_key(driver) >= version_key(floor):
            out.update({"ct2_older": "3.24.0", "rel_driver": driver, "rel_driver_cuda": have})
    return out


def _d_driver_facts_release(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_driver_facts_hosted` and :func:`release_lines`."""
    return {**DERIVE["driver_facts_hosted"](v, t, m), **release_lines(v, t)}


def _d_library_release(v: dict, t: LogText, m: re.Match) -> dict:
    """The ``library`` derive and :func:`release_lines`."""
    return {**DERIVE["library"](v, t, m), **release_lines(v, t)}


def _d_release_lines(v: dict, t: LogText, m: re.Match) -> dict:
    return release_lines(v, t)


DERIVE.update({"driver_facts_release": _d_driver_facts_release, "library_release": _d_library_release,
               "release_lines": _d_release_lines})


# -- [r21 oforum]
# driver.version_mismatch: which side of the pair the kernel module is, from the kernel's own line ("NVRM: API mismatch:
# the client has the version 535.54.03, but NVRM: this kernel module has the version 530.30.02"). After a reboot
# (extract.py `rebooted`) a module older than the libraries is what the boot loaded: the initramfs still carries it, or the
# new one was not built for this kernel (funloop.org's Arch note, openSUSE/sdbootutil#22, openSUSE/nvidia-driver-G06#25);
# a module newer than the libraries is stale libraries (a half-upgrade), which the entry's package repair answers.
_NVRM_PAIR = re.compile(r"NVRM: API mismatch: the client has the version (\d+(?:\.\d+)+), but\s+(?:NVRM: )?this kernel "
                        r"module has the version (\d+(?:\.\d+)+)", re.I)


def _d_nvml_pair_nvrm(v: dict, t: LogText, m: re.Match) -> dict:
    """What ``nvml_pair`` derives, plus ``module_side``: "older" or "newer" when the log's NVRM line shows the loaded
    kernel module's version against the libraries' (the client's), "" when it does not (or they are equal)."""
    out = DERIVE["nvml_pair"](v, t, m)
    f = _NVRM_PAIR.search(t.text) if "NVRM" in t.text else None
    side, module_version = "", ""
    if f:
        client, module = (tuple(int(x) for x in g.split(".")) for g in f.groups())
        side = "older" if module < client else "newer" if module > client else ""
        module_version = f.group(2)
    else:
        # [r30 tune] /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  595.58.03") beside
        # nvidia-smi's "NVML library version: 580.126": the same pair in two lines (daytonaio/daytona, the burned fresh30
        # o69: an image whose own nvidia-utils 580 met the host's 595 module)
        k = _KERNEL_MODULE.search(t.text) if "Kernel Module" in t.text else None
        lib = out.get("library_version") or ""
        if k and re.fullmatch(r"\d+(?:\.\d+)+", lib):
            module = tuple(int(x) for x in k.group(1).split("."))
            client = tuple(int(x) for x in lib.split("."))
            n = min(len(module), len(client))
            side = "older" if module[:n] < client[:n] else "newer" if module[:n] > client[:n] else ""
            module_version = k.group(1)
    out["module_side"] = side
    out["module_version"] = module_version
    return out


_KERNEL_MODULE = re.compile(_KERNEL_MODULE_RX)


DERIVE["nvml_pair_nvrm"] = _d_nvml_pair_nvrm

# -- [r21 oday] what the log says is installed, read once (`_wheel_listed`, the nvidia-* wheel that ships a missing
# soname) and used by every "not found" entry of a CUDA library: runtime.cuda_library_not_found had it since round 9;
# the runtime itself (libcudart.so.N) is shipped by nvidia-cuda-runtime-cuNN (site-packages/nvidia/cuda_runtime/lib),
# which only torch and JAX add to their own search. A log that lists that wheel installed is a path to give, not a
# package to install: pytorch/TensorRT#4668 (ExecuTorch's runner: "libcudart.so.12: cannot open shared object file"
# while "the job log shows nvidia-cuda-runtime-cu12-12.6.77 going in"; fixed by putting the wheel's lib on
# LD_LIBRARY_PATH).
_WHEEL_MODULE.setdefault("cudart", "cuda_runtime")


def _d_libcudart_wheel(v: dict, t: LogText, m: re.Match) -> dict:
    """:func:`_d_libcudart_torch`, and ``wheel_listed`` / ``wheel_dir`` for the CUDA runtime's own wheel."""
    out = _d_libcudart_torch(v, t, m)
    major = out.get("major", "")
    if major not in ("11", "12"):  # the runtime's wheel is nvidia-cuda-runtime-cuNN for CUDA 11 and 12 (13: unsuffixed, nvidia/cu13)
        return {**out, "wheel_listed": "", "wheel_dir": ""}
    return {**out, **_wheel_listed(t, "cudart", f"nvidia-cuda-runtime-cu{major}", major)}


DERIVE["libcudart_wheel"] = _d_libcudart_wheel

# -- [r21 ofw] installed_for: the CUDA release an install line says its package was taken for, read once: a package
# name carrying it (dgl-cu100, mxnet-cu112, dgl-cuda10.0: dmlc/dgl#919), a wheel index or find-links page named for
# it (OpenMMLab's `-f .../mmcv/dist/cu111/torch1.9.0/index.html`: open-mmlab/mmcv#1224; PyG's
# `torch-1.9.1+cu111.html`; the cuNNN pip indexes), or a wheel URL whose release is tagged with it
# (`.../releases/download/v0.2.90-cu124/llama_cpp_python-0.2.90-cp312-...whl`: abetlen/llama-cpp-python#1822).
# A pip command continued over lines with `\` is one command. Returns (tool, package, cuda "11.1", the install's own
# words for the package, the index or URL that named the CUDA ("" when the package name did)).
_INSTALL_CMD = re.compile(r"\b(conda|pip3?|mamba)\s+install\b((?:[^\n\\]|\\[ \t]*\n)*)")
_WHEEL_NAME = re.compile(r"/([A-Za-z][\w.]*?)-\d[\w.+!]*-(?:cp|py)\d")
_INSTALL_CUDA_FORMS = frozenset({"wheel", "glued", "path"})


def _cuda_in(word: str) -> str:
    """The CUDA release a word of an install command names (cudanames: cu111, cuda10.0, -cu124/), "" for none."""
    got = named(word, _INSTALL_CUDA_FORMS) if "cu" in word.lower() else []
    return got[0] if got else ""


def _same_cuda(cuda: str, soname: str) -> bool:
    """Whether a build for CUDA ``cuda`` ("12.4") is satisfied by a runtime of soname version ``soname`` ("12";
    CUDA 10 and older name major.minor)."""
    if not soname:
        return False
    major = cuda.split(".")[0]
    if "." not in soname and major.isdigit() and int(major) >= 11:
        return major == soname
    return cuda == soname


def installed_for(text: str) -> tuple[str, str, str, str, str]:
    if " install" not in text:
        return "", "", "", "", ""
    for cmd in _INSTALL_CMD.finditer(text):
        by, args = cmd.group(1), cmd.group(2)
        words = args.replace("\\\n", " ").split()
        pkg, cuda, full, index, skip = "", "", "", "", False
        for w in words:
            if skip:
                skip = False
                if not cuda and _cuda_in(w):
                    cuda, index = _cuda_in(w), w
                continue
            if w in ("-f", "--find-links", "--index-url", "--extra-index-url", "-i", "-c", "--channel"):
                skip = True
                continue
            if w.startswith("-"):
                v = w.split("=", 1)[1] if "=" in w else ""
                if v and not cuda and _cuda_in(v):
                    cuda, index = _cuda_in(v), v
                continue
            if "://" in w:
                wn = _WHEEL_NAME.search(w)
                if wn and not pkg and _cuda_in(w):
                    pkg, full = wn.group(1).replace("_", "-"), wn.group(1)
                    cuda, index = cuda or _cuda_in(w), w
                continue
            tagged = _TAGGED_INSTALL.match(f"{by} install {w}")
            if tagged and not pkg and _cuda_in(w):
                pkg, full, cuda, index = tagged.group(2), w, _cuda_in(w), ""
                break
            if not pkg and re.fullmatch(r"[A-Za-z][\w.-]*(?:[=<>~!]=?[\w.*+]+)?", w):
                pkg, full = re.split(r"[=<>~!]", w)[0], w
        if pkg and cuda:
            return by, pkg, cuda, full, index
    return "", "", "", "", ""


# -- [r21 f21fam]
def _d_conda_cudatoolkit_pin(v: dict, t: LogText, m: re.Match) -> dict:
    """[r21 f21fam] conda.cudatoolkit_pin_conflict: the cudatoolkit to pin from the range a framework build asks for
    (conda's ``>=10.1,<10.2`` -> 10.1, ``>=10.0.130,<10.1.0a0`` -> 10.0.130, ``=9`` -> 9, ``10.0.*`` -> 10.0)."""
    need = v.get("need") or ""
    low = re.search(r">=\s*(\d+(?:\.\d+)*)", need) or re.match(r"[=\s]*(\d+(?:\.\d+)*)", need)
    return {"pin": low.group(1) if low else "X.Y"}


DERIVE["conda_cudatoolkit_pin"] = _d_conda_cudatoolkit_pin


# -- [r21 f21prod] ld's "libX.so.OLD, needed by BY, not found" where the log names another toolkit in use (a cuda-X.Y
# path, nvcc's release): BY was built against CUDA OLD and the build now uses CUDA NEW, two toolkits mixed, not a toolkit
# off the link path (link.cuda_libs_two_versions). BVLC/caffe#3787 (fresh21 u68: libcudart.so.7.5 needed by
# /usr/local/lib/libopencv_core.so with CUDA 6.5 in use; OpenCV rebuilt with 6.5 and that link pointed at it).
# A needer that is itself a toolkit library (libcusolver needing libcublas) is not another build.
_F21_TOOLKIT_LIB = re.compile(r"(?:^|/)lib(?:cu|nv|npp)\w*\.so")


def _d_f21_two_versions(v: dict, t: LogText, m: re.Match) -> dict:
    """``new``: the CUDA the log shows in use when it differs from the soname's ``old`` ("" when none, or the same);
    a captured ``new`` (ld's "may conflict with") is kept."""
    if v.get("new"):
        return {"new": v["new"]}
    old, by = v.get("old", ""), v.get("by", "")
    seen = v.get("cuda_seen", "")
    if not old or not seen or _F21_TOOLKIT_LIB.search(by):
        return {"new": ""}
    same = seen == old or seen.split(".")[:2] == old.split(".")[:2]
    return {"new": "" if same else seen}


DERIVE["f21_two_versions"] = _d_f21_two_versions


# -- [r22 ta] a build's own CUDA detection names one release ("-- got cuda version 7.5", Caffe's "-- CUDA detected: 9.0",
# FindCUDA's 'Found CUDA: /usr/local/cuda (found version "10.0")') while nvcc's own "release X.Y" in the same log is
# another: two toolkits, and the build took the one the user did not mean. ``nvcc_cuda`` is nvcc's release when it
# differs from the ``found`` one ("" when the log shows no nvcc release, or the same one).
def _d_found_other_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    found = v.get("found", "")
    releases = [r for r in named(t.text, {"release"}) if r != found]
    return {"nvcc_cuda": releases[0] if found and releases else ""}


DERIVE["found_other_cuda"] = _d_found_other_cuda


# -- [p26 p26-pb] torch's out-of-memory message states the GPU's total, what is free, and what this process's caching
# allocator holds ("7.92 GiB total capacity; 69.17 MiB already allocated; 24.56 MiB free; 86.00 MiB reserved in total by
# PyTorch"; 2.x: "a total capacity of X of which Y is free. Including non-PyTorch memory, this process has Z memory in
# use"). What is neither free nor this process's is held outside it: another process on the GPU (a leftover or zombie
# run, a notebook kernel, another user's job). ``elsewhere`` is that amount when it is more than half the GPU ("" when
# not, when a number is missing, or when the numbers do not add up: Windows' shared memory makes reserved > total).
# LISTatSNU/FastMRI_challenge#238 (the p26-pb practice log: 7.81 of 7.92 GiB held by zombie processes the admins
# killed), pytorch/pytorch#40863 (11.17 GiB, 530 MiB reserved, 12.5 MiB free: the maintainer, "something else is
# hanging on to the memory"), phamquiluan/ResidualMaskingNetwork#15 (10.76 GiB, 1010 MiB reserved: "other programs
# that consume your GPU RAM"). The CUDA context and a desktop take a few hundred MiB to ~1.5 GiB (20-28% of the small
# GPUs in the burned OOM logs, all program answers), hence half.
_SIZE_UNITS = {"B": 1, "bytes": 1, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "TiB": 2 ** 40}


def _size(text: str) -> float | None:
    parts = text.split()
    if len(parts) != 2 or parts[1] not in _SIZE_UNITS:
        return None
    try:
        return float(parts[0]) * _SIZE_UNITS[parts[1]]
    except ValueError:
        return None


def _d_held_elsewhere(v: dict, t: LogText, m: re.Match) -> dict:
    """``elsewhere`` (e.g. "7.81 GiB") and ``share`` ("99%") of the GPU's memory held outside this process."""
    total, free = _size(v.get("total", "")), _size(v.get("free", ""))
    mine = _size(v.get("inuse", "")) if v.get("inuse") else None
    if mine is None and v.get("reserved"):
        mine = _size(v["reserved"])
    if mine is None and v.get("alloc") and v.get("unalloc"):
        a, u = _size(v["alloc"]), _size(v["unalloc"])
        mine = a + u if a is not None and u is not None else None
    if not total or free is None or mine is None or mine + free > total:
        return {"elsewhere": "", "share": ""}
    rest = total - mine - free
    if rest <= total / 2:
        return {"elsewhere": "", "share": ""}
    return {"elsewhere": f"{rest / 2 ** 30:.2f} GiB", "share": f"{round(100 * rest / total)}%"}


DERIVE["held_elsewhere"] = _d_held_elsewhere


# -- [e28 gen] python.companion_package_release_mismatch: the importing package and the package whose module lacks the
# name, both in site-packages; the same package on both sides is a mixed install of one package, not a companion pair.


def _d_companion(v: dict, t: LogText, m: re.Match) -> dict:
    """``same_package``: "yes" when the importing file and the module are in one site-packages package, else "no"."""
    same = bool(v.get("importer")) and v.get("importer", "").lower() == v.get("modpkg", "").lower()
    return {"same_package": "yes" if same else "no"}


DERIVE["companion"] = _d_companion


# -- [r30 lead] a build tool's own test compile with nvcc failed, and the log shows the host compiler it found: meson
# ("C++ compiler for the host machine: c++ (gcc 16.1.1 ...)", then "ERROR: Compiler nvcc cannot compile programs.":
# rigaya/NVEnc, the burned fresh29 l64, CUDA 13.2 with gcc 16 -> -ccbin g++-15), CMake ("The CXX compiler
# identification is GNU 13.2.0"). The gcc each CUDA release accepts is data/compat.yaml's gcc_max (host_config.h).
_HOST_GCC = re.compile(r"(?:C\+\+|C) compiler for the host machine: [^\n(]{0,200}\(gcc (\d{1,2})\.\d"
                       r"|The (?:CXX|C) compiler identification is GNU (\d{1,2})\.\d")
_NVCC_SEEN = re.compile(r"Cuda compiler for the host machine: [^\n(]{0,200}\(nvcc (\d{1,2}\.\d{1,2})"
                        r"|The CUDA compiler identification is NVIDIA (\d{1,2}\.\d{1,2})"
                        r"|Cuda compilation tools, release (\d{1,2}\.\d{1,2}), V")


def _d_host_gcc_for_nvcc(v: dict, t: LogText, m: re.Match) -> dict:
    """``host_gcc``: the gcc major the build tool found (the last the log names); ``nvcc_cuda``: the CUDA of the nvcc
    the log names (or ""); ``gcc_over``: "yes" when that nvcc (else every CUDA release) refuses ``host_gcc``;
    ``gcc_from``: the first CUDA release that accepts it; ``gcc_before``: the newest gcc the release before it accepts."""
    out = {"host_gcc": "", "nvcc_cuda": "", "gcc_over": "", "gcc_from": "", "gcc_before": "", "nvcc_gcc_max": ""}
    found = [next(g for g in h.groups() if g) for h in _HOST_GCC.finditer(t.text)]
    if not found:
        return out
    gcc = int(found[-1])
    rows = table()["toolkits"]
    releases = sorted((k for k in rows if (rows[k] or {}).get("gcc_max")), key=version_key)
    accepting = [k for k in releases if int(rows[k]["gcc_max"]) >= gcc]
    refusing = [k for k in releases if int(rows[k]["gcc_max"]) < gcc]
    out.update(host_gcc=str(gcc), gcc_from=accepting[0] if accepting else "")
    earlier = [k for k in refusing if not accepting or version_key(k) < version_key(accepting[0])]
    out["gcc_before"] = str(rows[earlier[-1]]["gcc_max"]) if earlier else ""
    seen = [next(g for g in s.groups() if g) for s in _NVCC_SEEN.finditer(t.text)]
    row = rows.get(seen[-1]) if seen else None
    if row and row.get("gcc_max"):
        out.update(nvcc_cuda=seen[-1], nvcc_gcc_max=str(row["gcc_max"]))
        out["gcc_over"] = "yes" if gcc > int(row["gcc_max"]) else ""
    elif not accepting:
        out["gcc_over"] = "yes"
        out["nvcc_gcc_max"] = str(rows[releases[-1]]["gcc_max"]) if releases else ""
    return out


DERIVE["host_gcc_for_nvcc"] = _d_host_gcc_for_nvcc


# [r31 buildsys] meson prints its summary ("Run-time dependency CUDA found: NO") on the line before its reason
# ("Couldn't find requested CUDA module 'cublas'", "The current nvcc version 12.4 does not satisfy ..."): the answer
# is the reason's, wherever the first match was.
_MESON_CUDA_REASON = re.compile(r"Couldn't find requested CUDA module '(?P<module>\w{1,60})'"
                                r"|The current nvcc version (?P<nvcc_version>\d{1,2}\.\d{1,2}) does not satisfy")


def _d_meson_cuda(v: dict, t: LogText, m: re.Match) -> dict:
    """``module`` (a library meson did not find under the root) and ``nvcc_version`` (an nvcc outside the project's
    range): from the match, else from meson's reason anywhere in the log (or "")."""
    out = {"module": v.get("module") or "", "nvcc_version": v.get("nvcc_version") or ""}
    if not (out["module"] or out["nvcc_version"]) and "CUDA" in t.text:
        r = _MESON_CUDA_REASON.search(t.text)
        if r:
            out.update({k: g for k, g in r.groupdict().items() if g})
    return out


DERIVE["meson_cuda"] = _d_meson_cuda
