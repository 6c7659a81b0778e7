"""Round 15, facts that contradict a first fix: the driver the log prints (extract.py `driver_seen`, `driver_seen_cuda`)
and the GPU it names (`gpu_name`, `gpu_cc`, from knowledge/gpus.yaml or the capability the log states). A first fix
those facts rule out ("upgrade the driver" beside a driver that runs the program's CUDA; "a build for this GPU" for a
GPU no current CUDA compiles for) does not come first. Excerpts are verbatim (trimmed) from the threads named above
them."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain.extract import facts
from cudaenv.knowledge.explain.text import LogText

CASES = [
    # -- (1) error 35 beside a driver that runs the program's CUDA: the process does not reach it ----------------------
    # https://github.com/imagegenius/docker-immich/issues/349 (the burned fresh14 m33: a container variable with a stray
    # space; "the driver was fine")
    ("CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version\n\n"
     "OS: UnRAID 6.12.10\nNvidia Driver: v550.78 (Quadro RTX 4000 should fine for CUDA 12)\nImmich: v1.102.3\n",
     "runtime.insufficient_driver", "if the program runs in a container"),
    # https://github.com/NVIDIA/DIGITS/issues/1769 ("ONLY DOCKER": the host install works; the image's nvcc is 8.0 and
    # nvidia-smi inside shows 375.39, which runs CUDA 8.0)
    ("> Check failed: error == cudaSuccess (35 vs. 0)  CUDA driver version is insufficient for CUDA runtime version\n\n"
     "`sudo nvidia-docker run --rm nvidia/cuda nvcc --version` prints: \n\n```\nNVIDIA (R) Cuda compiler driver\n"
     "Cuda compilation tools, release 8.0, V8.0.61\n```\n\nAnd `sudo nvidia-docker run --rm nvidia/cuda nvidia-smi` prints:\n"
     "| NVIDIA-SMI 375.39                 Driver Version: 375.39                    |\n",
     "runtime.insufficient_driver", "check the container's GPU setup first"),
    # https://github.com/NVIDIA/cudf/issues/328 (driver 410 runs CUDA 10.0, the image's nvcc is 9.2; "The old version of
    # the container still works fine in the same configuration": the image, not the driver)
    ("GDFError: CUDA ERROR. cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version\n"
     "I am using drivers version 410, but I tried downgrading to 396 and still got the same error.\n"
     "docker run --runtime=nvidia --rm -it -p 8888:8888 rapidsai/rapidsai:latest\n"
     "Cuda compilation tools, release 9.2, V9.2.148\n"
     "| NVIDIA-SMI 410.66       Driver Version: 410.66       CUDA Version: 10.0     |\n",
     "runtime.insufficient_driver", "410.66, runs CUDA 10.0 natively, and the log shows the program needs CUDA 9.2"),
    # guard: a CUDA 11 driver with no CUDA named for the program keeps "upgrade the driver" (https://github.com/
    # chenhunghan/ialacol/issues/45: ctransformers built with CUDA 12 on a runner)
    ("CUDA error 35 at /home/runner/work/ctransformers/ctransformers/models/ggml/ggml-cuda.cu:4236: CUDA driver version "
     "is insufficient for CUDA runtime version\n| NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: "
     "11.7     |", "runtime.insufficient_driver", "upgrade the driver"),
    # guard: torch's own number is the driver's truth (NVIDIA-BioNeMo/nvMolKit#209 style): the torch build first
    ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n"
     "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n",
     "runtime.insufficient_driver", "This driver runs CUDA 11.4 at most"),
    # guard: the driver printed runs an older CUDA major than the image's: upgrading it stays first (a CUDA 11 driver
    # cannot run a CUDA 12 runtime even with minor-version compatibility; a 11.8 image on it would run)
    ("cudaGetDeviceCount returned 35\n-> CUDA driver version is insufficient for CUDA runtime version\n"
     "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n"
     "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n",
     "runtime.insufficient_driver", "upgrade the driver"),
    # -- (2) a GPU no current CUDA major compiles for (Kepler: CUDA 12 dropped sm_35/sm_37) -----------------------------
    # https://github.com/NVIDIA/nccl-tests/issues/79 (8x Tesla K80)
    ("I have 8 Tesla K80\n```\nNVIDIA-SMI 460.27.04    Driver Version: 460.27.04    CUDA Version: 11.2\n```\n"
     "#   Rank  0 Pid  48592 on zlabs-trainer device  0 [0x06] Tesla K80\n"
     "           8             2   float     sumzlabs-trainer: Test CUDA failure common.cu:253 'no kernel image is available for execution on the device'\n",
     "runtime.no_kernel_image", "This GPU (Tesla K80, compute capability 3.7) gets code only from CUDA 11.8 or older"),
    # https://github.com/LostRuins/koboldcpp/issues/1409 (K80 on Windows; the maintainer built K80 back in)
    ("ggml_cuda_compute_forward: ADD failed\n"
     "CUDA error: no kernel image is available for execution on the device\n"
     "  current device: 0, in function ggml_cuda_compute_forward at d:\\a\\koboldcpp\\koboldcpp\\ggml\\src\\ggml-cuda\\ggml-cuda.cu:2325\n"
     "Using on K80 Tesla Windows - Cuda No Kernal Image\n",
     "runtime.no_kernel_image", "compute capability 3.7) gets code only from CUDA 11.8 or older"),
    # https://github.com/googlecolab/colabtools/issues/2377 (K80 under CUDA 11.1's nvcc; `-arch=sm_37` worked)
    ("`Device Variable Copying: no kernel image is available for execution on the device`\n\n"
     "If compiling with `!nvcc -arch=sm_37 -gencode=arch=compute_37,code=sm_37 file.cu -o a.out`, it works without any error.\n"
     "The runtime uses a Tesla K80 GPU.\n",
     "runtime.no_kernel_image", "gencode arch=compute_37,code=sm_37"),
    # https://github.com/filecoin-project/rust-gpu-tools/issues/79 (the burned fresh14 m37: the example's fatbin starts
    # at compute_52; the reporter moved to a V100)
    ("thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Cuda(NoBinaryForGpu)', examples/add.rs:10:76\n"
     "I use Tesla K80 GPU and how can I solve it.\n",
     "runtime.no_kernel_image", "or run it on a newer GPU"),
    # TensorFlow's own device line states the capability ("major: 3 minor: 7"): smallcorgi/Faster-RCNN_TF#330
    # (https://github.com/smallcorgi/Faster-RCNN_TF/issues/330)
    ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1105] Found device 0 with properties: \n"
     "name: Tesla K80 major: 3 minor: 7 memoryClockRate(GHz): 0.8235\n"
     "status: no kernel image is available for execution on the device\n",
     "runtime.no_kernel_image", "compute capability 3.7"),
    # guard: a GPU current toolkits still compile for keeps the producer's own answer (ggml-org/ggml#465, fresh14 m38)
    ("ggml_init_cublas: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce 940MX, compute capability 5.0\n"
     "CUDA error 209 at D:\\Download\\ggml-master\\ggml-master\\src\\ggml-cuda.cu:5284: no kernel image is available for execution on the device\n",
     "runtime.no_kernel_image", "Get a llama.cpp build with kernels"),
    # -- (3) THC's "the GPU program failed to execute" beside a GPU newer than the CUDA the log names -------------------
    # https://github.com/pytorch/pytorch/issues/18620 (the burned fresh14 m42: "use a CUDA 10 build")
    ("I am using Pytorch 1.0.1 and cuda 9.0 with a RTX 2080 Ti GPU. If I apply torch.matmul(x1, x2) function to 2 random "
     "tensors, i.e. x1 (128, 64, 32) and x2 (128, 32, 64) on GPU, I get following error message: \n"
     "RuntimeError: cublas runtime error : the GPU program failed to execute at /opt/conda/conda-bld/pytorch_1549635019666/work/aten/src/THC/THCBlas.cu:441\n",
     "status.gpu_newer_than_build", "This GPU (RTX 2080 Ti, compute capability 7.5) is known from CUDA 10.0 on"),
    # https://github.com/RenYurui/StructureFlow/issues/12 (TITAN RTX under CUDA 9.0: "mismatches with cuda9.0")
    ("    correction = torch.bmm(input_norm, gt_norm)                       #[b N2 N2]\n"
     "RuntimeError: cublas runtime error : the GPU program failed to execute at /opt/conda/conda-bld/pytorch_1556653183467/work/aten/src/THC/THCBlas.cu:450\n\n"
     "Ubuntu 16.04\nGPU NVIDIA TITAN RTX\nCUDA 9.0 pytorch 1.1.0 python 3.6.9\n",
     "status.gpu_newer_than_build", "install a build of the framework made for CUDA 10.0 or newer"),
    # -- (4) cuDNN's NOT_INITIALIZED beside a driver below the minimum of the CUDA the log names ----------------------
    # https://github.com/localminimum/QANet/issues/5 (the burned fresh13 h37: "it works after I update driver to 387.34")
    ("2018-03-23 11:55:55.959752: E tensorflow/stream_executor/cuda/cuda_dnn.cc:385] could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2018-03-23 11:55:55.959887: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:369] driver version file contents: \"\"\"NVRM version: NVIDIA UNIX x86_64 Kernel Module  384.69  Wed Aug 16 19:34:54 PDT 2017\n"
     "2018-03-23 11:55:55.959970: E tensorflow/stream_executor/cuda/cuda_dnn.cc:393] possibly insufficient driver version: 384.69.0\n"
     "tensorflow version: 1.5.0\nCUDA: 9.0\nCudnn: 7.0\nDriver Version: 384.69\n",
     "cudnn.not_initialized", "Upgrade the NVIDIA driver to 384.81 or newer"),
    # https://github.com/tensorflow/tensorflow/issues/30254 (a comment: TF 1.8 with CUDA 9.1.84 on 384.183). [r15 merge]
    # TensorFlow's own release table decides first: the TF 1.8 wheel loads CUDA 9.0 (tensorflow.yaml), which 384.183
    # runs, so the driver line is no evidence and TensorFlow's memory comes first (tests/test_explain_r15_frameworks.py)
    ("I have the same issue with `tensorflow-gpu==1.8.0`, `cudnn==7.0.5` and `cuda=9.1.84` on ubuntu 16.04\n"
     "2019-07-25 05:52:04.890160: E tensorflow/stream_executor/cuda/cuda_dnn.cc:455] could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2019-07-25 05:52:04.890268: E tensorflow/stream_executor/cuda/cuda_dnn.cc:463] possibly insufficient driver version: 384.183.0\n",
     "cudnn.not_initialized", "export TF_FORCE_GPU_ALLOW_GROWTH=true"),
    # guard: https://github.com/tensorflow/tensorflow/issues/22056 (390.77 runs CUDA 9.0: the line alone is no evidence)
    ("TensorFlow: 1.10.1\ncuda: 9.0\ncudnn: cudnn7.1 for cuda9.0\nnvidia-driver: 390\n"
     "Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
     "2018-09-04 23:13:52.571542: E tensorflow/stream_executor/cuda/cuda_dnn.cc:360] Possibly insufficient driver version: 390.77.0\n",
     "cudnn.not_initialized", "If `nvidia-smi` shows the GPU's memory (nearly) full"),
    # -- (2b) "device kernel image is invalid" beside a driver that runs the GPU's first CUDA: the library predates it --
    # [r15 merge] for TensorFlow the frameworks helper's variant answers first with the same resolution in TF's terms
    # https://github.com/tensorflow/tensorflow/issues/43701 (RTX 3080, 455.23.04, TF 2.3.1 built with CUDA 10.1)
    ("GeForce RTX 3080 \nNVIDIA driver 455.23.04 + CUDA10.1 + Cudnn7.6.5\nenvs: tensorflow-gpu==2.3.1\n"
     "RuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid\n",
     "status.kernel_image_invalid", "Install a TensorFlow release built for this GPU"),
    # https://github.com/tensorflow/tensorflow/issues/41990 (RTX 3090, 455.38; TF 2.4 with CUDA 11 solved it)
    ("Cuda 10.1 (`nvcc --version -> V10.1.243`)\nCudnn 7.6.5.32\nNvidia Drivers 455.38 (`nvidia-smi`)\n"
     "Nvidia RTX 3090\npip3 install tensorflow-gpu -> TENSORFLOW 2.3 \n"
     "RuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid\n",
     "status.kernel_image_invalid", "Install a TensorFlow release built for this GPU"),
    # https://github.com/tensorflow/tensorflow/issues/43718 (the burned fresh14 m40)
    ("RTX 3090\nDriver Version: 455.23.05    CUDA Version: 11.1\ntensorflow 2.3\n"
     "RuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid\n",
     "status.kernel_image_invalid", "Install a TensorFlow release built for this GPU"),
    # https://github.com/cupy/cupy/issues/8045 (RTX 4080: "Please use CuPy v11 or later"): CuPy's own variant stays first
    ("cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_SOURCE: device kernel image is invalid\n"
     "GPU: NVIDIA GeForce RTX 4080\n"
     "| NVIDIA-SMI 545.23.08              Driver Version: 545.23.08    CUDA Version: 12.3     |\n",
     "status.kernel_image_invalid", "Install a CuPy release that supports this GPU"),
    # guard: Triton's own variant with a CUDA 11 driver stays (the driver really is too old for Triton's ptxas)
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n"
     "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n| NVIDIA A100-SXM4-40GB |\n",
     "status.kernel_image_invalid", "Triton compiles with its own ptxas"),
]

test_first_answer = first_answer_tests(CASES)

# program bugs that name a GPU and a driver must stay unclaimed or program-bug verdicts
UNCLAIMED = [
    # https://github.com/pytorch/pytorch/issues/7548 ("a mistake on loading input data, not an environment case")
    "RuntimeError: cublas runtime error : the GPU program failed to execute at /home/abc/caimx/opensource/pytorch/aten/"
    "src/THC/THCBlas.cu:249\nmy environment in my PC is:\nCUDA-9.0\nCUDNN v7\n",
    "| NVIDIA-SMI 550.78    Driver Version: 550.78    CUDA Version: 12.4 |\n|   0  Tesla K80 |\n"
    "IndexError: list index out of range\n",
    "Found GPU0 Tesla K80 which is of cuda capability 3.7.\nValueError: shapes (3,4) and (5,6) not aligned\n",
]


def test_not_claimed() -> None:
    from cudaenv.knowledge.explain import explain

    for text in UNCLAIMED:
        assert not [m.id for m in explain(text) if m.environment], text


FACTS = [
    # (text, gpu_name, gpu_cc, driver_seen, driver_seen_cuda)
    ("| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n|   0  NVIDIA A100-SXM4-80GB  On |",
     "A100", "8.0", "535.104.05", "12.2"),
    ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01  Tue Oct 26 21:21:42 UTC 2021", "", "", "470.82.01",
     "11.4"),
    ("Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.", "GTX 1080 Ti", "6.1", "", ""),
    ("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
     "RTX 5090", "12.0", "", ""),
    ("GPU 0: NVIDIA L40S", "NVIDIA L40S", "8.9", "", ""),
    ("Quadro RTX 6000 and an RTX 6000 Ada", "Quadro RTX 6000", "7.5", "", ""),
    ("the A10 is fine; the A2 instance", "", "", "", ""),  # bare short names are not read as GPUs
]


def test_facts() -> None:
    for text, name, cc, driver, cuda in FACTS:
        got = facts(LogText(text))
        assert (got["gpu_name"], got["gpu_cc"], got["driver_seen"], got["driver_seen_cuda"]) == (name, cc, driver, cuda), (
            text, got)
