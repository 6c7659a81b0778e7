"""Round 21, helper "orun": a practice set of run-side threads (notes: /tmp/work/notes-r21orun.md), ordering first.

One fact read once for several entries (derive.py ``release_lines``, knowledge/release_lines.yaml): the CUDA and cuDNN
line a package release is built for (CTranslate2 3.x: CUDA 11 + cuDNN 8; 4.0-4.4: CUDA 12 + cuDNN 8; 4.5+: CUDA 12 +
cuDNN 9), against what the log shows installed beside it (the driver's CUDA, the torch and the cuDNN it brings). It
decides which side moves first:

- error 35 from CTranslate2 on a driver that runs CUDA 11 and not 12: the CUDA 11 line (ctranslate2==3.24.0), not
  "the driver is new enough, check the container" (runtime.insufficient_driver read the image's CUDA as the program's);
- CTranslate2's cuDNN 8 libraries missing beside a torch of the cuDNN 9 line (2.4+): CTranslate2 4.5+; on Windows the
  same, and CTranslate2 4.5's cuDNN 9 DLLs beside a torch of the cuDNN 8 line: torch 2.4+
  (runtime.cuda_library_not_found, loader.windows_cuda_dll_not_found);
- and a wording: CTranslate2's "Library libcublas.so.12 is not found" retold without "or cannot be loaded".

The texts are the threads' own lines, each with its URL."""

from explain_answers import first_answer_tests, program_bug_tests

CASES = [
    # https://github.com/SYSTRAN/faster-whisper/issues/734 (ctranslate2 4.0.0 in nvidia/cuda:11.6.2, driver 510.85.02;
    # "changed to a low version, that works fine"; a commenter: `pip install ctranslate2==3.24.0`)
    ("faster-whisper >= v1.0.0 cuda11.x CUDA failed with error CUDA driver version is insufficient for CUDA runtime "
     "version\n"
     "**unsupported version**:\n"
     "1. faster-whisper >= v1.0.0\n"
     "2. ctranslate2==4.0.0\n"
     "I am using the base image of ```nvidia/cuda:11.6.2-cudnn8-runtime-ubuntu20.04``` but changed to a low version, "
     "that works fine.\n"
     "nvidia-smi\n"
     "| NVIDIA-SMI 510.85.02    Driver Version: 510.85.02    CUDA Version: 11.6     |\n",
     "runtime.insufficient_driver", 'pip install "ctranslate2==3.24.0"'),
    # https://github.com/m-bain/whisperX/issues/720 (whisperX after CTranslate2 4.0 in nvidia/cuda:11.8.0, driver
    # 450.156.00; pip install ctranslate2==3.24.0 solved it, users in m-bain/whisperX#794 citing #720)
    ("Using `nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04` as a base image. \n"
     "CUDA_VERSION:  11.8\n"
     "TORCH_VERSION:  2.0.0+cu118\n"
     '  File "/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py", line 133, in __init__\n'
     "    self.model = ctranslate2.models.Whisper(\n"
     "RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version\n"
     "I meet the same problem.\n"
     "CUDA_VERSION: 11.8\n"
     "TORCH_VERSION: 2.0.0+cu118\n"
     "DRIVER VERSION 450.156.00\n",
     "runtime.insufficient_driver", 'pip install "ctranslate2==3.24.0"'),
    # https://github.com/OpenNMT/CTranslate2/issues/1842 (driver 470; the maintainer: "version 4.* is compatible only
    # with CUDA 12. For CUDA 11, use version 3.* instead.")
    ("I get the following error when running on the following Cuda hardware: NVIDIA-SMI 470.256.02   Driver Version: "
     "470.256.02   CUDA Version: 11.4\n"
     "`Predictions may fail: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version`\n"
     "Is ctranslate2 compatible with cuda 11.4?\n",
     "runtime.insufficient_driver", 'pip install "ctranslate2==3.24.0"'),
    # https://github.com/OHF-Voice/wyoming-faster-whisper/issues/30 (faster-whisper 1.0 on CUDA 11.8, driver 525: the
    # cu12 cuBLAS/cuDNN wheels with their lib on LD_LIBRARY_PATH solved it, a commenter with the same error)
    ("CUDA 11.8\n"
     "Nvidia Driver 525.147.05\n"
     "Pytorch 2.2.1+cu118\n"
     "Every guide I have have followed so far has used CUDA 11.8 but it seems that the version of cTranslate2 used in "
     "faster-whisper 1.0.0 now requires CUDA12 libraries.\n"
     "On trying to use CUDA I get the Error: RuntimeError: Library libcublas.so.12 is not found\n",
     "runtime.cuda_library_not_found", "pip install nvidia-cublas-cu12"),
    # https://github.com/m-bain/whisperX/issues/954 (torch 2.5.1 beside ctranslate2==4.4.0; whisperX 3.3.2 moved the pins
    # to the cuDNN 9 line)
    ("I wanted to install torch 2.5.1 with CUDA 12.1 to use whisperX, however the current `requirements.txt` pins the "
     "version of `ctranslate2==4.4.0`. Running the default example present in the `README.md` file throws an error:\n"
     "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory\n"
     "Aborted\n",
     "runtime.cuda_library_not_found", 'pip install -U "ctranslate2>=4.5"'),
    # https://github.com/OpenNMT/CTranslate2/issues/1780 (whisperX on Windows; "pytorch >= 2.4.0 are compiled with
    # CUDNN > 9"; CTranslate2 4.5 moved to cuDNN 9)
    ("currently trying to use whisperX (which uses faster whisper, which uses CTranslate2), and am getting the following "
     "error\n"
     "`Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!`\n"
     "which from what I can tell is due to having CUDNN version > 9. This is an issue because it looks like pytorch >= "
     "2.4.0 are compiled with CUDNN > 9.\n",
     "loader.windows_cuda_dll_not_found", 'pip install -U "ctranslate2>=4.5"'),
    # https://github.com/SYSTRAN/faster-whisper/issues/1080 (ctranslate2 4.5.0 on Windows: "This only happens with
    # `torch <= 2.3.1`, fixed by upgrading to `torch >= 2.4.0`"; cuDNN's own "Could not locate" wording of the DLL)
    ("Since https://github.com/OpenNMT/CTranslate2/pull/1803 is merged and `ctranslate2` version is now bumped to 4.5.0,\n"
     "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!\n"
     "This only happens with `torch <= 2.3.1`, fixed by upgrading to `torch >= 2.4.0`. (Tested on Windows)\n",
     "loader.windows_cuda_dll_not_found", 'pip install -U "torch>=2.4"'),
]

test_first_answer = first_answer_tests(CASES)

# The same fact where CTranslate2 asks for CUDA 12's cuBLAS by name: on a driver that runs CUDA 11 and not 12 a CUDA 12
# wheel cannot help, so the CUDA 11 line comes first (the decision of OpenNMT/CTranslate2#1842 above, whose driver line
# this is, with the error line of https://github.com/OHF-Voice/wyoming-faster-whisper/issues/30); with the 525 driver of
# that thread the cu12 wheel stays first (CASES above)
DRIVER_DECIDES = [
    ("NVIDIA-SMI 470.256.02   Driver Version: 470.256.02   CUDA Version: 11.4\n"
     "it seems that the version of cTranslate2 used in faster-whisper 1.0.0 now requires CUDA12 libraries.\n"
     "On trying to use CUDA I get the Error: RuntimeError: Library libcublas.so.12 is not found\n",
     "runtime.cuda_library_not_found", 'pip install "ctranslate2==3.24.0"'),
]

test_the_driver_decides_the_cublas_side = first_answer_tests(DRIVER_DECIDES)

# Near misses: the same messages where the fact is absent, or decides the other way, keep their answers.
KEEP = [
    # CTranslate2's error 35 beside a driver of CUDA 12 (the driver line of https://github.com/PaddlePaddle/Paddle/issues/69096,
    # the error of whisperX#720): the driver runs CTranslate2 4.x, so error 35 is not the CUDA line (the default answer)
    ("| NVIDIA-SMI 535.183.06             Driver Version: 535.183.06   CUDA Version: 12.2     |\n"
     "    self.model = ctranslate2.models.Whisper(\n"
     "RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version\n",
     "runtime.insufficient_driver", "The driver this log shows, 535.183.06"),
    # torch's own error 35 on an old driver (https://github.com/facebookresearch/ParlAI/pull/2085: the driver upgrade)
    ('"The NVIDIA driver on your system is too old (found version 10000).\n',
     "runtime.insufficient_driver", "upgrade the driver"),
    # CTranslate2's cuDNN 8 libraries with no torch in the log (https://github.com/SYSTRAN/faster-whisper/issues/885:
    # cuDNN 9.2 installed by hand, "back to use cudnn 8"): the cuDNN 8 answer stays
    ("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory\n"
     "Aborted (core dumped)\n"
     "Other issues pointed me to install libcudnn8 via the apt-get package manager. The thing is, I have installed "
     "cudnn-9.2 as per Nvidia's official instructions.\n",
     "runtime.cuda_library_not_found", "find / -name 'libcudnn_ops_infer.so.8*'"),
    # a torch of the cuDNN 8 line beside CTranslate2's cuDNN 8 libraries: no conflict to settle (the lines of
    # https://github.com/OHF-Voice/wyoming-faster-whisper/issues/30 and the error of faster-whisper#885)
    ("Pytorch 2.2.1+cu118\n"
     "Every guide I have have followed so far has used CUDA 11.8 but it seems that the version of cTranslate2 used in "
     "faster-whisper 1.0.0 now requires CUDA12 libraries.\n"
     "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory\n",
     "runtime.cuda_library_not_found", "find / -name 'libcudnn_ops_infer.so.8*'"),
]

test_near_misses_keep_their_first_fix = first_answer_tests(KEEP)

# A program bug beside the same producer and versions stays a verdict
test_program_bugs_stay_verdicts = program_bug_tests([
    # faster-whisper's out-of-memory under the same ctranslate2 pin (https://github.com/SYSTRAN/faster-whisper/issues/734's
    # version lines, torch's OOM wording)
    "2. ctranslate2==4.0.0\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 7.79 GiB\n",
])
