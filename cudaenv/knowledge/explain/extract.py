"""The extraction stage: what a whole log says about where it ran, whatever tool wrote it.

A cause (``component`` x ``failure`` in ``errors.yaml``) is recognised by the message of
whichever tool reports it; the *answer* then depends on details the message itself may not
carry: the platform (WSL, native Windows, macOS, a container), the producing tool (Triton,
numba, JAX, TensorFlow, CMake...), whether the failing binary was a prebuilt wheel or built
here, permission versus space, the CUDA versions and library paths the log names.
:func:`facts` reads them once per log; an entry's ``variants`` choose their answer by them
(``when: {platform: wsl}``), and they fill ``{name}`` placeholders like captured values.

Cheap: a fixed number of searches over the text, none per line (a 10 000-line log pays a
few milliseconds).
"""

from __future__ import annotations

from . import lazyre as re  # re, its module-level patterns compiled when first used
from .factnames import FACT_NAMES
from .text import DENSE, LONG_TRIES, may_contain, window

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .text import LogText

__all__ = ["facts", "FACT_NAMES", "decode_version"]

# Each fact: literals (lower case) that every match contains, and the pattern that confirms a
# candidate line. A 10 000-line log is 1 MB: a regular expression over all of it costs
# 0.2-2 s per fact in Python, `str.find` on the lower-cased text a millisecond.
_I = re.IGNORECASE


class _Lazy:
    """A pattern compiled when first searched: importing this module costs no compiling
    (`explain` on a short message that needs no facts never searches them)."""

    __slots__ = ("args", "rx")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.args = (pattern, flags)
        self.rx: re.Pattern | None = None

    def search(self, text: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match | None:
        if self.rx is None:
            self.rx = re.compile(*self.args)
        return self.rx.search(text, pos, endpos)


_PLATFORM = [
    # /mnt/c/…: a Windows drive as WSL mounts it (oobabooga/textgen#367, a prompt under /mnt/c/Users)
    # [r7 context] WSL's own traces where the log never says "WSL": the GPU paravirtualisation device
    # (/dev/dxg, the kernel's "misc dxg: dxgk:" lines, libdxcore; microsoft/WSL#40680, #6014), WSL's
    # environment (WSL_DISTRO_NAME, \\wsl.localhost\), and WSL's nvidia-smi, whose own version is the Linux
    # one and whose "Driver Version" is the Windows driver's, so the two differ (microsoft/WSL#9272:
    # "NVIDIA-SMI 525.60.13    Driver Version: 522.25"; #11589: "NVIDIA-SMI 545.46  Driver Version: 546.80";
    # on Linux and on native Windows the two are the same number).
    ("wsl", ("/usr/lib/wsl", "wsl", "microsoft-standard", "lxss", "/mnt/c/", "/mnt/d/", "/mnt/e/", "dxg", "dxcore",
             "wsl_distro_name", "nvidia-smi", "@desktop-", "@laptop-"),
     _Lazy(r"/usr/lib/wsl\b|\bWSL2?\b|microsoft-standard|\\\\wsl\$|lxss|(?<![\w.])/mnt/[cde]/|"
           r"/dev/dxg\b|\bdxgk(?:rnl)?\b|\bmisc dxg\b|libdxcore|\bWSL_DISTRO_NAME\b|"
           r"NVIDIA-SMI (\d+\.\d+)(?:\.\d+)?\s+Driver Version: (?!\1[.\s])\d+\.\d+\s|"
           r"@(?:DESKTOP-[A-Z0-9]{7}|LAPTOP-[A-Z0-9]{8}):[~/]", _I)),
    ("windows", (":\\", ":/users", ":/program files", ":/windows", "msvc", "cl.exe", "visual studio", "windowspath",
                 ".dll", "msbuild", "is not recognized as an internal or external", "recognized as the name of a cmdlet",
                 "recognized as a name of a cmdlet"),
     # [r26 tune] not Bazel's "'TMP' environment variable is not set, using 'C:\Windows\Temp' as default", which Bazel
     # 0.18-0.20's C++ auto-configuration printed on Linux too (tensorflow/tensorflow#24460, fresh26 z05: /home/ubuntu)
     _Lazy(r"(?<![\w/])[A-Za-z]:[\\/](?!Windows\\Temp' as default)(?:Users|Program Files|Windows|ProgramData|[\w .-]+[\\/])|"
                r"\bMSVC\b|\bcl\.exe\b|Visual Studio|WindowsPath|\bPS [A-Z]:\\|\.dll\b|\bMSBuild\b|"
                # [r30 lead] cmd.exe's and PowerShell's "not found" are Windows' own words
                r"is not recognized as an internal or external command|is not recognized as (?:the|a) name of a cmdlet")),
    ("mac", ("darwin", "macos", "mac os", "mac m", "macbook", "mac mini", "apple m", "apple silicon", "/users/",
             ".dylib"),
     _Lazy(r"\bDarwin\b|\bmacOS\b|\bMac ?(?:OS|M1|M2|M3|Book|mini)\b|\bApple (?:M\d|Silicon)|"
                r"/Users/\w+/|\.dylib\b")),
]
# ([t32] kubectl too: a pod's output read with `kubectl logs`, NVIDIA/nvidia-docker#1730's NVML "Unknown Error" loop)
# ([t33] and docker's classic builder's own words for a failed RUN step, which name no docker: "The command
# '/bin/sh -c ...' returned a non-zero code", dusty-nv/jetson-containers' build of torchvision, fresh33 aa44)
_CONTAINER = (("docker", "podman", "oci runtime", "nvidia-container", "containerd", "kubernetes", "kubectl",
               "singularity", "apptainer", "enroot", "root@", "returned a non-zero code"),
              _Lazy(r"\bdocker\b|\bpodman\b|OCI runtime|nvidia-container|\bcontainerd\b|\bkubernetes\b|\bkubectl\b|"
                         r"\bsingularity\b|\bapptainer\b|\benroot\b|root@[0-9a-f]{12}:|"
                         r"The command '/bin/(?:ba)?sh -c [^\n]*' returned a non-zero code", _I))
# [r7 context] Which container or job runner the log ran in: the fix that makes a GPU visible differs
# (Apptainer/Singularity's --nv, a Slurm job's GPU request, a pod's nvidia.com/gpu limit, docker's --gpus).
# Apptainer: its prompt ("Singularity>", "Apptainer>"), its INFO/WARNING lines, its commands, /.singularity.d
# (nanoporetech/dorado#319, google/deepvariant#923, apptainer/singularity#5966). Slurm: its commands and
# error prefixes, slurmstepd, SLURM_* variables, #SBATCH lines (PlasmaControl/DESC#1325, deepvariant#923).
_CONTAINER_KIND = [
    ("apptainer", ("singularity", "apptainer"), _Lazy(r"\bsingularity\b|\bapptainer\b", _I)),
    ("kubernetes", ("kubernetes", "kubectl", "nvidia.com/gpu", "k8s"),
     _Lazy(r"\bkubernetes\b|\bkubectl\b|nvidia\.com/gpu(?!=)|\bk8s\b", _I)),
    ("enroot", ("enroot", "pyxis"), _Lazy(r"\benroot\b|\bpyxis\b", _I)),
    ("podman", ("podman",), _Lazy(r"\bpodman\b", _I)),
    ("docker", ("docker", "root@", "returned a non-zero code"),
     _Lazy(r"\bdocker\b|\bnvidia-docker\b|root@[0-9a-f]{12}:|The command '/bin/(?:ba)?sh -c [^\n]*' returned a non-zero code", _I)),
]
_SLURM = (("srun", "sbatch", "slurm", "salloc"),
          _Lazy(r"\bsrun\b|\bsbatch\b|\bsalloc\b|#SBATCH|\bslurmstepd\b|\bSLURM_[A-Z_]+|\bslurm-\d+\.out\b"))
_PRODUCERS = [
    ("triton", ("triton",), r"\btriton\b"), ("numba", ("numba",), r"\bnumba\b"),
    ("jax", ("jax", "xla"), r"\bjax(?:lib)?\b|\bXLA\b|xla_bridge|\b(?:Xla|Jax)RuntimeError\b"),
    ("tensorflow", ("tensorflow", "stream_executor"), r"\btensorflow\b|stream_executor"),
    ("tensorrt", ("tensorrt", "nvinfer"), r"\bTensorRT\b|\bnvinfer"),
    ("xformers", ("xformers",), r"\bxformers\b"), ("bitsandbytes", ("bitsandbytes",), r"\bbitsandbytes\b"),
    ("vllm", ("vllm",), r"\bvllm\b"), ("cupy", ("cupy",), r"\bcupy\b"),
    ("cmake", ("cmake",), r"\bCMake\b|CMakeLists\.txt"), ("julia", ("julia",), r"\bjulia\b"),
    ("torch", ("torch",), r"\btorch\b|\bPyTorch\b"),
]
_PRODUCER_RX = [(name, needles, _Lazy(p, _I)) for name, needles, p in _PRODUCERS]
# [r11 engine] What only JAX prints: a TensorFlow log names XLA too (its dso_loader lives in
# tensorflow/compiler/xla/stream_executor since TF 2.11; "XLA service ... initialized"), which is no JAX
# (fresh11 f64: TF's libcudart.so.11.0 answered as "this jaxlib was built for CUDA 11.0").
# jaxlib's own build vendors XLA as external/org_tensorflow/... (fresh3 709, fresh2 625), later external/xla/...
# (sampled 223); TensorFlow 2.16 says external/local_xla/.
_JAX_OWN = (("jax", "xla_bridge", "xla_python", "pjrt", "external/org_tensorflow", "external/xla/"),
            _Lazy(r"\bjax(?:lib)?\b|xla_bridge|XLA_PYTHON|pjrt|external/org_tensorflow|external/xla/", _I))
_CONDA = (("conda", "forge", "mamba", "$prefix/lib"),
          _Lazy(r"(/[\w./+-]*?/(?:mini|ana|micro)?(?:conda|forge|mamba)\d?/envs/[\w.+-]+|"
                     r"/[\w./+-]*?/(?:miniconda|anaconda|miniforge|mambaforge)\d?)\b|\$CONDA_PREFIX|\$PREFIX/lib|"
                     r"x86_64-conda(?:_cos\d)?-linux-gnu", _I))
# [r16 evidence] also the toolkit that tools print having found: torch's collect_env "CUDA runtime version: 11.8.89" (the
# nvcc it ran, `nvcc --version`; "Could not collect" when none), CMake's "The CUDA compiler identification is NVIDIA 12.4.131"
# and FindCUDA's "Found CUDA: /usr/local/cuda (found version "10.0")" (torch collect_env reports,
# NVIDIA/cutlass#1636, fresh14 m08: collect_env's 11.8 toolkit beside driver 470)
_TOOLKIT_PATH = _Lazy(r"cuda-(\d+\.\d+)\b|[/\\]CUDA[/\\]v(\d+\.\d+)\b|Cuda compilation tools, release (\d+\.\d+)|"
                           r"\bCUDA(?: Toolkit| Version)?[ =:]+(\d+\.\d+)\b|CUDA runtime version: (\d+\.\d+)|"
                           r"The CUDA compiler identification is NVIDIA (\d+\.\d+)|"
                           r"Found CUDA(?:Toolkit)?: [^\n(]{1,200}\(found (?:suitable )?(?:exact )?version \"(\d+\.\d+)"
                           # [r31 buildsys] meson's identification of the nvcc it found (mesonbuild/meson#7985)
                           r"|Cuda compiler for the host machine: [^\n(]{0,200}\(nvcc (\d+\.\d+)")
_TOOLKIT_NEEDLES = ("cuda-", "cuda/v", "cuda\\v", "cuda compilation tools", "cuda")
_TORCH = (("+cu", "+cpu", "+rocm"), _Lazy(r"\b(\d+\.\d+\.\d+(?:\.\w+)?\+(?:cu\d+|cpu|rocm[\d.]+))\b"))
_DENIED = (("permission denied", "eacces", "operation not permitted"),
           _Lazy(r"Permission denied|EACCES|Operation not permitted", _I))
_NOSPACE = (("no space left", "enospc", "insufficient space"),
            _Lazy(r"No space left on device|ENOSPC|insufficient space", _I))
_BUILT_HERE = (("build_ext", "setup.py", "building wheel for", "ninja", "pip install -e", "cmake --build", "make[",
                "nvcc"),
               _Lazy(r"running build_ext|setup\.py (?:install|develop|build)|Building wheel for|\bninja\b|"
                          r"pip install -e|\bcmake --build\b|\bmake\[\d\]|\bnvcc\b.* -c ", _I))
# A GPU that is not NVIDIA's, named in the log (a user's system description, lspci, a driver
# line), and no NVIDIA model named: CUDA cannot run on that machine at all.
_OTHER_GPU = (("intel", "amd", "radeon", "apple m", "rocm", "mesa"),
              _Lazy(r"\b(?:Mesa )?Intel\S*(?:\s+(?!NVIDIA)[\w()-]+){0,3}?\s+(?:(?:UHD|Iris|HD|Xe|Arc)\b[\w ()-]*?Graphics|Graphics|Xe|Iris|Arc)\b"
                    r"|\bAMD\b[^\n]{0,30}?\b(?:Radeon|Instinct)[\w ]*|\bRadeon\b[\w ]*|\bApple M\d\w*", _I))
_NVIDIA_GPU = (("geforce", "rtx", "gtx", "tesla", "quadro", "nvidia a", "nvidia h", "nvidia l", "nvidia b", "nvidia-smi",
                "10de:"),
               _Lazy(r"GeForce|\bRTX\b|\bGTX\b|\bTesla\b|Quadro|NVIDIA [AHLB]\d{2,4}|\| +NVIDIA-SMI \d|\b10de:", _I))
_LD_PATH = (("ld_library_path",), _Lazy(r"LD_LIBRARY_PATH[:=]\s*['\"]?([^\s'\"]+)"))


# [r6 main] An install in the log took torch out and put another in (pip: "Successfully uninstalled
# torch-2.1.0a0+fe05266" when `pip install xformers` resolved its torch pin, huggingface/accelerate#1501;
# uv: " - torch==2.5.1+cu124" beside " + torch==2.6.0+cu124", sdbds/musubi-tuner-scripts#4): the torch
# that was there before, which what is already installed was built for.
_TORCH_REPLACED = (("successfully uninstalled torch-", "- torch=="),
                   _Lazy(r"Successfully uninstalled torch-(\d[\w.+]*)|^\s*- torch==(\d[\w.+]*)", re.M))


# uv prints the removal and the addition as a pair; a lone "- torch==2.1.0" is an issue template's list
_TORCH_ADDED = (("+ torch==",), _Lazy(r"^\s*\+ torch==\d", re.M))


# [r7 claims] The log shows Python running the program (a traceback, a .py frame, site-packages, an
# ImportError, pip or conda): a pip wheel can then be a first fix; a native binary's log (`./prog: error while
# loading shared libraries`, a CMake/make build, a C++ abort) gets a toolkit or system package instead.
_PYTHON = (("traceback", ".py", "site-packages", "dist-packages", "importerror", "modulenotfounderror", "pip",
            "python", "conda"),
           _Lazy(r"Traceback \(most recent call last\)|\bFile \"[^\"\n]*\.py\"|\w\.py\b|(?:site|dist)-packages|"
                 r"\b(?:ImportError|ModuleNotFoundError)\b|\bpip3? (?:install|list|show|freeze)\b|\bpython[\d.]*\b|"
                 r"\bconda\b", _I))


# [r11 copies] The module that fails is the user's own build, not a package: the import of a compiled module by
# its underscore name (`from core.nn import _C`, `from . import _ext`) in a frame outside site-/dist-packages (or with
# no installed package in the log), or a .so path on the error line outside site-/dist-packages, /usr, /opt and
# conda's pkgs (a project's build/ tree, a home directory). Tramac/awesome-semantic-segmentation-pytorch#99 (fresh11
# f10: `from core.nn import _C`, built for CUDA 9.0: a clean rebuild), facebookresearch/maskrcnn-benchmark,
# detectron2-style `from model import _C`.
_OWN_IMPORT = (("import_", "import _"),
               _Lazy(r"^[ \t>]*(?:from\s+[\w.]+\s+import\s*_\w+|import\s+_[A-Za-z]\w*)\s*$", re.M))
_OWN_SO = (("error: /", "error:/", "error: ./"),
           _Lazy(r"(?:Import|OS)Error:\s*(\.?/(?![\w./+-]*?(?:(?:site|dist)-packages|/pkgs/|/envs/|conda\d?/|forge\d?/|/lib-dynload/))(?!usr/|opt/|lib/|lib64/)[\w./+-]+?\.so[\w.]*):"))
_FRAME = re.compile(r'File "([^"\n]+)", line \d+')


def _own_build(f: "_Finder") -> str:
    """"yes" when the module that fails is a build in the user's own tree (see _OWN_IMPORT)."""
    m = f.search(*_OWN_SO)
    if m is not None:
        return "yes"
    m = f.search(*_OWN_IMPORT)
    if m is None:
        return ""
    frames = _FRAME.findall(f.text, 0, m.start())
    if frames:
        return "" if re.search(r"(?:site|dist)-packages|[/\\]pkgs[/\\]", frames[-1]) else "yes"
    return "" if re.search(r"(?:site|dist)-packages", f.text) else "yes"


def _torch_replaced(f: "_Finder") -> str:
    """The torch version an install in the log uninstalled ("" when none was)."""
    m = f.search(*_TORCH_REPLACED)
    if m is None:
        return ""
    if m.group(1):
        return m.group(1)
    return m.group(2) if f.search(*_TORCH_ADDED) else ""


class _Finder:
    """First match of a pattern, found through the literals every match contains."""

    def __init__(self, text: str, words: tuple[frozenset[str], str] | None = None, shapes: str | None = None) -> None:
        self.text = text
        self.shapes = shapes
        low = text.lower()
        self.low = low if len(low) == len(text) else None  # lower() changed lengths: search all of it
        # The text's distinct words, lower-cased (LogText.words_lower): a needle with a whole word
        # that is not among them is not searched for in the whole text (text.may_contain).
        self.words = words

    def search(self, needles: tuple[str, ...], rx: _Lazy, start: int = 0) -> re.Match | None:
        text, low = self.text, self.low
        if low is None:
            return rx.search(text, start)
        best: re.Match | None = None
        for needle in needles:
            if self.words is not None and not may_contain(needle, *self.words, low, self.shapes):
                continue
            pos, line, tries = start, -1, 0  # line: the long line searched in windows, tries: how many so far
            # A log repeating a line that holds the needle (a retry loop printing "NVIDIA driver ...") costs one
            # search per line: a line already searched is not searched again, and after DENSE lines without a
            # match only the last DENSE lines holding the needle are (facts sit in the header or near the end).
            tried: set[str] = set()
            while True:
                k = low.find(needle, pos)
                if k < 0 or (best is not None and k >= best.start()):
                    break
                a = low.rfind("\n", 0, k) + 1
                b = low.find("\n", k)
                b = len(low) if b < 0 else b
                lo, hi = window(a, b, k, len(needle))
                whole = (lo, hi) == (a, b)
                if whole:
                    if text[a:b] in tried:
                        pos = b + 1
                        continue
                    tried.add(text[a:b])
                m = rx.search(text, lo, hi)
                if m is not None:
                    if best is None or m.start() < best.start():
                        best = m
                    break
                if whole:
                    pos = b + 1 if len(tried) != DENSE else max(b + 1, _last_lines(low, needle, DENSE))
                else:
                    tries = tries + 1 if a == line else 1
                    line = a
                    pos = max(hi, k + 1) if tries < LONG_TRIES and hi < b else b + 1
        return best


def facts(t: LogText) -> dict[str, str]:
    """What the whole log says about where and by what it ran (see the module doc).

    Every name in :data:`FACT_NAMES` is present; an unknown fact is "". Read once per log: the matcher, the situations
    and the generic reading all ask, so the facts are kept on ``t`` and each caller gets its own copy.
    """
    kept = t.__dict__.get("_facts")
    if kept is not None:
        return dict(kept)
    out = _read_facts(t)
    t.__dict__["_facts"] = out
    return dict(out)


def _read_facts(t: LogText) -> dict[str, str]:
    f = _Finder(t.text, (t.words_lower(), t.joined_words_lower()) if len(t.text) >= t.SMALL else None,
                t.shapes_lower() if len(t.text) >= t.SMALL else None)
    out = dict.fromkeys(FACT_NAMES, "")
    for name, needles, rx in _PLATFORM:
        if f.search(needles, rx):
            out["platform"] = name
            break
    out["container"] = "yes" if f.search(*_CONTAINER) else ""
    found = [name for name, needles, rx in _PRODUCER_RX if f.search(needles, rx)]
    if "jax" in found and "tensorflow" in found and not f.search(*_JAX_OWN):
        found.remove("jax")  # [r11 engine] TensorFlow's own XLA (tensorflow/compiler/xla/...), not JAX
    out["producers"] = " ".join(found)
    out["producer"] = found[0] if found else ""
    m = f.search(*_CONDA)
    out["conda"] = (m.group(1) or "conda") if m else ""
    out["cuda_seen"] = _cuda_seen(f)
    m = f.search(*_TORCH)
    out["torch_build"] = m.group(1) if m else ""
    out["denied"] = "yes" if f.search(*_DENIED) else ""
    out["nospace"] = "yes" if f.search(*_NOSPACE) else ""
    out["built_here"] = "yes" if f.search(*_BUILT_HERE) else ""
    m = f.search(*_LD_PATH)
    out["ld_library_path"] = m.group(1) if m else ""
    m = f.search(*_OTHER_GPU)
    out["other_gpu"] = m.group(0).strip() if m and not f.search(*_NVIDIA_GPU) else ""
    out["torch_replaced"] = _torch_replaced(f)
    out["container_kind"] = next((name for name, needles, rx in _CONTAINER_KIND if f.search(needles, rx)), "")
    out["scheduler"] = "slurm" if f.search(*_SLURM) else ""
    out["python"] = "yes" if f.search(*_PYTHON) else ""
    out["own_build"] = _own_build(f)
    out.update(_driver_and_gpu(f))  # [r15 facts] driver_seen, driver_seen_cuda, gpu_name, gpu_cc
    out.update(_platform_more(f))  # [r15 platforms] jetson, nix
    out["smi"] = _smi(f)  # [r16 evidence] what the log's nvidia-smi says: works / fails
    m = f.search(*_CUDA_SAID)  # [r16 evidence] the reporter's "my cuda version is 10.1"
    out["cuda_said"] = m.group(1) if m else ""
    out["launcher"] = next((name for name, needles, rx in _LAUNCHER if f.search(needles, rx)), "")  # [r16 ide]
    out["ci"] = _ci(f)  # [r21 obuild, lead]
    out["build_isolated"] = "yes" if f.search(*_BUILD_ISOLATED) else ""  # [r21 obuild]
    out["hosted"] = next((name for name, needles, rx in _HOSTED if f.search(needles, rx)), "")  # [r21 oforum]
    out["rebooted"] = _rebooted(f)  # [r21 oforum]
    out["conda_install"] = _conda_installs(f)  # [r21 ofw]
    out["conda_made"] = "yes" if out["conda_install"] or f.search(*_CONDA_MADE_WORDS) else ""  # [r21 oday]
    return out


def decode_version(n: str) -> str:
    """A library's version integer as its tools print it: 8907 -> 8.9.7, 11401 -> 11.4.1, 5110 -> 5.1.10.

    cuDNN and the CUDA math libraries encode major*1000 + minor*100 + patch (cuDNN 9:
    major*10000 + minor*100 + patch); a string that is not a number is returned as is.
    """
    if not n.isdigit():
        return n  # already dotted (XLA: "8.5.0"), or not a version
    if len(n) < 4:
        return n
    v = int(n)
    if v >= 90000:  # cuDNN 9 and later: 90100 -> 9.1.0
        return f"{v // 10000}.{v // 100 % 100}.{v % 100}"
    return f"{v // 1000}.{v // 100 % 10}.{v % 100}"


# -- [r15 facts] facts that can contradict a first fix: the driver the log prints and the GPU it names.
#
# `driver_seen`: the driver version the log shows (nvidia-smi's header "Driver Version: 550.78", WSL's too;
# /proc/driver/nvidia/version's "Kernel Module  535.104.05"; a user's "Nvidia Driver: v550.78", "driver version
# 535.54", "NVIDIA driver 470.82"; nvidia-container-cli's "driver=550.54"). `driver_seen_cuda`: the newest CUDA it runs
# natively (nvidia-smi's "CUDA Version: 12.4" when printed, else data/compat.yaml's driver_max_cuda for its branch).
# Threads: imagegenius/docker-immich#349 (fresh14 m33: "Nvidia Driver: v550.78", error 35 from a mis-set container),
# tensorflow/tensorflow#43718 (455.23, CUDA 11.1), NVIDIA/nvidia-docker#317, NVIDIA/DIGITS#1769 (the header inside
# the container).
_DRIVER_SEEN = (("driver version", "kernel module", "driver:", "driver v", "nvidia driver", "nvidia-driver", "driver=",
                 "driver ="),
                _Lazy(r"Driver Version:?\s*(?P<v>\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b|"
                      r"Kernel Module\s+(?:for \S+\s+)?(?P<k>\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b|"
                      r"(?i:nvidia[ -]drivers?(?: version)?|driver version|drivers?)\s*[:=]?\s*v?(?P<u>\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b"))
_SMI_CUDA_SEEN = (("cuda version:",), _Lazy(r"CUDA Version:\s*(\d{1,2}\.\d)"))

# `gpu_name`, `gpu_cc`: the GPU the log names and its compute capability. A capability the log states wins (torch's
# "which is of cuda capability 3.7" and "with CUDA capability sm_37", TensorFlow's "major: 3 minor: 7" and
# "computeCapability: 3.7", deviceQuery's "CUDA Capability Major/Minor version number: 3.7", "compute capability 5.0",
# not a minimum the program states: "minimum required compute capability 3.5", iperov/DeepFaceLab#264);
# else the first GPU name of knowledge/gpus.yaml found (its table: NVIDIA's CUDA GPUs page). Threads: NVIDIA/nccl-tests#79
# (8x Tesla K80), LostRuins/koboldcpp#1409 (K80), googlecolab/colabtools#2377 (K80 under CUDA 11.1's nvcc),
# smallcorgi/Faster-RCNN_TF#330 (TF's "name: Tesla K80 major: 3 minor: 7"), ggml-org/ggml#465 (GeForce 940MX, 5.0).
_CC_SEEN = (("capability", "major:", "computecapability", "compute_cap"),
            _Lazy(r"cuda capability (?P<a>\d{1,2})\.(?P<b>\d)\b|CUDA capability sm_(?P<c>\d{2,3})\b|"
                  r"\bmajor: (?P<d>\d{1,2}) minor: (?P<e>\d)\b|computeCapability: (?P<f>\d{1,2})\.(?P<g>\d)\b|"
                  r"Capability Major/Minor version number:\s+(?P<h>\d{1,2})\.(?P<i>\d)\b|"
                  r"(?<!required )(?<!requires )(?<!minimum )(?<!least )(?<!needs )(?<!need )"
                  r"compute capability(?: is| of|:)?\s*(?P<j>\d{1,2})\.(?P<k>\d)\b", _I))


def _last_lines(low: str, needle: str, n: int) -> int:
    """Where the line of the ``n``-th last occurrence of ``needle`` starts (0 when there are fewer)."""
    k = len(low)
    for _ in range(n):
        k = low.rfind(needle, 0, k)
        if k < 0:
            return 0
    return low.rfind("\n", 0, k) + 1


# Few needles (each is one scan of the log's joined words): the vendor words and the data-center names printed bare;
# others (a bare "M40", "H200") are read where "NVIDIA"/"Tesla" names them.
_GPU_NEEDLES = ("nvidia", "tesla", "geforce", "quadro", "rtx", "gtx", "titan", "jetson", "k80", "a100", "h100", "v100",
                "p100", "grid k")


class _GpuTable(_Lazy):
    """The alternation of knowledge/gpus.yaml's names, read and compiled when first searched (only when a log holds
    one of _GPU_NEEDLES); ``ccs`` holds the compute capability of each name's group."""

    __slots__ = ("ccs",)

    def __init__(self) -> None:
        super().__init__("", _I)
        self.ccs: list[str] = []

    def search(self, text: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match | None:
        if self.rx is None:
            import os

            from ...infra.kept import load_yaml

            # kept as marshal beside the knowledge base, like components.yaml: a warm run imports no YAML
            rows = load_yaml(os.path.join(os.path.dirname(os.path.dirname(__file__)), "gpus.yaml"),
                              "gpus")["gpus"]
            parts = []
            for row in rows:
                for name in row["names"]:
                    parts.append(f"({name.replace(' ', '[ _-]?')})")
                    self.ccs.append(str(row["cc"]))
            # One word-start test before the alternation, not one per name: a position inside a word fails at once
            # instead of trying every name (half the cost of a log repeating an "NVIDIA ..." line 10 000 times; _Finder's
            # repeated-line rule takes the rest: 2.6 s before, 0.4 s with both).
            self.rx = re.compile("(?<!\\w)(?:" + "|".join(parts) + ")(?!\\w)", _I)
        return self.rx.search(text, pos, endpos)


_GPU_TABLE = _GpuTable()


def gpus_named(text: str) -> list[tuple[str, str]]:
    """Every GPU of knowledge/gpus.yaml the text names, (name, compute capability), in the text's order (``gpu_name``
    is the first; a log can name two: the card that works and the one that fails, darknet#2836)."""
    low = text.lower()
    if not any(n in low for n in _GPU_NEEDLES):
        return []
    _GPU_TABLE.search("")  # compiles the table's pattern
    rx = _GPU_TABLE.rx
    assert rx is not None
    out = []
    for m in rx.finditer(text):
        k = next(i for i, g in enumerate(m.groups()) if g is not None)
        out.append((m.group(k + 1), _GPU_TABLE.ccs[k]))
    return out


def _gpu(f: "_Finder") -> tuple[str, str]:
    """(gpu_name, gpu_cc): see _CC_SEEN."""
    name = cc = ""
    m = f.search(_GPU_NEEDLES, _GPU_TABLE)
    if m is not None:
        k = next(i for i, g in enumerate(m.groups()) if g is not None)
        name, cc = m.group(k + 1), _GPU_TABLE.ccs[k]
    m = f.search(*_CC_SEEN)
    if m is not None:
        g = m.groupdict()
        if g["c"]:
            cc = f"{g['c'][:-1]}.{g['c'][-1]}"
        else:
            pair = next((g[a], g[b]) for a, b in ("ab", "de", "fg", "hi", "jk") if g[a])
            cc = f"{int(pair[0])}.{pair[1]}"
    return name, cc


def _driver(f: "_Finder") -> tuple[str, str]:
    """(driver_seen, driver_seen_cuda): see _DRIVER_SEEN."""
    m = f.search(*_DRIVER_SEEN)
    if m is None:
        return "", ""
    driver = m.group("v") or m.group("k") or m.group("u")
    smi = f.search(*_SMI_CUDA_SEEN)
    if smi is not None:
        return driver, smi.group(1)
    from ...toolkit.compat import driver_max_cuda

    return driver, driver_max_cuda(driver) or ""


def _driver_and_gpu(f: "_Finder") -> dict[str, str]:
    """The [r15 facts] facts of a log: driver_seen, driver_seen_cuda, gpu_name, gpu_cc (each "" when not shown)."""
    driver, driver_cuda = _driver(f)
    name, cc = _gpu(f)
    return {"driver_seen": driver, "driver_seen_cuda": driver_cuda, "gpu_name": name, "gpu_cc": cc}


# -- [r15 platforms] Two platforms whose fix is their own, read beside `platform` (which stays the OS family):
# `jetson`: an NVIDIA Jetson (L4T / JetPack): the driver, CUDA and cuDNN come with JetPack, so no driver or toolkit
# from CUDA's x86/SBSA repositories and no upstream aarch64 wheel is the fix; NVIDIA's Jetson wheels or a
# jetson-containers image for this L4T release are. Its traces: the kernel (5.10.120-tegra), /etc/nv_tegra_release,
# L4T_VERSION / JETPACK_VERSION (jetson-containers' environment, dusty-nv/jetson-containers#1008), the nvidia-l4t-*
# packages, /usr/lib/aarch64-linux-gnu/tegra, dustynv/ images, torch's collect_env "GPU 0: Orin (nvgpu)"
# (dusty-nv/jetson-containers#1495), the boards' names (InternLM/lmdeploy#759, pytorch/pytorch#130524).
# `nix`: a program or build from Nix (/nix/store paths, nix-shell / nix develop, NixOS, nixpkgs, flakes,
# /run/opengl-driver where NixOS puts the driver's libraries): apt-get and /usr/local/cuda are not the fix there;
# cudaPackages, the driver in /run/opengl-driver/lib (NixOS) or nixGL / LD_LIBRARY_PATH (Nix on another distribution)
# are (NixOS/nixpkgs#77834, #127329, #342385, nix-community/nix-user-chroot#31).
# [sw27 sw27-cont] DeepStream's Jetson build: its GStreamer plugins under /usr/lib/aarch64-linux-gnu/gstreamer-1.0/
# deepstream (the deepstream-l4t images; Azure-Samples/NVIDIA-Deepstream-Azure-IoT-Edge-on-a-NVIDIA-Jetson-Nano#7,
# where that path was the log's only trace of the Jetson).
_JETSON = (("jetson", "tegra", "l4t", "jetpack", "orin", "xavier", "dustynv/", "nvgpu", "gstreamer-1.0/deepstream"),
           _Lazy(r"[Jj]etson|JETSON|\b[Tt]egra\b|-tegra\b|nv_tegra_release|\b[Ll]4[Tt]\b|L4T_VERSION|nvidia-l4t|"
                 r"[Jj]et[Pp]ack|JETPACK|\bOrin\b|\bXavier (?:NX|AGX)\b|\bAGX Xavier\b|dustynv/|\(nvgpu\)|"
                 r"aarch64-linux-gnu/gstreamer-1\.0/deepstream"))
_NIX = (("/nix/store/", "nix-shell", "nix-build", "nix develop", "nix build", "nix run", "nix shell", "nixos",
         "/run/opengl-driver", "nixpkgs", "flake.nix"),
        _Lazy(r"/nix/store/|\bnix-(?:shell|build)\b|\bnix (?:develop|build|run|shell)\b|\bNixOS\b|"
              r"/run/opengl-driver\b|\bnixpkgs\b|\bflake\.nix\b", _I))


def _platform_more(f: "_Finder") -> dict[str, str]:
    """[r15 platforms] ``{"jetson": "yes"|"", "nix": "yes"|""}``: the log ran on a Jetson, or under Nix."""
    return {"jetson": "yes" if f.search(*_JETSON) else "", "nix": "yes" if f.search(*_NIX) else ""}


# -- [r16 evidence] the log's evidence decides which alternative comes first.
#
# `smi`: what nvidia-smi said where the log ran it, the check many fixes start from ("`nvidia-smi` tells which case: if it
# fails ...; if it works ..."). "works": its table header (`| NVIDIA-SMI 550.163.01   Driver Version: 550.163.01   CUDA
# Version: 12.4 |`, also pasted inline), `nvidia-smi -L`'s `GPU 0: ... (UUID: GPU-...)`, or the user's words "nvidia-smi
# works / is normal / shows everything is fine". "fails": "NVIDIA-SMI has failed because it couldn't communicate with the
# NVIDIA driver", "nvidia-smi: command not found", "NVIDIA-SMI couldn't find libnvidia-ml.so", "Failed to initialize NVML",
# "No devices were found". A log showing both (one run failed, another worked: a container and its host, before and after a
# fix) decides nothing: "". Threads: NVIDIA/nvidia-docker#1711 and NVIDIA/nvidia-container-toolkit#154 (Docker Desktop,
# the table beside nvidia-container-cli's "load library failed"), NVIDIA/nvidia-container-toolkit#1092 ("nvidia-smi shows
# everything is fine with the driver"), canonical/docker-snap#148 (docker from snap: "In my host, nvida-smi is normal"),
# NVIDIA/cutlass#1636 (the table beside "CUDA driver is a stub library"), NixOS/nixpkgs#320145 ("nvidia-smi output looks ok").
_SMI_WORKS = (("nvidia-smi", "nvida-smi", "uuid: gpu-"),
              _Lazy(r"NVIDIA-SMI \d{3}\.\d+(?:\.\d+)?\s+Driver Version:\s*\d{3}\.|"
                    r"^\s*GPU \d+: [^\n]{3,80}\(UUID: GPU-|"
                    r"(?i:(?<!if )(?<!sure )(?<!that )(?<!whether )(?<!until )\bnvidi?a-smi`?\s+(?:(?:on the host |on host |itself |still )?(?:works?|is (?:normal|fine|working|ok)|"
                    r"runs? fine|shows everything is fine|output looks (?:ok|fine|good|normal)|(?:correctly |properly )?(?:lists|shows|sees) (?:the|my|all|both) (?:gpu|card))))", re.M))
_SMI_FAILS = (("nvidia-smi has failed", "nvidia-smi: command not found", "nvidia-smi couldn't find", "failed to initialize nvml",
               "no devices were found", "nvidia-smi: not found"),
              _Lazy(r"NVIDIA-SMI has failed because|nvidia-smi: (?:command )?not found|NVIDIA-SMI couldn't find libnvidia-ml|"
                    r"Failed to initialize NVML|^\s*No devices were found", re.M | _I))


def _smi(f: "_Finder") -> str:
    """[r16 evidence] "works", "fails" or "" (neither shown, or both): see _SMI_WORKS."""
    works = f.search(*_SMI_WORKS) is not None
    fails = f.search(*_SMI_FAILS) is not None
    return "works" if works and not fails else "fails" if fails and not works else ""


# `cuda_seen` is a toolkit's CUDA: nvidia-smi's header "Driver Version: 535.104.05   CUDA Version: 12.2" names the newest
# CUDA the *driver* runs (driver_seen_cuda reads it), not a toolkit, and a fix that pastes `cudaenv use 12.2` or decides a
# toolkit's side from it contradicts the log (NVIDIA/cutlass#1636: that header beside nvcc's "release 12.4";
# pytorch/pytorch#45028: "CUDA Version: 11.0" of a 450 driver). Such a match is skipped for the next toolkit the log names.
_SMI_HEADER = re.compile(r"Driver Version|NVIDIA-SMI", re.I)


def _cuda_seen(f: "_Finder") -> str:
    """The first CUDA version the log names for a toolkit (_TOOLKIT_PATH), not nvidia-smi's driver CUDA."""
    start = 0
    for _ in range(8):
        m = f.search(_TOOLKIT_NEEDLES, _TOOLKIT_PATH, start)
        if m is None:
            return ""
        if m.group(4) is None:
            return next(g for g in m.groups() if g)
        a = f.text.rfind("\n", 0, m.start()) + 1
        if not _SMI_HEADER.search(f.text, a, m.start()):
            return m.group(4)
        start = m.end()
    return ""


# `cuda_said`: the CUDA version the reporter states in prose ("my cuda version is 10.1", "CUDA version is 10.0"). It decides
# which side of a toolkit feature's first or last release the build's toolkit is (derive.py _cuda_shown: CUB from 11.0,
# nvcc's -std, libnppicom) where no tool printed the toolkit; it is not pasted into `cudaenv use` (the reporter may name
# the CUDA a driver runs: fresh7 b51's "the cuda version is 12.1" under a 525 driver). ingowald/cudaKDTree#11 and
# sleeepyjack/warpcore#1: CUB missing under CUDA 10.1 / 10.0, fixed by CUDA 11 (or NVIDIA/cub).
_CUDA_SAID = (("cuda version is", "cuda toolkit version is"),
              _Lazy(r"(?i:\bcuda(?: toolkit)? version is:? v?)(\d{1,2}\.\d)\b"))


# -- [r16 ide] `launcher`: the program was started by an IDE, a notebook kernel or a terminal multiplexer, which do not
# read the shell's start-up files or its exports: PyCharm (its run configurations, its console, `helpers/pydev`),
# VS Code (`debugpy`, `.vscode`, launch.json), Jupyter / nteract kernels (started from kernel.json; `ipykernel_launcher`),
# Spyder, a tmux server started before the exports (it hands its own environment to new windows), another IDE (Qt
# Creator, Eclipse, CLion). What the user's words name is enough ("when I run it in PyCharm"). Threads: tensorflow/
# tensorflow#9530 and #1675, kkhoot/PAA#22, cudamat/cudamat#58, mlc-ai/mlc-llm#2888 (PyCharm); jupyter/notebook#1290 and
# #4621, jupyterhub/the-littlest-jupyterhub#208, facebookarchive/iTorch#160, nteract/archived-desktop-app#2054 (a
# notebook kernel); nerfstudio-project/nerfacc#208 (PyCharm's PATH without nvcc); JuliaGPU/CUDAnative.jl#469 (tmux).
_LAUNCHER = [
    ("pycharm", ("pycharm", "pydev"), _Lazy(r"(?i:\bpy ?charm|\bpydev)")),
    ("vscode", ("vscode", "vs code", "visual studio code", "debugpy", "launch.json"),
     _Lazy(r"(?i:\bvs ?code\b|visual studio code|\bdebugpy\b|\.vscode\b|\blaunch\.json\b)")),
    ("jupyter", ("jupyter", "nteract", "ipykernel", "kernel.json", "notebook"),
     _Lazy(r"(?i:\bjupyter|\bnteract\b|\bipykernel|\bkernel\.json\b|\b(?:in|on|from|inside) (?:a |the |my )?(?:[\w-]+ )?notebook\b)")),
    ("spyder", ("spyder",), _Lazy(r"(?i:\bspyder\b)")),
    ("tmux", ("tmux",), _Lazy(r"(?i:\btmux\b)")),
    ("ide", ("the ide", "an ide", "a ide", "my ide", "from ide", "in ide", "qt creator", "qtcreator", "eclipse", "clion"),
     _Lazy(r"\b(?:the|an?|my|from|in) IDE\b|(?i:\bqt ?creator\b|\beclipse\b|\bclion\b)")),
]


# -- [r21 obuild] `ci`: the log ran on a CI runner or build agent, and which (github-actions, azure, gitlab, jenkins,
# travis, circleci, buildkite). Who fixes what there differs from a workstation: the runner image decides the compiler,
# the disk and the GPU (a GitHub-hosted runner has none), the workflow pins the CUDA its artifacts are built for, so the
# first fix is the image, the job's own steps or a runner with room, not a package installed by hand. Read once, used
# by several entries and by situations.yaml's `ci-runner`: msvc.unsupported_version (abetlen/llama-cpp-python#1543,
# fresh20 t04: keep the CUDA, pin the runner image or MSVC toolset), python.pip_install_no_space and
# toolkit.runfile_tmp_full (matteospanio/torchfx#74 fixed by PR #76, shap/shap#3330: free the runner's disk).
# What shows it: GitHub Actions' runneradmin user, its work and tool-cache directories, its `##[error]` annotations,
# a workflow file or run URL, its image labels; Azure's `##vso[` and vsts paths; gitlab-runner's banner; Jenkins'
# workspace; cibuildwheel (which runs as a CI step). A runner path inside a prebuilt binary's own message is where that
# binary was built, not where the log ran (fresh9 d35: vllm's wheel reports a CUDA error under the runner's work tree).
# The directories below (GitHub's and Azure's hosted runners' work trees) are where those services run every job: facts
# about logs from those machines, never a path of the machine cudaenv runs on.
_CI = [
    ("github-actions",
     ("runneradmin", "/home/runner/", "\\a\\_temp", "##[", ".github/workflows", ".github\\workflows", "github actions",
      "github-hosted", "/actions/runs/", "runs-on:", "windows-latest", "windows-20", "ubuntu-latest", "macos-latest",
      "hostedtoolcache", "cibuildwheel", "workflow", "process completed with exit code", "gha", "github_actions"),
     _Lazy(r"\brunneradmin\b|(?<!error )(?<!at )(?<!in )/home/runner/(?:work|runners)/|\\a\\_temp\b|^##\[(?:error|warning|group)\]|##\[error\]|"
           r"\.github[/\\]workflows\b|\bGitHub Actions\b|\bGitHub-hosted\b|github\.com/[\w.-]+/[\w.-]+/actions/runs/|"
           r"\bruns-on:|\b(?:windows|ubuntu|macos)-latest\b|\bwindows-20\d\d\b|\bhostedtoolcache\b|\bcibuildwheel\b|"
           r"\b[Ww]orkflow (?:run|job|file)s?\b|^Error: Process completed with exit code \d+|\bGHA\b|\bGITHUB_ACTIONS\b", re.M)),
    ("azure", ("##vso[", "/home/vsts/", "azure pipelines", "azure devops"),
     _Lazy(r"##vso\[|/home/vsts/work/|\bAzure (?:Pipelines|DevOps)\b")),
    ("gitlab", ("gitlab-runner", "gitlab-ci", "gitlab ci"), _Lazy(r"(?i:\bgitlab-runner\b|\.gitlab-ci\.yml\b|\bgitlab ci\b)")),
    ("jenkins", ("jenkins",), _Lazy(r"/(?:home/)?jenkins/(?:workspace/)?|\bJenkinsfile\b|\bJenkins (?:job|build|agent)\b")),
    ("travis", ("travis",), _Lazy(r"/home/travis/build/|\btravis-ci\b|\.travis\.yml\b")),
    ("circleci", ("circleci",), _Lazy(r"(?i:\bcircleci\b)")),
    ("buildkite", ("buildkite",), _Lazy(r"(?i:\bbuildkite-agent\b|/buildkite/builds/)")),
]

# -- [r21 obuild] `build_isolated`: pip built the package in its isolated environment (PEP 517 build isolation), whose
# torch is the one pip downloaded for the build (a traceback frame under /tmp/pip-build-env-*/overlay, Windows'
# ...\Temp\pip-build-env-*\overlay): not the torch installed in the user's environment. On Windows that torch is PyPI's
# CPU build, so torch reports no CUDA_HOME whatever CUDA_HOME says (facebookresearch/sam2#19 and #137, fixed by
# `pip install --no-build-isolation -e .`); elsewhere it is the newest release, of whichever CUDA.
_BUILD_ISOLATED = (("pip-build-env-",), _Lazy(r"pip-build-env-\w+[/\\]overlay"))

# [r21 lead] GitHub's runner ends a failed step with "Error: Process completed with exit code N."; "GHA" is how people
# write GitHub Actions. A hosted runner has no GPU and no NVIDIA driver (situations.yaml `ci-hosted`: SyneRBI/SIRF#1278,
# mesonbuild/meson#13269, qiboteam/qibotn#14, pathpy/pathpyG#29); a self-hosted one has what its owner gave it, so
# "self-hosted" in the log makes the fact `self-hosted` (allenai/allennlp#4310: CUDA gone on the self-hosted runner).
# A GPU runner (PyTorch's `linux.g5.4xlarge.nvidia.gpu` labels, "GPU runners", `runs-on: [..., gpu]`) is the same
# case: a broken driver there is the runner's (pytorch/pytorch#87890, #79852: their GPU runners losing the GPU).
_SELF_HOSTED = (("self-hosted", "self hosted", "nvidia.gpu", "gpu runner", "gpu-runner", "linux.g", "runs-on:"),
                _Lazy(r"(?i:\bself[- ]hosted\b|\.nvidia\.gpu\b|\bgpu[- ]runners?\b|\blinux\.g\d+\w*\.|\bruns-on:[^\n]*\bgpu\b)"))


def _ci(f: "_Finder") -> str:
    """The CI service whose runner ran the log (``github-actions``, ``azure``, ``gitlab``, ``jenkins``, ``travis``,
    ``circleci``, ``buildkite``), ``self-hosted`` when the log says the runner is its owner's or has a GPU, "" when no
    runner's marks show."""
    name = next((name for name, needles, rx in _CI if f.search(needles, rx)), "")
    return "self-hosted" if name and f.search(*_SELF_HOSTED) else name

# -- [r21 oforum] `hosted`: the log ran in a hosted notebook or studio (Google Colab, Kaggle, Baidu AI Studio, SageMaker,
# Lightning Studios, Databricks, Paperspace), whose driver, system CUDA and system libraries are the host's: what the user
# changes there is the notebook's own packages (the framework build for the driver's CUDA, a newer wheel), or the runtime
# type; a `.run` installer, a new driver or an `export LD_LIBRARY_PATH=...` in a cell (which never reaches the running
# kernel's loader) are not the way out. Read once here, used by the variants of runtime.insufficient_driver (PaddlePaddle
# on AI Studio: PaddlePaddle/Paddle#30933, PaddleX#1211), torch.no_driver, runtime.no_device and
# python.torch_cuda_unavailable (a CPU runtime: googlecolab/colabtools#4425, #4876), loader.cudnn9_sublib_older
# (googlecolab/colabtools#5079, TuragaLab/flyvis#8: upgrade the notebook's torch / nvidia-cudnn-cu12). The words are the
# ones those variants matched as text before: "AI Studio", /home/aistudio, "Google Colab", "Colab", /content/,
# /kaggle/working, "Kaggle notebook", "SageMaker", /teamspace/studios/, /databricks/driver, "Paperspace".
_HOSTED = [
    ("aistudio", ("ai studio", "aistudio"), _Lazy(r"(?i:\bai ?studio\b|/home/aistudio\b)")),
    ("colab", ("colab", "collab", "/content/"), _Lazy(r"(?i:\bgoogle[ -]?col+ab\b|\bcol+ab\b|(?<![\w.-])/content/)")),
    ("kaggle", ("/kaggle/", "kaggle notebook", "kaggle kernel"),
     _Lazy(r"(?i:/kaggle/(?:working|input)\b|\bkaggle (?:notebook|kernel))")),
    ("sagemaker", ("sagemaker",), _Lazy(r"(?i:\bsagemaker\b)")),
    ("lightning", ("/teamspace/studios/",), _Lazy(r"/teamspace/studios/")),
    ("databricks", ("/databricks/driver",), _Lazy(r"/databricks/driver\b")),
    ("paperspace", ("paperspace",), _Lazy(r"(?i:\bpaperspace\b)")),
]

# -- [r21 oforum] `rebooted`: the log says the machine was rebooted and the error is there after it ("Xorg will die on a
# reboot", "dropped to console upon reboot", "still ... after reboot", "even after a reboot", "a reboot did not help"):
# a fix that says "reboot" is then done already, and what the reboot brought back (the module the initramfs loads at boot,
# a module DKMS did not rebuild) decides. Not "after a reboot it works" (a reboot that solved it). Threads: funloop.org's
# Arch note (NVRM API mismatch "on a reboot": mkinitcpio -p linux), openSUSE/sdbootutil#22 ("upon reboot. Dmesg will show
# NVRM: Api mismatch": dracut --regenerate-all --force), openSUSE/nvidia-driver-G06#25 (old modules left in the initrd),
# and driver.version_mismatch's own "a reboot did not help" words (illinois-scicomp/machine-shop-maintenance#70).
_REBOOTED = (("reboot",),
             _Lazy(r"(?i:\breboot\w*[^\n]{0,60}(?:did not|didn.t|does not|doesn.t|won.t|wouldn.t)\s+(?:help|fix|work|solve)|"
                   r"\b(?:still|same error|persists?|again)[^\n]{0,40}\bafter[^\n]{0,20}\breboot|"
                   r"\bafter (?:a |the )?reboot\w*[^\n]{0,40}\b(?:still|same error|again)\b|"
                   r"\beven after (?:a |the |several |multiple |many )?reboot|"
                   r"\b(?:on|upon) (?:a |the |every |each )?reboot\b)"))
# "on a reboot" broken over two lines by a page ("Xorg will die on a\nreboot"): the words before each "reboot" (at most 64
# of them), looked at through str.find, not a pass of a regular expression over the text.
_REBOOT_BEFORE = re.compile(r"\b(?:on|upon)\s+(?:(?:a|the|every|each)\s+)?$")


def _rebooted(f: "_Finder") -> str:
    """[r21 oforum] "yes" when the log says the error is there after a reboot (see _REBOOTED)."""
    if f.search(*_REBOOTED):
        return "yes"
    low = f.low if f.low is not None else f.text.lower()
    k, n = low.find("reboot"), 0
    while k >= 0 and n < 64:
        if _REBOOT_BEFORE.search(low, max(0, k - 40), k):
            return "yes"
        k, n = low.find("reboot", k + 6), n + 1
    return ""

# -- [r21 oday] `conda_made`: conda (mamba, micromamba) made the environment or installed its packages: the user's
# `conda create` / `conda install` / `conda env create` (their mamba and micromamba forms), "using conda to install",
# the interpreter's banner "packaged by conda-forge". Who fixes a package there is conda's solver, not pip: a torch that
# conda chose as a CPU build is replaced by asking conda for the CUDA build (openclimatefix-archives/satflow#18:
# `conda install pytorch::pytorch`; vocalpy/vak#470: the environment created with `-c pytorch`), where `pip install
# --force-reinstall torch` would mix a pip torch into the conda environment. The `conda` fact above reads where an
# environment lives (an envs/ path); this one reads what made it, which a pasted session shows without any path.
# [r21 review] conda's commands are read once, by `conda_install` below: conda made the environment when it installed
# anything in the log, or when the user or the interpreter's banner says so.
_CONDA_MADE_WORDS = (("conda to install", "packaged by conda-forge"),
                     _Lazy(r"(?i:\busing (?:ana|mini)?conda to install\b|\bpackaged by conda-forge\b)"))

# -- [r21 ofw] `conda_install`: conda (or mamba) installed the packages this log is about: its own command (`conda
# create -n x jax jaxlib`, `conda install ...`, `mamba install`, `conda env create`) or its solver's plan, whose lines
# name channel/subdir::package-version-build ("jaxlib  conda-forge/linux-64::jaxlib-0.4.4-cpu_py311h7146453_1"). A
# package conda installed is replaced by conda, with conda's own build selectors (conda-forge's jaxlib has CPU and CUDA
# builds of one version: `jaxlib=*=*cuda*`), not by pip over it: jax-ml/jax#14606 (the solver took the CPU build;
# `conda install jaxlib=*=*cuda* jax cuda-nvcc -c conda-forge -c nvidia` fixed it), conda-forge/jaxlib-feedstock#285 (a
# CUDA build that found no GPU, fixed in the feedstock by PR #288). A conda Python (`packaged by conda-forge`) with
# packages from pip is not this fact.
# The fact holds the names of the packages conda was told to install or planned ("jax jaxlib", "pytorch torchvision
# cudatoolkit"), so an entry keys on its own framework, not on a conda-installed cudatoolkit beside pip's torch.
_CONDA_INSTALL = (("conda create", "conda install", "mamba install", "mamba create", "conda env create", "mamba env create",
                   "::"),
                  _Lazy(r"\b(?:conda|mamba|micromamba)\s+(?:create|install|env\s+create)\b([^\n`]*)|"
                        r"\b[\w.-]+/(?:linux|osx|win|noarch)(?:-\w+)?::([A-Za-z][\w.-]*?)-\d"))
_CONDA_OPT_ARG = frozenset({"-c", "--channel", "-n", "--name", "-p", "--prefix", "--file", "-f"})


def _conda_installs(f: "_Finder") -> str:
    """The packages conda (or mamba) was told to install or planned to, space-separated in the order named, "" when
    the log shows no conda install; "conda" when it shows one without names (`conda env create -f env.yml`)."""
    names: list[str] = []
    pos, seen = 0, False
    for _ in range(16):
        m = f.search(*_CONDA_INSTALL, start=pos)
        if m is None:
            break
        seen, pos = True, m.end() + 1
        if m.group(2):
            got = [m.group(2)]
        else:
            got, skip = [], False
            for w in (m.group(1) or "").split():
                if skip or w in _CONDA_OPT_ARG:
                    skip = not skip and w in _CONDA_OPT_ARG
                    continue
                if w.startswith("-") or w.startswith(("#", "&", "|", ";")):
                    if w[0] in "#&|;":
                        break
                    continue
                name = re.split(r"[=<>!~\[]", w.strip("'\""))[0].lower()
                if re.fullmatch(r"[a-z][\w.-]*", name):
                    got.append(name)
        for n in got:
            if n.lower() not in names:
                names.append(n.lower())
    return " ".join(names) if names else ("conda" if seen else "")
