"""Issue 17: values bound to a node (build settings from GPUs, cores, memory, affinity, cgroup
limits; the stub decision) are re-made where the process runs, never carried by an inherited
environment; the user's own values still win.

"Another node" here is another allocation on this machine: a process bound to other cores
(real CPU affinity, taskset), or one inside a real cgroup with a memory limit or CPU quota
(created under this process's own cgroup when the cgroup tree is writable). The Slurm side
(a real job inheriting the login node's switch) is in test_slurm.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid

import pytest

from cudaenv.env.state import State, decode, encode
from cudaenv.host.node import allocation, cgroup_limits, node_key
from cudaenv.profiles.build import GIB_PER_THREAD, jobs
from helpers import IN_CI, REPO, clean_shell_env, run_cudaenv

TWO = (os.cpu_count() or 1) >= 2 and len(os.sched_getaffinity(0)) >= 2
needs_two = pytest.mark.skipif(not TWO, reason="needs 2 CPUs")
MEM_GIB = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / (1 << 30)


# -- the allocation: fake cgroup trees (v1, v2, nested, odd mounts), then a real cgroup --------

def fake_tree(tmp_path, cgroup: str, mountinfo: str, files: dict[str, str]) -> str:
    root = tmp_path / "root"
    (root / "proc" / "self").mkdir(parents=True)
    (root / "proc" / "self" / "cgroup").write_text(cgroup)
    (root / "proc" / "self" / "mountinfo").write_text(mountinfo)
    for rel, text in files.items():
        p = root / rel.lstrip("/")
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return str(root)


V2_MOUNT = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"


def test_cgroup_v2_limits_are_the_lowest_along_the_ancestors(tmp_path):
    root = fake_tree(tmp_path, "0::/slurm/uid_0/job_7/step_0\n", V2_MOUNT, {
        "/sys/fs/cgroup/cgroup.controllers": "cpu memory\n",
        "/sys/fs/cgroup/slurm/uid_0/job_7/step_0/cgroup.procs": "",
        "/sys/fs/cgroup/slurm/uid_0/job_7/step_0/memory.max": "max\n",
        "/sys/fs/cgroup/slurm/uid_0/job_7/step_0/cpu.max": "max 100000\n",
        "/sys/fs/cgroup/slurm/uid_0/job_7/memory.max": str(16 << 30) + "\n",
        "/sys/fs/cgroup/slurm/uid_0/job_7/cpu.max": "400000 100000\n",
        "/sys/fs/cgroup/slurm/memory.max": str(64 << 30) + "\n",
        "/sys/fs/cgroup/memory.max": "garbage\n",
    })
    assert cgroup_limits(root) == (4.0, 16 << 30)


def test_cgroup_v1_hybrid_and_a_subtree_mount(tmp_path):
    """v1 memory mounted with its root at a container's subtree (found through mountinfo, the
    usual layout absent); cpu,cpuacct with a quota of 1.5 CPUs; 'unlimited' memory at the top."""
    cgroup = "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n"
    mountinfo = ("40 30 0:40 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
                 "41 30 0:41 / /odd\\040place/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
                 "42 30 0:42 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
                 "43 30 0:43 / /proc rw shared:5 - proc proc rw\n"
                 "truncated line\n")
    root = fake_tree(tmp_path, cgroup, mountinfo, {
        "/sys/fs/cgroup/memory/memory.limit_in_bytes": str(6 << 30),
        "/odd place/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "150000",
        "/odd place/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000",
        "/odd place/cpu,cpuacct/cpu.cfs_quota_us": "-1",
        "/odd place/cpu,cpuacct/cpu.cfs_period_us": "100000",
        "/sys/fs/cgroup/unified/memory.max": "max",
    })
    assert cgroup_limits(root) == (1.5, 6 << 30)
    # A quota is a hard cap: 1.5 CPUs run one job; memory bounded by the limit.
    assert allocation(root) == (1, 6.0)


@pytest.mark.parametrize("cgroup, mountinfo", [
    ("", ""), ("garbage\n", "garbage\n"), ("0::/x\n", V2_MOUNT),  # no such directory: no limits
    ("4:memory:/a\n", "1 2 3 / /m rw - cgroup cgroup rw,memory\n"),
])
def test_cgroup_unreadable_or_absent_means_no_limit(tmp_path, cgroup, mountinfo):
    assert cgroup_limits(fake_tree(tmp_path, cgroup, mountinfo, {})) == (None, None)


def test_jobs_fit_a_limited_allocation():
    """The issue's example: a job limited to 4 cores and 16 GB on a 128-core node."""
    assert jobs(4, 16)[0] == min(4, 16 // GIB_PER_THREAD)
    assert jobs(128, 16)[0] == 16 // GIB_PER_THREAD


def own_cgroup(controller: str) -> str:
    with open("/proc/self/cgroup") as f:
        for line in f:
            _h, ctrls, path = line.rstrip("\n").split(":", 2)
            if controller in ctrls.split(","):
                return f"/sys/fs/cgroup/{controller}{path.rstrip('/')}"
    return ""


def child_cgroup(controller: str, files: dict[str, int]) -> str:
    """A real v1 cgroup of ``controller`` made under this process's own, with ``files`` written;
    skipped where the cgroup tree is not writable here (failed under CI). The caller removes it."""
    parent = own_cgroup(controller)
    d = os.path.join(parent, f"cudaenv-test-{uuid.uuid4().hex[:8]}")
    try:
        os.mkdir(d)
    except OSError as exc:
        if IN_CI:
            pytest.fail(f"cannot make a {controller} cgroup under {parent}: {exc}")
        pytest.skip(f"cannot make a {controller} cgroup under {parent!r}: {exc}")
    for k, v in files.items():
        with open(os.path.join(d, k), "w") as f:
            f.write(str(v))
    return d


@pytest.fixture
def child_cgroups():
    """make(memory_bytes, cpus): real memory and cpu cgroups (child_cgroup), removed at the end."""
    made: list[str] = []

    def make(memory_bytes: int | None = None, cpus: int | None = None) -> list[str]:
        dirs = []
        for ctrl, files in (("memory", {"memory.limit_in_bytes": memory_bytes}),
                            ("cpu", {"cpu.cfs_period_us": 100000, "cpu.cfs_quota_us": cpus and cpus * 100000})):
            if memory_bytes if ctrl == "memory" else cpus:
                dirs.append(child_cgroup(ctrl, {k: v for k, v in files.items() if v}))
                made.append(dirs[-1])
        return dirs

    yield make
    for d in reversed(made):
        try:
            os.rmdir(d)
        except OSError:
            pass


def in_cgroups(dirs: list[str], argv: list[str]) -> list[str]:
    """argv run inside the cgroups ``dirs`` (the shell joins them, then becomes argv)."""
    joins = "".join(f'echo $$ > "{d}/cgroup.procs"; ' for d in dirs)
    return ["sh", "-c", joins + 'exec "$@"', "sh", *argv]


def cudaenv_argv(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv.pop(1)); "
            "from cudaenv.main import main; main()", REPO, *args]


def test_real_cgroup_memory_limit_and_cpu_quota_size_the_build(child_cgroups, testbed, tmp_path):
    if MEM_GIB < 3 * GIB_PER_THREAD:
        pytest.skip("needs memory for 3 jobs outside the cgroup")
    env = clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"])
    free = json.loads(subprocess.run(cudaenv_argv("use", "12.4", "--shell", "json"), env=env, capture_output=True,
                                     text=True, timeout=120, check=True).stdout)["set"]
    mem_only = child_cgroups(memory_bytes=(GIB_PER_THREAD + 1) << 30)
    limited = json.loads(subprocess.run(in_cgroups(mem_only, cudaenv_argv("use", "12.4", "--shell", "json")),
                                        env=env, capture_output=True, text=True, timeout=120, check=True).stdout)["set"]
    cores = len(os.sched_getaffinity(0))
    assert free["MAX_JOBS"] == str(min(cores, int(MEM_GIB // GIB_PER_THREAD)))
    assert limited["MAX_JOBS"] == "1"  # GIB_PER_THREAD + 1 GiB: one compiler thread's worth
    assert limited["NVCC_THREADS"] == free["NVCC_THREADS"] == "1"
    if TWO:
        quota = child_cgroups(cpus=1)
        got = json.loads(subprocess.run(in_cgroups(quota, cudaenv_argv("use", "12.4", "--shell", "json")),
                                        env=env, capture_output=True, text=True, timeout=120,
                                        check=True).stdout)["set"]
        assert got["MAX_JOBS"] == "1"


# -- the state records where it was planned ---------------------------------------------------

def test_state_records_the_node_and_the_bound_values():
    st = State("cuda-12.4", {"MAX_JOBS": (None, "2")}, {}, node="h\u00f6st;x/ab/c2/m100/nodriver",
               bound=["MAX_JOBS"])
    text = encode(st)
    assert decode(text) == st and ";" not in text.split(";h,")[1].split(",")[0]
    assert decode(encode(State("a"))).node is None  # no node: nothing says it came from elsewhere
    with pytest.raises(Exception):
        decode("c1;n,a;h,node,BAD$(x)")


def shell_env(tmp_path, testbed, **extra) -> dict:
    return clean_shell_env(tmp_path, CUDAENV_ROOTS=testbed["12.4"], **extra)


def bash(script: str, env: dict, cwd=None) -> subprocess.CompletedProcess:
    res = subprocess.run(["bash", "--norc", "--noprofile", "-c", "set -eu\n" + script], env=env, cwd=cwd,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return res


SIZES = 'echo "MAX_JOBS=${MAX_JOBS-} NVCC_THREADS=${NVCC_THREADS-}"'
USE1 = 'eval "$(taskset -c 0 cudaenv use 12.4)"\n'


@needs_two
def test_use_records_the_node_and_the_bound_values(testbed, tmp_path):
    res = bash(USE1 + 'echo "$_CUDAENV_STATE"', shell_env(tmp_path, testbed))
    st = decode(res.stdout.strip())
    assert st.node.split("/")[2] == "c1" and st.node.endswith("/nodriver")
    assert st.node.split("/")[0] == os.uname().nodename
    assert sorted(st.bound) == ["CUDAARCHS", "MAX_JOBS", "NVCC_THREADS", "TORCH_CUDA_ARCH_LIST"]
    assert node_key() != st.node or len(os.sched_getaffinity(0)) == 1


@needs_two
def test_exec_on_another_allocation_rederives_and_your_values_win(testbed, tmp_path):
    """`use` bound to one core, then `exec` (no target, no pin) on two: the two cores' sizes; a value
    the user set after `use`, or one cudaenv never set, is kept."""
    env = shell_env(tmp_path, testbed)
    res = bash(USE1 + SIZES + "\ncudaenv exec -- sh -c '" + SIZES + "'\n"
               "MAX_JOBS=7 cudaenv exec -- sh -c '" + SIZES + "'\n", env)
    login, job, mine = res.stdout.splitlines()
    assert login == "MAX_JOBS=1 NVCC_THREADS=1"
    assert job == "MAX_JOBS=2 NVCC_THREADS=1"
    assert mine == "MAX_JOBS=7 NVCC_THREADS=1"
    # A value the user exported before `use` is never touched: use keeps it, exec keeps it.
    res = bash("export MAX_JOBS=5\n" + USE1 + "cudaenv exec -- sh -c '" + SIZES + "'\n", env)
    assert res.stdout.strip() == "MAX_JOBS=5 NVCC_THREADS=1"


def project(tmp_path) -> str:
    """A directory pinned to 12.4 (its .cuda-version file's path)."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / ".cuda-version").write_text("12.4\n")
    return str(tmp_path / "proj" / ".cuda-version")


@needs_two
def test_exec_with_a_pin_follows_the_pin(testbed, tmp_path):
    env = shell_env(tmp_path, testbed)
    project(tmp_path)
    res = bash(USE1 + "cd proj && cudaenv exec -- sh -c 'echo $CUDAENV_ACTIVE $MAX_JOBS'", env, cwd=str(tmp_path))
    assert res.stdout.split()[1] == "2"


@needs_two
def test_a_new_shell_on_another_allocation_replans(testbed, tmp_path):
    """init (every new interactive shell, e.g. `srun --pty bash` inheriting the login's switch)
    re-plans the inherited switch for where it runs; on the same allocation it changes nothing."""
    env = shell_env(tmp_path, testbed)
    init = 'eval "$(cudaenv init bash)"\n'
    res = bash(USE1 + "taskset -c 0,1 bash --norc --noprofile -c '" + init + SIZES + "'\n"
               "taskset -c 0 bash --norc --noprofile -c '" + init + SIZES + "'\n", env)
    assert res.stdout.splitlines() == ["MAX_JOBS=2 NVCC_THREADS=1", "MAX_JOBS=1 NVCC_THREADS=1"]
    assert "re-planned for this node: MAX_JOBS" in res.stderr
    # The re-planned shell's `off` gives back the environment before `use` exactly.
    res = bash(USE1 + "taskset -c 0,1 bash --norc --noprofile -c '" + init
               + 'cudaenv off; env | grep -E "^(MAX_JOBS|NVCC_THREADS|_CUDAENV|CUDA_HOME)" || echo clean\'', env)
    assert res.stdout.strip() == "clean"


@needs_two
def test_auto_hook_replans_on_another_allocation(testbed, tmp_path):
    env = shell_env(tmp_path, testbed)
    res = bash(USE1 + "taskset -c 0,1 cudaenv _auto " + project(tmp_path), env)
    assert "export MAX_JOBS='2';" in res.stdout.splitlines() or "export MAX_JOBS='2'" in res.stdout, res.stdout


@needs_two
def test_task_prolog_prints_slurm_lines_only_for_an_inherited_switch(testbed, tmp_path):
    env = shell_env(tmp_path, testbed)
    res = bash(USE1 + "echo ---; taskset -c 0 cudaenv slurm task-prolog; echo ---;"
               "taskset -c 0,1 cudaenv slurm task-prolog", env)
    same, other = res.stdout.split("---\n")[1:]
    assert same == ""  # planned here: nothing to change, no line
    lines = other.splitlines()
    assert "export MAX_JOBS=2" in lines
    st = [ln for ln in lines if ln.startswith("export _CUDAENV_STATE=")]
    assert len(st) == 1 and "/c2/" in decode(st[0].split("=", 1)[1]).node
    assert all(ln.startswith(("export ", "unset ")) for ln in lines)
    assert "'" not in other  # Slurm takes the value verbatim: no shell quoting


@pytest.mark.parametrize("state", ["garbage", "c1;n,x;h,elsewhere/1/c9/m1/nodriver,", ""])
def test_task_prolog_never_fails_a_task(testbed, tmp_path, state):
    """A broken state, or a profile this node cannot plan: exit 0, nothing on stdout, one line on stderr."""
    env = shell_env(tmp_path, testbed, _CUDAENV_STATE=state, CUDAENV_ACTIVE="x")
    res = run_cudaenv(["slurm", "task-prolog"], env)
    assert (res.returncode, res.stdout) == (0, "")
    assert len(res.stderr.splitlines()) <= 1 and "Traceback" not in res.stderr


@needs_two
def test_doctor_says_the_switch_came_from_elsewhere(testbed, tmp_path):
    env = shell_env(tmp_path, testbed)
    res = subprocess.run(["bash", "--norc", "--noprofile", "-c", USE1 + "taskset -c 0,1 cudaenv doctor --no-torch"],
                         env=env, capture_output=True, text=True, timeout=180)
    assert "was planned on another node" in res.stderr and "MAX_JOBS=2" in res.stderr, res.stderr


def test_taskset_available():
    assert shutil.which("taskset"), "util-linux's taskset is part of the test bed"


@pytest.mark.parametrize("value", ["a\nb", "a\rb", "x\0"])
def test_task_prolog_refuses_a_value_slurm_cannot_carry(value):
    """Slurm reads one `export NAME=value` per line, the value verbatim: a line break cannot pass."""
    from cudaenv.commands.node import prolog_text
    from cudaenv.env.plan import Plan
    from cudaenv.errors import CudaenvError

    assert prolog_text(Plan([("set", "A", "x y'$(z)"), ("unset", "B")], [])) == "export A=x y'$(z)\nunset B\n"
    with pytest.raises(CudaenvError):
        prolog_text(Plan([("set", "A", value)], []))


def test_node_record_round_trips_any_text():
    """Any host name (the node key's first part) round-trips, encoded as safe printable ASCII."""
    from hypothesis import given, settings, strategies as st

    names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)

    @settings(max_examples=200, deadline=None)
    @given(st.text(min_size=1), st.lists(names, max_size=4))
    def check(node, bound):
        s = State("p", {}, {}, node=node, bound=bound)
        text = encode(s)
        assert decode(text) == s
        assert all(32 < ord(c) < 127 and c not in "'\"$`\\!&*?[]{}()<>#" for c in text)

    check()
