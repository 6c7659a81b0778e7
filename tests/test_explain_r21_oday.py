"""Round 21 (helper oday: a practice set of a user's day of installing and switching, ordering first): facts read once
from the log that decide the first fix of several entries, and two producer wordings the entries missed.

- `conda_made` (extract.py): conda (mamba, micromamba) made the environment or installed its packages (`conda create`,
  `conda install`, "using conda to install", Python's banner "packaged by conda-forge"). A torch that reports no CUDA
  there is conda's CPU build: conda's CUDA build is the fix (python.torch_cuda_unavailable), not a pip torch mixed in.
- what the log says is installed: the nvidia-* wheel that ships a missing soname (derive `_wheel_listed`, read for
  runtime.cuda_library_not_found since round 9) now decides for the CUDA runtime too (derive `libcudart_wheel`): the
  wheel's directory on the loader path, not another install; and the cuDNN wheel TensorFlow's pip instructions install
  (CUDNN_PATH, nvidia.cudnn) beside an older cuDNN loaded first: reorder (tf.cudnn_older_than_built).
- wordings: resolvo's multi-version "would require / __cuda" tree (pixi), and "`torch.cuda.is_available()` returns
  `False`" in markdown's backticks.

Each text is copied from the thread named above it (or is the entry's own example, marked so)."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain import extract
from cudaenv.knowledge.explain.text import LogText

CASES = [
    # https://github.com/openclimatefix-archives/satflow/issues/18 (`conda install pytorch::pytorch`: "That fixed it")
    ("When using conda to install rasterio, cfgrib, cartopy, satpy and Pytorch, there are inconsistencies in requirements "
     "and, if Pytorch is then installed, `torch.cuda.is_available()` returns `False`.\n",
     "python.torch_cuda_unavailable", "conda install pytorch::pytorch"),
    # https://github.com/vocalpy/vak/issues/470 (`conda create ... -c conda-forge -c pytorch`: is_available() "now True")
    ("Installed with `conda create -n vak-tweetynet-tutorial vak tweetynet -c conda-forge`\n"
     "$ conda activate vak-tweetynet-tutorial\n"
     "Python 3.9.10 | packaged by conda-forge | (main, Feb  1 2022, 21:24:11) \n"
     "[GCC 9.4.0] on linux\n"
     ">>> import torch\n>>> torch.cuda.is_available()\nFalse\n",
     "python.torch_cuda_unavailable", "conda install pytorch::pytorch"),
    # https://github.com/pytorch/TensorRT/pull/4668 (merged: the wheel's lib directory put on LD_LIBRARY_PATH)
    ("example_executorch_runner: error while loading shared libraries:\n"
     "libcudart.so.12: cannot open shared object file: No such file or directory\n"
     "`libcudart` is the CUDA runtime library. The confusing part is that it **is** installed. The job log shows "
     "`nvidia-cuda-runtime-cu12-12.6.77` going in. The program just cannot find it.\n",
     "runtime.libcudart_not_found", "Put the wheel's directory on the loader path"),
    # https://github.com/tensorflow/docs/pull/2251 (merged: $CUDNN_PATH/lib before $CONDA_PREFIX/lib)
    ("I was hitting an error, `Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.`\n"
     "I find out that my `CONDA_PREFIX/lib` contains `libcudnn8.1.0` so TF will first use this version instead of the "
     "`libcudnn8.6.0` installed in the `CONDA_PREFIX/lib`.\n"
     "echo 'export LD_LIBRARY_PATH=$CONDA_PREFIX/lib/:$CUDNN_PATH/lib:$LD_LIBRARY_PATH' >> "
     "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\n",
     "tf.cudnn_older_than_built", "Put the wheel's directory first on LD_LIBRARY_PATH"),
    # https://github.com/prefix-dev/pixi/issues/1288 ("if I add [system-requirements] cuda = "12" then things work")
    (" × failed to solve the conda requirements of 'default' 'linux-64'\n"
     "  ╰─▶ Cannot solve the request because of: jaxlib >=0.4.23,<0.5.0 *cuda12* cannot be installed because there are "
     "no viable options:\n"
     "      └─ jaxlib 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 would require\n"
     "         └─ __cuda *, for which no candidates were found.\n",
     "conda.no_cuda_virtual_package", "[system-requirements]"),
]

test_first_answer = first_answer_tests(CASES)


def _first(text):
    return [m for m in explain(text) if m.environment][0]


def test_pip_torch_in_a_conda_environment_keeps_the_pip_line():
    # near miss: conda made the environment, pip put torch in it (the conda line would be wrong there)
    m = _first("$ conda create -n test python=3.10\n$ conda activate test\n$ pip install torch\n"
               ">>> torch.cuda.is_available()\nFalse\n")
    assert m.id == "python.torch_cuda_unavailable"
    assert "conda install pytorch::pytorch" not in m.fix.splitlines()[0]
    assert "pip install --force-reinstall torch" in m.fix.splitlines()[0]


def test_libcudart_missing_without_its_wheel_keeps_its_answer():
    # near miss: no wheel listed (the mmcv-style prebuilt-package line stays first)
    m = _first("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n")
    assert m.id == "runtime.libcudart_not_found"
    assert "wheel's directory" not in m.fix.splitlines()[0]


def test_cudnn_older_without_the_wheel_keeps_the_install_line():
    # near miss (the entry's own example): no cuDNN wheel in the log, so installing the built-with cuDNN stays first
    m = _first("Loaded runtime CuDNN library: 7005 (compatibility version 7000) but source was compiled with 7101 "
               "(compatibility version 7100)\n")
    assert m.id == "tf.cudnn_older_than_built"
    assert m.fix.splitlines()[0].startswith("Install cuDNN")


@pytest.mark.parametrize("text,want", [
    ("Installed with `conda create -n vak-tweetynet-tutorial vak tweetynet -c conda-forge`\n", "yes"),
    ("Python 3.9.10 | packaged by conda-forge | (main, Feb  1 2022, 21:24:11) \n", "yes"),
    ("$ mamba install -c conda-forge pytorch\n", "yes"),
    ("/home/u/miniconda3/envs/x/lib/python3.10/site-packages/torch/__init__.py\n", ""),
    ("pip install torch --index-url https://download.pytorch.org/whl/cu121\n", ""),
])
def test_conda_made_fact(text, want):
    assert extract.facts(LogText(text))["conda_made"] == want
