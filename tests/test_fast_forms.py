"""The fast forms and click agree: every argument list a fast form answers, click answers alike.

``main.py`` answers the plain forms of ``use``, ``off``, ``list``, ``init``,
``verify``, ``exec``, the conda hooks and ``slurm task-prolog`` without click, with its own parsers
(``infra/console.parse`` and the tables beside it, ``commands/verify.parse_args``,
``commands/exec_.split_args``, ``commands/conda_hook.hook_main``); click declares
the same commands again. For a broad set of argument lists (each option with and
without its value, ``--opt=value``, unknown options, ``--``, ``-``, repeated
options, empty words, too many or no targets) both entries run in this process
with the command's driver replaced by a recorder, and:

* when the fast form answers (it does not hand the list to click), click must
  answer the same list with the same exit status, the same call of the same
  driver with the same values, and the same stderr;
* when the fast form hands the list to click, it must have done nothing yet.

Handing a list to click is always allowed: click then decides alone.
"""

from __future__ import annotations

import importlib
import itertools
import random

import pytest

from cudaenv import main as main_mod
from cudaenv.cli import main as cli_main
from cudaenv.infra.console import parse

#: command -> [(module, attribute)] of the drivers both entries end in.
DRIVERS = {
    "use": [("cudaenv.commands.switch", "do_use")],
    "off": [("cudaenv.commands.switch", "do_off")],
    "list": [("cudaenv.commands.listing", "do_list"), ("cudaenv.cli.list_cmd", "do_list")],
    "init": [("cudaenv.commands.init", "do_init"), ("cudaenv.cli.init_cmd", "do_init")],
    "verify": [("cudaenv.commands.verify", "run_verify")],
    "exec": [("cudaenv.commands.exec_", "do_exec")],
    "conda-hook": [("cudaenv.commands.conda_hook", "hook_main")],
    "slurm": [("cudaenv.commands.node", "do_task_prolog")],
}

_COMMON = ["", "-", "--", "-x", "--bogus", "--bogus=1", "-h", "--help", "12.4"]
#: command -> words argument lists are made of (options with and without values, their values).
ATOMS = {
    "use": _COMMON + ["12.5", "bash", "--shell", "-s", "--shell=zsh", "--shell=", "-s=fish", "-sbash", "--sh",
                      "--match-torch", "--match-torch=1", "--format", "json", "--format=json", "--tmux",
                      "--verify", "--json"],
    "off": _COMMON + ["bash", "--shell", "-s", "--shell=zsh", "--shell=", "-s=fish", "-sfish", "--format=json",
                      "--tmux", "--match-torch"],
    "list": _COMMON + ["--json", "--json=1", "-j", "--wide", "--shell", "bash"],
    "init": _COMMON + ["bash", "zsh", "fish", "tcsh", "sh", "Bash", "--auto", "--auto=yes", "--shell"],
    "verify": _COMMON + ["12.5", "--all", "--no-torch", "--json", "--no-cache", "--keep", "--quiet", "-q", "--python",
                         "--python=", "--python=/usr/bin/python3", "/usr/bin/python3", "--jobs", "-j", "-j3",
                         "--jobs=2", "-j=2", "0", "3", "1.5", " 2", "--timeout", "--timeout=0.5", "--timeout=nan",
                         "--timeout=inf", "30", "1e3", "--all=1"],
    "exec": _COMMON + ["11.8", "nvcc", "--version", "true", "-v", "--shell"],
    "conda-hook": ["_activate", "_deactivate", "--shell", "-s", "--shell=bash", "bash", "--", "KEY", "12.4",
                   "-x", "", "--help", "--bogus"],
    "slurm": ["task-prolog", "task_prolog", "", "-", "--", "-x", "--help", "-h", "12.4"],
}
#: Every list of up to this many words is tried; longer ones are a fixed sample.
FULL_LENGTH = 2
SAMPLE = 1500


def argument_lists(command: str) -> list[list[str]]:
    atoms = ATOMS[command]
    out = [list(p) for n in range(FULL_LENGTH + 1) for p in itertools.product(atoms, repeat=n)]
    rng = random.Random(f"fast-forms-{command}")  # the same sample every run
    out += [[rng.choice(atoms) for _ in range(rng.randint(3, 5))] for _ in range(SAMPLE)]
    if command == "conda-hook":  # the hooks' own shape: a verb first, then what the hook files pass
        verbs = [["_activate"], ["_deactivate"]]
        out = [v + rest for v in verbs for rest in out if not rest or rest[0] not in ("_activate", "_deactivate")]
    return out


def _plain(value):
    """Values comparable across the two entries (verify's Options has slots, no __eq__)."""
    if hasattr(value, "__slots__"):
        return (type(value).__name__, tuple((s, getattr(value, s)) for s in value.__slots__))
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@pytest.fixture
def recorded(monkeypatch):
    """Replace every driver by a recorder; returns the list of calls (name, args, kwargs)."""
    calls: list = []

    def recorder(name):
        def record(*args, **kwargs):
            kwargs.pop("use_cache", None)  # verify: how to reach a cached pass, not what is asked
            calls.append((name, _plain(list(args)), {k: _plain(v) for k, v in kwargs.items()}))
            return 0
        return record

    for pairs in DRIVERS.values():
        for mod, attr in pairs:
            monkeypatch.setattr(importlib.import_module(mod), attr, recorder(attr))
    return calls


def _run_fast(argv):
    try:
        return main_mod._fast(argv)  # noqa: SLF001 - the fast entry itself is under test
    except Exception as exc:  # main() turns a CudaenvError into report_error; do the same here
        from cudaenv.errors import CudaenvError
        from cudaenv.infra.console import report_error

        if isinstance(exc, CudaenvError):
            return report_error(exc)
        raise


@pytest.mark.parametrize("command", sorted(ATOMS))
def test_click_answers_every_list_the_fast_form_answers_alike(command, recorded, capsys, monkeypatch):
    monkeypatch.delenv("_CUDAENV_COMPLETE", raising=False)
    answered = handed = 0
    bad = []
    for args in argument_lists(command):
        argv = [command, *args]
        del recorded[:]
        capsys.readouterr()
        code = _run_fast(argv)
        fast_calls, fast_out = list(recorded), capsys.readouterr()
        if code is None:
            handed += 1
            if fast_calls or fast_out.out or fast_out.err:
                bad.append(f"{argv}: handed to click after doing something: {fast_calls} {fast_out}")
            continue
        answered += 1
        del recorded[:]
        click_code = cli_main(list(argv))
        click_calls, click_out = list(recorded), capsys.readouterr()
        if (click_code, click_calls, click_out.err) != (code, fast_calls, fast_out.err):
            bad.append(f"{argv}:\n  fast  {code} {fast_calls} {fast_out.err!r}\n"
                       f"  click {click_code} {click_calls} {click_out.err!r}")
    assert not bad, f"{len(bad)} of {answered} answered lists disagree:\n" + "\n".join(bad[:15])
    # The set exercises both sides: lists the fast form takes and lists it leaves to click
    # (the conda hooks leave none: click's hidden commands are for completeness only).
    # (`slurm task-prolog` has one form: the fast entry answers exactly that list.)
    assert answered >= (1 if command == "slurm" else 2) and (handed >= 20 or command == "conda-hook"), (answered, handed)


def test_every_fast_option_is_a_click_option_of_the_same_kind():
    """Each option of a fast table is declared on the click command: a flag as a flag, a value as a value."""
    import click

    from cudaenv.cli import cli
    from cudaenv.commands import verify as verify_mod

    tables = {name: (flags, values) for name, (flags, values, _n) in main_mod._FORMS.items()}  # noqa: SLF001
    tables["verify"] = (verify_mod._FLAGS, verify_mod._VALUES)  # noqa: SLF001
    assert set(tables) == {"use", "off", "list", "init", "verify"}
    for name, (flags, values) in tables.items():
        declared = {opt: p.is_flag for p in cli.commands[name].params if isinstance(p, click.Option)
                    for opt in p.opts + p.secondary_opts}
        assert flags or values or name == "off"
        for opt in flags:
            assert declared.get(opt) is True, f"{name} {opt}: a fast flag, but {declared.get(opt)} in click"
        for opt in values:
            assert declared.get(opt) is False, f"{name} {opt}: takes a value fast, but {declared.get(opt)} in click"


@pytest.mark.parametrize("argv", [["-s=bash"], ["-s="], ["-j=2"]])
def test_a_short_option_never_takes_an_equals_value(argv):
    """click reads ``-s=bash`` as ``-s`` with the value ``=bash``: the fast parser hands it over."""
    assert parse(argv, values={"-s": "shell", "-j": "jobs"}) is None
    assert parse(["--shell=bash"], values={"--shell": "shell"}) == ({"shell": "bash"}, [])


def test_match_torch_is_one_rule():
    """``use --match-torch`` and the fast form call the same function: one message, exit 2."""
    from cudaenv.commands.switch import use_target
    from cudaenv.errors import CudaenvError

    assert use_target("12.4", False) == "12.4" and use_target(None, False) is None
    assert use_target(None, True) == "torch"
    with pytest.raises(CudaenvError) as exc:
        use_target("12.4", True)
    assert exc.value.exit_code == 2 and "--match-torch" in str(exc.value)
