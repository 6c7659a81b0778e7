"""``cudaenv kernel install|remove|list`` with the real jupyter_client and ipykernel from PyPI.

Kernels are started by jupyter_client's own KernelManager from the kernelspec
cudaenv wrote, run code, and report ``os.environ`` and torch's
``torch.utils.cpp_extension.CUDA_HOME`` (torch 2.14.1, CUDA 13.0 build, from the
test bed). The Jupyter venv comes from tests/jupyter.sh (cached beside the test bed).
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import TESTBED
from helpers import HOSTILE, clean_shell_env, default_signals, parse_env0, setup_missing

pytestmark = pytest.mark.testbed

DEADLINE = 180
JUPYTER_VENV = os.path.join(TESTBED, "venv-jupyter")

#: Run by the Jupyter venv's python: start the named kernel with jupyter_client, run code, stop it.
DRIVER = r"""
import json, sys
from jupyter_client.manager import KernelManager
name, out = sys.argv[1], sys.argv[2]
km = KernelManager(kernel_name=name)
km.start_kernel()
try:
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=float(sys.argv[3]))
    code = ("import os, json, warnings\nwarnings.simplefilter('ignore')\n"
            "import torch.utils.cpp_extension as ext\n"
            "json.dump({'env': dict(os.environ), 'torch_cuda_home': ext.CUDA_HOME, 'pid': os.getpid()},"
            " open(%r, 'w'))\n" % out)
    reply = kc.execute_interactive(code, timeout=float(sys.argv[3]))
    kc.stop_channels()
    print(json.dumps({"status": reply["content"]["status"], "argv": km.kernel_spec.argv}))
finally:
    km.shutdown_kernel(now=True)
"""


@pytest.fixture(scope="session")
def jupyter_python() -> str:
    py = os.path.join(JUPYTER_VENV, "bin", "python")
    if not (os.path.isfile(os.path.join(JUPYTER_VENV, ".cudaenv-complete")) and os.access(py, os.X_OK)):
        msg = f"{JUPYTER_VENV} missing or incomplete: run bash tests/jupyter.sh"
        setup_missing(msg)
    return py


@pytest.fixture
def env(tmp_path, testbed):
    """A clean environment finding the real 12.4 toolkit; Jupyter's data dir under tmp_path."""
    e = clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"], LD_LIBRARY_PATH="/opt/user/lib",
                        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"))
    return e


def cudaenv(tmp_path, args, env, **kw):
    return subprocess.run([os.path.join(str(tmp_path), "bin", "cudaenv"), *args], env=env, capture_output=True,
                          text=True, timeout=DEADLINE, **kw)


def start_kernel(jupyter_python: str, name: str, env: dict, out: str) -> dict:
    res = subprocess.run([jupyter_python, "-c", DRIVER, name, out, str(DEADLINE)], env=env, capture_output=True,
                         text=True, timeout=DEADLINE * 3)
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads(res.stdout.strip().splitlines()[-1])["status"] == "ok", res.stdout
    with open(out) as f:
        return json.load(f)


def jupyter_kernels(jupyter_python: str, env: dict) -> dict:
    """What the real ``jupyter kernelspec list --json`` sees: name -> resource dir."""
    res = subprocess.run([os.path.join(os.path.dirname(jupyter_python), "jupyter"), "kernelspec", "list", "--json"],
                         env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert res.returncode == 0, res.stderr
    return {k: v["resource_dir"] for k, v in json.loads(res.stdout)["kernelspecs"].items()}


def venv_seeing_ipykernel(venv, jupyter_python: str) -> None:
    """A throwaway venv at ``venv`` whose python sees ipykernel (a .pth to ``jupyter_python``'s site-packages)."""
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    subprocess.run([jupyter_python, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=DEADLINE)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", purelib], capture_output=True, text=True,
                          check=True).stdout.strip()
    jsite = subprocess.run([jupyter_python, "-c", purelib], capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(site, "jupyter-site.pth"), "w") as f:
        f.write(jsite + "\n")


def test_a_kernel_starts_under_the_profile(tmp_path, env, testbed, jupyter_python):
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python], env)
    assert res.returncode == 0, res.stderr
    kdir = os.path.join(env["JUPYTER_DATA_DIR"], "kernels", "cudaenv-cuda-12.4.1")
    assert res.stdout == f"Installed kernelspec cudaenv-cuda-12.4.1 in {kdir}\n"
    with open(os.path.join(kdir, "kernel.json")) as f:
        spec = json.load(f)
    assert spec["display_name"] == "Python 3 (CUDA 12.4)"
    assert spec["metadata"]["cudaenv"]["profile"] == "cuda-12.4.1"
    assert jupyter_kernels(jupyter_python, env)["cudaenv-cuda-12.4.1"] == kdir

    # Jupyter's environment: no CUDAENV_ROOTS (the kernelspec names the root), the user's own values.
    launch = {k: v for k, v in env.items() if k != "CUDAENV_ROOTS"}
    got = start_kernel(jupyter_python, "cudaenv-cuda-12.4.1", launch, str(tmp_path / "k.json"))
    kenv = got["env"]
    root = testbed["12.4"]
    assert kenv["CUDA_HOME"] == kenv["CUDA_PATH"] == root
    assert got["torch_cuda_home"] == root
    assert kenv["PATH"].split(":")[0] == os.path.join(root, "bin")
    ld = kenv["LD_LIBRARY_PATH"].split(":")
    assert ld[0] == os.path.join(root, "lib64") and "/opt/user/lib" in ld and all(ld)
    assert kenv["CUDAENV_ACTIVE"] == "cuda-12.4.1"
    # exactly what `cudaenv exec` gives in that environment (the kernel adds its own JPY_*, PAGER, ...)
    ex = subprocess.run([os.path.join(str(tmp_path), "bin", "cudaenv"), "exec", root, "--", "env", "-0"],
                        env=launch, capture_output=True, timeout=DEADLINE)
    assert ex.returncode == 0, ex.stderr
    want = {k.decode(): v.decode() for k, v in parse_env0(ex.stdout).items() if k != b"_"}
    assert {k: kenv.get(k) for k in want} == want

    # `cudaenv kernel list` knows it; remove takes it away from Jupyter's list too
    lst = cudaenv(tmp_path, ["kernel", "list", "--json"], env)
    assert lst.returncode == 0, lst.stderr
    (k,) = json.loads(lst.stdout)["kernels"]
    assert (k["name"], k["cuda"], k["python"], k["problems"]) == ("cudaenv-cuda-12.4.1", "12.4.1", jupyter_python, [])
    rm = cudaenv(tmp_path, ["kernel", "remove", "cudaenv-cuda-12.4.1"], env)
    assert rm.returncode == 0 and rm.stdout == f"Removed {kdir}\n"
    assert not os.path.exists(kdir)
    assert "cudaenv-cuda-12.4.1" not in jupyter_kernels(jupyter_python, env)


def test_default_location_is_jupyters_data_dir(tmp_path, env, jupyter_python):
    """Without JUPYTER_DATA_DIR: where `jupyter --data-dir` says (XDG_DATA_HOME, then ~/.local/share)."""
    jupyter = os.path.join(os.path.dirname(jupyter_python), "jupyter")
    for extra in ({"XDG_DATA_HOME": str(tmp_path / "xdg")}, {}):
        e = {k: v for k, v in env.items() if k not in ("JUPYTER_DATA_DIR", "XDG_DATA_HOME")}
        e.update(extra)
        data = subprocess.run([jupyter, "--data-dir"], env=e, capture_output=True, text=True,
                              timeout=DEADLINE).stdout.strip()
        res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", "where"], e)
        assert res.returncode == 0, res.stderr
        assert os.path.isfile(os.path.join(data, "kernels", "where", "kernel.json"))
        assert jupyter_kernels(jupyter_python, e)["where"] == os.path.join(data, "kernels", "where")


def test_default_python_is_the_active_venvs(tmp_path, env, jupyter_python):
    e = dict(env, VIRTUAL_ENV=JUPYTER_VENV, PATH=f"{JUPYTER_VENV}/bin:{env['PATH']}")
    e["PATH"] = f"{os.path.join(str(tmp_path), 'bin')}:{e['PATH']}"
    res = cudaenv(tmp_path, ["kernel", "install", "12.4"], e)
    assert res.returncode == 0, res.stderr
    (k,) = json.loads(cudaenv(tmp_path, ["kernel", "list", "--json"], e).stdout)["kernels"]
    assert k["python"] == jupyter_python


def test_a_python_without_ipykernel_is_refused(tmp_path, env, venv_cpu):
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", venv_cpu], env)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "has no ipykernel" in res.stderr and "pip install ipykernel" in res.stderr
    assert not os.path.exists(os.path.join(env["JUPYTER_DATA_DIR"], "kernels"))


@pytest.mark.parametrize("bad", ["bad name", "a/b", "..", "ünï"])
def test_invalid_names_are_refused(tmp_path, env, jupyter_python, bad):
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", bad], env)
    assert res.returncode == 2 and res.stdout == "" and res.stderr.count("\n") == 1


def test_kernelspecs_cudaenv_did_not_write_are_left_alone(tmp_path, env, jupyter_python):
    # the real `ipykernel install` writes one
    made = subprocess.run([jupyter_python, "-m", "ipykernel", "install", "--user", "--name", "plain"], env=env,
                          capture_output=True, text=True, timeout=DEADLINE)
    assert made.returncode == 0, made.stderr
    plain = os.path.join(env["JUPYTER_DATA_DIR"], "kernels", "plain", "kernel.json")
    with open(plain, "rb") as f:
        before = f.read()
    res = cudaenv(tmp_path, ["kernel", "remove", "plain"], env)
    assert res.returncode == 2 and "not written by cudaenv" in res.stderr
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", "plain"], env)
    assert res.returncode == 2 and "not written by cudaenv" in res.stderr and res.stdout == ""
    with open(plain, "rb") as f:
        assert f.read() == before
    assert cudaenv(tmp_path, ["kernel", "list"], env).stdout == ""  # only cudaenv's are listed


def test_remove_by_version_and_reinstall_replaces(tmp_path, env, jupyter_python):
    for name in ("one", "two"):
        res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", name], env)
        assert res.returncode == 0, res.stderr
    again = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", "one",
                               "--display-name", "Mine"], env)
    assert again.returncode == 0 and again.stdout.startswith("Replaced kernelspec one in ")
    kernels = os.path.join(env["JUPYTER_DATA_DIR"], "kernels")
    with open(os.path.join(kernels, "one", "kernel.json")) as f:
        assert json.load(f)["display_name"] == "Mine"
    res = cudaenv(tmp_path, ["kernel", "remove", "12.4"], env)
    assert res.returncode == 0, res.stderr
    assert sorted(os.listdir(kernels)) == []
    res = cudaenv(tmp_path, ["kernel", "remove", "12.4"], env)
    assert res.returncode == 1 and res.stdout == "" and res.stderr.count("\n") == 1


def test_prefix_and_sys_prefix(tmp_path, env, jupyter_python):
    pfx = tmp_path / "pfx"
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--prefix", str(pfx)], env)
    assert res.returncode == 0, res.stderr
    kdir = pfx / "share" / "jupyter" / "kernels" / "cudaenv-cuda-12.4.1"
    assert (kdir / "kernel.json").is_file()
    seen = jupyter_kernels(jupyter_python, dict(env, JUPYTER_PATH=str(pfx / "share" / "jupyter")))
    assert seen["cudaenv-cuda-12.4.1"] == str(kdir)
    # --sys-prefix: the kernel python's own environment (a throwaway venv that sees ipykernel through a .pth)
    venv = tmp_path / "venv"
    venv_seeing_ipykernel(venv, jupyter_python)
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", str(venv / "bin" / "python"), "--sys-prefix"],
                  env)
    assert res.returncode == 0, res.stderr
    assert (venv / "share" / "jupyter" / "kernels" / "cudaenv-cuda-12.4.1" / "kernel.json").is_file()


def test_hostile_data_dir_and_display_name(tmp_path, env, testbed, jupyter_python):
    e = dict(env, JUPYTER_DATA_DIR=str(tmp_path / HOSTILE))
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--display-name", HOSTILE], e)
    assert res.returncode == 0, res.stderr
    got = start_kernel(jupyter_python, "cudaenv-cuda-12.4.1", e, str(tmp_path / "k.json"))
    assert got["env"]["CUDA_HOME"] == testbed["12.4"]
    with open(os.path.join(e["JUPYTER_DATA_DIR"], "kernels", "cudaenv-cuda-12.4.1", "kernel.json"),
              encoding="utf-8") as f:
        assert json.load(f)["display_name"] == HOSTILE
    assert not (tmp_path / "PWNED").exists() and not os.path.exists("PWNED")


def test_list_says_what_no_longer_works(tmp_path, env, jupyter_python):
    venv = tmp_path / "gone"
    venv_seeing_ipykernel(venv, jupyter_python)
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", str(venv / "bin" / "python")], env)
    assert res.returncode == 0, res.stderr
    import shutil

    shutil.rmtree(venv)
    res = cudaenv(tmp_path, ["kernel", "list"], env)
    assert res.returncode == 0 and "its python is gone" in res.stdout


INTERRUPT = r"""
import json, sys, time
from jupyter_client.manager import KernelManager
km = KernelManager(kernel_name=sys.argv[1])
km.start_kernel()
try:
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=float(sys.argv[2]))
    msg_id = kc.execute("import os; print(os.getpid(), flush=True); import time; time.sleep(600)")
    # wait until the cell runs (its pid on stdout), then interrupt as a notebook's stop button does
    deadline = time.monotonic() + float(sys.argv[2])
    pid = None
    while pid is None:
        m = kc.get_iopub_msg(timeout=max(1.0, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
            pid = int(m["content"]["text"].split()[0])
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=float(sys.argv[2]))
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=float(sys.argv[2]))
    print(json.dumps({"status": reply["content"]["status"], "ename": reply["content"].get("ename"),
                      "kernel_pid": pid, "launched_pid": km.provisioner.process.pid}))
    kc.stop_channels()
finally:
    km.shutdown_kernel(now=True)
"""


def test_interrupt_reaches_the_kernel_through_exec(tmp_path, env, jupyter_python):
    """The process Jupyter launched *is* the kernel (exec), so its SIGINT stops the running cell."""
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python], env)
    assert res.returncode == 0, res.stderr
    run = subprocess.run([jupyter_python, "-c", INTERRUPT, "cudaenv-cuda-12.4.1", str(DEADLINE)], env=env,
                         capture_output=True, text=True, timeout=DEADLINE * 3, preexec_fn=default_signals)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert (got["status"], got["ename"]) == ("error", "KeyboardInterrupt")
    assert got["kernel_pid"] == got["launched_pid"]



def test_a_profile_file_is_named_in_the_kernelspec(tmp_path, env, testbed, jupyter_python):
    """A profile file is resolved by name at each start (edits apply); its name shows when the user chose it."""
    prof = tmp_path / "cfg" / "cudaenv" / "profiles"
    prof.mkdir(parents=True)
    (prof / "mine.yaml").write_text(f"name: mine\nroot: {testbed['12.4']}\nset: {{CUDA_HOME: '{{root}}', MY_FLAG: one}}\n"
                                    "prepend: {PATH: ['{root}/bin'], LD_LIBRARY_PATH: ['{root}/lib64']}\n")
    res = cudaenv(tmp_path, ["kernel", "install", "mine", "--python", jupyter_python], env)
    assert res.returncode == 0, res.stderr
    with open(os.path.join(env["JUPYTER_DATA_DIR"], "kernels", "cudaenv-mine", "kernel.json")) as f:
        spec = json.load(f)
    assert spec["display_name"] == "Python 3 (CUDA 12.4, mine)"
    assert spec["argv"][spec["argv"].index("exec") + 1] == "mine"
    # an edit to the profile reaches the next kernel start, with no reinstall
    (prof / "mine.yaml").write_text((prof / "mine.yaml").read_text().replace("MY_FLAG: one", "MY_FLAG: two"))
    launch = {k: v for k, v in env.items() if k != "CUDAENV_ROOTS"}
    got = start_kernel(jupyter_python, "cudaenv-mine", launch, str(tmp_path / "k.json"))
    assert got["env"]["MY_FLAG"] == "two" and got["env"]["CUDAENV_ACTIVE"] == "mine"
    # `profile build` names profiles after the toolkit: no name added then
    assert cudaenv(tmp_path, ["profile", "build", "12.4"], env).returncode == 0
    res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python], env)
    assert res.returncode == 0, res.stderr
    with open(os.path.join(env["JUPYTER_DATA_DIR"], "kernels", "cudaenv-cuda-12.4.1", "kernel.json")) as f:
        assert json.load(f)["display_name"] == "Python 3 (CUDA 12.4)"


def test_remove_by_absolute_path(tmp_path, env, testbed, jupyter_python):
    """An absolute toolkit path removes that toolkit's kernels; a kernelspec directory's path removes it; once each."""
    kernels = os.path.join(env["JUPYTER_DATA_DIR"], "kernels")
    for name in ("one", "two"):
        res = cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", name], env)
        assert res.returncode == 0, res.stderr
    # the toolkit's root, also with a trailing slash: never taken as a kernel directory
    res = cudaenv(tmp_path, ["kernel", "remove", testbed["12.4"] + "/"], env)
    assert (res.returncode, res.stderr) == (0, "")
    assert res.stdout == "".join(f"Removed {os.path.join(kernels, n)}\n" for n in ("one", "two"))
    assert os.listdir(kernels) == [] and os.path.isfile(os.path.join(testbed["12.4"], "bin", "nvcc"))
    # a kernelspec directory by its path (absolute, and relative to the working directory)
    for name in ("three", "four"):
        assert cudaenv(tmp_path, ["kernel", "install", "12.4", "--python", jupyter_python, "--name", name],
                       env).returncode == 0
    res = cudaenv(tmp_path, ["kernel", "remove", os.path.join(kernels, "three")], env)
    assert (res.returncode, res.stdout, res.stderr) == (0, f"Removed {os.path.join(kernels, 'three')}\n", "")
    res = cudaenv(tmp_path, ["kernel", "remove", os.path.join(".", "four")], env, cwd=kernels)
    assert (res.returncode, res.stdout, res.stderr) == (0, f"Removed {os.path.join(kernels, 'four')}\n", "")
    # a directory that is not a cudaenv kernelspec: one line, exit 1, nothing removed
    res = cudaenv(tmp_path, ["kernel", "remove", str(tmp_path)], env)
    assert res.returncode == 1 and res.stdout == "" and res.stderr.count("\n") == 1
    assert os.path.isdir(tmp_path / "bin")
