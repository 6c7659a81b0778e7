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
"""

from __future__ import annotations

import re
import textwrap
from bisect import bisect_right

from ..toolkit.compat import libstdcxx_gcc, ptx_isa_cuda, table
from .kb import load_entries

__all__ = ["Match", "explain", "render_text", "split_lines", "checked_by", "required_literal", "demangle",
           "DERIVE", "normalize_line", "toolkits_for_arch"]

# CSI sequences (colours, cursor movement) and OSC sequences (titles, hyperlinks):
# gcc, ninja and pip colour their output when they think they talk to a terminal.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
# What pasting adds in front of a line: indentation (pip's subprocess output), e-mail
# and Markdown quoting (">"), box drawing, pytest's "E   ", torchrun's "[rank3]:",
# backticks, a compiler's "  138 | " source gutter.
_PREFIX = re.compile(r"^[ \t]*(?:(?:>|\u2502|\||E(?=[ \t]{2})|\[rank\d+\]:|`+|\d+[ \t]*\|(?=[ \t]*#))[ \t]*)+")
# A compiler's error line: gcc/clang/nvcc "error:", "fatal error:", "nvcc fatal   :",
# MSVC "error C2065:".
_COMPILER_ERROR = re.compile(r"\b(?:error|fatal)\b\s*(?:[A-Z]+\d+\s*)?:")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Check ids whose rules look at the calling shell (cudaenv/checks/shell.py): only
# `cudaenv doctor` runs them; `cudaenv check` runs the rest (and doctor runs those too).
_SHELL_CHECKS = ("env.", "torch.extension_lock", "driver.library_mismatch")
# Ids that only name a verdict: no rule can see the problem on the machine.
_NO_RULE = ("runtime.out_of_memory",)
# A matched line longer than this is cut (in the JSON too): minified or joined logs.
MAX_LINE = 2000
# A message may continue over this many lines after the one it starts on.
_SPAN = 3


def checked_by(check: str | None) -> str | None:
    """The command that runs the check ``check`` (None: nothing can check it beforehand)."""
    if check is None or check in _NO_RULE:
        return None
    return "cudaenv doctor" if check.startswith(_SHELL_CHECKS) else "cudaenv check"


class Match:
    """One known error found in the input.

    Attributes:
        id: The knowledge-base entry's stable id.
        title: One line, placeholders filled from the captured and derived values.
        check: The ``cudaenv check`` id that catches the problem (None for a program bug).
        line: 1-based number of the line where the message starts.
        matched: The message (over several lines when it was wrapped), colour codes,
            quoting and indentation removed.
        count: How many places matched this entry in all.
        cause: Why it happens.
        fix: What to do, one step per line.
        first_error: For a generic build failure: (line number, text) of the first
            compiler error line in the input, or None.
        values: What the message said (captured) and what follows from it (derived).
        environment: False for a verdict that the problem is in the program, not the
            environment (out of memory, a device-side assert, an illegal address).
        here: Lines naming this machine's facts (installed toolkits, torch, driver) that
            answer the message; empty when the host was not looked at (``--no-host``).
        host: The host facts those lines used (None when the host was not looked at).
    """

    __slots__ = ("id", "title", "check", "line", "matched", "count", "cause", "fix", "first_error", "values",
                 "environment", "here", "host")

    def __init__(self, id: str, title: str, check: str | None, line: int, matched: str, cause: str, fix: str,
                 count: int = 1, first_error: tuple[int, str] | None = None, values: dict | None = None,
                 environment: bool = True) -> None:
        self.id = id
        self.title = title
        self.check = check
        self.line = line
        self.matched = matched
        self.count = count
        self.cause = cause
        self.fix = fix
        self.first_error = first_error
        self.values = values or {}
        self.environment = environment
        self.here: list[str] = []
        self.host: dict | None = None

    def to_dict(self) -> dict:
        """The ``explain --json`` object (stable: keys are added, never removed or renamed)."""
        fe = self.first_error
        return {
            "id": self.id,
            "title": self.title,
            "check": self.check,
            "checked_by": checked_by(self.check) if self.environment else None,
            "line": self.line,
            "matched": self.matched,
            "count": self.count,
            "cause": self.cause,
            "fix": self.fix,
            "first_error": None if fe is None else {"line": fe[0], "text": fe[1]},
            "values": dict(self.values),
            "environment": self.environment,
            "here": list(self.here),
            "host": self.host,
        }

    def __repr__(self) -> str:
        return f"Match({self.id!r}, line={self.line})"


class _Compiled:
    """The knowledge base with its patterns compiled.

    MULTILINE, because each pattern scans the whole text (see :func:`_scan`).
    """

    def __init__(self, entries: list[dict]) -> None:
        self.entries = [(e, [re.compile(p, re.MULTILINE) for p in e["patterns"]]) for e in entries]
        self.needles = {p: required_literal(p) for e in entries for p in e["patterns"]}


_default: _Compiled | None = None


def _knowledge(entries: list[dict] | None) -> _Compiled:
    """The packaged knowledge base, compiled once; or ``entries``, compiled now."""
    global _default
    if entries is not None:
        return _Compiled(entries)
    if _default is None:
        _default = _Compiled(load_entries())
    return _default


def split_lines(text: str) -> list[str]:
    """``text`` as lines, without colour codes or line ends (``\\r\\n`` too).

    Only ``\\n`` ends a line, so line numbers agree with an editor's.
    """
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    return [line.rstrip("\r") for line in text.split("\n")]


def normalize_line(line: str) -> str:
    """One line as the terminal showed it, without what pasting put in front of it.

    ``\\r`` overwrites (progress bars) are kept as separate pieces of the same line:
    what was overwritten can still hold the error.
    """
    if "\r" in line:
        line = "  ".join(p for p in line.split("\r") if p.strip())
    line = line.rstrip()
    if line[:1] in " \t>|`E[\u2502" or line[:1].isdigit():
        line = _PREFIX.sub("", line, count=1)
    return line


class _Text:
    """Normalised lines, the same lines joined by ``\\n``, and where each line starts."""

    def __init__(self, text: str) -> None:
        self.lines = [normalize_line(line) for line in split_lines(text)]
        self.text = "\n".join(self.lines)
        self.starts = []
        pos = 0
        for line in self.lines:
            self.starts.append(pos)
            pos += len(line) + 1

    def line_at(self, offset: int) -> int:
        """Index of the line holding ``offset``."""
        return bisect_right(self.starts, offset) - 1

    def end(self, i: int) -> int:
        """Offset just past line ``i``."""
        return self.starts[i] + len(self.lines[i])


_META = frozenset(".^$*+?{}[]\\|()")


def required_literal(pattern: str) -> str | None:
    """The longest run of plain characters that every match of ``pattern`` contains.

    Conservative: only text outside groups and character classes counts, a
    character followed by ``?``, ``*`` or ``{`` does not, and a pattern with a
    top-level ``|`` has none. Returns None when the longest run is shorter than
    three characters.
    """
    runs: list[str] = []
    cur: list[str] = []
    depth = 0
    i, n = 0, len(pattern)

    def flush() -> None:
        if cur:
            runs.append("".join(cur))
            cur.clear()

    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            d = pattern[i + 1]
            i += 2
            if depth:
                continue
            if d.isalnum():  # \\b, \\d, \\w, a back-reference...: not a literal
                flush()
                continue
            cur.append(d)
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            if not depth:
                flush()
        elif c == "(":
            if not depth:
                flush()
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
        elif c == "|":
            if not depth:
                return None
            i += 1
        elif c in "*?{+":
            if not depth:
                if c != "+" and cur:
                    cur.pop()  # the quantified character may be absent
                flush()
            if c == "{":
                j = pattern.find("}", i)
                i = n if j < 0 else j + 1
            else:
                i += 1
        elif c in _META:  # . ^ $
            if not depth:
                flush()
            i += 1
        else:
            if not depth:
                cur.append(c)
            i += 1
    flush()
    best = max(runs, key=len, default="")
    return best if len(best) >= 3 else None


def _scan(rx: re.Pattern, needle: str | None, t: _Text) -> dict[int, re.Match]:
    """The first match of ``rx`` starting on each line, by line index.

    A log can have 100,000 lines, so this avoids one Python-level search per line
    per pattern: with a ``needle`` (a literal every match contains, see
    :func:`required_literal`) ``str.find`` locates the candidate lines and the
    pattern is tried on a window of lines around each; without one, the pattern
    searches the whole text. A match may run over at most ``_SPAN`` line ends (a
    wrapped message), never further.
    """
    found: dict[int, re.Match] = {}
    text = t.text
    last = len(t.lines) - 1
    if needle is None:
        for m in rx.finditer(text):
            if text.count("\n", m.start(), m.end()) <= _SPAN:
                found.setdefault(t.line_at(m.start()), m)
        return found
    pos = 0
    scanned = 0  # lines before this one were searched from their start already
    while True:
        k = text.find(needle, pos)
        if k < 0:
            break
        i = t.line_at(k)
        if i in found:  # a window before already matched here
            pos = t.end(i) + 1
            continue
        lo = t.starts[max(0, i - _SPAN, scanned)]
        hi = t.end(min(last, i + _SPAN))
        scanned = i + 1
        for m in rx.finditer(text, lo, hi):
            if text.count("\n", m.start(), m.end()) <= _SPAN:
                found.setdefault(t.line_at(m.start()), m)
        pos = t.end(i) + 1
    return found


def _fill(text: str, values: dict[str, str | None]) -> str:
    def sub(m: re.Match) -> str:
        return values[m.group(1)] if m.group(1) in values else m.group(0)

    return _PLACEHOLDER.sub(sub, text)


def _clip(line: str) -> str:
    line = " ".join(part.strip() for part in line.split("\n") if part.strip())
    return line if len(line) <= MAX_LINE else line[:MAX_LINE] + "…"


def _first_compiler_error(t: _Text, before: int, skip: list[re.Pattern]) -> tuple[int, str] | None:
    """The first line (index < ``before``) that looks like a compiler error, else None.

    After a ninja ``FAILED:`` line when there is one: what ninja ran before it succeeded.
    """
    start = 0
    for i in range(before):
        if t.lines[i].startswith("FAILED:"):
            start = i
            break
    for i in range(start, before):
        line = t.lines[i]
        if ("error" in line or "fatal" in line) and _COMPILER_ERROR.search(line) \
                and not any(p.search(line) for p in skip):
            return i + 1, _clip(line)
    return None


def explain(text: str, entries: list[dict] | None = None) -> list[Match]:
    """Every known error in ``text``: root causes first, then consequences, each once.

    Args:
        text: One message or a whole build log, as pasted.
        entries: Knowledge-base entries (default: the packaged ``errors.yaml``).

    Returns:
        One :class:`Match` per entry that matched, ordered by the entry's ``rank``
        (0, a cause, by default; 1 for a warning or a consequence such as "No CUDA
        runtime is found"), then by the line where it first matched, then by
        knowledge-base order. A ``fallback`` entry (a generic build failure) is left
        out when any other entry matched: the specific cause explains it better.
    """
    kb = _knowledge(entries)
    t = _Text(text)
    hits = []  # (rank, first line index, kb order, entry, first match, number of places)
    for n, (entry, pats) in enumerate(kb.entries):
        where: dict[int, re.Match] = {}
        for rx in pats:  # the entry's patterns go from the most to the least specific
            for i, m in _scan(rx, kb.needles[rx.pattern], t).items():
                where.setdefault(i, m)
        if where:
            i = min(where)
            hits.append((entry.get("rank", 0), i, n, entry, where[i], len(where)))
    if any(not h[3].get("fallback") for h in hits):
        hits = [h for h in hits if not h[3].get("fallback")]
    matches = []
    for _, i, _, entry, m, count in sorted(hits, key=lambda h: h[:3]):
        values = {k: v for k, v in m.groupdict().items() if v}
        filled = {**entry.get("defaults", {}), **values}
        derive = entry.get("derive")
        if derive:
            derived = DERIVE[derive](filled, t, m)
            values.update({k: v for k, v in derived.items() if v})
            filled.update({k: v for k, v in derived.items() if v or k not in filled})
        first = _first_compiler_error(t, i, [re.compile(p) for p in entry["patterns"]]) \
            if entry.get("first_error") else None
        matches.append(Match(
            id=entry["id"],
            title=_fill(entry["title"], filled),
            check=entry.get("check"),
            line=i + 1,
            matched=_clip(m.string[t.starts[i]:max(m.end(), t.end(i))]),
            cause=_fill(entry["cause"], filled).strip(),
            fix=_fill(entry["fix"], filled).strip(),
            count=count,
            first_error=first,
            values=values,
            environment=entry.get("environment", True),
        ))
    return matches


# Facts derived from what a message captured ---------------------------------------------
#
# Each function takes the captured values, the whole text and the match, and returns
# the names its entry declares in `derived` (errors.yaml): strings, never None.


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:2])


def _toolkit_rows() -> list[tuple[str, dict]]:
    rows = [(v, r) for v, r in table()["toolkits"].items() if r]
    return sorted(rows, key=lambda vr: _vkey(vr[0]))


def _span(versions: list[str]) -> str:
    """``9.0-10.2``, ``11.8 or newer`` (up to the newest known), or one version."""
    if not versions:
        return ""
    newest = _toolkit_rows()[-1][0]
    if versions[-1] == newest:
        return f"{versions[0]} or newer"
    return versions[0] if len(versions) == 1 else f"{versions[0]}-{versions[-1]}"


def _arch_number(arch: str) -> int | None:
    m = re.search(r"(\d+)", arch)
    return int(m.group(1)) if m else None


def toolkits_for_arch(sm: int | None) -> list[str]:
    """The toolkit versions (``major.minor``, oldest first) whose nvcc compiles for ``sm_<sm>``."""
    if sm is None:
        return []
    return [v for v, r in _toolkit_rows() if r.get("sm_min") is not None and r["sm_min"] <= sm <= r["sm_max"]]



def _nvcc_seen(t: _Text) -> str:
    m = re.search(r"Cuda compilation tools, release (\d+\.\d+)|[/\\]cuda-?(\d+\.\d+)[/\\]bin[/\\]nvcc|"
                  r"CUDA[/\\\s]v?(\d+\.\d+)[/\\.]", t.text)
    return next((g for g in m.groups() if g), "") if m else ""


def _d_arch(v: dict, t: _Text, m: re.Match) -> dict:
    arch = v.get("arch", "")
    sm = _arch_number(arch)
    have = toolkits_for_arch(sm)
    seen = _nvcc_seen(t)
    newest = _toolkit_rows()[-1][0]
    note = f" The nvcc in this log is CUDA {seen}." if seen else ""
    if not have:
        advice = (f"No CUDA toolkit in cudaenv's tables compiles for {arch}: take it out of the architecture list "
                  f"(-gencode/-arch, CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST); a script that computed it "
                  f"may have failed to see the GPU.")
        toolkits = "none"
    elif have[-1] != newest:
        advice = (f"{arch} was dropped after CUDA {have[-1]} (it compiles with CUDA {_span(have)} only): take it out "
                  f"of the architecture list (-gencode/-arch, CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST), "
                  f"or build with one of those toolkits: `eval \"$(cudaenv use {have[-1]})\"`.")
        toolkits = _span(have)
    else:
        advice = (f"{arch} needs CUDA {have[0]} or newer: `eval \"$(cudaenv use {have[0]})\"` or any later "
                  f"toolkit (`cudaenv list` shows what is installed); or take {arch} out of the architecture list.")
        toolkits = _span(have)
    return {"toolkits": toolkits, "advice": advice, "nvcc_note": note}


def _torch_wheels_from(cuda: str) -> str:
    """The first torch release with a wheel for CUDA ``cuda`` or newer (``1.8 (+cu111)``)."""
    for tv, ent in sorted(table()["torch"].items(), key=lambda kv: _vkey(kv[0])):
        cudas = [c for c in (ent.get("cuda") or []) if _vkey(c) >= _vkey(cuda)]
        if cudas:
            return f"torch {tv} or newer, in a build for CUDA {cudas[0]} or newer (+cu{cudas[0].replace('.', '')})"
    return ""


def _d_torch_arch(v: dict, t: _Text, m: re.Match) -> dict:
    arch = v.get("arch") or ""
    if v.get("capability"):
        arch = "sm_" + v["capability"].replace(".", "")
    sm = _arch_number(arch)
    have = toolkits_for_arch(sm)
    newest = _toolkit_rows()[-1][0]
    if v.get("capability"):  # "too old"
        if have:
            advice = (f"Official torch builds no longer carry code for {arch}. Use an older torch release whose "
                      f"builds still include it, or build torch (and extensions) from source with "
                      f"TORCH_CUDA_ARCH_LIST={sm // 10}.{sm % 10} under a toolkit that still compiles for it "
                      f"(CUDA {_span(have)}: `eval \"$(cudaenv use {have[-1]})\"`).")
        else:
            advice = (f"No CUDA toolkit in cudaenv's tables compiles for {arch} any more: this GPU cannot run a "
                      f"current torch; run on the CPU or another GPU.")
    elif have and have[-1] == newest:
        wheels = _torch_wheels_from(have[0])
        advice = (f"{arch} needs code from CUDA {have[0]} or newer: install {wheels or 'a torch build for it'}; "
                  f"`python -c \"import torch; print(torch.cuda.get_arch_list())\"` must list {arch}.")
    else:
        advice = (f"Install a torch build whose `torch.cuda.get_arch_list()` includes {arch} "
                  f"(toolkits that compile for it: CUDA {_span(have) or 'none known'}).")
    return {"arch": arch, "advice": advice}


def _d_cuda_pair(v: dict, t: _Text, m: re.Match) -> dict:
    d, tv = v.get("detected", ""), v.get("torch", "")
    a, b = _vkey(d), _vkey(tv)
    builds = ""
    if len(a) == 2 and len(b) == 2:
        tags = [k for k, e in sorted(table()["torch"].items(), key=lambda kv: _vkey(kv[0]))
                if d in (e.get("cuda") or [])]
        if tags:
            builds = (f" Official torch builds for CUDA {d}: torch {', '.join(tags)} "
                      f"(`pip install torch --index-url https://download.pytorch.org/whl/cu{d.replace('.', '')}`).")
        else:
            builds = f" No official torch build uses CUDA {d}."
        if a[0] != b[0]:
            return {"difference": "major", "differ": "differ in major version", "builds": builds,
                    "why": "torch's BuildExtension (setup.py, pip builds) refuses a toolkit whose major version "
                           "differs from the one torch was built with: the extension would need a second CUDA "
                           "runtime."}
        return {"difference": "minor", "differ": "differ in minor version only", "builds": builds,
                "why": "They differ only in the minor version. Recent torch only warns about that; this torch "
                       "refuses any difference (older releases did), so the build stops although the two would "
                       "work together."}
    return {"difference": "", "differ": "differ", "builds": builds,
            "why": "torch's BuildExtension (setup.py, pip builds) compares the nvcc under CUDA_HOME with the CUDA "
                   "torch was built with and refuses the difference."}


def _d_ptx(v: dict, t: _Text, m: re.Match) -> dict:
    need = (ptx_isa_cuda(v.get("ptx", "")) or {}).get("cuda", "")
    have = (ptx_isa_cuda(v.get("ptxas", "")) or {}).get("ptxas_cuda", "")
    return {"ptx_cuda": need, "ptxas_cuda": have,
            "need": f"CUDA {need} or newer" if need else "a newer toolkit",
            "have": f"CUDA {have}" if have else "an older toolkit"}


def _d_libstdcxx(v: dict, t: _Text, m: re.Match) -> dict:
    ver = v.get("version", "")
    gcc = libstdcxx_gcc(ver) or ""
    need = f"{ver}, which libstdc++ has from gcc {gcc} on" if gcc else (ver or "a newer libstdc++")
    if v.get("symbol"):
        sym = demangle(v["symbol"]) or v["symbol"]
        need = f"the C++ library symbol {sym}"
    loaded = v.get("loaded", "")
    return {"gcc": gcc, "need": need, "loaded_note": f" The one loaded was {loaded}." if loaded else ""}


def _d_symbol(v: dict, t: _Text, m: re.Match) -> dict:
    sym = v.get("symbol", "")
    readable = demangle(sym) or sym
    abi = "1" if "cxx11" in sym else ("0" if re.search(r"Ss|basic_string", sym) else "")
    side = ""
    if abi == "1":
        side = ("The missing symbol uses std::__cxx11 strings: the extension was compiled with "
                "_GLIBCXX_USE_CXX11_ABI=1, the torch it loads with _GLIBCXX_USE_CXX11_ABI=0.")
    elif abi == "0":
        side = ("The missing symbol uses pre-C++11 std::string: the extension was compiled with "
                "_GLIBCXX_USE_CXX11_ABI=0, the torch it loads with _GLIBCXX_USE_CXX11_ABI=1.")
    return {"demangled": readable, "abi": abi, "abi_note": side}


def _d_libcudart(v: dict, t: _Text, m: re.Match) -> dict:
    ver = v.get("version", "")
    major = ver.split(".")[0]
    use = ver if major.isdigit() and int(major) <= 10 else major
    pkg = ""
    for mm in re.finditer(r"(?:site|dist)-packages[/\\]([A-Za-z_][\w-]*)[/\\]", t.text[:m.end()]):
        if mm.group(1) not in ("torch", "importlib", "nvidia"):
            pkg = mm.group(1)
    if pkg:
        wheel = (f"{pkg} here is a prebuilt binary made for CUDA {ver}: install the {pkg} build made for your "
                 f"torch and its CUDA (torch.version.cuda), or build {pkg} from source in this environment; "
                 f"a CUDA {ver} runtime on the loader path only hides the mismatch.")
    else:
        wheel = (f"A prebuilt package (mmcv-full and the like) made for CUDA {ver}: install its build for your "
                 f"torch and CUDA instead, or build it from source here.")
    return {"major": major, "use": use, "package": pkg, "wheel": wheel}


_LIBRARIES = {"cublas": ("cuBLAS", "nvidia-cublas-cu{major}"), "cublasLt": ("cuBLASLt", "nvidia-cublas-cu{major}"),
              "cufft": ("cuFFT", "nvidia-cufft-cu{cuda}"), "curand": ("cuRAND", "nvidia-curand-cu{cuda}"),
              "cusparse": ("cuSPARSE", "nvidia-cusparse-cu{cuda}"), "cusolver": ("cuSOLVER", "nvidia-cusolver-cu{cuda}"),
              "nvrtc": ("NVRTC", "nvidia-cuda-nvrtc-cu{major}"), "nvJitLink": ("nvJitLink", "nvidia-nvjitlink-cu{major}"),
              "nccl": ("NCCL", "nvidia-nccl-cu12"), "cupti": ("CUPTI", "nvidia-cuda-cupti-cu{major}"),
              "nvToolsExt": ("NVTX", "nvidia-nvtx-cu{cuda}"), "cudnn": ("cuDNN", "nvidia-cudnn-cu{cudnn}"),
              "nvinfer": ("TensorRT", "tensorrt")}


def _d_library(v: dict, t: _Text, m: re.Match) -> dict:
    name = v.get("name", "")
    base = "cudnn" if name.startswith("cudnn") else ("nvinfer" if name.startswith("nvinfer") else name.split("-")[0])
    label, wheel = _LIBRARIES.get(base, (name, ""))
    major = v.get("major", "")
    if base == "cudnn":
        cudnn = "11" if major == "8" else "12"
        what = f"cuDNN {major}" if major else "cuDNN"
        extra = (" cuDNN 9 renamed its libraries (libcudnn_ops.so.9 ...): a program built for cuDNN 8 needs "
                 "cuDNN 8 itself." if major == "8" and name != "cudnn" else "")
        wheel = wheel.format(cudnn=cudnn) + ("==8.*" if major == "8" else "")
    elif base in ("cublas", "cublasLt", "nvrtc", "cupti", "nvJitLink"):
        what = f"{label} from CUDA {major}" if major else label
        extra = ""
        wheel = wheel.format(major=major or "12")
    else:
        what = label
        extra = ""
        wheel = wheel.format(major=major or "12", cuda="12" if not major or int(major) >= 11 else major, cudnn=major)
    return {"library": label, "what": what, "extra": extra, "wheel": wheel}


# NCCL entry points newer torch builds call, and the NCCL release that added them (NCCL's nccl.h).
_NCCL_SINCE = {"ncclCommRegister": "2.19", "ncclCommDeregister": "2.19", "ncclCommSplit": "2.18",
               "ncclCommInitRankConfig": "2.14", "ncclCommFinalize": "2.14", "ncclMemAlloc": "2.19",
               "ncclCommWindowRegister": "2.27", "ncclCommShrink": "2.27"}


def _d_shadowed(v: dict, t: _Text, m: re.Match) -> dict:
    sym = v.get("symbol", "")
    mm = re.search(r"_(\d+)_(\d+)$", sym)
    needed = f"{mm.group(1)}.{mm.group(2)}" if mm else ""
    lib = v.get("lib", "")
    if not lib or lib.startswith("copy of"):  # the entry's default: name the library from the symbol
        lib = ("libnvJitLink.so.12" if sym.startswith("__nvJitLink") else
               "libnccl.so.2" if sym.startswith("nccl") else lib)
    if not needed and sym in _NCCL_SINCE:
        needed = _NCCL_SINCE[sym]
    found = re.search(r"(/[\w./+-]*?cuda[\w.+-]*/(?:lib64|lib|targets/[\w-]+/lib))\b", t.text)
    path = found.group(1) if found else ""
    where = (f" This log shows {path} (an older toolkit's libraries) on the loader path." if path else "")
    need = f"; it needs {lib.split('.so')[0]} {needed} or newer" if needed else ""
    return {"needed": needed, "lib": lib, "path": path, "where": where, "need": need}


_HEADERS = {"cusparse": "cuSPARSE", "cublas": "cuBLAS", "cusolver": "cuSOLVER", "cufft": "cuFFT",
            "curand": "cuRAND", "cudnn": "cuDNN", "nccl": "NCCL", "nvrtc": "NVRTC", "nvToolsExt": "NVTX",
            "cuda_runtime": "the CUDA runtime (cudart)", "cuda_fp16": "the CUDA runtime (cudart)",
            "cuda_bf16": "the CUDA runtime (cudart)", "cuda": "the CUDA driver API"}


def _d_header(v: dict, t: _Text, m: re.Match) -> dict:
    h = v.get("header", "")
    stem = re.split(r"[._/]", h)[0] if not h.startswith("cuda_") else "_".join(h.split("_")[:2]).split(".")[0]
    part = _HEADERS.get(stem, _HEADERS.get(h.split(".")[0], "a CUDA library"))
    return {"part": part}


def _d_stub(v: dict, t: _Text, m: re.Match) -> dict:
    found = re.search(r"[\w./+-]*/stubs(?:/libcuda\.so[\w.]*)?", t.text)
    stub = found.group(0) if found else ""
    return {"code": v.get("code", "34"), "stub": stub,
            "seen": f" This log shows the stub being used: {stub}." if stub else ""}


def _d_nvml(v: dict, t: _Text, m: re.Match) -> dict:
    found = re.search(r"NVML library version:\s*([\d.]+)", t.text)
    lib = found.group(1) if found else ""
    return {"library_version": lib,
            "seen": f" The user-space libraries here are driver {lib}." if lib else ""}


def _d_cuda_home(v: dict, t: _Text, m: re.Match) -> dict:
    home = v.get("cuda_home", "")
    note = ""
    if home.endswith(("/nvcc", "/bin", "/bin/")):
        note = f" CUDA_HOME is {home}: it must name the toolkit's root (the directory holding bin/nvcc), not nvcc."
    elif home in ("/usr", "/usr/"):
        note = " CUDA_HOME=/usr is a guess torch made from an nvcc in /usr/bin (a distribution package)."
    return {"note": note}


def _d_cuda_home_list(v: dict, t: _Text, m: re.Match) -> dict:
    parts = [p for p in v.get("cuda_home", "").split(":") if p]
    first = parts[-1] if parts else "/usr/local/cuda"
    return {"one": first}


def _d_torch_in_log(v: dict, t: _Text, m: re.Match) -> dict:
    found = re.search(r"torch\.__version__\s*=\s*(\S+)", t.text)
    tv = found.group(1) if found else ""
    note = ""
    if "+cpu" in tv:
        note = f" The torch in this log, {tv}, is a CPU build."
    elif "rocm" in tv:
        note = f" The torch in this log, {tv}, is a ROCm build: it builds with hipcc, not nvcc."
    elif "+cu" in tv:
        cu = tv.split("+cu")[1]
        note = f" The torch in this log, {tv}, was built with CUDA {cu[:-1]}.{cu[-1:]}: use a {cu[:-1]}.x toolkit."
    return {"torch_version": tv, "torch_note": note}


DERIVE = {"torch_in_log": _d_torch_in_log, "arch": _d_arch, "torch_arch": _d_torch_arch, "cuda_pair": _d_cuda_pair, "ptx": _d_ptx,
          "libstdcxx": _d_libstdcxx, "symbol": _d_symbol, "libcudart": _d_libcudart, "library": _d_library,
          "shadowed": _d_shadowed, "header": _d_header, "stub": _d_stub, "nvml": _d_nvml,
          "cuda_home": _d_cuda_home, "cuda_home_list": _d_cuda_home_list}

# --- C++ symbols -------------------------------------------------------------------------

_BUILTIN = {"v": "void", "w": "wchar_t", "b": "bool", "c": "char", "a": "signed char", "h": "unsigned char",
            "s": "short", "t": "unsigned short", "i": "int", "j": "unsigned int", "l": "long",
            "m": "unsigned long", "x": "long long", "y": "unsigned long long", "n": "__int128",
            "o": "unsigned __int128", "f": "float", "d": "double", "e": "long double", "z": "..."}
_ABBREV = {"Sa": "std::allocator", "Sb": "std::basic_string", "Ss": "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
           "Si": "std::basic_istream<char, std::char_traits<char> >",
           "So": "std::basic_ostream<char, std::char_traits<char> >",
           "Sd": "std::basic_iostream<char, std::char_traits<char> >"}


class _Demangler:
    """The subset of the Itanium C++ ABI mangling that undefined-symbol errors show.

    Names (nested, std::, templates, constructors), function parameters with the
    builtin types, pointers, references, const, and substitutions. Anything else
    raises ValueError and the caller keeps the mangled name.
    """

    def __init__(self, s: str) -> None:
        self.s, self.i, self.subs = s, 0, []

    def peek(self, n: int = 1) -> str:
        return self.s[self.i:self.i + n]

    def take(self, n: int = 1) -> str:
        out = self.s[self.i:self.i + n]
        if len(out) < n:
            raise ValueError("truncated")
        self.i += n
        return out

    def encoding(self) -> str:
        if self.take(2) != "_Z":
            raise ValueError("not mangled")
        name, is_template, last = self.name()
        if self.i >= len(self.s):
            return name
        if is_template:  # a template function's return type comes first
            self.type()
        params = []
        while self.i < len(self.s) and self.peek() != ".":
            params.append(self.type())
        if params == ["void"]:
            params = []
        quals = " const" if getattr(self, "_const_fn", False) else ""
        return f"{name}({', '.join(params)}){quals}"

    def source_name(self) -> str:
        j = self.i
        while self.i < len(self.s) and self.s[self.i].isdigit():
            self.i += 1
        if j == self.i:
            raise ValueError("no length")
        return self.take(int(self.s[j:self.i]))

    def substitution(self) -> str:
        two = self.peek(2)
        if two in _ABBREV:
            self.i += 2
            return _ABBREV[two]
        self.take()  # S
        j = self.s.index("_", self.i)
        seq = self.s[self.i:j]
        self.i = j + 1
        n = 0 if seq == "" else int(seq, 36) + 1
        return self.subs[n]

    def template_args(self) -> str:
        self.take()  # I
        args = []
        while self.peek() != "E":
            if self.peek() == "L":  # a literal: L<type><value>E
                self.take()
                t = self.type()
                j = self.s.index("E", self.i)
                v = self.s[self.i:j]
                self.i = j + 1
                args.append(("(" + t + ")" if t not in ("int", "bool") else "") + v.replace("n", "-"))
            else:
                args.append(self.type())
        self.take()
        text = ", ".join(args)
        return "<" + text + (" >" if text.endswith(">") else ">")

    def name(self) -> tuple[str, bool, str]:
        """(qualified name, ends in template args, last component)."""
        c = self.peek()
        if c == "N":
            return self.nested()
        if self.peek(2) == "St":
            self.i += 2
            last = self.source_name()
            name = "std::" + last
        elif c == "S":
            name = self.substitution()
            last = name.rsplit("::", 1)[-1]
        else:
            last = self.source_name()
            name = last
        if self.peek() == "I":
            self.subs.append(name)
            name += self.template_args()
            return name, True, last
        return name, False, last

    def nested(self) -> tuple[str, bool, str]:
        self.take()  # N
        self._const_fn = False
        while self.peek() in ("K", "V", "r"):
            self._const_fn = self._const_fn or self.peek() == "K"
            self.take()
        parts: list[str] = []
        last, templ = "", False
        while self.peek() != "E":
            c = self.peek()
            templ = False
            if c == "S" and self.peek(2) == "St":
                self.i += 2
                parts.append("std")
                continue
            if c == "S":
                parts = [self.substitution()]
                last = parts[-1].rsplit("::", 1)[-1]
                continue
            if c == "I":
                parts[-1] += self.template_args()
                templ = True
            elif c == "C" and self.peek(2) in ("C1", "C2", "C3"):
                self.i += 2
                parts.append(last.split("<")[0])
            elif c == "D" and self.peek(2) in ("D0", "D1", "D2"):
                self.i += 2
                parts.append("~" + last.split("<")[0])
            elif c.isdigit():
                last = self.source_name()
                parts.append(last)
            else:
                raise ValueError(f"unsupported name part {c!r}")
            if self.peek() != "E":
                self.subs.append("::".join(parts))
        self.take()
        return "::".join(parts), templ, last

    def type(self) -> str:
        c = self.peek()
        if c in _BUILTIN:
            self.take()
            return _BUILTIN[c]
        if c in ("P", "R", "O", "K", "V"):
            self.take()
            inner = self.type()
            suffix = {"P": "*", "R": "&", "O": "&&", "K": " const", "V": " volatile"}[c]
            out = inner + suffix
            self.subs.append(out)
            return out
        if c == "D" and self.peek(2) == "Dn":
            self.i += 2
            return "decltype(nullptr)"
        if c == "N" or c.isdigit() or c == "S":
            if c == "S" and self.peek(2) != "St":
                sub = self.substitution()
                if self.peek() == "I":
                    sub += self.template_args()
                    self.subs.append(sub)
                return sub
            name, _, _ = self.name() if c != "N" else self.nested()
            self.subs.append(name)
            return name
        raise ValueError(f"unsupported type {c!r}")


def demangle(symbol: str) -> str | None:
    """``symbol`` demangled (as ``c++filt`` prints it), or None when it is not one this reads."""
    if not symbol.startswith("_Z"):
        return None
    try:
        return _Demangler(symbol).encoding()
    except (ValueError, IndexError, KeyError):
        return None


# Human output ---------------------------------------------------------------------------

_WIDTH = 100
_SHOWN_LINE = 240


def _wrap(text: str, first: str, rest: str) -> list[str]:
    """Wrap ``text`` without breaking inside `backticks` (commands stay on one line)."""
    nbsp = "\u00a0"
    protected = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", nbsp), text)
    out = textwrap.wrap(protected, width=_WIDTH, initial_indent=first, subsequent_indent=rest,
                        break_long_words=False, break_on_hyphens=False)
    return [line.replace(nbsp, " ") for line in out] or [first.rstrip()]


def render_text(matches: list[Match], numbered_lines: bool = True) -> str:
    """The human report: per match its title, the line, cause, fix and check id.

    Args:
        matches: What :func:`explain` returned.
        numbered_lines: Say which line matched (pointless for a one-line message).
    """
    out: list[str] = []
    for n, m in enumerate(matches, 1):
        if out:
            out.append("")
        out.append(f"{n}. {m.title}  [{m.id}]")
        shown = m.matched if len(m.matched) <= _SHOWN_LINE else m.matched[:_SHOWN_LINE] + "…"
        where = f"line {m.line}" if numbered_lines else "matched"
        if numbered_lines and m.count > 1:
            where += f", and {m.count - 1} more"
        out.append(f"   {where}: {shown}")
        if m.first_error is not None:
            fl, ft = m.first_error
            ft = ft if len(ft) <= _SHOWN_LINE else ft[:_SHOWN_LINE] + "…"
            out.append(f"   first compiler error (line {fl}): {ft}")
        out.extend(_wrap(m.cause, "   cause: ", "          "))
        for k, line in enumerate(m.here):
            out.extend(_wrap(line, "   here:  " if k == 0 else "          ", "            "))
        for k, step in enumerate(s for s in m.fix.splitlines() if s.strip()):
            out.extend(_wrap(step.strip(), "   fix:   " if k == 0 else "          ", "            "))
        cmd = checked_by(m.check) if m.environment else None
        if cmd is None:
            out.append(f"   checked by: nothing, it is not an environment problem ({m.check or m.id})")
        else:
            out.append(f"   checked by: {cmd} ({m.check})")
    return "\n".join(out) + "\n" if out else ""
