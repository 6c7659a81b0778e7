"""A link-time ``libcuda.so`` for toolkits that ship none, generated from their own ``cuda.h``.

Toolkits assembled from pip wheels (and ``/usr/local/cuda-13.0`` here) have no
``lib64/stubs/libcuda.so``, so ``gcc ... -lcuda`` fails with ``cannot find
-lcuda`` on a host without a driver. The stub only has to satisfy the linker:
every driver entry point exists and returns 34 (``CUDA_ERROR_STUB_LIBRARY``),
and the soname is ``libcuda.so.1``, the name the real driver library has, so a
program linked against it loads the real driver at run time.

The method (measured in shared/reference/testbed.md §5, checked against
NVIDIA's own 12.4 stub: every symbol but the internal ``cudbg*`` hooks):

1. preprocess ``cuda.h`` (+ ``cudaEGL.h``, ``cudaGL.h``, ``cudaVDPAU.h``,
   ``cudaProfiler.h`` when present) twice: normally, which applies the
   ``_v2``/``_v3`` renames, and with ``-D__CUDA_API_VERSION_INTERNAL``, which
   declares the legacy unversioned and per-thread-stream names. The window
   system headers they include are replaced by empty ones: only
   declarations are read;
2. one ``int f(void){return 34;}`` per ``CUresult cu*(`` declaration, plus the
   ``cuProfiler*`` names from ``cudaProfilerTypedefs.h``;
3. ``cc -shared -fPIC -Wl,-soname,libcuda.so.1``.

The result lives in cudaenv's cache (``toolkit/stubs.generated_stub_dir``: one
directory per toolkit, named by its ``stub_key``) with a small record of the
headers it came from; it is regenerated when they change. ``use`` only checks
that it exists.
"""

from __future__ import annotations

import marshal
import os
import time

from ..env.pathlist import which
from ..errors import CudaenvError
from ..infra.files import read_limited
from ..infra.private import Untrusted, ensure_dir, own_file, read_private_marshal, replace_file, write_private
from .stubs import generated_stub_dir
from .version import include_dirs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import Toolkit
    from typing import Any, Mapping

__all__ = ["StubError", "HEADERS", "STUB_RESULT", "include_dir", "stub_path", "stub_state", "generate",
           "ensure_stub", "entry_points", "c_compiler"]

#: Bump when the generator changes: existing stubs are then regenerated.
FORMAT = 1
#: What every stub function returns: CUDA_ERROR_STUB_LIBRARY.
STUB_RESULT = 34
#: Headers declaring driver entry points, preprocessed when present (cuda.h first, required).
HEADERS = ("cuda.h", "cudaEGL.h", "cudaGL.h", "cudaVDPAU.h", "cudaProfiler.h")
# Headers the ones above include from the window systems; empty stand-ins are enough
# (nothing is compiled, and the real ones may be missing or conflict).
_FAKE_HEADERS = ("GL/gl.h", "EGL/egl.h", "EGL/eglext.h", "EGL/eglplatform.h", "vdpau/vdpau.h")
# Fewer entry points than this means the header parse went wrong (11.8 has ~550, 13.5 ~720).
_MIN_ENTRY_POINTS = 300
_META = "stub.meta"


class StubError(CudaenvError):
    """Generation failed; ``output`` holds the compiler's output, if any."""

    def __init__(self, message: str, output: str = "", hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.output = output


def include_dir(root: str) -> str | None:
    """The toolkit's include directory holding ``cuda.h`` (``include/`` or ``targets/*/include``)."""
    for inc in include_dirs(root):
        if os.path.isfile(os.path.join(inc, "cuda.h")):
            return inc
    return None


def _source_sig(inc: str) -> tuple[object, ...]:
    """What the stub is made from: the stat of each header it reads."""
    out = [FORMAT, inc]
    for name in HEADERS + ("cudaProfilerTypedefs.h",):
        try:
            st = os.stat(os.path.join(inc, name))
            out.append((name, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((name, None))
    return tuple(out)


def stub_path(cache_dir: str, tk: Toolkit) -> str:
    """Where the generated ``libcuda.so`` for ``tk`` lives (whether or not it exists)."""
    return os.path.join(generated_stub_dir(cache_dir, tk), "libcuda.so")


def stub_state(cache_dir: str, tk: Toolkit) -> dict[str, Any] | None:
    """The record of ``tk``'s generated stub if it exists and matches the headers, else None."""
    path = stub_path(cache_dir, tk)
    inc = include_dir(tk["root"])
    # A cache: a FIFO or device in its place means "no stub", never a hang; one another user
    # could have written (infra/private.py) is no stub either.
    if inc is None or not own_file(path):
        return None
    meta = read_private_marshal(os.path.join(os.path.dirname(path), _META), 1 << 20)
    if not isinstance(meta, dict) or meta.get("sig") != _source_sig(inc):
        return None
    return dict(meta, path=path)


def c_compiler(env: Mapping[str, str]) -> str | None:
    """The C compiler a build in ``env`` uses: ``$CC``, else gcc, cc or clang on PATH."""
    cc = env.get("CC", "").split()
    for name in ([cc[0]] if cc else []) + ["gcc", "cc", "clang"]:
        path = which(name, env.get("PATH"))
        if path:
            return path
    return None


def entry_points(preprocessed: list[str], profiler_typedefs: str = "") -> list[str]:
    """Driver entry point names declared in preprocessed header text.

    Args:
        preprocessed: ``cc -E`` outputs of the driver headers.
        profiler_typedefs: Text of ``cudaProfilerTypedefs.h`` (its ``PFN_cuProfiler*``
            names cover toolkits whose ``cudaProfiler.h`` is missing).
    """
    import re

    names: set[str] = set()
    decl = re.compile(r"\bCUresult\s+(cu[A-Za-z0-9_]+)\s*\(")
    for text in preprocessed:
        names.update(decl.findall(text))
    names.update(re.findall(r"\bPFN_(cuProfiler[A-Za-z]+)_v\d+\b", profiler_typedefs))
    return sorted(names)


def generate(inc: str, out: str, env: Mapping[str, str], work: str, timeout: float = 120) -> dict[str, Any]:
    """Generate a stub from the headers in ``inc`` and write it to ``out`` (atomically).

    Args:
        inc: The toolkit's include directory (holding ``cuda.h``).
        out: Destination ``libcuda.so``.
        env: Environment for the compiler (its PATH and CC choose it).
        work: Scratch directory (its contents are left for the caller to remove).
        timeout: Seconds per compiler run.

    Returns:
        ``{"symbols": n, "compiler": path, "headers": [...], "seconds": s}``.

    Raises:
        StubError: no compiler, a compiler failure, too few entry points, or a
            result without the soname ``libcuda.so.1``.
    """
    from ..infra.run import run
    from ..infra.elf import read_elf

    t0 = time.monotonic()
    cc = c_compiler(env)
    if cc is None:
        raise StubError("no C compiler (gcc, cc or clang) on the profile's PATH to build the libcuda stub",
                        hint="install gcc")
    fake = os.path.join(work, "fake")
    for h in _FAKE_HEADERS:
        os.makedirs(os.path.dirname(os.path.join(fake, h)), exist_ok=True)
        open(os.path.join(fake, h), "w").close()
    headers = [h for h in HEADERS if os.path.isfile(os.path.join(inc, h))]
    if "cuda.h" not in headers:
        raise StubError(f"no cuda.h in {inc}")
    src = os.path.join(work, "all.c")
    with open(src, "w") as f:
        f.write("".join(f"#include <{h}>\n" for h in headers))
    texts = []
    for extra in ([], ["-D__CUDA_API_VERSION_INTERNAL"]):
        res = run([cc, "-E", "-P", *extra, "-I", fake, "-I", inc, src], env=env, cwd=work, timeout=timeout)
        if res.returncode != 0:
            why = "timed out" if res.timed_out else f"exited {res.returncode}"
            raise StubError(f"preprocessing {inc}/cuda.h for the libcuda stub failed ({os.path.basename(cc)} {why})",
                            output=res.stderr)
        texts.append(res.stdout)
    try:
        prof = read_limited(os.path.join(inc, "cudaProfilerTypedefs.h"), 4 << 20).decode("utf-8", "replace")
    except OSError:
        prof = ""
    names = entry_points(texts, prof)
    if len(names) < _MIN_ENTRY_POINTS or "cuInit" not in names or "cuDriverGetVersion" not in names:
        raise StubError(f"only {len(names)} driver entry points found in {inc}/cuda.h; not generating a stub")
    stub_c = os.path.join(work, "libcuda_stub.c")
    with open(stub_c, "w") as f:
        f.write(f"/* Generated by cudaenv from {inc}/cuda.h: a link-time stub of the CUDA driver API.\n"
                f"   Every entry point returns {STUB_RESULT} = CUDA_ERROR_STUB_LIBRARY. */\n")
        f.writelines(f"int {n}(void) {{ return {STUB_RESULT}; }}\n" for n in names)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # Built in the private work directory, then copied beside ``out`` under a fresh O_EXCL|O_NOFOLLOW
    # name and renamed: the compiler never writes through a name another user could have planted.
    tmp = os.path.join(work, "libcuda.so.out")
    try:
        res = run([cc, "-shared", "-fPIC", "-O0", "-Wl,-soname,libcuda.so.1", "-o", tmp, stub_c],
                  env=env, cwd=work, timeout=timeout)
        if res.returncode != 0:
            why = "timed out" if res.timed_out else f"exited {res.returncode}"
            raise StubError(f"building the libcuda stub failed ({os.path.basename(cc)} {why})", output=res.stderr)
        try:
            soname = read_elf(tmp).soname
        except (OSError, ValueError) as exc:
            raise StubError(f"the generated libcuda stub is unreadable: {exc}") from None
        if soname != "libcuda.so.1":
            raise StubError(f"the generated libcuda stub has soname {soname!r}, not 'libcuda.so.1'")
        with open(tmp, "rb") as f:
            replace_file(out, f.read(), 0o755)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return {"symbols": len(names), "compiler": cc, "headers": headers, "seconds": time.monotonic() - t0}


def ensure_stub(cache_dir: str, tk: Toolkit, env: Mapping[str, str], work: str | None = None,
                timeout: float = 120, force: bool = False) -> dict[str, Any]:
    """Make sure ``tk`` (a toolkit without ``lib64/stubs``) has an up-to-date generated stub.

    Args:
        cache_dir: cudaenv's cache directory.
        tk: The toolkit record.
        env: Environment for the compiler.
        work: Scratch directory (default: a private one under $TMPDIR, removed after).
        timeout: Seconds per compiler run.
        force: Regenerate even when the existing stub is up to date.

    Returns:
        The stub's record: ``path``, ``symbols``, ``compiler``, ``headers``, ``time``
        and ``generated`` (True when made by this call).

    Raises:
        StubError: generation failed (an existing stub is left in place).
    """
    if not force:
        state = stub_state(cache_dir, tk)
        if state is not None:
            state["generated"] = False
            return state
    inc = include_dir(tk["root"])
    if inc is None:
        raise StubError(f"CUDA {tk['full_version']} at {tk['root']} has no include/cuda.h to generate a stub from")
    import shutil
    import tempfile

    own = work is None
    if work is None:
        work = tempfile.mkdtemp(prefix="cudaenv-stub-", dir=env.get("TMPDIR") or None)
    try:
        sub = os.path.join(work, "libcuda-stub")
        os.makedirs(sub, exist_ok=True)
        path = stub_path(cache_dir, tk)
        sig = _source_sig(inc)
        try:
            ensure_dir(os.path.dirname(path))  # 0700, the user's own (else its one note)
            info = generate(inc, path, env, sub, timeout=timeout)
        except Untrusted as exc:
            raise StubError(f"not generating the libcuda stub into {os.path.dirname(path)}: {exc.strerror}") from None
        except OSError as exc:
            raise StubError(f"cannot write the libcuda stub to {os.path.dirname(path)}: {exc.strerror}",
                            hint="check that cudaenv's cache directory ($XDG_CACHE_HOME/cudaenv) is writable") from None
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)
    meta = {"format": FORMAT, "sig": sig, "symbols": info["symbols"], "compiler": info["compiler"],
            "headers": info["headers"], "time": time.time(), "root": tk["root"]}
    meta_path = os.path.join(os.path.dirname(path), _META)
    try:
        write_private(meta_path, marshal.dumps(meta))
    except OSError as exc:
        raise StubError(f"cannot write {meta_path}: {exc.strerror}") from None
    return dict(meta, path=path, generated=True, seconds=info["seconds"])
