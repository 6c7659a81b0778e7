"""One identity per toolkit, and installs that know what is there (issue 19).

A release has a label (``13.0.2``, version.json) and its compiler a number (nvcc's ``13.0.88``):
a toolkit without version.json (``/usr/local/cuda-13.0`` here, read from cuda.h and dist-info)
shows only nvcc's. These tests build small toolkits and NVIDIA-format mirrors of their own
(tests/test_install_hostile.py's builders) and run the real command.
"""

from __future__ import annotations

import json
import os

import pytest

from test_install_hostile import _cudaenv, _env, _good, _mirror, _nvcc_archive, _toolkits

NVCC = "#!/bin/sh\necho 'Cuda compilation tools, release {short}, V{nvcc}'\n"


def _toolkit(root: str, *, label: str | None, nvcc: str) -> str:
    """A toolkit tree: bin/nvcc, cuda.h, lib64; version.json when ``label`` is given, else nvcc's dist-info only."""
    short = ".".join(nvcc.split(".")[:2])
    for d in ("bin", "include", "lib64", "dist-info"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    with open(os.path.join(root, "bin", "nvcc"), "w") as f:
        f.write(NVCC.format(short=short, nvcc=nvcc))
    os.chmod(os.path.join(root, "bin", "nvcc"), 0o755)
    major, minor = short.split(".")
    with open(os.path.join(root, "include", "cuda.h"), "w") as f:
        f.write(f"#define CUDA_VERSION {int(major) * 1000 + int(minor) * 10}\n")
    with open(os.path.join(root, "include", "cuda_runtime.h"), "w") as f:
        f.write("/* runtime */\n")
    with open(os.path.join(root, "lib64", "libcudart.so"), "w") as f:
        f.write("")
    if label:
        with open(os.path.join(root, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": label},
                       "cuda_nvcc": {"name": "CUDA NVCC", "version": nvcc}}, f)
    else:
        os.makedirs(os.path.join(root, "dist-info", f"nvidia_cuda_nvcc-{nvcc}.dist-info"))
    return root


def _home(out: str) -> str:
    """CUDA_HOME in a bash ``use`` output."""
    for line in out.splitlines():
        for word in line.replace(";", "\n").splitlines():
            word = word.strip()
            if word.startswith("export CUDA_HOME="):
                return word.split("=", 1)[1].strip("'")
    raise AssertionError(out)


def _use(target: str, env: dict) -> str:
    r = _cudaenv(["use", target, "--shell", "bash"], env)
    assert r.returncode == 0, r.stderr
    return _home(r.stdout)


# ---------------------------------------------------------------- like with like


@pytest.mark.parametrize("mine_label, mine_nvcc, want", [
    ("13.5.2", "13.5.40", "mine"),    # a newer release: its label 13.5.2 is "below" 13.5.37 as numbers
    ("13.5.0", "13.5.37", "mine"),    # the same release: the one whose release is known
    ("13.5.0", "13.5.30", "system"),  # an older release: nvcc's numbers say so
])
def test_use_compares_a_release_with_a_release(tmp_path, mine_label, mine_nvcc, want):
    """`use 13.5` between a toolkit known by nvcc's number and one known by its release label."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label=None, nvcc="13.5.37")
    mine = _toolkit(str(tmp_path / "opt" / "mine-13.5"), label=mine_label, nvcc=mine_nvcc)
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    assert _use("13.5", env) == {"system": system, "mine": mine}[want]
    # Exact versions keep naming exactly what they name.
    assert _use("13.5.37", env) == system
    assert _use(mine_label, env) == mine


# ---------------------------------------------------------------- installs that know what is there


@pytest.mark.parametrize("label", ["13.5.0", None])
def test_install_says_the_release_is_already_here(tmp_path, label):
    """A toolkit cudaenv did not install, of the release asked for: said, its root printed, no second copy."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label=label, nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    src = _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good()})
    r = _cudaenv(["install", "13.5", "--source", src], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{system}\n"
    assert f"CUDA 13.5.0 is already here: {system}" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not os.path.exists(_toolkits(env)) or os.listdir(_toolkits(env)) == []


def test_install_of_an_exact_release_here_asks_no_source(tmp_path):
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.0", nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    r = _cudaenv(["install", "13.5.0", "--source", "http://127.0.0.1:1/"], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{system}\n"


def test_another_release_of_the_series_is_installed(tmp_path):
    """13.5.1 here does not answer for 13.5.0 (like with like: the labels differ)."""
    _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.1", nvcc="13.5.50")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    src = _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good()})
    r = _cudaenv(["install", "13.5.0", "--source", src], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == os.path.join(_toolkits(env), "cuda-13.5.0")


@pytest.mark.parametrize("existing_profile", [False, True])
def test_a_second_copy_never_makes_a_name_ambiguous(tmp_path, existing_profile):
    """`--prefix` installs a second copy of a release: `13.5`, `13.5.0` and `cuda-13.5.0` keep meaning the first."""
    system = _toolkit(str(tmp_path / "opt" / "cuda-13.5"), label="13.5.0", nvcc="13.5.37")
    env = _env(tmp_path, CUDAENV_ROOTS=str(tmp_path / "opt" / "*"))
    if existing_profile:
        r = _cudaenv(["profile", "build", system], env)
        assert r.returncode == 0, r.stderr
    src = _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good()})
    copy = str(tmp_path / "copy")
    r = _cudaenv(["install", "13.5", "--source", src, "--prefix", copy], env)
    assert r.returncode == 0, r.stderr
    profiles = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    assert "cuda-13.5.0-2.yaml" in os.listdir(profiles), os.listdir(profiles)
    for name in ("13.5", "13.5.0", "cuda-13.5.0"):
        assert _use(name, env) == system, name
    assert _use("cuda-13.5.0-2", env) == copy


# ---------------------------------------------------------------- parts are additive


def _libs() -> list[tuple]:
    return [("dir", "lib"), ("file", "lib/libcublas.so.13.5.1", b"\x7fELF fake", 0o755),
            ("sym", "lib/libcublas.so.13", "libcublas.so.13.5.1"), ("file", "include/cublas_v2.h", "/* cublas */\n")]


def _parts_mirror(tmp_path) -> str:
    return _mirror(str(tmp_path / "m"), {"cuda_nvcc": _nvcc_archive(), "cuda_cudart": _good(), "libcublas": _libs()})


@pytest.mark.parametrize("version", ["13.5", "13.5.0"])
def test_parts_are_additive(tmp_path, version):
    """`--parts runtime` on a `build` install adds the runtime (the record lists both); asked again: nothing to add."""
    env = _env(tmp_path)
    src = _parts_mirror(tmp_path)
    r = _cudaenv(["install", version, "--source", src, "--parts", "build"], env)
    assert r.returncode == 0, r.stderr
    root = os.path.join(_toolkits(env), "cuda-13.5.0")
    assert os.path.isfile(f"{root}/include/cublas_v2.h") and not os.path.exists(f"{root}/lib64/libcublas.so.13")
    profiles = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    written = sorted(os.listdir(profiles))
    r = _cudaenv(["install", version, "--source", src, "--parts", "runtime"], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == root
    assert "already installed" not in r.stderr and "adding libcublas" in r.stderr, r.stderr
    assert os.path.islink(f"{root}/lib64/libcublas.so.13") and os.path.isfile(f"{root}/bin/nvcc")
    rec = json.load(open(f"{root}/cudaenv-install.json"))
    assert rec["parts"] == "build,runtime" and rec["components"]["libcublas"]["only"] == "all", rec
    assert sorted(os.listdir(profiles)) == written  # the profile kept, still recorded for uninstall
    r = _cudaenv(["install", version, "--source", src, "--parts", "runtime"], env)
    assert r.returncode == 0 and "already installed" in r.stderr, r.stderr
    r = _cudaenv(["uninstall", "13.5"], env)
    assert r.returncode == 0 and "removed profile" in r.stderr, r.stderr


def test_adding_parts_the_source_cannot_complete_is_one_line(tmp_path):
    """The tree is rebuilt from the union: a source that lacks what is installed refuses, the tree stays."""
    env = _env(tmp_path)
    src = _parts_mirror(tmp_path)
    r = _cudaenv(["install", "13.5", "--source", src, "--parts", "cuda_nvcc,cuda_cudart"], env)
    assert r.returncode == 0, r.stderr
    other = _mirror(str(tmp_path / "other"), {"cuda_cudart": _good(), "libcublas": _libs()})
    r = _cudaenv(["install", "13.5", "--source", other, "--parts", "runtime"], env)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert "not adding libcublas" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert os.path.isfile(os.path.join(_toolkits(env), "cuda-13.5.0", "bin", "nvcc"))
