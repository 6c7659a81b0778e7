"""A small JSON writer for the fast paths (the json module imports re).

Output matches ``json.dumps(obj, indent=2, ensure_ascii=False)`` except that
lone surrogates (undecodable bytes from the environment) are written as
``\\udcXX`` escapes, so the document stays valid UTF-8.
"""

from __future__ import annotations

__all__ = ["dumps", "SCHEMA", "document", "target"]

#: The version of the one ``--json`` shape (docs/json.md): fields may be added, none removed or changed.
SCHEMA = 1


def document(command: str, ok: bool, **fields: object) -> dict:
    """A ``--json`` document: ``schema``, ``command``, ``ok``, then the command's own fields."""
    return {"schema": SCHEMA, "command": command, "ok": ok, **fields}


def target(profile: str | None, root: str, full_version: str) -> dict:
    """The keys every record naming a toolkit carries (docs/json.md, "target")."""
    return {"profile": profile, "root": root, "full_version": full_version,
            "series": ".".join(full_version.split(".")[:2])}

_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _str(s: str) -> str:
    out = []
    for ch in s:
        e = _ESC.get(ch)
        if e is not None:
            out.append(e)
        elif ch < " " or "\ud800" <= ch <= "\udfff":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def dumps(obj: object, indent: int = 2, _level: int = 0) -> str:
    """Serialise dicts, lists, tuples, strings, numbers, booleans and None."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, str):
        return _str(obj)
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, float):
        return repr(obj)
    pad = " " * (indent * (_level + 1))
    end = " " * (indent * _level)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}{_str(str(k))}: {dumps(v, indent, _level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(obj, (list, tuple)):
        if not obj:
            return "[]"
        return "[\n" + ",\n".join(pad + dumps(v, indent, _level + 1) for v in obj) + "\n" + end + "]"
    raise TypeError(f"cannot write {type(obj).__name__} as JSON")
