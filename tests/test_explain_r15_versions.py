"""Round 15 (after fresh15), a toolkit too old for what the build asks, decided by the CUDA version the log shows.

components.yaml `toolkit_features` says from (or until) which CUDA release a toolkit has nvcc's -std option and its
dialect values, CUB in include/cub, libnppicom; `derive.py` `toolkit_feature` reads the CUDA the log names (nvcc's
"release X.Y", a cuda-X.Y path, "CUDA 11.1") and the answer names the boundary: "CUDA 6.5's nvcc has no -std option
(nvcc has it from CUDA 7.0)". Where the log names no version, the first line says the check (`nvcc --version`
decides). An architecture older toolkits do not know is decided by the GPU the log names (extract.py `gpu_cc`): a GPU
below it takes the architecture out of the list, one that needs it takes a newer toolkit. Excerpts are verbatim
(trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import toolkit_feature

CASES = [
    # -- nvcc's -std option: CUDA 7.0 and newer ---------------------------------------------------------------------
    # https://github.com/NervanaSystems/neon/issues/150 (fresh15 n06: "I had CUDA 6.5 installed"; the "Cuda V7.0.27"
    # the user quoted was not the nvcc that ran)
    ("Install failed: nvcc fatal : Unknown option 'std'\n\nHere is the complete error message\n```\nBuilding loader.so...\n"
     "nvcc fatal   : Unknown option 'std'\nMakefile:40: recipe for target 'loader.so' failed\n"
     "make[1]: *** [loader.so] Error 255\n```\n------------\nCuda V7.0.27\n",
     "nvcc.unknown_option", "Build with CUDA 7.0 or newer"),
    # https://github.com/milakov/nnForge/issues/21 (nvcc release 6.0 with -std=c++11 in NVCCFLAGS)
    ("nvcc -c absolute_layer_tester_cuda.cu -use_fast_math -g -lineinfo -DENABLE_CUDA_PROFILING "
     "-Xcompiler=\"-I/usr/lib/x86_64-linux-gnu/include -I/usr/local/cuda-6.0/include -ffast-math -march=native\" "
     "-DNNFORGE_CPP11COMPILER -std=c++11 -gencode=arch=compute_30,code=sm_30 -o absolute_layer_tester_cuda.o\n"
     "nvcc fatal   : Unknown option 'std'\nmake: *** [absolute_layer_tester_cuda.o] Error 255\n",
     "nvcc.unknown_option", "Build with CUDA 7.0 or newer"),
    # https://github.com/baidut/OpenCE/issues/5 (no version in the log: the message itself says the nvcc is older)
    ("nvcc -std c++11 -c  ops/bilateral_slice.cu.cc -o build/bilateral_slice.cu.o -DGOOGLE_CUDA=1 -x cu -Xcompiler -fPIC "
     "-expt-relaxed-constexpr -Wno-deprecated-gpu-targets -ftz=true\nnvcc fatal   : Unknown option 'std'\n"
     "make: *** [build/bilateral_slice.cu.o] Error 255\n",
     "nvcc.unknown_option", "`which -a nvcc` lists every nvcc on PATH"),
    # guard: a host compiler's flag handed to nvcc keeps the -Xcompiler answer (ggml-org/llama.cpp#5542)
    ("Compiler exited with error code 1: /usr/local/cuda/bin/nvcc -DGGML_USE_CUBLAS -O3 -DNDEBUG -std=c++11 -Wall -Wextra "
     "--dryrun /tmp/compiler-file17262593416218535232.cu\n\tnvcc fatal   : Unknown option '-Wall'\n",
     "nvcc.unknown_option", "-Xcompiler"),
    # guard: an nvcc option of newer releases keeps its variant (levihsu/OOTDiffusion#65: "nvcc 11 works, nvcc 10 not")
    ("nvcc fatal   : Unknown option '-generate-dependencies-with-compile'\n",
     "nvcc.unknown_option", "Build with the toolkit the build expects"),
    # -- nvcc's -std values: c++14 from 9.0, c++17 from 11.0, c++20 from 12.0 ------------------------------------------
    # https://github.com/heavyai/heavydb/issues/664 (release 10.1 from Ubuntu's repository: "Try upgrading to cuda 11")
    ("nvcc fatal   : Value 'c++17' is not defined for option 'std'\n"
     "check@check-BANFF13:~$ nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\n"
     "Copyright (c) 2005-2019 NVIDIA Corporation\nBuilt on Sun_Jul_28_19:07:16_PDT_2019\n"
     "Cuda compilation tools, release 10.1, V10.1.243\n",
     "nvcc.cxx_std_unsupported", "Build with CUDA 11.0 or newer"),
    # https://github.com/loki-47-6F-64/sunshine/issues/361 (Ubuntu 20.04, no version in the log)
    ("nvcc fatal   : Value 'c++17' is not defined for option 'std'\n"
     "make[2]: *** [CMakeFiles/sunshine.dir/build.make:328: CMakeFiles/sunshine.dir/sunshine/platform/linux/cuda.cu.o] "
     "Error 1\n", "nvcc.cxx_std_unsupported", "Build with CUDA 11.0 or newer"),
    # guard: CMake's dialect wording keeps its variant (CMake or nvcc) (ggml-org/llama.cpp#11725 style)
    ('  Target "ggml-cuda" requires the language dialect "CUDA17" (with compiler\n  extensions).  But the current '
     'compiler "NVIDIA" does not support this, or CMake\n  does not know the flags to enable it.\n',
     "nvcc.cxx_std_unsupported", "Configure with a toolkit new enough for C++17"),
    # -- CUB: bundled from CUDA 11.0 -------------------------------------------------------------------------------------
    # https://github.com/dmlc/xgboost/issues/7762 (fresh15 n01: "cub is not integrated into CUDA 10.x"; no version in
    # the log: the check decides)
    ("CC=/usr/bin/gcc-8 CXX=/usr/bin/g++-8 cmake .. -DUSE_CUDA=ON -DBUILD_WITH_CUDA_CUB=ON\n\n...\n"
     "fatal error: cub/cub.cuh: No such file or directory\n #include <cub/cub.cuh>\n          ^~~~~~~~~~~~~\n",
     "build.cuda_header_missing", "`nvcc --version` decides: older than CUDA 11.0: build with CUDA 11.0 or newer"),
    # https://github.com/tum-vision/tandem/issues/20 (CUDA 10.2)
    ("When I make the project, I get\n```\nfatal error: cub/block/block_reduce.cuh: No such file or directory\n"
     " #include <cub/block/block_reduce.cuh>\n```\nMy environment: Ubuntu18.04, CUDA10.2\n",
     "build.cuda_header_missing", "Build with CUDA 11.0 or newer"),
    # https://github.com/apache/mxnet/issues/9162 (CUDA 8.0; the build's own cub submodule was the way out)
    ("> src/operator/nn/./depthwise_convolution-inl.h:33:23: **fatal error: cub/cub.cuh: No such file or directory**\n"
     "> compilation terminated.\n> make: *** [build/src/operator/nn/convolution_gpu.o] Error 1\n"
     "command: **`make -j $(nproc) USE_OPENCV=1 USE_BLAS=mkl USE_CUDA=1 USE_CUDA_PATH=/usr/local/cuda-8.0 USE_CUDNN=1`**\n",
     "build.cuda_header_missing", "Build with CUDA 11.0 or newer"),
    # guard: a CUDA that bundles CUB keeps the include-path answer (a CUDA_HOME at another tree)
    ("/usr/local/cuda-11.8/bin/nvcc -I/opt/conda/include -c kernel.cu\n"
     "kernel.cu:3:10: fatal error: cub/cub.cuh: No such file or directory\n",
     "build.cuda_header_missing", "Use a complete toolkit for the build"),
    # guard: another toolkit header keeps its answer
    ("fatal error: cublas_v2.h: No such file or directory\n", "build.cuda_header_missing", "Use a complete toolkit"),
    # -- libnppicom: CUDA 9.0-10.2 only ------------------------------------------------------------------------------
    # https://github.com/stereolabs/zed-ros2-wrapper/issues/25 (fresh15 n69: the FindCUDA patch of CMake MR 4929)
    ("Trouble building with CUDA 11.1 - CUDA_nppicom_LIBRARY not found\n\nCMake Error: The following variables are used "
     "in this project, but they are set to NOTFOUND.\nPlease set them or make sure they are set and tested correctly in "
     "the CMake files:\nCUDA_nppicom_LIBRARY (ADVANCED)\nlinked by target \"zed_camera_component\" in directory "
     "/home/kanke/ros2_example_ws/src/zed-ros2-wrapper/zed_components\n",
     "cmake.cuda_library_notfound", "Configure with a newer CMake"),
    # https://github.com/opencv/opencv_contrib/issues/2575 (OpenCV 4.3.0 with CUDA 11: fixed by opencv/opencv#17499)
    ("I am trying to build openCV 4.3.0 with cuda 11 on Ubuntu 18.04. following is my cmakefile\n"
     "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "Please set them or make sure they are set and tested correctly in the CMake files:\nCUDA_nppicom_LIBRARY (ADVANCED)\n"
     "    linked by target \"opencv_cudev\" in directory /home/user/opencv-4.3.0/modules/cudev\n",
     "cmake.cuda_library_notfound", "OpenCV 4.4 or newer"),
    # https://github.com/GeekAlexis/FastMOT/issues/6 (OpenCV's script under CUDA 11.1; the version is only the driver's
    # here, so the check decides)
    ("When running\n`scripts/install_opencv.sh`\nI get the error\n```\nCMake Error: The following variables are used in "
     "this project, but they are set to NOTFOUND.\nPlease set them or make sure they are set and tested correctly in the "
     "CMake files:\nCUDA_nppicom_LIBRARY (ADVANCED)\n```\n",
     "cmake.cuda_library_notfound", "`nvcc --version` decides: CUDA 11 or newer: configure with a newer CMake"),
    # guard: CUDA 10.2, which has libnppicom, keeps the complete-toolkit answer
    ("-- Found CUDA: /usr/local/cuda-10.2 (found suitable version \"10.2\", minimum required is \"10.0\")\n"
     "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "CUDA_nppicom_LIBRARY (ADVANCED)\n    linked by target \"app\" in directory /src\n",
     "cmake.cuda_library_notfound", "Configure with the complete toolkit"),
    # -- an architecture the toolkit the log shows does not know: the GPU decides -------------------------------------
    # https://github.com/gunrock/gunrock/issues/204 (fresh15 n13: GTX TITAN Black, sm_35, under CUDA 7.5: the sm_61
    # gencode option turned off)
    ("- Ubuntu 14.04.4\n- CUDA 7.5\n- GeForce GTX TITAN Black\n\nHere is the output when I run `make`:\n```\n"
     "[  8%] Building NVCC (Device) object gunrock/CMakeFiles/gunrock.dir/__/externals/moderngpu/src/"
     "gunrock_generated_mgpucontext.cu.o\nnvcc fatal   : Unsupported gpu architecture 'compute_61'\n",
     "nvcc.unsupported_arch", "Take compute_61 out of the build's architecture list"),
    # a Pascal GPU under CUDA 7.5 needs the newer toolkit (a GTX 1080 is sm_61)
    ("CUDA 7.5\nGeForce GTX 1080\nnvcc fatal   : Unsupported gpu architecture 'compute_61'\n",
     "nvcc.unsupported_arch", "Build with CUDA 8.0 or newer"),
    # guard: no GPU named keeps the table's answer (a newer toolkit, or the architecture out of the list)
    ("Cuda compilation tools, release 7.5, V7.5.17\nnvcc fatal   : Unsupported gpu architecture 'compute_61'\n",
     "nvcc.unsupported_arch", "or take compute_61 out of the architecture list"),
    # guard: a named toolkit that knows the architecture keeps the two-copies answer (AlexeyAB/darknet#471)
    ("CUDA 9.1\nnvcc fatal   : Unsupported gpu architecture 'compute_61'\n",
     "nvcc.unsupported_arch", "If `cudaenv list` shows CUDA 9.1"),
]

test_first_answer = first_answer_tests(CASES)


def test_table_sides() -> None:
    """The table's boundaries: below the first release, above the last, in range, and no version."""
    assert toolkit_feature("nvcc-std", "6.5")["feat_side"] == "below"
    assert toolkit_feature("nvcc-std", "7.0")["feat_side"] == "in"
    assert toolkit_feature("std-c++20", "11.8")["feat_side"] == "below"
    assert toolkit_feature("header-cub", "10.2")["feat_side"] == "below"
    assert toolkit_feature("header-cub", "")["feat_side"] == "unknown"
    assert toolkit_feature("lib-nppicom", "11.1")["feat_side"] == "above"
    assert toolkit_feature("lib-nppicom", "10.0")["feat_side"] == "in"
    assert toolkit_feature("no-such-row", "10.0")["feat_side"] == ""
    # nvcc's dialects come from data/compat.yaml's nvcc_max_cxx_std, the table `cudaenv check` reads too
    assert toolkit_feature("std-c++17", "10.2")["feat_first"] == "11.0"
    assert toolkit_feature("std-c++14", "9.0")["feat_side"] == "in"
    assert toolkit_feature("nvcc-std", "6.5")["feat_first"] == "7.0"
    assert toolkit_feature("std-c++03", "10.2")["feat_side"] == ""


def test_program_bug_stays_a_verdict() -> None:
    """A program bug beside an old toolkit's version is still a verdict, with nothing claimed for the environment."""
    text = ("Cuda compilation tools, release 10.1, V10.1.243\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    found = explain(text)
    assert found and not found[0].environment, [m.id for m in found]
    assert not [m.id for m in found if m.environment]
