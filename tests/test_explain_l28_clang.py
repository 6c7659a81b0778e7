"""Round 28 (lead): clang as the CUDA compiler against a CUDA newer than it knows, from data.

data/compat.yaml ``clang_cuda_newest`` (clang's own Cuda.h, by the reviews that added each release) holds the newest
CUDA release each clang before 11 knows; from clang 11 a newer release only warns. A clang before 11 takes a newer
release as unknown: its libdevice lookup fails ("cannot find libdevice for sm_NN") and its architecture check reports
the toolkit as CUDA 7.0. The table had been a code constant that stopped at clang 9, so clang 10 (which stops at 10.1
like clang 9) got the plain "tell clang the toolkit root" answer."""
from cudaenv.knowledge.explain import explain
from cudaenv.toolkit.compat import clang_cuda_newest

from explain_answers import first_environment_answer, hostile_line


def _env(log):
    return [m.to_dict() for m in explain(log) if m.environment]


def _first(log):
    return first_environment_answer(log).to_dict()


# AdaptiveCpp/AdaptiveCpp#344: clang-10 with nvcc 11.1 installed at /opt/cuda ("it's a clang issue ... it will
# misleadingly print 7.0"); a newer clang fixed it
ADAPTIVECPP_344 = (
    "clang-10: error: cannot find libdevice for sm_60. Provide path to different CUDA installation via --cuda-path, or "
    "pass -nocudalib to build without linking with libdevice.\n"
    "clang-10: error: GPU arch sm_60 is supported by CUDA versions between 8.0 and 10.1 (inclusive), but installation "
    "at /opt/cuda is 7.0.  Use --cuda-path to specify a different CUDA install, pass a different GPU arch with "
    "--cuda-gpu-arch, or pass --no-cuda-version-check.\n"
    "ninja: build stopped: subcommand failed.\n")


def test_the_table_is_data_and_stops_at_clang_10():
    assert clang_cuda_newest(6) == "9.0"
    assert clang_cuda_newest(9) == "10.1"
    assert clang_cuda_newest(10) == "10.1"
    assert clang_cuda_newest(11) is None  # only warns on a newer CUDA
    assert clang_cuda_newest(3) is None


def test_clang_10_reading_a_new_cuda_as_7_0():
    first = _first(ADAPTIVECPP_344)
    assert first["id"] == "clang.cuda_arch_unsupported"
    assert first["title"].startswith("clang 10 does not know this CUDA release")
    assert "CUDA 10.1 and older only" in first["title"]
    assert "build with a newer clang" in first["fix"].splitlines()[0]
    # the libdevice line below it names the same clang and release
    second = _env(ADAPTIVECPP_344)[1]
    assert second["id"] == "clang.cuda_path_not_found"
    assert second["title"].startswith("clang 10 finds no CUDA installation it can use")


def test_counter_cases_keep_the_architecture_answer():
    # a release the check did read (11.8), and a clang that only warns: the architecture is what to change
    for log in ("clang: error: GPU arch sm_20 is supported by CUDA versions between 7.0 and 8.0 (inclusive), but "
                "installation at /usr/lib/cuda is 11.8; use '--cuda-path' to specify a different CUDA install\n",
                "clang-12: error: GPU arch sm_60 is supported by CUDA versions between 8.0 and 10.1 (inclusive), but "
                "installation at /opt/cuda is 7.0.\n"):
        first = _first(log)
        assert first["id"] == "clang.cuda_arch_unsupported"
        assert first["title"].startswith("clang cannot compile CUDA for"), log
    # the release is read without the sentence's full stop
    assert "(/usr/lib/cuda, CUDA 11.8)" in _first(
        "clang: error: GPU arch sm_20 is supported by CUDA versions between 7.0 and 8.0 (inclusive), but installation "
        "at /usr/lib/cuda is 11.8.\n")["cause"]


def test_hostile_installation_line():
    line = hostile_line("but installation at /x is 7.0.7.0.")
    explain(line)  # returns; the pattern's runs are bounded by the line window
