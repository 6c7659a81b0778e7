"""Practice round p27 (p27-pa, the build side): an nvcc older than an option the build passes, in the host compiler's
words.

CMake (3.18 and newer) and many Makefiles run nvcc with -forward-unknown-to-host-compiler. An nvcc older than an
option the build expects then does not say "nvcc fatal : Unknown option": it hands the option to gcc, and gcc says
"unrecognized command-line option '-compress-mode=size'". The cause is nvcc.unknown_option's newer-option variant
(an older nvcc first on PATH), read now in the host compiler's wording too, for options only nvcc has."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# ggml-org/llama.cpp#12325 (the practice log, quoted in a comment with typographic quotes): the nvcc that ran was
# Ubuntu's older nvidia-cuda-toolkit one, not the CUDA installed from NVIDIA's repository
LLAMA_12325 = "gcc-12: error: unrecognized command-line option \u2018-compress-mode=size\u2019\n"
# the same thread's title (gcc-11, plain quotes) and ggml-org/llama.cpp#14260's title (Ubuntu 25.04, gcc-12), as quoted
LLAMA_12325_TITLE = "Compile bug: gcc-11: error: unrecognized command-line option '-compress-mode=size'\n"
LLAMA_14260 = "Compile bug: gcc-12: error: unrecognized command-line option \u2018-compress-mode=size\u2019\n"


def test_practice_log_the_host_compiler_refuses_a_forwarded_nvcc_option():
    first = _first(LLAMA_12325)
    assert first["id"] == "nvcc.unknown_option"
    assert first["title"] == ("this nvcc is older than the build expects "
                              "(it does not know -compress-mode=size and passed it on to gcc-12)")
    assert first["fix"].splitlines()[0].startswith("Build with the newer toolkit's nvcc: `which -a nvcc`")


def test_other_threads_of_the_family():
    for log in (LLAMA_12325_TITLE, LLAMA_14260):
        first = _first(log)
        assert first["id"] == "nvcc.unknown_option", log
        assert "passed it on to gcc-" in first["title"], log
        assert first["fix"].splitlines()[0].startswith("Build with the newer toolkit's nvcc"), log
    # (constructed) another option only a newer nvcc has, under another host compiler's name
    first = _first("c++: error: unrecognized command-line option '--static-global-template-stub=true'\n")
    assert first["id"] == "nvcc.unknown_option"
    assert "passed it on to c++" in first["title"]


def test_near_misses_keep_their_answers():
    # nvcc's own wording keeps the variant it had (flash-attention's setup.py, Dao-AILab/flash-attention#1750)
    first = _first("nvcc fatal   : Unknown option '-compress-mode=size'\n")
    assert first["id"] == "nvcc.unknown_option"
    assert first["title"] == "this nvcc is older than the build expects (it does not know -compress-mode=size)"
    # a host compiler too old for a C++ dialect is build.host_compiler_no_std's
    assert _first("gcc: error: unrecognized command line option \u2018-std=c++14\u2019\n")["id"] == \
        "build.host_compiler_no_std"
    # --extended-lambda reached g++ through kokkos's nvcc_wrapper with CUDA 11.6 (kokkos/kokkos#6170): not an old nvcc;
    # -frandom-seed is a gcc option
    for log in ("g++: error: unrecognized command line option \u2018--extended-lambda\u2019\n",
                "c++: error: unrecognized command-line option '-frandom-seed=abc'\n",
                "g++: error: unrecognized command-line option '-allow-unsupported-compiler'\n"):
        assert "nvcc.unknown_option" not in [m.id for m in explain(log)], log


def test_hostile_lines_are_cheap():
    for literal in ("gcc-12: error: unrecognized command-line option '-compress-mode=",
                    "error: unrecognized command line option ", "gcc-1.1.1.1.1.1"):
        explain(hostile_line(literal))
