"""Round 28 widening (e28-gen): entries keyed to one project's names, read as the mechanism's family.

loader.jetson_inference_libs_not_in_cache read only libjetson-utils/-inference; the mechanism is any library that
`make install` copies into /usr/local/lib (or another prefix) without refreshing the loader cache.
loader.installed_lib_not_in_cache reads it for any project, when the log shows the install; jetson-inference keeps its
own answer."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# zevv/duc#24 (libtool installs libduc.so.1 into /usr/local/lib; `sudo make install` is not enough)
DUC_24 = ("$ sudo make install\n"
          "libtool: install: /usr/bin/install -c .libs/libduc.so.1.0.0 /usr/local/lib/libduc.so.1.0.0\n"
          "$ duc\nduc: error while loading shared libraries: libduc.so.1: cannot open shared object file: "
          "No such file or directory\n")
# pagekite/libpagekite#40 (fixed by `ldconfig`)
PAGEKITE_40 = ("$ pagekitec\npagekitec: error while loading shared libraries: libpagekite.so.1: cannot open shared "
               "object file: No such file or directory\n$ ls /usr/local/lib/libpagekite.so*\n"
               "/usr/local/lib/libpagekite.so    /usr/local/lib/libpagekite.so.1.0.0\n")
# cosmos72/twin#2 (configure, make, sudo make install; /usr/local/lib into ld.so.conf, then ldconfig)
TWIN_2 = ("sudo make install completed as well\n"
          "/usr/local/bin/twin_real: error while loading shared libraries: libTutf.so.0: cannot open shared object "
          "file: No such file or directory\n")
# GrammarSoft/cg3#94: a Python module's own library (the same mechanism through import)
CG3_94 = ("cmake --install build\n>>> import cg3\n"
          "ImportError: libcg3.so.1: cannot open shared object file: No such file or directory\n")


def test_any_projects_make_installed_library():
    for log, lib in ((DUC_24, "libduc.so.1"), (PAGEKITE_40, "libpagekite.so.1"), (TWIN_2, "libTutf.so.0"),
                     (CG3_94, "libcg3.so.1")):
        first = _first(log)
        assert first["id"] == "loader.installed_lib_not_in_cache", log
        assert first["title"].startswith(lib), log
        assert first["fix"].splitlines()[0].startswith("Refresh the loader cache: `sudo ldconfig`"), log


def test_jetson_inference_keeps_its_answer():
    first = _first("$ sudo make install\nImportError: libjetson-utils.so: cannot open shared object file: "
                   "No such file or directory\n")
    assert first["id"] == "loader.jetson_inference_libs_not_in_cache"


def test_counter_cases():
    # no install in the log: a missing library, not this cause
    ids = [m.id for m in explain("duc: error while loading shared libraries: libduc.so.1: cannot open shared "
                                 "object file: No such file or directory\n")]
    assert "loader.installed_lib_not_in_cache" not in ids
    # CUDA's own libraries keep their entries even beside /usr/local/lib
    ids = [m.id for m in explain("export LD_LIBRARY_PATH=/usr/local/lib\nImportError: libcudart.so.11.0: cannot "
                                 "open shared object file: No such file or directory\n")]
    assert "loader.installed_lib_not_in_cache" not in ids
    ids = [m.id for m in explain("sudo make install\nImportError: libcublasLt.so.12: cannot open shared object "
                                 "file: No such file or directory\n")]
    assert "loader.installed_lib_not_in_cache" not in ids


def test_hostile_lines_are_cheap():
    for literal in ("libx", "lib" + "a" * 90, "libfoo.so.", ".so.1.2.3.4", "make install /usr/local/lib"):
        explain(hostile_line(literal))
