"""Wheel toolkits (issue 11): the complete compiler CUDA 13 wheels put in site-packages/nvidia/cu13.

The real part is tests/wheeltk.sh's venv: ``pip install 'cuda-toolkit[nvcc,cudart,cccl,crt,nvvm]==13.5.0'``
from NVIDIA's PyPI wheels, nothing else. It is found as the active venv and through CUDAENV_ROOTS
or config (an env prefix, a site-packages dir or nvidia/cu13 itself), listed with where it came
from, switched to in real bash (its real nvcc builds a program that loads its own libcudart), and
verified; nothing is ever written into the venv. The test bed's installed cuda-13.5 has the same
version (13.5.0), so names and the tie rule are tested against a real neighbour. Fake trees only
for what real wheels do not show (another family, drifting versions, an upgrade).
"""

from __future__ import annotations

import glob
import json
import os
import stat
import subprocess
import sys

import pytest

from conftest import TESTBED
from helpers import IN_CI, REPO, clean_shell_env, need, run_cudaenv, setup_missing

from cudaenv.infra.index import Index
from cudaenv.toolkit import wheels
from cudaenv.toolkit.discover import candidates, scan

pytestmark = pytest.mark.testbed

VENV = os.path.join(TESTBED, "venv-cu13tk")
LABEL = "venv-cu13tk"
NAME = f"cuda-13.5.0+{LABEL}"

# thrust comes from include/cccl, which only the wheel's own nvcc.profile puts on the include path.
RUNTIME = r"""
#include <cstdio>
#include <cuda_runtime.h>
#include <thrust/version.h>
__global__ void k(int *x) { *x = 1; }
int main() { int v = 0; cudaError_t e = cudaRuntimeGetVersion(&v); std::printf("runtime %d %d\n", (int)e, v); return 0; }
"""


@pytest.fixture(scope="module")
def wheeltk() -> dict:
    """The wheel toolkit venv: ``{"venv", "site", "root", "nvcc_dist"}``."""
    roots = glob.glob(os.path.join(VENV, "lib", "python3*", "site-packages", "nvidia", "cu13"))
    if not (os.path.isfile(os.path.join(VENV, ".cudaenv-complete")) and len(roots) == 1):
        msg = f"{VENV} missing or incomplete: run bash tests/wheeltk.sh"
        setup_missing(msg)
    root = roots[0]
    site = os.path.dirname(os.path.dirname(root))
    (dist,) = glob.glob(os.path.join(site, "nvidia_cuda_nvcc-*.dist-info"))
    return {"venv": VENV, "site": site, "root": root,
            "nvcc_dist": os.path.basename(dist)[len("nvidia_cuda_nvcc-"):-len(".dist-info")]}


def base_env(tmp_path, **extra: str) -> dict:
    """Our own config/cache, no CUDA settings, no venv active, PATH without a wheel toolkit."""
    env = clean_shell_env(tmp_path, "/usr/local/bin:/usr/bin:/bin", **extra)
    env["PYTHONPATH"] = REPO
    return env


def activated(env: dict, venv: str) -> dict:
    """What ``. venv/bin/activate`` does to the environment."""
    return dict(env, VIRTUAL_ENV=venv, PATH=f"{venv}/bin:{env['PATH']}")


def long_run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    """cudaenv for commands that build (verify): a deadline far past any machine's pace, not run_cudaenv's 2 minutes."""
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=env, capture_output=True, text=True,
                          timeout=3600)


def listing(env: dict) -> dict:
    res = run_cudaenv(["list", "--json"], env)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def the_wheel_toolkit(doc: dict, root: str) -> dict:
    found = [t for t in doc["toolkits"] if t["root"] == os.path.realpath(root)]
    assert len(found) == 1, doc
    return found[0]


def snapshot(tree: str) -> dict:
    """Every entry under ``tree`` with what a write would change (lstat: links are not followed)."""
    out = {}
    for dp, dns, fns in os.walk(tree):
        for n in dns + fns + ["."]:
            p = os.path.normpath(os.path.join(dp, n))
            st = os.lstat(p)
            out[os.path.relpath(p, tree)] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino,
                                             os.readlink(p) if stat.S_ISLNK(st.st_mode) else None)
    return out


# --------------------------------------------------------------------------- discovery and listing


def test_the_active_venv_s_wheel_toolkit_is_listed_with_its_origin(tmp_path, wheeltk):
    env = activated(base_env(tmp_path), wheeltk["venv"])
    tk = the_wheel_toolkit(listing(env), wheeltk["root"])
    assert tk["found_by"] == ["active venv"]
    assert tk["origin"] == {"kind": "wheels", "env": wheeltk["venv"], "site": wheeltk["site"], "label": LABEL}
    # The version from the wheels' dist-info: the meta package is the release label, nvcc its own.
    assert (tk["version"], tk["full_version"], tk["version_source"]) == ("13.5", "13.5.0", "dist-info (cuda-toolkit)")
    assert tk["nvcc_version"] == wheeltk["nvcc_dist"]
    # ... and that is what the real nvcc says of itself.
    out = subprocess.run([os.path.join(wheeltk["root"], "bin", "nvcc"), "--version"], capture_output=True,
                         text=True, timeout=60).stdout
    assert f"release 13.5, V{wheeltk['nvcc_dist']}" in out
    assert tk["libdir"] == "lib" and tk["profile"] == NAME
    assert tk["components"]["nvcc"] and tk["components"]["cudart_shared"] and tk["components"]["cudart_static"]
    assert not tk["components"]["stubs"]
    human = run_cudaenv(["list"], env)
    row = next(line for line in human.stdout.splitlines() if wheeltk["root"] in line)
    assert NAME in row and row.endswith(f"active venv; pip wheels in {wheeltk['venv']}")
    # Without the venv active it is not found at all.
    assert all(t["origin"] is None for t in listing(base_env(tmp_path))["toolkits"])


@pytest.mark.parametrize("form", ["prefix", "site-packages", "nvidia/cu13", "glob", "config"])
def test_configured_roots_may_name_an_environment(tmp_path, wheeltk, form):
    env = base_env(tmp_path)
    how = "CUDAENV_ROOTS"
    if form == "config":
        os.makedirs(os.path.join(env["XDG_CONFIG_HOME"], "cudaenv"))
        with open(os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "config.yaml"), "w") as f:
            f.write(f"roots:\n  - {wheeltk['venv']}\n")
        how = "config"
    else:
        env["CUDAENV_ROOTS"] = {"prefix": wheeltk["venv"], "site-packages": wheeltk["site"],
                                "nvidia/cu13": wheeltk["root"], "glob": os.path.join(TESTBED, "venv-cu13*")}[form]
    doc = listing(env)
    tk = the_wheel_toolkit(doc, wheeltk["root"])
    assert tk["found_by"] == [how] and tk["origin"]["env"] == wheeltk["venv"] and tk["profile"] == NAME
    assert doc["skipped"] == []


def test_an_environment_without_a_wheel_compiler_is_skipped_with_the_reason(tmp_path, venv_cu):
    """venv-cu's torch pulled nvidia/cu13 with libraries and headers but no nvcc: not a toolkit."""
    venv = os.path.dirname(os.path.dirname(venv_cu))
    assert glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "nvidia", "cu13", "include"))
    doc = listing(activated(base_env(tmp_path), venv))
    assert all(t["origin"] is None for t in doc["toolkits"]) and doc["skipped"] == []
    res = run_cudaenv(["list"], base_env(tmp_path, CUDAENV_ROOTS=venv))
    assert f"skipped {venv} (CUDAENV_ROOTS): no bin/nvcc" in res.stderr
    res = run_cudaenv(["use", venv], base_env(tmp_path))
    assert res.returncode == 2 and res.stdout == ""
    assert f"{venv} is a Python environment without a wheel toolkit" in res.stderr and "pip install" in res.stderr


# --------------------------------------------------------------------------- names next to an installed 13.5.0


def test_names_and_ties_next_to_an_installed_toolkit_of_the_same_version(tmp_path, wheeltk, testbed):
    installed = os.path.realpath(testbed["13.5"])
    for env in (base_env(tmp_path, CUDAENV_ROOTS=f"{testbed['13.5']}:{wheeltk['venv']}"),
                activated(base_env(tmp_path, CUDAENV_ROOTS=testbed["13.5"]), wheeltk["venv"])):
        doc = listing(env)
        names = {t["root"]: t["profile"] for t in doc["toolkits"]}
        assert names[installed] == "cuda-13.5.0" and names[os.path.realpath(wheeltk["root"])] == NAME

        def home(target: str) -> str:
            res = run_cudaenv(["use", "--shell", "json", target], env, cwd=str(tmp_path))
            assert res.returncode == 0, res.stderr
            return json.loads(res.stdout)["set"]["CUDA_HOME"]

        # A version means the same with or without the venv: the installed toolkit wins the tie.
        assert home("13.5") == home("13.5.0") == home("13") == home("cuda-13.5.0") == installed
        rel_site = os.path.relpath(wheeltk["site"], str(tmp_path))
        for target in (NAME, wheeltk["venv"], wheeltk["site"], wheeltk["root"], rel_site):
            assert home(target) == wheeltk["root"], target


# --------------------------------------------------------------------------- use in a real shell


def test_use_in_bash_builds_with_the_wheel_nvcc_and_writes_nothing_into_the_venv(tmp_path, wheeltk):
    need("bash")
    before = snapshot(wheeltk["venv"])
    env = base_env(tmp_path)
    (tmp_path / "rt.cu").write_text(RUNTIME)
    root = wheeltk["root"]
    script = (
        f'. "{wheeltk["venv"]}/bin/activate"\n'
        'cudaenv list >/dev/null; echo "before=$PATH"\n'
        f'eval "$(cudaenv use {NAME})"\n'
        'echo "nvcc=$(command -v nvcc)"; echo "home=$CUDA_HOME"; echo "path=$CUDA_PATH"\n'
        'echo "ld=$LD_LIBRARY_PATH"; echo "lib=$LIBRARY_PATH"; echo "cmake=$CMAKE_LIBRARY_PATH"\n'
        'nvcc -cudart shared -arch=sm_80 -o rt rt.cu && ./rt\n'
        'eval "$(cudaenv off)"; echo "after=$PATH ${CUDA_HOME-unset} ${LIBRARY_PATH-unset} ${CMAKE_LIBRARY_PATH-unset}"\n'
    )
    res = subprocess.run([need("bash"), "--norc", "--noprofile", "-c", "set -eu\n" + script], env=env,
                         cwd=str(tmp_path), capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    out = dict(line.split("=", 1) for line in res.stdout.splitlines() if "=" in line)
    assert out["nvcc"] == f"{root}/bin/nvcc"
    assert out["home"] == out["path"] == root
    assert out["ld"] == f"{root}/lib"  # the venv's own libraries: nothing older shadows them
    lib = out["lib"].split(":")
    assert lib[0] == f"{root}/lib" and len(lib) == 2 and "" not in lib
    links = lib[1]
    assert out["cmake"] == links
    assert links.startswith(os.path.join(env["XDG_CACHE_HOME"], "cudaenv", "devlinks") + "/")
    assert os.readlink(os.path.join(links, "libcudart.so")) == f"{root}/lib/libcudart.so.13"
    # The program loads the wheel's libcudart (13.5), not the system's 13.0 from ld.so.cache.
    assert "runtime 0 13050" in res.stdout
    assert out["after"] == f"{out['before']} unset unset unset"
    assert snapshot(wheeltk["venv"]) == before


CMAKELISTS = """cmake_minimum_required(VERSION 3.18)
project(rt LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
message(STATUS "cudart=${CUDA_cudart_LIBRARY}")
add_executable(rt rt.cu)
set_target_properties(rt PROPERTIES CUDA_ARCHITECTURES 80 CUDA_RUNTIME_LIBRARY Shared)
target_link_libraries(rt CUDA::cudart)
"""


@pytest.mark.slow
def test_cmake_finds_the_wheel_toolkit_after_use(tmp_path, wheeltk):
    """FindCUDAToolkit looks for libcudart.so with find_library: CMAKE_LIBRARY_PATH has the link."""
    need("cmake")
    (tmp_path / "rt.cu").write_text(RUNTIME)
    (tmp_path / "CMakeLists.txt").write_text(CMAKELISTS)
    env = base_env(tmp_path)
    configure = 'cmake -S . -B "$1" >"$1.log" 2>&1 || { cat "$1.log"; exit 1; }; grep cudart= "$1.log"\n'
    res = subprocess.run([need("bash"), "--norc", "--noprofile", "-c",
                          f'set -eu\nconf() {{ {configure} }}\n'
                          f'eval "$(cudaenv use {wheeltk["venv"]})"\n'
                          'conf b && cmake --build b >/dev/null && ./b/rt\n'
                          'CMAKE_LIBRARY_PATH= conf nolinks\n'], env=env, cwd=str(tmp_path),
                         capture_output=True, text=True, timeout=600)
    links = os.path.join(env["XDG_CACHE_HOME"], "cudaenv", "devlinks")
    assert "cudaenv/devlinks/" in res.stdout and res.stdout.split("cudart=", 1)[1].startswith(links), res.stdout
    assert "runtime 0 13050" in res.stdout
    # Without the link directory CMake cannot find cudart in the wheel layout.
    assert res.returncode != 0 and "missing: CUDA_CUDART" in res.stdout


def test_without_the_cache_links_the_wheel_toolkit_cannot_link_cudart(tmp_path, wheeltk):
    """What the links are for: nvcc -cudart shared fails on the bare wheel layout."""
    (tmp_path / "rt.cu").write_text(RUNTIME)
    env = {"PATH": f"{wheeltk['root']}/bin:/usr/bin:/bin", "HOME": str(tmp_path)}
    res = subprocess.run(["nvcc", "-cudart", "shared", "-arch=sm_80", "-o", "rt", "rt.cu"], env=env,
                         cwd=str(tmp_path), capture_output=True, text=True, timeout=300)
    assert res.returncode != 0 and "cannot find -lcudart" in res.stdout + res.stderr


# --------------------------------------------------------------------------- verify


def test_verify_compiles_and_links_with_the_wheel_toolkit(tmp_path, wheeltk):
    before = snapshot(wheeltk["venv"])
    env = base_env(tmp_path, TMPDIR=str(tmp_path))
    res = long_run(["verify", wheeltk["venv"], "--no-torch", "--json"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    (result,) = json.loads(res.stdout)["results"]
    steps = {s["id"]: s for s in result["steps"]}
    for sid in ("libcuda-stub", "nvcc-shared", "nvcc-static", "link-lcuda"):
        assert steps[sid]["status"] == "pass", steps[sid]
    assert "needs libcudart.so.13" in steps["nvcc-shared"]["summary"]
    assert result["profile"] == NAME
    # check no longer asks for a stub, and names the wheel toolkit by its profile.
    chk = run_cudaenv(["check", NAME, "--json"], activated(env, wheeltk["venv"]))
    found = {f["id"]: f for r in json.loads(chk.stdout)["results"] for f in r["findings"]}
    assert found["toolkit.stubs"]["status"] == "ok"
    assert snapshot(wheeltk["venv"]) == before


@pytest.mark.slow
def test_a_torch_extension_builds_against_the_wheel_toolkit(tmp_path, wheeltk, venv_cu):
    """torch's cpp_extension with CUDA_HOME = nvidia/cu13: lib (no lib64), -lcudart through the links."""
    env = base_env(tmp_path, TMPDIR=str(tmp_path))
    # A torch build takes 1-3 minutes on 2 cores, more on a busy machine: verify's own per-step
    # limit (20 minutes) is the deadline, not run_cudaenv's two.
    res = long_run(["verify", wheeltk["venv"], "--python", venv_cu, "--json"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    (result,) = json.loads(res.stdout)["results"]
    steps = {s["id"]: s for s in result["steps"]}
    assert steps["torch-build"]["status"] == "pass", steps["torch-build"]
    assert steps["torch-import"]["status"] == "pass", steps["torch-import"]


# --------------------------------------------------------------------------- odd cases (fake trees)


def fake_wheel_site(site: str, family: str, dists: list[str]) -> str:
    """A site-packages with ``nvidia/cu<family>`` (bin/nvcc, headers, lib) and the named dist-info dirs."""
    root = os.path.join(site, "nvidia", f"cu{family}")
    for d in ("bin", "include", "lib"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    with open(os.path.join(root, "bin", "nvcc"), "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    os.chmod(os.path.join(root, "bin", "nvcc"), 0o755)
    open(os.path.join(root, "include", "cuda_runtime.h"), "w").close()
    with open(os.path.join(root, "include", "cuda.h"), "w") as f:
        f.write(f"#define CUDA_VERSION {int(family) * 1000 + 20}\n")
    for n in (f"libcudart.so.{family}", "libcudart_static.a", "libnvvm.so.4", "libfoo.so.1", "libfoo.so.1.2",
              "libbar.so", "libbar.so.3"):
        open(os.path.join(root, "lib", n), "w").close()
    for d in dists:
        os.makedirs(os.path.join(site, f"{d}.dist-info"))
    return root


def test_any_family_and_how_the_version_is_read(tmp_path):
    site = str(tmp_path / "myenv" / "lib" / "python3.12" / "site-packages")
    root = fake_wheel_site(site, "14", ["nvidia_cuda_nvcc-14.2.40", "cuda_toolkit-14.2.1", "nvidia_cuda_nvcc-13.5.37"])
    layout_env = {"CUDAENV_ROOTS": str(tmp_path / "myenv")}
    from cudaenv.toolkit.discover import Layout

    lay = Layout(usr_local=str(tmp_path / "none"), opt=str(tmp_path / "none"), debian_nvcc="/nonexistent")
    idx = Index(None)
    (tk,), _ = scan(candidates(layout_env, lay), idx, lay)
    assert (tk["root"], tk["full_version"], tk["nvcc_version"], tk["libdir"]) == (root, "14.2.1", "14.2.40", "lib")
    assert tk["origin"]["env"] == str(tmp_path / "myenv") and tk["origin"]["label"] == "myenv"
    # Links for the libraries with no unversioned name (the shortest, the soname, is the target).
    assert tk["dev_links"] == [["libcudart.so", f"{root}/lib/libcudart.so.14"], ["libfoo.so", f"{root}/lib/libfoo.so.1"],
                               ["libnvvm.so", f"{root}/lib/libnvvm.so.4"]]
    # An upgrade of the meta package to another release: it no longer agrees with nvcc, which
    # then gives the version; the site-packages mtime in the signature makes the probe rerun.
    os.rename(os.path.join(site, "cuda_toolkit-14.2.1.dist-info"), os.path.join(site, "cuda_toolkit-14.3.0.dist-info"))
    st = os.stat(site)
    os.utime(site, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    (tk,), _ = scan(candidates(layout_env, lay), idx, lay)
    assert (tk["full_version"], tk["version_source"]) == ("14.2.40", "dist-info (nvidia-cuda-nvcc)")
    # No nvcc distribution at all (a copied tree): cuda.h.
    for n in os.listdir(site):
        if n.endswith(".dist-info"):
            os.rmdir(os.path.join(site, n))
    os.utime(site, ns=(st.st_atime_ns, st.st_mtime_ns + 2 * 10**9))
    (tk,), _ = scan(candidates(layout_env, lay), idx, lay)
    assert (tk["full_version"], tk["version_source"]) == ("14.2", "cuda.h")


@pytest.mark.parametrize("prefix,label", [
    ("/home/me/proj/.venv", "proj"), ("/home/me/proj/venv", "proj"), ("/opt/conda/envs/torch", "torch"),
    ("/opt/conda", "conda"), ("/home/u/.virtualenvs/ml", "ml"), ("/x/my env!", "my_env_"), ("/.venv", "venv"), ("/", "env"),
])
def test_environment_labels(prefix, label):
    assert wheels.env_label(prefix) == label


def test_two_environments_with_the_same_label_are_an_error_naming_both(tmp_path):
    roots = []
    for parent in ("a", "b"):
        site = str(tmp_path / parent / "proj" / ".venv" / "lib" / "python3.12" / "site-packages")
        roots.append(fake_wheel_site(site, "14", ["nvidia_cuda_nvcc-14.2.40"]))
    env = base_env(tmp_path, CUDAENV_ROOTS=f"{tmp_path}/*/proj/.venv")
    res = run_cudaenv(["use", "cuda-14.2.40+proj"], env)
    assert res.returncode == 2 and res.stdout == ""
    assert "is ambiguous" in res.stderr and roots[0] in res.stderr and roots[1] in res.stderr
    # Equal versions, wheel toolkits only: the active environment's wins.
    act = activated(env, str(tmp_path / "b" / "proj" / ".venv"))
    os.makedirs(str(tmp_path / "b" / "proj" / ".venv" / "bin"))
    os.symlink(sys.executable, str(tmp_path / "b" / "proj" / ".venv" / "bin" / "python3"))
    with open(str(tmp_path / "b" / "proj" / ".venv" / "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\n")
    res = run_cudaenv(["use", "--shell", "json", "14.2"], act)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["set"]["CUDA_HOME"] == roots[1]


def test_a_wheel_toolkit_s_module_is_named_after_its_profile():
    from cudaenv.outputs.modulefiles import module_name

    assert module_name(NAME, "13.5.0") == f"13.5.0+{LABEL}"
    assert module_name("cuda-13.5.0", "13.5.0") == "13.5.0" and module_name("mine", "13.5.0") == "13.5.0-mine"


def test_an_lmod_module_of_the_wheel_toolkit_links_cudart(tmp_path, wheeltk):
    """modulefiles keeps the links beside the modules (DIR/.cudaenv-devlinks), as use does in its cache."""
    init = "/usr/share/lmod/lmod/init/bash"
    if not os.path.isfile(init):
        if IN_CI:
            pytest.fail("Lmod is required under CI")
        pytest.skip("Lmod not installed")
    env = base_env(tmp_path)
    mods = str(tmp_path / "modules")
    res = run_cudaenv(["modulefiles", wheeltk["venv"], "--format", "lmod", "-o", mods], env)
    assert res.returncode == 0, res.stderr
    (tmp_path / "rt.cu").write_text(RUNTIME)
    res = subprocess.run([need("bash"), "--norc", "--noprofile", "-c",
                          f'set -e\nsource "{init}"\nmodule use "{mods}"\nmodule load "cuda/13.5.0+{LABEL}"\n'
                          'echo "lib=$LIBRARY_PATH"; echo "cmake=$CMAKE_LIBRARY_PATH"\n'
                          'nvcc -cudart shared -arch=sm_80 -o rt rt.cu && ./rt\n'], env=env, cwd=str(tmp_path),
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    links = os.path.join(mods, ".cudaenv-devlinks")
    out = dict(line.split("=", 1) for line in res.stdout.splitlines() if "=" in line)
    assert out["lib"].split(":")[0] == f"{wheeltk['root']}/lib" and out["lib"].split(":")[1].startswith(links)
    assert out["cmake"].startswith(links)
    assert "runtime 0 13050" in res.stdout


def test_a_conda_env_s_wheel_toolkit_is_found_as_the_active_conda_env(tmp_path):
    """pip inside a conda env: the python3 on PATH is the env's (conda-meta beside bin) -> 'active conda env'."""
    prefix = tmp_path / "miniforge" / "envs" / "ml"
    root = fake_wheel_site(str(prefix / "lib" / "python3.12" / "site-packages"), "14", ["nvidia_cuda_nvcc-14.1.9"])
    os.makedirs(prefix / "conda-meta")
    os.makedirs(prefix / "bin")
    os.symlink(sys.executable, prefix / "bin" / "python3")
    env = base_env(tmp_path, CONDA_PREFIX=str(prefix))
    env["PATH"] = f"{prefix}/bin:{env['PATH']}"
    tk = the_wheel_toolkit(listing(env), root)
    assert tk["found_by"] == ["active conda env"] and tk["profile"] == "cuda-14.1.9+ml"
    assert tk["origin"]["env"] == str(prefix)
