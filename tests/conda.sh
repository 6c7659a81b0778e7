#!/usr/bin/env bash
# Build the cached real conda that tests/test_conda_hooks.py activates environments with.
#
#   bash tests/conda.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/conda
#   a venv that is conda's base prefix: conda 26.7.1 from the wheel in ../shared/wheels
#   (beside the clone; see its README.md) plus the dependencies that README lists.
#
# The tests give conda an isolated HOME with a .condarc (solver: classic, offline: true) and
# create their empty environments with `conda create -y -p`; nothing here touches ~/.condarc.
# A venv is not relocatable, so an incomplete one (no marker) is deleted and rebuilt; the
# marker .cudaenv-complete (the recipe) is written last, after `conda init` (without which
# conda 26 refuses every command). Warm: pure shell tests, no python.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
VENV=$TESTBED/conda
WHEEL=../shared/wheels/conda-26.7.1-py3-none-any.whl
DEPS=(archspec backports.zstd boltons charset-normalizer conda-package-handling
      conda_package_streaming distro frozendict msgpack packaging platformdirs pluggy pycosat
      requests 'ruamel.yaml<0.19' tqdm truststore)
STAMP="rev=2 ${WHEEL##*/} ${DEPS[*]}"
MARKER=.cudaenv-complete

log() { printf '[conda] %s\n' "$*" >&2; }

if [ -f "$VENV/$MARKER" ] && [ -x "$VENV/bin/conda" ] && [ "$(<"$VENV/$MARKER")" = "$STAMP" ]; then
    log "complete, skipped ($VENV)"
    exit 0
fi
[ -f "$WHEEL" ] || { log "ERROR: $WHEEL not found (the clone needs ../shared beside it)"; exit 1; }
mkdir -p "$TESTBED"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$TESTBED/.conda.lock"
    flock -w 600 9 || { log "ERROR: another build holds $TESTBED/.conda.lock"; exit 1; }
fi
t0=$SECONDS
rm -rf -- "$VENV"
py=$(python3 -c 'import sys; print(sys.executable)')
"$py" -m venv "$VENV"
pip=("$VENV/bin/python" -m pip install -q --disable-pip-version-check --root-user-action=ignore)
# menuinst (desktop shortcuts) is not in the registry: --no-deps, and the listed dependencies.
"${pip[@]}" --no-deps "$WHEEL"
"${pip[@]}" "${DEPS[@]}" 2>&1 | { grep -v -e "is ignored: it is neither" -e menuinst -e "dependency resolver does not" >&2 || true; }
# A pip-installed conda refuses every command but init/info ("Conda has not been initialized",
# conda/cli/main_pip.py) until `conda init` has rewritten bin/conda and written condabin/ and
# etc/profile.d/. --no-user --all does only that, for every shell, and edits no rc file (HOME is
# a throwaway directory all the same).
init_home=$(mktemp -d)
HOME=$init_home "$VENV/bin/conda" init --no-user --all >/dev/null
rm -rf -- "$init_home"
"$VENV/bin/conda" --version >&2
# Prove it answers a real command, so a conda that still refuses fails here and not in 49 tests.
"$VENV/bin/conda" shell.posix hook >/dev/null || { log "ERROR: conda still refuses commands after conda init"; exit 1; }
printf '%s\n' "$STAMP" > "$VENV/$MARKER.tmp"
mv -- "$VENV/$MARKER.tmp" "$VENV/$MARKER"
log "built $VENV in $((SECONDS - t0)) s"
