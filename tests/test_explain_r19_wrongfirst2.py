"""Round 19, "recognised but wrong first" on the compiler and loader layers: burned sealed-set logs (fresh8..fresh18)
whose cause explain named but whose first fix did not follow a fact the log shows, fixed as families.

- cuDNN 8 sub-libraries from two installs where the one that fails is a system toolkit's (its path on the error line)
  and the program is torch, which brings its own cuDNN: that directory comes off LD_LIBRARY_PATH (it was told to go
  first).
- the nvidia-cublas pip wheel's libcublas given another libcublasLt: the wheel's own directory first (or its
  libcublasLt loaded first), not the hunt for torch's duplicate wheels (the r19 leftovers helper's variant for every
  nvidia-* wheel's sibling answers it since the merge).
- torch's old C headers (torch/lib/include/THC) compiled by a plain gcc/g++ line (torch.utils.ffi, SWIG) with no CUDA
  include directory: CPATH, which `cudaenv use` does not set.
- FlashInfer's SM 12.x gate beside a torch build whose CUDA meets it: CUDA_HOME's toolkit is the older side, so
  CUDA_HOME goes to torch's CUDA (the environment's pip toolkit when the log shows it), not "CUDA 12.9 or newer".
- compute_21, which no nvcc has: a compute capability 2.1 GPU takes arch=compute_20,code=sm_21.

Excerpts are verbatim (trimmed) from the threads named above them; each family has the burned log's deciding lines,
a second real member from another project, and a near-miss that keeps its answer."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

_CNN_TRAIN = ("Could not load library libcudnn_cnn_train.so.8. Error: {d}/libcudnn_cnn_train.so.8: undefined symbol: "
              "_ZN5cudnn3cnn34layerNormFwd_execute_internal_implERKNS_7backend11VariantPackEP11CUstream_stRNS0_"
              "18LayerNormFwdParamsERKNS1_20NormForwardOperationEmb, version libcudnn_cnn_infer.so.8\n")

CASES = [
    # -- torch with a toolkit's cuDNN 8 on LD_LIBRARY_PATH: take that directory off -----------------------------------
    # https://github.com/pytorch/pytorch/issues/119989 (fresh18 r61: taking /usr/local/cuda/lib64 off LD_LIBRARY_PATH so
    # the wheel's bundled cuDNN loads solved it; explain had said to put that directory first)
    ("PyTorch cuDNN version:\n$ python -c \"import torch; print(torch.backends.cudnn.version())\"\n8904\n\n"
     "$ cd examples/mnist\n$ python main.py --epochs 1\n" + _CNN_TRAIN.format(d="/usr/local/cuda/lib64") * 2,
     "runtime.cuda_lib_shadowed", "take /usr/local/cuda/lib64 off LD_LIBRARY_PATH"),
    # https://github.com/RVC-Boss/GPT-SoVITS/issues/490 (title: CUDA 11.8, pytorch 2.1.1; the same sub-library of
    # /usr/local/cuda/lib64 under torch's own cuDNN)
    ("使用cuda 11.8, pytorch 2.1.1,python 3.9 时训练出现问题\n```\n" + _CNN_TRAIN.format(d="/usr/local/cuda/lib64") * 2,
     "runtime.cuda_lib_shadowed", "take /usr/local/cuda/lib64 off LD_LIBRARY_PATH"),
    # https://github.com/andimarafioti/florence2-finetuning/issues/2 (/usr/local/cuda-12.1/lib's cnn_train beside the
    # venv's nvidia-cudnn wheel: `unset LD_LIBRARY_PATH` before `python train.py` solved it): the wheel's variant,
    # which loads the wheel's set first or runs without LD_LIBRARY_PATH
    ("```\n" + _CNN_TRAIN.format(d="/usr/local/cuda-12.1/lib") + "```\n\n$ find | grep libcudnn_cnn\n"
     "./.venv/lib/python3.10/site-packages/nvidia/cudnn/lib/libcudnn_cnn_train.so.8\n"
     "./.venv/lib/python3.10/site-packages/nvidia/cudnn/lib/libcudnn_cnn_infer.so.8\n",
     "runtime.cuda_lib_shadowed", "env -u LD_LIBRARY_PATH"),
    # near-miss: the failing sub-library is a conda environment's (NVIDIA/nvidia-container-toolkit#224), not a system
    # toolkit's: one complete set first stays the answer
    ("Could not load library libcudnn_cnn_train.so.8. Error: /home/czh/anaconda3/envs/python39/bin/../lib/"
     "libcudnn_ops_train.so.8: undefined symbol: _Z22cudnnGenericOpTensorNdILi2EE13cudnnStatus_tP12cudnnContext16"
     "cudnnGenericOp_t21cudnnNanPropagation_tPK21cudnnActivationStructPKvPK17cudnnTensorStructS9_S9_SC_S9_S9_SC_Pv, "
     "version libcudnn_ops_infer.so.8\n",
     "runtime.cuda_lib_shadowed", "Load every cuDNN 8 library from one install"),
    # -- the nvidia-cublas wheel's libcublas given another libcublasLt: the wheel's directory first -------------------
    # https://github.com/deepmodeling/deepmd-kit/pull/2241 (fresh18 r71: load libcublasLt before libcublas, merged)
    ("This fixes an error:\n```\nOSError: /home/jz748/anaconda3/envs/tf/lib/python3.10/site-packages/nvidia/cublas/lib/"
     "libcublas.so.11: symbol cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11 not defined in file "
     "libcublasLt.so.11 with link time reference\n```\n",
     "runtime.cuda_lib_shadowed", "nvidia/cublas/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # https://github.com/lipzh5/ResearchProgress/issues/16 (`export LD_LIBRARY_PATH=.../site-packages/nvidia/cublas/lib:
    # $LD_LIBRARY_PATH` solved it)
    ("OSError: /home/ubuntu/anaconda3/envs/avt/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11: "
     "undefined symbol: cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11\n",
     "runtime.cuda_lib_shadowed", "nvidia/cublas/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # near-miss: the libcublas that fails is the conda environment's own (reached through lib-dynload/../..;
    # microsoft/onnxruntime#8594): keep that set
    ("OSError: /home/gpu/anaconda3/envs/FXM/lib/python3.7/lib-dynload/../../libcublas.so.11: symbol free_gemm_select "
     "version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference\n",
     "runtime.cuda_lib_shadowed", "Keep the set in /home/gpu/anaconda3/envs/FXM/lib"),
    # -- torch's old C headers (torch/lib/include/THC) under a plain gcc/g++ compile with no CUDA include dir: CPATH --
    # https://github.com/rusty1s/pytorch_scatter/issues/4 (fresh17 q04: "Please add /usr/local/cuda/include to CPATH" -
    # "Thanks, it works"; explain had said `cudaenv use 8.0`, which sets no CPATH)
    ("when I run \"pip install torch-scatter\", it reports\n\"\"\"\n/home/zhwu/anaconda2/lib/python2.7/site-packages/torch/"
     "utils/ffi/../../lib/include/THC/THCGeneral.h:12:18: fatal error: cuda.h: No such file or directory #include "
     "\"cuda.h\"\n\"\"\"\n\nI have included cuda path in my .bashrc. My platform is anaconda for python 2.7 and cuda-8.0.\n",
     "build.cuda_header_missing", "export CPATH=/usr/local/cuda/include${CPATH:+:$CPATH}"),
    # https://github.com/ctongfei/nexus/issues/27 (a SWIG wrapper compiled by g++ over torch/lib/include/THC:
    # "cuda_runtime_api.h should be found at $CUDA_HOME/include")
    ("Compiling using Java: /usr/lib/jvm/java-8-openjdk-amd64\n"
     "In file included from /shared/shelley/khashab2/nexus/env3.6/lib/python3.6/site-packages/torch/lib/include/THC/"
     "THCGeneral.h:12:0,\n                 from /shared/shelley/khashab2/nexus/env3.6/lib/python3.6/site-packages/torch/"
     "lib/include/THC/THC.h:4,\n                 from torch_wrap_fixed.cxx:236:\n"
     "/shared/shelley/khashab2/nexus/env3.6/lib/python3.6/site-packages/torch/lib/include/ATen/cuda/CUDAStream.h:6:30: "
     "fatal error: cuda_runtime_api.h: No such file or directory\ncompilation terminated.\n",
     "build.cuda_header_missing", "export CPATH=/usr/local/cuda/include${CPATH:+:$CPATH}"),
    # near-miss: the ffi compile line already passes -I/usr/local/cuda/include (liutinglt/CE2P#23), so that toolkit
    # has no cuda.h: a complete toolkit stays the first fix
    ("gcc -pthread -Wno-unused-result -Wsign-compare -DNDEBUG -g -fwrapv -O3 -Wall -Wstrict-prototypes -fPIC "
     "-I/mnt/disk1/lihao/6virt/lib/python3.6/site-packages/torch/utils/ffi/../../lib/include "
     "-I/mnt/disk1/lihao/6virt/lib/python3.6/site-packages/torch/utils/ffi/../../lib/include/THC "
     "-I/usr/local/cuda/include -I/usr/local/include/python3.6m -c __ext.c -o ./__ext.o -std=c99 -std=c++11\n"
     "In file included from /mnt/disk1/lihao/6virt/lib/python3.6/site-packages/torch/utils/ffi/../../lib/include/THC/"
     "THC.h:4:0,\n                 from __ext.c:493:\n/mnt/disk1/lihao/6virt/lib/python3.6/site-packages/torch/utils/ffi/"
     "../../lib/include/THC/THCGeneral.h:12:18: fatal error: cuda.h: No such file or directory\ncompilation terminated.\n",
     "build.cuda_header_missing", "Use a complete toolkit for the build"),
    # -- FlashInfer's SM 12.x gate with torch's CUDA above it: CUDA_HOME's toolkit is the older side -----------------
    # https://github.com/vllm-project/vllm/issues/44305 (fresh18 r69: pointing CUDA_HOME/PATH at the env's CUDA 13 and
    # pinning the nvcc wheels to cu130 solved it; explain had said "cudaenv use 12.9")
    ("## Environment\n```\nGPU: NVIDIA RTX PRO 6000 Blackwell Server Edition\nArchitecture: SM120f / compute_120f\n"
     "Python: 3.12.13\nPyTorch: 2.11.0+cu130\ntorch.version.cuda: 13.0\n```\n\n"
     "In my environment there were multiple CUDA installations:\n\n- System CUDA: `/usr/local/cuda` -> CUDA 12.8\n"
     "- Python/conda environment CUDA: `/root/miniconda3/envs/verl/lib/python3.12/site-packages/nvidia/cu13` -> CUDA 13.0\n"
     "- PyTorch: `torch 2.11.0+cu130`\n\n```text\nFailed to get device capability: SM 12.x requires CUDA >= 12.9\n"
     "CUDA_HOME: /usr/local/cuda\nCUDA_VERSION: 12.8\nFLASHINFER_CUDA_VERSION: 12.8\n```\n",
     "flashinfer.jit_cuda_home_older",
     "export CUDA_HOME=/root/miniconda3/envs/verl/lib/python3.12/site-packages/nvidia/cu13"),
    # https://github.com/flashinfer-ai/flashinfer/pull/3633 (a comment: torch 2.13.0+cu132 with CUDA_HOME/PATH switched
    # to a CUDA 12.8.1 toolkit fails the gate; with nvcc 12.9 the same modules build)
    ("**RTX PRO 6000 Blackwell Server Edition (SM120, 96 GB), GCP g4-standard-48, driver 580.173.02, flashinfer-python "
     "0.6.18, torch 2.13.0+cu132.** The VM ships CUDA 12.9; I installed a CUDA 12.8.1 toolkit side by side and switched "
     "`CUDA_HOME`/`PATH` to it, which is exactly the `get_cuda_version() < 12.9` path this PR changes.\n"
     "re-deriving the swallowed `SM 12.x requires CUDA >= 12.9` message for the log.\n",
     "flashinfer.jit_cuda_home_older", 'eval "$(cudaenv use 13.2)"'),
    # -- compute_21 spelled from a compute capability 2.1 GPU: compute_20 with code sm_21 ------------------------------
    # https://github.com/vlfeat/matconvnet/issues/338 (fresh18 r02, CUDA 7.5, GT 720M: the maintainer "compile it with
    # compute_20"; explain had said no toolkit compiles it, take it out)
    ("I run this code  in my laptop with GeForce GT 720M:\nvl_compilenn('enableGpu', true, 'cudaRoot', "
     "'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v7.5','cudaMethod', 'nvcc')\n\nbut it get this error:\n\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_21' \nError using vl_compilenn>nvcc_compile (line 449)\n"
     "Command \"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v7.5\\bin\\nvcc\" -c\n"
     "-gencode=arch=compute_21,code=\\\"sm_21,compute_21\\\"  -o \"E:\\Deep\\MatConvNet\\matlab\\mex\\.build\\bits\\data.obj\" failed.\n",
     "nvcc.unsupported_arch", "-gencode=arch=compute_20,code=sm_21"),
    # https://github.com/vlfeat/matconvnet/issues/143 (CUDA Toolkit v7.0, NVS 5400M of compute capability 2.1: the same
    # error, so no toolkit takes compute_21)
    ("Matlab 2015a\nMSVC 2011\nCUDA Toolkit v7.0\n\n  CUDADevice with properties:\n\n                      Name: 'NVS 5400M'\n"
     "         ComputeCapability: '2.1'\n\nError Message:\n>> vl_compilenn('enableGpu', true, 'cudaMethod','nvcc')\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_21'\n",
     "nvcc.unsupported_arch", "-gencode=arch=compute_20,code=sm_21"),
    # near-miss: compute_20 under a CUDA that dropped Fermi (rodschulz/BPA#6: "replace the compute_20 and sm_20 with
    # your supported CUDA arch") keeps "take it out of the list"
    ("[ 10%] Building NVCC (Device) object CMakeFiles/BPA.dir/BPA_generated_GpuRoutines.cu.o\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_20'\n"
     "CMake Error at BPA_generated_GpuRoutines.cu.o.Debug.cmake:219 (message):\n",
     "nvcc.unsupported_arch", "take it out of the"),
]

test_first_answer = first_answer_tests(CASES)


def test_flashinfer_gate_without_torch_build_stays_generic() -> None:
    """Near-miss: FlashInfer's line alone (its source, tests/data/explain_producers/taillibs.yaml) does not say whether
    CUDA_HOME's toolkit or torch is below the gate: the new entry does not claim it."""
    found = explain("RuntimeError: SM 12.x requires CUDA >= 12.9\n")
    assert "flashinfer.jit_cuda_home_older" not in [m.id for m in found]
    # nor with a torch build below the gate (then torch is the side to change)
    found = explain("torch 2.7.0+cu128\nRuntimeError: SM 12.x requires CUDA >= 12.9\n")
    assert "flashinfer.jit_cuda_home_older" not in [m.id for m in found]
