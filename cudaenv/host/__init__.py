"""Facts about this host, each cheap, cached where it costs a process, and optional.

* ``driver``        the NVIDIA driver and GPUs: /proc, nvidia-smi, NVML and libcuda in a child;
* ``compilers``     C++ compilers on PATH, their versions, which one a toolkit accepts;
* ``python_probe``  the interpreter a switch lands in and its torch (probed in a child, cached by stat).

Whether a real ``libcuda.so.1`` is reachable (which decides where stubs may go)
is asked on every ``use`` and lives with the stubs, in ``toolkit/stubs.py``.
"""

__all__ = ["cuda_of_int"]


def cuda_of_int(n: int) -> str:
    """CUDA's version integer as people write it: ``1000 * major + 10 * minor`` (CUDA_VERSION in cuda.h,
    ``cuDriverGetVersion``, ``cudaRuntimeGetVersion``), so 12040 -> ``"12.4"`` and 9020 -> ``"9.2"``.

    The one decoder of that integer (cuDNN and NCCL encode theirs differently); here, in the lowest folder that
    reads it (the driver probe), so every reader looks down. Callers check the range they accept (a driver's must be
    positive)."""
    return f"{n // 1000}.{n % 1000 // 10}"
