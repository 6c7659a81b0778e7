"""Field pass, part 2: a catalogue of bad inputs, each run as users run cudaenv, and classified.

The project's rule: bad input gets a clear one-line error on stderr, a non-zero exit and
nothing on stdout; nothing the user had is lost or half-changed; nothing hangs. This module
generates bad inputs as *families* (every command family x every kind of bad input: argument
values, hostile names, odd files in place of profiles/config/version.json/.cuda-version/caches,
unusable config/cache/data dirs and HOME, corrupt ``_CUDAENV_STATE``, PATH, stdout closed or
full, fake nvcc and python that hang/crash/print garbage/leave daemons, odd explain logs), runs
each through the real ``python3 -m cudaenv`` in its own throw-away world (toolkits made by
``helpers.make_toolkit``, private XDG dirs and HOME) under a hang guard, and classifies it:

``ok``          a legitimate outcome the case declares acceptable: exit 0 (a corrupt cache is
                just ignored), or for check/doctor/verify a findings report with exit 1;
``one-line``    exit != 0, nothing on stdout, exactly one stderr line (cases whose bad input is
                also something discovery or a source list reports by design may have
                ``cudaenv: `` notes before it);
``usage``       click's own usage error (Usage/Try/Error), only where the bad input is argv;
``traceback``   "Traceback" on stderr;
``hang``        killed by the guard;
``misbehaved``  anything else: several stderr lines, stdout on failure, exit 0 where failure is
                required, a user file changed, lost or left behind by a failure, raw terminal
                escapes from the filesystem echoed to a terminal stream.

Each case runs without CAP_DAC_OVERRIDE (``setpriv``), so file modes apply as they do for a
normal user although the suite runs as root. Cases needing "HOME unset and no XDG dirs" run in
a private mount namespace whose ``/root`` is the case's home, so nothing writes the real one.

API: :func:`run` (``seed``, ``quick``) -> ``list[Result]``; :func:`table` -> markdown.
CLI: ``python3 tests/fieldpass/badinput.py [--quick] [--seed N] [--jobs N] [--case ID] [--keep]``.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import marshal
import os
import random
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from typing import Callable

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from helpers import HOSTILE, REPO, fake_gpu_env, make_toolkit  # noqa: E402

__all__ = ["Case", "Result", "World", "catalogue", "run", "run_case", "table", "OUTCOMES"]

OK, ONE, USAGE, TB, HANG, BAD = "ok", "one-line", "usage", "traceback", "hang", "misbehaved"
OUTCOMES = (OK, ONE, USAGE, TB, HANG, BAD)
#: Seconds before a case counts as hung (its process group is killed).
GUARD = 45.0
# Root ignores file modes: drop the capabilities that let it, so modes apply as for a user.
SETPRIV = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
PRLIMIT = ["/usr/bin/prlimit", f"--as={4 << 30}", "--"] if os.path.exists("/usr/bin/prlimit") else []
#: Quick runs: no case there should take more than a few seconds.
QUICK_GUARD = 20.0
#: A message `explain` knows, for commands that need some text.
MESSAGE = "nvcc fatal : Unsupported gpu architecture 'sm_50'"
#: Marks every process a run starts (in its environment), so leftovers can be found and ended.
MARK_VAR = "CUDAENV_FIELDPASS"
PRELOAD_TAG = sys.implementation.cache_tag
BIG = 1 << 30  # a sparse file this large: anything reading it whole is caught


# --------------------------------------------------------------------------- the world


class World:
    """One case's private tree: toolkits, XDG dirs, HOME, a project dir, and the env to run with."""

    def __init__(self, base: str, marker: str, rng: random.Random) -> None:
        self.dir = base
        self.rng = rng
        self.marker = marker
        j = lambda *p: os.path.join(base, *p)  # noqa: E731
        self.tk, self.home, self.cfg, self.cache = j("tk"), j("home"), j("cfg"), j("cache")
        self.data, self.tmp, self.proj, self.mods = j("data"), j("tmp"), j("proj"), j("mods")
        self.mirror, self.gh, self.condaenv = j("mirror"), j("gh"), j("condaenv")
        for d in (self.tk, self.home, self.cfg, self.cache, self.data, self.tmp, self.proj, self.mods,
                  self.mirror, self.gh, os.path.join(self.condaenv, "conda-meta")):
            os.makedirs(d, exist_ok=True)
        self.roots = {v[:4]: make_toolkit(j("tk", f"cuda-{v}"), v) for v in ("11.8.0", "12.4.1")}
        self.env: dict[str, str] = {
            "HOME": self.home,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "SHELL": "/bin/bash",
            "LC_ALL": "C.UTF-8",
            "TMPDIR": self.tmp,
            "XDG_CONFIG_HOME": self.cfg,
            "XDG_CACHE_HOME": self.cache,
            "XDG_DATA_HOME": self.data,
            "CUDAENV_ROOTS": f"{self.tk}/cuda-*",
            "CUDAENV_PROC_ROOT": j("no-proc"),  # no NVIDIA driver: the same answers on every machine
            "PYTHONPATH": REPO,
            "PYTHONDONTWRITEBYTECODE": "1",
            # `install` must never reach the network: every source in the catalogue is local.
            "PIP_CONFIG_FILE": os.devnull,
            "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
            MARK_VAR: marker,
        }
        self.cwd = self.proj
        self.stdin: object = None  # None: /dev/null; bytes; ("path", p); "closed"
        self.protect = [self.cfg, self.proj, self.tk, self.data, self.home, self.mods, self.gh, self.condaenv]
        self.exclude = [self.cache, os.path.join(self.home, ".cache"), os.path.join(self.home, ".pyenv"), self.tmp]
        self.may_change: set[str] = set()  # paths a successful run may change (e.g. --force)
        self.root_mount = False  # run with this world's home mounted over /root (HOME unset)

    @property
    def profiles(self) -> str:
        return os.path.join(self.cfg, "cudaenv", "profiles")

    @property
    def ccache(self) -> str:
        return os.path.join(self.cache, "cudaenv")

    def write(self, path: str, data: bytes | str, mode: int | None = None) -> str:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        if mode is not None:
            os.chmod(path, mode)
        return path

    def script(self, path: str, body: str) -> str:
        """An executable ``#!/bin/sh`` script (a fake nvcc or python)."""
        return self.write(path, "#!/bin/sh\n" + body, 0o755)

    def profile_yaml(self, name: str, root: str, **extra: str) -> str:
        lines = [f"name: {name}", f"root: '{root}'", "set:", "  CUDA_HOME: '{root}'", "  CUDA_PATH: '{root}'",
                 "prepend:", "  PATH: ['{root}/bin']", "  LD_LIBRARY_PATH: ['{root}/lib64']"]
        lines += [f"{k}: {v}" for k, v in extra.items()]
        return "\n".join(lines) + "\n"

    def state(self, **over) -> str:
        """A ``_CUDAENV_STATE`` as ``use 12.4`` writes it (the same encoder), and the env it implies."""
        from cudaenv.env.state import State, encode

        root = self.roots["12.4"]
        st = State(over.get("name", "cuda-12.4.1"),
                   scalars=over.get("scalars", {"CUDA_HOME": (None, root), "CUDA_PATH": (None, root)}),
                   lists=over.get("lists", {"PATH": ("v", [root + "/bin"], []),
                                            "LD_LIBRARY_PATH": ("u", [root + "/lib64"], [])}))
        return encode(st)

    def activate(self, state: str | None = None, **over) -> None:
        """Put this world's env in the state ``use 12.4`` leaves (or a given state text)."""
        root = self.roots["12.4"]
        self.env.update({"CUDA_HOME": root, "CUDA_PATH": root, "LD_LIBRARY_PATH": root + "/lib64",
                         "PATH": f"{root}/bin:" + self.env.get("PATH", "/usr/bin:/bin"),
                         "CUDAENV_ACTIVE": over.get("name", "cuda-12.4.1"),
                         "_CUDAENV_STATE": self.state(**over) if state is None else state})


# --------------------------------------------------------------------------- bad files


def _rand_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(n))


#: Ways to put something that is not the expected file where a file is read.
FILE_VARIANTS = ("binary", "empty", "nonutf8", "nul", "sparse", "padded", "nested", "fifo", "devzero", "dir",
                 "dangling", "loop", "unreadable", "wrongtype")


def place(w: World, path: str, variant: str, good: str, wrong: str = "- a\n- b\n", nest: str = "[") -> None:
    """Put ``variant`` of a file whose good content is ``good`` at ``path``."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.unlink(path)
    if variant == "binary":
        w.write(path, b"\xff\xfe\x00\x01" + _rand_bytes(w.rng, 4096))
    elif variant == "empty":
        w.write(path, b"")
    elif variant == "nonutf8":
        w.write(path, good.encode() + b"# caf\xe9 \xff\xfe\n")
    elif variant == "nul":
        w.write(path, good.encode().replace(b"\n", b"\x00\n", 1))
    elif variant == "sparse":  # 1 GiB of NULs, costing no disk: reading it whole is the bug
        with open(path, "wb") as f:
            f.truncate(BIG)
    elif variant == "padded":  # valid, but its meaning starts after 2 MiB (of comments or blanks)
        pad = ("#" + "x" * 79 + "\n") * ((2 << 20) // 80) if nest != "json" else " " * (2 << 20)
        w.write(path, pad + good)
    elif variant == "nested":
        w.write(path, "[" * 200_000)  # past any parser's depth
    elif variant == "fifo":
        os.mkfifo(path)
    elif variant == "devzero":
        os.symlink("/dev/zero", path)
    elif variant == "dir":
        os.makedirs(path)
        w.write(os.path.join(path, "user-file"), "a file of the user's inside\n")
    elif variant == "dangling":
        os.symlink(path + ".nowhere", path)
    elif variant == "loop":
        os.symlink(os.path.basename(path), path)
    elif variant == "unreadable":
        w.write(path, good, 0o000)
    elif variant == "wrongtype":
        w.write(path, wrong)
    else:
        raise ValueError(variant)


# --------------------------------------------------------------------------- cases


@dataclasses.dataclass
class Case:
    """One bad input and the command it is given to.

    ``argv`` may be a callable of the :class:`World` (paths are known only once it exists);
    ``setup`` arranges the bad input in the world. ``ok``/``report``/``usage``/``notes`` say
    which outcomes besides ``one-line`` are legitimate; ``expect`` is an extra check returning a
    reason when the run misbehaved.
    """

    id: str
    family: str
    kind: str
    argv: list | Callable
    setup: Callable | None = None
    ok: bool = False
    report: bool = False
    usage: bool = False
    notes: bool = False
    stdout: str = "pipe"  # pipe | closed | full | broken
    timeout: float = GUARD
    slow: bool = False
    quick: bool = False
    expect: Callable | None = None
    desc: str = ""
    new_files_ok: bool = False  # a failure may leave what it wrote (its product is done; only the report failed)


@dataclasses.dataclass
class Result:
    id: str
    family: str
    kind: str
    outcome: str
    reason: str
    rc: int | None
    stdout: str
    stderr: str
    seconds: float
    command: str
    notes: str = ""


def _argv(case: Case, w: World) -> list[str]:
    return [str(a) for a in (case.argv(w) if callable(case.argv) else case.argv)]


def _seq(*fns):
    fns = [f for f in fns if f]

    def run_all(w):
        for f in fns:
            f(w)
    return run_all if fns else None


def _env(**kv):
    """A setup that sets (value) or unsets (None) environment variables; values may be callables of the world."""
    def setup(w):
        for k, v in kv.items():
            v = v(w) if callable(v) else v
            if v is None:
                w.env.pop(k, None)
            else:
                w.env[k] = v
    return setup


def no_escapes(w: World, res) -> str | None:
    """Raw terminal escapes that came from the filesystem must not reach stderr."""
    if b"\x1b" in res.err:
        return "a raw ESC from a path or file reached stderr"
    return None


def no_escapes_out(w: World, res) -> str | None:
    """... nor stdout, for output meant to be read (not shell code to eval, not JSON)."""
    if b"\x1b" in res.out and not res.out.lstrip().startswith((b"{", b"[")):
        return "a raw ESC from a path or file reached stdout"
    return no_escapes(w, res)


def _escape_check(family: str) -> Callable:
    # use/exec/format print shell code or values that must stay exact; the rest is read by people.
    return no_escapes_out if family in ("list", "show", "check", "doctor", "profile list", "profile show", "matrix") else no_escapes


def file_kept(rel: str, what: str = "") -> Callable:
    """The case's protected file must still exist (the snapshot checks its content)."""
    def check(w, res):
        p = os.path.join(w.dir, rel)
        return None if os.path.lexists(p) else f"{rel} is gone{what}"
    return check


# Commands that take a target, by family: (family, argv of target, result allowances).
def _target_cmds():
    return [
        ("use", lambda t: lambda w: ["use", t, "--shell", "bash"], {}),
        ("show", lambda t: lambda w: ["show", t], {}),
        ("profile build", lambda t: lambda w: ["profile", "build", t], {}),
        ("profile show", lambda t: lambda w: ["profile", "show", t], {}),
        ("check", lambda t: lambda w: ["check", t, "--no-torch"], {}),
        ("verify", lambda t: lambda w: ["verify", t, "--no-torch", "--timeout", "10"], {}),
        ("modulefiles", lambda t: lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods, t], {}),
        ("exec", lambda t: lambda w: ["exec", t, "--", "/bin/true"], {}),
        ("format", lambda t: lambda w: ["use", t, "--format", "github"], {"gh": True}),
        ("install", lambda t: lambda w: ["install", t, "--source", w.mirror], {}),
        ("other", lambda t: lambda w: ["conda-hook", "install", t, "-p", w.condaenv], {}),
    ]


def _gh_setup(w: World) -> None:
    w.env["GITHUB_ENV"] = w.write(os.path.join(w.gh, "env"), "KEEP=1\n")
    w.env["GITHUB_PATH"] = w.write(os.path.join(w.gh, "path"), "/keep\n")


#: Targets no command can take. (Nothing here may name a real directory outside the case's
#: world: `uninstall` gets a separate, safe list.)
BAD_TARGETS = [
    ("unknown-version", "99.9"), ("empty", ""), ("blank", " "), ("too-many-parts", "12.4.1.1.1.1"),
    ("fullwidth", "\uff11\uff12.\uff14"), ("superscript", "12.\u2074"), ("trailing-newline", "12.4\n"),
    ("huge", "9" * 100_000), ("hostile", HOSTILE), ("missing-path", "/proc/nonexistent/cuda-12.4"),
    ("devnull", "/dev/null"), ("proc", "/proc/self"), ("colon", "12.4:11.8"), ("escape", "cuda-\x1b[31mred"),
    ("double-dot", "12..4"), ("exponent", "1e3"), ("bignum", "9" * 40 + ".0"), ("control", "12.4\x7f\x01"),
    ("tab", "12.4\t11.8"), ("glob", "*"), ("tilde", "~/cuda-12.4"), ("option-like", "-12.4"),
    ("surrogate-ish", "12.4\udcff"),
]


def cases_targets() -> list[Case]:
    out = []
    for fam, mk, allow in _target_cmds():
        for name, t in BAD_TARGETS:
            if name == "surrogate-ish":
                t = os.fsdecode(b"12.4\xff")  # an argv that is not UTF-8
            out.append(Case(f"{fam}/argument/{name}", fam, "argument", mk(t),
                            setup=_gh_setup if allow.get("gh") else None,
                            usage=True, desc=f"target {t[:40]!r}"))
        # a version two toolkits share: resolution must say which, in one line
        out.append(Case(f"{fam}/argument/ambiguous", fam, "argument", mk("12.4"), usage=True,
                        setup=_seq(_ambiguous, _gh_setup if allow.get("gh") else None),
                        desc="two different toolkits both 12.4.1"))
    # a file and a directory that are not toolkits, as paths
    for fam, mk, allow in _target_cmds():
        for name, make in (("plain-file", lambda w: w.write(os.path.join(w.proj, "notes.txt"), "x\n")),
                           ("no-nvcc-dir", lambda w: os.makedirs(os.path.join(w.proj, "cuda-x", "bin"), exist_ok=True))):
            path = {"plain-file": "notes.txt", "no-nvcc-dir": "cuda-x"}[name]
            out.append(Case(f"{fam}/argument/{name}", fam, "argument", mk(path), usage=True,
                            setup=_seq(make, _gh_setup if allow.get("gh") else None), desc=f"target ./{path}"))
    for name, t in [("unknown-version", "99.9"), ("empty", ""), ("hostile", HOSTILE), ("missing-path", "/proc/nonexistent/cuda"),
                    ("not-installed-by-cudaenv", None), ("devnull", "/dev/null"), ("huge", "9" * 100_000)]:
        out.append(Case(f"install/argument/uninstall-{name}", "install", "argument",
                        (lambda w: ["uninstall", w.roots["12.4"]]) if t is None else ["uninstall", t],
                        desc="uninstall " + ("a toolkit the user made" if t is None else repr(t[:40])),
                        expect=file_kept("tk/cuda-12.4.1/bin/nvcc") if t is None else None, usage=True))
    return out


def _ambiguous(w: World) -> None:
    make_toolkit(os.path.join(w.dir, "tk2", "cuda-12.4.1"), "12.4.1")
    w.protect.append(os.path.join(w.dir, "tk2"))
    w.env["CUDAENV_ROOTS"] += f":{w.dir}/tk2/cuda-*"


def cases_options() -> list[Case]:
    """Bad option values and shapes, per command."""
    out = []

    def add(fam, name, argv, **kw):
        kw["usage"] = True  # the bad input is argv: click's own usage error is an answer
        out.append(Case(f"{fam}/option/{name}", fam, "option", argv, **kw))

    for fam, pre in (("use", ["use", "12.4"]), ("off", ["off"])):
        st = (lambda w: w.activate()) if fam == "off" else None
        for name, val in (("empty", ""), ("unknown", "powershell"), ("hostile", HOSTILE), ("upper", "BASH"),
                          ("newline", "bash\n"), ("path", "/bin/bash"), ("huge", "b" * 100_000)):
            add(fam, f"shell-{name}", pre + ["--shell", val], setup=st, ok=name in ("upper", "path"))
        add(fam, "shell-missing-value", pre + ["--shell"], setup=st, usage=True)
        add(fam, "shell-equals-empty", pre + ["--shell="], setup=st)
        add(fam, "format-unknown", pre + ["--format", "xml"], setup=st, usage=True)
        add(fam, "format-empty", pre + ["--format", ""], setup=st, usage=True)
        add(fam, "unknown-option", pre + ["--bogus"], setup=st, usage=True)
        add(fam, "tmux-outside-tmux", pre + ["--tmux", "--shell", "bash"], setup=_seq(st, _env(TMUX=None)))
        add(fam, "tmux-bogus-socket", pre + ["--tmux", "--shell", "bash"],
            setup=_seq(st, _env(TMUX=lambda w: f"{w.dir}/no-socket,1,0", TMUX_PANE="%0")))
        # CUDAENV_SHELL is the init function's hand-over: an odd one may fall back to detection
        add(fam, "shell-env-hostile", pre, setup=_seq(st, _env(CUDAENV_SHELL=HOSTILE)), ok=True)
        add(fam, "shell-detect-none", pre, setup=_seq(st, _env(SHELL=None, CUDAENV_SHELL=None)), ok=True)
        add(fam, "shell-detect-hostile", pre, setup=_seq(st, _env(SHELL="/opt/" + HOSTILE)), ok=True)
    add("use", "two-targets", ["use", "12.4", "11.8", "--shell", "bash"], usage=True)
    add("use", "match-torch-with-target", ["use", "12.4", "--match-torch", "--shell", "bash"], usage=True)
    add("use", "match-torch-without-torch", ["use", "--match-torch", "--shell", "bash"])
    add("use", "verify-never-verified", ["use", "12.4", "--verify", "--shell", "bash"], ok=True)
    add("off", "nothing-active", ["off", "--shell", "bash"], ok=True)
    add("off", "extra-word", ["off", "12.4", "--shell", "bash"], usage=True)
    for args, name in ((["--bogus"], "unknown-option"), (["extra"], "extra-word"), (["--json=yes"], "flag-with-value")):
        add("list", name, ["list", *args], usage=True)
    add("show", "two-targets", ["show", "12.4", "11.8"], usage=True)
    add("show", "unknown-option", ["show", "--bogus"], usage=True)
    add("show", "no-target-no-default", ["show"], ok=True, desc="no target: falls to the default toolkit")
    add("profile show", "no-target", ["profile", "show"], usage=True)
    add("profile show", "unknown-subcommand", ["profile", "bogus"], usage=True)
    add("profile build", "target-and-all", ["profile", "build", "12.4", "--all"], ok=True, usage=True)
    add("profile list", "extra-word", ["profile", "list", "x"], usage=True)
    add("profile list", "unknown-option", ["profile", "list", "--bogus"], usage=True)
    add("check", "all-and-target", ["check", "12.4", "--all", "--no-torch"], ok=True, report=True, usage=True)
    add("check", "match-torch-without-torch", ["check", "--match-torch", "--no-torch"])
    add("doctor", "extra-word", ["doctor", "x"], usage=True)
    add("doctor", "unknown-option", ["doctor", "--bogus"], usage=True)
    for name, val in (("zero", "0"), ("negative", "-1"), ("word", "abc"), ("empty", ""), ("huge", "9" * 40)):
        add("verify", f"jobs-{name}", ["verify", "12.4", "--no-torch", "--jobs", val], usage=True, report=True,
            ok=name == "huge")
    for name, val in (("zero", "0"), ("negative", "-5"), ("word", "abc"), ("empty", "")):
        add("verify", f"timeout-{name}", ["verify", "12.4", "--no-torch", "--timeout", val])
    # A limit that is not a number must be refused, or a compiler that hangs is never stopped.
    add("verify", "timeout-nan", ["verify", "12.4", "--no-torch", "--timeout", "nan"],
        setup=lambda w: _nvcc(w, w.roots["12.4"], "hang"), report=True, slow=True)
    add("verify", "timeout-inf", ["verify", "12.4", "--no-torch", "--timeout", "inf"], report=True, ok=True)
    add("verify", "keep-and-json", ["verify", "12.4", "--no-torch", "--keep", "--json"], report=True, ok=True)
    for name, val in (("empty", ""), ("unknown", "powershell"), ("hostile", HOSTILE), ("path", "/bin/bash"),
                      ("newline", "bash\n"), ("upper", "BASH")):
        add("init", f"shell-{name}", ["init", val], usage=True, ok=name in ("path", "upper"))
    add("init", "two-shells", ["init", "bash", "zsh"], usage=True)
    add("init", "detect-no-shell", ["init"], setup=_env(SHELL=None))
    add("init", "detect-hostile-shell", ["init"], setup=_env(SHELL="/opt/" + HOSTILE))
    add("init", "detect-unknown-shell", ["init"], setup=_env(SHELL="/usr/bin/powershell"))
    add("init", "auto-hook-extra-words", ["_auto", "a", "b"])
    for name, val in (("unknown", "xml"), ("empty", "")):
        add("modulefiles", f"format-{name}", lambda w, v=val: ["modulefiles", "--format", v, "-o", w.mods, "12.4"], usage=True)
    add("modulefiles", "no-targets", lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods])
    add("modulefiles", "no-output", ["modulefiles", "--format", "lmod", "12.4"], usage=True)
    add("modulefiles", "no-format", lambda w: ["modulefiles", "-o", w.mods, "12.4"], usage=True, ok=True)
    add("modulefiles", "all-and-targets", lambda w: ["modulefiles", "--format", "tcl", "-o", w.mods, "--all", "12.4"],
        ok=True, usage=True)
    for name, args in (("min-word", ["--min", "abc"]), ("max-empty", ["--max", ""]), ("min-hostile", ["--min", HOSTILE]),
                       ("min-fullwidth", ["--min", "\uff11\uff12"]), ("min-too-many-parts", ["--min", "12.4.1.1"]),
                       ("min-negative", ["--min", "-1"]), ("torch-unknown", ["--torch", "0.1"]),
                       ("torch-empty", ["--torch", ""]), ("torch-hostile", ["--torch", HOSTILE]),
                       ("min-above-max", ["--min", "12", "--max", "11"]), ("min-huge", ["--min", "9" * 5000]),
                       ("min-missing-value", ["--min"]), ("unknown-option", ["--bogus"])):
        add("matrix", name, ["matrix", *args], usage=name in ("min-missing-value", "unknown-option", "min-negative"),
            ok=name in ("torch-unknown", "min-above-max", "min-fullwidth", "min-too-many-parts"))
    add("exec", "no-dashdash", ["exec", "12.4", "/bin/true"])
    add("exec", "no-command", ["exec", "12.4", "--"])
    add("exec", "command-not-found", ["exec", "12.4", "--", "/proc/nonexistent/cmd"])
    add("exec", "command-empty", ["exec", "12.4", "--", ""])
    add("exec", "command-is-dir", ["exec", "12.4", "--", "/tmp"])
    add("exec", "command-not-executable", lambda w: ["exec", "12.4", "--", w.write(os.path.join(w.proj, "x.sh"), "true\n", 0o644)])
    add("exec", "command-hostile-name", ["exec", "12.4", "--", HOSTILE])
    add("exec", "no-target-no-pin", ["exec", "--", "/bin/true"])
    add("exec", "unknown-option", ["exec", "--bogus", "12.4", "--", "/bin/true"], usage=True)
    add("exec", "no-shebang-script", lambda w: ["exec", "12.4", "--", w.write(os.path.join(w.proj, "s"), "exit 0\n", 0o755)],
        ok=True)
    for name, args in (("parts-unknown", ["--parts", "bogus"]), ("parts-empty", ["--parts", ""]),
                       ("parts-commas", ["--parts", ",,,"]), ("parts-hostile", ["--parts", HOSTILE]),
                       ("jobs-zero", ["--jobs", "0"]), ("jobs-word", ["--jobs", "x"]),
                       ("prefix-devnull", ["--prefix", "/dev/null"]), ("prefix-empty", ["--prefix", ""]),
                       ("prefix-file", None), ("source-missing", ["--source", "/proc/nonexistent/mirror"]),
                       ("source-empty", ["--source", ""]), ("source-bad-url", ["--source", "file:///proc/nonexistent"]),
                       ("source-refused", ["--source", "http://127.0.0.1:9/"]),
                       ("source-hostile", ["--source", HOSTILE]), ("source-scheme", ["--source", "gopher://x/"]),
                       ("no-version", []), ("list-and-version", ["--list"])):
        if args is None:
            argv = lambda w: ["install", "12.4", "--source", w.mirror, "--prefix", w.write(os.path.join(w.proj, "f"), "x")]
        elif name == "no-version":
            argv = lambda w: ["install", "--source", w.mirror]
        elif any(a.startswith("--source") for a in args):
            argv = ["install", "12.4", *args]
        else:
            argv = (lambda a: lambda w: ["install", "12.4", "--source", w.mirror, *a])(args)
        add("install", name, argv, usage=name in ("jobs-zero", "jobs-word"),
            notes=name in ("source-refused", "source-bad-url", "source-scheme", "source-hostile", "source-missing"))
    add("install", "list-empty-mirror", lambda w: ["install", "--list", "--source", w.mirror])
    add("install", "install-cache-devnull", lambda w: ["install", "12.4", "--source", w.mirror],
        setup=_env(CUDAENV_INSTALL_CACHE="/dev/null"))
    add("other", "kernel-remove-unknown", ["kernel", "remove", "nothing-here"])
    add("other", "kernel-install-no-python", ["kernel", "install", "12.4", "--python", "/proc/nonexistent/python"])
    add("other", "kernel-install-hostile-name", ["kernel", "install", "12.4", "--name", HOSTILE, "--python", sys.executable])
    add("other", "kernel-list-datadir-devnull", ["kernel", "list"], setup=_env(JUPYTER_DATA_DIR="/dev/null"), ok=True)
    add("other", "conda-hook-prefix-missing", ["conda-hook", "install", "12.4", "-p", "/proc/nonexistent/env"])
    add("other", "conda-hook-prefix-file", lambda w: ["conda-hook", "install", "12.4", "-p", w.write(os.path.join(w.proj, "f"), "x")])
    add("other", "conda-hook-prefix-not-conda", lambda w: ["conda-hook", "install", "12.4", "-p", w.proj], ok=True)
    add("other", "conda-hook-remove-none", lambda w: ["conda-hook", "remove", "-p", w.condaenv], ok=True)
    add("other", "conda-hook-no-prefix", ["conda-hook", "install", "12.4"], setup=_env(CONDA_PREFIX=None))
    add("other", "conda-hook-activate-garbage", ["conda-hook", "_activate", HOSTILE], ok=True)
    add("other", "unknown-command", ["bogus"], usage=True)
    add("other", "version-with-args", ["--version", "x"], ok=True, usage=True)
    return out


def cases_explain_args() -> list[Case]:
    out = []
    for name, args in (("empty", [""]), ("blank", [" "]), ("hostile", [HOSTILE]), ("huge", ["x" * 100_000]),
                       ("escape", ["\x1b[31mred\x1b[0m"]), ("carriage-returns", ["\r" * 1000]),
                       ("many-words", ["w"] * 5000), ("non-utf8", [os.fsdecode(b"nvcc fatal \xff\xfe")]),
                       ("unknown-option", ["--bogus"])):
        out.append(Case(f"explain/argument/{name}", "explain", "argument", ["explain", "--no-host", *args],
                        ok=True, usage=name == "unknown-option"))
    return out


def cases_explain_logs() -> list[Case]:
    """The log on stdin: binary, huge, empty, a directory, endless, closed."""
    out = []
    real = (MESSAGE + "\n").encode()

    def stdin_of(kind):
        def setup(w):
            if kind == "binary":
                w.stdin = _rand_bytes(w.rng, 65536)
            elif kind == "empty":
                w.stdin = b""
            elif kind == "nul":
                w.stdin = real.replace(b" ", b"\x00", 3) + real
            elif kind == "sparse":
                p = os.path.join(w.proj, "big.log")
                with open(p, "wb") as f:
                    f.truncate(BIG)
                w.stdin = ("path", p)
            elif kind == "huge-text":
                p = w.write(os.path.join(w.proj, "big.log"), real * 400_000)  # ~20 MB of one known error
                w.stdin = ("path", p)
            elif kind == "long-line":
                w.stdin = b"x" * (10 << 20)
            elif kind == "carriage-returns":
                w.stdin = b"\r" * (5 << 20) + real
            elif kind == "escapes":
                w.stdin = b"\x1b[31m\x1b[0m" * 100_000 + real
            elif kind == "non-utf8":
                w.stdin = b"caf\xe9 \xff " + real
            elif kind == "dir":
                w.stdin = ("path", w.proj)
            elif kind == "devzero":
                w.stdin = ("path", "/dev/zero")
            elif kind == "closed":
                w.stdin = "closed"
        return setup

    # (stdin a directory is not here: CPython refuses to start with it, before any cudaenv code runs)
    for kind in ("binary", "empty", "nul", "sparse", "huge-text", "long-line", "carriage-returns", "escapes",
                 "non-utf8", "devzero", "closed"):
        for cname, argv in (("dash", ["explain", "-"]), ("json", ["explain", "--json", "--no-host", "-"]),
                            ("no-args", ["explain", "--no-host"])):
            out.append(Case(f"explain/log/{kind}-{cname}", "explain", "log", argv, setup=stdin_of(kind), ok=True,
                            slow=kind in ("sparse", "huge-text", "devzero") and cname != "dash",
                            desc=f"stdin: {kind}"))
    return out


# -- files in place of the files cudaenv reads


def _slot_cases(kind: str, fams: list, path_of: Callable, good_of: Callable, variants=FILE_VARIANTS,
                wrong: str = "- a\n- b\n", nest: str = "[", pre: Callable | None = None) -> list[Case]:
    out = []
    for variant in variants:
        def setup(w, variant=variant):
            if pre:
                pre(w)
            place(w, path_of(w), variant, good_of(w), wrong=wrong, nest=nest)
        for fam, name, argv, allow in fams:
            allow = dict(allow)
            if variant == "padded":  # a valid file, only large: reading it is fine, so is refusing it
                allow["ok"] = True
            out.append(Case(f"{fam}/{kind}/{variant}-{name}", fam, kind, argv, setup=setup, desc=f"{kind}: {variant}",
                            **allow))
    return out


def cases_profiles() -> list[Case]:
    out = []
    # The profile that governs what is asked for: a named one.
    gov = [
        ("use", "named", ["use", "mine", "--shell", "bash"], {}),
        ("show", "named", ["show", "mine"], {}),
        ("profile show", "named", ["profile", "show", "mine"], {}),
        ("check", "named", ["check", "mine", "--no-torch"], {}),
        ("exec", "named", ["exec", "mine", "--", "/bin/true"], {}),
        ("verify", "named", ["verify", "mine", "--no-torch", "--timeout", "10"], {}),
        ("modulefiles", "named", lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods, "mine"], {}),
        ("format", "named", ["use", "mine", "--format", "dotenv"], {}),
        ("profile list", "named", ["profile", "list"], {"ok": True, "notes": True}),
        ("list", "named", ["list"], {"ok": True, "notes": True}),
        ("profile build", "all-keeps-it", ["profile", "build", "--all"], {"ok": True, "notes": True}),
    ]
    out += _slot_cases("profile-file", gov, lambda w: os.path.join(w.profiles, "mine.yaml"),
                       lambda w: w.profile_yaml("mine", w.roots["12.4"]))
    # An unrelated profile: a note, never a failure of what was asked.
    rel = [
        ("use", "unrelated", ["use", "12.4", "--shell", "bash"], {}),
        ("show", "unrelated", ["show", "12.4", "--json"], {}),
        ("check", "unrelated", ["check", "12.4", "--no-torch"], {"report": True}),
        ("matrix", "unrelated", ["matrix"], {}),
        ("doctor", "unrelated", ["doctor", "--no-torch"], {"report": True}),
        ("modulefiles", "unrelated", lambda w: ["modulefiles", "--format", "tcl", "-o", w.mods, "--all"], {}),
    ]
    rel = [(f, n, a, dict(al, ok=True, notes=True)) for f, n, a, al in rel]
    out += _slot_cases("profile-file", rel, lambda w: os.path.join(w.profiles, "junk.yaml"),
                       lambda w: w.profile_yaml("junk", w.roots["11.8"]),
                       variants=("binary", "nonutf8", "sparse", "nested", "fifo", "devzero", "dir", "loop", "unreadable"))
    # The file named as the default profile of 12.4: governs it (error) or is noted; --force replaces it.
    dflt = [
        ("use", "default-name", ["use", "12.4", "--shell", "bash"], {"ok": True, "notes": True}),
        ("profile build", "keeps-it", ["profile", "build", "12.4"], {"ok": True, "notes": True}),
    ]
    out += _slot_cases("profile-file", dflt, lambda w: os.path.join(w.profiles, "cuda-12.4.1.yaml"),
                       lambda w: w.profile_yaml("cuda-12.4.1", w.roots["12.4"]),
                       variants=("binary", "empty", "fifo", "devzero", "dir", "dangling", "unreadable", "wrongtype"))

    def force(variant):
        def setup(w):
            place(w, os.path.join(w.profiles, "cuda-12.4.1.yaml"), variant, w.profile_yaml("cuda-12.4.1", w.roots["12.4"]))
            w.may_change.add(os.path.join(w.profiles, "cuda-12.4.1.yaml"))  # --force rewrites the file itself
        return setup
    for variant in ("binary", "fifo", "devzero", "dir", "dangling", "loop"):
        out.append(Case(f"profile build/profile-file/{variant}-force", "profile build", "profile-file",
                        ["profile", "build", "12.4", "--force"], setup=force(variant), ok=True, notes=True,
                        desc=f"cuda-12.4.1.yaml: {variant}; --force"))
    # Semantically hostile profiles (valid YAML).
    sem = {
        "root-newline": lambda w: _newline_root(w),
        "root-colon": lambda w: _odd_root(w, "cuda:12.4"),
        "root-escape": lambda w: _odd_root(w, "cuda-\x1b[31mred"),
        "root-relative": lambda w: "name: mine\nroot: tk/cuda-12.4.1\n",
        "root-missing": lambda w: "name: mine\nroot: /proc/nonexistent/cuda\n",
        "name-hostile": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("name: mine", "name: 'mine;rm -rf ~'"),
        "name-mismatch": lambda w: w.profile_yaml("other", w.roots["12.4"]),
        "set-newline": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("set:\n", "set:\n  X_NL: \"a\\nb\"\n"),
        "set-bad-name": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("set:\n", "set:\n  'A B$(x)': v\n"),
        "set-own-state": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("set:\n", "set:\n  _CUDAENV_STATE: x\n"),
        "prepend-empty": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("['{root}/bin']", "['']"),
        "prepend-colon": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("['{root}/bin']", "['/a:/b']"),
        "prepend-not-list": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("['{root}/bin']", "{x: 1}"),
        "set-and-prepend": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("set:\n", "set:\n  PATH: /x\n"),
        "stubs-bogus": lambda w: w.profile_yaml("mine", w.roots["12.4"], stubs="maybe"),
        "host-compiler-relative": lambda w: w.profile_yaml("mine", w.roots["12.4"], host_compiler="g++"),
        "host-compiler-hangs": lambda w: w.profile_yaml("mine", w.roots["12.4"], host_compiler=_hanging_cxx(w)),
        "build-bogus": lambda w: w.profile_yaml("mine", w.roots["12.4"], build="{max_jobs: -3, arch_list: 'sm_\\x1b'}"),
        "unknown-key": lambda w: w.profile_yaml("mine", w.roots["12.4"], bogus="1"),
        "alias-bomb": lambda w: _alias_bomb() + w.profile_yaml("mine", w.roots["12.4"]),
        "huge-value": lambda w: w.profile_yaml("mine", w.roots["12.4"]).replace("set:\n", "set:\n  BIG: '" + "v" * 200_000 + "'\n"),
        "yaml-tag": lambda w: w.profile_yaml("mine", w.roots["12.4"]) + "x: !!python/object/apply:os.system ['touch PWNED']\n",
        "duplicate-keys": lambda w: w.profile_yaml("mine", w.roots["12.4"]) + "name: again\n",
        "not-mapping": lambda w: "just a string\n",
    }
    for name, content in sem.items():
        def setup(w, content=content):
            w.write(os.path.join(w.profiles, "mine.yaml"), content(w))
        for fam, argv, allow in (("use", ["use", "mine", "--shell", "bash"], {}), ("show", ["show", "mine"], {}),
                                 ("format", ["use", "mine", "--format", "dotenv"], {}),
                                 ("modulefiles", lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods, "mine"], {}),
                                 ("check", ["check", "mine", "--no-torch"], {"report": True})):
            allow = dict(allow)
            if name in ("name-hostile", "root-escape", "host-compiler-relative", "unknown-key", "set-newline",
                        "huge-value", "duplicate-keys", "build-bogus", "host-compiler-hangs", "alias-bomb"):
                allow["ok"] = True  # refusing is right; a clear acceptance is too (checked: no traceback, no hang)
            if name == "set-newline" and fam in ("format",):
                allow["ok"] = False  # dotenv cannot express a newline
            out.append(Case(f"{fam}/profile-semantic/{name}", fam, "profile-semantic", argv, setup=setup,
                            expect=_escape_check(fam) if name == "root-escape" else None,
                            slow=name == "host-compiler-hangs", desc=f"profile mine.yaml: {name}", **allow))
    return out


def _newline_root(w: World) -> str:
    root = make_toolkit(os.path.join(w.dir, "odd", "cuda\n12.4"), "12.4.1")
    return w.profile_yaml("mine", root).replace(f"root: '{root}'", "root: \"" + root.replace("\n", "\\n") + "\"")


def _odd_root(w: World, name: str) -> str:
    root = make_toolkit(os.path.join(w.dir, "odd", name), "12.4.1")
    return w.profile_yaml("mine", root).replace(f"root: '{root}'", "root: \"" + root.replace("\x1b", "\\e") + "\"")


def _hanging_cxx(w: World) -> str:
    return w.script(os.path.join(w.dir, "bin", "g++"), f"{MARK_VAR}={w.marker} exec sleep 300\n")


def _alias_bomb() -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def cases_config() -> list[Case]:
    fams = [
        ("list", "config", ["list"], {}),
        ("use", "config", ["use", "12.4", "--shell", "bash"], {}),
        ("show", "config", ["show", "12.4"], {}),
        ("matrix", "config", ["matrix"], {}),
        ("install", "config", lambda w: ["install", "--list", "--source", w.mirror], {}),  # never the network
        ("doctor", "config", ["doctor", "--no-torch"], {"report": True}),
    ]
    fams = [(f, n, a, dict(al, ok=True, notes=True)) for f, n, a, al in fams]
    out = _slot_cases("config-file", fams, lambda w: os.path.join(w.cfg, "cudaenv", "config.yaml"),
                      lambda w: f"roots:\n  - {w.tk}/cuda-*\nsources:\n  - {w.mirror}\n")
    sem = {
        "roots-mapping": "roots: {a: 1}\n", "roots-numbers": "roots: [1, 2]\n", "unknown-key": "bogus: 1\n",
        "sources-empty-string": "sources: ['']\n", "sources-hostile": "sources: [\"" + HOSTILE.replace('"', '\\"') + "\"]\n",
        "roots-newline": "roots: [\"/tmp/a\\nb\"]\n", "roots-devzero": "roots: [/dev/zero]\n",
        "roots-wide-glob": "roots: ['/*/*/*']\n", "roots-relative": "roots: [tk/cuda-*]\n",
        "roots-huge-list": "roots:\n" + "".join(f"  - /proc/nonexistent/{i}\n" for i in range(20000)),
        "alias-bomb": _alias_bomb() + "roots: *a8\n", "yaml-tag": "roots: !!python/object/apply:os.system ['touch PWNED']\n",
    }
    for name, text in sem.items():
        for f, n, argv, allow in fams:
            out.append(Case(f"{f}/config-semantic/{name}", f, "config-semantic", argv,
                            setup=(lambda t: lambda w: w.write(os.path.join(w.cfg, "cudaenv", "config.yaml"), t))(text),
                            slow=name == "roots-wide-glob", desc=f"config.yaml: {name}", **allow))
    # The sources config.yaml names, none reachable (a closed local port: no network).
    out.append(Case("install/config-semantic/sources-unreachable", "install", "config-semantic", ["install", "--list"],
                    setup=lambda w: w.write(os.path.join(w.cfg, "cudaenv", "config.yaml"), "sources: ['http://127.0.0.1:9/']\n"),
                    notes=True, desc="config.yaml: sources unreachable"))
    return out


def cases_version_json() -> list[Case]:
    fams = [
        ("list", "vjson", ["list"], {"ok": True}),
        ("use", "vjson", ["use", "12.4", "--shell", "bash"], {"ok": True}),
        ("show", "vjson-path", lambda w: ["show", w.roots["12.4"]], {"ok": True}),
        ("check", "vjson-path", lambda w: ["check", w.roots["12.4"], "--no-torch"], {"ok": True, "report": True}),
        ("matrix", "vjson", ["matrix"], {"ok": True}),
        ("modulefiles", "vjson", lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods, "--all"], {"ok": True}),
        ("profile build", "vjson", ["profile", "build", "--all"], {"ok": True}),
    ]
    fams = [(f, n, a, dict(al, notes=True)) for f, n, a, al in fams]
    good = lambda w: '{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}'  # noqa: E731
    out = _slot_cases("version-json", fams, lambda w: os.path.join(w.roots["12.4"], "version.json"), good,
                      wrong='["12.4.1"]', nest="json")
    sem = {"fullwidth": "\uff11\uff12.\uff14.1", "superscript": "12.4.\u00b9", "empty": "", "int": 12, "null": None,
           "bignum": "9" * 30 + ".4.1", "negative": "-12.4.1", "major-only": "12", "many-parts": "12.4.1.1.1.1.1",
           "hostile": HOSTILE, "escape": "12.4.1\x1b[2J", "huge": "1" * 1_000_000, "mismatch": "11.2.0",
           "arabic-digits": "\u0661\u0662.\u0664.1"}
    import json as _json
    for name, v in sem.items():
        text = _json.dumps({"cuda": {"name": "CUDA SDK", "version": v}})
        for f, n, argv, allow in fams:
            out.append(Case(f"{f}/version-json-semantic/{name}", f, "version-json-semantic", argv,
                            setup=(lambda t: lambda w: w.write(os.path.join(w.roots["12.4"], "version.json"), t))(text),
                            expect=_escape_check(f) if name == "escape" else None, desc=f"version.json: {name}", **allow))
    return out


def cases_pin() -> list[Case]:
    """.cuda-version: odd files and odd contents."""
    fams = [
        ("use", "pin", ["use", "--shell", "bash"], {}),
        ("show", "pin", ["show"], {}),
        ("check", "pin", ["check", "--no-torch"], {}),
        ("exec", "pin", ["exec", "--", "/bin/true"], {}),
        ("profile build", "pin", ["profile", "build"], {}),
        ("init", "pin-auto-hook", lambda w: ["_auto", os.path.join(w.proj, ".cuda-version")], {"ok": True}),
    ]
    out = []
    for variant in FILE_VARIANTS:
        for f, n, argv, allow in fams:
            allow = dict(allow)
            if variant in ("padded", "dir", "dangling", "loop", "fifo", "devzero"):
                # a pin that is no regular file counts as no pin (`use` says none was found), like a directory
                allow["ok"] = True
            if variant == "padded":
                allow["ok"] = True
            out.append(Case(f"{f}/pin-file/{variant}-{n}", f, "pin-file", argv, desc=f".cuda-version: {variant}",
                            setup=(lambda v: lambda w: place(w, os.path.join(w.proj, ".cuda-version"), v, "12.4\n",
                                                             wrong="[12.4, 11.8]\n"))(variant), **allow))
    sem = {"trailing-words": ("11.8 trailing words\n", True), "nbsp": ("11.8\u00a0\n", True), "bom": ("\ufeff11.8\n", True),
           "crlf": ("11.8\r\n", True), "comment-only": ("# nothing\n", False), "unknown": ("99.9\n", False),
           "hostile": (HOSTILE + "\n", False), "torch": ("torch\n", False), "huge-word": ("1" * 100_000 + "\n", False),
           "escape": ("\x1b[31m12.4\n", False), "path-relative": ("../tk/cuda-12.4.1\n", True),
           "path-missing": ("/proc/nonexistent/cuda\n", False), "fullwidth": ("\uff11\uff12.\uff14\n", False),
           "zero-width": ("12.4\u200b\n", False), "version-and-garbage": ("12.4\x00\x01\n", False)}
    for name, (text, fine) in sem.items():
        for f, n, argv, allow in fams:
            allow = dict(allow)
            if fine:
                allow["ok"] = True
            if f == "check":
                allow["report"] = True
            out.append(Case(f"{f}/pin-semantic/{name}-{n}", f, "pin-semantic", argv, desc=f".cuda-version: {text[:30]!r}",
                            setup=(lambda t: lambda w: w.write(os.path.join(w.proj, ".cuda-version"), t))(text), **allow))
    # The pin is in a parent directory the user cannot read, or the cwd is gone or unreadable.
    for name, setup in (("cwd-unreadable", lambda w: _cwd_sub(w, 0o000)), ("cwd-unsearchable-parent", lambda w: _cwd_parent(w)),
                        ("cwd-deleted", lambda w: _cwd_deleted(w))):
        for f, n, argv, allow in fams + [("list", "cwd", ["list"], {"ok": True}),
                                         ("use", "cwd-target", ["use", "12.4", "--shell", "bash"], {"ok": True})]:
            out.append(Case(f"{f}/cwd/{name}-{n}", f, "cwd", argv, setup=setup, ok=True, report=f == "check",
                            desc=name))
    return out


def _cwd_sub(w: World, mode: int) -> str:
    sub = os.path.join(w.proj, "sub")
    os.makedirs(sub, exist_ok=True)
    w.write(os.path.join(w.proj, ".cuda-version"), "12.4\n")
    os.chmod(sub, mode)
    w.cwd = sub
    return sub


def _cwd_deleted(w: World) -> None:
    sub = _cwd_sub(w, 0o755)
    w.cwd = ("deleted", sub)  # the shell wrapper removes it before cudaenv starts
    w.may_change.add(sub)


def _cwd_parent(w: World) -> None:
    sub = os.path.join(w.proj, "locked", "inner")
    os.makedirs(sub)
    w.write(os.path.join(w.proj, "locked", ".cuda-version"), "12.4\n")
    os.chmod(os.path.join(w.proj, "locked"), 0o311)  # searchable, not readable
    w.cwd = sub


def cases_cache() -> list[Case]:
    """Cache files (cudaenv's own): garbage, truncated, bit-flipped, odd file types. Always ignored."""
    out = []
    files = {
        "index": lambda w: os.path.join(w.ccache, "index.marshal"),
        "preload-use": lambda w: os.path.join(w.ccache, f"preload-use.{PRELOAD_TAG}"),
        "preload-list": lambda w: os.path.join(w.ccache, f"preload-list.{PRELOAD_TAG}"),
        "verify-record": lambda w: os.path.join(w.ccache, "verify", "cuda-12.4.1.marshal"),
        "stub-link-dir": lambda w: os.path.join(w.ccache, "stubs"),
    }
    cmds = {
        "index": [("use", ["use", "12.4", "--shell", "bash"]), ("list", ["list", "--json"]), ("show", ["show", "12.4"]),
                  ("check", ["check", "12.4", "--no-torch"]), ("profile build", ["profile", "build", "--all"]),
                  ("off", None)],
        "preload-use": [("use", ["use", "12.4", "--shell", "bash"]), ("off", None)],
        "preload-list": [("list", ["list"])],
        "verify-record": [("use", ["use", "12.4", "--verify", "--shell", "bash"]),
                          ("verify", ["verify", "12.4", "--no-torch", "--timeout", "10"])],
        "stub-link-dir": [("use", ["use", "12.4", "--shell", "bash"]), ("exec", ["exec", "12.4", "--", "/bin/true"])],
    }
    variants = ("binary", "empty", "truncated", "bitflip", "wrong-shape", "fifo", "devzero", "dir", "loop",
                "sparse", "unreadable", "world-writable")

    def setup_for(fname, variant, warm):
        def setup(w):
            path = files[fname](w)
            if variant in ("truncated", "bitflip", "world-writable"):
                _warm(w, warm)
                if not os.path.exists(path):
                    w.write(path, marshal.dumps({"x": 1}))
                if variant == "truncated":
                    with open(path, "r+b") as f:
                        f.truncate(max(1, os.path.getsize(path) // 2))
                elif variant == "bitflip":
                    data = bytearray(open(path, "rb").read())
                    for _ in range(8):
                        i = w.rng.randrange(len(data))
                        data[i] ^= 1 << w.rng.randrange(8)
                    w.write(path, bytes(data))
                else:
                    os.chmod(path, 0o666)
            elif variant == "wrong-shape":
                w.write(path, marshal.dumps([("not", "what", "is", "expected"), {1: 2}, None]))
            else:
                place(w, path, variant, "x")
        return setup

    for fname, clist in cmds.items():
        for variant in variants:
            if fname == "stub-link-dir" and variant in ("truncated", "bitflip", "wrong-shape", "world-writable"):
                continue
            for fam, argv in clist:
                warm = ["verify", "12.4", "--no-torch", "--timeout", "10"] if fname == "verify-record" else \
                    (["list"] if fname == "preload-list" else ["use", "12.4", "--shell", "bash"])
                setup = setup_for(fname, variant, warm)
                if argv is None:
                    argv, setup = ["off", "--shell", "bash"], _seq(setup, lambda w: w.activate())
                out.append(Case(f"{fam}/cache-file/{fname}-{variant}", fam, "cache-file", argv, setup=setup, ok=True,
                                notes=True, report=fam == "verify", desc=f"{fname}: {variant}"))
    return out


def _warm(w: World, argv: list[str]) -> None:
    """Run cudaenv once so its caches exist (for the corruptions that start from real files)."""
    subprocess.run([sys.executable, "-m", "cudaenv", *argv], env=w.env, cwd=w.proj, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def cases_dirs() -> list[Case]:
    """Config, cache and data directories that cannot be used; HOME unset or odd."""
    out = []
    commands = {
        "use": (["use", "12.4", "--shell", "bash"], {}),
        "off": (["off", "--shell", "bash"], {}),
        "list": (["list"], {}),
        "show": (["show", "12.4"], {}),
        "check": (["check", "12.4", "--no-torch"], {"report": True}),
        "doctor": (["doctor", "--no-torch"], {"report": True}),
        "verify": (["verify", "12.4", "--no-torch", "--timeout", "10"], {"report": True}),
        "matrix": (["matrix"], {}),
        "explain": (["explain", "--no-host", MESSAGE], {}),
        "profile build": (["profile", "build", "--all"], {}),
        "profile list": (["profile", "list"], {}),
        "profile show": (["profile", "show", "12.4"], {}),
        "init": (["init", "bash"], {}),
        "modulefiles": (lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods, "--all"], {}),
        "exec": (["exec", "12.4", "--", "/bin/true"], {}),
        "install": (lambda w: ["install", "12.4", "--source", w.mirror], {"must_fail": True}),
        "other": (["kernel", "list"], {}),
    }

    def chmod(path, mode, make=True):
        def setup(w):
            p = path(w)
            if make:
                os.makedirs(p, exist_ok=True)
            os.chmod(p, mode)
        return setup

    def as_file(path):
        def setup(w):
            p = path(w)
            if os.path.isdir(p):
                os.rmdir(p)
            w.write(p, "a file, not a directory\n")
        return setup

    with_profile = lambda w: w.write(os.path.join(w.profiles, "mine.yaml"), w.profile_yaml("mine", w.roots["11.8"]))  # noqa: E731
    variants = {
        # cache: cudaenv must work without it (a note at most)
        "cache-devnull": (_env(XDG_CACHE_HOME="/dev/null"), "cache"),
        "cache-file": (as_file(lambda w: w.cache), "cache"),
        "cache-readonly": (chmod(lambda w: w.cache, 0o555), "cache"),
        "cache-unreadable": (chmod(lambda w: w.cache, 0o000), "cache"),
        "cache-subdir-file": (as_file(lambda w: w.ccache), "cache"),
        "cache-subdir-readonly": (chmod(lambda w: w.ccache, 0o555), "cache"),
        "cache-missing-parent": (_env(XDG_CACHE_HOME="/proc/nonexistent/cache"), "cache"),
        "cache-relative": (_env(XDG_CACHE_HOME="rel/cache"), "cache"),
        "cache-dangling": (lambda w: (os.rmdir(w.cache), os.symlink(w.cache + ".gone", w.cache)), "cache"),
        # config: reading works without it; writing profiles fails in one line
        "config-devnull": (_seq(_env(XDG_CONFIG_HOME="/dev/null")), "config"),
        "config-readonly": (_seq(with_profile, chmod(lambda w: w.profiles, 0o555), chmod(lambda w: os.path.dirname(w.profiles), 0o555)), "config"),
        "config-unreadable": (_seq(with_profile, chmod(lambda w: w.profiles, 0o000)), "config"),
        "config-profiles-file": (as_file(lambda w: w.profiles), "config"),
        "config-relative": (_env(XDG_CONFIG_HOME="rel/cfg"), "config"),
        "config-loop": (lambda w: (os.makedirs(os.path.join(w.cfg, "cudaenv")), os.symlink("profiles", w.profiles)), "config"),
        # data: where installed toolkits live
        "data-devnull": (_env(XDG_DATA_HOME="/dev/null"), "data"),
        "data-unreadable": (chmod(lambda w: os.path.join(w.data, "cudaenv", "toolkits"), 0o000), "data"),
        "data-toolkits-file": (as_file(lambda w: os.path.join(w.data, "cudaenv", "toolkits")), "data"),
        "data-broken-toolkit": (lambda w: os.makedirs(os.path.join(w.data, "cudaenv", "toolkits", "cuda-12.9.0", "bin")), "data"),
        # HOME
        "home-unset": (_env(HOME=None), "home"),
        "home-empty": (_env(HOME=""), "home"),
        "home-missing": (_env(HOME="/proc/nonexistent/home", XDG_CACHE_HOME=None, XDG_CONFIG_HOME=None, XDG_DATA_HOME=None), "home"),
        "home-file": (_seq(_env(XDG_CACHE_HOME=None, XDG_CONFIG_HOME=None, XDG_DATA_HOME=None),
                           lambda w: w.env.__setitem__("HOME", w.write(os.path.join(w.dir, "homefile"), "x"))), "home"),
        "home-readonly": (_seq(_env(XDG_CACHE_HOME=None, XDG_CONFIG_HOME=None, XDG_DATA_HOME=None), chmod(lambda w: w.home, 0o555)), "home"),
        "home-hostile-name": (_seq(_env(XDG_CACHE_HOME=None, XDG_CONFIG_HOME=None, XDG_DATA_HOME=None), _hostile_home), "home"),
        "home-relative": (_env(HOME="relhome", XDG_CACHE_HOME=None, XDG_CONFIG_HOME=None, XDG_DATA_HOME=None), "home"),
        "home-unset-no-xdg": (_seq(_env(HOME=None, XDG_CACHE_HOME=None, XDG_CONFIG_HOME=None, XDG_DATA_HOME=None),
                                   lambda w: setattr(w, "root_mount", True)), "home"),
    }
    for vname, (setup, area) in variants.items():
        for fam, (argv, allow) in commands.items():
            allow = dict(allow)
            must_fail = allow.pop("must_fail", False)
            ok = not must_fail
            if fam == "profile build" and (area == "config" and vname not in ("config-relative",) or
                                           vname in ("home-missing", "home-file", "home-readonly")):
                ok = False  # profiles cannot be written there: that is an error
            st = _seq(setup, (lambda w: w.activate()) if fam == "off" else None)
            out.append(Case(f"{fam}/{area}-dir/{vname}", fam, f"{area}-dir", argv, setup=st, ok=ok, notes=True,
                            desc=vname, **allow))
    return out


def _hostile_home(w: World) -> None:
    home = os.path.join(w.dir, "h-" + HOSTILE.replace("/", "_"))
    os.makedirs(home)
    w.protect.append(home)
    w.exclude.append(os.path.join(home, ".cache"))
    w.env["HOME"] = home


def cases_state() -> list[Case]:
    out = []

    def real(w):
        return w.state()

    def flip(n):
        def mk(w):
            s = list(real(w))
            for _ in range(n):
                i = w.rng.randrange(len(s))
                s[i] = chr(w.rng.randrange(32, 127))
            return "".join(s)
        return mk

    big = "v" * 100_000  # a state must fit the kernel's 128 KiB per string to reach cudaenv at all
    variants = {
        "garbage": (lambda w: "".join(chr(w.rng.randrange(33, 127)) for _ in range(300)), False),
        "bitflip-1": (flip(1), None), "bitflip-4": (flip(4), None), "bitflip-16": (flip(16), None),
        "truncated": (lambda w: real(w)[: len(real(w)) // 2], None),
        "wrong-format": (lambda w: "c2" + real(w)[2:], False), "empty": (lambda w: "", False),
        "no-name": (lambda w: real(w).replace("n,cuda-12.4.1;", ""), False),
        "bad-var-name": (lambda w: real(w) + ";s,A$(touch PWNED),-,v", False),
        "own-var": (lambda w: real(w) + ";s,_CUDAENV_STATE,-,v", False),
        "bad-percent": (lambda w: real(w) + ";s,X,=%zz,v", False),
        "negative-percent": (lambda w: real(w) + ";s,X,=%-1,v", False),
        "trailing-percent": (lambda w: real(w) + ";s,X,=ab%,v", False),
        "non-ascii": (lambda w: real(w).replace("cuda-12.4.1", "cuda-\u00e9\u4e2d", 1), None),
        "bad-list-kind": (lambda w: real(w).replace("l,PATH,v,", "l,PATH,x,"), False),
        "too-few-fields": (lambda w: real(w) + ";l,PATH,v", False),
        "oversized-valid": (lambda w: w.state(scalars={"CUDA_HOME": (big, w.roots["12.4"])}), True),
        "oversized-garbage": (lambda w: "c1;" + "x" * 120_000, False),
        "many-vars": (lambda w: w.state(scalars={f"V{i}": (None, "x") for i in range(3000)}), True),
        "unknown-profile": (lambda w: w.state(name="ghost"), True),
        "newline-prior": (lambda w: w.state(scalars={"CUDA_HOME": ("/opt/a\nb", w.roots["12.4"])}), True),
        "undecodable-prior": (lambda w: w.state(scalars={"CUDA_HOME": (os.fsdecode(b"/opt/\xff"), w.roots["12.4"])}), True),
        "hostile-entries": (lambda w: w.state(lists={"PATH": ("v", [HOSTILE, "/a:b", ""], [])}), True),
        "active-without-state": ("no-state", True),
        "state-without-active": ("no-active", True),
    }
    commands = [
        ("off", ["off", "--shell", "bash"], {}),
        ("off", ["off", "--shell", "tcsh"], {"tag": "tcsh"}),
        ("off", ["off", "--shell", "json"], {"tag": "json"}),
        # use/exec go on from a record they cannot read, with a note (off refuses: it would undo the wrong thing)
        ("use", ["use", "11.8", "--shell", "bash"], {"lenient": True}),
        ("format", ["use", "11.8", "--format", "dotenv"], {"lenient": True}),
        ("show", ["show"], {"lenient": True}),
        ("doctor", ["doctor", "--no-torch"], {"lenient": True, "report": True}),
        ("check", ["check", "--no-torch"], {"lenient": True, "report": True}),
        ("exec", ["exec", "11.8", "--", "/bin/true"], {"lenient": True}),
        ("profile build", ["profile", "build"], {"lenient": True}),
    ]
    for vname, (make, fine) in variants.items():
        for fam, argv, allow in commands:
            allow = dict(allow)
            tag = allow.pop("tag", "")
            lenient = allow.pop("lenient", False)
            if make == "no-state":
                setup = lambda w: (w.activate(), w.env.pop("_CUDAENV_STATE"))  # noqa: E731
            elif make == "no-active":
                setup = lambda w: (w.activate(), w.env.pop("CUDAENV_ACTIVE"))  # noqa: E731
            else:
                setup = (lambda m: lambda w: w.activate(state=m(w)))(make)
            # A corrupt record must stop off/use (they would undo the wrong thing); readers may go on.
            ok = bool(fine) or fine is None or lenient
            if fine is False and not lenient:
                ok = False
            if vname == "newline-prior" and tag == "tcsh":
                ok = False  # csh cannot restore a value with a newline: refuse
            if vname in ("oversized-valid",) and fam in ("off",):
                ok = True
            out.append(Case(f"{fam}/state/{vname}{'-' + tag if tag else ''}", fam, "state", argv, setup=setup, ok=ok,
                            desc=f"_CUDAENV_STATE: {vname}", **allow))
    return out


def cases_path() -> list[Case]:
    out = []
    from cudaenv.env.plan import MAX_VAR_BYTES

    # Just under the kernel's per-string limit (so it reaches cudaenv), over it once the toolkit's bin is added.
    long_path = "/usr/bin:/bin:" + "/x" * ((MAX_VAR_BYTES - 40) // 2)
    variants = {
        "unset": _env(PATH=None), "empty": _env(PATH=""), "colons": _env(PATH=":::"), "relative": _env(PATH=".:bin:/usr/bin:/bin"),
        "newline": _env(PATH="/usr/bin:/x\ny:/bin"), "hostile": _env(PATH=f"/opt/{HOSTILE}:/usr/bin:/bin"),
        "nonexistent": _env(PATH="/proc/nonexistent/a:/proc/nonexistent/b"), "long": _env(PATH=long_path),
        "non-utf8": _env(PATH=os.fsdecode(b"/opt/\xff\xfe:/usr/bin:/bin")),
        "ld-library-path-hostile": _env(LD_LIBRARY_PATH=f"/opt/{HOSTILE}:/x\ny::"),
        "hanging-gxx": lambda w: (_hanging_cxx(w), w.env.__setitem__("PATH", f"{w.dir}/bin:/usr/bin:/bin")),
        "hanging-nvcc-on-path": lambda w: _path_nvcc(w, "hang"),
        "crashing-nvcc-on-path": lambda w: _path_nvcc(w, "crash"),
        "cxx-env-hostile": _env(CXX=HOSTILE),
        "cxx-env-directory": _env(CXX="/tmp"),
    }
    commands = [
        ("use", ["use", "12.4", "--shell", "bash"], {}),
        ("off", ["off", "--shell", "bash"], {"state": True}),
        ("exec", ["exec", "12.4", "--", "true"], {}),
        ("list", ["list"], {}),
        ("doctor", ["doctor", "--no-torch"], {"report": True}),
        ("check", ["check", "12.4", "--no-torch"], {"report": True}),
        ("verify", ["verify", "12.4", "--no-torch", "--timeout", "10"], {"report": True}),
        ("init", ["init", "bash"], {}),
        ("matrix", ["matrix"], {}),
        ("profile build", ["profile", "build", "12.4"], {}),
    ]
    for vname, setup in variants.items():
        for fam, argv, allow in commands:
            allow = dict(allow)
            st = _seq(lambda w: w.activate(), setup) if allow.pop("state", False) else setup
            ok = True
            if vname == "long" and fam in ("use", "exec"):
                ok = False  # the switched PATH would pass the kernel's limit
            slow = vname.startswith("hanging") or (vname == "crashing-nvcc-on-path")
            out.append(Case(f"{fam}/path/{vname}", fam, "path", argv, setup=st, ok=ok, notes=True,
                            slow=slow, timeout=GUARD, desc=f"PATH: {vname}", **allow))
    return out


def _path_nvcc(w: World, how: str) -> None:
    """A toolkit-looking tree first on PATH whose nvcc misbehaves, with no version file."""
    root = make_toolkit(os.path.join(w.dir, "pathtk"), "12.6.0", version_json=False, cuda_h=False)
    _nvcc(w, root, how)
    w.protect.append(root)
    w.env["PATH"] = f"{root}/bin:/usr/bin:/bin"


NVCC_BEHAVIOURS = {
    "hang": "exec sleep 300\n",
    "crash": "kill -SEGV $$\n",
    "garbage": "head -c 65536 /dev/urandom\n",
    "huge": "head -c 20000000 /dev/zero | tr '\\0' x\n",
    "stderr-flood": "head -c 20000000 /dev/zero | tr '\\0' x >&2\nexit 1\n",
    "daemon": "{mark} setsid sleep 300 &\n{good}",
    "exit1": "echo 'nvcc fatal: boom' >&2\nexit 1\n",
    "wrong-version": "echo 'Cuda compilation tools, release 99.9, V99.9.1'\n",
    "versionless": "echo hello\n",
    "output-then-hang": "{good}exec sleep 300\n",
    "closed-output-hang": "exec >&- 2>&-\nexec sleep 300\n",
    "escape": "printf 'Cuda compilation tools, release 12.2, V12.2.140\\033[2J\\033]0;pwned\\007\\n'\n",
}
NVCC_FILES = ("noexec", "dir", "dangling", "fifo", "empty-file")


def _nvcc(w: World, root: str, how: str) -> str:
    nvcc = os.path.join(root, "bin", "nvcc")
    good = open(nvcc).read().split("\n", 1)[1] if os.path.isfile(nvcc) else ""
    if os.path.lexists(nvcc):
        os.unlink(nvcc)
    if how in NVCC_BEHAVIOURS:
        w.script(nvcc, NVCC_BEHAVIOURS[how].replace("{mark}", f"{MARK_VAR}={w.marker}").replace("{good}", good)
                 .replace("exec sleep", f"{MARK_VAR}={w.marker} exec sleep"))
    elif how == "noexec":
        w.write(nvcc, "#!/bin/sh\n" + good, 0o644)
    elif how == "dir":
        os.makedirs(nvcc)
    elif how == "dangling":
        os.symlink(nvcc + ".gone", nvcc)
    elif how == "fifo":
        os.mkfifo(nvcc, 0o755)
    elif how == "empty-file":
        w.write(nvcc, "", 0o755)
    return nvcc


def cases_nvcc() -> list[Case]:
    """Fake toolkits whose nvcc misbehaves: asked for the version, for GPU codes, and to compile."""
    out = []
    slow_ones = ("hang", "output-then-hang", "closed-output-hang")
    # 1. nvcc --version: the toolkit has no version file, so discovery asks nvcc.
    ver_cmds = [
        ("list", lambda w: ["list"], {"ok": True}),
        ("use", lambda w: ["use", "12.2", "--shell", "bash"], {"ok": True}),
        ("show", lambda w: ["show", w.nvtk], {"ok": True}),
        ("check", lambda w: ["check", w.nvtk, "--no-torch"], {"ok": True, "report": True}),
        ("matrix", lambda w: ["matrix"], {"ok": True}),
        ("profile build", lambda w: ["profile", "build", "--all"], {"ok": True}),
        ("modulefiles", lambda w: ["modulefiles", "--format", "tcl", "-o", w.mods, "--all"], {"ok": True}),
    ]
    for how in (*NVCC_BEHAVIOURS, *NVCC_FILES):
        def setup(w, how=how):
            w.nvtk = make_toolkit(os.path.join(w.tk, "cuda-12.2"), "12.2.140", version_json=False, cuda_h=False)
            _nvcc(w, w.nvtk, how)
        for fam, argv, allow in ver_cmds:
            slow = how in slow_ones
            if slow and fam not in ("list", "use", "show"):
                continue  # each costs the 30 s bound on `nvcc --version`: three commands show it
            out.append(Case(f"{fam}/nvcc-version/{how}", fam, "nvcc", argv, setup=setup, notes=True, slow=slow,
                            expect=_escape_check(fam) if how == "escape" else None, desc=f"nvcc --version: {how}", **allow))
    # 2. compiling (verify): the toolkit has a version file; nvcc misbehaves when it compiles.
    for how in ("hang", "crash", "garbage", "huge", "stderr-flood", "daemon", "exit1", "output-then-hang",
                "closed-output-hang", "noexec", "dir", "dangling", "fifo", "empty-file"):
        out.append(Case(f"verify/nvcc-compile/{how}", "verify", "nvcc", ["verify", "12.4", "--no-torch", "--timeout", "5"],
                        setup=(lambda h: lambda w: _nvcc(w, w.roots["12.4"], h))(how), report=True,
                        expect=file_kept("tk/cuda-12.4.1/version.json"), desc=f"nvcc compiling: {how}"))
        out.append(Case(f"exec/nvcc-compile/{how}", "exec", "nvcc", ["exec", "12.4", "--", "/bin/true"],
                        setup=(lambda h: lambda w: _nvcc(w, w.roots["12.4"], h))(how), ok=True,
                        desc=f"exec with a broken nvcc (not run): {how}"))
    # 3. nvcc --list-gpu-code: asked only when a GPU is visible (a fake driver from real outputs).
    for how in ("hang", "crash", "garbage", "huge", "daemon", "exit1", "closed-output-hang", "noexec"):
        def setup(w, how=how):
            _nvcc(w, w.roots["12.4"], how)
            w.env.pop("CUDAENV_PROC_ROOT")
            w.env.update(fake_gpu_env(w.env, w.dir))
        for fam, argv in (("check", ["check", "12.4", "--no-torch"]), ("use", ["use", "12.4", "--shell", "bash"]),
                          ("doctor", ["doctor", "--no-torch"])):
            out.append(Case(f"{fam}/nvcc-gpu-codes/{how}", fam, "nvcc", argv, setup=setup, ok=True, report=True, notes=True,
                            slow=how in ("hang", "closed-output-hang"), desc=f"nvcc --list-gpu-code with a GPU: {how}"))
    return out


def cases_python() -> list[Case]:
    """--python interpreters that are not interpreters, crash, print garbage, hang or leave daemons."""
    out = []
    scripts = {
        "exit1": "echo boom >&2\nexit 1\n",
        "garbage": "head -c 65536 /dev/urandom\n",
        "huge": "head -c 20000000 /dev/zero | tr '\\0' x\n",
        "crash": "kill -SEGV $$\n",
        "daemon": "{mark} setsid sleep 300 &\necho '{}'\n",
        "json-lie": "echo '{\"torch\": {\"version\": \"\\u001b[2J\", \"cuda\": [1,2]}, \"python\": 7}'\n",
        "hang": "{mark} exec sleep 300\n",
    }
    paths = {"missing": "/proc/nonexistent/python", "devnull": "/dev/null", "dir": "/tmp", "relative": "no-such-python"}
    commands = [
        ("check", lambda p: ["check", "12.4", "--python", p], {"report": True}),
        ("doctor", lambda p: ["doctor", "--python", p], {"report": True}),
        ("explain", lambda p: ["explain", "--python", p, "undefined symbol: _ZN3c104cuda9SetDeviceEi"], {}),
        ("verify", lambda p: ["verify", "12.4", "--python", p, "--timeout", "10"], {"report": True}),
        ("other", lambda p: ["kernel", "install", "12.4", "--python", p], {"must_fail": True}),
    ]
    for name, body in list(scripts.items()) + list(paths.items()):
        def setup(w, name=name, body=body):
            if name in scripts:
                w.py = w.script(os.path.join(w.dir, "py", "python3"), body.replace("{mark}", f"{MARK_VAR}={w.marker}"))
            else:
                w.py = body
        for fam, mk, allow in commands:
            allow = dict(allow)
            must_fail = allow.pop("must_fail", False)
            slow = name == "hang"
            if slow and fam != "check":
                continue
            out.append(Case(f"{fam}/python/{name}", fam, "python", (lambda m: lambda w: m(w.py))(mk), setup=setup,
                            ok=not must_fail, notes=True, slow=slow, timeout=150 if slow else GUARD,
                            desc=f"--python: {name}", **allow))
    return out


def cases_stdout() -> list[Case]:
    out = []
    cmds = [
        ("list", ["list"], False), ("list", ["list", "--json"], False), ("use", ["use", "12.4", "--shell", "bash"], False),
        ("off", ["off", "--shell", "bash"], False), ("show", ["show", "12.4"], False), ("show", ["show", "12.4", "--json"], False),
        ("profile show", ["profile", "show", "12.4"], False), ("profile list", ["profile", "list", "--json"], False),
        ("profile list", ["profile", "path"], False), ("check", ["check", "12.4", "--no-torch"], False),
        ("doctor", ["doctor", "--no-torch"], False), ("explain", ["explain", "--no-host", MESSAGE], False),
        ("matrix", ["matrix"], False), ("init", ["init", "bash"], False), ("format", ["use", "12.4", "--format", "dotenv"], False),
        ("format", ["use", "12.4", "--shell", "json"], False), ("verify", ["verify", "12.4", "--no-torch"], False),
        ("modulefiles", None, True), ("profile build", ["profile", "build", "12.4"], True),
        ("exec", ["exec", "12.4", "--", "/bin/true"], True), ("other", ["--help"], False), ("other", ["--version"], False),
        ("use", ["use", "--help"], False), ("install", None, False), ("other", ["kernel", "list"], True),
    ]
    for how in ("closed", "full", "broken"):
        for fam, argv, quiet in cmds:
            if argv is None and fam == "modulefiles":
                argv = lambda w: ["modulefiles", "--format", "lmod", "-o", w.mods, "12.4"]
            elif argv is None:
                argv = lambda w: ["install", "--list", "--source", w.mirror]
            name = "-".join(a for a in (argv if isinstance(argv, list) else [fam]) if a.isalnum() or a.startswith("--"))
            out.append(Case(f"{fam}/stdout/{how}-{name}", fam, "stdout", argv, stdout=how,
                            setup=(lambda w: w.activate()) if fam == "off" else None,
                            ok=quiet, report=False, notes=True, new_files_ok=True, desc=f"stdout {how}"))
    return out


def cases_format() -> list[Case]:
    """--format github/dotenv/json with what the runner gives (GITHUB_ENV, GITHUB_PATH)."""
    out = []

    def gh(env_path=None, path_path=None):
        def setup(w):
            _gh_setup(w)
            for var, spec in (("GITHUB_ENV", env_path), ("GITHUB_PATH", path_path)):
                if spec is None:
                    continue
                if spec == "unset":
                    w.env.pop(var)
                elif spec == "readonly":
                    os.chmod(w.env[var], 0o444)
                elif spec == "fifo":
                    os.unlink(w.env[var])
                    os.mkfifo(w.env[var])
                elif spec == "dir":
                    os.unlink(w.env[var])
                    os.makedirs(w.env[var])
                elif spec == "dangling":
                    os.unlink(w.env[var])
                    os.symlink(w.env[var] + ".gone", w.env[var])
                    w.may_change.add(w.env[var] + ".gone")
                else:
                    w.env[var] = spec
        return setup

    variants = {
        "env-unset": (gh("unset"), False), "path-unset": (gh(None, "unset"), False), "env-devfull": (gh("/dev/full"), False),
        "env-dir": (gh("dir"), False), "env-readonly": (gh("readonly"), False), "env-missing-dir": (gh("/proc/nonexistent/d/env"), False),
"env-dangling": (gh("dangling"), True), "env-devnull": (gh("/dev/null"), True),
        "env-relative": (gh("rel-env"), True), "env-empty": (gh(""), False), "path-readonly": (gh(None, "readonly"), False),
        "env-sparse": (lambda w: (gh()(w), open(w.env["GITHUB_ENV"], "ab").truncate(BIG)), True),
    }
    for vname, (setup, fine) in variants.items():
        def ok_setup(w, setup=setup, fine=fine):
            setup(w)
            if fine:  # a successful run appends: that is its job
                w.may_change.update({os.path.join(w.gh, "env"), os.path.join(w.gh, "path")})
        out.append(Case(f"format/github-env/{vname}", "format", "github-env", ["use", "12.4", "--format", "github"],
                        setup=ok_setup, ok=fine, desc=f"GITHUB_ENV/PATH: {vname}"))
    out.append(Case("format/github-env/off-refused", "format", "github-env", ["off", "--format", "github"],
                    setup=lambda w: (_gh_setup(w), w.activate())))
    out.append(Case("format/github-env/format-and-shell", "format", "option", ["use", "12.4", "--format", "dotenv", "--shell", "bash"],
                    ok=True, usage=True))
    out.append(Case("format/github-env/json-and-shell-fish", "format", "option", ["use", "12.4", "--format", "json", "--shell", "fish"],
                    ok=True, usage=True))
    return out


def cases_modulefiles_output() -> list[Case]:
    out = []

    def outdir(kind):
        def setup(w):
            if kind == "readonly":
                os.chmod(w.mods, 0o555)
            elif kind == "unreadable":
                os.chmod(w.mods, 0o000)
            elif kind == "cuda-file":
                w.write(os.path.join(w.mods, "cuda"), "mine\n")
            elif kind == "foreign-module":
                w.write(os.path.join(w.mods, "cuda", "12.4.1.lua"), "-- the user's own module\n")
                w.write(os.path.join(w.mods, "cuda", "12.4.lua"), "-- the user's own short name\n")
            elif kind == "fifo-module":
                os.makedirs(os.path.join(w.mods, "cuda"))
                os.mkfifo(os.path.join(w.mods, "cuda", "12.4.1.lua"))
            elif kind == "dir-module":
                os.makedirs(os.path.join(w.mods, "cuda", "12.4.1.lua"))
                w.write(os.path.join(w.mods, "cuda", "12.4.1.lua", "keep"), "x")
            elif kind == "foreign-modulerc":
                w.write(os.path.join(w.mods, "cuda", ".modulerc.lua"), "-- mine\n")
            elif kind == "dangling-cuda":
                os.symlink("/proc/nonexistent/cuda", os.path.join(w.mods, "cuda"))
        return setup

    for kind, arg, ok in (("devnull", "/dev/null", False), ("file", "FILE", False), ("readonly", None, False),
                          ("unreadable", None, False), ("empty", "", False), ("cuda-file", None, False),
                          ("foreign-module", None, True), ("fifo-module", None, True), ("dir-module", None, True),
                          ("foreign-modulerc", None, True), ("dangling-cuda", None, False), ("missing-parent", "/proc/nonexistent/m", False),
                          ("missing-creatable", "NEW", True),
                          ("hostile", "HOSTILE", True)):
        def argv(w, arg=arg):
            d = w.mods if arg is None else arg
            if arg == "FILE":
                d = w.write(os.path.join(w.proj, "f"), "x")
            elif arg == "NEW":
                d = os.path.join(w.mods, "new", "deeper")
            elif arg == "HOSTILE":
                d = os.path.join(w.mods, HOSTILE.replace("/", "_"))
            return ["modulefiles", "--format", "lmod", "-o", d, "--all"]
        out.append(Case(f"modulefiles/output/{kind}", "modulefiles", "output", argv, setup=outdir(kind), ok=ok, notes=True,
                        desc=f"-o: {kind}"))
    return out


def cases_install_mirror() -> list[Case]:
    """A mirror whose manifest is not a manifest."""
    out = []
    for variant in FILE_VARIANTS:
        for fam, argv in (("install", lambda w: ["install", "12.4.1", "--source", w.mirror]),
                          ("install", lambda w: ["install", "--list", "--source", w.mirror])):
            tag = "list" if "--list" in argv(type("W", (), {"mirror": "m"})) else "install"
            out.append(Case(f"install/mirror/{variant}-{tag}", fam, "mirror-file", argv,
                            setup=(lambda v: lambda w: place(w, os.path.join(w.mirror, "redistrib_12.4.1.json"), v,
                                                             '{"release_label": "12.4.1"}', wrong='["x"]', nest="json"))(variant),
                            ok=tag == "list", notes=True, desc=f"redistrib_12.4.1.json: {variant}"))
    for name, text in (("no-components", '{"release_label": "12.4.1"}'),
                       ("bad-sha", '{"release_label": "12.4.1", "cuda_nvcc": {"linux-x86_64": {"relative_path": "x.tar.xz", "sha256": "00", "size": "1"}}}'),
                       ("path-escape", '{"release_label": "12.4.1", "cuda_nvcc": {"linux-x86_64": {"relative_path": "../../../etc/passwd", "sha256": "00", "size": "1"}}}'),
                       ("label-hostile", '{"release_label": "' + HOSTILE.replace('"', '\\"') + '"}')):
        out.append(Case(f"install/mirror/semantic-{name}", "install", "mirror-file",
                        lambda w: ["install", "12.4.1", "--source", w.mirror, "--prefix", os.path.join(w.data, "out")],
                        setup=(lambda t: lambda w: w.write(os.path.join(w.mirror, "redistrib_12.4.1.json"), t))(text),
                        notes=True, desc=f"manifest: {name}"))
    return out


def cases_hostile_roots() -> list[Case]:
    """Toolkits whose own path is hostile: escapes, newlines, colons, HOSTILE; reached by CUDAENV_ROOTS."""
    out = []
    names = {"escape": "cuda-\x1b[31mred-12.4", "newline": "cuda-12.4\nx", "colon": "cuda:12.4", "hostile": "cuda-" + HOSTILE.replace("/", "_"),
             "non-utf8": os.fsdecode(b"cuda-\xff-12.4"), "leading-dash": "-cuda-12.4", "spaces": "cuda 12.4 "}
    cmds = [("list", ["list"], {"ok": True}), ("show", None, {}), ("use", None, {}), ("check", None, {"report": True}),
            ("modulefiles", "MODS", {}), ("exec", "EXEC", {})]
    for name, dirname in names.items():
        def setup(w, dirname=dirname):
            w.odd = make_toolkit(os.path.join(w.dir, "odd", dirname), "12.6.0")
            w.env["CUDAENV_ROOTS"] = f"{w.tk}/cuda-*:" + os.path.join(w.dir, "odd", "*")
            w.protect.append(os.path.join(w.dir, "odd"))
        fine = name not in ("newline", "colon")
        for fam, argv, allow in cmds:
            allow = dict(allow)
            if argv is None:
                argv = {"show": lambda w: ["show", w.odd], "use": lambda w: ["use", w.odd, "--shell", "bash"],
                        "check": lambda w: ["check", w.odd, "--no-torch"]}[fam]
            elif argv == "MODS":
                argv = lambda w: ["modulefiles", "--format", "tcl", "-o", w.mods, "--all"]
            elif argv == "EXEC":
                argv = lambda w: ["exec", w.odd, "--", "/bin/true"]
            allow.setdefault("ok", fine or fam == "list")
            out.append(Case(f"{fam}/hostile-root/{name}", fam, "hostile-root", argv, setup=setup, notes=True,
                            expect=_escape_check(fam), desc=f"toolkit dir {dirname!r}", **allow))
    return out


def catalogue() -> list[Case]:
    """Every case, in a stable order."""
    cases = []
    for gen in (cases_targets, cases_options, cases_explain_args, cases_explain_logs, cases_profiles, cases_config,
                cases_version_json, cases_pin, cases_cache, cases_dirs, cases_state, cases_path, cases_nvcc,
                cases_python, cases_stdout, cases_format, cases_modulefiles_output, cases_install_mirror,
                cases_hostile_roots):
        cases.extend(gen())
    if os.geteuid() != 0:  # "HOME unset, no XDG dirs" is safe only in a private mount namespace over /root
        cases = [c for c in cases if "home-unset-no-xdg" not in c.id]
    ids = [c.id for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate case ids: {sorted(dup)[:5]}"
    return cases


# --------------------------------------------------------------------------- running


class _Run:
    __slots__ = ("rc", "out", "err", "timed_out", "seconds")


def _snapshot(roots: list[str], excludes: list[str]) -> dict[str, tuple]:
    snap: dict[str, tuple] = {}
    ex = {os.path.normpath(e) for e in excludes}

    def visit(path: str) -> None:
        if os.path.normpath(path) in ex:
            return
        try:
            st = os.lstat(path)
        except OSError:
            return
        mode = stat.S_IMODE(st.st_mode)
        if stat.S_ISLNK(st.st_mode):
            snap[path] = ("link", os.readlink(path))
        elif stat.S_ISDIR(st.st_mode):
            snap[path] = ("dir", mode)
            try:
                names = os.listdir(path)
            except OSError:
                return
            for n in names:
                visit(os.path.join(path, n))
        elif stat.S_ISREG(st.st_mode):
            if st.st_size <= 4 << 20:
                with open(path, "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()
                snap[path] = ("file", mode, st.st_size, digest)
            else:
                snap[path] = ("file", mode, st.st_size, st.st_mtime_ns)
        else:
            snap[path] = ("other", stat.S_IFMT(st.st_mode), mode)

    for r in roots:
        visit(r)
    return snap


def _diff(before: dict, after: dict, may_change: set[str], failed: bool) -> str | None:
    def allowed(p):
        return any(p == m or p.startswith(m.rstrip("/") + "/") for m in may_change)
    lost = [p for p in before if p not in after and not allowed(p)]
    changed = [p for p in before if p in after and before[p] != after[p] and not allowed(p)
               and not (before[p][0] == "dir" and after[p][0] == "dir")]
    problems = []
    if lost:
        problems.append("lost " + ", ".join(sorted(lost)[:3]))
    if changed:
        problems.append("changed " + ", ".join(sorted(changed)[:3]))
    if failed:
        new = [p for p in after if p not in before and after[p][0] != "dir"]
        if new:
            problems.append("a failure left " + ", ".join(sorted(new)[:3]))
    return "; ".join(problems) or None


def _kill_marked(marker: str, prefix: bool = False) -> int:
    """End every process whose environment carries ``marker`` (ours only: the value is unique).

    ``prefix``: every marker starting so (a run's: ``<harness pid>-``).
    """
    needle = f"{MARK_VAR}={marker}".encode()
    killed = 0
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if any(e == needle or (prefix and e.startswith(needle)) for e in env):
            try:
                os.kill(int(pid), signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    return killed


def _command(case: Case, w: World, argv: list[str]) -> list[str]:
    # An address-space limit: a case that reads without bound fails with MemoryError instead of
    # waking the OOM killer on a shared machine.
    cmd = PRLIMIT + SETPRIV + [sys.executable, "-m", "cudaenv", *argv]
    if w.root_mount:
        # HOME unset and no XDG dirs: ~ is the password file's /root. Mount this world's home
        # there, in a private mount namespace, with the interpreter's trees mounted back inside: the
        # base Python (pyenv's) and the suite's venv, which the README's test command makes under
        # ~/.cache/cudaenv-testbed unless CUDAENV_TESTBED says otherwise (CI's is in /tmp).
        binds = []
        pyenv = os.path.expanduser("~root/.pyenv")
        for tree in sorted({os.path.realpath(t) for t in (sys.prefix, sys.base_prefix, os.path.dirname(
                os.path.realpath(sys.executable))) + ((pyenv,) if os.path.isdir(pyenv) else ())}):
            tree = tree[:-len("/bin")] if tree.endswith("/bin") else tree
            if tree.startswith("/root/") and not any(tree.startswith(b + "/") or tree == b for b in binds):
                binds.append(tree)
        mounts = ""
        for tree in binds:
            inside = w.home + tree[len("/root"):]
            os.makedirs(inside, exist_ok=True)
            mounts += f"mount --bind {shlex.quote(tree)} {shlex.quote(inside)} && "
        script = f"{mounts}mount --rbind {shlex.quote(w.home)} /root && exec \"$@\""
        cmd = ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", *cmd]
    redirs = []
    if case.stdout == "closed":
        redirs.append(">&-")
    if w.stdin == "closed":
        redirs.append("<&-")
    if isinstance(w.cwd, tuple):  # ("deleted", dir): start there, then remove it
        cmd = ["/bin/sh", "-c", f"cd {shlex.quote(w.cwd[1])} && rmdir {shlex.quote(w.cwd[1])} && exec \"$@\"", "sh", *cmd]
    if redirs:
        cmd = ["/bin/sh", "-c", 'exec "$@" ' + " ".join(redirs), "sh", *cmd]
    return cmd


def run_case(case: Case, seed: int = 0, keep: bool = False, base: str | None = None) -> Result:
    """Build the case's world, run it under the guard, classify it, clean up."""
    rng = random.Random(f"{seed}:{case.id}")
    marker = f"{os.getpid()}-{hashlib.sha1(case.id.encode()).hexdigest()[:10]}"
    d = tempfile.mkdtemp(prefix="fp-", dir=base)
    w = World(d, marker, rng)
    res = _Run()
    argv: list[str] = []
    notes = ""
    try:
        if case.setup:
            case.setup(w)
        argv = _argv(case, w)
        cmd = _command(case, w, argv)
        before = _snapshot(w.protect, w.exclude)
        out_path, err_path = os.path.join(w.dir, ".stdout"), os.path.join(w.dir, ".stderr")
        w.exclude += [out_path, err_path]
        stdin_f = None
        if w.stdin is None or w.stdin == "closed":
            stdin_f = open(os.devnull, "rb")
        elif isinstance(w.stdin, bytes):
            stdin_f = open(w.write(os.path.join(w.dir, ".stdin"), w.stdin), "rb")
            w.exclude.append(os.path.join(w.dir, ".stdin"))
        else:
            stdin_f = os.open(w.stdin[1], os.O_RDONLY)
        read_end = None
        with open(err_path, "wb") as err_f:
            if case.stdout == "full":
                out_f = open("/dev/full", "wb")
            elif case.stdout == "broken":
                read_end, write_end = os.pipe()
                os.close(read_end)
                out_f = os.fdopen(write_end, "wb")
            else:
                out_f = open(out_path, "wb")
            cwd = w.cwd if isinstance(w.cwd, str) else w.dir
            t0 = time.monotonic()
            proc = subprocess.Popen(cmd, env=w.env, cwd=cwd, stdin=stdin_f, stdout=out_f, stderr=err_f,
                                    start_new_session=True)
            try:
                proc.wait(timeout=case.timeout)
                res.timed_out = False
            except subprocess.TimeoutExpired:
                res.timed_out = True
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                proc.wait()
            res.seconds = time.monotonic() - t0
            res.rc = proc.returncode
            out_f.close()
            if not isinstance(stdin_f, int):
                stdin_f.close()
            else:
                os.close(stdin_f)
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything left in the group
        except OSError:
            pass
        if _kill_marked(marker):
            notes = "left processes running (ended)"
        res.out = open(out_path, "rb").read() if os.path.exists(out_path) else b""
        res.err = open(err_path, "rb").read()
        after = _snapshot(w.protect, w.exclude)
        outcome, reason = classify(case, res)
        if outcome in (OK, ONE, USAGE, BAD):
            failed = res.rc != 0 and outcome != OK and not case.new_files_ok  # a findings report is no failure
            problem = _diff(before, after, w.may_change, failed=failed)
            if problem:
                outcome, reason = BAD, problem
            elif _pwned(w):
                outcome, reason = BAD, "a hostile string ran as code (PWNED was created)"
            elif outcome != BAD and case.expect:
                problem = case.expect(w, res)
                if problem:
                    outcome, reason = BAD, problem
        leftovers = [n for n in os.listdir(w.tmp)] if os.path.isdir(w.tmp) else []
        if leftovers:
            notes = (notes + "; " if notes else "") + f"left {len(leftovers)} entries in $TMPDIR"
        return Result(case.id, case.family, case.kind, outcome, reason, res.rc,
                      res.out.decode("utf-8", "replace")[:4000], res.err.decode("utf-8", "replace")[:4000],
                      round(res.seconds, 2), _shell_line(w, argv, case), notes)
    except Exception as exc:  # a harness failure is reported as such, never hidden
        return Result(case.id, case.family, case.kind, BAD, f"harness error: {exc.__class__.__name__}: {exc}",
                      None, "", "", 0.0, _shell_line(w, argv, case))
    finally:
        _kill_marked(marker)
        if keep:
            print(f"kept {d}", file=sys.stderr)
        else:
            _rmtree(d)


def _pwned(w: World) -> bool:
    """HOSTILE holds `$(touch PWNED)` and a backquoted `touch PWNED2`: neither may ever run."""
    for root, _dirs, files in os.walk(w.dir):
        if "PWNED" in files or "PWNED2" in files:
            return True
    return False


def _rmtree(d: str) -> None:
    for root, dirs, _files in os.walk(d):
        for x in dirs:
            try:
                p = os.path.join(root, x)
                if not os.path.islink(p):
                    os.chmod(p, 0o755)
            except OSError:
                pass
    shutil.rmtree(d, ignore_errors=True)


def _shell_line(w: World, argv: list[str], case: Case | None = None) -> str:
    """The command as a shell line, with the world's directory written as $W and the usual env left out."""
    def q(v: str) -> str:
        return '"$W"'.join(shlex.quote(p) if p else "" for p in v.split(w.dir)) or "''"
    base = {"HOME": w.home, "PATH": "/usr/local/bin:/usr/bin:/bin", "SHELL": "/bin/bash", "LC_ALL": "C.UTF-8",
            "TMPDIR": w.tmp, "XDG_CONFIG_HOME": w.cfg, "XDG_CACHE_HOME": w.cache, "XDG_DATA_HOME": w.data,
            "CUDAENV_ROOTS": f"{w.tk}/cuda-*", "CUDAENV_PROC_ROOT": os.path.join(w.dir, "no-proc"), "PYTHONPATH": REPO,
            "PYTHONDONTWRITEBYTECODE": "1", "PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": "http://127.0.0.1:9/simple"}
    changed = [f"{k}={q(v)}" for k, v in w.env.items() if k != MARK_VAR and base.get(k) != v]
    unset = [f"-u {k}" for k in base if k not in w.env]
    env = " ".join(unset + changed)
    line = "python3 -m cudaenv " + " ".join(q(a) for a in argv)
    if case is not None:
        line += {"closed": " >&-", "full": " >/dev/full", "broken": " | (a reader that has gone)"}.get(case.stdout, "")
    if w.stdin == "closed":
        line += " <&-"
    elif isinstance(w.stdin, bytes):
        line += f" < ({len(w.stdin)} bytes: {w.stdin[:24]!r}...)"
    elif isinstance(w.stdin, tuple):
        line += f" < {q(w.stdin[1])}"
    if w.cwd != w.proj:
        line = f"(cwd {q(w.cwd[1] if isinstance(w.cwd, tuple) else w.cwd)}{', removed' if isinstance(w.cwd, tuple) else ''}) " + line
    return f"(world) {env} {line}" if env else f"(world) {line}"


def classify(case: Case, r) -> tuple[str, str]:
    if r.timed_out:
        return HANG, f"killed after {case.timeout:g} s"
    err = r.err
    if err.startswith((b"setpriv: ", b"unshare: ", b"mount: ", b"sh: ")):
        return BAD, "harness error: " + err.decode("utf-8", "replace").strip()[:300]
    if b"Traceback" in err:
        return TB, err.decode("utf-8", "replace").strip().splitlines()[-1][:200]
    lines = [ln for ln in err.split(b"\n")]
    if lines and lines[-1] == b"":
        lines.pop()
    if r.rc == 0:
        if case.ok:
            return OK, "exit 0"
        return BAD, "exit 0 where failure was required"
    if case.report and r.rc == 1 and r.out.strip():
        return OK, "findings report, exit 1"
    text = err.decode("utf-8", "replace")
    if r.rc == 2 and not r.out and text.startswith("Usage: cudaenv") and "\nError: " in text and "Try '" in text:
        if case.usage:
            return USAGE, "click usage error"
        return BAD, "click usage error for input that is not an argument"
    if r.out:
        return BAD, f"stdout not empty on failure (exit {r.rc})"
    if not lines:
        return BAD, f"exit {r.rc} with no message"
    if r.rc < 0:
        return BAD, f"killed by signal {-r.rc}"
    if len(lines) == 1:
        return ONE, f"exit {r.rc}"
    if case.notes and all(ln.startswith(b"cudaenv: ") for ln in lines):
        return ONE, f"exit {r.rc}, {len(lines) - 1} note(s) before the error"
    return BAD, f"{len(lines)} stderr lines (exit {r.rc})"


def select(cases: list[Case], seed: int, quick: bool) -> list[Case]:
    """All cases, or the quick subset: one (seeded) per family x kind, never a slow one, plus the forced."""
    if not quick:
        return cases
    rng = random.Random(seed)
    groups: dict[tuple, list[Case]] = {}
    for c in cases:
        groups.setdefault((c.family, c.kind), []).append(c)
    chosen = {c.id for c in cases if c.quick}
    for key in sorted(groups):
        fast = [c for c in groups[key] if not c.slow]
        if fast:
            chosen.add(rng.choice(fast).id)
    return [c for c in cases if c.id in chosen]


def run(seed: int = 0, quick: bool = False, jobs: int = 2, only: list[str] | None = None,
        progress: Callable | None = None) -> list[Result]:
    """Run the catalogue (or its quick subset) and return one :class:`Result` per case, in catalogue order."""
    cases = select(catalogue(), seed, quick)
    if only:
        cases = [c for c in cases if any(c.id == o or c.id.startswith(o) for o in only)]
    base = tempfile.mkdtemp(prefix="cudaenv-fieldpass-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            if quick:
                cases = [dataclasses.replace(c, timeout=min(c.timeout, QUICK_GUARD)) for c in cases]
            futs = [pool.submit(run_case, c, seed, False, base) for c in cases]
            results = []
            for f in futs:
                results.append(f.result())
                if progress:
                    progress(results[-1])
        return results
    finally:
        _rmtree(base)


FAMILIES = ("use", "off", "list", "show", "profile build", "profile show", "profile list", "check", "doctor", "explain",
            "verify", "init", "modulefiles", "exec", "matrix", "format", "install", "other")


def table(results: list[Result], by: str = "family") -> str:
    """Markdown: per family (or kind) tried / ok / one-line / usage / tracebacks / hangs / misbehaved, plus totals."""
    rows: dict[str, dict[str, int]] = {}
    for r in results:
        key = getattr(r, by)
        row = rows.setdefault(key, dict.fromkeys(OUTCOMES, 0))
        row[r.outcome] += 1
    order = [f for f in FAMILIES if f in rows] + sorted(k for k in rows if k not in FAMILIES) if by == "family" else sorted(rows)
    head = f"| {by} | tried | ok | one-line | usage | tracebacks | hangs | misbehaved |"
    lines = [head, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    total = dict.fromkeys(OUTCOMES, 0)
    for k in order:
        row = rows[k]
        for o in OUTCOMES:
            total[o] += row[o]
        lines.append(f"| {k} | {sum(row.values())} | " + " | ".join(str(row[o]) for o in OUTCOMES) + " |")
    lines.append(f"| **total** | **{sum(total.values())}** | " + " | ".join(f"**{total[o]}**" for o in OUTCOMES) + " |")
    return "\n".join(lines)


def failures(results: list[Result]) -> list[Result]:
    return [r for r in results if r.outcome in (TB, HANG, BAD)]


def describe(r: Result, width: int = 1500) -> str:
    """One failing case: what, why, the command and its output."""
    return (f"[{r.outcome}] {r.id}: {r.reason} ({r.seconds} s, exit {r.rc})\n"
            f"  $ {r.command[:width]}\n"
            + (f"  stdout: {r.stdout[:width]!r}\n" if r.stdout else "")
            + f"  stderr: {r.stderr[:width]!r}")


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--case", action="append", help="run only this case id (or id prefix); repeatable")
    ap.add_argument("--keep", action="store_true", help="with --case: keep the world and print its path")
    ap.add_argument("--by-kind", action="store_true", help="also print the table per kind of bad input")
    ap.add_argument("--list", action="store_true", help="list case ids")
    a = ap.parse_args(argv)
    if a.list:
        for c in select(catalogue(), a.seed, a.quick):
            print(c.id)
        return 0
    if a.keep and a.case:
        cases = [c for c in catalogue() if any(c.id == o or c.id.startswith(o) for o in a.case)]
        results = [run_case(c, a.seed, keep=True) for c in cases]
    else:
        t0 = time.monotonic()
        results = run(a.seed, a.quick, a.jobs, a.case,
                      progress=lambda r: print(f"{r.outcome:10} {r.seconds:6.2f}s {r.id}", file=sys.stderr)
                      if r.outcome in (TB, HANG, BAD) or r.seconds > 10 else None)
        print(f"{len(results)} cases in {time.monotonic() - t0:.0f} s (seed {a.seed}{', quick' if a.quick else ''})\n")
    print(table(results))
    if a.by_kind:
        print()
        print(table(results, by="kind"))
    slow = [r for r in results if r.seconds > 10 and r.outcome != HANG]
    if slow:
        print(f"\n## {len(slow)} cases that took over 10 s (bounded, but slow)\n")
        for r in slow:
            print(f"- {r.id}: {r.seconds} s, {r.outcome}")
    noted = [r for r in results if r.notes]
    if noted:
        print(f"\n## {len(noted)} cases with notes (not counted against the rule)\n")
        for r in noted:
            print(f"- {r.id}: {r.notes}")
    bad = failures(results)
    if bad:
        print(f"\n## {len(bad)} cases that were not ok / one-line / usage\n")
        for r in bad:
            print(describe(r))
            print()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
