"""Round 36's tuning on the burned fresh40 (judged at d5b807e: 15/39 right first), widened into families.

Each family is tested in the fresh40 log's own words (marked) and in others, with the counter-case that keeps its
earlier answer:
- code that defines its own atomicAdd(double *, double), which CUDA 8.0 provides for sm_60 and newer;
- vcpkg's "CUDA V8.0.60 but V9.0.0 is required" (on Windows: NVIDIA's installer, not cudaenv);
- CUB's CUB_NS_QUALIFIER check against the old CUB_NS_PREFIX/POSTFIX wrapping;
- CUDA runtime calls newer than the toolkit (cudaHostRegisterReadOnly 11.1, cudaStreamGetCaptureInfo_v2 11.3, the
  memory-pool attributes 11.2);
- a cuDNN find module that reads no version from cudnn.h (cuDNN 8's cudnn_version.h);
- dorado's "no kernel image" on a GPU older than it supports;
- the NVIDIA module's own compile error in its DKMS tree (a kernel newer than the driver release);
- an NGC container refusing an older GPU; LLVM without its NVPTX target; DeepStream built for another TensorRT;
  libnvcaffe_parser gone from newer TensorRT; -march=native handed to nvcc's host pass on an AVX-512 CPU; TensorRT's
  first name (GIE) in the plan-file message.
(ah05, ah16, ah17, ah31, ah33, ah34, ah41, ah62, ah74, ah77 and ah79 stay: the log alone cannot tell their fix, or the
cause is one project's.)
"""
import os

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

T40_CASES = [
    # fresh40 ah04's line (hszhao/PSPNet: Caffe's common.cuh with CUDA 8)
    ('./include/caffe/common.cuh(9): error: function "atomicAdd(double *, double)" has already been defined\n',
     "build.atomicadd_double_redefined", "__CUDA_ARCH__ < 600"),
    ('src/util.cu(21): error: function "atomicAdd(double*, double)" has already been defined\n',
     "build.atomicadd_double_redefined", "__CUDA_ARCH__ < 600"),
    # fresh40 ah07's lines (microsoft/vcpkg's cuda port on Windows)
    (("PS C:\\src\\vcpkg> ./vcpkg install cuda:x64-windows\n-- Found CUDA V8.0.60\nCMake Error at ports/cuda/"
      "portfile.cmake:43 (message):\n  CUDA V8.0.60 but V9.0.0 is required.  Please download and install a more\n"
      "  recent version of CUDA from:\n"),
     "build.project_cuda_version_gate", "Windows installer"),
    ("-- Found CUDA V10.1.243\nCUDA V10.1.243 but V10.2.89 is required.\n", "build.project_cuda_version_gate",
     "cudaenv use 10.2"),
    # fresh40 ah09's line (NVlabs/AutoDMP: DREAMPlace's CUB wrapping with CUDA 12.3)
    (("cuda12-3-0/include/cub/util_namespace.cuh:46:2: error: #error CUB requires a definition of CUB_NS_QUALIFIER "
      "when CUB_NS_PREFIX/POSTFIX are defined.\n"),
     "build.cub_ns_qualifier_required", "cudaenv use 11.4"),
    # fresh40 ah18's line (ggml-org/llama.cpp with an older toolkit picked first)
    (('ggml-cuda.cu(11665): error: identifier "cudaHostRegisterReadOnly" is undefined\n\n1 error detected in the '
      'compilation of "ggml-cuda.cu".\n'),
     "build.library_api_version", "CUDA 11.1+"),
    ('graph.cu(40): error: identifier "cudaStreamGetCaptureInfo_v2" is undefined\n', "build.library_api_version",
     "CUDA 11.3+"),
    ("pool.cpp:12:30: error: ‘cudaMemPoolAttrReleaseThreshold’ was not declared in this scope\n",
     "build.library_api_version", "CUDA 11.2+"),
    # fresh40 ah19's line (arrayfire/arrayfire 3.7.1 with cuDNN 8)
    ('-- Could NOT find cuDNN: Found unsuitable version ".", but required is at least "4.0" (found /usr/lib/libcudnn.so)\n',
     "cmake.cudnn_version_unreadable", "cudnn_version.h"),
    ('-- Could NOT find CUDNN: Found unsuitable version "", but required is at least "7.0" (found /usr/lib/x86_64-linux-gnu/libcudnn.so)\n',
     "cmake.cudnn_version_unreadable", "cudnn_version.h"),
    # fresh40 ah61's lines (nanoporetech/dorado 0.4.3 on a Tesla K20Xm)
    (("[ricardo@bart]$ /opt/dorado-0.4.3-linux-x64/bin/dorado basecaller dna_r10.4.1_e8.2_400bps_hac@v4.1.0/ ./yeast/ >"
      " calls.bam\n[2023-12-04 12:59:22.446] [error] CUDA error: no kernel image is available for execution on the "
      "device\n"),
     "runtime.no_kernel_image", "--device cpu"),
    # fresh40 ah66's lines (linux-surface: Debian's nvidia-kernel-dkms 418.74 on a 5.3 kernel)
    (("/var/lib/dkms/nvidia-current/418.74/build/common/inc/nv-linux.h:733:21: error: void value not ignored as it "
      "ought to be\n         int __ret = on_each_cpu(func, info, 1);        \\\n"),
     "driver.module_build_failed", "newer driver release"),
    # the last 390.xx keeps the legacy branch's answer
    (("/var/lib/dkms/nvidia/390.157/build/nvidia/nv-acpi.c:10:5: error: implicit declaration of function "
      "'acpi_bus_get_device'\nError! Bad return status for module build on kernel: 6.5.0-1-amd64 (x86_64)\n"),
     "driver.module_build_failed", "patches for this kernel"),
    # fresh40 ah68's lines (NVIDIA/caffe's 18.07 NGC container on a K80)
    (("ERROR: Detected NVIDIA Tesla K80 GPU, which is not supported by this container\nERROR: No NVIDIA supported GPU(s)"
      " detected to run this container\n"),
     "container.ngc_gpu_unsupported", "NGC container release"),
    # fresh40 ah71's line (AccelerateHS/accelerate: llvm-hs against an LLVM without NVPTX)
    ("accelerate-ray: : error: unable to get target for 'nvptx64-nvidia-cuda', see --version and --triple.\n",
     "llvm.nvptx_target_missing", "NVPTX target"),
    ('error: No available targets are compatible with triple "nvptx64-nvidia-cuda"\n', "llvm.nvptx_target_missing",
     "NVPTX target"),
    # fresh40 ah72's line (marcoslucianops/DeepStream-Yolo on a Jetson TX2 with TensorRT 8)
    (("deepstream-app: error while loading shared libraries: libnvinfer.so.7: cannot open shared object file: No such "
      "file or directory\n"),
     "runtime.cuda_library_not_found", "DeepStream release made for the installed JetPack"),
    # without DeepStream the loader-path answer stays
    ("./yolov5: error while loading shared libraries: libnvinfer.so.8: cannot open shared object file: No such file or directory\n",
     "runtime.cuda_library_not_found", "TensorRT"),
    # fresh40 ah73's lines (dusty-nv/jetson-inference in an l4t-tensorflow container)
    (("[ 69%] Linking CXX shared library aarch64/lib/libjetson-inference.so\n/usr/bin/ld: cannot find -lnvcaffe_parser\n"
      "collect2: error: ld returned 1 exit status\n"),
     "link.cuda_libs_not_found", "-lnvparsers"),
    # fresh40 ah76's lines (mitsuba-renderer/mitsuba2: enoki's -Xcompiler -march=native with CUDA 10.2)
    (("/usr/local/cuda/bin/nvcc -gencode arch=compute_61,code=compute_61 -cudart shared -Xcompiler -march=native "
      "-Xcompiler -fvisibility=hidden -c enoki/cuda.cu\n/usr/lib/gcc/x86_64-linux-gnu/7/include/avx512dqintrin.h(1179):"
      ' error: identifier "__builtin_ia32_rangesd128_round" is undefined\n'),
     "nvcc.host_headers_unsupported", "-march=native"),
    # without the flag the gcc answer stays
    (('/usr/lib/gcc/x86_64-linux-gnu/7/include/avx512dqintrin.h(1179): error: identifier "__builtin_ia32_rangesd128_round"'
      " is undefined\n"),
     "nvcc.host_headers_unsupported", ""),
    # fresh40 ah80's line (Tencent/PhoenixGo: a plan built by another TensorRT)
    ("The engine plan file is not compatible with this version of GIE, please rebuild.\n",
     "tensorrt.engine_other_version", ""),
]

test_first_answer = first_answer_tests(T40_CASES)


def test_the_avx512_flag_variant_needs_the_flag_in_a_cuda_compile():
    """-march=native in a plain C++ compile line of the same log does not make the nvcc answer about the flag."""
    log = ("g++ -march=native -c host.cpp\n/usr/lib/gcc/x86_64-linux-gnu/7/include/avx512fintrin.h(9220): error: "
           'identifier "__builtin_ia32_sqrtsd_round" is undefined\n')
    assert "-march=native" not in explain(log)[0].title


def test_the_dkms_variant_needs_the_dkms_tree_compile_error():
    """A DKMS failure that shows no compile error inside the module's tree keeps the entry's other readings (its
    {dkms_drv} never left unfilled)."""
    path = os.path.join(os.path.dirname(__file__), "data", "explain_corpus", "fresh26", "z65-amdgpu-kernel-nvidia-dkms.log")
    with open(path, encoding="utf-8") as f:
        log = f.read()  # the burned fresh26 z65: an unsupported kernel, no compile error shown
    m = [a for a in explain(log) if a.id == "driver.module_build_failed"][0]
    assert m.id == "driver.module_build_failed" and "{" not in m.title and "kernel module's source" not in m.title
