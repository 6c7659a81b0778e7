"""Run verify for one or many targets: preparation, the cache, steps, parallelism, Ctrl-C.

One target is a (profile, toolkit) pair. :func:`prepare` computes what the
result depends on (the profile's environment, the target Python, the cache
key) from metadata only; :func:`verify_one` reuses a cached pass or runs the
steps in a private directory under $TMPDIR; :func:`verify_targets` does that
for many targets on a thread pool (the work is in subprocesses), hands the
results back in the order asked, and on Ctrl-C kills every running command's
process group and removes every private directory before re-raising.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time

from ..env.pathlist import entries, which
from ..errors import CudaenvError
from ..infra.progress import Display
from . import cache as vcache
from .prep import DEFAULT_TIMEOUT, Options, Prep, cached_result, prepare, probe_target
from .steps import STEP_TITLES, Cancelled, Step

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..toolkit.types import Toolkit
    from ..profiles.model import Profile
    from typing import Callable, Mapping, TextIO

    from ..context import Context

__all__ = ["Options", "Job", "Progress", "DEFAULT_TIMEOUT", "verify_one", "verify_targets", "run_command",
           "choose_arch", "host_facts", "sweep_stale", "make_workdir", "TMP_PREFIX"]

#: Private directories are named ``cudaenv-verify-<pid>-<random>`` under $TMPDIR.
TMP_PREFIX = "cudaenv-verify-"
_KEEP_MARK = ".cudaenv-keep"


# --------------------------------------------------------------------------- host facts

_HOST_LOCK = threading.Lock()
_HOST: dict = {}


def host_facts(ctx: Context) -> dict:
    """Driver and GPUs, once per process: ``{"gpu": bool, "gpus": [...], "reason": str}``.

    The cheap test first (kernel module or a libcuda.so.1 the loader knows);
    only a host that has a driver pays for the full probe (nvidia-smi, NVML).
    """
    with _HOST_LOCK:
        if "gpu" in _HOST:
            return _HOST
        from ..toolkit.stubs import driver_present

        if not driver_present(ctx.env, proc_root=ctx.proc_root):
            _HOST.update(gpu=False, gpus=[], driver=False, reason="no NVIDIA driver on this host (no kernel module, "
                         "no libcuda.so.1 known to the loader)")
            return _HOST
        _HOST["driver"] = True
        from ..checks.gather import driver

        facts = driver(ctx)
        gpus = facts.get("gpus") or []
        if facts.get("present") and gpus:
            _HOST.update(gpu=True, gpus=gpus, reason="")
        elif facts.get("present"):
            _HOST.update(gpu=False, gpus=[], reason="the NVIDIA driver lists no GPU")
        else:
            why = "; ".join(facts.get("reasons") or []) or "the NVIDIA driver did not answer"
            _HOST.update(gpu=False, gpus=[], reason=why)
        return _HOST


def choose_arch(tk: Toolkit, index, gpus: list[dict], timeout: float | None = None) -> dict:
    """The one architecture to build for: the GPU's when known, else one the toolkit supports.

    Returns:
        ``{"sm": int|None, "nvcc": [flags], "torch": TORCH_CUDA_ARCH_LIST, "label", "why"}``.
    """
    from ..toolkit.facts import gpu_archs

    known = gpu_archs(tk, index) if timeout is None else gpu_archs(tk, index, timeout=timeout)
    sms = list(known.get("sm") or [])
    if not sms and known.get("range"):
        lo, hi = known["range"]
        sms = [s for s in (50, 52, 60, 61, 70, 75, 80, 86, 89, 90, 100, 120) if lo <= s <= hi]
    cap = None
    for g in gpus:
        cc = g.get("compute_cap") or ""
        if cc.replace(".", "").isdigit() and "." in cc:
            major, minor = cc.split(".")[:2]
            cap = int(major) * 10 + int(minor)
            name = g.get("name") or "the GPU"
            break
    if cap is not None:
        if not sms or cap in sms or cap < min(sms):
            # Too old for this toolkit: build for it anyway, so nvcc says so.
            return {"sm": cap, "nvcc": [f"-arch=sm_{cap}"], "torch": f"{cap // 10}.{cap % 10}",
                    "label": f"sm_{cap}", "why": f"the GPU's ({name})"}
        best = max(s for s in sms if s <= cap)
        return {"sm": best, "nvcc": ["-gencode", f"arch=compute_{best},code=compute_{best}"],
                "torch": f"{best // 10}.{best % 10}+PTX", "label": f"compute_{best} (PTX)",
                "why": f"the GPU ({name}) is sm_{cap}, newer than CUDA {tk['version']} knows: PTX the driver compiles"}
    if not sms:
        return {"sm": None, "nvcc": [], "torch": "8.0", "label": "nvcc's default",
                "why": "no GPU, and the toolkit did not list its architectures"}
    sm = 80 if 80 in sms else min(sms)
    return {"sm": sm, "nvcc": [f"-arch=sm_{sm}"], "torch": f"{sm // 10}.{sm % 10}", "label": f"sm_{sm}",
            "why": "no GPU here: one the toolkit supports"}


# --------------------------------------------------------------------------- progress

class Progress:
    """Which step is running, and for how long, on stderr (through the one display).

    On a terminal one row per running target is redrawn twice a second;
    otherwise (CI logs) a line is printed when a long step starts and when a
    step has been running for 15 s, 1 min and then every minute.
    """

    LONG = ("torch-build",)

    def __init__(self, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.enabled = enabled
        self.display = Display(self._rows, stream=stream, interval=0.0, enabled=enabled)
        self.tty = self.display.tty
        self.lock = threading.Lock()
        self.running: dict[str, list] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _rows(self, cols: int) -> list[str]:  # noqa: ARG002 - the display cuts rows to fit
        now = time.monotonic()
        with self.lock:
            return [f"cudaenv verify: {label}: {step} {int(now - t0)} s"
                    for label, (step, t0, _) in self.running.items()]

    def start(self, label: str, step: str) -> None:
        if not self.enabled:
            return
        with self.lock:
            self.running[label] = [step, time.monotonic(), 15.0]
            if not self.tty and step in self.LONG:
                self.display.line(f"cudaenv verify: {label}: {step} ({STEP_TITLES.get(step, step)}) started; "
                                  "this takes minutes")
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="cudaenv-verify-progress", daemon=True)
                self._thread.start()

    def end(self, label: str) -> None:
        with self.lock:
            self.running.pop(label, None)

    def _loop(self) -> None:
        while not self._stop.wait(0.5):
            if self.tty:
                self.display.draw(force=True)
                continue
            with self.lock:
                now = time.monotonic()
                for label, ent in self.running.items():
                    step, t0, due = ent
                    if now - t0 >= due:
                        self.display.line(f"cudaenv verify: {label}: {step} still running ({int(now - t0)} s)")
                        ent[2] = 60.0 if due < 60 else due + 60.0

    def write(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` (which writes results) with the progress rows out of the way."""
        self.display.aside(fn)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        self.display.close()


# --------------------------------------------------------------------------- one target

class Job:
    """One target's cold verify: its inputs, private directory and helpers for the steps."""

    def __init__(self, ctx: Context, prep: Prep, opts: Options, work: str, arch: dict, progress: Progress,
                 cancel: threading.Event, driverless: bool = False) -> None:
        from ..toolkit.stubgen import include_dir

        self.ctx = ctx
        self.cache_dir = ctx.cache_dir
        self.profile = prep.profile
        self.tk = prep.tk
        self.label = prep.profile["name"]
        self.opts = opts
        self.timeout = opts.timeout
        self.work = work
        self.arch = arch
        self.progress = progress
        self.cancel = cancel
        self.driverless = driverless
        self.include_dir = include_dir(self.tk["root"]) or os.path.join(self.tk["root"], "include")
        self.set_prep(prep)

    def set_prep(self, prep: Prep) -> None:
        """Take the (re)computed environment: after a stub is generated it changes."""
        self.prep = prep
        # The tools' own scratch files (nvcc's tmpxft_*, ninja's) go inside the private
        # directory too, so a killed build leaves nothing behind in $TMPDIR.
        tmp = os.path.join(self.work, "tmp")
        os.makedirs(tmp, exist_ok=True)
        self.env = dict(prep.env, TMPDIR=tmp)
        self.nvcc = which("nvcc", self.env.get("PATH"))
        self.cxx = self._cxx()
        self.host_desc = self._host_desc()
        self.python = prep.python
        info = prep.python_info or {}
        t = info.get("torch") or {}
        self.torch_desc = f"torch {t.get('version')} (CUDA {t.get('cuda')})" if t.get("version") else None

    def _cxx(self) -> str | None:
        for var in ("CUDAHOSTCXX", "CXX"):
            words = self.env.get(var, "").split()
            if words:
                found = words[0] if "/" in words[0] else which(words[0], self.env.get("PATH"))
                if found:
                    return found
        return which("g++", self.env.get("PATH")) or which("c++", self.env.get("PATH"))

    def _host_desc(self) -> str:
        from ..host.compilers import compiler_info, default_compiler

        ccbin = vcache.ccbin_of(self.env)
        if ccbin:
            path = ccbin if "/" in ccbin else which(ccbin, self.env.get("PATH"))
            info = compiler_info(path, self.ctx.index) if path else None
            name = os.path.basename(ccbin)
            return f"-ccbin {name}" + (f" ({info['family']} {info['version']})" if info else "")
        info = default_compiler(self.env, self.ctx.index)
        if info is None:
            return "no host compiler found"
        return f"{os.path.basename(info['path'])} ({info['family']} {info['version']})"

    def cancelled(self) -> bool:
        return self.cancel.is_set()

    def write(self, rel: str, text: str) -> str:
        path = os.path.join(self.work, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def torch_env(self) -> dict:
        env = dict(self.env)
        env["TORCH_CUDA_ARCH_LIST"] = self.arch["torch"]
        env["TORCH_EXTENSIONS_DIR"] = os.path.join(self.work, "torch_extensions")
        # Never write __pycache__ into the user's site-packages (it would also move
        # the directory mtimes the Python probe's cache is keyed on).
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env

    def libcuda_found(self) -> str:
        for d in entries(self.env.get("LIBRARY_PATH")):
            if os.path.exists(os.path.join(d, "libcuda.so")):
                return f"{os.path.join(d, 'libcuda.so')} (LIBRARY_PATH)"
        return "libcuda.so in the linker's default directories"


def _torch_gate(prep: Prep, opts: Options) -> Step | None:
    """None when the extension should be built, else the skip (or fail) step saying why not."""
    if not opts.torch:
        return Step("torch-build", "skip", "--no-torch")
    if not prep.python:
        return Step("torch-build", "skip", "no python3 on the profile's PATH (--python PY names one)")
    info = prep.python_info or {}
    explicit = opts.python is not None
    if info.get("error"):
        return Step("torch-build", "fail" if explicit else "skip", info["error"])
    t = info.get("torch") or {}
    py = prep.python
    if not t.get("installed"):
        return Step("torch-build", "skip", f"torch is not installed for {py}")
    if t.get("import_error"):
        from .steps import explain_dicts, tail

        err = t["import_error"]
        return Step("torch-build", "fail", f"`import torch` fails in {py} with the profile's environment: "
                    f"{err.splitlines()[-1] if err else ''}", output=tail(err), explain=explain_dicts(err))
    if not t.get("cuda"):
        return Step("torch-build", "skip", f"torch {t.get('version')} in {py} is a CPU build (torch.version.cuda "
                    "is None): it cannot build or run CUDA extensions")
    return None


def make_workdir(env: Mapping[str, str]) -> str:
    """A new private directory under $TMPDIR (mode 0700)."""
    base = env.get("TMPDIR") or ""
    if not (base and os.path.isdir(base)):
        base = tempfile.gettempdir()
    try:
        return tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{os.getpid()}-", dir=base)
    except OSError as exc:
        raise CudaenvError(f"cannot create a private directory in {base}: {exc.strerror}",
                           hint="set TMPDIR to a writable directory") from None


def sweep_stale(env: Mapping[str, str]) -> int:
    """Remove private directories left by verify processes that no longer exist (killed -9).

    Only this user's, only ``cudaenv-verify-<pid>-*`` whose pid is gone, never
    one kept with ``--keep``. Returns how many were removed.
    """
    base = env.get("TMPDIR") or ""
    if not (base and os.path.isdir(base)):
        base = tempfile.gettempdir()
    removed = 0
    try:
        names = os.listdir(base)
    except OSError:
        return 0
    for n in names:
        if not n.startswith(TMP_PREFIX):
            continue
        pid = n[len(TMP_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        path = os.path.join(base, n)
        try:
            st = os.lstat(path)
            if st.st_uid != os.getuid() or os.path.exists(os.path.join(path, _KEEP_MARK)):
                continue
            os.kill(int(pid), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed += 1
    return removed


def _error_record(ctx: Context, profile: Profile, tk: Toolkit, message: str) -> dict:
    rec = _record(profile, tk, [Step("setup", "fail", message)], 0.0, None, None, None, None)
    vcache.store(ctx.cache_dir, profile["name"], None, rec)
    return rec


def _record(profile: Profile, tk: Toolkit, steps: list[Step], seconds: float, arch: dict | None, host: str | None,
            python: str | None, torch: str | None, work: str | None = None) -> dict:
    failed = any(s.status == "fail" for s in steps)
    return {
        "format": vcache.FORMAT,
        "profile": profile["name"],
        "root": tk["root"],
        "version": tk["full_version"],
        "status": "fail" if failed else "pass",
        "time": time.time(),
        "seconds": round(seconds, 3),
        "arch": arch["label"] if arch else None,
        "arch_why": arch["why"] if arch else None,
        "host_compiler": host,
        "python": python,
        "torch": torch,
        "steps": [s.to_dict() for s in steps],
        "tmpdir": work,
        "cached": False,
        "age": 0.0,
    }


def verify_one(ctx: Context, profile: Profile, tk: Toolkit, opts: Options, progress: Progress,
               cancel: threading.Event) -> dict:
    """Verify one target: a cached pass if there is one (and ``--no-cache`` is not given), else the steps.

    Returns:
        The result record (see ``report.py``); it is stored for later runs.

    Raises:
        Cancelled: ``cancel`` was set (the private directory is removed first).
    """
    t0 = time.monotonic()
    try:
        prep = prepare(ctx, profile, tk, opts)
    except CudaenvError as exc:
        return _error_record(ctx, profile, tk, exc.message)
    if not opts.no_cache and not opts.keep:  # --keep asks for the files: build them
        hit = cached_result(ctx, prep)
        if hit is not None:
            return hit
    if cancel.is_set():
        raise Cancelled()
    if opts.torch and prep.python_info is None and not prep.stub_needed:
        # prepare() answered the key from a stored fingerprint; the steps need the probe itself.
        prep.python, prep.python_info = probe_target(ctx, prep.env, opts)
    host = host_facts(ctx)
    from ..toolkit.facts import ARCH_TIMEOUT

    arch = choose_arch(tk, ctx.index, host["gpus"], timeout=min(opts.timeout, ARCH_TIMEOUT))
    work = make_workdir(ctx.env)
    try:
        if opts.keep:
            open(os.path.join(work, _KEEP_MARK), "w").close()
        job = Job(ctx, prep, opts, work, arch, progress, cancel, driverless=not host.get("driver"))
        steps: list[Step] = []
        prep = _stub_steps(job, steps)
        if prep is not None:
            steps += _build_and_run_steps(job, host)
        return _finish(ctx, job.prep, steps, t0, arch, job, work if opts.keep else None)
    finally:
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)


def _stub_steps(job: Job, steps: list[Step]) -> Prep | None:
    """Generate a libcuda stub when the toolkit has none, and take the environment that follows.

    Appends the steps taken to ``steps``; returns the job's (possibly recomputed) preparation,
    or None when it could not be recomputed (a ``setup`` failure was appended: stop there).
    """
    from . import steps as S

    prep = job.prep
    if not job.tk["components"].get("stubs"):
        st = S.step_stub(job)
        steps.append(st)
        if st.status == "pass" and prep.stub_needed:
            try:
                prep = prepare(job.ctx, job.profile, job.tk, job.opts, reuse_python=False)
            except CudaenvError as exc:
                steps.append(Step("setup", "fail", exc.message))
                return None
            job.set_prep(prep)
    if prep.stub_needed:
        # The stub could not be made; the other steps still run (and say what
        # else works), with the Python probe that prepare() left out.
        prep.python, prep.python_info = probe_target(job.ctx, prep.env, job.opts)
        job.set_prep(prep)
    return prep


def _build_and_run_steps(job: Job, host: dict) -> list[Step]:
    """The builds (nvcc shared/static, -lcuda, the torch extension), then running what was built."""
    from . import steps as S

    shared = S.step_nvcc(job, "shared")
    static = S.step_nvcc(job, "static")
    link = S.step_link(job)
    gate = _torch_gate(job.prep, job.opts)
    build = S.step_torch_build(job) if gate is None else gate
    steps = [shared, static, link, build]
    gpu = host["gpu"]
    no_gpu = host["reason"] or "no GPU"
    call = None
    if build.status == "pass":
        imp, call = S.step_torch_run(job, call=gpu)
    else:
        imp = Step("torch-import", "skip", "no extension was built")
    steps.append(imp)
    for built, kind in ((shared, "shared"), (static, "static"), (link, "driver")):
        steps.append(_run_step(job, built, kind, gpu, no_gpu))
    if call is None:
        call = Step("torch-call", "skip", no_gpu if not gpu else "no extension was imported")
    steps.append(call)
    return steps + _addon_steps(job, driverless=not host.get("driver"))


def _addon_steps(job: Job, driverless: bool) -> list[Step]:
    """Build and run the program of each cuDNN / NCCL add-on the profile lists (none: no steps)."""
    from ..toolkit.addons import KINDS, read_addon
    from . import steps as S

    out: list[Step] = []
    for a in job.profile.get("addons") or []:
        kind = a["name"]
        facts = read_addon(kind, a["root"])
        if facts["problem"] is not None:
            out += [Step(f"{kind}-build", "fail", f"{KINDS[kind]['title']}: {facts['problem']}"),
                    Step(f"{kind}-run", "skip", "not built")]
            continue
        built = S.step_addon_build(job, kind)
        out += [built, S.step_addon_run(job, kind, built, facts["version"], driverless)]
    return out


def _run_step(job: Job, built: Step, kind: str, gpu: bool, no_gpu: str) -> Step:
    """Run the program ``built`` made (``run-shared``, ``run-static``, ``run-driver``), or say why not."""
    from . import steps as S

    sid = f"run-{kind}"
    if not gpu:
        return Step(sid, "skip", no_gpu)
    if built.status != "pass":
        return Step(sid, "skip", "not built")
    return S.step_run_program(job, kind)


def _finish(ctx: Context, prep: Prep, steps: list[Step], t0: float, arch: dict, job: Job,
            kept: str | None) -> dict:
    rec = _record(prep.profile, prep.tk, steps, time.monotonic() - t0, arch, job.host_desc,
                  job.python if job.opts.torch else None, job.torch_desc, kept)
    if job.opts.torch:
        # Lets a later cache hit skip the python probe (see cache.stored_python_sig).
        rec["python_fp"] = vcache.python_fingerprint(prep.python_info)
        rec["python_sig"] = vcache.python_sig(prep.python_info)
    # Without a stub (generation failed) the key is not known: only "last" is recorded.
    vcache.store(ctx.cache_dir, prep.profile["name"], None if prep.stub_needed else prep.key, rec)
    return rec


# --------------------------------------------------------------------------- many targets

def verify_targets(ctx: Context, pairs: list[tuple[Profile, Toolkit]], opts: Options, progress: Progress,
                   emit: Callable[[dict], None]) -> list[dict]:
    """Verify every (profile, toolkit) pair, ``opts.jobs`` at a time; ``emit`` each result in order.

    On KeyboardInterrupt (Ctrl-C; the CLI turns SIGTERM into one too) every
    running command's process group is killed, the workers remove their
    private directories, and the interrupt is re-raised.
    """
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    from ..infra.run import resume_all, stop_all

    resume_all()
    sweep_stale(ctx.env)
    jobs = opts.jobs or _cores()
    cancel = threading.Event()
    results: list[dict | None] = [None] * len(pairs)
    pool = ThreadPoolExecutor(max_workers=max(1, min(jobs, len(pairs))), thread_name_prefix="cudaenv-verify")
    futures = [pool.submit(verify_one, ctx, p, tk, opts, progress, cancel) for p, tk in pairs]
    nxt = 0
    try:
        pending = set(futures)
        while nxt < len(futures):
            _, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            while nxt < len(futures) and futures[nxt].done():
                results[nxt] = futures[nxt].result()
                emit(results[nxt])
                nxt += 1
    except BaseException:
        cancel.set()
        stop_all()
        for f in futures:
            f.cancel()
        pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)
    return [r for r in results if r is not None]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _sigterm(signum, frame):  # noqa: ARG001 - the signal handler signature
    raise KeyboardInterrupt()


def run_command(ctx: Context, pairs: list[tuple[Profile, Toolkit]], opts: Options, as_json: bool,
                quiet: bool = False) -> int:
    """``cudaenv verify`` for resolved targets: results on stdout, progress on stderr; the exit status.

    ``quiet``: no progress and no results (the exit status says); errors still print.

    0 when no step failed, 1 otherwise, 130 when interrupted (Ctrl-C, SIGTERM or SIGHUP:
    every running command is killed and every private directory removed).
    """
    import signal

    from ..infra.console import note, report_error, write_out
    from .report import json_document, render_record

    from ..infra.term import colour

    progress = Progress(sys.stderr, enabled=not quiet)
    col = colour(sys.stdout, ctx.env)

    def emit(rec: dict) -> None:
        if rec.get("tmpdir"):
            note(f"{rec['profile']}: files kept in {rec['tmpdir']}")
        if not as_json and not quiet:
            progress.write(lambda: write_out(render_record(rec, colour=col)))

    old = None
    try:
        # SIGHUP too: a closed terminal must not leave compilers and temporary directories behind.
        old = {sig: signal.signal(sig, _sigterm) for sig in (signal.SIGTERM, signal.SIGHUP)}
    except ValueError:  # not the main thread (an embedding caller)
        pass
    try:
        records = verify_targets(ctx, pairs, opts, progress, emit)
    except KeyboardInterrupt:
        progress.close()
        note("verify interrupted; commands stopped, temporary files removed")
        return 130
    except CudaenvError as exc:  # e.g. no writable TMPDIR: the other targets were stopped
        progress.close()
        return report_error(exc)
    finally:
        progress.close()
        for sig, handler in (old or {}).items():
            signal.signal(sig, handler)
        ctx.save()
    if as_json:
        from ..infra.jsonout import dumps

        write_out(dumps(json_document(records)) + "\n")
    return 1 if any(r["status"] == "fail" for r in records) else 0
