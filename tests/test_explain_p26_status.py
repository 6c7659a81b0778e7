"""Round 26 (helper p26-status, finishing round 25's p25-status): CUDA status codes in any wrapper's frame, read by one
general reader (generic.py's ``_read_status``) from knowledge/status.yaml, not by a pattern per entry. Beside the frames
read before (a status number last on a line after a CUDA word and an error word; "error N in [call at] file"), it reads

- a status NAME anywhere on a line, runtime or driver ("cudaErrorInsufficientDriver", "CUDA_ERROR_NO_DEVICE");
- a number beside a CUDA API call's name ("cudaGetDeviceProperties returned 35", "cuInit failed:999"), the call standing
  for the word CUDA; a driver-API call's number is a CUresult, which never changed (34 is CUDA_ERROR_STUB_LIBRARY), a
  runtime call's keeps the era rule (its numbers below 98 but 35 and 46 changed at CUDA 10);
- numba's "[N] Call to cuX results in ..." (the number is what the call returned; UNKNOWN_CUDA_ERROR is numba's word
  for a code its own table lacks);
- a status STRING (cudaGetErrorString's) beside a CUDA API call's name ("cuLinkAddData(): the provided PTX ...").

A status answers through the entry its status.yaml row names (routed by that table alone, no `reads` key needed), as
that entry would: not where the entry's own `unless` holds, and never as the generic cause-model answer. A row with a
program `verdict` or an `ambiguous` note is never read: the verdict entries' own patterns give the verdict, and an
ambiguous code answers only through the entry its context matches. The reader runs only when no entry matched.

Every line below is copied from the burned corpus log (file:line) or the public thread named beside it. The table-driven
tests put each status.yaml row's own name, number or string into the frame of one of those real lines (named there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import knowledge_table
from cudaenv.knowledge.explain.generic import (_BRACKET_CALL, _CALL_NAME, _CALL_STATUS, _ERA_STABLE, _STATUS_NAME,
                                               _read_status)
from cudaenv.knowledge.explain.text import LogText
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, hostile_line, program_bug_tests, unbounded_beyond_blanks

CORPUS = Path(__file__).parent / "data" / "explain_corpus"


def corpus_line(name: str, number: int) -> str:
    """Line ``number`` (from 1) of the burned corpus log ``name``, as the log holds it."""
    return CORPUS.joinpath(name).read_text(encoding="utf-8", errors="replace").splitlines()[number - 1] + "\n"


def read(text: str):
    """What the general status reader alone reads in ``text`` (None: nothing), whatever the entries' patterns say."""
    return _read_status(LogText(text), text.lower())


# -- lines only the status reader answers (no entry's pattern holds them): the generic reading, by the owner's fixes
CASES = [
    # a number beside a runtime call: bandwidthTest's line above its helper_cuda.h frame (sampled/298:4,
    # NVIDIA/nvidia-docker#498)
    (corpus_line("sampled/298-insufficient-driver-bandwidthtest.log", 4), "runtime.insufficient_driver",
     "The driver supports an older CUDA"),
    # whisper.cpp's device probe in dsnote (fresh22/v38:10 and :11)
    (corpus_line("fresh22/v38-dsnote-flatpak-no-nvidia-uvm.log", 10), "driver.unknown_error", "nvidia_uvm"),
    (corpus_line("fresh22/v38-dsnote-flatpak-no-nvidia-uvm.log", 11), "driver.unknown_error", "nvidia_uvm"),
    # a number beside a driver-API call: HAMi's vGPU library (Project-HAMi/HAMi#264, the title quotes the log)
    ("cuInit failed:999\n", "driver.unknown_error", "nvidia_uvm"),
    # numba's bracket: 802 on an Azure ND96asr_v4 (8 A100 on NVSwitch) whose fabric manager was not up
    # (numba/numba#7187; numba 0.53 had no name for 802, hence UNKNOWN_CUDA_ERROR)
    ("numba.cuda.cudadrv.driver.CudaAPIError: [802] Call to cuInit results in UNKNOWN_CUDA_ERROR\n",
     "driver.fabric_manager", "nvidia-fabricmanager"),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_the_reader_answers_them_as_a_generic_reading(text):
    first = explain(text)[0].to_dict()
    assert first["title"].startswith("generic reading: "), first["title"]


# -- lines an entry's own pattern answers: the general reader reads each of them as the same entry, so a producer's
# next wording of the same status (the entries' patterns do not list) is answered alike
READ_ALIKE = [
    ("sampled/247-no-device-cuda-samples.log", 2, "runtime.no_device"),  # helper_cuda.h code=100(cudaErrorNoDevice)
    ("sampled/298-insufficient-driver-bandwidthtest.log", 6, "runtime.insufficient_driver"),
    ("fresh6/a54-wsl2-cuml-numba-cuinit-no-device.log", 2, "runtime.no_device"),  # numba's CudaSupportError
    ("fresh6/a51-cutedsl-insufficient-driver-cuda-python13.log", 4, "runtime.insufficient_driver"),  # cuda-python
    ("fresh22/v38-dsnote-flatpak-no-nvidia-uvm.log", 6, "driver.unknown_error"),
    ("fresh21/u33-nixos-jellyfin-cuinit-no-device.log", 4, "runtime.no_device"),  # ffmpeg's cu->cuInit(0) failed ->
    ("fresh15/n31-jittor-ptx-version-222-driver-450.log", 3, "runtime.unsupported_ptx"),
    ("fresh9/d73-wsl2-insider-build-20231-cuda-devices-unavailable-matrixmul.log", 7, "gpu.busy_exclusive"),
    ("fresh12/g74-quip-miner-image-forward-compat-libcuda-on-geforce.log", 1, "runtime.forward_compat_unsupported"),
    ("fresh10/e39-picongpu-cudaerrorlaunchtimeout-x-server-same-gpu.log", 2, "status.launch_timeout"),
    ("074-numba-34-cuinit.log", 1, "runtime.stub_library"),  # numba's [34]: a driver-API number needs no era
    ("fresh2/610-ecc-uncorrectable-deepfacelab-tf.log", 1, "gpu.hardware_fault"),
    ("fresh/532-hpc-devices-unavailable-bad-nodes.log", 1, "gpu.busy_exclusive"),  # Kokkos' cudaSetDevice error(
    # cudaGetErrorString's string beside a call: hashcat's cuLinkAddData(), HPE's GTL, a CUDA sample, ReMODE's check
    ("fresh13/h32-hashcat-ptx-7-2-vs-7-1.log", 3, "runtime.unsupported_ptx"),
    ("fresh8/c66-perlmutter-srun-no-gpus-gtl-no-cuda-capable-device.log", 1, "runtime.no_device"),
    ("fresh20/t31-k80-no-kernel-image-demo.log", 3, "runtime.no_kernel_image"),
    ("fresh3/751-driver-insufficient-remode-deviceget.log", 4, "runtime.insufficient_driver"),
]


@pytest.mark.parametrize("name,number,entry", READ_ALIKE, ids=[f"{c[0]}:{c[1]}" for c in READ_ALIKE])
def test_the_general_reader_reads_what_the_entries_answer(name, number, entry):
    text = corpus_line(name, number)
    got = read(text)
    assert got is not None and got.key == entry, (got and got.key, text)
    assert [m.id for m in explain(text) if m.environment][:1] == [entry]
    assert got.name in text  # the text read, which the answer quotes


# -- the table: every status.yaml row, in the frames of real lines above
ROWS = knowledge_table("status.yaml")["runtime"]


def answering(row: dict) -> bool:
    return bool(row.get("entry")) and not row.get("verdict") and not row.get("ambiguous")


def forms(row: dict) -> list[tuple[str, str | None]]:
    """(text, the entry it must be read as, or None) for one row, each in a real line's frame."""
    entry = row.get("entry") if answering(row) else None
    out = [(f"- Error name: (<cudaError_t.cudaSuccess: 0>, b'{row['name']}')\n", entry),  # fresh6/a51:4 (cuda-python)
           (f"cuLinkAddData(): {row['string']}.\n", entry),  # fresh13/h32:3 (hashcat)
           # sampled/298:4 (bandwidthTest): a runtime call's number, read when it means the same in every release
           (f"cudaGetDeviceProperties returned {row['number']}\n",
            entry if row["number"] in _ERA_STABLE or row["number"] >= 98 else None),
           # HAMi#264 (a driver call) and numba#7187 (numba's bracket): a CUresult, when the driver API has the number
           (f"cuInit failed:{row['number']}\n", entry if row.get("driver") else None),
           (f"numba.cuda.cudadrv.driver.CudaAPIError: [{row['number']}] Call to cuInit results in UNKNOWN_CUDA_ERROR\n",
            entry if row.get("driver") else None)]
    if row.get("driver"):  # fresh21/u33:4 (ffmpeg's hwcontext_cuda)
        out.append((f"`[AVHWDeviceContext @ 0xa52500] cu->cuInit(0) failed -> {row['driver']}`.\n", entry))
    return out


TABLE = [(text, want) for row in ROWS for text, want in forms(row)]


@pytest.mark.parametrize("text,want", TABLE, ids=[t[0][:60] for t in TABLE])
def test_every_status_row_is_read_by_one_path(text, want):
    got = read(text)
    assert (got.key if got else None) == want, text


def test_every_answering_row_names_an_entry_of_the_knowledge_base():
    ids = {e["id"] for e in load_entries()}
    assert {row["entry"] for row in ROWS if answering(row)} <= ids


# -- what the reader does not read
NEAR_MISSES = [
    corpus_line("fresh/508-index-select-catr.log", 2),  # thread [101,0,0] and Indexing.cu:702: no status (negative)
    corpus_line("fresh16/p44-not-env-super-gradients-yolo-nas-labels-index-out-of-bounds.log", 6),  # thread [35,0,0]
    corpus_line("fresh12/g35-bminf-cpm-kernels-p100-sm60-no-kernel-image.log", 10),  # a traceback's line 216 by a call
    corpus_line("sampled/391-nccl-peer-access-warning-gdb.log", 2),  # cuda-gdb's hex status (0x2c0): not read
    # a program's own out-of-memory beside its file's line 83 and a cudaMalloc (fresh25/y74, a negative)
    corpus_line("fresh25/y74-cutagi-oom-memory-leak.log", 1) + corpus_line("fresh25/y74-cutagi-oom-memory-leak.log", 2),
    # ambiguous codes alone: CUDA_ERROR_INVALID_PTX as numba's [218] (fresh5/904:3), the driver API's
    # CUDA_ERROR_NOT_INITIALIZED from a JAX plugin (sampled/388:4, which its own entry answers)
    corpus_line("fresh5/904-numba-ptxas-version-6-2-cudatoolkit-9-2.log", 3),
    corpus_line("sampled/388-jax-not-initialized-plugin.log", 4),
    # numba's [-1] is no CUDA status (NVIDIA/cudf#432): the entries answer it, not the reader
    "numba.cuda.cudadrv.driver.CudaAPIError: [-1] Call to cuInit results in UNKNOWN_CUDA_ERROR\n",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_not_read(text):
    assert read(text) is None, text


@pytest.mark.parametrize("text", NEAR_MISSES[:6])
def test_near_misses_claim_nothing(text):
    assert not [m.id for m in explain(text) if m.environment], text


def test_an_ambiguous_code_answers_in_its_context_only():
    # numba's [218] alone is nothing (above); its whole log names the PTX version the driver lacks
    line = corpus_line("sampled/309-numba-ptx-63-vs-61.log", 1)
    assert "[218] Call to cuLinkAddData" in line and read(line) is None
    whole = CORPUS.joinpath("sampled/309-numba-ptx-63-vs-61.log").read_text(encoding="utf-8")
    assert [m.id for m in explain(whole) if m.environment][:1] == ["driver.jit_ptx_too_new"]


# program-bug statuses keep their verdicts, a status name in prose too (the reader never reads a verdict row)
test_program_bug_status_keeps_its_verdict = program_bug_tests([
    corpus_line("fresh12/g76-not-env-nekrs-rbc-occa-kernel-illegal-address.log", 6),  # CUDA Error [ 700 ]: ...
    corpus_line("fresh4/811-not-env-misaligned-address-taichi-global-buffer.log", 1),  # taichi, cuStreamSynchronize
    corpus_line("fresh20/t45-cupy-arange-over-2gib-illegal-address.log", 1),  # prose: "it fails with `cudaError...`"
])


# -- how the matcher uses a status reading
def _entries(change) -> list[dict]:
    entries = [dict(e) for e in load_entries()]
    for e in entries:
        change(e)
    return entries


def test_a_status_answers_only_where_its_entry_would():
    # the owner's guards hold for a status too: with driver.unknown_error told to require a word this line lacks,
    # HAMi#264's line gets no answer from it (and no generic cause-model answer for a status either)
    def guard(e: dict) -> None:
        if e["id"] == "driver.unknown_error":
            e["requires"] = ["nvidia_uvm"]

    assert [m.id for m in explain("cuInit failed:999\n", _entries(guard))] == []


def test_a_status_with_no_entry_gets_no_generic_answer():
    entries = [e for e in load_entries() if e["id"] != "driver.unknown_error"]
    assert [m.id for m in explain("cuInit failed:999\n", entries)] == []


def test_the_owner_is_routed_by_status_yaml_not_by_a_reads_key():
    def drop(e: dict) -> None:
        e.pop("reads", None)

    assert [m.id for m in explain("cuInit failed:999\n", _entries(drop))][:1] == ["driver.unknown_error"]


# -- hostile input: the patterns repeat nothing unbounded but blanks, and a long line is read in one pass
def test_new_patterns_repeat_only_blanks():
    for rx in (_CALL_STATUS, _STATUS_NAME, _BRACKET_CALL, _CALL_NAME):
        assert unbounded_beyond_blanks(rx.pattern) == [], rx.pattern


@pytest.mark.parametrize("literal", ["cuInit(", "cuInit(0) = ", "cuda", "cudaErrorNoDevice ", "CUDA_ERROR_",
                                     "cuDeviceGet returned ", "cuX(" + "0" * 50, "[100] Call to cuInit",
                                     "cuLinkAddData(): unknown error", "[1"])
def test_hostile_lines_are_read(literal):
    line = hostile_line(literal)
    explain(line)
    explain(line + "\ncuInit failed:999\n")
    read(line)
