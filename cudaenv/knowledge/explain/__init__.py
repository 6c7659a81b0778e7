"""``cudaenv explain``: recognise CUDA environment errors in a message or a whole log.

Pure functions over text: :func:`explain` finds every known error family (from the
knowledge base in ``cudaenv/knowledge/errors.yaml``), root causes first and
consequences after, each once; :func:`render_text` and :meth:`Match.to_dict` present
the result. Nothing here reads stdin, prints or exits: the click command in
``cudaenv/cli/explain_cmd.py`` does that.

Logs are read as people paste them (:class:`_Text`): colour codes and ``\r``
overwrites are removed, quoting and pip's indentation are taken off each line, and a
pattern may continue over the next lines wherever it allows white space, so a message
that a tool or a browser wrapped is still one message. An entry recognises a family by
its stable words and captures the variable parts (versions, sonames, symbols, arch,
paths); its ``derive`` function (:data:`DERIVE`) turns them into the facts the answer
states: major or minor, which toolkits compile an architecture, the gcc behind a
GLIBCXX version, the demangled symbol and its ABI, the library behind a soname.

Not on the hot path, so regular expressions are fine; they are compiled the first
time :func:`explain` runs, not at import.

Each entry is a cause (component x failure) recognised from every tool that reports it;
its ``variants`` choose the answer by what the whole log says (``extract``: platform,
container, producing tool, conda, the CUDA versions named, permission or space...).

The rooms: ``text`` (reading a pasted log, scanning it fast), ``extract`` (the whole log's
facts), ``matcher`` (the entries, :class:`Match`, :func:`explain`), ``derive`` (one function
per ``derive`` name),
``symbols`` (C++ symbols, through libstdc++ or c++filt), ``render`` (the human report).
"""

from __future__ import annotations

from .symbols import demangle
from .derive import DERIVE, toolkits_for_arch
from .matcher import ANY_TOOLKIT, Match, checked_by, explain
from .render import render_text
from .text import normalize_line, required_literal, split_lines

__all__ = ["ANY_TOOLKIT", "Match", "explain", "render_text", "split_lines", "checked_by", "required_literal", "demangle",
           "DERIVE", "normalize_line", "toolkits_for_arch"]
