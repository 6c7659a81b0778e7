"""Seeded random round trips in the real shells: start -> use A -> edits -> use B -> edits -> off.

Each trip starts from a random environment (the variables cudaenv touches
unset, empty, or holding hostile bytes: quotes, ``$``, backticks, ``!``,
non-ASCII and non-UTF-8 bytes, newlines, ``::``, leading and trailing colons,
copies of toolkit entries), switches to a random target A, makes random user
edits in that shell's own syntax (entries put in front of or behind a list,
variables set or unset), switches to B, edits again and switches off. After
``off`` the environment (``env -0``) must be the start plus the user's own
edits, byte for byte; no list may hold an empty entry cudaenv put there at any
point; a switch cudaenv refuses must be one stderr line with nothing on stdout
and must change nothing.

Many trips share one shell process (a *chunk*): the first trip of a chunk
starts from the process environment the shell was started with (what a new
terminal gets), the others from values the script sets itself. tcsh cannot set
a value holding a newline, so its trips with one always start a chunk.

Run through ``tests/fieldpass/run.py`` or ``tests/test_roundtrips.py``.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpcommon as fp  # noqa: E402
from fpcommon import helpers  # noqa: E402

__all__ = ["Trip", "TripResult", "run", "run_shell", "table", "make_bed", "Bed"]

SCALARS = ("CUDA_HOME", "CUDA_PATH", "CUDAHOSTCXX", "TORCH_CUDA_ARCH_LIST", "CUDAARCHS", "MAX_JOBS",
           "NVCC_THREADS", "CUDA_ROOT", "ODD_NOTE")
LISTS = ("PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "CMAKE_LIBRARY_PATH")
FLAGS = ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS")
RESERVED = ("CUDAENV_ACTIVE", "_CUDAENV_STATE")
UNIVERSE = SCALARS + LISTS + FLAGS
SEP = {v: (b" " if v in FLAGS else b":") for v in LISTS + FLAGS}
BASE_PATH = b"/usr/local/bin:/usr/bin:/bin"
CHUNK = 25  # trips per shell process
#: Shells whose chunks may type into the `cudaenv init` function (tcsh's alias cannot have its
#: stderr captured on its own; dash has no init).
INIT_SHELLS = ("bash", "zsh", "fish")

# Pieces of hostile values. Sentinel names start with PWNED: any such file is proof of execution.
PIECES = [
    b" ", b"'", b'"', b"$", b"`", b"!", b"\\", b";", b"&", b"|", b"<", b">", b"(", b")", b"{", b"}", b"[",
    b"]", b"*", b"?", b"~", b"#", b"%", b"^", b"=", b",", b"\t", b"  ", b"-e", b"--help",
    b"$(touch PWNED_rt1)", b"`touch PWNED_rt2`", b"${HOME}", b"$HOME", b"!!", b"!$", b"!-1", b"%1",
    b"#(touch PWNED_rt3)", b"(touch PWNED_rt4)", b"';touch PWNED_rt5;'", b'";touch PWNED_rt6;"', b"\\n",
    "è".encode(), "рт".encode(), "中片".encode(), "🚒".encode(), "♞".encode(), b"\xff", b"\xc3(", b"\xfe\xfe",
    b"\r", b"\n", b"\ntouch PWNED_rt7\n",
]
NEWLINES = (b"\n", b"\r")

# Refusals the pass expects, by what stderr says (anything else is over-refusing: a failure).
REFUSAL_KINDS = (
    (b"no CUDA toolkit matches", "an unknown version (`use 99.9`)"),
    (b"which a PATH list cannot express", "a toolkit path holding ':' or a newline"),
    (b"which csh/tcsh cannot set back", "tcsh: a value `use` overwrites holds a newline (off could not restore it)"),
    (b"in csh/tcsh: it contains a newline", "tcsh: a value to set holds a newline or CR (the user's, in a list)"),
    (b"(on the shell's stderr)", "fish, through the init function (its message went to the shell's stderr)"),
)
EXPECTED_REFUSALS = tuple(k for k, _ in REFUSAL_KINDS)


def refusal_kind(err: bytes) -> str:
    """The kind of a refusal, from cudaenv's one stderr line."""
    for key, kind in REFUSAL_KINDS:
        if key in err:
            return kind
    return "other: " + err.decode("utf-8", "replace")[:80]


def refusal_table(results: list) -> str:
    """A markdown table: refusals by kind and shell."""
    kinds: dict[str, dict[str, int]] = {}
    for r in results:
        for e in r.refusals:
            row = kinds.setdefault(refusal_kind(e), {})
            row[r.shell] = row.get(r.shell, 0) + 1
    shells = [s for s in fp.SHELLS if any(s in row for row in kinds.values())]
    rows = ["| refused because | " + " | ".join(shells) + " |", "| --- |" + " ---: |" * len(shells)]
    for kind, row in kinds.items():
        rows.append(f"| {kind} | " + " | ".join(f"{row.get(s, 0):,}" for s in shells) + " |")
    return "\n".join(rows)


@dataclass
class Target:
    word: bytes  # what is typed after `use`
    root: bytes | None  # the toolkit root it switches to (None: a refusal is expected)
    profile: bytes | None


@dataclass
class Bed:
    root: str
    env: dict  # str -> str|bytes: the base environment of every shell
    targets: list[Target]
    tk_entries: list[bytes]  # toolkit entries a start value may already hold
    exe: str


def make_bed(root: str) -> Bed:
    """Toolkits with hostile roots, a profile with odd values of its own, and the base environment."""
    tk = os.path.join(root, "tk")
    os.makedirs(tk, exist_ok=True)
    t1 = helpers.make_toolkit(os.path.join(tk, helpers.HOSTILE), "12.3.7")
    t2 = helpers.make_toolkit(os.path.join(tk, 'cuda 11.8 "q" $HOME\ttab |&<>*?[x]{a,b}~#%^ 中'), "11.8.0",
                              cupti_extras=True)
    # 11.8 accepts gcc <= 11: with the default g++ newer, use adds -ccbin and CUDAHOSTCXX.
    os.makedirs(os.path.join(t2, "include", "crt"), exist_ok=True)
    with open(os.path.join(t2, "include", "crt", "host_config.h"), "w") as f:
        f.write("#if defined(__GNUC__)\n#if __GNUC__ > 11\n#error -- unsupported GNU version! gcc versions "
                "later than 11 are not supported!\n#endif\n#endif\n")
    t3 = helpers.make_toolkit(os.path.join(tk, "cuda 12.6 !x !! ${y} 'z'"), "12.6.2")
    t4 = helpers.make_toolkit(os.fsdecode(os.path.join(os.fsencode(tk), b"cuda-12.1-\xff\xfe")), "12.1.1")
    t5 = helpers.make_toolkit(os.path.join(tk, "cuda:12.2"), "12.2.1")
    t6 = helpers.make_toolkit(os.path.join(tk, "cuda\n12.2"), "12.2.2")
    cfg = os.path.join(root, "cfg")
    pdir = os.path.join(cfg, "cudaenv", "profiles")
    os.makedirs(pdir, exist_ok=True)
    import json  # YAML is a superset of JSON: no yaml module needed to write a profile

    with open(os.path.join(pdir, "odd.yaml"), "w", encoding="utf-8") as f:
        json.dump({"name": "odd", "root": t3, "stubs": "always", "host_compiler": "none",
                   "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}", "CUDA_ROOT": "{root}",
                           "ODD_NOTE": "br{ace} [x] $y \\z \"q\" 'a' ;& !h 中 $(touch PWNED_note) `x`"},
                   "prepend": {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ["{root}/lib64"],
                               "LIBRARY_PATH": ["{root}/lib64", "{root}/lib64/stubs"], "CPATH": ["{root}/include"]},
                   "append": {"NVCC_APPEND_FLAGS": ["-lineinfo", "-Xptxas=-v"]}}, f, ensure_ascii=False)
    env = fp.base_env(root, XDG_CONFIG_HOME=cfg)
    env["CUDAENV_ROOTS"] = os.fsencode(":".join([t1, t2, t3, t4]))
    b = os.fsencode
    targets = [
        Target(b"12.3", b(t1), b"cuda-12.3.7"), Target(b"12.3.7", b(t1), b"cuda-12.3.7"),
        Target(b(t1), b(t1), b"cuda-12.3.7"), Target(b"11.8", b(t2), b"cuda-11.8.0"),
        Target(b(t2), b(t2), b"cuda-11.8.0"), Target(b"odd", b(t3), b"odd"), Target(b"12.1", b(t4), b"cuda-12.1.1"),
        Target(b(t4), b(t4), b"cuda-12.1.1"),
        # Refusals: a root no path list can hold, an unknown version.
        Target(b(t5), None, None), Target(b(t6), None, None), Target(b"99.9", None, None),
    ]
    entries = [b(t1) + b"/bin", b(t1) + b"/lib64", b(t2) + b"/bin", b(t2) + b"/lib64", b(t3) + b"/include",
               b(t4) + b"/lib64", b(t1) + b"/lib64/stubs", b"-lineinfo", b"-ccbin"]
    return Bed(root, env, targets, entries, os.path.join(root, "bin", "cudaenv"))


# ---------------------------------------------------------------- one trip, as data


@dataclass
class Trip:
    index: int
    fresh: bool  # starts a shell process (its start is the process environment)
    start: dict[str, bytes | None]
    a: Target
    b: Target
    edits1: list[tuple]  # (op, var, value)
    edits2: list[tuple]
    via_init: bool = False  # the chunk types `cudaenv use X` into the `cudaenv init` function


def _hostile(rng: random.Random, newline: bool, max_pieces: int = 4, tag: bytes = b"") -> bytes:
    out = [tag] if tag else []
    for _ in range(rng.randint(1, max_pieces)):
        p = rng.choice(PIECES)
        if not newline and any(c in p for c in NEWLINES):
            p = b"_"
        out.append(p)
        if rng.random() < 0.5:
            out.append(rng.choice([b"/opt/x", b"a", b"/usr/lib", b"9"]))
    return b"".join(out)


def _entry(rng: random.Random, sep: bytes, newline: bool, tag: bytes = b"") -> bytes:
    """One list entry: no separator in it (an entry with ':' is two entries)."""
    e = _hostile(rng, newline, 3, tag).replace(sep, b"_")
    if sep == b" ":
        e = e.replace(b"\t", b"_")
    return e or b"x"


def _start_list(rng: random.Random, var: str, bed: Bed, newline: bool) -> bytes | None:
    sep = SEP[var]
    if var != "PATH":
        r = rng.random()
        if r < 0.3:
            return None
        if r < 0.45:
            return b""
    entries = [_entry(rng, sep, newline) for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.35:  # a copy of a toolkit entry the user already had
        entries.insert(rng.randint(0, len(entries)), rng.choice(bed.tk_entries))
    if sep == b":" and rng.random() < 0.3:  # empty entries of the user's own: kept as they are
        entries.insert(rng.randint(0, len(entries)), b"")
    if var == "PATH":
        entries.append(BASE_PATH)  # the shell must still find env and cat by name for a user's edit
    if sep == b" " and rng.random() < 0.3:
        entries.append(b"-ccbin /usr/bin/g++-12" if rng.random() < 0.5 else b"-Xcompiler  -fPIC")
    return sep.join(entries)


def _start(rng: random.Random, bed: Bed, newline: bool) -> dict[str, bytes | None]:
    start: dict[str, bytes | None] = {}
    for var in SCALARS:
        r = rng.random()
        if r < 0.4:
            start[var] = None
        elif r < 0.55:
            start[var] = b""
        elif r < 0.65 and var in ("CUDA_HOME", "CUDA_PATH"):
            start[var] = rng.choice([t.root for t in bed.targets if t.root])  # a toolkit the user had set
        else:
            start[var] = _hostile(rng, newline)
    for var in LISTS + FLAGS:
        start[var] = _start_list(rng, var, bed, newline)
    for var in RESERVED:
        start[var] = None
    return start


def _edits(rng: random.Random, tag: bytes, tcsh: bool, model: dict[str, bytes | None]) -> list[tuple]:
    out = []
    for k in range(rng.choice([0, 1, 1, 2, 3, 4])):
        var = rng.choice(UNIVERSE)
        cur = model.get(var.encode())
        if tcsh and cur is not None and any(c in cur for c in NEWLINES):
            continue  # tcsh cannot even read such a value back into its own syntax
        mark = tag + b".%d" % k
        if var in LISTS + FLAGS:
            op = "prepend" if var == "PATH" and rng.random() < 0.5 else \
                "append" if var == "PATH" else rng.choice(["prepend", "append", "set", "unset"])
        else:
            op = rng.choice(["set", "set", "unset"])
        if op in ("prepend", "append"):
            value = _entry(rng, SEP[var], not tcsh, b"/u" + mark if SEP[var] == b":" else b"-u" + mark)
        elif op == "set":
            value = _hostile(rng, not tcsh, 4, b"/u" + mark)
        else:
            value = None
        out.append((op, var, value))
        apply_edit(model, (op, var, value))
    return out


def apply_edit(env: dict, edit: tuple) -> None:
    """What a user's edit does, as the shell code :meth:`Syntax.extend`/``set``/``unset`` does it."""
    op, var, value = edit
    key = var.encode()
    if op == "set":
        env[key] = value
    elif op == "unset":
        env.pop(key, None)
    else:
        cur = env.get(key)
        sep = SEP[var]
        if op == "prepend":
            env[key] = value + (sep + cur if cur else b"")
        else:
            env[key] = (cur + sep if cur else b"") + value


def make_trips(rng: random.Random, bed: Bed, shell: str, n: int) -> list[Trip]:
    trips = []
    via_init = False
    for i in range(n):
        fresh = i % CHUNK == 0 or rng.random() < 0.04
        newline = rng.random() < 0.15
        if shell == "tcsh" and newline:
            fresh = True  # only the process environment can hand tcsh a newline
        if fresh:  # a third of the chunks go through the function `cudaenv init` defines
            via_init = shell in INIT_SHELLS and rng.random() < 1 / 3
        start = _start(rng, bed, newline)
        ok = [t for t in bed.targets if t.root]
        # tcsh cannot hold a newline in its own variables: it cannot type such a target.
        bad = [t for t in bed.targets if not t.root and not (shell == "tcsh" and b"\n" in t.word)]
        a = rng.choice(bad) if rng.random() < 0.06 else rng.choice(ok)
        b = a if rng.random() < 0.15 else (rng.choice(bad) if rng.random() < 0.06 else rng.choice(ok))
        model = {k.encode(): v for k, v in start.items() if v is not None}
        e1 = _edits(rng, b"%d.1" % i, shell == "tcsh", model)
        e2 = _edits(rng, b"%d.2" % i, shell == "tcsh", model)
        trips.append(Trip(i, fresh, start, a, b, e1, e2, via_init))
    return trips


# ---------------------------------------------------------------- scripts


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)


def _edit_code(sx: fp.Syntax, vals: str, key: str, edits: list[tuple]) -> str:
    code = ""
    for k, (op, var, value) in enumerate(edits):
        vkey = f"{key}.{k}"
        if value is not None:
            _write(os.path.join(vals, vkey), value)
        if op == "set":
            code += sx.set(var, vkey)
        elif op == "unset":
            code += sx.unset(var)
        else:
            code += sx.extend(var, vkey, SEP[var].decode(), op == "prepend")
    return code


def chunk_script(sx: fp.Syntax, vals: str, trips: list[Trip]) -> str:
    code = sx.prelude()
    call = sx.call
    if trips[0].via_init:
        code += sx.init()
        call = sx.call_fn
    for n, t in enumerate(trips):
        p = f"t{t.index}"
        if n:  # reset in the shell itself: every variable of the universe, cudaenv's own unset
            for var in UNIVERSE + RESERVED:
                v = t.start[var]
                if v is None:
                    code += sx.unset(var)
                else:
                    _write(os.path.join(vals, f"{p}.s.{var}"), v)
                    code += sx.set(var, f"{p}.s.{var}")
        _write(os.path.join(vals, f"{p}.A"), t.a.word)
        _write(os.path.join(vals, f"{p}.B"), t.b.word)
        code += sx.dump(f"{p}.0")
        code += call(["use"], f"{p}.1", f"{p}.A") + sx.dump(f"{p}.1")
        code += _edit_code(sx, vals, f"{p}.e1", t.edits1) + sx.dump(f"{p}.2")
        code += call(["use"], f"{p}.3", f"{p}.B") + sx.dump(f"{p}.3")
        code += _edit_code(sx, vals, f"{p}.e2", t.edits2) + sx.dump(f"{p}.4")
        code += call(["off"], f"{p}.5") + sx.dump(f"{p}.5")
    return code


# ---------------------------------------------------------------- judging


@dataclass
class TripResult:
    shell: str
    index: int
    status: str  # exact | refused | diff | broken
    empty: int = 0  # dumps with an empty list entry cudaenv put there
    detail: list[str] = field(default_factory=list)
    refusals: list[bytes] = field(default_factory=list)
    features: set = field(default_factory=set)


def features(trip: Trip, start: dict) -> set:
    """What a trip exercised (for the coverage table)."""
    f = set()
    if trip.via_init:
        f.add("typed into the `cudaenv init` function")
    if trip.fresh:
        f.add("started from the process environment")
    vals = [v for k, v in start.items() if k.decode() in UNIVERSE]
    if any(b"\n" in v for v in vals):
        f.add("a start value with a newline")
    if any(_not_utf8(v) for v in vals):
        f.add("a start value with non-UTF-8 bytes")
    if any(v == b"" for v in vals):
        f.add("a variable set but empty at the start")
    if any(_empties(start.get(v.encode()), SEP[v]) for v in LISTS + FLAGS if v not in FLAGS):
        f.add("a list with an empty entry of the user's")
    if trip.a.word == trip.b.word:
        f.add("use A twice (A = B)")
    if trip.edits1 or trip.edits2:
        f.add("user edits between the calls")
    if any(op in ("prepend", "append") for op, _v, _x in trip.edits1 + trip.edits2):
        f.add("an entry added by the user while a profile was active")
    if any(op in ("set", "unset") and v in SCALARS for op, v, _x in trip.edits1 + trip.edits2):
        f.add("a variable cudaenv sets, set or unset by the user")
    return f


def _not_utf8(v: bytes) -> bool:
    try:
        v.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def _empties(value: bytes | None, sep: bytes) -> int:
    if not value:
        return 0
    return value.split(sep).count(b"")


def _show(d: dict, k: bytes) -> str:
    v = d.get(k)
    return "unset" if v is None else repr(v)


def judge(shell: str, trip: Trip, out: str) -> TripResult:
    p = os.path.join(out, f"t{trip.index}")
    res = TripResult(shell, trip.index, "exact")
    dumps = [fp.dump_of(f"{p}.{k}.env") for k in range(6)]
    calls = {}
    for k in (1, 3, 5):
        try:
            with open(f"{p}.{k}.r", "rb") as f:
                rc = int(f.read().strip() or b"-1")
            with open(f"{p}.{k}.o", "rb") as f:
                o = f.read()
            with open(f"{p}.{k}.e", "rb") as f:
                e = f.read()
        except (FileNotFoundError, ValueError):
            rc, o, e = None, b"", b""
        calls[k] = (rc, o, e)
    if any(d is None for d in dumps) or any(c[0] is None for c in calls.values()):
        res.status = "broken"
        gone = [k for k, d in enumerate(dumps) if d is None]
        res.detail.append(f"the script stopped before dump {gone[0] if gone else '?'} (or a call left no status)")
        return res
    d0 = dumps[0]
    res.features = features(trip, d0)
    # The user's view at each dump: the start plus the edits made so far.
    m2 = dict(d0)
    for ed in trip.edits1:
        apply_edit(m2, ed)
    m4 = dict(m2)
    for ed in trip.edits2:
        apply_edit(m4, ed)
    models = {1: d0, 2: m2, 3: m2, 4: m4}
    refused = False
    for k, tgt in ((1, trip.a), (3, trip.b), (5, None)):
        rc, o, e = calls[k]
        before, after = dumps[k - 1], dumps[k]
        if b"Traceback" in e:
            res.status = "broken"
            res.detail.append(f"call {k}: a traceback: {e[-300:]!r}")
        if rc == 0:
            if tgt is not None and tgt.root is None:
                res.status = "diff"
                res.detail.append(f"call {k}: use {tgt.word!r} succeeded, a refusal was expected")
            elif tgt is not None:
                got = (after.get(b"CUDA_HOME"), after.get(b"CUDAENV_ACTIVE"))
                if got != (tgt.root, tgt.profile):
                    res.status = "diff"
                    res.detail.append(f"call {k}: use {tgt.word!r} gave CUDA_HOME, CUDAENV_ACTIVE = {got!r}")
            continue
        if trip.via_init and shell == "fish" and not e and not o:
            # fish does not apply a redirection on a function call to the stderr of a command
            # substitution inside it: the function's error went to the shell's own stderr.
            e = b"(on the shell's stderr)\n"
            refused = True
            res.refusals.append(e.strip())
            if after != before:
                res.status = "diff"
                res.detail.append(f"call {k}: refused, but the environment changed")
            continue
        if not fp.one_line_refusal(rc, o, e):
            res.status = "broken"
            res.detail.append(f"call {k}: status {rc} without a one-line refusal: "
                              f"stdout {o[:200]!r} stderr {e[:300]!r}")
            continue
        refused = True
        res.refusals.append(e.strip())
        if not any(x in e for x in EXPECTED_REFUSALS):
            res.status = "diff"
            res.detail.append(f"call {k}: unexpected refusal: {e.strip()!r}")
        if after != before:
            res.status = "diff"
            changed = sorted(x.decode("utf-8", "replace") for x in set(before) | set(after)
                             if before.get(x) != after.get(x))
            res.detail.append(f"call {k}: refused, but the environment changed: {', '.join(changed)}")
    for k in (1, 2, 3, 4):
        for var in LISTS + FLAGS:
            vb = var.encode()
            sep = SEP[var]
            if _empties(dumps[k].get(vb), sep) > _empties(models[k].get(vb), sep):
                res.empty += 1
                res.detail.append(f"dump {k}: {var} has an empty entry: {dumps[k].get(vb)!r}")
    final = dumps[5]
    if final != m4:
        res.status = "diff" if res.status != "broken" else "broken"
        for key in sorted(set(final) | set(m4)):
            if final.get(key) != m4.get(key):
                res.detail.append(f"after off: {key.decode('utf-8', 'replace')} is {_show(final, key)}, "
                                  f"expected {_show(m4, key)}")
    if res.status == "exact" and refused:
        res.status = "refused"
    return res


# ---------------------------------------------------------------- running


def _chunks(trips: list[Trip]) -> list[list[Trip]]:
    out: list[list[Trip]] = []
    for t in trips:
        if t.fresh or not out:
            out.append([])
        out[-1].append(t)
    return out


def _process_env(bed: Bed, trip: Trip) -> dict:
    env = dict(bed.env)
    for var, v in trip.start.items():
        if v is None:
            env.pop(var, None)
        else:
            env[var] = v
    return env


def run_shell(bed: Bed, shell: str, seed: int, n: int, keep_going: bool = True) -> list[TripResult]:
    """``n`` trips in ``shell`` (seeded by ``seed`` and the shell's name)."""
    fp.require(shell)
    rng = random.Random(f"roundtrip:{seed}:{shell}")
    trips = make_trips(rng, bed, shell, n)
    work = os.path.join(bed.root, "rt-" + shell)
    vals, out = os.path.join(work, "vals"), os.path.join(work, "out")
    os.makedirs(vals, exist_ok=True)
    os.makedirs(out, exist_ok=True)
    sx = fp.Syntax(shell, vals, out, bed.exe)
    results: list[TripResult] = []
    for c, chunk in enumerate(_chunks(trips)):
        script = chunk_script(sx, vals, chunk)
        try:
            proc = fp.run_script(shell, script, os.path.join(work, f"chunk{c}.{shell}"), _process_env(bed, chunk[0]),
                                 work, timeout=120 + 10 * len(chunk))
            tail = proc.stderr[-400:]
        except subprocess.TimeoutExpired:
            tail = b"(timed out)"
        for t in chunk:
            r = judge(shell, t, out)
            if r.status == "broken":
                r.detail.append(f"shell stderr tail: {tail!r}")
            results.append(r)
    ran = fp.sentinels(work)
    if ran:
        results.append(TripResult(shell, -1, "diff", detail=[f"EXECUTED: {', '.join(ran)}"]))
    return results


def run(seed: int = 1, trips: int = 2500, shells: tuple[str, ...] = fp.SHELLS, jobs: int = 1,
        root: str | None = None, keep: bool = False) -> tuple[list[TripResult], dict[str, str]]:
    """``trips`` round trips spread over ``shells``; returns the results and the shells that were missing."""
    own = root is None
    root = root or fp.new_root()
    try:
        bed = make_bed(root)
        # Warm the discovery index once, so the first trips do not all pay for it.
        subprocess.run([bed.exe, "list"], env={k: v for k, v in bed.env.items()}, capture_output=True, timeout=120)
        per = {s: trips // len(shells) + (1 if i < trips % len(shells) else 0) for i, s in enumerate(shells)}
        missing: dict[str, str] = {}

        def one(shell: str) -> list[TripResult]:
            try:
                return run_shell(bed, shell, seed, per[shell])
            except fp.Missing as exc:
                missing[shell] = str(exc)
                return []

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = [r for rs in pool.map(one, shells) for r in rs]
        return results, missing
    finally:
        if own and not keep:
            shutil.rmtree(root, ignore_errors=True)


def table(results: list[TripResult], missing: dict[str, str] | None = None) -> str:
    """A markdown table: round trips per shell."""
    rows = ["| shell | trips | exact | refused | diffs | empty-entry violations |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    tot = [0, 0, 0, 0, 0]
    for shell in fp.SHELLS:
        rs = [r for r in results if r.shell == shell and r.index >= 0]
        ex = [r for r in results if r.shell == shell and r.index < 0]
        if not rs and not ex:
            if missing and shell in missing:
                rows.append(f"| {shell} | not installed | | | | |")
            continue
        c = [len(rs), sum(r.status == "exact" for r in rs), sum(r.status == "refused" for r in rs),
             sum(r.status in ("diff", "broken") for r in rs) + len(ex), sum(r.empty > 0 for r in rs)]
        tot = [a + b for a, b in zip(tot, c)]
        rows.append(f"| {shell} | " + " | ".join(f"{x:,}" for x in c) + " |")
    rows.append("| **all** | " + " | ".join(f"**{x:,}**" for x in tot) + " |")
    return "\n".join(rows)


def coverage_table(results: list[TripResult]) -> str:
    """A markdown table: how many trips exercised what, per shell."""
    shells = [s for s in fp.SHELLS if any(r.shell == s for r in results)]
    names: list[str] = []
    for r in results:
        names += [f for f in sorted(r.features) if f not in names]
    rows = ["| trips with | " + " | ".join(shells) + " |", "| --- |" + " ---: |" * len(shells)]
    for n in sorted(names):
        rows.append(f"| {n} | " + " | ".join(
            f"{sum(n in r.features for r in results if r.shell == s):,}" for s in shells) + " |")
    return "\n".join(rows)


def failures(results: list[TripResult], limit: int = 20) -> list[str]:
    """Lines describing the trips that failed (for a report)."""
    out = []
    for r in results:
        if r.status in ("diff", "broken") or r.empty:
            out.append(f"{r.shell} trip {r.index}: {r.status}" + "".join(f"\n    {d}" for d in r.detail[:12]))
    return out[:limit]
