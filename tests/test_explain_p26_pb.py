"""Round 26, practice round on the run side (helper p26-pb): two known causes in a producer's wording no pattern read.

- TensorRT's loader (libLoader, trtexec, the plugin library) says "Unable to open library: A due to B", B being the
  dlerror; issue titles and short pastes cut B after the missing library's name. runtime.cuda_library_not_found now
  reads the name after "due to" (DDTRobot/tita_rl#2, the practice log: cuDNN 9 only, `conda install cudnn=8`;
  NVIDIA/TensorRT#3061, libcublas.so.11; NVIDIA/TensorRT#2908, trtexec 8.6 and libcudnn.so.8). A path after "due to"
  (NVIDIA/TensorRT#3402, "file too short") is a broken file and stays unread.
- CUDA_ERROR_NOT_FOUND ("named symbol not found", 500) from cuInit itself is container.wsl_cuda_symbol_not_found's
  cause in the driver API's words: TensorFlow/XLA's stream_executor "failed call to cuInit: CUDA_ERROR_NOT_FOUND"
  (tensorflow/tensorflow#68711, the practice log, and #68710: Docker under WSL 2 with Windows driver 555.85;
  NVIDIA/nvidia-container-toolkit#520: the toolkit must map libnvdxgdmal.so.1, fixed in 1.14.4/1.15.0). The same status
  from cuModuleGetFunction (taichi-dev/taichi#1280, kyutai-labs/unmute#94) is a kernel the module lacks: unread.

Each log text is copied from the thread named above it."""

from __future__ import annotations

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries
from explain_answers import hostile_line

# https://github.com/DDTRobot/tita_rl/issues/2 (the practice log)
TITA_RL_2 = "Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 due to libcudnn.so.8\n"

# https://github.com/NVIDIA/TensorRT/issues/3061 (its title: the dlerror cut after the name)
TENSORRT_3061 = "Unable to open library: libnvinfer_plugin.so.8 due to libcublas.so.11\n"

# https://github.com/NVIDIA/TensorRT/issues/2908 (the whole dlerror, which the older pattern already read)
TENSORRT_2908 = ("[E] Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 due to libcudnn.so.8: "
                 "cannot open shared object file: No such file or directory\n")

# https://github.com/NVIDIA/TensorRT/issues/3402 (near miss: a broken file named by its path, not a missing library)
TENSORRT_3402 = ("[10/25/2023-11:34:04] [E] Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 "
                 "due to /home/cwang/work/depend/TensorRT-8.6.0.12/targets/x86_64-linux-gnu/lib/libnvinfer_plugin.so.8: "
                 "file too short\n")

# https://github.com/tensorflow/tensorflow/issues/68711 (the practice log)
TF_68711 = ("docker run --rm --gpus all -it tensorflow/tensorflow:latest-gpu bash\n"
            "failed call to cuInit: CUDA_ERROR_NOT_FOUND: named symbol not found\n")

# https://github.com/tensorflow/tensorflow/issues/68710 (the same, as the reporter quotes XLA's line)
TF_68710 = ('"external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: '
            'CUDA_ERROR_NOT_FOUND: named symbol not found":\n')

# near misses: the same status from a kernel lookup
# https://github.com/taichi-dev/taichi/issues/1280
TAICHI_1280 = ("RuntimeError: [taichi/backends/cuda/cuda_driver.h:taichi::lang::CUDADriverFunction<void * *,void *,char "
               "const *>::operator ()@68] CUDA Error CUDA_ERROR_NOT_FOUND: named symbol not found while calling "
               "module_get_function (cuModuleGetFunc\n")
# https://github.com/kyutai-labs/unmute/issues/94
UNMUTE_94 = ('stt-1       | 2025-07-19T19:21:27.244328Z ERROR moshi_server::batched_asr: /root/.cargo/registry/src/'
             'index.crates.io-1949cf8c6b5b557f/moshi-server-0.6.3/src/batched_asr.rs:279: model loop err '
             'err=DriverError(CUDA_ERROR_NOT_FOUND, "named symbol not found")\n'
             "stt-1       |    0: candle_core::error::Error::bt\n"
             "stt-1       |    1: candle_core::cuda_backend::device::CudaDevice::get_or_load_func\n")


def first(text: str):
    ms = [m for m in explain(text) if m.environment]
    return ms[0] if ms else None


def test_tensorrt_due_to_cut_after_the_name_reads_the_missing_library():
    for text, lib in ((TITA_RL_2, "libcudnn.so.8"), (TENSORRT_3061, "libcublas.so.11"), (TENSORRT_2908, "libcudnn.so.8")):
        m = first(text)
        assert m is not None and m.id == "runtime.cuda_library_not_found", text
        assert f"({lib})" in m.title
        assert f"find / -name '{lib}*'" in m.fix.splitlines()[0]


def test_tensorrt_due_to_a_path_is_not_a_missing_library():
    m = first(TENSORRT_3402)
    assert m is None or m.id != "runtime.cuda_library_not_found"


def test_cuinit_not_found_is_the_wsl_container_libcuda():
    m = first(TF_68711)
    assert m is not None and m.id == "container.wsl_cuda_symbol_not_found"
    assert "Docker Desktop / WSL 2's libcuda" in m.title
    assert "nvidia-container-toolkit to 1.15 or newer" in m.fix
    m = first(TF_68710)
    assert m is not None and m.id == "container.wsl_cuda_symbol_not_found"
    assert m.fix.startswith("Under Docker Desktop on Windows (the usual case)")


def test_not_found_from_a_kernel_lookup_is_not_the_container_libcuda():
    for text in (TAICHI_1280, UNMUTE_94):
        m = first(text)
        assert m is None or m.id != "container.wsl_cuda_symbol_not_found", text


def test_hostile_lines_from_the_new_literals_are_cheap():
    for literal in ("Unable to open library: ", "Unable to open library: libx.so due to ", " due to libcudnn.so.8",
                    "cuInit", "cuInit err: ", "failed call to cuInit: CUDA_ERROR_NOT_FOUND"):
        explain(hostile_line(literal))
    ids = {e["id"]: e for e in load_entries()}
    assert any("due to[ \\t]+(?P<lib>" in p for p in ids["runtime.cuda_library_not_found"]["patterns"])
    assert any("CUDA_ERROR_NOT_FOUND" in p for p in ids["container.wsl_cuda_symbol_not_found"]["patterns"])


# (text, id, first fix's phrase): read by test_explain.py's test_every_entry_has_a_real_message
CASES = [
    (TITA_RL_2, "runtime.cuda_library_not_found", "find / -name 'libcudnn.so.8*'"),
    (TENSORRT_3061, "runtime.cuda_library_not_found", "find / -name 'libcublas.so.11*'"),
    (TF_68711, "container.wsl_cuda_symbol_not_found", "Under Docker Desktop on Windows"),
    (TF_68710, "container.wsl_cuda_symbol_not_found", "Under Docker Desktop on Windows"),
]


# -- torch's out-of-memory numbers with more than half of the GPU neither free nor the failing process's: another process
# holds it (gpu.memory_held_elsewhere, derive.py _d_held_elsewhere); the numbers alone, the "CUDA out of memory." lost in
# the paste, are still torch's out-of-memory message.
# https://github.com/LISTatSNU/FastMRI_challenge/issues/238 (the practice log: zombie processes, killed by the admins)
FASTMRI_238 = ("Tried to allocate 216.00 MiB (GPU 0; 7.92 GiB total capacity; 69.17 MiB already allocated; 24.56 MiB free; "
               "86.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting "
               "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
               "PYTORCH_CUDA_ALLOC_CONF\n")
# https://github.com/pytorch/pytorch/issues/40863 (the maintainer: "something else is hanging on to the memory")
PYTORCH_40863 = ("RuntimeError: CUDA out of memory. Tried to allocate 60.00 MiB (GPU 0; 11.17 GiB total capacity; 505.96 MiB "
                 "already allocated; 12.50 MiB free; 530.00 MiB reserved in total by PyTorch)\n")
# https://github.com/phamquiluan/ResidualMaskingNetwork/issues/15 ("other programs that consume you GPU RAM")
RMN_15 = ("RuntimeError: CUDA out of memory. Tried to allocate 36.00 MiB (GPU 0; 10.76 GiB total capacity; 996.23 MiB "
          "already allocated; 8.81 MiB free; 1010.00 MiB reserved in total by PyTorch)\n")
# near misses, the program's own memory: https://github.com/lllyasviel/Fooocus/issues/1902 (torch 2.1's wording, its
# "capacty" too; 17% outside), https://github.com/awslabs/keys_values/issues/92 (other processes listed, 4% outside),
# https://github.com/pp00704831/Stripformer-ECCV-2022-/issues/21 (1.x, 10% outside)
FOOOCUS_1902 = ("CUDA out of memory. Tried to allocate 10.00 MiB. GPU 0 has a total capacty of 6.00 GiB of which 1.57 GiB is "
                "free. Of the allocated memory 3.24 GiB is allocated by PyTorch, and 154.45 MiB is reserved by PyTorch but "
                "unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid "
                "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n")
KEYS_VALUES_92 = ("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 572.00 MiB. GPU 0 has a total "
                  "capacity of 39.49 GiB of which 321.31 MiB is free. Process 3721648 has 414.00 MiB memory in use. "
                  "Including non-PyTorch memory, this process has 37.46 GiB memory in use. Process 1374765 has 414.00 MiB "
                  "memory in use. Process 1374763 has 414.00 MiB memory in use. Process 1374764 has 414.00 MiB memory in "
                  "use. Of the allocated memory 36.04 GiB is allocated by PyTorch, and 321.37 MiB is reserved by PyTorch "
                  "but unallocated. If reserved but unallocated memory is large try setting "
                  "PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation.\n")
STRIPFORMER_21 = ("RuntimeError: CUDA out of memory. Tried to allocate 1.65 GiB (GPU 1; 7.79 GiB total capacity; 3.53 GiB "
                  "already allocated; 1.40 GiB free; 5.28 GiB reserved in total by PyTorch) If reserved memory is >> "
                  "allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory "
                  "Management and PYTORCH_CUDA_ALLOC_CONF\n")


def test_oom_with_most_of_the_gpu_held_elsewhere_names_the_other_process():
    for text, held in ((FASTMRI_238, "7.81 GiB, 99%"), (PYTORCH_40863, "10.64 GiB, 95%"), (RMN_15, "9.77 GiB, 91%")):
        m = first(text)
        assert m is not None and m.id == "gpu.memory_held_elsewhere", text
        assert f"({held} of the GPU" in m.title
        assert m.fix.startswith("`nvidia-smi` (and, when it lists no process, `sudo fuser -v /dev/nvidia*`)")
    # the program's answer stays beside it, after it
    assert [m.id for m in explain(FASTMRI_238)][:2] == ["gpu.memory_held_elsewhere", "runtime.out_of_memory"]


def test_oom_with_the_memory_the_programs_own_keeps_the_program_answer():
    for text in (FOOOCUS_1902, KEYS_VALUES_92, STRIPFORMER_21):
        ids = [m.id for m in explain(text)]
        assert ids and ids[0] == "runtime.out_of_memory" and "gpu.memory_held_elsewhere" not in ids, (text, ids)


def test_hostile_lines_from_the_oom_literals_are_cheap():
    for literal in ("Tried to allocate 1.00 MiB (GPU 0; ", "(GPU 0; 7.92 GiB total capacity; ", " total capacity; ",
                    "GPU 0 has a total capacity of 6.00 GiB of which 1.57 GiB is free. ",
                    "Process 1 has 414.00 MiB memory in use. ", " reserved in total by PyTorch)"):
        explain(hostile_line(literal))


OOM_CASES = [
    (FASTMRI_238, "gpu.memory_held_elsewhere", "`nvidia-smi` (and, when it lists no process"),
    (PYTORCH_40863, "gpu.memory_held_elsewhere", "`nvidia-smi` (and, when it lists no process"),
]
