"""infra/kept.py: values worked out once and kept in the user's cache directory (the knowledge base, the data tables,
the translations of toolchain messages), one copy per installed cudaenv."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from helpers import kept_name

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: Messages whose answers read the compatibility table (an architecture and a driver message) and a plain one.
MESSAGES = ["nvcc fatal   : Unsupported gpu architecture 'compute_89'",
            "CUDA driver version is insufficient for CUDA runtime version",
            "/usr/bin/ld: cannot find -lcudart"]

_PROBE = ("import sys; sys.argv = ['cudaenv', 'explain', '--no-host', sys.argv[1]];"
          "import cudaenv.main as m\ntry:\n    m.main()\nexcept SystemExit:\n    pass\n"
          "sys.stderr.write(repr(sorted(n for n in ('yaml', 'json', 'click') if n in sys.modules)))")


def _explain(root: str, message: str, cache: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=cache, PYTHONPATH=root, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", _PROBE, message], capture_output=True, text=True, cwd=root, env=env,
                          timeout=120)


def _stamps(directory: str) -> dict[str, int]:
    return {n: os.stat(os.path.join(directory, n)).st_mtime_ns for n in os.listdir(directory)}


def test_a_warm_explain_reads_its_tables_without_parsing_them(tmp_path):
    """The first run keeps what it worked out; a second run of any of the messages imports neither YAML nor JSON (the
    compatibility table and the translations come from the cache) and writes nothing."""
    cache = str(tmp_path / "cache")
    first = {m: _explain(REPO, m, cache) for m in MESSAGES}
    kept = os.path.join(cache, "cudaenv")
    assert {"compat.marshal", "explain-kb.marshal", "translations.marshal"} <= set(map(kept_name, os.listdir(kept)))
    before = _stamps(kept)
    for m in MESSAGES:
        again = _explain(REPO, m, cache)
        assert again.stdout == first[m].stdout and again.stdout.startswith("1. "), again.stderr
        assert again.stderr.strip().endswith("[]"), (m, again.stderr)
    assert _stamps(kept) == before


def test_two_installs_keep_a_copy_each(tmp_path):
    """Two copies of cudaenv (a conda base and a project's venv) that take turns on one cache directory keep one file
    each, so neither works the knowledge base out again on every turn; both answer alike."""
    other = tmp_path / "other"
    other.mkdir()
    shutil.copytree(os.path.join(REPO, "cudaenv"), other / "cudaenv",
                    ignore=shutil.ignore_patterns("__pycache__"))
    cache = str(tmp_path / "cache")
    message = MESSAGES[0]
    a, b = _explain(REPO, message, cache), _explain(str(other), message, cache)
    assert a.stdout == b.stdout and a.stdout.startswith("1. "), (a.stderr, b.stderr)
    kept = os.path.join(cache, "cudaenv")
    names = sorted(n for n in os.listdir(kept) if kept_name(n) == "explain-kb.marshal")
    assert len(names) == 2, names
    before = _stamps(kept)
    for root in (REPO, str(other), REPO):
        assert _explain(root, message, cache).stdout == a.stdout
    assert _stamps(kept) == before


def test_a_kept_value_follows_its_source(tmp_path, monkeypatch):
    """A value is kept under what it came from: a changed table is parsed again, and a file that cannot be read keeps
    nothing (worked out each time)."""
    from cudaenv.infra import kept

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    table = tmp_path / "t.yaml"
    table.write_text("a: 1\n")
    assert kept.load_yaml(str(table), "t") == {"a": 1}
    assert os.path.isfile(kept.kept_path("t"))
    table.write_text("a: 22\n")
    assert kept.load_yaml(str(table), "t") == {"a": 22}
    calls = []
    assert kept.file_key(str(tmp_path / "missing")) is None
    assert kept.worked_out("w", None, list, lambda: calls.append(1) or [1]) == [1]
    assert kept.worked_out("w", None, list, lambda: calls.append(1) or [1]) == [1]
    assert calls == [1, 1] and not os.path.exists(kept.kept_path("w"))


def test_a_kept_table_another_user_could_have_written_is_not_read(tmp_path):
    """The compatibility table's and the translations' kept files are read only when private: a poisoned copy (the
    right key, an emptied value) that is group- or world-writable is ignored and worked out again, and a FIFO planted at
    their names is never opened for a blocking read."""
    import marshal

    cache = str(tmp_path / "cache")
    message = MESSAGES[0]  # an architecture message: it reads the compatibility table
    first = _explain(REPO, message, cache)
    kept = os.path.join(cache, "cudaenv")
    names = [n for n in os.listdir(kept) if kept_name(n) in ("compat.marshal", "translations.marshal")]
    assert len(names) == 2, os.listdir(kept)
    for name in names:
        path = os.path.join(kept, name)
        with open(path, "rb") as f:
            key, value = marshal.loads(f.read())
        with open(path, "wb") as f:
            f.write(marshal.dumps((key, type(value)())))
    # the poison is seen when the file is the user's own and private (an emptied table breaks the answer)
    poisoned = _explain(REPO, message, cache)
    assert poisoned.stdout != first.stdout or poisoned.returncode != 0
    for name in names:
        os.chmod(os.path.join(kept, name), 0o666)
    again = _explain(REPO, message, cache)
    assert (again.returncode, again.stdout) == (0, first.stdout), again.stderr
    for name in names:
        os.unlink(os.path.join(kept, name))
        os.mkfifo(os.path.join(kept, name), 0o600)
    fifo = _explain(REPO, message, cache)  # _explain's timeout fails the test if a FIFO is opened and blocks
    assert (fifo.returncode, fifo.stdout) == (0, first.stdout), fifo.stderr


def test_the_untagged_copy_of_older_releases_is_removed_once(tmp_path):
    """Releases before the per-install tags kept the knowledge base as explain-kb.marshal, which nothing reads any more:
    the first run that keeps a value of that name removes it (a file of the user's own; a link is left alone)."""
    cache = str(tmp_path / "cache")
    os.makedirs(os.path.join(cache, "cudaenv"), mode=0o700)
    old = os.path.join(cache, "cudaenv", "explain-kb.marshal")
    with open(old, "wb") as f:
        f.write(b"\0" * 1024)
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep me")
    linked = os.path.join(cache, "cudaenv", "compat.marshal")
    os.symlink(target, linked)
    done = _explain(REPO, MESSAGES[0], cache)
    assert done.returncode == 0, done.stderr
    assert not os.path.exists(old)
    assert os.path.islink(linked) and target.read_bytes() == b"keep me"
    assert any(n.startswith("explain-kb.") and n != "explain-kb.marshal" for n in os.listdir(os.path.join(cache, "cudaenv")))
