"""The records ``cudaenv install`` passes between its modules, for type checkers.

They are plain dicts at run time (``TYPE_CHECKING`` is False when the program
runs, so this module defines nothing then and costs nothing). Each record is
made in one place from what a source, a server or a file said, after that
input was checked there (``redist.parse_manifest``, ``wheels._page_files``,
``record.read_marker``/``lookup``, ``pipconf.pip_indexes``); everything past
that border reads its keys directly.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypedDict

    from typing_extensions import NotRequired

    #: ``tar`` (NVIDIA's .tar.xz archives) or ``wheel``.
    Kind = Literal["tar", "wheel"]
    #: What a component contributes: everything, or only its ``include/``.
    How = Literal["all", "include"]
    #: (user, password or None) sent to one ``host[:port]``.
    Credential = tuple[str, str | None]

    class Component(TypedDict):
        """One downloadable file of a release (a redist manifest entry, a wheel), as checked at the border."""

        key: str  # the source's own name: cuda_nvcc, nvidia-cuda-nvcc
        name: str
        version: str
        url: str  # http(s) URL or a local path, never with credentials
        sha256: str  # lower case
        size: int | None  # published size in bytes, None when the source gives none
        filename: str
        kind: Kind

    class Member(TypedDict):
        """One member of a remote wheel, fetched by byte range (:mod:`cudaenv.install.zipranges`)."""

        name: str  # its name in the zip
        sha256: str  # from the wheel's RECORD, lower-case hex: names the member in the download cache
        size: int  # its size unpacked, as RECORD says (and the central directory agrees)
        mode: int  # permission bits from the central directory (0: none given)
        offset: int  # its local header's offset in the file
        end: int  # where the next member (or the central directory) begins: everything of it lies before
        csize: int  # compressed size
        method: int  # 0 stored, 8 deflated
        crc: int

    class PlanComponent(Component):
        """A component chosen for the install, with what it contributes."""

        how: How
        #: Present when only these members are fetched (by byte range); absent: the whole file.
        members: NotRequired[list[Member]]

    class WheelPin(TypedDict):
        """A distribution the ``cuda-toolkit`` meta-wheel pins (resolved to a file by ``prepare``)."""

        key: str
        name: str
        version: str  # the specifier, until prepared
        spec: str
        kind: Literal["wheel"]

    class Release(TypedDict):
        """What a redist manifest says one release holds (:func:`cudaenv.install.redist.parse_manifest`)."""

        version: str  # the release label, e.g. 12.4.1
        date: str | None
        components: dict[str, Component]

    class WheelRelease(TypedDict):
        """What the ``cuda-toolkit`` meta-wheel of one release pins (:meth:`WheelSource.release`)."""

        version: str
        date: None
        components: dict[str, WheelPin]
        extras: dict[str, list[tuple[str, str]]]
        meta: PlanComponent  # the meta-wheel itself (its dist-info names the release, as pip leaves it)

    class Plan(TypedDict):
        """One install, resolved (:func:`cudaenv.install.core.resolve`)."""

        version: str
        source: str  # the source's label
        kind: str  # "redist" or "wheels"
        components: list[PlanComponent]
        parts: str  # --parts as given
        planned: NotRequired[int]  # bytes received while planning (index pages, central directories, RECORDs)

    class IndexFile(TypedDict):
        """One file a package index page or a find-links directory lists."""

        filename: str
        url: str
        sha256: str | None  # None: not published (only a local file may lack it)
        size: int | None

    class WheelFile(IndexFile):
        """A Linux x86_64 wheel of a project, with where it was found."""

        version: str
        origin: str  # the index or find-links location

    class Indexes(TypedDict):
        """Where pip would look for wheels (:func:`cudaenv.install.pipconf.pip_indexes`)."""

        index: list[str]  # index URLs (local directories too), never with credentials
        find_links: list[str]
        auth: dict[str, Credential]  # host[:port] -> the credentials taken out of the URLs

    class ShippedStub(TypedDict):
        """The link-time libcuda.so an archive brought."""

        path: str
        generated: Literal[False]

    class GeneratedStub(TypedDict):
        """The link-time libcuda.so cudaenv generated from the tree's cuda.h."""

        path: str
        generated: Literal[True]
        symbols: int  # how many entry points

    Stub = ShippedStub | GeneratedStub

    class Made(TypedDict):
        """What :func:`cudaenv.install.unpack.finish` made."""

        stub: Stub | None  # None: no libcuda stub
        stub_error: str | None  # why none could be generated

    class Summary(TypedDict):
        """What :func:`cudaenv.install.core.install_tree` did."""

        root: str
        already: bool  # another install finished root while this one waited for the lock
        downloaded: int  # bytes fetched now
        bytes: int  # all files' sizes
        files: int
        stub: Stub | None
        stub_error: str | None
        token: str  # the install's token ("" when already)

    class MarkerComponent(TypedDict):
        version: str
        sha256: str
        file: str
        only: How

    class Marker(TypedDict):
        """``cudaenv-install.json`` as an install writes it inside the toolkit."""

        format: int
        version: str
        source: str
        parts: str
        token: str
        components: dict[str, MarkerComponent]

    class MarkerRead(TypedDict):
        """The parts of a toolkit's ``cudaenv-install.json`` cudaenv reads back (checked by ``read_marker``)."""

        version: str  # a valid release label
        token: str | None  # None: not a string (installed before tokens, or tampered with)

    class InstalledParts(TypedDict):
        """What an install holds, as its ``cudaenv-install.json`` says (:func:`cudaenv.install.record.read_parts`)."""

        parts: str  # --parts as given, additive installs joined with ","
        components: dict[str, How]  # component key -> all or include (headers only)

    class Registration(TypedDict):
        """The registry's record of one install (``$XDG_DATA_HOME/cudaenv/installs/<hash>.json``)."""

        format: int
        root: str  # real path
        version: str
        token: str
        profiles: list[str]  # the profile files the install wrote

    class RegistryEntry(TypedDict):
        """A registry record as read back (anyone may have written it): None where a field is not a string."""

        root: str | None
        version: str | None
        token: str | None
        profiles: list[str]  # its strings only

    class Installed(TypedDict):
        """A toolkit cudaenv installed, as both records agree (:func:`cudaenv.install.record.lookup`)."""

        root: str  # real path
        version: str
        profiles: list[str]

__all__ = ["Kind", "How", "Credential", "Component", "PlanComponent", "WheelPin", "Release", "WheelRelease", "Plan",
           "IndexFile", "WheelFile", "Member", "Indexes", "Stub", "ShippedStub", "GeneratedStub", "Made", "Summary",
           "Marker", "MarkerComponent", "MarkerRead", "InstalledParts", "Registration", "RegistryEntry", "Installed"]
