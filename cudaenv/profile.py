"""Profiles: what a toolkit needs of the environment, as editable YAML.

A profile is plain data. ``{root}`` in any value stands for the profile's
``root``, so moving a toolkit means editing one line. Generated profiles go
to ``$XDG_CONFIG_HOME/cudaenv/profiles/<name>.yaml``; users edit them or add
their own. Parsing happens only when a file changes (see ``index.py``).
"""

from __future__ import annotations

import os

from .env.ops import Ops, valid_name
from .errors import CudaenvError
from .toolkit.probe import SYSTEM_DIRS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .index import Index

__all__ = [
    "KEYS", "STUBS_POLICIES", "validate", "load_file", "load_all", "default_profile",
    "profile_ops", "dump", "write_atomic", "find_pin", "generated_name", "valid_profile_name",
]

KEYS = ("name", "description", "root", "version", "stubs", "host_compiler", "set", "prepend", "append")
STUBS_POLICIES = ("auto", "always", "never")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-")


def valid_profile_name(name: object) -> bool:
    """Names are short, shell-safe words: letters, digits, ``._+-``."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 100
        and name[0] != "-"
        and all(c in _NAME_CHARS for c in name)
    )


def generated_name(tk: dict) -> str:
    """The name ``profile build`` gives a toolkit's profile: ``cuda-<full version>``."""
    return f"cuda-{tk['full_version']}"


def validate(data: object, source: str) -> dict:
    """Check a profile's data and return it normalised.

    Raises:
        CudaenvError: naming ``source`` and the first problem found.
    """

    def bad(problem: str) -> CudaenvError:
        return CudaenvError(f"invalid profile {source}: {problem}", exit_code=2)

    if not isinstance(data, dict):
        raise bad("expected a mapping of keys (name, root, set, prepend, ...)")
    for k in data:
        if k not in KEYS:
            raise bad(f"unknown key {k!r} (known: {', '.join(KEYS)})")
    name = data.get("name")
    if not valid_profile_name(name):
        raise bad(f"'name' must be a word of letters, digits and ._+- (got {name!r})")
    root = data.get("root")
    if not isinstance(root, str) or not os.path.isabs(root):
        raise bad(f"'root' must be an absolute path (got {root!r})")
    version = data.get("version")
    if version is not None and not isinstance(version, (str, int, float)):
        raise bad("'version' must be a string")
    stubs = data.get("stubs", "auto")
    if stubs not in STUBS_POLICIES:
        raise bad(f"'stubs' must be one of {', '.join(STUBS_POLICIES)} (got {stubs!r})")
    hc = data.get("host_compiler")
    if hc is not None and not isinstance(hc, str):
        raise bad("'host_compiler' must be a string or null")
    desc = data.get("description")
    if desc is not None and not isinstance(desc, str):
        raise bad("'description' must be a string")
    out = {
        "name": name,
        "description": desc,
        "root": root,
        "version": None if version is None else str(version),
        "stubs": stubs,
        "host_compiler": hc,
        "set": {},
        "prepend": {},
        "append": {},
    }
    for key in ("set", "prepend", "append"):
        section = data.get(key) or {}
        if not isinstance(section, dict):
            raise bad(f"'{key}' must be a mapping of variable names")
        for var, val in section.items():
            if not isinstance(var, str) or not valid_name(var) or var in ("CUDAENV_ACTIVE", "_CUDAENV_STATE"):
                raise bad(f"'{key}' names an invalid variable {var!r}")
            if key == "set":
                if not isinstance(val, (str, int, float)) or isinstance(val, bool):
                    raise bad(f"set.{var} must be a string")
                out["set"][var] = str(val)
            else:
                if isinstance(val, str):
                    val = [val]
                if not isinstance(val, list) or not all(isinstance(e, str) and e for e in val):
                    raise bad(f"{key}.{var} must be a list of non-empty strings")
                out[key][var] = list(val)
    for var in out["set"]:
        if var in out["prepend"] or var in out["append"]:
            raise bad(f"{var} is both set and extended; choose one")
    return out


def load_file(path: str) -> dict:
    """Read and validate one profile file (parses YAML: not for the hot path)."""
    import yaml

    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as exc:
        raise CudaenvError(f"cannot read profile {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc.__class__.__name__
        raise CudaenvError(f"invalid profile {path}: not valid YAML{where} ({problem})", exit_code=2) from None
    prof = validate(data, path)
    prof["file"] = path
    return prof


def load_all(directory: str, index: Index) -> tuple[list[dict], list[tuple[str, str]]]:
    """Load every ``*.yaml``/``*.yml`` in ``directory`` through the cache.

    Returns:
        (profiles sorted by name, [(file, error message)] for invalid files).
    """
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return [], []
    profiles: list[dict] = []
    errors: list[tuple[str, str]] = []
    for n in names:
        if not (n.endswith(".yaml") or n.endswith(".yml")) or n.startswith("."):
            continue
        path = os.path.join(directory, n)
        try:
            st = os.stat(path)
        except OSError:
            continue
        sig = (st.st_mtime_ns, st.st_size, st.st_ino)

        def compute(path: str = path) -> tuple:
            try:
                return (load_file(path), None)
            except CudaenvError as exc:
                return (None, exc.message)

        prof, err = index.cached("files", path, sig, compute)
        if prof is None:
            errors.append((path, err))
        else:
            profiles.append(prof)
    profiles.sort(key=lambda p: p["name"])
    return profiles, errors


def _sub(value: str, root: str) -> str:
    return value.replace("{root}", root)


def default_profile(tk: dict) -> dict:
    """The profile a toolkit gets when the user has written none."""
    root = tk["root"]
    lib = "{root}/" + tk["libdir"]
    ld = [lib]
    if tk.get("cupti_dir"):
        ld.append("{root}/extras/CUPTI/lib64")
    link = [lib]
    if tk["components"].get("stubs"):
        link.append(lib + "/stubs")
    prepend = {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ld, "LIBRARY_PATH": link}
    # Debian's toolkit lives in /usr: never put system directories in front
    # of the user's own entries.
    for var in list(prepend):
        prepend[var] = [e for e in prepend[var] if _sub(e, root) not in SYSTEM_DIRS]
        if not prepend[var]:
            del prepend[var]
    return {
        "name": generated_name(tk),
        "description": None,
        "root": root,
        "version": tk["full_version"],
        "stubs": "auto",
        "host_compiler": None,
        "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}"},
        "prepend": prepend,
        "append": {},
        "file": None,
    }


def profile_ops(profile: dict, stub_dir: str | None = None) -> Ops:
    """Concrete environment operations for ``profile``.

    Args:
        profile: A validated profile.
        stub_dir: When given, the directory holding ``libcuda.so.1`` -> the
            toolkit's stub, appended last to ``LD_LIBRARY_PATH`` (driverless
            build hosts only; the caller decides).
    """
    root = profile["root"]
    ops = Ops(
        set={k: _sub(v, root) for k, v in profile["set"].items()},
        prepend={k: [_sub(e, root) for e in v] for k, v in profile["prepend"].items()},
        append={k: [_sub(e, root) for e in v] for k, v in profile["append"].items()},
    )
    if stub_dir:
        ops.append.setdefault("LD_LIBRARY_PATH", []).append(stub_dir)
    return ops


_HEADER = """\
# cudaenv profile (edit freely; `cudaenv profile build` will not overwrite it without --force).
# {root} in any value stands for `root`.
# stubs: auto | always | never -- whether the driver stub (libcuda.so.1 -> lib64/stubs/libcuda.so)
#   goes last on LD_LIBRARY_PATH. auto: only on a host without an NVIDIA driver. LIBRARY_PATH
#   (what `ld -lcuda` searches) gets the stubs directory either way, when the toolkit has one.
# host_compiler: reserved (null = let cudaenv choose).
"""


def dump(profile: dict) -> str:
    """Profile as commented YAML."""
    import yaml

    data = {k: profile.get(k) for k in KEYS if profile.get(k) is not None or k in ("host_compiler",)}
    for k in ("set", "prepend", "append"):
        data[k] = profile.get(k) or {}
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)
    return _HEADER + body


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` so readers see the old file or the new, never a torn one."""
    import tempfile

    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".yaml", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def find_pin(cwd: str) -> tuple[str, str] | None:
    """Find the nearest ``.cuda-version`` walking up from ``cwd``.

    Returns:
        (file path, the first non-comment word in it), or None.

    Raises:
        CudaenvError: the nearest file is unreadable or empty.
    """
    d = os.path.abspath(cwd)
    while True:
        path = os.path.join(d, ".cuda-version")
        if os.path.isfile(path):
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        word = line.split("#", 1)[0].strip()
                        if word:
                            return path, word
            except OSError as exc:
                raise CudaenvError(f"cannot read {path}: {exc.strerror}") from None
            raise CudaenvError(f"{path} names no version or profile", exit_code=2)
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
