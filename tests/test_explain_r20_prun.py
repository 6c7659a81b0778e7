"""Round 20, helper "prun": a practice set of unseen run-side threads (/tmp/work/practice-r20prun.tsv in the helper's
notes), its misses fixed as families.

- Triton's "context is destroyed" / "invalid device context": a Triton kernel launched for a tensor on another GPU
  than the current device (mamba-ssm, VMamba, torch.compile's backward). A program or library bug: a verdict, with
  `torch.cuda.set_device` / `with torch.cuda.device(x.device)` first. Triton's "device kernel image is invalid" stays
  the driver's.
- cuDNN's or cuBLAS's EXECUTION_FAILED beside a CUDA 9 (or older) build the log names, with no GPU the table reads:
  the mirror of status.gpu_newer_than_build_cuda_unseen. The GPU decides, so the first line asks `nvidia-smi` for it.
- CUDA "out of memory" under WSL 2 without torch's "Tried to allocate": WSL limits pinned host memory, so
  pin_memory=False comes first (still a verdict: nothing in the environment is claimed).

Excerpts are verbatim (trimmed) from the threads named above them, or from the producer's source."""

from explain_answers import first_answer_tests, program_bug_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- cuDNN/cuBLAS EXECUTION_FAILED under a CUDA 9 build, the GPU not named -----------------------------------------
    # https://github.com/ChenRocks/fast_abs_rl/issues/36 ("I have solve this problem by install cuda10 and install
    # cuda10-pytorch1.0.0")
    ("RuntimeError: CUDNN_STATUS_EXECUTION_FAILED\nubuntu 16.0.4\npytorch 0.4.0\npython 3.6.5\ncuda 9.0\n",
     "status.gpu_newer_than_build_gpu_unseen", "shows compute capability 7.5 or higher"),
    # https://github.com/traveller59/second.pytorch/issues/43 (CUDA 9.0 on an RTX 20xx, which the GPU table does not
    # read as one GPU: a newer CUDA solved it)
    ("RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n"
     "I think the error \" CUDNN_STATUS_EXECUTION_FAILED \" is due to the reason that CUDA 9.0 has problem recognizing "
     "the graphic card of RTX 20xx.\n",
     "status.gpu_newer_than_build_gpu_unseen", "CUDA 10.0 or newer"),
    # near-miss: the GPU named (https://github.com/AlexeyAB/darknet/issues/2836: RTX 2070 and CUDA 9.0, "Try to install
    # CUDA 10.0") keeps status.gpu_newer_than_build, which names the CUDA that GPU needs
    (" cuDNN status Error in: file: d:/tests/darknet/src/convolutional_kernels.cu : forward_convolutional_layer_gpu() : "
     "line: 538 : build time: Apr  4 2019 - 09:02:02\ncuDNN Error: CUDNN_STATUS_EXECUTION_FAILED\n```\n"
     "Software versions:\n- Windows 10\n- VS2015 update 3\n- CUDA 9.0.176\n- cuDNN 7.2\n- Nvidia driver 419.67\n"
     "Yet, when I switch to RTX 2070 card, I've got the following error\n",
     "status.gpu_newer_than_build", "known from CUDA 10.0 on"),
]

VERDICTS = [
    # -- Triton's device-context errors: a verdict ---------------------------------------------------------------------
    # https://github.com/state-spaces/mamba/issues/648 (every GPU but cuda:0; solved by mamba#390's
    # `with torch.cuda.device(CB.device):`)
    ("I meet an error 'RuntimeError: Triton Error [CUDA]: context is destroyed' while running Mamba2 on an Ubuntu "
     "server. This error appears on all GPUs expect 'cuda:0', which confused me for a long time.\n",
     "program.triton_context_other_device", "torch.cuda.set_device"),
    # https://github.com/MzeroMiko/VMamba/issues/231 ("it works fine on cuda:0, but an error is prompted on cuda:1")
    ('mod, func, n_regs, n_spills = cuda_utils.load_binary(self.metadata["name"], self.asm["cubin"], self.shared, '
     'device)\nRuntimeError: Triton Error [CUDA]: context is destroyed\n',
     "program.triton_context_other_device", "torch.cuda.set_device"),
    # https://github.com/microsoft/onnxruntime/pull/18764 (torch.compile's Triton kernels; fixed by CUDA_VISIBLE_DEVICES)
    ('  File "/opt/conda/envs/ptca/lib/python3.8/site-packages/torch/_inductor/triton_heuristics.py", line 556, in run\n'
     "    return launcher(\n"
     '  File "<string>", line 8, in launcher\n'
     "RuntimeError: Triton Error [CUDA]: invalid device context\n",
     "program.triton_context_other_device", "torch.cuda.set_device"),
    # -- out of memory under WSL 2: pinned host memory first -----------------------------------------------------------
    # https://github.com/microsoft/WSL/issues/8447 (pin_memory=False solved it for several users)
    ("got the error: out of memory ,when invoke cuda in wsl2.\n\nI am experiencing the same issue with windows 11, "
     "i7-12700KF, RTX 3070-Ti. Graphs for used memory only reach about half available GPU RAM, before the \n"
     "RuntimeError: CUDA error: out of memory\n",
     "runtime.out_of_memory", "pin_memory=False"),
    # near-miss: the GPU itself full under WSL (torch's allocator message) keeps the plain answer: collect_env's platform
    # line of https://github.com/pytorch/pytorch/issues/112957 (a WSL 2 machine) with torch's allocator message (the
    # knowledge base's runtime.out_of_memory example)
    ("Python platform: Linux-5.15.90.1-microsoft-standard-WSL2-x86_64-with-glibc2.17\n"
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 146.00 MiB. GPU 0 has a total capacity of 8.00 GiB "
     "of which 0 bytes is free.\n",
     "runtime.out_of_memory", "Use less memory"),
]

test_first_answer = first_answer_tests(CASES)
test_verdicts = first_answer_tests(VERDICTS, verdicts=True)

NEGATIVES = [case[0] for case in VERDICTS]
test_program_bugs_stay_verdicts = program_bug_tests(NEGATIVES)


def test_triton_image_invalid_stays_the_drivers():
    """Triton's "device kernel image is invalid" (https://github.com/OpenGVLab/EfficientQAT/issues/20) is not a
    device-context bug: it keeps status.kernel_image_invalid."""
    found = explain("RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n")
    assert found and found[0].id == "status.kernel_image_invalid", [m.id for m in found]


def test_execution_failed_without_old_build_is_not_claimed_for_the_gpu():
    """EXECUTION_FAILED with a CUDA 10 build and no GPU (https://github.com/NVIDIA/apex/issues/112, "it'll be fine on
    the other gpu cards") is no GPU-generation answer."""
    text = ("+ Ubuntu 16.04\n+ cuda 10\n+ pytorch 1.3 (preview)\n+ cudnn version : 7602\n\nStill having this problem\n"
            "`RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED`\n")
    assert "status.gpu_newer_than_build_gpu_unseen" not in [m.id for m in explain(text)]
