"""The type checker in the suite: mypy over the package, configured in pyproject.toml.

Records are plain dicts at run time; their shapes are ``TypedDict``s under
``if TYPE_CHECKING:`` (``toolkit/types.py``, ``host/types.py``,
``profiles/types.py``), which only a type checker reads. This runs it, with
strict flags on ``env/``, ``profiles/``, ``toolkit/`` and ``install/``, and
fails on any error it reports.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from helpers import REPO

STRICT = ("cudaenv.env.*", "cudaenv.profiles.*", "cudaenv.toolkit.*", "cudaenv.install.*")


def _mypy(cwd: str, cache: str) -> subprocess.CompletedProcess:
    # A fresh cache per run (never the checkout's): a stale or shared cache cannot hide an error.
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", os.path.join(cwd, "pyproject.toml"), "--cache-dir", cache,
         "--no-error-summary", "--hide-error-context"],
        cwd=cwd, capture_output=True, text=True, timeout=600)


def _has_mypy() -> None:
    res = subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, "mypy is part of the test extra: pip install -e '.[test]'\n" + res.stderr


def test_mypy_finds_no_error(tmp_path):
    _has_mypy()
    res = _mypy(REPO, str(tmp_path / "cache"))
    assert res.returncode == 0 and not res.stdout.strip(), res.stdout + res.stderr


def _config() -> dict:
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["mypy"]


def test_strict_folders_are_checked_strictly():
    """The strict folders carry strict's per-module flags, and no override switches their errors off."""
    cfg = _config()
    strict = [o for o in cfg["overrides"] if set(STRICT) <= set(o["module"])]
    assert strict, "no override names the strict folders"
    flags = strict[0]
    for flag in ("disallow_untyped_defs", "disallow_incomplete_defs", "disallow_any_generics", "warn_return_any",
                 "disallow_untyped_calls", "check_untyped_defs"):
        assert flags.get(flag) is True, flag
    assert flags.get("implicit_reexport") is False
    for o in cfg["overrides"]:
        if o.get("ignore_errors"):
            mods = [o["module"]] if isinstance(o["module"], str) else o["module"]
            for m in mods:
                hit = [s for s in STRICT if m == s or m.startswith(s[:-1])]
                # install/ is checked by its own branch; the lead removes this exception when it merges.
                assert not hit or hit == ["cudaenv.install.*"], f"{m} is a strict folder but its errors are ignored"


def test_the_checker_sees_an_untyped_record_read(tmp_path):
    """A strict folder's untyped function and a wrong key of a declared record fail the run."""
    _has_mypy()
    tree = tmp_path / "tree"
    shutil.copytree(os.path.join(REPO, "cudaenv"), tree / "cudaenv",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(REPO, "pyproject.toml"), tree / "pyproject.toml")
    (tree / "cudaenv" / "env" / "bad_shape.py").write_text(
        "from __future__ import annotations\n"
        "TYPE_CHECKING = False\n"
        "if TYPE_CHECKING:\n"
        "    from ..toolkit.types import Toolkit\n"
        "def untyped(x):\n"
        "    return x\n"
        "def wrong_key(tk: Toolkit) -> str:\n"
        "    return tk['rooot']\n")
    res = _mypy(str(tree), str(tmp_path / "cache"))
    assert res.returncode != 0
    assert "bad_shape.py:5: error: Function is missing a type annotation" in res.stdout, res.stdout
    assert 'bad_shape.py:8: error: TypedDict "Toolkit" has no key "rooot"' in res.stdout, res.stdout
