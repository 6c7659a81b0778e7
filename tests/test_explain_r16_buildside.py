"""Round 16, helper "buildside": build-side logs explain did not recognise, each answered from its cause's resolution
table (docs/explain.md "Which fix comes first", principles 8 and 9).

- Debian's and Ubuntu's packaged nvcc (apt's nvidia-cuda-toolkit) finding none of the gcc versions its wrapper accepts,
  "No supported gcc/g++ host compiler found[, but clang-N is available]" (``nvcc.distro_no_supported_gcc``, new): the
  clang the message names as -ccbin first (a Rust build: NVCC_CCBIN, which bindgen_cuda passes on); without one, the
  gcc the package pairs (nvidia-cuda-toolkit-gcc).
- a location variable of the wrong kind (``env.location_var_wrong_kind``, new): CUDNN_PATH / CUDNN_HOME naming the
  library file, so the build's "<file>/include" is "Not a directory" (the directory above lib64 first; a file in the
  system's own directory: unset it); a library setting given a directory, ld's "file not recognized: Is a directory"
  (the file, CUDNN_LIBRARY).
- .NET's P/Invoke failing on a CUDA DLL, "Unable to load DLL 'cudnn64_6.dll'" (and onnxruntime's C# "LoadLibrary():
  'cublas64_91.dll' not found"), routed to ``loader.windows_cuda_dll_not_found``; cuDNN's own DLL before cuDNN 8 (a
  separate download) gets that cuDNN release first.
- torch's "CUDA version (X) mismatches the version that was used to compile PyTorch (Y)" quoted without its "The
  detected" (an issue title), and inside a Docker image build (``torch.cuda_major_mismatch``): the torch for the image's
  CUDA installed in the Dockerfile first, a base image of torch's CUDA second; `cudaenv list` has nothing to offer there.

Excerpts are verbatim (trimmed) from the sources named above them; guards keep near-miss wordings on their answers.
"""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

DISTRO = "nvcc.distro_no_supported_gcc"
WRONG_KIND = "env.location_var_wrong_kind"

CASES = [
    # -- the packaged nvcc's wrapper finds no supported gcc ----------------------------------------------------------
    # https://github.com/huggingface/candle/issues/2552 (the burned fresh15 n67: `export NVCC_CCBIN=/bin/clang-14`)
    ("cargo build --example llama -F cuda\n"
     "  ERROR: No supported gcc/g++ host compiler found, but clang-14 is available.\n"
     "         Use 'nvcc -ccbin clang-14' to use that instead.\n"
     "  thread 'main' panicked at /home/ntheden/.cargo/registry/src/index.crates.io-6f17d22bba15001f/bindgen_cuda-0.1.5/"
     "src/lib.rs:391:13:\n"
     '  nvcc error while compiling "examples/custom-ops/kernels/layernorm_kernels.cu":\n',
     DISTRO, "export NVCC_CCBIN=clang-14"),
    # https://github.com/cupy/cupy/issues/197 (Ubuntu 17.04: CuPy's build now passes the -ccbin the message names)
    ("/usr/bin/nvcc -D_GLIBCXX_USE_CXX11_ABI=0 -D_FORCE_INLINES=1 -I/usr/include -c cupy/cuda/cupy_thrust.cu -o "
     "build/temp.linux-x86_64-3.6/cupy/cuda/cupy_thrust.o --generate-code=arch=compute_30,code=compute_30 -O2 "
     '--compiler-options="-fPIC"\n'
     "ERROR: No supported gcc/g++ host compiler found, but clang-3.8 is available.\n"
     "       Use 'nvcc -ccbin clang-3.8' to use that instead.\n"
     "error: command '/usr/bin/nvcc' failed with exit status 1\n",
     DISTRO, "-ccbin clang-3.8"),
    # the asc-public CUDA lab README (UPB, Ubuntu 24.04): `make NVCC="nvcc -ccbin clang-14" LOCAL=y`
    ("$ make LOCAL=y\nnvcc   hello.cu -o hello\n"
     "ERROR: No supported gcc/g++ host compiler found, but clang-14 is available.\n"
     "Use 'nvcc -ccbin clang-14' to use that instead.\n",
     DISTRO, "make NVCC=\"nvcc -ccbin clang-14\""),
    # a Debian 9 install guide for the packaged toolkit ("avialable", the wrapper's older spelling; the package's gcc-5
    # dependency was missing): the clang named still comes first, the paired gcc second
    ("$ /usr/lib/nvidia-cuda-toolkit/bin/gcc --version\n\n"
     "ERROR: No supported gcc/g++ host compiler found, but clang-3.8 is avialable\n",
     DISTRO, "-ccbin clang-3.8"),
    # a WSL 2 Ubuntu 24.04 build note (nvcc 12.0, gcc 13.3 and clang 18, so no clang is offered: g++-12 installed)
    ("-- The CUDA compiler identification is unknown\nERROR: No supported gcc/g++ host compiler found\n",
     DISTRO, "nvidia-cuda-toolkit-gcc"),

    # -- a root variable that names a library file -------------------------------------------------------------------
    # https://github.com/facebookresearch/maskrcnn-benchmark/issues/1131 (the burned fresh15 n72: CUDNN_PATH in .bashrc
    # was /usr/local/cuda/lib64/libcudnn.so.7 -> `/usr/local/cuda/`)
    ("python setup.py install --cuda_ext --cpp_ext\n/usr/local/cuda/lib64/libcudnn.so.7/include: Not a directory\n",
     WRONG_KIND, "export CUDNN_PATH=/usr/local/cuda"),
    # https://github.com/facebookresearch/maskrcnn-benchmark/issues/955 (apex: the cudnn path line deleted from .bashrc)
    ("`python setup.py --cuda_ext --cpp_ext`\n\nI get the following error\n"
     "`error: /usr/local/cuda/lib64/libcudnn.so.7/include: Not a directory`\n",
     WRONG_KIND, "CUDNN_PATH"),
    # https://github.com/ThibaultGROUEIX/3D-CODED/issues/4 (AtlasNet's notes: "you either set the environment variable
    # 'CUDNN_HOME' or 'CUDNN_PATH'" -> remove them): the system's own directory, so unset first
    ("Compiling chamfer -> cc1plus: error: /usr/lib/x86_64-linux-gnu/libcudnn.so.5/include: Not a directory\n",
     WRONG_KIND, "unset CUDNN_PATH"),
    # https://github.com/pytorch/pytorch/issues/17426 (CUDNN_LIBRARY=~/cuda/lib64, a directory, given to torch's build)
    ("[ 83%] Linking CXX shared library ../lib/libcaffe2_gpu.so\n"
     "/home/user/cuda/lib64: file not recognized: Is a directory\n"
     "collect2: error: ld returned 1 exit status\n",
     WRONG_KIND, "CUDNN_LIBRARY=/home/user/cuda/lib64/libcudnn.so"),

    # -- .NET's DllImport on a CUDA DLL ---------------------------------------------------------------------------
    # https://github.com/cbovar/ConvNetSharp/issues/60 (the burned fresh15 n66: cuDNN 6.0 for CUDA 8.0 put on PATH)
    ("I'm getting a DllNotFoundException on GpuContext.cs:26.\n\n"
     "Additional information: Unable to load DLL 'cudnn64_6.dll': The specified module could not be found. "
     "(Exception from HRESULT: 0x8007007E)\n\nOn a fresh Win10 64bit, I'm running VS 2015, VS 2017 and cuda 8.\n",
     "loader.windows_cuda_dll_not_found", "Install the cuDNN release cudnn64_6.dll names"),
    # https://github.com/dje-dev/Ceres/issues/72 (.NET Core's wording, no ".dll", a German system message)
    ("Error when initializing CUDA. Did you install NVidia's CUDA? https://developer.nvidia.com/cuda-zone\n"
     "System.DllNotFoundException: Unable to load DLL 'cublas64_11' or one of its dependencies: Das angegebene Modul "
     "wurde nicht gefunden. (0x8007007E)\n"
     "   at ManagedCuda.CudaBlas.CudaBlasNativeMethods.cublasCreate_v2(CudaBlasHandle& handle)\n",
     "loader.windows_cuda_dll_not_found", "cublas64_11"),
    # https://github.com/microsoft/onnxruntime/issues/980 (onnxruntime's C# API; the CUDA 9.1 toolkit reinstalled)
    ("Microsoft.ML.OnnxRuntime.OnnxRuntimeException\n  HResult=0x80131500\n"
     "  Message=[ErrorCode:NoSuchFile] kernel32.LoadLibrary():'cublas64_91.dll' not found. CUDA is required for GPU "
     "execution. . Verify it is available in the system directory=C:\\Windows\\system32. Else copy it to the output "
     "folder.\n",
     "loader.windows_cuda_dll_not_found", "CUDA Toolkit of that major version"),

    # -- torch's own CUDA check inside a Docker image build ---------------------------------------------------------
    # https://github.com/mistralai/mistral-inference/issues/54 (the burned fresh15 n02: torch==2.0.1+cu118 in the image)
    ("Unable to build Docker image with cuda:11.8.0-devel-ubuntu20.04 - CUDA version (11.8) mismatches the version "
     "that was used to compile PyTorch (12.1)\n\n"
     "Step 8/12 : RUN git clone https://github.com/NVIDIA/apex &&     cd apex && python3 setup.py install --cpp_ext "
     "--cuda_ext\n ---> Running in 75b68d40dad7\n",
     "torch.cuda_major_mismatch", "RUN pip install torch torchvision torchaudio --index-url "
                                  "https://download.pytorch.org/whl/cu118"),
    # https://github.com/TransformerOptimus/SuperAGI/issues/1410 (docker compose's build, the message wrapped by BuildKit)
    ("When I do a `docker compose -f local-llm-gpu up --build`, I am getting this error:\n\n"
     "1.295 RuntimeError: \n"
     "1.295 The detected CUDA version (11.8) mismatches the version that was used to compile\n"
     "1.295 PyTorch (12.1). Please make sure to use the same CUDA versions.\n"
     "failed to solve: process \"/bin/sh -c cd /app/repositories/GPTQ-for-LLaMa/ && python3 setup_cuda.py install\" "
     "did not complete successfully: exit code: 1\n",
     "torch.cuda_major_mismatch", "In the image, install the torch built for its CUDA 11.8"),
    # guard: outside an image the installed toolkits decide first (vllm-project/vllm#1453)
    ("RuntimeError: The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1). "
     "Please make sure to use the same CUDA versions.\n",
     "torch.cuda_major_mismatch", "If `cudaenv list` shows a CUDA 12.1 toolkit"),

    # -- guards: near-miss wordings keep their answers -----------------------------------------------------------------
    # NVIDIA's own toolkit's header check stays the gcc limit (NVIDIA/cuda-samples#250: gcc 13 on Fedora 38)
    ("/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:143:2: error: #error -- unsupported GNU "
     "version! gcc versions later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used "
     "to override this version check",
     "nvcc.gcc_too_new", "g++-12"),
    # CUDA_HOME with a list in it stays its own entry (IDEA-Research/GroundingDINO#165)
    ("error: [Errno 2] No such file or directory: '/usr/local/cuda-11.8:/bin/nvcc'\n", "env.cuda_home_list",
     "CUDA_HOME"),
]

test_first_answer = first_answer_tests(CASES)


def test_other_not_a_directory_is_not_claimed():
    """gcc's and find's "Not a directory" on paths that are no CUDA library (a broken /usr/local, a chroot) are not
    answered as a CUDA location variable."""
    for text in ("cc1: error: /usr/local/include/x86_64-linux-gnu: Not a directory\n"
                 "cc1: error: /usr/local/include: not a directory\n",
                 "find: /home/ubuntu/new1/usr/local/include: Not a directory\n",
                 "/home/me/project/build/lib: file not recognized: Is a directory\n"):
        assert WRONG_KIND not in [m.id for m in explain(text)], text


def test_dotnet_wrapper_dll_is_not_a_cuda_dll():
    """.NET's message for a project's own native DLL (takuya-takeuchi/FaceRecognitionDotNet#47: DlibDotNetNativeDnn) names
    no CUDA DLL, so it is not answered as one."""
    text = ("System.DllNotFoundException: 'Unable to load DLL 'DlibDotNetNativeDnn' or one of its dependencies: The "
            "specified module could not be found. (Exception from HRESULT: 0x8007007E)'\n")
    assert "loader.windows_cuda_dll_not_found" not in [m.id for m in explain(text)]


def test_unsupported_clang_stays_clang_limit():
    """NVIDIA's own header check on clang (NVIDIA/cccl#7) keeps the clang entry, not the packaged wrapper's."""
    text = ("/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:147:2: error: -- unsupported clang "
            "version! clang version must be less than 10 and greater than 3.2 .\n")
    assert [m.id for m in explain(text) if m.environment][0] == "nvcc.clang_too_new"


def test_program_bug_stays_unclaimed():
    """An illegal memory access after a build with the packaged nvcc is a program bug: no environment cause."""
    text = ("$ make LOCAL=y\nnvcc   hello.cu -o hello\n$ ./hello\n"
            "CUDA error: an illegal memory access was encountered\n")
    assert not [m.id for m in explain(text) if m.environment]
