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


# -- glibc 2.42's rsqrt/rsqrtf with a CUDA 13 toolkit's headers (fresh26 z09)
def test_rsqrtf_with_a_cuda13_toolkits_header_is_the_glibc_242_variant():
    first = _first(_log("z09"))
    assert first["id"] == "nvcc.glibc_c23_math"
    assert "glibc 2.42" in first["title"]
    assert first["fix"].splitlines()[0].startswith("Patch the toolkit's header")


def test_the_same_error_with_a_cuda12_header_is_glibc_2_42s_too():
    # [t35] rsqrt/rsqrtf are glibc 2.42's, which CUDA 13.0 and 13.1 do not know either (the test bed's 13.0 header
    # declares them bare, its 13.5 header with _NV_RSQRT_SPECIFIER; LostRuins/koboldcpp#1825): "use CUDA 13.0" was wrong
    log = ('/usr/include/x86_64-linux-gnu/bits/mathcalls.h(206): error: exception specification is incompatible with '
           'that of previous function "rsqrtf" (declared at line 629 of '
           '/usr/local/cuda-12.8/bin/../targets/x86_64-linux/include/crt/math_functions.h)\n')
    first = _first(log)
    assert first["id"] == "nvcc.glibc_c23_math"
    assert first["fix"].splitlines()[0].startswith("Patch the toolkit's header")
    assert 'eval "$(cudaenv use 13.5)"' in first["fix"]


# -- a Go package's cgo preamble (fresh26 z07, barnex/cuda5#1; gorgonia/cu#50, gorgonia/cu#61)
GORGONIA_CU_50 = ("$ go install -v gorgonia.org/cu/cmd/cudatest\n"
                  "# gorgonia.org/cu\n"
                  "/home/markkremer/go/pkg/mod/gorgonia.org/cu@v0.9.1/addressing.go:3:11: fatal error: cuda.h: No such "
                  "file or directory\n"
                  " // #include <cuda.h>\n"
                  "           ^~~~~~~~\n"
                  "compilation terminated.\n")


def test_cgo_cannot_find_cuda_h():
    for log in (_log("z07"), GORGONIA_CU_50):
        first = _first(log)
        assert first["id"] == "build.cuda_header_missing", log
        assert first["title"].startswith("cgo's gcc cannot find cuda.h")
        assert "CGO_CFLAGS" in first["fix"]


def test_a_c_file_missing_cuda_h_is_not_the_cgo_variant():
    log = "kernel_host.c:5:18: fatal error: cuda.h: No such file or directory\ncompilation terminated.\n"
    first = _first(log)
    assert first["id"] == "build.cuda_header_missing" and not first["title"].startswith("cgo")


# -- a library whose name starts with a toolkit library's is not that library (fresh26 z95, pytorch/pytorch#144433)
def test_cusparselt_is_not_cusparse():
    first = _first(_log("z95"))
    assert first["values"]["read"] == "cusparseLt"
    assert "cuSPARSELt" in first["title"] and "every CUDA toolkit" not in first["title"]
    # cuSPARSE itself is still a toolkit part
    first = _first("ImportError: libcusparse.so.12: cannot open shared object file: No such file or directory\n")
    assert "cuSPARSELt" not in first["title"]


# -- Rust-CUDA's find_cuda_helper (fresh26 z06 on Windows, tmrlvi/kaspa-miner#44; risc0/risc0#1022 on Linux)
RISC0_1022 = ("  thread 'main' panicked at /home/cj/.cargo/registry/src/index.crates.io-6f17d22bba15001f/"
              "find_cuda_helper-0.2.0/src/lib.rs:12:13:\n"
              "  Could not find a cuda installation\n")


def test_find_cuda_helper_found_no_toolkit():
    first = _first(_log("z06"))
    assert first["id"] == "shell.nvcc_not_found"
    assert first["title"].startswith("the Rust build script found no CUDA toolkit")
    assert first["fix"].splitlines()[0].startswith("Install the CUDA Toolkit for Windows")
    first = _first(RISC0_1022)
    assert first["id"] == "shell.nvcc_not_found"
    assert "CUDA_PATH" in first["title"] and "cudaenv list" in first["fix"].splitlines()[0]
    assert "CUDA_PATH=/usr`" in first["fix"]


# -- Bazel's "does not contain a toolchain for CPU 'k8'" in TensorFlow's CUDA crosstool (fresh26 z05 =
# tensorflow/tensorflow#24460; tensorflow/tensorflow#24124)
TF_24124 = ("ERROR: cc_toolchain_suite '@local_config_cuda//crosstool:toolchain' does not contain a toolchain for CPU 'k8', "
            "you may want to add an entry for 'local|compiler' into toolchains and toolchain_identifier 'local_linux' into "
            "the corresponding cc_toolchain rule (see --incompatible_disable_cc_toolchain_label_from_crosstool_proto).\n")


def test_bazel_outside_the_checkouts_range():
    for log in (_log("z05"), TF_24124):
        first = _first(log)
        assert first["id"] == "tf.bazel_version_range", log
        # not the 2016 rule-format answer (Bazel 0.2.2): the checkout's own Bazel (0.19.2 built z05's)
        assert first["fix"].splitlines()[0].startswith("Build with the Bazel this checkout names"), first["fix"]
        assert "0.2.2" not in first["fix"]


def test_another_projects_toolchain_suite_is_not_read():
    # a custom C++ toolchain without a k8 entry (upkie/upkie#4's local_config_cc) is not TensorFlow's CUDA crosstool
    log = ("ERROR: in cc_toolchain_suite rule @local_config_cc//:toolchain: cc_toolchain_suite '@local_config_cc//:toolchain' "
           "does not contain a toolchain for cpu 'k8' and compiler 'compiler'.\n")
    assert not [m for m in explain(log) if m.environment and m.id == "tf.bazel_version_range"]


# -- Bazel's TMP warning names a Windows directory on Linux too (fresh26 z05 = tensorflow/tensorflow#24460, /home/ubuntu)
def test_bazels_tmp_warning_is_not_windows():
    from cudaenv.knowledge.explain.extract import facts
    from cudaenv.knowledge.explain.text import LogText

    assert facts(LogText(_log("z05")))["platform"] != "windows"
    # a real Windows path elsewhere in the same log still is
    log = ("Auto-Configuration Warning: 'TMP' environment variable is not set, using 'C:\\Windows\\Temp' as default\n"
           "C:\\Users\\me\\tensorflow>bazel build --config=cuda //tensorflow/tools/pip_package:build_pip_package\n")
    assert facts(LogText(log))["platform"] == "windows"
