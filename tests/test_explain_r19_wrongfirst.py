"""Round 19, "wrongfirst": burned container and nccl logs that explain recognised but answered wrong first, where the
log itself holds the fact that decides the first fix. Each family: the burned log's deciding lines, a second real
member from another project or producer, and a near-miss guard that keeps its answer.

- The image a log names decides nvcc's absence: an nvidia/cuda -devel image ships nvcc, so "nvcc: not found" there is
  a broken pull of the tag or a PATH that lost /usr/local/cuda/bin (never "use a devel image"); a -base or -runtime
  image has no toolkit at all, so the -devel flavour comes first, in a `docker build` of a CUDA extension too.

Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- an nvidia/cuda -devel image without nvcc -------------------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/1322 (fresh15 n10: 10.2-devel pushed without nvcc; "seems to be
    # fixed by the latest update": pulling the tag again)
    ("Trying to build this dockerfile:\n```\nFROM nvidia/cuda:10.2-devel-ubuntu18.04\n\nRUN nvcc --version\n```\n"
     "results in:\n```\n/bin/sh: 1: nvcc: not found\n```\n",
     "shell.nvcc_not_found", "pull the tag again"),
    # https://github.com/rapidsai/docker/issues/182 (a devel image whose user's PATH lacked /usr/local/cuda/bin; fixed
    # in the image by running as root again)
    ("If a user tries to run a typical build of a RAPIDS library (cugraph in my case) using a `devel` image, their "
     "build errors with this message:\n    ccache: error: Could not find compiler \"nvcc\" in PATH\n",
     "shell.nvcc_not_found", "ENV PATH=/usr/local/cuda/bin:$PATH"),
    # -- an nvidia/cuda -base or -runtime image: no toolkit ---------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/1160 (maintainer: "you should use the `devel` images instead")
    ("docker run -it --gpus all nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04 /bin/bash\n"
     "root@7c0be9bfaeec:/# nvcc --version\nbash: nvcc: command not found\n",
     "shell.nvcc_not_found", "-devel flavour of the same CUDA tag"),
    # https://github.com/EleutherAI/gpt-neox/issues/1021 (fresh17 q13: the Dockerfile's runtime image has no nvcc for
    # DeeperSpeed's setup.py; back to the devel image)
    ("Bug: nvcc does not exists in runtime version of nvidia base image used in Dockerfile\n"
     "when i run the command: docker build -t gpt-neox -f Dockerfile .  i get nvcc-not-found error.\n"
     "  Preparing metadata (setup.py): finished with status 'error'\n"
     "  error: subprocess-exited-with-error\n"
     "  × python setup.py egg_info did not run successfully.\n"
     "      No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n"
     "      Traceback (most recent call last):\n"
     "        File \"/tmp/pip-install-ami7m0w2/deepspeed_b51158c86bfd44cb85491c473a45e40a/setup.py\", line 119, in <module>\n"
     "          os.environ[\"TORCH_CUDA_ARCH_LIST\"] = get_default_compute_capabilities()\n",
     "torch.no_cuda_runtime", "build FROM the -devel image"),
    # guard: "No CUDA runtime is found" in a docker build that names no -base/-runtime image keeps the no-GPU build's
    # line (https://github.com/TUMFTM/DPFT/issues/3, the reporter's words)
    ("While building the Docker image for the repository, I encountered an issue where the CUDA runtime could not be "
     "found. The build process fails with the following error message:\n\n"
     "    No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n"
     "    Traceback (most recent call last):\n"
     "      File \"/app/Deformable-DETR-main/models/ops/setup.py\", line 69, in <module>\n"
     "        ext_modules=get_extensions(),\n"
     "      File \"/app/Deformable-DETR-main/models/ops/setup.py\", line 47, in get_extensions\n"
     "        raise NotImplementedError('Cuda is not availabel')\n"
     "    NotImplementedError: Cuda is not availabel\n",
     "torch.no_cuda_runtime", "`docker build` runs without the GPU"),
    # guard: nvcc not found with no image named keeps the toolkit-on-PATH answer
    # (https://github.com/MVIG-SJTU/AlphaPose/issues/413, corpus 191)
    ("python setup.py build_ext --inplace\nTraceback (most recent call last):\n  File \"setup.py\", line 55, in <module>\n"
     "    CUDA = locate_cuda()\n  File \"setup.py\", line 43, in locate_cuda\n"
     "    raise EnvironmentError('The nvcc binary could not be '\n"
     "OSError: The nvcc binary could not be located in your $PATH. Either add it to your path, or set $CUDAHOME\n",
     "shell.nvcc_not_found", "cudaenv list"),
]

test_first_answer = first_answer_tests(CASES)


def test_devel_image_is_never_told_to_use_devel():
    """A log that already builds FROM a -devel image is not told to switch to one."""
    from cudaenv.knowledge.explain import explain

    m = explain(CASES[0][0])[0]
    first = m.fix.splitlines()[0]
    assert "FROM the `-devel` image" not in first and "cudaenv" not in first, first
