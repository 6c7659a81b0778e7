"""Issue 18, round 10, helper "ext": torch extensions, link errors and CUDA_HOME. Each entry's fix answers with
the resolutions its cause has in real threads, each labelled by the situation (a check the user runs, or a fact
the log shows). Every excerpt is quoted (trimmed) from the thread above it; the third element is a piece of the
fix that solved that thread, which the first fix line (the alternative for that thread's situation) holds.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

LINK = "link.cuda_libs_not_found"
LCUDA = "link.lcuda_not_found"
BEFORE = "ext.imported_before_torch"
ABI = "torch.extension_abi"
XF = "xformers.other_torch"
HOME = "torch.cuda_home_not_set"
VER = "ext.cuda_version_mismatch"
CXX = "torch.cxx11_abi"
NVCC = "torch.nvcc_not_found"
LIST = "env.cuda_home_list"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- link.cuda_libs_not_found: ld misses a CUDA library ------------------------------------------------------
    # https://github.com/deepspeedai/DeepSpeed/issues/3929 (nvcc from the conda env, which has lib and no lib64:
    # "I copied everything in `lib` to `lib64`, and the problem is solved")
    ("[BUG] cannot find -lcurand and -lcudart\n"
     "> [1/3] /home/xuchengjin/anaconda3/envs/test/bin/nvcc  -DTORCH_EXTENSION_NAME=cpu_adam -DTORCH_API_INCLUDE_EXTENSION_H "
     "-I/home/xuchengjin/anaconda3/envs/test/lib/python3.9/site-packages/deepspeed/ops/csrc/includes "
     "-I/home/xuchengjin/anaconda3/envs/test/include",
     LINK, 'ln -s "$CONDA_PREFIX/lib" "$CONDA_PREFIX/lib64"'),
    # https://github.com/ar4/deepwave/issues/51 (the conda env's libcudart.so is in lib; `ln -s lib lib64` "WORKED")
    ("cannot find -lcudart\n"
     "Traceback (most recent call last):\n"
     '  File "/nas/home/wxu/miniconda3/envs/lsrtmdip/lib/python3.8/site-packages/torch/utils/cpp_extension.py", line 1808, in _run_ninja_build\n'
     "    subprocess.run(\n"
     "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
     LINK, 'ln -s "$CONDA_PREFIX/lib" "$CONDA_PREFIX/lib64"'),
    # https://github.com/deepspeedai/DeepSpeed/issues/5772 (cpu_adam links -lcurand with torch/lib only; copying
    # the system CUDA's libcurand.so where the link looks fixed it: the same as LIBRARY_PATH at that directory)
    ("c++ cpu_adam.o cpu_adam_impl.o -shared -lcurand -L/path/to/conda/env/lib/python3.9/site-packages/torch/lib "
     "-lc10 -ltorch_cpu -ltorch -ltorch_python -o cpu_adam.so\n/usr/bin/ld: cannot find -lcurand",
     LINK, "export LIBRARY_PATH="),
    # https://github.com/fireice-uk/xmr-stak-nvidia/issues/53 (`sudo ln -s /usr/local/cuda/lib64/libcudart.so
    # /usr/lib/libcudart.so`: the toolkit's library where ld looks)
    ("/usr/bin/ld: cannot find -lcudart_static", LINK, "export LIBRARY_PATH="),
    # https://github.com/getkeops/keops/issues/318 ("export LIBRARY_PATH=$LIBRARY_PATH:/usr/local/cuda/lib instead
    # of LD_LIBRARY_PATH solves my issue")
    ("KeOps error: ld cannot find -lnvrtc", LINK, "export LIBRARY_PATH="),
    # https://github.com/k2-fsa/k2/issues/100 (gcc from conda, nvcc the system's CUDA 10.0: `nvcc
    # -L/usr/local/cuda-10.0/lib64` links; the conda linker does not search the system toolkit)
    ("$my-local-conda-env-path/x86_64-conda_cos6-linux-gnu/bin/ld: cannot find -lcudadevrt",
     LINK, "export LIBRARY_PATH=/usr/local/cuda/lib64"),
    # --- link.lcuda_not_found: ld misses libcuda.so ---------------------------------------------------------------
    # https://github.com/HannesStark/boltzgen/issues/2 (Triton's link at run time: "sudo ln -s
    # /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib/libcuda.so")
    ("Possible runtime error:\n`/usr/bin/ld: cannot find -lcuda: No such file or directory`\n"
     "This error indicates that the system's linker (ld) cannot find the CUDA driver library named libcuda.so when "
     "trying to compile a program. Triton attempts to compile a CUDA-dependent tool",
     LCUDA, "sudo ln -s /usr/lib/x86_64-linux-gnu/libcuda.so.1"),
    # https://github.com/state-spaces/mamba/issues/123 (a Triton error: `export LIBRARY_PATH=
    # "/usr/local/cuda-11.8/lib64/stubs/"` and `sudo ldconfig` solved it)
    ("/usr/bin/ld: cannot find -lcuda", LCUDA, "export LIBRARY_PATH=/usr/local/cuda/lib64/stubs"),
    # https://github.com/flashinfer-ai/flashinfer/pull/1909 (WSL 2: libcuda is in /usr/lib/wsl/lib; the link needs
    # -L/usr/lib/wsl/lib)
    ("/root/miniconda3/bin/x86_64-conda-linux-gnu-c++ sampling/sampling.cuda.o sampling/renorm.cuda.o "
     "sampling/flashinfer_sampling_binding.cuda.o -shared -L/root/miniconda3/lib -L/root/miniconda3/lib64 "
     "-L/root/miniconda3/lib64/stubs -lcudart -lcuda -o sampling/sampling.so\n"
     "/root/miniconda3/bin/../lib/gcc/x86_64-conda-linux-gnu/11.2.0/../../../../x86_64-conda-linux-gnu/bin/ld: "
     "cannot find -lcuda: No such file or directory\n\nbecause in WSL2, cuda.so set at /usr/lib/wsl/lib.",
     LCUDA, "export LIBRARY_PATH=/usr/lib/wsl/lib"),
    # --- ext.imported_before_torch: torch's Python-binding symbols missing (libtorch_python not loaded) ----------
    # https://github.com/pytorch/pytorch/issues/8036 ("to avoid it I just had to first import torch")
    ("If I import my extension\n\n    import smtl_cuda\n\nI get the error:\n\n"
     "    ImportError: ./smtl_cuda.so: undefined symbol: THPVariableClass",
     BEFORE, "import torch"),
    # https://github.com/pytorch/pytorch/issues/6097 ("Adding ```import torch``` before importing the extension
    # solves that")
    ("after installing the extension, an ```undefined symbol: THPVariableClass``` error is raised when I try to "
     "import it into python.", BEFORE, "import torch"),
    # https://github.com/pytorch/extension-cpp/issues/6 ("You have to `import torch` before extension")
    ("/home/jatentaki/anaconda3/lib/python3.6/site-packages/sort2_cuda-0.0.0-py3.6-linux-x86_64.egg/"
     "lltm_cpp.cpython-36m-x86_64-linux-gnu.so: undefined symbol: THPVariableClass", BEFORE, "import torch"),

    # --- torch.extension_abi: the situations of its first line ---------------------------------------------------
    # https://github.com/lufficc/SSD/pull/125 ("The error disappear when I add `import torch` before
    # `import torch_extension`")
    ("I have encounted undefined symbol error twice.\n`undefined symbol: _ZN2at19UndefinedTensorImpl10_singletonE` "
     "and `undefined symbol: _ZN6caffe26detail37_typeMetaDataInstance_preallocated_32E`.",
     ABI, "import torch first"),
    # https://github.com/lxxue/FRNN/issues/21 (built in place against another build; "rebuild the library again")
    ("ImportError: /*/*/*/*/FRNN/frnn/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c1015SmallVectorBaseIjE8grow_podEPKvmm", ABI, "rebuild it from source against this torch"),
    # --- xformers.other_torch ------------------------------------------------------------------------------------
    # https://github.com/facebookresearch/xformers/issues/874 (xformers 0.0.21's wording, without "with CUDA": the
    # PyPI wheel made for torch 2.0.1 beside torch 2.1.0+cu121; xformers 0.0.22.post4+ on the cu121 index is built
    # for 2.1.0) -- recognised, and answered with the xformers of the installed torch
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.0.1 (you have 2.1.0+cu121)\n    Python  3.11.5 (you have 3.11.5)\n"
     "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
     XF, 'pip install -U xformers "torch==$(echo 2.1.0+cu121 | cut -d+ -f1)"'),
    # --- torch.cuda_home_not_set: a toolkit is installed, CUDA_HOME does not name it ----------------------------
    # https://github.com/pytorch/extension-cpp/issues/26 (CUDA 9.0 installed: `CUDA_HOME=/path/to/your/cuda/home python
    # setup.py install` solved it)
    ('  File "/usr/local/lib/python2.7/dist-packages/torch/utils/cpp_extension.py", line 1121, in _join_cuda_home\n'
     "    raise EnvironmentError('CUDA_HOME environment variable is not set. '\n"
     "EnvironmentError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
     HOME, "sets CUDA_HOME and CUDA_PATH"),
    # https://github.com/shirgur/UMIS/issues/5 ("I didn't set the cuda path after installing it")
    ('  File "/home/mia/anaconda3/lib/python3.7/site-packages/torch/utils/cpp_extension.py", line 1216, in _join_cuda_home\n'
     "    raise EnvironmentError('CUDA_HOME environment variable is not set. '\n"
     "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
     HOME, "sets CUDA_HOME and CUDA_PATH"),
    # https://github.com/cuge1995/PointCutMix/issues/3 (`export CUDA_HOME=/usr/local/cuda-10.1` after a conda torch)
    ("I followed the instruction in the readme but had this error during the `python setup.py install`\n"
     "`CUDA_HOME environment variable is not set. Please set it to your CUDA install root.`",
     HOME, "sets CUDA_HOME and CUDA_PATH"),
    # https://github.com/slonetime/EBSeg/issues/4 (the ops' setup.py wording; CUDA_HOME set in ~/.bashrc solved it)
    ("NotImplementedError: CUDA_HOME is None. Please set environment variable CUDA_HOME.",
     HOME, "sets CUDA_HOME and CUDA_PATH"),
    # --- ext.cuda_version_mismatch: DeepSpeed's op builder ---------------------------------------------------------
    # https://github.com/deepspeedai/DeepSpeed-MII/issues/277 (CUDA 11.7 is what is installed: torch for CUDA 11,
    # `pip3 install torch --index-url https://download.pytorch.org/whl/cu118`, "Got it")
    ("Exception: >- DeepSpeed Op Builder: Installed CUDA version 11.7 does not match the version torch was compiled "
     "with 12.1, unable to compile cuda/cpp extensions without a matching cuda version.",
     VER, "https://download.pytorch.org/whl/cu118"),
    # https://github.com/Xirider/finetune-gpt2xl/issues/1 (the CUDA 11.1 toolkit torch was built with, installed
    # with NVIDIA's runfile)
    ("Exception: Installed CUDA version 11.0 does not match the version torch was compiled with 11.1",
     VER, "`cudaenv install 11.1`"),
    # --- torch.cxx11_abi: the log names the wheel and its ABI -----------------------------------------------------
    # https://github.com/Dao-AILab/flash-attention/issues/680 (a cxx11abiTRUE wheel with pip's torch 2.1.0, whose ABI is
    # the old one; https://github.com/Dao-AILab/flash-attention/issues/975: "flash_attn-2.6.0+cu122torch2.4cxx11abiFALSE
    # ... It works")
    ("python3.9/site-packages/flash_attn_2_cuda.cpython-39-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n\nI follow:\n"
     "pip install ./flash_attn-2.3.4+cu122torch2.1cxx11abiTRUE-cp39-cp39-linux_x86_64.whl\ntorch version:\ntorch==2.1.0",
     CXX, "install the `cxx11abiFALSE` wheel"),
    # --- torch.nvcc_not_found / env.cuda_home_list: the nvcc path the build runs ---------------------------------
    # https://github.com/naruya/dl_remote/issues/8 (nothing at /usr/local/cuda: `export CUDA_HOME=/usr/local/cuda-11.0`)
    ("[Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc': '/usr/local/cuda/bin/nvcc'",
     NVCC, "export CUDA_HOME=/usr/local/cuda-11.8` (the directory listed"),
    # https://github.com/lbin/DCNv2/issues/25 (the OS error after the path; `export CUDA_HOME=/usr/local/cuda-11.0`)
    ("编译：\n\n./make.sh\n\n出现错误1：\n`'/usr/local/cuda-11.0/bin/nvcc': No such file or directory`",
     NVCC, 'eval "$(cudaenv use 11.0)"'),
    # https://github.com/IDEA-Research/GroundingDINO/issues/165 (a ':' left in CUDA_HOME; `export CUDA_HOME=/usr/local/cuda`)
    ("help！！error: [Errno 2] No such file or directory: '/usr/local/cuda-11.8:/bin/nvcc'",
     LIST, "export CUDA_HOME=/usr/local/cuda-11.8"),
    # https://github.com/NVIDIA/apex/issues/368 ("REMOVE ':' in your environment files ... export CUDA_HOME=/usr/local/cuda")
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda:/usr/local/cuda-10.1/bin/nvcc': "
     "':/usr/local/cuda:/usr/local/cuda-10.1/bin/nvcc'", LIST, "Set CUDA_HOME to exactly one toolkit root"),
    # https://github.com/zju3dv/Vox-Fusion/issues/43 (a leading ':'; "in reality, there are nvcc files in that path")
    ("No such file or directory: ':/usr/local/cuda-10.0/bin/nvcc': ':/usr/local/cuda-10.0/bin/nvcc'",
     LIST, "export CUDA_HOME=/usr/local/cuda-10.0"),
    # --- flash-attn without nvcc: its prebuilt wheel first ------------------------------------------------------
    # https://github.com/Dao-AILab/flash-attention/issues/447 (the maintainers' fix: the release wheel installs without
    # CUDA_HOME; setup.py's CachedWheelsCommand downloads it, FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE skips the build)
    ('          raise_if_cuda_home_none("flash_attn")\n        File "/tmp/pip-install-56tllxed/flash-',
     HOME, "FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE pip install -U flash-attn --no-build-isolation"),
]

test_first_answer = first_answer_tests(CASES)
