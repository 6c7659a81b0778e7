"""The one shared copy of each small helper, and the cases its former copies disagreed on.

* PATH lookup: ``env.pathlist.which`` (and ``entries``, the splitter of a list searched);
"""

from __future__ import annotations

import os
import stat

import pytest

from cudaenv.env.pathlist import DEFAULT_PATH, entries, which


def _exe(path, text="#!/bin/sh\nexit 0\n"):
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


# --------------------------------------------------------------------------- PATH lookup

@pytest.mark.parametrize("value,expect", [
    (None, []), ("", []), (":", []), ("::", []), ("/a", ["/a"]), (":/a", ["/a"]), ("/a:", ["/a"]),
    ("/a::/b", ["/a", "/b"]), ("/a:/a", ["/a", "/a"]), (" :/b", [" ", "/b"]),
])
def test_entries_skips_empty_entries_only(value, expect):
    assert entries(value) == expect


def test_which_never_searches_the_current_directory(tmp_path, monkeypatch):
    """An empty PATH entry is the current directory to a shell; shutil.which (5 of the old copies) followed it."""
    _exe(tmp_path / "tool")
    monkeypatch.chdir(tmp_path)
    for path in (":", "::", ":/nonexistent", "/nonexistent:", "/nonexistent::/also-not"):
        assert which("tool", path) is None, path


def test_which_order_and_what_counts(tmp_path):
    a, b, c = (tmp_path / n for n in "abc")
    for d in (a, b, c):
        d.mkdir()
    (a / "tool").write_text("not executable")  # skipped: not executable
    (b / "tool").mkdir()  # skipped: a directory, even with its x bits
    want = _exe(c / "tool")
    path = f"{a}:{b}:{c}"
    assert which("tool", path) == want
    os.symlink(want, a / "link")
    assert which("link", path) == str(a / "link")  # a symlink to an executable file counts
    os.symlink(str(tmp_path / "nowhere"), b / "dangling")
    assert which("dangling", path) is None
    assert which("tool", "") is None  # PATH set to nothing: nothing is searched
    assert which(want, "") == want  # a name with '/' is not searched: it is the file
    assert which(str(a / "tool"), path) is None
    assert which(str(b / "tool"), path) is None


def test_which_with_path_unset_searches_the_documented_default():
    """Unset PATH: os.defpath (/bin:/usr/bin) in 7 copies, nothing in 4, DEFAULT_PATH in one; now DEFAULT_PATH."""
    assert which("sh", None) == which("sh", DEFAULT_PATH) is not None
    from cudaenv.host.python_probe import default_python
    from cudaenv.outputs.conda_hooks import find_exe
    from cudaenv.toolkit.stubgen import c_compiler

    assert default_python({}) == which("python3", DEFAULT_PATH)
    assert c_compiler({}) == (which("gcc", DEFAULT_PATH) or which("cc", DEFAULT_PATH) or which("clang", DEFAULT_PATH))
    assert find_exe({}, argv0="python3") == which("cudaenv", DEFAULT_PATH)


def test_callers_ignore_a_tool_in_the_current_directory(tmp_path, monkeypatch):
    """conda_hooks.find_exe and the Python probe's default interpreter went through shutil.which."""
    from cudaenv.host.python_probe import default_python
    from cudaenv.outputs.conda_hooks import find_exe

    _exe(tmp_path / "cudaenv")
    _exe(tmp_path / "python3")
    monkeypatch.chdir(tmp_path)
    env = {"PATH": ":/nonexistent"}
    assert find_exe(env, argv0="python3") is None
    assert default_python(env) is None
    assert stat.S_ISREG(os.stat(tmp_path / "python3").st_mode)


# --------------------------------------------------------------------------- version keys

def _old_here_vkey(v):  # knowledge/here.py's _vkey: every run of digits, the first three
    import re
    return tuple(int(x) for x in re.findall(r"\d+", v or "")[:3])


def _old_explain_vkey(v):  # knowledge/explain.py's _vkey: the same, the first two
    import re
    return tuple(int(x) for x in re.findall(r"\d+", v)[:2])


def _old_version_tuple(text):  # host/pyenv.py's version_tuple: leading all-digit parts
    out = []
    for part in (text or "").split("."):
        if not part.isdigit():
            break
        out.append(int(part))
    return tuple(out)


def test_version_key_orders_numbers_as_numbers():
    from cudaenv.toolkit import version_key

    order = ["", "default", "11", "11.8", "11.8.0", "11.9", "11.10", "12.4", "12.4.1", "12.4.1.post1", "12.4.1+cu124",
             "12.4.2", "12.4.10", "12.4.127", "13.0"]
    assert sorted(reversed(order), key=version_key) == order
    assert version_key(None) == version_key("") == ()
    glibcxx = ["GLIBCXX_3.4", "GLIBCXX_3.4.9", "GLIBCXX_3.4.10", "GLIBCXX_3.4.30"]
    assert sorted(reversed(glibcxx), key=version_key) == glibcxx  # checks/live.py sorted these by its own key
    assert version_key("9" * 5000)[0][0] == -1  # no int() of 5000 digits


def test_version_key_settles_what_the_copies_disagreed_on():
    """here.py cut keys at 3 numbers, explain.py at 2, pyenv stopped at the first non-number part."""
    from cudaenv.toolkit import version_key

    # 12.4.1 against 12.4: here.py said newer, explain.py said the same. The key says newer;
    # a comparison at major.minor says so by slicing.
    assert _old_here_vkey("12.4.1") > _old_here_vkey("12.4") and _old_explain_vkey("12.4.1") == _old_explain_vkey("12.4")
    assert version_key("12.4.1") > version_key("12.4") and version_key("12.4.1")[:2] == version_key("12.4")[:2]
    # A fourth part: here.py could not tell 12.4.127.1 from 12.4.127.
    assert _old_here_vkey("12.4.127.1") == _old_here_vkey("12.4.127")
    assert version_key("12.4.127.1") > version_key("12.4.127")
    # torch's own version: pyenv read 2.5.1+cu124 as 2.5 (equal to 2.5.0); the key keeps the 1.
    assert _old_version_tuple("2.5.1+cu124") == _old_version_tuple("2.5")
    assert version_key("2.5.0") < version_key("2.5.1+cu124") < version_key("2.5.2")
    # Digits inside a word: the regex copies read cu124 as 124, so "cu124" sorted after "12.4".
    assert _old_here_vkey("cu124") > _old_here_vkey("12.4")
    assert version_key("cu124") < version_key("12.4")


def test_wheel_versions_keep_pep440_order():
    """install/wheels' key had the same name and another rule: now pep440_key, for what PyPI serves."""
    from cudaenv.install.wheels import pep440_key

    assert sorted(["13.0.0", "13.0.0rc1", "13.0.0.post1", "junk"], key=pep440_key) == \
        ["junk", "13.0.0rc1", "13.0.0", "13.0.0.post1"]


# --------------------------------------------------------------------------- the loader's cache

def test_ld_cache_reader_is_bounded_and_tolerates_garbage(tmp_path):
    """checks/live, checks/shell and toolkit/stubs each read /etc/ld.so.cache whole, with open()."""
    from cudaenv.infra.files import ld_cache_paths
    from cudaenv.toolkit.stubs import driver_present

    real = ld_cache_paths()  # this machine's: whatever it holds, a list of absolute paths
    assert all(p.startswith("/") and ".so" in p for p in real)
    cache = tmp_path / "cache"
    cache.write_bytes(b"\xff\xfe garbage \0/usr/lib/libx.so.1\0/\xff\xfe/libbad.so\0libcuda.so.1\0" + b"/" * 5000 + b".so\0")
    paths = ld_cache_paths(str(cache))
    assert paths[0] == "/usr/lib/libx.so.1" and len(paths) == 2 and os.fsencode(paths[1]) == b"/\xff\xfe/libbad.so"
    # Bounded: only the first `limit` bytes are read.
    big = tmp_path / "big"
    big.write_bytes(b"/a/liba.so\0" + b"x" * 100 + b"\0/b/libb.so\0")
    assert ld_cache_paths(str(big), limit=20) == ["/a/liba.so"]
    # A FIFO (opening one to read blocks until a writer comes) and a directory are no cache.
    os.mkfifo(tmp_path / "fifo")
    assert ld_cache_paths(str(tmp_path / "fifo")) == [] and ld_cache_paths(str(tmp_path)) == []
    assert not driver_present({}, str(tmp_path / "noproc"), str(tmp_path / "fifo"))
    assert ld_cache_paths(str(tmp_path / "missing")) == []


# --------------------------------------------------------------------------- a library file's version

def test_file_version_reads_the_file_behind_links(tmp_path):
    """host/driver.py's copy read the name it was given: libcuda.so.1 (a link) had no version."""
    from cudaenv.host.driver import file_version, same_version

    real = tmp_path / "libcuda.so.580.95.05"
    real.touch()
    (tmp_path / "libcuda.so.1").symlink_to(real.name)
    assert file_version(str(tmp_path / "libcuda.so.1")) == "580.95.05"
    assert file_version(str(real)) == "580.95.05"
    assert file_version(str(tmp_path / "libcuda.so")) is None and file_version(None) is None
    assert same_version("535.161", "535.161.07") and same_version("535.161.07", "535.161")
    assert not same_version("535.161.07", "535.16") and not same_version("550.1", "535.161")
