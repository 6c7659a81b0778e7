"""Write cudaenv/knowledge/translations.json from the toolchain's own gettext catalogues.

A user whose locale is not English gets ld's, gcc's, glibc's, bash's and make's messages in their language
("/usr/bin/ld: 找不到 -lcudart", "Fehler: cuda_runtime.h: Datei oder Verzeichnis nicht gefunden"). explain reads
them as the C locale would have printed them (explain/translated.py), from this table: each message's English
msgid, as the program's source has it, and every translation of it in each language.

Two sources: the compiled catalogues (.mo) of Debian 12's packages (binutils 2.40, glibc 2.36, bash 5.2, make 4.3,
gcc 12.2 from gcc-12-locales), and the catalogues of every other release: a translation changes between releases
("No existe el fichero o el directorio" since 2002, "No existe el archivo o el directorio" before), a language's
catalogue comes and goes (binutils 2.40 has no German ld; 2.2x and 2.46 have), and a log is printed by whatever
release the user had (Ubuntu 16.04's binutils 2.26 to 2.44; gcc 5 to 15). Those are read from a git history (every
version of ``<dir>/<language>.po``: --glibc for glibc's po/, --history for any domain, e.g. binutils' ld/po/) or from
.po files however got (a release tarball's ld/po/de.po, ``git show binutils-2_26:ld/po/de.po``: --po). An older
release's msgid is the same message in older directives (``%P%F: cannot find %s``, ``%B`` for ``%pB``): it is read
as today's (:func:`canonical`).

    apt-get download gcc-12-locales && dpkg-deb -x gcc-12-locales_*.deb gcc-locales
    git clone https://sourceware.org/git/glibc.git     # or any mirror of it
    git clone https://sourceware.org/git/binutils-gdb.git
    python3 tests/make_translations.py --gcc-locales gcc-locales/usr/share/locale --glibc glibc \
        --history ld=binutils-gdb:ld/po --history gcc-12=gcc:gcc/po --po ld=tarballs/ld-po \
        > cudaenv/knowledge/translations.json

Where a source is not at hand, --add-to keeps an earlier table's translations and adds the new ones to them.

tests/test_explain_translations.py checks that the table holds every translation of this machine's catalogues.
"""

from __future__ import annotations

import argparse
import gettext
import json
import os
import re
import subprocess
import sys

#: The messages read, per catalogue (the gettext domain): those explain's entries and generic reading key on.
MESSAGES = {
    "ld": ["%P: cannot find %s\n", "%P: cannot find %s: %E\n", "%P: cannot find %s (%s): %E\n",
           "%P: skipping incompatible %s when searching for %s\n",
           "%P: warning: %s, needed by %pB, may conflict with %s\n",
           "%P: warning: %s, needed by %pB, not found (try using -rpath or -rpath-link)\n",
           "%X%C: undefined reference to `%T'\n", "%X%B: undefined reference to `%T'\n",
           "%X%P: %C: undefined reference to `%pT'\n", "%X%P: %pB: undefined reference to `%pT'\n",
           "%X%D: more undefined references to `%T' follow\n", "%F%P: final link failed: %E\n"],
    "libc": ["error while loading shared libraries", "cannot open shared object file", "No such file or directory",
             "Permission denied", "No space left on device", "Cannot allocate memory", "Operation not permitted",
             "Input/output error", "No such device", "No such device or address", "Device or resource busy",
             "Resource temporarily unavailable", "Segmentation fault", "Killed", "Illegal instruction", "Aborted",
             "Bus error", "file too short", "invalid ELF header", "wrong ELF class: ELFCLASS32",
             "wrong ELF class: ELFCLASS64", "symbol lookup error", "cannot read file data"],
    "bash": ["%s: command not found", " (core dumped)"],
    "make": ["%s[%s: %s] Error %d%s", "%sNo rule to make target '%s'%s", "%sNo rule to make target '%s', needed by '%s'%s"],
    "gcc-12": ["fatal error: ", "error: ", "warning: ", "note: ", "internal compiler error: ", "compilation terminated.\n",
               "ld returned %d exit status", "In function %qs"],
}
#: The languages read: those of the users who paste CUDA logs most often after English.
LANGUAGES = ["zh_CN", "zh_TW", "ja", "ko", "ru", "uk", "de", "fr", "es", "pt_BR", "it", "tr", "pl", "vi", "id"]
SOURCES = {"ld": "binutils 2.40 (Debian 12 binutils-common), ld.mo; every version of ld/po/<language>.po in a binutils "
                 "tree's history (catalogues of ld 2.16.93 to 2.22.90); ld 2.45.90's ld/po/de.po",
           "libc": "glibc 2.36 (Debian 12 libc-l10n), libc.mo, and every version of glibc's po/<language>.po since 1996",
           "bash": "bash 5.2 (Debian 12 bash), bash.mo",
           "make": "make 4.3 (Debian 12 make), make.mo",
           "gcc-12": "gcc 12.2 (Debian 12 gcc-12-locales), gcc-12.mo; every version of gcc/po/<language>.po in a gcc "
                     "3.4/4.x tree's history (cegcc)"}


def catalogue(base: str, lang: str, domain: str) -> dict[str, str]:
    """The msgid -> msgstr mapping of ``domain`` in ``lang`` under the locale directory ``base`` ({} when absent)."""
    path = os.path.join(base, lang, "LC_MESSAGES", f"{domain}.mo")
    if not os.path.exists(path):
        return {}
    with open(path, "rb") as f:
        return {k: v for k, v in gettext.GNUTranslations(f)._catalog.items() if isinstance(k, str)}  # type: ignore[attr-defined]


def _unquote(s: str) -> str:
    return json.loads(s) if s.startswith('"') else ""


def po_entries(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po file's text (fuzzy and untranslated entries left out; plural forms not read)."""
    out: dict[str, str] = {}
    msgid = msgstr = None
    fuzzy = False
    field = None
    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if not line or line.startswith("#"):
            if msgid is not None and msgstr and not fuzzy:
                out[msgid] = msgstr
            if not line or line.startswith("#,"):
                msgid = msgstr = None
                field = None
            fuzzy = fuzzy if line.startswith("#") and not line.startswith("#,") else ("fuzzy" in line)
            continue
        try:
            if line.startswith("msgid "):
                msgid, field = _unquote(line[6:]), "id"
            elif line.startswith("msgstr "):
                msgstr, field = _unquote(line[7:]), "str"
            elif line.startswith('"') and field == "id" and msgid is not None:
                msgid += _unquote(line)
            elif line.startswith('"') and field == "str" and msgstr is not None:
                msgstr += _unquote(line)
            else:
                field = None
        except ValueError:  # an old file's escape JSON does not read: skip the entry
            msgid = msgstr = None
            field = None
    return out


#: An older release's spelling of ld's directives: %F and %X print nothing (and moved: "%P%F:", "%F%P:"), %B %T %A
#: became %pB %pT %pA in binutils 2.31.
_OLD_DIRECTIVE = re.compile(r"%[FX]")
_POINTER = re.compile(r"%([BTA])")


def canonical(msgid: str) -> str:
    """``msgid`` as the same message in any release spells it: "%P%F: cannot find %s\n" and "%P: cannot find %s\n"
    are one message."""
    return _POINTER.sub(r"%p\1", _OLD_DIRECTIVE.sub("", msgid))


def _decoded(data: bytes) -> str | None:
    m = re.search(rb"charset=([\w.-]+)", data)
    try:
        return data.decode(m.group(1).decode() if m else "utf-8")
    except (LookupError, UnicodeDecodeError):
        return None  # a version in an encoding it does not declare: its text cannot be trusted


def _collect(found: dict[str, list[str]], text: str, lang: str, wanted: set[str]) -> None:
    """Add the translations of the msgids ``wanted`` in one .po file's ``text`` to ``found`` (by today's msgid)."""
    today = {canonical(m): m for m in wanted}
    for msgid, msgstr in po_entries(text).items():
        m = today.get(canonical(msgid))
        if m and msgstr != msgid and _in_script(lang, msgstr) and msgstr not in found.setdefault(m, []):
            found[m].append(msgstr)


def history(repo: str, lang: str, wanted: set[str], podir: str = "po") -> dict[str, list[str]]:
    """Every msgstr of the msgids ``wanted`` in each version of ``<podir>/<lang>.po`` in the git repository
    ``repo`` (every release's, and those between)."""
    path = f"{podir.rstrip('/')}/{lang}.po"
    revs = subprocess.run(["git", "-C", repo, "log", "--format=%H", "--all", "--", path], capture_output=True,
                          text=True, check=True).stdout.split()
    found: dict[str, list[str]] = {}
    for rev in revs:
        res = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True)
        text = None if res.returncode else _decoded(res.stdout)
        if text is not None:
            _collect(found, text, lang, wanted)
    return found


def po_files(base: str, lang: str, wanted: set[str]) -> dict[str, list[str]]:
    """Every msgstr of the msgids ``wanted`` in the .po files of ``lang`` under ``base`` (``<lang>.po`` at any depth,
    e.g. one directory per release: ``2.26/de.po``)."""
    found: dict[str, list[str]] = {}
    for root, _dirs, files in sorted(os.walk(base)):
        for name in sorted(files):
            if name == f"{lang}.po":
                with open(os.path.join(root, name), "rb") as f:
                    text = _decoded(f.read())
                if text is not None:
                    _collect(found, text, lang, wanted)
    return found


def _merge(into: dict[str, list[str]], more: dict[str, list[str]]) -> None:
    for msgid, every in more.items():
        for s in every:
            if s not in into.setdefault(msgid, []):
                into[msgid].append(s)


#: The script each language is written in, by code points (Latin: Basic Latin to Latin Extended-B and Vietnamese's
#: Latin Extended Additional).
_SCRIPTS = {"zh_CN": (0x4E00, 0x9FFF), "zh_TW": (0x4E00, 0x9FFF), "ja": (0x3040, 0x9FFF), "ko": (0xAC00, 0xD7AF),
            "ru": (0x0400, 0x04FF), "uk": (0x0400, 0x04FF)}


def _in_script(lang: str, text: str) -> bool:
    """Whether ``text`` is written in ``lang``'s script (an old file's text misfiled under another language is not)."""
    if "\ufffd" in text:
        return False
    if lang in _SCRIPTS:
        lo, hi = _SCRIPTS[lang]
        return any(lo <= ord(c) <= hi for c in text)
    return all(ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF or c in "\u00a0\u2019\u00ab\u00bb" for c in text)


def _with_strerror_dropped(msgids: list[str], tr: dict[str, dict[str, list[str]]]) -> None:
    """ld's "cannot find %s" gained its strerror (": %E") in 2.3x: a release that printed the plain message has the
    words of the one with ": %E" without them ("%P: %s kann nicht gefunden werden: %E" is binutils 2.46's German;
    2.2x's, which 2.40 dropped, printed "/usr/bin/ld: -lcuda kann nicht gefunden werden"). Where a language has the
    longer message only, its translations with their trailing ": %E" dropped are the plain message's."""
    for plain in msgids:
        longer = plain.rstrip("\n") + ": %E\n"
        if longer == plain or longer not in msgids:
            continue
        for lang, every in tr[longer].items():
            for s in every:
                body = s.rstrip("\n")
                if body.endswith(": %E") and body[:-4].strip():
                    short = body[:-4] + "\n"
                    if short not in tr[plain].setdefault(lang, []):
                        tr[plain][lang].append(short)


def table(base: str, gcc_base: str, glibc: str | None, histories: list[tuple[str, str, str]] = [],
          pos: list[tuple[str, str]] = [], earlier: list[dict] = []) -> list[dict]:
    """The rows: each message's translations in each language, this machine's catalogue's first, then every older
    release's (``histories``: domain, git repository, po directory; ``pos``: domain, directory of .po files) and an
    ``earlier`` table's."""
    rows = []
    kept = {(r["domain"], r["msgid"]): r["translations"] for r in earlier}
    for domain, msgids in MESSAGES.items():
        where = gcc_base if domain.startswith("gcc") else base
        cats = {lang: catalogue(where, lang, domain) for lang in LANGUAGES}
        old: dict[str, dict[str, list[str]]] = {lang: {} for lang in LANGUAGES}
        for lang in LANGUAGES:
            if glibc and domain == "libc":
                _merge(old[lang], history(glibc, lang, set(msgids)))
            for d, repo, podir in histories:
                if d == domain:
                    _merge(old[lang], history(repo, lang, set(msgids), podir))
            for d, where_po in pos:
                if d == domain:
                    _merge(old[lang], po_files(where_po, lang, set(msgids)))
        tr: dict[str, dict[str, list[str]]] = {}
        for msgid in msgids:
            if not any(msgid in c for c in cats.values()):
                raise SystemExit(f"{domain}: no catalogue has {msgid!r}")
            tr[msgid] = {}
            for lang in LANGUAGES:
                now = cats[lang].get(msgid)
                every = ([now] if now and now != msgid else []) + old[lang].get(msgid, [])
                every += kept.get((domain, msgid), {}).get(lang, [])
                every = [s for i, s in enumerate(every) if s not in every[:i]]
                if every:
                    tr[msgid][lang] = every
        if domain == "ld":
            _with_strerror_dropped(msgids, tr)
        rows += [{"domain": domain, "msgid": m, "translations": tr[m]} for m in msgids]
    return rows


def _pair(arg: str) -> tuple[str, str]:
    domain, sep, rest = arg.partition("=")
    if not sep or domain not in MESSAGES:
        raise argparse.ArgumentTypeError(f"{arg!r}: DOMAIN=... with DOMAIN one of {', '.join(MESSAGES)}")
    return domain, rest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locales", default="/usr/share/locale")
    ap.add_argument("--gcc-locales", required=True, help="the share/locale directory of gcc-12-locales, unpacked")
    ap.add_argument("--glibc", help="a git clone of glibc (its po/ history)")
    ap.add_argument("--history", action="append", default=[], type=_pair, metavar="DOMAIN=REPO:PODIR",
                    help="every version of PODIR/<language>.po in the git repository REPO, as DOMAIN's "
                         "(ld=binutils-gdb:ld/po, gcc-12=gcc:gcc/po); repeatable")
    ap.add_argument("--po", action="append", default=[], type=_pair, metavar="DOMAIN=DIR",
                    help="the .po files <language>.po at any depth under DIR (one directory per release), as "
                         "DOMAIN's; repeatable")
    ap.add_argument("--add-to", metavar="TABLE", help="an earlier translations.json whose translations are kept")
    args = ap.parse_args(argv)
    histories = []
    for domain, rest in args.history:
        repo, _, podir = rest.rpartition(":")
        histories.append((domain, repo, podir))
    earlier = []
    if args.add_to:
        with open(args.add_to, encoding="utf-8") as f:
            earlier = json.load(f)["messages"]
    doc = {"about": "Toolchain messages in the user's language -> the English the C locale prints "
                    "(cudaenv/knowledge/explain/translated.py). Made by tests/make_translations.py from the programs' "
                    "own gettext catalogues; do not edit by hand. Format directives as the catalogues have them: ld's "
                    "%P (program) %F %X (no output) %B %C %pB (file) %T (symbol) %E (strerror); printf's %s %d; gcc's "
                    "%qs.",
           "sources": SOURCES,
           "messages": table(args.locales, args.gcc_locales, args.glibc, histories, args.po, earlier)}
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
