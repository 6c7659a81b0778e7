"""Living with direnv, which saves whole values and puts them back.

direnv records, when it loads a directory's ``.envrc``, the value each
variable it changes had before (``DIRENV_DIFF``), and on leaving (or on a
reload) sets every one of them back to that value, whatever happened since.
cudaenv instead adds and removes its own list entries. So when cudaenv
switched while a direnv environment was loaded, direnv's restore undoes
cudaenv's change to the lists direnv also touched (PATH, usually): a ``use``
made inside loses its ``bin`` while CUDA_HOME stays, an ``off`` made inside
gets its ``bin`` back with CUDA_HOME gone.

The ``--auto`` hook runs after direnv's and calls :func:`reconcile`, which
keeps one record, ``_CUDAENV_DIRENV``: the ``DIRENV_DIFF`` it last saw (a
checksum), the lists direnv will restore, and the cudaenv state that was
active when direnv took its snapshot of them. After each load, unload or
reload it takes that state's entries out of those lists and puts the active
state's entries back where they are missing, so the lists always say what
``_CUDAENV_STATE`` says. Leaving then gives back exactly what was there.
"""

from __future__ import annotations

from .pathlist import is_flag_list, separator, split, units
from .plan import reapply, recorded, undo
from .state import ACTIVE_VAR, STATE_VAR, State, decode, encode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Mapping

__all__ = ["DIRENV_VAR", "DIFF_VAR", "reconcile", "snapshot", "rebase_lists"]

#: direnv's own record of what it changed (zlib-compressed JSON, URL-safe base64).
DIFF_VAR = "DIRENV_DIFF"
#: cudaenv's record: "CRC NAMES STATE" (NAMES comma-separated or '-', STATE encoded or '-').
DIRENV_VAR = "_CUDAENV_DIRENV"


def _checksum(text: str) -> str:
    import zlib  # only when direnv is in use

    return "%08x" % zlib.crc32(text.encode("utf-8", "surrogateescape"))


def _json_object(text: str, outer: str) -> dict[str, str]:
    """The object ``text[outer]`` of direnv's JSON ({"n": {...}, "p": {...}}, string values).

    Values are returned as written (JSON escapes left in place). A small scanner
    instead of ``json``, which imports ``re``: the hook is on a hot path.

    Raises:
        ValueError: anything not of that shape.
    """
    found: dict[str, str] = {}
    i, n, depth, top, key = 0, len(text), 0, None, None
    expect_key = False
    while i < n:
        c = text[i]
        if c == '"':
            j = text.find('"', i + 1)
            while j > 0 and (j - i - 1 - len(text[i + 1:j].rstrip("\\"))) % 2:
                j = text.find('"', j + 1)  # that quote was escaped (an odd run of backslashes before it)
            if j < 0:
                raise ValueError("unterminated string")
            s = text[i + 1:j]
            if depth == 1 and expect_key:
                top = s
            elif depth == 2 and top == outer:
                if expect_key:
                    key = s
                elif key is not None:
                    found[key] = s
                    key = None
            elif depth != 2:
                raise ValueError("not direnv's shape")
            expect_key = False
            i = j + 1
            continue
        if c == "{":
            depth += 1
            expect_key = True
            if depth > 2:
                raise ValueError("too deep")
        elif c == "}":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced")
        elif c == ",":
            expect_key = True
        elif c not in ": \t\r\n":
            raise ValueError(f"unexpected {c!r}")
        i += 1
    if depth != 0:
        raise ValueError("unbalanced")
    return found


def snapshot(diff: str) -> tuple[dict[str, str], set[str]]:
    """What a ``DIRENV_DIFF`` sets back on unload: ({NAME: saved value as written}, names it unsets).

    Raises:
        ValueError: the value is not direnv's encoding.
    """
    import base64
    import zlib

    try:
        text = zlib.decompress(base64.urlsafe_b64decode(diff + "=" * (-len(diff) % 4))).decode()
    except (zlib.error, UnicodeDecodeError) as exc:
        raise ValueError(str(exc)) from None
    saved = _json_object(text, "p")
    return saved, set(_json_object(text, "n")) - set(saved)


def _without(var: str, entries: list[str], others: list[str]) -> list[str]:
    """``entries`` less those ``others`` holds too (for a flag list: whole units, ``-ccbin X``)."""
    if is_flag_list(var):
        have_units = set(units(others))
        return [w for u in units(entries) if u not in have_units for w in u]
    have = set(others)
    return [e for e in entries if e not in have]


def rebase_lists(env: Mapping[str, str], snap: State | None, names: Iterable[str], state: State | None) -> dict[str, str]:
    """``env`` after another tool set the lists ``names`` back to values saved while ``snap`` was active.

    ``snap``'s entries come out of those lists, and every list entry the
    active ``state`` records goes back where it is missing (in front, or at
    the end, as ``use`` puts it). Scalars and the state record stay as they are.
    """
    out = dict(env)
    keep = {k: out.get(k) for k in (STATE_VAR, ACTIVE_VAR)}
    if snap is not None:
        lists = {}
        for var in names:
            if var in snap.lists:
                # An entry the active record also has stays where it is (nothing to move).
                ours = [] if state is None else sum(state.lists.get(var, ("v", [], []))[1:], [])
                kind, pre, app = snap.lists[var]
                lists[var] = (kind, _without(var, pre, ours), _without(var, app, ours))
        if lists:
            out = undo(out, State(snap.name, {}, lists))
    if state is not None and state.lists:
        only = State(state.name, {}, state.lists)
        if any(_without(var, pre + app, split(out.get(var) or "", separator(var)))
               for var, (_kind, pre, app) in state.lists.items()):
            out = reapply(undo(out, only), only)
    for k, v in keep.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def reconcile(env: dict[str, str]) -> dict[str, str]:
    """``env`` with cudaenv's lists made whole again after a direnv load, unload or reload.

    Returns ``env`` itself when direnv is not in use or nothing happened since
    the last call, else a new mapping (with ``_CUDAENV_DIRENV`` updated).
    """
    diff = env.get(DIFF_VAR) or ""
    rec = env.get(DIRENV_VAR)
    if not diff and rec is None:
        return env  # the usual case: no direnv
    state = recorded(env, [], strict=False)
    if state is not None and not state.name:
        state = None  # unreadable: `off` reports it; nothing to rebase on
    crc = _checksum(diff) if diff else ""
    if rec is None:
        # direnv has just loaded, from the environment as it was before this hook ran
        # (cudaenv's hook runs after direnv's): its snapshot holds what was active then,
        # unless the .envrc switched itself (then direnv gives back cudaenv's record too).
        snap, names = state, []
        try:
            saved, dropped = snapshot(diff)
            if STATE_VAR in saved or STATE_VAR in dropped:
                text = saved.get(STATE_VAR)
                snap = decode(text) if text else None
            names = sorted(set(saved) & set(snap.lists)) if snap else []
        except Exception:  # noqa: BLE001 - another tool's data (any shape): never fail the hook
            names = []
        out = dict(env)
        out[DIRENV_VAR] = f"{crc} {','.join(names) or '-'} {encode(snap) if names and snap else '-'}"
        return out
    old_crc, _, rest = rec.partition(" ")
    names_text, _, snap_text = rest.partition(" ")
    if diff and old_crc == crc:
        return env  # direnv did nothing since we last looked
    try:
        snap = None if snap_text in ("", "-") else decode(snap_text)
    except Exception:  # noqa: BLE001 - a damaged record: rebase on nothing
        snap = None
    names = [] if names_text in ("", "-") else names_text.split(",")
    out = rebase_lists(env, snap, names, state)
    if diff:
        # A reload or another .envrc: direnv keeps the values it saved first for the
        # variables it had changed, so the snapshot state stays what it was.
        out[DIRENV_VAR] = f"{crc} {names_text or '-'} {snap_text or '-'}"
    else:
        out.pop(DIRENV_VAR, None)
    return out
