"""The records ``profiles/`` produces (Profile, loader rows), for type checkers.

Plain dicts at run time (cached with ``marshal``; ``use`` must not pay for
classes or imports): these ``TypedDict`` definitions exist only while type
checking (``TYPE_CHECKING`` is False when the program runs). A key marked
``NotRequired`` may really be absent.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict, Union

    from typing_extensions import NotRequired

    #: A ``build`` value: auto | none | a value (an arch list as text, a job or thread count).
    BuildValue = Union[str, int]

    class AddonRef(TypedDict):
        """A cuDNN / NCCL add-on a profile lists (``profiles/files._addons``)."""

        name: str  # cudnn | nccl (toolkit/addons.KINDS)
        version: str
        cuda: str  # the CUDA major it is built for, as the install wrote it (check reads the wheel's word)
        root: str

    class Profile(TypedDict):
        """A validated profile (``profiles/files.validate``, or ``model.default_profile``)."""

        name: str
        description: str | None
        root: str
        version: str | None
        stubs: str  # auto | always | never
        loader_path: str  # auto | always | never (profiles/loader.py)
        host_compiler: str | None  # auto | none | an absolute path
        # arch_list / max_jobs / nvcc_threads (files.BUILD_KEYS) -> value; a key left out is auto.
        # Absent in a toolkit's default profile: every setting auto. From a file: what it says
        # ({} when it says nothing, which exports none of them).
        build: NotRequired[dict[str, BuildValue]]
        # cuDNN / NCCL add-ons; absent when the profile lists none.
        addons: NotRequired[list[AddonRef]]
        set: dict[str, str]
        prepend: dict[str, list[str]]
        append: dict[str, list[str]]
        # The YAML file it came from (None: the built-in default); absent until load_file sets it.
        file: NotRequired[str | None]

    class SymbolJudgement(TypedDict):
        """What a library copy of unknown version lacks of the wheel's copy (``loader._judge_by_symbols``)."""

        relation: str  # compatible | incompatible
        missing: list[str]  # symbols, or "version V"
        used: int  # how many of them the wheels' own libraries need
        needed_by: list[str]  # wheel libraries that need a missing symbol
        error: str | None  # the copy could not be read

    class ShadowRow(TypedDict):
        """A library a profile's directory holds and the environment's wheels ship too (``loader.shadowing``)."""

        dir: str
        soname: str
        file: str
        version: str | None
        wheel_file: str
        dist: str
        wheel_version: str
        relation: str  # older | newer | same | compatible | incompatible | unknown
        # Only when the versions could not be compared (relation compatible or incompatible):
        missing: NotRequired[list[str]]
        used: NotRequired[int]
        needed_by: NotRequired[list[str]]
        error: NotRequired[str | None]

    class ToolShadowRow(TypedDict):
        """A compiler tool of a profile's bin directory that the wheels ship too (``loader.tool_shadowing``)."""

        dir: str
        tool: str
        file: str
        version: str
        wheel_file: str
        dist: str
        wheel_version: str
        relation: str  # older | newer | same

__all__ = ["AddonRef", "Profile", "BuildValue", "SymbolJudgement", "ShadowRow", "ToolShadowRow"]
