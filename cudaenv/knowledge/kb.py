"""The knowledge base behind ``cudaenv explain``: error signatures → cause, fix, check id.

The entries are data, in ``errors.yaml`` beside this file (its header documents the
fields). This module only loads and validates them; matching, and the functions an
entry's ``derive`` names, are in :mod:`cudaenv.knowledge.explain`. Nothing here is imported on the ``use``/``off`` path, and
YAML is imported only when the knowledge base is first loaded.
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..infra.kept import keep, kept, kept_path

__all__ = ["KB_PATH", "REQUIRED", "OPTIONAL", "entry_head", "full_entry", "load_entries", "load_index", "read_document",
           "validate", "placeholders", "strip_groups", "with_advice"]

KB_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "errors.yaml")

# Field name -> type, for every entry.
REQUIRED = {"id": str, "title": str, "patterns": list, "cause": str, "fix": str, "examples": list}
# `check` is required unless `environment: false` (a program bug: no check can see it).
OPTIONAL = {"check": str, "defaults": dict, "fallback": bool, "first_error": bool, "derive": str, "derived": list,
            "rank": int, "environment": bool, "cudaenv_fix": bool, "component": str, "failure": str, "requires": list, "unless": list,
            "variants": list, "reads": dict, "requires_derived": dict, "clears": list, "missing_commands": list}

# The model of causes: an entry names the component that has to change and how it failed;
# one cause is recognised from every tool that reports it (its patterns), and its answer
# follows the log (its variants). `program` is a program bug (`environment: false`).
COMPONENTS = ("driver", "toolkit", "nvcc", "host-compiler", "libstdc++", "glibc", "cudart", "cuda-libs", "cudnn",
              "nccl", "tensorrt", "torch", "torch-extension", "jax", "tensorflow", "triton", "xformers",
              "bitsandbytes", "numba", "python-package", "container-runtime", "gpu", "cmake", "build-tool", "shm",
              "network", "shell", "os-memory", "program")
FAILURES = ("missing", "not-on-path", "too-old", "too-new", "two-copies", "built-for-other-version",
            "unsupported-by-gpu", "absent-at-build", "busy", "misconfigured", "broken", "permission",
            "exhausted", "unsupported-platform", "bug")
# What a variant may replace in its entry's answer (its `when` may test captured and derived
# values, the extraction stage's facts of explain/extract.py, and `text`, the whole log).
VARIANT_FIELDS = ("title", "cause", "fix", "cudaenv_fix", "failure")

_cache: dict[str, list[dict]] = {}
_index: dict[str, list[dict]] = {}


def read_document(path: str = KB_PATH) -> object:
    """Parse the YAML file at ``path`` (no validation).

    Raises:
        CudaenvError: the file cannot be read or is not YAML.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with open(path, encoding="utf-8") as f:
            return with_command_frames(yaml.load(f, Loader=loader))
    except OSError as exc:
        raise CudaenvError(f"cannot read the error knowledge base {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise CudaenvError(f"the error knowledge base {path} is not valid YAML: {exc}") from None


def with_command_frames(doc: object) -> object:
    """``doc`` with each entry's ``missing_commands`` read in every wording of the document's ``command_not_found``.

    "This program is not here" has one wording per shell and launcher (bash's ``nvcc: command not found``, zsh's
    ``command not found: nvcc``, fish's ``Unknown command: nvcc``, cmd.exe's ``'nvcc' is not recognized as an
    internal or external command``, Go's ``exec: "nvcc": executable file not found in $PATH``...), and the cause is
    the program's, not the shell's: the wordings are written once (``{cmd}`` marks the program) and every entry
    that answers a missing program lists the programs it answers for. The patterns are added after the entry's own,
    the program captured as ``command``. A document without frames, or an entry without ``missing_commands``, is
    left as it is (validation reports a malformed one).
    """
    import re

    if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
        return doc
    frames = doc.get("command_not_found")
    if not isinstance(frames, list) or not all(isinstance(f, str) and f.count("{cmd}") == 1 for f in frames):
        return doc
    for entry in doc["entries"]:
        names = entry.get("missing_commands") if isinstance(entry, dict) else None
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names):
            continue
        alternation = "(?P<command>" + "|".join(re.escape(n) for n in names) + ")"
        own = entry.get("patterns") if isinstance(entry.get("patterns"), list) else []
        entry["patterns"] = own + [f.replace("{cmd}", alternation) for f in frames]
    return doc


def _command_frame_problems(doc: dict) -> list[str]:
    """``command_not_found`` (a list of wordings, each with one ``{cmd}``) and the entries' ``missing_commands``
    (program names), which :func:`with_command_frames` reads only when both are well formed."""
    frames = doc.get("command_not_found")
    out = []
    if frames is not None and not (isinstance(frames, list) and frames
                                   and all(isinstance(f, str) and f.count("{cmd}") == 1 for f in frames)):
        out.append("`command_not_found` must be a list of patterns, each with one {cmd}")
    for n, entry in enumerate(doc["entries"], 1):
        names = entry.get("missing_commands") if isinstance(entry, dict) else None
        if names is None:
            continue
        where = f"entry {n} ({entry.get('id', '?')})"
        if not (isinstance(names, list) and names and all(isinstance(x, str) and x.strip() for x in names)):
            out.append(f"{where}: missing_commands must be a list of program names")
        elif frames is None:
            out.append(f"{where}: missing_commands needs the document's `command_not_found` wordings")
    return out


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders in ``text``."""
    import re

    return set(re.findall(r"\{(\w+)\}", text))


def validate(doc: object, together: bool = True, patterns: bool = True) -> list[str]:
    """Every problem with a parsed knowledge base (an empty list when it is valid).

    Checks the fields and their types (:func:`_field_problems`), unique ids, check ids
    against :data:`cudaenv.checks.CHECKS` and the rest of an entry's shape
    (:func:`_entry_problems`), that each pattern compiles and captures every ``{name}``
    in the title, cause and fix that has no default (:func:`_pattern_problems`), and that
    all patterns compile together, as the pre-filter does (``together``: the tests check
    that; loading skips it, it costs a tenth of a short ``explain``). ``patterns=False``
    skips compiling the patterns (the matcher compiles only those whose literal occurs in
    the text; a pattern that does not compile is then reported when it is first needed):
    the packaged file is checked in full by the tests, and compiling 250 patterns on every
    run is most of what a short ``explain`` costs.
    """
    if not isinstance(doc, dict) or doc.get("schema") != 1 or not isinstance(doc.get("entries"), list):
        return ["the top level must be a mapping with `schema: 1` and a list of `entries`"]
    problems: list[str] = _command_frame_problems(doc)
    seen: set[str] = set()
    joined: list[str] = []
    for n, entry in enumerate(doc["entries"], 1):
        if not isinstance(entry, dict):
            problems.append(f"entry {n}: not a mapping")
            continue
        where = f"entry {n} ({entry.get('id', '?')})"
        found = _field_problems(where, entry)
        problems += found
        if any(not p.startswith(f"{where}: unknown field") for p in found):
            continue  # a required field is missing or a field has the wrong type: nothing further to read
        problems += _entry_problems(where, entry, seen)
        if patterns:
            problems += _pattern_problems(where, entry, joined)
        problems += _model_problems(where, entry, patterns)
        if not all(isinstance(x, str) and x for x in entry["examples"]):
            problems.append(f"{where}: examples must be non-empty strings")
    if not problems and together:
        import re

        try:
            re.compile("|".join(f"(?:{strip_groups(p)})" for p in joined))
        except re.error as exc:
            problems.append(f"the patterns do not compile together: {exc}")
    return problems


def _field_problems(where: str, entry: dict) -> list[str]:
    """Unknown fields, missing required ones, and values of the wrong type (or empty)."""
    out = [f"{where}: unknown field {key!r}" for key in entry if key not in REQUIRED and key not in OPTIONAL]
    for key, typ in {**REQUIRED, **OPTIONAL}.items():
        if key not in entry:
            if key in REQUIRED:
                out.append(f"{where}: missing {key!r}")
            continue
        value = entry[key]
        if not isinstance(value, typ) or (typ in (str, list) and not value):
            out.append(f"{where}: {key!r} must be a non-empty {typ.__name__}")
    return out


def _entry_problems(where: str, entry: dict, seen: set[str]) -> list[str]:
    """The id (unique, dotted), the check it names, derive/derived, defaults and ``{advice.NAME}``s."""
    import re

    from ..checks import ADVICE, CHECKS

    out = []
    if entry["id"] in seen:
        out.append(f"{where}: duplicate id")
    seen.add(entry["id"])
    if not re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+", entry["id"]):
        out.append(f"{where}: id must be dotted lower-case words")
    if "check" in entry and entry["check"] not in CHECKS:
        out.append(f"{where}: check {entry['check']!r} is not in cudaenv.checks.CHECKS")
    if "check" not in entry and entry.get("environment", True):
        out.append(f"{where}: missing 'check' (only `environment: false` entries may have none)")
    if ("derive" in entry) != ("derived" in entry):
        out.append(f"{where}: `derive` (the function) and `derived` (the names it adds) go together")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in entry.get("defaults", {}).items()):
        out.append(f"{where}: defaults must map names to strings")
    for name in re.findall(r"\{advice\.(\w+)\}", entry["title"] + entry["cause"] + entry["fix"]):
        if name not in ADVICE:
            out.append(f"{where}: {{advice.{name}}} is not in cudaenv.checks.ADVICE")
    return out


def _model_problems(where: str, entry: dict, patterns: bool = True) -> list[str]:
    """The cause (component x failure), `requires`/`unless` (patterns) and `variants`."""
    import re

    from .explain.factnames import FACT_NAMES

    out = []
    if "component" not in entry or "failure" not in entry:
        out.append(f"{where}: every entry names its cause: `component` and `failure`")
    elif entry["component"] not in COMPONENTS or entry["failure"] not in FAILURES:
        out.append(f"{where}: unknown cause {entry['component']} x {entry['failure']} (see kb.COMPONENTS, kb.FAILURES)")
    if not patterns:
        return out
    for key in ("requires", "unless"):
        for p in entry.get(key, ()):
            try:
                re.compile(p, re.MULTILINE)
            except (re.error, TypeError):
                out.append(f"{where}: {key} pattern {p!r} does not compile")
            else:
                out += _whole_log_problems(f"{where}: {key}", p, r"\A")
    names = set(FACT_NAMES) | {"text"} | set(entry.get("defaults", {})) | set(entry.get("derived", ()))
    for p in entry["patterns"]:
        try:
            names |= set(re.compile(p, re.MULTILINE).groupindex)
        except re.error:
            pass
    # `requires_derived`: the entry answers only when each named value (a derived name or a fact) matches, e.g. a GPU
    # the tables say is newer than the CUDA the log names; decided after `derive`, from the tables rather than a list
    # of names in a pattern
    for name, rx in (entry.get("requires_derived") or {}).items():
        if name not in set(FACT_NAMES) | set(entry.get("derived", ())):
            out.append(f"{where}: requires_derived tests {name!r}, which is no fact or derived name")
        try:
            re.compile(str(rx))
        except re.error:
            out.append(f"{where}: requires_derived: {rx!r} does not compile")
    for n, variant in enumerate(entry.get("variants", ()), 1):
        if not isinstance(variant, dict) or not isinstance(variant.get("when"), dict) or not variant["when"]:
            out.append(f"{where}: variant {n} needs a non-empty `when` mapping")
            continue
        extra = set(variant) - {"when", *VARIANT_FIELDS}
        if extra or len(variant) < 2:
            out.append(f"{where}: variant {n} may override only {', '.join(VARIANT_FIELDS)} (and must override one)")
        for name, rx in variant["when"].items():
            if name not in names:
                out.append(f"{where}: variant {n} tests {name!r}, which is no fact, capture, default or derived name")
            try:
                re.compile(str(rx))
            except re.error:
                out.append(f"{where}: variant {n}: {rx!r} does not compile")
            else:
                if name == "text":
                    out += _whole_log_problems(f"{where}: variant {n}", str(rx), r"\A", "^")
        for field in VARIANT_FIELDS:
            if field in variant and not isinstance(variant[field], bool if field == "cudaenv_fix" else str):
                out.append(f"{where}: variant {n}: {field} has the wrong type")
        if variant.get("failure", FAILURES[0]) not in FAILURES:
            out.append(f"{where}: variant {n}: unknown failure {variant['failure']!r} (see kb.FAILURES)")
    return out


def _whole_log_problems(where: str, rx: str, *anchors: str) -> list[str]:
    """A regex searched in the whole log that spans lines (``[\\s\\S]*``) must be anchored at the log's start:
    unanchored, the search retries it from every offset and each try runs to the end, so a log repeating its
    first part takes quadratic time (``A[\\s\\S]*B`` on 8 000 lines of A: 6 s). Both-in-any-order is
    ``\\A(?=[\\s\\S]*?A)(?=[\\s\\S]*?B)``."""
    if "[\\s\\S]*" in rx and not rx.startswith(anchors):
        return [f"{where}: {rx[:60]!r}... spans lines without being anchored at the start ({' or '.join(anchors)})"]
    return []


#: A pattern that starts (after opening groups, and maybe a `/`) with a repeated character class: tried from each
#: character of a long path, each try running to the path's end, it costs the square of the path's length (a log
#: of 6 000-character paths: 25 s for 300 lines). A look-behind for the class first keeps it to the path's start.
_LEADING_RUN = r"(?:\(\?:|\(\?P<\w+>)*/?\[[^\]]+\][*+]"


def _pattern_problems(where: str, entry: dict, joined: list[str]) -> list[str]:
    """Each pattern: a non-empty string that compiles, no global flag or back-reference, capturing
    every placeholder that has no default; the good ones are added to ``joined``."""
    import re

    out = []
    from .explain.factnames import FACT_NAMES

    wanted = placeholders(entry["title"]) | placeholders(entry["cause"]) | placeholders(entry["fix"])
    known = set(entry.get("defaults", {})) | set(entry.get("derived", ())) | set(FACT_NAMES)
    for p in entry["patterns"]:
        if not isinstance(p, str) or not p:
            out.append(f"{where}: a pattern must be a non-empty string")
            continue
        try:
            rx = re.compile(p, re.MULTILINE)  # as the matcher compiles it: re's cache serves it again there
        except re.error as exc:
            out.append(f"{where}: pattern {p!r} does not compile: {exc}")
            continue
        if re.match(r"\s*\(\?[aiLmsux]+\)", p):
            out.append(f"{where}: pattern {p!r}: use a scoped flag (?i:...) instead of a global one")
        if "(?P=" in p:
            out.append(f"{where}: pattern {p!r}: back-references are not allowed")
        if re.match(_LEADING_RUN, p):
            out.append(f"{where}: pattern {p!r} starts with a repeated character class: put a look-behind for "
                       "the same class before it (`(?<![\\w./-])[\\w./-]*...`), so that a long path is tried from "
                       "its start only, not from each of its characters")
        missing = wanted - set(rx.groupindex) - known
        if missing:
            out.append(f"{where}: pattern {p!r} captures no {', '.join(sorted(missing))} and has no default")
        joined.append(p)
    return out


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
        _cache[path] = [full_entry(e) for e in load_index(path)]
    return _cache[path]


def load_index(path: str = KB_PATH) -> list[dict]:
    """The entries of :func:`load_entries` as the matcher reads them: each one's texts (:data:`BODY`: title, cause,
    fix, variants, examples, half of the knowledge base) kept as one marshalled ``_body`` until an answer needs them
    (:func:`full_entry`), and ``_placeholders``, the names its texts fill. Unmarshalling every entry's texts for the
    one or two a short log answers was a fifth of its own time (round 35)."""
    if path not in _index:
        key, stored = _stored(path)
        if stored is None:
            stored = [entry_head(e) for e in _computed(path)]
            _store(key, stored)
        _index[path] = stored
    return _index[path]


#: The keys of an entry that only its answer reads.
BODY = ("title", "cause", "fix", "variants", "examples")


def entry_head(entry: dict) -> dict:
    """``entry`` as :func:`load_index` keeps it: its :data:`BODY` marshalled into ``_body``, the placeholders of its
    title, cause and fix (``_placeholders``) and whether it has variants (``_variants``) beside the rest."""
    import marshal

    return {**{k: v for k, v in entry.items() if k not in BODY},
            "_body": marshal.dumps({k: entry[k] for k in BODY if k in entry}),
            "_placeholders": tuple(sorted(placeholders(entry["title"] + entry["cause"] + entry["fix"]))),
            "_variants": bool(entry.get("variants"))}


def full_entry(entry: dict) -> dict:
    """``entry`` of :func:`load_index` with its texts (an entry that has them is returned as it is)."""
    if "_body" not in entry:
        return entry
    import marshal

    return {**{k: v for k, v in entry.items() if k != "_body"}, **marshal.loads(entry["_body"])}


def _computed(path: str) -> list[dict]:
    """The validated entries of ``path`` with what the matcher would otherwise work out on every run."""
    doc = read_document(path)
    problems = validate(doc, together=False, patterns=False)
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CudaenvError(f"invalid error knowledge base {path}: " + "; ".join(problems[:3]) + more)
    import re

    from .explain.text import any_literals, inner_word, literal_clauses, required_literal, wrap_form

    # Each pattern's literal (what the matcher looks for before compiling it), its form widened over
    # wrapped lines and its literal's longest inner word, stored with the entries: working them out
    # for the few hundred patterns a short `explain` reaches was a fifth of its own time. And for a
    # pattern searched without a literal (a top-level alternation), the literals one of which its
    # every match holds (any_literals), so a long log lacking them all is not searched whole.
    # A case-blind pattern has no such literals; its lower-cased sets of them (``_fold``: one of each set is in
    # every match) rule out a long ASCII log.
    # And for every pattern, the sets of literals its every match holds one of each (``_all``), each literal as its
    # words (a match over a wrapped line has them whole, with a line end for a space): a candidate whose literal is
    # in the log but whose other literals are not is neither compiled nor searched.
    entries = []
    for e in doc["entries"]:
        literals = [required_literal(p) for p in e["patterns"]]
        wraps = [wrap_form(p, n) for p, n in zip(e["patterns"], literals)]
        whole = [n is None or (w is not None and w[1] is None) for n, w in zip(literals, wraps)]
        alts = [any_literals(w[0] if w else p, re.MULTILINE) if searched else None
                for p, w, searched in zip(e["patterns"], wraps, whole)]
        entries.append({**with_advice(e), "_literals": literals, "_wraps": wraps,
                        "_longest": [inner_word(n) if n else None for n in literals], "_any": alts,
                        "_fold": [literal_clauses(w[0] if w else p, re.MULTILINE, fold=True)
                                  if searched and a is None else None
                                  for p, w, searched, a in zip(e["patterns"], wraps, whole, alts)],
                        "_all": [_word_clauses(literal_clauses(p, re.MULTILINE)) for p in e["patterns"]]})
    return entries


# The validated entries of the last knowledge base read, kept in the user's cache directory
# (marshal: no YAML import and no validation on the next run, about 0.1 s of every `explain`).
_STORE = "explain-kb"


def _stored(path: str) -> tuple[tuple | None, list[dict] | None]:
    """(the key the entries of ``path`` are stored under, the stored entries or None)."""
    import sys

    from ..checks import ADVICE

    try:
        st = os.stat(path)
    except OSError:
        return None, None  # read_document says why
    from .explain import text
    from .explain.text import LITERAL_RULES

    # text.py's and this file's own size and time too: the stored literals and wrapped forms are text.py's
    # functions' results in the shape load_entries gives them, so a changed rule or shape is stored again.
    try:
        code = tuple((c.st_size, c.st_mtime_ns) for c in map(os.stat, (text.__file__, __file__)))
    except (OSError, TypeError):
        return None, None
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns, tuple(sys.version_info[:2]),
           tuple(sorted(ADVICE.items())), LITERAL_RULES, code)
    return key, kept(kept_path(_STORE), key, list)


def _store(key: tuple | None, entries: list[dict]) -> None:
    """Keep ``entries`` for the next run (best effort: a cache that cannot be written is skipped)."""
    if key is not None:
        keep(kept_path(_STORE), key, entries)


def _word_clauses(clauses: list[tuple[str, ...]] | None) -> list[tuple[tuple[str, ...], ...]] | None:
    """:func:`~.explain.text.literal_clauses`'s sets, each literal split into its words (what a wrapped match keeps
    whole); None when nothing is known or every set has a literal of no word."""
    if not clauses:
        return None
    out = [tuple(tuple(w.split()) for w in c) for c in clauses]
    out = [c for c in out if all(c)]  # a literal of white space only rules nothing out
    return out or None


def with_advice(entry: dict) -> dict:
    """``entry`` with every ``{advice.NAME}`` filled from :data:`cudaenv.checks.ADVICE`."""
    import re

    from ..checks import ADVICE

    def fill(v: object) -> object:
        if isinstance(v, str):
            return re.sub(r"\{advice\.(\w+)\}", lambda m: ADVICE[m.group(1)], v)
        if isinstance(v, list):
            return [fill(x) for x in v]
        if isinstance(v, dict):
            return {k: fill(x) for k, x in v.items()}
        return v

    return {k: fill(v) if k in ("title", "cause", "fix", "variants") else v for k, v in entry.items()}
