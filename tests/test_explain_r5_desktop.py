"""Issue 18, round 5, helper "desktop": end-user GPU apps on personal machines (Stable Diffusion
UIs, whisper/faster-whisper, ffmpeg NVENC/NVDEC, OpenCV with CUDA, Blender Cycles), sampled from
public threads in the order a search found them. Each excerpt is quoted (trimmed) from the public
thread above it; the first answer's id and what the first line of its fix holds are what solved
that thread.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

# (text, the first environment answer's id, a string the first line of its fix holds)
CASES = [
    # --- ffmpeg NVENC built for a newer NVENC API than the driver offers ---------------------------
    # https://github.com/HandBrake/HandBrake/issues/5641
    ("[h264_nvenc @ 000001aedcf7e740] Driver does not support the required nvenc API version. Required: 12.1 Found: 12.0\n"
     "[h264_nvenc @ 000001aedcf7e740] The minimum required Nvidia driver for nvenc is (unknown) or newer\n"
     "[13:17:25] encavcodecInit: avcodec_open failed\nFailure to initialise thread 'FFMPEG encoder (libavcodec)'",
     "driver.nvenc_api_too_old", "531.61"),
    # https://github.com/GyanD/codexffmpeg/issues/161 (solved by driver 531.61)
    ("When I encoding YUV  file(.yuv), the console displays the following error:\n"
     "[h264_nvenc @ 000002faa5950d40] Driver does not support the required nvenc API version. Required: 12.1 Found: 12.0\n"
     "[h264_nvenc @ 000002faa5950d40] The minimum required Nvidia driver for nvenc is (unknown) or newer",
     "driver.nvenc_api_too_old", "Upgrade the NVIDIA driver"),
    # https://github.com/GyanD/codexffmpeg/issues/181 ("For NVENCAPI 13.0, driver ver 570.0 will work")
    ("Driver does not support the required nvenc API version. Required: 13.0 Found: 12.2\n"
     "The minimum required Nvidia driver for nvenc is (unknown) or newer",
     "driver.nvenc_api_too_old", "570"),
    # https://github.com/ladaapp/lada/issues/130 (PyAV's bundled ffmpeg)
    ("ERROR:libav.h264_nvenc:Driver does not support the required nvenc API version. Required: 13.0 Found: 12.2\n"
     "ERROR:libav.h264_nvenc:The minimum required Nvidia driver for nvenc is (unknown) or newer\n"
     "Error on export [Errno 40] Function not implemented: 'avcodec_open2(h264_nvenc)'",
     "driver.nvenc_api_too_old", "570"),
    # https://github.com/AlphaAtlas/VapourSynthColab/issues/4
    ("[hevc_nvenc @ 0x560aa0890480] Driver does not support the required nvenc API version. Required: 9.1 Found: 9.0\n"
     "[hevc_nvenc @ 0x560aa0890480] The minimum required Nvidia driver for nvenc is 435.21 or newer\n"
     "Error initializing output stream 0:0 -- Error while opening encoder for output stream #0:0",
     "driver.nvenc_api_too_old", "435.21"),
    # --- the driver's video libraries (libnvidia-encode, libnvcuvid) not loadable ------------------
    # https://github.com/styler00dollar/VSGAN-tensorrt-docker/issues/42 (NVIDIA_DRIVER_CAPABILITIES=all)
    ("[hevc_nvenc @ 0x55ca461fa380] Cannot load libnvidia-encode.so.1\n"
     "[hevc_nvenc @ 0x55ca461fa380] The minimum required Nvidia driver for nvenc is (unknown) or newer",
     "driver.video_libs_not_loaded", "NVIDIA_DRIVER_CAPABILITIES"),
    # https://github.com/Huanshere/VideoLingo/issues/406 (docker)
    ("  subtitles -> Stream #0:0 (h264_nvenc)\n[h264_nvenc @ 0x55bd94c6bb40] Cannot load libnvidia-encode.so.1\n"
     "[h264_nvenc @ 0x55bd94c6bb40] The minimum required Nvidia driver for nvenc is 435.21 or newer\n"
     "Error initializing output stream 0:0 -- Error while opening encoder for output stream #0:0\nConversion failed!",
     "driver.video_libs_not_loaded", "NVIDIA_DRIVER_CAPABILITIES"),
    # https://github.com/NVIDIA/nvidia-docker/issues/531
    ("ffmpeg -hwaccel cuvid -c:v h264_cuvid -i file.mxf -vf scale_npp=1280:720 -c:v h264_nvenc file2.mxf\n"
     "Cannot load libnvcuvid.so.1\n[h264_cuvid @ 0x3a46360] Failed loading nvcuvid.",
     "driver.video_libs_not_loaded", "NVIDIA_DRIVER_CAPABILITIES"),
    # https://github.com/NixOS/nixpkgs/issues/218859 (mpv under Nix)
    ("[ffmpeg/video] h264: Cannot load libnvcuvid.so.1\n[ffmpeg/video] h264: Failed loading nvcuvid.\n"
     "[ffmpeg/video] h264: Failed setup for format cuda: hwaccel initialisation returned error.\n"
     " - host os: `Linux 6.1.13-xanmod1, NixOS, 23.05 (Stoat)`",
     "driver.video_libs_not_loaded", "Nix"),
    # ffmpeg's own "Cannot load libcuda.so.1": https://github.com/NixOS/nixpkgs/issues/77834
    ("[h264_nvenc @ 0x5e28c0] Cannot load libcuda.so.1\n"
     "Error initializing output stream 0:0 -- Error while opening encoder for output stream #0:0 - maybe incorrect "
     "parameters such as bit_rate, rate, width or height",
     "runtime.libcuda_not_found", "install the driver"),
    # https://github.com/NixOS/nixpkgs/issues/216628
    ("MPVProcess::parseLine: \"[ffmpeg] AVHWDeviceContext: Cannot load libcuda.so.1\n"
     "MPVProcess::parseLine: \"[ffmpeg] AVHWDeviceContext: Could not dynamically load CUDA\"",
     "runtime.libcuda_not_found", "install the driver"),
    # bitsandbytes' CUDA SETUP on WSL (text-generation-webui): https://github.com/oobabooga/textgen/issues/367
    # (export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/lib/wsl/lib solved it, also oobabooga/textgen#1035)
    ("(textgen) eugeo@DESKTOP-88L7K4D:/mnt/c/Users/eugeo/Documents/dev/python/oobabooga/text-generation-webui$ python "
     "server.py --model llama-7b --load-in-8bit\n"
     "CUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so\n"
     "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you are on a cluster, make sure "
     "you are on a CUDA machine!\n"
     "CUDA SETUP: Loading binary /home/eugeo/miniconda3/envs/textgen/lib/python3.10/site-packages/bitsandbytes/"
     "libbitsandbytes_cpu.so...",
     "runtime.libcuda_not_found", "/usr/lib/wsl/lib"),
    # --- OpenCV without CUDA -------------------------------------------------------------------------
    # https://github.com/opencv/opencv/issues/18229
    ("[ WARN:0] global /tmp/pip-req-build-sw_3pm_8/opencv/modules/dnn/src/dnn.cpp (1429) setUpNet DNN module was not "
     "built with CUDA backend; switching to CPU",
     "python.opencv_without_cuda", "pip uninstall -y opencv-python"),
    # https://github.com/opencv/opencv/issues/15858
    ("dnn.cpp (1314) cv::dnn::dnn4_v20191024::Net::Impl::setUpNet DNN module was not built with CUDA backend; switching to CPU",
     "python.opencv_without_cuda", "getBuildInformation"),
    # https://github.com/ai-aimbot/AIMr/issues/8
    ("[WARN:0@2.582] global net_impl.cpp:174 cv::dnn::dnn4_v20221220::Net::Impl::setUpNet DNN module was not built "
     "with CUDA backend; switching to CPU",
     "python.opencv_without_cuda", "getBuildInformation"),
    # --- Blender Cycles / LuxCore PTX newer than the driver --------------------------------------------
    # https://github.com/allenai/objaverse-rendering/issues/5
    ("Blender 3.2.2 (hash bcfdb14560e7 built 2022-08-02 23:38:01)\n=================== CYCLES ===================\n"
     "Failed to load CUDA kernel from '/comp_robot/caohe/code/3d/objaverse-rendering/blender-3.2.2-linux-x64/3.2/"
     "scripts/addons/cycles/lib/kernel_compute_75.ptx' (Unsupported PTX version)",
     "runtime.unsupported_ptx", "Upgrade the NVIDIA driver"),
    # https://github.com/LuxCoreRender/LuxCore/issues/490
    ("RUNTIME ERROR: CUDA driver API error CUDA_ERROR_UNSUPPORTED_PTX_VERSION (code: 222, file: "
     "src/luxrays/utils/cuda.cpp, line: 221): the provided PTX was compiled with an unsupported toolchain.",
     "runtime.unsupported_ptx", "Upgrade the NVIDIA driver"),
    # https://github.com/Genesis-Embodied-AI/genesis-world/issues/641
    ("[console] [warning] The PTX version is not supported by the installed CUDA driver. Trying to patch the PTX to "
     "make it compatible with the driver. Please consider upgrading your CUDA driver. "
     "[/home/u/Genesis/genesis/ext/LuisaRender/src/compute/src/backends/cuda/cuda_shader.cpp:13]",
     "runtime.unsupported_ptx", "Upgrade the NVIDIA driver"),
    # --- Stable Diffusion UIs: torch without CUDA in the app's Python ------------------------------------
    # https://github.com/Comfy-Org/ComfyUI/issues/2427 (force-reinstall torch from the cu118 index)
    ("File \"C:\\Users\\Luna\\Documents\\ComfyUI_windows_portable\\python_embeded\\lib\\site-packages\\torch\\cuda\\"
     "__init__.py\", line 289, in _lazy_init\n    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
     "AssertionError: Torch not compiled with CUDA enabled",
     "torch.cpu_build", "--force-reinstall torch"),
    # https://github.com/pydn/ComfyUI-to-Python-Extension/issues/55
    ("  File \"D:\\ComfyUI\\ComfyUI-to-Python-Extension\\..\\comfy\\model_management.py\", line 89, in get_torch_device\n"
     "    return torch.device(torch.cuda.current_device())\n"
     "  File \"D:\\ComfyUI\\.venv\\Lib\\site-packages\\torch\\cuda\\__init__.py\", line 284, in _lazy_init\n"
     "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\nAssertionError: Torch not compiled with CUDA enabled",
     "torch.cpu_build", "--force-reinstall torch"),
    # https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/3157 (CPU torch: force-reinstall from cu116)
    ("venv \"F:\\StableD\\stable-diffusion-webui\\venv\\Scripts\\Python.exe\"\n"
     "  File \"F:\\StableD\\stable-diffusion-webui\\launch.py\", line 257, in prepare_environment\n"
     "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check",
     "python.webui_torch_no_gpu", "--force-reinstall torch"),
    # https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/9970 (ROCm torch on an NVIDIA laptop)
    ("Installing torch and torchvision\nLooking in indexes: https://download.pytorch.org/whl/rocm5.4.2\n"
     "Collecting torch==2.0.1+rocm5.4.2\n"
     "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check",
     "python.webui_torch_no_gpu", "TORCH_COMMAND"),
]


test_desktop_first_answer = first_answer_tests(CASES)
