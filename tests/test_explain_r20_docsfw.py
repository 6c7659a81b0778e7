"""Round 20 (docsfw): causes the Python frameworks' own troubleshooting pages list, each checked against the knowledge
base with a real log; the ones it lacked or answered wrongly, added as families. torch.compile's inductor without a C++
compiler (beside Triton's missing C compiler), transformers' FlashAttention2 check (flash-attn absent, too old, or no
CUDA device for it), DeepSpeed's async_io op without libaio's development files, TensorRT's plan header (magic tag)
check, Triton's "0 active drivers" (torch sees no CUDA device), Ollama's and TensorFlow's AVX requirement, JAX's "no
supported devices" (GPU memory taken), accelerate's fp16 without a CUDA device, the DataLoader's workers out of
/dev/shm, deterministic mode without CUBLAS_WORKSPACE_CONFIG, and Triton's shared-memory check (a kernel configuration
that does not fit the GPU: a program verdict). Each text is copied from the thread named beside it, or is the
producer's format string filled in (named as such); near-miss guards keep the neighbouring causes with their own
answers."""

from explain_answers import first_answer_tests, program_bug_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # torch.compile (inductor): no C++ compiler. https://github.com/pytorch/pytorch/issues/92745 (a conda image)
    ('  File "/opt/conda/lib/python3.10/site-packages/torch/_inductor/codecache.py", line 128, in cpp_compiler_search\n'
     "    raise exc.InvalidCxxCompiler()\n"
     "torch._inductor.exc.InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: "
     "(None, 'g++')\n", "nvcc.host_compiler_missing", "build-essential"),
    # https://github.com/marieai/marie-ai/issues/94 (a CPU container)
    ("[2023-11-29 22:29:33,093] torch._dynamo.convert_frame: [WARNING]     raise exc.InvalidCxxCompiler()\n"
     "[2023-11-29 22:29:33,093] torch._dynamo.convert_frame: [WARNING] torch._dynamo.exc.BackendCompilerFailed: "
     "backend='inductor' raised:\n"
     "[2023-11-29 22:29:33,093] torch._dynamo.convert_frame: [WARNING] InvalidCxxCompiler: No working C++ compiler "
     "found in torch._inductor.config.cpp.cxx: (None, 'g++')\n", "nvcc.host_compiler_missing", "build-essential"),
    # https://github.com/2noise/ChatTTS/issues/133 (win10: solved by turning compile off)
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
     "InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')\n\n"
     "Python版本：3.10.4\n操作系统：win10\n", "nvcc.host_compiler_missing", "Run without torch.compile"),
    # transformers' FlashAttention2 check: https://github.com/hiyouga/EasyR1/issues/384 (the package is absent)
    ("ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package "
     "flash_attn seems to be not installed. Please refer to the documentation of "
     "https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2\n",
     "python.flash_attn_unavailable", 'attn_implementation="sdpa"'),
    # transformers 4.5x's wording (modeling_flash_attention_utils, the format string filled in)
    ("ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package "
     "for FlashAttention2 doesn't seem to be installed.\n", "python.flash_attn_unavailable", 'attn_implementation="sdpa"'),
    # https://github.com/QwenAudio/FunMusic/issues/30 (the model was put on the CPU; gpu=0 solved it) and
    # https://github.com/ace-step/ACE-Step-1.5/issues/105 (a CPU-only server)
    ("ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: Flash "
     "Attention 2 is not available on CPU. Please make sure torch can access a CUDA device.\n",
     "python.flash_attn_unavailable", "torch.cuda.is_available()"),
    # transformers modeling_utils.py _check_and_enable_flash_attn_2, the format string filled in (flash-attn 1.x)
    ("ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: you need "
     "flash_attn package version to be greater or equal than 2.1.0. Detected version 1.0.9. Please refer to the "
     "documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash "
     "Attention 2.\n", "python.flash_attn_unavailable", "release >= 2.1.0"),
    # DeepSpeed's async_io op: https://github.com/deepspeedai/DeepSpeed/issues/1401 (DS_BUILD_OPS=1 in a Dockerfile;
    # #4968 the same with pip install)
    ("      AssertionError: Unable to pre-compile async_io\n", "build.deepspeed_libaio_missing", "libaio-dev"),
    # https://github.com/deepspeedai/DeepSpeed/issues/1037 (the JIT load; "apt install libaio-dev")
    ("E           RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to "
     "hardware/software issue.\n", "build.deepspeed_libaio_missing", "libaio-dev"),
    # https://github.com/deepspeedai/DeepSpeed/issues/3211 (Windows)
    ('        File "D:\\python\\DeepSpeed\\setup.py", line 51, in abort\n'
     "          assert False, msg\n"
     "      AssertionError: Unable to pre-compile async_io\n"
     "      DS_BUILD_OPS=1\n"
     "       [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
     "       [WARNING]  If libaio is already installed (perhaps from source), try setting the CFLAGS and LDFLAGS "
     "environment variables to where it can be found.\n"
     "       [WARNING]  One can disable async_io with DS_BUILD_AIO=0\n"
     "       [ERROR]  Unable to pre-compile async_io\n", "build.deepspeed_libaio_missing", "DS_BUILD_AIO=0"),
    # TensorRT's plan header: https://github.com/laugh12321/TensorRT-YOLO/issues/2,
    # https://github.com/open-mmlab/mmdeploy/issues/2639 (an 8.6 engine on 8.2), https://github.com/linClubs/YOLOv8-ROS-TensorRT/issues/13,
    # https://github.com/NVIDIA/TensorRT/issues/1384 (TensorRT 7)
    ("[01/30/2024-10:28:15] [TRT] [E] 1: [stdArchiveReader.cpp::nvinfer1::rt::StdArchiveReader::StdArchiveReader::30] "
     "Error Code 1: Serialization (Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)\n"
     "[01/30/2024-10:28:15] [TRT] [E] 4: [runtime.cpp::nvinfer1::Runtime::deserializeCudaEngine::50] Error Code 4: "
     "Internal Error (Engine deserialization failed.)\n", "tensorrt.engine_other_version", "trtexec --onnx="),
    ("[2024-01-12 12:53:54.250] [mmdeploy] [error] [trt_net.cpp:28] TRTNet: 1: [stdArchiveReader.cpp::StdArchiveReader"
     "::30] Error Code 1: Serialization (Serialization assertion magicTagRead == magicTag failed.Magic tag does not "
     "match)\n", "tensorrt.engine_other_version", "trtexec --onnx="),
    ("ERROR: 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization (Serialization assertion "
     "plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.)\n", "tensorrt.engine_other_version", "trtexec --onnx="),
    ("coreReadArchive.cpp (31) - Serialization Error in verifyHeader: 0 (Magic tag does not match)\n"
     "INVALID_STATE: std::exception\nINVALID_CONFIG: Deserialize the cuda engine failed.\n",
     "tensorrt.engine_other_version", "trtexec --onnx="),
    # Triton's driver selection: https://github.com/hiyouga/EasyR1/issues/211, https://github.com/deepseek-ai/DeepSeek-R1/issues/493
    # (no GPU), https://github.com/modelscope/ms-swift/issues/3279 (an Ascend 910B)
    ('  File "/root/miniconda3/lib/python3.12/site-packages/triton/runtime/driver.py", line 8, in _create_driver\n'
     '    raise RuntimeError(f"{len(actives)} active drivers ({actives}). There should only be one.")\n'
     "RuntimeError: 0 active drivers ([]). There should only be one.\n", "python.torch_cuda_unavailable",
     "torch.cuda.is_available()"),
    ('  File "~/deep/lib/python3.10/site-packages/triton/runtime/autotuner.py", line 130, in __init__\n'
     "    self.do_bench = driver.active.get_benchmarker()\n"
     "RuntimeError: 0 active drivers ([]). There should only be one.\n", "python.torch_cuda_unavailable",
     "without an NVIDIA GPU"),
    # Ollama's AVX requirement: https://github.com/ollama/ollama/issues/7585, #6827 (Xeon X5670), #7989 (a VM without
    # CPU passthrough), #2825 (0.1.27's wording)
    ('time=2024-11-09T18:44:42.976+08:00 level=WARN source=gpu.go:252 msg="CPU does not have minimum vector '
     'extensions, GPU inference disabled. Required:avx Detected:no vector extensions"\n', "gpu.ollama_cpu_without_avx",
     'Type "host"'),
    ('WARN source=gpu.go:222 msg="CPU does not have minimum vector extensions, GPU inference disabled" required=avx '
     'detected="no vector extensions"\n', "gpu.ollama_cpu_without_avx", "In a virtual machine"),
    ('time=2024-02-29T11:22:11.650+08:00 level=INFO source=cpu_common.go:18 msg="CPU does not have vector extensions"\n'
     'time=2024-02-29T11:22:11.650+08:00 level=WARN source=gpu.go:128 msg="CPU does not have AVX or AVX2, disabling '
     'GPU support."\n', "gpu.ollama_cpu_without_avx", "In a virtual machine"),
    # JAX's "no supported devices found for platform CUDA": jax/_src/xla_bridge.py's warning, the format string filled in
    # (its hint: JAX pre-allocating too much device memory); https://github.com/jax-ml/jax/issues/8916 (solved by
    # XLA_PYTHON_CLIENT_PREALLOCATE=false)
    ("WARNING:jax._src.xla_bridge:CUDA backend failed to initialize: INTERNAL: no supported devices found for platform "
     "CUDA..This may be due to JAX pre-allocating too much device memory, leaving too little for CUDA library "
     "initialization. See https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html for more details and "
     "potential workarounds.(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n", "jax.cuda_backend_failed",
     "nvidia-smi` lists what holds"),
    # accelerate's fp16 check (torch.cuda.is_available() False): https://github.com/bmaltais/kohya_ss/issues/719 (Windows),
    # https://github.com/ShivamShrirao/diffusers/issues/97 (Linux, an RTX 3080)
    ('  File "D:\\01.Project\\Python\\lora-scripts\\sd-scripts\\library\\train_util.py", line 2847, in prepare_accelerator\n'
     "    accelerator = Accelerator(\n"
     '  File "C:\\Users\\oxooo\\AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\accelerate\\accelerator.py", '
     "line 355, in __init__\n"
     '    raise ValueError(err.format(mode="fp16", requirement="a GPU"))\n'
     "ValueError: fp16 mixed precision requires a GPU\n", "python.torch_cuda_unavailable", "torch.cuda.is_available()"),
    ('  File "/root/anaconda3/envs/diffusers/lib/python3.9/site-packages/accelerate/accelerator.py", line 286, in __init__\n'
     '    raise ValueError(err.format(mode="fp16", requirement="a GPU"))\n'
     "ValueError: fp16 mixed precision requires a GPU\n", "python.torch_cuda_unavailable", "--gpu_ids 0"),
    # TensorFlow on a CPU without AVX: https://github.com/tensorflow/tensorflow/issues/62342 (a Celeron N4505),
    # https://github.com/tensorflow/tensorflow/issues/44701 (an i5-480M: the hardware requirements), and
    # cpu_feature_guard's own line as a rasa-nlu setup note quotes it (SSE4.1)
    ("root@d87518e6c38b:/# python3 -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"\n"
     "Illegal instruction (core dumped)\n", "tensorflow.cpu_without_avx", "grep -o -m1 -w avx /proc/cpuinfo"),
    (">>> import tensorflow as tf\n[1]    3760 illegal hardware instruction  python3\n", "tensorflow.cpu_without_avx",
     "in a virtual machine"),
    ("2019-04-20 17:20:03.915545: F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was "
     "compiled to use SSE4.1 instructions, but these aren't available on your machine.\nAborted (core dumped)\n",
     "tensorflow.cpu_without_avx", "/proc/cpuinfo"),
    # the DataLoader's workers out of shared memory: https://github.com/open-mmlab/mmdetection/issues/1997 (docker run),
    # https://github.com/hkchengrex/STCN/issues/132, https://github.com/msr-fiddle/pipedream/issues/28 (the worker's own
    # line, torch 1.x)
    ("`sudo docker run --rm -it -v $(pwd):/$(pwd) -w $(pwd) --name cascademask cascademask python tools/train.py "
     "configs/mask_rcnn_r50_fpn_1x.py`\n\na RuntimeError happened as below:\n\n`RuntimeError: DataLoader worker (pid 37) "
     "is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to "
     "raise your shared memory limit.`\n", "python.dataloader_shm_exhausted", "Start the container with more shared memory"),
    ("RuntimeError: DataLoader worker (pid 46794) is killed by signal: Bus error. It is possible that dataloader's "
     "workers are out of shared memory. Please try to raise your shared memory limit.\n",
     "python.dataloader_shm_exhausted", "--shm-size"),
    ("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
     "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
     "Traceback (most recent call last):\n"
     '  File "/opt/conda/lib/python3.6/site-packages/torch/utils/data/dataloader.py", line 480, in _try_get_batch\n'
     "    data = self.data_queue.get(timeout=timeout)\n", "python.dataloader_shm_exhausted", "--shm-size"),
    # deterministic mode without CUBLAS_WORKSPACE_CONFIG: https://github.com/pytorch/vision/pull/3422 (the error),
    # https://github.com/pytorch/pytorch/issues/109856 (the warning of warn_only=True)
    ('torchvision/transforms/transforms.py", line 1043, in forward\n'
     "    transformed_tensor = torch.mm(flat_tensor, self.transformation_matrix)\n"
     "RuntimeError: Deterministic behavior was enabled with either `torch.use_deterministic_algorithms(True)` or "
     "`at::Context::setDeterministicAlgorithms(true)`, but this operation is not deterministic because it uses CuBLAS "
     "and you have CUDA >= 10.2. To enable deterministic behavior in this case, you must set an environment variable "
     "before running your PyTorch application: CUBLAS_WORKSPACE_CONFIG=:4096:8 or CUBLAS_WORKSPACE_CONFIG=:16:8. For "
     "more information, go to https://docs.nvidia.com/cuda/cublas/index.html#cublasApi_reproducibility\n",
     "torch.cublas_workspace_config_unset", "export CUBLAS_WORKSPACE_CONFIG=:4096:8"),
    ("/vol/apps/python/3.9/ext_modules/pytorch/1.13.1-weta.1/cuda/11.2/torch/nn/modules/linear.py:114: UserWarning: "
     "Deterministic behavior was enabled with either `torch.use_deterministic_algorithms(True)` or "
     "`at::Context::setDeterministicAlgorithms(true)`, but this operation is not deterministic because it uses CuBLAS "
     "and you have CUDA >= 10.2. To enable deterministic behavior in this case, you must set an environment variable "
     "before running your PyTorch application: CUBLAS_WORKSPACE_CONFIG=:4096:8 or CUBLAS_WORKSPACE_CONFIG=:16:8. For "
     "more information, go to https://docs.nvidia.com/cuda/cublas/index.html#cublasApi_reproducibility (Triggered "
     "internally at /vol/apps_build/makepkg/pytorch/1.13.1/src/pytorch-1.13.1/aten/src/ATen/Context.cpp:159.)\n"
     "  return F.linear(input, self.weight, self.bias)\n", "torch.cublas_workspace_config_unset", "CUBLAS_WORKSPACE_CONFIG"),
]

test_first_answer = first_answer_tests(CASES)


def test_answers_name_only_what_the_log_shows() -> None:
    from cudaenv.knowledge.explain.claims import unshown

    for text, _, _ in CASES + VERDICTS:
        m = explain(text)[0]
        assert not unshown(m.title, m.cause, text), (m.id, unshown(m.title, m.cause, text), text[:60])

# Triton's shared-memory check: a kernel configuration that does not fit this GPU, a program verdict.
# https://github.com/vllm-project/vllm/issues/36802 (T4), https://github.com/alipay/PainlessInferenceAcceleration/issues/35
# (RTX 3090: num_stages lowered), https://github.com/triton-lang/triton/issues/384 (Triton 1.x, no commas)
VERDICTS = [
    ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 81920, Hardware limit: 65536. "
     "Reducing block sizes or `num_stages` may help.\n", "program.launch_out_of_resources", "num_stages"),
    ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 163842, Hardware limitation: "
     "101376. reducing the block size or `num_stages` may help\n", "program.launch_out_of_resources", "num_stages"),
    ("triton.code_gen.OutOfResources: out of resource: shared memoryRequired: 110592Hardware limit: 101376\n",
     "program.launch_out_of_resources", "num_stages"),
]

test_triton_shared_memory_is_a_verdict = first_answer_tests(VERDICTS, verdicts=True)

test_program_bugs_stay_verdicts = program_bug_tests([text for text, _, _ in VERDICTS])


def test_triton_verdict_names_both_sizes() -> None:
    m = explain(VERDICTS[0][0])[0]
    assert "81920" in m.title and "65536" in m.title, m.title


# Near misses: neighbouring causes and wordings keep their own answers.
NEAR = [
    # ds_report's warning alone beside DeepSpeed's CUDA check (https://github.com/deepspeedai/DeepSpeed/issues/6972's
    # report lines; the op builder's mismatch exception as DeepSpeed prints it): the mismatch is the cause
    (" [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
     " [WARNING]  If libaio is already installed (perhaps from source), try setting the CFLAGS and LDFLAGS environment "
     "variables to where it can be found.\nasync_io ............... [NO] ....... [NO]\n"
     "Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled "
     "with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.\n",
     "ext.cuda_version_mismatch", "build.deepspeed_libaio_missing"),
    # TensorRT 7's version tag (https://github.com/seanavery/yolov5-tensorrt/issues/7) keeps the version answer
    ("[TensorRT] ERROR: coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Version tag does not "
     "match)\n", "tensorrt.engine_other_version", "magic tag"),
    # Triton with two drivers (https://github.com/triton-lang/triton/issues/2985, a source build) is no missing GPU
    ("RuntimeError: 2 active drivers ([<class 'c.CudaDriver'>, <class 'nvi.CudaDriver'>]).\n", None,
     "python.torch_cuda_unavailable"),
    # accelerate's fp16 on a Mac (MPS) or a TPU (XLA) is not torch without CUDA (accelerate's own wording, the device named)
    ("ValueError: fp16 mixed precision requires a GPU (not 'mps').\n", None, "python.torch_cuda_unavailable"),
    ("ValueError: fp16 mixed precision requires a GPU (not 'xla').\n", None, "python.torch_cuda_unavailable"),
    # Triton's missing C compiler keeps its own variant
    ("RuntimeError: Failed to find C compiler. Please specify via CC environment variable.\n",
     "nvcc.host_compiler_missing", "inductor"),
]


def test_near_misses_keep_their_answers() -> None:
    for text, want, not_in in NEAR:
        found = [m for m in explain(text) if m.environment]
        if want is None:
            assert not_in not in [m.id for m in found], (text[:60], [m.id for m in found])
            continue
        assert found and found[0].id == want, (text[:60], [m.id for m in found])
        assert not_in not in (found[0].title + found[0].id), (text[:60], found[0].title)


def test_cuda_error_701_keeps_its_launch_answer() -> None:
    m = explain("RuntimeError: CUDA error: too many resources requested for launch\n")[0]
    assert m.id == "program.launch_out_of_resources" and "registers" in m.title and not m.environment


def test_xla_ptxas_warning_alone_claims_nothing() -> None:
    # XLA's "driver older than ptxas" is a warning the producer catalogue expects nothing for (frameworks.yaml);
    # https://github.com/jax-ml/jax/issues/19821's line
    text = ("2024-02-15 14:18:20.201828: W external/xla/xla/service/gpu/nvptx_compiler.cc:744] The NVIDIA driver's CUDA "
            "version is 12.2 which is older than the ptxas CUDA version (12.3.107). Because the driver is older than the "
            "ptxas version, XLA is disabling parallel compilation, which may slow down compilation. You should update "
            "your NVIDIA driver or use the NVIDIA-provided CUDA forward compatibility packages.\n")
    assert not [m.id for m in explain(text) if m.environment]


def test_jax_on_a_vgpu_without_vmm_is_not_the_memory_answer() -> None:
    # https://github.com/openxla/xla/issues/49252 (one thread: a vGPU profile without VMM under a newer jaxlib)
    text = ("E platform_util.cc:279] Failed to create stream executor for device CUDA:0:\n"
            "  Device 0 does not support CUDA Virtual Memory Management (VMM).\n"
            "  VMM is required for device memory allocation in XLA.\n"
            "RuntimeError: Unable to initialize backend 'cuda': INTERNAL: no supported devices\n"
            "  found for platform CUDA\n")
    assert "jax.cuda_backend_failed" not in [m.id for m in explain(text)]
