"""What an answer may claim: the tools, platforms and places a title or cause names, and what in a log shows each.

An answer that names a tool the log does not show (DeepSpeed's op builder for lightseq's log, a jaxlib for a
TensorFlow log, a container for a bare machine) is wrong however right its fix: the reader checks the claim against
their log first. :data:`CLAIMS` lists the names the knowledge base's titles and causes use for such things (the
producers, platforms, containers and schedulers :mod:`.extract` reads, and the frameworks entries are written for),
each with the words that name it in an answer and the words in a log that show it. :func:`unshown` is what
``tests/test_explain_r11_engine.py`` sweeps the whole corpus with: the first answer to every log names nothing
from this list that the log does not show.
"""

from __future__ import annotations

import re

__all__ = ["CLAIMS", "unshown"]

_I = re.IGNORECASE

#: A shell prompt on Windows' default computer name (DESKTOP- and 7, LAPTOP- and 8 letters or digits): WSL's Linux
#: hostname is the Windows name. extract.py's `platform` fact reads the same prompt.
_WINDOWS_PROMPT = r"@(?:desktop-[a-z0-9]{7}|laptop-[a-z0-9]{8}):"

#: (name, how an answer names it, what in a log shows it). Both case-insensitive.
CLAIMS = [
    # [r20 docsfw] its op builder's "Unable to pre-compile async_io" / "Unable to JIT load the async_io op"
    ("deepspeed", r"\bDeepSpeed\b", r"deepspeed|\bds_report\b|\bDS_BUILD|\basync_io\b"),
    # JAX's own words: "CUDA backend failed to initialize" (xla_bridge), XLA_PYTHON_CLIENT_*, jaxlib's bare
    # XlaRuntimeError / JaxRuntimeError (the latter found by "jax"), xla_bridge's "No GPU/TPU found, falling back to
    # CPU" and jax.devices()'s "[CpuDevice(id=0)]" (sanchit-gandhi/whisper-jax#106, fresh32 432)
    # (not XLA itself: TensorFlow's logs name tensorflow/compiler/xla and "XLA service", fresh11 f64)
    ("jax", r"\bjax(?:lib)?\b|\bJAX\b", r"\bjax|xla_bridge|XLA_PYTHON|pjrt|external/xla/|external/org_tensorflow|"
                                          r"CUDA backend failed to initialize|XlaRuntimeError|No GPU/TPU found"
                                          r"|CpuDevice\(id="),
    ("tensorflow", r"\bTensorFlow\b", r"tensorflow|stream_executor|\btf[._-]|\btf\b|keras"),
    # [r20 docsfw] its driver selection's own words (runtime/driver.py: "0 active drivers ([]).")
    ("triton", r"\bTriton\b", r"triton|torch\.compile|inductor|active drivers \(\["),
    ("xformers", r"\bxformers\b", r"xformers"),
    ("vllm", r"\bvLLM\b", r"vllm"),
    ("bitsandbytes", r"\bbitsandbytes\b", r"bitsandbytes|libbitsandbytes"),
    # [r20 docsfw] its GPU discovery's own words (discover/gpu.go)
    ("ollama", r"\bOllama\b", r"ollama|GPU inference disabled|disabling GPU support"),
    ("llama.cpp", r"\bllama\.cpp\b", r"llama|ggml|gguf"),
    ("onnxruntime", r"\bONNX ?Runtime\b|\bonnxruntime\b", r"onnx"),
    # [r20 docsfw] the plan reader's own words (stdArchiveReader, coreReadArchive's verifyHeader, kPLAN_MAGIC_TAG)
    # [r26 tune] TensorRT's parser libraries (libnvparsers, libnvonnxparser) are its own sonames too (fresh26 z38:
    # DeepStream's libnvdsgst_infer.so missing libnvparsers.so.5)
    ("tensorrt", r"\bTensorRT\b", r"tensorrt|nvinfer|nvparsers|nvcaffe_parser|nvonnxparser|\btrt|\.engine\b|\.plan\b|engine plan file|"
                                    r"CudaEngine|ArchiveReader|verifyHeader|kPLAN_MAGIC_TAG"),
    ("cupy", r"\bCuPy\b", r"cupy"),
    # numba's own frame: "[218] Call to cuLinkAddData results in ...", its LinkerError
    # [t29 run] and its library probe's (`numba -s`, cudadrv/libs.py test()): "Finding cublas" / "ERROR: can't locate lib"
    ("numba", r"\bnumba\b", r"numba|\[\d+\] Call to cu\w+ results in|LinkerError|"
                            r"Finding (?:cublas|cusparse|cufft|curand|nvvm|libdevice)\s+ERROR: can't locate lib"),
    ("apex", r"\bapex\b", r"apex"),
    ("flash-attn", r"\bflash[-_ ]?attn\b|\bFlashAttention\b", r"flash[-_]?attn|flashattention|flash_attn"),
    ("mmcv", r"\bmmcv\b", r"mmcv|mmdet|mmseg|openmmlab|mmengine"),
    ("detectron2", r"\bdetectron2\b", r"detectron"),
    ("paddle", r"\bPaddle(?:Paddle)?\b", r"paddle"),
    ("julia", r"\bJulia\b|\bCUDA\.jl\b", r"julia|cuda\.jl|\.jl\b"),
    ("conda", r"\bconda\b|\bAnaconda\b|\bMiniconda\b|\bmamba\b", r"conda|mamba|/envs/|cudatoolkit|conda-forge"),
    ("docker", r"\bdocker\b|\bcontainer'?s?\b", r"docker|container|podman|\bpod\b|kubernetes|kubectl|k8s|singularity"
                                                r"|apptainer|enroot|root@[0-9a-f]{12}|/\.dockerenv|\bnvcr\.io|\bimage\b"
                                                # the daemon's words; a container id as the host name (NCCL's
                                                # host:pid:tid prefix); nvidia-container-cli's own message
                                                r"|could not select device driver|(?<![\w-])[0-9a-f]{12}:\d+:\d+"
                                                r"|initialization error: (?:cuda|nvml) error|\bveth|\bbr-[0-9a-f]"
                                                # [r22 tc] the Docker CLI's prefix of every error the daemon
                                                # returns (nvidia-docker#493: "Error response from daemon: get
                                                # nvidia_driver_381.22: no such volume")
                                                r"|error response from daemon\b"
                                                # docker compose's service prefix on every line ("app_1  | ...")
                                                r"|(?:^|\n)[\w.-]+[_-]\d+\s{1,4}\|\s"),
    ("apptainer", r"\bApptainer\b|\bSingularity\b", r"apptainer|singularity|\.sif\b"),
    # the device plugin's own start-up lines ("Loading NVML", "Failed to start nvml")
    ("kubernetes", r"\bKubernetes\b|\bpod\b", r"kube|k8s|\bpod\b|helm|nvidia\.com/gpu|device.plugin|start nvml"),
    # [r19 f19container] a bash prompt on Windows' default computer name (`root@DESKTOP-5A67SBM:/home/x#`) is WSL's:
    # its Linux hostname is the Windows name (docker/for-win#10379); NVML's "GPU access blocked by the operating system"
    # (NVML_ERROR_OPERATING_SYSTEM) is what WSL's libnvidia-ml says when /dev/dxg is refused (microsoft/WSL#9938, #9962,
    # NVIDIA/nvidia-container-toolkit#85: fresh19 s38, which the sweep read once fresh19 was burned)
    ("wsl", r"\bWSL ?2?\b", r"wsl|/mnt/[cde]/|microsoft-standard|dxg|dxcore|lxss|" + _WINDOWS_PROMPT
                              + r"|gpu access blocked by the operating system"),
    # WSL and Docker Desktop's WSL 2 backend run on a Windows host
    ("windows", r"\bWindows\b", r"windows|wsl|docker desktop|[a-z]:[\\/]|\.dll\b|\.exe\b|msvc|visual studio|msbuild"
                                  # [r20 docsfw] the reporter's "win10" / "win 11" (ChatTTS#133)
                                  r"|powershell|\bcl\b|\bwin ?1[01]\b|" + _WINDOWS_PROMPT +
                                  # [r30 lead] cmd.exe's and PowerShell's own "not found" (extract.py's platform too)
                                  r"|is not recognized as (?:an internal or external command|(?:the|a) name of a cmdlet)"
                                  # [t31] the CUDA libraries' Windows DLL names (cublas64_10, cudnn64_8: Linux names them
                                  # libcublas.so.10), as .NET's DllNotFoundException quotes them without ".dll" (the
                                  # burned fresh31 j69, ILGPU)
                                  r"|\b(?:cublas(?:lt)?|cudart|cudnn\w{0,20}|cufft\w?|curand|cusparse|cusolver|nvrtc|npp\w{1,6})64_\d{1,3}\b"),
    ("mac", r"\bmacOS\b|\bApple Silicon\b", r"darwin|macos|mac ?os|\bmac\b|apple|\.dylib|/Users/|\bmps\b"),
    ("slurm", r"\bSlurm\b", r"slurm|srun|sbatch|salloc"),
    # the other tools the knowledge base's titles name
    ("ctranslate2", r"\bCTranslate2\b", r"ctranslate2|faster.whisper|whisperx"),
    ("mxnet", r"\bMXNet\b", r"mxnet"),
    ("opencv", r"\bOpenCV\b", r"opencv|\bcv2\b"),
    ("kokkos", r"\bKokkos\b", r"kokkos|nvcc_wrapper"),  # nvcc_wrapper is Kokkos' own
    ("kaggle", r"\bKaggle\b", r"kaggle"),
    ("nix", r"\bNix\b|\bNix-built\b", r"\bnix\b|/nix/store|nixos"),
    ("rust", r"\bRust\b", r"rust|cargo|\.rs\b"),
    ("amrex", r"\bAMReX\b", r"amrex"),
    ("dgl", r"\bDGL\b", r"\bdgl"),
    ("lightgbm", r"\bLightGBM\b", r"lightgbm"),
    ("autogptq", r"\bAutoGPTQ\b", r"auto.?gptq"),
    ("rapids", r"\bRAPIDS\b|\bcuDF\b", r"rapids|cudf|cuml"),
    # a CUDA library the answer names (its soname or its name in the log)
    ("cudnn", r"\b(?:lib)?cuDNN\b", r"cudnn"),
    # NCCL's own source lines ("include/socket.h:344 WARN ...") name no NCCL, nor do NCCL's tests (nccl-tests' result
    # table, whose algbw/busbw columns nothing else prints: NVIDIA/nccl#104, #85)
    ("nccl", r"\b(?:lib)?NCCL\b", r"nccl|include/socket\.h|\bWARN\b|\balgbw\s+busbw\b"),
    ("cublas", r"\b(?:lib)?cuBLAS(?:Lt)?\b", r"cublas"),
    ("cusparse", r"\b(?:lib)?cuSPARSE\b", r"cusparse"),
    ("cufft", r"\b(?:lib)?cuFFT\b", r"cufft"),
    ("cusolver", r"\b(?:lib)?cuSOLVER\b", r"cusolver"),
    ("nvrtc", r"\b(?:lib)?NVRTC\b", r"nvrtc"),
    ("nvjitlink", r"\b(?:lib)?nvJitLink\b", r"nvjitlink"),
    # a fact, not a tool: another copy of a library ahead of the one the program brings (fresh11 f62: said of JAX's
    # wheels for a log that shows no loader path, no second copy; the thread's packages were of two releases)
    ("another copy first", r"\bon the loader path comes first\b|\bolder (?:copy|CUDA library) (?:on|in) (?:the loader "
                           r"path|LD_LIBRARY_PATH)",
     r"LD_LIBRARY_PATH|LD_PRELOAD|\bldd\b|ldconfig|/usr/local/cuda|/opt/|module load|/lib64\b|/usr/lib/x86_64"),
    ("colab", r"\bColab\b", r"colab|/content/"),
    ("jetson", r"\bJetson\b|\bL4T\b", r"jetson|tegra|l4t|orin|xavier|aarch64|jetpack|libnvdla|libnvrm_|libnvos\b"),
]

_COMPILED = [(name, re.compile(answer, _I), re.compile(log, _I)) for name, answer, log in CLAIMS]


_ASIDE = re.compile(r"\([^()]*(?:\([^()]*\)[^()]*)*\)")
# A sentence that offers alternatives or a general rule says what may be, not what this log is.
_HEDGE = re.compile(r"\b(?:or|nor|either|usually|typical(?:ly)?|often|commonly|e\.g|such as|like|if|when|whether|"
                    r"may|might|can|could|unless|some|other|others|also|every|each|any|most|many|all|never|"
                    r"always|only)\b|\betc\b|\bin the threads\b", _I)
_SENTENCE = re.compile(r"(?<=[.;:!?])\s+(?=[A-Z`])|;\s+")


def claimed(title: str, cause: str) -> str:
    """What an answer claims about the log: its title (without the asides in parentheses that hedge: "(usually
    Docker Desktop's ...)"), and the sentences of its cause that state a fact rather than offer alternatives or a
    general rule (no "or", "usually", "if", "e.g."...), without their asides ("a program or framework (onnxruntime,
    TensorRT, ...)" lists examples)."""
    title = _ASIDE.sub(lambda m: "" if _HEDGE.search(m.group(0)) else m.group(0), title)
    kept = [s for s in _SENTENCE.split(_ASIDE.sub("", cause)) if not _HEDGE.search(s)]
    return "\n".join([title, *kept])


def unshown(title: str, cause: str, log: str) -> list[str]:
    """The names of :data:`CLAIMS` that an answer (``title``, ``cause``) claims (:func:`claimed`) and ``log`` does
    not show."""
    said_text = claimed(title, cause)
    return [name for name, said, shown in _COMPILED if said.search(said_text) and not shown.search(log)]
