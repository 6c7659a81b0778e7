"""Round 16, frameworks: the framework's own lever first.

- torch's "CUDA version (X) mismatches the version that was used to compile PyTorch (Y)" in a container or a
  `docker build` (torch.cuda_major_mismatch, container variant): the image fixes the toolkit, pip's default index
  brought a torch for another CUDA, so the first line pins torch to the image's CUDA with its index URL in the
  Dockerfile (no `cudaenv use` reaches a Dockerfile); the message retold in an issue title ("CUDA version (11.8)
  mismatches ...", without "The detected") is read too.
- cuDNN 9's dispatcher finding an older copy of a sub-library ("Could not load symbol cudnnGetLibConfig. Error:
  .../libcudnn_graph.so.9: undefined symbol", loader.cudnn9_sublib_older): the framework's own cuDNN wheel first on
  LD_LIBRARY_PATH, else upgrade the older copy.
- pip finding no wheel for a pinned TensorFlow release (python.tensorflow_wheel_not_found): the release's own Pythons
  from knowledge/tensorflow.yaml (derive tf_python) name the environment to create (TF 1.15: 3.7, TF 2.4: 3.8).
- TensorFlow's "Loaded runtime CuDNN library: X ... but source was compiled with Y" wrapped over two lines by the
  terminal (tf.cudnn_older_than_built).

Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss wordings on their answers
and a program bug unclaimed."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- torch vs the image's toolkit, in a docker build ---------------------------------------------------------
    # https://github.com/mistralai/mistral-inference/issues/54 (cuda:11.8.0-devel image; fixed by
    # `pip install torch==2.0.1+cu118 torchvision==0.15.2+cu118 --index-url https://download.pytorch.org/whl/cu118`)
    ("Unable to build Docker image with cuda:11.8.0-devel-ubuntu20.04 - CUDA version (11.8) mismatches the version "
     "that was used to compile PyTorch (12.1)\n\n```\nStep 8/12 : RUN git clone https://github.com/NVIDIA/apex &&     "
     "cd apex && git checkout 2386a912164b0c5cfcd8be7a2b890fbac5607c82 &&     sed -i "
     "'/check_cuda_torch_binary_vs_bare_metal(CUDA_HOME)/d' setup.py &&     python3 setup.py install --cpp_ext "
     "--cuda_ext\n ---> Running in 75b68d40dad7\nCloning into 'apex'...\n",
     "torch.cuda_major_mismatch", "RUN pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu118`"),
    # https://github.com/TransformerOptimus/SuperAGI/issues/1410 (docker compose --build of the GPU image; the
    # project's Dockerfile pinned torch for the image's CUDA, PR #1380)
    ("When I do a `docker compose -f local-llm-gpu up --build`, I am getting this error:\n\n```\n1.295 RuntimeError: \n"
     "1.295 The detected CUDA version (11.8) mismatches the version that was used to compile\n"
     "1.295 PyTorch (12.1). Please make sure to use the same CUDA versions.\n1.295 \n------\n"
     "failed to solve: process \"/bin/sh -c cd /app/repositories/GPTQ-for-LLaMa/ && python3 setup_cuda.py install\" "
     "did not complete successfully: exit code: 1\n```\n  But aren't both PyTorch and CUDA inside these docker images?",
     "torch.cuda_major_mismatch", "In the image, install the torch built for its CUDA"),
    # https://github.com/oobabooga/textgen/issues/1456 ("I'm inside a docker container having cuda 11.6"; the
    # maintainers pinned torch's CUDA in the Dockerfile, PR #4298)
    ("RuntimeError: \nThe detected CUDA version (11.6) mismatches the version that was used to compile\n"
     "PyTorch (11.7). Please make sure to use the same CUDA versions.\n"
     "I'm inside a docker container having cuda 11.6\n",
     "torch.cuda_major_mismatch", "pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu116"),
    # -- guard: the same message outside a container keeps the check between the two ways out -----------------------
    # https://github.com/vllm-project/vllm/issues/1453
    ("RuntimeError:\n      The detected CUDA version (11.8) mismatches the version that was used to compile\n"
     "      PyTorch (12.1). Please make sure to use the same CUDA versions.",
     "torch.cuda_major_mismatch", "If `cudaenv list` shows a CUDA 12.1 toolkit"),
    # -- cuDNN 9's sub-library from an older copy ---------------------------------------------------------------------
    # https://github.com/MahmoudAshraf97/whisper-diarization/issues/343 (the venv's nvidia/cudnn/lib on
    # LD_LIBRARY_PATH fixed it; "two conflicting cudnn installations, system-level and venv-level")
    ("It installs fine, uses `htdemucs` to isolate the vocals however it aborts in the stage after that with the "
     "error `Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined "
     "symbol: cudnnGetLibConfig`\n\nI have tried running it with different version of python from 3.10 to 3.13 "
     "using pipenv but get the same error. libcudnn_graph.so.9 is a file in the virtual environment folder.",
     "loader.cudnn9_sublib_older", "Put the framework's own cuDNN first"),
    # https://github.com/opendatalab/MinerU/issues/2664 (the title: the toolkit's lib64 copy)
    ("symbol cudnnGetLibConfig. Error: /usr/local/cuda/lib64/libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig",
     "loader.cudnn9_sublib_older", "nvidia.cudnn.__path__"),
    # -- guards: cuDNN 8's sub-libraries and cuBLAS keep their answers ------------------------------------------------
    # https://github.com/naver/dust3r/issues/198
    ("Could not load library libcudnn_cnn_infer.so.8. Error: /usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8: "
     "undefined symbol: _ZN5cudnn3ops18GetInternalStreamsEP12cudnnContextiPP11CUstream_st, version "
     "libcudnn_ops_infer.so.8\nAborted (core dumped)",
     "runtime.cuda_lib_shadowed", "libcudnn_ops_infer.so.8"),
    ("Could not load symbol cublasGetSmCountTarget from libcublas.so.11. Error: "
     "/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.11: undefined symbol: cublasGetSmCountTarget",
     "loader.cublas_symbol_older_than_cudnn", "Load the newer cuBLAS first"),
    # -- TensorFlow's cuDNN check, wrapped by the terminal ------------------------------------------------------------
    # https://github.com/smallcorgi/Faster-RCNN_TF/issues/12 (cuDNN 5.0 files removed, 5.1 installed: confirmed)
    ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 5006 \n"
     "(compatibility version 5000) but source was compiled with 5103 (compatibility version 5100).  \n"
     "If using a binary install, upgrade your CuDNN library to match. \n"
     "F tensorflow/core/kernels/conv_ops.cc:532] Check failed: stream->parent()->GetConvolveAlgorithms(&algorithms) \n",
     "tf.cudnn_older_than_built", "Install cuDNN 5.1.3"),
    # guard: one line, as before (https://github.com/carpedm20/DCGAN-tensorflow/issues/242)
    ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:352] Loaded runtime CuDNN library: 5005 (compatibility version "
     "5000) but source was compiled with 5110 (compatibility version 5100).  If using a binary install, upgrade your "
     "CuDNN library to match.",
     "tf.cudnn_older_than_built", "Install cuDNN 5.1.10"),

    # -- a pinned TensorFlow release pip does not offer to this Python ------------------------------------------------
    # https://github.com/streamlit/demo-face-gan/issues/12 ("this demo does not currently work with Python 3.8")
    ("ERROR: Could not find a version that satisfies the requirement tensorflow==1.15.2 (from -r requirements.txt "
     "(line 14)) (from versions: 2.2.0rc3, 2.2.0rc4, 2.2.0, 2.3.0rc0, 2.3.0rc1, 2.3.0rc2, 2.3.0)\n"
     "ERROR: No matching distribution found for tensorflow==1.15.2 (from -r requirements.txt (line 14))",
     "python.tensorflow_wheel_not_found", "`conda create -n tf1.15 python=3.7`"),
    # https://github.com/schulter/EMOGI/issues/9 ("you can use python3.7")
    ("ERROR: Could not find a version that satisfies the requirement tensorflow==1.15.3 (from versions: 2.5.0, 2.5.1, "
     "2.5.2, 2.5.3, 2.6.0rc0, 2.6.0, 2.7.0, 2.8.0, 2.9.0rc0, 2.9.0)\nERROR: No matching distribution found for "
     "tensorflow==1.15.3",
     "python.tensorflow_wheel_not_found", "python=3.7"),
    # https://github.com/testerSunshine/12306/issues/555 (from versions: none; "python换个版本")
    ("RROR: Could not find a version that satisfies the requirement tensorflow==1.15.0 (from -r requirements.txt (line "
     "10)) (from versions: none) ERROR: No matching distribution found for tensorflow==1.15.0",
     "python.tensorflow_wheel_not_found", "python=3.7"),
    # -- guards: tensorflow-gpu past 2.10 is the package name; a range or a listed release keeps the generic line -------
    # the entry's own example (tensorflow/tensorflow#62073: tensorflow-gpu==2.11)
    ("ERROR: No matching distribution found for tensorflow-gpu==2.11",
     "python.tensorflow_wheel_not_found", "Install `tensorflow` instead of tensorflow-gpu"),
    # https://github.com/CCExtractor/Rekognition/issues/120 (a range, not a pin)
    ("ERROR: Could not find a version that satisfies the requirement tensorflow<2,>=1.2.0 (from "
     "tensorflow-serving-api==1.13.0->-r requirements.txt (line 82)) (from versions: 2.2.0rc1, 2.2.0, 2.4.1)",
     "python.tensorflow_wheel_not_found", "`python -VV` shows this Python's version and bits"),
]

test_first_answer = first_answer_tests(CASES)


def test_tf_python_from_the_table() -> None:
    """The release's Pythons come from knowledge/tensorflow.yaml, not from a pattern."""
    from cudaenv.knowledge.explain.derive import tf_build
    assert tf_build("1.15")["python"].endswith("3.7") and tf_build("2.4")["python"] == "3.6-3.8"


def test_program_bug_in_a_docker_build_stays_unclaimed() -> None:
    """A Python error of the project's own code during a `docker build`, with torch named, claims no environment cause."""
    text = ("Step 7/9 : RUN python3 setup.py install\n ---> Running in 1c2d3e4f5a6b\n"
            "Traceback (most recent call last):\n  File \"setup.py\", line 12, in <module>\n"
            "    version = open('VERSION').read().strip()\nFileNotFoundError: [Errno 2] No such file or directory: 'VERSION'\n"
            "torch==2.1.0\n")
    assert not [m.id for m in explain(text) if m.environment]
