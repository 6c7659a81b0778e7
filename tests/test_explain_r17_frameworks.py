"""Round 17, frameworks: the burned misses of the python-framework and jax-tf layers, fixed as families.

- TensorFlow 2.11 and later on native Windows (tf.windows_native_no_gpu): no GPU build exists there, the GPU list
  stays empty and nothing about CUDA is printed; gated on the log showing Windows and a release 2.11 or newer. TF 2.10
  with CUDA 11.2 and cuDNN 8.1 first, WSL 2 first when the log names Python 3.11 or newer (TF 2.10 has no wheel).
- Bazel 0.19 no longer reading tools/bazel.rc (bazel.legacy_rc_not_read): "Config value X is not defined in any .rc
  file" under Bazel's "The following rc files are no longer being read" warning; TensorFlow before 1.13, Apollo, MACE.
- CUDA 10.1's cuBLAS outside the toolkit (build.cuda101_cublas_outside_toolkit): TensorFlow's cuda_configure looks for
  libcublas.so.10.1 in the toolkit's lib64; CUDA 10.1 installs libcublas.so.10 in /usr/lib/x86_64-linux-gnu.
- torch's CUDA major mismatch when the log names a torch release with no build for the toolkit's CUDA major
  (torch.cuda_major_mismatch, variant on derive cuda_pair_rel): the toolkit changes, not torch.

Excerpts are verbatim (trimmed) from the threads named above them; guards keep near-miss wordings on their answers."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- TensorFlow 2.11+ on native Windows ------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/60237 (Python 3.10; the reporter: "Ive tried version tf 2.10, all
    # works"; maintainer: TF 2.10 was the last release with GPU support on native Windows)
    ("### Tensorflow Version\n\nv2.12.0-rc1-12-g0db597d0d75 2.12.0\n\n### Custom Code\n\nNo\n\n"
     "### OS Platform and Distribution\n\nWindows 10\n\n### Python version\n\n3.10.10\n\n### CUDA/cuDNN version\n\n"
     "cuda_11.8.0_522.06_windows / cudnn-windows-x86_64-8.6.0.163_cuda11\n\n### Relevant log output\n\n```shell\n"
     "2.12.0\nTensor Flow Version: 2.12.0\nKeras Version: 2.12.0\n\nGPU is NOT AVAILABLE\n```",
     "tf.windows_native_no_gpu", 'pip install "tensorflow<2.11"'),
    # https://github.com/tensorflow/tensorflow/issues/61691 (TF 2.13, Windows 10, Python 3.11.4: no TF 2.10 wheel for
    # that Python; pointed to WSL2)
    ("### TensorFlow version\n\ntf 2.13.0\n\n### Custom code\n\nYes\n\n### OS platform and distribution\n\nWindows 10\n\n"
     "### Python version\n\n3.11.4\n\n### CUDA/cuDNN version\n\nv11\n\n### GPU model and memory\n\n"
     "RTX 3500 Ada generation mobile 12GB\n\n### Current behavior?\n\nThe RTX 3500 card cannot be recognised by "
     "tensorflow. I ran tf.config.list_physical_devices('GPU') and tf.test.is_gpu_available(). The results returned "
     "\"0 GPUs available\" and \"False\".",
     "tf.windows_native_no_gpu", "Run TensorFlow under WSL 2"),
    # https://github.com/tensorflow/tensorflow/issues/60172 (TF 2.12, Windows 11, Python 3.11.2, CUDA 11.8 and cuDNN
    # 8.6 installed and on %PATH%)
    ("### Tensorflow Version\n\ntf 2.12.0\n\n### Custom Code\n\nYes\n\n### OS Platform and Distribution\n\n"
     "Windows 11\n\n### Python version\n\n3.11.2\n\n### CUDA/cuDNN version\n\n11.8/8.6\n\n### Current Behaviour?"
     "\n\n```shell\nimport tensorflow as tf\nprint(\"Num GPUs Available: \", len(tf.config.list_physical_devices('GPU')))"
     "\ntf.config.list_physical_devices('GPU')\ntf.config.list_physical_devices()\nNum GPUs Available:  0\n"
     "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]\n```",
     "tf.windows_native_no_gpu", "Run TensorFlow under WSL 2"),
    # -- Bazel 0.19 and tools/bazel.rc ---------------------------------------------------------------------------------
    # https://github.com/tensorflow/tensorflow/issues/23401 (TF 1.12 rc2, Bazel 0.19.0: tools/bazel.rc's contents put
    # into .tf_configure.bazelrc / imported from .bazelrc, or Bazel 0.18)
    ("- TensorFlow version: v1.12.0-rc2\n- Bazel version (if compiling from source): 0.19.0\n"
     "Got error while building pip package from source\nERROR: Config value cuda is not defined in any .rc file\n"
     "gopi@gp:~/tensorflow$ ./configure \nWARNING: The following rc files are no longer being read, please transfer "
     "their contents or import their path into one of the standard rc files:\n/home/gopi/tensorflow/tools/bazel.rc",
     "bazel.legacy_rc_not_read", "import %workspace%/tools/bazel.rc"),
    # https://github.com/XiaoMi/mace/issues/255 (config android; fixed upstream by moving the file)
    ("bash tools/build-standalone-lib.sh error:\nbuild shared lib for armeabi-v7a + cpu_gpu_dsp\nWARNING: The following "
     "rc files are no longer being read, please transfer their contents or import their path into one of the standard "
     "rc files:\n/home/xyh/C:/mace/tools/bazel.rc\nExtracting Bazel installation...\nStarting local Bazel server and "
     "connecting to it...\nINFO: Options provided by the client:\n  Inherited 'common' options: --isatty=1 "
     "--terminal_columns=80\nERROR: Config value android is not defined in any .rc file",
     "bazel.legacy_rc_not_read", "import %workspace%/tools/bazel.rc"),
    # https://github.com/ApolloAuto/apollo/issues/14063 (config 'gpu' quoted, newer Bazel; the checkout's .bazelrc
    # restored)
    ("[INFO]     Bazel Options: --config=gpu\n[INFO]     Build Targets: //modules/... union //cyber/...\n"
     "WARNING: The following rc files are no longer being read, please transfer their contents or import their path "
     "into one of the standard rc files:\n/apollo/tools/bazel.rc\nERROR: Config value 'gpu' is not defined in any .rc file",
     "bazel.legacy_rc_not_read", "import %workspace%/tools/bazel.rc"),
    # -- CUDA 10.1's cuBLAS outside the toolkit -------------------------------------------------------------------------
    # https://github.com/BrainTwister/docker-devel-env/issues/11 (TF 1.13.1: a link into /usr/local/cuda-10.1/lib64)
    ("libcublas is missing in cuda-10.1\n\nError message by building tensorflow-13.1:\n\n```\n"
     "Cuda Configuration Error: Cannot find cuda library libcublas.so.10.1\n```",
     "build.cuda101_cublas_outside_toolkit",
     "sudo ln -s /usr/lib/x86_64-linux-gnu/libcublas.so.10 /usr/local/cuda-10.1/lib64/libcublas.so.10.1"),
    # -- torch's CUDA major mismatch with a torch release that has no build for the toolkit --------------------------
    # https://github.com/facebookresearch/xformers/issues/748 (maintainer: "you'll need to use nvcc 11.8")
    ("Failed to build xformers\n\nmy cuda version is 12.1 but I install pytorch version 2.0.0 + cu118 for there is no "
     "cu121. when I build xformers it raise an error: The detected CUDA version (12.1) mismatches the version that was "
     "used to compile\n      PyTorch (11.8). Please make sure to use the same CUDA versions\n"
     "do I have to change my CUDA to 11.8?",
     "torch.cuda_major_mismatch", "so build with a CUDA 11.8 toolkit"),
    # -- guards ------------------------------------------------------------------------------------------------------
    # the same message without a release named keeps the check between the two ways out
    # https://github.com/vllm-project/vllm/issues/1453
    ("RuntimeError:\n      The detected CUDA version (11.8) mismatches the version that was used to compile\n"
     "      PyTorch (12.1). Please make sure to use the same CUDA versions.",
     "torch.cuda_major_mismatch", "If `cudaenv list` shows a CUDA 12.1 toolkit"),
]

test_first_answer = first_answer_tests(CASES)


def _ids(text: str) -> list[str]:
    return [m.id for m in explain(text)]


def test_linux_tensorflow_without_gpu_is_not_the_windows_cause() -> None:
    """TF 2.13 on Linux printing "Num GPUs Available: 0" is not answered as native Windows
    (https://github.com/tensorflow/tensorflow/issues/66750)."""
    text = ("2024-06-28 00:03:52.493638: I tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda drivers on your "
            "machine, GPU will not be used.\n2024-06-28 00:03:53.230172: W tensorflow/compiler/tf2tensorrt/utils/"
            "py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n\nNum GPUs Available:  0\n")
    assert "tf.windows_native_no_gpu" not in _ids(text)


def test_windows_tensorflow_2_10_is_not_the_windows_cause() -> None:
    """TensorFlow 2.10 (the last GPU build for Windows) with no GPU listed is another cause
    (https://github.com/tensorflow/tensorflow/issues/60650: "v2.10.0-76-gfdfc646704c 2.10.1", Windows 10)."""
    text = ("### Tensorflow Version\n\nv2.10.0-76-gfdfc646704c 2.10.1\n\n### OS Platform and Distribution\n\n"
            "Windows 10\n\nNum GPUs Available:  0\n")
    assert "tf.windows_native_no_gpu" not in _ids(text)


def test_wsl_is_not_native_windows() -> None:
    """Under WSL 2 a newer TensorFlow does get the GPU: its empty list is another cause."""
    text = ("OS platform and distribution\n\nWindows 11, WSL2 Ubuntu 22.04\n\nTensorFlow version\n\n2.15.0\n\n"
            "Num GPUs Available:  0\n")
    assert "tf.windows_native_no_gpu" not in _ids(text)


def test_undefined_config_without_the_legacy_warning_is_not_claimed_by_it() -> None:
    """A config that is simply not defined (a stale generated rc file; https://github.com/bazelbuild/bazel/issues/20554)
    is not the tools/bazel.rc cause."""
    assert "bazel.legacy_rc_not_read" not in _ids("~/jax$ bazel test --//jax:build_jaxlib=false //tests:cpu_tests\n"
                                                  "ERROR: Config value 'tpu' is not defined in any .rc file\n")


def test_cublas_of_cuda_10_0_is_not_the_relocation() -> None:
    """CUDA 10.0 kept cuBLAS in the toolkit: its libcublas.so.10.0 not found is not the 10.1 relocation."""
    assert "build.cuda101_cublas_outside_toolkit" not in _ids(
        "Cuda Configuration Error: Cannot find cuda library libcublas.so.10.0")


def test_torch_release_with_a_build_for_the_toolkit_keeps_the_check() -> None:
    """torch 2.1 has CUDA 12.1 builds: the first line keeps the check between the toolkit and torch."""
    text = ("pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu118\n"
            "RuntimeError:\nThe detected CUDA version (12.1) mismatches the version that was used to compile\n"
            "PyTorch (11.8). Please make sure to use the same CUDA versions.\n")
    m = explain(text)[0]
    assert m.id == "torch.cuda_major_mismatch" and m.fix.startswith("If `cudaenv list` shows a CUDA 11.8 toolkit")


def test_program_bug_with_tensorflow_on_windows_stays_unclaimed() -> None:
    """A Python error of the user's own code on Windows with TF 2.12 named claims no environment cause."""
    text = ("Tensorflow Version: 2.12.0\nOS: Windows 10\nTraceback (most recent call last):\n"
            "  File \"C:\\\\work\\\\train.py\", line 3, in <module>\n    model.fit(x, y, epochs=5)\n"
            "NameError: name 'x' is not defined\n")
    assert not [m.id for m in explain(text) if m.environment]
