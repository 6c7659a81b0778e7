"""``cudaenv init`` and the ``--auto`` hook: cudaenv as a shell function.

The shell side lives in ``cudaenv/shell/cudaenv.{bash,zsh,fish,tcsh}``
(package data, so ``init`` works from a pip or pipx install). ``init bash``
prints the bash file, plus one line that turns the hook on with ``--auto``.
tcsh has no functions and its aliases cannot branch, so ``init tcsh`` prints
one line that sources the tcsh file; that file defines an alias which sources
it again with the words typed (and, with ``--auto``, a ``cwdcmd`` alias that
sources the short ``cudaenv-hook.tcsh``).

The ``--auto`` hook does the cheap part in the shell — compare the directory
with the last one, walk up looking for ``.cuda-version`` — and runs
``cudaenv _auto PIN`` only when the nearest pin file is not the one it last
acted on. :func:`plan_auto` decides what that means from the environment
alone: switch to the pin, switch back to what was active before, or nothing.

Like ``use``, this runs without click: ``init`` runs at every shell start and
``_auto`` at every change of project.
"""

from __future__ import annotations

import os
import sys

from .env.plan import Plan, plan_off
from .env.state import ACTIVE_VAR
from .errors import CudaenvError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .context import Context

__all__ = ["INIT_SHELLS", "PIN_VAR", "AUTO_VAR", "shell_file", "init_text", "do_init",
           "plan_auto", "do_auto", "target_candidates", "fast_complete", "fast_main"]

INIT_SHELLS = ("bash", "zsh", "fish", "tcsh")
# The pin file the hook last acted on; the shell compares it with what it finds.
PIN_VAR = "_CUDAENV_AUTO_PIN"
# "ACTIVE,PREV": the profile the hook switched to, and the one to go back to on
# leaving ('' = none). Profile names cannot hold a comma.
AUTO_VAR = "_CUDAENV_AUTO"

SHELL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shell")
# tcsh's --auto hook (cwdcmd) is a file of its own: tcsh pays for every line it sources.
TCSH_HOOK = os.path.join(SHELL_DIR, "cudaenv-hook.tcsh")


def shell_file(shell: str) -> str:
    """Path of the shipped integration file for ``shell``."""
    return os.path.join(SHELL_DIR, f"cudaenv.{shell}")


def _check_shell(shell: str) -> str:
    if shell not in INIT_SHELLS:
        raise CudaenvError(
            f"`cudaenv init` supports {', '.join(INIT_SHELLS)}, not {shell!r}",
            hint='in other POSIX shells use eval "$(cudaenv use X)" directly',
            exit_code=2,
        )
    return shell


def init_text(shell: str, auto: bool = False) -> str:
    """The code ``cudaenv init SHELL [--auto]`` prints.

    Raises:
        CudaenvError: an unsupported shell, or the shipped file is missing.
    """
    _check_shell(shell)
    path = shell_file(shell)
    if shell == "tcsh":
        from .shells.csh import quote

        for p in (path, TCSH_HOOK):
            if not os.path.isfile(p):
                raise CudaenvError(f"{p} is missing: reinstall cudaenv")
        q = quote(path)
        text = f"source {q} _cudaenv_init {q}{' auto' if auto else ''};\n"
        if auto:  # the hook once, for the directory the shell starts in
            text += f"source {quote(TCSH_HOOK)};\n"
        return text
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise CudaenvError(f"cannot read {path}: {exc.strerror}; reinstall cudaenv") from None
    if auto:
        text += "_cudaenv_enable_auto\n"
    return text


def _rc_hint(shell: str, auto: bool) -> str:
    flag = " --auto" if auto else ""
    if shell == "fish":
        return f"add to ~/.config/fish/config.fish: cudaenv init fish{flag} | source"
    if shell == "tcsh":
        return f'add to ~/.tcshrc: eval "`cudaenv init tcsh{flag}`"'
    return f'add to ~/.{shell}rc: eval "$(cudaenv init {shell}{flag})"'


def do_init(shell: str | None, auto: bool) -> int:
    """``cudaenv init [SHELL] [--auto]``: print the integration code."""
    from .infra.console import note, report_error, write_out

    try:
        if not shell:
            from .shells import detect

            shell = detect(os.environ)
            if shell not in INIT_SHELLS:
                raise CudaenvError(
                    f"cannot tell which shell to write for (detected {shell!r})",
                    hint="name it: cudaenv init bash|zsh|fish|tcsh",
                    exit_code=2,
                )
        text = init_text(shell, auto)
    except CudaenvError as exc:
        return report_error(exc)
    if sys.stdout.isatty():
        note(f"this prints shell code; {_rc_hint(shell, auto)}")
    write_out(text)
    return 0


def _split_auto(value: str) -> tuple[str, str]:
    active, _, prev = value.partition(",")
    return active, prev


def _pin_target(pin: str) -> tuple[str, str] | None:
    """(pin file, target) for the pin file the shell found, or None if it is gone."""
    from .profiles.pin import find_pin

    return find_pin(os.path.dirname(pin) or "/")


def plan_auto(ctx: Context, pin: str) -> Plan:
    """What the ``--auto`` hook does now that the nearest pin file is ``pin``.

    Entering a pinned directory (or moving to another pin) switches to the
    pin; leaving every pinned directory switches back to what was active
    before the hook first switched (``off`` if nothing was). If the user has
    switched by hand since, leaving keeps their choice. A pin that does not
    resolve is reported and recorded, so it is not retried at every ``cd``.
    The plan always updates ``_CUDAENV_AUTO_PIN``/``_CUDAENV_AUTO``.
    """
    from .switch import plan_for_use

    env = ctx.env
    old_pin = env.get(PIN_VAR, "")
    by_hook, prev = _split_auto(env.get(AUTO_VAR, ""))
    cur = env.get(ACTIVE_VAR, "")
    if not old_pin or cur != by_hook:
        prev = cur  # a new episode: go back to whatever is active now
    notes: list[str] = []
    extra: list[tuple] = []
    plan = Plan([], [])
    try:
        found = _pin_target(pin) if pin else None
    except CudaenvError as exc:  # unreadable or empty: report once, like a bad version
        found = None
        notes.append(exc.message)
    if pin and (found or notes):
        now = cur
        if found:
            try:
                plan, profile, _tk = plan_for_use(ctx, found[1])
            except CudaenvError as exc:
                notes.append(f"{found[0]}: {exc.message}")
            else:
                now = profile["name"]
                plan.notes = [n for n in plan.notes if n != f"{now} is already active"]
                if now != cur:
                    notes.append(f"{now} (from {found[0]})")
        extra = [("set", PIN_VAR, pin), ("set", AUTO_VAR, f"{now},{prev}")]
    else:  # no pin above (or the file vanished): leave
        if old_pin and cur == by_hook and cur != prev:
            left = os.path.dirname(old_pin) or "/"
            if prev:
                try:
                    plan = plan_for_use(ctx, prev)[0]
                    notes.append(f"back to {prev} (left {left})")
                except CudaenvError as exc:
                    plan = plan_off(env)
                    notes.append(f"cannot go back to {prev} ({exc.message}); off (left {left})")
            else:
                plan = plan_off(env)
                notes.append(f"off (left {left})")
        extra = [("unset", v) for v in (PIN_VAR, AUTO_VAR) if v in env]
    return Plan(plan.changes + extra, plan.notes + notes)


def do_auto(pin: str) -> int:
    """``cudaenv _auto PIN``: the code the ``--auto`` hook evaluates (notes on stderr)."""
    from .context import Context
    from .main import emit_plan
    from .shells import detect, renderer

    ctx = Context()
    return emit_plan(ctx, lambda: plan_auto(ctx, pin), renderer(detect(ctx.env)).render)


def target_candidates(incomplete: str) -> list[tuple[str, str]]:
    """(value, help) for ``use`` targets starting with ``incomplete``.

    Versions first, newest first: each major.minor (the newest of it) and
    each full version; then profile names and the generated names of
    toolkits that have no profile file yet. Read through the cache, like
    ``use``; any error gives no candidates (completion never prints one).
    """
    from .context import Context
    from .profiles.model import generated_name
    from .toolkit import version_key

    try:
        ctx = Context()
        profiles, _ = ctx.profiles()
        toolkits, _ = ctx.scan()
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


def _use_incomplete(env: dict, instruction: str) -> str | None:
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
    """Answer ``cudaenv use <TAB>`` without click, in the formats of cli/completion.py.

    Returns None (click answers) for anything else, including ``*_source``.
    """
    instruction = env.get("_CUDAENV_COMPLETE", "")
    if not instruction.endswith("_complete"):
        return None
    inc = _use_incomplete(env, instruction)
    if inc is None:
        return None
    from .infra.console import write_out

    shell = instruction[: -len("_complete")]
    out = []
    for value, help_ in target_candidates(inc):
        h = _one_line(help_)
        if shell == "bash":
            out.append(f"plain,{value}")
        elif shell == "zsh":
            shown = value.replace(":", "\\:") if h else value  # _describe splits at ':'
            out.append(f"plain\n{shown}\n{h or '_'}")
        elif shell == "fish":
            out.append(f"plain,{value}" + (f"\t{h}" if h else ""))
        else:
            out.append(value)
    write_out("\n".join(out) + "\n")
    return 0


def fast_main(args: list[str]) -> int | None:
    """Handle ``init [SHELL] [--auto]``, ``_auto [PIN]`` and ``use <TAB>`` without click.

    Returns:
        The exit code, or None: click handles this form.
    """
    if not args and "_CUDAENV_COMPLETE" in os.environ:
        return fast_complete(os.environ)
    if args[:1] == ["_auto"]:
        if len(args) > 2:
            from .infra.console import note

            note("usage: cudaenv _auto [PIN_FILE] (the --auto hook's own command)")
            return 2
        return do_auto(args[1] if len(args) > 1 else "")
    if args[:1] == ["init"]:
        rest = args[1:]
        auto = "--auto" in rest
        words = [a for a in rest if a != "--auto"]
        if len(words) > 1 or any(w.startswith("-") for w in words) or rest.count("--auto") > 1:
            return None
        return do_init(words[0] if words else None, auto)
    return None
