"""Round 34's second sweeps, made while fresh36 was collected (Python GPU packages at install and import time; HPC
clusters), widened into families:

- pip's nearest release never a development placeholder when a real one is listed (nvidia-cudnn-cu12's 0.0.1.dev5);
- a +cuXXX torch asked of PyPI, retyped in lower case without pip's list;
- macOS's dyld without the CUDA library a Mac build of a package was linked against;
- spconv/cumm: pybind11's words for two builds in one environment.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
from explain_answers import first_answer_tests

SW36_CASES = [
    # JHLew/MoMo#4
    (("pip install nvidia-cudnn-cu12==8.9.2.26\n"
      "ERROR: Could not find a version that satisfies the requirement nvidia-cudnn-cu12==8.9.2.26 (from versions: "
      "0.0.1.dev5, 8.9.4.25, 8.9.5.29, 8.9.6.50, 8.9.7.29, 9.0.0.312, 9.1.0.70, 9.1.1.17)\n"
      "ERROR: No matching distribution found for nvidia-cudnn-cu12==8.9.2.26\n"),
     "python.package_wheel_not_found", "8.9.4.25 is the nearest listed to 8.9.2.26"),
    # modernmt/modernmt#601
    (("could not find a version that satisfies the requirement torch==1.7.1+cu110\n"),
     "python.torch_wheel_not_found", "Install it from the PyTorch index of that CUDA"),
    # tensorflow/tensorflow#6370
    (("ImportError: dlopen(/Library/Frameworks/Python.framework/Versions/3.5/lib/python3.5/site-packages/tensorflow/"
      "python/_pywrap_tensorflow.so, 10): Library not loaded: @rpath/libcudart.8.0.dylib\n"
      "  Referenced from: /Library/Frameworks/Python.framework/Versions/3.5/lib/python3.5/site-packages/tensorflow/"
      "python/_pywrap_tensorflow.so\n  Reason: image not found\n"),
     "loader.macos_cuda_dylib_not_loaded", "Install the package's CPU (or Metal) build instead"),
    # traveller59/spconv#337
    (("    from spconv.core_cc.cumm.gemm.main import GemmAlgoDesp, GemmMainUnitTest, GemmParams\n"
      "ImportError: arg(): could not convert default argument 'indice_pair_mask: tv::Tensor' in function "
      "'generate_subm_conv_inds' into a Python object (type not registered yet?)\n"),
     "python.spconv_cumm_mismatch", "Uninstall every spconv and cumm package"),
    # the import-name form keeps its answer (the entry's own example)
    (("ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'\n"),
     "python.spconv_cumm_mismatch", "Bring cumm to the release of this spconv"),
]

test_first_answer = first_answer_tests(SW36_CASES)
