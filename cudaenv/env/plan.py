"""The pure planner: (ops, environment, recorded state) -> changes.

``use`` first takes back whatever an active profile did, then applies the new
profile to that clean base, and emits only the difference to the current
environment as whole values. So ``use B`` after ``use A`` equals ``use B`` from
clean, ``use A`` twice changes nothing, and ``off`` returns the environment
the user had, with entries they added since kept.
"""

from __future__ import annotations

from os import defpath

from ..errors import CudaenvError
from .ops import Change, Ops, valid_name
from .pathlist import DEFAULT_PATH, ccbin_unit, check_entry, dangling, dedupe, is_flag_list, join, separator, split, units
from .state import ACTIVE_VAR, STATE_VAR, State, decode, encode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

__all__ = ["Plan", "apply", "undo", "reapply", "plan_use", "plan_off", "plan_repair", "diff", "recorded"]

_RESERVED = (STATE_VAR, ACTIVE_VAR)
# Linux's MAX_ARG_STRLEN: one "NAME=value" string of the environment, NUL included. A longer
# one makes every later exec of the shell fail ("Argument list too long").
MAX_VAR_BYTES = 131072


class Plan:
    """The result of planning: changes to emit and notes for stderr.

    Attributes:
        changes: :class:`~cudaenv.env.ops.Change` records in order (plain
            ``("set", NAME, VALUE)`` / ``("unset", NAME)`` tuples are converted).
        notes: Human messages (stderr only).
        path_changed: True when PATH changes (shells must forget hashed commands).
        subject: What the plan switches to, for messages: (profile name, CUDA
            version, toolkit root), or None.
    """

    __slots__ = ("changes", "notes", "path_changed", "subject")

    def __init__(self, changes: list[Change] | list[tuple[str, ...]], notes: list[str], subject: tuple[str, str, str] | None = None) -> None:
        self.changes = [c if type(c) is Change else Change(*c) for c in changes]
        for c in self.changes:
            # Every output writes names unquoted (`export NAME=...`): the last line of defence.
            if not valid_name(c.name):
                raise CudaenvError(f"refusing to change the variable {c.name!r}: not a valid name", exit_code=2)
            if c.op == "set" and c.value is not None and (len(c.name) + 2 + 4 * len(c.value) > MAX_VAR_BYTES  # cheap test first
                                  and len(c.name) + 2 + len(c.value.encode("utf-8", "surrogateescape"))
                                  > MAX_VAR_BYTES):
                raise CudaenvError(
                    f"refusing to set {c.name}: {len(c.value.encode('utf-8', 'surrogateescape'))} bytes is over the "
                    f"kernel's limit for one variable ({MAX_VAR_BYTES}); every later command would fail "
                    "with 'Argument list too long'",
                    hint=f"shorten {c.name}" + (" (`cudaenv off` first)" if c.name == STATE_VAR else ""),
                    exit_code=2)
        self.notes = notes
        self.path_changed = any(c.name == "PATH" for c in self.changes)
        self.subject = subject


def _check_ops(ops: Ops) -> None:
    for var in ops.names():
        if not valid_name(var) or var in _RESERVED:
            raise CudaenvError(f"a profile cannot change variable {var!r}", exit_code=2)
        if var in ops.set and (var in ops.prepend or var in ops.append):
            raise CudaenvError(f"a profile both sets and extends {var}; choose one", exit_code=2)


def apply(env: Mapping[str, str], ops: Ops, name: str, node: str | None = None) -> dict[str, str]:
    """Apply ``ops`` to a clean environment, recording what was done (and ``node``, where it was planned).

    Returns:
        A new mapping, including ``CUDAENV_ACTIVE`` and ``_CUDAENV_STATE``.
    """
    _check_ops(ops)
    out = dict(env)
    st = State(name, node=node, bound=[v for v in ops.bound if v in ops.set] if node is not None else None)
    for var, value in ops.set.items():
        st.scalars[var] = (env.get(var), value)
        out[var] = value
    for var in ops.names():
        if var in ops.set:
            continue
        if is_flag_list(var):
            pre, app = _flag_entries(var, ops.prepend.get(var, []), ops.append.get(var, []))
        else:
            pre = dedupe(ops.prepend.get(var, []))
            app = [e for e in dedupe(ops.append.get(var, [])) if e not in pre]
        if not pre and not app:
            continue
        for e in pre + app:
            check_entry(var, e)
        sep = separator(var)
        cur = env.get(var)
        kind = "u" if cur is None else ("e" if cur == "" else "v")
        if var == "PATH" and cur is None:
            # A PATH absent from the environment is the shell's own (not exported) or none, not
            # "nothing": start from the default search path, so the shell still finds ls; "d" gives
            # back absent on off (each shell's `unset PATH` then leaves it a default of its own).
            kind, cur = "d", DEFAULT_PATH
        out[var] = join(pre + split(cur or "", sep) + app, sep)
        st.lists[var] = (kind, pre, app)
    out[ACTIVE_VAR] = name
    out[STATE_VAR] = encode(st)
    return out


def _flag_entries(var: str, pre: list[str], app: list[str]) -> tuple[list[str], list[str]]:
    """A flag list's words to prepend and append, repeated units dropped (``-Xcompiler A -Xcompiler B`` stays)."""
    for words in (pre, app):
        opt = dangling(words)
        if opt is not None:
            raise CudaenvError(f"a profile's {var} ends with {opt}, which needs a value after it", exit_code=2)
    pu = dedupe(units(pre))
    au = [u for u in dedupe(units(app)) if u not in pu]
    return [w for u in pu for w in u], [w for u in au for w in u]


def _take_flags(cur: str, pre: list[str], app: list[str]) -> list[str]:
    """The words of flag list ``cur`` left once the units of ``pre`` / ``app`` are taken out.

    A unit (``-ccbin X``: an option and its value) comes out only where it stands
    intact as a unit of ``cur``: a user who changed our ``-ccbin X`` to
    ``-ccbin Y`` keeps both words, never loses the ``-ccbin``.
    """
    have = units(split(cur, " "))
    for u in units(pre):
        if u in have:
            have.remove(u)
    for u in reversed(units(app)):
        for i in range(len(have) - 1, -1, -1):
            if have[i] == u:
                del have[i]
                break
    return [w for u in have for w in u]


def _remove_first(entries: list[str], e: str) -> None:
    if e in entries:
        entries.remove(e)


def _remove_last(entries: list[str], e: str) -> None:
    for i in range(len(entries) - 1, -1, -1):
        if entries[i] == e:
            del entries[i]
            return


def undo(env: Mapping[str, str], state: State, notes: list[str] | None = None) -> dict[str, str]:
    """Take back exactly what ``state`` records, on a copy of ``env``.

    A scalar the user changed after ``use`` is left as the user set it (with a
    note); list entries the user added since are kept.
    """
    out = dict(env)
    for var, (prior, ours) in state.scalars.items():
        cur = out.get(var)
        if cur == ours:
            if prior is None:
                out.pop(var, None)
            else:
                out[var] = prior
        elif notes is not None:
            shown = "unset" if cur is None else repr(cur)
            notes.append(f"{var} was changed after `cudaenv use`; leaving it as you set it ({shown})")
    for var, (kind, pre, app) in state.lists.items():
        cur = out.get(var)
        if cur is None:
            continue  # the user unset it since; nothing of ours is left there
        sep = separator(var)
        if is_flag_list(var):
            entries = _take_flags(cur, pre, app)
        else:
            entries = split(cur, sep)
            # Ours went in front (prepend) or at the end (append), so the first
            # (last) occurrence is ours even when the user's value holds it too.
            for e in pre:
                _remove_first(entries, e)
            for e in app:
                _remove_last(entries, e)
        if kind == "d" and (entries == split(DEFAULT_PATH, sep) or entries == split(defpath, sep)):
            out.pop(var, None)  # only the default we started from is left (os.defpath: older releases')
        elif entries:
            out[var] = join(entries, sep)
        elif kind in ("u", "d"):
            out.pop(var, None)
        else:
            out[var] = ""
    out.pop(STATE_VAR, None)
    out.pop(ACTIVE_VAR, None)
    return out


def diff(before: Mapping[str, str], after: Mapping[str, str], order: list[str]) -> list[Change]:
    """Changes that turn ``before`` into ``after``; ``order`` names come first."""
    names = list(order)
    for k in sorted(set(before) | set(after)):
        if k not in names:
            names.append(k)
    changes: list[Change] = []
    for k in names:
        a, b = before.get(k), after.get(k)
        if a != b:
            changes.append(Change("unset", k) if b is None else Change("set", k, b))
    return changes


def recorded(env: Mapping[str, str], notes: list[str], strict: bool) -> State | None:
    """The state ``use`` recorded in ``env`` (None if none); a corrupt one raises if ``strict``, else is noted."""
    text = env.get(STATE_VAR)
    if text is None:
        return None
    try:
        return decode(text)
    except CudaenvError as exc:
        if strict:
            raise
        notes.append(f"ignoring {STATE_VAR}: {exc.message}")
        return State("")


def plan_use(env: Mapping[str, str], ops: Ops, name: str, node: str | None = None) -> Plan:
    """Plan switching to the profile ``name`` whose needs are ``ops`` (planned on ``node``, recorded if given)."""
    notes: list[str] = []
    state = recorded(env, notes, strict=False)
    base: Mapping[str, str] = env
    order = ops.names()
    if state is not None:
        # Notes about scalars the user changed are for `off`; here the new
        # profile sets them again and keeps the user's value as the prior.
        base = undo(env, state)
        order += [v for v in list(state.scalars) + list(state.lists) if v not in order]
    final = apply(base, ops, name, node)
    return Plan(diff(env, final, order + [ACTIVE_VAR, STATE_VAR]), notes)


def plan_off(env: Mapping[str, str]) -> Plan:
    """Plan undoing the active profile; a no-op when none is active."""
    notes: list[str] = []
    state = recorded(env, notes, strict=True)
    if state is None:
        return Plan([], ["no cudaenv profile is active"])
    final = undo(env, state, notes)
    order = list(state.scalars) + list(state.lists) + [ACTIVE_VAR, STATE_VAR]
    return Plan(diff(env, final, order), notes)


def reapply(env: Mapping[str, str], state: State) -> dict[str, str]:
    """Apply a recorded state's changes again onto ``env``: the same entries and values, no profile resolved.

    Onto the environment the record was taken from (its ``off``), this gives
    back the environment and the record exactly. The record is kept as it was
    in any case: what was there before (a prior value, an unset list) is what
    the record says, not what ``env`` holds now (a conda environment's own
    variables may still be set when its deactivate hook runs; a login shell
    may have rebuilt PATH).
    """
    ops = Ops(
        set={var: ours for var, (_prior, ours) in state.scalars.items()},
        prepend={var: pre for var, (_kind, pre, _app) in state.lists.items() if pre},
        append={var: app for var, (_kind, _pre, app) in state.lists.items() if app},
    )
    out = apply(env, ops, state.name)
    out[STATE_VAR] = encode(state)
    return out


def plan_repair(env: Mapping[str, str]) -> Plan:
    """Put back the entries the active profile recorded that are missing now; no change otherwise.

    A new shell inherits ``_CUDAENV_STATE`` (from its parent, or a tmux
    session), but its start-up may rebuild a list: a login shell's
    ``/etc/profile`` resets PATH, so the toolkit's ``bin`` is gone while
    CUDA_HOME still names it. ``cudaenv init`` runs this at shell start.
    """
    notes: list[str] = []
    state = recorded(env, notes, strict=False)
    if state is None or notes:
        return Plan([], [])
    missing = []
    lists = {}
    for var, (kind, pre, app) in state.lists.items():
        if is_flag_list(var):
            have_units = units(split(env.get(var, ""), " "))
            # A host compiler the user's own flags now choose wins: a second -ccbin is not put back.
            mine = any(ccbin_unit(u) for u in have_units)
            keep = [u for u in units(pre + app) if u in have_units or not (mine and ccbin_unit(u))]
            pre = [w for u in units(pre) if u in keep for w in u]
            app = [w for u in units(app) if u in keep for w in u]
            missing += [" ".join(u) for u in keep if u not in have_units]
        else:
            have = split(env.get(var, ""), separator(var))
            missing += [e for e in pre + app if e not in have]
        if pre or app:
            lists[var] = (kind, pre, app)
    if not missing:
        return Plan([], [])
    if lists != state.lists:
        state = State(state.name, state.scalars, lists, state.node, state.bound)
    final = reapply(undo(env, state), state)
    order = list(state.scalars) + list(state.lists) + [ACTIVE_VAR, STATE_VAR]
    return Plan(diff(env, final, order),
                [f"{state.name}: put back {', '.join(missing)} (this shell's start-up had taken it off)"])
