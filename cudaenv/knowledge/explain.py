"""``cudaenv explain``: recognise known CUDA errors in a message or a whole log.

Pure functions over text: :func:`explain` finds every known error (from the
knowledge base in ``cudaenv/knowledge/errors.yaml``) in order of first
appearance, each once; :func:`render_text` and :meth:`Match.to_dict` present
the result. Nothing here reads stdin, prints or exits: the click command in
``cudaenv/cli/explain_cmd.py`` does that.

Not on the hot path, so regular expressions are fine; they are compiled the first
time :func:`explain` runs, not at import.
"""

from __future__ import annotations

import re

__all__ = ["Match", "explain", "render_text", "split_lines", "checked_by", "required_literal"]

# CSI sequences (colours, cursor movement) and OSC sequences (titles, hyperlinks):
# gcc, ninja and pip colour their output when they think they talk to a terminal.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
# A compiler's error line: gcc/clang/nvcc "error:", "fatal error:", "nvcc fatal   :",
# MSVC "error C2065:".
_COMPILER_ERROR = re.compile(r"\b(?:error|fatal)\b\s*(?:[A-Z]+\d+\s*)?:")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Check ids whose rules look at the calling shell (cudaenv/checks/shell.py): only
# `cudaenv doctor` runs them; `cudaenv check` runs the rest (and doctor runs those too).
_SHELL_CHECKS = ("env.", "torch.extension_lock")
# Ids that only name a verdict: no rule can see the problem on the machine.
_NO_RULE = ("runtime.out_of_memory",)
# A matched line longer than this is cut (in the JSON too): minified or joined logs.
MAX_LINE = 2000


def checked_by(check: str) -> str | None:
    """The command that runs the check ``check`` (None: nothing can check it beforehand)."""
    if check in _NO_RULE:
        return None
    return "cudaenv doctor" if check.startswith(_SHELL_CHECKS) else "cudaenv check"


class Match:
    """One known error found in the input.

    Attributes:
        id: The knowledge-base entry's stable id.
        title: One line, placeholders filled from the matched line.
        check: The ``cudaenv check`` id that catches the problem.
        line: 1-based number of the first line that matched.
        matched: That line (colour codes and surrounding blanks removed).
        count: How many lines matched this entry in all.
        cause: Why it happens.
        fix: What to do, one step per line.
        first_error: For a generic build failure: (line number, text) of the first
            compiler error line in the input, or None.
    """

    __slots__ = ("id", "title", "check", "line", "matched", "count", "cause", "fix", "first_error")

    def __init__(self, id: str, title: str, check: str, line: int, matched: str, cause: str, fix: str,
                 count: int = 1, first_error: tuple[int, str] | None = None) -> None:
        self.id = id
        self.title = title
        self.check = check
        self.line = line
        self.matched = matched
        self.count = count
        self.cause = cause
        self.fix = fix
        self.first_error = first_error

    def to_dict(self) -> dict:
        """The ``explain --json`` object (stable: keys are added, never removed or renamed)."""
        fe = self.first_error
        return {
            "id": self.id,
            "title": self.title,
            "check": self.check,
            "checked_by": checked_by(self.check),
            "line": self.line,
            "matched": self.matched,
            "count": self.count,
            "cause": self.cause,
            "fix": self.fix,
            "first_error": None if fe is None else {"line": fe[0], "text": fe[1]},
        }

    def __repr__(self) -> str:
        return f"Match({self.id!r}, line={self.line})"


class _Compiled:
    """The knowledge base with its patterns compiled.

    MULTILINE, because each pattern scans the whole text (see :func:`_scan`).
    """

    def __init__(self, entries: list[dict]) -> None:
        self.entries = [(e, [re.compile(p, re.MULTILINE) for p in e["patterns"]]) for e in entries]
        self.needles = {p: required_literal(p) for e in entries for p in e["patterns"]}


_default: _Compiled | None = None


def _knowledge(entries: list[dict] | None) -> _Compiled:
    """The packaged knowledge base, compiled once; or ``entries``, compiled now."""
    global _default
    if entries is not None:
        return _Compiled(entries)
    if _default is None:
        from .kb import load_entries

        _default = _Compiled(load_entries())
    return _default


def split_lines(text: str) -> list[str]:
    """``text`` as lines, without colour codes or line ends (``\\r\\n`` too).

    Only ``\\n`` ends a line, so line numbers agree with an editor's.
    """
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    return [line.rstrip("\r") for line in text.split("\n")]


class _Text:
    """Lines, the same lines joined, and where each line starts in the joined text."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)
        self.joined = "\n".join(self.lines)
        self.starts = []
        pos = 0
        for line in self.lines:
            self.starts.append(pos)
            pos += len(line) + 1

    def line_at(self, offset: int) -> int:
        """Index of the line holding ``offset``."""
        from bisect import bisect_right

        return bisect_right(self.starts, offset) - 1


_META = frozenset(".^$*+?{}[]\\|()")


def required_literal(pattern: str) -> str | None:
    """The longest run of plain characters that every match of ``pattern`` contains.

    Conservative: only text outside groups and character classes counts, a
    character followed by ``?``, ``*`` or ``{`` does not, and a pattern with a
    top-level ``|`` has none. Returns None when the longest run is shorter than
    three characters.
    """
    runs: list[str] = []
    cur: list[str] = []
    depth = 0
    i, n = 0, len(pattern)

    def flush() -> None:
        if cur:
            runs.append("".join(cur))
            cur.clear()

    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            d = pattern[i + 1]
            i += 2
            if depth:
                continue
            if d.isalnum():  # \\b, \\d, \\w, a back-reference...: not a literal
                flush()
                continue
            cur.append(d)
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            if not depth:
                flush()
        elif c == "(":
            if not depth:
                flush()
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
        elif c == "|":
            if not depth:
                return None
            i += 1
        elif c in "*?{+":
            if not depth:
                if c != "+" and cur:
                    cur.pop()  # the quantified character may be absent
                flush()
            if c == "{":
                j = pattern.find("}", i)
                i = n if j < 0 else j + 1
            else:
                i += 1
        elif c in _META:  # . ^ $
            if not depth:
                flush()
            i += 1
        else:
            if not depth:
                cur.append(c)
            i += 1
    flush()
    best = max(runs, key=len, default="")
    return best if len(best) >= 3 else None


def _scan(rx: re.Pattern, needle: str | None, t: _Text) -> list[int]:
    """Indexes of the lines on which ``rx`` matches.

    A log can have 100,000 lines, so this avoids one Python-level search per line
    per pattern: with a ``needle`` (a literal every match contains, see
    :func:`required_literal`) ``str.find`` locates the candidate lines; without
    one, the pattern itself searches the whole text. Either way a candidate is
    confirmed on its own line (so a ``\\s`` or ``[^x]`` cannot match across a line
    end), and the search goes on at the next line, so no line is missed.
    """
    found = []
    text = t.joined
    pos = 0
    while True:
        if needle is not None:
            k = text.find(needle, pos)
        else:
            m = rx.search(text, pos)
            k = -1 if m is None else m.start()
        if k < 0:
            break
        i = t.line_at(k)
        line = t.lines[i]
        if rx.search(line) is not None:
            found.append(i)
        pos = t.starts[i] + len(line) + 1
    return found


def _fill(text: str, groups: dict[str, str | None], defaults: dict[str, str]) -> str:
    def sub(m: re.Match) -> str:
        name = m.group(1)
        return groups.get(name) or defaults.get(name) or m.group(0)

    return _PLACEHOLDER.sub(sub, text)


def _clip(line: str) -> str:
    line = line.strip()
    return line if len(line) <= MAX_LINE else line[:MAX_LINE] + "…"


def _first_compiler_error(t: _Text, before: int, skip: list[re.Pattern]) -> tuple[int, str] | None:
    """The first line (index < ``before``) that looks like a compiler error, else None."""
    for i in range(before):
        line = t.lines[i]
        if ("error" in line or "fatal" in line) and _COMPILER_ERROR.search(line) \
                and not any(p.search(line) for p in skip):
            return i + 1, _clip(line)
    return None


def explain(text: str, entries: list[dict] | None = None) -> list[Match]:
    """Every known error in ``text``, in order of first appearance, each once.

    Args:
        text: One message or a whole build log.
        entries: Knowledge-base entries (default: the packaged ``errors.yaml``).

    Returns:
        One :class:`Match` per entry that matched, ordered by the line where it
        first matched (ties: knowledge-base order). A ``fallback`` entry (the
        generic "Error compiling objects for extension") is left out when any other
        entry matched: the specific cause explains it better.
    """
    kb = _knowledge(entries)
    t = _Text(text)
    hits = []  # (first line index, kb order, entry, patterns, number of lines matched)
    for n, (entry, pats) in enumerate(kb.entries):
        lines: set[int] = set()
        for rx in pats:
            lines.update(_scan(rx, kb.needles[rx.pattern], t))
        if lines:
            hits.append((min(lines), n, entry, pats, len(lines)))
    if any(not h[2].get("fallback") for h in hits):
        hits = [h for h in hits if not h[2].get("fallback")]
    matches = []
    for i, _, entry, pats, count in sorted(hits, key=lambda h: (h[0], h[1])):
        line = t.lines[i]
        # The entry's first pattern that matches this line decides the groups:
        # patterns are listed from the most to the least specific.
        m = next(m for m in (rx.search(line) for rx in pats) if m is not None)
        groups = m.groupdict()
        defaults = entry.get("defaults", {})
        first = _first_compiler_error(t, i, pats) if entry.get("first_error") else None
        matches.append(Match(
            id=entry["id"],
            title=_fill(entry["title"], groups, defaults),
            check=entry["check"],
            line=i + 1,
            matched=_clip(line),
            cause=_fill(entry["cause"], groups, defaults).strip(),
            fix=_fill(entry["fix"], groups, defaults).strip(),
            count=count,
            first_error=first,
        ))
    return matches


# Human output ---------------------------------------------------------------------------

_WIDTH = 100
_SHOWN_LINE = 240


def _wrap(text: str, first: str, rest: str) -> list[str]:
    """Wrap ``text`` without breaking inside `backticks` (commands stay on one line)."""
    import textwrap

    nbsp = "\u00a0"
    protected = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", nbsp), text)
    out = textwrap.wrap(protected, width=_WIDTH, initial_indent=first, subsequent_indent=rest,
                        break_long_words=False, break_on_hyphens=False)
    return [line.replace(nbsp, " ") for line in out] or [first.rstrip()]


def render_text(matches: list[Match], numbered_lines: bool = True) -> str:
    """The human report: per match its title, the line, cause, fix and check id.

    Args:
        matches: What :func:`explain` returned.
        numbered_lines: Say which line matched (pointless for a one-line message).
    """
    out: list[str] = []
    for n, m in enumerate(matches, 1):
        if out:
            out.append("")
        out.append(f"{n}. {m.title}  [{m.id}]")
        shown = m.matched if len(m.matched) <= _SHOWN_LINE else m.matched[:_SHOWN_LINE] + "…"
        where = f"line {m.line}" if numbered_lines else "matched"
        if numbered_lines and m.count > 1:
            where += f", and {m.count - 1} more"
        out.append(f"   {where}: {shown}")
        if m.first_error is not None:
            fl, ft = m.first_error
            ft = ft if len(ft) <= _SHOWN_LINE else ft[:_SHOWN_LINE] + "…"
            out.append(f"   first compiler error (line {fl}): {ft}")
        out.extend(_wrap(m.cause, "   cause: ", "          "))
        for k, step in enumerate(s for s in m.fix.splitlines() if s.strip()):
            out.extend(_wrap(step.strip(), "   fix:   " if k == 0 else "          ", "            "))
        cmd = checked_by(m.check)
        if cmd is None:
            out.append(f"   checked by: nothing, it is not an environment problem ({m.check})")
        else:
            out.append(f"   checked by: {cmd} ({m.check})")
    return "\n".join(out) + "\n" if out else ""
