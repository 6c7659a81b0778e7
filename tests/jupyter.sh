#!/usr/bin/env bash
# Build the cached Jupyter environment the `cudaenv kernel` tests start real kernels with.
#
#   bash tests/jupyter.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/venv-jupyter
#   ipykernel (and with it jupyter_client, jupyter_core) from PyPI, pinned below, plus a
#   .pth line that puts venv-cu's site-packages after the venv's own: the kernel's python
#   imports the test bed's torch 2.14.1 (CUDA 13.0 build) without a second 5 GB copy, and
#   venv-cu itself is never modified. A CUDA build, because a CPU-only torch sets
#   torch.utils.cpp_extension.CUDA_HOME to None whatever the environment says, and that value
#   is what the tests read. Needs venv-cu (tests/venvs.sh cu) first.
#
# Cold: about 15 s (pip, from PyPI). Warm (marker matches the recipe): pure shell tests,
# well under a second. The marker .cudaenv-complete is written last; an incomplete or
# outdated venv is deleted and rebuilt (a venv is not relocatable: built in place).
set -Eeuo pipefail

IPYKERNEL=7.4.0
JUPYTER_CLIENT=8.10.0
RECIPE="rev=1 ipykernel==$IPYKERNEL jupyter_client==$JUPYTER_CLIENT +venv-cu.pth"
TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
VENV=$TESTBED/venv-jupyter
CU=$TESTBED/venv-cu
MARKER=.cudaenv-complete

log() { printf '%s\n' "[jupyter] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ -f "$CU/$MARKER" ] || die "$CU is missing or incomplete: run bash tests/venvs.sh cu first"
mkdir -p "$TESTBED"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$TESTBED/.jupyter.lock"
    flock -w 1800 9 || die "another tests/jupyter.sh holds $TESTBED/.jupyter.lock"
fi
if [ -f "$VENV/$MARKER" ] && [ -x "$VENV/bin/python" ] && [ "$(<"$VENV/$MARKER")" = "$RECIPE" ]; then
    log "complete, skipped ($VENV)"
    exit 0
fi

t0=$SECONDS
rm -rf -- "$VENV"
# venv-cu's own interpreter is the base: same python version, so its site-packages fits.
base=$("$CU/bin/python" -c 'import sys; print(sys._base_executable)')
log "creating $VENV from $base"
"$base" -m venv "$VENV"
PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore \
    "$VENV/bin/python" -m pip install -q "ipykernel==$IPYKERNEL" "jupyter_client==$JUPYTER_CLIENT" 2>&1 >/dev/null \
    | { grep -v "is ignored: it is neither a file nor a directory" >&2 || true; }
own=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cu_site=$("$CU/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\n' "$cu_site" > "$own/cudaenv-testbed-venv-cu.pth"
"$VENV/bin/python" - <<'EOF' || die "the jupyter venv cannot import ipykernel, jupyter_client and torch"
import warnings
warnings.simplefilter("ignore")
import ipykernel, jupyter_client, torch
print("ipykernel", ipykernel.__version__, "jupyter_client", jupyter_client.__version__, "torch", torch.__version__)
EOF
PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip freeze --all > "$VENV/cudaenv-freeze.txt"
printf '%s\n' "$RECIPE" > "$VENV/$MARKER.tmp"
mv -- "$VENV/$MARKER.tmp" "$VENV/$MARKER"
log "built $VENV in $((SECONDS - t0)) s"
