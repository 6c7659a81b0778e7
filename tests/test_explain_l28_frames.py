"""Round 28 (lead): CUDA's status string in the frame of a copied error-check macro.

Most CUDA programs check errors with a macro copied from one source: gpuErrchk ("GPUassert: %s %s %d", Stack Overflow
14038589), CUDA by Example's HANDLE_ERROR ("%s in %s at line %d"), the old SDK's cutil ("Cuda error in file '%s' in line
%i : %s."), NCCL's CUDACHECK ("Cuda failure '%s'"). Their lines print cudaGetErrorString's string with no "cuda" word
and no call name, so the status reader (generic.py ``_read_status``) skipped them and "GPUassert: unknown error" got no
answer while "CUDA error: unknown error" got one. status.yaml ``frames`` holds the frames; a row that says ``framed:
false`` (invalid device function: in a project's own kernels its hand-written architecture list is as likely as the
environment) is not read from a frame alone."""
import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import knowledge_table
from cudaenv.knowledge.explain.generic import _read_status
from cudaenv.knowledge.explain.text import LogText

from explain_answers import hostile_line

FRAMES = [
    "GPUassert: {s} /home/u/proj/src/kernel.cu 80",  # gpuAssert, stackoverflow.com/questions/14038589
    "{s} in main.cu at line 42",  # CUDA by Example, common/book.h HandleError
    "Cuda error in file 'bitonic.cu' in line 117 : {s}.",  # the CUDA SDK's cutil.h CUDA_SAFE_CALL_NO_SYNC
    "node01:1234:1240 [0] NCCL WARN Cuda failure '{s}'",  # NCCL's CUDACHECK
]
ROWS = [r for r in knowledge_table("status.yaml")["runtime"]
        if r.get("entry") and not r.get("verdict") and not r.get("ambiguous") and r.get("string")]


def _read(text):
    t = LogText(text)
    return _read_status(t, t.text.lower())


@pytest.mark.parametrize("frame", FRAMES)
def test_every_answering_string_is_read_in_every_frame(frame):
    for row in ROWS:
        text = frame.format(s=row["string"]) + "\n"
        got = _read(text)
        if row.get("framed", True):
            assert got is not None and got.key == row["entry"], text
            assert row["string"].lower() in got.name.lower()
        else:
            assert got is None, text  # framed: false: the frame alone does not decide


def test_first_answers_in_the_gpuassert_frame():
    # darknet/yolo-style research code: the driver in a bad state, a CUDA 12 build on an older driver
    assert [m.id for m in explain("GPUassert: unknown error src/main.cu 42\n") if m.environment][:1] == [
        "driver.unknown_error"]
    assert [m.id for m in explain(
        "Loading model...\nGPUassert: operation not supported kernels.cu 118\n") if m.environment][:1] == [
        "status.operation_not_supported"]


def test_counter_cases():
    # a program's own failure in the frame: no environment claim
    assert not [m for m in explain("GPUassert: out of memory kernel.cu 80\n") if m.environment]
    assert not [m for m in explain("GPUassert: an illegal memory access was encountered kernel.cu 80\n")
                if m.environment]
    # GOMC-WSU/GOMC#168 (the burned fresh23 w46, a negative: GOMC's CMake missed the GPU's architecture)
    assert not [m for m in explain(
        "Wrapping molecules inside the simulation box 0:\n"
        "GPUassert: invalid device function /home4/u/GOMC/src/GPU/CalculateEwaldCUDAKernel.cu 80\n") if m.environment]
    # "at line" prose with no status string, and a status string with no frame
    assert _read("unexpected token in config.cc at line 3\n") is None
    assert _read("Error: unknown error\n") is None


def test_frames_are_bounded_on_hostile_lines():
    for literal in ("GPUassert: ", "x in ", "aaaa in bbbb.cu at line 1 ", "Cuda error in file '", "Cuda failure "):
        explain(hostile_line(literal))  # returns: each frame's repeats are bounded
