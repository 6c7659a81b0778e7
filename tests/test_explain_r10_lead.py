"""Issue 18, round 10, the lead's families from the held-out sets once they were measured (fresh9 and fresh10 are
read since): a user's paraphrase of torch's driver message, nvcc missing because the build ran under sudo, and
torch's split CUDA library missing under a torch built for another CUDA (not only a newer torch).

Excerpts are verbatim from the threads named above them, trimmed.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/NVIDIA-BioNeMo/nvMolKit/issues/209 (a CUDA 13 torch on a CUDA 12.7 driver, paraphrased
    # with torch's number; the CUDA 12 build of torch solved it)
    ('`torch.cuda.is_available()` \u2192 `False`; `torch._C._cuda_init()` raises *"NVIDIA driver too old (found '
     '12070)"*; all nvMolKit calls fail.', "runtime.insufficient_driver", "This driver runs CUDA 12.7 at most"),
    # torch's own words still read the same way (the number decoded, not only the sentence)
    ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver",
     "runtime.insufficient_driver", "CUDA 11.4"),
    # https://github.com/rusty1s/pytorch_scatter/issues/211 (a +cu111 torch-scatter wheel under a +cu102 torch 1.8.0:
    # the cu102 wheels solved it; the answer once said "built against an older torch, loaded with a newer one")
    ("Ok, tried to install it using the command.\n"
     "`pip install torch-scatter -f https://pytorch-geometric.com/whl/torch-1.8.0+cu111.html`\n"
     "but now throws an error \n`Exception has occurred: OSError\n"
     "libtorch_cuda_cu.so: cannot open shared object file: No such file or directory`",
     # [r13 frameworks] the log names the PyG page it installed from: the page of the installed torch comes first
     "loader.torch_lib_not_loaded", "Install torch-scatter from the page of the torch you have"),
]

test_first_answer = first_answer_tests(CASES)


def test_nvcc_missing_under_sudo_is_a_labelled_situation():
    """https://github.com/cudamat/cudamat/issues/98: `sudo python setup.py install` could not run nvcc, which the
    user's own shell found (sudo's secure_path); the thread called nvcc by its full path. The log does not show
    sudo, so the situation is a labelled line of the fix, after the commonest ones."""
    log = ("building 'cudamat.libcudamat' extension\n"
           "nvcc -I/usr/include/python2.7 -c cudamat/cudamat.cu -o build/temp.linux-x86_64-2.7/cudamat/cudamat.o "
           "-arch=sm_52 -O --ptxas-options=-v --compiler-options=-fPIC\n"
           "unable to execute 'nvcc': No such file or directory\n"
           "error: command 'nvcc' failed with exit status 1")
    first = next(m for m in explain(log) if m.environment)
    assert first.id == "shell.nvcc_not_found"
    lines = first.fix.splitlines()
    assert lines[0].startswith("If `cudaenv list` shows a toolkit")
    assert lines[1].startswith("If the build ran under `sudo`") and 'sudo env "PATH=$PATH"' in lines[1]
