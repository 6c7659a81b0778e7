"""`cudaenv fleet`: one srun step gathers each node's facts; one table says what differs (issue 17).

On the real one-node Slurm of tests/slurm.sh the login side (this host) has no driver and the GPU
node (slurmd's mount namespace) shows the stand-in driver: the table's rows are this host
("here") and the node, and the driver and libcuda columns differ while the toolkits (same files,
same fingerprints) are "same everywhere".
"""

from __future__ import annotations

import json
import os
import subprocess
import time

import jsonschema
import pytest

from test_json_shape import documented_schema
from slurmbed import SLURM_CONF, STANDIN
from helpers import REPO, clean_shell_env, one_error_line

# The same xdist group as tests/test_slurm.py: one worker owns the cluster's start and stop.
pytestmark = [pytest.mark.slurm, pytest.mark.testbed, pytest.mark.xdist_group("tests/test_slurm.py")]

DRIVER = "580.159.04"  # tests/fixtures/nvidia/proc: what the GPU node's /proc/driver/nvidia/version says
TIMEOUT = 120


@pytest.fixture(scope="module")
def cluster(slurm_cluster):
    """The test bed's cluster (tests/conftest.py's session fixture: never stopped between files)."""
    return slurm_cluster


@pytest.fixture(scope="module")
def node(cluster) -> str:
    res = subprocess.run(["sinfo", "-h", "-o", "%N"], env=cluster, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.strip(), res.stderr
    return res.stdout.strip()


@pytest.fixture
def login(tmp_path, testbed, cluster):
    """The login side: cudaenv by its absolute path only (not on PATH: the node has none either)."""
    env = clean_shell_env(tmp_path, "/usr/local/bin:/usr/bin:/bin", SLURM_CONF=SLURM_CONF,
                          CUDAENV_ROOTS=testbed["12.4"])
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    env["CUDAENV"] = os.path.join(str(tmp_path), "bin", "cudaenv")
    return env


def bash(script: str, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    try:
        res = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=env, capture_output=True,
                             text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"no answer within {TIMEOUT} s: {exc.stderr!r}")
    if check and res.returncode != 0:
        pytest.fail(f"exit {res.returncode}: {res.stdout[-800:]}\n{res.stderr[-800:]}")
    return res


def table(out: str) -> tuple[list[str], dict[str, str]]:
    """The header line and each row by its node name (columns split on runs of 2+ spaces)."""
    import re

    lines = out.splitlines()
    head = re.split(r"\s{2,}", lines[0].strip())
    rows = {}
    for ln in lines[1:]:
        if ln.startswith("same everywhere") or not ln.strip():
            continue
        cells = re.split(r"\s{2,}", ln.strip())
        rows[cells[0]] = dict(zip(head, cells))
    return head, rows


def test_login_and_gpu_node_differ_in_driver_and_libcuda(login, node):
    """After `use 12.4` on the driverless login side with `stubs: driverless` (a runtime stub there),
    the table shows this host without a driver and with the stub, the node with its driver and the
    stand-in; the toolkit is the same on both (one fingerprint), listed as same everywhere."""
    cfg = os.path.join(login["XDG_CONFIG_HOME"], "cudaenv")
    os.makedirs(cfg, exist_ok=True)
    with open(os.path.join(cfg, "config.yaml"), "w") as f:
        f.write("profile:\n  stubs: driverless\n")
    res = bash(f'eval "$("$CUDAENV" use 12.4)"; "$CUDAENV" fleet --nodes {node}', login)
    head, rows = table(res.stdout)
    here = next(r for n, r in rows.items() if n.endswith("(here)"))
    there = rows[node]
    assert head[:2] == ["node", "driver"] and "libcuda.so.1" in head, res.stdout
    assert here["driver"] == "none" and there["driver"] == DRIVER, res.stdout
    assert there["libcuda.so.1"] == STANDIN, res.stdout  # the step did not inherit the login's stub
    assert "/stubs-" in here["libcuda.so.1"], res.stdout  # the node-local runtime stub (toolkit/stubs.py)
    same = next(ln for ln in res.stdout.splitlines() if ln.startswith("same everywhere: "))
    assert "12.4.1:" in same and "/dev/shm" in same and "cudaenv 0.1.0" in same, same
    assert res.stderr == "", res.stderr


def test_inside_an_allocation_it_takes_the_jobs_nodes_and_json_says_the_same(login, node):
    res = bash('salloc -Q -N1 "$CUDAENV" fleet --json', login)
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, documented_schema(), cls=jsonschema.Draft202012Validator)  # docs/json.md
    assert doc["command"] == "fleet" and doc["ok"] is True
    names = [n["node"] for n in doc["nodes"]]
    assert names[0].endswith("(here)") and names[1:] == [node], names
    assert {"driver", "libcuda"} <= set(doc["differ"]) and "toolkits" not in doc["differ"], doc["differ"]
    gpu = doc["nodes"][1]
    assert gpu["driver"] == DRIVER and gpu["driver_cuda"] and gpu["libcuda"] == STANDIN
    tk = {t["full_version"]: t for t in gpu["toolkits"]}["12.4.1"]
    assert len(tk["fingerprint"]) == 12 and tk in doc["nodes"][0]["toolkits"]
    assert isinstance(gpu["shm"], int) and gpu["shm"] > 0


def test_the_step_runs_with_export_none_and_without_cudaenv_on_path(login, node, tmp_path):
    """The step gets only where cudaenv's settings are (--export=LIST), so a variable of the login shell
    never reaches it, and cudaenv is started by its absolute path."""
    res = bash(f'export LD_LIBRARY_PATH=/login/only CUDA_HOME=/login/cuda; "$CUDAENV" fleet --no-here --nodes {node} '
               '--json', login)
    doc = json.loads(res.stdout)
    assert [n["node"] for n in doc["nodes"]] == [node] and doc["differ"] == []
    assert doc["nodes"][0]["libcuda"] == STANDIN
    assert not any(t["root"] == "/login/cuda" for t in doc["nodes"][0]["toolkits"])
    res = bash(f'"$CUDAENV" fleet --no-here --nodes {node}', login)
    assert res.stdout.splitlines()[0] == "all 1 nodes agree", res.stdout


def test_doctor_nodes_is_the_fleet_check(login, node):
    res = bash(f'"$CUDAENV" doctor --nodes {node}', login)
    head, rows = table(res.stdout)
    assert head[:2] == ["node", "driver"] and rows[node]["driver"] == DRIVER, res.stdout


@pytest.mark.parametrize("args, words", [
    (["fleet"], "give --nodes LIST"),
    (["fleet", "--nodes", "no[such"], "Invalid node name"),
    (["fleet", "--nodes", "nosuchnode"], "Invalid node name"),
])
def test_bad_node_lists_are_one_line(login, args, words):
    env = dict(login)
    env.pop("SLURM_JOB_NODELIST", None)
    res = subprocess.run([env["CUDAENV"], *args], env=env, capture_output=True, text=True, timeout=TIMEOUT)
    err = one_error_line(res)
    assert words in err, err


def test_overhead_of_the_fleet_step_is_reported(login, node, record_property):
    """The fleet step's wall time on this bed (the report's figure; bounded generously, not raced)."""
    t0 = time.monotonic()
    bash(f'"$CUDAENV" fleet --no-here --nodes {node} --json', login)
    took = time.monotonic() - t0
    record_property("fleet_seconds", round(took, 2))
    assert took < TIMEOUT


@pytest.mark.parametrize("doc", [
    {"node": "n1", "driver": 580, "gpus": "A100", "toolkits": [{"root": 1}], "shm": "big", "nccl": ["x"]},
    {"node": "n1", "toolkits": "12.4", "gpus": [None, "H100"], "shm": True, "cudaenv": {"v": 1}},
    {"node": "n1\x1b[31m"},
])
def test_a_node_answering_another_shape_is_shown_not_a_traceback(doc):
    """Facts from another cudaenv version (or garbled) on a node: each odd value becomes none."""
    import sys

    sys.path.insert(0, REPO)
    from cudaenv.commands.fleet import FACTS, cell, differences, sane

    row = sane(doc)
    cells = [cell(k, row.get(k)) for k, _t in FACTS]
    assert all(isinstance(c, str) for c in cells)
    assert differences([row, row]) == []
    assert row["toolkits"] == [] and (row["shm"] is None)
