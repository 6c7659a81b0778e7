"""The matcher: every known error family in a text, root causes first, each once.

Each knowledge-base entry's patterns are compiled once (the first time :func:`explain`
runs, not at import); :func:`explain` scans the normalised text with them
(:func:`~.text.scan`), fills the entry's title, cause and fix from what matched and what
its ``derive`` function (:data:`~.derive.DERIVE`) adds, and orders the answers.
"""

from __future__ import annotations

from collections.abc import Callable

from . import lazyre as re  # re, its module-level patterns compiled when first used
from ...errors import CudaenvError
from .derive import DERIVE, cuda_of_torch_build
from .extract import facts
from .text import LogText, clip, inner_word, literal_clauses, required_literal, scan, wrap_form

__all__ = ["Match", "checked_by", "explain"]

# A compiler's error line: gcc/clang/nvcc "error:", "fatal error:", "nvcc fatal   :",
# MSVC "error C2065:".
_COMPILER_ERROR = re.compile(r"\b(?:error|fatal)\b\s*(?:[A-Z]+\d+\s*)?:")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: [p26 p26-pa] A compiler's diagnostic about a name in the source: gcc's "'X' was not declared in this scope; did you
#: mean 'Y'?" (Y, a neighbour from the library's header, also on the fix-it line below), nvcc's `identifier "X" is
#: undefined`, clang's "use of undeclared identifier 'X'". A status or enum name quoted there is source code, not a
#: status a run returned: AmusementClub/vs-dfttest2#10 (CUDA 13's cuFFT dropped two enum values; gcc suggested
#: CUFFT_INTERNAL_ERROR, which read as cuFFT's runtime failure), NVIDIA/FasterTransformer#789 (gcc suggesting
#: CUDNN_DATA_FLOAT for an undeclared CUDNN_DATA_BFLOAT16).
_NAME_DIAGNOSTIC = re.compile(r"was not declared in this scope|\bis undefined\b|did you mean\b|has no member named|"
                              r"is not a member of|undeclared identifier")
#: Literals of every form above: the text is searched for them (str's find) before the regex runs on any line, a
#: regex pass over a 10 000-line log costing 50 ms.
_NAME_DIAGNOSTIC_LITERALS = ("was not declared", "is undefined", "did you mean", "has no member named",
                             "is not a member of", "undeclared identifier")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w{3,}")
#: Shell syntax that runs or chains something when pasted: command substitution, separators, pipes, control
#: characters (a tab is allowed); in a path also redirection. Found by character, then widened by hand to its
#: path segment (a regex that widened it would retry every start of a long segment).
_SHELL_ACTIVE = re.compile(r"[`;&|\x00-\x08\x0a-\x1f\x7f]|\$[({]")
_REDIRECT = re.compile(r"[<>]")
_SEPARATORS = "/\\ \t"
#: What stands for a withheld piece of the log in titles, causes and fixes (``matched`` quotes the log as it is).
WITHHELD = "\u2026"


def _active_segments(value: str) -> list[str]:
    """The path segments of ``value`` (between ``/``, ``\\`` and blanks) that hold shell syntax: the parts of a
    value read from the log that must not reach a line someone may paste."""
    found = [m.start() for m in _SHELL_ACTIVE.finditer(value)]
    if "/" in value:
        found += [m.start() for m in _REDIRECT.finditer(value)]
    segments = []
    for at in sorted(set(found)):
        a = max(value.rfind(c, 0, at) for c in _SEPARATORS) + 1
        ends = [e for e in (value.find(c, at) for c in _SEPARATORS) if e >= 0]
        segments.append(value[a:min(ends) if ends else len(value)])
    return segments


def inert(value: str) -> str:
    """``value`` (read from the log: a captured group, a fact) with each path segment that holds shell syntax
    replaced by :data:`WITHHELD`. A log is someone else's text: a path like ``/envs/x$(reboot)/lib`` must not
    become part of a command we print (it becomes ``/envs/\u2026/lib``). Outside paths ``<`` and ``>`` are
    ordinary text (C++ templates, NCCL's ``host<port>``)."""
    for segment in sorted(set(_active_segments(value)), key=len, reverse=True):
        value = value.replace(segment, WITHHELD)
    return value


def _shown(filled: dict, from_log: dict) -> dict:
    """The values text is filled with: those read from the log (``from_log``) made :func:`inert`, and the withheld
    segments taken out of every derived value too (a derived sentence may quote a path it was given)."""
    segments = sorted({s for v in from_log.values() if isinstance(v, str) for s in _active_segments(v)},
                      key=len, reverse=True)
    if not segments:
        return filled
    shown = {}
    for k, v in filled.items():
        if isinstance(v, str):
            for segment in segments:
                v = v.replace(segment, WITHHELD)
        shown[k] = v
    return shown
# `cudaenv use <version>` (or <torch.version.cuda>, <that version>) in a fix: made paste-able.
_USE_SLOT = re.compile(r"cudaenv (use|exec) (?:<([^<>`]*)>|()(?=\)))")  # <...>, or a version left empty
#: `cudaenv use X` / `cudaenv exec X` whose X is none of what `use` takes (a version, `cu124`, a path, an option,
#: a <slot>, a shell expansion): a description left by a placeholder's default.
_NOT_A_TARGET = re.compile(r"cudaenv (use|exec) (?![<\-/~$]|\d|cu\d|v\d|cuda-\d)([^\s`\"')<>]+)")
#: What a fix says when neither the log nor torch names the CUDA to switch to: the standard
#: toolkit symlink of NVIDIA's installers (a toolkit path is a `use` target); with the host's
#: facts, ``knowledge/here.py`` names the newest installed toolkit instead.
ANY_TOOLKIT = "/usr/local/cuda"
_TORCH_COMPONENTS = ("torch", "torch-extension", "xformers", "bitsandbytes", "triton")
# The derive functions that read the extraction stage's facts from their values.
_DERIVE_READS_FACTS = ("link_libs", "libver")
# Check ids whose rules look at the calling shell (cudaenv/checks/shell.py): only
# `cudaenv doctor` runs them; `cudaenv check` runs the rest (and doctor runs those too).
_SHELL_CHECKS = ("env.", "torch.extension_lock", "driver.library_mismatch")
# Ids that only name a verdict: no rule can see the problem on the machine.
_NO_RULE = ("runtime.out_of_memory",)


def checked_by(check: str | None) -> str | None:
    """The command that runs the check ``check`` (None: nothing can check it beforehand)."""
    if check is None or check in _NO_RULE:
        return None
    return "cudaenv doctor" if check.startswith(_SHELL_CHECKS) else "cudaenv check"


class Match:
    """One known error found in the input.

    Attributes:
        id: The knowledge-base entry's stable id.
        title: One line, placeholders filled from the captured and derived values.
        check: The ``cudaenv check`` id that catches the problem (None for a program bug).
        line: 1-based number of the line where the message starts.
        matched: The message (over several lines when it was wrapped), colour codes,
            quoting and indentation removed.
        count: How many places matched this entry in all.
        cause: Why it happens.
        fix: What to do, one step per line.
        first_error: For a generic build failure: (line number, text) of the first
            compiler error line in the input, or None.
        values: What the message said (captured) and what follows from it (derived).
        environment: False for a verdict that the problem is in the program, not the
            environment (out of memory, a device-side assert, an illegal address).
        component, failure: The cause in the model of causes (``errors.yaml``): the
            component that has to change and how it failed (``driver`` x ``too-old``).
        here: Lines naming this machine's facts (installed toolkits, torch, driver) that
            answer the message; empty when the host was not looked at (``--no-host``).
        host: The host facts those lines used (None when the host was not looked at).
    """

    __slots__ = ("id", "title", "check", "line", "matched", "count", "cause", "fix", "first_error", "values",
                 "environment", "here", "host", "component", "failure", "commands", "platform")

    def __init__(self, id: str, title: str, check: str | None, line: int, matched: str, cause: str, fix: str,
                 count: int = 1, first_error: tuple[int, str] | None = None, values: dict | None = None,
                 environment: bool = True) -> None:
        self.id = id
        self.title = title
        self.check = check
        self.line = line
        self.matched = matched
        self.count = count
        self.cause = cause
        self.fix = fix
        self.first_error = first_error
        self.values = values or {}
        self.environment = environment
        self.here: list[str] = []
        self.host: dict | None = None
        self.component = ""
        self.failure = ""
        self.commands = True
        self.platform = ""

    def to_dict(self) -> dict:
        """The ``explain --json`` object (stable: keys are added, never removed or renamed)."""
        fe = self.first_error
        return {
            "id": self.id,
            "title": self.title,
            "check": self.check,
            "checked_by": (checked_by(self.check) if self.environment and (self.commands or self.platform != "windows")
                           else None),
            "line": self.line,
            "matched": self.matched,
            "count": self.count,
            "cause": self.cause,
            "fix": self.fix,
            "first_error": None if fe is None else {"line": fe[0], "text": fe[1]},
            "values": dict(self.values),
            "environment": self.environment,
            "here": list(self.here),
            "host": self.host,
            "component": self.component,
            "failure": self.failure,
        }

    def __repr__(self) -> str:
        return f"Match({self.id!r}, line={self.line})"


class _Compiled:
    """The knowledge base, its patterns compiled when first needed.

    MULTILINE, because each pattern scans the whole text (see :func:`~.text.scan`). A
    pattern whose required literal (:func:`~.text.required_literal`) is not in the text
    cannot match, so it is not even compiled: a short message compiles a handful of the
    knowledge base's 250 patterns, not all of them (compiling is most of a short run).
    """

    def __init__(self, entries: list[dict]) -> None:
        from ..kb import entry_head

        # as kb.load_index keeps them: an entry's texts are read only for an answer (entries given whole, as tests do,
        # are put in that form here)
        entries = [e if "_body" in e else entry_head(e) for e in entries]
        self.entries = [(e, e["patterns"]) for e in entries]
        self.needles = {p: n for e in entries
                        for p, n in zip(e["patterns"], e.get("_literals") or map(required_literal, e["patterns"]))}
        self._compiled: dict[str, re.Pattern] = {}
        # Whether an entry's answer reads the whole log's facts (extract.py): its variants, its
        # texts, or its derive function do. Only then are they read (a few ms on a long log).
        from .extract import FACT_NAMES

        from .situations import situated_entries

        self.situated = {e["id"] for e, _ in self.entries} & situated_entries()
        fact_names = set(FACT_NAMES)
        self.needs_facts = {e["id"]: e["_variants"] or e.get("derive") in _DERIVE_READS_FACTS
                            or bool(e.get("requires_derived")) or bool(set(e["_placeholders"]) & fact_names)
                            for e in entries}
        self._by_id = {e["id"]: e for e in entries}
        self._full: dict[str, dict] = {}
        self._raw_guards = {e["id"]: (e.get("requires", ()), e.get("unless", ())) for e in entries}
        self._wraps: dict[str, tuple[str, str | None, tuple[str, ...], tuple[str, ...]] | None] = {}
        self._longest: dict[str, str] = {}
        # the literals one of which every match of a pattern searched without a literal holds (kb.py's "_any")
        self.alternatives: dict[str, tuple[str, ...]] = {}
        # and for a case-blind one, sets of lower-cased literals its every match holds one of each (LogText.has_folded)
        self.folded: dict[str, list[tuple[str, ...]]] = {}
        # and for every pattern, sets of literals (each as its words) its every match holds one of each (kb.py's "_all")
        self.needed: dict[str, list[tuple[tuple[str, ...], ...]]] = {}
        for e in entries:  # what kb.py stored with the entries: no pattern of the store is widened again
            for p, w, lw, alts, folded, needed in zip(e["patterns"], e.get("_wraps") or (), e.get("_longest") or (),
                                                      e.get("_any") or (), e.get("_fold") or [None] * len(e["patterns"]),
                                                      e.get("_all") or [None] * len(e["patterns"])):
                self._wraps[p] = w
                if lw is not None:
                    self._longest[p] = lw
                if alts:
                    self.alternatives[p] = alts
                if folded:
                    self.folded[p] = folded
                if needed:
                    self.needed[p] = needed
        self._text_needles: dict[str, list[tuple[str, ...]] | None] = {}

    def rx(self, pattern: str, flags: int = re.MULTILINE) -> re.Pattern:
        key = f"{flags}:{pattern}"
        if key not in self._compiled:
            try:
                self._compiled[key] = re.compile(pattern, flags)
            except re.error as exc:
                raise CudaenvError(f"invalid pattern in the error knowledge base: {pattern!r}: {exc}") from None
        return self._compiled[key]

    def wrapped(self, pattern: str) -> tuple[str, str | None, tuple[str, ...], tuple[str, ...]] | None:
        """``pattern`` widened over wrapped lines (:func:`~.text.wrapping`), that form's own literal, and the
        words of the pattern's literal (the inner ones, longest first, which a text holding the literal wrapped has
        as whole words; and its first and last, which lie inside words); None when the pattern has no space
        between two words (worked out once per pattern, when first needed)."""
        wraps = self._wraps
        if pattern not in wraps:
            wraps[pattern] = wrap_form(pattern, self.needles.get(pattern))
        return wraps[pattern]

    def longest_inner(self, pattern: str, needle: str) -> str:
        """The longest of the inner words of ``pattern``'s literal ``needle``, the word :meth:`wrapped` puts first
        (its third item's first), or "" when the literal has fewer than two words; worked out from the literal alone,
        so an absent literal whose word is not in the text is ruled out without widening the pattern."""
        word = inner_word(needle)
        self._longest[pattern] = word
        return word

    def guards(self, entry_id: str) -> tuple[list[re.Pattern], list[re.Pattern]]:
        requires, unless = self._raw_guards[entry_id]
        return [self.rx(p) for p in requires], [self.rx(p) for p in unless]

    def full(self, entry_id: str) -> dict:
        """The entry with its texts (kb.full_entry, once per entry)."""
        got = self._full.get(entry_id)
        if got is None:
            from ..kb import full_entry

            got = self._full[entry_id] = full_entry(self._by_id[entry_id])
        return got

    def variants(self, entry_id: str) -> list[tuple[dict[str, re.Pattern], dict]]:
        return [({k: self.rx(str(v), 0) for k, v in var["when"].items()}, var)
                for var in self.full(entry_id).get("variants", ())]

    def text_needles(self, rx: re.Pattern) -> list[tuple[str, ...]] | None:
        """The sets of literals a log must hold one of each for a variant's ``text`` pattern to match
        (:func:`literal_clauses`), worked out once per pattern."""
        got = self._text_needles.get(rx.pattern, False)
        if got is False:
            got = self._text_needles[rx.pattern] = literal_clauses(rx.pattern, rx.flags & ~re.UNICODE)
        return got


_default: _Compiled | None = None


def _knowledge(entries: list[dict] | None) -> _Compiled:
    """The packaged knowledge base, compiled once; or ``entries``, compiled now."""
    global _default
    if entries is not None:
        return _Compiled(entries)
    if _default is None:
        from ..kb import load_index

        _default = _Compiled(load_index())
    return _default


def _fill(text: str, values: dict[str, str | None]) -> str:
    def sub(m: re.Match) -> str:
        return values[m.group(1)] if m.group(1) in values else m.group(0)

    return _PLACEHOLDER.sub(sub, text)


def _paste(fix: str, filled: dict, t: LogText, component: str) -> str:
    """``fix`` with every ``cudaenv use <...>`` made a command that pastes and runs.

    The CUDA version the log names (or its torch build's) when there is one; for torch's
    own CUDA ``--match-torch`` (the toolkit that fits the torch on PATH); else
    :data:`ANY_TOOLKIT`.
    """
    if "cudaenv use" not in fix and "cudaenv exec" not in fix:
        return fix
    # A placeholder's default that is a description ("torch.version.cuda", "CUDA_HOME's nvcc"), not a target,
    # would print a command that fails ("no profile named ..."): it is a slot like <...>.
    fix = _NOT_A_TARGET.sub(lambda m: f"cudaenv {m.group(1)} <{m.group(2)}>", fix)
    if "cudaenv use <" not in fix and "cudaenv exec <" not in fix and "cudaenv use )" not in fix:
        return fix
    seen = filled.get("cuda_seen")
    build = filled.get("torch_build")
    if seen is None or build is None:
        got = facts(t)
        seen, build = (inert(v) if v else v for v in (got["cuda_seen"], got["torch_build"]))
    torch_cuda = cuda_of_torch_build(build)
    torchish = component in _TORCH_COMPONENTS or "torch" in t.text

    def sub(m: re.Match) -> str:
        verb, slot = m.group(1), m.group(2) or ""
        # A slot that names torch's CUDA is torch's toolkit whatever else the log shows
        match_torch = "--match-torch" if (torchish or "torch" in slot) and verb == "use" else ""
        if "torch" in slot:
            target = torch_cuda or match_torch or seen or ANY_TOOLKIT
        else:
            target = seen or torch_cuda or match_torch or ANY_TOOLKIT
        return f"cudaenv {verb} {target}"

    return _USE_SLOT.sub(sub, fix)


def _first_compiler_error(t: LogText, before: int, skip: list[re.Pattern]) -> tuple[int, str] | None:
    """The first line (index < ``before``) that looks like a compiler error, else None.

    After a ninja ``FAILED:`` line when there is one: what ninja ran before it succeeded.
    """
    start = 0
    for i in range(before):
        if t.lines[i].startswith("FAILED:"):
            start = i
            break
    for i in range(start, before):
        line = t.lines[i]
        if ("error" in line or "fatal" in line) and _COMPILER_ERROR.search(line) \
                and not any(p.search(line) for p in skip):
            return t.number(i), clip(t.shown(line))
    return None


def _with_cause(entry: dict, match: Match) -> Match:
    match.component = entry.get("component", "")
    match.failure = entry.get("failure", "")
    match.commands = entry.get("cudaenv_fix", True)
    match.platform = entry.get("_platform", "")
    return match


def _variant(entry: dict, variants: list, values: dict, t: LogText, kb: _Compiled | None = None) -> dict:
    """``entry`` with the title, cause and fix of its first variant whose ``when`` holds.

    ``when`` maps names (a capture, a derived value, a fact of :func:`~.extract.facts`, or
    ``text``: the whole log) to patterns searched in their values; all must match. The result's
    ``_when`` is the raw ``when`` of the variant that held (None when none did): the situations
    (:mod:`.situations`) read which facts chose it.
    """
    def holds(k: str, rx: re.Pattern) -> bool:
        if k != "text":
            return rx.search(values.get(k) or "") is not None
        clauses = kb.text_needles(rx) if kb is not None else None
        if clauses is not None and not all(any(map(t.has, c)) for c in clauses):
            return False  # a long log's whole-text search, answered by its words (text_needles)
        return rx.search(t.text) is not None

    for when, variant in variants:
        if all(holds(k, rx) for k, rx in when.items()):
            return {**entry, **{k: v for k, v in variant.items() if k != "when"}, "_when": variant["when"]}
    return {**entry, "_when": None}


def _situated(entry: dict, seen: dict, t: LogText) -> tuple[dict, str]:
    """[r15 situations] ``entry`` with its situation's first line before its own fix, and the situation's name
    ("" when none decided): an entry of a cause class (``knowledge/situations.yaml``) answering a log from a place
    the table has a line for (a container, a pod, Apptainer, a ``docker build``, WSL 2...), unless the variant the
    entry chose was written for that place or chosen by the log's evidence (:func:`.situations.decide`)."""
    from .situations import decide

    got = decide(entry["id"], entry.get("_when"), lambda: seen or facts(t), t.text)
    if got is None:
        return entry, ""
    said = f"Where it ran decides the first fix: {got.label}."
    return {**entry, "fix": got.line + "\n" + entry["fix"],
            "cause": entry["cause"].rstrip() + " " + said}, got.name


def _words_there(wrapped: tuple, t: LogText) -> bool:
    """Whether every word of a pattern's literal (absent from the text whole; ``wrapped`` from
    :meth:`_Compiled.wrapped`) is in ``t``: the inner ones as words, the first and last inside words. Only then may
    the literal be there wrapped over lines."""
    ends = wrapped[3]
    if not ends:
        return False
    words = t.words()
    if any(w not in words for w in wrapped[2]):
        return False
    if len(t.text) < t.SMALL:
        return ends[0] in t.text and ends[1] in t.text
    joined = t.joined_words()
    return ends[0] in joined and ends[1] in joined


#: A line of the user's own prose saying that they changed something and then met another error ("I therefore tried
#: to change path of CUDA to /usr, and got this mistake:", "now I get", "a different error"): what the log shows above
#: it is a state the user has already moved past (BVLC/caffe#2728: nvcc not found, then with CUDA's path changed
#: nvcc's 'Unsupported gpu architecture'). Found by a literal cue first (str.find on the lower-cased text: a regular
#: expression without a literal costs 0.1 s on a 10 000-line build log), then confirmed on that line alone. A line
#: that is itself a tool's message (``error: ...``; a line ending in "error:" introduces the next) is no narration,
#: nor one that says the error stayed ("the same error", "still", "again"), nor one that tells what the user first
#: did ("I tried to compile lc0 and got error as the following"; "I tried to run the script again" after a crash,
#: neuraltalk2#127, is no change either).
_RETRY_CUES = ("tried", "changed", "upgraded", "downgraded", "updated", "fixed", "solved", "removed", "switched",
               "pointed", "now i ", "now we ", "i now ", "we now ", "now it ", "now the error", "now this", "then i ",
               "then we ", "new error", "different error", "next error", "another error")
_RETRY_LINE = re.compile(
    r"(?i)^(?!.*\b(?:error|warning|fatal|exception)\s*:\s*\S)(?!.*\b(?:same|still|again)\b)(?:"
    r".{0,120}?\b(?:I|we)\b.{0,80}?\b(?:tried(?!\s+(?:to\s+)?(?:run|running|compile|compiling|build|building|execute"
    r"|train|training|start|launch|test|use|using|import|load|call|do|make|write|writing)\b)|changed|upgraded|downgraded|updated|fixed|solved|removed|switched"
    r"|pointed)\b.{0,100}?\b(?:and|but|then|now)\b.{0,60}?\b(?:got|get|getting|gets|see|saw|seeing|have|had)\b"
    r"|.{0,120}?\bnow (?:I|we) (?:get|got|see|have|am getting|'m getting|are getting)\b"
    r"|.{0,120}?\b(?:I|we) now (?:get|got|see|have|am getting|'m getting|are getting)\b"
    r"|.{0,120}?\bnow (?:it|the error|this) (?:says|shows|gives|fails|reads)\b"
    r"|.{0,120}?\bthen (?:I|we) (?:got|get) (?:a |an )?(?:new|another|different|next)\b"
    r"|.{0,120}?\b(?:a|an|the) (?:new|different|next) error\b|.{0,120}?\banother error\b"
    r")")
#: A word every cue holds (each cue's first word, "now" for "I now"/"we now"): a long log without one of them inside
#: its lower-cased words (LogText.joined_words_lower) has no cue.
_RETRY_ANCHORS = tuple(sorted({c.split()[1] if c.split()[0] in ("i", "we") else c.split()[0] for c in _RETRY_CUES}))
#: Longest line read as narration (a tool's message line can be very long; prose pasted into an issue is short).
_RETRY_LONGEST = 400


def _retry_line(t: LogText) -> int:
    """Index of the last line of the user's narration that says a change brought another error (see
    :data:`_RETRY_LINE`), -1 when there is none."""
    if len(t.text) >= t.SMALL:  # a long log: its distinct words first (far shorter than the text)
        words = t.joined_words_lower()
        if not any(a in words for a in _RETRY_ANCHORS):
            return -1
    low = t.text.lower()
    candidates = set()
    for cue in _RETRY_CUES:
        at = low.find(cue)
        while at >= 0:
            i = t.line_at(at)
            candidates.add(i)
            at = low.find(cue, t.end(i))
    for i in sorted(candidates, reverse=True):
        line = t.lines[i]
        if len(line) <= _RETRY_LONGEST and _RETRY_LINE.search(line):
            return i
    return -1


def _superseded_last(hits: list[tuple], t: LogText) -> list[tuple]:
    """``hits`` with those the user has moved past put after the rest: when the user's narration says a change
    brought another error (:func:`_retry_line`) and an environment cause is found below that line, a cause found
    only above it is a superseded state (its rank becomes 2, after every cause and consequence found below). A
    cause that is found again below the line is not superseded (the change did not help)."""
    if max(h[6] for h in hits) == min(h[1] for h in hits):
        return hits
    retry = _retry_line(t)
    if retry < 0 or not any(h[6] > retry and h[3].get("environment", True) for h in hits):
        return hits
    return [(max(h[0], 2),) + h[1:] if h[6] < retry else h for h in hits]


def _named_in_diagnostic(t: LogText, i: int, m: re.Match) -> bool:
    """Whether the match on line ``i`` is a bare identifier that a compiler's name diagnostic quotes, on that line or
    on one of the three above it (gcc repeats the suggested name on its fix-it line, under the source and caret lines)."""
    name = m.group(0)
    if not _IDENTIFIER.fullmatch(name):
        return False
    quoted = re.compile(r"['\"]" + re.escape(name) + r"['\"]")
    for j in range(i, max(i - 4, -1), -1):
        line = t.lines[j]
        if name in line and _NAME_DIAGNOSTIC.search(line) and quoted.search(line):
            return True
    return False


def _declined(kb: _Compiled, entry_id: str, t: LogText) -> bool:
    """Whether the entry's guards decline this log: a ``requires`` pattern it lacks or an ``unless`` pattern it holds."""
    requires, unless = kb.guards(entry_id)
    return any(not rx.search(t.text) for rx in requires) or any(rx.search(t.text) for rx in unless)


def explain(text: str, entries: list[dict] | None = None) -> list[Match]:
    """Every known error in ``text``: root causes first, then consequences, each once.

    Args:
        text: One message or a whole build log, as pasted.
        entries: Knowledge-base entries (default: the packaged ``errors.yaml``).

    Returns:
        One :class:`Match` per entry that matched, ordered by the entry's ``rank``
        (0, a cause, by default; 1 for a warning or a consequence such as "No CUDA
        runtime is found"), then by the line where it first matched, then by
        knowledge-base order. A ``fallback`` entry (a generic build failure) is left
        out when any other entry matched: the specific cause explains it better.
    """
    kb = _knowledge(entries)
    t = LogText(text)
    hits = []  # (rank, first line index, kb order, entry, first match, number of places)
    words = t.words()
    diagnostics: bool | None = None  # whether the text has a compiler's name diagnostic at all (read once, lazily)
    wraps = kb._wraps
    longest = kb._longest
    for n, (entry, pats) in enumerate(kb.entries):
        where: dict[int, re.Match] = {}
        for p in pats:  # the entry's patterns go from the most to the least specific
            needle = kb.needles[p]
            absent = needle is not None and not t.has(needle)
            if absent:
                # The literal's longest inner word (what `wrapped` checks first), read without widening the
                # pattern: most absent literals stop here, before their wrapped form is ever worked out.
                lw = longest[p] if p in longest else kb.longest_inner(p, needle)
                if lw and lw not in words:
                    continue
            # the same pattern, its spaces between words also matching a wrapped line (a dict look-up once known)
            wrapped = wraps[p] if p in wraps else kb.wrapped(p)
            if absent:
                # Not there whole: maybe wrapped inside it. Each word of the literal must be in the text then.
                if wrapped is None or not wrapped[3] or (wrapped[2] and wrapped[2][0] not in words) \
                        or not _words_there(wrapped, t):
                    continue
                needle = wrapped[1]
            if needle is None and p in kb.alternatives:
                alts = kb.alternatives[p]
                if not any(map(t.has, alts)):
                    continue  # searched whole otherwise: a long log holding none of the literals has no match
                if len(alts) == 1:  # every match holds it: only the lines around it are searched
                    needle = alts[0]
            if needle is None and p in kb.folded and not all(any(map(t.has_folded, c)) for c in kb.folded[p]):
                continue  # a case-blind pattern: its literals lower-cased, in the words lower-cased
            if p in kb.needed and not all(any(all(map(t.has, words)) for words in c) for c in kb.needed[p]):
                continue  # another literal every match holds is not in the log
            for i, m in scan(kb.rx(p if wrapped is None else wrapped[0]), needle, t).items():
                where.setdefault(i, m)
        if where:
            if diagnostics is None:
                diagnostics = any(s in t.text for s in _NAME_DIAGNOSTIC_LITERALS)
            if diagnostics:
                where = {i: m for i, m in where.items() if not _named_in_diagnostic(t, i, m)}
                if not where:
                    continue
            if _declined(kb, entry["id"], t):
                continue
            i = min(where)
            hits.append((entry.get("rank", 0), i, n, entry, where[i], t.places(where), max(where)))
    reading = None
    if all(h[3].get("fallback") for h in hits):
        # [r14 engine] nothing recognised but a summary (a fallback entry): the generic cause-model reading of the
        # log's error lines (generic.py). An entry whose `reads` owns what was read answers it with its own
        # resolutions (its patterns missed this producer's wording); else the generic answer does.
        from .generic import answer, reading as read_log, routed

        reading = read_log(t)
        status = reading is not None and reading.kind in ("status", "concept")  # both name the entry that answers
        if reading is not None:
            owner = next(((n, e) for n, (e, _) in enumerate(kb.entries)
                          if (status or e.get("reads")) and routed(e, reading, t)), None)
            if owner and owner[1].get("cudaenv_fix", True) and facts(t)["platform"] == "windows":
                owner = None  # its fixes are cudaenv commands; the generic answer has the Windows form
            if owner and status:
                # [p26 status] a status answers through the entry status.yaml names, as that entry would: not where
                # its own `unless` says the cause is another (its patterns declined the log for that reason)
                if _declined(kb, owner[1]["id"], t):
                    owner = None
            group = ("status_code" if status else owner[1]["reads"].get("group") or "name") if owner else ""
            m = (reading.values or re.compile(f"(?P<{group}>{re.escape(reading.name)})").search(
                t.text, t.starts[reading.line])) if owner else None
            if m is None and status:
                reading = None  # a status no entry may answer here: the generic answer has no form for it
            elif m is None:
                return [answer(reading, t, Match)] + _answers(kb, t, hits)
            else:
                hits = [(0, reading.line, owner[0], owner[1], m, t.places([reading.line]), reading.line)]
    matches = _answers(kb, t, hits)
    if reading is not None and matches:
        from .generic import mark

        mark(matches[0], reading)
    return matches


def _clearing_first(hits: list[tuple]) -> Callable[[tuple], tuple]:
    """The order of ``hits``: (rank, first line, kb order), except that an entry whose ``clears`` names another entry
    found in the same log goes just before it. One fix that clears every error of the log beats a fix for one of them:
    a host gcc newer than CUDA 7.5 breaks both glibc's string.h and gcc's mwaitxintrin.h in nvcc's host pass
    (tensorflow/tensorflow#1346); a supported gcc/CUDA pair clears both, -D_FORCE_INLINES only the first."""
    found = {h[3]["id"]: h for h in hits}
    lead: dict[str, tuple] = {}
    for h in hits:
        cleared = [found[c][:3] for c in h[3].get("clears", ()) if c in found and found[c] is not h]
        if cleared and min(cleared) < h[:3]:
            rank, line, order = min(cleared)
            lead[h[3]["id"]] = (rank, line, order - 0.5)
    if not lead:
        return lambda h: h[:3]
    return lambda h: lead.get(h[3]["id"], h[:3])


def _answers(kb: _Compiled, t: LogText, hits: list[tuple]) -> list[Match]:
    """The answers to ``hits`` (rank, first line index, kb order, entry, first match, places, last line index),
    ordered, each filled from what it matched and what the log shows."""
    fallbacks = []
    if any(not h[3].get("fallback") for h in hits):
        fallbacks = [h for h in hits if h[3].get("fallback")]
        hits = [h for h in hits if not h[3].get("fallback")]
    if len(hits) > 1:
        hits = _superseded_last(hits, t)
    matches = []
    seen: dict[str, str] = {}
    if any(kb.needs_facts[h[3]["id"]] for h in hits):
        seen = facts(t)
    for _, i, _, entry, m, count, _ in sorted(hits, key=_clearing_first(hits)):
        entry = kb.full(entry["id"])
        values = {k: v for k, v in m.groupdict().items() if v}
        from_log = {**seen, **values}  # decisions (variants, derive) read them as they are; text gets them inert
        filled = {**seen, **entry.get("defaults", {}), **values}
        derive = entry.get("derive")
        if derive:
            derived = DERIVE[derive](filled, t, m)
            values.update({k: v for k, v in derived.items() if v})
            filled.update({k: v for k, v in derived.items() if v or k not in filled})
        wanted = entry.get("requires_derived")
        if wanted and not all(kb.rx(str(rx), 0).search(filled.get(k) or "") for k, rx in wanted.items()):
            continue  # what the tables decide from the log's values rules this cause out
        entry = {**_variant(entry, kb.variants(entry["id"]), filled, t, kb), "_platform": seen.get("platform", "")}
        if entry["id"] in kb.situated:
            entry, situation = _situated(entry, seen, t)
            if situation:
                values["situation"] = situation
        if not seen and entry.get("cudaenv_fix") is False:  # the Windows rule of render: read the platform
            entry["_platform"] = facts(t)["platform"]
        first = _first_compiler_error(t, i, [kb.rx(p, 0) for p in entry["patterns"]]) \
            if entry.get("first_error") else None
        filled = _shown(filled, from_log)
        matches.append(_with_cause(entry, Match(
            id=entry["id"],
            title=_fill(entry["title"], filled),
            check=entry.get("check"),
            line=t.number(i),
            matched=clip(t.shown(m.string[t.starts[i]:max(m.end(), t.end(i))])),
            cause=_fill(entry["cause"], filled).strip(),
            fix=_paste(_fill(entry["fix"], filled).strip(), filled, t, entry.get("component", "")),
            count=count,
            first_error=first,
            values=values,
            environment=entry.get("environment", True),
        )))
    if not matches and fallbacks:  # every specific cause was ruled out by its requires_derived: the summary stays
        return _answers(kb, t, fallbacks)
    return matches
