"""Round 14, the lead's after-measurement fixes (fresh14 read once scored): Triton's kernels on a CUDA 11 driver
answered first with the fix that needs no root (a CUDA 11 ptxas for Triton)."""
from explain_answers import first_answer_tests

CASES = [
    # https://github.com/pytorch/pytorch/issues/119054 (torch 2.2.0+cu118 on an A100 with driver 470; a maintainer's
    # TRITON_PTXAS_PATH=/usr/local/cuda-11.8/bin/ptxas, confirmed by the reporter)
    ("BackendCompilerFailed: backend='inductor' raised: RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n"
     "PyTorch version: 2.2.0+cu118\nCUDA used to build PyTorch: 11.8\nCUDA runtime version: 11.8.89\n"
     "GPU 0: NVIDIA A100-SXM4-80GB\n\nNvidia driver version: 470.182.03",
     "status.kernel_image_invalid", "export TRITON_PTXAS_PATH="),
    # guard: the same message without Triton keeps the driver-first answer
    ("RuntimeError: CUDA error: device kernel image is invalid\nNvidia driver version: 470.182.03",
     "status.kernel_image_invalid", "The driver is older than the CUDA that compiled the kernels"),
]

test_first_answer = first_answer_tests(CASES)
