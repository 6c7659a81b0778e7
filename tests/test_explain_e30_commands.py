"""Round 30: "this program is not here", in every shell's and launcher's words, answered by the program's cause.

errors.yaml's `command_not_found` holds each wording once (`{cmd}` marks the program) and an entry lists the programs it
answers for (`missing_commands`); kb.py reads every wording into those entries' patterns. Before, each entry kept the
wordings it had met: `nvidia-smi` was read in bash's words only ("dash: 1: nvidia-smi: not found", zsh's, fish's and
tcsh's went unanswered), nvcc in cmd.exe's and PowerShell's not at all (the burned fresh29 l06).

The shells here are the real ones (bash, dash, zsh, fish, tcsh), and make, env and Python's subprocess: each runs the
program with a PATH that has no directory, and explain reads what it printed. The wordings this machine cannot
produce (cmd.exe, PowerShell, Go's os/exec, Java, Node, Red Hat's `which`) are quoted from public threads.
"""
import os
import shutil
import subprocess
import sys

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import KB_PATH, read_document, with_command_frames

from explain_answers import first_environment_answer, hostile_line

#: program -> the entry that answers it missing
PROGRAMS = {"nvcc": "shell.nvcc_not_found", "nvidia-smi": "driver.nvidia_smi_not_found",
            "nvidia-container-cli": "container.enroot_no_container_cli", "nvidia-ctk": "container.no_gpu_runtime",
            "nvidia-docker": "container.no_gpu_runtime"}
EMPTY = "/nonexistent-cudaenv-test-path"
#: each shell, told to run a program with a PATH that has no directory (its own syntax; no start-up files)
SHELLS = {
    "bash": ["bash", "--norc", "--noprofile", "-c", f"PATH={EMPTY}; {{cmd}} --version"],
    "dash": ["dash", "-c", f"PATH={EMPTY}; {{cmd}} --version"],
    "zsh": ["zsh", "-f", "-c", f"PATH={EMPTY}; {{cmd}} --version"],
    "fish": ["fish", "--no-config", "-c", f"set PATH {EMPTY}; {{cmd}} --version"],
    "tcsh": ["tcsh", "-f", "-c", f"setenv PATH {EMPTY}; {{cmd}} --version"],
}


def _said(argv, path=None, **kw):
    env = {"HOME": os.environ.get("HOME", "/root"), "LANG": "C", "LC_ALL": "C", "PATH": path or os.environ["PATH"]}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, **kw)
    assert done.returncode != 0, (argv, done.stdout, done.stderr)
    return done.stdout + done.stderr


def _first_id(log):
    return first_environment_answer(log).id


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_every_shell_saying_a_program_is_missing(shell):
    argv = SHELLS[shell]
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed (tests/run.sh installs it)")
    for program, entry in PROGRAMS.items():
        said = _said([a.replace("{cmd}", program) for a in argv])
        assert program in said, said
        assert _first_id(said) == entry, (shell, program, said)


def test_make_env_and_python_saying_a_program_is_missing(tmp_path):
    makefile = tmp_path / "Makefile"
    makefile.write_text("all:\n\tnvcc -o x x.cu\n")  # no shell metacharacter: make 4 runs it without a shell
    said = _said([shutil.which("make"), "-f", str(makefile)], path=EMPTY, cwd=tmp_path)
    assert "nvcc" in said
    assert _first_id(said) == "shell.nvcc_not_found", said
    for program, entry in PROGRAMS.items():
        said = _said(["/usr/bin/env", f"PATH={EMPTY}", program, "--version"])  # coreutils: "env: 'nvcc': No such file"
        assert _first_id(said) == entry, said
        said = _said([sys.executable, "-c", f"import os, subprocess; os.environ['PATH'] = {EMPTY!r}; "
                                            f"subprocess.run([{program!r}, '--version'])"])
        assert "FileNotFoundError" in said
        assert _first_id(said) == entry, said


# Quoted from public threads: the wordings this machine has no program for.
QUOTED = [
    # kriegalex/vscode-cuda#9 (the burned fresh29 l06: PowerShell 5)
    ("nvcc : The term 'nvcc' is not recognized as the name of a cmdlet, function, script file, or operable program. "
     "Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\n",
     "shell.nvcc_not_found", "windows"),
    # cmd.exe, as Windows users paste it (graphdeco-inria/gaussian-splatting and countless setup threads)
    ("'nvcc' is not recognized as an internal or external command,\noperable program or batch file.\n",
     "shell.nvcc_not_found", "windows"),
    ("nvidia-smi : The term 'nvidia-smi' is not recognized as the name of a cmdlet,\nfunction, script file, or "
     "operable program.\n", "driver.nvidia_smi_not_found", "windows"),
    # Ahsanr312/Installing-CUDA-Toolkit-cuDNN-OpenCV-and-PyTorch-on-Ubuntu-20.04#1 (Ubuntu's command-not-found)
    ("Command 'nvcc' not found, but can be installed with:\n\nsudo apt install nvidia-cuda-toolkit\n",
     "shell.nvcc_not_found", None),
    # SDSC's Comet and Expanse user guides: Red Hat's which after `module purge`
    ("[comet-ln2:~/cuda/gpu_enum] module purge\n[comet-ln2:~/cuda/gpu_enum] which nvcc\n/usr/bin/which: no nvcc in "
     "(/usr/lib64/qt-3.3/bin:/usr/local/bin:/bin:/usr/bin:/usr/local/sbin:/usr/sbin:/sbin)\n",
     "shell.nvcc_not_found", None),
    # nbren12/uwnet's README: a Makefile that still runs nvidia-docker
    ("make: nvidia-docker: Command not found\n", "container.no_gpu_runtime", None),
    # a lg_run.sh log (liquid galaxy): the old wrapper under sudo is not a PATH sudo dropped
    ("lg-run         | sudo: unable to resolve host ubuntu: Connection timed out\n"
     "lg-run         | sudo: nvidia-docker: command not found\n", "container.no_gpu_runtime", None),
    # Juicer's HiCCUPS through JCuda: Java's ProcessBuilder
    ('java.io.IOException: Cannot run program "nvcc": error=2, No such file or directory\n',
     "shell.nvcc_not_found", None),
    # Node's child_process (an npm package compiling kernels at install)
    ("Error: spawn nvcc ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:284:19)\n",
     "shell.nvcc_not_found", None),
]


@pytest.mark.parametrize("log,entry,platform", QUOTED)
def test_quoted_wordings(log, entry, platform):
    first = first_environment_answer(log)
    assert first.id == entry, log
    if platform == "windows":
        assert first.platform == "windows" and not first.commands, first.to_dict()
        assert "cudaenv" not in first.fix, first.to_dict()


def test_the_toolkit_programs_answer_which_part_is_missing():
    # nvidia-docker: the wrapper is gone, `docker run --gpus`; nvidia-ctk: the toolkit package
    docker = first_environment_answer("bash: nvidia-docker: command not found\n")
    assert "--gpus" in docker.title and "docker run --gpus all" in docker.fix
    ctk = first_environment_answer("sudo: nvidia-ctk: command not found\n")
    assert "Container Toolkit is not installed" in ctk.title
    assert "nvidia-container-toolkit" in ctk.fix.splitlines()[0]
    # sudo does drop a toolkit's bin (nvcc is in /usr/local/cuda/bin, not on secure_path)
    assert _first_id("$ sudo make\nsudo: nvcc: command not found\n") == "shell.sudo_env_reset"


def test_a_container_start_stays_the_container_answer():
    log = ('OCI runtime exec failed: exec failed: unable to start container process: exec: "nvidia-smi": '
           "executable file not found in $PATH: unknown\n")
    assert _first_id(log) == "container.gpu_command_not_found"
    assert "driver.nvidia_smi_not_found" not in [m.id for m in explain(log)]


def test_a_program_named_inside_another_word_is_not_the_program():
    for log in ("opencl-nvcc: command not found\n", "libnvidia-smi-helper: not found\n",
                "my_nvcc: command not found\n", "command not found: nvcc-wrapper\n"):
        assert not [m.id for m in explain(log) if m.id in PROGRAMS.values()], log


def test_every_wording_is_read_into_every_listed_entry():
    doc = read_document(KB_PATH)
    frames = doc["command_not_found"]
    assert len(frames) >= 12 and all(f.count("{cmd}") == 1 for f in frames)
    listed = {e["id"]: e for e in doc["entries"] if e.get("missing_commands")}
    assert set(PROGRAMS.values()) <= set(listed)
    for entry in listed.values():
        tail = entry["patterns"][-len(frames):]
        assert all("(?P<command>" in p for p in tail), entry["id"]
    # a document without frames, or a malformed one, is left as it is
    assert with_command_frames({"entries": [{"id": "a.b", "missing_commands": ["x"], "patterns": ["p"]}]}) == \
        {"entries": [{"id": "a.b", "missing_commands": ["x"], "patterns": ["p"]}]}
    bad = {"command_not_found": ["no placeholder"], "entries": [{"missing_commands": ["x"], "patterns": ["p"]}]}
    assert with_command_frames(bad)["entries"][0]["patterns"] == ["p"]


def test_the_wordings_are_bounded_on_hostile_lines():
    for program in PROGRAMS:
        for log in (hostile_line(f"{program}: "), hostile_line("command not found: "), hostile_line("which: no ")):
            explain(log)  # returns (a timeout would fail the suite's time limit, not this assertion)


# --- meson's "Compiler nvcc cannot compile programs." and the host gcc the log names --------------------------------

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus")
# rigaya/NVEnc (the burned fresh29 l64): meson 1.11 with gcc 16.1.1, CUDA 13.2; the maintainer's fix: -ccbin g++-15
with open(os.path.join(CORPUS, "fresh29", "l64-nvencc-meson-nvcc-gcc16.log"), encoding="utf-8") as _f:
    NVENC_MESON = _f.read()
MESON_HEAD = ("The Meson build system\nVersion: 1.4.1\nSource dir: /src/proj\nBuild dir: /src/proj/build\n"
              "Build type: native build\nProject name: proj\n")

E30_COMMANDS_CASES = [
    (NVENC_MESON, "nvcc.meson_sanity_check_failed", "`nvcc --version`: if it is older than CUDA 13.4"),
    (QUOTED[0][0], "shell.nvcc_not_found", "Open a new terminal"),
    (QUOTED[5][0], "container.no_gpu_runtime", "Install the NVIDIA Container Toolkit"),
]


def test_meson_sanity_check_reads_the_host_gcc():
    first = first_environment_answer(NVENC_MESON)
    assert first.id == "nvcc.meson_sanity_check_failed"
    assert first.values["host_gcc"] == "16" and first.values["gcc_before"] == "15"
    assert "-ccbin g++-15" in first.fix
    # the nvcc's release named too: that toolkit's own limit, definite
    log = (MESON_HEAD + 'C++ compiler for the host machine: c++ (gcc 14.2.0 "c++ (GCC) 14.2.0")\n'
           "$ nvcc --version\nCuda compilation tools, release 12.4, V12.4.131\n"
           "meson.build:1:0: ERROR: Compiler nvcc cannot compile programs.\n")
    first = first_environment_answer(log)
    assert first.failure == "too-new" and "CUDA 12.4's nvcc accepts (gcc 13 at most)" in first.title
    assert "-ccbin g++-13" in first.fix.splitlines()[0]
    # a gcc every CUDA accepts: nvcc's own error is elsewhere, the log is the way to it
    log = (MESON_HEAD + 'C++ compiler for the host machine: c++ (gcc 9.4.0 "c++ (Ubuntu 9.4.0) 9.4.0")\n'
           "meson.build:3:0: ERROR: Compiler /usr/local/cuda/bin/nvcc cannot compile programs.\n")
    first = first_environment_answer(log)
    assert first.values["nvcc"] == "/usr/local/cuda/bin/nvcc" and first.failure == "broken"
    assert first.fix.startswith("`grep -A25 'Sanity check compile stderr'")
    # another compiler meson could not use is not nvcc's
    assert "nvcc.meson_sanity_check_failed" not in [m.id for m in explain(
        "meson.build:1:0: ERROR: Compiler cc cannot compile programs.\n")]


def test_cases_answer_first():
    for text, want, fix in E30_COMMANDS_CASES:
        first = first_environment_answer(text)
        assert first.id == want and first.fix.startswith(fix), (text, first.fix)


# --- the loader cannot find a library no other entry knows (fallback) -----------------------------------------------

def _corpus(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        return f.read()


XMRSTAK = _corpus("fresh29/l73-xmrstak-cuda-backend-so-missing.log")  # fireice-uk/xmr-stak: the backend not beside it
TSNE_FAISS = _corpus("fresh29/l36-tsne-cuda-libfaiss-not-on-loader-path.log")  # CannyLab/tsne-cuda: LD_LIBRARY_PATH
E30_COMMANDS_CASES += [
    (XMRSTAK, "loader.program_library_not_found", "Find it: `ldconfig -p | grep libxmrstak_cuda_backend.so`"),
    (TSNE_FAISS, "loader.program_library_not_found", "Find it: `ldconfig -p | grep libfaiss.so`"),
]


def test_a_program_library_is_answered_only_when_nothing_else_is():
    first = first_environment_answer(TSNE_FAISS)
    assert "LD_LIBRARY_PATH=/that/dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" in first.fix  # never an empty entry
    # a CUDA library is its own cause, and a log with another cause keeps it
    log = ("OSError: libfaiss.so: cannot open shared object file: No such file or directory\n"
           "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n")
    assert "loader.program_library_not_found" not in [m.id for m in explain(log)]
    # a path the program named is not a library the loader searched for
    assert "loader.program_library_not_found" not in [m.id for m in explain(
        "OSError: /opt/x/libfoo.so: cannot open shared object file: No such file or directory\n")]


def test_no_fix_prepends_to_a_search_path_that_may_be_unset():
    """`export LD_LIBRARY_PATH=/x:$LD_LIBRARY_PATH` with LD_LIBRARY_PATH unset leaves an empty entry: the current
    directory on the loader's (or the linker's, or the compiler's) search path. Every fix guards it:
    `${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}` (PATH is always set)."""
    import re

    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("../cudaenv/knowledge/errors.yaml", "../cudaenv/knowledge/explain/derive.py",
                "../cudaenv/knowledge/explain/generic.py", "../cudaenv/knowledge/here.py"):
        with open(os.path.join(here, rel), encoding="utf-8") as f:
            lines = [ln for ln in f if not ln.lstrip().startswith("#")]
        bad = [ln.strip()[:120] for ln in lines
               if re.search(r"(?<!\+):\$\{?(?:LD_LIBRARY_PATH|LIBRARY_PATH|CPATH)\b(?!:)|"
                            r"=\$\{?(?:LD_LIBRARY_PATH|LIBRARY_PATH|CPATH)\}?:", ln)]
        assert not bad, (rel, bad[:3])
    first = first_environment_answer("OSError: libfaiss.so: cannot open shared object file: No such file or directory\n")
    assert "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" in first.fix


def test_malformed_wordings_or_programs_are_reported_not_skipped():
    from cudaenv.knowledge.kb import validate

    doc = read_document(KB_PATH)
    assert validate(doc, together=False, patterns=False) == []
    entry = dict(next(e for e in doc["entries"] if e.get("missing_commands")))
    for frames, names, said in ((["no placeholder"], ["nvcc"], "each with one {cmd}"),
                                (None, ["nvcc"], "needs the document's `command_not_found`"),
                                (["{cmd}: not found"], [""], "must be a list of program names"),
                                (["{cmd}: not found"], "nvcc", "must be a list of program names")):
        bad = {"schema": 1, "entries": [{**entry, "missing_commands": names}]}
        if frames is not None:
            bad["command_not_found"] = frames
        assert any(said in p for p in validate(bad, together=False, patterns=False)), (frames, names)
