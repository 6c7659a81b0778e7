"""The Python environment a switch lands in, and loader_path (issue 11), with real parts.

The shadowing bed (tests/shadow.sh) is NVIDIA's own wheels from the registry: a venv holding
nvidia-cusparse-cu12 12.3.1.170 + nvidia-nvjitlink-cu12 12.4.127, and an older toolkit lib64 with
the real libnvJitLink 12.1.105. Loading the wheel's libcusparse with that lib64 first on
LD_LIBRARY_PATH fails with `undefined symbol: __nvJitLinkComplete_12_4`, as users report.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from cudaenv.host.pyenv import locate, wheel_inventory
from cudaenv.infra.index import Index
from conftest import TESTBED
from helpers import clean_shell_env, make_toolkit, need, run_cudaenv, setup_missing

SHADOW = os.path.join(TESTBED, "shadow")
SITE = os.path.join(SHADOW, "venv", "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
CUSPARSE = os.path.join(SITE, "nvidia", "cusparse", "lib", "libcusparse.so.12")
SYMBOL = "undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12"


@pytest.fixture(scope="module")
def shadow_bed() -> str:
    if not os.path.isfile(os.path.join(SHADOW, ".cudaenv-complete")):
        msg = f"{SHADOW} missing: run bash tests/shadow.sh"
        setup_missing(msg)
    return SHADOW


def old_toolkit(tmp_path, lib_from: str, version: str = "12.1.1") -> str:
    """A toolkit tree whose lib64 holds the real libnvJitLink files of ``lib_from`` (links)."""
    root = make_toolkit(str(tmp_path / f"cuda-{version[:4]}"), version)
    lib = os.path.join(root, "lib64")
    for n in os.listdir(lib_from):
        src = os.path.join(lib_from, n)
        os.symlink(os.readlink(src) if os.path.islink(src) else src, os.path.join(lib, n))
    return root


def venv_env(base: dict, venv: str) -> dict:
    env = dict(base)
    env["VIRTUAL_ENV"] = venv
    env["PATH"] = f"{venv}/bin:{env['PATH']}"
    return env


# --------------------------------------------------------------------------- locate


def test_locate_a_virtualenv_by_the_python3_on_path(shadow_bed):
    env = venv_env({"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}, os.path.join(shadow_bed, "venv"))
    found = locate(env)
    assert found["kind"] == "venv" and found["prefix"] == os.path.join(shadow_bed, "venv")
    assert found["site"] == [SITE] and found["user_site"] is None  # a venv does not see the user site
    # VIRTUAL_ENV alone (python3 elsewhere on PATH) is not where `python` runs.
    assert locate({"PATH": "/usr/bin:/bin", "VIRTUAL_ENV": found["prefix"]})["prefix"] != found["prefix"]


def test_locate_conda_prefix_and_user_site(tmp_path):
    prefix = tmp_path / "env"
    (prefix / "conda-meta").mkdir(parents=True)
    (prefix / "bin").mkdir()
    (prefix / "lib" / "python3.12" / "site-packages").mkdir(parents=True)
    os.symlink(sys.executable, prefix / "bin" / "python3")
    user = tmp_path / "home" / ".local" / "lib" / "python3.12" / "site-packages"
    user.mkdir(parents=True)
    found = locate({"PATH": f"{prefix}/bin:/usr/bin", "HOME": str(tmp_path / "home")})
    assert found["kind"] == "conda" and found["site"] == [str(prefix / "lib" / "python3.12" / "site-packages")]
    assert found["user_site"] == str(user)
    assert locate({"PATH": f"{prefix}/bin", "HOME": str(tmp_path / "home"), "PYTHONNOUSERSITE": "1"})["user_site"] is None
    assert locate({"PATH": str(tmp_path / "nowhere")}) is None


def test_locate_follows_a_pyenv_shim_as_pyenv_does(tmp_path):
    """The oracle is the real pyenv: `pyenv which python3` under the same settings."""
    pyenv = shutil.which("pyenv") or os.path.expanduser("~/.pyenv/bin/pyenv")
    if not os.access(pyenv, os.X_OK):
        pytest.skip("pyenv not installed")
    root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
    versions = subprocess.run([pyenv, "versions", "--bare"], capture_output=True, text=True).stdout.split()
    if not versions:
        pytest.skip("pyenv has no versions")
    base = {"PATH": f"{root}/shims:/usr/bin:/bin", "PYENV_ROOT": root, "HOME": os.environ.get("HOME", "/root")}
    cases = [dict(base, PYENV_VERSION=versions[0]), dict(base, PYENV_VERSION="system")]
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    (tmp_path / "proj" / ".python-version").write_text(versions[0] + "\n")
    for env, cwd in [(c, str(tmp_path)) for c in cases] + [(base, str(tmp_path / "proj" / "sub"))]:
        want = subprocess.run([pyenv, "which", "python3"], env=env, cwd=cwd, capture_output=True, text=True)
        found = locate(env, cwd)
        assert want.returncode == 0 and found is not None
        assert os.path.realpath(found["python"]) == os.path.realpath(want.stdout.strip()), (env, cwd)


# --------------------------------------------------------------------------- inventory


def test_inventory_reads_the_wheels_records(shadow_bed, tmp_path):
    env = venv_env({"PATH": "/usr/bin:/bin"}, os.path.join(shadow_bed, "venv"))
    index = Index(None)
    inv = wheel_inventory(locate(env), index)
    assert inv["libs"]["libnvJitLink.so.12"] == [os.path.join(SITE, "nvidia/nvjitlink/lib/libnvJitLink.so.12"),
                                                 "nvidia-nvjitlink-cu12", "12.4.127"]
    assert inv["libs"]["libcusparse.so.12"][1:] == ["nvidia-cusparse-cu12", "12.3.1.170"]
    index.dirty = False
    assert wheel_inventory(locate(env), index) == inv and not index.dirty  # cached by mtime
    assert wheel_inventory(None) == {"libs": {}, "tools": {}}


def test_inventory_follows_pip_install_and_uninstall(shadow_bed, tmp_path):
    venv = str(tmp_path / "v")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    env = venv_env({"PATH": "/usr/bin:/bin"}, venv)
    index = Index(None)
    assert wheel_inventory(locate(env), index)["libs"] == {}
    whl = [os.path.join(shadow_bed, "wheels", n) for n in os.listdir(os.path.join(shadow_bed, "wheels"))
           if n.startswith("nvidia_nvjitlink_cu12-12.1.105")]
    pip = [sys.executable, "-m", "pip", "--python", os.path.join(venv, "bin", "python"), "-q",
           "--disable-pip-version-check"]
    subprocess.run(pip + ["install", "--no-deps", "--no-index", *whl], check=True)
    assert wheel_inventory(locate(env), index)["libs"]["libnvJitLink.so.12"][1:] == ["nvidia-nvjitlink-cu12", "12.1.105"]
    subprocess.run(pip + ["uninstall", "-y", "nvidia-nvjitlink-cu12"], check=True)
    assert wheel_inventory(locate(env), index)["libs"] == {}


# --------------------------------------------------------------------------- loader_path, for real


def load_cusparse(tmp_path, shadow_bed, profile_extra: str = "", lib_from: str | None = None,
                  ) -> tuple[subprocess.CompletedProcess, dict]:
    """bash: activate the wheel venv, eval `cudaenv use 12.1`, load the wheel's libcusparse with ctypes."""
    need("bash")
    root = old_toolkit(tmp_path, lib_from or os.path.join(shadow_bed, "cuda-12.1", "lib64"))
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=root)
    if profile_extra:
        prof = tmp_path / "cfg" / "cudaenv" / "profiles"
        prof.mkdir(parents=True, exist_ok=True)
        (prof / "old.yaml").write_text(f"name: old\nroot: {root}\nset: {{CUDA_HOME: '{{root}}'}}\n"
                                       "prepend: {PATH: ['{root}/bin'], LD_LIBRARY_PATH: ['{root}/lib64']}\n"
                                       + profile_extra)
    target = "old" if profile_extra else "12.1"
    script = f"""
        . {shadow_bed}/venv/bin/activate
        before=${{LD_LIBRARY_PATH-unset}}
        eval "$(cudaenv use {target})" || exit 9
        printf '%s\\n' "$LD_LIBRARY_PATH" > "$OUT/ld"
        python -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1]); print("loaded")' {CUSPARSE}
        rc=$?
        eval "$(cudaenv off)"
        [ "${{LD_LIBRARY_PATH-unset}}" = "$before" ] || echo "off did not restore LD_LIBRARY_PATH" >&2
        exit $rc
    """
    res = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=120)
    return res, {"root": root, "ld": (tmp_path / "out" / "ld").read_text().strip(), "env": env}


def test_always_reproduces_the_undefined_symbol(shadow_bed, tmp_path):
    res, _ = load_cusparse(tmp_path, shadow_bed, "loader_path: always\n")
    assert res.returncode != 0 and SYMBOL in res.stderr, res.stderr


def test_auto_leaves_the_older_copy_out_and_the_wheels_load(shadow_bed, tmp_path):
    res, got = load_cusparse(tmp_path, shadow_bed)
    assert res.returncode == 0 and "loaded" in res.stdout, res.stderr
    assert "off did not restore" not in res.stderr
    assert "left libnvJitLink.so.12 12.1.105 of" in res.stderr and "nvidia-nvjitlink-cu12 12.4.127" in res.stderr
    mirror = got["ld"].split(":")[0]
    assert mirror.startswith(str(tmp_path / "cache")) and "" not in got["ld"].split(":")
    names = set(os.listdir(mirror))
    assert "libcudart.so.12" in names and not any(n.startswith("libnvJitLink") for n in names)
    assert os.path.realpath(os.path.join(mirror, "libcudart.so.12")) == os.path.join(got["root"], "lib64", "libcudart.so.12")


def test_never_adds_no_library_directory(shadow_bed, tmp_path):
    res, got = load_cusparse(tmp_path, shadow_bed, "loader_path: never\n")
    assert res.returncode == 0, res.stderr
    assert got["root"] not in got["ld"] and "/loader/" not in got["ld"]


def test_same_version_is_kept_as_written(shadow_bed, tmp_path):
    """A toolkit whose copy is the wheel's own version: nothing to protect, lib64 goes on as is."""
    lib = tmp_path / "same"
    lib.mkdir()
    os.symlink(os.path.join(SITE, "nvidia", "nvjitlink", "lib", "libnvJitLink.so.12"), lib / "libnvJitLink.so.12.4.127")
    os.symlink("libnvJitLink.so.12.4.127", lib / "libnvJitLink.so.12")
    root = old_toolkit(tmp_path, str(lib), "12.4.1")
    env = venv_env(dict(clean_shell_env(tmp_path), CUDAENV_ROOTS=root), os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["use", "12.4", "--shell", "json"], env)
    assert res.returncode == 0, res.stderr
    ld = json.loads(res.stdout)["set"]["LD_LIBRARY_PATH"]
    assert ld.split(":")[0] == os.path.join(root, "lib64") and "loader_path" not in res.stderr


def test_an_unusable_cache_leaves_the_directory_out(shadow_bed, tmp_path):
    root = old_toolkit(tmp_path, os.path.join(shadow_bed, "cuda-12.1", "lib64"))
    (tmp_path / "cachefile").write_text("")
    env = venv_env(dict(clean_shell_env(tmp_path), CUDAENV_ROOTS=root, XDG_CACHE_HOME=str(tmp_path / "cachefile")),
                   os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["use", "12.1", "--shell", "json"], env)
    assert res.returncode == 0, res.stderr
    ld = json.loads(res.stdout)["set"].get("LD_LIBRARY_PATH") or ""
    assert os.path.join(root, "lib64") not in ld
    assert "leaving" in res.stderr and "off LD_LIBRARY_PATH" in res.stderr


def test_doctor_names_both_files_and_versions(shadow_bed, tmp_path):
    root = old_toolkit(tmp_path, os.path.join(shadow_bed, "cuda-12.1", "lib64"))
    env = venv_env(dict(clean_shell_env(tmp_path), LD_LIBRARY_PATH=os.path.join(root, "lib64")),
                   os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["doctor", "--json"], env)
    found = [f for f in json.loads(res.stdout)["shell"] if f["id"] == "env.wheel_shadowing"]
    assert found and found[0]["status"] == "fail", res.stdout
    s = found[0]["summary"]
    assert os.path.join(shadow_bed, "cuda-12.1", "lib64", "libnvJitLink.so.12.1.105") in s and "12.1.105" in s
    assert os.path.join(SITE, "nvidia", "nvjitlink", "lib", "libnvJitLink.so.12") in s and "12.4.127" in s
    # After `use` (auto) the same shell is clean.
    env2 = venv_env(clean_shell_env(tmp_path, CUDAENV_ROOTS=root), os.path.join(shadow_bed, "venv"))
    res = subprocess.run(["bash", "-c", 'eval "$(cudaenv use 12.1 2>/dev/null)"; cudaenv doctor --json'],
                         env=env2, capture_output=True, text=True, timeout=120)
    found = [f for f in json.loads(res.stdout)["shell"] if f["id"] == "env.wheel_shadowing"]
    assert found and found[0]["status"] == "ok", res.stdout


def test_venv_cu_torch_wheels_are_not_shadowed_by_the_test_bed(venv_cu, testbed, tmp_path):
    """torch 2.14.1 cu130 ships libnvJitLink.so.13 13.5.37 in its wheels; a 13.5 toolkit's lib holds the same major."""
    venv = os.path.dirname(os.path.dirname(venv_cu))
    env = venv_env(dict(clean_shell_env(tmp_path), CUDAENV_ROOTS=":".join(testbed.values())), venv)
    res = run_cudaenv(["use", "13.5", "--shell", "json"], env)
    assert res.returncode == 0, res.stderr
    inv = wheel_inventory(locate(env))
    assert inv["libs"]["libcudart.so.13"][1] == "nvidia-cuda-runtime"


# --------------------------------------------------------------------------- --match-torch


def torch_ctx(tmp_path, venv: str, roots: list[str]):
    from cudaenv.context import Context
    from cudaenv.toolkit.discover import Layout

    env = venv_env({"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CUDAENV_ROOTS": ":".join(roots),
                    "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}, venv)
    lay = Layout(usr_local=str(tmp_path / "none"), opt=str(tmp_path / "none"), debian_nvcc="/nonexistent")
    return Context(env=env, cwd=str(tmp_path), layout=lay)


def test_torch_build_is_read_from_its_version_file(venv_cu, venv_cpu):
    from cudaenv.host.pyenv import torch_build

    cu = torch_build(locate({"PATH": os.path.dirname(venv_cu) + ":/usr/bin"}))
    assert cu["cuda"] == "13.0" and cu["version"] == "2.14.1+cu130"
    cpu = torch_build(locate({"PATH": os.path.dirname(venv_cpu) + ":/usr/bin"}))
    assert cpu["cuda"] is None and cpu["version"].endswith("+cpu")


def test_match_torch_takes_the_same_minor_not_the_newest(venv_cu, testbed, tmp_path):
    """cu130 torch with 11.8, 12.4, 13.0 and 13.5 installed -> 13.0 (13.5 is not a better match)."""
    from cudaenv.profiles.resolve import resolve_target

    t130 = make_toolkit(str(tmp_path / "cuda-13.0"), "13.0.2")
    venv = os.path.dirname(os.path.dirname(venv_cu))
    ctx = torch_ctx(tmp_path, venv, list(testbed.values()) + [t130])
    notes: list[str] = []
    _profile, tk = resolve_target(ctx, "torch", notes)
    assert tk["full_version"] == "13.0.2" and notes == []
    # Without 13.0: the nearest of the same major, with a note naming what to install.
    ctx = torch_ctx(tmp_path, venv, list(testbed.values()))
    _profile, tk = resolve_target(ctx, "torch", notes)
    assert tk["full_version"].startswith("13.5") and "cudaenv install 13.0" in notes[0]
    # No 13.x at all: a clear error naming the version to install.
    from cudaenv.errors import CudaenvError

    ctx = torch_ctx(tmp_path, venv, [testbed["11.8"], testbed["12.4"]])
    with pytest.raises(CudaenvError) as exc:
        resolve_target(ctx, "torch")
    assert "CUDA 13.0" in exc.value.message and "cudaenv install 13.0" in exc.value.hint


def test_match_rule_prefers_the_nearest_older_minor():
    from cudaenv.profiles.torchmatch import pick

    tks = [{"full_version": v, "origin": None} for v in ("12.1.1", "12.4.1", "12.8.0", "13.0.2")]
    assert pick("12.4", tks) == (tks[1], "same")
    assert pick("12.6", tks) == (tks[1], "older")
    assert pick("12.0", tks) == (tks[0], "newer")
    assert pick("11.8", tks) == (None, "none")
    wheel = {"full_version": "12.4.1", "origin": {"kind": "wheels"}}
    assert pick("12.4", [wheel, tks[1]])[0] is tks[1] and pick("12.4", [tks[1], wheel])[0] is tks[1]


def test_use_match_torch_for_real(venv_cu, venv_cpu, testbed, tmp_path):
    need("bash")
    t130 = make_toolkit(str(tmp_path / "cuda-13.0"), "13.0.2")
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=":".join(list(testbed.values()) + [t130]))
    cu = venv_env(env, os.path.dirname(os.path.dirname(venv_cu)))
    res = run_cudaenv(["use", "--match-torch", "--shell", "json"], cu)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["set"]["CUDA_HOME"] in (t130, "/usr/local/cuda-13.0")
    # The pin may say torch.
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / ".cuda-version").write_text("torch\n")
    res = run_cudaenv(["use", "--shell", "json"], cu, cwd=str(tmp_path / "proj"))
    assert res.returncode == 0 and json.loads(res.stdout)["set"]["CUDA_HOME"] in (t130, "/usr/local/cuda-13.0")
    # A CPU-only torch: a clear one-line error, nothing on stdout.
    cpu = venv_env(env, os.path.dirname(os.path.dirname(venv_cpu)))
    for args in (["use", "--match-torch"], ["check", "--match-torch", "--no-torch"]):
        res = run_cudaenv(args, cpu)
        assert res.returncode == 2 and res.stdout == "", res
        assert "2.13.0+cpu" in res.stderr and "CPU-only build" in res.stderr
    res = run_cudaenv(["use", "12.4", "--match-torch"], cu)
    assert res.returncode == 2 and res.stdout == "" and "not both" in res.stderr
    res = run_cudaenv(["check", "--match-torch", "--no-torch"], cu)
    assert res.stdout.startswith("cuda-13.0") or "CUDA 13.0" in res.stdout.splitlines()[0], res.stdout


def torch_loads(tmp_path, venv_cu: str, shadow_bed: str, extra: str) -> tuple[subprocess.CompletedProcess, str]:
    """bash: activate venv-cu, `cudaenv use` an older-nvjitlink 13.0 profile, import torch; which libnvJitLink is mapped."""
    root = old_toolkit(tmp_path, os.path.join(shadow_bed, "cuda-13.0", "lib64"), "13.0.2")
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=root)
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True, exist_ok=True)
    (prof / "old13.yaml").write_text(f"name: old13\nroot: {root}\nset: {{CUDA_HOME: '{{root}}'}}\n"
                                     "prepend: {PATH: ['{root}/bin'], LD_LIBRARY_PATH: ['{root}/lib64']}\n" + extra)
    venv = os.path.dirname(os.path.dirname(venv_cu))
    # A wheel library loaded before torch (as CuPy, JAX or a plain ctypes user does), then torch itself.
    code = ("import ctypes, glob, os, sys; "
            "[ctypes.CDLL(p) for p in glob.glob(sys.prefix + '/lib/python3*/site-packages/nvidia/cu13/lib/libcusparse.so.*')]; "
            "import torch; "
            "print(sorted({os.path.realpath(l.split()[-1]) for l in open('/proc/self/maps') if 'libnvJitLink' in l}))")
    script = f'. {venv}/bin/activate; eval "$(cudaenv use old13)" || exit 9; python -c "{code}"'
    res = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300)
    return res, root


def test_the_torch_venv_keeps_its_own_nvjitlink(venv_cu, shadow_bed, tmp_path):
    """venv-cu's torch (cu130) ships libnvJitLink 13.5.37; a 13.0 lib64 holds 13.0.88 of the same soname."""
    res, root = torch_loads(tmp_path / "always", venv_cu, shadow_bed, "loader_path: always\n")
    assert res.returncode == 0, res.stderr
    assert "libnvJitLink.so.13.0.88" in res.stdout  # the toolkit's older copy got in
    res, root = torch_loads(tmp_path / "auto", venv_cu, shadow_bed, "")
    assert res.returncode == 0, res.stderr
    assert "13.0.88" not in res.stdout and "/nvidia/cu13/lib/libnvJitLink.so.13" in res.stdout, res.stdout
    assert "left libnvJitLink.so.13 13.0.88" in res.stderr and "nvidia-nvjitlink 13.5.37" in res.stderr


def test_check_reports_what_use_leaves_out_and_what_always_would_break(shadow_bed, tmp_path):
    root = old_toolkit(tmp_path, os.path.join(shadow_bed, "cuda-12.1", "lib64"))
    env = venv_env(dict(clean_shell_env(tmp_path), CUDAENV_ROOTS=root), os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["check", "12.1", "--no-torch", "--json"], env)
    found = [f for f in json.loads(res.stdout)["results"][0]["findings"] if f["id"] == "env.wheel_shadowing"]
    assert [f["status"] for f in found] == ["info"], found
    assert "12.1.105" in found[0]["detail"] and "12.4.127" in found[0]["detail"]
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True, exist_ok=True)
    (prof / "old.yaml").write_text(f"name: old\nroot: {root}\nloader_path: always\n"
                                   "prepend: {LD_LIBRARY_PATH: ['{root}/lib64']}\n")
    res = run_cudaenv(["check", "old", "--no-torch", "--json"], env)
    found = [f for f in json.loads(res.stdout)["results"][0]["findings"] if f["id"] == "env.wheel_shadowing"]
    assert [f["status"] for f in found] == ["fail"] and res.returncode == 1


def test_a_newer_wheel_ptxas_is_named_when_use_puts_an_older_one_first(shadow_bed, testbed, tmp_path):
    """nvidia-cuda-nvcc-cu12 12.6.85 ships bin/ptxas; the test bed's 12.4 puts its own first on PATH."""
    env = venv_env(clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"]), os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["use", "12.4", "--shell", "bash"], env)
    assert res.returncode == 0, res.stderr
    assert "ptxas" in res.stderr and "nvidia-cuda-nvcc-cu12 12.6.85" in res.stderr
    # doctor in the switched shell says the same, with both files.
    res = subprocess.run(["bash", "-c", 'eval "$(cudaenv use 12.4 2>/dev/null)"; cudaenv doctor --json'],
                         env=env, capture_output=True, text=True, timeout=120)
    found = [f for f in json.loads(res.stdout)["shell"] if f["id"] == "env.wheel_shadowing"]
    assert [f["status"] for f in found] == ["warn"], found
    assert os.path.join(testbed["12.4"], "bin", "ptxas") in found[0]["summary"]
    assert os.path.join(SITE, "nvidia", "cuda_nvcc", "bin", "ptxas") in found[0]["summary"]


# ------------------------------------------------- a toolkit library whose version cannot be read


def unversioned(tmp_path, real: str, name: str = "libnvJitLink.so.12") -> str:
    """A lib directory holding ``real`` as a plain file named by its soname only (a hard link: no copy)."""
    lib = tmp_path / "unversioned"
    lib.mkdir(parents=True)
    os.link(os.path.realpath(real), lib / name)
    return str(lib)


def test_an_unversioned_library_lacking_the_wheels_symbols_is_left_out(shadow_bed, tmp_path):
    """nvJitLink 12.1 as a bare libnvJitLink.so.12: no version to compare, but it lacks __nvJitLinkComplete_12_4."""
    old = os.path.join(shadow_bed, "cuda-12.1", "lib64", "libnvJitLink.so.12.1.105")
    res, _ = load_cusparse(tmp_path / "always", shadow_bed, "loader_path: always\n",
                           unversioned(tmp_path / "always", old))
    assert res.returncode != 0 and SYMBOL in res.stderr, res.stderr  # the bed really breaks
    res, got = load_cusparse(tmp_path / "auto", shadow_bed, lib_from=unversioned(tmp_path / "auto", old))
    assert res.returncode == 0 and "loaded" in res.stdout, res.stderr
    assert "off did not restore" not in res.stderr
    note = [line for line in res.stderr.splitlines() if "loader_path auto" in line]
    assert len(note) == 1, res.stderr
    assert "libnvJitLink.so.12 (version unknown) lacks 54 symbols of the wheel's 12.4.127 (" in note[0], note
    assert "__nvJitLinkComplete_12_4" in note[0] and "; libcusparse.so.12 needs 8 of them" in note[0], note
    mirror = got["ld"].split(":")[0]
    assert "/loader/" in mirror and not any(n.startswith("libnvJitLink") for n in os.listdir(mirror))
    # check says what use leaves out, in words
    env = got["env"]
    env = venv_env(env, os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["check", "12.1", "--no-torch", "--json"], env)
    found = [f for f in json.loads(res.stdout)["results"][0]["findings"] if f["id"] == "env.wheel_shadowing"]
    assert [f["status"] for f in found] == ["info"], found
    assert "use leaves libnvJitLink.so.12 off LD_LIBRARY_PATH" in found[0]["summary"]


def test_an_unversioned_library_with_every_symbol_is_kept(shadow_bed, tmp_path):
    """The wheel's own 12.4.127 library under a bare soname defines everything the wheels need: kept as written."""
    lib = unversioned(tmp_path, os.path.join(SITE, "nvidia", "nvjitlink", "lib", "libnvJitLink.so.12"))
    res, got = load_cusparse(tmp_path, shadow_bed, lib_from=lib)
    assert res.returncode == 0 and "loaded" in res.stdout, res.stderr
    assert got["ld"].split(":")[0] == os.path.join(got["root"], "lib64") and "loader_path" not in res.stderr
    # doctor, with that directory on LD_LIBRARY_PATH, says what it found in words
    env = venv_env(dict(clean_shell_env(tmp_path), LD_LIBRARY_PATH=lib), os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["doctor", "--json"], env)
    (found,) = [f for f in json.loads(res.stdout)["shell"] if f["id"] == "env.wheel_shadowing"]
    assert found["status"] == "ok", found
    assert ("libnvJitLink.so.12 (version unknown) defines every symbol of the wheel's 12.4.127"
            in found["summary"]), found
    assert "unknown than" not in found["summary"]


@pytest.mark.parametrize("content", [b"not an ELF file\n", b"\x7fELF\x02\x01\x01" + b"\xff" * 100])
def test_an_unreadable_library_is_left_out(shadow_bed, tmp_path, content):
    bad = tmp_path / "bad"
    bad.write_bytes(content)
    res, got = load_cusparse(tmp_path, shadow_bed, lib_from=unversioned(tmp_path, str(bad)))
    assert res.returncode == 0 and "loaded" in res.stdout, res.stderr
    assert "libnvJitLink.so.12 (version unknown) cannot be read (" in res.stderr and "Traceback" not in res.stderr
    assert "/loader/" in got["ld"].split(":")[0]
    # doctor with it on LD_LIBRARY_PATH: a failure, in words
    env = venv_env(dict(clean_shell_env(tmp_path), LD_LIBRARY_PATH=os.path.join(got["root"], "lib64")),
                   os.path.join(shadow_bed, "venv"))
    res = run_cudaenv(["doctor", "--json"], env)
    found = [f for f in json.loads(res.stdout)["shell"] if f["id"] == "env.wheel_shadowing"]
    assert [f["status"] for f in found] == ["fail"] and "cannot be read" in found[0]["summary"], found


def test_dynamic_symbols_of_cut_and_mangled_files_are_one_clear_error(tmp_path):
    """Whatever a library file holds, reading its symbols raises ValueError (one line), nothing else."""
    from cudaenv.infra.elf import dynamic_symbols

    real = os.path.realpath(shutil.which("true") or "/bin/true")
    data = open(real, "rb").read()
    needed, defined, undefined = dynamic_symbols(real)
    assert "libc.so.6" in needed and undefined
    rng = random.Random(16)
    cases = [data[:n] for n in (0, 4, 20, 63, 64, 200, len(data) // 2, len(data) - 1)]
    for _ in range(60):
        b = bytearray(data)
        for _ in range(rng.randint(1, 12)):
            b[rng.randrange(64, len(b)) if rng.random() < 0.7 else rng.randrange(0, 64)] = rng.randrange(256)
        cases.append(bytes(b))
    for i, blob in enumerate(cases):
        p = tmp_path / f"c{i}"
        p.write_bytes(blob)
        try:
            dynamic_symbols(str(p))
        except ValueError as exc:
            assert "\n" not in str(exc)
