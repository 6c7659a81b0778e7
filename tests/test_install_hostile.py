"""`cudaenv install` from a source that is out to harm: hostile archives, wheels and manifests.

The threat model: a mirror, ``--source DIR/URL`` or a config ``sources:`` entry is as good as
whoever controls it, and a manifest's sha256 proves nothing when the same party wrote both. Every
archive and wheel here is built in the test (tarfile / zipfile) and served as a local mirror in
NVIDIA's redist format (``redistrib_<version>.json`` + ``<key>/linux-x86_64/…-archive.tar.xz``) or
as a directory of wheels. HOME is a private directory per test, so "nothing lands outside" is
checked on a tree the test owns (``test_nothing_written_outside_the_prefix_and_the_caches``
snapshots it before and after).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile

import pytest

from helpers import REPO, default_signals

TOP = "cuda_cudart-linux-x86_64-13.5.0-archive"
BASHRC = "# the user's own .bashrc\nexport KEEP=1\n"


# ---------------------------------------------------------------- building hostile sources

class _Zeros(io.RawIOBase):
    """``n`` zero bytes, generated (a bomb is never held in memory by the test either)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        k = min(len(b), self.n)
        b[:k] = bytes(k)
        self.n -= k
        return k


def _tar(path: str, entries: list[tuple], top: str = TOP) -> None:
    """A .tar.xz in NVIDIA's layout; names without a leading ``!`` go under ``top/``.

    Entries: ``("file", name, data[, mode])``, ``("zeros", name, size)``, ``("dir", name)``,
    ``("sym", name, target)``, ``("hard", name, target)``, ``("fifo", name)``, ``("chr", name)``, ``("sparse", name)``,
    ``("pax", name, header_bytes)``.
    """
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tarfile.open(path, "w:xz", preset=0, format=tarfile.PAX_FORMAT) as tar:
        for kind, name, *rest in entries:
            full = name[1:] if name.startswith("!") else f"{top}/{name}"
            ti = tarfile.TarInfo(full)
            data = None
            if kind == "file":
                data = rest[0].encode() if isinstance(rest[0], str) else rest[0]
                ti.size, ti.mode = len(data), rest[1] if len(rest) > 1 else 0o644
                data = io.BytesIO(data)
            elif kind == "zeros":
                ti.size, data = rest[0], io.BufferedReader(_Zeros(rest[0]))
            elif kind == "dir":
                ti.type, ti.mode = tarfile.DIRTYPE, rest[0] if rest else 0o755
            elif kind == "sym":
                ti.type, ti.linkname = tarfile.SYMTYPE, rest[0]
            elif kind == "hard":
                ti.type, ti.linkname = tarfile.LNKTYPE, rest[0] if rest[0].startswith("/") else f"{top}/{rest[0]}"
            elif kind == "fifo":
                ti.type = tarfile.FIFOTYPE
            elif kind == "sparse":
                ti.type = tarfile.GNUTYPE_SPARSE
            elif kind == "chr":
                ti.type, ti.devmajor, ti.devminor = tarfile.CHRTYPE, 1, 3
            elif kind == "pax":
                ti.pax_headers = {"comment": "x" * rest[0]}
                ti.size, data = 0, io.BytesIO(b"")
            tar.addfile(ti, data)


def _sha(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _mirror(d: str, archives: dict[str, list[tuple]], label: str = "13.5.0", edit=None) -> str:
    """A redist mirror at ``d``: one archive per component key, the manifest in NVIDIA's format."""
    doc: dict = {"release_date": "2026-11-04", "release_label": label, "release_product": "cuda"}
    for key, entries in archives.items():
        rel = f"{key}/linux-x86_64/{key}-linux-x86_64-13.5.0-archive.tar.xz"
        _tar(os.path.join(d, rel), entries, top=f"{key}-linux-x86_64-13.5.0-archive")
        doc[key] = {"name": key, "license": "CUDA Toolkit", "version": "13.5.37",
                    "linux-x86_64": {"relative_path": rel, "sha256": _sha(os.path.join(d, rel)),
                                     "md5": "0" * 32, "size": str(os.path.getsize(os.path.join(d, rel)))}}
    if edit:
        edit(doc)
    with open(os.path.join(d, f"redistrib_{label if isinstance(label, str) and '/' not in label else '13.5.0'}.json"),
              "w") as f:
        json.dump(doc, f)
    return d


def _good(extra: list[tuple] | None = None) -> list[tuple]:
    return [("dir", "lib"), ("file", "lib/libcudart.so.13.5.37", b"\x7fELF fake", 0o755),
            ("sym", "lib/libcudart.so.13", "libcudart.so.13.5.37"),
            ("file", "include/cuda_runtime.h", "/* runtime */\n")] + (extra or [])


def _wheel(path: str, files: dict[str, bytes], dist: str, version: str, metadata: str = "",
           zeros: tuple[str, int] | None = None) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    info = f"{dist.replace('-', '_')}-{version}.dist-info"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in files.items():
            z.writestr(name, data)
        if zeros:
            with z.open(zeros[0], "w", force_zip64=True) as f:
                blk = bytes(1 << 20)
                for _ in range(zeros[1] >> 20):
                    f.write(blk)
        if not zeros or not zeros[0].endswith("METADATA"):
            z.writestr(f"{info}/METADATA", metadata or f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: py3-none-any\n")


def _wheelhouse(d: str, runtime_files: dict[str, bytes] | None = None, zeros=None, meta_zeros=None) -> str:
    """A directory of wheels: the cuda-toolkit 13.5.0 meta-wheel and nvidia-cuda-runtime 13.5.37."""
    meta = ("Metadata-Version: 2.1\nName: cuda-toolkit\nVersion: 13.5.0\nProvides-Extra: cudart\n"
            "Requires-Dist: nvidia-cuda-runtime==13.5.37.*; extra == 'cudart'\n\n")
    _wheel(os.path.join(d, "cuda_toolkit-13.5.0-py2.py3-none-any.whl"), {}, "cuda-toolkit", "13.5.0", meta,
           zeros=("cuda_toolkit-13.5.0.dist-info/METADATA", meta_zeros) if meta_zeros else None)
    files = runtime_files if runtime_files is not None else {"nvidia/cu13/lib/libcudart.so.13": b"\x7fELF fake"}
    _wheel(os.path.join(d, "nvidia_cuda_runtime-13.5.37-py3-none-manylinux2014_x86_64.whl"), files,
           "nvidia-cuda-runtime", "13.5.37", zeros=zeros)
    return d


# ---------------------------------------------------------------- running cudaenv

def _env(tmp_path, **extra) -> dict:
    home = tmp_path / "home"
    if not home.exists():
        home.mkdir()
        (home / ".bashrc").write_text(BASHRC)
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"),
               XDG_CACHE_HOME=str(home / ".cache"), XDG_CONFIG_HOME=str(home / ".config"), PYTHONPATH=REPO)
    for var in ("CUDAENV_ROOTS", "CUDAENV_INSTALL_CACHE", "PIP_CONFIG_FILE", "PIP_INDEX_URL", "CC"):
        env.pop(var, None)
    env["PIP_CONFIG_FILE"] = os.devnull
    env.update(extra)
    return env


def _toolkits(env: dict) -> str:
    return os.path.join(env["XDG_DATA_HOME"], "cudaenv", "toolkits")


def _cudaenv(args: list[str], env: dict, cwd: str | None = None, timeout: float = 120):
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd or env["HOME"])


# Runs cudaenv as its child and writes the child's peak RSS (KiB) to argv[1]. A small process of its
# own: a child forked straight from pytest would count pytest's pages in its peak.
_RSS = ("import resource, subprocess, sys\n"
        "rc = subprocess.call(sys.argv[2:])\n"
        "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
        "sys.exit(rc)\n")


def _cudaenv_rss(args: list[str], env: dict, tmp_path, timeout: float = 120) -> tuple[int, str, str, int]:
    """Exit status, stdout, stderr and the peak resident memory (KiB) of one cudaenv process."""
    rss = tmp_path / "rss.txt"
    r = subprocess.run([sys.executable, "-c", _RSS, str(rss), sys.executable, "-m", "cudaenv", *args], env=env,
                       capture_output=True, text=True, timeout=timeout, cwd=env["HOME"])
    return r.returncode, r.stdout, r.stderr, int(rss.read_text())


_PROGRESS = ("cudaenv: installing CUDA ", "cudaenv: fetching ", "cudaenv: installed ")


def _one_line_error(r, code: int | None = None) -> None:
    """Non-zero, nothing on stdout, one line on stderr besides the progress lines of a started install."""
    assert r.returncode != 0 and (code is None or r.returncode == code), (r.returncode, r.stderr)
    assert r.stdout == "", r.stdout
    lines = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith(_PROGRESS)]
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr


def _nothing_installed(env: dict) -> None:
    d = _toolkits(env)
    left = [n for n in os.listdir(d) if not n.endswith(".lock")] if os.path.isdir(d) else []
    assert left == [], left


def _escapes(home: str, staging_parent: str) -> dict[str, list[tuple]]:
    """Archive contents that each try to write ``home/.bashrc`` from a staging directory in ``staging_parent``."""
    up = os.path.relpath(home, os.path.join(staging_parent, ".staging"))  # ../../.. (or ../../home)
    ups = up.split("/").count("..")
    tail = [p for p in up.split("/") if p != ".."]
    deep = "a/b/c/d/e/f/g/h"
    back = "/".join([".."] * deep.count("/"))
    return {
        "absolute name": [("file", f"!{home}/.bashrc", "pwned\n")],
        "dot-dot name": [("file", f"lib/../../{up}/.bashrc", "pwned\n")],
        "absolute link": [("sym", "lib/rc", f"{home}/.bashrc"), ("file", "lib/rc", "pwned\n")],
        "dot-dot link": [("sym", "home", up), ("file", "home/.bashrc", "pwned\n")],
        # Each link looks inside from where its name puts it, but `deep/l` leads back to the root,
        # so `deep/l/x` is made AT the root, where its `..`s leave the tree.
        "link chain": [("dir", deep), ("sym", f"{deep}/l", back + "/.."), ("sym", f"{deep}/l/x", up),
                       ("file", "x/.bashrc", "pwned\n")],
        # A dangling link that is inside by its text; the later `d -> .` makes it lead outside.
        "late link": [("dir", "lib/x"), ("sym", "lib/home", "/".join(["d"] * ups + ["x"] + [".."] * (ups + 2) + tail)),
                      ("sym", "lib/d", "."), ("file", "lib/home/.bashrc", "pwned\n")],
        "hard link out": [("hard", "lib/rc", f"{home}/.bashrc")],
        "hard link dot-dot": [("hard", "lib/rc", f"../../{up}/.bashrc")],
        "hard link through a link": [("sym", "lib/out", up), ("hard", "lib/rc", "lib/out/.bashrc")],
        "fifo": [("fifo", "lib/pipe")],
        "device": [("chr", "lib/null")],
        "sparse": [("sparse", "lib/holes")],
        "huge pax header": [("pax", "lib/x", 4 << 20)],
    }


@pytest.mark.slow
def test_hostile_archives_write_nothing_outside(tmp_path):
    """Every class of escape is one line on stderr, nothing on stdout, nothing installed, ~/.bashrc intact."""
    env = _env(tmp_path)
    for i, (case, entries) in enumerate(_escapes(env["HOME"], _toolkits(env)).items()):
        src = _mirror(str(tmp_path / f"m{i}"), {"cuda_cudart": _good(entries)})
        r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart"], env)
        assert (tmp_path / "home" / ".bashrc").read_text() == BASHRC, case
        _one_line_error(r)
        _nothing_installed(env)
        assert "refusing" in r.stderr or "broken archive" in r.stderr, (case, r.stderr)


def test_layout_from_a_good_archive_and_modes(tmp_path):
    """What a real archive holds still installs: links inside, hard links inside, modes as tarfile's data filter."""
    env = _env(tmp_path, PATH="/nonexistent")  # no C compiler: the stub is optional for runtime parts
    src = _mirror(str(tmp_path / "m"), {"cuda_cudart": _good([
        ("file", "bin/tool", "#!/bin/sh\n", 0o6777), ("file", "lib/plain", "x", 0o666),
        ("dir", "share", 0o1777), ("hard", "lib/libcudart.so.same", "lib/libcudart.so.13.5.37"),
        ("dir", "lib/inner"), ("sym", "lib/up", "inner/.."), ("file", "lib/up/viaup", "ok"),
        ("file", "include/cuda.h", "#define CUDA_VERSION 13050\n")])})
    r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart"], env)
    assert r.returncode == 0, r.stderr
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    assert r.stdout == root + "\n"
    mode = lambda p: os.stat(os.path.join(root, p)).st_mode & 0o7777  # noqa: E731
    assert mode("bin/tool") == 0o755 and mode("lib/plain") == 0o644  # no setuid/setgid, no group/other write
    assert not mode("share") & 0o7000
    assert os.path.samefile(os.path.join(root, "lib/libcudart.so.same"), os.path.join(root, "lib/libcudart.so.13.5.37"))
    assert open(os.path.join(root, "lib/viaup")).read() == "ok"
    assert os.readlink(os.path.join(root, "lib64")) == "lib"
    assert "warning" not in r.stderr and "Traceback" not in r.stderr


def test_finish_never_follows_a_link_out_of_the_tree(tmp_path):
    """The layout step on a tree whose cccl/, lib/ or lib/stubs are links out: the user's files stay put."""
    from cudaenv.install.unpack import finish

    mine = tmp_path / "mine"
    (mine / "lib" / "cmake" / "proj").mkdir(parents=True)
    (mine / "lib" / "cmake" / "proj" / "keep.cmake").write_text("mine")
    (mine / "libfoo.so.1").write_text("mine")
    before = sorted(str(p.relative_to(mine)) for p in mine.rglob("*"))
    for layout in ("cccl", "lib", "stubs"):
        root = tmp_path / f"tree-{layout}"
        (root / "include").mkdir(parents=True)
        (root / "include" / "cuda.h").write_text("#define CUDA_VERSION 13050\n")
        if layout == "cccl":
            os.symlink(str(mine), root / "cccl")
            (root / "lib").mkdir()
        elif layout == "lib":
            os.symlink(str(mine), root / "lib")
        else:
            (root / "lib").mkdir()
            os.symlink(str(mine), root / "lib" / "stubs")
        (root / ".work").mkdir()
        with pytest.raises(Exception, match="outside|absolute"):
            finish(str(root), {"PATH": "/nonexistent"}, str(root / ".work"))
        assert sorted(str(p.relative_to(mine)) for p in mine.rglob("*")) == before, layout
        assert (mine / "lib" / "cmake" / "proj" / "keep.cmake").read_text() == "mine"


@pytest.mark.slow
def test_bombs_are_bounded(tmp_path):
    """A 31 KB archive of 200 MB, one of 30000 empty files, a wheel of 300 MB: refused, nothing left."""
    env = _env(tmp_path)
    cases = {
        "bytes": [("zeros", "lib/zeros", 200 << 20)],
        "files": [("dir", "include/many")] + [("file", f"include/many/{i}", "") for i in range(30000)],
    }
    for case, entries in cases.items():
        src = _mirror(str(tmp_path / case), {"cuda_cudart": _good(entries)})
        assert os.path.getsize(os.path.join(src, "cuda_cudart/linux-x86_64/"
                                            "cuda_cudart-linux-x86_64-13.5.0-archive.tar.xz")) < 1 << 20
        r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart"], env)
        _one_line_error(r)
        assert "decompression bomb" in r.stderr, r.stderr
        _nothing_installed(env)
    src = _wheelhouse(str(tmp_path / "wheels"), zeros=("nvidia/cu13/lib/zeros", 300 << 20))
    rc, out, err, _rss = _cudaenv_rss(["install", "13.5.0", "--source", src, "--parts", "cudart"], env, tmp_path)
    assert rc != 0 and out == "" and "decompression bomb" in err.splitlines()[-1] and "Traceback" not in err, err
    _nothing_installed(env)


@pytest.mark.slow
def test_a_metadata_bomb_in_the_meta_wheel_takes_little_memory(tmp_path):
    """The cuda-toolkit meta-wheel's METADATA inflating to 400 MB: one line, and memory stays small."""
    env = _env(tmp_path)
    src = _wheelhouse(str(tmp_path / "wheels"), meta_zeros=400 << 20)
    assert os.path.getsize(os.path.join(src, "cuda_toolkit-13.5.0-py2.py3-none-any.whl")) < 1 << 20
    rc, out, err, rss = _cudaenv_rss(["install", "13.5.0", "--source", src, "--parts", "cudart"], env, tmp_path)
    assert rc != 0 and out == "" and "METADATA larger than" in err and "Traceback" not in err, err
    assert rss < 200 << 10, f"peak RSS {rss >> 10} MiB"


def test_a_wheel_cannot_escape_either(tmp_path):
    env = _env(tmp_path)
    up = os.path.relpath(env["HOME"], os.path.join(_toolkits(env), ".staging"))
    for i, name in enumerate([f"nvidia/cu13/../../{up}/.bashrc", f"nvidia/cu13/lib/../../../{up}/.bashrc",
                              f"cuda_toolkit-13.5.0.dist-info/../../{up}/.bashrc"]):
        src = _wheelhouse(str(tmp_path / f"w{i}"), runtime_files={name: b"pwned\n",
                                                                  "nvidia/cu13/lib/libcudart.so.13": b"x"})
        r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cudart"], env)
        _one_line_error(r)
        assert (tmp_path / "home" / ".bashrc").read_text() == BASHRC
        _nothing_installed(env)


# ---------------------------------------------------------------- hostile manifests

def _set(path: list, value):
    def edit(doc):
        d = doc
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return edit


_PLAT = ["cuda_cudart", "linux-x86_64"]
HOSTILE_MANIFESTS = {
    "label traversal": ("../../../../evil", None),
    "label with a slash": ("13.5.0/../../x", None),
    "label a number": (13.5, None),
    "label not asked": ("13.6.0", None),
    "label empty": ("", None),
    "relative_path URL": ("13.5.0", _set(_PLAT + ["relative_path"], "http://127.0.0.1:1/x.tar.xz")),
    "relative_path other host": ("13.5.0", _set(_PLAT + ["relative_path"], "//127.0.0.1:1/x.tar.xz")),
    "relative_path dot-dot": ("13.5.0", _set(_PLAT + ["relative_path"], "a/../../x.tar.xz")),
    "relative_path absolute": ("13.5.0", _set(_PLAT + ["relative_path"], "/etc/passwd")),
    "relative_path percent": ("13.5.0", _set(_PLAT + ["relative_path"], "a/%2e%2e/%2e%2e/x.tar.xz")),
    "relative_path number": ("13.5.0", _set(_PLAT + ["relative_path"], 5)),
    "sha256 traversal": ("13.5.0", _set(_PLAT + ["sha256"], ("../" * 22)[:64])),
    "sha256 not hex": ("13.5.0", _set(_PLAT + ["sha256"], "g" * 64)),
    "size negative": ("13.5.0", _set(_PLAT + ["size"], "-5")),
    "size negative int": ("13.5.0", _set(_PLAT + ["size"], -5)),
    "size float": ("13.5.0", _set(_PLAT + ["size"], 1.5)),
    "size exponent": ("13.5.0", _set(_PLAT + ["size"], "1e3")),
    "size list": ("13.5.0", _set(_PLAT + ["size"], [])),
    "size bool": ("13.5.0", _set(_PLAT + ["size"], True)),
    "platform a list": ("13.5.0", _set(_PLAT, [])),
    "key with a newline": ("13.5.0", lambda d: d.update({"x\ny": d["cuda_cudart"]})),
    "version an object": ("13.5.0", _set(["cuda_cudart", "version"], {"a": 1})),
    "version multi-line": ("13.5.0", _set(["cuda_cudart", "version"], "1\nerror: fake")),
    "name a number": ("13.5.0", _set(["cuda_cudart", "name"], 5)),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_MANIFESTS))
def test_hostile_manifest_is_one_line(tmp_path, case):
    label, edit = HOSTILE_MANIFESTS[case]
    env = _env(tmp_path)
    src = _mirror(str(tmp_path / "m"), {"cuda_cudart": _good()}, label=label, edit=edit)
    if label != "13.5.0" and os.path.exists(os.path.join(src, "redistrib_13.5.0.json")) is False:
        os.rename(next(os.path.join(src, n) for n in os.listdir(src) if n.startswith("redistrib_")),
                  os.path.join(src, "redistrib_13.5.0.json"))
    r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart"], env)
    _one_line_error(r)
    _nothing_installed(env)
    assert not os.path.exists(os.path.join(env["XDG_DATA_HOME"], "evil"))
    assert sorted(os.listdir(tmp_path)) == ["home", "m"]


@pytest.mark.parametrize("doc", [b"[]", b'"text"', b"[" * 100000, b'{"release_label": "13.5.0", "x": {"linux-x86_64": 1}}'])
def test_manifest_of_the_wrong_shape(tmp_path, doc):
    env = _env(tmp_path)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "redistrib_13.5.0.json").write_bytes(doc)
    r = _cudaenv(["install", "13.5", "--source", str(tmp_path / "m")], env)
    _one_line_error(r)


def test_index_sha256_cannot_name_a_path():
    from cudaenv.install import wheels

    page = json.dumps({"files": [{"filename": "a-1.0-py3-none-any.whl", "url": "a.whl",
                                  "hashes": {"sha256": ("../" * 22)[:64]}},
                                 {"filename": "b-1.0-py3-none-any.whl", "url": "b.whl", "size": -1,
                                  "hashes": {"sha256": "a" * 64}},
                                 {"filename": "c-1.0-py3-none-any.whl", "url": "c.whl", "size": "12",
                                  "hashes": {"sha256": "A" * 64}}]}).encode()
    got = wheels._page_files(page, "https://x/simple/a/")
    assert [(f["filename"], f["sha256"]) for f in got] == [("a-1.0-py3-none-any.whl", None)]
    html = b'<a href="a.whl#sha256=../../../../../../../../../../../../../../../../../../../../../x">a.whl</a>'
    assert wheels._page_files(html, "https://x/simple/a/")[0]["sha256"] is None


# ---------------------------------------------------------------- nothing lost

def test_force_keeps_the_old_tree_until_the_new_one_is_complete(tmp_path):
    env = _env(tmp_path)
    good = _mirror(str(tmp_path / "good"), {"cuda_cudart": _good([("file", "lib/old-marker", "v1")])})
    assert _cudaenv(["install", "13.5.0", "--source", good, "--parts", "cuda_cudart"], env).returncode == 0
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    bad = _mirror(str(tmp_path / "bad"), {"cuda_cudart": _good([("sym", "lib/esc", "../../../..")])})
    r = _cudaenv(["install", "13.5.0", "--force", "--source", bad, "--parts", "cuda_cudart"], env)
    _one_line_error(r)
    assert open(os.path.join(root, "lib", "old-marker")).read() == "v1"
    assert sorted(os.listdir(_toolkits(env))) == [".cuda-13.5.0.lock", "cuda-13.5.0"]
    # and a good --force replaces it
    new = _mirror(str(tmp_path / "new"), {"cuda_cudart": _good([("file", "lib/new-marker", "v2")])})
    r = _cudaenv(["install", "13.5.0", "--force", "--source", new, "--parts", "cuda_cudart"], env)
    assert r.returncode == 0, r.stderr
    assert os.path.exists(os.path.join(root, "lib", "new-marker")) and \
        not os.path.exists(os.path.join(root, "lib", "old-marker"))
    assert sorted(os.listdir(_toolkits(env))) == [".cuda-13.5.0.lock", "cuda-13.5.0"]


def test_a_tree_set_aside_by_a_killed_force_is_put_back(tmp_path):
    """A --force killed between its two renames left the old tree as .cuda-X.old-PID: the next install restores it."""
    env = _env(tmp_path)
    good = _mirror(str(tmp_path / "good"), {"cuda_cudart": _good()})
    assert _cudaenv(["install", "13.5.0", "--source", good, "--parts", "cuda_cudart"], env).returncode == 0
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    os.rename(root, os.path.join(_toolkits(env), ".cuda-13.5.0.old-99999"))
    r = _cudaenv(["install", "13.5.0", "--source", "http://127.0.0.1:1/", "--parts", "cuda_cudart"], env)
    assert r.returncode == 0 and r.stdout == root + "\n", r.stderr
    assert sorted(os.listdir(_toolkits(env))) == [".cuda-13.5.0.lock", "cuda-13.5.0"]


def test_installed_toolkit_answers_offline(tmp_path):
    """README: an installed version is left alone (exit 0), also when no source can be reached."""
    env = _env(tmp_path)
    good = _mirror(str(tmp_path / "good"), {"cuda_cudart": _good()})
    prefix = str(tmp_path / "sw" / "cuda")
    for extra in ([], ["--prefix", prefix]):
        assert _cudaenv(["install", "13.5", "--source", good, "--parts", "cuda_cudart", *extra], env).returncode == 0
        for want in ("13.5", "13", "13.5.0"):
            r = _cudaenv(["install", want, "--source", "http://127.0.0.1:1/", "--parts", "cuda_cudart", *extra], env)
            assert r.returncode == 0, (want, extra, r.stderr)
            assert r.stdout.strip() == (prefix if extra else os.path.join(_toolkits(env), "cuda-13.5.0"))
    r = _cudaenv(["install", "12.4", "--source", "http://127.0.0.1:1/", "--prefix", prefix], env)
    assert r.returncode == 2 and r.stdout == "" and "no source offers CUDA 12.4" in r.stderr, r.stderr


# ---------------------------------------------------------------- uninstall

def test_uninstall_removes_only_what_cudaenv_installed(tmp_path):
    env = _env(tmp_path)
    good = _mirror(str(tmp_path / "good"), {"cuda_cudart": _good()})
    prefix = str(tmp_path / "sw" / "cuda")
    assert _cudaenv(["install", "13.5.0", "--source", good, "--parts", "cuda_cudart", "--prefix", prefix],
                    env).returncode == 0
    # A directory of the user's holding a file of that name (a copy, a clone) is not cudaenv's.
    mine = tmp_path / "home" / "project"
    mine.mkdir()
    (mine / "keep.c").write_text("mine")
    (mine / "cudaenv-install.json").write_text(json.dumps({"format": 1, "version": "13.5.0"}))
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", prefix, str(copy)], check=True)
    link = tmp_path / "link"
    os.symlink(prefix, link)
    for target in (str(mine), str(copy), str(link), "~/project"):
        r = _cudaenv(["uninstall", target], env)
        _one_line_error(r, 2)
    assert (mine / "keep.c").read_text() == "mine" and (copy / "lib").is_dir() and os.path.isdir(prefix)
    assert os.path.islink(link)
    r = _cudaenv(["uninstall", prefix], env)
    assert r.returncode == 0 and r.stdout == "", r.stderr
    assert r.stderr.strip().splitlines() == [f"cudaenv: removed {prefix} (CUDA 13.5.0)"]
    assert not os.path.exists(prefix)
    r = _cudaenv(["uninstall", "13.5"], env)
    _one_line_error(r, 2)


def _nvcc_archive() -> list[tuple]:
    return _good([("file", "bin/nvcc", "#!/bin/sh\necho 'Cuda compilation tools, release 13.5, V13.5.37'\n", 0o755),
                  ("file", "include/cuda.h", "#define CUDA_VERSION 13050\nCUresult cuInit(unsigned int);\n")])


def test_uninstall_removes_the_profile_it_wrote_and_says_so(tmp_path):
    env = _env(tmp_path)
    good = _mirror(str(tmp_path / "good"), {"cuda_cudart": _nvcc_archive()})
    r = _cudaenv(["install", "13.5.0", "--source", good, "--parts", "cuda_cudart"], env)
    assert r.returncode == 0, r.stderr
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    profiles = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    written = sorted(os.listdir(profiles))
    assert written == ["cuda-13.5.yaml"] or len(written) == 1, written
    other = os.path.join(profiles, "mine.yaml")
    with open(other, "w") as f:
        f.write(f"name: mine\nroot: {root}\n")
    r = _cudaenv(["uninstall", "13.5"], env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [f"cudaenv: removed {root} (CUDA 13.5.0)",
                                             f"cudaenv: removed profile {os.path.join(profiles, written[0])}"]
    assert sorted(os.listdir(profiles)) == ["mine.yaml"]  # the user's own profile is theirs


def test_no_c_compiler(tmp_path):
    """The libcuda stub is optional: runtime parts install silently, a toolkit with nvcc gets a warning."""
    env = _env(tmp_path, PATH=str(tmp_path / "empty-bin"))
    (tmp_path / "empty-bin").mkdir()
    src = _mirror(str(tmp_path / "rt"), {"cuda_cudart": _good([("file", "include/cuda.h", "#define X\n")])})
    r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart"], env)
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr
    src = _mirror(str(tmp_path / "b"), {"cuda_cudart": _nvcc_archive()})
    r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart", "--prefix",
                  str(tmp_path / "b-root")], env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("no libcuda stub") == 1 and "Traceback" not in r.stderr, r.stderr


def test_prefix_tilde(tmp_path):
    env = _env(tmp_path)
    src = _mirror(str(tmp_path / "m"), {"cuda_cudart": _good()})
    r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart", "--prefix", "~nosuchuser/x"], env,
                 cwd=str(tmp_path))
    _one_line_error(r, 2)
    assert "nosuchuser" in r.stderr and not os.path.exists(tmp_path / "~nosuchuser")
    for args in (["install", "13.5.0", "--source", "~nosuchuser/m"], ["uninstall", "~nosuchuser/x"]):
        _one_line_error(_cudaenv(args, env, cwd=str(tmp_path)), 2)
    r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart", "--prefix", "~/x"], env,
                 cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout == f"{tmp_path}/home/x\n", r.stderr
    import pwd

    from cudaenv.commands.install import expand_path

    me = pwd.getpwuid(os.getuid())
    assert expand_path(f"~{me.pw_name}/x", "--prefix") == os.path.join(me.pw_dir, "x")


# ---------------------------------------------------------------- the whole file system it can see

def _snapshot(*tops: str, skip: tuple[str, ...]) -> dict:
    out = {}
    for top in tops:
        for dirpath, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if os.path.join(dirpath, d) not in skip]
            for n in [dirpath] + [os.path.join(dirpath, f) for f in files] + \
                    [os.path.join(dirpath, d) for d in dirs if os.path.islink(os.path.join(dirpath, d))]:
                if n in skip:
                    continue
                st = os.lstat(n)
                extra = os.readlink(n) if os.path.islink(n) else _sha(n) if os.path.isfile(n) else None
                if os.path.isdir(n) and not os.path.islink(n):  # its entries are compared one by one
                    out[n] = (st.st_mode, st.st_ino)
                else:
                    out[n] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_nlink, extra)
    return out


@pytest.mark.slow
def test_nothing_written_outside_the_prefix_and_the_caches(tmp_path):
    """Every hostile install above, into the default prefix and into --prefix: HOME and the prefix's
    parent are the same before and after, but for the prefix, cudaenv's own data/cache/config
    directories and the install lock beside the prefix."""
    env = _env(tmp_path)
    home = env["HOME"]
    (tmp_path / "home" / "docs").mkdir()
    (tmp_path / "home" / "docs" / "notes.txt").write_text("mine")
    parent = tmp_path / "opt"
    parent.mkdir()
    (parent / "neighbour").mkdir()
    (parent / "neighbour" / "file").write_text("theirs")
    prefix = str(parent / "cuda")
    mirrors = tmp_path / "mirrors"
    ours = tuple(os.path.join(home, p, "cudaenv") for p in (".local/share", ".cache", ".config"))
    skip = ours + (prefix, os.path.join(str(parent), ".cuda.lock"))
    before = _snapshot(home, str(parent), skip=skip)
    cases = {name: (e, []) for name, e in _escapes(home, _toolkits(env)).items()}
    cases.update({name + " (prefix)": (e, ["--prefix", prefix]) for name, e in _escapes(home, str(parent)).items()})
    for n, (case, (entries, extra)) in enumerate(cases.items()):
        src = _mirror(str(mirrors / str(n)), {"cuda_cudart": _good(entries)})
        r = _cudaenv(["install", "13.5.0", "--source", src, "--parts", "cuda_cudart", *extra], env)
        assert r.returncode != 0, (case, extra)
    wh = _wheelhouse(str(mirrors / "w"), runtime_files={
        "nvidia/cu13/../../../../../../.bashrc": b"pwned", "nvidia/cu13/lib/libcudart.so.13": b"x"})
    assert _cudaenv(["install", "13.5.0", "--source", wh, "--parts", "cudart"], env).returncode != 0
    after = _snapshot(home, str(parent), skip=skip)
    # New directories on the way to cudaenv's own (~/.cache, ~/.local/share) are expected; nothing else.
    way = lambda k: any(o.startswith(k + "/") for o in ours)  # noqa: E731
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k) and not way(k))
    assert changed == [], changed
    assert (tmp_path / "home" / ".bashrc").read_text() == BASHRC


def test_archives_unpacked_in_parallel_share_directories_and_files(tmp_path):
    """Components unpack at the same time into one tree: both make include/ and lib/, both bring a
    LICENSE; neither may fail for what the other just made (the no-follow, exclusive writes)."""
    from concurrent.futures import ThreadPoolExecutor

    from cudaenv.install.unpack import unpack

    paths = []
    for k in range(8):
        entries = [("dir", "include"), ("dir", "lib"), ("file", "LICENSE", f"license {k}\n")]
        entries += [("file", f"include/h{k}_{i}.h", "x" * 100) for i in range(40)]
        entries += [("file", "include/shared.h", f"{k}\n"), ("sym", "lib/libshared.so", f"libc{k}.so.1")]
        paths.append(str(tmp_path / f"c{k}.tar.xz"))
        _tar(paths[-1], entries, top=f"c{k}-linux-x86_64-1.0-archive")
    for rnd in range(5):
        root = tmp_path / f"root{rnd}"
        root.mkdir()
        with ThreadPoolExecutor(8) as pool:
            counts = list(pool.map(lambda kp: unpack(kp[1], {"key": f"c{kp[0]}", "version": "1.0", "kind": "tar",
                                                             "how": "all"}, str(root)), enumerate(paths)))
        assert counts == [43] * 8
        assert len(os.listdir(root / "include")) == 8 * 40 + 1 and (root / "LICENSE").is_file()
        assert os.readlink(root / "lib" / "libshared.so").startswith("libc")


def test_a_link_another_unpack_is_replacing_is_left_to_that_unpack(tmp_path, monkeypatch):
    """The final link check of one archive walks a tree other archives are still unpacking into: a link they both
    bring can vanish between "is a link" and reading it (another thread is replacing it). That is no broken archive
    (a cold CI run failed so, 1 in 5 000 tests); the link that stays is checked by the unpack that wrote it. A link
    that does lead outside is still refused."""
    from cudaenv.errors import CudaenvError
    from cudaenv.install import unpack as unpack_mod

    root = tmp_path / "root"
    (root / "lib").mkdir(parents=True)
    os.symlink("libc1.so.1", root / "lib" / "libshared.so")
    tree = unpack_mod._Tree(str(root), "c1 1.0")
    real = os.readlink
    replaced = []

    def replacing(p, *a, **k):  # the other thread unlinks it just before this read
        if str(p).endswith("libshared.so") and not replaced:
            replaced.append(p)
            raise FileNotFoundError(2, "No such file or directory", str(p))
        return real(p, *a, **k)

    monkeypatch.setattr(unpack_mod.os, "readlink", replacing)
    tree.check_links()
    assert replaced
    os.unlink(root / "lib" / "libshared.so")
    os.symlink("../../../etc/passwd", root / "lib" / "libshared.so")
    with pytest.raises(CudaenvError):
        tree.check_links()


def test_interrupted_force_leaves_the_old_tree(tmp_path):
    """Ctrl-C in the middle of `install --force` (a download trickling from a real local server):
    exit 130, the toolkit that was there is still there, whole, and still cudaenv's."""
    import http.server
    import signal
    import threading
    import time

    env = _env(tmp_path)
    good = _mirror(str(tmp_path / "good"), {"cuda_cudart": _good([("file", "lib/old-marker", "v1")])})
    assert _cudaenv(["install", "13.5.0", "--source", good, "--parts", "cuda_cudart"], env).returncode == 0
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    before = sorted(os.listdir(os.path.join(root, "lib")))
    new = _mirror(str(tmp_path / "new"), {"cuda_cudart": _good([("file", "lib/bytes", os.urandom(1 << 20))])})
    gate = threading.Event()

    class Trickle(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = os.path.join(new, self.path.lstrip("/"))
            if not os.path.isfile(path):
                self.send_error(404)
                return
            data = open(path, "rb").read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:  # all but the end, then the end only once the test has sent its Ctrl-C
                self.wfile.write(data[:-4096])
                self.wfile.flush()
                if path.endswith(".tar.xz"):
                    gate.wait(60)
                self.wfile.write(data[-4096:])
            except (BrokenPipeError, ConnectionResetError):
                pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}/"
        proc = subprocess.Popen([sys.executable, "-m", "cudaenv", "install", "13.5.0", "--force", "--source", url,
                                 "--parts", "cuda_cudart"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, preexec_fn=default_signals)
        partial = os.path.join(env["XDG_CACHE_HOME"], "cudaenv", "downloads", "partial")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (os.path.isdir(partial) and os.listdir(partial)):
            time.sleep(0.05)
        assert os.path.isdir(partial) and os.listdir(partial), "the download never started"
        proc.send_signal(signal.SIGINT)
        gate.set()  # the download can end now (cudaenv's main thread took the signal at once)
        out, err = proc.communicate(timeout=60)
    finally:
        gate.set()
        srv.shutdown()
        srv.server_close()
    assert proc.returncode == 130 and out == "", err
    assert sorted(os.listdir(os.path.join(root, "lib"))) == before
    assert open(os.path.join(root, "lib", "old-marker")).read() == "v1"
    assert sorted(os.listdir(_toolkits(env))) == [".cuda-13.5.0.lock", "cuda-13.5.0"]
    r = _cudaenv(["uninstall", "13.5.0"], env)
    assert r.returncode == 0 and not os.path.exists(root), r.stderr


def _readlink_vanishing_once(monkeypatch, unpack_mod, suffix: str) -> list:
    """The first readlink of a path ending in ``suffix`` finds it gone (another archive's thread unlinked it between
    the caller's lstat and its readlink); the list returned records that read."""
    real = os.readlink
    replaced: list = []

    def replacing(p, *a, **k):
        if str(p).endswith(suffix) and not replaced:
            replaced.append(str(p))
            raise FileNotFoundError(2, "No such file or directory", str(p))
        return real(p, *a, **k)

    monkeypatch.setattr(unpack_mod.os, "readlink", replacing)
    return replaced


def test_a_link_replaced_while_the_reference_filter_reads_it_is_asked_again(tmp_path, monkeypatch):
    """tarfile's data filter takes the real path of a link member's own name; when another archive's thread is
    replacing that link (both bring lib/libshared.so), an older Python's realpath reads it between lstat and readlink
    and raises FileNotFoundError (a cold CI run on 3.11.7 failed so: "broken archive ... No such file or
    directory"). That is no broken archive: the filter is asked again. The other thread's unlink is made to fall
    exactly in that window here, the first time the link is read."""
    from cudaenv.install import unpack as unpack_mod

    if getattr(tarfile, "data_filter", None) is None:
        pytest.skip("this Python's tarfile has no data filter")
    path = str(tmp_path / "c1.tar.xz")
    _tar(path, [("dir", "lib"), ("file", "lib/libc1.so.1", "x"), ("sym", "lib/libshared.so", "libc1.so.1")],
         top="c1-linux-x86_64-1.0-archive")
    root = tmp_path / "root"
    (root / "lib").mkdir(parents=True)
    os.symlink("libc0.so.1", root / "lib" / "libshared.so")  # another archive's, being replaced
    real = os.readlink
    replaced = _readlink_vanishing_once(monkeypatch, unpack_mod, "libshared.so")
    n = unpack_mod.unpack(path, {"key": "c1", "version": "1.0", "kind": "tar", "how": "all"}, str(root))
    assert n == 2 and replaced  # the file and the link (a directory is not counted); the window was hit
    assert real(root / "lib" / "libshared.so") == "libc1.so.1"


def test_a_parent_link_replaced_while_it_is_walked_is_looked_at_again(tmp_path, monkeypatch):
    """The same race one step earlier: a file is written under a directory link (lib64 -> lib) that another
    archive's thread is replacing; the walk saw a link (lstat) that is gone when it reads it (readlink). It looks
    again and writes through the link that is there, inside the tree."""
    from cudaenv.install import unpack as unpack_mod

    path = str(tmp_path / "c1.tar.xz")
    _tar(path, [("file", "lib64/libc1.so.1", "x")], top="c1-linux-x86_64-1.0-archive")
    root = tmp_path / "root"
    (root / "lib").mkdir(parents=True)
    os.symlink("lib", root / "lib64")
    real = os.readlink
    replaced = _readlink_vanishing_once(monkeypatch, unpack_mod, "lib64")
    n = unpack_mod.unpack(path, {"key": "c1", "version": "1.0", "kind": "tar", "how": "all"}, str(root))
    assert n == 1 and replaced
    assert (root / "lib" / "libc1.so.1").read_text() == "x" and (root / "lib64").is_symlink()
