"""Exact expected text for each renderer."""

from __future__ import annotations

import json
import os

import pytest

from cudaenv.env.plan import Plan
from cudaenv.errors import CudaenvError
from cudaenv.shells import detect, family_of, get as renderer
from helpers import run_cudaenv

PLAN = Plan(
    [
        ("set", "CUDA_HOME", "/opt/it's $HOME!"),
        ("set", "PATH", "/c/bin:/usr/bin"),
        ("set", "LD_LIBRARY_PATH", ""),
        ("unset", "CUDA_PATH"),
    ],
    ["a note"],
)


def test_posix():
    assert renderer("bash").render(PLAN) == (
        "export CUDA_HOME='/opt/it'\\''s $HOME!';\n"
        "export PATH='/c/bin:/usr/bin';\n"
        "export LD_LIBRARY_PATH='';\n"
        "unset CUDA_PATH;\n"
        "hash -r;\n"
    )


def test_fish():
    assert renderer("fish").render(PLAN) == (
        "set -gx CUDA_HOME '/opt/it\\'s $HOME!';\n"
        "set -gx PATH '/c/bin' '/usr/bin';\n"
        "set -gx LD_LIBRARY_PATH '';\n"
        "set -e -g CUDA_PATH;\n"
    )


def test_csh():
    assert renderer("tcsh").render(PLAN) == (
        "setenv CUDA_HOME '/opt/it'\\''s'\\ '$HOME'\\!'';\n"
        "setenv PATH '/c/bin:/usr/bin';\n"
        "setenv LD_LIBRARY_PATH '';\n"
        "unsetenv CUDA_PATH;\n"
        "rehash;\n"
    )


# Values that word splitting or pattern expansion would change in an unquoted `eval $(...)`.
AWKWARD = Plan([("set", "A", "x  y"), ("set", "B", "t\tu"), ("set", "C", "-n\n"), ("set", "D", "a*b?[c]"),
                ("set", "E", "@(x)%s\\'"), ("set", "F", "/mnt/c/Program Files (x86)/a b"), ("unset", "PATH")], [])


def test_posix_unsplittable_values_go_through_printf():
    assert renderer("sh").render(AWKWARD) == (
        "A=$(printf 'x\\040\\040y_'); export A=\"${A%_}\";\n"
        "B=$(printf 't\\011u_'); export B=\"${B%_}\";\n"
        "C=$(printf '\\055n\\012_'); export C=\"${C%_}\";\n"
        "D=$(printf 'a\\052b\\077\\133c\\135_'); export D=\"${D%_}\";\n"
        "E=$(printf '@\\050x\\051\\045s\\134\\047_'); export E=\"${E%_}\";\n"
        "export F='/mnt/c/Program Files (x86)/a b';\n"  # single blanks and a plain '(' survive as they are
        "unset PATH; PATH='/usr/local/bin:/usr/bin:/bin';\n"  # PATH was the shell's own: leave it one
        "hash -r;\n"
    )


def test_csh_unquoted_safe_values():
    assert renderer("tcsh").render(Plan([("set", "A", "x  y\t{a,b}*?[~")], [])) == (
        "setenv A 'x'\\ ''\\ 'y'\"`printf '\\011'`\"''\"`printf '\\173'`\"'a,b}'\\*''\\?''\\['~';\n")
    assert renderer("tcsh").render(Plan([("unset", "PATH")], [])) == "setenv PATH '/usr/local/bin:/usr/bin:/bin';\nrehash;\n"


def test_fish_newline_leaves_the_quotes():
    assert renderer("fish").render(Plan([("set", "A", "a\nb\n")], [])) == "set -gx A 'a'\\n'b'\\n'';\n"


def test_csh_refuses_newlines():
    with pytest.raises(CudaenvError, match="newline"):
        renderer("csh").render(Plan([("set", "X", "a\nb")], []))


def test_json():
    doc = json.loads(renderer("json").render(PLAN))
    assert doc == {
        "set": {"CUDA_HOME": "/opt/it's $HOME!", "PATH": "/c/bin:/usr/bin", "LD_LIBRARY_PATH": ""},
        "unset": ["CUDA_PATH"],
        "notes": ["a note"],
    }


def test_fish_backslashes_and_empty_entries():
    out = renderer("fish").render(Plan([("set", "LIBRARY_PATH", "a\\b::c")], []))
    assert out == "set -gx LIBRARY_PATH 'a\\\\b' '' 'c';\n"


def test_no_hash_when_path_untouched():
    assert renderer("zsh").render(Plan([("unset", "CUDA_HOME")], [])) == "unset CUDA_HOME;\n"


def test_families_and_unknown_shell():
    assert [family_of(s) for s in ("bash", "zsh", "sh", "dash", "fish", "tcsh", "csh", "json")] == [
        "posix", "posix", "posix", "posix", "fish", "csh", "csh", "json"]
    with pytest.raises(CudaenvError, match="unknown shell"):
        family_of("powershell")


def test_detect_prefers_forced_then_parent_then_shell_var():
    assert detect({"CUDAENV_SHELL": "fish"}) == "fish"
    # Our own process is not a shell: $SHELL decides.
    assert detect({"SHELL": "/usr/bin/tcsh"}, ppid=os.getpid()) == "tcsh"
    assert detect({}, ppid=os.getpid()) == "sh"


def test_json_writer_matches_the_json_module():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cudaenv.infra.jsonout import dumps

    text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
    leaf = st.none() | st.booleans() | st.integers() | text
    tree = st.recursive(leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(text, c, max_size=3), max_leaves=12)

    @settings(max_examples=300)
    @given(tree)
    def check(obj):
        assert dumps(obj) == json.dumps(obj, indent=2, ensure_ascii=False)

    check()
    assert json.loads(dumps({"p": "/tmp/\udcff"})) == {"p": "/tmp/\udcff"}


def test_csh_refuses_a_switch_it_could_not_undo(two_toolkits):
    base, env = two_toolkits
    env = dict(env, CUDA_HOME="/opt/a\nb")
    res = run_cudaenv(["use", "12.4", "--shell", "tcsh"], env)
    assert res.returncode == 2 and res.stdout == "" and "CUDA_HOME holds a newline" in res.stderr
    # Other shells can restore it, so they switch.
    assert run_cudaenv(["use", "12.4", "--shell", "bash"], env).returncode == 0
