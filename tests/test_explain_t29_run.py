"""Round 29, the run side of fresh29's misses (each family widened past its one log with other public threads).

container.cdi_spec_stale: runc's wording, "failed to fulfil mount request: open <driver library>: no such file".
loader.wrong_elf_class: the loader's "wrong ELF class" (a library of the other word size than its process).
runtime.cuda_library_not_found: GMiner's "Failed to initialize NVRTC library".
numba.cuda_libs_not_found: numba's library probe, "Finding cublas / ERROR: can't locate lib".
loader.nvrtc_builtins_not_loaded: LuxCore's "<Kernel> CUDA program compilation error" (its addon's NVRTC not loadable).
"""
from cudaenv.knowledge.explain import explain

from explain_answers import first_environment_answer, hostile_line


def _first(log):
    return first_environment_answer(log).to_dict()


def _ids(log):
    return [m.id for m in explain(log)]


# HaveAGitGat/Tdarr#1423 (the burned fresh29 l72), NVIDIA/nvidia-settings#124 (CachyOS after a driver update)
RUNC_PREFIX = ("Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime "
               "create failed: runc create failed: unable to start container process: error during container init: ")
TDARR = RUNC_PREFIX + ("failed to fulfil mount request: open /usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.580.159.04: "
                       "no such file or directory\n")
CACHYOS = RUNC_PREFIX + "failed to fulfil mount request: open /usr/lib/libnvidia-gtk3.so.610.43.03: no such file or directory\n"


def test_cdi_spec_stale_runc_wording():
    for log, lib in ((TDARR, "libEGL_nvidia.so.580.159.04"), (CACHYOS, "libnvidia-gtk3.so.610.43.03")):
        first = _first(log)
        assert first["id"] == "container.cdi_spec_stale", log
        assert lib in first["title"]
        assert "nvidia-ctk cdi generate" in first["fix"].splitlines()[0]
    # the same runc line for other files is another cause: nvidia-persistenced not running, snap docker under WSL,
    # a bind mount of the user's own directory
    for other in ("/run/nvidia-persistenced/socket", "/usr/lib/wsl/lib/libdxcore.so",
                  "/host_mnt/Users/me/src/app/templates/login.html.twig"):
        log = RUNC_PREFIX + f"failed to fulfil mount request: open {other}: no such file or directory\n"
        assert "container.cdi_spec_stale" not in _ids(log), other
    explain(hostile_line("failed to fulfil mount request: open /usr/lib/libnvidia"))
    explain(hostile_line("failed to fulfil mount request: open /a/"))


# beagle-dev/beagle-lib#97 (the burned fresh29 l90: a 32-bit HotSpot "Server VM"), zeromq/jzmq#321 ("Client VM")
BEAGLE = ("Java HotSpot(TM) Server VM warning: You have loaded library /opt/sw/beagle/lib/libhmsbeagle-jni.so which might "
          "have disabled stack guard. The VM will try to fix the stack guard now.\n"
          "Failed to load BEAGLE library: /opt/sw/beagle/lib/libhmsbeagle-jni.so: /opt/sw/beagle/lib/libhmsbeagle-jni.so: "
          "wrong ELF class: ELFCLASS64 (Possible cause: architecture word width mismatch)\n")
JZMQ = ('Exception in thread "main" java.lang.UnsatisfiedLinkError: /usr/local/lib/libjzmq.so.0.0.0: '
        "/usr/local/lib/libjzmq.so.0.0.0: wrong ELF class: ELFCLASS64 (Possible cause: architecture word width mismatch)\n"
        "    at java.lang.ClassLoader$NativeLibrary.load(Native Method)\n")
# envmodules/modules#357 (a 32-bit tclsh loading the 64-bit extension)
TCL = ('ERROR: couldn\'t load file "/eda/Modules/modules-4.5.1/lib/libtclenvmodules.so": '
       "/eda/Modules/modules-4.5.1/lib/libtclenvmodules.so: wrong ELF class: ELFCLASS64\n")
# andersbll/deeppy#28 (LD_LIBRARY_PATH=/usr/local/cuda/lib, the toolkit's 32-bit directory), TA-Lib/ta-lib-python#273
DEEPPY = "ImportError: libcudart.so.7.0: wrong ELF class: ELFCLASS32\n"
TALIB = ('  File "/usr/local/lib/python3.5/dist-packages/talib/__init__.py", line 43, in <module>\n'
         "    from ._ta_lib import (\nImportError: libta_lib.so.0: wrong ELF class: ELFCLASS32\n")


def test_wrong_elf_class():
    for log in (BEAGLE, JZMQ):
        first = _first(log)
        assert first["id"] == "loader.wrong_elf_class", log
        assert "32-bit one" in first["title"]
        assert first["fix"].startswith("Run the program with a 64-bit JVM")
    first = _first(TCL)
    assert first["id"] == "loader.wrong_elf_class"
    assert first["title"].endswith("is a 64-bit library, and the process loading it is a 32-bit program")
    assert first["fix"].startswith("Run the 64-bit build of the program")
    for log, lib in ((DEEPPY, "libcudart.so.7.0"), (TALIB, "libta_lib.so.0")):
        first = _first(log)
        assert first["id"] == "loader.wrong_elf_class", log
        assert first["title"] == f"{lib} is a 32-bit copy, found by a 64-bit process"
        assert "lib64" in first["fix"].splitlines()[0]
    # a 64-bit JVM that finds a 32-bit copy is the ELFCLASS32 reading, not the 32-bit JVM's (LWJGL/lwjgl3#641)
    lwjgl = ("OpenJDK 64-Bit Server VM warning: You have loaded library /home/u/lwjgl/liblwjgl.so which might have "
             "disabled stack guard.\n"
             'Exception in thread "Thread-1" java.lang.UnsatisfiedLinkError: /home/u/lwjgl/liblwjgl.so: '
             "/home/u/lwjgl/liblwjgl.so: wrong ELF class: ELFCLASS32 (Possible cause: architecture word width mismatch)\n")
    assert _first(lwjgl)["title"] == "/home/u/lwjgl/liblwjgl.so is a 32-bit copy, found by a 64-bit process"
    # a damaged file ("invalid ELF header") keeps its own entry; "ELF class" outside the loader's message is nothing
    assert _ids("OSError: /opt/app/lib/libcudart.so.12: invalid ELF header\n")[0] == "loader.cuda_library_file_damaged"
    assert "loader.wrong_elf_class" not in _ids("readelf -h libfoo.so\n  Class:                             ELF64\n")
    assert "loader.wrong_elf_class" not in _ids("libfoo.so: ELF 64-bit LSB shared object, x86-64, version 1 (SYSV)\n")
    for literal in ("a.so: wrong ELF class: ELFCLASS", "/x/y.so", "wrong ELF class: ELFCLASS64 "):
        explain(hostile_line(literal))  # returns: every repeat is bounded


# develsoftware/GMinerRelease#103 (the burned fresh29 l39), #71 (Arch, /opt/cuda/targets/x86_64-linux/lib), #85 (Gentoo)
GMINER = "Failed to initialize NVRTC library\n"
GMINER_ARCH = ("+1\nI get \"Failed to initialize NVRTC library\" on Arch Linux\n"
               "/opt/cuda/targets/x86_64-linux/lib/libnvrtc.so\n/opt/cuda/targets/x86_64-linux/lib/libnvrtc.so.10.2\n")


def test_gminer_nvrtc():
    for log in (GMINER, GMINER_ARCH):
        first = _first(log)
        assert first["id"] == "runtime.cuda_library_not_found", log
        assert first["title"] == "the NVRTC library (libnvrtc) is not on the loader path"
        assert "find / -name 'libnvrtc*'" in first["fix"].splitlines()[0]
        assert "LD_LIBRARY_PATH" in first["fix"].splitlines()[0]
    # NVML's line (the miners' other "Failed to initialize") and NVRTC's own compile errors are other causes
    assert "runtime.cuda_library_not_found" not in _ids("Failed to initialize NVML: Driver/library version mismatch\n")
    assert "runtime.cuda_library_not_found" not in _ids("Failed to initialize NVRTC program\n")
    explain(hostile_line("Failed to initialize NVRTC library "))


# LuxCoreRender/BlendLuxCore#749 (the burned fresh29 l88), #576 (the burned fresh28 i39)
LUX_OPTIX = "OptixAccel CUDA program compilation error\n"
LUX_MERGE = ("Open Viewport preview or mat preview. It fails with a message: MergeSampleBuffersOCL CUDA program compilation "
             "error\nStart a rendering. It fails with a message: BVHKernel CUDA program compilation error\n")
# BlendLuxCore#535 / LuxCore#425: the full message underneath names the builtins by file
LUX_FULL = ("[LuxRays][82.053] [MergeSampleBuffersOCL] CUDA program compilation error: \n"
            "nvrtc: error: failed to open libnvrtc-builtins.so.\n  Make sure that libnvrtc-builtins.so is installed correctly.\n")


def test_luxcore_nvrtc():
    for log, kernel in ((LUX_OPTIX, "OptixAccel"), (LUX_MERGE, "MergeSampleBuffersOCL")):
        first = _first(log)
        assert first["id"] == "loader.nvrtc_builtins_not_loaded", log
        assert first["title"] == (f"LuxCore could not compile its CUDA kernel ({kernel}): its run-time compiler library "
                                  "could not be loaded")
        assert "BlendLuxCore/bin/libnvrtc*" in first["fix"].splitlines()[0]
        assert "cudaenv" not in first["fix"]
    # the full message names the file: the library entry answers it by its soname, as before
    first = _first(LUX_FULL)
    assert first["id"] == "runtime.cuda_library_not_found" and "libnvrtc-builtins.so" in first["title"]
    # a compile error of the program's own source is NVRTC's compile log, not this line
    assert "loader.nvrtc_builtins_not_loaded" not in _ids("kernel.cu(12): error: identifier \"foo\" is undefined\n")
    assert "loader.nvrtc_builtins_not_loaded" not in _ids("a CUDA program compilation error in my own code\n")
    explain(hostile_line("Kernel CUDA program compilation error "))
    explain(hostile_line("A" * 50))


# NVIDIA/cuda-samples#11 (the burned fresh29 l63), numba/numba#3840 and numba/pyculib#19 (`numba -s` on Windows)
NUMBA_PROBE = ("CUDA libraries:\nFinding cublas\n        ERROR: can't locate lib\nFinding cusparse\n        ERROR: can't "
               "locate lib\nFinding cufft\n        ERROR: can't locate lib\nFinding curand\n        ERROR: can't locate lib\n")
NUMBA_WIN = ("Platform                                      : Windows-10-10.0.17763-SP0\n"
             "CUDA driver version                           : 10010\nCUDA libraries:\nFinding cublas\n"
             "        ERROR: can't locate lib\nFinding cusparse\n        ERROR: can't locate lib\nFinding nvvm\n"
             "        named  nvvm64_33_0.dll\n")


def test_numba_cuda_libs_not_found():
    first = _first(NUMBA_PROBE)
    assert first["id"] == "numba.cuda_libs_not_found"
    assert "(cublas first)" in first["title"]
    assert "conda install -c conda-forge cudatoolkit" in first["fix"].splitlines()[0]
    first = _first(NUMBA_WIN)
    assert first["id"] == "numba.cuda_libs_not_found"
    assert "cudaenv" not in first["fix"] and "CUDA_PATH" in first["fix"]
    # the libraries it found ("named libcublas.so") and NVVM's own failure are not this
    assert "numba.cuda_libs_not_found" not in _ids("Finding cublas\n        named  libcublas.so\n        trying to open "
                                                   "library...    ok\n")
    assert "numba.cuda_libs_not_found" not in _ids("Finding nvvm\n        ERROR: failed to open nvvm\n")
    explain(hostile_line("Finding cublas "))
    explain(hostile_line("Finding cublas\tERROR: can't locate "))


# the real quoted messages, as (text, id, first fix line) for test_explain.py's coverage of every entry
T29_RUN_CASES = [
    (TDARR, "container.cdi_spec_stale", "nvidia-ctk cdi generate"),
    (CACHYOS, "container.cdi_spec_stale", "nvidia-ctk cdi generate"),
    (BEAGLE, "loader.wrong_elf_class", "Run the program with a 64-bit JVM"),
    (JZMQ, "loader.wrong_elf_class", "Run the program with a 64-bit JVM"),
    (TCL, "loader.wrong_elf_class", "Run the 64-bit build of the program"),
    (DEEPPY, "loader.wrong_elf_class", "Find the 64-bit copy"),
    (GMINER, "runtime.cuda_library_not_found", "find / -name 'libnvrtc*'"),
    (LUX_OPTIX, "loader.nvrtc_builtins_not_loaded", "BlendLuxCore/bin/libnvrtc*"),
    (NUMBA_PROBE, "numba.cuda_libs_not_found", "conda install -c conda-forge cudatoolkit"),
]


def test_cases_answer_first():
    for log, entry_id, fix in T29_RUN_CASES:
        first = _first(log)
        assert first["id"] == entry_id, log
        assert fix in first["fix"].splitlines()[0], log
