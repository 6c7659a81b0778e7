"""Round 36's tuning on the burned fresh41 (judged at 0fa7e66: 3/6 right first), widened into a family.

- CMake's own identification file failing with many front-end errors and no versions shown: the host compiler's
  headers (fresh41 ai61: ggml-org/llama.cpp, gcc 16 with CUDA 13.2, gcc 15 fixed it).
(ai62, a negative whose answer is a missing toolkit header, and ai64, MVAPICH2's configure without a driver while an
image builds, stay: the log alone cannot tell them.)
"""
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

T41_CASES = [
    # fresh41 ai61's lines
    (('  Error limit reached.\n\n  100 errors detected in the compilation of "CMakeCUDACompilerId.cu".\n\n'
      "  Compilation terminated.\n\n  # --error 0x4 --\n\nCall Stack (most recent call first):\n"
      "  /usr/share/cmake/Modules/CMakeDetermineCUDACompiler.cmake:163 (CMAKE_DETERMINE_COMPILER_ID)\n"),
     "cmake.cuda_compiler_id_failed", "CMAKE_CUDA_HOST_COMPILER"),
    # a path before the file's name
    ('3 errors detected in the compilation of "/tmp/build/CMakeFiles/3.28.1/CompilerIdCUDA/CMakeCUDACompilerId.cu".\n',
     "cmake.cuda_compiler_id_failed", "CMAKE_CUDA_HOST_COMPILER"),
]

test_first_answer = first_answer_tests(T41_CASES)


def test_a_project_file_with_errors_is_not_cmakes_identification():
    """Errors in the project's own .cu file are not read as the identification step."""
    log = '100 errors detected in the compilation of "src/kernels.cu".\n'
    assert not [m for m in explain(log) if m.id == "cmake.cuda_compiler_id_failed"]
