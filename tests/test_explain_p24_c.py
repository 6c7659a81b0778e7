"""Practice round 24 (helper c, a user's day of installing and switching): the misses of a practice set of public
threads, fixed as families, each with the practice log's own lines, another public thread of the family where there
is one, and a near miss that keeps its answer.

- runtime.cuda_library_not_found: "Could not load library libcublasLt.so.12. Error: ..." (cuDNN's own loader message)
  on a CUDA 11 machine whose cuDNN is the CUDA 12 build (an apt version ending +cuda12.x, or cuDNN 8.8/8.9 beside a
  CUDA 11 toolkit): cuDNN's build for CUDA 11 comes first, not the framework's CUDA 12 build. A package version's
  build tag ("-1+cuda12.0") no longer counts as a toolkit the log shows.
- driver.module_build_failed: kmod's "could not insert 'nvidia_367_uvm': Unknown symbol in module" says modprobe found
  the versioned module and the kernel refused it: the driver rebuilt for the running kernel, not the name alias that
  answers a module modprobe cannot find or place.

Left as it was: a Torch7 (Lua) "Failed to load CUDA modules. Please check the CUDA Settings." after a CUDA update
(nagadomi/waifu2x#163): one framework, long retired, and its line names no cause.

Each text is copied from the thread named above it."""

from __future__ import annotations

import re

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain import derive
from cudaenv.knowledge.kb import load_entries
from explain_answers import first_answer_tests, program_bug_tests, unbounded_beyond_blanks, hostile_line

CASES = [
    # --- runtime.cuda_library_not_found: cuDNN's CUDA 12 build on a CUDA 11 machine
    # https://github.com/jax-ml/jax/issues/14931 (the practice log: jaxlib+cuda11 with libcudnn8 8.8.0.121-1+cuda12.0;
    # `apt-get install libcudnn8=8.8.1.3-1+cuda11.8` fixed it)
    (">>> a = jnp.arange(4)\n"
     "Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: No such "
     "file or directory\n"
     "Aborted (core dumped)\n"
     "jax=0.4.6, jaxlib=0.4.6+cuda11.cudnn82\n"
     "Cuda compilation tools, release 11.8, V11.8.89\n"
     "libcudnn8-dev/unknown,now 8.8.0.121-1+cuda12.0 amd64 [installed,upgradable to: 8.8.1.3-1+cuda12.0]\n"
     "libcudnn8/unknown,now 8.8.0.121-1+cuda12.0 amd64 [installed,upgradable to: 8.8.1.3-1+cuda12.0]\n",
     "runtime.cuda_library_not_found", "Install cuDNN's build for CUDA 11 in place of the CUDA 12 one"),
    # https://github.com/PaddlePaddle/FastDeploy/issues/1325 (CUDA 11.5 and cuDNN 8.8)
    ("系统：debian 11 自编译FastDeploy，gcc 10.2, cmake 3.18，cuda 11.5, cudnn 8.8。\n"
     "=====before=====\n"
     "Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: No such "
     "file or directory\n"
     "已放弃\n",
     "runtime.cuda_library_not_found", "Install cuDNN's build for CUDA 11"),
    # https://github.com/PaddlePaddle/PaddleSeg/issues/3171 (CUDA 11.7, cuDNN 8.8; paddle's runtime 11.7)
    ("【硬件】： Nvidia GPU 4080， CUDA 11.7 cuDNN 8.8.\n"
     "Please NOTE: device: 0, GPU Compute Capability: 8.9, Driver API Version: 12.0, Runtime API Version: 11.7\n"
     "彈出錯誤: Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: No "
     "such file or directory\n",
     "runtime.cuda_library_not_found", "Install cuDNN's build for CUDA 11"),
    # near miss: a cuDNN built for CUDA 11 keeps the answer for a program built for CUDA 12
    ("Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: No such "
     "file or directory\n"
     "Cuda compilation tools, release 11.8, V11.8.89\n"
     "libcudnn8/unknown,now 8.9.7.29-1+cuda11.8 amd64 [installed]\n",
     "runtime.cuda_library_not_found", "Install the program's build for CUDA 11.8"),
    # near miss: no word of cuDNN, the same
    ("Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: No such "
     "file or directory\n"
     "Cuda compilation tools, release 11.8, V11.8.89\n",
     "runtime.cuda_library_not_found", "Install the program's build for CUDA 11.8"),

    # --- driver.module_build_failed: the versioned uvm module refused by the kernel
    # https://github.com/tensorflow/tensorflow/issues/5473 (the practice log: "it worked fine yesterday"; reinstalling
    # the driver fixed it)
    ("modprobe: ERROR: ../libkmod/libkmod-module.c:832 kmod_module_insert_module() could not find module by "
     "name='nvidia_367_uvm'\n"
     "modprobe: ERROR: could not insert 'nvidia_367_uvm': Unknown symbol in module, or unknown parameter (see dmesg)\n"
     "E tensorflow/stream_executor/cuda/cuda_driver.cc:491] failed call to cuInit: CUDA_ERROR_UNKNOWN\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:140] kernel driver does not appear to be running on this "
     "host (gzhao-b1208): /proc/driver/nvidia/version does not exist\n",
     "driver.module_build_failed", "sudo apt-get install --reinstall nvidia-367"),
    # near miss: https://github.com/NVlabs/nvbio-gpl/issues/7 (the module's package missing: "Function not implemented";
    # `apt-get install nvidia-331-uvm` fixed it) keeps the name answer
    ("modprobe: ERROR: ../libkmod/libkmod-module.c:809 kmod_module_insert_module() could not find module by "
     "name='nvidia_331_uvm'\n"
     "modprobe: ERROR: could not insert 'nvidia_331_uvm': Function not implemented\n"
     "cudaGetDeviceCount returned 30\n-> unknown error\n",
     "driver.module_build_failed", "Tell modprobe the name"),
    # near miss: https://github.com/Bumblebee-Project/Bumblebee/issues/623 ("No such device"; the alias fixed it)
    ("modprobe: FATAL: Module nvidia-uvm not found.\n"
     "modprobe: ERROR: could not insert 'nvidia_331_updates_uvm': No such device\n",
     "driver.module_build_failed", "Tell modprobe the name"),
]

test_first_answer = first_answer_tests(CASES)

# a practice log that looked like the environment and was a program bug (a kernel of torch_scatter on a GPU other than
# cuda:0, fixed in rusty1s/pytorch_scatter#436): https://github.com/rusty1s/pytorch_scatter/issues/474
NEGATIVES = [
    "When I use GPU other than the cuda:0, the following problems occur:\n"
    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be "
    "incorrect.\n"
    "pip install --no-index pyg_lib torch_scatter torch_sparse torch_cluster torch_spline_conv -f  "
    "https://data.pyg.org/whl/torch-1.13.1 +cu116.html\n",
]

test_program_bugs_stay_verdicts = program_bug_tests(NEGATIVES)


def test_a_package_build_tag_is_no_toolkit_seen():
    # "-1+cuda12.0" is the CUDA a package was built for, nvcc's release the toolkit's
    from cudaenv.knowledge.explain.text import LogText
    text = ("Cuda compilation tools, release 11.8, V11.8.89\n"
            "libcudnn8/unknown,now 8.8.0.121-1+cuda12.0 amd64 [installed]\n")
    assert derive._toolkit_other(LogText(text), "12") == "11.8"
    assert derive._toolkit_other(LogText("CUDA Version: 12.0\nCUDA 11.8\n"), "12") == ""


def test_the_cudnn_answer_names_the_toolkit_and_no_cudaenv_command():
    m = next(m for m in explain(CASES[0][0]) if m.environment)
    assert "CUDA 11.8" in m.title and m.failure == "built-for-other-version"
    assert "cudaenv " not in m.fix


# --- the new patterns stay linear on hostile input: every unbounded repeat in them is a run of blanks, so a
# 200 000-character line built from their own literals costs one pass; checked on the parsed pattern, without timing.
def _new_patterns() -> list[str]:
    entries = {e["id"]: e for e in load_entries()}
    cudnn = [v["when"]["text"] for v in entries["runtime.cuda_library_not_found"]["variants"]
             if "cuda12" in v["when"].get("text", "")]
    assert len(cudnn) == 1
    return cudnn + [derive._UVM_REFUSED.pattern]


@pytest.mark.skipif(not hasattr(re, "_parser"), reason="re._parser is Python 3.11+")
def test_the_new_patterns_repeat_only_blanks_without_bound():
    for p in _new_patterns():
        assert not unbounded_beyond_blanks(p), p


@pytest.mark.parametrize("literal", [
    "libcudnn8/unknown,now 8.8.0.121-1+cuda12.0 ", "cudnn 8.8 ", "cuDNN:8.9",
    "Could not load library libcublasLt.so.12. Error: ", "+cuda11.8 cuda 11.8 ",
    "could not insert 'nvidia_367_uvm': Unknown symbol in module ", "nvidia_367_uvm ",
])
def test_hostile_lines_of_the_new_literals_are_read(literal):
    line = hostile_line(literal)
    explain(line + "\n")
