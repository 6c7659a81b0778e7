"""The verify steps: each builds, links or runs one tiny program and says pass, fail or skip.

Every step runs its commands through :mod:`cudaenv.run` with the profile's
computed environment (``job.env``), in the job's private directory, and
returns a :class:`Step`. A failure carries the last lines of the tool's
output and what ``cudaenv explain`` recognises in it. A pass is never taken
from an exit status alone: binaries are checked for what they link and
embed, programs for the values the kernel wrote.
"""

from __future__ import annotations

import os
import time

from ..infra.run import run
from . import programs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .runner import Job

__all__ = ["Step", "Cancelled", "STEP_TITLES", "tail", "explain_dicts", "step_stub", "step_nvcc", "step_link",
           "step_torch_build", "step_torch_run", "step_run_program", "step_addon_build", "step_addon_run"]

#: Step ids in report order, with what each one proves.
STEP_TITLES = {
    "setup": "the profile's environment could be computed",
    "libcuda-stub": "link-time libcuda stub generated from the toolkit's cuda.h",
    "nvcc-shared": "runtime program built by nvcc -cudart shared",
    "nvcc-static": "runtime program built by nvcc -cudart static",
    "link-lcuda": "driver API program linked with -lcuda by the host compiler through LIBRARY_PATH",
    "torch-build": "torch CUDA extension built by BuildExtension (torch's CUDA version check)",
    "torch-import": "the torch extension imports",
    "run-shared": "the -cudart shared program runs and its kernel writes the right values",
    "run-static": "the -cudart static program runs and its kernel writes the right values",
    "run-driver": "the driver API program initialises the driver",
    "torch-call": "the torch extension's kernel writes the right values",
    "cudnn-build": "a cuDNN program built by nvcc: cudnn.h from CPATH, -lcudnn from LIBRARY_PATH (the profile's add-on)",
    "cudnn-run": "it runs (no GPU needed) and reports the add-on's cuDNN, built for the toolkit's CUDA major",
    "nccl-build": "an NCCL program built by nvcc: nccl.h from CPATH, -lnccl from LIBRARY_PATH (the profile's add-on)",
    "nccl-run": "it runs (no GPU needed) and reports the add-on's NCCL",
}
_TAIL_LINES = 20
_LINE_MAX = 400


class Cancelled(Exception):
    """The verify was interrupted (Ctrl-C, SIGTERM): stop without a result."""


class Step:
    """One step's result.

    Attributes:
        id: A key of :data:`STEP_TITLES`.
        status: ``pass``, ``fail`` or ``skip``.
        summary: One line: what was done and found, or why it was skipped.
        seconds: Wall time.
        command: The main command, as text (empty when nothing ran).
        output: Last lines of the tool's output (failures only).
        explain: What ``cudaenv explain`` found in the output: dicts with
            ``id``, ``title``, ``cause``, ``fix``, ``check``, ``matched``.
        warnings: Warnings worth showing even on a pass.
    """

    __slots__ = ("id", "status", "summary", "seconds", "command", "output", "explain", "warnings")

    def __init__(self, id: str, status: str, summary: str, seconds: float = 0.0, command: str = "",
                 output: list[str] | None = None, explain: list[dict] | None = None,
                 warnings: list[str] | None = None) -> None:
        self.id = id
        self.status = status
        self.summary = summary
        self.seconds = seconds
        self.command = command
        self.output = output or []
        self.explain = explain or []
        self.warnings = warnings or []

    def to_dict(self) -> dict:
        return {"id": self.id, "status": self.status, "summary": self.summary, "seconds": round(self.seconds, 3),
                "command": self.command, "output": list(self.output), "explain": list(self.explain),
                "warnings": list(self.warnings)}


def tail(text: str, n: int = _TAIL_LINES) -> list[str]:
    """The last ``n`` non-blank lines of ``text``, each cut to a readable length."""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    return [ln if len(ln) <= _LINE_MAX else ln[:_LINE_MAX] + "…" for ln in lines[-n:]]


def explain_dicts(text: str) -> list[dict]:
    """What ``cudaenv explain`` recognises in ``text``, as plain dicts."""
    from ..knowledge.explain import explain

    out = []
    for m in explain(text):
        out.append({"id": m.id, "title": m.title, "cause": m.cause, "fix": m.fix, "check": m.check,
                    "matched": m.matched})
    return out


def _cmdline(argv: list[str]) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in argv)


# What a host without a driver is expected to print (torch initialising CUDA against the
# stub that `use` puts on the loader path there): not the reason anything failed.
_DRIVERLESS_IDS = ("runtime.stub_library", "torch.no_driver", "runtime.no_device")
_DRIVERLESS_TEXT = ("CUDA driver is a stub library", "Found no NVIDIA driver", "CUDA initialization:")


def _relevant(matches: list[dict], driverless: bool) -> list[dict]:
    """Drop the no-driver explanations on a driverless host when something else explains the failure."""
    if not driverless:
        return matches
    rest = [m for m in matches if m["id"] not in _DRIVERLESS_IDS]
    return rest or matches


def _failed(step_id: str, summary: str, t0: float, argv: list[str] | None, text: str,
            driverless: bool = False) -> Step:
    return Step(step_id, "fail", summary, time.monotonic() - t0, _cmdline(argv) if argv else "",
                tail(text), _relevant(explain_dicts(text), driverless))


def _exec(job: Job, step_id: str, argv: list[str], env: dict | None = None, cwd: str | None = None):
    """Run one command for ``step_id`` (progress shown, cancellation honoured)."""
    if job.cancelled():
        raise Cancelled()
    job.progress.start(job.label, step_id)
    try:
        res = run(argv, env=job.env if env is None else env, cwd=cwd or job.work, timeout=job.timeout,
                  merge_stderr=True)
    finally:
        job.progress.end(job.label)
    if res.cancelled or job.cancelled():
        raise Cancelled()
    return res


def _why_failed(res, tool: str, timeout: float) -> str:
    if res.timed_out:
        return f"{tool} did not finish within {timeout:g} s (killed with its process group; --timeout raises the limit)"
    if res.returncode == 127 and res.stdout.startswith(res.args[0] + ":"):
        return f"{tool} could not be started: {res.stdout.strip()}"
    if res.returncode < 0:
        return f"{tool} was killed by signal {-res.returncode}"
    return f"{tool} exited with status {res.returncode}"


# --------------------------------------------------------------------------- stub

def step_stub(job: Job) -> Step:
    """Generate (or reuse) the libcuda stub of a toolkit that ships none."""
    from ..toolkit.stubgen import StubError, ensure_stub

    t0 = time.monotonic()
    if job.cancelled():
        raise Cancelled()
    job.progress.start(job.label, "libcuda-stub")
    try:
        info = ensure_stub(job.cache_dir, job.tk, job.env, work=job.work, timeout=job.timeout)
    except StubError as exc:
        if job.cancelled():
            raise Cancelled() from None
        return Step("libcuda-stub", "fail", exc.message, time.monotonic() - t0, "", tail(exc.output),
                    explain_dicts(exc.output))
    finally:
        job.progress.end(job.label)
    how = "generated" if info["generated"] else "up to date"
    return Step("libcuda-stub", "pass",
                f"{how}: {info['symbols']} driver entry points from {', '.join(info['headers'])} -> {info['path']} "
                "(on the profile's LIBRARY_PATH)",
                time.monotonic() - t0)


# --------------------------------------------------------------------------- nvcc

def step_nvcc(job: Job, mode: str) -> Step:
    """Compile and link the runtime program with ``nvcc -cudart <mode>``."""
    from ..infra.elf import read_elf

    sid = f"nvcc-{mode}"
    t0 = time.monotonic()
    nvcc = job.nvcc
    want = os.path.join(job.tk["root"], "bin", "nvcc")
    if nvcc is None:
        return Step(sid, "fail", "no nvcc on the profile's PATH", 0.0)
    if os.path.realpath(nvcc) != os.path.realpath(want):
        return Step(sid, "fail", f"the nvcc first on the profile's PATH is {nvcc}, not the toolkit's {want}", 0.0)
    src = job.write("rt.cu", programs.RUNTIME_CU)
    out = os.path.join(job.work, f"rt_{mode}")
    argv = [nvcc, "-cudart", mode, *job.arch["nvcc"], "-o", out, src]
    res = _exec(job, sid, argv)
    if res.returncode != 0:
        return _failed(sid, _why_failed(res, "nvcc", job.timeout), t0, argv, res.stdout)
    try:
        info = read_elf(out)
    except (OSError, ValueError) as exc:
        return _failed(sid, f"nvcc exited 0 but its output is unusable: {exc}", t0, argv, res.stdout)
    if ".nv_fatbin" not in info.sections:
        return _failed(sid, "nvcc exited 0 but the binary holds no device code (.nv_fatbin)", t0, argv, res.stdout)
    cudart = [n for n in info.needed if n.startswith("libcudart.so")]
    if mode == "shared" and not cudart:
        return _failed(sid, "built with -cudart shared but the binary does not need libcudart.so", t0, argv,
                       res.stdout)
    if mode == "static" and cudart:
        return _failed(sid, f"built with -cudart static but the binary needs {cudart[0]}", t0, argv, res.stdout)
    how = f"needs {cudart[0]}" if cudart else "cudart linked in"
    return Step(sid, "pass", f"nvcc {job.tk['version']} {' '.join(job.arch['nvcc'])} with {job.host_desc}: {how}",
                time.monotonic() - t0, _cmdline(argv), warnings=_nvcc_warnings(res.stdout))


def _nvcc_warnings(text: str) -> list[str]:
    out = []
    for ln in text.splitlines():
        if "warning" in ln.lower() and ln.strip() not in out:
            out.append(ln.strip()[:_LINE_MAX])
    return out[:5]


# --------------------------------------------------------------------------- -lcuda

def step_link(job: Job) -> Step:
    """Link the driver API program with ``-lcuda`` by the host compiler, through LIBRARY_PATH only.

    No ``-L``: nvcc's own nvcc.profile adds the stubs directory, which would hide
    a missing LIBRARY_PATH; setup.py and CMake builds link with the host compiler.
    """
    from ..infra.elf import read_elf

    t0 = time.monotonic()
    cxx = job.cxx
    if cxx is None:
        return Step("link-lcuda", "fail", "no host C++ compiler (g++, c++) on the profile's PATH", 0.0)
    src = job.write("drv.cpp", programs.DRIVER_CPP)
    out = os.path.join(job.work, "drv")
    argv = [cxx, "-I", job.include_dir, src, "-lcuda", "-o", out]
    res = _exec(job, "link-lcuda", argv)
    if res.returncode != 0:
        return _failed("link-lcuda", _why_failed(res, os.path.basename(cxx), job.timeout), t0, argv, res.stdout)
    try:
        needed = read_elf(out).needed
    except (OSError, ValueError) as exc:
        return _failed("link-lcuda", f"the link exited 0 but its output is unusable: {exc}", t0, argv, res.stdout)
    if "libcuda.so.1" not in needed:
        got = ", ".join(n for n in needed if n.startswith("libcuda")) or "no libcuda"
        return _failed("link-lcuda", f"linked, but the program needs {got} instead of libcuda.so.1 (a stub with the "
                       "wrong soname?)", t0, argv, res.stdout)
    return Step("link-lcuda", "pass", f"{os.path.basename(cxx)} -lcuda found {job.libcuda_found()}",
                time.monotonic() - t0, _cmdline(argv))


# --------------------------------------------------------------------------- torch

def _torch_warnings(text: str, driverless: bool = False) -> list[str]:
    """torch's own warnings from a build log (the minor-version mismatch, compiler bounds)."""
    out: list[str] = []
    for ln in text.splitlines():
        s = ln.strip()
        msg = None
        if "UserWarning:" in s:
            msg = s.split("UserWarning:", 1)[1].strip()
        elif s[:1] == "W" and s[1:5].isdigit() and "cpp_extension.py:" in s and "] " in s:
            msg = s.split("] ", 1)[1].strip()  # torch's logger: W1122 01:43:41.151000 17929 torch/utils/...py:652] msg
        if driverless and msg and any(t in msg for t in _DRIVERLESS_TEXT):
            continue
        if msg and not msg.startswith("No CUDA runtime is found") and msg not in out:
            out.append(msg[:_LINE_MAX])
    return out[:8]


def step_torch_build(job: Job) -> Step:
    """Build the tiny CUDA extension with torch's BuildExtension in the target interpreter."""
    t0 = time.monotonic()
    py = job.python
    tdir = os.path.join(job.work, "torch")
    os.makedirs(tdir, exist_ok=True)
    job.write("torch/ext.cpp", programs.EXT_CPP)
    job.write("torch/ext_kernel.cu", programs.EXT_CU)
    script = job.write("torch/build.py", programs.TORCH_BUILD_PY)
    env = job.torch_env()
    argv = [py, script]
    res = _exec(job, "torch-build", argv, env=env, cwd=tdir)
    marks = programs.parse_marked(res.stdout)
    if res.returncode == 4 and "torch" in marks:
        return Step("torch-build", "skip", f"torch in {py} is a CPU build (torch.version.cuda is None): "
                    "it cannot build CUDA extensions", time.monotonic() - t0)
    if res.returncode != 0:
        return _failed("torch-build", _why_failed(res, "the extension build", job.timeout), t0, argv, res.stdout,
                       job.driverless)
    built = [n for n in os.listdir(tdir) if n.startswith(programs.EXT_NAME) and n.endswith(".so")]
    if "built" not in marks or not built:
        return _failed("torch-build", "setup() returned but no extension module was built", t0, argv, res.stdout,
                       job.driverless)
    return Step("torch-build", "pass",
                f"{job.torch_desc}, nvcc {job.tk['version']}, TORCH_CUDA_ARCH_LIST={job.arch['torch']}: {built[0]}",
                time.monotonic() - t0, _cmdline(argv), warnings=_torch_warnings(res.stdout, job.driverless))


def step_torch_run(job: Job, call: bool) -> tuple[Step, Step | None]:
    """Import the built extension (and with ``call`` run its kernel): (import step, call step or None)."""
    t0 = time.monotonic()
    tdir = os.path.join(job.work, "torch")
    script = job.write("torch/run.py", programs.TORCH_RUN_PY)
    argv = [job.python, script] + (["call"] if call else [])
    res = _exec(job, "torch-call" if call else "torch-import", argv, env=job.torch_env(), cwd=tdir)
    marks = programs.parse_marked(res.stdout)
    seconds = time.monotonic() - t0
    if "import" not in marks:
        imp = _failed("torch-import", _why_failed(res, "importing the extension", job.timeout), t0, argv, res.stdout,
                      job.driverless)
        return imp, (Step("torch-call", "skip", "the extension did not import") if call else None)
    import json

    where = json.loads(marks["import"]).get("file", "")
    if not where.startswith(tdir + os.sep):
        imp = _failed("torch-import", f"imported {programs.EXT_NAME} from {where}, not the module just built",
                      t0, argv, res.stdout)
        return imp, (Step("torch-call", "skip", "the extension did not import") if call else None)
    imp = Step("torch-import", "pass", f"imported {os.path.basename(where)}", seconds, _cmdline(argv))
    if not call:
        return imp, None
    bad = programs._check_values(marks)
    if bad is None and res.returncode == 0:
        return imp, Step("torch-call", "pass", f"the extension's kernel wrote {programs.N} correct values", seconds,
                         _cmdline(argv))
    why = bad or _why_failed(res, "the extension call", job.timeout)
    return imp, _failed("torch-call", why, t0, argv, res.stdout)


# --------------------------------------------------------------------------- run

def step_run_program(job: Job, which: str) -> Step:
    """Run a built program on the GPU and check what it printed."""
    sid = {"shared": "run-shared", "static": "run-static", "driver": "run-driver"}[which]
    t0 = time.monotonic()
    exe = os.path.join(job.work, "drv" if which == "driver" else f"rt_{which}")
    res = _exec(job, sid, [exe])
    if which == "driver":
        ok, summary = programs.check_driver_output(res.stdout, res.returncode)
    else:
        ok, summary = programs.check_runtime_output(res.stdout, res.returncode, job.tk["version"])
    if res.timed_out:
        ok, summary = False, _why_failed(res, os.path.basename(exe), job.timeout)
    if ok:
        return Step(sid, "pass", summary, time.monotonic() - t0, exe)
    return _failed(sid, summary, t0, [exe], res.stdout)


# --------------------------------------------------------------------------- add-ons (cuDNN, NCCL)

def step_addon_build(job: Job, kind: str) -> Step:
    """Compile and link the add-on ``kind``'s program with the toolkit's nvcc, through CPATH and LIBRARY_PATH only."""
    from ..infra.elf import read_elf
    from ..toolkit.addons import KINDS

    sid = f"{kind}-build"
    info = KINDS[kind]
    t0 = time.monotonic()
    nvcc = job.nvcc
    if nvcc is None:
        return Step(sid, "fail", "no nvcc on the profile's PATH")
    src = job.write(f"{kind}_version.cpp", programs.ADDON_PROGRAMS[kind] % {"mark": programs.MARK})
    out = os.path.join(job.work, f"{kind}_version")
    argv = [nvcc, "-o", out, src, f"-l{info['lib']}"]
    res = _exec(job, sid, argv)
    if res.returncode != 0:
        return _failed(sid, _why_failed(res, "nvcc", job.timeout) + f" (the header from CPATH, -l{info['lib']} "
                           "from LIBRARY_PATH)", t0, argv, res.stdout)
    soname = f"lib{info['lib']}.so.{info['soname_major']}"
    try:
        needed = read_elf(out).needed
    except (OSError, ValueError) as exc:
        return _failed(sid, f"nvcc exited 0 but its output is unusable: {exc}", t0, argv, res.stdout)
    if soname not in needed:
        return _failed(sid, f"linked, but the program does not need {soname}", t0, argv, res.stdout)
    return Step(sid, "pass", f"nvcc {job.tk['version']} compiled {info['header']} (CPATH) and linked "
                f"-l{info['lib']} (LIBRARY_PATH): needs {soname}", time.monotonic() - t0, _cmdline(argv))


def step_addon_run(job: Job, kind: str, built: Step, version: str | None, driverless: bool) -> Step:
    """Run the add-on's program (no GPU needed) and check the library it loaded; a skip where it cannot start driverless."""
    sid = f"{kind}-run"
    if built.status != "pass":
        return Step(sid, "skip", "not built")
    t0 = time.monotonic()
    exe = os.path.join(job.work, f"{kind}_version")
    res = _exec(job, sid, [exe])
    ok, summary = programs.check_addon_output(kind, res.stdout, res.returncode, version, job.tk["version"].split(".")[0])
    if res.timed_out:
        ok, summary = False, _why_failed(res, os.path.basename(exe), job.timeout)
    if ok:
        return Step(sid, "pass", summary, time.monotonic() - t0, exe)
    if driverless and res.returncode != 0 and not programs.parse_marked(res.stdout).get(kind):
        return Step(sid, "skip", f"it does not start on this host without an NVIDIA driver ({summary})",
                    time.monotonic() - t0, exe)
    return _failed(sid, summary, t0, [exe], res.stdout)
