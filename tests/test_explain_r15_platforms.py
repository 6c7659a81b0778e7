"""Round 15, platforms: the platform decides the fix.

Jetson (L4T / JetPack): the driver, CUDA and cuDNN come with JetPack, so the fix is a build or image for this JetPack
(NVIDIA's Jetson wheels, jetson-containers), docker's default runtime for builds, never a driver, toolkit or pip wheel
made for x86 or ARM servers. Nix: the compiler and the driver's libraries come from Nix (cudaPackages.backendStdenv,
/run/opengl-driver), never apt-get. Native Windows: cuDNN 8's zlibwapi.dll. Conda: the cudatoolkit package has no nvcc
and no headers; NVIDIA's or conda-forge's cuda-nvcc / cuda-toolkit packages do. The facts `jetson` and `nix` are read by
extract.py (`_platform_more`). Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- Jetson ---------------------------------------------------------------------------------------------------
    # https://github.com/dusty-nv/jetson-containers/issues/1008 (jax built with cuDNN 9.4 in a 9.3 image: rebuilt with
    # CUDNN_VERSION=9.4, confirmed)
    ("`CUDA_VERSION=12.6 ./jetson-containers build --skip-tests=all  jax:0.4.38`\n"
     "gives an error at runtime:\n"
     "`E0402 11:40:27.667155  238613 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.3.0 but source was compiled "
     "with: 9.4.0.  CuDNN library needs to have matching major version and equal or higher minor version. If using a "
     "binary install, upgrade your CuDNN library.`\n"
     "L4T_VERSION=4.3\nJETPACK_VERSION=36.4.3\nCUDA_VERSION=12.6",
     "tf.cudnn_older_than_built", "in jetson-containers, build with the cuDNN it was compiled against"),
    # https://github.com/tensorflow/tensorflow/issues/37606 (a comment: StyleGAN2 on a Jetson Nano, JetPack 4.3,
    # TensorFlow 1.15.2+nv20.2)
    ("I have similar issue when running StyleGAN2 on a Jetson Nano with JetPack 4.3,  TensorFlow 1.15.2+nv20.2\n"
     "2020-07-02 18:49:18.254447: E tensorflow/stream_executor/cuda/cuda_dnn.cc:320] Loaded runtime CuDNN library: "
     "7.5.0 but source was compiled with: 7.6.3.  CuDNN library major and minor version needs to match or have higher "
     "minor version in case of CuDNN 7.0 or later version.",
     "tf.cudnn_older_than_built", "the build of TensorFlow for the cuDNN this JetPack or image has"),
    # https://github.com/dusty-nv/jetson-inference/issues/735 (a docker build on a Jetson: CUDA_nppicc_LIBRARY NOTFOUND;
    # the default runtime first, then JetPack's CUDA on the host)
    ("#16 64.55 -- Copying examples/segnet.py -> segnet-camera.py\n"
     "#16 64.58 CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "#16 64.58 Please set them or make sure they are set and tested correctly in the CMake files:\n"
     "#16 64.58 CUDA_nppicc_LIBRARY (ADVANCED)\n"
     '#16 64.58     linked by target "jetson-utils" in directory '
     "/jetson_inference_ros/dependencies/jetson-inference/utils\n"
     "#16 64.58 -- Configuring incomplete, errors occurred!",
     "cmake.cuda_library_notfound", '"default-runtime": "nvidia"'),
    # https://github.com/AastaNV/JEP/issues/23 (OpenCV's Jetson install script inside a Dockerfile, JetPack 4.4)
    ("Docker - cuDNN & other cuda libs not found JetPack 44 & 43 - CUDA 10\n"
     "RUN DEBIAN_FRONTEND=noninteractive ./JEP/script/install_opencv4.3.0_Jetson.sh /root/cv\n"
     "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "CUDA_cufft_LIBRARY (ADVANCED)\n"
     '    linked by target "opencv_cudev" in directory /root/cv/opencv_contrib/modules/cudev',
     "cmake.cuda_library_notfound", '"default-runtime": "nvidia"'),
    # https://github.com/loretoparisi/docker/issues/11 (an x86 nvidia/cuda image's deviceQuery on a Jetson Nano)
    ("jetson@192:~/docker/darknet/gpu$ sudo docker run -it jitteam/devicequery ./deviceQuery\n"
     "./deviceQuery Starting...\n\n"
     " CUDA Device Query (Runtime API) version (CUDART static linking)\n\n"
     "cudaGetDeviceCount returned 35\n"
     "-> CUDA driver version is insufficient for CUDA runtime version\n"
     "Result = FAIL",
     "runtime.insufficient_driver", "Run a build made for this JetPack"),
    # https://github.com/TheSpaghettiDetective/obico-server/issues/515 (a Nano: the ml_api image built for another L4T)
    ("CUDA status Error: file: ./src/cuda.c : () : line: 203 : build time: Oct 15 2019 - 16:00:39 \n"
     "CUDA Error: CUDA driver version is insufficient for CUDA runtime version\n"
     'Device 0: "NVIDIA Tegra X1"\n'
     "  CUDA Driver Version / Runtime Version          10.2 / 10.0",
     "runtime.insufficient_driver", "Run a build made for this JetPack"),
    # https://github.com/deepconsc/tensorrt_yolov5/issues/2 (a Jetson, Python 3.6: PyPI's aarch64 torch)
    ("I tried on my jetson the following command:\n`python inference.py`\n"
     "And I got this error:\n`AssertionError: Torch not compiled with CUDA enabled`",
     "torch.cpu_build", "NVIDIA's torch for this JetPack"),
    # https://github.com/dusty-nv/jetson-inference/issues/1848 (an Orin Nano devkit, a torch 2.2.0 in ~/.local)
    ("I've been following the process in the excellent pytorch-ssd.md on my jetson orin nano devkit. When I run "
     '"python3 onnx_export.py --model-dir=models", it finds the trained network with the best loss, but then I get '
     '"AssertionError: Torch not compiled with CUDA enabled" which is triggered on line 293 of '
     "/.local/lib/python3.10/site-packages/torch/cuda/__init__.py.",
     "torch.cpu_build", "NVIDIA's torch for this JetPack"),

    # https://github.com/opendatacam/opendatacam/issues/205 (the image for JetPack 4.3's CUDA 10.0 on a JetPack 4.4 Nano)
    ("Running opendatacam:v3.0.0-beta.2-nano in docker on Jetson Nano I'm getting errors:\n"
     "./darknet: error while loading shared libraries: libcudart.so.10.0: cannot open shared object file: No such file "
     "or directory\n"
     "Restart YOLO\n"
     " - NVIDIA Jetson Nano (Developer Kit Version)\n"
     "   * Jetpack 4.4 DP [L4T 32.4.2]\n"
     "   * CUDA: 10.2.89",
     "runtime.libcudart_not_found", "Use the build made for this JetPack's CUDA"),
    # https://github.com/Qengineering/PyTorch-Jetson-Nano/issues/5 (a torch wheel on JetPack 4.6)
    ("Jetson Nano, Jetpack 4.6\n"
     '  File "venv/lib/python3.6/site-packages/torch/__init__.py", line 149, in _load_global_deps\n'
     "    ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)\n"
     "OSError: libcurand.so.10: cannot open shared object file: No such file or directory",
     "runtime.cuda_library_not_found", "Use the build made for this JetPack's CUDA"),

    # https://github.com/jax-ml/jax/issues/22723 (Orin Nano: upstream jax wheels in a container)
    ("NVIDIA Jetson Orin Nano: no kernel image is available for execution on the device\n"
     "jax                                  0.4.31.dev20240728+6a7822a73 /home/jax\n"
     "jax-cuda12-pjrt                      0.4.30\n"
     "jax-cuda12-plugin                    0.4.30\n"
     "F0729 12:58:37.236422     109 stream_executor_util.cc:504] Could not create RepeatBufferKernel: INTERNAL: Failed "
     "call to cudaGetFuncBySymbol: no kernel image is available for execution on the device",
     "runtime.no_kernel_image", "a prebuilt package: its build for this JetPack"),
    # https://github.com/apache/mxnet/issues/11052 (mxnet built by the user on a TX2: rebuilt with compute_62/sm_62)
    ("Nvidia Jetson TX2 Check failed: (err) == (cudaSuccess) Name: mxnet_generic_kernel ErrStr:no kernel image is "
     "available for execution on the device\n"
     "Can't use GPU on TX2. I compile mxnet by myself, and there is no error while compiling.",
     "runtime.no_kernel_image", "arch=compute_62,code=sm_62"),
    # https://github.com/dusty-nv/jetson-containers/issues/1220 (flash-attn on an AGX Orin)
    ("## Flash Attention fails on Jetson AGX Orin with \"no kernel image\" error\n"
     "  - **Device**: NVIDIA Jetson AGX Orin\n"
     "  - **GPU**: Orin (sm_87)\n"
     "  RuntimeError: CUDA error: no kernel image is available for execution on the device",
     "runtime.no_kernel_image", "a prebuilt package: its build for this JetPack"),

    # -- Nix --------------------------------------------------------------------------------------------------------
    # https://github.com/NixOS/nixpkgs/issues/371639 (suitesparse: the default stdenv's gcc against cuda_nvcc-12.4)
    ("In file included from /nix/store/pjwsmd212zhpriymn116xfl95zqxcwz5-cuda_cudart-12.4.99-dev/include/cuda_runtime.h:82,\n"
     "                 from <command-line>:\n"
     "/nix/store/vnwm837kbwv0ckf1xbjs6zx9vddcjz8d-cuda_nvcc-12.4.99/include/crt/host_config.h:143:2: error: #error -- "
     "unsupported GNU version! gcc versions later than 13 are not supported! The nvcc flag '-allow-unsupported-compiler' "
     "can be used to override this version check",
     "nvcc.gcc_too_new", "cudaPackages.backendStdenv"),
    # https://github.com/NixOS/nixpkgs/issues/288621 (arrayfire.override { cudaSupport = true })
    ("rrayfire>   error: #error -- unsupported GNU version! gcc versions later than 12 are\n"
     "arrayfire>   not supported! The nvcc flag '-allow-unsupported-compiler' can be used to\n"
     "arrayfire>     143 | #error -- unsupported GNU version! gcc versions later than 12 are not supported! The nvcc "
     "flag '-allow-unsupported-compiler' can be used to override this version check\n"
     "arrayfire>   /nix/store/hkhmxs4n1agpdpyamlh2b78pm9wch0br-cmake-3.27.9/share/cmake-3.27/Modules/"
     "CMakeDetermineCompilerId.cmake:8 (CMAKE_DETERMINE_COMPILER_ID_BUILD)",
     "nvcc.gcc_too_new", "cudaPackages.backendStdenv"),

    # -- native Windows: cuDNN 8's zlibwapi.dll ------------------------------------------------------------------------
    # https://github.com/NickSwardh/YoloDotNet/issues/18 ("add the zlibwap.dll to ...\CUDA\vxx.x\bin ... solved")
    ("after installing cuda and cuDNN as suggested in the README I get this message in the console:\n"
     "Could not locate zlibwapi.dll. Please make sure it is in your library path!",
     "loader.windows_zlibwapi_missing", "Put the 64-bit zlibwapi.dll in a directory on PATH"),
    # https://github.com/AlexeyAB/darknet/issues/8551 (darknet with CUDA 11.7 and cuDNN 8.4.1)
    ("Could not locate zlibwapi.dll. Please make sure it is in your library path!\n\n"
     "CUDA-version: 11070 (11070), cuDNN: 8.4.1, GPU count: 1\n"
     " 0 : compute_capability = 860, cudnn_half = 0, GPU: NVIDIA GeForce RTX 3070 Laptop GPU",
     "loader.windows_zlibwapi_missing", "zlibwapi.dll"),
    # https://github.com/lightvector/KataGo/issues/828 (a 32-bit zlibwapi.dll found first)
    ("Could not load library zlibwapi.dll. Error code 193. Please verify that the library is built correctly for your "
     "processor architecture (32-bit, 64-bit)",
     "loader.windows_zlibwapi_missing", "with the 64-bit build"),

    # -- conda's CUDA packages ----------------------------------------------------------------------------------------
    # https://github.com/ddshan/hand_object_detector/issues/16 (CUDA_PATH at conda's cudatoolkit package: no nvcc)
    ("The CUDA_PATH is None and when I define the CUDA_PATH by using the path under conda environment. However, since "
     "NVCC is not there, I get the following error.\n"
     "`/home/user_name/miniconda3/pkgs/cudatoolkit-11.0.221-h6bb024c_0/bin/nvcc: not found`",
     "torch.nvcc_not_found", "Install the compiler into this environment"),
    # https://github.com/NVIDIA/apex/issues/1591 (conda's cuda-nvcc 11.3.58 without the runtime's headers)
    ("cuda-nvcc                 11.3.58\n"
     "cudatoolkit               11.3        \n"
     "cc1plus: fatal error: cuda_runtime.h:No file or directory\n"
     "compilation terminated.\n"
     "error: command '/home/wpp/anaconda3/envs/RK-Net/bin/nvcc' failed with exit status 1",
     "build.cuda_header_missing", "Install the complete toolkit of the same CUDA as that nvcc"),

    # -- guards: x86 Linux and other wordings keep their answers ------------------------------------------------------
    # a torch CPU build without Jetson (xavier_uniform_ is a function, not the board)
    ("nn.init.xavier_uniform_(self.fc.weight)\nAssertionError: Torch not compiled with CUDA enabled",
     "torch.cpu_build", "download.pytorch.org/whl/cu126"),
    # https://github.com/AnWang-AI/Real-Time-Object-Detection-and-Tracking/issues/2 (x86, TF 1.15)
    ("Loaded runtime CuDNN library: 7.5.1 but source was compiled with: 7.6.0. CuDNN library major and minor version "
     "needs to match or have higher minor version in case of CuDNN 7.0 or later version.",
     "tf.cudnn_older_than_built", "Install cuDNN 7.6.0"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1033 (an x86 docker build: no libcuda during the build)
    ("CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
     "CUDA_CUDA_LIBRARY (ADVANCED)\n"
     '    linked by target "SVRreconstructionGPU" in directory /usr/src/app',
     "cmake.cuda_library_notfound", "/usr/local/cuda/lib64/stubs"),
    # https://github.com/KCL-BMEIS/niftyreg/issues/42 (Ubuntu 18.04, CUDA 9.0)
    ("/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions "
     "later than 6 are not supported!",
     "nvcc.gcc_too_new", "sudo apt-get install gcc-6 g++-6"),
    # "unix" is no Nix
    ("unix socket ready\n/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
     "version! gcc versions later than 11 are not supported!",
     "nvcc.gcc_too_new", "Give nvcc a gcc it accepts (gcc 11 or older)"),
    # a toolkit path's missing nvcc is not conda's
    ("/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found",
     "torch.nvcc_not_found", "Nothing with nvcc is at /usr/local/cuda"),
    # another cuDNN 8 DLL on Windows is the DLL entry's
    ("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!",
     "loader.windows_cuda_dll_not_found", "cuDNN archive"),
    # cuda_runtime.h missing without a conda nvcc keeps the toolkit answer
    ("/usr/include/stdc-predef.h:59:1: fatal error: cuda_runtime.h: No such file or directory\n"
     "error: command 'nvcc' failed with exit status 1",
     "build.cuda_header_missing", "Use a complete toolkit for the build"),
    # no kernel image on an x86 data-centre GPU keeps the generic build answer
    ("RuntimeError: CUDA error: no kernel image is available for execution on the device\nGPU: NVIDIA A100-SXM4-40GB",
     "runtime.no_kernel_image", "Get a build of the program that failed"),
    # the driver on x86 keeps "upgrade the driver"
    ("cudaGetDeviceCount returned 35\n-> CUDA driver version is insufficient for CUDA runtime version\nResult = FAIL",
     "runtime.insufficient_driver", "upgrade the driver"),
]

test_first_answer = first_answer_tests(CASES)

# program bugs on a Jetson stay verdicts: nothing in the environment is claimed beside them
VERDICTS = [
    ("Jetson AGX Orin, JetPack 6.0 (L4T 36.3)\n"
     "RuntimeError: CUDA error: device-side assert triggered",
     "program.device_assert", "CUDA_LAUNCH_BLOCKING=1"),
]


def test_verdicts() -> None:
    from explain_answers import assert_first_answer
    for text, want, fix in VERDICTS:
        assert_first_answer(text, want, fix, where=text[:60], verdicts=True)


def test_platform_facts() -> None:
    from cudaenv.knowledge.explain.extract import facts
    from cudaenv.knowledge.explain.text import LogText
    seen = {t: facts(LogText(t)) for t in (
        "Python platform: Linux-5.15.136-tegra-aarch64-with-glibc2.35\nGPU models and configuration: GPU 0: Orin (nvgpu)",
        "reading L4T version from /etc/nv_tegra_release", "dustynv/l4t-pytorch:r36.2.0",
        "/nix/store/abc-cuda_nvcc-12.4.99/bin/nvcc", "$ nix develop", "export LD_LIBRARY_PATH=/run/opengl-driver/lib",
        "nn.init.xavier_uniform_(w)", "unix domain socket", "Linux-5.15.0-91-generic-x86_64")}
    assert [t for t, f in seen.items() if f["jetson"]] == list(seen)[:3]
    assert [t for t, f in seen.items() if f["nix"]] == list(seen)[3:6]
