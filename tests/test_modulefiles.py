"""`cudaenv modulefiles` in the real module systems, against `cudaenv use`.

Lmod (its Lua files, and its reading of Tcl files) and Environment Modules
(Tcl, unpacked by tests/run.sh into the test bed: the two Debian packages
conflict) each load the generated modules in real bash. The environment after
`module load cuda/12.4` must equal what `eval "$(cudaenv use 12.4)"` gives from
the same start, apart from the module systems' and cudaenv's own bookkeeping
variables and the stub directory's location (beside the modulefiles instead of
the user's cache); `module unload` must give back the start. A missing module
system skips locally and fails under CI=true.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import stat
import subprocess

import pytest
import yaml

from helpers import HOSTILE, IN_CI, clean_shell_env, make_toolkit, need, parse_env0, run_cudaenv

pytestmark = pytest.mark.shells  # real bash with real module systems

TESTBED = os.environ.get("CUDAENV_TESTBED") or os.path.expanduser("~/.cache/cudaenv-testbed")
LMOD_INIT = "/usr/share/lmod/lmod/init/bash"
DRIVER = "/proc/driver/nvidia/version"
NVCC = {"11.8": "release 11.8, V11.8.89", "12.4": "release 12.4, V12.4.131", "13.5": "release 13.5, V13.5.37"}

# (module system, --format): Lmod loads both formats, Environment Modules only Tcl.
# The hostile name without what Lmod's Tcl bridge cannot carry ('"', '\\', non-ASCII).
ASCII_HOSTILE = "';&&e-$ -j $(touch PWNED) `touch PWNED2` a!b {x} [y"

SYSTEMS = {"lmod-lua": ("lmod", "lmod"), "lmod-tcl": ("lmod", "tcl"), "envmodules-tcl": ("envmodules", "tcl")}


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} is required under CI but is not installed (bash tests/run.sh installs it)")
    pytest.skip(f"{what} not installed")


def _modulecmd() -> str:
    for path in (os.path.join(TESTBED, "envmodules", "usr", "lib", "modulecmd.tcl"),
                 "/usr/share/modules/libexec/modulecmd.tcl", "/usr/lib/modulecmd.tcl"):
        if os.path.isfile(path):
            return path
    _missing("Environment Modules (modulecmd.tcl)")
    raise AssertionError  # unreachable


def prelude(kind: str) -> str:
    """Bash code that defines `module` for ``kind``, the real way."""
    need("bash")
    if kind == "lmod":
        if not os.path.isfile(LMOD_INIT):
            _missing("Lmod")
        return f"source {shlex.quote(LMOD_INIT)}\n"
    tclsh = need("tclsh")
    # What Environment Modules' own init/bash defines, with the unpacked modulecmd.tcl.
    return f'module() {{ eval "$({shlex.quote(tclsh)} {shlex.quote(_modulecmd())} bash "$@")"; }}\n'


@pytest.fixture(params=list(SYSTEMS))
def system(request) -> tuple[str, str, str]:
    """(id, module system, format)."""
    kind, fmt = SYSTEMS[request.param]
    prelude(kind)  # skip early when missing
    return request.param, kind, fmt


def _own(name: bytes) -> bool:
    """Bookkeeping of the module systems and of cudaenv: not part of the comparison."""
    n = name.decode("utf-8", "surrogateescape")
    return n in {"_LMFILES_", "LOADEDMODULES", "CUDAENV_ACTIVE", "_CUDAENV_STATE", "_",
                 "LMOD_FAMILY_CUDA", "LMOD_FAMILY_CUDA_VERSION"} or n.startswith(
        ("__LMOD_", "_ModuleTable", "__MODULES_", "BASH_FUNC_", "__CUDAENV_MODULE_"))


def _leftovers(env: dict[bytes, bytes]) -> list[bytes]:
    """Bookkeeping a module must not leave behind after unload (Lmod's stacks, cudaenv's records)."""
    return sorted(k for k in env if k.startswith((b"__LMOD_STACK_", b"__CUDAENV_MODULE_")))


def _user(env: dict[bytes, bytes]) -> dict[bytes, bytes]:
    return {k: v for k, v in env.items() if not _own(k)}


def _drop_stub(env: dict[bytes, bytes]) -> tuple[dict[bytes, bytes], list[bytes]]:
    """``env`` without stub directories on LD_LIBRARY_PATH, and those it had."""
    out = dict(env)
    ld = out.get(b"LD_LIBRARY_PATH")
    if ld is None:
        return out, []
    parts = ld.split(b":")
    stubs = [p for p in parts if os.path.lexists(os.path.join(p, b"libcuda.so.1")) and
             (b"/.cudaenv-stubs/" in p or b"/cudaenv/stubs/" in p or b"/stubs-" in p)]
    out[b"LD_LIBRARY_PATH"] = b":".join(p for p in parts if p not in stubs)
    return out, stubs


#: What `use` tunes to the machine it runs on (profiles/build.py); a modulefile is written for other
#: machines (a cluster's compute nodes) and leaves these to the user.
TUNED = (b"TORCH_CUDA_ARCH_LIST", b"CUDAARCHS", b"MAX_JOBS", b"NVCC_THREADS")


def assert_same_as_use(loaded: dict, used: dict, moddir: str, root: str) -> None:
    """The module's environment is `use`'s but for the machine-tuned build settings; the stub is checked on its own."""
    mod, mod_stubs = _drop_stub(_user(loaded))
    use, use_stubs = _drop_stub(_user(used))
    assert not any(k in mod for k in TUNED)
    for k in TUNED:
        use.pop(k, None)
    assert mod == use
    # stubs: auto (the default) is link time only, for `use` and modules alike, with or without a driver
    # (issue 17: a runtime stub loaded on a driverless login node travels into jobs on GPU nodes).
    assert mod_stubs == [] and use_stubs == []


def bash(script: str, env: dict, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([need("bash"), "--norc", "--noprofile"], input=script, env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def snap(out, name: str) -> dict[bytes, bytes]:
    return parse_env0((out / name).read_bytes())


def generate(env: dict, fmt: str, moddir, *targets: str, cwd=None) -> subprocess.CompletedProcess:
    res = run_cudaenv(["modulefiles", "--format", fmt, *(targets or ["--all"]), "--output", str(moddir)], env, cwd=cwd)
    assert res.returncode == 0, res.stderr
    return res


@pytest.fixture
def base(tmp_path):
    """A clean shell environment running this checkout's cudaenv."""
    # A user's own loader path: module and `use` both keep it, in the same place.
    env = clean_shell_env(tmp_path, "/usr/bin:/bin", MODDIR=str(tmp_path / "modules"), LD_LIBRARY_PATH="/opt/user lib")
    return env, tmp_path, tmp_path / "out"


def write_profile(env: dict, profile: dict) -> None:
    d = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, profile["name"] + ".yaml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(profile, f, allow_unicode=True)


# ---------------------------------------------------------------- the real module systems

COMPARE = """export MODULEPATH="$MODDIR"
env -0 > "$OUT/start"
module load cuda/{short} || exit 11
env -0 > "$OUT/loaded"
{during}
module unload cuda || exit 13
env -0 > "$OUT/unloaded"
eval "$(cudaenv use {short})" || exit 14
env -0 > "$OUT/used"
eval "$(cudaenv off)" || exit 15
"""


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
@pytest.mark.parametrize("name", [HOSTILE, ASCII_HOSTILE], ids=["hostile", "ascii-hostile"])
def test_hostile_toolkit_matches_use(system, base, locale, name):
    """A toolkit root full of quotes, $, ;, backticks and Unicode, plus a profile's own variables.

    Lmod reading a *Tcl* file garbles '"', '\\' and non-ASCII (its tcl2lua bridge does not
    escape path entries and double-encodes UTF-8): such a module refuses to load under Lmod
    with a clear message, and loads everywhere else.
    """
    sid, kind, fmt = system
    env, tmp, out = base
    env["LC_ALL"] = locale
    hostile = make_toolkit(str(tmp / name), "12.4.1")
    odd = "br{ace} [x] $y \\z \"q\" 'a' ;&" + (" 中" if name == HOSTILE else "")
    older = make_toolkit(str(tmp / "cuda-12.4.0"), "12.4.0")
    other = make_toolkit(str(tmp / "cuda-11.8"), "11.8.0")
    env["CUDAENV_ROOTS"] = ":".join([hostile, older, other])
    # The governing profile of the hostile toolkit, with variables of its own.
    write_profile(env, {
        "name": "cuda-12.4.1", "root": hostile, "stubs": "auto", "host_compiler": "none",
        "set": {"CUDA_HOME": "{root}", "CUDA_PATH": "{root}", "CUDA_ROOT": "{root}",
                "ODD": odd},
        "prepend": {"PATH": ["{root}/bin"], "LD_LIBRARY_PATH": ["{root}/lib64"],
                    "LIBRARY_PATH": ["{root}/lib64", "{root}/lib64/stubs"], "CPATH": ["{root}/include"]},
        "append": {"NVCC_APPEND_FLAGS": ["-lineinfo", "-Xptxas=-v"]},
    })
    gen = generate(env, fmt, env["MODDIR"], "--all")
    res = bash(prelude(kind) + COMPARE.format(short="12.4", during='printf %s "$CUDA_HOME" > "$OUT/home"'), env, tmp)
    assert not list(tmp.glob("PWNED*")), "a toolkit path was executed"
    if sid == "lmod-tcl" and name == HOSTILE:
        assert "Lmod cannot read this Tcl file safely" in gen.stderr
        assert res.returncode == 11 and "Lmod cannot read this Tcl modulefile safely" in res.stderr, res.stderr
        return
    assert res.returncode == 0, res.stderr
    assert (out / "home").read_bytes() == os.fsencode(hostile)
    start, loaded, unloaded, used = (snap(out, n) for n in ("start", "loaded", "unloaded", "used"))
    assert loaded[b"ODD"] == odd.encode()
    assert loaded[b"NVCC_APPEND_FLAGS"] == b"-lineinfo -Xptxas=-v"
    assert_same_as_use(loaded, used, env["MODDIR"], hostile)
    assert _user(unloaded) == _user(start)


@pytest.fixture
def bed(base, testbed):
    env, tmp, out = base
    env["CUDAENV_ROOTS"] = ":".join(testbed.values())
    return env, tmp, out, testbed


@pytest.mark.testbed
@pytest.mark.parametrize("short", ["11.8", "12.4", "13.5"])
def test_testbed_toolkit_matches_use(system, bed, short):
    """Real toolkits: same environment as `use` (11.8 also gets the host compiler), and the right nvcc."""
    _id, kind, fmt = system
    env, tmp, out, testbed = bed
    generate(env, fmt, env["MODDIR"], "--all")
    res = bash(prelude(kind) + COMPARE.format(short=short, during='nvcc --version > "$OUT/nvcc" || exit 12'), env, tmp)
    assert res.returncode == 0, res.stderr
    assert NVCC[short] in (out / "nvcc").read_text()
    start, loaded, unloaded, used = (snap(out, n) for n in ("start", "loaded", "unloaded", "used"))
    assert loaded[b"CUDA_HOME"] == loaded[b"CUDA_PATH"] == os.fsencode(os.path.realpath(testbed[short]))
    assert_same_as_use(loaded, used, env["MODDIR"], os.path.realpath(testbed[short]))
    assert _user(unloaded) == _user(start)


SWITCH = """export MODULEPATH="$MODDIR"
env -0 > "$OUT/start"
module load cuda/12.4.1 || exit 11
env -0 > "$OUT/first"
module load cuda/11.8; echo "second=$?" > "$OUT/rc"
env -0 > "$OUT/second"
module switch cuda cuda/11.8 || exit 12
env -0 > "$OUT/switched"
module list 2> "$OUT/list"
module unload cuda || exit 13
env -0 > "$OUT/unloaded"
eval "$(cudaenv use 11.8)"; env -0 > "$OUT/use118"; eval "$(cudaenv off)"
eval "$(cudaenv use 12.4.1)"; env -0 > "$OUT/use124"; eval "$(cudaenv off)"
"""


@pytest.mark.testbed
def test_loading_another_version_swaps_or_refuses(system, bed):
    """Lmod swaps cuda/12.4.1 for cuda/11.8 (one module per name; family "cuda");
    Environment Modules refuses (conflict cuda) and `module switch` does it."""
    sid, kind, fmt = system
    env, tmp, out, testbed = bed
    generate(env, fmt, env["MODDIR"], "--all")
    res = bash(prelude(kind) + SWITCH, env, tmp)
    assert res.returncode == 0, res.stderr
    snaps = {n: snap(out, n) for n in ("start", "first", "second", "switched", "unloaded", "use118", "use124")}
    assert_same_as_use(snaps["first"], snaps["use124"], env["MODDIR"], os.path.realpath(testbed["12.4"]))
    rc = (out / "rc").read_text().strip()
    if kind == "lmod":
        assert rc == "second=0"
        assert_same_as_use(snaps["second"], snaps["use118"], env["MODDIR"], os.path.realpath(testbed["11.8"]))
    else:
        assert rc != "second=0"
        assert "Conflicting cuda is loaded" in res.stderr
        assert _user(snaps["second"]) == _user(snaps["first"])  # refused: nothing changed
    assert_same_as_use(snaps["switched"], snaps["use118"], env["MODDIR"], os.path.realpath(testbed["11.8"]))
    listed = (out / "list").read_text()
    # Lmod lists the name a module was loaded under: cuda/11.8 is a file of its own there.
    assert ("cuda/11.8" if sid == "lmod-lua" else "cuda/11.8.0") in listed and "cuda/12.4.1" not in listed
    assert _user(snaps["unloaded"]) == _user(snaps["start"])


PRIOR = """export MODULEPATH="$MODDIR"
export CUDA_HOME="/prior 'home'"
module load cuda/12.4 || exit 11
printf %s "$CUDA_HOME" > "$OUT/loaded"
module unload cuda || exit 12
printf %s "${CUDA_HOME-<unset>}" > "$OUT/unloaded"
"""


def test_unload_restores_a_prior_value(system, base):
    """Unload gives back the value CUDA_HOME had before load, as `off` does, in every module system."""
    sid, kind, fmt = system
    env, tmp, out = base
    root = make_toolkit(str(tmp / "cuda-12.4"), "12.4.1")
    env["CUDAENV_ROOTS"] = root
    generate(env, fmt, env["MODDIR"], "12.4")
    res = bash(prelude(kind) + PRIOR, env, tmp)
    assert res.returncode == 0, res.stderr
    assert (out / "loaded").read_text() == root
    assert (out / "unloaded").read_text() == "/prior 'home'"


NAMES = """export MODULEPATH="$MODDIR"
for m in cuda/12.4.1 cuda/12.4.1-2 cuda/12.4.1-mine cuda/12.4 cuda/12 cuda/12.4.0 cuda/11; do
    module load "$m" || exit 11
    printf '%s=%s\\n' "$m" "$CUDA_HOME" >> "$OUT/homes"
    module unload cuda || exit 12
done
"""


def test_same_version_at_two_roots_gets_two_names(system, base):
    """Nobody overwrites anybody: cuda/12.4.1 and cuda/12.4.1-2, stable across runs and argument order."""
    _id, kind, fmt = system
    env, tmp, out = base
    a = make_toolkit(str(tmp / "a" / "cuda-12.4"), "12.4.1")
    b = make_toolkit(str(tmp / "b" / "cuda-12.4"), "12.4.1")
    c = make_toolkit(str(tmp / "cuda-12.4.0"), "12.4.0")
    d = make_toolkit(str(tmp / "cuda-11.8"), "11.8.0")
    env["CUDAENV_ROOTS"] = ":".join([a, b, c, d])
    # Toolkit a has its generated profile and a named one ("mine"), which gets a module of its own.
    for pname in ("cuda-12.4.1", "mine"):
        write_profile(env, {"name": pname, "root": a, "host_compiler": "none",
                            "set": {"CUDA_HOME": "{root}", "MINE": pname}, "prepend": {"PATH": ["{root}/bin"]}})
    moddir = env["MODDIR"]
    first = run_cudaenv(["modulefiles", "--format", fmt, a, b, "mine", c, d, "--output", moddir], env)
    assert first.returncode == 0, first.stderr
    # The tie for cuda/12.4 is said on stderr (`use 12.4` would refuse it).
    assert "cuda/12.4 loads cuda/12.4.1; cuda/12.4.1-2 has the same version" in first.stderr
    ext = ".lua" if fmt == "lmod" else ""
    files = {n: open(os.path.join(moddir, "cuda", n + ext), encoding="utf-8").read()
             for n in ("12.4.1", "12.4.1-2", "12.4.1-mine", "12.4.0", "11.8.0")}
    assert a in files["12.4.1"] and b in files["12.4.1-2"] and a in files["12.4.1-mine"]
    # Again, in the other order and through --all: every toolkit keeps its name.
    for args in ([b, "mine", a], ["--all"]):
        res = run_cudaenv(["modulefiles", "--format", fmt, *args, "--output", moddir], env)
        assert res.returncode == 0, res.stderr
        for n, text in files.items():
            assert open(os.path.join(moddir, "cuda", n + ext), encoding="utf-8").read() == text, n
    listing = set(os.listdir(os.path.join(moddir, "cuda")))
    ours = {n + ext for n in files} | {".modulerc.lua" if fmt == "lmod" else ".modulerc"}
    assert ours <= listing
    for extra in listing - ours:  # --all also found this machine's own toolkits; Lmod's short-name files
        text = open(os.path.join(moddir, "cuda", extra), encoding="utf-8").read()
        assert str(tmp) not in text or (fmt == "lmod" and '{"alias_of": ' in text.splitlines()[1])
    res = bash(prelude(kind) + NAMES, env, tmp)
    assert res.returncode == 0, res.stderr
    homes = dict(line.split("=", 1) for line in (out / "homes").read_text().splitlines())
    assert homes == {"cuda/12.4.1": a, "cuda/12.4.1-2": b, "cuda/12.4.1-mine": a, "cuda/12.4": a, "cuda/12": a,
                     "cuda/12.4.0": c, "cuda/11": d}


STUBS = """export MODULEPATH="$MODDIR"
module load cuda/12.4.1 || exit 11
printf '%s' "$LD_LIBRARY_PATH" > "$OUT/ld-$1"
module unload cuda || exit 12
printf '%s' "${LD_LIBRARY_PATH-<unset>}" > "$OUT/after-$1"
"""


@pytest.mark.parametrize("policy", ["auto", "driverless", "always", "never"])
def test_stub_policy_is_decided_when_loading(system, base, policy):
    """auto and never: no stub on LD_LIBRARY_PATH, with or without a driver (issue 17); driverless: last
    on LD_LIBRARY_PATH only while the driver file is absent, checked at load; always: always."""
    from cudaenv.context import Context
    from cudaenv.outputs.modulefiles import write_modulefiles

    _id, kind, fmt = system
    env, tmp, out = base
    root = make_toolkit(str(tmp / "cuda-12.4"), "12.4.1")
    env["CUDAENV_ROOTS"] = root
    write_profile(env, {"name": "cuda-12.4.1", "root": root, "stubs": policy, "host_compiler": "none",
                        "set": {"CUDA_HOME": "{root}"}, "prepend": {"LD_LIBRARY_PATH": ["{root}/lib64"]}})
    # A stand-in for /proc/driver/nvidia/version that the test can create (generated in-process).
    driver = tmp / "driver" / "version"
    write_modulefiles(Context(env=env), [root], False, fmt, env["MODDIR"], driver_file=str(driver))
    stub = os.path.join(env["MODDIR"], ".cudaenv-stubs")
    script = prelude(kind) + STUBS
    for when in ("nodriver", "driver"):
        if when == "driver":
            driver.parent.mkdir()
            driver.write_text("NVRM version: fake\n")
        res = subprocess.run([need("bash"), "--norc", "--noprofile", "-s", when], input=script, env=env,
                             cwd=tmp, capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
    lib = f"{root}/lib64:/opt/user lib"
    if policy in ("auto", "never"):
        assert not os.path.exists(stub)
        assert (out / "ld-nodriver").read_text() == (out / "ld-driver").read_text() == lib
    else:
        (key,) = os.listdir(stub)
        d = os.path.join(stub, key)
        assert os.readlink(os.path.join(d, "libcuda.so.1")) == f"{root}/lib64/stubs/libcuda.so"
        assert (out / "ld-nodriver").read_text() == f"{lib}:{d}"
        assert (out / "ld-driver").read_text() == (f"{lib}:{d}" if policy == "always" else lib)
    assert (out / "after-nodriver").read_text() == (out / "after-driver").read_text() == "/opt/user lib"


# ---------------------------------------------------------------- quoting, text, errors


def test_quoting_round_trips_through_lua_and_tcl(tmp_path):
    """Each quoting function's output, read by the language itself, gives the value back byte for byte."""
    from cudaenv.outputs.modulefiles import lua_quote, tcl_quote

    values = [HOSTILE, "}{", "{", "\\", "a\\", '"', "$x", "[exit 3]", "]]", "[[", "a]=]b", "tab\there", "é\x7f"]
    lua = shutil.which("lua5.3") or shutil.which("lua5.4") or need("lua")  # Lmod's own interpreter
    tclsh = need("tclsh")
    for i, v in enumerate(values):
        (tmp_path / f"{i}.lua").write_text(f"io.write({lua_quote(v)})\n", encoding="ascii")
        # Inside a braced body too: the escaped braces must keep it balanced.
        (tmp_path / f"{i}.tcl").write_text(
            "fconfigure stdout -translation binary -encoding utf-8\n"
            f"if {{1}} {{\n    puts -nonewline {tcl_quote(v)}\n}}\n", encoding="utf-8")
        got = subprocess.run([lua, str(tmp_path / f"{i}.lua")], capture_output=True, timeout=30)
        assert got.stdout == v.encode(), (v, got.stderr)
        got = subprocess.run([tclsh, str(tmp_path / f"{i}.tcl")], capture_output=True, timeout=30,
                             env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
        assert got.stdout == v.encode(), (v, got.stderr)


def test_rendered_text():
    """The files, for review: the variables in the profile's order, quoting, the host compiler decided
    at load, the load-time stub test; helpers only where used."""
    from cudaenv.env.ops import Ops
    from cudaenv.outputs.modulefiles import Module, render_lua, render_tcl

    base = Ops(set={"CUDA_HOME": "/opt/c$a", "CUDA_PATH": "/opt/c$a"},
               prepend={"PATH": ["/opt/c$a/bin"], "LIBRARY_PATH": ["/opt/c$a/lib64", "/opt/c$a/lib64/stubs"]},
               append={"CPATH": ["/x{y}"], "NVCC_APPEND_FLAGS": ["-lineinfo"]})
    ops = Ops(set={**base.set, "CUDAHOSTCXX": "/usr/bin/g++-11"},
              prepend={**base.prepend, "NVCC_PREPEND_FLAGS": ["-ccbin", "/usr/bin/g++-11"]}, append=base.append)
    m = Module("12.4.1", "12.4.1", "/opt/c$a", "cuda-12.4.1", ops, "/m/.cudaenv-stubs/k",
               "/opt/c$a/lib64/stubs/libcuda.so", "driverless", base=base, cxx="/usr/bin/g++-11")
    lua, tcl = render_lua(m), render_tcl(m)
    marker = '{"format": "%s", "profile": "cuda-12.4.1", "root": "/opt/c$a", "version": "12.4.1"}'
    assert lua.splitlines()[:2] == [
        "-- cuda/12.4.1: written by `cudaenv modulefiles --format lmod`; regenerate rather than edit.",
        "-- cudaenv-modulefile " + marker % "lmod"]
    assert tcl.splitlines()[:3] == [
        "#%Module1.0", "# cuda/12.4.1: written by `cudaenv modulefiles --format tcl`; regenerate rather than edit.",
        "# cudaenv-modulefile " + marker % "tcl"]
    assert lua.endswith("""
-- The driver stub goes last on the loader path only where no NVIDIA driver is loaded
-- (decided on the node loading this module; with a driver it would break every CUDA call).
local stub = (unloading or not isFile("/proc/driver/nvidia/version")) and "/m/.cudaenv-stubs/k" or nil

set_var("CUDA_HOME", "/opt/c$a")
set_var("CUDA_PATH", "/opt/c$a")
if own_ccbin then set_var("CUDAHOSTCXX", "/usr/bin/g++-11") end
path("PATH", {"/opt/c$a/bin"}, {})
path("LIBRARY_PATH", {"/opt/c$a/lib64", "/opt/c$a/lib64/stubs"}, {})
if own_ccbin then flags("NVCC_PREPEND_FLAGS", {"-ccbin", "/usr/bin/g++-11"}, {}) end
path("CPATH", {}, {"/x{y}"})
flags("NVCC_APPEND_FLAGS", {}, {"-lineinfo"})
path("LD_LIBRARY_PATH", {}, {stub})
""")
    assert tcl.endswith("""
# The driver stub goes last on the loader path only where no NVIDIA driver is loaded
# (decided on the node loading this module; with a driver it would break every CUDA call).
set cudaenv_stub [expr {$cudaenv_unloading || ![file exists "/proc/driver/nvidia/version"] ? [list "/m/.cudaenv-stubs/k"] : {}}]

cudaenv_set CUDA_HOME "/opt/c\\$a"
cudaenv_set CUDA_PATH "/opt/c\\$a"
if {$cudaenv_own_ccbin} {
    cudaenv_set CUDAHOSTCXX "/usr/bin/g++-11"
}
cudaenv_path PATH [list "/opt/c\\$a/bin"] [list]
cudaenv_path LIBRARY_PATH [list "/opt/c\\$a/lib64" "/opt/c\\$a/lib64/stubs"] [list]
if {$cudaenv_own_ccbin} {
    cudaenv_flags NVCC_PREPEND_FLAGS [list "-ccbin" "/usr/bin/g++-11"] [list]
}
cudaenv_path CPATH [list] [list "/x\\{y\\}"]
cudaenv_flags NVCC_APPEND_FLAGS [list] [list "-lineinfo"]
cudaenv_path LD_LIBRARY_PATH [list] $cudaenv_stub
""")
    for text, helpers in ((lua, ("local function set_var(", "local function flags(", "local function path(",
                                 "local function user_ccbin(")),
                          (tcl, ("proc cudaenv_set ", "proc cudaenv_flags ", "proc cudaenv_path ",
                                 "proc cudaenv_user_ccbin "))):
        assert all(h in text for h in helpers)
    # Without a host compiler, flag lists or path lists: neither the ccbin nor the list helpers.
    plain = Module("1.0", "1.0", "/r", "p", Ops(set={"CUDA_HOME": "/r"}))
    assert "user_ccbin" not in render_lua(plain) and "local function path(" not in render_lua(plain)
    assert "cudaenv_user_ccbin" not in render_tcl(plain) and "proc cudaenv_flags" not in render_tcl(plain)


def _one_line_error(res: subprocess.CompletedProcess) -> str:
    assert res.returncode != 0
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cudaenv: "), res.stderr
    return lines[0]


def _tree(path) -> list[str]:
    out = []
    for d, dirs, files in os.walk(path):
        out += [os.path.relpath(os.path.join(d, n), path) for n in dirs + files]
    return sorted(out)


def test_errors_are_one_line_and_write_nothing(base):
    env, tmp, _out = base
    good = make_toolkit(str(tmp / "cuda-12.4"), "12.4.1")
    colon = make_toolkit(str(tmp / "odd:name" / "cuda"), "12.3.0")
    tab = make_toolkit(str(tmp / "tab\there" / "cuda"), "12.2.0")
    env["CUDAENV_ROOTS"] = good
    moddir = tmp / "modules"
    cases = {
        "nothing named": ["--format", "lmod", "--output", str(moddir)],
        "both": ["--format", "lmod", "--all", "12.4", "--output", str(moddir)],
        "no format": ["12.4", "--output", str(moddir)],
        "bad format": ["--format", "yaml", "12.4", "--output", str(moddir)],
        "no output": ["--format", "tcl", "12.4"],
        "unknown": ["--format", "tcl", "12.4", "99.1", "--output", str(moddir)],
        "colon": ["--format", "tcl", good, colon, "--output", str(moddir)],
        "tab": ["--format", "lmod", good, tab, "--output", str(moddir)],
    }
    for what, args in cases.items():
        line = _one_line_error(run_cudaenv(["modulefiles", *args], env))
        assert not moddir.exists(), what
        if what == "colon":
            assert "odd:name" in line
    # A file cudaenv did not write, or files in the other format, stop it before anything is written.
    generate(env, "lmod", moddir, good)
    before = {p: (moddir / p).read_bytes() if (moddir / p).is_file() else None for p in _tree(moddir)}
    line = _one_line_error(run_cudaenv(["modulefiles", "--format", "tcl", good, "--output", str(moddir)], env))
    assert "Lmod (Lua) modulefiles" in line
    (moddir / "cuda" / "11.0").write_text("#%Module1.0\nsetenv SITE 1\n")
    line = _one_line_error(run_cudaenv(["modulefiles", "--format", "lmod", good, "--output", str(moddir)], env))
    assert "was not written by cudaenv" in line
    assert (moddir / "cuda" / "11.0").read_text() == "#%Module1.0\nsetenv SITE 1\n"
    after = {p: (moddir / p).read_bytes() if (moddir / p).is_file() else None for p in _tree(moddir)}
    del after["cuda/11.0"]
    assert after == before


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
@pytest.mark.parametrize("fmt", ["lmod", "tcl"])
def test_a_fifo_or_device_where_a_module_goes_is_refused_unread(base, kind, fmt):
    """The "did cudaenv write this?" check read the file in the way: a FIFO hung it, a device never ended."""
    env, tmp, _out = base
    env["CUDAENV_ROOTS"] = make_toolkit(str(tmp / "cuda-12.4"), "12.4.1")
    moddir = tmp / "modules"
    path = moddir / "cuda" / ("12.4.1.lua" if fmt == "lmod" else "12.4.1")
    path.parent.mkdir(parents=True)
    os.mkfifo(path) if kind == "fifo" else os.symlink("/dev/zero", path)
    # run_cudaenv's timeout is the hang guard.
    line = _one_line_error(run_cudaenv(["modulefiles", "--format", fmt, "12.4", "--output", str(moddir)], env))
    assert f"{path} is not a regular file; not overwriting it" in line
    assert _tree(moddir) == ["cuda", os.path.relpath(path, moddir)]  # nothing written beside it
    assert stat.S_ISFIFO(os.lstat(path).st_mode) if kind == "fifo" else os.readlink(path) == "/dev/zero"


def test_files_are_readable_by_everyone_and_no_temporaries_remain(base):
    """Other users on other nodes load these: the umask decides, not mkstemp's 0600."""
    env, tmp, _out = base
    env["CUDAENV_ROOTS"] = make_toolkit(str(tmp / "cuda-12.4"), "12.4.1")
    moddir = tmp / "modules"
    old = os.umask(0o022)
    try:
        res = run_cudaenv(["modulefiles", "--format", "lmod", "12.4", "--output", str(moddir)], env)
    finally:
        os.umask(old)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == f"wrote    {moddir}/cuda/12.4.1.lua  (CUDA 12.4.1 at {tmp}/cuda-12.4, profile cuda-12.4.1)"
    names = os.listdir(moddir / "cuda")
    assert sorted(names) == [".modulerc.lua", "12.4.1.lua", "12.4.lua", "12.lua"]  # short names: files (Lmod)
    for n in names:
        assert stat.S_IMODE(os.stat(moddir / "cuda" / n).st_mode) == 0o644
    marker = (moddir / "cuda" / "12.4.1.lua").read_text().splitlines()[1]
    assert json.loads(marker.split(" ", 2)[2])["root"] == f"{tmp}/cuda-12.4"


def test_short_names():
    """cuda/12.4 = newest 12.4.x, cuda/12 = newest 12.x, default = newest; an exact name wins; ties are said."""
    from cudaenv.outputs.modulefiles import render_rc, short_names

    mods = {"12.4.1": ("12.4.1", "/a"), "12.4.1-2": ("12.4.1", "/b"), "12.4.1-mine": ("12.4.1", "/a"),
            "12.4.0": ("12.4.0", "/c"), "12.3": ("12.3", "/d"), "12.3.2": ("12.3.2", "/e"), "11.8.0": ("11.8.0", "/f")}
    notes: list[str] = []
    aliases = short_names(mods, notes)
    assert aliases == {"11.8.0": ["11", "11.8"], "12.4.1": ["12", "12.4", "default"]}
    assert notes == [
        "cuda/12 loads cuda/12.4.1; cuda/12.4.1-2 has the same version (`cudaenv use 12` would call this ambiguous)",
        "cuda/12.4 loads cuda/12.4.1; cuda/12.4.1-2 has the same version (`cudaenv use 12.4` would call this ambiguous)",
    ]
    # Lmod: only the default in the rc file; cuda/12.4 and cuda/12 are files of their own (render_alias).
    assert render_rc("lmod", aliases).splitlines()[2:] == ['module_version("cuda/12.4.1", "default")']
    assert render_rc("tcl", aliases).splitlines()[3:] == [
        'module-version "cuda/11.8.0" "11" "11.8"', 'module-version "cuda/12.4.1" "12" "12.4" "default"']


# ---------------------------------------------------------------- the issue: names, flags, priors, mixing

SHORT = """export MODULEPATH="$MODDIR"
env -0 > "$OUT/start"
module load cuda/12.4 || exit 11
module unload cuda/12.4 || exit 12
printf '%s' "$LOADEDMODULES" > "$OUT/after-unload"
env -0 > "$OUT/unloaded"
module load cuda/11.8 || exit 13
module swap cuda/11.8 cuda/13.5 || exit 14
printf '%s' "$CUDA_HOME" > "$OUT/home-swap"
module switch cuda/13.5 cuda/12 || exit 15
printf '%s' "$CUDA_HOME" > "$OUT/home-switch"
module unload cuda/12 || exit 16
printf '%s' "$LOADEDMODULES" > "$OUT/after-all"
env -0 > "$OUT/end"
"""


@pytest.mark.testbed
def test_short_names_unload_and_swap(system, bed):
    """The names the README tells people to type: load, unload, swap and switch by cuda/12.4, cuda/12."""
    sid, kind, fmt = system
    env, tmp, out, testbed = bed
    generate(env, fmt, env["MODDIR"], "--all")
    res = bash(prelude(kind) + SHORT, env, tmp)
    if sid == "lmod-tcl":
        # Documented limitation: Lmod (8.6) unloads and swaps by the name a module was loaded under, and
        # the Tcl format's short names are .modulerc symbols (Environment Modules resolves them everywhere).
        assert res.returncode == 14 and 'Swap failed: "cuda/11.8" is not loaded' in res.stderr, res.stderr
        assert "cuda/12.4.1" in (out / "after-unload").read_text()
        return
    assert res.returncode == 0, res.stderr
    assert "cuda" not in (out / "after-unload").read_text()
    assert (out / "home-swap").read_text() == os.path.realpath(testbed["13.5"])
    assert (out / "home-switch").read_text() == os.path.realpath(testbed["12.4"])
    assert "cuda" not in (out / "after-all").read_text()
    start = snap(out, "start")
    for name in ("unloaded", "end"):
        assert _user(snap(out, name)) == _user(start), name
        assert _leftovers(snap(out, name)) == []


FLAGS = """export MODULEPATH="$MODDIR"
env -0 > "$OUT/start"
module load cuda/11.8 || exit 11
env -0 > "$OUT/loaded"
printf 'int main() { return 0; }\\n' > t.cu
nvcc -c t.cu -o t.o 2> "$OUT/nvcc-module" || exit 12
module unload cuda || exit 13
env -0 > "$OUT/unloaded"
eval "$(cudaenv use 11.8)" || exit 14
env -0 > "$OUT/used"
eval "$(cudaenv off)" || exit 15
"""


@pytest.mark.testbed
@pytest.mark.parametrize("var,flags", [
    ("NVCC_PREPEND_FLAGS", "-Xcompiler -fPIC -Xcompiler -Wall"),
    ("NVCC_PREPEND_FLAGS", "-ccbin clang++-14"),
    ("NVCC_APPEND_FLAGS", "-ccbin=/usr/bin/g++-11 -Xcompiler -Wall"),
    ("NVCC_PREPEND_FLAGS", ""),
], ids=["repeated-words", "user-ccbin", "user-ccbin-append", "empty"])
def test_nvcc_flags_match_use(system, bed, var, flags):
    """CUDA 11.8 with g++-11 installed gets -ccbin g++-11 in front of the user's own flags, which stay
    word for word (repeats too); a user's own -ccbin wins and none is added, as with `cudaenv use`.
    Unload gives back exactly what was there."""
    _id, kind, fmt = system
    env, tmp, out, testbed = bed
    if not shutil.which("g++-11") or not shutil.which("clang++-14"):
        _missing("g++-11 and clang++-14")
    env[var] = flags
    generate(env, fmt, env["MODDIR"], "11.8")
    res = bash(prelude(kind) + FLAGS, env, tmp)
    assert res.returncode == 0, res.stderr + (out / "nvcc-module").read_text()
    start, loaded, unloaded, used = (snap(out, n) for n in ("start", "loaded", "unloaded", "used"))
    assert_same_as_use(loaded, used, env["MODDIR"], os.path.realpath(testbed["11.8"]))
    if var == "NVCC_PREPEND_FLAGS" and "-ccbin" not in flags:
        assert loaded[b"NVCC_PREPEND_FLAGS"] == (b"-ccbin /usr/bin/g++-11 " + flags.encode()).rstrip(b" ")
        assert loaded[b"CUDAHOSTCXX"] == b"/usr/bin/g++-11"
    else:
        assert loaded[var.encode()] == flags.encode() and b"CUDAHOSTCXX" not in loaded
    if _id == "lmod-tcl" and not flags:
        # Lmod reading Tcl has no way to set a variable empty while unloading (documented).
        assert var.encode() not in unloaded
        start = {k: v for k, v in start.items() if k != var.encode()}
    assert _user(unloaded) == _user(start)
    assert _leftovers(unloaded) == []


PRIORS = """export MODULEPATH="$MODDIR"
export CUDA_HOME="/prior 'home'" LIBRARY_PATH=""
env -0 > "$OUT/start"
module load cuda/12.4.1 || exit 11
{switch} || exit 12
env -0 > "$OUT/switched"
module unload cuda || exit 13
env -0 > "$OUT/unloaded"
export CUDA_HOME=/later
module load cuda/12.4.1 || exit 14
module unload cuda || exit 15
printf '%s' "$CUDA_HOME" > "$OUT/later"
eval "$(cudaenv use 11.8)" || exit 16
env -0 > "$OUT/used"
"""


@pytest.mark.testbed
def test_prior_values_survive_swap_and_reload(system, bed):
    """A prior CUDA_HOME and an empty LIBRARY_PATH come back after a swap (Lmod's load of another
    version, Environment Modules' switch) and unload; nothing is left on Lmod's stacks, so a value set
    later is the one a later unload gives back."""
    sid, kind, fmt = system
    env, tmp, out, testbed = bed
    generate(env, fmt, env["MODDIR"], "--all")
    switch = "module load cuda/11.8.0" if kind == "lmod" else "module switch cuda cuda/11.8.0"
    res = bash(prelude(kind) + PRIORS.format(switch=switch), env, tmp)
    assert res.returncode == 0, res.stderr
    start, switched, unloaded, used = (snap(out, n) for n in ("start", "switched", "unloaded", "used"))
    assert_same_as_use(switched, used, env["MODDIR"], os.path.realpath(testbed["11.8"]))
    if sid == "lmod-tcl":
        # Lmod reading Tcl has no way to set a variable empty while unloading (documented).
        assert b"LIBRARY_PATH" not in unloaded
        start = {k: v for k, v in start.items() if k != b"LIBRARY_PATH"}
    assert _user(unloaded) == _user(start)
    assert _leftovers(unloaded) == []
    assert (out / "later").read_text() == "/later"


MIXED = """export MODULEPATH="$MODDIR"
eval "$(cudaenv use 12.4)" || exit 11
env -0 > "$OUT/used"
module load cuda/11.8 2> "$OUT/err"; echo "rc=$?" > "$OUT/rc"
env -0 > "$OUT/after"
"""


@pytest.mark.testbed
def test_module_refuses_to_load_over_a_cudaenv_profile(system, bed):
    """`cudaenv use` then `module load`: the module refuses with a clear message and changes nothing
    (otherwise `cudaenv off` and `module unload` would each give back the other's values)."""
    _id, kind, fmt = system
    env, tmp, out, testbed = bed
    generate(env, fmt, env["MODDIR"], "--all")
    res = bash(prelude(kind) + MIXED, env, tmp)
    assert res.returncode == 0, res.stderr
    assert (out / "rc").read_text().strip() != "rc=0"
    err = " ".join((out / "err").read_text().split())  # Lmod wraps its messages
    assert "cuda/11.8.0: a cudaenv profile is active; run `cudaenv off` before `module load`" in err
    assert "while executing" not in err  # Environment Modules: the message, not a Tcl stack trace
    assert _user(snap(out, "after")) == _user(snap(out, "used"))


MODULE_THEN_USE = """export MODULEPATH="$MODDIR"
module load cuda/11.8 || exit 11
env -0 > "$OUT/loaded"
cudaenv use 12.4 > "$OUT/code" 2> "$OUT/err"; echo "rc=$?" > "$OUT/rc"
"""


@pytest.mark.testbed
def test_use_refuses_to_switch_over_a_cudaenv_module(system, bed):
    """`module load` then `cudaenv use`: use refuses with one line and prints no code."""
    _id, kind, fmt = system
    env, tmp, out, testbed = bed
    generate(env, fmt, env["MODDIR"], "--all")
    res = bash(prelude(kind) + MODULE_THEN_USE, env, tmp)
    assert res.returncode == 0, res.stderr
    assert (out / "rc").read_text().strip() == "rc=2"
    assert (out / "code").read_text() == ""
    err = (out / "err").read_text()
    assert err.count("\n") == 1 and "run `module unload cuda` before `cudaenv use`" in err


def test_each_format_is_one_complete_renderer():
    """One renderer object per format, as shells are: each fills in every piece the base leaves open."""
    import inspect

    from cudaenv.outputs.modulefiles import FORMATS, RENDERERS
    from cudaenv.outputs.modulefiles.base import Renderer

    assert tuple(RENDERERS) == FORMATS == ("lmod", "tcl")
    open_ = [n for n, f in vars(Renderer).items()
             if inspect.isfunction(f) and "raise NotImplementedError" in inspect.getsource(f)]
    assert {"quote", "head", "stub", "set_step", "flags_step", "path_step", "rc"} <= set(open_)
    for fmt, r in RENDERERS.items():
        assert r.fmt == fmt and r.rc_name and r.label and all(r.helpers)
        missing = [n for n in open_ if getattr(type(r), n) is getattr(Renderer, n)
                   and not (n == "alias" and not r.alias_files)]
        assert not missing, (fmt, missing)
        assert r.module_name_of(r.file_name("12.4.1")) == "12.4.1"
