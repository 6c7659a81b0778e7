"""`cudaenv explain`, round 5, slice "infra": where GPUs are provisioned and CUDA is built automatically
(docker / nvidia-container-toolkit, Kubernetes, cloud notebooks, CI, Nix, Ray).

Each tuple is a short verbatim (trimmed) excerpt of a public thread (URL above it), the entry explain's
FIRST environment answer must be, and a substring of the first line of its fix: the fix that solved that
thread. Threads were sampled in the order a search found them (see the round-5 brief), then the misses
were widened as families with more threads of the same cause.
"""

from __future__ import annotations

from explain_answers import first_answer_tests

CASES = [
    # ---- sampled threads explain already answered right first (kept so they stay right)
    # https://github.com/googlecolab/colabtools/issues/1685
    ("RuntimeError: The NVIDIA driver on your system is too old (found version 10010). Please update your GPU driver "
     "by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx "
     "Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version "
     "of the CUDA driver.", "runtime.insufficient_driver", "install the build of the program made for that CUDA"),
    # https://github.com/Kaggle/docker-python/issues/1546 (P100 on Kaggle, torch built for sm_70+)
    ("/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:435: UserWarning: \n"
     "Tesla P100-PCIE-16GB with CUDA capability sm_60 is not compatible with the current PyTorch installation.\n"
     "The current PyTorch install supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.\n"
     "If you want to use the Tesla P100-PCIE-16GB GPU with PyTorch, please check the instructions at "
     "https://pytorch.org/get-started/locally/", "torch.arch_unsupported", "sm_60"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/303
    ("2022/05/13 23:09:23 Loading NVML\n2022/05/13 23:09:23 Failed to initialize NVML: could not load NVML library.\n"
     "2022/05/13 23:09:23 If this is a GPU node, did you set the docker default runtime to 'nvidia'?",
     "container.k8s_nvml_unavailable", "default runtime"),
    # https://github.com/NVIDIA/k8s-device-plugin/issues/23
    ("loading NVML\nFailed to start nvml with error:  could not load NVML library", "container.k8s_nvml_unavailable",
     "default runtime"),
    # https://github.com/docker/for-win/issues/13835 (the drivers were not installed)
    ("nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object "
     "file: no such file or directory: unknown.", "container.host_driver_missing", "install the driver"),

    # ---- container.host_driver_missing widened: "driver error: failed to process request", the GPU operator's
    # nvidia-container-cli.real, "cuda error: unknown error"
    # https://github.com/NVIDIA/gpu-operator/issues/130
    ('Error: failed to start container "nvidia-driver-ctr": Error response from daemon: OCI runtime create failed: '
     "container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running "
     "hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli.real: initialization error: "
     "driver error: failed to process request: unknown", "container.host_driver_missing", "nvidia-persistenced"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1252
    ('docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process '
     'caused "process_linux.go:449: container init caused \\"process_linux.go:432: running prestart hook 1 caused '
     '\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: driver '
     'error: failed to process request\\\\\\\\n\\\\\\"\\"": unknown.', "container.host_driver_missing",
     "nvidia-persistenced"),
    # https://github.com/NVIDIA/libnvidia-container/issues/103 (a restart of the machine solved it; already known)
    ("nvidia-container-cli: initialization error: cuda error: unknown error", "driver.unknown_error", "reboot the host"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/556 (persistence mode, per the maintainer)
    ("nvidia-container-cli: initialization error: driver rpc error: failed to process request: unknown.",
     "container.host_driver_missing", "nvidia-persistenced"),

    # ---- runtime.libcuda_not_found, Nix: /run/opengl-driver/lib, nixGL, or the host's libcuda
    # https://github.com/NixOS/nixpkgs/issues/46032
    ("ldd /nix/store/djiwnlid23xwc5kig4z04f8w5zxjfzs4-python3-3.6.6-env/lib/python3.6/site-packages/torch/"
     "_nvrtc.cpython-36m-x86_64-linux-gnu.so  | grep cuda\n\tlibcuda.so.1 => not found\n\tlibnvrtc.so.9.1 => "
     "/nix/store/1636k54rcgcqc77z0gww0d8xg0dlrr2h-cudatoolkit-9.1.85.1-unsplit/lib64/libnvrtc.so.9.1 "
     "(0x00007fdd92433000)", "runtime.libcuda_not_found", "LD_PRELOAD"),
    # https://github.com/NixOS/nixpkgs/issues/127329
    ("/nix/store/wm8l3c3ngx85bk9rhrndw6kpyq1gzh4i-python3-3.8.9-env\n2021-06-18 17:29:25.294458: W tensorflow/"
     "stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libcuda.so.1'; dlerror: "
     "libcuda.so.1: cannot open shared object file: No such file or directory\n2021-06-18 17:29:25.294475: W "
     "tensorflow/stream_executor/cuda/cuda_driver.cc:326] failed call to cuInit: UNKNOWN ERROR (303)",
     "runtime.libcuda_not_found", "nixGL"),
    # https://github.com/NixOS/nixpkgs/issues/77834 (nixGL or LD_LIBRARY_PATH to the host's libcuda.so.1)
    ("When trying to encode with `ffmpeg -i my_vid.mp4 -c:v h264_nvenc nvenc_test.mp4`, I get the following error:\n"
     "[h264_nvenc @ 0x5e28c0] Cannot load libcuda.so.1\nError initializing output stream 0:0 -- Error while opening "
     "encoder for output stream #0:0 - maybe incorrect parameters such as bit_rate, rate, width or height\n"
     'openat(AT_FDCWD, "/nix/store/m7s79nz19n92s0xb3y2h89rs992nmxgy-systemd-243.3-lib/lib/libcuda.so.1", '
     "O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)", "runtime.libcuda_not_found", "nixGL"),
    # https://github.com/NixOS/nixpkgs/issues/216628 (NixOS)
    ('[00:18:41:607] MPVProcess::parseLine: "[ffmpeg] AVHWDeviceContext: Cannot load libcuda.so.1\n'
     '[00:18:41:607] MPVProcess::parseLine: "[ffmpeg] AVHWDeviceContext: Could not dynamically load CUDA"\n'
     " - host os: `Linux 6.1.11, NixOS, 23.05 (Stoat), 23.05.20230213.545c7a3`", "runtime.libcuda_not_found",
     "On another distribution"),

    # ---- driver.video_libs_not_loaded: NVENC/NVDEC not handed into the container
    # https://github.com/styler00dollar/VSGAN-tensorrt-docker/issues/42
    ("[hevc_nvenc @ 0x55ca461fa380] Cannot load libnvidia-encode.so.1  \n[hevc_nvenc @ 0x55ca461fa380] The minimum "
     "required Nvidia driver for nvenc is (unknown) or newer", "driver.video_libs_not_loaded",
     "NVIDIA_DRIVER_CAPABILITIES=compute,utility,video"),
    # https://github.com/Huanshere/VideoLingo/issues/406
    ("[h264_nvenc @ 0x55bd94c6bb40] Cannot load libnvidia-encode.so.1\n[h264_nvenc @ 0x55bd94c6bb40] The minimum "
     "required Nvidia driver for nvenc is 435.21 or newer\nError initializing output stream 0:0 -- Error while opening "
     "encoder for output stream #0:0 - maybe incorrect parameters such as bit_rate, rate, width or height\n"
     "Conversion failed!", "driver.video_libs_not_loaded", "NVIDIA_DRIVER_CAPABILITIES"),
    # https://github.com/NVIDIA/nvidia-docker/issues/531
    ("ffmpeg -hwaccel cuvid -c:v h264_cuvid -i file.mxf -vf scale_npp=1280:720 -c:v h264_nvenc file2.mxf\n"
     "Cannot load libnvcuvid.so.1\n[h264_cuvid @ 0x3a46360] Failed loading nvcuvid.", "driver.video_libs_not_loaded",
     "NVIDIA_DRIVER_CAPABILITIES"),
    # ---- gpu.mig_one_device_per_process: one MIG device per CUDA process
    # https://github.com/pytorch/pytorch/issues/130181 (CUDA_VISIBLE_DEVICES set to the MIG slice solved it)
    ('"device >= 0 && device < num_gpus INTERNAL ASSERT FAILED" with torch 2.5.0.dev20240705+cu121 on 2 GPU '
     "NVIDIA-A100-SXM4-80GB-MIG-3g.40gb", "gpu.mig_one_device_per_process", "CUDA_VISIBLE_DEVICES=MIG-"),
    # https://github.com/pytorch/pytorch/issues/131650
    ('Pytorch 2.4, Cuda 12.4: RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at '
     '"/opt/conda/conda-bld/pytorch_1720538439675/work/aten/src/ATen/cuda/CUDAContext.cpp":49, please report\n'
     "> This is wrong as you need to set `CUDA_VISIBLE_DEVICES` to the MIG slice", "gpu.mig_one_device_per_process",
     "CUDA_VISIBLE_DEVICES"),

    # ---- gpu.mig_without_instances
    # https://github.com/ComputeCanada/puppet-magic_castle/pull/276
    ("slurmd: fatal: MIG mode is enabled, but no MIG devices were found. Please either create MIG instances, disable "
     "MIG mode, remove AutoDetect=nvml, or remove GPUs from ...", "gpu.mig_without_instances", "-mig 0"),

    # ---- already right: docker without the NVIDIA Container Toolkit
    # https://github.com/infiniflow/ragflow/issues/9573
    ('i get this error: `Error response from daemon: could not select device driver "nvidia" with capabilities: '
     "[[gpu]]`", "container.no_gpu_runtime", "NVIDIA Container Toolkit"),
    # https://github.com/hiyouga/LlamaFactory/issues/5268
    ('docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]]',
     "container.no_gpu_runtime", "NVIDIA Container Toolkit"),

    # ---- runtime.insufficient_driver on a CI machine without a GPU (variant)
    # https://github.com/SyneRBI/SIRF/issues/1278 (GitHub Actions has no GPU: the tests were disabled there)
    ("""`sirf.Utilities.error: ??? "'\\\\nERROR: CUDA failed to allocate memory in compute_gradient kernel execution: """
     """CUDA driver version is insufficient for CUDA runtime version\\\\n'`\nThis occurs in the `build (gpu)` docker job """
     "of the SB, see e.g. https://github.com/SyneRBI/SIRF-SuperBuild/actions/runs/9865000620/job/27241074266#step:9:29413",
     "runtime.insufficient_driver", "runner with a GPU"),
    # https://github.com/TomographicImaging/CCPi-Regularisation-Toolkit/issues/79 (skip the GPU tests there)
    ("Error: /home/jenkins/workspace/CILsingle/CCPi-Regularisation-Toolkit/Core/regularisers_GPU/Diffus_4thO_GPU_core.cu"
     ":234, code: 35, reason: CUDA driver version is insufficient for CUDA runtime version\nTests failed for "
     "ccpi-regulariser-0.10.2-np111py36_0.tar.bz2 - moving package to /home/jenkins/conda-bld/broken",
     "runtime.insufficient_driver", "skip them elsewhere"),
    # ...and not on a machine whose driver is shown, though the binary was built on a runner
    # https://github.com/chenhunghan/ialacol/issues/45
    ("CUDA error 35 at /home/runner/work/ctransformers/ctransformers/models/ggml/ggml-cuda.cu:4236: CUDA driver version "
     "is insufficient for CUDA runtime version\n| NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: "
     "11.7     |", "runtime.insufficient_driver", "upgrade the driver"),

    # ---- already right: Colab's CUDA vs the torch build (cloud notebooks)
    # https://github.com/CVHub520/yolov5_obb/issues/6
    ("RuntimeError: \nThe detected CUDA version (12.2) mismatches the version that was used to compile\nPyTorch (11.6). "
     "Please make sure to use the same CUDA versions.", "torch.cuda_major_mismatch", "cudaenv use"),
    # https://github.com/googlecolab/colabtools/issues/2459
    ("Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have \nmatching "
     "major version and equal or higher minor version. If using a binary install, upgrade your CuDNN library.",
     "tf.cudnn_older_than_built", "8.1.0"),

    # ---- conda.no_cuda_virtual_package: solving where there is no driver (docker build, CI, login node)
    # https://github.com/openmm/NNPOps/issues/96 (CONDA_OVERRIDE_CUDA solved it)
    ("Could not solve for environment specs\nEncountered problems while solving:\n  - nothing provides __cuda needed by "
     "pytorch-1.13.1-cuda112py310he33e0d6_200\n\nThe environment can't be solved, aborting the operation",
     "conda.no_cuda_virtual_package", "CONDA_OVERRIDE_CUDA="),
    # https://github.com/mamba-org/mamba/issues/969 (__cuda 10.2 from the driver, cudatoolkit 11.0 wanted)
    ("`mamba create -n blahhh -c pytorch -c conda-forge cudatoolkit=11.0 pytorch`\nEncountered problems while solving:\n"
     "  - package cudatoolkit-11.0.3-h15472ef_6 has constraint __cuda >=11.0 conflicting with __cuda-10.2-0",
     "conda.no_cuda_virtual_package", "upgrade the NVIDIA driver"),

]


test_first_answer = first_answer_tests(CASES)
