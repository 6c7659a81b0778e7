"""Round 13, engine: classes of wrong first answers that recur across layers, fixed where the answer is chosen.

- A state the user has moved past: the user's own narration says a change brought another error ("I therefore tried to
  change path of CUDA to /usr, and got this mistake:"), so a cause found only above that line is answered after the
  causes found below it (matcher ``_superseded_last``).
- A fix that contradicts the log: the torch wheel index offered for a driver that runs CUDA 12.x at most is the newest
  one at or below it (cu124 for 12.4), not a newer 12.x one (derive ``_torch_tag_for_driver``).
- Loader leftovers: torch's own TH library missing a TH symbol after a source build over an old conda/pip torch.

Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- a superseded error: the user's narration moves past it ---------------------------------------------------------
    # guards (caffe#2728's narration reworded over a missing header, not a thread's words; not its 'nvcc: Command not
    # found', which a later "nvcc fatal" supersedes by the data alone, an nvcc having run): the narration says the
    # error stayed ("the same error"): nothing is superseded, even where the next lines show another cause only
    ("src/caffe/layers/inner_product_layer.cu:1:10: fatal error: cuda_runtime.h: No such file or directory\n"
     "compilation terminated.\n\n"
     "I tried to change path of CUDA to /usr, but got the same error, and this one:\n\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_50'",
     "build.cuda_header_missing", ""),
    # the change did not help and the first error is there again: it stays first
    ("src/caffe/layers/inner_product_layer.cu:1:10: fatal error: cuda_runtime.h: No such file or directory\n"
     "compilation terminated.\n\n"
     "I tried to change path of CUDA to /usr, but still get the same error:\n\n"
     "src/caffe/layers/inner_product_layer.cu:1:10: fatal error: cuda_runtime.h: No such file or directory\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_50'",
     "build.cuda_header_missing", ""),
    # https://github.com/pytorch/pytorch/issues/2514 (libTHD, then after NO_DISTRIBUTED=1 "at least a different error"
    # in libATen: the same cause, answered once; soumith: `python setup.py clean`)
    ("ImportError: /opt/develop/privat/zuff/env3/lib/python3.5/site-packages/torch/lib/libTHD.so.1: undefined symbol: "
     "_ZN4gloo13EnforceNotMetC1EPKciS2_RKSs\n\nAhh thanks i will try `NO_DISTRIBUTED=1`\n\nat least a different error:\n"
     "`ImportError: /opt/develop/privat/zuff/env3/lib/python3.5/site-packages/torch/lib/libATen.so.1: undefined symbol: "
     "THNN_CudaVolumetricAveragePooling_updateOutput`",
     "loader.torch_stale_source_build", "rm -rf build torch/lib/build"),
    # -- the torch index a driver runs: at or below the driver's CUDA from CUDA 12 on -----------------------------------
    # https://github.com/andimarafioti/faster-qwen3-tts/pull/113 (fresh12 g41: a T4 whose driver runs CUDA 12.4, the
    # default torch too new; fixed by installing the cu124 build)
    (".../torch/cuda/__init__.py:187: UserWarning: CUDA initialization: The NVIDIA driver on your\n"
     "system is too old (found version 12040). ...\nAssertionError: CUDA not available",
     "runtime.insufficient_driver", "whl/cu124"),
    # https://github.com/NVIDIA-BioNeMo/nvMolKit/issues/209 (fresh10 e74: a CUDA 12.7 driver, the default install's
    # CUDA 13 torch; reinstalled with `--torch-backend=cu126`)
    ("The default `pip`/`uv install nvmolkit` pulls **torch 2.12.0 + `nvidia-*-cu13`** (CUDA-13 wheels). On a CUDA-12.x "
     "driver this makes torch unusable and every nvMolKit call fails.\n"
     "`torch.cuda.is_available()` → `False`; `torch._C._cuda_init()` raises *\"NVIDIA driver too old (found 12070)\"*; "
     "all nvMolKit calls fail.",
     "runtime.insufficient_driver", "whl/cu126"),
    # guard: a CUDA 11.x driver keeps the newest 11.x index (minor-version compatibility; cu113 and older stop at torch
    # 1.12 with no wheels for Python 3.11): https://github.com/shiyu-coder/Kronos/issues/71 (fresh7 b54, torch 1.13.1)
    # and https://github.com/lllyasviel/Fooocus/issues/1313
    ("/opt/python11Venv/lib/python3.11/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The "
     "NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and "
     "installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
     "https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.",
     "runtime.insufficient_driver", "whl/cu118"),
    # -- torch's own TH library misses a TH symbol: every other torch out before the clean rebuild ----------------------
    # https://github.com/pytorch/pytorch/issues/2011 (fresh12 g08; soumith: "an old install of pytorch somewhere that is
    # conflicting with the freshly built source": conda uninstall pytorch, pip uninstall torch twice, rebuild)
    ("  File \"/opt/conda/envs/pytorch-py35/lib/python3.5/site-packages/torch/__init__.py\", line 53, in <module>\n"
     "    from torch._C import *\n"
     "ImportError: /opt/conda/envs/pytorch-py35/lib/python3.5/site-packages/torch/lib/libTHC.so.1: undefined symbol: "
     "THLongStorage_inferSizeN",
     "loader.torch_stale_source_build", "`pip uninstall -y torch` until none is left"),
    # https://github.com/pytorch/pytorch/issues/2036 (the same message from another source build: "Installed from the
    # source")
    ("Installed from the source. When I import torch, I got\n\n"
     "importError: anaconda2/lib/python2.7/site-packages/torch/lib/libTHC.so.1: undefined symbol: "
     "THLongStorage_inferSizeN",
     "loader.torch_stale_source_build", "conda remove pytorch"),
]

test_first_answer = first_answer_tests(CASES)


#: caffe#2728 (fresh12 g01) as the thread shows it; tests/test_explain_r13_build.py holds it as a first-answer case.
CAFFE_2728 = ("NVCC src/caffe/layers/inner_product_layer.cu\n"
              "make: /usr/local/cuda/bin/nvcc: Command not found\n"
              "make: *** [.build_release/cuda/src/caffe/layers/inner_product_layer.o] Error 127\n\n"
              "I therefore tried to change path of CUDA to /usr, and got this mistake:\n\n"
              "NVCC src/caffe/layers/inner_product_layer.cu\n"
              "nvcc fatal   : Unsupported gpu architecture 'compute_50'\n"
              "make: *** [.build_release/cuda/src/caffe/layers/inner_product_layer.o] Error 255")


def test_a_cause_the_narration_moved_past_is_answered_after_the_new_one():
    """The narration rule alone, on caffe#2728: the knowledge base's nvcc-not-found entry also steps aside by a data
    rule of its own (``unless`` a later 'nvcc fatal'), so that guard is taken out here; then the user's line decides
    the order, and without it the first error in the log comes first."""
    from cudaenv.knowledge.explain.matcher import explain
    from cudaenv.knowledge.kb import load_entries

    entries = [dict(e) for e in load_entries() if e["id"] in ("torch.nvcc_not_found", "nvcc.unsupported_arch")]
    for e in entries:
        e.pop("unless", None)
    assert len(entries) == 2
    assert [m.id for m in explain(CAFFE_2728, entries)] == ["nvcc.unsupported_arch", "torch.nvcc_not_found"]
    unnarrated = CAFFE_2728.replace("I therefore tried to change path of CUDA to /usr, and got this mistake:", "")
    assert [m.id for m in explain(unnarrated, entries)] == ["torch.nvcc_not_found", "nvcc.unsupported_arch"]


def test_narration_is_a_change_that_brought_another_error():
    """Real lines that introduce the first error or retry the same run are no move past an earlier state; the caffe
    line is (``matcher._retry_line``)."""
    from cudaenv.knowledge.explain.matcher import _retry_line
    from cudaenv.knowledge.explain.text import LogText

    # https://github.com/LeelaChessZero/lc0/issues/312 (the user's first attempt, not a change)
    assert _retry_line(LogText("I tried to compile lc0 and got error as the following when run build.sh.")) == -1
    # https://github.com/karpathy/neuraltalk2/issues/127 (fresh12 g37: running again after a crash is no change; the
    # crash is the cause)
    assert _retry_line(LogText(
        'Sometimes the error message occurs after 50000 iterations, sometimes it occurs around 8000 iterations. After '
        'getting the "unspecified launch failure", I tried to run the train.lua script again. Then, I get the error '
        'message: "all CUDA-capable devices are busy or unavailable".')) == -1
    # https://github.com/BVLC/caffe/issues/2728
    assert _retry_line(LogText("make: /usr/local/cuda/bin/nvcc: Command not found\n\n"
                               "I therefore tried to change path of CUDA to /usr, and got this mistake:\n")) == 2
