"""Situations: the same cause in another place gets that place's first fix (``knowledge/situations.yaml``).

An entry's variants answer the places its own threads showed; an entry without one answered a Kubernetes pod's
"no driver" with "install the driver". The table names cause classes (sets of entry ids) and, per situation (a
Docker container, a compose service, a pod, Apptainer/Singularity, enroot, podman, a ``docker build``, WSL 2), the
first line for that class. The matcher calls :func:`decide` after an entry's variant is chosen; the line decided
goes before the entry's own fix (which stays, as the later lines), and the answer says which situation decided.

The entry wins when its answer was already chosen for the place or by the log's own evidence: a variant held that
does not key on the ``container`` fact (it was chosen by a capture, a derived value or the log's words: a fact the log
shows, principle 1, or another place such as Colab), or a container variant when the situation is a plain Docker
container or the variant's ``when`` names the situation (its ``keyed`` words: ``singularity`` for Apptainer). A
container variant written for Docker yields to a more specific place (a pod, Apptainer, enroot, podman, compose, a
``docker build``).
"""

from __future__ import annotations

import re

__all__ = ["decide", "Decision"]

#: The parsed table, compiled once per process: (situations, {entry id: [(class name, class)]}).
_TABLE: tuple[list[dict], dict[str, list[tuple[str, dict]]]] | None = None


class Decision:
    """What a situation decided for one answer: its name, its label (for the answer's words) and the first line."""

    __slots__ = ("name", "label", "line", "cls")

    def __init__(self, name: str, label: str, line: str, cls: str) -> None:
        self.name, self.label, self.line, self.cls = name, label, line, cls


def _compile(rx: str) -> re.Pattern:
    return re.compile(rx, re.M)


def _table() -> tuple[list[dict], dict[str, list[tuple[str, dict]]]]:
    global _TABLE
    if _TABLE is None:
        from .derive import knowledge_table

        doc = knowledge_table("situations.yaml")
        situations = []
        for s in doc["situations"]:
            situations.append({
                "name": s["name"], "label": s["label"], "keyed": re.compile(s["keyed"]),
                "when": {k: re.compile(v) for k, v in (s.get("when") or {}).items()},
                "texts": [(_compile(x["rx"]), tuple(x["needles"])) for x in s.get("texts") or ()],
            })
        by_entry: dict[str, list[tuple[str, dict]]] = {}
        for name, c in doc["classes"].items():
            first: dict[str, list[tuple[re.Pattern | None, tuple, str]]] = {}
            for where, line in c["first"].items():
                if isinstance(line, str):
                    first[where] = [(None, (), " ".join(line.split()))]
                else:
                    first[where] = [(_compile(x["text"]) if x.get("text") else None, tuple(x.get("needles") or ()),
                                     " ".join(x["line"].split())) for x in line]
            compiled = {"first": first, "when": _compile(c["when"]) if c.get("when") else None}
            for eid in c["entries"]:
                by_entry.setdefault(eid, []).append((name, compiled))
        _TABLE = (situations, by_entry)
    return _TABLE


def situated_entries() -> set[str]:
    """Every entry some cause class holds (:func:`classes_of` not empty), read once from the table."""
    from .derive import knowledge_table

    return {eid for c in knowledge_table("situations.yaml")["classes"].values() for eid in c["entries"]}


def classes_of(entry_id: str) -> list[str]:
    """The cause classes ``entry_id`` belongs to (empty for most entries). Read from the table without compiling
    its patterns: every `explain` asks, few answers need them."""
    from .derive import knowledge_table

    return [name for name, c in knowledge_table("situations.yaml")["classes"].items() if entry_id in c["entries"]]


def _holds(rx: re.Pattern | None, needles: tuple[str, ...], text: str, low: str) -> bool:
    if rx is None:
        return True
    if needles and not any(n in low for n in needles):
        return False
    return rx.search(text) is not None


def _situations(facts: dict, text: str, low: str):
    """The situations of the table whose facts and words the log shows, most specific first (a `docker build` is a
    Docker container too: a class without a line for the build gets the container's)."""
    for s in _table()[0]:
        if all(rx.search(facts.get(k) or "") for k, rx in s["when"].items()) \
                and all(_holds(rx, needles, text, low) for rx, needles in s["texts"]):
            yield s


def decide(entry_id: str, chosen_when: dict | None, facts_of, text: str) -> Decision | None:
    """The situation's first line for this answer, or None (the entry's own answer stands).

    Args:
        entry_id: The entry that answers.
        chosen_when: The raw ``when`` of the variant the entry chose (None when none held).
        facts_of: A callable returning the log's facts (:func:`~.extract.facts`), called only for an entry of a class.
        text: The whole log.
    """
    table = _table()[1]
    classes = table.get(entry_id)
    if not classes:
        return None
    if chosen_when is not None and "container" not in chosen_when:
        return None  # a variant chosen by the log's own evidence (or another place's): the entry was written for it
    keyed = " ".join(f"{k} {v}" for k, v in (chosen_when or {}).items())
    low = text.lower()
    for where in _situations(facts_of(), text, low):
        if chosen_when is not None and (where["name"] == "docker" or where["keyed"].search(keyed)):
            return None  # the entry's container variant was written for this place
        for name, c in classes:
            if c["when"] is not None and not c["when"].search(text):
                continue
            for rx, needles, line in c["first"].get(where["name"], ()):
                if _holds(rx, needles, text, low):
                    return Decision(where["name"], where["label"], line, name)
    return None
