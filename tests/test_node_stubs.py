"""The runtime libcuda stub is a node-bound decision (issue 17): only where a profile asks for it
(``stubs: always``, or ``driverless`` on a host without a driver), and then in a node-local
directory that names nothing on another node.

"Another node" is a real private mount namespace (``unshare -m``) in which the user's runtime
directory or ``/tmp`` is a fresh tmpfs, as on another machine; the attacker is a real second
account (``useradd``). Nothing here fakes the loader: a probe dlopens ``libcuda.so.1`` the way
the CUDA runtime does, and a real Python extension linked with ``-lcuda`` is imported.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import pytest

from accounts import SYSTEM_PYTHON
from helpers import REPO, make_toolkit, setup_missing

ATTACKER = "cudaenv-mallory"  # the same account tests/test_cache_owner.py uses

PROBE_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) { printf("libcuda=none cuInit=none\n"); return 0; }
    int (*cuInit)(unsigned int) = (int (*)(unsigned int))dlsym(h, "cuInit");
    Dl_info info;
    const char *file = cuInit && dladdr((void *)cuInit, &info) && info.dli_fname ? info.dli_fname : "?";
    printf("libcuda=%s cuInit=%d\n", file, cuInit ? cuInit(0) : -1);
    return 0;
}
"""
STANDIN_C = "int cuInit(unsigned int flags) { (void)flags; return 0; }\n"
EXT_C = r"""
#include <Python.h>
int cuInit(unsigned int);
static PyObject *init(PyObject *self, PyObject *args) { return PyLong_FromLong(cuInit(0)); }
static PyMethodDef methods[] = {{"init", init, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "needscuda", NULL, -1, methods};
PyMODINIT_FUNC PyInit_needscuda(void) { return PyModule_Create(&mod); }
"""

with open("/proc/sys/kernel/random/boot_id") as _f:
    BOOT = _f.read().strip()


def need_root_and_unshare() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root (useradd, unshare -m)")
    res = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, timeout=30)
    if res.returncode != 0:
        pytest.skip(f"no mount namespaces here: {res.stderr.decode(errors='replace').strip()}")


def need_system_python() -> None:
    res = subprocess.run([SYSTEM_PYTHON, "-c", "import yaml, click, packaging, distro"], capture_output=True)
    if res.returncode != 0:
        setup_missing("Debian's python3 lacks yaml/click/packaging/distro: run the apt-get line of tests/run.sh")


@pytest.fixture(scope="module")
def attacker() -> pwd.struct_passwd:
    if os.geteuid() != 0:
        pytest.skip("needs root to add the second account")
    try:
        return pwd.getpwnam(ATTACKER)
    except KeyError:
        subprocess.run(["useradd", "-m", ATTACKER], capture_output=True, timeout=60)
        return pwd.getpwnam(ATTACKER)


@pytest.fixture
def place():
    """A directory outside /tmp (the namespaces below mount a fresh /tmp): toolkit, home, XDG dirs."""
    d = tempfile.mkdtemp(prefix="cudaenv-node-", dir="/var/tmp")
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def always_env(place: str, root: str, policy: str = "always", runtime: str | None = "run") -> dict:
    """An environment finding only ``root``, whose profile says ``stubs: policy``."""
    home = os.path.join(place, "home")
    cfg = os.path.join(home, ".config")
    os.makedirs(os.path.join(cfg, "cudaenv", "profiles"), exist_ok=True)
    with open(os.path.join(cfg, "cudaenv", "profiles", "rt.yaml"), "w") as f:
        f.write(f"name: rt\nroot: {root}\nstubs: {policy}\nprepend:\n  LD_LIBRARY_PATH: ['{{root}}/lib64']\n"
                "  LIBRARY_PATH: ['{root}/lib64', '{root}/lib64/stubs']\n")
    env = {"HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL": "C.UTF-8", "PYTHONPATH": REPO,
           "XDG_CONFIG_HOME": cfg, "XDG_CACHE_HOME": os.path.join(home, ".cache"),
           "XDG_DATA_HOME": os.path.join(home, ".local", "share"), "CUDAENV_ROOTS": root,
           "CUDAENV_PROC_ROOT": os.path.join(place, "no-proc")}
    if runtime:
        env["XDG_RUNTIME_DIR"] = os.path.join(place, runtime)
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
    return env


def in_fresh_tmp(script: str, env: dict, *args: str) -> subprocess.CompletedProcess:
    """``sh -c script`` in a private mount namespace whose /tmp is a fresh tmpfs (as on another node)."""
    need_system_python()
    # The checkout may be under /tmp too: a copy of the package beside the test's home serves.
    lib = os.path.join(os.path.dirname(env["HOME"]), "lib")
    if not os.path.isdir(lib):
        shutil.copytree(os.path.join(REPO, "cudaenv"), os.path.join(lib, "cudaenv"),
                        ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(env, PYTHONPATH=lib)
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-euc",
                           "mount -t tmpfs -o mode=1777 tmpfs /tmp\n" + script, "sh", *args],
                          env=env, capture_output=True, text=True, timeout=120)


# The fresh /tmp hides whatever lived under the old one, the suite's venv included when the test bed
# is in /tmp (CI's is): `use` runs there with Debian's python3 and its python3-yaml, -click,
# -packaging, -distro (tests/run.sh), as the other accounts' runs do (tests/accounts.py).
USE_JSON = f'"{SYSTEM_PYTHON}" -m cudaenv use rt --shell json'


def ld_of(res: subprocess.CompletedProcess) -> list[str]:
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    return json.loads(res.stdout)["set"]["LD_LIBRARY_PATH"].split(":")


# -- where the directory is, and who may own it ----------------------------------------------

def test_tmp_when_no_runtime_dir(place):
    """No XDG_RUNTIME_DIR (a job step, a cron job), or one inherited that does not exist on this node:
    ``/tmp/cudaenv-<uid>/stubs-<boot id>/<key>``, every level 0700 whatever the umask; the missing
    runtime dir is not created."""
    need_root_and_unshare()
    root = make_toolkit(os.path.join(place, "cuda-12.4"), "12.4.1")
    for runtime in (None, "gone"):
        env = always_env(place, root, runtime=None)
        if runtime:
            env["XDG_RUNTIME_DIR"] = os.path.join(place, runtime)
        res = in_fresh_tmp(f"umask 000; {USE_JSON}; find /tmp -printf '%m %u %p\\n' >&2", env)
        ld = ld_of(res)
        base = f"/tmp/cudaenv-{os.geteuid()}"
        assert ld[0] == f"{root}/lib64" and len(ld) == 2
        assert os.path.dirname(os.path.dirname(ld[1])) == base and os.path.basename(os.path.dirname(ld[1])) == f"stubs-{BOOT}"
        listing = [ln for ln in res.stderr.splitlines() if ln.split(" ")[-1].startswith(base)]
        assert sorted(ln.split(" ")[0] for ln in listing if not ln.endswith("libcuda.so.1")) == ["700"] * 3, listing
        assert [ln.split(" ")[-1] for ln in listing if ln.endswith("libcuda.so.1")] == [ld[1] + "/libcuda.so.1"]
        assert not os.path.exists(os.path.join(place, "gone"))


HOSTILE_SETUPS = {
    # The attacker made the user's /tmp directory first (any mode): never used, never written into.
    "attacker-owns": ('runuser -u {a} -- mkdir -m 700 /tmp/cudaenv-{uid}', "owned by uid"),
    "attacker-owns-open": ('runuser -u {a} -- mkdir -m 777 /tmp/cudaenv-{uid}', "owned by uid"),
    # The user's own, but writable by others (not sticky): another user could swap what is inside.
    "world-writable": ("mkdir -m 777 /tmp/cudaenv-{uid}", "writable by others"),
    # A link the attacker planted, to a directory of theirs.
    "attacker-link": ('runuser -u {a} -- sh -c "mkdir -m 777 /tmp/evil && ln -s /tmp/evil /tmp/cudaenv-{uid}"',
                      "symlink owned by uid"),
    # The user's own directory, but the attacker's stub directory inside, under the name this boot
    # gives it (left from a time the outer one was open).
    "attacker-inner": ("mkdir -m 700 /tmp/cudaenv-{uid} && mkdir -m 755 /tmp/cudaenv-{uid}/stubs-{boot} && "
                       "chown {a} /tmp/cudaenv-{uid}/stubs-{boot}", "owned by uid"),
}


@pytest.mark.parametrize("case", list(HOSTILE_SETUPS))
def test_hostile_tmp_dir_is_refused(place, attacker, case):
    """Another user's (or an open) /tmp/cudaenv-<uid>: the switch happens without the runtime stub, with one
    note naming the directory and why; nothing of the user's lands there."""
    need_root_and_unshare()
    root = make_toolkit(os.path.join(place, "cuda-12.4"), "12.4.1")
    env = always_env(place, root, runtime=None)
    setup, why = HOSTILE_SETUPS[case]
    res = in_fresh_tmp(setup.format(a=ATTACKER, uid=os.geteuid(), boot=BOOT) + f"\n{USE_JSON}\n"
                       "find /tmp -user root -printf 'mine %p\\n' >&2", env)
    ld = ld_of(res)
    assert ld == [f"{root}/lib64"], ld
    notes = [ln for ln in res.stderr.splitlines() if ln.startswith("cudaenv: note: not using")]
    assert len(notes) == 1 and f"/tmp/cudaenv-{os.geteuid()}" in notes[0] and why in notes[0], res.stderr
    mine = [ln for ln in res.stderr.splitlines() if ln.startswith("mine ")]
    own = ["mine /tmp", f"mine /tmp/cudaenv-{os.geteuid()}"] if case in ("world-writable", "attacker-inner") else ["mine /tmp"]
    assert mine == own, mine


def test_attacker_runtime_dir_falls_back_to_tmp(place, attacker):
    """An XDG_RUNTIME_DIR another user owns is not used (no note needed: /tmp serves)."""
    need_root_and_unshare()
    root = make_toolkit(os.path.join(place, "cuda-12.4"), "12.4.1")
    env = always_env(place, root)
    os.chown(env["XDG_RUNTIME_DIR"], attacker.pw_uid, attacker.pw_gid)
    ld = ld_of(in_fresh_tmp(USE_JSON, env))
    assert ld[1].startswith(f"/tmp/cudaenv-{os.geteuid()}/stubs-{BOOT}/")
    assert os.listdir(env["XDG_RUNTIME_DIR"]) == []


@pytest.mark.parametrize("name", ["run:colon", "run\nnewline"])
def test_runtime_dir_no_path_list_can_hold_falls_back_to_tmp(place, name):
    """A runtime dir whose name holds ':' or a newline cannot go on LD_LIBRARY_PATH: /tmp serves, and the
    switch is not refused."""
    need_root_and_unshare()
    root = make_toolkit(os.path.join(place, "cuda-12.4"), "12.4.1")
    env = always_env(place, root, runtime=name)
    ld = ld_of(in_fresh_tmp(USE_JSON, env))
    assert ld[1].startswith(f"/tmp/cudaenv-{os.geteuid()}/stubs-{BOOT}/")


# -- another node: the entry names nothing there ---------------------------------------------

def compile_c(src: str, out: str, *flags: str, env: dict | None = None) -> str:
    c = out + ".c"
    with open(c, "w") as f:
        f.write(src)
    res = subprocess.run(["gcc", "-O1", "-o", out, c, *flags], capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stderr
    return out


def test_entry_names_nothing_on_another_node(place, testbed):
    """`use` (stubs: always) on a driverless node, then the same environment on "another node" (a mount
    namespace with its own runtime dir, as every machine has): there the stub entry names nothing, so
    the loader goes on to the node's driver (a stand-in libcuda.so.1 after it on LD_LIBRARY_PATH,
    cuInit 0); on the first node the stub answers (34)."""
    need_root_and_unshare()
    root = testbed["12.4"]
    env = always_env(place, root)
    probe = compile_c(PROBE_C, os.path.join(place, "probe"), "-ldl")
    drv = os.path.join(place, "driver")
    os.makedirs(drv)
    compile_c(STANDIN_C, os.path.join(drv, "libcuda.so.1"), "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1")
    script = (f'eval "$("{sys.executable}" -m cudaenv use rt)"\n'
              f'export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:{drv}"\n'
              f'{probe}\n'
              # the other node: the same environment (as Slurm's --export=ALL carries it), its own runtime dir
              f'unshare -m --propagation private sh -c \'mount -t tmpfs -o mode=700 tmpfs "$XDG_RUNTIME_DIR" && {probe}\'\n')
    res = subprocess.run(["bash", "--norc", "--noprofile", "-euc", script], env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    here, there = res.stdout.splitlines()
    stub_dir = os.path.join(env["XDG_RUNTIME_DIR"], "cudaenv", f"stubs-{BOOT}")
    assert here.startswith(f"libcuda={stub_dir}/") and here.endswith(" cuInit=34"), here
    assert there == f"libcuda={drv}/libcuda.so.1 cuInit=0", there


# -- what the runtime stub is for: importing what was linked with -lcuda on a build host -----

@pytest.mark.parametrize("policy", ["auto", "always", "driverless"])
def test_import_of_an_extension_linked_with_lcuda(place, testbed, policy):
    """A Python extension linked with -lcuda (DT_NEEDED libcuda.so.1), built and imported on this
    driverless host: auto links it (LIBRARY_PATH) but the import fails; always and driverless import it."""
    if not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        setup_missing(f"no Python.h for {sys.executable} (torch extension builds need it too)")
    env = always_env(place, testbed["12.4"], policy)
    env.pop("CUDAENV_PROC_ROOT")  # this host's own truth: no driver
    assert not os.path.exists("/proc/driver/nvidia/version")
    build = os.path.join(place, "ext")
    os.makedirs(build)
    so = os.path.join(build, "needscuda" + sysconfig.get_config_var("EXT_SUFFIX"))
    script = (f'eval "$("{sys.executable}" -m cudaenv use rt)"\n'
              f'gcc -shared -fPIC -I{sysconfig.get_paths()["include"]} -o {so} {build}/m.c -Wl,--no-as-needed -lcuda\n'
              f'cd {build} && "{sys.executable}" -c "import needscuda; print(\'cuInit\', needscuda.init())"\n')
    with open(os.path.join(build, "m.c"), "w") as f:
        f.write(EXT_C)
    res = subprocess.run(["bash", "--norc", "--noprofile", "-euc", script], env=env, capture_output=True, text=True,
                         timeout=180)
    if policy == "auto":
        assert res.returncode != 0 and "libcuda.so.1: cannot open shared object file" in res.stderr, res.stderr
        assert os.path.exists(so)  # it linked: the stub is on LIBRARY_PATH
    else:
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip() == "cuInit 34"  # the stub answers: no driver here, as expected


@pytest.mark.slow
@pytest.mark.testbed
def test_torch_stays_silent_after_use_on_a_driverless_host(place, testbed):
    """Issue 17: with the runtime stub on LD_LIBRARY_PATH, `torch.cuda.is_available()` on a driverless host
    warns "CUDA driver is a stub library" where it was silent before `use`. The default (auto) adds none;
    `stubs: always` still does, and then torch says so (the price of asking for it)."""
    from conftest import TESTBED

    python = os.path.join(TESTBED, "venv-cu", "bin", "python")
    if not os.path.isfile(python):
        pytest.skip("the test bed's torch venv is missing (tests/testbed/build.sh)")
    said = {}
    for policy in ("auto", "always"):
        env = always_env(place, testbed["12.4"], policy)
        env.pop("CUDAENV_PROC_ROOT")
        res = subprocess.run(["bash", "--norc", "--noprofile", "-euc",
                              f'eval "$("{sys.executable}" -m cudaenv use rt)"\n'
                              f'"{python}" -c "import torch; print(torch.cuda.is_available())"'],
                             env=env, capture_output=True, text=True, timeout=300)
        assert res.returncode == 0 and res.stdout.strip() == "False", res.stderr
        said[policy] = res.stderr
    assert "stub library" not in said["auto"], said["auto"]
    assert "stub library" in said["always"], said["always"]
