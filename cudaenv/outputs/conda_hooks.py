"""conda activation hooks: activating an environment switches CUDA, deactivating gives it back.

``cudaenv conda-hook install X [--prefix P]`` writes ``~~cudaenv.sh``, ``.csh``
and ``.fish`` into ``P/etc/conda/activate.d/`` and ``deactivate.d/``. conda
(and mamba, micromamba, pixi: anything that sources those directories)
sources the file for the user's shell on every activation and deactivation.

The files are thin. Everything is computed here, in Python, by two hidden
commands the hooks run, whose output the hook evaluates:

* ``cudaenv conda-hook _activate --shell S -- KEY TARGET`` saves what cudaenv
  state was active (the whole ``_CUDAENV_STATE`` record, or ``-`` for none) in
  ``_CUDAENV_CONDA_<KEY>_<CONDA_SHLVL>`` and switches to TARGET, in one
  emission: ``use`` after another ``use`` is a switch.
* ``cudaenv conda-hook _deactivate --shell S -- KEY`` takes back whatever is
  active (as ``off`` does: only cudaenv's own entries, prior values restored),
  then re-applies the saved record *as recorded* (same entries, same values:
  no profile is resolved again) and unsets the variable. So deactivating an
  environment stacked on another gives back the outer one's CUDA exactly,
  whether the outer one came from its own hook or from a ``cudaenv use`` typed
  by hand. Re-applying a record onto the environment it was taken from yields
  the same environment and the same record, byte for byte.

Why the saved variable is keyed on the prefix *and* ``CONDA_SHLVL``: when the
inner environment of a stack is deactivated, conda sources the outer
environment's activate scripts again (``build_deactivate``). The outer hook
then finds its own variable for that level already set and does nothing, so
what the inner deactivate hook restored stays as it is. A prefix stacked on
itself (``--stack`` twice) gets one variable per level. conda exports the new
``CONDA_SHLVL`` before it sources activate scripts and after it sources
deactivate scripts, so both hooks of one activation see the same level.

Where the toolkit's ``bin`` goes: right behind the environment's own
(``$CONDA_PREFIX/bin``), not in front of it. conda's non-stacked switch to
another environment replaces the old environment's ``bin`` in place in a PATH
it computed before the deactivate hooks ran; an environment without cudaenv
hooks runs none after it, so a toolkit ``bin`` in front would shadow the new
environment's own commands (its ``nvcc``) while CUDA_HOME is already given
back. Behind the environment's ``bin`` it stays behind the new one's. The
saved record remembers where the entries sat (:func:`anchor_of`), so a
deactivation puts them back exactly there.

conda's reactivation (after ``conda install`` in the environment, or ``conda
activate`` of the active one) and a non-stacked switch source the deactivate
scripts and then export a PATH computed before them. The deactivate hook sees
that case (``$CONDA_PREFIX/bin`` is still on PATH; a plain deactivation
exports its PATH first) and leaves what it did to PATH in
:data:`PATH_FIX_VAR`; the next cudaenv hook does it again to the PATH it finds
(:func:`replay_path_fix`) and unsets it. An outer environment's activate hook
run again after a stacked deactivation puts back cudaenv's values that conda's
own variables (``conda env config vars``) overwrote then (:func:`reassert`).

The hooks never exit, return or define functions, read only their own
variables (``set -u``), run nothing that can fail outside an ``if`` (``set
-e``), and unset their variables. When cudaenv is missing or fails they say
so on stderr and change nothing. csh runs cudaenv through ``sh -c`` so that
no csh command fails, even under ``tcsh -e``; it sources the output from a
temporary file because backquotes in csh re-expand what they capture.

Ownership: each file starts with :data:`MARK`. ``install`` overwrites only
files that carry it and ``remove`` deletes only those; any other file at
those paths is an error, and nothing is written or deleted then.
"""

from __future__ import annotations

import os
import sys

from ..infra.atomic import commit, discard, stage_text
from ..env.ops import Change, apply_changes
from ..env.pathlist import join, separator, split, which
from ..env.plan import Plan, diff, reapply, recorded, undo
from ..env.state import ACTIVE_VAR, STATE_VAR, State, decode, decode_value, encode_value
from ..errors import CudaenvError
from ..shells import shell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..context import Context

__all__ = [
    "MARK", "HOOK_NAME", "EXTENSIONS", "SAVED_PREFIX", "NONE_TOKEN", "PATH_FIX_VAR", "prefix_key", "saved_var",
    "anchor_of", "place_behind",
    "hook_paths", "render_hook", "reassert", "replay_path_fix", "plan_activate", "plan_deactivate", "valid_key",
    "find_prefix", "find_exe", "is_ours", "Installed", "install_hooks", "remove_hooks",
]

# The first line of every file cudaenv writes; `remove` deletes only files that start with it.
MARK = "# cudaenv-conda-hook 1"
# conda sources activate.d in sorted order and deactivate.d in reverse: '~' sorts after
# letters, digits and the '~cuda-nvcc_…' scripts, so ours switches last and restores first.
HOOK_NAME = "~~cudaenv"
# conda's script extension for each shell family, and the --shell the hook asks for.
EXTENSIONS = {"sh": "sh", "csh": "tcsh", "fish": "fish"}
SAVED_PREFIX = "_CUDAENV_CONDA_"
NONE_TOKEN = "-"  # saved when no cudaenv profile was active
# What a deactivate hook did to PATH, left for the next hook when conda is about to export a PATH
# it computed before the deactivate hooks ran (reactivation, a non-stacked switch).
PATH_FIX_VAR = SAVED_PREFIX + "PATH"
_FIX_FORMAT = "p1"
_TMP_PREFIX = ".cudaenv-hook-"


def prefix_key(prefix: str) -> str:
    """The variable-name key of an environment: its name (letters, digits) and a hash of its path."""
    import hashlib

    path = os.path.abspath(prefix)
    digest = hashlib.sha256(os.fsencode(path)).hexdigest()[:8]
    name = "".join(c if c.isascii() and c.isalnum() else "_" for c in os.path.basename(path.rstrip("/")))[:24]
    return f"{name.strip('_') or 'env'}_{digest}"


def _level(env: Mapping[str, str]) -> str:
    lvl = env.get("CONDA_SHLVL", "").strip()
    return lvl if lvl and lvl.isascii() and lvl.isdigit() else "0"


def saved_var(key: str, env: Mapping[str, str]) -> str:
    """The variable holding what was active before this environment's activation, at this level."""
    return f"{SAVED_PREFIX}{key}_{_level(env)}"


def valid_key(key: str) -> bool:
    """True for a key :func:`prefix_key` could have made (it becomes part of a variable name)."""
    return bool(key) and all(c.isascii() and (c.isalnum() or c == "_") for c in key)


# --------------------------------------------------------------------------- planning (pure)


def _env_bins(env: Mapping[str, str]) -> set[str]:
    """The ``bin`` of every conda environment ``env`` names: the active one and those below it."""
    return {os.path.join(v, "bin") for k, v in env.items()
            if v and (k == "CONDA_PREFIX" or (k.startswith("CONDA_PREFIX_") and k[13:].isdigit()))}


def _path_pre(state: State | None) -> list[str]:
    return state.lists.get("PATH", ("v", [], []))[1] if state is not None else []


def anchor_of(env: Mapping[str, str], state: State | None) -> str | None:
    """The bin of an environment below the active one that ``state``'s PATH entries sit right behind.

    The active environment's own bin does not count: conda has just put it in
    front of whatever was there (a profile switched to by hand before it).
    """
    pre = _path_pre(state)
    entries = split(env.get("PATH", ""))
    if not pre or pre[0] not in entries:
        return None
    i = entries.index(pre[0])
    bins = _env_bins(env) - ({os.path.join(env["CONDA_PREFIX"], "bin")} if env.get("CONDA_PREFIX") else set())
    return entries[i - 1] if i > 0 and entries[i - 1] in bins else None


def place_behind(env: Mapping[str, str], pre: list[str], anchor: str | None) -> dict[str, str]:
    """``env`` with the PATH entries ``pre`` that are in front of ``anchor`` moved right behind it.

    ``apply`` puts a record's entries in front of PATH; this puts them where
    the record had them (nothing moves when ``anchor`` is not on PATH).
    """
    out = dict(env)
    entries = split(out.get("PATH", ""))
    if not anchor or not pre or anchor not in entries or anchor in pre:
        return out
    moved = [e for e in pre if e in entries and entries.index(e) < entries.index(anchor)]
    for e in moved:
        entries.remove(e)  # the first occurrence: the copy in front of the anchor
    i = entries.index(anchor) + 1
    entries[i:i] = moved
    out["PATH"] = join(entries)
    return out


def _token(env: Mapping[str, str]) -> str:
    """What the activate hook saves: the active record (``@ANCHOR RECORD`` when it sits behind an
    environment's bin), or :data:`NONE_TOKEN`."""
    seen: list[str] = []
    state = recorded(env, seen, strict=False)
    if state is None or seen:
        return NONE_TOKEN
    anchor = anchor_of(env, state)
    return env[STATE_VAR] if anchor is None else f"@{encode_value(anchor)} {env[STATE_VAR]}"


def _untoken(token: str) -> tuple[State, str | None]:
    """(record, anchor) of a saved token (CudaenvError if unreadable)."""
    anchor = None
    if token.startswith("@"):
        text, sep, token = token[1:].partition(" ")
        anchor = decode_value(text)
        if not sep or not anchor or ":" in anchor or "\n" in anchor:
            raise CudaenvError("the saved PATH position is unreadable")
    return decode(token), anchor


def _entries(text: str) -> list[str]:
    return [decode_value(e) for e in text.split("|")] if text else []


def _fix_steps(text: str) -> list[list[list[str]]]:
    """The steps of a :data:`PATH_FIX_VAR` value (ValueError if it is not one)."""
    parts = text.split(";")
    if parts[0] != _FIX_FORMAT:
        raise ValueError("unknown format")
    steps = []
    for part in parts[1:]:
        fields = part.split(",")
        if len(fields) not in (4, 5):  # took in front, took at the end, put in front, put at the end[, anchor]
            raise ValueError("bad step")
        step = [_entries(f) for f in fields] + ([[]] if len(fields) == 4 else [])
        if len(step[4]) > 1:
            raise ValueError("bad anchor")
        for e in (e for lst in step for e in lst):
            # They go back into PATH: never an empty entry (the current directory) or one PATH cannot hold.
            if not e or ":" in e or "\n" in e:
                raise ValueError(f"bad entry {e!r}")
        steps.append(step)
    return steps


def replay_path_fix(env: Mapping[str, str], notes: list[str]) -> dict[str, str]:
    """``env`` with what :data:`PATH_FIX_VAR` records done again to PATH, and the variable gone.

    Each step is what one deactivate hook did to PATH: the entries it took out
    (the first occurrence of each prepended one, the last of each appended
    one, as ``undo`` takes them) and the entries it put back (in front and at
    the end, as ``apply`` does). Replayed onto the PATH conda exports after the
    deactivate hooks, which it computed before them, this gives the PATH the
    hooks left, with conda's own change (its prefix's ``bin``) kept.
    """
    out = dict(env)
    text = out.pop(PATH_FIX_VAR, None)
    if text is None:
        return out
    try:
        steps = _fix_steps(text)
    except (ValueError, IndexError, UnicodeDecodeError):
        notes.append(f"ignoring {PATH_FIX_VAR}: not written by this version of cudaenv")
        return out
    if "PATH" not in out:
        return out
    entries = split(out["PATH"])
    for took_pre, took_app, put_pre, put_app, anchor in steps:
        for e in took_pre:
            if e in entries:
                entries.remove(e)
        for e in took_app:
            for i in range(len(entries) - 1, -1, -1):
                if entries[i] == e:
                    del entries[i]
                    break
        entries = put_pre + entries + put_app
        if anchor:
            entries = split(place_behind({"PATH": join(entries)}, put_pre, anchor[0])["PATH"])
    if entries:  # never an empty PATH (a single empty entry: the current directory)
        out["PATH"] = join(entries)
    return out


def _fix_step(took: State | None, put: State | None, anchor: str | None = None) -> str | None:
    """One step of :data:`PATH_FIX_VAR`: PATH entries of ``took`` taken out, of ``put`` put back
    (behind ``anchor``, when on PATH)."""
    _k, tp, ta = took.lists.get("PATH", ("v", [], [])) if took is not None else ("v", [], [])
    _k, pp, pa = put.lists.get("PATH", ("v", [], [])) if put is not None else ("v", [], [])
    if not (tp or ta or pp or pa):
        return None
    lists = (tp, ta, pp, pa) + (([anchor],) if anchor and pp else ())
    return ",".join("|".join(encode_value(e) for e in lst) for lst in lists)


def _path_reexported(env: Mapping[str, str]) -> bool:
    """True when conda will export, after this deactivate hook, a PATH it computed before it.

    conda's plain deactivation exports PATH *before* the deactivate scripts,
    with the environment's ``bin`` taken out; its reactivation and a
    non-stacked switch (``build_reactivate``, ``_build_activate_stack``; and
    rattler's switch) source them while that ``bin`` is still on PATH and
    export their PATH after them.
    """
    prefix = env.get("CONDA_PREFIX")
    return bool(prefix) and os.path.join(prefix, "bin") in split(env.get("PATH", ""))


def reassert(env: Mapping[str, str], state: State) -> dict[str, str]:
    """``env`` with the values ``state`` records as cudaenv's put back where they are missing.

    Between the deactivate hook of an environment stacked on this one and this
    environment's activate hook, which conda runs again then, conda exports
    this environment's own variables (``conda env config vars``) once more; one
    of them may be a variable the record sets (``CUDA_HOME``) or extends. The
    deactivate hook had left exactly the record's values: a scalar that differs
    is set back, list entries that are gone are put back in front (prepended)
    or at the end (appended). The record itself is unchanged.
    """
    out = dict(env)
    for var, (_prior, ours) in state.scalars.items():
        if out.get(var) != ours:
            out[var] = ours
    for var, (_kind, pre, app) in state.lists.items():
        sep = separator(var)
        entries = split(out.get(var) or "", sep)
        lost_pre = [e for e in pre if e not in entries]
        lost_app = [e for e in app if e not in entries]
        if lost_pre or lost_app:
            out[var] = join(lost_pre + entries + lost_app, sep)
    return out


def plan_activate(env: Mapping[str, str], key: str, plan_use_fn) -> Plan:
    """What the activate hook does: save what is active, switch with ``plan_use_fn(env)``.

    Args:
        env: The environment the hook runs in.
        key: The environment's :func:`prefix_key`.
        plan_use_fn: Returns the ``use`` plan for the hook's target in the
            environment it is given (raises CudaenvError).

    Returns:
        When this environment's activation at this level was already done
        (conda sources the outer environment's activate scripts again when an
        environment stacked on it is deactivated), only the PATH repair of
        :func:`replay_path_fix` and :func:`reassert` of the active record.
    """
    notes: list[str] = []
    fixed = replay_path_fix(env, notes)
    var = saved_var(key, fixed)
    order = ["PATH", PATH_FIX_VAR]
    if var in fixed:
        cur = recorded(fixed, [], strict=False)
        final = reassert(fixed, cur) if cur is not None else fixed
        return Plan(diff(env, final, order), notes)
    token = _token(fixed)
    plan = plan_use_fn(fixed)
    active = fixed.get(ACTIVE_VAR)
    kept = [n for n in plan.notes if not (active and n == f"{active} is already active")]
    final = apply_changes(fixed, plan.changes + [Change("set", var, token)])
    prefix = fixed.get("CONDA_PREFIX")
    if prefix and STATE_VAR in final:
        # Behind the environment's own bin (module docstring: a switch to an environment without hooks).
        final = place_behind(final, _path_pre(recorded(final, [], strict=False)), os.path.join(prefix, "bin"))
    names = [c.name for c in plan.changes]
    return Plan(diff(env, final, names + [n for n in order if n not in names] + [var]), notes + kept)


def plan_deactivate(env: Mapping[str, str], key: str) -> Plan:
    """What the deactivate hook does: undo what is active, re-apply what was saved.

    When conda is about to export a PATH it computed before this hook
    (:func:`_path_reexported`), what the hook did to PATH is left in
    :data:`PATH_FIX_VAR` for the activate hook that follows.

    Returns:
        Only the PATH repair of :func:`replay_path_fix` when nothing was saved
        at this level (the activation did not switch: cudaenv failed then, or
        the hook was installed after it).
    """
    notes: list[str] = []
    fixed = replay_path_fix(env, notes)
    var = saved_var(key, fixed)
    token = fixed.get(var)
    final = fixed
    order = ["PATH"]
    cur = prev = anchor = None
    if token is not None:
        cur = recorded(fixed, notes, strict=False)
        final = undo(fixed, cur, notes) if cur is not None else dict(fixed)
        if cur is not None:
            order = list(cur.scalars) + list(cur.lists)
        if token != NONE_TOKEN:
            try:
                prev, anchor = _untoken(token)
                final = place_behind(reapply(final, prev), _path_pre(prev), anchor)
            except CudaenvError as exc:
                prev = None
                notes.append(f"cannot restore the CUDA setup saved in {var} ({exc.message}); leaving none active")
            else:
                order += [v for v in list(prev.scalars) + list(prev.lists) if v not in order]
        final.pop(var, None)
    if _path_reexported(env):
        # conda then exports PATH as it was before this hook, the fixes still pending included:
        # the next hook does again what was pending, then what this hook did.
        pending = env.get(PATH_FIX_VAR, _FIX_FORMAT)
        try:
            _fix_steps(pending)
        except (ValueError, IndexError, UnicodeDecodeError):
            pending = _FIX_FORMAT  # not readable: noted, dropped
        step = _fix_step(cur, prev, anchor)
        if step or pending != _FIX_FORMAT:
            final[PATH_FIX_VAR] = pending + (";" + step if step else "")
    return Plan(diff(env, final, order + [ACTIVE_VAR, STATE_VAR, var, PATH_FIX_VAR]), notes)


# --------------------------------------------------------------------------- the files


def hook_paths(prefix: str) -> list[tuple[str, str, str]]:
    """(kind, extension, path) of every file cudaenv writes into ``prefix``."""
    out = []
    for kind in ("activate", "deactivate"):
        for ext in EXTENSIONS:
            out.append((kind, ext, os.path.join(prefix, "etc", "conda", f"{kind}.d", f"{HOOK_NAME}.{ext}")))
    return out


def _env_label(prefix: str) -> str:
    name = os.path.basename(os.path.abspath(prefix).rstrip("/"))
    if name and all(c.isascii() and (c.isalnum() or c in "._-") for c in name):
        return name
    return "this environment"


def _header(kind: str, ext: str, prefix: str) -> str:
    what = ("switches CUDA with `cudaenv use` (the target is the last word of the command below)"
            if kind == "activate" else
            "gives back the CUDA setup that was active before this environment's activation")
    return (
        f"{MARK} {kind} {ext}\n"
        "# Written by `cudaenv conda-hook install`; `cudaenv conda-hook remove` deletes it.\n"
        f"# conda sources it at every {kind} of {_env_label(prefix)}: it {what}.\n"
        "# It never exits, returns or fails (set -e, set -u), and leaves only what cudaenv prints:\n"
        "# when cudaenv is missing or fails, it says so on stderr and changes nothing.\n"
    )


def render_hook(kind: str, ext: str, prefix: str, key: str, exe: str | None, target: str | None = None) -> str:
    """The text of one hook file.

    Args:
        kind: ``activate`` or ``deactivate``.
        ext: ``sh``, ``csh`` or ``fish``.
        prefix: The environment (for the header and warning only).
        key: :func:`prefix_key` of the environment.
        exe: Absolute path of the cudaenv to run, or None (``cudaenv`` on PATH only).
        target: What to ``use`` (activate only).

    Raises:
        CudaenvError: a value holds a newline (no shell here can take it).
    """
    if not valid_key(key):
        raise CudaenvError(f"invalid hook key {key!r}", exit_code=2)
    for value in (exe or "", target or "", prefix):
        if "\n" in value or "\r" in value:
            raise CudaenvError(f"cannot write a conda hook for {value!r}: it contains a newline", exit_code=2)
    words = ["conda-hook", f"_{kind}", "--shell", EXTENSIONS[ext], "--", key]
    if kind == "activate":
        assert target is not None
        words.append(target)
    # Plain ASCII, no quote, '!' or backslash: it goes into sh, fish and csh alike.
    msg = f"cudaenv: conda {kind} hook of {_env_label(prefix)} failed; CUDA environment left as it was"
    return _header(kind, ext, prefix) + shell(EXTENSIONS[ext]).conda_hook(words, exe, msg)


def is_ours(path: str) -> bool:
    """True if ``path`` is a file cudaenv wrote: its first line is ``# cudaenv-conda-hook N ...``.

    Any format number N counts, so a later cudaenv can replace or remove older hooks.
    """
    from ..infra.files import read_limited

    try:
        # Never blocks (a FIFO in the hook's place) and never reads a device without end.
        first = read_limited(path, 200).split(b"\n", 1)[0]
    except OSError:
        return False
    stem = MARK.rsplit(" ", 1)[0].encode() + b" "
    return first.startswith(stem) and first[len(stem):].split(b" ", 1)[0].strip().isdigit()


def find_prefix(prefix: str | None, env: Mapping[str, str]) -> str:
    """The environment to act on: ``prefix``, else ``$CONDA_PREFIX``.

    Raises:
        CudaenvError: neither is given, or it is not a conda environment.
    """
    if not prefix:
        prefix = env.get("CONDA_PREFIX") or None
        if not prefix:
            raise CudaenvError("no conda environment named and none is active (CONDA_PREFIX is not set)",
                               hint="pass --prefix /path/to/env, or activate it first", exit_code=2)
    path = os.path.abspath(os.path.expanduser(prefix))
    if not os.path.isdir(path):
        raise CudaenvError(f"{path} is not a directory", exit_code=2)
    if not os.path.isdir(os.path.join(path, "conda-meta")):
        raise CudaenvError(f"{path} is not a conda environment (it has no conda-meta/)", exit_code=2)
    return path


def find_exe(env: Mapping[str, str], argv0: str | None = None) -> str | None:
    """The absolute path of the running cudaenv command, else the one on PATH, else None."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(argv0) == "cudaenv" and os.path.isfile(argv0) and os.access(argv0, os.X_OK):
        return os.path.abspath(argv0)
    found = which("cudaenv", env.get("PATH"))
    return os.path.abspath(found) if found else None


class Installed:
    """What ``install_hooks``/``remove_hooks`` did.

    Attributes:
        prefix: The environment.
        paths: Files written or deleted.
        exe: The cudaenv the hooks run first (None: only ``cudaenv`` on PATH).
        notes: Messages for stderr.
        profile: The profile the target resolves to now (install only).
        root: Its toolkit root (install only).
    """

    def __init__(self, prefix: str, paths: list[str], exe: str | None, notes: list[str],
                 profile: str | None = None, root: str | None = None) -> None:
        self.prefix, self.paths, self.exe, self.notes = prefix, paths, exe, notes
        self.profile, self.root = profile, root


def _is_activate(path: str) -> bool:
    return os.path.basename(os.path.dirname(path)) == "activate.d"


def _foreign(paths: list[str]) -> list[str]:
    return [p for p in paths if os.path.lexists(p) and not is_ours(p)]


def _check_exe(exe: str, key: str, env: Mapping[str, str]) -> None:
    """Run the recorded cudaenv as a deactivate hook would (with nothing saved, it prints nothing).

    Catches an older or broken cudaenv now rather than at every activation.
    """
    from ..infra.run import run

    probe_env = {k: v for k, v in env.items() if not k.startswith(SAVED_PREFIX)}
    res = run([exe, "conda-hook", "_deactivate", "--shell", "sh", "--", key], env=probe_env, timeout=60)
    if res.returncode != 0 or res.stdout.strip():
        why = (res.stderr.strip().splitlines() or [f"exit status {res.returncode}"])[-1]
        raise CudaenvError(f"{exe} cannot run the conda hooks: {why}",
                           hint="run `conda-hook install` with the cudaenv the hooks should use (by its full path)")


def install_hooks(ctx: Context, target: str, prefix: str | None, exe: str | None = None) -> Installed:
    """Write the six hook files into an environment.

    The target must resolve now (it is resolved again at each activation, as
    ``use`` would). A target that is a path is stored as an absolute path.
    Everything is staged first; deactivate hooks are renamed into place
    before activate hooks, so no activation can switch without a way back.

    Raises:
        CudaenvError: no or bad prefix, a foreign file in the way, the target
            does not resolve or `use` could not switch to it, or a write failed
            (then nothing was replaced).
    """
    from ..profiles.resolve import resolve_target

    path = find_prefix(prefix, ctx.env)
    if "/" in target:
        target = os.path.abspath(os.path.expanduser(target))
    notes: list[str] = []
    profile, tk = resolve_target(ctx, target, notes)
    # Every activation plans `use` for this target: refuse now what `use` would refuse then (a root
    # no PATH-like list can hold, ...), instead of hooks that only ever warn and switch nothing.
    from ..env.plan import plan_use
    from ..profiles.model import use_ops

    plan_use(ctx.env, use_ops(ctx, profile, tk, []), profile["name"])
    exe = exe or find_exe(ctx.env)
    key = prefix_key(path)
    if exe is None:
        notes.append("no cudaenv command found to record; the hooks will run `cudaenv` from PATH")
    else:
        _check_exe(exe, key, ctx.env)
    files = [(p, render_hook(kind, ext, path, key, exe, target if kind == "activate" else None))
             for kind, ext, p in hook_paths(path)]
    bad = _foreign([p for p, _ in files])
    if bad:
        raise CudaenvError(f"{bad[0]} was not written by cudaenv; not overwriting it",
                           hint="move it away, or install into another environment", exit_code=1)
    umask = os.umask(0o022)
    os.umask(umask)
    staged: list[tuple[str, str]] = []
    current = path
    try:
        for p, text in sorted(files, key=lambda f: _is_activate(f[0])):  # deactivate.d first
            current = p
            os.makedirs(os.path.dirname(p), exist_ok=True)
            staged.append((stage_text(p, text, 0o666 & ~umask, prefix=_TMP_PREFIX), p))
    except OSError as exc:
        discard(staged)
        raise CudaenvError(f"cannot write {current}: {exc.strerror or exc}") from None
    commit(staged)
    if ctx.env.get("CONDA_PREFIX") and os.path.abspath(ctx.env["CONDA_PREFIX"]) == path:
        notes.append("this environment is active: the hooks take effect at its next activation")
    own = os.path.join(path, "bin", "nvcc")
    if os.path.isfile(own) and os.access(own, os.X_OK):
        # The hooks put the toolkit's bin behind the environment's own (conda's promise), so this
        # nvcc runs while CUDA_HOME names the toolkit: say it now, not at the first odd build.
        notes.append(f"{own} comes before {tk['root']}/bin on PATH once activated (an environment's "
                     "own commands come first): `nvcc` will be the environment's while CUDA_HOME is "
                     f"{tk['root']}; remove the environment's nvcc package to build with the toolkit's")
    written = sorted((p for p, _ in files), key=_is_activate)
    return Installed(path, written, exe, notes, profile["name"], tk["root"])


def remove_hooks(ctx: Context, prefix: str | None) -> Installed:
    """Delete the hook files cudaenv wrote into an environment.

    Activate hooks go first, so no activation can switch without a way back.

    Raises:
        CudaenvError: no or bad prefix, or a file at a hook's path was not
            written by cudaenv (then nothing is deleted).
    """
    path = find_prefix(prefix, ctx.env)
    paths = [p for _k, _e, p in hook_paths(path)]
    bad = _foreign(paths)
    if bad:
        raise CudaenvError(f"{bad[0]} was not written by cudaenv; not deleting it", exit_code=1)
    present = sorted((p for p in paths if os.path.lexists(p)), key=lambda p: not _is_activate(p))
    notes: list[str] = []
    for p in present:
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise CudaenvError(f"cannot delete {p}: {exc.strerror or exc}") from None
    if not present:
        notes.append(f"no cudaenv hooks in {path}")
    key = prefix_key(path)
    if present and any(k.startswith(f"{SAVED_PREFIX}{key}_") for k in ctx.env):
        notes.append("this environment is active and its hook switched CUDA; deactivating will no longer "
                     "switch back: `cudaenv off` undoes the switch")
    return Installed(path, present, None, notes)
