"""Sources of toolkits, tried in order: each says which releases it has and what they hold.

``nvidia`` (NVIDIA's redist site), ``pypi`` (the indexes pip is configured
with), a directory or URL mirroring NVIDIA's redist layout, or a directory of
wheels. A source that cannot be reached is reported in one line and the next
one is tried; so is one that does not offer the version.
"""

from __future__ import annotations

import hashlib
import os

from ..errors import CudaenvError
from . import redist, wheels
from .fetch import Unreachable, fetch_file, is_local, join_url, local_path, read_url
from .net import add_credentials, remember
from .parts import role, select
from .record import valid_release

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from .types import How, Indexes, PlanComponent, Release, WheelFile, WheelPin, WheelRelease

__all__ = ["NotOffered", "RedistSource", "WheelSource", "make_source", "default_sources", "match_version",
           "builds_from_wheels"]


class NotOffered(CudaenvError):
    """The source has no such release (or not the parts asked for)."""


def match_version(want: str, offered: list[str]) -> str | None:
    """The newest offered release equal to ``want`` or below it as a prefix (``13`` -> newest 13.x)."""
    hits = [v for v in offered if v == want or v.startswith(want + ".")]
    return max(hits, key=wheels.pep440_key) if hits else None


class RedistSource:
    """NVIDIA's redistributable manifests and archives (or a mirror of them)."""

    kind = "redist"

    def __init__(self, base: str, label: str | None = None) -> None:
        self.base = base if is_local(base) and not base.startswith("file://") else base.rstrip("/") + "/"
        self.label = label or base

    def versions(self) -> list[str]:
        return redist.list_versions(self.base)

    def offer(self, want: str, parts: str, cache: str, notes: list[str]) -> tuple[str, list[PlanComponent]]:
        """(the release label, the components ``parts`` selects) of the newest release matching ``want``.

        Raises:
            Unreachable: the source cannot be reached.
            NotOffered: it has no such release.
            CudaenvError: a bad ``parts``, or an answer not in NVIDIA's format.
        """
        rel = self.release(want, cache)
        chosen = select(parts, list(rel["components"]))
        # (mypy asks a ``**`` item for PlanComponent's optional "members" too: it is absent here on purpose)
        return rel["version"], [{**rel["components"][k], "how": how}  # type: ignore[typeddict-item]
                                for k, how in sorted(chosen.items())]

    def release(self, want: str, cache: str) -> Release:
        version: str | None
        if len(want.split(".")) >= 3:
            version = want
        else:
            try:
                version = match_version(want, self.versions())
            except Unreachable:
                raise
            except CudaenvError as exc:  # a mirror without a directory listing
                raise NotOffered(f"{self.label} cannot list its releases ({exc.message}); "
                                 f"give the full version (e.g. {want}.0)") from None
        if version is None:
            raise NotOffered(f"{self.label} has no CUDA {want}")
        url = join_url(self.base, redist.manifest_name(version))
        data = read_url(url, missing_ok=True)
        if data is None:
            raise NotOffered(f"{self.label} has no CUDA {want}")
        rel = redist.parse_manifest(data, self.base, url)
        if rel["version"] != version:  # the label names the install directory: it must be what was asked for
            raise CudaenvError(f"{url}: release_label {rel['version']!r} is not {version!r}; "
                               f"not installing from {self.label}")
        return rel


class WheelSource:
    """NVIDIA's wheels on the package indexes pip uses (or a directory of wheels)."""

    kind = "wheels"

    def __init__(self, indexes: Indexes, label: str) -> None:
        for netloc, cred in indexes["auth"].items():  # taken out of the URLs by pipconf
            add_credentials(netloc, cred)
        self.indexes = indexes
        self.label = label
        self._notes: list[str] = []
        self._files: dict[str, list[WheelFile]] = {}

    def _project(self, name: str) -> list[WheelFile]:
        if name not in self._files:
            self._files[name] = wheels.project_files(name, self.indexes, self._notes)
        return self._files[name]

    def _prefetch(self, names: list[str]) -> None:
        """Read the index pages of ``names`` in parallel: each is a round trip, and a plan asks ten."""
        todo = [n for n in names if n not in self._files]
        if len(todo) < 2:
            return
        from concurrent.futures import ThreadPoolExecutor

        def one(name: str) -> list[WheelFile]:
            return wheels.project_files(name, self.indexes, self._notes)

        with ThreadPoolExecutor(max_workers=min(8, len(todo))) as pool:
            for name, files in zip(todo, pool.map(one, todo)):
                self._files[name] = files

    def versions(self) -> list[str]:
        return sorted({f["version"] for f in self._project(wheels.META)}, key=wheels.pep440_key)

    def _newest(self, name: str, spec: str) -> WheelFile | None:
        hits = [f for f in self._project(name) if wheels.spec_matches(f["version"], spec)]
        return max(hits, key=lambda f: (wheels.pep440_key(f["version"]), f["filename"])) if hits else None

    def offer(self, want: str, parts: str, cache: str, notes: list[str]) -> tuple[str, list[PlanComponent]]:
        """(the release label, the wheels ``parts`` selects, the meta-wheel last); raises as
        :meth:`RedistSource.offer`."""
        rel = self.release(want, cache)
        return rel["version"], self.prepare(rel, select(parts, list(rel["components"])), cache, notes)

    def release(self, want: str, cache: str) -> WheelRelease:
        version = match_version(want, self.versions())
        if version is None:
            raise NotOffered(f"{self.label} has no {wheels.META} {want}")
        meta = self._newest(wheels.META, f"=={version}")
        if meta is None:  # versions() lists only what _project found: never
            raise NotOffered(f"{self.label} has no {wheels.META} {want}")
        meta_sha = meta["sha256"] or _local_sha(meta["url"])
        path, _ = fetch_file(meta["url"], meta_sha, meta["size"], cache)
        extras = wheels.extras_of(wheels.meta_metadata(path))
        dists: dict[str, str] = {}
        for deps in extras.values():
            for name, spec in deps:
                dists.setdefault(name, spec)
        comps: dict[str, WheelPin] = {}
        for name, spec in dists.items():
            comps[name] = {"key": name, "name": name, "version": spec, "spec": spec, "kind": "wheel"}
        label = ".".join(version.split(".")[:3])
        if not valid_release(label) or not (label == want or label.startswith(want + ".")):
            raise CudaenvError(f"{self.label}: {wheels.META} {version!r} is not a CUDA release matching {want!r}")
        # The meta-wheel itself goes in too (its dist-info names the release, as pip would leave it).
        meta_comp: PlanComponent = {"key": wheels.META, "name": wheels.META, "version": meta["version"],
                                    "url": meta["url"], "sha256": meta_sha, "size": meta["size"],
                                    "filename": meta["filename"], "kind": "wheel", "how": "all"}
        return {"version": label, "date": None, "components": comps, "extras": extras, "meta": meta_comp}

    def prepare(self, rel: WheelRelease, chosen: dict[str, How], cache: str, notes: list[str]) -> list[PlanComponent]:
        if not builds_from_wheels(rel["version"]) and any(role(k) == "nvcc" for k in chosen):
            raise NotOffered(f"CUDA {rel['version']}'s wheels on {self.label} carry ptxas but no nvcc; "
                             "compiling needs NVIDIA's redistributable archives")
        self._prefetch(sorted(chosen))
        out: list[PlanComponent] = []
        for key, how in sorted(chosen.items()):
            spec = rel["components"][key]["spec"]
            f = self._newest(key, spec)
            if f is None:
                raise NotOffered(f"{self.label} has no Linux x86_64 wheel of {key}{spec}")
            out.append({"key": key, "name": key, "version": f["version"], "url": f["url"],
                        "sha256": f["sha256"] or _local_sha(f["url"]), "size": f["size"],
                        "filename": f["filename"], "kind": "wheel", "how": how})
        notes.extend(self._notes)
        return out + [rel["meta"]]


def builds_from_wheels(version: str) -> bool:
    """Whether NVIDIA's wheels of release ``version`` carry nvcc (13 and later; 12's hold only ptxas),
    so that ``install`` from a wheel source can give its default ``build`` parts."""
    major = version.split(".")[0]
    return major.isdigit() and int(major) >= 13


def _local_sha(url: str) -> str:
    """A local file listed without a sha256 (a find-links directory) is hashed where it lies."""
    h = hashlib.sha256()
    with open(local_path(url), "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def make_source(spec: str, env: Mapping[str, str]) -> RedistSource | WheelSource:
    """A source from ``--source``/config: ``nvidia``, ``pypi``, a directory or a URL.

    A directory holding ``redistrib_*.json`` is a redist mirror; one holding
    wheels is a wheel source. A URL is a redist mirror.

    Raises:
        CudaenvError: a directory that is neither.
    """
    if spec == "nvidia":
        return RedistSource(redist.NVIDIA_URL, "NVIDIA redist")
    if spec == "pypi":
        return WheelSource(wheels.wheel_env(env), "PyPI")
    if is_local(spec):
        path = os.path.expanduser(local_path(spec))
        if path.startswith("~"):
            raise CudaenvError(f"source {spec}: no user {path[1:].split('/', 1)[0]!r} to expand it for", exit_code=2)
        path = os.path.abspath(path)
        try:
            names = os.listdir(path)
        except OSError as exc:
            raise CudaenvError(f"source {spec}: {exc.strerror or 'cannot read'}", exit_code=2) from None
        if any(n.startswith("redistrib_") and n.endswith(".json") for n in names):
            return RedistSource(path, path)
        if any(n.endswith(".whl") for n in names):
            return WheelSource({"index": [], "find_links": [path], "auth": {}}, path)
        raise CudaenvError(f"source {spec}: neither redistrib_*.json manifests nor wheels in it", exit_code=2)
    url = remember(spec)  # https://user:TOKEN@mirror/: the credentials are sent, never shown
    return RedistSource(url, url)


def default_sources(config_sources: list[str] | None) -> list[str]:
    """The sources tried when ``--source`` is not given: config's ``sources:``, else NVIDIA then PyPI."""
    return list(config_sources) if config_sources else ["nvidia", "pypi"]
