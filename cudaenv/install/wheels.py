"""NVIDIA's PyPI wheels: the ``cuda-toolkit`` meta-wheel pins a consistent set per release.

The meta-wheel's extras (``nvcc``, ``cudart``, ``cccl``, ``crt``, ``nvvm``, ...,
``all``) say which distributions make up each part; its ``Requires-Dist``
lines pin their versions. Every index pip is configured with (``pipconf``)
is asked, and its ``find-links`` directories: the newest wheel for Linux
x86_64 matching the pin wins. CUDA 13 wheels put a whole toolkit under
``nvidia/cu13/``; the 12.x ones (``nvidia/cuda_nvcc/`` ...) carry ptxas but
no nvcc, so a 12.x ``build`` needs NVIDIA's redistributable archives.
"""

from __future__ import annotations

import os
import re

from ..errors import CudaenvError
from .fetch import Unreachable, is_local, join_url, local_path, read_url

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

__all__ = ["META", "canonical", "parse_version", "version_key", "spec_matches", "parse_filename",
           "platform_ok", "project_files", "parse_requirement", "marker_true", "extras_of"]

#: The meta-distribution whose versions are CUDA releases.
META = "cuda-toolkit"
_PLATFORM = {"sys_platform": "linux", "platform_machine": "x86_64", "platform_system": "Linux",
             "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def canonical(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_version(text: str) -> tuple | None:
    """``(release tuple, post)`` for a final release (``13.5.37``, ``12.4.127.post1``), else None."""
    m = re.fullmatch(r"v?(\d+(?:\.\d+)*)(?:[.-]?post(\d+))?(?:\+[a-z0-9.]+)?", text.strip().lower())
    if not m:
        return None
    return (tuple(int(x) for x in m.group(1).split(".")), int(m.group(2) or 0))


def version_key(text: str) -> tuple:
    """A sort key (unparsable versions first)."""
    v = parse_version(text)
    return v if v is not None else ((), -1)


def _cmp_release(a: tuple, b: tuple) -> int:
    n = max(len(a), len(b))
    a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    return (a > b) - (a < b)


def spec_matches(version: str, spec: str) -> bool:
    """Whether ``version`` satisfies a PEP 440 specifier list (``==13.5.37.*``, ``<14,>=13.5.37``)."""
    v = parse_version(version)
    if v is None:
        return False
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        m = re.fullmatch(r"(===|==|!=|>=|<=|~=|>|<)\s*(\S+)", clause)
        if not m:
            return False
        op, want = m.groups()
        if want.endswith(".*") and op in ("==", "!="):
            prefix = tuple(int(x) for x in want[:-2].split(".") if x.isdigit())
            hit = v[0][: len(prefix)] == prefix
            if hit != (op == "=="):
                return False
            continue
        w = parse_version(want)
        if w is None:
            return False
        c = _cmp_release(v[0], w[0]) or (v[1] > w[1]) - (v[1] < w[1])
        ok = {"==": c == 0, "===": c == 0, "!=": c != 0, ">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0,
              "~=": c >= 0 and v[0][: len(w[0]) - 1] == w[0][:-1]}[op]
        if not ok:
            return False
    return True


def parse_filename(filename: str) -> tuple[str, str, list[str]] | None:
    """(canonical project name, version, platform tags) of a wheel file name, or None."""
    if not filename.endswith(".whl"):
        return None
    parts = filename[:-4].split("-")
    if len(parts) not in (5, 6):
        return None
    return canonical(parts[0]), parts[1], parts[-1].split(".")


def platform_ok(tags: list[str]) -> bool:
    """A wheel for Linux x86_64 (or any platform)."""
    return any(t == "any" or (t.endswith("_x86_64") and t.startswith(("manylinux", "linux"))) for t in tags)


def _page_files(page: bytes, page_url: str) -> list[dict]:
    text = page.decode("utf-8", "replace")
    out = []
    if text.lstrip().startswith("{"):
        import json

        try:
            data = json.loads(text)
        except ValueError:
            return []
        for f in data.get("files", []):
            if not isinstance(f, dict) or f.get("yanked") or not isinstance(f.get("filename"), str):
                continue
            out.append({"filename": f["filename"], "url": join_url(page_url, f.get("url", "")),
                        "sha256": (f.get("hashes") or {}).get("sha256"), "size": f.get("size")})
        return out
    import html

    for m in re.finditer(r"<a\s([^>]*)>([^<]*)</a>", text, re.I):
        attrs = m.group(1)
        href = re.search(r'href\s*=\s*"([^"]*)"', attrs) or re.search(r"href\s*=\s*'([^']*)'", attrs)
        if not href or "data-yanked" in attrs:
            continue
        url = html.unescape(href.group(1))
        url, _, frag = url.partition("#")
        sha = frag[len("sha256="):] if frag.startswith("sha256=") else None
        out.append({"filename": html.unescape(m.group(2)).strip() or url.rsplit("/", 1)[-1],
                    "url": join_url(page_url, url), "sha256": sha, "size": None})
    return out


def project_files(project: str, indexes: dict, notes: list[str]) -> list[dict]:
    """Every Linux x86_64 wheel of ``project`` on the indexes and find-links.

    Each: ``filename, url, sha256 (or None), size (or None), version, origin``.
    An index that cannot be reached is noted and skipped.

    Raises:
        Unreachable: no index or find-links location could be read at all.
    """
    name = canonical(project)
    found: dict[str, dict] = {}
    reached = 0
    for index in indexes.get("index", []):
        page_url = f"{index}/{name}/"
        try:
            if is_local(index):
                page = read_url(os.path.join(local_path(index), name, "index.html"), missing_ok=True)
                page_url = os.path.join(local_path(index), name) + "/"
            else:
                page = read_url(page_url, accept="application/vnd.pypi.simple.v1+json, text/html;q=0.1",
                                missing_ok=True)
        except Unreachable as exc:
            notes.append(f"index {index} unreachable ({exc.message})")
            continue
        except CudaenvError as exc:
            notes.append(f"index {index}: {exc.message}")
            continue
        reached += 1
        for f in _page_files(page or b"", page_url):
            f["origin"] = index
            found.setdefault(f["filename"], f)
    for loc in indexes.get("find_links", []):
        if is_local(loc):
            d = local_path(loc)
            try:
                names = os.listdir(d)
            except OSError:
                continue
            reached += 1
            for fn in names:
                found.setdefault(fn, {"filename": fn, "url": os.path.join(d, fn), "sha256": None, "size": None,
                                      "origin": d})
        else:
            try:
                page = read_url(loc)
            except CudaenvError:
                continue
            reached += 1
            for f in _page_files(page or b"", loc):
                f["origin"] = loc
                found.setdefault(f["filename"], f)
    if not reached and (indexes.get("index") or indexes.get("find_links")):
        raise Unreachable("no package index could be reached: " + "; ".join(notes))
    out = []
    for f in found.values():
        parsed = parse_filename(f["filename"])
        if parsed is None or parsed[0] != name or not platform_ok(parsed[2]) or parse_version(parsed[1]) is None:
            continue
        if f["sha256"] is None and not is_local(f["url"]):
            continue  # a remote file without a published sha256 cannot be checked
        f["version"] = parsed[1]
        out.append(f)
    return out


def _tokens(marker: str) -> list[str]:
    return re.findall(r"""\s*("[^"]*"|'[^']*'|===|==|!=|<=|>=|~=|<|>|\(|\)|not\s+in\b|\bin\b|\band\b|\bor\b|"""
                      r"""\bnot\b|[A-Za-z_][A-Za-z0-9_.]*)""", marker)


def marker_true(marker: str, extra: str | None, python: str = "3.11") -> bool:
    """Evaluate a PEP 508 environment marker for Linux x86_64 and one ``extra``.

    Only the marker grammar is accepted (names, quoted strings, comparisons,
    ``and``/``or``/parentheses); anything else is False.
    """
    env = dict(_PLATFORM, python_version=python, python_full_version=python + ".0", extra=extra or "")
    toks = _tokens(marker)
    if "".join(t.strip() for t in toks).replace(" ", "") != marker.replace(" ", ""):
        return False
    pos = 0

    def atom() -> object:
        nonlocal pos
        t = toks[pos].strip()
        pos += 1
        if t[0] in "\"'":
            return t[1:-1]
        if t in env:
            return env[t]
        return ""

    def comparison() -> bool:
        nonlocal pos
        if toks[pos].strip() == "(":
            pos += 1
            v = disjunction()
            pos += 1  # ")"
            return v
        left = atom()
        op = re.sub(r"\s+", " ", toks[pos].strip())
        pos += 1
        right = atom()
        if op == "in":
            return str(left) in str(right)
        if op == "not in":
            return str(left) not in str(right)
        if left == env.get("python_version") or right == env.get("python_version"):
            lv, rv = parse_version(str(left)), parse_version(str(right))
            if lv and rv:
                c = _cmp_release(lv[0], rv[0])
                return {"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}.get(op, False)
        return {"==": left == right, "!=": left != right}.get(op, False)

    def conjunction() -> bool:
        nonlocal pos
        v = comparison()
        while pos < len(toks) and toks[pos].strip() == "and":
            pos += 1
            v = comparison() and v
        return v

    def disjunction() -> bool:
        nonlocal pos
        v = conjunction()
        while pos < len(toks) and toks[pos].strip() == "or":
            pos += 1
            v = conjunction() or v
        return v

    try:
        return bool(disjunction()) and pos == len(toks)
    except (IndexError, KeyError):
        return False


def parse_requirement(line: str) -> tuple[str, str, str]:
    """``Requires-Dist`` value -> (canonical name, specifier, marker)."""
    req, _, marker = line.partition(";")
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?([^)]*)\)?", req)
    if not m:
        return ("", "", marker.strip())
    return canonical(m.group(1)), m.group(2).strip(), marker.strip()


def extras_of(metadata: str) -> dict[str, list[tuple[str, str]]]:
    """The meta-wheel's extras -> [(distribution, specifier)] for Linux x86_64."""
    extras: list[str] = []
    reqs: list[str] = []
    for line in metadata.splitlines():
        if not line.strip():
            break  # the body (description) follows the headers
        key, _, value = line.partition(":")
        if key == "Provides-Extra":
            extras.append(value.strip())
        elif key == "Requires-Dist":
            reqs.append(value.strip())
    out: dict[str, list[tuple[str, str]]] = {}
    for extra in extras:
        dists = []
        for r in reqs:
            name, spec, marker = parse_requirement(r)
            if name and marker and "extra" in marker and marker_true(marker, canonical(extra)) \
                    and not marker_true(marker, None):
                dists.append((name, spec))
        out[canonical(extra)] = dists
    return out


def meta_metadata(path: str) -> str:
    """The METADATA text of the downloaded meta-wheel at ``path``."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                if n.count("/") == 1 and n.endswith(".dist-info/METADATA"):
                    return z.read(n).decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile) as exc:
        raise CudaenvError(f"{path}: not a readable wheel ({exc})") from None
    raise CudaenvError(f"{path}: no METADATA in the wheel")


def wheel_env(env: Mapping[str, str]) -> dict:
    """The indexes pip would use in ``env``."""
    from .pipconf import pip_indexes

    return pip_indexes(env)
