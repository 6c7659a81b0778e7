"""Issue 18, round 10, helper "loader": libraries at load time, each entry answering with the resolutions its
cause has in real threads (taken in the order the search gave them, resolved threads only).

Each tuple is a short excerpt of a real public thread (its URL above it), verbatim but trimmed: the first
environment answer must be ``want_id`` and the first line of its fix must hold ``want_fix``, a part of the fix
that solved that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

LIB = "runtime.cuda_library_not_found"
CUDART = "runtime.libcudart_not_found"
CUDA = "runtime.libcuda_not_found"

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- runtime.cuda_library_not_found: the program is a build for another CUDA than the one the log shows ------
    # https://github.com/PaddlePaddle/Paddle/issues/52869 (a CUDA 12 paddle on CUDA 11.7/11.8; "使用 pip 安装就安然无恙":
    # the cu118 paddlepaddle-gpu from Paddle's index solved it)
    ("Please NOTE: device: 0, GPU Compute Capability: 8.9, Driver API Version: 12.0, Runtime API Version: 11.7\n"
     "我是driver 12.0 ，但我是跑11.7 cuda\n\n"
     "彈出錯誤: Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: "
     "No such file or directory\n我查過11.7 底下只有libcublasLt.so.11的文件",
     LIB, "Install the program's build for CUDA 11.7"),
    # the same family, PaddleOCR's form of it (https://github.com/PaddlePaddle/PaddleOCR/issues/12641: paddle 2.6.1
    # and nvcc 11.8; Paddle#52869's reply: the cu118 build)
    ("- Paddle: 2.6.1\n- PaddleOCR: 2.7.3\n- `nvidia-smi`: CUDA version:12.0\n"
     "- `nvcc -V`: Cuda compilation tools, release 11.8, V11.8.89\n"
     "Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: "
     "No such file or directory",
     LIB, "Install the program's build for CUDA 11.8"),
    # https://github.com/NVIDIA/CUDALibrarySamples/issues/151 (cuTENSOR built for CUDA 12 on CUDA 11.7: "fixed with
    # the latest cuTENSOR release")
    ("./reduction: error while loading shared libraries: libcublasLt.so.12: cannot open shared object file: "
     "No such file or directory\nI have just ``libcublasLt.so.11`` under "
     "``/usr/local/cuda-11.7/targets/x86_64-linux/lib/libcublasLt.so.11``, why is cutensor linked against "
     "``libcublasLt.so.12``?",
     LIB, "Install the program's build for CUDA 11.7"),
    # https://github.com/PaddlePaddle/PaddleOCR/issues/41 (a CUDA 9 paddle, 1.7.2.post97, in a CUDA 10.0 container:
    # "你机器是cuda10的版本，用的是cuda9的paddle，更新下docker环境就好了", the CUDA 10 image solved it)
    ("运行环境 docker-ubuntu 18.04 + cuda10.0 + python3.6.9 + paddle-gpu(1.7.2.post97)\n"
     "Error: Failed to find dynamic library: libcublas.so ( libcublas.so: cannot open shared object file: No such "
     "file or directory ) \n Please specify its path correctly using following ways: \n Method. set environment "
     "variable LD_LIBRARY_PATH on Linux or DYLD_LIBRARY_PATH on Mac OS.",
     LIB, "Install the program's build for CUDA 10.0"),
    # --- the same soname's CUDA is the one installed: a path (or the loader cache) ------------------------------
    # https://github.com/NVIDIA/GPUStressTest/issues/7 (CUDA 12.3 installed; `ldconfig` made the library load)
    ("root@node001:~/GPUStressTest# ./gst\n./gst: error while loading shared libraries: libcublasLt.so.12: cannot "
     "open shared object file: No such file or directory\nThe CUDA toolkit is installed as 12.3, and this "
     "phenomenon occurred while running the gst file after cmake and make.",
     LIB, "sudo ldconfig"),
    # https://github.com/sony/nnabla/issues/806 (CUDA 10.2's lib64 on LD_LIBRARY_PATH, cuDNN not installed: "you need
    # to install CUDA and cudNN ... If you already installed cudnn8, please add the directory path to LD_LIBRARY_PATH")
    ("I installed nnabla using ```pip install nnabla-ext-cuda102``` and I have CUDA-10.2 installed on my system. "
     "I have also added \n```export LD_LIBRARY_PATH=/usr/local/cuda-10.2/lib64:$LD_LIBRARY_PATH```\n"
     "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory",
     LIB, "If it lists nothing: Install it"),
    # --- runtime.libcudart_not_found ---------------------------------------------------------------------------
    # https://github.com/apache/mxnet/issues/3829 (CUDA upgraded to 8.0, mxnet still linked to 7.5: "Edit config.mk
    # to make sure usecudapath point to cuda8.0 then rebuild")
    ("Cuda compilation tools, release 8.0, V8.0.44\n\nWhen i finished all of it; i recompile the caffe and mxnet; "
     "the caffe work well,but the mxnet always remind me \"OSError: libcudart.so.7.5: cannot open shared object "
     "file: No such file or directory\"\nmy LD_LIBRARY_PATH is \necho $LD_LIBRARY_PATH\n"
     "/usr/local/cuda-8.0/lib64/stubs:/usr/local/cuda-8.0/lib64;",
     CUDART, "Rebuild it here against CUDA 8.0"),
    # https://github.com/iSEE-Laboratory/LLMDet/issues/32 (CUDA 12.1 machine, libcudart.so.10.1: "是mmcv版本不对的原因")
    ("bash dist_test.sh configs/grounding_dino_swin_t.py tiny.pth 8\n"
     "报错：ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n"
     "我的系统ubuntu20.04+nvidia530.30+cuda12.1+cudnn12.X",
     CUDART, "A prebuilt package (mmcv-full and the like) made for CUDA 10.1: install its build"),
    # --- runtime.libcuda_not_found ------------------------------------------------------------------------------
    # https://github.com/apache/mxnet/issues/6787 (only the toolkit's stub on a cluster: "I do not login into the
    # right server, which contains GPUs")
    ("OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "Yes, I find libcuda.so under the folder /panfs/roc/msisoft/cuda/8.0/lib64/stubs/libcuda.so. However, I am "
     "unable to find libcuda.so.1 under this folder.",
     CUDA, "run it on a GPU node"),
    # https://github.com/tensorflow/tensorflow/issues/4078 (the driver was installed; its libcuda.so.1 where the
    # loader looks, from the driver's -dev package, solved it)
    ("I tensorflow/stream_executor/dso_loader.cc:102] Couldn't open CUDA library libcuda.so.1. LD_LIBRARY_PATH:...\n"
     "failed to find libcuda.so on this system: Failed precondition: could not dlopen DSO: libcuda.so.1; dlerror: "
     "libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "E tensorflow/stream_executor/cuda/cuda_driver.cc:491] failed call to cuInit: CUDA_ERROR_NO_DEVICE",
     CUDA, "the driver's libcuda.so.1 is not on the loader path"),
    # https://github.com/tensorflow/tensorflow/issues/6233 (the kernel module is loaded: its libcuda is what is
    # missing from the loader path)
    ("I tensorflow/stream_executor/dso_loader.cc:105] Couldn't open CUDA library libcuda.so.1. LD_LIBRARY_PATH: "
     "/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:185] libcuda reported version is: Not found: was unable "
     "to find libcuda.so DSO loaded into this program\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] kernel reported version is: 367.57.0",
     CUDA, "put its directory in the loader cache"),
    # https://github.com/tensorflow/tensorflow/issues/9071 (two driver versions mixed: reinstalling the driver, one
    # version, solved it)
    ("ImportError: libnvidia-fatbinaryloader.so.375.51: cannot open shared object file: No such file or directory",
     CUDA, "Remove every NVIDIA driver install and install one version again"),
    # https://github.com/tensorflow/tensorflow/issues/8774 (kernel module 367.57, libcuda of 375.39)
    ("I tensorflow/stream_executor/dso_loader.cc:126] Couldn't open CUDA library libcuda.so.1. LD_LIBRARY_PATH: "
     "/usr/local/cuda-8.0/lib64\n"
     "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:193] kernel reported version is: 367.57.0\n"
     "I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:1066] failed to find libcuda.so on this system: Failed "
     "precondition: could not dlopen DSO: libcuda.so.1; dlerror: libnvidia-fatbinaryloader.so.375.39: cannot open "
     "shared object file: No such file or directory",
     CUDA, "Remove every NVIDIA driver install and install one version again"),
    # --- glibc.too_old ------------------------------------------------------------------------------------------
    # https://github.com/pytorch/pytorch/issues/38765 (libtorch's cxx11-ABI zip on CentOS 7: "you should use a
    # non-abi version", the pre-cxx11-ABI zip built for glibc 2.17)
    ("download\nhttps://download.pytorch.org/libtorch/cu102/libtorch-cxx11-abi-shared-with-deps-1.5.0.zip\n```\n\n"
     "Error message\n```\n/lib64/libm.so.6: version `GLIBC_2.23' not found (required by /home/centos/libtorch_cpu.so)\n"
     "```\nOS: CentOS Linux 7 (Core)\nGCC version: (GCC) 4.8.5 20150623 (Red Hat 4.8.5-39)",
     "glibc.too_old", "Download the pre-cxx11-ABI libtorch of the same release"),
    # --- runtime.stub_library -----------------------------------------------------------------------------------
    # https://github.com/rigelminer/rigel/issues/153 (corpus 299: a container started without GPU access, only the
    # toolkit's stub inside; starting it with the NVIDIA runtime solved it)
    ("[2024-03-15 10:30:10] Rigel v1.15.0 - [Linux]\n[2024-03-15 10:30:10] \n[2024-03-15 10:30:10] CUDA error: error "
     "code 34\n[2024-03-15 10:30:10] miner terminated\nrestarting the miner in 5 sec...",
     "runtime.stub_library", "docker run --gpus all"),
    # --- cxx.libstdcxx_too_old -----------------------------------------------------------------------------------
    # https://github.com/cvg/pixel-perfect-sfm/issues/11 (the system's libstdc++ has GLIBCXX_3.4.29: pointing the
    # environment's libstdc++.so.6 link at it solved it; cvg/limap#2 the same with `ln -sf`)
    ("ImportError: /home/kevin/anaconda3/envs/pixSfM/lib/libstdc++.so.6: version `GLIBCXX_3.4.29' not found "
     "(required by /home/kevin/pixel-perfect-sfm/pixsfm/_pixsfm.cpython-38-x86_64-linux-gnu.so)",
     "cxx.libstdcxx_too_old", "ln -sf /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /home/kevin/anaconda3/envs/pixSfM/lib/libstdc++.so.6"),
    # --- tf.cudnn_older_than_built ------------------------------------------------------------------------------
    # https://github.com/balancap/SSD-Tensorflow/issues/340 (corpus fresh6 a13, a guard; an old TensorFlow wants cuDNN 7.0.x exactly: "I'm going to
    # download cuDNN v7.0.5, for CUDA 9.0 ... Problem solved.")
    ("I get this message, which I believe is because I use a newer version of the cuDNN library (7301) whereas source "
     "is compiled using 7003. \n\nLoaded runtime CuDNN library: 7301 (compatibility version 7300) but source was "
     "compiled with 7003 (compatibility version 7000).  If using a binary install, upgrade your CuDNN library to match.",
     "tf.cudnn_older_than_built", "Make the two agree: install cuDNN 7.0"),
]

test_first_answer = first_answer_tests(CASES)
