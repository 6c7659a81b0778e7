"""Sweep 27, the run side (loader, driver, hardware): burned held-out misses fixed by family.

Family 1, a GPU whose memory is below the mining DAG: an Ethash miner keeps the epoch's dataset in GPU memory and it
grows every epoch, so a 2, 3 or 4 GB card stops mining at some epoch. ethminer words it through its CUDA_SAFE_CALL
("CUDA error in func init at line N out of memory"), later releases and their forks check first ("Epoch N requires X
GB memory" / "This device hasn't enough memory available. Mining suspended"). The "invalid device ordinal" the failed
init leaves in the search thread was read first, as a device index past the GPU count."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# ethereum-mining/ethminer#1817 (fresh26 z34, GTX 1060 3GB; the maintainer: "You can't mine ethereum with an 3GB card
# anymore")
ETHMINER_1817 = ("Allocating light with size: 47579072\n"
                 "Segmentation fault\n"
                 "[...]\n"
                 "Fatal GPU error: CUDA error in func run_ethash_search at line 60 invalid device ordinal\n"
                 "Terminating.\n"
                 "\n"
                 "cuda-0   Error CUDA mining: CUDA error in func init at line 126 out of memory\n")
# the check of ethminer 0.18+ and its forks (abelminer's FAQ: "Epoch 50 requires 5.66 GB memory", a 6 GB card)
ABELMINER_FAQ = ("Epoch 50 requires 5.66 GB memory\n"
                 "This device hasn't enough memory available. Mining suspended.\n")


# (text, id, a phrase of the first fix line): real messages, for test_explain.py's coverage of every entry
CASES = [
    (ETHMINER_1817, "gpu.memory_below_dag", "This GPU cannot mine this coin any more"),
    (ABELMINER_FAQ, "gpu.memory_below_dag", "more memory than the DAG"),
]


def test_cases():
    for text, id_, phrase in CASES:
        first = _first(text)
        assert first["id"] == id_, text
        assert phrase in first["fix"].splitlines()[0], text


def test_dag_too_big_for_the_card_is_first_not_the_device_index():
    first = _first(ETHMINER_1817)
    assert first["id"] == "gpu.memory_below_dag"
    assert first["fix"].splitlines()[0].startswith("This GPU cannot mine this coin any more")


def test_the_miners_own_check_reads_the_same_cause():
    first = _first(ABELMINER_FAQ)
    assert first["id"] == "gpu.memory_below_dag"
    assert "more memory than the DAG" in first["fix"].splitlines()[0]


def test_near_misses_keep_their_answers():
    # the ordinal alone is still a device index past the count
    ids = [m.id for m in explain("Fatal GPU error: CUDA error in func run_ethash_search at line 60 invalid device "
                                 "ordinal\n")]
    assert "gpu.memory_below_dag" not in ids
    # ccminer's quoted form of the macro, another status: not this cause
    ids = [m.id for m in explain("Cuda error in func 'yescrypt_setTarget' at line 1296 : invalid device symbol.\n")]
    assert "gpu.memory_below_dag" not in ids
    # a framework's out of memory stays a program's (not an environment answer)
    ids = [m.id for m in explain("RuntimeError: CUDA error: out of memory\n")]
    assert ids == ["runtime.out_of_memory"]


def test_new_patterns_do_not_backtrack():
    for literal in ("CUDA error in func init at line 1", "Epoch 1 requires 1.", "This device hasn't enough "):
        explain(hostile_line(literal))


# Family 2, a half-upgraded host driver: the host's own nvidia-smi fails on NVML ("Function Not Found") beside NVML's
# "Driver/library version mismatch". nvidia-smi comes with the driver, so it is not a tool newer than the driver: the
# host's links or packages are of two releases. NVIDIA/nvidia-docker#584 (fresh26 z33: stale links in /usr/lib64/nvidia
# after `yum update`; re-pointing them fixed it, a reboot did not)
NVIDIA_DOCKER_584 = ("$ nvidia-smi\n"
                     "Failed to initialize NVML: Function Not Found\n"
                     "\n"
                     "$ sudo nvidia-docker run -it nvidia/cuda-ppc64le:8.0-cudnn6-devel-ubuntu16.04 nvidia-smi\n"
                     "nvidia-docker | 2017/12/21 05:04:46 Error: nvml: Driver/library version mismatch\n")
F2_CASES = [
    (NVIDIA_DOCKER_584, "driver.version_mismatch", "point the libnvidia-ml.so.1 (and libcuda.so.1) links at the loaded"),
]


def test_host_nvidia_smi_function_not_found_with_a_mismatch_is_a_half_upgraded_driver():
    for text, id_, phrase in F2_CASES:
        first = _first(text)
        assert first["id"] == id_
        assert phrase in first["fix"].splitlines()[0]
        assert first["title"].startswith("the host driver's libraries are of two releases")
    ids = [m.id for m in explain(NVIDIA_DOCKER_584)]
    assert ids.index("driver.version_mismatch") < ids.index("driver.nvml_function_missing")


def test_near_misses_of_family_2_keep_their_answers():
    # a tool newer than the driver, no mismatch: still the driver's NVML lacking the function
    first = _first("nvidia-container-cli: detection error: nvml error: function not found\n")
    assert first["id"] == "driver.nvml_function_missing"
    # the mismatch alone keeps its own answer
    first = _first("Failed to initialize NVML: Driver/library version mismatch\n")
    assert first["id"] == "driver.version_mismatch"
    assert not first["title"].startswith("the host driver's libraries are of two releases")


# Family 3, two CUDA majors mixed: a library built for CUDA 12 fails on an older libcudart.so.12 (a .so.12 version
# node) while the log's driver and nvcc are CUDA 13: the program's torch for cu12x on a machine set up for 13, the old
# copy a leftover 12.x toolkit. shadygm/Lichtfeld-Densification-Plugin#22 (fresh22 v67: cu128 -> cu130 torch wheels, an
# apt nvidia-cuda-toolkit 12.x beside a manual CUDA 13.0)
LICHTFELD_22 = ("undefined symbol: cudaGetDriverEntryPointByVersion, version libcudart.so.12\n"
                "NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0\n"
                "nvcc: NVIDIA (R) Cuda compiler driver\n"
                "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
                "Cuda compilation tools, release 13.0, V13.0.88\n"
                "Build cuda_13.0.r13.0/compiler.36424714_0\n")
F3_CASES = [
    (LICHTFELD_22, "runtime.cuda_lib_shadowed", "Use one CUDA major: install the CUDA 13 build"),
    # the same one major lower
    (LICHTFELD_22.replace("libcudart.so.12", "libcudart.so.11").replace("13.0", "12.4"), "runtime.cuda_lib_shadowed",
     "Use one CUDA major: install the CUDA 12 build"),
]


def test_an_older_cuda_12_runtime_on_a_cuda_13_machine_is_two_majors_mixed():
    for text, id_, phrase in F3_CASES:
        first = _first(text)
        assert first["id"] == id_
        assert first["fix"].splitlines()[0].startswith(phrase), first["fix"]
        assert first["title"].startswith("two CUDA majors are mixed")


def test_near_misses_of_family_3_keep_their_answers():
    # the symbol alone (no CUDA of the machine in the log), or a machine of the same major: not two majors
    for text in ("undefined symbol: cudaGetDriverEntryPointByVersion, version libcudart.so.12\n",
                 LICHTFELD_22.replace("13.0", "12.8")):
        first = _first(text)
        assert first["id"] == "runtime.cuda_lib_shadowed"
        assert not first["title"].startswith("two CUDA majors are mixed"), text


def test_family_3_when_does_not_backtrack():
    explain("undefined symbol: cudaGetDriverEntryPointByVersion, version libcudart.so.12\n"
            + hostile_line("Cuda compilation tools, release 1"))
