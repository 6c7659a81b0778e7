"""What a profile asks of the environment, with concrete values.

``Ops`` is the input of the planner; the output is a list of :class:`Change`
records, which renderers turn into shell code and :func:`apply_changes`
applies to a mapping.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Mapping

    _Tuple = tuple[str, ...]
else:
    _Tuple = tuple

__all__ = ["Ops", "Change", "apply_changes", "valid_name"]


def valid_name(name: str) -> bool:
    """Return True if ``name`` is a portable environment variable name."""
    # For ASCII text, isidentifier() is exactly [A-Za-z_][A-Za-z0-9_]* (and runs in C).
    return name.isascii() and name.isidentifier()


class Ops:
    """Variables to set, and entries to prepend/append to list variables.

    Args:
        set: NAME -> value.
        prepend: NAME -> entries that go in front, in order.
        append: NAME -> entries that go at the end, in order.

    Attributes:
        bound: Names of the variables whose values were derived from this node
            (recorded in the state, re-derived on another node).
    """

    __slots__ = ("set", "prepend", "append", "bound")

    def __init__(
        self,
        set: dict[str, str] | None = None,
        prepend: dict[str, list[str]] | None = None,
        append: dict[str, list[str]] | None = None,
    ) -> None:
        self.set = dict(set or {})
        self.prepend = {k: list(v) for k, v in (prepend or {}).items()}
        self.append = {k: list(v) for k, v in (append or {}).items()}
        self.bound: list[str] = []

    def names(self) -> list[str]:
        """Every variable the ops touch, in a stable order."""
        out: list[str] = []
        for d in (self.set, self.prepend, self.append):
            for k in d:
                if k not in out:
                    out.append(k)
        return out

    def to_dict(self) -> dict[str, dict[str, str] | dict[str, list[str]]]:
        return {"set": dict(self.set), "prepend": dict(self.prepend), "append": dict(self.append)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ops) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"Ops({self.to_dict()!r})"


class Change(_Tuple):
    """One change to the environment: ``Change("set", NAME, VALUE)`` or ``Change("unset", NAME)``.

    A tuple (``("set", NAME, VALUE)`` / ``("unset", NAME)``, equal to the plain
    tuples), so it costs no more than one and needs no import; read it by
    field: ``op``, ``name``, ``value`` (None for an unset).
    """

    __slots__ = ()

    def __new__(cls, op: str, name: str, value: str | None = None) -> Change:
        return tuple.__new__(cls, (op, name, value) if op == "set" else (op, name))

    @property
    def op(self) -> str:
        """``set`` or ``unset``."""
        return self[0]

    @property
    def name(self) -> str:
        """The variable."""
        return self[1]

    @property
    def value(self) -> str | None:
        """The new value (None for an unset)."""
        return self[2] if len(self) > 2 else None


def apply_changes(env: Mapping[str, str], changes: list[Change]) -> dict[str, str]:
    """Return a copy of ``env`` with ``changes`` applied (as a shell would)."""
    out = dict(env)
    for op, name, *value in changes:
        if op == "set":
            out[name] = value[0]
        else:
            out.pop(name, None)
    return out
