"""The shell registry's contract: every family is one complete object, and every one is tested for real.

Adding a shell is one module, one registry line and one row in the real-shell
table (test_shells_real.SCRIPTS); these tests fail when any of the three is
missing or when a family leaves part of its object unwritten.
"""

from __future__ import annotations

import os

import pytest

from cudaenv import shells
from cudaenv.env.plan import Plan
from cudaenv.errors import CudaenvError
from cudaenv.shells.base import Output, Shell
from test_shells_real import SCRIPTS

FAMILIES = sorted({fam for fam in shells.SHELLS.values()})


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_is_a_complete_shell_object(family):
    obj = shells.get(family)
    assert isinstance(obj, Shell) and obj.name == family
    plan = Plan([("set", "CUDA_HOME", "/opt/cuda x"), ("set", "PATH", "/opt/cuda x/bin:/usr/bin"),
                 ("unset", "CUDA_PATH")], [])
    text = obj.render(plan)
    assert "CUDA_HOME" in text and "CUDA_PATH" in text and text.endswith("\n")
    assert obj.quote("a b") != "a b"
    assert "cudaenv use 12.4" in obj.eval_hint("use 12.4")
    assert obj.tty_hint("use 12.4")
    hook = obj.conda_hook(["conda-hook", "_activate", "--shell", "sh", "--", "k_1", "12.4"], "/bin dir/cudaenv", "failed")
    assert "conda-hook" in hook and "failed" in hook
    names = [n for n, f in shells.SHELLS.items() if f == family]
    for n in names:
        assert obj.completion(n, "plain", "12.4", "newest CUDA 12.4").split("\n")[0]


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_has_a_row_in_the_real_shell_table(family):
    names = [n for n, f in shells.SHELLS.items() if f == family]
    assert set(names) & set(SCRIPTS), f"no real-shell test for the {family} family ({names})"


@pytest.mark.parametrize("name", shells.INIT_SHELLS)
def test_each_init_shell_ships_its_file_and_rc_line(name):
    obj = shells.shell(name)
    assert os.path.isfile(obj.init_file(name))
    assert obj.init_text(name) and obj.init_text(name, auto=True) != obj.init_text(name)
    assert f"init {name} --auto" in obj.rc_line(name, auto=True)


def test_formats_share_the_registry_but_are_not_shells():
    for fmt in shells.FORMATS:
        out = shells.get(fmt)
        assert isinstance(out, Output) and not isinstance(out, Shell) and out.name == fmt
    # --shell takes shells and json, not the file formats.
    assert shells.family_of("json") == "json"
    for fmt in ("github", "dotenv", "powershell"):
        with pytest.raises(CudaenvError):
            shells.family_of(fmt)
    with pytest.raises(CudaenvError):
        shells.shell("json")


def test_eval_hints_are_the_documented_incantations():
    assert shells.shell("bash").eval_hint("use 12.4") == 'eval "$(cudaenv use 12.4)"'
    assert shells.shell("fish").eval_hint("use 12.4") == "cudaenv use 12.4 | source"
    assert shells.shell("tcsh").eval_hint("use 12.4") == 'eval "`cudaenv use 12.4`"'
