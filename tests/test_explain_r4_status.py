"""`cudaenv explain` on CUDA status codes from every producer (issue 18, round 4, layer [status]).

Two kinds of checks:

* CASES / PROGRAM: short real excerpts of public threads (URL above each, verbatim but trimmed):
  the first environment answer and its first fix line (the thread's fix for that case), or, for a
  program bug, no environment claim and the verdict.
* the table cudaenv/knowledge/status.yaml: every code it maps to an entry is recognised as that
  entry from each producer's frame (torch, cupy, NVIDIA samples' helper_cuda.h, numba, Triton,
  thrust, Julia, THC's old numbering), by string, by runtime enum name, by driver enum name.
"""

from __future__ import annotations

import os

import pytest
import yaml

from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

STATUS_TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "cudaenv", "knowledge", "status.yaml")


# (excerpt, the first environment answer, a string its first fix line holds)
CASES = [
    # --- 221 PTX JIT compiler library not found: the driver's libnvidia-ptxjitcompiler ---
    # https://github.com/jax-ml/jax/issues/9644 (XLA's cuLinkCreate, NixOS)
    ("RuntimeError: UNKNOWN: PTX JIT compiler library not found\nin external/org_tensorflow/tensorflow/"
     "stream_executor/cuda/cuda_asm_compiler.cc(56): 'cuLinkCreate(0, nullptr, nullptr, &link_state)'",
     "status.ptx_jit_missing", "libnvidia-ptxjitcompiler"),
    # https://github.com/rusty1s/pytorch_sparse/issues/78 (torch)
    ('  File "<miniconda>/envs/gnn/lib/python3.8/site-packages/torch_sparse/diag.py", line 41, in set_diag\n'
     "    inv_mask = ~mask\nRuntimeError: CUDA error: PTX JIT compiler library not found",
     "status.ptx_jit_missing", "libnvidia-ptxjitcompiler"),
    # https://github.com/ollama/ollama/issues/6591 (ggml on a Jetson Xavier)
    ('time=2024-08-30T16:57:23.032Z level=DEBUG source=gpu.go:123 msg="detected GPUs" count=1 '
     "library=/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1\n"
     "CUDA error: PTX JIT compiler library not found\n  current device: 0, in function ggml_cuda_compute_forward at "
     "/go/src/github.com/ollama/ollama/llm/llama.cpp/ggml/src/ggml-cuda.cu:2313",
     "status.ptx_jit_missing", "nvidia-l4t-3d-core"),
    # https://github.com/anduril/jetpack-nixos/issues/184 (the driver API's name, Jetson)
    ("Compiling PTX code dynamically, i.e., by calling `cuModuleLoad` in `libcuda`, doesn't work on a system with "
     "just `jetpack.l4t-cuda` installed: It errors with `ERROR_JIT_COMPILER_NOT_FOUND`",
     "status.ptx_jit_missing", "nvidia-l4t-3d-core"),

    # --- 702 the launch timed out: the display watchdog ---
    # https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/5089 (Windows)
    ('  File "C:\\Users\\kadir\\stable-diffusion-webui\\modules\\ui.py", line 185, in f\n'
     "    res = list(func(*args, **kwargs))\nRuntimeError: CUDA error: the launch timed out and was terminated",
     "status.launch_timeout", "TdrDelay"),
    # https://github.com/happynear/caffe-windows/issues/250 (Caffe's CHECK, old number 6)
    ("Hi, I'm using this caffe version on windows10, but I get one error on 4 groups GTX1080TI, which is  "
     '"Check failed: error == cudaSuccess (6 vs. 0)  the launch timed out and was terminated".',
     "status.launch_timeout", "TdrDelay"),
    # https://github.com/cudpp/cudpp/issues/146 (a C++ check, Windows 7)
    ("Cuda error in file 'C:\\src\\cudpp\\apps\\cudpp_testrig\\test_compress.cpp' in line 4\n"
     "67 : the launch timed out and was terminated.", "status.launch_timeout", "TdrDelay"),
    # https://github.com/numba/numba/issues/9381 (numba on Linux with a desktop: the X watchdog)
    ('Unexpected "CUDA error: the launch timed out and was terminated" or `CUDA_ERROR_LAUNCH_TIMEOUT`\n'
     "                                Watchdog: Enabled", "status.launch_timeout", "drives no display"),

    # --- 801 operation not supported ---
    # https://github.com/pytorch/pytorch/issues/36037 (CUDA IPC on Windows)
    ('the compiler report the "Runtime Error(801) operation not supported at '
     'C:\\w\\1\\s\\windows\\pytorch\\torch/csrc/generic/StorageSharing.cpp:245"',
     "status.operation_not_supported", "CPU tensors"),
    # https://github.com/NVIDIA/cudf/issues/11382 (cuDF on WSL 2 with a Pascal GeForce)
    ("I'm getting the error given below and using the WSL2 Ubuntu 20.04 instance on Windows 11 Preview.\n\n"
     "RuntimeError: CUDA error encountered at: /workspace/.conda-bld/work/cpp/src/bitmask/null_mask.cu:93: 801 "
     "cudaErrorNotSupported operation not supported.", "status.operation_not_supported", "compute capability 7.0"),
    # https://github.com/rapidsai/node/issues/421 (the same from node-rapids in a WSL VM)
    ("in my wsl vm, I got some error message below.\nError: Fatal CUDA error encountered at: /opt/rapids/node/.cache/"
     "source/cudf/2011600dae8dfdcf9bcef6866b9bb6f542e62759/cpp/src/bitmask/null_mask.cu:94: 801 cudaErrorNotSupported "
     "operation not supported", "status.operation_not_supported", "compute capability 7.0"),
    # https://github.com/jax-ml/jax/pull/7273 (cudaMallocAsync on a Quadro M4000: the fix was the sync API)
    ("jax._src.traceback_util.UnfilteredStackTrace: RuntimeError: third_party/py/jax/jaxlib/cusparse.cc:902: CUDA "
     "operation cudaMallocAsync(&buffer, bufferSize, stream) failed: operation not supported",
     "status.operation_not_supported", "synchronous allocator"),

    # --- 200/300 device kernel image is invalid: compiled by a newer CUDA than the driver's ---
    # https://github.com/triton-lang/triton/issues/2971 (driver 470)
    ('    self.module, self.function, self.n_regs, self.n_spills = driver.utils.load_binary(\n'
     "RuntimeError: Triton Error [CUDA]: device kernel image is invalid.\n\n"
     "NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: 11.4",
     "status.kernel_image_invalid", "R525"),
    # https://github.com/triton-lang/triton/issues/3001 (solved by upgrading the driver 470 -> 535)
    ("[Feature Request] Add additional debug information for `Triton Error [CUDA]: device kernel image is invalid`",
     "status.kernel_image_invalid", "R525"),
    # https://github.com/StanfordLegion/legion/issues/1690 (Realm's driver-API call, CUDA 12.3; "Not-A-Bug")
    ("[1 - 155555514000]    0.000000 {5}{gpu}: /lustre/scratch/vsyamaj/legion_s3d_nscbc/legion/runtime/realm/cuda/"
     "cuda_module.cc(3463):CUDA_DRIVER_FNPTR(cuModuleLoadDataEx)( &device_module, realm_fatbin, 0, NULL, NULL) = "
     "200(CUDA_ERROR_INVALID_IMAGE): device kernel image is invalid",
     "status.kernel_image_invalid", "upgrade it"),

    # --- CUFFT_INTERNAL_ERROR: cuFFT of CUDA 11.7 on Ada ---
    # https://github.com/pytorch/pytorch/issues/88038
    ("    return _VF.stft(input, n_fft, hop_length, win_length, window,  # type: ignore[attr-defined]\n"
     "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\nCUDA used to build PyTorch: 11.7\n"
     "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090", "status.cufft_internal_error", "cu118"),
    # https://github.com/haoheliu/AudioLDM/issues/49 (fixed by the CUDA 11.8 torch)
    ("``   return _VF.stft(input, n_fft, hop_length, win_length, window,  # type: ignore[attr-defined]\n"
     "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR``", "status.cufft_internal_error", "cu118"),
    # https://github.com/voicepaw/so-vits-svc-fork/issues/200
    ("pytorch with cu117 causing CUFFT_INTERNAL_ERROR on RTX 4090 (and probably on RTX 4080 too, untested).",
     "status.cufft_internal_error", "cu118"),
    # https://github.com/yeyupiaoling/AudioClassification-PaddlePaddle/issues/9 (Paddle, CUDA 11.7, RTX 4070)
    ("OSError: (External) CUFFT error(5). \n  [Hint: 'CUFFT_INTERNAL_ERROR'. Driver or internal cuFFT library error] "
     "(at /paddle/paddle/phi/kernels/funcs/cufft_util.h:127)", "status.cufft_internal_error", "CUDA 11.8"),

    # --- TensorFlow / XLA reserved the GPU memory before cuDNN/cuBLAS started ---
    # https://github.com/tony-framework/TonY/pull/486 (fix: memory growth, per tensorflow/tensorflow#24496)
    ("2020-11-25 09:06:12.391615: E tensorflow/stream_executor/cuda/cuda_dnn.cc:328] Could not create cudnn handle: "
     "CUDNN_STATUS_INTERNAL_ERROR", "status.framework_took_gpu_memory", "TF_FORCE_GPU_ALLOW_GROWTH"),
    # https://github.com/matterport/Mask_RCNN/issues/1652 (RTX 2080)
    ("2019-07-22 08:22:14.252711: E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle: "
     "CUDNN_STATUS_INTERNAL_ERROR", "status.framework_took_gpu_memory", "TF_FORCE_GPU_ALLOW_GROWTH"),
    # https://github.com/tensorflow/tensorflow/issues/9489 (cuBLAS's handle)
    ("2019-02-11 16:42:08.131786: E tensorflow/stream_executor/cuda/cuda_blas.cc:366] failed to create cublas handle: "
     "CUBLAS_STATUS_NOT_INITIALIZED", "status.framework_took_gpu_memory", "TF_FORCE_GPU_ALLOW_GROWTH"),
    # https://github.com/Sentdex/pygta5/issues/125 (the Conv2D consequence; "not having enough memory")
    ("UnknownError (see above for traceback): Failed to get convolution algorithm. This is probably because cuDNN failed "
     "to initialize, so try looking to see if a warning log message was printed above.",
     "status.framework_took_gpu_memory", "TF_FORCE_GPU_ALLOW_GROWTH"),

    # --- cuBLAS/cuDNN execution errors with a GPU newer than the build's CUDA ---
    # https://github.com/facebookresearch/SparseConvNet/issues/208 (RTX 3080, cudatoolkit 10.0)
    ("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, "
     "&alpha, a, lda, b, ldb, &beta, c, ldc)`\n\nMy  environment: Geforce RTX 3080,cudatoolkit 10.0,pytorch 1.3.1with "
     "conda.", "status.gpu_newer_than_build", "cu118"),
    # https://github.com/yulunzhang/RCAN/issues/143 (RTX 3090, torch 0.4.1 for CUDA 9.2)
    ("# cuDNNerror:CUDNN_STATUS_EXECUTION_FAILED\ntorch方法查看CUDA版本： 9.2.148\n查看torch版本： 0.4.1\n"
     "GPU名称： NVIDIA GeForce RTX 3090", "status.gpu_newer_than_build", "cu118"),
    # https://github.com/facebookresearch/maskrcnn-benchmark/issues/688 (RTX 2080 Ti on CUDA 9.0; fixed by CUDA 10)
    ("CUDA 9.0\ncuDNN 7.5 for cuda 9.0\nRTX 2080 ti\n...\nRuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
     "status.gpu_newer_than_build", "cu118"),
    # https://github.com/multimodallearning/pytorch-mask-rcnn/issues/94
    ("RuntimeError: CUDNN_STATUS_EXECUTION_FAILED , maybe the version of python,pytorch,cuda is incompatible,\n"
     "this is my version what i use:\npytorch:0.3.0-cuda9.0\ngpu:rtx-2080\ncuda:9.0",
     "status.gpu_newer_than_build", "cu118"),

    # --- CUBLAS/CUDNN_STATUS_ARCH_MISMATCH: the GPU is below the call's minimum ---
    # https://github.com/NVIDIA/FasterTransformer/issues/25 (Tesla K80)
    ("[Device Tesla K80\nterminate called after throwing an instance of 'std::runtime_error'\n"
     "  what():  [FT][ERROR] CUDA runtime error: CUBLAS_STATUS_ARCH_MISMATCH /root/DeepLearningExamples-master/"
     "FasterTransformer/v1/fastertransformer/cuda/open_attention.h:171", "status.lib_arch_mismatch", "newer generation"),
    # https://github.com/NVIDIA/DeepLearningExamples/issues/147 (Tesla K40m: "Compute Capability is not suitable")
    ("Device Tesla K40m\n  what():  [FT][ERROR] CUDA runtime error: CUBLAS_STATUS_ARCH_MISMATCH "
     "/workspace/tf_case/FasterTransformer/fastertransformer/cuda/open_attention.h:171",
     "status.lib_arch_mismatch", "newer generation"),
    # https://github.com/alphacep/vosk-api/issues/665 (Kaldi's check, Tesla K80)
    ("LOG ([5.5.873~1-75ec]:FinalizeActiveGpu():cu-device.cc:346) The active GPU is [0]: Tesla K80\n"
     'ERROR (VoskAPI:AddMatMat():cu-matrix.cc:1329) cublasStatus_t 8 : "CUBLAS_STATUS_ARCH_MISMATCH" returned from '
     "'cublas_gemm(GetCublasHandle(), (transB==kTrans? CUBLAS_OP_T:CUBLAS_OP_N)'",
     "status.lib_arch_mismatch", "newer generation"),

    # --- cuDNN 9 sub-libraries from two installs ---
    # https://github.com/mav-rik/facerestore_cf/issues/27 ("pip install -U nvidia-cuda-runtime-cu12 nvidia-cudnn-cu12
    # solved my issues")
    ("I keep getting this error whenever I try to run the CropFace node:\n\nCropFace\ncuDNN error: "
     "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", "status.cudnn_sublibrary_mismatch", "pip install -U nvidia-cudnn"),
    # https://github.com/pytorch/pytorch/issues/185512 (one engine library from the system, the rest from the wheel)
    ("RuntimeError: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH in F.conv2d on PyTorch nightly (cu130)\n"
     "5580:     calling init: /home/xyt19/miniconda3/envs/debug/lib/python3.10/site-packages/nvidia/cudnn/lib/"
     "libcudnn_graph.so.9\n5580:     calling init: /lib/x86_64-linux-gnu/libcudnn_engines_tensor_ir.so.9",
     "status.cudnn_sublibrary_mismatch", "remove the other install"),
    # https://github.com/koharu-rs/koharu/issues/694 (a bundled runtime and the system's; "uninstall your mismatched
    # version")
    ("System cuDNN: 9.22.0.52\nBundled cuDNN: 9.21.0.82\nOS: CachyOS (Arch)\nGPU: RTX 3060 Laptop\n"
     "Error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH on all detection engines",
     "status.cudnn_sublibrary_mismatch", "remove the other install"),
    # https://github.com/arrayfire/arrayfire/issues/3700 (Windows: another toolkit's DLLs on PATH)
    ("If you have any other cuda toolkit installed, the kernel will pull missing .dll files regardless of if they are "
     "used by the program or not. Because you don't include them. With the new cudnn version 9 this leads to an "
     "instant crash of the exe with the `CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH` error.",
     "status.cudnn_sublibrary_mismatch", "off PATH"),

    # --- a number alone: deviceQuery / ggml print cudaGetDeviceCount's return value ---
    # ggml's line as a public project's tests quote it (llama.cpp#6185 made ggml print cudaGetDeviceCount's error:
    # https://github.com/ggml-org/llama.cpp/pull/6185); 35 is the runtime's "insufficient driver"
    ("ggml_cuda_init: cudaGetDeviceCount returned 35", "runtime.insufficient_driver", "upgrade the driver"),
    # NVIDIA samples' deviceQuery without a GPU (cuda-samples' deviceQuery.cpp prints the number, then the string)
    ("CUDA Device Query (Runtime API) version (CUDART static linking)\n\ncudaGetDeviceCount returned 100",
     "runtime.no_device", "nvidia-smi"),

    # --- 3 initialization error / CUDA driver initialization failed: the driver ---
    # https://github.com/szcompressor/cuSZ/issues/43 ("an issue of CUDA driver configuration": nvidia-smi first)
    ("CUDA API failed at src/cusz.cu:154 with error: initialization error (3)", "status.driver_init_failed",
     "nvidia-smi"),
    # https://github.com/facebookresearch/detectron2/issues/2848
    ("RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.", "status.driver_init_failed",
     "nvidia-smi"),
    # https://github.com/ErlerPhilipp/points2surf/issues/17 ("Can you run nvidia-smi?")
    ("  torch._C._cuda_init()\nRuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.",
     "status.driver_init_failed", "nvidia-smi"),
]


test_status_from_real_threads = first_answer_tests(CASES)


# Program bugs: (excerpt, the verdict explain must give, or None: no answer at all)
PROGRAM = [
    # CUDA in a forked child: https://github.com/facebookresearch/pycls/issues/183
    ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
     "'spawn' start method", "program.cuda_in_forked_child"),
    # https://github.com/Koed00/django-q/issues/713 (a task queue's workers)
    ("I get the following error when a qcluster worker attempts to use CUDA:\n\n`Cannot re-initialize CUDA in forked "
     "subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method`",
     "program.cuda_in_forked_child"),
    # the same as "initialization error" in DataLoader workers: https://github.com/pytorch/pytorch/issues/21092
    ("Trying to make the default tensor location to cuda, `torch.utils.data.DataLoader` produce `RuntimeError: CUDA "
     "error: initialization error`", "program.cuda_in_forked_child"),
    # https://github.com/pytorch/pytorch/issues/17357 (THC's old frame, multiprocessing.Process)
    ('  File "/home/shenli/local/miniconda/lib/python3.7/multiprocessing/process.py", line 297, in _bootstrap\n'
     "    self.run()\n"
     '  File "/home/shenli/project/pytorch/torch/cuda/__init__.py", line 265, in set_device\n'
     "    torch._C._cuda_setDevice(device)\n"
     "RuntimeError: cuda runtime error (3) : initialization error at ../torch/csrc/cuda/Module.cpp:33",
     "program.cuda_in_forked_child"),
    # 701 too many resources: https://github.com/sxyu/svox2/issues/6 (fixed with launch_bounds)
    ("RuntimeError: CUDA error: too many resources requested for launch", "program.launch_out_of_resources"),
    # https://github.com/laugh12321/TensorRT-YOLO/issues/11 (block 32x32 -> 16x16)
    ("[CUDA ERROR]: Too many resources requested for launch", "program.launch_out_of_resources"),
    # https://github.com/JuliaGPU/CUDAnative.jl/issues/293 (Julia's frame)
    ("ERROR: CUDA error: too many resources requested for launch (code #701, ERROR_LAUNCH_OUT_OF_RESOURCES)",
     "program.launch_out_of_resources"),
    # https://github.com/MariusVanDerWijden/gpusnarks/issues/8
    ("threads 65536, blocks 65, threads 1024\nCUDA error: too many resources requested for launch",
     "program.launch_out_of_resources"),
    # 716 misaligned address: https://github.com/MegviiRobot/MegBA/issues/43 (cub, thrust)
    ("CUDA error 716 [/usr/local/cuda/targets/x86_64-linux/include/cub/util_device.cuh, 351]: misaligned address\n"
     "terminate called after throwing an instance of 'thrust::system::system_error'\n"
     "  what():  after reduction step 1: cudaErrorMisalignedAddress: misaligned address",
     "program.misaligned_address"),
    # https://github.com/leon-liangwu/MaskYolo_Caffe/issues/55 (Caffe, old number 74)
    ("Check failed: error == cudaSuccess (74 vs. 0)  misaligned address", "program.misaligned_address"),
    # https://github.com/deepspeedai/DeepSpeedExamples/issues/530
    ('When running step3, the error "CUDA error: misaligned address\nCUDA kernel errors might be asynchronously '
     'reported at some other API call, so the stacktrace below might be incorrect.', "program.misaligned_address"),
    # 715 illegal instruction: https://github.com/AlexeyAB/darknet/issues/8656
    ("CUDA status Error: file: ./src/blas_kernels.cu : () : line: 741 : build time: Sep  1 2022 - 20:13:02\n\n"
     " CUDA Error: an illegal instruction was encountered", "program.illegal_instruction"),
    # https://github.com/NVIDIA/TensorRT-LLM/issues/11313 (labelled "Customized kernels")
    ("[02/05/2026-06:58:48] [TRT-LLM] [E] Encountered an error in forward function: CUDA error: an illegal instruction "
     "was encountered\nSearch for `cudaErrorIllegalInstruction' in https://docs.nvidia.com/cuda/cuda-runtime-api/"
     "group__CUDART__TYPES.html for more information.", "program.illegal_instruction"),
    # 719 with the program's own kernel: https://github.com/valgur/surface-normal/issues/7
    ("RuntimeError: Kernel Launch Failed\nFile: /home/xxx/pycharm_remote/stereo_depth/surface-normal/src/"
     "surface_normal.cu\nLine Number: 66\nReason: unspecified launch failure", "program.unspecified_launch_failure"),
    # https://github.com/modular/mojo-gpu-puzzles/issues/33 (compute-sanitizer's report of an out-of-bounds kernel)
    ('========= Program hit CUDA_ERROR_LAUNCH_FAILED (error 719) due to "unspecified launch failure" on CUDA API call '
     "to cuMemFreeHost.", "program.unspecified_launch_failure"),
    # 719 alone: as often the hardware (the [driver-hw] layer's cases), so no verdict and no claim:
    # https://github.com/apache/mxnet/issues/11395 (an out-of-bound read, known only from reading the kernel)
    ("Check failed: e == cudaSuccess CUDA: unspecified launch failure", None),
    # CUDNN_STATUS_BAD_PARAM: https://github.com/Theano/Theano/issues/6564 (float64; a cast fixes it)
    ("RuntimeError: error getting worksize: CUDNN_STATUS_BAD_PARAM because of dtype", "program.cudnn_bad_param"),
    # https://github.com/tbennun/cudnn-training/issues/17 (tensor dimensions)
    ("CUDNN failure: CUDNN_STATUS_BAD_PARAM\n/home/admin/cudnn-training-master/lenet.cu:658\nAborting...",
     "program.cudnn_bad_param"),
    # 4 (old 29) driver shutting down: CUDA calls in static destructors at exit.
    # https://github.com/NVlabs/SASSI/issues/4 ("I was calling cudaDeviceSynchronize in a static object destructor")
    ('it sometimes shows "Error: driver shutting down".', "program.cuda_call_at_exit"),
    # https://github.com/luoyetx/mini-caffe/issues/81 (Caffe's CHECK, old number 29)
    ("D:\\mini-caffe\\src\\syncedmem.cpp:148: Check failed: error == cudaSuccess (29 vs. 0)  driver shutting down",
     "program.cuda_call_at_exit"),
    # https://github.com/AlexeyAB/darknet/issues/1829 (exit(0) after detect)
    ("cudaStreamDestroy() failed. Reason: driver shutting down\ncudaFree() failed. Reason: driver shutting down",
     "program.cuda_call_at_exit"),
    # https://github.com/Schumacher-Group-UPB/PHOENIX/pull/2 (thrust)
    ("terminate called after throwing an instance of \n'thrust::THRUST_200500_520_NS::system::system_error'\n"
     "   what():  CUDA free failed: cudaErrorCudartUnloading: driver shutting \n down", "program.cuda_call_at_exit"),
    # ambiguous library statuses alone: no environment claim.
    # https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/193
    ("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, "
     "&alpha, a, lda, b, ldb, &beta, c, ldc)`", None),
    # https://github.com/QwenLM/Qwen/issues/120 (answered: "most likely out of GPU memory")
    ("CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`", None),
    # https://github.com/Fictionarry/TalkingGaussian/issues/56
    ("RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasSgemm( handle, opa, opb, m, n, k, "
     "&alpha, a, lda, b, ldb, &beta, c, ldc)`", None),
]


@pytest.mark.parametrize("text,verdict", PROGRAM, ids=[f"{v}-{i}" for i, (_, v) in enumerate(PROGRAM)])
def test_program_bugs_are_not_claimed_as_environment(text, verdict):
    found = explain(text)
    assert not [m.id for m in found if m.environment], [m.id for m in found]
    if verdict is None:
        assert not found, [m.id for m in found]
    else:
        assert found and found[0].id == verdict and not found[0].environment, [m.id for m in found]
        assert "not an environment problem" in found[0].title


def test_hardware_context_takes_the_verdict_away():
    """With a GPU fault in the log, 'unspecified launch failure' or 'illegal instruction' is no program verdict."""
    for text in ("NVRM: Xid (PCI:0000:3b:00): 13, pid=1234, Graphics SM Warp Exception\n"
                 "kernel.cu:12 CUDA error: unspecified launch failure",
                 "the card is overclocked\nRuntimeError: CUDA error: an illegal instruction was encountered"):
        assert not [m for m in explain(text) if not m.environment and m.id.startswith("program.")], text


# --- the table -----------------------------------------------------------------------------------

with open(STATUS_TABLE, encoding="utf-8") as _f:
    TABLE = yaml.safe_load(_f)


def producer_frames(row: dict) -> dict[str, str]:
    """One line per producer for a runtime status code of the table."""
    s, n, name, drv = row["string"], row["number"], row["name"], row.get("driver")
    out = {
        "torch": f"RuntimeError: CUDA error: {s}",
        "cupy": f"cupy_backends.cuda.api.runtime.CUDARuntimeError: {name}: {s}",
        "samples": f'CUDA error at main.cu:42 code={n}({name}) "cudaDeviceSynchronize()"',
        "triton": f"RuntimeError: Triton Error [CUDA]: {s}",
        "thrust": f"terminate called after throwing an instance of 'thrust::system::system_error'\n"
                  f"  what():  parallel_for failed: {name}: {s}",
    }
    if drv:
        out["numba"] = f"numba.cuda.cudadrv.driver.CudaAPIError: [{n}] Call to cuCtxSynchronize results in {drv}"
        out["julia"] = f"ERROR: CUDA error: {s} (code {n}, {drv[len('CUDA_'):]})"
    if "old" in row:
        out["thc"] = f"RuntimeError: cuda runtime error ({row['old']}) : {s} at /pytorch/aten/src/THC/THCGeneral.cpp:383"
    return out


RUNTIME_ROWS = [(r["name"], producer, text, r["entry"]) for r in TABLE["runtime"] if "entry" in r
                for producer, text in producer_frames(r).items()]


def test_the_table_is_complete_and_names_real_entries():
    ids = {m.id for r in TABLE["runtime"] + TABLE["libraries"] if "entry" in r
           for m in [type("E", (), {"id": r["entry"]})]}
    from cudaenv.knowledge.kb import load_entries

    known = {e["id"]: e for e in load_entries()}
    assert ids <= set(known), ids - set(known)
    for r in TABLE["runtime"] + TABLE["libraries"]:
        assert "entry" in r or "ambiguous" in r, r
        if r.get("verdict") == "program":
            assert known[r["entry"]].get("environment") is False, r
        elif "entry" in r and "ambiguous" not in r:
            assert known[r["entry"]].get("environment", True), r


@pytest.mark.parametrize("name,producer,text,want", RUNTIME_ROWS,
                         ids=[f"{n}-{p}" for n, p, _, _ in RUNTIME_ROWS])
def test_every_producer_frame_of_a_code_gets_its_answer(name, producer, text, want):
    found = explain(text)
    assert found and found[0].id == want, (text, [m.id for m in found])


@pytest.mark.parametrize("row", [r for r in TABLE["libraries"] if "entry" in r and r["name"].isupper()],
                         ids=lambda r: r["name"])
def test_library_statuses_get_their_answer(row):
    for text in (f"RuntimeError: CUDA error: {row['name']} when calling `cublasCreate(handle)`",
                 f"Check failed: status == CUDNN_STATUS_SUCCESS (1 vs. 0)  {row['name']}",
                 f"RuntimeError: cuFFT error: {row['name']}"):
        found = explain(text)
        assert found and found[0].id == row["entry"], (text, [m.id for m in found])
