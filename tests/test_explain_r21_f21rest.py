"""Round 21 (helper f21rest): fresh21's burned misses fixed as families, each with the fresh21 log's deciding lines, a
second real member of the family and a near miss that keeps its answer.

- gpu.below_library_minimum: TensorFlow's "Ignoring visible gpu device ... with Cuda compute capability X. The minimum
  required Cuda capability is Y" is a line of over 200 characters, which a paste or a console breaks inside a word of
  "compute capability" (fresh21 u41): the phrase is read with one break anywhere in it.
- runtime.unsupported_ptx: conda put a cudatoolkit newer than the driver in the environment (the log names conda and
  cudatoolkit): the environment's cudatoolkit of the driver's CUDA first, not the driver (fresh21 u66).
- loader.windows_cuda_dll_not_found: the log names the CUDA the DLL belongs to as installed (cudart64_101 and CUDA
  10.1; cudart64_110 and any CUDA 11.x): the DLL is not visible to this process, so visibility comes first, not the
  install of the tested CUDA again (fresh21 u67).
- driver.unknown_error: inside an LXC/LXD container (Proxmox's too) the host's device nodes decide: after a host
  restart /dev/nvidia-uvm exists only once something ran CUDA or nvidia-smi there (fresh21 u32).

Each text is copied from the thread named above it (or from the producer's source, marked so)."""

from explain_answers import first_answer_tests

CASES = [
    # --- gpu.below_library_minimum, TensorFlow's line broken inside a word
    # https://github.com/tensorflow/tensorflow/issues/6125 (fresh21 u41: a wheel rebuilt for compute capability 3.0)
    ("I c:\\tf_jenkins\\home\\workspace\\release-win\\device\\gpu\\os\\windows\\tensorflow\\core\\common_runtime\\gpu\\"
     "gpu_device.cc:948] Ignoring visible gpu device (device: 0, name: GeForce GTX 660 Ti, pci bus id: 0000:01:00.0) "
     "with Cuda c\nompute capability 3.0. The minimum required Cuda capability is 3.5.\n",
     "gpu.below_library_minimum", "Use a TensorFlow built for compute capability 3.0"),
    # the producer's wording (tensorflow/core/common_runtime/gpu/gpu_device.cc: "Ignoring visible gpu device (" ...
    # ") with Cuda compute capability " ... ". The minimum required Cuda capability is " ...), cut at a console's
    # width inside "capability"
    ("2017-03-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:906] Ignoring visible gpu device "
     "(device: 0, name: Quadro K2000, pci bus id: 0000:05:00.0) with Cuda compute capab\nility 3.0. The minimum "
     "required Cuda capability is 3.5.\n",
     "gpu.below_library_minimum", "Use a TensorFlow built for compute capability 3.0"),
    # near miss: the same line whole keeps its answer
    ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:948] Ignoring visible gpu device (device: 0, name: GeForce "
     "GTX 660 Ti, pci bus id: 0000:01:00.0) with Cuda compute capability 3.0. The minimum required Cuda capability is "
     "3.5.\n",
     "gpu.below_library_minimum", "Use a TensorFlow built for compute capability 3.0"),

    # --- runtime.unsupported_ptx, conda's cudatoolkit newer than the driver
    # https://github.com/brennanaba/ImmuneBuilder/issues/13 (fresh21 u66: `conda install openmm cudatoolkit11.6`)
    ("openmm.OpenMMException: Error loading CUDA module: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)[BUG]\n\n"
     "I tracked down the problem to openmm. When I conda installed openmm, it installed cudatoolkit11.8 dependency by "
     "default. It seems like this toolkit was incompatible with my GPUs CUDA (11.6).\n",
     "runtime.unsupported_ptx", "conda install -c conda-forge cudatoolkit="),
    # https://github.com/quantaosun/Dock-MD-FEP/issues/2 (`conda install -c conda-forge cudatoolkit=11.2`)
    ("CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)\n"
     "Use nvidia-smi to print out your cuda version. In my case, it is 11.2. Use conda list | grep cudatoolkit to print "
     "out the cudatoolkit version, in my case it is 11.7.\n",
     "runtime.unsupported_ptx", "conda install -c conda-forge cudatoolkit="),
    # near miss: https://github.com/huggingface/candle/issues/2237 (no conda: a system toolkit, the driver first)
    ("Error: DriverError(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, \"the provided PTX was compiled with an unsupported "
     "toolchain.\") when loading cast_u32_f32\n"
     "Cuda compilation tools, release 12.5, V12.5.40\n",
     "runtime.unsupported_ptx", "upgrade the driver"),

    # --- loader.windows_cuda_dll_not_found, the DLL's CUDA named as installed
    # https://github.com/tensorflow/tensorflow/issues/40804 (fresh21 u67: the DLLs copied to System32, python.org's
    # Python instead of the Microsoft Store's)
    ("- Windows 10\n- tensorflow-gpu 2.2.0\n- Python 3.8.3\n- CUDA version 10.1 (update2)\n"
     "- cudnn-10.1-windows10-x64-v7.6.5.32\n\n"
     "I want to use tensorflow with GPU but I keep receiving this error Could not load dynamic library "
     "'cudart64_101.dll' when I import Tensorflow.\n",
     "loader.windows_cuda_dll_not_found", "is installed (the log names it)"),
    # https://github.com/tensorflow/tensorflow/issues/25807 (CUDA 11.3 installed, cudart64_110.dll in its bin)
    ("2021-06-06 15:22:42.083594: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
     "dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n"
     "I just installed CUDA 11.3, and I can see the `curart64_110.dll` file inside `C:\\Program Files\\NVIDIA GPU "
     "Computing Toolkit\\CUDA\\v11.3\\bin`, and my environment variables look fine.\n",
     "loader.windows_cuda_dll_not_found", "is installed (the log names it)"),
    # near miss: https://github.com/tensorflow/tensorflow/issues/46437 (CUDA 10.2 installed, TF 2.3 asks for 10.1's DLL)
    ("- TensorFlow version: 2.3\n- Python version: 3.8.5\n- CUDA/cuDNN version: 10.2 and 7.6.5\n"
     "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic library "
     "'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n",
     "loader.windows_cuda_dll_not_found", "Install the CUDA and cuDNN of your TensorFlow release's tested build"),

    # --- driver.unknown_error inside an LXC/LXD container
    # https://github.com/community-scripts/ProxmoxVE/issues/8605 (fresh21 u32: nvidia-smi on the Proxmox host, then the
    # LXC started again)
    ("I am using Jellyfin as LXC container thanks to the script. Installed it, configured it and used for a lot of "
     "weeks already. However, since today I am not able to transcode videos using an NVIDIA GPU.\n"
     "lxc.cgroup2.devices.allow: c 188:* rwm\nlxc.cgroup2.devices.allow: c 189:* rwm\n"
     "[AVHWDeviceContext @ 0x5b728ecb6040] cu->cuInit(0) failed -> CUDA_ERROR_UNKNOWN: unknown error\n"
     "Device creation failed: -542398533.\n",
     "driver.unknown_error", "nvidia-modprobe -u -c=0"),
    # https://github.com/canonical/lxd/issues/5618 (LXD: "I re-added NVIDIA-uvm and it worked")
    ("   * LXC version:3.0.3\n   * LXD version:3.0.3\n"
     "root@jty:~/NVIDIA_CUDA-9.0_Samples/1_Utilities/deviceQuery# ./deviceQuery\n./deviceQuery Starting...\n\n"
     " CUDA Device Query (Runtime API) version (CUDART static linking)\n\ncudaGetDeviceCount returned 30\n"
     "-> unknown error\nResult = FAIL\n",
     "driver.unknown_error", "nvidia-modprobe -u -c=0"),
    # near miss: the same ffmpeg line on a bare host keeps the module reload
    ("[AVHWDeviceContext @ 0x5b728ecb6040] cu->cuInit(0) failed -> CUDA_ERROR_UNKNOWN: unknown error\n"
     "Device creation failed: -542398533.\n",
     "driver.unknown_error", "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"),
]

test_first_answer = first_answer_tests(CASES)
