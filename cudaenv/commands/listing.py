"""``cudaenv list``: the toolkits on this machine, as a table or JSON.

Runs without click (like ``use``): it is typed often and must stay cheap.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..infra.console import note, printable, report_error, write_out
from ..infra.term import fit, fit_table, width
from ..profiles.model import scan_toolkits
from ..profiles.resolve import profile_for
from ..profiles.select import active_profile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["SCHEMA", "list_document", "parts_text", "render_table", "do_list"]

SCHEMA = 1  # == infra.jsonout.SCHEMA: the one --json shape (docs/json.md)


def parts_text(c: dict) -> str:
    """Components as a short phrase."""
    words = []
    if c.get("nvcc"):
        words.append("nvcc")
    kinds = [k for k, key in (("shared", "cudart_shared"), ("static", "cudart_static")) if c.get(key)]
    if kinds:
        words.append("cudart(" + ",".join(kinds) + ")")
    if c.get("stubs"):
        words.append("stubs")
    if c.get("cupti"):
        words.append("cupti")
    if c.get("cudnn"):
        words.append(f"cudnn {c['cudnn']}")
    return " ".join(words)


def list_document(ctx: Context) -> dict:
    """The ``list --json`` document (schema documented in the README)."""
    toolkits, skipped = scan_toolkits(ctx)
    profiles, _ = ctx.profile_files.load()
    active = active_profile(ctx)
    active_root = os.path.realpath(active["root"]) if active else None
    out = []
    for tk in toolkits:
        out.append({
            "version": tk["version"],
            "full_version": tk["full_version"],
            "version_source": tk["version_source"],
            "nvcc_version": tk["nvcc_version"],
            "root": tk["root"],
            "aliases": tk["aliases"],
            "found_by": tk["found_by"],
            "default": tk["default"],
            "active": tk["root"] == active_root,
            "profile": profile_for(tk, profiles)["name"],
            "libdir": tk["libdir"],
            "components": tk["components"],
            "origin": tk.get("origin"),
            "series": tk["version"],
        })
    runtime, skipped = _runtime_installs(skipped)
    return {
        "schema": SCHEMA,
        "command": "list",
        "ok": True,
        "toolkits": out,
        "runtime": runtime,
        "skipped": [{"path": p, "found_by": how, "reason": why} for p, how, why in skipped],
    }


def _runtime_installs(skipped: list[tuple[str, str, str]]) -> tuple[list[dict], list[tuple[str, str, str]]]:
    """Split the runtime-only installs cudaenv made (no nvcc: libraries to load, not a toolkit to
    switch to) from the candidates skipped for a reason worth a note on every ``list``."""
    if not any(why == "no bin/nvcc" for _p, _how, why in skipped):
        return [], skipped
    from ..install.record import read_marker, read_parts  # only then: list stays light

    runtime, rest = [], []
    for path, how, why in skipped:
        mark = read_marker(path) if why == "no bin/nvcc" else None
        if mark is None:
            rest.append((path, how, why))
            continue
        held = read_parts(path)
        runtime.append({"root": path, "full_version": mark["version"], "parts": held["parts"] if held else "",
                        "found_by": [how], "libdir": next((d for d in ("lib64", "lib")
                                                           if os.path.isdir(os.path.join(path, d))), None)})
    return runtime, rest


def render_table(doc: dict, width: int | None = None) -> str:
    """The human table, in ``width`` columns (None: as wide as it needs).

    Too wide for the terminal, it drops FOUND BY, then PARTS, then elides ROOT and PROFILE
    in the middle (a path's ends are what tell it apart).
    """
    rows = [("", "VERSION", "ROOT", "PROFILE", "PARTS", "FOUND BY")]
    for t in doc["toolkits"]:
        marks = ("*" if t["active"] else " ") + ("d" if t["default"] else " ")
        how = ", ".join(t["found_by"])
        if t.get("origin"):
            how += f"; pip wheels in {t['origin']['env']}"
        rows.append((marks, t["full_version"], t["root"], t["profile"], parts_text(t["components"]), how))
    for t in doc.get("runtime", []):
        rows.append(("  ", t["full_version"], t["root"], "-", f"runtime only ({t['parts'] or 'no nvcc'})",
                     ", ".join(t["found_by"])))
    rows = [tuple(printable(c) for c in r) for r in rows]
    lines = fit_table(rows, width, elide=(2, 3), drop=(5, 4))
    lines.append(fit("(* active, d default: /usr/local/cuda)", width, "end"))
    return "\n".join(lines) + "\n"


def do_list(as_json: bool, wide: bool = False, ctx: Context | None = None) -> int:
    """``cudaenv list [--json] [--wide]``: skipped candidates on stderr, the list on stdout.

    The table fits the terminal it is shown on; ``--wide`` (or a pipe) gives every column in full.
    """
    from ..context import Context

    ctx = ctx or Context()
    try:
        doc = list_document(ctx)
    except CudaenvError as exc:
        return report_error(exc)
    finally:
        ctx.save()
    for s in doc["skipped"]:
        note(f"skipped {s['path']} ({s['found_by']}): {s['reason']}")
    if as_json:
        from ..infra.jsonout import dumps

        write_out(dumps(doc) + "\n")
    elif not doc["toolkits"] and not doc["runtime"]:
        note("no CUDA toolkit found (set CUDAENV_ROOTS to add places to look)")
    else:
        import sys

        write_out(render_table(doc, width(sys.stdout, ctx.env, wide)))
    return 0
