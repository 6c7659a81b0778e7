"""The Toolkit record, for type checkers.

Toolkits are plain dicts at run time: they are cached with ``marshal`` and
``use`` must not pay for classes or imports. These ``TypedDict`` definitions
exist only while type checking (``TYPE_CHECKING`` is False when the program
runs), so they cost nothing, and give every ``tk["root"]`` a checked key.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    class Components(TypedDict):
        """What parts a toolkit has (see :func:`cudaenv.toolkit.probe.probe`)."""

        nvcc: bool
        cudart_shared: bool
        cudart_static: bool
        stubs: bool
        cupti: bool
        cudnn: str | None

    class Toolkit(TypedDict):
        """One installed toolkit: what :func:`~cudaenv.toolkit.probe.probe` reads, plus how it was found."""

        root: str  # real path
        version: str  # major.minor
        full_version: str  # e.g. 12.4.1
        version_source: str  # version.json, version.txt, cuda.h, nvcc, ...
        nvcc_version: str | None
        libdir: str  # lib64 or lib
        cupti_dir: str | None
        components: Components
        stub_key: str  # names the toolkit's cache directories
        aliases: list[str]  # other paths (symlinks) that lead to root
        found_by: list[str]
        default: bool  # /usr/local/cuda points here
        origin: Origin | None  # a wheel toolkit's environment (None: an installed toolkit)
        dev_links: list[list[str]]  # [link name, target]: unversioned libraries a wheel toolkit lacks

    class Origin(TypedDict):
        """Where a wheel toolkit (``site-packages/nvidia/cuNN``) came from (see ``toolkit/wheels.py``)."""

        kind: str  # "wheels"
        env: str  # the environment prefix (a venv, a conda env, a Python installation)
        site: str  # the site-packages directory holding nvidia/cuNN
        label: str  # a short name of the environment (profile names use it)

__all__ = ["Toolkit", "Components", "Origin"]
