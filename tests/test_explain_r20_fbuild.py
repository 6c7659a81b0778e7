"""Round 20, helper fbuild: a practice set of forum/blog threads (build side), and the two causes it missed
that recur across projects, added as families (and two causes found while probing build-side wordings).

- cudnn.ldconfig_not_symlink: cuDNN copied without keeping links, so ldconfig warns that libcudnn*.so.N "is not
  a symbolic link" (also localized: Chinese, German); the fix is `ln -sf` back to the full-version file.
- torch.windows_header_constexpr_uninitialized: nvcc on Windows rejects torch's JIT headers
  (`torch::jit::detail::*Policy::all_slots may not be initialized`, pytorch/pytorch#27958) for every extension
  built against them (mmcv-full, torch-points-kernels); the fix is the header edit the projects document.
- nvcc.ptxas_crashed: ptxas segfaulting (signal 11, not the OOM killer's 9) is a bug of that CUDA release; another
  release built the same code in every source.
- nvcc.glibc_fortify_dynamic_object_size: nvcc before CUDA 12.4 stops in glibc's fortified headers
  (`__builtin_dynamic_object_size` is undefined) under _FORTIFY_SOURCE=3 (Ubuntu 24.04's gcc default).

Excerpts are verbatim (trimmed) from the sources named above them."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # -- cudnn.ldconfig_not_symlink ---------------------------------------------------------------------------------
    # https://blog.csdn.net/u013066730/article/details/70880141 (localized ldconfig, CUDA 8.0; `sudo ln -sf
    # .../libcudnn.so.4.0.7 .../libcudnn.so.4` solved it)
    ("/sbin/ldconfig.real: /usr/local/cuda-8.0/targets/x86_64-Linux/lib/libcudnn.so.4 不是符号连接\n",
     "cudnn.ldconfig_not_symlink", 'cd /usr/local/cuda-8.0/targets/x86_64-Linux/lib && sudo ln -sf "$(ls libcudnn.so.4.*'),
    # https://github.com/xunxuntu/Note/blob/main/Linux/问题解决/cudnn软连接错误.md (cuDNN 8.9 in CUDA 11.8; ln -sf each)
    ("(base) root@rtx2060:/home/simple/Desktop# sudo ldconfig\n"
     "/sbin/ldconfig.real: /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcudnn_adv_infer.so.8 is not a symbolic link\n"
     "\n"
     "/sbin/ldconfig.real: /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcudnn_ops_infer.so.8 is not a symbolic link\n",
     "cudnn.ldconfig_not_symlink", "sudo ln -sf \"$(ls libcudnn_adv_infer.so.8.*"),
    # https://github.com/tikoehle/pytorch_conda_jupyterhub/blob/master/nvidia_cuDNN.md (German ldconfig, cuDNN 7.4.2
    # copied from the tgz; `sudo ln -sf /usr/local/cuda/lib64/libcudnn.so.7.4.2 /usr/local/cuda/lib64/libcudnn.so.7`)
    ("$ sudo ldconfig\n"
     "/sbin/ldconfig.real: /usr/local/cuda-10.0/targets/x86_64-linux/lib/libcudnn.so.7 ist kein symbolischer Link\n",
     "cudnn.ldconfig_not_symlink", "cd /usr/local/cuda-10.0/targets/x86_64-linux/lib && sudo ln -sf"),
    # guard: WSL's libcuda.so.1 copy keeps its own (harmless) answer
    ("ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n",
     "wsl.libcuda_not_symlink", "Nothing is broken"),
    # -- torch.windows_header_constexpr_uninitialized -----------------------------------------------------------------
    # https://github.com/open-mmlab/mmcv/blob/master/docs/en/faq.md (torch 1.5.0, mmcv-full on Windows: replace
    # `static constexpr bool all_slots = false;` with `static bool all_slots = false;` in module.h)
    ('torch/csrc/jit/api/module.h(474): error: member "torch::jit::detail::ModulePolicy::all_slots" may not be '
     'initialized\n',
     "torch.windows_header_constexpr_uninitialized", "static bool all_slots = false;"),
    # https://github.com/torch-points3d/torch-points-kernels/blob/master/README.md ("Windows compilation": edit the
    # torch headers as rusty1s/pytorch_scatter script/torch.sh does)
    ('error: member "torch::jit::detail::ModulePolicy::all_slots" may not be initialized\n'
     'error: member "torch::jit::detail::ParameterPolicy::all_slots" may not be initialized\n'
     'error: member "torch::jit::detail::BufferPolicy::all_slots" may not be initialized\n'
     'error: member "torch::jit::detail::AttributePolicy::all_slots" may not be initialized\n',
     "torch.windows_header_constexpr_uninitialized", "include\\torch\\csrc\\jit\\api\\module.h"),
    # guard: the neighbouring Windows build failure of the same FAQ keeps its answer
    # https://github.com/open-mmlab/mmcv/blob/master/docs/en/faq.md (CUDA 9.2 with a newer Visual Studio)
    ('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v9.2\\include\\crt/host_config.h(133): fatal error C1189: '
     '#error:  -- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are '
     'supported!\n',
     "msvc.unsupported_version", ""),
    # -- nvcc.glibc_fortify_dynamic_object_size ----------------------------------------------------------------------
    # https://github.com/nerfstudio-project/gsplat/issues/1001 (Ubuntu's /usr/bin/nvcc building a torch extension)
    ('      /usr/include/x86_64-linux-gnu/bits/stdlib.h(39): error: identifier "__builtin_dynamic_object_size" is '
     "undefined\n"
     "      \n"
     '      /usr/include/x86_64-linux-gnu/bits/stdlib.h(67): error: identifier "__builtin_dynamic_object_size" is '
     "undefined\n",
     "nvcc.glibc_fortify_dynamic_object_size", "cudaenv install 12.4"),
    # https://github.com/vllm-project/vllm/issues/10179 (building vllm's kernels)
    ('  /usr/include/x86_64-linux-gnu/bits/stdlib.h(146): error: identifier "__builtin_dynamic_object_size" is '
     "undefined\n",
     "nvcc.glibc_fortify_dynamic_object_size", "Build with a CUDA 12.4 or newer nvcc"),
    # -- nvcc.ptxas_crashed ------------------------------------------------------------------------------------------
    # https://github.com/ggml-org/llama.cpp/issues/8714 (GH200, nvcc 12.3)
    ("[ 25%] Building CUDA object ggml/src/CMakeFiles/ggml.dir/ggml-cuda/template-instances/"
     "fattn-vec-f16-instance-hs128-q4_0-q4_0.cu.o\n"
     "nvcc error   : 'ptxas' died due to signal 11 (Invalid memory reference)\n"
     "nvcc error   : 'ptxas' core dumped\n",
     "nvcc.ptxas_crashed", "Build with another CUDA release"),
    # https://github.com/sandialabs/compadre/issues/239 (title; "I downgraded to CUDA 10.1.243 and was able to
    # compile it")
    ("nvcc error : 'ptxas' died due to signal 11 (Invalid memory reference)\n",
     "nvcc.ptxas_crashed", "or an older one"),
    # guard: the OOM killer's signal 9 keeps the memory answer (https://github.com/NVIDIA/cudf/issues/8018)
    ("nvcc error   : 'cicc' died due to signal 9 (Kill signal)\n",
     "build.compiler_killed", "MAX_JOBS=2"),
]

test_first_answer = first_answer_tests(CASES)


def test_other_libraries_copies_are_not_claimed_as_cudnn():
    """A driver's libEGL.so.1 copy (another cause: the nvidia-375 packaging) is not the cuDNN answer.
    https://blog.csdn.net/u013066730/article/details/70880141 (second part, from stackoverflow 43016255)"""
    text = ("/sbin/ldconfig.real: /usr/lib/nvidia-375/libEGL.so.1 不是符号连接\n"
            "/sbin/ldconfig.real: /usr/lib32/nvidia-375/libEGL.so.1 不是符号连接\n")
    assert "cudnn.ldconfig_not_symlink" not in [m.id for m in explain(text)]



def test_another_compilers_fortify_error_is_not_nvccs():
    """ableC (a C front end, no CUDA) fails on the same glibc 2.39 headers in its own words: not the nvcc cause.
    https://github.com/melt-umn/ableC/issues/221"""
    text = ("/nix/store/bl5b4ywrn1ls6fwc0cvsvwmr9hynr3gk-glibc-2.39-52-dev/include/bits/stdio2.h:31:6: error: "
            "Undeclared value __builtin_dynamic_object_size\n")
    assert "nvcc.glibc_fortify_dynamic_object_size" not in [m.id for m in explain(text)]
