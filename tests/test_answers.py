"""Answers you can paste, from `doctor`, `check` and `use` (issue 18).

Tried as a new user would: real bash shells switched with `cudaenv use` and then broken by
hand, the test bed's real toolkits (11.8, 12.4, 13.5, and this machine's 13.0), its real torch
venvs (venv-cu: torch 2.14.1+cu130; venv-cpu), real nvcc runs with the real g++-11 and g++-12,
and `use` on a real pseudo-terminal. A fix is only an answer if pasting it works, so the tests
paste it and look again.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from helpers import REPO, clean_shell_env, need, run_cudaenv

KERNEL = "__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n"


def venv_bin(python: str) -> str:
    return os.path.dirname(python)


def shell_env(tmp_path, testbed, python: str | None = None, **extra: str) -> dict:
    """A clean shell environment: this checkout's cudaenv first on PATH, the test bed's toolkits
    discoverable, no driver (CUDAENV_PROC_ROOT empty), and the venv of ``python`` active."""
    tail = "/usr/local/bin:/usr/bin:/bin"
    if python:
        tail = venv_bin(python) + ":" + tail
        extra.setdefault("VIRTUAL_ENV", os.path.dirname(venv_bin(python)))
    return clean_shell_env(tmp_path, tail, CUDAENV_ROOTS=":".join(testbed.values()),
                           CUDAENV_PROC_ROOT=str(tmp_path / "noproc"), **extra)


def bash(script: str, env: dict, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "--norc", "--noprofile", "-c", "set -e\n" + script], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def doctor_json(script: str, env: dict, *flags: str, cwd: str | None = None) -> dict:
    """Run ``script`` in bash, then ``cudaenv doctor --json``; the document."""
    res = bash(script + f"\ncudaenv doctor --json {' '.join(flags)} || true", env, cwd=cwd)
    assert res.stdout.strip(), res.stderr
    return json.loads(res.stdout[res.stdout.index("{"):])


def by_id(doc: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for f in doc["shell"] + (doc.get("checks") or []):
        out.setdefault(f["id"], []).append(f)
    return out


def pasteable(fix: str) -> str:
    """The first command of a fix: `eval "$(cudaenv use X)"` or an `export ...`."""
    m = re.search(r'eval "\$\(cudaenv use [^)]+\)"|export \S+=\'[^\']*\'', fix)
    assert m, fix
    return m.group(0)


# --- 1. fixes print the exact command -----------------------------------------------------------

@pytest.mark.slow
def test_cu130_torch_gets_a_13x_use_line_that_works_when_pasted(testbed, venv_cu, tmp_path):
    """doctor in a cu130 venv switched to 11.8: both torch findings answer with one paste-able
    `eval "$(cudaenv use 13.x)"` (never "`cudaenv use 12` or later", which torch rejects), and
    pasting it clears them."""
    env = shell_env(tmp_path, testbed, venv_cu)
    doc = doctor_json('eval "$(cudaenv use 11.8)"', env)
    f = by_id(doc)
    ver, std = f["torch.cuda_version"][0], f["toolkit.cxx_std"][0]
    assert ver["status"] == "fail" and std["status"] == "fail", (ver, std)
    for fix in (ver["fix"], std["fix"]):
        assert "or later" not in fix and "cudaenv use 12" not in fix, fix
        assert re.match(r'eval "\$\(cudaenv use 13\.\d+\)"', fix), fix
    line = pasteable(ver["fix"])
    assert pasteable(std["fix"]) == line
    after = by_id(doctor_json(f'eval "$(cudaenv use 11.8)"\n{line}', env))
    assert after["torch.cuda_version"][0]["status"] != "fail", after["torch.cuda_version"]
    assert "toolkit.cxx_std" not in after
    # `check` of the mismatched toolkit gives the same line.
    res = run_cudaenv(["check", "12.4", "--json"], env)
    checks = {x["id"]: x for x in json.loads(res.stdout)["results"][0]["findings"]}
    assert pasteable(checks["torch.cuda_version"]["fix"]) == line


def test_shell_fixes_name_a_version_that_fits(testbed, venv_cu, tmp_path):
    """CUDA_HOME unset, or disagreeing with PATH's nvcc: the fix names a toolkit, not <version>;
    in a cu130 venv, one of torch's major."""
    env = shell_env(tmp_path, testbed)
    f = by_id(doctor_json(f"export PATH={testbed['12.4']}/bin:$PATH", env, "--no-torch"))
    assert f["env.cuda_home"][0]["fix"] == 'eval "$(cudaenv use 12.4)"', f["env.cuda_home"]
    f = by_id(doctor_json(f"export PATH={testbed['12.4']}/bin:$PATH; export CUDA_HOME={testbed['11.8']}", env,
                          "--no-torch"))
    assert f["env.consistency"][0]["fix"].startswith('eval "$(cudaenv use 11.8)"'), f["env.consistency"]
    env = shell_env(tmp_path, testbed, venv_cu)
    f = by_id(doctor_json(f"export PATH={testbed['12.4']}/bin:$PATH", env, "--no-torch"))
    assert re.match(r'eval "\$\(cudaenv use 13\.\d+\)"$', f["env.cuda_home"][0]["fix"]), f["env.cuda_home"]
    for fs in f.values():
        for x in fs:
            assert "<version>" not in x["fix"], x


def test_nothing_installed_fits_means_install(testbed):
    """Rules over the real toolkits' records: with no 13.x among them a cu130 torch's answer is
    `cudaenv install 13.0`; a word that another profile takes is never offered."""
    from cudaenv.checks.fit import answer, use_line
    from cudaenv.checks.rules import torch_rules
    from cudaenv.toolkit.probe import probe

    old = [dict(probe(os.path.realpath(testbed[v])), aliases=[], found_by=["test"], default=False)
           for v in ("11.8", "12.4")]
    fit = {"toolkits": old, "profiles": [], "torch": {"version": "2.14.1+cu130", "cuda": "13.0"}}
    assert answer(fit, torch_cuda="13.0") == "`cudaenv install 13.0`"
    facts = {"tk": old[0], "fit": fit, "python": {"torch": {"installed": True, "version": "2.14.1+cu130",
                                                             "cuda": "13.0"}}}
    fixes = {f.id: f.fix for f in torch_rules(facts)}
    assert fixes["torch.cuda_version"].startswith("`cudaenv install 13.0`"), fixes
    assert "cudaenv install 13.0" in fixes["toolkit.cxx_std"] or "install CUDA 13.0" in fixes["toolkit.cxx_std"]
    # A profile named "12.4" for the 11.8 root: "12.4" no longer selects 12.4.1, so the line names it fully.
    prof = {"name": "12.4", "root": old[0]["root"]}
    assert use_line(old[1], old, [prof]) == 'eval "$(cudaenv use 12.4.1)"'


# --- 2. the host compiler this shell runs -------------------------------------------------------

def assert_fixes(env: dict, tmp_path, setup: str, line: str) -> None:
    fixed = f"{setup}\n{line}"
    [f] = [f for f in doctor_json(fixed, env, "--no-torch")["shell"] if f["id"] == "compiler.host"]
    assert f["status"] == "ok" and _nvcc_compiles(env, tmp_path, fixed), (line, f)


def _nvcc_compiles(env: dict, tmp_path, setup: str) -> bool:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    res = bash(f"{setup}\nnvcc -c {src} -o {tmp_path / 'k.o'}", dict(env))
    return res.returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("broken, culprit, paste", [
    # the shell: cudaenv's -ccbin gone, nvcc 11.8 would run gcc 12
    ("unset NVCC_PREPEND_FLAGS CUDAHOSTCXX", "gcc on PATH", "eval"),
    # NVCC_APPEND_FLAGS comes last: its -ccbin wins over cudaenv's in NVCC_PREPEND_FLAGS
    ("export NVCC_APPEND_FLAGS='-ccbin g++-12'", "NVCC_APPEND_FLAGS", "export"),
    # a -ccbin naming a directory: nvcc runs the gcc in it (the export form: a second `use` over a
    # hand-edited NVCC_PREPEND_FLAGS is another matter, reported to the lead)
    ("export NVCC_PREPEND_FLAGS='-ccbin /usr/bin'", "NVCC_PREPEND_FLAGS", "export"),
])
def test_doctor_judges_the_compiler_this_shell_runs(testbed, tmp_path, broken, culprit, paste):
    for cxx in ("g++-11", "g++-12"):
        need(cxx)
    env = shell_env(tmp_path, testbed)
    setup = f'eval "$(cudaenv use 11.8)"\n{broken}'
    assert not _nvcc_compiles(env, tmp_path, setup)  # the real nvcc refuses: this shell is broken
    doc = doctor_json(setup, env, "--no-torch")
    shell = [f for f in doc["shell"] if f["id"] == "compiler.host"]
    assert shell and shell[0]["status"] == "fail", doc["shell"]
    assert "gcc 12" in shell[0]["summary"] and culprit in shell[0]["summary"], shell[0]
    # The profile's "ok: the profile uses g++-11" is not what this shell runs: not said.
    assert not [f for f in doc["checks"] if f["id"] == "compiler.host"], doc["checks"]
    line = pasteable(shell[0]["fix"])
    assert line.startswith(paste), shell[0]["fix"]  # the one that works comes first
    if paste == "eval" and "export" in shell[0]["fix"]:  # and the second works too
        assert_fixes(env, tmp_path, setup, re.search(r"export \S+='[^']*'", shell[0]["fix"])[0])
    fixed = f"{setup}\n{line}"
    after = [f for f in doctor_json(fixed, env, "--no-torch")["shell"] if f["id"] == "compiler.host"]
    # The first command of the fix is the one that works: doctor says so, and so does nvcc.
    assert after[0]["status"] == "ok", after
    assert _nvcc_compiles(env, tmp_path, fixed), after


@pytest.mark.slow
def test_doctor_says_ok_when_this_shell_runs_an_accepted_compiler(testbed, tmp_path):
    need("g++-11")
    env = shell_env(tmp_path, testbed)
    setup = 'eval "$(cudaenv use 11.8)"'
    assert _nvcc_compiles(env, tmp_path, setup)
    [f] = [f for f in doctor_json(setup, env, "--no-torch")["shell"] if f["id"] == "compiler.host"]
    assert f["status"] == "ok" and "g++-11" in f["summary"] and "NVCC_PREPEND_FLAGS" in f["summary"], f


def test_doctor_names_cmake_and_torch_routes(testbed, tmp_path):
    """CUDAHOSTCXX (CMake's -ccbin) and CC (torch's -ccbin $CC) too new while plain nvcc is fine."""
    for cxx in ("g++-11", "g++-12"):
        need(cxx)
    env = shell_env(tmp_path, testbed)
    for var, who in (("CUDAHOSTCXX", "CMake builds"), ("CC", "torch extension builds")):
        doc = doctor_json(f'eval "$(cudaenv use 11.8)"\nexport {var}=g++-12', env, "--no-torch")
        [f] = [f for f in doc["shell"] if f["id"] == "compiler.host"]
        assert f["status"] == "fail" and f["summary"].startswith(who), f
        assert f["fix"] == f"export {var}='/usr/bin/g++-11'", f


# --- 3. the header warning ----------------------------------------------------------------------

def test_header_warning_says_which_builds_and_how_to_get_them(testbed, tmp_path):
    env = shell_env(tmp_path, testbed)
    [h] = by_id(doctor_json('eval "$(cudaenv use 12.4)"', env, "--no-torch"))["env.cuda_home_headers"]
    assert h["status"] == "warn"
    assert "torch extensions that include ATen/cuda/CUDAContext.h will not compile" in h["summary"], h
    assert "`cudaenv verify`" in h["detail"] and "torch/extension.h build without them" in h["detail"], h
    assert "`cudaenv install 12.4 --parts build`" in h["fix"], h
    # What --parts build takes: the cuBLAS/cuSPARSE/cuSOLVER headers (install/parts.py).
    from cudaenv.install.parts import select

    got = select("build", ["cuda_nvcc", "cuda_cudart", "libcublas", "libcusparse", "libcusolver", "libcufft"])
    assert got.get("libcublas") == got.get("libcusparse") == got.get("libcusolver") == "include", got
    assert "libcufft" not in got


def test_no_garbled_relation_under_ok(venv_cu, system_toolkit, testbed, tmp_path):
    """The issue's "libcudart.so.13 ? (unknown than the wheel's 13.0.96)" under ok: a library of
    unknown version (this machine's 13.0 names none) is said in words."""
    env = shell_env(tmp_path, testbed, venv_cu, LD_LIBRARY_PATH=f"{system_toolkit}/lib64")
    [w] = by_id(doctor_json("true", env, "--no-torch"))["env.wheel_shadowing"]
    assert w["status"] == "ok" and "libcudart.so.13" in w["summary"], w
    assert " ? (" not in w["summary"] and "unknown than" not in w["summary"], w
    assert "libcudart.so.13 (version unknown) defines every symbol of the wheel's" in w["summary"], w


# --- 4. use says what it picked, at a terminal ----------------------------------------------------

def use_on_pty(args: list[str], env: dict) -> tuple[str, str]:
    """`cudaenv use ARGS` as `eval "$(...)"` runs it: stderr a terminal, stdout a pipe."""
    from ptyscreen import run_on_pty

    code, raw, out = run_on_pty([sys.executable, "-m", "cudaenv", "use", *args], dict(env, PYTHONPATH=REPO), 400,
                                timeout=120)
    assert code == 0, raw
    return raw.decode().replace("\r\n", "\n"), out.decode() if isinstance(out, bytes) else out


@pytest.mark.parametrize("args, expect", [
    (["12"], r"^cudaenv: 12 resolved to CUDA 12\.4\.1 \(.*\), but torch 2\.14\.1\+cu130 in .* was built with "
             r"CUDA 13\.0: its extension builds refuse CUDA 12\.4; eval \"\$\(cudaenv use 13\.\d+\)\" fits it$"),
    (["12.4"], r"^cudaenv: torch 2\.14\.1\+cu130 in .* was built with CUDA 13\.0: its extension builds refuse "
               r"CUDA 12\.4; eval \"\$\(cudaenv use 13\.\d+\)\" fits it$"),
    (["--match-torch"], r"^cudaenv: --match-torch: CUDA 13\.\d+\.\d+ \(.*\) for torch 2\.14\.1\+cu130 in .*, "
                        r"built with CUDA 13\.0$"),
    (["13.5"], None),  # literal, and torch's major: nothing to say
])
def test_use_says_what_it_picked_at_a_terminal(testbed, venv_cu, tmp_path, args, expect):
    env = shell_env(tmp_path, testbed, venv_cu)
    err, out = use_on_pty(args, env)
    piped = run_cudaenv(["use", *args], env)
    assert piped.returncode == 0 and piped.stderr == "", piped.stderr  # not a terminal: silent as before
    assert out == piped.stdout  # nothing on stdout changes
    lines = [x for x in err.split("\n") if x]
    if expect is None:
        assert lines == [], lines
    else:
        assert len(lines) == 1 and re.match(expect, lines[0]), lines
        if "fits it" in lines[0]:  # the named command works, and then nothing more is said
            word = re.search(r"cudaenv use (\S+)\)", lines[0]).group(1)
            err2, _ = use_on_pty([word], env)
            assert err2.strip() == "", err2


def test_use_major_only_without_torch_names_the_pick(testbed, venv_cpu, tmp_path):
    env = shell_env(tmp_path, testbed, venv_cpu)
    err, _ = use_on_pty(["12"], env)
    assert err.strip() == f"cudaenv: 12 resolved to CUDA 12.4.1 ({os.path.realpath(testbed['12.4'])})", err
    err, _ = use_on_pty(["12.4"], env)  # a CPU torch: no conflict to report, and 12.4 is literal
    assert err.strip() == "", err


def test_a_toolkit_only_its_path_names_gets_a_quoted_line_that_pastes(tmp_path):
    """Two toolkits of one version: neither `12.4` nor `cuda-12.4.1` says which, so the fix names
    the root, quoted — a hostile one too — and pasting it selects exactly that toolkit."""
    from helpers import HOSTILE, make_toolkit

    mine = make_toolkit(str(tmp_path / HOSTILE / "cuda"), "12.4.1")
    make_toolkit(str(tmp_path / "other" / "cuda"), "12.4.1")
    env = clean_shell_env(tmp_path, "/usr/local/bin:/usr/bin:/bin",
                          CUDAENV_ROOTS=f"{mine}:{tmp_path / 'other' / 'cuda'}",
                          CUDAENV_PROC_ROOT=str(tmp_path / "noproc"))
    work = tmp_path / "work"
    work.mkdir()
    from cudaenv.shells.posix import quote

    script = f"export PATH={quote(mine + '/bin')}:$PATH"
    [h] = by_id(doctor_json(script, env, "--no-torch", cwd=str(work)))["env.cuda_home"]
    assert h["fix"] == f'eval "$(cudaenv use {quote(mine)})"', h
    res = bash(f'{script}\n{h["fix"]}\nprintf %s "$CUDA_HOME"', env, cwd=str(work))
    assert res.returncode == 0 and res.stdout == mine, res.stderr
    assert os.listdir(work) == []  # nothing in the name ran


def test_driver_and_gpu_fixes_name_a_toolkit_this_machine_runs(testbed, venv_cpu, venv_cu, tmp_path):
    """FAKE driver from real outputs (r570: CUDA 12.8, a TITAN V sm_70 beside an sm_89): `check 13.5`
    answers with the toolkit that runs and builds here; with a cu130 torch no 12.x is offered."""
    from helpers import fake_gpu_env

    env = fake_gpu_env(shell_env(tmp_path, testbed, venv_cpu), tmp_path, "r570-2gpu")
    res = run_cudaenv(["check", "13.5", "--json", "--no-torch"], env)
    got = {(f["id"], f["status"]): f["fix"] for f in json.loads(res.stdout)["results"][0]["findings"]}
    assert got[("driver.version", "fail")].endswith('or switch to a toolkit <= 12.8 (eval "$(cudaenv use 12.4)")'), got
    assert got[("gpu.arch", "fail")] == 'eval "$(cudaenv use 12.4)": it builds for sm_70', got
    env = fake_gpu_env(shell_env(tmp_path, testbed, venv_cu), tmp_path, "r570-2gpu")
    res = run_cudaenv(["check", "13.5", "--json", "--no-torch"], env)
    got = {(f["id"], f["status"]): f["fix"] for f in json.loads(res.stdout)["results"][0]["findings"]}
    assert "cudaenv use 12" not in got[("driver.version", "fail")] and "needs the newer driver" in \
        got[("driver.version", "fail")], got
    assert got[("gpu.arch", "fail")].startswith("install a toolkit that supports it"), got


@pytest.mark.slow
def test_cmake_route_verdict_matches_a_real_cmake(testbed, tmp_path):
    """CMake hands CUDAHOSTCXX to nvcc on its command line, over cudaenv's NVCC_PREPEND_FLAGS:
    doctor's verdict on that route is what a real CMake configure does, before and after the fix."""
    for tool in ("cmake", "g++-11", "g++-12"):
        need(tool)
    env = shell_env(tmp_path, testbed)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(t LANGUAGES CUDA)\n"
                                         "add_executable(t k.cu)\n")
    (proj / "k.cu").write_text(KERNEL)
    setup = 'eval "$(cudaenv use 11.8)"\nexport CUDAHOSTCXX=g++-12'
    [f] = [f for f in doctor_json(setup, env, "--no-torch")["shell"] if f["id"] == "compiler.host"]
    assert f["status"] == "fail" and f["summary"].startswith("CMake builds"), f
    assert bash(f"{setup}\ncmake -S {proj} -B {tmp_path / 'b1'}", env).returncode != 0
    fixed = f"{setup}\n{f['fix']}"
    [f] = [f for f in doctor_json(fixed, env, "--no-torch")["shell"] if f["id"] == "compiler.host"]
    assert f["status"] == "ok", f
    res = bash(f"{fixed}\ncmake -S {proj} -B {tmp_path / 'b2'}", env)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]


@pytest.mark.parametrize("broken, says", [
    ("export NVCC_PREPEND_FLAGS='-ccbin=/nonexistent/g++'", "'/nonexistent/g++' (-ccbin in NVCC_PREPEND_FLAGS)"),
    ("export NVCC_APPEND_FLAGS='-ccbin'", None),  # a -ccbin without a value: nvcc's default, gcc
    ("export CUDAHOSTCXX=\"$HOSTILE\"", "CMake builds: "),
    ("export CC='ccache gcc'", "torch extension builds: "),
])
def test_doctor_on_hand_made_compiler_settings(testbed, tmp_path, broken, says):
    """Settings that name no compiler: one warning that says which route and which value, no traceback."""
    from helpers import HOSTILE

    env = shell_env(tmp_path, testbed, HOSTILE=HOSTILE)
    res = bash(f'eval "$(cudaenv use 12.4)"\n{broken}\ncudaenv doctor --no-torch --json || true', env,
               cwd=str(tmp_path))
    assert "Traceback" not in res.stderr, res.stderr
    [f] = [f for f in json.loads(res.stdout)["shell"] if f["id"] == "compiler.host"]
    if says is None:
        assert f["status"] == "ok" and "gcc on PATH" in f["summary"], f
    else:
        assert f["status"] == "warn" and says in f["summary"] and "not found on PATH" in f["summary"], f
        assert f["fix"], f
    assert not os.path.exists(tmp_path / "PWNED") and not os.path.exists(tmp_path / "PWNED2")


def test_use_line_in_an_interactive_bash(testbed, venv_cu, tmp_path):
    """The user's own flow: an interactive bash on a terminal, the venv active, `eval "$(cudaenv use 12)"`
    shows the one line and switches anyway; the pasted answer switches to what fits, silently."""
    from ptyshell import PROMPT, PtyShell

    env = shell_env(tmp_path, testbed, venv_cu)
    rc = tmp_path / "bashrc"
    rc.write_text(f"PS1='{PROMPT}'\n")
    (tmp_path / "work").mkdir()
    sh = PtyShell(["bash", "--noprofile", "--rcfile", str(rc), "-i"], env, str(tmp_path / "work"))
    try:
        sh.run('eval "$(cudaenv use 12)"')
        sh.run('echo "home=$CUDA_HOME"')
        text = sh.text().replace("\r", "")
        line = [x for x in text.split("\n") if x.startswith("cudaenv: ")]
        assert len(line) == 1 and line[0].startswith("cudaenv: 12 resolved to CUDA 12.4.1"), text[-2000:]
        assert f"home={os.path.realpath(testbed['12.4'])}" in text or f"home={testbed['12.4']}" in text
        fix = re.search(r'eval "\$\(cudaenv use [^)]+\)"', line[0]).group(0)
        seen = len(sh.text())
        sh.run(fix)
        sh.run('nvcc --version | tail -2 | head -1')
        after = sh.text()[seen:].replace("\r", "")
        assert "cudaenv: " not in after and re.search(r"release 13\.\d+", after), after
    finally:
        sh.close()
