"""Profile files: validation, YAML reading and writing (never on the ``use`` path)."""

from __future__ import annotations

import os

from ..env.ops import valid_name
from ..errors import CudaenvError
from ..toolkit.addons import KINDS as ADDON_KINDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .types import AddonRef, BuildValue, Profile

__all__ = ["KEYS", "BUILD_KEYS", "STUBS_POLICIES", "valid_profile_name", "validate", "load_file", "dump"]

KEYS = ("name", "description", "root", "version", "stubs", "loader_path", "host_compiler", "build", "addons", "set",
        "prepend", "append")
#: The ``build`` section's keys (profiles/build.py says what each exports).
BUILD_KEYS = ("arch_list", "max_jobs", "nvcc_threads")
_ARCH_CHARS = frozenset("0123456789.;, +PTXabf")
STUBS_POLICIES = ("auto", "always", "never", "driverless")
LOADER_POLICIES = ("auto", "always", "never")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-")


def valid_profile_name(name: object) -> bool:
    """Names are short, shell-safe words: letters, digits, ``._+-``."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 100
        and name[0] != "-"
        and all(c in _NAME_CHARS for c in name)
    )


class _Invalid(Exception):
    """One problem of a profile's data; :func:`validate` names the source."""


def validate(data: object, source: str) -> Profile:
    """Check a profile's data and return it normalised.

    The steps below run in this order and the first problem found is reported.

    Raises:
        CudaenvError: naming ``source`` and the first problem found.
    """
    try:
        return _validated(data)
    except _Invalid as exc:
        raise CudaenvError(f"invalid profile {source}: {exc}", exit_code=2) from None


def _validated(data: object) -> Profile:
    if not isinstance(data, dict):
        raise _Invalid("expected a mapping of keys (name, root, set, prepend, ...)")
    for k in data:
        if k not in KEYS:
            raise _Invalid(f"unknown key {k!r} (known: {', '.join(KEYS)})")
    name = _name(data.get("name"))
    root = _root(data.get("root"))
    version = _version(data.get("version"))
    stubs = _policy("stubs", data.get("stubs", "auto"))
    loader_path = _policy("loader_path", data.get("loader_path", "auto"))
    hc = _host_compiler(data.get("host_compiler"))
    build = _build(data.get("build", {}))
    desc = data.get("description")
    if desc is not None and not isinstance(desc, str):
        raise _Invalid("'description' must be a string")
    out: Profile = {
        "name": name,
        "description": desc,
        "root": root,
        "version": version,
        "stubs": stubs,
        "loader_path": loader_path,
        "host_compiler": hc,
        "build": build,
        "set": {},
        "prepend": {},
        "append": {},
    }
    addons = _addons(data.get("addons"))
    if addons:
        out["addons"] = addons
    for key in ("set", "prepend", "append"):
        _section(key, data.get(key) or {}, out)
    for var in out["set"]:
        if var in out["prepend"] or var in out["append"]:
            raise _Invalid(f"{var} is both set and extended; choose one")
    return out


def _name(name: object) -> str:
    if not isinstance(name, str) or not valid_profile_name(name):
        raise _Invalid(f"'name' must be a word of letters, digits and ._+- (got {name!r})")
    return name


def _root(root: object) -> str:
    if not isinstance(root, str) or not os.path.isabs(root):
        raise _Invalid(f"'root' must be an absolute path (got {root!r})")
    if any(c in root for c in ":\n\r\0"):
        # The same rule as a path typed on the command line: no path list can hold it.
        raise _Invalid(f"'root' cannot hold ':', a newline or NUL, which PATH-like lists cannot express (got {root!r})")
    return root


def _version(version: object) -> str | None:
    if version is not None and not isinstance(version, (str, int, float)):
        raise _Invalid("'version' must be a string")
    return None if version is None else str(version)


def _policy(key: str, value: object) -> str:
    """``stubs`` (auto | always | never | driverless) and ``loader_path`` (auto | always | never)."""
    known = STUBS_POLICIES if key == "stubs" else LOADER_POLICIES
    if not isinstance(value, str) or value not in known:
        raise _Invalid(f"'{key}' must be one of {', '.join(known)} (got {value!r})")
    return value


def _host_compiler(hc: object) -> str | None:
    if hc is not None and not (isinstance(hc, str) and (hc in ("auto", "none") or os.path.isabs(hc))):
        raise _Invalid(f"'host_compiler' must be auto, none or an absolute path (got {hc!r})")
    return hc


def _build(build: object) -> dict[str, BuildValue]:
    """The ``build`` section: ``none`` (every setting none) or a mapping of :data:`BUILD_KEYS`."""
    if build == "none":
        build = {k: "none" for k in BUILD_KEYS}
    if not isinstance(build, dict):
        raise _Invalid("'build' must be a mapping (arch_list, max_jobs, nvcc_threads) or none")
    for k, v in build.items():
        if k not in BUILD_KEYS:
            raise _Invalid(f"build: unknown key {k!r} (known: {', '.join(BUILD_KEYS)})")
        if v in ("auto", "none"):
            continue
        if k == "arch_list":
            if not isinstance(v, (str, int, float)) or isinstance(v, bool) or not str(v).strip() \
                    or not all(c in _ARCH_CHARS for c in str(v)):
                raise _Invalid(f"build.arch_list must be auto, none or a list like '8.0;8.6;9.0+PTX' (got {v!r})")
        elif not (isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 4096):
            raise _Invalid(f"build.{k} must be auto, none or a positive whole number (got {v!r})")
    return {k: (str(v) if k == "arch_list" and v not in ("auto", "none") else v) for k, v in build.items()}


def _addons(addons: object) -> list[AddonRef]:
    """The ``addons`` list: ``{name: cudnn|nccl, version, cuda: <major>, root: /abs/path}`` each, one per name."""
    if addons is None:
        return []
    if not isinstance(addons, list):
        raise _Invalid("'addons' must be a list of {name, version, cuda, root} mappings")
    out: list[AddonRef] = []
    for a in addons:
        if not isinstance(a, dict) or set(a) - {"name", "version", "cuda", "root"}:
            raise _Invalid(f"addons: each entry is a mapping of name, version, cuda and root (got {a!r})")
        name, version, cuda, root = a.get("name"), a.get("version"), a.get("cuda"), a.get("root")
        if name not in ADDON_KINDS:
            raise _Invalid(f"addons: unknown add-on {name!r} (known: {', '.join(ADDON_KINDS)})")
        if any(o["name"] == name for o in out):
            raise _Invalid(f"addons: {name} is listed twice")
        if not isinstance(version, (str, int, float)) or isinstance(version, bool) or not str(version).strip():
            raise _Invalid(f"addons: {name} needs a version (got {version!r})")
        if not (isinstance(cuda, (str, int)) and not isinstance(cuda, bool) and str(cuda).isdigit()):
            raise _Invalid(f"addons: {name}.cuda must be the CUDA major it is built for (got {cuda!r})")
        if not isinstance(root, str) or not os.path.isabs(root) or any(c in root for c in ":\n\r\0"):
            raise _Invalid(f"addons: {name}.root must be an absolute path without ':' or a newline (got {root!r})")
        out.append({"name": name, "version": str(version), "cuda": str(cuda), "root": root})
    return out


def _section(key: str, section: object, out: Profile) -> None:
    """``set`` (NAME: value) or ``prepend``/``append`` (NAME: [entries]) into ``out``."""
    if not isinstance(section, dict):
        raise _Invalid(f"'{key}' must be a mapping of variable names")
    for var, val in section.items():
        if not isinstance(var, str) or not valid_name(var) or var in ("CUDAENV_ACTIVE", "_CUDAENV_STATE"):
            raise _Invalid(f"'{key}' names an invalid variable {var!r}")
        if key == "set":
            if not isinstance(val, (str, int, float)) or isinstance(val, bool):
                raise _Invalid(f"set.{var} must be a string")
            out["set"][var] = str(val)
        else:
            if isinstance(val, str):
                val = [val]
            if not isinstance(val, list) or not all(isinstance(e, str) and e for e in val):
                raise _Invalid(f"{key}.{var} must be a list of non-empty strings")
            out["prepend" if key == "prepend" else "append"][var] = list(val)


def load_file(path: str) -> Profile:
    """Read and validate one profile file (parses YAML: not for the hot path)."""
    import yaml

    from ..infra.files import read_limited

    try:
        text = read_limited(path).decode("utf-8")
        data = yaml.safe_load(text)
    except OSError as exc:
        raise CudaenvError(f"cannot read profile {path}: {exc.strerror}", exit_code=2) from None
    except UnicodeDecodeError:
        raise CudaenvError(f"invalid profile {path}: not UTF-8 text", exit_code=2) from None
    except RecursionError:
        raise CudaenvError(f"invalid profile {path}: nested too deeply", exit_code=2) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc.__class__.__name__
        raise CudaenvError(f"invalid profile {path}: not valid YAML{where} ({problem})", exit_code=2) from None
    prof = validate(data, path)
    prof["file"] = path
    return prof


_HEADER = """\
# cudaenv profile (edit freely; `cudaenv profile build` will not overwrite it without --force).
# {root} in any value stands for `root`.
# stubs: auto | driverless | always | never -- the driver stub (lib64/stubs/libcuda.so). LIBRARY_PATH
#   (what `ld -lcuda` searches) gets the stubs directory either way, when the toolkit has one:
#   harmless on any host. auto and never: that only. driverless: also a runtime stub
#   (libcuda.so.1 -> the stub, last on LD_LIBRARY_PATH) on a host without an NVIDIA driver, for
#   build hosts that import what they link; always: that runtime stub on any host (with a driver,
#   CUDA calls then fail with error 34). Its directory is node-local (named by this boot's id,
#   under $XDG_RUNTIME_DIR or /tmp/cudaenv-<uid>): an environment copied to another node (Slurm's
#   --export=ALL, ssh) names nothing there. (Earlier cudaenv: auto meant driverless.)
# loader_path: auto | always | never -- the library directories the profile adds to LD_LIBRARY_PATH.
#   auto: a directory holding an older copy of a library the active Python environment's nvidia-*
#   wheels ship is replaced by a cache mirror without that library (so torch keeps its own);
#   always: as written; never: none of them.
# host_compiler: auto | none | /path/to/g++-N -- auto: when the default C++ compiler ($CXX, else g++)
#   is newer than the toolkit accepts, use the newest installed one it accepts (exported as
#   NVCC_PREPEND_FLAGS='-ccbin …' and CUDAHOSTCXX). A path pins one; none turns this off.
#   A -ccbin of your own in NVCC_PREPEND/APPEND_FLAGS (even one you put in place of ours) wins.
# build: arch_list / max_jobs / nvcc_threads, each auto | none | a value -- what use exports as
#   TORCH_CUDA_ARCH_LIST and CUDAARCHS (auto: this machine's GPUs, else a default list, that the
#   toolkit can build), MAX_JOBS and NVCC_THREADS (auto: from cores and memory). Values already in
#   your environment always win. `build: none` exports none of them.
# addons: cuDNN / NCCL unpacked by `cudaenv install X --with cudnn,nccl` (name, version, the CUDA
#   major it is built for, root): use puts their include/ on CPATH, lib/ on LIBRARY_PATH and (as
#   loader_path says) LD_LIBRARY_PATH, and sets what builds read (docs/addons.md).
"""


def dump(profile: Profile) -> str:
    """Profile as commented YAML."""
    import yaml

    data = {k: profile.get(k) for k in KEYS if profile.get(k) not in (None, []) or k in ("host_compiler",)}
    for k in ("set", "prepend", "append"):
        data[k] = profile.get(k) or {}
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)
    return _HEADER + body
