"""cuDNN and NCCL as add-ons of a profile (issue 19): ``install X --with``, ``use``/``off``, ``check``, ``verify``.

Real parts only: NVIDIA's own cuDNN 9.24.0.43 and NCCL 2.30.7 wheels for CUDA 13
(tests/addons.sh fetches them from PyPI once, into the test bed), the real CUDA
13.5 toolkit installed by ``cudaenv install`` from the test bed's NVIDIA-format
mirror, real bash, the real nvcc and gcc. Nothing is fetched from the network
here. No CUDA 12 cuDNN is downloaded: the wrong-major case lists this CUDA 13
cuDNN in a profile of the test bed's real CUDA 12.4 toolkit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import pytest

import redist_mirror
from conftest import TESTBED
from helpers import REPO, clean_shell_env, need, one_error_line, run_cudaenv, setup_missing

pytestmark = pytest.mark.testbed

WHEELS = os.path.join(TESTBED, "addons", "wheels")
MIRROR = redist_mirror.MIRROR
CUDNN, NCCL = "9.24.0.43", "2.30.7"


def _need_bed() -> None:
    if not os.path.isfile(os.path.join(WHEELS, ".cudaenv-complete")):
        setup_missing(f"add-on wheels missing ({WHEELS}): run bash tests/addons.sh")
    redist_mirror.ensure()


def _cudaenv(args: list[str], env: dict, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudaenv", *args], env=dict(env, PYTHONPATH=REPO),
                          capture_output=True, text=True, timeout=timeout)


def _env(base) -> dict:
    env = clean_shell_env(base, CUDAENV_INSTALL_CACHE=os.path.join(str(base), "dl"),
                          CUDAENV_PROC_ROOT=os.path.join(str(base), "no-proc"))
    return env


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """CUDA 13.5 installed with cuDNN, then NCCL added to the installed toolkit: the two runs and the paths."""
    _need_bed()
    base = tmp_path_factory.mktemp("addons")
    env = _env(base)
    src = ["--source", MIRROR, "--source", WHEELS]
    first = _cudaenv(["install", "13.5", *src, "--with", "cudnn"], env)
    second = _cudaenv(["install", "13.5.0", *src, "--with", f"nccl={NCCL.rsplit('.', 1)[0]}"], env)
    data = os.path.join(str(base), "data", "cudaenv")
    return {"base": base, "env": env, "first": first, "second": second,
            "root": os.path.join(data, "toolkits", "cuda-13.5.0"),
            "cudnn": os.path.join(data, "addons", f"cudnn-{CUDNN}-cu13"),
            "nccl": os.path.join(data, "addons", f"nccl-{NCCL}-cu13"),
            "profile": os.path.join(str(base), "cfg", "cudaenv", "profiles", "cuda-13.5.0.yaml")}


# --------------------------------------------------------------------------- bad input (fast)

@pytest.mark.parametrize("value", ["", ",", "cudnn,cudnn", "tensorrt", "cudnn=9.x", "cudnn=;rm -rf ~", "cudnn=",
                                   "nccl=2.30,cudnn=abc", "cudnn=9." + "1" * 60, "cudnn=-9", "cudnn=９",
                                   ",".join(["cudnn"] * 20)])
def test_with_refuses_bad_input_in_one_line(value, tmp_path):
    """Before anything is asked or installed: one line, exit 2, nothing on stdout, no data directory."""
    env = _env(tmp_path)
    res = run_cudaenv(["install", "13.5", "--source", str(tmp_path), "--with", value], env)
    err = one_error_line(res, 2)
    assert "--with" in err
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("data", ["with:colon", "with\nnewline"])
def test_an_addon_path_a_path_list_cannot_hold_is_refused(data, tmp_path):
    """XDG_DATA_HOME with ':' or a newline (the toolkit elsewhere, --prefix): refused before anything is written."""
    env = dict(_env(tmp_path), XDG_DATA_HOME=str(tmp_path / data))
    res = run_cudaenv(["install", "13.5", "--prefix", str(tmp_path / "tk"), "--source", str(tmp_path),
                       "--with", "cudnn"], env)
    err = one_error_line(res, 2)
    assert "add-on path cannot contain" in err
    assert not (tmp_path / data).exists() and not (tmp_path / "tk").exists()


def test_no_wheel_for_the_major_is_refused_before_installing(tmp_path):
    """CUDA 12 asks for nvidia-cudnn-cu12, which the local copy (CUDA 13 wheels only) lacks: nothing is installed."""
    _need_bed()
    env = _env(tmp_path)
    res = run_cudaenv(["install", "12.4", "--source", WHEELS, "--with", "cudnn"], env)
    err = one_error_line(res, 2)
    assert "nvidia-cudnn-cu12" in err and "Traceback" not in err
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("entry, words", [
    ("[{name: cudnn, version: '9.1', cuda: 13, root: relative/dir}]", "absolute path"),
    ("[{name: cudnn, version: '9.1', cuda: 13, root: '/a:b'}]", "':'"),
    ("[{name: tensorrt, version: '10', cuda: 13, root: /x}]", "unknown add-on"),
    ("[{name: cudnn, version: '9.1', cuda: thirteen, root: /x}]", "CUDA major"),
    ("[{name: cudnn, version: '9.1', cuda: 13, root: /x}, {name: cudnn, version: '9.2', cuda: 13, root: /y}]",
     "listed twice"),
    ("[{name: cudnn, version: '9.1', cuda: 13, root: /x, extra: 1}]", "mapping of name"),
    ("{name: cudnn}", "must be a list"),
    ("[{name: cudnn, version: '', cuda: 13, root: /x}]", "needs a version"),
])
def test_a_profile_addon_entry_is_validated(entry, words, tmp_path):
    """A hand-edited `addons` list: `use` names the file and the problem in one line."""
    from helpers import make_toolkit

    make_toolkit(str(tmp_path / "tk" / "cuda-13.5.0"), "13.5.0")
    env = dict(_env(tmp_path), CUDAENV_ROOTS=str(tmp_path / "tk" / "cuda-13.5.0"))
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    (prof / "p.yaml").write_text(f"name: p\nroot: {tmp_path}/tk/cuda-13.5.0\naddons: {entry}\n")
    res = run_cudaenv(["use", "p", "--shell", "bash"], env)
    err = one_error_line(res)
    assert "invalid profile" in err and "addons" in err and words in err, err


# --------------------------------------------------------------------------- install (slow: 1 GB unpacked)

@pytest.mark.slow
def test_install_with_then_add_to_the_installed_toolkit(world):
    first, second = world["first"], world["second"]
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0] == world["root"]
    assert f"installed cuDNN {CUDNN} at {world['cudnn']}" in first.stderr
    # The second run adds only NCCL: the toolkit and cuDNN were there.
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[0] == world["root"]
    assert "CUDA 13.5.0 is already installed" in second.stderr and "cuDNN" not in second.stderr
    assert f"installed NCCL {NCCL} at {world['nccl']}" in second.stderr
    # NVIDIA's layout: the full-version file, the soname link, the -l link, lib64 (torch's CUDNN_HOME/lib64).
    lib = os.path.join(world["cudnn"], "lib")
    assert os.readlink(os.path.join(lib, "libcudnn.so")) == "libcudnn.so.9"
    assert os.readlink(os.path.join(lib, "libcudnn.so.9")) == f"libcudnn.so.{CUDNN}"
    assert os.path.isfile(os.path.join(world["cudnn"], "lib64", f"libcudnn.so.{CUDNN}"))
    assert os.path.isfile(os.path.join(world["cudnn"], "include", "cudnn.h"))
    assert os.readlink(os.path.join(world["nccl"], "lib", "libnccl.so.2")) == f"libnccl.so.{NCCL}"
    assert os.path.isdir(os.path.join(world["nccl"], "dist-info", f"nvidia_nccl_cu13-{NCCL}.dist-info"))
    # Nothing half-made is left beside them; the directory is private.
    names = os.listdir(os.path.dirname(world["cudnn"]))
    assert sorted(n for n in names if not n.endswith(".lock")) == sorted([os.path.basename(world["cudnn"]),
                                                                          os.path.basename(world["nccl"])])
    assert os.stat(os.path.dirname(world["cudnn"])).st_mode & 0o077 == 0
    # The profile lists both; `profile show` shows them.
    show = run_cudaenv(["profile", "show", "cuda-13.5.0"], world["env"])
    assert show.returncode == 0, show.stderr
    import yaml

    doc = yaml.safe_load(show.stdout)
    assert doc["addons"] == [{"name": "cudnn", "version": CUDNN, "cuda": "13", "root": world["cudnn"]},
                             {"name": "nccl", "version": NCCL, "cuda": "13", "root": world["nccl"]}]
    assert yaml.safe_load(open(world["profile"]))["addons"] == doc["addons"]


@pytest.mark.slow
def test_use_and_off_are_exact_in_bash_and_a_build_needs_no_flags(world):
    """bash: use exposes both add-ons (a cuDNN program compiles and links with no -I/-L and runs); off
    restores every variable exactly (unset stays unset, empty stays empty), keeping what the user added."""
    need("bash")
    assert world["first"].returncode == 0 and world["second"].returncode == 0
    env = dict(world["env"], CPATH="/opt/mine/include", LIBRARY_PATH="")
    env.pop("CMAKE_PREFIX_PATH", None)
    work = world["base"] / "bash"
    work.mkdir(exist_ok=True)
    (work / "v.cpp").write_text('#include <cstdio>\n#include <cudnn.h>\n#include <nccl.h>\n'
                                'int main() { int n = 0; ncclGetVersion(&n); '
                                'std::printf("%zu %d\\n", cudnnGetVersion(), n); }\n')
    script = f"""
        set -u
        cd {work}
        env -0 | sort -z > "$OUT/before"
        eval "$(cudaenv use cuda-13.5.0)" || exit 9
        env -0 | sort -z > "$OUT/during"
        nvcc -o v v.cpp -lcudnn -lnccl || exit 8
        ./v > "$OUT/ran" || exit 7
        eval "$(cudaenv off)" || exit 6
        env -0 | sort -z > "$OUT/after"
        eval "$(cudaenv use cuda-13.5.0)" || exit 5
        CPATH="/added/by/me:$CPATH"
        eval "$(cudaenv off)" || exit 4
        printf '%s' "$CPATH" > "$OUT/cpath"
    """
    res = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    out = world["base"] / "out"

    def dump(name):
        pairs = [e.split("=", 1) for e in (out / name).read_text().split("\0") if e and "=" in e]
        return {k: v for k, v in pairs if k not in ("_", "OLDPWD", "PWD")}

    before, during, after = dump("before"), dump("during"), dump("after")
    assert after == before
    cudnn, nccl, root = world["cudnn"], world["nccl"], world["root"]
    assert during["CPATH"] == f"{cudnn}/include:{nccl}/include:/opt/mine/include"
    assert during["LIBRARY_PATH"].split(":")[-2:] == [f"{cudnn}/lib", f"{nccl}/lib"]
    assert "" not in during["LIBRARY_PATH"].split(":") and "" not in during["LD_LIBRARY_PATH"].split(":")
    assert f"{cudnn}/lib" in during["LD_LIBRARY_PATH"].split(":")
    assert during["CMAKE_PREFIX_PATH"] == f"{cudnn}:{nccl}"
    assert during["CUDNN_HOME"] == cudnn and during["CUDNN_INCLUDE_DIR"] == f"{cudnn}/include"
    assert during["CUDNN_LIB_DIR"] == f"{cudnn}/lib" and during["CUDNN_LIBRARY"] == f"{cudnn}/lib/libcudnn.so"
    assert during["NCCL_INCLUDE_DIR"] == f"{nccl}/include" and during["NCCL_LIB_DIR"] == f"{nccl}/lib"
    assert during["CUDA_HOME"] == root
    assert (out / "ran").read_text().split() == ["92400", "23007"]
    assert (out / "cpath").read_text() == "/added/by/me:/opt/mine/include"
    assert "CMAKE_PREFIX_PATH" not in after and after["LIBRARY_PATH"] == ""


@pytest.mark.slow
def test_an_older_addon_does_not_shadow_the_environments_wheels(world, venv_cu, tmp_path):
    """loader_path auto: torch's venv ships nvidia-cudnn-cu13 9.24.0.43; an add-on holding an older
    libcudnn (9.1.0 here) stays on LIBRARY_PATH for builds but is left off LD_LIBRARY_PATH."""
    assert world["first"].returncode == 0
    old = tmp_path / "cudnn-9.1.0.70-cu13"
    lib = old / "lib"
    os.makedirs(lib)
    os.symlink(os.path.join(world["cudnn"], "include"), old / "include")
    os.makedirs(old / "dist-info" / "nvidia_cudnn_cu13-9.1.0.70.dist-info")
    for n in os.listdir(os.path.join(world["cudnn"], "lib")):
        src = os.path.join(world["cudnn"], "lib", n)
        if not os.path.islink(src):  # the real library files, under an older full version
            stem = n.split(".so.", 1)[0]
            os.link(src, lib / f"{stem}.so.9.1.0")
            os.symlink(f"{stem}.so.9.1.0", lib / f"{stem}.so.9")
            os.symlink(f"{stem}.so.9", lib / f"{stem}.so")
    prof = world["base"] / "cfg" / "cudaenv" / "profiles" / "older.yaml"
    prof.write_text(f"name: older\nroot: {world['root']}\nset: {{CUDA_HOME: '{{root}}'}}\n"
                    f"prepend: {{PATH: ['{{root}}/bin'], LD_LIBRARY_PATH: ['{{root}}/lib64']}}\n"
                    f"addons: [{{name: cudnn, version: 9.1.0.70, cuda: '13', root: '{old}'}}]\n")
    try:
        venv = os.path.dirname(os.path.dirname(venv_cu))
        env = dict(world["env"], VIRTUAL_ENV=venv, PATH=f"{venv}/bin:{world['env']['PATH']}")
        res = run_cudaenv(["use", "older", "--shell", "json"], env)
        assert res.returncode == 0, res.stderr
        got = json.loads(res.stdout)["set"]
        ld = got["LD_LIBRARY_PATH"].split(":")
        assert f"{old}/lib" not in ld and f"{old}/lib" in got["LIBRARY_PATH"].split(":")
        assert "left libcudnn" in res.stderr and "9.1.0" in res.stderr and "nvidia-cudnn-cu13 9.24.0.43" in res.stderr
        # The add-on of the wheel's own version goes on as written.
        res = run_cudaenv(["use", "cuda-13.5.0", "--shell", "json"], env)
        assert res.returncode == 0, res.stderr
        assert f"{world['cudnn']}/lib" in json.loads(res.stdout)["set"]["LD_LIBRARY_PATH"].split(":")
    finally:
        prof.unlink()


# --------------------------------------------------------------------------- check, verify

@pytest.mark.slow
def test_check_knows_the_pairs_and_refuses_a_cudnn_of_another_major(world, testbed):
    assert world["first"].returncode == 0 and world["second"].returncode == 0
    env = world["env"]
    res = _cudaenv(["check", "cuda-13.5.0", "--json"], env, timeout=300)
    found = [f for r in json.loads(res.stdout)["results"] for f in r["findings"] if f["id"] == "addon.cuda"]
    assert [f["status"] for f in found] == ["ok", "ok"], found
    assert "built for CUDA 13 (nvidia-cudnn-cu13)" in found[0]["summary"]
    # The real CUDA 12.4 toolkit of the test bed, its profile listing this CUDA 13 cuDNN.
    prof = world["base"] / "cfg" / "cudaenv" / "profiles" / "twelve.yaml"
    prof.write_text(f"name: twelve\nroot: {testbed['12.4']}\n"
                    f"addons: [{{name: cudnn, version: '{CUDNN}', cuda: '12', root: '{world['cudnn']}'}}]\n")
    try:
        res = _cudaenv(["check", "twelve"], env, timeout=300)
        assert res.returncode != 0
        line = next(ln for ln in res.stdout.splitlines() if "addon.cuda" in ln)
        assert "FAIL" in line and "built for CUDA 13 (nvidia-cudnn-cu13)" in line and "major 12" in line, res.stdout
        assert "the wheel's own name wins" in line  # the profile's `cuda: 12` is not believed
        assert "--with cudnn" in res.stdout
    finally:
        prof.unlink()


@pytest.mark.slow
def test_verify_compiles_links_and_runs_both(world):
    assert world["first"].returncode == 0 and world["second"].returncode == 0
    res = _cudaenv(["verify", "cuda-13.5.0", "--no-cache", "--json"], world["env"], timeout=600)
    doc = json.loads(res.stdout)
    steps = {s["id"]: s for r in doc["results"] for s in r["steps"]}
    for sid in ("cudnn-build", "cudnn-run", "nccl-build", "nccl-run"):
        assert steps[sid]["status"] == "pass", steps[sid]
    assert "needs libcudnn.so.9" in steps["cudnn-build"]["summary"]
    assert steps["cudnn-run"]["summary"] == "cudnnGetVersion 92400, built with CUDA runtime 13030"
    assert steps["nccl-run"]["summary"] == "ncclGetVersion 23007"


# --------------------------------------------------------------------------- a wheel that lies

def _lying_wheel(d, member_root: str, dist: str, extra: dict | None = None) -> None:
    """A small wheel named as cuDNN 9.99.0.1 for CUDA 13 whose contents say otherwise."""
    os.makedirs(d, exist_ok=True)
    with zipfile.ZipFile(os.path.join(d, "nvidia_cudnn_cu13-9.99.0.1-py3-none-manylinux_2_27_x86_64.whl"), "w") as z:
        z.writestr(f"{member_root}/include/cudnn.h", "#define CUDNN_MAJOR 9\n")
        z.writestr(f"{member_root}/lib/libcudnn.so.9", b"\x7fELF not really")
        z.writestr(f"{dist}.dist-info/METADATA", "Metadata-Version: 2.1\nName: x\nVersion: 9.99.0.1\n")
        for name, data in (extra or {}).items():
            z.writestr(name, data)


@pytest.mark.slow
@pytest.mark.parametrize("dist, extra, words", [
    ("nvidia_cudnn_cu12-9.99.0.1", None, "nvidia-cudnn-cu12"),          # built for another major
    ("nvidia_cudnn_cu13-9.99.0.1", {"nvidia/cudnn/../../../../escaped": "x"}, "'..'"),  # a path out of the tree
    ("nvidia_nccl_cu13-9.99.0.1", None, "wheel metadata"),              # not cuDNN at all
])
def test_a_wheel_that_is_not_what_its_name_says_is_refused(world, tmp_path, dist, extra, words):
    assert world["first"].returncode == 0
    bad = tmp_path / "bad"
    _lying_wheel(str(bad), "nvidia/cudnn", dist, extra)
    before = open(world["profile"]).read()
    res = _cudaenv(["install", "13.5.0", "--source", MIRROR, "--source", str(bad), "--with", "cudnn=9.99"],
                   world["env"], timeout=300)
    assert res.returncode != 0 and res.stdout == "", res.stdout
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("cudaenv: ") and words in last and "no add-on was listed" in last, res.stderr
    assert "Traceback" not in res.stderr
    addons = os.path.dirname(world["cudnn"])
    assert not [n for n in os.listdir(addons) if "9.99" in n and not n.endswith(".lock")]
    assert not os.path.exists(tmp_path.parent / "escaped") and open(world["profile"]).read() == before


@pytest.mark.slow
def test_an_interrupted_addon_install_leaves_nothing(world):
    """SIGINT while NCCL unpacks: exit 130, no staging directory, the profile as it was, stdout empty;
    the next run installs it."""
    import signal
    import time

    from helpers import default_signals

    assert world["second"].returncode == 0
    aside = world["nccl"] + ".aside"
    os.rename(world["nccl"], aside)
    addons = os.path.dirname(world["nccl"])
    before = open(world["profile"]).read()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "cudaenv", "install", "13.5.0", "--source", MIRROR,
                                 "--source", WHEELS, "--with", "nccl"], env=dict(world["env"], PYTHONPATH=REPO),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # wait until it unpacks: its staging directory holds files
            staging = [os.path.join(addons, n) for n in os.listdir(addons) if ".staging-" in n]
            if staging and any(files for _d, _s, files in os.walk(staging[0])):
                break
            if proc.poll() is not None:
                pytest.fail(f"finished before it could be interrupted: {proc.communicate()}")
            time.sleep(0.02)
        else:
            proc.kill()
            pytest.fail("the add-on never started unpacking")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert out == "" and "no add-on was listed" in err and "Traceback" not in err
        assert not [n for n in os.listdir(addons) if ".staging-" in n or n == os.path.basename(world["nccl"])]
        assert open(world["profile"]).read() == before
    finally:
        if os.path.isdir(world["nccl"]) and not os.path.islink(world["nccl"]):
            import shutil

            shutil.rmtree(world["nccl"])
        os.rename(aside, world["nccl"])
