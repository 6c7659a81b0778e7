"""Where Jupyter looks for kernelspecs, and whether an interpreter can run an IPython kernel.

The directories follow ``jupyter_core.paths`` on Linux (``jupyter --data-dir``,
``jupyter --paths``) without importing it: cudaenv may not run on the
interpreter that has Jupyter. An interpreter is asked about itself in a child
process (``infra/run``), never imported here.
"""

from __future__ import annotations

import os
import shlex

from ..env.pathlist import entries
from ..errors import CudaenvError
from ..infra.run import run
from .pyenv import locate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

__all__ = ["data_dir", "kernel_dirs", "prefix_kernels", "default_kernel_python", "probe_kernel_python"]


def data_dir(env: Mapping[str, str]) -> str:
    """The user's Jupyter data directory: ``$JUPYTER_DATA_DIR``, else ``$XDG_DATA_HOME/jupyter``, else
    ``~/.local/share/jupyter`` (what ``jupyter --data-dir`` prints on Linux)."""
    if env.get("JUPYTER_DATA_DIR"):
        return env["JUPYTER_DATA_DIR"]
    xdg = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "share")
    return os.path.join(xdg, "jupyter")


def prefix_kernels(prefix: str) -> str:
    """The kernelspec directory of an installation prefix (``--prefix``, ``--sys-prefix``)."""
    return os.path.join(prefix, "share", "jupyter", "kernels")


def kernel_dirs(env: Mapping[str, str]) -> list[str]:
    """Every directory Jupyter (started with ``env``) reads kernelspecs from, in its order, deduplicated.

    ``$JUPYTER_PATH`` entries, the user data dir, the active environment's
    prefix (``$VIRTUAL_ENV``, ``$CONDA_PREFIX``), then the system's.
    """
    data = entries(env.get("JUPYTER_PATH"))
    data.append(data_dir(env))
    data += [os.path.join(env[v], "share", "jupyter") for v in ("VIRTUAL_ENV", "CONDA_PREFIX") if env.get(v)]
    data += ["/usr/local/share/jupyter", "/usr/share/jupyter"]
    out: list[str] = []
    for d in data:
        k = os.path.join(d, "kernels")
        if k not in out:
            out.append(k)
    return out


def default_kernel_python(env: Mapping[str, str], cwd: str) -> str:
    """The interpreter of the active environment: ``$VIRTUAL_ENV``, ``$CONDA_PREFIX``, else ``python3`` on PATH.

    A pyenv shim is resolved to the interpreter it stands for now: a kernelspec
    must not change interpreter with the directory a notebook is opened in.

    Raises:
        CudaenvError: none is found.
    """
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        if env.get(var):
            for name in ("python", "python3"):
                p = os.path.join(env[var], "bin", name)
                if os.access(p, os.X_OK):
                    return p

    found = locate(env, cwd)
    if found and os.access(found["python"], os.X_OK):
        return found["python"]
    raise CudaenvError("no python3 found for the kernel (no active environment, none on PATH)",
                       hint="name one: --python /path/to/python", exit_code=2)


#: Run by the candidate interpreter: its prefix, major version, and where ipykernel is (nothing imported).
_PROBE = (
    "import sys\n"
    "try:\n"
    "    import importlib.util as u\n"
    "    s = u.find_spec('ipykernel')\n"
    "except Exception:\n"
    "    s = None\n"
    "v = ''\n"
    "if s is not None:\n"
    "    try:\n"
    "        from importlib.metadata import version\n"
    "        v = version('ipykernel')\n"
    "    except Exception:\n"
    "        pass\n"
    "print('cudaenv-kernel-probe')\n"
    "print(sys.prefix)\n"
    "print(sys.version_info[0])\n"
    "print(s.origin if s is not None and s.origin else '')\n"
    "print(v)\n"
)


def probe_kernel_python(python: str, env: Mapping[str, str]) -> dict:
    """Ask ``python`` for its prefix, major version and ipykernel.

    Returns:
        ``{"python", "prefix", "major", "ipykernel": version or "", "resources": dir or None}``.

    Raises:
        CudaenvError: it cannot run, or has no ipykernel (the message names the fix).
    """
    if not (os.path.isfile(python) and os.access(python, os.X_OK)):
        raise CudaenvError(f"{python}: no such interpreter (or not executable)", exit_code=2)
    res = run([python, "-c", _PROBE], env=env, cwd="/", timeout=120)
    lines = res.stdout.split("\n")
    if res.returncode != 0 or "cudaenv-kernel-probe" not in lines:
        why = (res.stderr.strip().splitlines() or [f"exit status {res.returncode}"])[-1]
        raise CudaenvError(f"{python} cannot run: {why}", exit_code=2)
    i = lines.index("cudaenv-kernel-probe")
    prefix, major, origin, version = (lines[i + 1:i + 5] + ["", "", "", ""])[:4]
    if not origin:
        raise CudaenvError(f"{python} has no ipykernel, so it cannot run a notebook kernel",
                           hint=f"install it: {shlex.quote(python)} -m pip install ipykernel", exit_code=2)
    res_dir = os.path.join(os.path.dirname(origin), "resources")
    return {"python": python, "prefix": prefix, "major": major, "ipykernel": version,
            "resources": res_dir if os.path.isdir(res_dir) else None}
