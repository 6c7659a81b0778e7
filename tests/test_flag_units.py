"""Flag lists (NVCC_PREPEND_FLAGS, NVCC_APPEND_FLAGS): an option and its value are one unit.

`use` for CUDA 11.8 on a host whose g++ is 12 puts `-ccbin /usr/bin/g++-11` in front of
NVCC_PREPEND_FLAGS. Undo takes that unit out only where it still stands whole: a user who
changed it by hand (`export NVCC_PREPEND_FLAGS='-ccbin /usr/bin'`) keeps every word, and the
next `use` keeps the user's -ccbin (with one note) instead of adding a second one. Real shells
run the reported sequence; nvcc compiles with what they leave.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from cudaenv.env.ops import Ops, apply_changes
from cudaenv.env.pathlist import dangling, units
from cudaenv.env.plan import plan_off, plan_repair, plan_use
from cudaenv.errors import CudaenvError
from helpers import clean_shell_env, need, parse_env0

OURS = ["-ccbin", "/usr/bin/g++-11"]
CCBIN = Ops(prepend={"NVCC_PREPEND_FLAGS": OURS})


def use(env, ops=CCBIN):
    return apply_changes(env, plan_use(env, ops, "p").changes)


def off(env):
    return apply_changes(env, plan_off(env).changes)


@pytest.mark.parametrize("words,expect", [
    ("-ccbin /usr/bin/g++-11 -O2", [("-ccbin", "/usr/bin/g++-11"), ("-O2",)]),
    ("--compiler-bindir /x -ccbin=/y --compiler-bindir=/z", [("--compiler-bindir", "/x"), ("-ccbin=/y",), ("--compiler-bindir=/z",)]),
    ("-Xcompiler -ccbin /x", [("-Xcompiler", "-ccbin"), ("/x",)]),  # nvcc reads it so too
    ("-Xcompiler -fPIC -Xcompiler -Wall", [("-Xcompiler", "-fPIC"), ("-Xcompiler", "-Wall")]),
    ("-I /inc -I/inc2 -arch sm_80 -std c++17 -rdc true", [("-I", "/inc"), ("-I/inc2",), ("-arch", "sm_80"),
                                                          ("-std", "c++17"), ("-rdc", "true")]),
    ("-O2 -ccbin", [("-O2",), ("-ccbin",)]),
    ("", []),
])
def test_units_group_an_option_with_its_value(words, expect):
    w = words.split()
    assert units(w) == expect
    assert [x for u in units(w) for x in u] == w
    assert dangling(w) == ("-ccbin" if words.endswith("-ccbin") else None)


# The user's hand edit after `use`: our -ccbin's neighbours in every spelling. Undo leaves each whole.
USER_VALUES = [
    "-ccbin /usr/bin",  # the report
    "--compiler-bindir /usr/bin",
    "-ccbin=/usr/bin",
    "--compiler-bindir=/usr/bin/g++-12",
    "-ccbin /usr/bin/clang++-14 -Xcompiler -Wall",
    "-Xcompiler -ccbin /usr/bin/g++-11",  # our two words, but -Xcompiler takes the -ccbin
    "/usr/bin/g++-11",  # our value alone
    "-ccbin",  # our option alone
    "-O2 -ccbin",
    "-Xcompiler /usr/bin/g++-11",
    "",
]


@pytest.mark.parametrize("mine", USER_VALUES)
@pytest.mark.parametrize("prior", [None, "", "-lineinfo"])
def test_off_after_a_hand_edit_leaves_the_users_value_whole(mine, prior):
    env = {"HOME": "/h"} if prior is None else {"HOME": "/h", "NVCC_PREPEND_FLAGS": prior}
    during = use(env)
    assert during["NVCC_PREPEND_FLAGS"].split(" ")[:2] == OURS
    during["NVCC_PREPEND_FLAGS"] = mine
    after = off(during)
    if mine == "" and prior is None:
        assert "NVCC_PREPEND_FLAGS" not in after  # nothing left of a variable `use` created
    else:
        assert after["NVCC_PREPEND_FLAGS"] == mine


@pytest.mark.parametrize("mine", [v for v in USER_VALUES if v])
def test_use_again_after_a_hand_edit_keeps_the_users_words_whole(mine):
    during = use({"HOME": "/h"})
    during["NVCC_PREPEND_FLAGS"] = mine
    again = use(during)
    # ours back in front, whole; the user's words after it, untouched
    assert again["NVCC_PREPEND_FLAGS"] == " ".join(OURS + [mine])
    assert off(again)["NVCC_PREPEND_FLAGS"] == mine


def test_our_unit_comes_out_where_the_user_moved_it():
    during = use({"HOME": "/h", "NVCC_PREPEND_FLAGS": "-lineinfo"})
    during["NVCC_PREPEND_FLAGS"] = "-O2 -lineinfo -ccbin /usr/bin/g++-11 -Xcompiler -Wall"
    assert off(during)["NVCC_PREPEND_FLAGS"] == "-O2 -lineinfo -Xcompiler -Wall"


def test_a_profiles_repeated_option_keeps_each_value():
    ops = Ops(prepend={"NVCC_PREPEND_FLAGS": ["-Xcompiler", "-fPIC", "-Xcompiler", "-Wall", "-Xcompiler", "-fPIC"]},
              append={"NVCC_APPEND_FLAGS": ["-Xptxas", "-v", "-lineinfo", "-Xptxas", "-v"]})
    env = {"HOME": "/h", "NVCC_APPEND_FLAGS": "-O3"}
    during = use(env, ops)
    assert during["NVCC_PREPEND_FLAGS"] == "-Xcompiler -fPIC -Xcompiler -Wall"
    assert during["NVCC_APPEND_FLAGS"] == "-O3 -Xptxas -v -lineinfo"
    assert off(during) == env


def test_a_profile_flag_missing_its_value_is_refused():
    with pytest.raises(CudaenvError, match="ends with -Xcompiler, which needs a value"):
        plan_use({}, Ops(prepend={"NVCC_PREPEND_FLAGS": ["-O2", "-Xcompiler"]}), "p")


def test_repair_does_not_add_a_second_ccbin_to_the_users_own():
    """A new shell whose rc file exports its own -ccbin: `init`'s repair leaves that choice alone."""
    ops = Ops(prepend={"PATH": ["/cuda/bin"], "NVCC_PREPEND_FLAGS": OURS})
    during = use({"HOME": "/h", "PATH": "/usr/bin"}, ops)
    during["NVCC_PREPEND_FLAGS"] = "-ccbin=/usr/bin/clang++-14"
    assert plan_repair(during).changes == []
    during["PATH"] = "/usr/bin"  # the login shell also rebuilt PATH: that comes back, the -ccbin stays theirs
    fixed = apply_changes(during, plan_repair(during).changes)
    assert fixed["PATH"] == "/cuda/bin:/usr/bin"
    assert fixed["NVCC_PREPEND_FLAGS"] == "-ccbin=/usr/bin/clang++-14"
    assert off(fixed) == {"HOME": "/h", "PATH": "/usr/bin", "NVCC_PREPEND_FLAGS": "-ccbin=/usr/bin/clang++-14"}
    # Our unit gone with no -ccbin of the user's: it is put back.
    during["NVCC_PREPEND_FLAGS"] = "-lineinfo"
    fixed = apply_changes(during, plan_repair(during).changes)
    assert fixed["NVCC_PREPEND_FLAGS"] == "-ccbin /usr/bin/g++-11 -lineinfo"


# The reported sequence in each real shell: use 11.8, set the variable by hand, use 11.8, off.
EDIT = "-ccbin /usr/bin"
SCRIPTS = {
    "posix": """set -u
env -0 > "$OUT/before"
eval "$(cudaenv use 11.8)" || exit 9
NVCC_PREPEND_FLAGS='{edit}'; export NVCC_PREPEND_FLAGS
env -0 > "$OUT/edited"
eval "$(cudaenv use 11.8)" || exit 9
env -0 > "$OUT/again"
eval "$(cudaenv off)" || exit 9
env -0 > "$OUT/after"
""",
    "fish": """env -0 > $OUT/before
cudaenv use 11.8 | source; or exit 9
set -gx NVCC_PREPEND_FLAGS '{edit}'
env -0 > $OUT/edited
cudaenv use 11.8 | source; or exit 9
env -0 > $OUT/again
eval (cudaenv off); or exit 9
env -0 > $OUT/after
""",
    "tcsh": """env -0 > "$OUT/before"
eval "`cudaenv use 11.8`"
setenv NVCC_PREPEND_FLAGS '{edit}'
env -0 > "$OUT/edited"
eval "`cudaenv use 11.8`"
env -0 > "$OUT/again"
eval "`cudaenv off`"
env -0 > "$OUT/after"
""",
}
ARGS = {"bash": ["--norc", "--noprofile"], "dash": [], "zsh": ["-f"], "fish": ["--no-config"], "tcsh": ["-f"]}


def _gxx11() -> None:
    need("g++-11")
    need("g++-12")


@pytest.mark.shells
@pytest.mark.slow
@pytest.mark.parametrize("shell", list(ARGS))
def test_hand_edited_ccbin_survives_use_and_off_in_real_shells(shell, tmp_path, testbed):
    _gxx11()
    env = clean_shell_env(tmp_path, "/usr/bin:/bin", CUDAENV_ROOTS=":".join(testbed.values()))
    script = SCRIPTS.get(shell, SCRIPTS["posix"]).format(edit=EDIT)
    res = subprocess.run([need(shell)] + ARGS[shell], input=script, env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    out = tmp_path / "out"
    dump = {n: parse_env0((out / n).read_bytes()) for n in ("before", "edited", "again", "after")}
    for d in dump.values():
        d.pop(b"_", None)
    assert dump["edited"][b"NVCC_PREPEND_FLAGS"] == EDIT.encode()
    # The second use keeps the user's -ccbin whole and adds none of its own (nvcc takes one) ...
    assert dump["again"][b"NVCC_PREPEND_FLAGS"] == EDIT.encode()
    assert b"CUDAHOSTCXX" not in dump["again"]
    assert "keeping it instead of /usr/bin/g++-11" in res.stderr
    assert res.stderr.count("-ccbin /usr/bin)") == 1
    # ... and off gives back the environment from before, with the user's own value.
    assert dump["after"] == {**dump["before"], b"NVCC_PREPEND_FLAGS": EDIT.encode()}


@pytest.mark.slow
def test_nvcc_compiles_after_a_hand_edit_and_a_second_use(tmp_path, testbed):
    """The report's failure, with a -ccbin nvcc 11.8 accepts: ours in front, then the user's unit whole."""
    _gxx11()
    (tmp_path / "k.cu").write_text("__global__ void k() {}\nint main() { k<<<1, 1>>>(); }\n")
    env = clean_shell_env(tmp_path, "/usr/bin:/bin", CUDAENV_ROOTS=":".join(testbed.values()))
    script = """set -u
eval "$(cudaenv use 11.8)"
export NVCC_PREPEND_FLAGS='-ccbin /usr/bin/gcc-11 -Xcompiler -Wall'
eval "$(cudaenv use 11.8)"
echo "P=$NVCC_PREPEND_FLAGS"
nvcc -c k.cu -o k.o && echo COMPILED
eval "$(cudaenv off)"
echo "Q=$NVCC_PREPEND_FLAGS"
"""
    res = subprocess.run(["bash", "--norc", "--noprofile"], input=script, env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert "P=-ccbin /usr/bin/gcc-11 -Xcompiler -Wall\n" in res.stdout, res.stderr
    assert "COMPILED" in res.stdout, res.stderr
    assert "Q=-ccbin /usr/bin/gcc-11 -Xcompiler -Wall\n" in res.stdout
    assert os.path.getsize(tmp_path / "k.o") > 0


def test_direnv_rebase_swaps_whole_ccbin_units():
    """direnv put back a value saved under profile A (-ccbin g++-11); B is active (-ccbin g++-10): one -ccbin, B's."""
    from cudaenv.env.direnv import rebase_lists
    from cudaenv.env.state import State

    a = State("a", {}, {"NVCC_PREPEND_FLAGS": ("v", OURS, [])})
    b = State("b", {}, {"NVCC_PREPEND_FLAGS": ("v", ["-ccbin", "/opt/g++-10"], [])})
    env = {"HOME": "/h", "NVCC_PREPEND_FLAGS": "-ccbin /usr/bin/g++-11 -lineinfo"}
    out = rebase_lists(env, a, ["NVCC_PREPEND_FLAGS"], b)
    assert out["NVCC_PREPEND_FLAGS"] == "-ccbin /opt/g++-10 -lineinfo"
    # The same -ccbin in both: it stays, once.
    out = rebase_lists(env, a, ["NVCC_PREPEND_FLAGS"], State("c", {}, {"NVCC_PREPEND_FLAGS": ("v", OURS, [])}))
    assert out["NVCC_PREPEND_FLAGS"] == "-ccbin /usr/bin/g++-11 -lineinfo"
