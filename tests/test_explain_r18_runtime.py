"""Round 18, helper "runtime": the producers' own wordings of the run side's causes (the catalogue
tests/data/explain_producers/runtime.yaml, read from the producing tools' source), and the near misses each widened
pattern must leave alone.

* ``runtime.cuda_library_not_found``: NPP and nvJPEG in glibc's dlopen wording, ldd's ``=> not found`` line for the
  CUDA libraries (``runtime.libcudart_not_found`` had it for libcudart only); a non-CUDA library stays unclaimed.
* ``runtime.libcudart_not_found``: TensorFlow 0.9-1.13's "Couldn't open CUDA library libcudart.so.N".
* ``loader.windows_cuda_dll_not_found``: CPython 3.8+'s ctypes ("Could not find module '...' (or one of its
  dependencies)") for a CUDA DLL; another DLL (shapely's geos_c.dll) stays unclaimed.
* ``driver.unknown_error``: deviceQuery's "cudaGetDeviceCount returned 999" beside CUDA <= 10.0's 30.
* pynvml's exception classes: ``NVMLError_LibraryNotFound``, ``NVMLError_DriverNotLoaded``, ``NVMLError_NoPermission``.
* ``driver.not_loaded``: TensorFlow's "kernel driver does not appear to be running on this host" under a failed cuInit
  (``runtime.no_device`` steps aside, as it did for "does not match DSO version"); libcuda not loadable stays first.
* ``runtime.insufficient_driver``: cudaErrorCallRequiresNewerDriver's "API call is not supported in the installed CUDA
  driver".
* ``container.cgroup_devices_missing`` over the generic crun hook line.
* ``driver.module_build_failed``: kmod's "could not insert 'nvidia': Unknown symbol in module" (init_module's -ENOENT).
* PyCUDA's "cuInit failed: %s" with its pre-CUDA-6 short strings ("no device", "unknown") and cuGetErrorString's
  "unknown error".
* ``container.apptainer_no_driver_files``: the "Could not find any nv libraries on this host!" warning beside the files
  one.

Texts are the producers' templates filled in (the catalogue's rule); no thread was read for them.
"""

from explain_answers import first_answer_tests, program_bug_tests

from cudaenv.knowledge.explain import explain

LIB = "runtime.cuda_library_not_found"
CUDART = "runtime.libcudart_not_found"
WINDLL = "loader.windows_cuda_dll_not_found"

CASES = [
    ("/usr/local/bin/ffmpeg: error while loading shared libraries: libnppig.so.11: cannot open shared object file: "
     "No such file or directory\n", LIB, "libnppig.so.11"),
    ("ImportError: libnvjpeg.so.12: cannot open shared object file: No such file or directory\n", LIB, "libnvjpeg.so.12"),
    ("$ ldd /opt/app/lib/libinference.so | grep \"not found\"\n\tlibcufft.so.10 => not found\n"
     "\tlibcurand.so.10 => not found\n", LIB, "libcufft.so.10"),
    ("I tensorflow/stream_executor/dso_loader.cc:119] Couldn't open CUDA library libcudart.so.9.0. LD_LIBRARY_PATH: "
     "/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n", CUDART, ""),
    ("FileNotFoundError: Could not find module 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin\\"
     "cudart64_110.dll' (or one of its dependencies). Try using the full path with constructor syntax.\n",
     WINDLL, "CUDA Toolkit"),
    ("cudaGetDeviceCount returned 999\n-> unknown error\nResult = FAIL\n", "driver.unknown_error", ""),
    ("pynvml.nvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found\n", "loader.nvml_library_missing", ""),
    ("pynvml.nvml.NVMLError_DriverNotLoaded: Driver Not Loaded\n", "driver.not_loaded", "sudo modprobe nvidia"),
    ("pynvml.nvml.NVMLError_NoPermission: Insufficient Permissions\n", "driver.nvml_no_permission", ""),
    ("2020-11-21 15:37:17.759721: E tensorflow/stream_executor/cuda/cuda_driver.cc:351] failed call to cuInit: "
     "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
     "2020-11-21 15:37:17.759803: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not "
     "appear to be running on this host (gpu-box): /proc/driver/nvidia/version does not exist\n",
     "driver.not_loaded", "sudo modprobe nvidia"),
    ("RuntimeError: CUDA error: API call is not supported in the installed CUDA driver\n",
     "runtime.insufficient_driver", ""),
    ("Error: OCI runtime error: crun: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1)\n"
     "nvidia-container-cli: container error: cgroup subsystem devices not found: unknown\n",
     "container.cgroup_devices_missing", ""),
    ("modprobe: ERROR: could not insert 'nvidia_352': Unknown symbol in module, or unknown parameter (see dmesg)\n",
     "driver.module_build_failed", ""),
    ("WARNING: Could not find any nv libraries on this host!\n"
     "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
     "driver from http://www.nvidia.com/Download/index.aspx\n", "container.apptainer_no_driver_files", ""),
    ("    cuda.init()\npycuda._driver.RuntimeError: cuInit failed: no device\n", "runtime.no_device", ""),
    ("pycuda._driver.Error: cuInit failed: unknown error\n", "driver.unknown_error", ""),
    ("pycuda._driver.Error: cuInit failed: unknown\n", "driver.unknown_error", ""),
    # guards: the neighbours keep their answers
    # libcuda not loadable comes first in TensorFlow's log and stays the answer
    ("2022-02-17 10:38:43.175500: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
     "library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory\n"
     "2022-02-17 10:38:43.175585: W tensorflow/stream_executor/cuda/cuda_driver.cc:269] failed call to cuInit: UNKNOWN "
     "ERROR (303)\n"
     "2022-02-17 10:38:43.175606: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not "
     "appear to be running on this host (fv-az241-671): /proc/driver/nvidia/version does not exist\n",
     "runtime.libcuda_not_found", ""),
    # the cuInit failure alone stays "no device"
    ("2020-11-21 15:37:17.759721: E tensorflow/stream_executor/cuda/cuda_driver.cc:351] failed call to cuInit: "
     "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n", "runtime.no_device", ""),
    # the hook's line with another libnvidia-container error keeps that error's cause
    ("nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters "
     "attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.\n",
     "container.hook_cgroup_denied", ""),
    # libcudart in ldd's line stays the runtime's entry
    ("\tlibcudart.so.10.1 => not found\n", CUDART, ""),
    # CuPy's frame around the same ctypes message keeps its own pattern's answer
    ("RuntimeError: CuPy failed to load nvrtc64_120_0.dll: FileNotFoundError: Could not find module "
     "'nvrtc64_120_0.dll' (or one of its dependencies). Try using the full path with constructor syntax.\n",
     WINDLL, ""),
]

test_first_answer = first_answer_tests(CASES)


def _claims(text: str) -> list[str]:
    return [m.id for m in explain(text) if m.environment]


def test_non_cuda_library_in_ldd_stays_unclaimed():
    assert not _claims("$ ldd ./app\n\tlibfoo.so.1 => not found\n\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6\n")


def test_non_cuda_dll_through_ctypes_stays_unclaimed():
    text = ("FileNotFoundError: Could not find module 'C:\\Users\\u\\Anaconda3\\Library\\bin\\geos_c.dll' (or one of its "
            "dependencies). Try using the full path with constructor syntax.\n")
    assert WINDLL not in _claims(text)


def test_other_nvml_error_classes_are_not_read_as_these():
    assert "driver.nvml_no_permission" not in _claims("pynvml.nvml.NVMLError_NotSupported: Not Supported\n")
    assert "driver.not_loaded" not in _claims("pynvml.nvml.NVMLError_NotFound: Not Found\n")


test_program_bugs_stay_verdicts = program_bug_tests([
    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
    "incorrect.\n",
    "numba.cuda.cudadrv.driver.CudaAPIError: [700] Call to cuMemcpyDtoH results in CUDA_ERROR_ILLEGAL_ADDRESS\n",
])
