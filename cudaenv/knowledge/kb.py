"""The knowledge base behind ``cudaenv explain``: error signatures → cause, fix, check id.

The entries are data, in ``errors.yaml`` beside this file (its header documents the
fields). This module only loads and validates them; matching, and the functions an
entry's ``derive`` names, are in :mod:`cudaenv.knowledge.explain`. Nothing here is imported on the ``use``/``off`` path, and
YAML is imported only when the knowledge base is first loaded.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError

__all__ = ["KB_PATH", "REQUIRED", "OPTIONAL", "load_entries", "read_document", "validate", "placeholders", "strip_groups",
           "with_advice"]

KB_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "errors.yaml")

# Field name -> type, for every entry.
REQUIRED = {"id": str, "title": str, "patterns": list, "cause": str, "fix": str, "examples": list}
# `check` is required unless `environment: false` (a program bug: no check can see it).
OPTIONAL = {"check": str, "defaults": dict, "fallback": bool, "first_error": bool, "derive": str, "derived": list,
            "rank": int, "environment": bool}

_cache: dict[str, list[dict]] = {}


def read_document(path: str = KB_PATH) -> object:
    """Parse the YAML file at ``path`` (no validation).

    Raises:
        CudaenvError: the file cannot be read or is not YAML.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.load(f, Loader=loader)
    except OSError as exc:
        raise CudaenvError(f"cannot read the error knowledge base {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise CudaenvError(f"the error knowledge base {path} is not valid YAML: {exc}") from None


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders in ``text``."""
    import re

    return set(re.findall(r"\{(\w+)\}", text))


def validate(doc: object) -> list[str]:
    """Every problem with a parsed knowledge base (an empty list when it is valid).

    Checks the fields and their types, unique ids, check ids against
    :data:`cudaenv.checks.CHECKS`, that each pattern compiles (and that all of them
    compile together, as the pre-filter does), and that every ``{name}`` in the
    title, cause and fix is captured by every pattern or has a default.
    """
    import re

    from ..checks import ADVICE, CHECKS

    if not isinstance(doc, dict) or doc.get("schema") != 1 or not isinstance(doc.get("entries"), list):
        return ["the top level must be a mapping with `schema: 1` and a list of `entries`"]
    problems: list[str] = []
    seen: set[str] = set()
    joined: list[str] = []
    for n, entry in enumerate(doc["entries"], 1):
        if not isinstance(entry, dict):
            problems.append(f"entry {n}: not a mapping")
            continue
        where = f"entry {n} ({entry.get('id', '?')})"
        for key in entry:
            if key not in REQUIRED and key not in OPTIONAL:
                problems.append(f"{where}: unknown field {key!r}")
        bad = False
        for key, typ in {**REQUIRED, **OPTIONAL}.items():
            if key not in entry:
                if key in REQUIRED:
                    problems.append(f"{where}: missing {key!r}")
                    bad = True
                continue
            value = entry[key]
            if not isinstance(value, typ) or (typ in (str, list) and not value):
                problems.append(f"{where}: {key!r} must be a non-empty {typ.__name__}")
                bad = True
        if bad:
            continue
        if entry["id"] in seen:
            problems.append(f"{where}: duplicate id")
        seen.add(entry["id"])
        if not re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+", entry["id"]):
            problems.append(f"{where}: id must be dotted lower-case words")
        if "check" in entry and entry["check"] not in CHECKS:
            problems.append(f"{where}: check {entry['check']!r} is not in cudaenv.checks.CHECKS")
        if "check" not in entry and entry.get("environment", True):
            problems.append(f"{where}: missing 'check' (only `environment: false` entries may have none)")
        if ("derive" in entry) != ("derived" in entry):
            problems.append(f"{where}: `derive` (the function) and `derived` (the names it adds) go together")
        defaults = entry.get("defaults", {})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in defaults.items()):
            problems.append(f"{where}: defaults must map names to strings")
        wanted = placeholders(entry["title"]) | placeholders(entry["cause"]) | placeholders(entry["fix"])
        for name in re.findall(r"\{advice\.(\w+)\}", entry["title"] + entry["cause"] + entry["fix"]):
            if name not in ADVICE:
                problems.append(f"{where}: {{advice.{name}}} is not in cudaenv.checks.ADVICE")
        for p in entry["patterns"]:
            if not isinstance(p, str) or not p:
                problems.append(f"{where}: a pattern must be a non-empty string")
                continue
            try:
                rx = re.compile(p)
            except re.error as exc:
                problems.append(f"{where}: pattern {p!r} does not compile: {exc}")
                continue
            if re.match(r"\s*\(\?[aiLmsux]+\)", p):
                problems.append(f"{where}: pattern {p!r}: use a scoped flag (?i:...) instead of a global one")
            if "(?P=" in p:
                problems.append(f"{where}: pattern {p!r}: back-references are not allowed")
            missing = wanted - set(rx.groupindex) - set(defaults) - set(entry.get("derived", ()))
            if missing:
                problems.append(f"{where}: pattern {p!r} captures no {', '.join(sorted(missing))} and has no default")
            joined.append(p)
        if not all(isinstance(x, str) and x for x in entry["examples"]):
            problems.append(f"{where}: examples must be non-empty strings")
    if not problems:
        try:
            re.compile("|".join(f"(?:{strip_groups(p)})" for p in joined))
        except re.error as exc:
            problems.append(f"the patterns do not compile together: {exc}")
    return problems


def strip_groups(pattern: str) -> str:
    """``pattern`` with its named groups made non-capturing (for the joined pre-filter)."""
    import re

    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


def load_entries(path: str = KB_PATH) -> list[dict]:
    """The validated entries of the knowledge base at ``path`` (cached per path).

    Raises:
        CudaenvError: the file is missing, not YAML, or invalid (naming the first problems).
    """
    if path not in _cache:
        doc = read_document(path)
        problems = validate(doc)
        if problems:
            more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
            raise CudaenvError(f"invalid error knowledge base {path}: " + "; ".join(problems[:3]) + more)
        _cache[path] = [with_advice(e) for e in doc["entries"]]
    return _cache[path]


def with_advice(entry: dict) -> dict:
    """``entry`` with every ``{advice.NAME}`` filled from :data:`cudaenv.checks.ADVICE`."""
    import re

    from ..checks import ADVICE

    return {k: re.sub(r"\{advice\.(\w+)\}", lambda m: ADVICE[m.group(1)], v) if isinstance(v, str) else v
            for k, v in entry.items()}
