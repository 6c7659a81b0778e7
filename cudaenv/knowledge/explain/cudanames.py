"""Every CUDA version a log names, and how it names it: one reader for the derive stage.

A log names CUDA releases in many forms, and what a form says differs: a toolkit directory ran (``cuda-11.8/bin``),
nvcc printed its release, a reporter wrote "CUDA 11.8", a wheel was built for it (``cu118``), conda listed its
``cudatoolkit``, torch's version implies it. Each derive that needs "the CUDA the log names" picks the forms that
answer its question from :func:`mentions`; the forms are read once per log, with one rule they all keep:

**nvidia-smi's header is the driver's CUDA, not a toolkit's or a build's.** "| NVIDIA-SMI 535.104.05  Driver Version:
535.104.05  CUDA Version: 12.2 |" names the newest CUDA that driver runs (NVIDIA/cutlass#1636: that header beside nvcc's
"release 12.4"; pytorch/pytorch#45028: "CUDA Version: 11.0" of a 450 driver). No form is read from such a line
(``extract._cuda_seen`` and ``driver_seen_cuda`` keep the same rule for the fact stage).

Forms (``Mention.form``):

- ``word``: the name, then the version: "CUDA 11.8", "cuda: 11.8", "CUDA=11.8", "CUDA version 11.8", "CUDA Toolkit
  11.8", "CUDA版本： 9.2.148" (a Chinese log's "version"), "cuda v11.8";
- ``glued``: "cuda11.8", "CUDA10.2" (image tags, a module's name);
- ``path``: "cuda-11.8", "cuda/11.4.2/", "cuda_11.2_..." (toolkit directories, module trees, archive names);
- ``release``: nvcc's "Cuda compilation tools, release 11.4";
- ``macro``: nvcc's verbose ``-D__CUDACC_VER_MAJOR__=11 -D__CUDACC_VER_MINOR__=4``;
- ``wheel``: a wheel's local tag ``cu118``, ``cu92``;
- ``conda``: a conda listing's ``cudatoolkit   10.0`` column and a build string ``py3.6_cuda90_cudnn7_1``;
- ``torch``: "torch 1.6.0", "PyTorch version: 1.13.1", which say which CUDA its wheels were built for (see
  :func:`torch_build_cuda`).

A CUDA named by its major alone ("Cuda 8 installed", "installed CUDA 10") is no mention either: which minor it is
cannot be told. :func:`installed_majors` reads the one such form a derive needs, the user's own statement that the
major is installed.

A name glued behind a word ("libcuda 11.2", "jtcuda") or behind a package version's "+" ("8.6.0.163-1+cuda11.8", which
names the CUDA that package was built for, not one the log uses) is no mention.
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

from . import lazyre as re  # re, its module-level patterns compiled when first used

__all__ = ["Mention", "installed_majors", "mentions", "named", "torch_build_cuda", "torch_builds_named"]


#: A CUDA version the log names: ``version`` "major.minor", its ``form``, its ``start`` offset in the text (a named tuple
#: of collections: typing's NamedTuple imports typing, a tenth of a short explain's start).
Mention = namedtuple("Mention", ["version", "form", "start"])


_SEP_WORD = re.compile(r"[ \t:=：(]|toolkit|version|版本", re.I)

_MENTION = re.compile(
    r"(?<![A-Za-z0-9.+])cuda(?P<sep>(?:[ _-]?toolkit)?[ \t]{0,3}(?:(?:version|版本)[ \t]{0,3})?[:=：(]?[ \t]{0,3}v?|"
    r"[-_/]v?)(?P<a>\d{1,2})\.(?P<b>\d)(?!\d)"
    r"|\brelease[ \t]+(?P<ra>\d{1,2})\.(?P<rb>\d)(?!\d)"
    r"|__CUDACC_VER_MAJOR__=(?P<ma>\d{1,2})[ \t]+-D__CUDACC_VER_MINOR__=(?P<mb>\d)"
    r"|(?<![\w.])cu(?P<wa>\d{1,2})(?P<wb>\d)(?![\w.])"
    r"|_cuda(?P<ca>\d{1,2})(?P<cb>\d)_cudnn|cudatoolkit(?:\W{0,3}|[ \t]{1,40})(?P<ka>\d{1,2})\.(?P<kb>\d)(?!\d)"
    r"|(?<![a-z])(?:py|Py)?(?:torch|Torch)(?:\W{0,3}|[ \t]{1,40})(?:version|版本)?\W{0,3}(?P<ta>\d)\.(?P<tb>\d{1,2})\.\d",
    re.I)

_SMI_LINE = re.compile(r"Driver Version|NVIDIA-SMI", re.I)


def _form(m: re.Match) -> tuple[str, str, str]:
    g = m.groupdict()
    if g["a"] is not None:
        sep = g["sep"]
        form = "glued" if sep in ("", "v", "V") else "path" if sep[0] in "-_/" and not _SEP_WORD.search(sep) else "word"
        return form, g["a"], g["b"]
    for key, form in (("r", "release"), ("m", "macro"), ("w", "wheel"), ("c", "conda"), ("k", "conda"), ("t", "torch")):
        if g[key + "a"] is not None:
            return form, g[key + "a"], g[key + "b"]
    raise AssertionError(m.group(0))  # pragma: no cover - every alternative has its groups


@lru_cache(maxsize=8)
def mentions(text: str) -> tuple[Mention, ...]:
    """Every CUDA version ``text`` names, in order, with its form; none from nvidia-smi's header line."""
    low = text.lower()
    if "cu" not in low and "release" not in low and "torch" not in low:
        return ()
    out = []
    for m in _MENTION.finditer(text):
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if _SMI_LINE.search(line):
            continue
        form, a, b = _form(m)
        out.append(Mention(f"{int(a)}.{int(b)}", form, m.start()))
    return tuple(out)


def named(text: str, forms: set[str] | frozenset[str], lowest: int = 1, highest: int = 13) -> list[str]:
    """The CUDA versions ``text`` names in one of ``forms`` (not torch's: :func:`torch_build_cuda`), majors ``lowest``
    to ``highest``, in the order named, each once."""
    seen: dict[str, None] = {}
    for m in mentions(text):
        if m.form in forms and m.form != "torch" and lowest <= int(m.version.split(".")[0]) <= highest:
            seen.setdefault(m.version, None)
    return list(seen)


def torch_build_cuda(version: str) -> str:
    """The newest CUDA torch ``major.minor`` had wheels for: every release before 1.7 was built for CUDA 10.2 or older
    (PyTorch 1.7.0's release notes: the first with CUDA 11.0 wheels), later ones from data/compat.yaml; "" unknown."""
    major, minor = (int(x) for x in version.split("."))
    if (major, minor) < (1, 7):
        return "10.2"
    from ...toolkit import version_key
    from ...toolkit.compat import torch_cudas

    cudas = torch_cudas(f"{major}.{minor}") or []
    return max(cudas, key=version_key) if cudas else ""


_TORCH_BUILD = re.compile(r"\btorch(?:vision)?[ =:]+\d+\.\d+(?:\.\d+)?(?:\.dev\d+)?\+cu(\d{1,2})(\d)\b")


def torch_builds_named(text: str) -> list[str]:
    """The CUDA of each torch (or torchvision) build the log names with its local tag ("torch 2.11.0+cu130",
    "torch==2.1.0+cu118", "torchvision: 0.16.0+cu121"), in the order named, each once."""
    if "+cu" not in text:
        return []
    return list(dict.fromkeys(f"{int(a)}.{b}" for a, b in _TORCH_BUILD.findall(text)))


#: "Cuda 8 installed", "CUDA 10 is installed", "installed CUDA 9": a toolkit named by its major alone, as the user's
#: installed one (fresh20 t06, the Faster R-CNN thread: "I have a GTX 1080ti and Cuda 8 installed"; torch/cutorch#681).
_BARE_INSTALLED = re.compile(r"(?i)(?<![\w.+-])(?:cuda[ _-]?(?:toolkit )?v?(\d{1,2})(?![\d.])(?: version)? (?:is |was )?"
                             r"(?:already )?installed|installed (?:the )?cuda[ _-]?(?:toolkit )?v?(\d{1,2})(?![\d.]))")


def installed_majors(text: str) -> list[int]:
    """The CUDA majors ``text`` says are installed by the major alone ("Cuda 8 installed"), ascending, each once."""
    if "nstalled" not in text and "NSTALLED" not in text:
        return []
    return sorted({int(a or b) for a, b in _BARE_INSTALLED.findall(text)})
