"""Round 14, engine: the generic reading, a cause-model fallback for a log no entry recognises.

Of fresh13's 27 misses, 18 were not recognised at all: each producer words one cause its own way, and an entry's
patterns hold the wordings its threads showed. When no entry matched (or only a summary such as ninja's "Error
compiling objects for extension"), ``explain/generic.py`` reads the log's error lines for a component (a header, a
library, a build setting or CMake variable naming one, a toolkit program; ``components.yaml`` ``generic`` and
``libraries``) and a failure (missing, not found, NOTFOUND, not in path, "valid=False", "driver A < image B", "Unsupported
... version"), and

- routes it to the entry that owns that cause (its ``reads``): a toolkit header in clang's or a pasted gcc's words goes
  to ``build.cuda_header_missing``, nvcc "not in path" to ``shell.nvcc_not_found``, with their own resolutions;
- else answers with a generic cause-model answer (``generic.<component>.<failure>``) whose fix follows what was read:
  the library's development packages, the setting the log names, the minimum driver for the CUDA asked for
  (``data/compat.yaml``), the tool that refuses the toolkit version.

Every answer says it is a generic reading (its title), names the line and what it read (its cause). A log with a
program bug's words gets nothing. Excerpts are verbatim (trimmed) from the threads named above them."""

import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import first_answer_tests

CASES = [
    # -- a header of a library no toolkit ships: TensorRT (generic answer: its development files) ------------------------
    # https://github.com/dusty-nv/jetson-inference/issues/281 ("It appears that TensorRT has not been installed
    # successfully")
    ("~/jetson-inference/build$ make\n[  2%] Building CXX object CMakeFiles/jetson-inference.dir/segNet.cpp.o\n"
     "In file included from /home/jacob/jetson-inference/segNet.h:27:0,\n"
     "/home/jacob/jetson-inference/tensorNet.h:27:21: fatal error: NvInfer.h: No such file or directory\n"
     " #include \"NvInfer.h\"\n                     ^\ncompilation terminated.\n"
     "make[2]: *** [CMakeFiles/jetson-inference.dir/segNet.cpp.o] Error 1",
     "build.tensorrt_header_missing", "install TensorRT's development files"),
    # https://github.com/marcoslucianops/DeepStream-Yolo/issues/505 ("solved, install TensorRT and add its path to
    # makefile")
    ("command: CUDA_VER=11.4 make -C nvdsinfer_custom_impl_Yolo\n"
     "error: utils.h:36:10: fatal error: NvInfer.h: No such file or directory",
     "build.tensorrt_header_missing", "install TensorRT's development files"),
    # https://github.com/chenzhi1992/TensorRT-SSD/issues/21 (glibc's message in Spanish)
    ("When I execute: g++ common.cpp -o exit\n \n NvInfer.h:No existe el archivo o el directorio compilation terminated.",
     "build.tensorrt_header_missing", "install TensorRT's development files"),
    # https://github.com/sair-lab/AirSLAM/issues/47 (zh_CN)
    ("/home/kkk/workspace/llll/Thirdparty/TensorRTBuffer/include/logging.h:20:10: fatal error: NvInferRuntime.h: "
     "没有那个文件或目录\n\n   20 | #include <NvInferRuntime.h>\n\ncompilation terminated.",
     "build.tensorrt_header_missing", "install TensorRT's development files"),
    # -- a CMake variable or build setting that names a library: point it there, or install the library ---------------
    # https://github.com/ceccocats/tkDNN/issues/62 (TensorRT from the tar file: "set(TensorRT_DIR ...)" and its include
    # and lib directories in CMakeLists.txt)
    ("install dir:/usr/local\n"
     "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "Please set them or make sure they are set and tested correctly in the CMake files:\n"
     "CUDA_nvinfer_LIBRARY\n    linked by target \"tkDNN\" in directory /home/zengxiaojia/CLionProjects/tkDNN\n\n"
     "-- Configuring incomplete, errors occurred!",
     "cmake.tensorrt_not_found", "install TensorRT"),
    # https://github.com/NVIDIA/TensorRT/issues/1522 (the OSS build without the TensorRT release's libraries)
    ("Find TensorRT libs at TENSORRT_LIBRARY_INFER-NOTFOUND;TENSORRT_LIBRARY_INFER_PLUGIN-NOTFOUND\n"
     "-- Could NOT find TENSORRT (missing: TENSORRT_LIBRARY)\nERRORCannot find TensorRT library.",
     "cmake.tensorrt_not_found", "-DTRT_LIB_DIR="),
    # https://github.com/triton-inference-server/onnxruntime_backend/issues/33 (onnxruntime's build.py: --cudnn_home or
    # CUDNN_HOME)
    ("2024-11-11 08:33:16,659 build [ERROR] - cuda_home and cudnn_home paths must be specified and valid.\n"
     "cuda_home='/usr/local/cuda' valid=True. cudnn_home='None' valid=False",
     "build.onnxruntime_cuda_roots", "Give build.sh cuDNN's root"),
    # https://github.com/microsoft/onnxruntime/issues/24361 (CMake's find_path names the variable, then the header: the
    # variable is read, and in a CMake log cmake.cudnn_not_found owns a cuDNN variable)
    ("### Error / output\n\nCMake Error at external/cuDNN.cmake:3 (find_path):\n"
     "  Could not find CUDNN_INCLUDE_DIR using the following files: cudnn.h\nCall Stack (most recent call first):\n"
     "  external/onnxruntime_external_deps.cmake:792 (include)",
     "cmake.cudnn_not_found", "Tell CMake where cuDNN is"),
    # https://github.com/Megvii-BaseDetection/YOLOX/issues/650 (MegEngine's cmake/cudnn.cmake; "Did you install CuDNN
    # library and configure your environ in the right way?")
    ("when `./scripts/cmake-build/host_build.sh -c`\n\n```\nCMake Error at cmake/cudnn.cmake:31 (message):\n"
     "  Can not find CuDNN Library\n```", "cmake.cudnn_not_found", "Tell CMake where cuDNN is"),
    # -- the driver older than the CUDA asked for: the minimum driver of that release ------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/497 (driver 375.66; CUDA 9.0 needs 384.81)
    ("`nvidia-docker run --rm nvidia/cuda nvidia-smi`\n producing this error message -\n"
     " `nvidia-docker | 2017/10/13 08:33:01 Error: unsupported CUDA version: driver 8.0 < image 9.0.176`",
     "container.driver_too_old", "384.81 or newer"),
    # https://github.com/NVIDIA/nvidia-docker/issues/177 (driver 352.39: "update your driver to 361 or 367", or the
    # 7.5 image)
    ("nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
     "nvidia-docker | 2016/08/22 12:54:02 Error: unsupported CUDA version: driver 7.5 < image 8.0",
     "container.driver_too_old", "Upgrade the host driver"),
    # https://github.com/floydhub/dl-docker/issues/34
    ("Error: unsupported CUDA version: driver 7.5 < image 8.0", "container.driver_too_old", "CUDA Version 8.0 or newer"),
    # "driver 0.0": nvidia-docker read no driver at all, none is too old (https://github.com/NVIDIA/nvidia-docker/issues/190:
    # nvidia-smi works on the host)
    ("And yet the output from `nvidia-docker run --rm nvidia/cuda nvidia-smi` is\n"
     "nvidia-docker | 2016/09/04 14:43:17 Error: unsupported CUDA version: driver 0.0 < image 8.0",
     "container.driver_too_old", "if it works: restart the plugin"),
    # -- a toolkit version the building tool does not know: update the tool ----------------------------------------------
    # https://github.com/huggingface/candle/issues/2192 (CUDA 11.4 image)
    ("error: failed to run custom build command for `cudarc v0.11.1`\n\nCaused by:\n"
     "  --- stderr\n  thread 'main' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/cudarc-0.11.1/"
     "build.rs:54:14:\n  Unsupported cuda toolkit version: `11040`. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "Take a cudarc release that knows CUDA 11.4"),
    # https://github.com/EricLBuehler/mistral.rs/issues/1996 (CUDA 13.2)
    ("error: failed to run custom build command for `cudarc v0.19.2`\n  --- stderr\n\n"
     "  thread 'main' (22293) panicked at /home/mattia/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cudarc-0.19.2/"
     "build.rs:138:5:\n  Unsupported cuda toolkit version: `13.2`. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "Take a cudarc release that knows CUDA 13.2"),
    # https://github.com/chelsea0x3b/cudarc/issues/245 ("just released under cudarc 0.11.5")
    ("error: failed to run custom build command for cudarc v0.11.4\n--- stderr\nthread 'main' panicked at /root/.cargo/"
     "registry/src/index.crates.io-6f17d22bba15001f/cudarc-0.11.4/build.rs:73:14:\n"
     "Unsupported cuda toolkit version: 11.5. Please raise a github issue.",
     "build.producer_cuda_version_unsupported", "Take a cudarc release that knows CUDA 11.5"),
    # (since the merge with round 14's machine helper, container.driver_too_old owns nvidia-docker's driver check above)
    # -- routed to the entry that owns the cause: a toolkit header in clang's words ---------------------------------------
    # https://github.com/HAWAIILAB/cuda-flux/issues/1 (clang++ compiles the .cpp: CUDA's include directory on its
    # C_INCLUDE_PATH/CPLUS_INCLUDE_PATH)
    ("$ make install\n[  8%] Generating ../inc/hostRuntime.h\n"
     "/home/mnaderan/cuda-flux/lib/hostRuntime.cpp:3:10: fatal error: 'cuda_runtime.h' file not found\n"
     "#include <cuda_runtime.h>\n         ^~~~~~~~~~~~~~~~\n1 error generated.",
     "build.cuda_header_missing", "Add the toolkit's include directory"),
    # https://github.com/phvu/cuda-smi/issues/9
    ("Every time I run `make cuda-smi` I get the following error:\n"
     "`cuda-smi.cpp:4:10: fatal error: 'cuda_runtime_api.h' file not found`",
     "build.cuda_header_missing", "Add the toolkit's include directory"),
    # https://github.com/vtsynergy/CU2CL/issues/1
    ("However, upon trying to actually run the cu2cl_translate.sh script I get the following error:\n"
     "- fatal error: 'cuda_runtime.h' file not found", "build.cuda_header_missing", ""),
    # -- routed: nvcc missing in a tool's own words ----------------------------------------------------------------------
    # https://github.com/lebedov/scikit-cuda/issues/83 (pycuda's setup under `sudo pip install`)
    ("marco@marco-All-Series:~$ sudo pip install scikits.cuda\nDownloading/unpacking pycuda>=0.94.2 (from scikits.cuda)\n"
     "  Running setup.py (path:/tmp/pip_build_root/pycuda/setup.py) egg_info for package pycuda\n"
     "    *** WARNING: nvcc not in path.\n    *************************************************************",
     "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # https://github.com/xiumingzhang/GenRe-ShapeHD/issues/34
    ("The error I am getting is \"cuda available but nvcc not found. Please add nvcc to $PATH\"",
     "shell.nvcc_not_found", "cudaenv use"),
    # -- a command run under sudo: root's environment lacks what the user's has (since the merge with round 14's
#    boundaries helper, shell.sudo_env_reset owns these; the generic reading is the fallback behind it) ------------------------------------------
    # https://github.com/xiumingzhang/GenRe-ShapeHD/issues/34 (routed by the generic reading, then the sudo variant)
    ("I am trying to run GenRe-ShapeHD in a conda environment with CUDA 9.2 on Ubuntu 18.04.2 LTS and am getting stuck "
     "when I run `sudo ./build_toolbox.sh`\nThe error I am getting is \"cuda available but nvcc not found. Please add nvcc "
     "to $PATH\"", "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # https://github.com/lebedov/scikit-cuda/issues/83
    ("marco@marco-All-Series:~$ sudo pip install scikits.cuda\n"
     "  Running setup.py (path:/tmp/pip_build_root/pycuda/setup.py) egg_info for package pycuda\n"
     "    *** WARNING: nvcc not in path.", "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # https://github.com/Xharlie/BtcDet/issues/6 ("when you run `sudo python3` it can't find some packages")
    ("When I try to run `sudo python3 setup.py develop` it returns no module named torch error but torch is installed "
     "and it works.", "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # https://github.com/grimoire/torch2trt_dynamic/issues/5 ("I guess `sudo` here maybe cause this problem?")
    ("(zk_mmdet2.4) yyf@zyzn:~/software/torch2trt$ sudo python setup.py install\n[sudo] password for yyf: \n"
     "Traceback (most recent call last):\n  File \"setup.py\", line 8, in <module>\n    from build import build\n"
     "  File \"/home/yyf/software/torch2trt/build.py\", line 29, in <module>\n"
     "    torch_dir=imp.find_module('torch')[1],\nImportError: No module named torch",
     "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # https://github.com/jwyang/faster-rcnn.pytorch/issues/880
    ("but when i input \"sudo python3 setup.py build develop\" \nerror is \nTraceback (most recent call last):\n"
     "  File \"setup.py\", line 7, in <module>\n    import torch\nModuleNotFoundError: No module named 'torch'",
     "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # -- native Windows: an owner whose fixes are cudaenv commands is not routed to; the generic answer's Windows form --
    # https://github.com/microsoft/caffe/issues/179 (VS2013, CUDA 8.0; MSVC's curly quotes)
    ("Error C1083: Cannot open \u201ccublas_v2.h\u201d: No such file or directory "
     "D:\\caffe\\caffe-master\\include\\caffe\\util\\device_alternate.hpp 34",
     "generic.cuda-libs.missing", "NVIDIA's installer"),
    # https://github.com/inducer/pycuda/issues/146 (fresh13 h04: CUDA 8.0 under C:\Program Files)
    ("I set CUDA_INC_DIR to C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v8.0\\include, ...\n"
     "*** WARNING: nvcc not in path.\n*** May need to set CUDA_INC_DIR for installation to succeed.",
     "generic.toolkit.not-on-path", "%CUDA_PATH%\\bin"),
    # https://github.com/AlexeyAB/darknet/issues/524 (MSVC names the including file first: the missing one is the
    # header before the cue, cudnn.h, not darknet's own src\\cuda.h)
    ("1>d:\\repo\\darknet\\src\\cuda.h(19): fatal error C1083: Cannot open include file: 'cudnn.h': No such file or "
     "directory\n1>  dropout_layer_kernels.cu\n1>C:\\Program Files (x86)\\MSBuild\\Microsoft.Cpp\\v4.0\\V140\\"
     "BuildCustomizations\\CUDA 9.0.targets(707,9): error MSB3721: The command \"\"C:\\Program Files\\NVIDIA GPU "
     "Computing Toolkit\\CUDA\\v9.0\\bin\\nvcc.exe\" -gencode=arch=compute_30",
     "generic.cudnn.missing", "Install cuDNN for Windows"),
    # https://github.com/microsoft/CNTK/issues/3668
    ("1>c:\\local\\cntk\\cntk\\source\\math\\gpudatatransferer.h(4): fatal error C1083: Cannot open include file: "
     "'cuda_runtime_api.h': No such file or directory (compiling source file DataTransferer.cpp)",
     "generic.toolkit.missing", "NVIDIA's installer"),
    # -- guards: an entry's own wording keeps its answer, unmarked -------------------------------------------------------
    ("src/caffe/layers/inner_product_layer.cu:1:10: fatal error: cuda_runtime.h: No such file or directory",
     "build.cuda_header_missing", "complete toolkit"),
    ("/usr/bin/ld: cannot find -lnvinfer", "link.cuda_libs_not_found", ""),
    ("bash: nvcc: command not found", "shell.nvcc_not_found", "cudaenv use"),
]

test_first_answer = first_answer_tests(CASES)

#: Program bugs and logs that name no component: the generic reading claims nothing.
NOTHING = [
    # a data file missing (a program's or user's path, no component in it)
    "FileNotFoundError: [Errno 2] No such file or directory: 'data/cuda_train.json'",
    # a program-bug word beside a CUDA header message (pytorch/pytorch-style shape error with an include line above)
    "ERROR: TensorRT library not found\nIndexError: index 3 is out of bounds for dimension 0 with size 3",
    "RuntimeError: CUDA error: device-side assert triggered\nfatal error: cudnn_home not found",
    # a setting name without a location part is no setting of a location
    "KeyError: 'CUDA_VISIBLE_DEVICES'",
    "Error: CUDA_VISIBLE_DEVICES is not set",
    # a module missing without sudo: no reading (a missing package, or the wrong interpreter: the log does not say)
    "Traceback (most recent call last):\n  File \"setup.py\", line 7, in <module>\n    import torch\n"
    "ModuleNotFoundError: No module named 'torch'",
    # a header of the program's own tree
    "src/main.cpp:3:10: fatal error: myproject/config.h: No such file or directory",
]


@pytest.mark.parametrize("text", NOTHING)
def test_claims_nothing(text: str) -> None:
    assert [m.id for m in explain(text) if m.environment] == [], text


def test_generic_answers_say_so() -> None:
    """A generic answer and a routed one say it is a generic reading and name the line and what was read; an entry's
    own match does not."""
    m = explain("ERROR: TensorRT library not found")[0]
    assert m.title.startswith("generic reading") and "line 1" in m.cause and m.values["confidence"] == "generic"
    assert m.to_dict()["component"] == "tensorrt" and m.to_dict()["failure"] == "missing"
    routed = explain("x.cpp:3:10: fatal error: 'cuda_runtime.h' file not found")[0]
    assert routed.id == "build.cuda_header_missing" and routed.title.startswith("generic reading")
    assert "cuda_runtime.h (a header)" in routed.cause and routed.values["read"] == "cuda_runtime.h"
    own = explain("x.cu:3:10: fatal error: cuda_runtime.h: No such file or directory")[0]
    assert not own.title.startswith("generic reading") and "confidence" not in own.values


def test_summary_only_gets_the_reading_first() -> None:
    """A log whose only match is a summary (a fallback entry) gets the reading first, the summary after it."""
    ids = [m.id for m in explain("ERROR: TensorRT library not found\n"
                                 "RuntimeError: Error compiling objects for extension")]
    assert ids == ["generic.tensorrt.missing", "torch.extension_build_failed"]
