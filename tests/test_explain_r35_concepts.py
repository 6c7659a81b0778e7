"""Round 35: a known cause in a producer's own plain words (knowledge/concepts.yaml, read by explain/generic.py).

The censuses of rounds 17-34 (bench/census/) count the misses of known causes in other words as the largest class;
runtime.no_kernel_image, runtime.insufficient_driver and the no-GPU and library-loading causes lead it. A concept reads
what a line is about and what went wrong, both on one line, whatever the sentence: each concept is tested here on the
wordings that reached the census (real, marked with their thread) and on wordings a program could print that no
entry's pattern holds (written here, marked "written"), with the sentences it must leave alone: a program's advice
("Update your graphics driver" when the driver was too new), a driver read as 0.0, a CPU fallback, a program bug.
"""
import re

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import knowledge_table

R35_CONCEPT_CASES = [
    # -- no code for this GPU
    # written: a prebuilt binary's own check
    ("ERROR: this binary was not compiled for compute capability 8.6\n", "runtime.no_kernel_image", "compute_cap"),
    # written: a loader that lists the fatbin's targets
    ("No binary for GPU architecture sm_89 found in the fatbin\n", "runtime.no_kernel_image", "compute_cap"),
    # written: a kernel library's launch check
    ("Kernel not built for this GPU (compute capability 7.5)\n", "runtime.no_kernel_image", "compute_cap"),
    # written
    ("Fatal: GPU arch 61 is not supported by this build\n", "runtime.no_kernel_image", "compute_cap"),
    ("This build does not contain code for your GPU (sm_120). Please rebuild.\n", "runtime.no_kernel_image", ""),
    ("RuntimeError: CUDA kernel compiled for sm_80 cannot run on device with capability 7.0\n",
     "runtime.no_kernel_image", ""),
    ("[ERROR] No compatible CUDA kernel found for device 0 (compute capability 5.2)\n", "runtime.no_kernel_image", ""),
    # -- PTX newer than the driver
    # written
    ("The PTX was compiled with a newer CUDA than the driver supports\n", "runtime.unsupported_ptx", ""),
    ("ERROR: ptx compiled by a newer toolchain, cannot load module (driver too old)\n", "runtime.unsupported_ptx", ""),
    # -- a driver older than the CUDA
    # xmr-stak's own words (fireice-uk/xmr-stak#545, fresh30 o61)
    ("[2018-06-02 10:07:36] : WARNING: NVIDIA Insufficient driver!\n", "runtime.insufficient_driver", ""),
    # written
    ("Error: Your NVIDIA driver is too old (found version 470). Please update your GPU driver.\n",
     "runtime.insufficient_driver", ""),
    ("The installed NVIDIA driver (version 450.80) does not support CUDA 12.1\n", "runtime.insufficient_driver", ""),
    ("This application requires NVIDIA driver >= 525.60.13, found 470.82.01\n", "runtime.insufficient_driver", ""),
    ("E: cuda runtime 12.4 needs a newer driver than the installed one (535)\n", "runtime.insufficient_driver", ""),
    # -- no GPU visible
    # written
    ("Error: no NVIDIA GPU found on this system\n", "runtime.no_device", "nvidia-smi"),
    ("[fatal] Found 0 CUDA devices\n", "runtime.no_device", "nvidia-smi"),
    ("RuntimeError: zero CUDA-capable devices were detected\n", "runtime.no_device", "nvidia-smi"),
    # -- a host gcc newer than the toolkit accepts (the limit is the CUDA's the line names)
    # written
    ("error: host compiler gcc 13.2 is too new for CUDA 11.8 (max supported: 11)\n", "nvcc.gcc_too_new", "g++-11"),
    ("CMake Error: The CUDA host compiler version 14.1 is not supported by nvcc 12.2\n", "nvcc.gcc_too_new", "g++-12"),
    # -- NVML that a tool cannot load
    # ngputop's words (JeremyMain/ngputop#16, fresh35 ac71)
    ("NVML library is not installed or not found\n", "loader.nvml_library_missing", ""),
    # written
    ("gpustat: failed to load NVML shared library\n", "loader.nvml_library_missing", ""),
    # -- [r35] netv's NVENC check (jvdillon/netv#42, the practice p050): an entry's pattern, not a concept
    ("NVENC (h264_nvenc): unavailable\nRequired: NVENC API 13.0\nFound: 12.2\n"
     "Minimum required Nvidia driver is 570.0 or newer\n", "driver.nvenc_api_too_old", ""),
]

test_first_answer = first_answer_tests(R35_CONCEPT_CASES)


#: Lines a concept must leave alone: (text, the id that must not come first, why).
LEFT_ALONE = [
    # Accelerad's advice when the 590 driver had dropped OptiX 6 (nljones/Accelerad#11, fresh31 j73: a driver too new)
    ("accelerad_rpict: internal - Error reading OptiX library. Update your graphics driver.\n",
     "runtime.insufficient_driver"),
    # NVEncC 3.15 misread the driver as 0.0 (rigaya/NVEnc#12, the practice p033 negative)
    ("> Insufficient NVIDIA driver version, Required 378.66, Installed 0.0\n", "runtime.insufficient_driver"),
    # written: a program that goes on without a GPU says so, it did not fail
    ("Warning: no NVIDIA GPU detected, continuing on the CPU\n", "runtime.no_device"),
    # written: an AMD GPU's runtime
    ("hipErrorNoBinaryForGpu: no binary for GPU architecture gfx1030 (not compiled for this device)\n",
     "runtime.no_kernel_image"),
    # written: clang is not gcc; a compiler too old is not one too new
    ("error: host compiler clang 18 is not supported by CUDA 12.2\n", "nvcc.gcc_too_new"),
    ("error: gcc 4.8 is too old for CUDA 11.8: at least gcc 6 is required\n", "nvcc.gcc_too_new"),
    # written: a gcc with no CUDA named: no limit to give
    ("error: the host compiler gcc 14 is too new\n", "nvcc.gcc_too_new"),
    # written: a program bug beside the words (a device-side assert)
    ("RuntimeError: CUDA error: device-side assert triggered\nkernel not built for this GPU? no: index out of range\n",
     "runtime.no_kernel_image"),
]


@pytest.mark.parametrize("text,not_id", LEFT_ALONE, ids=[f"left-{n}" for n in range(len(LEFT_ALONE))])
def test_concept_leaves_it_alone(text: str, not_id: str) -> None:
    found = explain(text)
    assert not found or found[0].id != not_id, (found[0].id, found[0].title)


#: The cases above an entry's own pattern answers (it read them before this round: xmr-stak's line since round 30,
#: netv's since this one); every other is answered through a concept.
_BY_ENTRY = ("NVIDIA Insufficient driver!", "Required: NVENC API")


@pytest.mark.parametrize("n", [n for n, c in enumerate(R35_CONCEPT_CASES) if not any(s in c[0] for s in _BY_ENTRY)])
def test_concept_answer_is_whole_and_marked(n: int) -> None:
    """An answer given through a concept says it is a generic reading and fills every slot of its entry's text."""
    text = R35_CONCEPT_CASES[n][0]
    m = explain(text)[0]
    assert m.title.startswith("generic reading: "), m.title
    assert m.values.get("confidence") == "generic"
    for part in (m.title, m.cause, m.fix):
        assert not re.search(r"\{\w+\}|<\w+>", part), part
        assert not re.search(r"(?:gcc|g\+\+-|version) [),.]|g\+\+-[` ]", part), part


def test_concepts_table_is_sound() -> None:
    """Every concept names an entry that exists, its patterns compile, and it is tested above."""
    from cudaenv.knowledge.kb import load_entries

    ids = {e["id"] for e in load_entries()}
    doc = knowledge_table("concepts.yaml")
    re.compile(doc["mark"])
    tested = {c[1] for c in R35_CONCEPT_CASES}
    for c in doc["concepts"]:
        assert c["entry"] in ids, c["name"]
        assert c["entry"] in tested, c["name"]
        for p in c["all"] + [c.get("unless") or "", c.get("values") or ""]:
            re.compile(p)
        assert c["cues"] and all(cue == cue.lower() for cue in c["cues"]), c["name"]
    # each case a concept answers holds one of its cues (a line without one is never read)
    for text, want, _fix in R35_CONCEPT_CASES:
        for c in doc["concepts"]:
            if c["entry"] == want and re.search(c["all"][0], text) and all(re.search(p, text) for p in c["all"][1:]):
                assert any(cue in text.lower() for cue in c["cues"]), (c["name"], text)
