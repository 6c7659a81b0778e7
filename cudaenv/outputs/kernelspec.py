"""Jupyter kernelspecs that start a Python kernel under a profile.

How the profile reaches the kernel: the kernelspec's ``argv`` runs the kernel
through ``cudaenv exec TARGET -- PYTHON -m ipykernel_launcher -f
{connection_file}``, so at every kernel start the kernel gets exactly what
``use`` gives, computed from the environment Jupyter starts it with. Not the
``env`` field, because that is static: jupyter_client (6.0 and later) does
substitute ``${VAR}`` in it, through ``string.Template.safe_substitute``, but
a variable the server does not have stays as the literal text
``${LD_LIBRARY_PATH}``, which would put a bogus relative directory on the
loader path; the values also could not follow a profile edit, a moved stub
link, or a server started from another PATH, and ``cudaenv off`` could not
undo them. The cost: cudaenv must still be installed where the kernelspec
says when the kernel starts (as the kernel's Python must), and each start
pays one ``exec`` (see bench/).

Every kernelspec written here carries ``metadata.cudaenv`` (profile, target,
CUDA version, root, python); only those are ever replaced or removed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from ..errors import CudaenvError
from ..infra.atomic import write_atomic
from ..infra.files import read_limited
from ..infra.jsonout import dumps

__all__ = ["MARK", "LOGOS", "kernel_name", "valid_kernel_name", "kernelspec", "render", "read_spec", "is_ours",
           "install", "remove", "ours_in"]

#: The metadata key that marks a kernelspec as cudaenv's.
MARK = "cudaenv"
#: ipykernel's logo files, copied when the kernel's ipykernel has them (frontends show them).
LOGOS = ("logo-32x32.png", "logo-64x64.png", "logo-svg.svg")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")
#: jupyter_client fills ``{name}`` in argv words for these names; a word holding one cannot be written.
_ARGV_KEYS = ("connection_file", "resource_dir", "prefix")


def kernel_name(profile: str) -> str:
    """The default kernelspec name for a profile: ``cudaenv-<profile>``, in the characters Jupyter allows."""
    raw = f"cudaenv-{profile}".lower()
    out = "".join(c if c in _NAME_CHARS else "-" for c in raw)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-") or "cudaenv"


def valid_kernel_name(name: str) -> bool:
    """True when Jupyter accepts ``name`` as a kernelspec (directory) name: ``[a-z0-9._-]+``."""
    return bool(name) and name not in (".", "..") and all(c in _NAME_CHARS for c in name)


def kernelspec(runner: list[str], target: str, python: str, display_name: str, info: dict,
               debugger: bool = True) -> dict:
    """The kernel.json document (pure).

    Args:
        runner: The words that run this cudaenv (an absolute script, or python -m cudaenv).
        target: What ``cudaenv exec`` resolves at each start (a profile name or a toolkit root).
        python: The kernel's interpreter (absolute).
        info: What the metadata records (profile, cuda, root, ...).
        debugger: The kernel's ipykernel supports the debugger (6.0 and later).

    Raises:
        CudaenvError: a word jupyter_client would rewrite (``{connection_file}`` ...) is in a path.
    """
    argv = [*runner, "exec", target, "--", python, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    for word in argv[:-1]:
        for key in _ARGV_KEYS:
            if "{" + key + "}" in word:
                raise CudaenvError(f"cannot write a kernelspec: Jupyter would replace {{{key}}} in {word!r}",
                                   exit_code=2)
    return {
        "argv": argv,
        "display_name": display_name,
        "language": "python",
        "interrupt_mode": "signal",
        "metadata": {"debugger": debugger, MARK: dict(info, python=python, target=target)},
    }


def render(spec: dict) -> str:
    """kernel.json text (UTF-8 JSON, as ``ipykernel install`` writes it)."""
    return dumps(spec, indent=1) + "\n"


def read_spec(kernel_dir: str) -> dict | None:
    """The parsed kernel.json of ``kernel_dir``, or None (missing, unreadable, not a JSON object)."""
    try:
        # Bounded and non-blocking: a FIFO or /dev/zero named kernel.json is "not a spec", not a hang.
        data = json.loads(read_limited(os.path.join(kernel_dir, "kernel.json"), 1 << 20, whole=True).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def is_ours(spec: dict | None) -> bool:
    """True when ``spec`` was written by cudaenv."""
    meta = spec.get("metadata") if isinstance(spec, dict) else None
    return isinstance(meta, dict) and isinstance(meta.get(MARK), dict)


def install(kernels_dir: str, name: str, spec: dict, resources: str | None) -> tuple[str, bool]:
    """Write kernelspec ``name`` into ``kernels_dir`` (replacing only one of cudaenv's).

    A new kernelspec is assembled in a hidden directory beside ``kernels_dir`` and
    renamed into place, so Jupyter never lists a half-written one; a replaced one
    gets its kernel.json rewritten atomically.

    Returns:
        (the kernelspec directory, whether it replaced an earlier one).

    Raises:
        CudaenvError: the name is taken by a kernelspec cudaenv did not write, or writing failed.
    """
    dest = os.path.join(kernels_dir, name)
    text = render(spec)
    if os.path.lexists(dest):
        if not is_ours(read_spec(dest)):
            raise CudaenvError(f"{dest} exists and was not written by cudaenv; not replacing it",
                               hint="choose another --name", exit_code=2)
        write_atomic(os.path.join(dest, "kernel.json"), text, 0o644)
        return dest, True

    parent = os.path.dirname(kernels_dir)
    try:
        os.makedirs(kernels_dir, exist_ok=True)
        stage = tempfile.mkdtemp(prefix=".cudaenv-kernel-", dir=parent)
    except OSError as exc:
        raise CudaenvError(f"cannot write {dest}: {exc.strerror or exc}") from None
    try:
        os.chmod(stage, 0o755)
        for logo in LOGOS if resources else ():
            src = os.path.join(resources, logo)
            if os.path.isfile(src):
                shutil.copyfile(src, os.path.join(stage, logo))
        write_atomic(os.path.join(stage, "kernel.json"), text, 0o644)
        os.rename(stage, dest)
    except OSError as exc:
        shutil.rmtree(stage, ignore_errors=True)
        raise CudaenvError(f"cannot write {dest}: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return dest, False


def remove(kernel_dir: str) -> None:
    """Remove a kernelspec cudaenv wrote (renamed away first: Jupyter never sees half of it).

    Raises:
        CudaenvError: it is not cudaenv's, or cannot be removed.
    """
    if not is_ours(read_spec(kernel_dir)):
        raise CudaenvError(f"{kernel_dir} was not written by cudaenv; not removing it",
                           hint="jupyter kernelspec remove removes any kernelspec", exit_code=2)

    parent = os.path.dirname(os.path.dirname(kernel_dir))
    try:
        trash = tempfile.mkdtemp(prefix=".cudaenv-kernel-old-", dir=parent)
        os.rename(kernel_dir, os.path.join(trash, "k"))
    except OSError as exc:
        raise CudaenvError(f"cannot remove {kernel_dir}: {exc.strerror or exc}") from None
    shutil.rmtree(trash, ignore_errors=True)


def ours_in(kernels_dir: str) -> list[tuple[str, str, dict]]:
    """(name, directory, kernel.json) of every cudaenv kernelspec in ``kernels_dir``, by name."""
    try:
        names = sorted(os.listdir(kernels_dir))
    except OSError:
        return []
    out = []
    for n in names:
        d = os.path.join(kernels_dir, n)
        spec = read_spec(d) if os.path.isdir(d) else None
        if is_ours(spec):
            out.append((n, d, spec))
    return out
