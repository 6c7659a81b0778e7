"""The records ``toolkit/`` produces (Toolkit, facts, the compatibility table), for type checkers.

Toolkits are plain dicts at run time: they are cached with ``marshal`` and
``use`` must not pay for classes or imports. These ``TypedDict`` definitions
exist only while type checking (``TYPE_CHECKING`` is False when the program
runs), so they cost nothing, and give every ``tk["root"]`` a checked key.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    from typing_extensions import NotRequired

    class Components(TypedDict):
        """What parts a toolkit has (see :func:`cudaenv.toolkit.probe.probe`)."""

        nvcc: bool
        cudart_shared: bool
        cudart_static: bool
        stubs: bool
        cupti: bool
        cudnn: str | None

    class Identity(TypedDict):
        """What tells one release from another (``toolkit/version.py`` ``same_release``, ``rank_key``)."""

        full_version: str  # e.g. 12.4.1 (a release label) or 13.0.88 (nvcc's number)
        version_source: str
        nvcc_version: str | None

    class ProbedToolkit(Identity):
        """What :func:`~cudaenv.toolkit.probe.probe` reads of one root (the index caches this)."""

        root: str  # real path
        version: str  # major.minor
        full_version: str  # e.g. 12.4.1
        version_source: str  # version.json, version.txt, cuda.h, nvcc, ...
        nvcc_version: str | None
        libdir: str  # lib64 or lib
        cupti_dir: str | None
        components: Components
        stub_key: str  # names the toolkit's cache directories
        origin: Origin | None  # a wheel toolkit's environment (None: an installed toolkit)
        dev_links: list[list[str]]  # [link name, target]: unversioned libraries a wheel toolkit lacks

    class Toolkit(ProbedToolkit):
        """One installed toolkit: what :func:`~cudaenv.toolkit.probe.probe` reads, plus how it was found."""

        aliases: list[str]  # other paths (symlinks) that lead to root
        found_by: list[str]
        default: bool  # /usr/local/cuda points here

    class Origin(TypedDict):
        """Where a wheel toolkit (``site-packages/nvidia/cuNN``) came from (see ``toolkit/wheels.py``)."""

        kind: str  # "wheels"
        env: str  # the environment prefix (a venv, a conda env, a Python installation)
        site: str  # the site-packages directory holding nvidia/cuNN
        label: str  # a short name of the environment (profile names use it)

    class FoundVersion(TypedDict):
        """A toolkit's version as one source gives it (``toolkit/version.py``, ``toolkit/wheels.py``)."""

        full: str
        source: str
        nvcc: str | None

    class VersionInfo(FoundVersion):
        """A toolkit's version as :func:`~cudaenv.toolkit.version.read_version` reads it."""

        short: str  # major.minor

    class HostLimits(TypedDict):
        """The newest host compilers a toolkit accepts (:func:`~cudaenv.toolkit.facts.host_limits`)."""

        gcc_max: int | None
        clang_max: int | None
        source: str  # crt/host_config.h, compat table, unknown

    class GpuArchs(TypedDict):
        """The real architectures a toolkit's nvcc builds (:func:`~cudaenv.toolkit.facts.gpu_archs`)."""

        sm: list[int]
        source: str
        slow: NotRequired[str]  # only when nvcc timed out: why
        range: NotRequired[list[int]]  # nvcc gave none: [sm_min, sm_max] of the compat table

    # data/compat.yaml (toolkit/compat.py): a data file of the package, so every key of a row
    # is there (null when not verified); tests/test_types.py holds the file to these shapes.
    class CompatUpdate(TypedDict):
        min_driver: str | None
        nvcc: str | None

    class CompatToolkit(TypedDict):
        """One toolkit release (major.minor)."""

        min_driver: str | None
        minor_compat_min_driver: str | None
        gcc_max: int | None
        clang_max: int | str | None
        sm_min: int | None
        sm_max: int | None
        src: dict[str, list[str]]
        updates: dict[str, CompatUpdate]  # full version -> its own minimum driver

    class CompatDriver(TypedDict):
        cuda: str
        src: list[str]
        note: NotRequired[str]

    class CompatTorch(TypedDict):
        cuda: list[str] | None
        default_pypi_cuda: str | None
        src: list[str]

    class CompatStd(TypedDict):
        std: str
        src: list[str]

    class CompatGcc(TypedDict):
        gcc: str
        src: list[str]

    class CompatPtx(TypedDict):
        cuda: str
        ptxas_cuda: NotRequired[str]  # when it differs from cuda
        src: list[str]

    class CompatAddon(TypedDict):
        """A cuDNN / NCCL release: CUDA major of a build -> [oldest, newest] CUDA minor listed (None: no bound)."""

        builds: dict[str, list[str | None]]
        src: list[str]

    class PtxCuda(TypedDict):
        cuda: str
        ptxas_cuda: str

    class CompatSmGaps(TypedDict):
        first: dict[int, str]  # sm -> the first release whose nvcc knows it
        last: dict[int, str]  # sm -> the last release that still knows it
        src: list[str]

    class CompatSmHistory(TypedDict):
        known: list[int]  # every sm_NN some nvcc release compiles for
        first_before_rows: dict[int, str]  # sm -> the first release (older than the toolkit rows) that compiles for it
        src: list[str]

    class CompatClangCuda(TypedDict):
        known: dict[int, str]  # clang major -> the newest CUDA release it knows (the clangs that refuse a newer one)
        warns_from: int  # the first clang that only warns on a newer CUDA
        src: list[str]

    class CompatTable(TypedDict):
        schema: int
        sources: dict[str, str]
        toolkits: dict[str, CompatToolkit | None]  # None: a version never released
        driver_max_cuda: dict[str, CompatDriver]  # driver branch -> newest CUDA
        torch: dict[str, CompatTorch]
        torch_cxx_std: dict[str, CompatStd]
        nvcc_max_cxx_std: dict[str, CompatStd]
        libstdcxx_gcc: dict[str, CompatGcc]
        ptx_isa_cuda: dict[str, CompatPtx]
        cudnn: dict[str, CompatAddon]
        nccl: dict[str, CompatAddon]
        sm_gaps: CompatSmGaps  # architectures outside a release's sm_min..sm_max run
        sm_history: CompatSmHistory  # every architecture number, and the first release of those before the rows
        clang_cuda_newest: CompatClangCuda  # clang as the CUDA compiler: the newest CUDA each old clang knows

__all__ = ["Toolkit", "ProbedToolkit", "Identity", "Components", "Origin", "FoundVersion", "VersionInfo", "HostLimits", "GpuArchs",
           "CompatTable", "CompatToolkit", "CompatUpdate", "CompatDriver", "CompatTorch", "CompatStd", "CompatGcc", "CompatPtx",
           "CompatAddon",
           "PtxCuda"]
