"""Round 16, helper "ide": a program started by an IDE, a notebook kernel or tmux does not get the shell's environment.

The same program works from the terminal and fails under PyCharm, VS Code, a Jupyter/nteract kernel or a tmux server
with a "not found" (a CUDA library, nvcc or the toolkit, CUDA_HOME): the launcher was started with another environment
(`shell.launcher_env_not_inherited`, the `launcher` fact of explain/extract.py). Real excerpts (verbatim, trimmed), each
with its thread. GUARDS: near misses that keep their answers (a launcher named without the terminal working, the
terminal working without a launcher, a program bug in a notebook).
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.extract import facts
from cudaenv.knowledge.explain.text import LogText
from explain_answers import first_answer_tests

E = "shell.launcher_env_not_inherited"

CASES = [
    # https://github.com/tensorflow/tensorflow/issues/9530 (started PyCharm from the shell: `charm`)
    ("""I get the following error when I try to run a python program:

`ImportError: libcudnn.so.5: cannot open shared object file: No such file or directory`

I did checked the solutions on Stackoverflow and I managed to run the same program in Terminal. What I did is I made an virtualenv and I activated it and when I try using python3 to run the program it successfully proceeds without any error. However the error always appear when I run the program in PyCharm even with python interpreter set to the location of virtualenv I created. Can someone tell me why as I had no idea why it works in terminal but not with PyCharm.""",
     E, "Run > Edit Configurations > Environment variables"),
    # https://github.com/kkhoot/PAA/issues/22 (libcudart from the IDE only)
    ("""from paa_core import _C ImportError: libcudart.so.9.2: cannot open shared object file: No such file or directory
when I use the terminal run the train_net.py ,it can running correctly,but when I use the pycharm IDE run the train_net,it will occur this problem!""",
     E, "Run > Edit Configurations > Environment variables"),
    # https://github.com/mlc-ai/mlc-llm/issues/2888 (libnvrtc from PyCharm, the terminal works)
    ("""when i try to run script in pycharm, i got an error OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory,but when i run script in terminal, it worked. why?""",
     E, "PyCharm started from the desktop"),
    # https://github.com/nerfstudio-project/nerfacc/issues/208 (the shell's PATH into PyCharm's environment variables)
    ("""When I run the code using pycharm, I get the following error message: NerfAcc: No CUDA toolkit found. NerfAcc will be disabled.
, but it succeeds when using the command line.""",
     E, "Run > Edit Configurations > Environment variables"),
    # https://github.com/jupyterhub/the-littlest-jupyterhub/issues/208 (a notebook kernel, the terminal works)
    ("""i installed tensorflow-gpu and all necessary drivers, CUDA and cuDNN.
`import tensorflow` works in the terminal but not in a TLJH notebook.
I get the following error:
`ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory`""",
     "loader.notebook_env", "c.Spawner.environment"),  # the notebook entry of round 13 keeps its JupyterHub answer
    # https://github.com/facebookarchive/iTorch/issues/160 (Jupyter vs the command line, libcudnn R5)
    ("""I'm trying to run the following:
require 'cudnn'
and getting an error in Jupyter (see below). However, when run from command line
(torch=> require cudnn), everything works fine.
CUDNN_PATH is declared in my .bashrc and points to the right location.

...ree/home/shayo/torch/install/share/lua/5.1/cudnn/ffi.lua:1603: 'libcudnn (R5) not found in library path.""",
     E, "kernel.json"),
    # https://github.com/jupyter/notebook/issues/4621 (libcublas in the notebook, ipython and the prompt work)
    ("""So my problem is that on jupyter notebook, when I try to import tensorflow, I got following problem:
ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory
However, when I try to import tensorflow on both `ipython` and command prompt, they all work fine.""",
     E, "kernel.json"),
    # https://github.com/nteract/archived-desktop-app/issues/2054 (Windows: the DLL's folder into the system %PATH%)
    ("""I created a new kernel to run tensorflow. When I run the kernel on the command line, or in jupyter notebook, I can import tensorflow without issue. On a Windows 10 version of nteract I get this issue: "ImportError: Could not find 'cudnn64_6.dll'. TensorFlow requires that this DLL be installed in a directory that is named in your %PATH% environment variable.\"""",
     E, "System Properties > Environment Variables"),
    # https://github.com/JuliaGPU/CUDAnative.jl/issues/469 (tmux kill-server)
    ("""Same machine. Without tmux building was fine. Building in tmux gives me
ERROR: LoadError: Available CUDA toolchain does not provide libdevice""",
     E, "tmux kill-server"),
]

GUARDS = [
    # a launcher named, but nothing says the terminal works: the library's own answer stays
    # https://github.com/andersbll/cudarray/issues/35 (PyCharm in the title; libcudart not found after a build)
    ("""Install Problems Ubuntu 14.04 with cuDNN and CUDA 7.5, Anaconda2, PyCharm IDE, numpy 1.10
ImportError: libcudart.so.7.5: cannot open shared object file: No such file or directory""",
     "runtime.libcudart_not_found", ""),
    # the terminal works, no launcher: sudo's own entry keeps it (speedinghzl/CCNet#56, a build under sudo)
    ("""$ sudo sh build.sh
build.sh: 11: build.sh: nvcc: not found
nvcc works fine in my terminal""",
     "shell.sudo_env_reset", ""),
]


test_first_answer = first_answer_tests(CASES)
test_guards = first_answer_tests(GUARDS)


@pytest.mark.parametrize("text,want", [
    ("File \"/opt/pycharm-2023/plugins/python/helpers/pydev/pydevd.py\", line 1", "pycharm"),
    ("/home/u/.vscode/extensions/ms-python.debugpy-2024.0.0/bundled/libs/debugpy", "vscode"),
    ("python -m ipykernel_launcher -f /run/user/1000/jupyter/kernel-1.json", "jupyter"),
    ("Building in tmux gives me", "tmux"),
    ("I run it from the IDE", "ide"),
    ("ImportError: libcudart.so.11.0: cannot open shared object file", ""),
])
def test_launcher_fact(text: str, want: str) -> None:
    assert facts(LogText(text))["launcher"] == want


def test_program_bug_in_a_notebook_stays_unclaimed() -> None:
    # a shape bug in a notebook, with the terminal "working": no not-found, so no environment cause from this entry
    text = ("In jupyter notebook I get RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)\n"
            "the same script works fine in the terminal")
    assert E not in [m.id for m in explain(text)]
