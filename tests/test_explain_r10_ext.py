"""Issue 18, round 10, helper "ext": torch extensions, link errors and CUDA_HOME. Each entry's fix answers with
the resolutions its cause has in real threads, each labelled by the situation (a check the user runs, or a fact
the log shows). Every excerpt is quoted (trimmed) from the thread above it; the third element is a piece of the
fix that solved that thread, which the first fix line (the alternative for that thread's situation) holds.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

LINK = "link.cuda_libs_not_found"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- link.cuda_libs_not_found: ld misses a CUDA library ------------------------------------------------------
    # https://github.com/deepspeedai/DeepSpeed/issues/3929 (nvcc from the conda env, which has lib and no lib64:
    # "I copied everything in `lib` to `lib64`, and the problem is solved")
    ("[BUG] cannot find -lcurand and -lcudart\n"
     "> [1/3] /home/xuchengjin/anaconda3/envs/test/bin/nvcc  -DTORCH_EXTENSION_NAME=cpu_adam -DTORCH_API_INCLUDE_EXTENSION_H "
     "-I/home/xuchengjin/anaconda3/envs/test/lib/python3.9/site-packages/deepspeed/ops/csrc/includes "
     "-I/home/xuchengjin/anaconda3/envs/test/include",
     LINK, 'ln -s "$CONDA_PREFIX/lib" "$CONDA_PREFIX/lib64"'),
    # https://github.com/ar4/deepwave/issues/51 (the conda env's libcudart.so is in lib; `ln -s lib lib64` "WORKED")
    ("cannot find -lcudart\n"
     "Traceback (most recent call last):\n"
     '  File "/nas/home/wxu/miniconda3/envs/lsrtmdip/lib/python3.8/site-packages/torch/utils/cpp_extension.py", line 1808, in _run_ninja_build\n'
     "    subprocess.run(\n"
     "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
     LINK, 'ln -s "$CONDA_PREFIX/lib" "$CONDA_PREFIX/lib64"'),
    # https://github.com/deepspeedai/DeepSpeed/issues/5772 (cpu_adam links -lcurand with torch/lib only; copying
    # the system CUDA's libcurand.so where the link looks fixed it: the same as LIBRARY_PATH at that directory)
    ("c++ cpu_adam.o cpu_adam_impl.o -shared -lcurand -L/path/to/conda/env/lib/python3.9/site-packages/torch/lib "
     "-lc10 -ltorch_cpu -ltorch -ltorch_python -o cpu_adam.so\n/usr/bin/ld: cannot find -lcurand",
     LINK, "export LIBRARY_PATH="),
    # https://github.com/fireice-uk/xmr-stak-nvidia/issues/53 (`sudo ln -s /usr/local/cuda/lib64/libcudart.so
    # /usr/lib/libcudart.so`: the toolkit's library where ld looks)
    ("/usr/bin/ld: cannot find -lcudart_static", LINK, "export LIBRARY_PATH="),
    # https://github.com/getkeops/keops/issues/318 ("export LIBRARY_PATH=$LIBRARY_PATH:/usr/local/cuda/lib instead
    # of LD_LIBRARY_PATH solves my issue")
    ("KeOps error: ld cannot find -lnvrtc", LINK, "export LIBRARY_PATH="),
    # https://github.com/k2-fsa/k2/issues/100 (gcc from conda, nvcc the system's CUDA 10.0: `nvcc
    # -L/usr/local/cuda-10.0/lib64` links; the conda linker does not search the system toolkit)
    ("$my-local-conda-env-path/x86_64-conda_cos6-linux-gnu/bin/ld: cannot find -lcudadevrt",
     LINK, "export LIBRARY_PATH=/usr/local/cuda/lib64"),
]

test_first_answer = first_answer_tests(CASES)
