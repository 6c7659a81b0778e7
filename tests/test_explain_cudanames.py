"""One reader for "the CUDA a log names" (cudaenv/knowledge/explain/cudanames.py): its forms, the rule they all keep
(nvidia-smi's header is the driver's CUDA), and the derives that read it."""

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.cudanames import mentions, named, torch_build_cuda, torch_builds_named

SMI = "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n"


@pytest.mark.parametrize("text, version, form", [
    ("CUDA 11.8", "11.8", "word"),
    ("cuda: 11.8", "11.8", "word"),
    ("CUDA=11.8", "11.8", "word"),
    ("CUDA version 11.8", "11.8", "word"),
    ("CUDA Toolkit 11.8", "11.8", "word"),
    ("CUDA版本： 9.2.148", "9.2", "word"),
    ("cuda v11.8", "11.8", "word"),
    ("CUDA (11.8)", "11.8", "word"),
    ("nvidia/cuda11.8-devel", "11.8", "glued"),
    ("CUDA10.2", "10.2", "glued"),
    ("/usr/local/cuda-11.8/bin/nvcc", "11.8", "path"),
    ("/opt/modules/cuda/11.4.2/lib64", "11.4", "path"),
    ("cuda_11.8.0_520.61.05_linux.run", "11.8", "path"),
    ("Cuda compilation tools, release 11.4, V11.4.48", "11.4", "release"),
    ("-D__CUDACC_VER_MAJOR__=11 -D__CUDACC_VER_MINOR__=4", "11.4", "macro"),
    ("torch-2.1.0+cu118-cp310-cp310-linux_x86_64.whl", "11.8", "wheel"),
    ("cudatoolkit               9.0", "9.0", "conda"),
    ("pytorch   1.1.0   py3.6_cuda90_cudnn7_1", "9.0", "conda"),
    ("PyTorch version: 1.13.1", "1.13", "torch"),
])
def test_each_form_is_read_with_its_kind(text, version, form):
    assert (version, form) in [(m.version, m.form) for m in mentions(text)]


@pytest.mark.parametrize("text", [
    SMI,  # the driver's CUDA, not a toolkit's
    "|   NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 11.4     |\n",
    "libcudnn8=8.6.0.163-1+cuda11.8",  # a package version names what the package was built for
    "/usr/lib/x86_64-linux-gnu/libcuda 11.2",  # glued behind a word
    "Please install cuda",  # no version
])
def test_what_is_not_a_mention(text):
    assert mentions(text) == ()


def test_named_filters_forms_and_majors_in_order():
    text = "nvcc: Cuda compilation tools, release 11.4\nimage nvidia/cuda:12.1.0-devel\n" + SMI + "torch 2.1.0+cu118\n"
    assert named(text, {"release"}) == ["11.4"]
    assert named(text, {"word", "glued", "path", "wheel"}) == ["12.1", "11.8"]
    assert named(text, {"release", "word"}, lowest=12) == ["12.1"]


def test_torch_build_cuda_reads_the_release_table():
    assert torch_build_cuda("1.4") == "10.2"  # before 1.7: CUDA 10.2 at most (PyTorch 1.7.0's release notes)
    assert torch_build_cuda("2.1") == "12.1"  # data/compat.yaml: torch 2.1's wheels are cu118 and cu121
    assert torch_build_cuda("99.0") == ""


def _first(text):
    found = [m for m in explain(text) if m.environment]
    return found[0] if found else None


def test_the_driver_header_is_not_the_toolkit_a_host_compiler_is_judged_by():
    # Before cudanames.py, the reporter's-words reader took nvidia-smi's "CUDA Version: 12.2" as the toolkit and told
    # a gcc 13 user that "CUDA 12.2's nvcc" was too old; the log shows no toolkit, so the general answer stands.
    log = SMI + ('/usr/lib/gcc/x86_64-linux-gnu/13/include/mwaitxintrin.h(36): error: identifier '
                 '"__builtin_ia32_monitorx" is undefined\n')
    first = _first(log)
    assert first is not None and first.id == "nvcc.host_headers_unsupported"
    assert "12.2" not in first.title
    # the same log with the toolkit in words still decides by it (NVIDIA/AMGX#9's "cuda 7.5" beside gcc 5)
    first = _first("gcc, g++, 5.4.0\ncuda 7.5\n" + log.replace("/13/", "/5/"))
    assert first is not None and "CUDA 7.5" in first.title


def test_a_build_named_in_any_form_decides_a_gpu_newer_than_it():
    # status.gpu_newer_than_build reads the build's CUDA from a wheel tag, a conda listing or words alike
    def ask(said):
        return _first(said + "\nGPU: NVIDIA GeForce RTX 3080\n"
                      "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle)`\n")

    for said in ("torch 1.13.1+cu102", "cudatoolkit               10.0", "my cuda version is cuda:10.0",
                 "torch 1.6.0"):  # torch before 1.7: CUDA 10.2 at most
        first = ask(said)
        assert first is not None and first.id == "status.gpu_newer_than_build", said
    # a build made for the GPU (cu124 knows Ampere) is not that cause; nvidia-smi's header is no build at all
    assert ask("torch 2.4.0+cu124") is None or ask("torch 2.4.0+cu124").id != "status.gpu_newer_than_build"
    first = ask(SMI.replace("12.2", "10.0"))
    assert first is None or first.id != "status.gpu_newer_than_build"


def test_torch_builds_named_reads_local_tags_only():
    text = ("PyTorch: 2.11.0+cu130\ntorch==2.1.0+cu118\ntorchvision: 0.16.0+cu121\ntorch 2.10.0.dev20251024+cu130\n"
            "torch 2.3.0 (no tag)\nlibtorch+cu118.zip\n")
    assert torch_builds_named(text) == ["11.8", "12.1", "13.0"]
    assert torch_builds_named("torch 2.3.0\n") == []
