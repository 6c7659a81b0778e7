"""ld's and gcc's messages in the user's language, from every release's catalogue (round 25, p25-tr).

translations.json held the translations of binutils 2.40's and gcc 12's catalogues (and every glibc's): a German ld
(2.40 ships no German ld catalogue; older releases and 2.46 do) or a French ld of 2006..2014 ("ne peut trouver" before
"ne peut pas trouver", "référence indéfinie vers « %T »") printed words the table did not hold, and the log was read as
if it had no linker message. tests/make_translations.py now reads every version of a domain's po files (--history,
--po); explain/translated.py reads an argument a translation ends with to the line's end.
"""

from __future__ import annotations

import json
import os

import pytest

from cudaenv.knowledge.explain import explain, translated
from cudaenv.knowledge.explain.text import MAX_LINE, LogText
from explain_answers import hostile_line

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(REPO, "cudaenv", "knowledge", "translations.json")


def _first(log: str) -> str | None:
    found = [m for m in explain(log) if m.environment]
    return found[0].id if found else None


def test_a_german_ld_s_cannot_find_lcuda_is_the_missing_libcuda():
    # fresh24 x10 (https://github.com/pjreddie/darknet/issues/1234): only libcuda.so.1 existed; the symlink
    # libcuda.so -> libcuda.so.1 fixed the link. binutils 2.40 has no German ld catalogue: the words are 2.2x's.
    log = ("/usr/bin/x86_64-linux-gnu-ld: -lcuda kann nicht gefunden werden(cannot be found)\n"
           "collect2: error: ld returned 1 exit status\n"
           "Makefile:83: recipe for target 'libdarknet.so' failed\n"
           "make: *** [libdarknet.so] Error 1\n")
    assert _first(log) == "link.lcuda_not_found"
    assert LogText(log).lines[0] == "/usr/bin/x86_64-linux-gnu-ld: cannot find -lcuda(cannot be found)"


@pytest.mark.parametrize("prefix", ["/usr/bin/ld: ", "ld: ", "/usr/bin/x86_64-linux-gnu-ld.bfd: ",
                                    "/opt/conda/bin/../lib/gcc/x86_64-conda-linux-gnu/12.3.0/../../../../"
                                    "x86_64-conda-linux-gnu/bin/ld: "])
def test_every_program_name_before_the_german_message_is_kept(prefix):
    assert LogText(prefix + "-lcudart kann nicht gefunden werden").lines == [prefix + "cannot find -lcudart"]
    log = prefix + "-lcudart kann nicht gefunden werden\ncollect2: error: ld returned 1 exit status\n"
    english = prefix + "cannot find -lcudart\ncollect2: error: ld returned 1 exit status\n"
    assert _first(log) == _first(english) is not None


# Real lines pasted from public threads, each in a release's words the 2.40 catalogues do not hold; each reads as
# its English twin.
REAL = [
    # Urho3D forum, "cannot find -lGL compiling Urho3d" (vivienneanthony, 2014-05-09), quoting
    # https://code.google.com/p/urho3d/issues/detail?id=117: Ubuntu 12.04 (binutils 2.22), French
    ("/usr/bin/ld: ne peut trouver -lGL", "/usr/bin/ld: cannot find -lGL"),
    # Ubuntu Forums, Programming Talk, "libgrass_datetime" build of grass-6.2.0 (Lievre, 2006-12-07): Ubuntu 6.06
    # (binutils 2.16), French
    ("/usr/bin/ld: ne peut trouver -lgrass_datetime", "/usr/bin/ld: cannot find -lgrass_datetime"),
    # Ubuntu Forums, Programming Talk, "Compilation issue with gsl" (amd3, 2015-12-06): French, ld's older
    # "référence indéfinie vers « %T »" (2.40's French says otherwise)
    ("stab_bis.c:(.text+0xcb3): référence indéfinie vers « gsl_eigen_non_symmv_free »",
     "stab_bis.c:(.text+0xcb3): undefined reference to `gsl_eigen_non_symmv_free'"),
    # the Urho3D post above: collect2 of a gcc 4.x in French (gcc 12 says "ld a retourné le statut de sortie %d")
    ("collect2: erreur: ld a retourné 1 code d'état d'exécution", "collect2: error: ld returned 1 exit status"),
    # the grass-6.2.0 post above: gcc 4.0's collect2, without the "error: "
    ("collect2: ld a retourné 1 code d'état d'exécution", "collect2: ld returned 1 exit status"),
]


@pytest.mark.parametrize("pasted,english", REAL)
def test_a_real_line_in_an_older_release_s_words_is_read(pasted, english):
    assert LogText(pasted).lines == [english]


def test_the_cuda_link_in_french_words_of_2014_gets_the_english_answer():
    pasted = "/usr/bin/ld: ne peut trouver -lcudart\ncollect2: erreur: ld a retourné 1 code d'état d'exécution\n"
    assert _first(pasted) == _first("/usr/bin/ld: cannot find -lcudart\ncollect2: error: ld returned 1 exit status\n")


def test_a_chinese_undefined_reference_ending_with_the_symbol_keeps_all_of_it():
    # zh_TW's older "%X%C: 未定義參考到 %T" ends with the symbol where the English quotes it: the whole symbol is read
    assert LogText("main.c:(.text+0x1a)：未定義參考到 cudaMalloc").lines == [
        "main.c:(.text+0x1a): undefined reference to `cudaMalloc'"]
    assert LogText("main.o: 跟着更多未定义的参考到 cudaFree").lines == [
        "main.o: more undefined references to `cudaFree' follow"]


def _rows() -> list[dict]:
    with open(TABLE, encoding="utf-8") as f:
        return json.load(f)["messages"]


def _filled(message: str) -> str:
    """``message`` with each argument a token naming which English argument it is ([a0], [a1]; 70, 71 for numbers):
    the same tokens in a translation and in its msgid, wherever the translation puts them."""
    text, out, pos, i = message.translate(translated._TYPED).rstrip("\n"), "", 0, 0
    for m in translated._DIRECTIVE.finditer(text):
        out += text[pos:m.start()]
        pos = m.end()
        kind = m.group(2)
        if kind == "%":
            out += "%"
        elif kind not in translated._SILENT:
            j = int(m.group(1)) - 1 if m.group(1) else i
            i += 1
            out += f"7{j}" if kind in "diu" else f"[a{j}]"
    return out + text[pos:]


def _every_translation() -> list[tuple[str, str, str, str]]:
    return [(row["domain"], row["msgid"], lang, msgstr) for row in _rows()
            for lang, every in row["translations"].items() for msgstr in every
            if translated._compiled(row["msgid"], msgstr) is not None]


def test_the_table_holds_more_than_one_release_of_ld_and_gcc():
    """Older releases' words (French "ne peut trouver", 2.40's "ne peut pas trouver") and a language 2.40 has none
    of (German)."""
    rows = {r["msgid"]: r["translations"] for r in _rows() if r["domain"] == "ld"}
    fr = rows["%P: cannot find %s\n"]["fr"]
    assert any("ne peut trouver" in s for s in fr) and any("ne peut pas trouver" in s for s in fr)
    assert rows["%P: cannot find %s: %E\n"]["de"]
    collect2 = next(r for r in _rows() if r["msgid"] == "ld returned %d exit status")["translations"]["fr"]
    assert len(collect2) >= 2


def test_every_translation_the_table_holds_reads_back_as_its_msgid():
    """Each translation, its arguments filled in, is read as its English msgid with the same arguments in the same
    places (gettext's reordering too), for every release's words the table holds. glibc's older French ends its
    words with a period and a Chinese one adds the English in brackets: those stay after the English."""
    checked = 0
    for domain, msgid, lang, msgstr in _every_translation():
        line = _filled(msgstr)
        got = " ".join(translated.in_c_locale([line], line, MAX_LINE).get(0, line).split())
        want = " ".join(_filled(msgid).split())
        assert got == want or (domain == "libc" and got.startswith(want)), (domain, lang, msgstr, got)
        checked += 1
    assert checked > 700


@pytest.mark.parametrize("literal", ["：未定義參考到 ", "未定義參考到 x", ": ne peut trouver ", " kann nicht gefunden werden",
                                     "référence indéfinie vers « ", "référence indéfinie vers « x »"])
def test_hostile_lines_of_the_new_words_are_read(literal):
    explain(hostile_line(literal) + "\n")
    explain("\n".join([literal * (MAX_LINE // len(literal))] * 50) + "\n")
