"""Round 34's tuning on the burned fresh36 (judged at f5c9ded: 18/30 right first), widened into families.

Each family is tested in the fresh36 log's own words (marked) and in others, with the counter-case that keeps its
earlier answer:
- two nvcc options the build joined into one argument ('Xcompiler -fPIC');
- cuDNN's CUDNN_STATUS_VERSION_MISMATCH (two releases loaded together);
- a library file that is there but is not a whole library (glibc's "file too short");
(fresh36 ad37, CTranslate2's "Unable to load any of {libcudnn_ops.so.9...} Invalid handle. Cannot load symbol", stays
undecided: fresh24's x35 printed the same two lines with no cuDNN 9 installed at all, ad37 with a 9.1 older than the
build's 9.2; the answer's "find it, else install it" serves the first.)
"""
from explain_answers import first_answer_tests

T36_CASES = [
    # fresh36 ad13's line (pytorch/pytorch's CMake quoting "-Xcompiler -fPIC")
    (("    nvcc fatal   : Unknown option 'Xcompiler -fPIC'\n"),
     "nvcc.unknown_option", "Split it where the build sets it"),
    # another pair joined the same way
    (("nvcc fatal   : Unknown option '-Xcompiler -Wall'\n"),
     "nvcc.unknown_option", "Split it where the build sets it"),
    # a single unknown option keeps the forwarding answer
    (("nvcc fatal   : Unknown option '-Wall'\n"),
     "nvcc.unknown_option", "Pass host-compiler flags through nvcc"),
    # fresh36 ad32's line (whisper-diarization with an extra nvidia-cudnn-cu12 wheel)
    (("RuntimeError: cuDNN error: CUDNN_STATUS_VERSION_MISMATCH\n"),
     "cudnn.version_mismatch_status", "Let the framework's own cuDNN load"),
    # fresh36 ad34's line (CNTK with a truncated copy of libcudnn.so.6)
    (("/usr/local/cuda/lib64/libcudnn.so.6: file too short\n"),
     "loader.cuda_library_file_damaged", "`file"),
    # a symlink copied as text
    (("ImportError: /opt/venv/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.12: invalid ELF header\n"),
     "loader.cuda_library_file_damaged", "`file"),
    # the driver's own libcuda keeps its answer
    (("ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short\n"),
     "container.driver_lib_placeholder", ""),
]

test_first_answer = first_answer_tests(T36_CASES)
