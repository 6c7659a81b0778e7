"""Round 31's sweep: "no CUDA toolkit found" (and the toolkit's parts) in the words of tools other than CMake, meson,
autoconf and pkg-config, each answered with where that tool looks.

Before the round explain read none of these (their first answer was "no known error", or for Triton's launcher a
Makefile's fix): bindgen_cuda (Rust), Julia's CUDA discovery, xmake, vcpkg's cuda port, triton-windows, pycuda on
Windows, CuPy's source build, distutils given a .cu file by a package that found no nvcc, cudarc's run-time loader,
TensorFlow's configure given a library's directory, and Triton's run-time launcher build. Each message is quoted from the
public thread named beside it, whose confirmed fix the answer's first line follows.
"""
from explain_answers import first_environment_answer


SW31_TOOLS_CASES = [
    # huggingface/candle#3166 (bindgen_cuda; Narsil/bindgen_cuda#14 and PR 15: CUDA_HOME/CUDA_PATH)
    ('error: failed to run custom build command for `candle-kernels v0.9.2-alpha.1 (https://github.com/huggingface/candle#d4545ebb)`\nCaused by:\n  process didn\'t exit successfully: `C:\\Users\\the_a\\code\\Bio\\daedalus\\target\\release\\build\\candle-kernels-b4b265fd7ce556ce\\build-script-build` (exit code: 101)\n  --- stdout\n  cargo::rerun-if-changed=build.rs\n  cargo:info=["/usr", "/usr/local/cuda", "/opt/cuda", "/usr/lib/cuda", "C:/Program Files/NVIDIA GPU Computing Toolkit", "C:/CUDA"]\n  Could not find CUDA in standard locations, set it manually using Builder().set_cuda_root(...)\n',
     'shell.nvcc_not_found', '`set CUDA_PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit'),
    # JuliaGPU/CUDAnative.jl#447
    ("┌ Error: Error building `CUDAnative`:\n│ ERROR: LoadError: CUDA toolkit at  doesn't contain nvcc\n",
     'shell.nvcc_not_found', '`eval "$(cudaenv use /usr/local/cuda)"` sets CUDA_HOME and C'),
    # xmake-io/xmake#2134
    ('(base) root@ltmit-TB16P:~/workspace/sape-srv-v2# xmake  -D -v\nchecking for the cuda compiler (cu: nvcc) ... no\nchecking for the cuda compiler (cu: clang) ... no\nerror: @programdir/core/main.lua:280: @programdir/actions/build/main.lua:155: ...mdir/core/sandbox/modules/import/core/base/scheduler.lua:96: ...mdir/core/sandbox/modules/import/core/base/scheduler.lua:56: @programdir/modules/private/async/runjobs.lua:232: ...amdir/core/sandbox/modules/import/core/tool/compiler.lua:37: cannot get program for cu\n',
     'shell.nvcc_not_found', '`eval "$(cudaenv use /usr/local/cuda)"` puts a toolkit\'s nvc'),
    # tensorflow/tensorflow#3184
    ('Please specify the location where CUDA  toolkit is installed. Refer to README.md for more details. [Default is /usr/local/cuda]: /usr/lib/x86_64-linux-gnu/libcudart.so\nInvalid path to CUDA  toolkit. /usr/lib/x86_64-linux-gnu/lib64/libcudart.so cannot be found\n',
     'build.bazel_cuda_config_not_found', "Answer with the toolkit's root, the directory holding bin/nv"),
    # microsoft/vcpkg#3109
    ('CMake Error at ports/cuda/portfile.cmake:26 (message):\n  Could not find CUDA.  Before continuing, please download and install CUDA\n  (V9.0.0 or higher) from:\n\n      https://developer.nvidia.com/cuda-downloads\n\n  Also ensure vcpkg has been rebuilt with the latest version (v0.0.104 or\n  later)\nCall Stack (most recent call first):\n  scripts/ports.cmake:72 (include)\n\nError: Building package cuda:x86-windows failed with: BUILD_FAILED\n',
     'shell.nvcc_not_found', 'Install the CUDA toolkit (at least the version named) and ru'),
    # woct0rdho/triton-windows#37
    ('>>> import triton\nWARNING: Failed to find CUDA.\n',
     'shell.nvcc_not_found', 'Install a CUDA 12 toolkit (the release triton-windows suppor'),
    # inducer/pycuda#237
    ('import pycuda.driver as drv\nD:\\Programming Apps\\Python\\Python38\\lib\\site-packages\\pycuda\\driver.py:43: UserWarning: Unable to discover CUDA installation directory while attempting to add it to Python\'s DLL path. Either set the \'CUDA_PATH\' environment variable or ensure that \'nvcc.exe\' is on the path.\n  warn("Unable to discover CUDA installation directory "\n',
     'shell.nvcc_not_found', "Set CUDA_PATH to the toolkit's directory (`set CUDA_PATH=C:\\"),
    # chelsea0x3b/cudarc#451 (CUDA 13 only installed)
    ('Unable to dynamically load the "cudart" shared library - searched for library names: ["cudart.dll", "cudart64.dll", "cudart64_12.dll", "cudart64_126.dll", "cu\ndart64_126_0.dll", "cudart64_120_6.dll", "cudart64_10.dll", "cudart64_120_0.dll", "cudart64_9.dll", "cudart.dll.12", "cudart.dll.11", "cudart.dll.10", "cudart\n.dll.1"]. Ensure that `LD_LIBRARY_PATH` has the correct path to the installed library. If the shared library is present on the system under a different name than one of those listed above, please open a GitHub issue.\n',
     'loader.cudarc_cudart_not_found', "If the names listed include your toolkit's major (`nvcc --ve"),
    # spack/spack#34223 (diagnosis spack/spack#36922, PR 37819)
    ("  Modules:\n    cuda      : No\n      -> Cannot link libraries: ['cuda', 'cudart', 'cublas', 'cufft', 'curand', 'cusparse', 'nvrtc']\n      -> Check your LDFLAGS environment variable.\n\n  ERROR: CUDA could not be found on your system.\n",
     'shell.nvcc_not_found', "Install CuPy's prebuilt wheel for your CUDA instead of build"),
    # cupy/cupy#102 (cause and fix cupy/cupy#91)
    ("    building 'cupy.cuda.thrust' extension\n    error: unknown file type '.cu' (from 'cupy/cuda/cupy_thrust.cu')\n",
     'shell.nvcc_not_found', '`eval "$(cudaenv use /usr/local/cuda)"` puts a toolkit\'s nvc'),
    # pytorch/pytorch#90178 (resolution pytorch/pytorch#90757)
    ('/tmp/tmpypa57lhg/main.c:2:10: fatal error: cuda.h: No such file or directory\n    2 | #include "cuda.h"\n      |          ^~~~~~~~\ncompilation terminated.\n',
     'build.cuda_header_missing', 'Upgrade torch together with the Triton it pins (`pip install'),
]


def test_other_tools_saying_they_found_no_toolkit():
    for text, want, fix in SW31_TOOLS_CASES:
        first = first_environment_answer(text)
        assert first.id == want and first.fix.startswith(fix), (text[:80], first.id, first.fix[:120])


def test_each_tool_is_answered_with_its_own_title():
    titles = {first_environment_answer(text).title for text, _, _ in SW31_TOOLS_CASES}
    assert len(titles) == len(SW31_TOOLS_CASES)  # one producer's words are not another's answer


def test_the_cudarc_answer_names_a_newer_toolkit_than_its_list():
    text = SW31_TOOLS_CASES[7][0]
    first = first_environment_answer(text)
    assert first.id == "loader.cudarc_cudart_not_found"
    assert "cargo update -p cudarc" in first.fix and "bin\\x64" in first.fix

