"""The GitHub Action (action.yml at the repository's root), run step by step the way the runner does.

There is no runner here, so the test plays it: action.yml is parsed; ``${{ }}`` expressions in
``env:``, ``with:``, ``if:`` and ``outputs:`` are evaluated over ``inputs``, ``steps.<id>.outputs``,
``github.action_path`` and ``runner.temp``; each ``run:`` step runs in real bash as ``shell:
bash`` does (``bash --noprofile --norc -eo pipefail``), with fresh ``$GITHUB_ENV``,
``$GITHUB_PATH`` and ``$GITHUB_OUTPUT`` files processed afterwards by the runner's own rules
(ported in tests/test_ci_outputs.py).

**Stood in:** ``actions/cache/restore`` and ``actions/cache/save`` are not run (they talk to
GitHub's cache service). In their place the test copies the cache directory to and from a local
store keyed by the step's ``key`` — exact-key hits only, which is what the action relies on
(``cache-hit`` is "true" only for the exact key).

Everything cudaenv downloads comes from a package index on 127.0.0.1 (tests/rangeserver.py)
whose file host answers byte ranges as PyPI's does; the action's ``pip install <action path>``
gets its build backend and dependencies from wheels tests/action.sh put in the test bed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
import yaml

import rangeserver as rs
from helpers import REPO
from test_ci_outputs import Job, runner_parse_env_file

pytestmark = pytest.mark.slow

WHEELS = os.path.join(os.environ.get("CUDAENV_TESTBED") or os.path.expanduser("~/.cache/cudaenv-testbed"),
                      "action-wheels")
NVCC = ("nvidia-cuda-nvcc", "13.5.37")
NVCC_SH = (b"#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
           b"echo 'Cuda compilation tools, release 13.5, V13.5.37'\n")


def _action() -> dict:
    with open(os.path.join(REPO, "action.yml")) as f:
        return yaml.safe_load(f)


# --------------------------------------------------------------------------- the runner's part


_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_TOKEN = re.compile(r"\s*(==|!=|&&|\|\||'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_.-]*)")


class ActionRun(Job):
    """One job running the composite action once; ``store`` stands in for GitHub's cache service."""

    def __init__(self, env: dict, workdir, store: dict, inputs: dict) -> None:
        super().__init__(env, workdir)
        self.store = store
        self.temp = workdir / "runner-temp"
        self.temp.mkdir()
        # The runner checks the action out for each job: pip builds in that tree (build/, *.egg-info),
        # so two jobs (two xdist workers) never build in one directory, nor in the developer's clone.
        self.action_path = str(workdir / "action")
        shutil.copytree(REPO, self.action_path, symlinks=True,
                        ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".venv*"))
        action = _action()
        self.inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
        self.inputs.update(inputs)
        self.outputs: dict[str, dict[str, str]] = {}
        self.log: list[tuple[str, subprocess.CompletedProcess | str]] = []

    def value(self, name: str) -> str:
        parts = name.split(".")
        if parts[0] == "inputs":
            return self.inputs.get(parts[1], "")
        if parts[0] == "steps" and parts[2] == "outputs":
            return self.outputs.get(parts[1], {}).get(parts[3], "")
        if name == "github.action_path":
            return self.action_path
        if name == "runner.temp":
            return str(self.temp)
        if name in ("true", "false"):
            return name
        raise AssertionError(f"an expression the test runner does not know: {name}")

    def evaluate(self, text: str) -> str | bool:
        """``a == 'x' && b != 'y'`` (what action.yml uses): a string, or a truth value."""
        tokens = _TOKEN.findall(text)
        assert "".join(t.strip() for t in tokens) == re.sub(r"\s+", "", text), text

        def atom(t: str) -> str:
            return t[1:-1].replace("''", "'") if t.startswith("'") else self.value(t)

        def comparison(ts: list[str]) -> str | bool:
            if len(ts) == 1:
                return atom(ts[0])
            assert len(ts) == 3 and ts[1] in ("==", "!="), ts
            same = atom(ts[0]).lower() == atom(ts[2]).lower()  # GitHub compares strings ignoring case
            return same if ts[1] == "==" else not same

        def truth(v: str | bool) -> bool:
            return v if isinstance(v, bool) else v != ""

        ors = [[]]
        for t in tokens:
            if t == "||":
                ors.append([])
            else:
                ors[-1].append(t)
        results = []
        for clause in ors:
            ands, cur = [], []
            for t in clause:
                if t == "&&":
                    ands.append(cur)
                    cur = []
                else:
                    cur.append(t)
            ands.append(cur)
            values = [comparison(a) for a in ands]
            results.append(values[0] if len(values) == 1 else all(truth(v) for v in values))
        return results[0] if len(results) == 1 else any(truth(v) for v in results)

    def substitute(self, text: str) -> str:
        return _EXPR.sub(lambda m: str(self.evaluate(m.group(1))).lower()
                         if isinstance(self.evaluate(m.group(1)), bool) else self.evaluate(m.group(1)), str(text))

    def run_step(self, step: dict) -> None:
        cond = step.get("if")
        if cond is not None:
            c = self.evaluate(_EXPR.sub(lambda m: m.group(1), str(cond)))
            if not (c if isinstance(c, bool) else c != ""):
                self.log.append((step.get("name", step.get("uses", "")), "skipped"))
                return
        sid = step.get("id", f"_{len(self.log)}")
        if "uses" in step:
            self.outputs[sid] = self.cache_step(step["uses"], {k: self.substitute(v) for k, v in step["with"].items()})
            self.log.append((step["uses"], "stood in"))
            return
        assert step.get("shell") == "bash", step
        assert "${{" not in step["run"], "values reach scripts through env:, never as ${{ }} inside run:"
        out_file = self.workdir / f"output_{len(self.log)}"
        out_file.write_bytes(b"")
        env = {k: self.substitute(v) for k, v in (step.get("env") or {}).items()}
        res = self.run(step["run"], GITHUB_OUTPUT=str(out_file), GITHUB_ACTION_PATH=self.action_path, RUNNER_TEMP=str(self.temp),
                       **env)
        self.outputs[sid] = dict(runner_parse_env_file(out_file.read_bytes()))
        self.log.append((step.get("name", sid), res))
        assert res.returncode == 0, (step.get("name"), res.stdout.decode()[-2000:], res.stderr.decode()[-3000:])

    def cache_step(self, uses: str, with_: dict) -> dict:
        """actions/cache/restore and /save, stood in by copying the directory to and from ``store``."""
        key, path = with_["key"], with_["path"]
        assert key and os.path.isabs(path), with_
        if uses == "actions/cache/restore@v4":
            if key not in self.store:
                return {"cache-hit": "false"}
            shutil.copytree(self.store[key], path, dirs_exist_ok=True, symlinks=True)
            return {"cache-hit": "true", "cache-matched-key": key, "cache-primary-key": key}
        if uses == "actions/cache/save@v4":
            saved = self.workdir.parent / f"saved-{len(self.store)}"
            shutil.copytree(path, saved, symlinks=True)
            self.store[key] = str(saved)
            return {}
        raise AssertionError(f"an action the test does not stand in for: {uses}")

    def run_action(self) -> dict[str, str]:
        action = _action()
        assert action["runs"]["using"] == "composite"
        for step in action["runs"]["steps"]:
            self.run_step(step)
        return {k: self.substitute(v["value"]) for k, v in action["outputs"].items()}


# --------------------------------------------------------------------------- the job


@pytest.fixture
def index():
    if not os.path.isfile(os.path.join(WHEELS, ".done")):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{WHEELS} is missing: run tests/action.sh")
        pytest.skip(f"{WHEELS} is missing: run tests/action.sh")
    files = rs.standard_wheels()
    files.update([rs.meta_wheel(pins={"nvcc": NVCC, "cudart": rs.RT, "cublas": rs.BLAS})])
    files[rs.wheel_name(*NVCC)] = rs.wheel_bytes(*NVCC, {"nvidia/cu13/bin/nvcc": NVCC_SH,
                                                         "nvidia/cu13/include/cuda.h": b"#define CUDA_VERSION 13050\n",
                                                         "nvidia/cu13/include/cuda_runtime.h": b"/* runtime */\n"})
    srv = rs.serve(files)
    yield srv
    rs.stop(srv)


def _job(tmp_path, name: str, srv, store: dict, **inputs: str) -> ActionRun:
    work = tmp_path / name
    home = work / "home"
    home.mkdir(parents=True)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8", "CI": "true",
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_DATA_HOME": str(home / ".local/share"),
           "XDG_CONFIG_HOME": str(home / ".config"),
           # pip (installing cudaenv from the action's path) and cudaenv (installing CUDA) both read
           # pip's configuration: the wheels for the one, the test index for the other.
           "PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": WHEELS, "PIP_INDEX_URL": srv.index,
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return ActionRun(env, work, store, {"cuda": "13.5", "source": "pypi", **inputs})


def _requests(srv) -> int:
    return len(srv.requests)


def test_action_cold_then_warm(tmp_path, index):
    store: dict[str, str] = {}
    cold = _job(tmp_path, "cold", index, store)
    out = cold.run_action()
    assert out["version"] == "13.5.0" and out["cache-hit"] == "false"
    root = out["cuda-home"]
    assert os.path.isfile(os.path.join(root, "bin", "nvcc")) and os.path.isfile(os.path.join(root, "include",
                                                                                               "cublas_v2.h"))
    assert list(store) == [out["cache-key"]]
    # The following steps of the job see the toolkit.
    res = cold.run('echo "CUDA_HOME=$CUDA_HOME"; echo "CUDA_PATH=$CUDA_PATH"; command -v nvcc; nvcc --version; '
                   'command -v cudaenv')
    text = res.stdout.decode()
    assert res.returncode == 0, res.stderr
    assert f"CUDA_HOME={root}\n" in text and f"CUDA_PATH={root}\n" in text
    assert os.path.join(root, "bin", "nvcc") in text and "release 13.5" in text
    assert "cudaenv-bin/cudaenv" in text
    # Only cuBLAS's headers came over the network, by range.
    blas = rs.wheel_name(*rs.BLAS)
    assert index.sent[blas] < len(index.files[blas]) / 10

    # A new job (new machine: empty HOME, runner temp, no toolkit), the same store.
    warm = _job(tmp_path, "warm", index, store)
    before_install = []
    steps = _action()["runs"]["steps"]
    for step in steps:
        if step.get("id") == "install":
            before_install.append(_requests(index))
        warm.run_step(step)
        if step.get("id") == "install":
            before_install.append(_requests(index))
    out2 = {k: warm.substitute(v["value"]) for k, v in _action()["outputs"].items()}
    assert out2["cache-hit"] == "true" and out2["cache-key"] == out["cache-key"]
    assert before_install[0] == before_install[1], "the install step asked the server for something"
    assert [name for name, r in warm.log if r == "skipped"] == ["Save the download cache"]
    res = warm.run("nvcc --version; echo \"$CUDA_HOME\"")
    assert res.returncode == 0 and out2["cuda-home"] in res.stdout.decode()
    assert open(os.path.join(out2["cuda-home"], "include", "cublas_api.h"), "rb").read() == \
        rs.BLAS_HEADERS["nvidia/cu13/include/cublas_api.h"]


def test_action_without_cache_never_touches_the_store(tmp_path, index):
    store: dict[str, str] = {}
    job = _job(tmp_path, "nocache", index, store, cache="false")
    out = job.run_action()
    assert os.path.isfile(os.path.join(out["cuda-home"], "bin", "nvcc"))
    assert store == {} and out["cache-hit"] == ""
    assert [name for name, r in job.log if r == "skipped"] == ["Restore the download cache", "Save the download cache"]


def test_action_files_are_what_a_runner_accepts():
    action = _action()
    assert set(action["inputs"]) >= {"cuda", "parts", "cache"}
    assert set(action["outputs"]) >= {"cuda-home", "version"}
    for step in action["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash" and "sudo" not in step["run"] and "apt" not in step["run"]
            assert "${{" not in step["run"]
        else:
            assert step["uses"] in ("actions/cache/restore@v4", "actions/cache/save@v4")


def _yaml_blocks(doc: str) -> list:
    text = open(os.path.join(REPO, doc), encoding="utf-8").read()
    return [yaml.safe_load(b.split("```", 1)[0]) for b in text.split("```yaml\n")[1:]]


@pytest.mark.parametrize("doc", ["docs/ci.md", "README.md"])
def test_documented_workflow_runs_the_action_over_a_matrix_of_cuda_versions(doc):
    found = [b for b in _yaml_blocks(doc) if "cudaenv@" in json.dumps(b)]
    assert found, doc
    block = found[0]
    job = next(iter(block["jobs"].values())) if "jobs" in block else block
    assert len(job["strategy"]["matrix"]["cuda"]) >= 2
    step = next(s for s in job["steps"] if "cudaenv@" in s.get("uses", ""))
    assert step["with"]["cuda"] == "${{ matrix.cuda }}"
    assert set(step["with"]) <= set(_action()["inputs"])
