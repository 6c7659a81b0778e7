"""Round 23 (helper rb): residual misses of the burned fresh19-fresh22 answered as families, each with the residual
log's own lines, lines of another public thread of the same cause, and a near miss of another cause that must keep its
answer.

- ld's "cannot find -lcuda" where the log says the directory holding libcuda was put on LD_LIBRARY_PATH, which is the
  run-time loader's and not searched by ld: link.lcuda_not_found leads with LIBRARY_PATH / -L (fresh19 s63).
- nvidia-container-cli's "ldcache error" wrapped after "nvidia-container-cli:" and worded "ldcache error : process ...
  failed with error code 1": container.nvidia_cli_ldcache, not the image's CUDA requirement that the hook's command line
  also shows; its fix names the host kernel's seccomp, which the CLI's ldconfig step needs (fresh21 u40).
- Caffe's "Cannot create cuDNN handle. cuDNN won't be available." without its cuBLAS handle failing too: a context was
  made and cuDNN refused the GPU, below its minimum compute capability 3.0 (Fermi): gpu.below_library_minimum, before
  the "busy or unavailable" (fresh22 v73) or CUDNN_STATUS_BAD_PARAM that follows it on the null handle.

Each text is copied from the thread named above it."""

import re
from pathlib import Path

import pytest
from explain_answers import first_answer_tests, program_bug_tests, unbounded_beyond_blanks

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries

CORPUS = Path(__file__).parent / "data" / "explain_corpus"

# https://github.com/NVlabs/tiny-cuda-nn/issues/183 (the burned fresh19 s63)
TCNN = ("`ld: cannot find -lcuda ` \n"
        "I have cuda installed in `/usr/local/cuda-11.3` and added `/usr/local/cuda-11.3/bin` to my `$PATH` and "
        "`/usr/local/cuda-11.3/lib64/` to my `$LD_LIBRARY_PATH`. \n\n"
        "The g++ command fails since it is unable to find lcuda. I also cannot find a libcuda.so in my "
        "`/usr/local/cuda-11.3/lib64/`. I found one in `/usr/local/cuda-11.3/lib64/stubs/`, and added this path to my "
        "LD_LIBRARY_PATH, but that did not help. \n")

# https://github.com/NVIDIA/nvidia-docker/issues/552 (the burned fresh21 u40: a custom 3.10 kernel without seccomp)
NVDOCKER552 = (
    "     Error response from daemon: oci runtime error: container_linux.go:265: starting container process caused "
    "\"process_linux.go:368: container init caused \\\"process_linux.go:351: \n"
    "     running prestart hook 1 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: "
    "[/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig.real \n"
    "     --device=all --compute --utility --require=cuda>=9.0 --pid=9152 /data/docker/aufs/mnt/a5580b0483a1324f820c34"
    "0aac1c491eb869899d3e868ec51bd99c2a66a18791] \\\\\\\\nvidia-container-cli:\n"
    "     ldcache error : process /sbin/ldconfig failed with error code 1 \\\\\\\\n\\\\\\\"\\\"\". \n")

CASES = [
    (TCNN, "link.lcuda_not_found", "export LIBRARY_PATH=/usr/local/cuda/lib64/stubs${LIBRARY_PATH:+:$LIBRARY_PATH}"),
    # https://github.com/chainer/chainer/issues/2797 (`ld -lcuda --verbose` never looked in LD_LIBRARY_PATH)
    ("/usr/bin/ld: cannot find -lcuda\ncollect2: error: ld returned 1 exit status\nCannot build a stub file.\n"
     "@unnonouno You're right but I thought putting instalation path to `$LD_LIBRARY_PATH` would help `ld`?\n"
     "I ran `ld -lcuda --verbose` and `ld` said he couldn't find `cuda` in usual places, but he did not look into the "
     "places in `$LD_LIBRARY_PATH` :(\n",
     "link.lcuda_not_found", "export LIBRARY_PATH=/usr/local/cuda/lib64/stubs${LIBRARY_PATH:+:$LIBRARY_PATH}"),
    (NVDOCKER552, "container.nvidia_cli_ldcache", 'ldconfig = "@/sbin/ldconfig.real"'),
    # https://github.com/NVIDIA/nvidia-docker/issues/659 (CentOS 7.2, "# CONFIG_SECCOMP is not set")
    ("docker: Error response from daemon: oci runtime error: container_linux.go:265: starting container process caused "
     "\"process_linux.go:368: container init caused \\\"process_linux.go:351: running prestart hook 0 caused "
     "\\\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli "
     "--load-kmods configure --ldconfig=@/sbin/ldconfig --device=all --compute --utility --require=cuda>=8.0 --pid=24908 "
     "/data1/yard/docker/aufs/mnt/21e97522ec1a16f3ce86335c3485b5ac35ec32fe30b41b262972dd4eb49ac7ed]\\\\\\\\n"
     "nvidia-container-cli: ldcache error: process /sbin/ldconfig failed with error code: 1\\\\\\\\n\\\\\\\"\\\"\".\n",
     "container.nvidia_cli_ldcache", 'ldconfig = "@/sbin/ldconfig"'),
    # https://github.com/NVIDIA/DIGITS/issues/1890 (the burned fresh22 v73: "replacing the gpu card with higher compute
    # capability")
    ("WARNING: Logging before InitGoogleLogging() is written to STDERR\n"
     "E1122 12:29:18.206468  3480 common.cpp:128] Cannot create cuDNN handle. cuDNN won't be available.\n"
     "F1122 12:29:18.252681  3480 gpu_memory.cpp:152] Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable "
     "devices are busy or unavailable\n*** Check failure stack trace: ***\n",
     "gpu.below_library_minimum", "Find the GPU's compute capability"),
    # https://github.com/NVIDIA/DIGITS/issues/1584 (a Quadro 2000, Fermi: the handle missing, then BAD_PARAM)
    ("[ERROR] Train Caffe Model: Cannot create cuDNN handle. cuDNN won't be available.\n"
     "[ERROR] Train Caffe Model: Cannot create cuDNN handle. cuDNN won't be available.\n"
     "Train Caffe Model: Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)  CUDNN_STATUS_BAD_PARAM\n"
     "[ERROR] Train Caffe Model task failed with error code -6\n",
     "gpu.below_library_minimum", "below 3.0 (Fermi)"),
    # https://github.com/NVIDIA/DIGITS/issues/1659 (a GTX 460; the maintainer: "Compute capability >= 3.0 is required")
    ("Cannot create cuDNN handle. cuDNN won't be available.\n"
     "Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)  CUDNN_STATUS_BAD_PARAM\n",
     "gpu.below_library_minimum", "below 3.0 (Fermi)"),
    # -- near misses, another cause each, answered as before ----------------------------------------------------------
    # https://github.com/NVIDIA/DIGITS/issues/356 (Caffe's cuBLAS handle failed first: no context at all, the driver's
    # error 35, not cuDNN's minimum)
    ("digits.webapp: ERROR: Train Caffe Model: Cannot create Cublas handle. Cublas won't be available.\n"
     "digits.webapp: ERROR: Train Caffe Model: Cannot create Curand generator. Curand won't be available.\n"
     "digits.webapp: ERROR: Train Caffe Model: Cannot create cuDNN handle. cuDNN won't be available.\n"
     "digits.webapp: ERROR: Train Caffe Model: Check failed: error == cudaSuccess (35 vs. 0)  CUDA driver version is "
     "insufficient for CUDA runtime version\n",
     "runtime.insufficient_driver", "driver"),
    # https://github.com/NVIDIA/DIGITS/issues/2005 (a K40m in "E. Process" mode, no cuDNN line: the busy GPU)
    ("Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or unavailable\n",
     "gpu.busy_exclusive", "Give each process its own GPU"),
    # https://github.com/lm-sys/FastChat/issues/2207 (no word of LD_LIBRARY_PATH: the entry's own first fix)
    ("/usr/bin/ld: skipping incompatible /usr/lib32/libcuda.so when searching for -lcuda\n"
     "/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status\n",
     "link.lcuda_not_found", "ldconfig -p | grep libcuda"),
    # https://github.com/FloopCZ/tensorflow_cc/issues/119 (the loader, where LD_LIBRARY_PATH is the right variable: the
    # setting does not reach the program)
    ("error while loading shared libraries: libcusolver.so.9.2\n\nHi,\n\nI get the error mentioned in the title when I "
     "try to run my C++ code. I have CUDA 9.2 and cuDNN 7.1 on Ubuntu 18.04 and the path /usr/local/cuda/lib64/ (which "
     "contains the required library libcusolver.so.9.2) has been added to LD_LIBRARY_PATH.\n",
     "runtime.cuda_library_not_found", "run configuration's environment"),
    # https://github.com/k2-fsa/k2/issues/100 (the same confusion for -lcudadevrt: link.cuda_libs_not_found already
    # leads with LIBRARY_PATH)
    ("/home/storage23/qiuhaowen/anaconda3/envs/py-kaldi/bin/../lib/gcc/x86_64-conda_cos6-linux-gnu/7.3.0/../../../../"
     "x86_64-conda_cos6-linux-gnu/bin/ld: cannot find -lcudadevrt\n"
     "Yes, I noticed that, but how can I add the path as the default search path for ld? As I have added it in "
     "`LD_LIBRARY_PATH` but it does not work.\n",
     "link.cuda_libs_not_found", "LIBRARY_PATH"),
    # nvidia-container-cli's requirement error with no other CLI error (the entry's own example): the driver's answer
    ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer "
     "version, or use an earlier cuda container: unknown\n",
     "container.driver_too_old", "Install a host driver for CUDA 12.8"),
]

test_first_answer = first_answer_tests(CASES)

# a cuDNN BAD_PARAM without Caffe's failed handle stays the program's (the verdict's own example)
test_program_bugs_stay_verdicts = program_bug_tests(["RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM\n"])


@pytest.mark.parametrize("path,want", [
    ("fresh19/s63-tcnn-bindings-lcuda-conda.log", "link.lcuda_not_found"),
    ("fresh21/u40-nvidia-docker2-ldcache-custom-kernel.log", "container.nvidia_cli_ldcache"),
    ("fresh22/v73-digits-caffe-busy-old-gpu.log", "gpu.below_library_minimum"),
])
def test_the_residual_logs_are_answered_by_their_family(path, want):
    found = [m for m in explain((CORPUS / path).read_text()) if m.environment]
    assert found and found[0].id == want, [m.id for m in found]


def test_the_ld_answer_says_why_ld_library_path_did_nothing():
    m = next(m for m in explain(TCNN) if m.environment)
    assert "LD_LIBRARY_PATH" in m.title and "run-time loader" in m.cause
    # the thread's own fix (the driver's plain libcuda.so where a conda linker looks) is the next line
    assert '$CONDA_PREFIX/lib/' in m.fix.splitlines()[1]


def test_the_ldcache_answer_names_the_kernels_seccomp():
    m = next(m for m in explain(NVDOCKER552) if m.environment)
    assert "CONFIG_SECCOMP" in m.fix
    assert not [f.id for f in explain(NVDOCKER552) if f.id == "container.driver_too_old"]


# --- the new and changed regexes stay linear on hostile input: every unbounded repeat in them is a run of blanks, so a
# 200 000-character line built from their own literals costs one pass; checked on the parsed pattern, without timing.
def _ours() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    lcuda = [v["when"]["text"] for v in entries["link.lcuda_not_found"]["variants"]
             if "LD_LIBRARY_PATH" in v["when"].get("text", "")]
    ldcache = [p for p in entries["container.nvidia_cli_ldcache"]["patterns"] if "error ?:" in p]
    unless = [p for p in entries["container.driver_too_old"]["unless"] if "ldcache" in p]
    caffe = [p for p in entries["gpu.below_library_minimum"]["patterns"] if "caffe_cudnn" in p]
    assert len(lcuda) == 1 and len(ldcache) == 1 and len(unless) == 1 and len(caffe) == 1
    return lcuda + ldcache + unless + caffe


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _ours():
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "added to my $LD_LIBRARY_PATH ", "putting in the `LD_LIBRARY_PATH ", "cannot find -lcuda added ",
    "nvidia-container-cli: ldcache error : process /", "nvidia-container-cli:   ", "process /sbin/ldconfig failed ",
    "Cannot create cuDNN handle. cuDNN won't be available. ",
])
def test_hostile_lines_of_the_new_literals(literal):
    line = (literal * (200_000 // len(literal) + 1))[:200_000]
    explain(line + "\n")  # answers (or not) without error; the bound above is what keeps it one pass
    for p in _ours():
        re.compile(p).search(line)
