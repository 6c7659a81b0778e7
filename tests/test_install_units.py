"""Pure parts of `cudaenv install`: manifests, part selection across renames, pip's configuration,
wheel specifiers and markers (the real downloads are in test_install.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cudaenv.errors import CudaenvError
from cudaenv.install import fetch, parts, pipconf, redist, wheels
from helpers import REPO

SHA = "a" * 64


def _manifest(label: str, keys: list[str]) -> dict:
    doc = {"release_date": "2026-01-01", "release_label": label, "release_product": "cuda"}
    for k in keys:
        doc[k] = {"name": k, "license": "CUDA Toolkit", "version": "1.2.3",
                  "linux-x86_64": {"relative_path": f"{k}/linux-x86_64/{k}-linux-x86_64-1.2.3-archive.tar.xz",
                                   "sha256": SHA, "md5": "b" * 32, "size": "1234"},
                  "windows-x86_64": {"relative_path": f"{k}/windows-x86_64/x.zip", "sha256": SHA, "size": "1"}}
    return doc


# Component keys as NVIDIA's manifests name them, before and after the 13.0 renames.
KEYS_12 = ["cuda_nvcc", "cuda_cudart", "cuda_cccl", "libcublas", "libcusparse", "libcusolver", "libcufft",
           "cuda_nvrtc", "nvidia_driver", "nvidia_fs", "fabricmanager", "libnvidia_nscq", "cuda_gdb"]
KEYS_13 = ["cuda_nvcc", "cuda_crt", "libnvvm", "cuda_cudart", "cccl", "cuda_culibos", "libcublas", "libcusparse",
           "libcusolver", "libcufft", "cuda_nvrtc", "nvidia_driver", "cuda_gdb"]


def test_parse_manifest_in_nvidias_format():
    m = redist.parse_manifest(json.dumps(_manifest("12.4.1", KEYS_12)).encode(), "https://x/redist/", "m.json")
    assert m["version"] == "12.4.1"
    c = m["components"]["cuda_nvcc"]
    assert c["url"] == "https://x/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-1.2.3-archive.tar.xz"
    assert c["size"] == 1234 and c["sha256"] == SHA  # size is a string in the manifest
    assert "release_label" not in m["components"]


def test_cudnn_style_cuda_variant():
    doc = {"release_label": "9.1.0", "cudnn": {"name": "cuDNN", "version": "9.1.0", "cuda_variant": ["11", "12"],
                                                "linux-x86_64": {v: {"relative_path": f"cudnn/linux-x86_64/c-{v}.tar.xz",
                                                                     "sha256": SHA, "size": "5"}
                                                                 for v in ("cuda11", "cuda12")}}}
    # cuDNN's label is its own version: the variant is chosen by the toolkit's CUDA major
    m = redist.parse_manifest(json.dumps(doc).encode(), "/mirror", "m", cuda_major="12")
    assert m["components"]["cudnn"]["url"] == "/mirror/cudnn/linux-x86_64/c-cuda12.tar.xz"
    assert redist.parse_manifest(json.dumps(doc).encode(), "/mirror", "m")["components"] == {}  # no cuda9


@pytest.mark.parametrize("bad", [b"{", b"[]", b'{"cuda_nvcc": {}}',
                                 json.dumps(dict(_manifest("1.0.0", ["x"]), y={"linux-x86_64": {
                                     "relative_path": "../../etc/passwd", "sha256": SHA}})).encode()])
def test_bad_manifest_is_an_error(bad):
    with pytest.raises(CudaenvError):
        redist.parse_manifest(bad, "/m", "m.json")


@pytest.mark.parametrize("keys", [KEYS_12, KEYS_13])
def test_build_parts_follow_the_renames(keys):
    got = parts.select("build", keys)
    full_ = {k for k, how in got.items() if how == "all"}
    assert {"cuda_nvcc", "cuda_cudart"} <= full_
    assert ("cuda_cccl" if "cuda_cccl" in keys else "cccl") in full_
    if "cuda_crt" in keys:
        assert {"cuda_crt", "libnvvm", "cuda_culibos"} <= full_
    assert {k for k, how in got.items() if how == "include"} == {"libcublas", "libcusparse", "libcusolver"}
    assert "libcufft" not in got and "nvidia_driver" not in got


def test_full_runtime_and_names():
    full_ = parts.select("full", KEYS_12)
    assert not {"nvidia_driver", "nvidia_fs", "fabricmanager", "libnvidia_nscq"} & set(full_)
    assert "cuda_gdb" in full_
    rt = parts.select("runtime", KEYS_13)
    assert "cuda_nvcc" not in rt and {"libcublas", "cuda_cudart", "cuda_nvrtc"} <= set(rt)
    assert parts.select("cufft", KEYS_13) == {"libcufft": "all"}
    assert parts.select("libcufft,build", KEYS_13)["libcublas"] == "include"
    assert parts.select("cublas,build", KEYS_13)["libcublas"] == "all"  # named whole beats headers
    wheel_names = ["nvidia-cuda-nvcc", "nvidia-cuda-runtime", "nvidia-cuda-cccl", "nvidia-nvvm", "nvidia-cublas"]
    assert parts.select("build", wheel_names) == {"nvidia-cuda-nvcc": "all", "nvidia-cuda-runtime": "all",
                                                  "nvidia-cuda-cccl": "all", "nvidia-nvvm": "all",
                                                  "nvidia-cublas": "include"}
    with pytest.raises(CudaenvError, match="unknown part 'cudnn'"):
        parts.select("build,cudnn", KEYS_13)


def test_pip_configuration(tmp_path):
    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\nindex-url = https://mirror.example/simple/\n"
                    "extra-index-url = file:///opt/a/simple\n  file:///opt/b/simple\nfind-links = /opt/wheels\n")
    env = {"HOME": str(tmp_path), "XDG_CONFIG_DIRS": str(tmp_path / "none"), "PIP_CONFIG_FILE": str(conf)}
    got = pipconf.pip_indexes(env)
    assert got["index"][0] == "https://mirror.example/simple"
    assert got["index"][1:] == ["file:///opt/a/simple", "file:///opt/b/simple"]
    assert got["find_links"] == ["/opt/wheels"]
    env["PIP_INDEX_URL"] = "https://other/simple"
    assert pipconf.pip_indexes(env)["index"][0] == "https://other/simple"
    env["PIP_NO_INDEX"] = "1"
    assert pipconf.pip_indexes(env)["index"] == []
    assert pipconf.pip_indexes({"HOME": str(tmp_path), "PIP_CONFIG_FILE": "/dev/null",
                                "XDG_CONFIG_DIRS": str(tmp_path)})["index"] == [pipconf.DEFAULT_INDEX]


def _in_child(code: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter: its timeout is the hang guard for a read that could block."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=REPO), cwd=REPO)


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_pip_conf_that_is_a_fifo_or_device_is_skipped(tmp_path, kind):
    conf = str(tmp_path / "pip.conf")
    os.mkfifo(conf) if kind == "fifo" else os.symlink("/dev/zero", conf)
    res = _in_child("import json, sys; from cudaenv.install import pipconf\n"
                    "print(json.dumps(pipconf.pip_indexes({'HOME': sys.argv[1], 'XDG_CONFIG_DIRS': sys.argv[1],\n"
                    "                                      'PIP_CONFIG_FILE': sys.argv[2]})))", str(tmp_path), conf)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["index"] == [pipconf.DEFAULT_INDEX]


def test_a_fifo_or_device_named_like_a_wheel_is_not_a_find_links_file(tmp_path):
    """Local find-links files are hashed where they lie: a FIFO would hang that, a device never end it."""
    name = "nvidia_cuda_nvcc_cu12-12.4.131-py3-none-manylinux2014_x86_64.whl"
    for d, kind in (("a", "fifo"), ("b", "devzero"), ("c", "file")):
        os.makedirs(tmp_path / d)
        path = str(tmp_path / d / name)
        os.mkfifo(path) if kind == "fifo" else os.symlink("/dev/zero", path) if kind == "devzero" else \
            open(path, "wb").close()
    notes: list[str] = []
    got = wheels.project_files("nvidia-cuda-nvcc-cu12", {"index": [], "find_links": [str(tmp_path / d) for d in "abc"],
                                                         "auth": {}}, notes)
    assert [f["url"] for f in got] == [str(tmp_path / "c" / name)]


def test_a_local_document_over_the_cap_is_refused_not_cut(tmp_path, monkeypatch):
    path = tmp_path / "redistrib_12.4.1.json"
    path.write_bytes(b"{" + b" " * 200 + b"}")
    monkeypatch.setattr(fetch, "MAX_DOCUMENT", 100)
    with pytest.raises(CudaenvError, match=f"cannot read {path}: larger than 100 bytes"):
        fetch.read_url(str(path))


def test_specifiers_and_markers():
    assert wheels.spec_matches("13.5.37", "==13.5.37.*")
    assert wheels.spec_matches("13.5.37.post1", "==13.5.37.*")
    assert not wheels.spec_matches("13.5.38", "==13.5.37.*")
    assert wheels.spec_matches("13.9.0", "<14,>=13.5.37") and not wheels.spec_matches("14.0.0", "<14,>=13.5.37")
    m = ("(sys_platform == 'linux' and platform_machine == 'aarch64' or sys_platform == 'linux' and "
         "platform_machine == 'x86_64' or sys_platform == 'win32' and platform_machine == 'AMD64') and extra == 'nvcc'")
    assert wheels.marker_true(m, "nvcc") and not wheels.marker_true(m, "cudart") and not wheels.marker_true(m, None)
    assert not wheels.marker_true("(sys_platform == 'linux' and platform_machine == 'aarch64') and extra == 'cudla'",
                                  "cudla")
    assert not wheels.marker_true("__import__('os').system('x') == 'y'", None)
    meta = ("Name: cuda-toolkit\nVersion: 13.5.0\nProvides-Extra: nvcc\n"
            f"Requires-Dist: nvidia-cuda-nvcc==13.5.37.*; {m}\n"
            "Requires-Dist: nvidia-cuda-crt==13.5.37.*; extra == 'nvcc'\n\nbody: Requires-Dist: no\n")
    assert wheels.extras_of(meta) == {"nvcc": [("nvidia-cuda-nvcc", "==13.5.37.*"), ("nvidia-cuda-crt", "==13.5.37.*")]}
    assert wheels.parse_filename("nvidia_cuda_nvcc-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl") \
        == ("nvidia-cuda-nvcc", "13.5.37", ["manylinux2014_x86_64", "manylinux_2_17_x86_64"])
    assert not wheels.platform_ok(["manylinux2014_aarch64"]) and wheels.platform_ok(["any"])
