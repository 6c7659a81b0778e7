"""Round 26's tuning on fresh26's misses (after fresh26 was judged): three forms of one cause, the host gcc's headers
that an nvcc's front end or host pass cannot take (nvcc.host_headers_unsupported), each read as a family.

- gcc's own note under "parameter packs not expanded with '...':" naming the pack (``‘_ArgTypes’``), when the paste
  kept the note and lost the error line (fresh26 z11, LightGBM: gcc 11.2 with nvcc 11.4).
- gcc 6's <tuple> in the host pass of CUDA 9.0/9.1: "body of constexpr function ... _NonNestedTuple() ... not a
  return-statement" (fresh26 z13; kokkos/kokkos#1306, tensorflow/tensorflow#18522, baowenbo/DAIN#19).
- gcc 5.5's / 6.4's AVX-512 intrinsics headers in a CUDA 9 era nvcc: 'argument of type "const void *" is incompatible
  with parameter of type' (fresh26 z62, NVIDIA/apex#529; apache/mxnet#10644, BVLC/caffe#6621, pytorch/pytorch#11103).

Each line is copied from the corpus log or the thread named above it."""
import glob
import os

from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line

FRESH26 = os.path.join(os.path.dirname(__file__), "data", "explain_corpus", "fresh26")


def _log(prefix):
    (path,) = glob.glob(os.path.join(FRESH26, prefix + "-*.log"))
    with open(path, encoding="utf-8") as f:
        return f.read()


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# -- the pack's note without its error line
def test_parameter_pack_note_alone_is_the_std_function_failure():
    first = _first(_log("z11"))
    assert first["id"] == "nvcc.host_headers_unsupported"
    assert first["fix"].splitlines()[0].startswith("Build with an older host compiler (gcc 10")
    # the same note in a short paste, gcc 11's header path
    first = _first("/usr/include/c++/11/bits/std_function.h:435:145: note:         ‘_ArgTypes’\n")
    assert first["id"] == "nvcc.host_headers_unsupported"


def test_a_note_naming_another_template_parameter_is_not_read():
    # a note that names a type, not a pack (the "provided for" note beside z13's error)
    log = ("/usr/lib/gcc/x86_64-pc-linux-gnu/6.4.1/include/c++/type_traits:1558:8: note: provided for "
           "‘template<class _From, class _To> struct std::is_convertible’\n")
    assert not [m for m in explain(log) if m.environment]


# -- gcc 6's <tuple> under CUDA 9.0/9.1
TF_18522 = ("/usr/lib64/gcc/x86_64-redhat-linux/6.4.0/include/c++/tuple:502:1: error: body of constexpr function "
            "'static constexpr bool std::_TC<<anonymous>, _Elements>::_NonNestedTuple() [with _SrcTuple = const "
            "std::tuple<int, int, int>&; bool <anonymous> = true; _Elements = {int, int, int}]' not a return-statement\n"
            "     }\n ^\n")
IRR_15 = ("/usr/include/c++/6/tuple:484:1: error: body of constexpr function ‘static constexpr bool std::_TC<<anonymous>, "
          "_Elements>::_MoveConstructibleTuple() [with _UElements = {std::tuple<at::Tensor, at::Tensor, at::Tensor, "
          "at::Tensor>}; bool <anonymous> = true; _Elements = {at::Tensor, at::Tensor, at::Tensor, at::Tensor}]’ not a "
          "return-statement\n")


def test_gcc6_tuple_in_cuda9_host_pass():
    for log in (_log("z13"), TF_18522, IRR_15):
        first = _first(log)
        assert first["id"] == "nvcc.host_headers_unsupported", log
        assert first["title"].startswith("CUDA 9.0/9.1's nvcc cannot compile gcc 6's <tuple>")
        assert first["fix"].splitlines()[0].startswith("Build with gcc 5")


def test_the_same_words_from_gcc7_tuple_are_not_the_gcc6_variant():
    log = TF_18522.replace("/6.4.0/", "/7.3.0/")
    assert not [m for m in explain(log) if m.environment and m.to_dict()["title"].startswith("CUDA 9.0/9.1")]


# -- gcc's AVX-512 headers in a CUDA 9 era nvcc
MXNET_10644 = ('/usr/lib/gcc/x86_64-pc-linux-gnu/6.4.1/include/avx512fintrin.h(9508): error: argument of type "void *" '
               'is incompatible with parameter of type "long long *"\n'
               ' \n'
               '/usr/lib/gcc/x86_64-pc-linux-gnu/6.4.1/include/avx512pfintrin.h(55): error: argument of type "const void *" '
               'is incompatible with parameter of type "const long long *"\n')
CAFFE_6621 = ("NVCC src/caffe/solvers/adagrad_solver.cu\n"
              '/usr/lib/gcc/x86_64-linux-gnu/5/include/avx512fintrin.h(9220): error: argument of type "const void *" is '
              'incompatible with parameter of type "const float *"\n')


def test_avx512_intrinsics_headers_of_the_host_gcc():
    for log, gcc in ((_log("z62"), "5"), (MXNET_10644, "6"), (CAFFE_6621, "5")):
        first = _first(log)
        assert first["id"] == "nvcc.host_headers_unsupported", log
        assert first["title"].startswith(f"this nvcc cannot parse gcc {gcc}'s AVX-512 intrinsics headers")
        assert first["fix"].splitlines()[0].startswith("Build with another host gcc")


def test_the_same_error_in_the_programs_own_header_is_not_read():
    log = ('src/simd_helpers.h(120): error: argument of type "const void *" is incompatible with parameter of type '
           '"const float *"\n')
    assert not [m for m in explain(log) if m.environment and m.id == "nvcc.host_headers_unsupported"]


def test_hostile_lines_from_the_new_literals_are_cheap():
    for literal in ("note: ‘_ArgTypes’", "note:  ", "/6/tuple:1:1: error: body of constexpr function ",
                    "tuple:502:1: error: body of constexpr function _", "/gcc/x/5/include/avx512fintrin.h(1): error: ",
                    'error: argument of type "const void *" is incompatible with parameter of type'):
        explain(hostile_line(literal))
