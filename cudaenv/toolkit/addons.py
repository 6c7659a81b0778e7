"""cuDNN and NCCL as add-ons of a toolkit: what each kind is, and what an add-on directory says of itself.

An add-on directory is what ``cudaenv install X --with cudnn`` unpacks from
NVIDIA's wheel (``install/addons.py``): ``include/``, ``lib/`` (``libcudnn.so ->
libcudnn.so.9 -> libcudnn.so.9.24.0.43``), ``lib64 -> lib`` and the wheel's
``dist-info/``. The CUDA major an add-on was built for is read from there, from
the wheel's own project name (``nvidia-cudnn-cu13``): a profile's word for it is
not trusted (``check`` compares the two).

Files only, cheap: ``check``, ``verify`` and the profile writer read this; ``use``
reads only :data:`KINDS` (``profiles/addons.py``).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    class AddonKind(TypedDict):
        """One kind of add-on."""

        title: str  # cuDNN
        project: str  # the PyPI project, {major} for the CUDA major: nvidia-cudnn-cu{major}
        header: str  # the header a build includes
        lib: str  # the library's link name (-l<lib>)
        soname_major: str  # libcudnn.so.<this>
        # Variables builds read, each to a path relative to the add-on's root ("" is the root itself).
        vars: dict[str, str]

    class AddonFacts(TypedDict):
        """What an add-on directory holds (:func:`read_addon`)."""

        kind: str
        root: str
        present: bool
        project: str | None  # nvidia-cudnn-cu13, from the dist-info
        version: str | None  # the wheel's version, 9.24.0.43
        cuda_major: str | None  # 13
        problem: str | None  # why it cannot be used (missing, not this kind, ...)

__all__ = ["KINDS", "read_addon", "project_of", "cuda_major_of"]

#: The add-ons cudaenv knows. ``vars``: what builds read (docs/addons.md says who reads which):
#: CUDNN_HOME (torch.utils.cpp_extension: <home>/include, <home>/lib64), CUDNN_INCLUDE_DIR,
#: CUDNN_LIB_DIR and CUDNN_LIBRARY (PyTorch's setup.py and FindCUDNN.cmake), NCCL_INCLUDE_DIR and
#: NCCL_LIB_DIR (PyTorch's FindNCCL.cmake, USE_SYSTEM_NCCL=1).
KINDS: dict[str, AddonKind] = {
    "cudnn": {"title": "cuDNN", "project": "nvidia-cudnn-cu{major}", "header": "cudnn.h", "lib": "cudnn",
              "soname_major": "9",
              "vars": {"CUDNN_HOME": "", "CUDNN_INCLUDE_DIR": "include", "CUDNN_LIB_DIR": "lib",
                       "CUDNN_LIBRARY": "lib/libcudnn.so"}},
    "nccl": {"title": "NCCL", "project": "nvidia-nccl-cu{major}", "header": "nccl.h", "lib": "nccl",
             "soname_major": "2",
             "vars": {"NCCL_INCLUDE_DIR": "include", "NCCL_LIB_DIR": "lib"}},
}


def project_of(kind: str, cuda_major: str) -> str:
    """The PyPI project of ``kind`` built for CUDA ``cuda_major``: ``nvidia-cudnn-cu13``."""
    return KINDS[kind]["project"].format(major=cuda_major)


def cuda_major_of(kind: str, project: str) -> str | None:
    """``13`` for ``nvidia-cudnn-cu13`` (any spelling pip normalises alike), None when it is not ``kind``'s."""
    norm = project.lower().replace("_", "-").replace(".", "-")
    head = KINDS[kind]["project"].split("{major}")[0]
    rest = norm[len(head):] if norm.startswith(head) else ""
    return rest if rest.isdigit() and rest.isascii() and len(rest) <= 3 else None


def read_addon(kind: str, root: str) -> AddonFacts:
    """What the add-on directory ``root`` holds, read from its files (the wheel's dist-info, header, library)."""
    facts: AddonFacts = {"kind": kind, "root": root, "present": False, "project": None, "version": None,
                         "cuda_major": None, "problem": None}
    info = KINDS.get(kind)
    if info is None:
        facts["problem"] = f"unknown add-on {kind!r}"
        return facts
    if not os.path.isdir(root):
        facts["problem"] = f"{root} does not exist"
        return facts
    facts["present"] = True
    try:
        names = sorted(os.listdir(os.path.join(root, "dist-info")))
    except OSError:
        names = []
    for n in names:
        if not n.endswith(".dist-info"):
            continue
        project, _, version = n[: -len(".dist-info")].partition("-")
        major = cuda_major_of(kind, project)
        if major is not None:
            facts["project"] = project_of(kind, major)
            facts["version"] = version or None
            facts["cuda_major"] = major
            break
    if facts["project"] is None:
        facts["problem"] = f"{root} holds no {info['project'].format(major='NN')} wheel metadata (dist-info)"
    elif not os.path.isfile(os.path.join(root, "include", info["header"])):
        facts["problem"] = f"{root} has no include/{info['header']}"
    elif not os.path.exists(os.path.join(root, "lib", f"lib{info['lib']}.so.{info['soname_major']}")):
        facts["problem"] = f"{root} has no lib/lib{info['lib']}.so.{info['soname_major']}"
    return facts
