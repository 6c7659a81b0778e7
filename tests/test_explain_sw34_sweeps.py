"""Round 33's second sweeps, made for the next held-out round after fresh33 was judged (61 messages from 52 producers:
projects' own build systems; GPU programs outside the Python stack at run time; Jetson, WSL, cloud and Kubernetes; 44
missed), widened into families:

- CUDA.jl told to use a local toolkit newer than it knows; TensorFlow's bazel build not configured for CUDA; XLA's
  hermetic CUDA given a version its table lacks; Spack's +cuda without cuda_arch; Kokkos' CMake with no architecture;
  OpenCV's DNN CUDA backend below compute capability 5.3; a CUDA 10.0 without cuBLASLt;
- __grid_constant__ before CUDA 11.7; a C++20/23 standard header older than the host gcc's library;
- NVIDIA's OpenCL compiler (driver 465+) refusing old kernels' address-space conversion;
- GKE nodes without the driver; the GPU Operator's driver container without RHEL's kernel packages;
- Jetson: JetPack 4's empty placeholder libraries in a `docker build`, TensorRT's lower-case wording;
- ggml's older out-of-memory line and its pinned-memory warning; flash-attn's setup.py without CUDA_HOME
  (bare_metal_version); CMake's Visual-Studio-only "No CUDA toolset found." pasted alone.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
import pytest

from explain_answers import assert_first_answer

SW34_CASES = [
    # JuliaGPU/CUDA.jl#715
    (('`CUDA.jl does not yet support CUDA with nvdisasm 11.2.135`\n'),
     'julia.cudajl_local_toolkit_unsupported', 'Let CUDA.jl use the toolkit it downloads'),
    # JuliaGPU/CUDA.jl#1089
    (('"Error: CUDA.jl does not yet support CUDA with ptxas 11.3.109" when using "JULIA_CUDA_USE_BINARYBUILDER=false"\n'),
     'julia.cudajl_local_toolkit_unsupported', 'Let CUDA.jl use the toolkit it downloads'),
    # tensorflow/tensorflow#7871
    (('ERROR: /home/molys/.cache/bazel/_bazel_root/f7299e5dc785b6a7f5b5291a103be54f/external/local_config_cuda/crosstool/BUILD:4:1: Traceback (most recent call last):\n'
     '\tFile "/home/molys/.cache/bazel/_bazel_root/f7299e5dc785b6a7f5b5291a103be54f/external/local_config_cuda/crosstool/BUILD", line 4\n'
     '\t\terror_gpu_disabled()\n'
     '\tFile "/home/molys/.cache/bazel/_bazel_root/f7299e5dc785b6a7f5b5291a103be54f/external/local_config_cuda/crosstool/error_gpu_disabled.bzl", line 3, in error_gpu_disabled\n'
     '\t\tfail("ERROR: Building with --config=c...")\n'
     "ERROR: Building with --config=cuda but TensorFlow is not configured to build with GPU support. Please re-run ./configure and enter 'Y' at the prompt to build with GPU support.\n"
     "ERROR: no such target '@local_config_cuda//crosstool:toolchain': target 'toolchain' not declared in package 'crosstool' defined by /home/molys/.cache/bazel/_bazel_root/f7299e5dc785b6a7f5b5291a103be54f/external/local_config_cuda/crosstool/BUILD.\n"
     'INFO: Elapsed time: 0.464s\n'),
     'tf.bazel_not_configured_for_cuda', 'Run `./configure` again'),
    # JuliaPackaging/Yggdrasil PR 10292
    (('[23:16:10] ERROR: /workspace/srcdir/Reactant.jl/deps/ReactantExtra/WORKSPACE:241:26: fetching cuda_redist_json rule //external:cuda_redist_json: Traceback (most recent call last):\n'
     '[23:16:10] \tFile "/workspace/bazel_root/097636303b1142f44508c1d8e3494e4b/external/tsl/third_party/gpus/cuda/hermetic/cuda_json_init_repository.bzl", line 50, column 13, in _cuda_redist_json_impl\n'
     '[23:16:10] \t\tfail(\n'
     '[23:16:10] Error in fail: The supported CUDA versions are ["11.8", "12.1.1", "12.2.0", "12.3.1", "12.3.2", "12.4.0", "12.4.1", "12.5.0", "12.5.1", "12.6.0", "12.6.1", "12.6.2", "12.6.3"]. Please provide a supported version in HERMETIC_CUDA_VERSION environment variable or add JSON URL for CUDA version=none.\n'
     '[23:16:10] ERROR: Error computing the main repository mapping: no such\n'),
     'xla.hermetic_cuda_version_unsupported', 'Give a version the message lists'),
    # huggingface/candle#2360
    (('kernels/flash_fwd_launch_template.h(30): error: incomplete type is not allowed\n'
     '\n'
     '  kernels/flash_fwd_launch_template.h(30): error: identifier "__grid_constant__" is undefined\n'
     '\n'
     '  kernels/flash_fwd_launch_template.h(30): error: expected a ")"\n'
     '\n'
     '  kernels/flash_fwd_launch_template.h(30): error: expected a ";"\n'
     '\n'
     '  At end of source: error: expected a ";"\n'
     '\n'
     '  5 errors detected in the compilation of "kernels/flash_fwd_hdim32_fp16_sm80.cu".\n'
     '  # --error 0x1 --\n'),
     'nvcc.grid_constant_too_old', 'Build with CUDA 11.7 or newer'),
    # OE4T/meta-tegra#1982
    (('test.cu:1:10: fatal error: format: No such file or directory\n'
     '    1 | #include <format>\n'
     '      |          ^~~~~~~~\n'),
     'build.std_header_too_new_for_host_compiler', 'Build with a newer gcc'),
    # spack/spack PR 30910
    (('$ spack spec py-torch+cuda\n'
     '==> Error: Must specify CUDA compute capabilities of your GPU, see https://developer.nvidia.com/cuda-gpus\n'),
     'spack.cuda_arch_missing', 'Name the architecture of the GPU'),
    # Dao-AILab/causal-conv1d PR 112
    (("NameError: name 'bare_metal_version' is not defined\n"),
     'torch.cuda_home_not_set', "If `cudaenv list` shows a toolkit of torch's CUDA "),
    # abetlen/llama-cpp-python#247
    (('No CUDA toolset found.\n'),
     'cmake.no_cuda_compiler', 'Run the CUDA installer again after Visual Studio i'),
    # openwall/john#5338
    (('Device 3: NVIDIA GeForce RTX 2080 Ti\n'
     'Using default input encoding: UTF-8\n'
     'Loaded 1 password hash (dmg-opencl, Apple DMG [PBKDF2-SHA1 3DES/AES OpenCL])\n'
     'Cost 1 (iteration count) is 128205 for all loaded hashes\n'
     'Cost 2 (version) is 2 for all loaded hashes\n'
     'Options used: -I run/kernels -cl-mad-enable -DSM_MAJOR=7 -DSM_MINOR=5 -D__GPU__ -DDEVICE_INFO=1048594 -D__SIZEOF_HOST_SIZE_T__=8 -DDEV_VER_MAJOR=516 -DDEV_VER_MINOR=94 -D_OPENCL_COMPILER -DHASH_LOOPS=500 -DOUTLEN=32 -DV_WIDTH=1 run/kernels/dmg_kernel.cl\n'
     'Build log: <kernel>:112:21: error: implicit conversion from address space "generic" to address space "private" is not supported when passing to parameter of destination type\n'
     '        hmac_sha1(key, 20, (const uchar*)&cno, 4, iv, 20);\n'
     '                           ^~~~~~~~~~~~~~~~~~\n'
     "run/kernels\\opencl_hmac_sha1.h:28:43: note: passing argument to parameter '_data' here\n"
     '                      HMAC_MSG_TYPE void *_data, uint data_len,\n'
     '                                          ^\n'),
     'opencl.kernel_address_space_newer_driver', 'Update the program'),
    # 3rdIteration/btcrecover#176
    (('<kernel>:494:71: error: implicit conversion from address space "generic" to address space "private" is not supported when passing to parameter of destination type\n'
     '    hash_private(input_2, hashBlockSize_bytes + hashDigestSize_bytes, output);\n'
     '                                                                      ^~~~~~\n'
     "<kernel>:393:1: note: passing argument to parameter 'hash' here\n"
     'def_hash(hash_private, __private, __private, md_pad__private, printFromLong_n)\n'
     '^\n'
     "<kernel>:304:103: note: expanded from macro 'def_hash'\n"
     'static void funcName(inputTag unsigned long *input, const unsigned int length, hashTag unsigned long* hash)    \\\n'
     '                                                                                                      ^\n'
     '(options: -I c:\\Python39\\lib\\site-packages\\pyopencl\\cl)\n'
     '(source saved as C:\\Users\\elmer\\AppData\\Local\\Temp\\tmp02en5qee.cl)\n'
     'clBuildProgram failed: BUILD_PROGRAM_FAILURE - clBuildProgram failed: BUILD_PROGRAM_FAILURE - clBuildProgram failed: BUILD_PROGRAM_FAILURE\n'),
     'opencl.kernel_address_space_newer_driver', 'Update the program'),
    # codalab/codalab-worksheets#3863
    (('Events:\n'
     '  Type     Reason       Age                   From               Message\n'
     '  ----     ------       ----                  ----               -------\n'
     '  Normal   Scheduled    5m20s                 default-scheduler  Successfully assigned kube-system/nvidia-gpu-device-plugin-6w7k5 to gke-tonyhlee-cluster-usw-default-pool-7441cd8f-k140\n'
     '  Warning  FailedMount  3m17s                 kubelet            Unable to attach or mount volumes: unmounted volumes=[nvidia], unattached volumes=[device-plugin dev nvidia pod-resources default-token-kxwh4]: timed out waiting for the condition\n'
     '  Warning  FailedMount  70s (x10 over 5m19s)  kubelet            MountVolume.SetUp failed for volume "nvidia" : hostPath type check failed: /home/kubernetes/bin/nvidia is not a directory\n'),
     'k8s.gke_driver_not_installed', 'Install the driver on the GPU nodes'),
    # NVIDIA/gpu-operator#234
    (('Installing Linux kernel headers...\n'
     "+ echo 'Installing Linux kernel headers...'\n"
     '+ dnf -q -y --releasever=8.3 install kernel-headers-4.18.0-240.23.2.el8_3.x86_64 kernel-devel-4.18.0-240.23.2.el8_3.x86_64\n'
     'Error: Unable to find a match: kernel-headers-4.18.0-240.23.2.el8_3.x86_64 kernel-devel-4.18.0-240.23.2.el8_3.x86_64\n'),
     'k8s.driver_container_kernel_packages', 'On OpenShift 4.9 or newer'),
    # NVIDIA/gpu-operator#64
    (('oc logs nvidia-driver-daemonset-5pn8w -n gpu-operator-resources, \n'
     '\n'
     'dnf install -q -y elfutils-libelf.x86_64 elfutils-libelf-devel.x86_64\n'
     'Error: Unable to find a match: elfutils-libelf-devel.x86_64\n'),
     'k8s.driver_container_kernel_packages', 'On OpenShift 4.9 or newer'),
    # dusty-nv/jetson-inference#426
    (('the engine plan file is not compatible with this version of tensorRT, expecting library version 5.1.6 got 5.0.6\n'),
     'tensorrt.engine_other_version', 'Build the engine again here with the installed Ten'),
    # dusty-nv/jetson-inference#1290
    (('/usr/lib/aarch64-linux-gnu/libcublas.so  file not recognized: File truncated\n'
     'root@2705d68d0852:/# ll /usr/lib/aarch64-linux-gnu/libcublas.so.10.2.2.89 \n'
     '-rw-r--r-- 1 root root 0 Jul  1  2020 /usr/lib/aarch64-linux-gnu/libcublas.so.10.2.2.89\n'
     'root@2705d68d0852:/# file /usr/lib/aarch64-linux-gnu/libcublas.so.10.2.2.89 \n'
     '/usr/lib/aarch64-linux-gnu/libcublas.so.10.2.2.89: empty\n'),
     'loader.cuda_library_file_damaged', "Make nvidia docker's default runtime"),
    # ggml-org/llama.cpp#1230
    (('llama_model_load_internal: model size = 13B\n'
     'llama_model_load_internal: ggml ctx size = 8740093.73 KB\n'
     'llama_model_load_internal: mem required  = 10583.25 MB (+ 1608.00 MB per state)\n'
     'CUDA error 2 at ggml-cuda.cu:359: out of memory\n'),
     'runtime.out_of_memory', 'Use less memory: a smaller batch, shorter sequence'),
    # opencv/opencv#15930 (the DNN CUDA backend with architectures below 5.3 left in CUDA_ARCH_BIN)
    ("CMake Error at modules/dnn/CMakeLists.txt:97 (message):\n  CUDA backend for DNN module requires CC 5.3 or higher.  Please "
     "remove\n  unsupported architectures from CUDA_ARCH_BIN option.\n",
     'build.opencv_dnn_cuda_arch', 'Configure again with only the architectures of the GPUs you run on'),
    # jax-ml/jax#4705 (jaxlib built against CUDA 10.0; cuBLASLt arrived in 10.1)
    ("Repository command failed\nNo library found under: /usr/local/cuda-10.0/targets/x86_64-linux/lib/libcublasLt.so.10.0\n",
     'build.cuda100_no_cublaslt', 'Build against a CUDA 10.1 or newer toolkit'),
]

SW34_OTHER_WORDS = [
    # kokkos/kokkos's CMake with no architecture given and none detected
    ("CMake Error at cmake/kokkos_arch.cmake:418 (STRING):\n  STRING sub-command REPLACE requires at least four arguments.\n"
     "Call Stack (most recent call first):\n  cmake/kokkos_tribits.cmake:202 (INCLUDE)\n",
     'build.gpu_autodetect_failed', 'Name the architecture of the GPU you will run on'),
    # heterodb/pg-strom#262 (a Quadro K600 marked NOT SUPPORTED; the maintainer: 3.5 or newer)
    ("LOG:  GPU0 Quadro K600 (1 SMs, 875MHz), L2 256KB, RAM 980MB (128bits, 891MHz), capability 3.0, NOT SUPPORTED\n"
     "FATAL:  No supported CUDA devices, PG-Strom was disabled\n",
     'gpu.below_library_minimum', 'Run PG-Strom on a GPU it supports'),
    # glotzerlab/hoomd-blue#1169 (HOOMD 3's "computed capability" on a K80: HOOMD 2.x or a 6.0+ GPU)
    ('  File ".../site-packages/hoomd/device.py", line 214, in __init__\n'
     "RuntimeError: No supported GPUs are present on this system.\n"
     "The device Tesla K80 with computed capability 3.7 does not support HOOMD-blue.\n",
     'gpu.below_library_minimum', 'Run it on a GPU of compute capability 6.0 or newer'),
    # CUDA.jl's words for another local tool
    (('ERROR: CUDA.jl does not yet support CUDA with nvcc 12.9.41\n'),
     'julia.cudajl_local_toolkit_unsupported', 'Let CUDA.jl use the toolkit it downloads'),
    # TensorFlow's other header line
    (("ERROR: Building with --config=cuda but TensorFlow is not configured to build with GPU support. Please re-run ./configure and enter 'Y' at the prompt to build with GPU support.\n"),
     'tf.bazel_not_configured_for_cuda', 'Run `./configure` again'),
    # <expected> with an older gcc
    (('src/io.cpp:3:10: fatal error: expected: No such file or directory\n'
     '    3 | #include <expected>\n'),
     'build.std_header_too_new_for_host_compiler', 'Build with a newer gcc'),
    # Spack's variant conflict
    (('==> Error: Conflicts in concretized spec "kokkos@4.3.00+cuda cuda_arch=none"\n'
     '1. "cuda_arch=none" conflicts with "+cuda"\n'),
     'spack.cuda_arch_missing', 'Name the architecture of the GPU'),
]


@pytest.mark.parametrize("text,want_id,want_fix", SW34_CASES + SW34_OTHER_WORDS,
                         ids=[f"{c[1]}-{n}" for n, c in enumerate(SW34_CASES + SW34_OTHER_WORDS)])
def test_sweep34_first_answers(text, want_id, want_fix):
    assert_first_answer(text, want_id, want_fix, where=text[:80], verdicts=want_id == "runtime.out_of_memory")


@pytest.mark.parametrize("text,not_id", [
    # dnf missing a package that is not the kernel's, outside a driver container
    ("Error: Unable to find a match: python3-foo\n", "k8s.driver_container_kernel_packages"),
    # the kernel headers missing on a plain RHEL host with no operator in the log
    ("Error: Unable to find a match: kernel-devel-5.14.0-70.el9.x86_64\n", "k8s.driver_container_kernel_packages"),
    # another hostPath volume
    ('MountVolume.SetUp failed for volume "data" : hostPath type check failed: /data is not a directory\n',
     "k8s.gke_driver_not_installed"),
    # a real empty library elsewhere than Jetson's placeholders keeps the damaged-download reading
    ("/usr/local/cuda/lib64/libcudnn.so: file not recognized: File truncated\n", None),
])
def test_sweep34_counter_cases(text, not_id):
    from cudaenv.knowledge.explain import explain

    got = explain(text)
    if not_id is None:
        assert got and got[0].id == "loader.cuda_library_file_damaged" and "placeholder" not in got[0].title
    else:
        assert not_id not in [m.id for m in got]
