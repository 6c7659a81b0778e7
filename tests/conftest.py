from __future__ import annotations

import dataclasses
import os

import pytest

from helpers import IN_CI, make_toolkit, setup_missing


def pytest_configure(config):
    """Under pytest-xdist, ``-n N`` alone spreads tests by group (``--dist loadgroup``), not one by one,
    which would split the groups below. The workers parse the command line again, so they are told too."""
    if hasattr(config, "workerinput"):
        config.option.loadgroup = True  # a worker: name each test's group in its id (what loadgroup reads)
    elif config.getoption("numprocesses", None) and config.getoption("dist", None) == "load":
        config.option.dist = "loadgroup"


@pytest.hookimpl(wrapper=True)  # around pytest-xdist's own, which reads the groups (and names them in the ids)
def pytest_collection_modifyitems(config, items):
    """The tests that share a module-scoped fixture (a world built once per file, a server, an account)
    form one xdist group, the file's: under pytest-xdist they run on one worker, in file order, as
    without it (a test may rely on what an earlier one left in that world). Other tests spread over
    the workers: each has its own tmp_path, HOME and XDG dirs (isolated_dirs, helpers.clean_shell_env),
    tmux server (a socket of its own) and ports (bound to port 0)."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if item.get_closest_marker("xdist_group") or info is None:
            continue
        if any(fd.scope == "module" for defs in info.name2fixturedefs.values() for fd in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    result = yield
    if hasattr(config, "workerinput") and config.getvalue("loadgroup"):
        _group_in_ids(items)
    return result


def _group_in_ids(items) -> None:
    """Make sure each grouped test's id ends in ``@<group>``, all ``--dist loadgroup`` reads.

    pytest-xdist (3.8) writes that suffix to ``item._nodeid``; since pytest 9.2 the id lives in
    ``item._id`` (a NodeId) and the write is silently lost (pytest-dev/pytest-xdist#1386): every test
    then goes its own way, a module's fixture is built once per worker that gets one of its tests,
    and two shared-store worlds at once share the real accounts' homes. Where the suffix is missing
    it is written into the NodeId here; where even that cannot be done the run stops, never spreads."""
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if not names:
            continue
        suffix = "@" + "_".join(names)
        if item.nodeid.endswith(suffix):
            continue  # pytest-xdist's own write took effect (pytest < 9.2)
        ident = getattr(item, "_id", None)
        if dataclasses.is_dataclass(ident) and getattr(ident, "names", None):
            last = ident.names[-1] + ("" if ident.params is None else f"[{ident.params}]") + suffix
            item._id = dataclasses.replace(ident, names=(*ident.names[:-1], last), params=None)
        if not item.nodeid.endswith(suffix):
            raise pytest.UsageError(f"cannot put {item.nodeid} in its pytest-xdist group ({suffix[1:]}) with this "
                                    "pytest: its module's tests would run on several workers; run with -p no:xdist")


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path, tmp_path_factory, monkeypatch):
    """Every test gets its own config and cache dirs and no inherited cudaenv state."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))  # where `cudaenv install` writes
    # Node-local runtime stubs (stubs: always) land here, not in /tmp; beside tmp_path, not in it
    # (tests that list what a command left in tmp_path must not see it).
    run = tmp_path_factory.mktemp("xdg-run")
    os.chmod(run, 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    for var in ("CUDAENV_ACTIVE", "_CUDAENV_STATE", "CUDAENV_ROOTS", "CUDAENV_SHELL",
                "CUDA_HOME", "CUDA_PATH", "CONDA_PREFIX"):
        monkeypatch.delenv(var, raising=False)
    yield


TESTBED = os.environ.get("CUDAENV_TESTBED") or os.path.expanduser("~/.cache/cudaenv-testbed")
TESTBED_VERSIONS = {"11.8": "11.8.0", "12.4": "12.4.1", "13.5": "13.5.0"}


@pytest.fixture(scope="session")
def testbed() -> dict[str, str]:
    """Roots of the real multi-version test bed (tests/testbed/build.sh)."""
    roots = {}
    for short in TESTBED_VERSIONS:
        root = os.path.join(TESTBED, f"cuda-{short}")
        if not os.path.isfile(os.path.join(root, "bin", "nvcc")):
            msg = f"test bed toolkit {root} missing: run bash tests/testbed/build.sh"
            setup_missing(msg)
        roots[short] = root
    return roots


SYSTEM_TOOLKIT = "/usr/local/cuda-13.0"


@pytest.fixture
def system_toolkit() -> str:
    if not os.path.isfile(os.path.join(SYSTEM_TOOLKIT, "bin", "nvcc")):
        if IN_CI:
            pytest.fail(f"{SYSTEM_TOOLKIT} is part of this machine kind but is missing")
        pytest.skip(f"{SYSTEM_TOOLKIT} missing")
    return SYSTEM_TOOLKIT


# PyTorch virtual environments built by tests/venvs.sh (cached beside the test bed).
def _venv_python(kind: str) -> str:
    venv = os.path.join(TESTBED, f"venv-{kind}")
    python = os.path.join(venv, "bin", "python")
    if not (os.path.isfile(os.path.join(venv, ".cudaenv-complete")) and os.access(python, os.X_OK)):
        msg = f"torch venv {venv} missing or incomplete: run bash tests/venvs.sh"
        setup_missing(msg)
    return python


@pytest.fixture(scope="session")
def venv_cpu() -> str:
    """``bin/python`` of a venv with CPU torch 2.13.0 (torch.version.cuda is None)."""
    return _venv_python("cpu")


@pytest.fixture(scope="session")
def venv_cu() -> str:
    """``bin/python`` of a venv with torch 2.14.1 built for CUDA 13.0 (and its NVIDIA wheels)."""
    return _venv_python("cu")


@pytest.fixture
def two_toolkits(tmp_path):
    """Fake toolkits 11.8.0 and 12.4.1 under ``tmp_path/tk``: (that dir, an env finding only them, no GPU)."""
    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    env = dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*", CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"))
    return base, env


@pytest.fixture
def one_toolkit(tmp_path):
    """A fake toolkit 12.4.1 under ``tmp_path/tk``: (tmp_path, an env finding only it, no GPU, config and
    cache under tmp_path)."""
    base = tmp_path / "tk"
    make_toolkit(str(base / "cuda-12.4.1"), "12.4.1")
    env = dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*", CUDAENV_PROC_ROOT=str(tmp_path / "no-proc"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    return tmp_path, env



@pytest.fixture(scope="session")
def slurm_cluster():
    """The test bed's Slurm (tests/slurmbed.py), up for the whole session of the one worker that runs
    tests/test_slurm.py and tests/test_fleet.py (one xdist group): started once if it was not
    running and stopped at the end. A module-scoped start/stop per file let one file's teardown stop
    the daemons under the other file's tests ("Unable to contact slurm controller")."""
    from slurmbed import cluster_up

    yield from cluster_up()
