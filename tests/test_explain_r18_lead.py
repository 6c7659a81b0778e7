"""Round 18, the lead's changes to explain's answers (real excerpts, sources in comments)."""

from __future__ import annotations

import functools
import importlib.util
import os

import pytest

from explain_answers import first_answer_tests

CASES = [
    # NVIDIA/cuda-samples#388 (fresh17 q05, burned): CUDA 12.9 refuses compute_110 (Thor's, first in 13.0) from the
    # samples' architecture list on an RTX 5070 (sm_120, which 12.9 compiles for). The GPU does not need it: the list
    # loses 110 (the thread's workaround), or the toolkit becomes 13.0.
    ("""OS: Ubuntu 22.04.5 LTS, kernel 6.8.0-79-generic
CUDA Toolkit: 12.9 (V12.9.86)
GPU: NVIDIA GeForce RTX 5070
Driver: 580.65.06
Run `cmake ..` with the default `CMakeLists.txt` (architectures include `75 80 86 87 89 90 100 110 120`).
nvcc fatal   : Unsupported gpu architecture 'compute_110'
""", "nvcc.unsupported_arch", "Take compute_110 out of the build's architecture list"),
    # guard: an H100 (sm_90, first in CUDA 11.8) under CUDA 11.7 refusing compute_89 needs the newer toolkit anyway,
    # since 11.7 does not compile for the GPU's own architecture either
    ("""Cuda compilation tools, release 11.7, V11.7.99
GPU 0: NVIDIA H100 PCIe (compute capability 9.0)
nvcc fatal   : Unsupported gpu architecture 'compute_89'
""", "nvcc.unsupported_arch", "Build with CUDA 11.8 or newer"),
]

test_first_answer = first_answer_tests(CASES)


# -- the matcher's pre-filters (text.py): sound, so they can only save time, never lose a match

def test_a_group_every_match_passes_through_gives_its_literal():
    from cudaenv.knowledge.explain.text import required_literal

    assert required_literal(r"(?P<ordinal>cudaErrorInvalidDevice)\b") == "cudaErrorInvalidDevice"
    assert required_literal(r"(?P<side>remote|local)=\[(?P<addr>127\.0\.[01]\.1)\]") == "127.0."
    assert required_literal(r"(?:libcudart)+\.so") == "libcudart"
    # optional groups, look-arounds, flag groups and global flags give no literal from inside them
    for pattern in [r"(?:libcudart)?\.so", r"(?:libcudart)*x", r"(?:libcudart){0,2}x", r"(?=libcudart)\w+",
                    r"(?!libcudart)\w+", r"(?<=libcudart)\w+", r"(?i:libcudart)\.so", r"(?i)libcudart\.so",
                    r"(?P=name)ab", r"(?:a|libcudart)x"]:
        assert "libcudart" not in (required_literal(pattern) or ""), pattern


def test_every_literal_is_in_every_match():
    """For every pattern of the knowledge base with a literal, each example of its entry that the pattern matches
    holds that literal (the literal is what the matcher looks for before it tries the pattern)."""
    import re

    from cudaenv.knowledge import kb
    from cudaenv.knowledge.explain.text import required_literal

    checked = 0
    for entry in kb.load_entries():
        for pattern in entry["patterns"]:
            lit = required_literal(pattern)
            for example in entry.get("examples") or ():
                m = re.search(pattern, example, re.MULTILINE)
                if m is not None and lit is not None:
                    assert lit in m.group(0), (entry["id"], pattern, lit)
                    checked += 1
    assert checked > 300


def test_shapes_never_hide_a_piece_of_a_word():
    """may_contain with the digit shapes answers as the text does, for pieces of words with digits in them."""
    import random

    from cudaenv.knowledge.explain.text import LogText, may_contain

    rng = random.Random(18)
    alphabet = "ab.1234567890_-/"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    text = "\n".join(" ".join(words[i:i + 7]) for i in range(0, len(words), 7)) + "\n" + "x" * (1 << 16)
    t = LogText(text)
    for _ in range(3000):
        w = rng.choice(words)
        a = rng.randrange(len(w))
        piece = w[a:rng.randint(a + 1, len(w))]
        assert may_contain(piece, t.words(), t.joined_words(), t.text, t.shapes())
    for _ in range(3000):
        needle = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 6)))
        assert may_contain(needle, t.words(), t.joined_words(), t.text, t.shapes()) == (needle in t.text), needle


# -- status.gpu_newer_than_build decided from the tables (gpus.yaml, compat.yaml) instead of a list of GPU names
GPU_NEWER = [
    # zzhang1987/Factor-Graph-Neural-Network#4 (maintainer: "you will have to use CUDA11"; RTX 3080 Ti, torch cu101)
    ("RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED.\nmy environment: pytorch: 1.5.1+cu101\n"
     "                                           CUDA 10.1\nit is GeForce RTX 3080 Ti.",
     "status.gpu_newer_than_build", ""),
    # AlexeyAB/darknet#2836 (RTX 2070 under CUDA 9.0.176, the GTX 1050 Ti beside it works; "Try to install CUDA 10.0"):
    # the GPU that decides is the one CUDA knew last, not the first named
    ("On the setup with GTX 1050Ti, everything works perfectly. Yet, when I switch to RTX 2070 card, I've got the "
     "following error:\n cuDNN status Error in: file: d:/tests/darknet/src/convolutional_kernels.cu : "
     "forward_convolutional_layer_gpu() : line: 538 : build time: Apr  4 2019 - 09:02:02\n"
     "cuDNN Error: CUDNN_STATUS_EXECUTION_FAILED\nSoftware versions:\n- Windows 10\n- CUDA 9.0.176\n- cuDNN 7.2\n",
     "status.gpu_newer_than_build", ""),
]

test_gpu_newer_than_build = first_answer_tests(GPU_NEWER)


def test_a_gpu_the_build_knows_is_no_answer():
    """An RTX 3090 beside torch 1.12's CUDA 11.6, or an RTX 2080 Ti beside CUDA 10.0: the status is not the GPU's."""
    from cudaenv.knowledge.explain import explain

    for text in ["RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, ...)`\n"
                 "torch 1.12.1+cu116, NVIDIA GeForce RTX 3090",
                 "cublas runtime error : the GPU program failed to execute at THCBlas.cu:246\nError while using RTX 2080Ti\n"
                 "cuda10.0"]:
        assert "status.gpu_newer_than_build" not in [m.id for m in explain(text)], text


def test_the_cuda_of_a_build_named_in_a_conda_listing():
    """MASILab/tumor-cifar#2 ("I was running the experiments on cuda10 ... you're running on 9.0"): a conda listing
    spaces its columns, and torch 1.1.0's build string names CUDA 9.0."""
    from cudaenv.knowledge.explain.derive import build_cudas_named
    from cudaenv.knowledge.explain.text import LogText

    text = ("cudatoolkit               9.0                          \nnumpy                     1.19.5                 \n"
            "pytorch                   1.1.0           py3.6_cuda90_cudnn7_1    pytorch\n")
    assert build_cudas_named(LogText(text)) == ["9.0", "10.2"]
    # nvidia-smi's header names the driver's CUDA, not a build's
    assert build_cudas_named(LogText("| NVIDIA-SMI 440.33.01    Driver Version: 440.33.01    CUDA Version: 10.2     |")) == []
    assert build_cudas_named(LogText("torch 2.5.1+cu124 on an RTX 5090")) == ["12.4"]


# -- a runner's prefix on every line (text.unprefixed): the corpus logs that lost their answer under one
_spec = importlib.util.spec_from_file_location("explain_paste_forms", os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "explain_paste_forms.py"))
RUNNERS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RUNNERS)
CORPUS = os.path.join(os.path.dirname(__file__), "data", "explain_corpus")
#: Each answered right as pasted, and lost (nothing, or another cause) under every runner's prefix before round 18.
PREFIX_LOST = [
    "fresh/506-xformers-built-for-torch230.log", "fresh/543-xid79-fallen-off-bus.log",
    "fresh10/e64-fast-sd-colab-torch-2-3-0-xformers-built-for-2-2-1.log",
    "fresh10/e70-jax-0-4-35-with-newer-cuda12-plugin-register-custom-type-id-handler.log",
    "fresh11/f04-flash-attn-258-torch212-cow-deleter.log", "fresh11/f62-mujoco-playground-jax-cusparse-plugin.log",
    "fresh11/f65-supir-xformers-built-for-torch220.log", "fresh12/g41-faster-qwen3-tts-torch-2-12-on-cuda-12-4-driver-t4.log",
    "fresh12/g65-microwakeword-docker-onnxruntime-cpu-shadows-gpu.log", "fresh13/h10-tensorrt-oss-library-infer-notfound.log",
    "fresh15/n07-gpu-voxels-cmake-findcuda-exact-version-from-opencv.log",
    "fresh15/n08-zed-ros-wrapper-cmake-cache-old-cuda-7-5.log", "fresh15/n12-caffe2-cmake-opencv-config-requires-cuda-7-5.log",
    "fresh15/n73-apollo-arch-opt-cuda-cmake-cuda-not-found.log", "fresh17/q01-xmr-stak-msbuild-cuda-9-1-unsupported-vs.log",
    "fresh17/q11-llama-cpp-cmake-3-17-cublaslt-target-not-found.log", "fresh3/708-xformers-built-for-torch-1131-a1111.log",
    "fresh5/910-xformers-built-cu121-torch-cu118-video-depth.log", "fresh6/a08-xformers-built-for-torch-2-4-comfyui-colab.log",
    "fresh8/c01-cmake-nvcc-bundle-atlas.log", "fresh8/c32-compose-torch-no-driver-capabilities-sd-webui-docker.log",
    "sampled/221-jax-outdated-cudnn-feedstock.log", "sampled/225-jax-outdated-cudnn-pixi.log",
    "sampled/283-torchvision-cuda-mismatch-colabui.log", "sampled/287-xformers-cpu-torch-pia.log",
    "sampled/288-xformers-cpu-torch-invoke.log", "sampled/289-xformers-other-torch-deforum.log",
    "sampled/290-xformers-other-cuda-800.log", "sampled/291-xformers-other-torch-fsd.log", "sampled/292-xformers-mac.log",
    "sampled/331-cmake-cuda-targets-missing.log", "sampled/358-container-no-gpus-floydhub.log",
    "sampled/360-container-no-uvm.log",
]


@functools.cache
def _as_pasted(name: str) -> tuple[str, str | None]:
    with open(os.path.join(CORPUS, name), encoding="utf-8", errors="replace") as f:
        text = f.read()
    return text, RUNNERS.first_id(text)


@pytest.mark.parametrize("runner", sorted(RUNNERS.RUNNERS))
def test_a_runners_prefix_keeps_the_answer(runner):
    lost = []
    for name in PREFIX_LOST:
        text, want = _as_pasted(name)
        assert want, name
        got = RUNNERS.first_id(RUNNERS.prefixed(text, runner))
        if got != want:
            lost.append((name, want, got))
    assert not lost, lost


def test_a_prefix_on_a_few_lines_is_the_programs_own():
    """srun's "0: " is taken away only when it starts most lines; a program's numbered list keeps its numbers, and the
    first prefixed line keeps the runner's evidence (compose's service: the container situation)."""
    from cudaenv.knowledge.explain.text import unprefixed

    listing = ["Found 2 GPUs:", "0: NVIDIA A100", "1: NVIDIA A100", "loading model", "starting", "RuntimeError: x"]
    assert unprefixed(listing) == listing
    compose = ["web-1  | a", "web-1  | b", "web-1  | c"]
    assert unprefixed(compose) == ["web-1  | a", "b", "c"]


# -- what a page, a chat or a console makes of a log (text.as_typed, text.unwrapped)
def test_a_log_wrapped_by_a_console_is_read_whole():
    """fresh3 705 (PaddlePaddle/Paddle#2230: a log as a 62-column console cut it, mid-word: "libc" / "udnn.so"): the
    message is read whole and its place is the line it starts on."""
    text, want = _as_pasted("fresh3/705-libcudnn-so-paddle-dynamicloader.log")
    from cudaenv.knowledge.explain import explain

    m = [m for m in explain(text) if m.environment][0]
    assert (m.id, m.line) == (want, 3) and "libcudnn.so (libcudnn.so: cannot open shared object file" in m.matched


@pytest.mark.parametrize("page", sorted(RUNNERS.PAGES))
def test_a_page_or_a_console_keeps_the_answer(page):
    """Logs whose messages run over 120 columns, each as a page or a console turns it: the same first answer. Each
    lost it under console-80 or console-120 (or both) before round 18."""
    lost = []
    for name in PAGE_LOGS:
        text, want = _as_pasted(name)
        got = RUNNERS.first_id(RUNNERS.form(text, page))
        if got != want:
            lost.append((name, want, got))
    assert not lost, lost


PAGE_LOGS = [
    "012-flash-attn-nvcc-not-found-windows.log", "148-gcc11-std-function-ninja.log",
    "fresh/555-ld-undefined-cublas-dso-caffe2.log", "fresh10/e62-cml-base1-gpu-cuda11-image-tf-2-2-libcudart-10-1.log",
    "fresh13/h37-tf-cudnn-not-initialized-driver-384.log", "fresh13/h61-paddle-ld-library-path-typo.log",
    "fresh15/n02-mistral-docker-apex-cuda-11-8-vs-torch-12-1.log",
    "fresh16/p34-videopipe-jetson-trt-plan-8-5-2-2-vs-8-5-1-7.log", "fresh4/806-jax-cusparse-hpc-ld-preload-cryojax.log",
    "fresh5/905-catkin-cudart-static-pthread-dso.log", "fresh7/b14-tf-serving-2-4-ptxas-sm86-cuda-11-0-image.log",
    "sampled/226-tf-cudnn-91-vs-93.log", "sampled/374-sm120-torch-nix.log", "sampled/384-jax-libdevice-cuda101.log",
]


def test_what_is_no_wrap_stays():
    """A device-side assert repeated per thread has many lines of one length, each a sentence: not a wrap."""
    from cudaenv.knowledge.explain.text import split_lines, unwrapped

    lines = [f"/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [{b},0,0], thread: [{t},0,0] "
             "Assertion `index >= -sizes[i] && index < sizes[i] && \"index out of bounds\"` failed." for b in range(3)
             for t in range(10, 40)]
    assert unwrapped(split_lines("\n".join(lines))) is None


# -- after the measurement (fresh18 burned, tuning): four producers' own wordings of known causes that its census found
# (bench/census/round18-fresh18.tsv, class K-wording, S)
FRESH18_WORDINGS = [
    # fresh18 r41 (ethereum-mining/ethminer: libethash-cuda/CUDAMiner.cpp's message, driver 396 under a CUDA 10.0 build)
    ("CUDA error: Insufficient CUDA driver: 9020\n", "runtime.insufficient_driver", ""),
    # fresh18 r32 (pop-os: nvidia-settings after an update removed the module; reinstalling the driver fixed it)
    ("Oct 14 07:35:56 pop-os nvidia-settings-autostart.desktop[2905]: ERROR: NVIDIA driver is not loaded\n",
     "driver.not_loaded", ""),
    # fresh18 r40 (google/jax: a CPU jaxlib left behind; the paste wraps the message after "Could not find")
    ("[RuntimeError: Backend 'gpu' failed to initialize: NOT_FOUND: Could not find \nregistered platform with name: "
     "\"cuda\". Available platform names are: \nHost Interpreter]()\n", "jax.cpu_only", ""),
    # fresh18 r11 (spack/spack: gcc's libgomp configure, its -lcuda link test failing)
    (" >> 34532    configure: error: CUDA driver package required for nvptx support\n", "link.lcuda_not_found", ""),
]

test_fresh18_wordings = first_answer_tests(FRESH18_WORDINGS)


def test_a_log_all_of_one_width_is_joined_and_still_read():
    """Hostile or odd input: 3 000 distinct lines all 100 characters long, cut mid-word, join into one long line; the
    long-line windows still find a message after it, and its place is its first physical line."""
    from cudaenv.knowledge.explain import explain

    filler = [(f"w{i} " + "abcdefghij" * 12)[:100] for i in range(3000)]
    tail = "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory"
    text = "\n".join(filler + [tail])
    m = [m for m in explain(text) if m.environment][0]
    assert m.id == "runtime.libcudart_not_found" and m.line == 1
