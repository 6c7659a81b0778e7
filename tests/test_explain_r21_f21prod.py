"""Round 21 (helper f21prod): fresh21's producer-wording misses, widened to each producer's family.

- ld's zh_CN "找不到 -lNAME" (binutils ld/po/zh_CN.po of "cannot find -l%s"): link.cuda_libs_not_found, and derive
  link_libs reads the same word so the answer names the library.
- nvcc's "'X' died due to signal 11" for cicc and cudafe++, not only ptxas: nvcc.ptxas_crashed (a variant names the
  stage); signal 9 stays build.compiler_killed.
- A TensorRT plugin's CHECK macro with the bare status 35 ("Cuda failure in file 'F' line N: 35"):
  runtime.insufficient_driver.
- The miners' CUDA_SAFE_CALL ("Cuda error in func 'F' at line N : unspecified launch failure."): evidence for
  gpu.unstable_under_load by itself.
- TensorFlow configure.py's cuDNN check ("Invalid path to cuDNN N toolkit. None of the following files can be found"):
  build.bazel_cuda_config_not_found, the version asked against the one installed first.
- thinc's require_gpu ("GPU is not accessible. Was the library installed correctly?", 8.1+: "Cannot use GPU, CuPy is
  not installed"): new entry thinc.cupy_unusable; with CUDA 10.1 shown, libcublas.so.10 first.
- ld's "libX.so.OLD, needed by BY, not found (try using -rpath ...)" with another CUDA shown in use:
  link.cuda_libs_two_versions (derive f21_two_versions), not "put CUDA OLD on the link path".

Each text is copied from the thread named above it, unless said otherwise."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # https://github.com/wang-xinyu/tensorrtx/issues/87 (fresh21 u06: TensorRT 7 from the tar; CMake pointed at it)
    ("[100%] Linking CXX executable yolov4\n/usr/bin/ld: 找不到 -lnvinfer\ncollect2: error: ld returned 1 exit status\n"
     "我是安装的trt7.0,用的tar安装的，大佬帮忙看下呗。感谢\n",
     "link.cuda_libs_not_found", "find / -name 'libnvinfer.*'"),
    # a Nix FHS shell's binutils 2.43 in zh_CN (a build note in the code index: "nvcc he.cu" in `nix develop .#fhs`)
    ("[nix-shell]$ nvcc he.cu \n"
     "/nix/store/bwkb907myixfzzykp21m9iczkhrq5pfy-binutils-2.43.1/bin/ld: 找不到 -lcudadevrt: No such file or directory\n"
     "/nix/store/bwkb907myixfzzykp21m9iczkhrq5pfy-binutils-2.43.1/bin/ld: 找不到 -lcudart_static: No such file or directory\n"
     "collect2: 错误：ld 返回 1\n",
     "link.cuda_libs_not_found", "find / -name 'libcudadevrt.*'"),
    # https://github.com/quokka-astro/quokka/issues/327 (fresh21 u07: CUDA 12.1.0-12.2.0; another release built it)
    ("CUDA 12.1.0, 12.1.1, and 12.2.0 all fail with an internal compiler error when building Quokka:\n"
     "nvcc error   : 'cicc' died due to signal 11 (Invalid memory reference)\n",
     "nvcc.ptxas_crashed", "Build with another CUDA release"),
    # https://github.com/BLAST-WarpX/warpx/issues/4613
    ("[  2%] Building CUDA object _deps/localamrex-build/Src/CMakeFiles/amrex_2d.dir/Base/AMReX_FilND_C.cpp.o\n"
     "nvcc error   : 'cicc' died due to signal 11 (Invalid memory reference)\nnvcc error   : 'cicc' core dumped\n"
     "gmake[2]: *** [_deps/localamrex-build/Src/CMakeFiles/amrex_3d.dir/Base/AMReX_FabArrayBase.cpp.o] Error 139\n",
     "nvcc.ptxas_crashed", "Build with another CUDA release"),
    # https://github.com/GridTools/gridtools/issues/1822 ("Likely fixed in the next CUDA release")
    ("nvcc error   : 'cudafe++' died due to signal 11 (Invalid memory reference)\nnvcc error   : 'cudafe++' core dumped\n",
     "nvcc.ptxas_crashed", "Build with another CUDA release"),
    # near miss: https://github.com/NVIDIA/cudf/issues/8018 (signal 9: the OOM killer)
    ("nvcc error   : 'cicc' died due to signal 9 (Kill signal)\n", "build.compiler_killed", "Run fewer compile jobs"),
    # https://github.com/blakeblackshear/frigate/issues/7959 (fresh21 u34: a newer host driver fixed it)
    ("Starting docker image 0.13.0-beta2-tensorrt for the first time fails to generate model.\n\n"
     "Cuda failure in file 'yolo_layer.cu' line 51: 35\n"
     "/etc/s6-overlay/s6-rc.d/trt-model-prepare/run: line 82:   204 Aborted\n",
     "runtime.insufficient_driver", "upgrade the host driver"),
    # https://github.com/jkjung-avt/tensorrt_demos/issues/547 (the same macro, retyped)
    ("Error in onnx to tensorrt.\ncuda failure in file 'yolo_layer.cu' line 51:35\nAborted (core dumped)\n",
     "runtime.insufficient_driver", "upgrade the driver"),
    # https://github.com/KlausT/ccminer/issues/77 (fresh21 u43: "a little memory downclock" fixed it)
    ("Cuda error in func 'neoscrypt_cpu_hash_k4_2stream' at line 1468 : unspecified launch failure.\n",
     "gpu.unstable_under_load", "lower the memory clock first"),
    # https://github.com/KlausT/ccminer/issues/159 ("The most likely reason is excessive overclocking")
    ("Cuda error in func 'sia_gpu_hash' at line 277 : unspecified launch failure. \n",
     "gpu.unstable_under_load", "Take the overclock off"),
    # https://github.com/RavenProject/Ravencoin/issues/34 (typographic quotes)
    ("[2018-02-27 10:10:07] GPU #1: unspecified launch failure\n"
     "Cuda error in func \u2018cuda_check_cpu_setTarget\u2019 at line 41 : unspecified launch failure\n",
     "gpu.unstable_under_load", "Take the overclock off"),
    # https://github.com/tensorflow/serving/issues/540 (fresh21 u62: cuDNN 5 in the image, 6 asked)
    ("Please specify the location where cuDNN 6 library is installed. Refer to README.md for more details. "
     "[Default is /usr/local/cuda]:Invalid path to cuDNN 6 toolkit. None of the following files can be found:\n"
     "/usr/local/cuda-8.0/lib64/libcudnn.so.6\n/usr/local/cuda-8.0/libcudnn.so.6\n/usr/lib/x86_64-linux-gnu/libcudnn.so.6\n",
     "build.bazel_cuda_config_not_found", "Ask for the cuDNN that is installed"),
    # the producer's source: tensorflow configure.py set_tf_cudnn_version's print, for cuDNN 7 (r1.x)
    ("Invalid path to cuDNN 7 toolkit. None of the following files can be found:\n/usr/local/cuda/lib64/libcudnn.so.7\n"
     "/usr/local/cuda/libcudnn.so.7\n",
     "build.bazel_cuda_config_not_found", "Ask for the cuDNN that is installed"),
    # near miss: the CUDA check beside it keeps its own answer
    ("Invalid path to CUDA 9.0 toolkit. /usr/local/cuda/lib64/libcudart.so.9.0 cannot be found\n",
     "build.bazel_cuda_config_not_found", "Answer ./configure with the version and root of one installed toolkit"),
    # https://github.com/explosion/thinc/issues/467 (fresh21 u65: libcublas.so.10 missing; making it available fixed it)
    ("I use cuda 10.1 library on ubuntu 18/04:\n~$ nvcc --version\nCuda compilation tools, release 10.1, V10.1.243\n"
     "I installed spacy by `pip install spacy[cuda101]`\n"
     '  File "/home/user/WORK/tsg/venv/lib/python3.6/site-packages/thinc/util.py", line 181, in require_gpu\n'
     '    raise ValueError("GPU is not accessible. Was the library installed correctly?")\n'
     "ValueError: GPU is not accessible. Was the library installed correctly?\n",
     "thinc.cupy_unusable", "Make libcublas.so.10 loadable"),
    # https://github.com/explosion/spaCy/issues/5333 (thinc 7's copy of the message; no CUDA shown: CuPy on its own first,
    # as the maintainers asked in explosion/spaCy#6586)
    ('  File "/home/xxx/anaconda3/envs/nlp/lib/python3.7/site-packages/thinc/neural/util.py", line 87, in require_gpu\n'
     '    raise ValueError("GPU is not accessible. Was the library installed correctly?")\n'
     "ValueError: GPU is not accessible. Was the library installed correctly?\n",
     "thinc.cupy_unusable", "Import CuPy on its own"),
    # thinc 8.1+'s words (thinc/util.py require_gpu; explosion/spaCy#13700's title)
    ("ValueError: Cannot use GPU, CuPy is not installed\n", "thinc.cupy_unusable", "Import CuPy on its own"),
    # https://github.com/BVLC/caffe/issues/3787 (fresh21 u68: OpenCV rebuilt with CUDA 6.5 and the link pointed at it)
    ("I previously had cuda 7.5 installed and built opencv with it, however the version of caffe I'm using requires cuda "
     "6.5 or previous versions. So I installed cuda 6.5, and reinstalled opencv and built it with cuda 6.5.\n\n"
     "/usr/bin/ld: warning: libcudart.so.7.5, needed by /usr/local/lib/libopencv_core.so, not found (try using -rpath or -rpath-link)\n\n"
     'I did do "sudo ldconfig /usr/local/cuda-6.5/lib64"\n',
     "link.cuda_libs_two_versions", "rebuild /usr/local/lib/libopencv_core.so's project"),
    # ld's format (binutils ld/ldelf.c "%s, needed by %pB, not found (try using -rpath or -rpath-link)") with the
    # versions of https://github.com/BVLC/caffe/issues/6316 (libcudart.so.7.5 asked, cuda-9.1 installed); the needer
    # stands for any library built by the user (constructed, not quoted)
    ("export PATH=/usr/local/cuda-9.1/bin:$PATH\n"
     "/usr/bin/ld: warning: libcudart.so.7.5, needed by /usr/local/lib/libdlib.so, not found (try using -rpath or -rpath-link)\n",
     "link.cuda_libs_two_versions", "with CUDA 9.1"),
    # near miss: no other CUDA shown, the toolkit off the path stays the reading
    ("/usr/bin/ld: warning: libcublas.so.8.0, needed by libtensorflow_framework.so, not found (try using -rpath or -rpath-link)\n",
     "link.cuda_libs_not_found", "cudaenv use 8.0"),
    # near miss: the needer is the toolkit's own library (the same CUDA), not another build
    ("export PATH=/usr/local/cuda-9.0/bin:$PATH\n"
     "/usr/bin/ld: warning: libcublas.so.8.0, needed by /usr/local/cuda-8.0/lib64/libcusolver.so, not found (try using -rpath or -rpath-link)\n",
     "link.cuda_libs_not_found", ""),
]

test_first_answer = first_answer_tests(CASES)


@pytest.mark.parametrize("text", [
    # ld's Chinese line for a library that is not CUDA's (a build note's "找不到 -lncurses: 没有那个文件或目录")
    "/usr/bin/ld: 找不到 -lncurses: 没有那个文件或目录\n",
    # https://github.com/davidstutz/opencv-2.4-cuda-9-patch/issues/1 (OpenCV's own dep names, not CUDA's libraries)
    "/usr/bin/ld: 找不到 -lopencv_dep_nppial\n/usr/bin/ld: 找不到 -lopencv_dep_nppicc\n",
])
def test_other_libraries_in_chinese_are_not_cuda_libs(text):
    assert "link.cuda_libs_not_found" not in [m.id for m in explain(text)]


def test_other_status_of_the_plugin_macro_is_not_the_driver():
    # the same CHECK macro with status 2 (out of memory) is no driver cause
    text = "Cuda failure in file 'yolo_layer.cu' line 51: 2\nAborted (core dumped)\n"
    assert "runtime.insufficient_driver" not in [m.id for m in explain(text)]


def test_a_miner_timeout_stays_the_watchdog():
    # https://github.com/KlausT/ccminer/issues/159 (the first message of the thread: the launch timed out)
    text = "Cuda error in func 'sia_gpu_hash' at line 277 : the launch timed out and was terminated.\n"
    assert explain(text)[0].id == "status.launch_timeout"
