"""Facts about this host, each cheap, cached where it costs a process, and optional.

* ``driver``        the NVIDIA driver and GPUs: /proc, nvidia-smi, NVML and libcuda in a child;
* ``compilers``     C++ compilers on PATH, their versions, which one a toolkit accepts;
* ``python_probe``  the interpreter a switch lands in and its torch (probed in a child, cached by stat).

Whether a real ``libcuda.so.1`` is reachable (which decides where stubs may go)
is asked on every ``use`` and lives with the stubs, in ``toolkit/stubs.py``.
"""
