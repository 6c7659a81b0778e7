"""Toolkits: what is installed, where, which version, with which parts."""

__all__ = ["version_key"]


def version_key(v: str) -> tuple:
    """Sort key for dotted numeric versions (non-numeric parts sort first)."""
    out = []
    for p in v.split("."):
        out.append((1, int(p), "") if p.isdigit() else (0, 0, p))
    return tuple(out)
