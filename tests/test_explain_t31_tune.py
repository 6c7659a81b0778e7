"""Round 31's tuning on the burned fresh31 (judged at ad758ce: 18/47 right first), widened into families.

Each miss read as a family: GNU ld's "is defined in DSO ... so try adding it to the linker command line" for any
library; C++ objects (nvcc's are C++) linked by the C driver (__gxx_personality_v0 and the rest of libstdc++); CCCL's own
C++ dialect checks (Thrust, CUB, libcu++); CUPTI's number for the counters' restriction (error 35); OptiX's 7804 (the
driver's OptiX library, optix_types.h) and optixInit's failure without a code; a project's own find module naming
TensorRT by its own variable; CMake's CMP0104 warning (no architecture list, so nvcc's default); the out-of-memory
wordings of torch7 and AMReX; Julia's dlopen of a cuDNN 8 DLL; nvidia-docker 1.0's plugin not running; a library loaded
by a server its service manager starts; the torch data_ptr<T> triplet from a Python extension build with no word of
torch. Logs are read from the corpus; the fix's first words are held.
"""
import glob
import os

import pytest

from cudaenv.knowledge.explain import explain

from explain_answers import first_environment_answer

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus", "fresh31")


def _log(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        return f.read()


T31_TUNE_CASES = [
    # BVLC/caffe: its summary's cuDNN Not found; CUDNN_INCLUDE and CUDNN_LIBRARY on the cmake line
    ('j10-caffe-cmake-cudnn-not-found-osx.log', 'cmake.cudnn_not_found', "Tell Caffe's CMake where cuDNN is, after deleting the build directory'"),
    # torch/cutorch: a stale libTHC.so under the Lua torch prefix; luarocks remove --force and install again
    ('j48-cutorch-stale-libthc-undefined-symbol.log', 'loader.torch_stale_source_build', 'Remove the stale rocks and build them again from one tree: `luarocks r'),
    # ceccocats/tkDNN: its FindCUDNN.cmake did not find libnvinfer (CUDNN_NVLIB); pointing it at the library fixed it
    ('j11-tkdnn-nvinfer-notfound.log', 'cmake.tensorrt_not_found', "If `find / -name 'libnvinfer.so*' 2>/dev/null` lists nothing: install "),
    # facebookresearch/SparseConvNet: CUDA 9.0 with PyTorch 1.1 (no word of torch pasted); PyTorch 1.4 with CUDA 10.1 fixed it
    ('j13-sparseconvnet-cuda9-too-old-bound-function.log', 'torch.extension_data_ptr_template', 'Install the torch the project requires (its README or setup.py names i'),
    # cbuchner1/CudaMiner: -ldl added to cudaminer_LDADD
    ('j14-cudaminer-dlclose-dso-missing.log', 'link.dso_missing_from_command_line', 'Add `-ldl` to the link, after the objects and libraries that use it: i'),
    # pmodels/yaksa: libyaksa.so (its CUDA backend, nvcc objects) linked by the C driver
    ('j15-yaksa-gcc7-cuda101-gxx-personality.log', 'link.cxx_runtime_not_linked', 'Link with the C++ driver or name the runtime: add `-lstdc++` to the li'),
    # NVIDIA/TensorRT on a Jetson Nano: -DCMAKE_CUDA_ARCHITECTURES="53"
    ('j18-tensorrt-oss-jetson-cuda-architectures-empty.log', 'cmake.cuda_architectures_empty', "Give CMake the GPU's architecture itself, in a clean build directory ("),
    # bitsandbytes-foundation/bitsandbytes: an old system gcc; `module load GCC` (10) fixed it
    ('j20-bitsandbytes-thrust-cxx11-old-gcc.log', 'build.cxx_std_too_old', 'Compile with a newer standard and a compiler that has it: load or inst'),
    # JuliaGPU/CUDA.jl: cuDNN 8.3's zlibwapi.dll missing from the artifact
    ('j44-cuda-jl-windows-cudnn-cnn-infer-dll.log', 'loader.windows_cuda_dll_not_found', 'Install the complete cuDNN archive (cuDNN 8 for your CUDA major): copy'),
    # NVIDIA/nvidia-docker 1.0.1: nvidia-docker-plugin not running after the install; starting it fixed it
    ('j50-nvidia-docker-v1-plugin-not-running.log', 'container.nvidia_docker_driver_volume', 'Start the plugin and check it stays up: `sudo systemctl start nvidia-d'),
    # HeteroDB/pg-strom: /usr/local/cuda/lib64 in /etc/ld.so.conf.d for the PostgreSQL server
    ('j64-pg-strom-libnvrtc-not-found.log', 'runtime.cuda_library_not_found', 'A server started by its service manager (pg_ctlcluster, systemd, `serv'),
    # mlverse/torch: CUDA 10.0 unsupported; the answer names a version of the list it quotes
    ('j68-r-torch-unsupported-cuda-10.log', 'rtorch.cuda_version_unsupported', "Tell the installer a CUDA it supports and have that toolkit's librarie"),
    # NVIDIA/owl: optixInit 7804 (OPTIX_ERROR_LIBRARY_NOT_FOUND); a newer driver fixed it
    ('j74-owl-optixinit-7804-driver-too-old.log', 'driver.optix_library_missing', 'Install a current NVIDIA driver (`nvidia-smi` shows the one you have; '),
    # NVlabs/instant-ngp: optixInit() failed with no code (OptiX 7.4 SDK on an older driver; the 7.1 SDK solved it)
    ('j75-instant-ngp-optixinit-failed-v100.log', 'driver.optix_abi_newer_than_driver', 'Compare the driver (`nvidia-smi`) with the minimum of the OptiX SDK th'),
    # RRZE-HPC/likwid: CUPTI error 35, the counters restricted to administrators
    ('j77-likwid-cupti-insufficient-privileges.log', 'driver.profiling_counters_restricted', 'On a machine you administer: run the profiler as root (`sudo $(which n'),

]


@pytest.mark.parametrize("name, want, fix", T31_TUNE_CASES, ids=[c[0][:3] for c in T31_TUNE_CASES])
def test_burned_fresh31_miss_answered_by_its_family(name, want, fix):
    first = first_environment_answer(_log(name))
    assert first.id == want and first.fix.startswith(fix), (name, first.id, first.fix[:160])


def test_out_of_memory_in_torch7s_and_amrexs_words_is_the_programs():
    for name in ("j32-dcgan-torch-multi-gpu-out-of-memory.log", "j33-amrex-arena-cuda-out-of-memory.log"):
        got = explain(_log(name))
        assert got and got[0].id == "runtime.out_of_memory" and not got[0].environment, name
    assert "amrex.the_arena_init_size=0" in explain(_log("j33-amrex-arena-cuda-out-of-memory.log"))[0].fix


def test_the_dso_family_names_the_library_of_any_symbol():
    log = ("/usr/bin/ld: gpu_worker.o: undefined reference to symbol 'pthread_create@@GLIBC_2.2.5'\n"
           "/usr/bin/ld: note: 'pthread_create@@GLIBC_2.2.5' is defined in DSO /lib/x86_64-linux-gnu/libpthread.so.0 so "
           "try adding it to the linker command line\n/lib/x86_64-linux-gnu/libpthread.so.0: error adding symbols: DSO "
           "missing from command line\n")
    first = first_environment_answer(log)
    assert first.id == "link.dso_missing_from_command_line"
    assert first.values["name"] == "pthread" and first.fix.startswith("Add `-lpthread` to the link")


def test_r_torch_names_a_version_from_its_own_list():
    first = first_environment_answer(_log("j68-r-torch-unsupported-cuda-10.log"))
    assert 'Sys.setenv(CUDA = "11.7")' in first.fix and "11.8" not in first.fix


def test_a_service_started_library_is_registered_with_the_loader_not_the_shell():
    first = first_environment_answer(_log("j64-pg-strom-libnvrtc-not-found.log"))
    assert "/etc/ld.so.conf.d/" in first.fix.splitlines()[0] and "cudaenv" not in first.fix
    # the same library from a program run in a shell keeps the shell's answer
    shell = first_environment_answer("./prog: error while loading shared libraries: libnvrtc.so.12: cannot open shared "
                                     "object file: No such file or directory\n")
    assert not shell.fix.startswith("A server started by its service manager")
