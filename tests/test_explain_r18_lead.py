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


# -- the matcher's pre-filters (text.py): sound, so they can only save time, never lose a match

def test_a_group_every_match_passes_through_gives_its_literal():
    from cudaenv.knowledge.explain.text import required_literal

    assert required_literal(r"(?P<ordinal>cudaErrorInvalidDevice)\b") == "cudaErrorInvalidDevice"
    assert required_literal(r"(?P<side>remote|local)=\[(?P<addr>127\.0\.[01]\.1)\]") == "127.0."
    assert required_literal(r"(?:libcudart)+\.so") == "libcudart"
    # optional groups, look-arounds, flag groups and global flags give no literal from inside them
    for pattern in [r"(?:libcudart)?\.so", r"(?:libcudart)*x", r"(?:libcudart){0,2}x", r"(?=libcudart)\w+",
                    r"(?!libcudart)\w+", r"(?<=libcudart)\w+", r"(?i:libcudart)\.so", r"(?i)libcudart\.so",
                    r"(?P=name)ab", r"(?:a|libcudart)x"]:
        assert "libcudart" not in (required_literal(pattern) or ""), pattern


def test_every_literal_is_in_every_match():
    """For every pattern of the knowledge base with a literal, each example of its entry that the pattern matches
    holds that literal (the literal is what the matcher looks for before it tries the pattern)."""
    import re

    from cudaenv.knowledge import kb
    from cudaenv.knowledge.explain.text import required_literal

    checked = 0
    for entry in kb.load_entries():
        for pattern in entry["patterns"]:
            lit = required_literal(pattern)
            for example in entry.get("examples") or ():
                m = re.search(pattern, example, re.MULTILINE)
                if m is not None and lit is not None:
                    assert lit in m.group(0), (entry["id"], pattern, lit)
                    checked += 1
    assert checked > 300


def test_shapes_never_hide_a_piece_of_a_word():
    """may_contain with the digit shapes answers as the text does, for pieces of words with digits in them."""
    import random

    from cudaenv.knowledge.explain.text import LogText, may_contain

    rng = random.Random(18)
    alphabet = "ab.1234567890_-/"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    text = "\n".join(" ".join(words[i:i + 7]) for i in range(0, len(words), 7)) + "\n" + "x" * (1 << 16)
    t = LogText(text)
    for _ in range(3000):
        w = rng.choice(words)
        a = rng.randrange(len(w))
        piece = w[a:rng.randint(a + 1, len(w))]
        assert may_contain(piece, t.words(), t.joined_words(), t.text, t.shapes())
    for _ in range(3000):
        needle = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 6)))
        assert may_contain(needle, t.words(), t.joined_words(), t.text, t.shapes()) == (needle in t.text), needle
