#!/usr/bin/env bash
# Build the cached virtual environment holding a real CUDA 13 *wheel toolkit* for cudaenv's tests.
#
#   bash tests/wheeltk.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/venv-cu13tk
#   a plain venv + pip install 'cuda-toolkit[nvcc,cudart,cccl,crt,nvvm]==13.5.0': NVIDIA's wheels
#   from PyPI put a complete compiler into lib/python3.X/site-packages/nvidia/cu13/
#   (bin/nvcc + nvcc.profile, include, include/cccl, lib, nvvm) and nothing else.
#
# The wheels come from the test bed's wheelhouse (cache/wheels/13.5, which tests/testbed/build.sh
# downloads from PyPI with 'pip download'; it is fetched here if missing), so a rebuild needs no
# network. Measured here (Debian 12, 2 cores, other jobs running): cold 6-17 s, 372 MiB;
# warm (marker matches) 0.01 s: pure shell tests.
#
# A venv is not relocatable (absolute shebangs), so it is built in place: an incomplete one (no
# marker) is deleted and rebuilt, and the marker .cudaenv-complete is written last.
set -Eeuo pipefail

RECIPE_REV=1
VERSION=13.5
REQ='cuda-toolkit[nvcc,cudart,cccl,crt,nvvm]==13.5.0'
TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
VENV=$TESTBED/venv-cu13tk
WHEELS=$TESTBED/cache/wheels/$VERSION
MARKER=.cudaenv-complete
STAMP="rev=$RECIPE_REV req=$REQ"
STEP=startup

log() { printf '%s\n' "[wheeltk] $*" >&2; }
die() { printf '%s\n' "[wheeltk] ERROR in step '$STEP': $*" >&2; exit 1; }
step() { STEP="$*"; log "-- $*"; }
trap 'rc=$?; printf "%s\n" "[wheeltk] ERROR in step '"'"'$STEP'"'"': command failed (exit $rc): $BASH_COMMAND" >&2; exit $rc' ERR

if [ -f "$VENV/$MARKER" ] && [ -x "$VENV/bin/python" ] && [ "$(<"$VENV/$MARKER")" = "$STAMP" ]; then
    log "complete, skipped ($VENV)"
    exit 0
fi
mkdir -p "$TESTBED"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$TESTBED/.wheeltk.lock"
    flock -w 3600 9 || die "another wheeltk.sh holds $TESTBED/.wheeltk.lock"
fi
t0=$SECONDS

if [ ! -f "$WHEELS/.complete" ]; then
    step "fetch the $VERSION wheelhouse (tests/testbed/build.sh $VERSION)"
    bash "$(dirname "$0")/testbed/build.sh" "$VERSION"
fi
[ -f "$WHEELS/.complete" ] || die "no wheelhouse at $WHEELS"

step "remove incomplete or outdated $VENV"
rm -rf -- "$VENV"

step "create the venv"
py=${CUDAENV_VENV_PYTHON:-python3}
base=$("$py" -c 'import sys, venv; print(sys.executable)') \
    || die "'$py' cannot run or has no venv module (Debian: apt-get install python3-venv)"
"$base" -m venv "$VENV"

step "pip install $REQ (from the wheelhouse, no index)"
env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL -u PIP_CONSTRAINT -u PIP_REQUIRE_VIRTUALENV \
    -u PIP_TARGET -u PIP_PREFIX -u PIP_USER PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 \
    "$VENV/bin/python" -m pip install -q --no-index --find-links "$WHEELS" "$REQ" \
    || die "pip could not install $REQ from $WHEELS"

step "check the layout"
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
root=$site/nvidia/cu13
for p in bin/nvcc bin/nvcc.profile include/cuda_runtime.h include/cccl lib/libcudart.so.13 nvvm/bin/cicc; do
    [ -e "$root/$p" ] || die "wheel layout changed: $root/$p missing"
done
"$root/bin/nvcc" --version | grep -q "release $VERSION," || die "$root/bin/nvcc is not release $VERSION"

printf '%s\n' "$STAMP" > "$VENV/$MARKER.tmp"
mv -- "$VENV/$MARKER.tmp" "$VENV/$MARKER"
log "built $VENV in $((SECONDS - t0)) s ($(du -sh "$VENV" | cut -f1))"
