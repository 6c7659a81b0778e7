"""The toolchain's messages in the user's language (explain/translated.py, knowledge/translations.yaml).

The logs here are made by the real programs (gcc, GNU ld, bash, make) run with LANGUAGE set to each language the table
holds: what a user whose locale is zh_CN or ru_RU pastes. Each must get the answer its English twin gets, quoted as the
user pasted it.
"""

from __future__ import annotations

import gettext
import json
import os
import subprocess

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain import translated
from cudaenv.knowledge.explain.text import MAX_LINE, LogText

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(REPO, "cudaenv", "knowledge", "translations.json")
LANGS = ["zh_CN", "zh_TW", "ja", "ko", "ru", "uk", "de", "fr", "es", "pt_BR", "it", "tr", "pl", "vi", "id"]


def _table() -> list[dict]:
    with open(TABLE, encoding="utf-8") as f:
        return json.load(f)["messages"]


def test_the_table_holds_this_machine_s_catalogues():
    """The table holds, for every message and language, the translation this machine's catalogue has (Debian's
    binutils, glibc, bash, make and gcc-12-locales, which tests/run.sh installs): it is read from the programs, not
    written by hand. (glibc's older translations come from its own history: tests/make_translations.py.)"""
    checked = missing = 0
    for row in _table():
        for lang in LANGS:
            path = f"/usr/share/locale/{lang}/LC_MESSAGES/{row['domain']}.mo"
            if not os.path.exists(path):
                continue
            with open(path, "rb") as f:
                msgstr = gettext.GNUTranslations(f)._catalog.get(row["msgid"])  # type: ignore[attr-defined]
            if msgstr and msgstr != row["msgid"]:
                checked += 1
                missing += msgstr not in row["translations"].get(lang, [])
    assert checked > 400 and missing == 0


def test_an_older_glibc_s_words_are_read_too():
    """A log printed by an older glibc carries that release's words: Spanish "archivo" before 2002, "fichero" since
    (a real paste: "NvInfer.h:No existe el archivo o el directorio")."""
    es = next(r for r in _table() if r["msgid"] == "No such file or directory")["translations"]["es"]
    assert {"No existe el fichero o el directorio", "No existe el archivo o el directorio"} <= set(es)
    assert LogText("NvInfer.h:No existe el archivo o el directorio").lines == ["NvInfer.h:No such file or directory"]


def _env(lang: str | None, path: str) -> dict:
    env = {"PATH": path, "LC_ALL": "C.UTF-8", "HOME": os.environ.get("HOME", "/root")}
    if lang:
        env["LANGUAGE"] = lang
    return env


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """A directory with the sources of each failure: a missing CUDA header, a missing -lcudart, a 32-bit libcuda.so
    beside a 64-bit link, a make whose recipe fails at link time."""
    d = tmp_path_factory.mktemp("tr")
    (d / "hdr.c").write_text("#include <cuda_runtime.h>\nint main(void) { return 0; }\n")
    (d / "main.c").write_text("int main(void) { return 0; }\n")
    (d / "Makefile").write_text("all:\n\tgcc main.c -o main -lcudart\n")
    # a 32-bit libcuda.so (an i386 driver's), which ld skips when it links for x86-64
    lib32 = d / "lib32"
    lib32.mkdir()
    (lib32 / "f.s").write_text(".globl cuInit\ncuInit:\n ret\n")
    subprocess.run(["as", "--32", "-o", str(lib32 / "f.o"), str(lib32 / "f.s")], check=True)
    subprocess.run(["ld", "-m", "elf_i386", "-shared", "-o", str(lib32 / "libcuda.so"), str(lib32 / "f.o")], check=True)
    (d / "empty").mkdir()
    return d


def _out(argv: list[str], cwd, lang: str | None, path: str = "/usr/bin:/bin") -> str:
    res = subprocess.run(argv, cwd=cwd, env=_env(lang, path), capture_output=True, text=True)
    assert res.returncode != 0
    return res.stdout + res.stderr


CASES = {
    "header": (["gcc", "-c", "hdr.c"], "build.cuda_header_missing"),
    "lcudart": (["gcc", "main.c", "-lcudart"], "link.cuda_libs_not_found"),
    "skipped32": (["gcc", "main.c", "-Llib32", "-lcuda"], "link.lcuda_not_found"),
    "make": (["make"], "link.cuda_libs_not_found"),
    "nvcc": (["/bin/bash", "-c", "nvcc --version"], "shell.nvcc_not_found"),
}


def _first(log: str):
    found = [m for m in explain(log) if m.environment]
    return found[0] if found else None


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_english_twin_is_answered(builds, case):
    argv, expect = CASES[case]
    path = str(builds / "empty") if case == "nvcc" else "/usr/bin:/bin"
    log = _out(argv, builds, None, path)
    assert LogText(log).given == {}
    first = _first(log)
    assert first is not None and first.id == expect, log


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_translated_log_gets_the_english_answer_quoted_as_pasted(builds, case, lang):
    argv, expect = CASES[case]
    path = str(builds / "empty") if case == "nvcc" else "/usr/bin:/bin"
    english = _out(argv, builds, None, path)
    log = _out(argv, builds, lang, path)
    if "internal error: aborting at" in log:
        # binutils 2.40's Turkish "skipping incompatible" has a directive ld cannot print: ld dies before it says why,
        # and only collect2's summary (read back from gcc's Turkish) is left to answer
        expect = "link.message_missing"
    first = _first(log)
    assert first is not None and first.id == expect, log
    if log != english:  # the program speaks this language for this message
        t = LogText(log)
        assert t.given, log
        # the line is quoted as the user pasted it, not as explain read it
        assert not any(first.matched.startswith(english) for english in t.given), first.matched


def test_the_languages_are_really_spoken(builds):
    """The test above is not vacuous: in zh_CN every case's output differs from English and is read back."""
    for case, (argv, _) in CASES.items():
        path = str(builds / "empty") if case == "nvcc" else "/usr/bin:/bin"
        log = _out(argv, builds, "zh_CN", path)
        assert log != _out(argv, builds, None, path) and LogText(log).given, case


def test_english_words_that_look_like_translations_are_left_alone():
    text = ("Abandoned run 3\nMortons\nerror: Fehlerfrei build\nmake: *** [all] Error 2\n"
            "/usr/bin/ld: cannot find -lcudart: No such file or directory\n")
    assert LogText(text).given == {}


def test_the_user_s_prose_and_a_wide_colon_read_as_ascii():
    t = LogText("Fatal error： cuda_runtime.h：No such file or directory")
    assert t.lines == ["Fatal error: cuda_runtime.h: No such file or directory"]


def test_a_hostile_log_costs_a_bounded_number_of_substitutions():
    """Every message's words on every line, and a line longer than MAX_LINE: the long line is not read, and no more
    than _MOST_TRIES (message, line) pairs are (each bounded by the line's length times _ARG), whatever the log."""
    keys = " ".join(k for k, _, _ in translated._load())
    translated._compiled_rows.clear()
    long_line = ("找不到 " * (MAX_LINE // 4 + 10))
    lines = [long_line] + [keys] * 2000
    text = "\n".join(lines)
    calls: list[str] = []
    compile_row = translated._compile

    def counting(msgid, msgstr):
        row = compile_row(msgid, msgstr)
        return row and (row[0], _Counting(row[1], calls), row[2])

    translated._compile = counting
    try:
        out = translated.in_c_locale(lines, text, MAX_LINE)
    finally:
        translated._compile = compile_row
        translated._compiled_rows.clear()
    assert 0 not in out
    assert len(calls) <= translated._MOST_TRIES
    assert all(len(line) <= MAX_LINE for line in calls)


class _Counting:
    """A compiled regex that records the lines it is applied to."""

    def __init__(self, rx, calls):
        self.rx, self.calls = rx, calls

    def sub(self, repl, line):
        self.calls.append(line)
        return self.rx.sub(repl, line)


# Real pastes in other languages that no entry had been written from (found after the table was built, by searching
# public threads for the translated words): each went unanswered before the table.
REAL = [
    # jxgu1016/Gabor_CNN_PyTorch#16: gcc and glibc in Spanish ("error fatal", "No existe el fichero o el directorio")
    ("In file included from <línea-de-orden>:0:0:\n/usr/include/stdc-predef.h:40:1: error fatal: cuda_runtime.h: "
     "No existe el fichero o el directorio\n #endif\n ^\ncompilación terminada.\n"
     "error: command '/usr/bin/nvcc' failed with exit status 1\n", "build.cuda_header_missing"),
    # tranluan/Nonlinear_Face_3DMM#42: bash in Chinese ("nvcc: 未找到命令"); the thread's fix was nvcc's directory on PATH
    ("./compile_op_v2_sz224.sh: 行 15: nvcc: 未找到命令\ng++: error: cuda_op_kernel_v2_sz224.cu.o: 没有那个文件或目录\n",
     "shell.nvcc_not_found"),
]


@pytest.mark.parametrize("log,expect", REAL)
def test_real_pastes_in_other_languages(log, expect):
    first = _first(log)
    assert first is not None and first.id == expect
