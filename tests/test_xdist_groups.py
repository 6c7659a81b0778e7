"""The suite's xdist grouping holds (tests/conftest.py): the tests that share a module-scoped fixture run on one worker.

Under pytest 9.2 with pytest-xdist 3.8, xdist's own write of the group into a test's id is lost (pytest-dev/pytest-xdist
#1386): ``--dist loadgroup`` then grouped nothing, silently, and the shared-store tests built two worlds at once in the
real accounts' homes (a cold CI rehearsal of round 16 failed on it). This module is itself such a group: under xdist
each of its tests must carry the group in its id, which is all ``loadgroup`` reads."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def shared():
    return {"worker": os.environ.get("PYTEST_XDIST_WORKER", "")}


@pytest.mark.parametrize("n", [1, 2])
def test_a_module_fixtures_tests_carry_their_group_under_xdist(shared, request, n):
    if not shared["worker"]:
        pytest.skip("not under pytest-xdist")
    assert request.node.nodeid.endswith("@tests/test_xdist_groups.py"), request.node.nodeid
    # the fixture was built once for the module, on this worker
    assert shared["worker"] == os.environ["PYTEST_XDIST_WORKER"]
