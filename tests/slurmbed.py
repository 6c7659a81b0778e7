"""The test bed's one-node Slurm (tests/slurm.sh), shared by tests/test_slurm.py and tests/test_fleet.py.

Both files are one xdist group, so a single worker owns the daemons: :func:`cluster_up` (the body of
tests/conftest.py's session fixture) reuses a running cluster, or starts it and stops it again at
the end of the session (nothing left behind).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Iterator

import pytest

from conftest import TESTBED
from helpers import IN_CI, REPO, setup_missing

SLURM_SH = os.path.join(REPO, "tests", "slurm.sh")
BED = os.path.join(TESTBED, "slurm")
SLURM_CONF = os.path.join(BED, "slurm.conf")
STANDIN = os.path.join(BED, "driver", "libcuda.so.1")


def cluster_up() -> Iterator[dict]:
    """Yield the environment of a running test cluster (a fixture's body)."""
    if shutil.which("slurmctld") is None or shutil.which("munged") is None:
        setup_missing("Slurm/munge not installed: run bash tests/slurm.sh")
    env = dict(os.environ, SLURM_CONF=SLURM_CONF)
    was_up = subprocess.run(["bash", SLURM_SH, "status"], env=env, capture_output=True, timeout=60).returncode == 0
    if not was_up:
        res = subprocess.run(["bash", SLURM_SH, "start"], env=env, capture_output=True, text=True, timeout=300)
        if res.returncode != 0:
            subprocess.run(["bash", SLURM_SH, "stop"], env=env, capture_output=True, timeout=120)
            msg = f"Slurm test bed cannot start here: {res.stderr.strip()[-500:]}"
            if IN_CI and res.returncode != 3:  # 3: this machine cannot show a driver (no /proc/driver, no namespaces)
                pytest.fail(msg)
            pytest.skip(msg)
    yield env
    if not was_up:
        subprocess.run(["bash", SLURM_SH, "stop"], env=env, capture_output=True, timeout=120)
