"""The records ``host/`` produces, for type checkers.

Plain dicts at run time (they are cached with ``marshal``, and ``use`` reads
some of them): these ``TypedDict`` definitions exist only while type checking
(``TYPE_CHECKING`` is False when the program runs), so they cost nothing. Each
names its producer; a key marked ``NotRequired`` may really be absent.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypedDict


    class PythonEnv(TypedDict):
        """The environment ``python3`` on PATH belongs to (:func:`cudaenv.host.pyenv.locate`)."""

        kind: str  # venv | conda | python
        prefix: str
        python: str  # its interpreter
        site: list[str]  # existing site-packages directories, the environment's own first
        user_site: str | None  # the user site it sees, if any

    class WheelInventory(TypedDict):
        """The NVIDIA libraries and tools an environment's wheels ship (:func:`cudaenv.host.pyenv.wheel_inventory`).

        Each entry is ``[path, distribution, version]``.
        """

        libs: dict[str, list[str]]  # soname -> entry
        tools: dict[str, list[str]]  # ptxas, nvlink, ... -> entry

    class TorchBuild(TypedDict):
        """What an environment's torch was built with, from ``torch/version.py`` (:func:`cudaenv.host.pyenv.torch_build`)."""

        version: str | None  # 2.14.1+cu130
        cuda: str | None  # 13.0; None: a CPU or ROCm build
        hip: str | None
        path: str  # the torch package directory

    class CompilerVersion(TypedDict):
        """What ``--version`` says of one compiler binary (cached by its stat)."""

        family: str  # gcc | clang
        version: str
        major: int

    class Compiler(CompilerVersion):
        """One C++ compiler (:func:`cudaenv.host.compilers.compiler_info`)."""

        path: str  # as found on PATH
        real: str  # the binary

    class DefaultCompiler(Compiler):
        """The compiler a build would use (:func:`cudaenv.host.compilers.default_compiler`)."""

        why: str  # "$CXX", "g++ on PATH", ...

    class Gpu(TypedDict):
        """One GPU as :func:`cudaenv.host.driver.driver_facts` reports it."""

        index: int
        name: str | None
        compute_cap: str | None  # "8.9"
        uuid: str | None

    class DriverFacts(TypedDict):
        """Everything learned about the NVIDIA driver without root (:func:`cudaenv.host.driver.driver_facts`)."""

        present: bool  # a real driver answered (kernel module or userspace)
        version: str | None
        cuda: str | None  # newest CUDA the driver supports
        # "proc", "nvidia-smi", "nvml", "libcuda": what each source found, with its "reason"
        # (None when it answered); their keys differ by source.
        sources: dict[str, dict[str, Any]]
        gpus: list[Gpu]
        stub_loaded: bool  # libcuda.so.1 resolved to a stub
        reasons: list[str]  # why not present, and disagreements between sources

__all__ = ["PythonEnv", "WheelInventory", "TorchBuild", "CompilerVersion", "Compiler", "DefaultCompiler", "Gpu", "DriverFacts"]
