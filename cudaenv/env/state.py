"""What ``use`` changed, kept in the shell's own environment (``_CUDAENV_STATE``).

The record holds, per variable, exactly what cudaenv inserted and what it
overwrote, with *unset* distinct from *empty*, so ``off`` can take back only
cudaenv's own entries. It is encoded as printable ASCII (no quotes, spaces or
shell metacharacters) without json/re so that decoding costs next to nothing.

It also says *where* the switch was planned (:attr:`State.node`: the host and
the allocation the values were derived from) and which variables hold values
derived from that node (:attr:`State.bound`: the build settings' arch list and
job counts). Environments travel (Slurm's ``--export=ALL``, ``srun --pty``,
ssh, tmux); a process that finds another node's key re-plans the active
profile for its own node (``exec``, ``init``, the ``--auto`` hook, the Slurm
task prolog; ``doctor`` reports it).
"""

from __future__ import annotations

from ..errors import CudaenvError
from .ops import valid_name

__all__ = ["State", "STATE_VAR", "ACTIVE_VAR", "encode", "decode", "encode_value", "decode_value"]

STATE_VAR = "_CUDAENV_STATE"
ACTIVE_VAR = "CUDAENV_ACTIVE"
_FORMAT = "c1"

# Bytes kept as they are; everything else becomes %XX (of UTF-8 with
# surrogateescape, so undecodable bytes from the environment round-trip).
_SAFE_TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+@^~"
_SAFE = frozenset(_SAFE_TEXT.encode())
# str.translate with this table deletes every safe character (in C): what is left needs escaping.
_DROP_SAFE = dict.fromkeys(map(ord, _SAFE_TEXT))


def encode_value(text: str) -> str:
    """``text`` as printable ASCII: safe bytes kept, every other byte as ``%XX``."""
    if not text.translate(_DROP_SAFE):
        return text  # the usual case (a path): nothing to escape, no per-byte loop
    out = []
    for b in text.encode("utf-8", "surrogateescape"):
        out.append(chr(b) if b in _SAFE else "%%%02X" % b)
    return "".join(out)


def decode_value(text: str) -> str:
    """Inverse of :func:`encode_value`."""
    if "%" not in text:
        return text
    buf = bytearray()
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "%":
            buf.append(int(text[i + 1 : i + 3], 16))
            i += 3
        else:
            buf.append(ord(c))
            i += 1
    return buf.decode("utf-8", "surrogateescape")


class State:
    """The record of one active profile.

    Attributes:
        name: The active profile's name.
        scalars: NAME -> (prior value or None if it was unset, value we set).
        lists: NAME -> (prior kind, entries we prepended, entries we appended);
            prior kind is ``"u"`` (unset), ``"e"`` (set but empty), ``"v"``, or
            ``"d"`` (PATH unset: extended from the default search path).
        node: The key of the node and allocation the switch was planned on
            (``profiles.build.node_key``), or None (not recorded).
        bound: Variables whose values were derived from that node.
    """

    __slots__ = ("name", "scalars", "lists", "node", "bound")

    def __init__(
        self,
        name: str,
        scalars: dict[str, tuple[str | None, str]] | None = None,
        lists: dict[str, tuple[str, list[str], list[str]]] | None = None,
        node: str | None = None,
        bound: list[str] | None = None,
    ) -> None:
        self.name = name
        self.scalars = dict(scalars or {})
        self.lists = dict(lists or {})
        self.node = node
        self.bound = list(bound or [])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and (self.name, self.scalars, self.lists, self.node, self.bound)
            == (other.name, other.scalars, other.lists, other.node, other.bound)
        )

    def __repr__(self) -> str:
        return f"State({self.name!r}, {self.scalars!r}, {self.lists!r}, {self.node!r}, {self.bound!r})"


def encode(state: State) -> str:
    """Encode ``state`` for ``_CUDAENV_STATE``."""
    parts = [_FORMAT, "n," + encode_value(state.name)]
    for var, (prior, ours) in state.scalars.items():
        p = "-" if prior is None else "=" + encode_value(prior)
        parts.append(f"s,{var},{p},{encode_value(ours)}")
    for var, (kind, pre, app) in state.lists.items():
        parts.append(
            f"l,{var},{kind},{'|'.join(encode_value(e) for e in pre)},{'|'.join(encode_value(e) for e in app)}"
        )
    if state.node is not None:
        parts.append(f"h,{encode_value(state.node)},{'|'.join(state.bound)}")
    return ";".join(parts)


def _variable(name: str) -> str:
    # Names go into shell code (`unset NAME`): anything but a portable name is refused,
    # so a crafted state such as `s,A$(touch x),...` cannot reach a shell.
    if not valid_name(name) or name in (STATE_VAR, ACTIVE_VAR):
        raise ValueError(f"invalid variable name {name!r}")
    return name


def decode(text: str) -> State:
    """Decode a ``_CUDAENV_STATE`` value.

    Raises:
        CudaenvError: the value was not written by this version of cudaenv
            (a variable name that is not a portable name, such as one holding
            shell syntax, is refused like any other corruption).
    """
    try:
        parts = text.split(";")
        if parts[0] != _FORMAT:
            raise ValueError("unknown format")
        state = State("")
        for part in parts[1:]:
            f = part.split(",")
            if f[0] == "n" and len(f) == 2:
                state.name = decode_value(f[1])
            elif f[0] == "s" and len(f) == 4:
                prior = None if f[2] == "-" else decode_value(f[2][1:])
                if f[2] != "-" and not f[2].startswith("="):
                    raise ValueError("bad scalar")
                state.scalars[_variable(f[1])] = (prior, decode_value(f[3]))
            elif f[0] == "l" and len(f) == 5 and f[2] in ("u", "e", "v", "d"):
                pre = [decode_value(e) for e in f[3].split("|")] if f[3] else []
                app = [decode_value(e) for e in f[4].split("|")] if f[4] else []
                state.lists[_variable(f[1])] = (f[2], pre, app)
            elif f[0] == "h" and len(f) == 3 and f[1]:
                state.node = decode_value(f[1])
                state.bound = [_variable(v) for v in f[2].split("|")] if f[2] else []
            else:
                raise ValueError("bad record")
        if not state.name:
            raise ValueError("no name")
        return state
    except (ValueError, IndexError, UnicodeDecodeError) as exc:
        raise CudaenvError(
            f"{STATE_VAR} is unreadable ({exc}); it was not written by this cudaenv",
            hint=f"to forget it: unset {STATE_VAR} {ACTIVE_VAR} (your variables stay as they are)",
        ) from None
