"""Round 33's tuning on the burned fresh33 (judged at 68b57b8: 26/41 right first), widened into families.

Each family is tested in words other than the fresh33 log's where the producers have them, with the counter-case that
keeps its earlier answer; the fresh33 logs themselves are read by tests/test_explain_corpus_data.py's judged files.
- a native library shipped prebuilt in a Java application (JNA/JNI) for a CUDA 10-or-older runtime (rebuild it here);
- the driver's own libraries at link time (nvcuvid, nvidia-encode, nvidia-ml: only .so.1 is installed);
- CudaSift's safeCall wording of "invalid device symbol";
- NCCL's "internal error - please report this issue" without NCCL_SOCKET_IFNAME (2.18 hides the real failure);
- Boost 1.67-1.72's preprocessor under nvcc; cudafe++/cicc crashing on Windows (C++20 with MSVC);
- a build's fallback architecture list holding one the nvcc dropped; PG-Strom below its GPU minimum;
- CUDA 11 or newer on a Jetson Nano/TX1/TX2; a torch built against the system's CUDA in a Jetson docker build (docker's
  classic builder's "The command '/bin/sh -c ...' returned a non-zero code" is a container now);
- a directory given to -l.
"""
import os

from explain_answers import first_answer_tests

T33_CASES = [
    # a CUDA 7.5 runtime asked for by a prebuilt Java plugin's native library (another program than fiji's)
    (('Exception in thread main: java.lang.UnsatisfiedLinkError: /opt/plugin/native/libGpuFilters.so: libcudart.so.7.5: cannot open shared object file: No such file or directory\n'),
     "runtime.libcudart_not_found", "Build the native library from its source"),
    # CUDA 10.1's soname keeps the loader-path answer
    (('ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n'),
     'runtime.libcudart_not_found', "Put CUDA 10.1's lib64 on the loader path"),
    # NVML linked by name (the toolkit has its stub)
    (('g++ -o monitor monitor.o -lnvidia-ml -L/usr/local/cuda/lib64\n'
     '/usr/bin/ld: cannot find -lnvidia-ml\n'
     'collect2: error: ld returned 1 exit status\n'),
     'link.driver_library_unversioned', 'Link against a stub or the .so.1 itself'),
    # a toolkit library keeps the toolkit answer
    (('/usr/bin/ld: cannot find -lcudart\n'
     'collect2: error: ld returned 1 exit status\n'),
     'link.cuda_libs_not_found', 'Look for it'),
    # the safeCall wording in another file
    (('Runtime API error in file <src/kernels.cu>, line 118 : invalid device symbol.\n'),
     'runtime.no_kernel_image', "Rebuild for this GPU's compute capability"),
    # torch's own report of NCCL 2.18's internal error
    (('torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1\n'
     'ncclInternalError: Internal check failed.\n'),
     'nccl.internal_error_unexplained', 'Run it again with `NCCL_DEBUG=WARN`'),
    # with NCCL_SOCKET_IFNAME set, the interface answer stays first
    (('NCCL_SOCKET_IFNAME set by environment to eth0\n'
     'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1\n'),
     'nccl.ifname_internal_error', 'Make NCCL_SOCKET_IFNAME name an interface of every host'),
    # Boost.MPL under nvcc (boostorg/preprocessor#15's words)
    (('../../boost/mpl/aux_/preprocessed/plain/or.hpp(58): error: identifier "BOOST_PP_WHILE_2" is undefined\n'),
     'build.boost_variadics_under_nvcc', 'Use a Boost that handles nvcc'),
    # cicc's access violation on Windows
    (("nvcc error   : 'cicc' died with status 0xC0000005 (ACCESS_VIOLATION)\n"),
     'nvcc.ptxas_crashed', 'Compile the CUDA files as C++17'),
    # ptxas's signal 11 keeps the other-release answer
    (("nvcc error   : 'ptxas' died due to signal 11 (Invalid memory reference)\n"),
     'nvcc.ptxas_crashed', 'Build with another CUDA release'),
    # a fallback list with compute_30 under CUDA 11
    (('-- Automatic GPU detection failed. Building for common architectures.\n'
     '-- Autodetected CUDA architecture(s): 3.0;3.5;5.0;5.2;6.0;6.1;7.0;7.5\n'
     "nvcc fatal   : Unsupported gpu architecture 'compute_30'\n"),
     'build.gpu_autodetect_failed', 'Name the architectures instead of letting the build guess'),
    # detection failed alone keeps the plain answer
    (('-- Automatic GPU detection failed. Building for common architectures.\n'
     '-- Autodetected CUDA architecture(s): 5.0;8.0;8.6\n'),
     'build.gpu_autodetect_failed', 'Name the architecture of the GPU you will run on'),
    # PG-Strom on a Fermi GPU
    (('LOG:  GPU0 GeForce GT 540M (2 SMs, 1344MHz), L2 128KB, RAM 1023MB (128bits, 900MHz), capability 2.1\n'
     'FATAL:  No CUDA devices, PG-Strom was disabled\n'),
     'gpu.below_library_minimum', 'Run PG-Strom on a GPU it supports'),
    # CUDA 12 on a Jetson Nano
    (('Model: NVIDIA Jetson Nano Developer Kit\n'
     'CUDA Version 12.2\n'
     'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.\n'),
     'status.driver_init_failed', 'Use the build or image made for JetPack 4'),
    # CUDA 11.4 on a Xavier is its own JetPack 5: not the Nano answer
    (('Model: NVIDIA Jetson Xavier NX Developer Kit\n'
     'nvcc: release 11.4, V11.4.315\n'
     'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.\n'),
     'status.driver_init_failed', '`nvidia-smi` must work in the same place'),
    # a directory given to -l in another build
    (('g++ -o app main.o -lcudart -l/opt/cuda/lib64\n'
     '/usr/bin/ld: cannot find -lcudart\n'
     '/usr/bin/ld: cannot find -l/opt/cuda/lib64\n'),
     'link.cuda_libs_not_found', 'Change that `-l/...` to `-L/...`'),
    # the same torch import outside a docker build keeps the wheel answer
    (('Traceback (most recent call last):\n'
     '  File "train.py", line 1, in <module>\n'
     '    import torch\n'
     '  File "/usr/local/lib/python3.6/dist-packages/torch/__init__.py", line 195, in <module>\n'
     '    _load_global_deps()\n'
     '  File "/usr/local/lib/python3.6/dist-packages/torch/__init__.py", line 148, in _load_global_deps\n'
     '    ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)\n'
     'OSError: libcurand.so.10: cannot open shared object file: No such file or directory\n'),
     'runtime.cuda_library_not_found', 'torch loads it from the nvidia-* wheels'),
]

FRESH33 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus", "fresh33")


test_fresh33_families_in_other_words = first_answer_tests(T33_CASES)


def test_docker_classic_builder_is_a_container():
    """docker's classic builder names no docker when a RUN step fails; its words are a container's."""
    from cudaenv.knowledge.explain.extract import facts
    from cudaenv.knowledge.explain.text import LogText

    got = facts(LogText("The command '/bin/sh -c pip3 install -r requirements.txt' returned a non-zero code: 1\n"))
    assert got["container"] == "yes"
    assert facts(LogText("make: *** [all] Error 1\n"))["container"] == ""
