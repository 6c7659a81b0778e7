"""Round 18, the lead's changes to explain's answers (real excerpts, sources in comments)."""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # NVIDIA/cuda-samples#388 (fresh17 q05, burned): CUDA 12.9 refuses compute_110 (Thor's, first in 13.0) from the
    # samples' architecture list on an RTX 5070 (sm_120, which 12.9 compiles for). The GPU does not need it: the list
    # loses 110 (the thread's workaround), or the toolkit becomes 13.0.
    ("""OS: Ubuntu 22.04.5 LTS, kernel 6.8.0-79-generic
CUDA Toolkit: 12.9 (V12.9.86)
GPU: NVIDIA GeForce RTX 5070
Driver: 580.65.06
Run `cmake ..` with the default `CMakeLists.txt` (architectures include `75 80 86 87 89 90 100 110 120`).
nvcc fatal   : Unsupported gpu architecture 'compute_110'
""", "nvcc.unsupported_arch", "Take compute_110 out of the build's architecture list"),
    # guard: an H100 (sm_90, first in CUDA 11.8) under CUDA 11.7 refusing compute_89 needs the newer toolkit anyway,
    # since 11.7 does not compile for the GPU's own architecture either
    ("""Cuda compilation tools, release 11.7, V11.7.99
GPU 0: NVIDIA H100 PCIe (compute capability 9.0)
nvcc fatal   : Unsupported gpu architecture 'compute_89'
""", "nvcc.unsupported_arch", "Build with CUDA 11.8 or newer"),
]

test_first_answer = first_answer_tests(CASES)
