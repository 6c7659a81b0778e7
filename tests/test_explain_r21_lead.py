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
