#!/usr/bin/env bash
# Build a test bed of REAL CUDA toolkits (no GPU needed) for cudaenv's tests.
#
#   bash tests/testbed/build.sh [VERSION ...]      default: 11.8 12.4 13.5
#   bash tests/testbed/build.sh --list             supported versions
#   bash tests/testbed/build.sh --gen-libcuda-stub INCLUDE_DIR OUT.so
#
# Output root: ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
#   cuda-X.Y/   one toolkit per version (NVIDIA layout, relocatable)
#   cache/      wheelhouses, private apt state, extracted Debian files
#
# Sources (see tests/testbed/README.md):
#   * 13.x: PyPI wheels only (cuda-toolkit meta-wheel extras), assembled by `cudaenv install`
#     from the wheelhouse (so the test bed exercises the installer).
#   * 11.8 / 12.x: PyPI -cuNN wheels (headers, cudart, ptxas, nvvm) plus NVIDIA's
#     unmodified binaries from Debian non-free (nvcc, cicc, cudafe++, fatbinary, nvlink,
#     libcudart_static.a, libcudadevrt.a, libculibos.a, stubs/libcuda.so).
#   * 13.x has no libcuda stub anywhere on PyPI; it is generated from the toolkit's
#     own cuda.h (every driver entry point returns CUDA_ERROR_STUB_LIBRARY = 34).
#
# A finished toolkit contains .complete (written last, inside a temporary build dir
# that is then renamed into place), so a complete toolkit is skipped without any
# network access. Caches make a rebuild after `rm -rf cuda-X.Y` offline as well.
#
# Environment:
#   CUDAENV_TESTBED                 output root (default ~/.cache/cudaenv-testbed)
#   CUDAENV_TESTBED_DEBIAN_MIRROR   Debian archive URI (default: read from this
#                                   machine's /etc/apt sources)
#   CUDAENV_TESTBED_KEEP_DEBS=1     keep the downloaded .deb files (default: deleted
#                                   once the few needed files are extracted)
set -Eeuo pipefail

RECIPE_REV=2   # 2: 13.x assembled by `cudaenv install` from the wheelhouse
DEFAULT_VERSIONS=(11.8 12.4 13.5)
TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
REPO=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=$TESTBED/cache
PROG=${0##*/}

STEP="startup"
CUR=""
CLEANUP=()

log() { printf '%s\n' "[testbed${CUR:+ $CUR}] $*" >&2; }
die() { printf '%s\n' "[testbed${CUR:+ $CUR}] ERROR in step '$STEP': $*" >&2; exit 1; }
step() { STEP="$*"; log "-- $*"; }

on_err() {
    local rc=$?
    printf '%s\n' "[testbed${CUR:+ $CUR}] ERROR in step '$STEP': command failed (exit $rc): $BASH_COMMAND" >&2
    exit "$rc"
}
on_exit() {
    local d
    for d in "${CLEANUP[@]+"${CLEANUP[@]}"}"; do
        [ -n "$d" ] && [ -e "$d" ] && rm -rf -- "$d"
    done
    return 0
}
trap on_err ERR
trap on_exit EXIT

# --------------------------------------------------------------------------- recipes
# recipe VERSION -> META (cuda-toolkit meta-wheel version = release label), KIND,
#   EXTRAS, and for KIND=deb: SUITE, DEB_TOOLKIT, DEB_DEV (exact Debian versions).
recipe() {
    SUITE="" DEB_TOOLKIT="" DEB_DEV=""
    case "$1" in
        11.8) META=11.8.0 KIND=deb SUITE=bookworm
              DEB_TOOLKIT=11.8.89~11.8.0-5~deb12u1 DEB_DEV=11.8.89~11.8.0-5~deb12u1 ;;
        12.4) META=12.4.1 KIND=deb SUITE=trixie
              DEB_TOOLKIT=12.4.131~12.4.1-2 DEB_DEV=12.4.127~12.4.1-2 ;;
        12.5) META=12.5.0 KIND=deb SUITE=experimental
              DEB_TOOLKIT=12.5.40~12.5.0-2+b1 DEB_DEV=12.5.39~12.5.0-2+b1 ;;
        13.0) META=13.0.2 KIND=wheel ;;
        13.2) META=13.2.2 KIND=wheel ;;
        13.5) META=13.5.0 KIND=wheel ;;
        *) return 1 ;;
    esac
    if [ "$KIND" = deb ]; then EXTRAS=nvcc,cudart,cccl; else EXTRAS=nvcc,cudart,cccl,crt,nvvm,culibos; fi
}
SUPPORTED="11.8 12.4 12.5 13.0 13.2 13.5"

# Files taken from Debian's .debs (paths inside the packages).
DEB_TOOLKIT_FILES=(
    ./usr/lib/nvidia-cuda-toolkit/bin/nvcc
    ./usr/lib/nvidia-cuda-toolkit/bin/cicc
    ./usr/lib/nvidia-cuda-toolkit/bin/crt/link.stub
    ./usr/lib/nvidia-cuda-toolkit/bin/crt/prelink.stub
    ./usr/bin/cudafe++
    ./usr/bin/fatbinary
    ./usr/bin/nvlink
    ./usr/bin/bin2c
    ./usr/bin/__nvcc_device_query
)
DEB_DEV_FILES=(
    ./usr/lib/x86_64-linux-gnu/libcudart_static.a
    ./usr/lib/x86_64-linux-gnu/libcudadevrt.a
    ./usr/lib/x86_64-linux-gnu/libculibos.a
    ./usr/lib/x86_64-linux-gnu/stubs/libcuda.so
)

# pip against plain PyPI: ignore this machine's pip config, find-links and constraints.
PIP=(env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL -u PIP_CONSTRAINT
     -u PIP_REQUIRE_VIRTUALENV -u PIP_NO_INDEX -u PIP_TARGET -u PIP_PREFIX -u PIP_USER
     PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
     python3 -m pip)

# --------------------------------------------------------------------------- helpers
need_cmds() {
    local c missing=()
    for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
    [ ${#missing[@]} -eq 0 ] || die "missing required command(s): ${missing[*]}"
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# The Debian archive URI this machine's apt already uses (deb822 .sources or
# one-line sources.list). Prints "URI KEYRING".
debian_mirror() {
    if [ -n "${CUDAENV_TESTBED_DEBIAN_MIRROR:-}" ]; then
        echo "$CUDAENV_TESTBED_DEBIAN_MIRROR /usr/share/keyrings/debian-archive-keyring.gpg"
        return
    fi
    python3 - <<'PY'
import glob, os, re, sys
codename = ""
try:
    for line in open("/etc/os-release"):
        if line.startswith("VERSION_CODENAME="):
            codename = line.split("=", 1)[1].strip().strip('"')
except OSError:
    pass
default_key = "/usr/share/keyrings/debian-archive-keyring.gpg"
entries = []  # (uri, suites, signed_by)
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    stanza = {}
    text = open(path).read()
    for block in re.split(r"\n\s*\n", text):
        fields, key = {}, None
        for line in block.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line[0] in " \t" and key:
                fields[key] += " " + line.strip()
                continue
            if ":" in line:
                key, val = line.split(":", 1)
                key = key.strip().lower()
                fields[key] = val.strip()
        if "deb" not in fields.get("types", "").split():
            continue
        if fields.get("enabled", "yes").lower() == "no":
            continue
        for uri in fields.get("uris", "").split():
            entries.append((uri, fields.get("suites", "").split(), fields.get("signed-by", "")))
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    if not os.path.exists(path):
        continue
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        m = re.match(r"deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)", line)
        if not m:
            continue
        opts = m.group(1) or ""
        sb = re.search(r"signed-by=(\S+?)\s*[\]]", opts)
        entries.append((m.group(2), [m.group(3)], sb.group(1) if sb else ""))
def score(e):
    uri, suites, _ = e
    if "security" in uri or "debian" not in uri:
        return -1
    if codename and codename in suites:
        return 2
    if any(not re.search(r"-(security|updates|backports)$", s) for s in suites):
        return 1
    return 0
best = sorted((e for e in entries if score(e) >= 0), key=score, reverse=True)
if not best:
    sys.exit("no Debian archive URI found in /etc/apt sources; set CUDAENV_TESTBED_DEBIAN_MIRROR")
uri, _, key = best[0]
key = key if key.startswith("/") and os.path.exists(key) else default_key
print(uri.rstrip("/"), key)
PY
}

# --------------------------------------------------------------------------- downloads
# fetch_wheels VERSION -> $CACHE/wheels/VERSION (complete wheelhouse for the requirement)
fetch_wheels() {
    local v=$1 req="cuda-toolkit[$EXTRAS]==$META" wh=$CACHE/wheels/$1
    if [ -f "$wh/.complete" ] && [ "$(cat "$wh/.complete")" = "$req" ]; then
        log "wheelhouse cached: $wh"
        return
    fi
    step "pip download $req"
    rm -rf -- "$wh.tmp"
    CLEANUP+=("$wh.tmp")
    mkdir -p "$wh.tmp"
    "${PIP[@]}" download -q --no-cache-dir --only-binary=:all: -d "$wh.tmp" "$req" \
        || die "pip download of '$req' from PyPI failed"
    echo "$req" > "$wh.tmp/.complete"
    rm -rf -- "$wh"
    mv -- "$wh.tmp" "$wh"
}

# fetch_debs -> $CACHE/debs/$SUITE/extract (the few needed files of the two .debs)
fetch_debs() {
    local base=$CACHE/debs/$SUITE
    local ex=$base/extract want="nvidia-cuda-toolkit=$DEB_TOOLKIT nvidia-cuda-dev=$DEB_DEV"
    if [ -f "$ex/.complete" ] && [ "$(cat "$ex/.complete")" = "$want" ]; then
        log "Debian extraction cached: $ex"
        return
    fi
    step "locate Debian mirror"
    need_cmds apt-get dpkg-deb tar sha256sum
    local mirror keyring
    read -r mirror keyring < <(debian_mirror) || true
    [ -n "${mirror:-}" ] || die "could not determine the Debian mirror URI"
    log "Debian mirror: $mirror ($SUITE non-free)"

    step "apt-get update (private state, $SUITE non-free)"
    local A=$CACHE/apt/$SUITE
    mkdir -p "$A/parts" "$A/prefs" "$A/lists/partial" "$A/cache/archives/partial"
    : > "$A/status"
    echo "deb [signed-by=$keyring] $mirror $SUITE non-free" > "$A/sources.list"
    local APT=(-o "Dir::Etc::SourceList=$A/sources.list" -o "Dir::Etc::SourceParts=$A/parts"
               -o "Dir::Etc::Preferences=$A/prefs/none" -o "Dir::Etc::PreferencesParts=$A/prefs"
               -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
               -o "Dir::Cache=$A/cache" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
               -o "APT::Sandbox::User=root" -q)
    apt-get "${APT[@]}" update >"$A/update.log" 2>&1 \
        || { cat "$A/update.log" >&2; die "apt-get update for $mirror $SUITE non-free failed"; }
    if grep -qE '^(W|E):' "$A/update.log"; then grep -E '^(W|E):' "$A/update.log" >&2; fi
    # apt-get update exits 0 when a fetch fails ("W: Failed to fetch")
    if grep -q '^W: Failed to fetch' "$A/update.log" \
       || ! compgen -G "$A/lists/*_${SUITE}_non-free_binary-amd64_Packages*" >/dev/null; then
        die "apt-get update could not fetch the $SUITE non-free index from $mirror"
    fi

    step "apt-get download nvidia-cuda-toolkit=$DEB_TOOLKIT nvidia-cuda-dev=$DEB_DEV"
    local dl=$base/download
    mkdir -p "$dl"
    # keep partially fetched files out of the way; completed .debs are reused
    ( cd "$dl" && apt-get "${APT[@]}" download \
          "nvidia-cuda-toolkit=$DEB_TOOLKIT" "nvidia-cuda-dev=$DEB_DEV" ) \
        || die "apt-get download failed (are the pinned versions still in $SUITE?)"
    local tkdeb devdeb
    tkdeb=$(ls "$dl/nvidia-cuda-toolkit_${DEB_TOOLKIT}"_*.deb) devdeb=$(ls "$dl/nvidia-cuda-dev_${DEB_DEV}"_*.deb)

    step "extract files from the .debs (xz-decompressing ~1 GB takes ~40 s)"
    local tmp=$base/extract.tmp
    rm -rf -- "$tmp"
    CLEANUP+=("$tmp")
    mkdir -p "$tmp"
    dpkg-deb --fsys-tarfile "$tkdeb" | tar -x -C "$tmp" "${DEB_TOOLKIT_FILES[@]}"
    dpkg-deb --fsys-tarfile "$devdeb" | tar -x -C "$tmp" "${DEB_DEV_FILES[@]}"
    local f
    for f in "${DEB_TOOLKIT_FILES[@]}" "${DEB_DEV_FILES[@]}"; do
        [ -f "$tmp/$f" ] && [ ! -L "$tmp/$f" ] || die "$f missing (or a symlink) in the .deb"
    done
    {
        echo "mirror=$mirror suite=$SUITE component=non-free"
        echo "nvidia-cuda-toolkit=$DEB_TOOLKIT ${tkdeb##*/} sha256=$(sha256_of "$tkdeb") size=$(stat -c %s "$tkdeb")"
        echo "nvidia-cuda-dev=$DEB_DEV ${devdeb##*/} sha256=$(sha256_of "$devdeb") size=$(stat -c %s "$devdeb")"
    } > "$tmp/SOURCE.txt"
    echo "$want" > "$tmp/.complete"
    rm -rf -- "$ex"
    mv -- "$tmp" "$ex"
    if [ "${CUDAENV_TESTBED_KEEP_DEBS:-0}" != 1 ]; then
        rm -rf -- "$dl"
        rm -f "$A"/cache/archives/*.deb
    fi
}

# --------------------------------------------------------------------------- libcuda stub
# gen_libcuda_stub INCLUDE_DIR OUT.so: one `int f(void){return 34;}` per driver entry
# point declared in cuda.h / cudaEGL.h / cudaGL.h / cudaVDPAU.h (+ cuProfiler*), with
# the current (_v2, ...) names and, from a second pass with __CUDA_API_VERSION_INTERNAL,
# the legacy and _ptds/_ptsz names. Checked against NVIDIA's 12.4 stub: every NVIDIA
# symbol except the internal cudbg* debugger hooks is produced.
gen_libcuda_stub() {
    local inc=$1 out=$2 w
    need_cmds gcc python3
    [ -f "$inc/cuda.h" ] || die "no cuda.h in $inc"
    w=$(mktemp -d)
    CLEANUP+=("$w")
    mkdir -p "$w/fake/GL" "$w/fake/EGL" "$w/fake/vdpau"
    # only preprocessing is done, so the window-system headers may be empty
    : > "$w/fake/GL/gl.h"; : > "$w/fake/EGL/egl.h"; : > "$w/fake/EGL/eglext.h"
    : > "$w/fake/EGL/eglplatform.h"; : > "$w/fake/vdpau/vdpau.h"
    {
        local h
        for h in cuda.h cudaEGL.h cudaGL.h cudaVDPAU.h cudaProfiler.h; do
            [ -f "$inc/$h" ] && echo "#include <$h>"
        done
    } > "$w/all.c"
    local i=0 d
    for d in "" "-D__CUDA_API_VERSION_INTERNAL"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        gcc -E -P $d -I"$w/fake" -I"$inc" "$w/all.c" > "$w/pp$i.i"
    done
    python3 - "$w" "$inc" > "$w/stub.c" <<'PY'
import os, re, sys, glob
names = set()
for p in glob.glob(sys.argv[1] + "/pp*.i"):
    names.update(re.findall(r"\bCUresult\s+(cu[A-Za-z0-9_]+)\s*\(", open(p).read()))
# cuProfiler* live in cudaProfiler.h, which the 13.x wheels lack; their typedef header
# (PFN_cuProfilerStart_v4000, ...) is there, and these entry points are unversioned.
prof = os.path.join(sys.argv[2], "cudaProfilerTypedefs.h")
if os.path.exists(prof):
    names.update(re.findall(r"\bPFN_(cuProfiler[A-Za-z]+)_v\d+\b", open(prof).read()))
if len(names) < 300:
    sys.exit("only %d driver entry points found; header parsing failed" % len(names))
print("/* generated by cudaenv tests/testbed/build.sh: CUDA driver API stub.")
print("   Every entry point returns 34 = CUDA_ERROR_STUB_LIBRARY. */")
for n in sorted(names):
    print("int %s(void) { return 34; }" % n)
PY
    gcc -shared -fPIC -O0 -Wl,-soname,libcuda.so.1 -o "$out" "$w/stub.c"
    STUB_NSYMS=$(grep -c '^int ' "$w/stub.c")
    rm -rf -- "$w"
}

# --------------------------------------------------------------------------- assembly
write_nvcc_profile() {   # upstream (NVIDIA) nvcc.profile for the 11.x/12.x layout
    cat > "$1" <<'EOF'

TOP              = $(_HERE_)/..

NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice

LD_LIBRARY_PATH += $(TOP)/lib:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):

INCLUDES        +=  "-I$(TOP)/$(_TARGET_DIR_)/include" $(_SPACE_)

LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)/stubs" "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)"

CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
}

# dist_version STAGE NAME-REGEX -> version of the installed wheel (".postN" stripped)
dist_version() {
    local d
    for d in "$1"/*.dist-info; do
        if [[ ${d##*/} =~ ^($2)-([0-9][^-]*)\.dist-info$ ]]; then
            echo "${BASH_REMATCH[2]}" | sed -E 's/\.post[0-9]+$//'
            return
        fi
    done
    die "no dist-info matching '$2' in the install"
}

# soname_chain LIBDIR NAME FULLVERSION: libNAME.so -> libNAME.so.N -> libNAME.so.FULL
soname_chain() {
    local dir=$1 name=$2 full=$3 sofiles so
    sofiles=$(cd "$dir" && ls "lib$name".so.* 2>/dev/null) || true
    [ "$(echo "$sofiles" | grep -c .)" = 1 ] || die "expected exactly one lib$name.so.* in $dir, got: $sofiles"
    so=$sofiles
    if [ "$so" != "lib$name.so.$full" ]; then
        mv -- "$dir/$so" "$dir/lib$name.so.$full"
        ln -s "lib$name.so.$full" "$dir/$so"
    fi
    ln -sfn "$so" "$dir/lib$name.so"
}

assemble_deb() {   # 11.x / 12.x: wheels + Debian binaries
    local st=$1 tk=$2 nv=$1/nvidia ex=$CACHE/debs/$SUITE/extract
    local tg=$tk/targets/x86_64-linux
    step "assemble from wheels + Debian files"
    mkdir -p "$tk/bin/crt" "$tk/nvvm" "$tg/include" "$tg/lib/stubs"
    local c
    for c in cuda_runtime cuda_nvcc cuda_cccl; do
        [ -d "$nv/$c/include" ] || die "wheel layout changed: no nvidia/$c/include"
        cp -a "$nv/$c/include/." "$tg/include/"
    done
    cp -a "$nv/cuda_runtime/lib/." "$tg/lib/"
    [ -d "$nv/cuda_cccl/lib/cmake" ] && cp -a "$nv/cuda_cccl/lib/cmake" "$tg/lib/"
    cp -a "$nv/cuda_nvcc/nvvm/." "$tk/nvvm/"
    cp -a "$nv/cuda_nvcc/bin/ptxas" "$tk/bin/"
    mkdir -p "$tk/nvvm/bin"
    local d=$ex/usr/lib/nvidia-cuda-toolkit/bin
    cp -a "$d/nvcc" "$tk/bin/"
    cp -a "$d/crt/link.stub" "$d/crt/prelink.stub" "$tk/bin/crt/"
    cp -a "$d/cicc" "$tk/nvvm/bin/"
    cp -a "$ex/usr/bin/cudafe++" "$ex/usr/bin/fatbinary" "$ex/usr/bin/nvlink" \
          "$ex/usr/bin/bin2c" "$ex/usr/bin/__nvcc_device_query" "$tk/bin/"
    d=$ex/usr/lib/x86_64-linux-gnu
    cp -a "$d/libcudart_static.a" "$d/libcudadevrt.a" "$d/libculibos.a" "$tg/lib/"
    cp -a "$d/stubs/libcuda.so" "$tg/lib/stubs/"
    write_nvcc_profile "$tk/bin/nvcc.profile"
    ln -s targets/x86_64-linux/include "$tk/include"
    ln -s targets/x86_64-linux/lib "$tk/lib64"
    find "$tk" -name __init__.py -delete
    # nvvm/lib64/libnvvm.so carries SONAME libnvvm.so.N
    local sn
    sn=$(readelf -d "$tk/nvvm/lib64/libnvvm.so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    [ -n "$sn" ] && [ "$sn" != libnvvm.so ] && ln -s libnvvm.so "$tk/nvvm/lib64/$sn"
    chmod 755 "$tk"/bin/* "$tk/nvvm/bin/cicc" 2>/dev/null || true
    chmod 644 "$tk/bin/crt/"*
    local cv
    cv=$(dist_version "$st" 'nvidia_cuda_runtime_cu[0-9]+')
    soname_chain "$tg/lib" cudart "$cv"
}

# install_wheel VERSION TK TMP: 13.x is what `cudaenv install` makes from the wheelhouse
# (a directory of wheels is one of its sources): the same files, NVIDIA's layout, version.json
# and the generated libcuda stub. Its profile and caches go to TMP, not the user's.
install_wheel() {
    local v=$1 tk=$2 tmp=$3
    step "cudaenv install $META --parts $EXTRAS --source $CACHE/wheels/$v"
    mkdir -p "$tmp/xdg"
    env XDG_CONFIG_HOME="$tmp/xdg/config" XDG_CACHE_HOME="$tmp/xdg/cache" XDG_DATA_HOME="$tmp/xdg/data" \
        CUDAENV_INSTALL_CACHE="$tmp/xdg/downloads" PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}" \
        python3 -m cudaenv install "$META" --source "$CACHE/wheels/$v" --parts "$EXTRAS" --prefix "$tk" \
        >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; die "cudaenv install failed"; }
    rm -rf -- "$tmp/xdg"
    STUB_NSYMS=$(nm -D --defined-only "$tk/lib/stubs/libcuda.so" | grep -c ' T ') \
        || die "no generated lib/stubs/libcuda.so"
    log "cudaenv install: $(grep -E '^cudaenv: installed CUDA' "$tmp/install.log" | cut -d' ' -f2-)"
}

write_version_json() {   # NVIDIA's schema, from the wheels' metadata
    python3 - "$1" "$META" <<'PY'
import json, os, re, sys
tk, label = sys.argv[1], sys.argv[2]
names = {  # wheel distribution name (minus -cuNN) -> (key, NVIDIA's component name)
    "nvidia-cuda-nvcc": ("cuda_nvcc", "CUDA NVCC"),
    "nvidia-cuda-runtime": ("cuda_cudart", "CUDA Runtime (cudart)"),
    "nvidia-cuda-cccl": ("cuda_cccl", "CUDA C++ Core Compute Libraries"),
    "nvidia-cuda-nvrtc": ("cuda_nvrtc", "CUDA NVRTC"),
    "nvidia-cuda-crt": ("cuda_crt", "CUDA CRT"),
    "nvidia-nvvm": ("libnvvm", "CUDA NVVM"),
    "nvidia-cuda-culibos": ("cuda_culibos", "CUDA culibos"),
}
out = {"cuda": {"name": "CUDA SDK", "version": label}}
di = os.path.join(tk, "dist-info")
for d in sorted(os.listdir(di)):
    meta = {}
    for line in open(os.path.join(di, d, "METADATA"), encoding="utf-8"):
        if not line.strip():
            break
        k, _, v = line.partition(":")
        meta.setdefault(k.strip(), v.strip())
    name = re.sub(r"-cu\d+$", "", meta["Name"].lower().replace("_", "-"))
    if name == "cuda-toolkit":
        if meta["Version"] != label:
            sys.exit("meta-wheel version %s != %s" % (meta["Version"], label))
        continue
    if name not in names:
        continue
    key, pretty = names[name]
    out[key] = {"name": pretty, "version": re.sub(r"\.post\d+$", "", meta["Version"])}
for need in ("cuda_nvcc", "cuda_cudart", "cuda_cccl"):
    if need not in out:
        sys.exit("version.json: no metadata for " + need)
with open(os.path.join(tk, "version.json"), "w") as f:
    f.write(json.dumps(out, indent=3, sort_keys=True, separators=(",", " : ")) + "\n")
PY
}

write_assembly() {
    local v=$1 tk=$2 wh=$CACHE/wheels/$1 f
    {
        echo "cudaenv test-bed toolkit: CUDA $v (release label $META)"
        echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) by tests/testbed/build.sh (recipe rev $RECIPE_REV)"
        echo "python: $(python3 --version 2>&1); $("${PIP[@]}" --version | cut -d' ' -f1-2)"
        echo
        echo "PyPI wheels: pip download 'cuda-toolkit[$EXTRAS]==$META' (plain PyPI, no local config)"
        for f in "$wh"/*.whl; do echo "  ${f##*/}  sha256=$(sha256_of "$f")"; done
        echo "  wheel metadata: dist-info/"
        echo
        if [ "$KIND" = deb ]; then
            echo "Debian non-free .debs (NVIDIA's unmodified binaries):"
            sed 's/^/  /' "$CACHE/debs/$SUITE/extract/SOURCE.txt"
            echo
            echo "Where each piece came from:"
            echo "  bin/nvcc, bin/crt/{link,prelink}.stub, nvvm/bin/cicc   <- deb nvidia-cuda-toolkit /usr/lib/nvidia-cuda-toolkit/bin/"
            echo "  bin/{cudafe++,fatbinary,nvlink,bin2c,__nvcc_device_query} <- deb nvidia-cuda-toolkit /usr/bin/"
            echo "  lib64/{libcudart_static.a,libcudadevrt.a,libculibos.a}   <- deb nvidia-cuda-dev /usr/lib/x86_64-linux-gnu/"
            echo "  lib64/stubs/libcuda.so (NVIDIA's stub, SONAME libcuda.so.1) <- deb nvidia-cuda-dev /usr/lib/x86_64-linux-gnu/stubs/"
            echo "  bin/ptxas, nvvm/{lib64,libdevice,include}, include/crt     <- wheel nvidia-cuda-nvcc"
            echo "  include/*, lib64/libcudart.so.*                           <- wheel nvidia-cuda-runtime"
            echo "  include/{thrust,cub,cuda,nv}, lib64/cmake                 <- wheel nvidia-cuda-cccl"
            echo "  bin/nvcc.profile: NVIDIA's upstream text (Debian's hard-codes /usr)"
        else
            echo "Assembled by: cudaenv install $META --parts $EXTRAS --source cache/wheels/$v (cudaenv-install.json)"
            echo "Where each piece came from:"
            echo "  everything except the items below                        <- wheels, nvidia/cu13/ moved to the root"
            echo "  lib/cmake                                                <- wheel nvidia-cuda-cccl (cccl/lib/cmake)"
            echo "  lib/stubs/libcuda.so: GENERATED from include/cuda.h, cudaEGL.h, cudaGL.h, cudaVDPAU.h"
            echo "    ($STUB_NSYMS entry points, each returns 34 = CUDA_ERROR_STUB_LIBRARY; SONAME libcuda.so.1)"
        fi
        echo "  symlinks created: lib64, include/targets links, libcudart.so soname chain, libnvvm links"
        echo "  version.json: NVIDIA's format, 'cuda' = the meta-wheel's version (13.x: written by cudaenv install)"
    } > "$tk/ASSEMBLY.txt"
}

verify_toolkit() {
    local v=$1 tk=$2 p
    step "verify"
    for p in bin/nvcc bin/nvcc.profile bin/ptxas bin/cudafe++ bin/fatbinary bin/nvlink \
             bin/crt/link.stub nvvm/bin/cicc nvvm/libdevice/libdevice.10.bc \
             include/cuda.h include/cuda_runtime.h include/crt/host_config.h \
             lib64/libcudart.so lib64/libcudart_static.a lib64/libcudadevrt.a \
             lib64/stubs/libcuda.so targets/x86_64-linux/include/cuda.h version.json; do
        [ -e "$tk/$p" ] || die "toolkit incomplete: $p missing"
    done
    [ -e "$tk/include/thrust/version.h" ] || [ -e "$tk/include/cccl/thrust/version.h" ] \
        || die "toolkit incomplete: thrust headers missing"
    local out
    out=$(readelf -d "$tk/lib64/stubs/libcuda.so")
    grep -q 'SONAME.*\[libcuda\.so\.1\]' <<<"$out" || die "lib64/stubs/libcuda.so has no SONAME libcuda.so.1"
    out=$("$tk/bin/nvcc" --version) || die "bin/nvcc --version failed"
    grep -q "release $v," <<<"$out" || die "nvcc reports '$(tail -n2 <<<"$out" | head -n1)', expected release $v"
}

build_one() {
    local v=$1 dest=$TESTBED/cuda-$1
    CUR="cuda-$v"
    recipe "$v" || die "unsupported version '$v' (supported: $SUPPORTED)"
    local stamp="recipe=$RECIPE_REV version=$v meta=$META extras=$EXTRAS"
    if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$stamp" ]; then
        log "complete, skipped ($dest)"
        return
    fi
    local t0=$SECONDS
    need_cmds python3 gcc readelf sha256sum
    [ "$(uname -m)" = x86_64 ] || die "only x86_64 Linux is supported"
    fetch_wheels "$v"
    [ "$KIND" = deb ] && fetch_debs

    local tmp
    tmp=$(mktemp -d "$TESTBED/.cuda-$v.build.XXXXXX")
    CLEANUP+=("$tmp")
    local tk=$tmp/cuda-$v
    STUB_NSYMS=""
    if [ "$KIND" = wheel ]; then
        install_wheel "$v" "$tk" "$tmp"
    else
        step "pip install --no-index into a staging dir"
        "${PIP[@]}" install -q --no-compile --no-index --find-links "$CACHE/wheels/$v" \
            --target "$tmp/stage" "cuda-toolkit[$EXTRAS]==$META" \
            || die "pip install from the wheelhouse failed"
        assemble_deb "$tmp/stage" "$tk"
        mkdir -p "$tk/dist-info"
        mv -- "$tmp/stage"/*.dist-info "$tk/dist-info/"
        step "write version.json"
        write_version_json "$tk"
    fi
    step "write ASSEMBLY.txt"
    write_assembly "$v" "$tk"
    verify_toolkit "$v" "$tk"

    step "move into place"
    echo "$stamp" > "$tk/.complete"
    if [ -e "$dest" ] || [ -L "$dest" ]; then
        mv -- "$dest" "$tmp/old"     # stale or outdated toolkit: replaced, then deleted
    fi
    mv -- "$tk" "$dest"
    rm -rf -- "$tmp"
    log "built $dest in $((SECONDS - t0)) s ($(du -sh "$dest" | cut -f1))"
}

# --------------------------------------------------------------------------- main
main() {
    case "${1:-}" in
        -h|--help) sed -n '2,/^set -Eeuo/p' "$0" | sed '$d; s/^# \{0,1\}//'; return ;;
        --list) echo "$SUPPORTED"; return ;;
        --gen-libcuda-stub)
            [ $# -eq 3 ] || die "usage: $PROG --gen-libcuda-stub INCLUDE_DIR OUT.so"
            STEP="generate libcuda stub"
            gen_libcuda_stub "$2" "$3"
            log "wrote $3 ($STUB_NSYMS entry points)"
            return ;;
        -*) die "unknown option $1" ;;
    esac
    local versions=("$@")
    [ ${#versions[@]} -gt 0 ] || versions=("${DEFAULT_VERSIONS[@]}")
    local v
    for v in "${versions[@]}"; do recipe "$v" || die "unsupported version '$v' (supported: $SUPPORTED)"; done
    mkdir -p "$TESTBED" "$CACHE"
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$TESTBED/.lock"
        flock -w 3600 9 || die "another build.sh holds $TESTBED/.lock"
    fi
    for v in "${versions[@]}"; do build_one "$v"; done
    CUR=""
    log "done: ${versions[*]} in $TESTBED"
}

main "$@"
