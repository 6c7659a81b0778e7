"""Round 15 after-measurement, helper "minimums": a GPU below the minimum the program states or the library documents
(gpu.below_library_minimum's stated-minimum, RAPIDS and Emgu CV variants; runtime.no_kernel_image's variant for a
Kepler GPU under a program whose own CUDA could still compile for it). Excerpts are verbatim (trimmed) from the threads
named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- a minimum compute capability the program states --------------------------------------------------------------
    # https://github.com/iperov/DeepFaceLab/issues/264 (the burned fresh15 n43; maintainer: "buy card with CC 3.5")
    ("No CUDA device found with minimum required compute capability 3.5\n\n"
     "I was using DeepFaceLab with CUDA 10.1 version, but when I run \"4) data_src extract faces MT all GPU debug.bat\"\n"
     "My graphic card is dual GeForce 780M with a compute capability 3.0.\n",
     "gpu.below_library_minimum", "Run it on a GPU of compute capability 3.5 or newer"),
    # https://github.com/koharu-rs/koharu/issues/576 (RTX 20xx, 7.5: "hardware limitation")
    ("NVIDIA driver reports CUDA 13.2 support\n"
     "GPU compute capability 7.5 is below the minimum required 8.0; falling back to CPU. An Ampere (RTX 30xx) or newer "
     "GPU is required for GPU acceleration\n",
     "gpu.below_library_minimum", "Run it on a GPU of compute capability 8.0 or newer"),
    # https://github.com/spacemeshos/gpu-post/issues/15 (Tesla K80, 3.7; maintainer: "We support 5.0 and up")
    ("[2020-09-08 11:15:32] GPU #0: FATAL: the 't' kernel requires 5.0 capability!\n"
     "[2020-09-08 11:15:32] Failed to init GPU, disabling device 0.\n",
     "gpu.below_library_minimum", "Run it on a GPU of compute capability 5.0 or newer"),
    # -- RAPIDS: Pascal (6.0) or newer ---------------------------------------------------------------------------------
    # https://github.com/NVIDIA/cuml/issues/5484 (the burned fresh15 n41; maintainer: Pascal, 6.0 and above)
    ("I have a GPU with a compute capability 5.0. I installed cuML with pip and I got the following error after "
     "`import cuml`\n`\nRuntimeError: This cuDF installation is missing the necessary PTX files that are <=50.\n`\n",
     "gpu.below_library_minimum", "Run RAPIDS on a GPU of compute capability 6.0 (Pascal) or newer"),
    # https://github.com/NVIDIA/cudf/issues/12812 (Tesla M60, 5.2)
    (">>> import cudf\n/home/yseth/miniconda3/envs/rapids-23.04/lib/python3.10/site-packages/cudf/utils/gpu_utils.py:88: "
     "UserWarning: A GPU with NVIDIA Pascal™ (Compute Capability 6.0) or newer architecture is required.\n"
     "Detected GPU 0: Tesla M60\nDetected Compute Capability: 5.2\n  warnings.warn(\n"
     "RuntimeError: This cuDF installation is missing the necessary PTX files that are <=52.\n",
     "gpu.below_library_minimum", "Run RAPIDS on a GPU of compute capability 6.0 (Pascal) or newer"),
    # -- Emgu CV: a CUDA build whose list starts above the GPU (IsCompatible false) -------------------------------------
    # https://github.com/emgucv/emgucv/issues/376 (the burned fresh15 n34; 4.4 "targeted compute 6.0 and higher")
    ("But I got an error {\"OpenCV: invalid device symbol\"}  on the line x.Detect(...)\n\n"
     " var x = new Emgu.CV.Cuda.CudaHoughLinesDetector(1.0,1.0, 10);\n x.Detect(ImgGpu, lines);`\n\n"
     "I could not found useful information on the web.\nBut , I noticed  the IsCompatible in CudaDeviceInfo is false.\n"
     "Is that the root cause ?\n\nVideo Card : GTX950\nEmguCv.cuda : 4.4.0.4077\n",
     "gpu.below_library_minimum", "4.5.1 or newer, not 4.3/4.4"),
    # -- Kepler under a program whose CUDA still compiles for it: the program's own list decides -----------------------
    # https://github.com/triton-inference-server/server/issues/3 (the burned fresh15 n38; the server supports 5.2+)
    ("Server: nvcr.io/nvidia/inferenceserver:18.08.1-py3\nClient: Branch:18.08\nCUDA Version 9.0.176\nCards: K80\n\n"
     "Error message:\nfailed sending infer request: [inference:0 30] INTERNAL - failed to run model 'resnet50_netdef': "
     "[enforce fail at context_gpu.h:171] . Encountered CUDA error: no kernel image is available for execution on the "
     "device Error from operator:\n",
     "runtime.no_kernel_image", "Run it on a GPU the program supports"),
    # -- guards: near-miss wordings keep their answers -------------------------------------------------------------------
    # https://github.com/tlkh/ai-lab/issues/30 (TensorFlow's own wording keeps its TensorFlow variant)
    ("`Ignoring visible gpu device (device: 0, name: Tesla K80, compute capability: 3.7) with Cuda compute capability "
     "3.7. The minimum required Cuda capability is 6.0.`\n",
     "gpu.below_library_minimum", "Use a TensorFlow built for compute capability 3.7"),
    # https://github.com/NVIDIA/nccl-tests/issues/79 (nvidia-smi's "CUDA Version" is the driver's, not the build's:
    # the Kepler variant of "a build with CUDA <= 11.8" stays)
    ("I have 8 Tesla K80\n```\nNVIDIA-SMI 460.27.04    Driver Version: 460.27.04    CUDA Version: 11.2\n```\n"
     "#   Rank  0 Pid  48592 on zlabs-trainer device  0 [0x06] Tesla K80\n"
     "           8             2   float     sumzlabs-trainer: Test CUDA failure common.cu:253 'no kernel image is "
     "available for execution on the device'\n",
     "runtime.no_kernel_image", "gets code only from CUDA 11.8 or older"),
    # plain "no device" stays the visibility/driver answer
    ("RuntimeError: No CUDA GPUs are available\n", "runtime.no_device", ""),
]

test_first_answer = first_answer_tests(CASES)

# program bugs and unrelated "compatible" wordings stay unclaimed
UNCLAIMED = [
    "plugin.isCompatible() returned false for version 2.3\nIndexError: list index out of range\n",
    "the kernel requires a restart\nValueError: shapes (3,4) and (5,6) not aligned\n",
    "DeviceInfo: name=Pixel 7, compatible=true\nTypeError: 'NoneType' object is not subscriptable\n",
]


def test_not_claimed() -> None:
    from cudaenv.knowledge.explain import explain

    for text in UNCLAIMED:
        assert not [m.id for m in explain(text) if m.environment], text


def test_numba_toolkit_minimum_is_not_a_program_minimum() -> None:
    """numba's "(requires >=X)" names the CUDA toolkit's NVVM minimum, which an older cudatoolkit moves
    (numba/numba#3713, https://github.com/rapidsai/cusignal/issues/284): not "the program's minimum"."""
    from cudaenv.knowledge.explain import explain

    text = ("numba.cuda.cudadrv.error.NvvmSupportError: GPU compute capability 3.0 is not supported "
            "(requires >=3.5)\n")
    assert "gpu.below_library_minimum" not in [m.id for m in explain(text)]


def test_a_stated_minimum_is_not_the_gpus_capability():
    """The GPU's capability is the one the log gives the GPU, not the minimum the program states beside it
    (https://github.com/iperov/DeepFaceLab/issues/264: "minimum required compute capability 3.5", a 780M of 3.0)."""
    from cudaenv.knowledge.explain.extract import facts
    from cudaenv.knowledge.explain.text import LogText

    log = ("No CUDA device found with minimum required compute capability 3.5\n"
           "My graphic card is dual GeForce 780M with a compute capability 3.0.\n")
    assert facts(LogText(log))["gpu_cc"] == "3.0"
    assert facts(LogText("No CUDA device found with minimum required compute capability 3.5\n"))["gpu_cc"] == ""
