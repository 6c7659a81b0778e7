"""Helpers shared by the tests: fake toolkit trees, running cudaenv, env dumps."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# A name with quotes, $, ;, &&, spaces, backticks, ! and Unicode: if any shell
# evaluated our output instead of taking it as data, something would break or run.
HOSTILE = "'\";&&e-$ èрт🚒♞中片-j $(touch PWNED) `touch PWNED2` a!b"


def make_toolkit(
    root: str,
    version: str = "12.4.1",
    *,
    version_json: bool = True,
    version_txt: bool = False,
    cuda_h: bool = True,
    nvcc: bool = True,
    runtime_h: bool = True,
    stubs: bool = True,
    cupti_extras: bool = False,
    libdir: str = "lib64",
    nvcc_dist_info: str | None = None,
) -> str:
    """Create a fake toolkit tree (for the odd cases real toolkits do not show)."""
    major, minor = (int(x) for x in version.split(".")[:2])
    os.makedirs(os.path.join(root, "bin"), exist_ok=True)
    os.makedirs(os.path.join(root, "include"), exist_ok=True)
    lib = os.path.join(root, libdir)
    os.makedirs(lib, exist_ok=True)
    if nvcc:
        p = os.path.join(root, "bin", "nvcc")
        with open(p, "w") as f:
            f.write(
                "#!/bin/sh\n"
                "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                f"echo 'Cuda compilation tools, release {major}.{minor}, V{version}'\n"
            )
        os.chmod(p, 0o755)
    if runtime_h:
        open(os.path.join(root, "include", "cuda_runtime.h"), "w").close()
    if cuda_h:
        with open(os.path.join(root, "include", "cuda.h"), "w") as f:
            f.write(f"#define CUDA_VERSION {major * 1000 + minor * 10}\n")
    if version_json:
        with open(os.path.join(root, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": version},
                       "cuda_nvcc": {"name": "CUDA NVCC", "version": version}}, f)
    if version_txt:
        with open(os.path.join(root, "version.txt"), "w") as f:
            f.write(f"CUDA Version {version}\n")
    if nvcc_dist_info:
        os.makedirs(os.path.join(root, "dist-info", f"nvidia_cuda_nvcc-{nvcc_dist_info}.dist-info"))
    open(os.path.join(lib, f"libcudart.so.{major}"), "w").close()
    open(os.path.join(lib, "libcudart_static.a"), "w").close()
    if stubs:
        os.makedirs(os.path.join(lib, "stubs"), exist_ok=True)
        open(os.path.join(lib, "stubs", "libcuda.so"), "w").close()
    if cupti_extras:
        os.makedirs(os.path.join(root, "extras", "CUPTI", "lib64"), exist_ok=True)
    return root


def cudaenv_env(base: dict | None = None, **extra: str) -> dict:
    """An environment in which ``python -m cudaenv`` runs this checkout."""
    env = dict(os.environ if base is None else base)
    env.update(extra)
    return env


def kept_name(name: str) -> str:
    """A cache file's name without the install tag infra.kept puts in it ("explain-kb.1a2b3c4d.marshal" ->
    "explain-kb.marshal"); other names as they are."""
    import re

    return re.sub(r"\.[0-9a-f]{8}\.marshal$", ".marshal", name)


def run_cudaenv(args: list[str], env: dict, cwd: str | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    """Run this checkout's cudaenv as a separate process."""
    e = dict(env)
    e["PYTHONPATH"] = REPO + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return subprocess.run(
        [sys.executable, "-m", "cudaenv", *args], env=e, cwd=cwd, input=input,
        capture_output=True, text=True, timeout=120,
    )


def write_wrapper(bindir: str) -> str:
    """Put a ``cudaenv`` command running this checkout into ``bindir``.

    A Python script, as pip's console script is: the process then knows it
    was started as that ``cudaenv`` (``cudaenv init`` relies on it).
    """
    os.makedirs(bindir, exist_ok=True)
    path = os.path.join(bindir, "cudaenv")
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {REPO!r})\n"
                "from cudaenv.main import main\nsys.exit(main())\n")
    os.chmod(path, 0o755)
    return path


def parse_env0(data: bytes) -> dict[bytes, bytes]:
    """Parse ``env -0`` output."""
    out = {}
    for item in data.split(b"\0"):
        if item:
            k, _, v = item.partition(b"=")
            out[k] = v
    return out


def need(program: str) -> str:
    """Path of ``program``; skip the test if missing, fail under CI."""
    import pytest

    path = shutil.which(program)
    if path is None:
        if IN_CI:
            pytest.fail(f"{program} is required under CI but is not installed")
        pytest.skip(f"{program} not installed")
    return path


def clean_shell_env(tmp_path, path_tail: str = "/usr/local/bin:/usr/bin:/bin", **extra: str) -> dict:
    """A minimal environment for real shells, with this checkout's ``cudaenv`` first on PATH.

    Also creates ``tmp_path/out`` (exported as OUT) for the shells' env dumps.
    """
    bindir = os.path.join(str(tmp_path), "bin")
    write_wrapper(bindir)
    out = os.path.join(str(tmp_path), "out")
    os.makedirs(out, exist_ok=True)
    env = {
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:{path_tail}",
        "LC_ALL": "C.UTF-8",
        "XDG_CONFIG_HOME": os.path.join(str(tmp_path), "cfg"),
        "XDG_CACHE_HOME": os.path.join(str(tmp_path), "cache"),
        "XDG_DATA_HOME": os.path.join(str(tmp_path), "data"),
        "OUT": out,
    }
    env.update(extra)
    return env


def fake_gpu_env(env: dict, tmp_path, scenario: str = "r570-2gpu") -> dict:
    """``env`` with a FAKE NVIDIA driver made from real outputs (this machine has none).

    The kernel module's /proc/driver/nvidia/version of a real 580.159.04 install (under
    CUDAENV_PROC_ROOT) and ``tests/fake_nvidia_smi`` replaying ``scenario`` from
    tests/fixtures/nvidia/smi/ (default: a real 2-GPU machine, a TITAN V and an RTX 5880 Ada).
    """
    proc = os.path.join(str(tmp_path), "proc", "driver", "nvidia")
    os.makedirs(os.path.join(proc, "gpus", "0000:01:00.0"), exist_ok=True)
    shutil.copy(os.path.join(REPO, "tests", "fixtures", "nvidia", "proc", "proprietary-580.159.04.version"),
                os.path.join(proc, "version"))
    fake = os.path.join(str(tmp_path), "fakebin")
    os.makedirs(fake, exist_ok=True)
    link = os.path.join(fake, "nvidia-smi")
    if not os.path.lexists(link):
        os.symlink(os.path.join(REPO, "tests", "fake_nvidia_smi"), link)
    return dict(env, CUDAENV_PROC_ROOT=os.path.join(str(tmp_path), "proc"), FAKE_NVIDIA_SMI_SCENARIO=scenario,
                PATH=f"{fake}:{env.get('PATH', '')}")


def default_signals() -> None:
    """``preexec_fn`` for a child a test will signal: SIGINT, SIGHUP, SIGTERM and SIGQUIT at their
    default action, as for a command typed in an interactive shell.

    The suite itself may run under ``nohup`` or as a background job (``&`` in a script), which
    start it with SIGHUP or SIGINT ignored; an ignored signal stays ignored across exec, so a
    child would never see the signal the test sends.
    """
    import signal

    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


def setup_missing(msg: str):
    """A cached test artefact is missing: fail under CI (tests/run.sh builds them all), skip elsewhere."""
    import pytest

    if IN_CI:
        pytest.fail(msg)
    pytest.skip(msg)


def use_as_json(args: list[str], env: dict, cwd: str | None = None):
    """``cudaenv use ARGS --shell json``: the result and, when it succeeded, the parsed plan."""
    res = run_cudaenv(["use", *args, "--shell", "json"], env, cwd=cwd)
    return res, (json.loads(res.stdout) if res.returncode == 0 else None)


def refused_in_one_line(res, *words: str) -> None:
    """Refused: non-zero exit, nothing on stdout, one `cudaenv:` line holding ``words``."""
    assert res.returncode != 0 and res.stdout == "", res.stdout + res.stderr
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("cudaenv: "), res.stderr
    for w in words:
        assert w in res.stderr, res.stderr


def stderr_is_cudaenv_lines(res) -> None:
    """No traceback: every stderr line (if any) is one of cudaenv's own."""
    assert "Traceback" not in res.stderr, res.stderr
    for line in res.stderr.splitlines():
        assert line.startswith("cudaenv: "), res.stderr


def one_error_line(res: subprocess.CompletedProcess, code: int | None = None) -> str:
    """Failed (with status ``code`` if given) with nothing on stdout and one `cudaenv:` line: that line."""
    err = res.stderr.decode() if isinstance(res.stderr, bytes) else res.stderr
    assert res.returncode != 0 and not res.stdout, (res.returncode, res.stdout[:300])
    assert code is None or res.returncode == code, (res.returncode, err)
    assert "Traceback" not in err and err.startswith("cudaenv: ") and err.count("\n") == 1, err
    return err


def run_in_sh(cmd: str, env: dict, cwd: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """``cmd`` in sh with ``$CUDAENV`` running this checkout (for redirections such as ``>&-``)."""
    e = dict(env, PYTHONPATH=REPO, CUDAENV=f"{sys.executable} -m cudaenv")
    return subprocess.run(["sh", "-c", cmd], env=e, cwd=cwd, capture_output=True, timeout=timeout)


def kill_marked(marker: str) -> None:
    """SIGKILL every process whose command line holds ``marker`` (a sleep only one test runs)."""
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        os.kill(int(pid), 9)
            except OSError:
                pass


_BAD_QUOTER = """#!/bin/sh
# A cudaenv that double-quotes what the real one single-quotes: $( ) and backquotes then run.
out=$({real} "$@"); rc=$?
[ -n "$out" ] && printf '%s\\n' "$out" | sed "s/'/\\"/g"
exit $rc
"""


def quote_badly(exe: str) -> None:
    """Replace the command ``exe`` by a cudaenv that quotes badly (the adversarial pass must catch it)."""
    os.replace(exe, exe + ".real")
    with open(exe, "w") as f:
        f.write(_BAD_QUOTER.format(real=exe + ".real"))
    os.chmod(exe, 0o700)

