"""Bad inputs to every command (tests/fieldpass/badinput.py's catalogue), its quick subset.

One case per (command family x kind of bad input), drawn with a fixed seed from the whole
catalogue, each run as a separate ``python3 -m cudaenv`` in its own world: none may print a
traceback, hang, or misbehave (several stderr lines, stdout on failure, exit 0 where failure is
required, a user file changed or lost). The whole catalogue: ``python3 tests/fieldpass/badinput.py``.
"""

from __future__ import annotations

import collections
import os

import pytest

from fieldpass import badinput
from helpers import need


def test_the_catalogue_is_families_not_one_offs():
    cases = badinput.catalogue()
    assert len(cases) >= 200
    families = collections.Counter(c.family for c in cases)
    kinds = collections.Counter(c.kind for c in cases)
    assert set(badinput.FAMILIES) <= set(families), set(badinput.FAMILIES) - set(families)
    # Every kind of bad input is tried on several commands.
    thin = {k for k in kinds if len({c.family for c in cases if c.kind == k}) < 2 and k not in ("output", "mirror-file",
                                                                                                "github-env", "log")}
    assert not thin, thin
    quick = badinput.select(cases, 0, True)
    assert {(c.family, c.kind) for c in quick} == {(c.family, c.kind) for c in cases}
    assert not [c.id for c in quick if c.slow]


@pytest.mark.slow
def test_quick_pass_has_no_traceback_hang_or_misbehaviour():
    if os.geteuid() == 0:
        need("setpriv")  # file modes must apply although the suite runs as root
        need("unshare")  # HOME-unset cases mount their own home over /root, privately
    results = badinput.run(seed=0, quick=True)
    bad = badinput.failures(results)
    if bad:
        pytest.fail(f"{len(bad)} of {len(results)} bad inputs were not ok / one-line / usage "
                    "(rerun one: python3 tests/fieldpass/badinput.py --case ID --keep):\n\n"
                    + "\n\n".join(badinput.describe(r) for r in bad) + "\n\n" + badinput.table(results), pytrace=False)
