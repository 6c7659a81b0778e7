"""Practice round p25 (p25-prac2): three producer message families the practice logs showed unanswered or answered by
the wrong cause.

- gcc 16's (and gcc 6's) <type_traits> with the character types and keywords of its default dialect (char8_t,
  requires; char16_t, char32_t) that an older nvcc's front end does not know: the host gcc is newer than the CUDA
  supports (nvcc.host_headers_unsupported), not CMake's compiler identification.
- NVML's status NVML_ERROR_LIB_RM_VERSION_MISMATCH by its name, as a program's own NVML binding raises it
  (driver.version_mismatch).
- crt/host_config.h's refusal of an NVIDIA HPC SDK nvc++ (pgc++) release the toolkit does not name
  (nvcc.host_compiler_rejected)."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# ServeurpersoCom/acestep.cpp#72 (the practice log): gcc 16.1.1 with CUDA 13.2 on Arch, CMake's identification.
ACESTEP_72 = (
    'CMake Error at /usr/share/cmake/Modules/CMakeDetermineCompilerId.cmake:934 (message):\n'
    '  Compiling the CUDA compiler identification source file "CMakeCUDACompilerId.cu" failed.\n'
    '\n'
    '  Compiler: /opt/cuda/bin/nvcc\n'
    '  ...\n'
    '  /usr/include/c++/16.1.1/type_traits(393): error: identifier "char8_t" is undefined\n'
    '          struct __is_integral_helper<char8_t>\n'
    '                                      ^\n'
    '  /usr/include/c++/16.1.1/type_traits(1448): error: identifier "__f" is undefined\n')
# ggml-org/llama.cpp#22668: the same pair, CMake's output wrapped at the line's end
LLAMACPP_22668 = (
    '  /usr/include/c++/16.1.1/type_traits(393): error: identifier "char8_t" is\n'
    '  undefined\n'
    '\n'
    '        struct __is_integral_helper<char8_t>\n'
    '                                    ^\n'
    '\n'
    '  /usr/include/c++/16.1.1/type_traits(1448): error: identifier "__f" is\n'
    '  undefined\n')
# torch/cutorch#413: gcc 6.1.1 on Arch with an older CUDA, its C++14 default
CUTORCH_413 = (
    '/usr/include/c++/6.1.1/type_traits(235): error: identifier "char16_t" is undefined\n'
    '\n'
    '/usr/include/c++/6.1.1/type_traits(239): error: identifier "char32_t" is undefined\n')

# tensorpack/tensorpack#1244 (the practice log)
TENSORPACK_1244 = (
    '>   File "/data/anaconda/envs/tf_py36/lib/python3.6/site-packages/tensorpack/utils/nvml.py", line 48, in _check_return\n'
    '>     raise NvmlException(ret)\n'
    '> tensorpack.utils.nvml.NvmlException: NVML_ERROR_LIB_RM_VERSION_MISMATCH\n')
# abysssol/ollama-flake#4: the same status as its number, after a driver update without a reboot
OLLAMA_FLAKE_4 = ('nvmlInit_v2 err: 18\n'
                  'time=2024-02-14T22:41:55.630Z level=INFO source=gpu.go:300 msg="Unable to load CUDA management '
                  'library /nix/store/z6557r7pgvmxr9x16a4ffazly8dflh65-nvidia-x11-545.29.06-6.1.77/lib/'
                  'libnvidia-ml.so.545.29.06: nvml vram init failure: 18"\n')

# spack/spack#30043 (the practice log): NVHPC 22.3's nvc++ as -ccbin of the CUDA 11.0 it bundles
SPACK_30043 = (
    '"/opt/linux-sles15-zen2/gcc-9.4.0/nvhpc-22.3-m43i2j7uke6pwzxfkoytue7gordmtatg/Linux_x86_64/22.3/cuda/11.0/bin/'
    '../targets/x86_64-linux/include/crt/host_config.h", line 118: catastrophic error: #error directive: -- '
    'unsupported pgc++ configuration! Only pgc++ 18, 19 and 20 are supported!\n'
    '  #error -- unsupported pgc++ configuration! Only pgc++ 18, 19 and 20 are supported!\n'
    '   ^\n'
    '\n'
    '1 catastrophic error detected in the compilation of "kernel.cu".\n')
# the same refusal in CUDA 9's host_config.h wording (one release named, and the platform)
HOST_CONFIG_CUDA9 = ('host_config.h(94): error: #error directive: -- unsupported pgc++ configuration! '
                     'Only pgc++ 17 on Linux x86_64 is supported!\n')


def test_gcc16_char8_t_practice_log_is_the_host_gcc():
    first = _first(ACESTEP_72)
    assert first["id"] == "nvcc.host_headers_unsupported"
    assert first["values"]["gccv"] == "16"
    assert first["fix"].splitlines()[0].startswith("Build with an older gcc this CUDA supports")
    # CMake's identification stays, after it
    assert [m.id for m in explain(ACESTEP_72)][1] == "cmake.cuda_compiler_id_failed"


def test_type_traits_dialect_types_other_threads():
    for log, gccv in ((LLAMACPP_22668, "16"), (CUTORCH_413, "6")):
        first = _first(log)
        assert first["id"] == "nvcc.host_headers_unsupported", log
        assert first["values"]["gccv"] == gccv
        assert first["fix"].splitlines()[0].startswith("Build with an older gcc this CUDA supports")


def test_near_miss_char8_t_in_the_projects_own_header():
    # a project's own header, not libstdc++'s: the code's dialect, not the host gcc
    log = 'src/utf8.cuh(12): error: identifier "char8_t" is undefined\n'
    assert all(m.id != "nvcc.host_headers_unsupported" for m in explain(log))


def test_nvml_status_name_practice_log_and_family():
    first = _first(TENSORPACK_1244)
    assert first["id"] == "driver.version_mismatch"
    assert first["fix"].splitlines()[0].startswith("The kernel module still loaded is not the one")
    first = _first(OLLAMA_FLAKE_4)
    assert first["id"] == "driver.version_mismatch"


def test_near_miss_nvml_enum_definition_is_not_an_error():
    for log in ("    NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,   //!< see nvml.h\n",
                "\tNVML_ERROR_LIB_RM_VERSION_MISMATCH nvmlReturn = 18\n"):
        assert all(m.id != "driver.version_mismatch" for m in explain(log)), log


def test_pgcxx_host_config_practice_log_and_cuda9_wording():
    first = _first(SPACK_30043)
    assert first["id"] == "nvcc.host_compiler_rejected"
    assert first["values"]["pgi_ok"] == "18, 19 and 20"
    assert first["fix"].splitlines()[0].startswith("Give nvcc a CUDA made for this nvc++ release")
    first = _first(HOST_CONFIG_CUDA9)
    assert first["id"] == "nvcc.host_compiler_rejected" and first["values"]["pgi_ok"] == "17"


def test_near_miss_icc_keeps_its_variant():
    log = "host_config.h(80): error: #error directive: -- unsupported ICC configuration! Only ICC 15.0 on Linux x86_64 is supported!\n"
    first = _first(log)
    assert first["id"] == "nvcc.host_compiler_rejected"
    assert first["fix"].splitlines()[0].startswith("Give nvcc gcc (or clang) as its host compiler")


def test_hostile_lines_from_the_new_literals_are_cheap():
    for literal in ('type_traits(1): error: identifier "char8_t" is', "/c++/16/type_traits(", '"char8_t"',
                    "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "NVML_ERROR_LIB_RM_VERSION_MISMATCH ",
                    "-- unsupported pgc++ configuration! Only pgc++ ", "Only pgc++ 1, ", " and 1"):
        explain(hostile_line(literal))


# (text, id, first fix's phrase): read by test_explain.py's test_every_entry_has_a_real_message
CASES = [
    (ACESTEP_72, "nvcc.host_headers_unsupported", "Build with an older gcc this CUDA supports"),
    (LLAMACPP_22668, "nvcc.host_headers_unsupported", "Build with an older gcc this CUDA supports"),
    (TENSORPACK_1244, "driver.version_mismatch", "The kernel module still loaded is not the one"),
    (SPACK_30043, "nvcc.host_compiler_rejected", "Give nvcc a CUDA made for this nvc++ release"),
]


def test_cases():
    for text, id_, phrase in CASES:
        first = _first(text)
        assert first["id"] == id_ and first["fix"].splitlines()[0].startswith(phrase), first
