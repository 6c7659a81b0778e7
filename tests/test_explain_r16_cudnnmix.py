"""Round 16b, cudnnmix: a cuDNN of another version than the program's, found first (docs/explain.md "Which fix comes
first").

Real excerpts (verbatim, trimmed), each with its thread. ``CASES``: the first environment answer's id and a phrase of its
first fix line. ``GUARDS``: near-miss wordings that keep their answers, and program bugs that stay verdicts.

- ``runtime.cuda_lib_shadowed`` (cuDNN 8 variants): cuDNN 8's sub-libraries (libcudnn_ops_infer.so.8, ...) bind to one
  another's versioned symbols; "version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8" is two
  cuDNN 8 installs mixed: one complete set first on the loader path (the wheel's when the log shows it).
- ``caffe2.cudnn_version_mismatch``: Caffe2's common_cudnn.h check, "cuDNN compiled (X) and runtime (Y) versions
  mismatch": the build's cuDNN and another install's library; only the build's one found.
- ``loader.ort_cuda_provider_failed`` (the release's cuDNN): the onnxruntime release the log names is built for cuDNN 8
  (knowledge/onnxruntime.yaml, the CUDA EP requirements table) and the log says cuDNN 9 is installed.
"""

from __future__ import annotations

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import ort_releases
from explain_answers import first_answer_tests

CASES = [
    # ---- cuDNN 8's sub-libraries from two installs
    # https://github.com/davisking/dlib/issues/2719 (fresh16 p67: the title alone; the toolkit's cuDNN directory first
    # on LD_LIBRARY_PATH solved it)
    ("""[Bug]version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8

conda install dlib==19.24.0 -y
pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu116
""", "runtime.cuda_lib_shadowed", "Load every cuDNN 8 library from one install"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1726 (the same reporter's full message: /usr/local/cuda-11.1's cuDNN)
    ("""When I ran my program, I got the following error:
Could not load library libcudnn_cnn_train.so.8. Error: /usr/local/cuda-11.1/targets/x86_64-linux/lib/libcudnn_ops_train.so.8: symbol _Z22cudnnGenericOpTensorNdILi3EE13cudnnStatus_tP12cudnnContext16cudnnGenericOp_t21cudnnNanPropagation_tPKdPKvPK17cudnnTensorStructS8_S8_SB_S8_S8_SB_Pv, version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time reference
""", "runtime.cuda_lib_shadowed", "export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # https://github.com/opendatalab/PDF-Extract-Kit/issues/57 (torch's nvidia-cudnn wheel beside another cuDNN 8)
    ("""python3: relocation error: /data/.../lib/python3.10/site-packages/torch/lib/../../nvidia/cudnn/lib/libcudnn_cnn_infer.so.8: symbol _Z20traceback_iretf_implPKcRKN5cudnn16InternalStatus_tEb, version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time reference.
""", "runtime.cuda_lib_shadowed", "Load the whole set from the wheel"),
    # https://github.com/pytorch/pytorch/issues/104591 (the pytorch image's cuDNN and an nvidia-cudnn-cu11 wheel appended
    # to LD_LIBRARY_PATH)
    ("""ENV LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/opt/conda/lib/python3.10/site-packages/nvidia/cublas/lib:/opt/conda/lib/python3.10/site-packages/nvidia/cudnn/lib
Could not load library libcudnn_cnn_infer.so.8. Error: /opt/conda/lib/python3.10/site-packages/nvidia/cudnn/lib/libcudnn_cnn_infer.so.8: undefined symbol: _ZN11nvrtcHelper4loadEb, version libcudnn_ops_infer.so.8
""", "runtime.cuda_lib_shadowed", "prepended, not appended"),
    # https://github.com/PaddlePaddle/PaddleSlim/issues/1619 (the conda env's libcudnn_ops_train beside another install's
    # ops_infer; Paddle's message puts a space before the colon and the comma)
    ("""Could not load library libcudnn_cnn_train.so.8.     Error: /home/zjl/anaconda3/envs/paddle/bin/../lib/libcudnn_ops_train.so.8 :undefined symbol: _ZN5cudnn3ops26JoinInternalPriorityStreamEP12cudnnContexti , version libcudnn_ops_infer.so.8
FatalError:`Process abort signal' is detected by the operating system.
""", "runtime.cuda_lib_shadowed", "Load every cuDNN 8 library from one install"),
    # ---- Caffe2's cuDNN check: the build's cuDNN and another install's library
    # https://github.com/onnx/onnx-caffe2/issues/288 (fresh16 p62; maintainer: two cuDNN, only the build's one found)
    ("""prepared_backend = onnx_caffe2.backend.prepare(model, device="CUDA:0")

RuntimeError: [enforce fail at common_cudnn.h:118] version_match. cuDNN compiled (6021) and runtime (7003) versions mismatch

My cudnn version is 6.0.21, and I compile caffe2 with cudnn 6.0.21, why runtime cudnn version is 7.0.03?
""", "caffe2.cudnn_version_mismatch", "Let only the cuDNN Caffe2 was built with (6.0.21) be found"),
    # https://github.com/facebookresearch/Detectron/issues/574 (caffe2 7.1.2 build loading 7.0.5)
    ("""when typeing "python2 detectron/tests/test_spatial_narrow_as_op.py"

RuntimeError: [enforce fail at common_cudnn.h:108] version_match || backwards_compatible_7 || patch_compatible. cuDNN compiled (7102) and runtime (7005) versions mismatch
""", "caffe2.cudnn_version_mismatch", "remove the 7.0.5 one"),
    # https://github.com/facebookresearch/Detectron/issues/139 (cuDNN 6.0 in the report; the build saw 7.0.5)
    ("""  File "/usr/local/caffe2/python/workspace.py", line 322, in FeedBlob
    return C.feed_blob(name, arr, StringifyProto(device_option))
RuntimeError: [enforce fail at common_cudnn.h:118] version_match. cuDNN compiled (7005) and runtime (7003) versions mismatch
""", "caffe2.cudnn_version_mismatch", "libcudnn.so.7"),
    # ---- onnxruntime's release and the installed cuDNN major
    # https://github.com/microsoft/onnxruntime/issues/20223 (fresh16 p32; maintainer: compatible with CUDA 12 and cuDNN
    # 8, not cuDNN 9)
    ("""Whether CUDA12.4 and cudnn9 matches onnxruntime-win-x64-cuda12-1.17.1

  Loadlibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll

apply yolov8n.onnx with cuda12.4 cudnn9 onnxruntime-win-x64-cuda12-1.17.1

### ONNX Runtime Version or Commit ID

onnxruntime-win-x64-cuda12-1.17.1
""", "loader.ort_cuda_provider_failed", "Install cuDNN 8.x for CUDA 12"),
]

test_first_answer = first_answer_tests(CASES)


GUARDS = [
    # onnxruntime's message with no release or cuDNN named keeps the entry's fix
    # (https://github.com/microsoft/onnxruntime/issues/21769)
    ("""2024-08-16 15:41:33.7983729 [E:onnxruntime:Default, provider_bridge_ort.cc:1992 onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1637 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "C:\\Users\\sunny\\anaconda3\\envs\\pytorch\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"
""", "loader.ort_cuda_provider_failed", "onnxruntime-gpu[cuda,cudnn]"),
    # a release built for cuDNN 9 beside cuDNN 8 keeps it too (onnxruntime-gpu[cuda,cudnn] brings cuDNN 9 and CUDA 12);
    # "Require cuDNN 9.*" is onnxruntime's requirement, not the installed cuDNN
    ("""I used onnxruntime-gpu==1.18.1 before, it can load onnx and work in CUDA(11.7) with cudnn 8.9.
Today, after upgrading to onnxruntime-gpu==1.19.0, it prompts that CUDA does not work
2024-08-16 15:41:33.7983729 [E:onnxruntime:Default, provider_bridge_ort.cc:1992 onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1637 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "C:\\Users\\sunny\\anaconda3\\envs\\pytorch\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"
2024-08-16 15:41:33.8037106 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 onnxruntime::python::CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime.
""", "loader.ort_cuda_provider_failed", "onnxruntime-gpu[cuda,cudnn]"),
    # torch's own cuDNN check keeps its entry
    ("""RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) but found runtime version (8, 3, 3).
""", "torch.cudnn_incompatible", "Let torch load its own cuDNN"),
    # TensorFlow's keeps its entry
    ("""E tensorflow/stream_executor/cuda/cuda_dnn.cc:363] Loaded runtime CuDNN library: 7.0.5 but source was compiled with: 7.2.1.  CuDNN library major and minor version needs to match or have higher minor version in case of CuDNN 7.0 or later version.
""", "tf.cudnn_older_than_built", "cuDNN"),
    # cuDNN 9's sub-library keeps the entry of round 16
    ("""Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig
""", "loader.cudnn9_sublib_older", "Put the framework's own cuDNN first"),
    # a shadowed NCCL keeps the generic copies answer (not the cuDNN 8 variant)
    ("""ImportError: /usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister
""", "runtime.cuda_lib_shadowed", "Find the second copy"),
    # cuDNN 8's sub-library missing (not two installs) keeps the not-found answer (ultrasev/stream-whisper#28)
    ("""Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory
""", "runtime.cuda_library_not_found", ""),
]


@pytest.mark.parametrize("text,want,phrase", GUARDS, ids=[f"{g[1]}-{n}" for n, g in enumerate(GUARDS)])
def test_guard(text: str, want: str, phrase: str) -> None:
    found = [m for m in explain(text) if m.environment]
    assert found and found[0].id == want, [m.id for m in found]
    assert phrase in found[0].fix.splitlines()[0], found[0].fix


# program bugs that name cuDNN (and an onnxruntime release beside cuDNN 9) stay verdicts or unclaimed
NEGATIVES = [
    """Traceback (most recent call last):
  File "train.py", line 40, in <module>
    out = model(x)
RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED
""",
    """onnxruntime-gpu==1.17.1 with cudnn 9
RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM
""",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_program_bugs_stay_unclaimed(text: str) -> None:
    assert not [m.id for m in explain(text) if m.environment], [m.id for m in explain(text)]


def test_ort_table_rows() -> None:
    """knowledge/onnxruntime.yaml: the CUDA 12 builds load cuDNN 8 up to 1.18.0 and cuDNN 9 from 1.18.1."""
    rows = {(r["first"], r["cuda"]): r["cudnn"] for r in ort_releases()}
    assert rows[("1.17.0", "12")] == "8" and rows[("1.18.1", "12")] == "9" and rows[("1.2.0", "10")] == "7"
