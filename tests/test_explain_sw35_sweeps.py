"""Round 34's sweeps, made before fresh35 was sealed (62 messages from 51 producers: LLM serving and attention kernels;
program bugs that look like CUDA environment errors; the newest toolchains and GPUs), widened into families:

- a program's lower-case "<name> error: invalid device function" with its file after a tab;
- Windows' "DLL load failed while importing X" cut before its reason (a CPU-only torch first), and its "specified
  procedure could not be found" (the Windows form of an undefined symbol: a build for another torch);
- TensorRT-LLM's context FMHA below Ampere; TGI 0.8's "GPU with CUDA is capability" wording;
- glibc 2.42's rsqrt/rsqrtf wherever the toolkit's path shows no release (CUDA 13.0/13.1 fail too);
- CCCL 3's removed Thrust base classes in EDG's "has no member class" wording;
- bitsandbytes without a library for a later minor of CUDA 13 (BNB_CUDA_VERSION);
- libtorch 2.5-2.7.0's CMake config under CUDA 12.9+ (USE_SYSTEM_NVTX on the consumer's line);
- DataLoader workers said in the reporter's words ("num_workers > 0"): a program verdict, not the driver;
- a kernel assertion before cuDNN's NOT_INITIALIZED: no environment cause.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

SW35_CASES = [
    # mihaibujanca/dynamicfusion#79
    ('./build/bin/dynamicfusion data/umbrella\nKinFu2 error: invalid device function\t/home/dynamicfusion-master/dynamicfusion/kfusion/src/cuda/tsdf_volume.cu:40\n',
     'runtime.no_kernel_image', 'Get a build of the program that failed'),
    # mit-han-lab/llm-awq#105
    ('ImportError: DLL load failed while importing awq_inference_engine\n\nThe error seems to come from this:\nawq\\modules\\linear.py", line 4, in <module>\n    import awq_inference_engine  # with CUDA kernels\n',
     'loader.windows_extension_dll_load_failed', 'Check the torch it runs with first'),
    # Zuellni/ComfyUI-ExLlama-Nodes#7
    ('ImportError: DLL load failed while importing exllamav2_ext: 找不到指定的程序。\n',
     'loader.windows_extension_dll_load_failed', 'Install the build of exllamav2_ext made for this torch and CUDA'),
    # NVIDIA/TensorRT-LLM#320
    ('[TensorRT-LLM][ERROR] Assertion failed: Unsupported architecture (/home/build/TensorRT_LLM/TensorRT-LLM-master/cpp/tensorrt_llm/kernels/contextFusedMultiHeadAttention/fmhaRunner.cpp:87)\n',
     'gpu.below_library_minimum', 'Build the engine again without context FMHA'),
    # huggingface/text-generation-inference#398
    ('GPU with CUDA is capability 7 0 is not supported\n',
     'gpu.below_library_minimum', 'Run text-generation-inference on a GPU of compute capability 7.5 or newer'),
    # LostRuins/koboldcpp#1825
    ('/usr/include/x86_64-linux-gnu/bits/mathcalls.h(206): error: exception specification is incompatible with that of previous function "rsqrtf" (declared at line 653 of /usr/local/cuda/include/crt/math_functions.h)\n',
     'nvcc.glibc_c23_math', "Patch the toolkit's header"),
    # QuEST-Kit/QuEST#693
    ('error: namespace "thrust" has no member class "unary_function"\nerror: namespace "thrust" has no member class "binary_function"\n',
     'build.library_api_version', 'Use a release of the project ported to CCCL 3'),
    # bitsandbytes-foundation/bitsandbytes#1848
    ('Original error: Configured CUDA binary not found at /usr/local/lib/python3.12/dist-packages/bitsandbytes/libbitsandbytes_cuda131.so\n\n🔍 Run this command for detailed diagnostics:\npython -m bitsandbytes\n',
     'bnb.cudart_not_found', 'Tell it to load its CUDA 13.0 library'),
    # gnina/gnina#312
    ('CMake Error at build/_deps/libtorch-src/share/cmake/Caffe2/public/cuda.cmake:70 (message):\n  Failed to find nvToolsExt\nCall Stack (most recent call first):\n  build/_deps/libtorch-src/share/cmake/Caffe2/Caffe2Config.cmake:86 (include)\n  build/_deps/libtorch-src/share/cmake/Torch/TorchConfig.cmake:68 (find_package)\n  CMakeLists.txt:94 (find_package)\n',
     'build.nvtoolsext_removed', 'Add `-DUSE_SYSTEM_NVTX=1`'),
]

test_first_answer = first_answer_tests(SW35_CASES)

# program bugs in the reporters' own words: the verdict first, no environment cause beside it
SW35_VERDICTS = [
    # pytorch/pytorch#20260
    ("The tranform function keeps throwing 'RuntimeError: CUDA error: initialization error' whenever I use num_worker > 0.\n",
     'program.cuda_in_forked_child', 'Start worker processes with spawn'),
    # dmlc/dgl#6921
    ('[GraphBolt] `RuntimeError: CUDA error: initialization error` in `sample_neighbors()` when num_workers > 0\n',
     'program.cuda_in_forked_child', 'Start worker processes with spawn'),
]

test_verdicts = first_answer_tests(SW35_VERDICTS, verdicts=True)


# jeya-maria-jose/KiU-Net-pytorch#13: labels out of range (a kernel assertion), then cuDNN could not start
ASSERT_THEN_CUDNN = '`t >= 0 && t < n_classes` failed. RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n'


def test_a_kernel_assertion_before_cudnn_claims_no_environment_cause():
    assert not [m.id for m in explain(ASSERT_THEN_CUDNN) if m.environment]


def test_cudnn_not_initialized_alone_keeps_its_answer():
    found = explain("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n")
    assert found and found[0].id == "cudnn.not_initialized"

