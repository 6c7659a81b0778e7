"""The pure model: property-based round trips over generated environments."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cudaenv.env.ops import Ops, apply_changes
from cudaenv.env.pathlist import DEFAULT_PATH, join, split
from cudaenv.env.plan import MAX_VAR_BYTES, Plan, plan_off, plan_use
from cudaenv.env.state import STATE_VAR, State, decode, encode
from cudaenv.errors import CudaenvError
from helpers import use_as_json

LISTS = ("PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH")
SCALARS = ("CUDA_HOME", "CUDA_PATH", "CUDAHOSTCXX")

# Any character an environment value can hold, except the list separator and
# newline for entries; lone surrogates stand for undecodable bytes.
_chars = st.characters(blacklist_characters=":\n\x00", blacklist_categories=("Cs",)) | st.sampled_from(
    ["\udcff", "\udc80", "'", '"', "$", "!", "\\", " ", "%", ";", ",", "|", "=", "🚒"]
)
entry = st.text(_chars, min_size=1, max_size=12)
value = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=20)


@st.composite
def list_value(draw, allow_empty_entries: bool = True):
    kind = draw(st.sampled_from(["unset", "empty", "entries"]))
    if kind == "unset":
        return None
    if kind == "empty":
        return ""
    parts = draw(st.lists(entry | (st.just("") if allow_empty_entries else entry), min_size=1, max_size=5))
    return join(parts)


@st.composite
def environments(draw, allow_empty_entries: bool = True):
    env = {"HOME": "/home/u"}
    for var in LISTS:
        v = draw(list_value(allow_empty_entries))
        if v is not None:
            env[var] = v
    for var in SCALARS:
        v = draw(st.none() | value)
        if v is not None:
            env[var] = v
    return env


@st.composite
def profiles(draw):
    root = "/" + draw(entry).replace("/", "_")
    pre = {
        "PATH": [root + "/bin"],
        "LD_LIBRARY_PATH": draw(st.lists(entry, max_size=3)) + [root + "/lib64"],
        "LIBRARY_PATH": [root + "/lib64", root + "/lib64/stubs"],
    }
    app = {"LD_LIBRARY_PATH": draw(st.lists(entry, max_size=2))}
    return Ops(set={"CUDA_HOME": root, "CUDA_PATH": root}, prepend=pre, append=app), root


def use(env, ops, name="p"):
    return apply_changes(env, plan_use(env, ops, name).changes)


def off(env):
    return apply_changes(env, plan_off(env).changes)


@settings(max_examples=300)
@given(environments(), profiles())
def test_off_after_use_restores_byte_for_byte(env, prof):
    ops, _ = prof
    assert off(use(env, ops)) == env


@settings(max_examples=200)
@given(environments(), profiles(), profiles())
def test_use_b_after_a_equals_b_from_clean(env, a, b):
    assert use(use(env, a[0], "a"), b[0], "b") == use(env, b[0], "b")
    assert off(use(use(env, a[0], "a"), b[0], "b")) == env


@settings(max_examples=200)
@given(environments(), profiles())
def test_use_twice_is_a_noop(env, prof):
    once = use(env, prof[0])
    assert plan_use(once, prof[0], "p").changes == []


@settings(max_examples=200)
@given(environments(allow_empty_entries=False), profiles())
def test_never_produces_an_empty_entry(env, prof):
    after = use(env, prof[0])
    for var in LISTS:
        if var in after and after[var] != "":
            assert "" not in split(after[var]), (var, after[var])


@settings(max_examples=200)
@given(environments(), profiles(), entry, entry)
def test_user_additions_after_use_survive_off(env, prof, mine, theirs):
    during = use(env, prof[0])
    # The user adds entries of their own after `use`.
    during["PATH"] = join([mine] + split(during["PATH"]))
    during["LD_LIBRARY_PATH"] = join(split(during["LD_LIBRARY_PATH"]) + [theirs])
    after = off(during)
    expect = dict(env)
    # An unset PATH was the default search path: the user's addition goes in front of it.
    expect["PATH"] = join([mine] + split(env["PATH"] if "PATH" in env else DEFAULT_PATH))
    expect["LD_LIBRARY_PATH"] = join(split(env.get("LD_LIBRARY_PATH", "")) + [theirs])
    assert after == expect


@given(environments(), profiles())
def test_state_round_trips(env, prof):
    during = use(env, prof[0], "name-1.2")
    st_ = decode(during[STATE_VAR])
    assert encode(st_) == during[STATE_VAR]
    assert st_.name == "name-1.2"
    # The encoded state is plain ASCII without quotes, spaces or shell specials.
    assert all(32 < ord(c) < 127 and c not in "'\"$`\\!&*?[]{}()<>#" for c in during[STATE_VAR])


def test_user_value_holding_our_entry_comes_back_exactly():
    env = {"PATH": "/usr/bin:/opt/cuda/bin:/bin"}
    ops = Ops(prepend={"PATH": ["/opt/cuda/bin"]})
    during = use(env, ops)
    assert during["PATH"] == "/opt/cuda/bin:/usr/bin:/opt/cuda/bin:/bin"
    assert off(during)["PATH"] == env["PATH"]


def test_unset_and_empty_are_different_states():
    ops = Ops(set={"CUDA_HOME": "/c"}, prepend={"LD_LIBRARY_PATH": ["/c/lib64"]})
    for env in ({}, {"LD_LIBRARY_PATH": "", "CUDA_HOME": ""}):
        during = use(env, ops)
        assert during["LD_LIBRARY_PATH"] == "/c/lib64"  # no trailing ':' on an empty value
        assert off(during) == env


def test_scalar_changed_after_use_is_left_with_a_note():
    env = {"CUDA_HOME": "/old"}
    during = use(env, Ops(set={"CUDA_HOME": "/c"}))
    during["CUDA_HOME"] = "/mine"
    plan = plan_off(during)
    assert apply_changes(during, plan.changes)["CUDA_HOME"] == "/mine"
    assert any("CUDA_HOME was changed" in n for n in plan.notes)


def test_user_unset_list_stays_unset():
    during = use({"PATH": "/bin"}, Ops(prepend={"LD_LIBRARY_PATH": ["/c/lib"]}))
    del during["LD_LIBRARY_PATH"]
    assert "LD_LIBRARY_PATH" not in off(during)


def test_off_without_state_is_a_noop_with_a_note():
    plan = plan_off({"PATH": "/bin"})
    assert plan.changes == [] and plan.notes


def test_off_with_corrupt_state_is_an_error_but_use_recovers():
    env = {"PATH": "/bin", STATE_VAR: "garbage"}
    with pytest.raises(CudaenvError, match="unreadable"):
        plan_off(env)
    plan = plan_use(env, Ops(prepend={"PATH": ["/c/bin"]}), "p")
    assert any("ignoring" in n for n in plan.notes)
    assert apply_changes(env, plan.changes)["PATH"] == "/c/bin:/bin"


@pytest.mark.parametrize("bad", ["/a:b", "/a\nb", ""])
def test_unexpressible_entries_are_refused(bad):
    with pytest.raises(CudaenvError):
        plan_use({}, Ops(prepend={"PATH": [bad]}), "p")


def test_entries_are_never_inserted_twice():
    during = use({}, Ops(prepend={"LD_LIBRARY_PATH": ["/a", "/a", "/b"]}, append={"LD_LIBRARY_PATH": ["/b", "/s"]}))
    assert during["LD_LIBRARY_PATH"] == "/a:/b:/s"


def test_state_decode_rejects_foreign_text():
    for text in ("", "c1", "c9;n,x", "c1;n,x;s,A", "c1;n,x;l,A,z,,"):
        with pytest.raises(CudaenvError):
            decode(text)
    assert decode(encode(State("x", {"A": (None, "v")}, {"P": ("u", ["/a"], [])}))).scalars == {"A": (None, "v")}


def test_unset_path_means_the_default_search_path_and_comes_back_unset():
    """PATH absent from the environment: the shell has its own (not exported): use must not take that away."""
    ops = Ops(set={"CUDA_HOME": "/c"}, prepend={"PATH": ["/c/bin"]})
    during = use({"HOME": "/h"}, ops)
    assert during["PATH"] == "/c/bin:" + DEFAULT_PATH == "/c/bin:/usr/local/bin:/usr/bin:/bin"
    assert off(during) == {"HOME": "/h"}
    # Switching keeps the default too, and off still gives back unset.
    other = Ops(set={"CUDA_HOME": "/d"}, prepend={"PATH": ["/d/bin"]})
    assert use(during, other, "q")["PATH"] == "/d/bin:" + DEFAULT_PATH
    assert off(use(during, other, "q")) == {"HOME": "/h"}
    # A record written by an older release, which started from os.defpath, comes back unset too.
    old = dict(during, PATH="/c/bin:" + os.defpath)
    assert off(old) == {"HOME": "/h"}


def test_a_value_over_the_kernels_per_variable_limit_is_refused(two_toolkits):
    base, env = two_toolkits
    with pytest.raises(CudaenvError, match="limit for one variable"):
        Plan([("set", "X", "a" * MAX_VAR_BYTES)], [])
    Plan([("set", "X", "a" * (MAX_VAR_BYTES - 3))], [])  # "X=" + value + NUL fits exactly
    # A PATH already near the limit: prepending the toolkit's bin would push it over.
    env = dict(env, PATH="/usr/bin:/bin:" + "/x" * ((MAX_VAR_BYTES - 40) // 2))
    res, _ = use_as_json(["12.4"], env)
    assert res.returncode == 2 and res.stdout == "" and "Argument list too long" in res.stderr


# Flag lists (NVCC_PREPEND_FLAGS): an option and its value are one unit. The user's words are drawn
# from the hostile neighbours of ours: the same option with another value, our option or our value
# alone, the `=` spellings, -Xcompiler swallowing a word that looks like an option.
OUR_CXX = "/usr/bin/g++-11"
_flag_word = st.sampled_from(["-ccbin", "--compiler-bindir", "-Xcompiler", OUR_CXX, "/usr/bin", "-O2", "-Wall",
                              "-ccbin=/opt/g++", "--compiler-bindir=/usr/bin/g++-12", "-lineinfo", "-fPIC",
                              "g++-12", "-I/x"])
_flag_words = st.lists(_flag_word, max_size=6)


def _user_units(words):
    """The units of ``words`` a user owns once ours (-ccbin OUR_CXX) is taken out where it stands whole."""
    from cudaenv.env.pathlist import units

    u = units(words)
    if ("-ccbin", OUR_CXX) in u:
        u.remove(("-ccbin", OUR_CXX))
    return u


@st.composite
def flag_edits(draw):
    """(prior value or None, an edit of the value `use` gave: a function of its words, or None to unset)."""
    prior = draw(st.none() | _flag_words.map(" ".join))
    how = draw(st.sampled_from(["replace", "append", "prepend", "drop-ours", "unset", "keep"]))
    words = draw(_flag_words)
    edits = {
        "replace": lambda cur: words,
        "append": lambda cur: cur + words,
        "prepend": lambda cur: words + cur,
        "drop-ours": lambda cur: cur[2:] + words,
        "keep": lambda cur: cur,
        "unset": None,
    }
    return prior, edits[how]


@settings(max_examples=400)
@given(flag_edits(), st.booleans())
def test_user_edits_of_a_flag_list_never_lose_or_split_a_users_unit(case, again):
    """use, the user edits NVCC_PREPEND_FLAGS, (use again,) off: every unit the user's value holds comes back whole."""
    prior, edit = case
    ops = Ops(prepend={"NVCC_PREPEND_FLAGS": ["-ccbin", OUR_CXX]})
    env = {"HOME": "/h"} if prior is None else {"HOME": "/h", "NVCC_PREPEND_FLAGS": prior}
    during = use(env, ops)
    assert during["NVCC_PREPEND_FLAGS"].split(" ")[:2] == ["-ccbin", OUR_CXX]
    if edit is None:
        del during["NVCC_PREPEND_FLAGS"]
        mine = None
    else:
        during["NVCC_PREPEND_FLAGS"] = " ".join(edit(split(during["NVCC_PREPEND_FLAGS"], " ")))
        mine = _user_units(split(during["NVCC_PREPEND_FLAGS"], " "))
    if again:
        during = use(during, ops)
        from cudaenv.env.pathlist import units

        # ours in front, whole, then every unit of the user's, whole and in order
        assert units(split(during["NVCC_PREPEND_FLAGS"], " ")) == [("-ccbin", OUR_CXX)] + (mine or [])
    after = off(during)
    if mine is None and not again:
        assert "NVCC_PREPEND_FLAGS" not in after
    else:
        from cudaenv.env.pathlist import units

        assert units(split(after.get("NVCC_PREPEND_FLAGS", ""), " ")) == (mine or [])
