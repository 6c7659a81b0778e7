"""Verify results as text for people and as the ``--json`` document.

Light on purpose (no click, no json module): a cache hit renders through here
on the fast path.
"""

from __future__ import annotations

__all__ = ["SCHEMA", "render_record", "json_document", "failed"]

#: ``verify --json`` schema version (fields may be added, none removed or changed).
SCHEMA = 1

_LABEL = {"pass": "pass", "fail": "FAIL", "skip": "skip"}


def _age(seconds: float) -> str:
    from .cache import age_text

    return age_text(seconds)


def failed(records: list[dict]) -> bool:
    """True when any record has a failed step."""
    return any(r.get("status") == "fail" for r in records)


def _secs(s: float) -> str:
    if s < 0.05:
        return ""
    return f"{s:.1f} s" if s < 100 else f"{s:.0f} s"


def render_record(rec: dict, verbose: bool = False) -> str:
    """One target's result: a header, one line per step, details under failures."""
    out = [f"{rec['profile']}: CUDA {rec['version']} at {rec['root']}"
           + (f"  (cached result from {_age(rec.get('age', 0))} ago; --no-cache re-runs it)" if rec.get("cached")
              else "")]
    facts = []
    if rec.get("host_compiler"):
        facts.append(f"host compiler {rec['host_compiler']}")
    if rec.get("arch"):
        facts.append(f"arch {rec['arch']} ({rec.get('arch_why')})")
    if rec.get("torch"):
        facts.append(f"{rec['torch']} in {rec.get('python')}")
    elif rec.get("python"):
        facts.append(f"python {rec['python']}")
    if facts:
        out.append("  " + "; ".join(facts))
    steps = rec.get("steps", [])
    shown: set[str] = set()
    width = max((len(s["id"]) for s in steps), default=10)
    for s in steps:
        out.append(f"  {_LABEL.get(s['status'], s['status']):<4}  {s['id']:<{width}}  {_secs(s.get('seconds', 0)):>7}  "
                   f"{s['summary']}")
        pad = " " * 8
        for w in s.get("warnings", []):
            out.append(f"{pad}warning: {w}")
        if s["status"] != "fail" and not verbose:
            continue
        if s.get("command"):
            out.append(f"{pad}$ {s['command']}")
        if s["status"] == "fail":
            for line in s.get("output", []):
                out.append(f"{pad}| {line}")
            for m in s.get("explain", []):
                if m["id"] in shown:
                    out.append(f"{pad}explain: {m['title']}  [{m['id']}] (see above)")
                    continue
                shown.add(m["id"])
                out.append(f"{pad}explain: {m['title']}  [{m['id']}]")
                out.append(f"{pad}  cause: {m['cause']}")
                for k, step in enumerate(x.strip() for x in m["fix"].splitlines() if x.strip()):
                    out.append(f"{pad}  {'fix:  ' if k == 0 else '      '} {step}")
    n = {k: sum(1 for s in steps if s["status"] == k) for k in ("pass", "fail", "skip")}
    counts = f"{n['pass']} passed, {n['fail']} failed, {n['skip']} skipped"
    verdict = "FAIL" if rec.get("status") == "fail" else "ok"
    out.append(f"  {verdict}: {counts} in {_secs(rec.get('seconds', 0)) or '0 s'}")
    if rec.get("tmpdir"):
        out.append(f"  files kept in {rec['tmpdir']}")
    return "\n".join(out) + "\n"


def json_document(records: list[dict]) -> dict:
    """The ``verify --json`` document."""
    results = []
    for r in records:
        results.append({
            "profile": r["profile"], "root": r["root"], "version": r["version"], "status": r["status"],
            "cached": bool(r.get("cached")), "age_seconds": round(r.get("age", 0.0), 1) if r.get("cached") else None,
            "seconds": r.get("seconds"), "arch": r.get("arch"), "arch_why": r.get("arch_why"),
            "host_compiler": r.get("host_compiler"), "python": r.get("python"), "torch": r.get("torch"),
            "tmpdir": r.get("tmpdir"), "steps": r.get("steps", []),
        })
    return {"schema": SCHEMA, "ok": not failed(records), "results": results}
