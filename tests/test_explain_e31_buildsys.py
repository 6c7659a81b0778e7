"""Round 31: a build system that did not find CUDA, in its own words, answered by where it looks.

meson's dependency('cuda'), an autoconf configure's CUDA checks and pkg-config each say "no CUDA" their own way, and
each takes the toolkit from its own place: meson from CUDA_PATH / CUDA_HOME / CUDA_ROOT or /usr/local/cuda and only
that root's targets/<arch>-linux/lib; configure from PATH or --with-cuda=, with the test's own error in config.log;
pkg-config from PKG_CONFIG_PATH, where no toolkit installer puts its pkgconfig directory. Before this round explain
read none of these (CMake's were the only build system's words it knew), and meson releases before 1.1 wrote its
sanity-check failure as "can not compile programs", which the entry for "cannot" missed.

Every message here is produced by the real tool on this machine (Debian's meson, autoconf and pkgconf, which
tests/run.sh installs, and the test bed's real nvcc 11.8 and 12.4); the fix is then followed where it can be.
"""
import os
import shutil
import subprocess

import pytest

from cudaenv.knowledge.explain import explain

from explain_answers import first_environment_answer

CLEAN_PATH = "/usr/bin:/bin"


def _tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: tests/run.sh installs it (apt-get install meson autoconf pkgconf)")
    return path


def _run(argv, cwd, **env):
    base = {"HOME": str(cwd), "LANG": "C", "LC_ALL": "C", "PATH": CLEAN_PATH}
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env={**base, **env}, timeout=300)
    assert done.returncode != 0, (argv, done.stdout, done.stderr)
    return done.stdout + done.stderr


def _meson(tmp_path, build, **env):
    (tmp_path / "meson.build").write_text(build)
    return _run([_tool("meson"), "setup", str(tmp_path / "b")], tmp_path, **env)


# --- meson ----------------------------------------------------------------------------------------------------------

def test_meson_cuda_root_without_the_runtime(tmp_path):
    """CUDA_PATH names a directory that is no toolkit: meson takes it as the root and finds no cudart under it."""
    said = _meson(tmp_path, "project('t', 'c')\ndependency('cuda')\n", CUDA_PATH=str(tmp_path / "not-a-toolkit"))
    assert "Couldn't find requested CUDA module 'cudart'" in said, said
    first = first_environment_answer(said)
    assert first.id == "meson.cuda_dependency_not_found", said
    assert first.values["module"] == "cudart"
    assert "not the toolkit library cudart under it" in first.title
    assert first.fix.startswith('`ls "$CUDA_PATH"/targets/*/lib/libcudart*`') and "meson setup --wipe build" in first.fix


def test_meson_toolkit_without_a_library_it_asks_for(tmp_path, testbed):
    """The test bed's 12.4 has the CUDA runtime but not cuBLAS: meson finds the root, then not the module."""
    said = _meson(tmp_path, "project('t', 'c')\ndependency('cuda', modules: ['cublas'])\n", CUDA_PATH=testbed["12.4"])
    assert "Couldn't find requested CUDA module 'cublas'" in said, said
    first = first_environment_answer(said)
    assert first.id == "meson.cuda_dependency_not_found" and first.values["module"] == "cublas"


def test_meson_not_required_dependency_then_its_summary_line(tmp_path):
    said = _meson(tmp_path, "project('t', 'c')\nd = dependency('cuda', modules: ['cublas'], required: false)\n"
                            "assert(d.found(), 'CUDA is needed')\n", CUDA_PATH=str(tmp_path / "nope"))
    assert "Run-time dependency CUDA (modules: cudart, cublas) found: NO" in said, said
    first = first_environment_answer(said)
    assert first.id == "meson.cuda_dependency_not_found", said
    assert first.fix.startswith('`eval "$(cudaenv use ')


def test_meson_nvcc_outside_the_version_the_project_asks(tmp_path, testbed):
    said = _meson(tmp_path, "project('t', 'cuda')\ndependency('cuda', version: '>=99')\n",
                  PATH=f"{testbed['12.4']}/bin:{CLEAN_PATH}")
    assert "The current nvcc version 12.4 does not satisfy" in said, said
    first = first_environment_answer(said)
    assert first.id == "meson.cuda_dependency_not_found" and first.values["nvcc_version"] == "12.4"
    assert "(CUDA 12.4)" in first.title


def test_meson_sanity_check_in_older_meson_words(tmp_path, testbed):
    """nvcc 11.8 refuses Debian 12's gcc 12: meson 1.0 says "can not compile programs", later ones "cannot"."""
    said = _meson(tmp_path, "project('t', 'cuda')\n", PATH=f"{testbed['11.8']}/bin:{CLEAN_PATH}")
    assert "compile programs." in said, said
    first = first_environment_answer(said)
    assert first.id == "nvcc.meson_sanity_check_failed", said
    # the log meson points at holds nvcc's own reason, and explain answers it
    with open(tmp_path / "b" / "meson-logs" / "meson-log.txt", encoding="utf-8") as f:
        log = f.read()
    assert first_environment_answer(log).id == "nvcc.gcc_too_new"


# --- autoconf -------------------------------------------------------------------------------------------------------

CONFIGURE_AC = """AC_INIT([t],[1])
AC_PROG_CC
AC_ARG_WITH([cuda], [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit root])], [], [with_cuda=])
AC_PATH_PROG([NVCC], [nvcc], [no], [$with_cuda/bin$PATH_SEPARATOR$PATH])
AS_IF([test "x$NVCC" = xno], [AC_MSG_ERROR([%s])])
AS_IF([test -n "$with_cuda"], [CPPFLAGS="$CPPFLAGS -I$with_cuda/include"])
AC_CHECK_HEADER([cuda_runtime.h], [], [AC_MSG_ERROR([CUDA headers not found])])
AC_OUTPUT
"""


def _configure(tmp_path, no_nvcc_message, *args, **env):
    (tmp_path / "configure.ac").write_text(CONFIGURE_AC % no_nvcc_message)
    subprocess.run([_tool("autoconf")], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    return _run(["./configure", *args], tmp_path, **env)


def test_configure_header_check_then_config_log(tmp_path, testbed):
    """nvcc found on PATH, but the compile test has no -I for the toolkit: the reason is in config.log."""
    said = _configure(tmp_path, "nvcc not found", PATH=f"{testbed['12.4']}/bin:{CLEAN_PATH}")
    assert "checking for cuda_runtime.h... no" in said and "configure: error: CUDA headers not found" in said, said
    first = first_environment_answer(said)
    assert first.id == "build.configure_cuda_check_failed", said
    assert first.values["msg"] == "CUDA headers not found"
    assert "`cudaenv explain config.log`" in first.fix
    # what the fix points at answers the cause
    log = (tmp_path / "config.log").read_text()
    assert first_environment_answer(log).id == "build.cuda_header_missing"
    # and following it (the toolkit's root given to configure) gets past the check
    subprocess.run(["./configure", f"--with-cuda={testbed['12.4']}"], cwd=tmp_path, check=True, capture_output=True,
                   env={"HOME": str(tmp_path), "LANG": "C", "LC_ALL": "C", "PATH": CLEAN_PATH}, timeout=300)


def test_configure_without_nvcc(tmp_path):
    said = _configure(tmp_path, "the CUDA toolkit is required for this build")
    assert "checking for nvcc... no" in said, said
    first = first_environment_answer(said)
    assert first.id == "build.configure_cuda_check_failed" and first.title.startswith("configure found no nvcc")
    assert first.fix.startswith('`eval "$(cudaenv use ')
    # said in the words "nvcc not found", the generic reading of a missing nvcc answers first, with the same command
    said = _configure(tmp_path, "nvcc not found")
    assert "cudaenv use" in first_environment_answer(said).fix


def test_configure_error_that_is_not_about_cuda_is_not_claimed(tmp_path):
    (tmp_path / "configure.ac").write_text("AC_INIT([t],[1])\nAC_MSG_ERROR([libpng not found])\n")
    subprocess.run([_tool("autoconf")], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    said = _run(["./configure"], tmp_path)
    assert "configure: error: libpng not found" in said
    assert "build.configure_cuda_check_failed" not in {m.id for m in explain(said)}


# --- pkg-config -----------------------------------------------------------------------------------------------------

def test_pkg_config_without_the_toolkits_pkgconfig_directory(tmp_path):
    said = _run([_tool("pkg-config"), "--cflags", "cuda-12.4"], tmp_path, PKG_CONFIG_PATH=str(tmp_path / "empty"))
    assert "cuda-12.4" in said and "not found" in said, said
    first = first_environment_answer(said)
    assert first.id == "pkgconfig.cuda_pc_not_found", said
    assert first.values["pc"] == "cuda-12.4" and first.values["pc_cuda"] == "12.4"
    export = "export PKG_CONFIG_PATH=/usr/local/cuda-12.4/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    assert export in first.fix
    # the fix's line, run in bash with PKG_CONFIG_PATH unset, leaves no empty entry and pkg-config then finds the file
    root = tmp_path / "cuda-12.4"
    (root / "pkgconfig").mkdir(parents=True)
    (root / "pkgconfig" / "cuda-12.4.pc").write_text(
        f"cudaroot={root}\nincludedir=${{cudaroot}}/include\nName: cuda\nDescription: CUDA Driver Library\n"
        "Version: 12.4\nCflags: -I${includedir}\n")
    line = export.replace("/usr/local/cuda-12.4", str(root))
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                           f'unset PKG_CONFIG_PATH; {line}; printf "%s\\n" "$PKG_CONFIG_PATH"; '
                           "pkg-config --modversion cuda-12.4"],
                          capture_output=True, text=True, timeout=60, env={"PATH": CLEAN_PATH, "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{root}/pkgconfig", "12.4"]


E31_BUILDSYS_CASES = [
    ("Run-time dependency CUDA found: NO \n\nmeson.build:2:0: ERROR: Dependency lookup for cuda with method 'system' "
     "failed: Couldn't find requested CUDA module 'cudart'\n", "meson.cuda_dependency_not_found",
     '`ls "$CUDA_PATH"/targets/*/lib/libcudart*`'),
    # mesonbuild/meson#7985 (the burned fresh30 o05): a meson that did not know Debian's layout
    ("Cuda compiler for the host machine: nvcc (nvcc 11.0.221\nRun-time dependency CUDA (modules: cudart) found: NO \n",
     "meson.cuda_dependency_not_found", '`eval "$(cudaenv use 11.0)"`'),
    ("checking for Cuda libraries... not found\nconfigure: error: Cuda is requested but not available\n",
     "build.configure_cuda_check_failed", "`grep -n -A30 'checking for' config.log"),
    ("Package cuda-12.2 was not found in the pkg-config search path.\nPerhaps you should add the directory containing "
     "`cuda-12.2.pc'\nto the PKG_CONFIG_PATH environment variable\nNo package 'cuda-12.2' found\n",
     "pkgconfig.cuda_pc_not_found", "`ls -d /usr/local/cuda-12.2/pkgconfig`"),
]


def test_quoted_build_system_messages():
    for text, want, fix in E31_BUILDSYS_CASES:
        first = first_environment_answer(text)
        assert first.id == want and first.fix.startswith(fix), (text, first.id, first.fix)


# --- the toolkit's half operators and the project's own (real nvcc 11.8 and 12.4) -----------------------------------

OWN_HALF_OPERATOR = """#include <cuda_fp16.h>
namespace mylib {
inline __half operator+(const __half &a, const __half &b) { return __float2half(__half2float(a) + __half2float(b)); }
inline __half add(__half a, __half b) { return a + b; }
}
int main() { __half a = __float2half(1.f); return (int)__half2float(mylib::add(a, a)); }
"""


@pytest.mark.parametrize("cuda", ["11.8", "12.4"])
def test_project_operator_for_half_beside_the_toolkits(tmp_path, testbed, cuda):
    """Both nvcc releases print the two candidates, in their own layouts (11.x: the toolkit's on a "here" line; 12.x:
    "declared at line N of ...cuda_fp16.hpp"). With 12.2+ the answer is the toolkit's newer operators; with 11.8 the
    project declares its own where CUDA's already are, and no other toolkit helps."""
    (tmp_path / "own.cu").write_text(OWN_HALF_OPERATOR)
    argv = [os.path.join(testbed[cuda], "bin", "nvcc"), "-c", "own.cu", "-o", "own.o"]
    if cuda == "11.8":
        argv[1:1] = ["-ccbin", "g++-11"]  # 11.8 refuses Debian 12's gcc 12
    said = _run(argv, tmp_path, PATH=f"{testbed[cuda]}/bin:{CLEAN_PATH}")
    assert 'more than one operator "+" matches these operands' in said, said
    first = first_environment_answer(said)
    assert first.id == "nvcc.half_operator_defined_twice", said
    assert first.values["own"] == "mylib" and first.values["htype"] == "__half" and first.values["op"] == "+"
    if cuda == "11.8":
        assert first.title.startswith("the project (mylib) declares operator+ for __half where CUDA 11.8's")
        assert "cudaenv" not in first.fix and "-D__CUDA_NO_HALF_OPERATORS__" in first.fix
    else:
        assert first.fix.startswith("Build the project's release made for this CUDA")
        assert 'eval "$(cudaenv use 12.1)"' in first.fix
    # what the 11.8 answer says works: with the toolkit's operators switched off, the same file compiles
    if cuda == "11.8":
        subprocess.run(argv + ["-D__CUDA_NO_HALF_OPERATORS__"], cwd=tmp_path, check=True, capture_output=True,
                       env={"HOME": str(tmp_path), "PATH": f"{testbed[cuda]}/bin:{CLEAN_PATH}"}, timeout=300)


def test_an_ambiguity_with_a_built_in_operator_is_the_programs():
    # microsoft/nnfusion#434: double + half in generated code, fixed in the code generator
    said = ('error: more than one operator "+" matches these operands:\n            built-in operator "arithmetic + '
            'arithmetic"\n            function "operator+(const __half &, const __half &)"\n            operand types '
            'are: double + half\n')
    assert "nvcc.half_operator_defined_twice" not in {m.id for m in explain(said)}


E31_BUILDSYS_CASES += [
    # microsoft/onnxruntime#16713 (CUDA 12.2, fixed on main)
    ('/home//src/onnxruntime/onnxruntime/core/providers/cuda/cu_inc/common.cuh(80): error: more than one operator "+" '
     'matches these operands:\n            function "operator+(const __half &, const __half &)" (declared at line 606 of '
     '/usr/local/cuda/include/cuda_fp16.hpp)\n            function "onnxruntime::cuda::operator+(const half &, const '
     'half &)" (declared at line 23)\n            operand types are: const __half + const __half\n',
     "nvcc.half_operator_defined_twice", "Build the project's release made for this CUDA"),
    # open-mmlab/mmdetection#887: Debian's CUDA headers in /usr/include beside /usr/local/cuda's
    ('> /usr/include/cuda_fp16.h(90): error: invalid redeclaration of type name "__half2"\n> /usr/local/cuda/include/'
     'cuda_fp16.hpp(224): here\n> \n> /usr/include/cuda_fp16.h(93): error: invalid redeclaration of type name "half"\n'
     '> /usr/local/cuda/include/cuda_fp16.hpp(1793): here\n', "build.cuda_headers_two_copies",
     "Keep one toolkit's headers on the compile"),
]
