"""Round 28 widening (e28-gen): entries keyed to one project's names, read as the mechanism's family.

loader.jetson_inference_libs_not_in_cache read only libjetson-utils/-inference; the mechanism is any library that
`make install` copies into /usr/local/lib (or another prefix) without refreshing the loader cache.
loader.installed_lib_not_in_cache reads it for any project, when the log shows the install; jetson-inference keeps its
own answer."""
from cudaenv.knowledge.explain import explain

from explain_answers import first_environment_answer, hostile_line


def _first(log):
    return first_environment_answer(log).to_dict()


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


# python.companion_package_release_mismatch: python.spconv_cumm_mismatch's mechanism (a package imports a name from a
# companion package of another release) for any pair of installed packages.
# mit-han-lab/distrifuser#24 (diffusers against huggingface_hub 0.26, which removed cached_download; fixed by
# huggingface_hub 0.23.2)
DISTRIFUSER_24 = (
    '  File "/home/anaconda3/envs/distifusion/lib/python3.10/site-packages/diffusers/utils/dynamic_modules_utils.py", '
    'line 28, in <module>\n'
    '    from huggingface_hub import HfFolder, cached_download, hf_hub_download, model_info\n'
    "ImportError: cannot import name 'cached_download' from 'huggingface_hub' "
    "(/home/anaconda3/envs/distifusion/lib/python3.10/site-packages/huggingface_hub/__init__.py)\n")
# kijai/ComfyUI-HunyuanVideoWrapper#246 (ComfyUI's embedded Python on Windows, the same pair)
COMFY_246 = (
    '  File "D:\\Comfy_UI\\python_embeded\\Lib\\site-packages\\diffusers\\utils\\dynamic_modules_utils.py", line 28, '
    'in <module>\n    from huggingface_hub import cached_download, hf_hub_download, model_info\n'
    "ImportError: cannot import name 'cached_download' from 'huggingface_hub' "
    "(D:\\Comfy_UI\\python_embeded\\Lib\\site-packages\\huggingface_hub\\__init__.py). Did you mean: 'hf_hub_download'\n")
# open-mmlab/mmdetection#2138 / junyanz/pytorch-CycleGAN-and-pix2pix#933 (torchvision against an older torch), in
# Python 3.8's wording, which names the module and its file
TORCHVISION_2138 = (
    '  File "/home/writ/.virtualenvs/mmde/lib/python3.8/site-packages/torchvision/models/inception.py", line 9, '
    'in <module>\n    from torch.jit.annotations import Optional\n'
    "ImportError: cannot import name 'Optional' from 'torch.jit.annotations' "
    "(/home/writ/.virtualenvs/mmde/lib/python3.8/site-packages/torch/jit/annotations.py)\n")


def test_companion_package_of_another_release():
    for log, importer, mod, name in ((DISTRIFUSER_24, "diffusers", "huggingface_hub", "cached_download"),
                                     (COMFY_246, "diffusers", "huggingface_hub", "cached_download"),
                                     (TORCHVISION_2138, "torchvision", "torch", "Optional")):
        first = _first(log)
        assert first["id"] == "python.companion_package_release_mismatch", log
        assert first["title"].startswith(f"{importer} needs a release of {mod} that has '{name}'"), log
        assert first["fix"].splitlines()[0].startswith("Install the two at releases that go together"), log


def test_spconv_keeps_its_answer():
    log = ('  File "/usr/local/lib/python3.8/dist-packages/spconv/pytorch/conv.py", line 22, in <module>\n'
           '    from cumm.conv.main import ConvFwdAndBwdInput\n'
           "ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main' "
           "(/usr/local/lib/python3.8/dist-packages/cumm/conv/main.py)\n")
    assert _first(log)["id"] == "python.spconv_cumm_mismatch"


def test_companion_counter_cases():
    # one installed package importing from itself: a mix of two releases of that package, not a companion pair
    first = _first(
        '  File "/venv/lib/python3.10/site-packages/foo/a.py", line 3, in <module>\n    from foo.b import x\n'
        "ImportError: cannot import name 'x' from 'foo.b' (/venv/lib/python3.10/site-packages/foo/b.py)\n")
    assert first["title"].startswith("the installed foo is a mix of two releases"), first
    # a program's own module (not in site-packages) is a program bug
    ids = [m.id for m in explain(
        '  File "/home/me/proj/train.py", line 3, in <module>\n    from utils import load\n'
        "ImportError: cannot import name 'load' from 'utils' (/home/me/proj/utils.py)\n")]
    assert "python.companion_package_release_mismatch" not in ids


def test_companion_hostile_lines_are_cheap():
    for literal in ('File "/site-packages/a/', "/site-packages/", 'File "', "ImportError: cannot import name 'a' from 'b' (",
                    "site-packages/a/b.py\", line 1, in m\n"):
        explain(hostile_line(literal))


# the real quoted messages, as (text, id, first fix line) for test_explain.py's coverage of every entry
E28_GEN_CASES = [
    (DUC_24, "loader.installed_lib_not_in_cache", "Refresh the loader cache: `sudo ldconfig`"),
    (PAGEKITE_40, "loader.installed_lib_not_in_cache", "Refresh the loader cache: `sudo ldconfig`"),
    (DISTRIFUSER_24, "python.companion_package_release_mismatch", "Install the two at releases that go together"),
    (TORCHVISION_2138, "python.companion_package_release_mismatch", "Install the two at releases that go together"),
]
