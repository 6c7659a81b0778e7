"""Round 19 (f19python): fresh19's burned misses, each fixed as a family.

- N-family: pip's build isolation built against another torch (the log says the installed torch is the toolkit's
  CUDA while torch's check names another): `--no-build-isolation` first; the lower-case retelling of the message.
- N-family: Caffe's cudnn.hpp descriptor check refusing with CUDNN_STATUS_BAD_PARAM: a cuDNN older than the Caffe code
  (torch's BAD_PARAM stays a program bug).
- N-family: optixInit() and OPTIX_ERROR_UNSUPPORTED_ABI_VERSION (7801): the driver older than the OptiX SDK.

Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests, program_bug_tests
from cudaenv.knowledge.explain import explain

CASES = [
    # -- pip's build isolation -------------------------------------------------------------------------------------
    # https://github.com/princeton-vl/lietorch/issues/45 (fresh19 s70)
    ("When I used the latest version updated 2 weeks ago, a bug arise when using pip install (with command pip install "
     "git+https://github.com/princeton-vl/lietorch.git)\n\nError:\n**the detected cuda version (11.8) mismatches the "
     "version that was used to compile pytorch (12.6). please make sure to use the same cuda versions.**\nHowever, in my "
     "local machine, the highest cuda version is cuda 11.8, which means I install pytorch with 11.8.\n",
     "torch.cuda_major_mismatch", "pip install --no-build-isolation git+https://github.com/princeton-vl/lietorch.git"),
    # the situation pytorch/pytorch#55267 describes (an installed torch built for the toolkit, pip's isolated build
    # environment pulling another), put together from real lines: vllm-project/vllm#1060's pip-build-env traceback and
    # message, with a `pip freeze` line naming the installed torch of the toolkit's CUDA
    ("$ pip freeze | grep torch\ntorch==2.1.0+cu118\n$ pip install .\n"
     '        File "/tmp/pip-build-env-4xnh4rb6/overlay/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line '
     "387, in _check_cuda_version\n      RuntimeError:\n      The detected CUDA version (11.8) mismatches the version that "
     "was used to compile\n      PyTorch (12.1). Please make sure to use the same CUDA versions.\n",
     "torch.cuda_major_mismatch", "pip install --no-build-isolation ."),
    # guard: vllm-project/vllm#1060 (a pip-build-env traceback, no installed torch of the toolkit's CUDA said: fixed by
    # an nvcc of torch's CUDA): the toolkit answer stays
    ('        File "/tmp/pip-build-env-4xnh4rb6/overlay/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line '
     "387, in _check_cuda_version\n          raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, "
     "torch.version.cuda))\n      RuntimeError:\n      The detected CUDA version (12.2) mismatches the version that was "
     "used to compile\n      PyTorch (11.7). Please make sure to use the same CUDA versions.\n",
     "torch.cuda_major_mismatch", "cudaenv use 11.7"),
    # guard: xiaobiaodu/Mobile-GS#8 (already --no-build-isolation, torch+cu118 is torch's side): not isolation
    ("I followed your instructions, using CUDA 12.1 and torch+cu118, and executed `pip install -r requirements.txt "
     "--no-build-isolation`, but it gave an error.\nRuntimeError:\nThe detected CUDA version (12.1) mismatches the version "
     "that was used to compile\nPyTorch (11.8). Please make sure to use the same CUDA versions.\n",
     "torch.cuda_major_mismatch", "cudaenv use 11.8"),
    # -- Caffe's cudnn.hpp BAD_PARAM: cuDNN older than the Caffe code ----------------------------------------------------
    # https://github.com/HsinYingLee/OPN/issues/2 (fresh19 s06: cuDNN 5 -> 6)
    ("I1011 13:25:12.462875  7866 net.cpp:380] conv1 -> conv1\n"
     "F1011 13:25:12.899116  7866 cudnn.hpp:122] Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)  "
     "CUDNN_STATUS_BAD_PARAM\n*** Check failure stack trace: ***\n"
     "    @     0x7f0158b6c8f3  caffe::CuDNNConvolutionLayer<>::Reshape()\n",
     "cudnn.caffe_descriptor_bad_param", "cuDNN 6 or later"),
    # https://github.com/BVLC/caffe/issues/5544 (cudnn.hpp:100, cuDNN 5.0: "moved to cuDNN version 6.0 and it works")
    ("CUDNN version (if applicable):cudnn8.0-v5.0\n"
     "F0417 12:45:16.339471 18962 cudnn.hpp:100] Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0) "
     "CUDNN_STATUS_BAD_PARAM\n",
     "cudnn.caffe_descriptor_bad_param", "cuDNN 6 or later"),
    # -- OptiX SDK newer than the driver -------------------------------------------------------------------------------
    # https://github.com/owl-project/NVISII/issues/40 (fresh19 s40: nvisii 1.0.70 worked; a newer driver in general)
    ("Optix call (optixInit()) failed with code 7801 (line 150)\nterminate called without an active exception\n"
     "Aborted (core dumped)\n",
     "driver.optix_abi_newer_than_driver", "Install a driver at least as new as the OptiX SDK"),
    # https://github.com/jbikker/lighthouse2/issues/3 (another program's check: "Updating the Nvidia driver solved this")
    ("Error at line 124 of c:\\users\\sam\\downloads\\lighthouse2-master\\lighthouse2-master\\lib\\rendercore_optix7\\"
     "rendercore.cpp:\noptixInit()\nOPTIX_ERROR_UNSUPPORTED_ABI_VERSION (7801)\n",
     "driver.optix_abi_newer_than_driver", "older OptiX SDK"),
    # https://github.com/zju3dv/EnvGS/issues/4 (optixGetErrorString's words: OptiX 7.7 on driver 470, 535 fixed it)
    ("Driver Version: 470.161.03   CUDA Version: 11.8    torch._version = 2.0.0+cu118\n"
     "/root/code/EnvGS/submodule/diff-surfel-tracing/optix_tracer/optix_wrapper.cpp:175 Optix Error: 'Unsupported ABI "
     "version'\nSegmentation fault\n",
     "driver.optix_abi_newer_than_driver", "Install a driver"),
]

test_first_answer = first_answer_tests(CASES)

# guard: torch's own BAD_PARAM (no Caffe cudnn.hpp) stays a program bug
NEGATIVES = [
    "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM\n",
]

test_program_bugs_stay_verdicts = program_bug_tests(NEGATIVES)


def test_optix_other_codes_not_claimed() -> None:
    # NVIDIA/OWL#12: 7804 (another OptiX error) is not claimed as the ABI mismatch
    assert "driver.optix_abi_newer_than_driver" not in [
        m.id for m in explain("Optix call (optixInit()) failed with code 7804 (line 157)\n")]


# -- jaxlib in a container image: the image's own copy on LD_LIBRARY_PATH first (K-order) ---------------------------
IMAGE_CASES = [
    # https://github.com/google-deepmind/alphafold/pull/605 (fresh19 s32: /opt/conda/lib on LD_LIBRARY_PATH, 82ef354)
    ("when running the singularity transformed docker image of alphafold 2.2.4 Dockerfile:\n"
     "Could not load dynamic library 'libcusolver.so.11' \n\nWhich generates the error:\n"
     "RuntimeError: jaxlib/cuda/cusolver_kernels.cc:44: operation cusolverDnCreate(&handle) failed: cuSolver internal "
     "error\n$ docker build -f docker/Dockerfile -t alphafold:2.2.4 .\n"
     "$ singularity build /tmp/alphafold_2.2.4.sif docker-daemon://alphafold:2.2.4\n",
     "runtime.cuda_library_not_found", "ENV LD_LIBRARY_PATH=/opt/conda/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # AlphaFold's Docker image of 2021, put together from real lines: google-deepmind/alphafold#26's DSO-loader line
    # under run_docker.py (the image's LD_LIBRARY_PATH without its libcusolver.so.11) and alphafold#11's jaxlib frame
    ("I0718 14:20:35.488188 139711506118464 run_docker.py:180] 2021-07-18 14:20:35.487292: W "
     "tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcusolver.so.11'; "
     "dlerror: libcusolver.so.11: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: "
     "/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
     "I0716 21:59:58.942544 139668278384448 run_docker.py:180] File "
     '"/opt/conda/lib/python3.8/site-packages/jaxlib/cusolver.py", line 281, in syevd\n',
     "runtime.cuda_library_not_found", "In the image, put the directory that holds libcusolver.so.11 on LD_LIBRARY_PATH"),
    # guard: jaxlib outside any container (jax-ml/jax#8289's form): the JAX wheels stay first
    ("2021-10-20 10:00:00.000000: W external/org_tensorflow/tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
     " Could not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object file: "
     "No such file or directory; LD_LIBRARY_PATH: /usr/local/cuda-11.0/lib64\n"
     "RuntimeError: jaxlib/cusolver_kernels.cc:44: operation cusolverDnCreate(&handle) failed: cuSolver internal error\n",
     "runtime.cuda_library_not_found", 'pip install -U "jax[cuda12]"'),
]

test_image_first_answer = first_answer_tests(IMAGE_CASES)
