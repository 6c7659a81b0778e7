"""Round 22, helper "cat": the toolchain's own messages read from the test bed's programs (the strings of nvcc, cicc,
ptxas, nvlink, fatbinary and cudafe++ of CUDA 11.8, 12.4 and 13.5; GNU ld's and glibc's gettext catalogues), whose
catalogue is tests/data/explain_producers/toolchain.yaml. Here: the real threads behind the one new cause, and the
readings the round changed, each with a near miss.

- loader.cuda_library_file_damaged: a CUDA library file that is there but is not a library (glibc's "invalid ELF
  header", ld's "file not recognized: File truncated" / "treating as linker script"): a damaged download, a
  symbolic link turned into text, a Git LFS pointer.
- nvcc.unknown_option: an nvcc option of a newer release (from the newer nvcc's option table) is the old nvcc's
  lack, not a host flag to forward.
- the generic reading: the toolkit program that speaks a warning is not the missing one.
"""

import pytest

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/niuchuangnn/SPICE/issues/4 (a conda environment's CUDA library at `import torch`)
    ("""  File "/home/anders/anaconda3/lib/python3.8/site-packages/torch/__init__.py", line 141, in _load_global_deps
    ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)
  File "/home/anders/anaconda3/lib/python3.8/ctypes/__init__.py", line 381, in __init__
    self._handle = _dlopen(self._name, mode)
OSError: /home/anders/anaconda3/lib/python3.8/site-packages/torch/lib/../../../../libcufft.so.10: invalid ELF header""",
     "loader.cuda_library_file_damaged", "ls -l"),
    # https://github.com/pytorch/pytorch/issues/588 (a cuDNN download that was damaged; a fresh one fixed it)
    ("/usr/local/cuda/lib64/libcudnn.so: file not recognized: File truncated",
     "loader.cuda_library_file_damaged", "conda clean --packages"),
    # https://github.com/Dao-AILab/flash-attention/issues/1750 (setup.py passes an option of CUDA 12.8's nvcc)
    ("nvcc fatal: Unknown option '-compress-mode=size'", "nvcc.unknown_option", "Build with the toolkit the build expects"),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("text, not_id", [
    # a library that is no CUDA library (https://github.com/easydiffusion/easydiffusion/issues/500): not this cause's
    ("OSError: /opt/sd/env/lib/python3.8/site-packages/torch/lib/../../../../libmkl_core.so: invalid ELF header",
     "loader.cuda_library_file_damaged"),
    # a host compiler's flag handed to nvcc stays the forwarding answer
    ("nvcc fatal   : Unknown option '-fopenmp'", None),
])
def test_near_misses_keep_off(text: str, not_id: str | None) -> None:
    found = [m for m in explain(text) if m.environment]
    if not_id:
        assert not_id not in [m.id for m in found]
    else:
        assert found and found[0].id == "nvcc.unknown_option" and "-Xcompiler" in found[0].fix.splitlines()[0]


@pytest.mark.parametrize("text", [
    "nvcc warning : Cannot find valid GPU for '-arch=native', default arch is used",
    "nvlink warning : SM Arch ('sm_52') not found in 'libcugraph_part.a:graph.o'",
])
def test_the_program_that_speaks_is_not_the_missing_one(text: str) -> None:
    assert not [m.id for m in explain(text) if m.environment]


def test_a_makefiles_own_ptxas_call_is_not_an_incomplete_toolkit() -> None:
    # nvcc runs its stages through "sh"; a Makefile's recipe through "/bin/sh": there ptxas is off PATH
    assert explain("sh: 1: ptxas: not found")[0].id == "nvcc.cicc_missing"
    assert explain("/bin/sh: 1: ptxas: not found")[0].id != "nvcc.cicc_missing"
