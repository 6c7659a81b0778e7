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
from ..env.ops import Change, Ops
from ..env.plan import Plan, apply, diff, recorded, undo
from ..env.state import ACTIVE_VAR, STATE_VAR, State, decode
from ..errors import CudaenvError
from ..shells import shell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    from ..context import Context

__all__ = [
    "MARK", "HOOK_NAME", "EXTENSIONS", "SAVED_PREFIX", "NONE_TOKEN", "prefix_key", "saved_var",
    "hook_paths", "render_hook", "reapply", "plan_activate", "plan_deactivate", "valid_key",
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


def reapply(env: Mapping[str, str], state: State) -> dict[str, str]:
    """Apply a recorded state's changes again onto ``env`` (the same entries and values).

    Onto the environment the record was taken from (its ``off``), this gives
    back the environment and the record exactly.
    """
    ops = Ops(
        set={var: ours for var, (_prior, ours) in state.scalars.items()},
        prepend={var: pre for var, (_kind, pre, _app) in state.lists.items() if pre},
        append={var: app for var, (_kind, _pre, app) in state.lists.items() if app},
    )
    return apply(env, ops, state.name)


def plan_activate(env: Mapping[str, str], key: str, plan_use_fn) -> Plan:
    """What the activate hook does: save what is active, switch with ``plan_use_fn()``.

    Args:
        env: The environment the hook runs in.
        key: The environment's :func:`prefix_key`.
        plan_use_fn: Returns the ``use`` plan for the hook's target (raises CudaenvError).

    Returns:
        No change when this environment's activation at this level was already
        done (conda sources the outer environment's activate scripts again when
        an environment stacked on it is deactivated).
    """
    var = saved_var(key, env)
    if var in env:
        return Plan([], [])
    notes: list[str] = []
    token = NONE_TOKEN
    if recorded(env, notes, strict=False) is not None and not notes:
        token = env[STATE_VAR]
    plan = plan_use_fn()
    active = env.get(ACTIVE_VAR)
    kept = [n for n in plan.notes if not (active and n == f"{active} is already active")]
    return Plan(plan.changes + [Change("set", var, token)], kept)


def plan_deactivate(env: Mapping[str, str], key: str) -> Plan:
    """What the deactivate hook does: undo what is active, re-apply what was saved.

    Returns:
        No change when nothing was saved at this level (the activation did not
        switch: cudaenv failed then, or the hook was installed after it).
    """
    var = saved_var(key, env)
    token = env.get(var)
    if token is None:
        return Plan([], [])
    notes: list[str] = []
    cur = recorded(env, notes, strict=False)
    base = undo(env, cur, notes) if cur is not None else dict(env)
    order = []
    if cur is not None:
        order = list(cur.scalars) + list(cur.lists)
    final = base
    if token != NONE_TOKEN:
        try:
            prev = decode(token)
            final = reapply(base, prev)
        except CudaenvError as exc:
            notes.append(f"cannot restore the CUDA setup saved in {var} ({exc.message}); leaving none active")
        else:
            order += [v for v in list(prev.scalars) + list(prev.lists) if v not in order]
    final.pop(var, None)
    return Plan(diff(env, final, order + [ACTIVE_VAR, STATE_VAR, var]), notes)


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
    try:
        with open(path, "rb") as f:
            first = f.readline(200)
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
    import shutil

    argv0 = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(argv0) == "cudaenv" and os.path.isfile(argv0) and os.access(argv0, os.X_OK):
        return os.path.abspath(argv0)
    found = shutil.which("cudaenv", path=env.get("PATH", os.defpath))
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
            does not resolve, or a write failed (then nothing was replaced).
    """
    from ..profiles.resolve import resolve_target

    path = find_prefix(prefix, ctx.env)
    if "/" in target:
        target = os.path.abspath(os.path.expanduser(target))
    notes: list[str] = []
    profile, tk = resolve_target(ctx, target, notes)
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
