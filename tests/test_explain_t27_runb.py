"""Round 27, t27-runb (driver, python-framework): fresh27's misses in those rows, each answered for its family.

A CUDA status in a program's own words: the PTX-toolchain status without cudaGetErrorString's "the provided"
(the gpuErrchk idiom "GPUassert: %s %s %d"), and darknet's "CUDA Error: %s" with a capital E for "unknown error".
driver.unknown_error on native Windows has no kernel module to reload: the driver update comes first."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# dynexcoin/Dynex#42 (fresh27 k86): HiveOS miner, fixed by a driver update
DYNEX_42 = "PUassert: The PTX was compiled with an unsupported toolchain, kernel.cu 2352\nGPUs detected.\n"
# the gpuErrchk idiom's whole word, the same status
GPUASSERT = "GPUassert: the PTX was compiled with an unsupported toolchain. kernel.cu 118\n"


def test_ptx_toolchain_in_a_programs_words_is_the_driver():
    for log in (DYNEX_42, GPUASSERT):
        first = _first(log)
        assert first["id"] == "runtime.unsupported_ptx"
        assert first["fix"].splitlines()[0].startswith("The driver is older than the CUDA that made the PTX: upgrade the driver")


def test_near_miss_ptx_prose_is_not_read():
    # a sentence about a toolchain, not the status
    ids = [m.id for m in explain("the PTX toolchain was unsupported in our docs build\n")]
    assert "runtime.unsupported_ptx" not in ids


# AlexeyAB/darknet#1070 (fresh27 k61): Windows, "my graphics driver was stopped and I updated the driver"
DARKNET_1070 = ("D:\\darknet\\build\\darknet\\x64>darknet.exe detector train cfg/obj.data cfg/yolo-obj.cfg "
                "darknet19_448.conv.23\nCUDA Error: unknown error\nCUDA Error: unknown error: No error\n")
# AlexeyAB/darknet#2501 (Windows: nvidia-smi could not talk to the driver)
DARKNET_2501 = ("darknet.exe detector test data/coco.data cfg/yolov3.cfg yolov3.weights -i 0 -thresh 0.25\n"
                "CUDA status Error: file: c:\\darknet\\src\\cuda.c : cuda_set_device() : line: 22 : build time: "
                "Mar  1 2019 - 20:44:49\nCUDA Error: unknown error\nCUDA Error: unknown error: No error\n")
# AlexeyAB/darknet#8126 (Ubuntu 20.04: reinstalling the driver fixed it)
DARKNET_8126 = ("CUDA status Error: file: ./src/dark_cuda.c : () : line: 39 : build time: Sep 30 2021 - 10:00:00\n"
                "Darknet error location: ./src/dark_cuda.c, check_error, line #70\n"
                "CUDA Error: unknown error: Bad file descriptor\n")


def test_darknet_unknown_error_on_windows_updates_the_driver():
    for log in (DARKNET_1070, DARKNET_2501):
        first = _first(log)
        assert first["id"] == "driver.unknown_error"
        assert first["fix"].splitlines()[0].startswith("Update the NVIDIA driver"), first["fix"]


def test_darknet_unknown_error_on_linux_keeps_the_module_reload():
    first = _first(DARKNET_8126)
    assert first["id"] == "driver.unknown_error"
    assert "rmmod nvidia_uvm" in first["fix"].splitlines()[0]


def test_near_miss_other_darknet_errors_keep_their_answer():
    # darknet's frame around another status: not the unknown-error entry
    ids = [m.id for m in explain("CUDA Error: an illegal memory access was encountered\n"
                                 "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n")]
    assert "driver.unknown_error" not in ids


def test_hostile_lines_are_cheap():
    for literal in ("PTX was compiled with an unsupported toolchai", "the PTX is compiled with an ", "CUDA Error: unknown "):
        explain(hostile_line(literal))


# traveller59/spconv#367 (fresh27 k71): spconv 2.1.2 over an older cumm-cu114; "pip install -U cumm-cu114"
SPCONV_367 = ("import spconv.pytorch as spconv\n"
              '  File "D:\\pythoncoder\\Anaconda3\\lib\\site-packages\\spconv\\core.py", line 21, in <module>\n'
              "    from cumm.conv.main import gen_gemm_params as gen_conv_params, ConvFwdAndBwdInput, ConvBwdWeight\n"
              "ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'\n")
# Luoyadan/CRB-active-3Ddet#7: spconv-cu113 2.1.21 with cumm-cu113 0.4.9
CRB_7 = ('  File "/opt/conda/envs/ahmed/lib/python3.7/site-packages/spconv/core.py", line 18, in <module>\n'
         "    from cumm.gemm.algospec.core import TensorOpParams\n"
         "ImportError: cannot import name 'TensorOpParams' from 'cumm.gemm.algospec.core' "
         "(/opt/conda/envs/ahmed/lib/python3.7/site-packages/cumm/gemm/algospec/core.py)\n")


def test_spconv_asking_cumm_for_a_name_is_a_cumm_of_another_release():
    for log, name in ((SPCONV_367, "ConvFwdAndBwdInput"), (CRB_7, "TensorOpParams")):
        first = _first(log)
        assert first["id"] == "python.spconv_cumm_mismatch"
        assert name in first["title"]
        assert first["fix"].splitlines()[0].startswith("Bring cumm to the release of this spconv")
        assert "pip install -U cumm-cu114" in first["fix"]


def test_near_miss_other_packages_and_spconv_two_builds_keep_their_answer():
    ids = [m.id for m in explain("ImportError: cannot import name 'foo' from 'cummins.core'\n")]
    assert "python.spconv_cumm_mismatch" not in ids
    # two spconv packages registering one type twice: python.two_cuda_builds_installed, unchanged
    first = _first("    import spconv.core_cc as _ext\nImportError: generic_type: cannot initialize type \"Tensor\": "
                   "an object with that name is already defined\n")
    assert first["id"] == "python.two_cuda_builds_installed"


def test_hostile_cumm_lines_are_cheap():
    explain(hostile_line("cannot import name 'ConvFwdAndBwdInput' from 'cumm"))


# the real messages this round's entries answer (counted by test_explain.py's test_every_entry_has_a_real_message)
CASES = [
    (SPCONV_367, "python.spconv_cumm_mismatch", "pip install -U cumm-cu114"),
    (CRB_7, "python.spconv_cumm_mismatch", "pip install -U cumm-cu114"),
]
