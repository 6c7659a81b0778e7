#!/usr/bin/env bash
# Fetch NVIDIA's real cuDNN and NCCL wheels for the add-on tests (tests/test_addons.py), once.
#
#   bash tests/addons.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/addons/wheels
#   nvidia_cudnn_cu13-9.24.0.43-…whl  (553 MB, 1.0 GB unpacked)
#   nvidia_nccl_cu13-2.30.7-…whl      (216 MB, 253 MB unpacked)
# the CUDA 13 builds matching the test bed's 13.5 toolkit (and the versions torch 2.14.1, the
# test bed's venv-cu, pulls in, so a loader_path test meets the same sonames). The tests install
# from this directory (`--source DIR`), never from the network. No CUDA 12 wheel is fetched:
# the wrong-major refusal puts this CUDA 13 cuDNN beside the test bed's CUDA 12.4 toolkit.
# Cold: 769 MB from PyPI (pip download, one wheel per call); warm: two stats.
set -Eeuo pipefail

TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
OUT=$TESTBED/addons/wheels
WANT=(nvidia-cudnn-cu13==9.24.0.43 nvidia-nccl-cu13==2.30.7)
STAMP="rev=1 ${WANT[*]}"
MARKER=.cudaenv-complete

log() { printf '[addons] %s\n' "$*" >&2; }

if [ -f "$OUT/$MARKER" ] && [ "$(<"$OUT/$MARKER")" = "$STAMP" ]; then
    log "complete, skipped ($OUT)"
    exit 0
fi
mkdir -p "$OUT"
rm -f -- "$OUT/$MARKER"
py=${CUDAENV_VENV_PYTHON:-python3}
for req in "${WANT[@]}"; do
    name=${req%%==*}; ver=${req##*==}
    ls "$OUT/${name//-/_}-$ver-"*.whl >/dev/null 2>&1 && continue
    log "download $req"
    "$py" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
        -d "$OUT" "$req" 2>&1 \
        | grep -v "is ignored: it is neither a file nor a directory" >&2 || true
    ls "$OUT/${name//-/_}-$ver-"*.whl >/dev/null 2>&1 || { log "ERROR: could not download $req"; exit 1; }
done
printf '%s' "$STAMP" > "$OUT/$MARKER"
log "done ($OUT: $(du -sh "$OUT" | cut -f1))"
