"""What NVIDIA driver is here? Read without root and without a CUDA toolkit.

Four independent sources, each optional and each bounded by a timeout:

* ``proc``: ``<proc_root>/driver/nvidia/version``, the loaded *kernel* module;
* ``nvidia-smi``: its banner (driver version, newest CUDA the driver supports)
  and ``--query-gpu`` (one CSV line per GPU);
* ``nvml``: ``libnvidia-ml.so.1`` through ctypes (driver version, CUDA version,
  the GPUs);
* ``libcuda``: ``libcuda.so.1`` through ctypes (``cuInit`` and
  ``cuDriverGetVersion``). A result of 34 (``CUDA_ERROR_STUB_LIBRARY``) means the
  loader found a toolkit's link-time stub, not a driver.

The two libraries are loaded in a child interpreter started with the caller's
``env`` (its ``LD_LIBRARY_PATH`` decides what the loader finds; the dynamic loader
of a running process ignores later changes to it), so a wedged driver cannot hang
the caller past the timeout and a stub ``libcuda`` never lands in the caller.

The text parsers are public so that tests (and ``cudaenv explain``) can feed them
recorded outputs.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
import time

# No package-relative import at the top: this file also runs as a script (``python -I -S driver.py
# --probe-libraries``, the child that loads the driver's libraries), where there is no package.

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from .types import DriverFacts, Gpu

__all__ = [
    "CUDA_ERROR_STUB_LIBRARY",
    "SMI_QUERY_FIELDS",
    "driver_cuda_from_int",
    "driver_facts",
    "file_version",
    "parse_proc_version",
    "parse_smi_banner",
    "parse_smi_failure",
    "parse_smi_query",
    "probe_libraries",
    "same_version",
]

CUDA_ERROR_STUB_LIBRARY = 34

# The fields asked of `nvidia-smi --query-gpu`, in order. An R470 (or older)
# nvidia-smi rejects the whole query when it names compute_cap ('Field "compute_cap"
# is not a valid field to query.', exit 2), also where a snap or container bundles
# one on a newer driver: then it is asked again without it.
SMI_QUERY_FIELDS = ("index", "name", "driver_version", "compute_cap", "uuid")
_SMI_QUERY_FIELDS_OLD = ("index", "name", "driver_version", "uuid")

# driver API CUresult values worth a name in a message (cuda.h, 13.5)
_CU_RESULTS = {
    0: "CUDA_SUCCESS",
    1: "CUDA_ERROR_INVALID_VALUE",
    3: "CUDA_ERROR_NOT_INITIALIZED",
    34: "CUDA_ERROR_STUB_LIBRARY",
    46: "CUDA_ERROR_DEVICE_UNAVAILABLE",
    100: "CUDA_ERROR_NO_DEVICE",
    304: "CUDA_ERROR_OPERATING_SYSTEM",
    800: "CUDA_ERROR_NOT_PERMITTED",
    802: "CUDA_ERROR_SYSTEM_NOT_READY",
    803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
    804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
    999: "CUDA_ERROR_UNKNOWN",
}

# nvmlReturn_t values (nvml.h); nvidia-smi's exit codes are the same numbers.
_NVML_RESULTS = {
    0: "NVML_SUCCESS",
    1: "NVML_ERROR_UNINITIALIZED",
    2: "NVML_ERROR_INVALID_ARGUMENT",
    3: "NVML_ERROR_NOT_SUPPORTED",
    4: "NVML_ERROR_NO_PERMISSION",
    6: "NVML_ERROR_NOT_FOUND",
    9: "NVML_ERROR_DRIVER_NOT_LOADED",
    12: "NVML_ERROR_LIBRARY_NOT_FOUND",
    13: "NVML_ERROR_FUNCTION_NOT_FOUND",
    15: "NVML_ERROR_GPU_IS_LOST",
    17: "NVML_ERROR_OPERATING_SYSTEM",
    18: "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
    999: "NVML_ERROR_UNKNOWN",
}

# What nvidia-smi prints in a CSV cell it cannot fill.
_SMI_NO_VALUE = {"", "N/A", "[N/A]", "[Not Supported]", "[Unknown Error]", "[Insufficient Permissions]",
                 "[GPU requires reset]", "[GPU is lost]"}

_DOTTED = re.compile(r"(?<![\w.])(\d+\.\d+(?:\.\d+)*)(?![\w.])")
_CC = re.compile(r"^\d+\.\d+$")


def driver_cuda_from_int(v: int) -> str:
    """The CUDA version of a ``cuDriverGetVersion``-style integer.

    Args:
        v: ``1000 * major + 10 * minor``, e.g. 12040.

    Returns:
        ``"major.minor"``, e.g. ``"12.4"``.

    Raises:
        ValueError: For a value that cannot be such a version (not positive).
    """
    v = int(v)
    if v <= 0:
        raise ValueError(f"not a CUDA driver version: {v}")
    from . import cuda_of_int  # here, not at the top: the child runs this file as a script

    return cuda_of_int(v)


def _cu_name(rc: int) -> str:
    return f"{_CU_RESULTS.get(rc, 'CUresult')} ({rc})"


def _nvml_name(rc: int) -> str:
    return f"{_NVML_RESULTS.get(rc, 'nvmlReturn_t')} ({rc})"


# --------------------------------------------------------------------------- parsers


def parse_proc_version(text: str) -> dict:
    """Parse ``/proc/driver/nvidia/version``.

    Two first lines are in the wild::

        NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  <build date>
        NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (builder@host)  <date>

    The version is the first dotted token after "Kernel Module" (a pattern like
    ``Kernel Module\\s+(\\d+)`` misses the open modules' "for x86_64"); failing
    that, the first dotted token of the NVRM line.

    Returns:
        ``{"version": "580.95.05" | None, "flavor": "open" | "proprietary" | None,
        "gcc": the compiler line's version text | None}``.
    """
    lines = text.splitlines()
    nvrm = next((ln for ln in lines if "NVRM" in ln), lines[0] if lines else "")
    version = None
    at = nvrm.find("Kernel Module")
    if at >= 0:
        m = _DOTTED.search(nvrm, at + len("Kernel Module"))
        version = m.group(1) if m else None
    if version is None:
        m = _DOTTED.search(nvrm.partition(":")[2] if ":" in nvrm else nvrm)
        version = m.group(1) if m else None
    flavor = None
    if "Open Kernel Module" in nvrm:
        flavor = "open"
    elif "Kernel Module" in nvrm:
        flavor = "proprietary"
    gcc = next((ln.partition(":")[2].strip() for ln in lines if ln.startswith("GCC version")), None)
    return {"version": version, "flavor": flavor, "gcc": gcc or None}


_BANNER_SMI = re.compile(r"NVIDIA-SMI\s+(\d[\w.]*)")
_BANNER_DRIVER = re.compile(r"\b(Driver|KMD) Version\s*:\s*(\d[\w.]*)")
_BANNER_CUDA = re.compile(r"\bCUDA (UMD )?Version\s*:\s*(\d+\.\d+|N/A)")


def parse_smi_banner(text: str) -> dict | None:
    """Parse the header of plain ``nvidia-smi`` output (also the ``-q`` header).

    Up to R5xx: ``| NVIDIA-SMI 550.54.15  Driver Version: 550.54.15  CUDA Version: 12.4 |``.
    From R610: ``| NVIDIA-SMI 610.43.02  KMD Version: 610.43.02  CUDA UMD Version: 13.3 |``.
    Very old drivers (R340) print no CUDA version at all.

    The ``NVIDIA-SMI`` token is the tool's own version. It usually equals the
    driver's but not always (a snap or container may bundle another nvidia-smi):
    the driver version is the ``Driver``/``KMD Version`` field.

    Returns:
        ``{"driver": str | None, "cuda": "13.3" | None, "smi": str | None,
        "format": "kmd-umd" | "legacy"}``, or None when ``text`` has no banner.
    """
    smi = _BANNER_SMI.search(text)
    drv = _BANNER_DRIVER.search(text)
    cuda = _BANNER_CUDA.search(text)
    if not (smi or drv):
        return None
    kmd = bool(drv and drv.group(1) == "KMD") or bool(cuda and cuda.group(1))
    cuda_v = cuda.group(2) if cuda and cuda.group(2) != "N/A" else None
    return {
        "driver": drv.group(2) if drv else None,
        "cuda": cuda_v,
        "smi": smi.group(1) if smi else None,
        "format": "kmd-umd" if kmd else "legacy",
    }


def parse_smi_query(text: str, fields: tuple[str, ...] = SMI_QUERY_FIELDS) -> list[dict]:
    """Parse ``nvidia-smi --query-gpu=<fields> --format=csv,noheader``.

    One line per GPU, cells separated by ``", "``. A cell nvidia-smi cannot fill
    (``[N/A]``, ``[Not Supported]``, ...) becomes None, as does a ``compute_cap``
    that is not ``major.minor``. Lines whose first cell is not an integer GPU index
    (an error message on stdout) are skipped. A name holding a comma is kept whole.

    Args:
        text: The command's stdout.
        fields: The ``--query-gpu`` fields, in order; must start with ``index``
            and have ``name`` second.

    Returns:
        One dict per GPU keyed by field name (``index`` as int).
    """
    n = len(fields)
    gpus = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < n:
            continue
        if len(cells) > n:  # a comma inside the name (the second field)
            extra = len(cells) - n
            cells = [cells[0], ", ".join(cells[1:2 + extra])] + cells[2 + extra:]
        try:
            index = int(cells[0])
        except ValueError:
            continue
        row: dict[str, Any] = {}
        for key, value in zip(fields, cells):
            row[key] = None if value in _SMI_NO_VALUE else value
        row["index"] = index
        if "compute_cap" in row and row["compute_cap"] is not None and not _CC.match(row["compute_cap"]):
            row["compute_cap"] = None
        gpus.append(row)
    return gpus


def parse_smi_failure(text: str, returncode: int) -> str:
    """Turn a failed nvidia-smi's output and exit code into one line for people.

    Args:
        text: stdout and stderr together (nvidia-smi prints its errors on stdout).
        returncode: Its exit code (documented: 9 driver not loaded, 12 NVML not
            found, 15 GPU lost, 18 driver/library version mismatch, ...).
    """
    flat = " ".join(text.split())
    low = flat.lower()
    if "couldn't communicate with the nvidia driver" in low or "could not communicate with the nvidia driver" in low:
        return (f"nvidia-smi cannot talk to the NVIDIA kernel driver (exit {returncode}): "
                "the nvidia module is not loaded, or this is a container or VM without the GPU passed in")
    if "version mismatch" in low:
        m = re.search(r"NVML library version:\s*(\d[\w.]*)", flat)
        lib = f" (userspace NVML library {m.group(1)})" if m else ""
        return (f"nvidia-smi: Driver/library version mismatch{lib}, exit {returncode}: the loaded kernel module "
                "and the userspace driver libraries are different versions (driver upgraded without a reboot or "
                "module reload?)")
    if "couldn't find libnvidia-ml" in low or "nvml shared library" in low or returncode == 12:
        return f"nvidia-smi cannot load libnvidia-ml.so (exit {returncode}): the userspace driver is not installed"
    if "no devices were found" in low:
        return f"nvidia-smi: no NVIDIA GPU found by the driver (exit {returncode})"
    if "fallen off the bus" in low or returncode == 15:
        return f"nvidia-smi: a GPU has fallen off the bus (exit {returncode}): reset or reboot"
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return f"nvidia-smi failed (exit {returncode})" + (f": {first}" if first else "")


# --------------------------------------------------------------------------- libraries


def _loaded_path(fragment: str) -> str | None:
    """The real path of a mapped library whose file name contains ``fragment``."""
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                path = parts[5].strip() if len(parts) == 6 else ""
                if path.startswith("/") and fragment in os.path.basename(path):
                    return os.path.realpath(path)
    except OSError:
        pass
    return None


def _probe_nvml(ctypes: Any) -> dict:
    out: dict[str, Any] = {"loaded": False, "path": None, "error": None, "init": None, "driver_version": None,
                           "nvml_version": None, "cuda_int": None, "cuda_rc": None, "gpus": None, "gpus_rc": None}
    try:
        lib = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError as exc:
        out["error"] = str(exc)
        return out
    out["loaded"] = True
    out["path"] = _loaded_path("libnvidia-ml.so")

    def fn(*names: str) -> Any:
        for name in names:
            f = getattr(lib, name, None)
            if f is not None:
                f.restype = ctypes.c_int
                return f
        return None

    init = fn("nvmlInit_v2", "nvmlInit")
    if init is None:
        out["error"] = "no nvmlInit in this library"
        return out
    rc = init()
    out["init"] = rc
    if rc != 0:
        return out
    try:
        buf = ctypes.create_string_buffer(96)
        f = fn("nvmlSystemGetDriverVersion")
        if f is not None and f(buf, ctypes.c_uint(len(buf))) == 0:
            out["driver_version"] = buf.value.decode("utf-8", "replace")
        f = fn("nvmlSystemGetNVMLVersion")
        if f is not None and f(buf, ctypes.c_uint(len(buf))) == 0:
            out["nvml_version"] = buf.value.decode("utf-8", "replace")
        v = ctypes.c_int(0)
        f = fn("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion")
        if f is not None:
            out["cuda_rc"] = f(ctypes.byref(v))
            if out["cuda_rc"] == 0:
                out["cuda_int"] = v.value
        count = ctypes.c_uint(0)
        f = fn("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount")
        if f is not None:
            out["gpus_rc"] = f(ctypes.byref(count))
        if out["gpus_rc"] == 0:
            by_index = fn("nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex")
            get_name = fn("nvmlDeviceGetName")
            get_uuid = fn("nvmlDeviceGetUUID")
            get_cc = fn("nvmlDeviceGetCudaComputeCapability")
            gpus = []
            for i in range(count.value):
                handle = ctypes.c_void_p()
                gpu: dict[str, Any] = {"index": i, "name": None, "compute_cap": None, "uuid": None}
                if by_index is None or by_index(ctypes.c_uint(i), ctypes.byref(handle)) != 0:
                    gpus.append(gpu)
                    continue
                if get_name is not None and get_name(handle, buf, ctypes.c_uint(len(buf))) == 0:
                    gpu["name"] = buf.value.decode("utf-8", "replace")
                if get_uuid is not None and get_uuid(handle, buf, ctypes.c_uint(len(buf))) == 0:
                    gpu["uuid"] = buf.value.decode("utf-8", "replace")
                major, minor = ctypes.c_int(0), ctypes.c_int(0)
                if get_cc is not None and get_cc(handle, ctypes.byref(major), ctypes.byref(minor)) == 0:
                    gpu["compute_cap"] = f"{major.value}.{minor.value}"
                gpus.append(gpu)
            out["gpus"] = gpus
    finally:
        shutdown = fn("nvmlShutdown")
        if shutdown is not None:
            shutdown()
    return out


def _probe_libcuda(ctypes: Any) -> dict:
    out: dict[str, Any] = {"loaded": False, "path": None, "error": None, "init": None, "version_rc": None,
                           "cuda_int": None}
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError as exc:
        out["error"] = str(exc)
        return out
    out["loaded"] = True
    out["path"] = _loaded_path("libcuda.so")
    for name in ("cuInit", "cuDriverGetVersion"):
        if getattr(lib, name, None) is None:
            out["error"] = f"no {name} in this library"
            return out
    lib.cuInit.restype = ctypes.c_int
    lib.cuDriverGetVersion.restype = ctypes.c_int
    # cuDriverGetVersion needs no cuInit and answers even where cuInit fails
    # (no device, unsupported GPU): ask it first so a failing cuInit cannot spoil it.
    v = ctypes.c_int(0)
    out["version_rc"] = lib.cuDriverGetVersion(ctypes.byref(v))
    if out["version_rc"] == 0:
        out["cuda_int"] = v.value
    out["init"] = lib.cuInit(ctypes.c_uint(0))
    return out


def _probe_main() -> None:
    """Child side of :func:`probe_libraries`: load both libraries, print JSON."""
    result = {}
    for key, probe in (("nvml", _probe_nvml), ("libcuda", _probe_libcuda)):
        try:
            result[key] = probe(ctypes)
        except Exception as exc:  # a library that misbehaves must not hide the other one
            result[key] = {"loaded": None, "error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(result) + "\n")


def probe_libraries(env: Mapping[str, str], timeout: float = 10) -> dict:
    """Load ``libnvidia-ml.so.1`` and ``libcuda.so.1`` in a child interpreter.

    The child runs with ``env`` (so its ``LD_LIBRARY_PATH`` decides what the loader
    finds), in isolated mode (``-I -S``: no PYTHON* variables, no site), under a
    timeout. Nothing is loaded into the calling process.

    Returns:
        ``{"nvml": {...}, "libcuda": {...}}`` as the child reported it, or
        ``{"error": reason}`` when the child did not report.
    """
    from ..infra.run import run  # see the note above the imports

    res = run([sys.executable, "-I", "-S", os.path.abspath(__file__), "--probe-libraries"],
              env=env, timeout=timeout)
    if res.timed_out:
        return {"error": f"loading the driver libraries did not finish within {timeout:.3g}s and was killed "
                         "(a wedged driver?)"}
    line = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else ""
    try:
        data = json.loads(line)
    except ValueError:
        err = " ".join(res.stderr.split())[-300:]
        return {"error": f"library probe failed (exit {res.returncode}){': ' + err if err else ''}"}
    return data if isinstance(data, dict) else {"error": "library probe gave no result"}


# --------------------------------------------------------------------------- gathering


def file_version(path: str | None) -> str | None:
    """``580.95.05`` for ``libcuda.so.1`` when it leads to ``libcuda.so.580.95.05`` (how drivers install it).

    The name of the file behind the path's links says it; None when that name
    ends in no ``.so.X.Y[.Z]``.
    """
    if not path:
        return None
    m = re.search(r"\.so\.(\d+\.\d+(?:\.\d+)?)$", os.path.realpath(path))
    return m.group(1) if m else None


def same_version(a: str, b: str) -> bool:
    """Equal, or one a component-wise prefix of the other (NVML prints ``535.161`` for ``535.161.07``)."""
    pa, pb = a.split("."), b.split(".")
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]


def _proc_source(proc_root: str) -> dict:
    path = os.path.join(proc_root, "driver", "nvidia", "version")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return {"path": path, "version": None,
                "reason": f"{path} does not exist: the nvidia kernel module is not loaded"}
    except OSError as exc:
        return {"path": path, "version": None, "reason": f"cannot read {path}: {exc.strerror}"}
    parsed = parse_proc_version(text)
    src = {"path": path, "version": parsed["version"], "flavor": parsed["flavor"], "reason": None}
    if parsed["version"] is None:
        first = text.strip().splitlines()[0] if text.strip() else "(empty)"
        src["reason"] = f"no version in {path}: {first[:200]}"
    return src


def _smi_source(smi: str, env: Mapping[str, str], deadline: float) -> tuple[dict, list[dict] | None]:
    from ..infra.run import run  # see the note above the imports

    src: dict[str, Any] = {"path": smi, "version": None, "cuda": None, "smi_version": None, "format": None,
                           "reason": None}

    def left() -> float:
        return deadline - time.monotonic()

    if left() <= 0:
        src["reason"] = "nvidia-smi skipped: the time budget was used up"
        return src, None
    given = left()
    res = run([smi], env=env, timeout=given)
    if res.timed_out:
        src["reason"] = f"nvidia-smi did not answer within {given:.3g}s and was killed (a wedged driver?)"
        return src, None
    banner = parse_smi_banner(res.stdout) if res.returncode == 0 else None
    if res.returncode != 0 or banner is None:
        src["reason"] = (parse_smi_failure(res.stdout + "\n" + res.stderr, res.returncode) if res.returncode
                         else "nvidia-smi printed no version banner")
        lib = re.search(r"NVML library version:\s*(\d[\w.]*)", res.stdout + res.stderr)
        if lib:
            src["library_version"] = lib.group(1)
        return src, None
    src.update(version=banner["driver"], cuda=banner["cuda"], smi_version=banner["smi"], format=banner["format"])

    # The GPUs. Old nvidia-smi rejects the whole query when it names compute_cap.
    gpus = None
    fields: tuple[str, ...] = SMI_QUERY_FIELDS
    for attempt in (0, 1):
        if left() <= 0:
            src["gpus_reason"] = "nvidia-smi --query-gpu skipped: the time budget was used up"
            break
        given = left()
        res = run([smi, "--query-gpu=" + ",".join(fields), "--format=csv,noheader"], env=env, timeout=given)
        if res.timed_out:
            src["gpus_reason"] = f"nvidia-smi --query-gpu did not answer within {given:.3g}s and was killed"
            break
        text = res.stdout + "\n" + res.stderr
        if res.returncode != 0 and attempt == 0 and "not a valid field" in text and "compute_cap" in text:
            src["compute_cap_field"] = False  # this nvidia-smi predates the field
            fields = _SMI_QUERY_FIELDS_OLD
            continue
        if res.returncode != 0:
            src["gpus_reason"] = "--query-gpu: " + parse_smi_failure(text, res.returncode)
            break
        gpus = [{"index": g["index"], "name": g.get("name"), "compute_cap": g.get("compute_cap"),
                 "uuid": g.get("uuid"), "driver_version": g.get("driver_version")}
                for g in parse_smi_query(res.stdout, fields)]
        break
    return src, gpus


def _not_loaded(lib: str, error: str | None) -> str:
    # ctypes' message already names the library ("libcuda.so.1: cannot open shared object file: ...")
    if error and error.startswith(lib):
        return f"{error} (not found by the loader)" if "cannot open shared object" in error else error
    return f"{lib} could not be loaded: {error or 'unknown error'}"


def _nvml_source(data: dict) -> tuple[dict, list[dict] | None]:
    src: dict[str, Any] = {"path": data.get("path"), "loaded": bool(data.get("loaded")), "version": None,
                           "cuda": None, "nvml_version": None, "reason": None}
    if not data.get("loaded"):
        src["reason"] = _not_loaded("libnvidia-ml.so.1", data.get("error"))
        return src, None
    if data.get("init") != 0:
        rc = data.get("init")
        src["reason"] = (f"nvmlInit failed: {_nvml_name(rc)}" if isinstance(rc, int)
                         else f"NVML unusable: {data.get('error')}")
        return src, None
    src["version"] = data.get("driver_version")
    src["nvml_version"] = data.get("nvml_version")
    if isinstance(data.get("cuda_int"), int) and data["cuda_int"] > 0:
        src["cuda"] = driver_cuda_from_int(data["cuda_int"])
    elif isinstance(data.get("cuda_rc"), int):
        src["cuda_reason"] = f"nvmlSystemGetCudaDriverVersion: {_nvml_name(data['cuda_rc'])}"
    gpus = data.get("gpus")
    return src, gpus if isinstance(gpus, list) else None


def _libcuda_source(data: dict) -> dict:
    path = data.get("path")
    src: dict[str, Any] = {"path": path, "loaded": bool(data.get("loaded")), "file_version": file_version(path),
                           "cuda": None, "stub": False, "init_result": data.get("init"), "reason": None}
    if not data.get("loaded"):
        src["reason"] = _not_loaded("libcuda.so.1", data.get("error"))
        return src
    init, vrc = data.get("init"), data.get("version_rc")
    if CUDA_ERROR_STUB_LIBRARY in (init, vrc):
        src["stub"] = True
        src["reason"] = (f"libcuda.so.1 is a stub library ({path or 'path unknown'}): "
                         f"{'cuInit' if init == CUDA_ERROR_STUB_LIBRARY else 'cuDriverGetVersion'} returned "
                         f"{_cu_name(CUDA_ERROR_STUB_LIBRARY)}; programs link against it but cannot run CUDA")
        return src
    if data.get("error"):
        src["reason"] = f"libcuda.so.1 unusable: {data['error']}"
        return src
    if vrc == 0 and isinstance(data.get("cuda_int"), int) and data["cuda_int"] > 0:
        src["cuda"] = driver_cuda_from_int(data["cuda_int"])
    else:
        src["reason"] = f"cuDriverGetVersion failed: {_cu_name(vrc) if isinstance(vrc, int) else vrc}"
    if isinstance(init, int) and init != 0:
        note = f"cuInit failed: {_cu_name(init)}"
        src["reason"] = f"{src['reason']}; {note}" if src["reason"] else note
    return src


def driver_facts(
    env: Mapping[str, str],
    proc_root: str = "/proc",
    nvidia_smi: str | None = None,
    timeout: float = 10,
) -> DriverFacts:
    """Everything that can be learned about the NVIDIA driver without root.

    Args:
        env: The environment the probes run with: ``PATH`` finds ``nvidia-smi``,
            ``LD_LIBRARY_PATH`` decides which ``libcuda.so.1`` and
            ``libnvidia-ml.so.1`` the loader finds.
        proc_root: Where ``driver/nvidia/version`` lives (tests use a fake tree).
        nvidia_smi: The nvidia-smi to run; None looks it up on ``env["PATH"]``.
        timeout: Seconds for all the probes together; a probe still running then
            is killed and reported.

    Returns:
        A plain (``marshal``-able) dict::

            {"present": bool,          # a real driver answered (kernel module or userspace)
             "version": "580.95.05" | None,  # nvidia-smi, else NVML, else libcuda's file name, else the kernel module
             "cuda": "13.0" | None,    # newest CUDA the driver supports (nvidia-smi, NVML, libcuda)
             "sources": {"proc": {...}, "nvidia-smi": {...}, "nvml": {...}, "libcuda": {...}},
             "gpus": [{"index": 0, "name": ..., "compute_cap": "8.9" | None, "uuid": ...}],
             "stub_loaded": bool,      # libcuda.so.1 resolved to a stub (CUDA_ERROR_STUB_LIBRARY)
             "reasons": [...]}         # why not present, and disagreements between sources

        Every source dict has a ``reason`` (None when it answered) next to what it
        found.
    """
    sources, raw_gpus = _sources(env, proc_root, nvidia_smi, timeout)
    proc, smi, nvml, cuda_lib = sources["proc"], sources["nvidia-smi"], sources["nvml"], sources["libcuda"]
    stub = bool(cuda_lib.get("stub"))
    real_libcuda = cuda_lib.get("path") is not None and not stub and cuda_lib.get("cuda") is not None

    # Which version to report: userspace first (what programs get), the kernel module last.
    version = (smi.get("version") or nvml.get("version")
               or (cuda_lib.get("file_version") if real_libcuda else None) or proc.get("version"))
    cuda = smi.get("cuda") or nvml.get("cuda") or (cuda_lib.get("cuda") if real_libcuda else None)
    present = bool(proc.get("version") or smi.get("version") or nvml.get("version") or real_libcuda)
    reasons = _failures(sources, present) + _disagreements(sources, version, real_libcuda)
    if present and smi.get("gpus_reason"):
        reasons.append(smi["gpus_reason"])
    gpus: list[Gpu] = [{"index": g["index"], "name": g.get("name"), "compute_cap": g.get("compute_cap"),
                        "uuid": g.get("uuid")} for g in raw_gpus]
    return {
        "present": present,
        "version": version,
        "cuda": cuda,
        "sources": sources,
        "gpus": gpus,
        "stub_loaded": stub,
        "reasons": reasons,
    }


def _sources(env: Mapping[str, str], proc_root: str, nvidia_smi: str | None,
             timeout: float) -> tuple[dict[str, dict], list[dict]]:
    """(the four sources of :func:`driver_facts`, the GPUs nvidia-smi or else NVML lists), within ``timeout``."""
    from ..env.pathlist import which  # here: this file also runs as a script (--probe-libraries)

    deadline = time.monotonic() + timeout
    sources: dict[str, dict] = {"proc": _proc_source(proc_root)}
    smi_path = nvidia_smi or which("nvidia-smi", env.get("PATH"))
    smi_gpus = None
    if smi_path is None:
        sources["nvidia-smi"] = {"path": None, "version": None, "cuda": None,
                                 "reason": "nvidia-smi is not on PATH"}
    else:
        sources["nvidia-smi"], smi_gpus = _smi_source(smi_path, env, deadline)

    left = deadline - time.monotonic()
    if left > 0:
        libs = probe_libraries(env, timeout=left)
    else:
        libs = {"error": "the driver libraries were not probed: the time budget was used up"}
    if "error" in libs and "nvml" not in libs:
        sources["nvml"] = {"path": None, "loaded": None, "version": None, "cuda": None, "reason": libs["error"]}
        sources["libcuda"] = {"path": None, "loaded": None, "cuda": None, "stub": False, "reason": libs["error"]}
        nvml_gpus = None
    else:
        sources["nvml"], nvml_gpus = _nvml_source(libs.get("nvml") or {})
        sources["libcuda"] = _libcuda_source(libs.get("libcuda") or {})
    return sources, smi_gpus if smi_gpus is not None else (nvml_gpus or [])


def _failures(sources: dict[str, dict], present: bool) -> list[str]:
    """Why no driver answered (``present`` False), or which source failed while others answered."""
    smi, nvml, cuda_lib = sources["nvidia-smi"], sources["nvml"], sources["libcuda"]
    if not present:
        return [sources[name]["reason"] for name in ("proc", "nvidia-smi", "nvml", "libcuda")
                if sources[name].get("reason")]
    # A source that failed while others answered is worth a line too; a missing
    # nvidia-smi or NVML is not (minimal installs, containers), a missing libcuda is.
    reasons = []
    if smi.get("reason") and smi.get("path"):
        reasons.append(smi["reason"])
    if nvml.get("reason") and nvml.get("loaded") is not False:
        reasons.append(nvml["reason"])
    if cuda_lib.get("stub"):
        reasons.append(cuda_lib["reason"] + "; with a real driver installed, take the stub directory off "
                       "LD_LIBRARY_PATH (CUDA calls fail with error 34)")
    elif cuda_lib.get("loaded") is False:
        reasons.append(cuda_lib["reason"] + ": CUDA programs cannot run here (in a container: is the "
                       "'compute' driver capability enabled?)")
    elif cuda_lib.get("reason"):
        reasons.append(cuda_lib["reason"])
    return reasons


def _disagreements(sources: dict[str, dict], version: str | None, real_libcuda: bool) -> list[str]:
    """Where the sources contradict each other: kernel vs userspace, versions, the CUDA version."""
    proc, smi, nvml, cuda_lib = sources["proc"], sources["nvidia-smi"], sources["nvml"], sources["libcuda"]
    reasons = []
    # Kernel module vs userspace: a mismatch breaks NVML and CUDA until a reboot or module reload.
    kernel = proc.get("version")
    userspace = [("nvidia-smi's NVML library", smi.get("library_version")),
                 ("libcuda.so.1", cuda_lib.get("file_version") if real_libcuda else None),
                 ("NVML", nvml.get("version"))]
    for what, uv in userspace:
        if kernel and uv and not same_version(kernel, uv):
            reasons.append(f"kernel module {kernel} but {what} {uv}: the driver was changed without a reboot "
                           "or module reload (Driver/library version mismatch)")
            break
    for name, v in (("nvidia-smi", smi.get("version")), ("NVML", nvml.get("version"))):
        if v and version and not same_version(v, version):
            reasons.append(f"{name} reports driver {v}, other sources {version}")
    if smi.get("smi_version") and smi.get("version") and not same_version(smi["smi_version"], smi["version"]):
        reasons.append(f"{smi.get('path')} is nvidia-smi {smi['smi_version']} but the driver is {smi['version']} "
                       "(an nvidia-smi bundled by a snap or container image?)")
    cudas = {c for c in (smi.get("cuda"), nvml.get("cuda"), cuda_lib.get("cuda") if real_libcuda else None) if c}
    if len(cudas) > 1:
        reasons.append(f"the sources disagree on the driver's CUDA version: {', '.join(sorted(cudas))} "
                       "(forward-compatibility libraries on LD_LIBRARY_PATH?)")
    return reasons


if __name__ == "__main__" and sys.argv[1:] == ["--probe-libraries"]:
    _probe_main()
