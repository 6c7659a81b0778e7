"""Round 20, helper pbuild: a practice set of unseen build-side threads, its misses fixed as families.

- DeepSpeed's op builder prints two lines that begin like its refusal and *accept* the CUDA difference ("... but since
  the APIs are compatible, accepting this combination", "....Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this
  combination"): ext.cuda_version_mismatch claimed them as the refusal, first, over what failed; they are now a warning
  answered after the log's other causes (ext.cuda_mismatch_accepted, rank 1).
- TORCH_CUDA_ARCH_LIST="compute capability", the placeholder of apex's setup.py message exported as printed: torch stops
  at "Unknown CUDA arch (compute)"; `unset TORCH_CUDA_ARCH_LIST` first (torch.arch_list_unknown's variant).
- nvcc's three errors on one line of a torch extension ("a pointer to a bound function may only be used to call the
  function", "type name is not allowed", "expected an expression"): `t.data_ptr<scalar_t>()` in a torch older than 1.3,
  whose data_ptr() is no template (torch.extension_data_ptr_template).
- nvToolsExt's library variable left NOTFOUND and linked as is (`-lLIBNVTOOLSEXT-NOTFOUND`, torch 2.4's
  TorchConfig.cmake; `NvToolExt_LIBRARIES-NOTFOUND.lib` on Windows): build.nvtoolsext_removed reads them, and answers
  with the library file put where CMake looks (Windows: CUDA 11.8's Nsight NVTX).
- ptxas's "Unresolved extern function '_Z3powfi'" / '_Z3powdi' (Windows, macOS libc++): device code's pow(x, int) binds
  to the host library's integer-exponent overload, which that CUDA's device math lacks; a floating exponent first, a
  newer CUDA second (nvcc.device_pow_int_overload).
- newer CMake's "Target X links to: CUDA::<lib> but the target was not found" (all CUDA:: targets exist there): the
  toolkit FindCUDAToolkit picked lacks that library (conda's cuda-nvcc alone, a partial install): a complete toolkit as
  CUDAToolkit_ROOT first (cmake.cuda_target_lib_missing); CUDA::nvToolsExt in that wording is build.nvtoolsext_removed,
  with conda's cuda-nvtx-dev first in a conda environment (vc-bonn/torchhull#10).

Excerpts are verbatim (trimmed) from the threads or sources named above them."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- ext.cuda_mismatch_accepted: DeepSpeed's accepted difference is not what failed -------------------------------
    # https://github.com/deepspeedai/DeepSpeed/issues/2707 (the maintainer: the accepted line "usually isn't a problem";
    # the build's errors were elsewhere)
    ("Installed CUDA version 11.5 does not match the version torch was compiled with 11.6 but since the APIs are "
     "compatible, accepting this combination\n",
     "ext.cuda_mismatch_accepted", "Nothing is required for this line"),
    # https://github.com/deepspeedai/DeepSpeed/pull/3436 (FarzanT: the check skipped, torch's own check refused)
    ("[WARNING]  DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled with "
     "11.8.Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA, but it may result in unexpected behavior.\n"
     "  RuntimeError:\n"
     "  The detected CUDA version (12.1) mismatches the version that was used to compile\n"
     "  PyTorch (11.8). Please make sure to use the same CUDA versions.\n",
     "torch.cuda_major_mismatch", ""),
    # guard: the refusal itself keeps its answer (deepspeedai/DeepSpeed#2902)
    ("Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.0 does not match the version torch was compiled with "
     "11.7, unable to compile cuda/cpp extensions without a matching cuda version.\n",
     "ext.cuda_version_mismatch", ""),
    # -- torch.arch_list_unknown: apex's placeholder exported as printed -----------------------------------------------
    # https://github.com/NVIDIA/apex/issues/1819 (the log); https://github.com/NVIDIA/apex/issues/1073 ("export
    # TORCH_CUDA_ARCH_LIST="compute capability" which caused the issue. Disabling the export fixed the issue.")
    ("root@8fbff3ef7fc2:/Python-3.10.14/apex# -packages/torch/utils/cpp_extension.py\", line 2000, in "
     "_get_cuda_arch_flags\n"
     "Unknown CUDA arch (compute) or GPU not supported error while installing on docker ubuntu with cuda 12.1\n",
     "torch.arch_list_unknown", "`unset TORCH_CUDA_ARCH_LIST`"),
    # guard: a number keeps the entry's own first line (XPixelGroup/BasicSR#354's kind: pytorch 1.3, an RTX 3090)
    ("ValueError: Unknown CUDA arch (8.6) or GPU not supported\n",
     "torch.arch_list_unknown", "Build only for architectures this torch knows"),
    # -- torch.extension_data_ptr_template --------------------------------------------------------------------------
    # https://github.com/facebookresearch/pytorch3d/issues/25 ("my pytorch version was older than 1.4 ... It is solved
    # now"; the source's line calls p1.data_ptr<scalar_t>())
    ("I tried to install the package with \"python3 setup.py install --user\" but I got a few errors:\n"
     "- pytorch3d/csrc/nearest_neighbor_points/nearest_neighbor_points.cu(231): error: a pointer to a bound function "
     "may only be used to call the function\n"
     "- pytorch3d/csrc/nearest_neighbor_points/nearest_neighbor_points.cu(231): error: type name is not allowed\n"
     "- pytorch3d/csrc/nearest_neighbor_points/nearest_neighbor_points.cu(231): error: expected an expression\n",
     "torch.extension_data_ptr_template", "Install the torch the project requires"),
    # https://github.com/mit-han-lab/torchsparse/issues/114 (PyTorch 1.1.0, CUDA 9.0)
    ("  torchsparse/backend/devoxelize/devoxelize_cuda.cu(90): error: a pointer to a bound function may only be used to "
     "call the function\n\n"
     "  torchsparse/backend/devoxelize/devoxelize_cuda.cu(90): error: type name is not allowed\n\n"
     "  torchsparse/backend/devoxelize/devoxelize_cuda.cu(90): error: expected an expression\n",
     "torch.extension_data_ptr_template", "torch 1.3 or newer"),
    # -- build.nvtoolsext_removed: the NOTFOUND library variable linked as is ---------------------------------------
    # https://github.com/Totoro97/f2-nerf/issues/130 ("cp libnvToolsExt.so to ${CUDA_TOOLKIT_ROOT_DIR}/lib64/")
    ("cannot find -lLIBNVTOOLSEXT-NOTFOUND\n",
     "build.nvtoolsext_removed", "Give CMake the library where it looks"),
    # https://github.com/kaldi-asr/kaldi/issues/4910 (Windows CUDA 12.1; the .lib is in ...\NvToolsExt\lib\x64)
    ("201>LINK : fatal error LNK1181: cannot open input file 'NvToolExt_LIBRARIES-NOTFOUND.lib'\n",
     "build.nvtoolsext_removed", "Nsight NVTX"),
    # guard: torch's own FATAL_ERROR keeps the torch answer (wzqvip/jetson-pytorch-builder#1, torch 2.4.1 on CUDA 13.0)
    ("Building PyTorch ref v2.4.1 for Python 3.11\n"
     "CMake Error at cmake/public/cuda.cmake:70 (message):\n"
     "  Failed to find nvToolsExt\n"
     "Call Stack (most recent call first):\n"
     "  cmake/Dependencies.cmake:43 (include)\n",
     "build.nvtoolsext_removed", "torch 2.4 and older ask CMake for the nvToolsExt library"),
    # -- nvcc.device_pow_int_overload ---------------------------------------------------------------------------------
    # https://github.com/ashawkey/torch-ngp/issues/6 (Windows 11, nvcc 10.2.89, VS2019: pow(z,3) to z*z*z fixed it)
    ("ptxas fatal   : Unresolved extern function '_Z3powdi'\n"
     "shencoder.cu\n"
     "ninja: build stopped: subcommand failed.\n",
     "nvcc.device_pow_int_overload", "Make the exponent floating"),
    # https://github.com/alexandrosstergiou/adaPool/issues/8 (win10, CUDA 11.0: "pow (x, 2) can be changed to X * X")
    ("When I tried to build your project on win10, I encountered the following problems：\n"
     "“ptxas fatal   : Unresolved extern function '_Z3powdi'”\n",
     "nvcc.device_pow_int_overload", "`pow(x, 3)` to `pow(x, 3.0f)`"),
    # https://github.com/peridyno/peridyno/issues/35 (Windows, CUDA 11.1; CUDA 12.1 built it: the second line)
    ("Link error with CUDA 11.1 on Windows 10\n"
     "Undefined reference to '_Z3powfi' in 'Topology.dir/Debug/SparseGridHash.obj'\tTopology\n",
     "nvcc.device_pow_int_overload", ""),
    # -- cmake.cuda_target_lib_missing: newer CMake's wording, a toolkit without the library ---------------------------
    # https://github.com/PASSIONLab/OpenEquivariance/pull/208 (conda's cuda-nvcc alone; CUDAToolkit_ROOT at a full
    # /usr/local/cuda-12.8 resolved it)
    ("target_link_libraries ... CUDA::nvrtc but the target was not found\n",
     "cmake.cuda_target_lib_missing", "-DCUDAToolkit_ROOT="),
    # https://github.com/abetlen/llama-cpp-python/issues/1126 (CMake's multi-line wording)
    ("      CMake Error at vendor/llama.cpp/CMakeLists.txt:725 (target_link_libraries):\n"
     "        Target \"ggml\" links to:\n      \n          CUDA::cublasLt\n      \n"
     "        but the target was not found.  Possible reasons include:\n      \n"
     "          * There is a typo in the target name.\n"
     "          * A find_package call is missing for an IMPORTED target.\n",
     "cmake.cuda_target_lib_missing", "Point CMake at a complete toolkit"),
]

test_first_answer = first_answer_tests(CASES)

# near misses that must not take the new answers
NOT_THESE = [
    # NVIDIA/MatX#146: a typo in the program's own code, no torch
    ("error: a pointer to a bound function may only be used to call the function\n",
     "torch.extension_data_ptr_template"),
    # the same three errors beside a torch the log names as 2.x: the program's own code, not an old torch
    ("PyTorch version: 2.1.0\n"
     "  src/op.cu(90): error: a pointer to a bound function may only be used to call the function\n"
     "  src/op.cu(90): error: type name is not allowed\n",
     "torch.extension_data_ptr_template"),
    # DeepSpeed's refusal is no accepted difference (deepspeedai/DeepSpeed#2902)
    ("Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.0 does not match the version torch was compiled with "
     "11.7, unable to compile cuda/cpp extensions without a matching cuda version.\n",
     "ext.cuda_mismatch_accepted"),
    # llnl/Quicksilver#42: another unresolved device function, the build's own -dc flag removed
    ("ptxas fatal   : Unresolved extern function '_Z17getGlobalThreadIDv'\n", "nvcc.device_pow_int_overload"),
    # the accepted line is no refusal
    ("Installed CUDA version 12.6 does not match the version torch was compiled with 12.4 but since the APIs are "
     "compatible, accepting this combination\n",
     "ext.cuda_version_mismatch"),
]


@pytest.mark.parametrize("text,not_id", NOT_THESE)
def test_near_misses_keep_their_answer(text: str, not_id: str) -> None:
    assert not_id not in [m.id for m in explain(text)]
