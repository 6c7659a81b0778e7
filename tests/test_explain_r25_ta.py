"""Round 25 (helper ta): fresh25's burned build-side misses answered as families, each with the fresh25 log's own
lines, lines of another public thread of the same cause, and a near miss of another cause that must keep its answer.

- A Rust crate's CUDA kernels (bindgen_cuda / cudaforge: candle-kernels, mistral.rs, candle-vllm) compiled for a GPU
  older than compute capability 8.0, whose bfloat16 code needs 8.0: build.bf16_kernels_arch_too_old (fresh25 y01,
  EricLBuehler/mistral.rs#951; #2092, EricLBuehler/candle-vllm#112, huggingface/candle PR #3367).
- A plain C compile (cc over a .c file) with no CUDA include directory on its command line: build.cuda_header_missing
  now puts the Makefile's CFLAGS first, as it did for C++ sources (fresh25 y11,
  NVIDIA-AI-IOT/deepstream-occupancy-analytics#22; NVIDIA-developer-blog/code-samples#33 for the C++ sibling).

Each text is copied from the thread named above it, unless said otherwise."""

from pathlib import Path

import pytest
from explain_answers import first_answer_tests, unbounded_repeats, hostile_line

from cudaenv.knowledge.explain import explain

FRESH25 = Path(__file__).parent / "data" / "explain_corpus" / "fresh25"

CASES = [
    # https://github.com/EricLBuehler/mistral.rs/issues/951 (fresh25 y01: a P40 listed before an RTX 3090;
    # "Setting the CUDA_COMPUTE_CAP=86 worked")
    ("Compiling candle-kernels v0.8.0 (https://github.com/EricLBuehler/candle.git?rev=e5685ce#e5685cee)\n"
     "  src/cast.cu(92): error: expression must be a pointer to a complete object type\n"
     "                out[i] = static_cast<T>(static_cast<I>(inp[strided_i]));\n"
     "                                                       ^\n"
     '            detected during instantiation of "void cast_through<S,T,I>(size_t, size_t, const size_t *, const S *, '
     'T *) [with S=__nv_bfloat16, T=int32_t, I=float]" at line 187\n\n'
     '  32 errors detected in the compilation of "src/cast.cu".\n',
     "build.bf16_kernels_arch_too_old", "CUDA_COMPUTE_CAP=86"),
    # https://github.com/EricLBuehler/mistral.rs/issues/2092 (sm_75, Turing: the bf16 dequant function left undefined)
    ("RUN cargo install mistralrs-cli --features cuda\n"
     "ptxas fatal   : Unresolved extern function '_Z13dequant_valueI13__nv_bfloat16ET_jS1_S1_'\n",
     "build.bf16_kernels_arch_too_old", "compute capability 8.0 or newer"),
    # https://github.com/EricLBuehler/candle-vllm/issues/112 (a GTX 1660 SUPER, 7.5: "only works on devices that
    # natively support bf16")
    ("cargo build --release --features cuda\n"
     '  src/marlin_cuda_kernel.cu(126): error: no suitable user-defined conversion from "nv_bfloat162" (aka '
     '"__nv_bfloat162") to "__half2" exists\n',
     "build.bf16_kernels_arch_too_old", "CUDA_COMPUTE_CAP=86"),
    # https://github.com/huggingface/candle/pull/3367 (bf16 WMMA fragments on a T4, sm_75; the first line is the PR's
    # test plan)
    ("Build candle-kernels on a T4 (sm_75)\n"
     'error: incomplete type "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, nv_bfloat16, '
     'nvcuda::wmma::row_major>" is not allowed\n',
     "build.bf16_kernels_arch_too_old", "CUDA_COMPUTE_CAP=86"),
    # https://github.com/NVIDIA-AI-IOT/deepstream-occupancy-analytics/issues/22 (fresh25 y11: "CFLAGS+=
    # -I/usr/local/cuda-10.2/include" and the LIBS -L line fixed it)
    ("cc -c -o ../../apps-common/src/deepstream_source_bin.o  -DPLATFORM_TEGRA -I../../apps-common/includes "
     "-I./includes -I../../../includes -I../deepstream-app/ -DDS_VERSION_MINOR=0 -DDS_VERSION_MAJOR=5 "
     "-I../deepstream-test5 `pkg-config --cflags gstreamer-1.0 gstreamer-video-1.0 x11 json-glib-1.0` "
     "../../apps-common/src/deepstream_source_bin.c\n"
     "../../apps-common/src/deepstream_source_bin.c:32:10: fatal error: cuda_runtime_api.h: No such file or directory\n"
     " #include <cuda_runtime_api.h>\n"
     "          ^~~~~~~~~~~~~~~~~~~~\n"
     "compilation terminated.\n",
     "build.cuda_header_missing", "CFLAGS+= -I/usr/local/cuda/include"),
    # https://github.com/NVIDIA-developer-blog/code-samples/issues/33 (the same cause in a C++ compile: "PATH and
    # LD_LIBRARY_PATH do not effect include file searches", the Makefile's CUDA path)
    ("In file included from simpleOnnx.cpp:28:0:\n"
     "cudaWrapper.h:30:10: fatal error: cuda_runtime.h: No such file or directory\n"
     " #include <cuda_runtime.h>\n"
     "          ^~~~~~~~~~~~~~~~\n"
     "compilation terminated.\n",
     "build.cuda_header_missing", "Add the toolkit's include directory"),
    # near misses, another cause each, answered as before:
    # https://github.com/wilicc/gpu-burn/issues/35 (the compile already passes -I/usr/local/cuda/include: the toolkit is
    # elsewhere, `CUDAPATH=/opt/cuda/ make`)
    ("g++ -O3 -Wno-unused-result -I/usr/local/cuda/include -c gpu_burn-drv.cpp\n"
     "gpu_burn-drv.cpp:50:10: fatal error: cuda.h: No such file or directory\n",
     "build.cuda_header_missing", "CUDAPATH=/opt/cuda"),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("name,want,phrase", [
    ("y01-mistralrs-cast-cu-bf16-build.log", "build.bf16_kernels_arch_too_old", "CUDA_COMPUTE_CAP=86"),
    ("y11-deepstream-occupancy-cuda-runtime-api-h.log", "build.cuda_header_missing", "CFLAGS+="),
])
def test_the_fresh25_logs_are_answered_by_their_family(name, want, phrase):
    found = [m for m in explain((FRESH25 / name).read_text()) if m.environment]
    assert found and found[0].id == want, [m.id for m in found]
    assert phrase in found[0].fix.splitlines()[0]


@pytest.mark.parametrize("text", [
    # written here (no thread): a torch extension's own bf16 kernel failing under nvcc is not a Rust crate's build for
    # one auto-detected compute capability
    "/usr/local/cuda/bin/nvcc -c csrc/kernel.cu -o build/kernel.o\n"
    'csrc/kernel.cu(50): error: no instance of overloaded function "atomicAdd" matches the argument list\n'
    '          detected during instantiation of "void k<T>(T *) [with T=__nv_bfloat16]" at line 90\n'
    "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n",
    # written here in nvcc's words: a CUDA older than 11.0 has no __nv_bfloat16 at all, another cause (the toolkit)
    'cargo build --release --features cuda\n  src/cast.cu(10): error: identifier "__nv_bfloat16" is undefined\n',
])
def test_what_the_bf16_entry_leaves_alone(text):
    assert "build.bf16_kernels_arch_too_old" not in {m.id for m in explain(text)}


def test_a_c_compile_given_a_cuda_include_keeps_the_entrys_answer():
    # written here: a cc line that already passes the toolkit's include directory is not "no include directory"
    text = ("cc -c -o a.o -I/usr/local/cuda/include a.c\n"
            "a.c:3:10: fatal error: cuda_runtime_api.h: No such file or directory\n")
    found = [m for m in explain(text) if m.environment]
    assert found and found[0].id == "build.cuda_header_missing"
    assert "the C compiler is not told" not in found[0].title


@pytest.mark.parametrize("literal", [
    'detected during instantiation of "[with S=__nv_bfloat16',
    'error: incomplete type "nv_bfloat16',
    'error: no suitable user-defined conversion from "nv_bfloat162"',
    "ptxas fatal   : Unresolved extern function '__nv_bfloat16",
    "cargo build ",
])
def test_a_line_of_the_new_literals_is_searched_in_windows(literal):
    # A 200 000-character line built from the new patterns' own literals is longer than text.LONG, so the patterns are
    # searched only within text.MAX_LINE of each place their literal occurs; none of the new patterns (nor the entry's
    # requires) has an unbounded repeat, so each window costs one pass. Both facts are held here without timing.
    from cudaenv.knowledge.kb import load_entries

    explain(hostile_line(literal))  # answers (or not) without error
    for e in load_entries():
        if e["id"] == "build.bf16_kernels_arch_too_old":
            for p in list(e["patterns"]) + list(e.get("requires", [])):
                assert not unbounded_repeats(p), p
