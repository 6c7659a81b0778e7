"""Issue 18, round 6, helper "build": compiler and linker families, each from several threads and
producers (nvcc/EDG, gcc, clang, MSVC, ld, CMake). Each excerpt is quoted (trimmed) from the thread
above it; the first environment answer and the first line of its fix are the thread's resolution.
"""

from __future__ import annotations

import pytest

from explain_answers import assert_first_answer

API = "build.library_api_version"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- an API a library version removed: the code is older than the library ------------------
    # https://github.com/junluan/shadow/issues/2 (cuDNN 8 with CUDA 11.0; nvcc wording)
    ('/home/zz/work/shadow/shadow/operators/kernels/conv.cu(178): error: identifier '
     '"CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT" is undefined\n\n/home/zz/work/shadow/shadow/operators/kernels/'
     'conv.cu(178): error: identifier "cudnnGetConvolutionForwardAlgorithm" is undefined',
     API, "ported to cuDNN 8"),
    # https://github.com/haanjack/mnist-cudnn/issues/6 (cuDNN 8.7)
    ('convolution.cu(82): error: identifier "CUDNN_CONVOLUTION_FWD_PREFER_FASTEST" is undefined\n\n'
     'convolution.cu(82): error: identifier "cudnnGetConvolutionForwardAlgorithm" is undefined\n\n'
     'convolution.cu(87): error: identifier "cudnnGetConvolutionBackwardFilterAlgorithm" is undefined',
     API, "ported to cuDNN 8"),
    # https://github.com/BVLC/caffe/issues/6970 (gcc wording, cuDNN 8.0.3)
    ("error: \u2018CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_LIMIT\u2019 was not declared in this scope\n"
     "error: \u2018CUDNN_CONVOLUTION_BWD_FILTER_SPECIFY_WORKSPACE_LIMIT\u2019 was not declared in this scope",
     API, "ported to cuDNN 8"),
    # https://github.com/opencv/opencv/issues/18352 (OpenCV's dnn module against cuDNN 8)
    ("error: \u2018CUDNN_CONVOLUTION_FWD_PREFER_FASTEST\u2019 was not declared in this scope "
     "CUDNN_CONVOLUTION_FWD_PREFER_FASTEST,",
     API, "ported to cuDNN 8"),
    # https://github.com/NVIDIA/MinkowskiEngine/issues/177 (CUDA 11 removed the legacy cuSPARSE routines)
    ('    src/math_functions.cu(76): error: identifier "cusparseScsrmv" is undefined\n'
     '    src/math_functions.cu(99): error: identifier "cusparseScsrmm2" is undefined\n'
     '    4 errors detected in the compilation of "src/math_functions.cu".',
     API, "ported to CUDA 11"),
    # https://github.com/hgyhungry/ge-spmm/issues/8
    ('spmm_test.cu(660): error: identifier "cusparseScsrmm2" is undefined', API, "ported to CUDA 11"),
    # https://github.com/ROCm/HIPIFY/issues/131 (clang wording on Windows)
    ("C:\\Users\\TT\\AppData\\Local\\Temp\\cuSPARSE_01.cu-7f0f1d.hip(276,13): error G30564CF7: use of undeclared "
     "identifier 'cusparseDcsrmv'; did you mean 'cusparseDcsr2bsr'?",
     API, "ported to CUDA 11"),
    # https://github.com/jcuda/jcuda-main/issues/56 (MSVC IntelliSense, CUDA 12 removed csrsv2)
    ('Error (active)\tE0020\tidentifier "csrsv2Info_t" is undefined\tJCusparse\tC:\\jcuda\\jcusparse\\JCusparseJNI\\'
     'src\\JCusparse.cpp\t4990\t\nError (active)\tE0020\tidentifier "cusparseCcsrsv2_bufferSize" is undefined',
     API, "ported to CUDA 12"),
    # https://github.com/utcs-scea/altis/issues/24 and https://github.com/ahay/src/issues/294 (texture references)
    ("/usr/local/cuda/bin/nvcc -o build/user/cuda/gpuktmig.o -c --x=cu -DNO_BLAS build/user/cuda/gpuktmig.c\n"
     "build/user/cuda/ktmig.cu(56): error: texture is not a template\n  texture<float2, 1, cudaReadModeElementType> t_sxy;",
     API, "texture objects"),
    # https://github.com/nakatamaho/mplapack/issues/73
    ('Rgemm_tesla.cu(120): error: identifier "cudaBindTexture" is undefined\n'
     '      rc = cudaBindTexture(0, tex_x_double_A, Adev, channelDesc);',
     API, "texture objects"),
    # https://github.com/RTKConsortium/RTK/issues/549 (the linker's wording: objects built with old headers)
    ("/usr/bin/ld: undefined reference to `__cudaRegisterTexture'\n/usr/bin/ld: undefined reference to `cudaUnbindTexture'",
     API, "texture objects"),
    # https://github.com/scopetools/cudadecon/issues/28 (conda-forge build against CUDA 12)
    ("/home/conda/feedstock_root/build_artifacts/cudadecon_1685986977889/work/src/geometryTransform.cu(274): error: "
     'identifier "cudaBindTextureToArray" is undefined',
     API, "texture objects"),
    # https://github.com/NVIDIA/cuda-samples/issues/382 (gcc wording, CUDA 13)
    ("/home/rubenruiz/cuda-samples/Samples/1_Utilities/deviceQuery/deviceQuery.cpp:134:27: error: \u2018struct "
     "cudaDeviceProp\u2019 has no member named \u2018clockRate\u2019",
     API, "ported to CUDA 13"),
    # https://github.com/microsoft/superbenchmark/issues/768 (nvcc wording)
    ('gpu_stream.cu(121): error: class "cudaDeviceProp" has no member "memoryClockRate"', API, "ported to CUDA 13"),
    # https://github.com/LeelaChessZero/lc0/issues/2255 (MSVC wording)
    ("VS 2022 error C2039: 'clockRate': is not a member of 'cudaDeviceProp' in routine showDeviceInfo (network_cuda.cc).",
     API, "ported to CUDA 13"),

    # --- the library found is older than the code: an old copy comes first ----------------------
    # https://github.com/andersbll/cudarray/issues/59 (a cuDNN v2 header left in /usr/local)
    ("src/nnet/cudnn.cpp:222:5: error: \u2018cudnnGetConvolutionBackwardFilterWorkspaceSize\u2019 was not declared in "
     "this scope\n     ));\n     ^\nmake: *** [src/nnet/cudnn.o] Error 1",
     API, "Find every cuDNN copy"),
    ("src/nnet/cudnn.cpp:199:5: error: \u2018cudnnConvolutionBwdFilterAlgoPerf_t\u2019 was not declared in this scope\n"
     "     cudnnConvolutionBwdFilterAlgoPerf_t bwd_filters_algo_perf[n_requestedAlgo];",
     API, "Find every cuDNN copy"),
    # https://github.com/vlfeat/matconvnet/issues/584 (an older cuDNN in the CUDA 7.5 lib directory linked first)
    ("Error using mex\n~/matconvnet-1.0-beta20/matlab/mex/.build/bits/impl/nnbilinearsampler_cudnn.o: In function\n"
     "tmpxft_000057e6_00000000-4_nnbilinearsampler_cudnn.cudafe1.cpp:(.text._ZN2vl4impl23nnbilinearsampler_cudnnILNS_4Type"
     "E1EE7forwardERNS_7ContextENS_6TensorES6_S6_]+0x3ce):\nundefined reference to `cudnnCreateSpatialTransformerDescriptor'",
     API, "Find every cuDNN copy"),
    # https://github.com/mfem/mfem/issues/2336 (CUDA 11.2.0 on Summit: the new enum names came in 11.2 Update 1)
    ("Cuda compilation tools, release 11.2, V11.2.67\nlinalg/sparsemat.cpp(694): error: identifier "
     '"CUSPARSE_SPMV_CSR_ALG1" is undefined',
     API, "cudaenv use"),
    # https://github.com/kokkos/kokkos-kernels/pull/1828 (CUDA 11.1)
    ("/home/ndellin/kokkos-kernels/sparse/tpls/KokkosSparse_spmv_tpl_spec_decl.hpp(98): error: identifier "
     '"CUSPARSE_SPMV_ALG_DEFAULT" is undefined',
     API, "cudaenv use"),
]


@pytest.mark.parametrize("text,want_id,want_fix", CASES, ids=[c[1] + "-" + str(i) for i, c in enumerate(CASES)])
def test_first_answer(text, want_id, want_fix):
    assert_first_answer(text, want_id, want_fix)
