"""`cudaenv explain` tied to this machine, on logs the real tools produce here.

Every log below is made by running the real thing on this machine (nvcc of the test bed,
g++, ld, ctypes loading NVIDIA's libraries from the registry's wheels, torch's
cpp_extension in the test bed's venvs); only the NVIDIA driver is faked (the fake
nvidia-smi and /proc tree replay real outputs: tests/fixtures/nvidia). Then `cudaenv
explain` reads it and the test checks the family, the captured values, and that the
"here:" answer names what this machine has, and, where it names a command, that the
command works.

`--no-host` answers from the text alone: the same bytes whatever the machine has.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import TESTBED
from helpers import clean_shell_env, fake_gpu_env, run_cudaenv, setup_missing

CORPUS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus")
TOOL_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": os.environ.get("HOME", "/root")}


def tool(cmd: list[str], env: dict | None = None, cwd=None) -> str:
    """Run a real tool; its stdout and stderr, as a user would paste them."""
    res = subprocess.run(cmd, env=env or TOOL_ENV, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=600)
    assert res.returncode != 0, res.stdout  # every log here is a failure
    return res.stdout


def explain_json(log: str, env: dict, *args: str) -> list[dict]:
    res = run_cudaenv(["explain", "--json", *args, "-"], env, input=log)
    assert res.returncode == 0, (res.stderr, log[-2000:])
    return json.loads(res.stdout)


@pytest.fixture
def env(testbed, tmp_path):
    """cudaenv sees the test bed toolkits (and the system's /usr/local/cuda-13.0); no driver."""
    return dict(os.environ, CUDAENV_ROOTS=":".join(testbed.values()), CUDAENV_PROC_ROOT=str(tmp_path / "noproc"),
                PATH="/usr/bin:/bin")


@pytest.fixture
def gpu_env(env, tmp_path):
    """A driver faked from real outputs: driver 570.86.15 (CUDA 12.8), a TITAN V and an RTX 5880 Ada."""
    return fake_gpu_env(env, tmp_path)


def use_command(line: str) -> str:
    m = re.search(r'`(eval "\$\(cudaenv use [^`]+\)")`', line)
    assert m, line
    return m.group(1)


def nvcc_release_after(command: str, tmp_path, env: dict) -> str:
    """Run ``command`` (an `eval "$(cudaenv use X)"`) in a real bash, then `nvcc --version`."""
    sh = clean_shell_env(tmp_path, CUDAENV_ROOTS=env["CUDAENV_ROOTS"])
    res = subprocess.run(["bash", "-c", f'{command} && nvcc --version'], env=sh, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    return re.search(r"release (\d+\.\d+)", res.stdout).group(1)


# --- --no-host: from the text alone ----------------------------------------------------------------

def _whole_corpus() -> str:
    parts = []
    for name in sorted(os.listdir(CORPUS_DIR)):
        if name.endswith(".log"):
            with open(os.path.join(CORPUS_DIR, name), encoding="utf-8") as f:
                parts.append(f.read())
    return "\n".join(parts)


def test_no_host_is_the_same_bytes_whatever_the_machine_has(env, gpu_env, testbed, tmp_path, venv_cu):
    log = _whole_corpus()
    empty = tmp_path / "nothing"
    empty.mkdir()
    other = dict(os.environ, CUDAENV_ROOTS=str(empty), PATH="/usr/bin:/bin",
                 CUDAENV_PROC_ROOT=str(tmp_path / "noproc"), XDG_CACHE_HOME=str(tmp_path / "other-cache"))
    rich = dict(gpu_env, CUDA_HOME=testbed["11.8"], LD_LIBRARY_PATH=os.path.join(testbed["12.4"], "lib64"),
                PATH=f"{os.path.dirname(venv_cu)}:{gpu_env['PATH']}")
    outs = []
    for e in (other, rich):
        text = run_cudaenv(["explain", "--no-host", "-"], e, input=log)
        js = run_cudaenv(["explain", "--no-host", "--json", "-"], e, input=log)
        assert text.returncode == 0 and js.returncode == 0
        assert text.stderr == "" and js.stderr == ""  # nothing probed, nothing noted
        outs.append((text.stdout, js.stdout))
    assert outs[0] == outs[1]
    doc = json.loads(outs[0][1])
    assert len(doc) > 20 and all(m["here"] == [] and m["host"] is None for m in doc)
    assert "here:" not in outs[0][0]
    # With the host, the same input gets answers naming this machine.
    with_host = explain_json(log, dict(env, PATH=f"{os.path.dirname(venv_cu)}:/usr/bin:/bin"), "--python", venv_cu)
    assert sum(1 for m in with_host if m["here"]) >= 10


# --- the toolkits installed here -------------------------------------------------------------------

def test_torch_mismatch_names_the_installed_toolkit_and_it_works(env, tmp_path, testbed):
    msg = ("RuntimeError:\nThe detected CUDA version (12.4) mismatches the version that was used to compile\n"
           "PyTorch (11.8). Please make sure to use the same CUDA versions.\n")
    [m] = explain_json(msg, env)
    assert m["id"] == "torch.cuda_major_mismatch" and m["values"]["difference"] == "major"
    assert len(m["here"]) == 1 and testbed["11.8"] in m["here"][0], m["here"]
    assert {t["version"] for t in m["host"]["toolkits"]} >= {"11.8", "12.4", "13.5"}
    assert nvcc_release_after(use_command(m["here"][0]), tmp_path, env) == "11.8"
    # A torch built with a CUDA no toolkit here has: say so, and what would install it.
    [m] = explain_json(msg.replace("(11.8)", "(10.2)"), env)
    assert "no CUDA 10.x toolkit is installed here" in m["here"][0] and "`cudaenv install 10.2`" in m["here"][0]


def test_unsupported_arch_answers_from_the_installed_toolkits(env, tmp_path, testbed):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\n")
    nvcc13 = os.path.join(testbed["13.5"], "bin", "nvcc")
    log = tool([nvcc13, "-c", "-arch=sm_60", str(src), "-o", str(tmp_path / "k.o")])
    [m] = explain_json(log, env)
    assert m["id"] == "nvcc.unsupported_arch" and m["values"]["arch"] == "sm_60"
    here = m["here"][0]
    assert here.startswith("installed here that compile sm_60: 11.8, 12.4:"), here
    assert nvcc_release_after(use_command(here), tmp_path, env) == "12.4"
    # Nothing installed here compiles sm_30: say what would.
    log = tool([nvcc13, "-c", "-arch=sm_30", str(src)], cwd=str(tmp_path))
    [m] = explain_json(log, env)
    assert "no toolkit installed here compiles sm_30" in m["here"][0] and "cudaenv install 10.2" in m["here"][0]


def test_missing_header_names_cuda_home_and_the_toolkits_that_have_it(env, tmp_path, testbed):
    """g++ against a runtime-only include set (the test bed's toolkits ship cudart's headers only)."""
    src = tmp_path / "s.cpp"
    src.write_text("#include <cuda_runtime.h>\n#include <cusparse.h>\nint main() { return 0; }\n")
    inc = os.path.join(testbed["12.4"], "include")
    log = tool(["g++", f"-I{inc}", "-c", str(src), "-o", str(tmp_path / "s.o")])
    [m] = explain_json(log, dict(env, CUDA_HOME=testbed["12.4"]))
    assert m["id"] == "build.cuda_header_missing" and m["values"] == {"header": "cusparse.h", "part": "cuSPARSE"}
    assert m["here"][0] == f"CUDA_HOME here ({testbed['12.4']}) has no include/cusparse.h"
    assert "no CUDA toolkit with include/cusparse.h is installed here" in m["here"][1]
    # cuda_runtime.h is there: pointing CUDA_HOME at a tree without it is what is named.
    src.write_text("#include <cuda_runtime.h>\nint main() { return 0; }\n")
    log = tool(["g++", f"-I{tmp_path}", "-c", str(src), "-o", str(tmp_path / "s.o")])
    [m] = explain_json(log, dict(env, CUDA_HOME=str(tmp_path)))
    assert m["values"]["header"] == "cuda_runtime.h"
    assert m["here"][0] == f"CUDA_HOME here ({tmp_path}) has no include/cuda_runtime.h"
    assert "installed here with include/cuda_runtime.h" in m["here"][1]
    assert nvcc_release_after(use_command(m["here"][1]), tmp_path, env) == "13.5"


def test_gcc_too_new_for_11_8_and_lcuda_missing(env, tmp_path, testbed):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n")
    if not os.path.exists("/usr/bin/g++-12"):
        pytest.skip("g++-12 missing")
    log = tool([os.path.join(testbed["11.8"], "bin", "nvcc"), "-ccbin", "/usr/bin/g++-12", "-c", str(src)],
               cwd=str(tmp_path))
    [m] = explain_json(log, env)
    assert m["id"] == "nvcc.gcc_too_new" and m["values"]["limit"] == "11"
    assert "installed here: 11.8, 12.4" in m["here"][0]
    # ld without the stub directory (nvcc's own nvcc.profile adds it; g++ does not).
    main = tmp_path / "main.cpp"
    main.write_text("extern \"C\" int cuInit(unsigned);\nint main() { return cuInit(0); }\n")
    log = tool(["g++", str(main), "-lcuda", "-o", str(tmp_path / "m")], cwd=str(tmp_path))
    found = explain_json(log, env)
    assert found[0]["id"] == "link.lcuda_not_found"
    here = found[0]["here"][-1]
    assert here.startswith("installed here with a driver stub: 11.8, 12.4, 13.5:"), here
    sh = clean_shell_env(tmp_path, CUDAENV_ROOTS=env["CUDAENV_ROOTS"])
    res = subprocess.run(["bash", "-c", f'{use_command(here)} && g++ "$1" -lcuda -o "$2"', "x", str(main),
                          str(tmp_path / "m")], env=sh, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr  # the fix it names links


# --- NVIDIA's libraries from the registry's wheels, loaded with ctypes --------------------------------

def _shadow_bed() -> str:
    bed = os.path.join(TESTBED, "shadow")
    if not os.path.isfile(os.path.join(bed, ".cudaenv-complete")):
        msg = f"{bed} missing: run bash tests/shadow.sh"
        setup_missing(msg)
    return bed


def _load(python: str, lib: str, ld: str | None) -> str:
    e = dict(TOOL_ENV)
    if ld:
        e["LD_LIBRARY_PATH"] = ld
    return tool([python, "-c", f"import ctypes; ctypes.CDLL({lib!r})"], env=e)


def test_older_toolkit_lib_shadowing_the_wheels(env):
    bed = _shadow_bed()
    py = os.path.join(bed, "venv", "bin", "python")
    sp = subprocess.run([py, "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True,
                        text=True, check=True).stdout.strip()
    old = os.path.join(bed, "cuda-12.1", "lib64")
    log = _load(py, os.path.join(sp, "nvidia", "cusparse", "lib", "libcusparse.so.12"), old)
    assert "__nvJitLinkComplete_12_4" in log
    [m] = explain_json(log, dict(env, LD_LIBRARY_PATH=old), "--python", py)
    assert m["id"] == "runtime.cuda_lib_shadowed"
    assert (m["values"]["lib"], m["values"]["needed"]) == ("libnvJitLink.so.12", "12.4")
    here = m["here"][0]
    assert "its libnvJitLink is 12.4 (nvidia-nvjitlink-cu12 12.4.127)" in here and f"{old} on LD_LIBRARY_PATH" in here
    assert m["host"]["torch"]["nvidia_wheels"]["nvidia-nvjitlink-cu12"] == "12.4.127"
    # The fix it names works: the same load without LD_LIBRARY_PATH succeeds.
    subprocess.run([py, "-c", f"import ctypes; ctypes.CDLL({os.path.join(sp, 'nvidia/cusparse/lib/libcusparse.so.12')!r})"],
                   env=TOOL_ENV, check=True, timeout=120)


def test_a_wheel_library_copied_away_from_its_dependencies(env, venv_cu, tmp_path):
    """libcublas.so.13 from nvidia-cublas (venv-cu) without the libcublasLt.so.13 beside it."""
    sp = os.path.join(os.path.dirname(os.path.dirname(venv_cu)), "lib")
    sp = os.path.join(sp, os.listdir(sp)[0], "site-packages")
    lib = os.path.join(sp, "nvidia", "cu13", "lib", "libcublas.so.13")
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(lib, alone / "libcublas.so.13")
    log = _load(venv_cu, str(alone / "libcublas.so.13"), None)
    assert "libcublasLt.so.13: cannot open shared object file" in log
    [m] = explain_json(log, env, "--python", venv_cu)
    assert m["id"] == "runtime.cuda_library_not_found"
    assert (m["values"]["lib"], m["values"]["library"]) == ("libcublasLt.so.13", "cuBLASLt")
    assert any(os.path.join(sp, "nvidia", "cu13", "lib", "libcublasLt.so.13") in h for h in m["here"]), m["here"]


# --- torch's cpp_extension in the test bed's venvs ------------------------------------------------------

SETUP = """from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(name="k", ext_modules=[CUDAExtension("k", ["k.cu"])], cmdclass={"build_ext": BuildExtension})
"""


@pytest.mark.slow
def test_cpp_extension_with_cuda_home_pointing_nowhere(env, venv_cu, tmp_path):
    (tmp_path / "setup.py").write_text(SETUP)
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    nowhere = str(tmp_path / "no-such-cuda")
    log = tool([venv_cu, "setup.py", "build_ext"], env=dict(TOOL_ENV, CUDA_HOME=nowhere, HOME=str(tmp_path)),
               cwd=str(tmp_path))
    found = explain_json(log, dict(env, CUDA_HOME=nowhere), "--python", venv_cu)
    m = found[0]
    assert m["id"] == "torch.nvcc_not_found" and m["values"]["path"] == f"{nowhere}/bin/nvcc"
    assert m["host"]["torch"]["version"].endswith("+cu130") and m["host"]["torch"]["cuda"] == "13.0"
    here = m["here"][-1]
    assert here.startswith(f"your torch ({venv_cu}) is 2.14.1+cu130, built with CUDA 13.0: CUDA 13."), here
    assert nvcc_release_after(use_command(here), tmp_path, env).startswith("13.")
    # The CPU torch cannot build CUDA code whatever the toolkit: that is what is said.
    log = tool([venv_cu.replace("venv-cu", "venv-cpu"), "setup.py", "build_ext"],
               env=dict(TOOL_ENV, CUDA_HOME=nowhere, HOME=str(tmp_path)), cwd=str(tmp_path))
    found = explain_json(log, env, "--python", venv_cu.replace("venv-cu", "venv-cpu"))
    assert any("a CPU build: it cannot build or run CUDA code" in h for m in found for h in m["here"]), found


def test_cpp_extension_without_ninja(env, venv_cpu, tmp_path):
    (tmp_path / "jit.py").write_text('from torch.utils.cpp_extension import load_inline\n'
                                     'load_inline("m", "int f() { return 1; }", functions=["f"])\n')
    log = tool([venv_cpu, "jit.py"], env=dict(TOOL_ENV, PATH=str(tmp_path / "nothing"), HOME=str(tmp_path)),
               cwd=str(tmp_path))
    [m] = explain_json(log, env, "--python", venv_cpu)
    assert m["id"] == "build.ninja_missing"
    ninja = os.path.join(os.path.dirname(venv_cpu), "ninja")
    assert m["here"] == [f"ninja is at {ninja} here: put its directory on PATH in the shell that builds"]


# --- the driver (faked from real outputs) -----------------------------------------------------------------

def test_driver_answers_name_the_driver_and_the_toolkits_it_runs(env, gpu_env):
    msg = "CUDA error: CUDA driver version is insufficient for CUDA runtime version"
    [m] = explain_json(msg, gpu_env)
    assert m["id"] == "runtime.insufficient_driver"
    assert m["here"][0].startswith("driver here: 570.86.15, supports CUDA 12.8; GPUs: NVIDIA TITAN V (sm 7.0), NVIDIA RTX 5880 Ada")
    assert m["here"][1].startswith("toolkits installed here that this driver runs: 11.8, 12.4:")
    assert m["host"]["driver"]["cuda"] == "12.8"
    [m] = explain_json(msg, env)
    assert m["here"] == ["no NVIDIA driver answers on this machine (the nvidia kernel module is not loaded): "
                         "CUDA programs can be built here but not run"]


def test_explain_without_anything_for_the_host_to_add_runs_nothing(env, tmp_path):
    """A program bug or a family with no host answer: no probe, nothing on stderr."""
    res = run_cudaenv(["explain", "--json", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"],
                      dict(env, PATH=str(tmp_path)))
    assert res.returncode == 0 and res.stderr == ""
    [m] = json.loads(res.stdout)
    assert m["here"] == [] and m["host"] is None


# --- the table of host answers ---------------------------------------------------------------


def _bad_answers(table: dict, ids: set[str], facts: set[str]) -> list[str]:
    """What is wrong with each record of ``here.ANSWERS``-shaped ``table`` (empty: nothing)."""
    from cudaenv.knowledge.here import KINDS, Answer

    bad = []
    for key, ans in table.items():
        if key not in ids:
            bad.append(f"{key}: not a knowledge-base id")
        if not isinstance(ans, Answer):
            bad.append(f"{key}: not an Answer record")
            continue
        for field in Answer.__slots__:
            if not hasattr(ans, field):
                bad.append(f"{key}: no {field}")
        if not getattr(ans, "needs", None) or not set(ans.needs) <= set(KINDS):
            bad.append(f"{key}: needs {getattr(ans, 'needs', None)!r} is not a non-empty set of {KINDS}")
        if not callable(getattr(ans, "lines", None)):
            bad.append(f"{key}: lines is not a function")
        if not set(getattr(ans, "also", ())) <= facts:
            bad.append(f"{key}: also names a fact gather_host does not collect: {ans.also}")
    return bad


def test_every_host_answer_is_one_complete_record(tmp_path):
    """One table, one record per id, every field there: a family cannot read facts it has no lines for."""
    from cudaenv.context import Context
    from cudaenv.knowledge.here import ANSWERS, NEEDS, Answer, gather_host
    from cudaenv.knowledge.kb import load_entries

    ids = {e["id"] for e in load_entries()}
    facts = set(gather_host(Context(env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}), set()))
    assert len(ANSWERS) >= 36
    assert _bad_answers(ANSWERS, ids, facts) == []
    assert NEEDS == {k: a.needs for k, a in ANSWERS.items()}
    # The check sees a record with a field missing, a wrong kind, a stray id or fact.
    broken = Answer(("toolkits",), lambda m, h: [])
    del broken.lines
    bad = _bad_answers({"torch.cpu_build": broken, "no.such_id": Answer(("gpu",), len, also=("nope",))}, ids, facts)
    assert any("torch.cpu_build: no lines" in b for b in bad)
    assert any(b.startswith("no.such_id: not a knowledge-base id") for b in bad)
    assert any("no.such_id: needs" in b for b in bad) and any("no.such_id: also" in b for b in bad)
    with pytest.raises(TypeError):
        Answer(("toolkits",))  # a record is made whole or not at all


def test_a_fix_without_a_version_names_the_newest_toolkit_here(env, tmp_path, testbed):
    """A real ld message names no CUDA: --no-host prints a target that pastes anywhere NVIDIA's
    installer ran (/usr/local/cuda), the host answer the newest toolkit installed here; both run."""
    out = tool(["ld", "-o", str(tmp_path / "a.out"), "-lcuda"])
    plain = explain_json(out, env, "--no-host")[0]["fix"]
    assert 'eval "$(cudaenv use /usr/local/cuda)"' in plain and "<" not in plain
    here = explain_json(out, env)[0]["fix"]
    newest = max(testbed, key=lambda v: tuple(int(x) for x in v.split(".")))
    target = re.search(r'cudaenv use ([^)]+)\)', here).group(1)
    assert target.startswith(newest), (newest, here)
    for t in (target, "/usr/local/cuda"):
        r = run_cudaenv(["use", "--shell", "bash", t], env)
        assert r.returncode == 0 and "CUDA_HOME" in r.stdout, (t, r.stderr)
