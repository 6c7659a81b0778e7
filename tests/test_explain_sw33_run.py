"""Round 33's run-side sweeps (driver, GPU and containers: 19 messages from 16 producers, 12 missed; Python GPU libraries
and NCCL: 22 messages from 16 producers, 8 missed), widened into families:

- a GPU that CUDA 13 dropped (compute capability below 7.5) with a CUDA 13 runtime picked for it, in CUDA.jl's words;
- a driver whose CUDA is below every release the program supports (CUDA.jl), xmr-stak's and numba's words for a driver
  too old (numba's "Driver missing function" for a function other than cuInit);
- a candle-based server (text-embeddings-inference) built for one compute capability per image;
- podman's GPUs come through CDI; a stale CDI specification naming a file that is not there to mount; no ldconfig on
  the host for nvidia-container-cli;
- bitsandbytes' CPU-fallback library name; NCCL's AWS EFA plugin refused GPU memory by an old libfabric; the pynvml
  package's _v3 calls pinned by their own package name.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
The counter-cases keep their earlier answers.
"""
from explain_answers import first_answer_tests

#: rapidsai/dask-cuda PR 1130's traceback (the gpuopenanalytics pynvml package: site-packages/pynvml/nvml.py)
DASK_PYNVML = ('Unable to start CUDA Context\n'
     'Traceback (most recent call last):\n'
     '  File "/opt/conda/envs/test/lib/python3.8/site-packages/pynvml/nvml.py", line 850, in _nvmlGetFunctionPointer\n'
     '    _nvmlGetFunctionPointer_cache[name] = getattr(nvmlLib, name)\n'
     '  File "/opt/conda/envs/test/lib/python3.8/ctypes/__init__.py", line 386, in __getattr__\n'
     '    func = self.__getitem__(name)\n'
     '  File "/opt/conda/envs/test/lib/python3.8/ctypes/__init__.py", line 391, in __getitem__\n'
     '    func = self._FuncPtr((name_or_ordinal, self))\n'
     'AttributeError: /usr/lib64/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetComputeRunningProcesses_v3\n'
     '\n'
     'During handling of the above exception, another exception occurred:\n'
     '\n'
     'Traceback (most recent call last):\n'
     '  File "/opt/conda/envs/test/lib/python3.8/site-packages/dask_cuda/initialize.py", line 31, in _create_cuda_context\n')

SW33_RUN_CASES = [
    # JuliaGPU/CUDA.jl#3079 (a V100 on a 580 driver; CUDA.jl 6.2 picks a CUDA 12 runtime)
    (('julia> A_gpu = CuArray(A_cpu)\n'
     '┌ Error: Your Tesla V100-PCIE-32GB GPU (compute capability 7.0) is not supported on CUDA 13+.\n'
     '│ Please use a device with at least capability 7.5, or downgrade your NVIDIA driver to below v580.\n'
     '└ @ CUDA /state/partition1/llgrid/pkg/julia/julia-1.12.5/local/share/julia/packages/CUDA/Il00B/lib/cudadrv/state.jl:224\n'
     'ERROR: CUDA error: unknown error (code 999, ERROR_UNKNOWN)\n'
     'Stacktrace:\n'
     '  [1] throw_api_error(res::CUDA.cudaError_enum)\n'
     '    @ CUDA /state/partition1/llgrid/pkg/julia/julia-1.12.5/local/share/julia/packages/CUDA/Il00B/lib/cudadrv/libcuda.jl:30\n'),
     'gpu.below_library_minimum', 'Keep the driver and run the program with a CUDA 12 runtime'),
    # JuliaGPU/CUDA.jl#2231 (a Fermi Quadro 600 whose driver offers CUDA 8.0)
    (('Error: CUDA driver 8.0.0 is not compatible with any supported CUDA toolkit (11.4.4, 11.5.2, 11.6.2, 11.7.1, 11.8.0, 12.0.1, 12.1.1, 12.2.2 or 12.3.1)\n'),
     'runtime.insufficient_driver', 'Install a newer driver if this GPU has one'),
    # huggingface/text-embeddings-inference#34 (a Turing GPU, the default sm_80 image)
    (('Error: Could not create backend\n'
     '\n'
     'Caused by:\n'
     '    Could not start backend: Runtime compute cap 75 is not compatible with compile time compute cap 80\n'),
     'runtime.no_kernel_image', 'Use the build made for this GPU'),
    # NVIDIA/nvidia-container-runtime#190 (podman's --gpus; CDI worked)
    (('$ sudo podman run --rm --gpus all ubuntu nvidia-smi -L\n'
     'Error: crun: executable file `nvidia-smi` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found\n'),
     'container.gpu_command_not_found', 'Generate the CDI spec on the host'),
    # containers/toolbox#1577 (the persistenced socket the CDI spec names)
    (('  $ sudo systemctl start nvidia-persistenced.service\n'
     '  $ toolbox enter\n'
     '  Error: mount: /run/nvidia-persistenced/socket: mount point does not exist.\n'
     '         dmesg(1) may have more information after failed mount system call.\n'
     '  failed to apply mount from Container Device Interface for NVIDIA\n'),
     'container.cdi_spec_missing', 'Generate the specification again'),
    # OE4T/meta-tegra#1427 (a Jetson Yocto image without ldconfig)
    (('fio@jetson-agx-xavier-devkit:~$ docker run -it --rm --net=host --runtime nvidia -e DISPLAY=$DISPLAY -v /tmp/.X11-unix/:/tmp/.X11-unix nvcr.io/nvidia/l4t-cuda:11.4.14-runtime\n'
     'docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig: no such file or directory: unknown.\n'),
     'container.nvidia_cli_ldcache', 'Check the host has the ldconfig'),
    # bitsandbytes-foundation/bitsandbytes#1518 (the CPU-fallback library name; upgrading fixed it)
    (('Required library version not found: libbitsandbytes_cuda124_nocublaslt.so\n'
     '===================================BUG REPORT===================================\n'
     '/home/sklioui/miniconda3/envs/luma_unbias/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py:167: UserWarning: Welcome to bitsandbytes. For bug reports, please run\n'
     '\n'
     'python -m bitsandbytes\n'
     '\n'
     '  warn(msg)\n'
     '================================================================================\n'
     "/home/sklioui/miniconda3/envs/luma_unbias/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py:167: UserWarning: /home/sklioui/miniconda3/envs/luma_unbias did not contain ['libcudart.so', 'libcudart.so.11.0', 'libcudart.so.12.0'] as expected! Searching further paths...\n"
     '  warn(msg)\n'
     "/home/sklioui/miniconda3/envs/luma_unbias/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py:167: UserWarning: /trinity/shared/apps/tr17.10/x86_64/cuda-12.4/lib64 did not contain ['libcudart.so', 'libcudart.so.11.0', 'libcudart.so.12.0'] as expected! Searching further paths...\n"
     '  warn(msg)\n'),
     'bnb.cudart_not_found', 'Install the release wheel'),
    # awslabs/awsome-distributed-ai#203 (EFA installer before 1.29.1 with NCCL 2.19+)
    (('register_rail_mr_buffer:617 NCCL WARN NET/OFI Unable to register memory (type = 2) for device 4. RC: -22, Error: Invalid argument\n'),
     'nccl.ofi_efa_cuda_memory', 'FI_EFA_SET_CUDA_SYNC_MEMOPS=0'),
    # rapidsai/dask-cuda PR 1130 (the pynvml package's _v3 calls; pinned pynvml<11.5)
    (DASK_PYNVML,
     'driver.nvml_function_missing', 'pip install "pynvml<11.5"'),
    # Haidra-Org/AI-Horde-Worker#190 (a GTX 280 on its last driver)
    (('numba.cuda.cudadrv.error.CudaDriverError: Driver missing function: cuDeviceGetUuid\n'),
     'runtime.insufficient_driver', 'Install a newer driver for this GPU'),
]

SW33_RUN_OTHER_WORDS = [
    # CUDA.jl's words for a Pascal GPU
    (('┌ Error: Your Tesla P100-PCIE-16GB GPU (compute capability 6.0) is not supported on CUDA 13+.\n'
     '│ Please use a device with at least capability 7.5, or downgrade your NVIDIA driver to below v580.\n'),
     'gpu.below_library_minimum', 'Keep the driver and run the program with a CUDA 12 runtime'),
    # text-embeddings-inference's router on an A10 with the default image
    (('ERROR text_embeddings_router: router/src/main.rs:180: Could not start backend: Runtime compute cap 86 is not compatible with compile time compute cap 80\n'),
     'runtime.no_kernel_image', 'Use the build made for this GPU'),
    # the same pynvml call through nvidia-ml-py's flat module
    (DASK_PYNVML.replace("site-packages/pynvml/nvml.py", "site-packages/pynvml.py"),
     'driver.nvml_function_missing', 'pip install "nvidia-ml-py<11.515"'),
    # numba's capital-D wording for no driver at all
    (('numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Driver missing function: cuInit\n'),
     'runtime.libcuda_not_found', 'The NVIDIA driver must be installed'),
    # bitsandbytes' plain library name keeps its answer
    (('CUDA SETUP: Required library version not found: libbitsandbytes_cuda118.so. Maybe you need to compile it from source?\n'),
     'bnb.cudart_not_found', 'Install the release wheel'),
    # docker's runc without podman keeps the --gpus answer
    (('docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nvidia-smi": executable file not found in $PATH: unknown.\n'),
     'container.gpu_command_not_found', 'Start the container with the GPUs'),
    # an ldconfig that runs and fails keeps the setting answer
    (('nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: 1: unknown.\n'),
     'container.nvidia_cli_ldcache', "Make the runtime's ldconfig setting name the host's real ldconfig"),
    # host memory refused with ENOMEM is the locked-memory limit (NVIDIA/nccl#563)
    (('register_mr_buffers:465 NCCL WARN NET/OFI Unable to register memory (type = 1) for device 0. RC: 12, Error: Cannot allocate memory\n'),
     'nccl.memlock_limit', 'Raise the locked-memory limit'),
]


test_sweep33_run_side_first_answers = first_answer_tests(SW33_RUN_CASES + SW33_RUN_OTHER_WORDS)


def test_cuda_jl_newer_gpu_warning_is_not_a_dropped_gpu():
    """CUDA.jl's warning for a GPU newer than its CUDA ("not fully supported by CUDA 12.6.0") is not the CUDA 13 drop."""
    from cudaenv.knowledge.explain import explain

    text = ("┌ Warning: Your NVIDIA RTX PRO 6000 Blackwell GPU (compute capability 12.0) is not fully supported by CUDA "
            "12.6.0.\n│ Some functionality may be broken.\n")
    assert not [m for m in explain(text) if "no longer supports this GPU" in m.title]
