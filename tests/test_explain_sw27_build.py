"""Sweep 27, the build side (compiler, linker): burned misses grouped by family.

gcc 5's mwaitxintrin.h (__builtin_ia32_monitorx / mwaitx) fails only in the nvcc of CUDA 7.5 and older: CUDA 8.0 is the
first made for gcc 5. With no CUDA version in the log the nvcc that ran is still the old side, so a newer CUDA (or the
newer one already installed, shadowed on PATH) comes first and -D_MWAITXINTRIN_H_INCLUDED second.

nvcc's "Value 'sm_NN' is not defined for option 'gpu-architecture'" retyped as 'cpu-architecture' (no nvcc option has
that name) is the same refusal."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# simonmeister/UnFlow#21 (fresh23 w06): the one line; PATH picked an older CUDA than the one installed
UNFLOW_21 = ('/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier '
             '"__builtin_ia32_monitorx" is undefined\n')
# amazon-archives/amazon-dsstne#28 (fresh24 x06): CUDA 7.5 with gcc 5, "fixed by CUDA 8 and later" (the flag a workaround)
DSSTNE_28 = ('/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(36): error: identifier '
             '"__builtin_ia32_monitorx" is undefined\n'
             '/usr/lib/gcc/x86_64-linux-gnu/5/include/mwaitxintrin.h(42): error: identifier '
             '"__builtin_ia32_mwaitx" is undefined\n')


def test_mwaitx_without_a_version_leads_with_a_newer_cuda():
    for log in (UNFLOW_21, DSSTNE_28):
        first = _first(log)
        assert first["id"] == "nvcc.host_headers_unsupported"
        lines = first["fix"].splitlines()
        assert lines[0].startswith("Build with a newer CUDA made for this gcc (CUDA 8.0 is the first for gcc 5"), lines[0]
        assert "which -a nvcc" in lines[0]
        assert "-D_MWAITXINTRIN_H_INCLUDED" in lines[1]


def test_near_miss_mwaitx_with_cuda_75_shown_keeps_its_answer():
    # NVIDIA/AMGX#9 (fresh17 q70): the log shows CUDA 7.5 and gcc 5: the gcc_fit variant, unchanged
    log = ("/usr/local/cuda-7.5/bin/nvcc -ccbin=/usr/bin/gcc-5 -c foo.cu\n"
           "gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.4)\n" + UNFLOW_21)
    first = _first(log)
    assert first["id"] == "nvcc.host_headers_unsupported"
    assert not first["fix"].startswith("Build with a newer CUDA made for this gcc")


# cryoem-uoft/cryosparc-issues#131 (fresh24 x67): sm_61 on CUDA 7.5, the option's name retyped; install CUDA 8.0
CRYOSPARC_131 = ("nvcc fatal : Value 'sm_61' is not defined for option 'cpu-architecture'\n\n"
                 "ExecError: error invoking 'nvcc --preprocess -arch sm_52 -I/software/cryosparc/anaconda2/lib/"
                 "python2.7/site-packages/pycuda/cuda /tmp/tmpUI_Ndf.cu --compiler-options -P': [Errno 2] No such file "
                 "or directory\n")


def test_cpu_architecture_retyped_is_the_arch_refusal():
    first = _first(CRYOSPARC_131)
    assert first["id"] == "nvcc.unsupported_arch"
    assert first["title"] == "this nvcc cannot compile for sm_61"
    assert "an nvcc older than 8.0" in first["fix"].splitlines()[0]


def test_near_miss_other_options_are_not_arch_refusals():
    ids = [m.id for m in explain("nvcc fatal : Value 'x86' is not defined for option 'machine-architecture'\n")]
    assert "nvcc.unsupported_arch" not in ids


def test_hostile_lines_are_cheap():
    for literal in ("Value 'sm_61' is not defined for option 'cpu-", "mwaitxintrin.h(36): error: identifier "):
        explain(hostile_line(literal))
