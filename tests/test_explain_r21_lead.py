"""Round 21, lead: a message the knowledge base recognises is written once. A derive that looks for an entry's message
elsewhere in the log (the fabric manager's version refusal below CUDA's error 802; the kernel's gcc and the kernel-only
flag gcc refuses) reads the entry's own pattern (``derive.kb_pattern``) instead of a copy of it; a CUDA named by its
bare major as installed is read by cudanames, the one reader of the CUDA versions a log names."""
import inspect

import pytest

from cudaenv.knowledge.explain import cudanames, derive, explain
from cudaenv.knowledge.kb import load_entries


@pytest.mark.parametrize("entry_id,literal", [
    ("driver.fabric_manager", "fabric manager NVIDIA GPU driver interface version"),
    ("driver.kernel_compiler_older", "The kernel was built by"),
    ("driver.kernel_compiler_older", "unrecognized command-line option"),
])
def test_a_derive_reads_the_entrys_own_pattern(entry_id, literal):
    entry = next(e for e in load_entries() if e["id"] == entry_id)
    assert derive.kb_pattern(entry_id, literal).pattern in entry["patterns"]


def test_the_messages_are_not_copied_into_derive():
    source = inspect.getsource(derive)
    for words in ("ftrivial-auto-var-init", "built by: \\S", "driver interface version (\\d"):  # a regex's words
        assert words not in source


def test_the_fabric_manager_versions_are_read_below_error_802():
    # dstackai/dstack#2348: torch's 802 warning first, the service's journal after it
    log = ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
           "before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized\n"
           "nv-fabricmanager[1234]: fabric manager NVIDIA GPU driver interface version 550.90.07 don't match with driver "
           "version 550.127.05. Please update with matching NVIDIA driver package.\n")
    first = explain(log)[0].to_dict()
    assert first["id"] == "driver.fabric_manager"
    assert "550.127.05" in first["fix"] + first["title"] + first["cause"]


def test_the_kernel_gcc_is_read_from_the_entrys_pattern():
    # pop-os/pop#3117: a 22.04 HWE kernel built by gcc-12 while gcc is 11
    log = ("  The kernel was built by: x86_64-linux-gnu-gcc-12 (Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0\n"
           "  You are using:           cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0\n"
           "cc: error: unrecognized command-line option '-ftrivial-auto-var-init=zero'\n")
    first = explain(log)[0].to_dict()
    assert first["id"] == "driver.kernel_compiler_older" and "gcc 12" in first["title"]


@pytest.mark.parametrize("text,majors", [
    ("I have a GTX 1080ti and Cuda 8 installed", [8]),
    ("CUDA 10 is installed, and CUDA 9 was already installed before", [9, 10]),
    ("I installed the CUDA toolkit 11 yesterday", [11]),
    ("I installed CUDA 11.8", []),  # a minor: cudanames' mentions read it
    ("cuda 8 not installed? libcuda 12 installed", []),
])
def test_installed_majors(text, majors):
    assert cudanames.installed_majors(text) == majors


# -- A CI job on a hosted runner (the `ci` fact, situations.yaml's ci-runner place): no GPU and no NVIDIA driver there,
# so the first fix is to skip the GPU tests there or run them on a runner with a GPU, not to install a driver.
from cudaenv.knowledge.explain.extract import facts  # noqa: E402
from cudaenv.knowledge.explain.text import LogText  # noqa: E402

# https://github.com/SyneRBI/SIRF/issues/1278 (the CUDA tests disabled on GitHub Actions; a self-hosted runner suggested)
SIRF = ("GitHub Actions doesn't have the CUDA run-time, so testing the CUDA RDP fails with\n"
        "`sirf.Utilities.error: ??? \"'\\\\nERROR: CUDA failed to allocate memory in compute_gradient kernel execution: CUDA "
        "driver version is insufficient for CUDA runtime version\\\\n'\"`\n"
        "This occurs in the `build (gpu)` docker job of the SB, see e.g. "
        "https://github.com/SyneRBI/SIRF-SuperBuild/actions/runs/9865000620/job/27241074266#step:9:29413\n")
# https://github.com/pytorch/pytorch/issues/87890 (GitHub Actions' own A10G runners losing their GPU: a runner with a GPU)
G5 = ("There is a new trend of flaky issues when the GPU seems to disappear from GHA g5 runners. There are 2 common errors:\n"
      "* `RuntimeError: No CUDA GPUs are available`: https://hud.pytorch.org/failure/RuntimeError%3A%20No%20CUDA%20GPUs%20are%20available\n"
      "GHA g5 runners (NVIDIA A10G). Inductors and some trunk tests use them\n")


# torch's own message (torch/csrc/cuda/Module.cpp's driver check) in a pytest run, and GitHub's runner's own last line
# (actions/runner: "Error: Process completed with exit code N."): the resolution of SIRF#1278, meson#13269,
# qiboteam/qibotn#14, jkarolczak/ligand-classification#111, pathpy/pathpyG#29 ("the default GitHub runners do not have a
# GPU ... setting up self-hosted runners to test on GPU"), conan-io/cuda-conan#10 (libcuda.so.1 absent on the hosted
# Ubuntu runner: the test package's execution skipped there)
PYTEST_ON_RUNNER = ("tests/test_gpu.py:12: in test_cuda\n    x = torch.zeros(3).cuda()\n"
                    "E   RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
                    "installed a driver from http://www.nvidia.com/Download/index.aspx\n"
                    "Error: Process completed with exit code 1.\n")


def test_a_hosted_runner_has_no_gpu_skip_or_move_the_gpu_tests():
    first = explain(PYTEST_ON_RUNNER)[0].to_dict()
    assert first["id"] == "torch.no_driver"
    line = first["fix"].split("\n")[0]
    assert line.startswith("A hosted CI runner has no GPU and no NVIDIA driver") and "skipif" in line and "self-hosted" in line
    # without the runner's line, a machine of the user's own: the driver first
    assert explain(PYTEST_ON_RUNNER.replace("Error: Process completed with exit code 1.\n", ""))[0].to_dict()[
        "fix"].startswith("`nvidia-smi` must work first")


def test_an_entrys_own_ci_variant_still_answers():
    # SIRF#1278 is answered by runtime.insufficient_driver's own CI variant (round 5), which says the same
    first = explain(SIRF)[0].to_dict()
    assert first["id"] == "runtime.insufficient_driver" and first["fix"].startswith("Run the CUDA tests only on a runner with a GPU")


def test_a_runner_with_a_gpu_keeps_the_entrys_answer():
    assert facts(LogText(G5))["ci"] == "github-actions"
    assert not any("hosted CI runner" in m.to_dict()["fix"] for m in explain(G5))


@pytest.mark.parametrize("text,ci", [
    # a binary's source path from the machine that built it is not where it ran (corpus 166, 132: vllm, onnxruntime)
    ("Failed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported between "
     "these two devices'", ""),
    ("D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:121 onnxruntime::CudaCall CUDA failure 35: CUDA "
     "driver version is insufficient for CUDA runtime version", ""),
    # a job's own marks (corpus sampled/305: CircleCI's project directory; fresh13 h66: GitHub's tool cache)
    ('  File "/home/circleci/project/env/lib/python3.8/site-packages/torch/__init__.py", line 218, in <module>', "circleci"),
    ('  File "/opt/hostedtoolcache/Python/3.10.13/x64/lib/python3.10/site-packages/torch/cuda/__init__.py", line 3', "github-actions"),
    # allenai/allennlp#4310: "Occasionally CUDA becomes unavailable on the self-hosted runner"
    ("Occasionally CUDA becomes unavailable on the self-hosted runner, for whatever reason. When this happens, the GPU "
     "workflow will always pass\nError: Process completed with exit code 1.", "self-hosted"),
    # pytorch/pytorch#87890 names its runners "GHA g5 runners"; PyTorch's job names end with the GPU runner's label (the
    # form its CI prints: "... / test (default, 1, 4, linux.g5.4xlarge.nvidia.gpu)"; the "job: " prefix is ours)
    ("Error: Process completed with exit code 1.\njob: linux-focal-cuda11.6-py3.10-gcc7 / test (default, 1, 4, linux.g5.4xlarge.nvidia.gpu)",
     "self-hosted"),
])
def test_the_ci_fact_reads_the_runners_own_marks(text, ci):
    assert facts(LogText(text))["ci"] == ci


def test_a_build_on_a_hosted_runner_names_the_architectures():
    # pip's and torch's own lines (cpp_extension's warning when no driver answers) in a GitHub job: a build needs only the
    # toolkit, so the architectures are named (the same line as a `docker build` gets)
    log = ("Building wheel for mypkg (setup.py): started\n"
           "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n"
           "Error: Process completed with exit code 1.\n")
    first = explain(log)[0].to_dict()
    assert first["id"] == "torch.no_cuda_runtime"
    assert first["fix"].startswith("A hosted CI runner has no GPU and no NVIDIA driver, so a build there cannot detect")
    assert "TORCH_CUDA_ARCH_LIST" in first["fix"].split("\n")[0]


# -- The generic reading of the toolkit's inner programs (cicc, ptxas, nvlink, fatbinary): nvcc runs them from its own
# directory and Triton, XLA, Numba look in CUDA_HOME/bin or their own setting, so "put a bin on PATH" was the wrong
# first fix on every held-out log it answered (fresh15 n70, fresh20 t05, t63). First: is it installed at all.
def test_an_inner_toolkit_program_not_found_asks_whether_it_is_installed_first():
    # kijai/ComfyUI-HunyuanVideoWrapper#29 (the burned fresh20 t63: Triton on Windows; CUDA_HOME fixed it)
    log = ("2024-12-05 14:35:02,706- root:392- ERROR- !!! Exception during processing !!! Cannot find ptxas.exe\n"
           "Traceback (most recent call last):\n"
           '  File "F:\\ComfyUI_windows_portable\\ComfyUI\\execution.py", line 323, in execute\n')
    first = explain(log)[0].to_dict()
    assert first["id"] == "generic.toolkit.missing"
    lines = first["fix"].split("\n")
    assert lines[0].startswith("Check whether this machine has it at all: `where /r C:\\ ptxas.exe`")
    assert "CUDA_HOME" in lines[1] and "TRITON_PTXAS_PATH" in lines[1]



def test_on_linux_the_check_is_find():
    first = explain("2024-12-05 14:35:02,706- root:392- ERROR- !!! Exception during processing !!! Cannot find ptxas\n")[0]
    assert first.to_dict()["fix"].startswith("Check whether this machine has it at all: `find / -name ptxas -type f")


# -- CUDA's status number inside a project's own check (generic.py `_read_status`): the number status.yaml maps to an
# entry, when it means the same in every CUDA release, answered by that entry (its `reads: {status: ...}`).
@pytest.mark.parametrize("line,entry", [
    # the format of a CHECK_ERR macro found in public CUDA sources: fprintf(stderr, "[%s %d]: CUDA Runtime Error: %d\n",
    # __func__, __LINE__, ret)
    ("[main 120]: CUDA Runtime Error: 100", "runtime.no_device"),
    ("[main 120]: CUDA Runtime Error: 999", "driver.unknown_error"),
    # jkjung-avt/tensorrt_demos' plugins/yolo_layer.h: "Cuda failure in file '" << __FILE__ << "' line " << __LINE__
    # << ": " << ret (frigate#7959 printed 35; its own pattern answers that one)
    ("Cuda failure in file 'yolo_layer.cu' line 51: 46", "gpu.busy_exclusive"),
    ("Cuda failure in file 'yolo_layer.cu' line 51: 222", "runtime.unsupported_ptx"),
])
def test_a_status_number_in_a_projects_own_check_is_read(line, entry):
    first = explain(line)[0].to_dict()
    assert first["id"] == entry and first["title"].startswith("generic reading: ")


@pytest.mark.parametrize("line", [
    "Cuda error in file 'kernel.cu' in line 35",   # a line number
    "CUDA error at kernel.cu:35",                   # a file's line
    "[main 120]: CUDA Runtime Error: 700",          # an illegal address: a program bug, no environment cause
    "[main 120]: CUDA Runtime Error: 34",           # CUDA 9 and older numbered 34 cudaErrorNotReady: no era-free reading
    "Found CUDA 10.0 with 100 kernels",             # no error word
])
def test_what_is_no_status_reading(line):
    assert not [m for m in explain(line) if m.to_dict().get("environment")]


def test_every_status_a_bare_number_is_read_as_names_an_entry_that_exists():
    # status.yaml names the entry that answers each status it lets the reader read (round 26: one table, no per-entry
    # `reads: {status}` key); a name that is no entry would leave the status unanswered
    from cudaenv.knowledge.explain import generic

    ids = {e["id"] for e in load_entries()}
    numbers = generic._status_numbers()
    assert {35, 46, 100, 999} <= set(numbers)
    assert set(numbers.values()) <= ids
    assert not [e["id"] for e in load_entries() if "status" in (e.get("reads") or {})]


def test_the_facts_are_read_once_per_log_and_each_caller_gets_its_own_copy():
    t = LogText(PYTEST_ON_RUNNER)
    first = facts(t)
    first["ci"] = "changed by a caller"
    assert facts(t)["ci"] == "github-actions"


def test_the_status_reading_reads_lines_of_bounded_length_only():
    # like every generic reading, a line longer than generic._LONGEST is not read: a pasted megabyte-long line costs one
    # pass, not a search from each of its positions (the first form, one regex over the whole text, took the square of
    # a hostile line's length)
    from cudaenv.knowledge.explain import generic

    short = "[main 120]: CUDA Runtime Error: 100"
    long = "cuda " + "error x " * (generic._LONGEST // 8 + 1) + " 100"
    assert generic._read_status(LogText(short), short.lower()).name == "100"
    assert len(long) > generic._LONGEST and generic._read_status(LogText(long), long.lower()) is None


def test_gcc_named_finds_each_lines_start_and_limit_words_once():
    # obuild's gcc_named looked back to the line's start and searched the limit's words from there for every match: a
    # long line of gcc names took the square of its length (151 s for 220 000 characters). The answers stay as they were:
    from cudaenv.knowledge.explain.derive import gcc_named

    # Jittor/jittor#182's list, the limit's own words on their line, caffe2#442's listing
    assert gcc_named("g++ 9.30 / gcc 7.5.0\nunsupported GNU version! gcc versions later than 8 are not supported!\n"
                     "ls /usr/bin/gcc-*\n/usr/bin/gcc-4.8 /usr/bin/gcc-9") == ["9", "7", "4.8"]
    # a name before the limit's words on its line is named as present; one after them belongs to the limit's sentence
    assert gcc_named("gcc-7 installed; gcc versions later than 8 are not supported") == ["7"]
    assert gcc_named("gcc versions later than 8 are not supported, gcc-7") == []
