"""What ``use`` puts in the environment for a profile's cuDNN / NCCL add-ons (loaded only when it lists some).

For each add-on, in the profile's order, after the toolkit's own entries:

* ``CPATH`` += ``<root>/include``: gcc, g++ and clang search it like ``-I`` (and so
  does nvcc's host pass), so ``#include <cudnn.h>`` compiles with no flag;
* ``LIBRARY_PATH`` += ``<root>/lib``: ``ld`` searches it for ``-lcudnn`` / ``-lnccl``;
* ``LD_LIBRARY_PATH`` += ``<root>/lib``, then judged by the profile's ``loader_path``
  like the toolkit's own library directories (``profiles/loader.py``): an add-on
  older than the copy the Python environment's wheels ship (torch's
  ``nvidia-cudnn-cu13``) is left out, so it never shadows torch's;
* ``CMAKE_PREFIX_PATH`` += ``<root>``: every CMake ``find_path``/``find_library``
  (PyTorch's FindCUDNN/FindNCCL, a project's own) looks in its include/ and lib/;
* the variables builds read by name (``toolkit/addons.KINDS``): ``CUDNN_HOME``
  (torch.utils.cpp_extension), ``CUDNN_INCLUDE_DIR``, ``CUDNN_LIB_DIR``,
  ``CUDNN_LIBRARY`` (PyTorch's setup.py and FindCUDNN), ``NCCL_INCLUDE_DIR``,
  ``NCCL_LIB_DIR`` (PyTorch's FindNCCL). A variable the profile's own ``set``
  names keeps the profile's value.

Path lists the profile's ``set`` fixes (``set: {CPATH: …}``) are left as set.
Pure: no file is read (``use`` stays a few stats; ``check`` reads the add-ons).
"""

from __future__ import annotations

from ..toolkit.addons import KINDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..env.ops import Ops
    from .types import Profile

__all__ = ["apply_addons", "ADDON_LISTS"]

#: The path lists an add-on extends, each with the part of the add-on it adds.
ADDON_LISTS = (("CPATH", "include"), ("LIBRARY_PATH", "lib"), ("LD_LIBRARY_PATH", "lib"), ("CMAKE_PREFIX_PATH", ""))


def _join(root: str, rel: str) -> str:
    return root + "/" + rel if rel else root


def apply_addons(profile: Profile, ops: Ops) -> None:
    """Add the profile's add-ons to ``ops`` (see the module doc)."""
    for a in profile.get("addons") or []:
        kind = KINDS.get(a["name"])
        if kind is None:
            continue
        root = a["root"].rstrip("/") or "/"
        for var, rel in ADDON_LISTS:
            if var in ops.set:
                continue
            entry = _join(root, rel)
            lst = ops.prepend.setdefault(var, [])
            if entry not in lst:
                lst.append(entry)
        for var, rel in kind["vars"].items():
            if var not in ops.prepend and var not in ops.append:
                ops.set.setdefault(var, _join(root, rel))
