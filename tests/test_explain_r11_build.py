"""Issue 18, round 11, helper "build": a tool's own version gate (torch's headers refuse an old compiler), answered
with the version the gate names. Every excerpt is quoted (trimmed) from the thread above it; the first environment
answer and the first line of its fix hold the fix that solved that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

GATE = "build.torch_compiler_gate"
API = "build.library_api_version"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- build.torch_compiler_gate: torch's c10 headers refuse an old gcc --------------------------------------------
    # https://github.com/pytorch/vision/issues/2509 (torchvision from source with gcc 4.8: GCC 5 or later)
    ("/bigdisk/lax/deeplearn/pytorch/torch/include/c10/util/C++17.h:16:2: error: #error \"You're trying to build "
     "PyTorch with a too old version of GCC. We need GCC 5 or later.\"\n #error \"You're trying to build PyTorch with a "
     "too old version of GCC. We need GCC 5 or later.\"\n  ^\n/bigdisk/lax/deeplearn/pytorch/torch/include/c10/util/"
     "C++17.h:24:2: error: #error You need C++14 to compile PyTorch\n #error You need C++14 to compile PyTorch",
     GATE, "gcc 5 or later"),
    # https://github.com/pyro-ppl/pyro/pull/3349 (CI with gcc 8: "we'll need to bump gcc version")
    ("Error message from CI:\n/opt/hostedtoolcache/Python/3.8.18/x64/lib/python3.8/site-packages/torch/include/c10/util/"
     "C++17.h:16:2: error: #error \"You're trying to build PyTorch with a too old version of GCC. We need GCC 9 or later.\"",
     GATE, "GCC 9 or later"),
    # https://github.com/deepspeedai/DeepSpeed/issues/5429 (NERSC Perlmutter: the system gcc; a newer gcc module)
    ("/global/u2/e/echagnon/.local/perlmutter/python-3.11/lib/python3.11/site-packages/torch/include/c10/util/C++17.h:13:2: "
     "error: #error \"You're trying to build PyTorch with a too old version of GCC. We need GCC 9 or later.\"\n #error \\\n"
     "  ^~~~~\n[2/3] c++ -MMD -MF cpu_adam.o.d -DTORCH_EXTENSION_NAME=cpu_adam -isystem /global/homes/e/echagnon/.local/"
     "perlmutter/python-3.11/lib/python3.11/site-packages/torch/include -fPIC -std=c++17 -O3 "
     "-L/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/cuda/12.4/lib64 -lcudart -lcublas",
     GATE, "module load gcc"),
    # https://github.com/deepspeedai/DeepSpeed/issues/7143 (a DeepSpeed op built in a container: GCC 9 or later)
    ("/dockerdata/lujunda/env/rft/lib/python3.12/site-packages/torch/include/c10/util/C++17.h:13:2: error: #error "
     "\"You're trying to build PyTorch with a too old version of GCC. We need GCC 9 or later.\"",
     GATE, "GCC 9 or later"),
    # https://github.com/jwyang/faster-rcnn.pytorch/issues/819 (torch 1.x TypeIndex.h wording: GCC 5 or later)
    ("/root/anaconda3/envs/py364_zhangshen_sx/lib/python3.6/site-packages/torch/include/c10/util/TypeIndex.h:31:2: "
     "error: #error \"You're running a too old version of GCC. We need GCC 5 or later.\"\nerror: command 'gcc' failed "
     "with exit status 1",
     GATE, "gcc 5 or later"),
    # --- build.library_api_version: C's wordings (gcc on a .c file) of a symbol cuDNN 8 removed ---------------------
    # https://github.com/pjreddie/darknet/issues/2245 (Jetson, cuDNN 8: "I used Fork source code
    # (https://github.com/AlexeyAB/darknet) is build success", the fork ported to cuDNN 8)
    ("./src/convolutional_layer.c:148:5: warning: implicit decalaration of function 'cudnnGetConvolutionForwardAlgorithm'; "
     "didi you mean 'cudnnGetConvolutionForwardAlgorithm_v7' ? [-Wimplicit-function-declaration]\n"
     "./src/convolutional_layer.c:153:13: error: 'CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT' undeclared (first use in "
     "this function); did you mean 'CUDNN_CONVOLUTION_FWD_ALGO_DIRECT'>\ncompilation terminated due to -Wfatal-errors.",
     API, "ported to cuDNN 8"),
]

test_first_answer = first_answer_tests(CASES)
