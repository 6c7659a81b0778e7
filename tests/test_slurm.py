"""A real Slurm (slurmctld + slurmd + munge, tests/slurm.sh): a switch made on a driverless login
node, then jobs on a GPU node (slurmd in a mount namespace showing the test's stand-in driver).

The probe dlopens libcuda.so.1 the way the CUDA runtime does and calls cuInit(0): the stand-in
driver answers 0, the toolkit's stub answers 34 (CUDA_ERROR_STUB_LIBRARY). Issue 17: `cudaenv
use` on the login node used to put the stub on LD_LIBRARY_PATH, and --export=ALL (Slurm's
default) carried it into the job; now the runtime stub is only where a profile asks for it, in a
node-local directory (tests/test_node_stubs.py shows another node skipping it), and doctor in a
job that inherited one says where it came from. Build settings computed on the login node are
planned again for the task's node and allocation by the bed's TaskProlog (`cudaenv slurm
task-prolog`, as a site installs it: docs/clusters.md), and by `use`/`exec`/`init` in the job.
"""

from __future__ import annotations

import getpass
import os
import shlex
import subprocess
import sys
import time

import pytest

from slurmbed import BED, SLURM_CONF, STANDIN
from helpers import IN_CI, clean_shell_env, setup_missing

# One worker runs the whole file under pytest-xdist: the cluster fixture of a second worker would
# stop the daemons (or queue jobs) under the first one's tests.
pytestmark = [pytest.mark.slurm, pytest.mark.testbed, pytest.mark.xdist_group("tests/test_slurm.py")]

TIMEOUT = 90  # per Slurm command; a job here takes well under a second

PROBE_C = r"""
/* dlopen libcuda.so.1 as the CUDA runtime does, call cuInit(0), say which file answered. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) { printf("libcuda=none cuInit=none\n"); return 0; }
    int (*cuInit)(unsigned int) = (int (*)(unsigned int))dlsym(h, "cuInit");
    if (!cuInit) { printf("libcuda=nosym cuInit=none\n"); return 0; }
    Dl_info info;
    const char *file = dladdr((void *)cuInit, &info) && info.dli_fname ? info.dli_fname : "?";
    printf("libcuda=%s cuInit=%d\n", file, cuInit(0));
    return 0;
}
"""

@pytest.fixture(scope="module")
def cluster(slurm_cluster):
    """The test bed's cluster (tests/conftest.py's session fixture: never stopped between files)."""
    return slurm_cluster


TASK_PROLOG = os.path.join(BED, "task-prolog")


@pytest.fixture(scope="module")
def site_prolog(cluster):
    """The bed's TaskProlog is the running cluster's: a cluster started by an older checkout's
    tests/slurm.sh (sharing this test bed) has none, and its jobs keep the login node's switch."""
    res = subprocess.run(["scontrol", "show", "config"], env=cluster, capture_output=True, text=True, timeout=30)
    conf = {k.strip(): v.strip() for k, _, v in (ln.partition("=") for ln in res.stdout.splitlines())}
    if conf.get("TaskProlog") != TASK_PROLOG:
        msg = f"the running test cluster has TaskProlog={conf.get('TaskProlog')!r}, not {TASK_PROLOG}: restart it " \
              "with this checkout's tests/slurm.sh (stop, start)"
        if IN_CI:
            pytest.fail(msg)
        pytest.skip(msg)
    return TASK_PROLOG


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    d = tmp_path_factory.mktemp("probe")
    (d / "probe.c").write_text(PROBE_C)
    subprocess.run(["gcc", "-O1", "-o", str(d / "probe"), str(d / "probe.c"), "-ldl"], check=True, timeout=60)
    return str(d / "probe")


def queue(env: dict) -> str:
    res = subprocess.run(["squeue", "-h", "-o", "%i %T %R"], env=env, capture_output=True, text=True, timeout=30)
    return res.stdout.strip() if res.returncode == 0 else f"squeue failed: {res.stderr.strip()}"


def daemons() -> str:
    """What a failure message needs when the cluster misbehaves: which daemons still run, and the
    ends of their logs (the test bed is removed after CI, so the message must carry them)."""
    parts = []
    for name in ("slurmctld", "slurmd"):
        try:
            with open(os.path.join(BED, f"{name}.pid")) as f:
                pid = f.read().strip()
            alive = pid.isdigit() and os.path.exists(f"/proc/{pid}")  # an empty file is not "running"
        except OSError:
            pid, alive = "?", False
        try:
            with open(os.path.join(BED, "log", f"{name}.log"), errors="replace") as f:
                tail = "".join(f.readlines()[-15:])
        except OSError:
            tail = "(no log)"
        parts.append(f"--- {name} pid {pid} {'running' if alive else 'GONE'}; log tail:\n{tail}")
    return "\n".join(parts)


def wait_idle(env: dict, bound: float = 120.0) -> None:
    """Each test starts on an idle node: a job of the test before may still hold the node's two
    CPUs while Slurm finishes it (COMPLETING), and the next `srun -c1` would queue behind it."""
    deadline = time.monotonic() + bound
    while queue(env):
        if time.monotonic() > deadline:
            left = queue(env)
            subprocess.run(["scancel", "--user", getpass.getuser()], env=env, capture_output=True, timeout=30)
            pytest.fail(f"the test cluster stayed busy for {bound:g} s: {left}\n{daemons()}")
        time.sleep(0.2)


@pytest.fixture
def login(tmp_path, testbed, cluster):
    """The login node's environment: this checkout's cudaenv first on PATH, the test bed's 12.4."""
    wait_idle(cluster)
    return clean_shell_env(tmp_path, "/usr/local/bin:/usr/bin:/bin", SLURM_CONF=SLURM_CONF,
                           CUDAENV_ROOTS=testbed["12.4"])


def parse(out: str) -> dict[str, str]:
    lines = [ln for ln in out.splitlines() if ln.startswith("libcuda=")]
    if len(lines) != 1:  # not an AssertionError: an xfail(raises=AssertionError) must not hide it
        pytest.fail(f"no single probe line in {out!r}")
    return dict(kv.split("=", 1) for kv in lines[0].split())


def login_bash(script: str, env: dict, cwd) -> subprocess.CompletedProcess:
    """Run ``script`` in bash on the login side; a failing command fails the test (not as an
    AssertionError, so the xfail marks below only accept the wrong-libcuda outcome)."""
    try:
        res = subprocess.run(["bash", "--norc", "--noprofile", "-c", "set -eu\n" + script], env=env, cwd=str(cwd),
                             capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"no answer within {TIMEOUT} s; queue: {queue(env)!r}; stderr: {exc.stderr!r}\n{daemons()}")
    if res.returncode != 0:
        pytest.fail(f"exit {res.returncode}: {res.stderr.strip()[-800:]}\n{daemons()}")
    return res


USE = 'eval "$(cudaenv use 12.4)"\n'


def assert_standin(out: str):
    r = parse(out)
    assert (r["libcuda"], r["cuInit"]) == (STANDIN, "0"), out


# -- the bed itself ---------------------------------------------------------------------------

def test_bed_login_has_no_driver_gpu_node_has_the_standin(login, probe, tmp_path):
    """Without cudaenv: the login side finds no libcuda; a job step finds the stand-in (cuInit 0)
    and sees /proc/driver/nvidia/version. After `use` on the login side there is still no libcuda
    there (stubs: auto is link time only)."""
    res = login_bash(f"{probe}; test ! -e /proc/driver/nvidia/version && echo login-no-proc\n"
                     f"srun -n1 sh -c '{probe}; head -c 12 /proc/driver/nvidia/version; echo'\n", login, tmp_path)
    lines = res.stdout.splitlines()
    assert lines[0] == "libcuda=none cuInit=none", res.stdout
    assert lines[1] == "login-no-proc"
    assert_standin(lines[2])
    assert lines[3] == "NVRM version"
    res = login_bash(USE + probe, login, tmp_path)
    assert res.stdout == "libcuda=none cuInit=none\n", res.stdout


# -- issue 17's scenarios: a switch on the login node, then a job ----------------------------

def sbatch_script(tmp_path, body: str) -> str:
    p = tmp_path / "job.sh"
    p.write_text("#!/bin/bash\n" + body + "\n")
    return str(p)


# How each way of submitting reaches the GPU node. salloc (22.05) has no --export: its command
# runs on the login side with the login environment, and the step inside is what reaches the node.
SUBMIT = {
    "sbatch": "sbatch --wait -Q --export={export} -o {out}/out-0.txt {job}",
    "srun": "srun -n1 --export={export} {probe} > {out}/out-0.txt",
    "salloc": "salloc -Q -n1 srun -n1 --export={export} {probe} > {out}/out-0.txt",
    "array": "sbatch --wait -Q --array=0-1 --export={export} -o {out}/out-%a.txt {job}",
}


def _case(how: str, export: str):
    marks = []
    if how in ("sbatch", "array"):
        marks.append(pytest.mark.slow)  # sbatch --wait polls every 2 s
    return pytest.param(how, export, marks=marks, id=f"{how}-{export}")


@pytest.mark.parametrize("how, export", [_case(h, e) for h in SUBMIT for e in ("ALL", "NONE")])
def test_job_after_use_on_login(how, export, login, probe, tmp_path, request):
    """`use` on the driverless login node, then a job: cuInit there must be the node's driver's
    (--export=ALL: the site's TaskProlog re-plans the inherited switch for the GPU node)."""
    if export == "ALL":
        request.getfixturevalue("site_prolog")
    job = sbatch_script(tmp_path, probe)
    login_bash(USE + SUBMIT[how].format(export=export, out=tmp_path, job=job, probe=probe), login, tmp_path)
    for i in range(2 if how == "array" else 1):
        assert_standin((tmp_path / f"out-{i}.txt").read_text())


def test_srun_cudaenv_list_after_use(login, tmp_path, testbed):
    res = login_bash(USE + "srun -n1 cudaenv list", login, tmp_path)
    assert testbed["12.4"] in res.stdout, res.stdout


# -- groundwork for sizing builds by the job's allocation -------------------------------------

@pytest.mark.parametrize("cpus", [1, 2])
def test_job_cpu_count_visible_to_the_process(login, tmp_path, cpus):
    """task/affinity binds a step to its allocated cores: nproc and sched_getaffinity see -c N."""
    if (os.cpu_count() or 1) < cpus:
        pytest.skip(f"needs {cpus} CPUs")
    script = tmp_path / "cpus.sh"
    script.write_text(f"nproc\n{sys.executable} -c 'import os; print(len(os.sched_getaffinity(0)), os.environ[\"SLURM_CPUS_PER_TASK\"])'\n")
    res = login_bash(f"srun -n1 -c{cpus} sh {script}", login, tmp_path)
    assert res.stdout.split() == [str(cpus), str(cpus), str(cpus)], res.stdout


# -- cudaenv used inside the job, on the GPU node ---------------------------------------------

def job_script(tmp_path, login: dict, body: str) -> str:
    """A job script that sets up cudaenv itself (what a user's script does under --export=NONE)."""
    keep = ("PATH", "HOME", "CUDAENV_ROOTS", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")
    lines = ["#!/bin/bash", "set -eu"] + [f"export {k}={shlex.quote(login[k])}" for k in keep] + [body]
    p = tmp_path / "job-in.sh"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_use_in_job_export_none(login, probe, tmp_path):
    job = job_script(tmp_path, login, USE + probe)
    assert_standin(login_bash(USE + f"srun -n1 --export=NONE /bin/bash {job}", login, tmp_path).stdout)


def test_use_in_job_after_use_on_login_export_all(login, probe, tmp_path):
    job = tmp_path / "again.sh"
    job.write_text(USE + probe + "\n")
    assert_standin(login_bash(USE + f"srun -n1 --export=ALL bash {job}", login, tmp_path).stdout)


def test_off_before_submitting_then_use_in_job(login, probe, tmp_path):
    """The documented workaround (docs/clusters.md): `cudaenv off` before sbatch/srun, `use` in the job."""
    job = tmp_path / "job.sh"
    job.write_text(USE + probe + "\n")
    res = login_bash(USE + 'eval "$(cudaenv off)"\n' + f"srun -n1 --export=ALL bash {job}", login, tmp_path)
    assert_standin(res.stdout)


def test_exec_in_job_after_use_on_login_export_all(login, probe, tmp_path):
    assert_standin(login_bash(USE + f"srun -n1 --export=ALL cudaenv exec 12.4 -- {probe}", login, tmp_path).stdout)


def test_exec_in_job_export_none(login, probe, tmp_path):
    job = job_script(tmp_path, login, f"cudaenv exec 12.4 -- {probe}")
    assert_standin(login_bash(f"srun -n1 --export=NONE /bin/bash {job}", login, tmp_path).stdout)


# -- a module (cudaenv modulefiles, real Lmod) loaded on the login node or in the job ---------

LMOD_INIT = "/usr/share/lmod/lmod/init/bash"


@pytest.fixture
def lmod(login, tmp_path):
    if not os.path.isfile(LMOD_INIT):
        setup_missing("Lmod not installed (bash tests/run.sh installs it)")
    moddir = tmp_path / "modules"
    subprocess.run(["bash", "--norc", "--noprofile", "-c", f"cudaenv modulefiles --format lmod 12.4 --output {moddir}"],
                   env=login, check=True, capture_output=True, timeout=TIMEOUT)
    return f"source {LMOD_INIT}\nmodule use {moddir}\nmodule load cuda/12.4\n"


def test_module_loaded_on_login_export_all(login, lmod, probe, tmp_path):
    assert_standin(login_bash(lmod + f"srun -n1 --export=ALL {probe}", login, tmp_path).stdout)


def doctor_stub(out: str) -> dict:
    """The env.stubs_on_loader_path finding of a ``doctor --json`` run."""
    import json

    found = [f for f in json.loads(out)["shell"] if f["id"] == "env.stubs_on_loader_path"]
    if len(found) != 1:
        pytest.fail(f"no single stub finding in {out!r}")
    return found[0]


def old_cudaenv_login(login: dict, tmp_path, root: str) -> dict:
    """The login environment after `use 12.4` of a cudaenv from before issue 17 on this driverless node:
    its stub link in the shared cache, last on LD_LIBRARY_PATH and recorded in _CUDAENV_STATE as its own."""
    import json

    from cudaenv.env.state import STATE_VAR, decode, encode

    res = subprocess.run(["cudaenv", "use", "12.4", "--shell", "json"], env=login, capture_output=True, text=True,
                         timeout=TIMEOUT, cwd=str(tmp_path))
    assert res.returncode == 0, res.stderr
    env = dict(login, **json.loads(res.stdout)["set"])
    old = os.path.join(login["XDG_CACHE_HOME"], "cudaenv", "stubs", "0123456789abcdef")
    os.makedirs(old, mode=0o700)
    os.symlink(os.path.join(root, "lib64", "stubs", "libcuda.so"), os.path.join(old, "libcuda.so.1"))
    st = decode(env[STATE_VAR])
    kind, pre, app = st.lists["LD_LIBRARY_PATH"]
    st.lists["LD_LIBRARY_PATH"] = (kind, pre, app + [old])
    env[STATE_VAR] = encode(st)
    env["LD_LIBRARY_PATH"] += ":" + old
    return env


def test_job_that_inherited_an_old_cudaenv_stub(login, probe, tmp_path, testbed, site_prolog):
    """A job submitted from a shell an older cudaenv switched (stub in the shared cache): the site's
    TaskProlog re-plans it away (the node's driver answers). On a site without that prolog the stub
    answers there (34); doctor in the job says where it came from (that `use`, Slurm's --export=ALL)
    and the fix; following the fix (`use` again in the job, or `exec`) gives the node's driver."""
    env = old_cudaenv_login(login, tmp_path, testbed["12.4"])
    assert_standin(login_bash(f"srun -n1 --export=ALL {probe}\n", env, tmp_path).stdout.strip())
    env["CUDAENV_TESTBED_NO_SITE_PROLOG"] = "1"  # the bed's prolog steps aside (tests/slurm.sh)
    res = login_bash(f"srun -n1 --export=ALL {probe}\n"
                     "srun -n1 --export=ALL cudaenv doctor --no-torch --json > doctor.json || true\n"
                     f"srun -n1 --export=ALL bash -c 'eval \"$(cudaenv use 12.4)\"; {probe}'\n"
                     f"srun -n1 --export=ALL cudaenv exec 12.4 -- {probe}\n", env, tmp_path)
    stub, again, execd = res.stdout.splitlines()
    assert parse(stub)["cuInit"] == "34", stub  # what the job got: the bug the advice is for
    f = doctor_stub((tmp_path / "doctor.json").read_text())
    assert f["status"] == "fail", f
    assert "`cudaenv use cuda-12.4.1` of an older cudaenv" in f["detail"] and "whose environment Slurm copies" in f["detail"], f
    assert 'eval "$(cudaenv use <version>)"' in f["fix"] and "--export=NONE" in f["fix"], f
    assert_standin(again)
    assert_standin(execd)


def test_job_after_a_driverless_module_loaded_on_login(login, probe, tmp_path, testbed):
    """A module written with `stubs: driverless` and loaded on the driverless login node puts its stub on
    LD_LIBRARY_PATH (a module cannot make a node-local link) and it travels; doctor in the job names the
    module and its fix, and the fix (unload and load it in the job) gives the node's driver."""
    if not os.path.isfile(LMOD_INIT):
        setup_missing("Lmod not installed (bash tests/run.sh installs it)")
    pdir = os.path.join(login["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    os.makedirs(pdir, exist_ok=True)
    with open(os.path.join(pdir, "cuda-12.4.1.yaml"), "w") as f:
        f.write(f"name: cuda-12.4.1\nroot: {testbed['12.4']}\nstubs: driverless\n"
                "prepend:\n  PATH: ['{root}/bin']\n  LD_LIBRARY_PATH: ['{root}/lib64']\n")
    moddir = tmp_path / "modules"
    login_bash(f"cudaenv modulefiles --format lmod cuda-12.4.1 --output {moddir}", login, tmp_path)
    load = f"source {LMOD_INIT}\nmodule use {moddir}\nmodule load cuda/12.4.1\n"
    res = login_bash(load + f"srun -n1 --export=ALL {probe}\n"
                     "srun -n1 --export=ALL cudaenv doctor --no-torch --json > doctor.json || true\n"
                     f"srun -n1 --export=ALL bash -c 'source {LMOD_INIT}; module unload cuda/12.4.1; "
                     f"module load cuda/12.4.1; {probe}'\n", login, tmp_path)
    stub, fixed = res.stdout.splitlines()
    assert parse(stub)["cuInit"] == "34", stub
    f = doctor_stub((tmp_path / "doctor.json").read_text())
    assert f["status"] == "fail" and "module cuda/12.4.1 put it there" in f["detail"], f
    assert "`module unload cuda/12.4.1; module load cuda/12.4.1`" in f["fix"], f
    assert_standin(fixed)


def test_module_loaded_in_job_export_none(login, lmod, probe, tmp_path):
    job = job_script(tmp_path, login, lmod + probe)
    assert_standin(login_bash(f"srun -n1 --export=NONE /bin/bash {job}", login, tmp_path).stdout)


# -- build settings: the job's allocation, not the login node's cores -------------------------

SIZES = 'echo "MAX_JOBS=${MAX_JOBS-} NVCC_THREADS=${NVCC_THREADS-}"'
# (login side's CPUs for `use`, the job's -c): each pair gives different settings on 2 cores.
SIZE_CASES = [pytest.param("0", 2, id="login1-job2"), pytest.param("0,1", 1, id="login2-job1")]


def sizes_from_use_in_job(login, tmp_path, cpus: int) -> str:
    job = job_script(tmp_path, login, USE + SIZES)
    return login_bash(f"srun -n1 -c{cpus} --export=NONE /bin/bash {job}", login, tmp_path).stdout.strip()


@pytest.mark.parametrize("login_cpus, job_cpus", SIZE_CASES)
def test_use_in_job_sizes_builds_by_the_allocation(login, tmp_path, login_cpus, job_cpus):
    """`use` inside a step bound to N cores computes what `use` computes on N cores elsewhere."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2 CPUs")
    pinned = ",".join(str(i) for i in range(job_cpus))
    here = login_bash(f'eval "$(taskset -c {pinned} cudaenv use 12.4)"\n{SIZES}', login, tmp_path).stdout.strip()
    assert sizes_from_use_in_job(login, tmp_path, job_cpus) == here


# How a job inheriting the login shell reaches the node, for the build settings (each job runs the
# script {job}, which prints the sizes; -c N gives its step N cores, bound by task/affinity).
SIZE_SUBMIT = {
    "srun": "srun -n1 -c{cpus} --export=ALL /bin/bash {job} > {out}",
    "sbatch": "sbatch --wait -Q -n1 -c{cpus} --export=ALL -o {out} {job}",
    "salloc": "salloc -Q -n1 -c{cpus} srun -n1 -c{cpus} --export=ALL /bin/bash {job} > {out}",
}


def _size_case(how: str, login_cpus: str, job_cpus: int):
    marks = [pytest.mark.slow] if how == "sbatch" else []  # sbatch --wait polls every 2 s
    return pytest.param(how, login_cpus, job_cpus, marks=marks, id=f"{how}-login{login_cpus.count(',') + 1}-job{job_cpus}")


@pytest.mark.parametrize("how, login_cpus, job_cpus", [_size_case(h, *c.values) for h in SIZE_SUBMIT for c in SIZE_CASES])
def test_build_settings_after_use_on_login_follow_the_allocation(how, login_cpus, job_cpus, login, tmp_path,
                                                                  site_prolog):
    """`use` on the login node (bound to other cores), then a job with --export=ALL: the job sees
    what `use` computes inside such a job (the TaskProlog re-planned it for the allocation)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2 CPUs")
    job = tmp_path / "sizes.sh"
    job.write_text("#!/bin/bash\n" + SIZES + "\n")
    out = tmp_path / "sizes.txt"
    login_bash(f'eval "$(taskset -c {login_cpus} cudaenv use 12.4)"\n'
               + SIZE_SUBMIT[how].format(cpus=job_cpus, job=job, out=out), login, tmp_path)
    assert out.read_text().strip() == sizes_from_use_in_job(login, tmp_path, job_cpus)


def test_your_own_build_settings_win_in_the_job(login, tmp_path, site_prolog):
    """Values cudaenv did not set (exported before `use`) or that the user changed after `use` are
    the user's: the task prolog re-plans around them."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2 CPUs")
    job = tmp_path / "sizes.sh"
    job.write_text(SIZES + "\n")
    res = login_bash("export NVCC_THREADS=3\n" + 'eval "$(taskset -c 0 cudaenv use 12.4)"\n'
                     f"srun -n1 -c2 --export=ALL /bin/bash {job}\n"
                     f"MAX_JOBS=9 srun -n1 -c2 --export=ALL /bin/bash {job}\n", login, tmp_path)
    # NVCC_THREADS=3 is the user's; MAX_JOBS is re-derived for 2 cores and 3 threads: 2 // 3 -> 1.
    assert res.stdout.splitlines() == ["MAX_JOBS=1 NVCC_THREADS=3", "MAX_JOBS=9 NVCC_THREADS=3"]
    two = login_bash('eval "$(taskset -c 0 cudaenv use 12.4)"\n'
                     f"srun -n1 -c2 --export=ALL /bin/bash {job}\n", login, tmp_path).stdout.strip()
    assert two == "MAX_JOBS=2 NVCC_THREADS=1"


def test_user_task_prolog_option(login, tmp_path, probe):
    """Without a site TaskProlog, a user's own `srun --task-prolog=` does the same for one step."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2 CPUs")
    prolog = tmp_path / "prolog.sh"
    prolog.write_text("#!/bin/sh\nexec cudaenv slurm task-prolog\n")
    prolog.chmod(0o755)
    job = tmp_path / "job.sh"
    job.write_text(SIZES + "\n" + probe + "\n")
    res = login_bash('eval "$(taskset -c 0 cudaenv use 12.4)"\n'
                     f"srun -n1 -c2 --export=ALL --task-prolog={prolog} /bin/bash {job}\n", login, tmp_path)
    lines = res.stdout.splitlines()
    assert lines[0] == "MAX_JOBS=2 NVCC_THREADS=1"
    assert_standin(lines[1])


def test_cgroup_limited_job_sizes_builds_by_its_memory_limit(login, tmp_path):
    """A job step inside a real memory cgroup (made here; Slurm's own cgroup plugins are not set up
    in this bed): `cudaenv exec` in it re-derives MAX_JOBS from the limit, not the node's memory."""
    from test_node_bound import child_cgroup
    from cudaenv.profiles.build import GIB_PER_THREAD

    cg = child_cgroup("memory", {"memory.limit_in_bytes": (GIB_PER_THREAD + 1) << 30})
    try:
        job = tmp_path / "cg.sh"
        job.write_text(f'echo $$ > {cg}/cgroup.procs\n{SIZES}\ncudaenv exec -- /bin/bash -c \'{SIZES}\'\n')
        res = login_bash('eval "$(cudaenv use 12.4)"\n' f"srun -n1 -c2 --export=ALL /bin/bash {job}", login, tmp_path)
        seen = f"stdout: {res.stdout!r}; stderr: {res.stderr[-800:]!r}; cgroup {cg}"
        outside, inside = res.stdout.splitlines()
        assert inside == "MAX_JOBS=1 NVCC_THREADS=1", seen
        if (os.cpu_count() or 1) >= 2:
            # The step's 2 cores (and the node's memory), before joining the cgroup: what `use` gives there.
            assert outside == sizes_from_use_in_job(login, tmp_path, 2), seen
    finally:
        try:
            os.rmdir(cg)
        except OSError:
            pass
