"""The tmux session environment, for ``use --tmux`` / ``off --tmux`` (``commands/tmux.py``).

``eval "$(cudaenv use X)"`` already works per pane. ``use X --tmux`` also puts
X's variables, with cudaenv's state, into the tmux *session* environment, so
new windows and panes start with X and ``cudaenv off`` works there.
``off --tmux`` gives the session environment back exactly as it was before
the first ``use --tmux``. A session entry is in one of four states, and each
is restored as it was:

- a value (``NAME=value``): set again;
- a hidden value (``set-environment -h``: kept from new processes): set again, hidden;
- marked for removal (``-r``, listed as ``-NAME``): new processes do not get
  the variable even if the global environment has it: marked again;
- absent: the global environment's value applies: unset from the session
  environment (``-u``), not marked.

What the session held is kept in the session itself, in the hidden variable
``_CUDAENV_TMUX`` (hidden, so new processes do not inherit it), and only
recorded the first time a variable is touched: ``use A --tmux`` then
``use B --tmux`` then ``off --tmux`` restores what was there before A.

All tmux calls go through :mod:`cudaenv.infra.run`: two reads (``show-environment
-s``, whose quoting is exact even for newlines) and one write (every
``set-environment`` of a switch in one invocation, separated by ``;``).
"""

from __future__ import annotations

from ..env.ops import valid_name
from ..env.state import ACTIVE_VAR, STATE_VAR, decode, decode_value, encode_value
from ..errors import CudaenvError
from ..infra.run import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..context import Context

__all__ = ["SAVED_VAR", "require_tmux", "parse_show_environment", "encode_saved", "decode_saved", "tmux_arg",
           "session_use", "session_off"]

SAVED_VAR = "_CUDAENV_TMUX"
_FORMAT = "t1"


def require_tmux(env: dict) -> None:
    """Raise unless this process runs inside tmux."""
    if not env.get("TMUX"):
        raise CudaenvError("--tmux works only inside tmux ($TMUX is not set)", exit_code=2)


def _target(env: dict) -> list[str]:
    # The session of this pane (not whichever session tmux thinks is current).
    pane = env.get("TMUX_PANE")
    return ["-t", pane] if pane else []


def tmux_arg(value: str) -> str:
    """``value`` as one argument of a tmux command sequence.

    tmux splits its argument list into commands at arguments *ending* in
    ``;`` (``\\;`` at the end stands for a literal ``;``), so a value that
    ends in ``;`` must end in ``\\;`` instead.
    """
    return value[:-1] + "\\;" if value.endswith(";") else value


def _tmux(ctx: Context, args: list[str]) -> str:
    res = run(["tmux", *args], env=ctx.env, timeout=15)
    if res.returncode != 0:
        why = res.stderr.strip().splitlines()[-1:] or [f"exit status {res.returncode}"]
        raise CudaenvError(f"tmux {args[0]} failed: {why[0]}")
    return res.stdout


def parse_show_environment(text: str) -> dict[str, str | None]:
    """Parse ``tmux show-environment -s``: NAME -> value, or None for ``-r`` (``unset NAME;``).

    tmux writes ``NAME="value"; export NAME;`` with ``$ ` " \\`` escaped by a
    backslash, so values holding newlines come back exactly.

    Raises:
        CudaenvError: the text is not in that form.
    """
    out: dict[str, str | None] = {}
    i, n = 0, len(text)
    try:
        while i < n:
            if text.startswith("unset ", i):
                j = text.index(";", i)
                out[text[i + 6 : j]] = None
                i = text.index("\n", j) + 1
                continue
            eq = text.index('="', i)
            name = text[i:eq]
            j = eq + 2
            buf = []
            while text[j] != '"':
                if text[j] == "\\":
                    j += 1
                buf.append(text[j])
                j += 1
            out[name] = "".join(buf)
            i = text.index("\n", j) + 1
    except (ValueError, IndexError):
        raise CudaenvError("cannot read the output of `tmux show-environment -s`") from None
    return out


def encode_saved(saved: dict[str, tuple]) -> str:
    """Encode NAME -> ("v", value) | ("h", value) | ("r",) | ("u",) as printable ASCII."""
    parts = [_FORMAT]
    for name, entry in saved.items():
        parts.append(f"{name},{entry[0]}" + (f",{encode_value(entry[1])}" if len(entry) > 1 else ""))
    return "|".join(parts)


def decode_saved(text: str) -> dict[str, tuple]:
    """Inverse of :func:`encode_saved`.

    Raises:
        CudaenvError: the text was not written by this cudaenv.
    """
    parts = text.split("|")
    if parts[0] != _FORMAT:
        raise CudaenvError(f"the tmux session variable {SAVED_VAR} was not written by this cudaenv",
                           hint=f"tmux set-environment -u -h {SAVED_VAR} forgets it")
    saved: dict[str, tuple] = {}
    for p in parts[1:]:
        f = p.split(",")
        if not valid_name(f[0]):
            raise CudaenvError(f"the tmux session variable {SAVED_VAR} names an invalid variable {f[0]!r}",
                               hint=f"tmux set-environment -u -h {SAVED_VAR} forgets it")
        if len(f) == 3 and f[1] in ("v", "h"):
            saved[f[0]] = (f[1], decode_value(f[2]))
        elif len(f) == 2 and f[1] in ("r", "u"):
            saved[f[0]] = (f[1],)
        else:
            raise CudaenvError(f"the tmux session variable {SAVED_VAR} is unreadable",
                               hint=f"tmux set-environment -u -h {SAVED_VAR} forgets it")
    return saved


def _read(ctx: Context) -> tuple[dict, dict, dict | None]:
    """(visible session env, hidden session env, what cudaenv saved or None)."""
    t = _target(ctx.env)
    visible = parse_show_environment(_tmux(ctx, ["show-environment", "-s", *t]))
    hidden = parse_show_environment(_tmux(ctx, ["show-environment", "-s", "-h", *t]))
    raw = hidden.pop(SAVED_VAR, None)
    saved = decode_saved(raw) if raw else None
    return visible, hidden, saved


def _snapshot(name: str, visible: dict, hidden: dict) -> tuple:
    if name in hidden:
        entry: tuple = ("h", hidden[name])
    elif name not in visible:
        return ("u",)
    elif visible[name] is None:
        return ("r",)
    else:
        entry = ("v", visible[name])
    if "\ufffd" in entry[1]:
        # run.py decodes tmux's output as UTF-8 with replacement: a value that
        # was not UTF-8 cannot be given back byte for byte, so refuse to touch it.
        raise CudaenvError(f"the tmux session value of {name} is not UTF-8; cudaenv cannot restore it exactly")
    return entry


def _restore(name: str, entry: tuple, t: list[str]) -> list[list[str]]:
    if entry[0] == "v":
        return [["set-environment", *t, name, tmux_arg(entry[1])]]
    if entry[0] == "h":
        # -h on an existing entry does not make it hidden (tmux 3.3): recreate it.
        return [["set-environment", "-u", *t, name], ["set-environment", "-h", *t, name, tmux_arg(entry[1])]]
    if entry[0] == "r":
        return [["set-environment", "-r", *t, name]]
    return [["set-environment", "-u", *t, name]]


def _write(ctx: Context, cmds: list[list[str]]) -> None:
    args: list[str] = []
    for c in cmds:
        if args:
            args.append(";")
        args.extend(c)
    if args:
        _tmux(ctx, args)


def session_use(ctx: Context, final: dict[str, str]) -> None:
    """Put the active profile's variables of ``final`` (an environment after ``use``) into the session.

    Records each variable's session entry the first time it is touched;
    variables an earlier ``use --tmux`` set and this profile does not go back
    to their recorded entries.
    """
    state = decode(final[STATE_VAR])
    names = list(dict.fromkeys([*state.scalars, *state.lists, ACTIVE_VAR, STATE_VAR]))
    visible, hidden, saved = _read(ctx)
    saved = dict(saved or {})
    t = _target(ctx.env)
    cmds: list[list[str]] = []
    for name, entry in saved.items():
        if name not in names:
            cmds.extend(_restore(name, entry, t))
    for name in names:
        if name not in saved:
            saved[name] = _snapshot(name, visible, hidden)
        value = final.get(name)
        if value is None:
            cmds.append(["set-environment", "-r", *t, name])
        else:
            if name in hidden:
                cmds.append(["set-environment", "-u", *t, name])
            cmds.append(["set-environment", *t, name, tmux_arg(value)])
    # The record first: if tmux stops half-way, `off --tmux` can still undo it.
    _write(ctx, [["set-environment", "-h", *t, SAVED_VAR, encode_saved(saved)], *cmds])


def session_off(ctx: Context) -> bool:
    """Give the session environment back as recorded; False if nothing was recorded."""
    _visible, _hidden, saved = _read(ctx)
    if saved is None:
        return False
    t = _target(ctx.env)
    cmds: list[list[str]] = []
    for name, entry in saved.items():
        cmds.extend(_restore(name, entry, t))
    cmds.append(["set-environment", "-u", *t, SAVED_VAR])
    _write(ctx, cmds)
    return True
