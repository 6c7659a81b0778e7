"""CI outputs: ``use --format github|dotenv|json`` and ``cudaenv matrix``, checked against their consumers.

GitHub: the runner is not available here, so :class:`Job` plays it. Its file
handling is ported line by line from actions/runner (Linux):
``SetEnvFileCommand`` (``NAME=VALUE`` or ``NAME<<DELIM`` up to a line equal
to ``DELIM``; the value ends before the newline preceding it),
``AddPathFileCommand`` (``File.ReadAllLines``; each non-empty line is removed
from the job's list and appended), ``Handler.AddPrependPathToEnvironment``
(``PATH = reversed(list) joined by ':'`` in front of the step's PATH) and
``PathUtil.PrependPath`` (no trailing ':' for an empty PATH; no prepending
when PATH already starts with it). Every step gets fresh files, as on the
runner, and runs in real bash the way ``shell: bash`` does.

dotenv: the real docker client parses the file (against a fake daemon on a
unix socket that records the create request), and GitLab's parser
(``Ci::ParseDotenvArtifactService#scan_line!``) is ported.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import socketserver
import subprocess
import threading

import pytest

from cudaenv.toolkit import compat
from cudaenv.env.plan import Plan
from cudaenv.errors import CudaenvError
from cudaenv.main import fast_form
from cudaenv.outputs import dotenv as dotenv_out
from cudaenv.outputs import github as gh
from helpers import HOSTILE, REPO, make_toolkit, need, parse_env0, refused_in_one_line, run_cudaenv, write_wrapper
from conftest import SYSTEM_TOOLKIT

# ---------------------------------------------------------------------------
# The GitHub Actions runner's file commands (actions/runner, src/Runner.Worker)


class RunnerError(Exception):
    """What the runner raises for a malformed file (the step then fails)."""


def _read_line(text: str, i: int) -> tuple[str | None, str | None, int]:
    """``SetEnvFileCommand.ReadLine`` on Linux: split on LF only."""
    if i >= len(text):
        return None, None, i
    lf = text.find("\n", i)
    if lf < 0:
        return text[i:], None, len(text)
    return text[i:lf], "\n", lf + 1


def runner_parse_env_file(data: bytes) -> list[tuple[str, str]]:
    """``SetEnvFileCommand.ProcessCommand``: the (name, value) pairs in file order."""
    text = data.decode("utf-8", "replace")  # File.ReadAllText: UTF-8, BOM skipped
    if text.startswith("\ufeff"):
        text = text[1:]
    out = []
    line, _, i = _read_line(text, 0)
    while line is not None:
        if line:
            eq, hd = line.find("="), line.find("<<")
            if eq >= 0 and (hd < 0 or eq < hd):
                name, value = line.split("=", 1)
                out.append((name, value))
            elif hd >= 0 and (eq < 0 or hd < eq):
                name, delim = line.split("<<", 1)
                if not name or not delim:
                    raise RunnerError(f"Invalid environment variable format '{line}'")
                start = end = i
                tmp, nl, i = _read_line(text, i)
                while tmp != delim:
                    if tmp is None:
                        raise RunnerError(f"Matching delimiter not found '{delim}'")
                    end = i - (len(nl) if nl else 0)
                    tmp, nl, i = _read_line(text, i)
                out.append((name, text[start:end] if end > start else ""))
            else:
                raise RunnerError(f"Invalid environment variable format '{line}'")
        line, _, i = _read_line(text, i)
    return out


def _read_all_lines(text: str) -> list[str]:
    """.NET ``File.ReadAllLines``: lines end at CRLF, LF or CR; no empty last line for a final newline."""
    lines, i, n = [], 0, len(text)
    while i < n:
        j = i
        while j < n and text[j] not in "\r\n":
            j += 1
        lines.append(text[i:j])
        if j < n and text[j] == "\r" and j + 1 < n and text[j + 1] == "\n":
            j += 1
        i = j + 1
    return lines


def runner_add_path_file(data: bytes, prepend: list[str]) -> None:
    """``AddPathFileCommand.ProcessCommand`` on the job's PrependPath list."""
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    for line in _read_all_lines(text):
        if line == "":
            continue
        while line in prepend:
            prepend.remove(line)
        prepend.append(line)


def runner_prepend_path(path: str, current: str) -> str:
    """``PathUtil.PrependPath``."""
    if not current:
        return path
    if current.startswith(path + ":"):
        return current
    return path + ":" + current


class Job:
    """One job on a Linux runner, as far as $GITHUB_ENV and $GITHUB_PATH go."""

    def __init__(self, env: dict[str, str], workdir):
        self.env = dict(env)            # the runner process's environment
        self.global_env: dict[str, str] = {}  # Global.EnvironmentVariables
        self.prepend: list[str] = []    # Global.PrependPath
        self.workdir = workdir
        self.steps = 0

    def step_env(self) -> dict[str, str]:
        env = dict(self.env)
        env.update(self.global_env)
        if self.prepend:
            env["PATH"] = runner_prepend_path(":".join(reversed(self.prepend)), env.get("PATH", ""))
        return env

    def run(self, script: str, **extra: str) -> subprocess.CompletedProcess:
        """Run one `run:` step with `shell: bash`, then process its files."""
        self.steps += 1
        env_file = self.workdir / f"set_env_{self.steps}"
        path_file = self.workdir / f"add_path_{self.steps}"
        env_file.write_bytes(b"")
        path_file.write_bytes(b"")
        env = self.step_env()
        env.update(GITHUB_ENV=str(env_file), GITHUB_PATH=str(path_file), GITHUB_ACTIONS="true", **extra)
        res = subprocess.run([need("bash"), "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                             env=env, cwd=self.workdir, capture_output=True, timeout=300)
        for name, value in runner_parse_env_file(env_file.read_bytes()):
            self.global_env[name] = value
        runner_add_path_file(path_file.read_bytes(), self.prepend)
        return res


# ---------------------------------------------------------------------------
# The runner model itself, on inputs whose outcome the runner's code fixes


def test_runner_model_follows_the_runner_rules():
    text = b"A=1\n\nB=x<<y\nC<<EOF\nline1\n\nEOFX\nEOF\nD<<E\nE\nF=a=b\nG<<H\nno newline at the end\nH"
    assert runner_parse_env_file(text) == [("A", "1"), ("B", "x<<y"), ("C", "line1\n\nEOFX"), ("D", ""),
                                           ("F", "a=b"), ("G", "no newline at the end")]
    with pytest.raises(RunnerError, match="Matching delimiter not found"):
        runner_parse_env_file(b"X<<END\nvalue\n")
    with pytest.raises(RunnerError, match="Invalid environment variable format"):
        runner_parse_env_file(b"no equals sign here\n")
    prepend: list[str] = []
    runner_add_path_file(b"/a\n\n/b\r\n/a\n", prepend)
    assert prepend == ["/b", "/a"]
    assert runner_prepend_path(":".join(reversed(prepend)), "/usr/bin") == "/a:/b:/usr/bin"
    assert runner_prepend_path("/a", "") == "/a"
    assert runner_prepend_path("/a", "/a:/usr/bin") == "/a:/usr/bin"


# ---------------------------------------------------------------------------
# github renderer, unit level


@pytest.mark.parametrize("value", [
    "", "plain", "a\nb", "ends with newline\n", "\n", "NAME=1", "x<<EOF", "EOF", "'\";&& $(x) `y` a!b",
    HOSTILE, "trailing space ", "cr\rinside", "多字节 🚒",
])
def test_env_entry_round_trips_through_the_runner(value):
    entry = gh.env_entry("V", value)
    assert runner_parse_env_file(entry.encode()) == [("V", value)]


def test_github_refuses_bytes_the_runner_would_replace():
    with pytest.raises(CudaenvError, match="not UTF-8"):
        gh.env_entry("V", "/opt/x\udcff")


def test_delimiter_never_occurs_in_the_value():
    seq = iter(["aaaa", "aaaa", "bbbb"])
    value = "first line\nCUDAENV_EOF_aaaa\nlast"
    entry = gh.env_entry("V", value, rand=lambda: next(seq))
    assert entry.startswith("V<<CUDAENV_EOF_bbbb\n")
    assert runner_parse_env_file(entry.encode()) == [("V", value)]
    # Random by default: two entries for the same value use different delimiters.
    assert gh.env_entry("V", "x").split("\n")[0] != gh.env_entry("V", "x").split("\n")[0]


def _state_plan(pre: list[str], app: list[str] = (), cur_path: str = "/usr/bin", unset: tuple = ()) -> Plan:
    from cudaenv.env.state import State, encode

    st = State("p", lists={"PATH": ("v", list(pre), list(app))})
    new = ":".join(list(pre) + cur_path.split(":") + list(app))
    changes = [("set", "PATH", new), ("set", "CUDA_HOME", "/r")]
    changes += [("unset", n) for n in unset]
    changes += [("set", "CUDAENV_ACTIVE", "p"), ("set", "_CUDAENV_STATE", encode(st))]
    return Plan(changes, [])


def test_path_lines_are_written_reversed_so_the_runner_restores_use_order():
    plan = _state_plan(["/r/bin", "/r/nvvm/bin"])
    out = gh.render(plan, {"PATH": "/usr/bin"})
    assert out.path_text == "/r/nvvm/bin\n/r/bin\n"
    assert out.directories == ["/r/bin", "/r/nvvm/bin"]
    prepend: list[str] = []
    runner_add_path_file(out.path_text.encode(), prepend)
    assert runner_prepend_path(":".join(reversed(prepend)), "/usr/bin") == "/r/bin:/r/nvvm/bin:/usr/bin"
    assert "PATH" not in [n for n, _ in runner_parse_env_file(out.env_text.encode())]
    assert out.notes == []


def test_what_the_runner_cannot_do_is_a_note():
    plan = _state_plan(["/r/bin"], app=["/opt/tail"], unset=("CUDAHOSTCXX",))
    out = gh.render(plan, {"PATH": "/usr/bin"})
    assert any("can only prepend" in n and "/opt/tail" in n for n in out.notes)
    assert any("cannot unset CUDAHOSTCXX" in n for n in out.notes)
    assert ("CUDAHOSTCXX", "") in runner_parse_env_file(out.env_text.encode())


def test_a_profile_setting_path_outright_is_refused():
    from cudaenv.env.state import State, encode

    st = State("p", scalars={"PATH": (None, "/x")})
    plan = Plan([("set", "PATH", "/x"), ("set", "_CUDAENV_STATE", encode(st))], [])
    with pytest.raises(CudaenvError, match="sets PATH outright"):
        gh.render(plan, {"PATH": "/usr/bin"})


# ---------------------------------------------------------------------------
# github, end to end: real cudaenv in step 1, real bash in step 2


@pytest.fixture
def job_env(tmp_path):
    """A clean runner-like environment with `cudaenv` on PATH."""
    bindir = tmp_path / "bin"
    write_wrapper(str(bindir))
    env = {
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:/usr/bin:/bin",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "LC_ALL": "C.UTF-8",
        "CI": "true",
    }
    work = tmp_path / "work"
    work.mkdir()
    return env, work


def _env_after_eval(env: dict, cwd, target: str) -> dict[bytes, bytes]:
    res = subprocess.run([need("bash"), "--noprofile", "--norc", "-eo", "pipefail", "-c",
                          f'eval "$(cudaenv use {target})"; env -0'], env=env, cwd=cwd, capture_output=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    return parse_env0(res.stdout)


_RUNNER_VARS = {b"GITHUB_ENV", b"GITHUB_PATH", b"GITHUB_ACTIONS"}


@pytest.mark.testbed
@pytest.mark.parametrize("version,release", [("11.8", "V11.8.89"), ("12.4", "V12.4.131"), ("13.5", "V13.5.37")])
def test_two_steps_real_toolkit(job_env, testbed, version, release):
    env, work = job_env
    env["CUDAENV_ROOTS"] = ":".join(testbed.values())
    job = Job(env, work)
    s1 = job.run(f"cudaenv use {version} --format github")
    assert s1.returncode == 0, s1.stderr
    assert s1.stdout == b""
    err = s1.stderr.decode().splitlines()
    assert len(err) == 1 and "for the following steps" in err[0], err
    s2 = job.run('nvcc --version | grep release; echo "$CUDA_HOME"; command -v nvcc')
    assert s2.returncode == 0, s2.stderr
    out = s2.stdout.decode().splitlines()
    root = os.path.realpath(testbed[version])
    assert release in out[0]
    assert out[1] == root
    assert out[2] == f"{root}/bin/nvcc"
    # The following steps see exactly what `eval "$(cudaenv use X)"` gives, PATH included.
    s3 = job.run("env -0")
    after_steps = {k: v for k, v in parse_env0(s3.stdout).items() if k not in _RUNNER_VARS}
    after_eval = {k: v for k, v in _env_after_eval(env, work, version).items() if k not in _RUNNER_VARS}
    assert after_steps == after_eval
    if version == "11.8":  # g++ 12 is too new for 11.8: the compiler override reaches later steps too
        assert after_steps[b"NVCC_PREPEND_FLAGS"] == b"-ccbin /usr/bin/g++-11"
    assert b"PATH" not in dict(runner_parse_env_file((work / "set_env_1").read_bytes()))


@pytest.mark.testbed
def test_switching_toolkits_within_one_job(job_env, testbed):
    env, work = job_env
    env["CUDAENV_ROOTS"] = ":".join(testbed.values())
    job = Job(env, work)
    assert job.run("cudaenv use 11.8 --format github").returncode == 0
    s2 = job.run("cudaenv use 12.4 --format github")
    assert s2.returncode == 0, s2.stderr
    err = s2.stderr.decode()
    r118, r124 = os.path.realpath(testbed["11.8"]), os.path.realpath(testbed["12.4"])
    assert f"cannot take directories off PATH: {r118}/bin stays behind {r124}/bin" in err
    assert "cannot unset CUDAHOSTCXX" in err and "cannot unset NVCC_PREPEND_FLAGS" in err
    s3 = job.run('nvcc --version | grep release; echo "PATH=$PATH"; echo "[$CUDAHOSTCXX][$NVCC_PREPEND_FLAGS]"; '
                 'echo "$CUDAENV_ACTIVE"')
    assert s3.returncode == 0, s3.stderr
    out = s3.stdout.decode().splitlines()
    assert "V12.4.131" in out[0]
    assert out[1].startswith(f"PATH={r124}/bin:{r118}/bin:")
    assert out[2] == "[][]"
    assert out[3] == "cuda-12.4.1"
    # `use` again for the active toolkit writes nothing.
    s4 = job.run("cudaenv use 12.4 --format github")
    assert s4.returncode == 0 and b"nothing to write" in s4.stderr
    assert (work / "set_env_4").read_bytes() == b"" and (work / "add_path_4").read_bytes() == b""


def test_two_steps_hostile_toolkit(job_env, tmp_path):
    env, work = job_env
    root = str(tmp_path / HOSTILE / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    env["CUDAENV_ROOTS"] = root
    job = Job(env, work)
    s1 = job.run("echo EARLIER=kept >> \"$GITHUB_ENV\"; cudaenv use 12.4 --format github")
    assert s1.returncode == 0, s1.stderr
    assert s1.stdout == b""
    s2 = job.run('nvcc --version | tail -1; printf "%s\\n" "$CUDA_HOME" "$CUDA_PATH" "$EARLIER"; command -v nvcc')
    assert s2.returncode == 0, s2.stderr
    out = s2.stdout.decode().splitlines()
    assert out == ["Cuda compilation tools, release 12.4, V12.4.1", root, root, "kept", f"{root}/bin/nvcc"]
    assert not list(work.glob("PWNED*")) and not list(tmp_path.glob("PWNED*"))
    assert job.global_env["LIBRARY_PATH"] == f"{root}/lib64:{root}/lib64/stubs"
    assert job.prepend == [f"{root}/bin"]


def test_profile_with_several_path_entries_and_a_multiline_value(job_env, tmp_path):
    """Two PATH prepends keep their order; an append is left out with a note; newlines survive $GITHUB_ENV."""
    env, work = job_env
    root = str(tmp_path / "tk" / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    os.makedirs(f"{root}/nvvm/bin")
    pdir = tmp_path / "cfg" / "cudaenv" / "profiles"
    pdir.mkdir(parents=True)
    (pdir / "multi.yaml").write_text(
        f"name: multi\nroot: {root}\nstubs: never\nhost_compiler: none\n"
        "set:\n  CUDA_HOME: '{root}'\n  NOTE: \"line one\\nEOF\\nx<<y=z\\n\"\n"
        "prepend:\n  PATH: ['{root}/bin', '{root}/nvvm/bin']\n"
        "append:\n  PATH: ['/opt/at-the-end']\n")
    env["CUDAENV_ROOTS"] = root
    job = Job(env, work)
    s1 = job.run("cudaenv use multi --format github")
    assert s1.returncode == 0, s1.stderr
    assert b"can only prepend: not adding /opt/at-the-end" in s1.stderr
    assert (work / "add_path_1").read_text() == f"{root}/nvvm/bin\n{root}/bin\n"
    s2 = job.run('echo "$PATH"; printf "%s" "$NOTE"')
    path, note = s2.stdout.decode().split("\n", 1)
    assert path == f"{root}/bin:{root}/nvvm/bin:{env['PATH']}"
    assert note == "line one\nEOF\nx<<y=z\n"


def test_github_without_github_env_writes_nothing(tmp_path, job_env):
    env, work = job_env
    root = str(tmp_path / "tk" / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    path_file = tmp_path / "path"
    path_file.write_text("")
    res = run_cudaenv(["use", "12.4", "--format", "github"], dict(env, CUDAENV_ROOTS=root, GITHUB_PATH=str(path_file)))
    assert res.returncode == 2
    assert res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and "GITHUB_ENV" in res.stderr
    assert path_file.read_text() == ""


@pytest.mark.parametrize("full", ["env", "path", "env-past-fsize"])
def test_github_write_that_fails_leaves_both_files_as_they_were(tmp_path, job_env, full):
    """A full disk (/dev/full, or a file size limit hit in the middle of an entry) is one line and exit 1;
    GITHUB_PATH is not written when GITHUB_ENV failed, and what was appended to GITHUB_ENV before
    GITHUB_PATH failed is cut off again: the runner sees neither file changed."""
    env, work = job_env
    root = str(tmp_path / "tk" / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    env_file, path_file = tmp_path / "env", tmp_path / "path"
    env_file.write_text("EARLIER=1\n" if full != "env-past-fsize" else "x" * 4000)
    path_file.write_text("/earlier\n")
    before = (env_file.read_bytes(), path_file.read_bytes())
    e = dict(env, CUDAENV_ROOTS=root, GITHUB_ENV="/dev/full" if full == "env" else str(env_file),
             GITHUB_PATH="/dev/full" if full == "path" else str(path_file))
    limit = "ulimit -f 4; " if full == "env-past-fsize" else ""  # bash: 4 KiB, so the entry is cut short
    res = subprocess.run(["bash", "-c", limit + "exec cudaenv use 12.4 --format github"], env=e,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1 and res.stdout == "", res.stderr
    assert res.stderr.count("\n") == 1 and "nothing was applied" in res.stderr, res.stderr
    assert "No space left on device" in res.stderr or "File too large" in res.stderr
    assert (env_file.read_bytes(), path_file.read_bytes()) == before


@pytest.mark.parametrize("which", ["GITHUB_ENV", "GITHUB_PATH"])
def test_github_file_that_is_a_fifo_nobody_reads_is_one_line_not_a_hang(tmp_path, job_env, which):
    """Opening a FIFO for writing blocks until a reader comes: cudaenv must not wait for one."""
    env, work = job_env
    root = str(tmp_path / "tk" / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    env_file, path_file = tmp_path / "env", tmp_path / "path"
    env_file.write_text("EARLIER=1\n")
    path_file.write_text("/earlier\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    e = dict(env, CUDAENV_ROOTS=root, GITHUB_ENV=str(fifo if which == "GITHUB_ENV" else env_file),
             GITHUB_PATH=str(fifo if which == "GITHUB_PATH" else path_file))
    res = subprocess.run(["cudaenv", "use", "12.4", "--format", "github"], env=e, capture_output=True, text=True,
                         timeout=60)  # a hang guard only
    assert res.returncode != 0 and res.stdout == "" and res.stderr.count("\n") == 1, res.stderr
    assert f"cannot open {fifo} for appending" in res.stderr
    assert env_file.read_text() == "EARLIER=1\n" and path_file.read_text() == "/earlier\n"


def test_github_error_in_planning_writes_nothing(job_env, tmp_path):
    env, work = job_env
    job = Job(env, work)
    res = job.run("cudaenv use 99.9 --format github")
    assert res.returncode != 0 and res.stdout == b""
    assert len(res.stderr.decode().splitlines()) == 1
    assert job.global_env == {} and job.prepend == []


def test_off_github_is_refused(job_env, tmp_path):
    env, work = job_env
    root = str(tmp_path / "tk" / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    env["CUDAENV_ROOTS"] = root
    job = Job(env, work)
    assert job.run("cudaenv use 12.4 --format github").returncode == 0
    before = (dict(job.global_env), list(job.prepend))
    res = job.run("cudaenv off --format github")
    assert res.returncode == 2 and res.stdout == b""
    err = res.stderr.decode().splitlines()
    assert len(err) == 1 and "cannot unset" in err[0]
    assert (work / "set_env_2").read_bytes() == b"" and (work / "add_path_2").read_bytes() == b""
    assert (job.global_env, job.prepend) == before


def test_shell_and_github_format_exclude_each_other(three_fake):
    res = run_cudaenv(["use", "12.4", "--shell", "bash", "--format", "github"], three_fake)
    assert res.returncode == 2 and res.stdout == "" and "exclude each other" in res.stderr


# ---------------------------------------------------------------------------
# json and the fast path


@pytest.fixture
def three_fake(tmp_path):
    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    return dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*")


def test_format_json_is_shell_json(three_fake):
    ref = run_cudaenv(["use", "12.4", "--shell", "json"], three_fake)
    for args in (["--format", "json"], ["--format=json"], ["--format", "json", "--shell", "json"]):
        res = run_cudaenv(["use", "12.4", *args], three_fake)
        assert res.returncode == 0, res.stderr
        assert res.stdout == ref.stdout
    assert json.loads(ref.stdout)["set"]["CUDA_HOME"].endswith("cuda-12.4.1")
    off = run_cudaenv(["off", "--format", "json"], three_fake)
    assert off.returncode == 0 and json.loads(off.stdout)["set"] == {}


def test_fast_path_leaves_format_to_click():
    assert fast_form(["use", "12.4", "--format", "github"]) is None
    assert fast_form(["use", "--format=dotenv", "12.4"]) is None
    assert fast_form(["off", "--format", "github"]) is None
    assert fast_form(["use", "12.4", "--shell", "bash"]) == ("use", {"shell": "bash"}, ["12.4"])


# ---------------------------------------------------------------------------
# dotenv


@pytest.mark.parametrize("value", ["", "/usr/local/cuda-12.4", "a'b", '"only-leading', "$(x) `y` a!b #c",
                                   "=<<=", "'\"mixed'\"", "inner  spaces", HOSTILE, "中片🚒"])
def test_dotenv_accepts(value):
    dotenv_out.check_value("V", value)


@pytest.mark.parametrize("value,why", [
    ("a\nb", "line break"), ("a\rb", "line break"), ("a\0b", "NUL"), (" lead", "whitespace"),
    ("trail ", "whitespace"), ("tab\t", "whitespace"), ("'quoted'", "quotes"), ('"quoted"', "quotes"),
    ("x\udcff", "not UTF-8"),
])
def test_dotenv_refuses(value, why):
    with pytest.raises(CudaenvError, match=why):
        dotenv_out.check_value("V", value)


def gitlab_parse_dotenv(data: bytes) -> dict[str, str]:
    """``Ci::ParseDotenvArtifactService#parse!`` / ``scan_line!``."""
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    out = {}
    for line in text.splitlines(keepends=True):  # Ruby each_line: split after "\n"
        m = re.findall(r"^(.*?)=(.*)$", line, flags=re.M)
        if not m:
            raise ValueError("Invalid Format")
        key, value = m[-1]
        strip = " \t\n\v\f\r\0"
        out[key.strip(strip)] = value.strip(strip)
    return out


class _FakeDockerd(http.server.BaseHTTPRequestHandler):
    """Enough of the Engine API for `docker create`: ping, then containers/create (recorded)."""

    protocol_version = "HTTP/1.1"
    created: list[dict] = []

    def log_message(self, *args):
        pass

    def address_string(self):
        return "unix"

    def _send(self, code: int, body: bytes, ctype: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Api-Version", "1.45")
        self.send_header("OSType", "linux")
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self._send(200, b"OK", "text/plain")

    def do_GET(self):
        if self.path.endswith("/_ping"):
            return self._send(200, b"OK", "text/plain")
        self._send(404, b'{"message":"not faked"}')

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if "/containers/create" in self.path:
            self.created.append(json.loads(body))
            return self._send(201, b'{"Id":"0123456789ab","Warnings":[]}')
        self._send(404, b'{"message":"not faked"}')


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


@pytest.fixture
def docker_env(tmp_path):
    """Environment for the real docker client talking to a fake daemon; returns (env, created)."""
    need("docker")
    sock = f"/tmp/cudaenv-dockerd-{os.getpid()}-{id(tmp_path)}.sock"  # AF_UNIX paths are short
    _FakeDockerd.created = []
    server = _UnixServer(sock, _FakeDockerd)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "DOCKER_HOST": f"unix://{sock}",
           "DOCKER_CONFIG": str(tmp_path / "docker-config")}
    yield env, _FakeDockerd.created
    server.shutdown()
    server.server_close()
    os.unlink(sock)


def test_docker_client_reads_the_dotenv_back(docker_env, tmp_path):
    denv, created = docker_env
    root = str(tmp_path / HOSTILE / "cuda-12.4")
    make_toolkit(root, "12.4.1")
    env = dict(os.environ, CUDAENV_ROOTS=root)
    res = run_cudaenv(["use", "12.4", "--format", "dotenv"], env)
    assert res.returncode == 0, res.stderr
    want = json.loads(run_cudaenv(["use", "12.4", "--format", "json"], env).stdout)["set"]
    lines = res.stdout.splitlines()
    assert [ln.split("=", 1)[0] for ln in lines] == list(want)  # nothing but NAME=value lines
    envfile = tmp_path / "cuda.env"
    envfile.write_text(res.stdout, encoding="utf-8")
    d = subprocess.run(["docker", "create", "--env-file", str(envfile), "image"], env=denv,
                       capture_output=True, text=True, timeout=60)
    assert d.returncode == 0, d.stderr
    assert created[-1]["Env"] == [f"{k}={v}" for k, v in want.items()]
    # GitLab's dotenv report parser gets the same values, and there is nothing it would reject.
    assert gitlab_parse_dotenv(res.stdout.encode()) == want


def test_docker_keeps_what_dotenv_refuses(docker_env, tmp_path):
    """Why the refusals: docker reads these differently from GitLab (or from what was meant)."""
    denv, created = docker_env
    envfile = tmp_path / "e.env"
    envfile.write_text("A=x \nB='q'\n")
    d = subprocess.run(["docker", "create", "--env-file", str(envfile), "image"], env=denv,
                       capture_output=True, text=True, timeout=60)
    assert d.returncode == 0, d.stderr
    docker = dict(e.split("=", 1) for e in created[-1]["Env"])
    gitlab = gitlab_parse_dotenv(envfile.read_bytes())
    assert docker["A"] != gitlab["A"]  # trailing whitespace: kept by docker, stripped by GitLab
    assert docker["B"] in ("'q'", "q")  # quotes: kept up to docker 28, stripped after
    with pytest.raises(ValueError):
        gitlab_parse_dotenv(b"# a comment\nA=1\n")
    with pytest.raises(ValueError):
        gitlab_parse_dotenv(b"A=1\n\nB=2\n")


def test_dotenv_refuses_a_value_it_cannot_express(tmp_path):
    root = str(tmp_path / "tk" / "cuda-12.4 ")  # trailing space: GitLab would strip it
    make_toolkit(root, "12.4.1")
    res = run_cudaenv(["use", root, "--format", "dotenv"], dict(os.environ))
    assert res.returncode == 2 and res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and "whitespace at one end" in res.stderr


def test_dotenv_cannot_unset(three_fake):
    active = dict(three_fake)
    doc = json.loads(run_cudaenv(["use", "11.8", "--format", "json"], three_fake).stdout)
    active.update(doc["set"])
    off = run_cudaenv(["off", "--format", "dotenv"], active)
    assert off.returncode == 2 and off.stdout == "" and "cannot unset" in off.stderr
    idle = run_cudaenv(["off", "--format", "dotenv"], three_fake)
    assert idle.returncode == 0 and idle.stdout == "" and "no cudaenv profile is active" in idle.stderr
    # Switching from the active 11.8 to 12.4 would unset 11.8's compiler override.
    if "CUDAHOSTCXX" in doc["set"]:
        sw = run_cudaenv(["use", "12.4", "--format", "dotenv"], active)
        assert sw.returncode == 2 and sw.stdout == "" and "cannot unset CUDAHOSTCXX" in sw.stderr


# ---------------------------------------------------------------------------
# matrix, against the real toolkits and compilers of this machine


def _torch_for(cuda: str) -> list[str]:
    from cudaenv.toolkit import version_key

    t = compat.table()["torch"]
    return sorted((v for v, e in t.items() if cuda in (e.get("cuda") or [])), key=version_key)


@pytest.fixture
def real_env(testbed, system_toolkit):
    for cxx in ("g++-11", "g++-12", "clang++-14"):
        need(cxx)
    return dict(os.environ, CUDAENV_ROOTS=":".join(testbed.values()), PATH="/usr/bin:/bin")


def _matrix(env, *args) -> dict:
    res = run_cudaenv(["matrix", *args], env)
    assert res.returncode == 0, res.stderr
    if "--json" not in args:
        assert res.stdout.count("\n") == 1 and res.stdout.isascii()
    return json.loads(res.stdout)


@pytest.mark.testbed
def test_matrix_real_toolkits_and_compilers(real_env, testbed):
    doc = _matrix(real_env)
    assert list(doc) == ["include"]
    by = {e["cuda"]: e for e in doc["include"]}
    assert list(by) == ["11.8", "12.4", "13.0", "13.5"]  # oldest first, the system 13.0 included
    assert by["13.0"]["cuda_root"] == os.path.realpath(SYSTEM_TOOLKIT)
    assert by["12.4"]["cuda_root"] == os.path.realpath(testbed["12.4"])
    assert by["12.4"]["cuda_version"] == "12.4.1" and by["12.4"]["cu"] == "cu124"
    assert os.path.basename(by["11.8"]["cxx"]) == "g++-11"
    for v in ("12.4", "13.0", "13.5"):
        assert os.path.basename(by[v]["cxx"]) == "g++-12", by[v]
        assert by[v]["cxx_family"] == "gcc" and by[v]["cxx_version"].startswith("12.")
    for v, e in by.items():
        assert e["torch"] == _torch_for(v)
        assert e["torch_newest"] == (e["torch"][-1] if e["torch"] else None)
        assert all(isinstance(x, (str, list, type(None))) for x in e.values())
    assert by["12.4"]["torch"] == ["2.4", "2.5", "2.6"] and by["13.5"]["torch"] == []
    assert _matrix(real_env, "--json") == doc


@pytest.mark.testbed
@pytest.mark.parametrize("args,cudas", [
    (["--min", "12"], ["12.4", "13.0", "13.5"]),
    (["--max", "12"], ["11.8", "12.4"]),
    (["--min", "12.4", "--max", "13.0"], ["12.4", "13.0"]),
    (["--max", "12.4.1"], ["11.8", "12.4"]),
    (["--torch", "2.6"], ["11.8", "12.4"]),
    (["--torch", "2.9.1+cu130"], ["13.0"]),
    (["--torch", "2.7", "--torch", "2.5", "--min", "12"], ["12.4"]),
])
def test_matrix_filters(real_env, args, cudas):
    doc = _matrix(real_env, *args)
    assert [e["cuda"] for e in doc["include"]] == cudas
    torch = [".".join(a.split("+")[0].split(".")[:2]) for a, prev in zip(args, [None] + args) if prev == "--torch"]
    if torch:
        for e in doc["include"]:
            assert e["torch"] == [t for t in _torch_for(e["cuda"]) if t in torch]


@pytest.mark.testbed
def test_matrix_with_clang_as_default(real_env):
    doc = _matrix(dict(real_env, CXX="clang++"))
    by = {e["cuda"]: e for e in doc["include"]}
    # clang 14 is accepted by every toolkit here (11.8 takes up to clang 14).
    assert {os.path.basename(e["cxx"]) for e in by.values()} == {"clang++-14"}
    assert by["11.8"]["cxx_family"] == "clang"


@pytest.mark.testbed
@pytest.mark.parametrize("args,code,msg", [
    (["--min", "99"], 1, "no installed toolkit matches --min 99"),
    (["--torch", "9.9"], 2, "torch 9.9: no CUDA builds known"),
    (["--max", "twelve"], 2, "not a version"),
])
def test_matrix_errors(real_env, args, code, msg):
    res = run_cudaenv(["matrix", *args], real_env)
    assert res.returncode == code and res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and msg in res.stderr


@pytest.mark.testbed
def test_matrix_through_github_output(job_env, testbed, system_toolkit):
    """The documented step: the runner parses $GITHUB_OUTPUT like $GITHUB_ENV; fromJSON gets the include list."""
    env, work = job_env
    env["CUDAENV_ROOTS"] = ":".join(testbed.values())
    job = Job(env, work)
    out_file = work / "output"
    out_file.write_text("")
    res = job.run('matrix=$(cudaenv matrix --max 12)\necho "matrix=$matrix" >> "$GITHUB_OUTPUT"',
                  GITHUB_OUTPUT=str(out_file))
    assert res.returncode == 0, res.stderr
    outputs = dict(runner_parse_env_file(out_file.read_bytes()))
    assert [e["cuda"] for e in json.loads(outputs["matrix"])["include"]] == ["11.8", "12.4"]
    bad = job.run('matrix=$(cudaenv matrix --min 99)\necho "matrix=$matrix" >> "$GITHUB_OUTPUT"',
                  GITHUB_OUTPUT=str(out_file))
    assert bad.returncode != 0  # the documented form fails the step


# ---------------------------------------------------------------------------
# docs


def test_docs_workflow_uses_both_commands():
    import yaml

    text = open(os.path.join(REPO, "docs", "ci.md"), encoding="utf-8").read()
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    wf = yaml.safe_load(block)
    steps = [s.get("run", "") for job in wf["jobs"].values() for s in job["steps"]]
    assert any("cudaenv matrix" in s and "GITHUB_OUTPUT" in s for s in steps)
    assert any("cudaenv use" in s and "--format github" in s for s in steps)
    assert "fromJSON(needs.toolkits.outputs.matrix)" in wf["jobs"]["build"]["strategy"]["matrix"]


@pytest.mark.parametrize("bound", ["9" * 5000, "12.\u00b9", "\uff11\uff12", "12.-1", "1" * 10])
def test_matrix_bounds_are_ascii_numbers_of_sane_length(one_toolkit, bound):
    _tmp, env = one_toolkit
    res = run_cudaenv(["matrix", "--min", bound], env)
    refused_in_one_line(res, "is not a version like 12 or 12.4")
    assert len(res.stderr) < 200, "the message quotes a clipped value"
