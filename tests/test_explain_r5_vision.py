"""Issue 18, round 5, slice "vision": vision/3D research code that builds CUDA extensions (gaussian
splatting, nerfstudio/tiny-cuda-nn/instant-ngp, pytorch3d, mmcv/mmdet, DCNv2, pointnet2, PyG wheels).

Threads were sampled in the order the search found them; each excerpt is verbatim (trimmed) from the
thread whose URL is above it. The first environment answer must be ``want_id`` and the first line
of its fix must hold ``want_fix``: the fix that solved that thread's case.
"""

from __future__ import annotations


from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

CASES = [
    # --- torch's "Error checking compiler version for cl: [WinError 2]": no cl.exe on PATH -------
    # (and its "No CUDA runtime is found, using CUDA_HOME='C:\...'" is no colon list)
    # https://github.com/dreamgaussian/dreamgaussian/issues/58
    ("      No CUDA runtime is found, using CUDA_HOME='C:\\Users\\Thomas\\.conda\\envs\\dream'\n"
     "      running build_ext\n"
     "      C:\\ProgramData\\anaconda3\\Lib\\site-packages\\torch\\utils\\cpp_extension.py:383: UserWarning: Error "
     "checking compiler version for cl: [WinError 2] Le fichier spécifié est introuvable\n"
     "        warnings.warn(f'Error checking compiler version for {compiler}: {error}')\n"
     "      error: [WinError 2] Le fichier spécifié est introuvable",
     "msvc.cl_not_found", "x64 Native Tools Command Prompt"),
    # https://github.com/ashawkey/diff-gaussian-rasterization/issues/8
    ("No CUDA runtime is found, using CUDA_HOME='C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.3' "
     "running bdist_wheel running build running build_py creating build running build_ext "
     "C:\\Users\\l1188\\anaconda3\\envs\\DreamG\\Lib\\site-packages\\torch\\utils\\cpp_extension.py:383: UserWarning: "
     "Error checking compiler version for cl: [WinError 2] system can not find the file\n"
     "warnings.warn(f'Error checking compiler version for {compiler}: {error}') Traceback (most recent call last):",
     "msvc.cl_not_found", "x64 Native Tools Command Prompt"),
    # a real colon list still is one: https://github.com/graphdeco-inria/gaussian-splatting/issues/659
    ("      running build_ext\n"
     "      error: [Errno 2] No such file or directory: ':/usr/local/cuda/bin/nvcc': ':/usr/local/cuda/bin/nvcc'",
     "env.cuda_home_list", "export CUDA_HOME=/usr/local/cuda"),

    # --- tiny-cuda-nn cannot detect the GPU architecture: TCNN_CUDA_ARCHITECTURES ---------------
    # https://github.com/NVlabs/tiny-cuda-nn/issues/388
    ('      File "/tmp/pip-req-build-m5dxyoqz/bindings/torch/setup.py", line 51, in <module>\n'
     '          raise EnvironmentError("Unknown compute capability. Specify the target compute capabilities in the '
     'TCNN_CUDA_ARCHITECTURES environment variable or install PyTorch with the CUDA backend to detect it automatically.")\n'
     "      OSError: Unknown compute capability. Specify the target compute capabilities in the TCNN_CUDA_ARCHITECTURES "
     "environment variable or install PyTorch with the CUDA backend to detect it automatically.",
     "tcnn.arch_unknown", "export TCNN_CUDA_ARCHITECTURES="),
    # an HPC login node: https://github.com/NVlabs/tiny-cuda-nn/issues/503
    ("      No CUDA runtime is found, using CUDA_HOME='/cm/shared/apps/cuda11.8/toolkit/11.8.0'\n"
     "      Traceback (most recent call last):\n"
     '        File "/tmp/pip-req-build-p2668lu9/bindings/torch/setup.py", line 53, in <module>\n'
     '          raise EnvironmentError("Unknown compute capability. Specify the target compute capabilities in the '
     'TCNN_CUDA_ARCHITECTURES environment variable or install PyTorch with the CUDA backend to detect it automatically.")',
     "tcnn.arch_unknown", "export TCNN_CUDA_ARCHITECTURES="),
    # instant-ngp's CMake: https://github.com/NVlabs/instant-ngp/issues/802
    ("-- Check for working CUDA compiler: /usr/local/cuda-11.0/bin/nvcc - skipped\n"
     "-- No release type specified. Setting to 'Release'.\n"
     "CMake Error at dependencies/tiny-cuda-nn/CMakeLists.txt:111 (list):\n"
     "  list GET given empty list\n\n"
     "-- Targeting GPU architectures: ",
     "tcnn.arch_unknown", "export TCNN_CUDA_ARCHITECTURES="),

    # --- tinycudann built for another GPU's compute capability --------------------------------
    # https://github.com/nerfstudio-project/nerfstudio/issues/1166
    ("EnvironmentError: Could not find compatible tinycudann extension for compute capability 61.",
     "tcnn.extension_arch_mismatch", "TCNN_CUDA_ARCHITECTURES=61 pip install"),
    # a Tesla K40m (nerfstudio-nu-papers install notes: "just got Nvidia T4 to work")
    ("    OSError: Could not find compatible tinycudann extension for compute capability 35.\n\n"
     "    /opt/nerfstudio-nu-papers/venv/lib/python3.8/site-packages/torch/cuda/__init__.py:123: UserWarning:\n"
     "        Found GPU0 Tesla K40m which is of cuda capability 3.5.\n"
     "        PyTorch no longer supports this GPU because it is too old.",
     "tcnn.extension_arch_mismatch", "run on a newer GPU"),

    # --- torch >= 1.11 has no TH/THC headers: old extensions (DCNv2, flownet2) ------------------
    # https://github.com/CharlesShang/DCNv2/issues/136
    ("DCNv2/src/cpu/dcn_v2_im2col_cpu.cpp:9:10: fatal error: TH/TH.h: No such file or directory \n"
     "    9 | #include <TH/TH.h>\n"
     "      |          ^~~~~~~~~\n"
     "compilation terminated.\n"
     "error: command 'g++' failed with exit status 1",
     "torch.th_headers_removed", "DCNv2_latest"),
    # https://github.com/Mukosame/Zooming-Slow-Mo-CVPR-2020/issues/74
    (" fatal error: THC/THC.h: No such file or directory\n"
     "    7 | #include <THC/THC.h>\n"
     "      |          ^~~~~~~~~~~\n"
     "compilation terminated.\n"
     "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1",
     "torch.th_headers_removed", "ported to the ATen API"),
    # https://github.com/lucasjinreal/DCNv2_latest/issues/55
    ("/DCNv2_latest/src/cpu/dcn_v2_cpu.cpp:7:10: fatal error: TH/TH.h: No such file or directory",
     "torch.th_headers_removed", "ported to the ATen API"),
    # https://github.com/phoenix104104/fast_blind_video_consistency/issues/20
    ('"_kernel.cu:1:10: fatal error: THC.h: No such file or directory"',
     "torch.th_headers_removed", "ported to the ATen API"),

    # --- cudaSetupArgument: nvcc <= 10.0 code against a CUDA >= 10.1 runtime -------------------
    # https://github.com/open-mmlab/mmdetection/issues/3974
    ("ImportError: /home/yy18dlz/opt/anaconda3/envs/open-mmlab/lib/python3.7/site-packages/mmcv/"
     "_ext.cpython-37m-x86_64-linux-gnu.so: undefined symbol: cudaSetupArgument",
     "cudart.setup_argument_removed", "cudaenv use --match-torch"),
    # https://github.com/tianzhi0549/FCOS/issues/365
    ("    from fcos_core import _C\n"
     "ImportError: /home/whealther/FCOS/fcos_core/_C.cpython-37m-x86_64-linux-gnu.so: undefined symbol: cudaSetupArgument",
     "cudart.setup_argument_removed", "cudaenv use --match-torch"),
    # https://github.com/lucasjinreal/DCNv2_latest/issues/3
    ("    import _ext as _backend\n"
     "ImportError: /data/***/CenterNet_Online/src/lib/models/networks/DCNv2/_ext.cpython-36m-x86_64-linux-gnu.so: "
     "undefined symbol: cudaSetupArgument",
     "cudart.setup_argument_removed", "cudaenv use --match-torch"),
    # PyFleX's prebuilt FleX: built in the CUDA 9.2 container: https://github.com/YunzhuLi/PyFleX/issues/8
    ("ImportError: /home/a4090/UniGarmentManip/garmentgym/PyFlex/bindings/build/pyflex.cpython-39-x86_64-linux-gnu.so: "
     "undefined symbol: cudaSetupArgument",
     "cudart.setup_argument_removed", "cudaenv use 9.2"),
    # https://github.com/real-stanford/flingbot/issues/13
    ("ImportError: /home/rzg/flingbot/PyFlex/bindings/build/pyflex.cpython-36m-x86_64-linux-gnu.so: undefined symbol: "
     "cudaSetupArgument",
     "cudart.setup_argument_removed", "cudaenv use 9.2"),

    # --- pip's build isolation hides torch from a CUDA extension's setup.py --------------------
    # https://github.com/JonathonLuiten/Dynamic3DGaussians/issues/22
    ("Installing build dependencies ... done\n"
     "  Getting requirements to build wheel ... error\n"
     "  error: subprocess-exited-with-error\n"
     "  × Getting requirements to build wheel did not run successfully.\n"
     "  │ exit code: 1\n"
     ' File "<string>", line 13, in <module>\n'
     "      ModuleNotFoundError: No module named 'torch'\n"
     "      [end of output]",
     "pip.build_isolation_hides_torch", "--no-build-isolation"),
    # https://github.com/3DTopia/LGM/issues/64 (fixed by --no-build-isolation, 3DTopia/LGM#73)
    ("D:\\codes\\LGM>pip install ./diff-gaussian-rasterization\n"
     "  Installing build dependencies ... done\n"
     "  Getting requirements to build wheel ... error\n"
     "  error: subprocess-exited-with-error\n"
     '        File "C:\\Users\\localuser\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages\\pip\\_vendor'
     '\\pyproject_hooks\\_in_process\\_in_process.py", line 118, in get_requires_for_build_wheel\n'
     "      ModuleNotFoundError: No module named 'torch'",
     "pip.build_isolation_hides_torch", "--no-build-isolation"),
    # another producer's wording: https://github.com/AutoGPTQ/AutoGPTQ/issues/535
    ("  Getting requirements to build wheel ... error\n"
     "  ╰─> [1 lines of output]\n"
     "      Building cuda extension requires PyTorch (>=1.13.0) being installed, please install PyTorch first: "
     "No module named 'torch'",
     "pip.build_isolation_hides_torch", "--no-build-isolation"),
    # pdm's: https://github.com/pdm-project/pdm/issues/2202 (tinycudann)
    ("pdm.exceptions.BuildError: Build backend raised error: Module 'torch' is missing, please make sure it is "
     "specified in the 'build-system.requires' section. If it is not possible, add it to the project and use "
     "'--no-isolation' option.",
     "pip.build_isolation_hides_torch", "--no-build-isolation"),

    # nvdiffrast's own wording (with pyproject metadata): https://github.com/NVlabs/nvdiffrast/issues/237
    ("  Running command Preparing metadata (pyproject.toml)\n"
     "  **********************************************************************\n"
     "  ERROR! Cannot compile nvdiffrast CUDA extension. Please ensure that:\n\n"
     "  1. You have PyTorch installed\n"
     "  2. You run 'pip install' with --no-build-isolation flag\n"
     "  **********************************************************************",
     "pip.build_isolation_hides_torch", "--no-build-isolation"),

    # --- sampled threads explain already answered right first (kept so they stay right) --------
    # https://github.com/facebookresearch/detectron2/issues/540
    ("unable to execute '/usr/local/cuda:/usr/local/cuda/bin/nvcc': No such file or directory\n"
     "error: command '/usr/local/cuda:/usr/local/cuda/bin/nvcc' failed with exit status 1",
     "env.cuda_home_list", "export CUDA_HOME=/usr/local/cuda"),
    # https://github.com/facebookresearch/detectron2/issues/761 ("nvcc 9.0 only supports gcc <=5")
    ("/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions "
     "later than 6 are not supported!",
     "nvcc.gcc_too_new", "gcc 6 or older"),
    # https://github.com/facebookresearch/pytorch3d/issues/1786
    ('        File "C:\\sd\\Real3DPortrait\\venv\\lib\\site-packages\\torch\\utils\\cpp_extension.py", line 387, in '
     "_check_cuda_version\n"
     "          raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, torch.version.cuda))\n"
     "      RuntimeError:\n"
     "      The detected CUDA version (12.0) mismatches the version that was used to compile\n"
     "      PyTorch (11.7). Please make sure to use the same CUDA versions.",
     "torch.cuda_major_mismatch", ""),
    # https://github.com/NVlabs/tiny-cuda-nn/issues/372
    ("/usr/bin/ld: cannot find -lcuda: No such file or directory\n"
     "collect2: error: ld returned 1 exit status",
     "link.lcuda_not_found", "stubs"),
    # https://github.com/tianweiy/CenterPoint/issues/347 and https://github.com/NVlabs/instant-ngp/issues/1142
    ("CMake Error at /usr/share/cmake-3.24/Modules/CMakeDetermineCUDACompiler.cmake:277 (message):\n"
     "  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.\n"
     "Call Stack (most recent call first):\n"
     "  CMakeLists.txt:11 (project)",
     "cmake.cuda_architectures_empty", "CMAKE_CUDA_ARCHITECTURES"),
    # https://github.com/erikwijmans/Pointnet2_PyTorch/issues/180 (A100, CUDA 12.3: drop 3.7 from the list)
    ("  /usr/local/cuda-12.1/bin/nvcc -c ball_query_gpu.cu -gencode=arch=compute_37,code=sm_37\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_37'\n"
     "ninja: build stopped: subcommand failed.",
     "nvcc.unsupported_arch", "take it out of the architecture"),
    # https://github.com/rusty1s/pytorch_scatter/issues/476
    (">>> torch.__version__\n'2.5.1+cu124'\n>>> import torch_scatter\n"
     "OSError: /home/dave/miniconda3/envs/ENV/lib/python3.10/site-packages/torch_scatter/_version_cuda.so: "
     "undefined symbol: _ZN3c1017RegisterOperatorsD1Ev",
     "torch.extension_abi", "for your torch version"),
    # https://github.com/open-mmlab/mmdetection/issues/3991 ("recompile the mmcv on your computer")
    ("/home/ubuntu/miniconda3/envs/py37-cuda101/lib/python3.7/site-packages/mmcv/_ext.cpython-37m-x86_64-linux-gnu.so:"
     "undefined symbol: _ZN3c106Symbol14fromQualStringERKSs",
     "torch.cxx11_abi", "Rebuild the extension"),
]


test_vision_families_from_real_threads = first_answer_tests(CASES)


def test_a_script_without_torch_is_no_build_isolation_problem():
    text = "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\nModuleNotFoundError: No module named 'torch'"
    assert "pip.build_isolation_hides_torch" not in [m.id for m in explain(text)]


def test_windows_cuda_home_is_not_a_colon_list():
    text = "No CUDA runtime is found, using CUDA_HOME='C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8'"
    assert "env.cuda_home_list" not in [m.id for m in explain(text)]
