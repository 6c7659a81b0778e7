"""The toolchain's messages in the user's language, read as the C locale prints them.

ld, gcc, glibc (the dynamic loader, strerror, the signals), bash and make print their messages through gettext: a user
whose locale is zh_CN, de_DE or ru_RU pastes "/usr/bin/ld: 找不到 -lcudart", "Fehler: Datei oder Verzeichnis nicht
gefunden", "невозможно найти -lcuda". The cause is the same as in English, and so is every entry that reads it; what
differs is the words, and those come from the programs' own catalogues. ``translations.json`` (made from them by
tests/make_translations.py) holds each message's English msgid and its translations; :func:`in_c_locale` finds a
translated message in a line and puts the English words back around the same arguments (the library, the path, the
symbol), so every pattern, fact and generic reading reads it as it reads an English log. The line as pasted is kept for
quoting (:meth:`LogText.shown <.text.LogText.shown>`).
"""

from __future__ import annotations

import os

from . import lazyre as re  # re, its module-level patterns compiled when first used

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

__all__ = ["in_c_locale"]

#: A format directive of printf, gettext's positional form, ld's einfo (%P %F %X %B %C %D %T %E %V %S, %pB %pT %pA)
#: and gcc's diagnostics (%qs): what a message's arguments are put in place of.
_DIRECTIVE = re.compile(r"%(?:(\d+)\$)?[-#0 +']*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?(p[A-Za-z]|q[sdD]|[sdiuxXcPFXBCDTVES%])")
#: ld's directives that print nothing (they mark the message fatal or an error).
_SILENT = frozenset("FX")
#: Characters a page or a terminal puts in for others (as text.as_typed): the catalogues' no-break spaces.
_TYPED = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
#: Full-width punctuation of a CJK message (gcc's "致命错误：x.h：没有那个文件或目录"): ASCII after the words are English.
_WIDE = re.compile(r"：|，|（|）")
_NARROW = {"：": ": ", "，": ", ", "（": " (", "）": ")"}
#: A terminal font, a forum or an older catalogue gives the ASCII forms ("已放弃 (核心已转储)"): either is read.
_EITHER = {"：": "(?:：|: ?)", "，": "(?:，|, ?)", "（": r"(?:（| ?\()", "）": r"(?:）|\))"}

#: A translation whose longest literal is shorter than this many bytes (UTF-8: a CJK character is three) is not read:
#: it could be anything.
_SHORTEST = 5

#: The longest argument read between two literals of a message (a path, a library, a target; a C++ symbol longer than
#: this leaves the message as it was).
_ARG = 512
#: At most this many (message, line) pairs are read in one log: a log of translated messages has a handful; a hostile
#: one that holds every message's words on every line costs no more than this many bounded substitutions.
_MOST_TRIES = 300

_rows: list[tuple[str, str, str]] | None = None


def _parts(message: str) -> tuple[list[str], list[tuple[int | None, str]]]:
    """``message`` as its literal chunks and the output directives between them (position or None, kind)."""
    chunks, directives, pos = [], [], 0
    text = message.translate(_TYPED).rstrip("\n")
    buf = ""
    for m in _DIRECTIVE.finditer(text):
        buf += text[pos:m.start()]
        pos = m.end()
        kind = m.group(2)
        if kind == "%":
            buf += "%"
        elif kind not in _SILENT:
            chunks.append(buf)
            buf = ""
            directives.append((int(m.group(1)) if m.group(1) else None, kind))
    chunks.append(buf + text[pos:])
    return chunks, directives


def _key(chunks: list[str]) -> str:
    """The longest literal of a message's chunks (:func:`_parts`), split at its full-width punctuation: what a log that
    holds the message holds as it is."""
    return max((piece for chunk in chunks for piece in _WIDE.split(chunk)), key=len)


def _compile(msgid: str, msgstr: str) -> tuple[str, re.Pattern, str] | None:
    """The row for one translation: its longest literal (looked for first), the regex of the translated message, and
    the English it is read as (a template: ``\\g<N>`` for each argument); None when the two do not agree (a
    translation that drops or adds an argument, or one too short to be told from other text).

    An argument at either end of the message (ld's program name before "cannot find", the library after it) stays
    where it is, outside the match; those between two literals are at most _ARG long: the regex's work on a line is
    then bounded by the line's length times _ARG, whatever the line holds.
    """
    en, en_args = _parts(msgid)
    tr, tr_args = _parts(msgstr)
    key = _key(tr)
    n = len(tr_args)
    if len(en_args) != n or len(key.strip().encode()) < _SHORTEST:
        return None
    # which English argument each translated one is (gettext's %2$s reorders them)
    order = [(p - 1) if p else i for i, (p, _) in enumerate(tr_args)]
    if sorted(order) != list(range(n)):
        return None
    lead = n > 0 and tr[0] == "" and en[0] == "" and order[0] == 0
    trail = n > 0 and tr[n] == "" and en[n] == "" and order[n - 1] == n - 1 and not (lead and n == 1)
    captured = [i for i in range(n) if not (lead and i == 0) and not (trail and i == n - 1)]
    rx = []
    for i, chunk in enumerate(tr):
        if not (lead and i == 0):
            # a log's lines lose their trailing blanks ("%P: 当搜索用于 %s 时跳过不兼容的 %s \n")
            lit = re.escape(chunk) if i < n or chunk == chunk.rstrip() else re.escape(chunk.rstrip()) + "[ \t]*"
            rx.append(_WIDE.sub(lambda m: _EITHER[m.group(0)], lit))
        if i in captured:
            rx.append(r"(-?\d{1,12})" if tr_args[i][1] in "diu" else f"(.{{1,{_ARG}}}?)")
            if i == n - 1 and not tr[n].strip():
                # the translation ends with it where the English does not ("%C: 未定義參考到 %T" for "%C: undefined
                # reference to `%T'"): it runs to the line's end, not one character
                rx.append(r"(?=[ \t]{0,16}$)")
    # a message that starts or ends with a word is that whole word: "Abandon" (fr, Aborted) is not "Abandoned"
    if rx and tr[1 if lead else 0][:1].isalnum():
        rx.insert(0, r"(?<!\w)")
    if tr[n][-1:].isalnum():
        rx.append(r"(?!\w)")
    out = []
    for j in range(1 if lead else 0, n + 1):
        out.append(en[j].replace("\\", "\\\\"))
        if j < n and not (trail and j == n - 1):
            out.append(f"\\g<{captured.index(order.index(j)) + 1}>")
    return key, re.compile("".join(rx)), "".join(out)


def _load() -> list[tuple[str, str, str]]:
    """Each translation as (its longest literal, the msgid, the msgstr), the longest messages first ("cannot find %s:
    %E" before "cannot find %s", a message before the strerror words inside it). Compiled only when its literal is in a
    log (:func:`_compiled`): a log in English compiles nothing."""
    global _rows
    if _rows is None:
        from ...infra.kept import file_key, worked_out

        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "translations.json")

        def rows() -> list:
            import json

            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            out = []
            for item in doc["messages"]:
                for every in item["translations"].values():
                    for msgstr in every:
                        key = _key(_parts(msgstr)[0])
                        if len(key.strip().encode()) >= _SHORTEST:
                            out.append((key, item["msgid"], msgstr))
            out.sort(key=lambda r: -len(r[1]))
            return out

        # kept in the user's cache directory, keyed by the table and this file (whose rules make the keys): working
        # out a literal of each of the translations was a quarter of a short `explain`
        _rows = [tuple(r) for r in worked_out("translations", file_key(path, __file__), list, rows)]
    return _rows


_compiled_rows: dict[tuple[str, str], tuple[str, re.Pattern, str] | None] = {}


def _compiled(msgid: str, msgstr: str) -> tuple[str, re.Pattern, str] | None:
    """:func:`_compile`'s row, compiled once per process."""
    if (msgid, msgstr) not in _compiled_rows:
        _compiled_rows[(msgid, msgstr)] = _compile(msgid, msgstr)
    return _compiled_rows[(msgid, msgstr)]


def in_c_locale(lines: list[str], text: str, longest: int, has: Callable[[str], bool] | None = None) -> dict[int, str]:
    """The lines of ``lines`` (``text``: the same joined by line ends) that hold a translated toolchain message, each
    as the C locale prints it, by index; {} for a log in English (the usual case). Lines longer than ``longest`` (a
    joined or hostile log) are left as they are.

    ``has`` answers whether a literal is in ``text`` (:meth:`LogText.has <.text.LogText.has>`: in a long log, from the
    set of its words rather than a search of a megabyte per literal); a log in ASCII is not searched for the
    translations written in other scripts at all."""
    from bisect import bisect_right

    contains = has if has is not None else text.__contains__
    ascii_only = text.isascii()
    out: dict[int, str] = {}
    starts: list[int] | None = None
    tries = 0
    for key, msgid, msgstr in _load():
        if (ascii_only and not key.isascii()) or not contains(key):
            continue
        row = _compiled(msgid, msgstr)
        if row is None:
            continue
        _, rx, english = row
        if starts is None:
            starts, pos = [], 0
            for line in lines:
                starts.append(pos)
                pos += len(line) + 1
        at = text.find(key)
        while at >= 0 and tries < _MOST_TRIES:
            i = bisect_right(starts, at) - 1
            line = out.get(i, lines[i])
            if len(line) <= longest:
                tries += 1
                new = rx.sub(english, line)
                if new != line:
                    out[i] = new
            at = text.find(key, starts[i] + len(lines[i]) + 1)
    for i, line in out.items():
        if not line.isascii():
            out[i] = _WIDE.sub(lambda m: _NARROW[m.group(0)], line)
    return out
