"""The README's examples are executed, and what they show is what cudaenv prints.

Every ```console block of README.md and docs/*.md is run in one real bash, a command after
each ``$ ``, against a fixture set of toolkits: the test bed's real CUDA 11.8, 12.4 and 13.5,
shown under ``/usr/local/cuda-X.Y`` as on a user's machine (the test bed's roots are masked to
those paths), this machine's own ``/usr/local/cuda-13.0``, and the test bed's torch 2.14.1
(CUDA 13.0) venv as the active Python environment. A command's output (stdout and stderr as a
terminal shows them) must match the lines under it:

- whitespace runs count as one space (tables are aligned to the paths that vary);
- a line holding only ``…`` stands for any number of lines, ``…`` inside a line for any text;
- a command with nothing under it must print nothing.

A block whose command cannot run here (it downloads gigabytes, needs Docker or a GPU) belongs
in a ```sh block; those are only parsed (``bash -n``), so a typo still fails.
"""

from __future__ import annotations

import glob
import os
import re
import subprocess

import pytest

from conftest import TESTBED
from helpers import REPO, clean_shell_env, need

DOCS = ["README.md", *sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md")))]
# docs/conda.md's transcripts need a user's conda set-up (named environments, `conda activate`
# in an initialised shell); test_conda_hooks.py runs those scenarios with the real conda.
NOT_RUN = {"docs/conda.md"}
ELLIPSIS = "…"


def blocks(path: str, lang: str) -> list[tuple[int, list[str]]]:
    """The ```lang blocks of a Markdown file: (line number of the fence, lines)."""
    out, cur, start = [], None, 0
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if cur is None and line.strip() == f"```{lang}":
                cur, start = [], no
            elif cur is not None and line.strip() == "```":
                out.append((start, cur))
                cur = None
            elif cur is not None:
                cur.append(line)
    return out


def session(lines: list[str]) -> list[tuple[str, list[str]]]:
    """A console block as (command, expected output lines); ``\\`` continues a command."""
    steps: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and steps[-1][0].endswith("\\") and not steps[-1][1]:
            steps[-1] = (steps[-1][0] + "\n" + line, [])
        elif steps:
            steps[-1][1].append(line)
        else:
            raise AssertionError(f"console block starts with output, not a `$ ` command: {line!r}")
    return steps


def _norm(line: str) -> str:
    return " ".join(line.split())


def _line_re(line: str) -> re.Pattern:
    parts = [re.escape(p) for p in re.split(rf"\s*{ELLIPSIS}\s*", _norm(line))]
    return re.compile("^" + ".*".join(parts) + "$")


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` fits ``expected`` (``…`` lines are wildcards over lines, in-line over text)."""
    exp = [e for e in expected if e.strip() or not e]
    act = [_norm(a) for a in actual]
    # drop blank lines at the ends only: inner blank lines are output too
    while act and not act[-1]:
        act.pop()
    while exp and not exp[-1].strip():
        exp.pop()

    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        key = (i, j)
        if key not in memo:
            if i == len(exp):
                memo[key] = j == len(act)
            elif exp[i].strip() == ELLIPSIS:
                memo[key] = any(go(i + 1, k) for k in range(j, len(act) + 1))
            else:
                memo[key] = j < len(act) and bool(_line_re(exp[i]).match(act[j])) and go(i + 1, j + 1)
        return memo[key]

    return go(0, 0)


CONSOLE = [(doc, start, lines) for doc in DOCS if doc not in NOT_RUN for start, lines in blocks(doc, "console")]
SH = [(doc, start, lines) for doc in DOCS for start, lines in blocks(doc, "sh")]


def test_the_docs_have_examples():
    # a parser that finds nothing would pass every test below
    assert len([c for c in CONSOLE if c[0] == "README.md"]) >= 3
    assert len(SH) >= 5


@pytest.fixture(scope="module")
def world(tmp_path_factory, testbed, venv_cu):
    """A user's machine: the test bed's toolkits, a torch venv active, a fresh HOME."""
    tmp = tmp_path_factory.mktemp("readme")
    env = clean_shell_env(tmp, path_tail=f"{os.path.dirname(venv_cu)}:/usr/local/bin:/usr/bin:/bin")
    env["CUDAENV_ROOTS"] = ":".join(testbed[v] for v in sorted(testbed))
    env["TERM"] = "dumb"
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):  # ~/.config, ~/.cache as a user has
        env.pop(var, None)
    masks = [(os.path.realpath(testbed[v]), f"/usr/local/cuda-{v}") for v in testbed]
    masks.append((os.path.realpath(TESTBED), "/usr/local"))
    masks.append((str(tmp), "/home/me"))
    return env, masks


def run_session(steps: list[tuple[str, list[str]]], env: dict, cwd: str) -> list[list[str]]:
    """Run the commands in one bash; the output of each, stdout and stderr interleaved."""
    sep = "\x1e-cudaenv-readme-step-\x1e"
    script = ["exec 2>&1"]
    for cmd, _ in steps:
        script.append(cmd)
        script.append(f"printf '\\n%s\\n' '{sep}'")
    proc = subprocess.run([need("bash"), "-c", "\n".join(script)], env=env, cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    parts = proc.stdout.split(f"\n{sep}\n")
    assert len(parts) == len(steps) + 1, f"the session stopped early:\n{proc.stdout}"
    return [p.split("\n") if p else [] for p in parts[:-1]]


@pytest.mark.testbed
@pytest.mark.parametrize("doc,start,lines", CONSOLE, ids=[f"{d}:{s}" for d, s, _ in CONSOLE])
def test_console_example(doc, start, lines, world, tmp_path):
    env, masks = world
    steps = session(lines)
    outputs = run_session(steps, env, str(tmp_path))
    bad = []
    for (cmd, expected), actual in zip(steps, outputs):
        shown = []
        for line in actual:
            for real, fake in masks:
                line = line.replace(real, fake)
            shown.append(line)
        if not matches(expected, shown):
            bad.append(f"$ {cmd}\n--- {doc} shows:\n" + "\n".join(expected)
                       + "\n--- cudaenv prints:\n" + "\n".join(shown))
    assert not bad, f"{doc}:{start}: example out of date\n" + "\n\n".join(bad)


@pytest.mark.parametrize("doc,start,lines", SH, ids=[f"{d}:{s}" for d, s, _ in SH])
def test_sh_example_parses(doc, start, lines):
    proc = subprocess.run([need("bash"), "-n"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    assert proc.returncode == 0, f"{doc}:{start}: {proc.stderr}"


def test_matcher_can_fail():
    assert matches(["a", ELLIPSIS, "c"], ["a", "b", "b", "c"])
    assert matches(["x  y"], ["x y  "])
    assert matches([f"release {ELLIPSIS}, V12.4.131"], ["release 12.4, V12.4.131"])
    assert not matches(["a"], ["a", "b"])
    assert not matches([], ["anything"])
    assert not matches(["a", ELLIPSIS], ["b"])


def test_help_names_no_file_a_pip_install_lacks():
    """Every --help ships in the wheel; docs/, bench/, tests/ and README.md do not."""
    import click

    from cudaenv.cli import cli

    def walk(cmd, path):
        yield path, cmd
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    seen, bad = 0, []
    for path, cmd in walk(cli, ["cudaenv"]):
        with click.Context(cmd, info_name=" ".join(path)) as ctx:
            text = cmd.get_help(ctx)
        seen += 1
        if re.search(r"\b(docs|bench|tests)/|\bREADME\b", text):
            bad.append(f"{' '.join(path)} --help:\n{text}")
    assert seen > 15
    assert not bad, "help points at files a pip install does not ship:\n" + "\n".join(bad)
