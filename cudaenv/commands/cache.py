"""``cudaenv cache info`` / ``cache prune``: the download cache ``install`` keeps (install/cache.py)."""

from __future__ import annotations

from ..context import Context
from ..errors import CudaenvError
from ..infra.console import note, report_error, write_out
from ..infra.jsonout import document, dumps
from ..install.cache import info, parse_age, parse_size, prune
from ..install.progress import human
from .install import download_cache

__all__ = ["cache_info", "cache_prune"]


def cache_info(as_json: bool = False) -> int:
    """Print where the download cache is and what it holds; return the exit status."""
    ctx = Context()
    doc = info(download_cache(ctx))
    if as_json:
        write_out(dumps(document("cache info", True, **doc)) + "\n")
        return 0
    lines = [f"{doc['path']}: {doc['human']}"]
    names = {"content": "files and members (by sha256)", "partial": "partial downloads", "plan": "plans",
             "members": "member lists", "other": "other files"}
    for kind, k in sorted(doc["kinds"].items()):
        lines.append(f"  {names.get(kind, kind)}: {k['files']}, {human(k['bytes'])}")
    write_out("\n".join(lines) + "\n")
    return 0


def cache_prune(max_size: str | None, older_than: str | None, everything: bool, as_json: bool = False) -> int:
    """Remove what the bounds say from the download cache; return the exit status."""
    try:
        if max_size is None and older_than is None and not everything:
            raise CudaenvError("cache prune: say what to keep: --max-size SIZE, --older-than AGE or --all",
                               exit_code=2)
        limit = parse_size(max_size) if max_size is not None else None
        age = parse_age(older_than) if older_than is not None else None
    except CudaenvError as exc:
        return report_error(exc)
    ctx = Context()
    cache = download_cache(ctx)
    done = prune(cache, limit, age, everything)
    if as_json:
        write_out(dumps(document("cache prune", True, path=cache, **done)) + "\n")
    else:
        note(f"removed {done['removed']} files ({human(done['freed'])}) from {cache}; {human(done['kept'])} kept")
    return 0
