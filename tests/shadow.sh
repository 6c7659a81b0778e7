#!/usr/bin/env bash
# Build the cached "shadowed wheels" bed for the loader_path tests (issue 11's defect, reproduced
# with NVIDIA's own wheels from the registry):
#
#   bash tests/shadow.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/shadow
#   venv/          a virtualenv holding nvidia-cusparse-cu12 12.3.1.170 and nvidia-nvjitlink-cu12
#                  12.4.127, installed by its own pip (real RECORDs, real RUNPATH $ORIGIN/../../nvjitlink/lib),
#                  and nvidia-cuda-nvcc-cu12 12.6.85 (its bin/ptxas is newer than the test bed's 12.4)
#   cuda-12.1/lib64/  an older toolkit's lib64 as NVIDIA lays it out: libnvJitLink.so -> .so.12 ->
#                  .so.12.1.105, the real library from nvidia-nvjitlink-cu12 12.1.105 (the tests
#                  link it into a toolkit tree of their own)
#   cuda-13.0/lib64/  the same with the real libnvJitLink 13.0.88 (nvidia-nvjitlink 13.0.88), older
#                  than the 13.5.37 that the test bed's CUDA torch venv (venv-cu) ships
#   wheels/        the three downloaded wheels (a warm rebuild is offline)
#
# libcusparse.so.12 12.3 needs __nvJitLinkComplete_12_4 from libnvJitLink.so.12; the 12.1 copy lacks
# it, so with cuda-12.1/lib64 first on LD_LIBRARY_PATH loading cusparse fails with that undefined
# symbol. Cold: about 250 MB of downloads; warm: pure shell tests.
set -Eeuo pipefail

TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
OUT=$TESTBED/shadow
WANT=(nvidia-cusparse-cu12==12.3.1.170 nvidia-nvjitlink-cu12==12.4.127 nvidia-cuda-nvcc-cu12==12.6.85)
OLD=nvidia-nvjitlink-cu12==12.1.105
OLD13=nvidia-nvjitlink==13.0.88   # older than the 13.5.37 the test bed's torch (venv-cu) ships
STAMP="rev=5 ${WANT[*]} $OLD $OLD13"
MARKER=.cudaenv-complete

log() { printf '[shadow] %s\n' "$*" >&2; }

if [ -f "$OUT/$MARKER" ] && [ "$(<"$OUT/$MARKER")" = "$STAMP" ]; then
    log "complete, skipped ($OUT)"
    exit 0
fi
mkdir -p "$OUT/wheels"
py=$(python3 -c 'import sys; print(sys.executable)')
for req in "${WANT[@]}" "$OLD" "$OLD13"; do   # one call each: pip refuses two versions of one project in a call
    name=${req%%==*}; ver=${req##*==}
    ls "$OUT/wheels/${name//-/_}-$ver-"*.whl >/dev/null 2>&1 && continue
    log "download $req"
    "$py" -m pip download -q --disable-pip-version-check --no-deps -d "$OUT/wheels" "$req" 2>&1 \
        | grep -v "is ignored: it is neither a file nor a directory" >&2 || true
    ls "$OUT/wheels/${name//-/_}-$ver-"*.whl >/dev/null 2>&1 || { log "ERROR: could not download $req"; exit 1; }
done

rm -rf -- "$OUT/venv" "$OUT/cuda-12.1" "$OUT/cuda-13.0" "$OUT/tmp"  # a rebuild starts clean
log "venv with ${WANT[*]}"
"$py" -m venv "$OUT/venv"
new=()
for req in "${WANT[@]}"; do name=${req%%==*}; ver=${req##*==}; new+=("$OUT/wheels/${name//-/_}-$ver-"*.whl); done
"$OUT/venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-index "${new[@]}"

# toolkit_lib TOOLKIT WHEEL_STEM MEMBER SONAME VERSION: TOOLKIT/lib64 as NVIDIA lays it out
# (libX.so -> libX.so.N -> libX.so.N.full), the library taken from the wheel unchanged.
toolkit_lib() {
    local dir=$OUT/$1/lib64 tmp=$OUT/tmp full=${4%.so.*}.so.$5
    log "$1 lib64 with the real $4 $5"
    rm -rf -- "$tmp" && mkdir -p "$tmp" "$dir"
    "$py" -m zipfile -e "$OUT/wheels/$2-"*.whl "$tmp"
    cp "$tmp/$3" "$dir/$full"
    ln -s "$full" "$dir/$4"
    ln -s "$4" "$dir/${4%.so.*}.so"
    rm -rf -- "$tmp"
}
toolkit_lib cuda-12.1 nvidia_nvjitlink_cu12-12.1.105 nvidia/nvjitlink/lib/libnvJitLink.so.12 libnvJitLink.so.12 12.1.105
toolkit_lib cuda-13.0 nvidia_nvjitlink-13.0.88 nvidia/cu13/lib/libnvJitLink.so.13 libnvJitLink.so.13 13.0.88
printf '%s' "$STAMP" > "$OUT/$MARKER"
log "done ($OUT)"
