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


def test_every_architecture_the_tables_name_is_a_known_one():
    """data/compat.yaml's ``sm_history.known`` (every sm_NN an nvcc release compiles for, which explain uses to tell a
    GPU's architecture from a CUDA version typed as one) holds every architecture the other tables name: each
    release's sm_min/sm_max, the gaps, the first releases before the rows, and every GPU of knowledge/gpus.yaml. It
    was a list in derive.py that had missed 13.4's sm_107."""
    import yaml

    from cudaenv.knowledge.explain.derive import _d_arch
    from cudaenv.toolkit.compat import sm_first_before_rows, sm_known, table
    import cudaenv.knowledge as kn
    import os

    known = sm_known()
    named = set(table()["sm_gaps"]["first"]) | set(table()["sm_gaps"]["last"]) | set(sm_first_before_rows())
    for row in table()["toolkits"].values():
        if row:
            named |= {row["sm_min"], row["sm_max"]} - {None}
    with open(os.path.join(os.path.dirname(kn.__file__), "gpus.yaml"), encoding="utf-8") as f:
        named |= {int(g["cc"].replace(".", "")) for g in yaml.safe_load(f)["gpus"]}
    assert named <= known, sorted(named - known)
    assert 107 in known and 91 not in known and 125 not in known
    assert _d_arch.__name__  # the reader of the list (derive's arch facts) still exists


def test_an_architecture_no_release_knows_is_read_as_a_mistyped_number_and_sm_107_is_not():
    # src-d/kmcuda#76: the CUDA version 9.1 given as CUDA_ARCH; sm_107 is CUDA 13.4's (a real architecture)
    typo = explain("nvcc fatal   : Unsupported gpu architecture 'compute_91'")[0]
    real = explain("nvcc fatal   : Unsupported gpu architecture 'compute_107'")[0]
    assert "13.4" in real.fix
    assert "13.4" not in typo.fix
