"""Paste-able answers: which installed toolkit fits, and the exact command that selects it.

A finding's fix names a command the user can paste as is: ``eval "$(cudaenv use 13.0)"``
with the shortest word that ``use`` resolves to that very toolkit (checked through
``use``'s own resolution), or ``cudaenv install 13.0`` when nothing installed fits. The
choice follows the facts the rule has (the environment's torch build, a version floor, a
C++ standard), never a guessed "12 or later": a cu130 torch refuses every 12.x toolkit.

Pure: the toolkits and profiles come in as data (``gather`` and ``gather_shell`` collect
them with :func:`fit_facts`).
"""

from __future__ import annotations

import os

from ..errors import CudaenvError
from ..profiles.resolve import resolve
from ..profiles.torchmatch import pick
from ..toolkit import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

    from ..context import Context
    from ..toolkit.types import Toolkit

__all__ = ["fit_facts", "use_word", "use_line", "install_line", "torch_fit", "answer", "short", "root_of",
           "choice_line"]


def short(version: str) -> str:
    """``13.0.88`` -> ``13.0``."""
    return ".".join(version.split(".")[:2])


def fit_facts(ctx: Context) -> dict:
    """What the answers choose from: ``{"toolkits", "profiles", "torch"}`` (torch: ``host/pyenv.torch_build``
    of the active Python environment, read from its files)."""
    from ..host.pyenv import torch_build
    from ..profiles.model import scan_toolkits

    return {"toolkits": scan_toolkits(ctx)[0], "profiles": ctx.profile_files.load()[0],
            "torch": torch_build(ctx.python.get())}


def _no_probe(path: str) -> Toolkit:
    raise CudaenvError(f"{path} is not a discovered toolkit")


def use_word(tk: Toolkit, toolkits: list[Toolkit], profiles: list) -> str:
    """The shortest word ``cudaenv use`` resolves to ``tk`` among these toolkits and profiles.

    Tries major.minor, the full version, the generated profile name, then the root (always exact).
    """
    from ..profiles.model import generated_name

    for word in (short(tk["full_version"]), tk["full_version"], generated_name(tk)):
        try:
            got = resolve(word, toolkits, profiles, _no_probe)[1]
        except CudaenvError:
            continue
        if got["root"] == tk["root"]:
            return word
    return tk["root"]


def use_line(tk: Toolkit, toolkits: list[Toolkit], profiles: list) -> str:
    """``eval "$(cudaenv use WORD)"`` for ``tk`` (the word quoted when it needs it)."""
    from ..shells.posix import quote

    word = use_word(tk, toolkits, profiles)
    if not all(c.isascii() and (c.isalnum() or c in "._-+/=,@%") for c in word):
        word = quote(word)
    return f'eval "$(cudaenv use {word})"'


def install_line(version: str) -> str:
    """The install command for a CUDA version (major.minor: the newest release of it)."""
    return f"`cudaenv install {version}`"


def torch_fit(torch_cuda: str, toolkits: list[Toolkit]) -> Toolkit | None:
    """The installed toolkit ``--match-torch`` picks for a torch built with CUDA ``torch_cuda`` (same major)."""
    return pick(torch_cuda, toolkits)[0]


def answer(fit: dict | None, *, torch_cuda: str | None = None, want: Callable[[Toolkit], bool] | None = None,
           install: str | bool = True, prefer: Toolkit | None = None) -> str | None:
    """The paste-able command that selects the toolkit a fix needs, or installs one.

    Args:
        fit: :func:`fit_facts` (None: nothing known, no answer).
        torch_cuda: The environment's torch CUDA build: only its major fits, its own minor first.
        want: Any other condition the toolkit must meet (headers, a C++ standard, a driver ceiling).
        install: What to install when no toolkit fits (True: ``torch_cuda``; False: no install line).
        prefer: A toolkit to take when it fits (the one the user chose: CUDA_HOME, the active profile).

    Returns:
        ``eval "$(cudaenv use 13.0)"``, ``\\`cudaenv install 13.0\\```, or None.
    """
    if not fit:
        return None
    toolkits = [t for t in fit["toolkits"] if want is None or want(t)]
    tk = None
    if torch_cuda:
        major = version_key(torch_cuda)[:1]
        same = [t for t in toolkits if version_key(t["full_version"])[:1] == major]
        if prefer is not None and any(t["root"] == prefer["root"] for t in same):
            tk = prefer
        else:
            tk = torch_fit(torch_cuda, same)
    elif toolkits:
        if prefer is not None and any(t["root"] == prefer["root"] for t in toolkits):
            tk = prefer
        else:
            installed = [t for t in toolkits if not t["origin"]] or toolkits
            tk = max(installed, key=lambda t: (t["default"], version_key(t["full_version"])))
    if tk is not None:
        return use_line(tk, fit["toolkits"], fit["profiles"])
    what = torch_cuda if install is True else install
    return install_line(what) if what else None


def root_of(path: str | None, toolkits: list[Toolkit]) -> Toolkit | None:
    """The discovered toolkit at ``path`` (real path compared), or None."""
    if not path:
        return None
    real = os.path.realpath(path)
    return next((t for t in toolkits if t["root"] == real or real in t["aliases"]), None)


def choice_line(fit: dict, word: str, tk: Toolkit, where: str | None = None) -> str | None:
    """The one stderr line ``use`` prints at a terminal: what a word that was not literal picked,
    and whether the result fits the environment's torch (None when there is nothing to say).

    Not literal: ``--match-torch`` (the word ``torch``), a major version alone (``12``), or a
    version several toolkits match. A profile name, a path or a full version is literal.

    Args:
        fit: :func:`fit_facts`.
        word: What ``use`` resolved (``torch`` for ``--match-torch``, or the pin file's word).
        tk: What it resolved to.
        where: The Python environment's prefix (for the torch clause).
    """
    toolkits = fit["toolkits"]
    got = f"CUDA {tk['full_version']} ({tk['root']})"
    tb = fit.get("torch") or {}
    tc = tb.get("cuda")
    torch = f"torch {tb.get('version') or '?'}" + (f" in {where}" if where else "")
    if word == "torch":  # a pick of another minor has match_torch's own note already
        return f"--match-torch: {got} for {torch}, built with CUDA {tc}" if tc and short(tc) == tk["version"] \
            else None
    head = None
    if word.replace(".", "").isdigit() and word != tk["full_version"]:
        matching = {t["full_version"] for t in toolkits
                    if t["full_version"].split(".")[:len(word.split("."))] == word.split(".")}
        if "." not in word or len(matching) > 1:
            head = f"{word} resolved to {got}"
    if tc and version_key(tc)[:1] != version_key(tk["full_version"])[:1]:
        fix = answer(fit, torch_cuda=tc)
        fits = "installs one that fits it" if fix and fix.startswith("`cudaenv install") else "fits it"
        text = (f"{torch} was built with CUDA {tc}: its extension builds refuse CUDA {tk['version']}; "
                f"{fix} {fits}")
        return f"{head}, but {text}" if head else text
    if head and tc and short(tc) != tk["version"]:
        exact = answer(fit, torch_cuda=tc, want=lambda t: t["version"] == short(tc), install=False)
        if exact:
            return f"{head}; {torch} was built with CUDA {tc}: {exact} matches it exactly"
    return head
