"""Issue 18, round 6, helper "main": the population cudaenv is for (people who build and train
PyTorch/CUDA code on shared Linux servers: torch CUDA extensions such as flash-attn, mamba, apex,
DeepSpeed ops, detectron2, pytorch3d, PyG, MinkowskiEngine, gaussian splatting, xformers, vllm; and
their run-time errors), sampled from public threads in the order a search found them.

Each excerpt is quoted (trimmed) from the thread whose URL is above it; the first answer must be
``want_id`` and the first line of its fix must hold ``want_fix``: the fix that solved that thread.
Families, not sentences: each family below has members from several projects or producers.
"""

from __future__ import annotations


from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- the build runs a toolkit path with no nvcc behind it: shell, make, ninja, distutils --------
    # https://github.com/NVIDIA/MinkowskiEngine/issues/569 (ninja's /bin/sh, CUDA_HOME=/usr/local/cuda-11.2 absent)
    ("/bin/sh: /usr/local/cuda-11.2/bin/nvcc: No such file or directory\n"
     "[9/21] /usr/local/cuda-11.2/bin/nvcc  -I/home/siyuan23/.conda/envs/pointcontrast/lib/python3.8/site-packages/"
     "torch/include -I/home/siyuan23/MinkowskiEngine/src -c -c /home/siyuan23/MinkowskiEngine/src/gpu.cu",
     "torch.nvcc_not_found", "cudaenv use"),
    # https://github.com/gtcasl/gpuocelot/issues/80 (scons: nothing installed in /usr/local/cuda/bin)
    ("/usr/local/cuda/bin/nvcc -arch=sm_20 ocelot/ocelot/cuda/test/globals/global.cu -c -o "
     ".release_build/ocelot/ocelot/cuda/test/globals/global.o\nsh: 1: /usr/local/cuda/bin/nvcc: not found",
     "torch.nvcc_not_found", "cudaenv use"),
    # https://github.com/Microway/gpu-burn/issues/8 (the Makefile's CUDAPATH is empty: it ran /bin/nvcc)
    ("PATH=.:/usr/bin:/usr/local/cuda/bin:/home/valen/.local/bin /bin/nvcc -gencode=arch=compute_20,code=sm_20 "
     "-I. -I/include --fatbin compare.cu -o gpu_burn.cuda_kernel\n/bin/sh: /bin/nvcc: No such file or directory\n"
     "make: *** [Makefile:38: gpu_burn.cuda_kernel] Error 127",
     "torch.nvcc_not_found", "make CUDAPATH=$CUDA_HOME"),
    # https://github.com/MVIG-SJTU/AlphaPose/issues/765 (CUDA_HOME set with its quotes inside)
    ("unable to execute \"'/usr/local/cuda'/bin/nvcc\": No such file or directory\n"
     "error: command \"'/usr/local/cuda'/bin/nvcc\" failed with exit status 1",
     "torch.nvcc_not_found", "export CUDA_HOME=/usr/local/cuda"),
    # https://github.com/suyukun666/S2CNet/issues/3 ("set your own machine's cuda path")
    ("error: [Errno 2] No such file or directory: '/usr/local/cuda-10.0/bin/nvcc': '/usr/local/cuda-10.0/bin/nvcc'",
     "torch.nvcc_not_found", "cudaenv use"),

    # --- Windows: build_ext stops on "[WinError 2]" with no cl warning: cl.exe or nvcc is not there -----
    # https://github.com/pytorch/pytorch/issues/100538
    ("running build_ext\nerror: [WinError 2] The system cannot find the file specified",
     "msvc.cl_not_found", "x64 Native Tools Command Prompt"),
    # https://github.com/facebookresearch/pytorch3d/issues/1597 ("Can you run cl.exe in that terminal? ... nvcc --version?")
    ("installing library code to build\\bdist.win-amd64\\egg\nrunning install_lib\nrunning build_py\n"
     "running build_ext\nerror: [WinError 2] 系统找不到指定的文件。",
     "msvc.cl_not_found", "`where cl` must find it"),
    # https://github.com/graphdeco-inria/gaussian-splatting/issues/444
    ("      running build\n      running build_ext\n      error: [WinError 2] The system cannot find the file specified\n"
     "      [end of output]",
     "msvc.cl_not_found", "x64 Native Tools Command Prompt"),

    # --- a companion package's compiled ops built for another CUDA than torch's ---------------------
    # https://github.com/mli/autocut/issues/106 (torchaudio; numz/sd-wav2lip-uhq#36: reinstall it from torch's index)
    ("RuntimeError: Detected that PyTorch and TorchAudio were compiled with different CUDA versions. PyTorch has "
     "CUDA version 11.8 whereas TorchAudio has CUDA version 11.7. Please install the TorchAudio version that "
     "matches your PyTorch version.",
     "torchvision.other_cuda", "--index-url https://download.pytorch.org/whl/cu$(echo 11.8"),
    # https://github.com/mli/autocut/issues/62 (docker: solved by torch and torchaudio of one CUDA)
    ("> RuntimeError: Detected that PyTorch and TorchAudio were compiled with different CUDA versions. PyTorch has "
     "CUDA version 11.6 whereas TorchAudio has CUDA version 11.7. Please install the TorchAudio version that matches "
     "your PyTorch version.",
     "torchvision.other_cuda", "TorchAudio --index-url"),
    # https://github.com/rusty1s/pytorch_scatter/issues/251 (solved: the wheel from data.pyg.org for torch 1.5.0+cu102)
    ("RuntimeError: Detected that PyTorch and torch_sparse were compiled with different CUDA versions. PyTorch has "
     "CUDA version 10.2 and torch_sparse has CUDA version 11.4. Please reinstall the torch_sparse that matches "
     "your PyTorch install.",
     "torchvision.other_cuda", "https://data.pyg.org/whl/torch-"),
    # https://github.com/pyg-team/pytorch_geometric/issues/958
    ("`RuntimeError: Detected that PyTorch and torch_scatter were compiled with different CUDA versions. PyTorch has "
     "CUDA version 10.1 and torch_scatter has CUDA version 10.2. Please reinstall the torch_scatter that matches "
     "your PyTorch install.`",
     "torchvision.other_cuda", "pip install --no-cache-dir --force-reinstall --no-deps torch_scatter -f"),
    # https://github.com/rusty1s/pytorch_sparse/issues/41 (built on a host without a GPU: "CUDA version 0.0")
    ("RuntimeError: Detected that PyTorch and torch_sparse were compiled with different CUDA versions. PyTorch has "
     "CUDA version 10.1 and torch_sparse has CUDA version 0.0. Please reinstall the torch_sparse that matches "
     "your PyTorch install.",
     "torchvision.other_cuda", "data.pyg.org"),
    # https://github.com/m-bain/whisperX/issues/320 (torchvision, as before: "install it again ... cuda 11.7")
    ("\"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions. PyTorch has "
     "CUDA Version=11.7 and torchvision has CUDA Version=11.8\".",
     "torchvision.other_cuda", "torchvision --index-url"),

    # --- pip builds PyG's operators from source: their wheels need no compiler ----------------------
    # https://github.com/lipzh5/ResearchProgress/issues/11
    ("      RuntimeError:\n      The detected CUDA version (10.1) mismatches the version that was used to compile\n"
     "      PyTorch (12.1). Please make sure to use the same CUDA versions.\n      \n      [end of output]\n  \n"
     "  note: This error originates from a subprocess, and is likely not a problem with pip.\n"
     "  ERROR: Failed building wheel for torch-scatter\n  Running setup.py clean for torch-scatter\n"
     "Failed to build torch-scatter",
     "torch.cuda_major_mismatch", "https://data.pyg.org/whl/torch-"),
    # https://github.com/rusty1s/pytorch_sparse/issues/189 (pyg-team/pytorch_geometric#3707: "best to install from wheels")
    ("!pip3 install torch-scatter\n!pip3 install torch-sparse\n!pip3 install torch-cluster\n"
     "RuntimeError:\n    The detected CUDA version (11.2) mismatches the version that was used to compile\n"
     "    PyTorch (10.2). Please make sure to use the same CUDA versions.",
     "torch.cuda_major_mismatch", "data.pyg.org"),
    # a build that is not PyG keeps the toolkit answer: https://github.com/pengHTYX/Era3D/issues/23 (tiny-cuda-nn)
    ("pip install git+https://github.com/NVlabs/tiny-cuda-nn/#subdirectory=bindings/torch\n"
     "The detected CUDA version (12.0) mismatches the version that was used to compile\n"
     "PyTorch (11.8). Please make sure to use the same CUDA versions.",
     "torch.cuda_major_mismatch", 'cudaenv use 11.8'),

    # --- MSVC's standard library refuses an older nvcc (STL1002) ------------------------------------
    # https://github.com/peylnog/ContinuousSR/issues/4 (gsplat; solved by CUDA 11.7 with VS Build Tools 2019)
    ("But I installed gsplat with error: static assertion failed with \"error STL1002: Unexpected compiler version, "
     "expected CUDA 12.4 or newer.\"",
     "msvc.unsupported_version", "older MSVC toolset"),
    # https://github.com/lshqqytiger/ZLUDA/issues/108 (slangtorch; "usually resolved by using MSVC 2019")
    ("C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\VC\\Tools\\MSVC\\14.44.35207\\include\\"
     "yvals_core.h(902): error STL1002: Unexpected compiler version, expected CUDA 12.4 or newer.\n"
     "1 error detected in the compilation of \"c:/Users/PC/Documents/development/py/render/.slangtorch_cache/"
     "rasterizer2d/b9c103f6b206b8e5/rasterizer2d_cuda.cu\".\nninja: build stopped: subcommand failed.",
     "msvc.unsupported_version", "Visual Studio 2019 Build Tools"),

    # --- torch's own library misses a torch symbol: two torch installations are mixed ---------------
    # https://github.com/pytorch/pytorch/issues/15800 (solved: a stale libc10.so in /usr/local/lib removed)
    ("  File \"~/.local/lib/python3.6/site-packages/torch/__init__.py\", line 84, in <module>\n"
     "    from torch._C import *\nImportError: ~/.local/lib/python3.6/site-packages/torch/lib/libcaffe2.so: "
     "undefined symbol: _ZTIN3c1010TensorImplE",
     "torch.extension_abi", "Remove every torch copy"),
    # https://github.com/pytorch/pytorch/issues/10234 ("pip uninstall torch; pip uninstall torch", then reinstall)
    ("    from torch._C import *\nImportError: anaconda2/lib/python2.7/site-packages/torch/lib/libtorch.so.1: "
     "undefined symbol: _ZTIN2at4TypeE",
     "torch.extension_abi", "pip uninstall -y torch"),
    # https://github.com/pytorch/pytorch/issues/14087 ("another pytorch install ... Mixing up of two installs")
    ("    from torch._C import *\nImportError: /home/shobjain/python27/local/lib/python2.7/site-packages/torch/_C.so: "
     "undefined symbol: _ZN5torch3jit5Value13setUniqueNameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESa",
     "torch.cxx11_abi", "Remove every torch copy"),

    # found after the entries were written (a check that the family carries):
    # https://github.com/hijkzzz/alpha-zero-gomoku/issues/28 ("libtorch and pytorch need to be the same version")
    ("  File \"/home/jinxiaoyang/anaconda3/envs/multiAlphaGomoku/lib/python3.6/site-packages/torch/__init__.py\", "
     "line 197, in <module>\n    from torch._C import *  # noqa: F403\nImportError: /home/jinxiaoyang/anaconda3/envs/"
     "multiAlphaGomoku/lib/python3.6/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: "
     "_ZNK3c1010TensorImpl23shallow_copy_and_detachERKNS_15VariableVersionEb",
     "torch.extension_abi", "Remove every torch copy"),

    # --- an extension's typeinfo/vtable symbols of torch (_ZTI/_ZTV) ---------------------------------
    # https://github.com/idiap/fast-transformers/issues/127 (solved by building from source)
    ("ImportError: \n/home/pcpt3/.conda/envs/gt4sd/lib/python3.8/site-packages/fast_transformers/causal_product/"
     "causal_product_\ncpu.cpython-38-x86_64-linux-gnu.so: undefined symbol: _ZTIN3c1021AutogradMetaInterfaceE",
     "torch.extension_abi", "rebuild it from source"),

    # --- two CUDA builds of one package installed side by side ------------------------------------------
    # https://github.com/gpustack/gpustack/issues/5459 (an image with cupy-cuda12x and cupy-cuda13x)
    ("(APIServer pid=1) /usr/local/lib/python3.12/dist-packages/cupy/_environment.py:670: UserWarning: \n"
     "(APIServer pid=1) --------------------------------------------------------------------------------\n"
     "(APIServer pid=1) \n"
     "(APIServer pid=1)   CuPy may not function correctly because multiple CuPy packages are installed\n"
     "(APIServer pid=1)   in your environment:\n(APIServer pid=1) \n(APIServer pid=1)     cupy-cuda12x, cupy-cuda13x\n",
     "python.two_cuda_builds_installed", "Uninstall every build"),
    # https://github.com/rapidsai-community/rapidsai-csp-utils/pull/138 (cudf: co-existing CUDA 12 and 13 installs)
    ("/usr/local/lib/python3.12/dist-packages/cupy/_environment.py:670: UserWarning: \n"
     "--------------------------------------------------------------------------------\n\n"
     "  CuPy may not function correctly because multiple CuPy packages are installed\n  in your environment:\n\n"
     "    cupy-cuda12x, cupy-cuda13x\n",
     "python.two_cuda_builds_installed", "pip uninstall -y"),
    # https://github.com/traveller59/spconv/issues/630 (spconv 2.3.6 beside spconv-cu111 2.1.25)
    ("  File \"/home/usrs/wangjuan/anaconda3/envs/PLA/lib/python3.7/site-packages/spconv/cppconstants.py\", line 15, "
     "in <module>\n    import spconv.core_cc as _ext\nImportError: generic_type: cannot initialize type "
     "\"GemmAlgoDesp\": an object with that name is already defined",
     "python.two_cuda_builds_installed", "Uninstall every build"),

    # --- cuDNN's loader finds a sub-library but it misses a symbol of another copy: two cuDNNs --------
    # https://github.com/RVC-Boss/GPT-SoVITS/issues/490 (the toolkit's lib64 cuDNN under torch's own)
    ("Could not load library libcudnn_cnn_train.so.8. Error: /usr/local/cuda/lib64/libcudnn_cnn_train.so.8: undefined "
     "symbol: _ZN5cudnn3cnn34layerNormFwd_execute_internal_implERKNS_7backend11VariantPackEP11CUstream_stRNS0_18Layer"
     "NormFwdParamsERKNS1_20NormForwardOperationEmb, version libcudnn_cnn_infer.so.8",
     "runtime.cuda_lib_shadowed", "LD_LIBRARY_PATH"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/224 (a conda env's lib beside another cuDNN)
    ("Could not load library libcudnn_cnn_train.so.8. Error: /home/czh/anaconda3/envs/python39/bin/../lib/"
     "libcudnn_ops_train.so.8: undefined symbol: _Z22cudnnGenericOpTensorNdILi2EE13cudnnStatus_tP12cudnnContext16"
     "cudnnGenericOp_t21cudnnNanPropagation_tPK21cudnnActivationStructPKvPK17cudnnTensorStructS9_S9_SC_S9_S9_SC_Pv, "
     "version libcudnn_ops_infer.so.8",
     "runtime.cuda_lib_shadowed", "LD_LIBRARY_PATH"),
    # the file itself missing stays the install answer: https://github.com/AILab-CVC/Make-Your-Video/issues/4
    ("Error: Could not load library libcudnn_cnn_infer.so.8", "runtime.cuda_library_not_found", "cudnn"),

    # --- cudnn.h missing: cuDNN's headers are in no toolkit, so switching toolkits cannot help ---------
    # https://github.com/NVIDIA/TransformerEngine/issues/1309 (cuDNN from pip; TE reads CUDNN_PATH)
    ("      /pscratch/sd/k/klhhhhh/envs/megatron/lib/python3.9/site-packages/torch/include/ATen/cudnn/cudnn-wrapper.h:"
     "3:10: fatal error: cudnn.h: No such file or directory\n          3 | #include <cudnn.h>\n"
     "            |          ^~~~~~~~~\n      compilation terminated.\n      ninja: build stopped: subcommand failed.",
     "build.cuda_header_missing", "cuDNN's headers are not in any CUDA toolkit"),
    # https://github.com/AlexeyAB/darknet/issues/5141 (the .deb put cudnn.h in /usr/include)
    ("g++ -std=c++11 -Iinclude/ -I3rdparty/stb/include -DGPU -I/usr/local/cuda/include/ -DCUDNN -Wall -fPIC -Ofast "
     "-DGPU -DCUDNN -I/usr/local/cudnn/include -c ./src/image_opencv.cpp -o obj/image_opencv.o\n"
     "include/darknet.h:46:10: fatal error: cudnn.h: No such file or directory\n #include <cudnn.h>",
     "build.cuda_header_missing", "export CPATH="),
    # https://github.com/pjreddie/darknet/issues/2356 (only cudnn.h was copied: "copy cudnn*.h")
    ("/usr/local/cuda/include/cudnn.h:60:10: fatal error: cudnn_version.h: No such file or directory\n"
     " #include \"cudnn_version.h\"\ncompilation terminated.",
     "build.cuda_header_missing", "cuDNN's headers"),

    # --- torch's JIT build cache (torch_extensions) and torch.compile's cache: stale or incomplete builds ----
    # https://github.com/huggingface/transformers/pull/18868 ("After I remove the cache ... the test passes")
    ("  E   ImportError: /github/home/.cache/torch_extensions/py38_cu113/fused_adam/fused_adam.so: undefined symbol: "
     "_ZN3c104impl8GPUTrace13gpuTraceStateE`",
     "torch.extension_abi", 'rm -rf "$(dirname /github/home/.cache/torch_extensions/py38_cu113/fused_adam/fused_adam.so)"'),
    # https://github.com/rosinality/stylegan2-pytorch/issues/5 ("retry after remove /tmp/torch_extensions")
    ("ImportError: /tmp/torch_extensions/fused/fused.so: undefined symbol: _ZN3c1011CPUTensorIdEv",
     "torch.extension_abi", "Delete the cached build"),
    # https://github.com/deepspeedai/DeepSpeed/issues/3410
    ("**ImportError: /root/.cache/torch_extensions/py310_cu117/fused_adam/fused_adam.so: undefined symbol: \n"
     "_ZN3c104cuda20CUDACachingAllocator9allocatorE**",
     "torch.extension_abi", "Delete the cached build"),
    # https://github.com/QwenLM/Qwen3/issues/350 ("the previous compilation failed ... removing the cached files")
    ("ImportError: /root/.cache/torch_extensions/py38_cu118/fused_adam/fused_adam.so: cannot open shared object "
     "file: No such file or directory",
     "torch.extension_cache_incomplete", "rm -rf"),
    # https://github.com/HuangLK/transpeeder/issues/20 (four ranks, after the cache was cleared)
    ("    module = importlib.util.module_from_spec(spec)\nImportError: /root/.cache/torch_extensions/py38_cu116/"
     "fused_adam/fused_adam.so: cannot open shared object file: No such file or directory\n"
     "Loading extension module fused_adam...",
     "torch.extension_cache_incomplete", "let one process build it again"),
    # https://github.com/pytorch/pytorch/issues/108868 ("I fixed it by clearing /tmp/torchinductor_ezyang")
    ("ImportError: /tmp/torchinductor_yangsiyu/triton/0/d5f8c1a442ede8316c4e44a60886eb1680de32d772eebe53f0a5b8be1a9f96d6/"
     "__triton_launcher.so: undefined symbol: cuLaunchKernel",
     "runtime.driver_symbol_missing", "rm -rf /tmp/torchinductor_$USER"),

    # --- an install in the log replaced torch: put back the torch the environment was built for -------
    # https://github.com/sdbds/musubi-tuner-scripts/issues/4 (a dependency moved torch 2.5.1 to 2.6.0; pinned back)
    ("WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.6.0+cu124)\n    Python  3.10.11 (you have 3.10.0)\n"
     "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
     "Installed 3 packages in 8.96s\n - einops==0.7.0\n + einops==0.8.1\n - torch==2.5.1+cu124\n"
     " + torch==2.6.0+cu124",
     "xformers.other_torch", 'pip install "torch==$(echo 2.5.1+cu124 | cut -d+ -f1)"'),
    # https://github.com/huggingface/accelerate/issues/1501 (`pip install xformers` replaced an NGC container's torch)
    ("ImportError: /usr/local/lib/python3.8/dist-packages/transformer_engine_extensions.cpython-38-x86_64-linux-gnu.so:"
     " undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n"
     "Container image:\nnvcr.io/nvidia/pytorch:23.04-py3\nError showed up when I updated the xformer:\n"
     "pip install xformers\nIt downgraded my torch from 2.1.0 to 2.0.1:\n"
     "Successfully uninstalled torch-2.1.0a0+fe05266",
     "torch.cxx11_abi", "start again from the container image"),
    # without that evidence the answer stays the xformers build for this torch:
    # https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/15444 (torch upgraded on purpose)
    ("WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.2.2+cu121)\n    Python  3.10.11 (you have 3.10.11)\n"
     "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
     "xformers.other_torch", "Install the xformers release built for your torch 2.2.2+cu121"),
]


test_main_population_families_from_real_threads = first_answer_tests(CASES)


def test_a_shell_nvcc_not_found_without_a_path_stays_the_path_answer():
    # "/bin/sh: 1: nvcc: not found" (flatironinstitute/cufinufft#148) is nvcc missing from PATH, not a toolkit path
    found = explain("/bin/sh: 1: nvcc: not found\nmake: *** [Makefile:114: src/precision_independent.o] Error 127")
    assert found and found[0].id == "shell.nvcc_not_found", [m.id for m in found]


def test_a_colon_list_nvcc_path_stays_the_cuda_home_list_answer():
    # https://github.com/zhanghang1989/PyTorch-Encoding/issues/297
    found = explain("/bin/sh: 1: :/usr/local/cuda/bin/nvcc: not found")
    assert found and found[0].id == "env.cuda_home_list", [m.id for m in found]


def test_a_gpu_shared_memory_limit_is_not_claimed_as_environment():
    # https://github.com/nerfstudio-project/gsplat/issues/266 (tile_size: the program's launch configuration)
    found = explain("RuntimeError: Failed to set maximum shared memory size (requested 7168 bytes), try lowering tile_size.")
    assert not [m.id for m in found if m.environment]


def test_an_issue_templates_torch_list_is_no_replaced_torch():
    # "- torch==2.1.0" alone is a bullet of an environment listing; uv prints "- torch==" with "+ torch=="
    found = explain("ImportError: /x/site-packages/foo/_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
                    "Environment:\n- torch==2.1.0\n- CUDA 12.1")
    assert found and found[0].id == "torch.extension_abi"
    assert "replaced torch" not in found[0].fix
