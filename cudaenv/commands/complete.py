"""``cudaenv use <TAB>`` answered without click, and the ``use`` targets click's completion offers.

The shell-side completion functions (``cudaenv/shell/``) call ``cudaenv``
with ``_CUDAENV_COMPLETE=<shell>_complete``. The common case, completing the
target of ``use``, is answered here from the discovery cache in the format
of the shell object (``Shell.completion``), and so is ``<shell>_source``;
anything else goes to click's machinery (``cli/completion.py``), which
formats through the same objects.
"""

from __future__ import annotations

from ..errors import CudaenvError
from ..infra.console import write_out
from ..shells import INIT_SHELLS, shell

__all__ = ["target_candidates", "use_incomplete", "fast_complete"]


def target_candidates(incomplete: str) -> list[tuple[str, str]]:
    """(value, help) for ``use`` targets starting with ``incomplete``.

    Versions first, newest first: each major.minor (the newest of it) and
    each full version; then profile names and the generated names of
    toolkits that have no profile file yet. Read through the cache, like
    ``use``; any error gives no candidates (completion never prints one).
    """
    from ..context import Context
    from ..profiles.model import generated_name, scan_toolkits
    from ..toolkit import version_key

    try:
        ctx = Context()
        profiles, _ = ctx.profile_files.load()
        toolkits, _ = scan_toolkits(ctx)
        ctx.save()
    except (CudaenvError, OSError):
        return []
    items: dict[str, str] = {}
    for tk in sorted(toolkits, key=lambda t: version_key(t["full_version"]), reverse=True):
        items.setdefault(tk["version"], f"newest CUDA {tk['version']}")
        items.setdefault(tk["full_version"], tk["root"])
    for p in profiles:
        items.setdefault(p["name"], p.get("description") or f"profile: {p['root']}")
    for tk in toolkits:
        items.setdefault(generated_name(tk), f"CUDA {tk['full_version']}: {tk['root']}")
    return [(v, h) for v, h in items.items() if v.startswith(incomplete)]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _plain_word(w: str) -> bool:
    # Words click would split the same way as str.split (no quoting or escapes).
    return not any(c in w for c in "'\"\\$`")


def use_incomplete(env: dict, instruction: str) -> str | None:
    """The partial ``use`` target being completed, or None when click must answer."""
    shell = instruction[: -len("_complete")]
    try:
        if shell in ("bash", "zsh"):
            words = env["COMP_WORDS"].split()
            cword = int(env["COMP_CWORD"])
            if env["COMP_WORDS"].endswith(" "):
                words.append("")
            if cword != 2 or len(words) != 3:
                return None
        elif shell == "fish":
            words = env["COMP_WORDS"].split()
            inc = env["COMP_CWORD"]
            if not inc:
                words.append("")
            if len(words) != 3 or words[2] != inc:
                return None
        elif shell == "tcsh":
            line = env.get("COMMAND_LINE", "")
            words = line.split() + ([""] if not line or line[-1].isspace() else [])
            if len(words) != 3:
                return None
        else:
            return None
    except (KeyError, ValueError):
        return None
    if words[1] != "use" or not all(_plain_word(w) for w in words):
        return None
    inc = words[2]
    if inc[:1] in ("-", "/", ".", "~"):
        return None  # options and paths: click's answer
    return inc


def fast_complete(env: dict) -> int | None:
    """Answer ``cudaenv use <TAB>`` and ``<shell>_source`` without click.

    ``use`` targets come in the shell's completion format (as click's would);
    ``<shell>_source`` is ``cudaenv init <shell>``, byte for byte (click's own
    answer gained or lost a trailing newline between 8.4 and 8.5). Returns
    None (click answers) for anything else.
    """
    instruction = env.get("_CUDAENV_COMPLETE", "")
    if instruction.endswith("_source") and instruction[: -len("_source")] in INIT_SHELLS:
        from .init import init_text

        try:
            text = init_text(instruction[: -len("_source")])
        except CudaenvError as exc:
            from ..infra.console import report_error

            return report_error(exc)
        write_out(text)
        return 0
    if not instruction.endswith("_complete"):
        return None
    inc = use_incomplete(env, instruction)
    if inc is None:
        return None
    shell_name = instruction[: -len("_complete")]
    sh = shell(shell_name)
    out = [sh.completion(shell_name, "plain", value, _one_line(help_)) for value, help_ in target_candidates(inc)]
    write_out("\n".join(out) + "\n")
    return 0


