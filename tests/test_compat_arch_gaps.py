"""Which toolkits compile for an architecture: a release's sm_min..sm_max is a range, but the architectures in it
are not all there from the release that first covers their number (nvcc --list-gpu-code of each release: 12.8 knows
sm_100, 101 and 120 but not 103; 12.9 adds 103 and 121; 13.0 adds 88 and 110 and drops 101, renamed 110)."""
import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import toolkits_for_arch
from cudaenv.toolkit.compat import builds_for_arch


@pytest.mark.parametrize("version, sm, builds", [
    ("12.8", 100, True), ("12.8", 120, True), ("12.8", 101, True),
    ("12.8", 103, False), ("12.9", 103, True), ("12.8", 121, False), ("12.9", 121, True),
    ("12.9", 110, False), ("13.0", 110, True), ("12.9", 101, True), ("13.0", 101, False),
    ("12.9", 88, False), ("13.0", 88, True), ("13.3", 107, False), ("13.4", 107, True),
    ("11.8", 89, True), ("11.7", 89, False), ("13.0", 70, False), ("12.9", 70, True),
])
def test_builds_for_arch(version, sm, builds):
    assert builds_for_arch(version, sm) is builds


def test_toolkits_for_arch_start_at_the_release_that_added_it():
    assert toolkits_for_arch(103)[0] == "12.9"
    assert toolkits_for_arch(101) == ["12.8", "12.9"]
    assert toolkits_for_arch(86)[0] == "11.1"


def test_explain_names_the_release_that_added_the_architecture():
    # a 12.8 answer would be refused again: 12.8's nvcc --list-gpu-code has no sm_103
    m = explain("nvcc fatal   : Unsupported gpu architecture 'compute_103'")[0]
    assert m.id == "nvcc.unsupported_arch"
    assert m.fix.splitlines()[0].startswith("compute_103 needs CUDA 12.9 or newer")


def test_the_table_reads_the_same_with_libyamls_loader():
    """compat.table() reads data/compat.yaml with libyaml's safe loader where PyYAML has it: the same table as
    PyYAML's own safe loader (its dates, versions as strings and numbers alike)."""
    import os

    import yaml

    from cudaenv.toolkit import compat

    path = os.path.join(os.path.dirname(compat.__file__), "..", "data", "compat.yaml")
    with open(path, encoding="utf-8") as f:
        assert compat.table() == yaml.safe_load(f)
