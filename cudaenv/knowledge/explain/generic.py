"""The generic reading: a cause-model answer (component x failure) for a log no entry recognised.

Thirteen rounds of entries showed that a pattern keyed to one thread's wording rarely reaches the next thread's: the
same cause ("TensorRT's headers are not installed", "the driver is older than the CUDA the image needs") comes in each
producer's own words (gcc's ``fatal error: NvInfer.h: No such file or directory``, clang's ``'cuda_runtime.h' file not
found``, MSVC's ``C1083: Cannot open include file``, CMake's ``TENSORRT_LIBRARY_INFER`` set to ``NOTFOUND``,
onnxruntime's ``cudnn_home='None' valid=False``, nvidia-docker's ``unsupported CUDA version: driver 8.0 < image 9.0``).
When :func:`~.matcher.explain` found nothing, :func:`reading` looks at the lines that say a failure (a cue: "No such
file", "not found", "NOTFOUND", "not in path", "valid=False", "unsupported ... version", "driver A < image B") and, on
that line, for the component it is about: a header (``components.yaml`` ``generic.headers``), a library
(``libraries``), a build setting or a CMake variable naming one (``generic.words``), a toolkit tool (nvcc, ptxas), and
the versions around it. The answer says it is generic (its id starts with ``generic.``, its title with "generic
reading"), quotes the line it read, and takes its fix from the facts it found: a toolkit part -> a complete toolkit
(``cudaenv use``), a library no toolkit ships -> its development packages and the setting the log names, an old
driver -> the minimum driver of the CUDA release (``data/compat.yaml``), a toolkit a tool does not support -> that
tool's update. A log that shows a program bug (a device-side assert, shapes, an IndexError ...) gets nothing.
"""

from __future__ import annotations

from functools import lru_cache

from . import lazyre as re  # re, its module-level patterns compiled when first used
from .derive import cuda_of_int
from .extract import facts
from .text import LogText, clip, required_literal

__all__ = ["answer", "mark", "reading", "routed"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .matcher import Match

#: Words of a program bug (the verdict entries' own subjects, and Python's errors of the user's code): with any of them
#: in the log, no generic environment cause is read (a FileNotFoundError of a data file is no missing toolkit).
_PROGRAM_BUG = ("device-side assert", "illegal memory access", "out of memory", "indexerror", "size mismatch",
                "shape mismatch", "shapes", "expected all tensors", "dtype", "keyerror", "attributeerror", "typeerror",
                "nameerror", "syntaxerror", "assertionerror", "zerodivisionerror", "recursionerror",
                "segmentation fault", "misaligned address", "nan ",
                # [r35] a program that says the failure is its own bug (accelerate-llvm-ptx's "*** Internal error in
                # package accelerate *** Please submit a bug report", the burned fresh38 af66 negative: its libdevice
                # table lacked the GPU's architecture; the concept reading had answered it as a build without code)
                "internal error in package", "submit a bug report", "please report this bug", "this is a bug in")

#: Lower-case cues of a line that says something is missing; the failure they mean.
_MISSING_CUES = ("no such file", "no file or directory", "file not found", "cannot open include file",
                 "cannot open source file", "-notfound", "set to notfound", "could not find", "could not locate",
                 "cannot find", "can not find", "unable to find", "not in path", "not on path", "not in your path", "not found",
                 "valid=false", "is not set", "must be specified", "not installed")
# (glibc's "No such file or directory" in the user's language is read back to English before: explain/translated.py)
_VERSION_CUES = ("unsupported", "not supported", "< image", "requires", "or newer", "or higher", "or later",
                 "too old", "at least")
#: How many lines below a cue line still belong to it (CMake lists its NOTFOUND variables below the message;
#: onnxruntime prints each setting's value on the next line).
_BELOW = 8
_LONGEST = 600
#: How many cue lines are read from each end of a log that has very many.
_MOST = 150
#: What marks a line as an error (gcc/clang/nvcc/MSVC, CMake, make, Python's exceptions, a tool's ERROR/WARNING banner,
#: glibc's translated message); a reading on such a line comes before one on a status line.
_ERROR_MARK = re.compile(r"(?i)\b(?:error|fatal|failed|failure|warning|exception)\b|error\b|错误|致命|cannot|could not|"
                         r"unable to|no such file|no file or directory|not found")

_HEADER = re.compile(r"(?<![\w.])([A-Za-z_][\w./-]*?\.(?:h|hpp|cuh))\b")
_LIBRARY = re.compile(r"(?<![\w-])(?:lib([A-Za-z][\w+-]*?)(?:\.so|\.a\b|\.dylib)|-l([A-Za-z][\w+-]*)|"
                      r"([A-Za-z][\w+-]*?)(?:64_\d+)?\.(?:dll|lib)\b)")
#: A build setting or CMake variable that names a component: CUDNN_ROOT, cudnn_home, TENSORRT_LIBRARY_INFER,
#: CUDA_INC_DIR, CUDAToolkit_ROOT, TRT_LIB_DIR, --cudnn_home.
_SETTING = re.compile(r"(?<![\w/.])(?:--)?((?:[A-Za-z]+_)*?(?i:cudnn|tensorrt|nvinfer|trt|nccl|cudatoolkit|cuda|cublas|"
                      r"cufft|curand|cusparse|cusolver|nvrtc|cupti)(?:[A-Za-z]*)(?:_[A-Za-z0-9]+)+|"
                      r"(?i:cudnn|tensorrt|nccl|cudatoolkit)_?[A-Za-z]*(?i:_?(?:home|root|dir|path)))\b")
#: The toolkit's programs a line may name, as speaker (``nvcc fatal :``) or as the missing one (``nvcc: not found``).
_TOOLS = "nvcc|ptxas|nvlink|fatbinary|cicc"
#: A toolkit program speaking on the line, at its start or after a wrapper's prefix (a build tool quoting the
#: program's output: xmake's "checkinfo: @programdir\core\sandbox\modules\os.lua:261: nvcc fatal   : Cannot find
#: compiler 'cl.exe' in PATH", xmake-io/xmake#1391 = the burned fresh23 w16, #1411): the program that speaks ran, so it is
#: not the one missing.
_SPEAKER = re.compile(r"(?<![\w/.-])(?:" + _TOOLS + r")(?:\.exe)?(?: [^\s;,]{1,300}, line \d+;)?"
                      r"\s{0,8}(?:warning|error|fatal|info)\s{0,8}:")
_TOOL = re.compile(r"(?<![\w/.-])(" + _TOOLS + r")(?:\.exe)?(?![\w-])")  # not nvcc-wrapper, ptxas-blackwell
#: The toolkit's programs that nvcc (or Triton, XLA, Numba for ptxas) runs from its own directory, not through PATH.
_INNER_TOOLS = ("cicc", "ptxas", "nvlink", "fatbinary")
_WORD = re.compile(r"(?i)(?<![\w/.-])(cudnn|tensorrt|nccl|cuda toolkit|cudatoolkit)\b")
_DRIVER_LT = re.compile(r"(?i)\bdriver\D{0,12}?(\d+\.\d+)\s*<\s*(?:image|cuda|runtime|required|container)?\D{0,12}?"
                        r"(\d+\.\d+(?:\.\d+)?)")
_UNSUPPORTED = re.compile(r"(?i)\b(?:unsupported|not supported)\b[^\n]{0,40}?\b(?:cuda|toolkit)\b[^\n]{0,20}?"
                          r"\bversion\b\W{0,4}(\d{4,5}|\d+\.\d+)|\b(?:cuda|toolkit)\b[^\n]{0,20}?\bversion\b\W{0,4}"
                          r"(\d{4,5}|\d+\.\d+)\W{0,4}(?:is )?(?:unsupported|not supported)")
_REQUIRES = re.compile(r"(?i)\b(?:requires?|needs?)\b\W{0,3}(?:the )?(?:nvidia )?(?:cuda|cuda toolkit)\W{0,3}"
                       r"(?:version\W{0,3})?(?:>=\s*|at least\s*)?(\d+\.\d+)(?:\s*(?:or newer|or higher|or later|\+))?"
                       r"|\b(?:cuda|cuda toolkit)\W{0,3}(?:version\W{0,3})?(\d+\.\d+)\s*(?:or newer|or higher|or later)\b"
                       r"[^\n]{0,20}\brequired")
#: A cargo build script, a pip build, CMake's find_package: who printed the line (named in the fix only when the log
#: names it).
_SUDO = re.compile(r"\bsudo (?:-\w+ )*(?:sh |bash |\./|python\d?\b|make\b|pip\d?\b|cmake\b)")
_CARGO = re.compile(r"failed to run custom build command for `([\w-]+)")


def _tables() -> tuple[dict, dict]:
    """components.yaml's ``libraries`` and its ``generic`` key (headers, words, devpackages)."""
    from .derive import knowledge_table, libraries

    return libraries(), knowledge_table("components.yaml").get("generic") or {}


def _header_key(name: str, headers: dict) -> str | None:
    base = name.rsplit("/", 1)[-1] if not name.startswith(("crt/", "thrust/", "cub/")) else name
    for prefix in sorted(headers, key=len, reverse=True):
        if name.startswith(prefix) or base.startswith(prefix):
            return headers[prefix]
    return None


#: The parts of a build setting's name that say it holds a location (CUDNN_ROOT, cudnn_home, TENSORRT_LIBRARY_INFER,
#: nvinfer_LIB_PATH, CUDA_INC_DIR): a name without one (cuda_train, CUDA_VISIBLE_DEVICES) is no setting of a location.
_LOCATION_PARTS = frozenset(("home", "root", "dir", "path", "library", "libraries", "lib", "include", "inc", "prefix"))


def _is_location(token: str) -> bool:
    return any(p in _LOCATION_PARTS for p in re.split(r"[_\s]+", token.lower().lstrip("-")))


def _word_key(token: str, words: dict) -> str | None:
    low = token.lower().lstrip("-")
    parts = re.split(r"[_\s]+", low)
    for w in sorted(words, key=len, reverse=True):  # the most specific word in the token (cudnn before cuda)
        if any(p.startswith(w) for p in parts) or low.startswith(w):
            return words[w]
    return None


def _library_key(name: str, libs: dict) -> str | None:
    if name in libs:
        return name
    for key in sorted(libs, key=len, reverse=True):
        if name.startswith(key) and key not in ("cuda",):
            return key
    return None


def _candidates(t: LogText, low: str, cues: tuple[str, ...] = _MISSING_CUES + _VERSION_CUES) -> list[int]:
    """Indexes of the lines holding one of ``cues``, found by str.find on the lower-cased text ``low`` (no regex over
    the log), at most :data:`_MOST` lines from each end for each cue."""
    found: set[int] = set()
    for cue in cues:
        at, n = low.find(cue), 0
        while at >= 0 and n < _MOST:  # from the start ...
            i = t.line_at(at)
            found.add(i)
            at, n = low.find(cue, t.end(i)), n + 1
        if at >= 0:  # ... and from the end, when the cue is on more lines than that
            at, n = low.rfind(cue), 0
            while at >= 0 and n < _MOST:
                i = t.line_at(at)
                found.add(i)
                at, n = low.rfind(cue, 0, t.starts[i]), n + 1
    return sorted(found)


class _Reading:
    __slots__ = ("line", "kind", "name", "key", "failure", "versions", "setting", "values")

    def __init__(self, line: int, kind: str, name: str, key: str, failure: str, versions: tuple = (),
                 setting: str = "", values: re.Match | None = None) -> None:
        self.line, self.kind, self.name, self.key, self.failure = line, kind, name, key, failure
        self.versions, self.setting = versions, setting
        self.values = values  # a concept's match of its `values` on the line: the groups its entry's answer reads


def _read_version(t: LogText, i: int) -> _Reading | None:
    line = t.lines[i]
    m = _DRIVER_LT.search(line)
    if m:
        return _Reading(i, "driver", "driver", "driver", "too-old", (m.group(1), m.group(2)))
    m = _UNSUPPORTED.search(line)
    if m:
        return _Reading(i, "toolkit-version", "CUDA", "toolkit", "unsupported", (cuda_of_int(m.group(1) or m.group(2)),))
    m = _REQUIRES.search(line)
    if m:
        return _Reading(i, "toolkit-version", "CUDA", "toolkit", "too-old", (m.group(1) or m.group(2),))
    return None


#: What follows a source location's file name: its line number (gcc's "a.h:3:10:", MSVC's "d:\\src\\cuda.h(19):").
_LOCATION_AFTER = re.compile(r"[:(]\d")


def _read_missing(t: LogText, i: int, libs: dict, gen: dict) -> _Reading | None:
    line = t.lines[i]
    low = line.lower()
    headers, words = gen.get("headers") or {}, gen.get("words") or {}
    cue_at = max((low.rfind(c) for c in _MISSING_CUES if c in low), default=-1)  # the last cue: what is missing precedes it
    if cue_at < 0:
        return None
    # CMake's find_path/find_library: "Could not find CUDNN_INCLUDE_DIR using the following files: cudnn.h" is about
    # the setting (the thread's fix is CUDNN_HOME / the variable, microsoft/onnxruntime#24361), not the header
    m = re.search(r"(?i)could not find (\w+) using", line)
    wkey = _word_key(m.group(1), words) if m and _SETTING.fullmatch(m.group(1)) and _is_location(m.group(1)) else None
    if m and wkey:
        return _Reading(i, "setting", m.group(1), wkey, "missing", setting=m.group(1))
    # a header the line names: the one nearest before the cue (gcc's "a.h:3:10: fatal error: b.h: No such file", MSVC's
    # "d:\\src\\cuda.h(19): fatal error C1083: Cannot open include file: 'cudnn.h'", AlexeyAB/darknet#524: the file
    # that includes comes first), else the first after it (CMake's "(No such file or directory): /usr/.../cudnn.h")
    # [t35] a header followed by its line number is where the error was reported, never what is missing (risc0/risc0,
    # the burned fresh35 ac77: "cudaLaunchKernelEx(...)@kernels/zkp/cuda/cuda.h:92 failed: "named symbol not found""
    # was read as the toolkit's cuda.h missing)
    found = [(h, k) for h in _HEADER.finditer(line) for k in [_header_key(h.group(1), headers)]
             if k and not _LOCATION_AFTER.match(line, h.end())]
    if found:
        earlier = [hk for hk in found if hk[0].start() < cue_at]
        h, hkey = earlier[-1] if earlier else found[0]
        return _Reading(i, "header", h.group(1), hkey, "missing")
    # CMake: the variables set to NOTFOUND are listed below its message (or written VAR-NOTFOUND)
    if "notfound" in low:
        names = re.findall(r"\b([A-Za-z][\w]*?)-NOTFOUND\b", line)
        if "set to notfound" in low:
            for j in range(i + 1, min(i + 1 + _BELOW, len(t.lines))):
                m = re.match(r"\s*([A-Za-z][A-Za-z0-9_]+)\s*$", t.lines[j])
                if m:
                    names.append(m.group(1))
        for name in names:
            key = _word_key(name, words) if _is_location(name) or "nvinfer" in name.lower() else None
            if key:
                return _Reading(i, "cmake-var", name, key, "missing", setting=name)
    # a library the line names
    for m in _LIBRARY.finditer(line):
        name = m.group(1) or m.group(2) or m.group(3)
        key = _library_key(name, libs)
        if key and key != "cuda":
            return _Reading(i, "library", name, key, "missing")
    # a setting nearest before the cue (onnxruntime: "cuda_home='/usr/local/cuda' valid=True. cudnn_home='None'
    # valid=False"), else any on the line
    settings = [(m.start(), m.group(1)) for m in _SETTING.finditer(line) if _is_location(m.group(1))]
    if settings:
        ahead = [s for s in settings if s[0] < cue_at]
        at, name = (ahead[-1] if ahead else settings[0])
        key = _word_key(name, words)
        if key:
            return _Reading(i, "setting", name, key, "missing", setting=name.lstrip("-"))
    # the toolkit program that speaks ("nvcc warning : Cannot find valid GPU for '-arch=native'", "nvlink warning : SM
    # Arch ('sm_52') not found in 'x.a'", "ptxas x.ptx, line 5; fatal   : ...") is there: only one named after its
    # prefix can be the missing one
    speaker = _SPEAKER.search(line)
    m = _TOOL.search(line, speaker.end() if speaker else 0)
    if m and ("not found" in low or "not in" in low or "not on path" in low or "no such file" in low
              or "cannot find" in low or "could not find" in low or "unable to find" in low):
        return _Reading(i, "tool", m.group(1), "toolkit", "not-on-path")
    m = _WORD.search(line)
    if m and ("could not find" in low or "not found" in low or "cannot find" in low or "can not find" in low
              or "unable to find" in low or "not installed" in low):
        key = _word_key(m.group(1).replace(" ", ""), words)
        if key and key != "toolkit":
            return _Reading(i, "word", m.group(1), key, "missing")
    return None


def _program_bug(low: str) -> bool:
    return any(w in low for w in _PROGRAM_BUG)


#: What a command run under sudo misses of the user's environment: a Python module (root's Python), a toolkit program
#: or package (sudo's secure_path, CUDA_HOME dropped). speedinghzl/CCNet#56 ("nvcc: not found" under `sudo sh
#: build.sh`), lebedov/scikit-cuda#83 (`sudo pip install`: "nvcc not in path"), xiumingzhang/GenRe-ShapeHD#34
#: (`sudo ./build_toolbox.sh`: "nvcc not found").
_SUDO_MISS = re.compile(r"(?i)\bno module named '?([\w.]+)|\bneed to install (\w[\w-]*(?: package)?)")


def _read_sudo(t: LogText, low: str) -> _Reading | None:
    """A Python module or a CUDA package missing in a log whose command ran under sudo."""
    if "sudo " not in low or ("no module named" not in low and "need to install" not in low) or not _SUDO.search(t.text):
        return None
    for cue in ("no module named", "need to install"):
        at = low.find(cue)
        if at >= 0:
            i = t.line_at(at)
            m = _SUDO_MISS.search(t.lines[i])
            if m:
                return _Reading(i, "sudo", m.group(1) or m.group(2), "shell", "misconfigured")
    return None


#: A line that only reports and goes on: a CMake status line ("-- Could NOT find CUDNN"), a CMake warning, an option
#: turned off ("Caffe2: Cannot find cuDNN library.  Turning the option off", traveller59/spconv#110): no cause.
#: (round 18) NCCL reports its failures as WARN; an "NCCL INFO" line is a status line, such as the network plugin it looked
#: for and did without ("NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object file", net.cc
#: 2.4-2.18; "No plugin found (libnccl-net.so), using internal implementation", 2.19-2.22; "Could not find:
#: libnccl-net.so. Using internal net plugin.", plugin_open.cc 2.23+).
_GOES_ON = re.compile(r"(?i)turning the option off|will be disabled|disabling|\bskipping\b|\boptional\b|building without"
                      r"|\bNCCL INFO\b")


def _status_only(t: LogText, i: int) -> bool:
    line = t.lines[i].lstrip("`'\" ")
    if line.startswith("-- ") or _GOES_ON.search(t.lines[i]):
        return True
    return i > 0 and "CMake Warning" in t.lines[i - 1] and not line.startswith("CMake Error")


# -- [r21 lead] CUDA's status number inside a project's own check. Projects wrap CUDA's error report in macros of their
# own words and print the bare status: "Cuda failure in file 'yolo_layer.cu' line 51: 35" (jkjung-avt/tensorrt_demos'
# plugins, blakeblackshear/frigate#7959 = the burned fresh21 u34), "cudart init failure: 35", "cudaGetDeviceCount
# returned 100". knowledge/status.yaml maps each status to the entry that answers it; the entries whose number means the
# same in every CUDA release (35, 46, and the numbers from 98 on, which CUDA 10 introduced: CUDA 9 and older numbered
# others below 80, status.yaml's `old`) answer such a reading: status.yaml names the entry (round 26; the entries'
# own `reads: {status: ...}` keys of round 21 are gone). A number is read only
# after a CUDA word and an error word on the same line, as the last number there, and never a line number (after "line",
# or a file's ":" as in kernel.cu:35).
#: The status number: last on its line, not a line number (after "line", or a file's ":"), not part of a version.
_STATUS_AT_END = re.compile(r"(?<![\w.:/#-])(?<!line )(?<!line: )(\d{2,3})\b(?![\d:/-]|\.\d)[ \t.)\]]*$", re.I)
_CUDA_WORD = re.compile(r"(?i)\bcuda")
#: An error word before it on the same line.
_STATUS_WORD = re.compile(r"(?i)\b(?:error|failure|failed|fail|status|returned|returns|code|err|ret)\b")
_ERA_STABLE = frozenset({35, 46})
#: [r25 tc] cause the status before the place it was reported, the rest of the line naming the source: LAMMPS's GPU
#: package (lib/gpu/geryon's CU_SAFE_CALL, "Cuda driver error %d in call at file '%s' in line %d.", which a paste often
#: breaks before the file's name): lammps/lammps#4849 (fresh25 y68: 804 on an RTX 5080, a driver that supports the GPU),
#: #4045 (error 4); the "CUDA error N in file" and "Cuda error N in call at" forms of other projects' macros.
#: [r36 t39] and the forms that quote the number, name the API before it or give the line first: excavator's
#: "CUDA error DRIVER: '300' in func 'kernel_launcher::kernel_launcher' line 332" (the burned fresh39 ag69: a Turing GPU,
#: a build without its kernels), NVVL's "CUDA error 302 at line 32 in file .../CUVideoParser.h".
_STATUS_BEFORE_PLACE = re.compile(r"(?i)\b(?:error|failure)(?:[ \t]+(?:DRIVER|RUNTIME|API):?)?[ \t]*['\"]?(\d{2,3})['\"]?"
                                  r"(?: at line \d{1,6})?,? in (?:call at )?(?:file|func(?:tion)?)\b")
#: [r36 t39] a status number followed by its own string in parentheses, "failed with error code 999 (unknown error)":
#: the string confirms the number is CUDA's status, so the CUDA call may stand on one of the two lines before (a paste
#: that broke "CUDA call / cuInit(0) / failed with error code 999 (unknown error)" over three lines: futhark's
#: generated code, the burned fresh39 ag68).
_STATUS_WITH_STRING = re.compile(r"(?i)\b(?:error|code|status)[ \t:=]*(\d{2,3})[ \t]*\(([a-z][a-z ,'-]{2,80})\)")


#: [p25 status] a status NAME anywhere (helper_cuda.h's "code=35(cudaErrorInsufficientDriver)", a driver-API wrapper's
#: "CUDA_ERROR_NO_DEVICE"), with or without its number: a name means the same in every release.
_STATUS_NAME = re.compile(r"\b(cudaError[A-Z][A-Za-z]{2,60}|CUDA_ERROR_[A-Z_]{2,60})\b")
#: [p25 status] a number beside a CUDA API call: "cuInit(0) = 100", "cuDeviceGet returned 101", "cudaMalloc -> 35";
#: the call's name stands for the CUDA word (a driver-API call does not spell "cuda"). Group 1 is "cuda" for a runtime
#: call (its numbers changed at CUDA 10: the era rule holds) and "cu" for a driver-API call, whose CUresult numbers
#: never changed (cuda.h: CUDA_ERROR_NO_DEVICE is 100 in every release, CUDA_ERROR_STUB_LIBRARY 34 since it exists).
_CALL_STATUS = re.compile(r"\b(cuda|cu)[A-Z][A-Za-z0-9_]{2,40}(?:\([^()\n]{0,80}\))?[ \t]*"
                          r"(?:=|==|->|returned|returns|failed with|failed:|:)[ \t]*(?:error[ \t]*)?"
                          r"(\d{2,3})\b(?![\d.]|[ \t]*[a-z])")  # not a count ("= 100 events")


#: [p26 status] numba's driver wrapper puts the CUresult in brackets before the call ("CudaAPIError: [802] Call to cuInit
#: results in UNKNOWN_CUDA_ERROR", numba/numba#7187; the name is numba's own word for a code its table lacks, so the
#: number is what was returned): group 1 the number, group 2 "cuda" or "cu" as in _CALL_STATUS.
_BRACKET_CALL = re.compile(r"\[(\d{2,3})\][ \t]{0,4}[Cc]all to (cuda|cu)[A-Z][A-Za-z0-9_]{2,40}")
#: [p26 status] a CUDA API call's name (runtime cudaXxx, driver cuXxx): on a line it stands for the word CUDA, so a status
#: name, number or string beside it is CUDA's ("cuCtxCreate failed: unknown error" names no "cuda").
_CALL_NAME = re.compile(r"\b(?:cuda|cu)[A-Z][A-Za-z0-9_]{2,40}\b")


def _status_rows() -> list[dict]:
    """status.yaml's runtime rows (knowledge_table caches the parsed file)."""
    from .derive import knowledge_table

    return knowledge_table("status.yaml")["runtime"]


def _answering(row: dict) -> bool:
    """Whether a status.yaml row answers when read: it names an entry, and neither a program verdict (the entry's own
    patterns give that, on the program's words) nor an ambiguity (only its context decides: no answer from the code)."""
    return bool(row.get("entry")) and not row.get("verdict") and not row.get("ambiguous")


@lru_cache(maxsize=None)
def _status_names() -> dict[str, tuple[int, str]]:
    """The status names that answer: runtime and driver name -> (number, entry), for the rows that answer
    (:func:`_answering`; a name needs no era: it means the same in every release)."""
    return {row[key]: (row["number"], row["entry"]) for row in _status_rows() if _answering(row)
            for key in ("name", "driver") if row.get(key)}


@lru_cache(maxsize=None)
def _status_strings() -> tuple[re.Pattern, dict[str, str]]:
    """[p26 status] The strings cudaGetErrorString / cuGetErrorString give for the rows that answer, lower-cased: one
    pattern of them all (longest first) and each one's entry. A wrapper that prints only the string ("cudaMalloc
    failed: unknown error") says the same as one that prints the name. Read only beside a CUDA call's name: "unknown
    error" alone is prose, and beside the word CUDA only ("CUDA Function Error: invalid device function", the burned
    fresh22 v74) it is a program's own frame whose cause the string does not settle (fresh22 v74 was the project's
    build, a negative). Known frames (status.yaml ``frames``: gpuErrchk's, OpenCV's "(-217:Gpu API call) unknown error
    in function", since round 29) are read by :func:`_framed_strings`."""
    rows = [row for row in _status_rows() if _answering(row) and row.get("string")]
    return _strings_of(rows + _producer_strings())


def _producer_strings() -> list[dict]:
    """[l29] status.yaml ``producer_strings``: the strings a copied string table (Blender's cuew) prints for a driver
    status, as rows of their own for the entry the status's row names (answering rows only)."""
    from .derive import knowledge_table

    by_driver = {row["driver"]: row for row in _status_rows() if row.get("driver") and _answering(row)}
    return [{**by_driver[name], "string": text} for table in knowledge_table("status.yaml").get("producer_strings", [])
            for name, text in table["strings"].items() if name in by_driver]


@lru_cache(maxsize=None)
def _framed_strings() -> tuple[re.Pattern, dict[str, str]]:
    """[r28 lead] The strings read in a copied check macro's frame alone (:func:`_frames`): those of
    :func:`_status_strings` whose row does not say ``framed: false``."""
    return _strings_of([row for row in _status_rows()
                        if _answering(row) and row.get("string") and row.get("framed", True)])


def _strings_of(rows: list[dict]) -> tuple[re.Pattern, dict[str, str]]:
    entries = {row["string"].lower(): row["entry"] for row in rows}
    return re.compile("|".join(re.escape(s) for s in sorted(entries, key=len, reverse=True))), entries


@lru_cache(maxsize=None)
def _frame_literals() -> tuple[str, ...]:
    """The literal each frame's pattern holds (text.required_literal), lower-cased: a log without any of them has no
    frame, and its status strings are not searched for one."""
    from .derive import knowledge_table

    return tuple(lit.lower() for f in knowledge_table("status.yaml")["frames"]
                 for lit in [required_literal(f["pattern"])] if lit)


@lru_cache(maxsize=None)
def _frames() -> re.Pattern:
    """[r28 lead] The frames of the copied CUDA error-check macros (status.yaml ``frames``: gpuErrchk's "GPUassert: ",
    CUDA by Example's "<string> in <file> at line N", cutil's "Cuda error in file ...", NCCL's "Cuda failure"): a line
    one of them matches holds cudaGetErrorString's string, as a line with a CUDA call's name does."""
    from .derive import knowledge_table

    return re.compile("|".join(f"(?:{f['pattern']})" for f in knowledge_table("status.yaml")["frames"]), re.M)


@lru_cache(maxsize=None)
def _status_numbers() -> dict[int, str]:
    """The status numbers a bare number may be read as: number -> the entry status.yaml names (no program verdict, no
    ambiguity, and a number that means the same in every release)."""
    return {row["number"]: row["entry"] for row in _status_rows()
            if _answering(row) and (row["number"] in _ERA_STABLE or row["number"] >= 98)}


@lru_cache(maxsize=None)
def _driver_numbers() -> dict[int, str]:
    """[p26 status] The numbers a driver-API call's result is read as: the rows with a driver name (a CUresult of that
    number exists) that answer. No era rule: the driver API never renumbered (34 is CUDA_ERROR_STUB_LIBRARY wherever it
    is printed), while a runtime call's 34 was cudaErrorNotReady before CUDA 10."""
    return {row["number"]: row["entry"] for row in _status_rows() if _answering(row) and row.get("driver")}


def _call_table(kind: str) -> dict[int, str]:
    """The numbers a status beside a CUDA API call is read as: a runtime call's (``kind`` "cuda": the era rule holds)
    or a driver-API call's (``kind`` "cu": CUresults were never renumbered)."""
    return _status_numbers() if kind == "cuda" else _driver_numbers()


@lru_cache(maxsize=None)
def _number_frames() -> re.Pattern:
    """[l29] status.yaml ``number_frames``: a producer's frame that names the API of the status number it prints
    (glog's "== cudaSuccess (35 vs. 0)", "CUBLAS error(13)", "CUDA error 100 at main.cu:40"), as one pattern whose
    groups ``api`` and ``number`` say which table and which row."""
    from .derive import knowledge_table

    frames = knowledge_table("status.yaml").get("number_frames", [])
    parts = [f["pattern"].replace("(?P<api>", f"(?P<api{i}>").replace("(?P<number>", f"(?P<number{i}>")
             for i, f in enumerate(frames)]
    return re.compile("|".join(f"(?:{p})" for p in parts))


@lru_cache(maxsize=None)
def _library_numbers() -> dict[tuple[str, int], str]:
    """[l29] (library prefix, number) -> the entry, for status.yaml's library rows that answer: CUBLAS_STATUS_ARCH_MISMATCH
    is ("CUBLAS", 8); a row numbered per release ("1 (cuDNN 8), 1001 (cuDNN 9)") is read by each of its numbers."""
    from .derive import knowledge_table

    out: dict[tuple[str, int], str] = {}
    for row in knowledge_table("status.yaml")["libraries"]:
        if _answering(row) and re.fullmatch(r"CU[A-Z]+_\w+", row["name"]):
            for n in re.findall(r"\b\d+\b", str(row.get("number", ""))):
                out[(row["name"].split("_")[0], int(n))] = row["entry"]
    return out


def _read_number_frame(t: LogText) -> _Reading | None:
    """[l29] A status number in a frame that names its API (status.yaml ``number_frames``): the runtime's numbers by the
    era rule, a library's by its own rows. One search over the log (the frames match within a line); a line longer
    than the generic readings read is skipped, as everywhere here."""
    runtime = _status_numbers()
    for m in _number_frames().finditer(t.text):
        i = t.line_at(m.start())
        if len(t.lines[i]) > _LONGEST:
            continue
        groups = {k.rstrip("0123456789"): v for k, v in m.groupdict().items() if v is not None}
        api, number = groups["api"].upper(), int(groups["number"])
        entry = runtime.get(number) if api in ("CUDA", "CUDASUCCESS") else _library_numbers().get((api.split("_")[0], number))
        if entry:
            return _Reading(i, "status", groups["number"], entry, "reported")
    return None


def _read_status(t: LogText, low: str) -> _Reading | None:
    """A CUDA status a line names (see the notes above the patterns), as a reading the entry status.yaml names answers;
    ``name`` is the text read (a number or a status name), so the answer can quote it."""
    got = _read_number_frame(t)
    if got is not None:
        return got
    framed = (any(lit in low for lit in _frame_literals())  # the frames' literals first: most logs have none
              and _frames().search(t.text) is not None)
    if "cuda" not in low and "cu" not in t.text and not framed:  # a driver-API call ("cuInit(0) = 100") need not spell "cuda"
        return None
    known = _status_numbers()
    names = _status_names()
    strings, string_entry = _status_strings()
    calls = "cu" in t.text and _CALL_NAME.search(t.text) is not None  # once: many logs name no CUDA call
    calls_or_cuda = calls or "cuda" in low
    # line by line, each at most _LONGEST characters (as every generic reading): a pasted single line of a megabyte
    # costs one pass, not a search from every position
    for i, line in enumerate(t.lines):
        if len(line) > _LONGEST:
            continue
        lower = line.lower()
        call = _CALL_NAME.search(line) if calls and "cu" in line else None
        frame = _frames().search(line) if framed and call is None else None
        if call is None and frame is None and not ("cuda" in lower and _CUDA_WORD.search(line)):
            got = (_read_status_with_string(t, i, line) if calls_or_cuda and "(" in line
                   and ("code" in lower or "error" in lower or "status" in lower) else None)
            if got is not None:
                return got
            continue
        # each search only where its literal is: a log of 10 000 lines of CUDA calls costs a few searches a line
        m = _STATUS_AT_END.search(line) if line.rstrip(" \t.)]")[-1:].isdigit() else None
        if m and int(m.group(1)) in known and _STATUS_WORD.search(line, 0, m.start()):
            return _Reading(i, "status", m.group(1), known[int(m.group(1))], "reported")
        m = _STATUS_BEFORE_PLACE.search(line) if "file" in lower or "func" in lower else None
        if m and int(m.group(1)) in known:
            return _Reading(i, "status", m.group(1), known[int(m.group(1))], "reported")
        m = _CALL_STATUS.search(line, call.start()) if call else None
        if m:
            table = _call_table(m.group(1))
            if int(m.group(2)) in table:
                return _Reading(i, "status", m.group(2), table[int(m.group(2))], "reported")
        m = _BRACKET_CALL.search(line) if call and "all to cu" in line else None
        if m:
            table = _call_table(m.group(2))
            if int(m.group(1)) in table:
                return _Reading(i, "status", m.group(1), table[int(m.group(1))], "reported")
        m = _STATUS_NAME.search(line) if "cudaError" in line or "CUDA_ERROR_" in line else None
        if m and m.group(1) in names:
            return _Reading(i, "status", m.group(1), names[m.group(1)][1], "reported")
        m = strings.search(lower) if call else None
        if m:
            return _Reading(i, "status", line[m.start():m.end()], string_entry[m.group(0)], "reported")
        m = _framed_strings()[0].search(lower) if frame else None
        if m:
            return _Reading(i, "status", line[m.start():m.end()], _framed_strings()[1][m.group(0)], "reported")
    return None


def _read_status_with_string(t: LogText, i: int, line: str) -> _Reading | None:
    """[r36 t39] ``line`` names a status number with its own string in parentheses (_STATUS_WITH_STRING), and the
    CUDA call or word stands on this line or one of the two before it: the reading of that number. The string must be
    the one status.yaml gives that number (cudaGetErrorString's), so "code 100 (no CUDA-capable device is detected)"
    reads and "exit code 127 (command not found)" does not."""
    m = _STATUS_WITH_STRING.search(line)
    if m is None:
        return None
    number, said = int(m.group(1)), " ".join(m.group(2).lower().split())
    rows = [row for row in _status_rows() if row["number"] == number and _answering(row)
            and str(row.get("string", "")).lower() == said]
    if not rows:
        return None
    before = " ".join(t.lines[max(0, i - 2):i + 1])
    if _CALL_NAME.search(before) is None and _CUDA_WORD.search(before) is None:
        return None
    return _Reading(i, "status", m.group(1), rows[0]["entry"], "reported")


# -- [r34 ab68] A status that says the device handle or ordinal was bad (101: cudaErrorInvalidDevice /
# CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal") answers "the process sees no usable GPU" only while the log does
# not show the contrary: a program that printed the device it picked, by number and name, before the failing call had a
# valid ordinal, so the bad handle came from its own arguments (linux-rdma/perftest#354, the fresh34 ab68 negative:
# "Picking device No. 0", "[pid = 211751, dev = 0] device name = [NVIDIA GB200]", then "cuCtxCreate() error=101": a
# cuCtxCreate signature wrong for CUDA 13, reverted in the project). A machine-wide listing (nvidia-smi's table, `-L`'s
# "GPU 0: ... (UUID: ...)", collect_env's "GPU 0:") names the machine's GPUs, not the one the process asked for, and
# leaves the reading standing. status.yaml marks such a row `refuted_by: selected_device_named`.
#: A line where the program names the device it selected by number: "dev = 0", "device No. 0", "Using device 0",
#: "selected GPU 1", "Device 0:" beside "picking"/"using"/"selected"/"set" (the GPU's name is checked separately).
_SELECTED_DEVICE = re.compile(r"(?i)\bdev(?:ice)?\s*(?:id\s*)?=\s*\d{1,2}\b"
                              r"|\b(?:pick(?:ing|ed)?|using|use|select(?:ed|ing)?|set(?:ting)?|chos(?:e|en)|choosing)\s+"
                              r"(?:cuda\s+)?(?:device|gpu|dev)\s*(?:no\.?|number|#|id)?\s*:?\s*\d{1,2}\b")


def _row_of(name: str) -> dict | None:
    """The status.yaml runtime row a status reading's ``name`` (a number, a runtime or driver name, or the string) is."""
    low = name.lower()
    for row in _status_rows():
        if (name.isdigit() and int(name) == row["number"]) or name in (row.get("name"), row.get("driver")) \
                or low == str(row.get("string", "")).lower():
            return row
    return None


def _selected_device_named(t: LogText, before: int) -> bool:
    """Whether a line before ``before`` (or the two lines that say it together) shows the program picking a device by
    number and naming it (see the note above :data:`_SELECTED_DEVICE`)."""
    from .extract import gpus_named

    for i in range(min(before, len(t.lines))):
        line = t.lines[i]
        if len(line) > _LONGEST or "|" in line or "uuid" in line.lower() or not gpus_named(line):
            continue
        if _SELECTED_DEVICE.search(line) or (i and _SELECTED_DEVICE.search(t.lines[i - 1])):
            return True
    return False


def _refuted(r: _Reading, t: LogText) -> bool:
    """Whether the log shows the contrary of what status reading ``r`` would answer (status.yaml's ``refuted_by``)."""
    row = _row_of(r.name)
    return row is not None and row.get("refuted_by") == "selected_device_named" and _selected_device_named(t, r.line)


def reading(t: LogText) -> _Reading | None:
    """What the first error line that names both a component and a failure says (see the module's docstring), or
    None when there is none, or the log shows a program bug."""
    if len(t.text) > 4_000_000:
        return None
    low = t.text.lower()
    if _program_bug(low):
        return None
    got = _read_sudo(t, low)
    if got is not None:
        return got
    if facts(t).get("platform") != "windows":
        got = _read_concept(t, low)  # a known cause in the program's own words comes before a component's generic reading
        if got is not None:
            return got
    libs, gen = _tables()
    lines = _candidates(t, low)
    if len(lines) > 2 * _MOST:  # a log of many cue lines (a CMake configure's "- not found"): its start and its end
        lines = lines[:_MOST] + lines[-_MOST:]
    first = None
    for i in lines:
        if len(t.lines[i]) > _LONGEST or _status_only(t, i):
            continue
        got = _read_version(t, i) or _read_missing(t, i, libs, gen)
        if got is None:
            continue
        # a line a producer marks as an error (or the line above it, CMake's "CMake Error: ..." over its variables)
        # before a status line that only reports (CMake's "-- Could NOT find NCCL" for an optional package)
        if _ERROR_MARK.search(t.lines[i]) or (i and _ERROR_MARK.search(t.lines[i - 1])):
            return got
        first = first or got
    if first is None and facts(t).get("platform") != "windows":
        first = _read_status(t, low)  # the entries that own a status answer it; their fixes are cudaenv commands
        if first is not None and _refuted(first, t):
            return None
    return first


# -- [r35 concepts] A known cause in a producer's own plain words (knowledge/concepts.yaml): what the line is about and
# what went wrong, both on one line that reads as a failure ("miner not compiled for the gpu architecture 30",
# "WARNING: NVIDIA Insufficient driver!", "NVML library is not installed or not found"). Answered through the entry the
# concept names, as a status is.

@lru_cache(maxsize=None)
def _concepts() -> tuple[re.Pattern, list[tuple[dict, list[re.Pattern], re.Pattern | None, re.Pattern | None]]]:
    """concepts.yaml compiled once: its failure mark, and each concept with its patterns, its ``unless`` and its
    ``values`` (the groups its entry's answer reads: a CUDA version for a compiler limit)."""
    from .derive import knowledge_table

    doc = knowledge_table("concepts.yaml")
    rows = [(c, [re.compile(p) for p in c["all"]], re.compile(c["unless"]) if c.get("unless") else None,
             re.compile(c["values"]) if c.get("values") else None) for c in doc["concepts"]]
    return re.compile(doc["mark"]), rows


def _read_concept(t: LogText, low: str) -> _Reading | None:
    """The last line (the failure a paste ends with) that a concept of concepts.yaml reads, as a reading its entry
    answers. Only the lines holding one of the concept's ``cues`` are read (found as :func:`_candidates` finds the
    generic cues, never by a regex over the whole log), and none longer than the generic readings read."""
    mark, rows = _concepts()
    best = None
    for c, pats, unless, values in rows:
        for i in reversed(_candidates(t, low, tuple(c["cues"]))):
            line = t.lines[i]
            if best is not None and i <= best[0]:
                break
            if len(line) > _LONGEST:
                continue
            m = pats[0].search(line)
            if m is None or not all(p.search(line) for p in pats[1:]) or (unless is not None and unless.search(line)):
                continue
            if c.get("marked", True) and not mark.search(line):
                continue
            got = values.search(t.text, t.starts[i], t.end(i)) if values is not None else None
            if got is None and c.get("needs_values"):
                continue  # its entry's answer cannot be given without them (gcc's limit: the CUDA it is for)
            best = (i, c, m.group(0), got)
            break
    if best is None:
        return None
    i, c, said, got = best
    return _Reading(i, "concept", said, c["entry"], c["what"], values=got)


def routed(entry: dict, r: _Reading, t: LogText) -> bool:
    """Whether ``entry`` answers the cause ``r`` read: its ``reads`` names the reading's kind (``header``, ``tool``,
    ``library``, ``setting``, ``cmake-var``, ``word``) with a pattern the name read matches, and its ``text`` (when
    given) a pattern the log holds (cmake.cudnn_not_found: a CMake log)."""
    if r.kind in ("status", "concept"):
        return r.key == entry.get("id")  # status.yaml names the entry that answers a status: one table, no per-entry key
    reads = entry.get("reads") or {}
    return (r.kind in reads and re.search(reads[r.kind], r.name) is not None
            and ("text" not in reads or re.search(reads["text"], t.text) is not None))


def mark(m: Match, r: _Reading) -> Match:
    """An entry's answer given from a generic reading (the entry's patterns did not match; its ``reads`` did): the
    title and cause say so and name what was read."""
    m.title = "generic reading: " + m.title
    m.cause = (_NOTE.format(line=m.line, what=f"{r.name} ({_KIND_WORDS.get(r.kind, r.kind)}), {r.failure}")
               + " It is answered by the cause that owns it: " + m.cause)
    m.values = {**m.values, "confidence": "generic", "read": r.name}
    return m


_KIND_WORDS = {"concept": "a known cause in the program's own words", "header": "a header", "tool": "a toolkit program",
               "library": "a library", "setting": "a build setting", "cmake-var": "a CMake variable",
               "word": "a component's name"}


# -- the answers ---------------------------------------------------------------------------------------------------

_NOTE = ("No entry of cudaenv's knowledge base matched this log, so this is a generic reading (lower confidence) "
         "of its line {line}: {what}.")


def _label(key: str, libs: dict) -> str:
    if key == "toolkit":
        return "the CUDA toolkit"
    return libs.get(key, {}).get("label", key)


def _toolkit_part(key: str, libs: dict) -> bool:
    return key == "toolkit" or bool(libs.get(key, {}).get("toolkit"))


def answer(r: _Reading, t: LogText, make: type[Match]) -> Match:
    """The generic cause-model answer to the reading ``r`` (no entry owns it), built as ``make`` (the matcher's
    Match, passed in: this module is imported by the matcher and must not import it back)."""
    from ...toolkit.compat import min_driver

    libs, gen = _tables()
    seen = facts(t)
    windows = seen.get("platform") == "windows"
    version = seen.get("cuda_seen") or ""
    label = _label(r.key, libs)
    quoted = clip(t.shown(t.lines[r.line]))
    use = f'`eval "$(cudaenv use {version or "/usr/local/cuda"})"`'
    install = f"`cudaenv install {version}`" if version else "the CUDA release the project needs (`cudaenv install --list` shows what can be installed)"
    devpk = (gen.get("devpackages") or {}).get(r.key, "")
    component, failure, check = "toolkit", r.failure, "env.cuda_home"
    if r.kind == "driver" and r.versions[0] in ("0.0", "0"):
        # nvidia-docker 1.x prints "driver 0.0 < image X" when it could not read the driver at all (its plugin
        # queries NVML): no driver is too old, the runtime does not see one (NVIDIA/nvidia-docker#99, #190, #357)
        need = r.versions[1]
        component, failure, check = "container-runtime", "broken", "driver.present"
        title = f"generic reading: the container runtime read no driver (driver 0.0) for the CUDA {need} image"
        what = "the container runtime could not read the host driver's version (0.0)"
        fix = ("If `nvidia-smi` on the host lists the GPU: the runtime's plugin read the driver before it changed or "
               "cannot load NVML: restart it (`sudo systemctl restart nvidia-docker`; after a driver upgrade, reboot), "
               "then run the container again; if `nvidia-smi` fails on the host too: repair the host driver first.")
    elif r.kind == "driver":
        have, need = r.versions
        floor = min_driver(need)
        component, check = "driver", "driver.version"
        title = f"generic reading: the driver runs CUDA {have} at most, older than the CUDA {need} asked for"
        what = f"the driver (CUDA {have}) is older than what CUDA {need} needs"
        host = " on the host" if seen.get("container") else ""
        fix = (f"Upgrade the NVIDIA driver{host} to {floor} or newer (the minimum for CUDA {need}), then run it again."
               if floor else f"Upgrade the NVIDIA driver{host} to one that supports CUDA {need}, then run it again.")
        fix += (f"\nOr stay on this driver and use a build for CUDA {have} (an image or toolkit of that release"
                + ("" if windows else f": `cudaenv use {have}`") + ").")
    elif r.kind == "sudo":
        component, check = "shell", "env.consistency"
        title = f"generic reading: the command ran under sudo, which drops your environment ({r.name} is missing there)"
        what = f"{r.name} is missing in the environment sudo gives the command"
        fix = ("Run it without sudo (a build needs no root; install into a virtual env or with `pip install --user`), or "
               "keep your environment: `sudo env \"PATH=$PATH\" \"CUDA_HOME=$CUDA_HOME\" "
               "\"LD_LIBRARY_PATH=$LD_LIBRARY_PATH\" …` (a Python script: `sudo \"$(which python)\" …`, root's Python "
               "has other packages).")
        fix += ("\nA script that must run as root: set CUDA_HOME and put its bin on PATH at its top "
                "(`export CUDA_HOME=/usr/local/cuda PATH=/usr/local/cuda/bin:$PATH`).")
    elif r.kind == "toolkit-version" and r.failure == "unsupported":
        (v,) = r.versions
        tool = _CARGO.search(t.text)
        who = f"`{tool.group(1)}` (and what depends on it)" if tool else "the package that prints it"
        title = f"generic reading: CUDA {v} is not among the toolkit versions {tool.group(1) if tool else 'the build'} supports"
        what = f"the toolkit's CUDA {v} is not among the versions it supports"
        failure, check = "built-for-other-version", "env.consistency"
        fix = (f"Update {who} to a release that supports CUDA {v} (it reads the toolkit's version from "
               "CUDA_HOME / CUDA_PATH or the nvcc on PATH).")
        fix += ("\nOr build with an older toolkit it supports: set CUDA_PATH to it." if windows else
                "\nOr build with an older toolkit it supports: `cudaenv list` shows the installed ones, `cudaenv use` "
                "selects one; then build again.")
    elif r.kind == "toolkit-version":
        (v,) = r.versions
        title = f"generic reading: this needs CUDA {v} or newer"
        what = f"a CUDA {v} or newer is required"
        failure = "too-old"
        fix = (f"Install CUDA {v} or newer and build with it (NVIDIA's installer sets CUDA_PATH)." if windows else
               f"Build with CUDA {v} or newer: `eval \"$(cudaenv use {v})\"` (none installed: `cudaenv install {v}`).")
        fix += "\n`cudaenv list` shows the installed toolkits; `cudaenv doctor` whether nvcc, CUDA_HOME and PATH agree."
    elif r.kind == "tool" and r.name in _INNER_TOOLS:
        # [r21 lead] the toolkit's inner programs are not looked up on PATH: nvcc runs cicc from its own ../nvvm/bin and
        # ptxas, nvlink, fatbinary from its own bin (nvcc.profile), and the tools that run ptxas themselves (Triton, XLA,
        # Numba) look in their bundled copy, CUDA_HOME/bin or their own setting before PATH. Judged held-out misses of
        # the PATH answer: fresh15 n70 (ptxas in no directory of the image: `conda install -c nvidia cuda-nvcc`),
        # fresh20 t05 (meta-tegra's toolkit without nvvm: cicc missing), fresh20 t63 (ptxas.exe on PATH, Triton found it
        # once CUDA_HOME named the toolkit).
        inner = "nvvm/bin" if r.name == "cicc" else "bin"
        title = f"generic reading: {r.name} (a program inside the CUDA toolkit) is not found"
        what = f"{r.name} is missing from the toolkit, or not where the program that runs it looks"
        failure = "missing"
        find = (f"`where /r C:\\ {r.name}.exe`" if windows else f"`find / -name {r.name} -type f 2>/dev/null`")
        part = "nvvm (cicc and libdevice)" if r.name == "cicc" else "nvcc"
        fix = (f"Check whether this machine has it at all: {find}. If it lists nothing, the CUDA install is partial (a "
               f"runtime-only image, a package or wheel of nvcc without its {inner}): install the toolkit's {part} part "
               + ("(NVIDIA's installer with the compiler selected)" if windows else
                  "(`sudo apt-get install cuda-nvcc-12-4` with your version, `conda install -c nvidia cuda-nvcc`, "
                  "`pip install nvidia-cuda-nvcc-cu12`, an image's -devel tag)")
               + f", or use a complete toolkit{'' if windows else ': ' + use}.")
        fix += (f"\nIf it lists one, the program that runs {r.name} does not look there: nvcc runs it from its own "
                f"{inner} (build with that toolkit's nvcc), and Triton, XLA/JAX and Numba look in CUDA_HOME/bin or their "
                "own setting (CUDA_HOME set to the toolkit's directory, `TRITON_PTXAS_PATH`, "
                "`XLA_FLAGS=--xla_gpu_cuda_data_dir=`), then start it again.")
    elif r.kind == "tool":
        title = f"generic reading: {r.name} (a CUDA toolkit program) is not found"
        what = f"{r.name} is not on PATH"
        failure = "not-on-path"
        fix = ("Put the CUDA toolkit's bin on PATH: `set PATH=%CUDA_PATH%\\bin;%PATH%` (NVIDIA's installer sets "
               "CUDA_PATH; none: install the CUDA toolkit)." if windows else
               f"Put a toolkit's bin on PATH: {use} sets PATH (nvcc) and CUDA_HOME; none installed: {install}.")
        if _SUDO.search(t.text) and not windows:
            # a build run with sudo gets root's secure_path, not the user's PATH (speedinghzl/CCNet#56,
            # xiumingzhang/GenRe-ShapeHD#34): the toolkit is there, sudo hides it
            fix = ("The build ran under `sudo`, which resets PATH (sudo's secure_path) and drops CUDA_HOME: run it "
                   f"without sudo, or `sudo env \"PATH=$PATH\" \"CUDA_HOME=$CUDA_HOME\" …`; no toolkit on your PATH either: {use}.")
        elif not windows:
            fix += "\nA build run with `sudo` gets root's PATH: run it without sudo, or with `sudo env \"PATH=$PATH\" …`."
    elif _toolkit_part(r.key, libs):
        part = "headers" if r.kind == "header" else "files"
        name = r.name if r.kind != "setting" else r.setting
        title = f"generic reading: the build cannot find {name} ({label}, a part of every CUDA toolkit)"
        what = f"{name} of {label} is missing"
        component = "toolkit" if r.key == "toolkit" else libs[r.key]["component"]
        check = "env.cuda_home_headers" if r.kind == "header" else "env.cuda_home"
        if windows:
            fix = ("Install the CUDA toolkit with NVIDIA's installer (it sets CUDA_PATH) and build from a new shell, "
                   "so the build finds its include and lib directories.")
        else:
            fix = (f"Build with a complete CUDA toolkit: {use} sets CUDA_HOME, PATH and the {part}' paths to one that "
                   f"has them (a runtime-only install, conda's cudatoolkit or pip's nvidia-* wheels lack {part}); "
                   f"none installed: {install}.")
        if r.setting:
            fix += f"\nOr point {r.setting} at that toolkit's directory."
        fix += "\n`cudaenv list` shows the installed toolkits; `cudaenv doctor` flags a CUDA_HOME without headers."
    else:
        component = libs.get(r.key, {}).get("component", r.key)
        check = {"nccl": "env.nccl"}.get(r.key, "env.consistency")
        headers = {"cudnn": "cudnn.h", "nccl": "nccl.h", "nvinfer": "NvInfer.h"}
        file = r.name if r.kind == "header" else (
            headers.get(r.key, f"lib{r.key}.so") if re.search(r"(?i)inc", r.setting) else f"lib{r.key}.so")
        title = (f"generic reading: the build cannot find {r.name} ({label}, which no CUDA toolkit ships)"
                 if r.kind in ("header", "library", "word") else
                 f"generic reading: {r.setting} does not point at {label} (no CUDA toolkit ships it)")
        what = f"{label} ({r.name}) is missing or not found"
        find = f"`find / -name '{file}*' 2>/dev/null`"
        if r.kind in ("setting", "cmake-var"):
            libvar = "LIB" in r.setting.upper() and not re.search(r"(?i)dir|path|home|root", r.setting)
            fix = (f"Point {r.setting} at {label}: "
                   + (f"pass `-D{r.setting}=` the full path of {file} that {find} lists"
                      if libvar else
                      f"set {r.setting} to the directory {label} is installed in ({find} shows it)")
                   + f"; none installed: install {label} first"
                   + (f" ({devpk})." if devpk else "."))
        elif windows:
            fix = (f"Install {label} for Windows (NVIDIA's zip or installer) and add its include and lib directories "
                   f"to the build (the project's {label} path setting, or INCLUDE and LIB); if it is installed already, "
                   f"the build is not told where: point that setting at it.")
        else:
            fix = (f"Install {label}'s development files" + (f": {devpk}" if devpk else "")
                   + f"; if it is installed already ({find} lists it), put that directory on the build's "
                   + ("include path" if r.kind == "header" else "library path") + " instead.")
        fix += f"\nThe {label} release must match the CUDA major the rest of the build uses."
    cause = _NOTE.format(line=t.number(r.line), what=what) + f" Read: component {component}, failure {failure}" + (
        f", from `{r.name}`." if r.kind != "driver" else ".")
    m = make(id=f"generic.{component}.{failure}", title=title, check=check, line=t.number(r.line), matched=quoted,
              cause=cause, fix=fix, values={"confidence": "generic", "read": r.name, "component": component,
                                              "failure": failure, **({"setting": r.setting} if r.setting else {})})
    m.component, m.failure = component, failure
    m.commands = not windows
    m.platform = seen.get("platform", "")
    return m
