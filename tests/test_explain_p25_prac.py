"""Practice round p25 (p25-prac): CMake's own test project with an empty CUDA architecture list; apt and a CUDA
package built for another distribution release.

With CMake 3.18-3.22, when the CUDA compiler identification fails ("The CUDA compiler identification is unknown"),
CMake has no default architecture, and its ABI try_compile project, a target named ``cmTC_<hex>``, stops on
``CUDA_ARCHITECTURES is empty for target "cmTC_..."``. The list is empty because nvcc did not work, not because the
user gave an empty one: setting it by hand does nothing (NVlabs/instant-ngp#25). cmake.cuda_compiler_id_failed
answers it; cmake.cuda_architectures_empty keeps the project's own targets."""
from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# NVlabs/instant-ngp#1320 (the practice log): Visual Studio 2019 generator, the CUDA compiler not identified.
INGP_1320 = (
    "(G:\\Pyenvs\\ngp) G:\\instant-ngp>cmake . -B build\n"
    "-- Building for: Visual Studio 16 2019\n"
    "-- Selecting Windows SDK version 10.0.19041.0 to target Windows 10.0.19045.\n"
    "-- The C compiler identification is MSVC 19.29.30148.0\n"
    "-- The CXX compiler identification is MSVC 19.29.30148.0\n"
    "-- The CUDA compiler identification is unknown\n"
    "-- Detecting C compiler ABI info\n"
    "-- Detecting C compiler ABI info - done\n"
    "-- Detecting CUDA compiler ABI info\n"
    "CMake Error in G:/instant-ngp/build/CMakeFiles/CMakeTmp/CMakeLists.txt:\n"
    "  CUDA_ARCHITECTURES is empty for target \"cmTC_4f57c\".\n"
    "\n"
    "CMake Error in G:/instant-ngp/build/CMakeFiles/CMakeTmp/CMakeLists.txt:\n"
    "  CUDA_ARCHITECTURES is empty for target \"cmTC_4f57c\".\n")

# apt-sim/AdePT#5: CMake 3.18, CUDA 10.2 on Ubuntu 18.04; the maintainer: "as CMake can't identify the compiler, it
# can't set a default for CMAKE_CUDA_ARCHITECTURES".
ADEPT_5 = (
    "-- The CUDA compiler identification is unknown\n"
    "-- Detecting CUDA compiler ABI info\n"
    "CMake Error in /home/agheata/geant_src/adept_build/CMakeFiles/CMakeTmp/CMakeLists.txt:\n"
    "  CUDA_ARCHITECTURES is empty for target \"cmTC_6bf1b\".\n"
    "CMake Error at /usr/local/share/cmake-3.18/Modules/CMakeDetermineCompilerABI.cmake:48 (try_compile):\n"
    "  Failed to generate test project build system.\n"
    "Call Stack (most recent call first):\n"
    "  /usr/local/share/cmake-3.18/Modules/CMakeTestCUDACompiler.cmake:19 (CMAKE_DETERMINE_COMPILER_ABI)\n"
    "  CMakeLists.txt:2 (project)\n")

# NVlabs/instant-ngp#784: CMake 3.19 with CMAKE_CUDA_COMPILER given, "CMake Error in CMakeLists.txt:"
INGP_784 = (
    "-- The CUDA compiler identification is unknown\n"
    "-- Detecting CUDA compiler ABI info\n"
    "CMake Error in CMakeLists.txt:\n"
    "  CUDA_ARCHITECTURES is empty for target \"cmTC_a5ce1\".\n"
    "\n\n"
    "CMake Error at /usr/local/share/cmake-3.19/Modules/CMakeDetermineCompilerABI.cmake:48 (try_compile):\n"
    "  Failed to generate test project build system.\n")


def test_practice_log_is_the_compiler_identification():
    first = _first(INGP_1320)
    assert first["id"] == "cmake.cuda_compiler_id_failed"
    # a Visual Studio generator: the toolkit's Visual Studio integration first
    assert first["fix"].splitlines()[0].startswith("With a Visual Studio generator")
    assert all(m.id != "cmake.cuda_architectures_empty" for m in explain(INGP_1320))


def test_other_threads_of_the_family():
    for log in (ADEPT_5, INGP_784):
        first = _first(log)
        assert first["id"] == "cmake.cuda_compiler_id_failed", log
        assert first["fix"].splitlines()[0].startswith("If the nvcc CMake found")


def test_the_test_project_line_alone():
    # NVlabs/tiny-cuda-nn#444's title, with nothing else pasted
    first = _first('CUDA_ARCHITECTURES is empty for target "cmTC_cbe81" (Ubuntu cloud server)\n')
    assert first["id"] == "cmake.cuda_compiler_id_failed"


def test_near_miss_a_projects_own_target_keeps_the_empty_list():
    # EXP-code/EXP#63: the project's own targets, the compiler identified: the list is the project's
    log = ("CMake Error in exputil/CMakeLists.txt:\n"
           "  CUDA_ARCHITECTURES is empty for target \"exputil\".\n"
           "\n"
           "CMake Error in src/CMakeLists.txt:\n"
           "  CUDA_ARCHITECTURES is empty for target \"EXPlib\".\n")
    first = _first(log)
    assert first["id"] == "cmake.cuda_architectures_empty"
    assert first["fix"].splitlines()[0].startswith("Name the GPU's architecture")


def test_hostile_lines_from_the_new_literal_are_cheap():
    for literal in ('CUDA_ARCHITECTURES is empty for target "cmTC_', "cmTC_", "CUDA_ARCHITECTURES is empty "):
        explain(hostile_line(literal))
    entry = next(e for e in load_entries() if e["id"] == "cmake.cuda_compiler_id_failed")
    assert any("cmTC_" in p for p in entry["patterns"])


# -- apt: a package of NVIDIA's CUDA repository needs a library this distribution release does not have
# ("X : Depends: Y but it is not installable", Y a distribution library): the repository, or the CUDA version, is for
# another release.
# devcontainers/features#704 (the practice log): CUDA 11.5's libcufile on Debian 12, inside a docker build; "liburcu6 is
# not available on bookworm"
DEVCONTAINERS_704 = ("10.36 The following packages have unmet dependencies:\n"
                     "10.44  libcufile-11-5 : Depends: liburcu6 but it is not installable\n"
                     "10.45 E: Unable to correct problems, you have held broken packages.\n")
# AdaptiveCpp/AdaptiveCpp#1442: cuda-11-5 on Ubuntu 22.04 (driver 535), its 495 X driver built for older Xorg ABIs
ADAPTIVECPP_1442 = ("$ sudo apt-get install cuda-11-5\n"
                    "The following packages have unmet dependencies:\n"
                    " xserver-xorg-video-nvidia-495 : Depends: xorg-video-abi-24 but it is not installable or\n"
                    "                                          xorg-video-abi-23 but it is not installable or\n"
                    "                                          xorg-video-abi-20 but it is not installable or\n")


def test_apt_other_release_practice_log():
    first = _first(DEVCONTAINERS_704)
    assert first["id"] == "apt.cuda_package_other_release"
    assert first["values"]["pkg"] == "libcufile-11-5" and first["values"]["dep"] == "liburcu6"
    assert first["fix"].splitlines()[0].startswith("Use NVIDIA's CUDA repository for this exact release")


def test_apt_other_release_another_thread():
    first = _first(ADAPTIVECPP_1442)
    assert first["id"] == "apt.cuda_package_other_release"
    assert first["values"]["dep"] == "xorg-video-abi-24"
    assert "cuda-keyring" in first["fix"].splitlines()[0]


def test_near_miss_nvidia_dependencies_are_other_causes():
    # cuda-drivers' own dependencies resolved from the distribution's archive (apt.cuda_drivers_distro_archive's pin)
    log = (" cuda-drivers : Depends: nvidia-driver-440 (>= 440.33.01) but it is not going to be installed\n"
           "E: Unable to correct problems, you have held broken packages.\n")
    first = _first(log)
    assert first["id"] == "apt.cuda_drivers_distro_archive"
    # a CUDA metapackage whose own cuda-* dependency is missing, and ROCm's hip-nvcc asking for `cuda`: not this cause
    for log in (" cuda : Depends: cuda-12-4 (>= 12.4.1) but it is not installable\n",
                " hip-nvcc : Depends: cuda (>= 7.5) but it is not installable\n",
                " libtinfo5:i386 : Depends: libc6 but it is not installable\n"):
        assert all(m.id != "apt.cuda_package_other_release" for m in explain(log)), log


def test_hostile_lines_from_the_apt_literals_are_cheap():
    for literal in (" : Depends: ", "cuda", "libcufile-11-5 : Depends: liburcu6", "cuda ", "nvidia-"):
        explain(hostile_line(literal))


# (text, id, first fix's phrase): read by test_explain.py's test_every_entry_has_a_real_message
CASES = [
    (INGP_1320, "cmake.cuda_compiler_id_failed", "With a Visual Studio generator"),
    (ADEPT_5, "cmake.cuda_compiler_id_failed", "If the nvcc CMake found"),
    (DEVCONTAINERS_704, "apt.cuda_package_other_release", "Use NVIDIA's CUDA repository for this exact release"),
    (ADAPTIVECPP_1442, "apt.cuda_package_other_release", "Use NVIDIA's CUDA repository for this exact release"),
]


def test_cases():
    for text, id_, phrase in CASES:
        first = _first(text)
        assert first["id"] == id_ and first["fix"].splitlines()[0].startswith(phrase), first
