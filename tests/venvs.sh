#!/usr/bin/env bash
# Build the cached PyTorch virtual environments that cudaenv's tests probe.
#
#   bash tests/venvs.sh [cpu|cu ...]      default: cpu cu
#
# Output root (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
#   venv-cpu/  torch 2.13.0+cpu (torch.version.cuda is None)   + ninja setuptools numpy
#   venv-cu/   torch 2.14.1 CUDA 13.0 build (torch.version.cuda == '13.0')
#              + ninja setuptools numpy; pulls cuda-toolkit[...]==13.0.x, cudnn/nccl/
#              nvshmem/cusparselt -cu13, cuda-bindings, triton
#
# Measured on this machine (Debian 12, 2 cores, no GPU, python 3.11.7, other jobs running):
#   venv-cpu  cold 67-83 s   967 MiB  (pip install itself 69 s; torch dir 754 MiB)
#   venv-cu   cold 102 s     5.5 GiB  (nvidia/ 3.2 GiB, torch 1.2 GiB, triton 0.9 GiB)
#   both cold in one run: 169 s wall. Both complete (warm): 0.012 s (pure shell
#   tests: no python, no pip, no network). Most wheels come from local disk; the
#   small pure-Python dependencies and numpy come from PyPI.
#
# How it works:
#   * The base interpreter is this machine's python3 (resolved once to its real
#     sys.executable, so a pyenv shim is not baked into the venv). Override with
#     CUDAENV_VENV_PYTHON=/path/to/python3.
#   * pip is each venv's own pip with the machine's pip configuration. Here that
#     means: torch 2.13.0+cpu comes from a local wheel (/opt/wheels), torch 2.14.1
#     and most CUDA wheels from a local file index, and /etc/xdg/pip caps torch at
#     <=2.14.1 (left alone). On a machine without the local CPU wheel set
#     PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu.
#   * numpy is installed only to silence torch's "Failed to initialize NumPy"
#     warning; if it cannot be installed the venv is still built.
#   * A venv is NOT relocatable (its console scripts have absolute shebangs), so it
#     is built in place: an incomplete venv (no marker) is deleted and rebuilt from
#     scratch, and the marker .cudaenv-complete is written last. A venv whose marker
#     matches the recipe is skipped with pure shell tests (well under a second).
#   * pip freeze of each venv is kept in <venv>/cudaenv-freeze.txt.
set -Eeuo pipefail

RECIPE_REV=1
DEFAULT_KINDS=(cpu cu)
TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
PROG=${0##*/}
MARKER=.cudaenv-complete

STEP="startup"
CUR=""

log() { printf '%s\n' "[venvs${CUR:+ $CUR}] $*" >&2; }
die() { printf '%s\n' "[venvs${CUR:+ $CUR}] ERROR in step '$STEP': $*" >&2; exit 1; }
step() { STEP="$*"; log "-- $*"; }
on_err() {
    local rc=$?
    printf '%s\n' "[venvs${CUR:+ $CUR}] ERROR in step '$STEP': command failed (exit $rc): $BASH_COMMAND" >&2
    exit "$rc"
}
trap on_err ERR

# recipe KIND -> TORCH_SPEC, WANT_VERSION (torch.__version__ without +local), WANT_CUDA
recipe() {
    case "$1" in
        cpu) TORCH_SPEC='torch==2.13.0+cpu' WANT_VERSION=2.13.0 WANT_CUDA=None ;;
        cu)  TORCH_SPEC='torch==2.14.1'     WANT_VERSION=2.14.1 WANT_CUDA=13.0 ;;
        *) return 1 ;;
    esac
    PACKAGES=("$TORCH_SPEC" ninja setuptools)
    STAMP="rev=$RECIPE_REV packages=${PACKAGES[*]} +numpy"
}

# The real interpreter behind `python3` (a pyenv shim or wrapper resolves here).
base_python() {
    local py=${CUDAENV_VENV_PYTHON:-python3}
    command -v "$py" >/dev/null 2>&1 || die "no '$py' on PATH"
    "$py" -c 'import sys, venv; print(sys.executable)' \
        || die "'$py' cannot run or has no venv module (Debian: apt-get install python3-venv)"
}

# pip_install PYTHON REQ... : that venv's pip, quiet. This machine's pip config names a
# file index that lacks most projects; pip warns once per project, so that one warning
# is filtered out (everything else, errors included, still reaches stderr).
pip_install() {
    local py=$1; shift
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore \
        "$py" -m pip install -q "$@" 2>&1 >/dev/null \
        | { grep -v "is ignored: it is neither a file nor a directory" >&2 || true; }
}

build_one() {
    local kind=$1 venv py t0
    recipe "$kind"
    venv=$TESTBED/venv-$kind
    CUR=venv-$kind
    if [ -f "$venv/$MARKER" ] && [ -x "$venv/bin/python" ] && [ "$(<"$venv/$MARKER")" = "$STAMP" ]; then
        log "complete, skipped ($venv)"
        return
    fi
    t0=$SECONDS

    step "remove incomplete or outdated $venv"
    rm -rf -- "$venv"

    if [ -z "$BASE_PY" ]; then
        step "resolve the base interpreter"
        BASE_PY=$(base_python)
        log "base interpreter: $BASE_PY ($("$BASE_PY" -c 'import platform; print(platform.python_version())'))"
    fi

    step "create the venv ($BASE_PY -m venv $venv)"
    "$BASE_PY" -m venv "$venv"
    py=$venv/bin/python

    step "pip install ${PACKAGES[*]}"
    pip_install "$py" "${PACKAGES[@]}" \
        || die "pip could not install ${PACKAGES[*]} into $venv (see pip's message above)"
    log "installed in $((SECONDS - t0)) s"

    step "pip install numpy (optional)"
    if ! pip_install "$py" numpy; then
        log "numpy not installed: torch will warn 'Failed to initialize NumPy' (harmless)"
    fi

    step "verify torch ($TORCH_SPEC, torch.version.cuda == $WANT_CUDA)"
    "$py" - "$WANT_VERSION" "$WANT_CUDA" <<'EOF' || die "torch in $venv is not the expected build"
import sys, warnings
warnings.simplefilter("ignore")
import torch
want_version, want_cuda = sys.argv[1], sys.argv[2]
got = (torch.__version__.split("+")[0], str(torch.version.cuda))
print("torch %s, torch.version.cuda=%s" % (torch.__version__, torch.version.cuda), file=sys.stderr)
if got != (want_version, want_cuda):
    sys.exit("expected torch %s with cuda %s, got %s with cuda %s" % (want_version, want_cuda, *got))
EOF

    step "record pip freeze and mark complete"
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$py" -m pip freeze --all > "$venv/cudaenv-freeze.txt"
    printf '%s\n' "$STAMP" > "$venv/$MARKER.tmp"
    mv -- "$venv/$MARKER.tmp" "$venv/$MARKER"
    log "built $venv in $((SECONDS - t0)) s ($(du -sh "$venv" | cut -f1))"
}

main() {
    case "${1:-}" in
        -h|--help) sed -n '2,/^set -Eeuo/p' "$0" | sed '$d; s/^# \{0,1\}//'; return ;;
        -*) die "unknown option $1 (usage: $PROG [cpu|cu ...])" ;;
    esac
    local kinds=("$@") k
    [ ${#kinds[@]} -gt 0 ] || kinds=("${DEFAULT_KINDS[@]}")
    for k in "${kinds[@]}"; do recipe "$k" || die "unknown venv kind '$k' (known: ${DEFAULT_KINDS[*]})"; done
    mkdir -p "$TESTBED"
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$TESTBED/.venvs.lock"
        flock -w 3600 9 || die "another $PROG holds $TESTBED/.venvs.lock"
    fi
    BASE_PY=""
    for k in "${kinds[@]}"; do build_one "$k"; done
    CUR=""
    log "done: ${kinds[*]} in $TESTBED"
}

main "$@"
