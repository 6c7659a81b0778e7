"""Round 29, the lead's families from fresh28's misses (each widened past its one log with other public threads).

container.default_runtime_not_nvidia: scripts that check docker's default runtime and stop on runc.
container.argus_socket_not_mounted: libargus in a container without the host's /tmp/argus_socket.
loader.jcuda_native_library: JCuda's versioned native library names its CUDA release.
driver.flatpak_gl_extension_missing: a Flatpak app without the GL.nvidia extension of the host's driver.
runtime.libcuda_not_found's Taichi variant: Taichi's "Arch=cuda is not supported, falling back to CPU" alone.
build.library_api_version's cudnn6_added family (CUDNN_POOLING_MAX_DETERMINISTIC, the reductions).
"""
from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.derive import DERIVE

from explain_answers import first_environment_answer, hostile_line


def _first(log):
    return first_environment_answer(log).to_dict()


def _answered(log):
    return [m.id for m in explain(log) if m.environment]


def _ids(log):
    return [m.id for m in explain(log)]


# NVIDIA-ISAAC-ROS isaac_ros_common's scripts/run_dev.sh (the burned fresh28 i83)
ISAAC_ROS = ("Using docker context dir not specified, using Dockerfile directory\n"
             "Default docker runtime is not nvidia!, please make sure the following line is\n"
             "present in /etc/docker/daemon.json\n\"default-runtime\": \"nvidia\",\n\n"
             "And then restart the docker daemon\nFailed to build base image: isaac_ros_dev-aarch64, aborting.\n")
# OpenPAI's ansible pre-check (NVIDIA/nvidia-container-runtime#154)
OPENPAI = ('fatal: [pai-worker1]: FAILED! => {"changed": false, "msg": "The following requirements are not met: '
           'The default runtime is not set correctly"}\n')


def test_default_runtime_not_nvidia():
    for log in (ISAAC_ROS, OPENPAI, "FAIL: docker default runtime is not nvidia \u2014 kind creates its node container "
                                    "without a GPU otherwise.\n"):
        first = _first(log)
        assert first["id"] == "container.default_runtime_not_nvidia", log
        assert "--set-as-default" in first["fix"].splitlines()[0]
    # the runtime unknown to the daemon is another cause
    assert "container.default_runtime_not_nvidia" not in _ids(
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.\n")
    # "the runtime is not NVIDIA CUDA" (a package's own note about ROCm/CPU) is not docker's runtime
    assert "container.default_runtime_not_nvidia" not in _ids(
        "The current runtime is not NVIDIA CUDA; skipping bitsandbytes.\n")


# roflcoopter/viseron#583 (the burned fresh28 i88), NVIDIA-AI-IOT/jetbot#424 (older line numbers)
ARGUS = ("[2023-05-01 19:03:34] [ERROR   ] [viseron.components.gstreamer.stream.camera_1] - (Argus) Error "
         "FileOperationFailed: Connecting to nvargus-daemon failed: No such file or directory (in "
         "src/rpc/socket/client/SocketClientDispatch.cpp, function openSocketConnection(), line 205)\n")
JETBOT = ("starting camera\nnvbuf_utils: Could not get EGL display connection\n(Argus) Error FileOperationFailed: "
          "Connecting to nvargus-daemon failed: No such file or directory (in src/rpc/socket/client/"
          "SocketClientDispatch.cpp, function openSocketConnection(), line 201)\n(Argus) Error FileOperationFailed: "
          "Cannot create camera provider (in src/rpc/socket/client/SocketClientDispatch.cpp, function "
          "createCameraProvider(), line 102)\n")


def test_argus_socket():
    for log in (ARGUS, JETBOT):
        first = _first(log)
        assert first["id"] == "container.argus_socket_not_mounted"
        assert "-v /tmp/argus_socket:/tmp/argus_socket" in first["fix"].splitlines()[0]
        assert "nvargus-daemon" in first["fix"].splitlines()[1]


# jcuda/jcuda-main#17 (the burned fresh28 i82), aidenlab/juicer#225, jcuda/jcuda#22 (a lettered 0.9.0d)
JCUBLAS_WIN = ('java.lang.UnsatisfiedLinkError: Error while loading native library "JCublas2-0.8.0-windows-x86_64"\n'
               "Operating system name: Windows 10\nArchitecture         : amd64\n"
               "java.lang.UnsatisfiedLinkError: no JCublas2-0.8.0-windows-x86_64 in java.library.path\n"
               "\tat jcuda.LibUtils.loadLibrary(LibUtils.java:143)\n")
JUICER = ('Exception in thread "pool-2-thread-1" java.lang.UnsatisfiedLinkError: Error while loading native library '
          '"JCudaDriver-0.8.0-linux-x86_64"\nOperating system name: Linux\nArchitecture         : amd64\n')


def test_jcuda_native_library():
    first = _first(JCUBLAS_WIN)
    assert first["id"] == "loader.jcuda_native_library"
    assert "CUDA 8.0" in first["title"] and "cudaenv" not in first["fix"]
    first = _first(JUICER)
    assert first["id"] == "loader.jcuda_native_library"
    assert 'eval "$(cudaenv use 8.0)"' in first["fix"]
    assert first["fix"].splitlines()[0].startswith("Use the JCuda release made for the CUDA you have")


def test_jcuda_version_rule():
    derive = DERIVE["jcuda_cuda"]
    for jver, cuda in (("0.8.0", "8.0"), ("0.9.0d", "9.0"), ("0.7.5b", "7.5"), ("10.2.0", "10.2"),
                       ("11.1.1", "11.1"), ("12.0.0", "12.0"), ("", "")):
        assert derive({"jver": jver}, None, None) == {"jcuda_cuda": cuda}, jver


def test_jcuda_deeper_cause_comes_first():
    # jcuda/jcuda#45: the nested trace says libcuda.so.1 is missing (no driver): that entry answers first
    log = ('java.lang.UnsatisfiedLinkError: Error while loading native library "JCudaDriver-12.0.0-linux-x86_64"\n'
           "Stack trace from the attempt to load the library as a resource:\n"
           "java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver-12.0.0-linux-x86_64.so: libcuda.so.1: cannot open "
           "shared object file: No such file or directory\n")
    ids = _ids(log)
    assert ids.index("runtime.libcuda_not_found") < ids.index("loader.jcuda_native_library")


# celluloid-player/celluloid#310 and the burned fresh28 i84 (Dolphin): a Flatpak after a driver update
FLATPAK = ("$ flatpak run io.github.GnomeMpv\nlibGL error: No matching fbConfigs or visuals found\n"
           "libGL error: failed to load driver: swrast\nlibEGL warning: DRI2: failed to authenticate\n")


def test_flatpak_gl_extension():
    first = _first(FLATPAK)
    assert first["id"] == "driver.flatpak_gl_extension_missing"
    assert first["fix"].startswith("`flatpak update`")
    # the same libGL lines outside a Flatpak (ssh -X, a conda libstdc++) are other causes
    assert "driver.flatpak_gl_extension_missing" not in _ids(
        "libGL error: No matching fbConfigs or visuals found\nlibGL error: failed to load driver: swrast\n")


# taichi-dev/taichi-nerfs#94 (both lines), the burned fresh28 i91 (the fallback line alone, WSL)
TAICHI = ("[Taichi] version 0.7.23, llvm 10.0.0, commit 0b89df86, linux, python 3.8.8\n"
          "[W 06/24/21 15:54:08.105 4009] [__init__.py:adaptive_arch_select@656] Arch=[<Arch.cuda: 5>] is not "
          "supported, falling back to CPU\n[Taichi] Starting on arch=x64\n")


def test_taichi_fallback():
    first = _first(TAICHI)
    assert first["id"] == "runtime.libcuda_not_found"
    assert first["title"].startswith("Taichi fell back to the CPU")
    assert "/usr/lib/wsl/lib" in first["fix"]
    both = TAICHI.replace("[W 06/24/21", "[W 03/03/24 17:05:31.950 2179169] [cuda_driver.cpp:load_lib@36] "
                          "libcuda.so lib not found.\n[W 06/24/21", 1)
    assert _first(both)["id"] == "runtime.libcuda_not_found"
    # another arch falling back (OpenGL, Vulkan) is not the CUDA driver library
    assert "runtime.libcuda_not_found" not in _ids(
        "[W 01/12/21 12:03:20.175] [__init__.py:adaptive_arch_select@574] Arch=[<Arch.opengl: 6>] is not "
        "supported, falling back to CPU\n")


def test_cudnn6_symbols():
    # Microsoft/CNTK with cuDNN 5.1 (the burned fresh28 i24: MSVC's error list)
    log = ("Severity\tCode\tDescription\tProject\tFile\tLine\tSuppression State\nError\t\tidentifier "
           "\"CUDNN_POOLING_MAX_DETERMINISTIC\" is undefined\tMathCUDA\tC:\\code\\cntk\\Source\\Math\\"
           "CuDnnConvolutionEngine.cu\t160\t\n")
    first = _first(log)
    assert first["id"] == "build.library_api_version"
    assert "cuDNN v6 or newer" in first["title"]
    assert first["fix"].startswith("Install cuDNN v6 or newer")
    log = "src/reduce.cpp:12:5: error: 'cudnnReduceTensor' was not declared in this scope\n"
    first = _first(log)
    assert first["id"] == "build.library_api_version" and "cuDNN v6" in first["title"]
    # two copies: the removal of the old copy stays on the first line (vlfeat/matconvnet#584, the burned fresh4 816)
    assert "remove the copies older than v6" in first["fix"].splitlines()[0]


def test_new_patterns_are_bounded_on_hostile_lines():
    for literal in ("default docker runtime is not ", "Connecting to nvargus-daemon failed: ",
                    'Error while loading native library "J', "JCublas2-0.8.0-", "libGL error: ",
                    "adaptive_arch_select@1] Arch=[<Arch.cuda: 5>] ", "CUDNN_REDUCE_TENSOR_"):
        explain(hostile_line(literal))  # returns: every repeat is bounded


def test_opencv_gpu_api_call_frames():
    # OpenCV's cudaSafeCall (cv::Error::GpuApiCallError, -217) in its three generations' wording
    for line in ("cv2.error: OpenCV(4.5.0) /opt/opencv/modules/dnn/src/cuda4dnn/csl/memory.hpp:54: error: "
                 "(-217:Gpu API call) unknown error in function 'ManagedPtr'\n",
                 "  what():  /home/nvidia/opencv/modules/core/src/gpu_mat.cpp:96: error: (-217) unknown error in "
                 "function allocate\n",
                 "OpenCV Error: Gpu API call (unknown error) in mallocPitch, file /build/opencv/modules/core/src/cuda/"
                 "gpu_mat.cu, line 60\n"):
        assert _first(line)["id"] == "driver.unknown_error", line
    # an ambiguous status in the frame stays unanswered (the burned fresh28 i36: OpenCV's CUDA build overwritten)
    assert not _answered("cv2.error: OpenCV(4.5.0) /opt/opencv/modules/dnn/src/cuda4dnn/csl/memory.hpp:54: error: "
                         "(-217:Gpu API call) initialization error in function 'ManagedPtr'\n")
    # another OpenCV error code with the same words is not CUDA's status
    assert not _answered("cv2.error: OpenCV(4.5.0) /io/opencv/modules/imgproc/src/resize.cpp:4051: error: (-215:"
                         "Assertion failed) !ssize.empty() in function 'resize' unknown error\n")
    explain(hostile_line("(-217:Gpu API call) "))


# the real quoted messages, as (text, id, first fix line) for test_explain.py's coverage of every entry
E29_LEAD_CASES = [
    (ISAAC_ROS, "container.default_runtime_not_nvidia", "Make nvidia docker's default runtime"),
    (OPENPAI, "container.default_runtime_not_nvidia", "Make nvidia docker's default runtime"),
    (ARGUS, "container.argus_socket_not_mounted", "In a container: mount the socket"),
    (JUICER, "loader.jcuda_native_library", "Use the JCuda release made for the CUDA you have"),
    (JCUBLAS_WIN, "loader.jcuda_native_library", "Use the JCuda release made for the CUDA you have"),
    (FLATPAK, "driver.flatpak_gl_extension_missing", "`flatpak update`"),
]


def test_cases_answer_first():
    for text, want, fix in E29_LEAD_CASES:
        first = _first(text)
        assert first["id"] == want and first["fix"].startswith(fix), text


# OpenCL's ICD loader with no platform: hashcat (the burned fresh27 k72), pyopencl (inducer/pyopencl#283, in a conda
# environment), hwloc's warning (open-mpi/hwloc#425); a platform with no device (hashcat, the burned fresh26 z83)
HASHCAT_1001 = "ERROR: clGetPlatformIDs() : -1001 : CL_UNKNOWN_ERROR\n"
PYOPENCL_CONDA = ('  File "/home/angela/miniconda3/lib/python3.6/site-packages/pyopencl/__init__.py", line 1385, in '
                  "create_some_context\n    platforms = get_platforms()\n"
                  "pyopencl._cl.LogicError: clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR\n")
HASHCAT_NO_DEVICE = "$ hashcat -I\nhashcat (v6.0.0) starting...\nclGetDeviceIDs(): CL_DEVICE_NOT_FOUND\n"


def test_opencl_no_platform():
    first = _first(HASHCAT_1001)
    assert first["id"] == "driver.opencl_no_platform" and "nvidia.icd" in first["fix"].splitlines()[0]
    first = _first(PYOPENCL_CONDA)
    assert first["id"] == "driver.opencl_no_platform" and "ocl-icd-system" in first["fix"].splitlines()[0]
    first = _first("root@4f2a:/# python3 -c 'import pyopencl; pyopencl.get_platforms()'\n"
                   "pyopencl._cl.LogicError: clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR\n"
                   "(this is inside docker run --gpus all nvidia/cuda:12.2.0-runtime-ubuntu22.04)\n")
    assert first["id"] == "driver.opencl_no_platform"
    first = _first(HASHCAT_NO_DEVICE)
    assert first["id"] == "driver.opencl_no_platform" and "clinfo -l" in first["fix"].splitlines()[0]
    # a consequence: another cause in the same log comes first
    ids = _ids(HASHCAT_1001 + "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
               "sure that the latest NVIDIA driver is installed and running.\n")
    assert ids[0] != "driver.opencl_no_platform" and "driver.opencl_no_platform" in ids
    explain(hostile_line("clGetPlatformIDs() : "))
    explain(hostile_line("clGetDeviceIDs() : "))


E29_LEAD_CASES += [
    (HASHCAT_1001, "driver.opencl_no_platform", "`ls /etc/OpenCL/vendors/` must list nvidia.icd"),
    (PYOPENCL_CONDA, "driver.opencl_no_platform", "conda's ocl-icd reads only"),
    (HASHCAT_NO_DEVICE, "driver.opencl_no_platform", "`clinfo -l` lists every platform"),
]


def test_cuew_strings_beside_a_driver_call():
    # Blender Cycles' CUDA device prints cuew's own strings (status.yaml producer_strings), not cuGetErrorString's
    cases = (("CUDA error: Launch exceeded timeout in cuCtxSynchronize()", "status.launch_timeout"),
             ("CUDA error: Invalid source in cuModuleLoad(&cuModule, cubin.c_str())", "status.kernel_image_invalid"),
             ("CUDA error at cuCtxCreate: No binary for GPU", "runtime.no_kernel_image"),
             ("CUDA error at cuCtxCreate: No CUDA-capable device available", "runtime.no_device"))
    for line, want in cases:
        assert _first(line + "\n")["id"] == want, line
    # without a CUDA call the words are prose; a row that does not answer (launch failed, out of memory) stays unread
    assert not _answered("Render: Launch exceeded timeout while waiting for the scene\n")
    assert not _answered("CUDA error: Launch failed in cuCtxSynchronize(), line 1372\n")
    assert not _answered("CUDA error: Out of memory in cuLaunchKernel(cuPathTrace, xblocks , yblocks, 1, xthreads, "
                         "ythreads, 1, 0, 0, args, 0)\n")


def test_slurm_gpu_nvml_plugin_missing():
    # slurm's plugin loader when gres.conf asks for gpu/nvml and no gpu_nvml.so was built
    log = ("slurmd: error: gres/gpu: _load_gpu_plugin: Couldn't find the specified plugin name for gpu/nvml looking at "
           "all files\nslurmd: error: cannot create gpu context for gpu/nvml\n")
    assert _first(log)["id"] == "slurm.built_without_nvml"
    # another plugin missing is not NVML's
    assert "slurm.built_without_nvml" not in _ids(
        "slurmd: error: Couldn't find the specified plugin name for cgroup/v2 looking at all files\n")


# transformers' bitsandbytes quantizers asking for packages that are installed (leoneversberg/llm-chatbot-rag#1,
# hiyouga/LlamaFactory#7369 with torch 2.6.0+cpu, bitsandbytes-foundation/bitsandbytes#1384)
BNB_8BIT = ("ImportError: Using `bitsandbytes` 8-bit quantization requires Accelerate: `pip install accelerate` and "
            "the "
            "latest version of bitsandbytes: `pip install -i https://pypi.org/simple/ bitsandbytes`\n")
BNB_CPU_TORCH = "- PyTorch version: 2.6.0+cpu\n- Accelerate version: 1.4.0\n" + BNB_8BIT


def test_bnb_quantization_without_cuda():
    for log in (BNB_8BIT, "An error occurred: CUDA is required but not available for bitsandbytes. Please consider "
                          "installing the multi-platform enabled version of bitsandbytes\n",
                "RuntimeError: No GPU found. A GPU is needed for quantization.\n"):
        first = _first(log)
        assert first["id"] == "python.bnb_quantization_without_cuda", log
        assert "torch.cuda.is_available()" in first["fix"].splitlines()[0]
    first = _first(BNB_CPU_TORCH)
    assert first["title"].endswith("(this torch is a CPU-only build)")
    assert "download.pytorch.org/whl/cu126" in first["fix"].splitlines()[0]
    explain(hostile_line("Using `bitsandbytes` 8-bit quantization requires "))


E29_LEAD_CASES += [
    (BNB_8BIT, "python.bnb_quantization_without_cuda", "`python -c \"import torch;"),
    (BNB_CPU_TORCH, "python.bnb_quantization_without_cuda", "This torch is a CPU-only build"),
]


# kaistAI/SelFee#6: torch and flash-attn in one requirements.txt; pip runs flash-attn's setup.py egg_info before torch
SELFEE_6 = ("Collecting flash-attn==0.2.8 (from -r requirements.txt (line 5))\n"
            "  Using cached flash_attn-0.2.8.tar.gz (1.8 MB)\n"
            "  Preparing metadata (setup.py) ... error\n  error: subprocess-exited-with-error\n\n"
            "  × python setup.py egg_info did not run successfully.\n  │ exit code: 1\n"
            '        File "/tmp/pip-install-tjhjvhnh/flash-attn_d4c66fc1204a49cf9a44de9ebbba6e8d/setup.py", line 10, '
            "in <module>\n          import torch\n      ModuleNotFoundError: No module named 'torch'\n"
            "error: metadata-generation-failed\n")


def test_setup_py_imports_torch_before_pip_installed_it():
    first = _first(SELFEE_6)
    assert first["id"] == "pip.build_isolation_hides_torch"
    assert first["title"].startswith("the package's setup.py imports torch before pip has installed it")
    assert first["fix"].startswith("Install torch first, on its own")
    # the isolated build (pyproject) keeps its answer
    iso = ("  Getting requirements to build wheel ... error\n  error: subprocess-exited-with-error\n"
           "      ModuleNotFoundError: No module named 'torch'\n")
    assert _first(iso)["fix"].startswith("Build in your own environment")
    # a plain import in a script is not a build at all
    assert "pip.build_isolation_hides_torch" not in _ids(
        "$ python train.py\nModuleNotFoundError: No module named 'torch'\n")


E29_LEAD_CASES += [(SELFEE_6, "pip.build_isolation_hides_torch", "Install torch first, on its own")]


# opencv-python's cv2 in a slim image (pytorch/ignite#1615), and the same library without cv2 in the paste
IGNITE_1615 = ('python -c "import cv2"\nTraceback (most recent call last):\n  File "<string>", line 1, in <module>\n'
               '  File "/opt/conda/lib/python3.8/site-packages/cv2/__init__.py", line 5, in <module>\n'
               "    from .cv2 import *\nImportError: libGL.so.1: cannot open shared object file: No such file or "
               "directory\n")


def test_opencv_gui_libraries():
    first = _first(IGNITE_1615)
    assert first["id"] == "loader.opencv_gui_libs_missing" and "opencv-python-headless" in first["fix"].splitlines()[0]
    first = _first("ImportError: libGL.so.1: cannot open shared object file: No such file or directory\n")
    assert first["id"] == "loader.opencv_gui_libs_missing" and "opencv" not in first["title"]
    assert first["fix"].startswith("Install what it links")
    # CUDA's own libraries keep their entries
    assert _first("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n")["id"] \
        == "runtime.libcudart_not_found"


E29_LEAD_CASES += [(IGNITE_1615, "loader.opencv_gui_libs_missing", "Use the headless build")]


# NVIDIA's CUDA .run installer: its gcc check (the reason in cuda-installer.log) and its bundled driver
RUNFILE_GCC = ("$ sudo sh cuda_12.2.0_535.54.03_linux.run\n"
               " Failed to verify gcc version. See log at /var/log/cuda-installer.log for details.\n")
RUNFILE_DRIVER = ("===========\n= Summary =\n===========\n\nDriver:   Installation failed\n"
                  "Toolkit:  Installation skipped\n[ERROR]: Install of driver component failed. Consult the driver "
                  "log at /var/log/nvidia-installer.log "
                  "for more details.\n")


def test_cuda_runfile_installer():
    first = _first(RUNFILE_GCC)
    assert first["id"] == "toolkit.runfile_gcc_check" and "cuda-installer.log" in first["fix"].splitlines()[0]
    first = _first(RUNFILE_GCC + "[ERROR]: Missing gcc. gcc is required to continue.\n")
    assert first["fix"].startswith("There is no gcc")
    first = _first("[ERROR]: unsupported compiler version: 13.2.0. Use --override to override this check.\n")
    assert "gcc 13.2.0" in first["title"] and first["fix"].startswith("Run the installer with `--override`")
    first = _first(RUNFILE_DRIVER)
    assert first["id"] == "toolkit.runfile_driver_component_failed" and "--toolkit" in first["fix"].splitlines()[0]
    explain(hostile_line("[ERROR]: unsupported compiler version: 1"))


E29_LEAD_CASES += [
    (RUNFILE_GCC, "toolkit.runfile_gcc_check", "`grep -i -e gcc -e compiler /var/log/cuda-installer.log`"),
    (RUNFILE_DRIVER, "toolkit.runfile_driver_component_failed", "If `nvidia-smi` works"),
]


# OptiX's runtime (libnvoptix.so.1) in a container without the graphics capability (NVIDIA/pyxis#103, NU-NeRF#2)
PYXIS_103 = ("srun -p gpu --container-name=cuda-11.4.2 --gpus=1 --pty zsh\n"
             "RTX Config........./src/rtx_functions.h:47 Optix Error: 'Library not found'\n")
# the Vulkan loader in the nvidia/vulkan image without the manifest (k4yt3x/video2x#628)
VIDEO2X_628 = ("$ docker run --rm --gpus 1 nvidia/vulkan:1.2.133-450 vulkaninfo ERROR: [Loader Message] Code 0 : "
               "loader_scanned_icd_add: Could not get 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr' for ICD "
               "libGLX_nvidia.so.0\nCannot create Vulkan instance.\n")


def test_optix_and_vulkan_driver_parts():
    first = _first(PYXIS_103)
    assert first["id"] == "driver.optix_library_missing" and "graphics" in first["fix"].splitlines()[0]
    assert _first("RuntimeError: OPTIX_ERROR_LIBRARY_NOT_FOUND: Library not found\n")["id"] \
        == "driver.optix_library_missing"
    first = _first(VIDEO2X_628)
    assert first["id"] == "driver.vulkan_no_nvidia_icd" and "graphics" in first["fix"].splitlines()[0]
    # an old manifest naming libGL.so.1 (mit-aera/FlightGoggles#131, nvidia-418 on the host)
    first = _first("nvidia-418 driver\nERROR: [Loader Message] Code 0 : loader_scanned_icd_add: Attempt to retrieve "
                   "either 'vkGetInstanceProcAddr' or 'vk_icdGetInstanceProcAddr' from ICD libGL.so.1 failed.\n"
                   "Cannot create Vulkan instance.\n")
    assert first["title"].startswith("the NVIDIA Vulkan ICD manifest names libGL.so.1")
    # no NVIDIA in the paste: another vendor's Vulkan is not ours to answer
    assert "driver.vulkan_no_nvidia_icd" not in _ids("Cannot create Vulkan instance.\n")
    explain(hostile_line("loader_scanned_icd_add: Could not get 'vkCreateInstance' via "))


E29_LEAD_CASES += [
    (PYXIS_103, "driver.optix_library_missing", "In a container: add `graphics`"),
    (VIDEO2X_628, "driver.vulkan_no_nvidia_icd", "In a container: start it with"),
]


def test_status_numbers_in_frames_that_name_their_api():
    cases = (
        # Caffe's glog CHECK_EQ with the string cut off
        ("F0101 common.cpp:151] Check failed: error == cudaSuccess (35 vs. 0)", "runtime.insufficient_driver"),
        ("F0101 common.cpp:151] Check failed: error == cudaSuccess (100 vs. 0)", "runtime.no_device"),
        ("F0101 cudnn_conv_layer.cpp:52] Check failed: status == CUDNN_STATUS_SUCCESS (6 vs. 0)",
         "status.lib_arch_mismatch"),
        # projects' library check macros
        ("cuBLAS error 8", "status.lib_arch_mismatch"),
        ("cufft error: 5", "status.cufft_internal_error"),
        ("CUFFT error 5 at line 88", "status.cufft_internal_error"),
        ("cuDNN error 1001", "cudnn.not_initialized"),
        # printf("CUDA error %d at %s:%d")
        ("CUDA error 100 at main.cu:40", "runtime.no_device"),
    )
    for line, want in cases:
        assert _first(line + "\n")["id"] == want, line
    for line in (
        "error code 35",  # no API word: never read
        "Check failed: error == cudaSuccess (2 vs. 0)",  # out of memory: a program verdict row, not read
        "Check failed: status == CUBLAS_STATUS_SUCCESS (13 vs. 0)",  # an ambiguous row
        "CUDA error 2 at main.cu:40",
        "cuBLAS error at line 35",  # a line number, not a status
        "found 35 cufft plans",
        "cuBLAS error\n13 tests passed",  # a frame is one line: a number on the next is not its status
        "Check failed: error == cudaSuccess\n(35 vs. 0)",
    ):
        assert not _answered(line + "\n"), line
    explain(hostile_line("== cudaSuccess ("))
    explain(hostile_line("cublas error "))
    explain(hostile_line("CUDA error 35 at a"))


def test_invalid_image_after_the_programs_own_compile_failed_is_not_claimed():
    # xmrig-nvidia's CryptonightR.cu (the burned fresh27 k75 negative): NVRTC failed on the kernel source first
    log = ('nvrtcCompileProgram failed: NVRTC_ERROR_COMPILATION\nProgram compile log: CryptonightR.cu(382): error: '
           'identifier "__funnelshift_l" is undefined\n2 errors detected in the compilation of "CryptonightR.cu".\n'
           '[CUDA] Error gpu 0: <cryptonight_gpu_hash>:878 "device kernel image is invalid"\n')
    assert "status.kernel_image_invalid" not in _ids(log)
    # the invalid image alone keeps its answer
    assert _first('[CUDA] Error gpu 0: <cryptonight_gpu_hash>:878 "device kernel image is invalid"\n')["id"] \
        == "status.kernel_image_invalid"


def test_round29_patterns_each_hold_a_literal():
    """explain finds a pattern's candidate lines by its required literal; a pattern with none is searched over the
    whole log (two case-insensitive default-runtime patterns cost the 10 000-line log a fifth of its time)."""
    from cudaenv.knowledge import kb
    from cudaenv.knowledge.explain import required_literal
    new = {"container.default_runtime_not_nvidia", "container.argus_socket_not_mounted", "loader.jcuda_native_library",
           "driver.flatpak_gl_extension_missing", "driver.opencl_no_platform", "python.bnb_quantization_without_cuda",
           "loader.opencv_gui_libs_missing", "toolkit.runfile_gcc_check", "toolkit.runfile_driver_component_failed",
           "driver.optix_library_missing", "driver.vulkan_no_nvidia_icd"}
    seen = set()
    for entry in kb.load_entries():
        if entry["id"] in new:
            seen.add(entry["id"])
            for pattern in entry["patterns"]:
                assert required_literal(pattern), (entry["id"], pattern)
    assert seen == new


def test_every_status_frame_holds_a_literal():
    """explain looks for the copied check macros' frames only in a log holding one of their literals, derived from
    status.yaml itself: a frame without one would never be read."""
    from cudaenv.knowledge.explain import required_literal
    from cudaenv.knowledge.explain.derive import knowledge_table
    for frame in knowledge_table("status.yaml")["frames"]:
        assert required_literal(frame["pattern"]), frame
