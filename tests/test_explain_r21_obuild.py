"""Round 21 (helper obuild: a practice set of build-side threads, ordering first): facts read once from the log that
decide the first fix of several entries.

- `ci` (extract.py): the log ran on a CI runner (GitHub Actions' runneradmin, `##[error]`, cibuildwheel, a workflow;
  Azure, GitLab, Jenkins...). A full disk there is the runner image's (situations.yaml `ci-runner`, class `disk-full`:
  free the runner's disk in the job); MSVC refused under a workflow's CUDA keeps the CUDA and pins the image or toolset
  (msvc.unsupported_version, now keyed on the fact instead of its own regex).
- `build_isolated` (extract.py): pip built in its isolated environment (pip-build-env-*/overlay), whose torch is the
  one pip downloaded; on native Windows that is a CPU torch, so "CUDA_HOME environment variable is not set" whatever
  CUDA_HOME says: `--no-build-isolation` first.
- `gcc_at_hand` (derive.py gcc_limit_at_hand): the log already names a gcc that nvcc accepts, so nvcc.gcc_too_new
  selects it before installing one.

Each text is copied from the thread named above it."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.text import LogText
from cudaenv.knowledge.explain import extract

CASES = [
    # https://github.com/matteospanio/torchfx/issues/74 (fixed by PR #76: free the runner's disk before cibuildwheel)
    ("ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device\n"
     "##[error]cibuildwheel: ... pip install torch --index-url https://download.pytorch.org/whl/cu124 ... failed with code 1\n",
     "python.pip_install_no_space", "On a CI runner the disk is the runner image's"),
    # https://github.com/shap/shap/issues/3330 ("GH Actions encounter 'No space left on device' unless unused CI tools
    # are removed"; the issue's words and pip's line)
    ("Our GitHub Actions workflow to run the unit tests has started failing. When trying to install pip-dependencies we "
     "now get an error `OSError: [Errno 28] No space left on device`:\n"
     "Installing collected packages: wcwidth, sentencepiece, pytz, py4j, nvidia-nvtx-cu12, nvidia-nvjitlink-cu12, "
     "nvidia-nccl-cu12, nvidia-curand-cu12, nvidia-cufft-cu12, nvidia-cuda-runtime-cu12\n",
     "python.pip_install_no_space", "On a CI runner the disk is the runner image's"),
    # https://github.com/abetlen/llama-cpp-python/issues/1543 (fresh20 t04): the runner keeps its own answer through the fact
    ("Currently, the workflow that builds CUDA wheels is failing with the following error:\n"
     "> C:\\Miniconda3\\envs\\build\\include\\crt/host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft "
     "Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported! The nvcc flag "
     "'-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host "
     "compiler may cause compilation failure or incorrect run time execution. Use at your own risk. "
     "[C:\\Users\\runneradmin\\AppData\\Local\\Temp\\tmpwbsbwtdg\\build\\CMakeFiles\\CMakeScratch\\TryCompile-uh6ciq\\cmTC_cbbed.vcxproj]\n",
     "msvc.unsupported_version", "Keep the CUDA the workflow builds for"),
    # https://github.com/facebookresearch/sam2/issues/19 (GMDowling; fixed by `pip install --no-build-isolation -e .`,
    # sam2#41 and #137 likewise)
    ("echo %CUDA_HOME%\nC:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\n\n"
     "(sam2env) C:\\Users\\gabe\\Downloads\\segment-anything-2>pip install -e .\n"
     "  Getting requirements to build editable ... error\n"
     "      C:\\Users\\gabe\\AppData\\Local\\Temp\\pip-build-env-35rk4nwc\\overlay\\Lib\\site-packages\\torch\\_subclasses\\functional_tensor.py:258: UserWarning: Failed to initialize NumPy: No module named 'numpy'\n"
     "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n",
     "torch.cuda_home_not_set", "--no-build-isolation"),
    # https://github.com/facebookresearch/sam2/issues/56 (Eranio-bit: the overlay's cpp_extension raises it; "I have CUDA
    # 12.1 with nightly installed in the main python env")
    ('  File "C:\\Users\\user\\AppData\\Local\\Temp\\pip-build-env-cliwrnjy\\overlay\\Lib\\site-packages\\torch\\utils\\cpp_extension.py", line 2416, in _join_cuda_home\n'
     "          raise OSError('CUDA_HOME environment variable is not set. '\n"
     "      OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n",
     "torch.cuda_home_not_set", "--no-build-isolation"),
    # https://github.com/Jittor/jittor/issues/182 (gcc 7.5.0 installed beside g++ 9.3: both set to 7)
    ("g++ 9.30 \ngcc 7.5.0 \n"
     "In file included from /usr/local/cuda/include/cuda_runtime.h:83,\n                 from <command-line>:\n"
     "/usr/local/cuda/include/crt/host_config.h:129:2: error: #error -- unsupported GNU version! gcc versions later than 8 are not supported!\n",
     "nvcc.gcc_too_new", "The log names gcc 7"),
    # https://github.com/facebookarchive/caffe2/issues/442 (xhzzhang, the same error: `ls /usr/bin/gcc-*` found gcc-4.8,
    # update-alternatives to it)
    ("/usr/local/cuda-8.0/include/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions later than 5 are not supported!\n"
     "$ ls /usr/bin/gcc-*  # to found i have /usr/bin/gcc-4.8\n"
     "$ sudo update-alternatives --install /usr/bin/gcc gcc /usr/bin/gcc-4.8 40\n",
     "nvcc.gcc_too_new", "The log names gcc 4.8"),
]

test_first_answer = first_answer_tests(CASES)


def _first(text):
    return [m for m in explain(text) if m.environment][0]


def test_pip_no_space_off_a_runner_keeps_its_own_first_line():
    # a workstation's full disk: the runner's line does not come
    m = _first("Collecting torch\nERROR: Could not install packages due to an OSError: [Errno 28] No space left on device\n")
    assert m.id == "python.pip_install_no_space"
    assert m.fix.splitlines()[0].startswith("`df -h /tmp")


def test_isolated_build_on_linux_keeps_the_toolkit_answer():
    # on Linux PyPI's torch is a CUDA build: an isolated build there that finds no CUDA_HOME lacks a toolkit
    m = _first("  File \"/tmp/pip-build-env-3x1/overlay/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 2416, in _join_cuda_home\n"
               "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n")
    assert m.id == "torch.cuda_home_not_set"
    assert "--no-build-isolation -e" not in m.fix.splitlines()[0]


@pytest.mark.parametrize("text", [
    # the limit's own words, Python's build banner and torch's bounds are no gcc at hand
    "/usr/local/cuda/include/crt/host_config.h:129:2: error: #error -- unsupported GNU version! gcc versions later than 8 are not supported!\n"
    "Python 3.7.3 (default, Mar 27 2019, 22:11:17) [GCC 7.3.0] :: Anaconda, Inc. on linux\n",
    "RuntimeError: The current installed version of g++ (11.2.0) is greater than the maximum required version by CUDA "
    "11.3 (10.0.0). Please make sure to use an adequate version of g++ (>=5.0.0, <=10.0.0).\n",
])
def test_no_gcc_at_hand_keeps_the_install_line(text):
    m = _first(text)
    assert m.id == "nvcc.gcc_too_new"
    assert "The log names gcc" not in m.fix


@pytest.mark.parametrize("text,want", [
    ("C:\\Users\\runneradmin\\AppData\\Local\\Temp\\x\n", "github-actions"),
    ("/home/runner/work/proj/proj/setup.py\n", "github-actions"),
    ("##vso[task.logissue type=error]nvcc failed\n", "azure"),
    ("Running with gitlab-runner 16.2.0 (abc)\n", "gitlab"),
    ("/var/lib/jenkins/workspace/build/CMakeLists.txt\n", "jenkins"),
    ("the runner image is fine; I ran it on my workstation\n", ""),
])
def test_ci_fact(text, want):
    assert extract.facts(LogText(text))["ci"] == want


def test_ci_fact_skips_a_wheels_build_path():
    # fresh9 d35 (sgl-project/sglang): a vllm wheel built on GitHub Actions names its source path in a runtime error
    text = ("Failed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported "
            "between these two devices'\n")
    assert extract.facts(LogText(text))["ci"] == ""
