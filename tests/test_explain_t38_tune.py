"""Round 35's tuning on the burned fresh38 (judged at 3323efa: 6/12 right first), widened into families.

Each family is tested in the fresh38 log's own words (marked) and in others, with the counter-case that keeps its
earlier answer:
- device lambdas compiled without nvcc's --extended-lambda (an older Kokkos nvcc_wrapper first on PATH);
- an nvcc option handed to nvc++ (a build configured for two compilers);
- Visual Studio 16.9's host-only __floorf/__ceilf in device code;
- TensorFlow's illegal instruction on an ARM board (numpy's OpenBLAS, not AVX);
- a program that calls its failure its own bug: no generic or concept reading (fresh38 af66, a negative the concept
  reading had claimed).
(fresh38 af63, one loader line from a compose service given no GPU, and af69, two compilers' libstdc++ in one link with
no CUDA in the excerpt, stay: the log alone cannot tell them from other causes.)
"""
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

T38_CASES = [
    # fresh38 af01's line (trilinos/Trilinos with an older nvcc_wrapper first on PATH)
    (("/Trilinos/packages/kokkos-kernels/sparse/src/KokkosSparse_Utils.hpp(1830): error: __host__ or __device__ "
      "annotation on lambda requires --extended-lambda nvcc flag\n\nninja: build stopped: subcommand failed.\n"),
     "nvcc.extended_lambda_flag_missing", "With Kokkos"),
    # CUDA 10's spelling of the flag
    (("src/transform.cu(57): error: __host__ or __device__ annotation on lambda requires --expt-extended-lambda nvcc "
      "flag\n"),
     "nvcc.extended_lambda_flag_missing", "With Kokkos"),
    # fresh38 af02's line (kokkos/kokkos: Kokkos built with nvc++, the application with nvcc_wrapper's options)
    ("nvc++-Error-Unknown switch: -Wext-lambda-captures-this\n", "build.nvhpc_as_host_compiler", "one compiler"),
    ("nvc++-Error-Unknown switch: --expt-relaxed-constexpr\n", "build.nvhpc_as_host_compiler", "one compiler"),
    # a GCC option keeps the answer that builds with GCC
    ("nvc++-Error-Unknown switch: -fno-strict-aliasing\n", "build.nvhpc_as_host_compiler", "Build with GCC"),
    # fresh38 af05's lines (open-mmlab/mmcv under Visual Studio 16.9)
    (("C:/Users/lab_com/Desktop/mmcv-1.2.7/mmcv/ops/csrc\\deform_roi_pool_cuda_kernel.cuh(42): error: calling a "
      "__host__ function(\"__ceilf\") from a __global__ function(\"deform_roi_pool_forward_cuda_kernel<float> \") is "
      "not allowed\n\nC:/Users/lab_com/Desktop/mmcv-1.2.7/mmcv/ops/csrc\\deform_roi_pool_cuda_kernel.cuh(42): error: "
      "identifier \"__ceilf\" is undefined in device code\n"),
     "msvc.host_math_in_device_code", "floorf and ceilf"),
    # MSBuild's form of the same (CMU-Perceptual-Computing-Lab/openpose#1886)
    (("1>C:\\openpose\\include\\openpose_private/gpu/cuda.hu(174): error : calling a __host__ function(\"__floorf\") "
      "from a __device__ function(\"op::bicubicInterpolate8Times<float> \") is not allowed\n"),
     "msvc.host_math_in_device_code", "floorf and ceilf"),
    # fresh38 af32's lines (Qengineering/Jetson-Nano-Ubuntu-20-image: numpy 1.19.5 on a Jetson Nano)
    ((">>> import tensorflow\n2023-01-11 13:06:21.813460: I tensorflow/stream_executor/platform/default/dso_loader.cc:49]"
      " Successfully opened dynamic library libcudart.so.10.2\nIllegal instruction (core dumped)\n"),
     "tensorflow.cpu_without_avx", "OPENBLAS_CORETYPE=ARMV8"),
    # a Raspberry Pi's aarch64 Python
    (("pi@raspberrypi:~ $ python3 -c 'import tensorflow'\n(aarch64)\n>>> import tensorflow\nIllegal instruction\n"),
     "tensorflow.cpu_without_avx", "OPENBLAS_CORETYPE=ARMV8"),
    # an x86 machine keeps the AVX answer
    ((">>> import tensorflow\nIllegal instruction (core dumped)\n"), "tensorflow.cpu_without_avx", "grep -o -m1 -w avx"),
]

test_first_answer = first_answer_tests(T38_CASES)


def test_a_program_that_calls_it_its_own_bug_is_not_read_generically():
    """fresh38 af66 (AccelerateHS/accelerate): the package says it failed itself; "no binary for this architecture"
    there is its libdevice table, not a build without code for the GPU."""
    log = ("*** Internal error in package accelerate ***\n"
           "*** Please submit a bug report at https://github.com/AccelerateHS/accelerate/issues\n"
           "./Data/Array/Accelerate/LLVM/PTX/Compile/Libdevice.hs:153:28: (libdevice): no binary for this architecture\n")
    assert not [m.id for m in explain(log) if m.environment]
    # the same words without the program's own admission keep the concept reading
    assert explain("error: no binary for this architecture (compute capability 6.1)\n")[0].id == "runtime.no_kernel_image"
