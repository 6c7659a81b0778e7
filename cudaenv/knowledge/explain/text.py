"""Logs as people paste them: colour codes, ``\\r`` overwrites and quoting taken off, and fast scanning.

:class:`LogText` holds the normalised lines; :func:`scan` finds where a pattern
starts, line by line, without one regex search per line (:func:`required_literal`
gives the literal it looks for first).
"""

from __future__ import annotations

from collections.abc import Callable

from . import lazyre as re  # re, its module-level patterns compiled when first used
from .translated import in_c_locale

__all__ = ["MAX_LINE", "SPAN", "LONG", "LONG_TRIES", "DENSE", "FOLD", "PERIOD", "window", "LogText", "fold",
           "split_lines", "normalize_line", "unprefixed", "required_literal", "scan", "clip", "may_contain", "wrapping", "WRAP"]

# CSI sequences (colours, cursor movement) and OSC sequences (titles, hyperlinks):
# gcc, ninja and pip colour their output when they think they talk to a terminal.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
# What pasting adds in front of a line: indentation (pip's subprocess output), e-mail
# and Markdown quoting (">"), box drawing, pytest's "E   ", torchrun's "[rank3]:",
# backticks, a compiler's "  138 | " source gutter.
_PREFIX = re.compile(r"^[ \t]*(?:(?:>|\u2502|\||E(?=[ \t]{2})|\[rank\d+\]:|`+|\d+[ \t]*\|(?=[ \t]*#))[ \t]*)+")
# A double quote behind one or more backslashes: Kubernetes events, docker's API errors and OCI hooks print the
# daemon's message inside a quoted string, so a pattern's `custom device "/dev/nvidia0"` arrives with each quote escaped.
_ESCAPED_QUOTE = re.compile(r'\\+"')
# A matched line longer than this is cut (in the JSON too): minified or joined logs.
MAX_LINE = 2000
# A message may continue over this many lines after the one it starts on.
SPAN = 3
# A line longer than this (a joined or minified log, or hostile input) is searched only in windows of
# MAX_LINE either side of the first LONG_TRIES places its literal occurs: a pattern that backtracks
# over the line (`/[\w./-]*x/…`, `nvcc.* -c `) would otherwise cost the square of its length per try.
LONG = 4 * MAX_LINE
LONG_TRIES = 8
# After a pattern's literal has been found on this many lines (a log repeating one message: a training loop, a
# retry), the rest of the log is searched in one pass rather than line by line: the Python-level step per line,
# not the regex, is what costs then (10 000 repeats of one loader error: 3 s). Not when the log has a LONG line.
DENSE = 256
# A log repeating a line or a block of up to PERIOD lines (a retry loop, a training loop printing the same traceback)
# is read with each repetition folded away once it repeats more than FOLD lines (:func:`fold`): every later stage
# (the patterns, the facts, derive) then pays for the block a few times, not 10 000 times.
FOLD = 32
PERIOD = 16


def window(a: int, b: int, k: int, size: int) -> tuple[int, int]:
    """The part of the line ``[a, b)`` to search for a match holding the literal found at ``k`` (``size``
    long): the whole line, or MAX_LINE either side of the literal when the line is longer than LONG."""
    if b - a <= LONG:
        return a, b
    return max(a, k - MAX_LINE), min(b, k + size + MAX_LINE)


def split_lines(text: str) -> list[str]:
    """``text`` as lines, without colour codes or line ends (``\\r\\n`` too).

    Only ``\\n`` ends a line, so line numbers agree with an editor's.
    """
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    text = as_typed(text)
    return [line.rstrip("\r") for line in text.split("\n")]


# What a web page, a chat or a word processor makes of a log's characters when it is copied from there: no-break and
# zero-width spaces (an HTML page's indentation), typographic quotes (Discourse, Slack, Word), and the page's escapes of
# <, >, & and quotes (a log copied from a page's source or an API's HTML). gcc's own ‘’ are read as ' too, which every
# pattern that names gcc's quotes also takes.
_TYPED = str.maketrans({"\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u200b": None, "\ufeff": None,
                        "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_ODD = frozenset(_TYPED)
_WIDE_COLON = re.compile("\uff1a ?")
_ENTITY = re.compile(r"&(?:quot|apos|#39|#x27|lt|gt|amp|nbsp);")
_ENTITIES = {"&quot;": '"', "&apos;": "'", "&#39;": "'", "&#x27;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&",
             "&nbsp;": " "}


def as_typed(text: str) -> str:
    """``text`` with the characters a page or a chat put in place of a terminal's (_TYPED, _ENTITY) put back."""
    if not text.isascii():
        if any(chr(c) in text for c in _ODD):
            text = text.translate(_TYPED)
    if "&" in text and _ENTITY.search(text):
        text = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], text)
    if "\uff1a" in text:  # a CJK input method's full-width colon, typed into an English message ("Fatal error： x.h：No such")
        text = _WIDE_COLON.sub(": ", text)
    return text


# What a runner writes in front of every line of a program's output, log-wide: BuildKit's step and seconds ("#12 3.456 "),
# GitHub Actions' time stamps ("2024-05-01T10:22:33.1234567Z "), docker compose's service ("trainer-1  | "), kubectl
# logs --prefix ("[pod/train-0/trainer] "), journald and syslog ("Nov 27 10:22:33 gpu01 python3[4121]: "), srun --label
# ("0: "), a logger's date and clock ("2024-05-01 10:22:33,123 "). A pattern anchored at a line's start, or one that
# reads a message's indented continuation, sees the program's line only once it is taken away. The decision is the
# log's, not the line's (a program's own "0: " stays): a shape is taken away only when it starts most of the first
# non-empty lines, and then from every line but the first that has it, which keeps the runner's evidence for the rules
# that read where the log ran (compose's "name_1  | ", BuildKit's "#12 3.4 ": a docker build).
_RUNNER_PREFIXES = tuple(re.compile(p) for p in (
    r"#\d+ \d+\.\d+ ",
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ",
    r"[\w.-]+[-_]\d+ +\| ",
    r"\[pod/[\w.-]+/[\w.-]+\] ",
    r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]+ [\w.@/-]+(?:\[\d+\])?: ",
    r"\d{1,4}: ",
    r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)? ",
))
#: How many of the first non-empty lines are looked at, and how many of them must start with one shape.
_PREFIX_SAMPLE, _PREFIX_SHARE = 40, 0.6


def unprefixed(lines: list[str]) -> list[str]:
    """``lines`` without the runner's prefix (_RUNNER_PREFIXES) when one shape starts most of them (but on the first
    line that has it); else ``lines``."""
    sample = [line for line in lines[:4 * _PREFIX_SAMPLE] if line.strip()][:_PREFIX_SAMPLE]
    if len(sample) < 3:
        return lines
    for rx in _RUNNER_PREFIXES:
        if sum(1 for line in sample if rx.match(line)) >= _PREFIX_SHARE * len(sample):
            out = [rx.sub("", line, count=1) for line in lines]
            first = next(i for i, (a, b) in enumerate(zip(lines, out)) if a != b)
            out[first] = lines[first]
            return out
    return lines


#: The narrowest and the widest width a terminal or a console wraps lines at that :func:`unwrapped` undoes, and how
#: many distinct lines must have exactly the width of the longest before the log counts as wrapped there.
WRAP_WIDTH, WRAP_WIDEST, WRAP_LINES = 40, 512, 3


def unwrapped(lines: list[str]) -> tuple[list[str], list[int]] | None:
    """``lines`` with a console's hard wraps joined, and each joined line's index in ``lines``; None when the log
    shows none.

    A console that breaks its lines at its width (Windows' cmd and PowerShell windows at 80 or 120 columns, a pager,
    a screen capture turned to text) cuts a message mid-word, where no pattern can follow it, and no line is longer
    than that width. The log is wrapped at W when its longest lines are W characters long, WRAP_LINES distinct lines
    are exactly that long, at a third of them (two at least) the cut falls inside a word, and they are no table's
    rows (no padded column on all of them); each line of W characters then continues on the next.
    """
    if len(lines) < 2:
        return None
    width = max(map(len, lines))
    if not WRAP_WIDTH <= width <= WRAP_WIDEST:
        return None
    full = {line for line in lines if len(line) == width}
    if len(full) < WRAP_LINES or len(lines) < WRAP_LINES + 1:
        return _console_cut(lines, width) if width in CONSOLE_WIDTHS else None
    # and the cut falls inside a word at least twice, and at a third of the cuts: a line of the longest length that
    # ends a sentence before another starts (a device-side assert repeated per thread) is no wrap, nor is a line whose
    # next begins the way the log's lines begin (its first four characters begin a line after a shorter one too:
    # "step 1000: ..." after "step 999: ...")
    starts = {lines[0][:4]} | {b[:4] for a, b in zip(lines, lines[1:]) if len(a) != width}
    cuts = [(a[-1:] + b[:1]).isalnum() and b[:4] not in starts for a, b in zip(lines, lines[1:]) if len(a) == width]
    if sum(cuts) < 2 or 3 * sum(cuts) < len(cuts):
        return None
    # nor are the rows of a table (`conda list`, `pip list`, nvidia-smi): their columns are padded, two blanks at the
    # same place on every row, where a wrapped text's blanks fall anywhere (a runner's prefix has single ones)
    rows = sorted(full)[:64]
    if any(all(row[p:p + 2] == "  " for row in rows) for p in range(width - 1)):
        return None
    return _joined(lines, lambda a, b: len(a) == width)


def _joined(lines: list[str], runs_on: Callable[[str, str], bool]) -> tuple[list[str], list[int]]:
    """``lines`` with each line that ``runs_on`` the next joined to it (and on while it does), and the index of
    each joined line's first piece."""
    out: list[str] = []
    origin: list[int] = []
    i, n = 0, len(lines)
    while i < n:
        start, parts = i, [lines[i]]
        while i + 1 < n and runs_on(lines[i], lines[i + 1]):
            i += 1
            parts.append(lines[i])
        out.append("".join(parts))
        origin.append(start)
        i += 1
    return out, origin


#: The widths a console window has unless someone resized it (cmd, PowerShell, xterm, a screen's text capture): a
#: log whose longest lines are exactly this long was cut there even when too few lines are for :func:`unwrapped`'s
#: count (one long error line broken in two or three).
CONSOLE_WIDTHS = frozenset({80, 120})


def _console_cut(lines: list[str], width: int) -> tuple[list[str], list[int]] | None:
    """``lines`` with each line of a console's exact ``width`` that a word runs on from joined to the next (and
    that one to its next while it is as long), and each joined line's index; None when no line is cut so.

    Only a cut inside a word joins: letters, digits or '_' on both sides of it (CUDA_|HOME), and the next line beginning neither the
    way another line of the log begins nor with an upper-case letter after a lower-case one (a new message); a line
    of 80 characters that ends a word is left alone, as is a short log's table of 80-column rows.
    """
    starts = {lines[0][:4]} | {b[:4] for a, b in zip(lines, lines[1:]) if len(a) != width}

    def cut(a: str, b: str) -> bool:
        return (len(a) == width and (a[-1:] + b[:1]).replace("_", "a").isalnum() and b[:4] not in starts
                and not (a[-1:].islower() and b[:1].isupper()))

    if not any(cut(a, b) for a, b in zip(lines, lines[1:])):
        return None
    return _joined(lines, cut)


def normalize_line(line: str) -> str:
    """One line as the terminal showed it, without what pasting put in front of it.

    ``\\r`` overwrites (progress bars) are kept as separate pieces of the same line:
    what was overwritten can still hold the error.
    """
    if "\r" in line:
        line = "  ".join(p for p in line.split("\r") if p.strip())
    line = line.rstrip()
    if line[:1] in " \t>|`E[\u2502" or line[:1].isdigit():
        line = _PREFIX.sub("", line, count=1)
    if '\\"' in line:  # a message quoted inside JSON or a Go error (kubectl's events, docker's API, OCI hooks)
        line = _ESCAPED_QUOTE.sub('"', line)
    return line


# A time stamp in front of a line (ISO date and clock, a bare clock, dmesg's seconds, glog's "I1127 10:35:41.12 123",
# syslog's "Nov 27 10:35:41"): two lines that differ only there are the same line to :func:`fold` (a retry loop).
_STAMP = re.compile(r"\[?(?:\d{4}[-/]\d\d[-/]\d\dT? ?)?\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?"
                    r"|\[ *\d+\.\d+\]|[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d")


def _unstamped(line: str) -> str:
    m = _STAMP.match(line) if line[:1] in "[0123456789IWEFADJMNOS" else None
    return line[m.end():] if m else line


def fold(lines: list[str]) -> tuple[list[str], list[int], list[int]] | None:
    """``lines`` with long repetitions folded: the kept lines, each one's index in ``lines``, and how many lines of
    ``lines`` each stands for; None when nothing repeats enough to fold.

    A stretch where every line equals the one ``p`` lines above it but for a time stamp in front (``p`` <= PERIOD:
    one line repeated, or a block) keeps its first and last ``p + SPAN`` lines, so every run of up to ``SPAN + 1`` lines it held (a wrapped message)
    is still there, at its start and at its end, and drops whole periods between them (at least FOLD lines): the
    kept text is the same text, shorter. A kept line of the first period stands for the dropped copies of itself.
    """
    n = len(lines)
    if n < 2 * FOLD:
        return None
    lines_as_given, lines = lines, [_unstamped(line) for line in lines]
    if n - len(set(lines)) < FOLD:
        return None
    nxt = [n] * n  # the next line equal to each, for the periods worth trying at a line
    last: dict[str, int] = {}
    for i in range(n - 1, -1, -1):
        nxt[i] = last.get(lines[i], n)
        last[lines[i]] = i
    kept: list[int] = []
    weight: list[int] = []
    i = 0
    while i < n:
        k, cut = nxt[i], None
        while k < n and k - i <= PERIOD:
            p, j = k - i, k
            while j < n and lines[j] == lines[j - p]:
                j += 1
            keep = p + SPAN
            drop = (j - i - 2 * keep) // p * p
            if drop >= FOLD:
                cut = (p, keep, drop)
                break
            k = nxt[k]
        if cut is None:
            kept.append(i)
            weight.append(1)
            i += 1
            continue
        p, keep, drop = cut
        base = len(kept)
        kept.extend(range(i, i + keep))
        weight.extend([1] * keep)
        for r in range(p):
            weight[base + r] += drop // p
        i += keep + drop
    if len(kept) == n:
        return None
    return [lines_as_given[i] for i in kept], kept, weight


class LogText:
    """Normalised lines, the same lines joined by ``\\n``, and where each line starts.

    Long repetitions are folded (:func:`fold`): :meth:`number` gives a line's number in the text as given, and
    :meth:`places` how many lines of that text a set of lines stands for.
    """

    origin: list[int] | None = None
    weight: list[int] | None = None
    #: Each line read in the C locale (a translated toolchain message, :mod:`.translated`) -> the line as pasted.
    given: dict[str, str] = {}

    def __init__(self, text: str) -> None:
        lines = split_lines(text)
        joined = unwrapped(lines)
        if joined is not None:
            lines, self.origin = joined
        self.lines = [normalize_line(line) for line in unprefixed(lines)]
        folded = fold(self.lines)
        if folded is not None:
            self.lines, origin, self.weight = folded
            self.origin = origin if self.origin is None else [self.origin[i] for i in origin]
        self.text = "\n".join(self.lines)
        english = in_c_locale(self.lines, self.text, MAX_LINE, self.has)
        if english:
            self.given = {english[i]: self.lines[i] for i in english}
            for i, line in english.items():
                self.lines[i] = line
            self.text = "\n".join(self.lines)
            # what was read of the text as pasted is not true of it as read
            self._has = self._words = self._words_lower = self._joined = self._joined_lower = None
            self._shapes = self._shapes_lower = self._lower = self._ascii = None
        self.starts = []
        pos = 0
        for line in self.lines:
            self.starts.append(pos)
            pos += len(line) + 1
        self.longest = max(map(len, self.lines), default=0)

    def shown(self, quoted: str) -> str:
        """``quoted`` (lines of :attr:`text`) with each line read in the C locale put back as the log has it."""
        for english, line in self.given.items():
            if english in quoted:
                quoted = quoted.replace(english, line)
        return quoted

    #: Below this size a literal is looked for in the text itself; above it, first in the text's
    #: distinct words (:meth:`has`).
    SMALL = 1 << 16

    _words: frozenset[str] | None = None
    _words_lower: frozenset[str] | None = None
    _has: dict[str, bool] | None = None

    def words(self) -> frozenset[str]:
        """The text's distinct white-space-separated words (built once)."""
        if self._words is None:
            self._words = frozenset(self.text.split())
        return self._words

    _joined: str | None = None
    _joined_lower: str | None = None

    def joined_words(self) -> str:
        """:meth:`words` joined by line ends."""
        if self._joined is None:
            self._joined = "\n".join(self.words())
        return self._joined

    def joined_words_lower(self) -> str:
        """:meth:`joined_words` lower-cased (the words of :meth:`words_lower`, by line ends, a word twice at most when
        two words differ only in case)."""
        if self._joined_lower is None:
            self._joined_lower = self.joined_words().lower()
        return self._joined_lower

    _shapes: str | None = None
    _shapes_lower: str | None = None

    def shapes(self) -> str:
        """:meth:`joined_words` with each run of digits written as one ``0``, each shape once: a build log's words
        (``x1.cu`` .. ``x9999.cu``, ``[17/10000]``) are half a megabyte, their shapes a few hundred characters."""
        if self._shapes is None:
            self._shapes = _shapes_of(self.joined_words())
        return self._shapes

    def shapes_lower(self) -> str:
        """:meth:`shapes` of :meth:`joined_words_lower`: the shapes lower-cased (lower-casing leaves digits alone)."""
        if self._shapes_lower is None:
            self._shapes_lower = "\n".join(set(self.shapes().lower().split("\n")))
        return self._shapes_lower

    def words_lower(self) -> frozenset[str]:
        """:meth:`words`, lower-cased (for case-insensitive literals)."""
        if self._words_lower is None:
            joined = self.joined_words_lower()
            self._words_lower = frozenset(joined.split("\n")) if joined else frozenset()
        return self._words_lower

    def has(self, needle: str) -> bool:
        """Whether ``needle`` occurs in :attr:`text`, answered once per literal.

        In a long log (a 10 000-line build, 1 MB) a full search costs half a millisecond per
        literal, and the knowledge base has 250: a literal with a whole word inside it (white
        space on both sides) that is no word of the text cannot occur, which a set answers.
        """
        if self._has is None:
            self._has = {}
        got = self._has.get(needle)
        if got is None:
            got = may_contain(needle, self.words(), self.joined_words(), self.text, self.shapes()) \
                if len(self.text) >= self.SMALL else needle in self.text
            self._has[needle] = got
        return got

    _lower: str | None = None
    _ascii: bool | None = None

    def has_folded(self, needle: str) -> bool:
        """Whether lower-cased ``needle`` (a literal of :func:`literal_clauses` with ``fold``) occurs in the lower-cased
        text; True for a text not all ASCII (where case-blind matching is wider than lower-casing both sides)."""
        if self._ascii is None:
            self._ascii = self.text.isascii()
        if not self._ascii or needle.isspace():
            return True
        if not any(c.isspace() for c in needle):
            return needle in self.joined_words_lower()
        if self._lower is None:
            self._lower = self.text.lower()
        return needle in self._lower

    def number(self, i: int) -> int:
        """The 1-based number, in the text as given, of line ``i``."""
        return (self.origin[i] if self.origin is not None else i) + 1

    def places(self, lines) -> int:
        """How many lines of the text as given the lines ``lines`` (indices) stand for."""
        return sum(self.weight[i] for i in lines) if self.weight is not None else len(lines)

    def line_at(self, offset: int) -> int:
        """Index of the line holding ``offset``."""
        from bisect import bisect_right

        return bisect_right(self.starts, offset) - 1

    def end(self, i: int) -> int:
        """Offset just past line ``i``."""
        return self.starts[i] + len(self.lines[i])


_DIGITS = re.compile(r"\d+")


def _shapes_of(joined: str) -> str:
    """The distinct shapes of ``joined``'s words (line-separated), each run of digits written as ``0``."""
    return "\n".join(set(_DIGITS.sub("0", joined).split("\n")))


def may_contain(needle: str, words: frozenset[str], joined: str, text: str, shapes: str | None = None) -> bool:
    """Whether ``needle`` occurs in ``text``, whose distinct white-space-separated words are ``words``
    (and ``joined``: the same words joined by line ends, a few times shorter than a long log; ``shapes``: their
    shapes, :meth:`LogText.shapes`, far shorter again).

    A needle without white space lies inside one word: ``joined`` answers. The words of a needle
    between two of its white spaces are whole words of any text that holds it, and its first and
    last words lie inside words: one missing answers without searching ``text``. A piece of a word has the shape
    of a piece of that word's shape (a digit run inside a word's run is one run too), so a piece whose shape is in
    no word's shape is in no word, without searching ``joined``.
    """
    def inside(part: str) -> bool:
        return (shapes is None or _DIGITS.sub("0", part) in shapes) and part in joined

    parts = needle.split()
    if len(parts) == 1 and parts[0] == needle:
        return inside(needle)
    if not parts:
        return needle in text
    inner = parts[0 if needle[0].isspace() else 1:len(parts) if needle[-1].isspace() else -1]
    if any(p not in words for p in inner) or not inside(parts[0]) or not inside(parts[-1]):
        return False
    return needle in text


_META = frozenset(".^$*+?{}[]\\|()")


#: Which rules :func:`required_literal` follows: the stored knowledge base (kb.py) keeps each pattern's literal, so a
#: change of the rules must change this to store them again (2: a group every match passes through has its own run).
LITERAL_RULES = 2


def required_literal(pattern: str) -> str | None:
    """The longest run of plain characters that every match of ``pattern`` contains.

    Conservative: only text outside groups and character classes counts, a
    character followed by ``?``, ``*`` or ``{`` does not, and a pattern with a
    top-level ``|`` has none. Returns None when the longest run is shorter than
    three characters. A pattern that is one named group, ``(?P<what>...)``, is read inside.
    """
    if re.match(r"\(\?[aiLmsux]+\)", pattern):
        return None  # global flags: (?i) makes every literal case-blind
    if pattern.startswith("(?P<") and pattern.endswith(")") and _closes_at_end(pattern):
        return required_literal(pattern[pattern.index(">") + 1:-1])
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
            i = _class_end(pattern, i)
            if not depth:
                flush()
        elif c == "(":
            if not depth:
                flush()
                close = _group_close(pattern, i)
                if close is not None:
                    # a group every match passes through (not optional, not a look-around nor a flags group such
                    # as (?i:...)): its own literal is a run too, e.g. (?P<ordinal>cudaErrorInvalidDevice)\b
                    after = pattern[close + 1:close + 2]
                    head = pattern[i + 1:i + 3]
                    if after not in ("*", "?", "{") and (not head.startswith("?") or head in ("?:", "?P")):
                        body = pattern[i + 1:close]
                        if head == "?:":
                            body = body[2:]
                        elif head == "?P":
                            body = body[body.find(">") + 1:] if body.startswith("?P<") else ""
                        inner = required_literal(body) if body else None
                        if inner:
                            runs.append(inner)
                    i = close + 1
                    continue
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


#: What a literal space between two words of a pattern becomes (:func:`wrapping`): the space, or a line end and the
#: next line's indentation (lines are stripped on the right, so a wrap at a space leaves no blank before the end).
WRAP = "(?: |\\n[ \\t]*)"


# What a widened space may follow (besides a letter or digit: punctuation that ends a word, a group, a quantified
# class) and what it may precede (a letter or digit, a group, a class or an escape such as \d).
_WORD_END = frozenset(":,.)+'\"")
_WORD_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789([`'\"")


def wrapping(pattern: str) -> str | None:
    """``pattern`` where each literal space between two words also matches a line break (and the indentation after
    it), or None when it has no such space.

    Browsers, terminals and issue templates wrap long lines anywhere (``...so: undefined`` / `` symbol: _ZN...``).
    Only a plain space between two plain letters or digits is widened: not one in a character class, after an
    escape (``\\ ``), quantified (``a ?b``), or inside a look-behind (which needs a fixed width). The widened
    pattern matches everything ``pattern`` matches; its :func:`required_literal` is the longest run without such a
    space (the words either side of a wrap stay findable).
    """
    if " " not in pattern:
        return None
    out: list[str] = []
    i, n = 0, len(pattern)
    word = False  # the last character copied is a plain letter or digit
    changed = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            word = pattern[i + 1:i + 2] in ("d", "w", "S", ".", ":", ")")  # \d, \w, \S, \., \: \): a word's end
            i += 2
        elif c == "[":
            j = _class_end(pattern, i)
            out.append(pattern[i:j])
            i = j
            word = j < n and pattern[j] == "+"  # [\d.]+: a version
        elif c == "(" and pattern.startswith(("(?<=", "(?<!"), i):
            j = _group_end(pattern, i)
            out.append(pattern[i:j])
            i = j
            word = False
        elif c == " " and word and i + 1 < n and (pattern[i + 1] in _WORD_START or pattern.startswith("\\", i + 1)
                                                  and i + 2 < n and pattern[i + 2] in "dwS[(") \
                and not (i + 2 < n and pattern[i + 2] in "*?{+" and pattern[i + 1] not in "([\\"):
            out.append(WRAP)
            changed = True
            i += 1
            word = False
        else:
            out.append(c)
            word = c.isascii() and c.isalnum() or c in _WORD_END
            i += 1
    return "".join(out) if changed else None


def _group_close(pattern: str, i: int) -> int | None:
    """The index of the ``)`` that closes the group opening at ``pattern[i]`` (``(``), or None if none does."""
    depth, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _class_end(pattern, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _group_end(pattern: str, i: int) -> int:
    """The index just past the group that opens at ``pattern[i]`` (``(``)."""
    close = _group_close(pattern, i)
    return len(pattern) if close is None else close + 1


def _class_end(pattern: str, i: int) -> int:
    """The index just past the character class that opens at ``pattern[i]`` (``[``)."""
    n = len(pattern)
    j = i + 1
    if j < n and pattern[j] == "^":
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    while j < n and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def _closes_at_end(pattern: str) -> bool:
    """Whether the group opened at ``pattern[0]`` closes at its last character."""
    return _group_close(pattern, 0) == len(pattern) - 1


def scan(rx: re.Pattern, needle: str | None, t: LogText) -> dict[int, re.Match]:
    """The first match of ``rx`` starting on each line, by line index.

    A log can have 100,000 lines, so this avoids one Python-level search per line
    per pattern: with a ``needle`` (a literal every match contains, see
    :func:`required_literal`) ``str.find`` locates the candidate lines and the
    pattern is tried on a window of lines around each; without one, the pattern
    searches the whole text. A match may run over at most ``SPAN`` line ends (a
    wrapped message), never further.
    """
    found: dict[int, re.Match] = {}
    text = t.text
    last = len(t.lines) - 1
    if needle is None:
        for m in rx.finditer(text):
            if text.count("\n", m.start(), m.end()) <= SPAN:
                found.setdefault(t.line_at(m.start()), m)
        return found
    pos = 0
    scanned = 0  # lines before this one were searched from their start already
    long_line, tries = -1, 0  # the long line being searched in windows, and how many so far
    windows, dense = 0, False  # short-line windows searched so far; whether the rest goes in one pass
    while True:
        k = text.find(needle, pos)
        if k < 0:
            break
        i = t.line_at(k)
        if i in found:  # a window before already matched here
            pos = t.end(i) + 1
            continue
        lo = t.starts[max(0, i - SPAN, scanned)]
        hi = t.end(min(last, i + SPAN))
        if hi - lo > LONG:  # long lines around: windows around the literal, a few on each line
            tries = tries + 1 if i == long_line else 1
            long_line = i
            lo, hi = window(lo, hi, k, len(needle))
            pos = max(hi, k + 1) if tries < LONG_TRIES and hi < t.end(i) else t.end(i) + 1
        else:
            scanned = i + 1
            pos = t.end(i) + 1
            windows += 1
            dense = windows >= DENSE and t.longest <= LONG
            if dense:
                hi = len(text)
        for m in rx.finditer(text, lo, hi):
            if text.count("\n", m.start(), m.end()) <= SPAN:
                found.setdefault(t.line_at(m.start()), m)
        if dense:
            break
    return found


def clip(line: str) -> str:
    line = " ".join(part.strip() for part in line.split("\n") if part.strip())
    return line if len(line) <= MAX_LINE else line[:MAX_LINE] + "…"


#: One-character literals that most lines of a log hold: any other required literal is looked for instead.
_SEPARATORS = frozenset("/.-_ ,=")


def any_literals(pattern: str, flags: int = 0) -> tuple[str, ...] | None:
    """Literals of which every match of ``pattern`` contains at least one (a single literal when one is required
    whatever the branch), or None when the pattern has no such set (a case-blind part, a branch without one).

    :func:`required_literal` reads only a plain run outside groups; this reads the parsed pattern, so a top-level
    alternation (``/envs/x/bin/nvcc\\b|\\bcuda-nvcc\\b``: "/bin/nvcc" or "cuda-nvcc"), a group, a repeat taken at
    least once and a lookahead give their literals too; a negative lookahead gives none. Of the sets
    :func:`literal_clauses` finds, the most telling one.
    """
    clauses = literal_clauses(pattern, flags)
    if not clauses:
        return None
    # the longest single literal; else the fewest literals; a separator most lines hold only when nothing else
    found = [c for c in clauses if c[0] not in _SEPARATORS] or clauses
    singles = [c for c in found if len(c) == 1]
    if singles:
        return max(singles, key=lambda c: len(c[0]))
    return min(found, key=len)


#: How many sets of literals a top-level alternation may multiply into before each branch keeps only its best.
_MAX_CLAUSES = 16


def literal_clauses(pattern: str, flags: int = 0, fold: bool = False) -> list[tuple[str, ...]] | None:
    """Sets of literals such that every match of ``pattern`` holds at least one literal of each set (all of them
    are needed: a text lacking every literal of one set cannot match), or None when nothing is known (a case-blind
    part without ``fold``, a pattern that does not parse). :func:`any_literals` explains what counts. With ``fold``,
    case-blind parts count too and every literal is given lower-cased: one of each set is in the lower-cased form of
    any ASCII text the pattern matches (:meth:`LogText.has_folded`)."""
    import importlib

    try:
        sre_c, sre_parse = importlib.import_module("re._constants"), importlib.import_module("re._parser")
    except ImportError:  # Python 3.9, 3.10
        sre_c, sre_parse = importlib.import_module("sre_constants"), importlib.import_module("sre_parse")
    try:
        parsed = sre_parse.parse(pattern, flags)
    except re.error:
        return None
    if parsed.state.flags & re.IGNORECASE and not fold:
        return None

    def tidy(clause: tuple[str, ...]) -> tuple[str, ...]:
        """Without repeats, and without a literal holding another of the set (a match with it holds the other)."""
        clause = tuple(dict.fromkeys(clause))
        return tuple(x for x in clause if not any(y != x and y in x for y in clause))

    def either(branches: list[list[tuple[str, ...]]]) -> list[tuple[str, ...]]:
        """The sets that hold whichever branch matched: one literal from each branch's sets, every combination."""
        if not all(branches):
            return []
        out: list[tuple[str, ...]] = [()]
        for sets in branches:
            out = [tidy(a + b) for a in out for b in sets]
            if len(out) > _MAX_CLAUSES:
                return either([[any_of(sets)] for sets in branches])
        return list(dict.fromkeys(out))

    def any_of(sets: list[tuple[str, ...]]) -> tuple[str, ...]:
        singles = [c for c in sets if len(c) == 1]
        return max(singles, key=lambda c: len(c[0])) if singles else min(sets, key=len)

    def req(items) -> list[tuple[str, ...]]:
        found: list[tuple[str, ...]] = []
        run: list[str] = []

        def flush() -> None:
            if run:
                found.append(("".join(run),))
                run.clear()

        for op, av in items:
            if op is sre_c.LITERAL:
                run.append(chr(av))
                continue
            flush()
            if op is sre_c.SUBPATTERN:
                add_flags = av[1] if len(av) == 4 else 0
                found += [] if add_flags & re.IGNORECASE and not fold else req(av[-1])
            elif op is sre_c.BRANCH:
                found += either([req(b) for b in av[1]])
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) and av[0] >= 1:
                found += req(av[2])
            elif op is sre_c.ASSERT and av[0] == 1:  # a lookahead: what it sees is in the text too
                found += req(av[1])
        flush()
        return [c for c in found if c and all(c)]

    got = req(parsed)
    if fold:
        got = [tidy(tuple(x.lower() for x in c)) for c in got]
    return list(dict.fromkeys(got)) or None


def wrap_form(pattern: str, needle: str | None) -> tuple[str, str | None, tuple[str, ...], tuple[str, ...]] | None:
    """``pattern`` widened over wrapped lines (:func:`wrapping`), that form's own literal, and the words of the
    pattern's literal ``needle`` (the inner ones, longest first, which a text holding the literal wrapped has as whole
    words; and its first and last, which lie inside words); None when the pattern has no space between two words.

    Worked out once per pattern: kb.py stores it with the knowledge base (a short ``explain`` would otherwise widen a
    few hundred patterns), the matcher when it meets a pattern the store did not have."""
    w = wrapping(pattern)
    parts = needle.split() if needle else []
    if w is None:
        return None
    if len(parts) < 2:
        return w, required_literal(w), (), ()
    assert needle is not None
    inner = parts[0 if needle[0].isspace() else 1:len(parts) if needle[-1].isspace() else -1]
    return w, required_literal(w), tuple(sorted(inner, key=len, reverse=True)), (parts[0], parts[-1])


def inner_word(needle: str) -> str:
    """The longest of the inner words of a pattern's literal ``needle`` (the word :func:`wrap_form` puts first in its
    third item), or "" when the literal has fewer than two words."""
    parts = needle.split()
    inner = parts[0 if needle[0].isspace() else 1:len(parts) if needle[-1].isspace() else -1] \
        if len(parts) >= 2 else []
    return max(inner, key=len) if inner else ""
