"""Injection attempts: payloads delivered through every way text reaches cudaenv's output.

Each payload creates a uniquely named sentinel file (``PWNED_<n>``) if any part
of it runs. It is delivered through one *channel* (a toolkit root's directory
name, a ``.cuda-version`` pin, a profile field, a crafted ``_CUDAENV_STATE``,
the ``--auto`` prompt hooks, conda activation hooks, modulefiles, the CI
formats, ``--tmux``) and cudaenv's output is then consumed by the real thing:
the five shells, Lmod and Environment Modules, the GitHub runner's file
commands (ported in tests/test_ci_outputs.py), the docker client and GitLab's
dotenv parser, a tmux server. Outcomes:

* ``inert``: the consumer ran, the values arrived exactly as meant, undoing
  gave the start back, nothing executed;
* ``refused``: cudaenv (or the module system, at load) said no in one line and
  changed nothing;
* ``EXECUTED``: a sentinel exists (a failure);
* ``broken``: nothing ran, but a value arrived mangled, undo was not exact,
  a variable was injected, or the consumer failed (a failure).

Run through ``tests/fieldpass/run.py`` or ``tests/test_injection.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpcommon as fp  # noqa: E402
from fpcommon import helpers  # noqa: E402

__all__ = ["Attempt", "PAYLOADS", "CHANNELS", "run", "table", "failures"]

#: (id, template): ``SENTINEL`` is replaced by the attempt's sentinel name. None holds a '/', so each
#: can be a directory name; ``evil.sh`` is a script in the consumer's directory that makes the
#: sentinel (for payloads that try to plant BASH_ENV rather than run a command).
PAYLOADS: list[tuple[str, str]] = [
    ("dollar-paren", "$(touch SENTINEL)"),
    ("backtick", "`touch SENTINEL`"),
    ("semicolon", ";touch SENTINEL;"),
    ("and-and", "&&touch SENTINEL&&"),
    ("pipe", "|touch SENTINEL|"),
    ("squote-break", "';touch SENTINEL;'"),
    ("dquote-break", "\";touch SENTINEL;\""),
    ("newline", "x\ntouch SENTINEL\n"),
    ("fish-paren", "(touch SENTINEL)"),
    ("fish-dq-dollar", "\"$(touch SENTINEL)\""),
    ("param-default", "${x:-$(touch SENTINEL)}"),
    ("history", "!touch SENTINEL !! !-1 !$"),
    ("backslash-squote", "\\';touch SENTINEL;'\\"),
    ("cd-home", "$(cd;touch SENTINEL)"),
    ("tcl-bracket", "[exec touch SENTINEL]"),
    ("tcl-brace", "}[exec touch SENTINEL]{"),
    ("lua-longbracket", "]]..os.execute('touch SENTINEL')..[["),
    ("lua-dquote", "\")..os.execute(\"touch SENTINEL\")..(\""),
    ("tmux-format", "#(touch SENTINEL)"),
    ("percent", "%(touch SENTINEL) %s%n %1"),
    ("env-line", "x\nBASH_ENV=evil.sh\nY=1"),
    ("heredoc-delim", "x\nCUDAENV_EOF\nBASH_ENV=evil.sh\n"),
]
_BY_ID = dict(PAYLOADS)
SHELL_CORE = ["dollar-paren", "backtick", "semicolon", "squote-break", "dquote-break", "newline", "fish-paren",
              "fish-dq-dollar", "history", "backslash-squote", "param-default", "percent"]
QUICK = ["dollar-paren", "squote-break", "backtick", "dquote-break", "newline", "history"]


@dataclass
class Attempt:
    channel: str
    consumer: str
    payload: str
    outcome: str  # inert | refused | EXECUTED | broken
    detail: str = ""


class Pass:
    """One run: a root directory, the attempt counter, the results."""

    def __init__(self, root: str, seed: int, quick: bool) -> None:
        self.root, self.seed, self.quick = root, seed, quick
        self.n = 0
        self.results: list[Attempt] = []
        self.missing: dict[str, str] = {}
        self.exe = os.path.join(root, "bin", "cudaenv")
        helpers.write_wrapper(os.path.join(root, "bin"))

    def payloads(self, ids: list[str]) -> list[str]:
        """The payloads a channel tries: all, or in a quick pass two (turning through ``QUICK``)."""
        if not self.quick:
            return ids
        self._turn = getattr(self, "_turn", -1) + 1
        return [QUICK[(2 * self._turn + k) % len(QUICK)] for k in range(2)]

    def each(self, shells: list) -> list:
        """The shells (consumers) one variant runs in: all, or in a quick pass one (turning through them)."""
        if not self.quick or not shells:
            return shells
        self._rot = getattr(self, "_rot", -1) + 1
        return [shells[self._rot % len(shells)]]

    def new(self, channel: str) -> tuple[str, str]:
        """A directory and a sentinel name for one attempt."""
        self.n += 1
        adir = os.path.join(self.root, channel, f"a{self.n:04d}")
        os.makedirs(adir, exist_ok=True)
        return adir, f"PWNED_{self.n:04d}"

    def text(self, pid: str, sentinel: str, adir: str) -> str:
        with open(os.path.join(adir, "evil.sh"), "w") as f:
            f.write(f"touch {adir}/{sentinel}_via_BASH_ENV\n")
        return _BY_ID[pid].replace("SENTINEL", sentinel)

    def record(self, channel: str, consumer: str, pid: str, sentinel: str, outcome: str, detail: str = "") -> None:
        ran = fp.sentinels(self.root, sentinel)
        if ran:
            outcome, detail = "EXECUTED", f"{', '.join(ran)}; {detail}"
        self.results.append(Attempt(channel, consumer, pid, outcome, detail))

    def env(self, adir: str, **extra) -> dict:
        env = fp.base_env(adir, **extra)
        env["PATH"] = f"{os.path.join(self.root, 'bin')}:/usr/local/bin:/usr/bin:/bin"
        env["XDG_CACHE_HOME"] = extra.get("XDG_CACHE_HOME", os.path.join(self.root, "cache"))
        return env


# ---------------------------------------------------------------- a switch in a real shell


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


def shell_steps(p: Pass, shell: str, adir: str, env: dict, steps: list, cwd: str | None = None,
                strict: bool = True) -> tuple[list, list, bytes]:
    """Run ``steps`` in ``shell``: ("use", value|None), ("off",), ("code", text). A dump follows each step.

    Returns (dumps, calls, the shell's stderr): dumps[0] is the start; calls[i] is (rc, out, err)
    of step i (None for code steps).
    """
    vals, out = os.path.join(adir, "vals"), os.path.join(adir, "out")
    os.makedirs(vals, exist_ok=True)
    os.makedirs(out, exist_ok=True)
    sx = fp.Syntax(shell, vals, out, p.exe)
    code = sx.prelude(strict) + sx.dump("d0")
    for i, step in enumerate(steps, 1):
        if step[0] == "use":
            key = None
            if step[1] is not None:
                key = f"t{i}"
                with open(os.path.join(vals, key), "wb") as f:
                    f.write(os.fsencode(step[1]))
            code += sx.call(["use"], f"c{i}", key)
        elif step[0] == "off":
            code += sx.call(["off"], f"c{i}")
        else:
            code += step[1](sx) if callable(step[1]) else step[1]
        code += sx.dump(f"d{i}")
    try:
        proc = fp.run_script(shell, code, os.path.join(adir, f"script.{shell}"), env, cwd or adir, timeout=180)
        err = proc.stderr
    except subprocess.TimeoutExpired:
        err = b"(timed out)"
    dumps = [fp.dump_of(os.path.join(out, f"d{i}.env")) for i in range(len(steps) + 1)]
    calls = []
    for i, step in enumerate(steps, 1):
        if step[0] in ("use", "off"):
            r = _read(os.path.join(out, f"c{i}.r")).strip()
            calls.append((int(r) if r.lstrip(b"-").isdigit() else None, _read(os.path.join(out, f"c{i}.o")),
                          _read(os.path.join(out, f"c{i}.e"))))
        else:
            calls.append(None)
    return dumps, calls, err


def judge_switch(dumps, calls, err, check) -> tuple[str, str]:
    """use (calls[0]) then off (calls[1]): refused, or inert when ``check(during)`` is None and off is exact."""
    if any(d is None for d in dumps) or calls[0][0] is None:
        return "broken", f"the shell stopped early: {err[-300:]!r}"
    rc, o, e = calls[0]
    if b"Traceback" in e:
        return "broken", f"a traceback: {e[-300:]!r}"
    if rc != 0:
        if fp.one_line_refusal(rc, o, e) and dumps[1] == dumps[0]:
            return "refused", e.decode("utf-8", "replace").strip()
        return "broken", f"status {rc} but not a clean refusal: stdout {o[:200]!r} stderr {e[:300]!r}"
    problem = check(dumps[1])
    if problem:
        return "broken", problem
    if dumps[-1] != dumps[0]:
        diff = sorted(k.decode("utf-8", "replace") for k in set(dumps[0]) | set(dumps[-1])
                      if dumps[0].get(k) != dumps[-1].get(k))
        return "broken", f"off did not give the start back: {', '.join(diff)}"
    return "inert", ""


def expect(**want: str | None):
    """A check: each variable holds exactly this value during the switch."""
    def check(d: dict) -> str | None:
        for k, v in want.items():
            got = d.get(k.encode())
            if got != (None if v is None else os.fsencode(v)):
                return f"{k} is {got!r}, expected {v!r}"
        return None
    return check


def _shells(p: Pass, shells) -> list[str]:
    ok = []
    for s in shells:
        try:
            fp.require(s)
            ok.append(s)
        except fp.Missing as exc:
            p.missing[s] = str(exc)
    return ok


# ---------------------------------------------------------------- channels


def ch_root(p: Pass, shells) -> None:
    """A toolkit root whose directory name is the payload; typed as a version and as a path."""
    for pid in p.payloads(SHELL_CORE + ["tmux-format", "tcl-bracket", "lua-longbracket", "env-line"]):
        for how in ("version", "path"):
            if how == "version" and ":" in _BY_ID[pid]:
                continue  # CUDAENV_ROOTS is a colon list: such a root can only be typed as a path
            for shell in p.each(shells):
                if how == "path" and shell == "tcsh" and "\n" in _BY_ID[pid]:
                    continue  # the harness cannot hold a newline in a tcsh variable to type it
                adir, s = p.new("root")
                root = os.path.join(adir, "tk", p.text(pid, s, adir))
                helpers.make_toolkit(root, "12.3.7")
                env = p.env(adir, CUDAENV_ROOTS=root)
                dumps, calls, err = shell_steps(p, shell, adir, env,
                                                [("use", "12.3" if how == "version" else root), ("off",)])
                o, d = judge_switch(dumps, calls, err, expect(CUDA_HOME=root, CUDA_PATH=root))
                p.record(f"root ({how})", shell, pid, s, o, d)


def ch_cachedir(p: Pass, shells) -> None:
    """The cache directory (the driver-stub link's parent, put on LD_LIBRARY_PATH) named by the payload."""
    for pid in p.payloads(SHELL_CORE):
        for shell in p.each(shells):
            adir, s = p.new("cachedir")
            root = helpers.make_toolkit(os.path.join(adir, "tk", "cuda-12.3"), "12.3.7")
            cache = os.path.join(adir, p.text(pid, s, adir), "cache")
            env = p.env(adir, CUDAENV_ROOTS=root, XDG_CACHE_HOME=cache)

            def check(d, cache=cache, root=root):
                ld = d.get(b"LD_LIBRARY_PATH", b"").split(b":")
                if ld[0] != os.fsencode(root) + b"/lib64":
                    return f"LD_LIBRARY_PATH is {d.get(b'LD_LIBRARY_PATH')!r}"
                if len(ld) == 2 and not ld[1].startswith(os.fsencode(cache)):
                    return f"the stub link directory is {ld[1]!r}, not under the cache"
                return None

            dumps, calls, err = shell_steps(p, shell, adir, env, [("use", "12.3"), ("off",)])
            o, d = judge_switch(dumps, calls, err, check)
            if o == "inert" and b":" not in dumps[1].get(b"LD_LIBRARY_PATH", b""):
                d = "switched without the stub link: " + calls[0][2].decode("utf-8", "replace").strip()
            p.record("cache dir name", shell, pid, s, o, d)


def ch_pin(p: Pass, shells) -> None:
    """.cuda-version in a project directory named by the payload: the payload after the version, or alone."""
    for pid in p.payloads(SHELL_CORE):
        for how in ("after the version", "alone"):
            for shell in p.each(shells):
                adir, s = p.new("pin")
                root = helpers.make_toolkit(os.path.join(adir, "tk", "cuda-12.3"), "12.3.7")
                payload = p.text(pid, s, adir)
                proj = os.path.join(adir, "proj " + payload.replace("\n", "_"))
                os.makedirs(proj, exist_ok=True)
                with open(os.path.join(proj, ".cuda-version"), "w") as f:
                    f.write(("12.3 " + payload if how != "alone" else payload) + "\n")
                env = p.env(adir, CUDAENV_ROOTS=root)
                dumps, calls, err = shell_steps(p, shell, adir, env, [("use", None), ("off",)], cwd=proj)
                o, d = judge_switch(dumps, calls, err, expect(CUDA_HOME=root))
                p.record(f"pin ({how})", shell, pid, s, o, d)


def _profile(adir: str, data: dict) -> str:
    cfg = os.path.join(adir, "cfg")
    pdir = os.path.join(cfg, "cudaenv", "profiles")
    os.makedirs(pdir, exist_ok=True)
    with open(os.path.join(pdir, "inj.yaml"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)  # JSON is YAML
    return cfg


PROFILE_FIELDS = ("name", "root", "description", "set value", "prepend entry", "variable name", "build.arch_list",
                  "host_compiler")


def ch_profile(p: Pass, shells) -> None:
    """Every field of a profile file holding the payload."""
    for pid in p.payloads(["dollar-paren", "backtick", "squote-break", "dquote-break", "newline", "history",
                           "fish-dq-dollar", "percent"]):
        for fld in PROFILE_FIELDS:
            for shell in p.each(shells):
                if fld == "name" and shell == "tcsh" and "\n" in _BY_ID[pid]:
                    continue  # the typed name: tcsh cannot hold the newline (see ch_root)
                adir, s = p.new("profile")
                payload = p.text(pid, s, adir)
                root = os.path.join(adir, "tk", payload) if fld == "root" else os.path.join(adir, "tk", "cuda-12.3")
                helpers.make_toolkit(root, "12.3.7")
                data = {"name": "inj", "root": root, "host_compiler": "none",
                        "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}"},
                        "prepend": {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ["{root}/lib64"]}}
                want = {"CUDA_HOME": root}
                target = "inj"
                if fld == "name":
                    data["name"] = target = "inj" + payload
                elif fld == "description":
                    data["description"] = payload
                elif fld == "set value":
                    data["set"]["INJ_VALUE"] = payload
                    want["INJ_VALUE"] = payload
                elif fld == "prepend entry":
                    data["prepend"]["CPATH"] = ["/opt/" + payload]
                    want["CPATH"] = "/opt/" + payload
                elif fld == "variable name":
                    data["set"]["INJ" + payload] = "v"
                elif fld == "build.arch_list":
                    data["build"] = {"arch_list": payload}
                    want["TORCH_CUDA_ARCH_LIST"] = payload
                elif fld == "host_compiler":
                    data["host_compiler"] = "/usr/bin/" + payload
                    want["CUDAHOSTCXX"] = "/usr/bin/" + payload
                cfg = _profile(adir, data)
                env = p.env(adir, CUDAENV_ROOTS=root, XDG_CONFIG_HOME=cfg)
                dumps, calls, err = shell_steps(p, shell, adir, env, [("use", target), ("off",)])
                o, d = judge_switch(dumps, calls, err, expect(**want))
                p.record(f"profile {fld}", shell, pid, s, o, d)


def ch_state(p: Pass, shells) -> None:
    """A crafted _CUDAENV_STATE (and CUDAENV_ACTIVE) in the environment, then `off`, or `use` over it."""
    from cudaenv.env.state import State, encode

    for pid in p.payloads(SHELL_CORE):
        for how in ("variable name", "prior value", "list entry", "profile name", "raw text", "use over it"):
            for shell in p.each(shells):
                adir, s = p.new("state")
                payload = p.text(pid, s, adir)
                root = helpers.make_toolkit(os.path.join(adir, "tk", "cuda-12.3"), "12.3.7")
                env = p.env(adir, CUDAENV_ROOTS=root, CUDAENV_ACTIVE="x")
                want: dict = {}
                steps: list = [("off",)]
                if how == "variable name":
                    env["_CUDAENV_STATE"] = f"c1;n,x;s,A{payload},-,v"
                elif how == "prior value":
                    env["_CUDAENV_STATE"] = encode(State("x", scalars={"CUDA_HOME": (payload, "/ours")}))
                    env["CUDA_HOME"] = "/ours"
                    want = {"CUDA_HOME": payload}
                elif how == "list entry":
                    entry = "/opt/" + payload.replace(":", "_")
                    env["_CUDAENV_STATE"] = encode(State("x", lists={"LIBRARY_PATH": ("v", [entry], [])}))
                    env["LIBRARY_PATH"] = entry + ":/usr/lib"
                    want = {"LIBRARY_PATH": "/usr/lib"}
                elif how == "profile name":
                    env["_CUDAENV_STATE"] = encode(State(payload, scalars={"CUDA_HOME": (None, "/ours")}))
                    env["CUDA_HOME"] = "/ours"
                    env["CUDAENV_ACTIVE"] = payload
                    want = {"CUDA_HOME": None}
                elif how == "raw text":
                    env["_CUDAENV_STATE"] = f"c1;n,{payload};s,CUDA_HOME,{payload},/ours"
                    env["CUDA_HOME"] = "/ours"
                else:
                    env["_CUDAENV_STATE"] = encode(State("x", scalars={"CUDA_HOME": (payload, "/ours")}))
                    env["CUDA_HOME"] = "/ours"
                    steps = [("use", "12.3"), ("off",)]
                dumps, calls, err = shell_steps(p, shell, adir, env, steps)
                if how == "use over it":
                    o, d = judge_switch(dumps, calls, err, expect(CUDA_HOME=root))
                    if o == "broken" and dumps[-1] is not None and dumps[-1].get(b"CUDA_HOME") == os.fsencode(payload):
                        o, d = "inert", ""  # off gives back what the crafted record said was there before
                    p.record(f"state ({how})", shell, pid, s, o, d)
                    continue
                # `off` alone: refused without change, or the crafted record undone as it says.
                if dumps[1] is None or calls[0][0] is None:
                    o, d = "broken", f"the shell stopped early: {err[-300:]!r}"
                elif calls[0][0] != 0:
                    ok = fp.one_line_refusal(*calls[0]) and dumps[1] == dumps[0]
                    o, d = ("refused", calls[0][2].decode("utf-8", "replace").strip()) if ok else \
                        ("broken", f"not a clean refusal: {calls[0]!r}")
                else:
                    problem = expect(**want)(dumps[1]) if want else None
                    left = [k for k in (b"_CUDAENV_STATE", b"CUDAENV_ACTIVE") if k in dumps[1]]
                    o, d = ("broken", problem or f"left {left}") if problem or left else ("inert", "")
                p.record(f"state ({how})", shell, pid, s, o, d)


def ch_auto(p: Pass, shells) -> None:
    """`cudaenv init SHELL --auto`: cd into a project named by the payload (pin after the version), or a bad pin."""
    for pid in p.payloads(SHELL_CORE):
        for how in ("project directory", "pin alone"):
            for shell in p.each([x for x in shells if x != "dash"]):  # dash has no init
                adir, s = p.new("auto")
                payload = p.text(pid, s, adir)
                if shell == "tcsh" and "\n" in payload:
                    # The harness cannot even name such a directory in tcsh (no newline in its variables).
                    payload = payload.replace("\n", " ")
                root = helpers.make_toolkit(os.path.join(adir, "tk", "cuda-12.3"), "12.3.7")
                proj = os.path.join(adir, "work", payload if how == "project directory" else "proj", "deep")
                os.makedirs(proj, exist_ok=True)
                with open(os.path.join(os.path.dirname(proj), ".cuda-version"), "w") as f:
                    f.write(("12.3 " + payload if how == "project directory" else payload) + "\n")
                env = p.env(adir, CUDAENV_ROOTS=root, TERM="dumb")
                vals = os.path.join(adir, "vals")
                os.makedirs(vals, exist_ok=True)
                with open(os.path.join(vals, "proj"), "wb") as f:
                    f.write(os.fsencode(proj))
                with open(os.path.join(vals, "home"), "wb") as f:
                    f.write(os.fsencode(adir))

                def cd(key):
                    def code(sx):
                        c = {"posix": 'cd "$_v"\n', "fish": "cd $_v\n", "tcsh": 'cd "$_v"\n'}[sx.fam]
                        return sx.read(key) + c
                    return code

                steps = [("code", lambda sx: sx.init(auto=True)), ("code", cd("proj")), ("code", cd("home"))]
                if shell == "bash":
                    dumps, err = _bash_interactive(p, adir, env, steps)
                else:
                    dumps, _calls, err = shell_steps(p, shell, adir, env, steps)
                if any(d is None for d in dumps):
                    o, d = "broken", f"the shell stopped early: {err[-300:]!r}"
                elif dumps[3] != dumps[1]:
                    o, d = "broken", "leaving the project did not give the start back"
                elif how == "project directory":
                    problem = expect(CUDA_HOME=root)(dumps[2])
                    o, d = ("broken", problem) if problem else ("inert", "")
                else:
                    changed = {k for k in set(dumps[1]) | set(dumps[2]) if dumps[1].get(k) != dumps[2].get(k)}
                    changed -= {b"_CUDAENV_AUTO_PIN", b"_CUDAENV_AUTO"}
                    o, d = ("refused", "the hook reported the pin") if not changed and b"cudaenv:" in err else \
                        ("broken", f"a bad pin changed {sorted(changed)}") if changed else ("inert", "")
                p.record(f"--auto ({how})", shell, pid, s, o, d)


def _bash_interactive(p: Pass, adir: str, env: dict, steps: list) -> tuple[list, bytes]:
    """bash -i reading its commands from stdin, so PROMPT_COMMAND runs between them (as at a terminal).

    Each dump is a line of its own: the prompt hook has run before bash reads it.
    """
    vals, out = os.path.join(adir, "vals"), os.path.join(adir, "out")
    os.makedirs(out, exist_ok=True)
    sx = fp.Syntax("bash", vals, out, p.exe)
    text = "set -u\n" + sx.dump("d0")
    for i, (_kind, code) in enumerate(steps, 1):
        text += code(sx) + sx.dump(f"d{i}")
    try:
        proc = subprocess.run([fp.require("bash"), "--norc", "--noprofile", "-i"], input=text.encode(),
                              env={k: os.fsencode(v) if isinstance(v, str) else v for k, v in env.items()},
                              cwd=adir, capture_output=True, timeout=180)
        err = proc.stderr
    except subprocess.TimeoutExpired:
        err = b"(timed out)"
    return [fp.dump_of(os.path.join(out, f"d{i}.env")) for i in range(len(steps) + 1)], err


def _no_conda(d: dict) -> dict:
    return {k: v for k, v in d.items() if not k.startswith(b"CONDA_")}


def ch_conda(p: Pass, shells) -> None:
    """conda-hook install with the payload in the environment's name and in the target path; hooks sourced."""
    from cudaenv.outputs.conda_hooks import hook_paths

    for pid in p.payloads(SHELL_CORE):
        adir, s = p.new("conda")
        payload = p.text(pid, s, adir)
        root = helpers.make_toolkit(os.path.join(adir, "tk", payload), "12.3.7")
        prefix = os.path.join(adir, "envs", payload + " env")
        os.makedirs(os.path.join(prefix, "conda-meta"), exist_ok=True)
        env = p.env(adir)
        res = subprocess.run([p.exe, "conda-hook", "install", root, "--prefix", prefix], env=env, cwd=adir,
                             capture_output=True, timeout=120)
        if res.returncode != 0:
            wrote = [x for _k, _e, x in hook_paths(prefix) if os.path.exists(x)]
            ok = fp.one_line_refusal(res.returncode, res.stdout, res.stderr) and not wrote
            p.record("conda hook", "install", pid, s, "refused" if ok else "broken",
                     res.stderr.decode("utf-8", "replace").strip())
            continue
        files = {(k, e): x for k, e, x in hook_paths(prefix)}
        for shell in p.each(shells):
            sdir = os.path.join(adir, shell)
            os.makedirs(os.path.join(sdir, "vals"), exist_ok=True)
            ext = {"posix": "sh", "fish": "fish", "tcsh": "csh"}[fp.FAMILY[shell]]
            for key, value in (("prefix", prefix), ("act", files[("activate", ext)]),
                               ("deact", files[("deactivate", ext)])):
                with open(os.path.join(sdir, "vals", key), "wb") as f:
                    f.write(os.fsencode(value))

            def activate(sx):
                if sx.fam == "posix":
                    return (sx.read("prefix") + "CONDA_PREFIX=$_v; export CONDA_PREFIX\n"
                            "CONDA_SHLVL=1; export CONDA_SHLVL\n" + sx.read("act") + '. "$_v"\n')
                if sx.fam == "fish":
                    return sx.read("prefix") + "set -gx CONDA_PREFIX $_v; set -gx CONDA_SHLVL 1\n" + sx.read("act") + \
                        "source $_v\n"
                return sx.read("prefix") + 'setenv CONDA_PREFIX "$_v"; setenv CONDA_SHLVL 1\n' + sx.read("act") + \
                    'source "$_v"\n'

            def deactivate(sx):
                src = {"posix": '. "$_v"\n', "fish": "source $_v\n", "tcsh": 'source "$_v"\n'}[sx.fam]
                back = {"posix": "unset CONDA_PREFIX; CONDA_SHLVL=0\n",
                        "fish": "set -e CONDA_PREFIX; set -gx CONDA_SHLVL 0\n",
                        "tcsh": "unsetenv CONDA_PREFIX; setenv CONDA_SHLVL 0\n"}[sx.fam]
                return sx.read("deact") + src + back

            senv = dict(env, CONDA_SHLVL="0")
            dumps, _c, err = shell_steps(p, shell, sdir, senv, [("code", activate), ("code", deactivate)], strict=False)
            if any(d is None for d in dumps):
                o, d = "broken", f"the shell stopped early: {err[-300:]!r}"
            else:
                problem = expect(CUDA_HOME=root)(dumps[1])
                if problem and _no_conda(dumps[1]) == _no_conda(dumps[0]):
                    # install said yes, activation then refuses: the hook warned and changed nothing.
                    problem = ("install accepted the target but activation does not switch: "
                               + " | ".join(err.decode("utf-8", "replace").strip().splitlines()[-2:]))
                o, d = ("broken", problem) if problem else \
                    ("broken", "deactivate did not give the start back") if dumps[2] != dumps[0] else ("inert", "")
            p.record("conda hook", shell, pid, s, o, d)


def ch_modulefiles(p: Pass) -> None:
    """`modulefiles --format lmod|tcl` of a toolkit and a profile value holding the payload, loaded for real."""
    try:
        import test_modulefiles as tm
    except ImportError as exc:  # pragma: no cover
        p.missing["modulefiles"] = str(exc)
        return
    systems = []
    for sid, (kind, fmt) in tm.SYSTEMS.items():
        try:
            systems.append((sid, fmt, tm.prelude(kind)))
        except BaseException as exc:  # pytest's skip/fail outcomes when the module system is missing
            if not type(exc).__module__.startswith(("_pytest", "pytest")):
                raise
            p.missing[sid] = str(exc)
    ids = [x for x, _ in PAYLOADS if x not in ("env-line", "heredoc-delim")]
    for pid in p.payloads(ids):
        for how in ("toolkit root and a value", "output directory"):
            if how != "output directory" and ":" in _BY_ID[pid]:
                continue  # CUDAENV_ROOTS is a colon list: such a root is not found (see ch_root)
            for sid, fmt, prelude in p.each(systems):
                adir, s = p.new("modules")
                payload = p.text(pid, s, adir)
                tkname = payload if how != "output directory" else "cuda-12.3"
                root = helpers.make_toolkit(os.path.join(adir, "tk", tkname), "12.3.7")
                value = payload if how != "output directory" else "plain"
                cfg = _profile(adir, {"name": "cuda-12.3.7", "root": root, "host_compiler": "none",
                                      "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}", "INJ_VALUE": value},
                                      "prepend": {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ["{root}/lib64"]}})
                # The file is inj.yaml but names itself cuda-12.3.7: the toolkit's governing profile.
                env = p.env(adir, CUDAENV_ROOTS=root, XDG_CONFIG_HOME=cfg)
                # MODULEPATH is a colon list: a ':' in the directory name would make it two directories.
                moddir = os.path.join(adir, payload.replace(":", "_") if how == "output directory" else "mod")
                o, d = _module_attempt(p, adir, env, sid, fmt, prelude, moddir, root, value, tm)
                p.record(f"modulefiles ({how})", sid, pid, s, o, d)


def _module_attempt(p: Pass, adir: str, env: dict, sid: str, fmt: str, prelude: str, moddir: str, root: str,
                    value: str, tm) -> tuple[str, str]:
    """Generate, `module load cuda/12.3`, `module unload cuda` in bash: the outcome."""
    gen = subprocess.run([p.exe, "modulefiles", "--format", fmt, "12.3", "--output", moddir], env=env,
                         cwd=adir, capture_output=True, timeout=120)
    if gen.returncode != 0:
        ok = fp.one_line_refusal(gen.returncode, gen.stdout, gen.stderr)
        return ("refused" if ok else "broken"), gen.stderr.decode("utf-8", "replace").strip()
    out = os.path.join(adir, "out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(adir, "moddir"), "wb") as f:
        f.write(os.fsencode(moddir))
    script = (prelude + f'MODULEPATH=$(cat {fp.q("bash", os.path.join(adir, "moddir"))}); export MODULEPATH\n'
              f'env -0 > "{out}/d0.env"\nmodule load cuda/12.3; echo $? > "{out}/r1"\n'
              f'env -0 > "{out}/d1.env"\nmodule unload cuda; echo $? > "{out}/r2"\nenv -0 > "{out}/d2.env"\n')
    try:
        proc = fp.run_script("bash", script, os.path.join(adir, "script.bash"), env, adir, timeout=300)
        err = proc.stderr
    except subprocess.TimeoutExpired:
        err = b"(timed out)"
    dumps = [fp.dump_of(os.path.join(out, f"d{i}.env")) for i in range(3)]
    rc = _read(os.path.join(out, "r1")).strip()
    if any(d is None for d in dumps):
        return "broken", f"the shell stopped early: {err[-300:]!r}"
    if rc != b"0":
        if tm._user(dumps[1]) == tm._user(dumps[0]):
            return "refused", "the module system refused to load it: " + " ".join(
                err.decode("utf-8", "replace").split())[-240:]
        return "broken", f"a failed load changed the environment: {err[-300:]!r}"
    problem = expect(CUDA_HOME=root, INJ_VALUE=value)(dumps[1])
    if problem:
        return "broken", problem
    if tm._user(dumps[2]) != tm._user(dumps[0]):
        return "broken", "unload did not give the start back"
    return "inert", ""


def _ci_toolkit(p: Pass, adir: str, payload: str, where: str) -> tuple[str, str, dict]:
    """A toolkit and profile for the CI formats: (root, INJ_VALUE or None, env)."""
    root = os.path.join(adir, "tk", payload) if where == "root" else os.path.join(adir, "tk", "cuda-12.3")
    helpers.make_toolkit(root, "12.3.7")
    data = {"name": "inj", "root": root, "host_compiler": "none",
            "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}"},
            "prepend": {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ["{root}/lib64"]}}
    if where == "set value":
        data["set"]["INJ_VALUE"] = payload
    cfg = _profile(adir, data)
    return root, (payload if where == "set value" else None), p.env(adir, CUDAENV_ROOTS=root, XDG_CONFIG_HOME=cfg)


CI_IDS = ["dollar-paren", "backtick", "squote-break", "newline", "env-line", "heredoc-delim", "percent", "history"]


def ch_github(p: Pass) -> None:
    """`use --format github`: the runner's file commands (ported), then a bash step that would run BASH_ENV."""
    import test_ci_outputs as tco

    try:
        fp.require("bash")
    except fp.Missing as exc:
        p.missing["github"] = str(exc)
        return
    for pid in p.payloads(CI_IDS):
        for where in ("root", "set value"):
            adir, s = p.new("github")
            payload = p.text(pid, s, adir)
            root, value, env = _ci_toolkit(p, adir, payload, where)
            from pathlib import Path

            job = tco.Job(env, Path(adir))
            s1 = job.run("cudaenv use inj --format github")
            if s1.returncode != 0:
                ok = fp.one_line_refusal(s1.returncode, s1.stdout, s1.stderr) and not job.global_env and not job.prepend
                p.record(f"--format github ({where})", "runner", pid, s, "refused" if ok else "broken",
                         s1.stderr.decode("utf-8", "replace").strip())
                continue
            s2 = job.run("env -0")
            got = helpers.parse_env0(s2.stdout)
            js = subprocess.run([p.exe, "use", "inj", "--format", "json"], env=env, cwd=adir, capture_output=True,
                                timeout=120)
            allowed = set(json.loads(js.stdout)["set"]) if js.returncode == 0 else set()
            extra = sorted(set(job.global_env) - allowed)
            problem = expect(CUDA_HOME=root, INJ_VALUE=value)(got)
            if extra:
                o, d = "broken", f"variables planted: {extra}"
            else:
                o, d = ("broken", problem) if problem else ("inert", "")
            p.record(f"--format github ({where})", "runner", pid, s, o, d)


def ch_dotenv_json(p: Pass) -> None:
    """`use --format dotenv` read by the docker client (fake daemon) and GitLab's parser; `--format json`."""
    import test_ci_outputs as tco

    server = None
    try:
        docker = fp.require("docker")
        sock = os.path.join("/tmp", f"cudaenv-fp-dockerd-{os.getpid()}.sock")
        if os.path.exists(sock):
            os.unlink(sock)
        tco._FakeDockerd.created = []
        server = tco._UnixServer(sock, tco._FakeDockerd)
        threading.Thread(target=server.serve_forever, daemon=True).start()
    except fp.Missing as exc:
        docker = None
        p.missing["docker"] = str(exc)
    try:
        for pid in p.payloads(CI_IDS):
            for where in ("root", "set value"):
                adir, s = p.new("dotenv")
                payload = p.text(pid, s, adir)
                root, value, env = _ci_toolkit(p, adir, payload, where)
                want = {"CUDA_HOME": root}
                if value is not None:
                    want["INJ_VALUE"] = value
                js = subprocess.run([p.exe, "use", "inj", "--format", "json"], env=env, cwd=adir, capture_output=True,
                                    timeout=120)
                if js.returncode != 0:
                    ok = fp.one_line_refusal(js.returncode, js.stdout, js.stderr)
                    p.record(f"--format json ({where})", "python json", pid, s, "refused" if ok else "broken",
                             js.stderr.decode("utf-8", "replace").strip())
                    full = None
                else:
                    full = json.loads(js.stdout)["set"]
                    bad = [k for k, v in want.items() if full.get(k) != v]
                    p.record(f"--format json ({where})", "python json", pid, s, "broken" if bad else "inert",
                             f"wrong {bad}" if bad else "")
                res = subprocess.run([p.exe, "use", "inj", "--format", "dotenv"], env=env, cwd=adir,
                                     capture_output=True, timeout=120)
                if res.returncode != 0:
                    ok = fp.one_line_refusal(res.returncode, res.stdout, res.stderr)
                    for consumer in ("gitlab", "docker") if docker else ("gitlab",):
                        p.record(f"--format dotenv ({where})", consumer, pid, s, "refused" if ok else "broken",
                                 res.stderr.decode("utf-8", "replace").strip())
                    continue
                try:
                    gl = tco.gitlab_parse_dotenv(res.stdout)
                    o = "inert" if full is not None and gl == full else "broken"
                    d = "" if o == "inert" else f"GitLab read {gl!r}"
                except ValueError as exc:
                    o, d = "broken", f"GitLab rejects the file: {exc}"
                p.record(f"--format dotenv ({where})", "gitlab", pid, s, o, d)
                if docker:
                    envfile = os.path.join(adir, "cuda.env")
                    with open(envfile, "wb") as f:
                        f.write(res.stdout)
                    denv = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": adir,
                            "DOCKER_HOST": f"unix://{sock}", "DOCKER_CONFIG": os.path.join(adir, "docker-config")}
                    n = len(tco._FakeDockerd.created)
                    dk = subprocess.run([docker, "create", "--env-file", envfile, "image"], env=denv, cwd=adir,
                                        capture_output=True, timeout=60)
                    if dk.returncode != 0 or len(tco._FakeDockerd.created) == n:
                        o, d = "broken", f"docker failed: {dk.stderr[-300:]!r}"
                    else:
                        got = dict(e.split("=", 1) for e in tco._FakeDockerd.created[-1]["Env"])
                        o, d = ("inert", "") if full is not None and got == full else ("broken", f"docker read {got!r}")
                    p.record(f"--format dotenv ({where})", "docker", pid, s, o, d)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
            os.unlink(sock)


TMUX_IDS = ["dollar-paren", "tmux-format", "semicolon", "squote-break", "newline", "percent"]


def ch_tmux(p: Pass) -> None:
    """`use --tmux` in a pane of a private tmux server: new windows get the values, `off --tmux` restores."""
    import test_tmux as tt

    try:
        exe = fp.require("tmux")
        fp.require("bash")
    except fp.Missing as exc:
        p.missing["tmux"] = str(exc)
        return
    base = os.path.join(p.root, "tmux")
    os.makedirs(base, exist_ok=True)
    todo = []  # (pid, where, version, root, value, sentinel)
    roots, profiles = [], []
    k = 0
    for pid in p.payloads(TMUX_IDS):
        for where in ("root", "set value"):
            if where == "root" and "\n" in _BY_ID[pid]:
                continue  # no colon list (CUDAENV_ROOTS) can name it, and typing it would press Enter
            k += 1
            adir, s = p.new("tmux")
            payload = p.text(pid, s, adir)
            ver = f"12.{k}.0"
            root = os.path.join(adir, "tk", payload) if where == "root" else os.path.join(adir, "tk", f"cuda-{ver}")
            helpers.make_toolkit(root, ver)
            roots.append(root)
            if where == "set value":
                profiles.append({"name": f"cuda-{ver}", "root": root, "host_compiler": "none",
                                 "set": {"CUDA_HOME": "{root}", "INJ_VALUE": payload},
                                 "prepend": {"PATH": ["{root}/bin"]}})
            todo.append((pid, where, ver, root, payload if where == "set value" else None, s))
    pdir = os.path.join(base, "cfg", "cudaenv", "profiles")
    os.makedirs(pdir, exist_ok=True)
    for i, prof in enumerate(profiles):
        with open(os.path.join(pdir, f"p{i}.yaml"), "w", encoding="utf-8") as f:
            json.dump(prof, f, ensure_ascii=False)
    out = os.path.join(base, "out")
    os.makedirs(out, exist_ok=True)
    from pathlib import Path

    env = {"HOME": base, "PATH": f"{os.path.join(p.root, 'bin')}:/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
           "TERM": "xterm-256color", "SHELL": "/bin/bash", "XDG_CONFIG_HOME": os.path.join(base, "cfg"),
           "XDG_CACHE_HOME": os.path.join(p.root, "cache"), "CUDAENV_PROC_ROOT": os.path.join(base, "noproc"),
           "CUDAENV_ROOTS": ":".join(roots)}
    t = tt.Tmux(exe, env, Path(out))
    try:
        # -c: panes start in the pass's tree, where a sentinel would be looked for (not in this process's cwd).
        t("new-session", "-d", "-s", "main", "-c", base, "-x", "200", "-y", "50", "-n", "idle", "sleep 100000",
          env=env)
        t("set-option", "-g", "default-command", "exec bash --norc --noprofile")
        t("set-environment", "-t", "main", "CUDA_HOME", tt.tmux_arg("/session/value;"))
        t("new-window", "-t", "main", "-n", "work", "-c", base)
        t.type('eval "$(cudaenv init bash)"')
        before = t.show()
        win0 = t.new_window_env("win0")
        hung = None
        for i, (pid, where, ver, root, value, s) in enumerate(todo):
            if hung:
                p.record(f"--tmux ({where})", "tmux", pid, s, "broken", f"not run: the pane hung earlier ({hung})")
                continue
            try:
                o, d = _tmux_one(t, i, ver, root, value, before, win0)
            except AssertionError as exc:  # Tmux.wait: the pane stopped answering
                hung = str(exc).splitlines()[0]
                o, d = "broken", hung
            p.record(f"--tmux ({where})", "tmux", pid, s, o, d)
    finally:
        subprocess.run([*t.base, "kill-server"], env=env, capture_output=True, timeout=30)


def _tmux_one(t, i: int, ver: str, root: str, value: str | None, before, win0) -> tuple[str, str]:
    rc = t.type(f"cudaenv use {ver} --tmux")
    if rc != "0":
        return ("refused" if t.show() == before else "broken"), f"status {rc}"
    win = t.new_window_env(f"win{i + 1}")
    problem = expect(CUDA_HOME=root, INJ_VALUE=value)(win)
    rc2 = t.type("cudaenv off --tmux")
    after = t.show()
    win_after = t.new_window_env(f"win{i + 1}b")
    if problem:
        return "broken", problem
    if rc2 != "0" or after != before or win_after != win0:
        return "broken", "off --tmux did not give the session environment back"
    return "inert", ""


CHANNELS = ("root", "cachedir", "pin", "profile", "state", "auto", "conda", "modulefiles", "github", "dotenv",
            "tmux")


def run(seed: int = 1, quick: bool = False, shells: tuple[str, ...] = fp.SHELLS, channels: tuple[str, ...] = CHANNELS,
        root: str | None = None, keep: bool = False) -> tuple[list[Attempt], dict[str, str]]:
    """Every channel × consumer × payload (``quick``: two payloads). ``seed`` is unused: the attempts are fixed."""
    own = root is None
    root = root or fp.new_root("cudaenv-fieldpass-inject-")
    try:
        p = Pass(root, seed, quick)
        sh = _shells(p, shells)
        table_of = {"root": lambda: ch_root(p, sh), "cachedir": lambda: ch_cachedir(p, sh),
                    "pin": lambda: ch_pin(p, sh), "profile": lambda: ch_profile(p, sh),
                    "state": lambda: ch_state(p, sh), "auto": lambda: ch_auto(p, sh),
                    "conda": lambda: ch_conda(p, sh), "modulefiles": lambda: ch_modulefiles(p),
                    "github": lambda: ch_github(p), "dotenv": lambda: ch_dotenv_json(p), "tmux": lambda: ch_tmux(p)}
        for ch in channels:
            table_of[ch]()
        # Also where this process runs: a consumer that ignored its working directory would write there.
        left = fp.sentinels(root) + [os.path.join(os.getcwd(), n) for n in os.listdir(os.getcwd())
                                     if n.startswith("PWNED")]
        if left:
            known = {a.detail.split(";")[0] for a in p.results if a.outcome == "EXECUTED"}
            for f in left:
                if not any(f in k for k in known):
                    p.results.append(Attempt("(any)", "(any)", "(late)", "EXECUTED", f))
        return p.results, p.missing
    finally:
        if own and not keep:
            shutil.rmtree(root, ignore_errors=True)


def summary(results: list[Attempt]) -> str:
    """A markdown table: attempts per channel (all consumers), with the consumers named."""
    rows = ["| channel | consumers | tried | inert | refused | executed | broken |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    chans: list[str] = []
    for a in results:
        if a.channel not in chans:
            chans.append(a.channel)
    tot = [0] * 5
    for ch in chans:
        rs = [a for a in results if a.channel == ch]
        cons = []
        for a in rs:
            if a.consumer not in cons:
                cons.append(a.consumer)
        c = [len(rs)] + [sum(a.outcome == x for a in rs) for x in ("inert", "refused", "EXECUTED", "broken")]
        tot = [x + y for x, y in zip(tot, c)]
        rows.append(f"| {ch} | {', '.join(cons)} | " + " | ".join(f"{x:,}" for x in c) + " |")
    rows.append("| **all** | | " + " | ".join(f"**{x:,}**" for x in tot) + " |")
    return "\n".join(rows)


def table(results: list[Attempt], missing: dict[str, str] | None = None) -> str:
    """A markdown table: attempts per channel × consumer."""
    rows = ["| channel | consumer | tried | inert | refused | executed | broken |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    keys: list[tuple[str, str]] = []
    for a in results:
        if (a.channel, a.consumer) not in keys:
            keys.append((a.channel, a.consumer))
    tot = [0] * 5
    for ch, co in keys:
        rs = [a for a in results if (a.channel, a.consumer) == (ch, co)]
        c = [len(rs)] + [sum(a.outcome == x for a in rs) for x in ("inert", "refused", "EXECUTED", "broken")]
        tot = [x + y for x, y in zip(tot, c)]
        rows.append(f"| {ch} | {co} | " + " | ".join(f"{x:,}" for x in c) + " |")
    rows.append("| **all** | | " + " | ".join(f"**{x:,}**" for x in tot) + " |")
    if missing:
        rows.append("")
        rows.append("Not installed here (skipped): " + ", ".join(sorted(missing)))
    return "\n".join(rows)


def refusals(results: list[Attempt]) -> list[str]:
    """What was refused and why, one line per (channel, reason), with the payloads and how many."""
    groups: dict[tuple[str, str], list[Attempt]] = {}
    for a in results:
        if a.outcome == "refused":
            why = a.detail.split("PWNED_")[0].split("/tmp/")[0].strip().rstrip("'\"(")[:110]
            groups.setdefault((a.channel, why), []).append(a)
    out = []
    for (ch, why), rs in groups.items():
        pids = sorted({a.payload for a in rs})
        out.append(f"{ch}: {len(rs)} × {why} [{', '.join(pids)}]")
    return out


def failures(results: list[Attempt], limit: int = 30) -> list[str]:
    return [f"{a.channel} / {a.consumer} / {a.payload}: {a.outcome}: {a.detail}"
            for a in results if a.outcome in ("EXECUTED", "broken")][:limit]
